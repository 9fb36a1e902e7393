"""TensorFlow's ``build_info.py`` read as a file, without importing TensorFlow.

Reading the file costs tens of milliseconds and works even when ``import tensorflow``
crashes, so the CUDA library search can start before (or without) the TF child.
:func:`tensorflow_dirs` is the one rule for which ``tensorflow`` package a list of site
directories holds; :func:`versions_from_build_info` the one reading of the CUDA versions in
whichever shape a release wrote them.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Optional

from tfdoctor.bounded import MAX_SOURCE_BYTES, code_problem, read_text
from tfdoctor.records import Record, record

#: Where the file sits inside the ``tensorflow`` package directory.
BUILD_INFO_IN_PACKAGE = Path("python") / "platform" / "build_info.py"


# --- where ---------------------------------------------------------------------------------


def tensorflow_dirs(site_dirs: Iterable[str]) -> tuple[Path, ...]:
    """The ``tensorflow`` package directories ``import tensorflow`` would use from these dirs.

    Python's path finder (importlib's ``PathFinder``/``FileFinder``) returns the first
    directory holding ``tensorflow/__init__.py``, however late on the path; directories
    without ``__init__.py`` only count, all of them and in order, as portions of a namespace
    package when no regular package exists anywhere.
    """
    portions: list[Path] = []
    for site in site_dirs:
        package = Path(site) / "tensorflow"
        try:
            if (package / "__init__.py").is_file():
                return (package,)
            if package.is_dir():
                portions.append(package)
        except OSError:  # an unreadable site directory hides nothing from the rest
            continue
    return tuple(portions)


def find_build_info(site_dirs: Iterable[str]) -> Optional[Path]:
    """``python/platform/build_info.py`` of the ``tensorflow`` package import would pick."""
    for package in tensorflow_dirs(site_dirs):
        candidate = package / BUILD_INFO_IN_PACKAGE
        if candidate.is_file():
            return candidate
    return None


# --- what ----------------------------------------------------------------------------------


def parse_build_info(source: str) -> dict[str, object]:
    """The ``build_info`` mapping, and the module constants beside it, from the file's text.

    Releases wrote it as ``build_info = collections.OrderedDict([...])`` (2.3 and later) or a
    ``build_info = {...}`` literal; older ones wrote module-level constants such as
    ``cuda_version_number`` (TF's tensorflow/tools/build_info/gen_build_info.py across
    versions). ``dict(key=...)`` calls and annotated assignments are read too. A later
    assignment wins, as when Python runs the file, and the mapping's keys win over constants
    of the same name. Nothing is executed.
    """
    tree = ast.parse(source)
    constants: dict[str, object] = {}
    mapping: dict[str, object] = {}
    for node in tree.body:
        targets: list[ast.expr]
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        elif isinstance(node, ast.Assign):
            targets, value = list(node.targets), node.value
        else:
            continue
        for target in targets:
            if not isinstance(target, ast.Name):
                continue
            if target.id == "build_info":
                mapping.update(_build_info_mapping(value))
                continue
            ok, literal = _literal(value)
            if ok:
                constants[target.id] = literal
    return {**constants, **mapping}


def _literal(node: ast.expr) -> tuple[bool, object]:
    """(True, value) for a literal expression, (False, None) for anything else."""
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return False, None


def _build_info_mapping(value: ast.expr) -> dict[str, object]:
    """The mapping of ``{...}``, ``OrderedDict([...])`` or ``dict(..., key=...)``."""
    result: dict[str, object] = {}
    if isinstance(value, ast.Call):
        if value.args:
            ok, literal = _literal(value.args[0])
            if ok:
                result.update(_pairs(literal))
        for keyword in value.keywords:
            ok, literal = _literal(keyword.value)
            if ok and keyword.arg:
                result[keyword.arg] = literal
        return result
    ok, literal = _literal(value)
    return _pairs(literal) if ok else result


def _pairs(literal: object) -> dict[str, object]:
    """A dict literal, or a list or tuple of (key, value) pairs, as a mapping; else empty."""
    if isinstance(literal, dict):
        return {str(k): v for k, v in literal.items()}
    if not isinstance(literal, (list, tuple)):
        return {}
    if not all(isinstance(p, (list, tuple)) and len(p) == 2 for p in literal):
        return {}
    return {str(k): v for k, v in literal}


def read_build_info(site_dirs: Iterable[str]) -> Optional[dict[str, object]]:
    """Parsed build info of the TensorFlow installed in ``site_dirs``, or None."""
    path = find_build_info(site_dirs)
    if path is None:
        return None
    try:
        source = read_text(str(path), MAX_SOURCE_BYTES, "build_info.py")
        if code_problem(source) is not None:
            return None
        return parse_build_info(source)
    # ValueError: not UTF-8, over the size limit; RecursionError, MemoryError: Python's parser
    # refusing an expression too deep (a damaged or hostile file is unread, like a missing one).
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


# --- the versions in it --------------------------------------------------------------------


@record
class BuildVersions(Record):
    """The GPU facts of a TensorFlow build, whichever shape its build info had."""

    is_cuda_build: Optional[bool]
    is_rocm_build: Optional[bool]
    #: As written: ``12.5.1``, ``11.8``, ``64_112`` (Windows), ``10.1`` (TF 2.0-2.2).
    cuda_version: Optional[str]
    cudnn_version: Optional[str]
    cuda_major: Optional[int]
    cuda_minor: Optional[int]
    cudnn_major: Optional[int]


def build_flag(value: object) -> Optional[bool]:
    """A build-info flag as bool (``True`` or the string ``"True"``), else None."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def parse_cuda_version(value: object) -> Optional[tuple[int, int]]:
    """(major, minor) from build_info's ``cuda_version``: ``12.5.1``, ``11.8``, or ``64_112``.

    Windows builds record ``64_<major><minor>`` (cuda_configure.bzl's ``64_%s`` prefix).
    """
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if text.startswith("64_"):
        digits = text[3:]
        if digits.isdigit() and len(digits) >= 3:
            return int(digits[:-1]), int(digits[-1])
        text = digits
    parts = re.findall(r"\d+", text)
    if not parts:
        return None
    return int(parts[0]), int(parts[1]) if len(parts) > 1 else 0


