"""Every game's table fits an 80-column terminal in every language, all game long.

Sentences may wrap like any text; the tables and sheets must not: each of them takes
as many lines at 80 columns as on an unlimited screen.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

import hraj
from hraj.tui.play import renderer

NAMES = ["Eva", "Petr", "greedy 3", "Kristýna", "expectimax 5", "Ondřej"]
MOST_PLAYERS = {"qwixx": 5, "trefa": 6, "backgammon": 2, "abluxxen": 5}


def grids(part: RenderableType) -> Iterator[RenderableType]:
    """The tables and multi-line drawings inside a rendered view."""
    if isinstance(part, Group):
        for inner in part.renderables:
            yield from grids(inner)
    elif isinstance(part, Table) or (isinstance(part, Text) and "\n" in part.plain):
        yield part


def lines(part: RenderableType, width: int) -> list[str]:
    console = Console(record=True, width=width, color_system=None)
    console.print(part)
    return console.export_text().splitlines()


def broken_grids(game_id: str, players: int, lang: str, seed: int, **options: object) -> list[str]:
    """The grids that wrap at 80 columns, at eight points of a random game and its end."""
    if game_id != "backgammon":
        options["players"] = players
    state = hraj.game(game_id, **options).new_state()
    rng = random.Random(seed)
    snapshots = []
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        snapshots.append(state.copy())
    chosen = [*snapshots[:: max(1, len(snapshots) // 8)], snapshots[-1]]
    broken: list[str] = []
    for snapshot in chosen:
        for grid in grids(renderer(game_id).render(snapshot.view(0), lang, NAMES[:players])):
            wide, narrow = lines(grid, 300), lines(grid, 80)
            if len(narrow) != len(wide):
                broken.append(max(wide, key=len))
    return broken


@pytest.mark.parametrize("lang", ["cs", "sk", "en"])
@pytest.mark.parametrize("game_id", sorted(MOST_PLAYERS))
def test_the_tables_fit_80_columns(game_id: str, lang: str) -> None:
    broken = broken_grids(game_id, MOST_PLAYERS[game_id], lang, seed=11)
    assert broken == []


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["base", "advanced", "expert"])
def test_abluxxen_rows_fit_80_columns_in_every_variant(variant: str, players: int) -> None:
    """Long games lay out many layers and reveal many cards; no seat's row may wrap."""
    for lang in ("cs", "en"):
        assert broken_grids("abluxxen", players, lang, seed=players, variant=variant) == []
