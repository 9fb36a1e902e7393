"""The one specification of ``compat_matrix.yaml``'s keys: type, required, sourced, refreshed.

The matrix loader (:mod:`tfdoctor.matrix`) takes its required and optional keys, which facts
need a source and which sub-facts may have their own from here; ``scripts/refresh_matrix.py``
takes the fields ``check`` compares with the wheels and those ``draft`` writes from here. A new
field is added here once, then read in the loader and, if the wheels state it, in the script.

Imports nothing from the package.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Union

#: How a field is kept up to date.
#: ``refresh_matrix.py draft`` writes it from the wheels and ``check`` compares it with them.
CHECKED = "checked"
#: ``draft`` writes it from the wheels; ``check`` leaves it alone (a person reviews it).
DRAFTED = "drafted"
#: Written by a person from the cited source (reports, docs, other packages).
HAND = "hand"
#: The key a row is found by (a line's ``line``).
KEY = "key"

#: A stated value is any non-null one.
NOT_NULL = "not-null"
#: A stated value is a non-empty list or mapping, or ``true``.
NON_EMPTY = "non-empty"


@dataclasses.dataclass(frozen=True)
class Field:
    """One key of a matrix row: its value's type, and how it is required, sourced and kept."""

    name: str
    #: The value, as the loader reads it (``"X.Y string"``, ``"specifier or null"``, ...).
    type: str
    required: bool = True
    #: A stated value needs a source id under the line's ``sources``.
    sourced: bool = True
    refreshed: str = HAND
    #: When the value counts as stated (and so needs a source): NOT_NULL or NON_EMPTY.
    stated: str = NOT_NULL
    #: Sub-keys with a fixed set of names (a mapping's keys), each with its own refresh state.
    parts: tuple[Field, ...] = ()
    #: Each stated part needs a source, given as ``sources.FIELD.PART`` or ``sources.FIELD``.
    sourced_parts: bool = False
    #: What the value means, for docs/compatibility.md.
    doc: str = ""
    #: The matrix source ids ``refresh_matrix.py draft`` cites for the value it drafts.
    drafted_from: tuple[str, ...] = ()

    def part_names(self) -> tuple[str, ...]:
        """The names of the sub-keys, in order."""
        return tuple(part.name for part in self.parts)


#: Platform keys of the per-platform lists, and the operating system of each.
PLATFORMS: Mapping[str, str] = {
    "linux-x86_64": "linux",
    "linux-aarch64": "linux",
    "macos-x86_64": "macos",
    "macos-arm64": "macos",
    "windows-x86_64": "windows",
}
#: PEP 508 markers selecting a platform key's wheels (``sys_platform`` and
#: ``platform_machine`` as pip evaluates them there).
PLATFORM_MARKERS: Mapping[str, str] = {
    "linux-x86_64": 'sys_platform == "linux" and platform_machine == "x86_64"',
    "linux-aarch64": 'sys_platform == "linux" and platform_machine == "aarch64"',
    "macos-x86_64": 'sys_platform == "darwin" and platform_machine == "x86_64"',
    "macos-arm64": 'sys_platform == "darwin" and platform_machine == "arm64"',
    "windows-x86_64": 'sys_platform == "win32"',
}
OPERATING_SYSTEMS = ("linux", "windows", "macos")

_PIN = "version specifier or null"

