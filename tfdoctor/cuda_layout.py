"""CUDA release knowledge read from ``data/cuda.yaml``: the libraries TensorFlow loads, their
soname versions per CUDA major, where NVIDIA's pip wheels put them, the cuDNN a CUDA build
pairs with; and the XLA flag that names a CUDA root.

The library probe, ``tfdoctor env`` and the machine view read the same layout from here. The
data file is validated once per process (and cached across processes by its bytes); a new
CUDA major is a data change. Imports nothing from the package but the YAML reader and the
record base.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from tfdoctor.records import Record, record
from tfdoctor.yamldoc import (
    SOURCE_ID,
    DataSource,
    NodeReader,
    compose,
    load_cached,
    version_key,
)

if TYPE_CHECKING:
    from yaml import Node

#: The CUDA data shipped inside the package.
CUDA_DATA = Path(__file__).parent / "data" / "cuda.yaml"
CUDA_DATA_VERSION = 1

#: Where a CUDA toolkit sits when nothing says otherwise; XLA searches it whatever was
#: installed (xla/tsl/platform/default/cuda_libdevice_path.cc, CandidateCudaRoots:
#: TF_CUDA_TOOLKIT_PATH, /usr/local/cuda).
DEFAULT_CUDA_ROOT = "/usr/local/cuda"


class CudaDataError(ValueError):
    """A CUDA data file that cannot be used: ``FILE:LINE: FIELD: what is wrong``."""


@record
class CudaLibrary(Record):
    """A library TensorFlow loads, the wheel directories that ship it, and a fixed soname."""

    name: str
    #: Directories under ``<site>/nvidia/`` up to the first grouped CUDA major.
    wheel_dirs: tuple[str, ...]
    #: The soname version every CUDA major asks for (NCCL ``2``, the driver ``1``), or None
    #: where it follows the toolkit (:attr:`CudaData.sonames`).
    soname: Optional[str]
    source: tuple[str, ...]


@record
class SonameRow(Record):
    """The soname versions TensorFlow's loader asks for under one CUDA major."""

    cuda_major: int
    #: Library -> version; ``{minor}`` stands for the toolkit's minor version.
    versions: Mapping[str, str]
    #: Toolkit minor -> library -> version, where one minor release differs.
    minors: Mapping[int, Mapping[str, str]]
    source: tuple[str, ...]


@record
class NvidiaWheel(Record):
    """An ``nvidia-*`` distribution (without ``-cuXX``) and its directory under ``nvidia/``."""

    dist: str
    directory: str
    #: From :attr:`CudaData.grouped_from` its files sit in ``nvidia/cu<major>`` instead.
    grouped: bool
    source: tuple[str, ...]
    #: (CUDA major, the first X.Y of it NVIDIA published as this wheel), where the data says.
    first_release: tuple[tuple[int, str], ...] = ()


@record
class CudaData(Record):
    """The whole CUDA data file, typed."""

    path: str
    sources: Mapping[str, DataSource]
    newest_cuda: tuple[int, int]
    newest_cudnn_major: int
    #: The TensorRT release TensorFlow 2.14's and-cuda extra pins, the last Python its wheels
    #: serve, and the URLs that say so.
    tensorrt: tuple[str, tuple[int, int], tuple[str, ...]]
    libraries: tuple[CudaLibrary, ...]
    sonames: tuple[SonameRow, ...]
    #: Libraries whose soname is the toolkit's major under a CUDA major newer than the table.
    follow_toolkit_major: tuple[str, ...]
    #: (CUDA major, cuDNN major): the first row whose major is at least the build's.
    cudnn_pairing: tuple[tuple[int, int], ...]
    grouped_from: int
    nvcc_dir: str
    wheels: tuple[NvidiaWheel, ...]
    #: (compute capability, the first CUDA release that knows it), oldest capability first.
    architectures: tuple[tuple[str, str], ...] = ()
    #: conda's ``cudatoolkit`` package: the last CUDA major it was made for, the package
    #: that pins a CUDA release from then on, and the URLs that say so; None where the data
    #: does not say.
    conda_cudatoolkit: Optional[tuple[int, str, tuple[str, ...]]] = None

    def library(self, name: str) -> Optional[CudaLibrary]:
        """The row of library ``name``."""
        return next((lib for lib in self.libraries if lib.name == name), None)

    def grouped_dirs(self) -> frozenset[str]:
        """The wheel directories whose files move into ``nvidia/cu<major>``."""
        return frozenset(w.directory for w in self.wheels if w.grouped)

    def grouped_libraries(self) -> tuple[str, ...]:
        """The libraries in ``nvidia/cu<major>/lib`` from :attr:`grouped_from`, in order."""
        grouped = self.grouped_dirs()
        return tuple(
            lib.name for lib in self.libraries if any(d in grouped for d in lib.wheel_dirs)
        )


