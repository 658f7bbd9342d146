"""Rooms: one asyncio actor per room, a shared group committer, and the room registry.

A room's actor takes one job at a time from its queue (a move, a claim, a new
connection...). A move is checked by the state itself (`apply` looks it up in
`legal_actions`), pending chance is drawn from the room's seeded generator, and the
new events are **committed** to the store before any connection hears of them. Each
connection then receives the view of its own seat only. Bots sit in seats and their
moves go through the very same `act` as people's.

The committer gathers the batches of every room that is waiting and writes them in
one transaction, so a thousand busy rooms cost one commit per tick, not a thousand.
It writes from a worker thread, one transaction at a time (see `Committer._append`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson

import hraj
from hraj.core import game_class
from hraj.core.bot import Bot, make_bot
from hraj.core.errors import HrajError
from hraj.core.game import State
from hraj.server.fairness import commitment, new_seed, replay_with_seed
from hraj.server.protocol import PROTOCOL_VERSION, CreateRoom, ServerError
from hraj.store import AppendBatch, NewRoom, NewSeat, RoomData, Store
from hraj.store.db import OVER, PLAYING

log = logging.getLogger("hraj.server")

PERSON, BOT = "person", "bot"
#: Messages waiting for a slow client before it is dropped (it reconnects with `since`).
OUTBOX_LIMIT = 256
#: Finished rooms kept in memory (rooms in play are always kept).
FINISHED_CACHE = 1000

T = TypeVar("T")


def hash_token(secret: str, token: str) -> str:
    """What the store keeps of a token: its HMAC-SHA256 under the server secret."""
    return hmac.new(secret.encode(), token.encode(), hashlib.sha256).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def dumps(message: dict[str, Any]) -> str:
    """Compact JSON, the same text as `json.dumps(..., separators=(",", ":"), ensure_ascii=False)`.

    orjson writes it about seven times faster (2 µs for a Qwixx state, 14 µs with
    `json`), which was the largest single cost of a move in the load benchmark. The
    standard encoder remains for what orjson refuses (an integer beyond 64 bits).
    """
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class Connection:
    """One client socket as a room sees it: its seat (None watches) and its outbox."""

    def __init__(self, seat: int | None, lang: str = "en") -> None:
        self.seat = seat
        self.lang = lang
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.dropped = False

    def push(self, message: str | dict[str, Any]) -> None:
        """Queue a message; a client too slow to take them is dropped (None ends the writer)."""
        if self.dropped:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.dropped = True
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(message if isinstance(message, str) else dumps(message))


@dataclass(slots=True)
class Seat:
    number: int
    kind: str
    bot: str | None
    """The bot of a bot seat, or the stand-in bot of a person seat left to a bot."""
    name: str | None
    token_hash: str | None
    player: Bot | None = None

    def public(self, connected: bool) -> dict[str, Any]:
        return {
            "seat": self.number,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "claimed": self.token_hash is not None,
            "connected": connected,
        }


class Committer:
    """Group commit: every batch waiting when the writer comes round goes in one transaction."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.waiting: list[tuple[AppendBatch, asyncio.Future[None]]] = []
        self.wakeup = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.writing: asyncio.Future[None] | None = None
        self.commits = 0
        self.batches = 0
        self.events = 0
        self.seconds = 0.0
        #: Seconds from a move's arrival to its acknowledgement, the latest ones.
        self.timings: collections.deque[float] = collections.deque(maxlen=100_000)

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name="hraj-committer")

    async def stop(self) -> None:
        """Stop; a transaction already begun is finished first (its thread cannot be stopped)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.writing is not None:
            with contextlib.suppress(Exception):
                await self.writing

    async def commit(self, batch: AppendBatch) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append((batch, future))
        self.wakeup.set()
        await future

    async def _append(self, batches: list[AppendBatch]) -> None:
        """Write `batches` in one transaction from a worker thread.

        SQLite and PostgreSQL wait for the disk without holding the interpreter lock, so
        the loop goes on serving every room meanwhile, and the next commit gathers what
        arrived. Measured with the load benchmark (1,000 rooms x 2), back to back against
        committing in the loop's own thread: on a quiet machine the same (3,100-3,300
        moves/s flat out; p99 28-48 ms with players thinking 1 s); while other work kept
        the disk slow (fsync 5 ms), 1,899 -> 2,654 moves/s flat out and p99 97 -> 63 ms
        with thinking players, where inline commits had kept the loop waiting for the
        disk 40 % of the time. (An earlier measurement, before the switch interval was
        shortened, had found the thread slower.) Shielded: a transaction once begun is
        finished even if the server stops.
        """
        self.writing = asyncio.ensure_future(asyncio.to_thread(self.store.append, batches))
        await asyncio.shield(self.writing)

    async def _run(self) -> None:
        """Commit whatever is waiting, one transaction at a time."""
        while True:
            await self.wakeup.wait()
            self.wakeup.clear()
            await asyncio.sleep(0)  # moves that are ready this very tick join the commit
            taken, self.waiting = self.waiting, []
            if not taken:
                continue
            began = time.perf_counter()
            try:
                await self._append([batch for batch, _ in taken])
            except Exception:
                # One bad batch must not fail the others: retry them one by one.
                for batch, future in taken:
                    try:
                        await self._append([batch])
                    except Exception as error:
                        log.exception("cannot commit room %s", batch.room_id)
                        if not future.done():
                            future.set_exception(error)
                    else:
                        if not future.done():
                            future.set_result(None)
                continue
            self.seconds += time.perf_counter() - began
            self.commits += 1
            self.batches += len(taken)
            self.events += sum(len(batch.events) for batch, _ in taken)
            for _, future in taken:
                if not future.done():
                    future.set_result(None)

    def stats(self) -> dict[str, float]:
        timings = sorted(self.timings)

        def ms(q: float) -> float:
            return round(1000 * timings[min(len(timings) - 1, int(q * len(timings)))], 3) if timings else 0.0

        return {
            "commits": self.commits,
            "batches": self.batches,
            "events": self.events,
            "commit_seconds": round(self.seconds, 3),
            "moves_timed": len(timings),
            "move_p50_ms": ms(0.5),
            "move_p99_ms": ms(0.99),
        }


class Room:
    """One room: its state, its seats, its connections and the actor that changes them."""

    def __init__(self, data: RoomData, committer: Committer, store: Store, secret: str) -> None:
        self.id = data.id
        self.game = hraj.game(data.game, **data.options)
        self.seed = data.seed
        self.commitment = data.commitment
        self.invite_hash = data.invite_hash
        self.host_hash = data.host_hash
        self.seats = [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in data.seats]
        self.committer = committer
        self.store = store
        self.secret = secret
        self.state: State[Any, Any]
        self.state, self.rng = replay_with_seed(self.game, data.events, data.seed)
        self.version = len(data.events)
        self.connections: set[Connection] = set()
        self.jobs: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any]]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.bot_rng = random.Random(self._derived_seed("determinize"))
        self._messages: dict[int | None, str] = {}
        self._messages_version = -1

    # --- life of the actor ------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.is_over

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"hraj-room-{self.id}")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        for connection in list(self.connections):
            connection.outbox.put_nowait(None)

    async def call(self, job: Callable[[], Awaitable[T]]) -> T:
        """Run `job` inside the actor, after every job queued before it."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.jobs.put_nowait((job, future))
        return await future

    async def _run(self) -> None:
        await self._safely(self._advance)
        await self._play_bots()
        while True:
            job, future = await self.jobs.get()
            try:
                result = await job()
            except ServerError as error:
                if not future.done():
                    future.set_exception(error)
            except Exception:
                log.exception("room %s: job failed", self.id)
                if not future.done():
                    future.set_exception(ServerError("internal", "Something went wrong on the server."))
            else:
                if not future.done():
                    future.set_result(result)
            await self._play_bots()

    async def _safely(self, job: Callable[[], Awaitable[None]]) -> None:
        try:
            await job()
        except Exception:
            log.exception("room %s: could not go on", self.id)

    # --- moves ------------------------------------------------------------------------

    async def act(self, seat: int, action: str) -> int:
        """Apply a seat's move, draw any chance that follows, commit, broadcast; the new version."""
        try:
            self.state.apply(seat, action)
        except HrajError as error:
            raise ServerError.from_hraj(error) from None
        await self._advance()
        return self.version

    async def _advance(self) -> None:
        """Draw every pending chance outcome from the room's generator, then commit."""
        while self.state.is_chance:
            self.state.apply_chance(self.state.sample_chance(self.rng), check=False)
        await self._commit()

    async def _commit(self) -> None:
        events = self.state.events()[self.version :]
        if not events:
            return
        outcome = self.state.outcome
        batch = AppendBatch(
            self.id,
            self.version,
            events,
            status=OVER if self.over else PLAYING,
            outcome=None if outcome is None else outcome.to_json(),
        )
        try:
            await self.committer.commit(batch)
        except Exception:
            # The state in memory ran ahead of the log: go back to what is stored.
            await self._reload()
            raise ServerError("unavailable", "The move could not be saved; please try again.") from None
        self.version += len(events)
        self._broadcast_state()

    async def _reload(self) -> None:
        data = await asyncio.to_thread(self.store.load_room, self.id)
        if data is None:  # pragma: no cover - rooms are never deleted
            raise ServerError("not_found", "There is no room {room}.", room=self.id)
        self.state, self.rng = replay_with_seed(self.game, data.events, data.seed)
        self.version = len(data.events)

    async def _play_bots(self) -> None:
        """Let bot-played seats answer for as long as one of them is to act."""
        while not self.over:
            seat = next((s for s in self.state.to_act if self.seats[s].bot is not None), None)
            if seat is None:
                return
            player = self._player(seat)
            try:
                # A searching bot may think for a while: it does so on its own copy in a
                # worker thread, so the other rooms of the process go on meanwhile.
                seen = self.state.determinize(seat, self.bot_rng)
                action = await asyncio.to_thread(player.choose, seen, seat)
                await self.act(seat, str(action))
            except Exception:
                log.exception("room %s: the bot of seat %s could not move", self.id, seat)
                return
            await asyncio.sleep(0)

    def _player(self, seat: int) -> Bot:
        info = self.seats[seat]
        assert info.bot is not None
        if info.player is None or info.player.name != info.bot:
            info.player = make_bot(self.game.id, info.bot, seed=self._derived_seed(f"bot:{seat}:{info.bot}"))
        return info.player

    def _derived_seed(self, purpose: str) -> int:
        """A seed for the room's bots, derived one-way from the room's secret seed, so a
        room replays exactly from its seed without the bots telling anything of it."""
        return int.from_bytes(hashlib.sha256(f"{self.seed}:{purpose}".encode()).digest()[:8], "big")

    # --- seats ------------------------------------------------------------------------

    def seat_of(self, token: str) -> int | None:
        """The seat that `token` proves, or None."""
        hashed = hash_token(self.secret, token)
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, hashed):
                return seat.number
        return None

    def is_host(self, token: str) -> bool:
        return hmac.compare_digest(self.host_hash, hash_token(self.secret, token))

    def is_invite(self, invite: str) -> bool:
        return hmac.compare_digest(self.invite_hash, hash_token(self.secret, invite))

    async def claim(self, seat: int | None, name: str | None) -> tuple[int, str]:
        """Give a free person seat (the first, unless one is named) a new token."""
        free = [s.number for s in self.seats if s.kind == PERSON and s.token_hash is None]
        if seat is None:
            if not free:
                raise ServerError("seat_taken", "Every seat of this room is taken.")
            seat = free[0]
        if seat >= len(self.seats):
            raise ServerError("not_found", "This room has no seat {seat}.", seat=seat)
        if seat not in free:
            raise ServerError("seat_taken", "Seat {seat} is taken or is a bot's.", seat=seat)
        token = new_token()
        hashed = hash_token(self.secret, token)
        if not await asyncio.to_thread(self.store.claim_seat, self.id, seat, hashed, name):
            raise ServerError("seat_taken", "Seat {seat} is taken or is a bot's.", seat=seat)
        self.seats[seat].token_hash = hashed
        self.seats[seat].name = name
        self._broadcast_seats()
        return seat, token

    async def hand_to_bot(self, seat: int, bot: str) -> None:
        """A person's seat is played by `bot` until the person takes it back."""
        info = self._person_seat(seat)
        try:
            make_bot(self.game.id, bot)
        except HrajError as error:
            raise ServerError.from_hraj(error) from None
        await asyncio.to_thread(self.store.update_seat, self.id, seat, bot=bot.strip().lower())
        info.bot = bot.strip().lower()
        self._broadcast_seats()

    async def take_back(self, seat: int) -> None:
        info = self._person_seat(seat)
        await asyncio.to_thread(self.store.update_seat, self.id, seat, bot=None)
        info.bot = None
        info.player = None
        self._broadcast_seats()

    def _person_seat(self, seat: int) -> Seat:
        if not 0 <= seat < len(self.seats):
            raise ServerError("not_found", "This room has no seat {seat}.", seat=seat)
        info = self.seats[seat]
        if info.kind != PERSON:
            raise ServerError("forbidden", "Seat {seat} is a bot's seat.", seat=seat)
        return info

    # --- connections and what they see ---------------------------------------------------

    async def attach(self, connection: Connection, since: int | None) -> None:
        """Join a connection: a welcome, then the current state unless it has seen it."""
        self.connections.add(connection)
        connection.push(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "room": self.id,
                "game": self.game.id,
                "options": self.game.options,
                "seat": connection.seat,
                "version": self.version,
                "commitment": self.commitment,
                "seats": self.public_seats(),
            }
        )
        if since != self.version:
            connection.push(self.state_message(connection.seat))
        self._broadcast_seats(but=connection)

    def detach(self, connection: Connection) -> None:
        if connection in self.connections:
            self.connections.discard(connection)
            self._broadcast_seats()

    def public_seats(self) -> list[dict[str, Any]]:
        connected = {c.seat for c in self.connections}
        return [seat.public(seat.number in connected) for seat in self.seats]

    def view_message(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see now (committed state only: the actor calls this between jobs)."""
        over = self.over
        message: dict[str, Any] = {
            "type": "state",
            "room": self.id,
            "version": self.version,
            "status": OVER if over else PLAYING,
            "view": self.state.view(seat),
        }
        if over:
            message["seed"] = self.seed
        return message

    def state_message(self, seat: int | None) -> str:
        if self._messages_version != self.version:
            self._messages = {}
            self._messages_version = self.version
        text = self._messages.get(seat)
        if text is None:
            text = self._messages[seat] = dumps(self.view_message(seat))
        return text

    def _broadcast_state(self) -> None:
        for connection in self.connections:
            connection.push(self.state_message(connection.seat))

    def _broadcast_seats(self, but: Connection | None = None) -> None:
        if not self.connections:
            return
        text = dumps({"type": "seats", "room": self.id, "seats": self.public_seats()})
        for connection in self.connections:
            if connection is not but:
                connection.push(text)

    def summary(self) -> dict[str, Any]:
        """The public facts of the room (HTTP `GET /api/rooms/{id}`)."""
        outcome = self.state.outcome
        return {
            "room": self.id,
            "game": self.game.id,
            "options": self.game.options,
            "status": OVER if self.over else PLAYING,
            "version": self.version,
            "commitment": self.commitment,
            "seed": self.seed if self.over else None,
            "seats": self.public_seats(),
            "outcome": None if outcome is None else outcome.to_json(),
        }

    def record(self) -> dict[str, Any]:
        """The record with the revealed seed; only once the game is over."""
        if not self.over:
            raise ServerError("not_over", "The record is published when the game is over.")
        record = self.state.record()
        record["room"] = {"id": self.id, "seed": self.seed, "commitment": self.commitment}
        return record


@dataclass(slots=True)
class Created:
    room: Room
    invite: str
    host_token: str
    claimed: tuple[int, str] | None = None


class Rooms:
    """Every room of this server process: the live ones, and finished ones on demand."""

    def __init__(self, store: Store, secret: str, seeds: Callable[[], str] = new_seed) -> None:
        self.store = store
        self.secret = secret
        self.seeds = seeds
        self.committer = Committer(store)
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    async def start(self) -> None:
        """Start the committer and rebuild every unfinished room from its log."""
        self.committer.start()
        for room_id in await asyncio.to_thread(self.store.room_ids, PLAYING):
            try:
                await self._load(room_id)
            except Exception:
                log.exception("room %s cannot be rebuilt from its log", room_id)

    async def stop(self) -> None:
        for room in list(self.rooms.values()):
            await room.stop()
        await self.committer.stop()

    async def create(self, spec: CreateRoom) -> Created:
        options: dict[str, Any] = dict(spec.options)
        try:
            cls = game_class(spec.game)
            for name in options:
                option = cls.options_spec.get(name)
                if option is not None and option.local_only:
                    # Checked before the game is made: making it would read the path.
                    raise ServerError(
                        "invalid_option",
                        "The option {option} reads files of the machine; only the local command line may set it.",
                        option=name,
                    )
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
        seats: list[NewSeat] = []
        for number, seat in enumerate(spec.seats):
            if seat.kind == BOT:
                name = (seat.bot or "random").strip().lower()
                try:
                    make_bot(game.id, name)
                except HrajError as error:
                    raise ServerError.from_hraj(error) from None
                seats.append(NewSeat(BOT, bot=name, name=seat.name))
            else:
                if seat.bot is not None:
                    raise ServerError("bad_message", "Seat {seat} is a person's; it takes no bot.", seat=number)
                seats.append(NewSeat(PERSON, name=seat.name))
        if spec.claim is not None and (spec.claim >= len(seats) or seats[spec.claim].kind != PERSON):
            raise ServerError("bad_message", "Seat {seat} cannot be claimed: it is no person's seat.", seat=spec.claim)
        seed = self.seeds()
        invite, host_token = new_token(), new_token()
        claimed: tuple[int, str] | None = None
        if spec.claim is not None:
            token = new_token()
            seats[spec.claim] = NewSeat(PERSON, name=seats[spec.claim].name, token_hash=hash_token(self.secret, token))
            claimed = (spec.claim, token)
        new = NewRoom(
            id=secrets.token_urlsafe(9),
            game=game.id,
            options=game.options,
            seed=seed,
            commitment=commitment(seed),
            invite_hash=hash_token(self.secret, invite),
            host_hash=hash_token(self.secret, host_token),
            seats=seats,
        )
        data = await asyncio.to_thread(self.store.create_room, new)
        room = Room(data, self.committer, self.store, self.secret)
        self.rooms[room.id] = room
        room.start()
        await room.call(_noop)  # the opening chance (and any bot moves) are committed
        self._evict()
        return Created(room, invite, host_token, claimed)

    async def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        lock = self._loading.setdefault(room_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(room_id)
            if room is None:
                room = await self._load(room_id)
        self._loading.pop(room_id, None)
        return room

    async def _load(self, room_id: str) -> Room:
        if len(room_id) > 32:
            raise ServerError("not_found", "There is no room {room}.", room=room_id[:32])
        data = await asyncio.to_thread(self.store.load_room, room_id)
        if data is None:
            raise ServerError("not_found", "There is no room {room}.", room=room_id)
        room = Room(data, self.committer, self.store, self.secret)
        self.rooms[room_id] = room
        room.start()
        self._evict()
        return room

    def _evict(self) -> None:
        finished = [r for r in self.rooms.values() if r.over and not r.connections]
        for room in finished[: max(0, len(finished) - FINISHED_CACHE)]:
            del self.rooms[room.id]
            if room.task is not None:
                room.task.cancel()


async def _noop() -> None:
    return None
