"""How fast `hraj --help` starts, side by side with the floors under it.

Run: `.venv/bin/python -m benchmarks.cli_start [--runs N]`. Each line starts a fresh
Python N times and prints the median and the fastest wall time, and the median CPU
time (user + system, which a busy machine inflates less than wall time): a bare interpreter,
`import typer` (the command-line library every command needs), `hraj --help`, and
`import hraj.app.site` (what `hraj serve` adds, which `--help` must not pay for), and
each one's CPU time as a multiple of the bare interpreter's. The target: `hraj --help`
within 4× of `python -c pass` (it draws its page without Typer, Babel or the games:
`hraj.cli.summary`).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

CASES = {
    "python -c pass": ["-c", "pass"],
    "import typer": ["-c", "import typer"],
    "hraj --help": ["-c", "from hraj.cli import main; main(['--help'])"],
    "import hraj.app.site": ["-c", "import hraj.app.site"],
}


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def start_times(args: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of `runs` fresh starts."""
    walls, cpus = [], []
    env = {**os.environ, "HRAJ_LANG": "cs"}
    for _ in range(runs):
        cpu, start = child_cpu(), time.perf_counter()
        subprocess.run([sys.executable, *args], check=True, capture_output=True, env=env)
        walls.append(time.perf_counter() - start)
        cpus.append(child_cpu() - cpu)
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    load = os.getloadavg()[0]
    header = f"{'start':24} {'median s':>9} {'fastest s':>9} {'cpu s':>7} {'× python':>9}"
    print(f"{header}   ({runs} runs each, load {load:.1f})")
    floor = 0.0
    for name, args in CASES.items():
        walls, cpus = start_times(args, runs)
        cpu = statistics.median(cpus)
        floor = floor or cpu
        print(f"{name:24} {statistics.median(walls):9.3f} {min(walls):9.3f} {cpu:7.3f} {cpu / floor:9.1f}")


if __name__ == "__main__":
    main()
