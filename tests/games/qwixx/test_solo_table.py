"""The exact solo table: it loads, it agrees with the rules engine roll by roll, its values make sense."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from hraj.games.qwixx import solo_table as st
from hraj.games.qwixx.rules import Qwixx, QwixxState

EMPTY = [0, 0, 0, 0]


@pytest.fixture(scope="module")
def table() -> st.SoloTable:
    return st.solo_table()


def rows_of(state: QwixxState) -> list[int]:
    return [st.ROW_INDEX[(mask.bit_length() - 1, mask.bit_count())] for mask in state.marks[0]]


def test_the_state_space_has_62_row_states_and_1953_pairs() -> None:
    assert st.N_ROWS == 62
    assert st.N_PAIRS == 1953
    assert st.ROW_POINTS[st.row_state(10, 11)] == 78  # 11 numbers and the lock


def test_the_empty_sheet_is_worth_the_published_optimum(table: st.SoloTable) -> None:
    assert table.value(EMPTY, 0) == pytest.approx(SOLO_OPTIMUM, abs=0.01)


def test_ended_sheets_are_worth_their_score(table: st.SoloTable) -> None:
    locked_red, locked_green = st.row_state(10, 6), st.row_state(10, 7)
    assert table.value([locked_red, 0, locked_green, 0], 1) == 28 + 36 - 5
    assert table.value([st.row_state(4, 3), 0, 0, 0], 4) == 6 - 20


def test_a_penalty_lowers_and_a_cross_raises_the_value(table: st.SoloTable) -> None:
    rng = np.random.default_rng(3)
    unlocked = [i for i, (p, _) in enumerate(st.ROW_STATES) if p < 10]
    for _ in range(200):
        rows = [int(r) for r in rng.choice(unlocked, 4)]
        penalties = int(rng.integers(0, 3))
        value = table.value(rows, penalties)
        assert table.value(rows, penalties + 1) < value
        p, c = st.ROW_STATES[rows[0]]
        if p >= 0 and c < p + 1:  # one more cross left of the last one only adds options
            assert table.value([st.row_state(p, c + 1), *rows[1:]], penalties) >= value - 0.01


def brute_force_turn(lookup: dict[tuple[int, ...], float], penalty: float, position: str) -> float:
    """The value of a turn by the rules engine: every roll, every white and colour choice."""
    base = QwixxState.from_position(Qwixx(players=1), position)
    in_play = [row for row in range(4) if not base.locked[row]]
    total, rolls = 0.0, 0
    for dice in itertools.product(range(1, 7), repeat=2 + len(in_play)):
        rolled = base.copy()
        rolled.apply_chance(base._make_roll(dice, in_play))
        best = -1e9
        for white in rolled.legal_actions(0) if rolled.to_act else [None]:
            after_white = rolled.copy()
            if white is not None:
                after_white.apply(0, white)
            crossed = white is not None and white.row >= 0
            if after_white.is_over:
                best = max(best, lookup[tuple(rows_of(after_white))])
                continue
            best = max(best, lookup[tuple(rows_of(after_white))] if crossed else penalty)
            for colour in after_white.legal_actions(0):
                if colour.row >= 0:
                    done = after_white.copy()
                    done.apply(0, colour)
                    best = max(best, lookup[tuple(rows_of(done))])
        total += best
        rolls += 1
    return total / rolls


def test_the_vectorised_turn_matches_the_rules_engine_on_every_roll() -> None:
    """Random successor values, so that any slip in the turn's bookkeeping shows."""
    position = "0: r2,3,4,5,6 y4,9 g12,10,9,8,7,2+ b3 p1"  # red may lock and end the game
    rng = np.random.default_rng(0)
    size = st.N_PAIRS + 1
    values = (rng.random((size, size)) * 100).astype(np.float32)
    values[st.INVALID, :] = values[:, st.INVALID] = st.ILLEGAL

    class Lookup(dict[tuple[int, ...], float]):
        def __missing__(self, rows: tuple[int, ...]) -> float:
            return float(values[st.PAIR_INDEX[rows[0], rows[1]], st.PAIR_INDEX[rows[2], rows[3]]])

    rows = rows_of(QwixxState.from_position(Qwixx(players=1), position))
    pa, pb = np.array([st.PAIR_INDEX[rows[0], rows[1]]]), np.array([st.PAIR_INDEX[rows[2], rows[3]]])
    fast = st.turn_values(values, np.array([33.0]), pa, pb)[0]
    assert fast == pytest.approx(brute_force_turn(Lookup(), 33.0, position), abs=1e-6)


