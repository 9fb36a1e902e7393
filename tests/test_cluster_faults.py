"""The pre-flight's fault matrix: three real workers on loopback, one of them at fault.

Each case starts three ``tfdoctor cluster smoke`` processes (real TensorFlow in each worker
child, marked ``slow``), each with its own TF_CONFIG, and breaks one task: never started,
killed as it enters a step, stopped (SIGSTOP) with a step timeout above and below
TensorFlow's 10 s heartbeat timeout, its port held by another program, a stale cluster list,
its index claimed twice. Every survivor must end with exit 2 and no traceback, naming the
faulty task (and the step, where the fault has one) and never a healthy peer; no worker and
no port may be left behind.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Optional

import pytest

from tests.cluster_helpers import ROOT
from tests.processes import alive, kill_leftovers
from tfdoctor.cluster.presence import Presence
from tfdoctor.cluster.verdicts import outcome_finding
from tfdoctor.cluster.workers import WORKER_SCRIPT, WorkerOutcome, free_loopback_ports, local_spec
from tfdoctor.findings import Severity

#: The worker child's test hooks: die (``os._exit``) or stop (SIGSTOP) on entering a step.
DIE_AT = "TFDOCTOR_CLUSTER_TEST_DIE_AT"
STOP_AT = "TFDOCTOR_CLUSTER_TEST_STOP_AT"

#: A task named in a summary.
TASK = re.compile(r"\b(?:worker|chief) \d+\b")


@dataclasses.dataclass(frozen=True)
class Launch:
    """One ``cluster smoke`` process: the task it runs, how many tasks its list has, hooks."""

    index: int
    tasks: int = 3
    env: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: Whether its report is checked as a survivor's (the faulty process's own is not).
    survivor: bool = True


@dataclasses.dataclass(frozen=True)
class Fault:
    """A case of the matrix: the processes, the step timeout, what every survivor names."""

    launches: tuple[Launch, ...]
    timeout: float
    #: The task at fault, and the step every survivor names (None: the fault has none).
    faulty: str
    step: Optional[str]
    #: Another program listens on the port of this worker index.
    squat: Optional[int] = None
    #: Words every survivor's verdict must hold besides the faulty task.
    words: str = ""
    #: Whether a survivor may leave the faulty task unnamed (it cannot be told: it says so).
    may_not_tell: bool = False
    #: A step before ``step`` a survivor may still be in when the faulty task goes: a worker
    #: whose own result of a collective is complete moves on while its peers still pull their
    #: last chunk from it (RecvBuf), so a kill at the next step can land inside theirs.
    or_step: Optional[str] = None


def _three(env: Optional[Mapping[str, str]] = None, **kwargs: Any) -> tuple[Launch, ...]:
    """Workers 0 and 1, healthy survivors, and worker 2 with ``env``."""
    return (Launch(0), Launch(1), Launch(2, env=env or {}, survivor=False, **kwargs))


#: Above TensorFlow's heartbeat timeout (10 s): TensorFlow names a stopped peer in time.
ABOVE = 20.0
#: Below it: a stopped peer cannot be told from a slow one.
BELOW = 6.0

CASES = {
    "never-started": Fault((Launch(0), Launch(1)), 12.0, "worker 2", "strategy"),
    **{
        f"killed-at-{step}": Fault(_three({DIE_AT: step}), ABOVE, "worker 2", seen)
        for step, seen in (
            ("handshake", "strategy"),
            ("import", "strategy"),
            ("strategy", "strategy"),
            ("all-reduce", "all-reduce"),
        )
    },
    "killed-at-gather-facts": Fault(
        _three({DIE_AT: "gather-facts"}), ABOVE, "worker 2", "gather-facts", or_step="all-reduce"
    ),
    "stopped-above-heartbeat": Fault(
        _three({STOP_AT: "all-reduce"}), ABOVE, "worker 2", "all-reduce"
    ),
    "stopped-below-heartbeat": Fault(
        _three({STOP_AT: "all-reduce"}),
        BELOW,
        "worker 2",
        "all-reduce",
        words="cannot be told from a slow one",
        may_not_tell=True,
    ),
    "port-taken": Fault(_three(), 12.0, "worker 2", "strategy", squat=2),
    "stale-list": Fault(
        _three(tasks=4), 16.0, "worker 2", None, words="see different cluster lists"
    ),
    "duplicate-index": Fault(
        (Launch(0), Launch(1, survivor=False), Launch(1, survivor=False)),
        16.0,
        "worker 1",
        None,
        words="worker 1 is claimed by 2 processes",
    ),
}


def tf_config(ports: list[int], launch: Launch) -> str:
    """The TF_CONFIG of ``launch``: the first ``launch.tasks`` ports as the worker list."""
    workers = [f"127.0.0.1:{p}" for p in ports[: launch.tasks]]
    return json.dumps(
        {"cluster": {"worker": workers}, "task": {"type": "worker", "index": launch.index}}
    )


def smoke(ports: list[int], launch: Launch, timeout: float) -> subprocess.Popen[str]:
    """``tfdoctor cluster smoke --json`` for ``launch``: one all-reduce size, one call, no links."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TF_CONFIG": tf_config(ports, launch),
        **launch.env,
    }
    argv = [sys.executable, "-m", "tfdoctor", "cluster", "smoke", "--json"]
    argv += [
        "--timeout",
        f"{timeout:g}",
        "--max-size",
        "4",
        "--iterations",
        "1",
        "--link-bytes",
        "0",
    ]
    return subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def workers_left(ports: list[int]) -> list[int]:
    """Worker children still running whose TF_CONFIG names one of ``ports``."""
    wanted = [f"127.0.0.1:{p}".encode() for p in ports]
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if WORKER_SCRIPT.encode() not in (entry / "cmdline").read_bytes():
                continue
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if any(w in environ for w in wanted) and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def port_free(port: int, seconds: float = 3.0) -> bool:
    """Whether 127.0.0.1:``port`` can be bound within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(("127.0.0.1", port))
                return True
            except OSError:
                if time.monotonic() >= deadline:
                    return False
        time.sleep(0.05)


@dataclasses.dataclass(frozen=True)
class Ended:
    """How one ``cluster smoke`` process ended."""

    launch: Launch
    returncode: int
    stdout: str
    stderr: str
    seconds: float


@pytest.fixture
def squatter() -> Iterator[socket.socket]:
    """A socket that listens and never speaks: another program holding a task's port."""
    with socket.socket() as sock:
        yield sock


