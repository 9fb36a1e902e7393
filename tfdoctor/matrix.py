"""The compatibility matrix: ``compat_matrix.yaml`` loaded into typed rows, and pure look-ups.

The YAML is validated strictly at load time: a wrong type, an unknown or missing field, a bad
version or specifier, an unsorted or duplicate line, or a fact without a source raises
:class:`MatrixError` naming the file, the line and the field. Checks never read YAML; they
get a :class:`Matrix`.

Rules the look-ups encode, with their sources:

* A CUDA 11.1+ or 12.x build runs on any driver of the family's floor or newer (CUDA minor
  version compatibility); a CUDA 10.x or 11.0 build needs the driver its toolkit shipped with.
  https://docs.nvidia.com/deploy/cuda-compatibility/index.html#minor-version-compatibility
* PTX embedded by a toolkit can only be JIT-compiled by a driver at least as new as that
  toolkit's own driver (same page, "application considerations for minor version
  compatibility").
* Machine code (SASS) for ``sm_XY`` runs on GPUs of compute capability ``X.Z`` with ``Z >= Y``;
  PTX for ``compute_XY`` JIT-compiles for any compute capability ``>= X.Y``; an ``a`` suffix
  (``sm_90a``) runs only on exactly that capability, an ``f`` suffix (``sm_100f``, CUDA 12.9's
  family targets) on its own major at an equal or later minor (10.0 and 10.3, not 12.0).
  https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility
  https://developer.nvidia.com/blog/nvidia-blackwell-and-nvidia-cuda-12-9-introduce-family-specific-architecture-features/
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from tfdoctor import matrix_schema as schema
from tfdoctor.gpus import GpuModel, gpu_data
from tfdoctor.records import Record, record
from tfdoctor.yamldoc import SOURCE_ID, DataSource, NodeReader, compose, is_null, load_cached

# The one dotted-version parser, shared with the CUDA layout below the matrix, and re-exported
# (the explicit alias) for the layers above, which import it from here.
from tfdoctor.yamldoc import version_key as version_key  # noqa: PLC0414

if TYPE_CHECKING:
    from yaml import Node

#: The matrix document version this tfdoctor reads.
MATRIX_SCHEMA_VERSION = 1

#: Environment variable naming another matrix file (``--matrix`` wins over it).
MATRIX_ENV = "TFDOCTOR_MATRIX"

#: The matrix's file name: at the repository root, and inside a built package.
MATRIX_FILE = "compat_matrix.yaml"


def bundled_matrix(package_dir: Path) -> Path:
    """The matrix that goes with the package in ``package_dir``: the copy a build put beside
    its modules (setup.py), else the repository's own file one level up (a source checkout,
    on ``PYTHONPATH`` or installed editable)."""
    beside = package_dir / MATRIX_FILE
    return beside if beside.is_file() else package_dir.parent / MATRIX_FILE


#: The matrix used when neither ``--matrix`` nor ``$TFDOCTOR_MATRIX`` names one.
DEFAULT_MATRIX = bundled_matrix(Path(__file__).parent)

#: The platform an operating system name stands for when no architecture is given.
DEFAULT_PLATFORM_OF_OS: Mapping[str, str] = {
    "linux": "linux-x86_64",
    "macos": "macos-arm64",
    "windows": "windows-x86_64",
}

#: Platform keys of the per-platform Python lists, and the operating system of each.
PLATFORMS = schema.PLATFORMS
PLATFORM_MARKERS = schema.PLATFORM_MARKERS
OPERATING_SYSTEMS = schema.OPERATING_SYSTEMS

#: The pins every line states (``null`` when the wheel does not require the package).
PIN_FIELDS = schema.field("pins").part_names()

_LINE_RE = re.compile(r"^(\d+)\.(\d+)$")
_PATCH_RE = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")
#: A companion table row: a release line or one release.
_RELEASE_RE = re.compile(r"^\d+\.\d+(?:\.\d+)?$")
#: A line's newest release: a final (``2.21.0``) or, before the line's first final, a PEP 440
#: pre-release (``2.22.0rc0``), which marks the line as a pre-release.
_LATEST_RE = re.compile(r"^(\d+)\.(\d+)\.(\d+)((a|b|rc)\d+)?$")
_PYTHON_RE = re.compile(r"^3\.(\d+)$")
_DRIVER_RE = re.compile(r"^\d+\.\d+(\.\d+)?$")
_CC_RE = re.compile(r"^\d+\.\d+$")
_ARCH_RE = re.compile(r"^(sm|compute)_(\d+)(\d)([af]?)$")
_DIST_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
#: A dotted Python module name (``tensorflow.python.compiler.tensorrt``).
_MODULE_RE = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")


class MatrixError(ValueError):
    """A matrix file that cannot be used: ``FILE:LINE: FIELD: what is wrong`` in one line."""


# --- typed rows ------------------------------------------------------------------------------


@record
class Source(Record):
    """A citable source; ``url`` may hold ``{version}`` and ``{line}`` placeholders."""

    id: str
    title: str
    url: str

    def url_for(self, line: Optional[TFLine] = None) -> str:
        """The URL with the line's placeholders filled in."""
        if line is None:
            return self.url
        return self.url.replace("{version}", line.latest_patch).replace("{line}", line.line)


@record
class CudaToolkit(Record):
    """A CUDA toolkit release and the driver it shipped with (its exact requirement)."""

    cuda: str
    min_driver_linux: str
    min_driver_windows: Optional[str]
    source: tuple[str, ...]
    note: str = ""


@record
class CudaFamily(Record):
    """The driver floor of a CUDA major version under minor version compatibility."""

    major: int
    min_driver_linux: str
    min_driver_windows: Optional[str]
    source: tuple[str, ...]
    note: str = ""


@record
class EarlyRelease(Record):
    """A release older than the matrix's lines, or a patch whose wheels differ from its line's
    latest patch: only the Pythons its wheel files are tagged for, by platform key (what pip
    can install where)."""

    release: str
    python: Mapping[str, tuple[str, ...]]
    source: tuple[str, ...]
    #: The module TF-TRT's Python API is imported from in the release's Linux GPU build
    #: (``tensorflow.contrib.tensorrt`` up to 1.13), where the row states it.
    tf_trt_module: Optional[str] = None
    #: The sources of :attr:`tf_trt_module`.
    tf_trt_sources: tuple[str, ...] = ()
    #: The CUDA release (X.Y) the release's GPU build was built with, where the row states it.
    cuda: Optional[str] = None
    #: The sources of :attr:`cuda` and :attr:`cudnn`.
    cuda_sources: tuple[str, ...] = ()
    #: The cuDNN (X or X.Y, as the source states it) the GPU build was built with.
    cudnn: Optional[str] = None
    #: The distribution of the release's GPU build by OS (``linux``, ``windows``), where the
    #: release was packaged otherwise than its line; an OS it leaves out takes the line's.
    gpu_package: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: The sources of :attr:`gpu_package`.
    gpu_package_sources: tuple[str, ...] = ()


@record
class ComputeCapabilities(Record):
    """The GPU code a wheel carries: machine code (``sm_XY``) and PTX (``compute_XY``)."""

    sass: tuple[str, ...]
    ptx: tuple[str, ...]


@record
class Pins(Record):
    """Version ranges the wheel declares for the packages that break most often."""

    numpy: Optional[str] = None
    protobuf: Optional[str] = None
    keras: Optional[str] = None
    tf_keras: Optional[str] = None
    ml_dtypes: Optional[str] = None


#: How TensorFlow's install guide gets the CUDA libraries of a line on Linux:
#: ``and-cuda`` (``pip install "tensorflow[and-cuda]"``, the wheels found through RUNPATH),
#: ``cudnn-wheel`` (the ``nvidia-cudnn-cu11`` wheel put on ``LD_LIBRARY_PATH``, 2.12-2.13),
#: ``system`` (a CUDA toolkit and cuDNN installed beside TensorFlow: NVIDIA's packages, or
#: conda's ``cudatoolkit``/``cudnn``).
CUDA_INSTALL_METHODS = ("and-cuda", "cudnn-wheel", "system")
#: The NumPy C ABIs a line's ``numpy_abi`` names: NumPy 1.x's, and NumPy 2.0's (the first
#: release that changed it; its builds also load under NumPy 1.x).
NUMPY_ABIS = (1, 2)


@record
class CudaInstall(Record):
    """How a line's GPU build gets its CUDA libraries, and the patches where that fails."""

    method: str
    #: Patches whose own ``and-cuda`` wheels are installed but not found by TensorFlow (its
    #: libraries' RUNPATH misses the ``nvidia/*/lib`` directories).
    wheels_unfound: tuple[str, ...] = ()


@record
class TfTrt(Record):
    """TF-TRT (TensorRT) in a line's Linux GPU build."""

    #: The build is built with TensorRT (``is_tensorrt_build`` in its build info).
    built: bool
    #: The module TF-TRT's Python API is imported from; None where the build has no TF-TRT.
    module: Optional[str]


