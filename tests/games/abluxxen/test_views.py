"""Hidden hands never leak: views show a seat only what it may know, and
`determinize` deals anew exactly what that seat cannot see."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

import hraj
from hraj.core import random_playout
from hraj.core.jsondata import GameOptions
from hraj.core.record import HIDDEN
from hraj.games.abluxxen.rules import JOKER, Abluxxen, AbluxxenState, cards_of, full_deck

#: Seeded games of the leak test, over every variant; every view of every seat is checked.
LEAK_GAMES = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 4, "variant": "advanced"},
    {"players": 3, "variant": "expert"},
    {"players": 2, "variant": "expert"},
]
GAMES_PER_OPTION_SET = 6
SEAT_KEYS = {"hand_size", "known", "layers", "top", "laid_out", "score", "revealed"}


def positions(options: GameOptions, seed: int) -> Iterator[AbluxxenState]:
    """Every position of a seeded random game, the final one included."""
    rng = random.Random(seed)
    state = hraj.game("abluxxen", **options).new_state()
    assert isinstance(state, AbluxxenState)
    while True:
        yield state
        if state.is_over:
            return
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))


def card_total(state: AbluxxenState) -> list[int]:
    """Every card of the game, wherever it lies."""
    total = state.pile[:]
    for hand in state.hands:
        total = [a + b for a, b in zip(total, hand, strict=True)]
    for cards in [
        *(c for layers in state.layers for c in layers),
        *state.display,
        cards_of(state.discard),
        state.captured,
    ]:
        for card in cards:
            total[card] += 1
    for value in range(1, 13):
        total[value] += state.shadow[value]
    return total


def hidden_from(state: AbluxxenState, seat: int | None) -> list[list[int]]:
    """The cards of each hand that `seat` cannot see (publicly known ones excluded)."""
    return [
        [] if other == seat else cards_of([h - k for h, k in zip(state.hands[other], state.known[other], strict=True)])
        for other in range(state.players)
    ]


def shuffle_hidden(state: AbluxxenState, seat: int | None, rng: random.Random) -> AbluxxenState:
    """A state differing only in what `seat` cannot see: the unseen cards dealt anew.

    Written independently of `determinize` (which it is compared with) and used for
    spectators too, who see no hand at all.
    """
    twin = state.copy()
    pool = cards_of(state.pile) + [card for cards in hidden_from(state, seat) for card in cards]
    rng.shuffle(pool)
    for other in range(state.players):
        if other == seat:
            continue
        count = len(hidden_from(state, seat)[other])
        twin.hands[other] = state.known[other][:]
        for card in pool[:count]:
            twin.hands[other][card] += 1
        pool = pool[count:]
    twin.pile = [0] * (JOKER + 1)
    for card in pool:
        twin.pile[card] += 1
    return twin


@pytest.mark.parametrize("options", LEAK_GAMES, ids=lambda o: json.dumps(o, sort_keys=True))
def test_no_view_ever_shows_a_card_its_seat_cannot_see(options: GameOptions) -> None:
    rng = random.Random(11)
    views = 0
    for seed in range(GAMES_PER_OPTION_SET):
        for state in positions(options, seed):
            for seat in [None, *range(state.players)]:
                view = state.view(seat)
                views += 1
                assert view["hand"] == (None if seat is None else cards_of(state.hands[seat]))
                for public in view["seats"]:
                    assert set(public) == SEAT_KEYS
                # a state that differs only in what this seat cannot see looks the same to it
                # (while the game goes on: at the end every hand is revealed)
                twin = shuffle_hidden(state, seat, rng)
                assert twin.view(seat) == view or state.is_over
                assert card_total(twin) == card_total(state) == full_deck()
    assert views > 1000


@pytest.mark.parametrize("options", LEAK_GAMES, ids=lambda o: json.dumps(o, sort_keys=True))
def test_publicly_known_cards_are_always_in_their_hand(options: GameOptions) -> None:
    for seed in range(GAMES_PER_OPTION_SET):
        for state in positions(options, 100 + seed):
            for hand, known in zip(state.hands, state.known, strict=True):
                assert all(0 <= k <= h for h, k in zip(hand, known, strict=True))


def test_a_captured_set_taken_into_a_hand_is_known_to_everyone_until_played() -> None:
    state = AbluxxenState.from_position(
        Abluxxen(players=3),
        "0: 9,9,1 [] / 4 [8,8] / 6 [] ; display 1 2 3 4 5 6 ; discard -",
    )
    state.apply(0, "play 9 9")
    state.apply(0, "take")
    for seat in (None, 1, 2):
        assert state.view(seat)["seats"][0]["known"] == [8, 8]
    state.apply(1, "draw slot 4")
    assert state.view(2)["seats"][1]["known"] == [4]  # a display card is seen going into a hand
    state.apply(1, "draw deck")
    state.apply_chance("12")
    assert state.view(2)["seats"][1]["known"] == [4]  # a pile card is not
    state.apply_chance("10")  # refill slot 4
    state.apply(1, "play 4")
    assert state.view(2)["seats"][1]["known"] == []


def test_view_holds_no_history() -> None:
    for state in positions({"players": 4}, 5):
        if state.is_over:
            assert not any("event" in key or "log" in key or "record" in key for key in state.view(0))


@pytest.mark.parametrize("options", LEAK_GAMES, ids=lambda o: json.dumps(o, sort_keys=True))
def test_determinized_states_agree_with_the_seat_and_vary_the_unseen_cards(options: GameOptions) -> None:
    rng = random.Random(3)
    varied = checked = 0
    for seed in range(3):
        for number, state in enumerate(positions(options, 200 + seed)):
            if state.is_over or number % 7:
                continue
            seat = state.to_act[0] if state.to_act else number % state.players
            guesses = [state.determinize(seat, rng) for _ in range(4)]
            for guess in guesses:
                checked += 1
                assert isinstance(guess, AbluxxenState)
                assert guess.view(seat) == state.view(seat)
                assert guess.events() == []  # the real history would show the real cards
                assert card_total(guess) == full_deck()
                assert guess.hands[seat] == state.hands[seat]
                for other in range(state.players):
                    assert all(k <= h for h, k in zip(guess.hands[other], state.known[other], strict=True))
                # a legal continuation to the end of the game
                random_playout(guess, random.Random(number))
                assert guess.is_over
            hidden = {tuple(map(tuple, (g.hands[o] for o in range(state.players) if o != seat))) for g in guesses}
            if sum(len(cards) for cards in hidden_from(state, seat)) >= 2:
                varied += len(hidden) > 1
    assert checked > 50
    assert varied > 5


def test_determinize_never_changes_the_original() -> None:
    state = next(s for n, s in enumerate(positions({"players": 3}, 9)) if n == 80)
    before = state.record(), [h[:] for h in state.hands], state.pile[:]
    state.determinize(1, random.Random(0))
    assert (state.record(), state.hands, state.pile) == before


def test_every_hand_is_revealed_once_the_game_is_over() -> None:
    """Hidden cards stay hidden while the game goes on; at the end everyone sees them."""
    state = hraj.game("abluxxen", players=3).new_state()
    assert isinstance(state, AbluxxenState)
    rng = random.Random(8)
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if not state.is_over:
            assert all(public["revealed"] is None for public in state.view(None)["seats"])
    assert isinstance(state, AbluxxenState)
    spectator = state.view(None)
    assert [public["revealed"] for public in spectator["seats"]] == [cards_of(hand) for hand in state.hands]
    assert HIDDEN not in [text for _, _, text in state.events_for(None)]
