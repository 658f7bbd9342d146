"""Nothing the terminal or the browser shows a seat tells it more than the game lets it read.

Seeded games of every game and variant are played with one person at the table (in
another seat in each variant) and bots elsewhere, and watched by a spectator. After every step the
text shown so far is held against the events that seat may read (`events_for`): a line
that describes an event may appear no more often than the readable events give it. A
surface that printed the raw record (every card dealt to every hand, a Qwixx answer
before all have answered) fails here.
"""

from __future__ import annotations

import functools
import html
import io
import random
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rich.console import Console
from rich.markup import escape

import hraj
from hraj.app.site import create_app
from hraj.core import game_class
from hraj.core.bot import make_bot
from hraj.core.game import State
from hraj.core.record import Event
from hraj.server.settings import Settings
from hraj.tui.play import SeatPlayer, TerminalTable
from hraj.web.render import log_lines, seat_names

CASES = [(game_id, options) for game_id in hraj.GAMES for options in game_class(game_id).conformance_options()]


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    game_id, options = case
    return game_id + "".join(f"-{key}-{value}" for key, value in sorted(options.items()))


@functools.cache
def plain(markup: str) -> str:
    console = Console(file=io.StringIO(), width=400, color_system=None, force_terminal=False)
    console.print(markup)
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    return text.strip()


def overshown(shown: Counter[str], every: list[str], readable: list[str]) -> list[str]:
    """Lines describing an event that appear more often than the readable events allow."""
    allowed = Counter(readable)
    return [line for line in set(every) if shown[line] > allowed[line]]


# --- the terminal -------------------------------------------------------------------------


class WatchedTable(TerminalTable):
    """A terminal table that, after every step, checks what it has printed so far."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.checks = 0
        self.printed: Counter[str] = Counter()
        self.read_up_to = 0

    def event_texts(self, events: list[Event]) -> list[str]:
        """The events as the table prints them, as plain text (names are never markup)."""
        return [escape(line.plain) for line in self.event_lines(events) if line is not None]

    def show_new_events(self) -> None:
        super().show_new_events()
        state = self.game_state
        if state.is_over:  # everything is revealed at the end
            return
        text: str = self.console.file.getvalue()  # type: ignore[attr-defined]
        self.printed.update(line.strip() for line in text[self.read_up_to :].splitlines())
        self.read_up_to = len(text)
        printed = self.printed
        every = [plain(line) for line in self.event_texts(state.events())]
        readable = [plain(line) for line in self.event_texts(state.events_for(self.viewer))]
        assert not overshown(printed, every, readable), f"seat {self.viewer} was shown a secret"
        self.checks += 1


def play_in_terminal(game_id: str, options: dict[str, Any], person: int | None, seed: int) -> WatchedTable:
    game = hraj.game(game_id, **options)
    players = [
        SeatPlayer(f"P{seat}", None if seat == person else make_bot(game_id, "random", seed + seat))
        for seat in range(game.players)
    ]
    rng = random.Random(seed)
    console = Console(file=io.StringIO(), width=200, color_system=None, force_terminal=False)
    table: WatchedTable

    def ask(prompt: str) -> str:
        if not prompt.endswith("> "):
            return ""  # "make sure nobody else looks"
        state = table.game_state
        return str(rng.choice(state.legal_actions(state.to_act[0])))

    table = WatchedTable(game, players, lang="en", seed=seed, console=console, ask=ask)
    table.run()
    return table


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_terminal_prints_only_what_the_seat_may_read(case: tuple[str, dict[str, Any]]) -> None:
    game_id, options = case
    players = hraj.game(game_id, **options).players
    person = CASES.index(case) % players  # the person sits in another seat in each variant
    for seat in (person, None):
        table = play_in_terminal(game_id, options, seat, seed=11 + CASES.index(case))
        assert table.game_state.is_over
        assert table.checks > 0


def test_the_terminal_shows_a_person_no_card_of_a_bots_hand() -> None:
    """`hraj play abluxxen --seats me,greedy,greedy`: only the person's own 13 cards are dealt on screen."""
    table = play_in_terminal("abluxxen", {"players": 3, "first": 0}, person=0, seed=5)
    printed = table.console.file.getvalue()  # type: ignore[attr-defined]
    deal = printed.split("Your choices")[0]  # up to the first question to the person
    cards = deal.count(" came from the pile")  # "A 7 came from the pile", "A joker came from the pile"
    assert cards == 13 + 6  # the own hand and the display


