from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hraj.app.site import create_app
from hraj.server.settings import Settings

SECRET = "test-secret-0123456789"

MakeClient = Callable[..., TestClient]


@pytest.fixture
def make_client(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[MakeClient]:
    """Start the app in-process on a fresh SQLite file, with settings overridden as asked.

    Room seeds come from a generator seeded by the test's name, so every deal replays.
    """
    opened: list[TestClient] = []

    def make(**overrides: Any) -> TestClient:
        settings = Settings(
            **{"database_url": f"sqlite:///{tmp_path / f'hraj{len(opened)}.db'}", "secret": SECRET, **overrides}
        )
        deals = random.Random(f"{request.node.name}-{len(opened)}")
        client = TestClient(create_app(settings, seeds=lambda: f"{deals.getrandbits(256):064x}"))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in reversed(opened):
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: MakeClient) -> TestClient:
    return make_client()
