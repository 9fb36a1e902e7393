"""Hostile input: every reader stays within its size, nesting and time limits, never a traceback.

Each command runs in a real process on a real file: a JSON array nested 100,000 deep, a file
over its size limit, a notebook nested too deeply, 5 MB of chained code. Bad input ends with
one line on stderr, nothing on stdout and exit 3; ``scan`` skips such a file with a finding
and scans the others; ``cluster check`` judges a TF_CONFIG nested too deeply, and resolves
host names in parallel within a deadline.
"""

from __future__ import annotations

import http.server
import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Optional

import pytest

from tests import factories as f
from tfdoctor.bounded import (
    MAX_EXPRESSION_DEPTH,
    MAX_JSON_NESTING,
    MAX_REPORT_BYTES,
    MAX_SOURCE_BYTES,
    MAX_TF_CONFIG_BYTES,
    InputError,
    code_problem,
    decode_text,
    json_depth,
    parse_json,
)
from tfdoctor.cluster.spec import NameLookup, check_environment, resolve_all
from tfdoctor.explain import explain
from tfdoctor.explain.reader import read_log
from tfdoctor.facts import to_json
from tfdoctor.findings import Severity
from tfdoctor.pin.hashes import SIMPLE_JSON, HashError, fetch_project_json
from tfdoctor.signatures import load_signatures

ROOT = Path(__file__).resolve().parent.parent
DEEP_JSON = "[" * 100_000 + "]" * 100_000
#: Runs the command given as its arguments and prints its result and peak memory (KiB) as
#: JSON: this wrapper's only child is the command, so RUSAGE_CHILDREN is the command's own.
MEASURE = (
    "import json, resource, subprocess, sys\n"
    "r = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(json.dumps([r.returncode, r.stdout, r.stderr, peak]))\n"
)


def doctor(*args: str, env: Optional[dict[str, str]] = None) -> tuple[int, str, str, int]:
    """``tfdoctor ARGS`` in a child: exit code, stdout, stderr, peak memory in MiB."""
    # Nothing of the host's own cluster (TF_CONFIG, SLURM_*, KUBERNETES_*) reaches the child.
    full = {k: os.environ[k] for k in ("PATH", "HOME", "TFDOCTOR_CACHE_DIR") if k in os.environ}
    full.update({"PYTHONPATH": str(ROOT), "NO_COLOR": "1", **(env or {})})
    argv = [sys.executable, "-c", MEASURE, sys.executable, "-m", "tfdoctor", *args]
    done = subprocess.run(
        argv, cwd=ROOT, env=full, capture_output=True, text=True, timeout=120, check=False
    )
    code, out, err, peak_kib = json.loads(done.stdout)
    return code, out, err, peak_kib // 1024


def assert_bad_input(result: tuple[int, str, str, int], *words: str) -> None:
    code, out, err, _ = result
    assert (code, out) == (3, ""), err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("tfdoctor: error: "), err
    assert "Traceback" not in err
    for word in words:
        assert word in err


@pytest.fixture
def deep(tmp_path: Path) -> Path:
    path = tmp_path / "deep.json"
    path.write_text(DEEP_JSON, encoding="utf-8")
    return path


def _over(tmp_path: Path, name: str, limit: int, head: bytes = b"") -> Path:
    """A file one byte over ``limit`` (sparse: the rest is zeros, never written)."""
    path = tmp_path / name
    with path.open("wb") as stream:
        stream.write(head)
        stream.truncate(limit + 1)
    return path


# --- JSON inputs: check --facts, diff, fleet ---------------------------------------------------


def test_check_facts_nested_too_deeply(deep: Path) -> None:
    assert_bad_input(
        doctor("check", "--facts", str(deep)), f"{deep}: nested deeper than {MAX_JSON_NESTING}"
    )


def test_check_facts_too_large(tmp_path: Path) -> None:
    big = _over(tmp_path, "big.json", MAX_REPORT_BYTES)
    assert_bad_input(doctor("check", "--facts", str(big)), f"{big}: larger than 16 MiB")


