"""Guests and accounts over HTTP: cookies, sessions, CSRF, sign-in limits, one's games and data."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hraj.players.accounts import Accounts
from hraj.players.errors import TooManyAttempts, WrongCredentials
from hraj.players.identity import GUEST_COOKIE, SESSION_COOKIE
from hraj.players.passwords import Hashing
from hraj.server.limits import Rate
from hraj.store import Store
from hraj.store.people import People
from hraj.store.schema import sign_in_failures
from tests.server.conftest import MakeClient

PASSWORD = "correct horse battery"


def csrf_of(client: TestClient) -> dict[str, str]:
    token = client.get("/api/me").json()["csrf"]
    return {"X-CSRF-Token": token}


def guest(client: TestClient) -> dict[str, str]:
    """Open the start page (a first visit: the guest cookie) and give the page's CSRF token."""
    assert client.get("/").status_code == 200
    assert client.cookies.get(GUEST_COOKIE)
    return csrf_of(client)


def sign_up(client: TestClient, name: str, password: str = PASSWORD, **headers: str) -> dict[str, Any]:
    response = client.post("/api/accounts", json={"name": name, "password": password}, headers=headers)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def my_games(client: TestClient) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = client.get("/api/my-games").json()["games"]
    return games


def solo_room(client: TestClient, headers: dict[str, str], name: str | None = None) -> dict[str, Any]:
    response = client.post(
        "/api/rooms",
        json={"game": "qwixx", "seats": [{"name": name}, {"kind": "bot", "bot": "random"}], "claim": 0},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def cookie_header(response: Any, name: str) -> str:
    return str(next(value for value in response.headers.get_list("set-cookie") if value.startswith(f"{name}=")))


def test_a_first_visit_gets_a_signed_httponly_guest_cookie_and_its_seats_are_its_games(client: TestClient) -> None:
    response = client.get("/")
    cookie = cookie_header(response, GUEST_COOKIE).lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
    assert client.get("/").headers.get("set-cookie") is None, "the second visit keeps its id"
    room = solo_room(client, csrf_of(client))
    assert [(g["room"], g["seat"], g["status"]) for g in my_games(client)] == [(room["room"], 0, "playing")]
    other = TestClient(client.app)
    other.get("/")
    assert my_games(other) == [], "another browser is another guest"


def test_a_forged_guest_cookie_is_nobody(client: TestClient) -> None:
    client.get("/")
    real = client.cookies[GUEST_COOKIE]
    solo_room(client, csrf_of(client))
    forged = ("f" * 32) + real[32:]
    client.cookies.clear()
    client.cookies.set(GUEST_COOKIE, forged)
    assert client.get("/api/me").json() == {"name": None, "guest": False, "csrf": None}
    assert my_games(client) == []


def test_cookies_are_secure_over_tls(make_client: MakeClient) -> None:
    client = make_client()
    tls = TestClient(client.app, base_url="https://testserver")
    assert "secure" in cookie_header(tls.get("/"), GUEST_COOKIE).lower()
    response = tls.post("/api/accounts", json={"name": "Eva", "password": PASSWORD}, headers=csrf_of(tls))
    session = cookie_header(response, SESSION_COOKIE).lower()
    assert "secure" in session and "httponly" in session and "samesite=lax" in session


def test_signing_up_moves_the_guests_games_to_the_account(client: TestClient) -> None:
    headers = guest(client)
    room = solo_room(client, headers)
    body = sign_up(client, "Éva", **headers)
    assert body["name"] == "Éva" and body["csrf"]
    assert client.get("/api/me").json()["name"] == "Éva"
    assert [g["room"] for g in my_games(client)] == [room["room"]]
    client.delete("/api/session", headers={"X-CSRF-Token": body["csrf"]})
    client.get("/")
    assert my_games(client) == [], "signed out, the browser is a new guest"


def test_a_sign_up_or_in_with_the_cookie_but_without_its_csrf_token_is_forbidden(client: TestClient) -> None:
    headers = guest(client)
    solo_room(client, headers)
    forged = client.post("/api/accounts", json={"name": "Eva", "password": PASSWORD})
    assert forged.status_code == 403
    sign_up(TestClient(client.app), "Petr")
    assert client.post("/api/session", json={"name": "Petr", "password": PASSWORD}).status_code == 403
    assert client.get("/api/me").json()["name"] is None and len(my_games(client)) == 1


def test_a_room_made_with_the_cookie_but_without_the_csrf_token_is_nobodys(client: TestClient) -> None:
    headers = guest(client)
    solo_room(client, {})
    assert my_games(client) == []
    solo_room(client, headers)
    assert len(my_games(client)) == 1


def test_a_signed_in_seat_bears_the_accounts_name(client: TestClient) -> None:
    body = sign_up(client, "Šárka")
    room = solo_room(client, {"X-CSRF-Token": body["csrf"]}, name="Someone else")
    assert room["seats"][0]["name"] == "Šárka"


def test_a_second_seat_at_one_screen_stays_nobodys(client: TestClient) -> None:
    headers = guest(client)
    made = client.post(
        "/api/rooms", json={"game": "qwixx", "seats": [{}, {"name": "Petr"}], "claim": 0}, headers=headers
    ).json()
    claimed = client.post(
        f"/api/rooms/{made['room']}/claim", json={"invite": made["invite"], "name": "Petr"}, headers=headers
    )
    assert claimed.status_code == 200, claimed.text
    assert [g["seat"] for g in my_games(client)] == [0]


@pytest.mark.parametrize("name", ["eva", "EVA", "Éva", "ÉVA"])
def test_a_name_is_taken_whatever_its_case_and_diacritics(client: TestClient, name: str) -> None:
    sign_up(TestClient(client.app), "Eva")
    other = TestClient(client.app)
    response = other.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert response.status_code == 409 and response.json()["code"] == "name_taken"


@pytest.mark.parametrize(
    ("name", "password", "key"),
    [
        ("Ev", PASSWORD, "A name has {low} to {high} characters."),
        ("Eva", "short", "A password has at least {count} characters."),
    ],
)
def test_a_bad_name_or_password_is_refused_in_the_players_language(
    client: TestClient, name: str, password: str, key: str
) -> None:
    response = client.post("/api/accounts?lang=cs", json={"name": name, "password": password})
    assert response.status_code == 400
    assert response.json()["key"] == key and response.json()["text"] != response.json()["message"]


def test_signing_in_rotates_the_session_and_signing_out_ends_it(client: TestClient) -> None:
    sign_up(client, "Eva")
    first = client.cookies[SESSION_COOKIE]
    signed = client.post("/api/session", json={"name": "eva", "password": PASSWORD}, headers=csrf_of(client))
    assert signed.status_code == 200 and signed.json()["name"] == "Eva"
    second = client.cookies[SESSION_COOKIE]
    assert second != first
    stale = TestClient(client.app, cookies={SESSION_COOKIE: first})
    assert stale.get("/api/me").json()["name"] is None, "the old session ended at the sign-in"
    assert client.delete("/api/session", headers={"X-CSRF-Token": signed.json()["csrf"]}).status_code == 204
    again = TestClient(client.app, cookies={SESSION_COOKIE: second})
    assert again.get("/api/me").json()["name"] is None


def test_signing_out_without_the_csrf_token_is_forbidden_and_changes_nothing(client: TestClient) -> None:
    sign_up(client, "Eva")
    for method, path, body in [
        ("DELETE", "/api/session", None),
        ("DELETE", "/api/sessions", None),
        ("PUT", "/api/account/password", {"password": PASSWORD, "new_password": "another password"}),
        ("DELETE", "/api/account", {"password": PASSWORD}),
    ]:
        forged = client.request(method, path, json=body, headers={"X-CSRF-Token": "0" * 40})
        assert forged.status_code == 403, (path, forged.text)
        assert client.get("/api/me").json()["name"] == "Eva", path
    again = client.post("/api/session", json={"name": "Eva", "password": PASSWORD}, headers=csrf_of(client))
    assert again.status_code == 200


def test_signing_out_everywhere_ends_every_session(client: TestClient) -> None:
    sign_up(client, "Eva")
    other = TestClient(client.app)
    assert other.post("/api/session", json={"name": "Eva", "password": PASSWORD}).status_code == 200
    assert other.get("/api/me").json()["name"] == "Eva"
    ended = client.delete("/api/sessions", headers=csrf_of(client))
    assert ended.json() == {"ended": 2}
    assert other.get("/api/me").json()["name"] is None
    assert client.get("/api/me").json()["name"] is None
    page = other.get("/ucet")
    assert SESSION_COOKIE not in other.cookies and other.cookies.get(GUEST_COOKIE), "the stale cookie goes"
    assert 'data-api="POST /api/session"' in page.text


def test_changing_the_password_ends_the_other_sessions(client: TestClient) -> None:
    sign_up(client, "Eva")
    other = TestClient(client.app)
    other.post("/api/session", json={"name": "Eva", "password": PASSWORD})
    wrong = client.put(
        "/api/account/password", json={"password": "not it at all", "new_password": "x" * 12}, headers=csrf_of(client)
    )
    assert wrong.status_code == 401
    changed = client.put(
        "/api/account/password", json={"password": PASSWORD, "new_password": "a new password"}, headers=csrf_of(client)
    )
    assert changed.status_code == 200, changed.text
    assert client.get("/api/me").json()["name"] == "Eva", "this browser has its new session"
    assert other.get("/api/me").json()["name"] is None
    assert TestClient(client.app).post("/api/session", json={"name": "Eva", "password": PASSWORD}).status_code == 401
    assert (
        TestClient(client.app).post("/api/session", json={"name": "Eva", "password": "a new password"}).status_code
        == 200
    )


def test_a_deleted_account_frees_its_name_and_leaves_its_games_nameless(client: TestClient) -> None:
    body = sign_up(client, "Eva")
    room = solo_room(client, {"X-CSRF-Token": body["csrf"]})
    refused = client.request("DELETE", "/api/account", json={"password": "wrong password"}, headers=csrf_of(client))
    assert refused.status_code == 401
    done = client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf_of(client))
    assert done.status_code == 204
    assert client.get("/api/me").json()["name"] is None
    assert TestClient(client.app).post("/api/session", json={"name": "Eva", "password": PASSWORD}).status_code == 401
    store: Store = client.app.state.rooms.store  # type: ignore[attr-defined]
    stored = store.load_room(room["room"])
    assert stored is not None and stored.seats[0].name is None and stored.seats[0].deleted
    seat = client.get(f"/api/rooms/{room['room']}").json()["seats"][0]
    assert (seat["name"], seat["deleted"]) == (None, True), "the room in memory forgot the name too"
    for lang, words in (("cs", "smazaný hráč"), ("sk", "zmazaný hráč"), ("en", "deleted player")):
        assert words in client.get(f"/r/{room['room']}?lang={lang}").text
    sign_up(TestClient(client.app), "eva")


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(client: TestClient) -> None:
    sign_up(client, "Eva")
    unknown = TestClient(client.app).post("/api/session", json={"name": "Nikdo", "password": PASSWORD})
    wrong = TestClient(client.app).post("/api/session", json={"name": "Eva", "password": "not the password"})
    assert unknown.status_code == wrong.status_code == 401
    assert unknown.json() == wrong.json()
    assert unknown.headers.get("set-cookie") == wrong.headers.get("set-cookie") is None


