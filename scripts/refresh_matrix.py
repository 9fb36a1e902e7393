#!/usr/bin/env python3
"""Read TensorFlow's wheels on PyPI: dump their facts per minor line, or cross-check the matrix.

Usage::

    python scripts/refresh_matrix.py dump [--lines 2.20,2.21] [--cache-dir DIR]
    python scripts/refresh_matrix.py check [--matrix compat_matrix.yaml] [--cache-dir DIR]
    python scripts/refresh_matrix.py draft --lines 2.22 [--pre]

``draft`` prints the matrix rows of those lines as YAML, each fact with its source id, and
``notes`` for what the wheels could not tell. ``--pre`` reads a line that has no final release
yet at its newest pre-release (``2.22.0rc0``); ``check --pre`` then compares such a row too.
All take ``--offline`` (answer from ``--cache-dir`` only), ``--index-url`` (a PEP 691 mirror),
``--timeout`` and ``-v`` (log each fetch to stderr).

Only the PyPI simple index (JSON form, PEP 691) and, inside a few wheels, the central
directory plus ``*.dist-info/METADATA`` and ``tensorflow/python/platform/build_info.py`` are
fetched, with HTTP range requests: PyPI does not serve PEP 658 ``.metadata`` files for these
wheels, and the wheels themselves are hundreds of megabytes. Per line: the Linux x86-64 wheel
(METADATA, build_info), the Linux aarch64 and Windows wheels' build_info (or, for a thin
wrapper, that of the tensorflow-cpu-aws / tensorflow-intel wheel it pulls), tensorflow-gpu's
for 1.15 and 2.0, and the METADATA of the line's tf-keras release.

``check`` compares the fields tfdoctor/matrix_schema.py marks as checked and prints one summary
line when they all agree; it leaves the others alone (drafted for review, or written by hand).

Exit codes: 0 facts dumped / the matrix agrees, 1 the matrix differs, 2 network or usage error.
"""

from __future__ import annotations

import argparse
import dataclasses
import http.client
import io
import json
import re
import sys
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Callable, Optional

import yaml
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    canonicalize_name,
    parse_sdist_filename,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion, Version

# The package's readings of build_info.py and of its capability lists (importable once the
# repository root is on the path), so that this script and the probe that reads installs
# agree about the same file.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tfdoctor import matrix_schema
from tfdoctor.compat import build_capabilities
from tfdoctor.probes.build_info import parse_build_info, parse_cudnn_major

USER_AGENT = "tfdoctor-refresh-matrix/1 (scripts/refresh_matrix.py)"
INDEX_URL = "https://pypi.org/simple/"
# PEP 691: the JSON form of the simple API.
SIMPLE_ACCEPT = "application/vnd.pypi.simple.v1+json"
TIMEOUT_S = 60.0
BLOCK_SIZE = 64 * 1024

METADATA_MEMBER = "METADATA"
BUILD_INFO_MEMBER = "build_info.py"
# 1.15 to 2.1 shipped the real package as `tensorflow_core` with `tensorflow` a virtual
# re-export (TF's tensorflow/virtual_root_template_v2.__init__.py), so build_info sits there.
BUILD_INFO_PATHS = (
    "tensorflow/python/platform/build_info.py",
    "tensorflow_core/python/platform/build_info.py",
)
# A `tensorflow` wheel this small holds no TensorFlow: it is a wrapper that pulls another dist.
THIN_WHEEL_BYTES = 1024 * 1024

PLATFORM_KEYS = tuple(matrix_schema.PLATFORMS)
# The wrappers and plugins whose existence per line is reported (version lists only).
SIDE_DISTS = (
    "tensorflow-gpu",
    "tensorflow-intel",
    "tensorflow-cpu-aws",
    "tensorflow-macos",
    "tensorflow-metal",
    "tf-keras",
)
# tf-keras X.Y pairs with TensorFlow X.Y and says so in its own Requires-Dist (tensorflow<X.Y+1,
# >=X.Y); the matrix's pins.tf_keras is that range (https://pypi.org/project/tf-keras/).
TF_KERAS_DIST = "tf-keras"
# Platforms whose GPU build is read from build_info.py. macOS wheels are not read: "As of
# version 1.2, TensorFlow no longer provides GPU support on Mac OS X"
# (https://www.tensorflow.org/install/install_mac, the 1.x install guide).
CUDA_BUILD_PLATFORMS = ("linux-x86_64", "linux-aarch64", "windows-x86_64")
# Lines where plain `tensorflow` was CPU-only and `tensorflow-gpu` was the GPU build
# (https://www.tensorflow.org/install/pip: "For releases 1.15 and older, CPU and GPU packages
# are separate"; 2.0 still shipped both, 2.1 made `tensorflow` the GPU build).
GPU_PACKAGE_LINES = ("1.15", "2.0")
PIN_NAMES = ("numpy", "protobuf", "keras", "tf-keras", "ml-dtypes", "h5py", "tensorboard")
WRAPPER_DISTS = ("tensorflow-intel", "tensorflow-cpu-aws", "tensorflow-macos")
AND_CUDA_EXTRA = "and-cuda"
PREFERRED_PYTHON = "3.11"
# The row fields `check` compares with the wheels, and those it leaves alone (drafted for a
# person to review, or written by hand: the macOS GPU package is a plugin pairing, failures and
# notes are reports), as tfdoctor/matrix_schema.py specifies them for the loader too.
CHECKED_FIELDS = matrix_schema.checked_fields()
UNCHECKED_FIELDS = matrix_schema.unchecked_fields()

# PEP 508 environments that stand for each platform key when evaluating markers.
PLATFORM_ENVS: dict[str, dict[str, str]] = {
    "linux-x86_64": {
        "sys_platform": "linux",
        "platform_system": "Linux",
        "platform_machine": "x86_64",
        "os_name": "posix",
    },
    "linux-aarch64": {
        "sys_platform": "linux",
        "platform_system": "Linux",
        "platform_machine": "aarch64",
        "os_name": "posix",
    },
    "macos-x86_64": {
        "sys_platform": "darwin",
        "platform_system": "Darwin",
        "platform_machine": "x86_64",
        "os_name": "posix",
    },
    "macos-arm64": {
        "sys_platform": "darwin",
        "platform_system": "Darwin",
        "platform_machine": "arm64",
        "os_name": "posix",
    },
    "windows-x86_64": {
        "sys_platform": "win32",
        "platform_system": "Windows",
        "platform_machine": "AMD64",
        "os_name": "nt",
    },
}

# The legacy manylinux names and the glibc each promises (PEP 513, PEP 571, PEP 599).
LEGACY_MANYLINUX_GLIBC = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}
_MANYLINUX_RE = re.compile(r"^manylinux_(\d+)_(\d+)_")  # PEP 600
_CPYTHON_RE = re.compile(r"^cp(\d)(\d+)$")
_CONTENT_RANGE_RE = re.compile(r"^bytes (\d+)-(\d+)/(\d+)$")


class FetchError(Exception):
    """A request to the index or a wheel failed."""


# === pure parsing ===========================================================================


@dataclasses.dataclass(frozen=True)
class IndexFile:
    """One file of a distribution as the simple index lists it."""

    filename: str
    url: str
    requires_python: Optional[str]
    yanked: bool
    upload_time: Optional[str]
    size: Optional[int] = None


@dataclasses.dataclass(frozen=True)
class WheelInfo:
    """What a wheel's file name says: version, CPython versions, platform keys, glibc floor."""

    file: IndexFile
    version: Version
    pythons: frozenset[str]
    platforms: frozenset[str]
    glibc: Optional[tuple[int, int]]


def parse_simple_index(doc: Mapping[str, Any]) -> list[IndexFile]:
    """The files of a PEP 691 simple-index JSON document."""
    files = []
    for entry in doc.get("files", []):
        # PEP 592: `yanked` is false or true or a reason string.
        yanked = entry.get("yanked", False)
        files.append(
            IndexFile(
                filename=str(entry["filename"]),
                url=str(entry["url"]),
                requires_python=entry.get("requires-python") or None,
                yanked=yanked is not False and yanked is not None,
                upload_time=entry.get("upload-time"),
                size=entry.get("size"),
            )
        )
    return files