@pytest.mark.parametrize(
    ("encoding", "mark"),
    [
        pytest.param("utf-16", b"", id="powershell-utf16"),
        pytest.param("utf-8", b"\xef\xbb\xbf", id="notepad-utf8-bom"),
    ],
)
def test_a_report_saved_with_a_byte_order_mark_is_read(
    tmp_path: Path, encoding: str, mark: bytes
) -> None:
    # Windows PowerShell 5.1's `tfdoctor check --json > report.json` writes UTF-16-LE with
    # a mark; Notepad keeps a UTF-8 mark that Python's json refuses.
    text = json.dumps(to_json(f.facts()))
    path = tmp_path / "report.json"
    path.write_bytes(mark + text.encode(encoding))
    assert decode_text(path.read_bytes()) == text
    assert doctor("check", "--facts", str(path), "--json")[0] == 0
    req = tmp_path / "requirements.txt"
    req.write_bytes(mark + "numpy==1.26.4\r\n".encode(encoding))
    code, _, err, _ = doctor("check", "--facts", str(path), "--against", str(req))
    assert code == 0, err


def test_diff_and_fleet_refuse_a_deep_report(tmp_path: Path, deep: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(to_json(f.facts())), encoding="utf-8")
    assert_bad_input(doctor("diff", str(good), str(deep)), f"{deep}: nested deeper")
    assert_bad_input(doctor("fleet", str(deep), str(good)), f"{deep}: nested deeper")


def test_parse_json_counts_the_levels() -> None:
    nested = "[" * MAX_JSON_NESTING + "]" * MAX_JSON_NESTING
    assert json_depth(parse_json(nested, "x", "it"), 1000) == MAX_JSON_NESTING  # at the limit
    with pytest.raises(InputError, match="x: nested deeper than"):
        parse_json("[" + nested + "]", "x", "it")
    with pytest.raises(InputError, match="nested deeper"):
        parse_json(json.dumps({"a": {"b": [[1]] * 3}}), "x", "it", max_depth=3)
    with pytest.raises(ValueError, match="Expecting"):
        parse_json("[1,", "x", "it")


# --- explain: notebooks and logs ---------------------------------------------------------------


def test_explain_refuses_a_deep_notebook(tmp_path: Path) -> None:
    notebook = tmp_path / "run.ipynb"
    notebook.write_text('{"cells": ' + DEEP_JSON + "}", encoding="utf-8")
    assert_bad_input(doctor("explain", str(notebook)), f"{notebook}: nested deeper")


class Pipe(io.BytesIO):
    """A stream that cannot seek, as stdin from a pipe."""

    def seekable(self) -> bool:
        return False


STEPS = b"step 1 loss 0.5\n" * 100  # 1,600 bytes no signature matches
CRASH = b"Illegal instruction (core dumped)\n"


def test_explain_reads_the_start_and_end_of_a_long_file_and_says_so() -> None:
    log = read_log(io.BytesIO(STEPS + CRASH), "train.log", chunk=64, limit=256)
    report = explain(log, load_signatures(), f.FIXTURE_MATRIX)
    (unread,) = [x for x in report.findings if x.id == "explain.log-truncated"]
    assert unread.severity is Severity.UNKNOWN
    assert unread.summary == (
        "Read the first 128 bytes and the last 128 bytes of train.log (1.6 KiB); "
        "the 1.3 KiB between were not explained"
    )
    assert unread.fix is not None and unread.fix.commands == (
        "tail -c +129 train.log | head -c 1378 | tfdoctor explain -",
    )
    (crash,) = [x for x in report.findings if x.id == "explain.cpu-lacks-avx"]
    assert "last 128 bytes, line " in crash.detail  # found in the end, cited from there


def test_explain_reads_the_start_of_a_long_pipe_and_says_so() -> None:
    report = explain(
        read_log(Pipe(CRASH + STEPS), "-", chunk=64, limit=256), load_signatures(), None
    )
    (unread,) = [x for x in report.findings if x.id == "explain.log-truncated"]
    assert (
        unread.summary == "Only the first 256 bytes of stdin were read; the rest was not explained"
    )
    assert unread.fix is not None
    assert unread.fix.commands == ("tail -c 100M LOG | tfdoctor explain -",)
    assert "explain.cpu-lacks-avx" in [x.id for x in report.findings]  # what was read counts


def test_explain_says_nothing_of_a_log_read_whole() -> None:
    for stream in (io.BytesIO(STEPS), Pipe(STEPS)):  # exactly the limit
        report = explain(read_log(stream, "x", chunk=64, limit=len(STEPS)), load_signatures(), None)
        assert "explain.log-truncated" not in [x.id for x in report.findings]


# --- scan: one file skipped, the others scanned ------------------------------------------------


