"""Fair dice and shuffles: the seed, its commitment, and verifying a finished record."""

from __future__ import annotations

import hashlib
import hmac
import random
import string
from typing import Any

import pytest

import hraj
from hraj.core.errors import InvalidRecord
from hraj.core.record import CHANCE
from hraj.server.fairness import (
    DICE_V1,
    DICE_V2,
    DICE_V3,
    Dice,
    chain_head,
    chance_rng,
    commitment,
    new_seed,
    replay_with_seed,
    room_commitment,
    verify_record,
)

SEED = "00" * 31 + "2a"  # the number 42


def finished_record(
    game_id: str = "qwixx", seed: str = SEED, moves_seed: int = 7, dice: int = DICE_V2, **options: Any
) -> dict[str, Any]:
    """A game played the way a room plays it: chance from the seed, moves from elsewhere.

    Version 1 records name no dice version, as the server wrote them before version 2.
    """
    state = hraj.game(game_id, **options).new_state()
    chance, moves = Dice(seed, dice), random.Random(moves_seed)
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(chance.rng(len(state.events()))))
        else:
            seat = state.to_act[0]
            state.apply(seat, moves.choice(state.legal_actions(seat)))
    record: dict[str, Any] = dict(state.record())
    record["room"] = {"id": "test", "seed": seed, "commitment": room_commitment(seed, "test", dice)}
    if dice != DICE_V1:
        record["room"]["dice"] = dice
    return record


def test_the_commitment_is_the_sha256_of_the_seed_text() -> None:
    # printf '%064d' 0 | sha256sum
    assert commitment("0" * 64) == "60e05bd1b195af2f94112fa7197a5c88289058840ce7c6df9693756bc6250f55"


def test_from_dice_version_3_the_commitment_names_the_room() -> None:
    # printf 'Qb7rT2xk9LmA:%064d' 0 | sha256sum
    expected = hashlib.sha256(b"Qb7rT2xk9LmA:" + b"0" * 64).hexdigest()
    assert room_commitment("0" * 64, "Qb7rT2xk9LmA", DICE_V3) == expected
    assert room_commitment("0" * 64, "Qb7rT2xk9LmA", DICE_V2) == commitment("0" * 64)


def test_a_record_relabelled_with_another_rooms_id_is_refused() -> None:
    record = finished_record(dice=DICE_V3)
    record["room"]["id"] = "another"
    with pytest.raises(InvalidRecord, match=r"does not match the commitment \w+ of room another"):
        verify_record(record)
    del record["room"]["id"]
    with pytest.raises(InvalidRecord, match="does not name its room"):
        verify_record(record)


def test_seeds_are_64_fresh_hex_digits() -> None:
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(len(seed) == 64 and set(seed) <= set(string.hexdigits.lower()) for seed in seeds)


def test_the_chance_generator_is_python_random_seeded_with_the_seed_as_a_number() -> None:
    ours, reference = chance_rng(SEED), random.Random(42)
    assert [ours.randint(1, 6) for _ in range(30)] == [reference.randint(1, 6) for _ in range(30)]


@pytest.mark.parametrize("dice", [DICE_V1, DICE_V2, DICE_V3])
@pytest.mark.parametrize("game_id", [g for g in ("qwixx", "abluxxen", "trefa", "backgammon") if g in hraj.GAMES])
def test_a_finished_record_verifies(game_id: str, dice: int) -> None:
    record = finished_record(game_id, dice=dice)
    result = verify_record(record)
    assert result.over and result.game == game_id and result.dice == dice
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
        state, dice = replay_with_seed(game, events[:cut], SEED, DICE_V2)
        assert str(state.sample_chance(dice.rng(cut))) == events[cut][2]


def test_a_version_1_room_goes_on_drawing_where_its_log_stops() -> None:
    record = finished_record(dice=DICE_V1)
    events = [tuple(e) for e in record["events"]]
    game = hraj.game("qwixx", **record["options"])
    for cut in [n for n, e in enumerate(events) if e[0] == CHANCE][1:6]:
        state, dice = replay_with_seed(game, events[:cut], SEED, DICE_V1)
        assert str(state.sample_chance(dice.rng(cut))) == events[cut][2]


def test_records_of_one_version_do_not_verify_as_the_other() -> None:
    record = finished_record(dice=DICE_V1)
    record["room"]["dice"] = DICE_V2
    with pytest.raises(InvalidRecord, match="the seed gives"):
        verify_record(record)


def test_an_unknown_dice_version_is_refused() -> None:
    record = finished_record()
    record["room"]["dice"] = 4
    with pytest.raises(InvalidRecord, match="Dice version 4 is unknown"):
        verify_record(record)


def test_a_dice_version_is_a_number_and_never_a_yes() -> None:
    """JSON's `true` equals 1 in Python, yet names no version; 2.0 is version 2, as JSON
    writers that keep every number a float would write it."""
    record = finished_record()
    record["room"]["dice"] = True
    with pytest.raises(InvalidRecord, match="Dice version True is unknown"):
        verify_record(record)
    record["room"]["dice"] = 2.0
    assert verify_record(record).dice == DICE_V2


