"""One worker of the cluster smoke test: run by path, stdlib and TensorFlow only.

Reads its task from ``TF_CONFIG`` like ``MultiWorkerMirroredStrategy`` does, then runs its
steps, each under a deadline the parent keeps: checks its own port is free, exchanges views
with its peers (task, pid, host, a digest of the cluster list; :func:`handshake`), imports
TensorFlow, creates the strategy (which starts this task's gRPC server and waits for every
other task), runs a sum all-reduce with known values (each replica adds ``replica + 1`` at
its own position, so every contribution is checked), gathers every worker's facts through the
same all-reduce, and times all-reduces of growing size. Prints one JSON object per line:
``{"event": "step", ...}`` as it goes, and a final ``{"event": "result", ...}``. The
step deadlines are kept by the parent, not here: while TensorFlow waits for a missing task
inside its C++ runtime, no Python thread of this process may run, so only another process can
end the wait and name the task. The worker keeps one deadline of its own, for the whole run,
and ends with its parent (:func:`tie_to_parent`): killed or not, no parent leaves a worker
holding its port.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import signal
import socket
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any, Optional

#: When this process started its steps (``at`` in each step event counts from here).
STARTED = time.monotonic()

#: Seconds a finished worker stays up so its peers can pull what they still need from it.
LINGER_SECONDS = 0.2

#: The first word of a handshake line: what a worker of this test says before its view.
HANDSHAKE_MAGIC = "tfdoctor-cluster-view-1"
#: Seconds the handshake waits for peers at most, and half the step's timeout (then the
#: strategy step names the missing ones).
HANDSHAKE_SECONDS = 10.0
#: Seconds a worker keeps answering after it has heard every peer (for late, stale ones).
HANDSHAKE_LINGER = 0.5

#: Exit statuses the parent reads.
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_PORT_IN_USE = 4

#: Test hook, not for users: when this variable names a step, the worker announces that step
#: and then leaves at once with ``EXIT_FAILED`` (``os._exit``: no result line, no cleanup),
#: like a node that dies mid-test. The real-process tests use it to play a dead peer.
DIE_AT_VARIABLE = "TFDOCTOR_CLUSTER_TEST_DIE_AT"
#: Test hook, not for users: when this variable names a step, the worker announces that step
#: and then stops itself with SIGSTOP, like a node that hangs or is paused mid-test (its
#: sockets stay open, it answers nothing); the parent's step deadline ends it.
STOP_AT_VARIABLE = "TFDOCTOR_CLUSTER_TEST_STOP_AT"


#: prctl(2) option, from <linux/prctl.h>.
PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> None:
    """Linux: ask the kernel for SIGKILL when ``parent`` goes; leave at once if it has gone.

    The parent asks for it too before exec; asking here as well keeps a worker started by any
    other launcher from outliving it (prctl(2), PR_SET_PDEATHSIG).
    """
    if sys.platform.startswith("linux"):
        try:
            import ctypes  # noqa: PLC0415 - Linux only

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (ImportError, OSError, AttributeError):
            pass
    # The parent may have gone before the request took: the kernel then sends nothing.
    if parent and os.getppid() != parent:
        os._exit(EXIT_FAILED)


def _leave_at_stdin_eof() -> None:
    """Leave when stdin reaches end of file: the parent, which holds its other end, has gone."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except (OSError, ValueError):
        pass
    os._exit(EXIT_FAILED)


def tie_to_parent(parent: int, deadline: float, watch_stdin: bool) -> None:
    """End this worker with its parent, and after ``deadline`` seconds in any case.

    Three ways, so that no worker is left holding its port: the kernel's parent-death signal
    (Linux), a thread reading stdin (a pipe only the parent writes: end of file when it goes,
    on any system), and an alarm whose default action ends the process in the kernel, which
    fires even while TensorFlow's C++ runtime holds the interpreter (signal(7): SIGALRM's
    default action is to terminate).
    """
    _die_with(parent)
    if watch_stdin:
        threading.Thread(target=_leave_at_stdin_eof, name="parent-watch", daemon=True).start()
    if deadline > 0 and hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.setitimer(signal.ITIMER_REAL, deadline)


