"""Trust in hints and analysis, for every game (seeded and fast):

- the hint's best option is what the strongest bot plays, with the same seed and the
  same determinization;
- a game the strongest bot plays against itself loses (nearly) nothing;
- a mistake planted into such a game (one decision replaced by the worst option) is
  found as the costliest decision.

The searching bots (Abluxxen) play here with fewer deals, and without their time limit,
so that the tests are quick and the same on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import hraj
from hraj.analysis.game import analyse, hint
from hraj.core.bot import Bot, make_bot, strongest_bot
from hraj.core.game import Game, State
from hraj.core.hints import adviser
from hraj.core.record import Record, move_events
from hraj.games.abluxxen import hints as abluxxen_hints
from hraj.games.abluxxen.search import SearchBot

#: game, options, the bot that reaches the test positions
CASES = [
    ("qwixx", {"players": 1}),
    ("qwixx", {"players": 3}),
    ("trefa", {"players": 2}),
    ("backgammon", {}),
    ("abluxxen", {"players": 3}),
]
IDS = [f"{game}-{options.get('players', 2)}" for game, options in CASES]


@pytest.fixture(autouse=True)
def quick_search(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Abluxxen's search with few deals and no time limit: quick and machine-independent."""
    monkeypatch.setattr(SearchBot, "deals", 3)
    monkeypatch.setattr(SearchBot, "horizon", 1)
    monkeypatch.setattr(SearchBot, "seconds", float("inf"))
    monkeypatch.setattr(SearchBot, "prior_deals", 2.0)  # as much trust in the deals as with the full search
    monkeypatch.setattr(abluxxen_hints, "QUICK_DEALS", 3)
    monkeypatch.setattr(abluxxen_hints, "QUICK_HORIZON", 1)
    yield


def decisions(game: Game[Any, Any], seed: int, count: int) -> list[tuple[State[Any, Any], int]]:
    """`count` positions with a choice, from a game the game's default bot plays."""
    rng = random.Random(seed)
    state = game.new_state()
    bots = [make_bot(game.id, "random", seed + seat) for seat in range(game.players)]
    found: list[tuple[State[Any, Any], int]] = []
    while not state.is_over and len(found) < count:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
            continue
        seat = state.to_act[0]
        if len(state.legal_actions(seat)) > 1 and rng.random() < 0.5:
            found.append((state.copy(), seat))
        state.apply(seat, bots[seat].choose(state.determinize(seat, rng), seat))
    return found


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_the_hints_best_option_is_the_strongest_bots_choice(game_id: str, options: dict[str, object]) -> None:
    game = hraj.game(game_id, **options)
    for number, (state, seat) in enumerate(decisions(game, 11, 6)):
        seed = 100 + number
        bot = make_bot(game_id, strongest_bot(game_id), seed)
        chosen = bot.choose(state.determinize(seat, random.Random(seed)), seat)
        options_ranked, _ = hint(state, seat, seed=seed, rng=random.Random(seed))
        assert options_ranked[0].action == chosen, f"{game_id}: position {number}"
        values = [option.value for option in options_ranked]
        assert values == sorted(values, reverse=True)
        assert chosen in state.legal_actions(seat)


def play(game: Game[Any, Any], seed: int, plant: int | None = None) -> tuple[Record, int | None]:
    """A game of the strongest bot against itself; with `plant`, the first decision from
    the `plant`-th on whose worst option is clearly worse plays that option instead.
    Returns the record and the move number of the planted mistake."""
    rng = random.Random(seed)
    bots: list[Bot] = [make_bot(game.id, strongest_bot(game.id), seed + seat) for seat in range(game.players)]
    state = game.new_state()
    planted: int | None = None
    choices = 0
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
            continue
        seat = state.to_act[0]
        seen = state.determinize(seat, rng)
        if plant is not None and planted is None and len(state.legal_actions(seat)) > 1:
            choices += 1
            if choices >= plant:
                advice = adviser(game, seed, quick=True)
                assert advice is not None
                values = advice.values(seen, seat, reasons=False)
                if values[0].value - values[-1].value > 1.5 * advice.thresholds.very_bad:
                    state.apply(seat, values[-1].action)
                    planted = len(move_events(state.events()))
                    continue
        state.apply(seat, bots[seat].choose(seen, seat))
    return state.record(), planted


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_the_strongest_bot_against_itself_loses_next_to_nothing(game_id: str, options: dict[str, object]) -> None:
    game = hraj.game(game_id, **options)
    record, _ = play(game, 5)
    result = analyse(game, record, seed=5)
    assert result.decisions
    thresholds = result.thresholds
    for player in result.players:
        assert player.mean_loss < thresholds.doubtful / 2, (game_id, player)
        assert player.very_bad == 0, (game_id, player)


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_a_planted_mistake_is_found_as_the_costliest_decision(game_id: str, options: dict[str, object]) -> None:
    game = hraj.game(game_id, **options)
    record, planted = play(game, 7, plant=3)
    assert planted is not None, "no decision with a clearly worse option"
    result = analyse(game, record, seed=7)
    worst = result.worst(1)[0]
    assert worst.move == planted
    assert worst.grade == "very_bad"
