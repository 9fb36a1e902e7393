"""Checks on the examined Python interpreter."""

from __future__ import annotations

from collections.abc import Iterator

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, fix, unknown
from tfdoctor.findings import Finding, Severity


def check_bits(ctx: CheckContext) -> Iterator[Finding]:
    """TensorFlow publishes 64-bit wheels only, so 32-bit Python finds no wheel at all."""
    py = ctx.facts.python
    if py is None:
        yield unknown("python.bits", "the Python interpreter", ctx.facts.error_for("python"))
        return
    if py.bits != 64:
        yield Finding(
            "python.bits",
            Severity.ERROR,
            cause=causes.platform.PYTHON_32BIT,
            summary=f"{py.bits}-bit Python {py.version}: TensorFlow ships 64-bit wheels only",
            detail="pip answers 'No matching distribution found for tensorflow' on a 32-bit "
            "interpreter, because no 32-bit wheel exists for any platform.",
            fix=causes.platform.python_64bit_fix(ctx.machine),
            links=("https://www.tensorflow.org/install/pip",),
        )
        return
    yield Finding("python.bits", Severity.OK, f"{py.implementation} {py.version}, {py.bits}-bit")


def check_environment(ctx: CheckContext) -> Iterator[Finding]:
    """Installing TensorFlow into a global interpreter mixes its pins with everything else."""
    py = ctx.facts.python
    if py is None:
        yield unknown("python.environment", "the Python environment", ctx.facts.error_for("python"))
        return
    if py.env_kind in ("venv", "virtualenv", "conda"):
        yield Finding(
            "python.environment", Severity.OK, f"{py.env_kind} environment at {py.prefix}"
        )
        return
    where = "the system's" if py.env_kind == "system" else "a global"
    yield Finding(
        "python.environment",
        Severity.INFO,
        f"Python runs from {where} interpreter ({py.prefix}), not a virtual environment",
        "TensorFlow pins numpy, protobuf, keras and the CUDA wheels; in a shared "
        "interpreter those pins fight other projects' (and the OS's) packages.",
        fix(
            "Create a virtual environment and install TensorFlow inside it.",
            f"{py.executable} -m venv .venv",
            ". .venv/bin/activate",
            "python -m pip install tensorflow",
        ),
        ("https://docs.python.org/3/library/venv.html",),
    )
