"""Run the cluster worker child: this process's task (``cluster smoke``) or N on loopback.

The child (``child/cluster_worker.py``) runs by path in the examined interpreter, like the
probes' children, under a timeout and a process-group kill; it prints JSON lines. This module
starts it and turns what it printed into :class:`WorkerOutcome` values; it judges nothing.
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Optional

from tfdoctor.cluster.presence import Presence
from tfdoctor.cluster.spec import ClusterSpec, split_address
from tfdoctor.defaults import DEFAULT_TIMEOUT
from tfdoctor.evidence.cluster import read_cluster_evidence
from tfdoctor.probes._lifeline import stop_all as stop_children
from tfdoctor.probes._run import CommandResult, run_stepped
from tfdoctor.records import Record, record

#: The worker child, run by path.
WORKER_SCRIPT = str(Path(__file__).resolve().parent / "child" / "cluster_worker.py")

#: All-reduce sizes in bytes: the default sweep, and the full 4 B to 1 GiB one (``--full``),
#: the range nccl-tests is usually run over to qualify a fabric.
DEFAULT_SIZES = (4, 65536, 1048576, 16777216)
FULL_SIZES = (4, 64, 1024, 16384, 262144, 4194304, 67108864, 1073741824)

#: Timed all-reduces per size, after one untimed warm-up (nccl-tests' default is 20, ``-n``).
DEFAULT_ITERATIONS = 20

#: The collective implementations ``CommunicationOptions`` takes.
IMPLEMENTATIONS = ("auto", "ring", "nccl")

#: Bytes of each point-to-point transfer between ring neighbours, and how many are timed.
DEFAULT_LINK_BYTES = 4 * 1024 * 1024
DEFAULT_LINK_ITERATIONS = 5

#: Seconds the worker child lives past the sum of its step deadlines before it ends itself.
DEADLINE_MARGIN = 30.0

#: The only address ``cluster local`` ever uses.
LOOPBACK = "127.0.0.1"


@record
class SmokeOptions(Record):
    """How the worker child runs: interpreter, per-step timeout, sizes, iterations, the
    collective implementation and the neighbour transfers (``link_bytes`` 0: none)."""

    python: str = sys.executable
    #: Seconds each step after the import may take (strategy, connect, each all-reduce).
    timeout: float = 60.0
    import_timeout: float = DEFAULT_TIMEOUT
    sizes: tuple[int, ...] = DEFAULT_SIZES
    iterations: int = DEFAULT_ITERATIONS
    implementation: str = "auto"
    link_bytes: int = DEFAULT_LINK_BYTES
    link_iterations: int = DEFAULT_LINK_ITERATIONS

    def deadline(self) -> float:
        """Seconds the child may live in all: the import, every step's timeout, and a margin.

        The steps are the port, the handshake, the strategy, the known all-reduce, the links,
        the facts, two per size (warm-up, timed) and the final barrier
        (``child/cluster_worker.py``); a step that announces a longer budget (the timed
        all-reduces, the links) pushes the child's own deadline by as much.
        """
        return self.import_timeout + self.timeout * (7 + 2 * len(self.sizes)) + DEADLINE_MARGIN

    def argv(self) -> list[str]:
        """The child's command line (it ends with this process, and at its deadline)."""
        return [
            self.python,
            WORKER_SCRIPT,
            "--timeout",
            str(self.timeout),
            "--import-timeout",
            str(self.import_timeout),
            "--sizes",
            ",".join(str(s) for s in self.sizes),
            "--iterations",
            str(self.iterations),
            "--implementation",
            self.implementation,
            "--link-bytes",
            str(self.link_bytes),
            "--link-iterations",
            str(self.link_iterations),
            "--deadline",
            str(self.deadline()),
            "--parent",
            str(os.getpid()),
            "--watch-stdin",
        ]


@record
class WorkerOutcome(Record):
    """How one worker ended, and its result document when it printed one."""

    task: str
    address: str
    #: ok, timeout, port-in-use, mismatch (the handshake found workers that disagree on the
    #: cluster or a task claimed twice), error (the child caught it), crashed, killed,
    #: not-started, interrupted (Ctrl-C before it ended: not judged).
    status: str
    result: Optional[dict[str, Any]] = None
    #: The last step the child announced.
    step: Optional[str] = None
    returncode: Optional[int] = None
    stderr_tail: str = ""
    seconds: Optional[float] = None
    #: Peers whose tfdoctor went away by itself after the view exchange, the first first.
    departed: tuple[str, ...] = ()
    #: Peers whose tfdoctor ended its worker at its own step deadline, or whose worker
    #: TensorFlow aborted naming another peer (never to blame).
    excused: tuple[str, ...] = ()
    #: The tasks those aborted peers' TensorFlow named, as they told it.
    relayed: tuple[str, ...] = ()
    #: The tasks of the cluster no view of which reached this worker in the view exchange
    #: (never started, or never got that far); empty when the exchange was not reported.
    unheard: tuple[str, ...] = ()


