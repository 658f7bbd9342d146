"""Train the backgammon evaluator by TD(λ) self-play, many games in lockstep, in NumPy.

Run `python -m hraj.games.backgammon.train --games 1000000 --seed 1` (see `--help`).
The nets (one for races, one for contact positions, on the expert inputs of
`features`) play both sides at 0-ply: each roll's best play by their own evaluation,
bear-offs from the database. A generation of games (`--lockstep`, 256) is played a turn
at a time for all of them (`lockstep`), every play of every game scored in one batch.
As games end, each position of a game (seen by the side on roll, before it rolls)
gets its λ-return: a mix of the evaluations of the positions that followed it, ending
in the game's exact result (win, gammon, backgammon). Every `--update-games` finished
games, the nets take Adam steps on minibatches of those positions toward their
λ-returns (the cross-entropy of the five outputs), so later games of the generation
already play with what the earlier ones taught.

The next position belongs to the other side, so its outputs are flipped
(`evaluator.flip`) to serve as a target. Checkpoints (weights, Adam's moments, games
played, the generator's state) are written to the work folder after whole generations
every `--checkpoint-every` games; `--resume` continues from the latest one and gives
the weights of a run that never stopped. The final nets go to `--out` (the package
folder by default) as `net.npz` with `net.json`, the configuration that made them.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, replace
from importlib import resources
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.evaluator import OFF, Evaluator, cubeless_equity, flip
from hraj.games.backgammon.fit import Adam, fit_step
from hraj.games.backgammon.lockstep import batch_afterstates, best_of_segments, opening_rolls, swap
from hraj.games.backgammon.moves import CHECKERS, START

MAX_TURNS = 2000  # a safety net only: a game between two nets ends long before


@dataclass(frozen=True)
class Config:
    """Everything that decides the weights, together with the seed and the games played."""

    seed: int = 1
    hidden: int = 128
    encoding: str = "expert"
    rate: float = 0.003
    """Adam's step size at the start; it falls as `rate / (1 + games / rate_half_life)`."""
    rate_half_life: int = 250_000
    rate_changes: tuple[tuple[int, float], ...] = ()
    """(games, rate): from that many games on, the step size starts from this rate instead
    (`--resume --rate`: a lower rate to finish a run)."""
    trace_decay: float = 0.7
    """λ: how far back each evaluation's error reaches."""
    lockstep: int = 256
    """Games played together, a generation."""
    update_games: int = 16
    """Finished games between learning steps."""
    batch: int = 128
    """Positions a minibatch."""
    init_scale: float = 0.1


def learning_rate(config: Config, games: int) -> float:
    rate = config.rate
    for start, changed in config.rate_changes:
        if games >= start:
            rate = changed
    return rate / (1 + games / config.rate_half_life)


def start_positions(count: int) -> NDArray[np.int8]:
    return np.tile(np.array((*START, *START), dtype=np.int8), (count, 1))


def lambda_returns(successors: NDArray[np.float64], trace_decay: float) -> NDArray[np.float64]:
    """Each position's λ-return from the flipped values of its successors (the last exact):
    G_t = (1 - λ) s_t + λ flip(G_{t+1}), where s_t is already seen from t's side."""
    returns = np.empty_like(successors)
    returns[-1] = successors[-1]
    for t in range(len(successors) - 2, -1, -1):
        returns[t] = (1 - trace_decay) * successors[t] + trace_decay * flip(returns[t + 1])
    return returns


