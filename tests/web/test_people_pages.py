"""The pages of people: the account page and "My games", in the page's language."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.test_accounts import PASSWORD, csrf_of, guest, sign_up, solo_room
from tests.server.test_ratings import play_out, rated_room, signed
from tests.web.test_pages import client  # noqa: F401  (the fixture)


def test_a_guest_sees_the_sign_in_and_sign_up_forms_in_czech(client: TestClient) -> None:  # noqa: F811
    page = client.get("/ucet?lang=cs").text
    assert 'data-api="POST /api/session"' in page and 'data-api="POST /api/accounts"' in page
    assert "Přihlásit se" in page and "Založit účet" in page
    assert '<meta name="csrf-token" content="' in page


def test_a_guests_games_are_counted_for_the_sign_up_with_three_plural_forms(client: TestClient) -> None:  # noqa: F811
    headers = guest(client)
    for _ in range(2):
        solo_room(client, headers)
    assert "2 hry z tohoto prohlížeče se přesunou k novému účtu." in client.get("/ucet?lang=cs").text
    assert "2 hry z tohto prehliadača sa presunú k novému účtu." in client.get("/ucet?lang=sk").text
    solo_room(client, headers)
    assert "The 3 games of this browser move to the new account." in client.get("/ucet?lang=en").text


def test_a_signed_in_person_sees_the_settings_and_the_page_carries_the_sessions_csrf_token(client: TestClient) -> None:  # noqa: F811
    body = sign_up(client, "Šárka", PASSWORD, **guest(client))
    page = client.get("/ucet?lang=cs").text
    assert "<h1>Šárka</h1>" in page and "Odhlásit se všude" in page and "Smazat účet" in page
    assert f'<meta name="csrf-token" content="{body["csrf"]}">' in page
    assert csrf_of(client) == {"X-CSRF-Token": body["csrf"]}


def test_my_games_lists_the_seats_game_with_its_players_and_a_way_back(client: TestClient) -> None:  # noqa: F811
    room = solo_room(client, guest(client), name="Eva")
    page = client.get("/moje-hry?lang=cs").text
    assert f'href="/r/{room["room"]}"' in page and "Pokračovat" in page and "hraje se" in page
    assert "Eva, Bot (Random)" in page or "Eva, Bot (Náhodný)" in page
    assert "Zatím žádné hry" in TestClient(client.app).get("/moje-hry?lang=cs").text


def test_a_finished_game_on_the_profile_and_in_my_games_links_to_its_review(client: TestClient) -> None:  # noqa: F811
    eva, csrf = signed(client, "Eva")
    made = rated_room(eva, csrf, [{}, {"kind": "bot", "bot": "greedy"}])
    assert made.status_code == 201, made.text
    room = made.json()["room"]
    play_out(eva, room, [made.json()["token"]], seed=3)
    review = f'<a class="button" href="/r/{room}/replay">Rozbor hry</a>'
    assert review in eva.get("/hrac/Eva?lang=cs").text
    assert review in eva.get("/moje-hry?lang=cs").text
    page = eva.get(f"/r/{room}/replay?lang=cs")
    assert page.status_code == 200 and "Rozbor hry" in page.text and 'id="analysis"' in page.text