#: Wheel platform tags' architecture suffixes and the names platform keys give them.
_TAG_ARCHES = (
    ("_x86_64", "x86_64"),
    ("_aarch64", "aarch64"),
    ("_armv7l", "armv7l"),
    ("_armv6l", "armv6l"),
    ("_i686", "x86"),
    ("_arm64", "arm64"),
    ("_universal2", "universal2"),
    ("_intel", "x86_64"),
)


def wheel_platform(platform_tag: str) -> Optional[str]:
    """The platform key of one wheel platform tag, for any architecture (``linux-armv7l``,
    ``windows-x86``, ``macos-universal2``; ``any`` for a pure wheel); None for a tag of another
    system. The matrix keeps only some of these keys (:func:`platform_key`)."""
    if platform_tag == "any":
        return "any"
    windows = {"win_amd64": "x86_64", "win32": "x86", "win_arm64": "arm64"}
    if platform_tag in windows:
        return f"windows-{windows[platform_tag]}"
    arch = next((name for suffix, name in _TAG_ARCHES if platform_tag.endswith(suffix)), None)
    if arch is None:
        return None
    if platform_tag.startswith(("manylinux", "linux_", "musllinux")):
        return f"linux-{arch}"
    if platform_tag.startswith("macosx_"):
        return f"macos-{arch}"
    return None


def platform_key(platform_tag: str) -> Optional[str]:
    """The matrix platform key of one wheel platform tag, None for others (win32, i686, ...)."""
    key = wheel_platform(platform_tag)
    return key if key in PLATFORM_KEYS else None


def macos_keys(platform_tag: str) -> tuple[str, ...]:
    """The platform keys a tag covers; universal2 macOS wheels cover both architectures."""
    if platform_tag.startswith("macosx_") and platform_tag.endswith("_universal2"):
        return ("macos-arm64", "macos-x86_64")
    key = platform_key(platform_tag)
    return (key,) if key else ()


def glibc_of(platform_tag: str) -> Optional[tuple[int, int]]:
    """The glibc a manylinux tag requires, None for non-manylinux tags."""
    for legacy, glibc in LEGACY_MANYLINUX_GLIBC.items():
        if platform_tag.startswith(legacy + "_"):
            return glibc
    match = _MANYLINUX_RE.match(platform_tag)
    if match:
        return int(match.group(1)), int(match.group(2))
    return None


def cpython_version(interpreter: str) -> Optional[str]:
    """``cp310`` -> ``3.10``; None for other interpreters (py3, pp39, ...)."""
    match = _CPYTHON_RE.match(interpreter)
    return f"{match.group(1)}.{match.group(2)}" if match else None


def version_key(python: str) -> tuple[int, ...]:
    """Sort key for dotted version strings such as ``3.9`` < ``3.10``."""
    return tuple(int(part) for part in python.split("."))


def parse_wheel(file: IndexFile) -> Optional[WheelInfo]:
    """The tags of a wheel file name (compressed tag sets expanded); None if not a wheel."""
    try:
        _name, version, _build, tags = parse_wheel_filename(file.filename)
    except (InvalidWheelFilename, InvalidVersion):
        return None
    pythons = set()
    platforms: set[str] = set()
    glibcs = []
    for tag in tags:
        python = cpython_version(tag.interpreter)
        if python:
            pythons.add(python)
        platforms.update(macos_keys(tag.platform))
        glibc = glibc_of(tag.platform)
        if glibc:
            glibcs.append(glibc)
    # A wheel with several manylinux tags (manylinux_2_17_x86_64.manylinux2014_x86_64) needs
    # the lowest of them: each tag is a promise that the wheel runs there.
    return WheelInfo(
        file=file,
        version=version,
        pythons=frozenset(pythons),
        platforms=frozenset(platforms),
        glibc=min(glibcs) if glibcs else None,
    )


def file_version(file: IndexFile) -> Optional[Version]:
    """The version in a wheel or sdist file name."""
    wheel = parse_wheel(file)
    if wheel:
        return wheel.version
    try:
        return parse_sdist_filename(file.filename)[1]
    except (InvalidSdistFilename, InvalidVersion):
        return None


def line_of(version: Version) -> str:
    """The minor line ``X.Y`` of a version."""
    return f"{version.major}.{version.minor}"


def latest_finals(files: Iterable[IndexFile]) -> dict[str, Version]:
    """The newest final (no pre/dev release), non-yanked version of each minor line."""
    return latest_versions(files, pre=False)


def latest_versions(files: Iterable[IndexFile], pre: bool) -> dict[str, Version]:
    """The newest non-yanked version of each minor line: its final, else (``pre``) a pre-release.

    A line with a final release always takes its newest final; with ``pre`` a line that has
    only pre-releases (``2.22.0rc0``) takes the newest of them. Development releases never count.
    """
    finals: dict[str, Version] = {}
    previews: dict[str, Version] = {}
    for file in files:
        if file.yanked:
            continue
        version = file_version(file)
        if version is None or version.is_devrelease:
            continue
        found = previews if version.is_prerelease else finals
        line = line_of(version)
        if line not in found or version > found[line]:
            found[line] = version
    if pre:
        return {**{k: v for k, v in previews.items() if k not in finals}, **finals}
    return finals


def wheels_of(files: Iterable[IndexFile], version: Version) -> list[WheelInfo]:
    """The non-yanked wheels of one version."""
    wheels = []
    for file in files:
        if file.yanked:
            continue
        wheel = parse_wheel(file)
        if wheel and wheel.version == version:
            wheels.append(wheel)
    return wheels


def pythons_by_platform(wheels: Iterable[WheelInfo]) -> dict[str, list[str]]:
    """CPython versions with a wheel, per platform key (every key present, [] when none)."""
    found: dict[str, set[str]] = {key: set() for key in PLATFORM_KEYS}
    for wheel in wheels:
        for key in wheel.platforms:
            found[key].update(wheel.pythons)
    return {key: sorted(pythons, key=version_key) for key, pythons in found.items()}


def glibc_floor(wheels: Iterable[WheelInfo]) -> Optional[str]:
    """The lowest glibc any linux-x86_64 wheel asks for, as ``2.17``."""
    glibcs = [w.glibc for w in wheels if "linux-x86_64" in w.platforms and w.glibc]
    if not glibcs:
        return None
    major, minor = min(glibcs)
    return f"{major}.{minor}"


def pick_wheel(
    wheels: Iterable[WheelInfo], platform: str, prefer: str = PREFERRED_PYTHON
) -> Optional[WheelInfo]:
    """The wheel for ``prefer``'s CPython on a platform, else the one for the newest CPython."""
    candidates = [w for w in wheels if platform in w.platforms and w.pythons]
    if not candidates:
        return None
    for wheel in candidates:
        if prefer in wheel.pythons:
            return wheel
    return max(
        candidates,
        key=lambda w: (max(version_key(p) for p in w.pythons), w.file.filename),
    )


@dataclasses.dataclass(frozen=True)
class Metadata:
    """The fields of a wheel's METADATA this script reads."""

    requires_python: Optional[str]
    requires_dist: tuple[str, ...]


def parse_metadata(text: str) -> Metadata:
    """Requires-Python and every Requires-Dist of a METADATA file (RFC 822 headers)."""
    requires_python = None
    requires = []
    for line in text.splitlines():
        if not line.strip():
            break  # the headers end at the first blank line; the description follows
        name, sep, value = line.partition(":")
        if not sep:
            continue
        if name == "Requires-Python":
            requires_python = value.strip()
        elif name == "Requires-Dist":
            requires.append(value.strip())
    return Metadata(requires_python=requires_python, requires_dist=tuple(requires))


def _requirements(requires_dist: Iterable[str]) -> list[Requirement]:
    """The Requires-Dist lines as requirements, skipping any that do not parse."""
    parsed = []
    for line in requires_dist:
        try:
            parsed.append(Requirement(line))
        except InvalidRequirement:
            continue
    return parsed


def _applies(requirement: Requirement, env: Mapping[str, str]) -> bool:
    """Whether a requirement's marker holds in an environment (no marker: always)."""
    if requirement.marker is None:
        return True
    return bool(requirement.marker.evaluate(dict(env)))


def _env(platform: str, python: str, extra: str = "") -> dict[str, str]:
    """A PEP 508 marker environment for a platform key, CPython version and extra."""
    return {
        **PLATFORM_ENVS[platform],
        "python_version": python,
        "python_full_version": python + ".0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "extra": extra,
    }