@record
class TFLine(Record):
    """One TensorFlow release line (``2.16``), as its wheels and the docs describe it."""

    line: str
    latest_patch: str
    requires_python: Optional[str]
    #: Platform key (``linux-x86_64``) -> CPython versions (``3.11``) with a wheel.
    python: Mapping[str, tuple[str, ...]]
    glibc_min: Optional[str]
    #: Operating system -> the distribution that brings GPU support there, or None.
    gpu_package: Mapping[str, Optional[str]]
    #: Platform keys whose GPU distribution is a CUDA build (linux-aarch64 wheels are not).
    cuda_builds: tuple[str, ...]
    windows_native_gpu: bool
    #: Platform key -> thin wrapper distribution the ``tensorflow`` wheel requires there.
    wrappers: Mapping[str, str]
    cuda: Optional[str]
    cudnn: Optional[str]
    compute_capabilities: Optional[ComputeCapabilities]
    pins: Pins
    #: The ``and-cuda`` extra: distribution -> specifier; None where the line has no extra.
    and_cuda: Optional[Mapping[str, str]]
    #: Fact (``cuda``, ``pins`` or ``pins.tf_keras``) -> source ids.
    sources: Mapping[str, tuple[str, ...]]
    notes: tuple[str, ...] = ()
    #: Compute capability -> how this line's wheels fail on such GPUs, though their code
    #: should run there (reported failures, with a source).
    known_gpu_failures: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: How the GPU build gets its CUDA libraries on Linux (None: no CUDA build there).
    cuda_install: Optional[CudaInstall] = None
    #: A real ``tensorflow-gpu`` release of this line exists (1.15-2.11; from 2.12 PyPI has
    #: only a package that refuses to install).
    tensorflow_gpu_release: bool = False
    #: Distribution -> a range this line's code needs of a package its wheel does not
    #: declare (h5py<3.0.0 up to 2.1, whose HDF5 loader decodes what h5py 3 returns as str).
    undeclared_ranges: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: Distribution -> releases outside the wheel's declared range that this line's code is
    #: known to run with (h5py>=2.9,<3 under the HDF5 loader of 2.5-2.15, which decodes attributes
    #: only where h5py returns bytes).
    tolerated_ranges: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: The separate ``keras`` package of this line is released with it (2.6-2.15): keras
    #: 2.X serves TensorFlow 2.X only, whatever range the wheel declares.
    keras_in_step: bool = False
    #: This line's Keras compiles with XLA on a GPU without being asked (2.11 on).
    xla_by_default: bool = False
    #: This line's default builds read TF_ENABLE_ONEDNN_OPTS, their oneDNN kernels' switch
    #: (2.5 on); earlier, only the MKL builds have those kernels (switched by TF_DISABLE_MKL).
    onednn_opts: bool = False
    #: TF-TRT in the line's Linux GPU build; None where the matrix does not state it.
    tf_trt: Optional[TfTrt] = None
    #: The NumPy C ABI (1 or 2) the line's wheels were compiled against; None where no
    #: source settles it (no claim either way).
    numpy_abi: Optional[int] = None
    #: Where the entry starts in the matrix file (1-based), for messages.
    lineno: int = 0

    def runs_on_numpy2(self) -> Optional[bool]:
        """Whether the line's wheels load under NumPy 2, the one reading of ``numpy_abi``:
        False where they were compiled against NumPy 1.x, which NumPy 2 cannot load (NumPy 2.0
        is "the first release which changed the ABI": NumPy's "For downstream package
        authors", numpy.org/doc/stable/dev/depending_on_numpy.html); True where compiled
        against NumPy 2.0, whose builds also load under NumPy 1.x; None where the matrix states
        neither, so no claim is made (a wrong one would raise an error on a healthy machine).
        """
        return None if self.numpy_abi is None else self.numpy_abi == 2

    def pythons_on(self, platform: str = "") -> tuple[str, ...]:
        """The Pythons this line publishes wheels for on the platforms whose key starts with
        ``platform`` (empty: any), oldest first."""
        found = {p for key, ps in self.python.items() if key.startswith(platform) for p in ps}
        return tuple(sorted(found, key=version_key))

    def has_wheels_for(self, python: Optional[str], platform: str = "") -> bool:
        """Whether the line publishes a wheel for Python ``python`` (``3.8`` or ``3.8.10``) on
        some platform whose key starts with ``platform`` (``macos-``; empty: any platform); an
        unknown Python (None or empty) is taken as served where the line has wheels there."""
        minor = ".".join((python or "").split(".")[:2])
        if not minor and not platform:
            return True
        return any(
            (minor in pythons) if minor else bool(pythons)
            for key, pythons in self.python.items()
            if key.startswith(platform)
        )

    def declared(self, target: str) -> Optional[str]:
        """The range this line's wheel declares on ``target``: a pinned companion
        (``protobuf``, ``tf-keras``), else a CUDA wheel of its ``and-cuda`` extra
        (``nvidia-cudnn-cu12``, which another framework's wheels pin too); None where the
        matrix records none."""
        field = target.replace("-", "_")
        if field in PIN_FIELDS:
            pinned: Optional[str] = getattr(self.pins, field)
            return pinned
        return (self.and_cuda or {}).get(target) or None

    @property
    def tensorrt_built(self) -> Optional[bool]:
        """Whether the line's Linux GPU build is built with TensorRT (has TF-TRT); None where
        the matrix does not say."""
        return self.tf_trt.built if self.tf_trt is not None else None

    @property
    def tf_trt_module(self) -> Optional[str]:
        """The module TF-TRT is imported from in the line's Linux GPU build; None where the
        build has none or the matrix does not say."""
        return self.tf_trt.module if self.tf_trt is not None else None

    @property
    def pre_release(self) -> bool:
        """The line has no final release yet: its newest is ``2.22.0rc0`` or the like."""
        match = _LATEST_RE.match(self.latest_patch)
        return match is not None and match.group(4) is not None

    @property
    def key(self) -> tuple[int, int]:
        """The line as a sortable tuple, ``(2, 16)``."""
        major, minor = self.line.split(".")
        return int(major), int(minor)

    def sources_of(self, fact: str) -> tuple[str, ...]:
        """Source ids for ``fact`` (``pins.numpy`` falls back to ``pins``)."""
        if fact in self.sources:
            return self.sources[fact]
        head = fact.split(".", 1)[0]
        return self.sources.get(head, ())