def test_sign_ins_from_one_address_slow_down_then_are_refused(client: TestClient) -> None:
    sign_up(client, "Eva")
    answers = [
        TestClient(client.app).post("/api/session", json={"name": f"nikdo{n}", "password": PASSWORD}).status_code
        for n in range(21)
    ]
    assert answers[:20] == [401] * 20
    assert answers[20] == 429
    refused = TestClient(client.app).post("/api/session", json={"name": "Eva", "password": PASSWORD})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert refused.json()["code"] == "rate_limited"


def test_an_account_tried_from_many_addresses_slows_down_then_refuses(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'hraj.db'}")
    store.migrate()
    accounts = Accounts(People(store), "secret-0123456789abcdef", Rate(80 / 3600, 20), Hashing())

    async def attempts() -> list[str]:
        await accounts.sign_up("Eva", PASSWORD, None)
        seen = []
        for number in range(100):
            try:
                await accounts.sign_in("eva", "wrong password", f"10.0.{number}.1", None)
            except WrongCredentials:
                seen.append("wrong")
            except TooManyAttempts as error:
                seen.append(f"wait {min(error.retry_after, 60)}")
                with store.engine.begin() as connection:  # the slow-down has passed
                    connection.execute(sign_in_failures.update().values(blocked_until=dt.datetime.now(dt.UTC)))
                if error.retry_after > 600:
                    break
        return seen

    try:
        seen = asyncio.run(attempts())
    finally:
        accounts.hashing.close()
        store.close()
    assert seen[:5] == ["wrong"] * 5
    assert seen[5:7] == ["wait 1", "wrong"], "after five failures the name slows down"
    assert seen[-1] == "wait 60", "after thirty it is refused whatever the address"
    assert seen.count("wrong") == 30