def _is_extra_only(requirement: Requirement) -> bool:
    """Whether a requirement belongs to an extra (its marker names one)."""
    return requirement.marker is not None and "extra" in str(requirement.marker)


def parse_pins(requires_dist: Iterable[str]) -> dict[str, list[dict[str, Optional[str]]]]:
    """The base (non-extra) requirements on the pinned dists: name -> [{specifier, marker}]."""
    pins: dict[str, list[dict[str, Optional[str]]]] = {name: [] for name in PIN_NAMES}
    for requirement in _requirements(requires_dist):
        name = canonicalize_name(requirement.name)
        if name not in pins or _is_extra_only(requirement):
            continue
        pins[name].append(
            {
                "specifier": str(requirement.specifier),
                "marker": str(requirement.marker) if requirement.marker else None,
            }
        )
    return pins


def parse_wrappers(requires_dist: Iterable[str], python: str) -> dict[str, str]:
    """Platform key -> the wrapper dist the ``tensorflow`` wheel requires there."""
    wrappers = {}
    for requirement in _requirements(requires_dist):
        name = canonicalize_name(requirement.name)
        if name not in WRAPPER_DISTS or _is_extra_only(requirement):
            continue
        for platform in PLATFORM_KEYS:
            if _applies(requirement, _env(platform, python)):
                wrappers[platform] = name
    return dict(sorted(wrappers.items()))


def parse_wrapper_requirements(requires_dist: Iterable[str]) -> dict[str, str]:
    """The wrapper requirements as written: dist -> the raw Requires-Dist value."""
    found: dict[str, str] = {}
    for line in requires_dist:
        try:
            name = canonicalize_name(Requirement(line).name)
        except InvalidRequirement:
            continue
        if name in WRAPPER_DISTS:
            found[name] = line
    return found


def parse_extra(
    requires_dist: Iterable[str], extra: str = AND_CUDA_EXTRA, python: str = PREFERRED_PYTHON
) -> Optional[dict[str, str]]:
    """The requirements an extra adds on Linux x86-64: dist -> specifier; None if no such extra."""
    added: dict[str, str] = {}
    for requirement in _requirements(requires_dist):
        if requirement.marker is None:
            continue
        with_extra = _applies(requirement, _env("linux-x86_64", python, extra))
        without = _applies(requirement, _env("linux-x86_64", python))
        if with_extra and not without:
            name = canonicalize_name(requirement.name)
            specifier = str(requirement.specifier)
            # Two lines for one dist are both in force: their specifiers intersect.
            added[name] = ",".join(filter(None, (added.get(name), specifier)))
    return dict(sorted(added.items())) or None


def parse_tensorflow_requirement(requires_dist: Iterable[str]) -> Optional[str]:
    """The range a dist's base (non-extra) Requires-Dist allows tensorflow; None without one."""
    specifiers = [
        str(requirement.specifier)
        for requirement in _requirements(requires_dist)
        if canonicalize_name(requirement.name) == "tensorflow" and not _is_extra_only(requirement)
    ]
    if not specifiers:
        return None
    return ",".join(filter(None, specifiers))


def cudnn_pin(extra: Optional[Mapping[str, str]]) -> Optional[tuple[str, str]]:
    """(dist, specifier) of the cuDNN wheel an extra pins (nvidia-cudnn-cu11/-cu12), or None."""
    for name, specifier in sorted((extra or {}).items()):
        if canonicalize_name(name).startswith("nvidia-cudnn-"):
            return name, specifier
    return None


def extra_cuda(extra: Optional[Mapping[str, str]]) -> Optional[str]:
    """The CUDA major.minor an and-cuda extra pins: the floor of its CUDA runtime wheel.

    From 2.22 build_info.py no longer records ``cuda_version``; the extra's
    ``nvidia-cuda-runtime-cuXX`` floor (``>=12.5.82``) still names the CUDA the build wants.
    """
    for name, specifier in sorted((extra or {}).items()):
        if canonicalize_name(name).startswith("nvidia-cuda-runtime-"):
            return pin_major_minor(specifier)
    return None


def pin_major_minor(specifier: str) -> Optional[str]:
    """``<10.0,>=9.3.0.75`` / ``==8.9.7.29`` -> ``9.3`` / ``8.9``: the floor's major.minor.

    None when nothing sets a floor (only upper bounds or exclusions).
    """
    try:
        specs = SpecifierSet(specifier)
    except InvalidSpecifier:
        return None
    floors = []
    for spec in specs:
        if spec.operator in ("==", "===", ">=", "~=") and "*" not in spec.version:
            try:
                floors.append(Version(spec.version))
            except InvalidVersion:
                continue
    if not floors:
        return None
    floor = max(floors)  # with several floors the highest binds
    return f"{floor.major}.{floor.minor}"


def wrapped_wheel(
    requirement: str, files: Sequence[IndexFile], platform: str
) -> Optional[WheelInfo]:
    """The wheel a thin wrapper's requirement pulls on a platform (newest final it allows)."""
    try:
        specifier = Requirement(requirement).specifier
    except InvalidRequirement:
        return None
    allowed = [
        version
        for version in final_versions(files)
        if specifier.contains(version, prereleases=False)
    ]
    if not allowed:
        return None
    return pick_wheel(wheels_of(files, max(allowed)), platform)


def final_versions(files: Iterable[IndexFile]) -> set[Version]:
    """Every final (no pre/dev release), non-yanked version among a dist's files."""
    versions = set()
    for file in files:
        version = None if file.yanked else file_version(file)
        if version is not None and not version.is_prerelease and not version.is_devrelease:
            versions.add(version)
    return versions


def pure_wheel(wheels: Iterable[WheelInfo]) -> Optional[WheelInfo]:
    """The pure-Python (``none-any``) wheel among a version's wheels."""
    pure = [w for w in wheels if w.file.filename.endswith("-none-any.whl")]
    return min(pure, key=lambda w: w.file.filename) if pure else None


def cuda_major_minor(value: object) -> Optional[str]:
    """``12.5.1`` -> ``12.5``; Windows builds wrote ``64_101`` (cudart64_101.dll) -> ``10.1``."""
    if not isinstance(value, str) or not value:
        return None
    text = value.strip()
    if text.startswith("64_"):
        digits = text[3:]
        if digits.isdigit() and len(digits) >= 2:
            # The DLL suffix is major then one minor digit: 101 -> 10.1, 110 -> 11.0.
            return f"{int(digits[:-1])}.{digits[-1]}"
        return None
    # 2.2's Linux wheel wrote the bare major ('10'); keep what is there rather than guess.
    match = re.match(r"^(\d+)(?:\.(\d+))?", text)
    if not match:
        return None
    return f"{match.group(1)}.{match.group(2)}" if match.group(2) else match.group(1)


def cudnn_major(value: object) -> Optional[str]:
    """``9`` / ``8.1`` / ``64_8`` (Windows DLL suffix) -> the major as a string."""
    major = parse_cudnn_major(value)
    return None if major is None else str(major)


def split_capabilities(value: object) -> Optional[dict[str, list[str]]]:
    """``['sm_60', 'compute_90']`` -> {sass: [sm_60, sm_90], ptx: [compute_90], other: []}.

    Machine code and PTX as :func:`tfdoctor.compat.build_capabilities` reads a build list;
    ``other`` keeps what is neither (the dump shows it, the check ignores it). Old
    build_info files wrote the list as one comma-separated string.
    """
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, (list, tuple)) or not value:
        return None
    items = tuple(str(item) for item in value)
    caps = build_capabilities(items)
    other = [item for item in items if not item.startswith(("sm_", "compute_"))]
    return {"sass": list(caps.sass), "ptx": list(caps.ptx), "other": other}


def _first(raw: Mapping[str, object], *keys: str) -> object:
    """The value of the first key present."""
    for key in keys:
        if key in raw:
            return raw[key]
    return None


def build_facts(raw: Mapping[str, object], wheel: str) -> dict[str, object]:
    """The CUDA facts of a parsed build_info, with its raw content."""
    cuda_raw = _first(raw, "cuda_version", "cuda_version_number")
    cudnn_raw = _first(raw, "cudnn_version", "cudnn_version_number")
    is_cuda = raw.get("is_cuda_build")
    return {
        "wheel": wheel,
        "cuda_version": cuda_raw,
        "cudnn_version": cudnn_raw,
        "cuda": cuda_major_minor(cuda_raw),
        "cudnn_major": cudnn_major(cudnn_raw),
        "is_cuda_build": is_cuda if isinstance(is_cuda, bool) else None,
        "compute_capabilities": split_capabilities(raw.get("cuda_compute_capabilities")),
        "keys": sorted(raw),
        "raw": {key: raw[key] for key in sorted(raw)},
    }


