"""Distil the search into the 0-ply nets: fit the nets to their own searched values.

`python -m hraj.games.backgammon.train distil --positions 50000 --seed 1` (see `--help`).
TD(λ) self-play teaches the nets from their own 0-ply evaluations, and their strength
flattens out; the search of the same nets plays clearly better. A round here (as
gnubg's nets were refined with search and rollout targets):

1. collects positions from games of the nets against themselves at 0-ply, many games
   in lockstep, with some exploration (now and then a random legal play, and beside
   each position one of the plays it did not choose), so that races, contact and odd
   positions all turn up;
2. labels each position, seen by the side on roll, with its value `--plies` deep (1:
   the average over the 21 rolls of the best 0-ply play's five outputs; 2: of their
   1-ply values; `search.on_roll`, a batch at a time), bear-offs exactly from the
   one-sided database;
3. fits the nets to these targets by minibatch gradient descent on the cross-entropy of
   the five outputs (Adam), starting from the nets' own weights, and keeps the epoch
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

from hraj.games.backgammon.bearoff import batch_bearoff
from hraj.games.backgammon.evaluator import OFF, OUTPUTS, Evaluator, Net, cubeless_equity
from hraj.games.backgammon.fit import Adam, fit_step, loss
from hraj.games.backgammon.lockstep import batch_afterstates, best_of_segments, opening_rolls, swap
from hraj.games.backgammon.moves import CHECKERS
from hraj.games.backgammon.search import on_roll
from hraj.games.backgammon.train import start_positions

if TYPE_CHECKING:
    from rich.progress import Progress

MAX_TURNS = 2000
LABEL_CHUNK = 5000
"""Positions labelled between two saves of the work folder."""
LABEL_BATCH = 250
"""Positions searched together."""
GAMES = 200
"""Games collected in lockstep."""


@dataclass(frozen=True)
class DistilConfig:
    """Everything that decides the distilled weights, beside the starting nets."""

    seed: int = 1
    positions: int = 50_000
    """Positions collected and labelled each round."""
    rounds: int = 1
    plies: int = 1
    """How deep the labels search."""
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
    """Hidden units of the fitted nets; more than the starting nets' adds units that start
    silent (zero output weights), so the fit begins from the starting nets' values. 0: as many."""
    fresh: bool = False
    """The first round fits new race and contact nets on the expert inputs (`hidden` units,
    random weights from the seed) to the starting nets' values, instead of the starting nets."""


# --- positions ------------------------------------------------------------------------------


def collect(net: Evaluator, rng: np.random.Generator, count: int, config: DistilConfig) -> NDArray[np.int8]:
    """`count` positions (side on roll first, the game not over) drawn from self-play
    games, `GAMES` at a time in lockstep, played until there are enough."""
    found: list[NDArray[np.int8]] = []
    total = 0
    while total < count:
        current = start_positions(GAMES)
        for turn in range(MAX_TURNS):
            if not len(current):
                break
            found.append(current)
            total += len(current)
            dice = opening_rolls(len(current), rng) if turn == 0 else rng.integers(1, 7, (len(current), 2))
            after = batch_afterstates(current, dice)
            counts = after.counts()
            chosen = best_of_segments(-cubeless_equity(net.probabilities(swap(after.positions))), after)
            random_play = after.starts[:-1] + (rng.random(len(counts)) * counts).astype(np.intp)
            explore = (counts > 1) & (rng.random(len(counts)) < config.explore)
            chosen = np.where(explore, random_play, chosen)
            # beside each position, with some chance, one of the plays not chosen
            other = after.starts[:-1] + (rng.random(len(counts)) * (counts - 1)).astype(np.intp)
            other += other >= chosen
            extra = (counts > 1) & (rng.random(len(counts)) < config.alternatives)
            played = after.positions[chosen]
            alternative = after.positions[other[extra]]
            going_on = alternative[:, OFF] < CHECKERS
            found.append(swap(alternative[going_on]))
            total += int(going_on.sum())
            won = played[:, OFF] == CHECKERS
            current = swap(played[~won])
    everything = np.concatenate(found)
    return everything[rng.permutation(len(everything))[:count]]  # a sample of every stage of the games


def label(net: Evaluator, positions: NDArray[np.int8], plies: int = 1) -> NDArray[np.float64]:
    """The value (n, 5) of each position for the side on roll, `plies` deep; bear-offs exact."""
    targets = np.empty((len(positions), OUTPUTS))
    for start in range(0, len(positions), LABEL_BATCH):
        part = positions[start : start + LABEL_BATCH]
        targets[start : start + len(part)] = on_roll(net, part, plies)
    home, exact = batch_bearoff(positions)
    targets[home] = exact
    return targets


