"""Check's reach over every row of the knowledge: for each TensorFlow line of the shipped matrix,
a healthy Linux x86-64 GPU machine of that line (its Python, its CUDA and cuDNN, a driver new
enough, the libraries its build loads), judged as is and with one fault per cause family: the
healthy machine has no error, each fault gives its family's cause with a fix, and the fix,
applied to the facts, takes the cause away without bringing a new error.

One judge per document, no child processes: the properties walk the matrix's rows, not cases.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Callable, Optional

import pytest

from tests import factories as f
from tfdoctor.checks import CHECKS, run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.compat import NONE, driver_floor, gpu_code
from tfdoctor.facts import (
    DeviceFacts,
    Facts,
    FoundLibrary,
    LibraryCandidate,
    LibraryFacts,
    PackageFacts,
    normalize_name,
)
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import TFLine, load_companions, load_matrix, version_key

MATRIX = load_matrix()
COMPANIONS = load_companions()
PLATFORM = "linux-x86_64"
#: Every line with a CUDA build for Linux x86-64: the rows the properties walk.
LINES = tuple(line for line in MATRIX.lines if PLATFORM in line.cuda_builds and line.cuda)
LINE_IDS = [line.line for line in LINES]
#: Real Linux driver releases with the CUDA version each reports (NVIDIA's CUDA release notes,
#: table 3): a driver below a line's floor is the newest of them under it.
DRIVERS = (
    ("384.81", "9.0"),
    ("410.48", "10.0"),
    ("418.39", "10.1"),
    ("440.33.01", "10.2"),
    ("450.51.06", "11.0"),
    ("470.57.02", "11.4"),
    ("510.47.03", "11.6"),
    ("525.60.13", "12.0"),
    ("535.54.03", "12.2"),
    ("550.54.15", "12.4"),
    ("560.35.03", "12.6"),
)
#: Compute capabilities of real NVIDIA GPUs, oldest first (developer.nvidia.com/cuda-gpus).
CAPABILITIES = ("3.0", "3.5", "3.7", "5.0", "5.2", "6.0", "6.1", "7.0", "7.5", "8.0")
TOOLKIT = "/usr/local/cuda/lib64"
LIBCUDA = LibraryCandidate(
    "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "ldconfig", "12.6", "call", True
)


# --- the healthy machine of a line ----------------------------------------------------------


def cudart_soname(cuda: str) -> str:
    """The CUDA runtime's file name: the major from CUDA 11 on (11 keeps ``.0``), the
    major.minor before (``libcudart.so.10.1``)."""
    major = int(cuda.split(".", maxsplit=1)[0])
    if major >= 12:
        return f"libcudart.so.{major}"
    if major == 11:
        return "libcudart.so.11.0"
    return f"libcudart.so.{cuda}"


def toolkit_lib(name: str, soname: str, version: str) -> LibraryFacts:
    """A library found in the system CUDA toolkit's directory."""
    cand = LibraryCandidate(f"{TOOLKIT}/{soname}", "ldconfig", version, "call", True)
    return f.lib(name, soname, cand)


def libraries(
    line: TFLine, cudnn: Optional[str] = None, cuda: Optional[str] = None
) -> tuple[LibraryFacts, ...]:
    """The libraries the line's build loads, at the line's versions (or those given)."""
    cuda, cudnn = cuda or line.cuda or "", cudnn or line.cudnn or ""
    major = cudnn.split(".")[0]
    return (
        toolkit_lib("cudart", cudart_soname(cuda), cuda),
        toolkit_lib("cudnn", f"libcudnn.so.{major}", f"{cudnn}.0"),
        f.lib("cuda", "libcuda.so.1", LIBCUDA),
    )


def gpu_capability(line: TFLine) -> str:
    """A capability the line carries machine code for: 8.0 where it has sm_80, else 7.0."""
    caps = line.compute_capabilities
    return "8.0" if caps is not None and "sm_80" in caps.sass else "7.0"


def requires_of(line: TFLine) -> tuple[str, ...]:
    """The Requires-Dist lines the line's wheel declares for the pinned packages."""
    declared = []
    for field, dist in (("numpy", "numpy"), ("protobuf", "protobuf"), ("keras", "keras")):
        spec = getattr(line.pins, field)
        if spec:
            declared.append(f"{dist}{spec}")
    return tuple(declared)