def test_no_token_or_password_is_stored_or_shown_or_logged(
    client: TestClient, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    headers = guest(client)
    body = sign_up(client, "Eva", **headers)
    token = client.cookies[SESSION_COOKIE]
    guest_id = client.cookies.get(GUEST_COOKIE)
    room = solo_room(client, {"X-CSRF-Token": body["csrf"]})
    seat_token = room["token"]
    paths = ("/", "/ucet", "/moje-hry", "/api/me", "/api/my-games", "/api/account/data", f"/r/{room['room']}")
    pages = [client.get(path).text for path in paths]
    bad = client.post("/api/accounts", json={"name": "Petr", "password": "short pwd"})
    client.post(
        "/api/session", json={"name": "Eva", "password": PASSWORD + "!"}, headers={"X-CSRF-Token": body["csrf"]}
    )
    for text in [*pages, bad.text, caplog.text]:
        assert token not in text and PASSWORD not in text and "short pwd" not in text and seat_token not in text
    store: Store = client.app.state.rooms.store  # type: ignore[attr-defined]
    store.engine.dispose()
    database = Path(str(store.engine.url.database))
    stored = b"".join(path.read_bytes() for path in database.parent.glob(database.name + "*"))
    for secret in (token, PASSWORD, seat_token):
        assert secret.encode() not in stored
    assert guest_id is None or guest_id.encode() not in stored
