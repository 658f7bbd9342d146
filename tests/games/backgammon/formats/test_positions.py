"""Game states to and from gnubg's Position ID + Match ID and XGID."""

from __future__ import annotations

import random

import pytest

from hraj.core.driver import resolve_chance
from hraj.games.backgammon.formats import FormatError, position_text, state_from_text
from hraj.games.backgammon.formats.match_id import decode_match_id
from hraj.games.backgammon.formats.position_id import decode_position_id
from hraj.games.backgammon.formats.positions import gnubg_ids, state_from_gnubg, state_from_xgid, xgid
from hraj.games.backgammon.rules import BEAVERED, CUBE, DOUBLED, MOVE, RESIGNED, Backgammon, BackgammonState

#: The start with XG's bottom player (gnubg's player 1, hraj's seat 1) on roll.
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
#: The start with the top player (seat 0) on roll.
START_XGID_TOP = "XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10"


def _same(first: BackgammonState, second: BackgammonState) -> None:
    assert first.boards == second.boards
    assert (first.phase, first.turn, first.dice, first.cube, first.owner) == (
        second.phase,
        second.turn,
        second.dice,
        second.cube,
        second.owner,
    )
    assert (first.match_score, first.is_crawford, first.resignation) == (
        second.match_score,
        second.is_crawford,
        second.resignation,
    )


def test_manual_match_id_example_sets_up_player_1_to_play_52_at_2_4_of_9_with_player_0_owning_a_2_cube():
    state = state_from_gnubg("4HPwATDgc/ABMA", "QYkqASAAIAAA")
    assert (state.match_length, state.match_score) == (9, (2, 4))
    assert (state.cube_value, state.cube_owner, state.on_roll, state.dice) == (2, 0, 1, (5, 2))
    assert state.phase == MOVE
    # gnubg 1.07 writes bit 67 in every match: "no Jacoby rule"
    assert gnubg_ids(state) == ("4HPwATDgc/ABMA", "QYkqASAAIAAE")


def test_money_game_before_the_first_roll_cAgAAAAAAAAA_gives_player_1_the_cube_decision():  # noqa: N802
    state = state_from_gnubg("4HPwATDgc/ABMA", "cAgAAAAAAAAA")
    assert (state.match_length, state.on_roll, state.phase) == (0, 1, CUBE)
    # gnubg's "no game started" becomes a game in progress: hraj has no such position.
    assert gnubg_ids(state) == ("4HPwATDgc/ABMA", "cAkAAAAAAAAA")


def test_new_money_game_is_the_starting_position_with_player_0_to_play():
    assert gnubg_ids(Backgammon().new_state()) == ("4HPwATDgc/ABMA", "MAEAAAAAAAAE")
    assert gnubg_ids(Backgammon(jacoby=True).new_state()) == ("4HPwATDgc/ABMA", "MAEAAAAAAAAA")


def test_gnubgs_match_ids_with_bit_67_are_read_and_carry_the_jacoby_rule():
    assert state_from_gnubg("4HPwATDgc/ABMA", "MAGnAAAAAAAE").match_length == 5  # gnubg's `new match 5`
    assert not state_from_gnubg("4HPwATDgc/ABMA", "MAEAAAAAAAAE").game.options["jacoby"]
    assert state_from_gnubg("4HPwATDgc/ABMA", "MAEAAAAAAAAA").game.options["jacoby"]


def test_player_on_roll_is_the_second_half_of_the_position_id():
    state = Backgammon().new_state()
    state.apply_chance("16")  # seat 1 starts with 6-1
    state.apply(1, "8/7 13/7")
    position_id, _ = gnubg_ids(state)  # seat 0 is on roll now
    board = decode_position_id(position_id)
    assert board.on_roll == tuple(state.boards[0][1:])
    assert board.not_on_roll[6] == 2  # seat 1's 7 point


def test_a_double_offered_travels_in_both_formats():
    state = Backgammon(match_length=7).new_state()
    state.apply_chance("31")
    state.apply(0, "8/5 6/5")
    state.apply(1, "double")
    assert state.phase == DOUBLED
    _same(state_from_gnubg(*gnubg_ids(state)), state)
    text = xgid(state)
    assert ":D:" in text
    _same(state_from_xgid(text), state)


def test_a_resignation_offered_travels_in_the_match_id():
    state = Backgammon(match_length=3).new_state()
    state.apply_chance("31")
    state.apply(0, "8/5 6/5")
    state.apply(1, "resign 2")
    assert state.phase == RESIGNED
    _same(state_from_gnubg(*gnubg_ids(state)), state)


def test_xgid_beaver_and_money_rules():
    state = state_from_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:-1:B:0:0:3:0:10")
    assert state.game.options["beavers"] and state.game.options["jacoby"]
    # the top player (seat 0) is on roll and doubled; seat 1 beavered; seat 0 answers
    assert state.double_offered and state.on_roll == 0 and state.to_act == (0,)
    assert xgid(state) == "XGID=-b----E-C---eE---c-e----B-:1:0:-1:B:0:0:3:0:10"


def test_xgid_raccoon_is_read_as_a_third_offer():
    state = state_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:R:0:0:2:0:10")
    assert state.offers == 3 and state.on_roll == 1 and state.to_act == (0,)
    assert xgid(state) == "XGID=-b----E-C---eE---c-e----B-:0:0:1:R:0:0:2:0:10"


def test_xgid_d_names_the_doubler_in_field_4_as_xg_and_gnubg_do():
    state = state_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:10")
    assert state.on_roll == 1 and state.to_act == (0,) and state.double_offered


