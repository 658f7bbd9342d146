"""Legal plays of one roll: every way to use the dice, kept by the forced-play rules.

A board is one player's side of the position as a tuple of 26 counts, numbered from
that player's own side: index 0 holds the checkers borne off, 1..24 the points, 25 the
bar. The opponent's point p is the mover's point 25 - p. A step is `(origin, target)`
in the mover's numbering, with origin 25 for the bar and target 0 for off.

Play generation works on bit masks of the mover's points (bit p for point p, bit 25
for the bar): the points the mover occupies, the points the opponent blocks (two or
more checkers) and the opponent's blots. The legal origins of one die are then a few
integer operations (`_origins`). Where two plays may reach the same position, the
position is told apart by an integer key: the change of the mover's board (one hex
digit per point, see `_WEIGHT`) and the mask of the points hit, so no board is built
while generating.

`play_steps` is pure and memoised on what it depends on: the mover's board, the blocked
and blot masks (blots only tell positions apart), and the dice. `legal_plays` adds the
positions after each play. Playouts rarely meet a position twice, so the state keeps
the plays of its turn itself (see `rules`).
"""

from __future__ import annotations

import operator
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from functools import _CacheInfo

OFF = 0
BAR = 25
HOME_SIZE = 6
CHECKERS = 15
POINTS = 24

Board = tuple[int, ...]
Step = tuple[int, int]
Steps = tuple[Step, ...]

START: Board = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
"""The starting position of either player: 5 on the 6-point, 3 on 8, 5 on 13, 2 on 24."""


class PlayResult(NamedTuple):
    """One legal play: its single-die steps (highest origin first) and the position after
    it, the mover's board followed by the opponent's (52 counts)."""

    steps: Steps
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


# --- bit masks ----------------------------------------------------------------------------

BAR_BIT = 1 << BAR
POINT_BITS = ((1 << (POINTS + 1)) - 1) ^ 1
"""Bits 1..24: the points."""
OUTSIDE_SHIFT = HOME_SIZE + 1
"""`occupied >> OUTSIDE_SHIFT` is zero exactly when every checker is home (bearing off allowed)."""
OUTSIDE_BIT = 1 << OUTSIDE_SHIFT

# bytes.translate tables: a count -> the digit "1" where the point is in the set, "0" elsewhere
_NONZERO = b"0" + b"1" * 255
_TWO_OR_MORE = b"00" + b"1" * 254
_EXACTLY_ONE = b"010" + b"0" * 253

_WEIGHT = tuple(16**index for index in range(BAR + 1))
"""A board as one integer: the count at index i is hex digit i. A roll moves at most four
checkers, so the change of a board (digits -4..4) is unique as well."""
HIT_BITS = BAR + 1
"""Result keys: (change of the mover's board << HIT_BITS) | mask of the points hit."""


def occupied_mask(mine: Board) -> int:
    """Bit p set where the mover has a checker on point p (1-24) or on the bar (25)."""
    return int(bytes(mine).translate(_NONZERO)[::-1], 2) & ~1


def blocked_mask(theirs: Board) -> int:
    """Bit p set where the opponent holds the mover's point p with two or more checkers."""
    # theirs[25 - p] is digit 25 - p of the string, read most significant first: bit p
    return int(bytes(theirs).translate(_TWO_OR_MORE), 2) & POINT_BITS


def blot_mask(theirs: Board) -> int:
    """Bit p set where the opponent has exactly one checker on the mover's point p."""
    return int(bytes(theirs).translate(_EXACTLY_ONE), 2) & POINT_BITS


def _origins(occupied: int, blocked: int, die: int) -> int:
    """Mask of the points (or the bar) from which one checker may move by `die`."""
    if occupied >> BAR:  # checkers on the bar enter first
        return occupied & BAR_BIT & ~(blocked << die)
    # a target from 1 up that is not blocked: origin bits above `die` whose target bit is clear
    origins = occupied & ~(blocked << die) & ~((2 << die) - 1)
    if not occupied >> OUTSIDE_SHIFT:  # all home: bear off exactly, or from the highest point
        origins |= occupied & (1 << die)
        top = occupied.bit_length() - 1
        if 0 < top < die:
            origins |= 1 << top
    return origins