#: The keys of one ``tensorflow`` row, in the order the file writes them.
LINE_FIELDS: tuple[Field, ...] = (
    Field(
        "line",
        "release line, X.Y string",
        sourced=False,
        refreshed=KEY,
        doc='the release line, `"2.16"`',
    ),
    Field(
        "latest_patch",
        "X.Y.Z (or X.Y.ZrcN before the first final)",
        refreshed=CHECKED,
        doc=(
            "the newest final release of the line on PyPI; before the line's first final, its "
            "newest pre-release (`2.22.0rc0`), which marks the line as a pre-release: it is "
            "listed, but the newest fit (`matrix`, the fixes, `pin`) is never one"
        ),
        drafted_from=("pypi-files",),
    ),
    Field(
        "requires_python",
        "version specifier or null",
        refreshed=CHECKED,
        doc="the wheels' `Requires-Python`, or null where they have none",
        drafted_from=("wheel-metadata",),
    ),
    Field(
        "python",
        "platform key -> sorted CPython versions with a wheel",
        refreshed=CHECKED,
        parts=tuple(Field(p, "list of 3.x strings", refreshed=CHECKED) for p in PLATFORMS),
        doc=(
            "per platform (`linux-x86_64`, `linux-aarch64`, `macos-x86_64`, `macos-arm64`, "
            "`windows-x86_64`): the CPython versions with a `tensorflow` wheel of the latest "
            "patch"
        ),
        drafted_from=("pypi-files",),
    ),
    Field(
        "glibc_min",
        "X.Y string or null",
        refreshed=CHECKED,
        doc="the lowest glibc of the Linux x86-64 wheels' manylinux tags",
        drafted_from=("pypi-files",),
    ),
    Field(
        "gpu_package",
        "operating system -> distribution with GPU support, or null",
        refreshed=CHECKED,
        parts=(
            Field("linux", "distribution or null", refreshed=CHECKED),
            Field("windows", "distribution or null", refreshed=CHECKED),
            # A plugin pairing (tensorflow-metal), not a fact of the tensorflow wheels.
            Field("macos", "distribution or null", refreshed=HAND),
        ),
        doc=(
            "per OS (`linux`, `windows`, `macos`): the distribution that brings GPU support, or "
            "null"
        ),
        drafted_from=("wheel-build-info",),
    ),
    Field(
        "cuda_builds",
        "list of platform keys",
        refreshed=CHECKED,
        stated=NON_EMPTY,
        doc=(
            "the platforms whose GPU distribution is a CUDA build (the Linux aarch64 wheels are "
            "CPU builds)"
        ),
        drafted_from=("wheel-build-info", "aarch64-wheel-build-info"),
    ),
    Field(
        "windows_native_gpu",
        "true or false",
        refreshed=CHECKED,
        stated=NON_EMPTY,
        doc=(
            "whether native Windows gets a CUDA build (must agree with `windows-x86_64` in "
            "`cuda_builds`)"
        ),
        drafted_from=("windows-wheel-build-info", "tf-2.11-release-notes"),
    ),
    Field(
        "wrappers",
        "platform key -> distribution",
        refreshed=CHECKED,
        stated=NON_EMPTY,
        doc="platform -> the distribution the `tensorflow` wheel is a thin wrapper for there",
        drafted_from=("platform-wheel-metadata",),
    ),
    Field(
        "cuda",
        "X.Y string or null",
        refreshed=CHECKED,
        doc="the CUDA version the build uses (null: no CUDA build)",
        drafted_from=("wheel-build-info",),
    ),
    Field(
        "cudnn",
        "X or X.Y string or null",
        refreshed=CHECKED,
        doc="the cuDNN version the build uses (null: no CUDA build)",
        drafted_from=("wheel-build-info",),
    ),
    Field(
        "compute_capabilities",
        "{sass: [sm_XY...], ptx: [compute_XY...]} or null",
        refreshed=CHECKED,
        parts=(
            Field("sass", "list of sm_XY", refreshed=CHECKED),
            Field("ptx", "list of compute_XY", refreshed=CHECKED),
        ),
        doc="`sass` (machine code, `sm_XY`) and `ptx` (`compute_XY`); null when unknown",
        drafted_from=("wheel-build-info",),
    ),
    Field(
        "pins",
        "package -> version specifier or null",
        refreshed=CHECKED,
        parts=(
            Field("numpy", _PIN, refreshed=CHECKED),
            Field("protobuf", _PIN, refreshed=CHECKED),
            Field("keras", _PIN, refreshed=CHECKED),
            # tf-keras X.Y declares the TensorFlow range it serves in its own METADATA.
            Field("tf_keras", _PIN, refreshed=CHECKED, drafted_from=("tf-keras-metadata",)),
            Field("ml_dtypes", _PIN, refreshed=CHECKED),
        ),
        sourced_parts=True,
        doc=(
            "`numpy`, `protobuf`, `keras`, `tf_keras`, `ml_dtypes`: version specifiers the wheel "
            "declares (tf-keras: the range tf-keras of this line declares for tensorflow); null "
            "where none"
        ),
        drafted_from=("wheel-metadata",),
    ),
    Field(
        "and_cuda",
        "distribution -> version specifier, or null",
        refreshed=CHECKED,
        doc="the `[and-cuda]` extra: distribution -> specifier; null before 2.14",
        drafted_from=("wheel-metadata",),
    ),
    Field(
        "sources",
        "fact -> source id or list of ids",
        sourced=False,
        refreshed=DRAFTED,
        doc=(
            "fact -> source id(s); `pins.tf_keras` overrides `pins` for one pin. Every non-null "
            "fact needs one"
        ),
    ),
    Field(
        "notes",
        "list of strings",
        required=False,
        sourced=False,
        refreshed=DRAFTED,
        doc="where the documentation says otherwise, and other caveats",
    ),
    Field(
        "known_gpu_failures",
        "compute capability X.Y -> how the wheels fail there",
        required=False,
        stated=NON_EMPTY,
        doc=(
            "optional: compute capability -> how the wheels fail on such GPUs although their code"
            " should run there (reported failures, sourced)"
        ),
    ),
    Field(
        "cuda_install",
        "{method: and-cuda | cudnn-wheel | system, wheels_unfound: [X.Y.Z...]}",
        required=False,
        refreshed=DRAFTED,
        parts=(
            Field("method", "and-cuda, cudnn-wheel or system", refreshed=DRAFTED),
            Field("wheels_unfound", "list of X.Y.Z", required=False),
        ),
        doc=(
            "optional: how the GPU build gets its CUDA libraries on Linux, per TensorFlow's "
            "install guide: `method` `and-cuda` (the extra's wheels), `cudnn-wheel` (2.12-2.13: "
            "the cuDNN wheel on `LD_LIBRARY_PATH`) or `system` (a toolkit and cuDNN beside "
            "TensorFlow: NVIDIA's packages, or conda's); `wheels_unfound`: patches whose own "
            "wheels TensorFlow does not find (2.16.1)"
        ),
        drafted_from=("tf-install-pip",),
    ),
    Field(
        "tensorflow_gpu_release",
        "true or false",
        required=False,
        stated=NON_EMPTY,
        doc=(
            "optional: a real `tensorflow-gpu` release of this line exists (1.15-2.11; later ones"
            " only refuse to install)"
        ),
    ),
    Field(
        "undeclared_ranges",
        "distribution -> specifier",
        required=False,
        stated=NON_EMPTY,
        doc=(
            "optional: ranges this line's code needs of a package its wheel does not declare "
            "(h5py below 3 for the HDF5 loader of 2.1 and before), judged like its own pins"
        ),
    ),
    Field(
        "tolerated_ranges",
        "distribution -> specifier",
        required=False,
        stated=NON_EMPTY,
        doc=(
            "optional: releases of a package outside the range this line's wheel declares that "
            "its code is known to run with (h5py 2 under the HDF5 loader of 2.5-2.15; Keras 3 "
            "installed over 2.15 as Keras' own instructions do): pip's notice of one, with no "
            "failure after it, is a note"
        ),
    ),
    Field(
        "keras_in_step",
        "true or false",
        required=False,
        stated=NON_EMPTY,
        doc=(
            "optional: the separate `keras` package was released with this line (2.6-2.15), so "
            "keras 2.X serves TensorFlow 2.X only, whatever range the wheel declares"
        ),
    ),
    Field(
        "tf_trt",
        "{built: true or false, module: dotted module name or null}",
        required=False,
        parts=(
            Field("built", "true or false"),
            Field("module", "dotted module name, null where built is false"),
        ),
        doc=(
            "optional: TF-TRT (TensorRT) in the line's Linux GPU build: `built`, whether that "
            "build is built with TensorRT (2.18 dropped it), and `module`, the module TF-TRT's "
            "Python API is imported from there (null without TF-TRT); absent where unknown"
        ),
    ),
    Field(
        "xla_by_default",
        "true or false",
        required=False,
        stated=NON_EMPTY,
        doc=(
            "optional: this line's Keras compiles with XLA on a GPU without being asked (2.11's "
            "optimizers, Keras 3's fit), so XLA's toolchain (ptxas, libdevice) matters to code "
            "that never asks for XLA"
        ),
    ),
    Field(
        "numpy_abi",
        "1 or 2",
        required=False,
        doc=(
            "optional: the NumPy C ABI the line's wheels were compiled against: `1` (NumPy 1.x, "
            "which NumPy 2 refuses to load) or `2` (NumPy 2.0, whose builds load under NumPy 1.x "
            "and 2); absent where no source settles it, which makes no claim"
        ),
    ),
    Field(
        "onednn_opts",
        "true or false",
        required=False,
        stated=NON_EMPTY,
        doc=(
            "optional: this line's default builds read TF_ENABLE_ONEDNN_OPTS, the switch of "
            "their oneDNN kernels (2.5 on, per the 2.5.0 release notes); before it only the MKL "
            "builds have those kernels, switched by TF_DISABLE_MKL"
        ),
    ),
)

