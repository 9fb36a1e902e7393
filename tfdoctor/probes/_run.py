"""The one way probes start other programs: argv lists, a timeout, no shell, a process group.

Every child dies with this process, however it ends (:mod:`tfdoctor.probes._lifeline`).

Probes take a :data:`Runner`, so a test can run the real child scripts and answer every
other command from a script of the exact calls it expects.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any, Callable, Optional, Union

import tfdoctor.probes._lifeline as lifeline
from tfdoctor.records import Record, record

#: Child scripts live here and are run by path.
CHILD_DIR = Path(__file__).resolve().parent / "child"

#: How much of a failed command's stderr facts keep.
STDERR_TAIL_CHARS = 4000

#: Windows ends a crashed process with the NTSTATUS exception code as its exit status instead
#: of a signal; each maps to the POSIX signal that names the same fault. ``import tensorflow``
#: gives the first two (an AVX wheel on a CPU without AVX; a bad DLL).
#: https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-erref/596a1078-e883-4972-9bbc-49e60bebca55
NTSTATUS_SIGNALS = {
    0xC000001D: "SIGILL",  # STATUS_ILLEGAL_INSTRUCTION
    0xC0000005: "SIGSEGV",  # STATUS_ACCESS_VIOLATION
    0xC00000FD: "SIGSEGV",  # STATUS_STACK_OVERFLOW (Linux reports a stack overflow as SIGSEGV)
    0xC0000094: "SIGFPE",  # STATUS_INTEGER_DIVIDE_BY_ZERO
}


@record
class CommandResult(Record):
    """What a finished (or killed) command left behind."""

    argv: tuple[str, ...]
    returncode: Optional[int]
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    #: The command was not found or could not be started (``OSError`` text).
    start_error: Optional[str] = None

    @property
    def signal_name(self) -> Optional[str]:
        """``SIGSEGV`` etc. when a signal (POSIX) or a crash exception (Windows) ended it."""
        code = self.returncode
        if code is None or code == 0:
            return None
        # Windows exit statuses are unsigned 32-bit; a signed reading makes them negative.
        ntstatus = NTSTATUS_SIGNALS.get(code & 0xFFFFFFFF)
        if ntstatus is not None:
            return ntstatus
        if code > 0:
            return None
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"

    def stderr_tail(self, chars: int = STDERR_TAIL_CHARS) -> str:
        """The last ``chars`` characters of stderr, starting at a line boundary."""
        text = self.stderr[-chars:]
        if len(self.stderr) > chars and "\n" in text:
            text = text.split("\n", 1)[1]
        return text.strip()


Runner = Callable[[Sequence[str], Optional[Mapping[str, str]], float], CommandResult]


@record
class ChildFailure(Record):
    """Why a child script that reports one JSON object gave none: a status and a message."""

    status: str
    message: str


def child_report(
    result: CommandResult, what: str, timeout: float
) -> Union[dict[str, Any], ChildFailure]:
    """The JSON object a driver child (``what``: ``NVML``, ``cuInit``) printed, or why not.

    The statuses are the facts' own: ``child-error`` (not started, no report), ``timeout``
    (the driver may be hung) and ``crashed`` (a signal inside the driver).
    """
    if result.start_error is not None:
        return ChildFailure(
            "child-error", f"could not start the {what} child: {result.start_error}"
        )
    if result.timed_out:
        return ChildFailure(
            "timeout", f"{what} did not return within {timeout:g} s (the driver may be hung)"
        )
    if result.signal_name is not None:
        return ChildFailure(
            "crashed", f"the {what} child was killed by {result.signal_name} inside the driver"
        )
    try:
        doc = json.loads(result.stdout)
    except ValueError:
        doc = None
    if not isinstance(doc, dict):
        return ChildFailure(
            "child-error", f"the {what} child exited with {result.returncode} without a JSON report"
        )
    return doc


#: Children started ahead of their probe (:func:`start_early`), by argv and environment.
_EARLY: dict[
    tuple[tuple[str, ...], frozenset[tuple[str, str]]], tuple[subprocess.Popen[bytes], float]
] = {}


def _early_key(
    argv: Sequence[str], env: Optional[Mapping[str, str]]
) -> tuple[tuple[str, ...], frozenset[tuple[str, str]]]:
    return tuple(argv), frozenset((os.environ if env is None else env).items())


def start_early(argv: Sequence[str], env: Optional[Mapping[str, str]] = None) -> None:
    """Start ``argv`` now; the first :func:`run_command` of the same argv and environment
    takes it over instead of starting its own.

    A command's start-up runs the probes' children while the rest of the program loads
    (about 0.3 s of imports): each child's time is then hidden. The first run also
    starts at the same point, so its answer is the one a late start would have given. A child
    nobody claims (the command failed first, or asked for something else) is killed at exit.
    """
    key = _early_key(argv, env)
    if key in _EARLY:
        return
    try:
        proc = _popen(argv, env, keep_stdin_open=False)
    except OSError:
        return  # the probe will start it itself, and record why it cannot
    if not _EARLY:
        atexit.register(_discard_early)
    _EARLY[key] = (proc, time.monotonic())


def _discard_early() -> None:
    while _EARLY:
        _key, (proc, _start) = _EARLY.popitem()
        if proc.poll() is None:
            lifeline.kill_group(proc)
        proc.wait()
        lifeline.reaped(proc)
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()


def _popen(
    argv: Sequence[str], env: Optional[Mapping[str, str]], keep_stdin_open: bool
) -> subprocess.Popen[bytes]:
    # A session of its own lets a timeout kill grandchildren too (TF spawns none, but a
    # wrapper script around an interpreter would); the lifeline ends it with this process.
    return lifeline.start(
        argv,
        stdin=subprocess.PIPE if keep_stdin_open else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=None if env is None else dict(env),
    )


def run_command(
    argv: Sequence[str],
    env: Optional[Mapping[str, str]] = None,
    timeout: float = 10.0,
    *,
    keep_stdin_open: bool = False,
) -> CommandResult:
    """Run ``argv`` without a shell; kill its whole process group when ``timeout`` passes.

    With ``keep_stdin_open`` the child's stdin is a pipe this process never writes and closes
    only once the child has ended: a child that exits when its stdin reaches end of file
    notices at once that this process has gone, besides the lifeline. A child
    :func:`start_early` started with the same argv and environment is taken over, its
    timeout counted from its start.
    """
    early = None if keep_stdin_open else _EARLY.pop(_early_key(argv, env), None)
    if early is not None:
        proc, start = early
    else:
        start = time.monotonic()
        try:
            proc = _popen(argv, env, keep_stdin_open)
        except OSError as exc:
            return CommandResult(
                tuple(argv), None, "", "", time.monotonic() - start, start_error=str(exc)
            )
    # communicate() would close a stdin pipe at once (it has no input to write): keep it aside.
    stdin, proc.stdin = proc.stdin, None
    try:
        out, err = proc.communicate(timeout=max(0.0, timeout - (time.monotonic() - start)))
        timed_out = False
    except subprocess.TimeoutExpired:
        lifeline.kill_group(proc)
        out, err = proc.communicate()
        timed_out = True
    except BaseException:
        # Interrupted (KeyboardInterrupt ...): the child is in its own session, so nothing
        # else would stop it.
        lifeline.kill_group(proc)
        proc.wait()
        raise
    finally:
        lifeline.reaped(proc)
        if stdin is not None:
            stdin.close()
    return CommandResult(
        argv=tuple(argv),
        returncode=proc.returncode,
        stdout=out.decode("utf-8", "replace"),
        stderr=err.decode("utf-8", "replace"),
        seconds=time.monotonic() - start,
        timed_out=timed_out,
    )


@record
class SteppedResult(Record):
    """A child run by :func:`run_stepped`: what it left, and whether a deadline ended it."""

    result: CommandResult
    #: The child was killed because no line moved its deadline in time.
    overran: bool = False


#: ``on_line(line)``: the seconds the child now has until its next step (a new deadline from
#: now), or None to leave the deadline where it is.
LineFunc = Callable[[str], Optional[float]]


def run_stepped(
    argv: Sequence[str],
    env: Optional[Mapping[str, str]],
    first_budget: float,
    on_line: LineFunc,
    *,
    keep_stdin_open: bool = False,
    on_overrun: Optional[Callable[[], None]] = None,
) -> SteppedResult:
    """Run ``argv``, reading its stdout line by line as it comes: a child that reports its
    steps (the smoke kernels, a cluster worker's all-reduces), each step with a deadline.

    ``on_line`` sees each stdout line (without its line end) and may move the deadline; the
    first is ``first_budget`` seconds from the start. When a deadline passes the child's
    process group is killed. The child never outlives this function: an exception here
    (KeyboardInterrupt included) kills its group too; ``keep_stdin_open`` as for
    :func:`run_command`. ``on_overrun`` runs when a deadline has passed, before the kill.
    """
    start = time.monotonic()
    try:
        proc = _popen(argv, env, keep_stdin_open)
    except OSError as exc:
        failed = CommandResult(
            tuple(argv), None, "", "", time.monotonic() - start, start_error=str(exc)
        )
        return SteppedResult(failed)
    lines: queue.Queue[Optional[bytes]] = queue.Queue()
    out: list[bytes] = []
    err: list[Optional[bytes]] = []
    readers = [
        threading.Thread(target=_pump, args=(proc.stdout, lines.put), daemon=True),
        threading.Thread(target=_pump, args=(proc.stderr, err.append), daemon=True),
    ]
    for reader in readers:
        reader.start()
    overran = False
    try:
        deadline = start + first_budget
        while True:
            try:
                raw = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                overran = True
                if on_overrun is not None:
                    on_overrun()
                lifeline.kill_group(proc)
                break
            if raw is None:
                break
            out.append(raw)
            budget = on_line(raw.decode("utf-8", "replace").rstrip("\r\n"))
            if budget is not None:
                deadline = time.monotonic() + budget
        try:
            proc.wait(timeout=30)  # stdout closed: the child is ending
        except subprocess.TimeoutExpired:
            lifeline.kill_group(proc)
            proc.wait()
    except BaseException:
        lifeline.kill_group(proc)
        proc.wait()
        raise
    finally:
        lifeline.reaped(proc)
        for reader in readers:
            reader.join(timeout=5)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
    result = CommandResult(
        tuple(argv),
        proc.returncode,
        b"".join(out).decode("utf-8", "replace"),
        b"".join(e for e in err if e).decode("utf-8", "replace"),
        time.monotonic() - start,
        timed_out=overran,
    )
    return SteppedResult(result, overran)


def _pump(stream: Optional[IO[bytes]], sink: Callable[[Optional[bytes]], None]) -> None:
    """Each line of ``stream`` to ``sink``, then None for its end."""
    if stream is not None:
        for line in iter(stream.readline, b""):
            sink(line)
    sink(None)


def child_script(name: str) -> str:
    """The path of a child script, to run by path in another interpreter."""
    return str(CHILD_DIR / name)
