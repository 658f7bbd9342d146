"""The site without a browser: a test client on a fresh SQLite store, and rooms made
through the API (a room of bots only is played to its end first)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fastapi.testclient import TestClient

from hraj.app.site import create_app
from hraj.server.settings import Settings
from tests.server.helpers import until_over


@contextmanager
def site_client(folder: Path) -> Iterator[TestClient]:
    """The whole site (API and pages) on a new database in `folder`; bots move at once."""
    settings = Settings(
        database_url=f"sqlite:///{folder / 'hraj.db'}", secret="web-test-secret-0123456789", bot_pace=0.0
    )
    with TestClient(create_app(settings)) as client:
        yield client


def new_room(client: TestClient, game: str, seats: list[dict[str, str]], **extra: object) -> dict[str, str]:
    response = client.post("/api/rooms", json={"game": game, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    body: dict[str, str] = response.json()
    if all(seat.get("kind") == "bot" for seat in seats):  # bots play one move per step: wait for the end
        until_over(client, body["room"])
    return body
