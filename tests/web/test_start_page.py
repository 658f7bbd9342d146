"""The start page in a browser: seats follow the game, languages switch and are remembered."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.web.play import WAIT_MS


def test_the_seat_list_follows_the_game_and_its_player_count(browser: Browser, server_url: str, artifacts) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(server_url + "/")
    page.locator('input[name=game][value="abluxxen"]').check(force=True)
    setup = page.locator('.game-setup[data-game="abluxxen"]')
    expect(setup).to_be_visible()
    expect(setup.locator(".seat-row")).to_have_count(4)
    setup.locator("[data-option=players]").select_option("2")
    expect(setup.locator(".seat-row")).to_have_count(2)
    # A bot seat offers the game's bots; a person's seat offers a name instead.
    second = setup.locator(".seat-row").nth(1)
    expect(second.locator(".seat-bot")).to_be_visible()
    expect(second.locator(".seat-name")).to_be_hidden()
    second.locator(".seat-kind").select_option("here")
    expect(second.locator(".seat-name")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(artifacts / "start-phone.png"), full_page=True)
    page.locator('input[name=game][value="backgammon"]').check(force=True)
    expect(page.locator('.game-setup[data-game="backgammon"] .seat-row')).to_have_count(2)
    page.close()


def test_two_seats_for_myself_are_refused_before_anything_is_created(browser: Browser, server_url: str) -> None:
    page = browser.new_page()
    page.goto(server_url + "/")
    page.locator('input[name=game][value="qwixx"]').check(force=True)
    rows = page.locator('.game-setup[data-game="qwixx"] .seat-row')
    rows.nth(1).locator(".seat-kind").select_option("me")
    page.locator("#start-button").click()
    expect(page.locator("#start-error")).to_contain_text("nejvýš jedno místo")
    assert "/r/" not in page.url
    page.close()


def test_the_language_switch_is_remembered(browser: Browser, server_url: str, artifacts) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.goto(server_url + "/")
    expect(page.locator("h1")).to_have_text("Hraj!")
    page.locator('a.lang[hreflang="en"]').click()
    expect(page.locator("#start-button")).to_have_text("Start the game", timeout=WAIT_MS)
    page.goto(server_url + "/rules/qwixx")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto(server_url + "/")
    page.locator('a.lang[hreflang="sk"]').click()
    expect(page.locator("#start-button")).to_have_text("Začať hru")
    page.screenshot(path=str(artifacts / "start-sk.png"), full_page=True)
    context.close()
