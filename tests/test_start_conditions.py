"""Odd start conditions: tfdoctor ends with a documented exit code and never a traceback.

Each case starts the real command line in a child, under one odd condition or all of them at
once: no ``HOME``, ``LC_ALL=C``, a read-only working directory, standard output or error closed
(``>&-``), bytes that are not UTF-8 in environment variables TensorFlow reads. The commands
run without ``--strict``, so a correct run exits 0, 2 or 3; an uncaught exception exits 1,
which is how a traceback shows even when standard error is closed.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import tfdoctor

ROOT = Path(__file__).resolve().parent.parent
CONDITIONS = ("no-home", "lc-all-c", "read-only-cwd", "non-utf8-env", "closed-stdout")
COMMANDS = {
    "check-verbose": ("check", "--static", "--verbose", "--no-color"),
    "check-markdown": ("check", "--static", "--format", "markdown"),
    "check-junit": ("check", "--static", "--format", "junit"),
    "version": ("--version",),
}
# Bytes no UTF-8 decoder accepts, in variables the environment probe reports.
NON_UTF8 = {
    b"LD_LIBRARY_PATH": b"/opt/\xff\xfe/lib:/usr/lib",
    b"CUDA_VISIBLE_DEVICES": b"0,\xc3",
    b"TF_CPP_MIN_LOG_LEVEL": b"\x80",
    b"HF_TOKEN": b"hf_\xffsecretsecretsecret",
}


@dataclasses.dataclass(frozen=True)
class Case:
    command: str
    conditions: tuple[str, ...]
    closed: str = ""  # "", "stdout", "stderr" or "both"

    @property
    def id(self) -> str:
        closed = f"+closed-{self.closed}" if self.closed else ""
        return f"{self.command}:{'+'.join(self.conditions) or 'plain'}{closed}"


def cases() -> Iterator[Case]:
    for command in COMMANDS:
        for condition in CONDITIONS:
            if condition != "closed-stdout":
                yield Case(command, (condition,))
        for closed in ("stdout", "stderr", "both"):
            yield Case(command, (), closed)
        yield Case(command, tuple(c for c in CONDITIONS if c != "closed-stdout"), "stdout")


CASES = list(cases())


@dataclasses.dataclass(frozen=True)
class Outcome:
    returncode: int
    stdout: str
    stderr: str


def run_case(case: Case, tmp: Path) -> Outcome:
    env: dict[bytes, bytes] = {
        os.fsencode(k): os.fsencode(v)
        for k, v in os.environ.items()
        if not k.startswith(("GITHUB_", "LC_", "TFDOCTOR_")) and k not in ("LANG", "NO_COLOR")
    }
    # The child must find this checkout's package from any working directory.
    env[b"PYTHONPATH"] = os.fsencode(str(ROOT))
    cwd = tmp / "cwd"
    cwd.mkdir()
    if "no-home" in case.conditions:
        env.pop(b"HOME", None)
    if "lc-all-c" in case.conditions:
        env[b"LC_ALL"] = b"C"
    if "non-utf8-env" in case.conditions:
        env.update(NON_UTF8)
    if "read-only-cwd" in case.conditions:
        cwd.chmod(0o555)
    redirect = {"": "", "stdout": ">&-", "stderr": "2>&-", "both": ">&- 2>&-"}[case.closed]
    argv = " ".join(f"'{a}'" for a in COMMANDS[case.command])
    # The shell closes the descriptors before tfdoctor starts, as `tfdoctor check >&-` does.
    script = f'exec "$0" -m tfdoctor {argv} {redirect}'
    try:
        done = subprocess.run(
            ["/bin/sh", "-c", script, sys.executable],
            cwd=cwd,
            env=env,
            capture_output=True,
            timeout=180,
            check=False,
        )
    finally:
        cwd.chmod(0o755)
    return Outcome(
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """Every case, run concurrently (each is a separate process that mostly waits)."""
    if sys.platform == "win32":
        pytest.skip("POSIX descriptors and modes")
    with ThreadPoolExecutor(max_workers=8) as pool:
        futures = {
            case.id: pool.submit(run_case, case, tmp_path_factory.mktemp("start")) for case in CASES
        }
        return {name: future.result() for name, future in futures.items()}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_odd_start_ends_with_a_documented_code(case: Case, outcomes: dict[str, Outcome]) -> None:
    out = outcomes[case.id]
    assert out.returncode in (0, 2, 3), out.stderr
    assert "Traceback" not in out.stderr, out.stderr
    if case.closed in ("stdout", "both"):
        assert out.returncode == 3
    if case.closed == "stdout":
        lines = out.stderr.splitlines()
        assert len(lines) == 1, out.stderr
        assert lines[0].startswith("tfdoctor: error: cannot write output:"), out.stderr
    if not case.closed:
        assert out.stdout, out.stderr
    if "non-utf8-env" in case.conditions:
        # A secret stays hidden even when its bytes are not text.
        assert "secretsecret" not in out.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--static"],
        ["--help"],
        ["--version"],
        ["check", "--help"],
        ["run", "--help"],
        ["cluster", "--help"],
        [],
    ],
    ids=" ".join,
)
def test_closed_stdout_is_one_line_on_stderr(args: list[str]) -> None:
    # `tfdoctor check --static >&-`; help and version too, which would otherwise exit 0
    # without a word: Python sets sys.stdout to None, and click drops the text.
    done = subprocess.run(
        ["/bin/sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "tfdoctor", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 3
    assert done.stderr == "tfdoctor: error: cannot write output: standard output is closed\n"


def test_python_that_is_not_python_is_bad_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tfdoctor", "check", "--static", "--python", "/bin/false"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 3
    assert done.stdout == ""
    assert done.stderr == (
        "tfdoctor: error: --python /bin/false: not a Python interpreter "
        "(exited with 1 when asked for its version)\n"
    )


def test_dir_lists_the_lazy_api() -> None:
    names = dir(tfdoctor)
    assert {"configure_gpus", "GpuConfigResult", "TooLateError", "__version__"} <= set(names)
    assert names == sorted(names)
    # Listing them does not load them: TensorFlow's helper module stays unloaded.
    code = "import sys, tfdoctor; dir(tfdoctor); print('tfdoctor.gpu_config' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"
