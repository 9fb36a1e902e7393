"""The examined interpreter and its packages, from the ``env_info`` child script.

For the doctor's own interpreter the script's ``collect()`` runs in-process (it is
standard-library only and never imports TensorFlow); for another one (``--python``) it runs
there as a child, since only that interpreter can see its own site-packages. Either way it
reports the TensorFlow family, or every distribution when asked (``tfdoctor pin``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Optional

from tfdoctor.facts import (
    FactsError,
    PackageFacts,
    ProbeError,
    PythonFacts,
    from_json,
)
from tfdoctor.probes._run import Runner, child_script, run_command
from tfdoctor.probes.child import env_info
from tfdoctor.records import Record, record


@record
class PyEnvResult(Record):
    """What the env_info script reported, typed; ``error`` set when it could not run."""

    python: Optional[PythonFacts] = None
    packages: Optional[tuple[PackageFacts, ...]] = None
    machine: Optional[str] = None
    rosetta: bool = False
    error: Optional[ProbeError] = None


def is_current_interpreter(python: str) -> bool:
    """Whether ``python`` is the very path of the interpreter the doctor itself runs in.

    Symlinks are not followed: ``python -m venv`` links each venv's ``bin/python`` to the
    same base executable, and which environment it runs is decided by the path it was started
    as (its ``pyvenv.cfg`` beside it, https://docs.python.org/3/library/site.html), not by the
    file it resolves to. Any other path runs as a child, which is always right, only slower.
    """
    return Path(python).absolute() == Path(sys.executable).absolute()


def parse_env_info(data: Any) -> PyEnvResult:
    """Typed facts from the env_info JSON document; a malformed one becomes an error."""
    try:
        if not isinstance(data, dict):
            raise FactsError("env_info: expected an object")
        python = from_json(PythonFacts, data.get("python"), "python")
        packages = tuple(
            from_json(PackageFacts, p, f"packages[{i}]")
            for i, p in enumerate(data.get("packages") or [])
        )
        return PyEnvResult(
            python=python,
            packages=packages,
            machine=str(data.get("machine") or ""),
            rosetta=bool(data.get("rosetta")),
        )
    except FactsError as exc:
        return PyEnvResult(error=ProbeError("python", "bad-output", str(exc)))


def probe_pyenv(
    python: str,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    timeout: float = 20.0,
    all_packages: bool = False,
) -> PyEnvResult:
    """Python facts and TensorFlow-related packages of ``python``; never raises.

    ``all_packages`` lists every installed distribution instead of the TensorFlow family.
    """
    if is_current_interpreter(python):
        # In-process: whatever goes wrong in there must not take the doctor with it.
        try:
            return parse_env_info(env_info.collect(all_packages))
        except Exception as exc:  # a probe records, never raises
            return PyEnvResult(
                error=ProbeError("python", "crashed", f"{type(exc).__name__}: {exc}")
            )
    argv = [python, child_script("env_info.py")]
    if all_packages:
        argv.append(env_info.ALL_FLAG)
    result = runner(argv, env, timeout)
    if result.start_error is not None:
        return PyEnvResult(
            error=ProbeError("python", "not-found", f"cannot run {python}: {result.start_error}")
        )
    if result.timed_out:
        return PyEnvResult(
            error=ProbeError("python", "timeout", f"{python} did not answer in {timeout:g} s")
        )
    if result.returncode != 0:
        return PyEnvResult(
            error=ProbeError(
                "python",
                "child-failed",
                f"{python} exited with {result.signal_name or result.returncode}",
                result.stderr_tail(),
            )
        )
    try:
        data = json.loads(result.stdout)
    except ValueError:
        return PyEnvResult(
            error=ProbeError(
                "python", "bad-output", f"{python} printed no JSON", result.stdout[-2000:]
            )
        )
    return parse_env_info(data)
