"""`hraj serve` and `hraj verify`: clear messages, never a traceback."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from typer.testing import CliRunner

from hraj.app.commands import register
from tests.server.live import Client, LiveServer, create_room
from tests.server.test_fairness import finished_record

runner = CliRunner()


def cli() -> typer.Typer:
    app = typer.Typer()
    register(app)
    return app


def test_verify_confirms_a_finished_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    record = finished_record()
    path.write_text(json.dumps(record))
    result = runner.invoke(cli(), ["verify", str(path), "--lang", "en"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.splitlines()[0])
    assert summary["verified"] and summary["game"] == "qwixx"
    assert summary["chance_events"] == sum(1 for e in record["events"] if e[0] == "chance")
    assert "come from it" in result.output


def test_verify_rejects_a_tampered_record_without_a_traceback(tmp_path: Path) -> None:
    record = finished_record()
    record["room"]["seed"] = "ff" * 32
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(cli(), ["verify", str(path), "--lang", "en"])
    assert result.exit_code == 1
    assert "NOT verified: The revealed seed does not match the commitment" in result.output
    assert "Traceback" not in result.output


def test_verify_speaks_czech_and_slovak(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_record()))
    czech = runner.invoke(cli(), ["verify", str(path), "--lang", "cs"])
    assert czech.exit_code == 0, czech.output
    assert "vychází z něj" in czech.output
    record = finished_record()
    record["room"]["seed"] = "ff" * 32
    path.write_text(json.dumps(record))
    slovak = runner.invoke(cli(), ["verify", str(path), "--lang", "sk"])
    assert slovak.exit_code == 1
    assert "NEOVERENÉ" in slovak.output and "nezodpovedá" in slovak.output


def test_serve_refuses_bad_settings_in_czech() -> None:
    result = runner.invoke(cli(), ["serve", "--port", "99999", "--lang", "cs"])
    assert result.exit_code == 2
    assert "port: čekáno číslo od 0 do 65535" in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "Cannot read"), ("{not json", "not valid JSON"), ('{"format": "x"}', "no revealed seed")],
)
def test_verify_explains_unusable_files(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content)
    result = runner.invoke(cli(), ["verify", str(path), "--lang", "en"])
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"room": "\xe9"}'.encode("latin-1"), "it is not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "its JSON is nested too deeply for a record"),
    ],
)
def test_verify_refuses_a_file_that_is_no_record_as_a_file_error(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    result = runner.invoke(cli(), ["verify", str(path), "--lang", "en"])
    assert result.exit_code == 2, result.output
    assert f"Cannot read {path}: {message}" in result.output
    assert "Traceback" not in result.output and "unexpectedly" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "99999"], "port: expected a number from 0 to 65535"),
        (["--database", "mysql://x/y"], "use sqlite:///PATH or postgresql://"),
        (["--database", "postgresql://nobody@127.0.0.1:1/x?connect_timeout=2", "--secret", "s" * 16], "Cannot open"),
        (["--database", "/proc/no-such-folder/hraj.db", "--secret", "s" * 16], "Cannot create the folder"),
    ],
)
def test_serve_refuses_bad_settings_clearly(args: list[str], message: str) -> None:
    result = runner.invoke(cli(), ["serve", *args, "--lang", "en"])
    assert result.exit_code in (1, 2)
    assert message in result.output
    assert "Traceback" not in result.output


def test_serve_prints_its_url_serves_and_stops_cleanly(tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path / 'hraj.db'}")
    url = server.start()
    assert url.startswith("http://127.0.0.1:")
    assert httpx.get(f"{url}/api/health", timeout=10).json()["ok"] is True
    assert server.stop(signal.SIGINT) == 0
    assert server.output[-1].strip() == "hraj: stopped"
    assert not any("Traceback" in line for line in server.output)
    assert (tmp_path / "hraj.db").exists()


def test_serve_reports_a_port_in_use(tmp_path: Path) -> None:
    first = LiveServer(f"sqlite:///{tmp_path / 'a.db'}")
    url = first.start()
    port = url.rsplit(":", 1)[1]
    try:
        result = runner.invoke(cli(), ["serve", "--port", port, "--database", str(tmp_path / "b.db"), "--lang", "en"])
        assert result.exit_code == 1
        assert f"cannot listen on 127.0.0.1:{port}" in result.output
    finally:
        first.stop()


def test_serve_stops_cleanly_with_players_connected(tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path / 'hraj.db'}")
    url = server.start()
    body = create_room(url, "qwixx", [{"kind": "person"}, {"kind": "person"}], claim=0)

    async def connect_and_stop() -> dict[str, Any]:
        client = Client(server.ws_url, body["room"], body["token"])
        welcome = await client.connect()
        assert server.stop() == 0  # SIGTERM while the socket is open
        await client.close()
        return welcome

    welcome = asyncio.run(connect_and_stop())
    assert welcome["seat"] == 0
    assert server.output[-1].strip() == "hraj: stopped"


def test_sigterm_stops_the_server_within_seconds_while_bots_play_flat_out(tmp_path: Path) -> None:
    """Before, a room of two pubeval bots playing a 32,767-point match kept the server
    (and the request that created it) busy past 90 s after SIGTERM."""
    server = LiveServer(f"sqlite:///{tmp_path / 'hraj.db'}", env={"HRAJ_BOT_PACE": "0", "HRAJ_BOT_ROOMS": "endless"})
    url = server.start()
    began = time.monotonic()
    bots = [{"kind": "bot", "bot": "pubeval"}] * 2
    body = create_room(url, "backgammon", bots, options={"match_length": 32767})
    assert time.monotonic() - began < 5, "the room is created at once"

    async def watch_and_stop() -> float:
        client = Client(server.ws_url, body["room"], None)
        await client.connect()
        await asyncio.sleep(1.0)
        stopping = time.monotonic()
        assert server.stop(timeout=15) == 0
        took = time.monotonic() - stopping
        await client.close()
        return took

    took = asyncio.run(watch_and_stop())
    assert took < 6, f"SIGTERM took {took:.1f} s"
    # A restart goes on with the same room: it is in play, at a version at least as far.
    again = LiveServer(f"sqlite:///{tmp_path / 'hraj.db'}", env={"HRAJ_BOT_PACE": "5", "HRAJ_BOT_ROOMS": "endless"})
    url = again.start()
    try:
        summary = httpx.get(f"{url}/api/rooms/{body['room']}", timeout=10).json()
        assert summary["status"] == "playing" and summary["version"] > body["version"]
    finally:
        assert again.stop() == 0


def test_a_second_server_on_one_database_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, a restart while the old process still ran let two processes write one room."""
    from hraj.app import commands

    monkeypatch.setattr(commands, "WRITER_WAIT_S", 0.5)
    first = LiveServer(f"sqlite:///{tmp_path / 'hraj.db'}")
    first.start()
    try:
        result = runner.invoke(cli(), ["serve", "--port", "0", "--database", str(tmp_path / "hraj.db"), "--lang", "en"])
        assert result.exit_code == 1
        assert "Another hraj server is serving the database" in result.output
    finally:
        assert first.stop() == 0


