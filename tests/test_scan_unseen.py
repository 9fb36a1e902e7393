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


# --- the bench names no held-out file ---------------------------------------------------------


def _bench_module() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "bench_scan_accuracy", ROOT / "benchmarks" / "bench_scan_accuracy.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _case(repository: str, path: str) -> dict[str, Any]:
    commit = "0" * 40
    url = f"https://github.com/{repository}/blob/{commit}/{path}"
    return {"repository": repository, "path": path, "commit": commit, "url": url, "expected": []}


def _batch(tmp_path: Path) -> Path:
    batch = tmp_path / "batch-test"
    batch.mkdir()
    seen = {"target": "2.16", "cases": [_case("studied/repo", "train.py")]}
    (batch / "cases.json").write_text(json.dumps(seen), encoding="utf-8")
    held = {"cases": [_case("hidden/repo", "model.py")]}
    (batch / "held_out.json.gz").write_bytes(gzip.compress(json.dumps(held).encode()))
    return batch


def test_fetch_lists_the_studied_files_and_counts_the_held_out_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _bench_module()
    assert bench.main(["--batch", str(_batch(tmp_path)), "--fetch"]) == 0
    out = capsys.readouterr().out
    assert "studied/repo/" in out and "train.py" in out
    assert "hidden" not in out and "model.py" not in out
    assert "1 held-out file(s), not listed" in out


def test_download_fetches_every_file_and_names_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _bench_module()
    batch = _batch(tmp_path)
    served = tmp_path / "served"
    for repository, path in (("studied/repo", "train.py"), ("hidden/repo", "model.py")):
        where = served / repository / ("0" * 40) / path
        where.parent.mkdir(parents=True)
        where.write_text("import tensorflow as tf\n", encoding="utf-8")
    seen, held, _ = bench.load(batch)
    files = tmp_path / "files"
    assert bench.download(seen + held, files, served.as_uri()) == (2, 0)
    assert (files / "hidden+repo" / "model.py").is_file()
    # Already there: nothing fetched again; not served: counted as failed, not named.
    assert bench.download(held, files, served.as_uri()) == (0, 0)
    (files / "hidden+repo" / "model.py").unlink()
    assert bench.download(held, files, (tmp_path / "nowhere").as_uri()) == (0, 1)
    # Scoring with a held-out file missing names the count only.
    assert bench.main(["--batch", str(batch), "--files", str(files)]) == 2
    err = capsys.readouterr().err
    assert "1 held-out file(s)" in err and "hidden" not in err


def test_a_failed_scan_names_no_held_out_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tfdoctor scan ran over every file; where it fails, its stderr (a traceback, a read
    # error) may name any of them: the bench's message names no held-out one.
    import subprocess

    bench = _bench_module()
    batch = _batch(tmp_path)
    files = tmp_path / "files"
    for repository, path in (("studied+repo", "train.py"), ("hidden+repo", "model.py")):
        (files / repository).mkdir(parents=True)
        (files / repository / path).write_text("import tensorflow as tf\n", encoding="utf-8")
    held_path = str(files / "hidden+repo" / "model.py")

    def failed(*args: Any, **kwargs: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(args, 3, "", f"Traceback: error in {held_path}\n")

    monkeypatch.setattr(bench.subprocess, "run", failed)
    with pytest.raises(SystemExit) as raised:
        bench.main(["--batch", str(batch), "--files", str(files)])
    message = str(raised.value)
    assert "scan exited 3" in message
    assert "hidden" not in message and "model.py" not in message
