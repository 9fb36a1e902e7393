"""The Jupyter kernel the doctor runs in, and the environment Jupyter was started from.

A kernel inherits the environment of the process that started it (the Jupyter server, or
VS Code's), not of the user's shell, and runs whatever interpreter its kernelspec's ``argv``
names. So "the terminal's environment" is read from the process that started the kernel:
``JPY_PARENT_PID``, which jupyter_client sets in every kernel it launches on POSIX
(``jupyter_client/launcher.py``; on Windows it holds a handle, not a pid), else the parent
process, read with psutil. What is recorded for the comparison:

- the kernel's ``sys.executable``, ``sys.prefix`` and site-packages;
- the kernel's name (its connection file's ``kernel_name``, jupyter_client's
  ``connect.write_connection_file``) and the kernelspec's ``argv`` and ``env``
  (``jupyter_client.kernelspec``, when importable: every kernel has it);
- ``VIRTUAL_ENV``, ``CONDA_PREFIX``, ``PATH``, ``LD_LIBRARY_PATH`` and
  ``CUDA_VISIBLE_DEVICES`` in the kernel and in the server's environment;
- the ``python`` first on the server's ``PATH``, run once to report its ``sys.prefix`` and
  site-packages: the interpreter a ``pip install`` typed in that terminal went to.

Only the kernel's own process can be probed this way: it runs in-process (``tfdoctor.check()``,
``%tfdoctor``), never for another interpreter.
"""

from __future__ import annotations

import json
import os
import site
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

from tfdoctor.bounded import parse_json
from tfdoctor.facts import NotebookFacts
from tfdoctor.probes._run import Runner, run_command

