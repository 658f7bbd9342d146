"""Trefa's log in sentences: rolls, rerolls, the dice written with their values, cross-outs."""

from __future__ import annotations

from hraj.games.trefa.log import lines

NAMES = ["Eva", "Petr"]
EVENTS = [
    ("chance", None, "first 0"),
    ("chance", None, "k4 w1 r3 y5 g4 b4"),
    ("move", 0, "write k,w"),
    ("chance", None, "k6 w2 r2 y2 g2 b2"),
    ("move", 1, "reroll"),
    ("chance", None, "k6 w2 r1 y1 g1 b1"),
    ("auto", 1, "cross y"),
    ("chance", None, "k6 w6 r6 y6 g6 b6"),
    ("move", 0, "stop"),
    ("auto", 0, "cross g"),
]


def test_czech_sentences_in_both_genders() -> None:
    said = lines(EVENTS, NAMES, ["f", "m"], "cs")
    assert said == [
        "Začíná Eva",
        "Eva hodila ■4 □1 ▲3 ★5 ♣4 ◆4",
        "Eva zapsala černou 4, bílou 1",
        "Petr hodil ■6 □2 ▲2 ★2 ♣2 ◆2",
        "Petr přehodil kostky",
        "Petr hodil ■6 □2 ▲1 ★1 ♣1 ◆1",
        "Petr musel vyškrtnout žluté pole",
        "Eva hodila ■6 □6 ▲6 ★6 ♣6 ◆6",
        "Eva skončila tah",
        "Eva vyškrtla zelené pole",
    ]


def test_czech_sentences_for_a_gender_not_given() -> None:
    said = lines(EVENTS, NAMES, [None, None], "cs")
    assert said[2] == "Eva – zapsáno: černá 4, bílá 1"
    assert said[4] == "Petr – kostky přehozeny"
    assert said[6] == "Petr – nic se nehodilo, vyškrtnuto žluté pole"
    assert said[9] == "Eva – vyškrtnuto zelené pole"


def test_slovak_and_english() -> None:
    assert lines(EVENTS, NAMES, ["f", "m"], "sk")[2] == "Eva zapísala čiernu 4, bielu 1"
    assert lines(EVENTS, NAMES, ["f", "m"], "sk")[6] == "Petr musel vyškrtnúť žlté pole"
    assert lines(EVENTS, NAMES, ["f", "m"], "en")[2] == "Eva wrote black 4, white 1"
    assert lines(EVENTS, NAMES, ["f", "m"], "en")[9] == "Eva crossed out the green field"
