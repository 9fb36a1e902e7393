"""``%tfdoctor`` and ``tfdoctor.check()`` on a real Jupyter kernel, run by nbclient.

A "server" process plays the Jupyter server started from a terminal: its PATH leads with the
test's interpreter, as an activated environment's would. It runs a notebook on a kernel whose
kernelspec (in a temporary JUPYTER_PATH) names either that same interpreter, or the python of
a second virtual environment: the kernel then runs another environment than the terminal's.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tfdoctor.cli.notebook import NotebookReport, check
from tfdoctor.evidence.traceback import interpreter_prefix, interpreters
from tfdoctor.facts import Facts, NotebookFacts
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.probes.notebook import (
    connection_file,
    first_python,
    parse_connection,
    parse_terminal,
    probe_notebook,
    read_server,
    server_pid,
)

#: Plays the Jupyter server: runs a notebook on a kernel with nbclient, writes the result.
SERVER = textwrap.dedent(
    """
    import sys
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(sys.argv[1], as_version=4)
    NotebookClient(nb, kernel_name=sys.argv[2], timeout=120, allow_errors=True).execute()
    nbformat.write(nb, sys.argv[3])
    """
)

#: Prints the kernel checks' findings as JSON: ``[[id, severity, cause, fix commands], ...]``.
CHECK_CELL = (
    "import json, tfdoctor\n"
    "r = tfdoctor.check('notebook.kernel', 'notebook.variables', static=True)\n"
    "print(json.dumps([[f.id, f.severity.value, f.cause, f.fix.commands if f.fix else [],"
    " f.fix.text if f.fix else ''] for f in r.findings]))"
)

CELLS = (
    "%load_ext tfdoctor",
    "%tfdoctor --static --verbose notebook.kernel notebook.variables",
    "%tfdoctor --json",
    CHECK_CELL,
)


def _require_jupyter() -> None:
    """nbclient and ipykernel (the ``test`` extra): a skip locally, a failure in CI."""
    missing = [m for m in ("nbclient", "ipykernel") if importlib.util.find_spec(m) is None]
    if missing and os.environ.get("CI") != "true":
        pytest.skip(f"needs {', '.join(missing)} (pip install -e .[test])")
    assert not missing, f"CI must install the test extra: {missing} missing"


def _kernelspec(jupyter: Path, name: str, python: str, env: dict[str, str]) -> None:
    folder = jupyter / "kernels" / name
    folder.mkdir(parents=True)
    spec = {
        "argv": [python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": name,
        "language": "python",
        "env": env,
    }
    (folder / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")


def _venv(venv: Path) -> Path:
    """A virtual environment at ``venv`` that imports what this interpreter imports (a .pth
    file naming this interpreter's path), so that pip, ipykernel and tfdoctor run in it; its
    python."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120
    )
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.strip()
    paths = [p for p in sys.path if p and Path(p).is_dir()]
    (Path(purelib) / "parent-env.pth").write_text("\n".join(paths) + "\n", encoding="utf-8")
    return python


def _jupyter_env(tmp_path: Path, terminal: Path) -> dict[str, str]:
    """The environment of a Jupyter server started from a terminal whose PATH leads with
    ``terminal`` (a bin folder): Jupyter's folders, IPython's and the home are temporary."""
    import_paths = [p for p in sys.path if p and Path(p).is_dir()]
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(terminal), os.environ.get("PATH", "")]),
        "HOME": str(tmp_path / "home"),
        "IPYTHONDIR": str(tmp_path / "ipython"),
        "JUPYTER_PATH": str(tmp_path / "jupyter"),
        "JUPYTER_DATA_DIR": str(tmp_path / "data"),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTER_PLATFORM_DIRS": "1",
        "PYTHONPATH": os.pathsep.join(import_paths),
        "LD_LIBRARY_PATH": "/opt/terminal/lib",
    }
    for name in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        env.pop(name, None)
    return env


