"""The deployment of docs/deploy.md, as the files in deploy/ describe it.

The systemd unit's own command line and environment (its Environment= lines and the
example environment file, with a throwaway PostgreSQL database and a real secret) start
two processes on the ports Caddy's configuration sends players to; both must serve one
room: a seat claimed and moves made through either reach the other. Only the install
folder (/opt/hraj/venv/bin) is this test's interpreter's.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from hraj.server.settings import SettingsError, load_settings
from tests.server.live import Client, claim, create_room
from tests.store.databases import database_url

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
INSTALLED = "/opt/hraj/venv/bin/"


def unit_service(path: Path) -> dict[str, list[str]]:
    """The [Service] settings of a systemd unit, every value of each key in order."""
    section, found = "", dict[str, list[str]]()
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
        elif section == "[Service]":
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


def environment_lines(lines: list[str]) -> dict[str, str]:
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def caddy_upstreams(path: Path) -> list[int]:
    match = re.search(r"reverse_proxy\s+([^{\n]+)", path.read_text())
    assert match, "the Caddyfile proxies to no process"
    return [int(address.rsplit(":", 1)[1]) for address in match.group(1).split()]


def test_the_example_environment_is_settings_the_server_takes_once_its_secret_is_set() -> None:
    env = environment_lines((DEPLOY / "hraj.env.example").read_text().splitlines())
    with pytest.raises(SettingsError, match="at least 16 characters"):
        load_settings(env)  # the placeholder never serves
    env["HRAJ_SECRET"] = secrets.token_urlsafe(32)
    settings = load_settings(env)
    assert settings.database_url.startswith("postgresql://") and settings.lease == 5


def test_the_units_command_lines_serve_one_room_from_both_processes(tmp_path: Path) -> None:
    service = unit_service(DEPLOY / "hraj@.service")
    [exec_start] = service["ExecStart"]
    assert exec_start.startswith(INSTALLED), exec_start
    assert service["EnvironmentFile"] == ["/etc/hraj/hraj.env"]
    assert service["KillSignal"] == ["SIGTERM"]
    file_env = environment_lines((DEPLOY / "hraj.env.example").read_text().splitlines())
    file_env["HRAJ_DATABASE_URL"] = next(database_url("postgres", tmp_path))
    file_env["HRAJ_SECRET"] = secrets.token_urlsafe(32)
    # As systemd starts it: no environment but the unit's own (and a PATH).
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **file_env, **environment_lines(service["Environment"])}
    ports = caddy_upstreams(DEPLOY / "Caddyfile")
    assert len(ports) == 2
    folder = str(Path(sys.executable).parent) + "/"
    processes = []
    try:
        for port in ports:
            argv = exec_start.replace("%i", str(port)).replace(INSTALLED, folder, 1).split()
            processes.append(
                subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            )
        urls = [f"http://127.0.0.1:{port}" for port in ports]
        for process, url in zip(processes, urls, strict=True):
            banner = process.stdout.readline()  # type: ignore[union-attr]
            assert banner.startswith(f"hraj serving on {url} "), banner
            assert _ready(url, 60), f"{url} is not ready"
        first, second = urls
        body = create_room(first, "qwixx", [{"kind": "person"}] * 2, claim=0)
        room = body["room"]
        token = claim(second, room, body["invite"])
        asyncio.run(_play_across(first, second, room, body["token"], token))
        summaries = [httpx.get(f"{url}/api/rooms/{room}", timeout=10).json() for url in urls]
        assert summaries[0]["version"] == summaries[1]["version"] > body["version"]
        assert summaries[0]["head"] == summaries[1]["head"]
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            assert process.wait(int(service["TimeoutStopSec"][0])) == 0
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()


def _ready(url: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/ready", timeout=5).json() == {"ready": True}:
                return True
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.2)
    return False


async def _play_across(first: str, second: str, room: str, token0: str, token1: str) -> None:
    """Each seat on its own process: a move of each reaches the other before its ack."""
    players = [Client(url.replace("http", "ws", 1), room, token) for url, token in ((first, token0), (second, token1))]
    for player in players:
        await player.connect()
    for mover, other in (players, players[::-1]):
        while not mover.my_turn():
            await mover.changed()
        answer = await mover.act(mover.my_turn()[0])
        assert answer["type"] == "ack", answer
        while other.version is None or other.version < answer["version"]:
            await other.changed()
    for player in players:
        await player.close()