def test_serve_exits_1_when_the_rooms_cannot_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hraj.server.rooms import Rooms

    async def broken(self: Rooms) -> None:
        raise RuntimeError("the rooms cannot start")

    monkeypatch.setattr(Rooms, "start", broken)
    result = runner.invoke(cli(), ["serve", "--port", "0", "--database", str(tmp_path / "hraj.db"), "--lang", "en"])
    assert result.exit_code == 1, result.output


def test_verify_says_unfinished_for_a_truncated_record_and_exits_1(tmp_path: Path) -> None:
    record = finished_record()
    record["events"] = record["events"][:-5]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(cli(), ["verify", str(path), "--lang", "en"])
    assert result.exit_code == 1
    assert "unfinished" in result.output


def test_verify_checks_a_kept_chain_head(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_record()))
    good = runner.invoke(cli(), ["verify", str(path), "--lang", "en"])
    head = json.loads(good.output.splitlines()[0])["head"]
    assert runner.invoke(cli(), ["verify", str(path), "--head", head, "--lang", "en"]).exit_code == 0
    wrong = runner.invoke(cli(), ["verify", str(path), "--head", "0" * 64, "--lang", "en"])
    assert wrong.exit_code == 1 and "the record was changed" in wrong.output


def test_backup_copies_a_sqlite_database_readable_by_its_owner_only(tmp_path: Path) -> None:
    from hraj.store import NewRoom, NewSeat, Store

    store = Store(f"sqlite:///{tmp_path / 'hraj.db'}")
    store.migrate()
    store.create_room(NewRoom("r1", "qwixx", {"players": 2}, "00" * 32, "c", "i", "h", [NewSeat("person")] * 2))
    target = tmp_path / "copy.db"
    result = runner.invoke(cli(), ["backup", str(target), "--database", str(tmp_path / "hraj.db"), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert Store(f"sqlite:///{target}").room_ids() == ["r1"]
    assert target.stat().st_mode & 0o777 == 0o600
    again = runner.invoke(cli(), ["backup", str(target), "--database", str(tmp_path / "hraj.db"), "--lang", "en"])
    assert again.exit_code == 1 and "exists already" in again.output
    postgres = runner.invoke(cli(), ["backup", str(target) + "2", "--database", "postgresql://x@127.0.0.1:1/y"])
    assert postgres.exit_code == 1 and "pg_dump" in postgres.output
    store.close()


def rooms_from(url: str, addresses: list[str]) -> list[int]:
    seats = [{"kind": "person"}, {"kind": "person"}]
    return [
        httpx.post(
            f"{url}/api/rooms", json={"game": "qwixx", "seats": seats}, headers={"X-Forwarded-For": a}, timeout=10
        ).status_code
        for a in addresses
    ]


@pytest.mark.parametrize(("trusted", "expected"), [("", [201, 201, 429]), ("127.0.0.1", [201, 201, 201])])
def test_x_forwarded_for_counts_only_from_a_trusted_proxy(tmp_path: Path, trusted: str, expected: list[int]) -> None:
    """Before, uvicorn believed X-Forwarded-For from 127.0.0.1, so anyone on the machine (or
    behind a proxy that passes the header on) could pick a new address for each request."""
    env = {"HRAJ_ROOM_RATE": "0.001", "HRAJ_ROOM_BURST": "2", "HRAJ_TRUSTED_PROXIES": trusted}
    server = LiveServer(f"sqlite:///{tmp_path / 'hraj.db'}", env=env)
    url = server.start()
    try:
        assert rooms_from(url, ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) == expected
    finally:
        assert server.stop() == 0


def test_logs_can_be_json_lines_with_an_access_log(tmp_path: Path) -> None:
    env = {"HRAJ_LOG_FORMAT": "json", "HRAJ_ACCESS_LOG": "on"}
    server = LiveServer(f"sqlite:///{tmp_path / 'hraj.db'}", env=env)
    url = server.start()
    httpx.get(f"{url}/api/health", timeout=10)
    body = create_room(url, "qwixx", [{"kind": "person"}] * 2)
    httpx.get(body["invite_url"], timeout=10)
    assert server.stop() == 0
    entries = [json.loads(line) for line in server.output if line.startswith("{")]
    assert any(e["logger"] == "uvicorn.access" and "/api/health" in e["message"] for e in entries), server.output
    # The invite link was opened, and its key is nowhere in the log.
    assert any(f"/r/{body['room']}?invite=***" in e["message"] for e in entries), server.output
    assert body["invite"] not in "".join(server.output)
