"""Real workers on loopback: ``MultiWorkerMirroredStrategy`` over gRPC, real faults.

The real-process tests import TensorFlow in child processes (marked ``slow``) and only ever
use 127.0.0.1; the unmarked tests read what such a run printed.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.commandline import tfdoctor
from tfdoctor.cluster import DEFAULT_SIZES, SmokeOptions, local_report
from tfdoctor.cluster.verdicts import judge, lost_peers
from tfdoctor.cluster.workers import (
    free_loopback_ports,
    local_spec,
    parse_worker_output,
    unhealthy,
)
from tfdoctor.findings import Severity
from tfdoctor.probes._run import CommandResult

ROOT = Path(__file__).resolve().parent.parent

#: Small sizes and a short step timeout: the tests are about behaviour, not speed.
OPTIONS = SmokeOptions(timeout=12.0, sizes=(4, 65536), iterations=1, link_bytes=65536)


@pytest.mark.slow
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
            "--iterations",
            "3",
            "--max-size",
            "65536",
            "--link-bytes",
            "65536",
            "--min-busbw",
            "1e-9",
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
    # The minimum is met, the implementation is the one CPUs run, and the two workers timed
    # their link both ways.
    assert findings["cluster.busbw"]["severity"] == "ok"
    collective = json.loads(out.stdout)["collective"]
    assert collective["implementation"] == {
        "configured": "AUTO",
        "ran": "RING",
        "device": "CPU",
        "ranks": 2,
    }
    assert [p["size"] for p in collective["bandwidth"]] == [4, 65536]
    assert all(p["iterations"] == 3 for p in collective["bandwidth"])
    assert [(x["source"], x["target"]) for x in collective["links"]] == [
        ("worker 0", "worker 1"),
        ("worker 1", "worker 0"),
    ]
    assert all(x["bandwidth"] > 0 and not x["error"] for x in collective["links"])


@pytest.mark.slow
def test_the_html_report_draws_the_measured_bandwidth() -> None:
    out = tfdoctor(
        "cluster", "local", "-n", "2", "--iterations", "2", "--format", "html", timeout=240
    )
    assert out.returncode == 0, out.stdout + out.stderr
    # One titled point per size of the default sweep, and the two workers side by side.
    assert out.stdout.count('<circle class="point"') == len(DEFAULT_SIZES)
    assert "bus bandwidth" in out.stdout
    assert '<table class="fleet">' in out.stdout


@pytest.mark.slow
def test_a_worker_that_never_starts_is_named_within_the_timeout() -> None:
    started = time.monotonic()
    report = local_report(2, OPTIONS, "0", "now", skip=(1,))
    # Import (not timed by the step deadline) plus one step's deadline, with room to spare.
    assert time.monotonic() - started < OPTIONS.import_timeout + OPTIONS.timeout + 30
    errors = [x for x in report.findings if x.severity is Severity.ERROR]
    assert [x.cause for x in errors] == ["cluster-task-unreachable"]
    assert errors[0].summary.startswith("worker 0: step 'strategy' did not finish in 12 s")
    assert errors[0].summary.endswith("worker 1 did not arrive")


@pytest.mark.slow
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
    # The other worker ended instead of hanging: it either timed out naming worker 1 and the
    # program that holds its port (which answered its handshake with nothing), or its gRPC
    # client gave up on the port's holder, which speaks no gRPC.
    other = [x for x in report.findings if x.summary.startswith("worker 0")]
    assert other, [x.summary for x in report.findings]
    assert other[0].cause in ("cluster-task-unreachable", "cluster-worker-failed"), other[0]
    if other[0].cause == "cluster-task-unreachable":
        assert other[0].summary.endswith(
            f"worker 1 (another program holds its port 127.0.0.1:{taken}) did not arrive"
        )


@pytest.mark.slow
def test_cluster_smoke_runs_this_workers_task() -> None:
    (port,) = free_loopback_ports(1)
    config = {"cluster": {"worker": [f"127.0.0.1:{port}"]}, "task": {"type": "worker", "index": 0}}
    out = tfdoctor(
        "cluster",
        "smoke",
        "--json",
        "--timeout",
        "30",
        environ={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "TF_CONFIG": json.dumps(config)},
        timeout=240,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    ids = [x["id"] for x in json.loads(out.stdout)["findings"]]
    assert ids[:3] == ["cluster.spec", "cluster.single-worker", "cluster.allreduce"]


#: The test hook of the worker child: the worker named by it dies as it enters that step.
DIE_AT = "TFDOCTOR_CLUSTER_TEST_DIE_AT"


@pytest.mark.slow
@pytest.mark.parametrize("step", ["all-reduce", "gather-facts"])
def test_a_worker_that_dies_mid_test_is_named_with_its_step(step: str) -> None:
    # Past the heartbeat timeout of TensorFlow's coordination service (about 10 s, measured
    # with TF 2.21), so the survivor learns of the death from TensorFlow, not from a deadline.
    options = SmokeOptions(timeout=30.0, sizes=(4,), iterations=1)
    started = time.monotonic()
    report = local_report(2, options, "0", "now", extra_env={1: {DIE_AT: step}})
    assert time.monotonic() - started < options.import_timeout + options.timeout + 30
    assert report.exit_code() == 2
    errors = [x for x in report.findings if x.severity is Severity.ERROR]
    # One finding per worker, in worker order.
    assert len(errors) == 2, [x.summary for x in report.findings]
    survivor, dead = errors
    # The dead worker, by its task and the step it died in.
    assert dead.cause == "cluster-worker-failed"
    assert dead.summary == f"worker 1 ended with exit status 1 in step '{step}'"
    # The survivor ended instead of hanging, naming the dead peer: TensorFlow's heartbeat
    # check or gRPC's failed reconnect aborted its collective (which one comes first depends
    # on where the peer died), or, on a machine slow enough that its own deadline came
    # first, the peer's tfdoctor that had gone without reaching a deadline.
    assert re.fullmatch(
        rf"worker 0: step '{step}' ("
        r"was aborted: worker 1 stopped sending heartbeats \(died mid-test\)"
        r"|was aborted: worker 1 \(127\.0\.0\.1:\d+\) could no longer be reached "
        r"\(died mid-test\)"
        r"|was aborted: worker 1 arrived, then left the test by itself \(before any step "
        r"deadline\)"
        r"|did not finish in 30 s; worker 1 arrived, then left the test by itself \(before "
        r"any step deadline\))",
        survivor.summary,
    ), survivor.summary


#: What the surviving worker printed when its peer died in the all-reduce (TF 2.21, CPU).
ABORTED = (
    "UnavailableError: {{function_node __inference_<lambda>_39}} Collective ops is aborted by: "
    "Error reported from /job:worker/task:1: The following tasks are unhealthy (stopped sending "
    "heartbeats):\n/job:worker/replica:0/task:1\nThe tasks have crashed. Check the task logs "
    "for an earlier error, or scheduler events (e.g. preemption, eviction) to debug further.\n"
    "The error could be from a previous operation. Restart your program to reset.\n"
    "\t [[{{node CollectiveReduceV2}}]] [Op:__inference_<lambda>_39]"
)


def test_the_tasks_tensorflow_calls_unhealthy_are_read_from_its_error() -> None:
    assert unhealthy(ABORTED) == ["worker 1"]
    two = (
        "unhealthy (stopped sending heartbeats):\n"
        "/job:chief/replica:0/task:0\n/job:worker/replica:0/task:2\n"
    )
    assert unhealthy(two) == ["chief 0", "worker 2"]
    assert unhealthy("Collective ops is aborted by: /job:worker/replica:0/task:1") == []


def test_a_survivor_names_the_peer_that_died_mid_test() -> None:
    stdout = (
        json.dumps({"event": "step", "step": "all-reduce", "task": "worker 0"})
        + "\n"
        + json.dumps({"event": "result", "status": "error", "error": ABORTED})
        + "\n"
    )
    cmd = CommandResult(("python",), 1, stdout, "", 16.0)
    outcome = parse_worker_output("worker 0", "127.0.0.1:1", cmd)
    (x,) = judge(local_spec([1, 2]), [outcome], 30.0)
    assert x.cause == "cluster-worker-failed"
    assert x.summary == (
        "worker 0: step 'all-reduce' was aborted: worker 1 stopped sending heartbeats "
        "(died mid-test)"
    )
    assert "/job:worker/replica:0/task:1" in x.detail
    assert x.fix is not None and "worker 1" in x.fix.text


def test_a_survivor_names_the_peer_it_could_no_longer_reach() -> None:
    error = (
        "UnavailableError: {{function_node __inference_<lambda>_80}} Collective ops is aborted "
        "by: failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:44219: "
        "Failed to connect to remote host: Connection refused"
    )
    stdout = (
        json.dumps({"event": "step", "step": "gather-facts", "task": "worker 0"})
        + "\n"
        + json.dumps({"event": "result", "status": "error", "error": error})
        + "\n"
    )
    cmd = CommandResult(("python",), 1, stdout, "", 7.0)
    # Port 4421 is a prefix of 44219: it must not be taken for the address in the error.
    spec = local_spec([4421, 44219])
    outcome = parse_worker_output("worker 0", "127.0.0.1:4421", cmd)
    (x,) = judge(spec, [outcome], 30.0)
    assert x.summary == (
        "worker 0: step 'gather-facts' was aborted: worker 1 (127.0.0.1:44219) could no longer "
        "be reached (died mid-test)"
    )
    # Without the spec the address cannot be named as a task: the error's first line stands.
    assert lost_peers(error, None) == ([], "")


def test_a_peer_cut_off_mid_collective_is_named_by_its_remote_target() -> None:
    # gRPC's words at the surviving worker when its peer is killed during the collective.
    error = (
        "UnavailableError: {{function_node __inference_<lambda>_39}} Collective ops is aborted "
        "by: Socket closed\nAdditional GRPC error information from remote target "
        "/job:worker/replica:0/task:1"
    )
    spec = local_spec([4421, 44219])
    assert lost_peers(error, spec, "127.0.0.1:4421") == (
        ["worker 1 (127.0.0.1:44219)"],
        "could no longer be reached",
    )
    # Naming no task, the words alone say nothing about which peer went.
    assert lost_peers(error.split("\n", maxsplit=1)[0], spec, "127.0.0.1:4421") == ([], "")


@pytest.mark.slow
def test_a_worker_whose_facts_are_large_is_compared_not_dropped() -> None:
    # 6 KB of one variable: more than the fixed 4 KB row the facts once had to fit in.
    report = local_report(2, OPTIONS, "0", "now", extra_env={1: {"TF_PADDING": "x" * 6000}})
    ids = [x.id for x in report.findings]
    assert "cluster.facts-missing" not in ids
    (differs,) = [x for x in report.findings if x.id == "fleet.differs.tf-padding"]
    assert differs.summary == "$TF_PADDING differs between the nodes"


@pytest.mark.slow
def test_timed_all_reduces_longer_than_the_step_timeout_are_measured_not_killed() -> None:
    # 100 timed all-reduces of 32 MiB outlast the 8 s step timeout on loopback gRPC (about
    # 20 s here); the warm-up announces how long they will take, so the parent and the
    # worker's own alarm wait for them.
    options = SmokeOptions(timeout=8.0, sizes=(32 * 1024 * 1024,), iterations=100, link_bytes=0)
    report = local_report(2, options, "0", "now")
    assert report.exit_code() == 0, [f.summary for f in report.findings]
    (point,) = report.bandwidth
    assert point.iterations == 100 and report.links == ()
    if point.seconds * point.iterations < options.timeout:
        pytest.skip("this machine's all-reduces finished within one step timeout: nothing shown")
