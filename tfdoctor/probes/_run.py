"""The one way probes start other programs: argv lists, a timeout, no shell, a process group.

Probes take a :data:`Runner` so tests can script the exact calls (see ``tests/fakes.py``).
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
        """``SIGSEGV`` etc. when a signal ended the process (POSIX negative return codes)."""
        if self.returncode is None or self.returncode >= 0:
            return None
        try:
            return signal.Signals(-self.returncode).name
        except ValueError:
            return f"signal {-self.returncode}"

    def stderr_tail(self, chars: int = STDERR_TAIL_CHARS) -> str:
        """The last ``chars`` characters of stderr, starting at a line boundary."""
        text = self.stderr[-chars:]
        if len(self.stderr) > chars and "\n" in text:
            text = text.split("\n", 1)[1]
        return text.strip()


Runner = Callable[[Sequence[str], Optional[Mapping[str, str]], float], CommandResult]


def run_command(
    argv: Sequence[str], env: Optional[Mapping[str, str]] = None, timeout: float = 10.0
) -> CommandResult:
    """Run ``argv`` without a shell; kill its whole process group when ``timeout`` passes."""
    start = time.monotonic()
    kwargs: dict[str, object] = {}
    if sys.platform != "win32":
        # A new session lets a timeout kill grandchildren too (TF spawns none, but a
        # wrapper script around an interpreter would).
        kwargs["start_new_session"] = True
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=None if env is None else dict(env),
            **kwargs,  # type: ignore[call-overload]
        )
    except OSError as exc:
        return CommandResult(
            tuple(argv), None, "", "", time.monotonic() - start, start_error=str(exc)
        )
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        timed_out = True
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


def child_script(name: str) -> str:
    """The path of a child script, to run by path in another interpreter."""
    return str(CHILD_DIR / name)