class Trainer:
    """The nets, their optimisers and the generator: what a checkpoint holds."""

    def __init__(self, evaluator: Evaluator, config: Config, rng: np.random.Generator, games: int = 0) -> None:
        self.evaluator, self.config, self.rng, self.games = evaluator, config, rng, games
        self.adams = {kind: Adam(net) for kind, net in evaluator.nets.items()}
        self.positions_seen = 0

    def learn(self, finished: list[tuple[NDArray[np.int8], NDArray[np.float64]]]) -> None:
        """Adam steps on the positions of finished games toward their λ-returns."""
        positions = np.concatenate([game for game, _ in finished])
        targets = np.concatenate([lambda_returns(values, self.config.trace_decay) for _, values in finished])
        order = self.rng.permutation(len(positions))
        rate = learning_rate(self.config, self.games)
        for start in range(0, len(order), self.config.batch):
            chosen = order[start : start + self.config.batch]
            fit_step(self.evaluator, self.adams, positions[chosen], targets[chosen], rate)
        self.positions_seen += len(positions)

    def generation(self) -> None:
        """Play `config.lockstep` games together, learning as they end (a game that reaches
        `MAX_TURNS`, which only nets that have barely started learning play, counts but
        teaches nothing)."""
        count = self.config.lockstep
        current = start_positions(count)
        alive = np.arange(count)
        seen = np.zeros((count, 64, current.shape[1]), dtype=np.int8)
        values = np.zeros((count, 64, 5))
        finished: list[tuple[NDArray[np.int8], NDArray[np.float64]]] = []
        for turn in range(MAX_TURNS):
            if not len(alive):
                break
            if turn == seen.shape[1]:
                seen = np.concatenate([seen, np.zeros_like(seen)], axis=1)
                values = np.concatenate([values, np.zeros_like(values)], axis=1)
            dice = opening_rolls(count, self.rng) if turn == 0 else self.rng.integers(1, 7, (len(alive), 2))
            after = batch_afterstates(current, dice)
            theirs = self.evaluator.probabilities(swap(after.positions))  # the opponent on roll
            chosen = best_of_segments(-cubeless_equity(theirs), after)
            seen[alive, turn] = current
            values[alive, turn] = flip(theirs[chosen])  # exact where the mover has just won
            played = after.positions[chosen]
            won = played[:, OFF] == CHECKERS
            for slot in alive[won]:
                finished.append((seen[slot, : turn + 1].copy(), values[slot, : turn + 1].copy()))
                self.games += 1
                if len(finished) == self.config.update_games:
                    self.learn(finished)
                    finished = []
            alive, current = alive[~won], swap(played[~won])
        self.games += len(alive)  # cut off by MAX_TURNS: no result to learn from
        if finished:
            self.learn(finished)

    # --- checkpoints ---------------------------------------------------------------------------

    def save(self, work: Path, seconds: float) -> Path:
        work.mkdir(parents=True, exist_ok=True)
        path = work / f"checkpoint-{self.games:08d}.npz"
        state = json.dumps(
            {
                "games": self.games,
                "seconds": round(seconds, 1),
                "config": asdict(self.config),
                "rng": self.rng.bit_generator.state,
            }
        )
        moments = {
            key: value for kind, adam in self.adams.items() for key, value in adam.state(f"adam/{kind}/").items()
        }
        self.evaluator.save(path, state=np.array(state), **moments)
        return path

    @classmethod
    def load(cls, path: Path) -> tuple[Trainer, float]:
        """A trainer from a checkpoint, and the training seconds it had taken."""
        with np.load(path) as data:
            state = json.loads(str(data["state"]))
            arrays = {key: data[key] for key in data.files if key.startswith("adam/")}
        if not isinstance(state, dict) or not isinstance(state.get("config"), dict):
            raise ValueError(f"{path} holds no training state")
        fields = state["config"]
        fields["rate_changes"] = tuple((int(start), float(rate)) for start, rate in fields.get("rate_changes", ()))
        rng = np.random.default_rng()
        rng.bit_generator.state = state["rng"]
        trainer = cls(Evaluator.load(path), Config(**fields), rng, int(state["games"]))
        for kind, adam in trainer.adams.items():
            adam.restore(f"adam/{kind}/", arrays)
        return trainer, float(state.get("seconds", 0))


def latest_checkpoint(work: Path) -> Path | None:
    found = sorted(work.glob("checkpoint-*.npz"))
    return found[-1] if found else None


def checkpoint_games(path: Path) -> int:
    return int(path.stem.split("-")[1])


def checkpoints(work: Path, every: int = 1) -> list[tuple[int, Path]]:
    """The checkpoints in `work`, oldest first, with their games: those after a multiple
    of `every` games (a training curve's points)."""
    found = [(checkpoint_games(path), path) for path in sorted(work.glob("checkpoint-*.npz"))]
    return [(games, path) for games, path in found if games % every == 0]


def command(config: Config, games: int) -> str:
    """The commands that train these nets again (one more with --resume for each change of rate)."""
    stops = [start for start, _ in config.rate_changes] + [games]
    default = Config()
    options = "".join(
        f" --{name.replace('_', '-')} {getattr(config, field)}"
        for name, field in (
            ("hidden", "hidden"),
            ("rate", "rate"),
            ("rate_half_life", "rate_half_life"),
            ("lambda", "trace_decay"),
            ("lockstep", "lockstep"),
            ("update_games", "update_games"),
            ("batch", "batch"),
        )
        if getattr(config, field) != getattr(default, field)
    )
    lines = [f"python -m hraj.games.backgammon.train --games {stops[0]} --seed {config.seed}{options}"]
    for (_, rate), stop in zip(config.rate_changes, stops[1:], strict=True):
        lines.append(f"python -m hraj.games.backgammon.train --resume --rate {rate} --games {stop}")
    return " && ".join(lines)


def write_net(out: Path, net: Evaluator, config: Config, games: int, seconds: float) -> None:
    """The shipped files: `net.npz` (float32 weights) and `net.json` (how they were made)."""
    out.mkdir(parents=True, exist_ok=True)
    net.save(out / "net.npz")
    description = {
        "method": "TD(lambda) self-play at 0-ply in lockstep generations, race and contact nets on expert "
        "inputs, Adam on the cross-entropy toward offline lambda-returns",
        "command": command(config, games),
        "games": games,
        "training_seconds": round(seconds),
        **asdict(config),
    }
    (out / "net.json").write_text(json.dumps(description, indent=2) + "\n", encoding="utf-8")


def package_folder() -> Path:
    return Path(str(resources.files("hraj.games.backgammon")))