# --- fitting --------------------------------------------------------------------------------


def fit_epoch(
    net: Evaluator,
    adams: dict[str, Adam],
    positions: NDArray[np.int8],
    inputs: NDArray[np.float32],
    targets: NDArray[np.float64],
    config: DistilConfig,
    rng: np.random.Generator,
) -> None:
    """One pass over the positions (`inputs`: encoded once) in a random order, one Adam
    step a minibatch."""
    order = rng.permutation(len(positions))
    for start in range(0, len(order), config.batch):
        chosen = order[start : start + config.batch]
        fit_step(net, adams, positions[chosen], targets[chosen], config.rate, inputs[chosen])


def widen(net: Evaluator, hidden: int, rng: np.random.Generator) -> Evaluator:
    """The same nets with `hidden` hidden units each: the new ones get small random input
    weights and no output weight, so the outputs stay as they were until the fit moves them."""
    wider = {}
    for kind, one in net.nets.items():
        extra = hidden - one.hidden
        if extra <= 0:
            wider[kind] = one.copy()
            continue
        wider[kind] = Net(
            np.concatenate([one.hidden_weights, rng.uniform(-0.1, 0.1, (one.hidden_weights.shape[0], extra))], axis=1),
            np.concatenate([one.hidden_bias, rng.uniform(-0.1, 0.1, extra)]),
            np.concatenate([one.output_weights, np.zeros((extra, OUTPUTS))]),
            one.output_bias,
        )
    return Evaluator(wider, net.encoding, net.config, net.bearoff)


# --- the run, with its work folder ------------------------------------------------------------


def _round_rng(config: DistilConfig, round_: int, stage: int) -> np.random.Generator:
    """A generator of its own for each round and stage, so that a resumed run draws as an unbroken one."""
    return np.random.default_rng([config.seed, round_, stage])


