"""Backgammon's action ids: one per play, told apart by the origins of its steps."""

from __future__ import annotations

import hraj
from hraj.games.backgammon.rl import NUM_ACTIONS, BackgammonCodec
from hraj.games.backgammon.rules import Backgammon, BackgammonState
from hraj.rl import codec, legal_mask

TWO_DICE = 10  # after the ten cube and resignation decisions
SLOTS = 26


def opening(roll: str) -> BackgammonState:
    state = hraj.game("backgammon", first=0).new_state()
    state.apply_chance(roll)
    assert isinstance(state, BackgammonState)
    return state


def test_the_codec_is_found_through_the_registry_and_covers_every_play():
    rl = codec(hraj.game("backgammon"))
    assert isinstance(rl, BackgammonCodec)
    assert rl.num_actions == NUM_ACTIONS == 10 + 26 * 26 + 23_750


def test_opening_31_makes_the_five_point_with_high_die_from_8_and_low_die_from_6():
    state = opening("31")
    rl = codec(state.game)
    _, by_id = legal_mask(rl, state, 0)
    assert str(by_id[TWO_DICE + SLOTS * 8 + 6]) == "8/5 6/5"
    assert str(by_id[TWO_DICE + SLOTS * 13 + 10]) == "13/10 10/9"


def test_doubles_are_told_apart_by_their_origins():
    state = opening("66")
    rl = codec(state.game)
    _, by_id = legal_mask(rl, state, 0)
    names = {str(action) for action in by_id.values()}
    assert "24/18 24/18 13/7 13/7" in names
    assert len(by_id) == len(state.legal_actions(0))


def test_bearing_off_with_dice_bigger_than_the_distance():
    """6-5 with two checkers on the 3-point and one on the 2-point: both dice bear off
    from the 3-point, the 6 counted first."""
    game = hraj.game("backgammon", cube=False)
    assert isinstance(game, Backgammon)
    mover = [0] * 25
    mover[2], mover[1] = 2, 1
    opponent = [0] * 25
    opponent[23] = 2
    state = BackgammonState.from_position(game, (opponent, mover), turn=0, dice=(6, 5))
    rl = codec(game)
    _, by_id = legal_mask(rl, state, 0)
    assert str(by_id[TWO_DICE + SLOTS * 3 + 3]) == "3/off 3/off"


def test_cube_decisions_have_fixed_ids():
    state = hraj.game("backgammon", first=0).new_state()
    state.apply_chance("31")
    state.apply(0, "8/5 6/5")
    rl = codec(state.game)
    _, by_id = legal_mask(rl, state, 1)
    assert str(by_id[0]) == "roll"
    assert str(by_id[1]) == "double"
