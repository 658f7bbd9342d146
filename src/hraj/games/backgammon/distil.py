"""Distil the 1-ply search into the 0-ply net: fit the net to its own searched values.

`python -m hraj.games.backgammon.train distil --positions 50000 --seed 1` (see `--help`).
TD(λ) self-play teaches the net from its own 0-ply evaluations, and its strength
flattens out; the 1-ply search of the same net plays clearly better. A round here
(as gnubg's nets were refined with search and rollout targets):

1. collects positions from games of the net against itself at 0-ply, with some
   exploration (now and then a random legal play, and beside each position one of the
   plays it did not choose), so that races, contact and odd positions all turn up;
2. labels each position, seen by the side on roll, with its 1-ply value: the average
   over the 21 rolls of the best 0-ply play's five outputs (`search.one_ply_on_roll`),
   bear-offs exactly from the one-sided database;
3. fits the net to these targets by minibatch gradient descent on the cross-entropy of
   the five outputs (Adam), starting from the net's own weights, and keeps the epoch
   with the lowest error on a held-out tenth of the positions.

`--rounds` repeats this with the improved net. Every round's positions, their labels
(in chunks) and each epoch's weights are written to the work folder as they are made;
`--resume` goes on from there and gives the weights an unbroken run gives. Everything
follows from the seed and the starting net (the package's by default).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.afterstates import afterstates, swap
from hraj.games.backgammon.bearoff import bearoff_probabilities
from hraj.games.backgammon.evaluator import OFF, OUTPUTS, SIDE, Evaluator, cubeless_equity, encode, flip
from hraj.games.backgammon.moves import CHECKERS, START
from hraj.games.backgammon.search import one_ply_on_roll

if TYPE_CHECKING:
    from rich.progress import Progress

MAX_TURNS = 2000
LABEL_CHUNK = 5000
"""Positions labelled between two saves of the work folder."""


@dataclass(frozen=True)
class DistilConfig:
    """Everything that decides the distilled weights, beside the starting net."""

    seed: int = 1
    positions: int = 50_000
    """Positions collected and labelled each round."""
    rounds: int = 1
    explore: float = 0.05
    """Chance that a self-play move is a random legal play instead of the best."""
    alternatives: float = 0.5
    """Chance that, beside each position, one of the plays not chosen is kept too."""
    epochs: int = 40
    batch: int = 128
    rate: float = 0.003
    """Adam's step size."""
    holdout: float = 0.1
    hidden: int = 0
    """Hidden units of the fitted net; more than the starting net's adds units that start
    silent (zero output weights), so the fit begins from the starting net's values. 0: as many."""


# --- positions ------------------------------------------------------------------------------


def collect(net: Evaluator, rng: np.random.Generator, count: int, config: DistilConfig) -> NDArray[np.int8]:
    """`count` positions (side on roll first, the game not over) from self-play games."""
    found: list[NDArray[np.int8]] = []
    while len(found) < count:
        position = np.array((*START, *START), dtype=np.int8)
        first, second = rng.choice(6, 2, replace=False) + 1
        dice = (int(first), int(second))
        for _ in range(MAX_TURNS):
            found.append(position)
            _, after = afterstates(position, dice)
            if (after[:, OFF] == CHECKERS).any():
                break  # the mover bears off its last checker: the game is over
            seen_by_them = swap(after)
            if len(after) > 1 and rng.random() < config.explore:
                chosen = int(rng.integers(len(after)))
            else:
                chosen = int(np.argmax(cubeless_equity(flip(net.probabilities(seen_by_them)))))
            if len(after) > 1 and rng.random() < config.alternatives:
                other = int(rng.integers(len(after) - 1))
                found.append(seen_by_them[other + (other >= chosen)])
            position = seen_by_them[chosen]
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
    return np.array(found[:count])


def _is_bearoff(position: NDArray[np.int8]) -> bool:
    return bearoff_probabilities(position[:SIDE].tolist(), position[SIDE:].tolist()) is not None


def label(net: Evaluator, positions: NDArray[np.int8]) -> NDArray[np.float64]:
    """The 1-ply value (n, 5) of each position for the side on roll; bear-offs exact."""
    targets = np.empty((len(positions), OUTPUTS))
    for index, position in enumerate(positions):
        exact = bearoff_probabilities(position[:SIDE].tolist(), position[SIDE:].tolist())
        targets[index] = exact if exact is not None else one_ply_on_roll(net, position)
    return targets


