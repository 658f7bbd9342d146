"""What a finger, a keyboard and a laptop's first screen reach, in Chromium.

On a phone every control is at least 44 × 44 px (backgammon's points, 24 across the
screen, are buttons of that size under the board too); the arrows walk every point of
the backgammon board and the focus ring looks like no highlight; a step taken by
keyboard leaves the focus on the board, never on "Undo"; the backgammon board ends within
a laptop's first screen whatever lies above it; the hint button sits under the dice.
"""

from __future__ import annotations

import random

from playwright.sync_api import Browser, Page, ViewportSize

from tests.web import movers
from tests.web.play import WAIT_MS, new_room, wait_for_turn_or_end

PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1366, "height": 768}
TARGET = 44

#: The size of every control a finger may use now: shown, not inside a closed menu, not
#: a point of the board's drawing (its buttons under the board stand for it); a check
#: box is measured with the label that holds it, which takes the tap too.
_CONTROLS = """() => [...document.querySelectorAll(
    'a[href], button, select, summary, input:not([type=hidden]), [role=button]')]
  .filter(e => e.getClientRects().length && !e.closest('svg') && !e.closest('details:not([open]) > :not(summary)'))
  .map(e => { const target = (e.type === 'checkbox' || e.type === 'radio') ? (e.closest('label') || e) : e;
              const r = target.getBoundingClientRect();
              return [e.outerHTML.slice(0, 70), Math.round(r.width), Math.round(r.height)]; })"""


def too_small(page: Page) -> list[list[object]]:
    return [control for control in page.evaluate(_CONTROLS) if min(control[1], control[2]) < TARGET]


def test_on_a_phone_every_control_of_a_backgammon_game_takes_a_finger(browser: Browser, server_url: str) -> None:
    page = browser.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.goto(server_url + "/")
    page.locator('input[name=game][value="backgammon"]').check(force=True)
    small = too_small(page)
    assert small == [], "\n".join(map(str, small))  # the options' check boxes too
    new_room(page, server_url, "backgammon", ["me", "bot:random"])
    movers.until_a_checker_can_move(page, random.Random(3))
    assert too_small(page) == []
    playable = page.locator("#table svg [data-nav]").evaluate_all("els => els.map(e => e.dataset.nav).sort()")
    picks = page.locator("#table .bg-picks [data-nav]").evaluate_all("els => els.map(e => e.dataset.nav).sort()")
    assert picks == playable and picks
    # A pick plays as the point itself: a checker, then a highlighted target.
    page.locator("#table .bg-picks .origin").first.click()
    page.wait_for_selector("#table .bg-picks .target", timeout=WAIT_MS)
    assert too_small(page) == []
    page.locator("#table .bg-picks .target").first.click()
    page.wait_for_selector("#table .chosen", timeout=WAIT_MS)
    page.close()


_FOCUS = """() => { const e = document.activeElement;
  return e.dataset.key || (e.hasAttribute('data-undo') ? 'undo' : e.tagName); }"""


def test_the_arrows_walk_every_point_and_the_focus_is_never_left_on_undo(browser: Browser, server_url: str) -> None:
    page = browser.new_page(viewport=LAPTOP)
    new_room(page, server_url, "backgammon", ["me", "bot:random"])
    movers.until_a_checker_can_move(page, random.Random(5))
    page.locator('#table [data-key="pt-13"]').focus()
    walked = []
    for key in ("ArrowRight", "ArrowRight", "ArrowDown", "ArrowLeft"):
        page.keyboard.press(key)
        walked.append(page.evaluate(_FOCUS))
    # along the top row 13, 14, 15, down to 10 below 15, left to 11: empty points too
    assert walked == ["pt-14", "pt-15", "pt-10", "pt-11"], walked
    # The ring of the focus is a black frame, unlike the yellow of a playable point.
    origin = page.locator("#table svg .pt.origin").first
    origin.focus()
    ring = origin.evaluate("e => getComputedStyle(e).outlineColor")
    edge = origin.evaluate("e => getComputedStyle(e.querySelector('.hit-area')).stroke")
    other = (
        page.locator("#table svg .pt.origin")
        .nth(1)
        .evaluate("e => getComputedStyle(e.querySelector('.hit-area')).stroke")
    )
    assert ring == "rgb(17, 17, 17)" and edge != other, (ring, edge, other)
    # Whole steps by keyboard: the focus stays on the board after each one.
    for _ in range(4):
        if not page.locator("#table svg .pt.origin, #table svg .bar.origin").count():
            break
        page.locator("#table svg .origin").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#table svg .target", timeout=WAIT_MS)
        page.locator("#table svg .target").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#table .chosen", timeout=WAIT_MS)
        page.wait_for_timeout(200)
        assert page.evaluate(_FOCUS) not in ("undo", "BODY"), page.evaluate(_FOCUS)
    page.close()


def test_the_backgammon_board_ends_within_a_laptops_first_screen_below_an_invite_link(
    browser: Browser, server_url: str
) -> None:
    page = browser.new_page(viewport=LAPTOP)
    new_room(page, server_url, "backgammon", ["me", "friend"])
    page.wait_for_selector("#invite-box:not([hidden])", timeout=WAIT_MS)
    page.wait_for_timeout(300)  # the board is sized again once the invite box is in
    bottom = page.locator("#table svg.board").evaluate("e => e.getBoundingClientRect().bottom + scrollY")
    assert bottom <= LAPTOP["height"], bottom
    width = page.locator("#table svg.board").evaluate("e => e.getBoundingClientRect().width")
    assert width >= 400, width  # and no smaller than the screen makes it
    page.close()


def test_the_qwixx_hint_button_sits_under_the_dice(browser: Browser, server_url: str) -> None:
    page = browser.new_page(viewport=LAPTOP)
    new_room(page, server_url, "qwixx", ["me", "bot:greedy", "bot:greedy"])
    for _ in range(10):
        wait_for_turn_or_end(page)
        if page.locator("#table .dice-row").count() and page.locator("#hint-box:not([hidden])").count():
            break
        page.wait_for_timeout(300)
    dice = page.locator("#table .dice-row").evaluate("e => e.getBoundingClientRect().bottom")
    hint = page.locator("#hint-box").evaluate("e => e.getBoundingClientRect().top")
    sheets = page.locator("#table .sheets").evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= hint - dice <= 60 and hint < sheets, (dice, hint, sheets)
    page.close()
