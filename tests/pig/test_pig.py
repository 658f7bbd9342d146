"""Pig, a game that exists only in this folder, joins hraj through the `hraj.games` entry
point and works everywhere: the game list, the terminal, the browser table, replays and
the conformance suite. Nothing outside tests/pig/ knows it."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rich.console import Console

import hraj
from hraj.app.site import create_app
from hraj.core import register, unregister
from hraj.core.bot import make_bot
from hraj.core.registry import GROUP
from hraj.i18n import t
from hraj.server.settings import Settings
from hraj.tui.play import SeatPlayer, TerminalTable
from hraj.web.render import render_table
from tests.core import test_conformance as conformance

ROOT = Path(__file__).resolve().parents[2]
ENTRY = "pig = tests.pig.rules:Pig"


@pytest.fixture
def pig() -> Iterator[str]:
    """Pig registered through an entry point of the `hraj.games` group, for one test."""
    name, _, value = ENTRY.partition(" = ")
    game_id = register(EntryPoint(name=name, value=value, group=GROUP))
    yield game_id
    unregister(game_id)


def test_an_installed_entry_point_puts_pig_in_hraj_games(tmp_path: Path) -> None:
    """A package that declares the entry point (here a tiny dist-info) is all it takes."""
    info = tmp_path / "hraj_pig-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hraj-pig\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{ENTRY}\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-c", "from hraj.cli import main; main()", "games"],
        check=False,
        capture_output=True,
        text=True,
        env={"HRAJ_LANG": "en", "PATH": "", "PYTHONPATH": f"{tmp_path}:{ROOT}", "COLUMNS": "200"},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "pig" in result.stdout and "goal=50" in result.stdout
    assert "qwixx" in result.stdout


def test_registered_at_run_time_pig_is_a_game_like_the_others(pig: str) -> None:
    assert pig in hraj.GAMES
    assert hraj.GAMES[-1] == pig
    state = hraj.game(pig, first=0).new_state()
    state.apply_chance("34")
    assert state.to_act == (0,)
    assert state.legal_actions(0) == ["roll", "hold"]
    with pytest.raises(hraj.InvalidAction):
        state.apply(0, "fold")


def test_pig_is_gone_once_unregistered() -> None:
    assert "pig" not in hraj.GAMES
    assert t("Pig", "cs") == "Pig"  # and its words with it
    with pytest.raises(hraj.InvalidOption):
        hraj.game("pig")


@pytest.mark.parametrize(
    "check",
    [
        conformance.test_record_replays_to_an_equal_state,
        conformance.test_nothing_is_legal_at_chance_nodes_or_at_the_end,
        conformance.test_copy_is_independent,
        conformance.test_views_are_json_and_every_notation_parses_back,
        conformance.test_each_seat_reads_the_record_with_only_secrets_masked,
        conformance.test_chance_outcomes_print_and_parse_back,
        conformance.test_same_seed_same_game,
        conformance.test_illegal_and_invalid_input_changes_nothing,
    ],
    ids=lambda check: check.__name__,
)
def test_pig_passes_the_conformance_suite(pig: str, check: Any) -> None:
    for options in hraj.core.game_class(pig).conformance_options():
        check(pig, options)


def test_a_pig_record_without_its_last_bust_is_refused(pig: str) -> None:
    state = hraj.core.random_playout(hraj.game(pig).new_state(), random.Random(4))
    record = state.record()
    autos = [index for index, event in enumerate(record["events"]) if event[0] == "auto"]
    assert autos
    assert hraj.game(pig).replay(record) == state
    del record["events"][autos[-1]]
    with pytest.raises(hraj.InvalidRecord):
        hraj.game(pig).replay(record)


def test_pig_plays_in_the_terminal(pig: str) -> None:
    game = hraj.game(pig, goal=20)
    console = Console(file=io.StringIO(), width=120, color_system=None)
    rng = random.Random(1)
    table = TerminalTable(
        game,
        [SeatPlayer("Eva", None), SeatPlayer("bot", make_bot(pig, "random", 1))],
        lang="en",
        seed=3,
        console=console,
        ask=lambda prompt: rng.choice(["roll", "hold", "1"]),
    )
    state = table.run()
    assert state.is_over
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Pig → 20" in text and "Winner:" in text


def test_pig_plays_in_the_browser(pig: str, tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'hraj.db'}", secret="pig-test-secret-0123456789")
    with TestClient(create_app(settings)) as client:
        assert "Pig" in client.get("/?lang=en").text
        assert ".pig-scores .to-act" in client.get("/games.css").text  # its look, from its own folder
        seats = [{"kind": "person"}, {"kind": "bot", "bot": "random"}]
        body = client.post("/api/rooms", json={"game": pig, "options": {"goal": 15}, "seats": seats, "claim": 0}).json()
        auth = {"Authorization": f"Bearer {body['token']}"}
        for _ in range(500):
            message = client.get(f"/api/rooms/{body['room']}/view", headers=auth).json()
            if message["status"] == "over":
                break
            table = client.get(f"/r/{body['room']}/table?lang=en", headers=auth).text
            assert "pig-scores" in table
            if message["view"]["legal"]:
                assert 'data-action="roll"' in table
                client.post(f"/api/rooms/{body['room']}/actions", json={"action": "hold"}, headers=auth)
        assert message["status"] == "over"
        replay = client.get(f"/r/{body['room']}/replay?lang=en").text
        assert "Final scores" in replay


def test_a_pig_table_renders_from_a_view(pig: str) -> None:
    state = hraj.game(pig, first=1).new_state()
    state.apply_chance("45")
    seats = [
        {"seat": s, "kind": "person", "name": n, "bot": None, "claimed": True, "connected": True}
        for s, n in enumerate(["Eva", "Petr"])
    ]
    html = render_table(pig, state.view(1), seats, state.events_for(1), "en", room_id="r", version=1)
    assert "Petr: <b>0</b>" in html
    assert "+9" in html
    assert 'data-action="hold"' in html


def test_pig_is_named_in_the_help_and_refused_by_export(
    pig: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The help lists the games from the registry; export names the game it cannot write."""
    from tests.cli.helpers import hraj as run

    assert pig in run(capsys, monkeypatch, "play", "--help").out
    assert pig in run(capsys, monkeypatch, "rules", "--help").out
    record = tmp_path / "pig.json"
    record.write_text(json.dumps(hraj.game(pig).new_state().record()), encoding="utf-8")
    refused = run(capsys, monkeypatch, "export", str(record), lang="cs")
    assert refused.code == 2
    assert "Záznam hry Prasátko nejde zapsat v jiném formátu" in refused.err


def test_pig_brings_its_own_czech_and_slovak(
    pig: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its catalog in its own folder (`tests/pig/locale`), found through the registry."""
    from tests.cli.helpers import hraj as run
    from tests.pig import web

    assert t("Pig", "cs") == "Prasátko" and t("Pig", "sk") == "Prasiatko" and t("Pig", "en") == "Pig"
    assert web.describe("roll", "cs") == "házet znovu"
    assert web.status({"turn_total": 7}, "Eva", "sk") == "Eva: +7, hádzať, alebo stačí?"
    listed = run(capsys, monkeypatch, "games", lang="cs").out
    assert "Prasátko" in listed and "body k výhře" in listed
