"""What the store takes and gives back about rooms: new rooms and seats, rooms as stored,
their chat lines, the lobby's open rooms, and the batches of events appended to them.

Plain data with no database code, so that the server builds and reads rooms without
knowing how they are stored.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import sqlalchemy as sa

from hraj.core.game import OutcomeJson
from hraj.core.jsondata import GameOptions
from hraj.core.record import Event
from hraj.store.timekeeping import ClockChange, DueRow

PLAYING = "playing"
OVER = "over"
#: A room nobody played for a long time: kept, never rebuilt at start, opened on demand.
ARCHIVED = "archived"


@dataclass(frozen=True, slots=True)
class NewSeat:
    kind: str  # "person" or "bot"
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    gender: str | None = None
    person: str | None = None
    """The person who takes the seat (an account's or a guest's id)."""


@dataclass(frozen=True, slots=True)
class NewRoom:
    id: str
    game: str
    options: GameOptions
    seed: str
    commitment: str
    invite_hash: str
    host_hash: str
    seats: Sequence[NewSeat]
    dice: int = 1
    absent_after: int = 120
    owner: str | None = None
    public: bool = False
    rematch_of: str | None = None
    """The finished room this one is the rematch of: it points here from now on."""
    clock: Mapping[str, object] | None = None
    """The room's clock as the clocks part writes it (None: untimed)."""
    host_seat: int | None = None
    """The seat the room's creator took (its presence is shown in the lobby)."""
    pairs: Sequence[tuple[str, int]] = ()
    """The seeks this room seats, as (seek id, seat): marked in the same transaction,
    and the room is not created if any of them was paired meanwhile (`SeekTaken`)."""
    rated: bool = False


@dataclass(slots=True)
class SeatData:
    seat: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str | None
    gender: str | None = None
    person: str | None = None
    """The person who took the seat (an account's or a guest's id), if any."""
    deleted: bool = False
    """The seat's person deleted their account: shown as a deleted player."""


@dataclass(slots=True)
class RoomData:
    """A room as stored: its row, its seats and its whole event log."""

    id: str
    game: str
    options: GameOptions
    """As the room stored them; the game checks them again when the room is rebuilt."""
    seed: str
    commitment: str
    invite_hash: str
    host_hash: str
    status: str
    version: int
    outcome: OutcomeJson | None
    seats: list[SeatData]
    events: list[Event] = field(default_factory=list)
    dice: int = 1
    absent_after: int = 120
    owner: str | None = None
    public: bool = False
    rematch: str | None = None
    chat: list[ChatLine] = field(default_factory=list)
    """The latest messages of the room's chat (at most `CHAT_KEPT`), oldest first."""
    chat_count: int = 0
    """How many messages the room's chat holds in all."""
    created_at: dt.datetime | None = None
    action_ids: dict[tuple[int, str], int] = field(default_factory=dict)
    """The version of each seat's move by the id its client gave it: (seat, id) -> version."""
    clock: Mapping[str, object] | None = None
    """The room's clock as last committed (None: untimed)."""
    deadlines: list[DueRow] = field(default_factory=list)
    """The deadlines of its running turns, as last committed."""
    rematch_votes: Mapping[str, object] | None = None
    host_seat: int | None = None
    rated: bool = False


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One message of a room's chat: its number, the seat and name that wrote it, when."""

    number: int
    seat: int
    name: str | None
    text: str
    at: dt.datetime


@dataclass(frozen=True, slots=True)
class OpenRoom:
    """A public room in play with a free person seat, as the lobby lists it."""

    id: str
    game: str
    options: GameOptions
    created_at: dt.datetime
    seats: list[SeatData]
    host_away_since: dt.datetime | None = None
    """Since when the host has been away (None: here, or no host seat known)."""


#: Chat messages of a room read back with it (the newest ones).
CHAT_KEPT = 100


@dataclass(frozen=True, slots=True)
class AppendBatch:
    """New events of one room: they become versions `after + 1`, `after + 2`, ...

    `action_id` is the id the client gave the move that made them, which is then the
    batch's first event (a batch holds one move at most, and whatever followed it)."""

    room_id: str
    after: int
    events: Sequence[Event]
    status: str = PLAYING
    outcome: OutcomeJson | None = None
    action_id: str | None = None
    clock: ClockChange | None = None
    """The room's clock and deadlines after these events (None: untimed, unchanged)."""
    left: tuple[int, ...] = ()
    """At the end: the person seats a stand-in bot was playing (their players left)."""


def seat_data(row: sa.RowMapping) -> SeatData:
    """A seat as the rooms read it, from its stored row."""
    return SeatData(
        row["seat"],
        row["kind"],
        row["bot"],
        row["name"],
        row["token_hash"],
        row["gender"],
        row["person"],
        bool(row.get("deleted")),
    )
