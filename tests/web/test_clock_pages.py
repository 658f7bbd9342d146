"""Clocks on the pages: time left in words, and "Moje hry" with the games that wait for me first."""

from __future__ import annotations

import datetime as dt
import html
import json
import re

from fastapi.testclient import TestClient

from hraj.store.timekeeping import ClockChange, DueRow, write_clocks
from hraj.web.clock_words import clock, time_left
from tests.server.test_accounts import guest, sign_up, solo_room
from tests.web.test_pages import client  # noqa: F401  (the fixture)


def test_time_left_is_said_in_the_largest_unit_with_three_plural_forms() -> None:
    days = [time_left(dt.timedelta(days=n, hours=3), "cs") for n in (1, 2, 5)]
    assert days == ["zbývá 1 den", "zbývají 2 dny", "zbývá 5 dní"]
    assert time_left(dt.timedelta(hours=4, minutes=59), "sk") == "zostávajú 4 hodiny"
    assert time_left(dt.timedelta(seconds=20), "en") == "1 minute left"
    assert time_left(dt.timedelta(minutes=-5), "cs") == "zbývá 1 minuta"


def test_a_live_clock_reads_as_minutes_and_seconds() -> None:
    assert [clock(s) for s in (0, 9.9, 65, 600, 3725)] == ["0:00", "0:09", "1:05", "10:00", "1:02:05"]


def test_my_games_lists_the_games_waiting_for_me_first(client: TestClient) -> None:  # noqa: F811
    headers = guest(client)
    first = solo_room(client, headers, name="Eva")["room"]
    waiting = solo_room(client, headers, name="Eva")["room"]
    third = solo_room(client, headers, name="Eva")["room"]
    engine = client.app.state.rooms.store.engine  # type: ignore[attr-defined]
    due = dt.datetime.now(dt.UTC) + dt.timedelta(days=2, hours=1)
    with engine.begin() as connection:
        write_clocks(connection, {waiting: ClockChange({}, [DueRow(waiting, 0, 3, due)])})
    page = client.get("/moje-hry?lang=cs").text
    order = [page.index(f'data-room="{room}"') for room in (waiting, third, first)]
    assert order == sorted(order)
    assert "Jste na tahu</strong> · zbývají 2 dny" in page
    assert page.count("Jste na tahu</strong>") == 1


def test_the_play_now_page_names_each_level_a_seeker_may_be_offered_with_its_rating(
    client: TestClient,  # noqa: F811
) -> None:
    page = client.get("/hrat?lang=cs").text
    found = re.search(r"""data-game="qwixx" data-bots='([^']*)'""", page)
    assert found is not None
    levels = json.loads(html.unescape(found.group(1)))
    assert levels["optimal"][0] == "Pokročilý ≈ 1\xa0500"  # as the seat picker names it
    assert levels["master"][0].startswith("Mistr ≈ 1\xa0")


def test_the_play_now_page_offers_a_rated_seek_only_to_a_person_signed_in(
    client: TestClient,  # noqa: F811
) -> None:
    page = client.get("/hrat?lang=cs").text
    box = re.search(r'<input type="checkbox" id="seek-rated"([^>]*)>', page)
    assert box is not None and "disabled" in box.group(1)
    assert 'id="seek-rated-why">Hodnocenou hru může založit jen přihlášený hráč.' in page
    assert 'data-option="match_length"' in page  # a game's options, as the start page offers them
    sign_up(client, "Eva", **guest(client))
    page = client.get("/hrat?lang=cs").text
    box = re.search(r'<input type="checkbox" id="seek-rated"([^>]*)>', page)
    assert box is not None and "disabled" not in box.group(1) and 'id="seek-rated-why"' not in page