def healthy(line: TFLine, observed: bool = False) -> Facts:
    """A healthy machine of ``line``: the newest Python it has wheels for, its CUDA build with
    the libraries it loads, a driver above every floor, a GPU it carries code for. Judged as
    ``--static`` collects it (no import), unless ``observed``: then the import ran and listed
    the GPU."""
    python = line.python[PLATFORM][-1]
    distribution = line.gpu_package.get("linux") or "tensorflow"
    installed = [
        f.pkg(distribution, line.latest_patch, *requires_of(line), top_level=("tensorflow",)),
        f.pkg("numpy", f.satisfying(line.pins.numpy or "") or "1.26.4"),
    ]
    if line.pins.keras:
        installed.append(f.pkg("keras", f.satisfying(line.pins.keras) or ""))
    cuda, cudnn = line.cuda or "", line.cudnn or ""
    cudnn_major = cudnn.split(".")[0]
    capability = gpu_capability(line)
    caps = line.compute_capabilities
    tf = f.tensorflow(
        version=line.latest_patch,
        git_version=f"v{line.latest_patch}",
        build_info={"cuda_version": cuda, "cudnn_version": cudnn_major, "is_cuda_build": "True"},
        cuda_version=cuda,
        cudnn_version=cudnn_major,
        compute_capabilities=(caps.sass + caps.ptx) if caps is not None else (),
        devices=(
            DeviceFacts("/physical_device:CPU:0", "CPU"),
            DeviceFacts("/physical_device:GPU:0", "GPU", {"compute_capability": capability}),
        ),
    )
    if not observed:
        tf = dataclasses.replace(tf, status="skipped", devices=(), build_info_source="file")
    drv = f.driver(driver_version="560.35.03", cuda_version="12.6", nvml_version="12.560.35.03")
    drv = dataclasses.replace(
        drv, gpus=(dataclasses.replace(drv.gpus[0], compute_capability=capability),)
    )
    libs = dataclasses.replace(
        f.cuda_libs(*libraries(line)),
        cuda_major=int(cuda.split(".")[0]),
        cudnn_major=int(cudnn_major),
    )
    return f.facts(
        python=f.python(version=f"{python}.4"),
        packages=tuple(installed),
        cuda_libs=libs,
        tensorflow=tf,
        driver=drv,
    )


def judge(facts: Facts) -> list[Finding]:
    """Every check's findings, as `check --facts` reports them."""
    return list(run_checks(CheckContext(facts, MATRIX), CHECKS))


def errors(found: list[Finding]) -> list[str]:
    return [f"{x.id}/{x.cause}: {x.summary}" for x in found if x.severity is Severity.ERROR]


def with_packages(facts: Facts, *new: PackageFacts) -> Facts:
    """``facts`` with the distributions ``new`` in place of those of their names."""
    names = {normalize_name(p.name) for p in new}
    kept = tuple(p for p in facts.packages or () if normalize_name(p.name) not in names)
    return dataclasses.replace(facts, packages=kept + new)


def without_library(facts: Facts, name: str) -> Facts:
    """``facts`` where the library search found no ``name``."""
    libs = facts.cuda_libs
    assert libs is not None
    changed = tuple(
        dataclasses.replace(x, candidates=(), selected=None) if x.name == name else x
        for x in libs.libraries
    )
    return dataclasses.replace(facts, cuda_libs=dataclasses.replace(libs, libraries=changed))


def with_gpu(facts: Facts, capability: str) -> Facts:
    drv = facts.driver
    assert drv is not None
    gpu = dataclasses.replace(drv.gpus[0], compute_capability=capability)
    return dataclasses.replace(facts, driver=dataclasses.replace(drv, gpus=(gpu,)))


# --- the families of faults: how each is made, its cause, how its fix is applied -------------

Applied = Optional[Facts]


