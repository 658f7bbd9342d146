"""Training the backgammon nets: a few lockstep games from a seed, reproducible, resumable."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hraj.games.backgammon.evaluator import Evaluator, flip
from hraj.games.backgammon.train import (
    Config,
    Trainer,
    checkpoints,
    lambda_returns,
    learning_rate,
    main,
    parse_args,
    run,
)

SMALL = ["--seed", "7", "--hidden", "8", "--lockstep", "4", "--update-games", "2", "--checkpoint-every", "4"]


def _train(tmp_path: Path, name: str, games: int = 8, *extra: str) -> Evaluator:
    folder = tmp_path / name
    args = parse_args(["--games", str(games), *SMALL, "--work", str(folder), "--out", str(folder / "out"), *extra])
    return run(args, log=False)


def _same(a: Evaluator, b: Evaluator) -> bool:
    pairs = [pair for kind in a.nets for pair in zip(a.nets[kind].arrays(), b.nets[kind].arrays(), strict=True)]
    return set(a.nets) == set(b.nets) and all(np.array_equal(x, y) for x, y in pairs)


def test_the_same_seed_gives_the_same_weights(tmp_path: Path) -> None:
    first = _train(tmp_path, "one")
    second = _train(tmp_path, "two")
    assert _same(first, second)
    assert not _same(first, Evaluator.random(8, seed=7))  # it learned something
    assert _same(first, Evaluator.load(tmp_path / "one" / "out" / "net.npz"))
    config = json.loads((tmp_path / "one" / "out" / "net.json").read_text(encoding="utf-8"))
    assert config["games"] == 8 and config["seed"] == 7 and config["hidden"] == 8
    assert config["command"] == (
        "python -m hraj.games.backgammon.train --games 8 --seed 7 --hidden 8 --lockstep 4 --update-games 2"
    )
    assert sorted(path.name for path in (tmp_path / "one").glob("checkpoint-*.npz")) == [
        "checkpoint-00000004.npz",
        "checkpoint-00000008.npz",
    ]


def test_a_resumed_run_ends_where_an_unbroken_one_does(tmp_path: Path) -> None:
    unbroken = _train(tmp_path, "unbroken")
    _train(tmp_path, "broken", 4)
    resumed = _train(tmp_path, "broken", 8, "--resume")
    assert _same(unbroken, resumed)


def test_every_game_of_a_generation_is_learned_from_once() -> None:
    config = Config(hidden=8, lockstep=6, update_games=4)
    trainer = Trainer(Evaluator.random(8, seed=1), config, np.random.default_rng(2))
    before = Evaluator.random(8, seed=1)
    trainer.generation()
    assert trainer.games == 6 and trainer.positions_seen > 6 * 20
    assert not _same(trainer.evaluator, before)


def test_lambda_returns_blend_the_next_values_into_the_result() -> None:
    successors = np.array([[0.6, 0.2, 0.0, 0.1, 0.0], [0.3, 0.1, 0.0, 0.2, 0.0], [1.0, 1.0, 0.0, 0.0, 0.0]])
    assert np.allclose(lambda_returns(successors, 0.0), successors)  # TD(0): the next value
    monte_carlo = lambda_returns(successors, 1.0)  # TD(1): the result, seen from each side
    assert np.allclose(monte_carlo[1], flip(successors[2])) and np.allclose(monte_carlo[0], successors[2])


def test_bad_arguments_get_a_clear_message() -> None:
    with pytest.raises(SystemExit, match="positive"):
        main(["--games", "0"])
    with pytest.raises(SystemExit, match="between 0 and 1"):
        main(["--lambda", "2"])


def test_a_lower_rate_from_a_checkpoint_on_is_recorded(tmp_path: Path) -> None:
    _train(tmp_path, "phases", 4)
    _train(tmp_path, "phases", 8, "--resume", "--rate", "0.001")
    config = json.loads((tmp_path / "phases" / "out" / "net.json").read_text(encoding="utf-8"))
    assert config["rate_changes"] == [[4, 0.001]]
    assert config["command"].endswith(" && python -m hraj.games.backgammon.train --resume --rate 0.001 --games 8")
    changed = Config(rate_changes=((4, 0.001),))
    assert learning_rate(changed, 3) == pytest.approx(0.003 / (1 + 3 / 250_000))
    assert learning_rate(changed, 4) == pytest.approx(0.001 / (1 + 4 / 250_000))


def test_a_checkpoint_exports_as_the_shipped_files(tmp_path: Path) -> None:
    _train(tmp_path, "run", 4)
    main(["--export", str(tmp_path / "run" / "checkpoint-00000004.npz"), "--out", str(tmp_path / "x")])
    assert _same(Evaluator.load(tmp_path / "x" / "net.npz"), Evaluator.load(tmp_path / "run" / "out" / "net.npz"))
    assert json.loads((tmp_path / "x" / "net.json").read_text(encoding="utf-8"))["games"] == 4


def test_a_curve_takes_the_checkpoints_after_every_so_many_games(tmp_path: Path) -> None:
    _train(tmp_path, "run", 12)
    work = tmp_path / "run"
    assert [games for games, _ in checkpoints(work)] == [4, 8, 12]
    assert checkpoints(work, every=8) == [(8, work / "checkpoint-00000008.npz")]
