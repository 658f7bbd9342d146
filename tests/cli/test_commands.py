"""The hraj command: help, arena, bench, replay and clear errors without tracebacks."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import hraj
from hraj.core import random_playout

HRAJ = [sys.executable, "-c", "from hraj.cli import main; main()"]


def run(*args: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*HRAJ, *args], check=False, capture_output=True, text=True, env={"HRAJ_LANG": lang, "PATH": ""}, timeout=120
    )


def test_help_lists_the_subcommands() -> None:
    result = run("--help")
    assert result.returncode == 0
    for command in ("play", "replay", "arena", "bench", "games"):
        assert command in result.stdout


def test_help_is_czech_by_default() -> None:
    result = run("--help", lang="cs")
    assert "Zahrajte si hru v terminálu" in result.stdout


def test_arena_prints_win_rates_with_confidence_intervals() -> None:
    result = run("arena", "qwixx", "--games", "20", "--seats", "greedy,random")
    assert result.returncode == 0, result.stderr
    assert "greedy #1" in result.stdout and "±" in result.stdout


def test_unknown_game_is_one_clear_line_not_a_traceback() -> None:
    result = run("play", "chess")
    assert result.returncode == 2
    assert "There is no game chess" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_option_is_explained_in_czech() -> None:
    result = run("arena", "qwixx", "-o", "players=9", lang="cs")
    assert result.returncode == 2
    assert "Chyba" in result.stderr and "Traceback" not in result.stderr


def test_replay_shows_a_record_move_by_move(tmp_path: Path) -> None:
    state = hraj.game("qwixx", players=2).new_state()
    random_playout(state, random.Random(4))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.record()))
    result = run("replay", str(path))
    assert result.returncode == 0, result.stderr
    assert "Final scores" in result.stdout
    moves = sum(1 for kind, _, _ in state.events() if kind == "move")
    assert result.stdout.count(":") >= moves


def test_replay_refuses_a_tampered_record(tmp_path: Path) -> None:
    state = hraj.game("qwixx", players=2).new_state()
    random_playout(state, random.Random(4))
    record = state.record()
    record["events"][3][2] = "r2"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = run("replay", str(path))
    assert result.returncode == 2
    assert "does not replay" in result.stderr


def test_replay_of_a_missing_file_says_so(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nothing.json"))
    assert result.returncode == 2 and "Cannot read" in result.stderr and "no such file or folder" in result.stderr


def test_bench_prints_games_per_second() -> None:
    result = run("bench", "qwixx", "--seconds", "0.3")
    assert result.returncode == 0, result.stderr
    assert "qwixx" in result.stdout


DATA = Path(__file__).resolve().parents[1] / "games" / "backgammon" / "formats" / "data"


def test_replay_reads_a_gnubg_match_file() -> None:
    result = run("replay", str(DATA / "gnubg_5_point_match.mat"))
    assert result.returncode == 0, result.stderr
    assert "13 14 15 16 17 18" in result.stdout  # the board, move by move


def test_replay_shows_a_position_from_its_xgid(tmp_path: Path) -> None:
    path = tmp_path / "position.txt"
    path.write_text("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10\n")
    result = run("replay", str(path))
    assert result.returncode == 0, result.stderr
    assert "4HPwATDgc/ABMA" in result.stdout  # the same position as a gnubg Position ID


def test_replay_prints_position_texts_as_they_are(tmp_path: Path) -> None:
    path = tmp_path / "position.txt"
    path.write_text("XGID=-b----E-C---eE---c-e----B-:1:-1:-1:52:0:0:0:0:10\n")
    result = run("replay", str(path))
    assert result.returncode == 0, result.stderr
    assert ":1:-1:-1:52:" in result.stdout  # `:-1:` is not read as an emoji code


def test_verify_of_a_record_that_does_not_verify_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps({"format": "hraj-record", "version": 1, "game": "qwixx", "events": []}))
    result = run("verify", str(path), lang="cs")
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr


def test_importing_the_command_loads_neither_the_server_nor_the_database() -> None:
    code = "import sys, hraj.cli; print(sorted({'fastapi', 'sqlalchemy', 'alembic', 'uvicorn'} & set(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "[]"


def test_replay_of_a_latin1_match_file_is_read(tmp_path: Path) -> None:
    text = (DATA / "gnubg_5_point_match.mat").read_text(encoding="utf-8")
    path = tmp_path / "old.mat"
    path.write_bytes(text.replace("; [Site", '; [Comment "Zürich"]\n; [Site', 1).encode("latin-1"))
    result = run("replay", str(path))
    assert result.returncode == 0, result.stderr


def test_ctrl_c_at_a_prompt_says_interrupted_exits_130_and_saves(tmp_path: Path) -> None:
    import os
    import signal
    import threading

    path = tmp_path / "game.json"
    args = ["play", "qwixx", "--seats", "me,greedy", "--seed", "1", "--save", str(path)]
    env = {"HRAJ_LANG": "cs", "PATH": "", "COLUMNS": "100"}
    child = subprocess.Popen(
        [*HRAJ, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    assert child.stdout is not None and child.stderr is not None
    prompt = threading.Event()
    seen = bytearray()

    def watch() -> None:
        assert child.stdout is not None
        while byte := child.stdout.read(1):
            seen.extend(byte)
            if seen.endswith(b"> "):
                prompt.set()

    threading.Thread(target=watch, daemon=True).start()
    assert prompt.wait(60), seen.decode(errors="replace")
    os.kill(child.pid, signal.SIGINT)
    child.wait(60)
    assert child.returncode == 130
    assert child.stderr.read().decode().strip() == "Přerušeno."
    assert json.loads(path.read_text(encoding="utf-8"))["game"] == "qwixx"


def test_games_names_every_value_an_option_takes_and_no_empty_default() -> None:
    env = {"HRAJ_LANG": "cs", "PATH": "", "COLUMNS": "400"}  # every cell on one line
    result = subprocess.run([*HRAJ, "games"], check=False, capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "=None" not in result.stdout and "first: " in result.stdout
    assert "variant=base: base (základní); advanced (pro pokročilé" in result.stdout
    assert "expert (pro experty" in result.stdout
