"""Start-up of a server whose database holds many idle unfinished rooms.

Run `python -m benchmarks.server_startup [--rooms N] [--events E]`.

Makes a SQLite database of N unfinished Qwixx rooms, each E events into its game and
untouched for 30 days, then starts the server's rooms three times back to back and
prints how long each start took and how many rooms it rebuilt:

1. with archiving turned off in effect (`archive_after` of ten years): every room is
   rebuilt from its log, the behaviour before rooms were archived;
2. with the default `archive_after` (14 days): the rooms are archived in one statement
   and none is rebuilt;
3. once more: the archived rooms are not even read.

Seeded: every room plays the same game from seed 1, so the runs are comparable.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import itertools
import random
import tempfile
import time
from pathlib import Path

import hraj
from hraj.server.fairness import DICE_V2, Dice, commitment
from hraj.server.rooms import Rooms
from hraj.server.settings import Settings
from hraj.store import AppendBatch, NewRoom, NewSeat, Store
from hraj.store.schema import rooms as rooms_table

SECRET = "benchmark-secret-0123456789"
SEED = "00" * 31 + "01"


def partial_game(events: int) -> list[tuple[str, int | None, str]]:
    """About `events` events of a seeded game that is not over yet and waits for a
    decision (the first moves seed, counting from 1, whose game lasts that long)."""
    for moves_seed in itertools.count(1):
        state = hraj.game("qwixx", players=2).new_state()
        dice, moves = Dice(SEED, DICE_V2), random.Random(moves_seed)
        while (len(state.events()) < events or state.is_chance) and not state.is_over:
            if state.is_chance:
                state.apply_chance(state.sample_chance(dice.rng(len(state.events()))))
            else:
                seat = state.to_act[0]
                state.apply(seat, moves.choice(state.legal_actions(seat)))
        if not state.is_over:
            return state.events()
    raise AssertionError("unreachable")


def fill(store: Store, rooms: int, events: int) -> None:
    log = partial_game(events)
    game = hraj.game("qwixx", players=2)
    for number in range(rooms):
        room_id = f"room{number:06d}"
        seats = [NewSeat("person", token_hash=f"{number:064x}"), NewSeat("person")]
        store.create_room(
            NewRoom(room_id, "qwixx", game.options, SEED, commitment(SEED), "i", "h", seats, dice=DICE_V2)
        )
        store.append([AppendBatch(room_id, 0, log)])
    make_idle(store)


def make_idle(store: Store) -> None:
    """Every room untouched for 30 days (a start may have drawn nothing, but be sure)."""
    month_ago = dt.datetime.now(dt.UTC) - dt.timedelta(days=30)
    with store.engine.begin() as connection:
        connection.execute(rooms_table.update().values(updated_at=month_ago))


async def start_once(store: Store, archive_after: int) -> tuple[float, int]:
    rooms = Rooms(store, SECRET, settings=Settings(secret=SECRET, archive_after=archive_after))
    began = time.perf_counter()
    await rooms.start()
    took = time.perf_counter() - began
    loaded = len(rooms.rooms)
    await rooms.stop()
    return took, loaded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=2000, help="idle unfinished rooms in the database")
    parser.add_argument("--events", type=int, default=40, help="events of each room's log")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hraj-startup-") as folder:
        store = Store(f"sqlite:///{Path(folder) / 'hraj.db'}", synchronous="NORMAL")
        store.migrate()
        fill(store, args.rooms, args.events)
        print(f"{args.rooms} idle unfinished Qwixx rooms of {len(partial_game(args.events))} events, 30 days old")
        for label, archive_after in (
            ("no archiving (before)", 10 * 365 * 86400),
            ("archive after 14 days", 14 * 86400),
            ("again, rooms archived", 14 * 86400),
        ):
            make_idle(store)
            took, loaded = asyncio.run(start_once(store, archive_after))
            print(f"{label:<24} start {took:7.3f} s   rooms rebuilt {loaded}")
        store.close()


if __name__ == "__main__":
    main()