#: The variables compared between the kernel and the server.
COMPARED_VARS = ("CONDA_PREFIX", "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "PATH", "VIRTUAL_ENV")
#: Names of the interpreter looked for on the server's PATH, in each directory in turn.
PYTHON_NAMES = ("python", "python3")
#: What the terminal's interpreter is asked: its prefix and its site-packages.
TERMINAL_SCRIPT = (
    "import json, site, sys\n"
    "dirs = list(getattr(site, 'getsitepackages', lambda: [])())\n"
    "user = site.getusersitepackages() if site.ENABLE_USER_SITE else None\n"
    "print(json.dumps({'prefix': sys.prefix, 'site': dirs + ([user] if user else [])}))\n"
)


def connection_file(argv: Sequence[str]) -> Optional[str]:
    """The connection file a kernel was started with (``-f FILE`` or ``--f=FILE``)."""
    for i, arg in enumerate(argv):
        if arg == "-f" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(("--f=", "-f=")):
            return arg.split("=", 1)[1]
    return None


def parse_connection(text: str) -> Optional[str]:
    """The kernel's name from a connection file's JSON; None when it names none."""
    try:
        data = parse_json(text, "connection file", "a kernel connection file")
    except ValueError:
        return None
    name = data.get("kernel_name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name else None


def read_kernelspec(name: str) -> tuple[tuple[str, ...], dict[str, str], Optional[str]]:
    """(argv, env, error) of the kernelspec called ``name``, through jupyter_client."""
    try:
        # Optional: every kernel has it, the doctor's own environment need not (nor its stubs).
        from jupyter_client.kernelspec import (  # type: ignore[import-not-found,unused-ignore]  # noqa: PLC0415
            KernelSpecManager,
        )
    except ImportError:
        return (), {}, "jupyter_client is not importable in the kernel"
    try:
        spec = KernelSpecManager().get_kernel_spec(name)
    except Exception as exc:  # NoSuchKernel, or a kernel.json that does not parse
        return (), {}, f"kernelspec {name!r}: {type(exc).__name__}: {exc}"
    env = {str(k): str(v) for k, v in (spec.env or {}).items()}
    return tuple(str(a) for a in spec.argv), env, None


def server_pid(env: Mapping[str, str]) -> Optional[int]:
    """The process that started the kernel: ``JPY_PARENT_PID`` on POSIX, else the parent."""
    raw = env.get("JPY_PARENT_PID", "") if os.name == "posix" else ""
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    parent = os.getppid()
    return parent if parent > 1 else None


def read_server(pid: int) -> tuple[tuple[str, ...], Optional[dict[str, str]]]:
    """(command line, compared variables) of process ``pid``; the environment None if unreadable."""
    import psutil  # noqa: PLC0415 - a dependency, loaded only for a kernel

    try:
        proc = psutil.Process(pid)
        command = tuple(proc.cmdline())
    except (psutil.Error, OSError):
        return (), None
    try:
        environ = proc.environ()
    except (psutil.Error, OSError):
        return command, None
    return command, selected(environ)


def selected(env: Mapping[str, str]) -> dict[str, str]:
    """The compared variables of ``env`` that are set."""
    return {k: env[k] for k in COMPARED_VARS if k in env}


def first_python(path: str) -> Optional[str]:
    """The interpreter a shell with this ``PATH`` runs for ``python`` (else ``python3``)."""
    for folder in path.split(os.pathsep):
        for name in PYTHON_NAMES:
            candidate = Path(folder or ".") / name
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
    return None


def parse_terminal(stdout: str) -> Optional[tuple[str, tuple[str, ...]]]:
    """(prefix, site-packages) from :data:`TERMINAL_SCRIPT`'s output; None when malformed."""
    try:
        data: Any = json.loads(stdout.strip().splitlines()[-1]) if stdout.strip() else None
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("prefix"), str):
        return None
    dirs = data.get("site")
    return data["prefix"], tuple(str(d) for d in dirs) if isinstance(dirs, list) else ()


def probe_notebook(
    env: Mapping[str, str],
    runner: Runner = run_command,
    argv: Sequence[str] = (),
    timeout: float = 15.0,
) -> NotebookFacts:
    """The kernel this process is, and the terminal environment it was started from.

    ``argv`` is the kernel's command line (``sys.argv``), where its connection file is named.
    """
    kernel_name = None
    conn = connection_file(argv)
    if conn is not None:
        try:
            kernel_name = parse_connection(Path(conn).read_text(encoding="utf-8"))
        except OSError:
            kernel_name = None
    spec_argv: tuple[str, ...] = ()
    spec_env: dict[str, str] = {}
    spec_error: Optional[str] = "the kernel's connection file names no kernelspec"
    if kernel_name is not None:
        spec_argv, spec_env, spec_error = read_kernelspec(kernel_name)
    pid = server_pid(env)
    command, server_env = read_server(pid) if pid is not None else ((), None)
    path = (server_env if server_env is not None else env).get("PATH", "")
    terminal = first_python(path)
    prefix: Optional[str] = None
    site_dirs: tuple[str, ...] = ()
    error: Optional[str] = None if terminal is not None else "no python on the server's PATH"
    if terminal is not None:
        result = runner([terminal, "-c", TERMINAL_SCRIPT], dict(env), timeout)
        parsed = parse_terminal(result.stdout) if result.returncode == 0 else None
        if parsed is None:
            tail = (result.start_error or result.stderr or "no output").strip()[-300:]
            error = f"{terminal} did not report its prefix: {tail}"
        else:
            prefix, site_dirs = parsed
    user = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    return NotebookFacts(
        kernel_executable=sys.executable,
        kernel_prefix=sys.prefix,
        # virtualenv before 20 gave its site module no getsitepackages().
        kernel_site_packages=(
            *(site.getsitepackages() if hasattr(site, "getsitepackages") else ()),
            *([user] if user else []),
        ),
        kernel_name=kernel_name,
        kernelspec_argv=spec_argv,
        kernelspec_env=spec_env,
        kernelspec_error=spec_error,
        server_pid=pid,
        server_command=command,
        kernel_environment=selected(env),
        server_environment=server_env,
        terminal_python=terminal,
        terminal_prefix=prefix,
        terminal_site_packages=site_dirs,
        terminal_error=error,
        kernel_tensorflow=imported_tensorflow(),
    )


def imported_tensorflow() -> Optional[str]:
    """The version of the TensorFlow this process already imported; None when not imported.

    Read from ``sys.modules`` only: the doctor never imports TensorFlow itself.
    """
    module = sys.modules.get("tensorflow")
    version = getattr(module, "__version__", None) if module is not None else None
    return version if isinstance(version, str) else None
