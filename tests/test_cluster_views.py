"""Every worker's view compared before TensorFlow: a stale cluster list, a task claimed twice.

Real ``tfdoctor cluster smoke`` processes on loopback, each with its own TF_CONFIG; the
handshake stops them before the (stand-in) TensorFlow is imported.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cluster_helpers import ROOT, wait_listening, worker_env, write_stand_in
from tfdoctor.cluster.verdicts import view_problems
from tfdoctor.cluster.workers import free_loopback_ports


@pytest.fixture
def stand_in(tmp_path: Path) -> Path:
    """A directory holding the stand-in ``tensorflow`` package."""
    return write_stand_in(tmp_path)


def smoke(env: dict[str, str]) -> subprocess.Popen[str]:
    """``tfdoctor cluster smoke --json`` in the background.

    The handshake waits half the step timeout for the peers: 8 s leaves room for the other
    processes' start on a busy machine; it ends as soon as every peer has answered.
    """
    return subprocess.Popen(
        [sys.executable, "-m", "tfdoctor", "cluster", "smoke", "--json", "--timeout", "16"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def mismatch_of(proc: subprocess.Popen[str]) -> str:
    """The view-mismatch finding's summary the process printed (exit 2)."""
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
        proc.communicate()
    assert proc.returncode == 2, out + err
    findings = {x["id"]: x for x in json.loads(out)["findings"]}
    assert "cluster.view-mismatch" in findings, out
    summary: str = findings["cluster.view-mismatch"]["summary"]
    return summary


def test_a_worker_with_a_stale_cluster_list_is_named_by_every_worker(stand_in: Path) -> None:
    ports = free_loopback_ports(3)
    two = [f"127.0.0.1:{p}" for p in ports[:2]]
    three = [*two, f"127.0.0.1:{ports[2]}"]
    # The stale worker first, so that it is already listening when the others look.
    stale = smoke(worker_env(stand_in, ports[2], three, index=2))
    assert wait_listening(ports[2])
    current = [smoke(worker_env(stand_in, ports[i], two, index=i)) for i in range(2)]
    summaries = [mismatch_of(p) for p in (stale, *current)]
    for summary, task in zip(summaries, ("worker 2", "worker 0", "worker 1")):
        assert summary.startswith(f"{task}: the workers see different cluster lists: ")
        # The two that agree come first, then the odd one, with the pid that runs it.
        assert "see(s) 2 task(s)" in summary
        assert f"worker 2 (pid {stale.pid}" not in summary  # the child's pid, not tfdoctor's
        assert "worker 2 (pid " in summary.split("; ")[-1] and "see(s) 3 task(s)" in summary


def test_two_processes_with_one_index_are_both_named(stand_in: Path) -> None:
    ports = free_loopback_ports(2)
    workers = [f"127.0.0.1:{p}" for p in ports]
    first = smoke(worker_env(stand_in, ports[0], workers, index=0))
    assert wait_listening(ports[0])
    second = smoke(worker_env(stand_in, ports[0], workers, index=0))
    for proc in (second, first):
        summary = mismatch_of(proc)
        assert "worker 0 is claimed by 2 processes: pid " in summary
    # The first also says which slot nobody took: worker 1's address never answered.
    assert f"no worker answered at 127.0.0.1:{ports[1]}" in summary


def test_view_problems_names_duplicates_lists_and_silent_slots() -> None:
    a = {"task": "worker 0", "pid": 1, "host": "h1", "address": "h1:1", "digest": "x", "tasks": 2}
    b = {**a, "pid": 2, "host": "h2"}
    c = {"task": "worker 1", "pid": 3, "host": "h3", "address": "h3:1", "digest": "y", "tasks": 3}
    problems = view_problems([a, b, c], ["h4:1"])
    assert problems == [
        "worker 0 is claimed by 2 processes: pid 1 on h1 (h1:1), pid 2 on h2 (h1:1)",
        "the workers see different cluster lists: worker 0 (pid 1 on h1), worker 0 (pid 2 on "
        "h2) see(s) 2 task(s) [list x]; worker 1 (pid 3 on h3) see(s) 3 task(s) [list y]",
        "no worker answered at h4:1",
    ]
    assert view_problems([a, {**a}], []) == []


def test_a_peer_whose_port_another_program_holds_is_named_so(stand_in: Path) -> None:
    ports = free_loopback_ports(2)
    workers = [f"127.0.0.1:{p}" for p in ports]
    with socket.socket() as squatter:  # listens, never speaks: not a worker of this test
        squatter.bind(("127.0.0.1", ports[1]))
        squatter.listen()
        out = subprocess.run(
            [sys.executable, "-m", "tfdoctor", "cluster", "smoke", "--json", "--timeout", "4"],
            cwd=ROOT,
            env=worker_env(stand_in, ports[0], workers, index=0),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert out.returncode == 2, out.stdout + out.stderr
    (unreachable,) = [
        x for x in json.loads(out.stdout)["findings"] if x["id"] == "cluster.task-unreachable"
    ]
    assert unreachable["summary"] == (
        "worker 0: step 'strategy' did not finish in 4 s; worker 1 (another program holds its "
        f"port 127.0.0.1:{ports[1]}) did not arrive"
    )
