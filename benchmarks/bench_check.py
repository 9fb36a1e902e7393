"""Time ``import tensorflow``, ``tfdoctor check --static`` and ``tfdoctor check`` side by side.

Run from the repository root with the environment under test active::

    python benchmarks/bench_check.py --runs 7

Each command is a fresh process, timed wall-clock; the runs interleave so drift on a shared
machine hits every command alike. Prints the medians and the ratios against the TensorFlow
import. Targets: ``check --static`` <= 0.08x the import; ``check`` <= 1.25x.
"""

from __future__ import annotations

import sys

from _timing import print_medians, runs_from_arguments, time_interleaved

COMMANDS = {
    "import tensorflow": [sys.executable, "-c", "import tensorflow"],
    "tfdoctor check --static": [sys.executable, "-m", "tfdoctor", "check", "--static", "--json"],
    "tfdoctor check": [sys.executable, "-m", "tfdoctor", "check", "--json"],
}


def main() -> int:
    runs = runs_from_arguments(__doc__.splitlines()[0], default=5)
    medians = print_medians(time_interleaved(COMMANDS, runs), "import tensorflow", "import")
    base = medians["import tensorflow"]
    static, full = medians["tfdoctor check --static"], medians["tfdoctor check"]
    static_met = static <= 0.08 * base
    print(f"target check --static <= 0.08x import: {'met' if static_met else 'MISSED'}")
    print(f"target check <= 1.25x import: {'met' if full <= 1.25 * base else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
