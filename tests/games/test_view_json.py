"""Views serialise to the same JSON as they always have: the browser, the server protocol
and stored records read it, so making a view typed or cheaper must not change a byte."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import hraj
from tests.games.view_digests import cases, view_digest

GOLDEN = json.loads((Path(__file__).parent / "view_digests.json").read_text())


@pytest.mark.parametrize(("number", "case"), list(enumerate(cases())), ids=[f"{g} {o}" for g, o in cases()])
def test_views_of_seeded_games_serialise_as_before(number: int, case: tuple[str, dict[str, object]]) -> None:
    game_id, options = case
    key = f"{game_id} {json.dumps(options, sort_keys=True)}"
    assert view_digest(game_id, options, seed=number) == GOLDEN[key], f"the views of {key} changed"


def test_every_game_and_option_set_has_a_digest() -> None:
    assert {f"{game_id} {json.dumps(options, sort_keys=True)}" for game_id, options in cases()} == set(GOLDEN)


@pytest.mark.parametrize("game_id", ["qwixx", "trefa", "backgammon", "abluxxen"])
def test_a_view_stays_as_it_was_taken_while_the_game_goes_on(game_id: str) -> None:
    """Views may share unchanged parts (rows, sheets) with later views: those parts must
    never change, so every view taken keeps its JSON to the end of the game."""
    game = hraj.game(game_id)
    state = game.new_state()
    rng = random.Random(5)
    taken: list[tuple[object, str]] = []
    while not state.is_over:
        for seat in [None, *range(game.players)]:
            view = state.view(seat)
            taken.append((view, json.dumps(view)))
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng), check=False)
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)), check=False)
    assert all(json.dumps(view) == text for view, text in taken)
