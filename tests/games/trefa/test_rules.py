"""Trefa rules: the rulebook's examples (seed 001), the numbered edge cases of the
specification (rules/trefa.md section 8) and the project's decisions, each by name.

Layouts used (shipped sheets, printed numbers 6 5 4 3 2 1 left to right):
sheet a row 1 `yrgbwk` (Sarah's row: y6 r5 g4 b3 w2 k1),
sheet b row 1 `rwgkyb` (Emma's row: r6 w5 g4 k3 y2 b1),
sheet c row 5 `bgrkwy` (Linus's last row: b6 g5 r4 k3 w2 y1).
"""

from __future__ import annotations

import pytest

import hraj
from hraj.core.record import AUTO
from hraj.games.trefa.rules import REROLL_MOVE, STOP, Roll, Trefa, TrefaState, write


def turn_start(position: str) -> TrefaState:
    """A turn's start from position text; each seat plays the sheet its text names."""
    letters = [sheet.split()[0] for sheet in position.partition(":")[2].split("/")]
    game = Trefa(players=len(letters), first=0, sheets="".join(letters))
    return TrefaState.from_position(game, position)


def fields(state: TrefaState, seat: int, row: int) -> list[int | None]:
    return [field["value"] for field in state.view(None)["sheets"][seat]["rows"][row]["fields"]]


def hit_colours(state: TrefaState, seat: int, row: int) -> list[str]:
    return [f["colour"] for f in state.view(None)["sheets"][seat]["rows"][row]["fields"] if f["hit"]]


# --- the rulebook's examples ---------------------------------------------------------------


def test_sarah_writes_black_1_blue_3_yellow_4_and_ticks_two_hits() -> None:
    state = turn_start("0: a")
    state.apply_chance("k1 w4 r1 y4 g2 b3")
    legal = {str(a) for a in state.legal_actions(0)}
    # She could also have written red 1 and green 2 ...
    assert {"write k,y,b", "write k,r,y,g,b", "write r", "write g"} <= legal
    # ... but not white 4, which is higher than the printed white 2.
    assert not any("w" in a.removeprefix("write ") for a in legal)
    with pytest.raises(hraj.IllegalAction, match="white die shows 4, more than the printed 2"):
        state.apply(0, "write k,w")
    state.apply(0, "write k,y,b")
    assert fields(state, 0, 0) == [4, None, None, 3, None, 1]  # y r g b w k
    assert hit_colours(state, 0, 0) == ["b", "k"]  # yellow 4 on a printed 6 is no hit


def test_tim_rerolls_6_4_3_3_1_1_keeping_the_two_ones() -> None:
    state = turn_start("0: a")
    state.apply_chance("k6 w4 r3 y3 g1 b1")
    state.apply(0, "reroll")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 6**4  # the other four dice are thrown again
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert all(isinstance(o, Roll) and o.g == 1 and o.b == 1 for o, _ in outcomes)
    for die in "kwry":
        assert {getattr(o, die) for o, _ in outcomes} == {1, 2, 3, 4, 5, 6}
    with pytest.raises(hraj.IllegalAction, match="cannot happen"):
        state.apply_chance("k6 w4 r3 y3 g2 b1")
    state.apply_chance("k2 w2 r5 y6 g1 b1")
    assert state.view(0)["kept"] == ["g", "b"]


def test_emma_must_cross_out_white_when_green_5_and_white_6_do_not_fit() -> None:
    # Four fields filled from earlier turns: r5 . . k2 y2 b1; white and green are empty.
    state = turn_start("0: b 5..221")
    state.apply_chance("k4 w6 r3 y5 g5 b2")
    assert state.legal_actions(0) == [REROLL_MOVE, STOP]
    state.apply(0, "stop")
    assert fields(state, 0, 0) == [5, 0, None, 2, 2, 1]
    assert state.events()[-1] == (AUTO, 0, "cross w")


