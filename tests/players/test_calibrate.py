"""The bots' calibration: the fit recovers known ratings, a tiny run works, the shipped data is whole."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

import hraj
from hraj.core.bot import bot_names, default_bot
from hraj.players.anchors import DATA, bot_rating
from hraj.players.calibrate import Result, fit, main, two_player_game


def test_the_fit_recovers_known_ratings_within_their_intervals() -> None:
    truth = [1500.0, 1700.0, 1200.0]
    scale = 400 / math.log(10)
    rng = random.Random(4)
    results = []
    for a, b in ((0, 1), (0, 2), (1, 2)):
        for _ in range(400):
            p = 1 / (1 + math.exp(-(truth[a] - truth[b]) / scale))
            results.append(Result(a, b, 1.0 if rng.random() < p else 0.0))
    ratings, intervals = fit(3, results, pinned=0, scale=scale)
    assert ratings[0] == 1500 and intervals[0] == 0
    for level in (1, 2):
        assert abs(ratings[level] - truth[level]) < intervals[level], (ratings, intervals)
        assert 10 < intervals[level] < 100


def test_a_level_that_always_wins_stays_finite() -> None:
    ratings, _ = fit(2, [Result(0, 1, 1.0)] * 50, pinned=1, scale=100)
    assert 1500 < ratings[0] < 5000


def test_a_tiny_calibration_writes_every_level_with_the_default_level_at_1500(tmp_path: Path) -> None:
    out = tmp_path / "ratings.json"
    assert main(["--per-pair", "2", "--seed", "3", "--out", str(out), "qwixx"]) == 0
    entry = json.loads(out.read_text())["qwixx"]
    assert set(entry["bots"]) == set(bot_names("qwixx"))
    assert entry["pinned"] == default_bot("qwixx") and entry["bots"][entry["pinned"]]["rating"] == 1500
    assert entry["command"] == "python -m hraj.players.calibrate --per-pair 2 --seed 3 qwixx"


@pytest.mark.parametrize("game_id", hraj.GAMES)
def test_the_shipped_ratings_cover_every_level_with_the_games_formula(game_id: str) -> None:
    shipped = json.loads(DATA.read_text())[game_id]
    how = two_player_game(game_id).rated_as()
    assert how is not None
    assert shipped["system"] == ("fibs" if how.kind == "match" else "openskill")
    assert shipped["pinned"] == default_bot(game_id)
    for bot in bot_names(game_id):
        rating = bot_rating(game_id, bot)
        assert rating is not None, bot
        assert rating.interval >= 0 and (rating.interval == 0) == (bot == shipped["pinned"])
    assert bot_rating(game_id, "nobody") is None
