"""Backgammon hints: shots counted with the opponent's real plays, the cube decisions of
the strongest bot with the cube model's equities, and an evaluator with `values` used as it is."""

from __future__ import annotations

from typing import Any

import pytest

from hraj.analysis.game import hint
from hraj.analysis.text import reason_text
from hraj.core.bot import Bot, make_bot, strongest_bot
from hraj.core.game import Seat, State
from hraj.games.backgammon import bots
from hraj.games.backgammon.hints import cube_equities, shots
from hraj.games.backgammon.moves import Board
from hraj.games.backgammon.notation import DOUBLE, DROP, ROLL, TAKE, Action
from hraj.games.backgammon.rules import CUBE, DOUBLED
from tests.games.backgammon.helpers import position


def board(checkers: dict[int, int]) -> Board:
    counts = [0] * 26
    for point, count in checkers.items():
        counts[point] = count
    return tuple(counts)


def test_a_blot_six_pips_from_one_checker_is_hit_by_17_rolls() -> None:
    # any 6 (11), 5-1 and 4-2 (2 each), 3-3 and 2-2 (1 each); 1-1 reaches only four pips
    mine, theirs = board({10: 1, 2: 14}), board({21: 1, 1: 14})
    assert shots(mine, theirs) == 17


def test_a_blot_behind_a_six_prime_cannot_be_hit() -> None:
    # the opponent's last checker stands on my 14-point, my blot eleven pips away on my 3-point;
    # 6-5 would land on my 8- or 9-point, both made
    mine = board({3: 1, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 13: 2})
    theirs = board({11: 1, 1: 14})
    assert shots(mine, theirs) == 0


def test_no_blot_no_shots_and_the_reason_is_said_in_czech() -> None:
    state = position({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}, dice=(3, 1))
    options, _ = hint(state, 0)
    best = options[0]
    assert str(best.action) == "8/5 6/5"  # the net's choice: make the five-point
    assert [reason_text(r, "cs") for r in best.reasons] == ["nenechá soupeři žádný zásah"]
    blots = [o for o in options if o.reasons and o.reasons[-1].count]
    assert blots and all(reason_text(o.reasons[-1], "cs").startswith("nechává blot v dosahu") for o in blots)


def test_the_cube_model_takes_down_to_22_and_doubles_from_70_percent() -> None:
    at_take = cube_equities(0.78)  # the doubler's side: the taker has 22 %
    assert at_take["double_take"] == pytest.approx(1.0)
    at_double = cube_equities(0.70)
    assert at_double["no_double"] == pytest.approx(at_double["double_take"])


@pytest.mark.parametrize(
    ("mover", "other", "expected"),
    [({1: 6, 2: 4, 3: 5}, {4: 6, 5: 5, 6: 4}, DOUBLE), ({6: 8, 5: 7}, {6: 8, 5: 7}, ROLL)],
    ids=["ahead in the race", "even race"],
)
def test_the_cube_hint_is_the_strongest_bots_decision(
    mover: dict[int, int], other: dict[int, int], expected: object
) -> None:
    state = position(mover, other)
    assert state.phase == CUBE
    options, advice = hint(state, 0)
    strongest = make_bot("backgammon", strongest_bot("backgammon"), 0)
    assert options[0].action == strongest.choose(state.copy(), 0) == expected
    assert {str(o.action) for o in options} == {"roll", "double"}  # resignations are not weighed
    assert set(options[0].detail) == {"no_double", "double_take", "double_pass"}
    assert not advice.is_estimate()


def test_a_doubled_side_far_behind_drops_and_close_behind_takes() -> None:
    far = position({2: 15}, {20: 15}, turn=1)
    far.apply(1, DOUBLE)
    assert far.phase == DOUBLED
    assert hint(far, 0)[0][0].action == DROP
    near = position({6: 8, 5: 7}, {6: 8, 5: 7}, turn=1)
    near.apply(1, DOUBLE)
    assert hint(near, 0)[0][0].action == TAKE


class FakeNet(Bot):
    """An evaluator of the kind the hints wait for: every play with its equity."""

    name = "net"

    def values(self, state: State[Any, Any], seat: Seat) -> list[tuple[Action, float]]:
        legal = state.legal_actions(seat)
        return [(action, -0.01 * number) for number, action in enumerate(legal)]

    def choose(self, state: State[Any, Any], seat: Seat) -> Action:
        return max(self.values(state, seat), key=lambda pair: pair[1])[0]


def test_an_evaluator_with_values_gives_the_equities_as_they_are(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "BOTS", {"net": FakeNet})
    monkeypatch.setattr(bots, "LEVELS", {})
    state = position({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}, dice=(6, 5))
    options, advice = hint(state, 0)
    assert not advice.is_estimate()
    assert options[0].action == state.legal_actions(0)[0]
    assert [o.value for o in options[:3]] == [0.0, -0.01, -0.02]
    assert options[0].reasons  # the reasons of a play come from the position, whoever values it