# --- play generation ------------------------------------------------------------------------

Move = tuple[Step, int, int]
"""One checker moved by one die: the step, the bit of its target (0 when it bears off) and
its part of a result key (the change of the mover's board, shifted past the hit bits)."""


def _move(origin: int, die: int) -> Move:
    target = step_target(origin, die)
    return ((origin, target), 1 << target if target else 0, (_WEIGHT[target] - _WEIGHT[origin]) << HIT_BITS)


_MOVES = tuple(tuple(_move(origin, die) for origin in range(BAR + 1)) for die in range(7))
"""`_MOVES[die][origin]`, worked out once."""

# resulting position key -> (dice used, largest die used, steps); the best count wins
Found = dict[int, tuple[int, int, Steps]]


def _keep(found: Found, key: int, used: int, biggest: int, steps: Steps) -> None:
    best = found.get(key)
    if best is None or (used, biggest) > best[:2]:
        found[key] = (used, biggest, steps)


def _two_dice(mine: Board, occupied: int, blocked: int, blots: int, high: int, low: int) -> tuple[list[Steps], Found]:
    """Every way to play two different dice, either die first, highest origin first:
    the plays of both dice (the first found for each resulting position), and the plays
    of one die or none, which count only when no play uses both.

    A play is at most two steps: the origins of the first die, then for each of them the
    origins of the second die at or below it on the board after the first step.

    Two plays of both dice end in the same position only when both dice move checkers
    from one point (in either order), when one checker moves twice (through either
    intermediate point), or when a checker is borne off (a die larger than needed).
    Only those plays need a result key; every other play is new. (A play of one die can
    end where a play of both ends: the top checker borne off with the larger die, or in
    two steps. Then that is the only play of both dice, so keeping the two apart changes
    no order.)
    """
    both: list[Steps] = []
    seen: set[int] = set()  # result keys of the plays that another play may repeat
    found: Found = {}
    for first, second in ((high, low), (low, high)):
        firsts = _origins(occupied, blocked, first)
        if not firsts:
            _keep(found, 0, 0, 0, ())
        moves, next_moves = _MOVES[first], _MOVES[second]
        open_for_second = ~(blocked << second) & ~((2 << second) - 1)  # `_origins` without bar or bearing off
        while firsts:
            o1 = firsts.bit_length() - 1
            firsts ^= 1 << o1
            step1, bit1, change1 = moves[o1]
            after = (occupied ^ (1 << o1) if mine[o1] == 1 else occupied) | bit1
            if OUTSIDE_BIT <= after < BAR_BIT:
                seconds = after & open_for_second & ((2 << o1) - 1)
            else:
                seconds = _origins(after, blocked, second) & ((2 << o1) - 1)
            hit1 = blots & bit1
            if not seconds:
                _keep(found, change1 + hit1, 1, first, (step1,))
            landing = step1[1]
            while seconds:
                o2 = seconds.bit_length() - 1
                seconds ^= 1 << o2
                step2, bit2, change2 = next_moves[o2]
                if bit1 and bit2 and o2 != o1 and o2 != landing:  # noqa: PLR1714 (no tuple built)
                    both.append((step1, step2))
                    continue
                key = change1 + change2 + (hit1 | (blots & bit2))
                if key not in seen:
                    seen.add(key)
                    both.append((step1, step2))
    return both, found


