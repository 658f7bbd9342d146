"""Abluxxen rules: the examples of seed 004, the numbered edge cases of the spec
(`rules/abluxxen.md` section 7) and the Abluxxen rulings of `decisions.md`."""

from __future__ import annotations

import random

import pytest

import hraj
from hraj.core.record import AUTO
from hraj.games.abluxxen.rules import (
    CHOOSE,
    DEAL,
    DRAW,
    DRAW_CARD,
    FIRST_SEAT,
    JOKER,
    OPTIONAL,
    OVER,
    PLAY,
    REFILL,
    SHADOW,
    SHADOW_FILL,
    VICTIM,
    Abluxxen,
    AbluxxenState,
    cards_of,
)

DAN, PETR, ADAM, KATKA = range(4)


def table(position: str, players: int = 4, variant: str = "base") -> AbluxxenState:
    """A state at the start of a turn, from the compact position text."""
    return AbluxxenState.from_position(Abluxxen(players=players, variant=variant), position)


def new_game(**options: object) -> AbluxxenState:
    """A fresh state (before the deal) of a game with these options."""
    state = hraj.game("abluxxen", **options).new_state()
    assert isinstance(state, AbluxxenState)
    return state


def leave_in_pile(state: AbluxxenState, *cards: int) -> None:
    """Move every pile card to the discard pile except `cards` (late-game positions)."""
    keep = [0] * (JOKER + 1)
    for card in cards:
        keep[card] += 1
    for card in range(1, JOKER + 1):
        assert state.pile[card] >= keep[card]
        state.discard[card] += state.pile[card] - keep[card]
        state.pile[card] = keep[card]
    state.pile_size = len(cards)


def legal(state: AbluxxenState, seat: int) -> set[str]:
    return {str(action) for action in state.legal_actions(seat)}


def hand(state: AbluxxenState, seat: int) -> list[int]:
    return cards_of(state.hands[seat])


# The seed's examples seat Dan, then clockwise Petr, Adam and Katka.


# --- seed 004: the examples -------------------------------------------------------------


def test_example_dan_plays_three_fours_and_a_joker_as_four_fours() -> None:
    state = table("0: 4,4,4,J,9 [] / 8 [5,5,5,5] / 8 [6,6,6] / 8 [7,7] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play 4 4 4 J")
    assert state.layers[DAN] == [(4, 4, 4, JOKER)]
    # worth four 4s: it captures nothing of four 5s, and four 5s capture it
    assert state.phase == OPTIONAL
    attacker = table("0: 5,5,5,5,9 [] / 6 [4,4,4,J] / 6 [] / 6 [] ; display 1 2 3 4 5 6 ; discard -")
    attacker.apply(DAN, "play 5 5 5 5")
    assert attacker.phase == CHOOSE
    assert attacker.captured == (4, 4, 4, JOKER)  # the captured cards include the joker


def test_example_dans_three_sevens_against_petr_adam_and_katka() -> None:
    state = table("0: 7,7,7,3,3,1 [] / 13,2 [9,9] / 5,8 [4,4,4 3,3,J] / 4,4 [2,2,2] ; display 1 2 3 4 5 J ; discard -")
    state.apply(DAN, "play 7 7 7")
    # Petr's 9 9 are higher and not three cards: no capture; Adam's 3 3 J is captured
    assert len(state.layers[PETR]) == 1
    assert state.phase == CHOOSE
    assert state.victim == ADAM
    assert state.captured == (3, 3, JOKER)
    assert legal(state, DAN) == {"take", "leave"}
    state.apply(DAN, "take")  # Dan already holds two 3s, and the joker is welcome
    assert hand(state, DAN) == [1, 3, 3, 3, 3, JOKER]
    assert state.layers[ADAM] == [(4, 4, 4)]
    # Adam draws three: two from the pile, one from the display; then the display is refilled
    assert state.phase == DRAW
    assert state.to_act == (ADAM,)
    state.apply(ADAM, "draw deck")
    assert state.is_chance
    state.apply_chance("10")
    state.apply(ADAM, "draw deck")
    state.apply_chance("11")
    state.apply(ADAM, "draw slot 6")
    assert hand(state, ADAM) == [5, 8, 10, 11, JOKER]
    assert state.phase == REFILL  # Katka is compared only after the refill
    state.apply_chance("12")
    assert state.display[5] == [12]
    # Katka's 2 2 2 is captured too; Dan does not want it; Katka takes it back and draws nothing
    assert state.phase == CHOOSE
    assert state.victim == KATKA
    state.apply(DAN, "leave")
    assert state.to_act == (KATKA,)
    assert legal(state, KATKA) == {"back", "discard"}
    state.apply(KATKA, "back")
    assert hand(state, KATKA) == [2, 2, 2, 4, 4]
    assert state.layers[KATKA] == []
    # a capture happened, so no optional draw: the paw goes to Petr
    assert state.phase == PLAY
    assert state.active == PETR