def is_cuda(build: Optional[Mapping[str, object]]) -> bool:
    """Whether a build_info record is of a CUDA build."""
    if not build:
        return False
    if build.get("is_cuda_build") is not None:
        return bool(build["is_cuda_build"])
    return build.get("cuda") is not None


def metadata_python(wheel: WheelInfo) -> str:
    """The CPython version to evaluate a wheel's markers for: 3.11 if it has it, else its newest."""
    if PREFERRED_PYTHON in wheel.pythons or not wheel.pythons:
        return PREFERRED_PYTHON
    return max(wheel.pythons, key=version_key)


def wheel_summary(wheel: Optional[WheelInfo], metadata: Optional[Metadata]) -> dict[str, object]:
    """Requires-Python, Requires-Dist and the parsed pins of the Linux x86-64 wheel's METADATA."""
    if wheel is None or metadata is None:
        return {"metadata_wheel": wheel.file.filename if wheel else None}
    python = metadata_python(wheel)
    return {
        "metadata_wheel": wheel.file.filename,
        "requires_python": metadata.requires_python,
        "requires_dist": list(metadata.requires_dist),
        "pins": parse_pins(metadata.requires_dist),
        "linux_metadata_wrappers": parse_wrappers(metadata.requires_dist, python),
        "wrapper_requirements": parse_wrapper_requirements(metadata.requires_dist),
        "and_cuda": parse_extra(metadata.requires_dist, AND_CUDA_EXTRA, python),
    }


def needs_own_metadata(wheel: WheelInfo, linux_wrappers: Mapping[str, str]) -> bool:
    """Whether a platform's wheel METADATA must be read to know the wrapper it pulls.

    Every wheel carries its own METADATA, so the Linux one is only a hint: 2.11's names no
    wrapper although its Windows and aarch64 wheels are ~2 KB wrappers, and 2.19's names
    tensorflow-intel for Windows although its Windows wheel is a full build.
    """
    thin = wheel.file.size is not None and wheel.file.size < THIN_WHEEL_BYTES
    return thin or bool(wheel.platforms & set(linux_wrappers))


def platform_wheel_record(
    wheel: WheelInfo, platform: str, metadata: Optional[Metadata]
) -> dict[str, object]:
    """A platform's representative wheel: name, size, and the wrapper its own METADATA requires."""
    record: dict[str, object] = {
        "wheel": wheel.file.filename,
        "size": wheel.file.size,
        "thin": wheel.file.size is not None and wheel.file.size < THIN_WHEEL_BYTES,
        "metadata_read": metadata is not None,
        "wrapper": None,
        "wrapper_requirement": None,
    }
    if metadata is not None:
        wrappers = parse_wrappers(metadata.requires_dist, metadata_python(wheel))
        requirements = parse_wrapper_requirements(metadata.requires_dist)
        record["wrapper"] = wrappers.get(platform)
        record["wrapper_requirement"] = requirements.get(wrappers.get(platform, ""))
    return record


def line_sort_key(line: str) -> tuple[int, ...]:
    """Sort key for ``X.Y`` line strings."""
    return version_key(line)


def wanted_lines(latest: Mapping[str, Version]) -> list[str]:
    """1.15 and every 2.x line, newest first."""
    lines = [line for line in latest if line == "1.15" or line.startswith("2.")]
    return sorted(lines, key=line_sort_key, reverse=True)


def side_dist_summary(files: Sequence[IndexFile]) -> dict[str, object]:
    """The lines a side distribution has a final release for, and when each version appeared."""
    latest = latest_finals(files)
    first_upload: dict[str, str] = {}
    with_wheels: set[str] = set()
    for file in files:
        version = file_version(file)
        if version is None or file.yanked:
            continue
        if parse_wheel(file):
            with_wheels.add(str(version))
        if file.upload_time and (
            str(version) not in first_upload or file.upload_time < first_upload[str(version)]
        ):
            first_upload[str(version)] = file.upload_time
    ordered = sorted(latest, key=line_sort_key, reverse=True)
    return {
        "latest_by_line": {line: str(latest[line]) for line in ordered},
        # tensorflow-gpu 2.12.0 is an sdist whose setup.py only raises an error.
        "sdist_only": sorted(
            (str(latest[line]) for line in ordered if str(latest[line]) not in with_wheels),
            key=Version,
        ),
        "first_upload": dict(sorted(first_upload.items(), key=lambda kv: Version(kv[0]))),
    }


# === the matrix cross-check (pure) ==========================================================


def _render(value: object) -> str:
    """A value as it appears in a difference line."""
    return json.dumps(value, sort_keys=True)


def _specifiers_equal(left: Optional[str], right: Optional[str]) -> bool:
    """Whether two specifier strings mean the same set (None only equals None)."""
    if left is None or right is None:
        return left is None and right is None
    try:
        return SpecifierSet(left) == SpecifierSet(right)
    except InvalidSpecifier:
        return left == right


def _version_equal(left: object, right: object) -> bool:
    """Whether two version-like strings compare equal as versions (``2.5`` == ``2.5.0``)."""
    if left is None or right is None:
        return left is None and right is None
    try:
        return Version(str(left)) == Version(str(right))
    except InvalidVersion:
        return str(left) == str(right)


def linux_gpu_build(facts: Mapping[str, Any]) -> Optional[Mapping[str, Any]]:
    """The build_info record of the Linux GPU package of a line (plain or tensorflow-gpu)."""
    if is_cuda(facts.get("build_info")):
        build: Mapping[str, Any] = facts["build_info"]
        return build
    if is_cuda(facts.get("gpu_build_info")):
        gpu: Mapping[str, Any] = facts["gpu_build_info"]
        return gpu
    return None


def pin_value(entries: Sequence[Mapping[str, Any]]) -> object:
    """A pin as the matrix holds it: None, the one specifier, or every {specifier, marker}."""
    if not entries:
        return None
    if len(entries) == 1:
        return str(entries[0]["specifier"])
    return [dict(entry) for entry in entries]


def _pin_agrees(want: object, have: object) -> bool:
    """Whether a matrix pin matches; with conditional pins (several lines) any one may match."""
    if have is None or want is None:
        return have is None and want is None
    if isinstance(have, str):
        return _specifiers_equal(str(want), have)
    assert isinstance(have, list)
    return any(_specifiers_equal(str(want), str(entry["specifier"])) for entry in have)


def _and_cuda_equal(want: object, have: Optional[Mapping[str, str]]) -> bool:
    """Whether the matrix's and-cuda mapping matches the wheel's extra (specifier sets)."""
    if not want or not have:
        return not want and not have
    if not isinstance(want, Mapping):
        return False
    want_n: dict[str, object] = {canonicalize_name(str(k)): v for k, v in want.items()}
    if set(want_n) != set(have):
        return False
    return all(
        _specifiers_equal(None if want_n[k] is None else str(want_n[k]), have[k]) for k in have
    )


def _cuda_agrees(want: object, have: Optional[str]) -> bool:
    """Whether the matrix's CUDA major.minor matches build_info's (a bare major: majors match)."""
    if want is None or have is None:
        return want is None and have is None
    if "." not in have:
        return str(want).split(".")[0] == have
    return str(want) == have


def _as_list(value: object) -> list[object]:
    """A YAML/JSON list as a list; anything else as empty."""
    return list(value) if isinstance(value, (list, tuple)) else []


def _same_pythons(want: object, have: object) -> bool:
    """Whether two lists of CPython versions hold the same versions."""
    want_list = sorted((str(v) for v in _as_list(want)), key=version_key)
    return want_list == [str(v) for v in _as_list(have)]


def _cudnn_agrees(want: object, have: object) -> bool:
    """Whether the matrix's cuDNN (major.minor) has build_info's major."""
    return (cudnn_major(str(want)) if want is not None else None) == have


def _capabilities(value: object) -> Optional[dict[str, list[str]]]:
    """{sass, ptx} sorted, for comparing; None stays None."""
    if not isinstance(value, Mapping):
        return None
    return {kind: sorted(str(v) for v in value.get(kind) or []) for kind in ("sass", "ptx")}