@dataclasses.dataclass(frozen=True)
class Family:
    """One cause family: the fault made on a line's healthy machine, the cause it must give,
    and the fix applied back to the facts (None: the fix changes hardware, not the facts)."""

    name: str
    cause: str
    make: Callable[[TFLine], Optional[Facts]]
    apply: Optional[Callable[[TFLine, Facts, Finding], Applied]]
    #: The lowest severity the finding may have (a Python without wheels is a warning where
    #: TensorFlow is installed anyway).
    severity: Severity = Severity.ERROR


def driver_below_floor(line: TFLine) -> Optional[Facts]:
    floor = driver_floor(MATRIX, line, "linux")
    if floor is None:
        return None
    below = [d for d in DRIVERS if version_key(d[0]) < version_key(floor.version)]
    if not below:
        return None
    h = healthy(line)
    assert h.driver is not None
    version, cuda = below[-1]
    drv = dataclasses.replace(h.driver, driver_version=version, cuda_version=cuda)
    return dataclasses.replace(h, driver=dataclasses.replace(drv, nvml_version=None))


_DRIVER_NAMED = re.compile(r"driver (\d+(?:\.\d+)+) or newer")


def driver_cuda(version: str) -> str:
    """The CUDA version a driver reports: that of the newest release of :data:`DRIVERS` in its
    branch or an older one (a 450.80.02 reports 11.0, as 450.51.06 does)."""
    branch = version_key(version)[:1]
    known = [cuda for d, cuda in DRIVERS if version_key(d)[:1] <= branch]
    assert known, version
    return known[-1]


def apply_driver(line: TFLine, facts: Facts, found: Finding) -> Applied:
    """The driver the fix names, installed, reporting the CUDA version its branch reports
    (not a newer one the test wishes for)."""
    assert found.fix is not None
    match = _DRIVER_NAMED.search(found.fix.text)
    assert match is not None, found.fix.text
    assert facts.driver is not None
    named = match.group(1)
    drv = dataclasses.replace(facts.driver, driver_version=named, cuda_version=driver_cuda(named))
    return dataclasses.replace(facts, driver=drv)


_CUDNN_NAMED = re.compile(r"cuDNN (\d+\.\d+)")
_CUDA_NAMED = re.compile(r"CUDA (\d+\.\d+)")
_AND_CUDA = re.compile(r'"tensorflow\[and-cuda\]==([^"]+)"')
_CUDNN_WHEEL = re.compile(r'"nvidia-cudnn-cu\d+==(\d+\.\d+)[^"]*"')


def apply_libraries(line: TFLine, facts: Facts, found: Finding) -> Applied:
    """The libraries the fix installs, at the versions it names: the and-cuda extra of the
    release it names (its line's CUDA and cuDNN), the cuDNN wheel it pins, or the CUDA and cuDNN
    releases its text names for a system install."""
    assert found.fix is not None
    text = " ".join((found.fix.text, *found.fix.commands))
    cudnn = cuda = None
    extra = _AND_CUDA.search(text)
    if extra is not None:
        named = MATRIX.line_for(extra.group(1))
        assert named is not None, extra.group(1)
        # The applier moves the libraries, not TensorFlow: an extra of another line would
        # install another TensorFlow too, which it does not model.
        assert named.line == line.line, (extra.group(1), line.line)
        cuda, cudnn = named.cuda, named.cudnn
    wheel = _CUDNN_WHEEL.search(text)
    if wheel is not None:
        cudnn = wheel.group(1)
    cudnn = cudnn or next(iter(_CUDNN_NAMED.findall(text)), None)
    cuda = cuda or next(iter(_CUDA_NAMED.findall(text)), None)
    if cudnn is None and cuda is None:
        return None
    assert facts.cuda_libs is not None
    fresh = {x.name: x for x in libraries(line, cudnn=cudnn, cuda=cuda)}
    changed = tuple(
        fresh[x.name] if x.selected is None and x.name in fresh else x
        for x in facts.cuda_libs.libraries
    )
    return dataclasses.replace(
        facts, cuda_libs=dataclasses.replace(facts.cuda_libs, libraries=changed)
    )


