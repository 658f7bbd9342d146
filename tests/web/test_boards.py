"""The boards in Chromium: every game played to the end on a laptop and a phone with each
action in the first screen, the last move marked and animated, bot moves shown one by
one, the turn in the tab's title, the keyboard, and one fetch of the table on load.

Screenshots are kept in `test-artifacts/boards/` (ignored by git)."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, WebSocket, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web import movers
from tests.web.conftest import ARTIFACTS
from tests.web.movers import Hand
from tests.web.play import WAIT_MS, act, is_over, new_room, play_to_end, wait_for_turn_or_end

LAPTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 360, "height": 740}
SIZES = {"laptop": LAPTOP, "phone": PHONE}

#: Where the element is on the page and how big the first screen is.
_BOX = """el => { const r = el.getBoundingClientRect();
  return {left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX, bottom: r.bottom + scrollY,
          width: r.width, height: r.height, screenW: innerWidth, screenH: innerHeight}; }"""


@pytest.fixture
def shots(artifacts: Path) -> Path:
    folder = artifacts / "boards"
    folder.mkdir(exist_ok=True)
    return folder


#: Where the element is once its animations are over, and whether a tap on its middle
#: reaches it (rather than something drawn over it). An animation cut short by a new
#: table ends the wait as well.
_AT_REST = """async el => {
  await Promise.all(el.getAnimations({subtree: true}).map(a => a.finished.catch(() => null)));
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX, bottom: r.bottom + scrollY,
          width: r.width, height: r.height, screenW: innerWidth, screenH: innerHeight,
          reached: hit !== null && (el === hit || el.contains(hit)), attached: el.isConnected}; }"""


def first_screen(page: Page, selector: str, index: int = 0, timeout: float | None = None) -> None:
    """The element lies within the first screen of the page, no scroll reaches it, and
    nothing covers it for good. Measured at rest: an arriving card or checker is briefly drawn
    larger; a table that a newer one replaced meanwhile is measured again in the newer one."""
    box = page.locator(selector).nth(index).evaluate(_AT_REST, timeout=timeout)
    for _ in range(5):
        if box["attached"] and box["reached"]:
            break
        # A newer table, or a neighbour's arrival drawn large for a moment: look again.
        page.wait_for_timeout(150)
        box = page.locator(selector).nth(index).evaluate(_AT_REST, timeout=timeout)
    inside = box["left"] >= 0 and box["top"] >= 0
    inside = inside and box["right"] <= box["screenW"] + 0.5 and box["bottom"] <= box["screenH"] + 0.5
    if not inside or not box["reached"]:
        page.screenshot(path=str(ARTIFACTS / "boards" / "not-in-the-first-screen.png"), full_page=True)
    assert inside, (selector, box)
    assert box["reached"], (selector, "covered by another element", box)


def press(page: Page, selector: str, index: int = 0) -> bool:
    """Click an action's element after checking that it is in the first screen.

    False when it is gone before it could be measured (a newer table without it came in
    between), as `act` answers; the caller looks again, and `play_to_end` fails a game whose
    clicks keep changing nothing."""
    if page.locator(selector).count() <= index:
        return False
    try:
        first_screen(page, selector, index, timeout=3000)
    except PlaywrightTimeout:
        if page.locator(selector).count() > index:
            raise
        return False
    return act(page, selector, index)


def press_a_cell_big_enough(page: Page, selector: str, index: int = 0) -> bool:
    """`press`, and a Qwixx cell on a phone is at least 40 px wide to tap."""
    if ".cell" in selector and page.locator(selector).count() > index:
        box = page.locator(selector).nth(index).evaluate(_BOX)
        assert box["width"] >= 40 or box["screenW"] > 600, box
    return press(page, selector, index)


#: The movers of `movers.py`, clicking only what is in the first screen and uncovered.
BOARD = Hand(press=press_a_cell_big_enough, touch=first_screen)
qwixx_move = partial(movers.qwixx_move, hand=BOARD)
trefa_move = partial(movers.trefa_move, hand=BOARD)
backgammon_move = partial(movers.backgammon_move, hand=BOARD)
abluxxen_move = partial(movers.abluxxen_move, hand=BOARD)


MOVERS: dict[str, tuple[Callable[[Page, random.Random], None], list[str]]] = {
    "qwixx": (qwixx_move, ["me", "bot:greedy"]),
    "trefa": (trefa_move, ["me", "bot:greedy"]),
    "backgammon": (backgammon_move, ["me", "bot:random"]),
    "abluxxen": (abluxxen_move, ["me", "bot:greedy"]),
}


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("game", sorted(MOVERS))
def test_each_game_to_the_end_with_every_action_in_the_first_screen(
    browser: Browser, server_url: str, shots: Path, game: str, size: str
) -> None:
    move, seats = MOVERS[game]
    page = browser.new_page(viewport=SIZES[size])
    new_room(page, server_url, game, seats)
    wait_for_turn_or_end(page)
    moves = play_to_end([page], move, seed=len(game) + len(size))
    assert moves >= 1
    page.screenshot(path=str(shots / f"{game}-{size}-end.png"), full_page=True)
    assert page.evaluate("scrollY") == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    # The end: the last move is still marked, and no badge says whose turn it is.
    expect(page.locator("#table .results li")).to_have_count(2)
    assert page.locator("#table .changed").count() >= 1
    expect(page.locator("#table .badge, #table .turn-mark, #table .bg-player.on-turn, #table .to-act")).to_have_count(0)
    page.close()


# --- the last move, bot moves one by one, the turn alert ---------------------------------------

#: Records every table the page shows: its version, whether it is my turn, the title,
#: how many marks and running animations it has.
WATCH_TABLES = """() => {
  window.shown = [];
  const box = document.getElementById("table");
  new MutationObserver(() => {
    const t = box.querySelector(".table");
    if (!t) return;
    window.shown.push({version: Number(t.dataset.version), mine: t.dataset.myTurn === "1",
      title: document.title, marks: t.querySelectorAll(".changed").length,
      animations: document.getAnimations().length, at: performance.now()});
  }).observe(box, {childList: true});
}"""


def watched_page(browser: Browser, step_ms: int, *, less_motion: bool = False) -> tuple[BrowserContext, Page]:
    """A laptop-sized page whose browser shows each move for `step_ms` (its own choice)."""
    ctx = browser.new_context(viewport=LAPTOP, reduced_motion="reduce" if less_motion else "no-preference")
    ctx.add_init_script(f"localStorage.setItem('hraj.stepMs', '{step_ms}');")
    return ctx, ctx.new_page()


def test_bot_moves_are_shown_one_by_one_marked_and_animated(browser: Browser, server_url: str, shots: Path) -> None:
    ctx, page = watched_page(browser, 300)
    announced: list[int] = []

    def listen(socket: WebSocket) -> None:
        def frame(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "state":
                announced.append(message["version"])

        socket.on("framereceived", frame)

    page.on("websocket", listen)
    new_room(page, server_url, "trefa", ["me", "bot:greedy", "bot:greedy"])
    page.evaluate(WATCH_TABLES)
    rng = random.Random(3)
    wait_for_turn_or_end(page)
    start = table_version(page)
    for _ in range(3):
        wait_for_turn_or_end(page)
        move_and_wait(page, lambda: trefa_move(page, rng))
    wait_for_turn_or_end(page)
    page.screenshot(path=str(shots / "trefa-bots-stepped.png"))
    shown = page.evaluate("window.shown")
    versions = [s["version"] for s in shown]
    assert versions == sorted(versions)
    # Every version the server announced was on screen on its own, for about the pause.
    later = {version for version in announced if start < version <= versions[-1]}
    assert len(later) >= 5
    assert len(later & set(versions)) >= 0.9 * len(later), (sorted(later), versions)
    pauses = [b["at"] - a["at"] for a, b in itertools.pairwise(shown) if b["version"] > a["version"]]
    assert max(pauses) >= 250
    # Each step marks what changed, and the change arrives animated.
    stepped = [s for s in shown if not s["mine"]]
    assert stepped and all(s["marks"] >= 1 for s in stepped)
    assert max(s["animations"] for s in shown) >= 1
    # The tab's title says "your turn" exactly while it is.
    for s in shown:
        assert s["title"].startswith("● Na tahu") == s["mine"], s
    assert page.title().startswith("● Na tahu – Trefa")
    ctx.close()


def table_version(page: Page) -> int:
    return int(page.locator("#table .table").get_attribute("data-version") or -1)


def move_and_wait(page: Page, move: Callable[[], None]) -> None:
    """Make a move and wait until the table shows a later version: on a busy machine the
    old table, still saying "your turn", would otherwise take the next move too."""
    before = table_version(page)
    for _ in range(3):
        move()
        try:
            page.wait_for_function(
                f"() => Number(document.querySelector('#table .table')?.dataset.version) > {before}",
                timeout=WAIT_MS,
            )
            return
        except PlaywrightTimeout:
            wait_for_turn_or_end(page)  # the click missed a re-rendered table: move again
    raise AssertionError(f"the table stayed at version {before} after three moves")


def test_less_motion_keeps_the_marks_without_animations(browser: Browser, server_url: str) -> None:
    ctx, page = watched_page(browser, 0, less_motion=True)
    new_room(page, server_url, "qwixx", ["me", "bot:greedy"])
    page.evaluate(WATCH_TABLES)
    rng = random.Random(4)
    for _ in range(3):
        wait_for_turn_or_end(page)
        qwixx_move(page, rng)
    wait_for_turn_or_end(page)
    shown = page.evaluate("window.shown")
    assert any(s["marks"] for s in shown)
    assert all(s["animations"] == 0 for s in shown)
    ctx.close()


def test_a_sound_on_your_turn_only_when_chosen(browser: Browser, server_url: str) -> None:
    ctx, page = watched_page(browser, 0)
    new_room(page, server_url, "qwixx", ["me", "bot:greedy"])
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    rng = random.Random(5)
    for _ in range(2):
        wait_for_turn_or_end(page)
        qwixx_move(page, rng)
    wait_for_turn_or_end(page)
    assert page.evaluate("document.body.dataset.turnSounds") is None  # off by default
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('hraj.sound')") == "on"
    sounds = int(page.evaluate("document.body.dataset.turnSounds"))  # the toggle plays a sample
    # Back to the start of a turn: a chime when it becomes mine again.
    for _ in range(4):
        before = page.evaluate("Number(document.body.dataset.turnSounds)")
        wait_for_turn_or_end(page)
        qwixx_move(page, rng)
        wait_for_turn_or_end(page)
        if page.evaluate("Number(document.body.dataset.turnSounds)") > before:
            break
    assert int(page.evaluate("document.body.dataset.turnSounds")) > sounds
    page.reload()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    ctx.close()


# --- one fetch on load ----------------------------------------------------------------------


def test_the_table_is_fetched_once_on_load(browser: Browser, server_url: str) -> None:
    page = browser.new_page(viewport=LAPTOP)
    room = new_room(page, server_url, "qwixx", ["me", "bot:greedy"])
    wait_for_turn_or_end(page)
    # Wait until the bot has answered the white sum: nothing moves until I do.
    page.wait_for_selector('#table .table[data-to-act="0"][data-my-turn="1"]')
    page.wait_for_timeout(500)
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url) if "/table" in request.url else None)
    page.reload()
    page.wait_for_selector('#table .table[data-seat="0"][data-my-turn="1"]')
    page.wait_for_timeout(1000)
    assert len(fetched) == 1, fetched
    # A spectator's page already holds its table: no fetch at all.
    watcher = browser.new_page(viewport=LAPTOP)
    seen: list[str] = []
    watcher.on("request", lambda request: seen.append(request.url) if "/table" in request.url else None)
    watcher.goto(f"{server_url}/r/{room}")
    watcher.wait_for_selector("#connection[data-state=open]")
    watcher.wait_for_timeout(1000)
    assert seen == []
    page.close()
    watcher.close()


# --- backgammon on a laptop and a phone --------------------------------------------------------


until_a_checker_can_move = partial(movers.until_a_checker_can_move, hand=BOARD)


BACKGAMMON_SIZES: list[ViewportSize] = [LAPTOP, {"width": 1280, "height": 900}, PHONE]


@pytest.mark.parametrize("size", BACKGAMMON_SIZES, ids=["1366x768", "1280x900", "360x740"])
def test_backgammon_dice_and_confirm_are_on_the_first_screen(
    browser: Browser, server_url: str, shots: Path, size: ViewportSize
) -> None:
    page = browser.new_page(viewport=size)
    new_room(page, server_url, "backgammon", ["me", "bot:random"])
    rng = random.Random(6)
    until_a_checker_can_move(page, rng)
    first_screen(page, "#table .dice-row")
    first_screen(page, "#table svg.board")
    # As big as the first screen lets it be: never an SVG's default 300 px beside the controls.
    width = page.locator("#table svg.board").evaluate("e => e.getBoundingClientRect().width")
    assert width >= min(size["width"] - 24, 0.8 * min(720, (size["height"] - 216) * 312 / 262)), width
    while not page.locator("#table .bg-controls .confirm").count():
        backgammon_move(page, rng)
    first_screen(page, "#table .bg-controls .confirm")
    first_screen(page, "#table .dice-row")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.screenshot(path=str(shots / f"backgammon-confirm-{size['width']}x{size['height']}.png"))
    page.close()


# --- qwixx on a phone ----------------------------------------------------------------------


def test_qwixx_on_a_phone_has_40px_cells_and_warns_before_a_misthrow(
    browser: Browser, server_url: str, shots: Path
) -> None:
    page = browser.new_page(viewport=PHONE)
    new_room(page, server_url, "qwixx", ["me", "bot:greedy"])
    wait_for_turn_or_end(page)
    sizes = page.locator("#table .qwixx-sheet.mine .cell").evaluate_all(
        "els => els.map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])"
    )
    assert len(sizes) == 48 and min(min(s) for s in sizes) >= 40, sizes
    mine = "#table .qwixx-sheet.mine .pbox.crossed"
    # Pass everything: on my first turn as the active player, the pass that costs a
    # misthrow asks first.
    for _ in range(20):
        wait_for_turn_or_end(page)
        warned = page.locator('#table .actions [data-action="pass"][data-confirm]').first
        if warned.count():
            break
        press(page, '#table .actions [data-action="pass"]')
    else:
        raise AssertionError("no pass ever cost a misthrow")
    penalties = page.locator(mine).count()
    warned.click()
    ask = page.locator("#table .ask")
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("chybný hod, −5 bodů")
    first_screen(page, "#table .ask [data-action]")
    page.screenshot(path=str(shots / "qwixx-phone-misthrow-warning.png"))
    # "Back" sends nothing.
    ask.locator("[data-ask-back]").click()
    expect(ask).to_have_count(0)
    assert page.locator(mine).count() == penalties
    warned.click()
    act(page, "#table .ask [data-action]")
    expect(page.locator(mine)).to_have_count(penalties + 1)
    page.close()


# --- trefa on a phone -----------------------------------------------------------------------


def test_trefa_written_numbers_leave_the_printed_ones_free(browser: Browser, server_url: str, shots: Path) -> None:
    page = browser.new_page(viewport=PHONE)
    new_room(page, server_url, "trefa", ["me", "bot:greedy"])
    rng = random.Random(2)
    # Play until three numbers are written (the dice are the server's, so how many turns
    # that takes varies; a stop or a misthrow writes nothing).
    for _ in range(30):
        wait_for_turn_or_end(page)
        if is_over(page) or page.locator("#table .tfield:has(.written)").count() >= 3:
            break
        trefa_move(page, rng)
    boxes = page.locator("#table .tfield:has(.written)").evaluate_all(
        """els => els.map(td => ['.written', '.printed', '.tsym'].map(s => {
             const r = td.querySelector(s).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }))"""
    )
    assert len(boxes) >= 3

    def overlap(a: list[float], b: list[float]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    for written, printed, symbol in boxes:
        assert not overlap(written, printed), (written, printed)
        assert not overlap(written, symbol), (written, symbol)
    page.screenshot(path=str(shots / "trefa-phone-fields.png"), full_page=True)
    page.close()


# --- the keyboard ------------------------------------------------------------------------------

_FOCUS = "() => { const e = document.activeElement; return e && (e.dataset.key || e.dataset.action || e.tagName); }"


def test_the_keyboard_reaches_and_plays_the_backgammon_board(browser: Browser, server_url: str, shots: Path) -> None:
    page = browser.new_page(viewport=LAPTOP)
    new_room(page, server_url, "backgammon", ["me", "bot:random"])
    until_a_checker_can_move(page, random.Random(7))
    # From the top of a freshly loaded page.
    page.reload()
    page.wait_for_selector("#table svg .origin[data-nav]")
    presses = 0
    passed = []
    while not page.evaluate("!!document.activeElement.closest('#table svg .pt')"):
        page.keyboard.press("Tab")
        presses += 1
        passed.append(page.evaluate("document.activeElement.outerHTML.slice(0, 80)"))
        # the bar's links (home, rules, my games, leaderboard, account, 3 languages), the sound
        assert presses <= 10, passed
    # The first point in the Tab order can start a move; the arrows walk every point
    # (test_reach checks the order), and Enter on one that can start a move picks it.
    start = page.evaluate(_FOCUS)
    assert page.evaluate("document.activeElement.classList.contains('origin')"), start
    page.keyboard.press("ArrowRight" if start != "pt-24" else "ArrowLeft")
    assert page.evaluate(_FOCUS) not in (start, "BODY")
    for _ in range(30):
        if page.evaluate("document.activeElement.classList.contains('origin')"):
            break
        page.keyboard.press("ArrowRight")
        if not page.evaluate("document.activeElement.classList.contains('origin')"):
            page.keyboard.press("ArrowDown")
    if not page.evaluate("document.activeElement.classList.contains('origin')"):
        page.locator("#table svg .origin").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#table svg .selected")
    assert page.evaluate("!!document.activeElement.closest('#table')")
    # Walk to a highlighted target and take the step: the focus stays on the board.
    for _ in range(30):
        if page.evaluate("document.activeElement.classList.contains('target')"):
            break
        page.keyboard.press("ArrowRight")
        if not page.evaluate("document.activeElement.classList.contains('target')"):
            page.keyboard.press("ArrowDown")
    if not page.evaluate("document.activeElement.classList.contains('target')"):
        page.locator("#table svg .target").first.focus()
    page.keyboard.press(" ")
    page.wait_for_selector("#table .chosen")
    assert page.evaluate("document.activeElement !== document.body")
    assert page.evaluate("!!document.activeElement.closest('#table')")
    page.screenshot(path=str(shots / "backgammon-keyboard.png"))
    page.close()


def test_arrow_keys_move_between_qwixx_cells(browser: Browser, server_url: str) -> None:
    page = browser.new_page(viewport=LAPTOP)
    new_room(page, server_url, "qwixx", ["me", "bot:greedy"])
    wait_for_turn_or_end(page)
    page.locator("#table .cell.can").first.focus()
    first = page.evaluate(_FOCUS)
    if page.locator("#table .cell.can").count() > 1:
        page.keyboard.press("ArrowDown")
        assert page.evaluate(_FOCUS) != first
        page.keyboard.press("ArrowUp")
        assert page.evaluate(_FOCUS) == first
    version = table_version(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => Number(document.querySelector('#table .table').dataset.version) > {version}")
    page.wait_for_timeout(300)
    assert page.evaluate("!!document.activeElement.closest('#table')")
    page.close()


@pytest.mark.parametrize(("game", "items"), [("abluxxen", ".hand [data-pick]"), ("trefa", "[data-pick]")])
def test_arrow_keys_move_between_cards_and_dice(browser: Browser, server_url: str, game: str, items: str) -> None:
    page = browser.new_page(viewport=PHONE)
    new_room(page, server_url, game, ["me", "bot:greedy"])
    page.wait_for_selector(f"#table .table[data-my-turn='1'] {items}")
    count = page.locator(f"#table {items}").count()
    assert page.locator(f"#table {items}[tabindex='0']").count() == 1  # one stop for Tab
    page.locator(f"#table {items}").first.focus()
    index = f"[...document.querySelectorAll('#table {items}')].indexOf(document.activeElement)"
    assert page.evaluate(index) == 0
    if count > 1:
        page.keyboard.press("ArrowRight")
        assert page.evaluate(index) == 1
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(index) == 0
    page.keyboard.press(" ")
    assert page.locator(f"#table {items}[aria-pressed='true']").count() == 1
    page.close()
