"""What an operator needs: headers, health, metrics behind a setting, clean names, archived rooms."""

from __future__ import annotations

import datetime as dt
import stat
from pathlib import Path

import sqlalchemy as sa
from fastapi.testclient import TestClient

from hraj.app.site import create_app
from hraj.server.settings import Settings
from hraj.store import Store
from hraj.store.db import ARCHIVED, OVER, PLAYING
from hraj.store.schema import rooms as rooms_table
from tests.server.conftest import SECRET, MakeClient
from tests.server.helpers import auth, new_room, two_people, until_over


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/api/health", "/api/games", "/api/rooms/nothing"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"


def test_answers_over_tls_tell_browsers_to_stay_on_https(make_client: MakeClient) -> None:
    client = make_client()
    assert "strict-transport-security" not in client.get("/api/health").headers  # plain HTTP: no promise
    client.base_url = client.base_url.copy_with(scheme="https")
    for path in ("/", "/api/health", "/api/rooms/nothing"):
        assert client.get(path).headers["strict-transport-security"] == "max-age=31536000"


def test_pages_have_no_inline_script_the_policy_would_block(client: TestClient) -> None:
    import re

    page = client.get("/").text
    for tag in re.findall(r"<script\b[^>]*>", page):
        assert "src=" in tag or 'type="application/json"' in tag, tag
    assert not re.search(r"\son[a-z]+=", page), "no inline event handlers"


def test_operator_endpoints_are_off_unless_asked_for(make_client: MakeClient) -> None:
    public = make_client()
    for path in ("/openapi.json", "/api/stats", "/metrics"):
        assert public.get(path).status_code == 404, path
    operator = make_client(operator_endpoints=True)
    assert operator.get("/openapi.json").status_code == 200
    assert operator.get("/api/stats").json()["rooms_live"] == 0
    two_people(operator)
    metrics = operator.get("/metrics")
    assert metrics.status_code == 200
    assert 'hraj_rooms{status="playing"} 1.0' in metrics.text
    assert 'hraj_rooms_by_role{role="owned"} 1.0' in metrics.text
    assert "hraj_commit_seconds_bucket" in metrics.text and "hraj_connections 0.0" in metrics.text


def test_health_and_readiness(client: TestClient) -> None:
    health = client.get("/api/health")
    assert health.status_code == 200 and health.json()["ok"] is True
    assert client.get("/api/ready").json() == {"ready": True}


def test_names_lose_control_and_bidi_characters(client: TestClient) -> None:
    body = new_room(client, [{"kind": "person", "name": "\u202eEva\x00\u200f"}, {"kind": "person"}], claim=0)
    assert body["seats"][0]["name"] == "Eva"
    claimed = client.post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"], "name": "Jan\x1b[31m"})
    assert claimed.status_code == 200
    seats = client.get(f"/api/rooms/{body['room']}").json()["seats"]
    assert seats[1]["name"] == "Jan[31m"
    empty = client.post("/api/rooms", json={"game": "qwixx", "seats": [{"name": "\x00\u202e"}, {}]})
    assert empty.status_code == 400 and empty.json()["code"] == "bad_message"


def test_a_nul_byte_in_a_room_id_is_no_room_and_leaves_no_lock(client: TestClient) -> None:
    """Before, a NUL byte gave a 500 on PostgreSQL, and every unknown id kept a lock for ever."""
    for room in ("abc%00def", "nothing-here", "x" * 40):
        answer = client.get(f"/api/rooms/{room}")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert client.app.state.rooms._loading == {}  # type: ignore[attr-defined]


def test_the_sqlite_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "new" / "hraj.db"
    store = Store(f"sqlite:///{path}")
    store.migrate()
    store.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_idle_rooms_are_archived_and_not_rebuilt_at_start(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'hraj.db'}"
    settings = Settings(database_url=url, secret=SECRET, archive_after=3600, bot_pace=0.0)
    with TestClient(create_app(settings)) as client:
        idle, *idle_tokens = two_people(client)
        active, _, _ = two_people(client)
        bots = new_room(client, [{"kind": "bot"}, {"kind": "bot"}])
        until_over(client, bots["room"])
    store = Store(url)
    with store.engine.begin() as connection:
        connection.execute(
            rooms_table.update()
            .where(rooms_table.c.id == idle["room"])
            .values(updated_at=dt.datetime.now(dt.UTC) - dt.timedelta(days=2))
        )
    with TestClient(create_app(settings)) as client:
        loaded = client.app.state.rooms.rooms  # type: ignore[attr-defined]
        assert set(loaded) == {active["room"]}, "neither the archived nor the finished room is rebuilt"
        statuses = dict(store.engine.connect().execute(sa.select(rooms_table.c.id, rooms_table.c.status)).all())
        assert statuses == {idle["room"]: ARCHIVED, active["room"]: PLAYING, bots["room"]: OVER}
        # Anyone may look at it; that does not wake it (before, it did: it was then
        # rebuilt at every start).
        for path in ("", "/view", "/chat"):
            assert client.get(f"/api/rooms/{idle['room']}{path}").status_code == 200
        assert client.get(f"/r/{idle['room']}").status_code == 200
        assert store.load_room(idle["room"]).status == ARCHIVED  # type: ignore[union-attr]
    with TestClient(create_app(settings)) as client:
        assert set(client.app.state.rooms.rooms) == {active["room"]}  # type: ignore[attr-defined]
        # Its next move plays it again.
        seat = client.get(f"/api/rooms/{idle['room']}/view").json()["view"]["to_act"][0]
        token = idle_tokens[seat]
        legal = client.get(f"/api/rooms/{idle['room']}/view", headers=auth(token)).json()["view"]["legal"]
        moved = client.post(f"/api/rooms/{idle['room']}/actions", json={"action": legal[0]}, headers=auth(token))
        assert moved.status_code == 200, moved.text
        assert store.load_room(idle["room"]).status == PLAYING  # type: ignore[union-attr]
    store.close()
