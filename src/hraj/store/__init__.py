"""Persistence for online play: rooms, their seats and the event log of each room.

SQLite file by default, PostgreSQL by URL; the schema is managed by the Alembic
migrations shipped in `hraj.store.migrations` and brought up to date on start.
"""

from hraj.store.db import (
    AppendBatch,
    ChatLine,
    CommitInDoubt,
    NewRoom,
    NewSeat,
    OpenRoom,
    RoomData,
    SeatData,
    StaleVersion,
    Store,
    StoreError,
)

__all__ = [
    "AppendBatch",
    "ChatLine",
    "CommitInDoubt",
    "NewRoom",
    "NewSeat",
    "OpenRoom",
    "RoomData",
    "SeatData",
    "StaleVersion",
    "Store",
    "StoreError",
]
