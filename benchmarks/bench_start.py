"""Time the start of ``tfdoctor --version`` and ``tfdoctor --help`` beside Python's own.

Run from the repository root with the environment under test active::

    python benchmarks/bench_start.py --runs 11

Each command is a fresh process, timed wall-clock; the runs interleave so drift on a shared
machine hits every command alike. ``python -c pass`` is the floor every command pays (an
editable install adds its import hook to it, about 20 ms: compare with a regular install).
The untimed first run of each command makes the help texts tfdoctor keeps (README: the
cache); the timed runs read them, as every run after a user's first does.
Targets: ``tfdoctor --version`` and ``tfdoctor --help`` at most 0.15 s each.
"""

from __future__ import annotations

import sys

from _timing import print_medians, runs_from_arguments, time_interleaved

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "tfdoctor --version": [sys.executable, "-m", "tfdoctor", "--version"],
    "tfdoctor --help": [sys.executable, "-m", "tfdoctor", "--help"],
    "tfdoctor check --help": [sys.executable, "-m", "tfdoctor", "check", "--help"],
}

TARGET_SECONDS = 0.15


def main() -> int:
    runs = runs_from_arguments(__doc__.splitlines()[0], default=11)
    medians = print_medians(time_interleaved(COMMANDS, runs), "python -c pass", "python")
    for name in ("tfdoctor --version", "tfdoctor --help"):
        met = medians[name] <= TARGET_SECONDS
        print(f"target {name} <= {TARGET_SECONDS} s: {'met' if met else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
