"""hraj's cube model against gnubg's 0-ply cube analysis, on gnubg's own probabilities.

Run `python -m benchmarks.backgammon_cube_gnubg [POSITIONS] [MATCH_LENGTH]` (120 and 0,
a money game, by default) with Debian's gnubg installed. Positions before the roll are
taken from seeded `pubeval` self-play games; gnubg evaluates each at 0-ply (its five
probabilities, then "No double", "Double, take", "Double, pass" and its proper cube
action), and `cube.analyse` turns the same five probabilities into the three equities.
Printed: the mean and largest difference of the equities (money: per cube; match: MWC,
gnubg's output set to MWC) and how often the proper action agrees.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
from typing import Any

import hraj
from hraj.games.backgammon.bots import PubevalBot
from hraj.games.backgammon.cube import Outcomes, analyse
from hraj.games.backgammon.decisions import context
from hraj.games.backgammon.formats.positions import gnubg_ids
from hraj.games.backgammon.rules import CUBE, BackgammonState

GNUBG = "/usr/games/gnubg"
NUMBER = r"([+-]?\d+\.\d+)"


def positions(count: int, match_length: int) -> list[BackgammonState]:
    """States before the roll, every few turns of pubeval self-play games."""
    found: list[BackgammonState] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        bots = [PubevalBot(seed), PubevalBot(seed + 1)]
        state: Any = hraj.game("backgammon", match_length=match_length).new_state()
        turn = 0
        while not state.is_over and len(found) < count:
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.to_act[0]
            if state.phase == CUBE and state.cube_available(seat):
                turn += 1
                if turn % 4 == 0:
                    found.append(state.copy())
            state.apply(seat, bots[seat].choose(state.copy(), seat))
        seed += 1
    return found


def gnubg_analyses(states: list[BackgammonState], match: bool) -> list[tuple[list[float], dict[str, float], str]]:
    """gnubg's probabilities, cubeful equities and proper action for each state."""
    lines = [
        "set player 0 human",
        "set player 1 human",
        "set evaluation chequerplay evaluation plies 0",
        "set evaluation cubedecision evaluation plies 0",
        "set jacoby off",
        f"set output mwc {'on' if match else 'off'}",
        "new match 0" if not match else f"new match {states[0].match_length}",
    ]
    for state in states:
        position_id, match_id = gnubg_ids(state)
        lines += [f"set matchid {match_id}", f"set board {position_id}", "eval"]
    text = subprocess.run(
        [GNUBG, "-t", "-q", "-r"], input="\n".join(lines) + "\n", capture_output=True, text=True, check=False
    ).stdout
    results = []
    for block in text.split("Cube analysis")[1:]:
        static = re.search(r"\n\s+" + r"\s+".join([r"(\d\.\d+)"] * 3) + r" - \d\.\d+ (\d\.\d+) (\d\.\d+)", block)
        equities = {
            name: float(value.rstrip("%")) / (100 if value.endswith("%") else 1)
            for name, value in re.findall(r"\d\. (No double|Double, pass|Double, take)\s+([+-]?\d+\.\d+%?)", block)
        }
        action = re.search(r"Proper cube action: ([^(\n]+)", block)
        if static and len(equities) == 3 and action:
            results.append(([float(v) for v in static.groups()], equities, action.group(1).strip()))
    return results


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 120
    length = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if shutil.which(GNUBG) is None:
        print("gnubg is not installed (apt-get install gnubg)")
        return
    states = positions(count, length)
    analyses = gnubg_analyses(states, bool(length))
    if len(analyses) != len(states):
        print(f"gnubg answered {len(analyses)} of {len(states)} positions; compare by hand")
        return
    differences: list[float] = []
    agree = 0
    doubles = 0
    for state, (probabilities, equities, action) in zip(states, analyses, strict=True):
        seat = state.turn
        ours = analyse(Outcomes.of(probabilities), context(state, seat))
        for name, value in (
            ("No double", ours.no_double),
            ("Double, take", ours.double_take),
            ("Double, pass", ours.double_pass),
        ):
            differences.append(abs(value - equities[name]))
        gnubg_doubles = action.startswith(("Double", "Redouble"))
        doubles += gnubg_doubles
        agree += gnubg_doubles == ours.double and (("take" in action or "beaver" in action) == ours.take)
    kind = f"{length}-point match (MWC)" if length else "money (per cube)"
    print(
        f"{len(states)} positions, {kind}: equities differ by {sum(differences) / len(differences):.4f} on average, "
        f"{max(differences):.4f} at most; proper action (double or not, take or pass) agrees in "
        f"{agree} of {len(states)} ({doubles} doubles by gnubg)"
    )


if __name__ == "__main__":
    main()