# --- fitting --------------------------------------------------------------------------------


class Adam:
    """Adam's moment estimates for the net's four weight arrays."""

    PARTS = ("hidden_weights", "hidden_bias", "output_weights", "output_bias")

    def __init__(self, net: Evaluator, rate: float) -> None:
        self.rate = rate
        self.steps = 0
        self.first = [np.zeros_like(getattr(net, part)) for part in self.PARTS]
        self.second = [np.zeros_like(getattr(net, part)) for part in self.PARTS]

    def step(self, net: Evaluator, gradients: list[NDArray[np.float32]]) -> None:
        self.steps += 1
        scale = self.rate * np.sqrt(1 - 0.999**self.steps) / (1 - 0.9**self.steps)
        for part, gradient, mean, square in zip(self.PARTS, gradients, self.first, self.second, strict=True):
            mean[...] = 0.9 * mean + 0.1 * gradient
            square[...] = 0.999 * square + 0.001 * gradient * gradient
            getattr(net, part)[...] -= np.float32(scale) * mean / (np.sqrt(square) + 1e-8)


def gradients(
    net: Evaluator, inputs: NDArray[np.float32], targets: NDArray[np.float32]
) -> tuple[float, list[NDArray[np.float32]]]:
    """The mean cross-entropy of the five outputs against the targets, and its gradients."""
    hidden, outputs = net.forward(inputs)
    clipped = np.clip(outputs, 1e-6, 1 - 1e-6)
    loss = -float(np.mean(targets * np.log(clipped) + (1 - targets) * np.log(1 - clipped)) * OUTPUTS)
    output_delta = (outputs - targets) / np.float32(len(inputs))
    hidden_delta = (output_delta @ net.output_weights.T) * hidden * (1 - hidden)
    return loss, [inputs.T @ hidden_delta, hidden_delta.sum(axis=0), hidden.T @ output_delta, output_delta.sum(axis=0)]


def loss(net: Evaluator, positions: NDArray[np.int8], targets: NDArray[np.float64]) -> float:
    """The mean cross-entropy (summed over the five outputs) of the net on labelled positions."""
    total = 0.0
    for start in range(0, len(positions), 4096):
        part = slice(start, start + 4096)
        value, _ = gradients(net, encode(positions[part]), targets[part].astype(np.float32))
        total += value * len(positions[part])
    return total / max(len(positions), 1)


def fit_epoch(
    net: Evaluator,
    adam: Adam,
    positions: NDArray[np.int8],
    targets: NDArray[np.float64],
    batch: int,
    rng: np.random.Generator,
) -> None:
    """One pass over the positions in a random order, one Adam step a minibatch."""
    order = rng.permutation(len(positions))
    for start in range(0, len(order), batch):
        chosen = order[start : start + batch]
        _, grads = gradients(net, encode(positions[chosen]), targets[chosen].astype(np.float32))
        adam.step(net, grads)


# --- the run, with its work folder ------------------------------------------------------------


def widen(net: Evaluator, hidden: int, rng: np.random.Generator) -> Evaluator:
    """The same net with `hidden` hidden units: the new ones get small random input weights
    and no output weight, so the outputs stay as they were until the fit moves them."""
    extra = hidden - net.hidden_weights.shape[1]
    if extra <= 0:
        return _copy(net)
    return Evaluator(
        np.concatenate([net.hidden_weights, rng.uniform(-0.1, 0.1, (net.hidden_weights.shape[0], extra))], axis=1),
        np.concatenate([net.hidden_bias, rng.uniform(-0.1, 0.1, extra)]),
        np.concatenate([net.output_weights, np.zeros((extra, OUTPUTS))]),
        net.output_bias,
        net.config,
    )


def _copy(net: Evaluator) -> Evaluator:
    return Evaluator(net.hidden_weights, net.hidden_bias, net.output_weights, net.output_bias, net.config)


def _round_rng(config: DistilConfig, round_: int, stage: int) -> np.random.Generator:
    """A generator of its own for each round and stage, so that a resumed run draws as an unbroken one."""
    return np.random.default_rng([config.seed, round_, stage])


