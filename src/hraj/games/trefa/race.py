"""The chance of winning a Trefa race, for the `winner` bot and for analysis.

Every seat's sheet moves only with its own dice, so the rest of a game is the seats'
futures laid side by side: each seat's future is a list of turns, each turn adding some
points (the numbers written, and the hit bonus when a row is complete). The game ends
on the turn that fills someone's fifth row; every seat then has what it wrote so far.

A seat's future is sampled row by row from pools of simulated rows: each pool holds
rows played by the racer's policy (`RowValues` with its turn cost) from one state of a
row (printed numbers, empty fields, hits), simulated once per process from a seed
fixed by that state, so the same position always gets the same figures.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from hraj.games.trefa.rowvalue import RowValues, row_values

#: Simulated rows per pool: an empty row gets more, being reused in every later row.
POOL_SIZE = 64
EMPTY_ROW_POOL_SIZE = 256
#: A die of an empty field that shows more than the printed number is "too high" (0).
TOO_HIGH = 0

#: The points of each turn of a row until it is complete (the last turn with the bonus).
RowFuture = tuple[int, ...]


def _throw(table: RowValues, empties: Sequence[int], rng: random.Random, kept: int = 0) -> tuple[int, ...]:
    """Dice for the empty fields, as the row table sees them: the value, or 0 if too high."""
    throw = []
    for field in empties:
        if kept >> field & 1:
            throw.append(1)
            continue
        die = rng.randint(1, 6)
        throw.append(die if die <= table.numbers[field] else TOO_HIGH)
    return tuple(throw)


def best_write(table: RowValues, mask: int, hits: int, empties: Sequence[int], throw: Sequence[int]) -> tuple[int, int]:
    """The racer's choice after a throw: (the fields it fills, the points they are worth).

    When no die fits, the leftmost empty field is crossed out (worth nothing).
    """
    fitting = 0
    values = [0] * table.fields
    hit_mask = 0
    for field, value in zip(empties, throw, strict=True):
        if value:
            fitting |= 1 << field
            values[field] = value
            if value == table.numbers[field]:
                hit_mask |= 1 << field
    if not fitting:
        return mask & -mask, 0
    best, best_chosen, best_gain = float("-inf"), 0, 0
    gains = {0: 0}
    chosen = fitting
    subsets = []
    while chosen:
        subsets.append(chosen)
        chosen = (chosen - 1) & fitting
    for chosen in reversed(subsets):
        low = chosen & -chosen
        gains[chosen] = gains[chosen ^ low] + values[low.bit_length() - 1]
        score = gains[chosen] + table.value(mask ^ chosen, hits + (chosen & hit_mask).bit_count())
        if score > best:
            best, best_chosen, best_gain = score, chosen, gains[chosen]
    return best_chosen, best_gain


def play_turn(table: RowValues, mask: int, hits: int, rng: random.Random) -> tuple[int, int, int]:
    """One racer turn on a row: (empty fields after it, hits after it, numbers written)."""
    empties = [field for field in range(table.fields) if mask >> field & 1]
    throw = _throw(table, empties, rng)
    ones = sum(1 << field for field, value in zip(empties, throw, strict=True) if value == 1)
    chosen, gain = best_write(table, mask, hits, empties, throw)
    keep = gain + table.value(mask ^ chosen, hits + _new_hits(table, chosen, empties, throw))
    if table.reroll_value(mask, hits, ones) > keep:
        throw = _throw(table, empties, rng, kept=ones)
        chosen, gain = best_write(table, mask, hits, empties, throw)
    return mask ^ chosen, hits + _new_hits(table, chosen, empties, throw), gain


def _new_hits(table: RowValues, chosen: int, empties: Sequence[int], throw: Sequence[int]) -> int:
    return sum(
        1 for field, value in zip(empties, throw, strict=True) if chosen >> field & 1 and value == table.numbers[field]
    )


def finish_row(table: RowValues, mask: int, hits: int, rng: random.Random) -> RowFuture:
    """The points of each turn a row takes from this state until it is complete."""
    turns = []
    while mask:
        mask, hits, gain = play_turn(table, mask, hits, rng)
        turns.append(gain + (table.hit_bonus[hits] if not mask else 0))
    return tuple(turns)


@functools.cache
def row_pool(
    numbers: tuple[int, ...], hit_bonus: tuple[int, ...], turn_cost: float, mask: int, hits: int
) -> tuple[RowFuture, ...]:
    """Simulated futures of a row from one state; seeded by the state, so always the same."""
    table = row_values(numbers, hit_bonus, turn_cost)
    if not mask:
        return ((),)
    size = EMPTY_ROW_POOL_SIZE if mask == (1 << len(numbers)) - 1 and not hits else POOL_SIZE
    rng = random.Random(f"{numbers}/{hit_bonus}/{turn_cost}/{mask}/{hits}")
    return tuple(finish_row(table, mask, hits, rng) for _ in range(size))


@functools.cache
def reroll_pool(
    numbers: tuple[int, ...], hit_bonus: tuple[int, ...], turn_cost: float, mask: int, hits: int, ones: int
) -> tuple[tuple[int, int, int], ...]:
    """Simulated ends of a turn that rerolls, keeping the 1s on the fields `ones`:
    (the fields filled, the numbers written, the hits after it), the racer choosing."""
    table = row_values(numbers, hit_bonus, turn_cost)
    empties = [field for field in range(table.fields) if mask >> field & 1]
    rng = random.Random(f"{numbers}/{hit_bonus}/{turn_cost}/{mask}/{hits}/{ones}")
    ends = []
    for _ in range(POOL_SIZE):
        throw = _throw(table, empties, rng, kept=ones)
        chosen, gain = best_write(table, mask, hits, empties, throw)
        ends.append((chosen, gain, hits + _new_hits(table, chosen, empties, throw)))
    return tuple(ends)


def race_share(futures: Sequence[Sequence[int]], scores: Sequence[int], seat: int) -> tuple[float, int]:
    """`seat`'s share of the win and its final score, given every seat's future turns.

    `futures[s]` are the points of seat s's turns still to come until its sheet is full;
    `seat` is on turn now, so its first listed turn is this one and the others follow
    in seat order. The game ends on the turn that completes someone's last row.
    """
    players = len(futures)
    end = None
    for offset in range(players):
        other = (seat + offset) % players
        # the turn index (0 = this turn) on which `other` would fill its sheet
        step = (len(futures[other]) - 1) * players + offset
        if end is None or step < end:
            end = step
    assert end is not None
    finals = []
    for offset in range(players):
        other = (seat + offset) % players
        taken = (end - offset) // players + 1 if end >= offset else 0
        finals.append(scores[other] + sum(futures[other][:taken]))
    best = max(finals)
    winners = finals.count(best)
    mine = finals[0]
    return (1 / winners if mine == best else 0.0), mine
