"""hraj against GNU Backgammon 1.07 both ways, in bulk: counts and differences per kind.

Run `python -m benchmarks.backgammon_gnubg [MATCHES]` (100 by default) with Debian's
gnubg installed. For each kind of play (money with and without the cube, Jacoby,
beavers; 3-, 5- and 7-point matches) gnubg plays MATCHES matches (money: games, in
sessions of five) that hraj reads, and hraj plays MATCHES that gnubg imports; it
prints how many were compared and how many ended differently (Position ID, Match ID,
score), then the first differences. The seeds follow those of the CI test
(`tests/games/backgammon/formats/test_gnubg_interchange.py`), so its matches are the
first ones here.
"""

from __future__ import annotations

import sys
import time

from tests.games.backgammon.formats import gnubg

from hraj.games.backgammon.formats import export_mat, records_from_mat

MONEY_GAMES = 5
PROCESSES = 24


def gnubg_to_hraj(kind: str, matches: int) -> tuple[int, list[str]]:
    options = gnubg.KINDS[kind][0]
    money = not options.get("match_length")
    seeds = list(range(1, (-(-matches // MONEY_GAMES) if money else matches) + 1))
    games = 0
    problems: list[str] = []
    for one in gnubg.play_many(kind, seeds, PROCESSES):
        try:
            records = records_from_mat(one.mat, **options)
        except Exception as error:  # a file hraj refuses is a difference to count
            problems.append(f"seed {one.seed}: {error}")
            continue
        games += len(records)
        problems += [f"seed {one.seed}: {what}" for what in gnubg.differences(gnubg.final_states(records), one.seen)]
    return games, problems


def hraj_to_gnubg(kind: str, matches: int) -> tuple[int, list[str]]:
    records = [gnubg.hraj_record(kind, seed) for seed in range(1, matches + 1)]
    seen = gnubg.import_mats(kind, [export_mat(record) for record in records])
    problems: list[str] = []
    for seed, record, one in zip(range(1, matches + 1), records, seen, strict=True):
        problems += [f"seed {seed}: {what}" for what in gnubg.differences(gnubg.final_states([record]), one)]
    return len(records), problems


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    if not gnubg.available():
        print("gnubg is not installed (apt-get install gnubg)")
        return
    print(f"{'kind':20} {'gnubg -> hraj':>14} {'differ':>7} {'hraj -> gnubg':>14} {'differ':>7} {'seconds':>8}")
    shown: list[str] = []
    for kind in gnubg.KINDS:
        start = time.perf_counter()
        read, read_problems = gnubg_to_hraj(kind, matches)
        written, written_problems = hraj_to_gnubg(kind, matches)
        seconds = time.perf_counter() - start
        print(f"{kind:20} {read:14d} {len(read_problems):7d} {written:14d} {len(written_problems):7d} {seconds:8.1f}")
        shown += [f"{kind}, gnubg -> hraj, {what}" for what in read_problems[:3]]
        shown += [f"{kind}, hraj -> gnubg, {what}" for what in written_problems[:3]]
    for line in shown:
        print(line)


if __name__ == "__main__":
    main()
