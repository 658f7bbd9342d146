"""Trefa, Backgammon and Abluxxen played to the end through clicks in Chromium."""

from __future__ import annotations

import json
import random

from playwright.sync_api import Browser, expect

from tests.web.movers import abluxxen_move, backgammon_move, trefa_move, until_a_checker_can_move
from tests.web.play import act, new_room, play_to_end


def test_trefa_on_a_phone_against_a_bot(browser: Browser, server_url: str, artifacts) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 740})
    new_room(page, server_url, "trefa", ["me", "bot:greedy"])
    moves = play_to_end([page], trefa_move, seed=3)
    assert moves >= 4  # the other sheet may fill its fifth row first
    expect(page.locator("#table .results li")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(artifacts / "trefa-phone.png"), full_page=True)
    page.close()


def test_backgammon_clicking_checkers_against_a_bot(browser: Browser, server_url: str, artifacts) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    new_room(page, server_url, "backgammon", ["me", "bot:random"])
    # One play built step by step, with an undo on the way.
    page.wait_for_selector('#table .table[data-my-turn="1"]')
    until_a_checker_can_move(page, random.Random(1))
    act(page, "#table svg .origin[data-nav]")
    act(page, "#table svg .target[data-nav]")
    expect(page.locator("#table .chosen")).to_be_visible()
    page.screenshot(path=str(artifacts / "backgammon-step.png"))
    act(page, "#table .bg-controls [data-undo]")
    expect(page.locator("#table .chosen")).to_have_count(0)
    moves = play_to_end([page], backgammon_move, seed=9, limit=5000)
    assert moves > 10
    expect(page.locator("#table .results li")).to_have_count(2)
    page.screenshot(path=str(artifacts / "backgammon-end.png"), full_page=True)
    page.close()


def test_abluxxen_three_seats_with_a_reload(browser: Browser, server_url: str, artifacts) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    new_room(page, server_url, "abluxxen", ["me", "bot:greedy", "bot:greedy"])
    expect(page.locator("#table .hand")).to_be_visible()
    rng = random.Random(4)
    for _ in range(3):
        page.wait_for_selector('#table .table[data-my-turn="1"], #table .table[data-over="1"]')
        abluxxen_move(page, rng)
    page.reload()
    page.wait_for_selector('#table .table[data-seat="0"]')
    page.screenshot(path=str(artifacts / "abluxxen-middle.png"), full_page=True)
    play_to_end([page], abluxxen_move, seed=2)
    expect(page.locator("#table .results li")).to_have_count(3)
    page.screenshot(path=str(artifacts / "abluxxen-end.png"), full_page=True)
    page.close()


def test_abluxxen_two_people_at_one_screen_hide_their_hands_between_turns(
    browser: Browser, server_url: str, artifacts
) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    new_room(page, server_url, "abluxxen", ["me", "here"])
    rng = random.Random(8)
    seats_shown = set()
    handovers = 0
    while handovers < 3:
        page.wait_for_selector('#handover:not([hidden]), #table .table[data-my-turn="1"]')
        if page.locator("#handover").is_visible():
            handovers += 1
            expect(page.locator("#table")).to_be_hidden()
            expect(page.locator("#handover-text")).to_contain_text("Předejte obrazovku hráči Hráč")
            page.locator("#handover-go").click()
        expect(page.locator("#table .shadow")).to_be_visible()
        seats_shown.add(page.locator("#table .table").get_attribute("data-seat"))
        abluxxen_move(page, rng)
    assert seats_shown == {"0", "1"}
    page.screenshot(path=str(artifacts / "abluxxen-two-at-one-screen.png"), full_page=True)
    page.close()


def test_keyboard_play_on_the_backgammon_board_of_a_phone(browser: Browser, server_url: str, artifacts) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 740})
    new_room(page, server_url, "backgammon", ["me", "bot:random"])
    page.wait_for_selector('#table .table[data-my-turn="1"]')
    until_a_checker_can_move(page, random.Random(2))
    page.locator("#table svg .origin[data-nav]").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#table svg .selected")
    # The focus stays on the same point after the table is re-rendered.
    assert page.evaluate("document.activeElement.classList.contains('selected')")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(artifacts / "backgammon-phone.png"), full_page=True)
    page.keyboard.press("Escape")
    page.close()


def test_dragging_a_checker_to_a_point(browser: Browser, server_url: str) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    new_room(page, server_url, "backgammon", ["me", "bot:random"])
    page.wait_for_selector('#table .table[data-my-turn="1"]')
    until_a_checker_can_move(page, random.Random(3))
    legal = json.loads(page.locator("#table .table").get_attribute("data-legal") or "[]")
    step = next(a for a in legal if "/" in a).split()[0]
    origin, target = step.split("/")
    keys = {"bar": "bar", "off": "off"}

    def centre(key: str) -> tuple[float, float]:
        box = page.locator(f'#table [data-key="{key}"]').bounding_box()
        assert box is not None
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    start = centre(keys.get(origin, f"pt-{origin}"))
    end = centre(keys.get(target, f"pt-{target}"))
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=5)
    page.mouse.up()
    expect(page.locator("#table .chosen")).to_contain_text(step)
    page.close()