def run(
    start: Evaluator, config: DistilConfig, work: Path, resume: bool = False, progress: bool = True
) -> tuple[Evaluator, list[dict[str, object]]]:
    """Distil `config.rounds` times from `start`; returns the net and a summary of each round."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    work.mkdir(parents=True, exist_ok=True)
    net = _copy(start)
    summaries: list[dict[str, object]] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, disable=not progress) as bar:
        for round_ in range(1, config.rounds + 1):
            folder = work / f"round-{round_}"
            done = folder / "net.npz"
            if resume and done.exists():
                with np.load(done) as data:
                    summaries.append(_summary(str(data["summary"]), done))
                net = Evaluator.load(done)
                continue
            folder.mkdir(parents=True, exist_ok=True)
            started = time.process_time()
            positions = _positions(net, config, round_, folder, resume)
            targets = _labels(net, positions, folder, resume, bar, round_)
            labelled = time.process_time() - started
            net, summary = _fit(net, positions, targets, config, round_, folder, resume, bar)
            summary.update(
                round=round_,
                positions=len(positions),
                bearoff=int(
                    sum(bearoff_probabilities(p[:SIDE].tolist(), p[SIDE:].tolist()) is not None for p in positions)
                ),
                collect_and_label_cpu_seconds=round(labelled, 1),
                fit_cpu_seconds=round(time.process_time() - started - labelled, 1),
            )
            net.save(done, summary=np.array(json.dumps(summary)))
            summaries.append(summary)
    return net, summaries


def _summary(text: str, path: Path) -> dict[str, object]:
    """A finished round's summary, as `run` saved it beside its net."""
    summary = json.loads(text)
    if not isinstance(summary, dict):
        raise ValueError(f"{path} holds no round summary")
    return summary


def _positions(net: Evaluator, config: DistilConfig, round_: int, folder: Path, resume: bool) -> NDArray[np.int8]:
    path = folder / "positions.npy"
    if resume and path.exists():
        return np.asarray(np.load(path))
    positions = collect(net, _round_rng(config, round_, 0), config.positions, config)
    np.save(path, positions)
    return positions


def _labels(
    net: Evaluator, positions: NDArray[np.int8], folder: Path, resume: bool, bar: Progress, round_: int
) -> NDArray[np.float64]:
    task = bar.add_task(f"round {round_}: 1-ply labels", total=len(positions))
    chunks: list[NDArray[np.float64]] = []
    for index, begin in enumerate(range(0, len(positions), LABEL_CHUNK)):
        path = folder / f"labels-{index:04d}.npy"
        if resume and path.exists():
            chunk = np.asarray(np.load(path))
        else:
            chunk = label(net, positions[begin : begin + LABEL_CHUNK])
            np.save(path, chunk)
        chunks.append(chunk)
        bar.update(task, completed=begin + len(chunk))
    return np.concatenate(chunks)


def _fit(
    net: Evaluator,
    positions: NDArray[np.int8],
    targets: NDArray[np.float64],
    config: DistilConfig,
    round_: int,
    folder: Path,
    resume: bool,
    bar: Progress,
) -> tuple[Evaluator, dict[str, object]]:
    """Fit from `net`, epoch by epoch (each saved); the epoch with the lowest held-out error wins."""
    net = widen(net, config.hidden, _round_rng(config, round_, 100))
    split = _round_rng(config, round_, 1).permutation(len(positions))
    held = split[: int(len(positions) * config.holdout)]
    fitted = split[len(held) :]
    losses = [loss(net, positions[held], targets[held])]
    best, best_epoch = _copy(net), 0
    adam = Adam(net, config.rate)
    net = _copy(net)
    task = bar.add_task(f"round {round_}: fit", total=config.epochs)
    for epoch in range(1, config.epochs + 1):
        path = folder / f"epoch-{epoch:03d}.npz"
        if resume and path.exists():
            with np.load(path) as data:
                net = Evaluator.load(path)
                adam.steps = int(data["adam_steps"])
                adam.first = [np.array(data[f"first_{part}"]) for part in Adam.PARTS]
                adam.second = [np.array(data[f"second_{part}"]) for part in Adam.PARTS]
        else:
            fit_epoch(
                net, adam, positions[fitted], targets[fitted], config.batch, _round_rng(config, round_, 1 + epoch)
            )
            moments = {f"first_{part}": value for part, value in zip(Adam.PARTS, adam.first, strict=True)}
            moments |= {f"second_{part}": value for part, value in zip(Adam.PARTS, adam.second, strict=True)}
            net.save(path, adam_steps=np.array(adam.steps), **moments)
        losses.append(loss(net, positions[held], targets[held]))
        if losses[-1] < losses[best_epoch]:
            best, best_epoch = _copy(net), epoch
        bar.update(task, completed=epoch)
    return best, {"held_out_loss": [round(value, 5) for value in losses], "chosen_epoch": best_epoch}