def test_emma_scores_20_for_5_0_4_2_2_1_with_three_hits() -> None:
    state = turn_start("0: b 5x.221")
    state.apply_chance("k6 w6 r6 y6 g4 b6")
    state.apply(0, "write g")
    row = state.view(None)["sheets"][0]["rows"][0]
    assert [f["value"] for f in row["fields"]] == [5, 0, 4, 2, 2, 1]
    assert row["complete"]
    assert row["hits"] == 3
    assert row["points"] == (5 + 0 + 4 + 2 + 2 + 1) + 6 == 20
    assert state.view(None)["sheets"][0]["current_row"] == 1


def test_linus_completes_his_fifth_row_with_88_and_the_game_ends() -> None:
    # Linus (seat 2) rows: 5x4221 = 14+6, 6x3321 = 15+10, 1111x1 = 5+1, x5x3x1 = 9+6, and 2x4.21 open.
    state = turn_start("2: a 5x4221 1..... / b 5x42.. / c 5x4221 6x3321 1111x1 x5x3x1 2x4.21")
    state.apply_chance("k3 w6 r6 y6 g6 b6")
    state.apply(2, "write k")  # 2+0+4+3+2+1 = 12 with four hits (+10) = 22
    assert state.is_over
    outcome = state.outcome
    assert outcome is not None
    rows = outcome.details["rows"]
    assert isinstance(rows, list) and rows[2] == [20, 25, 6, 15, 22]
    assert outcome.scores[2] == 20 + 25 + 6 + 15 + 22 == 88
    assert outcome.winners == (2,)
    assert outcome.reason == "five rows"


# --- the numbered edge cases (rules/trefa.md section 8) ----------------------------------


def test_edge_1_reroll_is_all_or_nothing_except_ones() -> None:
    game = Trefa(players=1)
    with pytest.raises(hraj.InvalidAction):
        game.parse_action("reroll k")
    state = turn_start("0: a")
    state.apply_chance("k6 w6 r1 y6 g6 b6")
    state.apply(0, "reroll")
    assert {o.r for o, _ in state.chance_outcomes() if isinstance(o, Roll)} == {1}
    assert len(state.chance_outcomes()) == 6**5  # the kept 6s are thrown again too


def test_edge_2_only_one_reroll() -> None:
    state = turn_start("0: a")
    state.apply_chance("k6 w6 r6 y6 g6 b6")
    state.apply(0, "reroll")
    state.apply_chance("k6 w6 r6 y6 g6 b1")
    assert REROLL_MOVE not in state.legal_actions(0)
    with pytest.raises(hraj.IllegalAction, match="Only one reroll"):
        state.apply(0, "reroll")


def test_edge_3_ones_stay_and_may_be_written_or_not() -> None:
    state = turn_start("0: a")
    state.apply_chance("k1 w6 r6 y6 g6 b6")
    state.apply(0, "reroll")
    with pytest.raises(hraj.IllegalAction):
        state.apply_chance("k2 w6 r6 y6 g6 b6")
    state.apply_chance("k1 w6 r6 y6 g6 b3")
    legal = {str(a) for a in state.legal_actions(0)}
    assert {"write k", "write b", "write k,b", "write y"} <= legal  # y6 fits the printed 6
    state.apply(0, "write b")  # the kept black 1 is not written
    assert fields(state, 0, 0) == [None, None, None, 3, None, None]


def test_edge_4_the_reroll_decision_comes_before_writing() -> None:
    state = turn_start("0: a / b")
    state.apply_chance("k1 w6 r6 y6 g6 b6")
    state.apply(0, "write k")
    # writing ends the turn: the next seat throws, no reroll is left for seat 0
    assert state.is_chance
    assert state.view(None)["active"] == 1
    assert state.legal_actions(0) == []


def test_edge_5_writing_is_mandatory_when_a_die_fits() -> None:
    state = turn_start("0: a")
    state.apply_chance("k6 w6 r6 y6 g6 b6")  # only yellow 6 fits (printed 6)
    assert STOP not in state.legal_actions(0)
    with pytest.raises(hraj.IllegalAction, match="must write at least one"):
        state.apply(0, "stop")


def test_edge_6_writing_fewer_dice_than_possible_is_allowed() -> None:
    state = turn_start("0: a")
    state.apply_chance("k1 w2 r5 y6 g4 b3")  # six hits on offer
    assert write("kwrygb") in state.legal_actions(0)
    state.apply(0, "write y")
    assert fields(state, 0, 0) == [6, None, None, None, None, None]


