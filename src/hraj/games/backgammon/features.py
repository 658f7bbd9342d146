"""The evaluator's expert inputs: what a player sees at a glance, as gnubg's nets are fed.

A net that sees only the checker counts must learn from games alone what every player
knows: how hard a checker finds it to get past a blockade, how many rolls hit a blot,
how strong a home board is. gnubg adds such measures to the raw counts of its contact
nets; these are hraj's own, computed for a whole batch of positions at once (bit masks
of points, one pass for each of the 21 rolls):

- the raw counts, Tesauro's four units for each point and the bar (one, two, three
  checkers and (n - 3) / 2 above), the checkers borne off and the pip count;
- the rearmost checker and the rearmost point made (two or more checkers);
- escapes: of the 36 rolls, how many carry the rearmost checker past the farthest of the
  opponent's points ahead of it, every landing point open (the next 12 points looked
  at), and the
  containment of the side's checkers in the opponent's half: 36 less the fewest escapes
  from any of its points 13-24 at or below the rearmost checker, and its square;
- shots: the chance that the other side, rolling next, can hit at least one blot of
  this side (direct and indirect shots, through open points; a checker on the bar
  enters first);
- the home board points made, and the longest run of points made (a prime);

each for both sides, the side on roll first, and whether the sides can still meet.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.moves import BAR, CHECKERS, HOME_SIZE, POINTS

SIDE = BAR + 1
POSITION = 2 * SIDE
MAX_PIPS = 167.0
RAW = 4 * BAR
"""Tesauro's units of one side: four for each point and the bar."""
EXTRA = 10
"""The measures of one side after its raw units (see `_side`)."""
INPUTS = 2 * (RAW + EXTRA) + 1
WINDOW = 12
"""Points ahead of a checker that escapes look at."""

Positions = NDArray[np.int8]
Inputs = NDArray[np.float32]
Bits = NDArray[np.uint64]

_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))
_WEIGHTS = tuple(1 if a == b else 2 for a, b in _ROLLS)
"""How many of the 36 rolls each of `_ROLLS` stands for."""


def _unit_table() -> NDArray[np.float32]:
    table = np.zeros((CHECKERS + 1, 4), dtype=np.float32)
    for count in range(CHECKERS + 1):
        table[count] = (count >= 1, count >= 2, count >= 3, max(count - 3, 0) / 2)
    return table


_UNITS = _unit_table().view(np.complex128).reshape(CHECKERS + 1)
"""The four float32 units of a count as one 16-byte item: one gather moves all four."""


def _escape_table() -> NDArray[np.float32]:
    """Escapes for each pattern of the 12 points ahead (bit i: the point i + 1 ahead is
    held by the opponent): the share of the 36 rolls with which the checker can land
    beyond the farthest point held, every landing point on the way open."""
    table = np.zeros(1 << WINDOW, dtype=np.float32)
    for pattern in range(1 << WINDOW):
        farthest = pattern.bit_length()

        def open_at(distance: int, pattern: int = pattern) -> bool:
            return distance > WINDOW or not pattern >> (distance - 1) & 1

        for (high, low), weight in zip(_ROLLS, _WEIGHTS, strict=True):
            if high == low:
                steps = 0
                while steps < 4 and open_at(high * (steps + 1)):
                    steps += 1
                escapes = high * steps > farthest
            else:
                one = any(die > farthest and open_at(die) for die in (high, low))
                both = high + low > farthest and open_at(high + low) and (open_at(high) or open_at(low))
                escapes = one or both
            table[pattern] += weight * escapes
    return table / np.float32(36)


_ESCAPES = _escape_table()
_HOME_PRIME = np.array([bin(mask).count("1") for mask in range(1 << HOME_SIZE)], dtype=np.float32) / HOME_SIZE


def _longest_runs() -> NDArray[np.float32]:
    """The longest run of set bits of every 12-bit mask, up to 6, / 6."""
    table = np.zeros(1 << WINDOW, dtype=np.float32)
    for mask in range(1 << WINDOW):
        run = best = 0
        for bit in range(WINDOW):
            run = run + 1 if mask >> bit & 1 else 0
            best = max(best, run)
        table[mask] = min(best, HOME_SIZE) / HOME_SIZE
    return table


_RUNS = _longest_runs()
_POINT_BITS = np.uint64(((1 << (POINTS + 1)) - 1) ^ 1)