def run_case(fault: Fault, ports: list[int], squatter: socket.socket) -> list[Ended]:
    """Start every process of ``fault`` at once and wait for each to end."""
    if fault.squat is not None:
        squatter.bind(("127.0.0.1", ports[fault.squat]))
        squatter.listen()
    started = time.monotonic()
    procs = [smoke(ports, launch, fault.timeout) for launch in fault.launches]
    ended = []
    try:
        for launch, proc in zip(fault.launches, procs):
            out, err = proc.communicate(timeout=240)
            ended.append(Ended(launch, proc.returncode, out, err, time.monotonic() - started))
    finally:
        for proc in procs:
            proc.kill()
            proc.communicate()
        kill_leftovers(workers_left(ports))
        squatter.close()
    return ended


def verdict(end: Ended) -> str:
    """The first error the process reported, without its own task's prefix."""
    errors = [x for x in json.loads(end.stdout)["findings"] if x["severity"] == "error"]
    assert errors, end.stdout
    summary: str = errors[0]["summary"]
    return (
        summary.split(": ", 1)[1] if summary.startswith(f"worker {end.launch.index}:") else summary
    )


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_every_survivor_names_the_faulty_task(case: str, squatter: socket.socket) -> None:
    fault = CASES[case]
    ports = free_loopback_ports(4)
    ended = run_case(fault, ports, squatter)
    for end in ended:
        assert end.returncode == 2, (case, end.launch, end.stdout, end.stderr[-3000:])
        assert "Traceback" not in end.stderr, end.stderr[-3000:]
    survivors = [end for end in ended if end.launch.survivor]
    for end in survivors:
        said = verdict(end)
        # The measured matrix of docs/cluster.md: case, survivor, verdict, seconds.
        print(f"MATRIX {case} | worker {end.launch.index} | {said} | {end.seconds:.1f} s")
        assert fault.words in said, said
        if fault.step is not None:
            steps = [x for x in (fault.step, fault.or_step) if x]
            assert any(f"step '{x}'" in said for x in steps), said
        named = set(TASK.findall(said))
        if fault.step is not None:
            # Nobody but the faulty task is blamed.
            assert named <= {fault.faulty}, said
        if not fault.may_not_tell:
            assert fault.faulty in named, said
        # Within the import, the step deadlines the fault spans and the start, with room.
        assert end.seconds < 120 + 4 * fault.timeout, said
    # Nothing left behind: no worker of this run, every port free for the next try.
    assert workers_left(ports) == []
    for port in ports[:3]:
        assert port_free(port), f"port {port} still held"


