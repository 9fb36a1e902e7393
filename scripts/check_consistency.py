"""Ask ``check --facts`` what ``explain`` answers: the same text, read as TensorFlow's child output.

For each plain (not gzipped) log under ``tests/data/logs_unseen/`` whose expected cause
``explain`` finds, a facts document is built from a healthy machine
(``tests/data/healthy/``) with the log's text placed where TensorFlow's child would have
printed it:

- ``import-failed``: ``import tensorflow`` failed with that output (the last exception as its
  error, the text as its stderr);
- ``import-killed``: a signal killed the import (the one the shell's words name), with that
  text as its stderr;
- ``import-ok``: TensorFlow imported and printed that text on its stderr (listing no GPU where
  the text shows it skipping the GPU's registration);
- ``smoke-failed``: TensorFlow imported cleanly, and the smoke run failed with that output.

The machine follows the log only where the log shows it (its Python, its operating system,
its GPU's compute capability); everything else is the healthy machine's. The checks run on
each document, and the script prints, by family (the expected cause), how many cases each
placement names that cause at warning or above (a cause that an import which ran refutes
counts as consistent where the placement has the import run: observed beats inferred), and
for the others what ``check`` named instead; ``natural`` tallies the placement the log's shape
implies (an import's traceback, a shell's word for a signal, another traceback, TensorFlow's
log lines alone; an installer's output is no child's and is only counted). Held-out
(gzipped) cases are never read.

    PYTHONPATH=. python scripts/check_consistency.py [--batch GLOB] [--cause CAUSE ...]
        [--json OUT] [--verbose]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Optional

from tfdoctor.causes import CONTRADICTED_BY
from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.evidence.tflog import GpuRegistrationSkipped, error_lines, of_kind, read_events
from tfdoctor.evidence.traceback import read_tracebacks
from tfdoctor.explain import explain, reveal, scan
from tfdoctor.explain.reader import split_text
from tfdoctor.facts import (
    Facts,
    PlatformFacts,
    SmokeFacts,
    TensorFlowFacts,
    TFStatus,
    facts_from_json,
)
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import Matrix, load_matrix
from tfdoctor.probes.tensorflow import bounded_stderr
from tfdoctor.signatures import Signatures, load_signatures

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "tests" / "data" / "logs_unseen"
#: The healthy machine every document starts from: a CUDA build that lists its GPU.
BASE = ROOT / "tests" / "data" / "healthy" / "tf218-and-cuda-venv-t4.json"
PLACEMENTS = ("import-failed", "import-killed", "import-ok", "smoke-failed")
#: The signal a shell's words name, as bash prints a child killed by it (strsignal(3)).
SIGNALS = (
    ("Illegal instruction", "SIGILL"),
    ("Segmentation fault", "SIGSEGV"),
    ("Aborted", "SIGABRT"),
    ("Bus error", "SIGBUS"),
)
#: The words of an installer's own output (pip, conda): not what TensorFlow's child prints,
#: so no placement is natural for such a log.
INSTALLER_WORDS = (
    "Could not find a version that satisfies",
    "No matching distribution found",
    "ResolutionImpossible",
    "UnsatisfiableError",
    "PackagesNotFoundError",
    "Successfully installed",
)


@dataclasses.dataclass
class Case:
    """One log and what its record expects."""

    name: str
    log: str
    cause: str


def cases(pattern: str, wanted: Sequence[str]) -> Iterator[Case]:
    """The plain logs of the batches matching ``pattern``, failures only (benign logs have no
    cause to compare); never a held-out (gzipped) one."""
    for directory in sorted(LOGS.glob(pattern)):
        for log in sorted(directory.glob("*.log")):
            meta = json.loads(log.with_suffix(".json").read_text(encoding="utf-8"))
            if meta.get("held_out") is True or meta["cause"] == "benign":
                continue
            if not wanted or meta["cause"] in wanted:
                text = log.read_text(encoding="utf-8", errors="replace")
                yield Case(f"{directory.name}/{log.stem}", text, meta["cause"])


def _named(findings: Sequence[Finding], cause: str) -> bool:
    """A finding names ``cause`` at warning or above."""
    return any(f.cause == cause and f.severity.rank >= Severity.WARNING.rank for f in findings)


def _worst(findings: Sequence[Finding]) -> str:
    """The causes named at warning or above (``-`` for none), as ``cause:severity``."""
    named = [
        f"{f.cause or f.id}:{f.severity.value}"
        for f in findings
        if f.severity.rank >= Severity.WARNING.rank
    ]
    return ", ".join(dict.fromkeys(named)) or "-"


def _machine(base: Facts, text: str, matrix: Matrix, signatures: Signatures) -> Facts:
    """The healthy machine, with the Python, operating system and GPU the log shows."""
    revealed = reveal(scan([split_text(text)], signatures), matrix)
    facts = base
    py = facts.python
    if revealed.python and py is not None:
        minor = ".".join(revealed.python.split(".")[:2])
        facts = dataclasses.replace(
            facts,
            python=dataclasses.replace(
                py,
                version=revealed.python,
                site_packages=(f"/home/user/tf/lib/python{minor}/site-packages",),
            ),
        )
    plat = facts.platform
    if revealed.os in ("Windows", "macOS") and plat is not None:
        windows = revealed.os == "Windows"
        facts = dataclasses.replace(
            facts,
            platform=PlatformFacts(
                system="Windows" if windows else "Darwin",
                release="10" if windows else "23.6.0",
                os_name="Windows 10" if windows else "macOS 14.6",
                machine="AMD64" if windows else "arm64",
                libc="",
                libc_version=None,
                wsl=None,
                container=None,
                rosetta=False,
            ),
            # No NVIDIA driver on a Mac; Windows keeps the GPU, not Linux's CUDA libraries.
            driver=facts.driver if windows else None,
            cuda_libs=None,
        )
    driver = facts.driver
    if revealed.compute_capability and driver is not None and driver.gpus:
        gpu = dataclasses.replace(
            driver.gpus[0],
            compute_capability=revealed.compute_capability,
            name=revealed.gpu_name or driver.gpus[0].name,
        )
        facts = dataclasses.replace(facts, driver=dataclasses.replace(driver, gpus=(gpu,)))
    return facts


def _last_exception(text: str) -> tuple[Optional[str], Optional[str]]:
    """The type and message of the last exception the text shows that stopped the program."""
    stopped = [tb for tb in read_tracebacks(text) if not tb.ignored and not tb.warned]
    if not stopped:
        return None, None
    return stopped[-1].type, stopped[-1].message


def natural(text: str) -> str:
    """The placement the log's shape implies: an exception raised under an import of
    TensorFlow's (its frames, or the statement above it) is a failed import; another exception
    a failed run; TensorFlow's log lines alone an import that printed them."""
    stopped = [tb for tb in read_tracebacks(text) if not tb.ignored and not tb.warned]
    if not stopped and any(words in text for words, _ in SIGNALS):
        return "import-killed"
    if any(words in text for words in INSTALLER_WORDS):
        return "installer"
    if not stopped:
        return "import-ok"
    last = stopped[-1]
    importing = "import" in last.statement or any(
        "import" in (f.code or "") for f in last.frames[:2]
    )
    if importing or last.type.rsplit(".", 1)[-1] in ("ImportError", "ModuleNotFoundError"):
        return "import-failed"
    return "smoke-failed"


