"""`hraj analyze`: a record file or a position, the summary in the user's language, JSON."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import hraj
from hraj.core.bot import make_bot
from hraj.core.driver import play_game
from tests.cli_helpers import hraj as run


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    game = hraj.game("qwixx", players=2)
    bots = [make_bot("qwixx", "random", 1), make_bot("qwixx", "master", 2)]
    record = play_game(game.new_state(), bots, random.Random(5)).record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**record, "players": ["Eva", "Petr"]}), encoding="utf-8")
    return path


def test_the_analysis_is_czech_by_default(
    record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = run(capsys, monkeypatch, "analyze", str(record_file), lang="cs")
    assert ran.code == 0, ran.err
    assert "Rozbor: šance na výhru" in ran.out
    assert "Eva" in ran.out and "Petr" in ran.out
    assert "Nejdražší rozhodnutí" in ran.out
    assert "Mistr" in ran.out


def test_json_lists_every_decision(
    record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = run(capsys, monkeypatch, "analyze", str(record_file), "--json")
    assert ran.code == 0, ran.err
    data = json.loads(ran.out)
    assert data["game"] == "qwixx" and data["players_names"] == ["Eva", "Petr"]
    assert data["players"][0]["total_loss"] > data["players"][1]["total_loss"]


def test_a_backgammon_position_gets_its_hint(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = run(capsys, monkeypatch, "analyze", "4HPwATDgc/ABMA:MAEAAAAAAAAE")
    assert ran.code == 0, ran.err
    assert "Hint: equity (points a game)" in ran.out
    assert "estimates" in ran.out


def test_a_missing_file_is_one_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    ran = run(capsys, monkeypatch, "analyze", "no-such-file.json", lang="cs")
    assert ran.code == 2
    assert len(ran.err.strip().splitlines()) == 1
