"""Positions for backgammon tests, written as {point: checkers} from each player's own side."""

from __future__ import annotations

from collections.abc import Mapping

from hraj.games.backgammon.rules import Backgammon, BackgammonState

BAR = 25


def tan(checkers: Mapping[int, int]) -> list[int]:
    """gnubg's 25 counts (points 1-24, then the bar) from {point: checkers}; 25 is the bar."""
    board = [0] * 25
    for point, count in checkers.items():
        board[point - 1] += count
    return board


def position(
    mover: Mapping[int, int],
    other: Mapping[int, int],
    dice: tuple[int, int] | None = None,
    *,
    turn: int = 0,
    game: Backgammon | None = None,
    **state: object,
) -> BackgammonState:
    """A state where seat `turn` is on roll; checkers not listed are borne off."""
    return BackgammonState.from_position(
        game or Backgammon(),
        (tan(other), tan(mover)),
        turn=turn,
        dice=dice,
        **state,  # type: ignore[arg-type]
    )


def plays(state: BackgammonState) -> set[str]:
    """The checker plays among the legal actions, as text."""
    return {str(a) for a in state.legal_actions(state.turn) if "/" in str(a)}


START = {24: 2, 13: 5, 8: 3, 6: 5}