def test_a_truncated_record_is_unfinished() -> None:
    record = finished_record()
    record["events"] = record["events"][:-3]
    with pytest.raises(InvalidRecord, match="unfinished"):
        verify_record(record)


def test_a_move_changed_to_another_legal_move_breaks_the_chain_head() -> None:
    """Legal edits replay; the head a player kept from an acknowledgement catches them."""
    record = finished_record()
    kept = chain_head(record["room"]["commitment"], [tuple(e) for e in record["events"]])
    assert verify_record(record, head=kept).head == kept
    game = hraj.game("qwixx", **record["options"])
    events = [tuple(e) for e in record["events"]]
    # the first move with another legal choice: pass instead, or cross instead of passing
    for number, (kind, seat, text) in enumerate(events):
        if kind != "move":
            continue
        state, _ = replay_with_seed(game, events[:number], SEED, DICE_V2)
        others = [str(a) for a in state.legal_actions(seat) if str(a) != text]
        edited = [*events[:number], (kind, seat, others[0]), *events[number + 1 :]]
        record["events"] = [list(e) for e in edited]
        try:
            verify_record(record)
        except InvalidRecord:
            continue  # this edit made a later move illegal: the replay caught it
        with pytest.raises(InvalidRecord, match="the record was changed"):
            verify_record(record, head=kept)
        return
    pytest.fail("no edit replayed legally")


def test_a_record_with_a_stated_head_must_end_at_it() -> None:
    record = finished_record()
    record["room"]["head"] = "00" * 32
    with pytest.raises(InvalidRecord, match="the record was changed"):
        verify_record(record)


def test_a_move_in_a_loose_notation_is_not_the_record() -> None:
    """Backgammon reads `13/7` for `13/8 8/7`; the record must say what the rules wrote."""
    record = finished_record("backgammon", match_length=1)
    for number, (kind, _seat, text) in enumerate(record["events"]):
        if kind == "move" and " " in text:
            record["events"][number][2] = text + " "
            break
    with pytest.raises(InvalidRecord, match=f"Event {number + 1}"):
        verify_record(record)


def test_an_illegal_move_is_refused() -> None:
    record = finished_record()
    number = next(n for n, e in enumerate(record["events"]) if e[0] == "move")
    record["events"][number][2] = "r13"
    with pytest.raises(InvalidRecord, match=f"Event {number + 1}"):
        verify_record(record)


def test_a_missing_forced_step_is_refused() -> None:
    record = finished_record()
    autos = [n for n, e in enumerate(record["events"]) if e[0] == "auto"]
    cut = dict(record, events=[e for n, e in enumerate(record["events"]) if n != autos[-1]])
    with pytest.raises(InvalidRecord, match=r"unfinished|Event"):
        verify_record(cut)
    middle = dict(record, events=[e for n, e in enumerate(record["events"]) if n != autos[0]])
    with pytest.raises(InvalidRecord, match="Event"):
        verify_record(middle)


# --- dice version 2, recomputed from its description alone -----------------------------


def below(seed: str, index: int, n: int, counter: list[int]) -> int:
    """docs/protocol.md's construction, written again here from the text."""
    while True:
        message = f"{index}:{counter[0]}".encode()
        counter[0] += 1
        word = int.from_bytes(hmac.new(seed.encode(), message, hashlib.sha256).digest()[:4], "big")
        if word < 2**32 - 2**32 % n:
            return word % n


def test_version_2_numbers_follow_the_documented_construction() -> None:
    for index in (0, 1, 17, 400):
        counter = [0]
        ours = Dice(SEED, DICE_V2).rng(index)
        assert [ours.randint(1, 6) for _ in range(50)] == [1 + below(SEED, index, 6, counter) for _ in range(50)]
        counter = [0]
        ours = Dice(SEED, DICE_V2).rng(index)
        assert [ours.randrange(104) for _ in range(20)] == [below(SEED, index, 104, counter) for _ in range(20)]


def test_version_2_rolls_of_a_qwixx_game_are_the_documented_dice() -> None:
    """White, white, then the colours still in play, each 1 + below(6) of the event's stream."""
    record = finished_record()
    for index, (kind, _, text) in enumerate(record["events"]):
        if kind == CHANCE and text.startswith("w"):
            counter = [0]
            dice = [1 + below(SEED, index, 6, counter) for _ in range(6)]
            faces = [int(part[1:]) for part in text.split()]
            assert faces == dice[: len(faces)]


def first_choice_game(game_id: str) -> list[tuple[str, int | None, str]]:
    """A game with version 2 dice where every seat takes its first legal move."""
    state = hraj.game(game_id).new_state()
    dice = Dice(SEED, DICE_V2)
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(dice.rng(len(state.events()))))
        else:
            seat = state.to_act[0]
            state.apply(seat, state.legal_actions(seat)[0])
    return state.events()


@pytest.mark.parametrize("game_id", ["abluxxen", "backgammon"])
def test_version_2_does_not_use_cpython_random(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = first_choice_game(game_id)
    for name in ("random", "getrandbits", "randrange", "randint", "choice", "choices", "shuffle", "_randbelow"):
        monkeypatch.setattr(random.Random, name, None)
    assert first_choice_game(game_id) == expected
