"""Czech and Slovak pages speak Czech and Slovak: no English word on any page a player
sees (start page, rules, tables of every game at the start, mid-game and at the end,
replays, error pages), checked on the visible text, never on attributes or scripts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import hraj
from hraj.app.site import create_app
from hraj.server.settings import Settings
from tests.server.helpers import until_over

#: Common English words of a game's interface that are no Czech or Slovak words (so
#: "a", "by", "to", "do", "on", "no", "her", "list", "bar" and "bot" are left out: they are both).
ENGLISH_WORDS = """
    the and or of with from for at in is are was were has have had this that these those it its
    you your yours my me we our they their he she his them who what which when where why how
    move moves moved roll rolls rolled player players game games resign resigned resigns score scores
    pass passed passes take taken takes took double doubled doubles draw draws drew drawn card cards
    point points turn turns wins win won winner winners dice die cross crossed crosses white red yellow
    green blue black play plays played start starts started new join watch replay rules back next
    previous hand display pile shadow offer capture captured captures forced chance single accept
    accepted decline declined drop dropped not found error page room seat seats name waiting over
    your yes all none nothing every each last first second step steps row rows field fields sheet
    write wrote written stop stopped reroll rerolled misthrow penalty lock locked pips checker checkers
    opponent board home borne cube match
"""
ENGLISH = set(ENGLISH_WORDS.split())
#: Proper names and notation that every language writes the same way.
ALLOWED = {"qwixx", "trefa", "abluxxen", "hraj", "expectimax", "pubeval", "jacoby", "crawford", "english", "off"}
NAMES = {"eva", "petr"}
#: Names of other products, taken out before the words are checked.
PRODUCTS = ("Big Points", "Qwixx gemixxt")
#: A word: letters of any alphabet (so "použít" is one word, never "pou" and "t").
WORD = re.compile(r"[^\W\d_]+")


#: Elements whose text is not read as words: scripts, styles, and notation (the
#: terminal's commands and options in the rules pages, `24/18`, `cube=yes`).
SKIPPED = ("script", "style", "code", "kbd", "pre")


class VisibleText(HTMLParser):
    """The text a reader sees: element text, outside scripts, styles and notation."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self.skipping += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def english_words(html: str) -> set[str]:
    parser = VisibleText()
    parser.feed(html)
    text = " ".join(parser.parts)
    for product in PRODUCTS:
        text = text.replace(product, " ")
    words = {word.lower() for word in WORD.findall(text) if word.isascii()}
    return {word for word in words if word in ENGLISH and word not in ALLOWED | NAMES}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database: Path = tmp_path_factory.mktemp("language") / "hraj.db"
    settings = Settings(database_url=f"sqlite:///{database}", secret="language-test-secret-0123456789", bot_pace=0.0)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


#: A game of each kind: named people of both genders and one without, and bots.
ROOMS = {
    "qwixx": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
    "trefa": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}],
    "backgammon": [{"kind": "bot", "bot": "pubeval"}, {"kind": "bot", "bot": "pubeval"}],
    "abluxxen": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}],
}


@pytest.fixture(scope="module")
def finished(client: TestClient) -> dict[str, tuple[str, int]]:
    """A finished all-bot room of every game: its id and its number of events."""
    rooms = {}
    for game, seats in ROOMS.items():
        options = {"players": len(seats)} if game in ("qwixx", "trefa", "abluxxen") else {}
        response = client.post("/api/rooms", json={"game": game, "seats": seats, "options": options})
        assert response.status_code == 201, response.text
        room = response.json()["room"]
        summary = until_over(client, room, timeout=120)
        rooms[game] = (room, int(summary["version"]))
    return rooms


@pytest.fixture(scope="module")
def started(client: TestClient) -> dict[str, tuple[str, str]]:
    """A room of every game with a person named Eva (she) in seat 0, at its first decision."""
    rooms = {}
    for game, seats in ROOMS.items():
        people = [{"kind": "person", "name": "Eva", "gender": "f"}, *seats[1:]]
        options = {"players": len(seats)} if game in ("qwixx", "trefa", "abluxxen") else {}
        response = client.post("/api/rooms", json={"game": game, "seats": people, "options": options, "claim": 0})
        assert response.status_code == 201, response.text
        body = response.json()
        rooms[game] = (body["room"], body["token"])
    return rooms


def pages(client: TestClient, finished: dict[str, tuple[str, int]], started: dict[str, tuple[str, str]]) -> list[str]:
    paths = ["/", "/no/such/page", "/r/nosuchroom", *(f"/rules/{game}" for game in hraj.GAMES)]
    for room, events in finished.values():
        paths += [f"/r/{room}", *(f"/r/{room}/replay?move={move}" for move in (1, 3, events // 4, events))]
    for room, _ in started.values():
        paths.append(f"/r/{room}")
    return paths


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_no_english_word_on_any_page(
    client: TestClient, finished: dict[str, tuple[str, int]], started: dict[str, tuple[str, str]], lang: str
) -> None:
    found: dict[str, set[str]] = {}
    for path in pages(client, finished, started):
        separator = "&" if "?" in path else "?"
        html = client.get(f"{path}{separator}lang={lang}").text
        words = english_words(html)
        if words:
            found[path] = words
    for room, token in started.values():  # the table as its seated player sees it, with the buttons
        html = client.get(f"/r/{room}/table?lang={lang}", headers={"authorization": f"Bearer {token}"}).text
        words = english_words(html)
        if words:
            found[f"/r/{room}/table (seat 0)"] = words
    assert found == {}, "\n".join(f"{path}: {sorted(words)}" for path, words in found.items())


def test_the_check_finds_english_in_visible_text_only() -> None:
    assert english_words("<p>Eva rolled the dice</p>") == {"rolled", "the", "dice"}
    assert english_words('<p title="the move">Eva hodila</p><script>move()</script>') == set()