def parse_cudnn_major(value: object) -> Optional[int]:
    """The major version in build_info's ``cudnn_version``: ``9``, ``8.9``, ``64_8``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.startswith("64_"):
        text = text[3:]
    match = re.match(r"(\d+)", text)
    return int(match.group(1)) if match else None


def _first(raw: Mapping[str, object], *keys: str) -> object:
    for key in keys:
        if raw.get(key) not in (None, ""):
            return raw[key]
    return None


def versions_from_build_info(raw: Mapping[str, object]) -> BuildVersions:
    """The build flags and CUDA/cuDNN versions in parsed (or imported) build info.

    TF 2.3 and later write ``cuda_version``/``cudnn_version`` into the ``build_info``
    mapping; TF 2.0-2.2's gen_build_info.py wrote module constants ``cuda_version_number``
    and ``cudnn_version_number`` beside ``is_cuda_build`` (tensorflow/tools/build_info).
    """
    cuda = _first(raw, "cuda_version", "cuda_version_number")
    cudnn = _first(raw, "cudnn_version", "cudnn_version_number")
    parsed = parse_cuda_version(cuda)
    return BuildVersions(
        is_cuda_build=build_flag(raw.get("is_cuda_build")),
        is_rocm_build=build_flag(raw.get("is_rocm_build")),
        cuda_version=None if cuda is None else str(cuda),
        cudnn_version=None if cudnn is None else str(cudnn),
        cuda_major=parsed[0] if parsed else None,
        cuda_minor=parsed[1] if parsed else None,
        cudnn_major=parse_cudnn_major(cudnn),
    )
