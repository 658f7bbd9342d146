"""Backgammon rules: the examples of seed 003 and the numbered edge cases of the spec.

Positions are written from each player's own side ({point: checkers}, 25 = the bar);
checkers not listed are borne off. `position(mover, other, dice)` puts seat 0 on roll.
"""

from __future__ import annotations

import pytest

import hraj
from hraj.core.record import AUTO
from hraj.games.backgammon.moves import START as START_BOARD
from hraj.games.backgammon.moves import pip_count
from hraj.games.backgammon.rules import CUBE, DICE, MOVE, OVER, Backgammon, BackgammonState

from .helpers import START, position, tan
from .helpers import plays as plays_of

MONEY_NO_CUBE = Backgammon(cube=False)
#: Before the roll, a player who may not double still chooses: roll or resign.
ROLL_OR_RESIGN = ["roll", "resign 1", "resign 2", "resign 3"]


def opening(roll: str, game: Backgammon | None = None) -> BackgammonState:
    state = (game or Backgammon()).new_state()
    state.apply_chance(roll)
    return state


# --- seed 003 ------------------------------------------------------------------------------


def test_seed_figure_1_starting_position() -> None:
    state = Backgammon().new_state()
    for seat in (0, 1):
        assert state.boards[seat] == list(START_BOARD)
        assert pip_count(state.boards[seat]) == 167
    assert tan(START) == state.board_arrays()[0] == state.board_arrays()[1]


def test_seed_moves_go_from_24_towards_1() -> None:
    state = opening("31")  # seat 0 rolled 3, seat 1 rolled 1: seat 0 starts with 3-1
    assert state.turn == 0 and state.dice == (3, 1)
    for play in state.legal_actions(0):
        for origin, target in getattr(play, "steps", ()):
            assert target < origin


def test_seed_blue_rolls_6_and_4_two_checkers_or_one_checker_ten_points() -> None:
    # The seed's example: 6 and 4 are two moves; one checker may take both (10 points)
    # only if the intermediate point (4 or 6 away) is open too.
    other = {6: 2}  # their 6 point is my 19: in nobody's way
    state = position({24: 1, 13: 1}, other, (6, 4))
    assert plays_of(state) == {"24/18 13/9", "24/20 13/7", "24/18 18/14", "13/7 7/3"}


def test_seed_ten_points_with_one_checker_needs_an_open_intermediate_point() -> None:
    # my 18 and my 20 are the opponent's 7 and 5 points: both blocked
    state = position({24: 1, 13: 1}, {7: 2, 5: 2}, (6, 4))
    assert plays_of(state) == {"13/7 7/3"}
    with pytest.raises(hraj.IllegalAction):
        state.apply(0, "24/14")
    # one open intermediate point is enough
    state = position({24: 1, 13: 1}, {5: 2}, (6, 4))
    assert "24/18 18/14" in plays_of(state)


def test_seed_doubles_are_played_four_times() -> None:
    state = position(START, START, (5, 5))
    assert state.legal_actions(0)
    assert all(len(play.steps) == 4 for play in state.plays())


def test_seed_both_dice_must_be_played_when_possible() -> None:
    state = opening("31")
    with pytest.raises(hraj.IllegalAction, match="as many dice as possible"):
        state.apply(0, "8/5")
    state.apply(0, "8/5 6/5")
    assert state.boards[0][5] == 2


def test_seed_if_only_one_number_can_be_played_it_must_be_played() -> None:
    # 6-3, one checker on 24: 24/18 blocked (their 7), 21/15 blocked (their 10), 21/18 blocked
    state = position({24: 1}, {7: 2, 10: 2}, (6, 3))
    assert plays_of(state) == {"24/21"}


