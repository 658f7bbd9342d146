"""How fast `hraj --help` starts, side by side with the floors under it.

Run: `.venv/bin/python -m benchmarks.cli_start [--runs N]`. Each line starts a fresh
Python N times and prints the median and the fastest wall time: a bare interpreter,
`import typer` (the command-line library every command needs), `hraj --help`, and
`import hraj.server.app` (what `hraj serve` adds, which `--help` must not pay for).
The target is `hraj --help` under 0.3 s on an idle machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

CASES = {
    "python -c pass": ["-c", "pass"],
    "import typer": ["-c", "import typer"],
    "hraj --help": ["-c", "from hraj.cli import main; main(['--help'])"],
    "import hraj.server.app": ["-c", "import hraj.server.app"],
}


def wall_times(args: list[str], runs: int) -> list[float]:
    times = []
    env = {**os.environ, "HRAJ_LANG": "cs"}
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    print(f"{'start':26} {'median s':>9} {'fastest s':>9}   ({runs} runs each, load {os.getloadavg()[0]:.1f})")
    for name, args in CASES.items():
        times = wall_times(args, runs)
        print(f"{name:26} {statistics.median(times):9.3f} {min(times):9.3f}")


if __name__ == "__main__":
    main()
