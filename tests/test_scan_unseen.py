"""The batches of real files that score ``scan`` (tests/data/scan_unseen): well formed, and the
held-out third kept out of the package and its tests. Whether scan is right on them is a
measured score (benchmarks/bench_scan_accuracy.py), not a test."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
BATCHES = sorted(p for p in (ROOT / "tests" / "data" / "scan_unseen").glob("batch-*"))
COMMIT = re.compile(r"^[0-9a-f]{40}$")


def _load(batch: Path) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    seen = json.loads((batch / "cases.json").read_text(encoding="utf-8"))
    with gzip.open(batch / "held_out.json.gz", "rt", encoding="utf-8") as stream:
        held = json.load(stream)
    meta = json.loads((batch / "batch.json").read_text(encoding="utf-8"))
    return seen, held["cases"], meta


@pytest.mark.parametrize("batch", BATCHES, ids=[b.name for b in BATCHES])
def test_a_batch_is_well_formed(batch: Path) -> None:
    seen, held, meta = _load(batch)
    cases = seen["cases"] + held
    assert len(cases) == meta["cases"]
    assert len(held) == meta["held_out"] == meta["cases"] // 3
    keys = [(c["repository"], c["path"]) for c in cases]
    assert len(set(keys)) == len(keys)
    for case in cases:
        assert COMMIT.match(case["commit"]), case
        assert case["url"].endswith(f"/{case['repository']}/blob/{case['commit']}/{case['path']}")
        lines = [e["line"] for e in case["expected"]]
        assert lines == sorted(set(lines)) and all(e["what"] for e in case["expected"])
    # Every studied case was scored once, before rules were written from it.
    assert all("first_sight" in c for c in seen["cases"])
    assert all("first_sight" not in c for c in held)


@pytest.mark.parametrize("batch", BATCHES, ids=[b.name for b in BATCHES])
def test_nothing_in_the_package_or_its_tests_is_written_from_a_held_out_file(
    batch: Path,
) -> None:
    _, held, _ = _load(batch)
    texts = [
        p.read_text(encoding="utf-8", errors="replace")
        for base in ("tfdoctor", "tests/data/scan", "docs")
        for p in (ROOT / base).rglob("*")
        if p.is_file() and p.suffix in (".py", ".yaml", ".md", ".ipynb", ".txt")
    ]
    for case in held:
        name = case["repository"]
        assert not any(name in text for text in texts), name
