"""hraj records to and from `.mat` matches: gnubg's files import, exports import back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import hraj
from hraj.core import random_playout
from hraj.core.errors import InvalidRecord
from hraj.core.game import FORFEIT
from hraj.core.jsondata import GameOptions
from hraj.core.record import EventRow, Record, parse_record
from hraj.games.backgammon.formats import FormatError, export_mat, load_file, load_position, records_from_mat
from hraj.games.backgammon.formats.mat import parse_mat
from hraj.games.backgammon.formats.mat_record import export_session
from hraj.games.backgammon.rules import MOVE, Backgammon, BackgammonState

DATA = Path(__file__).parent / "data"
GNUBG_FILE = DATA / "gnubg_5_point_match.mat"


def test_gnubg_export_imports_as_one_record_that_replays():
    [record] = load_file(GNUBG_FILE)
    assert record["options"]["match_length"] == 5
    state = Backgammon(match_length=5).replay(record)
    assert isinstance(state, BackgammonState)
    assert state.match_score == (3, 1)
    assert [game[:2] for game in state.games] == [(0, 1), (0, 2), (1, 1)]
    events = record["events"]
    assert events[:2] == [["chance", None, "31"], ["move", 0, "8/5 6/5"]]
    # `13/7*` hits; `25/21` enters from the bar; the play is stored canonically.
    assert ["move", 0, "13/7 13/11"] in events
    assert ["move", 1, "bar/21 24/23"] in events
    # Game 2 opens in the right column: seat 1 won the opening roll with 5 against 2.
    assert ["chance", None, "25"] in events


def test_export_of_the_gnubg_match_reproduces_gnubgs_lines():
    [record] = records_from_mat(GNUBG_FILE.read_text())
    original = GNUBG_FILE.read_text()
    exported = export_mat(record, ("Alice", "Bob"))
    body = original[original.index(" 5 point match") :]
    assert exported.endswith(body)
    assert exported.startswith('; [Site "hraj"]\n; [Player 1 "Alice"]\n; [Player 2 "Bob"]\n')


def test_jellyfish_style_combined_moves_and_a_drop_in_the_left_column():
    text = """ 0 point match

 Game 1
 jelly : 0                            fish : 0
  1) 65: 24/13                        31: 8/5 6/5
  2) 55: 13/3(2)                       Doubles => 2
  3)  Drops                            Wins 1 point
