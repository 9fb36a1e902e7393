"""``tfdoctor matrix``'s service: the target a question describes, and each line's verdict;
with ``--companion``, which release of a companion goes with which TensorFlow."""

from __future__ import annotations

import platform as pyplatform
import re
from collections.abc import Mapping
from typing import Optional

from tfdoctor.compat import (
    PINNED_COMPANIONS,
    CompanionAnswer,
    Target,
    Verdict,
    companion_answer,
    pinned_answer,
    platform_of,
    verdicts,
)
from tfdoctor.facts import normalize_name
from tfdoctor.inputs import (
    DoctorError,
    open_companions,
    open_matrix,
    read_target,
    require_python,
)
from tfdoctor.matrix import Matrix


def query_matrix(
    path: Optional[str] = None,
    *,
    python: Optional[str] = None,
    python_version: Optional[str] = None,
    platform: Optional[str] = None,
    cuda: Optional[str] = None,
    driver: Optional[str] = None,
    gpu: Optional[str] = None,
    env: Optional[Mapping[str, str]] = None,
) -> tuple[Matrix, Target, tuple[Verdict, ...], bool]:
    """The matrix, the target asked about, every line's verdict, and whether anything was asked.

    ``python`` is an interpreter, which is asked its version; ``python_version`` a version.
    A query about Python without ``--platform`` is about this machine's platform.
    """
    if python is not None and python_version is not None:
        raise DoctorError("--python and --python-version both say which Python to ask about")
    matrix = open_matrix(path, env)
    if python is not None:
        major, minor = require_python(python, env, version_option=True)
        python_version = f"{major}.{minor}"
    asked = any(v is not None for v in (python_version, platform, cuda, driver, gpu))
    if platform is None and python_version is not None:
        platform = platform_of(pyplatform.system(), pyplatform.machine())
    target = read_target(
        matrix, python=python_version, platform=platform, cuda=cuda, driver=driver, gpu=gpu
    )
    return matrix, target, verdicts(matrix, target), asked


_COMPANION_QUERY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:==(\d+\.\d+(?:\.\d+)?))?$")
_TF_QUERY = re.compile(r"^\d+\.\d+(?:\.\d+(?:(?:a|b|rc)\d+)?)?$")


def query_companion(
    path: Optional[str],
    companion: str,
    tensorflow: Optional[str] = None,
    pre: bool = False,
    env: Optional[Mapping[str, str]] = None,
) -> CompanionAnswer:
    """Which releases of a companion (``tensorflow-text``, or ``tensorflow-text==2.20`` for
    one of its releases) go with which TensorFlow (``tensorflow``: a line or a release);
    DoctorError on a name the companion table does not know or a malformed version."""
    asked = _COMPANION_QUERY.match(companion.strip())
    if asked is None:
        raise DoctorError(f"--companion {companion!r}: expected NAME or NAME==X.Y[.Z]")
    if tensorflow is not None and _TF_QUERY.match(tensorflow) is None:
        raise DoctorError(f"--tensorflow {tensorflow!r}: expected a version such as 2.21")
    matrix = open_matrix(path, env)
    table = open_companions()
    name = normalize_name(asked.group(1))
    if name in PINNED_COMPANIONS:
        return pinned_answer(matrix, name, tensorflow, asked.group(2), pre)
    if name not in table.companions:
        known = ", ".join(sorted({*table.companions, *PINNED_COMPANIONS}))
        raise DoctorError(f"--companion {asked.group(1)}: not in the companion table ({known})")
    return companion_answer(matrix, table, name, tensorflow, asked.group(2), pre)