def test_seed_no_number_playable_loses_the_turn() -> None:
    # on the bar with 6-5: the opponent holds its 6 and 5 points (my 19 and 20)
    state = position({25: 1, 6: 2}, {6: 2, 5: 2}, (6, 5), game=MONEY_NO_CUBE)
    assert state.events() == [(AUTO, 0, "no move")]
    assert state.turn == 1 and state.phase == CUBE and str(state.legal_actions(1)[0]) == "roll"


def test_seed_a_blot_that_is_hit_goes_to_the_bar() -> None:
    # their blot on their 15 point is my 10
    state = position({13: 2, 6: 5}, {15: 1, 6: 2}, (3, 1))
    state.apply(0, "13/10 10/9")
    assert state.boards[1][25] == 1 and state.boards[1][15] == 0


def test_seed_example_entering_with_3_and_5_on_22_or_20() -> None:
    state = position({25: 1, 13: 2}, {1: 2}, (5, 3))
    firsts = {play.steps[0] for play in state.plays()}
    assert firsts == {(25, 22), (25, 20)}


def test_seed_entering_needs_an_open_point() -> None:
    # their 3 point (my 22) holds two checkers: only the 5 enters
    state = position({25: 1, 13: 2}, {3: 2}, (5, 3))
    assert {play.steps[0] for play in state.plays()} == {(25, 20)}


def test_seed_bearing_off_with_the_number_of_the_point() -> None:
    state = position({6: 1, 5: 1, 1: 2}, {12: 2}, (6, 5))
    assert "6/off 5/off" in plays_of(state)


def test_seed_empty_point_means_a_legal_move_with_a_checker_on_a_higher_point() -> None:
    # 5-4 with checkers on 6 and 3: the 5 and the 4 may not bear off from 3 while 6 is occupied
    state = position({6: 1, 3: 1}, {12: 2}, (5, 4))
    assert plays_of(state) == {"6/1 3/off", "6/2 3/off"}
    state.apply(0, "3/off 6/1")  # any order of the same play
    assert state.events()[-1][2] == "6/1 3/off"


def test_seed_all_checkers_home_before_bearing_off() -> None:
    state = position({7: 1, 3: 1}, {12: 2}, (4, 3))
    assert plays_of(state) == {"7/3 3/off"}
    with pytest.raises(hraj.IllegalAction, match="all 15 checkers in the home board"):
        state.apply(0, "3/off 7/4")


def test_seed_hit_during_bear_off_must_come_home_first() -> None:
    game = MONEY_NO_CUBE
    # seat 0 is bearing off with a blot on its 6 point (seat 1's 19); seat 1 hits it
    state = BackgammonState.from_position(game, (tan({6: 1, 5: 2}), tan({22: 1, 6: 2})), turn=1, dice=(3, 1))
    state.apply(1, "22/19* 6/5")
    assert state.boards[0][25] == 1
    state.apply(0, "roll")
    state.apply_chance("65")
    assert state.plays() and all(play.steps[0][0] == 25 for play in state.plays())
    assert not any(target == 0 for play in state.plays() for _, target in play.steps)


def test_seed_first_to_bear_off_all_fifteen_wins() -> None:
    state = position({1: 1}, {19: 2, 6: 1}, (2, 1))
    state.apply(0, "1/off")
    assert state.is_over
    assert state.outcome is not None and state.outcome.winners == (0,)


def test_seed_variant_youngest_starts_with_two_dice() -> None:
    state = Backgammon(variant="seed", first=1).new_state()
    assert state.is_chance and len(state.chance_outcomes()) == 21
    state.apply_chance("31")
    assert state.to_act == (1,) and state.dice == (3, 1)
    assert all("resign" not in str(a) and "double" not in str(a) for a in state.legal_actions(1))


def test_seed_variant_every_win_counts_one() -> None:
    game = Backgammon(variant="seed", match_length=3)
    # the loser has borne off nothing and sits on the bar: a backgammon, yet one point
    state = position({1: 1}, {25: 1, 1: 14}, (2, 1), game=game)
    state.apply(0, "1/off")
    assert state.match_score == (1, 0) and not state.is_over
    # the next game of the seed variant: the loser (seat 1) starts with two dice
    assert state.is_chance and len(state.chance_outcomes()) == 21
    state.apply_chance("21")
    assert state.to_act == (1,)


