"""The pages without a browser: languages, rules, missing rooms, replays, the table fragment."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import hraj
from hraj.app.site import create_app
from hraj.core.registry import game_folder
from hraj.server.settings import Settings
from hraj.web import pages
from tests.web.api import new_room, site_client


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with site_client(tmp_path) as test_client:
        yield test_client


def test_the_start_page_is_czech_by_default_and_lists_every_game(client: TestClient) -> None:
    html = client.get("/").text
    assert '<html lang="cs">' in html
    assert "Začít hru" in html
    for name in ("Qwixx", "Trefa", "Vrhcáby", "Kořist"):
        assert name in html


def test_the_chosen_language_is_remembered_in_a_cookie(client: TestClient) -> None:
    response = client.get("/lang/sk?next=/rules/qwixx", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/rules/qwixx"
    assert client.cookies.get("hraj_lang") == "sk"
    assert '<html lang="sk">' in client.get("/").text
    client.get("/lang/en")
    assert "Start the game" in client.get("/").text


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil"])
def test_the_language_switch_only_returns_to_this_site(client: TestClient, target: str) -> None:
    response = client.get(f"/lang/en?next={target}", follow_redirects=False)
    assert response.headers["location"] == "/"


def test_a_missing_room_is_a_readable_page(client: TestClient) -> None:
    response = client.get("/r/nosuchroom")
    assert response.status_code == 404
    assert "Taková místnost neexistuje" in response.text


def test_player_counts_come_from_each_games_own_option_check() -> None:
    assert pages.player_counts("qwixx") == [1, 2, 3, 4, 5]
    assert pages.player_counts("backgammon") == [2]
    assert pages.player_counts("abluxxen") == [2, 3, 4, 5]


def test_the_table_fragment_shows_the_seat_of_the_token(client: TestClient) -> None:
    room = new_room(client, "qwixx", [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}], claim=0)
    mine = client.get(f"/r/{room['room']}/table", headers={"authorization": f"Bearer {room['token']}"}).text
    watching = client.get(f"/r/{room['room']}/table").text
    assert 'data-seat="0"' in mine
    assert 'data-seat=""' in watching
    assert "data-action=" not in watching


def test_the_replay_opens_only_when_the_game_is_over(client: TestClient) -> None:
    room = new_room(client, "qwixx", [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}], claim=0)
    assert client.get(f"/r/{room['room']}/replay").status_code == 409


def test_a_game_of_bots_replays_move_by_move(client: TestClient) -> None:
    room = new_room(client, "qwixx", [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}])
    summary = client.get(f"/api/rooms/{room['room']}").json()
    assert summary["status"] == "over"
    record = client.get(f"/api/rooms/{room['room']}/record").json()
    moves = sum(1 for kind, _, _ in record["events"] if kind == "move")
    last = client.get(f"/r/{room['room']}/replay?lang=en").text
    assert f"The end: {moves} moves played" in last
    assert "Final scores" in last and "The end of the game" in last
    first = client.get(f"/r/{room['room']}/replay?move=1&lang=en").text
    assert f"Move 1 of {moves}" in first
    assert "Final scores" not in first
    # every move is in the numbered list, linked to its own position
    assert all(f'href="?move={number}"' in first for number in range(1, moves + 2))


def test_rules_pages_render_markdown_without_raw_html(client: TestClient, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(pages, "rules_path", lambda game_id, lang: tmp_path / f"{game_id}.{lang}.md")
    (tmp_path / "qwixx.cs.md").write_text("# Qwixx\n\n*Křížky* <script>alert(1)</script>\n", encoding="utf-8")
    html = client.get("/rules/qwixx").text
    assert "<h1>Qwixx</h1>" in html
    assert "<em>Křížky</em>" in html
    assert "<script>alert" not in html


def test_a_rules_page_not_yet_written_says_so(client: TestClient, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(pages, "rules_path", lambda game_id, lang: tmp_path / f"{game_id}.{lang}.md")
    (tmp_path / "trefa.en.md").write_text("# Trefa\n", encoding="utf-8")
    html = client.get("/rules/trefa").text
    assert "zatím v tomto jazyce nejsou napsaná" in html
    assert 'href="/rules/trefa?lang=en"' in html


def test_the_shipped_rules_pages_render_in_every_language(client: TestClient) -> None:
    for game in hraj.GAMES:
        for path in sorted((game_folder(game) / "rules").glob("*.md")):
            lang = path.stem
            response = client.get(f"/rules/{game}?lang={lang}")
            assert response.status_code == 200
            assert "<h1>" in response.text or "<h2>" in response.text


def test_a_finished_backgammon_game_downloads_as_mat(client: TestClient) -> None:
    room = new_room(client, "backgammon", [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])
    replay = client.get(f"/r/{room['room']}/replay?lang=en").text
    if "mat" not in pages._downloads("backgammon"):
        assert ".mat" not in replay
        return
    assert f'href="/r/{room["room"]}/record.mat"' in replay
    response = client.get(f"/r/{room['room']}/record.mat")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    assert "Game 1" in response.text


def test_a_number_option_form_takes_its_range_from_the_rules() -> None:
    """The match length form once stopped at 25 while the rules allow 32,767."""
    backgammon = next(game for game in pages._games("en") if game["id"] == "backgammon")
    match_length = next(form for form in backgammon["options"] if form["name"] == "match_length")
    check = hraj.core.game_class("backgammon").options_spec["match_length"].check
    assert (match_length["min"], match_length["max"]) == check.bounds  # type: ignore[attr-defined]
    assert match_length["max"] > 25


# --- error pages ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "title", "text"),
    [
        ("cs", "Nenalezeno", "Na této adrese nic není."),
        ("sk", "Nenájdené", "Na tejto adrese nič nie je."),
        ("en", "Not found", "There is nothing at this address."),
    ],
)
def test_an_unknown_address_is_a_page_in_the_pages_language(
    client: TestClient, lang: str, title: str, text: str
) -> None:
    client.get(f"/lang/{lang}")
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert f'<html lang="{lang}">' in response.text
    assert f"<h1>{title}</h1>" in response.text and text in response.text


def test_the_query_chooses_the_language_of_an_error_page_too(client: TestClient) -> None:
    response = client.get("/static/nothing.js?lang=sk")
    assert response.status_code == 404
    assert "Na tejto adrese nič nie je." in response.text


def test_a_page_address_used_the_wrong_way_is_a_czech_page(client: TestClient) -> None:
    response = client.post("/rules/qwixx", content=b"")
    assert response.status_code == 405
    assert "Tuto stránku takto otevřít nelze." in response.text


def test_a_failing_page_is_a_page_and_says_nothing_more(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'hraj.db'}", secret="pages-test-secret-0123456789")
    app = create_app(settings)

    @app.get("/broken")
    async def broken() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as failing:
        response = failing.get("/broken?lang=cs")
    assert response.status_code == 500
    assert "Něco se nepovedlo" in response.text and "a bug" not in response.text


def test_too_many_requests_for_pages_is_a_page(tmp_path: Path) -> None:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'hraj.db'}",
        secret="pages-test-secret-0123456789",
        http_rate=0.001,
        http_burst=1,
    )
    with TestClient(create_app(settings)) as limited:
        limited.get("/rules/qwixx")
        response = limited.get("/rules/qwixx")
    assert response.status_code == 429
    assert "Příliš mnoho požadavků" in response.text


def test_the_api_keeps_json_with_a_translated_text(client: TestClient) -> None:
    english = client.get("/api/rooms/nosuchroom")
    assert english.status_code == 404
    assert english.json()["code"] == "not_found" and "text" not in english.json()
    client.get("/lang/cs")
    czech = client.get("/api/no/such/endpoint")
    assert czech.status_code == 404
    assert czech.headers["content-type"].startswith("application/json")
    assert czech.json()["text"] == "Na adrese /api/no/such/endpoint nic není."
    assert client.get("/api/rooms/nosuchroom?lang=sk").json()["text"].startswith("Miestnosť")


# --- the player's gender in the log -----------------------------------------------------------


@pytest.mark.parametrize(
    ("gender", "line"),
    [("f", "Eva hodila"), ("m", "Eva hodil"), (None, "Eva – hozeno:")],
)
def test_the_log_speaks_of_a_player_in_the_gender_given_with_the_name(
    client: TestClient, gender: str | None, line: str
) -> None:
    seat: dict[str, str] = {"kind": "person", "name": "Eva", **({"gender": gender} if gender else {})}
    room = new_room(client, "qwixx", [seat, {"kind": "bot", "bot": "greedy"}], claim=0, options={"first": 0})
    summary = client.get(f"/api/rooms/{room['room']}").json()
    assert summary["seats"][0]["gender"] == gender
    page = client.get(f"/r/{room['room']}").text
    assert line in page
    assert "Bot (Začátečník)" in page  # the bot by the level the menus show


def test_a_friend_joining_gives_a_gender_too(client: TestClient) -> None:
    room = new_room(client, "qwixx", [{"kind": "bot", "bot": "greedy"}, {"kind": "person"}], options={"first": 1})
    claimed = client.post(
        f"/api/rooms/{room['room']}/claim", json={"invite": room["invite"], "name": "Jana", "gender": "f"}
    )
    assert claimed.status_code == 200, claimed.text
    assert client.get(f"/api/rooms/{room['room']}").json()["seats"][1]["gender"] == "f"
    assert "Jana hodila" in client.get(f"/r/{room['room']}").text
    wrong = client.post(f"/api/rooms/{room['room']}/claim", json={"invite": room["invite"], "gender": "x"})
    assert wrong.status_code == 400


def test_the_start_page_asks_for_the_gender_next_to_the_name(client: TestClient) -> None:
    html = client.get("/").text
    assert 'class="seat-gender"' in html
    assert '<option value="f">ona</option>' in html


def test_the_table_of_an_earlier_version_is_the_seats_view_then_without_actions(client: TestClient) -> None:
    room = new_room(client, "qwixx", [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}], claim=0)
    auth = {"authorization": f"Bearer {room['token']}"}
    now = client.get(f"/r/{room['room']}/table?lang=en", headers=auth).text
    found = re.search(r'data-version="(\d+)"', now)
    assert found is not None
    version = int(found.group(1))
    assert version >= 2 and "data-action=" in now
    earlier = client.get(f"/r/{room['room']}/table?lang=en&at={version - 1}", headers=auth).text
    assert f'data-version="{version - 1}"' in earlier
    assert 'data-seat="0"' in earlier
    assert "data-action=" not in earlier and 'data-my-turn="0"' in earlier
    # The start of the game, a spectator's eyes, and versions that are not in the past.
    assert 'data-version="0"' in client.get(f"/r/{room['room']}/table?at=0").text
    for at in (str(version), str(version + 5), "-1", "x"):
        again = client.get(f"/r/{room['room']}/table?lang=en&at={at}", headers=auth).text
        assert f'data-version="{version}"' in again


def test_the_room_page_tells_the_browser_how_long_to_show_each_move(client: TestClient) -> None:
    room = new_room(client, "qwixx", [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}], claim=0)
    page = client.get(f"/r/{room['room']}").text
    assert 'data-step-ms="550"' in page
    assert "/static/board.js" in page
