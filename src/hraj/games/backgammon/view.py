"""The shape of a backgammon view: what `BackgammonState.view(seat)` returns and what the
terminal, the browser, hints and the learning-agent codec read, checked by mypy on every side."""

from __future__ import annotations

from typing import TypedDict

from hraj.core.game import OutcomeJson


class CubeView(TypedDict):
    value: int
    owner: int | None
    """The seat that owns the cube; None while it is centred."""
    in_play: bool


class MatchView(TypedDict):
    length: int
    """Points to win; 0 for a money game."""
    score: list[int]
    crawford: bool
    game: int


class ResignView(TypedDict):
    by: int
    level: int
    """1 single, 2 gammon, 3 backgammon."""


class GameResultView(TypedDict):
    winner: int
    points: int
    how: str
    """single, gammon, backgammon, drop or resign."""


class BackgammonView(TypedDict):
    game: str
    variant: str
    seat: int | None
    phase: str
    turn: int | None
    to_act: list[int]
    boards: list[list[int]]
    """Per seat, 26 counts from its own side: 0 borne off, 1-24 the points, 25 the bar."""
    pips: list[int]
    dice: list[int] | None
    """High die first."""
    cube: CubeView
    match: MatchView
    resign: ResignView | None
    games: list[GameResultView]
    legal: list[str]
    outcome: OutcomeJson | None
