"""The bots' fixed ratings: calibrated by `python -m hraj.players.calibrate`, shipped in
`bot_ratings.json` beside it, read here.

Each game's entry names its formula ("fibs" or "openskill"), the level pinned while
fitting (at 1500, where a newcomer starts) and for each bot its rating on the shown
scale with the half-width of its 95% interval.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from hraj.core.bot import bot_names
from hraj.players.rating import SCALE, Skill, from_display

DATA = Path(__file__).with_name("bot_ratings.json")


@dataclass(frozen=True, slots=True)
class BotRating:
    rating: float
    """On the shown scale (FIBS points, or the 1500-centred OpenSkill scale)."""
    interval: float
    """Half-width of the rating's 95% confidence interval."""
    system: str

    def skill(self) -> Skill:
        """The bot as the formulas use it: an anchor that never moves."""
        if self.system == "fibs":
            return Skill(self.rating, None, 0, fixed=True)
        # The interval is 1.96 standard errors of the fit: that error is the anchor's σ.
        return Skill(from_display(self.rating), max(self.interval / 1.96, 1.0) / SCALE, 0, fixed=True)


@functools.cache
def _data() -> dict[str, dict[str, object]]:
    loaded: dict[str, dict[str, object]] = json.loads(DATA.read_text(encoding="utf-8"))
    return loaded


def bot_rating(game_id: str, bot: str) -> BotRating | None:
    """A bot's calibrated rating in a game, or None where it has none."""
    entry = _data().get(game_id)
    if entry is None:
        return None
    bots = entry.get("bots")
    found = bots.get(bot) if isinstance(bots, dict) else None
    if not isinstance(found, dict):
        return None
    return BotRating(float(found["rating"]), float(found["interval"]), str(entry["system"]))


def anchors(game_id: str) -> dict[str, float]:
    """The game's bot levels that have a calibrated rating -> that rating: the levels a
    seeker without a partner may be offered, the nearest to their own rating."""
    found = {bot: bot_rating(game_id, bot) for bot in bot_names(game_id)}
    return {bot: anchor.rating for bot, anchor in found.items() if anchor is not None}
