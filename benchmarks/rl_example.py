"""Train a small agent on solo Qwixx in a few minutes on a CPU, then measure it in the arena.

Run: `.venv/bin/python -m benchmarks.rl_example [--episodes N] [--seed S] [--games G]`.

The agent is `hraj.rl.policy`: a linear softmax policy over Qwixx's 45 action ids,
trained by REINFORCE on `hraj/Qwixx-v0` with one player (the final score is the
reward). The arena then plays it greedily, seeded, next to hraj's random and greedy bots on the
same dice: mean solo scores with their 95% confidence intervals. (The observation, and
so the policy, is made for one player count: a solo policy plays solo games.)
"""

from __future__ import annotations

import argparse
import statistics
import time

import hraj
from hraj.bots.arena import BotSpec, run_arena
from hraj.rl.gymnasium_env import HrajGymEnv
from hraj.rl.policy import bot_maker, train

REPORT_EVERY = 500
SCORE_SCALE = 50.0  # Qwixx scores run to about 100; returns are divided by this


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=5000)
    parser.add_argument("--learning-rate", type=float, default=0.03)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=500, help="arena games per comparison")
    parser.add_argument("--save", help="write the trained weights to this .npz file")
    args = parser.parse_args()

    env = HrajGymEnv("qwixx", players=1, reward="score")
    returns: list[float] = []
    start = time.perf_counter()

    def progress(episode: int, total: float) -> None:
        returns.append(total)
        if episode % REPORT_EVERY == 0:
            recent = statistics.fmean(returns[-REPORT_EVERY:])
            print(f"episode {episode:6d}: mean score of the last {REPORT_EVERY} {recent:6.1f}", flush=True)

    policy = train(env, args.episodes, args.seed, args.learning_rate, SCORE_SCALE, progress)
    trained = time.perf_counter() - start
    print(f"trained {args.episodes} episodes in {trained:.0f} s")
    if args.save:
        policy.save(args.save)

    solo = hraj.game("qwixx", players=1)
    agent: BotSpec = bot_maker(policy, solo)
    print(f"\nsolo Qwixx, {args.games} games each on the same seeds (mean score ± 95% CI):")
    for entrant in (agent, "random", "greedy"):
        result = run_arena(solo, [entrant], args.games, seed=args.seed + 1)
        print(f"  {result.entrants[0].bot_name:8} {result.mean_score(0)}")

    print(f"\ntotal {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
