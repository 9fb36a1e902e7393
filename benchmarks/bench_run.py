"""Time a command that prints 100k lines, bare and under ``tfdoctor run``, side by side.

Run from the repository root with the environment under test active::

    python benchmarks/bench_run.py --runs 7

Two commands, each run bare and as ``python -m tfdoctor run -- COMMAND``, every run a fresh
process timed wall-clock with its stdout read through a pipe (as CI reads a job's log); the
runs interleave so drift on a shared machine hits every command alike.

- ``paced``: 100k TensorFlow-style log lines with 100 microseconds of work before each (about
  10 s, 10k lines a second: far more than a training job prints). Target: ``tfdoctor run``
  adds < 5 % wall time. What it adds is mostly its own start-up (``tfdoctor --version``,
  timed too), once per command; the forwarding runs beside the command, on another core.
- ``burst``: the same 100k lines printed as fast as Python can (about 9 MB in a fraction of a
  second): the worst case, where every chunk's hand-over shows. No target; the added seconds
  are printed to show the per-line cost.
"""

from __future__ import annotations

import statistics
import sys

from _timing import print_medians, runs_from_arguments, time_interleaved

LINES = 100_000
#: Seconds of busy work before each line of the paced command.
PACE = 100e-6
TARGET = 0.05

_PRINTER = """
import sys, time
pace = {pace!r}
write = sys.stdout.write
for i in range({lines}):
    if pace:
        until = time.perf_counter() + pace
        while time.perf_counter() < until:
            pass
    write(f"2026-01-01 12:00:00.000000: I tensorflow/core/kernels/step.cc:42] step {{i}} "
          f"loss=0.1234 accuracy=0.9876\\n")
sys.stderr.write("done\\n")
"""


def _printer(pace: float) -> list[str]:
    return [sys.executable, "-c", _PRINTER.format(pace=pace, lines=LINES)]


def _under_run(argv: list[str]) -> list[str]:
    return [sys.executable, "-m", "tfdoctor", "run", "--", *argv]


COMMANDS = {
    "paced bare": _printer(PACE),
    "paced under run": _under_run(_printer(PACE)),
    "burst bare": _printer(0.0),
    "burst under run": _under_run(_printer(0.0)),
    # The CLI's start-up floor (imports only): the part of the added time that is fixed.
    "tfdoctor --version": [sys.executable, "-m", "tfdoctor", "--version"],
}


def main() -> int:
    runs = runs_from_arguments(__doc__.splitlines()[0], default=7)
    samples = time_interleaved(COMMANDS, runs)
    print_medians(samples, "paced bare", "paced bare")
    medians = {name: statistics.median(s) for name, s in samples.items()}
    for kind in ("paced", "burst"):
        added = medians[f"{kind} under run"] - medians[f"{kind} bare"]
        share = added / medians[f"{kind} bare"]
        print(f"{kind}: tfdoctor run adds {added:+.3f} s ({share:+.1%})")
    added = medians["paced under run"] / medians["paced bare"] - 1
    print(f"target paced < {TARGET:.0%} added: {'met' if added < TARGET else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
