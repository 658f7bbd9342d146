"""Records an earlier version wrote, before every turn began with `roll`, still replay.

`older_records.json` holds two games that version wrote: a money game with the cube
switched off, and a match to 3 points, whose Crawford game has no doubling. In both
the dice came straight after the last move wherever the player on roll could not double.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import hraj
from hraj.core import InvalidRecord, random_playout
from hraj.core.record import CHANCE, MOVE, parse_record
from tests.cli.helpers import hraj as run_hraj

OLDER = Path(__file__).with_name("older_records.json")


def older_records() -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = json.loads(OLDER.read_text(encoding="utf-8"))
    return records


@pytest.mark.parametrize("number", [0, 1])
def test_a_record_from_before_every_turn_began_with_roll_replays_once_upgraded(number: int) -> None:
    record = older_records()[number]
    _, options, events = parse_record(record)
    game = hraj.game("backgammon", **options)
    with pytest.raises(InvalidRecord, match="does not replay"):
        game.replay(record)
    upgraded = game.upgrade_events(events)
    state = game.replay_events(upgraded)  # the whole log, every step checked
    assert state.is_over
    added = list(upgraded)
    for event in events:  # the old events keep their order; only rolls come in between
        while added[0] != event:
            kind, seat, text = added.pop(0)
            assert (kind, text) == (MOVE, "roll") and seat is not None
            assert added[0][0] == CHANCE  # each added roll is followed by its dice
        added.pop(0)
    assert not added and len(upgraded) > len(events)


@pytest.mark.parametrize("options", [{}, {"cube": False}, {"match_length": 3}, {"variant": "seed"}])
def test_a_record_written_today_is_left_as_it_is(options: dict[str, Any]) -> None:
    game = hraj.game("backgammon", **options)
    for seed in range(3):
        state = game.new_state()
        random_playout(state, random.Random(seed))
        events = state.events()
        assert game.upgrade_events(events) == events


def test_a_record_that_does_not_replay_is_left_for_the_replay_to_refuse() -> None:
    record = older_records()[0]
    events = parse_record(record)[2]
    broken = [*events[:5], ("move", 0, "24/1")]
    game = hraj.game("backgammon", **record["options"])
    assert game.upgrade_events(broken) == broken


def test_hraj_replays_analyses_and_exports_an_older_record(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "older.json"
    path.write_text(json.dumps(older_records()[1]), encoding="utf-8")
    replayed = run_hraj(capsys, monkeypatch, "replay", str(path))
    assert replayed.code == 0, replayed.err
    assert "Final scores" in replayed.out
    exported = run_hraj(capsys, monkeypatch, "export", str(path), "--format", "mat")
    assert exported.code == 0, exported.err
    assert "3 point match" in exported.out
