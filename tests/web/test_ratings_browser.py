"""Two people sign up in their browsers, play a rated game to the end, and both ratings
moved exactly as the formula says, on both profiles and on the leaderboard."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from hraj.i18n import number
from hraj.players.rating import MODEL, Skill, display, openskill_game, places
from tests.web.conftest import serving, site_settings
from tests.web.play import WAIT_MS
from tests.web.test_rooms_social import SEATED_MS, kept, newcomer

PASSWORD = "heslo na hraní 2026"


@pytest.fixture(scope="module")
def rated_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose ratings are settled after one game (the provisional threshold lowered)."""
    settings = site_settings(tmp_path_factory.mktemp("rated") / "hraj.db", provisional_deviation=1000.0)
    with serving(settings) as url:
        yield url


def sign_up(page: Page, url: str, name: str) -> None:
    page.goto(url + "/ucet?lang=cs")
    form = page.locator('form[data-api="POST /api/accounts"]')
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button").click()
    expect(page.locator("h1")).to_have_text(name, timeout=WAIT_MS)


def play_out(page: Page, url: str, room: str, tokens: list[str]) -> dict[str, Any]:
    """Random legal moves of both seats through the API until the end; the room's summary."""
    rng = random.Random(11)
    while True:
        summary: dict[str, Any] = page.request.get(f"{url}/api/rooms/{room}").json()
        if summary["status"] == "over":
            return summary
        for token in tokens:
            auth = {"Authorization": f"Bearer {token}"}
            legal = page.request.get(f"{url}/api/rooms/{room}/view", headers=auth).json()["view"]["legal"]
            if legal:
                page.request.post(f"{url}/api/rooms/{room}/actions", data={"action": rng.choice(legal)}, headers=auth)


def test_two_people_sign_up_play_a_rated_game_and_see_their_ratings(
    browser: Browser, rated_url: str, artifacts: Path
) -> None:
    eva_context, eva = newcomer(browser)
    petr_context, petr = newcomer(browser)
    try:
        sign_up(eva, rated_url, "Eva")
        sign_up(petr, rated_url, "Petr")
        eva.goto(rated_url + "/?lang=cs")
        setup = eva.locator('.game-setup[data-game="qwixx"]')
        setup.locator("[data-option=players]").select_option("2")
        rows = setup.locator(".seat-row")
        rows.nth(0).locator(".seat-kind").select_option("me")
        rows.nth(1).locator(".seat-kind").select_option("friend")
        eva.locator("#rated-room").check()
        eva.locator("#start-button").click()
        eva.wait_for_url("**/r/*")
        eva.wait_for_selector("#connection[data-state=open]", timeout=WAIT_MS)
        room = eva.url.rsplit("/r/", 1)[1].split("?")[0]
        petr.goto(eva.locator("#invite-link").input_value() + "&lang=cs")
        petr.locator("#join-name").fill("Someone else")
        petr.locator("#join-take").click()
        petr.wait_for_selector('#table .table[data-seat="1"]', timeout=SEATED_MS)
        seats = eva.request.get(f"{rated_url}/api/rooms/{room}").json()["seats"]
        assert [seat["name"] for seat in seats] == ["Eva", "Petr"], "a rated seat bears its account's name"
        tokens = [kept(eva, room)["tokens"]["0"], kept(petr, room)["tokens"]["1"]]
        summary = play_out(eva, rated_url, room, tokens)
        assert summary["rated"] is True
        expected = openskill_game([Skill(MODEL.mu, MODEL.sigma)] * 2, places(summary["outcome"]))
        shown = {name: display(skill.rating) for name, skill in zip(("Eva", "Petr"), expected, strict=True)}
        assert shown["Eva"] != 1500 and shown["Petr"] != 1500
        for page, name in ((eva, "Eva"), (petr, "Petr")):
            api = page.request.get(f"{rated_url}/api/players/{name}").json()["ratings"]["qwixx"]
            assert api["rating"] == pytest.approx(shown[name]) and api["games"] == 1 and not api["provisional"]
            page.goto(f"{rated_url}/hrac/{name}?lang=cs")
            rating = page.locator('.profile-game[data-game="qwixx"] .rating')
            expect(rating).to_have_text(number(round(shown[name]), "cs"))
            expect(page.locator(".profile-game .rating-line")).to_contain_text("1 hra")
            expect(page.locator(f'.lobby-room[data-room="{room}"]')).to_be_visible()
        eva.goto(f"{rated_url}/zebricek/qwixx?lang=cs")
        board = [(name, number(round(value), "cs")) for name, value in sorted(shown.items(), key=lambda x: -x[1])]
        cells = eva.locator(".leaderboard tbody tr")
        expect(cells).to_have_count(2)
        for index, (name, text) in enumerate(board):
            expect(cells.nth(index).locator("td").nth(1)).to_have_text(name)
            expect(cells.nth(index).locator("td").nth(2)).to_have_text(text)
    except Exception:
        eva.screenshot(path=str(artifacts / "rated-eva.png"))
        raise
    finally:
        eva_context.close()
        petr_context.close()
