"""Abluxxen bots: the greedy heuristics decide as documented and beat random play."""

from __future__ import annotations

import random

import hraj
from hraj.core import play_game
from hraj.core.bot import Bot, RandomBot, bot_names, make_bot
from hraj.games.abluxxen.bots import GreedyBot
from hraj.games.abluxxen.rules import Abluxxen, AbluxxenState


def table(position: str, players: int = 3) -> AbluxxenState:
    return AbluxxenState.from_position(Abluxxen(players=players), position)


def leave_in_pile(state: AbluxxenState, *cards: int) -> None:
    """Move every pile card to the discard pile except `cards`."""
    for card in range(1, 15):
        keep = cards.count(card)
        state.discard[card] += state.pile[card] - keep
        state.pile[card] = keep
    state.pile_size = len(cards)


def choice(state: AbluxxenState, seat: int = 0) -> str:
    return str(GreedyBot(0).choose(state.determinize(seat, random.Random(0)), seat))


def test_greedy_is_listed_for_abluxxen() -> None:
    assert "greedy" in bot_names("abluxxen")
    assert isinstance(make_bot("abluxxen", "greedy", 1), GreedyBot)


def test_greedy_captures_when_it_can() -> None:
    state = table("0: 9,5,3 [] / 4 [8] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    assert choice(state) == "play 9"


def test_greedy_keeps_a_pair_together() -> None:
    state = table("0: 7,7,3,11 [] / 4 [2,2,2] / 6 [12] ; display 1 2 3 4 5 6 ; discard -")
    assert choice(state) != "play 7"


def test_greedy_saves_its_jokers_when_they_capture_nothing() -> None:
    state = table("0: 8,8,J,J,3 [] / 4 [13] / 6 [12] ; display 1 2 3 4 5 6 ; discard -")
    assert "J" not in choice(state)


def test_greedy_does_not_end_a_game_it_would_lose() -> None:
    state = table("0: 9,9 [] / 4 [8,8,8,8,8,8] / 4 [] ; display 1 2 3 4 5 6 ; discard -")
    assert choice(state) == "play 9"  # play 9 9 would end the game 2 points against 5


def test_greedy_ends_the_game_when_that_wins() -> None:
    state = table("0: 9,9 [7,7,7] / 4,4,4 [] / 4 [] ; display 1 2 3 5 5 6 ; discard -")
    assert choice(state) == "play 9 9"


def test_greedy_takes_captured_cards_unless_the_end_is_near() -> None:
    early = table("0: 9,9,5,12 [] / 4 [2,2] / 6 [] ; display 1 2 10 4 5 6 ; discard -")
    early.apply(0, "play 9 9")
    assert choice(early) == "take"
    late = table("0: 9,9,5,12 [] / 4 [2,2] / 6 [] ; display 1 2 10 4 5 6 ; discard -")
    leave_in_pile(late, 3, 3, 7)
    late.apply(0, "play 9 9")
    assert choice(late) == "leave"


def test_greedy_victim_takes_back_good_cards_and_draws_from_a_joker_display() -> None:
    good = table("0: 13,3 [] / 4 [12] / 6 [] ; display 1 2 10 7 5 6 ; discard -")
    good.apply(0, "play 13")
    good.apply(0, "leave")
    assert choice(good, 1) == "back"
    poor = table("0: 9,3 [] / 4 [2] / 6 [] ; display 1 2 J 4 5 6 ; discard -")
    poor.apply(0, "play 9")
    poor.apply(0, "leave")
    assert choice(poor, 1) == "discard"
    poor.apply(1, "discard")
    assert choice(poor, 1) == "draw slot 3"


def test_greedy_beats_random_players() -> None:
    wins = 0
    games = 24
    for number in range(games):
        seat = number % 3
        choosers: list[Bot] = [RandomBot(number * 3 + s) for s in range(3)]
        choosers[seat] = GreedyBot(number)
        state = hraj.game("abluxxen", players=3).new_state()
        play_game(state, choosers, random.Random(number))
        assert state.outcome is not None
        wins += seat in state.outcome.winners
    assert wins > games // 2  # a random seat would win about a third
