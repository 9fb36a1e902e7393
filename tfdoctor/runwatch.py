"""Run a user's command with its output passed through unchanged, keeping a bounded copy.

``tfdoctor run -- COMMAND...`` starts COMMAND as a child whose stdout and stderr are pipes
(one closed here stays closed there);
one reader thread per pipe forwards each chunk to the same stream of this process the
moment it arrives (``os.read`` then ``os.write``: no line buffering, same bytes), and feeds
a :class:`Capture` that keeps the first and last lines of both streams for the explainer.
SIGINT, SIGTERM, SIGHUP and SIGQUIT received while the child runs are sent on to the child's
process group. The exit code is the child's, or ``128 + N`` for a child killed by signal N
(the shell's convention). This module judges nothing and prints nothing of its own: the
caller decides whether to explain (:func:`should_explain`) and renders the report.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import functools
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from types import FrameType
from typing import IO, TYPE_CHECKING, Any, Callable, Optional, Protocol

import tfdoctor.probes._lifeline as lifeline
from tfdoctor.records import Record, record

# Only what forwarding needs is imported here: `tfdoctor run` starts COMMAND sooner, and a
# run that needs no explanation never loads the explainer (imported by :meth:`Kept.blocks`).
if TYPE_CHECKING:
    from tfdoctor.explain.reader import LogText
    from tfdoctor.findings import Report

#: Lines kept from the start of the output: TensorFlow prints its library loading and
#: device set-up there, the evidence most failures rest on.
HEAD_LINES = 2000
#: Lines kept from the end: the traceback or fatal message that ended the run.
TAIL_LINES = 20000
#: Bytes kept of one line; a longer one (a ``\r``-redrawn progress bar that never ends in a
#: newline) keeps its last state, or its start (see :func:`_shorten`).
MAX_LINE_BYTES = 8192
#: Bytes one ``os.read`` takes: a pipe holds 64 KiB on Linux (pipe(7)).
CHUNK_BYTES = 65536
#: Seconds to wait, once the child has exited, for its pipes to close: a background process
#: it started may hold them open for ever (a daemon), and must not hold this process too.
DRAIN_SECONDS = 2.0
#: Shell exit statuses for a command that could not be started (POSIX "Command Search and
#: Execution": 127 not found, 126 found but not executable).
EXIT_NOT_FOUND = 127
EXIT_CANNOT_EXECUTE = 126

#: Signals sent on to the child. A terminal sends SIGINT (Ctrl-C) and SIGQUIT (Ctrl-\) to
#: its foreground process group, which is this process's and not the child's (the child
#: has a session of its own); ``docker stop`` sends SIGTERM to PID 1; a closed terminal or
#: ssh session sends SIGHUP.
FORWARDED_SIGNALS = tuple(
    getattr(signal, name)
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")
    if hasattr(signal, name)
)


class Explainer(Protocol):
    """Explains the kept output of a run: :meth:`Kept.blocks` (``tfdoctor.explain.explain``)."""

    def __call__(self, blocks: Sequence[LogText]) -> Report: ...


@record
class Kept(Record):
    """The bounded copy of a run's output: the first and last lines, and what fell between.

    Held as the bytes read; split into lines and decoded only when asked for (to explain).
    """

    #: Lines seen in all, and lines dropped between ``head`` and ``tail``.
    total_lines: int
    dropped: int
    #: The first lines, each already cut to ``max_line`` bytes.
    raw_head: tuple[bytes, ...] = ()
    #: Whole lines joined by ``\n``, oldest first, uncut; the last ``tail_count`` are kept.
    raw_tail: tuple[bytes, ...] = ()
    tail_count: int = 0
    max_line: int = MAX_LINE_BYTES

    @functools.cached_property
    def head(self) -> tuple[str, ...]:
        """The first lines, decoded (UTF-8; undecodable bytes replaced)."""
        return tuple(_decode(line) for line in self.raw_head)

    @functools.cached_property
    def tail(self) -> tuple[str, ...]:
        """The last lines, decoded, each cut to ``max_line`` bytes as the head's are."""
        if not self.tail_count:
            return ()
        lines = b"\n".join(self.raw_tail).split(b"\n")[-self.tail_count :]
        return tuple(_decode(_cut(line, self.max_line)) for line in lines)

    @property
    def lines(self) -> tuple[str, ...]:
        """Head then tail: every kept line, in the order the streams delivered them."""
        return self.head + self.tail

    @property
    def first_tail_line(self) -> int:
        """The 1-based number, in the whole output, of the first tail line."""
        return len(self.raw_head) + self.dropped + 1

    def blocks(self) -> tuple[LogText, ...]:
        """The kept lines as log blocks numbered as in the whole output, for the explainer.

        The tail's numbers continue after the dropped lines, so a finding cites the line
        number the user finds in the full output (a CI log, a ``tee`` file).
        """
        from tfdoctor.explain.reader import split_text  # noqa: PLC0415 - see the imports

        parts = ((self.head, 1), (self.tail, self.first_tail_line))
        return tuple(
            split_text("\n".join(lines), first_line=first) for lines, first in parts if lines
        )


