"""The shape of an Abluxxen view: what `AbluxxenState.view(seat)` returns and what the
terminal, the browser, hints and the learning-agent codec read, checked by mypy on every
side. Cards are numbers: 1-13, and 14 for a joker."""

from __future__ import annotations

from typing import TypedDict

from hraj.core.game import OutcomeJson


class SeatView(TypedDict):
    """What everyone may know of one seat."""

    hand_size: int
    known: list[int]
    """Cards publicly known to be in its hand."""
    revealed: list[int] | None
    """Its whole hand, once the game is over; None before."""
    layers: list[list[int]]
    """Its laid-out sets, oldest first."""
    top: list[int]
    laid_out: int
    score: int


class CaptureView(TypedDict):
    victim: int
    cards: list[int]


class DrawView(TypedDict):
    seat: int
    owed: int


class AbluxxenView(TypedDict):
    game: str
    players: int
    variant: str
    two_player: bool
    phase: str
    active: int | None
    to_act: list[int]
    seat: int | None
    hand: list[int] | None
    """The viewer's own hand; None for a spectator."""
    seats: list[SeatView]
    display: list[list[int]]
    pile: int
    discard: list[int]
    shadow: list[list[int]] | None
    """The two-player shadow's groups of equal cards; None with more players."""
    captured_this_turn: bool
    capture: CaptureView | None
    draw: DrawView | None
    legal: list[str]
    outcome: OutcomeJson | None
