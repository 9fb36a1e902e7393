"""Score ``tfdoctor explain`` and ``check --facts`` on real cases they were not built from.

Usage: python benchmarks/bench_accuracy.py [--batch DIR ...] [--seen] [--details]
                                            [--json FILE] [--matrix FILE] [--jobs N]
                                            [--fail-under PCT] [--record-first-sight]

A batch is a directory of cases from public threads: under ``tests/data/logs_unseen/`` for
``explain`` (``NAME.json`` with the thread, the expected cause and fix words, beside the log
``NAME.log``), under ``tests/data/real_failures_unseen/`` for ``check`` (``NAME.json`` with an
``expect`` block, beside the machine ``NAME.facts.json``); a held-out case's log or facts is
stored gzipped (``.gz``). See each directory's README.md. Every case runs through the command
a user runs, ``python -m tfdoctor explain --json -`` with the log on stdin or ``python -m
tfdoctor check --facts - --json`` with the facts on stdin, in a fresh process with this
checkout first on the path, so the score is the tool's and not one internal function's, and
it can be recomputed on any later commit.

An ``explain`` case is right when
- benign: no finding is above ``info``;
- otherwise: a finding names the expected cause at ``warning`` or ``error``, and its fix
  contains every ``fix_has`` word and no ``fix_lacks`` word, in any case (``cudnn`` is the
  fix's ``cuDNN``; a word written from a thread does not know the fix's capitals).

A ``check`` case is right as ``tests/test_real_failures.py`` judges the seen corpus: for
``expect.cause`` ``none``, no finding at ``warning`` or above; otherwise a finding names the
cause at ``expect.severity`` or above, the fixes of the findings naming it contain every
``fix_includes`` word, and no fix in the report contains a ``fix_excludes`` word (in any case,
as for ``explain``).

Prints one table: each batch's score over all its cases, the held-out cases only and the
others, and the same split for its failures and its benign (or healthy) cases apart.

A held-out case is never named in what the bench prints or writes: its name (and its
expected cause, its findings, why it could not run) would show the families the held-out
third holds to whoever writes rules, and it would stop being a measure. ``--details`` and
``--json`` list the other cases one by one and the held-out ones as counts per batch; a
held-out case that could not be run is counted, not named.
``--seen`` adds the log corpus the signatures were written from (``tests/data/logs``) as a
reference row. ``--record-first-sight`` writes each case's result into its JSON as
``first_sight``, once: a case that has one keeps it. Exit 0; 1 when ``--fail-under`` is not
met; 2 when a case could not be run (the doctor exited 3 or printed no JSON); 3 on bad
arguments or a malformed case.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple, Optional

ROOT = Path(__file__).resolve().parent.parent
UNSEEN = ROOT / "tests" / "data" / "logs_unseen"
UNSEEN_FACTS = ROOT / "tests" / "data" / "real_failures_unseen"
SEEN = ROOT / "tests" / "data" / "logs"
#: What a case's evidence is stored as, by the command that reads it.
_EVIDENCE = {"explain": (".log", ".log.gz"), "check": (".facts.json", ".facts.json.gz")}
#: Severities at or above which a finding counts as naming a problem (``findings.Severity``).
_RANKS = {"ok": 0, "info": 1, "unknown": 2, "warning": 3, "error": 4}
_TIMEOUT = 120.0
SEEN_LABEL = "explain logs (seen)"


class Case(NamedTuple):
    """One case: the command it is for, its name, its expectation and its evidence's path."""

    kind: str  # "explain" (a log) or "check" (a facts document)
    name: str
    meta: dict[str, Any]
    meta_path: Path
    evidence: Path


class Result(NamedTuple):
    """What the doctor said about one case and whether that was right."""

    case: Case
    right: bool
    got: list[str]
    problem: str  # why the case could not be run; empty when it ran


