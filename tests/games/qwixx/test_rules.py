"""Qwixx rules: the examples of seeds 000/002 and the numbered edge cases of the spec."""

from __future__ import annotations

import random

import pytest

import hraj
from hraj.games.qwixx.rules import COLOUR, OVER, ROLL, WHITE, Qwixx, QwixxState

PETR, EMA, KATKA, MARTIN = range(4)


def table(position: str, players: int) -> QwixxState:
    """A state at the start of a turn, from the compact position text."""
    return QwixxState.from_position(Qwixx(players=players), position)


def legal(state: QwixxState, seat: int) -> set[str]:
    return {str(action) for action in state.legal_actions(seat)}


def crossed(state: QwixxState, seat: int, row: int) -> list[int]:
    return state.crossed_numbers(seat, row)


# --- seed 002: the examples -----------------------------------------------------------


def white_sum_choices(position: str, row: str) -> set[int]:
    """The numbers of `row` that seat 0 may cross, trying every white sum in turn."""
    numbers = set()
    for total in range(2, 13):
        state = table(position, players=2)
        first = max(1, total - 6)
        state.apply_chance(f"w{first} w{total - first} r1 y1 g1 b1")
        if f"{row}{total}" in legal(state, 0):
            numbers.add(total)
    return numbers


def test_example_red_5_and_7_crossed_so_2_3_4_and_6_are_lost() -> None:
    # 12 also needs five crosses in the row first
    assert white_sum_choices("0: r5,7 y10 g6 b10 / -", "r") == {8, 9, 10, 11}


def test_example_yellow_10_leaves_only_11_and_12_and_12_needs_five_crosses() -> None:
    assert white_sum_choices("0: r5,7 y10 g6 b10 / -", "y") == {11}
    assert white_sum_choices("0: y2,3,4,5,10 / -", "y") == {11, 12}


def test_example_green_right_of_6_and_blue_right_of_10() -> None:
    assert white_sum_choices("0: r5,7 y10 g6 b10 / -", "g") == {5, 4, 3}
    assert white_sum_choices("0: r5,7 y10 g6 b10 / -", "b") == {9, 8, 7, 6, 5, 4, 3}


def test_example_petr_says_five_ema_yellow_petr_red_katka_and_martin_pass() -> None:
    state = table("0: - / - / - / -", players=4)
    state.apply_chance("w4 w1 r2 y3 g5 b6")
    assert state.phase == WHITE and set(state.to_act) == {PETR, EMA, KATKA, MARTIN}
    state.apply(EMA, "y5")
    state.apply(PETR, "r5")
    state.apply(KATKA, "pass")
    state.apply(MARTIN, "pass")
    # Petr adds the white four and the blue six: 10 in blue
    assert state.phase == COLOUR and state.to_act == (PETR,)
    state.apply(PETR, "b10")
    assert crossed(state, PETR, 0) == [5] and crossed(state, PETR, 3) == [10]
    assert crossed(state, EMA, 1) == [5]
    assert state.penalties == [0, 0, 0, 0]
    assert state.active == EMA and state.phase == ROLL


def test_example_martina_locks_green_and_the_green_die_leaves_play() -> None:
    state = table("0: g12,11,10,9,8 / -", players=2)
    state.apply_chance("w1 w1 r3 y3 g3 b3")
    state.apply(0, "g2")
    state.apply(1, "pass")
    assert state.locked == [False, False, True, False]
    assert state.locks[0][2] and state.crosses(0, 2) == 7
    while state.phase != ROLL:
        state.apply(state.to_act[0], "pass")
    with pytest.raises(hraj.IllegalAction):
        state.apply_chance("w1 w2 r3 y4 g5 b6")
    state.apply_chance("w1 w2 r3 y4 b6")
    assert str(state.roll) == "w1 w2 r3 y4 b6"


def test_example_ema_rolls_double_six_and_red_and_yellow_lock_at_once() -> None:
    # Green was locked earlier (by Katka); Ema is active; Petr locks yellow, Ema red.
    state = table("1: y2,3,4,5,6 / r2,3,4,5,6 / g12,11,10,9,8,2+ / -", players=4)
    state.apply_chance("w6 w6 r1 y1 b1")
    state.apply(EMA, "r12")
    state.apply(PETR, "y12")
    state.apply(KATKA, "pass")
    state.apply(MARTIN, "pass")
    assert state.is_over and state.end_reason == "locks"
    assert state.locked == [True, True, True, False]
    assert state.penalties[EMA] == 0
    assert state.legal_actions(EMA) == []


