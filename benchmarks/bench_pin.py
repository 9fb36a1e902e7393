"""Time ``tfdoctor pin`` against ``pip freeze`` on the same environment, side by side.

Run from the repository root with the environment under test active::

    python benchmarks/bench_pin.py --runs 7

Each command is a fresh process, timed wall-clock; the runs interleave so drift on a shared
machine hits every command alike. Prints the medians and the ratio against ``pip freeze``.
Target: ``tfdoctor pin`` (and ``pin --all``) at most half as slow as ``pip freeze``.
``tfdoctor --version`` is timed too: the start-up every command pays before doing anything.
"""

from __future__ import annotations

import sys

from _timing import print_medians, runs_from_arguments, time_interleaved

COMMANDS = {
    "pip freeze": [sys.executable, "-m", "pip", "freeze", "--disable-pip-version-check"],
    "tfdoctor pin": [sys.executable, "-m", "tfdoctor", "pin"],
    "tfdoctor pin --all": [sys.executable, "-m", "tfdoctor", "pin", "--all"],
    # The CLI's start-up floor (imports only): what pin costs beyond it is its own work.
    "tfdoctor --version": [sys.executable, "-m", "tfdoctor", "--version"],
}


def main() -> int:
    runs = runs_from_arguments(__doc__.splitlines()[0], default=7)
    medians = print_medians(time_interleaved(COMMANDS, runs), "pip freeze", "pip freeze")
    freeze = medians["pip freeze"]
    met = all(medians[n] <= 0.5 * freeze for n in ("tfdoctor pin", "tfdoctor pin --all"))
    print(f"target pin <= 0.5x pip freeze: {'met' if met else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
