"""What a room does by itself between its jobs: its bots' moves and stand-ins for absent players.

`BotHands` is the part of `Room` that moves without being asked; the room calls it
after each job, when a connection comes or goes and when it stops. Bots' moves go
through the very same `Room.act` as people's, one move per job: between two bot moves
the room serves its other jobs and can be stopped. A room where no person plays any
more (only bots, or people who left their seats to bots) moves at a bounded pace. A
person seat that must act while its player is away for the room's `absent_after`
seconds is played by a stand-in bot, shown to everyone, until the player connects again.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from hraj.core.bot import Bot, make_bot
from hraj.server.seats import stand_in_bot

if TYPE_CHECKING:
    from hraj.server.room import Room

#: Seconds before a bot tries again after its move could not be stored.
BOT_RETRY_S = 2.0


class BotHands:
    """The room's own moves: see the module. `room` is the room it belongs to."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._timer: asyncio.TimerHandle | None = None
        self._queued = False
        self._failed = False
        self._absence: dict[int, asyncio.TimerHandle] = {}

    def cancel(self) -> None:
        """Give back the room's slot and stop every timer (the room stops or is let go of)."""
        room = self.room
        if room.bots is not None:
            room.bots.give_back(room.id)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for timer in self._absence.values():
            timer.cancel()
        self._absence.clear()

    # --- bots: one move per job, at a bounded pace when no person plays ----------------

    def _seat(self) -> int | None:
        room = self.room
        if room.over or room.state.is_chance:
            return None
        return next((s for s in room.state.to_act if room.seats[s].bot is not None), None)

    def schedule(self) -> None:
        """Queue the room's next step of its own (pending chance, or a bot's move), after a
        pause if the last one failed or no person plays; a room where no person plays
        moves only while it holds one of the process's slots (`hraj.server.bot_rooms`)."""
        room = self.room
        alone = not any(seat.played_by_person for seat in room.seats)
        if room.bots is not None and (room.over or not alone):
            room.bots.give_back(room.id)
        if self._timer is not None or self._queued or room.over:
            return
        if not room.state.is_chance and self._seat() is None:
            return
        if self._failed:
            delay = BOT_RETRY_S
        elif room.state.is_chance or not alone:
            delay = 0.0
        elif room.bots is not None and not room.bots.take(room.id, lambda: room._post(self._nothing)):
            return  # woken when a slot is free
        else:
            delay = room.settings.bot_pace
        self._queued = True
        if delay <= 0:
            room._post(self._move)
        else:
            self._timer = asyncio.get_running_loop().call_later(delay, self._due)

    @staticmethod
    async def _nothing() -> None:
        """A job that only lets the actor look again at what it does by itself."""

    def _due(self) -> None:
        self._timer = None
        self.room._post(self._move)

    async def _move(self) -> None:
        """Draw pending chance, or make one move of a bot-played seat; the next is a job of its own."""
        room = self.room
        self._queued = False
        seat: int | None = None
        try:
            if room.state.is_chance:
                await room.advance_committed()
                self._failed = False
                return
            seat = self._seat()
            if seat is None:
                return
            player = self._player(seat)
            # A searching bot may think for a while: it does so on its own copy in a
            # worker thread, so the other rooms of the process go on meanwhile.
            seen = room.state.determinize(seat, room.bot_rng)
            action = await asyncio.to_thread(player.choose, seen, seat)
            await room.act(seat, str(action))
        except Exception as error:
            self._failed = True
            room.failures.report("chance" if seat is None else f"the bot of seat {seat} could not move", error)
            return
        self._failed = False

    def _player(self, seat: int) -> Bot:
        room = self.room
        info = room.seats[seat]
        assert info.bot is not None
        if info.player is None or info.player.name != info.bot:
            info.player = make_bot(room.game.id, info.bot, seed=room._derived_seed(f"bot:{seat}:{info.bot}"))
        return info.player

    # --- absent players -----------------------------------------------------------------

    def watch_absence(self) -> None:
        """Start the clock of every claimed seat that must act while its player is away."""
        room = self.room
        if room.absent_after <= 0:
            return
        due: set[int] = set()
        if not room.over and not room.state.is_chance:
            connected = room._connected_seats()
            due = {
                s
                for s in room.state.to_act
                if room.seats[s].played_by_person and room.seats[s].token_hash is not None and s not in connected
            }
        for seat in list(self._absence):
            if seat not in due:
                self._absence.pop(seat).cancel()
        loop = asyncio.get_running_loop()
        for seat in due - set(self._absence):
            self._absence[seat] = loop.call_later(room.absent_after, self._absent, seat)

    def _absent(self, seat: int) -> None:
        self._absence.pop(seat, None)
        self.room._post(lambda: self._stand_in(seat))

    async def _stand_in(self, seat: int) -> None:
        """The player of `seat` is away while it must act: a bot plays it until they return."""
        room = self.room
        info = room.seats[seat]
        if room.over or not info.played_by_person or seat in room._connected_seats() or seat not in room.state.to_act:
            return
        info.bot = stand_in_bot(room.game.id, room.settings.stand_in_bot)
        info.stand_in = True
        room._broadcast_seats()

    def returned(self, seat: int) -> bool:
        """A player whose seat a stand-in played is back: the seat is theirs again."""
        info = self.room.seats[seat]
        if not info.stand_in:
            return False
        info.stand_in = False
        info.bot = None
        info.player = None
        return True
