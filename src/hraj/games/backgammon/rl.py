"""Backgammon for learning agents: one action id per play, cube decision or resignation.

A turn stays one decision (the whole play), so the id must tell every legal play of
any roll apart. Plays are told apart by their origins, since the dice fix the rest:

- 0-9: `roll`, `double`, `take`, `drop`, `beaver`, `accept`, `decline`, `resign 1-3`;
- 10-685, a roll of two different dice: `10 + 26 * high + low`, where `high` is the
  origin (1-25, 25 = the bar) of the step that uses the higher die and `low` that of
  the lower die, 0 for a die left unused;
- 686 on, doubles: the origins of the steps, highest first (one to four of 1-25),
  numbered in order of `_DOUBLE_ORIGINS`.

Chance ids: `6 * (first die - 1) + (second die - 1)`, or the seat of a `first N`.
The observation layout is documented in docs/rl.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

from hraj.core.codec import Codec, Writer
from hraj.core.game import Seat
from hraj.core.start import First
from hraj.games.backgammon.moves import BAR, CHECKERS, OFF, POINTS, Steps
from hraj.games.backgammon.notation import Decision, Play, Roll
from hraj.games.backgammon.rules import CHOOSE_FIRST, MAX_CUBE, PHASE_NAMES, RESIGNS, BackgammonState
from hraj.games.backgammon.view import BackgammonView

DECISIONS: tuple[Decision, ...] = (
    Decision("roll"),
    Decision("double"),
    Decision("take"),
    Decision("drop"),
    Decision("beaver"),
    Decision("accept"),
    Decision("decline"),
    *RESIGNS,
)
_DECISION_IDS = {decision: number for number, decision in enumerate(DECISIONS)}
_SLOTS = BAR + 1  # 0 = unused, 1-25 = origins
_TWO_DICE = len(DECISIONS)
_DOUBLES = _TWO_DICE + _SLOTS * _SLOTS
#: Every origin list of a doubles play: one to four origins, highest first.
_DOUBLE_ORIGINS: tuple[tuple[int, ...], ...] = tuple(
    origins for count in range(1, 5) for origins in itertools.combinations_with_replacement(range(BAR, 0, -1), count)
)
_PHASE_IDS = {name: number for number, name in enumerate(PHASE_NAMES)}
_DOUBLE_IDS = {origins: _DOUBLES + number for number, origins in enumerate(_DOUBLE_ORIGINS)}
NUM_ACTIONS = _DOUBLES + len(_DOUBLE_ORIGINS)
MATCH_SCALE = 25  # match lengths are shown divided by this (capped at 1)
_SIDE = POINTS * 4 + 2
MAX_PIPS = CHECKERS * BAR  # every checker on the bar
#: A point with n checkers as four cells (TD-Gammon's): at least 1, at least 2, exactly 3, the rest.
_POINT_CELLS = tuple(
    (float(count >= 1), float(count >= 2), float(count == 3), max(count - 3, 0) / (CHECKERS - 3))
    for count in range(CHECKERS + 1)
)


def _write_side(board: Sequence[int], put: Writer) -> None:
    """One side's checkers: four cells per point 1-24, then the bar and those borne off."""
    for count in board[1 : POINTS + 1]:
        if count:
            put.values(_POINT_CELLS[count])
        else:
            put.skip(4)
    put.values((board[BAR] / CHECKERS, board[OFF] / CHECKERS))


def _target(origin: int, die: int) -> int:
    return max(origin - die, OFF)


@lru_cache(maxsize=1 << 16)
def play_id(steps: Steps, high: int, low: int) -> int:
    """The id of a play of the dice `high`, `low`; the cache keeps the hot path short."""
    if high == low:
        return _DOUBLE_IDS[tuple(sorted((origin for origin, _ in steps), reverse=True))]
    if len(steps) == 1:
        ((origin, target),) = steps
        if _target(origin, high) == target:
            return _TWO_DICE + _SLOTS * origin
        return _TWO_DICE + origin
    (first, first_to), (second, second_to) = steps
    if _target(first, high) == first_to and _target(second, low) == second_to:
        return _TWO_DICE + _SLOTS * first + second
    return _TWO_DICE + _SLOTS * second + first


