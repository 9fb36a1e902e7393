"""No worker outlives its parent: killed tfdoctor, gone parent, spent deadline all free the port.

The worker child runs for real, against a stand-in ``tensorflow`` package whose strategy
listens on the task's port and waits, as a strategy waiting for a peer that never comes does:
the tests need the port held, not TensorFlow (whose import alone takes seconds here).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster_helpers import wait_listening, worker_env, write_stand_in
from tests.processes import gone_within, start, wait_for_child
from tfdoctor.cluster.workers import WORKER_SCRIPT, free_loopback_ports

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def stand_in(tmp_path: Path) -> Path:
    """A directory holding the stand-in ``tensorflow`` package."""
    return write_stand_in(tmp_path)


def port_free_within(port: int, seconds: float) -> bool:
    """Whether 127.0.0.1:``port`` can be bound (as a gRPC server binds it) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        sock = socket.socket()
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("127.0.0.1", port))
            return True
        except OSError:
            if time.monotonic() >= deadline:
                return False
        finally:
            sock.close()
        time.sleep(0.05)


@contextlib.contextmanager
def ended(proc: subprocess.Popen[bytes]) -> Iterator[None]:
    """Run the block; then make sure ``proc`` has ended, whatever the block did."""
    try:
        yield
    finally:
        proc.kill()
        proc.wait()


def assert_worker_dies_with(parent: subprocess.Popen[bytes], port: int, signum: int) -> None:
    """Once the worker under ``parent`` holds ``port``, send ``parent`` ``signum``: the worker
    must be gone and the port free within moments."""
    with ended(parent):
        workers = wait_for_child(parent.pid, "cluster_worker.py")
        assert workers, "the worker child never started"
        assert wait_listening(port), "the worker never held its port"
        parent.send_signal(signum)
        parent.wait(timeout=10)
        assert gone_within(workers[0], 2), "the worker outlived its parent"
        assert port_free_within(port, 2), f"port {port} still held after the parent died"


def worker_argv(*extra: str) -> list[str]:
    """The worker child's command line, run by hand (no tfdoctor parent)."""
    return [sys.executable, WORKER_SCRIPT, "--timeout", "5", "--import-timeout", "5", *extra]


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_killing_cluster_smoke_frees_the_workers_port_at_once(
    stand_in: Path, signum: signal.Signals
) -> None:
    (port,) = free_loopback_ports(1)
    parent = start(
        [sys.executable, "-m", "tfdoctor", "cluster", "smoke", "--timeout", "60", "--json"],
        cwd=ROOT,
        env=worker_env(stand_in, port),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert_worker_dies_with(parent, port, signum)


def test_the_worker_ends_with_a_parent_that_never_asked_for_it(stand_in: Path) -> None:
    # The parent here is a plain interpreter that starts the worker with subprocess.Popen and
    # nothing more: only the worker's own parent-death request can end it.
    (port,) = free_loopback_ports(1)
    launcher = (
        "import subprocess, sys, time\n"
        "subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL)\n"
        "time.sleep(120)\n"
    )
    parent = start(
        [sys.executable, "-c", launcher, *worker_argv("--parent", "0")],
        env=worker_env(stand_in, port),
        stdout=subprocess.DEVNULL,
    )
    assert_worker_dies_with(parent, port, signal.SIGKILL)


def test_the_worker_leaves_when_its_stdin_closes(stand_in: Path) -> None:
    # The fallback where the kernel has no parent-death signal: end of file on stdin.
    (port,) = free_loopback_ports(1)
    worker = subprocess.Popen(
        worker_argv("--watch-stdin"),
        env=worker_env(stand_in, port),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )
    with ended(worker):
        assert wait_listening(port)
        assert worker.stdin is not None
        worker.stdin.close()
        assert worker.wait(timeout=5) == 1
        assert port_free_within(port, 2)


def test_the_worker_ends_itself_at_its_own_deadline(stand_in: Path) -> None:
    (port,) = free_loopback_ports(1)
    started = time.monotonic()
    worker = subprocess.run(
        # The handshake waits half of --timeout for the peer that never comes: then the strategy.
        [*worker_argv("--deadline", "3"), "--timeout", "2"],
        env=worker_env(stand_in, port),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    # Ended by the kernel (SIGALRM's default action), even while blocked outside Python.
    assert worker.returncode == -signal.SIGALRM
    assert time.monotonic() - started < 10
    assert '"step": "strategy"' in worker.stdout
    assert port_free_within(port, 1)


def test_every_worker_tfdoctor_starts_carries_its_deadline_and_parent() -> None:
    from tfdoctor.cluster import SmokeOptions

    options = SmokeOptions(timeout=10.0, import_timeout=20.0, sizes=(4, 64))
    argv = options.argv()
    assert argv[argv.index("--parent") + 1] == str(os.getpid())
    assert "--watch-stdin" in argv
    # import + 11 steps of 10 s (7, and a warm-up and a timed step per size) + the margin
    assert float(argv[argv.index("--deadline") + 1]) == options.deadline() == 20 + 110 + 30
