"""Checks on the Jupyter kernel the doctor ran in, against the terminal Jupyter was started from.

They say nothing outside a kernel (``facts.notebook`` is only probed by ``tfdoctor.check()``
and ``%tfdoctor``). What is compared is documented in docs/notebooks.md.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Optional

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, unknown
from tfdoctor.facts import NotebookFacts
from tfdoctor.findings import Finding, Severity
from tfdoctor.hosted import hosted_data
from tfdoctor.matrix import spec_contains

#: The variables whose difference changes what TensorFlow loads or sees.
LOADER_VARS = ("LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES")


def _same_dir(a: str, b: str) -> bool:
    """Two paths name the same directory (symbolic links and ``..`` resolved)."""
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def _describe(nb: NotebookFacts) -> str:
    """The two sides, as the detail of a finding."""
    server = nb.server_environment or {}
    active = [f"{k}={server[k]}" for k in ("VIRTUAL_ENV", "CONDA_PREFIX") if server.get(k)]
    spec = " ".join(nb.kernelspec_argv) or (nb.kernelspec_error or "not read")
    return "\n".join(
        (
            f"Kernel: {nb.kernel_executable} (prefix {nb.kernel_prefix})",
            f"  site-packages: {', '.join(nb.kernel_site_packages) or 'none'}",
            f"  kernelspec {nb.kernel_name or '?'}: {spec}",
            f"Terminal: {nb.terminal_python or '?'} (prefix {nb.terminal_prefix or '?'})",
            f"  site-packages: {', '.join(nb.terminal_site_packages) or 'none'}",
            f"  active environment: {', '.join(active) or 'none'}",
        )
    )


def check_kernel_env(ctx: CheckContext) -> Iterator[Finding]:
    """The kernel runs the environment the terminal's ``python`` and ``pip`` install into."""
    nb = ctx.facts.notebook
    if nb is None:
        return
    if nb.terminal_prefix is None:
        yield unknown("notebook.kernel", "the environment Jupyter was started from")
        return
    if _same_dir(nb.kernel_prefix, nb.terminal_prefix):
        yield Finding(
            "notebook.kernel",
            Severity.OK,
            f"The kernel runs the terminal's environment ({nb.kernel_prefix})",
        )
        return
    yield causes.finding(
        "notebook.kernel",
        Severity.WARNING,
        causes.notebook.KERNEL_ENV_MISMATCH,
        f"The kernel runs {nb.kernel_prefix}, but the terminal's python is "
        f"{nb.terminal_prefix}: packages installed there are not seen here",
        _describe(nb),
        causes.notebook.register_kernel_fix(nb),
    )


def check_kernel_variables(ctx: CheckContext) -> Iterator[Finding]:
    """``LD_LIBRARY_PATH`` and ``CUDA_VISIBLE_DEVICES`` are the same in the kernel and the
    terminal (the loader and CUDA read them once, at start)."""
    nb = ctx.facts.notebook
    if nb is None:
        return
    server = nb.server_environment
    if server is None:
        yield unknown(
            "notebook.variables", "the environment of the process that started the kernel"
        )
        return
    differ = tuple(v for v in LOADER_VARS if nb.kernel_environment.get(v) != server.get(v))
    if not differ:
        yield Finding(
            "notebook.variables",
            Severity.OK,
            "LD_LIBRARY_PATH and CUDA_VISIBLE_DEVICES are the terminal's",
        )
        return
    lines = [
        f"{v}: kernel {_shown(nb.kernel_environment.get(v))}, terminal {_shown(server.get(v))}"
        + (" (set by the kernelspec)" if v in nb.kernelspec_env else "")
        for v in differ
    ]
    yield causes.finding(
        "notebook.variables",
        Severity.WARNING,
        causes.notebook.KERNEL_VARIABLES_DIFFER,
        f"The kernel's {' and '.join(differ)} differ from the terminal's",
        "\n".join(lines),
        causes.notebook.kernel_variables_fix(nb, differ),
    )


def _shown(value: Optional[str]) -> str:
    return "unset" if value is None else repr(value)


def check_kernel_restart(ctx: CheckContext) -> Iterator[Finding]:
    """The TensorFlow the kernel imported is the one installed (else: restart the kernel)."""
    nb, m = ctx.facts.notebook, ctx.machine
    if nb is None or nb.kernel_tensorflow is None:
        return
    if m.tf is None:
        return
    # tf.__version__ and the package's metadata spell one release differently
    # (2.21.0-dev20250801 and 2.21.0.dev20250801): compared as PEP 440 versions.
    same = spec_contains(nb.kernel_tensorflow, f"=={m.tf.version}")
    if same or (same is None and m.tf.version == nb.kernel_tensorflow):
        return
    image = hosted_data().image(ctx.facts.hosted.name if ctx.facts.hosted else None)
    yield causes.finding(
        "notebook.restart",
        Severity.WARNING,
        causes.notebook.KERNEL_RESTART_NEEDED,
        f"The kernel runs TensorFlow {nb.kernel_tensorflow}, imported before "
        f"{m.tf.name} {m.tf.version} was installed",
        "",
        causes.notebook.restart_fix(image.restart if image is not None else None),
    )