def test_example_ema_has_70_points() -> None:
    state = table("0: r2,3,4,5 y2,3,4 g12,11,10,9,8,7,6 b12,11,10,9,8,7,6,5 p2", players=1)
    assert [state.crosses(0, row) for row in range(4)] == [4, 3, 7, 8]
    assert state.score(0) == 70


# --- spec section 8: numbered edge cases --------------------------------------------


def test_edge_1_white_sum_comes_before_the_colour_sum() -> None:
    state = table("0: - / -", players=2)
    state.apply_chance("w4 w1 r2 y3 g5 b6")
    with pytest.raises(hraj.IllegalAction, match="white dice show 5"):
        state.apply(0, "b10")


def test_edge_2_both_crosses_in_one_row_colour_right_of_white() -> None:
    state = table("0: - / -", players=2)
    state.apply_chance("w3 w2 r4 y1 g1 b1")  # white 5; red options 7 and 6
    state.apply(0, "r5")
    state.apply(1, "pass")
    assert {"r6", "r7"} <= legal(state, 0)
    state.apply(0, "r7")
    assert crossed(state, 0, 0) == [5, 7]
    # the other way round is impossible: a colour number left of the white cross
    state = table("0: - / -", players=2)
    state.apply_chance("w6 w2 r1 y1 g1 b1")  # white 8; red options 7 and 3
    state.apply(0, "r8")
    state.apply(1, "pass")
    assert not {"r7", "r3"} & legal(state, 0)


def test_edge_3_skipping_the_white_sum_and_crossing_the_colour_sum_is_no_penalty() -> None:
    state = table("0: - / -", players=2)
    state.apply_chance("w3 w2 r4 y1 g1 b1")
    state.apply(0, "pass")
    state.apply(1, "pass")
    state.apply(0, "r7")
    assert state.penalties == [0, 0]


def test_edge_4_active_player_may_take_a_voluntary_penalty() -> None:
    state = table("0: - / -", players=2)
    state.apply_chance("w3 w2 r4 y1 g1 b1")
    state.apply(0, "pass")
    state.apply(1, "pass")
    state.apply(0, "pass")
    assert state.penalties == [1, 0]
    assert state.events()[-1] == ("auto", 0, "penalty")


def test_edge_5_non_active_players_are_never_penalised() -> None:
    state = table("0: - / - / -", players=3)
    state.apply_chance("w3 w2 r4 y1 g1 b1")
    state.apply(0, "r5")
    state.apply(1, "pass")
    state.apply(2, "pass")
    state.apply(0, "pass")
    assert state.penalties == [0, 0, 0]


def test_edge_6_either_white_die_pairs_with_any_coloured_die() -> None:
    state = table("0: - / -", players=2)
    state.apply_chance("w1 w5 r3 y6 g2 b4")
    state.apply(0, "pass")
    state.apply(1, "pass")
    assert legal(state, 0) == {"pass", "r4", "r8", "y7", "y11", "g3", "g7", "b5", "b9"}


def test_edge_7_lock_with_five_crosses_gives_seven() -> None:
    state = table("0: r2,3,4,5,6 / -", players=2)
    state.apply_chance("w6 w6 r1 y1 g1 b1")
    state.apply(0, "r12")
    state.apply(1, "pass")
    assert state.crosses(0, 0) == 7
    assert state.score(0) == 28


def test_edge_7_four_crosses_are_not_enough_to_lock() -> None:
    state = table("0: r2,3,4,5 / -", players=2)
    state.apply_chance("w6 w6 r1 y1 g1 b1")
    with pytest.raises(hraj.IllegalAction, match="at least 5 crosses"):
        state.apply(0, "r12")


def test_edge_8_the_rightmost_number_always_locks_the_row() -> None:
    state = table("0: b12,11,10,9,8 / -", players=2)
    state.apply_chance("w1 w1 r1 y1 g1 b1")
    state.apply(0, "b2")
    state.apply(1, "pass")
    assert state.locks[0][3] and state.locked[3]


def test_edge_9_without_five_crosses_no_lock_even_when_another_locks() -> None:
    state = table("0: r2,3,4,5,6 / r2,3,4,5 / -", players=3)
    state.apply_chance("w6 w6 r1 y1 g1 b1")
    assert "r12" in legal(state, 0)
    assert "r12" not in legal(state, 1)


def test_edge_10_simultaneous_locks_of_one_row_give_both_players_the_lock() -> None:
    state = table("0: r2,3,4,5,6 / r3,4,5,6,7 / -", players=3)
    state.apply_chance("w6 w6 r1 y1 g1 b1")
    state.apply(1, "r12")
    assert not state.locked[0]  # nothing takes effect before everyone answered
    state.apply(0, "r12")
    state.apply(2, "pass")
    assert state.locks[0][0] and state.locks[1][0]
    assert state.crosses(0, 0) == state.crosses(1, 0) == 7


