"""The hint button and key H in Chromium: shown where the room allows hints, never elsewhere."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.web.play import new_room


def test_key_h_ranks_the_options_in_a_game_against_a_bot(browser: Browser, server_url: str, artifacts) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 1200})
    new_room(page, server_url, "backgammon", ["me", "bot:pubeval"])
    page.wait_for_selector('#table .table[data-my-turn="1"]')
    expect(page.locator("#hint-button")).to_be_visible()
    expect(page.locator("#hint-note")).to_be_hidden()  # only one person: nobody to tell
    page.keyboard.press("h")
    page.wait_for_selector("#hint-result table", timeout=30_000)
    expect(page.locator("#hint-result tr.best")).to_have_count(1)
    page.screenshot(path=str(artifacts / "hint-backgammon.png"), full_page=True)
    page.close()


def test_a_room_with_a_friend_through_a_link_has_no_hints_unless_allowed(browser: Browser, server_url: str) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    new_room(page, server_url, "qwixx", ["me", "friend"])
    page.wait_for_timeout(500)
    expect(page.locator("#hint-box")).to_be_hidden()
    page.keyboard.press("h")
    expect(page.locator("#hint-result table")).to_have_count(0)
    # the creator allows hints for every seat: everyone who opens the room is told
    page.goto(server_url + "/")
    page.locator('input[name=game][value="qwixx"]').check(force=True)
    page.locator("#hints-allowed").check()
    rows = page.locator('.game-setup[data-game="qwixx"] .seat-row')
    rows.nth(0).locator(".seat-kind").select_option("me")
    rows.nth(1).locator(".seat-kind").select_option("friend")
    page.locator("#start-button").click()
    page.wait_for_url("**/r/*")
    expect(page.locator("#hint-note")).to_be_visible()
    page.close()
