"""hraj and GNU Backgammon 1.07 (Debian's `gnubg`) read each other's files and IDs.

Both ways, for every kind of play (money with and without the cube, with the Jacoby
rule, with beavers; 3-, 5- and 7-point matches):

- gnubg plays itself (0 ply, seeded) and exports `.mat` files; hraj reads them and
  ends each match where gnubg ended it: the same Position ID, Match ID and score;
- hraj plays seeded matches between random players that double, beaver, resign,
  accept and decline; gnubg imports their `.mat` export and ends where hraj ended;
- gnubg sets hraj's Position ID + Match ID and XGIDs and shows the same IDs, which
  hraj reads back.

`make test` installs gnubg like Chromium. Without it the test is skipped, except in
CI (`CI=true`), where a missing gnubg fails it. `HRAJ_GNUBG_MATCHES` sets how many
matches (money games) of each kind are played each way: 50 by default, about three
minutes on two busy cores (gnubg waits on its worker threads for every move);
`python -m benchmarks.backgammon_gnubg` plays 100 of each kind each way and prints the
counts and differences.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from hraj.core.record import parse_record
from hraj.games.backgammon.formats import export_mat, records_from_mat
from hraj.games.backgammon.formats.positions import gnubg_ids, state_from_gnubg, xgid
from hraj.games.backgammon.rules import BackgammonState

from . import gnubg

MATCHES = int(os.environ.get("HRAJ_GNUBG_MATCHES", "50"))
MONEY_GAMES = 5  # games in each money session gnubg plays
PROCESSES = 32  # gnubg processes at once: each mostly waits on its own worker threads


@pytest.fixture(scope="module", autouse=True)
def _gnubg() -> None:
    if not gnubg.available():
        message = "Debian's gnubg is not installed (make test installs it)"
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(message)  # in CI a missing gnubg is a failure, never a silent skip
        pytest.skip(message)


def _seeds(kind: str) -> list[int]:
    money = not gnubg.KINDS[kind][0].get("match_length")
    count = -(-MATCHES // MONEY_GAMES) if money else MATCHES
    return list(range(1, count + 1))


@pytest.fixture(scope="module")
def played() -> dict[str, list[gnubg.Played]]:
    """Every kind's gnubg matches, played by one pool of gnubg processes for all kinds
    (one match per job, longest first), so the test waits for the slowest job only."""
    jobs = [(kind, seed) for kind in gnubg.KINDS for seed in _seeds(kind)]
    jobs.sort(key=lambda job: -gnubg.KINDS[job[0]][0].get("match_length", 4))
    with ThreadPoolExecutor(PROCESSES) as pool:
        results = list(pool.map(lambda job: gnubg.play(job[0], [job[1]], MONEY_GAMES)[0], jobs))
    by_kind: dict[str, list[gnubg.Played]] = {kind: [] for kind in gnubg.KINDS}
    for one in results:
        by_kind[one.kind].append(one)
    return by_kind


@pytest.mark.parametrize("kind", list(gnubg.KINDS))
def test_hraj_reads_gnubgs_matches_to_the_same_end(kind: str, played: dict[str, list[gnubg.Played]]) -> None:
    options = gnubg.KINDS[kind][0]
    games = 0
    problems: list[str] = []
    for one in played[kind]:
        records = records_from_mat(one.mat, **options)
        games += len(records)
        problems += [f"seed {one.seed}: {what}" for what in gnubg.differences(gnubg.final_states(records), one.seen)]
    assert not problems, "\n".join(problems)
    assert games >= MATCHES


def _import_chunks(kind: str, texts: list[str]) -> list[gnubg.Seen]:
    """gnubg's imports of the texts, in a few processes at once."""
    chunks = [texts[index : index + 5] for index in range(0, len(texts), 5)]
    with ThreadPoolExecutor(len(chunks) or 1) as pool:
        return [one for chunk in pool.map(lambda chunk: gnubg.import_mats(kind, chunk), chunks) for one in chunk]


@pytest.mark.parametrize("kind", list(gnubg.KINDS))
def test_gnubg_imports_hrajs_matches_to_the_same_end(kind: str) -> None:
    records = [gnubg.hraj_record(kind, seed) for seed in range(1, MATCHES + 1)]
    seen = _import_chunks(kind, [export_mat(record) for record in records])
    problems = []
    for seed, record, one in zip(range(1, MATCHES + 1), records, seen, strict=True):
        problems += [f"seed {seed}: {what}" for what in gnubg.differences(gnubg.final_states([record]), one)]
    assert not problems, "\n".join(problems)
    words = {text.split()[0] for record in records for kind_, _, text in parse_record(record)[2] if kind_ == "move"}
    assert {"resign", "accept", "decline"} <= words
    if gnubg.KINDS[kind][0].get("cube", True):
        assert {"double", "take", "drop"} <= words


def _positions(kind: str) -> list[BackgammonState]:
    """Decision points of hraj matches that gnubg's `set` commands take: gnubg steps back
    from a pending double to the doubler's decision, and drops a pending resignation
    (keeping, or not, the player to decide), so beavers and resignations are left out."""
    return [
        state
        for seed in range(1, 4)
        for state in gnubg.hraj_positions(kind, seed)
        if state.offers < 2 and not state.resignation
    ]


@pytest.mark.parametrize("kind", list(gnubg.KINDS))
def test_gnubg_ids_travel_both_ways(kind: str) -> None:
    states = _positions(kind)
    seen = gnubg.read_ids([":".join(gnubg_ids(state)) for state in states])
    for state, one in zip(states, seen, strict=True):
        assert (one.position_id, one.match_id) == gnubg.as_gnubg_sets(state)
        options = {name: value for name, value in gnubg.KINDS[kind][0].items() if name != "match_length"}
        back = state_from_gnubg(one.position_id, one.match_id, **options)
        assert gnubg_ids(back) == (one.position_id, one.match_id)


@pytest.mark.parametrize("kind", list(gnubg.KINDS))
def test_gnubg_reads_hrajs_xgids_to_the_same_ids(kind: str) -> None:
    # gnubg asks to swap the players when the top player (seat 0) is on roll, so the
    # positions compared have the bottom player (seat 1) on roll.
    states = [state for state in _positions(kind) if state.on_roll == 1]
    seen = gnubg.read_ids([xgid(state) for state in states], xgid=True)
    assert states
    for state, one in zip(states, seen, strict=True):
        assert (one.position_id, one.match_id) == gnubg.as_gnubg_sets(state), xgid(state)