def parse_cuda_data(text: str, path: str = "<cuda data>") -> CudaData:
    """Validate CUDA data YAML ``text`` (``path`` names it in errors)."""
    root = compose(text, path, "CUDA data", CudaDataError)
    reader = NodeReader(path, CudaDataError)
    top = reader.mapping(
        root,
        "cuda",
        (
            "schema_version",
            "sources",
            "newest",
            "tensorrt",
            "libraries",
            "sonames",
            "follow_toolkit_major",
            "cudnn_pairing",
            "wheel_layout",
            "wheels",
        ),
        ("architectures", "conda_cudatoolkit"),
    )
    reader.schema_version(top["schema_version"], CUDA_DATA_VERSION)
    sources = reader.sources(top["sources"], SOURCE_ID, DataSource)
    newest = reader.mapping(top["newest"], "newest", ("cuda", "cudnn_major", "source"))
    cuda = reader.required_string(newest["cuda"], "newest.cuda", _MAJOR_MINOR, "CUDA X.Y")
    reader.source_ids(newest["source"], "newest.source", sources)
    trt = reader.mapping(top["tensorrt"], "tensorrt", ("release", "last_python", "source"))
    trt_python = reader.required_string(
        trt["last_python"], "tensorrt.last_python", _MAJOR_MINOR, "Python X.Y"
    )
    python_major, python_minor = trt_python.split(".")
    tensorrt = (
        reader.required_string(trt["release"], "tensorrt.release", _MAJOR_MINOR, "X.Y"),
        (int(python_major), int(python_minor)),
        tuple(sources[s].url for s in reader.source_ids(trt["source"], "tensorrt.source", sources)),
    )
    libraries = _libraries(reader, top["libraries"], sources)
    names = tuple(lib.name for lib in libraries)
    follow = reader.mapping(
        top["follow_toolkit_major"], "follow_toolkit_major", ("libraries", "source")
    )
    reader.source_ids(follow["source"], "follow_toolkit_major.source", sources)
    layout = reader.mapping(
        top["wheel_layout"], "wheel_layout", ("grouped_from", "nvcc_dir", "source")
    )
    reader.source_ids(layout["source"], "wheel_layout.source", sources)
    wheels = _wheels(reader, top["wheels"], sources)
    nvcc_dir = reader.required_string(layout["nvcc_dir"], "wheel_layout.nvcc_dir")
    if nvcc_dir not in {w.directory for w in wheels}:
        raise reader.error(layout["nvcc_dir"], "wheel_layout.nvcc_dir", "not a wheel's dir")
    major, minor = cuda.split(".")
    return CudaData(
        path=path,
        sources=sources,
        newest_cuda=(int(major), int(minor)),
        newest_cudnn_major=reader.integer(newest["cudnn_major"], "newest.cudnn_major"),
        tensorrt=tensorrt,
        libraries=libraries,
        sonames=_sonames(reader, top["sonames"], sources, names),
        follow_toolkit_major=_names(
            reader, follow["libraries"], "follow_toolkit_major.libraries", names
        ),
        cudnn_pairing=_pairing(reader, top["cudnn_pairing"], sources),
        grouped_from=reader.integer(layout["grouped_from"], "wheel_layout.grouped_from"),
        nvcc_dir=nvcc_dir,
        wheels=wheels,
        architectures=_architectures(reader, top["architectures"], sources)
        if "architectures" in top
        else (),
        conda_cudatoolkit=_conda_cudatoolkit(reader, top["conda_cudatoolkit"], sources)
        if "conda_cudatoolkit" in top
        else None,
    )


