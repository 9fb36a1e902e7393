"""``tfdoctor matrix``'s service: the target a question describes, and each line's verdict."""

from __future__ import annotations

import platform as pyplatform
from collections.abc import Mapping
from typing import Optional

from tfdoctor.compat import Target, Verdict, platform_of, verdicts
from tfdoctor.inputs import DoctorError, open_matrix, read_target, require_python
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
