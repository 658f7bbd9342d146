"""What a room shows of itself: a connection's welcome, the state a seat may see, the
room's public summary and, once the game is over, its record with the revealed seed.

Read-only forms of a room's committed state, apart from the actor that changes it; the
actor calls them between its jobs, and so do the routes (`Room.call`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hraj.core.record import Record
from hraj.server.messages import StateMessage, Summary, Welcome
from hraj.server.protocol import PROTOCOL_VERSION, ServerError
from hraj.store.room_data import OVER, PLAYING

if TYPE_CHECKING:
    from hraj.server.room import Room


def welcome(room: Room, seat: int | None) -> Welcome:
    """What a connection hears first: the room, its game and dice, its seats and its own seat."""
    return {
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "room": room.id,
        "game": room.game.id,
        "options": room.game.options,
        "seat": seat,
        "version": room.version,
        "head": room.head,
        "commitment": room.commitment,
        "dice": room.dice.version,
        "absent_after": room.absent_after,
        "seats": room.public_seats(),
    }


def view_message(room: Room, seat: int | None) -> StateMessage:
    """What `seat` may see now (committed state only: the actor calls this between jobs)."""
    over = room.over
    message: StateMessage = {
        "type": "state",
        "room": room.id,
        "version": room.version,
        "head": room.head,
        "status": OVER if over else PLAYING,
        "view": room.state.view(seat),
    }
    if over:
        message["seed"] = room.seed
    return message


def summary(room: Room) -> Summary:
    """The public facts of the room (HTTP `GET /api/rooms/{id}`)."""
    outcome = room.state.outcome
    return {
        "room": room.id,
        "game": room.game.id,
        "options": room.game.options,
        "status": OVER if room.over else PLAYING,
        "version": room.version,
        "head": room.head,
        "commitment": room.commitment,
        "dice": room.dice.version,
        "absent_after": room.absent_after,
        "clock": room.clock.control(),
        "hints": room.hints,
        "seed": room.seed if room.over else None,
        "seats": room.public_seats(),
        "outcome": None if outcome is None else outcome.to_json(),
        "public": room.public,
        "chat": room.has_chat,
        "rematch": room.rematch,
        "rematch_votes": room.votes.to_json(),
        "rematch_passes_first": room.rematch_options()[1] if room.over else None,
        "rated": room.rated,
    }


def record(room: Room) -> Record:
    """The record with the revealed seed, dice version and chain head; only once over."""
    if not room.over:
        raise ServerError("not_over", "The record is published when the game is over.")
    published = room.state.record()
    published["room"] = {
        "id": room.id,
        "seed": room.seed,
        "commitment": room.commitment,
        "dice": room.dice.version,
        "head": room.head,
    }
    return published
