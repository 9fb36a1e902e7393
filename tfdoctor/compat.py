"""Pure verdicts from the matrix: which TensorFlow line fits a Python, platform, driver and GPU.

Everything here is a function of a :class:`~tfdoctor.matrix.Matrix` and plain values, so the
checks, ``tfdoctor matrix`` and ``tfdoctor pin`` give the same answers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Optional

from tfdoctor.matrix import (
    DEFAULT_PLATFORM_OF_OS,
    PIN_FIELDS,
    PLATFORMS,
    Companion,
    CompanionRelease,
    Companions,
    ComputeCapabilities,
    Matrix,
    TFLine,
    parse_arch,
    spec_contains,
    version_key,
)
from tfdoctor.records import Record, record

#: How a GPU runs a wheel's code: its own machine code, PTX compiled at first start, or not.
SASS = "sass"
PTX = "ptx"
NONE = "none"
#: The line's wheels record no GPU architectures: how a GPU runs them is not known.
UNRECORDED = "unrecorded"
#: The line is known to fail on the GPU (the matrix's ``known_gpu_failures``).
FAILS = "fails"

#: What a part of a verdict is about (:attr:`Judgement.about`).
PLATFORM = "platform"  # no tensorflow wheel for the platform
PYTHON = "python"  # no wheel for the Python on the platform
CUDA = "cuda"  # no CUDA build to run on the GPU, or not for the CUDA installed
DRIVER = "driver"  # the driver is below the CUDA build's floor
GPU = "gpu"  # the GPU's code in the wheels (see :attr:`Verdict.gpu_code`)
WRAPPER = "wrapper"  # the tensorflow wheel installs another distribution here


@record
class DriverFloor(Record):
    """The oldest driver a build runs on, and the rule that sets it."""

    version: str
    rule: str


@record
class Target(Record):
    """What a user has (or plans): each field optional; None means "any"."""

    python: Optional[str] = None
    #: A platform key (``linux-x86_64``); see :func:`platform_key`.
    platform: Optional[str] = None
    #: An installed CUDA toolkit (``11.8``).
    cuda: Optional[str] = None
    driver: Optional[str] = None
    #: A compute capability (``8.6``).
    gpu: Optional[str] = None
    #: The driver is the Windows host's (WSL): its version follows Windows' numbering.
    wsl: bool = False

    @property
    def wants_gpu(self) -> bool:
        """Whether the target asks about running on an NVIDIA GPU."""
        return any(v is not None for v in (self.cuda, self.driver, self.gpu))


@record
class Judgement(Record):
    """One part of a verdict: what it is about, in words, and whether it excludes the line."""

    #: :data:`PLATFORM`, :data:`PYTHON`, :data:`CUDA`, :data:`DRIVER`, :data:`GPU` or
    #: :data:`WRAPPER`.
    about: str
    text: str
    excludes: bool
    #: The driver floor the target's driver is below (the build's, or PTX JIT's).
    floor: Optional[DriverFloor] = None


@record
class Verdict(Record):
    """Whether a line fits a target; why not; and what to know when it does."""

    line: TFLine
    judgements: tuple[Judgement, ...] = ()
    #: How the target's GPU runs the line's CUDA build (:data:`SASS`, :data:`PTX`,
    #: :data:`NONE`, :data:`UNRECORDED`, :data:`FAILS`); None where no GPU was judged.
    gpu_code: Optional[str] = None

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why the line does not fit (empty: it fits)."""
        return tuple(j.text for j in self.judgements if j.excludes)

    @property
    def notes(self) -> tuple[str, ...]:
        """What to know when it fits."""
        return tuple(j.text for j in self.judgements if not j.excludes)

    @property
    def fits(self) -> bool:
        """True when nothing excludes the line."""
        return not self.reasons

    def about(self, *topics: str) -> tuple[Judgement, ...]:
        """The judgements about any of ``topics``, in order."""
        return tuple(j for j in self.judgements if j.about in topics)


