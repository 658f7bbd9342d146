"""How long `hraj analyze` takes for a full game of each game, on one core.

Run `python -m benchmarks.analysis_speed [games per case] [seed] [game ...]` (default 3
games, seed 1, every game). For each case a seeded game is played by the strongest bot (Abluxxen: `greedy`,
as `strategist` stops on a clock), so the records are the same on any machine and as
long as good players make them; then it is analysed exactly as `hraj analyze` does it,
with the settings analysis uses (`quick`):

- Qwixx: `master`'s table values, every option;
- Trefa: `winner`'s exact chance of winning of every option (its race model);
- backgammon: every play (the net at 1-ply, `expert`) and every cube decision (the cube
  model on the net's probabilities);
- Abluxxen: `strategist`'s own search (12 deals, six turns ahead, six plays weighed)
  plus the option played, without its 0.6-second limit.

Prints per case the decisions analysed and the CPU seconds of the analysis (process
time, one core: the analysis runs in one thread), mean and slowest game.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import hraj
from hraj.analysis.game import analyse
from hraj.core.bot import make_bot
from hraj.core.driver import play_game
from hraj.core.record import Record

CASES: list[tuple[str, dict[str, Any]]] = [
    ("qwixx", {"players": 1}),
    ("qwixx", {"players": 3}),
    ("trefa", {"players": 1}),
    ("trefa", {"players": 3}),
    ("backgammon", {}),
    ("abluxxen", {"players": 3}),
    ("abluxxen", {"players": 5}),
]
#: The bot that plays each game's records: no time limit, so the same on any machine.
PLAYERS = {"qwixx": "master", "trefa": "winner", "backgammon": "pubeval", "abluxxen": "greedy"}


def record(game_id: str, options: dict[str, Any], seed: int) -> Record:
    """A seeded game of the case's bot (`PLAYERS`) in every seat."""
    game = hraj.game(game_id, **options)
    bots = [make_bot(game_id, PLAYERS[game_id], seed * 10 + seat) for seat in range(game.players)]
    return play_game(game.new_state(), bots, random.Random(seed)).record()


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    only = set(sys.argv[3:])
    print(f"analysis of a full game, {games} games per case, seed {seed}; CPU seconds on one core")
    print(f"{'case':<16}{'decisions':>10}{'mean s':>9}{'max s':>8}")
    for game_id, options in CASES:
        if only and game_id not in only:
            continue
        game = hraj.game(game_id, **options)
        times, decisions = [], []
        for number in range(games):
            rec = record(game_id, options, seed + number)
            start = time.process_time()
            result = analyse(game, rec, seed=seed)
            times.append(time.process_time() - start)
            decisions.append(len(result.decisions))
        label = f"{game_id}-{game.players}"
        mean_decisions = sum(decisions) / games
        print(f"{label:<16}{mean_decisions:>10.0f}{sum(times) / games:>9.2f}{max(times):>8.2f}")


if __name__ == "__main__":
    main()