@record
class Matrix(Record):
    """The whole matrix: sources, CUDA driver tables and TensorFlow lines; the GPU models come
    from the package's GPU table (``data/gpus.yaml``), which serves the smoke test too."""

    path: str
    sources: Mapping[str, Source]
    cuda_toolkits: tuple[CudaToolkit, ...]
    cuda_families: tuple[CudaFamily, ...]
    #: Newest line first, pre-release lines included.
    lines: tuple[TFLine, ...]
    #: Releases older than every line, oldest first (their wheels' Pythons only).
    early_releases: tuple[EarlyRelease, ...] = ()

    @property
    def gpus(self) -> tuple[GpuModel, ...]:
        """The GPU models, oldest compute capability first."""
        return gpu_data().models

    @property
    def gpu_sources(self) -> Mapping[str, DataSource]:
        """The sources the GPU models cite, by id."""
        return gpu_data().sources

    @property
    def releases(self) -> tuple[TFLine, ...]:
        """The lines with a final release, newest first (what recommendations choose from)."""
        return tuple(line for line in self.lines if not line.pre_release)

    @property
    def newest_release(self) -> Optional[TFLine]:
        """The newest line with a final release."""
        return self.releases[0] if self.releases else None

    @property
    def last_tf1_line(self) -> Optional[TFLine]:
        """The last TensorFlow 1 line (1.15), where TensorFlow 1 code runs unchanged; None where
        the matrix lists none."""
        return next((x for x in self.lines if x.key[:1] == (1,)), None)

    @property
    def line_after_tf1(self) -> Optional[TFLine]:
        """The line after the last TensorFlow 1 line (2.0: the release whose top-level namespace
        dropped the TensorFlow 1 API); None where the matrix lists no 1.x line or none after it."""
        last = self.last_tf1_line
        later = [x for x in self.lines if last is not None and x.key > last.key]
        return min(later, key=lambda x: x.key) if later else None

    def lines_pinning(self, target: str, admits: Callable[[str], bool]) -> tuple[TFLine, ...]:
        """The lines, newest first, whose wheel declares a range on ``target`` (a package the
        matrix pins: ``protobuf``, ``tf-keras``; or a CUDA wheel of the ``and-cuda`` extra,
        ``nvidia-cuda-nvcc-cu12``) for which ``admits(range)`` holds: the one way TensorFlow
        lines are chosen by what they require of another package (:meth:`TFLine.declared`).

        A line compiled against NumPy 1.x (:meth:`TFLine.runs_on_numpy2` False) runs with no
        NumPy 2, whatever its pin admits (2.7-2.11 declare a floor only): its numpy range is judged
        with NumPy 1's cap, so no NumPy 2 ever selects it."""
        found = []
        for x in self.lines:
            pin = x.declared(target)
            if pin is None:
                continue
            if target == "numpy" and x.runs_on_numpy2() is False:
                pin = f"{pin},<2"
            if admits(pin):
                found.append(x)
        return tuple(found)

    def wrapper_platforms(self) -> dict[str, tuple[str, ...]]:
        """Each distribution TensorFlow's ``tensorflow`` wheel requires on some platforms only
        (the lines' ``wrappers``: tensorflow-intel, tensorflow-macos, tensorflow-cpu-aws) with
        the platform keys, sorted, where some line requires it."""
        platforms: dict[str, set[str]] = {}
        for line in self.lines:
            for platform, dist in line.wrappers.items():
                platforms.setdefault(dist, set()).add(platform)
        return {dist: tuple(sorted(keys)) for dist, keys in platforms.items()}

    def line_for(self, version: str) -> Optional[TFLine]:
        """The line a TensorFlow version (``2.16.1``, ``2.16.0rc0``, ``2.16``) belongs to."""
        key = release_line(version)
        if key is None:
            return None
        for entry in self.lines:
            if entry.key == key:
                return entry
        return None

    def newest_with_wheels(self, python: Optional[str], platform: str = "") -> Optional[TFLine]:
        """The newest line with a final release that publishes a wheel for Python ``python``
        on a platform whose key starts with ``platform`` (:meth:`TFLine.has_wheels_for`);
        None where no line does."""
        return next((x for x in self.releases if x.has_wheels_for(python, platform)), None)

    def newest_release_with_wheels(
        self, python: str, platform: str = "", within: str = ""
    ) -> Optional[str]:
        """The newest final release whose wheel files the matrix says include one for Python
        ``python`` (``2.7`` or ``2.7.18``) on a platform whose key starts with ``platform``
        (empty: any), among the releases starting ``within`` (a line ``1.15`` or a major
        ``1``; empty: all): each line's latest patch with the line's Pythons, and each
        ``early_releases`` row (a release older than the lines, or a patch whose wheels
        differ from its line's latest patch: 1.15.0 had Python 2.7 wheels, 1.15.5 has none)
        with its own. A patch neither names is not vouched for, so never returned; None where
        no release qualifies."""
        minor = ".".join(python.split(".")[:2])
        want = version_key(within) if within else ()
        rows = [(row.release, row.python) for row in self.early_releases]
        rows += [(x.latest_patch, x.python) for x in self.lines if not x.pre_release]
        having = [
            release
            for release, pythons in rows
            if version_key(release)[: len(want)] == want
            and any(key.startswith(platform) and minor in ps for key, ps in pythons.items())
        ]
        return max(having, key=version_key, default=None)

    def last_tensorrt_line(self) -> Optional[TFLine]:
        """The newest line with a final release whose Linux GPU build is built with TensorRT
        (its ``tf_trt.built``); None where no line says so."""
        return next((x for x in self.releases if x.tensorrt_built), None)

    def first_without_tensorrt(self) -> Optional[TFLine]:
        """The line that dropped TensorRT: the oldest line after :meth:`last_tensorrt_line`
        whose build the matrix states is built without it; None where either is not stated."""
        last = self.last_tensorrt_line()
        if last is None:
            return None
        later = [x for x in self.lines if x.tensorrt_built is False and x.key > last.key]
        return min(later, key=lambda x: x.key, default=None)

    def tf_trt_module_since(self, module: str) -> Optional[str]:
        """The release line (``1.14``) that first imports TF-TRT from ``module``: the oldest
        release or line stating that module, where an older one states another (else where
        it began is not known: None)."""
        stated: list[tuple[tuple[int, ...], str, str]] = [
            (version_key(row.release), dotted_line(row.release), row.tf_trt_module)
            for row in self.early_releases
            if row.tf_trt_module is not None
        ]
        stated += [
            (version_key(x.line), x.line, x.tf_trt_module) for x in self.lines if x.tf_trt_module
        ]
        stated.sort(key=lambda row: row[0])
        for (_, _, before), (_, line, this) in zip(stated, stated[1:]):
            if this == module and before != module:
                return line
        return None

    def _early_of_line(self, version: str) -> Iterator[EarlyRelease]:
        """The early releases of the line of ``version`` (``1.12.0``, or the line ``1.12``)."""
        want = version_key(version)[:2]
        return (row for row in self.early_releases if version_key(row.release)[:2] == want)

    def early_cuda(self, version: str) -> Optional[str]:
        """The CUDA release the GPU build of ``version`` (``1.12.0``, or its line ``1.12``) was
        built with, where an early release of that line states it; None otherwise (a line's
        own CUDA is the line's)."""
        return next((row.cuda for row in self._early_of_line(version) if row.cuda), None)

    def early_cudnn(self, version: str) -> Optional[str]:
        """The cuDNN (X or X.Y) the GPU build of ``version`` (or its line) was built with,
        where an early release of that line states it; None otherwise."""
        return next((row.cudnn for row in self._early_of_line(version) if row.cudnn), None)

    def builds_with_cuda(self) -> tuple[tuple[str, str], ...]:
        """Every final release or line the matrix states a CUDA for, as (release, CUDA X.Y),
        oldest first: the early releases' rows, then the lines."""
        early = [(row.release, row.cuda) for row in self.early_releases if row.cuda]
        lines = [(x.line, x.cuda) for x in reversed(self.lines) if x.cuda and not x.pre_release]
        known = {dotted_line(r) for r, _ in early}
        return (*early, *((r, c) for r, c in lines if r not in known))

    def nearest_line(self, version: str) -> Optional[TFLine]:
        """The line of release ``version``; for a release older than every line the oldest,
        for one newer than every line the newest (what they share with the release); None
        where the version is not a release or falls between lines."""
        key = release_line(version)
        if key is None or not self.lines:
            return None
        oldest = min(self.lines, key=lambda x: x.key)
        newest = max(self.lines, key=lambda x: x.key)
        if key < oldest.key:
            return oldest
        return newest if key > newest.key else self.line_for(version)

    def gpu_distribution(self, version: str, os_name: str = "linux") -> Optional[str]:
        """The distribution of release ``version``'s GPU build on ``os_name``: the release's own
        ``early_releases`` row where it states one (1.15.0: tensorflow), else its nearest
        line's ``gpu_package`` (tensorflow-gpu up to 2.0, tensorflow from 2.1); None where that
        line has no GPU build there or the version is not a release."""
        own = next((row for row in self.early_releases if row.release == version), None)
        if own is not None and os_name in own.gpu_package:
            return own.gpu_package[os_name]
        line = self.nearest_line(version)
        return line.gpu_package.get(os_name) if line is not None else None

    def onednn_opts_since(self) -> Optional[TFLine]:
        """The line that added TF_ENABLE_ONEDNN_OPTS: the oldest line whose builds read it
        (``onednn_opts``), where an older line's do not (else where it began is not known:
        None)."""
        first = min((x for x in self.lines if x.onednn_opts), key=lambda x: x.key, default=None)
        if first is None or not any(x.key < first.key for x in self.lines):
            return None
        return first

    def toolkit(self, cuda: str) -> Optional[CudaToolkit]:
        """The toolkit row of a CUDA ``major.minor`` version."""
        want = version_key(cuda)[:2]
        for row in self.cuda_toolkits:
            if version_key(row.cuda)[:2] == want:
                return row
        return None

    def family(self, major: int) -> Optional[CudaFamily]:
        """The minor-version-compatibility floor of a CUDA major version, if it has one."""
        for row in self.cuda_families:
            if row.major == major:
                return row
        return None

    def release_pythons(self, version: str) -> Optional[Mapping[str, tuple[str, ...]]]:
        """The Pythons, by platform key, that the wheels of the release ``version`` are for: its
        own row (a release older than every line, or a patch whose wheels differ from its
        line's latest patch), else its line's; None where the matrix knows neither."""
        for row in self.early_releases:
            if row.release == version:
                return row.python
        # A line's Pythons are its latest patch's wheels; a patch whose wheels differ (2.1.0
        # had cp27 and cp35, 2.1.4 not) has a row of its own above.
        line = self.line_for(version)
        return line.python if line is not None else None

    def gpu_model(self, name: str) -> Optional[GpuModel]:
        """A GPU model by name, ignoring case, spaces and an ``NVIDIA``/``GeForce`` prefix."""
        return gpu_data().model(name)


# --- version helpers -------------------------------------------------------------------------


def release_line(version: str) -> Optional[tuple[int, int]]:
    """The ``(major, minor)`` of a version string, or None if it has none."""
    match = re.match(r"^\s*v?(\d+)\.(\d+)", version)
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2))


def dotted_line(version: str) -> str:
    """The release line of a version as text (``1.14.0``: ``1.14``); the version itself where
    it has none."""
    key = release_line(version)
    return f"{key[0]}.{key[1]}" if key is not None else version