def test_edge_11_a_lock_in_the_colour_step_ends_the_game_at_once() -> None:
    state = table("0: y2,3,4,5,6 / g12,11,10,9,8,2+", players=2)
    state.apply_chance("w6 w1 r1 y6 b1")  # white 7; yellow 6+6 = 12
    state.apply(0, "pass")
    state.apply(1, "pass")
    state.apply(0, "y12")
    assert state.is_over and state.end_reason == "locks"


def test_edge_12_a_locked_rows_die_is_not_rolled_nor_usable() -> None:
    state = table("0: - / g12,11,10,9,8,2+", players=2)
    outcome = state.sample_chance(random.Random(1))
    assert "g" not in str(outcome)
    state.apply_chance("w1 w2 r1 y1 b1")
    state.apply(0, "pass")
    state.apply(1, "pass")
    assert not any(action.startswith("g") for action in legal(state, 0))


def test_edge_12_a_row_locked_in_the_white_step_is_closed_for_that_turns_colour_step() -> None:
    # Seat 1 locks red with the white 12; active seat 0 could add red 5 + white 6 = 11,
    # but red is locked "from that moment" (spec section 5), before the colour step.
    state = table("0: r2 / r2,3,4,5,6", players=2)
    state.apply_chance("w6 w6 r5 y1 g1 b1")
    state.apply(0, "pass")
    state.apply(1, "r12")
    assert state.phase == COLOUR and state.locked[0]
    assert not any(action.startswith("r") for action in legal(state, 0))
    with pytest.raises(hraj.IllegalAction, match="red row is locked"):
        state.apply(0, "r11")


def test_edge_7_the_active_players_white_cross_counts_toward_the_five_before_a_lock() -> None:
    # Four red crosses; the white 7 is the fifth, so red 6 + white 6 = 12 may lock red
    # in the colour step of the same turn.
    state = table("0: r2,3,4,5 / -", players=2)
    state.apply_chance("w6 w1 r6 y1 g1 b1")
    state.apply(0, "r7")
    state.apply(1, "pass")
    assert "r12" in legal(state, 0)
    state.apply(0, "r12")
    assert state.locked[0] and state.crosses(0, 0) == 7


def test_edge_13_no_penalty_when_the_game_ends_in_the_white_step() -> None:
    state = table("0: - / r2,3,4,5,6 g12,11,10,9,8,2+", players=2)
    state.apply_chance("w6 w6 r1 y1 b1")
    state.apply(0, "pass")
    state.apply(1, "r12")
    assert state.is_over and state.penalties == [0, 0]


def test_edge_14_the_fourth_penalty_ends_the_game_at_the_end_of_the_turn() -> None:
    state = table("0: p3 / -", players=2)
    state.apply_chance("w3 w2 r4 y1 g1 b1")
    state.apply(0, "pass")
    state.apply(1, "y5")
    state.apply(0, "pass")
    assert state.is_over and state.end_reason == "penalties"
    assert state.penalties[0] == 4
    assert state.outcome is not None and state.outcome.scores == (-20.0, 1.0)


def test_edge_15_a_locked_row_still_scores_for_everyone() -> None:
    state = table("0: r2,3 / r2,3,4,5,6,12+ g12,11,10,9,8,2+", players=2)
    assert state.score(0) == 3
    assert state.score(1) == 56


def test_edge_16_totals_may_be_negative() -> None:
    assert table("0: r5 p3 / -", players=2).score(0) == -14


def test_edge_17_a_tie_is_a_shared_victory() -> None:
    state = table("0: r2,3,4 p3 / y2 p3", players=2)
    state.apply_chance("w6 w6 r1 y1 g1 b1")
    state.apply(0, "pass")
    state.apply(1, "pass")
    state.apply(0, "pass")  # the fourth penalty: 6 - 20 = 1 - 15
    assert state.outcome is not None
    assert state.outcome.scores == (-14.0, -14.0)
    assert state.outcome.winners == (0, 1)


def test_edge_18_white_answers_are_secret_until_all_are_in() -> None:
    state = table("0: - / -", players=2)
    state.apply_chance("w4 w1 r2 y3 g5 b6")
    state.apply(0, "r5")
    assert state.view(0)["my_answer"] == "r5"
    assert "my_answer" not in state.view(1) and "my_answer" not in state.view(None)
    assert state.view(None)["sheets"][0]["rows"]["r"]["crossed"] == []
    guess = state.determinize(1, random.Random(0))
    assert 0 in guess.to_act and 0 not in guess.answers


