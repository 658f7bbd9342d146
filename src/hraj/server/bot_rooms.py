"""How many rooms of bots alone one process runs at once, and which matches they may play.

A room where no person plays (made of bots only, or whose people all left their seats
to bots) costs the process a move every `HRAJ_BOT_PACE` seconds for as long as its
game lasts, and its log grows with every move. Such rooms run only while they hold one
of the process's `HRAJ_BOT_ROOM_BUDGET` slots: one that finds none waits, without a
move, until another finishes or its people come back; a new room of bots only is
refused while every slot is taken. And unless `HRAJ_BOT_ROOMS=endless`, a room of bots
alone may not choose a game option beyond what the game allows bots alone
(`Option.bots_alone_max`: a match to 32,767 points would run for months).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hraj.core.game import Option
from hraj.core.jsondata import OptionSetting
from hraj.server.protocol import ServerError


class BotRoomBudget:
    """The slots of rooms of bots alone of one process, and the rooms waiting for one."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.running: set[str] = set()
        #: Rooms waiting for a slot, oldest first, with what wakes each one.
        self.waiting: dict[str, Callable[[], None]] = {}

    @property
    def full(self) -> bool:
        return len(self.running) >= self.slots

    def take(self, room_id: str, wake: Callable[[], None]) -> bool:
        """A slot for the room (it may run its bots), or False and it waits to be woken."""
        if room_id in self.running:
            return True
        if not self.full:
            self.waiting.pop(room_id, None)
            self.running.add(room_id)
            return True
        self.waiting.setdefault(room_id, wake)
        return False

    def give_back(self, room_id: str) -> None:
        """The room no longer runs alone (it ended, people play again, it stopped):
        its slot goes to the room that has waited longest."""
        self.waiting.pop(room_id, None)
        if room_id not in self.running:
            return
        self.running.discard(room_id)
        if self.waiting:
            first = next(iter(self.waiting))
            self.waiting.pop(first)()


def check_bots_alone(options_spec: Mapping[str, Option], options: Mapping[str, OptionSetting]) -> None:
    """Refuse options a game does not allow a room of bots alone (a match too long)."""
    for name, option in options_spec.items():
        most = option.bots_alone_max
        value = options.get(name)
        if most is not None and isinstance(value, int) and value > most:
            raise ServerError(
                "forbidden",
                "A room of bots only may play with {option} up to {most}, not {value}; seat a person for more.",
                option=name,
                most=most,
                value=value,
            )
