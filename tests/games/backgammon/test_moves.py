"""Move generation: a perft-style table of (position, roll) -> distinct legal plays, and a
cross-check against an independent brute-force oracle on seeded random positions.

The oracle below shares no code with `hraj.games.backgammon.moves`: it keeps one signed
board from the mover's side (mine positive, theirs negative), tries the dice in every
order and every checker at every step, and applies the forced-play rules by their
definition over whole sequences.
"""

from __future__ import annotations

import itertools
import random

import pytest

from hraj.games.backgammon.moves import START, blocked_mask, blot_mask, legal_plays, occupied_mask, play_steps

from .helpers import position

# --- the oracle ---------------------------------------------------------------------------

# signed board: index 1..24 = mover's points (positive mine, negative theirs),
# 0 = mover's checkers off, 25 = mover's bar, 26 = opponent's bar (count, positive)
Signed = tuple[int, ...]


def to_signed(mine: tuple[int, ...], theirs: tuple[int, ...]) -> Signed:
    board = [0] * 27
    board[0] = mine[0]
    board[25] = mine[25]
    board[26] = theirs[25]
    for point in range(1, 25):
        board[point] = mine[point] - theirs[25 - point]
    return tuple(board)


def oracle_steps(board: Signed, die: int) -> list[Signed]:
    """Every board after one legal single step with `die`."""
    results = []
    sources = [25] if board[25] else [p for p in range(1, 25) if board[p] > 0]
    for source in sources:
        dest = source - die
        new = list(board)
        new[source] -= 1
        if dest >= 1:
            if board[dest] < -1:
                continue
            if board[dest] == -1:
                new[dest] = 0
                new[26] += 1
            new[dest] += 1
        else:
            outside = board[25] + sum(n for n in board[7:25] if n > 0)
            if outside:
                continue
            if dest < 0 and any(board[p] > 0 for p in range(source + 1, 7)):
                continue
            new[0] += 1
        results.append(tuple(new))
    return results


def oracle(mine: tuple[int, ...], theirs: tuple[int, ...], dice: tuple[int, int]) -> set[Signed]:
    """Resulting boards of the legal plays, by the rules' definition."""
    start = to_signed(mine, theirs)
    pools = [[dice[0]] * 4] if dice[0] == dice[1] else [list(order) for order in itertools.permutations(dice)]
    # (board, dice used in order) for every maximal sequence, deduplicated per level
    finished: set[tuple[Signed, tuple[int, ...]]] = set()
    for pool in pools:
        frontier: set[tuple[Signed, tuple[int, ...]]] = {(start, ())}
        while frontier:
            following: set[tuple[Signed, tuple[int, ...]]] = set()
            for board, used in frontier:
                if len(used) == len(pool):
                    finished.add((board, used))
                    continue
                nexts = oracle_steps(board, pool[len(used)])
                if not nexts:
                    finished.add((board, used))
                following.update((new, (*used, pool[len(used)])) for new in nexts)
            frontier = following
    most = max(len(used) for _, used in finished)
    if most == 0:
        return set()
    best = [(board, used) for board, used in finished if len(used) == most]
    if most == 1 and dice[0] != dice[1]:
        larger = [(board, used) for board, used in best if used[0] == max(dice)]
        if larger:
            best = larger
    return {board for board, _ in best}


# --- the perft table ------------------------------------------------------------------------

CLOSED_HOME = dict.fromkeys(range(1, 7), 2)

