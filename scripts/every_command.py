"""Run every tfdoctor command once under the interpreter this script runs in.

The test suite runs on one Python; this proves the others the package admits can at least
start every command and finish it with a defined exit code and no traceback. Run it with the
interpreter to try, from a virtual environment where tfdoctor is installed:

    python scripts/every_command.py

It prints one line per command and exits 1 when any command raised, printed a traceback or
ended with an exit code outside the ones its documentation promises.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: Seconds one command may take; `check` probes the machine (about 5 s without TensorFlow).
TIMEOUT = 300

#: A log line TensorFlow prints on a machine without a GPU (``explain``'s input).
LOG = (
    "E0000 00:00:1731000000.000000   12345 cuda_executor.cc:1228] failed call to cuInit: "
    "INTERNAL: CUDA error: Failed call to cuInit: UNKNOWN ERROR (303)\n"
)

#: Code with a TensorFlow 1 call (``scan``'s input).
CODE = "import tensorflow as tf\n\nsession = tf.Session()\n"


def _commands(work: Path) -> list[tuple[list[str], frozenset[int]]]:
    """Each command line with the exit codes it may end with here (no GPU, maybe no TF)."""
    facts = str(work / "facts.json")
    log = str(work / "tf.log")
    code = str(work / "train.py")
    findings = frozenset({0, 2})
    return [
        (["--version"], frozenset({0})),
        (["--help"], frozenset({0})),
        (["check", "--static"], findings),
        (["check", "--format", "markdown"], findings),
        (["check", "--facts", facts, "--format", "junit"], findings),
        (["check", "--facts", facts, "--format", "github"], findings),
        (["check", "--facts", facts, "--format", "html"], findings),
        # The plan only (no --yes): nothing is changed.
        (["fix", "--facts", facts, "--static"], findings),
        (["fix", "--list"], frozenset({0})),
        (["smoke", "--timeout", "120"], findings),
        (["matrix"], frozenset({0})),
        (["matrix", "--companion", "tensorflow-text", "--tensorflow", "2.21"], frozenset({0})),
        (["env"], frozenset({0})),
        (["pin"], findings),
        (["explain", log], findings),
        (["scan", code], findings),
        # 0 nothing to change, 1 changes, 2 cannot be done here (a Python 2.21 has no wheel for).
        (["upgrade", "--to", "2.21", code], frozenset({0, 1, 2})),
        (
            ["upgrade", "--to", "2.15", "--facts", facts, "--format", "markdown"],
            frozenset({0, 1, 2}),
        ),
        (["run", "--", sys.executable, "-c", "raise SystemExit(4)"], frozenset({4})),
        (["bundle", "--static", "-o", str(work / "bundle.tar.gz")], frozenset({0})),
        (["diff", facts, facts, "--strict"], frozenset({0})),
        (["fleet", facts, facts], findings),
        (["fleet", facts, facts, "--format", "html"], findings),
        (["cluster", "check", "--wait-dns", "1"], findings),
        (["cluster", "local"], findings),
        (
            ["cluster", "local", "--max-size", "64", "--iterations", "2", "--min-busbw", "1"],
            findings,
        ),
    ]


def main() -> int:
    """Run each command; report and count the failures."""
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "tf.log").write_text(LOG, encoding="utf-8")
        (work / "train.py").write_text(CODE, encoding="utf-8")
        env = dict(os.environ, TFDOCTOR_NO_CACHE="1", NO_COLOR="1")
        env.pop("TF_CONFIG", None)
        saved = subprocess.run(
            [sys.executable, "-m", "tfdoctor", "check", "--static", "--json"],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            env=env,
            check=False,
        )
        try:
            json.loads(saved.stdout)
        except ValueError:
            print(f"FAIL  check --static --json: no JSON report\n{saved.stderr[-2000:]}")
            return 1
        (work / "facts.json").write_text(saved.stdout, encoding="utf-8")
        for args, allowed in _commands(work):
            start = time.monotonic()
            done = subprocess.run(
                [sys.executable, "-m", "tfdoctor", *args],
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                env=env,
                cwd=tmp,
                check=False,
            )
            seconds = time.monotonic() - start
            shown = " ".join(args).replace(tmp, "$TMP")
            output = done.stdout + done.stderr
            if done.returncode not in allowed or "Traceback (most recent call last)" in output:
                failures += 1
                print(f"FAIL  {shown}: exit {done.returncode} ({seconds:.1f} s)")
                print("      " + output[-3000:].replace("\n", "\n      "))
            else:
                print(f"ok    {shown}: exit {done.returncode} ({seconds:.1f} s)")
    version = ".".join(map(str, sys.version_info[:3]))
    print(f"Python {version}: {failures} of {len(_commands(Path()))} commands failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
