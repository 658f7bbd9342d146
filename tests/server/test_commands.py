"""`hraj serve` and `hraj verify`: clear messages, never a traceback."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from typer.testing import CliRunner

from hraj.server.commands import register
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
    [(None, "cannot read"), ("{not json", "not valid JSON"), ('{"format": "x"}', "no revealed seed")],
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
