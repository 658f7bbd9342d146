"""The tables of the store, as SQLAlchemy Core metadata.

The migrations in `hraj.store.migrations` create exactly these tables; a test checks
that the migrated database and this metadata agree.
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, DateTime, ForeignKey, Index, Integer, MetaData, String, Table, Text, false

metadata = MetaData()

#: One row per room. `seed` is the secret of its dice and shuffles; only its SHA-256
#: `commitment` is shown until the game is over. `status` is playing, over or
#: archived (no activity for a long time: not rebuilt at start, opened on demand).
rooms = Table(
    "rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("invite_hash", String(64), nullable=False),
    Column("host_hash", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("outcome", JSON, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    #: How the room's chance outcomes come from its seed (hraj.server.fairness).
    Column("dice", Integer, nullable=False, server_default="1"),
    #: Seconds a seat that must act may be away before a bot stands in for it.
    Column("absent_after", Integer, nullable=False, server_default="120"),
    #: The server process that owns the room (several processes on PostgreSQL): only
    #: it applies the room's moves, and the store refuses another's commit. NULL: none.
    Column("owner", String(32), nullable=True),
    #: Listed in the lobby of open games while a person seat is free (else invite only).
    Column("public", Boolean, nullable=False, server_default=false()),
    #: The room of the rematch this finished room led to, once someone asked for it.
    Column("rematch", String(32), nullable=True),
    Index("ix_rooms_status", "status"),
    Index("ix_rooms_owner", "owner"),
    Index("ix_rooms_status_updated", "status", "updated_at"),
    Index("ix_rooms_public_status_created", "public", "status", "created_at"),
)

#: The seats of a room. A person seat holds the hash of its seat token once claimed;
#: `bot` is the bot of a bot seat, or the stand-in bot of a person seat left to a bot.
seats = Table(
    "seats",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(32), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    #: The grammatical gender a person gave with their name ("m", "f"), for the log's
    #: Czech and Slovak sentences; NULL when not given.
    Column("gender", String(8), nullable=True),
)

#: The event log: event `version` of a room (1, 2, 3, ...) as kind, seat and notation.
#: A seat's move keeps the id its client gave it (`action_id`, unique per seat of a
#: room): a move sent again with that id is answered, never applied a second time.
events = Table(
    "events",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("text", Text, nullable=False),
    Column("action_id", String(64), nullable=True),
    Index("ux_events_action", "room_id", "seat", "action_id", unique=True),
)

#: The serving processes of a PostgreSQL database and their leases: a process owns its
#: rooms while `expires_at` (PostgreSQL's clock) is ahead; it renews it every second or
#: so, and once it lapses (the process died) another process takes its rooms over.
servers = Table(
    "servers",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

#: What the people of a room wrote to each other: message `number` (1, 2, 3, ...) of a room,
#: by a seat, under the name the seat had then.
chat = Table(
    "chat",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=True),
    Column("text", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

#: Rollouts of a finished room's decisions (hraj.analysis.rollout), kept so that a second
#: look costs nothing: one per (room, move, trials, seed), the result as JSON.
rollouts = Table(
    "rollouts",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("move", Integer, primary_key=True),
    Column("trials", Integer, primary_key=True),
    Column("seed", Integer, primary_key=True),
    Column("result", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