def test_edge_19_the_start_is_random_unless_chosen() -> None:
    random_start = Qwixx(players=3).new_state()
    assert random_start.is_chance
    assert {str(o) for o, _ in random_start.chance_outcomes()} == {"first 0", "first 1", "first 2"}
    random_start.apply_chance("first 2")
    assert random_start.active == 2
    chosen = Qwixx(players=3, first=1).new_state()
    assert chosen.active == 1 and chosen.phase == ROLL


def test_edge_20_two_to_five_players_and_solo_practice() -> None:
    for players in range(1, 6):
        assert Qwixx(players=players).players == players
    with pytest.raises(hraj.InvalidOption):
        Qwixx(players=6)
    with pytest.raises(hraj.InvalidOption):
        Qwixx(players=2, first=2)
    solo = Qwixx(players=1).new_state()
    solo.apply_chance("w1 w2 r1 y1 g1 b1")
    solo.apply(0, "pass")
    solo.apply(0, "pass")
    assert solo.active == 0 and solo.penalties == [1]


# --- decisions.md ---------------------------------------------------------------------


def test_decision_a_seat_with_only_pass_is_skipped_in_the_white_step() -> None:
    state = table("0: r12,11+ y12 g12 b12 / -".replace("r12,11+ ", "r11 "), players=2)
    state.apply_chance("w1 w1 r1 y1 g1 b1")  # white 2: seat 0 has nothing left of 2 open
    assert state.to_act == (1,)


def test_decision_when_nobody_can_cross_the_turn_moves_on_with_a_penalty() -> None:
    state = table("0: r11 y11 g3 b3 / r11 y11 g3 b3", players=2)
    state.apply_chance("w6 w6 r1 y1 g6 b6")  # 12 needs five crosses; colour sums all blocked
    assert state.penalties == [1, 0] and state.active == 1 and state.phase == ROLL


def test_decision_game_over_means_nothing_else_happens() -> None:
    state = table("0: p3 / -", players=2)
    state.apply_chance("w3 w2 r4 y1 g1 b1")
    state.apply(0, "pass")
    state.apply(1, "pass")
    state.apply(0, "pass")
    assert state.phase == OVER
    with pytest.raises(hraj.IllegalAction, match="over"):
        state.apply(1, "pass")
    with pytest.raises(hraj.IllegalAction):
        state.apply_chance("w1 w1 r1 y1 g1 b1")


# --- notation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"), [("r5", "r5"), (" R 5 ", "r5"), ("g12", "g12"), ("PASS", "pass"), ("b 2", "b2")]
)
def test_actions_parse_leniently_and_print_canonically(text: str, canonical: str) -> None:
    assert str(Qwixx().parse_action(text)) == canonical


@pytest.mark.parametrize("text", ["r13", "r1", "z5", "5r", "red 5", "", "cross"])
def test_bad_action_text_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(hraj.InvalidAction):
        Qwixx().parse_action(text)


@pytest.mark.parametrize(
    "text", ["w1 w2 r3", "w1 r2 y3 g4 b5", "w1 w2 w3 r1 y1 g1 b1", "w7 w1 r1 y1 g1 b1", "w1 w2 r1 r2"]
)
def test_bad_rolls_are_refused(text: str) -> None:
    state = table("0: - / -", players=2)
    with pytest.raises(hraj.HrajError):
        state.apply_chance(text)
    assert state.phase == ROLL and state.events() == []


def test_illegal_move_reasons_name_the_rule() -> None:
    state = table("0: r7 / -", players=2)
    state.apply_chance("w3 w2 r4 y1 g1 b1")
    with pytest.raises(hraj.IllegalAction, match="left to right"):
        state.apply(0, "r5")
    state = table("0: - / g12,11,10,9,8,2+", players=2)
    state.apply_chance("w3 w2 r4 y1 b1")
    with pytest.raises(hraj.IllegalAction, match="green row is locked"):
        state.apply(0, "g5")


def test_position_text_round_trips() -> None:
    rng = random.Random(11)
    for _ in range(50):
        state = Qwixx(players=3, first=0).new_state()
        steps = rng.randrange(0, 60)
        while steps and not state.is_over:
            steps -= 1
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng))
            else:
                seat = state.to_act[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.phase != ROLL:
            continue
        again = QwixxState.from_position(state.game, state.position())  # type: ignore[arg-type]
        assert again.position() == state.position()
        assert again.view(None)["sheets"] == state.view(None)["sheets"]
