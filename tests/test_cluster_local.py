"""Real workers on loopback: ``MultiWorkerMirroredStrategy`` over gRPC, real faults.

These import TensorFlow in child processes (marked ``slow``; skipped where it is absent) and
only ever use 127.0.0.1.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tfdoctor.cluster import SmokeOptions, local_report
from tfdoctor.cluster.workers import free_loopback_ports
from tfdoctor.findings import Severity

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow

#: Small sizes and a short step timeout: the tests are about behaviour, not speed.
OPTIONS = SmokeOptions(timeout=12.0, sizes=(4, 65536), iterations=1)


def test_two_workers_all_reduce_correctly_through_the_cli() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tfdoctor",
            "cluster",
            "local",
            "--workers",
            "2",
            "--json",
            "--timeout",
            "30",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    findings = {x["id"]: x for x in json.loads(out.stdout)["findings"]}
    assert findings["cluster.allreduce"]["severity"] == "ok"
    assert "every replica's contribution verified" in findings["cluster.allreduce"]["summary"]
    assert findings["cluster.bandwidth"]["severity"] == "info"
    assert findings["fleet.nodes"]["summary"].startswith("2 node(s): worker 0 (")
    assert "127.0.0.1:" in findings["cluster.local"]["summary"]


def test_a_worker_that_never_starts_is_named_within_the_timeout() -> None:
    started = time.monotonic()
    report = local_report(2, OPTIONS, "0", "now", skip=(1,))
    # Import (not timed by the step deadline) plus one step's deadline, with room to spare.
    assert time.monotonic() - started < OPTIONS.import_timeout + OPTIONS.timeout + 30
    errors = [x for x in report.findings if x.severity is Severity.ERROR]
    assert [x.cause for x in errors] == ["cluster-task-unreachable"]
    assert errors[0].summary.startswith("worker 0: step 'strategy' did not finish in 12 s")
    assert errors[0].summary.endswith("worker 1 did not arrive")


def test_a_port_already_in_use_is_named() -> None:
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        (free,) = free_loopback_ports(1)
        report = local_report(2, OPTIONS, "0", "now", ports=[free, taken])
    finally:
        holder.close()
    by_cause = {x.cause: x for x in report.findings if x.severity is Severity.ERROR}
    assert by_cause["cluster-port-in-use"].summary.startswith(
        f"worker 1: port of 127.0.0.1:{taken} is already in use"
    )
    # The other worker ended instead of hanging: it either timed out naming worker 1, or its
    # gRPC client gave up on the port's holder, which speaks no gRPC.
    other = [x for x in report.findings if x.summary.startswith("worker 0")]
    assert other, [x.summary for x in report.findings]
    assert other[0].cause in ("cluster-task-unreachable", "cluster-worker-failed"), other[0]
    if other[0].cause == "cluster-task-unreachable":
        assert other[0].summary.endswith("worker 1 did not arrive")


def test_cluster_smoke_runs_this_workers_task() -> None:
    (port,) = free_loopback_ports(1)
    config = {"cluster": {"worker": [f"127.0.0.1:{port}"]}, "task": {"type": "worker", "index": 0}}
    out = subprocess.run(
        [sys.executable, "-m", "tfdoctor", "cluster", "smoke", "--json", "--timeout", "30"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "TF_CONFIG": json.dumps(config)},
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    ids = [x["id"] for x in json.loads(out.stdout)["findings"]]
    assert ids[:3] == ["cluster.spec", "cluster.single-worker", "cluster.allreduce"]
