"""Wall-clock timing of commands, each run as a fresh process, for the benchmark scripts."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from collections.abc import Mapping, Sequence


def timed(argv: Sequence[str], timeout: float = 300.0) -> tuple[float, str]:
    """Wall seconds of one run of ``argv`` and its stdout; the exit code is ignored.

    Commands such as ``tfdoctor check`` exit non-zero as a verdict, not a failure. Bytecode is
    written and read as in an installed package (pip compiles it at install time), even where
    the environment sets ``PYTHONDONTWRITEBYTECODE``: compiling every module on every run
    would measure the compiler, not the command.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    out = subprocess.run(
        list(argv),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        check=False,
        timeout=timeout,
    )
    return time.perf_counter() - start, out.stdout


def runs_from_arguments(description: str, default: int) -> int:
    """``--runs N`` from the command line: timed runs per command, at least 5."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=default, help="timed runs per command (>= 5)")
    runs: int = parser.parse_args().runs
    return max(5, runs)


def time_interleaved(commands: Mapping[str, Sequence[str]], runs: int) -> dict[str, list[float]]:
    """Seconds of ``runs`` runs of each command, after one untimed run to warm the page cache.

    The runs interleave (one of each command per round) so that drift on a shared machine
    hits every command alike.
    """
    for argv in commands.values():
        timed(argv)
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            samples[name].append(timed(argv)[0])
    return samples


def print_medians(samples: Mapping[str, Sequence[float]], base: str, unit: str) -> dict[str, float]:
    """Print each command's median, range and ratio to ``base``'s median; return the medians."""
    medians = {name: statistics.median(s) for name, s in samples.items()}
    width = max(len(name) for name in samples) + 1
    print(f"runs per command: {min(len(s) for s in samples.values())}")
    for name, med in medians.items():
        spread = f"{min(samples[name]):.3f}-{max(samples[name]):.3f}"
        ratio = med / medians[base]
        print(f"{name:{width}} median {med:6.3f} s  (range {spread})  {ratio:5.2f}x {unit}")
    return medians
