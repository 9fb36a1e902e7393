"""Score ``tfdoctor scan`` on real files from public repositories it was not built from.

Usage: python benchmarks/bench_scan_accuracy.py --files DIR [--batch DIR ...] [--details]
                                               [--record-first-sight] [--fetch] [--download]

A batch (``tests/data/scan_unseen/batch-*``) lists files by repository, path and commit with
each breaking use written down by line before the tool ran (``cases.json``; the held-out third
in ``held_out.json.gz``). The files themselves are not kept in this tree: ``DIR`` holds each
one as ``DIR/<owner>+<name>/<path>``, fetched at the listed commit: ``--download`` fetches
every file into ``DIR`` itself, printing counts only; ``--fetch`` prints the commands for the
studied files. A held-out file's repository and path are never printed (by either, or by
``--details``): they would show whoever writes rules what the held-out third holds. Every
file runs through the command a user runs, ``python -m tfdoctor scan --json --target
LINE``, in a fresh process with this checkout first on the path.

A line is counted once: a finding at ``warning`` or ``error`` on a line written down is a hit,
on any other line a false alarm; a written-down line without one is a miss. Recall is hits over
written-down lines, precision hits over flagged lines. ``--record-first-sight`` writes each
case's flagged lines into the batch as ``first_sight``, once. Exit 0; 2 when a file is missing
or the scan could not run; 3 on bad arguments.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple, Optional

ROOT = Path(__file__).resolve().parent.parent
BATCHES = ROOT / "tests" / "data" / "scan_unseen"
FLAGGED = frozenset({"warning", "error"})
_TIMEOUT = 300.0
#: Where a file at a commit is served from: ``RAW/<owner>/<name>/<commit>/<path>``.
RAW = "https://raw.githubusercontent.com"


class Score(NamedTuple):
    """Hits, written-down lines and flagged lines of some cases."""

    hits: int
    expected: int
    flagged: int

    def plus(self, other: Score) -> Score:
        """The sum of two scores."""
        return Score(*(a + b for a, b in zip(self, other)))

    def text(self) -> str:
        """``recall 12/14 (86 %), precision 12/12 (100 %)``."""
        recall = 100 * self.hits / self.expected if self.expected else 100.0
        precision = 100 * self.hits / self.flagged if self.flagged else 100.0
        return (
            f"recall {self.hits}/{self.expected} ({recall:.0f} %), "
            f"precision {self.hits}/{self.flagged} ({precision:.0f} %)"
        )


def load(batch: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
    """The studied cases, the held-out cases and the target line of a batch."""
    seen = json.loads((batch / "cases.json").read_text(encoding="utf-8"))
    with gzip.open(batch / "held_out.json.gz", "rt", encoding="utf-8") as stream:
        held = json.load(stream)
    return seen["cases"], held["cases"], str(seen["target"])


def local(files: Path, case: dict[str, Any]) -> Path:
    """Where a case's file lies under ``--files``."""
    return files / str(case["repository"]).replace("/", "+") / str(case["path"])


def source(case: dict[str, Any], base: str = RAW) -> str:
    """The address of a case's file at its commit under ``base``."""
    return f"{base}/{case['repository']}/{case['commit']}/{case['path']}"


def download(cases: Sequence[dict[str, Any]], files: Path, base: str = RAW) -> tuple[int, int]:
    """Fetch each case's file into ``files`` that is not there yet, naming none (the cases
    may be held out); the numbers fetched and failed."""
    fetched = failed = 0
    for case in cases:
        where = local(files, case)
        if where.is_file():
            continue
        try:
            with urllib.request.urlopen(source(case, base), timeout=60) as answer:
                data = answer.read()
        except (urllib.error.URLError, OSError, ValueError):
            failed += 1
            continue
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_bytes(data)
        fetched += 1
    return fetched, failed


def _redacted(text: str, hidden: Sequence[str]) -> str:
    """``text`` with each of ``hidden`` (a held-out file's path, repository, name) masked."""
    for word in sorted(filter(None, set(hidden)), key=len, reverse=True):
        text = text.replace(word, "<held-out>")
    return text


def held_words(files: Path, held: Sequence[dict[str, Any]]) -> list[str]:
    """What names the held-out files: their paths under ``files``, repositories and paths."""
    words = []
    for case in held:
        where = local(files, case)
        repository = str(case["repository"])
        words += [str(where), str(where.resolve()), repository.replace("/", "+"), repository]
        words.append(str(case["path"]))
    return words


