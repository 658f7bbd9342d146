"""Abluxxen's log as sentences: "Eva vyložila 8 8 J", "Petr vzal kartu ze zásoby (místo 4)".

Cards come from the draw pile as chance events with no seat; a card dealt or drawn
into a hand reaches only its owner's log (others read it as hidden and skip it).
"""

from __future__ import annotations

from collections.abc import Sequence

from hraj.core.record import CHANCE, HIDDEN, Event
from hraj.games.abluxxen.view import AbluxxenView
from hraj.i18n import chance_line, gender_at, name_of, t, tg

JOKER = "J"
PLAYED = "{name} played {cards}"
FROM_DISPLAY = "{name} took a card from the display (slot {slot})"
SHADOW = "{name} captured the {value}s from the shadow offer"
CAPTURED = "{name} captured {cards}"
#: What was captured, said of the victim in their own gender: "karty, které vyložila Eva".
VICTIMS_CARDS = "the cards {victim} laid out"
WORDS = {
    "draw deck": "{name} drew from the pile",
    "take": "{name} took the captured cards into hand",
    "leave": "{name} left the captured cards",
    "back": "{name} took their cards back into hand",
    "discard": "{name} discarded the cards to draw as many",
    "pass": "{name} did not draw",
}
CARD = "A {card} came from the pile"
CARD_JOKER = "A joker came from the pile"
SENTENCES = (PLAYED, FROM_DISPLAY, SHADOW, CAPTURED, VICTIMS_CARDS, *WORDS.values())


def lines(
    events: Sequence[Event],
    names: Sequence[str],
    genders: Sequence[str | None],
    lang: str,
    view: AbluxxenView | None = None,
) -> list[str | None]:
    said: list[str | None] = []
    for kind, seat, text in events:
        if text == HIDDEN:
            said.append(None)
        elif kind == CHANCE:
            said.append(card_line(text, names, lang))
        else:
            said.append(sentence(text, seat, names, genders, lang))
    return said


def card_line(text: str, names: Sequence[str], lang: str) -> str:
    if text == JOKER:
        return t(CARD_JOKER, lang)
    if text.isdigit():
        return t(CARD, lang, card=text)
    return chance_line(text, names, lang)


def sentence(action: str, seat: int | None, names: Sequence[str], genders: Sequence[str | None], lang: str) -> str:
    """A seat's move or forced step (a capture) as a sentence about the seat."""
    name, gender = name_of(names, seat), gender_at(genders, seat)
    words = action.split()
    head = words[0] if words else ""
    if action in WORDS:
        return tg(WORDS[action], gender, lang, name=name)
    if head == "play" and len(words) > 1:
        return tg(PLAYED, gender, lang, name=name, cards=" ".join(words[1:]))
    if head == "draw" and len(words) == 3 and words[1] == "slot":
        return tg(FROM_DISPLAY, gender, lang, name=name, slot=words[2])
    if head == "shadow" and len(words) == 2:
        return tg(SHADOW, gender, lang, name=name, value=words[1])
    if head == "capture" and len(words) == 2 and words[1].isdigit():
        victim = int(words[1])
        cards = tg(VICTIMS_CARDS, gender_at(genders, victim), lang, victim=name_of(names, victim))
        return tg(CAPTURED, gender, lang, name=name, cards=cards)
    return f"{name}: {action}"