def _dice(state: BackgammonState) -> tuple[int, int]:
    roll = state.dice
    assert roll is not None, "a play needs dice"
    return roll


class BackgammonCodec(Codec[BackgammonView, BackgammonState]):
    """Backgammon with any options: the cube, match play and the seed's rules."""

    perfect_information = True

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def action_id(self, state: BackgammonState, seat: Seat, action: Decision | Play) -> int:
        if isinstance(action, Decision):
            return _DECISION_IDS[action]
        high, low = _dice(state)
        return play_id(action.steps, high, low)

    def action_ids(self, state: BackgammonState, seat: Seat, actions: Sequence[Decision | Play]) -> list[int]:
        if not actions or isinstance(actions[0], Decision):
            return [self.action_id(state, seat, action) for action in actions]
        high, low = _dice(state)
        return [
            _DECISION_IDS[action] if isinstance(action, Decision) else play_id(action.steps, high, low)
            for action in actions
        ]

    @property
    def observation_size(self) -> int:
        return 2 * _SIDE + 2 + 12 + len(PHASE_NAMES) + 3 + 5 + 5 + 5

    def encode(self, view: BackgammonView, put: Writer) -> None:
        me = view["seat"] or 0
        boards = view["boards"]
        for side in (me, 1 - me):
            _write_side(boards[side], put)
        pips = view["pips"]
        put.values((pips[me] / MAX_PIPS, pips[1 - me] / MAX_PIPS))
        dice = view["dice"]
        put.one_hots((None, None) if dice is None else (dice[0] - 1, dice[1] - 1), 6)
        put.one_hot(_PHASE_IDS[view["phase"]], len(PHASE_NAMES))
        put.seat(view["turn"], me, 2)
        put.value(float(me in view["to_act"]))
        cube = view["cube"]
        put.value(cube["value"].bit_length() / MAX_CUBE.bit_length())
        owner = cube["owner"]
        put.one_hot(2 if owner is None else int(owner != me), 3)
        put.value(float(cube["in_play"]))
        match = view["match"]
        length = match["length"]
        if length:
            score = match["score"]
            put.values(
                (1.0, min(length / MATCH_SCALE, 1.0), (length - score[me]) / length, (length - score[1 - me]) / length)
            )
        else:
            put.skip(4)
        put.value(float(match["crawford"]))
        resign = view["resign"]
        put.one_hot(0 if resign is None else resign["level"], 4)
        put.value(float(resign is not None and resign["by"] == me))

    # --- chance -----------------------------------------------------------------------------

    @property
    def num_chance_ids(self) -> int:
        return 36

    def chance_id(self, state: BackgammonState, outcome: Roll | First) -> int:
        if isinstance(outcome, First):
            return outcome.seat
        return 6 * (outcome.first - 1) + outcome.second - 1

    def chance_step_outcomes(self, state: BackgammonState, drawn: Sequence[int]) -> list[tuple[int, float]]:
        return [(self.chance_id(state, outcome), p) for outcome, p in state.chance_outcomes()]

    def chance_outcome(self, state: BackgammonState, drawn: Sequence[int]) -> Roll | First:
        """The seat or roll of a chance id, read back without listing the outcomes (the
        state refuses one that is not possible now)."""
        (only,) = drawn
        return First(only) if state.phase == CHOOSE_FIRST else Roll(only // 6 + 1, only % 6 + 1)

    # --- bounds -----------------------------------------------------------------------------

    def max_game_length(self) -> int:
        """No bound exists (a game can go on); this one holds even random play."""
        games = max(1, 2 * self.game.int_option("match_length") - 1)
        return 4_000 * games

    def score_range(self) -> tuple[float, float]:
        length = self.game.int_option("match_length")
        if length:
            return (0.0, float(length - 1 + 3 * MAX_CUBE))
        return (-3.0 * MAX_CUBE, 3.0 * MAX_CUBE)


CODEC = BackgammonCodec