def test_xgid_start_position_with_the_bottom_player_to_play():
    state = state_from_xgid(START_XGID)
    assert (state.on_roll, state.phase, state.boards) == (1, CUBE, Backgammon().new_state().boards)
    assert xgid(state) == START_XGID
    assert state_from_xgid(START_XGID_TOP).on_roll == 0


def test_xgid_scores_are_bottom_then_top_as_gnubg_reads_them():
    # seat 1 (bottom) has 3, seat 0 (top) 1, in a 5-point match
    state = state_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:1:0:5:10")
    assert state.match_score == (1, 3)


def _random_states(seed: int, options: dict[str, object]) -> list[BackgammonState]:
    """Every decision point of a seeded random match (no resignations)."""
    rng = random.Random(seed)
    state = Backgammon(**options).new_state()
    seen = []
    while not state.is_over:
        resolve_chance(state, rng)
        if state.is_over:
            break
        seen.append(state.copy())
        seat = state.to_act[0]
        actions = [action for action in state.legal_actions(seat) if not str(action).startswith("resign")]
        state.apply(seat, rng.choice(actions))
    return seen


@pytest.mark.parametrize(
    ("seed", "options"),
    [(1, {}), (6, {"match_length": 5}), (3, {"match_length": 3})] + [(seed, {"beavers": True}) for seed in range(4, 9)],
)
def test_every_position_of_random_matches_survives_both_formats(seed, options):
    for state in _random_states(seed, options):
        ids = gnubg_ids(state)
        extra: dict[str, object] = {"beavers": True} if options.get("beavers") else {}
        from_ids = state_from_gnubg(ids[0], ids[1], **extra)
        _same(from_ids, state)
        assert gnubg_ids(from_ids) == ids
        text = xgid(state)
        from_xgid = state_from_xgid(text)
        _same(from_xgid, state)
        assert xgid(from_xgid) == text


def test_random_matches_reach_doubles_beavers_and_crawford_games():
    phases = {state.phase for seed in range(4, 9) for state in _random_states(seed, {"beavers": True})}
    assert {DOUBLED, BEAVERED} <= phases
    assert any(state.is_crawford for state in _random_states(6, {"match_length": 5}))


def test_state_from_text_reads_gnubg_output_the_combined_id_and_xgids():
    shown = "GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n                 Match ID   : QYkqASAAIAAA\n"
    assert state_from_text(shown).match_length == 9
    assert state_from_text("4HPwATDgc/ABMA:QYkqASAAIAAA").dice == (5, 2)
    assert state_from_text("the position: " + START_XGID + " (opening)").on_roll == 1
    alone = state_from_text("4HPwATDgc/ABMA")
    assert (alone.match_length, alone.on_roll, alone.phase) == (0, 0, CUBE)
    assert position_text(alone) == "4HPwATDgc/ABMA:MAEAAAAAAAAE\n" + START_XGID_TOP + "\n"


@pytest.mark.parametrize(
    "text",
    [
        "nothing here",
        "4HPwATDgc/ABMA:QYoqASAAIAAA",  # the game is over (game state 2)
        "4HPwATDgc/ABMA:QYEqASAAIAAA",  # player 0 to decide, player 1 on roll, nothing offered
        "XGID=-b----E-C---eE---c-e----B-:1:0:-1:B:0:0:0:5:10",  # a beaver in match play
    ],
)
def test_positions_that_cannot_be_set_up_are_refused(text):
    with pytest.raises(FormatError):
        state_from_text(text)


def _beavered() -> BackgammonState:
    state = Backgammon(beavers=True).new_state()
    state.apply_chance("31")
    state.apply(0, "8/5 6/5")
    state.apply(1, "double")
    state.apply(0, "beaver")
    return state


def test_a_beaver_is_gnubgs_take_and_redouble_in_the_match_id():
    state = _beavered()
    _, match_id = gnubg_ids(state)
    key = decode_match_id(match_id)
    # the cube taken at 2 and owned by the beaverer; the doubler (on roll) decides
    assert (key.cube_value, key.cube_owner, key.double_offered, key.on_roll, key.turn) == (2, 0, True, 1, 1)
    back = state_from_gnubg(*gnubg_ids(state))
    _same(back, state)
    assert back.game.options["beavers"]


def test_a_beaver_travels_in_the_xgid():
    state = _beavered()
    text = xgid(state)
    assert text.endswith(":0:0:1:B:0:0:2:0:10")
    _same(state_from_xgid(text), state)


def test_a_pending_resignation_is_left_out_of_the_xgid():
    state = Backgammon(match_length=3).new_state()
    state.apply_chance("31")
    state.apply(0, "8/5 6/5")
    before = xgid(state)
    state.apply(1, "resign 1")
    assert xgid(state) == before


@pytest.mark.parametrize("text", ["4HPwATDgc/ABMA:!!!!", "4HPwATDgc/ABMA:cAgAAAAAAAA", "4HPwATDgc/ABMA junk"])
def test_text_after_a_position_id_that_is_no_match_id_is_refused(text: str) -> None:
    with pytest.raises(FormatError, match="is no Match ID"):
        state_from_text(text)


def test_a_position_id_alone_or_with_its_match_id_is_read() -> None:
    assert state_from_text("4HPwATDgc/ABMA").match_length == 0
    assert state_from_text(" 4HPwATDgc/ABMA : QYkqASAAIAAA ").match_length == 9
