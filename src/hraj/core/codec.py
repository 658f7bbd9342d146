"""The shape every game's learning-agent codec has: action ids and observation vectors.

A game describes itself to learning code in `hraj.games.<id>.rl` by subclassing
`Codec`; `hraj.rl` finds that codec through the registry and adds the rest (masks,
the adapters for PettingZoo, Gymnasium and OpenSpiel). The base lives in core so that
a game's folder depends on core alone.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Container, Hashable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast

import numpy as np
import numpy.typing as npt

from hraj.core.game import Game, Seat, State
from hraj.core.start import First

#: An observation vector: float32, one cell per entry of the game's layout (docs/rl.md).
Observation = npt.NDArray[np.float32]
#: A game's view type (a TypedDict of the game's folder).
V = TypeVar("V", bound=Mapping[str, object])
#: A game's state type (a state of some game: its action and chance types stay open here).
S = TypeVar("S", bound=State[Any, Any])
T = TypeVar("T")
P = TypeVar("P")
#: An action of some game, as a key of its ids.
K = TypeVar("K", bound=Hashable)


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

    def actions_by_text(self) -> Mapping[str, tuple[int, object]] | None:
        """The id and the action of every action by its notation, for a game whose actions
        can all be listed and whose id needs no state: the environments then read the
        legal actions a view lists (`view["legal"]`, each as its notation) instead of
        asking the state for them again. None (the default): they ask the state."""
        return None

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
            out = np.empty(self._size, dtype=np.float32)  # the writer sets every cell
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


class ActionTableCodec(Codec[V, S]):
    """A codec for a game whose actions can all be listed, each with one id whatever the
    state: the subclass sets `ids`, worked out once, and the ids, their count and the
    table by notation (`actions_by_text`) all come from it."""

    #: Every action of the game with its id; the ids run from 0 without a gap.
    ids: ClassVar[Mapping[Any, int]]
    _by_text: ClassVar[Mapping[str, tuple[int, object]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "ids" in vars(cls):
            if sorted(cls.ids.values()) != list(range(len(cls.ids))):
                raise ValueError(f"{cls.__name__}: the action ids must run from 0 to {len(cls.ids) - 1}, each once")
            cls._by_text = by_text(cls.ids)

    @property
    def num_actions(self) -> int:
        return len(self.ids)

    def action_id(self, state: S, seat: Seat, action: Any) -> int:
        return self.ids[action]

    def action_ids(self, state: S, seat: Seat, actions: Sequence[Any]) -> list[int]:
        ids = self.ids
        return [ids[action] for action in actions]

    def actions_by_text(self) -> Mapping[str, tuple[int, object]]:
        return self._by_text


#: One die's chance step: the ids 0-5 (the pips less one), 1/6 each.
_DIE_STEP = tuple((pips, 1 / 6) for pips in range(6))


class DiceCodec(Codec[V, S]):
    """Chance for a game of six-sided dice whose first event may draw the seat that
    starts (`First`): the draw is one step, its id the seat; a throw is one step per die,
    its id the pips less one (six dice are six nodes of six outcomes, not one of 46,656).
    The subclass says which event is due and makes the game's outcome of a throw."""

    @property
    def num_chance_ids(self) -> int:
        return max(6, self.game.players)

    @abstractmethod
    def draws_first(self, state: S) -> bool:
        """Whether the pending chance event draws the seat that starts."""

    @abstractmethod
    def dice_thrown(self, state: S) -> int:
        """How many dice the pending throw throws."""

    @abstractmethod
    def throw(self, state: S, pips: Sequence[int]) -> object:
        """The game's outcome of the pending throw: `pips` (1-6) for each die thrown."""

    def chance_steps(self, state: S) -> int:
        return 1 if self.draws_first(state) else self.dice_thrown(state)

    def chance_step_outcomes(self, state: S, drawn: Sequence[int]) -> list[tuple[int, float]]:
        if self.draws_first(state):
            players = self.game.players
            return [(seat, 1 / players) for seat in range(players)]
        return list(_DIE_STEP)

    def chance_outcome(self, state: S, drawn: Sequence[int]) -> object:
        if self.draws_first(state):
            return First(drawn[0])
        return self.throw(state, [pips + 1 for pips in drawn])


