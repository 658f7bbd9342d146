"""Fair dice and shuffles: the seed, its commitment, and verifying a finished record."""

from __future__ import annotations

import random
import string
from typing import Any

import pytest

import hraj
from hraj.core.errors import InvalidRecord
from hraj.core.record import CHANCE
from hraj.server.fairness import chance_rng, commitment, new_seed, replay_with_seed, verify_record

SEED = "00" * 31 + "2a"  # the number 42


def finished_record(game_id: str = "qwixx", seed: str = SEED, moves_seed: int = 7, **options: Any) -> dict[str, Any]:
    """A game played the way a room plays it: chance from the seed, moves from elsewhere."""
    state = hraj.game(game_id, **options).new_state()
    chance, moves = chance_rng(seed), random.Random(moves_seed)
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(chance))
        else:
            seat = state.to_act[0]
            state.apply(seat, moves.choice(state.legal_actions(seat)))
    record = state.record()
    record["room"] = {"id": "test", "seed": seed, "commitment": commitment(seed)}
    return record


def test_the_commitment_is_the_sha256_of_the_seed_text() -> None:
    # printf '%064d' 0 | sha256sum
    assert commitment("0" * 64) == "60e05bd1b195af2f94112fa7197a5c88289058840ce7c6df9693756bc6250f55"


def test_seeds_are_64_fresh_hex_digits() -> None:
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(len(seed) == 64 and set(seed) <= set(string.hexdigits.lower()) for seed in seeds)


def test_the_chance_generator_is_python_random_seeded_with_the_seed_as_a_number() -> None:
    ours, reference = chance_rng(SEED), random.Random(42)
    assert [ours.randint(1, 6) for _ in range(30)] == [reference.randint(1, 6) for _ in range(30)]


@pytest.mark.parametrize("game_id", [g for g in ("qwixx", "abluxxen", "trefa", "backgammon") if g in hraj.GAMES])
def test_a_finished_record_verifies(game_id: str) -> None:
    record = finished_record(game_id)
    result = verify_record(record)
    assert result.over and result.game == game_id
    assert result.chance_events == sum(1 for kind, _, _ in record["events"] if kind == CHANCE) > 0
    assert result.events == len(record["events"])


def test_a_changed_roll_is_caught() -> None:
    record = finished_record()
    number, (_, _, text) = next((n, e) for n, e in enumerate(record["events"]) if e[0] == CHANCE and "w" in e[2])
    dice = text.split()
    dice[0] = "w" + str(int(dice[0][1:]) % 6 + 1)
    record["events"][number] = [CHANCE, None, " ".join(dice)]
    with pytest.raises(InvalidRecord, match=f"Event {number + 1}: the seed gives {text}"):
        verify_record(record)


def test_another_seed_does_not_match_the_commitment() -> None:
    record = finished_record()
    record["room"]["seed"] = "00" * 31 + "2b"
    with pytest.raises(InvalidRecord, match="does not match the commitment"):
        verify_record(record)


def test_a_game_from_another_seed_is_caught_even_with_its_own_commitment() -> None:
    record = finished_record()
    other = "11" * 32
    record["room"] = {"id": "test", "seed": other, "commitment": commitment(other)}
    with pytest.raises(InvalidRecord, match="the seed gives"):
        verify_record(record)


@pytest.mark.parametrize(
    ("room", "reason"),
    [
        (None, "no revealed seed"),
        ({"seed": None, "commitment": "ab"}, "no revealed seed"),
        ({"seed": "xyz", "commitment": "ab"}, "not hexadecimal"),
    ],
)
def test_records_without_a_usable_seed_are_refused(room: Any, reason: str) -> None:
    record = finished_record()
    record["room"] = room
    with pytest.raises(InvalidRecord, match=reason):
        verify_record(record)


def test_a_live_room_goes_on_drawing_where_its_log_stops() -> None:
    """After a restart the generator continues exactly: replaying a prefix positions it."""
    record = finished_record()
    events = [tuple(e) for e in record["events"]]
    game = hraj.game("qwixx", **record["options"])
    for cut in [n for n, e in enumerate(events) if e[0] == CHANCE][1:6]:
        state, rng = replay_with_seed(game, events[:cut], SEED)
        assert str(state.sample_chance(rng)) == events[cut][2]
