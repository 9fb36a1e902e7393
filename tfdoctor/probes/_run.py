"""The one way probes start other programs: argv lists, a timeout, no shell, a process group.

Probes take a :data:`Runner`, so a test can run the real child scripts and answer every
other command from a script of the exact calls it expects.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Callable, Optional

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


@dataclasses.dataclass(frozen=True)
class CommandResult:
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


def run_command(
    argv: Sequence[str],
    env: Optional[Mapping[str, str]] = None,
    timeout: float = 10.0,
    *,
    keep_stdin_open: bool = False,
) -> CommandResult:
    """Run ``argv`` without a shell; kill its whole process group when ``timeout`` passes.

    With ``keep_stdin_open`` the child's stdin is a pipe this process never writes and closes
    only once the child has ended: a child that exits when its stdin reaches end of file then
    dies with this process however it ends (SIGKILL included), instead of running on, in its
    own session, until its work or its timeout ends.
    """
    start = time.monotonic()
    kwargs: dict[str, object] = {}
    if sys.platform != "win32":
        # A new session lets a timeout kill grandchildren too (TF spawns none, but a
        # wrapper script around an interpreter would).
        kwargs["start_new_session"] = True
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE if keep_stdin_open else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=None if env is None else dict(env),
            **kwargs,  # type: ignore[call-overload]
        )
    except OSError as exc:
        return CommandResult(
            tuple(argv), None, "", "", time.monotonic() - start, start_error=str(exc)
        )
    # communicate() would close a stdin pipe at once (it has no input to write): keep it aside.
    stdin, proc.stdin = proc.stdin, None
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        timed_out = True
    except BaseException:
        # Interrupted (KeyboardInterrupt ...): the child is in its own session, so nothing
        # else would stop it.
        _kill_group(proc)
        proc.wait()
        raise
    finally:
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


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    if sys.platform != "win32":
        try:
            os.killpg(proc.pid, signal.SIGKILL)
            return
        except OSError:
            pass
    proc.kill()


#: Kill a child started in its own session (as :func:`run_command` starts them) with its group.
kill_group = _kill_group


def child_script(name: str) -> str:
    """The path of a child script, to run by path in another interpreter."""
    return str(CHILD_DIR / name)
