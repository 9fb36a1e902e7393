"""Time ``import tensorflow``, ``tfdoctor check --static`` and ``tfdoctor check`` side by side.

Run from the repository root with the environment under test active::

    python benchmarks/bench_check.py --runs 7

Each command is a fresh process, timed wall-clock; the runs interleave so drift on a shared
machine hits every command alike. Prints the medians and the ratios against the TensorFlow
import. Targets: ``check --static`` <= 0.2x the import and < 0.5 s; ``check`` <= 1.25x.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COMMANDS = {
    "import tensorflow": [sys.executable, "-c", "import tensorflow"],
    "tfdoctor check --static": [sys.executable, "-m", "tfdoctor", "check", "--static", "--json"],
    "tfdoctor check": [sys.executable, "-m", "tfdoctor", "check", "--json"],
}


def time_once(argv: list[str]) -> float:
    """Seconds one run of ``argv`` takes; output discarded, exit code ignored (it is a verdict)."""
    start = time.perf_counter()
    subprocess.run(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=300
    )
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per command (>= 5)")
    args = parser.parse_args()
    runs = max(5, args.runs)
    for argv in COMMANDS.values():  # warm the page cache once
        time_once(argv)
    samples: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(runs):
        for name, argv in COMMANDS.items():
            samples[name].append(time_once(argv))
    medians = {name: statistics.median(s) for name, s in samples.items()}
    base = medians["import tensorflow"]
    print(f"runs per command: {runs}")
    for name, med in medians.items():
        spread = f"{min(samples[name]):.3f}-{max(samples[name]):.3f}"
        print(f"{name:26} median {med:6.3f} s  (range {spread})  {med / base:5.2f}x import")
    static, full = medians["tfdoctor check --static"], medians["tfdoctor check"]
    static_met = static <= 0.2 * base and static < 0.5
    print(f"target check --static <= 0.2x import and < 0.5 s: {'met' if static_met else 'MISSED'}")
    print(f"target check <= 1.25x import: {'met' if full <= 1.25 * base else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