def _conda_cudatoolkit(
    reader: NodeReader, node: Node, sources: Mapping[str, DataSource]
) -> tuple[int, str, tuple[str, ...]]:
    """The ``conda_cudatoolkit`` mapping: (last CUDA major, successor package, source URLs)."""
    fields = reader.mapping(node, "conda_cudatoolkit", ("last_major", "successor", "source"))
    ids = reader.source_ids(fields["source"], "conda_cudatoolkit.source", sources)
    return (
        reader.integer(fields["last_major"], "conda_cudatoolkit.last_major"),
        reader.required_string(fields["successor"], "conda_cudatoolkit.successor"),
        tuple(sources[s].url for s in ids),
    )


_MAJOR_MINOR = re.compile(r"^\d+\.\d+$")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_DIR = re.compile(r"^[a-z0-9_]+$")
_DIST = re.compile(r"^nvidia-[a-z0-9-]+[a-z]$")
_SONAME = re.compile(r"^\d+(\.(\d+|\{minor\}))?$")


def _names(reader: NodeReader, node: Node, field: str, known: Sequence[str]) -> tuple[str, ...]:
    names = reader.strings(node, field)
    for i, name in enumerate(names):
        if name not in known:
            raise reader.error(reader.sequence(node, field)[i], field, f"unknown library {name!r}")
    return names


def _libraries(
    reader: NodeReader, node: Node, sources: Mapping[str, DataSource]
) -> tuple[CudaLibrary, ...]:
    def name(item: Node, field: str) -> str:
        return reader.required_string(item, field, _NAME, "library name")

    return tuple(
        CudaLibrary(
            value,
            reader.strings(fields["wheel_dirs"], f"{where}.wheel_dirs", _DIR, "directory"),
            reader.required_string(fields["soname"], f"{where}.soname", _SONAME, "version")
            if "soname" in fields
            else None,
            reader.source_ids(fields["source"], f"{where}.source", sources),
        )
        for where, value, fields in reader.keyed_rows(
            node, "libraries", "name", ("wheel_dirs", "source"), ("soname",), name
        )
    )


def _sonames(
    reader: NodeReader, node: Node, sources: Mapping[str, DataSource], names: Sequence[str]
) -> tuple[SonameRow, ...]:
    rows: list[SonameRow] = []
    for where, major, fields in reader.keyed_rows(
        node, "sonames", "cuda_major", ("versions", "source"), ("minors",), reader.integer, True
    ):
        versions = _versions(reader, fields["versions"], f"{where}.versions", names)
        minors: dict[int, Mapping[str, str]] = {}
        for minor, minor_node in (
            reader.mapping(fields["minors"], f"{where}.minors").items()
            if "minors" in fields
            else ()
        ):
            if not minor.isdigit():
                raise reader.error(minor_node, f"{where}.minors.{minor}", "not a minor version")
            minors[int(minor)] = _versions(
                reader, minor_node, f"{where}.minors.{minor}", tuple(versions)
            )
        source = reader.source_ids(fields["source"], f"{where}.source", sources)
        rows.append(SonameRow(major, versions, minors, source))
    if not rows:
        raise reader.error(node, "sonames", "needs at least one row")
    return tuple(rows)