def emit(doc: dict[str, Any]) -> None:
    """One JSON line on stdout, flushed (the parent reads them as they come)."""
    sys.stdout.write(json.dumps(doc, sort_keys=True) + "\n")
    sys.stdout.flush()


def split(address: str) -> tuple[str, int]:
    """``host:port`` / ``[v6]:port`` into host and port."""
    host, _, port = address.rpartition(":")
    return host.strip("[]"), int(port)


def tasks_of(cluster: dict[str, list[str]]) -> list[tuple[str, int, str]]:
    """Every task as (job, index, address), chief first, then workers: TF's worker order."""
    order = ["chief", "worker", *sorted(j for j in cluster if j not in ("chief", "worker"))]
    return [(job, i, a) for job in order for i, a in enumerate(cluster.get(job, []))]


def listen_on(address: str) -> tuple[Optional[socket.socket], Optional[str]]:
    """This task's port, bound and listening for the handshake; else why it cannot be bound."""
    _, port = split(address)
    # Every address, IPv4 and IPv6 alike where the host has both, as TensorFlow's gRPC server
    # listens ([::]:port); create_server sets SO_REUSEADDR, so a socket of a finished run in
    # TIME_WAIT does not block it, nor gRPC.
    # https://docs.python.org/3/library/socket.html#socket.create_server
    dual = socket.has_dualstack_ipv6()
    try:
        sock = socket.create_server(
            ("", port),
            family=socket.AF_INET6 if dual else socket.AF_INET,
            backlog=64,
            dualstack_ipv6=dual,
        )
    except OSError as exc:
        # create_server adds the address to the message: the errno's own words are enough.
        return None, os.strerror(exc.errno) if exc.errno else str(exc)
    return sock, None


def view_digest(cluster: dict[str, list[str]]) -> str:
    """A short digest of the cluster list: equal on every worker that sees the same cluster."""
    canonical = json.dumps({k: list(v) for k, v in cluster.items()}, sort_keys=True)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]


def _line(doc: dict[str, Any]) -> bytes:
    return f"{HANDSHAKE_MAGIC} {json.dumps(doc, sort_keys=True)}\n".encode()


def exchange(conn: socket.socket, mine: bytes) -> Optional[dict[str, Any]]:
    """Send this worker's view on ``conn`` and read the peer's; None when the peer is no
    worker in its handshake (nothing, or another protocol, such as a gRPC server)."""
    conn.settimeout(1.0)
    try:
        conn.sendall(mine)
        data = b""
        while not data.endswith(b"\n") and len(data) < 65536:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        return None
    magic, _, body = data.decode("utf-8", "replace").strip().partition(" ")
    if magic != HANDSHAKE_MAGIC:
        return None
    try:
        doc = json.loads(body)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def ask(address: str, mine: bytes, foreign: Optional[set[str]] = None) -> Optional[dict[str, Any]]:
    """The view of the worker listening at ``address``, or None; an address where something
    accepts the connection but answers no view is added to ``foreign``."""
    try:
        with socket.create_connection(split(address), timeout=0.5) as conn:
            doc = exchange(conn, mine)
    except OSError:
        return None
    if doc is None and foreign is not None:
        foreign.add(address)
    return doc