def load_batch(directory: Path) -> list[Case]:
    """The cases of one batch directory, by name; a case without its evidence is an error."""
    cases = []
    for meta_path in sorted(directory.glob("*.json")):
        if meta_path.name == "batch.json" or meta_path.name.endswith(".facts.json"):
            continue
        name = meta_path.stem
        found = [
            (kind, directory / f"{name}{suffix}")
            for kind, suffixes in _EVIDENCE.items()
            for suffix in suffixes
            if (directory / f"{name}{suffix}").is_file()
        ]
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        # A held-out case (marked so, or stored gzipped) is refused without its name.
        held = meta.get("held_out") is True or any(e.name.endswith(".gz") for _, e in found)
        where = f"a held-out case of {directory}" if held else str(meta_path)
        if len(found) != 1:
            raise ValueError(f"{where}: expected exactly one log or facts file of its name")
        kind, evidence = found[0]
        expected = meta.get("cause") if kind == "explain" else meta.get("expect", {}).get("cause")
        if not expected or "source" not in meta:
            raise ValueError(f"{where}: no expected cause or no source")
        cases.append(Case(kind, name, meta, meta_path, evidence))
    if not cases:
        raise ValueError(f"{directory}: no cases")
    return cases


def read_evidence(path: Path) -> bytes:
    """The evidence's bytes, decompressed when it is stored gzipped."""
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


