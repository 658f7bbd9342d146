"""The bots' fixed ratings as matchmaking reads them: the levels offered to a seeker who
waits alone, the nearest to the seeker's rating."""

from __future__ import annotations

import pytest

import hraj
from hraj.clocks.seeks import DEFAULT_RATING, bot_near
from hraj.core.bot import bot_names, default_bot
from hraj.players.anchors import anchors, bot_rating


@pytest.mark.parametrize("game", sorted(hraj.GAMES))
def test_a_games_anchors_are_its_bots_with_their_calibrated_ratings(game: str) -> None:
    levels = anchors(game)
    assert levels, "every game ships calibrated levels"
    for bot, rating in levels.items():
        assert bot in bot_names(game)
        found = bot_rating(game, bot)
        assert found is not None and found.rating == rating


@pytest.mark.parametrize("game", sorted(hraj.GAMES))
def test_a_strong_player_is_offered_the_strongest_level_and_a_newcomer_the_one_at_the_centre(game: str) -> None:
    levels = anchors(game)
    strongest = max(levels, key=levels.__getitem__)
    assert bot_near(levels[strongest] + 100, levels, default_bot(game)) == strongest
    newcomers = bot_near(DEFAULT_RATING, levels, default_bot(game))
    assert levels[newcomers] == min(levels.values(), key=lambda rating: abs(rating - DEFAULT_RATING))
    assert levels[strongest] >= levels[newcomers]


def test_in_qwixx_a_strong_player_meets_a_stronger_level_than_a_newcomer() -> None:
    levels = anchors("qwixx")
    assert (bot_near(1800, levels, "greedy"), bot_near(DEFAULT_RATING, levels, "greedy")) == ("master", "optimal")