def place(base: Facts, text: str, placement: str) -> Facts:
    """``base`` with ``text`` printed by TensorFlow's child as ``placement`` says."""
    tf = base.tensorflow
    assert tf is not None
    tail = bounded_stderr(text)
    logged = error_lines(text)
    error_type, message = _last_exception(text)
    if placement == "import-failed":
        failed = TensorFlowFacts(
            status=TFStatus.IMPORT_ERROR,
            interpreter=tf.interpreter,
            error_type=error_type or "ImportError",
            error_message=message or "",
            log_errors=logged,
            stderr_tail=tail,
            timeout=tf.timeout,
        )
        return dataclasses.replace(base, tensorflow=failed)
    if placement == "import-killed":
        signal = next((name for words, name in SIGNALS if words in text), "SIGSEGV")
        killed = TensorFlowFacts(
            status=TFStatus.SIGNAL,
            interpreter=tf.interpreter,
            signal=signal,
            log_errors=logged,
            stderr_tail=tail,
            timeout=tf.timeout,
        )
        return dataclasses.replace(base, tensorflow=killed)
    if placement == "import-ok":
        # Where the text shows TensorFlow skipping the GPU's registration, it lists none.
        skipped = bool(of_kind(read_events(text), GpuRegistrationSkipped))
        devices = tuple(d for d in tf.devices if d.device_type != "GPU") if skipped else tf.devices
        return dataclasses.replace(
            base,
            tensorflow=dataclasses.replace(
                tf, log_errors=logged, stderr_tail=tail, devices=devices
            ),
        )
    smoke = SmokeFacts(
        status="child-error",
        level="quick",
        interpreter=tf.interpreter,
        tf_version=tf.version,
        error_message=f"{error_type}: {message}" if error_type else None,
        stderr_tail=tail,
    )
    return dataclasses.replace(base, smoke=smoke)


