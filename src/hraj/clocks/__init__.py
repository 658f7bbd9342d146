"""Time at the table: time controls and their presets, each seat's clock, the deadlines
a process watches, and the pairing of people who seek a game.

Pure logic over the store: the server passes the time and commits what changes; this
package imports neither the server nor any game (a game says only which clock family
fits it, `Game.clock_family`).
"""

from hraj.clocks.controls import ClockError, Preset, TimeControl, preset, presets
from hraj.clocks.heap import DeadlineHeap
from hraj.clocks.timing import ClockJson, Deadline, RoomClock, SeatClock

__all__ = [
    "ClockError",
    "ClockJson",
    "Deadline",
    "DeadlineHeap",
    "Preset",
    "RoomClock",
    "SeatClock",
    "TimeControl",
    "preset",
    "presets",
]
