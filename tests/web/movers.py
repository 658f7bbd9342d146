"""How the browser tests play each game: one decision of the seat on turn, through clicks.

A `Hand` says how a click is made. The plain one clicks and waits for the table to
change; the board tests pass one that first checks that what it taps lies in the first
screen, uncovered. The movers themselves are the same for every test.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from playwright.sync_api import Page

from tests.web.play import act, is_over, wait_for_turn_or_end


def _no_check(page: Page, selector: str, index: int) -> None:
    """The plain hand taps without looking first."""


@dataclass(frozen=True)
class Hand:
    """How a mover clicks: `press` clicks an action and waits for the table to change;
    `touch` looks at a thing before it is picked (a card, a die) or read (the dice)."""

    press: Callable[[Page, str, int], object] = act
    touch: Callable[[Page, str, int], None] = _no_check

    def act(self, page: Page, selector: str, index: int = 0) -> None:
        self.press(page, selector, index)


PLAIN = Hand()


def compose(page: Page, hand: Hand, selector: str, indices: list[int]) -> None:
    """Pick the things `selector` finds at `indices` (dice, cards), then play them."""
    picks = page.locator(selector)
    for index in indices:
        hand.touch(page, selector, index)
        picks.nth(index).click()
    hand.act(page, "#table [data-compose-submit]")


def press_any(page: Page, hand: Hand, selector: str, rng: random.Random) -> None:
    """Press one of the actions `selector` finds, drawn at random, if there is any."""
    count = page.locator(selector).count()
    if count:
        hand.act(page, selector, rng.randrange(count))


def answer_a_warning(page: Page, hand: Hand = PLAIN) -> None:
    """A misthrow asks first: take it (the movers play on)."""
    if page.locator("#table .ask [data-action]").count():
        hand.act(page, "#table .ask [data-action]")


def qwixx_move(page: Page, rng: random.Random, hand: Hand = PLAIN) -> None:
    """Cross a clickable number most of the time, otherwise pass."""
    cells = page.locator("#table .cell.can").count()
    if cells and rng.random() < 0.7:
        hand.act(page, "#table .cell.can", rng.randrange(cells))
    else:
        hand.act(page, '#table .actions [data-action="pass"]')
        answer_a_warning(page, hand)


def trefa_move(page: Page, rng: random.Random, hand: Hand = PLAIN) -> None:
    """Write one or more pickable dice, or reroll or stop when nothing is chosen."""
    count = page.locator("#table [data-pick]").count()
    if count and rng.random() < 0.85:
        compose(page, hand, "#table [data-pick]", sorted(rng.sample(range(count), rng.randint(1, count))))
        return
    press_any(page, hand, "#table .actions [data-action]:visible", rng)


def backgammon_move(page: Page, rng: random.Random, hand: Hand = PLAIN) -> None:
    """Build a play on the board, a checker and then a point, until it can be confirmed;
    the most advanced point (bearing off first) keeps the game short."""
    table = page.locator("#table")
    # Only points with the mover's checkers are offered as starts.
    for sig in table.locator("svg .pt.origin").evaluate_all("els => els.map(e => e.dataset.sig)"):
        assert int(sig.split("/")[0]) > 0, sig
    if table.locator(".bg-controls .confirm").count():
        hand.touch(page, "#table .dice-row", 0)
        hand.act(page, "#table .bg-controls .confirm")
        return
    keys = table.locator("svg .target[data-nav]").evaluate_all("els => els.map(e => e.dataset.key)")
    if keys:
        order = [0 if key == "off" else int(key.removeprefix("pt-")) if key.startswith("pt-") else 99 for key in keys]
        hand.act(page, "#table svg .target[data-nav]", order.index(min(order)))
        return
    found = table.locator("svg .origin[data-nav]").count()
    if found:
        hand.act(page, "#table svg .origin[data-nav]", rng.randrange(found))
        return
    for word in ("roll", "take", "decline", "accept"):
        if table.locator(f'.actions [data-action="{word}"]').count():
            hand.act(page, f'#table .actions [data-action="{word}"]')
            return
    hand.act(page, "#table .actions [data-action]:visible")


def until_a_checker_can_move(page: Page, rng: random.Random, hand: Hand = PLAIN) -> None:
    """Roll (and answer the cube) until the board offers a checker to move."""
    for _ in range(100):
        wait_for_turn_or_end(page)
        assert not is_over(page), "the game ended before a checker could move"
        if page.locator("#table svg .origin[data-nav]").count():
            return
        backgammon_move(page, rng, hand)
    raise AssertionError("no checker could be moved")


def abluxxen_move(page: Page, rng: random.Random, hand: Hand = PLAIN) -> None:
    """Play every card of one value from the hand, or take a capture or draw decision."""
    table = page.locator("#table")
    picks = table.locator(".hand [data-pick]")
    if picks.count():
        values = [picks.nth(i).get_attribute("data-pick") for i in range(picks.count())]
        value = rng.choice([v for v in values if v != "J"] or values)
        compose(page, hand, ".hand [data-pick]", [index for index, card in enumerate(values) if card == value])
        return
    press_any(page, hand, "#table [data-action]:visible", rng)