def off_path(name: str, minor_behind: bool = False) -> Callable[[TFLine], Optional[Facts]]:
    """Library ``name`` missing from the loader's path, a copy of the build's release found in
    a directory of its own under /opt (``minor_behind``: of the build's major but an older
    minor, which cuDNN refuses: "CuDNN library needs to have matching major version and equal
    or higher minor version", tensorflow/stream_executor/cuda/cuda_dnn.cc)."""

    def make(line: TFLine) -> Optional[Facts]:
        h = without_library(healthy(line), name)
        cuda, cudnn = line.cuda or "", line.cudnn or ""
        if name == "cudnn":
            major, minor = cudnn.split(".")[:2]
            if minor_behind and minor == "0":
                return None  # no older minor of the build's major (cuDNN 8.0 of 2.4)
            version = f"{major}.{int(minor) - 1}.0" if minor_behind else f"{cudnn}.0"
            path = f"/opt/cudnn-{version}/lib64/libcudnn.so.{major}"
        else:
            version = cuda
            path = f"/opt/cuda-{cuda}/lib64/{cudart_soname(cuda)}"
        assert h.cuda_libs is not None
        copy = FoundLibrary(name, path, version, "opt")
        return dataclasses.replace(h, cuda_libs=dataclasses.replace(h.cuda_libs, elsewhere=(copy,)))

    return make


_LD_PATH = re.compile(r"LD_LIBRARY_PATH=\"?([^\"$:]+)")


def apply_ld_path(line: TFLine, facts: Facts, found: Finding) -> Applied:
    """The directory the fix puts on the loader's path: the copy found there is loaded."""
    assert found.fix is not None and facts.cuda_libs is not None
    dirs = [d for c in found.fix.commands for d in _LD_PATH.findall(c)]
    if not dirs:
        return apply_libraries(line, facts, found)
    copies = {x.name: x for x in facts.cuda_libs.elsewhere if x.path.rsplit("/", 1)[0] in dirs}
    changed = tuple(
        f.lib(x.name, x.sonames[0], LibraryCandidate(c.path, "env", c.version, "call", True))
        if x.selected is None and (c := copies.get(x.name)) is not None
        else x
        for x in facts.cuda_libs.libraries
    )
    return dataclasses.replace(
        facts, cuda_libs=dataclasses.replace(facts.cuda_libs, libraries=changed)
    )


def python_without_wheel(line: TFLine) -> Facts:
    """The Python after the newest one the line publishes wheels for."""
    major, minor = line.python[PLATFORM][-1].split(".")
    h = healthy(line)
    assert h.python is not None
    return dataclasses.replace(
        h, python=dataclasses.replace(h.python, version=f"{major}.{int(minor) + 1}.1")
    )


_PYTHON_RANGE = re.compile(r"use a Python [^()]*? supports \((\d+\.\d+)-(\d+\.\d+)\)")
#: A fresh environment of a Python the fix names (``python3.13 -m venv .venv``).
_NEW_VENV = re.compile(r"python(\d+\.\d+) -m venv")
_RELEASE = re.compile(r'"tensorflow(?:\[and-cuda\])?==([^"]+)"')


def apply_python(line: TFLine, facts: Facts, found: Finding) -> Applied:
    """The fix's release has wheels for this Python; its other way, a Python the installed
    line supports (or a fresh environment of a Python it names), taken."""
    assert found.fix is not None and facts.python is not None
    for release in _RELEASE.findall(" ".join(found.fix.commands)):
        named = MATRIX.line_for(release)
        assert named is not None and named.has_wheels_for(facts.python.version, PLATFORM)
    match = _PYTHON_RANGE.search(found.fix.text) or _NEW_VENV.search(" ".join(found.fix.commands))
    assert match is not None, found.fix.text
    return dataclasses.replace(
        facts, python=dataclasses.replace(facts.python, version=f"{match.groups()[-1]}.4")
    )


#: The first line compiled against NumPy 2. Every line before it was compiled against NumPy
#: 1.x, which NumPy 2.0's ABI break leaves unable to import (NumPy's "For downstream package
#: authors": 2.0 "is the first release which changed the ABI"): 2.16 and 2.17 declare
#: numpy<2.0.0 (their METADATA); the lines up to 2.15 were released before NumPy 2.0.0
#: (2024-06-16, numpy.org's release announcement), whatever floor-only range some declare;
#: 2.18's wheel is the first to admit NumPy 2 (numpy<2.1.0,>=1.26.0).
FIRST_NUMPY2_LINE = (2, 18)


