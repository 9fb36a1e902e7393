"""``cuInit(0)`` through the CUDA driver library, in a child of the examined interpreter.

TensorFlow's first GPU step is the same call (its log then says "failed call to cuInit:
CUDA_ERROR_..."); making it without TensorFlow tells a driver problem from a TensorFlow one
in about the time one interpreter takes to start. :func:`read_cuinit` runs
``child/cuinit_child.py``; :func:`parse_cuinit_result` turns what it left behind into facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from tfdoctor.facts import CuInitFacts
from tfdoctor.probes._run import (
    ChildFailure,
    CommandResult,
    Runner,
    child_report,
    child_script,
    run_command,
)
from tfdoctor.probes.nvidia import cuda_version_from_int

PROBE = "cuinit"
CHILD = "cuinit_child.py"


def probe_cuinit(
    python: str,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    timeout: float = 15.0,
) -> CuInitFacts:
    """What ``cuInit(0)`` returns in ``python`` with ``env``; never raises."""
    return parse_cuinit_result(read_cuinit(python, env, runner, timeout), timeout)


def read_cuinit(
    python: str,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    timeout: float = 15.0,
) -> CommandResult:
    """Run the cuInit child script with ``python``."""
    return runner(cuinit_argv(python), env, timeout)


def cuinit_argv(python: str) -> list[str]:
    """The cuInit child's command in ``python`` (the examined interpreter's environment)."""
    return [python, child_script(CHILD)]


def parse_cuinit_result(result: CommandResult, timeout: float) -> CuInitFacts:
    """Facts from a finished (or killed) cuInit child."""
    doc = child_report(result, "cuInit", timeout)
    if isinstance(doc, ChildFailure):
        tail = result.stderr_tail().splitlines() if doc.status == "child-error" else []
        return CuInitFacts(
            status=doc.status, message=doc.message + (f": {tail[-1]}" if tail else "")
        )
    return parse_cuinit_doc(doc)


def parse_cuinit_doc(doc: Mapping[str, Any]) -> CuInitFacts:
    """Facts from the JSON document ``cuinit_child.py`` prints."""
    library = _opt_str(doc.get("path")) or _opt_str(doc.get("library"))
    if not doc.get("loaded"):
        return CuInitFacts(
            status="no-library", library=library, message=_opt_str(doc.get("load_error"))
        )
    if doc.get("failure"):
        return CuInitFacts(status="child-error", library=library, message=str(doc["failure"]))
    code = _opt_int(doc.get("code"))
    if code is None:
        return CuInitFacts(
            status="child-error", library=library, message="the cuInit child reported no code"
        )
    name = _opt_str(doc.get("name"))
    driver_cuda = cuda_version_from_int(doc.get("driver_version"))
    if code != 0:
        return CuInitFacts(
            status="error",
            code=code,
            name=name,
            library=library,
            driver_cuda=driver_cuda,
            message=f"cuInit(0) returned {name or 'an unnamed error'} ({code})",
        )
    count_code = _opt_int(doc.get("count_code"))
    return CuInitFacts(
        status="ok",
        code=0,
        name=name,
        library=library,
        driver_cuda=driver_cuda,
        device_count=_opt_int(doc.get("device_count")),
        message=None if not count_code else f"cuDeviceGetCount returned {count_code}",
    )


def _opt_str(value: object) -> Optional[str]:
    return value if isinstance(value, str) and value else None


def _opt_int(value: object) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