# --- the browser ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database: Path = tmp_path_factory.mktemp("secrecy") / "hraj.db"
    settings = Settings(
        database_url=f"sqlite:///{database}",
        secret="secrecy-test-secret-0123456789",
        http_rate=100_000.0,
        http_burst=1_000_000,
        room_rate=100_000.0,  # one address opens every room here: no limit may refuse one
        room_burst=1_000_000,
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def shown_log(page: str) -> Counter[str]:
    """The lines of the table's log, without the move numbers in front of them."""
    log = page.split('<ul class="log', 1)[1].split("</ul>", 1)[0]
    lines = (
        re.sub(r'<span class="move-no">.*?</span>', "", line) for line in re.findall(r"<li[^>]*>(.*?)</li>", log, re.S)
    )
    return Counter(html.unescape(line).strip() for line in lines)


def snapshot(client: TestClient, room: str) -> State[Any, Any]:
    """A copy of the room's state, taken inside the room's actor (bots move meanwhile)."""
    live = client.app.state.rooms.rooms[room]  # type: ignore[attr-defined]

    async def job() -> State[Any, Any]:
        return live.state.copy()  # type: ignore[no-any-return]

    copied: State[Any, Any] = client.portal.call(live.call, job)  # type: ignore[union-attr]
    return copied


def check_tables(client: TestClient, room: str, token: str) -> None:
    """The log of the seat's table and of a spectator's holds no line it may not read.

    The pages come first and the state after: what a seat may read only grows, so a
    bot's move in between cannot make a fair page look like a leak."""
    pages = {
        0: client.get(f"/r/{room}/table?lang=en", headers={"Authorization": f"Bearer {token}"}).text,
        None: client.get(f"/r/{room}/table?lang=en").text,
    }
    state = snapshot(client, room)
    names = seat_names(client.get(f"/api/rooms/{room}").json()["seats"], "en")
    game_id = state.game.id
    every = [line for event in state.events() for line in log_lines(game_id, [event], names, "en")]
    for seat, page in pages.items():
        readable = [line for e in state.events_for(seat) for line in log_lines(game_id, [e], names, "en")]
        shown = shown_log(page)
        assert shown, f"seat {seat}'s table shows no log to check"
        assert not overshown(shown, every, readable), f"seat {seat} was shown a secret"


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_browser_table_shows_only_what_the_seat_may_read(
    client: TestClient, case: tuple[str, dict[str, Any]]
) -> None:
    game_id, options = case
    players = hraj.game(game_id, **options).players
    seats = [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    response = client.post("/api/rooms", json={"game": game_id, "options": options, "seats": seats, "claim": 0})
    assert response.status_code == 201, response.text
    body = response.json()
    room, auth = body["room"], {"Authorization": f"Bearer {body['token']}"}
    rng = random.Random(7)
    moves = 0
    # A random 5-point backgammon match runs to hundreds of events, and each check reads
    # two pages and the log so far: half a minute alone, minutes on a loaded machine.
    deadline = time.monotonic() + 360
    while time.monotonic() < deadline:
        message = client.get(f"/api/rooms/{room}/view", headers=auth).json()
        if message["status"] == "over":
            break
        if not message["view"]["legal"]:
            time.sleep(0.005)  # the bots are still thinking
            continue
        check_tables(client, room, body["token"])
        answer = client.post(
            f"/api/rooms/{room}/actions", json={"action": rng.choice(message["view"]["legal"])}, headers=auth
        )
        assert answer.status_code == 200, answer.text
        moves += 1
    assert message["status"] == "over" and moves > 0