# --- the spec's numbered edge cases ------------------------------------------------------------


def test_edge_01_larger_die_rule() -> None:
    # 6-1, one checker on 20: 20/14 and 20/19 are open, but 13 (their 12) is closed,
    # so no sequence uses both dice: the 6 must be played
    state = position({20: 1}, {12: 2}, (6, 1))
    assert plays_of(state) == {"20/14"}
    with pytest.raises(hraj.IllegalAction, match="larger one"):
        state.apply(0, "20/19")


def test_edge_02_both_dice_beat_the_larger_die_rule() -> None:
    # 6-1 with checkers on 6 and 5: 6/off first strands the 1 (my 4 is their 21, closed),
    # but 6/5 first lets the 6 bear off from 5: both dice must be used
    state = position({6: 1, 5: 1}, {21: 2}, (6, 1))
    assert plays_of(state) == {"6/5 5/off"}


def test_edge_03_doubles_partially_playable() -> None:
    # 5-5, a lone checker on 24: 19 and 14 are open, 9 (their 16) is closed
    state = position({24: 1}, {16: 2}, (5, 5))
    assert plays_of(state) == {"24/19 19/14"}


def test_edge_04_combined_move_through_a_blocked_point_is_illegal() -> None:
    # 6-4 from 24: both 18 and 20 are closed, 14 is open
    state = position({24: 1, 13: 1}, {7: 2, 5: 2}, (6, 4))
    with pytest.raises(hraj.IllegalAction):
        state.apply(0, "24/14")


def test_edge_05_hitting_on_the_intermediate_point() -> None:
    # their blot on their 5 point is my 20; 24/14 can pass 20 (hit) or 18 (no hit)
    state = position({24: 1, 13: 1}, {5: 1, 2: 2}, (6, 4))
    twin = state.copy()
    state.apply(0, "24/20*/14")
    assert state.boards[1][25] == 1
    assert state.events()[-1][2] == "24/20 20/14"
    twin.apply(0, "24/14")  # without a hit mark: the way that does not hit
    assert twin.boards[1][25] == 0


def test_edge_06_bar_priority() -> None:
    state = position({25: 1, 13: 5}, {1: 2}, (6, 5))
    assert all(play.steps[0][0] == 25 for play in state.plays())
    with pytest.raises(hraj.IllegalAction, match="bar must enter"):
        state.apply(0, "13/7 13/8")


def test_edge_07_entering_with_doubles() -> None:
    # two on the bar and 4-4; their 4 point (my 21) is open: both enter, two more 4s anywhere
    state = position({25: 2, 13: 5, 6: 5}, {1: 2}, (4, 4))
    assert state.plays()
    for play in state.plays():
        assert play.steps[:2] == ((25, 21), (25, 21)) and len(play.steps) == 4
    assert "bar/21 bar/21 13/9 13/9" in plays_of(state)


def test_edge_08_closed_board_turn_passes() -> None:
    closed = dict.fromkeys(range(1, 7), 2)
    for dice in [(6, 6), (5, 1), (2, 1)]:
        state = position({25: 1, 13: 3}, closed, dice, game=MONEY_NO_CUBE)
        assert state.events() == [(AUTO, 0, "no move")]
        assert state.turn == 1


def test_edge_09_bear_off_with_a_higher_die_only_from_the_highest_point() -> None:
    # 6-5 with two on 4 and one on 2: both dice bear off from the 4 point
    state = position({4: 2, 2: 1}, {12: 2}, (6, 5))
    assert plays_of(state) == {"4/off 4/off"}
    with pytest.raises(hraj.IllegalAction):
        state.apply(0, "4/off 2/off")


