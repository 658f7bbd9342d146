"""Speed of backgammon's exchange formats.

Run `python -m benchmarks.backgammon_formats [matches]`. Plays seeded random 7-point
matches, then times, per position, gnubg's Position ID + Match ID and the XGID (out
and back in), and, per match, `.mat` export and import. Each figure is printed with
its ratio to a baseline measured in the same run: `state.copy()` for positions, and
`game.replay(record)` for matches (import replays the match, so it can be no faster).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

from hraj.core.record import Record, parse_record
from hraj.games.backgammon.formats import export_mat, records_from_mat
from hraj.games.backgammon.formats.positions import gnubg_ids, state_from_gnubg, state_from_xgid, xgid
from hraj.games.backgammon.rules import Backgammon, BackgammonState


def random_match(seed: int) -> BackgammonState:
    rng = random.Random(seed)
    state = Backgammon(match_length=7).new_state()
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
            continue
        seat = state.to_act[0]
        actions = [action for action in state.legal_actions(seat) if not str(action).startswith("resign")]
        state.apply(seat, rng.choice(actions))
    return state


def positions_of(record: Record) -> list[BackgammonState]:
    """Every decision point of a record, replayed."""
    game = Backgammon(**record["options"])
    state = game.new_state()
    found = []
    for kind, seat, text in parse_record(record)[2]:
        if kind == "chance":
            state.apply_chance(text)
        elif kind == "move" and seat is not None:
            found.append(state.copy())
            state.apply(seat, text)
    return found


def per_item(label: str, items: list[Any], work: Callable[[Any], object], baseline: float | None) -> float:
    start = time.perf_counter()
    for item in items:
        work(item)
    each = (time.perf_counter() - start) / len(items)
    ratio = f"  ({each / baseline:6.1f}x baseline)" if baseline else ""
    print(f"{label:<38}{each * 1e6:10.1f} µs{ratio}")
    return each


def main(matches: int) -> None:
    records = [random_match(seed).record() for seed in range(matches)]
    states = [state for record in records for state in positions_of(record)]
    ids = [gnubg_ids(state) for state in states]
    xgids = [xgid(state) for state in states]
    texts = [export_mat(record) for record in records]
    print(f"{matches} random 7-point matches, {len(states)} positions, {sum(map(len, texts))} bytes of .mat")
    copy = per_item("state.copy() (position baseline)", states, lambda state: state.copy(), None)
    per_item("gnubg_ids(state)", states, gnubg_ids, copy)
    per_item("state_from_gnubg(ids)", ids, lambda pair: state_from_gnubg(*pair), copy)
    per_item("xgid(state)", states, xgid, copy)
    per_item("state_from_xgid(text)", xgids, state_from_xgid, copy)
    game = Backgammon(match_length=7)
    replay = per_item("game.replay(record) (match baseline)", records, game.replay, None)
    per_item("export_mat(record)", records, export_mat, replay)
    per_item("records_from_mat(text)", texts, records_from_mat, replay)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
