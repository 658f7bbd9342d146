"""The shape every game's learning-agent codec has: action ids and observation vectors.

A game describes itself to learning code in `hraj.games.<id>.rl` by subclassing
`Codec`; `hraj.rl` finds that codec through the registry and adds the rest (masks,
the adapters for PettingZoo, Gymnasium and OpenSpiel). The base lives in core so that
a game's folder depends on core alone.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from hraj.core.game import Game, Seat, State


class Codec(ABC):
    """How one game (with its options) maps to action ids and observation vectors.

    Subclasses live in their game's folder and know nothing of any RL library.
    """

    #: Does every seat see everything that decides the game (dice aside)?
    perfect_information = False

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game

    # --- actions ------------------------------------------------------------------------

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """How many action ids there are: every action of the game has one below this."""

    @abstractmethod
    def action_id(self, state: State[Any, Any], seat: Seat, action: Any) -> int:
        """The id of a legal `action` of `seat` in `state`; two legal actions of one
        decision never share an id."""

    def action_ids(self, state: State[Any, Any], seat: Seat, actions: Sequence[Any]) -> list[int]:
        """Ids of several legal actions of one decision (games may batch the work)."""
        return [self.action_id(state, seat, action) for action in actions]

    # --- observations -------------------------------------------------------------------

    @property
    @abstractmethod
    def observation_size(self) -> int:
        """Length of every observation vector of this game and option set."""

    @abstractmethod
    def observe(self, view: Mapping[str, Any]) -> list[float]:
        """The cells of the observation of `view` (a seat's view), in layout order:
        `observation_size` of them, each from -1 to 1."""

    # --- chance, for libraries that enumerate it -----------------------------------------

    @property
    def num_chance_ids(self) -> int:
        """How many chance ids there are per chance step."""
        return 1

    def chance_steps(self, state: State[Any, Any]) -> int:
        """How many chance steps make up the pending chance event (one per die, say)."""
        return 1

    def chance_step_outcomes(self, state: State[Any, Any], drawn: Sequence[int]) -> list[tuple[int, float]]:
        """The ids and probabilities of the next chance step after the ids `drawn`."""
        return [(self.chance_id(state, outcome), p) for outcome, p in state.chance_outcomes()]

    def chance_outcome(self, state: State[Any, Any], drawn: Sequence[int]) -> Any:
        """The game's chance outcome once all steps are drawn."""
        (only,) = drawn
        for outcome, _ in state.chance_outcomes():
            if self.chance_id(state, outcome) == only:
                return outcome
        raise ValueError(f"chance id {only} is no outcome now")

    def chance_id(self, state: State[Any, Any], outcome: Any) -> int:
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
    """Collects an observation's cells field after field, so codecs read like their
    layout; a Python list, turned into one NumPy array at the end (many small array
    writes would cost more than the game's own move)."""

    __slots__ = ("cells",)

    def __init__(self) -> None:
        self.cells: list[float] = []

    def value(self, number: float) -> None:
        self.cells.append(number)

    def values(self, numbers: Sequence[float]) -> None:
        self.cells.extend(numbers)

    def one_hot(self, index: int | None, size: int) -> None:
        """`size` cells with a 1 at `index` (all 0 for None)."""
        at = len(self.cells)
        self.cells.extend(_ZEROS[:size] if size <= len(_ZEROS) else [0.0] * size)
        if index is not None:
            self.cells[at + index] = 1.0


_ZEROS = [0.0] * 64


def relative(seat: int, me: int | None, players: int) -> int:
    """Seat numbers as the observer sees them: itself 0, its left neighbour 1, ..."""
    return (seat - (me or 0)) % players