def run(
    start: Evaluator, config: DistilConfig, work: Path, resume: bool = False, progress: bool = True
) -> tuple[Evaluator, list[dict[str, object]]]:
    """Distil `config.rounds` times from `start`; returns the net and a summary of each round."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    work.mkdir(parents=True, exist_ok=True)
    net = start.copy()
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
            targets = _labels(net, positions, folder, resume, bar, round_, config.plies)
            labelled = time.process_time() - started
            net, summary = _fit(net, positions, targets, config, round_, folder, resume, bar)
            summary.update(
                round=round_,
                positions=len(positions),
                bearoff=int(batch_bearoff(positions)[0].sum()),
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
    net: Evaluator, positions: NDArray[np.int8], folder: Path, resume: bool, bar: Progress, round_: int, plies: int
) -> NDArray[np.float64]:
    task = bar.add_task(f"round {round_}: {plies}-ply labels", total=len(positions))
    chunks: list[NDArray[np.float64]] = []
    for index, begin in enumerate(range(0, len(positions), LABEL_CHUNK)):
        path = folder / f"labels-{index:04d}.npy"
        if resume and path.exists():
            chunk = np.asarray(np.load(path))
        else:
            chunk = label(net, positions[begin : begin + LABEL_CHUNK], plies)
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
    if config.fresh and round_ == 1:
        seed = int(_round_rng(config, round_, 100).integers(2**31))
        net = Evaluator.random(config.hidden or net.hidden, seed, encoding="expert")
    else:
        net = widen(net, config.hidden, _round_rng(config, round_, 100))
    split = _round_rng(config, round_, 1).permutation(len(positions))
    held = split[: int(len(positions) * config.holdout)]
    fitted = split[len(held) :]
    losses = [loss(net, positions[held], targets[held])]
    best, best_epoch = net.copy(), 0
    adams = {kind: Adam(one) for kind, one in net.nets.items()}
    inputs: NDArray[np.float32] | None = None
    task = bar.add_task(f"round {round_}: fit", total=config.epochs)
    for epoch in range(1, config.epochs + 1):
        path = folder / f"epoch-{epoch:03d}.npz"
        if resume and path.exists():
            with np.load(path) as data:
                arrays = {key: data[key] for key in data.files}
            net = Evaluator(Evaluator.load(path).nets, net.encoding, net.config, net.bearoff)
            adams = {kind: Adam(one) for kind, one in net.nets.items()}
            for kind, adam in adams.items():
                adam.restore(f"adam/{kind}/", arrays)
        else:
            if inputs is None:
                inputs = net.encode(positions[fitted])
            rng = _round_rng(config, round_, 1 + epoch)
            fit_epoch(net, adams, positions[fitted], inputs, targets[fitted], config, rng)
            moments = {key: value for kind, adam in adams.items() for key, value in adam.state(f"adam/{kind}/").items()}
            net.save(path, **moments)
        losses.append(loss(net, positions[held], targets[held]))
        if losses[-1] < losses[best_epoch]:
            best, best_epoch = net.copy(), epoch
        bar.update(task, completed=epoch)
    return best, {"held_out_loss": [round(value, 5) for value in losses], "chosen_epoch": best_epoch}


# --- the command ------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m hraj.games.backgammon.train distil",
        description="Fit hraj's backgammon nets to the values of their own search (NumPy, one core).",
    )
    defaults = DistilConfig()
    parser.add_argument("--positions", type=int, default=defaults.positions, help="positions labelled a round")
    parser.add_argument("--rounds", type=int, default=defaults.rounds, help="label with the refitted net and refit")
    parser.add_argument("--plies", type=int, default=defaults.plies, choices=(1, 2), help="how deep the labels search")
    parser.add_argument("--seed", type=int, default=defaults.seed, help="seed of the games and the fitting")
    parser.add_argument("--explore", type=float, default=defaults.explore, help="chance of a random self-play move")
    parser.add_argument(
        "--alternatives", type=float, default=defaults.alternatives, help="chance to keep a play not chosen too"
    )
    parser.add_argument("--epochs", type=int, default=defaults.epochs, help="passes over the positions a round")
    parser.add_argument("--batch", type=int, default=defaults.batch, help="positions a gradient step")
    parser.add_argument("--rate", type=float, default=defaults.rate, help="Adam's step size")
    parser.add_argument("--hidden", type=int, default=0, help="hidden units (more than the start adds some)")
    parser.add_argument(
        "--fresh", action="store_true", help="fit new race and contact nets on expert inputs in the first round"
    )
    parser.add_argument(
        "--start", type=Path, default=None, help="the nets to start from (.npz, a training checkpoint; the package's)"
    )
    parser.add_argument("--work", type=Path, default=Path("var/backgammon-distil"), help="the work folder")
    parser.add_argument("--out", type=Path, default=None, help="where net.npz and net.json go (the package)")
    parser.add_argument("--resume", action="store_true", help="go on from what the work folder holds")
    return parser.parse_args(argv)


def config_of(args: argparse.Namespace) -> DistilConfig:
    config = DistilConfig(
        seed=args.seed,
        positions=args.positions,
        rounds=args.rounds,
        plies=args.plies,
        explore=args.explore,
        alternatives=args.alternatives,
        epochs=args.epochs,
        batch=args.batch,
        rate=args.rate,
        hidden=args.hidden,
        fresh=args.fresh,
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
        for name in ("rounds", "plies", "explore", "alternatives", "epochs", "batch", "rate", "hidden")
        if getattr(config, name) != getattr(default, name)
    )
    options += " --fresh" if config.fresh else ""
    return f"python -m hraj.games.backgammon.train distil --positions {config.positions} --seed {config.seed}{options}"


def described(start: Path | None) -> dict[str, object]:
    """How the starting nets were made: the package's `net.json`, or a training checkpoint's state."""
    from hraj.games.backgammon.evaluator import shipped
    from hraj.games.backgammon.train import Trainer
    from hraj.games.backgammon.train import command as train_command

    if start is None:
        return dict(shipped().config)
    with np.load(start) as data:
        if "state" not in data.files:
            return {"start": str(start)}
    trainer, seconds = Trainer.load(start)
    return {
        "command": train_command(trainer.config, trainer.games),
        "games": trainer.games,
        "training_seconds": round(seconds),
        **asdict(trainer.config),
    }


def main(argv: list[str] | None = None) -> None:
    from hraj.games.backgammon.evaluator import shipped
    from hraj.games.backgammon.train import package_folder

    args = parse_args(argv)
    config = config_of(args)
    start = shipped() if args.start is None else Evaluator.load(args.start)
    before = described(args.start)
    started = time.process_time()
    net, summaries = run(start, config, args.work, args.resume)
    out: Path = args.out or package_folder()
    out.mkdir(parents=True, exist_ok=True)
    net.save(out / "net.npz")
    description = {
        "method": f"{config.plies}-ply search distilled into the 0-ply nets: positions from self-play labelled "
        f"with the nets' {config.plies}-ply values (bear-offs from the database), fitted by Adam on the cross-entropy",
        "command": f"{before['command']} && {command(config)}" if "command" in before else command(config),
        "games": before.get("games"),
        "hidden": net.hidden,
        "distil": asdict(config),
        "rounds": summaries,
        "distil_cpu_seconds": round(time.process_time() - started),
        "started_from": before,
    }
    (out / "net.json").write_text(json.dumps(description, indent=2) + "\n", encoding="utf-8")


__all__ = ["DistilConfig", "collect", "command", "label", "main", "parse_args", "run", "widen"]
