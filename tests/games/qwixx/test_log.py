"""Qwixx's log in sentences: who rolled, who crossed what, in each gender and language."""

from __future__ import annotations

import pytest

from hraj.games.qwixx.log import lines

NAMES = ["Eva", "Bot"]
EVENTS = [
    ("chance", None, "first 0"),
    ("chance", None, "w4 w1 r3 y5 g4 b4"),
    ("move", 0, "r5"),
    ("move", 1, "pass"),
    ("move", 0, "pass"),
    ("auto", 0, "penalty"),
    ("chance", None, "w6 w3 r1 y2 g3 b6"),
    ("move", 1, "b9"),
]


@pytest.mark.parametrize(
    ("gender", "expected"),
    [
        (
            "f",
            [
                "Začíná Eva",
                "Eva hodila □4 □1 ▲3 ★5 ♣4 ◆4",
                "Eva zakřížkovala červenou 5",
                "Bot nic nezakřížkoval",
                "Eva nic nezakřížkovala",
                "Eva si zapsala chybný hod (−5)",
                "Bot hodil □6 □3 ▲1 ★2 ♣3 ◆6",
                "Bot zakřížkoval modrou 9",
            ],
        ),
        (
            "m",
            [
                None,
                "Eva hodil □4 □1 ▲3 ★5 ♣4 ◆4",
                "Eva zakřížkoval červenou 5",
                None,
                "Eva nic nezakřížkoval",
                "Eva si zapsal chybný hod (−5)",
                None,
                None,
            ],
        ),
        (
            None,
            [
                None,
                "Eva – hozeno: □4 □1 ▲3 ★5 ♣4 ◆4",
                "Eva – zakřížkováno: červená 5",
                None,
                "Eva – nic nezakřížkováno",
                "Eva – zapsán chybný hod (−5)",
                None,
                None,
            ],
        ),
    ],
)
def test_czech_lines_are_past_sentences_in_the_players_gender(gender: str | None, expected: list[str | None]) -> None:
    said = lines(EVENTS, NAMES, [gender, "m"], "cs")
    for line, wanted in zip(said, expected, strict=True):
        if wanted is not None:
            assert line == wanted


def test_slovak_follows_the_rulebook_word_zakrizkovat() -> None:
    said = lines(EVENTS, NAMES, ["f", "m"], "sk")
    assert said[2] == "Eva zakrížkovala červenú 5"
    assert said[3] == "Bot nič nezakrížkoval"
    assert said[5] == "Eva si zapísala chybný hod (−5)"


def test_english_is_simple_past() -> None:
    said = lines(EVENTS, NAMES, [None, None], "en")
    assert said[1:4] == ["Eva rolled □4 □1 ▲3 ★5 ♣4 ◆4", "Eva crossed red 5", "Bot crossed nothing"]


def test_the_roll_passes_to_the_next_seat_and_hidden_answers_are_left_out() -> None:
    events = [("chance", None, "first 1"), ("chance", None, "w1 w1 r1 y1 g1 b1"), ("move", 0, "?")]
    events += [("chance", None, "w2 w2 r2 y2 g2 b2")]
    said = lines(events, NAMES, ["f", "m"], "cs")
    assert said[1] is not None and said[1].startswith("Bot hodil")
    assert said[2] is None
    assert said[3] is not None and said[3].startswith("Eva hodila")