def platform_key(value: str) -> Optional[str]:
    """``linux`` / ``linux-x86_64`` / ``macos-arm64`` / ``win`` -> a platform key, else None."""
    text = value.strip().lower().replace("_", "-").replace("x86-64", "x86_64")
    aliases = {
        "win": "windows",
        "win32": "windows",
        "darwin": "macos",
        "osx": "macos",
        "mac": "macos",
        "windows-amd64": "windows-x86_64",
        "linux-amd64": "linux-x86_64",
        "linux-arm64": "linux-aarch64",
        "macos-aarch64": "macos-arm64",
    }
    text = aliases.get(text, text)
    if text in DEFAULT_PLATFORM_OF_OS:
        return DEFAULT_PLATFORM_OF_OS[text]
    return text if text in PLATFORMS else None


def platform_of(system: str, machine: str) -> Optional[str]:
    """The platform key of ``platform.system()`` and ``platform.machine()`` values."""
    # (wheel_tags.OS_OF_SYSTEM holds the same names; the layers keep compat from importing it.)
    os_name = {"linux": "linux", "darwin": "macos", "windows": "windows"}.get(system.lower())
    arch = {"amd64": "x86_64", "x86_64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}.get(
        machine.lower()
    )
    if os_name is None or arch is None:
        return None
    if os_name == "macos" and arch == "aarch64":
        return "macos-arm64"
    key = f"{os_name}-{arch}"
    return key if key in PLATFORMS else None


def marker_environment(
    *,
    python_version: Optional[str] = None,
    implementation: Optional[str] = None,
    system: Optional[str] = None,
    machine: Optional[str] = None,
    release: Optional[str] = None,
) -> dict[str, str]:
    """PEP 508 marker variables of an interpreter, from what is known of it; ``extra`` empty.

    ``python_version`` is the full version (``3.11.7``), the rest as the ``platform`` module
    gives them (``CPython``, ``Linux``, ``x86_64``, ``6.8.0``). A value left None leaves its
    variables out: packaging's ``Marker.evaluate`` takes those from the running interpreter.
    https://packaging.python.org/en/latest/specifications/dependency-specifiers/#environment-markers
    """
    env = {"extra": ""}
    if python_version is not None:
        env["python_version"] = ".".join(python_version.split(".")[:2])
        env["python_full_version"] = python_version
    if implementation is not None:
        env["implementation_name"] = implementation.lower()
        env["platform_python_implementation"] = implementation
        if python_version is not None and implementation == "CPython":
            # sys.implementation.version: the language version on CPython only (PyPy 7.3.x).
            env["implementation_version"] = python_version
    if system is not None:
        env["platform_system"] = system
        env["sys_platform"] = {"Linux": "linux", "Darwin": "darwin", "Windows": "win32"}.get(
            system, system.lower()
        )
        env["os_name"] = "nt" if system == "Windows" else "posix"
    if machine is not None:
        env["platform_machine"] = machine
    if release is not None:
        env["platform_release"] = release
    return env


def python_minor(version: str) -> Optional[str]:
    """``3.11.7`` -> ``3.11``; None when it is not a CPython 3 version."""
    parts = version_key(version)
    if len(parts) < 2 or parts[0] != 3:
        return None
    return f"{parts[0]}.{parts[1]}"


def keras3_serves_tf_keras(line: TFLine) -> bool:
    """Keras 3 serves ``tf.keras`` on ``line``: its wheel's keras pin asks for Keras 3 or
    newer (``>=3.0.0`` on 2.16, ``>=3.12.0`` on 2.21) and admits no Keras 2."""
    from packaging.specifiers import SpecifierSet  # noqa: PLC0415 - 40 ms import
    from packaging.version import Version  # noqa: PLC0415

    pin = line.pins.keras
    if pin is None:
        return False
    spec = SpecifierSet(pin)
    floors = [Version(s.version).major for s in spec if s.operator in (">=", ">", "~=", "==")]
    return "2.99" not in spec and bool(floors) and max(floors) >= 3


def first_keras3_line(matrix: Matrix) -> Optional[TFLine]:
    """The oldest line on which Keras 3 serves ``tf.keras``."""
    lines = [line for line in matrix.lines if keras3_serves_tf_keras(line)]
    return min(lines, key=lambda line: version_key(line.line)) if lines else None


