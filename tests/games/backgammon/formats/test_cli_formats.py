"""`hraj export FILE --format mat|xgid|gnubgid` and `hraj replay ID`, as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hraj.games.backgammon.formats import positions, records_from_mat
from hraj.games.backgammon.formats.match_id import decode_match_id
from hraj.games.backgammon.rules import Backgammon, BackgammonState

HRAJ = [sys.executable, "-c", "from hraj.cli import main; main()"]


def run(*args: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*HRAJ, *args], check=False, capture_output=True, text=True, env={"HRAJ_LANG": lang, "PATH": ""}, timeout=120
    )


def _record(tmp_path: Path) -> Path:
    state = Backgammon(match_length=3).new_state()
    state.apply_chance("31")
    state.apply(0, "8/5 6/5")
    state.apply(1, "resign 1")
    state.apply(0, "accept")
    record = {**state.record(), "players": ["Eva", "Petr"]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_export_mat_uses_the_names_the_record_keeps_and_reads_back(tmp_path: Path) -> None:
    path = _record(tmp_path)
    result = run("export", str(path), "--format", "mat")
    assert result.returncode == 0, result.stderr
    assert " Eva : 0                        Petr : 0\n" in result.stdout
    back = records_from_mat(result.stdout)
    assert back[0]["players"] == ["Eva", "Petr"]
    assert back[0]["events"] == json.loads(path.read_text())["events"]


def test_export_writes_the_last_position_as_xgid_or_gnubg_ids(tmp_path: Path) -> None:
    path = _record(tmp_path)
    xgid = run("export", str(path), "-f", "xgid")
    ids = run("export", str(path), "-f", "gnubgid")
    record = json.loads(path.read_text())
    state = Backgammon(**record["options"]).replay(record)
    assert isinstance(state, BackgammonState)
    assert xgid.stdout == positions.xgid(state) + "\n"
    assert ids.stdout == ":".join(positions.gnubg_ids(state)) + "\n"
    assert decode_match_id(ids.stdout.split(":")[1].strip()).scores == (1, 0)  # seat 1 resigned a single game


def test_export_to_a_file_and_bad_formats_give_one_line(tmp_path: Path) -> None:
    path = _record(tmp_path)
    out = tmp_path / "game.mat"
    assert run("export", str(path), "-O", str(out)).returncode == 0
    assert "3 point match" in out.read_text(encoding="utf-8")
    bad = run("export", str(path), "-f", "pdf")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "pdf" in bad.stderr


def test_replay_takes_an_id_or_an_xgid_as_its_argument() -> None:
    ids = run("replay", "4HPwATDgc/ABMA:MAGnAAAAAAAE")
    assert ids.returncode == 0, ids.stderr
    assert "4HPwATDgc/ABMA:MAGnAAAAAAAE" in ids.stdout
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
    result = run("replay", xgid)
    assert result.returncode == 0 and xgid in result.stdout  # printed as text, `:1:` no emoji