def _child_env() -> dict[str, str]:
    """This process's environment with the checkout first on the path and no matrix override."""
    # $TFDOCTOR_MATRIX would swap the bundled matrix, which fixes are fitted to, for another.
    env = {k: v for k, v in os.environ.items() if k != "TFDOCTOR_MATRIX"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    env["NO_COLOR"] = "1"
    return env


def ask(case: Case, python: str, matrix: Optional[str]) -> tuple[Optional[dict[str, Any]], str]:
    """Run the case's command on its evidence; the JSON report, or None and why not."""
    if case.kind == "explain":
        argv = [python, "-m", "tfdoctor", "explain", "--json"]
    else:
        argv = [python, "-m", "tfdoctor", "check", "--facts", "-", "--json"]
    if matrix:
        argv += ["--matrix", matrix]
    if case.kind == "explain":
        argv.append("-")
    try:
        evidence = read_evidence(case.evidence)
    except (OSError, EOFError) as exc:  # gzip.BadGzipFile is an OSError
        return None, f"cannot read {case.evidence.name}: {exc}"
    try:
        proc = subprocess.run(
            argv,
            input=evidence,
            capture_output=True,
            cwd=ROOT,
            env=_child_env(),
            timeout=_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None, f"no answer in {_TIMEOUT:.0f} s"
    if proc.returncode not in (0, 1, 2):
        tail = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        return None, f"exit {proc.returncode}: {' '.join(tail)}"
    try:
        report: dict[str, Any] = json.loads(proc.stdout)
    except ValueError:
        return None, "stdout is not JSON"
    return report, ""


def _fix_text(finding: dict[str, Any]) -> str:
    fix = finding.get("fix") or {}
    return "\n".join([str(fix.get("text", "")), *map(str, fix.get("commands", []))])


def judge(meta: dict[str, Any], report: dict[str, Any]) -> tuple[bool, list[str]]:
    """Whether the report is right for the case, and its findings as ``id:severity``."""
    findings = report.get("findings", [])
    got = [f"{f.get('id')}:{f.get('severity')}" for f in findings]
    if meta["cause"] == "benign":
        return all(_RANKS.get(f.get("severity"), 4) <= _RANKS["info"] for f in findings), got
    for finding in findings:
        if finding.get("cause") != meta["cause"]:
            continue
        if _RANKS.get(finding.get("severity"), 0) < _RANKS["warning"]:
            continue
        text = _fix_text(finding).lower()
        if all(w.lower() in text for w in meta.get("fix_has", ())) and not any(
            w.lower() in text for w in meta.get("fix_lacks", ())
        ):
            return True, got
    return False, got


def judge_check(expect: dict[str, Any], report: dict[str, Any]) -> tuple[bool, list[str]]:
    """Whether a ``check`` report meets the case's ``expect``, and its findings."""
    findings = report.get("findings", [])
    got = [f"{f.get('id')}:{f.get('severity')}" for f in findings]
    if expect["cause"] == "none":
        return all(_RANKS.get(f.get("severity"), 4) < _RANKS["warning"] for f in findings), got
    hits = [f for f in findings if f.get("cause") == expect["cause"]]
    if not hits:
        return False, got
    least = _RANKS[expect.get("severity", "warning")]
    if max(_RANKS.get(f.get("severity"), 0) for f in hits) < least:
        return False, got
    text = "\n".join(_fix_text(f) for f in hits).lower()
    every_fix = "\n".join(_fix_text(f) for f in findings).lower()
    right = all(w.lower() in text for w in expect.get("fix_includes", ())) and not any(
        w.lower() in every_fix for w in expect.get("fix_excludes", ())
    )
    return right, got


def run_case(case: Case, python: str, matrix: Optional[str]) -> Result:
    """Run one case and judge the answer."""
    report, problem = ask(case, python, matrix)
    if report is None:
        return Result(case, False, [], problem)
    if case.kind == "explain":
        right, got = judge(case.meta, report)
    else:
        right, got = judge_check(case.meta["expect"], report)
    return Result(case, right, got, "")


def held_out(case: Case) -> bool:
    """A case of the held-out third: marked so, or stored gzipped as only those are."""
    return case.meta.get("held_out") is True or case.evidence.name.endswith(".gz")


def _benign(case: Case) -> bool:
    """A case whose right answer is that nothing is wrong."""
    return case.meta.get("cause") == "benign" or case.meta.get("expect", {}).get("cause") == "none"


def _pct(right: int, total: int) -> str:
    return f"{right:>3}/{total:<3} {100.0 * right / total:5.1f} %" if total else f"{'-':>14}"


def table(rows: list[tuple[str, list[Result]]]) -> str:
    """The score table: per batch, all cases, held-out only, the others."""
    head = f"{'batch':<24} {'all':>14}   {'held out':>14}   {'not held out':>14}"
    lines = [head, "-" * len(head)]
    for label, results in rows:
        failures = [r for r in results if not _benign(r.case)]
        benign = [r for r in results if _benign(r.case)]
        for name, part in ((label, results), ("  failures", failures), ("  benign", benign)):
            held = [r for r in part if held_out(r.case)]
            rest = [r for r in part if not held_out(r.case)]
            cells = [_pct(sum(r.right for r in group), len(group)) for group in (part, held, rest)]
            lines.append(f"{name:<24} {cells[0]:>14}   {cells[1]:>14}   {cells[2]:>14}")
    return "\n".join(lines)


def _cause(case: Case) -> str:
    return str(case.meta.get("cause") or case.meta["expect"]["cause"])


def _held_counts(label: str, held: list[Result]) -> dict[str, Any]:
    """One batch's held-out cases as counts only: all, failures and benign apart, not run."""
    failures = [r for r in held if not _benign(r.case)]
    benign = [r for r in held if _benign(r.case)]
    return {
        "batch": label,
        "held_out": True,
        "cases": len(held),
        "right": sum(r.right for r in held),
        "failures": len(failures),
        "failures_right": sum(r.right for r in failures),
        "benign": len(benign),
        "benign_right": sum(r.right for r in benign),
        "not_run": sum(bool(r.problem) for r in held),
    }


def details(rows: list[tuple[str, list[Result]]]) -> str:
    """Each case's result, one line each, the held-out ones as a count per batch."""
    lines: list[str] = []
    for label, results in rows:
        for r in results:
            if held_out(r.case):
                continue
            mark = "ok  " if r.right else ("FAIL" if not r.problem else "RUN?")
            lines.append(
                f"{mark} {r.case.kind} {r.case.name} [{_cause(r.case)}]: "
                + (r.problem or (", ".join(r.got) or "(no findings)"))
            )
        held = [r for r in results if held_out(r.case)]
        if held:
            right = sum(r.right for r in held)
            lines.append(f"     {label}: {right}/{len(held)} held-out case(s) right, not named")
    return "\n".join(lines)


def listing(rows: list[tuple[str, list[Result]]]) -> list[dict[str, Any]]:
    """The ``--json`` document: one entry per case that is not held out, and one entry of
    counts per batch for its held-out cases."""
    doc: list[dict[str, Any]] = []
    for label, results in rows:
        doc.extend(
            {
                "batch": label,
                "case": r.case.name,
                "kind": r.case.kind,
                "cause": _cause(r.case),
                "held_out": False,
                "right": r.right,
                "got": r.got,
                "problem": r.problem,
            }
            for r in results
            if not held_out(r.case)
        )
        held = [r for r in results if held_out(r.case)]
        if held:
            doc.append(_held_counts(label, held))
    return doc


def not_run(rows: list[tuple[str, list[Result]]]) -> list[str]:
    """A line for each case that could not be run; the held-out ones counted per batch, with
    neither their names nor the problem (which names the file, or quotes the doctor)."""
    lines: list[str] = []
    for label, results in rows:
        lines.extend(
            f"could not run {r.case.name}: {r.problem}"
            for r in results
            if r.problem and not held_out(r.case)
        )
        hidden = sum(bool(r.problem) for r in results if held_out(r.case))
        if hidden:
            lines.append(f"could not run {hidden} held-out case(s) of {label}")
    return lines


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
        )
    except OSError:
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def record_first_sight(results: list[Result], commit: str) -> int:
    """Write ``first_sight`` into each case's JSON that has none; the number written."""
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    written = 0
    for r in results:
        if "first_sight" in r.case.meta or r.problem:
            continue
        meta = dict(r.case.meta)
        meta["first_sight"] = {"date": today, "commit": commit, "right": r.right, "got": r.got}
        text = json.dumps(meta, indent=2, ensure_ascii=False) + "\n"
        r.case.meta_path.write_text(text, encoding="utf-8")
        written += 1
        _record_batch_commit(r.case.meta_path.parent / "batch.json", commit)
    return written


def _record_batch_commit(batch_json: Path, commit: str) -> None:
    """Fill the batch's ``first_sight_commit`` where it is missing or empty (its cases' first
    sight must name it: the corpus tests compare them); a commit already there is kept."""
    if not commit or not batch_json.is_file():
        return
    batch = json.loads(batch_json.read_text(encoding="utf-8"))
    if batch.get("first_sight_commit"):
        return
    batch["first_sight_commit"] = commit
    batch_json.write_text(json.dumps(batch, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _parse(argv: Optional[list[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--batch",
        action="append",
        type=Path,
        metavar="DIR",
        help="a batch directory (default: every batch under tests/data/logs_unseen)",
    )
    parser.add_argument("--seen", action="store_true", help="add tests/data/logs as a row")
    parser.add_argument(
        "--details",
        action="store_true",
        help="list each case's result (held-out ones counted, not named)",
    )
    parser.add_argument(
        "--json",
        type=Path,
        metavar="FILE",
        help="write per-case results here (held-out ones as counts per batch)",
    )
    parser.add_argument("--matrix", metavar="FILE", help="pass --matrix FILE to the doctor")
    parser.add_argument("--python", default=sys.executable, help="interpreter to run it with")
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once (default 2)")
    parser.add_argument("--fail-under", type=float, metavar="PCT", help="exit 1 below this")
    parser.add_argument(
        "--record-first-sight",
        action="store_true",
        help="write each result into its case as first_sight (never replaces one)",
    )
    return parser.parse_args(argv)


def _seen_batch() -> list[Case]:
    cases = []
    for log in sorted(SEEN.glob("*.log")):
        meta = json.loads(log.with_suffix(".json").read_text(encoding="utf-8"))
        cases.append(Case("explain", log.stem, meta, log.with_suffix(".json"), log))
    return cases


def main(argv: Optional[list[str]] = None) -> int:
    """Run every batch, print the table; see the module docstring for the exit codes."""
    args = _parse(argv)
    dirs = args.batch or sorted(
        p for root in (UNSEEN, UNSEEN_FACTS) if root.is_dir() for p in root.iterdir() if p.is_dir()
    )
    try:
        batches = [(d.name, load_batch(d)) for d in dirs]
        batches = [(f"{cases[0].kind} {label}", cases) for label, cases in batches]
    except (OSError, ValueError) as exc:
        print(f"bench_accuracy: error: {exc}", file=sys.stderr)
        return 3
    if args.seen:
        batches.append((SEEN_LABEL, _seen_batch()))
    rows: list[tuple[str, list[Result]]] = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for label, cases in batches:
            results = list(pool.map(lambda c: run_case(c, args.python, args.matrix), cases))
            rows.append((label, results))
    every = [r for _, results in rows for r in results]
    unseen = [r for label, results in rows if label != SEEN_LABEL for r in results]
    if args.details:
        print(details(rows))
        print()
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps(listing(rows), indent=2) + "\n", encoding="utf-8")
    if args.record_first_sight:
        n = record_first_sight(unseen, _commit())
        print(f"first sight recorded for {n} case(s)")
    broken = [r for r in every if r.problem]
    for line in not_run(rows):
        print(line, file=sys.stderr)
    if broken:
        return 2
    if args.fail_under is not None:
        score = 100.0 * sum(r.right for r in unseen) / max(1, len(unseen))
        if score < args.fail_under:
            print(f"score {score:.1f} % is under {args.fail_under:g} %", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
