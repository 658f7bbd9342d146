"""Rooms among people in a browser: taking a seat by code, link or lobby under one's own
name, spectators told why, the chat (markup stays text), the rematch, replays by move."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from tests.web.play import WAIT_MS

#: A seat taken reloads the page, opens its socket and fetches its table: on a busy
#: machine that is three answers in a row, so the wait for it is longer than one's.
SEATED_MS = 4 * WAIT_MS


def make_room(
    page: Page, url: str, seats: list[str], *, public: bool = False, game: str = "qwixx", keep_form: bool = False
) -> str:
    """Create a room on the start page; `seats` are kinds: me, friend, bot (`keep_form`:
    the page is there already, with choices made)."""
    if not keep_form:
        page.goto(url + "/?lang=cs")
    page.locator(f'input[name=game][value="{game}"]').check(force=True)
    setup = page.locator(f'.game-setup[data-game="{game}"]')
    players = setup.locator("[data-option=players]")
    if players.count():
        players.select_option(str(len(seats)))
    rows = setup.locator(".seat-row")
    expect(rows).to_have_count(len(seats))
    for index, kind in enumerate(seats):
        rows.nth(index).locator(".seat-kind").select_option(kind)
    if seats[0] == "me":
        rows.nth(0).locator(".seat-name").fill("Eva")
    if public:
        page.locator("#public-room").check()
    page.locator("#start-button").click()
    page.wait_for_url("**/r/*")
    page.wait_for_selector("#connection[data-state=open]", timeout=WAIT_MS)
    return page.url.rsplit("/r/", 1)[1].split("?")[0]


def kept(page: Page, room: str) -> dict[str, Any]:
    """What this browser keeps of a room (seat tokens, invite, host token)."""
    rooms: dict[str, Any] = json.loads(page.evaluate("localStorage.getItem('hraj.rooms')") or "{}")
    return dict(rooms.get(room) or {})


def newcomer(browser: Browser, width: int = 1366, height: int = 768) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport={"width": width, "height": height})
    return context, context.new_page()


def invited(browser: Browser, host: Page, name: str) -> tuple[BrowserContext, Page]:
    """A friend who opens the host's invite link in a browser of their own and takes seat 2 as `name`."""
    context, friend = newcomer(browser)
    friend.goto(host.locator("#invite-link").input_value() + "&lang=cs")
    friend.locator("#join-name").fill(name)
    friend.locator("#join-take").click()
    friend.wait_for_selector('#table .table[data-seat="1"]', timeout=SEATED_MS)
    return context, friend