#: The keys of the whole document.
TOP_FIELDS: tuple[Field, ...] = (
    Field("schema_version", "integer", sourced=False),
    Field("sources", "list of {id, title, url}", sourced=False),
    Field("cuda_toolkits", "list of toolkit rows, oldest first", sourced=False),
    Field("cuda_families", "list of family rows, oldest first", sourced=False),
    Field("tensorflow", "list of line rows, newest first", sourced=False),
    Field(
        "early_releases",
        "list of early release rows, oldest first",
        required=False,
        sourced=False,
        doc=(
            "optional: releases before the oldest line, and patches whose wheels differ from "
            "their line's latest patch, with only the Pythons their wheel files are tagged for "
            "on each platform (what pip can install where)"
        ),
    ),
)

_DRIVER_FIELDS: tuple[Field, ...] = (
    Field("min_driver_linux", "driver version string"),
    Field("min_driver_windows", "driver version string or null"),
    Field("source", "source id or list of ids", sourced=False),
    Field("note", "string", required=False, sourced=False),
)
#: A ``cuda_toolkits`` row: a toolkit and the driver it shipped with.
TOOLKIT_FIELDS: tuple[Field, ...] = (
    Field("cuda", "X.Y string", sourced=False, refreshed=KEY),
    *_DRIVER_FIELDS,
)
#: An ``early_releases`` row: a release older than every line, and the Pythons of its wheels.
EARLY_FIELDS: tuple[Field, ...] = (
    Field("release", "X.Y.Z string", sourced=False, refreshed=KEY),
    Field("python", "platform -> list of X.Y", sourced=False),
    Field("source", "source id or list of ids", sourced=False),
    Field(
        "tf_trt",
        "{module: dotted module name, source: source id or list of ids}",
        required=False,
        sourced=False,
        doc=(
            "optional: the module TF-TRT's Python API is imported from in the release's Linux "
            "GPU build, with its own source (where the module moved: contrib up to 1.13)"
        ),
    ),
    Field(
        "cuda",
        "{version: X.Y, cudnn: X or X.Y (optional), source: source id or list of ids}",
        required=False,
        sourced=False,
        doc=(
            "optional: the CUDA release (and the cuDNN) the release's GPU build "
            "(tensorflow-gpu) was built with, with its own source (TensorFlow's tested build "
            "configurations)"
        ),
    ),
    Field(
        "gpu_package",
        "{linux, windows: distribution name, source: source id or list of ids}",
        required=False,
        sourced=False,
        doc=(
            "optional: the distribution of the release's GPU build per OS, where the release "
            "was packaged otherwise than its line (1.15.0: tensorflow itself), with its own "
            "source"
        ),
    ),
)
#: A ``cuda_families`` row: a CUDA major's minor-version-compatibility driver floor.
FAMILY_FIELDS: tuple[Field, ...] = (
    Field("major", "integer", sourced=False, refreshed=KEY),
    *_DRIVER_FIELDS,
)


