"""The bridge to GNU Backgammon that the strength benchmark uses: gnubg's plays map onto
hraj's legal plays, and its evaluations are the side on roll's five chances.

Skipped without Debian's gnubg, except in CI (`CI=true`), where a missing gnubg fails it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import pytest
from benchmarks.gnubg_player import Gnubg, available, gnubg_player

from hraj.games.backgammon.afterstates import afterstates
from hraj.games.backgammon.moves import START


@pytest.fixture(scope="module")
def gnubg() -> Iterator[Gnubg]:
    if not available():
        message = "Debian's gnubg is not installed (make test installs it)"
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(message)
        pytest.skip(message)
    with Gnubg() as process:
        yield process


def test_gnubg_plays_the_opening_three_one_as_every_book_does(gnubg: Gnubg) -> None:
    start = np.array(START + START, dtype=np.int8)
    plays, after = afterstates(start, (3, 1))
    chosen = gnubg_player(gnubg)(start, (3, 1), plays, after)
    assert sorted(plays[chosen]) == [(6, 5), (8, 5)]  # 8/5 6/5: making the five point


def test_gnubg_enters_from_the_bar_in_hrajs_numbering(gnubg: Gnubg) -> None:
    mine = [0] * 26
    mine[25], mine[6], mine[0] = 1, 10, 4  # one on the bar
    theirs = [0] * 26
    theirs[6], theirs[0] = 10, 5
    position = np.array(mine + theirs, dtype=np.int8)
    plays, after = afterstates(position, (6, 2))
    chosen = gnubg_player(gnubg)(position, (6, 2), plays, after)
    assert after[chosen][25] == 0  # it entered, as it must


def test_gnubg_gives_the_side_on_roll_its_chances(gnubg: Gnubg) -> None:
    mine = [14, 1] + [0] * 24  # one checker left on the one point: it comes off with any roll
    theirs = [0] * 26
    theirs[6] = 15
    win, *_ = gnubg.evaluate(np.array([mine + theirs], dtype=np.int8), 0)[0]
    lose, *_ = gnubg.evaluate(np.array([theirs + mine], dtype=np.int8), 0)[0]
    assert win > 0.99 and lose < 0.01