def _run_notebook(
    tmp_path: Path,
    kernel: str,
    terminal: Path = Path(sys.executable).parent,
    cells: tuple[str, ...] = CELLS,
) -> list[dict[str, Any]]:
    """Each cell's outputs after the server, started from a terminal whose PATH leads with
    ``terminal``, ran the notebook on ``kernel``."""
    env = _jupyter_env(tmp_path, terminal)
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "metadata": {},
                "source": c,
                "outputs": [],
                "execution_count": None,
            }
            for c in cells
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    src, out = tmp_path / f"{kernel}.ipynb", tmp_path / f"{kernel}.out.ipynb"
    src.write_text(json.dumps(nb), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", SERVER, str(src), kernel, str(out)],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    ran: list[dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))["cells"]
    return [{"outputs": c["outputs"]} for c in ran]


def _text(outputs: list[dict[str, Any]], kind: str) -> str:
    """The text of a cell's outputs of ``kind`` (``stdout``, ``stderr``, ``text/html``)."""
    parts = []
    for o in outputs:
        if o["output_type"] == "stream" and o["name"] == kind:
            parts.append(o["text"])
        data = o.get("data", {})
        if kind in data:
            parts.append(data[kind])
    return "".join("".join(p) if isinstance(p, list) else p for p in parts)


@pytest.fixture
def jupyter(tmp_path: Path) -> Path:
    _require_jupyter()
    return tmp_path / "jupyter"


def test_a_kernel_of_the_terminals_environment_passes(tmp_path: Path, jupyter: Path) -> None:
    _kernelspec(jupyter, "same-env", sys.executable, {})

    cells = _run_notebook(tmp_path, "same-env")

    assert _text(cells[0]["outputs"], "stderr") == ""
    html = _text(cells[1]["outputs"], "text/html")
    assert html.startswith('<pre class="tfdoctor-report">') and "notebook" in html
    assert "tfdoctor: error: %tfdoctor does not take --json" in _text(cells[2]["outputs"], "stderr")
    assert not any(o["output_type"] == "error" for c in cells for o in c["outputs"])
    found = {f[0]: f for f in json.loads(_text(cells[3]["outputs"], "stdout"))}
    assert found["notebook.kernel"][1] == "ok"
    assert found["notebook.variables"][1] == "ok"


def test_a_kernel_of_another_environment_is_named_with_its_fix(
    tmp_path: Path, jupyter: Path
) -> None:
    other = _venv(tmp_path / "other-env")
    _kernelspec(jupyter, "other-env", str(other), {"LD_LIBRARY_PATH": "/opt/kernel-only/lib"})

    cells = _run_notebook(tmp_path, "other-env")

    found = {f[0]: f for f in json.loads(_text(cells[3]["outputs"], "stdout"))}
    kernel, variables = found["notebook.kernel"], found["notebook.variables"]
    assert kernel[1:3] == ["warning", "kernel-env-mismatch"]
    terminal = str(Path(sys.executable).parent / "python")
    assert any(
        "-m ipykernel install --user --name" in cmd and cmd.startswith(terminal)
        for cmd in kernel[3]
    ), kernel
    assert variables[1:3] == ["warning", "kernel-variables-differ"]
    html = _text(cells[1]["outputs"], "text/html")
    assert "kernel-env-mismatch" in html and "/opt/kernel-only/lib" in html
    assert "Notebook kernel and terminal" in html and f"prefix {other.parent.parent}" in html


@pytest.mark.skipif(os.name == "nt", reason="the fix's commands are POSIX shell")
def test_the_fix_for_a_kernel_of_another_environment_makes_the_kernel_match(
    tmp_path: Path, jupyter: Path
) -> None:
    """Kernel registered from environment A, terminal in environment B: the fix's commands,
    run as printed, register B, and the notebook run again on the kernel the fix names
    matches the terminal."""
    env_a, env_b = _venv(tmp_path / "env-a"), _venv(tmp_path / "Env-B")
    terminal = _jupyter_env(tmp_path, env_b.parent)
    # Nothing reaches an index: B imports ipykernel already (its .pth), as after a first install.
    offline = {**terminal, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    subprocess.run(
        [str(env_a), "-m", "ipykernel", "install", "--user", "--name", "env-a"],
        env=terminal,
        check=True,
        capture_output=True,
        timeout=120,
    )

    (cell,) = _run_notebook(tmp_path, "env-a", env_b.parent, (CHECK_CELL,))

    found = {f[0]: f for f in json.loads(_text(cell["outputs"], "stdout"))}
    assert found["notebook.kernel"][1:3] == ["warning", "kernel-env-mismatch"]
    assert found["notebook.variables"][1] == "ok"
    commands, text = found["notebook.kernel"][3], found["notebook.kernel"][4]
    assert commands and all(str(env_b) in c for c in commands), commands
    for command in commands:  # exactly as the fix prints them, in a shell
        done = subprocess.run(
            ["/bin/sh", "-c", command],
            env=offline,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-2000:])
    argv = shlex.split(commands[-1])
    named = argv[argv.index("--name") + 1]
    assert f"kernel {named!r}" in text, text
    # Registered where Jupyter looks (the temporary data folder), for B's interpreter.
    spec = json.loads((tmp_path / "data" / "kernels" / named / "kernel.json").read_text("utf-8"))
    assert Path(spec["argv"][0]) == env_b

    (again,) = _run_notebook(tmp_path, named, env_b.parent, (CHECK_CELL,))

    after = {f[0]: f for f in json.loads(_text(again["outputs"], "stdout"))}
    assert after["notebook.kernel"][1:3] == ["ok", ""], after["notebook.kernel"]


# --- the report object and the checks, without a kernel ------------------------------------


def _nb(**changes: Any) -> NotebookFacts:
    base: dict[str, Any] = {
        "kernel_executable": "/envs/a/bin/python",
        "kernel_prefix": "/envs/a",
        "kernel_name": "a",
        "server_environment": {"PATH": "/envs/b/bin:/usr/bin"},
        "kernel_environment": {"PATH": "/envs/b/bin:/usr/bin"},
        "terminal_python": "/envs/b/bin/python",
        "terminal_prefix": "/envs/b",
    }
    base.update(changes)
    return NotebookFacts(**base)


def test_the_report_shows_escaped_redacted_html_and_plain_text() -> None:
    secret = "hf_" + "a" * 34
    facts = Facts("0.1.0", "2026-01-01T00:00:00+00:00")
    finding = Finding("notebook.kernel", Severity.WARNING, f"<b>bold</b> token {secret}")
    report = NotebookReport(Report(facts=facts, findings=(finding,)))

    html = report._repr_html_()

    assert "&lt;b&gt;bold&lt;/b&gt;" in html and "<b>" not in html
    assert secret not in html and secret not in str(report) and secret not in repr(report)
    assert "notebook.kernel" in str(report) and report.exit_code == 0


def test_outside_a_kernel_check_examines_python_without_notebook_facts() -> None:
    report = check("python.bits", static=True)

    assert report.facts.notebook is None
    assert [f.id for f in report.findings] == ["python.bits"]


@pytest.mark.parametrize(
    ("nb", "expected"),
    [
        pytest.param(_nb(), ("warning", "kernel-env-mismatch"), id="other-env"),
        pytest.param(
            _nb(terminal_prefix="/envs/a", terminal_python="/envs/a/bin/python"),
            ("ok", ""),
            id="same-env",
        ),
        pytest.param(
            _nb(terminal_prefix=None, terminal_error="no python on the server's PATH"),
            ("unknown", ""),
            id="terminal-unknown",
        ),
    ],
)
def test_kernel_env_check(nb: NotebookFacts, expected: tuple[str, str]) -> None:
    from tfdoctor.checks._context import CheckContext
    from tfdoctor.checks.notebook import check_kernel_env

    facts = Facts("0.1.0", "2026-01-01T00:00:00+00:00", notebook=nb)
    (found,) = check_kernel_env(CheckContext(facts))

    assert (found.severity.value, found.cause) == expected


@pytest.mark.parametrize(
    ("prefix", "name", "display"),
    [
        pytest.param("/envs/Env-B", "env-b", "'Python (Env-B)'", id="upper-case"),
        pytest.param("/home/me/proj/.venv", "venv", "'Python (venv)'", id="dot-venv"),
        pytest.param("/envs/tf 2.20", "tf-2.20", "'Python (tf-2.20)'", id="space"),
    ],
)
def test_the_kernel_fix_names_the_kernel_as_jupyter_stores_it(
    prefix: str, name: str, display: str
) -> None:
    from tfdoctor.causes.notebook import register_kernel_fix

    fix = register_kernel_fix(_nb(terminal_prefix=prefix, terminal_python=f"{prefix}/bin/python"))

    # ipykernel's install, then the registration: one command a line (PowerShell 5 has no &&).
    install, command = fix.commands
    assert install.endswith("-m pip install ipykernel")
    assert f"--name {name} --display-name {display}" in command
    assert f"choose the kernel {name!r}" in fix.text


def test_a_tensorflow_imported_before_an_install_asks_for_a_restart() -> None:
    from tests import factories as f
    from tfdoctor.checks._context import CheckContext
    from tfdoctor.checks.notebook import check_kernel_restart

    pkg = f.pkg("tensorflow", "2.20.0")
    facts = Facts(
        "0.1.0",
        "2026-01-01T00:00:00+00:00",
        packages=(pkg,),
        notebook=_nb(kernel_tensorflow="2.19.0"),
    )
    (found,) = check_kernel_restart(CheckContext(facts))

    assert found.cause == "kernel-restart-needed" and "2.19.0" in found.summary
    same = Facts("0.1.0", "x", packages=(pkg,), notebook=_nb(kernel_tensorflow="2.20.0"))
    assert list(check_kernel_restart(CheckContext(same))) == []
    # tf.__version__ spells a nightly or a release candidate otherwise than its metadata.
    for installed, imported in (
        ("2.21.0.dev20250801", "2.21.0-dev20250801"),
        ("2.20.0rc0", "2.20.0-rc0"),
    ):
        spelt = Facts(
            "0.1.0",
            "x",
            packages=(f.pkg("tf-nightly", installed),),
            notebook=_nb(kernel_tensorflow=imported),
        )
        assert list(check_kernel_restart(CheckContext(spelt))) == [], installed


# --- the probe's readers and parsers ---------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        pytest.param(["ipykernel_launcher.py", "-f", "/run/k-1.json"], "/run/k-1.json", id="-f"),
        pytest.param(["ipykernel_launcher.py", "--f=/run/k-2.json"], "/run/k-2.json", id="--f="),
        pytest.param(["python", "script.py"], None, id="not-a-kernel"),
    ],
)
def test_connection_file_is_read_from_the_kernels_command_line(
    argv: list[str], expected: str | None
) -> None:
    assert connection_file(argv) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            '{"shell_port": 5, "key": "k", "kernel_name": "py311", "transport": "tcp"}',
            "py311",
            id="jupyter-client-8",
        ),
        pytest.param('{"shell_port": 5, "key": "k"}', None, id="no-name"),
        pytest.param("{not json", None, id="malformed"),
    ],
)
def test_parse_connection(text: str, expected: str | None) -> None:
    assert parse_connection(text) == expected