def handshake(
    server: socket.socket, me: dict[str, Any], peers: list[str], seconds: float
) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """Exchange views with every peer address before TensorFlow starts: what was heard (from
    peers and from any process that called), the addresses no worker answered at, and those
    of them where another program answers (it holds the task's port).

    Every exchange tells both ends: a worker that has heard from all its peers has been heard
    by all of them, so it may stop serving (after a short linger for latecomers).
    """
    mine = _line(me)
    heard: list[dict[str, Any]] = []
    lock = threading.Lock()
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            with conn:
                doc = exchange(conn, mine)
            if doc is not None:
                with lock:
                    heard.append(doc)

    thread = threading.Thread(target=serve, name="handshake", daemon=True)
    thread.start()
    reached: set[str] = set()
    foreign: set[str] = set()
    end = time.monotonic() + seconds
    while True:
        with lock:
            called = {str(d.get("address")) for d in heard}
        pending = [a for a in peers if a not in reached and a not in called]
        if not pending or time.monotonic() >= end:
            break
        for address in pending:
            if time.monotonic() >= end:  # a firewall that drops packets costs each try 0.5 s
                break
            doc = ask(address, mine, foreign)
            if doc is not None:
                with lock:
                    heard.append(doc)
                reached.add(address)
        time.sleep(0.05)
    if not pending:
        time.sleep(HANDSHAKE_LINGER)
    stop.set()
    thread.join(timeout=2)
    server.close()
    with lock:
        views = {(d.get("host"), d.get("pid"), d.get("task")): d for d in heard}
    return list(views.values()), pending, sorted(foreign.intersection(pending))


def announce(me: dict[str, Any], peers: list[str], timeout: float) -> None:
    """Give ``me`` to every peer's handshake, waiting for it as :func:`handshake` does."""
    mine = _line(me)
    pending = list(peers)
    end = time.monotonic() + min(timeout / 2, HANDSHAKE_SECONDS)
    while pending and time.monotonic() < end:
        pending = [a for a in pending if ask(a, mine) is None]
        time.sleep(0.05)


def port_in_use(view: dict[str, Any], held: str, peers: list[str], timeout: float) -> int:
    """Report this task's port as taken, naming the holder when it is a worker of this test."""
    # Who holds the port: a worker of this test answers the handshake with its view.
    holder = ask(str(view["address"]), _line(view))
    if holder is not None:
        # Another worker of this test holds it: tell every peer this process claims the task
        # too, so each names both claimants, not the task nobody started.
        announce(view, peers, timeout)
    emit(
        {
            "event": "result",
            "task": view["task"],
            "status": "port-in-use",
            "error": held,
            "me": view,
            "holder": holder,
        }
    )
    return EXIT_PORT_IN_USE


def disagreements(me: dict[str, Any], heard: list[dict[str, Any]]) -> bool:
    """Whether a peer sees another cluster, or another process claims a task already claimed."""
    claims: dict[str, set[tuple[Any, Any]]] = {}
    for doc in [me, *heard]:
        claims.setdefault(str(doc.get("task")), set()).add((doc.get("host"), doc.get("pid")))
    stale = any(d.get("digest") != me["digest"] for d in heard)
    return stale or any(len(who) > 1 for who in claims.values())


def step(me: str, name: str, seconds: float) -> None:
    """Announce ``name``: the parent kills this process if the step outlives ``seconds``."""
    at = round(time.monotonic() - STARTED, 3)
    emit({"event": "step", "step": name, "task": me, "timeout": seconds, "at": at})
    if os.environ.get(DIE_AT_VARIABLE) == name:
        os._exit(EXIT_FAILED)
    if os.environ.get(STOP_AT_VARIABLE) == name:
        os.kill(os.getpid(), signal.SIGSTOP)


def _version(dist: str) -> str:
    """An installed distribution's version; importlib.metadata is Python 3.8+."""
    try:
        from importlib import metadata  # noqa: PLC0415 - absent on Python 3.7

        return metadata.version(dist)
    except ImportError:
        return "(unknown)"
    except Exception as exc:  # PackageNotFoundError, or broken metadata
        return "not installed" if type(exc).__name__ == "PackageNotFoundError" else "(unknown)"


def driver_version() -> str:
    """The loaded NVIDIA kernel module's version, from /proc (``none`` without one)."""
    try:
        text = Path("/proc/driver/nvidia/version").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "none"
    # "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 ..."
    match = re.search(r"Kernel Module(?: for \S+)?\s+([0-9][0-9.]*)", text)
    return match.group(1) if match else "(unknown)"