# (name, mover {point: n}, other {point: n}, dice, distinct legal plays), counted by hand
PERFT = [
    # the opening: well known counts
    ("opening 21", {24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, (2, 1), 15),
    ("opening 31", {24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, (3, 1), 16),
    # 6s: 24/18 13/7 8/2; 5s: 13/8 8/3 (24/19 and 6/1 are blocked). Distinct results:
    # 24/18 13/8, 24/18 8/3, 13/7 13/8, 13/7 8/3, 13/2, 8/2 8/3, 24/13
    ("opening 65", {24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, (6, 5), 7),
    # bar entry: two on the bar, 6-5, only their 6 point (my 19) open: one enters, the turn ends
    ("bar entry, second checker stays out", {25: 2, 13: 3}, {5: 2, 1: 2}, (6, 5), 1),
    ("closed board", {25: 1, 13: 3}, CLOSED_HOME, (6, 4), 0),
    # two on the 1 point: 6-5 bears both off
    ("bear-off with high dice", {1: 2}, {12: 2}, (6, 5), 1),
    # 6-5 with two on 4 and one on 2: the 6 and the 5 both bear off from the 4 point
    ("bear-off from the highest point", {4: 2, 2: 1}, {12: 2}, (6, 5), 1),
    # a checker on 6 and one on 2 with 2-1: 6/3, 6/4 2/1, 6/5 2/off (see the test below)
    ("bear-off or move inside", {6: 1, 2: 1}, {12: 2}, (2, 1), 3),
    # 6-1, lone checker on 20, 13 closed: only the 6
    ("larger-die rule", {20: 1}, {12: 2}, (6, 1), 1),
    # 6-4 from 24 with 18 and 20 closed: 24 cannot move; 13/7/3 is the only play
    ("blocked intermediate points", {24: 1, 13: 1}, {7: 2, 5: 2}, (6, 4), 1),
    # the same with only 20 closed: 24/18 13/9, 24/18/14, 13/7/3 (24/20 is closed)
    ("one open intermediate point", {24: 1, 13: 1}, {5: 2}, (6, 4), 3),
    # 5-5 with a lone checker on 24, 9 closed: 24/19/14 and no more
    ("doubles partly playable", {24: 1}, {16: 2}, (5, 5), 1),
]


@pytest.mark.parametrize(("name", "mover", "other", "dice", "count"), PERFT, ids=[row[0] for row in PERFT])
def test_perft_table(
    name: str, mover: dict[int, int], other: dict[int, int], dice: tuple[int, int], count: int
) -> None:
    state = position(mover, other)
    mine, theirs = tuple(state.boards[0]), tuple(state.boards[1])
    plays = legal_plays(mine, theirs, dice)
    assert len(plays) == count
    assert {to_signed(p.mine, p.theirs) for p in plays} == oracle(mine, theirs, dice)


def test_bear_off_or_move_inside_plays() -> None:
    # 2s: 6/4, 2/off; 1s: 6/5, 2/1 (1/off needs no checker above the 1 point).
    # 6/4 4/3 = 6/5 5/3; 6/4 2/1 = 2/1 6/4; 6/5 2/off = 2/off 6/5: three results
    state = position({6: 1, 2: 1}, {12: 2}, (2, 1))
    assert {str(p) for p in state.legal_actions(0) if "/" in str(p)} == {"6/4 4/3", "6/4 2/1", "6/5 2/off"}


def random_board(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A legal-looking random position: 15 checkers a side spread over points, bar and off."""
    mine, theirs = [0] * 26, [0] * 26
    style = rng.random()
    for board, other in ((mine, theirs), (theirs, mine)):
        for _ in range(15):
            roll = rng.random()
            if roll < 0.05:
                board[25] += 1
            elif roll < 0.15:
                board[0] += 1
            else:
                high = 6 if style > 0.8 else 24  # some positions are all home: bear-offs
                for _ in range(20):
                    point = rng.randint(1, high)
                    if other[25 - point] == 0:
                        board[point] += 1
                        break
                else:
                    board[0] += 1
    return tuple(mine), tuple(theirs)


def test_random_positions_agree_with_the_oracle() -> None:
    rng = random.Random(2026)
    compared = 0
    for _ in range(400):
        mine, theirs = random_board(rng)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        dice = (max(dice), min(dice))
        plays = legal_plays(mine, theirs, dice)
        assert {to_signed(p.mine, p.theirs) for p in plays} == oracle(mine, theirs, dice), (mine, theirs, dice)
        assert len({(p.mine, p.theirs) for p in plays}) == len(plays)
        compared += 1
    assert compared == 400


def test_start_position_doubles_agree_with_the_oracle() -> None:
    for die in range(1, 7):
        plays = legal_plays(START, START, (die, die))
        assert {to_signed(p.mine, p.theirs) for p in plays} == oracle(START, START, (die, die))


# --- the bit masks and the fast path --------------------------------------------------------


def test_masks_of_the_starting_position() -> None:
    # mine: 24, 13, 8, 6; theirs (from their side) 24, 13, 8, 6 = my 1, 12, 17, 19
    assert occupied_mask(START) == sum(1 << p for p in (24, 13, 8, 6))
    assert blocked_mask(START) == sum(1 << p for p in (1, 12, 17, 19))
    assert blot_mask(START) == 0


def test_masks_see_the_bar_and_blots_but_not_checkers_off() -> None:
    state = position({25: 1, 3: 2}, {5: 1, 7: 2, 25: 1})
    mine, theirs = tuple(state.boards[0]), tuple(state.boards[1])
    assert occupied_mask(mine) == (1 << 25) | (1 << 3)  # 12 checkers off: no bit 0
    assert blocked_mask(theirs) == 1 << 18  # their bar is not a point of mine
    assert blot_mask(theirs) == 1 << 20


def test_play_steps_are_the_steps_of_legal_plays() -> None:
    rng = random.Random(31)
    for _ in range(200):
        mine, theirs = random_board(rng)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        dice = (max(dice), min(dice))
        assert play_steps(mine, theirs, dice) == tuple(p.steps for p in legal_plays(mine, theirs, dice))
        assert play_steps(mine, theirs, (dice[1], dice[0])) == play_steps(mine, theirs, dice)


def test_hits_tell_apart_plays_with_the_same_checkers_moved() -> None:
    # 13/10 with 2-1: via 11 (a blot there) or via 12; the resulting boards differ
    state = position({13: 1}, {14: 1, 24: 1}, (2, 1))
    steps = play_steps(tuple(state.boards[0]), tuple(state.boards[1]), (2, 1))
    assert ((13, 11), (11, 10)) in steps and ((13, 12), (12, 10)) in steps


def test_both_dice_from_one_point_count_once() -> None:
    # 6-5 with two checkers on 13 and the 2 point closed (no 13/7/2, no 13/8/2):
    # 13/7 13/8, found with either die first
    state = position({13: 2}, {23: 2})
    plays = play_steps(tuple(state.boards[0]), tuple(state.boards[1]), (6, 5))
    assert plays == (((13, 7), (13, 8)),)


def test_bear_off_with_either_die_counts_once() -> None:
    # 6-5 with checkers on 3 and 2: each die bears one off, in either order: one play
    state = position({3: 1, 2: 1}, {12: 2})
    plays = play_steps(tuple(state.boards[0]), tuple(state.boards[1]), (6, 5))
    assert plays == (((3, 0), (2, 0)),)


def test_doubles_give_one_play_per_position() -> None:
    # 2-2 from the start: many orders of the same checkers, each position once
    plays = play_steps(START, START, (2, 2))
    positions = {play.mine for play in legal_plays(START, START, (2, 2))}
    assert len(plays) == len(positions) == len(oracle(START, START, (2, 2)))
