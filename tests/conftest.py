"""What every test shares: no server process it started outlives it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.live import LiveServer


@pytest.fixture(autouse=True)
def _no_server_outlives_its_test() -> Iterator[None]:
    yield
    LiveServer.kill_leftovers()