def test_the_shipped_table_keeps_its_own_bellman_equation(table: st.SoloTable) -> None:
    position = "0: r2,3,4,5,6 y4,9 g12,10,9,8,7,2+ b3 p1"
    state = QwixxState.from_position(Qwixx(players=1), position)

    class Lookup(dict[tuple[int, ...], float]):
        def __missing__(self, rows: tuple[int, ...]) -> float:
            return table.value(list(rows), 1)

    penalty = table.value(rows_of(state), 2)
    assert table.value(rows_of(state), 1) == pytest.approx(brute_force_turn(Lookup(), penalty, position), abs=0.01)


#: The expectation of the shipped table (printed by `python -m hraj.games.qwixx.solo_table build`).
SOLO_OPTIMUM = 115.4831


def test_another_seats_turn_offers_the_white_sum_and_may_end_the_game() -> None:
    """The duel table's other turn, step by step by the rules engine (seat 0 waits, seat 1 rolls)."""
    position = "1: r2,3,4,5,6 y4,9 g12,10 b3 p1 / -"
    hazard = 0.25
    rng = np.random.default_rng(1)
    size = st.N_PAIRS + 1
    values = (rng.random((size, size)) * 100).astype(np.float32)
    values[st.INVALID, :] = values[:, st.INVALID] = st.ILLEGAL
    base = QwixxState.from_position(Qwixx(players=2), position)

    def worth(state: QwixxState) -> float:
        rows = [st.ROW_INDEX[(mask.bit_length() - 1, mask.bit_count())] for mask in state.marks[0]]
        later = float(values[st.PAIR_INDEX[rows[0], rows[1]], st.PAIR_INDEX[rows[2], rows[3]]])
        return hazard * state.score(0) + (1 - hazard) * later

    total = 0.0
    for white1, white2 in itertools.product(range(1, 7), repeat=2):
        rolled = base.copy()
        rolled.apply_chance(f"w{white1} w{white2} r1 y1 g1 b1")
        best = worth(base)
        for answer in rolled.legal_actions(0):
            if answer.row >= 0:
                crossed = base.copy()
                crossed._cross(0, answer)
                best = max(best, worth(crossed))
        total += best / 36
    rows = rows_of(base)
    pa, pb = np.array([st.PAIR_INDEX[rows[0], rows[1]]]), np.array([st.PAIR_INDEX[rows[2], rows[3]]])
    assert st.white_sum_values(values, pa, pb, 1, hazard)[0] == pytest.approx(total, abs=1e-6)


def test_a_row_another_seat_locks_is_valued_as_frozen_with_the_points_it_holds() -> None:
    """Each open row of a sheet freezes with the chance `freeze`: it keeps its points, takes
    no more crosses and counts as locked, as a locked row of ours with the fewest crosses
    does, less that row's points (red 2-6 holds 5 crosses, 15 points; the lock row, 28)."""
    freeze = 0.05
    rng = np.random.default_rng(2)
    size = st.N_PAIRS + 1
    values = (rng.random((st.MAX_PENALTIES, size, size)) * 100).astype(np.float32)
    values = np.maximum(values, values.transpose(0, 2, 1))  # a table is symmetric in its two pairs
    rows = [st.ROW_INDEX[(4, 5)], st.ROW_INDEX[(st.LOCK_POSITION, 7)], st.ROW_INDEX[(-1, 0)], st.ROW_INDEX[(3, 2)]]
    frozen = st.ROW_INDEX[(st.LOCK_POSITION, 6)]
    assert frozen == st.FROZEN_ROW and st.ROW_POINTS[frozen] == 28

    def worth(four: list[int]) -> float:
        return float(values[1, st.PAIR_INDEX[four[0], four[1]], st.PAIR_INDEX[four[2], four[3]]])

    expected = (1 - 3 * freeze) * worth(rows)  # yellow is locked already: three rows can freeze
    for row, points in ((0, 15), (2, 0), (3, 3)):
        then = rows[:]
        then[row] = frozen
        expected += freeze * (worth(then) + points - 28)
    pa, pb = np.array([st.PAIR_INDEX[rows[0], rows[1]]]), np.array([st.PAIR_INDEX[rows[2], rows[3]]])
    assert st.frozen_values(values, pa, pb, 1, freeze)[0] == pytest.approx(expected, abs=1e-4)
    # The pairs may come in either order.
    assert st.frozen_values(values, pb, pa, 1, freeze)[0] == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("argv", [["build", "--freeze", "0.01"], ["build", "--rising", "--freeze", "0.01"]])