def _events(stdout: str) -> list[dict[str, Any]]:
    out = []
    for line in stdout.splitlines():
        try:
            doc = json.loads(line)
        except ValueError:
            continue
        if isinstance(doc, dict):
            out.append(doc)
    return out


def stragglers(stderr: str) -> list[str]:
    """The tasks TensorFlow's log last said it waits for, as ``job index``."""
    return list(read_cluster_evidence(stderr).stragglers)


def unhealthy(error: str) -> list[str]:
    """The tasks TensorFlow says stopped sending heartbeats (died mid-run), as ``job index``."""
    return list(read_cluster_evidence(error).unhealthy)


def handshake_event(stdout: str) -> Optional[dict[str, Any]]:
    """The views the child exchanged with its peers before TensorFlow, when it got that far."""
    found = [doc for doc in _events(stdout) if doc.get("event") == "handshake"]
    return found[-1] if found else None


def reachable(address: str, timeout: float = 0.5) -> bool:
    """Whether a TCP connection to ``address`` succeeds (something listens on its port)."""
    host, port = split_address(address)
    if port is None:
        return False
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def parse_worker_output(
    task: str,
    address: str,
    cmd: CommandResult,
    step_timed_out: Optional[str] = None,
    missing: Sequence[str] = (),
    arrived: bool = False,
) -> WorkerOutcome:
    """The child's JSON lines (and how it ended) into an outcome.

    ``step_timed_out`` names the step the parent ended it in; ``missing``, the tasks that had
    not arrived then; ``arrived``, that every task had answered the handshake.
    """
    step = None
    result = None
    for doc in _events(cmd.stdout):
        if doc.get("event") == "step":
            step = str(doc.get("step"))
        elif doc.get("event") == "result":
            result = doc
    if step_timed_out is not None:
        status = "timeout"
        result = {"step": step_timed_out, "missing": list(missing), "arrived": arrived}
    elif result is not None:
        status = str(result.get("status", "error"))
    elif cmd.start_error is not None:
        status = "error"
        result = {"error": cmd.start_error}
    elif cmd.timed_out:
        status = "killed"
    else:
        status = "crashed"
    return WorkerOutcome(
        task=task,
        address=address,
        status=status,
        result=result,
        step=step,
        returncode=cmd.returncode,
        stderr_tail=cmd.stderr_tail(2000),
        seconds=cmd.seconds,
    )


def missing_tasks(
    spec: ClusterSpec, address: str, stdout: str, stderr: str
) -> tuple[list[str], bool]:
    """The tasks that have not arrived, and whether every task had arrived before TensorFlow.

    The handshake decided arrival before any deadline could end a worker, so every survivor
    names the same task: the one no worker answered for. Without it (the child ended before),
    TensorFlow's stragglers, then the ports that do not answer now.
    """
    shook = handshake_event(stdout)
    if shook is not None:
        tasks = {a.text: f"{a.job} {a.index}" for a in spec.addresses()}
        held = set(shook.get("held_by_others") or ())
        silent = [
            tasks.get(str(u), str(u))
            + (f" (another program holds its port {u})" if u in held else "")
            for u in shook.get("unanswered") or ()
        ]
        return silent, not silent
    names = stragglers(stderr)
    others = [a for a in spec.addresses() if a.text != address]
    names += [f"{a.job} {a.index}" for a in others if not reachable(a.text)]
    return list(dict.fromkeys(names)), False


def run_worker(spec: ClusterSpec, options: SmokeOptions, env: Mapping[str, str]) -> WorkerOutcome:
    """Run this process's task of ``spec`` (the child gets ``spec`` as its TF_CONFIG).

    Each step the child announces has a deadline; past it the child's process group is
    killed and the tasks that had not arrived are named: those TensorFlow's log calls
    stragglers, and those whose port does not answer.
    """
    task = f"{spec.task_type} {spec.task_index}"
    address = ""
    if spec.task_type is not None and spec.task_index is not None:
        tasks = spec.jobs.get(spec.task_type, ())
        address = tasks[spec.task_index] if spec.task_index < len(tasks) else ""
    presence = Presence()
    argv = options.argv()
    if presence.port is not None:
        argv += ["--presence-port", str(presence.port)]
    step = ["start"]
    heard: list[set[str]] = []  # the tasks the view exchange heard from, once reported

    def on_line(line: str) -> Optional[float]:
        budget = None
        for doc in _events(line):
            if doc.get("event") == "step":
                step[0] = str(doc.get("step"))
                budget = float(doc.get("timeout", options.timeout))
            elif doc.get("event") == "handshake":
                watch_peers(presence, doc)
                views = doc.get("heard") or ()
                heard.append({str(v.get("task")) for v in views if isinstance(v, dict)})
        return budget

    child_env = {**env, "TF_CONFIG": json.dumps(spec.to_json())}
    try:
        # stdin stays an open pipe: the child leaves at its end of file when this process goes.
        run = run_stepped(
            argv,
            child_env,
            options.import_timeout,
            on_line,
            keep_stdin_open=True,
            on_overrun=presence.tell_deadline,
        )
        blamed = None if run.overran else peers_named(run.result.stdout)
        if blamed is not None:
            presence.tell_aborted(blamed)
        if run.result.returncode != 0:
            presence.settle()
        departed, excused = tuple(presence.departed()), tuple(presence.excused())
        relayed = tuple(presence.relayed())
    except KeyboardInterrupt:  # the child is killed already (run_stepped)
        return WorkerOutcome(task, address, "interrupted", step=step[0])
    finally:
        presence.close()
    everyone = [f"{job} {i}" for job, tasks in spec.jobs.items() for i in range(len(tasks))]
    unheard = tuple(t for t in everyone if t != task and t not in heard[-1]) if heard else ()
    if not run.overran:
        outcome = parse_worker_output(task, address, run.result)
        return dataclasses.replace(
            outcome, departed=departed, excused=excused, relayed=relayed, unheard=unheard
        )
    # The tasks still missing when the step ran out: the peers' ports answer, or not, whether
    # this worker still runs.
    missing, arrived = missing_tasks(spec, address, run.result.stdout, run.result.stderr)
    outcome = parse_worker_output(task, address, run.result, step[0], missing, arrived)
    return dataclasses.replace(
        outcome, departed=departed, excused=excused, relayed=relayed, unheard=unheard
    )