def test_example_petrs_thirteen_captures_nothing_and_he_draws_the_joker() -> None:
    state = table("1: 7,1 [] / 13,2 [9,9] / 5,8 [13] / 4,4 [2,2,2 5,5] ; display 1 2 3 4 5 J ; discard -")
    state.apply(PETR, "play 13")
    # Adam's 13 is the same count but only equal; Katka's 5 5 and Dan's nothing differ in count
    assert state.layers[ADAM] == [(13,)]
    assert state.layers[KATKA] == [(2, 2, 2), (5, 5)]
    assert state.phase == OPTIONAL
    assert legal(state, PETR) == {"pass", "draw deck", *(f"draw slot {n}" for n in range(1, 7))}
    state.apply(PETR, "draw slot 6")  # the joker, drawn from the display
    assert hand(state, PETR) == [2, JOKER]
    assert state.phase == REFILL
    state.apply_chance("8")
    assert state.display[5] == [8]
    assert state.phase == PLAY
    assert state.active == ADAM


def test_example_a_joker_played_alone_cannot_be_captured() -> None:
    state = table("0: 13,5 [] / 4 [J] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play 13")
    assert state.phase == OPTIONAL
    assert state.layers[PETR] == [(JOKER,)]


# --- section 7: the numbered edge cases ----------------------------------------------------


def test_edge_1_equal_value_never_captures() -> None:
    state = table("0: 6,6,1 [] / 4 [6,6] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play 6 6")
    assert state.phase == OPTIONAL
    assert state.layers[PETR] == [(6, 6)]


def test_edge_2_different_count_never_captures_however_high() -> None:
    state = table("0: J,J,J,1 [] / 4 [1,1] / 4 [2,2,2,2] / 4 [1] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play J J J")
    assert state.phase == OPTIONAL