def numpy2(line: TFLine) -> Optional[Facts]:
    """NumPy 2 under a line compiled against NumPy 1, whatever range its wheel declares."""
    if line.key >= FIRST_NUMPY2_LINE:
        return None
    return with_packages(healthy(line), f.pkg("numpy", "2.0.2"))


def keras3(line: TFLine) -> Optional[Facts]:
    """Keras 3 under a line whose keras package is released with it (2.6-2.15)."""
    if not line.keras_in_step:
        return None
    return with_packages(healthy(line), f.pkg("keras", "3.3.3"))


def apply_pip(line: TFLine, facts: Facts, found: Finding) -> Applied:
    """The fix's ``pip install`` of a version range, applied to the installed packages; a
    companion it moves declares its new release's range (the companion table's row)."""
    assert found.fix is not None
    moved = f.apply_pip(facts, found.fix.commands)
    if moved is None:
        return None
    packages = []
    for installed in moved.packages or ():
        comp = COMPANIONS.companions.get(normalize_name(installed.name))
        row = comp.row_of(installed.version) if comp is not None and installed.requires else None
        declared = (f"tensorflow{row.tensorflow}",) if row is not None else installed.requires
        packages.append(dataclasses.replace(installed, requires=declared))
    return dataclasses.replace(moved, packages=tuple(packages))


def companion_of_other_line(name: str) -> Callable[[TFLine], Optional[Facts]]:
    """The companion ``name`` of the release before the one built for the line, declaring its
    own TensorFlow range (the companion table's row), where a release of it is built for the
    line and the healthy machine's Python (the fix then moves the companion, not TensorFlow)."""

    def make(line: TFLine) -> Optional[Facts]:
        comp = COMPANIONS.companions[name]
        own = [r for r in comp.releases if r.admits(line.latest_patch)]
        if not own or comp.release_for(line.latest_patch, line.python[PLATFORM][-1]) is None:
            return None
        older = [
            r
            for r in comp.releases
            if not r.admits(line.latest_patch)
            and version_key(r.release) < version_key(own[0].release)
        ]
        if not older:
            return None
        row = older[-1]
        release = row.release if row.release.count(".") == 2 else f"{row.release}.0"
        return with_packages(healthy(line), f.pkg(name, release, f"tensorflow{row.tensorflow}"))

    return make


def cpu_without_avx(line: TFLine) -> Facts:
    h = healthy(line)
    assert h.cpu is not None
    return dataclasses.replace(h, cpu=dataclasses.replace(h.cpu, flags=("sse4_1", "sse4_2")))


def unbuilt_gpu(line: TFLine) -> Optional[Facts]:
    """A GPU older than every capability the line's wheels carry code for."""
    caps = line.compute_capabilities
    if caps is None:
        return None
    below = [c for c in CAPABILITIES if gpu_code(caps, c) == NONE]
    older = [c for c in below if version_key(c) < version_key(gpu_capability(line))]
    return with_gpu(healthy(line), older[-1]) if older else None


def apply_gpu_release(line: TFLine, facts: Facts, found: Finding) -> Applied:
    """The release the fix installs carries code for the GPU (its recorded build list):
    the healthy machine of that release, with this GPU and driver."""
    assert found.fix is not None and facts.driver is not None
    capability = facts.driver.gpus[0].compute_capability or ""
    releases = _RELEASE.findall(" ".join(found.fix.commands))
    if not releases:
        return None
    named = MATRIX.line_for(releases[0])
    assert named is not None and named.compute_capabilities is not None, releases[0]
    assert gpu_code(named.compute_capabilities, capability) != NONE
    # The fix installs into this Python: the release must have wheels for it, and the
    # machine keeps it (not the newest Python of the release's own healthy machine).
    assert facts.python is not None
    assert named.has_wheels_for(facts.python.version, PLATFORM), (releases[0], facts.python)
    moved = with_gpu(healthy(named), capability)
    return dataclasses.replace(moved, driver=facts.driver, python=facts.python)


