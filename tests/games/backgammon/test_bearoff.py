"""The bear-off database against hand counts and a brute-force recursion over the rules' own plays."""

from __future__ import annotations

from functools import cache
from itertools import pairwise

import pytest

from hraj.games.backgammon.bearoff import (
    bearoff_probabilities,
    database,
    home_board,
    home_positions,
    is_bearoff,
    pips,
)
from hraj.games.backgammon.bearoff_build import single_steps
from hraj.games.backgammon.moves import CHECKERS, legal_plays

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
#: Differences the 1/65535 storage may leave.
STORED = 2e-4


def weight(a: int, b: int) -> float:
    return (1 if a == b else 2) / 36


def full(home: tuple[int, ...]) -> tuple[int, ...]:
    """A side's 26 counts from its home board; the rest borne off."""
    return (CHECKERS - sum(home), *home, *([0] * 19))


#: The other side's checkers sit in its own home board (the mover's points 19-24),
#: out of the way, so the rules' play generator sees a plain bear-off.
FAR = (0, 3, 3, 3, 2, 2, 2, *([0] * 19))


def after_plays(home: tuple[int, ...], a: int, b: int) -> set[tuple[int, ...]]:
    """Home boards the rules' legal plays reach."""
    return {tuple(play.mine[1:7]) for play in legal_plays(full(home), FAR, (a, b))}


@cache
def brute_expected(home: tuple[int, ...]) -> float:
    """Fewest expected rolls, by recursion over the rules engine's plays."""
    if not any(home):
        return 0.0
    return 1.0 + sum(weight(a, b) * min(brute_expected(after) for after in after_plays(home, a, b)) for a, b in ROLLS)


@cache
def brute_win(mine: tuple[int, ...], theirs: tuple[int, ...]) -> float:
    """The side on roll's chance to bear off first, each play chosen to win most: the two-sided optimum."""
    total = 0.0
    for a, b in ROLLS:
        best = 0.0
        for after in after_plays(mine, a, b):
            best = max(best, 1.0 if not any(after) else 1.0 - brute_win(theirs, after))
        total += weight(a, b) * best
    return total


def test_there_are_54264_positions_ordered_by_pips() -> None:
    boards = home_positions()
    assert len(boards) == 54264
    assert boards[0] == (0,) * 6
    assert all(pips(x) <= pips(y) for x, y in pairwise(boards))
    assert max(sum(board) for board in boards) == 15


def test_one_checker_on_the_one_point_takes_one_roll() -> None:
    db = database()
    assert db.expected_rolls((1, 0, 0, 0, 0, 0)) == pytest.approx(1.0)
    assert db.race_win_probability((1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0)) == pytest.approx(1.0)


def test_two_checkers_on_the_six_point_by_hand() -> None:
    """Only 3-3 to 6-6 bear both off in one roll (4 in 36); the average follows the brute force."""
    db = database()
    row = db.rolls[db.row((0, 0, 0, 0, 0, 2))]
    assert row[1] == pytest.approx(4 / 36, abs=STORED)
    assert db.expected_rolls((0, 0, 0, 0, 0, 2)) == pytest.approx(brute_expected((0, 0, 0, 0, 0, 2)), abs=STORED)


def test_one_checker_on_the_six_point_races_one_on_the_one_point() -> None:
    """On roll with one checker on the 6-point against one on the 1-point: win only by
    bearing it off at once, with any roll of 6 pips or more (2-2 counts 8)."""
    six = (0, 0, 0, 0, 0, 1)
    one = (1, 0, 0, 0, 0, 0)
    reaching = sum(weight(a, b) for a, b in ROLLS if (a + b >= 6 if a != b else 4 * a >= 6))
    assert database().race_win_probability(six, one) == pytest.approx(reaching, abs=STORED)


@pytest.mark.parametrize(
    "home",
    [
        (2, 0, 0, 0, 0, 0),
        (0, 0, 1, 0, 1, 0),
        (1, 1, 1, 0, 0, 0),
        (0, 0, 0, 2, 0, 1),
        (3, 0, 0, 0, 0, 0),
        (0, 1, 0, 1, 0, 2),
    ],
)
def test_expected_rolls_match_a_brute_force_over_the_rules_plays(home: tuple[int, ...]) -> None:
    assert database().expected_rolls(home) == pytest.approx(brute_expected(home), abs=1e-3)


