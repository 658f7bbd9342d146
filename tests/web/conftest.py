"""Fixtures of the browser tests: a real server in a thread and Debian's Chromium.

The server runs in-process (uvicorn in a thread, a temporary SQLite file) on a free
loopback port; Playwright drives /usr/bin/chromium (installed by `make test`), never
a browser of its own.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hraj.server.settings import Settings, new_vapid_key

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def site_settings(database: Path, **overrides: Any) -> Settings:
    """The browser tests' server: every limit out of the way, bots and steps without pause."""
    return Settings(
        database_url=f"sqlite:///{database}",
        secret="web-test-secret-0123456789",
        http_rate=10_000.0,
        http_burst=100_000,
        ws_rate=10_000.0,
        ws_burst=100_000,
        room_rate=100_000.0,
        room_burst=100_000,
        ws_connect_rate=100_000.0,
        ws_connect_burst=100_000,
        bot_pace=0.0,
        step_pause=0.0,  # a test that checks the stepping sets its own pause in localStorage
        clock_scale=0.05,  # clocks twenty times shorter: USBGF's 12 s delay and 2 min a point are 0.6 s and 6 s
        vapid_key=new_vapid_key(),
        push_local=True,  # turn reminders go to the tests' push receiver on this machine
        **overrides,
    )


@contextlib.contextmanager
def serving(settings: Settings) -> Iterator[str]:
    """The site on uvicorn in a thread, on a free loopback port; its URL."""
    import uvicorn

    from hraj.app.site import create_app

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(settings), log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(site_settings(tmp_path_factory.mktemp("web") / "hraj.db")) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        message = "Debian's chromium is not installed (make test installs it)"
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(message)  # in CI a missing browser is a failure, never a silent skip
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
