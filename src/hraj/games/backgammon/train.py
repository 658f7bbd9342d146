"""Train the backgammon evaluator by TD(λ) self-play, in NumPy.

Run `python -m hraj.games.backgammon.train --games 100000 --seed 1` (see `--help`). The net
plays both sides at 0-ply (each roll's best play by its own evaluation) and learns after
every game from the game's positions, each toward its λ-return: a mix of the
evaluations of the positions that followed it, ending in the game's exact result (win,
gammon, backgammon). This is TD(λ) in its offline form, one batched gradient step a
game, which is what makes it fast enough in NumPy.

Every position is seen by the side on roll, before it rolls; the next position belongs
to the other side, so its outputs are flipped (`evaluator.flip`) to serve as a target.

Checkpoints (weights, games played, the dice generator's state) are written to the
work folder every `--checkpoint-every` games; `--resume` continues from the latest one
and gives the same weights as a run that never stopped. The final net is written to
`--out` (the package folder by default) as `net.npz` with `net.json`, the configuration
that made it.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import asdict, dataclass, replace
from importlib import resources
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.afterstates import afterstates, swap
from hraj.games.backgammon.evaluator import (
    OFF,
    OUTPUTS,
    SIDE,
    Evaluator,
    consistent,
    cubeless_equity,
    encode,
    flip,
    outcome_probabilities,
)
from hraj.games.backgammon.moves import CHECKERS, START

MAX_TURNS = 2000  # a safety net only: a game between two nets ends long before


@dataclass(frozen=True)
class Config:
    """Everything that decides the weights, together with the seed and the games played."""

    seed: int = 1
    hidden: int = 80
    alpha: float = 0.03
    """Learning rate at the start; it falls as `alpha / (1 + games / alpha_half_life)`."""
    alpha_half_life: int = 100_000
    alpha_changes: tuple[tuple[int, float], ...] = ()
    """(games, alpha): from that many games on, the learning rate starts from this alpha
    instead (`--resume --alpha`: a lower rate to finish a run)."""
    trace_decay: float = 0.7
    """λ: how far back each evaluation's error reaches."""
    init_scale: float = 0.1
    cross_entropy: bool = True
    """Step along the cross-entropy gradient (error times input); the squared error's
    gradient also multiplies by v (1 - v), which vanishes when an output saturates."""


def learning_rate(config: Config, games: int) -> float:
    alpha = config.alpha
    for start, changed in config.alpha_changes:
        if games >= start:
            alpha = changed
    return alpha / (1 + games / config.alpha_half_life)


def start_position() -> NDArray[np.int8]:
    return np.array((*START, *START), dtype=np.int8)


def self_play_game(net: Evaluator, rng: np.random.Generator) -> tuple[NDArray[np.int8], NDArray[np.float64]]:
    """One game of the net against itself: the positions met (side on roll first) and
    the value of each position's successor, flipped to the position's own side (the
    last one is the exact result)."""
    position = start_position()
    first, second = rng.choice(6, 2, replace=False) + 1  # the opening roll: never a double
    dice_list = [(int(first), int(second))]
    positions: list[NDArray[np.int8]] = []
    successors: list[NDArray[np.float64]] = []
    for turn in range(MAX_TURNS):
        positions.append(position)
        if turn >= len(dice_list):
            dice_list.extend((int(a), int(b)) for a, b in rng.integers(1, 7, (64, 2)))
        dice = dice_list[turn]
        _, after = afterstates(position, dice)
        won = after[:, OFF] == CHECKERS
        if won.any():
            outcomes = [outcome_probabilities(row[:SIDE], row[SIDE:]) for row in after[won]]
            successors.append(max(outcomes, key=lambda p: float(cubeless_equity(p))))
            break
        seen_by_them = swap(after)
        theirs = consistent(net.raw(seen_by_them))
        best = int(np.argmax(cubeless_equity(flip(theirs))))
        successors.append(flip(theirs[best]))
        position = seen_by_them[best]
    return np.array(positions), np.array(successors)


def lambda_returns(successors: NDArray[np.float64], trace_decay: float) -> NDArray[np.float64]:
    """Each position's λ-return from the flipped values of its successors (the last exact):
    G_t = (1 - λ) s_t + λ flip(G_{t+1}), where s_t is already seen from t's side."""
    returns = np.empty_like(successors)
    returns[-1] = successors[-1]
    for t in range(len(successors) - 2, -1, -1):
        returns[t] = (1 - trace_decay) * successors[t] + trace_decay * flip(returns[t + 1])
    return returns


def learn(
    net: Evaluator, positions: NDArray[np.int8], targets: NDArray[np.float64], rate: float, cross_entropy: bool = True
) -> None:
    """One gradient step moving each position's outputs toward its target (TD's update,
    summed over the game)."""
    inputs = encode(positions)
    hidden, outputs = net.forward(inputs)
    output_delta = targets.astype(np.float32) - outputs
    if not cross_entropy:
        output_delta *= outputs * (1 - outputs)
    hidden_delta = (output_delta @ net.output_weights.T) * hidden * (1 - hidden)
    step = np.float32(rate)
    net.output_weights += step * (hidden.T @ output_delta)
    net.output_bias += step * output_delta.sum(axis=0)
    net.hidden_weights += step * (inputs.T @ hidden_delta)
    net.hidden_bias += step * hidden_delta.sum(axis=0)


