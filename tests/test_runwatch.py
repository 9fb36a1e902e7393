"""``tfdoctor run``: output passed through byte for byte, exit codes and signals, bounded copy.

Every test runs real child processes (``python -c``), in-process through
:func:`tfdoctor.runwatch.watch` or end to end through ``python -m tfdoctor run``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Callable, Optional

import pytest

from tests import processes
from tfdoctor.runwatch import (
    Capture,
    Kept,
    Watched,
    child_environment,
    exit_code_of,
    should_explain,
    watch,
)

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and exit codes")

#: Bytes a child writes to stdout and stderr: binary, CRLF, no trailing newline.
STDOUT_BYTES = b"line one\nbinary \x00\xff\xfe\x80 bytes\r\nutf-8 \xc3\xa9\nno newline at the end"
STDERR_BYTES = b"2026-01-01 W tensorflow: warning\n\x1b[31mred\x1b[0m\n\xff\xfepartial"


def _script(body: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(body)]


def _writer(out: bytes, err: bytes, code: int = 0) -> list[str]:
    """A child writing ``out`` and ``err`` (raw bytes) and exiting ``code``."""
    return _script(
        f"""
        import os, sys
        os.write(1, {out!r})
        os.write(2, {err!r})
        sys.exit({code})
        """
    )


class Sinks:
    """Two temporary files standing in for this process's stdout and stderr."""

    def __init__(self, directory: Path) -> None:
        self.out = (directory / "stdout").open("w+b")
        self.err = (directory / "stderr").open("w+b")

    def watch(
        self,
        argv: list[str],
        capture: Optional[Capture] = None,
        on_start: Optional[Callable[[int], None]] = None,
    ) -> Watched:
        return watch(
            argv,
            stdout_fd=self.out.fileno(),
            stderr_fd=self.err.fileno(),
            capture=capture,
            on_start=on_start,
        )

    def read(self) -> tuple[bytes, bytes]:
        return Path(self.out.name).read_bytes(), Path(self.err.name).read_bytes()

    def close(self) -> None:
        self.out.close()
        self.err.close()


@pytest.fixture
def sinks(tmp_path: Path) -> Iterator[Sinks]:
    s = Sinks(tmp_path)
    yield s
    s.close()


def tfdoctor_run(
    *args: str, timeout: float = 60, stdin: Optional[int] = subprocess.DEVNULL
) -> subprocess.CompletedProcess[bytes]:
    """``python -m tfdoctor run ARGS`` in a subprocess, its two streams captured as bytes."""
    return subprocess.run(
        [sys.executable, "-m", "tfdoctor", "run", *args],
        cwd=ROOT,
        stdin=stdin,
        capture_output=True,
        timeout=timeout,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )


# --- pass-through -------------------------------------------------------------------------


def test_both_streams_pass_through_byte_for_byte(sinks: Sinks) -> None:
    watched = sinks.watch(_writer(STDOUT_BYTES, STDERR_BYTES))
    assert sinks.read() == (STDOUT_BYTES, STDERR_BYTES)
    assert (watched.returncode, watched.exit_code, watched.start_error) == (0, 0, None)


def test_the_command_line_passes_a_successful_run_through_unchanged() -> None:
    proc = tfdoctor_run("--", *_writer(STDOUT_BYTES, STDERR_BYTES))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, STDOUT_BYTES, STDERR_BYTES)


def test_options_after_the_command_are_the_commands_own() -> None:
    argv = _script("import sys; print(sys.argv[1:])")
    proc = tfdoctor_run(*argv, "--report", "x", "--explain-on-success")
    assert proc.stdout == b"['--report', 'x', '--explain-on-success']\n"
    assert proc.returncode == 0
    assert not (ROOT / "x").exists()


def test_stdin_is_the_commands() -> None:
    with tempfile.TemporaryFile() as stdin:
        stdin.write(b"fed through\n")
        stdin.seek(0)
        proc = tfdoctor_run(
            "--", *_script("import sys; sys.stdout.write(sys.stdin.read())"), stdin=stdin.fileno()
        )
    assert proc.stdout == b"fed through\n"


def test_a_stderr_chunk_between_stdout_chunks_keeps_its_place_per_stream(sinks: Sinks) -> None:
    watched = sinks.watch(
        _script(
            """
            import os, time
            for fd, text in ((1, b"out one\\n"), (2, b"err between\\n"), (1, b"out two\\n")):
                os.write(fd, text)
                time.sleep(0.2)
            """
        )
    )
    assert sinks.read() == (b"out one\nout two\n", b"err between\n")
    # The copy for the explainer has them in the order they were written.
    assert watched.kept.lines == ("out one", "err between", "out two")