def spec_contains(version: str, spec: str) -> Optional[bool]:
    """Whether ``version`` is in the specifier ``spec`` as pip judges an installed one:
    pre-releases count (pip/_internal/operations/check.py). None when either does not parse."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415 - 40 ms
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415

    try:
        return SpecifierSet(spec).contains(Version(version), prereleases=True)
    except (InvalidSpecifier, InvalidVersion):
        return None


#: One exact release, as a requirement pins it (``==3.7.0``, ``===3.7.0``; PEP 440's version
#: matching and arbitrary equality): a wildcard (``==2.15.*``) is a range.
_EXACT_PIN = re.compile(r"===?(\d[\w.]*)")


def exact_pin(spec: str) -> Optional[str]:
    """The one release an exact pin names (``==3.7.0`` -> ``3.7.0``); None for any other
    specifier, a wildcard or a range."""
    match = _EXACT_PIN.fullmatch(spec)
    return match.group(1) if match else None


def above_range(version: str, spec: str) -> bool:
    """``version`` is past an upper bound of ``spec`` (``<X``, ``<=X``, ``==X``, ``~=X.Y``)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415 - 40 ms
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415

    try:
        have = Version(version)
        for item in SpecifierSet(spec):
            if item.operator in ("<", "<=") and not item.contains(have, prereleases=True):
                return True
            if item.operator == "==" and "*" not in item.version and have > Version(item.version):
                return True
            # PEP 440's compatible release: ``~=1.19.2`` is ``>=1.19.2, ==1.19.*``, so a
            # release it refuses that is above its floor is past its prefix (NumPy 2 under the
            # numpy~=1.19.2 of the TensorFlow 2.4-2.6 wheels).
            refused = not item.contains(have, prereleases=True)
            if item.operator == "~=" and refused and have > Version(item.version):
                return True
    except (InvalidSpecifier, InvalidVersion):
        return False
    return False


def ranges_meet(first: str, second: str) -> bool:
    """Whether some release lies in both ranges. Where two ranges meet, the higher of their
    lower bounds (``>=X``, ``==X``, ``~=X``) lies in both, so those bounds are tried; a range
    that does not parse, or bounds that leave the question open, are taken to meet (nothing
    is known against it)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415 - 40 ms
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415

    try:
        ranges = (SpecifierSet(first), SpecifierSet(second))
        # A prefix match (``==2.0.*``, conda's ``numpy=2.0``) starts at its prefix's release.
        floors = [
            Version(item.version.removesuffix(".*"))
            for spec in ranges
            for item in spec
            if item.operator in (">=", "==", "~=")
            and "*" not in item.version.removesuffix(".*")
            and (item.operator == "==" or "*" not in item.version)
        ]
        strict = any(item.operator == ">" for spec in ranges for item in spec)
    except (InvalidSpecifier, InvalidVersion):
        return True
    if not floors or strict:
        return True
    return any(all(spec.contains(v, prereleases=True) for spec in ranges) for v in floors)


def admits_below(spec: str, release: str) -> bool:
    """Whether the range ``spec`` admits some release older than ``release``: every lower
    bound (``>=X``, ``>X``, ``==X``, ``~=X``, ``===X``) lies below it. A range that does not
    parse is taken to admit one (nothing is known against it)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415 - 40 ms
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415

    try:
        bound = Version(release)
        for item in SpecifierSet(spec):
            if item.operator in (">=", ">", "==", "~=", "==="):
                floor = item.version[:-2] if item.version.endswith(".*") else item.version
                if Version(floor) >= bound:
                    return False
    except (InvalidSpecifier, InvalidVersion):
        return True
    return True


def next_minor(release: str) -> str:
    """The minor release after ``release``'s (``3.13`` -> ``3.14``, ``2.15.1`` -> ``2.16``)."""
    major, minor = (*version_key(release), 0)[:2]
    return f"{major}.{minor + 1}"


def parse_arch(arch: str) -> Optional[tuple[str, int, int, bool]]:
    """``"sm_89"`` -> ``("sm", 8, 9, False)``; ``"sm_90a"`` -> ``("sm", 9, 0, True)``."""
    match = _ARCH_RE.match(arch)
    if match is None:
        return None
    kind, major, minor, suffix = match.groups()
    return kind, int(major), int(minor), bool(suffix)


# --- loading ---------------------------------------------------------------------------------


class _Reader(NodeReader):
    """The shared node reader with the matrix's own values: specifiers."""

    def __init__(self, path: str) -> None:
        super().__init__(path, MatrixError)

    def any_mapping(self, node: Node, field: str) -> dict[str, Node]:
        """A mapping with free keys (distribution names, platforms checked by the caller)."""
        return self.mapping(node, field)

    def specifier(self, node: Node, field: str, nullable: bool = True) -> Optional[str]:
        """A PEP 440 version specifier (``<2,>=1.26``); empty is not allowed."""
        from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415

        value = self.string(node, field, nullable=nullable)
        if value is None:
            return None
        try:
            SpecifierSet(value)
        except InvalidSpecifier:
            raise self.error(node, field, f"{value!r} is not a valid version specifier") from None
        return value


def _note(reader: _Reader, fields: Mapping[str, Node], where: str) -> str:
    """The optional ``note`` of a table row."""
    return reader.required_string(fields["note"], f"{where}.note") if "note" in fields else ""


def load_matrix(path: Optional[str] = None, env: Optional[Mapping[str, str]] = None) -> Matrix:
    """Load and validate the matrix at ``path``, else ``$TFDOCTOR_MATRIX``, else the bundled one.

    Raises :class:`MatrixError` with ``FILE:LINE: FIELD: message`` for any problem.
    """
    environ = os.environ if env is None else env
    chosen = path or environ.get(MATRIX_ENV) or str(DEFAULT_MATRIX)
    return load_cached(chosen, "matrix", MatrixError, parse_matrix, Matrix, environ)


def parse_matrix(text: str, path: str = "<matrix>") -> Matrix:
    """Validate matrix YAML ``text`` into a :class:`Matrix` (``path`` names it in errors)."""
    root = compose(text, path, "matrix", MatrixError)
    reader = _Reader(path)
    top = reader.mapping(
        root, "matrix", schema.required(schema.TOP_FIELDS), schema.optional(schema.TOP_FIELDS)
    )
    reader.schema_version(top["schema_version"], MATRIX_SCHEMA_VERSION)
    sources = _read_sources(reader, top["sources"])
    toolkits = _read_toolkits(reader, top["cuda_toolkits"], sources)
    families = _read_families(reader, top["cuda_families"], sources)
    lines = _read_lines(reader, top["tensorflow"], sources)
    early = _read_early(reader, top["early_releases"], sources) if "early_releases" in top else ()
    matrix = Matrix(path, sources, toolkits, families, lines, early)
    for entry, node in zip(lines, reader.sequence(top["tensorflow"], "tensorflow")):
        if entry.cuda is not None and matrix.toolkit(entry.cuda) is None:
            raise reader.error(
                node,
                f"tensorflow[{entry.line}].cuda",
                f"CUDA {entry.cuda} has no row in cuda_toolkits",
            )
    return matrix


def _read_sources(reader: _Reader, node: Node) -> dict[str, Source]:
    return reader.sources(node, SOURCE_ID, Source)


def _driver_columns(
    reader: _Reader, fields: Mapping[str, Node], where: str, sources: Mapping[str, Source]
) -> tuple[str, Optional[str], tuple[str, ...], str]:
    """The driver columns shared by the toolkit and family tables: Linux, Windows, source, note."""
    linux = reader.required_string(
        fields["min_driver_linux"], f"{where}.min_driver_linux", _DRIVER_RE, "driver version"
    )
    windows = reader.string(
        fields["min_driver_windows"],
        f"{where}.min_driver_windows",
        _DRIVER_RE,
        "driver version",
        nullable=True,
    )
    return (
        linux,
        windows,
        reader.source_ids(fields["source"], f"{where}.source", sources),
        _note(reader, fields, where),
    )


def _read_toolkits(
    reader: _Reader, node: Node, sources: Mapping[str, Source]
) -> tuple[CudaToolkit, ...]:
    rows: list[CudaToolkit] = []
    for i, item in enumerate(reader.sequence(node, "cuda_toolkits")):
        fields = reader.mapping(
            item,
            f"cuda_toolkits[{i}]",
            schema.required(schema.TOOLKIT_FIELDS),
            schema.optional(schema.TOOLKIT_FIELDS),
        )
        cuda = reader.required_string(
            fields["cuda"], f"cuda_toolkits[{i}].cuda", _LINE_RE, "CUDA version"
        )
        where = f"cuda_toolkits[{cuda}]"
        if rows and version_key(cuda) <= version_key(rows[-1].cuda):
            raise reader.error(fields["cuda"], f"{where}.cuda", _UNSORTED_ROWS)
        rows.append(CudaToolkit(cuda, *_driver_columns(reader, fields, where, sources)))
    return tuple(rows)


