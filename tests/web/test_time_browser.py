"""Time at the table in a browser: "Hrát hned" seats two browsers together, and a
clocked room shows each seat's clock counting down."""

from __future__ import annotations

import time

import httpx
from playwright.sync_api import Browser, expect

from tests.web.play import WAIT_MS
from tests.web.test_rooms_social import SEATED_MS, kept, newcomer


def test_two_browsers_pressing_play_now_for_the_same_game_sit_together(browser: Browser, server_url: str) -> None:
    pages = []
    for name in ("Eva", "Jan"):
        context, page = newcomer(browser)
        page.goto(server_url + "/hrat?lang=cs")
        page.locator("#seek-game").select_option("trefa")
        page.locator("#seek-clock-trefa").select_option("normal")
        page.locator("#seek-name").fill(name)
        page.locator("#seek-go").click()
        pages.append((context, page))
    expect(pages[0][1].locator("#seek-status")).to_contain_text("Čekáme na soupeře", timeout=WAIT_MS)
    for _, page in pages:
        page.wait_for_url("**/r/*", timeout=SEATED_MS)
    rooms = {page.url.rsplit("/r/", 1)[1] for _, page in pages}
    assert len(rooms) == 1
    (room,) = rooms
    seats = sorted(int(seat) for _, page in pages for seat in kept(page, room)["tokens"])
    assert seats == [0, 1]
    summary = httpx.get(f"{server_url}/api/rooms/{room}").json()
    assert [s["name"] for s in summary["seats"]] == ["Eva", "Jan"]
    # The clock is shown at every seat, counting down.
    page = pages[0][1]
    expect(page.locator("#clocks .clock")).to_have_count(2, timeout=SEATED_MS)
    # The test server's clocks are twenty times shorter: 20 s + 2 min are 1 s + 6 s.
    running = page.locator("#clocks .clock.running").first
    first = running.inner_text()
    page.wait_for_timeout(1500)
    assert running.inner_text() != first
    for context, _ in pages:
        context.close()


def test_a_seek_disappears_when_its_page_goes_away(browser: Browser, server_url: str) -> None:
    context, page = newcomer(browser)
    page.goto(server_url + "/hrat?lang=cs")
    page.locator("#seek-game").select_option("abluxxen")
    page.locator("#seek-go").click()
    expect(page.locator("#seek-status")).to_contain_text("Čekáme na soupeře", timeout=WAIT_MS)
    context.close()  # the page is gone: it cancelled its seek
    # Another seeker of the same game now waits alone instead of being paired with nobody.
    seek = httpx.post(f"{server_url}/api/seeks", json={"game": "abluxxen", "players": 2}).json()
    assert seek["state"] == "waiting"
    httpx.post(f"{server_url}/api/seeks/{seek['seek']}/cancel", json={"secret": seek["secret"]})


def finished_pair(server_url: str) -> tuple[str, dict[int, str]]:
    """A Qwixx room of two people whose seats bots played to the end: (room, tokens)."""
    made = httpx.post(f"{server_url}/api/rooms", json={"game": "qwixx", "seats": [{}, {}], "claim": 0}).json()
    room, tokens = made["room"], {0: made["token"]}
    tokens[1] = httpx.post(f"{server_url}/api/rooms/{room}/claim", json={"invite": made["invite"]}).json()["token"]
    for seat, token in tokens.items():
        httpx.post(
            f"{server_url}/api/rooms/{room}/seats/{seat}/bot",
            json={"bot": "random"},
            headers={"Authorization": f"Bearer {token}"},
        )
    for _ in range(600):
        if httpx.get(f"{server_url}/api/rooms/{room}").json()["status"] == "over":
            return room, tokens
        time.sleep(0.05)
    raise AssertionError("the game did not end")


def test_a_rematch_declined_does_not_start(browser: Browser, server_url: str) -> None:
    room, tokens = finished_pair(server_url)
    pages = []
    for seat in (0, 1):
        context, page = newcomer(browser)
        page.goto(server_url + "/?lang=cs")
        kept_room = {room: {"game": "qwixx", "tokens": {str(seat): tokens[seat]}, "at": 0}}
        page.evaluate("(rooms) => localStorage.setItem('hraj.rooms', JSON.stringify(rooms))", kept_room)
        page.goto(f"{server_url}/r/{room}?lang=cs")
        expect(page.locator("#rematch-start")).to_be_visible(timeout=SEATED_MS)
        pages.append((context, page))
    offerer, other = pages[0][1], pages[1][1]
    offerer.locator("#rematch-start").click()
    expect(offerer.locator("#rematch-status")).to_have_text("Čekáme, až ostatní odvetu přijmou.", timeout=WAIT_MS)
    expect(other.locator("#rematch-status")).to_have_text("Nabízí se odveta.", timeout=WAIT_MS)
    other.locator("#rematch-decline").click()
    for page in (offerer, other):
        expect(page.locator("#rematch-status")).to_have_text("Odveta byla odmítnuta.", timeout=WAIT_MS)
    assert httpx.get(f"{server_url}/api/rooms/{room}").json()["rematch"] is None
    assert offerer.locator("#rematch-ready").is_hidden()
    for context, _ in pages:
        context.close()


