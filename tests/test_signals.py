"""Signals to tfdoctor: its children die with it, and Ctrl-C ends it at once with a report.

Each test starts the real command line against a fake TensorFlow whose import hangs, waits
until the command's child runs it, then signals tfdoctor (never the child). The children run
in sessions of their own, so no signal to tfdoctor reaches them by itself.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.processes import gone_within, kill_leftovers, start

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

#: Writes this process's pid into the directory ``$HANG_PIDS`` names, then sleeps: the fake
#: TensorFlow's import, and the command ``tfdoctor run`` runs. Once the file is there, the
#: child has printed all it will (a child still writing to a dead parent's pipe would die
#: of SIGPIPE, and prove nothing).
HANG = (
    "import os, time; "
    "open(os.path.join(os.environ['HANG_PIDS'], str(os.getpid())), 'w').close(); "
    "time.sleep(3600)"
)

#: Each command's arguments, and how many children it starts.
COMMANDS = {
    "check": (("check", "--json"), 1),
    "smoke": (("smoke", "--json"), 1),
    "cluster-local": (("cluster", "local", "--workers", "2", "--json"), 2),
    "run": (("run", "--", sys.executable, "-c", HANG), 1),
}


@pytest.fixture
def hanging_tf(tmp_path: Path) -> dict[str, str]:
    """An environment whose ``import tensorflow`` hangs (:data:`HANG`)."""
    (tmp_path / "tensorflow").mkdir()
    (tmp_path / "tensorflow" / "__init__.py").write_text(HANG + "\n")
    (tmp_path / "pids").mkdir()
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join((str(tmp_path), str(ROOT))),
        "HANG_PIDS": str(tmp_path / "pids"),
        "NO_COLOR": "1",
    }


def _start(command: str, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], list[int]]:
    """tfdoctor running ``command``, once all its children hang; their pids."""
    args, count = COMMANDS[command]
    doctor = start(
        [sys.executable, "-m", "tfdoctor", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    pids_dir = Path(env["HANG_PIDS"])
    deadline = time.monotonic() + 60
    pids: list[int] = []
    while len(pids) < count and time.monotonic() < deadline and doctor.poll() is None:
        time.sleep(0.05)
        pids = [int(path.name) for path in pids_dir.iterdir()]
    if len(pids) < count:
        doctor.kill()
        out, err = doctor.communicate()
        kill_leftovers(pids)
        pytest.fail(f"{command}: {len(pids)} of {count} children started\n{out!r}\n{err!r}")
    return doctor, pids


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(
    "signum", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name
)
def test_children_die_with_tfdoctor(
    hanging_tf: dict[str, str], command: str, signum: signal.Signals
) -> None:
    doctor, pids = _start(command, hanging_tf)
    try:
        doctor.send_signal(signum)
        doctor.communicate(timeout=20)
        outlived = [pid for pid in pids if not gone_within(pid, 3)]
        assert not outlived, f"{command}: {outlived} outlived tfdoctor ({signum.name})"
    finally:
        if doctor.poll() is None:
            doctor.kill()
            doctor.communicate()
        kill_leftovers(pids)


def _interrupt(command: str, env: dict[str, str]) -> tuple[dict[str, Any], str, float]:
    """Ctrl-C to tfdoctor running ``command``: its JSON report, its stderr, the seconds it took.

    Its children are gone by then.
    """
    doctor, pids = _start(command, env)
    try:
        doctor.send_signal(signal.SIGINT)
        began = time.monotonic()
        out, err = doctor.communicate(timeout=90)
        seconds = time.monotonic() - began
        assert doctor.returncode == 130, err.decode()
        assert all(gone_within(pid, 3) for pid in pids), f"{command}: a child outlived Ctrl-C"
    finally:
        if doctor.poll() is None:
            doctor.kill()
            doctor.communicate()
        kill_leftovers(pids)
    return json.loads(out), err.decode(), seconds


def _by_id(report: dict[str, Any], prefix: str) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["id"].startswith(prefix)]


# The import may take 60 s (the default timeout) before it is killed: Ctrl-C must not wait.
# A second is what it takes; twice that leaves room for a loaded machine.
QUICK = 2.0


def test_ctrl_c_during_check_reports_what_was_found_and_exits_130(
    hanging_tf: dict[str, str],
) -> None:
    report, err, seconds = _interrupt("check", hanging_tf)
    assert seconds < QUICK
    assert report["summary"]["exit_code"] == 130
    assert err.strip().splitlines()[-1] == "tfdoctor: interrupted"
    # The TensorFlow probe was running: unknown, recorded as interrupted, not a failed import.
    assert report["facts"]["tensorflow"] is None
    errors = {e["probe"]: e["reason"] for e in report["facts"]["errors"]}
    assert errors["tensorflow"] == "interrupted"
    (tf_import,) = _by_id(report, "tensorflow.import")
    assert tf_import["severity"] == "unknown"
    assert "interrupted" in tf_import["detail"]
    # Every other probe either answered or is recorded as interrupted: nothing goes missing.
    for probe in ("python", "platform", "cpu"):
        assert report["facts"][probe] is not None or errors.get(probe) == "interrupted", probe


def test_ctrl_c_during_smoke_reports_an_interrupted_run_and_exits_130(
    hanging_tf: dict[str, str],
) -> None:
    report, _err, seconds = _interrupt("smoke", hanging_tf)
    assert seconds < QUICK
    assert report["summary"]["exit_code"] == 130
    assert report["facts"]["smoke"]["status"] == "interrupted"
    (crashed,) = _by_id(report, "smoke.crashed")
    assert crashed["severity"] == "unknown"
    assert "interrupted" in crashed["summary"]


def test_ctrl_c_during_cluster_local_names_the_interrupted_workers_and_exits_130(
    hanging_tf: dict[str, str],
) -> None:
    report, _err, seconds = _interrupt("cluster-local", hanging_tf)
    assert seconds < QUICK
    assert report["summary"]["exit_code"] == 130
    interrupted = _by_id(report, "cluster.interrupted")
    assert [f["severity"] for f in interrupted] == ["unknown", "unknown"]
    assert not _by_id(report, "cluster.worker-failed")


# The watchdog serves where the kernel has no parent-death signal (macOS, the BSDs); Linux
# runs it here when ``prctl`` is out of reach.
WATCHDOG_PARENT = """
import sys
import tfdoctor.probes._lifeline as lifeline
lifeline._prctl = lambda: None
child = lifeline.start([sys.executable, "-c", "import time; time.sleep(60)"])
print(child.pid, flush=True)
child.wait()
"""


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=lambda s: s.name)
def test_the_watchdog_ends_the_children_of_a_killed_parent(signum: signal.Signals) -> None:
    parent = start(
        [sys.executable, "-c", WATCHDOG_PARENT],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
    )
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    try:
        parent.send_signal(signum)
        parent.wait(timeout=20)
        assert gone_within(child, 5), f"child {child} outlived its parent ({signum.name})"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        parent.stdout.close()
        kill_leftovers([child])


#: Starts children that signal their parent at once while the parent is still inside a slow
#: at-fork hook (Python runs them after the fork when ``preexec_fn`` is given, and reports and
#: drops an exception raised there), and prints how many of the interrupts reached the caller.
INTERRUPT_IN_FORK_HOOK = """
import os, signal, subprocess, sys, time
from tfdoctor.probes import _lifeline
os.register_at_fork(after_in_parent=lambda: time.sleep(0.2))
caught = 0
for _ in range(3):
    try:
        child = _lifeline.start(["/bin/sh", "-c", "kill -INT $PPID; sleep 1"])
    except KeyboardInterrupt:
        caught += 1
    else:
        child.wait()
        _lifeline.reaped(child)
print(caught, len(_lifeline._live))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="preexec_fn serves Linux only")
def test_ctrl_c_while_a_child_is_forked_is_raised_not_dropped() -> None:
    # Started with SIGINT's default action, whatever started the test run (a background job
    # of a non-interactive shell ignores SIGINT, and Python then raises no KeyboardInterrupt).
    proc = start(
        [sys.executable, "-c", INTERRUPT_IN_FORK_HOOK],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = proc.communicate(timeout=60)
    # Every interrupt reached the caller, no child was left behind, nothing "ignored".
    assert (proc.returncode, out, err) == (0, b"3 0\n", b"")
