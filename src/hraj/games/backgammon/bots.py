"""Backgammon bots in three levels: pubeval, and the neural net at 0-ply and 1-ply.

`pubeval` is a linear evaluator of Tesauro's published kind, 1-ply: every legal play's
resulting position is scored with the race or the contact weights (chosen by the
position before the move, as in the original) and the best is played.

`net` and `expert` play with hraj's own evaluator (`evaluator`, neural nets trained by
self-play): `net` takes the play the nets like best (0-ply), `expert` looks one roll
ahead with gnubg's move filter (`search`; with the earlier net 2-ply measured no
stronger, and it costs about ten times as much). `expert.values` gives every legal play
with its equity and five probabilities, for hints and analysis.

Cube and resignations, for every level, are `decisions.decide` (Janowski's cube model,
the match equity table, resignations only of certain losses) with the level's own
evaluator: `pubeval` with `decisions.quick_probabilities` (the bear-off database, a
race formula, the pip-count estimate `winning_chance` in contact), the net levels with
the net at 0-ply behind the bear-off database (`decisions.with_bearoff`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import NDArray

from hraj.core.bot import Bot
from hraj.core.game import Seat, State
from hraj.games.backgammon.cube import ProbabilityFunction
from hraj.games.backgammon.decisions import decide, quick_probabilities, with_bearoff
from hraj.games.backgammon.evaluator import Evaluator, Probabilities, position, shipped
from hraj.games.backgammon.moves import BAR, CHECKERS, OFF, POINTS, Board, is_contact, pip_count
from hraj.games.backgammon.notation import Action, Play
from hraj.games.backgammon.rules import MOVE, BackgammonState
from hraj.games.backgammon.search import on_roll, rank_plays

WON = 1e9  # all checkers off: nothing is better


def _(text: str) -> str:
    """Marks a text for the catalogs; it is translated where it is shown."""
    return text


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


def pubeval_scores(after: NDArray[np.int8], race: NDArray[np.bool_]) -> NDArray[np.float64]:
    """`pubeval` of many positions after a play at once (n, 52, the mover first), each
    with the race or contact weights as `race` says."""
    mine = after[:, 1 : POINTS + 1].astype(np.int64)  # the mover's points 1..24
    blots = after[:, 2 * BAR : BAR + 1 : -1] == 1  # the opponent's count on the same points, == 1
    units = np.zeros((len(after), POINTS, 5))
    units[:, :, 0] = (mine == 0) & blots
    units[:, :, 1] = mine == 1
    units[:, :, 2] = mine >= 2
    units[:, :, 3] = mine == 3
    units[:, :, 4] = np.maximum(mine - 3, 0) / 2
    inputs = np.zeros((len(after), 122))
    inputs[:, :120] = units[:, ::-1].reshape(len(after), 120)  # the inputs run from point 24 down
    inputs[:, 120] = after[:, 2 * BAR + 1] / 2
    inputs[:, 121] = after[:, OFF] / CHECKERS
    race_weights, contact_weights = (np.array(table) for table in weights())
    scores = np.where(race, inputs @ race_weights, inputs @ contact_weights)
    return np.where(after[:, OFF] == CHECKERS, WON, scores)


def winning_chance(mine: Board | list[int], theirs: Board | list[int]) -> float:
    """A rough chance that the side on roll wins, from the pip counts.

    Being on roll is worth about four pips; checkers on the bar cost about eight more.
    The spread grows with the length of the race, as a race of 100 pips with a 10%
    lead is won about three times in four.
    """
    lead = pip_count(theirs) - pip_count(mine) + 4 + 8 * (theirs[BAR] - mine[BAR])
    spread = 0.08 * pip_count(mine) + 4
    return 1 / (1 + math.exp(-lead / spread))


def _decision(state: BackgammonState, seat: Seat, probabilities: ProbabilityFunction) -> Action:
    """The cube or resignation decision of a seat that acts before or instead of a play."""
    decision = decide(state, seat, probabilities)
    assert decision is not None, "a bot is asked only where its seat acts"
    return decision


class PubevalBot(Bot):
    """Plays the move pubeval likes best; cube and resignations by `decisions.decide`."""

    name = "pubeval"
    help = _("Tesauro's pubeval: plays the position a linear formula scores best")

    def choose(self, state: State[Any, Any], seat: Seat) -> Action:
        assert isinstance(state, BackgammonState)
        if state.phase == MOVE:
            return self.best_play(state)
        return _decision(state, seat, quick_probabilities)

    def best_play(self, state: BackgammonState) -> Play:
        seat = state.turn
        race = not is_contact(state.boards[seat], state.boards[1 - seat])
        best = max(state.plays(), key=lambda play: pubeval(play.mine, play.theirs, race))
        return Play(best.steps)


@dataclass(frozen=True)
class PlayValue:
    """A legal play with its cubeless equity for the mover (points a game, gnubg's units),
    its five probabilities (win, gammon win, backgammon win, gammon loss, backgammon
    loss) and the ply that valued it."""

    action: Play
    equity: float
    probabilities: tuple[float, float, float, float, float]
    ply: int


class NetBot(Bot):
    """Plays the checkers by hraj's neural net, searching `plies` rolls ahead (0-2)."""

    name = "net"
    help = _(
        "a neural net trained by self-play, playing the position it likes best; "
        "wins about 0.44 points a game against pubeval"
    )
    plies = 0
    #: How deep the cube's evaluation of the position before the roll searches.
    cube_plies = 0

    def __init__(self, seed: int | None = None, evaluator: Evaluator | None = None) -> None:
        super().__init__(seed)
        self.evaluator = evaluator or shipped()
        #: The cube's evaluator: the same nets, `cube_plies` deep, the bear-off database
        #: where both sides are home.
        self.probabilities: ProbabilityFunction = with_bearoff(self._before_roll)

    def _before_roll(self, mine: Board, theirs: Board) -> Probabilities:
        return np.asarray(on_roll(self.evaluator, position(mine, theirs)[np.newaxis], self.cube_plies)[0])

    def choose(self, state: State[Any, Any], seat: Seat) -> Action:
        assert isinstance(state, BackgammonState)
        if state.phase != MOVE:
            return _decision(state, seat, self.probabilities)
        legal = state.play_steps()
        if len(legal) == 1:
            return Play(legal[0])
        return self.values(state, seat)[0].action

    def values(self, state: BackgammonState, seat: Seat) -> list[PlayValue]:
        """Every legal play of the roll with its equity and probabilities, best first
        (empty unless `seat` has a roll to play). The best few are valued at this bot's
        ply, the others at the ply where the move filter left them."""
        assert isinstance(state, BackgammonState)
        if state.phase != MOVE or seat != state.turn or state.dice_rolled is None:
            return []
        position = np.array(state.boards[seat] + state.boards[1 - seat], dtype=np.int8)
        dice = (state.dice_rolled.first, state.dice_rolled.second)
        return [
            PlayValue(Play(ranked.steps), ranked.equity, _five(ranked.probabilities), ranked.ply)
            for ranked in rank_plays(self.evaluator, position, dice, self.plies)
        ]


def _five(probabilities: Probabilities) -> tuple[float, float, float, float, float]:
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = (float(p) for p in probabilities)
    return win, win_gammon, win_backgammon, lose_gammon, lose_backgammon


class ExpertBot(NetBot):
    """The net one roll deep with gnubg's move filter: the strongest level."""

    name = "expert"
    help = _(
        "the same net looking one roll ahead, as gnubg's 1-ply: the strongest; "
        "wins about 0.55 points a game against pubeval"
    )
    plies = 1
    cube_plies = 1


BOTS: dict[str, type[Bot]] = {"pubeval": PubevalBot, "net": NetBot, "expert": ExpertBot}
#: The bot a new seat gets in the web and the terminal: the net at 0-ply.
DEFAULT_BOT = "net"
#: Each level, easiest first: its name and what it does (measured by
#: `python -m benchmarks.backgammon_net`).
LEVELS: dict[str, tuple[str, str]] = {
    "pubeval": (_("Beginner"), PubevalBot.help),
    "net": (_("Advanced"), NetBot.help),
    "expert": (_("Master"), ExpertBot.help),
}
