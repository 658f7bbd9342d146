"""The rating formulas: FIBS for games rated as matches, OpenSkill's Plackett–Luce for the rest.

Both read a finished game's `Outcome` only: the places of its seats (winners first,
then by score, ties sharing a place) or the winner of a match and its length.

**FIBS** (the formula match servers have used since FIBS): everyone starts at 1500. In a
match of `n` points between ratings differing by `D`, the underdog wins with
`P_upset = 1 / (10^(D·√n/2000) + 1)`; the winner gains and the loser loses
`4·K·√n·P`, where `P` is the chance the result had of going the other way (`P_upset`
when the favourite won, `1 − P_upset` when the underdog did), and each player's own
`K = max(1, 5 − experience/100)` (experience: the match points played before) makes
a newcomer's rating move up to five times as fast.

**OpenSkill** (Plackett–Luce, the `openskill` package with its defaults μ = 25,
σ = 25/3, β = 25/6): a rating is a mean μ and a deviation σ, shown as one number on a
scale centred on 1500, `1500 + 30·(μ − 25)`, with the deviation as `30·σ` (250 for a
newcomer). The factor 30 makes 400 points of difference mean odds of about 10 to 1
between two settled players of a two-player game, as on the FIBS and Elo scales.

Bots are anchors: they take part in the formulas with their calibrated rating
(`hraj.players.anchors`) and never move.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from hraj.core.game import OutcomeJson

#: FIBS: everyone's first rating.
FIBS_START = 1500.0
#: The OpenSkill model (its defaults: μ 25, σ 25/3, β 25/6).
MODEL = PlackettLuce()
#: Display points per unit of μ, and the display value of the model's starting μ.
SCALE = 30.0
CENTRE = 1500.0


def places(outcome: OutcomeJson, left: Sequence[int] = ()) -> list[int]:
    """The place of every seat, 1 for the first, from the outcome: the winners first, then
    the others by score (highest first), equal ones sharing a place ("1, 2, 2, 4"). Seats
    in `left` (a player who left and whose seat a stand-in finished) come last, together."""
    seats = range(len(outcome["scores"]))
    gone = set(left)

    def standing(seat: int) -> tuple[bool, bool, float]:
        if seat in gone:
            return (True, True, 0.0)
        return (False, seat not in outcome["winners"], -outcome["scores"][seat])

    keys = {seat: standing(seat) for seat in seats}
    return [1 + sum(1 for other in seats if keys[other] < keys[seat]) for seat in seats]


# --- FIBS ----------------------------------------------------------------------------------


def fibs_k(experience: int) -> float:
    """How fast a rating moves: 5 for a newcomer, down to 1 from 400 match points played."""
    return max(1.0, 5.0 - experience / 100)


def fibs_upset(rating_a: float, rating_b: float, length: int) -> float:
    """The chance the lower-rated of two players wins a match of `length` points."""
    difference = abs(rating_a - rating_b)
    return 1.0 / (10 ** (difference * math.sqrt(length) / 2000) + 1)


def fibs_gain(winner: float, loser: float, length: int) -> float:
    """4·√n·P before each player's K: what the winner gains and the loser loses at K = 1."""
    upset = fibs_upset(winner, loser, length)
    chance_against = upset if winner >= loser else 1.0 - upset
    return 4.0 * math.sqrt(length) * chance_against


@dataclass(frozen=True, slots=True)
class Skill:
    """One seat's rating as the formulas use it: `rating` (FIBS rating or OpenSkill μ),
    `deviation` (OpenSkill σ, None for FIBS), `experience` (FIBS), and whether it is a
    bot's anchor that never moves."""

    rating: float
    deviation: float | None = None
    experience: int = 0
    fixed: bool = False


def fibs_match(skills: Sequence[Skill], winner: int, length: int) -> list[Skill]:
    """The two players' ratings after a match of `length` points that `winner` (0 or 1) won."""
    loser = 1 - winner
    gain = fibs_gain(skills[winner].rating, skills[loser].rating, length)
    after = []
    for seat, skill in enumerate(skills):
        if skill.fixed:
            after.append(skill)
            continue
        change = gain * fibs_k(skill.experience)
        rating = skill.rating + (change if seat == winner else -change)
        after.append(Skill(rating, None, skill.experience + length))
    return after


# --- OpenSkill -------------------------------------------------------------------------


def openskill_game(skills: Sequence[Skill], seat_places: Sequence[int]) -> list[Skill]:
    """Every seat's rating after a game with these places (1 first; ties share one)."""
    teams = [[MODEL.rating(mu=s.rating, sigma=s.deviation)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(place) for place in seat_places])
    after = []
    for skill, (new,) in zip(skills, rated, strict=True):
        after.append(skill if skill.fixed else Skill(float(new.mu), float(new.sigma), skill.experience))
    return after


def display(mu: float) -> float:
    """An OpenSkill μ on the 1500-centred scale."""
    return CENTRE + SCALE * (mu - MODEL.mu)


def display_deviation(sigma: float) -> float:
    return SCALE * sigma


def from_display(rating: float) -> float:
    """The μ of a rating on the 1500-centred scale (a bot's anchor)."""
    return MODEL.mu + (rating - CENTRE) / SCALE
