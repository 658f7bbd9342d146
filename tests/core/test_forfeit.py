"""A seat that loses by forfeit (its time ran out in a rated game of two), in every game."""

from __future__ import annotations

import random

import pytest

import hraj
from hraj.core.errors import IllegalAction
from hraj.core.game import FORFEIT, State

OPTIONS = {
    "qwixx": {"players": 2},
    "trefa": {"players": 2},
    "backgammon": {"match_length": 5},
    "abluxxen": {"players": 2},
}


def midgame(game_id: str, seed: int, steps: int = 12) -> State[object, object]:
    """A position some random decisions into a game, where a seat must act."""
    rng = random.Random(seed)
    state = hraj.game(game_id, **OPTIONS[game_id]).new_state()
    done = 0
    while True:
        while state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        if done >= steps and state.to_act:
            return state
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.playout_actions(seat)))
        done += 1
        assert not state.is_over, "the game ended before the forfeit"


@pytest.mark.parametrize("game_id", list(OPTIONS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_forfeit_ends_the_game_with_the_other_seat_winning_and_replays(game_id: str, seed: int) -> None:
    state = midgame(game_id, seed)
    seat = state.to_act[0]
    assert FORFEIT not in [str(a) for a in state.legal_actions(seat)]
    state.apply(seat, FORFEIT)
    assert (
        state.is_over and state.to_act == () and state.legal_actions(seat) == [] and state.legal_actions(1 - seat) == []
    )
    outcome = state.outcome
    assert outcome is not None and outcome.winners == (1 - seat,) and outcome.reason == FORFEIT
    assert state.forfeited == seat and state.copy().forfeited == seat
    game = hraj.game(game_id, **OPTIONS[game_id])
    again = game.replay(state.record())
    assert again == state and again.outcome == outcome
    assert (("move", seat, FORFEIT)) in state.events_for(None)
    assert state.view(None) and state.view(seat)


def test_a_backgammon_forfeit_loses_the_match_as_a_resigned_backgammon() -> None:
    state = midgame("backgammon", 7)
    seat = state.to_act[0]
    state.apply(seat, FORFEIT)
    outcome = state.outcome
    assert outcome is not None and outcome.scores[1 - seat] == 5 and outcome.winners == (1 - seat,)
    games = outcome.details["games"]
    assert isinstance(games, list) and games[-1] == {"winner": 1 - seat, "points": 5, "how": FORFEIT}
    money = hraj.game("backgammon").new_state()
    rng = random.Random(3)
    while money.is_chance or not money.to_act:
        money.apply_chance(money.sample_chance(rng))
    money.forfeit(money.to_act[0])
    assert money.outcome is not None and abs(money.outcome.scores[0]) == 3  # a backgammon at the cube's 1


def test_only_the_seat_that_must_act_can_forfeit_and_only_while_the_game_goes_on() -> None:
    state = midgame("qwixx", 4)
    idle = next(s for s in range(2) if s not in state.to_act) if len(state.to_act) < 2 else None
    if idle is not None:
        with pytest.raises(IllegalAction):
            state.forfeit(idle)
    state.forfeit(state.to_act[0])
    with pytest.raises(IllegalAction):
        state.forfeit(0)


def test_an_unfinished_or_ordinary_game_has_no_forfeit() -> None:
    state = midgame("trefa", 5)
    assert state.forfeited is None


@pytest.mark.parametrize("game_id", list(OPTIONS))
def test_the_log_says_who_ran_out_of_time_in_their_gender(game_id: str) -> None:
    from hraj.i18n import log_lines

    state = midgame(game_id, 1)
    seat = state.to_act[0]
    state.forfeit(seat)
    names, genders = ["Eva", "Petr"], ["f", "m"]
    said = log_lines(game_id, state.events_for(None), names, genders, "cs", state.view(None))
    expected = {0: "Eva nestihla táhnout včas a prohrála", 1: "Petr nestihl táhnout včas a prohrál"}[seat]
    assert expected in said
    english = log_lines(game_id, state.events_for(None), names, [None, None], "en", state.view(None))
    assert f"{names[seat]} ran out of time and lost the game" in english