def _doubles(mine: Board, occupied: int, blocked: int, die: int) -> tuple[Steps, ...]:
    """Every way to play as many steps of `die` as possible (four at most), origins never
    increasing, in the order of a depth-first walk.

    These plays need no deduplication: with a single die, the position after a play fixes
    how many checkers left each point, which is all a play with non-increasing origins is.
    """
    counts = list(mine)
    ends: list[list[Steps]] = [[] for _ in range(5)]  # plays that cannot go on, by dice used
    moves = _MOVES[die]
    open_for_die = ~(blocked << die) & ~((2 << die) - 1)  # `_origins` without bar or bearing off

    def walk(occupied: int, top: int, steps: Steps) -> None:
        if OUTSIDE_BIT <= occupied < BAR_BIT:
            origins = occupied & open_for_die & ((2 << top) - 1)
        else:
            origins = _origins(occupied, blocked, die) & ((2 << top) - 1)
        if not origins:
            ends[len(steps)].append(steps)
        elif len(steps) == 3:  # the fourth step ends every play: no board to update
            fours = ends[4]
            while origins:
                origin = origins.bit_length() - 1
                origins ^= 1 << origin
                fours.append((*steps, moves[origin][0]))
        else:
            while origins:
                origin = origins.bit_length() - 1
                origins ^= 1 << origin
                step, bit, _ = moves[origin]
                target = step[1]
                counts[origin] -= 1
                counts[target] += 1
                walk((occupied if counts[origin] else occupied ^ (1 << origin)) | bit, origin, (*steps, step))
                counts[origin] += 1
                counts[target] -= 1

    walk(occupied, BAR, ())
    most = max(used for used in range(5) if ends[used])
    return tuple(ends[most]) if most else ()


@lru_cache(maxsize=1 << 12)  # about 7 MB when full (measured over random games)
def _plays(mine: Board, blocked: int, blots: int, high: int, low: int) -> tuple[Steps, ...]:
    occupied = occupied_mask(mine)
    if high == low:
        return _doubles(mine, occupied, blocked, high)
    both, found = _two_dice(mine, occupied, blocked, blots, high, low)
    if both:
        return tuple(both)
    most, biggest, _ = max(found.values())  # one die or none; the larger die if it can be
    if most == 0:
        return ()
    return tuple(steps for _, die, steps in found.values() if die == biggest)


def play_steps(mine: Board, theirs: Board, dice: tuple[int, int]) -> tuple[Steps, ...]:
    """The steps of every legal play of `dice`, one per distinct resulting position.

    The forced-play rules: use as many dice as possible (four with a double); when
    only one of two different dice can be used, the larger one if it can be. An empty
    tuple means the roll cannot be played at all. The order is fixed: the larger die
    first before the smaller die first, higher origins before lower ones.
    """
    high, low = dice
    if high < low:
        high, low = low, high
    return _plays(mine, blocked_mask(theirs), blot_mask(theirs), high, low)


def play_cache_info() -> _CacheInfo:
    """Hits, misses and size of the memo of `play_steps` (for benchmarks)."""
    return _plays.cache_info()


def legal_plays(mine: Board, theirs: Board, dice: tuple[int, int]) -> tuple[PlayResult, ...]:
    """`play_steps` with the position after each play (the mover's board, then the opponent's)."""
    return play_results(mine, theirs, play_steps(mine, theirs, dice))


def play_results(mine: Board, theirs: Board, legal: tuple[Steps, ...]) -> tuple[PlayResult, ...]:
    """Each of the `legal` plays from this position, with the position after it."""
    results = []
    for steps in legal:
        me, opp = list(mine), list(theirs)
        for origin, target in steps:
            apply_step(me, opp, origin, origin - target)
        results.append(PlayResult(steps, (*me, *opp)))
    return tuple(results)


def pip_count(board: Board | list[int]) -> int:
    """Pips a player still has to move: the sum of point numbers, 25 for the bar."""
    return sum(map(operator.mul, board, _PIP_WEIGHTS))


#: The pips of a checker on each index of a board: 0 once borne off, 25 on the bar.
_PIP_WEIGHTS = range(BAR + 1)


def is_contact(mine: Board | list[int], theirs: Board | list[int]) -> bool:
    """Can the two sides still meet? False in a pure race."""
    my_back = max((p for p in range(1, BAR + 1) if mine[p]), default=0)
    their_back = max((p for p in range(1, BAR + 1) if theirs[p]), default=0)
    # their rearmost checker stands on my point 25 - their_back; contact while mine is behind it
    return my_back + their_back > BAR