def last_keras2_line(matrix: Matrix) -> Optional[TFLine]:
    """The newest line with a final release whose ``tf.keras`` is Keras 2 from the keras
    package (its keras pin admits no Keras 3: 2.15), the one before :func:`first_keras3_line`."""
    return next(
        (line for line in matrix.releases if line.pins.keras and not keras3_serves_tf_keras(line)),
        None,
    )


def of_tf_keras_only(matrix: Matrix, version: str) -> bool:
    """Whether Keras release ``version`` is one only tf-keras has: a line's tf-keras pin holds
    it and no line's keras pin does (the keras package's Keras 2 ends with TensorFlow 2.15's;
    tf-keras goes on with the lines after it)."""
    return any(
        line.pins.tf_keras and spec_contains(version, line.pins.tf_keras) for line in matrix.lines
    ) and not any(
        line.pins.keras and spec_contains(version, line.pins.keras) for line in matrix.lines
    )


def tf_keras_requirement(line: TFLine) -> Optional[str]:
    """``tf-keras`` of ``line``: the matrix's pin, else the line's own release where Keras 3
    is tf.keras; None where the line has no tf-keras."""
    if line.pins.tf_keras is not None:
        return f"tf-keras{line.pins.tf_keras}"
    if keras3_serves_tf_keras(line):
        return f"tf-keras~={line.line}.0"
    return None


def toolkit_driver(matrix: Matrix, cuda: str, os_name: str) -> Optional[str]:
    """The driver CUDA ``cuda`` (``major.minor``) shipped with on ``os_name``, if known: a
    driver reporting that CUDA release (``windows`` for a driver of a Windows host, WSL's
    included, whose versions are numbered apart)."""
    toolkit = matrix.toolkit(cuda)
    if toolkit is None:
        return None
    return toolkit.min_driver_linux if os_name == "linux" else toolkit.min_driver_windows


def _toolkit_driver(matrix: Matrix, line: TFLine, os_name: str) -> Optional[str]:
    """The driver the line's CUDA toolkit shipped with on ``os_name``, if known."""
    return toolkit_driver(matrix, line.cuda, os_name) if line.cuda is not None else None


def driver_floor(matrix: Matrix, line: TFLine, os_name: str) -> Optional[DriverFloor]:
    """The oldest driver that runs the line's CUDA build's machine code on ``os_name``.

    CUDA 11.1+ and 12.x builds run on the family floor (minor version compatibility); CUDA
    10.x and 11.0 builds need the driver their toolkit shipped with, which is what
    ``min(toolkit, family)`` gives for 11.0 (its toolkit driver is below the 11.x floor).
    """
    return cuda_driver_floor(matrix, line.cuda, os_name) if line.cuda is not None else None


def cuda_driver_floor(matrix: Matrix, cuda: str, os_name: str) -> Optional[DriverFloor]:
    """The oldest driver that runs a CUDA ``cuda`` build's machine code on ``os_name`` (for a
    build the matrix has no line of, its CUDA from the build's own record)."""
    exact = toolkit_driver(matrix, cuda, os_name)
    if exact is None:
        return None
    major = version_key(cuda)[0]
    family = matrix.family(major)
    floor = None
    if family is not None:
        floor = family.min_driver_linux if os_name == "linux" else family.min_driver_windows
    if floor is not None and version_key(floor) < version_key(exact):
        return DriverFloor(floor, f"CUDA {major}.x minor version compatibility floor")
    return DriverFloor(exact, f"the driver CUDA {cuda} shipped with")


def ptx_driver_floor(matrix: Matrix, line: TFLine, os_name: str) -> Optional[DriverFloor]:
    """The oldest driver that can JIT-compile the line's PTX: its toolkit's own driver."""
    exact = _toolkit_driver(matrix, line, os_name)
    if exact is None:
        return None
    return DriverFloor(exact, f"PTX JIT needs the CUDA {line.cuda} toolkit's driver or newer")