def test_edge_10_no_obligation_to_bear_off() -> None:
    state = position({6: 1, 2: 1}, {12: 2}, (2, 1))
    assert {"6/4 2/1", "6/5 2/off", "6/4 4/3"} <= plays_of(state)


def test_edge_11_hit_during_bear_off_suspends_bearing_off() -> None:
    state = position({25: 1, 5: 2, 4: 2}, {1: 2}, (6, 5))
    assert state.plays()
    assert not any(target == 0 for play in state.plays() for _, target in play.steps)


@pytest.mark.parametrize(
    ("loser", "points", "how"),
    [
        ({12: 2}, 1, "single"),  # has borne off 13 checkers
        ({12: 15}, 2, "gammon"),  # none off, none in the winner's home board
        ({20: 1, 12: 14}, 3, "backgammon"),  # one in the winner's home board (their 19-24)
        ({25: 1, 12: 14}, 3, "backgammon"),  # one on the bar
    ],
)
def test_edge_12_gammon_and_backgammon_when_the_last_checker_is_borne_off(
    loser: dict[int, int], points: int, how: str
) -> None:
    state = position({1: 1}, loser, (2, 1))
    state.apply(0, "1/off")
    assert state.outcome is not None
    assert state.outcome.scores == (points, -points) and state.outcome.reason == how


def test_edge_13_double_refused_scores_the_pre_double_value_never_a_gammon() -> None:
    # seat 0 owns a 2-cube and is about to gammon seat 1
    state = position({1: 2}, {12: 15}, cube=2, cube_owner=0)
    assert state.phase == CUBE
    state.apply(0, "double")
    state.apply(1, "drop")
    assert state.outcome is not None and state.outcome.scores == (2, -2) and state.outcome.reason == "drop"


def test_edge_14_crawford_game_has_no_doubling() -> None:
    game = Backgammon(match_length=3)
    state = position(START, START, score=(2, 0), crawford=True, game=game)
    assert state.phase == CUBE and [str(a) for a in state.legal_actions(0)] == ROLL_OR_RESIGN
    with pytest.raises(hraj.IllegalAction, match="Crawford"):
        state.apply(0, "double")
    # a whole match: the first player to reach 2 of 3 starts the Crawford game
    state = position({1: 1}, {12: 2}, (2, 1), game=game, score=(1, 0))
    state.apply(0, "1/off")
    assert state.match_score == (2, 0) and state.is_crawford
    state.apply_chance("31")
    state.apply(0, "8/5 6/5")
    assert state.phase == CUBE and [str(a) for a in state.legal_actions(1)] == ROLL_OR_RESIGN


def test_edge_14_post_crawford_the_cube_is_back() -> None:
    game = Backgammon(match_length=3)
    # seat 1 wins the Crawford game; the game after it is post-Crawford
    state = BackgammonState.from_position(
        game, (tan({12: 2}), tan({1: 1})), turn=1, dice=(2, 1), score=(2, 0), crawford=True
    )
    state.apply(1, "1/off")
    assert state.match_score == (2, 1) and not state.is_crawford
    state.apply_chance("31")  # seat 0 starts with 3-1
    state.apply(0, "8/5 6/5")
    assert state.phase == CUBE and "double" in {str(a) for a in state.legal_actions(1)}


def test_edge_15_ruling_a_dead_cube_cannot_be_turned_as_in_gnubg() -> None:
    # Post-Crawford, seat 0 at 2 of 3 wins the match by winning at cube 1: gnubg says
    # "The cube is dead" and hraj, too, refuses the double; seat 1 may double.
    game = Backgammon(match_length=3)
    state = BackgammonState.from_position(game, (tan(START), tan(START)), turn=0, score=(2, 1))
    assert [str(a) for a in state.legal_actions(0)] == ROLL_OR_RESIGN
    with pytest.raises(hraj.IllegalAction, match="dead"):
        state.apply(0, "double")
    state = BackgammonState.from_position(game, (tan(START), tan(START)), turn=1, score=(2, 1))
    assert "double" in {str(a) for a in state.legal_actions(1)}
    owned = BackgammonState.from_position(game, (tan(START), tan(START)), turn=1, cube=2, cube_owner=1, score=(2, 1))
    assert "double" not in {str(a) for a in owned.legal_actions(1)}  # 1 + 2 already wins