def train_games(net: Evaluator, config: Config, rng: np.random.Generator, start: int, count: int) -> int:
    """Play and learn from `count` games; returns the number of games trained after them."""
    for games in range(start, start + count):
        positions, successors = self_play_game(net, rng)
        learn(
            net,
            positions,
            lambda_returns(successors, config.trace_decay),
            learning_rate(config, games),
            config.cross_entropy,
        )
    return start + count


# --- checkpoints ---------------------------------------------------------------------------


def checkpoint_path(work: Path, games: int) -> Path:
    return work / f"checkpoint-{games:07d}.npz"


def save_checkpoint(
    work: Path, net: Evaluator, config: Config, rng: np.random.Generator, games: int, seconds: float = 0.0
) -> Path:
    work.mkdir(parents=True, exist_ok=True)
    path = checkpoint_path(work, games)
    state = json.dumps(
        {"games": games, "seconds": round(seconds, 1), "config": asdict(config), "rng": rng.bit_generator.state}
    )
    net.save(path, state=np.array(state))
    return path


def latest_checkpoint(work: Path) -> Path | None:
    found = sorted(work.glob("checkpoint-*.npz"))
    return found[-1] if found else None


def load_checkpoint(path: Path) -> tuple[Evaluator, Config, np.random.Generator, int]:
    with np.load(path) as data:
        state = json.loads(str(data["state"]))
    if not isinstance(state, dict) or not isinstance(state.get("config"), dict):
        raise ValueError(f"{path} holds no training state")
    net = Evaluator.load(path)
    fields = state["config"]
    fields["alpha_changes"] = tuple((int(start), float(alpha)) for start, alpha in fields.get("alpha_changes", ()))
    config = Config(**fields)
    rng = np.random.default_rng()
    rng.bit_generator.state = state["rng"]
    return net, config, rng, int(state["games"])


def command(config: Config, games: int) -> str:
    """The commands that train this net again (one more with --resume for each change of alpha)."""
    stops = [start for start, _ in config.alpha_changes] + [games]
    default = Config()
    options = "".join(
        f" --{name.replace('_', '-')} {getattr(config, field)}"
        for name, field in (("hidden", "hidden"), ("alpha", "alpha"), ("lambda", "trace_decay"))
        if getattr(config, field) != getattr(default, field)
    )
    lines = [f"python -m hraj.games.backgammon.train --games {stops[0]} --seed {config.seed}{options}"]
    for (_, alpha), stop in zip(config.alpha_changes, stops[1:], strict=True):
        lines.append(f"python -m hraj.games.backgammon.train --resume --alpha {alpha} --games {stop}")
    return " && ".join(lines)


def average(nets: list[Evaluator]) -> Evaluator:
    """The mean of the weights of nets of one run: smooths out the noise of the last steps."""
    parts = ("hidden_weights", "hidden_bias", "output_weights", "output_bias")
    return Evaluator(*(np.mean([getattr(net, part) for net in nets], axis=0) for part in parts))


def averaged_checkpoints(work: Path, first: int, last: int) -> tuple[Evaluator, list[int]]:
    """The mean of the checkpoints in `work` from `first` to `last` games trained, and their games."""
    chosen = [path for path in sorted(work.glob("checkpoint-*.npz")) if first <= int(path.stem.split("-")[1]) <= last]
    if not chosen:
        raise SystemExit(f"No checkpoint from {first} to {last} games in {work}.")
    return average([load_checkpoint(path)[0] for path in chosen]), [int(p.stem.split("-")[1]) for p in chosen]


def write_net(
    out: Path, net: Evaluator, config: Config, games: int, seconds: float, averaged: list[int] | None = None
) -> None:
    """The shipped files: `net.npz` (float32 weights) and `net.json` (how they were made)."""
    out.mkdir(parents=True, exist_ok=True)
    net.save(out / "net.npz")
    how = command(config, games)
    if averaged:
        how += f" --average-from {averaged[0]}"
    description = {
        "method": "TD(lambda) self-play at 0-ply, offline lambda-returns, one gradient step a game",
        "command": how,
        "games": games,
        "training_seconds": round(seconds),
        "averaged_checkpoints": averaged or [],
        **asdict(config),
    }
    (out / "net.json").write_text(json.dumps(description, indent=2) + "\n", encoding="utf-8")


def package_folder() -> Path:
    return Path(str(resources.files("hraj.games.backgammon")))