def test_a_freeze_chance_without_the_duel_table_is_refused_before_building(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as refused:
        st.main(argv)
    assert refused.value.code == 2
    assert "--freeze" in capsys.readouterr().err


def test_the_duel_table_loads_and_values_the_free_white_sums() -> None:
    duel = st.duel_table()
    assert 0 < duel.value(EMPTY, 0) < 200
    assert duel.value(EMPTY, 1) < duel.value(EMPTY, 0)


def test_the_rising_chance_of_the_end_is_nil_early_and_grows_with_progress_and_penalties() -> None:
    progress = np.array([0, 12, 20, 28, 36, 44])
    ends = st.rising_hazard(progress, 0)
    assert ends[0] == ends[1] == 0.0
    assert np.all(np.diff(ends[1:]) > 0) and ends[-1] == max(st.RISING_HAZARD)
    assert np.all(st.rising_hazard(progress, 2) >= ends) and st.rising_hazard(progress, 2)[2] > ends[2]


def test_another_seats_turn_takes_a_chance_of_the_end_per_sheet() -> None:
    rng = np.random.default_rng(3)
    values = rng.uniform(0, 100, (st.N_PAIRS + 1, st.N_PAIRS + 1)).astype(np.float32)
    pa, pb = np.array([0, 5, 40]), np.array([7, 5, 100])
    hazards = np.array([0.0, 0.2, 0.45])
    together = st.white_sum_values(values, pa, pb, 1, hazards)
    for i, hazard in enumerate(hazards):
        alone = st.white_sum_values(values, pa[i : i + 1], pb[i : i + 1], 1, float(hazard))
        assert together[i] == pytest.approx(alone[0])


def test_the_table_of_three_loads_against_the_duel_table_and_values_two_free_white_sums() -> None:
    duel, trio = st.duel_table(), st.trio_table()
    assert st.table_for(2) is duel and st.table_for(3) is trio and st.table_for(5) is trio
    assert 0 < trio.value(EMPTY, 0) < 200
    assert trio.value(EMPTY, 1) < trio.value(EMPTY, 0)
    # Stored as its difference from the duel table, it differs wherever another seat's
    # extra white sum and chance of the end matter: nearly everywhere.
    assert trio.quantised.shape == duel.quantised.shape
    assert np.count_nonzero(trio.quantised != duel.quantised) > trio.quantised.size // 2


def test_a_table_stored_as_a_difference_reads_back_within_its_coarser_step(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    base = st.SoloTable(st.quantise(rng.uniform(0, 150, (4, st.N_PAIRS + 1, st.N_PAIRS + 1)).astype(np.float32)))
    values = rng.uniform(0, 150, (4, st.N_PAIRS + 1, st.N_PAIRS + 1)).astype(np.float32)
    path = tmp_path / "trio_table.npz"
    st.save_difference(values, base, path)
    with np.load(path) as data:
        restored = base.quantised.astype(np.int32) + int(data["steps"]) * data["difference"].astype(np.int32)
    exact = st.quantise(values).astype(np.int32)
    assert np.abs(restored - exact).max() <= st.TRIO_STEPS // 2
