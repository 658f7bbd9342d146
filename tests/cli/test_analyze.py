"""`hraj analyze`: a record file or a position, the summary in the user's language, JSON."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import hraj
from hraj.core.bot import make_bot
from hraj.core.driver import play_game
from tests.cli.helpers import hraj as run


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
    assert "double/take" in ran.out  # a cube decision: the cube model's equities
    assert "estimates" not in ran.out  # the net values every option itself


def test_a_missing_file_is_one_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    ran = run(capsys, monkeypatch, "analyze", "no-such-file.json", lang="cs")
    assert ran.code == 2
    assert len(ran.err.strip().splitlines()) == 1


def test_a_game_the_server_stored_is_analysed_by_its_room_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from fastapi.testclient import TestClient

    from hraj.app.site import create_app
    from hraj.server.settings import Settings
    from tests.server.helpers import until_over

    database = f"sqlite:///{tmp_path / 'hraj.db'}"
    settings = Settings(
        database_url=database, secret="analyze-test-secret-0123456789", bot_pace=0.0, sqlite_synchronous="NORMAL"
    )
    with TestClient(create_app(settings)) as client:
        seats = [{"kind": "bot", "bot": "random", "name": "Eva"}, {"kind": "bot", "bot": "random"}]
        room = client.post("/api/rooms", json={"game": "qwixx", "seats": seats}).json()["room"]
        until_over(client, room)
        playing = client.post("/api/rooms", json={"game": "qwixx", "seats": [{"kind": "person"}] * 2}).json()["room"]
    monkeypatch.setenv("HRAJ_DATABASE_URL", database)
    ran = run(capsys, monkeypatch, "analyze", room, "--json")
    assert ran.code == 0, ran.err
    data = json.loads(ran.out)
    assert data["game"] == "qwixx" and data["players_names"][0] == "Eva"
    # a bot seat is named by its level, as at the table: never "Player 2"
    assert data["players_names"][1].startswith("Bot (") and "Player" not in data["players_names"][1]
    unfinished = run(capsys, monkeypatch, "analyze", playing)
    assert unfinished.code == 2
    assert "not over yet" in unfinished.err


def test_a_mat_export_carries_the_analysis_as_comments_that_gnubg_skips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from hraj.games.backgammon.formats import load_file

    game = hraj.game("backgammon", match_length=1)
    bots = [make_bot("backgammon", "pubeval", 1), make_bot("backgammon", "random", 2)]
    record = play_game(game.new_state(), bots, random.Random(3)).record()
    source = tmp_path / "game.json"
    source.write_text(json.dumps(record), encoding="utf-8")
    target = tmp_path / "game.mat"
    ran = run(capsys, monkeypatch, "export", str(source), "--analysis", "-O", str(target), lang="cs")
    assert ran.code == 0, ran.err
    text = target.read_text(encoding="utf-8")
    assert text.startswith("; Hra 1: Ztracená equity\n; Hráč 1: ztraceno ")
    assert "; Hráč 2: chybovost " in text and ", PR " in text
    # every marked decision by its move number, the one the replay and the review show
    marked = [line for line in text.splitlines() if line.startswith("; tah ")]
    assert marked and all(line.split(",")[0].removeprefix("; tah ").isdigit() for line in marked)
    assert load_file(target)[0]["events"] == record["events"]  # the comments change nothing of the game
    refused = run(capsys, monkeypatch, "export", str(source), "--analysis", "--format", "xgid", lang="cs")
    assert refused.code == 2
    assert "Formát xgid nemá komentáře, do kterých by se rozbor zapsal." in refused.err


def test_an_export_of_a_file_that_holds_no_record_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "list.json"
    source.write_text("[1, 2]", encoding="utf-8")
    refused = run(capsys, monkeypatch, "export", str(source), lang="cs")
    assert refused.code == 2
    assert "Záznam neuvádí žádnou hru." in refused.err


def test_a_rollout_of_a_move_prints_each_option_with_its_standard_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = hraj.game("qwixx", players=2)
    bots = [make_bot("qwixx", "random", 1), make_bot("qwixx", "master", 2)]
    source = tmp_path / "game.json"
    source.write_text(json.dumps(play_game(game.new_state(), bots, random.Random(3)).record()), encoding="utf-8")
    ran = run(
        capsys, monkeypatch, "analyze", str(source), "--rollout", "2", "--trials", "4", "--workers", "1", "--json"
    )
    assert ran.code == 0, ran.err
    data = json.loads(ran.out)
    assert data["move"] == 2 and data["trials"] == 4 and len(data["options"]) >= 2
    assert all(option["trials"] == 4 and option["error"] >= 0 for option in data["options"])
    beyond = run(capsys, monkeypatch, "analyze", str(source), "--rollout", "9999")
    assert beyond.code == 2 and "9999" in beyond.err


def test_the_json_of_analyze_is_the_whole_review(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = hraj.game("qwixx", players=2)
    bots = [make_bot("qwixx", "random", 1), make_bot("qwixx", "master", 2)]
    record = play_game(game.new_state(), bots, random.Random(3)).record()
    source = tmp_path / "game.json"
    source.write_text(json.dumps(record), encoding="utf-8")
    ran = run(capsys, monkeypatch, "analyze", str(source), "--json")
    assert ran.code == 0, ran.err
    data = json.loads(ran.out)
    moves = [event for event in record["events"] if event[0] == "move"]
    assert [move["move"] for move in data["moves"]] == list(range(1, len(moves) + 1))
    assert data["outcome"]["winners"] and data["players_names"]
    decision = data["decisions"][0]
    assert data["moves"][decision["move"] - 1]["played"] == decision["played"]
    assert decision["values"][0]["action"] == decision["best"]
