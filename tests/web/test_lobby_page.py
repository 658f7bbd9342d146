"""The lobby page without a browser: only public rooms with a free seat, names as text."""

from __future__ import annotations

import datetime as dt

from fastapi.testclient import TestClient

from hraj.web.pages import ago
from tests.web.api import new_room
from tests.web.test_pages import client  # noqa: F401  (the fixture)


def test_the_lobby_page_lists_public_rooms_in_the_page_s_language(client: TestClient) -> None:  # noqa: F811
    seats = [{"kind": "person", "name": "<b>Eva</b>"}, {"kind": "person"}, {"kind": "bot", "bot": "greedy"}]
    listed = new_room(client, "qwixx", seats, claim=0, public=True)
    private = new_room(client, "qwixx", seats, claim=0)
    page = client.get("/lobby?lang=cs").text
    assert f'data-room="{listed["room"]}"' in page and private["room"] not in page
    assert "&lt;b&gt;Eva&lt;/b&gt;" in page and "<b>Eva</b>" not in page
    assert "1 volné místo" in page and "právě teď" in page
    assert f'href="/r/{listed["room"]}?join=1"' in page
    for secret in (listed["token"], listed["invite"], listed["host_token"]):
        assert secret not in page
    english = client.get("/lobby?lang=en").text
    assert "Open games" in english and "1 free seat" in english


def test_the_lobby_says_so_when_no_game_waits(client: TestClient) -> None:  # noqa: F811
    assert "Teď na hráče nečeká žádná hra." in client.get("/lobby?lang=cs").text


def test_how_long_ago_takes_the_plural_forms_of_each_language() -> None:
    now = dt.datetime(2026, 11, 26, 12, 0, tzinfo=dt.UTC)
    minutes = [ago(now - dt.timedelta(minutes=n), now, "cs") for n in (1, 3, 5)]
    assert minutes == ["před 1 minutou", "před 3 minutami", "před 5 minutami"]
    assert ago(now - dt.timedelta(hours=2), now, "sk") == "pred 2 hodinami"
    assert ago(now - dt.timedelta(days=1), now, "en") == "1 day ago"
    assert ago(now - dt.timedelta(days=5), now, "cs") == "před 5 dny"
