"""The contract every registered game must keep, checked on seeded random playouts.

A game joins this suite by registering in `hraj.core.registry`; the option sets come
from its `conformance_options()`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import hraj
from hraj.core import State, game_class
from hraj.core.jsondata import GameOptions
from hraj.core.record import HIDDEN, MOVE

PLAYOUTS_PER_OPTION_SET = 12
CHANCE_NODES_SUMMED = 4

CASES = [
    pytest.param(game_id, options, id=f"{game_id}-{json.dumps(options, sort_keys=True)}")
    for game_id in hraj.GAMES
    for options in game_class(game_id).conformance_options()
]


def playout(
    game_id: str, options: GameOptions, seed: int, check_each_step: Callable[[State[Any, Any]], None] | None = None
) -> State[Any, Any]:
    """A seeded random game, calling `check_each_step(state)` before every step."""
    rng = random.Random(seed)
    state = hraj.game(game_id, **options).new_state()
    for _ in range(100_000):
        if check_each_step is not None:
            check_each_step(state)
        if state.is_over:
            return state
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_record_replays_to_an_equal_state(game_id: str, options: GameOptions) -> None:
    for seed in range(PLAYOUTS_PER_OPTION_SET):
        state = playout(game_id, options, seed)
        record = json.loads(json.dumps(state.record()))
        again = hraj.game(game_id, **options).replay(record)
        assert again == state
        assert again.view(None) == state.view(None)
        assert again.outcome == state.outcome


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_nothing_is_legal_at_chance_nodes_or_at_the_end(game_id: str, options: GameOptions) -> None:
    game = hraj.game(game_id, **options)
    chance_nodes_summed = 0

    def check(state: State[Any, Any]) -> None:
        nonlocal chance_nodes_summed
        if state.is_chance or state.is_over:
            assert state.to_act == ()
            assert all(state.legal_actions(seat) == [] for seat in range(game.players))
        else:
            assert state.to_act, "a state that is neither chance nor over must have someone to act"
            for seat in state.to_act:
                assert state.legal_actions(seat), f"seat {seat} must act but has no legal action"
        assert (state.outcome is None) == (not state.is_over)
        if state.is_chance and chance_nodes_summed < CHANCE_NODES_SUMMED:
            # listing every outcome can be large (six dice: 46,656), so only a few nodes
            chance_nodes_summed += 1
            outcomes = state.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert all(p > 0 for _, p in outcomes)

    for seed in range(PLAYOUTS_PER_OPTION_SET // 2):
        playout(game_id, options, 1000 + seed, check)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_copy_is_independent(game_id: str, options: GameOptions) -> None:
    rng = random.Random(7)
    state = hraj.game(game_id, **options).new_state()
    while not state.is_over:
        before = json.dumps(state.view(None), sort_keys=True)
        twin = state.copy()
        assert twin == state
        # drive the copy to its end; the original must not notice
        playout_rng = random.Random(rng.random())
        while not twin.is_over:
            if twin.is_chance:
                twin.apply_chance(twin.sample_chance(playout_rng))
            else:
                seat = twin.to_act[0]
                twin.apply(seat, playout_rng.choice(twin.legal_actions(seat)))
        assert json.dumps(state.view(None), sort_keys=True) == before
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_views_are_json_and_every_notation_parses_back(game_id: str, options: GameOptions) -> None:
    game = hraj.game(game_id, **options)

    def check(state: State[Any, Any]) -> None:
        for seat in [None, *range(game.players)]:
            json.dumps(state.view(seat))
        for seat in state.to_act:
            legal = state.legal_actions(seat)
            assert len(set(map(str, legal))) == len(legal), "two legal actions print the same"
            for action in legal:
                assert game.parse_action(str(action)) == action

    for seed in range(PLAYOUTS_PER_OPTION_SET // 2):
        playout(game_id, options, 2000 + seed, check)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_each_seat_reads_the_record_with_only_secrets_masked(game_id: str, options: GameOptions) -> None:
    """`events_for` keeps every event's place, kind and seat; it masks text only, never
    a seat's own decision, and nothing once the game is over; what a seat reads never
    becomes unread later."""
    game = hraj.game(game_id, **options)
    earlier: dict[int | None, list[str]] = {}

    def check(state: State[Any, Any]) -> None:
        events = state.events()
        if len(events) % 8 and not state.is_over:
            return  # every eighth step keeps this linear enough for long games
        for seat in [None, *range(game.players)]:
            shown = state.events_for(seat)
            assert len(shown) == len(events)
            for (kind, who, text), (real_kind, real_who, real_text) in zip(shown, events, strict=True):
                assert (kind, who) == (real_kind, real_who)
                assert text in (real_text, HIDDEN)
                assert not (text == HIDDEN and kind == MOVE and who == seat), "a seat's own move is masked"
            if state.is_over:
                assert shown == events
            for before, now in zip(earlier.get(seat, []), shown, strict=False):
                assert before in (HIDDEN, now[2])
            earlier[seat] = [text for _, _, text in shown]

    for seed in range(2):
        earlier.clear()
        final = playout(game_id, options, 2600 + seed, check)
        assert game.replay(final.record_for(None)) == final


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_chance_outcomes_print_and_parse_back(game_id: str, options: GameOptions) -> None:
    game = hraj.game(game_id, **options)
    rng = random.Random(3)

    def check(state: State[Any, Any]) -> None:
        if state.is_chance:
            outcome = state.sample_chance(rng)
            assert game.parse_chance(str(outcome)) == outcome

    for seed in range(PLAYOUTS_PER_OPTION_SET // 2):
        playout(game_id, options, 3000 + seed, check)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_same_seed_same_game(game_id: str, options: GameOptions) -> None:
    assert playout(game_id, options, 42).record() == playout(game_id, options, 42).record()


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_illegal_and_invalid_input_changes_nothing(game_id: str, options: GameOptions) -> None:
    rng = random.Random(5)
    state = hraj.game(game_id, **options).new_state()
    while state.is_chance:
        state.apply_chance(state.sample_chance(rng))
    before = state.record()
    for text in ["", "???", "pass pass pass", "\x00", "9" * 50]:
        with pytest.raises(hraj.InvalidAction):
            state.apply(state.to_act[0], text)
        assert state.record() == before
    not_acting = [seat for seat in range(state.game.players) if seat not in state.to_act]
    if not_acting:
        snapshot = state.record()
        legal = state.legal_actions(state.to_act[0])
        with pytest.raises(hraj.IllegalAction):
            state.apply(not_acting[0], legal[0])
        assert state.record() == snapshot
