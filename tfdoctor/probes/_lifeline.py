"""Children that end with this process, however it ends (SIGKILL included).

Every child runs in a session of its own (a timeout kills its whole group, and a terminal's
Ctrl-C does not reach it behind this process's back), so nothing would stop it when this
process is killed. Two ways to tie it to this process:

- Linux: between fork and exec the child asks the kernel for a signal when its parent goes
  (``prctl(PR_SET_PDEATHSIG)``, prctl(2)). The kernel sends it when the *thread* that forked
  ends, so a child is always started by a thread that waits for it (the probes' threads, the
  main thread); and it checks that its parent has not already gone before the request took.
- Elsewhere (macOS, the BSDs): one watchdog process per tfdoctor, in a session of its own,
  reads a pipe only this process writes: the process group of each child as it starts and
  ends. At end of file (this process has gone, however it ended) it signals the groups
  still listed.

:func:`stop_all` ends every child at once (Ctrl-C: the probes' threads then return within
moments instead of at their timeouts) and refuses new ones: the process is ending.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import Any, Callable, Optional

#: prctl(2) option, from <linux/prctl.h>.
PR_SET_PDEATHSIG = 1

#: The watchdog (non-Linux POSIX): ``+ PGID SIGNAL`` adds a group, ``- PGID`` removes it; at
#: end of file it sends each listed group its signal. Standard library only, any Python 3.
WATCHDOG = """\
import os, sys
groups = {}
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["+"] and len(words) == 3:
        groups[int(words[1])] = int(words[2])
    elif words[:1] == ["-"] and len(words) == 2:
        groups.pop(int(words[1]), None)
for pgid, signum in groups.items():
    try:
        os.killpg(pgid, signum)
    except OSError:
        pass
"""

_lock = threading.Lock()
#: The children started and not yet reaped, by pid.
_live: dict[int, subprocess.Popen[bytes]] = {}
_stopping = [False]
_watchdog: list[subprocess.Popen[bytes]] = []


class StoppedError(OSError):
    """A child was to start after :func:`stop_all`: the process is ending."""


def start(
    argv: Sequence[str], death_signal: int = signal.SIGKILL, **kwargs: Any
) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(argv, **kwargs)`` in a session of its own, ended with this process.

    ``death_signal`` is what the child gets when this process goes. Call :func:`reaped` once
    the child has been waited for. Raises OSError as Popen does (:class:`StoppedError` after
    :func:`stop_all`).
    """
    posix = sys.platform != "win32"
    with _lock:
        if _stopping[0]:
            raise StoppedError("tfdoctor is stopping (interrupted); no new child starts")
        hook = _death_signal_hook(death_signal) if sys.platform.startswith("linux") else None
        with _interrupts_kept() as dropped:
            proc: subprocess.Popen[bytes] = subprocess.Popen(
                list(argv),
                start_new_session=posix,
                preexec_fn=hook,  # noqa: PLW1509 - takes no lock: see _death_signal_hook
                **kwargs,
            )
        if dropped:
            # The caller never gets the child to end: end it here.
            kill_group(proc)
            proc.wait()
            raise KeyboardInterrupt
        _live[proc.pid] = proc
        if posix and hook is None:
            _tell_watchdog(f"+ {proc.pid} {int(death_signal)}\n")
    return proc


@contextlib.contextmanager
def _interrupts_kept() -> Iterator[list[BaseException]]:
    """Collect the Ctrl-C that Python would print and drop while the block forks a child.

    With ``preexec_fn`` Python runs the at-fork hooks (``os.register_at_fork``) in the parent
    after the fork, in the thread that forked, and an exception one raises is reported as
    "Exception ignored in ..." and cleared (``PyOS_AfterFork_Parent``). A Ctrl-C landing
    there, in the main thread (the only one Python's signal handlers run in), would be lost:
    the child's first act can be to signal its parent, so it lands there more often than
    chance suggests. The list the block gets holds it, for the caller to raise again.
    """
    dropped: list[BaseException] = []
    if threading.current_thread() is not threading.main_thread():
        yield dropped
        return
    previous = sys.unraisablehook

    def keep(report: Any) -> None:
        if isinstance(report.exc_value, KeyboardInterrupt):
            dropped.append(report.exc_value)
        else:
            previous(report)

    sys.unraisablehook = keep
    try:
        yield dropped
    finally:
        sys.unraisablehook = previous


def reaped(proc: subprocess.Popen[bytes]) -> None:
    """``proc`` has been waited for: forget it (its pid and group may now be reused)."""
    with _lock:
        if _live.pop(proc.pid, None) is not None and _watchdog:
            _tell_watchdog(f"- {proc.pid}\n")


def stop_all() -> None:
    """Kill every live child's process group now, and refuse new children from here on."""
    with _lock:
        _stopping[0] = True
        procs = list(_live.values())
    for proc in procs:
        kill_group(proc)


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the process group of a child :func:`start` started (its session)."""
    if sys.platform != "win32" and proc.returncode is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
            return
        except OSError:
            pass
    proc.kill()


def _death_signal_hook(signum: int) -> Optional[Callable[[], None]]:
    """What the child runs between fork and exec to get ``signum`` when its parent dies.

    Python warns that ``preexec_fn`` is unsafe with threads
    (https://docs.python.org/3/library/subprocess.html#subprocess.Popen): code run there may
    wait for a lock another thread held at the fork. This one takes none: two system calls
    through a ctypes function built before the fork, ``os.getppid`` and ``os.kill``; Python
    holds its import lock across the fork (``PyOS_BeforeFork``) and glibc its allocator's.
    None when libc has no ``prctl`` (the watchdog then serves).
    """
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def hook() -> None:
        prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)
        # The parent may have died before the request took: the kernel then sends nothing,
        # and the child has been handed to another process (prctl(2), PR_SET_PDEATHSIG).
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)

    return hook


@functools.cache
def _prctl() -> Optional[Callable[..., int]]:
    """libc's ``prctl``, ready to call; None where it cannot be loaded."""
    try:
        import ctypes  # noqa: PLC0415 - only Linux needs it, and only to start a child

        func: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
        func.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4  # type: ignore[attr-defined]
        func.restype = ctypes.c_int  # type: ignore[attr-defined]
    except (ImportError, OSError, AttributeError):
        return None
    return func


def _tell_watchdog(line: str) -> None:
    """Send the watchdog one line, starting it first; called with ``_lock`` held."""
    if not _watchdog:
        dog = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", WATCHDOG],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        _watchdog.append(dog)
    pipe = _watchdog[0].stdin
    try:
        assert pipe is not None
        pipe.write(line.encode("ascii"))
        pipe.flush()
    except OSError:
        pass  # the watchdog has gone: children then outlive a killed tfdoctor, as before