def composed(home: tuple[int, ...], dice: list[int]) -> set[tuple[int, ...]]:
    """Home boards the builder's one-die steps reach by playing `dice` in that order."""
    boards = {home}
    for die in dice:
        boards = {after for board in boards for after in (single_steps(board, die) or [board])}
    return boards


@pytest.mark.parametrize("home", [(0, 0, 0, 0, 0, 3), (1, 0, 2, 0, 0, 0), (0, 2, 0, 0, 1, 0), (2, 1, 0, 3, 1, 2)])
def test_the_builders_plays_are_the_rules_plays(home: tuple[int, ...]) -> None:
    for a, b in ROLLS:
        orders = [[a] * 4] if a == b else [[a, b], [b, a]]
        assert set().union(*(composed(home, order) for order in orders)) == after_plays(home, a, b), (a, b)


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        ((0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0)),
        ((1, 1, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0)),
        ((0, 0, 1, 1, 0, 0), (0, 1, 0, 1, 0, 0)),
        ((0, 0, 0, 0, 2, 0), (1, 0, 0, 0, 0, 1)),
        ((2, 0, 1, 0, 0, 0), (0, 0, 0, 1, 1, 0)),
    ],
)
def test_race_odds_match_a_two_sided_brute_force(mine: tuple[int, ...], theirs: tuple[int, ...]) -> None:
    """With a few checkers the fastest bear-off is also the winning one."""
    assert database().race_win_probability(mine, theirs) == pytest.approx(brute_win(mine, theirs), abs=STORED)


def test_gammons_seen_from_either_side_agree() -> None:
    """A fast side against 15 checkers piled on the 6-point: both sides see gammons,
    and the slow side is gammoned less when it rolls first."""
    db = database()
    fast, slow = (3, 3, 3, 3, 3, 0), (0, 0, 0, 0, 0, 15)
    gammon = db.gammon_probability(fast, slow)
    assert 0.0 < gammon < db.race_win_probability(fast, slow) <= 1.0
    # the slow side on roll is gammoned less often than when it rolls second
    loss = db.gammon_loss_probability(slow, fast)
    assert 0.0 < loss < gammon


def test_no_gammon_once_a_checker_is_off() -> None:
    db = database()
    assert db.gammon_probability((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 14)) == 0.0
    assert db.gammon_loss_probability((0, 0, 0, 0, 0, 14), (1, 0, 0, 0, 0, 0)) == 0.0


def test_gammon_when_fifteen_checkers_cannot_get_one_off_in_time() -> None:
    """One checker on the 1-point against 15 on the 6-point: the first roll wins a gammon."""
    db = database()
    assert db.gammon_probability((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 15)) == pytest.approx(1.0, abs=STORED)
    # 15 on the 6-point, on roll, bear one off only with an exact number (the higher
    # checkers forbid bearing off a lower one with a bigger die): any 6 (11 rolls),
    # 5-1, 4-2 (2 each), 3-3 and 2-2; else they are gammoned on the other's first roll
    assert db.gammon_loss_probability((0, 0, 0, 0, 0, 15), (1, 0, 0, 0, 0, 0)) == pytest.approx(19 / 36, abs=STORED)


def test_full_boards_and_positions_outside_the_database() -> None:
    mine = full((0, 0, 0, 0, 0, 1))
    theirs = full((1, 0, 0, 0, 0, 0))
    assert is_bearoff(mine, theirs)
    probabilities = bearoff_probabilities(mine, theirs)
    assert probabilities is not None
    assert probabilities[0] == pytest.approx(database().race_win_probability((0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0)))
    outside = list(mine)
    outside[7] = 1
    outside[0] -= 1
    assert home_board(outside) is None
    assert bearoff_probabilities(outside, theirs) is None
    with pytest.raises(ValueError, match="home board"):
        database().row((16, 0, 0, 0, 0, 0))
