"""Time ``tfdoctor pin`` against ``pip freeze`` on the same environment, side by side.

Run from the repository root with the environment under test active::

    python benchmarks/bench_pin.py --runs 7

Each command is a fresh process, timed wall-clock; the runs interleave so drift on a shared
machine hits every command alike. Prints the medians and the ratio against ``pip freeze``.
Target: ``tfdoctor pin`` (and ``pin --all``) at most as slow as ``pip freeze``.
``tfdoctor --version`` is timed too: the start-up every command pays before doing anything.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COMMANDS = {
    "pip freeze": [sys.executable, "-m", "pip", "freeze", "--disable-pip-version-check"],
    "tfdoctor pin": [sys.executable, "-m", "tfdoctor", "pin"],
    "tfdoctor pin --all": [sys.executable, "-m", "tfdoctor", "pin", "--all"],
    # The CLI's start-up floor (imports only): what pin costs beyond it is its own work.
    "tfdoctor --version": [sys.executable, "-m", "tfdoctor", "--version"],
}


def time_once(argv: list[str]) -> float:
    """Seconds one run of ``argv`` takes; output discarded."""
    start = time.perf_counter()
    subprocess.run(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=300
    )
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command (>= 5)")
    args = parser.parse_args()
    runs = max(5, args.runs)
    for argv in COMMANDS.values():  # warm the page cache once
        time_once(argv)
    samples: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(runs):
        for name, argv in COMMANDS.items():
            samples[name].append(time_once(argv))
    medians = {name: statistics.median(s) for name, s in samples.items()}
    base = medians["pip freeze"]
    print(f"runs per command: {runs}")
    for name, med in medians.items():
        spread = f"{min(samples[name]):.3f}-{max(samples[name]):.3f}"
        print(f"{name:20} median {med:6.3f} s  (range {spread})  {med / base:5.2f}x pip freeze")
    met = all(medians[n] <= base for n in ("tfdoctor pin", "tfdoctor pin --all"))
    print(f"target pin <= pip freeze: {'met' if met else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
