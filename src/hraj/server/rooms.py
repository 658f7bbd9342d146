"""The rooms of a server process: making them (and their rematches), finding them by
code, loading them from the store on demand, archiving idle ones, and letting go of
finished ones nobody watches."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any

from hraj.clocks.controls import ClockError, TimeControl, custom, preset
from hraj.core import game_class
from hraj.core.bot import make_bot
from hraj.core.errors import HrajError
from hraj.core.game import Game, Option
from hraj.core.jsondata import GameOptions
from hraj.server.bot_rooms import BotRoomBudget, check_bots_alone
from hraj.server.committer import Committer, store_call
from hraj.server.deadline_watch import DeadlineWatch
from hraj.server.fairness import DICE_CURRENT, new_seed, room_commitment
from hraj.server.protocol import CreateRoom, ServerError
from hraj.server.rematch_votes import store_votes
from hraj.server.room import HINTS_KEY, Room
from hraj.server.seats import BOT, PERSON
from hraj.server.settings import Settings
from hraj.server.timekeeper import absent_after, new_clock
from hraj.server.tokens import ROOM_ID, hash_token, new_room_id, new_token
from hraj.store import NewRoom, NewSeat, RoomData, Store
from hraj.store.room_data import PLAYING
from hraj.store.timekeeping import WAITING

log = logging.getLogger("hraj.server")

#: Finished (or archived) rooms kept in memory when nobody watches them (rooms in play are always kept).
FINISHED_CACHE = 1000


def refuse_local_options(spec: Mapping[str, Option], options: Mapping[str, object]) -> None:
    """Refuse options that read the machine's files (only its own command line may set
    them); checked before the game is made, since making it would read the path."""
    for name in options:
        option = spec.get(name)
        if option is not None and option.local_only:
            raise ServerError(
                "invalid_option",
                "The option {option} reads files of the machine; only the local command line may set it.",
                option=name,
            )


@dataclass(slots=True)
class Created:
    room: Room
    invite: str
    host_token: str
    claimed: tuple[int, str] | None = None


class Rooms:
    """Every room of this server process: the live ones, and finished or archived ones on demand."""

    def __init__(
        self, store: Store, secret: str, seeds: Callable[[], str] = new_seed, settings: Settings | None = None
    ) -> None:
        self.store = store
        self.secret = secret
        self.seeds = seeds
        self.settings = settings if settings is not None else Settings(secret=secret)
        self.committer = Committer(store)
        self.rooms: dict[str, Room] = {}
        #: The process that owns the rooms it creates (several processes; else None).
        self.owner_id: str | None = None
        self._loading: dict[str, asyncio.Lock] = {}
        self._sweeper: asyncio.Task[None] | None = None
        #: Rooms where no person plays run their bots only in one of these slots.
        self.bots = BotRoomBudget(self.settings.bot_room_budget)
        #: The deadlines of the rooms' clocks: one heap for the process.
        self.deadlines = DeadlineWatch(self)
        #: Told when a correspondence turn begins for a player who is away (Web Push).
        self.on_turn: Callable[[str, int, str], Coroutine[Any, Any, int]] | None = None

    async def start(self) -> None:
        """Start the committer, archive idle rooms, and rebuild the rest of those in play.

        Finished and archived rooms are not read at all, so start-up does not grow
        with them; they are opened when someone asks for them.
        """
        self.committer.start()
        await self.archive_idle()
        for room_id in await asyncio.to_thread(self.store.room_ids, PLAYING):
            try:
                await self._load(room_id)
            except Exception:
                log.exception("room %s cannot be rebuilt from its log", room_id)
        self._sweeper = asyncio.create_task(self._sweep(), name="hraj-archiver")
        self.deadlines.start()

    async def stop(self) -> None:
        await self.deadlines.stop()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for room in list(self.rooms.values()):
            await room.stop()
        await self.committer.stop()

    def trouble(self) -> str | None:
        """Why this process cannot serve its players right now (for the health check), or None."""
        return "the latest commit failed" if self.committer.failing else None

    async def archive_idle(self) -> list[str]:
        """Archive the rooms in play that nothing happened in for `archive_after` seconds,
        and let go of those loaded here that nobody watches."""
        before = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=self.settings.archive_after)
        archived = await asyncio.to_thread(self.store.archive_idle, before)
        for room_id in archived:
            room = self.rooms.get(room_id)
            if room is not None and not room.connections:
                del self.rooms[room_id]
                await room.stop()
        if archived:
            log.info("archived %d idle rooms", len(archived))
        return archived

    async def _sweep(self) -> None:
        every = min(3600.0, max(1.0, self.settings.archive_after / 10))
        while True:
            await asyncio.sleep(every)
            try:
                await self.archive_idle()
            except Exception as error:
                log.warning("cannot archive idle rooms: %s", error)

    async def create(
        self,
        spec: CreateRoom,
        person: str | None = None,
        seated: Mapping[int, tuple[str, str | None]] | None = None,
        pairs: list[tuple[str, int]] | None = None,
    ) -> Created:
        """Make a room as `spec` says; the seat its creator claims (if any) is `person`'s.
        `seated` gives person seats their token and person at once (the people a seek
        paired, who learn their tokens from their seeks); `pairs` are those seeks, marked
        in the transaction that stores the room (`SeekTaken` if any was paired meanwhile)."""
        options: GameOptions = dict(spec.options)
        try:
            cls = game_class(spec.game)
            refuse_local_options(cls.options_spec, options)
            if "players" in cls.options_spec and "players" not in options:
                options["players"] = len(spec.seats)
            game = cls(**options)
        except HrajError as error:
            raise ServerError.from_hraj(error) from None
        if len(spec.seats) != game.players:
            raise ServerError(
                "invalid_option",
                "This game has {players} seats, but {given} were given.",
                players=game.players,
                given=len(spec.seats),
            )
        if all(seat.kind == BOT for seat in spec.seats):
            self._bots_alone(cls.options_spec, game.options)
        seats: list[NewSeat] = []
        for number, seat in enumerate(spec.seats):
            if seat.kind == BOT:
                name = (seat.bot or "random").strip().lower()
                try:
                    make_bot(game.id, name)
                except HrajError as error:
                    raise ServerError.from_hraj(error) from None
                seats.append(NewSeat(BOT, bot=name, name=seat.name, gender=seat.gender))
            else:
                if seat.bot is not None:
                    raise ServerError("bad_message", "Seat {seat} is a person's; it takes no bot.", seat=number)
                seats.append(NewSeat(PERSON, name=seat.name, gender=seat.gender))
        if spec.claim is not None and (spec.claim >= len(seats) or seats[spec.claim].kind != PERSON):
            raise ServerError("bad_message", "Seat {seat} cannot be claimed: it is no person's seat.", seat=spec.claim)
        control = self.control_for(spec, game)
        seed, room_id = self.seeds(), new_room_id()
        invite, host_token = new_token(), new_token()
        claimed: tuple[int, str] | None = None
        if spec.claim is not None:
            token = new_token()
            claimer = seats[spec.claim]
            seats[spec.claim] = NewSeat(
                PERSON,
                name=claimer.name,
                gender=claimer.gender,
                token_hash=hash_token(self.secret, token),
                person=person,
            )
            claimed = (spec.claim, token)
        for number, (given, whose) in (seated or {}).items():
            seats[number] = NewSeat(
                PERSON,
                name=seats[number].name,
                gender=seats[number].gender,
                token_hash=hash_token(self.secret, given),
                person=whose,
            )
        new = NewRoom(
            id=room_id,
            game=game.id,
            options={**game.options, HINTS_KEY: spec.hints},
            seed=seed,
            commitment=room_commitment(seed, room_id),
            invite_hash=hash_token(self.secret, invite),
            host_hash=hash_token(self.secret, host_token),
            seats=seats,
            dice=DICE_CURRENT,
            absent_after=absent_after(spec.absent_after, self.settings.absent_after, control),
            owner=self.owner_id,
            public=spec.public,
            clock=None if control is None else new_clock(control, game),
            host_seat=spec.claim,
            pairs=pairs or (),
            rated=spec.rated,
        )
        data = await store_call(self.store.create_room, new)
        room = self._room(data)
        self.rooms[room.id] = room
        room.start()
        # The opening chance is committed before the answer (bots move afterwards, one job each).
        await room.call(room.advance_committed)
        self._evict()
        return Created(room, invite, host_token, claimed)

    def control_for(self, spec: CreateRoom, game: Game[Any, Any]) -> TimeControl | None:
        """The room's time control: a preset of the game's family (times scaled by
        `HRAJ_CLOCK_SCALE`) or a custom live clock; None: untimed."""
        if spec.clock is None:
            return None
        if sum(1 for seat in spec.seats if seat.kind == PERSON) < 2:
            raise ServerError("invalid_option", "A clock needs at least two people at the table.")
        try:
            if isinstance(spec.clock, str):
                return preset(game.clock_family, spec.clock).scaled(self.settings.clock_scale)
            return custom(spec.clock.per_move, spec.clock.reserve)
        except ClockError as error:
            raise ServerError.from_hraj(error) from None

    async def consent(self, old: Room, seat: int | None, accept: bool) -> tuple[Room | None, bool]:
        """A player of a finished room accepts (or offers) the rematch, or declines it.
        Once every person at the table has accepted, the rematch is made (`rematch`);
        until then the others are asked; a refusal ends the offer. Runs inside the old
        room's actor. The rematch (None while it is not made) and whether it was just made."""
        if not old.over:
            raise ServerError("not_over", "A rematch can start once the game is over.")
        if old.rematch is not None:
            return await self.get(old.rematch), False
        people = [s.number for s in old.seats if s.kind == PERSON and s.token_hash is not None]
        verdict = old.votes.vote(seat, accept, people)
        await store_call(store_votes, self.store.engine, old.id, old.votes, old.version, old.committer.owner)
        if verdict == "all":
            return await self.rematch(old)
        old.announce_votes()
        return None, False

    async def rematch(self, old: Room) -> tuple[Room, bool]:
        """The rematch of a finished room (made once; later calls find it): the same
        game and seats, the next first player, a new seed. Its seats keep their tokens,
        its invite and host token are the old room's, so everyone who held a seat holds
        it again. Runs inside the old room's actor, so two asks make one rematch.
        The room and whether it was just made."""
        if not old.over:
            raise ServerError("not_over", "A rematch can start once the game is over.")
        if old.rematch is not None:
            return await self.get(old.rematch), False
        options, _ = old.rematch_options()
        seed, room_id = self.seeds(), new_room_id()
        new = NewRoom(
            id=room_id,
            game=old.game.id,
            options={**options, HINTS_KEY: old.hints},
            seed=seed,
            commitment=room_commitment(seed, room_id),
            invite_hash=old.invite_hash,
            host_hash=old.host_hash,
            seats=[
                NewSeat(
                    s.kind,
                    bot=s.bot if s.kind == BOT else None,
                    name=s.name,
                    token_hash=s.token_hash,
                    gender=s.gender,
                    person=s.person,
                )
                for s in old.seats
            ],
            dice=DICE_CURRENT,
            absent_after=old.absent_after,
            clock=old.clock.fresh(),
            host_seat=old.host_seat,
            public=old.public,
            rematch_of=old.id,
            owner=self.owner_id,
            rated=old.rated,
        )
        data = await store_call(self.store.create_room, new)
        room = self._room(data)
        self.rooms[room.id] = room
        room.start()
        await room.call(room.advance_committed)
        old.announce_rematch(room.id)
        # No eviction here: it could stop the old room's actor, which runs this very job.
        return room, True

    async def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        if not ROOM_ID.fullmatch(room_id):
            raise ServerError("not_found", "There is no room {room}.", room=room_id[:32].replace("\x00", ""))
        lock = self._loading.setdefault(room_id, asyncio.Lock())
        try:
            async with lock:
                room = self.rooms.get(room_id)
                if room is None:
                    room = await self._load(room_id)
        finally:
            if not lock.locked():
                self._loading.pop(room_id, None)
        return room

    async def _load(self, room_id: str) -> Room:
        data = await store_call(self.store.load_room, room_id)
        if data is None:
            raise ServerError("not_found", "There is no room {room}.", room=room_id)
        # An archived room is read, not woken: it plays again with its next move (a
        # look at it from anyone must not have it rebuilt at every start from then on).
        # A waiting one (a correspondence room nobody watched) is in play again.
        if data.status == WAITING:
            await store_call(self.store.wake, room_id)
        room = self._room(data)
        self.rooms[room_id] = room
        room.start()
        self._evict()
        return room

    def _room(self, data: RoomData) -> Room:
        """A live room from its stored data (several processes: owned here or followed)."""
        return self._timed(Room(data, self.committer, self.store, self.secret, self.settings, self.bots))

    def _timed(self, room: Room) -> Room:
        """The room's clock hands its deadlines to this process's heap."""
        room.clock.use(self.deadlines.heap)
        room.clock.on_turn = self.on_turn
        return room

    def _bots_alone(self, options_spec: Mapping[str, Option], options: GameOptions) -> None:
        """Refuse a room of bots only that this server does not host (now)."""
        if not self.settings.bot_rooms:
            raise ServerError("forbidden", "This server does not host rooms of bots only; seat at least one person.")
        if not self.settings.bot_rooms_endless:
            check_bots_alone(options_spec, options)
        if self.bots.full:
            raise ServerError(
                "rate_limited", "This server plays as many rooms of bots only as it can now; try again later."
            )

    def _evict(self) -> None:
        finished = [r for r in self.rooms.values() if (r.over or r.archived) and not r.connections]
        for room in finished[: max(0, len(finished) - FINISHED_CACHE)]:
            del self.rooms[room.id]
            room.cancel_timers()
            if room.task is not None:
                room.task.cancel()
