"""The browser sends every move with an id and sends it again with the same id when the
answer is lost: the move is applied once and the page shows no error."""

from __future__ import annotations

import json

import httpx
from playwright.sync_api import Browser, Route

from tests.web.play import WAIT_MS, table_version, wait_for_turn_or_end
from tests.web.test_rooms_social import kept, make_room, newcomer


def test_a_move_whose_answer_is_lost_is_sent_again_with_its_id_and_applied_once(
    browser: Browser, server_url: str
) -> None:
    context, page = newcomer(browser)
    sent: list[dict[str, str]] = []

    def lose_the_first_answer(route: Route) -> None:
        sent.append(json.loads(route.request.post_data or "{}"))
        if len(sent) == 1:
            route.fetch()  # the server stores the move, and its answer never arrives
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/api/rooms/*/actions*", lose_the_first_answer)
    room = make_room(page, server_url, ["me", "friend"])
    wait_for_turn_or_end(page)
    before = table_version(page)
    token = kept(page, room)["tokens"]["0"]
    page.locator('#table .actions [data-action="pass"]').first.click()
    page.wait_for_function(f"() => Number(document.querySelector('#table .table').dataset.version) > {before}")
    for _ in range(WAIT_MS // 100):  # the page sends it again after a pause
        if len(sent) >= 2:
            break
        page.wait_for_timeout(100)
    page.wait_for_selector("#table:not(.busy)", timeout=WAIT_MS)
    assert len(sent) == 2 and sent[0]["id"] == sent[1]["id"] and len(sent[0]["id"]) == 32, sent
    assert page.locator("#action-error").inner_text(timeout=WAIT_MS).strip() == ""
    # Applied once: seat 0 answered the white sum, and the room moved by that one event.
    seen = httpx.get(f"{server_url}/api/rooms/{room}/view", headers={"Authorization": f"Bearer {token}"}).json()
    assert seen["version"] == before + 1 and seen["view"]["answered"], seen
    context.close()
