"""Distilling the 1-ply search into the net: positions, labels, fitting, reproducible and resumable."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hraj.games.backgammon.bearoff import bearoff_probabilities
from hraj.games.backgammon.distil import DistilConfig, collect, label, main, run, widen
from hraj.games.backgammon.evaluator import CONTACT, OFF, SIDE, Evaluator
from hraj.games.backgammon.features import INPUTS
from hraj.games.backgammon.fit import gradients, loss
from hraj.games.backgammon.moves import CHECKERS, START
from hraj.games.backgammon.search import on_roll, one_ply_on_roll

SMALL = DistilConfig(seed=3, positions=60, rounds=2, epochs=2, batch=16)


def _net() -> Evaluator:
    return Evaluator.random(6, seed=2)


def _weights(net: Evaluator) -> list[np.ndarray]:
    return [array for kind in sorted(net.nets) for array in net.nets[kind].arrays()]


def _same(a: Evaluator, b: Evaluator) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(_weights(a), _weights(b), strict=True))


def test_positions_come_from_unfinished_games_and_vary_with_the_seed() -> None:
    net = _net()
    positions = collect(net, np.random.default_rng(1), 200, SMALL)
    assert positions.shape == (200, 2 * SIDE)
    assert (positions[:, OFF] < CHECKERS).all() and (positions[:, SIDE + OFF] < CHECKERS).all()
    assert (positions[:, :SIDE].sum(axis=1) == CHECKERS).all() and (positions[:, SIDE:].sum(axis=1) == CHECKERS).all()
    assert len({row.tobytes() for row in positions}) > 150  # every stage of the games, not only the start
    again = collect(net, np.random.default_rng(1), 200, SMALL)
    other = collect(net, np.random.default_rng(2), 200, SMALL)
    assert np.array_equal(positions, again) and not np.array_equal(positions, other)


def test_labels_are_the_one_ply_values_and_bear_offs_are_exact() -> None:
    net = _net()
    race = np.zeros(2 * SIDE, dtype=np.int8)
    race[1:4] = 5  # five checkers on each of my points 1-3
    race[SIDE + 6] = 15  # all of theirs on their six point
    contact = np.array(START + START, dtype=np.int8)
    targets = label(net, np.array([race, contact]))
    exact = bearoff_probabilities(race[:SIDE].tolist(), race[SIDE:].tolist())
    assert exact is not None and np.allclose(targets[0], exact)
    assert np.allclose(targets[1], one_ply_on_roll(net, contact))
    assert np.allclose(label(net, np.array([contact]), plies=2)[0], on_roll(net, contact[np.newaxis], 2)[0])


def test_the_gradient_is_the_cross_entropys() -> None:
    net = _net()
    positions = np.tile(np.array(START + START, dtype=np.int8), (3, 1))  # contact
    targets = np.random.default_rng(6).uniform(0.1, 0.9, (3, 5))
    one = net.nets[CONTACT]
    _, grads = gradients(one, net.encode(positions), targets.astype(np.float32))
    step = 1e-2
    one.output_bias[0] += step
    up = loss(net, positions, targets)
    one.output_bias[0] -= 2 * step
    down = loss(net, positions, targets)
    assert (up - down) / (2 * step) == pytest.approx(float(grads[3][0]), rel=0.02)


def test_added_hidden_units_start_silent() -> None:
    net = _net()
    positions = collect(net, np.random.default_rng(7), 20, SMALL)
    wider = widen(net, 10, np.random.default_rng(8))
    assert all(one.hidden_weights.shape == (INPUTS, 10) for one in wider.nets.values())
    assert np.allclose(wider.raw(positions), net.raw(positions))
    assert widen(net, 4, np.random.default_rng(8)).hidden == 6  # never fewer


def test_the_same_seed_gives_the_same_weights_and_a_resumed_run_agrees(tmp_path: Path) -> None:
    first, summaries = run(_net(), SMALL, tmp_path / "one", progress=False)
    second, _ = run(_net(), SMALL, tmp_path / "two", progress=False)
    assert _same(first, second)
    assert not _same(first, _net())  # it learned something
    assert [summary["round"] for summary in summaries] == [1, 2]
    assert all(summary["positions"] == 60 for summary in summaries)
    broken = tmp_path / "broken"
    run(_net(), DistilConfig(**{**SMALL.__dict__, "rounds": 1}), broken, progress=False)
    (broken / "round-2").mkdir()
    resumed, _ = run(_net(), SMALL, broken, resume=True, progress=False)
    assert _same(first, resumed)


def test_the_command_writes_the_net_and_how_it_was_made(tmp_path: Path) -> None:
    start = tmp_path / "start.npz"
    _net().save(start)
    out = tmp_path / "out"
    small = ["--positions", "30", "--epochs", "1", "--batch", "8", "--seed", "2"]
    main([*small, "--start", str(start), "--work", str(tmp_path / "work"), "--out", str(out)])
    net = Evaluator.load(out / "net.npz")
    assert net.hidden == 6
    config = json.loads((out / "net.json").read_text(encoding="utf-8"))
    made = "python -m hraj.games.backgammon.train distil --positions 30 --seed 2 --epochs 1 --batch 8"
    assert config["command"] == made
    assert config["distil"]["seed"] == 2 and len(config["rounds"]) == 1


def test_bad_arguments_get_a_clear_message() -> None:
    with pytest.raises(SystemExit, match="positive"):
        main(["--positions", "0"])
    with pytest.raises(SystemExit, match="between 0 and 1"):
        main(["--explore", "2"])
