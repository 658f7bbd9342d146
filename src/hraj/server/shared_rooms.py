"""Rooms of one process among several on one PostgreSQL database.

A `SharedRoom` is owned here (it is then exactly a `Room`: its actor applies moves and
commits them, fenced by this process's lease) or *followed*: another process owns it,
and this process keeps a copy for its own clients. A follower

- applies the owner's commits as they are notified (`on_events`), event by event as a
  replay does, and shows them to its clients;
- sends its clients' moves, claims and seat changes to the owner and answers each
  client once the owner has committed it and the follower has caught up, so the client
  sees the new state before its acknowledgement, as on one process;
- tells the owner which seats have a connection here, so that everyone sees who is
  connected and the absent-player clock counts connections on every process;
- takes the room over when the owner stops answering and its lease has run out.

A move answered by nobody is never acknowledged, and never answered `unavailable`
either: every move travels with its id (the client's, or one the follower gives it),
so it may be sent again until some owner answers; if the owner died while a move was in
flight, the new owner finds the id in the stored log and answers as the first time, or
applies the move if it was not stored.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from hraj.server.bot_rooms import BotRoomBudget
from hraj.server.chat import chat_from_json, chat_json
from hraj.server.cluster import Cluster, Notice, Op, Reply, Request, SeatsNotice, refusal
from hraj.server.committer import Committer, store_call
from hraj.server.connection import Connection
from hraj.server.fairness import chain_head, chain_next, replay_onto, replay_with_seed
from hraj.server.messages import ChatJson
from hraj.server.protocol import ServerError
from hraj.server.rematch_votes import RematchVotes
from hraj.server.room import Room
from hraj.server.rooms import Rooms
from hraj.server.settings import Settings
from hraj.server.tokens import ROOM_ID, hash_token
from hraj.store import ChatLine, RoomData, Store
from hraj.store.notices import EventsNotice

log = logging.getLogger("hraj.server")

T = TypeVar("T")

#: Seconds a follower's request may wait for rooms' owners, takeovers included.
FORWARD_LIMIT_S = 30.0
#: Seconds a follower waits for the notice of a commit its request caused.
CATCH_UP_S = 2.0
#: Seconds before asking an owner again that said the room was not its own.
RETRY_S = 0.2
#: Chain heads a follower keeps, of its latest versions.
HEADS_KEPT = 64
#: Seconds a followed room stays loaded with no connection here.
FOLLOWER_IDLE_S = 60.0
#: Leases a follower waits for a live owner's answer to a move before asking again.
ASK_AGAIN_LEASES = 2
#: How a follower's own id for a move its client sent without one begins.
FORWARDED_ID = "~"


class SharedRoom(Room):
    """A room owned by this process or followed from another; see the module."""

    def __init__(
        self,
        data: RoomData,
        committer: Committer,
        store: Store,
        secret: str,
        settings: Settings,
        cluster: Cluster,
        bots: BotRoomBudget | None = None,
    ) -> None:
        super().__init__(data, committer, store, secret, settings, bots)
        self.cluster = cluster
        self.owner = data.owner
        #: Owner: the seats connected to each other process (their presence).
        self.remote: dict[str, frozenset[int]] = {}
        #: Follower: the seats connected anywhere, as the owner last said.
        self.mirror_connected: set[int] = set()
        self._told: frozenset[int] | None = None
        self._advanced = asyncio.Event()
        #: The chain heads of the latest versions: a follower acknowledges a move with
        #: the head at its version, though later commits may have arrived meanwhile.
        self._heads: collections.OrderedDict[int, str] = collections.OrderedDict()
        self._refreshing = False
        self._promoting = asyncio.Lock()
        self.touched = time.monotonic()

    @property
    def owned(self) -> bool:
        return self.owner == self.cluster.id

    async def call(self, job: Callable[[], Awaitable[T]]) -> T:
        """Owned: the job runs in the actor. Followed: at once, since a follower's state
        changes only as notices arrive, and its requests wait for the owner."""
        if self.owned:
            return await super().call(job)
        return await job()

    def _after_job(self) -> None:
        if self.owned:
            super()._after_job()

    # --- requests: done here when owned, else sent to the owner ------------------------

    async def act(self, seat: int, action: str, action_id: str | None = None) -> int:
        if self.owned:
            return await super().act(seat, action, action_id)
        # A move without its client's id gets one here: sent to the owner again (an owner
        # that did not answer, a new owner), it is then still applied once.
        action_id = action_id if action_id is not None else FORWARDED_ID + secrets.token_urlsafe(12)
        reply = await self._forward({"op": "act", "seat": seat, "action": action, "action_id": action_id})
        version = reply["version"]
        self._remember(version, reply["head"])
        return version

    def head_of(self, version: int) -> str:
        if self.owned or version not in self._heads:
            return super().head_of(version)
        return self._heads[version]

    def _remember(self, version: int, head: str) -> None:
        self._heads[version] = head
        while len(self._heads) > HEADS_KEPT:
            self._heads.popitem(last=False)

    async def claim(self, seat: int | None, name: str | None, gender: str | None = None) -> tuple[int, str]:
        if self.owned:
            return await super().claim(seat, name, gender)
        reply = await self._forward({"op": "claim", "seat": seat, "name": name, "gender": gender})
        number, token = reply["seat"], reply["token"]
        # The owner's notice of the seats says the same; a client may use its token at once.
        self.seats[number].token_hash = hash_token(self.secret, token)
        self.seats[number].name = name
        self.seats[number].gender = gender
        return number, token

    async def hand_to_bot(self, seat: int, bot: str, *, by_host: bool = False) -> None:
        if self.owned:
            await super().hand_to_bot(seat, bot, by_host=by_host)
            return
        await self._forward({"op": "bot", "seat": seat, "bot": bot, "by_host": by_host})

    async def take_back(self, seat: int) -> None:
        if self.owned:
            await super().take_back(seat)
            return
        await self._forward({"op": "back", "seat": seat})

    async def say(self, seat: int, text: str) -> ChatLine:
        if self.owned:
            line = await super().say(seat, text)
            self.cluster.publish({"t": "chat", "r": self.id, "o": self.cluster.id, "line": chat_json(line)})
            return line
        # The owner stores it, numbers it and tells every process, this one included.
        reply = await self._forward({"op": "chat", "seat": seat, "text": text})
        return chat_from_json(reply["chat"])

    def on_chat(self, data: ChatJson) -> None:
        """The owner stored a chat message: show it to the clients here."""
        if not self.owned:
            line = chat_from_json(data)
            if line.number > self.chat_count:
                self.show_chat(line)

    async def serve(self, op: Op, sender: str) -> Reply:
        """Do another process's request (inside the actor); the answer to send back."""
        if op["op"] == "presence":
            self.set_remote(sender, frozenset(op["seats"]))
            return {}
        if op["op"] == "act":
            version = await self.act(op["seat"], op["action"], op["action_id"])
            return {"version": version, "head": self.head_of(version)}
        if op["op"] == "claim":
            gender = op["gender"]
            number, token = await self.claim(op["seat"], op["name"], gender if gender in ("m", "f") else None)
            return {"seat": number, "token": token, "version": self.version, "head": self.head}
        elif op["op"] == "bot":
            await self.hand_to_bot(op["seat"], op["bot"], by_host=op["by_host"])
        elif op["op"] == "back":
            await self.take_back(op["seat"])
        elif op["op"] == "chat":
            line = await self.say(op["seat"], op["text"])
            return {"chat": chat_json(line), "version": self.version, "head": self.head}
        else:
            rooms = self.cluster.handler
            if not isinstance(rooms, SharedRooms):  # pragma: no cover - the cluster of shared rooms
                raise ServerError("not_found", "There is no room {room}.", room=self.id)
            new, made = await rooms.consent(self, op.get("seat"), op.get("accept", True))
            return {
                "rematch": None if new is None else new.id,
                "made": made,
                "version": self.version,
                "head": self.head,
            }
        return {"version": self.version, "head": self.head}

    async def _forward(self, message: Op) -> Reply:
        """Have the owner do `message`; take the room over if the owner is gone.

        A move (it carries its id) is asked for again and again until some owner answers:
        asking twice never applies it twice, and `unavailable` would promise it is not
        stored while an owner may be storing it. Anything else gives up after a while."""
        again = message["op"] == "act"
        deadline = math.inf if again else time.monotonic() + FORWARD_LIMIT_S
        while True:
            owner, reply = self.owner, None
            if owner is not None and owner != self.cluster.id:
                wait = time.monotonic() + ASK_AGAIN_LEASES * self.cluster.lease_s if again else deadline
                reply = await self._ask(owner, message, wait)
            if reply is not None:
                error = reply.get("error")
                if not error:
                    await self._reach(reply.get("version", 0))
                    return reply
                code, template = error["code"], error["key"]
                if code != "not_owner":
                    raise ServerError(code, template, **error["params"])
            if time.monotonic() > deadline:
                raise ServerError("unavailable", "The store is unavailable; please try again.")
            # No answer, or not the owner any more: whose is the room now?
            try:
                taken = await store_call(self.cluster.leases.claim, self.id)
            except ServerError:
                if not again:
                    raise
                await asyncio.sleep(self.cluster.lease_s / 4)  # the store is down: ask once it is back
                continue
            if taken == self.cluster.id:
                await self.become_owner()
            elif taken != owner or reply is not None:
                if taken == owner:  # it says it does not own the room, the store says it does
                    await asyncio.sleep(RETRY_S)
                if taken is not None:
                    self._set_owner(taken)  # the new owner hears who is connected here
                await self._refresh()
            if self.owned:  # a move an owner that died had stored is answered from its id
                return await self.call(lambda: self.serve(message, self.cluster.id))

    async def _ask(self, owner: str, message: Op, deadline: float) -> Reply | None:
        """The owner's answer; None as soon as the owner is seen dead (its lease ran out)
        or the deadline passes. A live owner that is slow is waited for: asking again
        could apply the move twice."""
        answer = self.cluster.ask(owner, self.id, message)
        try:
            while True:
                done, _ = await asyncio.wait({answer}, timeout=self.cluster.lease_s / 2)
                if done:
                    return answer.result()
                if time.monotonic() > deadline:
                    return None
                if await store_call(self.cluster.leases.owner, self.id) != owner:
                    return None
        finally:
            answer.cancel()

    async def _reach(self, version: int) -> None:
        """Wait until the notice of `version` has arrived (read the store if it is lost)."""
        if self.version >= version:
            return
        try:
            async with asyncio.timeout(CATCH_UP_S):
                while self.version < version:
                    await self._advanced.wait()
        except TimeoutError:
            await self._refresh()

    def _signal(self) -> None:
        self._advanced.set()
        self._advanced = asyncio.Event()

    # --- a follower's copy ------------------------------------------------------------

    def on_events(self, notice: EventsNotice) -> None:
        """The owner committed events as versions `after + 1`... (or, with none, changed
        the clock or the rematch votes at version `after`): show them here."""
        after, events, owner = notice["after"], notice["events"], notice["o"]
        if self.owned:
            if owner != self.cluster.id:  # another process wrote the room: it is theirs now
                self._lose(owner)
            return
        self._set_owner(owner)
        if events is not None:
            end = after + len(events)
            if end < self.version or (events and end == self.version):
                return  # seen already (a change without events: only if made before this version)
        if events is None or after != self.version:
            self._refresh_soon()
            return
        if events:
            try:
                replay_onto(self.state, self.dice, [(kind, seat, text) for kind, seat, text in events], after + 1)
            except Exception as error:
                self.failures.report("a notified commit does not replay here", error)
                self._refresh_soon()
                return
            for kind, seat, text in events:
                self.version += 1
                self.head = chain_next(self.head, (kind, seat, text))
                self._remember(self.version, self.head)
            self._broadcast_state()
        if "clock" in notice:
            self.clock.follow(notice["clock"], after)
        if "votes" in notice:
            self.votes = RematchVotes.from_json(notice["votes"])
            self.announce_votes()
        if events:
            self._signal()

    def on_seats(self, message: SeatsNotice) -> None:
        """The owner's seats: who sits where, with which token and bot, who is connected."""
        if self.owned:
            return
        self._set_owner(message["o"])
        for seat, (kind, bot, name, token_hash, stand_in, gender) in zip(self.seats, message["seats"], strict=True):
            if seat.bot != bot:
                seat.player = None
            seat.kind, seat.bot, seat.name, seat.token_hash, seat.stand_in = kind, bot, name, token_hash, stand_in
            seat.gender = gender
        self.mirror_connected = set(message["connected"])
        super()._broadcast_seats()

    def on_owner(self, owner: str) -> None:
        if self.owned and owner != self.cluster.id:
            self._lose(owner)
        elif not self.owned:
            self._set_owner(owner)

    def _set_owner(self, owner: str) -> None:
        if owner not in (self.owner, self.cluster.id):
            self.owner = owner
            self.mirror_connected = set()
            self._told = None
            self._tell_presence()

    def _refresh_soon(self) -> None:
        if not self._refreshing:
            self._refreshing = True
            self._post(self._refresh)

    async def _refresh(self) -> None:
        """Read the room from the store (a missed notice, a new owner)."""
        self._refreshing = False
        data = await store_call(self.store.load_room, self.id)
        if data is not None:
            self._take(data)

    def _take(self, data: RoomData) -> None:
        """Become the room as stored: state, dice, version, chain head and seats."""
        state, dice = replay_with_seed(self.game, data.events, data.seed, data.dice)
        changed = len(data.events) != self.version
        self.state, self.dice = state, dice
        self.version = len(data.events)
        self.head = chain_head(self.commitment, data.events)
        self.action_ids = dict(data.action_ids)
        votes = RematchVotes.from_json(data.rematch_votes)
        votes_changed = votes != self.votes
        self.votes = votes
        for seat, stored in zip(self.seats, data.seats, strict=True):
            if seat.bot != stored.bot and not seat.stand_in:
                seat.player = None
                seat.bot = stored.bot
            seat.kind, seat.name, seat.token_hash = stored.kind, stored.name, stored.token_hash
        if changed:
            self._broadcast_state()
        if self.owned:
            self.clock.reload(data.clock)
        else:  # as a notice would have shown it (one too long for a notice comes this way)
            self.clock.follow(data.clock, self.version)
            if votes_changed:
                self.announce_votes()
        self._signal()

    async def _reload(self) -> None:
        """A commit was refused: maybe another process owns the room now."""
        if self.owned:
            owner = await store_call(self.cluster.leases.owner, self.id)
            if owner != self.cluster.id:
                self._lose(owner)
        await self._refresh()

    # --- ownership ----------------------------------------------------------------------

    async def become_owner(self) -> None:
        """This process has claimed the room: start from the store and tell the others."""
        async with self._promoting:
            if self.owned:
                return
            data = await store_call(self.store.load_room, self.id)
            if data is None:  # pragma: no cover - rooms are never deleted
                return
            self.owner = self.cluster.id
            self.remote = {}
            self._take(data)
            for seat in self.seats:
                seat.stand_in = False if seat.bot is None else seat.stand_in
            log.info("room %s is served by this process now (version %d)", self.id, self.version)
            self.cluster.publish({"t": "owner", "r": self.id, "o": self.cluster.id})
            self._broadcast_seats()
            self._post(_nothing)  # the actor's next turn starts bots and absence clocks

    def _lose(self, owner: str | None) -> None:
        """Another process owns the room now: stop its bots and clocks, follow it."""
        log.info("room %s is served by another process now", self.id)
        self.owner = owner
        self.cancel_timers()
        self.clock.unwatch()
        self.remote = {}
        self._told = None
        self._refresh_soon()
        self._tell_presence()

    # --- who is connected, on every process ---------------------------------------------

    def _connected_seats(self) -> set[int]:
        here = super()._connected_seats()
        if self.owned:
            for seats in self.remote.values():
                here |= seats
            return here
        return here | self.mirror_connected

    def set_remote(self, server: str, seats: frozenset[int]) -> None:
        """Another process's connected seats changed (inside the actor)."""
        before = self._connected_seats()
        if seats:
            self.remote[server] = seats
        else:
            self.remote.pop(server, None)
        after = self._connected_seats()
        changed = before != after
        for seat in after - before:
            changed = self._returned(seat) or changed
        if changed:
            self._broadcast_seats()

    def forget_soon(self, live: set[str]) -> None:
        """Drop the presence of processes whose lease ran out (a job of the actor)."""

        async def forget() -> None:
            for server in [s for s in self.remote if s not in live]:
                self.set_remote(server, frozenset())

        self._post(forget)

    async def attach(self, connection: Connection, since: int | None) -> None:
        await super().attach(connection, since)
        self._tell_presence()

    def detach(self, connection: Connection) -> None:
        super().detach(connection)
        self._tell_presence()

    def _tell_presence(self) -> None:
        if self.owned or self.owner is None:
            return
        here = frozenset(super()._connected_seats())
        if here != self._told:
            self._told = here
            self.cluster.tell(self.owner, self.id, {"op": "presence", "seats": sorted(here)})

    def _broadcast_seats(self, but: Connection | None = None) -> None:
        super()._broadcast_seats(but)
        if self.owned:
            seats = [(s.kind, s.bot, s.name, s.token_hash, s.stand_in, s.gender) for s in self.seats]
            connected = sorted(self._connected_seats())
            self.cluster.publish(
                {"t": "seats", "r": self.id, "o": self.cluster.id, "seats": seats, "connected": connected}
            )