FAMILIES = (
    Family("driver-below-floor", "driver-too-old", driver_below_floor, apply_driver),
    Family(
        "cudnn-missing",
        "cuda-libs-missing",
        lambda line: without_library(healthy(line), "cudnn"),
        apply_libraries,
    ),
    Family(
        "cudart-missing",
        "cuda-libs-missing",
        lambda line: without_library(healthy(line), "cudart"),
        apply_libraries,
    ),
    Family("cudnn-off-path", "cuda-libs-off-path", off_path("cudnn"), apply_ld_path),
    Family("cudart-off-path", "cuda-libs-off-path", off_path("cudart"), apply_ld_path),
    Family(
        "cudnn-of-an-older-minor-off-path",
        "cuda-libs-missing",
        off_path("cudnn", minor_behind=True),
        apply_ld_path,
    ),
    Family(
        "python-without-wheel",
        "tf-no-wheel-for-python",
        python_without_wheel,
        apply_python,
        Severity.WARNING,
    ),
    Family("numpy2-under-numpy1-build", "numpy-abi", numpy2, apply_pip),
    Family("keras3-under-keras2-line", "keras-version", keras3, apply_pip),
    Family(
        "tensorflow-text-of-another-line",
        "companion-mismatch",
        companion_of_other_line("tensorflow-text"),
        apply_pip,
    ),
    Family(
        "tensorflow-io-of-another-line",
        "companion-mismatch",
        companion_of_other_line("tensorflow-io"),
        apply_pip,
    ),
    Family(
        "tensorflow-addons-of-another-line",
        "companion-mismatch",
        companion_of_other_line("tensorflow-addons"),
        apply_pip,
    ),
    *(
        Family(
            f"{name}-of-another-line",
            "companion-mismatch",
            companion_of_other_line(name),
            apply_pip,
        )
        for name in (
            "tensorflow-federated",
            "tfx-bsl",
            "tensorflow-transform",
            "tensorflow-data-validation",
            "tensorflow-model-analysis",
            "dm-reverb",
            "tensorflow-compression",
        )
    ),
    Family("cpu-without-avx", "cpu-lacks-avx", cpu_without_avx, None),
    Family("gpu-without-code", "gpu-arch-unsupported", unbuilt_gpu, apply_gpu_release),
)


def cases() -> Iterator[tuple[Family, TFLine]]:
    for family in FAMILIES:
        for line in LINES:
            yield family, line


CASES = [
    pytest.param(family, line, id=f"{family.name}-{line.line}")
    for family, line in cases()
    if family.make(line) is not None
]


# --- the properties -------------------------------------------------------------------------


@pytest.mark.parametrize("line", LINES, ids=LINE_IDS)
def test_the_healthy_machine_of_every_line_has_no_error(line: TFLine) -> None:
    """Judged without the import (``--static``): nothing the matrix knows says it fails."""
    found = judge(healthy(line))
    assert not errors(found)


@pytest.mark.parametrize("line", LINES, ids=LINE_IDS)
def test_the_healthy_machine_that_listed_its_gpu_has_nothing_to_warn_of(line: TFLine) -> None:
    """The import ran and listed the GPU: no finding may say otherwise (observed beats
    inferred), nor warn of anything."""
    found = judge(healthy(line, observed=True))
    loud = [x for x in found if x.severity.rank >= Severity.WARNING.rank]
    assert not loud, [f"{x.id}/{x.cause}: {x.summary}" for x in loud]


#: Platform key -> (platform.system(), platform.machine(), libc) as a machine of it reports them.
SYSTEMS = {
    "linux-x86_64": ("Linux", "x86_64", "glibc"),
    "linux-aarch64": ("Linux", "aarch64", "glibc"),
    "macos-x86_64": ("Darwin", "x86_64", None),
    "macos-arm64": ("Darwin", "arm64", None),
    "windows-x86_64": ("Windows", "AMD64", None),
}