def gpu_code(caps: ComputeCapabilities, compute_capability: str) -> str:
    """:data:`SASS`, :data:`PTX` or :data:`NONE`: how a GPU of that capability runs ``caps``."""
    want = version_key(compute_capability)
    if len(want) < 2:
        return NONE
    major, minor = want[0], want[1]
    for arch in caps.sass:
        parsed = parse_arch(arch)
        if parsed is None:
            continue
        _, a_major, a_minor, specific = parsed
        # A family target (sm_100f) runs as plain machine code does, within its major: on
        # 10.0 and 10.3, not 11.0; an architecture target (sm_90a) on its capability alone.
        exact = specific and not arch.endswith("f")
        if a_major == major and (a_minor == minor if exact else a_minor <= minor):
            return SASS
    for arch in caps.ptx:
        parsed = parse_arch(arch)
        if parsed is None:
            continue
        _, a_major, a_minor, specific = parsed
        family = specific and arch.endswith("f")
        if (
            (a_major, a_minor) == (major, minor)
            or (not specific and (a_major, a_minor) < (major, minor))
            or (family and a_major == major and a_minor <= minor)
        ):
            return PTX
    return NONE


#: The lowest compute capability TensorFlow's GPU device factory lists, where it does not
#: follow the build. Up to 2.2 ``GetSupportedCudaComputeCapabilities`` in gpu_device.cc is the
#: build's own list (TF_CUDA_CAPABILITIES, which configure writes from
#: TF_CUDA_COMPUTE_CAPABILITIES: v2.2.0); later it is the fixed pair 3.5 and 5.2, plus a
#: source build's TF_EXTRA_CUDA_CAPABILITIES, which release wheels do not set (master; a 2.4
#: source build for 3.0 still told "The minimum required Cuda capability is 3.5",
#: tensorflow/tensorflow#46653), whatever architectures the wheel was compiled for: 2.16's
#: wheel (sm_50 and up) lists a 3.7 GPU. 2.3's wheels start at sm_35, so both rules agree
#: on them. (release, floor) pairs, newest first.
#: https://github.com/tensorflow/tensorflow/blob/v2.2.0/tensorflow/core/common_runtime/gpu/gpu_device.cc
#: https://github.com/tensorflow/tensorflow/blob/master/tensorflow/core/common_runtime/gpu/gpu_device.cc
LISTED_CAPABILITY_FLOORS: tuple[tuple[str, str], ...] = (("2.3", "3.5"),)


def fixed_floor_above(compute_capability: str) -> Optional[tuple[str, str]]:
    """The newest (release, floor) of :data:`LISTED_CAPABILITY_FLOORS` whose floor is above a
    GPU of that capability: from that release on TensorFlow ignores the GPU whatever its build
    carries, unless the build also names it in TF_EXTRA_CUDA_CAPABILITIES. None where none is
    above it."""
    want = version_key(compute_capability)[:2]
    for since, floor in LISTED_CAPABILITY_FLOORS:
        if len(want) == 2 and want < version_key(floor)[:2]:
            return since, floor
    return None


def listing_floor(caps: ComputeCapabilities, tf_version: str) -> Optional[tuple[int, int]]:
    """The lowest compute capability TensorFlow ``tf_version`` lists a GPU of (below it, "Ignoring
    visible gpu device ... The minimum required Cuda capability is X"): the release's fixed
    floor (:data:`LISTED_CAPABILITY_FLOORS`), else the lowest architecture in ``caps``; None
    where ``caps`` names none."""
    release = version_key(tf_version)
    for since, floor in LISTED_CAPABILITY_FLOORS:
        if release and release >= version_key(since):
            major, minor = version_key(floor)[:2]
            return major, minor
    archs = [parsed[1:3] for a in (*caps.sass, *caps.ptx) if (parsed := parse_arch(a))]
    return min(archs) if archs else None


def below_listing_floor(
    caps: ComputeCapabilities, compute_capability: str, tf_version: str
) -> bool:
    """Whether TensorFlow ``tf_version``, built for ``caps``, leaves a GPU of that capability
    out of its devices (:func:`listing_floor`); one at or above the floor is listed, whether
    or not any of the build's code runs on it."""
    want = version_key(compute_capability)
    floor = listing_floor(caps, tf_version)
    return len(want) >= 2 and floor is not None and (want[0], want[1]) < floor