def test_scan_skips_a_5mb_nested_line_in_bounded_memory(tmp_path: Path) -> None:
    hostile = tmp_path / "generated.py"
    hostile.write_text("import tensorflow as tf\nx = tf" + ".b" * 2_500_000 + "\n", "utf-8")
    plain = tmp_path / "train.py"
    plain.write_text("import tensorflow as tf\ntf.Session()\n", encoding="utf-8")
    code, out, err, peak = doctor("scan", str(tmp_path), "--target", "2.21", "--json")
    assert err == ""
    assert code == 2  # train.py's error is still found
    by_id = {x["id"]: x for x in json.loads(out)["findings"]}
    assert by_id["scan.skipped"]["summary"] == (
        f"{hostile}: not scanned, too large to parse: about 5,000,007 tokens, over 500,000"
    )
    assert by_id["scan.skipped"]["severity"] == "unknown"
    assert any(x.startswith("scan.") and x != "scan.skipped" for x in by_id)
    assert peak < 200, f"{peak} MiB"  # ast.parse alone took 1.25 GiB on it


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        # 3.11 and later: the parser's RecursionError; 3.9 and 3.10: the pre-scan's depth.
        # (3.13's parser takes 5,000 levels of this; none takes 50,000.)
        pytest.param("x = tf" + ".b" * 50_000, "nested too deeply", id="left-nested"),
        pytest.param("x = " + "-" * 100_000 + "1", "too deep", id="right-nested"),
    ],
)
def test_scan_skips_code_python_cannot_parse_deep(tmp_path: Path, source: str, reason: str) -> None:
    path = tmp_path / "deep.py"
    path.write_text("import tensorflow as tf\n" + source + "\n", encoding="utf-8")
    code, out, err, _ = doctor("scan", str(path), "--target", "2.21", "--json")
    assert (code, err) == (0, "")
    (found,) = json.loads(out)["findings"]
    assert found["id"] == "scan.skipped"
    assert reason in found["summary"]


def test_scan_skips_a_file_over_the_size_limit(tmp_path: Path) -> None:
    big = _over(tmp_path, "big.py", MAX_SOURCE_BYTES, b"import tensorflow as tf\n")
    code, out, err, _ = doctor("scan", str(big), "--target", "2.21", "--json")
    assert (code, err) == (0, "")
    (found,) = json.loads(out)["findings"]
    assert found["summary"] == f"{big}: not scanned, larger than 8 MiB"


def test_scan_skips_a_deep_notebook(tmp_path: Path) -> None:
    notebook = tmp_path / "nb.ipynb"
    cell = {"cell_type": "code", "source": "import tensorflow as tf\n"}
    notebook.write_text(
        json.dumps({"cells": [cell], "metadata": {"x": "@"}}).replace('"@"', DEEP_JSON), "utf-8"
    )
    code, out, err, _ = doctor("scan", str(notebook), "--target", "2.21", "--json")
    assert (code, err) == (0, "")
    (found,) = json.loads(out)["findings"]
    assert found["id"] == "scan.skipped"
    assert found["summary"].endswith(
        "not scanned, nested deeper than 100 levels, the most a notebook may be"
    )


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        pytest.param("x = a" + ".b" * 1000, "nested too deeply", id="attribute-chain"),
        pytest.param("x = f" + "()" * 600, "nested too deeply", id="call-chain"),
        pytest.param("x = " + "1 + " * 600 + "1", "nested too deeply", id="sum"),
        pytest.param("x = (a\n" + "  .b\n" * 600 + ")", "nested too deeply", id="over-lines"),
        pytest.param("x = [" + "1.5, " * 100_000 + "]", None, id="flat-literal"),
        pytest.param("s = '" + "(" * 1000 + "'  # " + "[" * 1000, None, id="brackets-in-text"),
        pytest.param('s = """\n' + ".(" * 1000 + '\n"""', None, id="docstring"),
        pytest.param("x = a" + ".b" * 400_000, "too large to parse", id="too-many-tokens"),
    ],
)
def test_code_problem_before_parsing(source: str, problem: Optional[str]) -> None:
    found = code_problem(source, check_depth=True)
    if problem is None:
        assert found is None
    else:
        assert found is not None and found.startswith(problem)
    if problem == "nested too deeply":
        assert found == f"nested too deeply: an expression over {MAX_EXPRESSION_DEPTH} levels deep"


# --- cluster check ----------------------------------------------------------------------------


def test_cluster_check_refuses_a_tf_config_file_no_environment_can_hold(tmp_path: Path) -> None:
    big = _over(tmp_path, "tf_config.json", MAX_TF_CONFIG_BYTES, b'{"cluster": ')
    assert_bad_input(
        doctor("cluster", "check", "--tf-config", str(big)), f"{big}: larger than 128 KiB"
    )


