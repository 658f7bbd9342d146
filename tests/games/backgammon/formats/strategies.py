"""Hypothesis strategies for the backgammon formats' models."""

from __future__ import annotations

from hypothesis import strategies as st

from hraj.games.backgammon.formats.position_id import BAR, CHECKERS, PLACES, POINTS, TanBoard


@st.composite
def rows(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two players' rows (first, second) that share no point: each checker is put on a
    place drawn at random, skipping points the other player already holds."""
    first = [0] * PLACES
    second = [0] * PLACES
    for row, other in ((first, second), (second, first)):
        for _ in range(draw(st.integers(0, CHECKERS))):
            place = draw(st.integers(0, BAR))
            if place < POINTS and other[POINTS - 1 - place]:
                continue
            row[place] += 1
    return tuple(first), tuple(second)


@st.composite
def boards(draw: st.DrawFn) -> TanBoard:
    not_on_roll, on_roll = draw(rows())
    if not_on_roll[BAR] and on_roll[BAR] and min(not_on_roll[:6]) >= 2 and min(on_roll[:6]) >= 2:
        on_roll = (*on_roll[:BAR], 0)
    return TanBoard(not_on_roll, on_roll)
