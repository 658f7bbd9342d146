"""What the core gives every game's adviser."""

from __future__ import annotations

from typing import Any

import hraj
from hraj.core.game import Seat, State
from hraj.core.hints import POINTS, WIN, OptionValue, ScoreOrWinAdviser, Thresholds, rank

SOLO = Thresholds(1.0, 2.0, 4.0, ratings=(0.1, 0.2, 0.4, 0.8))
TABLE = Thresholds(0.01, 0.02, 0.04, ratings=(0.001, 0.002, 0.004, 0.008))


class Advice(ScoreOrWinAdviser):
    solo_thresholds = SOLO
    table_thresholds = TABLE

    def values(
        self, state: State[Any, Any], seat: Seat, *, played: object = None, reasons: bool = True
    ) -> list[OptionValue]:
        return []


def test_alone_an_option_is_worth_points_and_at_a_table_a_chance_of_winning() -> None:
    alone = Advice(hraj.game("qwixx", players=1))
    table = Advice(hraj.game("qwixx", players=2))
    assert (alone.unit, alone.thresholds) == (POINTS, SOLO)
    assert (table.unit, table.thresholds) == (WIN, TABLE)


def test_equal_values_are_ordered_by_the_tiebreak_then_the_bots_choice_then_as_given() -> None:
    options = [
        OptionValue("a", 1.0, POINTS),
        OptionValue("b", 1.0, POINTS, detail={"margin": 0.5}),
        OptionValue("c", 2.0, POINTS),
        OptionValue("d", 1.0, POINTS),
    ]
    assert [option.action for option in rank(options, "d")] == ["c", "d", "a", "b"]
    assert [option.action for option in rank(options, "d", tiebreak="margin")] == ["c", "b", "d", "a"]
