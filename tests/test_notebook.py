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
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tfdoctor.cli.notebook import NotebookReport, check
from tfdoctor.facts import Facts, NotebookFacts
from tfdoctor.findings import Finding, Report, Severity

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

CELLS = (
    "%load_ext tfdoctor",
    "%tfdoctor --static notebook.kernel notebook.variables",
    "%tfdoctor --json",
    "import json, tfdoctor\n"
    "r = tfdoctor.check('notebook.kernel', 'notebook.variables', static=True)\n"
    "print(json.dumps([[f.id, f.severity.value, f.cause, f.fix.commands if f.fix else []]"
    " for f in r.findings]))",
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


def _other_venv(tmp_path: Path) -> Path:
    """A second virtual environment that imports what this interpreter imports (a .pth file
    naming this interpreter's path), so that ipykernel and tfdoctor run in it."""
    venv = tmp_path / "other-env"
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


def _run_notebook(tmp_path: Path, kernel: str) -> list[dict[str, Any]]:
    """Each cell's outputs after the server ran the notebook on ``kernel``."""
    import_paths = [p for p in sys.path if p and Path(p).is_dir()]
    env = {
        **os.environ,
        # The terminal's python comes first on the server's PATH.
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        "JUPYTER_PATH": str(tmp_path / "jupyter"),
        "JUPYTER_DATA_DIR": str(tmp_path / "data"),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTER_PLATFORM_DIRS": "1",
        "PYTHONPATH": os.pathsep.join(import_paths),
        "LD_LIBRARY_PATH": "/opt/terminal/lib",
    }
    env.pop("VIRTUAL_ENV", None)
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "metadata": {},
                "source": c,
                "outputs": [],
                "execution_count": None,
            }
            for c in CELLS
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
    cells: list[dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))["cells"]
    return [{"outputs": c["outputs"]} for c in cells]


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
    other = _other_venv(tmp_path)
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