def test_a_room_code_on_the_start_page_seats_a_newcomer_under_a_name(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    host_context, host = newcomer(browser)
    room = make_room(host, server_url, ["me", "friend"], public=True)
    context, page = newcomer(browser)
    page.goto(server_url + "/?lang=cs")
    page.locator("#join-link").fill(room)
    page.locator('#join-room button[value="join"]').click()
    expect(page.locator("#join-box")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#room-note")).to_be_hidden()
    page.locator("#join-name").fill("Jan")
    page.screenshot(path=str(artifacts / "room-join-by-code.png"))
    page.locator("#join-take").click()
    page.wait_for_selector('#table .table[data-seat="1"]', timeout=SEATED_MS)
    expect(page.locator(".seat-names")).to_contain_text("Jan")
    expect(host.locator(".seat-names")).to_contain_text("Jan", timeout=WAIT_MS)
    assert "1" in kept(page, room)["tokens"]
    context.close()
    host_context.close()


def test_a_private_room_code_says_why_the_newcomer_only_watches(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    host_context, host = newcomer(browser)
    room = make_room(host, server_url, ["me", "friend"])
    context, page = newcomer(browser)
    page.goto(f"{server_url}/r/{room}?join=1&lang=cs")
    expect(page.locator("#room-note")).to_contain_text("soukromá", timeout=WAIT_MS)
    expect(page.locator("#room-note")).to_contain_text("divák")
    expect(page.locator("#join-box")).to_be_hidden()
    page.screenshot(path=str(artifacts / "room-private-code.png"))
    context.close()
    host_context.close()


def test_an_invited_friend_writes_a_name_and_a_reused_link_says_the_seat_is_taken(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    host_context, host = newcomer(browser)
    room = make_room(host, server_url, ["me", "friend"])
    link = host.locator("#invite-link").input_value()
    assert "invite=" in link
    context, friend = newcomer(browser, 360, 740)
    friend.goto(link + "&lang=cs")
    expect(friend.locator("#join-box")).to_be_visible(timeout=WAIT_MS)
    expect(friend.locator("#join-why")).to_contain_text("pozváni")
    friend.locator("#join-name").fill("Petra")
    friend.locator("#join-gender").select_option("f")
    assert friend.evaluate("document.documentElement.scrollWidth") <= 360
    friend.screenshot(path=str(artifacts / "room-join-invite-phone.png"))
    friend.locator("#join-take").click()
    friend.wait_for_selector('#table .table[data-seat="1"]', timeout=SEATED_MS)
    expect(friend.locator(".seat-names")).to_contain_text("Petra")
    seats = friend.evaluate(
        "async () => (await (await fetch('/api/rooms/' + document.getElementById('room').dataset.room)).json()).seats"
    )
    assert seats[1]["gender"] == "f", "the log speaks of the invited friend in her gender"
    late_context, late = newcomer(browser)
    late.goto(link + "&lang=cs")
    expect(late.locator("#room-note")).to_contain_text("obsazená", timeout=WAIT_MS)
    expect(late.locator("#room-note")).to_contain_text("divák")
    expect(late.locator("#join-box")).to_be_hidden()
    late.screenshot(path=str(artifacts / "room-invite-reused.png"))
    assert kept(late, room) == {}
    for each in (late_context, context, host_context):
        each.close()


def test_chat_between_players_keeps_markup_as_text_and_spectators_read_it(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    host_context, host = newcomer(browser)
    room = make_room(host, server_url, ["me", "friend"])
    context, friend = invited(browser, host, "Jan")
    watcher_context, watcher = newcomer(browser)
    watcher.goto(f"{server_url}/r/{room}?lang=cs")
    expect(watcher.locator("#chat")).to_be_visible(timeout=WAIT_MS)
    expect(watcher.locator("#chat-form")).to_be_hidden()
    expect(watcher.locator("#chat-readonly")).to_be_visible()
    evil = '<script>window.hacked=1</script><img src=x onerror="window.hacked=2"> ahoj'
    expect(host.locator("#chat-form")).to_be_visible(timeout=WAIT_MS)
    host.locator("#chat-text").fill(evil)
    host.locator("#chat-form button").click()
    for page in (host, friend, watcher):
        expect(page.locator("#chat-lines li")).to_have_count(1, timeout=WAIT_MS)
        expect(page.locator("#chat-lines li")).to_contain_text(evil)
        assert page.locator("#chat-lines img, #chat-lines script").count() == 0
        assert page.evaluate("window.hacked") is None
    expect(friend.locator("#chat-lines li")).to_contain_text("Eva:")
    friend.locator("#chat-text").fill("Ahoj Evo!")
    friend.keyboard.press("Enter")
    expect(host.locator("#chat-lines li")).to_have_count(2, timeout=WAIT_MS)
    expect(host.locator("#chat-lines li").nth(1)).to_have_text("Jan: Ahoj Evo!")
    assert host.locator("#chat-text").get_attribute("maxlength") == "300"
    host.screenshot(path=str(artifacts / "room-chat.png"), full_page=True)
    watcher.screenshot(path=str(artifacts / "room-chat-spectator.png"), full_page=True)
    for each in (watcher_context, context, host_context):
        each.close()


def test_a_spectator_whose_chat_script_comes_after_the_socket_still_reads_the_chat(
    browser: Browser, server_url: str
) -> None:
    """On a slow line the socket's welcome can come before the page's last script has
    run; the chat must not wait for a welcome it has already missed."""
    host_context, host = newcomer(browser)
    room = make_room(host, server_url, ["me", "friend"])
    watcher_context, watcher = newcomer(browser)

    def late(route: Route) -> None:
        time.sleep(2)  # the welcome arrives in the meantime
        route.continue_()

    watcher.route("**/static/room-social.js", late)
    watcher.goto(f"{server_url}/r/{room}?lang=cs")
    watcher.wait_for_selector("#connection[data-state=open]", timeout=WAIT_MS)
    expect(watcher.locator("#chat")).to_be_visible(timeout=WAIT_MS)
    expect(watcher.locator("#chat-readonly")).to_be_visible()
    for each in (watcher_context, host_context):
        each.close()


def test_a_chat_that_failed_to_load_is_loaded_again(browser: Browser, server_url: str) -> None:
    """A busy server answering the first load of the chat with 503 does not leave the
    players without it: the page asks again."""
    context, host = newcomer(browser)
    failed: list[str] = []

    def first_load_fails(route: Route) -> None:
        if route.request.method == "GET" and not failed:
            failed.append(route.request.url)
            route.fulfill(status=503, content_type="application/json", body='{"message": "busy"}')
        else:
            route.continue_()

    host.route("**/api/rooms/*/chat*", first_load_fails)
    make_room(host, server_url, ["me", "friend"])
    expect(host.locator("#chat-form")).to_be_visible(timeout=WAIT_MS)
    assert len(failed) == 1
    context.close()


def test_a_game_against_a_bot_has_no_chat(browser: Browser, server_url: str) -> None:
    context, page = newcomer(browser)
    make_room(page, server_url, ["me", "bot"])
    page.wait_for_timeout(500)
    expect(page.locator("#chat")).to_be_hidden()
    context.close()


def hand_to_bot(page: Page, room: str) -> None:
    """Let a bot play every seat this browser holds, so the game runs to its end."""
    page.evaluate(
        """async (room) => {
          const mine = JSON.parse(localStorage.getItem('hraj.rooms'))[room];
          for (const [seat, token] of Object.entries(mine.tokens)) {
            await fetch(`/api/rooms/${room}/seats/${seat}/bot`, {method: 'POST',
              headers: {'content-type': 'application/json', authorization: `Bearer ${token}`},
              body: JSON.stringify({bot: 'random'})});
          }
        }""",
        room,
    )


def test_a_rematch_offered_starts_when_the_other_accepts_and_takes_both_to_it(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    host_context, host = newcomer(browser)
    room = make_room(host, server_url, ["me", "friend"])
    context, friend = invited(browser, host, "Jan")
    expect(host.locator(".room-links .replay-link")).to_be_hidden()
    hand_to_bot(host, room)
    hand_to_bot(friend, room)
    host.wait_for_selector('#table .table[data-over="1"]', timeout=60_000)
    expect(host.locator(".room-links .replay-link")).to_be_visible()
    expect(host.locator("#rematch-box")).to_be_visible(timeout=WAIT_MS)
    expect(host.locator("#rematch-rule")).to_contain_text("další hráč")
    # The room page's turn marks end with the game (a game's own board draws its own).
    assert host.locator("#table .status .badge, #table .seat-names .to-act, #table .turn-mark").count() == 0
    host.screenshot(path=str(artifacts / "room-rematch-offer.png"), full_page=True)
    # Offered by the host, the rematch starts once the friend accepts it.
    host.locator("#rematch-start").click()
    expect(host.locator("#rematch-status")).to_have_text("Čekáme, až ostatní odvetu přijmou.", timeout=WAIT_MS)
    expect(friend.locator("#rematch-status")).to_have_text("Nabízí se odveta.", timeout=WAIT_MS)
    friend.screenshot(path=str(artifacts / "room-rematch-offered.png"), full_page=True)
    friend.locator("#rematch-start").click()
    friend.wait_for_url(lambda url: "/r/" in url and room not in url, timeout=WAIT_MS)
    rematch = friend.url.rsplit("/r/", 1)[1].split("?")[0]
    friend.wait_for_selector('#table .table[data-seat="1"]', timeout=SEATED_MS)
    expect(friend.locator(".seat-names")).to_contain_text("Jan")
    expect(host.locator("#rematch-ready")).to_be_visible(timeout=WAIT_MS)
    host.screenshot(path=str(artifacts / "room-rematch-ready.png"), full_page=True)
    host.locator("#rematch-go").click()
    host.wait_for_url(f"**/r/{rematch}", timeout=WAIT_MS)
    host.wait_for_selector('#table .table[data-seat="0"]', timeout=SEATED_MS)
    host.screenshot(path=str(artifacts / "room-rematch.png"), full_page=True)
    context.close()
    host_context.close()


def test_the_lobby_lists_a_public_room_and_joins_it(browser: Browser, server_url: str, artifacts: Path) -> None:
    host_context, host = newcomer(browser)
    room = make_room(host, server_url, ["me", "friend", "bot"], public=True)
    hidden = make_room(host, server_url, ["me", "friend"])
    context, page = newcomer(browser)
    page.goto(server_url + "/?lang=cs")
    page.locator('.topnav a[href="/lobby"]').click()
    entry = page.locator(f'.lobby-room[data-room="{room}"]')
    expect(entry).to_be_visible()
    expect(entry).to_contain_text("Qwixx")
    expect(entry).to_contain_text("Eva")
    expect(entry).to_contain_text("1 volné místo")
    assert page.locator(f'.lobby-room[data-room="{hidden}"]').count() == 0
    page.screenshot(path=str(artifacts / "lobby.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert entry.locator("a.button").bounding_box()["height"] >= 40  # type: ignore[index]
    page.screenshot(path=str(artifacts / "lobby-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 768})
    entry.locator("a.button").click()
    expect(page.locator("#join-box")).to_be_visible(timeout=WAIT_MS)
    page.locator("#join-name").fill("Ola")
    page.locator("#join-take").click()
    page.wait_for_selector('#table .table[data-seat="1"]', timeout=SEATED_MS)
    page.goto(server_url + "/lobby?lang=cs")
    assert page.locator(f'.lobby-room[data-room="{room}"]').count() == 0
    context.close()
    host_context.close()


def test_an_abluxxen_replay_steps_by_move_and_shows_every_hand(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    context, page = newcomer(browser)
    room = make_room(page, server_url, ["me", "bot", "bot"], game="abluxxen")
    hand_to_bot(page, room)
    page.wait_for_selector('#table .table[data-over="1"]', timeout=60_000)
    page.locator(".room-links .replay-link a").click()
    page.wait_for_url(f"**/r/{room}/replay*")
    page.locator("#replay-first").click()
    expect(page.locator(".replay-pos")).to_contain_text("Tah 1 z")
    expect(page.locator(".replay-turn h2")).to_have_text("Začátek hry")
    expect(page.locator("#table p.known")).to_have_count(3)
    page.screenshot(path=str(artifacts / "replay-abluxxen-deal.png"), full_page=True)
    page.keyboard.press("ArrowRight")
    expect(page.locator(".replay-pos")).to_contain_text("Tah 2 z")
    expect(page.locator(".replay-turn h2")).to_have_text("Od tahu 1")
    page.screenshot(path=str(artifacts / "replay-abluxxen-turn.png"), full_page=True)
    context.close()
