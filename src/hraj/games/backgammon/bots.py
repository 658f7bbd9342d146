"""Backgammon bots: `pubeval`, a linear evaluator of Tesauro's published kind, 1-ply.

Checker play: every legal play's resulting position is scored with the race or the
contact weights (chosen by the position before the move, as in the original) and the
best is played. Cube and resignation decisions are those of `decisions.decide` with
its cheap evaluator `quick_probabilities`: the bear-off database once both sides are
home, a race formula in other races, the pip-count estimate `winning_chance` in contact.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import Any

from hraj.core.bot import Bot
from hraj.core.game import Seat, State
from hraj.games.backgammon.decisions import decide, quick_probabilities
from hraj.games.backgammon.moves import BAR, CHECKERS, OFF, POINTS, Board, is_contact, pip_count
from hraj.games.backgammon.notation import Play
from hraj.games.backgammon.rules import MOVE, BackgammonState

WON = 1e9  # all checkers off: nothing is better


@cache
def weights() -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(race weights, contact weights), 122 each, from pubeval.json."""
    text = resources.files("hraj.games.backgammon").joinpath("pubeval.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return tuple(data["race"]), tuple(data["contact"])


def pubeval(mine: Board, theirs: Board, race: bool) -> float:
    """Tesauro's linear score of a position after a move, for the side that moved."""
    if mine[OFF] == CHECKERS:
        return WON
    w = weights()[0 if race else 1]
    score = 0.0
    for point in range(1, POINTS + 1):
        base = 5 * (POINTS - point)  # inputs run from point 24 down to point 1
        own = mine[point]
        if own:
            score += w[base + 1] if own == 1 else w[base + 2]
            if own == 3:
                score += w[base + 3]
            elif own >= 4:
                score += w[base + 4] * (own - 3) / 2
        elif theirs[BAR - point] == 1:
            score += w[base]
    return score + w[120] * theirs[BAR] / 2 + w[121] * mine[OFF] / 15


def winning_chance(mine: Board | list[int], theirs: Board | list[int]) -> float:
    """A rough chance that the side on roll wins, from the pip counts.

    Being on roll is worth about four pips; checkers on the bar cost about eight more.
    The spread grows with the length of the race, as a race of 100 pips with a 10%
    lead is won about three times in four.
    """
    lead = pip_count(theirs) - pip_count(mine) + 4 + 8 * (theirs[BAR] - mine[BAR])
    spread = 0.08 * pip_count(mine) + 4
    return 1 / (1 + math.exp(-lead / spread))


class PubevalBot(Bot):
    """Plays the move pubeval likes best; cube and resignations by `decisions.decide`."""

    name = "pubeval"
    help = "Tesauro's linear pubeval evaluator, 1-ply, with Janowski's cube model"

    def choose(self, state: State[Any, Any], seat: Seat) -> Any:
        assert isinstance(state, BackgammonState)
        if state.phase == MOVE:
            return self.best_play(state)
        return decide(state, seat, quick_probabilities)

    def best_play(self, state: BackgammonState) -> Play:
        seat = state.turn
        race = not is_contact(state.boards[seat], state.boards[1 - seat])
        best = max(state.plays(), key=lambda play: pubeval(play.mine, play.theirs, race))
        return Play(best.steps)


BOTS: dict[str, type[Bot]] = {"pubeval": PubevalBot}