def test_edge_16_opening_roll_ties_are_rolled_again() -> None:
    state = Backgammon().new_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 30 and all(str(roll)[0] != str(roll)[1] for roll, _ in outcomes)
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    with pytest.raises(hraj.IllegalAction):
        state.apply_chance("33")
    state.apply_chance("26")  # seat 1 rolled the 6: it starts with 6-2
    assert state.turn == 1 and state.dice == (6, 2) and state.phase == MOVE


def test_edge_17_seed_start_rule_chooses_the_first_player() -> None:
    state = Backgammon(variant="seed").new_state()
    assert {str(o) for o, _ in state.chance_outcomes()} == {"first 0", "first 1"}
    state.apply_chance("first 1")
    state.apply_chance("52")
    assert state.to_act == (1,) and state.dice == (5, 2)


# --- cube, resignations, match ---------------------------------------------------------------


def test_take_gives_the_cube_to_the_taker_who_alone_may_redouble() -> None:
    state = opening("31")
    state.apply(0, "8/5 6/5")
    assert state.phase == CUBE and [str(a) for a in state.legal_actions(1)][:2] == ["roll", "double"]
    state.apply(1, "double")
    assert state.to_act == (0,) and {str(a) for a in state.legal_actions(0)} == {"take", "drop", *ROLL_OR_RESIGN[1:]}
    state.apply(0, "take")
    assert state.cube_value == 2 and state.cube_owner == 0 and state.phase == DICE
    state.apply_chance("21")
    state.apply(1, "13/11 6/5")
    assert state.phase == CUBE  # seat 0 owns the cube
    state.apply(0, "roll")
    state.apply_chance("11")
    state.apply(0, state.legal_actions(0)[0])
    assert state.phase == CUBE and [str(a) for a in state.legal_actions(1)] == ROLL_OR_RESIGN


def test_beaver_redoubles_at_once_and_keeps_the_cube() -> None:
    state = position(START, START, game=Backgammon(beavers=True))
    state.apply(0, "double")
    assert "beaver" in {str(a) for a in state.legal_actions(1)}
    state.apply(1, "beaver")
    assert state.to_act == (0,)
    state.apply(0, "take")
    assert state.cube_value == 4 and state.cube_owner == 1
    dropped = position(START, START, game=Backgammon(beavers=True))
    dropped.apply(0, "double")
    dropped.apply(1, "beaver")
    dropped.apply(0, "drop")
    assert dropped.outcome is not None and dropped.outcome.scores == (-2, 2)


def test_no_beaver_without_the_option() -> None:
    state = position(START, START)
    state.apply(0, "double")
    assert {str(a) for a in state.legal_actions(1)} == {"take", "drop", "resign 1", "resign 2", "resign 3"}


def test_jacoby_rule_counts_a_gammon_single_until_the_cube_is_turned() -> None:
    game = Backgammon(jacoby=True)
    state = position({1: 1}, {12: 15}, (2, 1), game=game)
    state.apply(0, "1/off")
    assert state.outcome is not None and state.outcome.scores == (1, -1)
    state = position({1: 1}, {12: 15}, (2, 1), game=game, cube=2, cube_owner=0)
    state.apply(0, "1/off")
    assert state.outcome is not None and state.outcome.scores == (4, -4)


def test_resignation_accepted_scores_its_level_times_the_cube() -> None:
    state = position(START, START, (3, 1), cube=2, cube_owner=1)
    state.apply(0, "resign 2")
    assert state.to_act == (1,) and state.resignation == 2
    state.apply(1, "accept")
    assert state.outcome is not None and state.outcome.scores == (-4, 4) and state.outcome.reason == "resign"


