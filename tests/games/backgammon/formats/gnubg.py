"""Driving Debian's GNU Backgammon (gnubg 1.07) in text mode for the interchange test.

gnubg plays itself at 0 ply from a seeded generator and exports `.mat` files; it also
imports hraj's `.mat` files and reads hraj's Position IDs, Match IDs and XGIDs. After
each job it prints its board (`show board`: the Position ID and Match ID of where it
stands) and the score (`show score`), which are compared with hraj's.

gnubg waits about 10-25 ms of wall time for every evaluation it hands to its worker
threads while its CPU stays idle, so the matches are played by several gnubg
processes at once.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hraj.core.record import Record

if TYPE_CHECKING:
    import random

    from hraj.games.backgammon.rules import BackgammonState

#: gnubg's binary: on PATH, or where Debian installs it.
GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"

#: The kinds of play compared: hraj's options and the gnubg settings that match them.
KINDS: dict[str, tuple[dict[str, int | bool], tuple[str, ...]]] = {
    "money": ({}, ("set jacoby off", "set beavers 0", "set cube use on")),
    "money without cube": ({"cube": False}, ("set jacoby off", "set beavers 0", "set cube use off")),
    "money, Jacoby": ({"jacoby": True}, ("set jacoby on", "set beavers 0", "set cube use on")),
    "money, beavers": ({"beavers": True}, ("set jacoby off", "set beavers 3", "set cube use on")),
    "3-point match": ({"match_length": 3}, ("set jacoby off", "set beavers 0", "set cube use on")),
    "5-point match": ({"match_length": 5}, ("set jacoby off", "set beavers 0", "set cube use on")),
    "7-point match": ({"match_length": 7}, ("set jacoby off", "set beavers 0", "set cube use on")),
}

_SETUP = (
    "set sound enable off",
    "set confirm new off",
    "set confirm save off",
    "set display off",
    "set rng mersenne",
    *(f"set player {seat} {what} evaluation plies 0" for seat in (0, 1) for what in ("chequerplay", "cubedecision")),
)
#: Where gnubg stands: its board with the IDs (shown only while display is on), and the score.
#: Each job ends by switching the display off again; gnubg says so on its standard
#: output (as it does once while it is set up), which keeps the jobs apart.
_SHOW = ("set display on", "show board", "show score", "set display off")
_DONE = "Will not display boards for computer moves."
_IDS = re.compile(r"Position ID: (\S{14})\s+Match ID\s*: (\S{12})")
_SCORE = re.compile(r"The score \(after \d+ games?\) is: (.*?) (\d+), (.*?) (\d+) \(")


def available() -> bool:
    return Path(GNUBG).is_file() and os.access(GNUBG, os.X_OK)


@dataclass
class Seen:
    """What gnubg showed after one job: its Position ID, Match ID and score."""

    position_id: str
    match_id: str
    score: tuple[int, int]
    names: tuple[str, str] = ("", "")


@dataclass
class Played:
    """A match (or money session) gnubg played, as it exported it."""

    kind: str
    seed: int
    mat: str
    seen: Seen
    games: int = field(default=0)


def run(commands: Sequence[str], timeout: float = 120) -> str:
    """gnubg's text output for a list of commands."""
    script = "\n".join([*_SETUP, *commands, ""])
    done = subprocess.run(
        [GNUBG, "-t", "-q"],
        input=script,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        timeout=timeout,
        check=False,
    )
    return done.stdout


def _seen_after_each(output: str, count: int) -> list[Seen]:
    """The board and score after each of `count` jobs, each closed by `show board` + `show score`."""
    seen: list[Seen] = []
    jobs = output.split(_DONE)[1:]
    if len(jobs) < count:
        raise AssertionError(f"gnubg stopped early:\n{output[-2000:]}")
    for job in jobs[:count]:
        scores = _SCORE.findall(job)
        ids = _IDS.findall(job)
        if not scores or not ids:
            raise AssertionError(f"gnubg printed no board or score:\n{job[-2000:]}")
        first, score0, second, score1 = scores[-1]
        seen.append(Seen(ids[-1][0], ids[-1][1], (int(score0), int(score1)), (first, second)))
    return seen


