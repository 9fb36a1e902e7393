"""Real processes for the signal tests: start one Ctrl-C can reach, find its children, wait."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: The signals the tests send whose inherited "ignore" a test run may carry: SIGINT in a
#: background job of a non-interactive shell, SIGHUP under nohup(1).
_RESET = (signal.SIGINT, signal.SIGHUP)


def _default_signals() -> None:
    for signum in _RESET:
        signal.signal(signum, signal.SIG_DFL)


def start(argv: Sequence[str], **kwargs: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(argv, **kwargs)`` with SIGINT's and SIGHUP's default actions
    restored in the child.

    A background job of a non-interactive shell (``bash -c 'pytest ... &'``) starts with
    SIGINT ignored, a run under ``nohup`` with SIGHUP ignored, and an ignored signal stays
    ignored across exec, where Python then installs no KeyboardInterrupt handler
    (https://docs.python.org/3/library/signal.html#execution-of-python-signal-handlers) and
    the hangup reaches nobody: a test that sends either must give its child the actions a
    terminal's program has, whatever started the test run.
    """
    # The tests start no threads of their own; the hook runs two system calls.
    return subprocess.Popen(list(argv), preexec_fn=_default_signals, **kwargs)  # noqa: PLW1509


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie awaiting its reaper does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def children_running(parent: int, script: str) -> list[int]:
    """Pids whose parent is ``parent`` and whose command line names ``script``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="ascii")
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent and script.encode() in cmdline:
            found.append(int(entry.name))
    return found


def wait_for_child(parent: int, script: str, seconds: float = 60) -> list[int]:
    """:func:`children_running`, polled until it finds one or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        child = children_running(parent, script)
        if child:
            return child
        time.sleep(0.05)
    return []


def gone_within(pid: int, seconds: float) -> bool:
    """Whether process ``pid`` has ended within ``seconds``."""
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def kill_leftovers(pids: Sequence[int]) -> None:
    """SIGKILL the groups of ``pids`` still alive (a failed test's orphans lead their own)."""
    for pid in pids:
        if alive(pid):
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
