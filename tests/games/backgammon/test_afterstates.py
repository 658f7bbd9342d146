"""The fast afterstate generator gives exactly the engine's legal plays and positions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hraj.games.backgammon.afterstates import ROLL_WEIGHTS, ROLLS, afterstates, afterstates_of_rolls, apply_plays, swap
from hraj.games.backgammon.moves import START, legal_plays


def _positions(count: int, seed: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """`count` positions (mover's board, opponent's board) met in random games, a new game
    whenever one ends."""
    rng = random.Random(seed)
    found: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    position = np.array(START + START, dtype=np.int8)
    while len(found) < count:
        found.append((tuple(position[:26].tolist()), tuple(position[26:].tolist())))
        _, after = afterstates(position, (rng.randint(1, 6), rng.randint(1, 6)))
        chosen = after[rng.randrange(len(after))]
        position = np.array(START + START, dtype=np.int8) if chosen[0] == 15 else swap(chosen)
    return found


def test_afterstates_match_the_engine_in_thousands_of_random_positions() -> None:
    rng = random.Random(15)
    checked = 0
    for mine, theirs in _positions(2000, seed=15):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays, after = afterstates(np.array(mine + theirs, dtype=np.int8), dice)
        expected = {play.after for play in legal_plays(mine, theirs, dice)} or {mine + theirs}
        found = [tuple(row.tolist()) for row in after]
        assert len(found) == len(set(found)) == len(plays), (mine, theirs, dice)
        assert set(found) == expected, (mine, theirs, dice)
        checked += 1
    assert checked == 2000


def test_a_hit_sends_the_blot_to_the_bar() -> None:
    mine = list(START)
    theirs = [0] * 26
    theirs[0], theirs[25 - 5] = 14, 1  # a blot on the mover's 5 point
    position = np.array(mine + theirs, dtype=np.int8)
    (after,) = apply_plays(position, [((8, 5), (6, 5))])
    assert after[5] == 2 and after[8] == 2 and after[6] == 4
    assert after[26 + 20] == 0 and after[26 + 25] == 1


def test_no_legal_play_leaves_the_position_as_it_was() -> None:
    mine = [0] * 26
    mine[25] = 1
    mine[0] = 14
    theirs = [0] * 26
    for point in range(1, 7):  # a closed board where the mover enters (its points 19-24)
        theirs[point] = 2
    theirs[0] = 3
    position = np.array(mine + theirs, dtype=np.int8)
    plays, after = afterstates(position, (6, 5))
    assert plays == ((),)
    assert (after[0] == position).all()


def test_swap_turns_the_position_round() -> None:
    position = np.arange(52, dtype=np.int8)
    assert swap(position).tolist() == [*range(26, 52), *range(26)]
    assert (swap(swap(position)) == position).all()


def test_all_rolls_at_once_give_each_rolls_afterstates() -> None:
    for mine, theirs in _positions(60, seed=16):
        position = np.array(mine + theirs, dtype=np.int8)
        after, starts = afterstates_of_rolls(position)
        assert len(starts) == len(ROLLS) + 1 and starts[-1] == len(after)
        for index, roll in enumerate(ROLLS):
            _, expected = afterstates(position, roll)
            assert (after[starts[index] : starts[index + 1]] == expected).all()
    assert ROLL_WEIGHTS.sum() == pytest.approx(1)
