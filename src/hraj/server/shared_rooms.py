"""The rooms of one process among several on one PostgreSQL database: `SharedRooms`.

The registry of `SharedRoom`s (`hraj.server.shared_room`), each owned here or followed
from another process. It takes the rooms whose owner died, hands what the cluster hears
(notices, requests, heartbeats) to the room it is about, and lets go of followed rooms
nobody here watches. `rooms_for` chooses it on PostgreSQL, and `Rooms` on SQLite.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from hraj.server.cluster import Cluster, Notice, Op, Reply, Request, refusal
from hraj.server.committer import store_call
from hraj.server.protocol import ServerError
from hraj.server.room import Room
from hraj.server.rooms import Rooms
from hraj.server.settings import Settings
from hraj.server.shared_room import SharedRoom
from hraj.server.tokens import ROOM_ID
from hraj.store import RoomData, Store

log = logging.getLogger("hraj.server")

#: Seconds a followed room stays loaded with no connection here.
FOLLOWER_IDLE_S = 60.0


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