def nvidia_distributions() -> dict[str, str]:
    """The installed ``nvidia-*`` distributions (CUDA libraries, NCCL) and their versions."""
    try:
        from importlib import metadata  # noqa: PLC0415 - absent on Python 3.7
    except ImportError:
        return {}
    found = {}
    for dist in metadata.distributions():
        name = re.sub(r"[-_.]+", "-", str(dist.metadata["Name"] or "")).lower()
        if name.startswith("nvidia-"):
            found[name] = str(dist.version)
    return dict(sorted(found.items()))


def node_facts(tf: Any) -> dict[str, str]:
    """This worker's facts, with the names tfdoctor.cluster.fleet.node_summary uses."""
    facts = {
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "tensorflow": tf.__version__,
    }
    build = tf.sysconfig.get_build_info()
    facts["tensorflow build CUDA"] = str(build.get("cuda_version") or "none")
    facts["tensorflow build cuDNN"] = str(build.get("cudnn_version") or "none")
    for dist in ("keras", "numpy"):
        facts[dist] = _version(dist)
    facts["NVIDIA driver"] = driver_version()
    # NCCL and the CUDA libraries as pip installs them (nvidia-nccl-cu12, nvidia-cudnn-cu12 ...),
    # named as tfdoctor.cluster.fleet.node_summary names them.
    facts.update(nvidia_distributions())
    gpus = tf.config.list_physical_devices("GPU")
    facts["GPU count"] = str(len(gpus))
    names = sorted(
        {str(tf.config.experimental.get_device_details(g).get("device_name", "GPU")) for g in gpus}
    )
    facts["GPU model"] = ", ".join(names) if names else "none"
    # The same selection as fleet.matters (this script imports nothing of tfdoctor).
    for name, value in sorted(os.environ.items()):
        # TF_CONFIG differs by design; TF_CLI_* and TF_VAR_* belong to Terraform.
        if name == "TF_CONFIG" or name.startswith(("TF_CLI_", "TF_VAR_")):
            continue
        if name in (
            "CUDA_VISIBLE_DEVICES",
            "XLA_FLAGS",
            "KERAS_BACKEND",
            "LD_LIBRARY_PATH",
            "PYTHONPATH",
        ) or name.startswith(("TF_", "NCCL_")):
            facts[f"${name}"] = value
    return facts


def _local(strategy: Any, value: Any) -> Any:
    """This worker's first replica's value of a per-replica result, as a NumPy array."""
    return strategy.experimental_local_results(value)[0].numpy()


def known_sum(tf: Any, strategy: Any) -> tuple[list[float], list[float]]:
    """A sum all-reduce where replica r adds r + 1 at position r: got, expected."""
    replicas = int(strategy.num_replicas_in_sync)

    # Values are built inside the replica function: a tensor passed into strategy.run from
    # outside a tf.function fails with "destinations can not be empty" (measured, TF 2.21).
    def replica_fn() -> Any:
        ctx = tf.distribute.get_replica_context()
        rid = ctx.replica_id_in_sync_group
        return ctx.all_reduce("sum", tf.one_hot(rid, replicas) * tf.cast(rid + 1, tf.float32))

    got = _local(strategy, tf.function(lambda: strategy.run(replica_fn))()).tolist()
    return got, [float(i + 1) for i in range(replicas)]


def pack(doc: dict[str, Any]) -> list[int]:
    """A document as the bytes of its JSON text, whole."""
    return list(json.dumps(doc, sort_keys=True).encode("utf-8"))


def unpack(table: Any) -> dict[str, Any]:
    """Every worker's document by task from the gathered rows (replica r's bytes in row r).

    A row that does not read back is kept as such, never dropped: the report names it.
    """
    gathered: dict[str, Any] = {}
    for replica, row in enumerate(table):
        data = bytes(int(b) for b in row if b).decode("utf-8", "replace")
        try:
            one = json.loads(data)
        except ValueError:
            one = None
        if isinstance(one, dict) and "task" in one:
            gathered.setdefault(str(one["task"]), one)
        else:
            gathered[f"replica {replica}"] = {
                "error": f"its facts did not read back ({len(data)} B)"
            }
    return gathered