def peers_named(stdout: str) -> Optional[list[str]]:
    """The peers TensorFlow named when it aborted the child (dead, or at the far end of a
    broken call); None when the child's end was no news of a peer."""
    for doc in _events(stdout):
        if doc.get("event") == "result" and doc.get("status") != "ok":
            seen = read_cluster_evidence(str(doc.get("error") or ""))
            if seen.unhealthy or seen.remote_targets or seen.cut_off or seen.unreachable:
                return list(seen.unhealthy or seen.remote_targets)
    return None


def watch_peers(presence: Presence, handshake: Mapping[str, Any]) -> None:
    """Watch the tfdoctor of every peer heard in the view exchange (those that told one)."""
    for view in handshake.get("heard") or ():
        if not isinstance(view, dict) or not isinstance(view.get("presence"), int):
            continue
        host, _ = split_address(str(view.get("address", "")))
        if host:
            presence.watch(str(view.get("task")), host, int(view["presence"]))


def free_loopback_ports(count: int) -> list[int]:
    """``count`` distinct TCP ports free on 127.0.0.1 now (the kernel picks them)."""
    socks = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind((LOOPBACK, 0))
            socks.append(sock)
        return [s.getsockname()[1] for s in socks]
    finally:
        for sock in socks:
            sock.close()


def local_spec(ports: Sequence[int]) -> ClusterSpec:
    """A cluster of ``worker`` tasks on loopback at ``ports``."""
    return ClusterSpec("local", {"worker": tuple(f"{LOOPBACK}:{p}" for p in ports)})


def run_local(
    workers: int,
    options: SmokeOptions,
    *,
    ports: Optional[Sequence[int]] = None,
    skip: Sequence[int] = (),
    extra_env: Optional[Mapping[int, Mapping[str, str]]] = None,
    env: Optional[Mapping[str, str]] = None,
) -> tuple[ClusterSpec, list[WorkerOutcome]]:
    """Start ``workers`` children on loopback, each with its own TF_CONFIG; wait for all.

    After Ctrl-C every child is killed at once, and the workers that had not ended are
    ``interrupted``.

    ``skip`` names worker indices never started and ``extra_env`` adds variables to single
    workers: both let a test play a missing node or one whose settings differ.
    """
    if workers < 1:
        raise ValueError("--workers must be at least 1")
    chosen = list(ports) if ports is not None else free_loopback_ports(workers)
    if len(chosen) != workers:
        raise ValueError(f"{len(chosen)} ports for {workers} workers")
    spec = local_spec(chosen)
    base = dict(os.environ if env is None else env)
    base.pop("TF_CONFIG", None)

    def one(index: int) -> WorkerOutcome:
        address = spec.jobs["worker"][index]
        if index in skip:
            return WorkerOutcome(f"worker {index}", address, "not-started")
        mine = dataclasses.replace(spec, task_type="worker", task_index=index)
        extra = (extra_env or {}).get(index, {})
        return run_worker(mine, options, {**base, **extra})

    pool = ThreadPoolExecutor(max_workers=workers)
    futures = [pool.submit(one, index) for index in range(workers)]
    try:
        outcomes = [future.result() for future in futures]
    except KeyboardInterrupt:
        # Ctrl-C: every worker's child ends now; those still running are not judged.
        stop_children()
        pool.shutdown(wait=False, cancel_futures=True)
        return spec, [
            future.result()
            if future.done() and not future.cancelled()
            else WorkerOutcome(f"worker {index}", spec.jobs["worker"][index], "interrupted")
            for index, future in enumerate(futures)
        ]
    pool.shutdown()
    return spec, outcomes
