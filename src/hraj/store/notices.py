"""What a change of a room tells the other processes (PostgreSQL `NOTIFY`).

A process that follows a room it does not own shows its clients the owner's changes as
they are notified, in the transaction that stores them (a rolled-back change is never
announced). A commit's notice carries its events and the room's clock after them; a
change without events (a clock that starts when the last seat is taken, a vote on the
rematch) is a notice with no events at the room's version. A notice too long for
PostgreSQL goes without its contents, and the followers read the room from the store.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Literal, NotRequired

import sqlalchemy as sa
from typing_extensions import TypedDict  # the server validates notices with pydantic, which needs it on 3.11

from hraj.core.record import Event

#: The PostgreSQL channel on which every commit tells the other processes what changed.
ROOMS_CHANNEL = "hraj_rooms"
#: The longest NOTIFY payload sent with its contents (PostgreSQL's limit is 8,000 bytes);
#: a longer one is announced without them and read from the store.
NOTIFY_LIMIT = 7000

_NOTIFY = sa.text("SELECT pg_notify(:channel, :payload)")


class EventsNotice(TypedDict):
    """What a change tells the other processes on `ROOMS_CHANNEL`: the room (`r`), the
    version its events follow, the events (None when the notice would be too long), the
    room's owner (`o`), and what changed besides: the room's clock after the events and
    the votes on its rematch."""

    t: Literal["events"]
    r: str
    after: int
    events: list[Event] | None
    o: str
    clock: NotRequired[dict[str, object]]
    votes: NotRequired[dict[str, object]]


def events_notice(
    room_id: str,
    after: int,
    events: Sequence[Event],
    owner: str,
    clock: Mapping[str, object] | None = None,
    votes: Mapping[str, object] | None = None,
) -> str:
    """The NOTIFY payload of a change: see `EventsNotice`."""
    notice: EventsNotice = {"t": "events", "r": room_id, "after": after, "events": list(events), "o": owner}
    if clock is not None:
        notice["clock"] = dict(clock)
    if votes is not None:
        notice["votes"] = dict(votes)
    payload = json.dumps(notice, separators=(",", ":"), ensure_ascii=False)
    if len(payload.encode()) <= NOTIFY_LIMIT:
        return payload
    return json.dumps({"t": "events", "r": room_id, "after": after, "events": None, "o": owner})


def notify(connection: sa.Connection, payloads: Sequence[str]) -> None:
    """Send the payloads on `ROOMS_CHANNEL` when the transaction commits."""
    if payloads:
        connection.execute(_NOTIFY, [{"channel": ROOMS_CHANNEL, "payload": payload} for payload in payloads])
