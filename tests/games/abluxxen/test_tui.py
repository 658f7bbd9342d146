"""The Abluxxen terminal renderer: drawn from one seat's view, in the player's language."""

from __future__ import annotations

import random

from rich.console import Console

import hraj
from hraj.games.abluxxen import tui as abluxxen
from hraj.games.abluxxen.rules import Abluxxen, AbluxxenState
from hraj.games.abluxxen.view import AbluxxenView

NAMES = ["Dan", "Petr", "Adam", "Katka"]


def text(view: AbluxxenView, lang: str = "en", names: list[str] = NAMES) -> str:
    console = Console(record=True, width=100)
    console.print(abluxxen.render(view, lang, names))
    return console.export_text()


def example() -> AbluxxenState:
    state = AbluxxenState.from_position(
        Abluxxen(players=4),
        "0: 7,7,7,3,3,1 [] / 13,2 [9,9] / 5,8 [4,4,4 3,3,J] / 4,4 [2,2,2] ; display 1 2 3 4 5 J ; discard 6",
    )
    state.apply(0, "play 7 7 7")
    return state


def test_hand_display_and_layers_are_drawn_for_the_seat() -> None:
    drawn = text(example().view(0))
    assert "Your hand: 1 3 3" in drawn
    assert "Dan captured from Adam: take into hand or leave?" in drawn
    assert "captured: 3 3 J" in drawn
    assert "2×9" in drawn and "3×4" in drawn  # the seats' table counts repeated cards
    assert "1:1  2:2  3:3  4:4  5:5  6:J" in drawn
    assert "Draw pile: 79 cards" in drawn and "discard pile: 1 card" in drawn and "1 cards" not in drawn


def test_other_seats_show_only_sizes_and_what_everyone_saw() -> None:
    state = example()
    state.apply(0, "take")
    petr = text(state.view(1))
    assert "Your hand: 2 13" in petr
    assert "13 2" not in petr  # nobody else's hand
    assert "2×3 J" in petr  # Dan's taken capture is known to all
    assert "Your hand: 1 3 3 3 3 J" in text(state.view(0))


def test_card_lists_are_compact_and_many_layers_keep_one_line_with_the_older_counted() -> None:
    assert abluxxen.compact([7, 14, 7, 3, 7]) == "3 3×7 J" and abluxxen.compact([]) == "—"
    layers = [[13, 13], [5], [9, 9, 14], [1], [12, 12, 12], [2], [7, 14, 14], [4]]
    drawn = abluxxen._layers(layers).plain
    assert "\n" not in drawn and len(drawn) <= abluxxen.LAYERS_WIDTH
    older, shown = drawn.split(" … | ")
    assert drawn.endswith("7 2×J | 4") and int(older.removeprefix("+")) + len(shown.split(" | ")) == len(layers)
    assert abluxxen._layers([[5], [9, 14]]).plain == "5 | 9 J"


def test_spectators_see_no_hand() -> None:
    assert "Your hand" not in text(example().view(None))


def test_czech_and_slovak_use_the_rulebook_words() -> None:
    czech = text(example().view(0), "cs")
    assert "Vaše ruka" in czech
    assert "Zásoba" in czech
    assert "Dobírací balíček" in czech
    slovak = text(example().view(0), "sk")
    assert "Doberací balíček" in slovak


def test_the_shadow_offer_is_drawn_with_two_players() -> None:
    state = AbluxxenState.from_position(
        Abluxxen(players=2), "0: 7,7,J,J [] / 4,J,J [] ; display 1 2 3 4 5 6 ; discard - ; shadow 2,2 5"
    )
    drawn = text(state.view(0), names=["Dan", "Petr"])
    assert "Shadow offer: 2 2  5" in drawn


def test_every_view_of_a_game_renders_in_every_language() -> None:
    rng = random.Random(4)
    state = Abluxxen(players=3).new_state()
    step = 0
    while not state.is_over:
        if step % 25 == 0:
            for lang in ("cs", "sk", "en"):
                assert NAMES[0] in text(state.view(step % 3), lang, NAMES[:3])
        step += 1
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    outcome = state.outcome
    assert outcome is not None
    winners = ", ".join(NAMES[seat] for seat in outcome.winners)
    assert f"Winner: {winners}" in text(state.view(None), "en", NAMES[:3])
    assert f"Vítěz: {winners}" in text(state.view(None), "cs", NAMES[:3])


def test_actions_are_described_in_words() -> None:
    assert abluxxen.describe("play 4 4 J", "en") == "play 4 4 J"
    assert abluxxen.describe("draw slot 3", "en") == "draw from display slot 3"
    assert abluxxen.describe("take", "cs") != "take"
    assert abluxxen.describe("shadow 5", "cs") != abluxxen.describe("shadow 5", "en")


def test_hidden_hands_are_declared() -> None:
    assert hraj.game("abluxxen").hidden_hands is True


def test_card_counts_take_the_czech_and_slovak_plural_forms() -> None:
    state = example()
    state.apply(0, "leave")
    state.apply(2, "discard")  # Adam discards the captured cards and draws three
    czech, slovak, english = (text(state.view(2), lang) for lang in ("cs", "sk", "en"))
    assert "Adam dobírá ještě 3 karty" in czech
    assert "Dobírací balíček: 79 karet" in czech and "odhazovací hromádka: 4 karty" in czech
    assert "Adam doberá ešte 3 karty" in slovak and "Doberací balíček: 79 kariet" in slovak
    assert "Adam draws 3 more cards" in english and "(s)" not in english