def required(fields: tuple[Field, ...]) -> tuple[str, ...]:
    """The names of the required fields, in order."""
    return tuple(f.name for f in fields if f.required)


def optional(fields: tuple[Field, ...]) -> tuple[str, ...]:
    """The names of the optional fields, in order."""
    return tuple(f.name for f in fields if not f.required)


def field(name: str, fields: tuple[Field, ...] = LINE_FIELDS) -> Field:
    """The field called ``name``; KeyError for an unknown one."""
    for candidate in fields:
        if candidate.name == name:
            return candidate
    raise KeyError(name)


def sourced(fields: tuple[Field, ...] = LINE_FIELDS) -> tuple[Field, ...]:
    """The fields whose stated values need a source."""
    return tuple(f for f in fields if f.sourced)


def source_keys(fields: tuple[Field, ...] = LINE_FIELDS) -> tuple[str, ...]:
    """The keys a line's ``sources`` may have: each sourced field, and ``FIELD.PART`` for the
    parts of a field whose parts are sourced one by one."""
    out: list[str] = []
    for f in sourced(fields):
        out.append(f.name)
        if f.sourced_parts:
            out.extend(f"{f.name}.{part}" for part in f.part_names())
    return tuple(out)


def _by_refresh(fields: tuple[Field, ...]) -> Iterator[tuple[str, str]]:
    """(dotted name, refresh state) of each field, split into its parts where they differ."""
    for f in fields:
        states = {part.refreshed for part in f.parts}
        if len(states) > 1:
            yield from ((f"{f.name}.{part.name}", part.refreshed) for part in f.parts)
        else:
            yield f.name, f.refreshed


