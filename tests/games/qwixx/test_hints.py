"""Qwixx hints: the reasons a player reads, in Czech and Slovak plural forms."""

from __future__ import annotations

import hraj
from hraj.analysis.game import hint
from hraj.analysis.text import reason_text
from hraj.core.hints import POINTS, WIN
from hraj.games.qwixx.rules import QwixxState


def solo_after(roll: str) -> QwixxState:
    state = hraj.game("qwixx", players=1).new_state()
    assert isinstance(state, QwixxState)
    state.apply_chance(roll)
    return state


def reasons(state: QwixxState, action: str, lang: str) -> list[str]:
    options, _ = hint(state, 0)
    found = next(option for option in options if str(option.action) == action)
    return [reason_text(reason, lang) for reason in found.reasons]


def test_solo_values_are_expected_points_and_skips_are_counted_in_czech_and_slovak() -> None:
    state = solo_after("w3 w3 r1 y1 g1 b1")  # white sum 6
    options, _ = hint(state, 0)
    assert {option.unit for option in options} == {POINTS}
    assert reasons(state, "r6", "cs") == ["přeskočí 4 čísla"]  # 2, 3, 4, 5 left behind
    assert reasons(state, "r6", "sk") == ["preskočí 4 čísla"]
    assert reasons(state, "g6", "cs") == ["přeskočí 6 čísel"]  # 12 down to 7


def test_the_lock_and_the_penalty_are_named() -> None:
    state = solo_after("w6 w6 r1 y1 g1 b1")  # white sum 12
    state.marks[0][0] = 0b11111  # red 2 to 6 crossed: red 12 locks
    assert reasons(state, "r12", "cs") == ["uzamkne řadu"]
    assert reasons(state, "pass", "cs") == ["riskuje 1. chybný hod, pokud nepřijde barevný křížek"]


def test_with_others_the_values_are_chances_of_winning() -> None:
    state = hraj.game("qwixx", players=3).new_state()
    while state.is_chance:
        state.apply_chance(state.chance_outcomes()[0][0])
    seat = state.to_act[0]
    options, _ = hint(state, seat)
    assert {option.unit for option in options} == {WIN}
    assert all(0.0 <= option.value <= 1.0 for option in options)
