"""The analysis itself: grades and ratings by each game's thresholds, what a seat may
see, the same figures from the same seed, and JSON that says everything."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import hraj
from hraj.analysis.game import analyse, grade, rating
from hraj.core.bot import make_bot
from hraj.core.driver import play_game
from hraj.core.errors import InvalidRecord
from hraj.core.hints import Thresholds
from hraj.core.record import Record
from hraj.games.abluxxen import hints as abluxxen_hints
from hraj.games.abluxxen.rules import AbluxxenState

GNUBG = Thresholds(0.04, 0.08, 0.16, ratings=(0.005, 0.008, 0.012, 0.018))


@pytest.mark.parametrize(
    ("loss", "expected"), [(0.0, None), (0.039, None), (0.04, "doubtful"), (0.08, "bad"), (0.2, "very_bad")]
)
def test_losses_are_graded_by_the_thresholds(loss: float, expected: str | None) -> None:
    assert grade(loss, GNUBG) == expected


@pytest.mark.parametrize(
    ("mean", "expected"),
    [(0.0, "master"), (0.006, "expert"), (0.01, "advanced"), (0.015, "intermediate"), (0.05, "beginner")],
)
def test_the_rating_word_follows_the_mean_loss(mean: float, expected: str) -> None:
    assert rating(mean, GNUBG) == expected


def qwixx_record(seed: int) -> Record:
    game = hraj.game("qwixx", players=2)
    bots = [make_bot("qwixx", "random", seed), make_bot("qwixx", "master", seed + 1)]
    return play_game(game.new_state(), bots, random.Random(seed)).record()


def test_a_random_player_loses_more_than_the_master_and_the_json_says_it_all() -> None:
    game = hraj.game("qwixx", players=2)
    result = analyse(game, qwixx_record(3), seed=1)
    randomer, master = result.players
    assert randomer.total_loss > master.total_loss
    assert master.total_loss == pytest.approx(0.0)
    data = json.loads(json.dumps(result.to_json()))
    assert data["unit"] == "win"
    assert {"total_loss", "mean_loss", "doubtful", "bad", "very_bad", "rating"} <= set(data["players"][0])
    assert data["worst"] == [decision.move for decision in result.worst()]
    steps = [decision["move"] for decision in data["decisions"]]
    assert steps == sorted(steps)


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = qwixx_record(4)
    record["events"] = [*record["events"][:3], ["move", 0, "r2"], *record["events"][3:]]
    with pytest.raises(InvalidRecord):
        analyse(hraj.game("qwixx", players=2), record)


def test_abluxxen_is_analysed_only_from_what_each_seat_knew(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(abluxxen_hints, "QUICK_DEALS", 2)
    monkeypatch.setattr(abluxxen_hints, "QUICK_HORIZON", 1)
    game = hraj.game("abluxxen", players=3)
    bots = [make_bot("abluxxen", "greedy", seat) for seat in range(3)]
    record = play_game(game.new_state(), bots, random.Random(2)).record()
    seen: list[int] = []
    given: list[int] = []
    determinize = AbluxxenState.determinize

    def spy_determinize(self: AbluxxenState, seat: int, rng: random.Random) -> AbluxxenState:
        made = determinize(self, seat, rng)
        seen.append(id(made))
        return made

    values = abluxxen_hints.AbluxxenAdviser.values

    def spy_values(self: Any, state: Any, seat: int, **kwargs: Any) -> Any:
        given.append(id(state))
        return values(self, state, seat, **kwargs)

    monkeypatch.setattr(AbluxxenState, "determinize", spy_determinize)
    monkeypatch.setattr(abluxxen_hints.AbluxxenAdviser, "values", spy_values)
    result = analyse(game, record, seed=1)
    assert len(given) == len(result.decisions) > 0
    assert set(given) <= set(seen)  # every position valued is a deal of that seat's knowledge


def test_the_same_seed_gives_the_same_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(abluxxen_hints, "QUICK_DEALS", 2)
    monkeypatch.setattr(abluxxen_hints, "QUICK_HORIZON", 1)
    game = hraj.game("abluxxen", players=3)
    state, rng = game.new_state(), random.Random(6)
    while len(state.events()) < 120:  # the first turns: a record of a game still going on
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    record = state.record()
    first = analyse(game, record, seed=9)
    assert first.decisions
    assert first.to_json() == analyse(game, record, seed=9).to_json()
    assert first.to_json() != analyse(game, record, seed=10).to_json()  # the deals do come from the seed