def test_edge_7_the_cross_out_takes_the_leftmost_empty_field() -> None:
    # r . g k . b filled: the empty fields are white (second) and yellow (fifth)
    state = turn_start("0: b 6.4x.1")
    state.apply_chance("k1 w6 r1 y3 g1 b1")
    state.apply(0, "reroll")
    state.apply_chance("k1 w6 r1 y3 g1 b1")  # still nothing fits: crossed out by itself
    assert fields(state, 0, 0) == [6, 0, 4, 0, None, 1]
    assert state.events()[-1] == (AUTO, 0, "cross w")


def test_edge_8_a_crossed_field_scores_0_and_never_takes_a_number() -> None:
    state = turn_start("0: b .x....")
    state.apply_chance("k6 w1 r6 y6 g6 b6")
    assert "w" not in state.view(0)["writable"]
    assert write("w") not in state.legal_actions(0)
    assert state.view(None)["sheets"][0]["rows"][0]["points"] == 0


def test_edge_9_a_one_always_fits_so_writing_becomes_mandatory() -> None:
    state = turn_start("0: b 6.4x21")  # only white (printed 5) is empty
    state.apply_chance("k6 w6 r6 y6 g6 b6")
    state.apply(0, "reroll")
    state.apply_chance("k6 w1 r6 y6 g6 b6")
    assert state.legal_actions(0) == [write("w")]  # no cross-out happened
    assert state.to_act == (0,)


def test_edge_10_dice_of_filled_fields_are_useless() -> None:
    state = turn_start("0: a 6.....")  # yellow is filled
    state.apply_chance("k6 w6 r6 y1 g6 b6")
    assert state.view(0)["writable"] == []
    with pytest.raises(hraj.IllegalAction, match="yellow field of your current row is already filled"):
        state.apply(0, "write y")


def test_edge_11_no_spill_over_into_the_next_row() -> None:
    state = turn_start("0: a 6543.1 / b")  # only white (printed 2) is open in row 1
    state.apply_chance("k1 w2 r1 y1 g1 b1")
    assert state.legal_actions(0) == [REROLL_MOVE, write("w")]
    state.apply(0, "write w")
    sheet = state.view(None)["sheets"][0]
    assert sheet["rows"][0]["complete"]
    assert sheet["current_row"] == 1
    assert all(value is None for value in fields(state, 0, 1))  # the other five 1s are lost


def test_edge_12_a_row_completed_by_a_cross_out_is_scored() -> None:
    state = turn_start("0: a 6543.1")
    state.apply_chance("k6 w6 r6 y6 g6 b6")
    state.apply(0, "stop")
    row = state.view(None)["sheets"][0]["rows"][0]
    assert row["complete"]
    assert row["points"] == 6 + 5 + 4 + 3 + 0 + 1 + 15  # five hits, the crossed field 0
    assert state.view(None)["sheets"][0]["current_row"] == 1


def test_edge_13_an_unfinished_row_scores_its_numbers_without_bonus() -> None:
    # seat 1 ends the game; the last field of its row 5 (rwbgyk) is black
    state = turn_start("1: a 6543.. / b 654321 654321 654321 654321 65432.")
    state.apply_chance("k1 w6 r6 y6 g6 b6")
    state.apply(1, "write k")
    outcome = state.outcome
    assert outcome is not None
    rows = outcome.details["rows"]
    assert isinstance(rows, list) and rows[0] == [6 + 5 + 4 + 3, 0, 0, 0, 0]  # four hits, no bonus
    assert outcome.scores[0] == 18


def test_edge_14_the_game_ends_at_once_without_equalising_turns() -> None:
    # the last field of sheet a row 5 (kgywrb) is blue
    state = turn_start("0: a 654321 654321 654321 654321 65432. / b / c")
    state.apply_chance("k6 w6 r6 y6 g6 b1")
    state.apply(0, "write b")
    assert state.is_over
    assert state.to_act == ()
    assert not state.is_chance
    assert [s["current_row"] for s in state.view(None)["sheets"]] == [None, 0, 0]