def compare(
    case: Case, base: Facts, matrix: Matrix, signatures: Signatures
) -> Optional[dict[str, Any]]:
    """What explain and each placement's check name for ``case``; None where explain does
    not name the expected cause (nothing to be consistent with)."""
    said = explain([split_text(case.log)], signatures, matrix)
    if not _named(said.findings, case.cause):
        return None
    machine = _machine(base, case.log, matrix, signatures)
    row: dict[str, Any] = {"case": case.name, "cause": case.cause, "natural": natural(case.log)}
    for placement in PLACEMENTS:
        facts = place(machine, case.log, placement)
        found = run_checks(CheckContext(facts, matrix))
        # A cause that what the placement shows TensorFlow doing refutes (an import error's
        # cause where it imported) is a note at most, by design: observed beats inferred.
        noted = placement != "import-failed" and case.cause in CONTRADICTED_BY["tf-imports"]
        row[placement] = {
            "right": _named(found, case.cause) or noted,
            "got": _worst(found),
        }
    return row


def summary(rows: Sequence[dict[str, Any]], verbose: bool) -> str:
    """Per family: right/total for each placement (``*`` the natural one's tally), and what
    check named in the cases its natural placement missed."""
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by[row["cause"]].append(row)
    lines = [f"{'family':44} {'n':>3} {'natural':>8}  " + "  ".join(PLACEMENTS)]
    for cause, every_row in sorted(by.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        installer = [r for r in every_row if r["natural"] == "installer"]
        group = [r for r in every_row if r["natural"] != "installer"]
        if installer:
            lines.append(f"{cause:44} {len(installer):>3} installer output, not TensorFlow's")
        if not group:
            continue
        right = sum(r[r["natural"]]["right"] for r in group)
        cells = [f"{sum(r[p]['right'] for r in group):>{len(p)}}" for p in PLACEMENTS]
        lines.append(f"{cause:44} {len(group):>3} {right:>8}  " + "  ".join(cells))
        missed = Counter(r[r["natural"]]["got"] for r in group if not r[r["natural"]]["right"])
        for got, count in missed.most_common(None if verbose else 3):
            lines.append(f"    {count} x check named: {got}")
        if verbose:
            lines.extend(
                f"    - {r['case']} ({r['natural']})" for r in group if not r[r["natural"]]["right"]
            )
    child = [r for r in rows if r["natural"] != "installer"]
    every = len(child)
    right = sum(r[r["natural"]]["right"] for r in child)
    lines.append(f"natural placement: {right}/{every} consistent")
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the comparison and print the families where check is silent or names another
    cause; 0 always (it measures, it does not judge)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", default="batch-*", help="glob of the batches to read")
    parser.add_argument(
        "--cause", action="append", default=[], help="only the cases expecting this cause"
    )
    parser.add_argument("--json", type=Path, help="write every row here")
    parser.add_argument("--verbose", action="store_true", help="name every case missed")
    args = parser.parse_args(argv)
    matrix = load_matrix()
    signatures = load_signatures()
    base = facts_from_json(json.loads(BASE.read_text(encoding="utf-8")))
    rows = [
        row
        for case in cases(args.batch, args.cause)
        if (row := compare(case, base, matrix, signatures)) is not None
    ]
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    print(summary(rows, args.verbose))
    return 0


if __name__ == "__main__":
    sys.exit(main())