class Capture:
    """Keeps the first ``head`` and last ``tail`` lines of one or more streams, thread-safely.

    Lines end at ``\\n``; each stream has its own unfinished line, so a stdout chunk and a
    stderr chunk arriving together never merge. A line counts when its ``\\n`` arrives, so
    the kept lines are in the order the streams finished them. Memory stays under about
    ``(head + tail) * max_line`` bytes whatever the child prints.

    The forwarding threads call :meth:`feed` for every chunk, so it does per chunk only what
    C does in one pass (``rfind``, ``count``, one copy): past the head, the tail is a ring
    of whole-line blobs as read, split into lines only by :meth:`Kept.tail`. Lines longer
    than ``max_line`` are cut when the ring's uncut bytes grow past an eighth of the bound,
    which costs nothing for ordinary logs and keeps the bound for any output.
    """

    def __init__(
        self, head: int = HEAD_LINES, tail: int = TAIL_LINES, max_line: int = MAX_LINE_BYTES
    ) -> None:
        self._head_max = head
        self._tail_max = max(tail, 0)
        self._max_line = max_line
        self._head: list[bytes] = []
        #: (blob of whole lines without the last ``\n``, its line count, not yet cut).
        self._ring: collections.deque[tuple[bytes, int, bool]] = collections.deque()
        self._ring_lines = 0
        self._uncut_bytes = 0
        self._uncut_limit = max(self._tail_max * (max_line + 1) // 8, max_line)
        self._pending: dict[int, bytes] = {}
        self._total = 0
        self._lock = threading.Lock()

    def feed(self, stream: int, chunk: bytes) -> None:
        """Add a chunk of ``stream`` (any key naming the stream, such as its fd)."""
        end = chunk.rfind(b"\n")
        with self._lock:
            pending = self._pending.get(stream, b"")
            if end < 0:
                rest = pending + chunk
            else:
                self._add(pending + chunk[:end], chunk.count(b"\n", 0, end) + 1)
                rest = chunk[end + 1 :]
            if len(rest) > self._max_line:
                rest = _shorten(rest, self._max_line)
            self._pending[stream] = rest

    def close(self, stream: int) -> None:
        """The stream ended: its unfinished last line (no trailing newline) counts as a line."""
        with self._lock:
            rest = self._pending.pop(stream, b"")
            if rest:
                self._add(rest, 1)

    def _add(self, blob: bytes, count: int) -> None:
        """Count ``count`` whole lines (``blob``, joined by ``\\n``) into the head or the ring."""
        self._total += count
        room = self._head_max - len(self._head)
        if room > 0:
            # Split at most ``room`` times: the head's lines, then the rest as one blob.
            lines = blob.split(b"\n", room)
            self._head.extend(_cut(line, self._max_line) for line in lines[:room])
            if count <= room:
                return
            blob, count = lines[room], count - room
        if not self._tail_max:
            return
        ring = self._ring
        ring.append((blob, count, True))
        self._ring_lines += count
        self._uncut_bytes += len(blob)
        # The oldest blob goes once the others hold the tail's lines without it.
        while self._ring_lines - ring[0][1] >= self._tail_max:
            old, lines_in_old, uncut = ring.popleft()
            self._ring_lines -= lines_in_old
            if uncut:
                self._uncut_bytes -= len(old)
        if self._uncut_bytes > self._uncut_limit:
            self._cut_ring()

    def _cut_ring(self) -> None:
        """Cut the ring's long lines to ``max_line``: its bytes stay bounded by its lines."""
        cap = self._max_line
        self._ring = collections.deque(
            (_cut_lines(blob, cap) if uncut else blob, count, False)
            for blob, count, uncut in self._ring
        )
        self._uncut_bytes = 0

    def kept(self) -> Kept:
        """The lines kept so far (split and decoded when :class:`Kept` is read)."""
        with self._lock:
            tail_count = min(self._ring_lines, self._tail_max)
            return Kept(
                total_lines=self._total,
                dropped=self._total - len(self._head) - tail_count,
                raw_head=tuple(self._head),
                raw_tail=tuple(blob for blob, _, _ in self._ring),
                tail_count=tail_count,
                max_line=self._max_line,
            )


def _cut(line: bytes, cap: int) -> bytes:
    """``line``, or :func:`_shorten`'s cut of it when it is longer than ``cap`` bytes."""
    return _shorten(line, cap) if len(line) > cap else line


def _cut_lines(blob: bytes, cap: int) -> bytes:
    """``blob`` (lines joined by ``\\n``) with each line longer than ``cap`` cut."""
    if len(blob) <= cap:
        return blob
    lines = blob.split(b"\n")
    if max(map(len, lines)) <= cap:
        return blob
    return b"\n".join(_cut(line, cap) for line in lines)


def _shorten(line: bytes, cap: int) -> bytes:
    """A line cut to ``cap`` bytes: what follows its last ``\r``, else its start.

    A terminal shows only the last state of a line redrawn with ``\r`` (Keras' and tqdm's
    progress bars), so the states before it are dropped first; the rest is cut from the end,
    so a line arriving in pieces keeps the same start however it is cut.
    """
    body = line[:-1] if line.endswith(b"\r") else line
    redrawn = body.rfind(b"\r")
    if redrawn >= 0:
        line = line[redrawn + 1 :]
    return line[:cap]


def _decode(line: bytes) -> str:
    # A Windows child ends lines with \r\n; the explainer wants the text only.
    return line.decode("utf-8", "replace").removesuffix("\r")


@record
class Watched(Record):
    """How a watched command ended, and what it printed (bounded)."""

    argv: tuple[str, ...]
    #: The child's own status (negative: killed by that signal); None when it never started.
    returncode: Optional[int]
    #: The status to exit with: the child's, ``128 + N`` for signal N, 126/127 when it could
    #: not be started.
    exit_code: int
    kept: Kept
    #: Why the command could not be started (``OSError`` text), when it could not.
    start_error: Optional[str] = None
    #: The signals this process received and sent on to the child, in order.
    forwarded: tuple[int, ...] = ()

    @property
    def signal_name(self) -> Optional[str]:
        """``SIGSEGV`` etc. when a signal ended the child."""
        if self.returncode is None or self.returncode >= 0:
            return None
        try:
            return signal.Signals(-self.returncode).name
        except ValueError:
            return f"signal {-self.returncode}"

    @property
    def failed(self) -> bool:
        """The command exited non-zero, was killed, or never started."""
        return self.exit_code != 0


def exit_code_of(returncode: int) -> int:
    """The shell's exit status for a child's return code: ``128 + N`` for death by signal N."""
    if returncode < 0:
        return 128 + (-returncode)
    return returncode


def should_explain(watched: Watched, explain_on_success: bool = False) -> bool:
    """Whether the run earns an explanation: it failed, or one was asked for regardless."""
    return watched.failed or explain_on_success


def watch(
    argv: Sequence[str],
    *,
    env: Optional[Mapping[str, str]] = None,
    stdout_fd: int = 1,
    stderr_fd: int = 2,
    capture: Optional[Capture] = None,
    on_start: Optional[Callable[[int], None]] = None,
) -> Watched:
    """Run ``argv`` (no shell), passing its output through to ``stdout_fd``/``stderr_fd``.

    The child inherits stdin, and the environment :func:`child_environment` derives from
    this process's (``env`` replaces it). Signal forwarding
    needs the main thread (``signal.signal``); elsewhere the child still runs, unforwarded.
    ``on_start`` receives the child's pid (a test seam). Never raises for what the child does.
    """
    capture = capture or Capture()
    forwarder = _Forwarder()
    # A sink that is closed (`tfdoctor run -- cmd >&-`) gets no pipe: the child inherits the
    # closed descriptor, as it would without tfdoctor, instead of a pipe nobody reads.
    out_open, err_open = _is_open(stdout_fd), _is_open(stderr_fd)
    with forwarder.installed(), _closed_std_fds_held():
        try:
            proc = lifeline.start(
                argv,
                # What the command gets if tfdoctor is killed (SIGKILL, the OOM killer): the
                # signal `timeout(1)` and `docker stop` send by default, so that it can save
                # its work and end, not run on unwatched with no reader for its output.
                death_signal=signal.SIGTERM,
                stdin=None,
                stdout=subprocess.PIPE if out_open else None,
                stderr=subprocess.PIPE if err_open else None,
                env=dict(
                    child_environment(os.environ, _is_terminal(stdout_fd)) if env is None else env
                ),
                # A session of its own (lifeline.start), so that a signal reaches the child
                # once (from us), grandchildren included, and a terminal's Ctrl-C is not
                # delivered twice; the same reason docker/entrypoint.sh gives for its check.
                bufsize=0,
            )
        except OSError as exc:
            code = EXIT_NOT_FOUND if isinstance(exc, FileNotFoundError) else EXIT_CANNOT_EXECUTE
            return Watched(tuple(argv), None, code, capture.kept(), start_error=str(exc))
        forwarder.attach(proc)
        if on_start is not None:
            on_start(proc.pid)
        pumps = [
            _start_pump(pipe, sink, capture)
            for pipe, sink in ((proc.stdout, stdout_fd), (proc.stderr, stderr_fd))
            if pipe is not None
        ]
        try:
            returncode = proc.wait()
        except BaseException:
            # This process is going down (a KeyboardInterrupt outside the forwarded signals'
            # reach, a bug): the child is in its own session, so nothing else would stop it.
            lifeline.kill_group(proc)
            proc.wait()
            raise
        finally:
            lifeline.reaped(proc)
        for pump in pumps:
            # A pump still running after this (a grandchild holds its pipe) is a daemon
            # thread: it ends with this process, its pipe's last reader.
            pump.join(DRAIN_SECONDS)
    return Watched(
        argv=tuple(argv),
        returncode=returncode,
        exit_code=exit_code_of(returncode),
        kept=capture.kept(),
        forwarded=forwarder.sent(),
    )


def _is_open(fd: int) -> bool:
    """Whether ``fd`` is an open descriptor of this process."""
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


@contextlib.contextmanager
def _closed_std_fds_held() -> Iterator[None]:
    """Hold each closed standard descriptor (0, 1, 2) with the null device while the child
    starts, close-on-exec, and close it again after.

    Otherwise the pipes made for the child take the lowest free numbers, a closed 1 among
    them, and the child would inherit one as its stdout; held close-on-exec, the number stays
    closed in the child too (https://docs.python.org/3/library/os.html#fd-inheritance).
    """
    held: list[int] = []
    try:
        for fd in (0, 1, 2):
            if not _is_open(fd):
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd, inheritable=False)
                    os.close(null)
                held.append(fd)
        yield
    finally:
        for fd in held:
            os.close(fd)