def test_resignation_declined_goes_back_to_the_same_decision() -> None:
    state = position(START, START, (3, 1))
    before = {str(a) for a in state.legal_actions(0)}
    state.apply(0, "resign single")
    state.apply(1, "decline")
    assert state.phase == MOVE and state.dice == (3, 1)
    assert {str(a) for a in state.legal_actions(0)} == before - {"resign 1"}


def test_match_ends_when_a_player_reaches_the_length() -> None:
    game = Backgammon(match_length=3)
    state = position({1: 1}, {12: 15}, (2, 1), game=game, score=(1, 2))
    state.apply(0, "1/off")  # a gammon: 2 points, 3 in all
    assert state.is_over and state.match_score == (3, 2)
    assert state.outcome is not None and state.outcome.winners == (0,) and state.outcome.scores == (3, 2)
    assert state.events()[-1] == (AUTO, 0, "wins 2")


def test_record_of_a_match_replays() -> None:
    state = opening("31", Backgammon(match_length=1))
    state.apply(0, "8/5 6/5")
    state.apply(1, "resign 1")
    state.apply(0, "accept")
    assert state.is_over
    again = state.game.replay(state.record())
    assert again == state


# --- positions for the file formats -----------------------------------------------------------


def test_board_arrays_follow_gnubg_the_player_on_roll_last() -> None:
    state = position({25: 1, 6: 3}, {24: 2, 3: 1}, turn=1)
    not_on_roll, on_roll = state.board_arrays()
    assert on_roll == tan({25: 1, 6: 3}) and not_on_roll == tan({24: 2, 3: 1})
    assert state.on_roll == 1 and state.boards[1][0] == 11


def test_from_position_reads_every_field() -> None:
    state = position(START, START, (5, 2), turn=1, cube=4, cube_owner=0, score=(1, 3), game=Backgammon(match_length=5))
    assert (state.dice, state.cube_value, state.cube_owner, state.match_score) == ((5, 2), 4, 0, (1, 3))
    assert state.match_length == 5 and not state.is_crawford and state.phase == MOVE


@pytest.mark.parametrize(
    "boards",
    [
        ([0] * 25, [1] * 25),  # 25 checkers
        ([0] * 24, [0] * 25),  # too short
        (tan({6: 2}), tan({19: 1})),  # both on one point (their 6 is my 19)
    ],
)
def test_from_position_refuses_impossible_positions(boards: tuple[list[int], list[int]]) -> None:
    with pytest.raises(hraj.IllegalAction):
        BackgammonState.from_position(Backgammon(), boards)


def test_options_that_do_not_go_together() -> None:
    with pytest.raises(hraj.InvalidOption):
        Backgammon(match_length=5, jacoby=True)
    with pytest.raises(hraj.InvalidOption):
        Backgammon(variant="seed", beavers=True)
    assert Backgammon(variant="seed").options["cube"] is False


def test_over_state_has_no_actions() -> None:
    state = position({1: 1}, {12: 2}, (2, 1))
    state.apply(0, "1/off")
    assert state.phase == OVER and state.legal_actions(0) == [] and state.legal_actions(1) == []


def test_a_play_before_the_cube_decision_is_refused_with_the_reason() -> None:
    state = position(START, START)
    with pytest.raises(hraj.IllegalAction, match="Roll first"):
        state.apply(0, "8/5 6/5")
    state.apply(0, "double")
    with pytest.raises(hraj.IllegalAction, match="take or drop"):
        state.apply(1, "8/5 6/5")


# --- rulings shared with gnubg ------------------------------------------------------------------


