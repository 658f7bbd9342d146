"""Legal plays of one roll: every way to use the dice, kept by the forced-play rules.

A board is one player's side of the position as a tuple of 26 counts, numbered from
that player's own side: index 0 holds the checkers borne off, 1..24 the points, 25 the
bar. The opponent's point p is the mover's point 25 - p. A step is `(origin, target)`
in the mover's numbering, with origin 25 for the bar and target 0 for off.

`legal_plays` is pure and memoised on (mover's board, opponent's board, dice), so bots
that look at the same position twice pay once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

OFF = 0
BAR = 25
HOME_SIZE = 6
CHECKERS = 15
POINTS = 24

Board = tuple[int, ...]
Step = tuple[int, int]

START: Board = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
"""The starting position of either player: 5 on the 6-point, 3 on 8, 5 on 13, 2 on 24."""


class PlayResult(NamedTuple):
    """One legal play: its single-die steps (highest origin first) and the position after
    it, the mover's board followed by the opponent's (52 counts)."""

    steps: tuple[Step, ...]
    after: tuple[int, ...]

    @property
    def mine(self) -> Board:
        """The mover's board after the play."""
        return self.after[: BAR + 1]

    @property
    def theirs(self) -> Board:
        """The opponent's board after the play."""
        return self.after[BAR + 1 :]


def is_open(theirs: Board | list[int], target: int) -> bool:
    """May the mover land on its point `target` (1-24)? Open = fewer than two opposing checkers."""
    return theirs[BAR - target] < 2


def all_home(mine: Board | list[int]) -> bool:
    """Are all of the mover's checkers in the home board or borne off (bearing off allowed)?"""
    return not any(mine[HOME_SIZE + 1 :])


def step_target(origin: int, die: int) -> int:
    """Where a checker from `origin` lands with `die` (0 when it bears off)."""
    return max(origin - die, OFF)


def can_step(mine: Board | list[int], theirs: Board | list[int], origin: int, die: int) -> bool:
    """Is moving one checker from `origin` by `die` a legal single step now?"""
    if mine[origin] == 0 or origin == OFF:
        return False
    if mine[BAR] and origin != BAR:
        return False  # checkers on the bar enter first
    target = origin - die
    if target >= 1:
        return is_open(theirs, target)
    if not all_home(mine):
        return False
    # exact bear-off, or a higher die when no checker stands on a higher point
    return target == 0 or not any(mine[origin + 1 : HOME_SIZE + 1])


def apply_step(mine: list[int], theirs: list[int], origin: int, die: int) -> bool:
    """Move one checker in place (the step must be legal); True if it hit a blot."""
    target = step_target(origin, die)
    mine[origin] -= 1
    mine[target] += 1
    if target != OFF and theirs[BAR - target] == 1:
        theirs[BAR - target] = 0
        theirs[BAR] += 1
        return True
    return False


@lru_cache(maxsize=1 << 12)  # a few thousand positions: about 40 MB at most
def legal_plays(mine: Board, theirs: Board, dice: tuple[int, int]) -> tuple[PlayResult, ...]:
    """Every legal play of `dice`, one per distinct resulting position.

    The forced-play rules: use as many dice as possible (four with a double); when
    only one of two different dice can be used, the larger one if it can be. An empty
    tuple means the roll cannot be played at all.
    """
    high, low = max(dice), min(dice)
    orders = [(high,) * 4] if high == low else [(high, low), (low, high)]
    me, opp = list(mine), list(theirs)
    steps: list[Step] = []
    # resulting position -> (dice used, largest die used, steps); the best count wins
    found: dict[tuple[int, ...], tuple[int, int, tuple[Step, ...]]] = {}
    outside = sum(me[HOME_SIZE + 1 :])  # checkers not yet home (the bar included)

    def walk(order: tuple[int, ...], depth: int, highest: int, biggest: int) -> None:
        # The checks of `can_step`, inlined: this loop is the hot spot of every bot.
        nonlocal outside
        moved = False
        if depth < len(order):
            die = order[depth]
            # Steps are taken highest origin first: any legal play can be reordered so
            # (moves only go down, hits do not change own checkers), and it avoids
            # generating the same set of steps in every order.
            if me[BAR]:
                origins: range = range(BAR, BAR - 1, -1) if highest == BAR else range(0)
            else:
                origins = range(min(highest, POINTS), 0, -1)
            for origin in origins:
                if not me[origin]:
                    continue
                target = origin - die
                if target >= 1:
                    if opp[BAR - target] >= 2:
                        continue
                elif outside or (target < 0 and any(me[origin + 1 : HOME_SIZE + 1])):
                    continue
                else:
                    target = OFF
                moved = True
                me[origin] -= 1
                me[target] += 1
                arrived = origin > HOME_SIZE >= target
                if arrived:
                    outside -= 1
                hit = target != OFF and opp[BAR - target] == 1
                if hit:
                    opp[BAR - target] = 0
                    opp[BAR] += 1
                steps.append((origin, target))
                walk(order, depth + 1, origin, die if die > biggest else biggest)
                steps.pop()
                me[origin] += 1
                me[target] -= 1
                if arrived:
                    outside += 1
                if hit:
                    opp[BAR - target] = 1
                    opp[BAR] -= 1
        if not moved:
            key = (*me, *opp)
            best = found.get(key)
            if best is None or (depth, biggest) > best[:2]:
                found[key] = (depth, biggest, tuple(steps))

    for order in orders:
        walk(order, 0, BAR, 0)
    most = max(used for used, _, _ in found.values())
    if most == 0:
        return ()
    keep = [(key, entry) for key, entry in found.items() if entry[0] == most]
    if most == 1 and high != low and any(entry[1] == high for _, entry in keep):
        keep = [(key, entry) for key, entry in keep if entry[1] == high]
    return tuple(PlayResult(entry[2], key) for key, entry in keep)


def pip_count(board: Board | list[int]) -> int:
    """Pips a player still has to move: the sum of point numbers, 25 for the bar."""
    return sum(point * board[point] for point in range(1, BAR + 1))


def is_contact(mine: Board | list[int], theirs: Board | list[int]) -> bool:
    """Can the two sides still meet? False in a pure race."""
    my_back = max((p for p in range(1, BAR + 1) if mine[p]), default=0)
    their_back = max((p for p in range(1, BAR + 1) if theirs[p]), default=0)
    # their rearmost checker stands on my point 25 - their_back; contact while mine is behind it
    return my_back + their_back > BAR