def play(kind: str, seeds: Sequence[int], money_games: int = 5) -> list[Played]:
    """gnubg plays one match (or a money session of `money_games` games) per seed."""
    options, settings = KINDS[kind]
    length = options.get("match_length", 0)
    with tempfile.TemporaryDirectory(prefix="hraj-gnubg-") as folder:
        commands = [f"set player {seat} gnubg" for seat in (0, 1)] + list(settings)
        paths = []
        for seed in seeds:
            path = Path(folder) / f"{seed}.mat"
            paths.append(path)
            commands.append(f"set seed {seed}")
            if length:  # gnubg starts each next game of the match by itself
                commands += ["set automatic game on", f"new match {length}"]
            else:  # a session never ends: one game at a time
                commands += ["set automatic game off", "new session"] + ["new game"] * money_games
            commands += [f"export match mat {path}", *_SHOW]
        output = run(commands)
        seen = _seen_after_each(output, len(seeds))
        return [
            Played(kind, seed, path.read_text(encoding="utf-8", errors="replace"), one)
            for seed, path, one in zip(seeds, paths, seen, strict=True)
        ]


def play_many(kind: str, seeds: Sequence[int], processes: int) -> list[Played]:
    """`play` spread over several gnubg processes that run at once."""
    chunks = [list(seeds[index::processes]) for index in range(processes) if seeds[index::processes]]
    with ThreadPoolExecutor(len(chunks) or 1) as pool:
        results = list(pool.map(lambda chunk: play(kind, chunk), chunks))
    return sorted((one for chunk in results for one in chunk), key=lambda one: one.seed)


def import_mats(kind: str, texts: Sequence[str]) -> list[Seen]:
    """gnubg imports each `.mat` text (with the kind's settings) and shows where it ends."""
    _, settings = KINDS[kind]
    with tempfile.TemporaryDirectory(prefix="hraj-gnubg-") as folder:
        commands = list(settings)
        for number, text in enumerate(texts):
            path = Path(folder) / f"{number}.mat"
            path.write_text(text, encoding="utf-8")
            commands += [f"import mat {path}", *_SHOW]
        return _seen_after_each(run(commands), len(texts))


def read_ids(ids: Sequence[str], xgid: bool = False) -> list[Seen]:
    """gnubg sets each position (`set gnubgid P:M` or `set xgid X`) and shows its IDs.

    The players are named `zero` and `one`: where gnubg swapped them (it offers to put
    the player on roll at the bottom after `set xgid`, and says yes when no one
    answers), `names` shows it."""
    commands = ["new session"]
    for text in ids:
        commands += ["set player 0 name zero", "set player 1 name one"]
        commands += [f"set xgid {text}" if xgid else f"set gnubgid {text}", *_SHOW]
    return _seen_after_each(run(commands), len(ids))


# --- hraj's side ----------------------------------------------------------------------------


def final_states(records: Sequence[Record]) -> list[BackgammonState]:
    """Each record replayed to its end by hraj's rules."""
    from hraj.games.backgammon.rules import Backgammon, BackgammonState

    found = []
    for record in records:
        state = Backgammon(**record["options"]).replay(record)
        assert isinstance(state, BackgammonState)
        found.append(state)
    return found


def differences(states: Sequence[BackgammonState], seen: Seen) -> list[str]:
    """How hraj's end of a match (or of a money session's games) differs from gnubg's.

    A match: the Position ID, the Match ID and the score. A money session: hraj keeps
    one record per game, so the last game's Position ID and Match ID apart from the
    score, and the session's score summed over the games."""
    from hraj.games.backgammon.formats.positions import gnubg_ids

    last = states[-1]
    position_id, match_id = gnubg_ids(last)
    found: list[str] = []
    if position_id != seen.position_id:
        found.append(f"Position ID {position_id} != gnubg's {seen.position_id}")
    if last.match_length:
        score = last.match_score
        if not _same_match_ids(match_id, seen.match_id, scores=True):
            found.append(f"Match ID {match_id} != gnubg's {seen.match_id}")
    else:
        totals = [0, 0]
        for state in states:
            winner, points, _ = state.games[-1]
            totals[winner] += points
        score = (totals[0], totals[1])
        if not _same_match_ids(match_id, seen.match_id, scores=False):
            found.append(f"Match ID {match_id} != gnubg's {seen.match_id} (scores aside)")
    if score != seen.score:
        found.append(f"score {score} != gnubg's {seen.score}")
    return found


