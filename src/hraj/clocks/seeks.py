"""Pairing people who press "Hrát hned": same game, options, rated or not and clock.

A seek waits in the store (so any process may pair it); who is paired with whom is
decided here, from the seeks' ratings and how long each has waited: the range of
ratings a seeker accepts widens with waiting, so a strong or weak player still finds
someone, and the first to have waited is served first. A multiplayer seek is paired
once as many seekers as its player count fit one another's ranges. After
`BOT_OFFER_AFTER_S` without a partner the seeker is offered a bot of similar rating.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hraj.core.jsondata import GameOptions

#: Rating points a new seek accepts either side of its own.
RANGE_START = 150.0
#: Rating points the range widens by each second of waiting.
RANGE_GROWTH = 25.0
#: The widest range: past it, anyone seeking the same thing will do.
RANGE_MAX = 1000.0
#: Seconds of waiting after which a bot of similar rating is offered.
BOT_OFFER_AFTER_S = 30.0
#: Seconds a seek lives without a sign of its browser (which renews it every few seconds).
SEEK_TTL_S = 10.0
#: The rating of a seeker who has none yet (the scale's centre).
DEFAULT_RATING = 1500.0


def seek_key(game: str, options: GameOptions, players: int, rated: bool, clock: Mapping[str, object] | None) -> str:
    """What two seeks must share to be paired, as one text (options in canonical order)."""
    return json.dumps(
        {"g": game, "o": options, "p": players, "r": rated, "c": clock}, sort_keys=True, separators=(",", ":")
    )


def rating_range(waited_s: float) -> float:
    """Rating points either side that a seek accepts after waiting `waited_s` seconds."""
    return min(RANGE_MAX, RANGE_START + RANGE_GROWTH * max(0.0, waited_s))


@dataclass(frozen=True, slots=True)
class Waiting:
    """A seek as the pairing sees it."""

    id: str
    rating: float
    since: float
    """When it began (epoch seconds)."""
    person: str | None = None
    """Who seeks (None: unknown): one person is never seated against themselves."""


def _fits(a: Waiting, b: Waiting, now: float) -> bool:
    """Each accepts the other: two people (not one person's two seeks), the rating gap
    within both ranges."""
    if a.person is not None and a.person == b.person:
        return False
    gap = abs(a.rating - b.rating)
    return gap <= rating_range(now - a.since) and gap <= rating_range(now - b.since)


def choose_group(waiting: Sequence[Waiting], players: int, now: float) -> list[Waiting] | None:
    """The seekers to seat together now, the longest-waiting first, or None.

    The one who has waited longest is served first, with the closest ratings among
    those every member accepts; if it finds no full table, the next one tries."""
    queue = sorted(waiting, key=lambda w: (w.since, w.id))
    for anchor in queue:
        group = [anchor]
        others = sorted((w for w in queue if w is not anchor), key=lambda w: (abs(w.rating - anchor.rating), w.since))
        for other in others:
            if all(_fits(other, member, now) for member in group):
                group.append(other)
                if len(group) == players:
                    return group
    return None


def bot_near(rating: float, levels: Mapping[str, float], fallback: str) -> str:
    """The bot level whose rating is nearest `rating` (ties: the weaker); `fallback`
    where no level has a rating yet."""
    if not levels:
        return fallback
    return min(levels, key=lambda name: (abs(levels[name] - rating), levels[name]))