def _read_families(
    reader: _Reader, node: Node, sources: Mapping[str, Source]
) -> tuple[CudaFamily, ...]:
    rows: list[CudaFamily] = []
    for i, item in enumerate(reader.sequence(node, "cuda_families")):
        fields = reader.mapping(
            item,
            f"cuda_families[{i}]",
            schema.required(schema.FAMILY_FIELDS),
            schema.optional(schema.FAMILY_FIELDS),
        )
        major = reader.integer(fields["major"], f"cuda_families[{i}].major")
        where = f"cuda_families[{major}]"
        if rows and major <= rows[-1].major:
            raise reader.error(fields["major"], f"{where}.major", _UNSORTED_ROWS)
        rows.append(CudaFamily(major, *_driver_columns(reader, fields, where, sources)))
    return tuple(rows)


_UNSORTED_ROWS = "rows must be sorted oldest first, without duplicates"
# The early releases' wheels include Python 2.7 (TensorFlow 1.x).
_EARLY_PYTHON_RE = re.compile(r"^[23]\.(\d+)$")
_EARLY_RELEASE_RE = re.compile(r"^\d+\.\d+\.\d+$")


def _read_early(
    reader: _Reader, node: Node, sources: Mapping[str, Source]
) -> tuple[EarlyRelease, ...]:
    rows: list[EarlyRelease] = []
    for i, item in enumerate(reader.sequence(node, "early_releases")):
        fields = reader.mapping(
            item,
            f"early_releases[{i}]",
            schema.required(schema.EARLY_FIELDS),
            schema.optional(schema.EARLY_FIELDS),
        )
        release = reader.required_string(
            fields["release"], f"early_releases[{i}].release", _EARLY_RELEASE_RE, "release X.Y.Z"
        )
        where = f"early_releases[{release}]"
        if rows and version_key(release) <= version_key(rows[-1].release):
            raise reader.error(fields["release"], f"{where}.release", _UNSORTED_ROWS)
        found = reader.mapping(fields["python"], f"{where}.python", (), tuple(PLATFORMS))
        python = {
            plat: _python_list(reader, n, f"{where}.python.{plat}", _EARLY_PYTHON_RE)
            for plat, n in found.items()
        }
        module, module_sources = (
            _early_tf_trt(reader, fields["tf_trt"], f"{where}.tf_trt", sources)
            if "tf_trt" in fields
            else (None, ())
        )
        cuda, cudnn, cuda_sources = (
            _early_cuda(reader, fields["cuda"], f"{where}.cuda", sources)
            if "cuda" in fields
            else (None, None, ())
        )
        gpu_package, gpu_sources = (
            _early_gpu_package(reader, fields["gpu_package"], f"{where}.gpu_package", sources)
            if "gpu_package" in fields
            else ({}, ())
        )
        rows.append(
            EarlyRelease(
                release,
                python,
                reader.source_ids(fields["source"], f"{where}.source", sources),
                module,
                module_sources,
                cuda,
                cuda_sources,
                cudnn,
                gpu_package,
                gpu_sources,
            )
        )
    return tuple(rows)


_CUDA_XY_RE = re.compile(r"^\d+\.\d+$")
_CUDNN_RE = re.compile(r"^\d+(?:\.\d+)?$")


def _early_cuda(
    reader: _Reader, node: Node, where: str, sources: Mapping[str, Source]
) -> tuple[str, Optional[str], tuple[str, ...]]:
    """An early release's ``cuda``: the CUDA release its GPU build was built with, the cuDNN
    where stated, and their own sources."""
    fields = reader.mapping(node, where, ("version", "source"), ("cudnn",))
    version = reader.required_string(fields["version"], f"{where}.version", _CUDA_XY_RE, "X.Y")
    cudnn = (
        reader.required_string(fields["cudnn"], f"{where}.cudnn", _CUDNN_RE, "X or X.Y")
        if "cudnn" in fields
        else None
    )
    return version, cudnn, reader.source_ids(fields["source"], f"{where}.source", sources)


#: The OSes an early release's ``gpu_package`` may name: those with CUDA builds on PyPI.
_EARLY_GPU_OSES = ("linux", "windows")


def _early_gpu_package(
    reader: _Reader, node: Node, where: str, sources: Mapping[str, Source]
) -> tuple[dict[str, str], tuple[str, ...]]:
    """An early release's ``gpu_package``: its GPU build's distribution by OS, at least one,
    and their own sources."""
    fields = reader.mapping(node, where, ("source",), _EARLY_GPU_OSES)
    dists = {
        os_name: reader.required_string(
            fields[os_name], f"{where}.{os_name}", _DIST_RE, "distribution name"
        )
        for os_name in _EARLY_GPU_OSES
        if os_name in fields
    }
    if not dists:
        raise reader.error(node, where, f"names no OS ({', '.join(_EARLY_GPU_OSES)})")
    return dists, reader.source_ids(fields["source"], f"{where}.source", sources)


def _early_tf_trt(
    reader: _Reader, node: Node, where: str, sources: Mapping[str, Source]
) -> tuple[str, tuple[str, ...]]:
    """An early release's ``tf_trt``: TF-TRT's module, and its own sources."""
    fields = reader.mapping(node, where, ("module", "source"), ())
    module = reader.required_string(fields["module"], f"{where}.module", _MODULE_RE, "module")
    return module, reader.source_ids(fields["source"], f"{where}.source", sources)


def _python_list(
    reader: _Reader, node: Node, where: str, pattern: re.Pattern[str]
) -> tuple[str, ...]:
    """A sorted list of distinct Python versions."""
    versions: list[str] = []
    for item in reader.sequence(node, where):
        ver = reader.required_string(item, where, pattern, "Python version (X.Y)")
        if versions and version_key(ver) <= version_key(versions[-1]):
            raise reader.error(item, where, "versions must be sorted, without duplicates")
        versions.append(ver)
    return tuple(versions)


_LINE_FIELDS = schema.required(schema.LINE_FIELDS)
_OPTIONAL_LINE_FIELDS = schema.optional(schema.LINE_FIELDS)
#: Fields that state facts and so need a source when stated (``line`` is the key).
_FACT_FIELDS = schema.sourced(schema.LINE_FIELDS)
#: What a line's ``sources`` may name: those fields, and ``pins.NAME``.
_SOURCE_KEYS = schema.source_keys(schema.LINE_FIELDS)