def _same_match_ids(mine: str, theirs: str, scores: bool) -> bool:
    """Equal Match IDs; with `scores` False the scores aside (hraj scores each money game
    alone). Once a game is over, gnubg itself shows three fields differently when it
    played the game and when it imported it: the player to decide (who accepted a
    resignation, or who was on roll), the Crawford flag (of the next game, or of the
    game just played) and the dice of a roll before a resignation (kept, or dropped
    with a roll whose only play it would have made). Those are left aside there."""
    import dataclasses

    from hraj.games.backgammon.formats.match_id import GameState, decode_match_id

    first, second = decode_match_id(mine), decode_match_id(theirs)
    if not scores:
        second = dataclasses.replace(second, scores=first.scores)
    if first.game_state is not GameState.PLAYING:
        second = dataclasses.replace(second, turn=first.turn, crawford=first.crawford, dice=first.dice)
    return first == second


def hraj_record(kind: str, seed: int) -> Record:
    """A seeded match (or money game) of hraj's rules between two random players that
    also double, beaver, take, drop, resign, accept and decline now and then."""
    import random

    from hraj.games.backgammon.rules import Backgammon

    rng = random.Random(seed)
    state = Backgammon(**KINDS[kind][0]).new_state()
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
            continue
        seat = state.to_act[0]
        state.apply(seat, _random_choice([str(action) for action in state.legal_actions(seat)], rng))
    return state.record()


def _random_choice(actions: list[str], rng: random.Random) -> str:
    if "accept" in actions:
        return "accept" if rng.random() < 0.7 else "decline"
    resigns = [action for action in actions if action.startswith("resign")]
    if resigns and rng.random() < 0.01:
        return str(rng.choice(resigns))
    for word, chance in (("double", 0.08), ("beaver", 0.3), ("drop", 0.3)):
        if word in actions and rng.random() < chance:
            return word
    rest = [action for action in actions if not action.startswith("resign") and action not in ("double", "beaver")]
    if "take" in rest:
        return "take"
    return str(rng.choice(rest))


def hraj_positions(kind: str, seed: int, every: int = 7) -> list[BackgammonState]:
    """Every `every`-th decision point of a seeded hraj match of the kind (the random
    players above), with dice, doubles, beavers and resignations pending among them."""
    import random

    from hraj.games.backgammon.rules import Backgammon

    rng = random.Random(seed)
    state = Backgammon(**KINDS[kind][0]).new_state()
    kept = []
    step = 0
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
            continue
        step += 1
        if step % every == 0:
            kept.append(state.copy())
        seat = state.to_act[0]
        state.apply(seat, _random_choice([str(action) for action in state.legal_actions(seat)], rng))
    return kept


def swapped(match_id: str) -> str:
    """The Match ID with players 0 and 1 swapped (gnubg's `swap players`)."""
    import dataclasses

    from hraj.games.backgammon.formats.match_id import decode_match_id, encode_match_id

    key = decode_match_id(match_id)
    owner = None if key.cube_owner is None else 1 - key.cube_owner
    return encode_match_id(
        dataclasses.replace(
            key,
            cube_owner=owner,
            on_roll=1 - key.on_roll,
            turn=1 - key.turn,
            scores=(key.scores[1], key.scores[0]),
        )
    )


def as_gnubg_sets(state: BackgammonState) -> tuple[str, str]:
    """The IDs gnubg shows after `set gnubgid` with a state's IDs: gnubg's SetMatchID
    "cannot handle positions where a double has been offered" and steps back to the
    doubler's decision."""
    import dataclasses

    from hraj.games.backgammon.formats.match_id import decode_match_id, encode_match_id
    from hraj.games.backgammon.formats.positions import gnubg_ids

    position_id, match_id = gnubg_ids(state)
    key = decode_match_id(match_id)
    if key.double_offered:
        key = dataclasses.replace(key, double_offered=False, turn=key.on_roll)
    return position_id, encode_match_id(key)
