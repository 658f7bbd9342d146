"""Qwixx in real browser pages: against a bot, two browsers in one room, a reload, replay."""

from __future__ import annotations

import random

from playwright.sync_api import Browser, expect

from tests.web.movers import qwixx_move
from tests.web.play import new_room, play_to_end


def test_qwixx_against_a_bot_to_the_end_with_a_reload_and_a_replay(browser: Browser, server_url: str, artifacts):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    room = new_room(page, server_url, "qwixx", ["me", "bot:greedy"])
    expect(page.locator("#table .table")).to_have_attribute("data-seat", "0")
    # A few moves, then a reload keeps the seat (the token lives in localStorage).
    rng = random.Random(7)
    for _ in range(4):
        page.wait_for_selector('#table .table[data-my-turn="1"]')
        qwixx_move(page, rng)
    page.reload()
    page.wait_for_selector("#table .table")
    expect(page.locator("#table .table")).to_have_attribute("data-seat", "0")
    page.wait_for_selector('#table .table[data-my-turn="1"]')
    page.screenshot(path=str(artifacts / "qwixx-my-turn.png"), full_page=True)
    moves = play_to_end([page], qwixx_move, seed=11)
    assert moves >= 1  # a seat that takes four misthrows ends the game early
    results = page.locator("#table .results li")
    expect(results).to_have_count(2)
    expect(page.locator("#table .status")).to_contain_text("Hra skončila")
    page.screenshot(path=str(artifacts / "qwixx-end.png"), full_page=True)

    # The replay steps back through the game and offers the record.
    page.goto(f"{server_url}/r/{room}/replay")
    position = page.locator(".replay-pos").inner_text()
    page.locator("#replay-prev").click()
    page.wait_for_load_state()
    assert page.locator(".replay-pos").inner_text() != position
    record = page.request.get(f"{server_url}/api/rooms/{room}/record")
    assert record.ok and record.json()["game"] == "qwixx"
    page.close()


def test_qwixx_two_browsers_in_one_room(browser: Browser, server_url: str, artifacts) -> None:
    host_context = browser.new_context(viewport={"width": 900, "height": 900})
    friend_context = browser.new_context(viewport={"width": 360, "height": 740})
    host = host_context.new_page()
    new_room(host, server_url, "qwixx", ["me", "friend"])
    invite = host.locator("#invite-link").input_value()
    assert "?invite=" in invite
    friend = friend_context.new_page()
    friend.goto(invite)
    friend.locator("#join-name").fill("Jan")
    friend.locator("#join-take").click()
    friend.wait_for_selector('#table .table[data-seat="1"]')
    # Both answer the white sum of the first roll at once.
    host.wait_for_selector('#table .table[data-my-turn="1"]')
    friend.wait_for_selector('#table .table[data-my-turn="1"]')
    # A spectator sees the table but no moves.
    watcher = browser.new_page()
    watcher.goto(invite.split("?")[0])
    watcher.wait_for_selector('#table .table[data-seat=""]')
    expect(watcher.locator("#table .cell.can")).to_have_count(0)
    play_to_end([host, friend], qwixx_move, seed=5)
    assert friend.evaluate("document.documentElement.scrollWidth") <= 360
    friend.screenshot(path=str(artifacts / "qwixx-phone.png"), full_page=True)
    host.screenshot(path=str(artifacts / "qwixx-two-browsers.png"), full_page=True)
    host_context.close()
    friend_context.close()
    watcher.close()


def test_the_host_lets_a_bot_play_a_seat_nobody_took(browser: Browser, server_url: str) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    new_room(page, server_url, "qwixx", ["me", "friend"])
    stand_in = page.locator('#table [data-seat-bot="1"]')
    expect(stand_in).to_be_visible()
    stand_in.click()
    expect(page.locator("#table .seat-names")).to_contain_text("za hráče hraje bot")
    play_to_end([page], qwixx_move, seed=21)
    expect(page.locator("#table .results li")).to_have_count(2)
    page.close()