async def _nothing() -> None:
    return None


class SharedRooms(Rooms):
    """The rooms of this process among several: owned ones and followed ones."""

    def __init__(self, store: Store, secret: str, seeds: Callable[[], str], settings: Settings) -> None:
        super().__init__(store, secret, seeds, settings)
        self.cluster = Cluster(store, settings.lease, self)
        self.owner_id = self.cluster.id
        self.committer.owner = self.cluster.id
        self._early: dict[str, list[Notice]] = {}

    async def start(self) -> None:
        """Take a lease, listen, then rebuild the rooms nobody alive owns (and only those)."""
        await self.cluster.start()
        self.committer.start()
        await self.archive_idle()
        while await self._adopt():
            pass
        self.cluster.beat()
        self._sweeper = asyncio.create_task(self._sweep(), name="hraj-archiver")

    async def stop(self) -> None:
        await super().stop()
        await self.cluster.stop()

    def trouble(self) -> str | None:
        """Also out of touch: what the other processes notify no longer reaches this one."""
        return super().trouble() or (None if self.cluster.hearing else "not hearing the other processes")

    async def _adopt(self) -> bool:
        """Claim and serve the rooms in play whose owner died; whether there may be more."""
        limit = 500
        taken = await asyncio.to_thread(self.cluster.leases.adopt, limit)
        for room_id in taken:
            room = self.rooms.get(room_id)
            try:
                if isinstance(room, SharedRoom):
                    await room.become_owner()
                else:
                    await self._load(room_id)
            except Exception:
                log.exception("room %s cannot be rebuilt from its log", room_id)
        return len(taken) == limit

    def _room(self, data: RoomData) -> Room:
        return self._timed(
            SharedRoom(data, self.committer, self.store, self.secret, self.settings, self.cluster, self.bots)
        )

    async def get(self, room_id: str) -> Room:
        room = await super().get(room_id)
        if isinstance(room, SharedRoom):
            room.touched = time.monotonic()
        return room

    async def _load(self, room_id: str) -> Room:
        # The room is claimed first if nobody alive owns it, then read: an owner's copy
        # holds every commit, and a follower's misses none (notices that come while it
        # is read are kept and applied after).
        await store_call(self.cluster.leases.claim, room_id)
        self._early.setdefault(room_id, [])
        try:
            room = await super()._load(room_id)
        finally:
            early = self._early.pop(room_id, [])
        for message in early:
            self.on_notice(message)
        return room

    # --- what the cluster hears ---------------------------------------------------------

    def on_notice(self, message: Notice) -> None:
        room_id = message["r"]
        room = self.rooms.get(room_id)
        if room is None:
            if room_id in self._early:
                self._early[room_id].append(message)
            return
        if not isinstance(room, SharedRoom):  # pragma: no cover - every room here is shared
            return
        if message["t"] == "events":
            room.on_events(message)
        elif message["t"] == "seats":
            room.on_seats(message)
        elif message["t"] == "owner":
            room.on_owner(message["o"])
        elif message["t"] == "chat":
            room.on_chat(message["line"])
        elif message["t"] == "rematch" and not room.owned:
            room.announce_rematch(message["new"])

    async def consent(self, old: Room, seat: int | None, accept: bool) -> tuple[Room | None, bool]:
        """Counted by the old room's owner (though asked through any process)."""
        if isinstance(old, SharedRoom) and not old.owned:
            reply = await old._forward({"op": "rematch", "seat": seat, "accept": accept})
            made = reply.get("rematch")
            return (None if made is None else await self.get(made)), reply["made"]
        return await super().consent(old, seat, accept)

    async def rematch(self, old: Room) -> tuple[Room, bool]:
        """Made by the old room's owner (once, though asked through any process), and
        announced to the players connected to every other process."""
        new, made = await super().rematch(old)
        if made:
            self.cluster.publish({"t": "rematch", "r": old.id, "o": self.cluster.id, "new": new.id})
        return new, made

    async def on_request(self, request: Request, op: Op) -> Reply | None:
        room_id, sender = request["room"], request["from"]
        answer = "id" in request
        room = self.rooms.get(room_id)
        if room is None and ROOM_ID.fullmatch(room_id):
            with contextlib.suppress(ServerError):
                room = await self.get(room_id)  # claims it if its owner died meanwhile
        if not isinstance(room, SharedRoom) or not room.owned:
            return _not_owner() if answer else None
        shared = room
        try:
            result = await shared.call(lambda: shared.serve(op, sender))
        except ServerError as error:
            return refusal(error) if answer else None
        return result if answer else None

    async def on_beat(self, live: set[str]) -> None:
        now = time.monotonic()
        for room_id, room in list(self.rooms.items()):
            if not isinstance(room, SharedRoom):
                continue
            if room.owned:
                if any(server not in live for server in room.remote):
                    room.forget_soon(live)
            elif not room.connections and now - room.touched > FOLLOWER_IDLE_S:
                del self.rooms[room_id]
                await room.stop()
        await self._adopt()

    def on_resync(self) -> None:
        for room in self.rooms.values():
            if isinstance(room, SharedRoom) and not room.owned:
                room._refresh_soon()


def _not_owner() -> Reply:
    return {"error": {"code": "not_owner", "key": "", "params": {}}}


def rooms_for(store: Store, secret: str, seeds: Callable[[], str], settings: Settings) -> Rooms:
    """SQLite: one process, `Rooms`. PostgreSQL: any number of processes, `SharedRooms`."""
    if store.engine.dialect.name == "postgresql":
        return SharedRooms(store, secret, seeds, settings)
    return Rooms(store, secret, seeds, settings)
