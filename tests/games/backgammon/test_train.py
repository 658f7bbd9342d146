"""Training the backgammon net: a few games from a seed, reproducible, resumable."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hraj.games.backgammon.evaluator import Evaluator, flip
from hraj.games.backgammon.train import Config, lambda_returns, learning_rate, main, parse_args, run, self_play_game


def _train(tmp_path: Path, name: str, *extra: str) -> Evaluator:
    folder = tmp_path / name
    small = ["--seed", "7", "--hidden", "8", "--checkpoint-every", "2"]
    args = parse_args(["--games", "4", *small, "--work", str(folder), "--out", str(folder / "out"), *extra])
    return run(args, progress=False)


def _same(a: Evaluator, b: Evaluator) -> bool:
    return all(
        np.array_equal(x, y)
        for x, y in [
            (a.hidden_weights, b.hidden_weights),
            (a.hidden_bias, b.hidden_bias),
            (a.output_weights, b.output_weights),
            (a.output_bias, b.output_bias),
        ]
    )


def test_the_same_seed_gives_the_same_weights(tmp_path: Path) -> None:
    first = _train(tmp_path, "one")
    second = _train(tmp_path, "two")
    assert _same(first, second)
    assert not _same(first, Evaluator.random(8, seed=7))  # it learned something
    shipped = Evaluator.load(tmp_path / "one" / "out" / "net.npz")
    assert _same(first, shipped)
    config = json.loads((tmp_path / "one" / "out" / "net.json").read_text(encoding="utf-8"))
    assert config["games"] == 4 and config["seed"] == 7 and config["hidden"] == 8
    assert sorted(path.name for path in (tmp_path / "one").glob("checkpoint-*.npz")) == [
        "checkpoint-0000002.npz",
        "checkpoint-0000004.npz",
    ]


def test_a_resumed_run_ends_where_an_unbroken_one_does(tmp_path: Path) -> None:
    unbroken = _train(tmp_path, "unbroken")
    folder = tmp_path / "broken"
    small = ["--seed", "7", "--hidden", "8", "--checkpoint-every", "2"]
    run(parse_args(["--games", "2", *small, "--work", str(folder), "--out", str(folder / "out")]), progress=False)
    resumed = _train(tmp_path, "broken", "--resume")
    assert _same(unbroken, resumed)


def test_a_game_ends_in_its_exact_result() -> None:
    net = Evaluator.random(8, seed=1)
    positions, successors = self_play_game(net, np.random.default_rng(2))
    assert len(positions) == len(successors) > 10
    assert successors[-1][0] == 1  # the last mover won
    assert positions[0].tolist() == positions[0][26:].tolist() + positions[0][:26].tolist()  # the start


def test_lambda_returns_blend_the_next_values_into_the_result() -> None:
    successors = np.array([[0.6, 0.2, 0.0, 0.1, 0.0], [0.3, 0.1, 0.0, 0.2, 0.0], [1.0, 1.0, 0.0, 0.0, 0.0]])
    assert np.allclose(lambda_returns(successors, 0.0), successors)  # TD(0): the next value
    monte_carlo = lambda_returns(successors, 1.0)  # TD(1): the result, seen from each side
    assert np.allclose(monte_carlo[1], flip(successors[2])) and np.allclose(monte_carlo[0], successors[2])


def test_bad_arguments_get_a_clear_message() -> None:
    with pytest.raises(SystemExit, match="positive"):
        main(["--games", "0"])
    assert Config().trace_decay == 0.7


def test_a_lower_alpha_from_a_checkpoint_on_is_recorded(tmp_path: Path) -> None:
    folder = tmp_path / "phases"
    small = ["--seed", "7", "--hidden", "8", "--checkpoint-every", "2", "--work", str(folder)]
    run(parse_args(["--games", "2", *small, "--out", str(folder / "out")]), progress=False)
    run(parse_args(["--games", "4", *small, "--out", str(folder / "out"), "--resume", "--alpha", "0.01"]), False)
    config = json.loads((folder / "out" / "net.json").read_text(encoding="utf-8"))
    assert config["alpha_changes"] == [[2, 0.01]]
    assert config["command"] == (
        "python -m hraj.games.backgammon.train --games 2 --seed 7 --hidden 8"
        " && python -m hraj.games.backgammon.train --resume --alpha 0.01 --games 4"
    )
    assert learning_rate(Config(alpha_changes=((2, 0.01),)), 1) == pytest.approx(0.03 / (1 + 1 / 100_000))
    assert learning_rate(Config(alpha_changes=((2, 0.01),)), 2) == pytest.approx(0.01 / (1 + 2 / 100_000))


def test_the_shipped_net_may_be_the_mean_of_the_last_checkpoints(tmp_path: Path) -> None:
    folder = tmp_path / "mean"
    small = ["--seed", "7", "--hidden", "8", "--checkpoint-every", "1", "--work", str(folder)]
    run(parse_args(["--games", "3", *small, "--out", str(folder / "out"), "--average-from", "2"]), False)
    second = Evaluator.load(folder / "checkpoint-0000002.npz")
    third = Evaluator.load(folder / "checkpoint-0000003.npz")
    shipped = Evaluator.load(folder / "out" / "net.npz")
    assert np.allclose(shipped.output_weights, (second.output_weights + third.output_weights) / 2)
    config = json.loads((folder / "out" / "net.json").read_text(encoding="utf-8"))
    assert config["averaged_checkpoints"] == [2, 3] and config["command"].endswith("--average-from 2")
    main(["--export", str(folder / "checkpoint-0000003.npz"), "--average-from", "3", "--out", str(tmp_path / "x")])
    assert _same(Evaluator.load(tmp_path / "x" / "net.npz"), third)
    with pytest.raises(SystemExit, match="No checkpoint"):
        main(["--export", str(folder / "checkpoint-0000002.npz"), "--average-from", "3", "--out", str(tmp_path / "y")])
