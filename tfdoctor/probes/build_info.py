"""TensorFlow's ``build_info.py`` read as a file, without importing TensorFlow.

Reading the file costs tens of milliseconds and works even when ``import tensorflow``
crashes, so the CUDA library search can start before (or without) the TF child.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path
from typing import Optional

BUILD_INFO_RELPATH = Path("tensorflow") / "python" / "platform" / "build_info.py"


def find_build_info(site_dirs: Iterable[str]) -> Optional[Path]:
    """The first ``tensorflow/python/platform/build_info.py`` under the given site dirs."""
    for site in site_dirs:
        candidate = Path(site) / BUILD_INFO_RELPATH
        if candidate.is_file():
            return candidate
    return None


def parse_build_info(source: str) -> dict[str, object]:
    """The ``build_info`` mapping from the file's text.

    Releases wrote it in two shapes: ``build_info = collections.OrderedDict([...])``
    (2.3 and later) and a ``build_info = {...}`` literal; older ones had module-level
    constants such as ``cuda_version_number``. All are read without executing the file.
    """
    tree = ast.parse(source)
    result: dict[str, object] = {}
    for node in tree.body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if not isinstance(target, ast.Name):
            continue
        value = node.value
        if target.id == "build_info":
            if isinstance(value, ast.Call) and value.args:
                value = value.args[0]
            try:
                literal = ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError, RecursionError):
                continue
            if isinstance(literal, dict):
                result.update({str(k): v for k, v in literal.items()})
            elif isinstance(literal, list):
                result.update({str(k): v for k, v in literal})
        else:
            try:
                result.setdefault(target.id, ast.literal_eval(value))
            except (ValueError, TypeError, SyntaxError, RecursionError):
                continue
    return result


def read_build_info(site_dirs: Iterable[str]) -> Optional[dict[str, object]]:
    """Parsed build info of the TensorFlow installed in ``site_dirs``, or None."""
    path = find_build_info(site_dirs)
    if path is None:
        return None
    try:
        return parse_build_info(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return None