# --- the command ---------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m hraj.games.backgammon.train",
        description="Train hraj's backgammon net by TD(lambda) self-play (NumPy, one core).",
        epilog="Then refine it: 'python -m hraj.games.backgammon.train distil --help' fits the net "
        "to the 1-ply values of its own search.",
    )
    defaults = Config()
    parser.add_argument("--games", type=int, default=100_000, help="games to train in all (default 100000)")
    parser.add_argument("--seed", type=int, default=defaults.seed, help="seed of the weights and the dice")
    parser.add_argument("--hidden", type=int, default=defaults.hidden, help="hidden units")
    parser.add_argument(
        "--alpha",
        type=float,
        default=None,
        help=f"learning rate at the start (default {defaults.alpha}); with --resume, from the checkpoint on",
    )
    parser.add_argument("--alpha-half-life", type=int, default=defaults.alpha_half_life, help="games until it halves")
    parser.add_argument("--lambda", dest="trace_decay", type=float, default=defaults.trace_decay, help="TD's lambda")
    parser.add_argument(
        "--squared-error", action="store_true", help="Tesauro's squared-error gradient instead of cross-entropy"
    )
    parser.add_argument("--checkpoint-every", type=int, default=5000, help="games between checkpoints")
    parser.add_argument("--work", type=Path, default=Path("var/backgammon-training"), help="checkpoint folder")
    parser.add_argument("--out", type=Path, default=None, help="where net.npz and net.json go (the package)")
    parser.add_argument("--resume", action="store_true", help="continue from the latest checkpoint in --work")
    parser.add_argument(
        "--average-from",
        type=int,
        default=None,
        metavar="GAMES",
        help="ship the mean of the checkpoints from GAMES games trained on, not the last weights",
    )
    parser.add_argument(
        "--export", type=Path, default=None, metavar="CHECKPOINT", help="only write this checkpoint's net to --out"
    )
    return parser.parse_args(argv)


def run(args: argparse.Namespace, progress: bool = True) -> Evaluator:
    """Train as the arguments say; returns the final net (also written to --out)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    latest = latest_checkpoint(args.work) if args.resume else None
    spent = 0.0  # training seconds before this run, from the checkpoint
    if latest is not None:
        net, config, rng, games = load_checkpoint(latest)
        with np.load(latest) as data:
            spent = float(json.loads(str(data["state"])).get("seconds", 0))
        if args.alpha is not None and learning_rate(config, games) != learning_rate(
            replace(config, alpha_changes=(*config.alpha_changes, (games, args.alpha))), games
        ):
            config = replace(config, alpha_changes=(*config.alpha_changes, (games, args.alpha)))
    else:
        config = Config(
            seed=args.seed,
            hidden=args.hidden,
            alpha=Config.alpha if args.alpha is None else args.alpha,
            alpha_half_life=args.alpha_half_life,
            trace_decay=args.trace_decay,
            cross_entropy=not args.squared_error,
        )
        net = Evaluator.random(config.hidden, config.seed, config.init_scale)
        rng = np.random.default_rng(config.seed)
        games = 0
    started = time.perf_counter()
    columns = (TextColumn("TD(λ) self-play"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, disable=not progress) as bar:
        task = bar.add_task("train", total=args.games, completed=games)
        while games < args.games:
            step = min(args.checkpoint_every - games % args.checkpoint_every, args.games - games, 100)
            games = train_games(net, config, rng, games, step)
            bar.update(task, completed=games)
            if games % args.checkpoint_every == 0 or games == args.games:
                save_checkpoint(args.work, net, config, rng, games, spent + time.perf_counter() - started)
    seconds = spent + time.perf_counter() - started
    if args.average_from is not None:
        net, averaged = averaged_checkpoints(args.work, args.average_from, games)
        write_net(args.out or package_folder(), net, config, games, seconds, averaged)
    else:
        write_net(args.out or package_folder(), net, config, games, seconds)
    return net


def export(checkpoint: Path, out: Path, average_from: int | None = None) -> None:
    """Write a checkpoint's net as the shipped files, with the configuration that made it
    (with `average_from`, the mean of the checkpoints beside it from that many games on)."""
    net, config, _, games = load_checkpoint(checkpoint)
    with np.load(checkpoint) as data:
        seconds = float(json.loads(str(data["state"])).get("seconds", 0))
    if average_from is None:
        write_net(out, net, config, games, seconds)
    else:
        mean, averaged = averaged_checkpoints(checkpoint.parent, average_from, games)
        write_net(out, mean, config, games, seconds, averaged)


def main(argv: list[str] | None = None) -> None:
    import sys

    words = sys.argv[1:] if argv is None else argv
    if words[:1] == ["distil"]:
        from hraj.games.backgammon import distil

        distil.main(words[1:])
        return
    args = parse_args(argv)
    if args.export is not None:
        export(args.export, args.out or package_folder(), args.average_from)
        return
    if args.games < 1 or args.checkpoint_every < 1 or args.hidden < 1:
        raise SystemExit("--games, --checkpoint-every and --hidden must be positive.")
    bad_alpha = args.alpha is not None and (not math.isfinite(args.alpha) or args.alpha <= 0)
    if bad_alpha or not 0 <= args.trace_decay <= 1:
        raise SystemExit("--alpha must be positive and --lambda between 0 and 1.")
    run(args)


if __name__ == "__main__":
    main()


__all__ = ["OUTPUTS", "Config", "lambda_returns", "learn", "main", "run", "self_play_game"]