def bit_rows(flags: NDArray[np.bool_]) -> Bits:
    """Rows of up to 64 flags as integers, flag i as bit i."""
    packed = np.packbits(flags, axis=1, bitorder="little")
    wide = np.zeros((len(flags), 8), dtype=np.uint8)
    wide[:, : packed.shape[1]] = packed
    return np.asarray(wide.view("<u8")[:, 0].astype(np.uint64))


def _highest(bits: Bits) -> NDArray[np.int64]:
    """The highest set bit of each integer (0 for none; bits up to 25)."""
    return np.where(bits > 0, np.frexp(bits.astype(np.float64))[1] - 1, 0).astype(np.int64)


def shot_chance(attacker: Positions, defender: Positions) -> NDArray[np.float32]:
    """The chance that `attacker`, on roll, can hit at least one of `defender`'s blots.
    Both are boards (n, 26) in their own numbering."""
    theirs_here = defender[:, BAR - 1 : 0 : -1]  # the defender's count on the attacker's points 1..24
    blots = bit_rows(theirs_here == 1) << np.uint64(1)
    chance = np.zeros(len(attacker), dtype=np.float32)
    targets = np.flatnonzero(blots)
    if not len(targets):
        return chance
    blots = blots[targets]
    open_ = ~(bit_rows(theirs_here[targets] >= 2) << np.uint64(1)) & _POINT_BITS
    origins = bit_rows(attacker[targets, 1:SIDE] > 0) << np.uint64(1)
    on_bar = attacker[targets, BAR]
    free = on_bar == 0
    found = np.zeros(len(targets), dtype=np.float32)
    found[free] = _free_shots(origins[free], blots[free], open_[free])
    if not free.all():
        barred = ~free
        found[barred] = _shots_from_the_bar(origins[barred], blots[barred], open_[barred], on_bar[barred])
    chance[targets] = found
    return chance


def _free_shots(origins: Bits, blots: Bits, open_: Bits) -> NDArray[np.float32]:
    """`shot_chance` where the attacker has no checker on the bar: for each roll, a die
    direct, or one checker with both dice through an open point (a double: up to four
    steps, each landing open)."""
    dice = [np.uint64(die) for die in range(7)]
    ahead = [origins] + [origins >> dice[die] for die in range(1, 7)]  # where one die takes a checker
    direct = [np.zeros(len(origins), dtype=np.bool_)] + [(ahead[die] & blots) != 0 for die in range(1, 7)]
    stop = [origins] + [ahead[die] & open_ for die in range(1, 7)]  # landed on an open point
    chance = np.zeros(len(origins), dtype=np.float32)
    for (high, low), weight in zip(_ROLLS, _WEIGHTS, strict=True):
        if high == low:
            hit = direct[high].copy()
            reach = stop[high]
            for _ in range(3):
                reach = reach >> dice[high]
                hit |= (reach & blots) != 0
                reach &= open_
        else:
            hit = direct[high] | direct[low] | ((((stop[high] >> dice[low]) | (stop[low] >> dice[high])) & blots) != 0)
        chance += np.float32(weight) * hit
    return chance / np.float32(36)


def _shots_from_the_bar(origins: Bits, blots: Bits, open_: Bits, on_bar: NDArray[np.int8]) -> NDArray[np.float32]:
    """`shot_chance` where the attacker has checkers on the bar: they enter first (25 - die),
    then what dice are left move any checker."""
    bar_bit = np.uint64(1 << BAR)
    board = origins & ~bar_bit
    dice = [np.uint64(die) for die in range(7)]
    entered = [board] + [(bar_bit >> dice[die]) & open_ for die in range(1, 7)]  # where a die enters, if open
    hits_entering = [board] + [(entered[die] & blots) != 0 for die in range(1, 7)]
    alone = on_bar == 1  # one checker on the bar: once it is in, the other die moves any checker
    movers = [board] + [
        np.where(alone & (entered[die] != 0), board | entered[die], np.uint64(0)) for die in range(1, 7)
    ]
    chance = np.zeros(len(origins), dtype=np.float32)
    for (high, low), weight in zip(_ROLLS, _WEIGHTS, strict=True):
        if high == low:
            die = dice[high]
            hit = entered[high] & blots
            steps_left = np.where(entered[high] != 0, np.maximum(4 - on_bar.astype(np.int64), 0), 0)
            reach = np.where(steps_left > 0, board | entered[high], np.uint64(0))
            for steps in range(1, 4):
                reach = (reach >> die) & np.where(steps <= steps_left, open_, np.uint64(0))
                hit |= reach & blots
            found = hit != 0
        else:
            after_high = (movers[high] >> dice[low]) & blots
            after_low = (movers[low] >> dice[high]) & blots
            found = hits_entering[high] | hits_entering[low] | ((after_high | after_low) != 0)
        chance += np.float32(weight) * found
    return chance / np.float32(36)


