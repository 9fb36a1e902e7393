"""What every command reads from its user, checked: the one home of bad input.

``--python`` (the interpreter check), ``--facts`` (a saved report), ``--matrix`` and a target's
fields. Each failure is a :class:`DoctorError`, which the command line turns into one line on
stderr and exit code 3. Below the services (doctor, pin, smoke, env), which all read these.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Optional

from tfdoctor.bounded import MAX_REPORT_BYTES, InputError, parse_json, read_text
from tfdoctor.compat import Target, TargetError, make_target
from tfdoctor.facts import Facts, FactsError
from tfdoctor.findings import facts_from_report_json
from tfdoctor.matrix import Companions, Matrix, MatrixError, load_companions, load_matrix
from tfdoctor.probes._run import Runner, run_command
from tfdoctor.probes.pyenv import is_current_interpreter


class DoctorError(Exception):
    """The doctor could not do its job (bad input): exit code 3, one line, no traceback."""


#: The oldest Python whose environment the doctor can examine: its child scripts
#: (tfdoctor/probes/child) are written for Python 3.7 and newer.
OLDEST_PYTHON = (3, 7)

#: Seconds an interpreter given as ``--python`` may take to say its version (an interpreter
#: starts in well under one); ``$TFDOCTOR_PYTHON_TIMEOUT`` overrides it.
PYTHON_ANSWER_TIMEOUT = 10.0

#: What the interpreter check runs: any Python from 2 on prints the marker and its version.
_PYTHON_MARKER = "tfdoctor-python"
_ASK_VERSION = (
    f"import sys; sys.stdout.write('{_PYTHON_MARKER} %d.%d.%d' % tuple(sys.version_info[:3]))"
)
_ANSWER = re.compile(_PYTHON_MARKER + r" (\d+)\.(\d+)\.(\d+)")
_VERSION_LIKE = re.compile(r"^\d+(\.\d+){0,2}$")


def require_python(
    python: str,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    *,
    version_option: bool = False,
) -> tuple[int, int]:
    """The (major, minor) version of the interpreter ``--python`` names (a path, or a command
    on PATH); DoctorError, saying why, unless it is a Python the doctor can examine.

    Every command's ``--python`` goes through here first, so that a wrong value is one line
    and exit 3 within seconds, not probes that time out one by one. ``version_option``: the
    command also takes ``--python-version`` (matrix, pin), which a bare version belongs to.
    """
    if is_current_interpreter(python):
        return sys.version_info[0], sys.version_info[1]
    where = _locate_interpreter(python, version_option)
    environ = os.environ if env is None else env
    timeout = _answer_timeout(environ)
    result = runner([where, "-c", _ASK_VERSION], env, timeout)
    if result.start_error is not None:
        raise DoctorError(f"--python {python}: cannot run it: {result.start_error}")
    if result.timed_out:
        raise DoctorError(
            f"--python {python}: did not answer within {timeout:g} s when asked for its "
            "Python version"
        )
    # Searched for, not matched whole: a sitecustomize may print before the answer.
    answer = _ANSWER.search(result.stdout)
    if answer is None:
        code = result.signal_name or result.returncode
        how = f"exited with {code}" if code else "printed no Python version"
        raise DoctorError(
            f"--python {python}: not a Python interpreter ({how} when asked for its version)"
        )
    version = tuple(int(part) for part in answer.groups())
    if version[:2] < OLDEST_PYTHON:
        oldest = ".".join(map(str, OLDEST_PYTHON))
        shown = ".".join(map(str, version))
        raise DoctorError(
            f"--python {python}: Python {shown} is older than {oldest}, the oldest whose "
            "environment tfdoctor can examine"
        )
    return version[0], version[1]


def _locate_interpreter(python: str, version_option: bool) -> str:
    """The file ``python`` names; DoctorError when there is none, or it cannot be run."""
    if _VERSION_LIKE.match(python) and not Path(python).exists():
        hint = (
            f"for a Python version use --python-version {python}"
            if version_option
            else "a version is not an interpreter"
        )
        raise DoctorError(
            f"--python {python}: expected an interpreter (a path, or a command on PATH); {hint}"
        )
    has_dir = os.sep in python or (os.altsep is not None and os.altsep in python)
    found = python if has_dir else shutil.which(python)
    if found is None or not Path(found).exists():
        raise DoctorError(f"--python {python}: no such interpreter")
    if Path(found).is_dir():
        raise DoctorError(f"--python {python}: is a directory, not an interpreter")
    if not os.access(found, os.X_OK):
        raise DoctorError(f"--python {python}: not executable (no execute permission)")
    return found


def _answer_timeout(environ: Mapping[str, str]) -> float:
    """The seconds :func:`require_python` waits: ``$TFDOCTOR_PYTHON_TIMEOUT``, else the default."""
    text = environ.get("TFDOCTOR_PYTHON_TIMEOUT", "")
    try:
        value = float(text)
    except ValueError:
        return PYTHON_ANSWER_TIMEOUT
    return value if math.isfinite(value) and value > 0 else PYTHON_ANSWER_TIMEOUT


def load_facts(path: str) -> Facts:
    """Facts from a saved ``--json`` report (or bare facts document); DoctorError if unusable."""
    try:
        text = read_text(path, MAX_REPORT_BYTES, "a facts file")
    except (OSError, UnicodeDecodeError) as exc:
        raise DoctorError(f"cannot read facts file {path}: {exc}") from exc
    except InputError as exc:
        raise DoctorError(str(exc)) from None
    try:
        data = parse_json(text, path, "a facts file")
    except InputError as exc:
        raise DoctorError(str(exc)) from None
    except ValueError as exc:
        raise DoctorError(f"facts file {path} is not valid JSON: {exc}") from exc
    try:
        return facts_from_report_json(data)
    except FactsError as exc:
        raise DoctorError(f"facts file {path}: {exc}") from exc


def open_matrix(path: Optional[str] = None, env: Optional[Mapping[str, str]] = None) -> Matrix:
    """The matrix at ``path`` / ``$TFDOCTOR_MATRIX`` / bundled; DoctorError when unusable."""
    try:
        return load_matrix(path, env)
    except MatrixError as exc:
        raise DoctorError(str(exc)) from None


def open_companions() -> Companions:
    """The bundled companion table; DoctorError when unusable."""
    try:
        return load_companions()
    except MatrixError as exc:
        raise DoctorError(str(exc)) from None


def read_target(matrix: Matrix, **fields: Optional[str]) -> Target:
    """:func:`make_target` with its bad input (a malformed version) as a DoctorError."""
    try:
        return make_target(matrix, **fields)
    except TargetError as exc:
        raise DoctorError(str(exc)) from None