def _capabilities_agree(want: object, have: object) -> bool:
    """Whether the matrix's compute capabilities equal build_info's.

    Wheels before 2.3 do not record them; the matrix then takes them from TensorFlow's
    release build scripts (its own sources say so), and there is nothing to compare.
    """
    if have is None:
        return True
    return _capabilities(want) == have


def _wrappers_agree(want: object, have: object) -> bool:
    """Whether two platform -> wrapper mappings are equal (null is none)."""
    want_map = dict(want) if isinstance(want, Mapping) else {}
    have_map = dict(have) if isinstance(have, Mapping) else {}
    return want_map == have_map


def _equal(want: object, have: object) -> bool:
    """Plain equality."""
    return want == have


def _same_platforms(want: object, have: object) -> bool:
    """Whether two platform-key lists hold the same keys, in any order."""
    return sorted(str(v) for v in _as_list(want)) == sorted(str(v) for v in _as_list(have))


def _pin_rows(
    entry: Mapping[str, Any], facts: Mapping[str, Any]
) -> list[tuple[str, object, object, Callable[[Any, Any], bool]]]:
    """The pins rows in the matrix's order; tf-keras's comes from tf-keras's own METADATA."""
    want_pins = entry.get("pins") or {}
    have_pins = facts.get("pins") or {}
    rows: list[tuple[str, object, object, Callable[[Any, Any], bool]]] = []
    for name in ("numpy", "protobuf", "keras", "tf-keras", "ml-dtypes"):
        field = name.replace("-", "_")
        if name == TF_KERAS_DIST:
            have = (facts.get("tf_keras") or {}).get("tensorflow")
            rows.append((f"pins.{field}", want_pins.get(field), have, _specifiers_equal))
        else:
            have = pin_value(have_pins.get(name, []))
            rows.append((f"pins.{field}", want_pins.get(field), have, _pin_agrees))
    return rows


def diff_line(entry: Mapping[str, Any], facts: Mapping[str, Any]) -> list[str]:
    """The fields of one matrix row that differ from the wheels, one line each, in field order."""
    gpu: Mapping[str, Any] = linux_gpu_build(facts) or {}
    want_python = entry.get("python") or {}
    want_gpu_package = entry.get("gpu_package") or {}
    cudnn_extra = cudnn_pin(facts.get("and_cuda"))
    rows: list[tuple[str, object, object, Callable[[Any, Any], bool]]] = [
        ("latest_patch", entry.get("latest_patch"), facts.get("latest_patch"), _version_equal),
        (
            "requires_python",
            entry.get("requires_python"),
            facts.get("requires_python"),
            _specifiers_equal,
        ),
        *(
            (f"python.{key}", want_python.get(key), facts["python"].get(key, []), _same_pythons)
            for key in PLATFORM_KEYS
        ),
        ("glibc_min", entry.get("glibc_min"), facts.get("glibc_min"), _version_equal),
        (
            "gpu_package.linux",
            want_gpu_package.get("linux"),
            facts.get("linux_gpu_package"),
            _equal,
        ),
        (
            "gpu_package.windows",
            want_gpu_package.get("windows"),
            facts.get("windows_gpu_package"),
            _equal,
        ),
        ("cuda_builds", entry.get("cuda_builds"), facts.get("cuda_builds"), _same_platforms),
        (
            "windows_native_gpu",
            entry.get("windows_native_gpu"),
            facts.get("windows_gpu_package") is not None,
            _equal,
        ),
        (
            "cuda",
            entry.get("cuda"),
            gpu.get("cuda") or (extra_cuda(facts.get("and_cuda")) if gpu else None),
            _cuda_agrees,
        ),
        *(
            # From 2.22 build_info records no cuDNN version: the extra's row below compares it.
            []
            if gpu and gpu.get("cudnn_major") is None and cudnn_extra
            else [("cudnn", entry.get("cudnn"), gpu.get("cudnn_major"), _cudnn_agrees)]
        ),
        *(
            # The and-cuda extra pins cuDNN to a release, so it gives the minor too.
            [
                (
                    f"cudnn ({cudnn_extra[0]}{cudnn_extra[1]})",
                    entry.get("cudnn"),
                    pin_major_minor(cudnn_extra[1]),
                    _equal,
                )
            ]
            if cudnn_extra
            else []
        ),
        (
            "compute_capabilities",
            entry.get("compute_capabilities"),
            _capabilities(gpu.get("compute_capabilities")),
            _capabilities_agree,
        ),
        *_pin_rows(entry, facts),
        ("and_cuda", entry.get("and_cuda"), facts.get("and_cuda"), _and_cuda_equal),
        ("wrappers", entry.get("wrappers"), facts.get("wrappers"), _wrappers_agree),
    ]
    line = str(facts["line"])
    out = [
        f"{line}: {field}: matrix {_render(want)}, wheels {_render(have)}"
        for field, want, have, agree in rows
        if not agree(want, have)
    ]
    out.extend(f"{line}: could not read {what}" for what in facts.get("unread") or [])
    return out