def test_cluster_check_judges_a_deep_tf_config() -> None:
    # Deep, and still short enough for an environment variable (128 KiB).
    deep = "[" * 60_000 + "]" * 60_000
    code, out, err, _ = doctor(
        "cluster", "check", "--json", env={"TF_CONFIG": '{"cluster": ' + deep + "}"}
    )
    assert (code, err) == (2, "")
    (found,) = json.loads(out)["findings"]
    assert found["id"] == "cluster.tf-config-invalid-json"
    assert found["summary"].startswith("TF_CONFIG nests deeper than 100 levels")


def _cluster(count: int) -> dict[str, str]:
    workers = [f"node-{i}.example:2222" for i in range(count)]
    doc = {"cluster": {"worker": workers}, "task": {"type": "worker", "index": 0}}
    return {"TF_CONFIG": json.dumps(doc)}


class SlowResolver:
    """Answers "unknown" after ``delay`` seconds; counts how many look-ups ran at once."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0

    def __call__(self, host: str) -> Optional[str]:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        time.sleep(self.delay)
        with self.lock:
            self.running -= 1
        return "Name or service not known"


def test_names_resolve_in_parallel_at_most_16_at_once() -> None:
    resolver = SlowResolver(0.2)
    started = time.monotonic()
    _, findings = check_environment(_cluster(200), resolver)
    took = time.monotonic() - started
    assert took < 8, took  # one by one: 40 s; 16 at once: 2.6 s
    assert resolver.most == 16
    # One mistake many tasks repeat is one finding with a count.
    (unresolvable,) = [x for x in findings if x.id == "cluster.tf-config-unresolvable"]
    assert "200 host names" in unresolvable.summary


def test_names_unanswered_by_the_deadline_are_unknown() -> None:
    never = threading.Event()

    def hangs(host: str) -> Optional[str]:
        never.wait()
        return None

    started = time.monotonic()
    _, findings = check_environment(_cluster(40), hangs, NameLookup(deadline=0.5))
    took = time.monotonic() - started
    never.set()
    assert 0.5 <= took < 2.5, took
    (late,) = [x for x in findings if x.id == "cluster.resolve-timeout"]
    assert late.severity is Severity.UNKNOWN
    assert late.summary.startswith("TF_CONFIG: 40 of 40 host name(s) not resolved within 0.5 s")
    assert late.summary.endswith("node-12.example and 35 more")
    assert not any(x.severity is Severity.ERROR for x in findings)


def test_progress_counts_each_answer() -> None:
    seen: list[tuple[int, int]] = []
    answers = resolve_all(
        ["a", "b", "c"], lambda h: None, NameLookup(progress=lambda d, t: seen.append((d, t)))
    )
    assert answers == {"a": None, "b": None, "c": None}
    assert seen[-1] == (3, 3)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


# --- YAML ---------------------------------------------------------------------------------------


def test_a_deep_matrix_is_bad_input(tmp_path: Path) -> None:
    matrix = tmp_path / "matrix.yaml"
    matrix.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert_bad_input(doctor("explain", os.devnull, "--matrix", str(matrix)), str(matrix))


# --- a package index's page (pin --hashes) ------------------------------------------------------


def test_a_deep_index_page_is_a_hash_error_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    # A local index on the loopback answering PEP 691 JSON nested 100,000 deep; no proxy.
    for proxy in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(proxy, raising=False)
    page = DEEP_JSON.encode()

    class Index(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", SIMPLE_JSON)
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Index)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(HashError, match=r"numpy: the package index page is unusable: .*nested"):
            fetch_project_json("numpy", f"http://127.0.0.1:{server.server_port}/simple")
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("mark", [b"", b"\xef\xbb\xbf"], ids=["utf8", "utf8-bom"])
def test_a_tf_config_file_saved_by_powershell_or_notepad_is_read(
    tmp_path: Path, mark: bytes
) -> None:
    # docs/report.md: a TF_CONFIG file is read as a report is, UTF-16 with its mark among them.
    from tfdoctor.cluster.spec import read_tf_config

    text = '{"cluster": {"worker": ["a:1"]}, "task": {"type": "worker", "index": 0}}'
    for data in (mark + text.encode("utf-8"), text.encode("utf-16")):
        path = tmp_path / "tf_config.json"
        path.write_bytes(data)
        assert read_tf_config(str(path)) == text
