"""People in the store: accounts, their sessions, and the seats and games of a person.

A guest has no row of its own: its id (from a signed cookie) is written into the seats
it takes, and moves to the account it signs up for. Every write is one transaction.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from hraj.core.game import OutcomeJson
from hraj.store.db import SeatData, Store, _seat_data
from hraj.store.schema import people, ratings, results, rooms, seats, sessions
from hraj.store.times import utc, utc_now

#: A session nobody used for this long is over (its browser signs in again).
SESSION_IDLE = dt.timedelta(days=180)
#: How stale a session's `used_at` may get before a request writes it again (one write a day, not one a request).
TOUCH_AFTER = dt.timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    password_hash: str
    created_at: dt.datetime


@dataclass(frozen=True, slots=True)
class PersonGame:
    """A game a person sat in: the room, its game, whether it is over, the person's seat."""

    room: str
    game: str
    status: str
    seat: int
    rated: bool
    outcome: OutcomeJson | None
    created_at: dt.datetime
    updated_at: dt.datetime
    seats: list[SeatData] = field(default_factory=list)


def _account(row: sa.RowMapping) -> Account:
    return Account(row["id"], row["name"], row["password_hash"], utc(row["created_at"]))


class People:
    """Accounts and sessions, and the link between people and seats, over one store."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    # --- accounts --------------------------------------------------------------------

    def create_account(self, person: str, name: str, name_key: str, password_hash: str) -> bool:
        """A new account; False (and nothing written) when the name's key is taken."""
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    people.insert().values(
                        id=person, name=name, name_key=name_key, password_hash=password_hash, created_at=utc_now()
                    )
                )
        except IntegrityError:
            return False
        return True

    def account_named(self, name_key: str) -> Account | None:
        with self.engine.connect() as connection:
            row = connection.execute(sa.select(people).where(people.c.name_key == name_key)).mappings().first()
        return None if row is None else _account(row)

    def account(self, person: str) -> Account | None:
        with self.engine.connect() as connection:
            row = (
                connection.execute(sa.select(people).where(people.c.id == person, people.c.deleted_at.is_(None)))
                .mappings()
                .first()
            )
        return None if row is None else _account(row)

    def set_password(self, person: str, password_hash: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(people.update().where(people.c.id == person).values(password_hash=password_hash))

    def delete_account(self, person: str) -> None:
        """Forget the account's name, password, sessions and ratings; its games stay and
        show it as a deleted player (its seats keep the id, lose the name)."""
        with self.engine.begin() as connection:
            connection.execute(sessions.delete().where(sessions.c.person == person))
            connection.execute(ratings.delete().where(ratings.c.person == person))
            connection.execute(seats.update().where(seats.c.person == person).values(name=None, gender=None))
            connection.execute(
                people.update()
                .where(people.c.id == person)
                .values(name=None, name_key=None, password_hash=None, deleted_at=utc_now())
            )

    def deleted(self, persons: list[str]) -> set[str]:
        """Which of `persons` are deleted accounts."""
        if not persons:
            return set()
        with self.engine.connect() as connection:
            return set(
                connection.execute(
                    sa.select(people.c.id).where(people.c.id.in_(persons), people.c.deleted_at.is_not(None))
                ).scalars()
            )

    # --- sessions ----------------------------------------------------------------------

    def add_session(self, token_hash: str, person: str) -> None:
        now = utc_now()
        with self.engine.begin() as connection:
            connection.execute(
                sessions.insert().values(token_hash=token_hash, person=person, created_at=now, used_at=now)
            )

    def session_account(self, token_hash: str) -> Account | None:
        """The account a session belongs to, if the session is live; marks it used."""
        now = utc_now()
        query = (
            sa.select(people, sessions.c.used_at)
            .join(sessions, sessions.c.person == people.c.id)
            .where(sessions.c.token_hash == token_hash, people.c.deleted_at.is_(None))
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).mappings().first()
        if row is None:
            return None
        used = utc(row["used_at"])
        if now - used > SESSION_IDLE:
            self.drop_session(token_hash)
            return None
        if now - used > TOUCH_AFTER:
            with self.engine.begin() as connection:
                connection.execute(sessions.update().where(sessions.c.token_hash == token_hash).values(used_at=now))
        return _account(row)

    def drop_session(self, token_hash: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(sessions.delete().where(sessions.c.token_hash == token_hash))

    def drop_sessions(self, person: str, keep: str | None = None) -> int:
        """Sign the person out everywhere (but the session `keep`); how many sessions ended."""
        condition = sessions.c.person == person
        if keep is not None:
            condition = condition & (sessions.c.token_hash != keep)
        with self.engine.begin() as connection:
            return connection.execute(sessions.delete().where(condition)).rowcount

    def session_count(self, person: str) -> int:
        with self.engine.connect() as connection:
            return int(
                connection.execute(
                    sa.select(sa.func.count()).select_from(sessions).where(sessions.c.person == person)
                ).scalar_one()
            )

    # --- seats and games -----------------------------------------------------------------

    def link_seat(self, room_id: str, seat: int, person: str) -> bool:
        """The person took this seat; False (nothing written) when the person already
        sits in another seat of the room (a second seat at one screen stays nobody's)."""
        other = sa.exists().where(seats.c.room_id == room_id, seats.c.person == person)
        with self.engine.begin() as connection:
            done = connection.execute(
                seats.update().where(seats.c.room_id == room_id, seats.c.seat == seat, ~other).values(person=person)
            )
            return done.rowcount == 1

    def seat_of(self, room_id: str, person: str) -> int | None:
        """The seat the person took in the room, if any."""
        with self.engine.connect() as connection:
            found = connection.execute(
                sa.select(seats.c.seat).where(seats.c.room_id == room_id, seats.c.person == person)
            ).first()
        return None if found is None else int(found[0])

    def seat_people(self, room_id: str) -> dict[int, str]:
        """Seat -> the person who took it, for the seats someone took."""
        with self.engine.connect() as connection:
            found = connection.execute(
                sa.select(seats.c.seat, seats.c.person).where(seats.c.room_id == room_id, seats.c.person.is_not(None))
            )
            return {int(seat): str(person) for seat, person in found}

    def ratings(self, person: str) -> list[dict[str, object]]:
        """The person's ratings as stored (raw: FIBS rating, or OpenSkill μ and σ), per game."""
        with self.engine.connect() as connection:
            return [
                {
                    "game": row.game,
                    "rating": row.rating,
                    "deviation": row.deviation,
                    "experience": row.experience,
                    "games": row.games,
                    "played_at": utc(row.played_at).isoformat(),
                }
                for row in connection.execute(sa.select(ratings).where(ratings.c.person == person))
            ]

    def results(self, person: str) -> list[dict[str, object]]:
        """How each of the person's finished games ended for them, and their rating before and after."""
        with self.engine.connect() as connection:
            return [
                {
                    "room": row.room_id,
                    "game": row.game,
                    "seat": row.seat,
                    "place": row.place,
                    "left": bool(row.left),
                    "rated": bool(row.rated),
                    "before": row.before,
                    "after": row.after,
                    "deviation": row.deviation,
                    "finished_at": utc(row.finished_at).isoformat(),
                }
                for row in connection.execute(
                    sa.select(results).where(results.c.person == person).order_by(results.c.finished_at)
                )
            ]

    def move_games(self, guest: str, person: str) -> int:
        """A guest who signed up: its seats and results become the account's; how many seats."""
        with self.engine.begin() as connection:
            moved = connection.execute(seats.update().where(seats.c.person == guest).values(person=person)).rowcount
            connection.execute(results.update().where(results.c.person == guest).values(person=person))
        return moved

    def games(self, person: str, limit: int = 50) -> list[PersonGame]:
        """The person's games, the latest changed first."""
        query = (
            sa.select(
                rooms.c.id,
                rooms.c.game,
                rooms.c.status,
                seats.c.seat,
                rooms.c.rated,
                rooms.c.outcome,
                rooms.c.created_at,
                rooms.c.updated_at,
            )
            .join(seats, seats.c.room_id == rooms.c.id)
            .where(seats.c.person == person)
            .order_by(rooms.c.updated_at.desc(), rooms.c.id)
            .limit(limit)
        )
        with self.engine.connect() as connection:
            found = [
                PersonGame(room, game, status, seat, bool(rated), outcome, utc(created), utc(updated))
                for room, game, status, seat, rated, outcome, created, updated in connection.execute(query)
            ]
            by_room = {game.room: game for game in found}
            if by_room:
                for row in connection.execute(
                    sa.select(seats, people.c.deleted_at.is_not(None).label("deleted"))
                    .outerjoin(people, people.c.id == seats.c.person)
                    .where(seats.c.room_id.in_(list(by_room)))
                    .order_by(seats.c.seat)
                ).mappings():
                    by_room[row["room_id"]].seats.append(_seat_data(row))
        return found