@pytest.mark.parametrize(
    ("stdout", "expected"),
    [
        pytest.param(
            '{"prefix": "/envs/t", "site": ["/envs/t/lib/python3.12/site-packages"]}\n',
            ("/envs/t", ("/envs/t/lib/python3.12/site-packages",)),
            id="plain",
        ),
        pytest.param(
            'a .pth printed this\n{"prefix": "/usr", "site": []}\n', ("/usr", ()), id="noise-first"
        ),
        pytest.param("", None, id="empty"),
        pytest.param('{"site": []}', None, id="no-prefix"),
    ],
)
def test_parse_terminal(stdout: str, expected: tuple[str, tuple[str, ...]] | None) -> None:
    assert parse_terminal(stdout) == expected


def _executable(path: Path, text: str = "#!/bin/sh\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)
    return path


@pytest.mark.skipif(os.name == "nt", reason="POSIX executables")
def test_first_python_looks_in_each_directory_in_turn(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "python").write_text("not executable", encoding="utf-8")
    b3 = _executable(tmp_path / "b" / "python3")
    _executable(tmp_path / "c" / "python")
    path = os.pathsep.join(str(tmp_path / d) for d in ("a", "b", "c"))

    assert first_python(path) == str(b3)
    assert first_python(str(tmp_path / "nowhere")) is None


def test_the_server_is_jpy_parent_pid_else_the_parent() -> None:
    # A process whose parent ended is adopted by init (pid 1), which started no kernel.
    parent = os.getppid() if os.getppid() > 1 else None
    assert server_pid({"JPY_PARENT_PID": "4242"}) == (4242 if os.name == "posix" else parent)
    assert server_pid({"JPY_PARENT_PID": "junk"}) == parent


def test_read_server_reads_a_real_process() -> None:
    command, environ = read_server(os.getpid())

    assert command and environ is not None and "PATH" in environ
    assert read_server(2**22 + 12345) == ((), None)  # no such process


@pytest.mark.skipif(os.name != "posix", reason="JPY_PARENT_PID is a pid on POSIX")
@pytest.mark.parametrize(
    ("script", "prefix", "error"),
    [
        pytest.param(
            'echo \'{"prefix": "/envs/t", "site": ["/envs/t/site"]}\'',
            "/envs/t",
            None,
            id="answers",
        ),
        pytest.param("echo boom >&2; exit 1", None, "boom", id="fails"),
    ],
)
def test_probe_asks_the_python_on_the_servers_path(
    tmp_path: Path, script: str, prefix: str | None, error: str | None
) -> None:
    _executable(tmp_path / "bin" / "python", f"#!/bin/sh\n{script}\n")
    # A real process plays the server, started with the terminal's PATH.
    server = subprocess.Popen(
        [sys.executable, "-c", "import time; print('up', flush=True); time.sleep(60)"],
        env={**os.environ, "PATH": str(tmp_path / "bin"), "LD_LIBRARY_PATH": "/opt/t"},
        stdout=subprocess.PIPE,
        text=True,
    )
    # Until the child has started Python, /proc/PID/environ is still the parent's (between
    # fork and exec): read it only once the child speaks.
    assert server.stdout is not None and server.stdout.readline() == "up\n"
    try:
        nb = probe_notebook({"JPY_PARENT_PID": str(server.pid), "PATH": "/usr/bin"}, argv=())
    finally:
        server.kill()
        server.wait()
        server.stdout.close()

    assert nb.server_pid == server.pid and nb.server_environment is not None
    assert nb.server_environment["LD_LIBRARY_PATH"] == "/opt/t"
    assert nb.terminal_python == str(tmp_path / "bin" / "python")
    assert nb.terminal_prefix == prefix
    assert (error or "") in (nb.terminal_error or "") and (nb.terminal_error is None) == (
        error is None
    )
    assert nb.kernel_executable == sys.executable and nb.kernel_environment == {"PATH": "/usr/bin"}


@pytest.mark.parametrize(
    ("nb", "expected", "shown"),
    [
        pytest.param(_nb(), ("ok", ""), "", id="same"),
        pytest.param(
            _nb(
                kernel_environment={"CUDA_VISIBLE_DEVICES": "1"},
                kernelspec_env={"CUDA_VISIBLE_DEVICES": "1"},
            ),
            ("warning", "kernel-variables-differ"),
            "CUDA_VISIBLE_DEVICES: kernel '1', terminal unset (set by the kernelspec)",
            id="kernelspec-env",
        ),
        pytest.param(_nb(server_environment=None), ("unknown", ""), "", id="server-unreadable"),
    ],
)
def test_kernel_variables_check(nb: NotebookFacts, expected: tuple[str, str], shown: str) -> None:
    from tfdoctor.checks._context import CheckContext
    from tfdoctor.checks.notebook import check_kernel_variables

    facts = Facts("0.1.0", "2026-01-01T00:00:00+00:00", notebook=nb)
    (found,) = check_kernel_variables(CheckContext(facts))

    assert (found.severity.value, found.cause) == expected
    assert shown in found.detail


def test_the_extension_loads_without_importing_ipython_or_the_doctor() -> None:
    code = (
        "import sys, tfdoctor\n"
        "registered = []\n"
        "class Shell:\n"
        "    def register_magic_function(self, func, magic_kind, magic_name):\n"
        "        registered.append((magic_kind, magic_name, func.__name__))\n"
        "assert 'tfdoctor.doctor' not in sys.modules\n"
        "tfdoctor.load_ipython_extension(Shell())\n"
        "loaded = [m for m in ('IPython', 'ipykernel', 'tensorflow') if m in sys.modules]\n"
        "print(registered, loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )

    assert done.stdout.strip() == "[('line', 'tfdoctor', 'magic')] []"


def test_interpreters_a_log_names_and_their_environments() -> None:
    text = (
        "$ which python\n/home/me/anaconda3/envs/tf/bin/python\n"
        "'C:\\\\Users\\\\me\\\\anaconda3\\\\python.exe'\n"
        "/usr/lib/python3.8/site-packages/x.py /usr/bin/python3-config /usr/bin/python3.8\n"
        "/home/me/anaconda3/envs/tf/bin/python\n"
    )
    found = interpreters(text)
    assert found == [
        "/home/me/anaconda3/envs/tf/bin/python",
        "C:\\Users\\me\\anaconda3\\python.exe",
        "/usr/bin/python3.8",
    ]
    assert [interpreter_prefix(p) for p in found] == [
        "/home/me/anaconda3/envs/tf",
        "C:\\Users\\me\\anaconda3",
        "/usr",
    ]