def test_ruling_a_player_who_cannot_double_may_resign_before_rolling() -> None:
    # gnubg's matches did this: seat 0 owns the cube, seat 1 resigns before its roll.
    state = opening("31", Backgammon(match_length=3))
    state.apply(0, "8/5 6/5")
    state.apply(1, "double")
    state.apply(0, "take")
    state.apply_chance("21")
    state.apply(1, "13/11 6/5")
    state.apply(0, "roll")
    state.apply_chance("42")
    state.apply(0, "8/4 6/4")
    assert [str(a) for a in state.legal_actions(1)] == ROLL_OR_RESIGN
    state.apply(1, "resign 1")
    state.apply(0, "accept")
    assert state.match_score == (2, 0)


@pytest.mark.parametrize("game", [MONEY_NO_CUBE, Backgammon(match_length=3)], ids=["cube=no", "crawford"])
def test_ruling_resign_before_rolling_without_the_cube_and_in_the_crawford_game(game: Backgammon) -> None:
    crawford = bool(game.match_length)
    state = position(START, START, game=game, score=(2, 0) if crawford else (0, 0), crawford=crawford)
    assert [str(a) for a in state.legal_actions(0)] == ROLL_OR_RESIGN
    state.apply(0, "resign 2")
    state.apply(1, "accept")
    assert state.match_score == ((2, 2) if crawford else (0, 2))


def test_ruling_a_declined_resignation_is_not_offered_again_at_that_level_before_the_next_action() -> None:
    state = position(START, START, (3, 1))
    state.apply(0, "resign 2")
    state.apply(1, "decline")
    with pytest.raises(hraj.IllegalAction, match="just declined"):
        state.apply(0, "resign 1")
    assert "resign 3" in {str(a) for a in state.legal_actions(0)}
    state.apply(0, "8/5 6/5")
    assert "resign 1" in {str(a) for a in state.legal_actions(1)}


def test_ruling_a_doubled_player_may_resign_instead_of_answering() -> None:
    state = position(START, START, cube=2, cube_owner=0)
    state.apply(0, "double")
    state.apply(1, "resign 1")
    assert state.to_act == (0,) and state.view(None)["resign"] == {"by": 1, "level": 1}
    state.apply(0, "decline")
    assert state.to_act == (1,) and {"take", "drop"} <= {str(a) for a in state.legal_actions(1)}
    state.apply(1, "resign 2")
    state.apply(0, "accept")
    assert state.outcome is not None and state.outcome.scores == (4, -4)  # 2 x the cube before the double


def test_ruling_raccoons_up_to_three_redoubles_as_gnubg() -> None:
    state = position(START, START, game=Backgammon(beavers=True))
    state.apply(0, "double")
    state.apply(1, "beaver")
    state.apply(0, "beaver")  # a raccoon
    state.apply(1, "beaver")
    assert "beaver" not in {str(a) for a in state.legal_actions(0)}
    with pytest.raises(hraj.IllegalAction, match="At most 3"):
        state.apply(0, "beaver")
    state.apply(0, "take")
    assert state.cube_value == 16 and state.cube_owner == 1 and state.phase == DICE
    raccoon = position(START, START, game=Backgammon(beavers=True))
    for seat, word in ((0, "double"), (1, "beaver"), (0, "beaver")):
        raccoon.apply(seat, word)
    raccoon.apply(1, "drop")
    assert raccoon.outcome is not None and raccoon.outcome.scores == (4, -4)


def test_ruling_the_cube_stops_at_4096_as_in_gnubg() -> None:
    state = position(START, START, cube=2048, cube_owner=0)
    state.apply(0, "double")
    state.apply(1, "take")
    assert state.cube_value == 4096
    top = position(START, START, cube=4096, cube_owner=0)
    assert "double" not in {str(a) for a in top.legal_actions(0)}


def test_ruling_an_accepted_resignation_scores_the_offer_even_under_jacoby() -> None:
    state = position(START, START, (3, 1), game=Backgammon(jacoby=True))
    state.apply(0, "resign 2")
    state.apply(1, "accept")
    assert state.outcome is not None and state.outcome.scores == (-2, 2)