def gather_facts(tf: Any, strategy: Any, doc: dict[str, Any]) -> dict[str, Any]:
    """Every worker's ``doc`` by task, through the collective, whatever its size.

    Two all-reduces: each replica's length at its position, then a table as wide as the
    longest, each replica filling its row (a byte is exact in float32).
    """
    replicas = int(strategy.num_replicas_in_sync)
    raw = pack(doc)

    def lengths_fn() -> Any:
        ctx = tf.distribute.get_replica_context()
        return ctx.all_reduce("sum", tf.one_hot(ctx.replica_id_in_sync_group, replicas) * len(raw))

    lengths = _local(strategy, tf.function(lambda: strategy.run(lengths_fn))())
    width = max(1, int(max(lengths)))
    padded = raw + [0] * (width - len(raw))

    def replica_fn() -> Any:
        ctx = tf.distribute.get_replica_context()
        row = tf.constant(padded, tf.float32)[tf.newaxis, :]
        return ctx.all_reduce(
            "sum", tf.one_hot(ctx.replica_id_in_sync_group, replicas)[:, tf.newaxis] * row
        )

    return unpack(_local(strategy, tf.function(lambda: strategy.run(replica_fn))()))


def time_all_reduce(
    tf: Any, strategy: Any, size: int, iterations: int, me: str, timeout: float
) -> dict[str, Any]:
    """Seconds per all-reduce of ``size`` bytes, each timed on its own after a warm-up: the
    median, the fastest and the slowest, and the bandwidths nccl-tests reports at the median.

    The warm-up (which also traces the function) tells how long the timed calls will take: the
    step announced for them gets that long, so a 1 GiB all-reduce on a slow link is not killed
    by a step timeout meant for a handshake.
    """
    n = max(1, size // 4)
    ranks = int(strategy.num_replicas_in_sync)

    def replica_fn() -> Any:
        reduced = tf.distribute.get_replica_context().all_reduce("sum", tf.ones([n], tf.float32))
        # One element comes back to the host: fetching it waits for the whole all-reduce
        # without copying the message (a 1 GiB copy would be timed with it).
        return reduced[:1]

    fn = tf.function(lambda: strategy.run(replica_fn))
    step(me, f"bandwidth {size} B warm-up", timeout)
    first = time.monotonic()
    _local(strategy, fn())  # trace and warm up
    warm = time.monotonic() - first
    extra = warm * iterations * 2
    extend_deadline(extra)
    step(me, f"bandwidth {size} B", timeout + extra)
    times = []
    value = 0.0
    for _ in range(iterations):
        start = time.perf_counter()
        value = float(_local(strategy, fn())[0])
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times)
    algbw = n * 4 / seconds
    # nccl-tests' all-reduce bus bandwidth is algbw * 2(n-1)/n for n ranks: what each link of
    # a ring carries, comparable with the hardware's peak whatever the number of ranks.
    # https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md#allreduce
    busbw = algbw * 2 * (ranks - 1) / ranks if ranks > 1 else algbw
    return {
        "bytes": float(n * 4),
        "seconds": seconds,
        "seconds_min": min(times),
        "seconds_max": max(times),
        "iterations": iterations,
        "algbw": algbw,
        "busbw": busbw,
        "ok": value == float(ranks),
    }


def extend_deadline(seconds: float) -> None:
    """Push this worker's own deadline ``seconds`` later (a long step announced its length)."""
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        return
    left, _ = signal.getitimer(signal.ITIMER_REAL)
    if left > 0:
        signal.setitimer(signal.ITIMER_REAL, left + seconds)


def implementation_of(tf: Any, name: str) -> Any:
    """The ``CommunicationOptions`` for ``name`` (auto, ring, nccl)."""
    chosen = getattr(tf.distribute.experimental.CommunicationImplementation, name.upper())
    return tf.distribute.experimental.CommunicationOptions(implementation=chosen)