def cpu_machine(line: TFLine, key: str) -> Facts:
    """A healthy machine without a GPU on platform ``key``, of the newest Python the line has
    wheels for there, with the wrapper distribution the line's ``tensorflow`` wheel requires
    on it (tensorflow-intel, tensorflow-cpu-aws ...) and the build of that platform."""
    system, machine, libc = SYSTEMS[key]
    h = healthy(line)
    assert h.tensorflow is not None and h.cpu is not None and h.python is not None
    packages = list(h.packages or ())
    wrapper = line.wrappers.get(key)
    if wrapper:
        tf = f.pkg(
            packages[0].name,
            line.latest_patch,
            f"{wrapper}=={line.latest_patch}",
            top_level=("tensorflow",),
        )
        inner = f.pkg(wrapper, line.latest_patch, *requires_of(line), top_level=("tensorflow",))
        packages = [tf, *packages[1:], inner]
    cuda_build = key in line.cuda_builds
    build = h.tensorflow
    if not cuda_build:
        build = dataclasses.replace(
            build,
            is_cuda_build=False,
            build_info={"is_cuda_build": "False"},
            cuda_version=None,
            cudnn_version=None,
            compute_capabilities=(),
        )
    x86 = machine in ("x86_64", "AMD64")
    return dataclasses.replace(
        h,
        python=dataclasses.replace(h.python, version=f"{line.python[key][-1]}.4"),
        platform=f.platform(
            system=system,
            machine=machine,
            libc=libc,
            libc_version="2.35" if libc else None,
            os_name=system,
            nvidia_device_nodes=(),
        ),
        cpu=h.cpu if x86 else dataclasses.replace(h.cpu, model="arm64", flags=()),
        driver=f.NO_DRIVER,
        cuda_libs=None,
        tensorflow=build,
        packages=tuple(packages),
    )


PLATFORM_CASES = [
    pytest.param(line, key, id=f"{line.line}-{key}")
    for line in MATRIX.lines
    for key, pythons in sorted(line.python.items())
    if key in SYSTEMS and pythons
]


@pytest.mark.parametrize(("line", "key"), PLATFORM_CASES)
def test_the_healthy_cpu_machine_of_every_platform_with_wheels_has_nothing_to_warn_of(
    line: TFLine, key: str
) -> None:
    """No false alarm on any platform a line publishes wheels for: its wrapper, its build
    (a CPU build off Linux x86-64, a CUDA build without a GPU there)."""
    found = judge(cpu_machine(line, key))
    loud = [x for x in found if x.severity.rank >= Severity.WARNING.rank]
    assert not loud, [f"{x.id}/{x.cause}: {x.summary}" for x in loud]


@pytest.mark.parametrize(("family", "line"), CASES)
def test_every_fault_gives_its_cause_with_a_fix_that_takes_it_away(
    family: Family, line: TFLine
) -> None:
    """The fault's cause, at its severity, with a fix; the fix applied to the facts leaves the
    cause gone and brings no new error."""
    facts = family.make(line)
    assert facts is not None
    found = judge(facts)
    hits = [x for x in found if x.cause == family.cause]
    assert hits, [f"{x.severity.value} {x.id}/{x.cause}: {x.summary}" for x in found]
    hit = max(hits, key=lambda x: x.severity.rank)
    assert hit.severity.rank >= family.severity.rank
    assert hit.fix is not None and hit.fix.text
    if family.apply is None:
        return
    fixed = family.apply(line, facts, hit)
    if fixed is None:
        # A fix that names no change the facts can take (advice only): nothing to apply, yet
        # it must not be a pip line (those are applied).
        assert not any("pip install" in c for c in hit.fix.commands), hit.fix.commands
        return
    after = judge(fixed)
    assert not [x for x in after if x.cause == family.cause], errors(after)
    before = set(errors(found))
    assert not [e for e in errors(after) if e not in before]


#: The lines compiled against NumPy 1 whose wheels declare a floor only (numpy>=1.20): NumPy 2
#: is inside their declared range.
FLOOR_ONLY = [
    x
    for x in LINES
    if x.key < FIRST_NUMPY2_LINE and f.satisfying(f"{x.pins.numpy},==2.0.2") is not None
]


@pytest.mark.parametrize("line", FLOOR_ONLY, ids=lambda x: x.line)
def test_numpy2_inside_a_floor_only_range_that_imported_is_no_error(line: TFLine) -> None:
    """Observed beats inferred: where the import ran and listed the GPU with NumPy 2 inside
    the declared range, the NumPy-1 build read from the other lines' pins is no finding."""
    facts = with_packages(healthy(line, observed=True), f.pkg("numpy", "2.0.2"))
    assert not [x for x in judge(facts) if x.cause == "numpy-abi"]