# --- the command ------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m hraj.games.backgammon.train distil",
        description="Fit hraj's backgammon net to the 1-ply values of its own search (NumPy, one core).",
    )
    defaults = DistilConfig()
    parser.add_argument("--positions", type=int, default=defaults.positions, help="positions labelled a round")
    parser.add_argument("--rounds", type=int, default=defaults.rounds, help="label with the refitted net and refit")
    parser.add_argument("--seed", type=int, default=defaults.seed, help="seed of the games and the fitting")
    parser.add_argument("--explore", type=float, default=defaults.explore, help="chance of a random self-play move")
    parser.add_argument(
        "--alternatives", type=float, default=defaults.alternatives, help="chance to keep a play not chosen too"
    )
    parser.add_argument("--epochs", type=int, default=defaults.epochs, help="passes over the positions a round")
    parser.add_argument("--batch", type=int, default=defaults.batch, help="positions a gradient step")
    parser.add_argument("--rate", type=float, default=defaults.rate, help="Adam's step size")
    parser.add_argument("--hidden", type=int, default=0, help="hidden units (more than the start adds some)")
    parser.add_argument("--start", type=Path, default=None, help="the net to start from (.npz; the package's)")
    parser.add_argument("--work", type=Path, default=Path("var/backgammon-distil"), help="the work folder")
    parser.add_argument("--out", type=Path, default=None, help="where net.npz and net.json go (the package)")
    parser.add_argument("--resume", action="store_true", help="go on from what the work folder holds")
    return parser.parse_args(argv)


def config_of(args: argparse.Namespace) -> DistilConfig:
    config = DistilConfig(
        seed=args.seed,
        positions=args.positions,
        rounds=args.rounds,
        explore=args.explore,
        alternatives=args.alternatives,
        epochs=args.epochs,
        batch=args.batch,
        rate=args.rate,
        hidden=args.hidden,
    )
    if (
        min(config.positions, config.rounds, config.epochs, config.batch) < 1
        or config.positions < 10
        or config.hidden < 0
    ):
        raise SystemExit("--positions (at least 10), --rounds, --epochs and --batch must be positive.")
    if not (0 <= config.explore <= 1 and 0 <= config.alternatives <= 1 and config.rate > 0):
        raise SystemExit("--explore and --alternatives must be between 0 and 1, --rate positive.")
    return config


def command(config: DistilConfig) -> str:
    """The command that distils this net again from the same starting net."""
    default = DistilConfig()
    options = "".join(
        f" --{name.replace('_', '-')} {getattr(config, name)}"
        for name in ("rounds", "explore", "alternatives", "epochs", "batch", "rate", "hidden")
        if getattr(config, name) != getattr(default, name)
    )
    return f"python -m hraj.games.backgammon.train distil --positions {config.positions} --seed {config.seed}{options}"


def main(argv: list[str] | None = None) -> None:
    from hraj.games.backgammon.evaluator import shipped
    from hraj.games.backgammon.train import package_folder

    args = parse_args(argv)
    config = config_of(args)
    start = shipped() if args.start is None else Evaluator.load(args.start)
    started = time.process_time()
    net, summaries = run(start, config, args.work, args.resume)
    out: Path = args.out or package_folder()
    out.mkdir(parents=True, exist_ok=True)
    before = dict(shipped().config) if args.start is None else {"start": str(args.start)}
    net.save(out / "net.npz")
    description = {
        "method": "1-ply search distilled into the 0-ply net: positions from self-play labelled with the "
        "net's 1-ply values (bear-offs from the database), fitted by Adam on the cross-entropy",
        "command": f"{before['command']} && {command(config)}" if "command" in before else command(config),
        "games": before.get("games"),
        "hidden": int(net.hidden_weights.shape[1]),
        "distil": asdict(config),
        "rounds": summaries,
        "distil_cpu_seconds": round(time.process_time() - started),
        "started_from": before,
    }
    (out / "net.json").write_text(json.dumps(description, indent=2) + "\n", encoding="utf-8")


__all__ = ["DistilConfig", "collect", "command", "label", "main", "parse_args", "run", "widen"]