class Writer:
    """Writes an observation's cells field after field into a float32 array, so codecs
    read like their layout. The array starts at 0 and only the cells that are not 0 are
    written, one by one through a memoryview (a store of a Python float there costs a
    fraction of a NumPy item store, and of turning a list of floats into an array), or a
    `block` worked out before in one slice copy; an absent field (`skip`) or a long
    one-hot costs nothing for its zeros. A float becomes float32 as NumPy makes it one."""

    __slots__ = ("_at", "_cells", "out")

    def __init__(self, out: Observation) -> None:
        out.fill(0.0)
        self.out = out
        # the array's own buffer, whose items are float32 (typeshed's memoryview says int)
        self._cells = cast("memoryview[float]", out.data)
        self._at = 0

    def value(self, number: float) -> None:
        self._cells[self._at] = number
        self._at += 1

    def values(self, numbers: Iterable[float]) -> None:
        cells = self._cells
        at = self._at
        for number in numbers:
            cells[at] = number
            at += 1
        self._at = at

    def skip(self, size: int) -> None:
        """`size` cells of 0 (a field that is absent now, such as dice not thrown)."""
        self._at += size

    def one_hot(self, index: int | None, size: int) -> None:
        """`size` cells with a 1 at `index` (all 0 for None)."""
        if index is not None:
            if not 0 <= index < size:
                raise IndexError(f"one-hot index {index} is outside 0-{size - 1}")
            self._cells[self._at + index] = 1.0
        self._at += size

    def one_hots(self, indices: Iterable[int | None], size: int) -> None:
        """One one-hot field of `size` cells per index (all 0 for None): dice, say."""
        cells = self._cells
        at = self._at
        for index in indices:
            if index is not None:
                if not 0 <= index < size:
                    raise IndexError(f"one-hot index {index} is outside 0-{size - 1}")
                cells[at + index] = 1.0
            at += size
        self._at = at

    def ones(self, indices: Iterable[int], size: int) -> None:
        """`size` cells with a 1 at each of `indices` (crossed numbers, say)."""
        cells = self._cells
        at = self._at
        for index in indices:
            if not 0 <= index < size:
                raise IndexError(f"index {index} is outside 0-{size - 1}")
            cells[at + index] = 1.0
        self._at = at + size

    def counts(self, values: Sequence[int], size: int, unit: float = 1.0, lowest: int = 0) -> None:
        """`size` cells, the cell of a value (`value - lowest`) `unit` times how often it
        occurs in `values`: cards of a hand counted by value and scaled by the copies in
        the deck."""
        if values:
            cells = self._cells
            at = self._at - lowest
            for value in set(values):
                if not lowest <= value < lowest + size:
                    raise IndexError(f"value {value} is outside {lowest}-{lowest + size - 1}")
                cells[at + value] = values.count(value) * unit
        self._at += size

    def members(self, present: Container[T], universe: Sequence[T]) -> None:
        """One cell per item of `universe`: 1 if it is in `present`."""
        cells = self._cells
        at = self._at
        for index, item in enumerate(universe):
            if item in present:
                cells[at + index] = 1.0
        self._at = at + len(universe)

    def seat(self, seat: int | None, me: int | None, players: int) -> None:
        """One cell per seat, relative to the observer (see `relative`): 1 for `seat`
        (the active one, say), all 0 for None."""
        if seat is not None:
            self._cells[self._at + relative(seat, me, players)] = 1.0
        self._at += players

    def seats(self, seats: Iterable[int], me: int | None, players: int) -> None:
        """One cell per seat, relative to the observer (see `relative`): 1 for each of `seats`."""
        cells = self._cells
        at = self._at
        for seat in seats:
            cells[at + relative(seat, me, players)] = 1.0
        self._at = at + players

    def block(self, cells: Observation) -> None:
        """Cells worked out before (see `SharedParts`), copied in one go."""
        start = self._at
        end = start + len(cells)
        self.out[start:end] = cells
        self._at = end

    def finish(self) -> int:
        """The number of cells written in all (the array is complete as it goes)."""
        self._cells.release()
        return self._at


class SharedParts(Generic[P]):
    """The cells of view parts that views share. A game may hand out the same part (a
    row of a sheet that has not changed) in many views, to be read and never changed;
    its cells are then worked out once, by `encode` through a `Writer` of their own, and
    copied into each observation as one `block`. A part is known by its identity, or by a
    key made of the identities of the shared parts it holds and of plain values; it is kept
    with its cells, so no other object can take those identities while it is stored."""

    __slots__ = ("_encode", "_kept", "_limit", "_size")

    def __init__(self, encode: Callable[[P, Writer], None], size: int, limit: int = 4096) -> None:
        self._encode = encode
        self._size = size
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
        cells = np.empty(self._size, dtype=np.float32)
        put = Writer(cells)
        self._encode(part, put)
        written = put.finish()
        if written != self._size:
            raise AssertionError(f"a shared part has {written} cells, not {self._size}")
        self._kept[key] = (part, cells)
        return cells


def by_text(ids: Mapping[K, int]) -> dict[str, tuple[int, object]]:
    """The table of `Codec.actions_by_text` made from every action's id: each action under
    its notation (`str`), which must tell every two actions apart."""
    table: dict[str, tuple[int, object]] = {str(action): (number, action) for action, number in ids.items()}
    if len(table) != len(ids):
        raise ValueError("two actions share a notation")
    return table


def relative(seat: int, me: int | None, players: int) -> int:
    """Seat numbers as the observer sees them: itself 0, its left neighbour 1, ..."""
    return (seat - (me or 0)) % players


def seen_from(items: Sequence[T], me: int | None) -> list[T]:
    """Items given by seat (sheets, hands) in the order the observer sees the seats (see
    `relative`): its own first, then its left neighbour's, ..."""
    start = (me or 0) % len(items)
    return [*items[start:], *items[:start]]