def collective_used(strategy: Any, configured: str) -> dict[str, str]:
    """The implementation the strategy was configured with, as TensorFlow holds it, and the
    one its all-reduces run on this worker's devices.

    TensorFlow runs NCCL only for GPU devices: on CPU every all-reduce is its ring
    (``CommunicationImplementation``: "NCCL: Use ncclAllReduce for all-reduce", GPU only;
    MultiWorkerMirroredStrategy warns "Enabled NCCL communication but no GPUs" otherwise).
    With AUTO on GPUs the runtime picks, and tfdoctor says AUTO.
    https://www.tensorflow.org/api_docs/python/tf/distribute/experimental/CommunicationImplementation
    """
    options = getattr(strategy.extended, "_communication_options", None)
    held = getattr(getattr(options, "implementation", None), "name", None)
    held = str(held or configured.upper())
    device = str(getattr(strategy.extended, "_local_device_type", "") or "CPU").upper()
    ran = "RING" if device != "GPU" or held == "RING" else held
    return {"configured": held, "device": device, "ran": ran}


# --- point-to-point: each ring neighbour pair, alone on the wire ---------------------------

#: Seconds a link transfer may wait for its peer before the link is reported as failed.
LINK_WAIT = 10.0
#: Seconds of timed transfers per link at most: a slow link is timed fewer times, not for
#: longer than its successor waits for its turn (``LINK_WAIT``).
LINK_BUDGET = 2.0


def link_server() -> Optional[socket.socket]:
    """A listening socket on a free port of every address, for the neighbour transfers."""
    dual = socket.has_dualstack_ipv6()
    try:
        return socket.create_server(
            ("", 0),
            family=socket.AF_INET6 if dual else socket.AF_INET,
            backlog=8,
            dualstack_ipv6=dual,
        )
    except OSError:
        return None


def _recv_exact(conn: socket.socket, size: int) -> int:
    got = 0
    while got < size:
        chunk = conn.recv(min(1 << 20, size - got))
        if not chunk:
            break
        got += len(chunk)
    return got


def receive_link(server: socket.socket, wait: float) -> None:
    """Take the transfers of this worker's ring predecessor: each a length, its bytes, an ack.

    Returns when the predecessor closes (its turn is over, this worker's begins) or after
    ``wait`` seconds without it."""
    server.settimeout(wait)
    try:
        conn, _ = server.accept()
    except OSError:
        return
    with conn:
        conn.settimeout(wait)
        try:
            while True:
                head = conn.recv(8)
                if len(head) < 8:
                    return
                size = int.from_bytes(head, "big")
                if _recv_exact(conn, size) < size:
                    return
                conn.sendall(b"k")
        except OSError:
            return


def send_link(address: str, port: int, size: int, reps: int, wait: float) -> dict[str, Any]:
    """Time ``reps`` transfers of ``size`` bytes to ``address``'s host at ``port`` (after one
    untimed warm-up), each until the peer's acknowledgement of the last byte; fewer, but at
    least one, once ``LINK_BUDGET`` seconds have gone on them."""
    host, _ = split(address)
    payload = b"\0" * size
    reps = max(1, reps)
    times: list[float] = []
    try:
        with socket.create_connection((host, port), timeout=wait) as conn:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            began = time.perf_counter()
            for rep in range(reps + 1):
                if len(times) >= 1 and time.perf_counter() - began > LINK_BUDGET:
                    break
                start = time.perf_counter()
                conn.sendall(size.to_bytes(8, "big") + payload)
                if conn.recv(1) != b"k":
                    raise OSError("the peer closed the link test")
                if rep:
                    times.append(time.perf_counter() - start)
                else:
                    began = time.perf_counter()
    except OSError as exc:
        return {"error": os.strerror(exc.errno) if exc.errno else str(exc) or type(exc).__name__}
    seconds = statistics.median(times)
    return {
        "bytes": size,
        "seconds": seconds,
        "seconds_min": min(times),
        "seconds_max": max(times),
        "iterations": len(times),
        "bandwidth": size / seconds,
    }


