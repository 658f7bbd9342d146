"""GNU Backgammon as a checker player and a judge, through `gnubg_bridge` in a gnubg process.

`Gnubg()` starts Debian's gnubg (`/usr/games/gnubg`) running the bridge and speaks JSON
lines to it: `best` is gnubg's play of a roll at some ply, `evaluate` its five cubeless
outputs for positions (hraj's arrays of 52 counts, the side on roll first). gnubg
spends about 10 ms of wall clock on every request while its CPU waits, so the
benchmarks keep several processes busy at once.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.afterstates import apply_plays
from hraj.games.backgammon.duel import Player
from hraj.games.backgammon.moves import Steps

GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"
BRIDGE = Path(__file__).with_name("gnubg_bridge.py")
READY = "HRAJ-GNUBG-READY"


def available() -> bool:
    return Path(GNUBG).is_file()


class Gnubg:
    """One gnubg process running the bridge; close it (or use `with`) when done."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [GNUBG, "-t", "-q", "-p", str(BRIDGE)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.strip() == READY:
                break
        else:
            raise RuntimeError("gnubg ended before the bridge started")

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        reply: dict[str, Any] = json.loads(self.process.stdout.readline())
        if "error" in reply:
            raise RuntimeError(reply["error"])
        return reply

    def best(self, position: NDArray[np.int8], dice: tuple[int, int], plies: int = 0) -> Steps:
        """gnubg's play of `dice` for the side on roll (steps from, to; 25 the bar, 0 off)."""
        reply = self.request({"op": "best", "position": position.tolist(), "dice": list(dice), "plies": plies})
        return tuple((int(origin), int(target)) for origin, target in reply["steps"])

    def evaluate(self, positions: NDArray[np.int8], plies: int) -> NDArray[np.float64]:
        """gnubg's five cubeless outputs (n, 5) for the side on roll of each position (n, 52)."""
        reply = self.request({"op": "evaluate", "positions": positions.tolist(), "plies": plies})
        return np.array(reply["probabilities"], dtype=np.float64).reshape(-1, 5)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)

    def __enter__(self) -> Gnubg:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def play_index(position: NDArray[np.int8], steps: Steps, after: NDArray[np.int8]) -> int:
    """The index in `after` (the positions after every legal play) of the play `steps`."""
    reached = apply_plays(position, [steps])[0]
    matches = np.flatnonzero((after == reached).all(axis=1))
    if len(matches) != 1:
        raise RuntimeError(f"gnubg's play {steps} is not one of hraj's legal plays")
    return int(matches[0])


def gnubg_player(gnubg: Gnubg, plies: int = 0) -> Player:
    """gnubg's checker play at `plies` as a `duel` player."""

    def choose(
        position: NDArray[np.int8], dice: tuple[int, int], plays: tuple[Steps, ...], after: NDArray[np.int8]
    ) -> int:
        return play_index(position, gnubg.best(position, dice, plies), after)

    return choose