def _parts(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(required, optional) sub-keys of a line's field, from the schema."""
    parts = schema.field(name).parts
    return schema.required(parts), schema.optional(parts)


def _read_lines(reader: _Reader, node: Node, sources: Mapping[str, Source]) -> tuple[TFLine, ...]:
    items = reader.sequence(node, "tensorflow")
    if not items:
        raise reader.error(node, "tensorflow", "needs at least one line")
    lines: list[TFLine] = []
    for i, item in enumerate(items):
        entry = _read_line(reader, item, i, sources)
        if lines and entry.key >= lines[-1].key:
            problem = (
                "duplicate line"
                if entry.key == lines[-1].key
                else "lines must be sorted newest first"
            )
            raise reader.error(item, f"tensorflow[{entry.line}].line", problem)
        if entry.pre_release and any(not line.pre_release for line in lines):
            # Lines are released in order: a line still at its release candidates is newer
            # than every line with a final release.
            raise reader.error(
                item,
                f"tensorflow[{entry.line}].latest_patch",
                f"{entry.latest_patch} is a pre-release, but a newer line has a final release",
            )
        lines.append(entry)
    return tuple(lines)


def _read_line(reader: _Reader, node: Node, index: int, sources: Mapping[str, Source]) -> TFLine:
    fields = reader.mapping(node, f"tensorflow[{index}]", _LINE_FIELDS, _OPTIONAL_LINE_FIELDS)
    line = reader.required_string(
        fields["line"], f"tensorflow[{index}].line", _LINE_RE, "release line"
    )
    where = f"tensorflow[{line}]"
    patch = reader.required_string(
        fields["latest_patch"],
        f"{where}.latest_patch",
        _LATEST_RE,
        "release version (X.Y.Z, or X.Y.ZrcN before the line's first final)",
    )
    if release_line(patch) != release_line(line):
        raise reader.error(
            fields["latest_patch"], f"{where}.latest_patch", f"{patch} is not a {line} release"
        )
    requires_python = reader.specifier(fields["requires_python"], f"{where}.requires_python")

    pyfields = reader.mapping(fields["python"], f"{where}.python", *_parts("python"))
    python: dict[str, tuple[str, ...]] = {}
    for plat, plat_node in pyfields.items():
        python[plat] = _python_list(reader, plat_node, f"{where}.python.{plat}", _PYTHON_RE)

    glibc = reader.string(
        fields["glibc_min"], f"{where}.glibc_min", _LINE_RE, "glibc version", nullable=True
    )
    gpu_fields = reader.mapping(
        fields["gpu_package"], f"{where}.gpu_package", *_parts("gpu_package")
    )
    gpu_package = {
        os_name: reader.string(
            n, f"{where}.gpu_package.{os_name}", _DIST_RE, "distribution name", nullable=True
        )
        for os_name, n in gpu_fields.items()
    }
    cuda_builds = _platform_list(reader, fields["cuda_builds"], f"{where}.cuda_builds")
    windows_gpu = _windows_gpu(reader, fields["windows_native_gpu"], where, cuda_builds)
    wrappers = _wrappers(reader, fields["wrappers"], f"{where}.wrappers")
    cuda = reader.string(
        fields["cuda"], f"{where}.cuda", _LINE_RE, "CUDA version (X.Y)", nullable=True
    )
    cudnn = reader.string(
        fields["cudnn"],
        f"{where}.cudnn",
        re.compile(r"^\d+(\.\d+)?$"),
        "cuDNN version",
        nullable=True,
    )
    caps = None
    if not is_null(fields["compute_capabilities"]):
        cap_fields = reader.mapping(
            fields["compute_capabilities"],
            f"{where}.compute_capabilities",
            *_parts("compute_capabilities"),
        )
        caps = ComputeCapabilities(
            _arch_list(reader, cap_fields["sass"], f"{where}.compute_capabilities.sass", "sm"),
            _arch_list(reader, cap_fields["ptx"], f"{where}.compute_capabilities.ptx", "compute"),
        )
    pin_fields = reader.mapping(fields["pins"], f"{where}.pins", *_parts("pins"))
    pins = Pins(**{k: reader.specifier(n, f"{where}.pins.{k}") for k, n in pin_fields.items()})
    and_cuda = (
        None
        if is_null(fields["and_cuda"])
        else _dist_specs(reader, fields["and_cuda"], f"{where}.and_cuda")
    )
    failures = (
        _gpu_failures(reader, fields["known_gpu_failures"], f"{where}.known_gpu_failures")
        if "known_gpu_failures" in fields
        else {}
    )
    undeclared = (
        _dist_specs(reader, fields["undeclared_ranges"], f"{where}.undeclared_ranges")
        if "undeclared_ranges" in fields
        else {}
    )
    tolerated = (
        _dist_specs(reader, fields["tolerated_ranges"], f"{where}.tolerated_ranges")
        if "tolerated_ranges" in fields
        else {}
    )
    cuda_install = (
        _cuda_install(reader, fields["cuda_install"], f"{where}.cuda_install", line)
        if "cuda_install" in fields
        else None
    )
    tf_trt = _tf_trt(reader, fields["tf_trt"], f"{where}.tf_trt") if "tf_trt" in fields else None
    notes = tuple(
        reader.required_string(n, f"{where}.notes")
        for n in (reader.sequence(fields["notes"], f"{where}.notes") if "notes" in fields else ())
    )

    src_nodes = reader.any_mapping(fields["sources"], f"{where}.sources")
    line_sources: dict[str, tuple[str, ...]] = {}
    for fact, src_node in src_nodes.items():
        # `tolerated_ranges.keras` cites one package's tolerated range (its own source).
        field, _, dist = fact.partition(".")
        if fact not in _SOURCE_KEYS and not (field == "tolerated_ranges" and dist in tolerated):
            raise reader.error(src_node, f"{where}.sources.{fact}", "not a fact of this entry")
        line_sources[fact] = reader.source_ids(src_node, f"{where}.sources.{fact}", sources)

    entry = TFLine(
        line=line,
        latest_patch=patch,
        requires_python=requires_python,
        python=python,
        glibc_min=glibc,
        gpu_package=gpu_package,
        cuda_builds=cuda_builds,
        windows_native_gpu=windows_gpu,
        wrappers=wrappers,
        cuda=cuda,
        cudnn=cudnn,
        compute_capabilities=caps,
        pins=pins,
        and_cuda=and_cuda,
        sources=line_sources,
        notes=notes,
        known_gpu_failures=failures,
        undeclared_ranges=undeclared,
        tolerated_ranges=tolerated,
        cuda_install=cuda_install,
        tensorflow_gpu_release=(
            reader.boolean(fields["tensorflow_gpu_release"], f"{where}.tensorflow_gpu_release")
            if "tensorflow_gpu_release" in fields
            else False
        ),
        keras_in_step=(
            reader.boolean(fields["keras_in_step"], f"{where}.keras_in_step")
            if "keras_in_step" in fields
            else False
        ),
        xla_by_default=(
            reader.boolean(fields["xla_by_default"], f"{where}.xla_by_default")
            if "xla_by_default" in fields
            else False
        ),
        onednn_opts=(
            reader.boolean(fields["onednn_opts"], f"{where}.onednn_opts")
            if "onednn_opts" in fields
            else False
        ),
        tf_trt=tf_trt,
        numpy_abi=(
            _numpy_abi(reader, fields["numpy_abi"], f"{where}.numpy_abi")
            if "numpy_abi" in fields
            else None
        ),
        lineno=node.start_mark.line + 1,
    )
    for fact, sub in _stated_facts(entry):
        name = f"{fact}.{sub}" if sub else fact
        if not entry.sources_of(name):
            raise reader.error(
                fields[fact],
                f"{where}.{name}",
                f"no source (add sources.{fact}" + (f" or sources.{name})" if sub else ")"),
            )
    return entry


def _stated_facts(entry: TFLine) -> Iterator[tuple[str, str]]:
    """(field, part) of every stated fact of an entry; part "" for whole fields."""
    for fact in _FACT_FIELDS:
        value: Any = getattr(entry, fact.name)
        if fact.sourced_parts:
            for part in fact.part_names():
                if getattr(value, part) is not None:
                    yield fact.name, part
        elif bool(value) if fact.stated == schema.NON_EMPTY else value is not None:
            yield fact.name, ""


def _numpy_abi(reader: _Reader, node: Node, where: str) -> int:
    """``numpy_abi``: a NumPy C ABI major, one of :data:`NUMPY_ABIS`."""
    abi = reader.integer(node, where)
    if abi not in NUMPY_ABIS:
        raise reader.error(
            node, where, f"{abi} is not a NumPy ABI (one of {', '.join(map(str, NUMPY_ABIS))})"
        )
    return abi


def _cuda_install(reader: _Reader, node: Node, where: str, line: str) -> CudaInstall:
    """``cuda_install``: a method from :data:`CUDA_INSTALL_METHODS` and broken patches."""
    fields = reader.mapping(node, where, *_parts("cuda_install"))
    method = reader.required_string(fields["method"], f"{where}.method")
    if method not in CUDA_INSTALL_METHODS:
        raise reader.error(
            fields["method"], f"{where}.method", f"one of {', '.join(CUDA_INSTALL_METHODS)}"
        )
    unfound: list[str] = []
    if "wheels_unfound" in fields:
        for item in reader.sequence(fields["wheels_unfound"], f"{where}.wheels_unfound"):
            patch = reader.required_string(
                item, f"{where}.wheels_unfound", _PATCH_RE, "release version (X.Y.Z)"
            )
            if release_line(patch) != release_line(line):
                raise reader.error(
                    item, f"{where}.wheels_unfound", f"{patch} is not a {line} release"
                )
            unfound.append(patch)
        if method != "and-cuda":
            raise reader.error(
                fields["wheels_unfound"], f"{where}.wheels_unfound", "only for method and-cuda"
            )
    return CudaInstall(method, tuple(unfound))


def _tf_trt(reader: _Reader, node: Node, where: str) -> TfTrt:
    """``tf_trt``: whether the Linux GPU build has TensorRT, and TF-TRT's module (null exactly
    where it has none: a build without TensorRT has no TF-TRT to import)."""
    fields = reader.mapping(node, where, *_parts("tf_trt"))
    built = reader.boolean(fields["built"], f"{where}.built")
    module = reader.string(fields["module"], f"{where}.module", _MODULE_RE, "module", nullable=True)
    if built != (module is not None):
        raise reader.error(
            fields["module"],
            f"{where}.module",
            "needs a module where built is true" if built else "must be null where built is false",
        )
    return TfTrt(built, module)


def _windows_gpu(reader: _Reader, node: Node, where: str, cuda_builds: tuple[str, ...]) -> bool:
    """``windows_native_gpu``, which must agree with ``windows-x86_64`` in ``cuda_builds``."""
    value = reader.boolean(node, f"{where}.windows_native_gpu")
    # Both state one fact (a CUDA build for native Windows); the flag keeps its own source.
    if value != ("windows-x86_64" in cuda_builds):
        raise reader.error(
            node,
            f"{where}.windows_native_gpu",
            f"{str(value).lower()} disagrees with cuda_builds "
            f"({'has no' if value else 'lists'} windows-x86_64)",
        )
    return value


def _dist_specs(reader: _Reader, node: Node, field: str) -> dict[str, str]:
    """Distribution -> specifier (the and-cuda extra, a line's undeclared ranges)."""
    out: dict[str, str] = {}
    for dist, spec_node in reader.any_mapping(node, field).items():
        if not _DIST_RE.match(dist):
            raise reader.error(spec_node, f"{field}.{dist}", "not a distribution name")
        spec = reader.specifier(spec_node, f"{field}.{dist}", nullable=False)
        assert spec is not None
        out[dist] = spec
    return out


def _gpu_failures(reader: _Reader, node: Node, field: str) -> dict[str, str]:
    """Compute capability -> how the wheels fail there."""
    failures: dict[str, str] = {}
    for cc, text_node in reader.any_mapping(node, field).items():
        if not _CC_RE.match(cc):
            raise reader.error(text_node, f"{field}.{cc}", "not a compute capability (X.Y)")
        failures[cc] = reader.required_string(text_node, f"{field}.{cc}")
    return failures


def _wrappers(reader: _Reader, node: Node, field: str) -> dict[str, str]:
    """Platform key -> the distribution the tensorflow wheel wraps there."""
    found = reader.mapping(node, field, (), tuple(PLATFORMS))
    return {
        plat: reader.required_string(n, f"{field}.{plat}", _DIST_RE, "distribution name")
        for plat, n in found.items()
    }


def _platform_list(reader: _Reader, node: Node, field: str) -> tuple[str, ...]:
    """A list of distinct platform keys."""
    out: list[str] = []
    for item in reader.sequence(node, field):
        plat = reader.required_string(item, field)
        if plat not in PLATFORMS or plat in out:
            raise reader.error(item, field, f"{plat!r} is not a platform key, or is repeated")
        out.append(plat)
    return tuple(out)


def _arch_list(reader: _Reader, node: Node, field: str, kind: str) -> tuple[str, ...]:
    out = []
    for item in reader.sequence(node, field):
        arch = reader.required_string(item, field)
        parsed = parse_arch(arch)
        if parsed is None or parsed[0] != kind:
            raise reader.error(item, field, f"{arch!r} is not a {kind}_XY architecture")
        out.append(arch)
    return tuple(out)


# --- companions -------------------------------------------------------------------------------

#: The companion table shipped inside the package.
DEFAULT_COMPANIONS = Path(__file__).with_name("companions.yaml")


@record
class CompanionRelease(Record):
    """One release line (``X.Y``) or release (``X.Y.Z``) of a companion and the TensorFlow
    range it declares."""

    release: str
    tensorflow: str
    #: The release's Requires-Python, where its source gives one.
    python: str = ""
    #: The row's own sources (every row of the table names them).
    sources: tuple[str, ...] = ()
    note: str = ""
    #: The TensorFlow lines (``X.Y``) the project's own compatibility table pairs the release
    #: with, where the row copies them: the lines it was made and tested for, which decide
    #: over a declared range open to lines released after it (TFX's libraries declare
    #: ``tensorflow<3`` in some releases). Empty: the declared range alone.
    tested_with: tuple[str, ...] = ()
    #: The standalone Keras the release's code works with, where its source narrows what its
    #: metadata declares (a later release of the same code declaring a Keras range); empty:
    #: the metadata's range alone.
    keras: str = ""

    @property
    def exact(self) -> bool:
        """Whether the row names one release (``1.10.0``) rather than a line."""
        return _PATCH_RE.match(self.release) is not None

    def specifier(self, pre: bool = False) -> str:
        """What to ask pip for: the release, any release of the line, or (``pre``, for a
        pre-release TensorFlow) the line's pre-releases, which pip takes only from a
        specifier naming one (PEP 440: ``==X.Y.*`` never matches ``X.Y.0rc0``)."""
        if self.exact:
            return f"=={self.release}"
        if pre:
            upper = self.tensorflow.split(",")[0] if self.tensorflow.startswith("<") else ""
            return f">={self.release}.0rc0{',' + upper if upper else ''}"
        return f"=={self.release}.*"

    def requirement(self, name: str, pre: bool = False) -> str:
        """``name`` with :meth:`specifier`: the requirement that installs this row."""
        return f"{name}{self.specifier(pre)}"

    def runs_on(self, python: str) -> bool:
        """Whether the release's Requires-Python admits ``python`` (unknown: it does)."""
        from packaging.specifiers import SpecifierSet  # noqa: PLC0415 - 40 ms import

        return not self.python or SpecifierSet(self.python).contains(python, prereleases=True)

    def admits(self, tf_version: str) -> bool:
        """Whether the row's range admits ``tf_version`` (pre-releases included)."""
        from packaging.specifiers import SpecifierSet  # noqa: PLC0415 - 40 ms import

        return SpecifierSet(self.tensorflow).contains(tf_version, prereleases=True)

    def serves(self, tf_version: str) -> bool:
        """Whether the release is one for ``tf_version``: its range admits it, and the
        project's table, where the row copies it (:attr:`tested_with`), pairs it with that
        line. pip installs it wherever the range admits; "the release for" a TensorFlow is
        the one made for its line."""
        if not self.admits(tf_version):
            return False
        line = ".".join(tf_version.split(".")[:2])
        return not self.tested_with or line in self.tested_with


@record
class TensorFlowRequirement(Record):
    """What TensorFlow's own wheels require of a companion, in the lines that require it."""

    #: The companion's range TensorFlow declares (``>=0.23.1``).
    spec: str
    #: The TensorFlow releases whose wheels declare it (``>=2.9.0``).
    tensorflow: str
    sources: tuple[str, ...]


@record
class Companion(Record):
    """A package released for particular TensorFlow lines (tensorflow-text, tensorflow-io)."""

    name: str
    #: Oldest first.
    releases: tuple[CompanionRelease, ...]
    sources: tuple[str, ...]
    #: Why no release follows TensorFlow any more; empty while it is maintained.
    end_of_life: str = ""
    #: Its release X.Y is built for TensorFlow X.Y (tensorflow-text), as its README's
    #: compatibility table states: the release for a line the rows do not list yet.
    follows_tensorflow: bool = False
    #: TensorFlow's own wheels require it (tensorflow-io-gcs-filesystem): each range, with
    #: the TensorFlow releases that declare it.
    required_by_tensorflow: tuple[TensorFlowRequirement, ...] = ()

    def required_by(self, version: str) -> Optional[TensorFlowRequirement]:
        """What TensorFlow ``version``'s wheels require of this companion; None where they
        require nothing the table states."""
        return next(
            (
                need
                for need in self.required_by_tensorflow
                if spec_contains(version, need.tensorflow)
            ),
            None,
        )

    def row_of(self, version: str) -> Optional[CompanionRelease]:
        """The row of an installed release (``0.25.0``): its own, else its line's."""
        for row in self.releases:
            if row.release == version:
                return row
        line = ".".join(version.split(".")[:2])
        return next((r for r in self.releases if r.release == line), None)

    def release_for(
        self, tf_version: str, python: Optional[str] = None
    ) -> Optional[CompanionRelease]:
        """The newest release for ``tf_version`` (:meth:`CompanionRelease.serves`: its declared
        range admits it, and the project's table, where a row copies it, pairs it with its
        line) whose Requires-Python admits ``python``, where both are known; for a companion
        that follows TensorFlow's versions and has no row for it, the release of that line."""
        admitting = [row for row in self.releases if row.admits(tf_version)]
        for row in reversed([row for row in admitting if row.serves(tf_version)]):
            if python is None or row.runs_on(python):
                return row
        if admitting:
            # Released for this TensorFlow but not for this Python, or admitted by a range
            # whose release the project made for other lines: none made for this one.
            return None
        parts = tf_version.split(".")
        if self.follows_tensorflow and len(parts) >= 2 and all(p.isdigit() for p in parts[:2]):
            major, minor = int(parts[0]), int(parts[1])
            return CompanionRelease(
                f"{major}.{minor}",
                f"<{major}.{minor + 1},>={major}.{minor}.0",
                note=f"not in the table yet: {self.name} X.Y is released for TensorFlow X.Y",
            )
        return None


@record
class Keras2User(Record):
    """A package whose code needs Keras 2 (the tf-keras package) where Keras 3 is tf.keras."""

    name: str
    #: Its releases that need it (a PEP 440 specifier; empty: every release).
    releases: str
    #: What it does without tf-keras, in its own words or the thread's.
    failure: str
    sources: tuple[str, ...]
    #: The releases of the ``keras`` package it refuses (a PEP 440 specifier; empty: it
    #: fails whatever ``keras`` is installed, wherever Keras 3 serves tf.keras).
    keras: str = ""
    #: Whether it fails as it is imported (``import``) or only once its TensorFlow side is
    #: used (``use``: a library whose other frameworks keep working without tf-keras).
    fails_at: str = "import"

    def needs_tf_keras(self, version: str) -> bool:
        """Whether release ``version`` of the package is one that needs tf-keras (what does
        not parse is taken to: the row's word is not narrowed by a guess)."""
        return not self.releases or spec_contains(version, self.releases) is not False


@record
class Companions(Record):
    """The companion table: sources and companions by PEP 503 name, the packages that need
    Keras 2 (tf-keras) under a TensorFlow whose tf.keras is Keras 3, and the companions that
    require only ``tensorflow``."""

    path: str
    sources: Mapping[str, Source]
    companions: Mapping[str, Companion]
    keras2_users: Mapping[str, Keras2User]
    #: Companions whose wheels require only ``tensorflow``, by that name (PEP 503 name ->
    #: the sources that show it): beside another TensorFlow distribution pip would install
    #: ``tensorflow`` too, so they are installed there without dependencies.
    only_tensorflow: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    #: The standalone keras releases from before TensorFlow required a Keras of its own (up
    #: to 2.4; from 2.5 TensorFlow's wheel declares the keras it needs), each with the
    #: TensorFlow range it works with.
    standalone_keras: Optional[Companion] = None
    #: Libraries built on TensorFlow but not released with its lines (transformers), by PEP
    #: 503 name, each release with the TensorFlow its code imports under where their metadata
    #: declares less: judged as companions are, but no release of them pairs with a line.
    built_on: Mapping[str, Companion] = dataclasses.field(default_factory=dict)


def load_companions(path: Optional[str] = None) -> Companions:
    """Load and validate the companion table (the bundled one unless ``path``)."""
    return load_cached(
        path or str(DEFAULT_COMPANIONS), "companions", MatrixError, parse_companions, Companions
    )


def parse_companions(text: str, path: str = "<companions>") -> Companions:
    """Validate companion YAML ``text`` (``path`` names it in errors)."""
    root = compose(text, path, "companions", MatrixError)
    reader = _Reader(path)
    top = reader.mapping(
        root,
        "companions",
        ("schema_version", "sources", "companions"),
        ("keras2_users", "only_tensorflow", "standalone_keras", "built_on"),
    )
    reader.schema_version(top["schema_version"], MATRIX_SCHEMA_VERSION)
    sources = _read_sources(reader, top["sources"])
    users = _keras2_users(reader, top["keras2_users"], sources) if "keras2_users" in top else {}
    only = (
        _only_tensorflow(reader, top["only_tensorflow"], sources)
        if "only_tensorflow" in top
        else {}
    )
    out = _companion_list(reader, top["companions"], "companions", sources)
    keras = (
        _standalone_keras(reader, top["standalone_keras"], sources)
        if "standalone_keras" in top
        else None
    )
    built_on = (
        _companion_list(reader, top["built_on"], "built_on", sources) if "built_on" in top else {}
    )
    if set(built_on) & set(out):
        raise reader.error(top["built_on"], "built_on", "a companion listed again")
    return Companions(path, sources, out, users, only, keras, built_on)


def _companion_list(
    reader: _Reader, node: Any, key: str, sources: Mapping[str, Source]
) -> dict[str, Companion]:
    """The packages of the list ``key`` (``companions``, ``built_on``) by name."""
    out: dict[str, Companion] = {}
    for i, item in enumerate(reader.sequence(node, key)):
        fields = reader.mapping(
            item,
            f"{key}[{i}]",
            ("name", "releases", "source"),
            ("end_of_life", "follows_tensorflow", "required_by_tensorflow"),
        )
        name = reader.required_string(fields["name"], f"{key}[{i}].name", _DIST_RE, "name")
        where = f"{key}[{name}]"
        if name in out:
            raise reader.error(fields["name"], f"{where}.name", "duplicate companion")
        rows = _companion_rows(reader, fields["releases"], where, sources)
        out[name] = Companion(
            name,
            tuple(rows),
            reader.source_ids(fields["source"], f"{where}.source", sources),
            reader.required_string(fields["end_of_life"], f"{where}.end_of_life")
            if "end_of_life" in fields
            else "",
            "follows_tensorflow" in fields
            and reader.boolean(fields["follows_tensorflow"], f"{where}.follows_tensorflow"),
            _required_by_tensorflow(reader, fields["required_by_tensorflow"], where, sources)
            if "required_by_tensorflow" in fields
            else (),
        )
    return out


def _companion_rows(
    reader: _Reader, node: Any, where: str, sources: Mapping[str, Source]
) -> tuple[CompanionRelease, ...]:
    """The ``releases`` rows of a companion (``where`` names it in errors), oldest first."""
    rows: list[CompanionRelease] = []
    for j, item in enumerate(reader.sequence(node, f"{where}.releases")):
        at = f"{where}.releases[{j}]"
        # Every row names the source it is copied from (the wheel's Requires-Dist, the tag's
        # setup.py or import check, the project's table): a row without one is refused, so
        # that no pairing enters the table on a guess.
        row = reader.mapping(
            item,
            at,
            ("release", "tensorflow", "source"),
            ("python", "note", "tested_with", "keras"),
        )
        release = reader.required_string(
            row["release"], f"{at}.release", _RELEASE_RE, "release (X.Y or X.Y.Z)"
        )
        if rows and version_key(release) <= version_key(rows[-1].release):
            raise reader.error(row["release"], at, _UNSORTED_ROWS)
        spec = reader.specifier(row["tensorflow"], f"{at}.tensorflow", False)
        python = reader.specifier(row["python"], f"{at}.python", False) if "python" in row else ""
        rows.append(
            CompanionRelease(
                release,
                spec or "",
                python or "",
                reader.source_ids(row["source"], f"{at}.source", sources),
                reader.required_string(row["note"], f"{at}.note") if "note" in row else "",
                reader.strings(row["tested_with"], f"{at}.tested_with", _LINE_RE, "line (X.Y)")
                if "tested_with" in row
                else (),
                (reader.specifier(row["keras"], f"{at}.keras", False) or "")
                if "keras" in row
                else "",
            )
        )
    return tuple(rows)


def _required_by_tensorflow(
    reader: _Reader, node: Any, where: str, sources: Mapping[str, Source]
) -> tuple[TensorFlowRequirement, ...]:
    """A companion's ``required_by_tensorflow`` rows: each the range TensorFlow's wheels
    declare for it and the TensorFlow releases that declare it."""
    out = []
    for i, item in enumerate(reader.sequence(node, f"{where}.required_by_tensorflow")):
        at = f"{where}.required_by_tensorflow[{i}]"
        fields = reader.mapping(item, at, ("range", "tensorflow", "source"), ())
        out.append(
            TensorFlowRequirement(
                reader.specifier(fields["range"], f"{at}.range", False) or "",
                reader.specifier(fields["tensorflow"], f"{at}.tensorflow", False) or "",
                reader.source_ids(fields["source"], f"{at}.source", sources),
            )
        )
    return tuple(out)


def _standalone_keras(reader: _Reader, node: Any, sources: Mapping[str, Source]) -> Companion:
    """The ``standalone_keras`` rows: the keras releases from before TensorFlow required a
    Keras of its own, each with the TensorFlow it works with."""
    fields = reader.mapping(node, "standalone_keras", ("releases", "source"), ())
    return Companion(
        "keras",
        _companion_rows(reader, fields["releases"], "standalone_keras", sources),
        reader.source_ids(fields["source"], "standalone_keras.source", sources),
    )


def _only_tensorflow(
    reader: _Reader, node: Any, sources: Mapping[str, Source]
) -> dict[str, tuple[str, ...]]:
    """The ``only_tensorflow`` rows: PEP 503 name -> the sources that show it."""
    out: dict[str, tuple[str, ...]] = {}
    for i, item in enumerate(reader.sequence(node, "only_tensorflow")):
        where = f"only_tensorflow[{i}]"
        fields = reader.mapping(item, where, ("name", "source"), ())
        name = reader.required_string(fields["name"], f"{where}.name", _DIST_RE, "name")
        if name in out:
            raise reader.error(fields["name"], f"{where}.name", "duplicate package")
        out[name] = reader.source_ids(fields["source"], f"{where}.source", sources)
    return out


def _keras2_users(
    reader: _Reader, node: Any, sources: Mapping[str, Source]
) -> dict[str, Keras2User]:
    """The ``keras2_users`` rows, by PEP 503 name."""
    users: dict[str, Keras2User] = {}
    for i, item in enumerate(reader.sequence(node, "keras2_users")):
        where = f"keras2_users[{i}]"
        fields = reader.mapping(
            item, where, ("name", "failure", "source"), ("releases", "keras", "fails_at")
        )
        name = reader.required_string(fields["name"], f"{where}.name", _DIST_RE, "name")
        if name in users:
            raise reader.error(fields["name"], f"{where}.name", "duplicate package")
        spec, keras = (
            reader.specifier(fields[key], f"{where}.{key}", False) if key in fields else ""
            for key in ("releases", "keras")
        )
        users[name] = Keras2User(
            name,
            spec or "",
            reader.required_string(fields["failure"], f"{where}.failure"),
            reader.source_ids(fields["source"], f"{where}.source", sources),
            keras or "",
            reader.choice(fields["fails_at"], f"{where}.fails_at", ("import", "use"))
            if "fails_at" in fields
            else "import",
        )
    return users
