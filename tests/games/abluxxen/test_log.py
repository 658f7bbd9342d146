"""Abluxxen's log in sentences: plays, draws, captures, in each gender and language."""

from __future__ import annotations

from hraj.games.abluxxen.log import lines

NAMES = ["Eva", "Petr", "Bot"]
EVENTS = [
    ("chance", None, "first 0"),
    ("chance", None, "?"),
    ("chance", None, "7"),
    ("chance", None, "J"),
    ("move", 0, "play 8 8 J"),
    ("auto", 0, "capture 1"),
    ("move", 0, "take"),
    ("move", 1, "draw slot 4"),
    ("move", 1, "pass"),
    ("move", 2, "discard"),
    ("move", 2, "draw deck"),
]


def test_czech_sentences_in_both_genders() -> None:
    said = lines(EVENTS, NAMES, ["f", "m", "m"], "cs")
    assert said == [
        "Začíná Eva",
        None,
        "Z balíčku přišla karta 7",
        "Z balíčku přišel žolík",
        "Eva vyložila 8 8 J",
        "Eva ukořistila karty, které vyložil Petr",
        "Eva si vzala ukořistěné karty do ruky",
        "Petr vzal kartu ze zásoby (místo 4)",
        "Petr nedobral",
        "Bot karty odhodil, aby si dobral stejný počet",
        "Bot si dobral z balíčku",
    ]


def test_czech_sentences_for_a_gender_not_given() -> None:
    said = lines(EVENTS, NAMES, [None, None, "m"], "cs")
    assert said[4] == "Eva – vyloženo: 8 8 J"
    assert said[8] == "Petr – bez dobrání"


def test_the_discard_is_told_in_one_tense() -> None:
    """The drawing comes after, card by card, in lines of its own: the discard's sentence
    says why it was made, in the past like every other line."""
    assert lines(EVENTS, NAMES, ["f", "m", "f"], "cs")[9] == "Bot karty odhodila, aby si dobrala stejný počet"
    assert lines(EVENTS, NAMES, ["f", "m", "f"], "sk")[9] == "Bot karty odhodila, aby si dobrala rovnaký počet"
    assert lines(EVENTS, NAMES, ["f", "m", None], "cs")[9] == "Bot – karty odhozeny k dobrání stejného počtu"


def test_slovak_and_english() -> None:
    assert lines(EVENTS, NAMES, ["f", "m", "m"], "sk")[8] == "Petr nedobral"
    assert lines(EVENTS, NAMES, ["f", "m", "m"], "sk")[5] == "Eva ukoristila karty, ktoré vyložil Petr"
    english = lines(EVENTS, NAMES, ["f", "m", "m"], "en")
    assert english[4:6] == ["Eva played 8 8 J", "Eva captured the cards Petr laid out"]


def test_the_victim_of_a_capture_is_named_in_their_own_gender() -> None:
    events = [("auto", 2, "capture 0")]
    bot = ["Eva", "Petr", "Bot (Pokročilý)"]
    assert lines(events, bot, ["f", "m", "m"], "cs") == ["Bot (Pokročilý) ukořistil karty, které vyložila Eva"]
    people = ["Ája", "Petr", "Jana"]
    assert lines(events, people, [None, "m", "f"], "cs") == ["Jana ukořistila karty, které vyložil hráč Ája"]
    assert lines([("auto", 0, "capture 2")], bot, ["f", "m", "m"], "cs") == [
        "Eva ukořistila karty, které vyložil Bot (Pokročilý)"
    ]