def _side(mine: Positions, theirs: Positions, out: Inputs) -> None:
    """One side's measures (n, EXTRA) into `out`: `mine` and `theirs` are boards in their
    own numbering."""
    made = bit_rows(mine >= 2) & _POINT_BITS
    occupied = bit_rows(mine > 0) & ~np.uint64(1)
    their_points = bit_rows(theirs[:, BAR - 1 : 0 : -1] >= 2) << np.uint64(1)  # held against me, my numbering
    back = _highest(occupied)
    out[:, 0] = mine[:, 0] / CHECKERS
    out[:, 1] = (mine.astype(np.float32) @ np.arange(SIDE, dtype=np.float32)) / MAX_PIPS
    out[:, 2] = back / BAR
    out[:, 3] = _highest(made) / POINTS
    shifted = their_points << np.uint64(WINDOW)  # bit WINDOW + p: point p; below 1 nothing is held
    window = np.uint64((1 << WINDOW) - 1)

    def escapes(point: NDArray[np.int64]) -> NDArray[np.float32]:
        pattern = (shifted >> point.astype(np.uint64)) & window  # bit j: point p - 12 + j
        reversed_ = _REVERSE[pattern.astype(np.int64)]  # bit i: point p - 1 - i
        return np.asarray(_ESCAPES[reversed_])

    out[:, 4] = np.where(back > 0, escapes(back), 1.0)
    fewest = np.ones(len(mine), dtype=np.float32)
    for point in range(13, SIDE):
        here = np.full(len(mine), point, dtype=np.int64)
        candidate = escapes(here)
        fewest = np.where(back >= point, np.minimum(fewest, candidate), fewest)
    out[:, 5] = 1.0 - fewest
    out[:, 6] = out[:, 5] ** 2
    out[:, 7] = _HOME_PRIME[((made >> np.uint64(1)) & np.uint64((1 << HOME_SIZE) - 1)).astype(np.int64)]
    low_run = _RUNS[((made >> np.uint64(1)) & window).astype(np.int64)]
    high_run = _RUNS[((made >> np.uint64(WINDOW + 1)) & window).astype(np.int64)]
    middle_run = _RUNS[((made >> np.uint64(7)) & window).astype(np.int64)]
    out[:, 8] = np.maximum(np.maximum(low_run, high_run), middle_run)
    out[:, 9] = shot_chance(theirs, mine)


def _reverse_table() -> NDArray[np.int64]:
    table = np.zeros(1 << WINDOW, dtype=np.int64)
    for mask in range(1 << WINDOW):
        table[mask] = int(f"{mask:0{WINDOW}b}"[::-1], 2)
    return table


_REVERSE = _reverse_table()


def contact(positions: Positions) -> NDArray[np.bool_]:
    """Can the sides still meet (not a pure race)? One flag per position."""
    mine, theirs = positions[:, :SIDE], positions[:, SIDE:]
    my_back = _highest(bit_rows(mine[:, 1:] > 0) << np.uint64(1))
    their_back = _highest(bit_rows(theirs[:, 1:] > 0) << np.uint64(1))
    return np.asarray(my_back + their_back > BAR)


def expert_inputs(positions: Positions) -> Inputs:
    """The net's inputs (n, INPUTS) of positions (n, 52), the side on roll's board first."""
    positions = np.ascontiguousarray(positions, dtype=np.int8)
    count = len(positions)
    inputs = np.empty((count, INPUTS), dtype=np.float32)
    mine, theirs = positions[:, :SIDE], positions[:, SIDE:]
    # both sides' measures in one pass: the boards of both, each against the other
    extra = np.empty((2 * count, EXTRA), dtype=np.float32)
    _side(np.concatenate([mine, theirs]), np.concatenate([theirs, mine]), extra)
    for side, board in enumerate((mine, theirs)):
        begin = side * (RAW + EXTRA)
        inputs[:, begin : begin + RAW] = _UNITS.take(board[:, 1:SIDE]).view(np.float32)
        inputs[:, begin + RAW : begin + RAW + EXTRA] = extra[side * count : (side + 1) * count]
    inputs[:, -1] = contact(positions)
    return inputs


__all__ = ["INPUTS", "bit_rows", "contact", "expert_inputs", "shot_chance"]
