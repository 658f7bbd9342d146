"""Every cube and resignation decision of a bot, from any evaluator: `decide`.

A bot passes the state, its seat and a `ProbabilityFunction` (gnubg's five outputs of
the side on roll before it rolls); `decide` answers with the action to take in every
phase but checker play: roll or double (or resign), take, drop or beaver, accept or
decline a resignation. The numbers come from `cube` (Janowski's model, the match
equity table).

Resignations are offered only when the game is truly lost at that level: no contact
left (so no shot can turn it), the evaluator's chance of winning below one in a
million, and the level certain by the same measure (a single when no gammon is
possible, a gammon when it cannot be saved, a backgammon when that cannot). The bear-off
database gives such certainties exactly; `quick_probabilities` only ever claims them
there. A resignation is accepted when it gives at least the cubeful equity of playing
on (money points, or match winning chance in a match).

`quick_probabilities` is a cheap evaluator for bots without a net: the bear-off
database once both sides are home, a normal race formula in other races, and pubeval's
pip-count estimate in contact, with rough gammon rates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.bearoff import bearoff_probabilities
from hraj.games.backgammon.cube import (
    CubeAnalysis,
    CubeContext,
    Outcomes,
    Owner,
    ProbabilityFunction,
    analyse,
    cube_efficiency,
)
from hraj.games.backgammon.match_equity import MatchScore
from hraj.games.backgammon.moves import BAR, CHECKERS, HOME_SIZE, OFF, Board, is_contact, pip_count
from hraj.games.backgammon.notation import ACCEPT, BEAVER, DECLINE, DOUBLE, DROP, ROLL, TAKE, Action
from hraj.games.backgammon.rules import BEAVERED, CUBE, DOUBLED, MOVE, RESIGNED, RESIGNS, BackgammonState

#: "No chance" for a resignation: a probability below this counts as none.
CERTAIN = 1e-6
#: The normal race formula's spread of the pip difference: sigma^2 = RACE_VARIANCE * (pips + pips).
RACE_VARIANCE = 2.0
#: Being on roll is worth about this many pips in a race.
ON_ROLL_PIPS = 4.0
#: Outside the bear-off database no estimate is ever this certain (so no resignation).
ESTIMATE_LIMIT = 0.001


def decide(state: BackgammonState, seat: int, probabilities: ProbabilityFunction) -> Action | None:
    """The cube or resignation action of `seat` now; None where it must move its checkers."""
    phase = state.phase
    if phase == CUBE:
        return _before_roll(state, seat, probabilities)
    if phase in (DOUBLED, BEAVERED):
        return _answer_double(state, seat, probabilities)
    if phase == RESIGNED:
        return ACCEPT if accepts_resignation(state, seat, probabilities) else DECLINE
    return None


def context(state: BackgammonState, seat: int) -> CubeContext:
    """The cube as `seat` sees it in this state."""
    owner = Owner.CENTRED if state.owner is None else Owner.MINE if state.owner == seat else Owner.THEIRS
    score = None
    length = state.match_length
    if length:
        score = MatchScore(
            length - state.score[seat], length - state.score[1 - seat], state.crawford, state.crawford_done
        )
    options = state.game.options
    cube_on = state.game.cube_in_play
    return CubeContext(
        cube=state.cube,
        owner=owner,
        jacoby=bool(options["jacoby"]),
        beavers=bool(options["beavers"]),
        score=score,
        efficiency=cube_efficiency(tuple(state.boards[seat]), tuple(state.boards[1 - seat])) if cube_on else 0.0,
        cube_in_play=cube_on,
    )


def outcomes_of(state: BackgammonState, seat: int, probabilities: ProbabilityFunction) -> Outcomes:
    """The cubeless chances of `seat` as if it were on roll before rolling."""
    return Outcomes.of(probabilities(tuple(state.boards[seat]), tuple(state.boards[1 - seat])))


def cube_analysis(state: BackgammonState, probabilities: ProbabilityFunction) -> CubeAnalysis:
    """The cube decision of the player on roll (before the roll), with its three equities."""
    seat = state.turn
    return analyse(outcomes_of(state, seat, probabilities), context(state, seat))


def resign_level(outcomes: Outcomes, contact: bool) -> int:
    """The resignation to offer (1 single, 2 gammon, 3 backgammon), 0 for none: only a
    loss that is certain at that level."""
    if contact or outcomes.win > CERTAIN:
        return 0
    if outcomes.lose_backgammon >= 1 - CERTAIN:
        return 3
    if outcomes.lose_gammon >= 1 - CERTAIN and outcomes.lose_backgammon <= CERTAIN:
        return 2
    if outcomes.lose_gammon <= CERTAIN:
        return 1
    return 0


def _before_roll(state: BackgammonState, seat: int, probabilities: ProbabilityFunction) -> Action:
    outcomes = outcomes_of(state, seat, probabilities)
    mine, theirs = state.boards[seat], state.boards[1 - seat]
    if not state.game.seed_rules:
        level = resign_level(outcomes, is_contact(mine, theirs))
        if level > state.declined:
            return RESIGNS[level - 1]
    if not state.cube_available(seat):
        return ROLL
    return DOUBLE if analyse(outcomes, context(state, seat)).double else ROLL


def _answer_double(state: BackgammonState, seat: int, probabilities: ProbabilityFunction) -> Action:
    """Take, drop or beaver a double (or a beaver) offered to `seat`.

    After a take the cube, at `cube << offers`, belongs to the player not on roll;
    dropping loses `stake`, half that. Seen from the player on roll, taking is worth
    `double_take / 2` per taken cube, so the taker (not on roll) takes while that is at
    most 1/2 and the doubler takes a beaver while it is at least -1/2."""
    analysis = cube_analysis(state, probabilities)
    legal = state.legal_actions(seat)
    on_roll_after_take = analysis.double_take / 2
    if state.match_length:
        return TAKE if analysis.take else DROP
    mine_after_take = -on_roll_after_take if seat != state.turn else on_roll_after_take
    if BEAVER in legal and mine_after_take > 0:
        return BEAVER
    return TAKE if mine_after_take >= -0.5 else DROP


def accepts_resignation(state: BackgammonState, seat: int, probabilities: ProbabilityFunction) -> bool:
    """Does the offered resignation give `seat` at least what playing on is worth?"""
    level = state.resignation
    resigner = 1 - seat
    points = level * state.stake
    on = playing_on(state, seat, resigner, probabilities)
    score = context(state, seat).score
    if score is None:
        return points >= on * state.cube - 1e-9
    return score.after(points) >= on - 1e-9


def playing_on(state: BackgammonState, seat: int, resigner: int, probabilities: ProbabilityFunction) -> float:
    """What playing on is worth to `seat` (money: per cube; match: MWC), the resigner
    choosing as best for itself."""
    if state.resume_phase == MOVE and state.dice_rolled is not None and resigner == state.turn:
        # the resigner has rolled: it would play the play best for it, then `seat` is on roll
        values = []
        for play in state.plays():
            after = state.copy()
            after.boards[resigner], after.boards[seat] = list(play.mine), list(play.theirs)
            after.turn = seat
            values.append(_on_roll_value(after, seat, probabilities))
        if values:
            return min(values)
    if state.resume_phase in (DOUBLED, BEAVERED):
        analysis = cube_analysis(state, probabilities)
        turn_value = min(analysis.double_take, analysis.double_pass)  # the answer best for the answerer
        if state.match_length:
            return turn_value if seat == state.turn else 1.0 - turn_value
        return turn_value if seat == state.turn else -turn_value
    on_roll = state.turn
    analysis = cube_analysis(state, probabilities)
    value = max(analysis.no_double, analysis.double_equity) if analysis.double else analysis.no_double
    if on_roll == seat:
        return value
    return 1.0 - value if state.match_length else -value


def _on_roll_value(state: BackgammonState, seat: int, probabilities: ProbabilityFunction) -> float:
    mine, theirs = state.boards[seat], state.boards[1 - seat]
    if mine[OFF] == CHECKERS or theirs[OFF] == CHECKERS:
        winner = seat if mine[OFF] == CHECKERS else 1 - seat
        multiplier = state.win_multiplier(winner)
        points = state.game_value(multiplier) * (1 if winner == seat else -1)
        score = context(state, seat).score
        return points / state.cube if score is None else score.after(points)
    analysis = analyse(outcomes_of(state, seat, probabilities), context(state, seat))
    return max(analysis.no_double, analysis.double_equity) if analysis.double else analysis.no_double


# --- evaluators ---------------------------------------------------------------------------


def with_bearoff(probabilities: ProbabilityFunction) -> ProbabilityFunction:
    """An evaluator that answers from the bear-off database once both sides are home
    (exact, and the only source of certain resignations there) and asks `probabilities` otherwise."""

    def evaluate(mine: Board, theirs: Board) -> Sequence[float] | NDArray[np.float64]:
        exact = bearoff_probabilities(mine, theirs)
        return exact if exact is not None else probabilities(mine, theirs)

    return evaluate


def quick_probabilities(mine: Board, theirs: Board) -> tuple[float, float, float, float, float]:
    """Five outputs for the side on roll without a net (see the module docstring)."""
    exact = bearoff_probabilities(mine, theirs)
    if exact is not None:
        return exact
    if is_contact(mine, theirs):
        win = _pip_estimate(mine, theirs)
        return (win, 0.2 * win * win, 0.01 * win * win, 0.2 * (1 - win) ** 2, 0.01 * (1 - win) ** 2)
    win = race_win_estimate(pip_count(mine), pip_count(theirs))
    win_gammon = 0.0 if theirs[OFF] else race_win_estimate(pip_count(mine), _pips_to_first_off(theirs), on_roll=True)
    lose_gammon = 0.0 if mine[OFF] else race_win_estimate(pip_count(theirs), _pips_to_first_off(mine), on_roll=False)
    return (win, min(win_gammon, win), 0.0, min(lose_gammon, 1 - win), 0.0)


def race_win_estimate(pips: float, their_pips: float, *, on_roll: bool = True) -> float:
    """The chance that a side with `pips` to go beats one with `their_pips` in a pure race:
    normal in the pip lead (with the roll worth ON_ROLL_PIPS), kept away from 0 and 1."""
    lead = their_pips - pips + (ON_ROLL_PIPS if on_roll else -ON_ROLL_PIPS)
    spread = math.sqrt(RACE_VARIANCE * max(pips + their_pips, 1.0))
    chance = 0.5 * (1.0 + math.erf(lead / (spread * math.sqrt(2.0))))
    return min(max(chance, ESTIMATE_LIMIT), 1.0 - ESTIMATE_LIMIT)


def _pips_to_first_off(board: Board) -> float:
    """Pips a side must roll before it can bear off a checker: all home, then one off."""
    outside = sum((point - HOME_SIZE) * board[point] for point in range(HOME_SIZE + 1, BAR + 1))
    lowest = min((point for point in range(1, HOME_SIZE + 1) if board[point]), default=HOME_SIZE)
    return outside + lowest


def _pip_estimate(mine: Board, theirs: Board) -> float:
    """pubeval's pip-count chance of winning in contact (see `bots.winning_chance`)."""
    lead = pip_count(theirs) - pip_count(mine) + ON_ROLL_PIPS + 8 * (theirs[BAR] - mine[BAR])
    spread = 0.08 * pip_count(mine) + 4
    chance = 1 / (1 + math.exp(-lead / spread))
    return min(max(chance, ESTIMATE_LIMIT), 1.0 - ESTIMATE_LIMIT)