def test_output_is_forwarded_as_it_comes_not_when_the_command_ends(tmp_path: Path) -> None:
    """A line without a newline reaches our stdout while the command still runs."""
    flag = tmp_path / "seen"
    child = f"""
        import os, pathlib, sys, time
        os.write(1, b"partial, no newline")
        deadline = time.monotonic() + 20
        while not pathlib.Path({str(flag)!r}).exists():
            if time.monotonic() > deadline:
                sys.exit(9)
            time.sleep(0.02)
        """
    proc = subprocess.Popen(
        [sys.executable, "-m", "tfdoctor", "run", "--", *_script(child)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    first = os.read(proc.stdout.fileno(), 100)
    flag.touch()
    rest, _ = proc.communicate(timeout=30)
    assert first + rest == b"partial, no newline"
    assert proc.returncode == 0


def test_a_closed_stdout_stops_the_command_as_without_tfdoctor() -> None:
    """``tfdoctor run -- cmd | head -1``: the command gets SIGPIPE, as it would bare."""
    script = "while :; do echo y; done"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tfdoctor", "run", "--", "sh", "-c", script],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    assert proc.stdout.read(2) == b"y\n"
    proc.stdout.close()
    assert proc.wait(timeout=30) == 128 + signal.SIGPIPE


_SEES = (
    "import os, sys\n"
    "def state(fd):\n"
    "    try:\n"
    "        os.fstat(fd)\n"
    "    except OSError:\n"
    "        return 'closed'\n"
    "    return 'open'\n"
    "os.write(3 - {fd}, ('%s %s' % (state(0), state({fd}))).encode())\n"
)


@pytest.mark.parametrize("fd", [1, 2], ids=["stdout", "stderr"])
def test_a_stream_closed_at_start_is_closed_for_the_command_too(fd: int) -> None:
    """``tfdoctor run -- cmd >&-``: cmd starts with its stdout closed, as it would bare, not
    with a pipe that breaks when written (and no other descriptor lands on that number)."""
    code = _SEES.format(fd=fd)
    shell = f'exec "$@" {fd}>&-'
    bare = subprocess.run(
        ["/bin/sh", "-c", shell, "sh", sys.executable, "-c", code],
        capture_output=True,
        check=False,
        timeout=30,
    )
    wrapped = subprocess.run(
        [
            "/bin/sh",
            "-c",
            shell,
            "sh",
            sys.executable,
            "-m",
            "tfdoctor",
            "run",
            "--",
            sys.executable,
            "-c",
            code,
        ],
        cwd=ROOT,
        capture_output=True,
        check=False,
        timeout=60,
    )
    seen = bare.stdout if fd == 2 else bare.stderr
    assert (bare.returncode, seen) == (0, b"open closed")
    assert wrapped.returncode == 0, wrapped.stderr
    assert (wrapped.stdout if fd == 2 else wrapped.stderr) == seen


# --- exit codes and signals -----------------------------------------------------------------


@pytest.mark.parametrize("code", [0, 1, 3], ids=lambda c: f"exit-{c}")
def test_exit_codes_pass_through(sinks: Sinks, code: int) -> None:
    watched = sinks.watch(_writer(b"", b"", code))
    assert (watched.returncode, watched.exit_code, watched.failed) == (code, code, code != 0)


@pytest.mark.parametrize("code", [0, 1, 3], ids=lambda c: f"exit-{c}")
def test_the_command_line_exits_with_the_commands_code(code: int) -> None:
    proc = tfdoctor_run("--", *_writer(b"out\n", b"err\n", code))
    assert proc.returncode == code
    assert proc.stdout == b"out\n"
    # A failure is explained after the command's own output, on stderr only.
    assert proc.stderr.startswith(b"err\n")
    assert (proc.stderr == b"err\n") == (code == 0)


SEGFAULT = _script(
    """
    import os, signal
    os.write(1, b"before the crash\\n")
    os.kill(os.getpid(), signal.SIGSEGV)
    """
)


def test_a_segfault_gives_139(sinks: Sinks) -> None:
    watched = sinks.watch(SEGFAULT)
    assert (watched.returncode, watched.exit_code) == (-signal.SIGSEGV, 139)
    assert watched.signal_name == "SIGSEGV"
    assert sinks.read()[0] == b"before the crash\n"


def test_the_command_line_exits_139_after_a_segfault() -> None:
    proc = tfdoctor_run("--", *SEGFAULT)
    assert proc.returncode == 139
    assert proc.stdout == b"before the crash\n"


def test_a_command_that_does_not_exist_exits_127() -> None:
    proc = tfdoctor_run("--", "tfdoctor-no-such-command")
    assert proc.returncode == 127
    assert proc.stdout == b""
    assert proc.stderr.decode().count("\n") == 1
    assert "cannot start tfdoctor-no-such-command" in proc.stderr.decode()


def test_a_file_that_cannot_be_executed_exits_126(sinks: Sinks, tmp_path: Path) -> None:
    script = tmp_path / "not-executable.sh"
    script.write_text("echo hi\n", encoding="utf-8")
    watched = sinks.watch([str(script)])
    assert watched.exit_code == 126
    assert watched.start_error


def _interrupted_run(child: str) -> tuple[subprocess.CompletedProcess[bytes], float]:
    """Run ``child`` under ``tfdoctor run``; once it says ready, SIGINT tfdoctor (not it)."""
    proc = processes.start(
        [sys.executable, "-m", "tfdoctor", "run", "--", *_script(child)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"ready\n"
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    done = subprocess.CompletedProcess(proc.args, proc.returncode, b"ready\n" + out, err)
    return done, time.monotonic() - start


def test_an_interrupt_reaches_the_command_which_dies_of_it() -> None:
    child = """
        import signal, sys, time
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        print("ready", flush=True)
        time.sleep(60)
        """
    proc, seconds = _interrupted_run(child)
    assert proc.returncode == 128 + signal.SIGINT
    assert seconds < 20  # interrupted, not slept out


def test_an_interrupted_python_command_exits_as_it_chooses() -> None:
    """The command handles the signal (cleans up, exits 7): tfdoctor exits 7 with it."""
    child = """
        import sys, time
        try:
            print("ready", flush=True)
            time.sleep(60)
        except KeyboardInterrupt:
            print("cleaned up", flush=True)
            sys.exit(7)
        """
    proc, seconds = _interrupted_run(child)
    assert proc.returncode == 7
    assert proc.stdout == b"ready\ncleaned up\n"
    assert seconds < 20


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_terminate_and_hangup_are_forwarded_too(signum: signal.Signals) -> None:
    child = f"""
        import signal, sys, time
        signal.signal({int(signum)}, lambda *_: (print("got it", flush=True), sys.exit(5)))
        print("ready", flush=True)
        time.sleep(60)
        """
    proc = processes.start(
        [sys.executable, "-m", "tfdoctor", "run", "--", *_script(child)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"ready\n"
    proc.send_signal(signum)
    out, _ = proc.communicate(timeout=30)
    assert (proc.returncode, out) == (5, b"got it\n")


def _ignore_hangup() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_signal_ignored_at_start_stays_ignored_for_the_command() -> None:
    """``nohup tfdoctor run -- cmd``: a hangup neither reaches the command nor ends it."""
    child = """
        import signal, sys, time
        ignored = signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        print("ready", flush=True)
        time.sleep(1)
        print("ignored" if ignored else "handled", flush=True)
        """
    proc = subprocess.Popen(
        [sys.executable, "-m", "tfdoctor", "run", "--", *_script(child)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        preexec_fn=_ignore_hangup,  # noqa: PLW1509 - as nohup(1) does; the tests start no threads
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"ready\n"
    proc.send_signal(signal.SIGHUP)
    out, _ = proc.communicate(timeout=30)
    assert (proc.returncode, out) == (0, b"ignored\n")


def test_a_signal_in_process_is_forwarded_and_handlers_restored(sinks: Sinks) -> None:
    before = signal.getsignal(signal.SIGTERM)
    child = _script(
        """
        import signal, time
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        time.sleep(60)
        """
    )
    # The child gets the signal as soon as it starts, before it could have slept it out.
    watched = sinks.watch(child, on_start=lambda pid: os.kill(os.getpid(), signal.SIGTERM))
    assert watched.forwarded == (signal.SIGTERM,)
    assert watched.exit_code == 128 + signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.parametrize(
    ("returncode", "expected"),
    [(0, 0), (1, 1), (255, 255), (-signal.SIGINT, 130), (-signal.SIGKILL, 137)],
)
def test_exit_code_of_follows_the_shell(returncode: int, expected: int) -> None:
    assert exit_code_of(returncode) == expected


def test_explanations_follow_failure_unless_asked_for(sinks: Sinks) -> None:
    ok = sinks.watch(_writer(b"", b""))
    failed = sinks.watch(_writer(b"", b"", 1))
    assert not should_explain(ok)
    assert should_explain(ok, explain_on_success=True)
    assert should_explain(failed)


def test_python_output_is_unbuffered_only_where_stdout_is_a_terminal() -> None:
    assert child_environment({"A": "1"}, terminal=False) == {"A": "1"}
    assert child_environment({}, terminal=True) == {"PYTHONUNBUFFERED": "1"}
    assert child_environment({"PYTHONUNBUFFERED": ""}, terminal=True) == {"PYTHONUNBUFFERED": ""}


# --- the bounded copy -------------------------------------------------------------------------


def test_100k_lines_pass_through_and_the_copy_stays_bounded(sinks: Sinks) -> None:
    child = _script(
        """
        import sys
        sys.stdout.writelines(f"step {i} loss=0.5\\n" for i in range(100000))
        sys.stdout.flush()
        sys.stderr.write("Traceback: the end\\n")
        """
    )
    watched = sinks.watch(child)
    out, err = sinks.read()
    assert out == b"".join(f"step {i} loss=0.5\n".encode() for i in range(100000))
    assert err == b"Traceback: the end\n"
    kept = watched.kept
    assert (kept.total_lines, len(kept.head), len(kept.tail)) == (100001, 2000, 20000)
    assert kept.dropped == 100001 - 22000
    assert kept.head[0] == "step 0 loss=0.5"
    # The streams are read by two threads: the stderr line comes after most of stdout (the
    # child wrote it last), but not necessarily after the last stdout chunk.
    assert "Traceback: the end" in kept.tail
    assert [line for line in kept.tail if line.startswith("step")] == [
        f"step {i} loss=0.5" for i in range(80001, 100000)
    ]
    assert kept.first_tail_line == 80002


def test_capture_keeps_head_and_tail_and_counts_the_gap() -> None:
    capture = Capture(head=2, tail=3, max_line=100)
    capture.feed(1, b"".join(b"%d\n" % i for i in range(10)))
    kept = capture.kept()
    assert (kept.head, kept.tail, kept.total_lines, kept.dropped) == (
        ("0", "1"),
        ("7", "8", "9"),
        10,
        5,
    )
    assert kept.first_tail_line == 8


def test_capture_joins_lines_split_across_chunks_per_stream() -> None:
    capture = Capture()
    capture.feed(1, b"std")
    capture.feed(2, b"err line\nerr ")
    capture.feed(1, b"out line\r\n")
    capture.close(1)
    capture.close(2)
    assert capture.kept().lines == ("err line", "stdout line", "err ")


def test_capture_cuts_a_long_line_keeping_its_start() -> None:
    capture = Capture(max_line=10)
    for _ in range(1000):
        capture.feed(1, b"0123456789" * 100)
    capture.feed(1, b"\nshort\n\xff\n" + b"x" * 20 + b"\n")
    assert capture.kept().lines == ("0123456789", "short", "\ufffd", "x" * 10)


def test_capture_keeps_the_last_state_of_a_long_redrawn_line() -> None:
    capture = Capture(max_line=20)
    for step in range(1000):
        capture.feed(1, b"\r%d/1000 [====]" % step)
    capture.feed(1, b" done\r\n")
    assert capture.kept().lines == ("999/1000 [====] done",)


def test_capture_cuts_long_lines_in_the_tail_too() -> None:
    capture = Capture(head=1, tail=3, max_line=10)
    capture.feed(1, b"first\n" + b"".join(b"%d" % i + b"y" * 50 + b"\n" for i in range(100)))
    kept = capture.kept()
    assert kept.head == ("first",)
    assert kept.tail == ("97" + "y" * 8, "98" + "y" * 8, "99" + "y" * 8)
    assert (kept.total_lines, kept.dropped, kept.first_tail_line) == (101, 97, 99)


def _kept_in_chunks(size: int) -> Kept:
    """One stream's output, then another's, fed in chunks of ``size`` bytes."""
    out = b"".join(b"out %d\r\n" % i + b"\r" * (i % 3) for i in range(50)) + b"no newline"
    err = b"".join(b"err %d " % i + b"x" * (i % 30) + b"\n" for i in range(50))
    capture = Capture(head=7, tail=60, max_line=20)
    for stream, data in ((1, out), (2, err)):
        for start in range(0, len(data), size):
            capture.feed(stream, data[start : start + size])
    capture.close(1)
    capture.close(2)
    return capture.kept()


@pytest.mark.parametrize("size", [1, 7, 100, 65536], ids=lambda n: f"chunks-of-{n}")
def test_capture_keeps_the_same_lines_however_the_output_is_chunked(size: int) -> None:
    kept, reference = _kept_in_chunks(size), _kept_in_chunks(3)
    assert (kept.head, kept.tail) == (reference.head, reference.tail)
    assert (kept.total_lines, kept.dropped) == (reference.total_lines, reference.dropped)
    assert kept.head[:2] == ("out 0", "out 1")
    assert kept.tail[-2:] == ("err 49 " + "x" * 13, "\rno newline")
    assert all(len(line.encode()) <= 20 for line in kept.lines)


def test_memory_stays_bounded_whatever_the_command_prints(sinks: Sinks) -> None:
    """20 MB of output through a small copy: the peak allocation stays far below it."""
    import tracemalloc

    child = _script(
        """
        import sys
        line = "x" * 199 + "\\n"
        sys.stdout.writelines(line for _ in range(100000))
        """
    )
    tracemalloc.start()
    try:
        watched = sinks.watch(child, capture=Capture(head=10, tail=10))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert watched.kept.total_lines == 100000
    assert len(sinks.read()[0]) == 20_000_000
    assert peak < 2_000_000


# --- the explanation --------------------------------------------------------------------------

CUDNN_MISSING = (
    b"2023-05-01 10:00:00.000000: W tensorflow/compiler/xla/stream_executor/platform/default/"
    b"dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: "
    b"cannot open shared object file: No such file or directory\n"
)


def test_a_failure_is_explained_on_stderr_after_the_output(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    proc = tfdoctor_run("--report", str(report), "--", *_writer(b"out\n", CUDNN_MISSING, 1))
    assert (proc.returncode, proc.stdout) == (1, b"out\n")
    assert proc.stderr.startswith(CUDNN_MISSING)
    explanation = proc.stderr[len(CUDNN_MISSING) :].decode()
    assert "explain.cuda-libs-missing" in explanation
    assert explanation.endswith("exiting 1 with it.\n")
    data = json.loads(report.read_text(encoding="utf-8"))
    # The missing cause first; the other candidate (installed off the loader's path) after it.
    assert [f["id"] for f in data["findings"]] == [
        "explain.cuda-libs-missing",
        "explain.cuda-libs-off-path",
    ]


def test_run_reads_tensorflows_lines_as_explain_and_check_do(tmp_path: Path) -> None:
    """The shared reader's events: the versions a line states, with its line in the output."""
    mismatch = (
        b"E0000 00:00:1744708234.717753 1370911 cuda_dnn.cc:447] Loaded runtime CuDNN library: "
        b"9.1.0 but source was compiled with: 9.3.0.  CuDNN library needs to have matching "
        b"major version and equal or higher minor version.\n"
    )
    report = tmp_path / "report.json"
    err = b"Epoch 1/3\nStarting\n" + mismatch
    proc = tfdoctor_run("--report", str(report), "--", *_writer(b"", err, 1))
    assert proc.returncode == 1
    data = json.loads(report.read_text(encoding="utf-8"))
    (finding,) = [f for f in data["findings"] if f["id"] == "explain.cudnn-version-mismatch"]
    assert "a build for cuDNN 9.3.0 (line 3), cuDNN 9.1.0 loaded (line 3)" in finding["detail"]


def test_a_success_is_explained_only_when_asked(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    quiet = tfdoctor_run("--report", str(report), "--", *_writer(b"", CUDNN_MISSING))
    assert (quiet.returncode, quiet.stderr) == (0, CUDNN_MISSING)
    assert report.exists()  # the file is always written, for a CI job to keep
    loud = tfdoctor_run("--explain-on-success", "--", *_writer(b"", CUDNN_MISSING))
    assert loud.returncode == 0
    assert b"explain.cuda-libs-missing" in loud.stderr


def test_findings_cite_line_numbers_of_the_whole_output() -> None:
    """Past the dropped middle, a cited line keeps its number in the full output."""
    child = f"""
        import os, sys, time
        sys.stdout.writelines(f"{{i}}\\n" for i in range(30000))
        sys.stdout.flush()
        time.sleep(0.5)  # let the reader of stdout drain first, as on an idle machine
        os.write(2, {CUDNN_MISSING!r})
        sys.exit(1)
        """
    proc = tfdoctor_run("--", *_script(child))
    assert proc.returncode == 1
    # Two threads read the two streams: the stderr line is the last written, but may be
    # read just before the last stdout chunk. Without the gap counted it would be < 22002.
    cited = re.search(r"line (\d+):", proc.stderr.decode())
    assert cited is not None
    assert 29000 < int(cited.group(1)) <= 30001