def child_environment(environ: Mapping[str, str], terminal: bool) -> dict[str, str]:
    """The child's environment: ``environ``, plus ``PYTHONUNBUFFERED=1`` when stdout is a terminal.

    Python buffers stdout in blocks when it is a pipe, as the child's now is, and by lines on
    a terminal (https://docs.python.org/3/library/sys.html#sys.stdout): without this, a
    Python command's lines would reach the terminal in bursts, and out of step with its
    stderr. Where this process's stdout is itself a pipe or file, the child would buffer in
    blocks without tfdoctor too, and is left to. A value the user set is kept.
    """
    out = dict(environ)
    if terminal:
        out.setdefault("PYTHONUNBUFFERED", "1")
    return out


def _is_terminal(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def _start_pump(pipe: Optional[IO[bytes]], sink: int, capture: Capture) -> threading.Thread:
    """Hand the read end of ``pipe`` to a new forwarding thread, which closes it when done."""
    assert pipe is not None
    # The thread owns a duplicate; the original closes now, so that no one else can close
    # the descriptor (or a reuse of its number) under the thread.
    source = os.dup(pipe.fileno())
    pipe.close()
    thread = threading.Thread(target=_pump, args=(source, sink, capture), daemon=True)
    thread.start()
    return thread


def _pump(source: int, sink: int, capture: Capture) -> None:
    """Forward ``source`` to ``sink`` chunk by chunk until end of file, keeping a copy.

    When ``sink`` is a closed pipe (``tfdoctor run -- cmd | head``), stop reading: the child
    then gets the SIGPIPE or EPIPE it would get without tfdoctor in between.
    """
    try:
        while True:
            try:
                chunk = os.read(source, CHUNK_BYTES)
            except OSError:
                break  # EIO and the like: the pipe is unusable, as if it had ended
            if not chunk:
                break
            sent = _write_all(sink, chunk)
            capture.feed(source, chunk)
            if not sent:
                break
    finally:
        capture.close(source)
        os.close(source)


def _write_all(fd: int, data: bytes) -> bool:
    """Write all of ``data``; False when the reader has gone (EPIPE) or the fd is unusable."""
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            # A non-blocking sink (a terminal another program set O_NONBLOCK on): wait.
            _wait_writable(fd)
            continue
        except OSError as exc:
            if exc.errno in (errno.EPIPE, errno.EBADF, errno.EINVAL):
                return False
            raise
        view = view[written:]
    return True


def _wait_writable(fd: int) -> None:
    import select  # noqa: PLC0415 - only a non-blocking sink needs it

    select.select([], [fd], [], 1.0)


class _Forwarder:
    """Signal handlers that send what this process receives on to the child's group."""

    def __init__(self) -> None:
        self._proc: Optional[subprocess.Popen[bytes]] = None
        self._pending: list[int] = []
        self._sent: list[int] = []

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        """Handle the forwarded signals for the duration; restore the old handlers after.

        A signal ignored when tfdoctor started stays ignored, and so is it in the child (an
        ignored signal stays ignored across exec, execve(2)): ``nohup`` ignores SIGHUP, a
        non-interactive shell's background job SIGINT and SIGQUIT, and the command must
        keep that as it would without tfdoctor in between.
        """
        previous: dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():
            for signum in FORWARDED_SIGNALS:
                if signal.getsignal(signum) is not signal.SIG_IGN:
                    previous[signum] = signal.signal(signum, self._handle)
        try:
            yield
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)

    def attach(self, proc: subprocess.Popen[bytes]) -> None:
        """The child has started: send it any signal that came before it existed."""
        self._proc = proc
        pending, self._pending = self._pending, []
        for signum in pending:
            self._send(signum)

    def sent(self) -> tuple[int, ...]:
        """The signals sent on so far."""
        return tuple(self._sent)

    def _handle(self, signum: int, frame: Optional[FrameType]) -> None:
        del frame
        if self._proc is None:
            # Between installing the handlers and Popen returning: send it once started.
            self._pending.append(signum)
            return
        self._send(signum)

    def _send(self, signum: int) -> None:
        proc = self._proc
        if proc is None or proc.returncode is not None:
            return
        self._sent.append(signum)
        try:
            if sys.platform == "win32":
                proc.send_signal(signum)
            else:
                # The whole group, as a terminal would signal a foreground job (grandchildren
                # too: a launcher script's Python, a data-loader worker).
                os.killpg(proc.pid, signum)
        except (ProcessLookupError, PermissionError):
            pass  # the child has just ended; its status says what happened