def carries_machine_code(line: TFLine, compute_capability: str) -> bool:
    """Whether ``line``'s wheels carry machine code (SASS, not PTX alone) for the GPU."""
    caps = line.compute_capabilities
    return caps is not None and gpu_code(caps, compute_capability) == SASS


def build_capabilities(items: tuple[str, ...]) -> ComputeCapabilities:
    """GPU code from a TensorFlow build list (build_info's ``cuda_compute_capabilities``).

    ``sm_XY`` is machine code only; ``compute_XY`` is machine code *and* PTX. TensorFlow's
    .bazelrc: "`compute_XY` enables PTX embedding in addition to SASS".
    """
    sass = [c for c in items if c.startswith("sm_")]
    ptx = [c for c in items if c.startswith("compute_")]
    for arch in ptx:
        machine = "sm_" + arch[len("compute_") :]
        if machine not in sass:
            sass.append(machine)
    sass.sort(key=lambda a: (parse_arch(a) or ("", 0, 0, False))[1:3])
    return ComputeCapabilities(tuple(sass), tuple(ptx))


def _below(have: str, need: str) -> bool:
    return version_key(have) < version_key(need)


def _span(versions: tuple[str, ...]) -> str:
    if not versions:
        return "none"
    return versions[0] if len(versions) == 1 else f"{versions[0]}-{versions[-1]}"


def evaluate(matrix: Matrix, line: TFLine, target: Target) -> Verdict:
    """Whether ``line`` works for ``target``, with every reason it does not.

    The one verdict on a line for a machine: the checks, ``matrix``, ``pin`` and ``upgrade``
    all read it, so they cannot disagree on what fits.
    """
    out: list[Judgement] = []
    plat = target.platform or "linux-x86_64"
    wheels = line.python.get(plat, ())
    if not wheels:
        out.append(Judgement(PLATFORM, f"no tensorflow wheel for {plat}", True))
    elif target.python is not None:
        minor = python_minor(target.python) or target.python
        if minor not in wheels:
            text = f"no wheel for Python {minor} on {plat} (Python {_span(wheels)})"
            out.append(Judgement(PYTHON, text, True))
    code = _gpu_judgements(matrix, line, target, out) if target.wants_gpu else None
    if plat in line.wrappers:
        text = f"on {plat} the tensorflow wheel installs {line.wrappers[plat]}"
        out.append(Judgement(WRAPPER, text, False))
    return Verdict(line, tuple(out), code)


def _gpu_judgements(
    matrix: Matrix, line: TFLine, target: Target, out: list[Judgement]
) -> Optional[str]:
    """The CUDA build, driver and GPU parts of the verdict; how the GPU runs the wheels' code
    (None where it is not judged)."""
    plat = target.platform or "linux-x86_64"
    os_name = PLATFORMS.get(plat, "linux")
    if os_name == "macos":
        text = "no CUDA build on macOS (Apple GPUs use tensorflow-metal)"
        out.append(Judgement(CUDA, text, True))
        return None
    if os_name == "windows" and not line.windows_native_gpu:
        out.append(Judgement(CUDA, "no GPU support on native Windows after 2.10 (use WSL2)", True))
        return None
    if line.cuda is None or plat not in line.cuda_builds:
        out.append(Judgement(CUDA, f"the {plat} wheels are CPU builds (no CUDA)", True))
        return None
    if target.cuda is not None:
        have = version_key(target.cuda)
        need = version_key(line.cuda)
        # From CUDA 11.1 on the libraries' sonames carry the major only (libcudart.so.11.0
        # serves every 11.x); CUDA 11.0 still shipped libcusolver.so.10, and 10.x put the
        # minor in every name (libcudart.so.10.1): those builds need their exact toolkit.
        family = tuple(need[:2]) >= (11, 1)
        same = have[:1] == need[:1] if family else have[:2] == need[:2]
        if not same:
            wanted = f"{need[0]}.x" if family else line.cuda
            text = f"built for CUDA {line.cuda}: needs a CUDA {wanted} installation"
            out.append(Judgement(CUDA, text, True))
    # Under WSL the driver is the Windows host's, and reports Windows version numbers.
    driver_os = "windows" if target.wsl else os_name
    floor = driver_floor(matrix, line, driver_os)
    if target.driver is not None and floor is not None and _below(target.driver, floor.version):
        text = f"CUDA {line.cuda} build needs driver >= {floor.version} ({floor.rule})"
        out.append(Judgement(DRIVER, text, True, floor))
    if target.gpu is None:
        return None
    caps = line.compute_capabilities
    if caps is None:
        out.append(Judgement(GPU, "the wheel does not record its GPU architectures", False))
        return UNRECORDED
    failure = line.known_gpu_failures.get(target.gpu)
    if failure is not None:
        out.append(Judgement(GPU, f"fails on compute capability {target.gpu}: {failure}", True))
        return FAILS
    code = gpu_code(caps, target.gpu)
    if code == NONE:
        text = (
            f"no GPU code for compute capability {target.gpu} "
            f"(carries {', '.join(caps.sass + caps.ptx)})"
        )
        out.append(Judgement(GPU, text, True))
    elif code == PTX:
        ptx_floor = ptx_driver_floor(matrix, line, driver_os)
        if (
            target.driver is not None
            and ptx_floor is not None
            and _below(target.driver, ptx_floor.version)
        ):
            text = (
                f"compute capability {target.gpu} runs only through PTX JIT, which needs "
                f"driver >= {ptx_floor.version}"
            )
            out.append(Judgement(GPU, text, True, ptx_floor))
        else:
            text = (
                f"compute capability {target.gpu} runs through PTX JIT: the first start "
                "compiles every kernel (minutes)"
            )
            out.append(Judgement(GPU, text, False))
    return code


