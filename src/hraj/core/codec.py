"""The shape every game's learning-agent codec has: action ids and observation vectors.

A game describes itself to learning code in `hraj.games.<id>.rl` by subclassing
`Codec`; `hraj.rl` finds that codec through the registry and adds the rest (masks,
the adapters for PettingZoo, Gymnasium and OpenSpiel). The base lives in core so that
a game's folder depends on core alone.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Container, Hashable, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from hraj.core.game import Game, Seat, State

#: An observation vector: float32, one cell per entry of the game's layout (docs/rl.md).
Observation = npt.NDArray[np.float32]
#: A game's view type (a TypedDict of the game's folder).
V = TypeVar("V", bound=Mapping[str, object])
#: A game's state type (a state of some game: its action and chance types stay open here).
S = TypeVar("S", bound=State[Any, Any])
T = TypeVar("T")
P = TypeVar("P")


class Codec(ABC, Generic[V, S]):
    """How one game (with its options) maps to action ids and observation vectors.

    Subclasses live in their game's folder and know nothing of any RL library.
    """

    #: Does every seat see everything that decides the game (dice aside)?
    perfect_information = False

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self._size: int | None = None

    # --- actions ------------------------------------------------------------------------

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """How many action ids there are: every action of the game has one below this."""

    # The action of `action_id` and `action_ids` and the outcome of `chance_id` are typed
    # loosely: each game's codec narrows them to its own action and outcome types, which
    # the type parameters (view, state) do not carry, and only a loose type may be narrowed.

    @abstractmethod
    def action_id(self, state: S, seat: Seat, action: Any) -> int:
        """The id of a legal `action` of `seat` in `state`; two legal actions of one
        decision never share an id."""

    def action_ids(self, state: S, seat: Seat, actions: Sequence[Any]) -> list[int]:
        """Ids of several legal actions of one decision (games may batch the work)."""
        return [self.action_id(state, seat, action) for action in actions]

    # --- observations -------------------------------------------------------------------

    @property
    @abstractmethod
    def observation_size(self) -> int:
        """Length of every observation vector of this game and option set."""

    @abstractmethod
    def encode(self, view: V, put: Writer) -> None:
        """Write the cells of the observation of `view` (a seat's view) in layout order:
        `observation_size` of them, each from -1 to 1."""

    def observe(self, view: V, out: Observation | None = None) -> Observation:
        """The observation vector of `view`, written into `out` (a float32 array of
        `observation_size` cells) or into a new array."""
        if self._size is None:
            self._size = self.observation_size
        if out is None:
            out = np.empty(self._size, dtype=np.float32)
        if len(out) != self._size:
            raise ValueError(f"{self.game.id}: an observation has {self._size} cells, not {len(out)}")
        put = Writer(out)
        self.encode(view, put)
        written = put.finish()
        if written != self._size:
            raise AssertionError(f"{self.game.id}: the observation has {written} cells, not {self._size}")
        return out

    # --- chance, for libraries that enumerate it -----------------------------------------

    @property
    def num_chance_ids(self) -> int:
        """How many chance ids there are per chance step."""
        return 1

    def chance_steps(self, state: S) -> int:
        """How many chance steps make up the pending chance event (one per die, say)."""
        return 1

    def chance_step_outcomes(self, state: S, drawn: Sequence[int]) -> list[tuple[int, float]]:
        """The ids and probabilities of the next chance step after the ids `drawn`."""
        return [(self.chance_id(state, outcome), p) for outcome, p in state.chance_outcomes()]

    def chance_outcome(self, state: S, drawn: Sequence[int]) -> object:
        """The game's chance outcome once all steps are drawn (its own type in a game's
        codec), for `State.apply_chance`."""
        (only,) = drawn
        for outcome, _ in state.chance_outcomes():
            if self.chance_id(state, outcome) == only:
                return outcome
        raise ValueError(f"chance id {only} is no outcome now")

    def chance_id(self, state: S, outcome: Any) -> int:
        """The id of a chance outcome, for games with one chance step per event."""
        raise NotImplementedError

    # --- bounds -------------------------------------------------------------------------

    def max_game_length(self) -> int:
        """An upper bound on decisions plus chance steps in one game (as search libraries want it)."""
        return 10_000

    def score_range(self) -> tuple[float, float]:
        """The lowest and highest final score of a seat."""
        return (-1_000.0, 1_000.0)


class Writer:
    """Writes an observation's cells field after field into a float32 array, so codecs
    read like their layout. Cells gather in a Python list (appending is cheap) and go
    into the array in one slice, at the end or before a `block` of cells worked out
    before; many small writes into a NumPy array would each cost more than a cell."""

    __slots__ = ("_cells", "_start", "out")

    def __init__(self, out: Observation) -> None:
        self.out = out
        self._cells: list[float] = []
        self._start = 0

    def value(self, number: float) -> None:
        self._cells.append(number)

    def values(self, numbers: Iterable[float]) -> None:
        self._cells.extend(numbers)

    def skip(self, size: int) -> None:
        """`size` cells of 0 (a field that is absent now, such as dice not thrown)."""
        self._cells.extend(_ZEROS[:size] if size <= len(_ZEROS) else [0.0] * size)

    def one_hot(self, index: int | None, size: int) -> None:
        """`size` cells with a 1 at `index` (all 0 for None)."""
        cells = self._cells
        at = len(cells)
        self.skip(size)
        if index is not None:
            cells[at + index] = 1.0

    def counts(self, indices: Iterable[int], size: int, unit: float = 1.0) -> None:
        """`size` cells, each `unit` times how often its index occurs in `indices`: cards of
        a hand counted by value and scaled by the copies in the deck, crossed numbers."""
        tally = [0.0] * size
        for index in indices:
            tally[index] += unit
        self._cells.extend(tally)

    def members(self, present: Container[T], universe: Sequence[T]) -> None:
        """One cell per item of `universe`: 1 if it is in `present`."""
        self._cells.extend([1.0 if item in present else 0.0 for item in universe])

    def seats(self, seats: Iterable[int], me: int | None, players: int) -> None:
        """One cell per seat, relative to the observer (see `relative`): 1 for each of `seats`."""
        tally = [0.0] * players
        for seat in seats:
            tally[relative(seat, me, players)] = 1.0
        self._cells.extend(tally)

    def block(self, cells: Observation) -> None:
        """Cells worked out before (see `SharedParts`), copied in one go."""
        start = self._flush()
        end = start + len(cells)
        self.out[start:end] = cells
        self._start = end

    def finish(self) -> int:
        """Write what is gathered into the array; the number of cells written in all."""
        return self._flush()

    def _flush(self) -> int:
        cells = self._cells
        start = self._start
        if cells:
            end = start + len(cells)
            self.out[start:end] = cells
            cells.clear()
            self._start = start = end
        return start


_ZEROS = [0.0] * 64


class SharedParts(Generic[P]):
    """The cells of view parts that views share. A game may hand out the same part (a
    row of a sheet that has not changed) in many views, to be read and never changed;
    its cells are then worked out once. A part is known by its identity, or by a key
    made of the identities of the shared parts it holds and of plain values; it is kept
    with its cells, so no other object can take those identities while it is stored."""

    __slots__ = ("_encode", "_kept", "_limit")

    def __init__(self, encode: Callable[[P], Sequence[float]], limit: int = 4096) -> None:
        self._encode = encode
        self._kept: dict[Hashable, tuple[P, Observation]] = {}
        self._limit = limit

    def __call__(self, part: P, key: Hashable = None) -> Observation:
        if key is None:
            key = id(part)
        kept = self._kept.get(key)
        if kept is not None:
            return kept[1]
        if len(self._kept) >= self._limit:
            self._kept.clear()
        cells = np.array(self._encode(part), dtype=np.float32)
        self._kept[key] = (part, cells)
        return cells


def relative(seat: int, me: int | None, players: int) -> int:
    """Seat numbers as the observer sees them: itself 0, its left neighbour 1, ..."""
    return (seat - (me or 0)) % players
