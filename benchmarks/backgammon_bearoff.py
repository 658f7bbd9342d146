"""hraj's bear-off database against gnubg's one-sided database, position by position.

Run `python -m benchmarks.backgammon_bearoff [POSITIONS] [SEED]` (200 and 0 by
default) with Debian's gnubg installed. For a seeded sample of home boards (and every
board of 15 checkers among them for the gammon table) it asks gnubg's `bearoffdump`
for the distribution of rolls to bear off (and to bear the first checker off) from
`gnubg_os0.bd`, and prints the largest difference from hraj's tables, in percentage
points (gnubg prints three decimals), and of the average number of rolls.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys

import numpy as np

from hraj.games.backgammon.bearoff import database, home_positions
from hraj.games.backgammon.formats.position_id import TanBoard, encode_position_id

DUMP = "/usr/games/bearoffdump"
DATABASE = "/usr/share/gnubg/gnubg_os0.bd"
ROW = re.compile(r"^\s*(\d+)\t\s*([\d.]+)\t\s*[\d.]+(?:\t\t\s*([\d.]+)\t\s*[\d.]+)?\s*$")


def gnubg_tables(home: tuple[int, ...]) -> tuple[dict[int, float], dict[int, float]]:
    """(rolls to bear off, rolls to bear the first checker off) of one home board, in percent."""
    row = (*home, *([0] * 19))
    position_id = encode_position_id(TanBoard(row, row))
    text = subprocess.run([DUMP, DATABASE, "-p", position_id], capture_output=True, text=True, check=True).stdout
    rolls: dict[int, float] = {}
    first: dict[int, float] = {}
    table = text.split("Rolls\tPlayer", 1)[1].split("Average rolls", 1)[0]
    for line in table.splitlines()[1:]:
        match = ROW.match(line)
        if match:
            rolls[int(match[1])] = float(match[2])
            if match[3] is not None:
                first[int(match[1])] = float(match[3])
    return rolls, first


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if shutil.which(DUMP) is None:
        print("gnubg is not installed (apt-get install gnubg)")
        return
    db = database()
    boards = [board for board in home_positions() if any(board)]
    sample = random.Random(seed).sample(boards, count)
    sample += random.Random(seed).sample([board for board in boards if sum(board) == 15], count // 4)
    worst_rolls = worst_first = worst_mean = 0.0
    fifteen = 0
    for home in sample:
        rolls, first = gnubg_tables(home)
        mine = db.rolls[db.row(home)] * 100
        theirs = np.zeros(len(mine))
        for n, value in rolls.items():
            theirs[n] = value
        worst_rolls = max(worst_rolls, float(np.max(np.abs(mine - theirs))))
        worst_mean = max(worst_mean, abs(db.expected_rolls(home) - float(theirs @ np.arange(len(theirs))) / 100))
        if sum(home) == 15:
            fifteen += 1
            mine_first = db.first_off[db.row(home)] * 100
            theirs_first = np.zeros(len(mine_first))
            for n, value in first.items():
                theirs_first[n] = value
            worst_first = max(worst_first, float(np.max(np.abs(mine_first - theirs_first))))
    print(
        f"{len(sample)} home boards against gnubg_os0.bd: largest difference {worst_rolls:.3f} percentage points "
        f"(rolls to bear off), {worst_mean:.4f} rolls on average; {fifteen} boards of 15 checkers: "
        f"{worst_first:.3f} points (rolls to the first checker off)"
    )


if __name__ == "__main__":
    main()