def verdicts(matrix: Matrix, target: Target) -> tuple[Verdict, ...]:
    """Every line's verdict for ``target``, newest line first (pre-release lines included)."""
    return tuple(evaluate(matrix, line, target) for line in matrix.lines)


def newest_fit(matrix: Matrix, target: Target, pre: bool = False) -> Optional[Verdict]:
    """The newest line that fits ``target``, if any; a pre-release line only with ``pre``.

    A release candidate is for testing, not for a fix to install: pip itself takes one only
    when asked (``--pre``, or a specifier naming it; PEP 440 "Handling of pre-releases").
    """
    return best_of(verdicts(matrix, target), pre)


def best_of(found: Sequence[Verdict], pre: bool = False) -> Optional[Verdict]:
    """The first verdict (newest first) that fits, skipping pre-release lines unless ``pre``."""
    for verdict in found:
        if verdict.fits and (pre or not verdict.line.pre_release):
            return verdict
    return None


def install_requirement(line: TFLine, target: Target, release: Optional[str] = None) -> str:
    """The requirement to install ``line`` for ``target`` (``tensorflow[and-cuda]==2.21.0``):
    its latest patch, or ``release`` of it."""
    plat = target.platform or "linux-x86_64"
    os_name = PLATFORMS.get(plat, "linux")
    dist = "tensorflow"
    extra = ""
    if target.wants_gpu and plat in line.cuda_builds:
        gpu_dist = line.gpu_package.get(os_name)
        if gpu_dist:
            dist = gpu_dist
        if os_name == "linux" and line.and_cuda:
            extra = "[and-cuda]"
    return f"{dist}{extra}=={release or line.latest_patch}"


def describe_target(target: Target) -> str:
    """``Python 3.12 on linux-x86_64, driver 470.82.01``; empty when nothing is asked."""
    head = f"Python {target.python}" if target.python else ""
    if target.platform:
        head = f"{head} on {target.platform}" if head else target.platform
    parts = [head] if head else []
    if target.cuda:
        parts.append(f"CUDA {target.cuda}")
    if target.driver:
        parts.append(f"driver {target.driver}")
    if target.gpu:
        parts.append(f"GPU compute capability {target.gpu}")
    return ", ".join(parts)


class TargetError(ValueError):
    """A query value that cannot be understood (one line, for exit code 3)."""