def diff_matrix(matrix: Mapping[str, Any], lines: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every difference between the matrix's tensorflow rows and the wheel facts, newest first."""
    rows = {str(row.get("line")): row for row in matrix.get("tensorflow") or []}
    out: list[str] = []
    for facts in lines:
        line = str(facts["line"])
        if line not in rows:
            out.append(f"{line}: on PyPI ({facts['latest_patch']}), missing from the matrix")
            continue
        out.extend(diff_line(rows[line], facts))
    return out


def agreement_summary(count: int) -> str:
    """The one line `check` prints when every compared line agrees."""
    noun = "line agrees" if count == 1 else "lines agree"
    return (
        f"{count} {noun} with the wheels (fields: {', '.join(CHECKED_FIELDS)}); "
        f"not checked: {', '.join(UNCHECKED_FIELDS)}"
    )


# === draft =================================================================================

# Where each drafted fact comes from: source ids of the matrix's `sources` table, as
# tfdoctor/matrix_schema.py gives them per field.
DRAFT_SOURCES: Mapping[str, object] = matrix_schema.draft_sources()


def draft_entry(facts: Mapping[str, Any]) -> dict[str, Any]:
    """A matrix row for one line from its wheel facts, each fact with its source.

    What the wheels do not tell is left null and said in ``notes``: the reviewer reads the
    draft, adds what needs another source (GPU failures, the macOS plugin) and pastes it.
    """
    gpu: Mapping[str, Any] = linux_gpu_build(facts) or {}
    extra = facts.get("and_cuda")
    cudnn_extra = cudnn_pin(extra)
    sources: dict[str, object] = {}
    notes: list[str] = []

    def cite(field: str, value: object, source: object) -> object:
        if value is not None and value not in ([], {}):
            sources[field] = source
        return value

    cuda = gpu.get("cuda")
    cuda_source: object = DRAFT_SOURCES["cuda"]
    if cuda is None and gpu:
        # No version in build_info: the floor the and-cuda extra pins, from the same METADATA.
        cuda, cuda_source = extra_cuda(extra), DRAFT_SOURCES["and_cuda"]
        notes.append(
            "build_info.py records no CUDA or cuDNN version: both are the floors of the "
            "and-cuda extra's nvidia-cuda-runtime and nvidia-cudnn wheels."
        )
    cudnn = pin_major_minor(cudnn_extra[1]) if cudnn_extra else gpu.get("cudnn_major")
    caps = gpu.get("compute_capabilities")
    if gpu and caps is None:
        notes.append(
            "build_info.py lists no GPU architectures: read them from the .nv_fatbin "
            "headers of the wheel's shared objects (compute_capabilities left null)."
        )
    pins = facts.get("pins") or {}
    pin_fields: dict[str, object] = {}
    for name in ("numpy", "protobuf", "keras", "tf-keras", "ml-dtypes"):
        field = name.replace("-", "_")
        if name == TF_KERAS_DIST:
            pin_fields[field] = (facts.get("tf_keras") or {}).get("tensorflow")
        else:
            value = pin_value(pins.get(name, []))
            pin_fields[field] = value if value is None or isinstance(value, str) else None
            if value is not None and not isinstance(value, str):
                notes.append(f"{name} has conditional pins: {_render(value)}")
    requires = [str(r) for r in facts.get("requires_dist") or []]
    if pin_fields["keras"] is None and any(r.startswith("keras-nightly") for r in requires):
        notes.append(
            "The wheel requires keras-nightly, not keras: "
            + next(r for r in requires if r.startswith("keras-nightly"))
        )
    if pin_fields["tf_keras"] is None:
        notes.append("tf-keras has no release for this line.")
    builds = list(facts.get("cuda_builds") or [])
    latest = str(facts["latest_patch"])
    if Version(latest).is_prerelease:
        notes.append(
            f"{latest} is a pre-release: the line is marked by its latest_patch, and "
            "recommendations skip it unless asked for pre-releases."
        )
    entry: dict[str, Any] = {
        "line": facts["line"],
        "latest_patch": cite("latest_patch", latest, DRAFT_SOURCES["latest_patch"]),
        "requires_python": cite(
            "requires_python", facts.get("requires_python"), DRAFT_SOURCES["requires_python"]
        ),
        "python": cite("python", facts.get("python"), DRAFT_SOURCES["python"]),
        "glibc_min": cite("glibc_min", facts.get("glibc_min"), DRAFT_SOURCES["glibc_min"]),
        "gpu_package": cite(
            "gpu_package",
            {
                "linux": facts.get("linux_gpu_package"),
                "windows": facts.get("windows_gpu_package"),
                "macos": None,
            },
            DRAFT_SOURCES["gpu_package"],
        ),
        "cuda_builds": cite("cuda_builds", builds, DRAFT_SOURCES["cuda_builds"]),
        "windows_native_gpu": cite(
            "windows_native_gpu",
            "windows-x86_64" in builds,
            DRAFT_SOURCES["windows_native_gpu"],
        ),
        "wrappers": cite("wrappers", dict(facts.get("wrappers") or {}), DRAFT_SOURCES["wrappers"]),
        "cuda": cite("cuda", cuda, cuda_source),
        "cudnn": cite("cudnn", cudnn, DRAFT_SOURCES["and_cuda" if cudnn_extra else "cudnn"]),
        "compute_capabilities": cite(
            "compute_capabilities",
            {"sass": caps["sass"], "ptx": caps["ptx"]} if caps else None,
            DRAFT_SOURCES["compute_capabilities"],
        ),
        "pins": cite("pins", pin_fields, DRAFT_SOURCES["pins"]),
        "and_cuda": cite("and_cuda", extra, DRAFT_SOURCES["and_cuda"]),
    }
    if pin_fields["tf_keras"] is not None:
        sources["pins.tf_keras"] = DRAFT_SOURCES["pins.tf_keras"]
    if extra:
        entry["cuda_install"] = {"method": AND_CUDA_EXTRA}
        sources["cuda_install"] = DRAFT_SOURCES["cuda_install"]
    notes.extend(f"Could not read {what}." for what in facts.get("unread") or [])
    entry["sources"] = sources
    entry["notes"] = notes
    return entry


def _yaml_scalar(value: object) -> str:
    """A scalar as the matrix writes it: strings double-quoted, null, true/false."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(str(value))


def _yaml_value(value: object, indent: int) -> list[str]:
    """The lines of a value under a key (a mapping nests, a list of scalars stays inline)."""
    pad = " " * indent
    if isinstance(value, Mapping):
        if not value:
            return [" {}"]
        out = [""]
        for key, item in value.items():
            rendered = _yaml_value(item, indent + 2)
            out.append(f"{pad}{key}:{rendered[0]}")
            out.extend(rendered[1:])
        return out
    if isinstance(value, (list, tuple)):
        if all(not isinstance(v, (Mapping, list, tuple)) for v in value) and all(
            len(str(v)) < 40 for v in value
        ):
            return [" [" + ", ".join(str(v) if _bare(v) else _yaml_scalar(v) for v in value) + "]"]
        return ["", *(f"{pad}- {_yaml_scalar(v)}" for v in value)]
    return [f" {_yaml_scalar(value)}"]


def _bare(value: object) -> bool:
    """Whether a list item is written unquoted, as the matrix does (platform keys, sm_XY)."""
    return isinstance(value, str) and re.fullmatch(r"[a-z][a-z0-9_.-]*", value) is not None


def render_entry(entry: Mapping[str, Any]) -> str:
    """A drafted row as the YAML list item to paste under ``tensorflow:``."""
    lines: list[str] = []
    for index, (key, value) in enumerate(entry.items()):
        rendered = _yaml_value(value, 6)
        lines.append(f"{'  - ' if index == 0 else '    '}{key}:{rendered[0]}")
        lines.extend(rendered[1:])
    return "\n".join(lines) + "\n"


# === network ================================================================================


def _open(url: str, headers: Mapping[str, str], timeout: float) -> http.client.HTTPResponse:
    """GET a URL with the script's User-Agent; errors become FetchError."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, **headers})
    try:
        response: http.client.HTTPResponse = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as error:
        error.close()
        raise FetchError(f"GET {url}: HTTP {error.code} {error.reason}") from error
    except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
        reason = getattr(error, "reason", error)
        raise FetchError(f"GET {url}: {reason}") from error
    return response


def _read_body(response: http.client.HTTPResponse, url: str) -> bytes:
    """The whole body of a response; errors become FetchError."""
    try:
        with response:
            return response.read()
    except (OSError, http.client.HTTPException) as error:
        raise FetchError(f"GET {url}: {error}") from error


class HttpRangeFile(io.RawIOBase):
    """A seekable read-only file over HTTP range requests, caching what it fetched in blocks."""

    def __init__(self, url: str, timeout: float = TIMEOUT_S, block_size: int = BLOCK_SIZE) -> None:
        super().__init__()
        self.url = url
        self.timeout = timeout
        self.block_size = block_size
        self.requests = 0
        self._pos = 0
        self._segments: list[tuple[int, bytes]] = []
        # The tail holds the zip's end-of-central-directory record; its Content-Range gives
        # the size, so no separate HEAD request is needed.
        start, data, self.size = self._fetch(f"bytes=-{block_size}")
        self._segments.append((start, data))

    def _fetch(self, byte_range: str) -> tuple[int, bytes, int]:
        """(start, body, total size) of one range request."""
        self.requests += 1
        response = _open(self.url, {"Range": byte_range}, self.timeout)
        if response.status != 206:
            response.close()
            raise FetchError(f"GET {self.url}: server ignored Range (HTTP {response.status})")
        content_range = response.headers.get("Content-Range", "")
        match = _CONTENT_RANGE_RE.match(content_range.strip())
        if not match:
            response.close()
            raise FetchError(f"GET {self.url}: bad Content-Range {content_range!r}")
        body = _read_body(response, self.url)
        start, end, total = (int(g) for g in match.groups())
        if len(body) != end - start + 1:
            raise FetchError(f"GET {self.url}: short body for {content_range}")
        return start, body, total

    def readable(self) -> bool:
        """Always readable."""
        return True

    def seekable(self) -> bool:
        """Always seekable."""
        return True

    def tell(self) -> int:
        """The current position."""
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        """Move the position like a regular file."""
        if whence == io.SEEK_SET:
            pos = offset
        elif whence == io.SEEK_CUR:
            pos = self._pos + offset
        elif whence == io.SEEK_END:
            pos = self.size + offset
        else:
            raise ValueError(f"bad whence {whence}")
        if pos < 0:
            raise ValueError("negative seek position")
        self._pos = pos
        return pos

    def _cached(self, start: int, end: int) -> Optional[bytes]:
        """Bytes [start, end) if one fetched segment holds them all."""
        for seg_start, data in self._segments:
            if seg_start <= start and end <= seg_start + len(data):
                return data[start - seg_start : end - seg_start]
        return None

    def readinto(self, buffer: Any) -> int:
        """Fill ``buffer`` from the current position, fetching missing blocks in one request."""
        view = memoryview(buffer).cast("B")
        start = self._pos
        end = min(self.size, start + len(view))
        if start >= end:
            return 0
        data = self._cached(start, end)
        if data is None:
            block_start = start - start % self.block_size
            block_end = min(self.size, -(-end // self.block_size) * self.block_size)
            seg_start, body, _total = self._fetch(f"bytes={block_start}-{block_end - 1}")
            self._segments.append((seg_start, body))
            data = body[start - seg_start : end - seg_start]
        view[: len(data)] = data
        self._pos = start + len(data)
        return len(data)


def read_members(url: str, names: Sequence[str], timeout: float = TIMEOUT_S) -> dict[str, bytes]:
    """The named members of a remote zip (``METADATA`` means the dist-info one); absent: left out.

    Only the central directory and those members travel, not the whole wheel.
    """
    remote = HttpRangeFile(url, timeout=timeout)
    found: dict[str, bytes] = {}
    try:
        with zipfile.ZipFile(remote) as archive:
            members = archive.namelist()
            for name in names:
                if name == METADATA_MEMBER:
                    matches = [
                        m
                        for m in members
                        if m.endswith(".dist-info/METADATA") and m.count("/") == 1
                    ]
                elif name == BUILD_INFO_MEMBER:
                    matches = [m for m in BUILD_INFO_PATHS if m in members]
                else:
                    matches = [m for m in members if m == name]
                if matches:
                    found[name] = archive.read(matches[0])
    except (zipfile.BadZipFile, OSError, EOFError) as error:
        raise FetchError(f"{url}: not a readable zip: {error}") from error
    return found


class PyPI:
    """Reads the simple index and wheel members, optionally through a cache directory."""

    def __init__(
        self,
        cache_dir: Optional[Path] = None,
        timeout: float = TIMEOUT_S,
        log: Callable[[str], None] = lambda _msg: None,
        index_url: str = INDEX_URL,
        offline: bool = False,
    ) -> None:
        self.cache_dir = cache_dir
        self.timeout = timeout
        self.log = log
        self.index_url = index_url.rstrip("/") + "/"
        self.offline = offline

    def _online(self, what: str) -> None:
        """Refuse a fetch in offline mode."""
        if self.offline:
            raise FetchError(f"{what} is not in the cache and --offline forbids fetching it")

    def index(self, dist: str) -> list[IndexFile]:
        """The files of a distribution from the PEP 691 simple index."""
        cached = self.cache_dir / "simple" / f"{dist}.json" if self.cache_dir else None
        if cached and cached.is_file():
            raw = cached.read_bytes()
        else:
            self._online(f"the index of {dist}")
            url = f"{self.index_url}{dist}/"
            self.log(f"index {dist}")
            raw = _read_body(_open(url, {"Accept": SIMPLE_ACCEPT}, self.timeout), url)
            if cached:
                cached.parent.mkdir(parents=True, exist_ok=True)
                cached.write_bytes(raw)
        try:
            return parse_simple_index(json.loads(raw))
        except (ValueError, KeyError) as error:
            raise FetchError(f"simple index of {dist}: not PEP 691 JSON: {error}") from error

    def members(self, file: IndexFile, names: Sequence[str]) -> dict[str, bytes]:
        """Members of a wheel (absent ones left out), from the cache when all are there."""
        folder = self.cache_dir / "wheels" / file.filename if self.cache_dir else None

        def cache_path(name: str) -> Path:
            assert folder is not None
            return folder / name.replace("/", "__")

        if folder and all(
            cache_path(n).is_file() or cache_path(n + ".absent").is_file() for n in names
        ):
            return {n: cache_path(n).read_bytes() for n in names if cache_path(n).is_file()}
        self._online(f"{', '.join(names)} of {file.filename}")
        self.log(f"wheel {file.filename}")
        found = read_members(file.url, names, self.timeout)
        if folder:
            folder.mkdir(parents=True, exist_ok=True)
            for name in names:
                if name in found:
                    cache_path(name).write_bytes(found[name])
                else:
                    cache_path(name + ".absent").write_bytes(b"")
        return found


# === assembling =============================================================================


def _decode(data: Optional[bytes]) -> Optional[str]:
    """Member bytes as text."""
    return data.decode("utf-8", errors="replace") if data is not None else None


def _build_record(wheel: Optional[WheelInfo], source: Optional[str]) -> Optional[dict[str, object]]:
    """build_facts of a wheel's build_info.py text, None when the wheel has none."""
    if wheel is None or source is None:
        return None
    return build_facts(parse_build_info(source), wheel.file.filename)


def _platform_build(
    pypi: PyPI,
    wheel: WheelInfo,
    record: Mapping[str, object],
    platform: str,
    side: Mapping[str, Sequence[IndexFile]],
) -> Optional[dict[str, object]]:
    """build_facts of what a platform installs: its own wheel, or the one its wrapper pulls.

    2.10-2.15's aarch64 wheels and 2.11-2.18's Windows wheels are ~2 KB wrappers whose
    METADATA requires tensorflow-cpu-aws / tensorflow-intel at the same version; the build
    is in that wheel.
    """
    target: Optional[WheelInfo] = wheel
    if record.get("wrapper"):
        target = wrapped_wheel(
            str(record.get("wrapper_requirement") or ""),
            side.get(str(record["wrapper"]), ()),
            platform,
        )
    return _read_build(pypi, target) if target else None


def _read_build(pypi: PyPI, wheel: WheelInfo) -> Optional[dict[str, object]]:
    """build_facts of a wheel's build_info.py, None when it has none."""
    got = pypi.members(wheel.file, [BUILD_INFO_MEMBER])
    return _build_record(wheel, _decode(got.get(BUILD_INFO_MEMBER)))


def _tf_keras_record(
    pypi: PyPI, line: str, files: Sequence[IndexFile], pre: bool = False
) -> Optional[dict[str, object]]:
    """The tf-keras release of a line and the tensorflow range it requires; None if no release."""
    version = latest_versions(files, pre).get(line)
    if version is None:
        return None
    wheel = pure_wheel(wheels_of(files, version))
    record: dict[str, object] = {
        "version": str(version),
        "wheel": wheel.file.filename if wheel else None,
        "metadata_read": False,
        "tensorflow": None,
    }
    if wheel is not None:
        text = _decode(pypi.members(wheel.file, [METADATA_MEMBER]).get(METADATA_MEMBER))
        if text is not None:
            record["metadata_read"] = True
            record["tensorflow"] = parse_tensorflow_requirement(parse_metadata(text).requires_dist)
    return record


def collect_line(
    pypi: PyPI,
    line: str,
    version: Version,
    files: Sequence[IndexFile],
    side: Mapping[str, Sequence[IndexFile]],
    pre: bool = False,
) -> dict[str, object]:
    """Every fact of one minor line, reading the few wheels it needs.

    ``side`` holds the index files of the side distributions (SIDE_DISTS) by name; ``pre``
    lets a pre-release line read its side distributions' pre-releases too.
    """
    wheels = wheels_of(files, version)
    linux = pick_wheel(wheels, "linux-x86_64")
    members = pypi.members(linux.file, [METADATA_MEMBER, BUILD_INFO_MEMBER]) if linux else {}
    metadata_text = _decode(members.get(METADATA_MEMBER))
    metadata = parse_metadata(metadata_text) if metadata_text is not None else None
    summary = wheel_summary(linux, metadata)
    facts: dict[str, object] = {
        "line": line,
        "latest_patch": str(version),
        "python": pythons_by_platform(wheels),
        "glibc_min": glibc_floor(wheels),
        "index_requires_python": sorted(
            {w.file.requires_python for w in wheels if w.file.requires_python}
        ),
        "requires_python": None,
        "pins": None,
        "and_cuda": None,
        "linux_metadata_wrappers": {},
        **summary,
        "build_info": _build_record(linux, _decode(members.get(BUILD_INFO_MEMBER))),
        "gpu_build_info": None,
        "aarch64_build_info": None,
        "windows_build_info": None,
    }
    linux_wrappers = (
        parse_wrappers(metadata.requires_dist, metadata_python(linux)) if linux and metadata else {}
    )
    platform_wheels: dict[str, object] = {}
    wrappers: dict[str, str] = {}
    builds: dict[str, Optional[dict[str, object]]] = {}
    for platform in PLATFORM_KEYS:
        if platform == "linux-x86_64":
            continue
        wheel = pick_wheel(wheels, platform)
        if wheel is None:
            continue
        own: Optional[Metadata] = None
        if needs_own_metadata(wheel, linux_wrappers):
            text = _decode(pypi.members(wheel.file, [METADATA_MEMBER]).get(METADATA_MEMBER))
            own = parse_metadata(text) if text is not None else None
        record = platform_wheel_record(wheel, platform, own)
        platform_wheels[platform] = record
        if record["wrapper"]:
            wrappers[platform] = str(record["wrapper"])
        if platform in CUDA_BUILD_PLATFORMS and not (
            platform == "windows-x86_64" and line in GPU_PACKAGE_LINES
        ):
            builds[platform] = _platform_build(pypi, wheel, record, platform, side)
    facts["platform_wheels"] = platform_wheels
    facts["wrappers"] = wrappers
    facts["aarch64_build_info"] = builds.get("linux-aarch64")
    facts["windows_build_info"] = builds.get("windows-x86_64")

    if line in GPU_PACKAGE_LINES:
        # 1.15 and 2.0 shipped their GPU builds, Linux and Windows, as tensorflow-gpu.
        gpu_files = side.get("tensorflow-gpu", ())
        gpu_version = latest_finals(gpu_files).get(line)
        gpu_wheels = wheels_of(gpu_files, gpu_version) if gpu_version else []
        gpu_linux = pick_wheel(gpu_wheels, "linux-x86_64")
        if gpu_linux:
            facts["gpu_build_info"] = _read_build(pypi, gpu_linux)
        gpu_windows = pick_wheel(gpu_wheels or wheels, "windows-x86_64")
        if gpu_windows:
            facts["windows_build_info"] = _read_build(pypi, gpu_windows)
    facts["tf_keras"] = _tf_keras_record(pypi, line, side.get(TF_KERAS_DIST, ()), pre)
    facts["linux_gpu_package"] = linux_gpu_package(facts)
    facts["windows_gpu_package"] = windows_gpu_package(facts)
    facts["cuda_builds"] = expected_cuda_builds(facts)
    facts["unread"] = unread_facts(facts)
    return facts


def linux_gpu_package(facts: Mapping[str, Any]) -> Optional[str]:
    """The Linux distribution whose wheel is a CUDA build: tensorflow, tensorflow-gpu or None."""
    if is_cuda(facts.get("build_info")):
        return "tensorflow"
    if is_cuda(facts.get("gpu_build_info")):
        return "tensorflow-gpu"
    return None


def _dist_of(filename: str) -> Optional[str]:
    """The canonical distribution name in a wheel file name."""
    try:
        return canonicalize_name(parse_wheel_filename(filename)[0])
    except (InvalidWheelFilename, InvalidVersion):
        return None


def windows_gpu_package(facts: Mapping[str, Any]) -> Optional[str]:
    """The Windows distribution that is a CUDA build: tensorflow, tensorflow-gpu or None.

    A wrapper's target (tensorflow-intel) would still be installed as ``tensorflow``.
    """
    build = facts.get("windows_build_info")
    if build is None or not is_cuda(build):
        return None
    return "tensorflow-gpu" if _dist_of(str(build["wheel"])) == "tensorflow-gpu" else "tensorflow"


def expected_cuda_builds(facts: Mapping[str, Any]) -> list[str]:
    """The platforms whose GPU distribution's build_info says it is a CUDA build."""
    builds = {
        "linux-x86_64": linux_gpu_build(facts),
        "linux-aarch64": facts.get("aarch64_build_info"),
        "windows-x86_64": facts.get("windows_build_info"),
    }
    return [platform for platform in CUDA_BUILD_PLATFORMS if is_cuda(builds[platform])]


def unread_facts(facts: Mapping[str, Any]) -> list[str]:
    """What a line's checks need but could not be read: a platform's build_info, tf-keras METADATA.

    A platform with wheels and no build_info read is unknown, not a CPU build.
    """
    python = facts.get("python") or {}
    records = {
        "linux-x86_64": facts.get("build_info") or facts.get("gpu_build_info"),
        "linux-aarch64": facts.get("aarch64_build_info"),
        "windows-x86_64": facts.get("windows_build_info"),
    }
    unread = [
        f"the build_info of the {platform} build"
        for platform in CUDA_BUILD_PLATFORMS
        if python.get(platform) and records[platform] is None
    ]
    tf_keras = facts.get("tf_keras")
    if tf_keras and not tf_keras.get("metadata_read"):
        unread.append(f"the METADATA of tf-keras {tf_keras['version']}")
    return unread


def collect(
    pypi: PyPI, only_lines: Optional[Sequence[str]] = None, pre: bool = False
) -> tuple[list[dict[str, object]], dict[str, dict[str, object]]]:
    """Facts of every wanted line (newest first) and the side distributions' line lists.

    With ``pre`` a line that has only pre-releases on PyPI is read at its newest one.
    """
    files = pypi.index("tensorflow")
    side = {dist: pypi.index(dist) for dist in SIDE_DISTS}
    latest = latest_versions(files, pre)
    lines = wanted_lines(latest)
    if only_lines:
        unknown = [line for line in only_lines if line not in latest]
        if unknown:
            kind = "tensorflow release" if pre else "final tensorflow release (try --pre)"
            raise ValueError(f"no {kind} on PyPI for line(s) {', '.join(unknown)}")
        lines = [line for line in lines if line in only_lines]
    facts = [
        collect_line(pypi, line, latest[line], files, side, pre and latest[line].is_prerelease)
        for line in lines
    ]
    dists = {dist: side_dist_summary(dist_files) for dist, dist_files in side.items()}
    side_latest = {dist: latest_finals(dist_files) for dist, dist_files in side.items()}
    for entry in facts:
        line = str(entry["line"])
        entry["dists_with_line"] = {
            dist: str(side_latest[dist][line]) if line in side_latest[dist] else None
            for dist in SIDE_DISTS
            if dist != "tensorflow-metal"  # its versions (0.x, 1.x) do not follow TF's
        }
    return facts, dists


# === command line ===========================================================================


def _parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="refresh_matrix.py", description=__doc__.splitlines()[0] if __doc__ else None
    )
    sub = parser.add_subparsers(dest="command", required=True)
    dump = sub.add_parser("dump", help="print the wheel facts per TensorFlow line as JSON")
    dump.add_argument("--lines", help="comma-separated minor lines, e.g. 2.20,2.21")
    check = sub.add_parser("check", help="compare compat_matrix.yaml with the wheels")
    check.add_argument("--matrix", default="compat_matrix.yaml", type=Path)
    check.add_argument("--lines", help="comma-separated minor lines, e.g. 2.20,2.21")
    draft = sub.add_parser("draft", help="print matrix rows (YAML) for lines, with sources")
    draft.add_argument("--lines", required=True, help="comma-separated minor lines, e.g. 2.22")
    for command in (dump, check, draft):
        command.add_argument(
            "--pre",
            action="store_true",
            help="a line with no final release is read at its newest pre-release",
        )
        command.add_argument("--cache-dir", type=Path, help="keep fetched index and members here")
        command.add_argument("--timeout", type=float, default=TIMEOUT_S, help="seconds/request")
        command.add_argument("--offline", action="store_true", help="use only the cache")
        command.add_argument("--index-url", default=INDEX_URL, help="PEP 691 simple index")
        command.add_argument("-v", "--verbose", action="store_true", help="log fetches to stderr")
    return parser.parse_args(argv)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command; 0 ok, 1 the matrix differs, 2 network or usage error."""
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    only = [part.strip() for part in args.lines.split(",") if part.strip()] if args.lines else None

    def log(message: str) -> None:
        if args.verbose:
            print(message, file=sys.stderr)

    matrix: Mapping[str, Any] = {}
    if args.command == "check":
        try:
            loaded = yaml.safe_load(args.matrix.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as error:
            print(f"refresh_matrix: cannot read {args.matrix}: {error}", file=sys.stderr)
            return 2
        if not isinstance(loaded, Mapping):
            print(f"refresh_matrix: {args.matrix}: not a mapping", file=sys.stderr)
            return 2
        matrix = loaded
    pypi = PyPI(
        cache_dir=args.cache_dir,
        timeout=args.timeout,
        log=log,
        index_url=args.index_url,
        offline=args.offline,
    )
    try:
        lines, dists = collect(pypi, only, args.pre)
    except FetchError as error:
        print(f"refresh_matrix: network error: {error}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"refresh_matrix: {error}", file=sys.stderr)
        return 2
    if args.command == "draft":
        print("".join(render_entry(draft_entry(facts)) for facts in lines), end="")
        return 0
    if args.command == "dump":
        document = {"source": "https://pypi.org/simple/", "lines": lines, "dists": dists}
        print(json.dumps(document, indent=1, sort_keys=True))
        return 0
    differences = diff_matrix(matrix, lines)
    for difference in differences:
        print(difference)
    if not differences:
        print(agreement_summary(len(lines)))
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
