"""The Abluxxen search bots: legal in every variant, valuing every option, playing the best."""

from __future__ import annotations

import random

import pytest

import hraj
from hraj.core.bot import bot_names, make_bot
from hraj.core.driver import play_game
from hraj.games.abluxxen.bots import BOTS
from hraj.games.abluxxen.greedy import GreedyBot
from hraj.games.abluxxen.rules import CHOOSE, OVER, PLAY, Abluxxen, AbluxxenState, Move
from hraj.games.abluxxen.search import SearchBot, rollout, win_share
from hraj.i18n import catalog


class TinySearch(SearchBot):
    """The search with a budget small enough for tests."""

    deals = 2
    horizon = 2
    width = 3


def dealt(players: int, variant: str = "base", seed: int = 1) -> AbluxxenState:
    state = hraj.game("abluxxen", players=players, variant=variant, first=0).new_state()
    rng = random.Random(seed)
    while state.is_chance:
        state.apply_chance(state.sample_chance(rng), check=False)
    assert isinstance(state, AbluxxenState)
    return state


def test_the_levels_are_listed_easiest_first() -> None:
    assert bot_names("abluxxen") == ["random", "greedy", "planner", "strategist"]
    assert isinstance(make_bot("abluxxen", "strategist"), SearchBot)


@pytest.mark.parametrize(("players", "variant"), [(3, "base"), (2, "base"), (4, "advanced"), (2, "expert")])
def test_the_search_plays_legal_games_to_the_end(players: int, variant: str) -> None:
    bots = [TinySearch(seat) if seat == 0 else GreedyBot(seat) for seat in range(players)]
    state = hraj.game("abluxxen", players=players, variant=variant).new_state()
    play_game(state, bots, random.Random(players))  # the driver checks every action
    assert state.outcome is not None


def test_every_option_is_valued_and_the_best_is_played() -> None:
    state = dealt(3)
    values = TinySearch(5).values(state, 0)
    assert all(0.0 <= option.win <= 1.0 and option.samples == TinySearch.deals for option in values)
    assert [option.win for option in values] == sorted((option.win for option in values), reverse=True)
    assert TinySearch(5).choose(state, 0) == values[0].action


def test_plays_beyond_the_width_are_not_searched() -> None:
    state = dealt(3)
    assert len(state.legal_actions(0)) > TinySearch.width
    actions = [option.action for option in TinySearch(1).values(state, 0)]
    assert len(actions) == TinySearch.width
    assert all(action in state.legal_actions(0) for action in actions)


def test_take_or_leave_is_valued_too() -> None:
    state = AbluxxenState.from_position(
        Abluxxen(players=3), "0: 5,5,9 [] / 1,2 [4,4] / 3,7,8 [] ; display 1 2 3 6 7 8 ; discard -"
    )
    state.apply(0, "play 5 5")
    assert state.phase == CHOOSE
    values = TinySearch(2).values(state, 0)
    assert {option.action for option in values} == {Move("take"), Move("leave")}


def test_a_finished_rollout_scores_the_win_and_a_cut_one_the_margin() -> None:
    state = dealt(3)
    cut = rollout(state.copy(), GreedyBot(0), random.Random(0), turns=1)
    assert cut.phase == PLAY and 0.0 < win_share(cut, 0) < 1.0
    done = rollout(state.copy(), GreedyBot(0), random.Random(0), turns=10_000)
    assert done.phase == OVER
    outcome = done.outcome
    assert outcome is not None
    assert win_share(done, outcome.winners[0]) == 1 / len(outcome.winners)


def test_every_legal_option_can_be_valued() -> None:
    state = dealt(2)
    values = TinySearch(3).values(state, 0, every=True)
    assert sorted(map(str, (option.action for option in values))) == sorted(map(str, state.legal_actions(0)))


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_every_level_is_described_in_the_language(lang: str) -> None:
    messages = catalog(lang)
    assert [name for name in BOTS if BOTS[name].help not in messages] == []
