"""The evaluator: the shipped net loads and gives valid, nested probabilities; finished
positions are exact; the equity is gnubg's."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from hraj.games.backgammon.afterstates import afterstates, swap
from hraj.games.backgammon.bearoff import bearoff_probabilities
from hraj.games.backgammon.evaluator import (
    CONTACT,
    INPUTS,
    RACE,
    Evaluator,
    Net,
    contact,
    cubeless_equity,
    encode,
    flip,
    shipped,
)
from hraj.games.backgammon.moves import START, is_contact, pip_count


def _random_positions(count: int, seed: int) -> np.ndarray:
    rng = random.Random(seed)
    found: list[np.ndarray] = []
    position = np.array(START + START, dtype=np.int8)
    while len(found) < count:
        found.append(position)
        _, after = afterstates(position, (rng.randint(1, 6), rng.randint(1, 6)))
        chosen = after[rng.randrange(len(after))]
        position = np.array(START + START, dtype=np.int8) if chosen[0] == 15 else swap(chosen)
    return np.array(found)


def test_the_shipped_net_loads_with_its_training_configuration() -> None:
    net = shipped()
    games, command = net.config["games"], net.config["command"]
    assert isinstance(games, int) and games > 0
    assert isinstance(command, str) and "--seed" in command
    assert net.config["hidden"] == net.hidden


def test_probabilities_are_valid_and_nested() -> None:
    positions = _random_positions(400, seed=3)
    p = shipped().probabilities(positions)
    assert p.shape == (400, 5)
    assert ((p >= 0) & (p <= 1)).all()
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = p.T
    assert (win_gammon <= win).all() and (win_backgammon <= win_gammon).all()
    assert (lose_gammon <= 1 - win).all() and (lose_backgammon <= lose_gammon).all()


def test_the_start_is_about_even() -> None:
    win, *_ = shipped().evaluate(START, START)
    assert 0.35 < win < 0.65


def _board(off: int, **points: int) -> list[int]:
    board = [0] * 26
    board[0] = off
    for name, count in points.items():
        board[int(name[1:])] = count
    return board


@pytest.mark.parametrize(
    ("theirs", "expected"),
    [
        (_board(1, p3=14), [1, 0, 0, 0, 0]),  # a single game: the loser has borne off one
        (_board(0, p3=15), [1, 1, 0, 0, 0]),  # a gammon: none off
        (_board(0, p3=14, p20=1), [1, 1, 1, 0, 0]),  # a backgammon: one in the winner's home
        (_board(0, p3=14, p25=1), [1, 1, 1, 0, 0]),  # a backgammon: one on the bar
    ],
)
def test_finished_positions_are_exact(theirs: list[int], expected: list[int]) -> None:
    won = _board(15)
    net = Evaluator.random(8, seed=1)
    assert net.evaluate(won, theirs).tolist() == expected
    # the same game seen by the loser, on roll
    assert net.evaluate(theirs, won).tolist() == flip(np.array(expected, dtype=float)).tolist()


def test_cubeless_equity_in_points_a_game() -> None:
    assert cubeless_equity(np.array([1.0, 0, 0, 0, 0])) == 1
    assert cubeless_equity(np.array([1.0, 1, 1, 0, 0])) == 3
    assert cubeless_equity(np.array([0.0, 0, 0, 1, 0])) == -2
    assert cubeless_equity(np.array([0.5, 0.1, 0.0, 0.2, 0.05])) == pytest.approx(-0.15)


def test_flip_twice_is_the_same() -> None:
    p = np.array([0.6, 0.2, 0.05, 0.1, 0.01])
    assert np.allclose(flip(flip(p)), p)
    assert cubeless_equity(flip(p)) == pytest.approx(-cubeless_equity(p))


def test_the_cheap_inputs_are_pips_men_off_and_contact() -> None:
    positions = _random_positions(300, seed=4)
    inputs = encode(positions)
    mine, theirs = positions[:, :26], positions[:, 26:]
    assert np.allclose(inputs[:, -5] * 15, mine[:, 0]) and np.allclose(inputs[:, -4] * 15, theirs[:, 0])
    assert np.allclose(inputs[:, -3] * 167, [pip_count(row.tolist()) for row in mine], atol=1e-3)
    assert np.allclose(inputs[:, -2] * 167, [pip_count(row.tolist()) for row in theirs], atol=1e-3)
    assert contact(positions).tolist() == [is_contact(list(m), list(t)) for m, t in zip(mine, theirs, strict=True)]


def test_a_race_goes_to_the_race_net_and_contact_to_the_contact_net() -> None:
    positions = _random_positions(300, seed=5)
    touching = contact(positions)
    assert touching.any() and (~touching).any()
    net = Evaluator.random(8, seed=2)
    net.bearoff = False
    before = net.raw(positions)
    net.nets[CONTACT].output_bias += 1.0  # only the contact net changes
    after = net.raw(positions)
    assert np.allclose(after[~touching], before[~touching]) and not np.allclose(after[touching], before[touching])


def test_bear_offs_come_from_the_database() -> None:
    mine, theirs = _board(9, p1=3, p2=3), _board(5, p3=4, p6=6)
    exact = bearoff_probabilities(mine, theirs)
    assert exact is not None
    assert np.allclose(Evaluator.random(8, seed=2).evaluate(mine, theirs), exact)


def test_saved_nets_load_as_they_were(tmp_path: Path) -> None:
    net = Evaluator.random(8, seed=3)
    net.save(tmp_path / "nets.npz")
    loaded = Evaluator.load(tmp_path / "nets.npz")
    positions = _random_positions(50, seed=6)
    assert set(loaded.nets) == {RACE, CONTACT} and loaded.encoding == "expert"
    assert np.array_equal(loaded.probabilities(positions), net.probabilities(positions))


def test_a_file_of_one_net_on_raw_inputs_loads_as_such(tmp_path: Path) -> None:
    one = Net.random(INPUTS, 6, seed=4)
    parts: dict[str, np.ndarray] = dict(zip(Net.PARTS, one.arrays(), strict=True))
    np.savez(tmp_path / "old.npz", allow_pickle=False, **parts)
    loaded = Evaluator.load(tmp_path / "old.npz")
    positions = _random_positions(20, seed=7)
    assert loaded.encoding == "raw" and set(loaded.nets) == {"all"}
    assert np.allclose(loaded.raw(positions), one.forward(encode(positions))[1])
    with pytest.raises(ValueError, match="race and a contact net"):
        Evaluator({RACE: one})
