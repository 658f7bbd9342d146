"""The table bots: legal play, a value for every option, the best-valued option played, solo strength."""

from __future__ import annotations

import random
import statistics

import pytest

import hraj
from hraj.core import play_game
from hraj.core.bot import bot_levels, bot_names, default_bot, make_bot
from hraj.games.qwixx import table_bots
from hraj.games.qwixx.bots import BOTS
from hraj.games.qwixx.rules import Cross, Qwixx, QwixxState
from hraj.games.qwixx.solo_table import duel_table, solo_table
from hraj.games.qwixx.table_bots import MasterQwixxBot, OptimalQwixxBot, Sheet, SoloOptimalQwixxBot, TableBot
from hraj.i18n import bot_label


def play_checked(players: int, names: list[str], seed: int, searched: int = 0) -> QwixxState:
    """A seeded game in which every decision is checked against the bot's own values."""
    rng = random.Random(seed)
    state = hraj.game("qwixx", players=players).new_state()
    bots = [make_bot("qwixx", name, seed * 10 + seat) for seat, name in enumerate(names)]
    for bot in bots:
        if isinstance(bot, MasterQwixxBot) and searched:
            bot.searched, bot.rolls = searched, 4
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
            continue
        seat = state.to_act[0]
        seen = state.determinize(seat, rng)
        bot = bots[seat]
        action = bot.choose(seen, seat)
        if isinstance(bot, TableBot):
            assert isinstance(seen, QwixxState)
            values = bot.values(seen, seat)
            assert isinstance(action, Cross)
            assert [str(a) for a, _ in values] == [str(a) for a in seen.legal_actions(seat)]
            assert dict(values)[action] == max(value for _, value in values)
        state.apply(seat, action)  # apply checks legality
    assert isinstance(state, QwixxState)
    return state


@pytest.mark.parametrize(
    ("players", "names"), [(1, ["optimal"]), (1, ["master"]), (3, ["master", "optimal", "greedy"])]
)
def test_table_bots_play_legally_and_play_their_best_valued_option(players: int, names: list[str]) -> None:
    for seed in range(3):
        assert play_checked(players, names, seed).outcome is not None


def test_master_searching_the_next_turn_plays_legally_and_plays_its_best_valued_option() -> None:
    assert play_checked(2, ["master", "greedy"], 4, searched=2).outcome is not None


def test_solo_values_are_expected_points_and_the_mean_is_near_the_optimum() -> None:
    scores = []
    for seed in range(60):
        outcome = play_game(Qwixx(players=1).new_state(), [OptimalQwixxBot(seed)], random.Random(seed)).outcome
        assert outcome is not None
        scores.append(outcome.scores[0])
    expected = solo_table().value([0, 0, 0, 0], 0)
    # 60 games: the standard error is about 3.5 points; the seeded mean is fixed.
    assert abs(statistics.fmean(scores) - expected) < 12


def test_white_sum_value_counts_the_colour_step_the_dice_allow() -> None:
    state = QwixxState.from_position(Qwixx(players=1), "0: -")
    state.apply_chance("w1 w1 r1 y6 g6 b6")
    values = dict(OptimalQwixxBot(0).values(state, 0))
    after_red_2 = dict(OptimalQwixxBot(0).values(_after(state, "r2"), 0))
    assert values[Qwixx().parse_action("r2")] == pytest.approx(max(after_red_2.values()))


def _after(state: QwixxState, action: str) -> QwixxState:
    nxt = state.copy()
    nxt.apply(0, action)
    return nxt


def test_master_ends_a_game_it_leads_and_not_one_it_trails() -> None:
    ahead = QwixxState.from_position(Qwixx(players=2), "0: r2,3,4,5,6,7,8 g12,11,10,9,8,7,6,5,4,3,2+ / b12")
    ahead.apply_chance("w6 w6 r1 y1 b1")
    assert str(MasterQwixxBot(0).choose(ahead, 0)) == "r12"
    values = dict(MasterQwixxBot(0).values(ahead, 0))
    assert values[Qwixx().parse_action("r12")] == 1.0  # the game ends with a win

    trailing = "0: r2,3,4,5,6 / g12,11,10,9,8,7,6,5,4,3,2+ b12,11,10,9,8,7,6,5"
    behind = QwixxState.from_position(Qwixx(players=2), trailing)
    behind.apply_chance("w6 w6 r1 y1 b1")
    assert str(MasterQwixxBot(0).choose(behind, 0)) != "r12"


def test_a_row_locked_by_another_keeps_its_points_in_the_value() -> None:
    state = QwixxState.from_position(Qwixx(players=2), "0: r2,3,4 g12,11 / r5,6,7,8,9,12+ y2")

    mine = Sheet(state.marks[0], 0)
    assert mine.score(state.locked) == 6 + 3
    assert mine.value(solo_table(), state.locked) > mine.score(state.locked)


def test_three_levels_with_the_middle_one_as_default() -> None:
    levels = bot_levels("qwixx")
    assert list(levels) == ["greedy", "optimal", "master"]
    assert set(levels) <= set(BOTS)
    assert default_bot("qwixx") == "optimal"
    assert bot_label("qwixx", "master", "cs").startswith("Mistr")
    assert bot_label("qwixx", "optimal", "sk").startswith("Pokročilý")
    assert bot_label("qwixx", "greedy", "en").startswith("Beginner")
    assert default_bot("trefa") in bot_names("trefa")


def test_with_others_optimal_reads_the_duel_table_and_solo_optimal_the_solo_one() -> None:
    state = QwixxState.from_position(Qwixx(players=2), "0: r2,3 / g12")
    state.apply_chance("w3 w4 r1 y1 g1 b1")
    solo = dict(SoloOptimalQwixxBot(0).values(state, 0))
    duel = dict(OptimalQwixxBot(0).values(state, 0))
    assert solo.keys() == duel.keys()
    assert solo != duel
    alone = QwixxState.from_position(Qwixx(players=1), "0: r2,3")
    alone.apply_chance("w3 w4 r1 y1 g1 b1")
    assert dict(OptimalQwixxBot(0).values(alone, 0)) == dict(SoloOptimalQwixxBot(0).values(alone, 0))


def test_master_reads_the_table_of_three_with_three_players(monkeypatch: pytest.MonkeyPatch) -> None:
    state = QwixxState.from_position(Qwixx(players=3), "0: r2,3 g12 / y2,4 / b12,10")
    state.apply_chance("w3 w4 r1 y1 g1 b1")
    by_three = dict(MasterQwixxBot(0).values(state, 0))
    monkeypatch.setattr(table_bots, "table_for", lambda players: duel_table())
    by_duel = dict(MasterQwixxBot(0).values(state, 0))
    assert by_three.keys() == by_duel.keys() and by_three != by_duel