def ring_links(
    server: Optional[socket.socket],
    ring: list[str],
    me: str,
    ports: dict[str, int],
    addresses: dict[str, str],
    size: int,
    reps: int,
) -> list[dict[str, Any]]:
    """Each worker times its transfer to the next in TensorFlow's ring order, one at a time:
    the first sends, and each worker sends once its predecessor has finished sending to it,
    so no two transfers share the wire or the CPUs. This worker's measurement, as a list."""
    if server is None or me not in ring or len(ring) < 2:
        return []
    at = ring.index(me)
    nxt = ring[(at + 1) % len(ring)]
    if at > 0:
        receive_link(server, LINK_WAIT * (at + 1))
    out: dict[str, Any] = {"from": me, "to": nxt}
    port = ports.get(nxt)
    if port is None:
        out["error"] = "its peer published no port for the link test"
    else:
        out.update(send_link(addresses[nxt], port, size, reps, LINK_WAIT))
    if at == 0:
        receive_link(server, LINK_WAIT * len(ring))
    server.close()
    return [out]


def every_link(gathered: dict[str, Any]) -> list[dict[str, Any]]:
    """Every worker's link measurement, from the documents gathered through the collective."""
    return [
        link
        for one in gathered.values()
        if isinstance(one, dict)
        for link in one.get("links") or ()
        if isinstance(link, dict)
    ]


def measure_links(
    args: argparse.Namespace,
    links: Optional[socket.socket],
    heard: list[dict[str, Any]],
    tasks: list[tuple[str, int, str]],
    me: str,
) -> list[dict[str, Any]]:
    """The link step: this worker's transfer to its ring successor (``ring_links``)."""
    ring = [f"{j} {i}" for j, i, _ in tasks]
    if links is None or len(ring) < 2:
        if links is not None:
            links.close()
        return []
    # Every transfer waits for the one before it: the step lasts as long as the ring.
    budget = LINK_WAIT * (len(ring) + 1)
    extend_deadline(budget)
    step(me, "links", args.timeout + budget)
    ports = {str(d.get("task")): int(d["link_port"]) for d in heard if d.get("link_port")}
    addresses = {f"{j} {i}": a for j, i, a in tasks}
    return ring_links(links, ring, me, ports, addresses, args.link_bytes, args.link_iterations)


