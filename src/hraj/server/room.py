"""A room: its state, its seats and connections, and the asyncio actor that changes them.

A room's actor takes one job at a time from its queue (a move, a claim, a new
connection, one bot move...). A move is checked by the state itself (`apply` looks it
up in `legal_actions`) on a **copy** of the room's state, pending chance is drawn from
the room's dice, and the new events are **committed** to the store; only then does the
copy become the room's state and the connections hear of it. A move that cannot be
stored leaves the room exactly as it was, and the player may send it again. Each
connection receives the view of its own seat only.

Bots sit in seats and their moves go through the very same `act` as people's, one move
per job: between two bot moves the room serves its other jobs and can be stopped. A
room where no person plays any more (only bots, or people who left their seats to
bots) moves at a bounded pace. A person seat that must act while its player is away
for the room's `absent_after` seconds is played by a stand-in bot, shown to everyone,
until the player connects again.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime as dt
import hashlib
import hmac
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import hraj
from hraj.core.bot import Bot, make_bot
from hraj.core.errors import HrajError
from hraj.core.game import State
from hraj.core.jsondata import GameOptions
from hraj.core.record import CHANCE, MOVE, Event, Record, starting_seat
from hraj.server.bot_rooms import BotRoomBudget
from hraj.server.chat import CHAT_BURST, CHAT_LIMIT, CHAT_SHOWN, CHAT_WINDOW_S, chat_json
from hraj.server.committer import Committer, read_back, store_call
from hraj.server.connection import Connection, dumps
from hraj.server.fairness import chain_head, chain_next, replay_with_seed
from hraj.server.logs import Throttled
from hraj.server.messages import ChatJson, ChatMessage, SeatJson, StateMessage, Summary
from hraj.server.protocol import PROTOCOL_VERSION, ServerError
from hraj.server.rematch_votes import RematchVotes
from hraj.server.room_clock import ClockHands
from hraj.server.seats import PERSON, Seat, stand_in_bot
from hraj.server.settings import Settings
from hraj.server.spectators import SpectatorFeed
from hraj.server.timekeeper import RoomTimer
from hraj.server.tokens import hash_token, new_token
from hraj.store import AppendBatch, ChatLine, RoomData, Store
from hraj.store.db import ARCHIVED, OVER, PLAYING, CommitInDoubt, StaleVersion

log = logging.getLogger("hraj.server")

#: The key of the stored options that says whether hints are allowed (no game option starts with `_`).
HINTS_KEY = "_hints"
#: Seconds before a bot tries again after its move could not be stored.
BOT_RETRY_S = 2.0
#: Seconds between two states sent to a room's spectators (the newest; the first at once).
SPECTATOR_INTERVAL_S = 0.5

T = TypeVar("T")


class Room:
    """One room: its state, its seats, its connections and the actor that changes them."""

    def __init__(
        self,
        data: RoomData,
        committer: Committer,
        store: Store,
        secret: str,
        settings: Settings,
        bots: BotRoomBudget | None = None,
    ) -> None:
        self.id = data.id
        options = dict(data.options)
        allowed = bool(options.pop(HINTS_KEY, False))
        self.game = hraj.game(data.game, **options)
        self.seed = data.seed
        self.commitment = data.commitment
        self.invite_hash = data.invite_hash
        self.host_hash = data.host_hash
        self.absent_after = data.absent_after
        self.public = data.public
        self.rematch = data.rematch
        """The room of the rematch this one led to, once someone asked for it."""
        self.created_at = data.created_at
        self.chat: collections.deque[ChatLine] = collections.deque(data.chat, maxlen=CHAT_SHOWN)
        self.chat_count = data.chat_count
        self._chat_times: dict[int, collections.deque[float]] = {}
        self.seats = [
            Seat(s.seat, s.kind, s.bot, s.name, s.token_hash, s.gender, person=s.person, deleted=s.deleted)
            for s in data.seats
        ]
        self.rated = data.rated
        #: Hints are allowed: chosen when the room was made (kept beside the game's options),
        #: and always in a game of one person against bots.
        self.hints = allowed or sum(seat.kind == PERSON for seat in self.seats) <= 1
        self.committer = committer
        self.store = store
        self.secret = secret
        self.settings = settings
        self.state: State[Any, Any]
        self.state, self.dice = replay_with_seed(self.game, data.events, data.seed, data.dice)
        self.version = len(data.events)
        self.head = chain_head(self.commitment, data.events)
        #: The version of each seat's move by the id its client gave it: sent again, it is answered.
        self.action_ids = dict(data.action_ids)
        #: Archived, and neither played nor joined by a player since it was opened (a look
        #: from anyone): it does nothing by itself and is let go of like a finished room.
        self.archived = data.status == ARCHIVED
        #: The process's slots of rooms where no person plays (None: no bound).
        self.bots = bots
        self.spectators = SpectatorFeed(SPECTATOR_INTERVAL_S, settings.spectators)
        self.connections: set[Connection] = set()
        #: The actor's jobs, each wrapped with what it does with its result (`_job`).
        self.jobs: asyncio.Queue[Callable[[], Awaitable[None]]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.bot_rng = random.Random(self._derived_seed("determinize"))
        self._messages: dict[int | None, str] = {}
        self._messages_version = -1
        self._bot_timer: asyncio.TimerHandle | None = None
        self._bot_queued = False
        self._bot_failed = False
        self._absence: dict[int, asyncio.TimerHandle] = {}
        self.failures = Throttled(log, f"room {self.id}")
        #: The seat of the room's creator: the lobby shows whether they are here.
        self.host_seat = data.host_seat
        self._host_here: bool | None = None
        #: Who accepted the rematch offered once the game is over (`hraj.server.rematch_votes`).
        self.votes = RematchVotes.from_json(data.rematch_votes)
        #: The room's clock, where it has one (`hraj.server.room_clock`).
        self.clock = ClockHands(self, RoomTimer.of(self.id, data.clock, self.game, None))

    # --- life of the actor ------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.is_over

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"hraj-room-{self.id}")

    async def stop(self) -> None:
        self.cancel_timers()
        self.spectators.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        for connection in list(self.connections):
            connection.outbox.put_nowait(None)

    def cancel_timers(self) -> None:
        if self.bots is not None:
            self.bots.give_back(self.id)
        if self._bot_timer is not None:
            self._bot_timer.cancel()
            self._bot_timer = None
        for timer in self._absence.values():
            timer.cancel()
        self._absence.clear()

    async def call(self, job: Callable[[], Awaitable[T]]) -> T:
        """Run `job` inside the actor, after every job queued before it."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.jobs.put_nowait(lambda: self._job(job, future))
        return await future

    def _post(self, job: Callable[[], Awaitable[object]]) -> None:
        """Queue a job of the room itself (a bot's move, a stand-in); nobody waits for it."""
        self.jobs.put_nowait(lambda: self._job(job, None))

    async def _job(self, job: Callable[[], Awaitable[T]], future: asyncio.Future[T] | None) -> None:
        """Run one job and hand its result or error to whoever waits for it."""
        try:
            result = await job()
        except ServerError as error:
            if future is not None and not future.done():
                future.set_exception(error)
        except Exception as error:
            self.failures.report("job failed", error)
            if future is not None and not future.done():
                future.set_exception(ServerError("internal", "Something went wrong on the server."))
        else:
            if future is not None and not future.done():
                future.set_result(result)

    async def _run(self) -> None:
        self._after_job()
        while True:
            job = await self.jobs.get()
            await job()
            self._after_job()

    def _after_job(self) -> None:
        """What the room does by itself next: a bot's move, a stand-in for an absent
        player, and its deadlines watched."""
        if self.archived:
            return
        self._schedule_bot()
        self._watch_absence()
        self.clock.watch()

    # --- moves ------------------------------------------------------------------------

    async def act(self, seat: int, action: str, action_id: str | None = None) -> int:
        """Apply a seat's move, draw any chance that follows, commit, broadcast; the new version.

        The move is made on a copy: if it cannot be stored, the room stays exactly as it
        was and the same move may be sent again. A move whose id (`action_id`) the seat
        used before is not applied again: the answer is the first one's version.
        """
        if action_id is not None and (seat, action_id) in self.action_ids:
            return answered_at(self.state.events(), self.action_ids[seat, action_id])
        if self.over:
            raise ServerError("illegal_action", "The game is over.")
        self.clock.refuse_forfeit(action)
        candidate = self.state.copy()
        try:
            candidate.apply(seat, action)
        except HrajError as error:
            raise ServerError.from_hraj(error) from None
        self.clock.moving(seat)
        await self._advance(candidate, action_id)
        return self.version

    def head_of(self, version: int) -> str:
        """The chain head at `version` (inside the actor; usually the one just committed)."""
        if version == self.version:
            return self.head
        return chain_head(self.commitment, self.state.events()[:version])

    async def advance_committed(self) -> None:
        """Draw the chance due now (a new room's opening, or after a failed commit)."""
        if self.state.is_chance:
            await self._advance(self.state.copy())

    async def _advance(self, candidate: State[Any, Any], action_id: str | None = None) -> None:
        """Draw every pending chance outcome onto `candidate`, commit, and make it the room's state."""
        mark = self.dice.mark()
        try:
            while candidate.is_chance:
                index = len(candidate.events())
                candidate.apply_chance(candidate.sample_chance(self.dice.rng(index)), check=False)
            await self._commit(candidate, action_id)
        except BaseException:
            self.dice.rewind(mark)
            raise

    async def _commit(self, candidate: State[Any, Any], action_id: str | None = None) -> None:
        events = candidate.events()[self.version :]
        if not events:
            self.state = candidate
            return
        outcome = candidate.outcome
        batch = AppendBatch(
            self.id,
            self.version,
            events,
            status=OVER if candidate.is_over else PLAYING,
            outcome=None if outcome is None else outcome.to_json(),
            action_id=action_id,
            clock=self.clock.change(candidate, self.version + len(events)),
            # A person seat a bot plays at the end: its player left (and counts as last).
            left=tuple(s.number for s in self.seats if s.kind == PERSON and s.bot is not None)
            if candidate.is_over
            else (),
        )
        try:
            try:
                await self.committer.commit(batch)
            except CommitInDoubt:
                # Nobody knows whether it is stored: the store tells, once it answers again.
                if not await read_back(self.store, batch):
                    raise
        except StaleVersion:
            self.clock.settled()
            # The store holds more than this room knew (a commit whose answer was lost):
            # take the stored log as it is.
            with contextlib.suppress(Exception):
                await self._reload()
            raise ServerError("unavailable", "The move could not be saved; please try again.") from None
        except Exception:
            self.clock.settled()
            raise ServerError("unavailable", "The move could not be saved; please try again.") from None
        self.state = candidate
        if action_id is not None:
            _, seat, _ = events[0]
            if seat is not None:
                self.action_ids[seat, action_id] = self.version + 1
        self.archived = False  # the move took it out of the archive (`Store.append`)
        self.version += len(events)
        for event in events:
            self.head = chain_next(self.head, event)
        self._broadcast_state()
        self.clock.committed()

    async def _reload(self) -> None:
        data = await asyncio.to_thread(self.store.load_room, self.id)
        if data is None:  # pragma: no cover - rooms are never deleted
            raise ServerError("not_found", "There is no room {room}.", room=self.id)
        self.state, self.dice = replay_with_seed(self.game, data.events, data.seed, data.dice)
        self.version = len(data.events)
        self.head = chain_head(self.commitment, data.events)
        self.action_ids = dict(data.action_ids)
        self.clock.reload(data.clock)
        self._broadcast_state()

    # --- bots: one move per job, at a bounded pace when no person plays ----------------

    def _bot_seat(self) -> int | None:
        if self.over or self.state.is_chance:
            return None
        return next((s for s in self.state.to_act if self.seats[s].bot is not None), None)

    def _schedule_bot(self) -> None:
        """Queue the room's next step of its own (pending chance, or a bot's move), after a
        pause if the last one failed or no person plays; a room where no person plays
        moves only while it holds one of the process's slots (`hraj.server.bot_rooms`)."""
        alone = not any(seat.played_by_person for seat in self.seats)
        if self.bots is not None and (self.over or not alone):
            self.bots.give_back(self.id)
        if self._bot_timer is not None or self._bot_queued or self.over:
            return
        if not self.state.is_chance and self._bot_seat() is None:
            return
        if self._bot_failed:
            delay = BOT_RETRY_S
        elif self.state.is_chance or not alone:
            delay = 0.0
        elif self.bots is not None and not self.bots.take(self.id, lambda: self._post(self._nothing)):
            return  # woken when a slot is free
        else:
            delay = self.settings.bot_pace
        self._bot_queued = True
        if delay <= 0:
            self._post(self._bot_move)
        else:
            self._bot_timer = asyncio.get_running_loop().call_later(delay, self._bot_due)

    @staticmethod
    async def _nothing() -> None:
        """A job that only lets the actor look again at what it does by itself."""

    def _bot_due(self) -> None:
        self._bot_timer = None
        self._post(self._bot_move)

    async def _bot_move(self) -> None:
        """Draw pending chance, or make one move of a bot-played seat; the next is a job of its own."""
        self._bot_queued = False
        seat: int | None = None
        try:
            if self.state.is_chance:
                await self.advance_committed()
                self._bot_failed = False
                return
            seat = self._bot_seat()
            if seat is None:
                return
            player = self._player(seat)
            # A searching bot may think for a while: it does so on its own copy in a
            # worker thread, so the other rooms of the process go on meanwhile.
            seen = self.state.determinize(seat, self.bot_rng)
            action = await asyncio.to_thread(player.choose, seen, seat)
            await self.act(seat, str(action))
        except Exception as error:
            self._bot_failed = True
            self.failures.report("chance" if seat is None else f"the bot of seat {seat} could not move", error)
            return
        self._bot_failed = False

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

    # --- absent players -----------------------------------------------------------------

    def _connected_seats(self) -> set[int]:
        return {c.seat for c in self.connections if c.seat is not None}

    def _watch_absence(self) -> None:
        """Start the clock of every claimed seat that must act while its player is away."""
        if self.absent_after <= 0:
            return
        due: set[int] = set()
        if not self.over and not self.state.is_chance:
            connected = self._connected_seats()
            due = {
                s
                for s in self.state.to_act
                if self.seats[s].played_by_person and self.seats[s].token_hash is not None and s not in connected
            }
        for seat in list(self._absence):
            if seat not in due:
                self._absence.pop(seat).cancel()
        loop = asyncio.get_running_loop()
        for seat in due - set(self._absence):
            self._absence[seat] = loop.call_later(self.absent_after, self._absent, seat)

    def _absent(self, seat: int) -> None:
        self._absence.pop(seat, None)
        self._post(lambda: self._stand_in(seat))

    async def _stand_in(self, seat: int) -> None:
        """The player of `seat` is away while it must act: a bot plays it until they return."""
        info = self.seats[seat]
        if self.over or not info.played_by_person or seat in self._connected_seats() or seat not in self.state.to_act:
            return
        info.bot = stand_in_bot(self.game.id, self.settings.stand_in_bot)
        info.stand_in = True
        self._broadcast_seats()

    def _returned(self, seat: int) -> bool:
        """A player whose seat a stand-in played is back: the seat is theirs again."""
        info = self.seats[seat]
        if not info.stand_in:
            return False
        info.stand_in = False
        info.bot = None
        info.player = None
        return True

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

    async def claim(self, seat: int | None, name: str | None, gender: str | None = None) -> tuple[int, str]:
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
        if not await store_call(self.store.claim_seat, self.id, seat, hashed, name, gender, **self._fence()):
            raise ServerError("seat_taken", "Seat {seat} is taken or is a bot's.", seat=seat)
        self.seats[seat].token_hash = hashed
        self.seats[seat].name = name
        self.seats[seat].gender = gender
        self._broadcast_seats()
        await self.clock.seated()
        return seat, token

    async def hand_to_bot(self, seat: int, bot: str, *, by_host: bool = False) -> None:
        """A person's seat is played by `bot` until the person takes it back.

        The host may do it only for a player who is away: a connected player's seat is
        theirs alone.
        """
        info = self._person_seat(seat)
        self._not_lost_on_time(seat)
        if by_host and seat in self._connected_seats():  # said with the seat as the page shows it
            if info.name:
                raise ServerError(
                    "forbidden", "{name} is here; only they can leave their seat to a bot.", name=info.name, seat=seat
                )
            raise ServerError(
                "forbidden",
                "Player {number} is here; only they can leave their seat to a bot.",
                number=seat + 1,
                seat=seat,
            )
        try:
            make_bot(self.game.id, bot)
        except HrajError as error:
            raise ServerError.from_hraj(error) from None
        await store_call(self.store.update_seat, self.id, seat, bot=bot.strip().lower(), **self._fence())
        info.bot = bot.strip().lower()
        info.stand_in = False
        self._broadcast_seats()

    async def take_back(self, seat: int) -> None:
        info = self._person_seat(seat)
        self._not_lost_on_time(seat)
        await store_call(self.store.update_seat, self.id, seat, bot=None, **self._fence())
        info.bot = None
        info.player = None
        info.stand_in = False
        self._broadcast_seats()

    def _not_lost_on_time(self, seat: int) -> None:
        if self.clock.lost_on_time(seat):
            raise ServerError(
                "forbidden",
                "Player {number}'s time ran out in this rated game: a bot plays their seat to the end.",
                number=seat + 1,
                seat=seat,
            )

    def _fence(self) -> dict[str, str]:
        """Several processes: seat changes, like commits, are written only by the owner."""
        return {} if self.committer.owner is None else {"owner": self.committer.owner}

    def _person_seat(self, seat: int) -> Seat:
        if not 0 <= seat < len(self.seats):
            raise ServerError("not_found", "This room has no seat {seat}.", seat=seat)
        info = self.seats[seat]
        if info.kind != PERSON:
            raise ServerError("forbidden", "Seat {seat} is a bot's seat.", seat=seat)
        return info

    # --- chat between the people of a room ----------------------------------------------

    @property
    def has_chat(self) -> bool:
        """People talk where at least two person seats are: a room against bots has no chat."""
        return sum(1 for seat in self.seats if seat.kind == PERSON) >= 2

    async def say(self, seat: int, text: str) -> ChatLine:
        """Store a seat's chat message and send it to every connection, players and spectators.

        The text is kept as it was typed (pages show it as text, never as markup); it
        is bounded in length, per seat in pace and per room in number.
        """
        if not self.has_chat:
            raise ServerError("forbidden", "This room has no chat: only one person plays in it.")
        info = self._person_seat(seat)
        if self.chat_count >= CHAT_LIMIT:
            raise ServerError("forbidden", "This room's chat is full ({limit} messages).", limit=CHAT_LIMIT)
        now = time.monotonic()
        times = self._chat_times.setdefault(seat, collections.deque())
        while times and now - times[0] > CHAT_WINDOW_S:
            times.popleft()
        if len(times) >= CHAT_BURST:
            raise ServerError("rate_limited", "Too many chat messages; wait a few seconds.")
        line = ChatLine(self.chat_count + 1, seat, info.name, text, dt.datetime.now(dt.UTC))
        await store_call(self.store.add_chat, self.id, line)
        times.append(now)
        self.show_chat(line)
        return line

    def show_chat(self, line: ChatLine) -> None:
        """Keep a stored chat message and send it to every connection here."""
        self.chat_count = max(self.chat_count, line.number)
        self.chat.append(line)
        chat: ChatMessage = {"type": "chat", "room": self.id, **chat_json(line)}
        message = dumps(chat)
        for connection in self.connections:
            connection.push(message)

    def chat_lines(self) -> list[ChatJson]:
        return [chat_json(line) for line in self.chat]

    def rematch_options(self) -> tuple[GameOptions, bool]:
        """The options of a rematch and whether the first player was passed on.

        The seat after this game's first player starts, whether the first player was
        an option or drawn at random (a chance event `first N`); where neither names
        one, the rules decide by a roll (an opening roll), and so they do again.
        """
        options = dict(self.game.options)
        first = self.game.first
        if first is None:
            drawn = (starting_seat(text) for kind, _, text in self.state.events() if kind == CHANCE)
            first = next((seat for seat in drawn if seat is not None), None)
        if first is None or "first" not in options:
            return options, False
        options["first"] = (first + 1) % self.game.players
        return options, True

    def announce_rematch(self, room_id: str) -> None:
        self.rematch = room_id
        text = dumps({"type": "rematch", "room": self.id, "rematch": room_id})
        for connection in self.connections:
            connection.push(text)

    def announce_votes(self) -> None:
        """Everyone hears who accepted the rematch offered, or who declined it."""
        text = dumps({"type": "rematch_votes", "room": self.id, **self.votes.to_json()})
        for connection in self.connections:
            connection.push(text)

    # --- connections and what they see ---------------------------------------------------

    async def attach(self, connection: Connection, since: int | None) -> None:
        """Join a connection: a welcome, then the current state unless it has seen it.

        Only a player's arrival changes what the others see of the seats (a seat now
        connected); a spectator's does not, so watchers cost nobody else a message.
        """
        seat = connection.seat
        if seat is None and not self.spectators.admit(connection):
            raise ServerError("rate_limited", "This game has as many spectators as it can take; try again later.")
        if seat is not None:
            self.archived = False  # a player is back: the room goes on (its next move stores it so)
        arrives = seat is not None and seat not in self._connected_seats()
        if seat is not None:
            arrives = self._returned(seat) or arrives
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
                "head": self.head,
                "commitment": self.commitment,
                "dice": self.dice.version,
                "absent_after": self.absent_after,
                "seats": self.public_seats(),
            }
        )
        if since != self.version:
            connection.push(self.state_message(connection.seat))
        self.clock.show(connection)
        if arrives:
            self._broadcast_seats(but=connection)

    def detach(self, connection: Connection) -> None:
        """A connection closed; if it was a seat's last one, the others see the seat away."""
        if connection not in self.connections:
            return
        self.connections.discard(connection)
        self.spectators.discard(connection)
        if connection.seat is not None and connection.seat not in self._connected_seats():
            self._broadcast_seats()
            self._watch_absence()

    def public_seats(self) -> list[SeatJson]:
        connected = self._connected_seats()
        return [seat.public(seat.number in connected) for seat in self.seats]

    def view_message(self, seat: int | None) -> StateMessage:
        """What `seat` may see now (committed state only: the actor calls this between jobs)."""
        over = self.over
        message: StateMessage = {
            "type": "state",
            "room": self.id,
            "version": self.version,
            "head": self.head,
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
            if connection.seat is not None:
                connection.push(self.state_message(connection.seat))
        if self.spectators.watchers:  # one text for every spectator, at the feed's pace
            self.spectators.publish(self.state_message(None))

    def _note_host(self) -> None:
        """Tell the store (for the lobby) when the host of a public room comes or goes."""
        if not self.public or self.host_seat is None or self.over or not getattr(self, "owned", True):
            return
        here = self.host_seat in self._connected_seats()
        if here == self._host_here:
            return
        self._host_here = here
        away = None if here else dt.datetime.now(dt.UTC)
        task = asyncio.ensure_future(store_call(self.store.note_host, self.id, away))
        task.add_done_callback(lambda done: done.cancelled() or done.exception())

    def _broadcast_seats(self, but: Connection | None = None) -> None:
        self._note_host()
        if not self.connections:
            return
        text = dumps({"type": "seats", "room": self.id, "seats": self.public_seats()})
        for connection in self.connections:
            if connection is not but:
                connection.push(text)

    def summary(self) -> Summary:
        """The public facts of the room (HTTP `GET /api/rooms/{id}`)."""
        outcome = self.state.outcome
        return {
            "room": self.id,
            "game": self.game.id,
            "options": self.game.options,
            "status": OVER if self.over else PLAYING,
            "version": self.version,
            "head": self.head,
            "commitment": self.commitment,
            "dice": self.dice.version,
            "absent_after": self.absent_after,
            "clock": self.clock.control(),
            "hints": self.hints,
            "seed": self.seed if self.over else None,
            "seats": self.public_seats(),
            "outcome": None if outcome is None else outcome.to_json(),
            "public": self.public,
            "chat": self.has_chat,
            "rematch": self.rematch,
            "rematch_votes": self.votes.to_json(),
            "rematch_passes_first": self.rematch_options()[1] if self.over else None,
            "rated": self.rated,
        }

    def record(self) -> Record:
        """The record with the revealed seed, dice version and chain head; only once over."""
        if not self.over:
            raise ServerError("not_over", "The record is published when the game is over.")
        record = self.state.record()
        record["room"] = {
            "id": self.id,
            "seed": self.seed,
            "commitment": self.commitment,
            "dice": self.dice.version,
            "head": self.head,
        }
        return record


def answered_at(events: Sequence[Event], version: int) -> int:
    """The version a move stored as `version` was answered with: the room's version once
    its forced steps and chance were stored with it (up to the next decision)."""
    end = version
    while end < len(events) and events[end][0] != MOVE:
        end += 1
    return end