def _versions(reader: NodeReader, node: Node, field: str, names: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in reader.mapping(node, field).items():
        if name not in names:
            raise reader.error(value, f"{field}.{name}", "unknown library")
        out[name] = reader.required_string(value, f"{field}.{name}", _SONAME, "soname version")
    return out


def _pairing(
    reader: NodeReader, node: Node, sources: Mapping[str, DataSource]
) -> tuple[tuple[int, int], ...]:
    rows = reader.keyed_rows(
        node, "cudnn_pairing", "cuda_major", ("cudnn_major", "source"), (), reader.integer, True
    )
    for where, _, fields in rows:
        reader.source_ids(fields["source"], f"{where}.source", sources)
    return tuple(
        (cuda, reader.integer(fields["cudnn_major"], f"{where}.cudnn_major"))
        for where, cuda, fields in rows
    )


def _architectures(
    reader: NodeReader, node: Node, sources: Mapping[str, DataSource]
) -> tuple[tuple[str, str], ...]:
    def capability(item: Node, field: str) -> str:
        return reader.required_string(item, field, _MAJOR_MINOR, "compute capability X.Y")

    rows = reader.keyed_rows(
        node, "architectures", "compute_capability", ("first_cuda", "source"), (), capability
    )
    out: list[tuple[str, str]] = []
    for where, cap, fields in rows:
        reader.source_ids(fields["source"], f"{where}.source", sources)
        first = reader.required_string(
            fields["first_cuda"], f"{where}.first_cuda", _MAJOR_MINOR, "CUDA X.Y"
        )
        out.append((cap, first))
    return tuple(out)


def _wheels(
    reader: NodeReader, node: Node, sources: Mapping[str, DataSource]
) -> tuple[NvidiaWheel, ...]:
    def dist(item: Node, field: str) -> str:
        return reader.required_string(item, field, _DIST, "nvidia-* distribution")

    def first_release(fields: dict[str, Node], where: str) -> tuple[tuple[int, str], ...]:
        if "first_release" not in fields:
            return ()
        field = f"{where}.first_release"
        out = []
        for major, value in reader.mapping(fields["first_release"], field).items():
            release = reader.required_string(value, f"{field}.{major}", _MAJOR_MINOR, "CUDA X.Y")
            if not major.isdigit() or release.split(".")[0] != major:
                raise reader.error(value, f"{field}.{major}", "not a release of that CUDA major")
            out.append((int(major), release))
        return tuple(out)

    return tuple(
        NvidiaWheel(
            value,
            reader.required_string(fields["dir"], f"{where}.dir", _DIR, "directory"),
            reader.boolean(fields["grouped"], f"{where}.grouped"),
            reader.source_ids(fields["source"], f"{where}.source", sources),
            first_release(fields, where),
        )
        for where, value, fields in reader.keyed_rows(
            node, "wheels", "dist", ("dir", "grouped", "source"), ("first_release",), dist
        )
    )


@functools.cache
def cuda_data(path: Optional[str] = None) -> CudaData:
    """The CUDA data (the shipped file unless ``path``), read once per process."""
    return load_cached(
        path or str(CUDA_DATA), "cuda-data", CudaDataError, parse_cuda_data, CudaData
    )


# --- look-ups ---------------------------------------------------------------------------------


def library_names() -> tuple[str, ...]:
    """The libraries TensorFlow loads, in the order they are reported."""
    return tuple(lib.name for lib in cuda_data().libraries)


def newest_cuda() -> tuple[tuple[int, int], int]:
    """((CUDA major, minor), cuDNN major) to search for when the build does not say."""
    data = cuda_data()
    return data.newest_cuda, data.newest_cudnn_major


def paired_cudnn(cuda_major: int) -> int:
    """The cuDNN major a build of CUDA ``cuda_major`` pairs with when nothing else says."""
    data = cuda_data()
    for cuda, cudnn in data.cudnn_pairing:
        if cuda_major <= cuda:
            return cudnn
    return data.newest_cudnn_major


def soname_versions(cuda_major: int, cuda_minor: int) -> dict[str, str]:
    """Library -> soname version TensorFlow's loader asks for under a CUDA ``major.minor``,
    for the libraries that follow the toolkit (not cuDNN, NCCL or the driver)."""
    data = cuda_data()
    row = next((r for r in data.sonames if r.cuda_major == cuda_major), None)
    if row is None:
        # A toolkit the table does not know: the newest row, with the libraries that follow
        # the toolkit's major at its major.
        newest = data.sonames[-1]
        table = dict(newest.versions)
        table.update(dict.fromkeys(data.follow_toolkit_major, str(cuda_major)))
        return table
    table = {**row.versions, **row.minors.get(cuda_minor, {})}
    return {name: version.replace("{minor}", str(cuda_minor)) for name, version in table.items()}


def fixed_sonames() -> dict[str, str]:
    """Library -> the soname version it has under every CUDA major (NCCL, the driver)."""
    return {lib.name: lib.soname for lib in cuda_data().libraries if lib.soname is not None}


def tensorrt_python_cap() -> tuple[str, tuple[int, int], tuple[str, ...]]:
    """(TensorRT release, the last Python its wheels serve, the URLs that say so) for the
    ``tensorrt`` pin of TensorFlow 2.14's ``and-cuda`` extra."""
    return cuda_data().tensorrt


def conda_cudatoolkit_end() -> Optional[tuple[int, str, tuple[str, ...]]]:
    """(the last CUDA major conda's ``cudatoolkit`` package was made for, the package that
    pins a CUDA release after it, the URLs that say so); None where the data does not say."""
    return cuda_data().conda_cudatoolkit


def nvcc_wheel_dir() -> str:
    """The wheel directory whose ``nvvm/libdevice`` and ``bin/ptxas`` XLA finds by itself."""
    return cuda_data().nvcc_dir


def wheel_first_release(dist: str, cuda_major: int) -> Optional[str]:
    """The first CUDA release (``11.7``) of ``cuda_major`` NVIDIA published as the wheel
    ``dist`` (without ``-cuXX``); None where the data does not say (no wheel is known)."""
    wheel = next((w for w in cuda_data().wheels if w.dist == dist), None)
    firsts = dict(wheel.first_release) if wheel is not None else {}
    return firsts.get(cuda_major)


def grouped_from() -> int:
    """The first CUDA major whose toolkit wheels share one directory, ``nvidia/cu<major>``."""
    return cuda_data().grouped_from


_XLA_DATA_DIR = re.compile(r"--xla_gpu_cuda_data_dir=(\"[^\"]*\"|'[^']*'|\S+)")


def library_dirs(name: str, cuda_major: Optional[int] = None) -> tuple[str, ...]:
    """Directories under ``nvidia/`` that hold library ``name`` for a CUDA major, newest first.

    From the first grouped CUDA major the toolkit libraries sit in ``cu<major>`` first; the
    per-library directories follow, for wheels of older releases in the same site.
    """
    data = cuda_data()
    lib = data.library(name)
    dirs = lib.wheel_dirs if lib is not None else ()
    if (
        cuda_major is not None
        and cuda_major >= data.grouped_from
        and name in data.grouped_libraries()
    ):
        return (f"cu{cuda_major}", *dirs)
    return dirs


def wheel_dir(dist: str, version: str) -> Optional[str]:
    """The directory under ``nvidia/`` an installed ``nvidia-*`` distribution fills, or None.

    ``dist`` is in PEP 503 normal form. ``nvidia-cudnn-cu12`` fills ``cudnn``; the CUDA 13
    toolkit wheels carry no suffix (``nvidia-cublas`` 13.0) and fill ``cu13``.
    """
    data = cuda_data()
    head, _, tail = dist.rpartition("-")
    suffixed = tail.startswith("cu") and tail[2:].isdigit()
    wheel = next((w for w in data.wheels if w.dist == (head if suffixed else dist)), None)
    if wheel is None:
        return None
    major_text = tail[2:] if suffixed else version.partition(".")[0]
    major = int(major_text) if major_text.isdigit() else None
    if major is not None and major >= data.grouped_from and wheel.grouped:
        return f"cu{major}"
    return wheel.directory


def wheel_cuda_major(dist: str, directory: str = "") -> Optional[int]:
    """The CUDA major an ``nvidia-*`` distribution (PEP 503 name) is built for, as its
    ``-cuXX`` suffix names it (``nvidia-cublas-cu11``: 11), else as the shared ``cuXX``
    directory it fills names it (``directory``, :func:`wheel_dir`: the CUDA 13 toolkit
    wheels, ``nvidia-cublas`` in ``nvidia/cu13``); None with neither (an unsuffixed wheel's
    version is its library's own, not always CUDA's)."""
    _, _, tail = dist.rpartition("-")
    if tail.startswith("cu") and tail[2:].isdigit():
        return int(tail[2:])
    grouped = _GROUPED_DIR.fullmatch(directory)
    return int(grouped.group(1)) if grouped is not None else None


#: The directory under ``nvidia/`` the wheels of CUDA 13 on share (``cu13``).
_GROUPED_DIR = re.compile(r"cu(\d+)")


def wheel_library_files(dist: str, version: str) -> Optional[frozenset[str]]:
    """The files under ``nvidia/`` that the ``nvidia-*`` wheel ``dist`` (PEP 503 name) of
    release ``version`` holds of the libraries TensorFlow loads, as this data names them:
    ``<dir>/lib/lib<name>.so.<soname>``, with every soname its CUDA major's rows give (a
    minor release's too), cuDNN's its own major (the wheel's version), NCCL's the fixed one.
    None where the data cannot say: no known wheel, a release the version does not name, a
    soname that follows the toolkit's minor; empty for a wheel of none of those libraries."""
    data = cuda_data()
    directory = wheel_dir(dist, version)
    base = dist.rpartition("-")[0] if wheel_cuda_major(dist) is not None else dist
    wheel = next((w for w in data.wheels if w.dist == base), None)
    if directory is None or wheel is None:
        return None
    grouped = re.fullmatch(r"cu(\d+)", directory)
    cuda = wheel_cuda_major(dist) or (int(grouped.group(1)) if grouped else None)
    fixed = fixed_sonames()
    files: set[str] = set()
    # The wheel's own libraries: those of its directory's row (in nvidia/cu<major> from the
    # grouped majors on, beside the other toolkit wheels' libraries).
    for name in (lib.name for lib in data.libraries if wheel.directory in lib.wheel_dirs):
        if name in fixed:
            versions: set[str] = {fixed[name]}
        elif name == "cudnn":
            major = version.partition(".")[0]
            if not major.isdigit():
                return None
            versions = {major}
        elif cuda is None:
            return None
        else:
            row = next((r for r in data.sonames if r.cuda_major == cuda), None)
            tables = (row.versions, *row.minors.values()) if row else (soname_versions(cuda, 0),)
            versions = {t[name] for t in tables if name in t}
            if not versions or any("{" in v for v in versions):
                return None
        files.update(f"{directory}/lib/lib{name}.so.{v}" for v in versions)
    return frozenset(files)


def wheels_share_files(one: tuple[str, str], other: tuple[str, str]) -> bool:
    """Whether two ``nvidia-*`` wheels, each ``(dist, version)``, may write the same files:
    they fill the same directory under ``nvidia/`` and their library files
    (:func:`wheel_library_files`) meet, or the data cannot say which they hold. cuDNN 8 of
    ``nvidia-cudnn-cu11`` and of ``-cu12`` both write ``cudnn/lib/libcudnn.so.8``; pip keeps
    each file in the RECORD of every wheel that wrote it, and uninstalling one deletes it."""
    directory = wheel_dir(*one)
    if directory is None or directory != wheel_dir(*other):
        return False
    # A wheel of none of the libraries named here (nvcc's ptxas, CUPTI) may share any file.
    files, others = wheel_library_files(*one), wheel_library_files(*other)
    return not files or not others or bool(files & others)


def wheel_name(base: str, cuda_major: int) -> str:
    """The pip distribution of an NVIDIA component for a CUDA major: ``nvidia-cuda-nvcc-cu12``
    for CUDA 12; from CUDA 13 the wheels carry no ``-cuXX`` suffix (``nvidia-cuda-nvcc``)."""
    return base if cuda_major >= grouped_from() else f"{base}-cu{cuda_major}"


def libraries_in(directory: str) -> tuple[str, ...]:
    """The libraries a directory under ``nvidia/`` holds."""
    data = cuda_data()
    match = _GROUPED_DIR.fullmatch(directory)
    if match is not None and int(match.group(1)) >= data.grouped_from:
        return data.grouped_libraries()
    return tuple(lib.name for lib in data.libraries if directory in lib.wheel_dirs)


def xla_cuda_data_dir(xla_flags: Optional[str]) -> Optional[str]:
    """The ``DIR`` of ``--xla_gpu_cuda_data_dir=DIR`` in XLA_FLAGS, unquoted, if set."""
    match = _XLA_DATA_DIR.search(xla_flags or "")
    return match.group(1).strip("\"'") if match else None


def without_xla_cuda_data_dir(xla_flags: Optional[str]) -> tuple[str, ...]:
    """The other flags of XLA_FLAGS, in order."""
    return tuple(_XLA_DATA_DIR.sub("", xla_flags or "").split())


#: The ``nvidia-*`` distributions (without ``-cuXX``) whose versions follow the CUDA toolkit's,
#: and cuDNN's: a TensorFlow wheel's ``and-cuda`` extra pins them to the build's versions.
_RUNTIME_WHEEL = "nvidia-cuda-runtime"
_CUDNN_WHEEL = "nvidia-cudnn"
_LOWER_BOUNDS = ("==", "===", ">=", "~=")


def declared_cuda(requires: Sequence[str]) -> tuple[Optional[str], Optional[str]]:
    """(CUDA ``X.Y``, cuDNN ``X.Y``) a wheel's ``and-cuda`` requirements pin, each the lowest
    version admitted (``nvidia-cuda-runtime-cu12<13.0,>=12.5.82; extra == "and-cuda"`` is
    CUDA 12.5); None for one it does not pin.

    TensorFlow's setup.py pins the CUDA wheels of the toolkit it was built with (2.18:
    ``nvidia-cuda-runtime-cu12==12.5.82``, 2.21: ``>=12.5.82``); from 2.22 its build info no
    longer records the CUDA version (``tf.sysconfig.get_build_info()`` has only the flags).
    """
    from packaging.requirements import InvalidRequirement, Requirement  # noqa: PLC0415

    found: dict[str, str] = {}
    for text in requires:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        if req.marker is None or "and-cuda" not in str(req.marker):
            continue
        head, _, tail = req.name.lower().replace("_", "-").rpartition("-")
        base = head if tail.startswith("cu") and tail[2:].isdigit() else req.name.lower()
        if base not in (_RUNTIME_WHEEL, _CUDNN_WHEEL) or base in found:
            continue
        parts = re.findall(r"\d+", lowest_admitted(str(req.specifier)))[:2]
        if len(parts) == 2:
            found[base] = f"{int(parts[0])}.{int(parts[1])}"
    return found.get(_RUNTIME_WHEEL), found.get(_CUDNN_WHEEL)


def lowest_admitted(spec: str) -> str:
    """The lowest release a requirement's specifier admits by its own words (``==12.3.101``,
    ``<13,>=12.5.82``: ``12.5.82``); empty where it names none (a cap alone)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415 - 40 ms

    try:
        items = SpecifierSet(spec)
    except InvalidSpecifier:
        return ""
    floors = [i.version for i in items if i.operator in _LOWER_BOUNDS]
    return min(floors, key=version_key, default="")


def first_cuda_for(capability: str) -> Optional[str]:
    """The first CUDA release (``10.0``) whose toolkit and libraries know GPUs of compute
    ``capability`` (``7.5``); None for a capability the table does not state."""
    return next((first for cap, first in cuda_data().architectures if cap == capability), None)


def cuda_knows(build_cuda: str, first: str) -> bool:
    """Whether a build on CUDA ``build_cuda`` runs on GPUs that CUDA ``first`` was the first
    release to know: the one rule ``check`` and ``explain`` share for "the build's CUDA
    predates this GPU"."""
    have, need = version_key(build_cuda), version_key(first)
    if not have or not need:
        return True  # nothing to compare: no claim that the CUDA predates the GPU
    # A major alone (libcudart.so.11.0 ships with every CUDA 11): older only by its major.
    # From 11.1 on a newer minor of the same major serves a build of an older one (CUDA's
    # minor version compatibility: the libraries of the newer minor load under the build,
    # and the driver compiles the build's PTX for the GPU), so only the major decides
    # (https://docs.nvidia.com/deploy/cuda-compatibility/#minor-version-compatibility).
    same_family = len(have) == 1 or (have[:2] >= (11, 1) and have[0] == need[0])
    return (have[0] >= need[0]) if same_family else (have[:2] >= need[:2])