def make_target(
    matrix: Matrix,
    *,
    python: Optional[str] = None,
    platform: Optional[str] = None,
    cuda: Optional[str] = None,
    driver: Optional[str] = None,
    gpu: Optional[str] = None,
) -> Target:
    """A :class:`Target` from user input, validated; ``gpu`` is ``8.6`` or a model name."""
    if python is not None and python_minor(python) is None:
        raise TargetError(f"--python-version {python}: expected a CPython 3 version such as 3.11")
    plat = None
    if platform is not None:
        plat = platform_key(platform)
        if plat is None:
            choices = ", ".join([*DEFAULT_PLATFORM_OF_OS, *PLATFORMS])
            raise TargetError(f"--platform {platform}: expected one of {choices}")
    if cuda is not None and not re.match(r"^\d+\.\d+(\.\d+)?$", cuda.strip()):
        raise TargetError(f"--cuda {cuda}: expected a CUDA version such as 11.8")
    if driver is not None and not re.match(r"^\d+\.\d+(\.\d+)?$", driver.strip()):
        raise TargetError(f"--driver {driver}: expected a driver version such as 470.82.01")
    capability = None
    if gpu is not None:
        if re.match(r"^\d+\.\d+$", gpu.strip()):
            capability = gpu.strip()
        else:
            model = matrix.gpu_model(gpu)
            if model is None:
                raise TargetError(
                    f"--gpu {gpu}: unknown GPU model; give its compute capability (such as "
                    "8.6, from https://developer.nvidia.com/cuda-gpus)"
                )
            capability = model.compute_capability
    return Target(
        python=python_minor(python) if python is not None else None,
        platform=plat,
        cuda=cuda.strip() if cuda is not None else None,
        driver=driver.strip() if driver is not None else None,
        gpu=capability,
    )


# --- companions ---------------------------------------------------------------------------------


@record
class CompanionMatch(Record):
    """A row of the companion table that answers a query, with the matrix lines it serves."""

    release: CompanionRelease
    #: The pip requirement that installs it.
    install: str
    #: The matrix's TensorFlow lines (newest first) with a release inside the row's range.
    tensorflow_lines: tuple[str, ...]
    #: Where the row comes from (its own sources' addresses, else the companion's).
    sources: tuple[str, ...]


@record
class CompanionAnswer(Record):
    """Which releases of a companion go with which TensorFlow: the rows a query matched."""

    companion: Companion
    #: The TensorFlow asked about (``2.21``, ``2.21.0``), or None.
    tensorflow: Optional[str]
    #: The companion release asked about (``2.20``), or None.
    release: Optional[str]
    matches: tuple[CompanionMatch, ...]
    #: Pre-release TensorFlow lines were included (``--pre``).
    pre: bool = False
    #: A package TensorFlow's wheel pins: each match's ``release`` is the range it pins.
    pinned: bool = False
    #: Where the companion's rows come from (addresses), to look further where none matched.
    sources: tuple[str, ...] = ()


def line_releases(matrix: Matrix, line: TFLine) -> tuple[str, ...]:
    """The releases of ``line`` a range is judged on: X.Y.0 up to its latest patch (before the
    line's first final, its pre-release and the X.Y.0 to come)."""
    latest = line.latest_patch
    patch = re.match(r"^\d+\.\d+\.(\d+)$", latest)
    if patch is None:
        return (latest, f"{line.line}.0")
    return tuple(f"{line.line}.{p}" for p in range(int(patch.group(1)) + 1))


def _serves(row: CompanionRelease, releases: Sequence[str]) -> bool:
    return any(row.serves(v) for v in releases)