def test_edge_15_a_tie_is_a_shared_victory() -> None:
    state = turn_start("0: a xxxxxx xxxxxx xxxxxx xxxxxx xxxxx. / b 2.....")
    state.apply_chance("k6 w6 r6 y6 g6 b1")
    state.apply(0, "write b")  # row 5: 1 with one hit = 2; seat 1 has 2 written, no bonus
    outcome = state.outcome
    assert outcome is not None
    assert outcome.scores == (2.0, 2.0)
    assert outcome.winners == (0, 1)


def test_edge_16_only_the_active_player_acts() -> None:
    state = turn_start("0: a / b / c")
    state.apply_chance("k1 w1 r1 y1 g1 b1")
    assert state.to_act == (0,)
    assert state.legal_actions(1) == [] and state.legal_actions(2) == []
    with pytest.raises(hraj.IllegalAction, match="not seat 1's decision"):
        state.apply(1, "write k")


@pytest.mark.parametrize("players", [0, 7])
def test_edge_17_one_to_six_players(players: int) -> None:
    with pytest.raises(hraj.InvalidOption):
        hraj.game("trefa", players=players)


def test_edge_17_solo_play_starts_without_choosing_a_first_player() -> None:
    state = hraj.game("trefa", players=1).new_state()
    assert state.is_chance
    assert all(isinstance(o, Roll) for o, _ in state.chance_outcomes()[:5])
    assert len(state.chance_outcomes()) == 6**6


# --- the project's decisions (rules/decisions.md) -----------------------------------------


def test_decision_six_hits_give_21() -> None:
    state = turn_start("0: a 65432.")
    state.apply_chance("k1 w6 r6 y6 g6 b6")
    state.apply(0, "write k")
    assert state.view(None)["sheets"][0]["rows"][0]["points"] == 21 + 21


def test_decision_without_first_the_start_is_a_chance_event() -> None:
    state = hraj.game("trefa", players=4).new_state()
    assert [str(o) for o, _ in state.chance_outcomes()] == ["first 0", "first 1", "first 2", "first 3"]
    state.apply_chance("first 2")
    state.apply_chance("k1 w1 r1 y1 g1 b1")
    assert state.to_act == (2,)


def test_decision_each_player_gets_a_different_sheet_type() -> None:
    assert Trefa(players=3).letters == ("a", "b", "c")
    assert Trefa(players=3, sheets="f, c,a").letters == ("f", "c", "a")
    assert Trefa(players=2, sheets="", sheet_file="").letters == ("a", "b")  # empty = the default
    with pytest.raises(hraj.InvalidOption, match="different sheet type"):
        hraj.game("trefa", players=2, sheets="aa")
    with pytest.raises(hraj.InvalidOption, match="names 1 sheets for 2 players"):
        hraj.game("trefa", players=2, sheets="a")
    with pytest.raises(hraj.InvalidOption, match="There is no sheet z"):
        hraj.game("trefa", players=2, sheets="az")


def test_decision_the_cross_out_after_stop_and_after_the_reroll_are_both_logged() -> None:
    state = turn_start("0: a 6543.. / b 6.4321")
    state.apply_chance("k2 w6 r6 y6 g6 b6")  # seat 0: white 6 > 2, black 2 > 1
    state.apply(0, "stop")
    state.apply_chance("k2 w6 r6 y6 g6 b6")  # seat 1: white 6 > 5
    state.apply(1, "reroll")
    state.apply_chance("k2 w6 r6 y6 g6 b6")
    assert [event for event in state.events() if event[0] == AUTO] == [(AUTO, 0, "cross w"), (AUTO, 1, "cross w")]


def test_decision_a_record_with_a_cross_out_replays() -> None:
    game = Trefa(players=1)
    state = game.new_state()
    state.apply_chance("k6 w6 r6 y6 g6 b6")
    state.apply(0, "write y")
    state.apply_chance("k6 w6 r6 y6 g6 b6")  # red 6 > printed 5, and the rest too
    state.apply(0, "stop")
    assert state.events()[-1] == (AUTO, 0, "cross r")
    assert game.replay(state.record()) == state
    record = state.record()
    record["events"][-1][2] = "cross g"
    with pytest.raises(hraj.InvalidRecord):
        game.replay(record)
