"""Action ids and observations of every game, on seeded random games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import hraj
from hraj.core.codec import Codec
from hraj.core.game import Seat, State
from hraj.core.jsondata import GameOptions
from hraj.games.abluxxen import rl as abluxxen_rl
from hraj.games.qwixx import rl as qwixx_rl
from hraj.games.trefa import rl as trefa_rl
from hraj.rl import codec, codec_for, legal_mask, observe
from hraj.rl.codec import legal_ids, view_mask
from tests.rl.cases import CASES

GAMES_PER_CASE = 2


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_every_decision_has_distinct_ids_a_mask_and_a_bounded_observation(game_id: str, options: GameOptions):
    game = hraj.game(game_id, **options)
    rl = codec(game)
    rng = random.Random(7)
    decisions = 0
    for _ in range(GAMES_PER_CASE):
        state = game.new_state()
        while not state.is_over:
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.to_act[0]
            mask, by_id = legal_mask(rl, state, seat)  # refuses two actions with one id
            legal = state.legal_actions(seat)
            assert mask.dtype == np.int8 and mask.shape == (rl.num_actions,)
            assert int(mask.sum()) == len(legal) == len(by_id)
            assert all(rl.action_id(state, seat, action) == number for number, action in by_id.items())
            vector = observe(rl, state, seat)  # refuses a layout of the wrong length
            assert vector.dtype == np.float32
            assert vector.min() >= -1.0 and vector.max() <= 1.0
            state.apply(seat, by_id[rng.choice(sorted(by_id))])
            decisions += 1
        for seat in range(game.players):
            assert observe(rl, state, seat).shape == (rl.observation_size,)
    assert decisions > 0


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_chance_in_steps_gives_outcomes_the_game_accepts(game_id: str, options: GameOptions):
    """Each die (or card) as its own chance step: probabilities sum to one, and the drawn
    steps make an outcome the state applies with its checks on."""
    game = hraj.game(game_id, **options)
    rl = codec(game)
    rng = random.Random(3)
    state = game.new_state()
    events = 0
    while not state.is_over and events < 60:
        if state.is_chance:
            drawn: list[int] = []
            for _ in range(rl.chance_steps(state)):
                outcomes = rl.chance_step_outcomes(state, drawn)
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                assert all(0 <= number < rl.num_chance_ids for number, _ in outcomes)
                drawn.append(rng.choice([number for number, _ in outcomes]))
            state.apply_chance(rl.chance_outcome(state, drawn))
            events += 1
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert events > 0


def test_a_game_without_a_codec_is_refused_with_a_message():
    class Fake:
        __module__ = "hraj.core.game"  # a package with no rl module beside it
        id = "nothing"

    with pytest.raises(LookupError, match="nothing has no codec"):
        codec(Fake())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("ids", "count"),
    [
        (qwixx_rl.CROSS_IDS, qwixx_rl.NUM_ACTIONS),
        (trefa_rl.MOVE_IDS, trefa_rl.NUM_ACTIONS),
        (abluxxen_rl.MOVE_IDS, abluxxen_rl.NUM_ACTIONS),
    ],
    ids=["qwixx", "trefa", "abluxxen"],
)
def test_the_precomputed_action_ids_number_every_action_once(ids: dict[Any, int], count: int) -> None:
    assert sorted(ids.values()) == list(range(count))


def test_an_observation_is_written_into_a_given_array_as_into_a_new_one() -> None:
    game = hraj.game("trefa", players=3)
    rl = codec(game)
    state = game.new_state()
    rng = random.Random(2)
    while state.is_chance:
        state.apply_chance(state.sample_chance(rng))
    out = np.full(rl.observation_size, 7.0, dtype=np.float32)  # stale cells must not survive
    written = rl.observe(state.view(1), out)
    assert written is out
    assert np.array_equal(out, observe(rl, state, 1))


def _decisions(game_id: str, options: GameOptions, seed: int, games: int) -> Iterator[tuple[State[Any, Any], Seat]]:
    """Every decision of `games` seeded random games: the state (live: read it before
    the next) and the seat that decides."""
    game = hraj.game(game_id, **options)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_state()
        while not state.is_over:
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.to_act[0]
            yield state, seat
            state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_the_mask_read_from_a_view_is_the_mask_the_state_gives(game_id: str, options: GameOptions) -> None:
    rl = codec_for(game_id, **options)
    for state, seat in _decisions(game_id, options, seed=5, games=GAMES_PER_CASE):
        mask, by_id = view_mask(rl, state.view(seat), state, seat)
        expected_mask, expected = legal_mask(rl, state, seat)
        assert np.array_equal(mask, expected_mask)
        assert by_id == expected


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_observations_from_kept_parts_are_those_made_afresh(game_id: str, options: GameOptions) -> None:
    """A codec keeps the cells of view parts it met before (Qwixx sheets, Trefa rows and
    sheets); a new codec, which has none kept, makes the same observation."""
    kept = codec_for(game_id, **options)
    for state, _ in _decisions(game_id, options, seed=6, games=GAMES_PER_CASE):
        for seat in range(state.game.players):
            view = state.view(seat)
            assert np.array_equal(kept.observe(view), codec_for(game_id, **options).observe(view))


def test_a_view_listing_an_action_the_table_lacks_is_read_from_the_state() -> None:
    game = hraj.game("qwixx", players=2)
    rl = codec(game)
    state = next(state for state, _ in _decisions("qwixx", {"players": 2}, seed=1, games=1))
    seat = state.to_act[0]
    view = {**state.view(seat), "legal": ["no such action"]}
    mask, by_id = view_mask(rl, view, state, seat)
    assert by_id == legal_ids(rl, state, seat)
    assert int(mask.sum()) == len(state.legal_actions(seat))


def _reads_chance_ids_directly(game_id: object, options: object) -> bool:
    """Whether the game's codec reads a chance id back without listing the outcomes (cards,
    seats, backgammon's rolls; Qwixx and Trefa throw their dice one per step instead)."""
    assert isinstance(game_id, str) and isinstance(options, dict)
    return type(codec(hraj.game(game_id, **options))).chance_id is not Codec.chance_id


DIRECT_CHANCE_CASES = [case for case in CASES if _reads_chance_ids_directly(*case.values)]


def test_the_games_that_read_chance_ids_directly_are_backgammon_and_abluxxen() -> None:
    assert {case.values[0] for case in DIRECT_CHANCE_CASES} == {"backgammon", "abluxxen"}


@pytest.mark.parametrize(("game_id", "options"), DIRECT_CHANCE_CASES)
def test_a_chance_id_read_back_directly_is_the_outcome_listed_under_it(game_id: str, options: GameOptions) -> None:
    """Codecs may read a one-step chance id back without listing the outcomes; what they
    give is what the listing gives (`Codec`'s own way)."""
    game = hraj.game(game_id, **options)
    rl = codec(game)
    rng = random.Random(8)
    checked = 0
    for _ in range(GAMES_PER_CASE):
        state = game.new_state()
        while not state.is_over:
            if not state.is_chance:
                seat = state.to_act[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                continue
            if rl.chance_steps(state) == 1:
                listed = Codec.chance_step_outcomes(rl, state, [])
                assert rl.chance_step_outcomes(state, []) == listed
                for number, _ in listed:
                    assert rl.chance_outcome(state, [number]) == Codec.chance_outcome(rl, state, [number])
                checked += 1
            state.apply_chance(state.sample_chance(rng))
    assert checked > 0