def _until(check: Callable[[], bool], seconds: float = 5.0) -> bool:
    """Whether ``check()`` holds within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_peer_at_its_deadline_is_excused_and_one_that_went_is_not() -> None:
    me, at_deadline, dying = Presence(), Presence(), Presence()
    try:
        assert at_deadline.port is not None and dying.port is not None
        me.watch("worker 1", "127.0.0.1", at_deadline.port)
        me.watch("worker 2", "127.0.0.1", dying.port)
        assert _until(lambda: bool(at_deadline._held and dying._held))
        dying.close()  # its tfdoctor ended without a word: the one to blame
        assert _until(lambda: me.departed() == ["worker 2"])
        at_deadline.tell_deadline()
        at_deadline.close()
        assert _until(lambda: me.excused() == ["worker 1"])
        assert me.departed() == ["worker 2"]
        # A peer whose worker TensorFlow aborted is excused, and says whom TensorFlow named.
        aborted = Presence()
        assert aborted.port is not None
        me.watch("worker 4", "127.0.0.1", aborted.port)
        assert _until(lambda: bool(aborted._held))
        aborted.tell_aborted(["worker 5"])
        aborted.close()
        assert _until(lambda: me.excused() == ["worker 1", "worker 4"])
        assert me.relayed() == ["worker 5"]
        # A peer whose tfdoctor had gone before this one could connect went by itself too.
        (gone,) = free_loopback_ports(1)
        me.watch("worker 3", "127.0.0.1", gone)
        assert _until(lambda: me.departed() == ["worker 2", "worker 3"])
    finally:
        for presence in (me, at_deadline, dying):
            presence.close()


def _aborted(
    excused: tuple[str, ...],
    departed: tuple[str, ...],
    relayed: tuple[str, ...] = (),
    unheard: tuple[str, ...] = (),
) -> str:
    """The verdict on worker 1 whose collective TensorFlow aborted naming worker 0."""
    # gRPC's words at a survivor whose peer's deadline ended it mid-collective.
    error = (
        "UnavailableError: Collective ops is aborted by: Socket closed\nAdditional GRPC error "
        "information from remote target /job:worker/replica:0/task:0"
    )
    spec = local_spec([4421, 4422, 4423])
    outcome = WorkerOutcome(
        "worker 1",
        "127.0.0.1:4422",
        "error",
        {"error": error},
        step="all-reduce",
        departed=departed,
        excused=excused,
        relayed=relayed,
        unheard=unheard,
    )
    found = outcome_finding(outcome, BELOW, spec)
    assert found is not None and found.severity is Severity.ERROR
    return found.summary


def test_a_peer_ended_by_its_own_deadline_is_not_blamed() -> None:
    # Without news from the peers' tfdoctor, TensorFlow's words stand.
    assert _aborted((), ()) == (
        "worker 1: step 'all-reduce' was aborted: worker 0 (127.0.0.1:4421) could no longer "
        "be reached (died mid-test)"
    )
    # Worker 2 left first by itself: it is named, not worker 0 whose end TensorFlow saw.
    assert _aborted(("worker 0",), ("worker 2",)) == (
        "worker 1: step 'all-reduce' was aborted: worker 2 arrived, then left the test by "
        "itself (before any step deadline)"
    )
    # Worker 0 was aborted itself, by worker 2 as its TensorFlow said: worker 2 is named.
    assert _aborted(("worker 0",), (), ("worker 2",)) == (
        "worker 1: step 'all-reduce' was aborted: worker 2 failed, as another worker's "
        "TensorFlow reported (died or stopped mid-test)"
    )
    # Every peer TensorFlow names only reached its deadline: what cannot be told is said.
    summary = _aborted(("worker 0", "worker 2"), ())
    assert summary.startswith(
        "worker 1: step 'all-reduce' was aborted when worker 0 (127.0.0.1:4421) ended at its "
        "own step deadline; the task that held them up cannot be told; with --timeout below "
    )
    # The peer's deadline ran out waiting for a task the view exchange never heard from: that
    # task never arrived, and is named by this survivor too.
    assert _aborted(("worker 0",), (), (), ("worker 2",)) == (
        "worker 1: step 'all-reduce' was aborted when a peer waiting for worker 2 ended at its "
        "own step deadline; worker 2 did not arrive (never heard in the view exchange)"
    )
