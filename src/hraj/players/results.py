"""The end of a game in the store: each seat's place, and for a rated game the new ratings.

`record_end` runs inside the transaction that stores the game's last events
(`Store.end_hooks`), so a game's end and its ratings are stored together or not at
all: a crash at that moment leaves either both or neither, and since the end commits
once (each room's version is checked), a game is rated exactly once. The rows of
`results` are keyed by (room, seat), so even a second attempt could not count it twice.
Ratings rows are locked (PostgreSQL) in the order of their ids, so two processes
ending two games of one player at once rate them one after the other.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

import hraj
from hraj.core.errors import HrajError
from hraj.core.game import RatedAs
from hraj.players.anchors import bot_rating
from hraj.players.rating import FIBS_START, MODEL, Skill, fibs_match, openskill_game, places
from hraj.store import AppendBatch, Store
from hraj.store.schema import people, ratings, results, rooms, seats

log = logging.getLogger("hraj.players")

BOT, PERSON = "bot", "person"


@dataclass(frozen=True, slots=True)
class SeatAtEnd:
    seat: int
    kind: str
    bot: str | None
    person: str | None


def rated_as(game_id: str, options: dict[str, object]) -> RatedAs | None:
    """How a game of these stored options is rated (options of the server, `_…`, left out)."""
    try:
        return hraj.game(game_id, **{k: v for k, v in options.items() if not k.startswith("_")}).rated_as()
    except HrajError:
        return None


def new_skill(how: RatedAs) -> Skill:
    return Skill(FIBS_START, None, 0) if how.kind == "match" else Skill(MODEL.mu, MODEL.sigma, 0)


def _insert_missing(connection: sa.Connection, rows: list[dict[str, object]]) -> None:
    """Insert rating rows that do not exist yet (ON CONFLICT DO NOTHING)."""
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    connection.execute(dialect.insert(ratings).on_conflict_do_nothing(), rows)


def _skills(
    connection: sa.Connection, game: str, how: RatedAs, at_end: Sequence[SeatAtEnd], now: dt.datetime
) -> list[Skill] | None:
    """Every seat's rating before the game (locked for the update), or None where the
    game cannot be rated (a bot without a calibrated rating, a person without an account)."""
    persons = sorted({s.person for s in at_end if s.kind == PERSON and s.person is not None})
    if len(persons) != sum(1 for s in at_end if s.kind == PERSON):
        return None
    accounts = set(
        connection.execute(
            sa.select(people.c.id).where(people.c.id.in_(persons), people.c.deleted_at.is_(None))
        ).scalars()
    )
    start = new_skill(how)
    if accounts:
        _insert_missing(
            connection,
            [
                {"person": p, "game": game, "rating": start.rating, "deviation": start.deviation, "played_at": now}
                for p in sorted(accounts)
            ],
        )
    rows = {
        row.person: Skill(row.rating, row.deviation, row.experience)
        for row in connection.execute(
            sa.select(ratings)
            .where(ratings.c.game == game, ratings.c.person.in_(sorted(accounts)))
            .order_by(ratings.c.person)
            .with_for_update()
        )
    }
    skills = []
    for seat in at_end:
        if seat.kind == BOT:
            anchor = bot_rating(game, seat.bot or "")
            if anchor is None or (anchor.system == "fibs") != (how.kind == "match"):
                return None
            skills.append(anchor.skill())
        else:
            skills.append(rows.get(seat.person or "", start))
    return skills


def rate(how: RatedAs, skills: Sequence[Skill], seat_places: Sequence[int]) -> list[Skill]:
    """The seats' ratings after the game."""
    if how.kind == "match":
        winner = seat_places.index(min(seat_places))
        return fibs_match(skills, winner, how.points)
    return openskill_game(skills, seat_places)


def record_end(connection: sa.Connection, batch: AppendBatch) -> None:
    """Store how each seat ended and, for a rated game, every person's new rating."""
    if batch.outcome is None:
        return
    room = connection.execute(
        sa.select(rooms.c.game, rooms.c.options, rooms.c.rated).where(rooms.c.id == batch.room_id)
    ).first()
    if room is None:
        return
    at_end = [
        SeatAtEnd(row.seat, row.kind, row.bot, row.person)
        for row in connection.execute(
            sa.select(seats.c.seat, seats.c.kind, seats.c.bot, seats.c.person)
            .where(seats.c.room_id == batch.room_id)
            .order_by(seats.c.seat)
        )
    ]
    if not any(seat.person is not None for seat in at_end):
        return  # nobody's game: nothing to keep
    # A person seat that a bot played at the end: its player left, and counts as last.
    left = sorted(set(batch.left) | {s.seat for s in at_end if s.kind == PERSON and s.bot is not None})
    seat_places = places(batch.outcome, left)
    now = dt.datetime.now(dt.UTC)
    before: list[Skill] | None = None
    after: list[Skill] | None = None
    how = rated_as(room.game, dict(room.options)) if room.rated else None
    if how is not None:
        before = _skills(connection, room.game, how, at_end, now)
        if before is not None:
            after = rate(how, before, seat_places)
    rows = []
    for seat in at_end:
        row: dict[str, object] = {
            "room_id": batch.room_id,
            "seat": seat.seat,
            "game": room.game,
            "person": seat.person,
            "bot": seat.bot if seat.kind == BOT else None,
            "place": seat_places[seat.seat],
            "left": seat.seat in left,
            "rated": after is not None,
            "before": None,
            "after": None,
            "deviation": None,
            "finished_at": now,
        }
        if before is not None and after is not None:
            new = after[seat.seat]
            row.update(before=before[seat.seat].rating, after=new.rating, deviation=new.deviation)
            if seat.kind == PERSON and seat.person is not None:
                connection.execute(
                    ratings.update()
                    .where(ratings.c.person == seat.person, ratings.c.game == room.game)
                    .values(
                        rating=new.rating,
                        deviation=new.deviation,
                        experience=new.experience,
                        games=ratings.c.games + 1,
                        played_at=now,
                    )
                )
        rows.append(row)
    connection.execute(results.insert(), rows)


def install(store: Store) -> None:
    """Have the store record the end of every game in the transaction that stores it."""
    if record_end not in store.end_hooks:
        store.end_hooks.append(record_end)