def parse_args(argv: Optional[list[str]]) -> argparse.Namespace:
    """The command line the parent builds (``tfdoctor.cluster.workers.SmokeOptions.argv``)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--import-timeout", type=float, default=120.0)
    parser.add_argument("--sizes", default="4,4096,262144,4194304")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--implementation", default="auto", choices=("auto", "ring", "nccl"))
    parser.add_argument("--link-bytes", type=int, default=4194304, help="0: no link test")
    parser.add_argument("--link-iterations", type=int, default=5)
    parser.add_argument("--deadline", type=float, default=0.0, help="seconds in all; 0: none")
    parser.add_argument("--parent", type=int, default=0, help="the pid to end with")
    parser.add_argument("--watch-stdin", action="store_true", help="leave at stdin's end")
    parser.add_argument("--presence-port", type=int, default=0, help="the parent's; 0: none")
    return parser.parse_args(argv)


def main(argv: Optional[list[str]] = None) -> int:
    """Run the worker's steps; the exit status says how it ended."""
    args = parse_args(argv)
    tie_to_parent(args.parent, args.deadline, args.watch_stdin)
    started = time.monotonic()

    config = json.loads(os.environ.get("TF_CONFIG", "{}"))
    task = config.get("task", {})
    me_job, me_index = str(task.get("type", "worker")), int(task.get("index", 0))
    me = f"{me_job} {me_index}"
    tasks = tasks_of(config.get("cluster", {}))
    mine = [a for j, i, a in tasks if (j, i) == (me_job, me_index)]

    cluster = config.get("cluster", {})
    view = {
        "task": me,
        "address": mine[0] if mine else "",
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "digest": view_digest(cluster),
        "tasks": len(tasks),
    }
    if args.presence_port:
        # The parent's watch socket: the peers' tfdoctor connect to it to see it go.
        view["presence"] = args.presence_port
    step(me, "port", args.timeout)
    server, held = listen_on(mine[0]) if mine else (None, None)
    # The neighbour transfers need a port besides the task's (gRPC holds that one): a free
    # one, told to the peers in the handshake.
    links = link_server() if server is not None and args.link_bytes > 0 else None
    if links is not None:
        view["link_port"] = links.getsockname()[1]
    if held is not None:
        peers = [a for j, i, a in tasks if (j, i) != (me_job, me_index)]
        return port_in_use(view, held, peers, args.timeout)

    # Before TensorFlow: every worker tells its peers which cluster it believes in and which
    # task it is, so a stale list or a task claimed twice is named at once, by every worker,
    # instead of as a strategy that waits for ever.
    step(me, "handshake", args.timeout)
    peers = [a for j, i, a in tasks if (j, i) != (me_job, me_index)]
    heard: list[dict[str, Any]] = []
    if server is not None:
        heard, unanswered, taken = handshake(
            server, view, peers, min(args.timeout / 2, HANDSHAKE_SECONDS)
        )
        emit(
            {
                "event": "handshake",
                "me": view,
                "heard": heard,
                "unanswered": unanswered,
                "held_by_others": taken,
            }
        )
        if disagreements(view, heard):
            emit(
                {
                    "event": "result",
                    "task": me,
                    "status": "mismatch",
                    "me": view,
                    "heard": heard,
                    "unanswered": unanswered,
                }
            )
            return EXIT_FAILED

    step(me, "import", args.import_timeout)
    t0 = time.monotonic()
    import tensorflow as tf  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: PLC0415 - timed

    import_seconds = time.monotonic() - t0

    # The strategy first, before any op: collective ops can only be configured at startup
    # ("Collective ops must be configured at program startup").
    # https://www.tensorflow.org/api_docs/python/tf/distribute/MultiWorkerMirroredStrategy
    step(me, "strategy", args.timeout)
    strategy = tf.distribute.MultiWorkerMirroredStrategy(
        communication_options=implementation_of(tf, args.implementation)
    )
    collective = collective_used(strategy, args.implementation)

    step(me, "all-reduce", args.timeout)
    got, expected = known_sum(tf, strategy)

    # The links before the facts: every worker's measurement comes back with its facts.
    measured = measure_links(args, links, heard, tasks, me)
    step(me, "gather-facts", args.timeout)
    doc = {"task": me, "host": socket.gethostname(), "facts": node_facts(tf), "links": measured}
    gathered = gather_facts(tf, strategy, doc)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    sweep = [time_all_reduce(tf, strategy, n, args.iterations, me, args.timeout) for n in sizes]

    # A last all-reduce as a barrier, then a pause before leaving: TensorFlow's collectives
    # pull data from the peer (RecvBuf), so a worker that exits the moment its own result is
    # complete can still owe a peer the last chunk ("Connection reset by peer", measured).
    step(me, "finish", args.timeout)
    barrier, _ = known_sum(tf, strategy)
    time.sleep(LINGER_SECONDS)
    emit(
        {
            "event": "result",
            "task": me,
            "status": "ok" if barrier == expected else "error",
            "replicas": int(strategy.num_replicas_in_sync),
            "workers": len(tasks),
            "allreduce": {"ok": got == expected, "got": got, "expected": expected},
            "facts": gathered,
            "sweep": sweep,
            "collective": collective,
            "links": every_link(gathered),
            "import_seconds": round(import_seconds, 3),
            "seconds": round(time.monotonic() - started, 3),
        }
    )
    return EXIT_OK


if __name__ == "__main__":
    try:
        code = main()
    except Exception as exc:
        emit({"event": "result", "status": "error", "error": f"{type(exc).__name__}: {exc}"})
        code = EXIT_FAILED
    sys.stdout.flush()
    # TensorFlow's gRPC server threads can keep a finished worker alive: leave at once.
    os._exit(code)