"""
    [record] = records_from_mat(text)
    state = hraj.game("backgammon").replay(record)
    assert state.outcome is not None
    assert state.outcome.winners == (1,)
    assert ["move", 0, "24/18 18/13"] in record["events"] or ["move", 0, "24/19 19/13"] in record["events"]
    assert ["move", 0, "13/8 13/8 8/3 8/3"] in record["events"]


def test_a_wins_line_without_a_drop_or_bear_off_is_the_losers_resignation_accepted():
    text = " 3 point match\n\n Game 1\n a : 0     b : 0\n  1) 31: 8/5 6/5\n      Wins 2 points\n"
    [record] = records_from_mat(text)
    assert record["events"][-3:] == [["move", 1, "resign 2"], ["move", 0, "accept"], ["auto", 0, "wins 2"]]


def test_a_resignation_after_the_roll_keeps_the_roll():
    text = " 3 point match\n\n Game 1\n a : 0     b : 0\n  1) 31: 8/5 6/5                 42: \n      Wins 1 point\n"
    [record] = records_from_mat(text)
    assert record["events"][-4:] == [
        ["chance", None, "42"],
        ["move", 1, "resign 1"],
        ["move", 0, "accept"],
        ["auto", 0, "wins 1"],
    ]


def test_a_money_session_gives_one_record_per_game_and_two_matches_two_records():
    game = " Game {n}\n a : 0     b : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n\n"
    session = " 0 point match\n\n" + game.format(n=1) + game.format(n=2)
    assert len(records_from_mat(session)) == 2
    two = " 1 point match\n\n" + game.format(n=1) + " 1 point match\n\n" + game.format(n=1)
    assert len(records_from_mat(two)) == 2


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/4 6/5\n", "8/4"),  # not the dice
        (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 33: 8/5 6/3\n", "33"),  # doubles cannot open
        (" 3 point match\n\n Game 1\n a : 0   b : 1\n  1) 31: 8/5 6/5\n", "0-1"),  # score from nowhere
        (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5    Takes\n", "take"),  # take of no double
        (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5    Doubles => 4\n", "4"),
        (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5\n       Wins 5 points\n", "5"),
        (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31:                        42: 8/4 6/4\n", "no play"),
    ],
)
def test_files_that_break_the_rules_are_refused_with_game_and_cell(text, reason):
    with pytest.raises(InvalidRecord) as error:
        records_from_mat(text)
    assert "Game 1" in str(error.value)
    assert reason in str(error.value)


def test_load_file_refuses_a_position_file_and_load_position_reads_it(tmp_path):
    path = tmp_path / "position.txt"
    path.write_text("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10\n")
    with pytest.raises(FormatError):
        load_file(path)
    assert load_position(path).dice == (5, 2)


def _choose(state: BackgammonState, seat: int, rng: random.Random) -> str:
    """A random player that doubles, beavers and resigns now and then, and never declines."""
    actions = [str(action) for action in state.legal_actions(seat)]
    if "accept" in actions:
        return "accept"
    resigns = [action for action in actions if action.startswith("resign")]
    if resigns and rng.random() < 0.01:
        return rng.choice(resigns)
    if "double" in actions and rng.random() < 0.15:
        return "double"
    if "beaver" in actions and rng.random() < 0.3:
        return "beaver"
    return rng.choice([action for action in actions if not action.startswith("resign") and action != "double"])


def as_gnubg_keeps(record: Record) -> Record:
    """The record less the roll before a resignation (or a loss on time) when that roll
    had a single legal play: gnubg would play it, so the export leaves the roll out."""
    game = Backgammon(**record["options"])
    state = game.new_state()
    kept: list[EventRow] = []
    for kind, seat, text in parse_record(record)[2]:
        ends = text.startswith("resign") or text == FORFEIT
        if kind == "move" and ends and state.phase == MOVE and len(state.play_steps()) == 1:
            while kept[-1][0] == "chance" or kept[-1][2] == "roll":
                kept.pop()
        kept.append([kind, seat, text])
        if kind == "chance":
            state.apply_chance(text)
        elif kind == "move" and seat is not None:
            state.apply(seat, text)
    return {**record, "events": kept}


def _random_record(seed: int, options: GameOptions) -> Record:
    rng = random.Random(seed)
    state = Backgammon(**options).new_state()
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            seat = state.to_act[0]
            state.apply(seat, _choose(state, seat, rng))
    return state.record()


OPTION_SETS: list[GameOptions] = [
    {},
    {"match_length": 3},
    {"match_length": 7},
    {"jacoby": True, "beavers": True},
    {"cube": False, "match_length": 5},
    {"variant": "seed", "match_length": 3},
    {"first": 1, "match_length": 3},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda options: str(options) or "money")
@pytest.mark.parametrize("seed", range(6))
def test_exported_random_matches_import_back_identically(options, seed):
    record = _random_record(seed * 101 + len(options), options)
    text = export_mat(record)
    assert records_from_mat(text) == [as_gnubg_keeps(record)]
    # and the text is laid out so that reading and writing it changes nothing
    assert export_mat(records_from_mat(text)[0]) == text
    assert parse_mat(text).length == record["options"]["match_length"]


def test_random_matches_cover_cube_actions_resignations_and_bear_offs():
    kinds: set[str] = set()
    for seed in range(6):
        for options in OPTION_SETS:
            for _, _, text in parse_record(_random_record(seed * 101 + len(options), options))[2]:
                kinds.add(text.split()[0] if not text[0].isdigit() and "/" not in text else "play")
                if "/off" in text:
                    kinds.add("bear off")
                if text.startswith("bar/"):
                    kinds.add("enter")
    assert {"double", "take", "drop", "beaver", "resign", "accept", "no", "bear off", "enter"} <= kinds


def test_unfinished_matches_stopped_after_a_roll_or_a_play_import_back_identically():
    record = _random_record(7, {"match_length": 5})
    events = parse_record(record)[2]
    cut_points = [
        index + 1
        for index, (kind, _, text) in enumerate(events)
        if (kind == "chance" or "/" in text) and (index + 1 == len(events) or events[index + 1][0] != "auto")
    ]
    assert len(cut_points) > 20
    for cut in cut_points[::5]:
        partial = {**record, "events": record["events"][:cut]}
        assert records_from_mat(export_mat(partial)) == [partial]


def _lost_on_time(seed: int, length: int) -> BackgammonState:
    """A seeded random match whose player to act loses it on time after up to 300 steps,
    in the first game or a later one."""
    rng = random.Random(seed)
    state = Backgammon(match_length=length).new_state()
    for _ in range(rng.randrange(1, 300)):
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply(state.to_act[0], _choose(state, state.to_act[0], rng))
        if state.is_over:
            state = Backgammon(match_length=length).new_state()
    while state.is_chance:
        state.apply_chance(state.sample_chance(rng))
    state.forfeit(state.to_act[0])
    return state


def as_read_back(record: Record) -> Record:
    """What a match lost on time reads back as: the same record, except that a loss
    worth exactly a backgammon at the cube is that resignation, accepted (`.mat` has
    no word for the time running out, only the `Wins` line)."""
    kept = as_gnubg_keeps(record)
    events = kept["events"]
    *_, (_, loser, forfeit), (_, winner, wins) = events
    assert forfeit == FORFEIT
    before = Backgammon(**record["options"]).replay({**kept, "events": events[:-2]})
    assert isinstance(before, BackgammonState)
    if wins != f"wins {3 * before.stake}":
        return kept
    return {**kept, "events": [*events[:-2], ["move", loser, "resign 3"], ["move", winner, "accept"], events[-1]]}


@pytest.mark.parametrize("seed", range(12))
def test_a_match_lost_on_time_writes_the_points_that_end_it_and_reads_back(seed: int) -> None:
    state = _lost_on_time(seed, 7)
    winner, points, how = state.games[-1]
    assert how == FORFEIT and state.match_score[winner] >= 7
    text = export_mat(state.record())
    assert text.rstrip("\n").splitlines()[-1] == (" " * 34 if winner else " " * 6) + f"Wins {points} points"
    assert records_from_mat(text) == [as_read_back(state.record())]


def test_matches_lost_on_time_cover_the_cube_the_roll_and_points_beyond_a_backgammon() -> None:
    seen: set[str] = set()
    for seed in range(12):
        state = _lost_on_time(seed, 7)
        events = parse_record(state.record())[2]
        kind, _, text = events[-3]
        seen.add("after the roll" if kind == "chance" else "at a double" if text == "double" else "at the cube")
        seen.add("beyond" if as_read_back(state.record())["events"][-2][2] == FORFEIT else "a backgammon")
    assert {"after the roll", "at the cube", "beyond", "a backgammon"} <= seen


def test_a_match_lost_on_time_at_a_double_reads_back() -> None:
    state = Backgammon(match_length=7).new_state()
    state.apply_chance("31")
    state.apply(0, "8/5 6/5")
    state.apply(1, "double")
    state.forfeit(0)
    text = export_mat(state.record())
    assert text.endswith("  1) 31: 8/5 6/5                  Doubles => 2\n" + " " * 34 + "Wins 7 points\n\n")
    assert records_from_mat(text) == [state.record()]


def test_more_points_than_the_match_needs_are_no_loss_on_time() -> None:
    text = " 7 point match\n\n Game 1\n a : 0     b : 0\n  1) 31: 8/5 6/5\n      Wins 8 points\n"
    with pytest.raises(InvalidRecord, match="8 points is no resignation with the cube at 1"):
        records_from_mat(text)


# --- as gnubg 1.07 writes and reads .mat files --------------------------------------------------


def test_jacoby_resign_2_at_cube_1_round_trips_as_gnubg_counts_it() -> None:
    state = Backgammon(jacoby=True).new_state()
    state.apply_chance("31")
    state.apply(0, "8/5 6/5")
    state.apply(1, "resign 2")
    state.apply(0, "accept")
    text = export_mat(state.record())
    assert "Wins 2 points" in text  # level times the cube, as gnubg writes and scores it
    assert records_from_mat(text) == [state.record()]


def _one_play_roll(seed: int) -> BackgammonState | None:
    """A seeded random game without the cube, stopped at the first roll with a single legal play."""
    rng = random.Random(seed)
    state = Backgammon(cube=False).new_state()
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        elif state.phase == MOVE and len(state.play_steps()) == 1:
            return state
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.playout_actions(seat)))
    return None


def test_a_resignation_after_a_roll_with_one_legal_play_leaves_the_roll_out() -> None:
    # gnubg would make the only play of such a roll by itself on import and end on
    # another position, so the export leaves the roll out: both end before the roll.
    state = next(found for seed in range(50) if (found := _one_play_roll(seed)) is not None)
    roll = f"{state.dice[0]}{state.dice[1]}:" if state.dice else ""
    seat = state.turn
    before = export_mat(state.record())
    state.apply(seat, "resign 1")
    state.apply(1 - seat, "accept")
    text = export_mat(state.record())
    assert before.count(roll) == text.count(roll) + 1  # the bare roll is gone
    back = records_from_mat(text)[0]
    final = Backgammon(cube=False).replay(back)
    assert isinstance(final, BackgammonState)
    assert final.boards == state.boards and final.games == state.games


def test_gnubgs_beaver_is_a_double_by_the_doubled_player() -> None:
    text = (
        " 0 point match\n\n Game 1\n a : 0                          b : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n"
        "  2)  Doubles => 4                Takes\n"
        "  3)                             21: 13/11 6/5 \n"
    )
    record = records_from_mat(text)[0]
    moves = [text for kind, _, text in record["events"] if kind == "move"]
    assert moves[:4] == ["8/5 6/5", "double", "beaver", "take"]
    assert record["options"]["beavers"] and record["players"] == ["a", "b"]
    again = export_mat(record)
    assert "Doubles => 4" in again and "Beavers" not in again


def test_a_gnubg_money_session_takes_the_jacoby_rule_from_its_running_scores() -> None:
    # Seeded random games with the Jacoby rule: game 1 ends in a gammon at a centred
    # cube, which gnubg writes as "Wins 2 points" though it scored 1.
    records = []
    for seed in (0, 3):
        state = random_playout(Backgammon(jacoby=True).new_state(), random.Random(seed))
        records.append(state.record())
    text = export_session(records)
    assert "Wins 2 points" in text and " " + f"{'Player 1 : 0':<31}" + "Player 2 : 1" in text
    without_header = "".join(line for line in text.splitlines(keepends=True) if "[Jacoby" not in line)
    back = records_from_mat(without_header)
    assert [record["options"]["jacoby"] for record in back] == [True, True]
    assert [record["events"] for record in back] == [record["events"] for record in records]
