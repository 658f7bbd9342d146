"""Helpers that play a room through clicks, as a person would, in a Playwright page."""

from __future__ import annotations

import random
from collections.abc import Callable

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

#: How long to wait for one answer of the server (ms); generous for a busy machine.
WAIT_MS = 15_000
#: What changes whenever the table is re-rendered with something new.
SHAPE = "t => t.dataset.version + '/' + t.dataset.myTurn + '/' + t.innerHTML.length"
#: Moves in a row that leave the table as it was before a test gives up.
STUCK_LIMIT = 10


def table_version(page: Page) -> int:
    return int(page.locator("#table .table").get_attribute("data-version") or -1)


def is_over(page: Page) -> bool:
    return page.locator("#table .table").get_attribute("data-over") == "1"


def wait_for_turn_or_end(page: Page) -> None:
    page.wait_for_selector('#table .table[data-my-turn="1"], #table .table[data-over="1"]', timeout=WAIT_MS)


def act(page: Page, selector: str, index: int = 0) -> bool:
    """Click the `index`-th thing that `selector` finds and wait for the table to change.

    False when it was gone already (the table was just re-rendered); the caller looks again.
    """
    before = page.locator("#table .table").evaluate(SHAPE)
    try:
        page.locator(selector).nth(index).click(timeout=3000)
    except PlaywrightTimeout:
        return False
    try:
        page.wait_for_function(
            f"b => {{ const t = document.querySelector('#table .table'); return t && ({SHAPE})(t) !== b; }}",
            arg=before,
            timeout=WAIT_MS,
        )
    except PlaywrightTimeout:
        return False
    return True


def new_room(page: Page, url: str, game: str, seats: list[str], **options: str) -> str:
    """Create a room on the start page; `seats` are kinds: me, here, friend, bot:NAME."""
    page.goto(url + "/")
    page.locator(f'input[name=game][value="{game}"]').check(force=True)
    setup = page.locator(f'.game-setup[data-game="{game}"]')
    players = setup.locator("[data-option=players]")
    if players.count():
        players.select_option(str(len(seats)))
    for name, value in options.items():
        setup.locator(f"[data-option={name}]").select_option(value)
    rows = setup.locator(".seat-row")
    expect(rows).to_have_count(len(seats))
    for index, seat in enumerate(seats):
        kind, _, bot = seat.partition(":")
        rows.nth(index).locator(".seat-kind").select_option(kind)
        if bot:
            rows.nth(index).locator(".seat-bot").select_option(bot)
    page.locator("#start-button").click()
    page.wait_for_url("**/r/*")
    page.wait_for_selector("#connection[data-state=open]", timeout=WAIT_MS)
    return page.url.rsplit("/r/", 1)[1].split("?")[0]


def play_to_end(pages: list[Page], move: Callable[[Page, random.Random], None], seed: int, limit: int = 3000) -> int:
    """Let every page move whenever it is on turn, until the game is over; the number of moves."""
    rng = random.Random(seed)
    moves = 0
    idle_ms = 0
    stuck = 0
    while not is_over(pages[0]):
        assert moves < limit, "the game did not end"
        acted = False
        for page in pages:
            if page.locator('#table .table[data-my-turn="1"]').count() and not is_over(page):
                before = page.locator("#table .table").evaluate(SHAPE)
                move(page, rng)
                moves += 1
                acted = True
                changed = page.locator("#table .table").evaluate(SHAPE) != before
                stuck = 0 if changed else stuck + 1
                assert stuck < STUCK_LIMIT, "clicks change nothing: " + page.locator("#table .status").inner_text()
        if acted:
            idle_ms = 0
        else:
            assert idle_ms < WAIT_MS, "nobody could move: " + pages[0].locator("#table .status").inner_text()
            pages[0].wait_for_timeout(50)
            idle_ms += 50
    for page in pages:
        page.wait_for_selector('#table .table[data-over="1"]', timeout=WAIT_MS)
    return moves
