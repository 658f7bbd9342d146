"""Trefa hints: what each option writes, in a player's words; values in the right unit."""

from __future__ import annotations

import random

import hraj
from hraj.analysis.game import hint
from hraj.analysis.text import reason_text
from hraj.core.hints import POINTS, WIN
from hraj.games.trefa.rules import Move, TrefaState


def first_throw(players: int, seed: int) -> TrefaState:
    state = hraj.game("trefa", players=players).new_state()
    rng = random.Random(seed)
    while state.is_chance:
        state.apply_chance(state.sample_chance(rng))
    assert isinstance(state, TrefaState)
    return state


def test_a_write_counts_its_dice_and_hits_a_reroll_the_dice_thrown() -> None:
    state = first_throw(1, 4)
    seat = state.to_act[0]
    options, _ = hint(state, seat)
    assert {option.unit for option in options} == {POINTS}
    for option in options:
        move = option.action
        assert isinstance(move, Move)
        if move.kind == "write":
            assert option.reasons[0].count == move.dice.bit_count()
            assert all(reason.count is not None and reason.count <= move.dice.bit_count() for reason in option.reasons)
        elif move.kind == "reroll":
            thrown = sum(1 for die in state.dice or () if die != 1)
            assert reason_text(option.reasons[0], "cs").startswith(f"přehodí {thrown} kost")


def test_in_a_race_the_values_are_chances_of_winning_with_the_expected_score_beside() -> None:
    state = first_throw(2, 5)
    seat = state.to_act[0]
    options, _ = hint(state, seat)
    assert {option.unit for option in options} == {WIN}
    assert all("score" in option.detail for option in options)
    best = options[0].action
    assert isinstance(best, Move)
    assert reason_text(options[0].reasons[0], "sk").startswith("zapíše") or best.kind != "write"