def companion_answer(
    matrix: Matrix,
    table: Companions,
    name: str,
    tensorflow: Optional[str] = None,
    release: Optional[str] = None,
    pre: bool = False,
) -> CompanionAnswer:
    """The companion ``name``'s rows for the TensorFlow ``tensorflow`` (a line ``X.Y`` or a
    release), or for its own ``release`` (``X.Y`` or ``X.Y.Z``), or all of them; each with
    the matrix's TensorFlow lines it serves (pre-release lines only with ``pre``).

    Raises KeyError for a companion the table does not know.
    """
    comp = table.companions[name]
    asked_line = matrix.line_for(tensorflow) if tensorflow and _LINE.match(tensorflow) else None
    # A pre-release line asked for by name is answered; otherwise only with ``pre``.
    lines = [line for line in matrix.lines if pre or not line.pre_release or line is asked_line]
    rows: list[CompanionRelease] = list(comp.releases)
    tf_pre = False
    if tensorflow is not None:
        releases = (
            line_releases(matrix, asked_line)
            if asked_line is not None
            else (f"{tensorflow}.0",)
            if _LINE.match(tensorflow)
            else (tensorflow,)
        )
        tf_pre = any(re.search(r"[a-z]", v) for v in releases)
        rows = [row for row in rows if _serves(row, releases)]
        if not rows:
            synthetic = comp.release_for(releases[-1])
            rows = [synthetic] if synthetic is not None else []
        # Of several releases declaring one range (tensorflow-io 0.33 and 0.34), the newest;
        # of lines, the newest (each tensorflow-probability from 0.18 admits 2.21): pip's pick.
        newest = {row.tensorflow: row for row in rows}
        rows = [row for row in rows if newest[row.tensorflow] is row]
        rows = rows[-1:] if rows and not rows[-1].exact else rows
    if release is not None:
        rows = [
            row
            for row in rows
            if row.release == release
            or release.startswith(row.release + ".")
            or row.release.startswith(release + ".")
        ]
    own = {row.release for row in comp.releases}
    matches = tuple(
        CompanionMatch(
            row,
            row.requirement(comp.name, pre=tf_pre and row.release not in own),
            tuple(line.line for line in lines if _serves(row, line_releases(matrix, line))),
            # The row's own sources, then the companion's (its table, its README's rule).
            tuple(dict.fromkeys(table.sources[s].url for s in (*row.sources, *comp.sources))),
        )
        for row in reversed(rows)
    )
    urls = tuple(table.sources[s].url for s in comp.sources)
    return CompanionAnswer(comp, tensorflow, release, matches, pre, sources=urls)


_LINE = re.compile(r"^\d+\.\d+$")


#: Packages TensorFlow's wheel pins, paired with each line by the matrix (``pins``).
PINNED_COMPANIONS = {f.replace("_", "-"): f for f in PIN_FIELDS}


def pinned_answer(
    matrix: Matrix,
    name: str,
    tensorflow: Optional[str] = None,
    release: Optional[str] = None,
    pre: bool = False,
) -> CompanionAnswer:
    """Like :func:`companion_answer`, for a package the matrix pairs with each line (tf-keras,
    numpy, ...): each match is a range of ``name`` and the run of lines that pin it, newest
    first. Raises KeyError for another name."""
    field = PINNED_COMPANIONS[name]
    if tensorflow is not None:
        asked = matrix.line_for(tensorflow)
        lines = [asked] if asked is not None else []
    else:
        lines = [line for line in matrix.lines if pre or not line.pre_release]
    runs: list[tuple[str, list[TFLine]]] = []
    for line in lines:
        spec = getattr(line.pins, field)
        if not spec:
            continue
        if release is not None:
            from packaging.specifiers import SpecifierSet  # noqa: PLC0415 - 40 ms import

            wanted = f"{release}.0" if _LINE.match(release) else release
            if not SpecifierSet(spec).contains(wanted, prereleases=True):
                continue
        if runs and runs[-1][0] == spec and runs[-1][1][-1].key == _next_key(line):
            runs[-1][1].append(line)
        else:
            runs.append((spec, [line]))
    matches = []
    for spec, run in runs:
        newest, oldest = run[0], run[-1]
        major, minor = newest.key
        tf_range = (
            f"=={newest.line}.*" if len(run) == 1 else f"<{major}.{minor + 1},>={oldest.line}.0"
        )
        urls = dict.fromkeys(
            matrix.sources[s].url_for(line)
            for line in run
            for s in line.sources_of(f"pins.{field}")
            if s in matrix.sources
        )
        matches.append(
            CompanionMatch(
                CompanionRelease(spec, tf_range),
                f"{name}{spec}",
                tuple(line.line for line in run),
                tuple(urls),
            )
        )
    return CompanionAnswer(Companion(name, (), ()), tensorflow, release, tuple(matches), pre, True)


def _next_key(line: TFLine) -> tuple[int, int]:
    """The key of the line after ``line`` (``2.21`` after ``2.20``)."""
    major, minor = line.key
    return major, minor + 1
