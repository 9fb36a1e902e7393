"""Checks driven by the compatibility matrix: Python, driver, GPU code, CUDA libraries, pins.

Each fix names the newest TensorFlow that fits this machine's Python, platform, driver and
GPUs, from :func:`tfdoctor.compat.newest_fit`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Optional

from tfdoctor import causes
from tfdoctor.checks._context import (
    CheckContext,
    fix,
    pip_command,
    unknown,
)
from tfdoctor.compat import (
    NONE,
    PTX,
    Target,
    evaluate,
    gpu_code,
    install_requirement,
    keras3_serves_tf_keras,
    newest_fit,
    ptx_driver_floor,
    python_minor,
    verdicts,
)
from tfdoctor.facts import (
    Facts,
    LibraryCandidate,
    LibraryFacts,
    PackageFacts,
    TFStatus,
    normalize_name,
)
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import LAZY_IMPORTS, MATRIX_DISTRIBUTIONS, START_IMPORTS, Machine
from tfdoctor.matrix import ComputeCapabilities, Keras2User, Matrix, TFLine, version_key

if TYPE_CHECKING:
    from packaging.specifiers import SpecifierSet

#: NVIDIA's driver downloads and the Linux packages' branch names.
DRIVER_LINK = "https://www.nvidia.com/en-us/drivers/"


def _newest_fix(machine: Machine, matrix: Matrix, text: str) -> Optional[Fix]:
    """A fix installing the newest line that fits this machine, or None when none does."""
    target = machine.target
    verdict = newest_fit(matrix, target)
    if verdict is None:
        return None
    req = install_requirement(verdict.line, target)
    return fix(
        text.format(version=verdict.line.latest_patch), pip_command(machine, f'install "{req}"')
    )


def _installed_line(ctx: CheckContext) -> tuple[Optional[PackageFacts], Optional[TFLine]]:
    pkg = ctx.machine.tf
    if pkg is None or ctx.matrix is None:
        return pkg, None
    return pkg, ctx.matrix.line_for(pkg.version)


def _matrix_unknown(fid: str, ctx: CheckContext, pkg: PackageFacts) -> Finding:
    newest = ctx.matrix.lines[0].line if ctx.matrix else "?"
    return Finding(
        fid,
        Severity.UNKNOWN,
        f"TensorFlow {pkg.version} is not in the compatibility matrix (newest known: {newest})",
        "This tfdoctor predates the release or does not cover it; its checks cannot judge it.",
        fix(
            "Upgrade tfdoctor for a current matrix.",
            pip_command(ctx.machine, "install -U tfdoctor"),
        ),
    )


# --- Python -----------------------------------------------------------------------------------


def _supported_pythons(matrix: Matrix, plat: str) -> list[str]:
    return sorted(
        {v for entry in matrix.lines for v in entry.python.get(plat, ())}, key=version_key
    )


def _venv_fix(matrix: Matrix, plat: Optional[str]) -> Fix:
    supported = _supported_pythons(matrix, plat or "linux-x86_64")
    return fix(
        "Create a virtual environment with a CPython 3 that TensorFlow publishes wheels for.",
        f"python{supported[-1]} -m venv .venv" if supported else "python3 -m venv .venv",
    )


def check_python_wheels(ctx: CheckContext) -> Iterator[Finding]:
    """The installed TensorFlow has wheels for this Python; else the newest one that does.

    Every problem it reports is one cause: no wheel for this Python and platform.
    """
    for finding in _python_wheels(ctx):
        problem = finding.severity.rank >= Severity.WARNING.rank and not finding.cause
        yield (
            dataclasses.replace(finding, cause=causes.platform.TF_NO_WHEEL_FOR_PYTHON)
            if problem
            else finding
        )


def _python_wheels(ctx: CheckContext) -> Iterator[Finding]:
    facts, matrix = ctx.facts, ctx.matrix
    if matrix is None or facts.python is None or facts.platform is None:
        yield unknown("tensorflow.python", "the Python and platform", facts.error_for("python"))
        return
    python = python_minor(facts.python.version)
    plat = ctx.machine.platform
    if python is None or plat is None:
        yield Finding(
            "tensorflow.python",
            Severity.ERROR,
            f"TensorFlow publishes no wheels for Python {facts.python.version} on "
            f"{facts.platform.system} {facts.platform.machine}",
            "TensorFlow's wheels are CPython 3 on Linux (x86-64, aarch64), macOS and "
            "Windows (x86-64) only.",
            _venv_fix(matrix, plat)
            if python is None and plat is not None
            else fix(
                "Use Linux (x86-64 or aarch64), macOS or Windows x86-64, or build TensorFlow "
                "from source for this platform."
            ),
        )
        return
    pkg, line = _installed_line(ctx)
    if pkg is not None and line is None:
        yield _matrix_unknown("tensorflow.python", ctx, pkg)
        return
    if line is not None and pkg is not None:
        if normalize_name(pkg.name) not in MATRIX_DISTRIBUTIONS:
            yield Finding(
                "tensorflow.python",
                Severity.INFO,
                f"{pkg.name} {pkg.version} is installed; the matrix lists the tensorflow "
                "wheels, so its Python support is not judged",
            )
            return
        wheels = line.python.get(plat, ())
        if python in wheels:
            yield Finding(
                "tensorflow.python",
                Severity.OK,
                f"TensorFlow {line.line} has wheels for Python {python} on {plat}",
            )
            return
        broken = facts.tensorflow is not None and facts.tensorflow.status not in (
            TFStatus.OK,
            TFStatus.SKIPPED,
        )
        span = f"{wheels[0]}-{wheels[-1]}" if wheels else "none"
        if pkg.version != line.latest_patch and not broken:
            # The matrix lists the latest patch's wheels; earlier patches sometimes had more
            # (2.11.0 had cp37, 2.11.1 not): an installed older patch that imports is fine.
            yield Finding(
                "tensorflow.python",
                Severity.INFO,
                f"TensorFlow {line.latest_patch}, the line's latest patch, has no wheel for "
                f"Python {python} on {plat} (Python {span}); the installed {pkg.version} runs",
                "Upgrading within the line would need another Python.",
            )
            return
        yield Finding(
            "tensorflow.python",
            Severity.ERROR if broken else Severity.WARNING,
            f"TensorFlow {pkg.version} has no wheel for Python {python} on {plat} "
            f"(its wheels: Python {span})",
            "The installed files were built for another Python (copied environment, "
            "source build, or an upgraded interpreter); compiled extensions may not load.",
            _newest_fix(
                ctx.machine,
                matrix,
                "Install TensorFlow {version}, the newest that fits this Python, platform, "
                f"driver and GPUs; or use a Python {line.line} supports ({span}).",
            )
            or _venv_fix(matrix, plat),
            (f"https://pypi.org/project/tensorflow/{line.latest_patch}/#files",),
        )
        return
    # Not installed (or not a known distribution): what to install.
    best = newest_fit(matrix, Target(python=python, platform=plat))
    if best is None:
        supported = _supported_pythons(matrix, plat)
        yield Finding(
            "tensorflow.python",
            Severity.ERROR,
            f"No TensorFlow release has a wheel for Python {python} on {plat}",
            f"Pythons with wheels on {plat}: {', '.join(supported) or 'none'}.",
            _venv_fix(matrix, plat),
        )
        return
    here = ctx.machine.target
    machine_best = newest_fit(matrix, here)
    if machine_best is None and here.wants_gpu:
        reasons = evaluate(matrix, best.line, here).reasons
        yield Finding(
            "tensorflow.python",
            Severity.WARNING,
            f"No TensorFlow release runs on this machine's GPU with Python {python} on {plat}",
            f"TensorFlow {best.line.latest_patch} has wheels for this Python, but: "
            + "; ".join(reasons)
            + ". Options: update the driver, use another Python, or run on the CPU.",
            fix(
                f"Install TensorFlow {best.line.latest_patch} for the CPU (see `tfdoctor "
                f"matrix --python-version {python}` for the GPU options).",
                pip_command(ctx.machine, f'install "tensorflow=={best.line.latest_patch}"'),
            ),
        )
        return
    differs = machine_best is not None and machine_best.line != best.line
    yield Finding(
        "tensorflow.python",
        Severity.INFO,
        f"TensorFlow {best.line.latest_patch} is the newest release for Python {python} on {plat}",
        f"This machine's platform, driver or GPUs need an older release: "
        f"{machine_best.line.latest_patch}."
        if differs and machine_best is not None
        else "",
        _newest_fix(
            ctx.machine, matrix, "Install TensorFlow {version}, the newest that fits this machine."
        ),
    )


# --- driver vs build --------------------------------------------------------------------------


def _build_cuda(ctx: CheckContext, line: Optional[TFLine]) -> Optional[str]:
    """The CUDA version of the installed build (the machine view's one rule)."""
    del line  # the machine view knows the installed line
    return ctx.machine.build_cuda


def check_driver_cuda(ctx: CheckContext) -> Iterator[Finding]:
    """The NVIDIA driver is new enough for the CUDA version TensorFlow was built with."""
    facts, matrix = ctx.facts, ctx.matrix
    drv = facts.driver
    if matrix is None or drv is None or not drv.gpus or not drv.driver_version:
        return  # no GPU: driver.nvidia says so
    os_name = ctx.machine.os
    pkg, line = _installed_line(ctx)
    if pkg is None or os_name not in ("linux", "windows"):
        return
    if line is None:
        yield _matrix_unknown("driver.cuda", ctx, pkg)
        return
    cuda = _build_cuda(ctx, line)
    if cuda is None:
        return
    floor = causes.gpu.build_driver_floor(ctx.machine)
    if floor is None:
        yield unknown("driver.cuda", f"the driver CUDA {cuda} needs on {os_name}")
        return
    have = drv.driver_version
    if version_key(have) >= version_key(floor.version):
        yield Finding(
            "driver.cuda",
            Severity.OK,
            f"Driver {have} runs TensorFlow {line.line}'s CUDA {cuda} build "
            f"(needs >= {floor.version})",
        )
        return
    yield causes.finding(
        "driver.cuda",
        Severity.ERROR,
        causes.gpu.DRIVER_TOO_OLD,
        f"Driver {have} is too old for TensorFlow {line.line}'s CUDA {cuda} build "
        f"(needs >= {floor.version})",
        f"Rule: {floor.rule}. With an older driver TensorFlow reports "
        "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH or 'driver version is insufficient' and uses "
        "no GPU.",
        causes.gpu.driver_too_old_fix(ctx.machine, floor.version),
        (DRIVER_LINK,),
    )


#: NVIDIA's NGC TensorFlow container, built for current GPUs (its release notes list them).
_NGC_RUN = "docker run --gpus all -it --rm nvcr.io/nvidia/tensorflow:25.02-tf2-py3"

# --- GPU code ---------------------------------------------------------------------------------


def _wheel_capabilities(ctx: CheckContext, line: Optional[TFLine]) -> Optional[ComputeCapabilities]:
    """The build's own GPU code (its objects, else its build info) when read, else the matrix's."""
    caps = ctx.machine.build_gpu_code
    if caps is not None:
        return caps
    return line.compute_capabilities if line is not None else None


def _gpu_fit_fix(
    machine: Machine, matrix: Matrix, capability: str, text: str, native: bool = False
) -> Optional[Fix]:
    """Install the newest TensorFlow that fits this machine with a GPU of ``capability``;
    with ``native``, only a release with machine code for it (not PTX alone)."""
    here = machine.target
    target = Target(here.python, here.platform, None, here.driver, capability)
    fits = (
        v
        for v in verdicts(matrix, target)
        if v.fits
        and not v.line.pre_release
        and (not native or _has_machine_code(v.line, capability))
    )
    best = next(fits, None)
    if best is None:
        return None
    return fix(
        text.format(version=best.line.latest_patch),
        pip_command(machine, f'install "{install_requirement(best.line, target)}"'),
    )


def _has_machine_code(line: TFLine, capability: str) -> bool:
    caps = line.compute_capabilities
    return caps is not None and gpu_code(caps, capability) not in (NONE, PTX)


def check_compute_capability(ctx: CheckContext) -> Iterator[Finding]:
    """Each GPU has machine code in the wheel, or at least PTX (with a long first start)."""
    facts, matrix = ctx.facts, ctx.matrix
    drv = facts.driver
    if matrix is None or drv is None or not drv.gpus:
        return
    pkg, line = _installed_line(ctx)
    if pkg is None or _build_cuda(ctx, line) is None:
        return
    caps = _wheel_capabilities(ctx, line)
    if caps is None:
        yield unknown("gpu.compute-capability", "which GPU architectures the wheel carries")
        return
    carried = ", ".join(caps.sass + caps.ptx)
    os_name = ctx.machine.os or "linux"
    cuda = _build_cuda(ctx, line)
    build_line = (
        line
        if line is None or line.cuda == cuda or cuda is None
        else dataclasses.replace(line, cuda=cuda)
    )
    for gpu in drv.gpus:
        if not gpu.compute_capability:
            yield unknown("gpu.compute-capability", f"the compute capability of GPU {gpu.index}")
            continue
        code = gpu_code(caps, gpu.compute_capability)
        label = f"GPU {gpu.index} ({gpu.name}, compute capability {gpu.compute_capability})"
        failure = line.known_gpu_failures.get(gpu.compute_capability) if line else None
        if failure is not None:
            # A build that reaches this GPU only through PTX fails on the path that compiles
            # PTX at run time; another release on the same path is no fix, so only a release
            # with machine code for the GPU is offered.
            jit_only = code == PTX
            newer = _gpu_fit_fix(
                ctx.machine,
                matrix,
                gpu.compute_capability,
                "Install TensorFlow {version}, the newest not known to fail on this GPU; or "
                "use NVIDIA's NGC TensorFlow container, built for current GPUs.",
                native=jit_only,
            )
            if newer is not None:
                newer = Fix(newer.text, (*newer.commands, _NGC_RUN))
            none_native = (
                f"No TensorFlow release on PyPI carries machine code for compute capability "
                f"{gpu.compute_capability}, and the failure is on the path that compiles PTX "
                "at run time, which every release would take on this GPU. "
                if jit_only
                else ""
            )
            yield causes.finding(
                "gpu.compute-capability",
                Severity.ERROR,
                causes.gpu.GPU_KNOWN_FAILURE,
                f"TensorFlow {pkg.version} is known to fail on {label}",
                f"On this GPU its {failure}.",
                newer
                or fix(
                    none_native + "Use NVIDIA's NGC TensorFlow container (built for current "
                    "GPUs), or build TensorFlow from source for this GPU's compute capability.",
                    _NGC_RUN,
                ),
                ("https://github.com/tensorflow/tensorflow/issues/101746",),
            )
            continue
        if code == NONE:
            yield causes.finding(
                "gpu.compute-capability",
                Severity.ERROR,
                causes.gpu.GPU_ARCH_UNSUPPORTED,
                f"TensorFlow {pkg.version} has no code for {label}",
                f"The wheel carries {carried}. TensorFlow ignores this GPU "
                "('Ignoring visible gpu device ... with Cuda compute capability').",
                causes.gpu.gpu_arch_fix(ctx.machine, gpu.compute_capability),
                ("https://developer.nvidia.com/cuda-gpus",),
            )
        elif code == PTX:
            ptx_floor = ptx_driver_floor(matrix, build_line, os_name) if build_line else None
            too_old = (
                ptx_floor is not None
                and drv.driver_version is not None
                and version_key(drv.driver_version) < version_key(ptx_floor.version)
            )
            detail = (
                f"The wheel carries {carried}: no machine code for this GPU. At first use the "
                "driver compiles every kernel from PTX, which takes minutes; the result is "
                "cached in ~/.nv/ComputeCache, so give the cache room."
            )
            if too_old and ptx_floor is not None:
                newest = _gpu_fit_fix(
                    ctx.machine,
                    matrix,
                    gpu.compute_capability,
                    f"Install NVIDIA driver {ptx_floor.version} or newer, or TensorFlow "
                    "{version}, the newest this driver runs on this GPU.",
                )
                upgrade_text, upgrade = causes.gpu.driver_upgrade(ctx.machine, ptx_floor.version)
                commands = (*upgrade, *(newest.commands if newest else ()))
                yield causes.finding(
                    "gpu.compute-capability",
                    Severity.ERROR,
                    causes.gpu.GPU_PTX_DRIVER_TOO_OLD,
                    f"{label} runs TensorFlow {pkg.version} only through PTX JIT, which needs "
                    f"driver >= {ptx_floor.version}",
                    detail + f" {ptx_floor.rule}; this driver is {drv.driver_version}.",
                    fix(newest.text if newest else upgrade_text + ".", *commands),
                )
                continue
            first = causes.gpu.first_line_with_code(ctx.machine, gpu.compute_capability)
            better = (
                f" TensorFlow {first.line} and later carry machine code for this GPU."
                if first is not None
                else ""
            )
            yield causes.finding(
                "gpu.compute-capability",
                Severity.WARNING,
                causes.gpu.GPU_PTX_JIT,
                f"{label} runs TensorFlow {pkg.version} only through PTX JIT",
                detail + better,
                causes.gpu.ptx_jit_fix(ctx.machine, gpu.compute_capability),
            )
        else:
            yield Finding(
                "gpu.compute-capability",
                Severity.OK,
                f"TensorFlow {pkg.version} has machine code for {label}",
            )


# --- CUDA libraries vs build and pins ---------------------------------------------------------


def _selected(lib: LibraryFacts) -> Optional[str]:
    if lib.selected is None:
        return None
    return lib.candidates[lib.selected].version


def _specifier(spec: str) -> SpecifierSet:
    from packaging.specifiers import SpecifierSet  # noqa: PLC0415 - loaded when needed

    return SpecifierSet(spec)


def _in_range(version: str, spec: str) -> bool:
    """``version`` satisfies a declared ``spec`` as ``pip check`` judges it: pre-releases
    count (pip/_internal/operations/check.py), and a version that does not parse is not
    judged."""
    from packaging.version import InvalidVersion  # noqa: PLC0415 - loaded when needed

    try:
        return _specifier(spec).contains(version, prereleases=True)
    except InvalidVersion:
        return True


def check_cuda_versions(ctx: CheckContext) -> Iterator[Finding]:
    """cuDNN and the CUDA libraries that would load match the build and its and-cuda pins."""
    facts, matrix = ctx.facts, ctx.matrix
    libs = facts.cuda_libs
    if matrix is None or libs is None:
        return
    pkg, line = _installed_line(ctx)
    if pkg is None or line is None or _build_cuda(ctx, line) is None:
        return
    problems: list[str] = []
    # The build's own record wins over the matrix when they disagree on the major.
    build_cudnn = ctx.machine.build_cudnn
    shadowing: Optional[tuple[LibraryFacts, LibraryCandidate]] = None
    for lib in libs.libraries:
        loaded = _selected(lib)
        if lib.name != "cudnn" or loaded is None or build_cudnn is None:
            continue
        if not _cudnn_serves(loaded, build_cudnn):
            problems.append(
                f"cuDNN {loaded} would load, but TensorFlow {line.line} was built with "
                f"cuDNN {build_cudnn} (needs {version_key(build_cudnn)[0]}.x, at least "
                f"{build_cudnn})"
            )
            good = next(
                (
                    c
                    for i, c in enumerate(lib.candidates)
                    if i != lib.selected and c.version and _cudnn_serves(c.version, build_cudnn)
                ),
                None,
            )
            if good is not None:
                shadowing = (lib, good)
    cudnn_problem = bool(problems)
    off_pins: list[str] = []
    for dist, spec in sorted((line.and_cuda or {}).items()):
        installed = facts.package(dist)
        if installed is None:
            continue
        if installed.version not in _specifier(spec):
            problems.append(f"{dist} {installed.version} is outside TensorFlow's pin {dist}{spec}")
            off_pins.append(f"{dist}{spec}")
    if not problems:
        return
    if cudnn_problem:
        cause, remedy = _cuda_versions_fix(ctx, shadowing)
    else:
        cause = causes.gpu.CUDA_WHEEL_PINS
        pullers = _other_frameworks(facts, off_pins)
        remedy = causes.common.install_fix(
            ctx.machine,
            "Install the NVIDIA wheels TensorFlow pins"
            + (
                f" ({', '.join(pullers)} in this environment pins others: give it an "
                "environment of its own)"
                if pullers
                else ""
            )
            + ".",
            *off_pins,
        )
    yield causes.finding(
        "cuda.versions",
        Severity.ERROR if cudnn_problem else Severity.WARNING,
        cause,
        problems[0]
        if len(problems) == 1
        else f"{len(problems)} CUDA library versions do not match TensorFlow {line.line}'s build",
        "\n".join(problems) if len(problems) > 1 else "",
        remedy,
    )


#: Frameworks whose wheels pin their own nvidia-* versions.
_FRAMEWORKS = ("torch", "jax", "jaxlib", "jax-cuda12-plugin", "cupy-cuda12x", "onnxruntime-gpu")


def _other_frameworks(facts: Facts, off_pins: list[str]) -> list[str]:
    """Installed frameworks that require one of the off-pin nvidia-* distributions."""
    wanted = {normalize_name(_dist_name(p)) for p in off_pins}
    out = []
    for name in _FRAMEWORKS:
        pkg = facts.package(name)
        if pkg is None:
            continue
        if {normalize_name(_dist_name(r)) for r in pkg.requires} & wanted:
            out.append(f"{pkg.name} {pkg.version}")
    return out


def _dist_name(requirement: str) -> str:
    """The distribution a requirement line names (``nvidia-cudnn-cu12==9.1`` -> its name)."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return match.group(1) if match else requirement


def _cudnn_serves(loaded: str, build: str) -> bool:
    """cuDNN refuses a runtime of another major, or an older minor than the build ("Loaded
    runtime CuDNN library: X but source was compiled with: Y"). A version read from a file
    name has the major only: compare what both have."""
    have, need = version_key(loaded), version_key(build)
    n = min(len(have), len(need))
    return have[:1] == need[:1] and have[:n] >= need[:n]


def _cuda_versions_fix(
    ctx: CheckContext,
    shadowing: Optional[tuple[LibraryFacts, LibraryCandidate]],
) -> tuple[causes.CauseId, Fix]:
    """Unshadow the right cuDNN, or get the cuDNN the build needs the release's own way."""
    m = ctx.machine
    if shadowing is not None:
        return causes.gpu.CUDNN_SHADOWED, causes.gpu.shadow_fix(m, *shadowing)
    cause, remedy = causes.gpu.cuda_libraries_fix(m, ("cudnn",))
    need = f"TensorFlow needs cuDNN {m.build_cudnn} (same major, this minor or newer). "
    remedy = Fix(need + remedy.text, remedy.commands)
    return (
        causes.gpu.CUDNN_VERSION_MISMATCH if cause == causes.gpu.CUDA_LIBS_MISSING else cause
    ), remedy


# --- dependency pins --------------------------------------------------------------------------

#: Packages whose version range against TensorFlow breaks imports most often, with the
#: severity of being outside TensorFlow's declared range.
_PINNED = (
    ("numpy", Severity.ERROR),
    ("keras", Severity.ERROR),
    ("protobuf", Severity.WARNING),
    ("ml-dtypes", Severity.WARNING),
)


def _judged(m: Machine) -> tuple[tuple[str, Severity], ...]:
    """Every requirement TensorFlow declares here: the pinned packages first, then what
    ``import tensorflow`` imports as it starts, then the rest (imported when used)."""
    declared = [name for name, _ in m.declared_requirements]
    pinned = {dist for dist, _ in _PINNED}
    start = sorted(d for d in declared if d in START_IMPORTS and d not in pinned)
    rest = sorted(d for d in declared if d not in START_IMPORTS and d not in pinned)
    return (*_PINNED, *((d, Severity.WARNING) for d in (*start, *rest)))


def _above(version: str, spec: str) -> bool:
    """``version`` is at or past the range's upper bound (``<X``, or past ``<=X``)."""
    for raw in spec.split(","):
        part = raw.strip()
        strict = part.startswith("<") and not part.startswith("<=")
        if not (strict or part.startswith("<=")):
            continue
        bound = version_key(part.lstrip("<=").split("dev")[0].rstrip("."))
        have = version_key(version)
        if (strict and have >= bound) or (not strict and have > bound):
            return True
    return False


def _admits(spec: Optional[str], version: str) -> bool:
    """The matrix pin ``spec`` admits ``version`` (no pin admits nothing)."""
    return spec is not None and version in _specifier(spec)


def _breaks_generated_code(version: str, spec: str) -> bool:
    """protobuf 4.21+ refuses code generated by protoc older than 3.19 ("Descriptors cannot
    be created directly"; https://protobuf.dev/news/2022-05-06/): a TensorFlow that caps
    protobuf below 4 was generated so, and its import fails under such a runtime."""
    if version_key(version)[:2] < (4, 21):
        return False
    for raw in spec.split(","):
        part = raw.strip()
        if part.startswith("<"):
            bound = version_key(part.lstrip("<=").split("dev")[0].rstrip("."))
            if bound[:1] < (4,):
                return True
    return False


def _pin_detail(dist: str, version: str, line: Optional[TFLine]) -> str:
    major = version_key(version)[:1]
    # What the line was built for is read from its own pins (wheel METADATA), not from
    # release numbers: numpy<2 means built against NumPy 1.x; keras<3 means Keras 2.
    if (
        dist == "numpy"
        and major >= (2,)
        and line is not None
        and not _admits(line.pins.numpy, "2.0.0")
    ):
        return (
            f"NumPy 2 changed its C ABI: TensorFlow {line.line} was compiled against NumPy 1.x "
            "and fails to import ('compiled using NumPy 1.x cannot be run in NumPy 2')."
        )
    if (
        dist == "keras"
        and major >= (3,)
        and line is not None
        and not _admits(line.pins.keras, "3.0.0")
    ):
        return (
            f"Keras 3 does not serve tf.keras on TensorFlow {line.line} (its wheel pins Keras "
            f"{line.pins.keras}); `tf.keras` breaks."
        )
    return "Outside the range TensorFlow's wheel declares (`pip check` reports it too)."


def check_dependency_pins(ctx: CheckContext) -> Iterator[Finding]:
    """Every requirement the installed TensorFlow and its companions declare, judged against
    what is installed (what ``pip check`` reports, with a severity and the side to move)."""
    facts = ctx.facts
    if facts.packages is None:
        return
    pkg, line = _installed_line(ctx)
    if pkg is None:
        return
    m = ctx.machine
    reported: set[str] = set()
    yield from _missing_dependencies(ctx, pkg)
    for dist, pinned_severity in _judged(m):
        severity = pinned_severity
        dep = facts.package(dist)
        spec = m.declared_range(dist)
        if dep is None or spec is None or _in_range(dep.version, spec):
            continue
        detail = _pin_detail(dist, dep.version, line)
        if dist in START_IMPORTS and not m.import_observed:
            # Observed beats inferred: where the import ran, its outcome is the verdict
            # (tensorflow.import); where it did not (--static), the declaration is all there
            # is, and TensorFlow imports this package before anything else can run.
            severity = Severity.ERROR
            detail += (
                f" TensorFlow imports it as it starts ({START_IMPORTS[dist]}), and the import "
                "was not run to show this version works (--static)."
            )
        elif dist in LAZY_IMPORTS:
            detail += (
                f" TensorFlow imports it only when used, by {LAZY_IMPORTS[dist]}: that is where "
                "an incompatible version fails, not `import tensorflow`."
            )
        elif dist not in START_IMPORTS and dist not in dict(_PINNED):
            detail += " TensorFlow does not import it as it starts; what uses it may fail."
        cause, remedy = causes.software.DEPENDENCY_OUT_OF_RANGE, causes.common.range_fix(m, dist)
        if dist == "numpy" and _above(dep.version, spec):
            # Outside the range upwards by a major: NumPy 2 under a NumPy 1 build, known to
            # break the import (an error even when --static did not try it).
            if version_key(dep.version)[:1] >= (2,):
                cause, remedy, severity = (
                    causes.software.NUMPY_ABI,
                    causes.software.numpy_abi_fix(m),
                    Severity.ERROR,
                )
        elif dist == "protobuf" and _breaks_generated_code(dep.version, spec):
            cause, severity = causes.software.PROTOBUF_INCOMPATIBLE, Severity.ERROR
        elif dist == "keras":
            cause, remedy = causes.software.KERAS_VERSION, causes.software.keras_match_fix(m)
        reported.add(dist)
        yield causes.finding(
            "packages.pins",
            severity,
            cause,
            f"{dep.name} {dep.version} is outside TensorFlow {pkg.version}'s range {dist}{spec}",
            detail,
            remedy,
        )
    yield from _keras_in_step(ctx, pkg, line, reported)
    yield from _tf_keras(ctx, pkg, line)
    yield from _companions(ctx, pkg)
    yield from _tensorboard(ctx, pkg)


def _tensorboard(ctx: CheckContext, pkg: PackageFacts) -> Iterator[Finding]:
    """A note where TensorBoard is absent because TensorFlow no longer requires it (its
    metadata, read: 2.21 dropped it), since tf.summary's writers still import it."""
    m = ctx.machine
    if not pkg.requires or ctx.facts.package("tensorboard") is not None:
        return
    if any(name == "tensorboard" for name, _ in m.declared_requirements):
        return  # required and missing: dependency-missing says so
    yield causes.finding(
        "packages.pins",
        Severity.INFO,
        causes.software.TENSORBOARD_NOT_INSTALLED,
        f"TensorBoard is not installed (TensorFlow {pkg.version} does not require it)",
        f"If the code uses them, {LAZY_IMPORTS['tensorboard']} fail without it.",
        causes.common.install_fix(
            m, "Install TensorBoard if the code writes summaries.", "tensorboard"
        ),
    )


def _missing_dependencies(ctx: CheckContext, pkg: PackageFacts) -> Iterator[Finding]:
    """Requirements TensorFlow declares that are not installed, as one finding (one cause,
    one fix): an error when one is imported as TensorFlow starts and the import did not run
    (else tensorflow.import has the observed verdict), a warning otherwise."""
    m = ctx.machine
    declared = {normalize_name(n) for dist in m.tf_declaring for n in dist.requires_missing}
    # A conda package may lack the dist-info the probe looks for; conda-meta knows it.
    conda = ctx.facts.conda
    in_conda = {normalize_name(c.name) for c in conda.packages} if conda is not None else set()
    missing = [
        d
        for d, _ in m.declared_requirements
        if d in declared and d not in in_conda and ctx.facts.package(d) is None
    ]
    if not missing:
        return
    missing.sort(key=lambda d: (d not in START_IMPORTS, d))
    at_start = [d for d in missing if d in START_IMPORTS]
    specs = [f"{d}{m.declared_range(d) or ''}" for d in missing]
    yield causes.finding(
        "packages.pins",
        Severity.ERROR if at_start and not m.import_observed else Severity.WARNING,
        causes.software.DEPENDENCY_MISSING,
        f"Not installed, though TensorFlow {pkg.version} requires them: {', '.join(missing)}",
        "\n".join(
            f"{d}: imported as TensorFlow starts ({START_IMPORTS[d]})"
            if d in START_IMPORTS
            else f"{d}: imported when used, by {LAZY_IMPORTS[d]}"
            if d in LAZY_IMPORTS
            else f"{d}: not imported as TensorFlow starts"
            for d in missing
        ),
        causes.common.install_fix(
            m, "Install what TensorFlow requires, in the ranges it declares.", *specs
        ),
    )


def _keras_in_step(
    ctx: CheckContext, pkg: PackageFacts, line: Optional[TFLine], reported: set[str]
) -> Iterator[Finding]:
    """keras 2.X serves TensorFlow 2.X only on the lines released with it (the matrix's
    ``keras_in_step``), although the wheel's range (``keras~=2.6``) admits later ones."""
    keras = ctx.facts.package("keras")
    if line is None or not line.keras_in_step or keras is None or "keras" in reported:
        return
    if version_key(keras.version)[:2] == line.key:
        return
    yield causes.finding(
        "packages.pins",
        Severity.ERROR,
        causes.software.KERAS_VERSION,
        f"keras {keras.version} is not the Keras of TensorFlow {line.line} "
        f"(keras {line.line}.x is released with it)",
        f"keras {keras.version} belongs to another TensorFlow line and does not import with "
        f"TensorFlow {pkg.version}, though the range TensorFlow declares may admit it.",
        causes.software.keras_match_fix(ctx.machine),
    )


def _tf_keras(ctx: CheckContext, pkg: PackageFacts, line: Optional[TFLine]) -> Iterator[Finding]:
    """TF_USE_LEGACY_KERAS needs tf-keras of the same line (TensorFlow 2.16+); a tf-keras of
    another line does not import, an error where it serves tf.keras."""
    facts, m = ctx.facts, ctx.machine
    legacy = m.legacy_keras
    tfk = facts.package("tf-keras")
    spec = m.tf_keras_spec
    # tf-keras's own requirement on tensorflow first (its wheel), else the matrix's pairing.
    own = [s for c, target, s in m.companion_requirements if c is tfk and target == "tensorflow"]
    if own and tfk is not None:
        wants, fits = f"tensorflow{own[0]}", all(_in_range(pkg.version, s) for s in own)
    elif line is not None and spec is not None and tfk is not None:
        wants = spec
        fits = f"tf-keras{tfk.version}" == spec or tfk.version in _specifier(
            spec.removeprefix("tf-keras")
        )
    else:
        wants, fits = "", True
    # TF_USE_LEGACY_KERAS picks tf-keras on every line that has a tf-keras release (2.15
    # reads it too, though its own tf.keras is Keras 2) and where Keras 3 is tf.keras.
    if legacy and tfk is None and line is not None and spec is not None:
        yield causes.finding(
            "packages.pins",
            Severity.ERROR,
            causes.software.TF_KERAS_MISSING,
            "TF_USE_LEGACY_KERAS is set but tf-keras is not installed",
            "With TF_USE_LEGACY_KERAS=1, `tf.keras` is served by the tf-keras package; "
            "without it importing tf.keras fails.",
            causes.software.tf_keras_missing_fix(ctx.machine),
        )
    elif tfk is None and line is not None and keras3_serves_tf_keras(line):
        needy = _keras2_users(ctx)
        if needy:
            names = ", ".join(f"{p.name} {p.version}" for p, _ in needy)
            yield causes.finding(
                "packages.pins",
                Severity.ERROR,
                causes.software.TF_KERAS_MISSING,
                f"{names} need{'s' if len(needy) == 1 else ''} tf-keras, which is not installed",
                "From TensorFlow 2.16 tf.keras is Keras 3, and "
                + "; ".join(f"{p.name}: {user.failure}" for p, user in needy)
                + ".",
                causes.software.tf_keras_missing_fix(ctx.machine),
                ctx.machine.keras2_user_urls(tuple(user.name for _, user in needy)),
            )
    elif tfk is not None and not fits:
        yield causes.finding(
            "packages.pins",
            Severity.ERROR if legacy else Severity.WARNING,
            causes.software.TF_KERAS_MISMATCH,
            f"tf-keras {tfk.version} does not match TensorFlow {pkg.version} (wants {wants})",
            "tf-keras is released in step with TensorFlow; another line's tf-keras may not "
            "import" + (", and TF_USE_LEGACY_KERAS makes it serve tf.keras." if legacy else "."),
            causes.software.tf_keras_fix(m),
        )


def _keras2_users(ctx: CheckContext) -> list[tuple[PackageFacts, Keras2User]]:
    """The installed packages the companion table says need Keras 2 (tf-keras)."""
    found = []
    for name, user in ctx.machine.companion_table.keras2_users.items():
        dist = ctx.facts.package(name)
        if dist is not None and (not user.releases or _in_range(dist.version, user.releases)):
            found.append((dist, user))
    return found


def _companions(ctx: CheckContext, pkg: PackageFacts) -> Iterator[Finding]:
    """Each companion's declared range on TensorFlow, tf-keras and keras admits what is
    installed; tf-keras's own range on TensorFlow is judged with tf-keras (above); a
    companion declaring none is judged by the companion table's row for its release."""
    m = ctx.machine
    yield from _undeclared_companions(ctx, pkg)
    seen: set[tuple[str, str]] = set()
    # A companion built for another TensorFlow is one finding: its fix moves it (or
    # TensorFlow), and its Keras range moves with it.
    off_tf = {
        normalize_name(comp.name)
        for comp, target, spec in m.companion_requirements
        if target == "tensorflow" and not _in_range(pkg.version, spec)
    }
    for comp, target, spec in m.companion_requirements:
        key = (normalize_name(comp.name), target)
        if key in seen or key == ("tf-keras", "tensorflow"):
            continue
        if target != "tensorflow" and key[0] in off_tf:
            continue
        have = pkg if target == "tensorflow" else ctx.facts.package(target)
        if have is None:
            seen.add(key)
            if target in dict(m.declared_requirements):
                continue  # TensorFlow requires it too: dependency-missing names it
            yield causes.finding(
                "packages.pins",
                Severity.WARNING,
                causes.software.COMPANION_MISMATCH,
                f"{comp.name} {comp.version} requires {target}{spec}, which is not installed",
                f"What of {comp.name} uses it fails without it (`pip check` reports it too).",
                causes.software.companion_fix(m, comp.name, comp, target, spec),
            )
            continue
        if _in_range(have.version, spec):
            continue
        seen.add(key)
        on_tf = target == "tensorflow"
        yield causes.finding(
            "packages.pins",
            Severity.ERROR if on_tf else Severity.WARNING,
            causes.software.COMPANION_MISMATCH,
            f"{comp.name} {comp.version} requires {target}{spec}, but {have.name} "
            f"{have.version} is installed",
            f"{comp.name} is built against the TensorFlow it declares; with another its "
            "compiled ops fail to load ('undefined symbol' in its .so) or its Python code "
            "calls what is not there."
            if on_tf
            else f"{comp.name} declares the {target} it works with; another may not import.",
            causes.software.companion_fix(m, comp.name, comp, target, spec),
        )


def _undeclared_companions(ctx: CheckContext, pkg: PackageFacts) -> Iterator[Finding]:
    """Companions whose metadata declares no TensorFlow (tensorflow-probability checks it only
    as it is imported), judged by the companion table's row for the installed release."""
    m = ctx.machine
    declaring = {
        normalize_name(comp.name)
        for comp, target, _ in m.companion_requirements
        if target == "tensorflow"
    }
    for name, row in m.companion_table.companions.items():
        comp = ctx.facts.package(name)
        own = row.row_of(comp.version) if comp is not None and name not in declaring else None
        if comp is None or own is None or own.admits(pkg.version):
            continue
        yield causes.finding(
            "packages.pins",
            Severity.ERROR,
            causes.software.COMPANION_MISMATCH,
            f"{comp.name} {comp.version} requires tensorflow{own.tensorflow}, but "
            f"{pkg.name} {pkg.version} is installed",
            f"{comp.name} declares no TensorFlow in its metadata; its release {own.release} "
            f"needs tensorflow{own.tensorflow} (the companion table, from "
            f"{', '.join(m.companion_urls(name))}), and its import fails or misbehaves with "
            "another.",
            causes.software.companion_fix(m, comp.name, comp, "tensorflow", own.tensorflow),
        )


# --- Windows ----------------------------------------------------------------------------------


def check_windows_gpu(ctx: CheckContext) -> Iterator[Finding]:
    """Native Windows has no TensorFlow GPU support after 2.10."""
    facts, m = ctx.facts, ctx.machine
    if m.matrix is None or m.os != "windows" or facts.driver is None or not facts.driver.gpus:
        return
    if m.tf is None or m.line is None or m.line.windows_native_gpu:
        return
    yield causes.finding(
        "platform.windows-gpu",
        Severity.WARNING,
        causes.platform.WINDOWS_NATIVE_GPU_ENDED,
        f"TensorFlow {m.tf.version} has no GPU support on native Windows",
        "",
        causes.platform.windows_gpu_fix(m),
    )
