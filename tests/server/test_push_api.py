"""Subscribing to turn reminders over HTTP: only for seats the browser's tokens prove."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hraj.app.site import create_app
from hraj.server.settings import load_settings
from hraj.store.push import for_seat
from tests.server.push_receiver import PushReceiver


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = load_settings({"HRAJ_DATABASE_URL": str(tmp_path / "hraj.db"), "HRAJ_PUSH_LOCAL": "allow"})
    with TestClient(create_app(settings)) as found:
        yield found


def test_a_browser_subscribes_for_the_seats_its_tokens_hold(client: TestClient) -> None:
    receiver = PushReceiver()
    try:
        key = client.get("/api/push/key").json()["key"]
        assert isinstance(key, str) and len(key) == 87  # 65 bytes, base64url
        made = client.post("/api/rooms", json={"game": "qwixx", "seats": [{}, {}], "claim": 0}).json()
        room, token = made["room"], made["token"]
        subscription = receiver.subscription()
        refused = client.post(
            "/api/push", json={"subscription": subscription, "seats": [{"room": room, "token": "x" * 32}]}
        )
        assert refused.status_code == 403
        answer = client.post(
            "/api/push", json={"subscription": subscription, "lang": "en", "seats": [{"room": room, "token": token}]}
        )
        assert answer.status_code == 201 and answer.json() == {"seats": [{"room": room, "seat": 0}]}
        store = client.app.state.rooms.store  # type: ignore[attr-defined]
        assert [s.endpoint for s in for_seat(store.engine, room, 0)] == [receiver.endpoint]
        assert client.post("/api/push/unsubscribe", json={"endpoint": receiver.endpoint}).json() == {"ok": True}
        assert for_seat(store.engine, room, 0) == []
    finally:
        receiver.close()


def test_the_service_worker_is_served_for_the_whole_site(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and "showNotification" in answer.text
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["service-worker-allowed"] == "/"