def test_a_clocked_backgammon_match_where_one_lets_time_run_out(browser: Browser, server_url: str) -> None:
    """USBGF's clock, twenty times shorter (the test server's HRAJ_CLOCK_SCALE): whoever
    is on turn lets the time run out; in a casual game the stand-in plays that turn and
    the person keeps the seat."""
    from tests.web.test_rooms_social import invited, make_room

    host_context, host = newcomer(browser)
    host.goto(server_url + "/?lang=cs")
    host.locator('input[name=game][value="backgammon"]').check(force=True)
    host.locator('.game-setup[data-game="backgammon"] [data-clock]').select_option("usbgf")
    room = make_room(host, server_url, ["me", "friend"], game="backgammon", keep_form=True)
    context, friend = invited(browser, host, "Jan")
    for page in (host, friend):
        expect(page.locator("#clocks .clock")).to_have_count(2, timeout=SEATED_MS)
    expect(host.locator("#clocks .clock.running")).to_have_count(1, timeout=WAIT_MS)
    # Nobody moves: the turn's 0.6 s and the 6 s reserve run out.
    for page in (host, friend):
        expect(page.locator("#time-note")).to_contain_text("vypršel čas", timeout=30_000)
    summary = httpx.get(f"{server_url}/api/rooms/{room}").json()
    assert summary["clock"]["kind"] == "live" and summary["clock"]["per_point"] is True
    assert all(seat["bot"] is None and seat["claimed"] for seat in summary["seats"])  # both keep their seats
    assert summary["status"] == "playing" and summary["version"] > 1
    for c in (context, host_context):
        c.close()


def test_a_correspondence_players_page_receives_the_turn_reminder_pushed_through_the_local_receiver(
    browser: Browser, server_url: str
) -> None:
    """The server pushes the reminder to a push service on this machine (the local
    receiver, which verifies and decrypts it as the browser's push service and the
    browser would); the decrypted message is delivered to the page's service worker,
    which shows it as a notification."""
    import json

    from tests.server.push_receiver import PushReceiver

    receiver = PushReceiver()
    made = httpx.post(
        f"{server_url}/api/rooms",
        json={"game": "qwixx", "seats": [{}, {}], "claim": 0, "clock": "days-2", "options": {"first": 0}},
    ).json()
    room, first = made["room"], made["token"]
    second = httpx.post(f"{server_url}/api/rooms/{room}/claim", json={"invite": made["invite"], "name": "Jan"}).json()
    context, page = newcomer(browser)
    try:
        context.grant_permissions(["notifications"], origin=server_url)
        page.goto(server_url + "/?lang=cs")
        kept_room = {room: {"game": "qwixx", "tokens": {"1": second["token"]}, "at": 0}}
        page.evaluate("(rooms) => localStorage.setItem('hraj.rooms', JSON.stringify(rooms))", kept_room)
        page.goto(f"{server_url}/r/{room}?lang=cs")
        expect(page.locator("#push-box")).to_be_visible(timeout=SEATED_MS)  # a correspondence game offers reminders
        page.evaluate(
            "navigator.serviceWorker.register('/sw.js', {scope: '/'}).then(() => navigator.serviceWorker.ready)"
        )
        cdp = context.new_cdp_session(page)
        registrations: list[dict[str, object]] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
        cdp.send("ServiceWorker.enable")
        page.wait_for_timeout(500)
        (registration,) = {str(r["registrationId"]) for r in registrations if not r.get("isDeleted")}
        # The browser's subscription goes to the server with the seat's token (as push.js sends it).
        subscribed = httpx.post(
            f"{server_url}/api/push",
            json={
                "subscription": receiver.subscription(),
                "lang": "cs",
                "seats": [{"room": room, "token": second["token"]}],
            },
        )
        assert subscribed.status_code == 201, subscribed.text
        page.close()  # the player leaves; their turn comes while they are away
        for token in (second["token"], first, first):  # the white sum, then seat 0's colour step
            httpx.post(
                f"{server_url}/api/rooms/{room}/actions",
                json={"action": "pass"},
                headers={"Authorization": f"Bearer {token}"},
            )
        (message, *_) = receiver.wait_for(1)
        assert message.payload["title"] == "Jste na tahu" and message.payload["url"] == f"/r/{room}"
        page = context.new_page()
        page.goto(server_url + "/?lang=cs")
        cdp = context.new_cdp_session(page)
        cdp.send("ServiceWorker.enable")
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": server_url, "registrationId": registration, "data": json.dumps(message.payload)},
        )
        shown = page.evaluate(
            """async () => {
                const registration = await navigator.serviceWorker.ready;
                for (let i = 0; i < 50; i++) {
                    const found = await registration.getNotifications();
                    if (found.length) return found.map((n) => [n.title, n.body, n.data.url]);
                    await new Promise((resolve) => setTimeout(resolve, 100));
                }
                return [];
            }"""
        )
        assert shown == [["Jste na tahu", "Ve hře Qwixx jste na tahu.", f"/r/{room}"]]
    finally:
        receiver.close()
        context.close()
