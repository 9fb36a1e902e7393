"""Options that several commands share mean the same everywhere: ``--python`` is an
interpreter, checked once, the same way, by every command that takes it."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import pytest

from tests import factories as f
from tests.commandline import in_process, tfdoctor
from tfdoctor.cli.options import FORMATS
from tfdoctor.facts import to_json

PYENV = Path.home() / ".pyenv" / "versions"

#: Every command that takes ``--python``, with the arguments it needs besides.
COMMANDS = {
    "check": ("check", "--static"),
    "fix": ("fix", "--static"),
    "smoke": ("smoke",),
    "env": ("env",),
    "pin": ("pin",),
    "matrix": ("matrix",),
    "scan": ("scan", "{code}"),
    "upgrade": ("upgrade", "--to", "2.21", "{code}"),
    "explain": ("explain", "--here", "{log}"),
    "cluster-smoke": ("cluster", "smoke"),
    "cluster-local": ("cluster", "local"),
}


def _script(tmp_path: Path, name: str, text: str, mode: int = 0o755) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
    return path


def _args(command: str, tmp_path: Path) -> list[str]:
    code = tmp_path / "train.py"
    code.write_text("import tensorflow as tf\n", encoding="utf-8")
    log = tmp_path / "log.txt"
    log.write_text("hello\n", encoding="utf-8")
    return [a.format(code=code, log=log) for a in COMMANDS[command]]


def _one_error_line(out: object, prefix: str) -> str:
    assert getattr(out, "returncode") == 3, getattr(out, "stderr")  # noqa: B009
    assert getattr(out, "stdout") == ""  # noqa: B009
    lines = getattr(out, "stderr").splitlines()  # noqa: B009
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"tfdoctor: error: --python {prefix}"), lines[0]
    return str(lines[0])


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_refuses_a_program_that_is_not_python(command: str, tmp_path: Path) -> None:
    not_python = _script(tmp_path, "python", "#!/bin/sh\necho hello\n")
    out = tfdoctor(*_args(command, tmp_path), "--python", str(not_python))
    line = _one_error_line(out, str(not_python))
    assert line.endswith(
        "not a Python interpreter (printed no Python version when asked for its version)"
    )


@pytest.mark.parametrize("command", ["check", "env", "pin", "matrix", "scan", "explain"])
def test_commands_take_a_real_interpreter(command: str, tmp_path: Path) -> None:
    # The same interpreter under another path: it is asked, answers, and passes the check.
    # (Those that would import TensorFlow or start workers are left out: they take long.)
    link = tmp_path / "bin" / "python3"
    link.parent.mkdir()
    link.symlink_to(sys.executable)
    out = tfdoctor(*_args(command, tmp_path), "--python", str(link), timeout=300)
    assert out.returncode in (0, 2), out.stderr
    assert "tfdoctor: error" not in out.stderr


@pytest.mark.parametrize(
    ("make", "message"),
    [
        pytest.param(lambda p: p / "missing", "no such interpreter", id="missing"),
        pytest.param(lambda p: "no-such-command-tfdoctor", "no such interpreter", id="not-on-path"),
        pytest.param(lambda p: p, "is a directory, not an interpreter", id="directory"),
        pytest.param(
            lambda p: _script(p, "python", "#!/bin/sh\n", 0o644),
            "not executable (no execute permission)",
            id="not-executable",
        ),
        pytest.param(
            lambda p: _script(p, "python", "print('hi')\n"),
            "cannot run it: [Errno 8] Exec format error",
            id="no-shebang",
        ),
        pytest.param(
            lambda p: "/bin/ls",
            "not a Python interpreter (exited with 2 when asked for its version)",
            id="ls",
        ),
        pytest.param(
            lambda p: "true",
            "not a Python interpreter (printed no Python version when asked for its version)",
            id="true-on-path",
        ),
        pytest.param(
            lambda p: "3.11",
            "expected an interpreter (a path, or a command on PATH); a version is not an "
            "interpreter",
            id="a-version",
        ),
    ],
)
def test_what_is_wrong_with_python_is_said_in_one_line(
    make: object, message: str, tmp_path: Path
) -> None:
    value = str(make(tmp_path))  # type: ignore[operator]
    out = tfdoctor("env", "--python", value)
    line = _one_error_line(out, value)
    assert line.startswith(f"tfdoctor: error: --python {value}: {message}")


@pytest.mark.parametrize("command", ["matrix", "pin"])
def test_a_version_given_as_python_points_to_python_version(command: str) -> None:
    out = tfdoctor(command, "--python", "3.11")
    line = _one_error_line(out, "3.11")
    assert line.endswith("for a Python version use --python-version 3.11")


def test_an_interpreter_that_never_answers_fails_within_the_timeout(tmp_path: Path) -> None:
    hangs = _script(tmp_path, "python", "#!/bin/sh\nsleep 1000\n")
    start = time.monotonic()
    out = tfdoctor(
        "check", "--static", "--python", str(hangs), env={"TFDOCTOR_PYTHON_TIMEOUT": "0.5"}
    )
    assert time.monotonic() - start < 20
    line = _one_error_line(out, str(hangs))
    assert line.endswith("did not answer within 0.5 s when asked for its Python version")


@pytest.mark.parametrize("version", ["2.7.18", "3.6.15"])
def test_a_python_older_than_the_child_scripts_support_is_refused(version: str) -> None:
    python = PYENV / version / "bin" / "python"
    if not python.is_file():
        pytest.skip(f"no Python {version} at {python}")
    out = tfdoctor("check", "--static", "--python", str(python))
    line = _one_error_line(out, str(python))
    assert line.endswith(
        f"Python {version} is older than 3.7, the oldest whose environment tfdoctor can examine"
    )


def test_the_oldest_supported_python_is_examined() -> None:
    python = PYENV / "3.7.16" / "bin" / "python"
    if not python.is_file():
        pytest.skip(f"no Python 3.7 at {python}")
    out = tfdoctor("env", "--python", str(python))
    assert out.returncode == 0, out.stderr
    assert "TF_FORCE_GPU_ALLOW_GROWTH" in out.stdout


def test_matrix_asks_the_interpreter_its_version() -> None:
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    by_interpreter = tfdoctor("matrix", "--python", sys.executable, "--platform", "linux", "--json")
    by_version = tfdoctor("matrix", "--python-version", version, "--platform", "linux", "--json")
    assert by_interpreter.returncode == by_version.returncode
    assert by_interpreter.stdout == by_version.stdout != ""


def test_matrix_refuses_python_and_python_version_together() -> None:
    out = tfdoctor("matrix", "--python", sys.executable, "--python-version", "3.11")
    assert out.returncode == 3 and out.stdout == ""
    assert out.stderr == (
        "tfdoctor: error: --python and --python-version both say which Python to ask about\n"
    )


def test_the_pin_header_names_the_new_options(tmp_path: Path) -> None:
    # A target pinned from another interpreter: the header's command reproduces it.
    link = tmp_path / "python"
    link.symlink_to(sys.executable)
    out = tfdoctor("pin", "--python-version", "3.11", "--platform", "linux", "--python", str(link))
    assert out.returncode == 0, out.stderr
    header = next(line for line in out.stdout.splitlines() if "tfdoctor pin" in line)
    assert "--python-version 3.11" in header
    assert header.split("--python ", 1)[1].rstrip().endswith("python")


# --- --format: the same names everywhere, the set per command from one table ----------------

#: Each command that takes --format, as typed, with what it needs to print a report.
FORMAT_COMMANDS = {
    "check": ("check", "--facts", "{facts}"),
    "smoke": ("smoke",),
    "explain": ("explain", "{log}"),
    "scan": ("scan", "{code}", "--target", "2.21"),
    "upgrade": ("upgrade", "--to", "2.21", "--facts", "{facts}", "{code}"),
    "cluster check": ("cluster", "check", "--tf-config", "{tf_config}"),
    "cluster smoke": ("cluster", "smoke"),
    "cluster local": ("cluster", "local"),
    "diff": ("diff", "{report}", "{report}"),
    "fleet": ("fleet", "{report}", "{report}"),
    "matrix": ("matrix",),
    "fix": ("fix", "--list"),
}

#: Those that run TensorFlow kernels or workers: their help is checked, not their output.
SLOW = ("smoke", "cluster smoke", "cluster local")


@pytest.fixture(scope="module")
def format_inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp_path = tmp_path_factory.mktemp("inputs")
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps(to_json(f.facts())), encoding="utf-8")
    report = tmp_path / "report.json"
    report.write_text(tfdoctor("check", "--facts", str(facts), "--json").stdout, "utf-8")
    tf_config = tmp_path / "tf_config.json"
    tf_config.write_text(
        '{"cluster": {"worker": ["localhost:12345"]}, "task": {"type": "worker", "index": 0}}',
        encoding="utf-8",
    )
    code = tmp_path / "train.py"
    code.write_text("import tensorflow as tf\nsess = tf.Session()\n", encoding="utf-8")
    log = tmp_path / "log.txt"
    log.write_text("Could not load dynamic library 'libcudart.so.11.0'\n", encoding="utf-8")
    return {
        "facts": str(facts),
        "report": str(report),
        "tf_config": str(tf_config),
        "code": str(code),
        "log": str(log),
    }


@pytest.mark.parametrize("command", sorted(FORMAT_COMMANDS))
def test_help_offers_the_formats_of_the_table(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = in_process(capsys, *command.split(), "--help")
    assert code == 0
    offered = "|".join(f.value for f in FORMATS[command.split(maxsplit=1)[0]])
    assert f"-f, --format [{offered}]" in out


def table_gaps(table: Iterable[str], formats: Iterable[str]) -> tuple[list[str], list[str]]:
    """(commands with a format option the table lacks, commands in the table without one)."""
    named = {command.split(maxsplit=1)[0] for command in table}
    return sorted(set(formats) - named), sorted(named - set(formats))


def test_the_table_names_every_command_with_a_format_option() -> None:
    assert table_gaps(FORMAT_COMMANDS, FORMATS) == ([], [])
    # Planted: a command with formats the table leaves out, and one the table has in vain.
    assert table_gaps([c for c in FORMAT_COMMANDS if c != "smoke"], FORMATS) == (["smoke"], [])
    assert table_gaps([*FORMAT_COMMANDS, "pin"], FORMATS) == ([], ["pin"])


@pytest.mark.parametrize(
    ("command", "fmt"),
    [
        (command, fmt.value)
        for command in sorted(FORMAT_COMMANDS)
        if command not in SLOW
        for fmt in FORMATS[command.split(maxsplit=1)[0]]
    ],
)
def test_each_offered_format_renders(
    command: str,
    fmt: str,
    format_inputs: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    argv = [a.format(**format_inputs) for a in FORMAT_COMMANDS[command]]
    code, out, err = in_process(capsys, *argv, "--format", fmt)
    assert code in (0, 1, 2), err
    assert out, err
    if fmt in ("json", "sarif"):
        json.loads(out)
    if fmt == "junit":
        assert out.startswith("<?xml"), out[:200]
    if fmt == "github" and command == "scan":
        assert out.startswith("::error file="), out[:200]


def test_scan_github_annotates_each_use_with_its_file_and_line_within_githubs_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    code = tmp_path / "v1.py"
    code.write_text(
        "import tensorflow as tf\n" + "".join(f"s{i} = tf.Session()\n" for i in range(12)),
        encoding="utf-8",
    )
    exit_code, out, _ = in_process(
        capsys, "scan", str(code), "--target", "2.21", "--format", "github"
    )
    assert exit_code == 2
    lines = out.splitlines()
    errors = [line for line in lines if line.startswith("::error ")]
    assert len(errors) == 10  # GitHub shows at most 10 error annotations per step
    assert errors[0].startswith(f"::error file={code},line=2,col=")
    assert any(line.startswith("tfdoctor: 2 more errors not annotated") for line in lines)