def checked_fields(fields: tuple[Field, ...] = LINE_FIELDS) -> tuple[str, ...]:
    """What ``refresh_matrix.py check`` compares with the wheels (``gpu_package.linux``)."""
    return tuple(name for name, state in _by_refresh(fields) if state == CHECKED)


def unchecked_fields(fields: tuple[Field, ...] = LINE_FIELDS) -> tuple[str, ...]:
    """What ``check`` leaves alone: drafted for review, or written by hand (not the key)."""
    return tuple(name for name, state in _by_refresh(fields) if state not in (CHECKED, KEY))


def draft_sources(fields: tuple[Field, ...] = LINE_FIELDS) -> dict[str, Union[str, list[str]]]:
    """Fact (``pins.tf_keras`` for a part) -> the source id (or list of ids) ``draft`` cites
    for it, as the matrix's ``sources`` writes them."""
    out: dict[str, Union[str, list[str]]] = {}
    for f in fields:
        for name, ids in (
            (f.name, f.drafted_from),
            *((f"{f.name}.{p.name}", p.drafted_from) for p in f.parts),
        ):
            if ids:
                out[name] = ids[0] if len(ids) == 1 else list(ids)
    return out


def drafted_fields(fields: tuple[Field, ...] = LINE_FIELDS) -> tuple[str, ...]:
    """The top-level fields ``refresh_matrix.py draft`` writes from the wheels."""
    return tuple(
        f.name
        for f in fields
        if f.refreshed in (CHECKED, DRAFTED, KEY)
        or any(p.refreshed in (CHECKED, DRAFTED) for p in f.parts)
    )
