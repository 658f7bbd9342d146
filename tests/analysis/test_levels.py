"""The rating words mean something: a random player is never rated like the strongest bot.

Before, a random Qwixx player with four misthrows, 12 points against 95, was rated
"Advanced" like the optimal bot: once the chance of winning is near zero every later
mistake costs nothing, and the mean over every decision fell. The mean loss and the
rating now count only decisions with something at stake (`Thresholds.stake`), and the
bands are set between the bots' own figures (`benchmarks.analysis_levels`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import hraj
from hraj.analysis.game import RATINGS, analyse
from hraj.core.bot import make_bot, strongest_bot
from hraj.core.driver import play_game
from hraj.games.abluxxen import hints as abluxxen_hints

CASES: list[tuple[str, dict[str, Any], str]] = [
    ("qwixx", {"players": 3}, "master"),
    ("qwixx", {"players": 1}, "master"),
    ("trefa", {"players": 1}, "winner"),
    ("backgammon", {}, "expert"),
]


@pytest.mark.parametrize(("game_id", "options", "best"), CASES, ids=[f"{g}-{o.get('players', 2)}" for g, o, _ in CASES])
def test_a_random_player_is_a_beginner_and_the_strongest_bot_is_not(
    game_id: str, options: dict[str, Any], best: str
) -> None:
    assert best == strongest_bot(game_id)
    game = hraj.game(game_id, **options)
    for seed in range(3):
        bots = [make_bot(game_id, "random" if seat == 0 else best, seed + seat) for seat in range(game.players)]
        record = play_game(game.new_state(), bots, random.Random(seed)).record()
        result = analyse(game, record, seed=seed)
        randomer = result.players[0]
        assert randomer.rating == "beginner", (seed, randomer)
        if game.players > 1:
            assert RATINGS.index(result.players[1].rating) <= RATINGS.index("expert"), (seed, result.players[1])


def test_a_lost_qwixx_game_still_counts_the_random_player_s_mistakes() -> None:
    """The decisions of a decided game are left out of the mean: it stays where the
    random player's choices had something at stake."""
    game = hraj.game("qwixx", players=3)
    bots = [make_bot("qwixx", "random", 1), make_bot("qwixx", "master", 2), make_bot("qwixx", "master", 3)]
    record = play_game(game.new_state(), bots, random.Random(1)).record()
    result = analyse(game, record, seed=1)
    randomer = result.players[0]
    everything = randomer.total_loss / randomer.decisions
    assert randomer.counted < randomer.decisions
    assert randomer.mean_loss > everything


def test_abluxxen_rates_a_random_player_below_the_strongest_level(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(abluxxen_hints, "QUICK_DEALS", 4)
    monkeypatch.setattr(abluxxen_hints, "QUICK_HORIZON", 3)
    game = hraj.game("abluxxen", players=3)
    bots = [make_bot("abluxxen", "random", 1), make_bot("abluxxen", "greedy", 2), make_bot("abluxxen", "greedy", 3)]
    record = play_game(game.new_state(), bots, random.Random(2)).record()
    result = analyse(game, record, seed=2)
    assert result.players[0].mean_loss > max(player.mean_loss for player in result.players[1:])
    assert result.players[0].rating == "beginner"
