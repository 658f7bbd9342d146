"""Run inside GNU Backgammon: answers checker plays and evaluations over stdin/stdout.

`gnubg -t -q -p benchmarks/gnubg_bridge.py` runs this with gnubg's embedded Python
(`import gnubg`); `benchmarks.gnubg_player` starts it and speaks to it. One JSON object
a line each way. Positions are hraj's: 52 counts, the side on roll's board first, each
side's index 0 borne off, 1..24 its points, 25 its bar. Requests:

- `{"op": "best", "position": P, "dice": [a, b], "plies": n}`: gnubg's play at n-ply,
  cubeless money play; answers `{"steps": [[from, to], ...]}` (25 the bar, 0 off).
- `{"op": "evaluate", "positions": [P, ...], "plies": n}`: gnubg's five cubeless
  outputs for the side on roll of each position; answers `{"probabilities": [[5], ...]}`.

Evaluations are cubeless, deterministic, without noise and with gnubg's pruning at
deeper plies (its "World class" setting at 2-ply), money play without the Jacoby rule.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import gnubg  # only inside gnubg

READY = "HRAJ-GNUBG-READY"


def board(position: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """gnubg's board: (the other side, the side on roll), each 24 points then the bar."""
    return tuple(position[27:52]), tuple(position[1:26])


def context(plies: int) -> Any:
    # cubeful off, deterministic, pruning on, no noise
    return gnubg.evalcontext(0, plies, 1, 1, 0.0)


def answer(request: dict[str, Any], cube: Any) -> dict[str, Any]:
    if request["op"] == "best":
        move = gnubg.findbestmove(board(request["position"]), cube, context(request["plies"]), tuple(request["dice"]))
        steps = [[move[i], move[i + 1]] for i in range(0, len(move), 2) if move[i] > 0]
        return {"steps": steps}
    if request["op"] == "evaluate":
        found = [
            list(gnubg.evaluate(board(position), cube, context(request["plies"]))[:5])
            for position in request["positions"]
        ]
        return {"probabilities": found}
    return {"error": f"unknown op {request['op']!r}"}


def main() -> None:
    gnubg.command("set jacoby off")
    cube = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)
    print(READY, flush=True)
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(answer(json.loads(line), cube)), flush=True)


main()
