"""How Abluxxen looks in the browser: the seat's own hand, the others' laid-out cards,
the display, and its words. Built from a seat's view only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from hraj.core.forms import OptionForm
from hraj.core.views import seat_order
from hraj.games.abluxxen.view import AbluxxenView, DrawView, SeatView
from hraj.i18n import t

JOKER = 14

WORDS = {
    "take": "take the cards",
    "leave": "leave the cards",
    "back": "take my cards back",
    "discard": "discard them",
    "draw deck": "draw from the pile",
    "pass": "no draw",
}
HINTS = {
    "play": "{who}: play a set of equal cards",
    "shadow": "{who}: capture from the shadow offer",
    "choose": "{who}: take the captured cards, or leave them",
    "victim": "{who}: take your cards back, or discard them",
    "draw": "{who}: draw from the display or the pile",
    "optional_draw": "{who}: you may draw one card",
}


def card_text(card: int) -> str:
    return "J" if card == JOKER else str(card)


#: The option widgets of the start page (players is handled apart); a number's range
#: comes from the option's own check.
OPTION_FORMS: list[OptionForm] = [
    {
        "name": "variant",
        "label": "Variant",
        "kind": "select",
        "choices": [("base", "base game"), ("advanced", "advanced"), ("expert", "expert")],
    },
]


def describe(action: str, lang: str, names: Sequence[str] = ()) -> str:
    """An action's notation in words, for a button or a line of the log."""
    words = action.split()
    head = words[0] if words else ""
    if action in WORDS:
        return t(WORDS[action], lang)
    if head == "play":
        return t("play {cards}", lang, cards=" ".join(words[1:]))
    if head == "draw" and len(words) == 3 and words[1] == "slot":
        return t("draw from display slot {slot}", lang, slot=words[2])
    if head == "shadow" and len(words) == 2:
        return t("capture the shadow {value}s", lang, value=words[1])
    if head == "capture" and len(words) == 2 and words[1].isdigit():
        seat = int(words[1])
        return t("captures from {name}", lang, name=names[seat] if seat < len(names) else words[1])
    return action


def describe_chance(text: str, names: Sequence[str], lang: str) -> str | None:
    """A card in words for the log: the shell's general line."""
    return None


def status(view: AbluxxenView, who: str, lang: str) -> str | None:
    """What the seat to act decides now; None: the shell's general line."""
    phase = view.get("phase")
    return t(HINTS[str(phase)], lang, who=who) if phase in HINTS else None


class HandCard(TypedDict):
    card: int
    text: str
    order: int
    pick: bool
    """The viewer may pick it into a play now."""
    mark: str
    """`hand-<card>-<k>`: the k-th card of its value, so that a card newly in the hand is marked."""


class SeatPanel(TypedDict):
    seat: int
    name: str
    hand_size: int
    known: list[str]
    layers: list[list[str]]
    laid_out: int
    score: int
    active: bool
    mine: bool
    victim: bool


class Stack(TypedDict):
    """A display slot's cards, or a group of the shadow offer, with the action a click takes."""

    cards: list[str]
    action: str | None


class DisplaySlot(Stack):
    slot: int


class Capture(TypedDict):
    victim: str
    mine: bool
    """The viewer is the victim: the page says "you"."""
    cards: list[str]


class AbluxxenTable(TypedDict):
    """What `table.html` draws: the viewer's hand, every seat's laid-out cards, the display."""

    hand: list[HandCard]
    plays: list[str]
    seats: list[SeatPanel]
    display: list[DisplaySlot]
    pile: int
    deck_action: str | None
    discard: list[str]
    shadow: list[Stack] | None
    capture: Capture | None
    draw: DrawView | None
    variant: str
    bar: list[str]


def build(view: AbluxxenView, names: Sequence[str], lang: str, params: Mapping[str, str]) -> AbluxxenTable:
    legal = list(view.get("legal") or [])
    plays = [a for a in legal if a.startswith("play ")]
    hand: list[HandCard] = []
    held: list[int] = []
    for card in view.get("hand") or []:
        # `mark`: the k-th card of a value, so that a card newly in the hand is marked.
        mark = f"hand-{card_text(card)}-{held.count(card)}"
        held.append(card)
        hand.append({"card": card, "text": card_text(card), "order": card, "pick": bool(plays), "mark": mark})
    capture = view.get("capture")
    seats: list[SeatPanel] = []
    for seat in seat_order(view, len(view["seats"])):
        info = view["seats"][seat]
        revealed = info["revealed"]
        seats.append(
            {
                "seat": seat,
                "name": names[seat] if seat < len(names) else str(seat),
                "hand_size": info["hand_size"],
                "known": [card_text(c) for c in (info["known"] if revealed is None else revealed)],
                "layers": [[card_text(c) for c in layer] for layer in info["layers"]],
                "laid_out": info["laid_out"],
                "score": info["score"],
                # No badge says whose turn it is once the game is over.
                "active": seat == view.get("active") and view.get("outcome") is None,
                "mine": seat == view.get("seat"),
                "victim": capture is not None and capture.get("victim") == seat,
            }
        )
    display: list[DisplaySlot] = []
    for slot, stack in enumerate(view.get("display") or []):
        action = f"draw slot {slot + 1}"
        display.append(
            {"slot": slot + 1, "cards": [card_text(c) for c in stack], "action": action if action in legal else None}
        )
    shadow: list[Stack] = []
    for group in view.get("shadow") or []:
        action = f"shadow {group[0]}" if group else ""
        shadow.append({"cards": [card_text(c) for c in group], "action": action if action in legal else None})
    discard = [card_text(c) for c in view.get("discard") or []]
    return {
        "hand": hand,
        "plays": plays,
        "seats": seats,
        "display": display,
        "pile": view.get("pile", 0),
        "deck_action": "draw deck" if "draw deck" in legal else None,
        "discard": discard,
        "shadow": shadow if view.get("two_player") else None,
        "capture": None
        if capture is None
        else {
            "victim": names[capture["victim"]] if capture["victim"] < len(names) else str(capture["victim"]),
            "mine": capture["victim"] == view.get("seat"),
            "cards": [card_text(c) for c in capture["cards"]],
        },
        "draw": view.get("draw"),
        "variant": view.get("variant"),
        # Plays, draws and shadow captures are clicked on the cards themselves.
        "bar": [a for a in legal if not a.startswith(("play ", "draw ", "shadow "))],
    }


def reveal_hands(view: AbluxxenView, views: Sequence[AbluxxenView]) -> AbluxxenView:
    """A replay of a finished game: the spectator's view with each seat's hand (from the
    seat's own view) shown as the end of the game shows it."""
    seats: list[SeatView] = [
        {**info, "revealed": list(views[seat].get("hand") or []) if seat < len(views) else info.get("revealed")}
        for seat, info in enumerate(view["seats"])
    ]
    return {**view, "seats": seats}


def breakdown(view: AbluxxenView, names: Sequence[str], lang: str) -> dict[str, list[str] | list[list[str]]]:
    """Each seat's score: a point for every card laid out, less one for every card left in hand."""
    columns = [t("Player", lang), t("Cards laid out", lang), t("Cards in hand", lang), t("Score", lang)]
    rows: list[list[str]] = []
    for seat, facts in enumerate(view["seats"]):
        name = names[seat] if seat < len(names) else str(seat + 1)
        laid, hand = facts["laid_out"], facts["hand_size"]
        rows.append([name, str(laid), f"−{hand}" if hand else "0", str(laid - hand)])
    return {"columns": columns, "rows": rows}
