"""What profiles and leaderboards show: ratings on the shown scale, games, wins, history,
the record against each bot level, the latest games. Reads only.

A rating is provisional ("?") while it says little yet: an OpenSkill rating while its
deviation is above `provisional_deviation` shown points, a FIBS rating while its
player has played fewer than `provisional_experience` match points (both settings).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import sqlalchemy as sa

from hraj.players.rating import display, display_deviation
from hraj.store import Store
from hraj.store.schema import people, ratings, results
from hraj.store.times import utc

#: Leaderboards list players who played a rated game within this many days, this many at most.
ACTIVE_DAYS = 90
LEADERBOARD_SIZE = 50
#: Points of rating history a profile draws per game, and the latest games it lists.
HISTORY = 200
RECENT = 20


@dataclass(frozen=True, slots=True)
class Thresholds:
    deviation: float = 170.0
    experience: int = 20


@dataclass(frozen=True, slots=True)
class Shown:
    """A rating as people see it: the number, its deviation (OpenSkill), whether provisional."""

    rating: float
    deviation: float | None
    provisional: bool
    games: int

    @classmethod
    def of(cls, rating: float, deviation: float | None, experience: int, games: int, limits: Thresholds) -> Shown:
        if deviation is None:  # FIBS
            return cls(rating, None, experience < limits.experience, games)
        shown = display_deviation(deviation)
        return cls(display(rating), shown, shown > limits.deviation, games)


def shown_value(value: float, deviation: float | None) -> float:
    """A stored rating (FIBS, or an OpenSkill μ when the deviation is there) on the shown scale."""
    return value if deviation is None else display(value)


@dataclass(slots=True)
class GameRecord:
    game: str
    rating: Shown | None = None
    played: int = 0
    won: int = 0
    history: list[tuple[dt.datetime, float]] = field(default_factory=list)
    versus: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    """Bot level -> (won, tied, lost) against it."""


@dataclass(frozen=True, slots=True)
class RecentGame:
    room: str
    game: str
    place: int
    seats: int
    rated: bool
    change: float | None
    finished_at: dt.datetime


@dataclass(slots=True)
class Profile:
    id: str
    name: str
    created_at: dt.datetime
    games: dict[str, GameRecord]
    recent: list[RecentGame]


@dataclass(frozen=True, slots=True)
class Ranked:
    name: str
    rating: Shown
    played_at: dt.datetime


class Profiles:
    def __init__(self, store: Store, limits: Thresholds | None = None) -> None:
        self.engine = store.engine
        self.limits = limits or Thresholds()

    def profile(self, name_key: str) -> Profile | None:
        with self.engine.connect() as connection:
            person = connection.execute(
                sa.select(people.c.id, people.c.name, people.c.created_at).where(
                    people.c.name_key == name_key, people.c.deleted_at.is_(None)
                )
            ).first()
            if person is None:
                return None
            games: dict[str, GameRecord] = {}
            for row in connection.execute(sa.select(ratings).where(ratings.c.person == person.id)):
                games[row.game] = GameRecord(
                    row.game, Shown.of(row.rating, row.deviation, row.experience, row.games, self.limits)
                )
            for game, played, won in connection.execute(
                sa.select(results.c.game, sa.func.count(), sa.func.sum(sa.case((results.c.place == 1, 1), else_=0)))
                .where(results.c.person == person.id)
                .group_by(results.c.game)
            ):
                record = games.setdefault(game, GameRecord(game))
                record.played, record.won = int(played), int(won or 0)
            for game, after, deviation, at in connection.execute(
                sa.select(results.c.game, results.c.after, results.c.deviation, results.c.finished_at)
                .where(results.c.person == person.id, results.c.rated.is_(True))
                .order_by(results.c.finished_at)
            ):
                games[game].history.append((utc(at), shown_value(after, deviation)))
            mine, bot = results.alias("mine"), results.alias("bot")
            for game, level, place, bot_place in connection.execute(
                sa.select(mine.c.game, bot.c.bot, mine.c.place, bot.c.place)
                .join(bot, (bot.c.room_id == mine.c.room_id) & bot.c.bot.is_not(None))
                .where(mine.c.person == person.id)
            ):
                won, tied, lost = games[game].versus.get(level, (0, 0, 0))
                games[game].versus[level] = (
                    won + (place < bot_place),
                    tied + (place == bot_place),
                    lost + (place > bot_place),
                )
            seats_of = sa.select(sa.func.count()).where(results.c.room_id == mine.c.room_id).scalar_subquery()
            recent = [
                RecentGame(
                    room,
                    game,
                    place,
                    int(seats),
                    bool(rated),
                    None if before is None or after is None else shown_value(after, dev) - shown_value(before, dev),
                    utc(at),
                )
                for room, game, place, seats, rated, before, after, dev, at in connection.execute(
                    sa.select(
                        mine.c.room_id,
                        mine.c.game,
                        mine.c.place,
                        seats_of,
                        mine.c.rated,
                        mine.c.before,
                        mine.c.after,
                        mine.c.deviation,
                        mine.c.finished_at,
                    )
                    .where(mine.c.person == person.id)
                    .order_by(mine.c.finished_at.desc(), mine.c.room_id)
                    .limit(RECENT)
                )
            ]
        for record in games.values():
            record.history = record.history[-HISTORY:]
        return Profile(person.id, person.name, utc(person.created_at), games, recent)

    def rating(self, person: str, game: str) -> Shown | None:
        """A person's rating in one game as their profile shows it; None before their first rated game."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(ratings).where(ratings.c.person == person, ratings.c.game == game)
            ).first()
        return None if row is None else Shown.of(row.rating, row.deviation, row.experience, row.games, self.limits)

    def leaderboard(self, game: str, now: dt.datetime | None = None) -> list[Ranked]:
        """The best players of a game who are not provisional and played a rated game lately."""
        since = (now or dt.datetime.now(dt.UTC)) - dt.timedelta(days=ACTIVE_DAYS)
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(people.c.name, ratings)
                .join(people, people.c.id == ratings.c.person)
                .where(ratings.c.game == game, ratings.c.played_at >= since, people.c.deleted_at.is_(None))
            ).all()
        ranked = [
            Ranked(
                row.name,
                Shown.of(row.rating, row.deviation, row.experience, row.games, self.limits),
                utc(row.played_at),
            )
            for row in rows
        ]
        ranked = [entry for entry in ranked if not entry.rating.provisional]
        ranked.sort(key=lambda entry: (-entry.rating.rating, entry.name))
        return ranked[:LEADERBOARD_SIZE]
