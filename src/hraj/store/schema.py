"""The tables of the store, as SQLAlchemy Core metadata.

The migrations in `hraj.store.migrations` create exactly these tables; a test checks
that the migrated database and this metadata agree.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

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
    #: The room's clock (`hraj.clocks.ClockJson`: its time control and each seat's
    #: reserve and running turn), stored with every commit that moves it; NULL: untimed.
    Column("clock", JSON, nullable=True),
    #: Who accepted the rematch offered, and who declined it (`{"yes": [...], "declined": seat}`).
    Column("rematch_votes", JSON, nullable=True),
    #: The seat its creator took (the host's), and since when the host has been away
    #: (NULL while connected): the lobby shows it and drops rooms whose host left long ago.
    Column("host_seat", Integer, nullable=True),
    Column("host_away_since", DateTime(timezone=True), nullable=True),
    #: Rated: every person seat is an account's, and the end of the game moves ratings.
    Column("rated", Boolean, nullable=False, server_default=false()),
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
    #: The person who took the seat (an account's id, or a guest's from the guest cookie);
    #: NULL for a bot seat, a free seat, or a second seat at one screen.
    Column("person", String(32), nullable=True),
    Index("ix_seats_person", "person"),
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
#: The deadlines of the rooms' running turns: a seat's turn, begun at the room's
#: `version`, runs out at `due` (UTC). Written in the transaction that commits the move
#: that set it; the owner of a room enforces it by a commit conditional on that version,
#: so it takes effect once, whichever process does it.
deadlines = Table(
    "deadlines",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("version", Integer, nullable=False),
    Column("due", DateTime(timezone=True), nullable=False),
    Index("ix_deadlines_due", "due"),
)

#: People waiting to be paired ("Hrát hned"): what they seek (`key`: game, options, rated,
#: time control, as one text), their rating and since when; `seen_at` is the latest sign
#: of their browser (a seek it stopped renewing is gone). Once paired, the room and seat.
seeks = Table(
    "seeks",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("secret_hash", String(64), nullable=False),
    Column("key", String(512), nullable=False),
    Column("game", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("players", Integer, nullable=False),
    Column("rated", Boolean, nullable=False, server_default=false()),
    Column("clock", JSON, nullable=True),
    Column("rating", Float, nullable=False),
    Column("name", String(64), nullable=True),
    Column("gender", String(8), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("seen_at", DateTime(timezone=True), nullable=False),
    Column("room_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    #: The seeker (an account's id, or a guest's from the guest cookie): the seat the
    #: seek takes becomes theirs, as a claimed seat does.
    Column("person", String(32), nullable=True),
    Index("ix_seeks_key_room", "key", "room_id"),
    Index("ix_seeks_seen", "seen_at"),
)

#: Browsers that asked to be told when it is their turn (Web Push): the push service's
#: endpoint and the browser's keys (RFC 8291).
push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("endpoint", Text, nullable=False),
    Column("p256dh", String(128), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("lang", String(8), nullable=False, server_default="cs"),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

#: Which seats a subscribed browser holds: it hears of their turns.
push_targets = Table(
    "push_targets",
    metadata,
    Column("subscription_id", String(64), ForeignKey("push_subscriptions.id", ondelete="CASCADE"), primary_key=True),
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Index("ix_push_targets_room", "room_id", "seat"),
)

#: People with an account. A guest has no row: the guest's id lives in a signed cookie and
#: in the seats it took. `name_key` is the name without case and diacritics ("eva" for
#: "Éva"), unique, so two names that read alike cannot both exist. A deleted account keeps
#: its row (its games point at it) without name, key or password.
people = Table(
    "people",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(32), nullable=True),
    Column("name_key", String(32), nullable=True),
    Column("password_hash", String(256), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("deleted_at", DateTime(timezone=True), nullable=True),
    Index("ix_people_name_key", "name_key", unique=True),
)

#: Signed-in sessions: the HMAC of the cookie's random token, never the token itself.
#: Deleting a row signs that browser out.
sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("person", String(32), ForeignKey("people.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("used_at", DateTime(timezone=True), nullable=False),
    Index("ix_sessions_person", "person"),
)

#: A person's rating in one game. `rating` is the FIBS rating (backgammon matches) or the
#: OpenSkill mean, `deviation` OpenSkill's sigma (NULL for FIBS); `experience` is FIBS's
#: (the match points played); `games` counts the rated games, `played_at` the latest.
ratings = Table(
    "ratings",
    metadata,
    Column("person", String(32), ForeignKey("people.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=True),
    Column("experience", Integer, nullable=False, server_default="0"),
    Column("games", Integer, nullable=False, server_default="0"),
    Column("played_at", DateTime(timezone=True), nullable=False),
    Index("ix_ratings_game_rating", "game", "rating"),
)

#: How each seat of a finished game ended, written in the transaction that stores the end
#: (one row per seat, so a game is counted once): its place (1 first, ties share), who sat
#: there, and for a rated game the seat's rating before and after (raw, as `ratings` keeps it).
results = Table(
    "results",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("game", String(32), nullable=False),
    Column("person", String(32), nullable=True),
    Column("bot", String(32), nullable=True),
    Column("place", Integer, nullable=False),
    Column("left", Boolean, nullable=False, server_default=false()),
    Column("rated", Boolean, nullable=False, server_default=false()),
    Column("before", Float, nullable=True),
    Column("after", Float, nullable=True),
    Column("deviation", Float, nullable=True),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    Index("ix_results_person_game", "person", "game", "finished_at"),
)

#: Failed sign-ins per account name (its key, whether or not such an account exists, so
#: the limit tells nothing of which names do): how many since `first_at`, the start of
#: the counting window, and until when the name may not try again. Kept in the store so
#: every server process counts the same attempts.
sign_in_failures = Table(
    "sign_in_failures",
    metadata,
    Column("name_key", String(64), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("first_at", DateTime(timezone=True), nullable=False),
    Column("blocked_until", DateTime(timezone=True), nullable=False),
    Index("ix_sign_in_failures_first", "first_at"),
)