def flagged_lines(
    paths: list[Path], target: str, hidden: Sequence[str] = ()
) -> dict[str, set[int]]:
    """The lines each file has a finding at warning or error on, as ``tfdoctor scan`` says;
    ``hidden``: the words of held-out files that a failed scan's message must not show."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "tfdoctor", "scan", "--json", "--target", target]
    done = subprocess.run(
        [*command, *map(str, paths)],
        capture_output=True,
        text=True,
        env=env,
        timeout=_TIMEOUT,
        check=False,
    )
    if done.returncode not in (0, 1, 2):
        # The scan ran over the held-out files too: its stderr may name one.
        stderr = _redacted(done.stderr, hidden)
        raise SystemExit(f"bench_scan_accuracy: scan exited {done.returncode}: {stderr}")
    out: dict[str, set[int]] = {}
    for finding in json.loads(done.stdout)["findings"]:
        where = finding.get("location")
        if where and finding["severity"] in FLAGGED:
            out.setdefault(str(Path(where["path"]).resolve()), set()).add(int(where["line"]))
    return out


def score(case: dict[str, Any], lines: set[int]) -> Score:
    """The score of one case given the lines the scan flagged in it."""
    expected = {int(e["line"]) for e in case["expected"]}
    return Score(len(expected & lines), len(expected), len(lines))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Score each batch; see the module docstring for ``--fetch`` and ``--download``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--files", type=Path, help="where the files of the batches lie")
    parser.add_argument("--batch", type=Path, action="append", help="a batch directory")
    parser.add_argument("--details", action="store_true", help="misses and false alarms")
    parser.add_argument(
        "--fetch", action="store_true", help="print the commands for the studied files"
    )
    parser.add_argument(
        "--download", action="store_true", help="fetch every file into --files, naming none"
    )
    parser.add_argument("--record-first-sight", action="store_true")
    args = parser.parse_args(argv)
    batches = args.batch or sorted(p for p in BATCHES.glob("batch-*") if p.is_dir())
    if args.fetch:
        for batch in batches:
            seen, held, _ = load(batch)
            for case in seen:
                where = local(Path("$FILES"), case)
                print(f"mkdir -p {where.parent} && curl -fsSL {source(case)} -o {where}")
            print(f"# {batch.name}: {len(held)} held-out file(s), not listed: --download")
        return 0
    if args.download:
        if args.files is None:
            print("bench_scan_accuracy: --download needs --files DIR", file=sys.stderr)
            return 3
        failures = 0
        for batch in batches:
            seen, held, _ = load(batch)
            studied = download(seen, args.files)
            hidden = download(held, args.files)
            failures += studied[1] + hidden[1]
            print(
                f"{batch.name}: fetched {studied[0]} studied and {hidden[0]} held-out "
                f"file(s); {studied[1] + hidden[1]} could not be fetched"
            )
        return 2 if failures else 0
    if args.files is None or not args.files.is_dir():
        print("bench_scan_accuracy: --files DIR is required (see --download)", file=sys.stderr)
        return 3
    for batch in batches:
        seen, held, target = load(batch)
        paths = [local(args.files, case) for case in seen + held]
        missing = [str(local(args.files, c)) for c in seen if not local(args.files, c).is_file()]
        absent = sum(not local(args.files, c).is_file() for c in held)
        if missing or absent:
            # A held-out file is counted, not named.
            named = missing + ([f"{absent} held-out file(s)"] if absent else [])
            print(f"bench_scan_accuracy: missing {', '.join(named)}", file=sys.stderr)
            return 2
        flagged = flagged_lines(paths, target, held_words(args.files, held))
        totals = {"studied": Score(0, 0, 0), "held out": Score(0, 0, 0)}
        for label, cases in (("studied", seen), ("held out", held)):
            for case in cases:
                lines = flagged.get(str(local(args.files, case).resolve()), set())
                got = score(case, lines)
                totals[label] = totals[label].plus(got)
                expected = {int(e["line"]) for e in case["expected"]}
                if args.details and label == "studied" and (expected ^ lines):
                    print(
                        f"  {case['repository']}/{case['path']}: missed "
                        f"{sorted(expected - lines)}, false alarms {sorted(lines - expected)}"
                    )
                if args.record_first_sight and label == "studied":
                    case.setdefault("first_sight", sorted(lines))
        if args.record_first_sight:
            data = json.loads((batch / "cases.json").read_text(encoding="utf-8"))
            data["cases"] = seen
            (batch / "cases.json").write_text(
                json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
            )
        print(f"{batch.name} (target {target}):")
        for label, total in totals.items():
            print(f"  {label:9} {total.text()}")
        print(f"  {'all':9} {totals['studied'].plus(totals['held out']).text()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
