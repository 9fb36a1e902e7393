"""Probe children started ahead of their probe: taken over by the same argv and environment
only, timed from their own start, and killed at exit when nobody takes them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tfdoctor.cli.fast import probes_this_interpreter
from tfdoctor.probes import _run
from tfdoctor.probes._run import run_command, start_early

PID = "import os, sys; print(os.getpid()); sys.stdout.flush()"


@pytest.fixture(autouse=True)
def _no_leftovers() -> Iterator[None]:
    yield
    _run._discard_early()


def test_the_same_command_takes_the_early_child_over() -> None:
    argv = [sys.executable, "-c", PID]
    start_early(argv)
    ((proc, _start),) = _run._EARLY.values()
    result = run_command(argv, dict(os.environ), 30)
    assert result.returncode == 0
    assert result.stdout.strip() == str(proc.pid)
    assert _run._EARLY == {}
    # Taken once: the next run is a child of its own.
    again = run_command(argv, None, 30)
    assert again.stdout.strip() != str(proc.pid)


@pytest.mark.parametrize(
    ("later_argv", "later_env"),
    [
        ([sys.executable, "-c", PID, "x"], None),
        ([sys.executable, "-c", PID], {**os.environ, "TFDOCTOR_EARLY_TEST": "1"}),
    ],
    ids=["other-argv", "other-env"],
)
def test_another_command_or_environment_starts_its_own(
    later_argv: list[str], later_env: dict[str, str] | None
) -> None:
    start_early([sys.executable, "-c", PID])
    ((proc, _start),) = _run._EARLY.values()
    result = run_command(later_argv, later_env, 30)
    assert result.returncode == 0
    assert result.stdout.strip() != str(proc.pid)
    assert len(_run._EARLY) == 1


def test_the_timeout_counts_from_the_early_start() -> None:
    argv = [sys.executable, "-c", "import time; time.sleep(30)"]
    start_early(argv)
    time.sleep(1.0)
    began = time.monotonic()
    result = run_command(argv, None, 1.2)
    assert result.timed_out
    assert time.monotonic() - began < 1.0
    assert result.seconds >= 1.2


def test_a_command_that_cannot_start_early_is_left_to_its_probe(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-program")
    start_early([missing])
    assert _run._EARLY == {}
    assert run_command([missing], None, 5).start_error is not None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_an_unclaimed_child_is_killed_at_exit() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "from tfdoctor.probes import _run\n"
            "_run.start_early([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
            "((proc, _),) = _run._EARLY.values()\n"
            "print(proc.pid)\n",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    pid = int(done.stdout)
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{pid}").exists()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["check"], True),
        (["check", "--static", "--json"], True),
        (["pin", "--all"], True),
        (["pin", "--python-version", "3.12"], True),  # a target, not a program
        (["check", "--python", "/opt/py/bin/python"], False),
        (["check", "--python=/opt/py/bin/python"], False),
        (["check", "--facts", "r.json"], False),
        (["check", "--list"], False),
        (["pin", "--python", "/x/python"], False),
        (["explain", "log.txt"], False),
        (["--version"], False),
        ([], False),
    ],
)
def test_which_invocations_start_the_probes_early(args: list[str], expected: bool) -> None:
    assert probes_this_interpreter(args) is expected
