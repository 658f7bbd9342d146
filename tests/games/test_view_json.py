"""Views serialise to the same JSON as they always have: the browser, the server protocol
and stored records read it, so making a view typed or cheaper must not change a byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.games.view_digests import cases, view_digest

GOLDEN = json.loads((Path(__file__).parent / "view_digests.json").read_text())


@pytest.mark.parametrize(("number", "case"), list(enumerate(cases())), ids=[f"{g} {o}" for g, o in cases()])
def test_views_of_seeded_games_serialise_as_before(number: int, case: tuple[str, dict[str, object]]) -> None:
    game_id, options = case
    key = f"{game_id} {json.dumps(options, sort_keys=True)}"
    assert view_digest(game_id, options, seed=number) == GOLDEN[key], f"the views of {key} changed"


def test_every_game_and_option_set_has_a_digest() -> None:
    assert {f"{game_id} {json.dumps(options, sort_keys=True)}" for game_id, options in cases()} == set(GOLDEN)