def test_edge_3_mixed_set_takes_its_number_and_loses_to_four_fives() -> None:
    loses = table("0: 5,5,5,5,1 [] / 4 [4,4,4,J] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    loses.apply(DAN, "play 5 5 5 5")
    assert loses.captured == (4, 4, 4, JOKER)
    holds = table("0: 4,4,4,4,1 [] / 10 [4,4,4,J] / 10 [] / 10 [] ; display 1 2 3 9 5 6 ; discard -")
    holds.apply(DAN, "play 4 4 4 4")
    assert holds.phase == OPTIONAL


def test_edge_4_jokers_alone_are_worth_14_capture_13s_and_cannot_be_captured() -> None:
    state = table("0: J,J,1 [] / 4 [13,13] / 4 [J,J] / 4 [13,J] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play J J")
    assert (state.phase, state.victim, state.captured) == (CHOOSE, PETR, (13, 13))
    state.apply(DAN, "leave")
    state.apply(PETR, "back")
    # Adam's J J is equal and so safe; Katka's 13 J counts as two 13s and is captured
    assert (state.phase, state.victim, state.captured) == (CHOOSE, KATKA, (13, JOKER))


def test_edge_5_capture_is_mandatory_and_the_only_choices_are_take_and_back() -> None:
    state = table("0: 9,1 [] / 4 [8] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play 9")
    assert state.phase == CHOOSE
    assert legal(state, DAN) == {"take", "leave"}
    assert state.layers[PETR] == []  # gone from Petr's area whatever Dan decides
    state.apply(DAN, "leave")
    assert legal(state, PETR) == {"back", "discard"}
    with pytest.raises(hraj.IllegalAction):
        state.apply(DAN, "pass")


def test_edge_5_discarding_puts_the_cards_on_the_discard_pile_and_the_victim_draws() -> None:
    state = table("0: 9,9,1 [] / 4 [8,8] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play 9 9")
    state.apply(DAN, "leave")
    state.apply(PETR, "discard")
    assert cards_of(state.discard) == [8, 8]
    assert (state.phase, state.drawer, state.owed) == (DRAW, PETR, 2)


def test_edge_6_victim_draws_and_the_display_is_refilled_before_the_next_opponent() -> None:
    state = table("0: 9,1 [] / 4 [8] / 4 [2] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play 9")
    state.apply(DAN, "take")
    assert state.to_act == (PETR,)
    state.apply(PETR, "draw slot 2")
    assert state.phase == REFILL
    assert state.layers[ADAM] == [(2,)]  # Adam not yet considered
    state.apply_chance("7")
    assert state.display[1] == [7]
    assert (state.phase, state.victim) == (CHOOSE, ADAM)


def test_edge_6_refill_comes_after_the_whole_draw_not_after_each_card() -> None:
    state = table("0: 9,9,1 [] / 4 [8,8] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play 9 9")
    state.apply(DAN, "take")
    state.apply(PETR, "draw slot 1")
    assert state.phase == DRAW
    assert state.display[0] == []
    assert "draw slot 1" not in legal(state, PETR)
    state.apply(PETR, "draw slot 2")
    assert state.phase == REFILL
    state.apply_chance("11")
    state.apply_chance("12")
    assert state.display[:2] == [[11], [12]]
    assert state.phase == PLAY


def test_edge_7_newly_exposed_layer_is_not_rechecked_in_the_same_turn() -> None:
    state = table("0: 9,1 [] / 4,5 [] / 4 [2 3] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play 9")
    state.apply(DAN, "leave")
    state.apply(ADAM, "back")
    assert state.layers[ADAM] == [(2,)]
    assert state.phase == PLAY
    assert state.active == PETR
    # ...but a later player may capture it
    state.apply(PETR, "play 4")
    assert (state.phase, state.victim, state.captured) == (CHOOSE, ADAM, (2,))


def test_edge_8_a_victim_who_takes_the_cards_back_draws_nothing() -> None:
    state = table("0: 9,1 [] / 4 [8] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    pile = state.pile_size
    state.apply(DAN, "play 9")
    state.apply(DAN, "leave")
    state.apply(PETR, "back")
    assert hand(state, PETR) == [4, 8]
    assert state.pile_size == pile
    assert state.phase == PLAY


def test_edge_9_optional_single_draw_only_without_any_capture_whatever_was_played() -> None:
    three = table("0: 6,6,6,1 [] / 4 [] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    three.apply(DAN, "play 6 6 6")
    assert three.phase == OPTIONAL
    three.apply(DAN, "draw deck")
    three.apply_chance("9")
    assert hand(three, DAN) == [1, 9]
    assert three.phase == PLAY  # exactly one card
    assert three.active == PETR
    passing = table("0: 6,1 [] / 4 [] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    passing.apply(DAN, "play 6")
    passing.apply(DAN, "pass")  # the draw is optional
    assert (passing.phase, passing.active, hand(passing, DAN)) == (PLAY, PETR, [1])
    captured = table("0: 6,1 [] / 4 [5] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    captured.apply(DAN, "play 6")
    captured.apply(DAN, "leave")
    captured.apply(PETR, "back")
    assert (captured.phase, captured.active) == (PLAY, PETR)


def test_edge_10_emptying_the_hand_ends_the_game_without_capturing() -> None:
    state = table("0: 9 [3,3] / 4 [8] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play 9")
    assert state.is_over
    assert state.layers[PETR] == [(8,)]
    outcome = state.outcome
    assert outcome is not None
    assert outcome.reason == "hand_empty"
    assert outcome.scores == (3.0, 0.0, -1.0, -1.0)
    assert outcome.winners == (DAN,)


def test_edge_11_taking_the_last_display_card_from_an_empty_pile_ends_the_game_mid_draw() -> None:
    state = table("0: 9,9,9,1 [] / 4 [8,8,8] / 4 [2,2,2] / 4 [] ; display 1 - - - - - ; discard -")
    leave_in_pile(state)
    state.apply(DAN, "play 9 9 9")
    state.apply(DAN, "take")
    assert legal(state, PETR) == {"draw slot 1"}  # no draw from an empty pile
    state.apply(PETR, "draw slot 1")
    assert state.is_over  # Petr gets one card of three; Adam is never compared
    assert state.layers[ADAM] == [(2, 2, 2)]
    assert hand(state, PETR) == [1, 4]
    outcome = state.outcome
    assert outcome is not None
    assert outcome.reason == "pile_empty"


def test_edge_11_the_active_player_may_end_the_game_with_the_optional_draw() -> None:
    state = table("0: 9,1 [] / 4 [] / 4 [] / 4 [] ; display - - 5 - - - ; discard -")
    leave_in_pile(state)
    state.apply(DAN, "play 9")
    assert legal(state, DAN) == {"pass", "draw slot 3"}
    state.apply(DAN, "draw slot 3")
    assert state.is_over


def test_edge_11_the_pile_running_out_alone_does_not_end_the_game() -> None:
    state = table("0: 9,9,1 [] / 4 [8,8] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    leave_in_pile(state, 10)
    state.apply(DAN, "play 9 9")
    state.apply(DAN, "take")
    state.apply(PETR, "draw deck")
    state.apply_chance("10")
    assert state.pile_size == 0
    assert not state.is_over
    state.apply(PETR, "draw slot 1")
    assert state.display[0] == []  # no refill from an empty pile
    assert (state.phase, state.active) == (PLAY, PETR)


def test_edge_12_the_discard_pile_is_never_reshuffled() -> None:
    state = table("0: 9,1 [] / 4 [] / 4 [] / 4 [] ; display 1 2 - - - - ; discard 5,5,5")
    leave_in_pile(state)
    state.apply(DAN, "play 9")
    assert "draw deck" not in legal(state, DAN)
    state.apply(DAN, "draw slot 1")
    assert state.display == [[], [2], [], [], [], []]
    assert state.pile_size == 0
    assert state.discard[5] >= 3


def test_edge_13_a_hand_only_shrinks_by_playing() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        state = new_game(players=3 + seed % 3)
        while not state.is_over:
            sizes = [sum(h) for h in state.hands]
            player = None
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng))
            else:
                seat = state.to_act[0]
                action = rng.choice(state.legal_actions(seat))
                if action.kind == "play":
                    player = seat
                state.apply(seat, action)
            for seat, before in enumerate(sizes):
                if sum(state.hands[seat]) < before:
                    assert seat == player
            if state.is_over and state.end_reason == "hand_empty":
                assert player is not None
                assert sum(state.hands[player]) == 0


def test_edge_14_scoring_counts_every_laid_out_card_including_covered_layers() -> None:
    state = table("0: 9 [1 2,2 3,3,3] / 4,4 [5,5,5,5,5] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play 9")
    outcome = state.outcome
    assert outcome is not None
    assert outcome.scores == (7.0, 3.0, -1.0, -1.0)
    assert outcome.details["laid_out"] == [7, 5, 0, 0]


def test_edge_15_a_tie_goes_to_fewer_hand_cards_then_is_shared() -> None:
    fewer = table("0: 9 [1,1] / 4 [6,6,6,6,6] / 4,4,4 [7,7,7,7,7,7,7] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    fewer.apply(DAN, "play 9")
    outcome = fewer.outcome
    assert outcome is not None
    assert outcome.scores[:3] == (3.0, 4.0, 4.0)
    assert outcome.winners == (PETR,)
    shared = table("0: 9 [1,1] / 4 [6,6,6,6,6] / 4 [7,7,7,7,7] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    shared.apply(DAN, "play 9")
    outcome = shared.outcome
    assert outcome is not None
    assert outcome.winners == (PETR, ADAM)


def test_edge_16_expert_n_ones_capture_n_thirteens_or_n_jokers() -> None:
    for target, joker_set in (("13,13", (13, 13)), ("J,J", (JOKER, JOKER)), ("13,J", (13, JOKER))):
        state = table(f"0: 1,1,5 [] / 4 [{target}] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -", variant="expert")
        state.apply(DAN, "play 1 1")
        assert (state.phase, state.captured) == (CHOOSE, joker_set)
    single = table("0: 1,1,5 [] / 4 [13] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -", variant="expert")
    single.apply(DAN, "play 1 1")  # the count rule still holds
    assert single.phase == PLAY
    with_joker = table("0: 1,J,5 [] / 4 [J,J] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -", variant="expert")
    with_joker.apply(DAN, "play 1 J")  # a joker played with 1s counts as a 1
    assert with_joker.captured == (JOKER, JOKER)


def test_edge_16_ones_capture_no_thirteens_outside_the_expert_variant() -> None:
    for variant in ("base", "advanced"):
        state = table("0: 1,5 [] / 4 [13] / 4 [J] / 4 [] ; display 1 2 3 4 5 6 ; discard -", variant=variant)
        state.apply(DAN, "play 1")
        assert not state.captured_any


def test_edge_16_expert_ones_stay_capturable_by_anything_higher() -> None:
    state = table("0: 2,5 [] / 4 [1] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -", variant="expert")
    state.apply(DAN, "play 2")
    assert state.captured == (1,)


def test_edge_17_expert_capture_by_ones_is_mandatory() -> None:
    state = table("0: 1,5 [] / 4 [J] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -", variant="expert")
    state.apply(DAN, "play 1")
    assert state.phase == CHOOSE
    assert legal(state, DAN) == {"take", "leave"}


TWO = "0: 7,7,9,J,J [] / 4,J,J [2,2] ; display 1 2 3 4 5 6 ; discard - ; shadow {shadow}"


def test_edge_18_shadow_capture_is_mandatory_and_the_player_picks_one_group() -> None:
    state = table(TWO.format(shadow="3,3 5,5 8,8 4"), players=2)
    state.apply(DAN, "play 7 7")
    assert state.phase == SHADOW
    assert legal(state, DAN) == {"shadow 3", "shadow 5"}
    state.apply(DAN, "shadow 5")
    assert hand(state, DAN) == [5, 5, 9, JOKER, JOKER]  # shadow captures always go to the hand
    assert state.shadow[5] == 0
    assert state.phase == SHADOW_FILL  # refilled at once, before the opponent is compared
    for card in (1, 2, 6, 9, 10, 11, 12, 12):
        state.apply_chance(str(card))
    assert sum(state.shadow) == 13
    assert (state.phase, state.victim) == (CHOOSE, PETR)


def test_edge_18_a_single_qualifying_group_is_captured_without_a_question() -> None:
    state = table(TWO.format(shadow="3,3 8,8 4"), players=2)
    state.apply(DAN, "play 7 7")
    assert state.events()[-1] == (AUTO, DAN, "shadow 3")
    assert hand(state, DAN) == [3, 3, 9, JOKER, JOKER]
    assert state.phase == SHADOW_FILL


def test_edge_18_shadow_first_then_the_opponent_with_the_usual_choice() -> None:
    state = table("0: 7,7,9,J,J [] / 4,J,J [2,2] ; display 1 2 3 4 5 6 ; discard - ; shadow " + _shadow_13(), 2)
    state.apply(DAN, "play 7 7")
    # the shadow offer holds 13 cards with one pair of 3s: captured, then refilled by two cards
    assert state.phase == SHADOW_FILL
    state.apply_chance("10")
    state.apply_chance("11")
    assert sum(state.shadow) == 13
    assert (state.phase, state.victim, state.captured) == (CHOOSE, PETR, (2, 2))
    assert legal(state, DAN) == {"take", "leave"}


def _shadow_13() -> str:
    """A shadow offer of 13 cards whose only group of two is a pair of 3s."""
    return "3,3 1 2 4,4,4 5,5,5 6,6,6"


def test_edge_19_groups_are_captured_whole_and_only_by_a_set_of_their_size() -> None:
    state = table(TWO.format(shadow="3,3,3 4"), players=2)
    state.apply(DAN, "play 7 7")  # no pair in the offer: 3 3 3 is not split
    assert state.shadow[3] == 3
    assert (state.phase, state.victim) == (CHOOSE, PETR)


def test_edge_20_a_shadow_capture_counts_as_a_capture_so_no_optional_draw() -> None:
    state = table("0: 9,1 [] / 4,J,J [] ; display 1 2 3 4 5 6 ; discard - ; shadow 2", players=2)
    state.apply(DAN, "play 9")
    assert state.phase == SHADOW_FILL
    for card in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1):
        state.apply_chance(str(card))
    assert (state.phase, state.active) == (PLAY, PETR)


def test_edge_21_diverted_card_goes_on_the_lowest_bare_display_card_joker_ranks_14() -> None:
    state = table("0: 9,1 [] / 4,J,J [] ; display J 5 3 3 8 13 ; discard - ; shadow 2", players=2)
    state.apply(DAN, "play 9")
    state.apply_chance("13")  # onto the leftmost 3
    state.apply_chance("J")  # onto the other 3
    state.apply_chance("13")  # onto the 5
    assert state.display == [[JOKER], [5, 13], [3, 13], [3, JOKER], [8], [13]]
    state.apply_chance("13")  # 8, then 13, then the joker
    state.apply_chance("13")
    state.apply_chance("13")
    assert state.display == [[JOKER, 13], [5, 13], [3, 13], [3, JOKER], [8, 13], [13, 13]]
    state.apply_chance("J")  # every card is covered: onto the lowest slot anyway, leftmost 3
    assert state.display[2] == [3, 13, JOKER]
    assert sum(state.shadow) == 0


def test_edge_21_taking_a_stack_counts_as_one_card() -> None:
    state = table("0: 9,9,1 [] / 4,J,J [8,8] ; display 1 2 3 4 5 6 ; discard - ; shadow -", players=2)
    state.display[2] = [3, 13, JOKER]
    state.apply(DAN, "play 9 9")
    state.apply(DAN, "take")
    state.apply(PETR, "draw slot 3")
    assert hand(state, PETR) == [3, 4, 13, JOKER, JOKER, JOKER]
    assert state.phase == DRAW and state.owed == 1


def test_edge_22_a_normal_refill_keeps_jokers_and_13s_in_the_display() -> None:
    state = table("0: 9,1 [] / 4,J,J [] ; display 1 2 3 4 5 6 ; discard - ; shadow 2,2", players=2)
    state.apply(DAN, "play 9")
    assert state.phase == OPTIONAL
    state.apply(DAN, "draw slot 1")
    state.apply_chance("J")
    assert state.display[0] == [JOKER]
    assert state.shadow[2] == 2


def test_edge_23_two_players_get_two_jokers_each_and_the_fifth_stays_in_the_pile() -> None:
    state = new_game(players=2, first=0)
    assert state.hands[0][JOKER] == state.hands[1][JOKER] == 2
    assert state.pile[JOKER] == 1
    assert state.pile_size == 105


def test_edge_24_player_count_is_2_to_5() -> None:
    for players in (1, 6):
        with pytest.raises(hraj.InvalidOption):
            hraj.game("abluxxen", players=players)
    assert new_game(players=3).view(None)["shadow"] is None


# --- the deal -------------------------------------------------------------------------------


def test_deal_order_13_cards_per_seat_then_the_display_left_to_right() -> None:
    state = new_game(players=3, first=1)
    assert state.phase == DEAL
    cards = [1 + n % 13 for n in range(45)]
    for card in cards:
        state.apply_chance(str(card))
    assert [hand(state, seat) for seat in range(3)] == [sorted(cards[13 * s : 13 * s + 13]) for s in range(3)]
    assert state.display == [[card] for card in cards[39:]]
    assert (state.phase, state.active, state.pile_size) == (PLAY, 1, 109 - 45)


def test_deal_for_two_players_deals_11_each_the_display_then_the_shadow_offer() -> None:
    state = new_game(players=2, first=0)
    for n in range(22):
        state.apply_chance(str(1 + n % 12))
    assert [sum(h) for h in state.hands] == [13, 13]
    for card in (5, 6, 1, 9, 10, 11):
        state.apply_chance(str(card))
    assert state.display == [[5], [6], [1], [9], [10], [11]]
    # shadow offer: 13 and J go onto the lowest bare display cards (1, then 5)
    for text in ("3", "13", "J", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "12"):
        assert state.phase == DEAL
        state.apply_chance(text)
    assert state.display[2] == [1, 13]
    assert state.display[0] == [5, JOKER]
    assert sum(state.shadow) == 12
    state.apply_chance("1")
    assert sum(state.shadow) == 13
    assert state.phase == PLAY


def test_start_seat_is_a_chance_event_unless_chosen() -> None:
    state = new_game(players=4)
    assert state.phase == FIRST_SEAT
    assert {str(o) for o, _ in state.chance_outcomes()} == {"first 0", "first 1", "first 2", "first 3"}
    state.apply_chance("first 2")
    assert (state.phase, state.active) == (DEAL, 2)


def test_chance_outcomes_are_the_distinct_remaining_cards_with_their_odds() -> None:
    state = table("0: 9,1 [] / 4 [] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    leave_in_pile(state, 3, 3, 3, JOKER)
    state.apply(DAN, "play 9")
    state.apply(DAN, "draw deck")
    assert state.phase == DRAW_CARD
    assert {str(o): p for o, p in state.chance_outcomes()} == {"3": 0.75, "J": 0.25}
    with pytest.raises(hraj.IllegalAction):
        state.apply_chance("7")


# --- variants -------------------------------------------------------------------------------


def test_advanced_variant_has_no_draw_without_a_capture() -> None:
    state = table("0: 6,1 [] / 4 [] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -", variant="advanced")
    state.apply(DAN, "play 6")
    assert (state.phase, state.active) == (PLAY, PETR)


def test_every_victim_is_captured_from_at_most_once_but_several_victims_in_one_turn() -> None:
    state = table("0: 9,1 [] / 4 [8] / 4 [3] / 4 [8] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play 9")
    victims = []
    while state.phase == CHOOSE:
        victims.append(state.victim)
        state.apply(DAN, "leave")
        state.apply(state.victim, "back")
    assert victims == [PETR, ADAM, KATKA]
    assert state.phase == PLAY


def test_capture_order_starts_at_the_left_neighbour_and_goes_once_around() -> None:
    state = table("2: 4 [3] / 4 [3] / 9,1 [] / 4 [3] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(ADAM, "play 9")
    victims = []
    while state.phase == CHOOSE:
        victims.append(state.victim)
        state.apply(ADAM, "leave")
        assert state.phase == VICTIM
        state.apply(state.victim, "back")
    assert victims == [KATKA, DAN, PETR]


def test_a_played_set_never_captures_its_owner() -> None:
    state = table("0: 9,1 [3] / 4 [] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play 9")
    assert state.layers[DAN] == [(3,), (9,)]
    assert state.phase == OPTIONAL


def test_game_over_freezes_everything() -> None:
    state = table("0: 9 [] / 4 [] / 4 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    state.apply(DAN, "play 9")
    assert state.phase == OVER
    assert state.to_act == ()
    with pytest.raises(hraj.IllegalAction):
        state.apply(PETR, "play 4")


# --- legal moves and refusals -----------------------------------------------------------------


def test_every_set_of_one_value_with_any_jokers_is_a_legal_play() -> None:
    state = table("0: 4,4,4,J,J,9 [] / 4 [] / 4 [] / 4 [] ; display 1 2 3 5 5 6 ; discard -")
    plays = legal(state, DAN)
    # jokers alone: 2; fours: 3 counts x 0-2 jokers = 9; the nine: 1 x 3 = 3
    assert len(plays) == 14
    assert {"play J", "play J J", "play 4 4 4 J J", "play 9 J J", "play 4"} <= plays
    assert "play 4 9" not in plays


def test_refusals_say_why() -> None:
    state = table("0: 4,4,9 [] / 4 [] / 4 [] / 4 [] ; display 1 2 3 5 5 6 ; discard -")
    with pytest.raises(hraj.IllegalAction, match="You do not hold the cards 4 4 4"):
        state.apply(DAN, "play 4 4 4")
    with pytest.raises(hraj.IllegalAction, match="Play one card"):
        state.apply(DAN, "take")
    state = table("0: 4,4,9 [] / 4 [] / 4 [] / 4 [] ; display 1 2 - 5 5 6 ; discard -")
    leave_in_pile(state)
    state.apply(DAN, "play 9")
    with pytest.raises(hraj.IllegalAction, match="Display slot 3 is empty"):
        state.apply(DAN, "draw slot 3")
    with pytest.raises(hraj.IllegalAction, match="The draw pile is empty"):
        state.apply(DAN, "draw deck")
    with pytest.raises(hraj.IllegalAction, match="It is not seat 1's decision"):
        state.apply(PETR, "pass")
    with pytest.raises(hraj.IllegalAction, match="draw one card"):
        state.apply(DAN, "back")
