"""Records and the contract's shared checks: malformed input is refused and changes nothing."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

import hraj
from hraj.core import random_playout


def finished_game() -> hraj.State[Any, Any]:
    state = hraj.game("qwixx", players=2).new_state()
    return random_playout(state, random.Random(2))


@pytest.mark.parametrize(
    "mutate",
    [
        lambda r: r.pop("format"),
        lambda r: r.update(version=99),
        lambda r: r.update(events="nope"),
        lambda r: r["events"].append(["move", None, "r5"]),
        lambda r: r["events"].append(["bogus", 0, "r5"]),
        lambda r: r["events"].append(["move", True, "r5"]),
        lambda r: r.update(options={"players": 9}),
        lambda r: r.update(game="trefa"),
    ],
)
def test_malformed_records_are_refused(mutate: Callable[[dict[str, Any]], object]) -> None:
    record = finished_game().record()
    broken: dict[str, Any] = copy.deepcopy(dict(record))
    mutate(broken)
    with pytest.raises(hraj.HrajError):
        hraj.game("qwixx", players=2).replay(broken)


def test_a_forged_forced_step_is_refused() -> None:
    record = finished_game().record()
    record["events"].insert(3, ["auto", 0, "penalty"])
    with pytest.raises(hraj.InvalidRecord, match="forced step"):
        hraj.game("qwixx", players=2).replay(record)


def test_a_dropped_forced_step_is_noticed() -> None:
    record = finished_game().record()
    autos = [i for i, event in enumerate(record["events"]) if event[0] == "auto"]
    assert autos, "a random game of Qwixx has penalties"
    del record["events"][autos[0]]
    with pytest.raises(hraj.InvalidRecord):
        hraj.game("qwixx", players=2).replay(record)


def test_options_are_validated_with_reasons() -> None:
    with pytest.raises(hraj.InvalidOption, match="Unknown option colour"):
        hraj.game("qwixx", colour="red")
    with pytest.raises(hraj.InvalidOption, match="whole number from 1 to 5"):
        hraj.game("qwixx", players="many")
    assert hraj.game("qwixx", players="4").players == 4
    with pytest.raises(hraj.InvalidOption, match="no game"):
        hraj.game("chess")


def test_errors_carry_a_key_and_params_for_translation() -> None:
    from hraj.i18n import error_text

    state = hraj.game("qwixx", players=2, first=0).new_state()
    state.apply_chance("w1 w1 r1 y1 g1 b1")
    with pytest.raises(hraj.IllegalAction) as caught:
        state.apply(0, "y5")
    assert caught.value.key == "The white dice show {total}; only {total} may be crossed now."
    assert caught.value.params == {"total": 2}
    assert error_text(caught.value, "cs") == "Součet bílých kostek je 2; teď lze zakřížkovat jen 2."
    assert error_text(caught.value, "sk").startswith("Súčet bielych kociek je 2")


def test_copies_share_history_but_not_future() -> None:
    state = hraj.game("qwixx", players=2, first=0).new_state()
    state.apply_chance("w1 w2 r1 y1 g1 b1")
    twin = state.copy()
    twin.apply(0, "r3")
    assert len(twin.events()) == len(state.events()) + 1
    assert state.to_act == (0, 1)


def test_the_four_games_are_registered_in_the_order_of_the_design() -> None:
    assert hraj.GAMES == ("qwixx", "trefa", "backgammon", "abluxxen")
    for game_id in hraj.GAMES:
        assert hraj.game(game_id).new_state() is not None


@pytest.mark.parametrize("game_id", ["qwixx", "trefa", "backgammon"])
def test_a_record_without_its_last_forced_step_is_refused(game_id: str) -> None:
    """The rules make that step by themselves, so only comparing the whole rebuilt log notices it is gone."""
    for seed in range(40):
        state = random_playout(hraj.game(game_id).new_state(), random.Random(seed))
        record = state.record()
        autos = [i for i, event in enumerate(record["events"]) if event[0] == "auto"]
        if autos:
            break
    else:
        pytest.fail(f"no seeded game of {game_id} has a forced step")
    del record["events"][autos[-1]]
    with pytest.raises(hraj.InvalidRecord):
        hraj.game(game_id).replay(record)


def test_a_record_with_loose_notation_is_refused() -> None:
    """Records keep canonical notation only; `13/7` stands for `13/8 8/7` when typed, not in a record."""
    state = hraj.game("backgammon", first=0).new_state()
    state.apply_chance("65")
    state.apply(0, "24/13")
    record = state.record()
    assert record["events"][-1] == ["move", 0, "24/18 18/13"]
    record["events"][-1][2] = "24/13"
    with pytest.raises(hraj.InvalidRecord, match="not what the rules record"):
        hraj.game("backgammon", first=0).replay(record)


@pytest.mark.parametrize("text", ["²: - / -", "١: - / -", ": - / -", "x: - / -", "7: - / -"])
def test_a_malformed_position_text_is_hrajs_error(text: str) -> None:
    from hraj.games.qwixx.rules import Qwixx, QwixxState
    from hraj.games.trefa.rules import Trefa, TrefaState

    with pytest.raises(hraj.InvalidAction):
        QwixxState.from_position(Qwixx(players=2), text)
    with pytest.raises(hraj.InvalidAction):
        TrefaState.from_position(Trefa(players=2), text)


def test_the_first_events_of_a_record_replay_with_the_forced_steps_that_follow() -> None:
    """A replay's step ends where it likes; the rules' forced steps after it come along."""
    record = finished_game().record()
    events = [(str(kind), seat if isinstance(seat, int) else None, str(text)) for kind, seat, text in record["events"]]
    autos = [i for i, event in enumerate(events) if event[0] == "auto"]
    game = hraj.game("qwixx", players=2)
    state = game.replay_events(events[: autos[0]], whole=False)
    assert state.events() == events[: autos[0] + 1]
    with pytest.raises(hraj.InvalidRecord, match="ends before"):
        game.replay_events(events[: autos[0]])


def test_only_a_first_outcome_names_who_starts() -> None:
    from hraj.core.record import starting_seat

    assert [starting_seat(text) for text in ("first 0", "first 2", "first", "first x", "w4 w1", "31")] == [
        0,
        2,
        None,
        None,
        None,
        None,
    ]
