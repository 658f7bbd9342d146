"""The review of a finished game in a real browser, for each of the four games: the
costliest decision is one click from the move list's position where it was made, with
its options; a rollout runs with its progress bar; axe-core (WCAG 2.1 AA) finds nothing
on the page on a laptop and on a phone."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from hraj.games.abluxxen import hints as abluxxen_hints

SEATS = {
    "qwixx": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "master"}],
    "trefa": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "racer"}],
    "backgammon": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "net"}],
    "abluxxen": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}],
}
#: A laptop's and a phone's screen.
SCREENS: dict[str, ViewportSize] = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
#: What axe-core checks: WCAG 2.0 and 2.1, levels A and AA.
WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
#: The analysis of a whole game on a busy machine.
ANALYSIS_MS = 120_000


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small settings for the server in this process: a short Abluxxen search, short rollouts on two processes."""
    monkeypatch.setattr(abluxxen_hints, "QUICK_DEALS", 2)
    monkeypatch.setattr(abluxxen_hints, "QUICK_HORIZON", 2)
    monkeypatch.setenv("HRAJ_ROLLOUT_TRIALS", "4")
    monkeypatch.setenv("HRAJ_ROLLOUT_WORKERS", "2")


def finished_room(page: Page, server_url: str, game: str) -> str:
    answer = page.request.post(f"{server_url}/api/rooms", data={"game": game, "seats": SEATS[game]})
    assert answer.ok, answer.text()
    room: str = answer.json()["room"]
    deadline = time.monotonic() + 120
    while page.request.get(f"{server_url}/api/rooms/{room}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    return room


def axe_violations(page: Page) -> list[dict[str, Any]]:
    from axe_playwright_python.sync_playwright import Axe

    found: list[dict[str, Any]] = Axe().run(page, options=WCAG_AA).response["violations"]
    return [{"id": item["id"], "nodes": [node["target"] for node in item["nodes"]]} for item in found]


@pytest.mark.parametrize("game", list(SEATS))
def test_the_review_leads_to_the_costliest_decision_and_rolls_it_out(
    browser: Browser, server_url: str, artifacts: Path, game: str
) -> None:
    context = browser.new_context(viewport=SCREENS["laptop"], locale="cs-CZ")
    page = context.new_page()
    room = finished_room(page, server_url, game)
    page.goto(f"{server_url}/r/{room}/replay?lang=cs")
    worst = page.locator(".analysis table.worst tbody tr").first
    expect(worst).to_be_visible(timeout=ANALYSIS_MS)
    move = worst.locator("td a").inner_text()
    assert page.locator(".moves li .mark").count() >= 1  # the move list carries the marks
    assert axe_violations(page) == [], "the end of the review"
    worst.locator("td a").click()
    page.wait_for_url(f"**/replay?move={move}")
    expect(page.locator(".replay-pos")).to_contain_text(f"Tah {move} z")
    expect(page.locator(f'.moves a[aria-current="step"][href="?move={move}"]')).to_be_visible()
    options = page.locator("#decision table.options")
    expect(options).to_be_visible(timeout=ANALYSIS_MS)
    expect(options.locator("tr.played")).to_have_count(1)
    expect(page.locator("#decision .decision-line")).to_contain_text("Nejlepší bylo")
    page.screenshot(path=str(artifacts / f"review-{game}-move.png"), full_page=True)
    for name, screen in SCREENS.items():
        page.set_viewport_size(screen)
        assert axe_violations(page) == [], f"move {move} on a {name}"
    page.screenshot(path=str(artifacts / f"review-{game}-phone.png"), full_page=True)
    page.set_viewport_size(SCREENS["laptop"])
    # the rollout: a progress bar while it runs, the values with their standard errors after
    page.locator("#decision .rollout-start").click()
    # the bar shows from the start's answer until a poll (every half second) finds it done
    expect(page.locator("#decision progress.rollout-progress")).to_be_visible()
    expect(page.locator("#decision table.rollout-table")).to_be_visible(timeout=ANALYSIS_MS)
    expect(page.locator("#decision progress.rollout-progress")).to_be_hidden()
    expect(page.locator("#decision .rollout-table tbody tr")).not_to_have_count(0)
    assert axe_violations(page) == [], "the rollout's result"
    page.screenshot(path=str(artifacts / f"review-{game}-rollout.png"), full_page=True)
    context.close()


def test_the_keys_step_through_the_moves(browser: Browser, server_url: str) -> None:
    context = browser.new_context(viewport=SCREENS["phone"])
    page = context.new_page()
    room = finished_room(page, server_url, "qwixx")
    page.goto(f"{server_url}/r/{room}/replay?move=3")
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**/replay?move=4")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**/replay?move=3")
    page.keyboard.press("Home")
    page.wait_for_url("**/replay?move=1")
    page.keyboard.press("End")
    page.wait_for_url("**/replay?move=*")
    expect(page.locator(".replay-pos")).to_contain_text("Konec")
    expect(page.locator(".end-sentence")).to_contain_text(re.compile("vyhrává|dělí"))
    # a click on the plot goes to the nearest move
    plot = page.locator(".analysis-plot > svg")
    expect(plot).to_be_visible(timeout=ANALYSIS_MS)
    box = plot.bounding_box()
    assert box is not None
    plot.click(position={"x": box["width"] * 0.5, "y": box["height"] * 0.5})
    page.wait_for_url("**/replay?move=*")
    expect(page.locator(".replay-pos")).to_contain_text("Tah ")
    context.close()