# --- the command ---------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m hraj.games.backgammon.train",
        description="Train hraj's backgammon nets by TD(lambda) self-play in lockstep (NumPy, one core).",
        epilog="Then refine them: 'python -m hraj.games.backgammon.train distil --help' fits the nets "
        "to the 1-ply values of their own search.",
    )
    defaults = Config()
    parser.add_argument("--games", type=int, default=1_000_000, help="games to train in all")
    parser.add_argument("--seed", type=int, default=defaults.seed, help="seed of the weights and the dice")
    parser.add_argument("--hidden", type=int, default=defaults.hidden, help="hidden units of each net")
    parser.add_argument(
        "--rate",
        type=float,
        default=None,
        help=f"Adam's step size at the start (default {defaults.rate}); with --resume, from the checkpoint on",
    )
    parser.add_argument("--rate-half-life", type=int, default=defaults.rate_half_life, help="games until it halves")
    parser.add_argument("--lambda", dest="trace_decay", type=float, default=defaults.trace_decay, help="TD's lambda")
    parser.add_argument("--lockstep", type=int, default=defaults.lockstep, help="games played together")
    parser.add_argument("--update-games", type=int, default=defaults.update_games, help="games between updates")
    parser.add_argument("--batch", type=int, default=defaults.batch, help="positions a minibatch")
    parser.add_argument("--checkpoint-every", type=int, default=10_240, help="games between checkpoints")
    parser.add_argument("--work", type=Path, default=Path("var/backgammon-training"), help="checkpoint folder")
    parser.add_argument("--out", type=Path, default=None, help="where net.npz and net.json go (the package)")
    parser.add_argument("--resume", action="store_true", help="continue from the latest checkpoint in --work")
    parser.add_argument(
        "--export", type=Path, default=None, metavar="CHECKPOINT", help="only write this checkpoint's nets to --out"
    )
    return parser.parse_args(argv)


def _trainer(args: argparse.Namespace) -> tuple[Trainer, float]:
    latest = latest_checkpoint(args.work) if args.resume else None
    if latest is not None:
        trainer, spent = Trainer.load(latest)
        config = trainer.config
        if args.rate is not None:
            changed = replace(config, rate_changes=(*config.rate_changes, (trainer.games, args.rate)))
            if learning_rate(changed, trainer.games) != learning_rate(config, trainer.games):
                trainer.config = changed
        return trainer, spent
    config = Config(
        seed=args.seed,
        hidden=args.hidden,
        rate=Config.rate if args.rate is None else args.rate,
        rate_half_life=args.rate_half_life,
        trace_decay=args.trace_decay,
        lockstep=args.lockstep,
        update_games=args.update_games,
        batch=args.batch,
    )
    net = Evaluator.random(config.hidden, config.seed, config.init_scale, config.encoding)
    return Trainer(net, config, np.random.default_rng(config.seed)), 0.0


def run(args: argparse.Namespace, log: bool = True) -> Evaluator:
    """Train as the arguments say; returns the final nets (also written to --out)."""
    trainer, spent = _trainer(args)
    started = time.perf_counter()
    last = trainer.games
    while trainer.games < args.games:
        trainer.generation()
        if trainer.games - last >= args.checkpoint_every or trainer.games >= args.games:
            seconds = spent + time.perf_counter() - started
            path = trainer.save(args.work, seconds)
            if log:
                rate = (trainer.games - last) / max(time.perf_counter() - started, 1e-9)
                print(f"{trainer.games} games, {seconds:.0f} s, {rate:.0f} games/s: {path}", flush=True)
                started, spent = time.perf_counter(), seconds
            last = trainer.games
    seconds = spent + time.perf_counter() - started
    write_net(args.out or package_folder(), trainer.evaluator, trainer.config, trainer.games, seconds)
    return trainer.evaluator


def export(checkpoint: Path, out: Path) -> None:
    """Write a checkpoint's nets as the shipped files, with the configuration that made them."""
    trainer, seconds = Trainer.load(checkpoint)
    write_net(out, trainer.evaluator, trainer.config, trainer.games, seconds)


def main(argv: list[str] | None = None) -> None:
    words = sys.argv[1:] if argv is None else argv
    if words[:1] == ["distil"]:
        from hraj.games.backgammon import distil

        distil.main(words[1:])
        return
    args = parse_args(words)
    if args.export is not None:
        export(args.export, args.out or package_folder())
        return
    if min(args.games, args.checkpoint_every, args.hidden, args.lockstep, args.update_games, args.batch) < 1:
        raise SystemExit(
            "--games, --checkpoint-every, --hidden, --lockstep, --update-games and --batch must be positive."
        )
    bad_rate = args.rate is not None and (not math.isfinite(args.rate) or args.rate <= 0)
    if bad_rate or not 0 <= args.trace_decay <= 1:
        raise SystemExit("--rate must be positive and --lambda between 0 and 1.")
    run(args)


if __name__ == "__main__":
    main()


__all__ = ["Config", "Trainer", "lambda_returns", "learning_rate", "main", "run"]