@pytest.mark.parametrize(
    "line", [x for x in LINES if x.key >= FIRST_NUMPY2_LINE], ids=lambda x: x.line
)
def test_numpy2_under_a_numpy2_build_is_no_finding(line: TFLine) -> None:
    """2.18 on are compiled with NumPy 2 (2.18's release notes): a healthy machine of one of
    them with NumPy 2, judged without its import, gets no NumPy finding."""
    facts = with_packages(healthy(line), f.pkg("numpy", "2.0.2"))
    assert not [x for x in judge(facts) if "numpy" in f"{x.cause} {x.summary}".lower()]


def test_numpy2_under_a_line_of_unknown_abi_is_no_finding() -> None:
    """A line whose numpy_abi the matrix does not state makes no claim, even where its wheel
    and every later line's cap numpy below 2: no error on what may be a healthy machine."""
    line = next(x for x in FLOOR_ONLY)
    unknown = dataclasses.replace(line, numpy_abi=None)
    matrix = dataclasses.replace(
        MATRIX, lines=tuple(unknown if x.line == line.line else x for x in MATRIX.lines)
    )
    facts = with_packages(healthy(line), f.pkg("numpy", "2.0.2"))
    found = list(run_checks(CheckContext(facts, matrix), CHECKS))
    assert not [x for x in found if x.cause == "numpy-abi"]
    # The shipped line's stated ABI does give the finding.
    assert [x for x in judge(facts) if x.cause == "numpy-abi"]


def test_numpy2_above_the_cap_of_a_numpy2_build_is_out_of_range_not_abi() -> None:
    """A line the matrix states was compiled with NumPy 2 whose wheel still caps numpy below
    2 (a maintenance line's pin): NumPy 2 is outside its declared range, not its ABI."""
    line = next(x for x in LINES if x.line == "2.17")
    built2 = dataclasses.replace(line, numpy_abi=2)
    matrix = dataclasses.replace(
        MATRIX, lines=tuple(built2 if x.line == line.line else x for x in MATRIX.lines)
    )
    facts = with_packages(healthy(line), f.pkg("numpy", "2.0.2"))
    found = list(run_checks(CheckContext(facts, matrix), CHECKS))
    assert not [x for x in found if x.cause == "numpy-abi"], errors(found)
    assert [x for x in found if x.cause == "dependency-out-of-range"], errors(found)
    assert not [x for x in found if "compiled against NumPy 1" in x.detail]


def test_every_family_reaches_some_line() -> None:
    """A family no line of the matrix can show would test nothing."""
    reached = {family.name for family, _ in cases() if family.make(_) is not None}
    assert reached == {family.name for family in FAMILIES}


@pytest.mark.parametrize("line", FLOOR_ONLY, ids=lambda x: x.line)
def test_numpy2_inside_a_floor_only_range_is_told_numpy1_in_words_and_command(
    line: TFLine,
) -> None:
    """NumPy 2 is inside the declared floor-only range: the fix's words say what its command
    does (a NumPy 1.x release inside that range), not to install the range the machine
    already meets."""
    facts = with_packages(healthy(line), f.pkg("numpy", "2.0.2"))
    hits = [x for x in judge(facts) if x.cause == "numpy-abi"]
    assert hits and hits[0].fix is not None
    assert any(",<2" in c or "numpy<2," in c for c in hits[0].fix.commands), hits[0].fix.commands
    assert "NumPy 1.x" in hits[0].fix.text and "numpy<2" in hits[0].fix.text, hits[0].fix.text


def test_the_floor_only_lines_are_those_whose_wheels_declare_a_floor_alone() -> None:
    """The NumPy properties above walk these lines; an empty walk would test nothing. The
    wheels' METADATA: numpy>=1.14.5 in 2.7, numpy>=1.20 in 2.8-2.11 (setup.py of each tag)."""
    assert sorted(x.line for x in FLOOR_ONLY) == ["2.10", "2.11", "2.7", "2.8", "2.9"]
