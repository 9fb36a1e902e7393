"""The matrix-driven checks on small facts fixtures: passing, failing and unknown.

Expected versions come from the bundled compat_matrix.yaml; the rows they rely on are pinned
in ``test_matrix_rows_behind_these_expectations`` so a matrix change points here first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Callable, Optional

import pytest

from tests import factories as f
from tests.explaining import explained
from tfdoctor import causes
from tfdoctor.checks import CHECKS, run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.checks.cuda import check_cuda_versions
from tfdoctor.checks.driver import check_driver_cuda
from tfdoctor.checks.gpu import check_compute_capability
from tfdoctor.checks.packages import check_dependency_pins
from tfdoctor.checks.platform import check_windows_gpu
from tfdoctor.checks.tensorflow import check_python_wheels
from tfdoctor.compat import driver_floor, ptx_driver_floor
from tfdoctor.facts import (
    CudaLibsFacts,
    DeviceFacts,
    Facts,
    GpuFacts,
    LibraryCandidate,
    PackageFacts,
    PlatformFacts,
    PythonFacts,
    TensorFlowFacts,
)
from tfdoctor.findings import Finding, Severity
from tfdoctor.inputs import open_matrix
from tfdoctor.machine import Machine
from tfdoctor.matrix import (
    DEFAULT_COMPANIONS,
    ComputeCapabilities,
    Matrix,
    MatrixError,
    load_matrix,
    parse_companions,
    parse_matrix,
)
from tfdoctor.pin import environment_pinset

CheckFunc = Callable[[CheckContext], Iterable[Finding]]
METADATA = Path(__file__).resolve().parent / "data" / "pypi" / "metadata"

MATRIX = f.FIXTURE_MATRIX
PIP = f"{f.python().executable} -m pip"
CACHE = "export CUDA_CACHE_MAXSIZE=4294967296"
#: The registered check of each function: its findings must use the ids it declares.
DECLARED = {c.func: (c.finding_id,) for c in CHECKS}

A100 = GpuFacts(0, "NVIDIA A100-SXM4-80GB", compute_capability="8.0")
T4 = GpuFacts(0, "Tesla T4", compute_capability="7.5")
K40 = GpuFacts(0, "Tesla K40m", compute_capability="3.5")
H100 = GpuFacts(1, "NVIDIA H100 80GB HBM3", compute_capability="9.0")
RTX5090 = GpuFacts(0, "NVIDIA GeForce RTX 5090", compute_capability="12.0")

WINDOWS = f.platform(
    system="Windows",
    release="10",
    os_name="Windows 10 Pro",
    machine="AMD64",
    libc="",
    libc_version=None,
    nvidia_device_nodes=(),
)
WIN_PYTHON = f.python(version="3.10.11", executable="C:\\venv\\Scripts\\python.exe")
WIN_PIP = "C:\\venv\\Scripts\\python.exe -m pip"

#: TensorFlow 2.16/2.17 METADATA: numpy's floor depends on the Python version.
TF216_REQUIRES = (
    'numpy<2.0.0,>=1.23.5; python_version <= "3.11"',
    'numpy<2.0.0,>=1.26.0; python_version >= "3.12"',
    "keras>=3.0.0",
    "tensorboard<2.17,>=2.16",
    "protobuf!=4.21.0,!=4.21.1,!=4.21.2,!=4.21.3,!=4.21.4,!=4.21.5,<5.0.0dev,>=3.20.3",
    'nvidia-cudnn-cu12==8.9.7.29; extra == "and-cuda"',
)


def tf_build(version: str, cuda: Optional[str], cudnn: Optional[str], **kw: Any) -> TensorFlowFacts:
    """A CUDA build of ``version`` that did not record its GPU architectures (matrix decides)."""
    base: dict[str, Any] = {
        "version": version,
        "cuda_version": cuda,
        "cudnn_version": cudnn,
        "compute_capabilities": (),
    }
    return f.tensorflow(**{**base, **kw})


def installed(
    version: str,
    *requires: str,
    numpy: str = "1.26.4",
    extra: tuple[PackageFacts, ...] = (),
) -> tuple[PackageFacts, ...]:
    """A package set with TensorFlow ``version`` (declaring ``requires``) and numpy."""
    return (
        f.pkg("tensorflow", version, *requires, top_level=("tensorflow",)),
        f.pkg("numpy", numpy),
        *extra,
    )


def no_tf(**kw: Any) -> Facts:
    """The default machine with numpy but no TensorFlow."""
    return f.facts(packages=(f.pkg("numpy", "1.26.4"),), tensorflow=None, **kw)


def cudnn_libs(version: str, soname: str = "libcudnn.so.8") -> CudaLibsFacts:
    """cuda_libs facts where the loader would pick the pip wheel's cuDNN ``version``."""
    return f.cuda_libs(f.lib("cudnn", soname, f.pip_cand(f"cudnn/lib/{soname}", version)))


@dataclasses.dataclass(frozen=True)
class Case:
    """Facts, the severities expected in order, and what the first finding must say."""

    facts: Facts
    severities: tuple[Severity, ...]
    summary: tuple[str, ...] = ()
    fix_text: tuple[str, ...] = ()
    #: The first finding's exact fix commands; None when not asserted.
    commands: Optional[tuple[str, ...]] = None
    detail: tuple[str, ...] = ()


def judge(func: CheckFunc, facts: Facts, matrix: Any = MATRIX) -> list[Finding]:
    """The check's findings, called directly so that an exception fails the test."""
    found = list(func(CheckContext(facts, matrix)))
    for finding in found:
        assert finding.id in DECLARED[func], finding
    return found


def assert_case(func: CheckFunc, case: Case) -> list[Finding]:
    found = judge(func, case.facts)
    assert tuple(x.severity for x in found) == case.severities, found
    if not found:
        return found
    first = found[0]
    for word in case.summary:
        assert word in first.summary, (word, first.summary)
    for word in case.detail:
        assert word in first.detail, (word, first.detail)
    if case.fix_text or case.commands is not None:
        assert first.fix is not None, first
        for word in case.fix_text:
            assert word in first.fix.text, (word, first.fix.text)
        if case.commands is not None:
            assert first.fix.commands == case.commands
    if first.severity in (Severity.ERROR, Severity.WARNING):
        assert first.fix is not None and first.fix.text, first
    return found


def params(cases: dict[str, Case]) -> list[Any]:
    return [pytest.param(case, id=name) for name, case in cases.items()]


# --- the matrix rows the expectations below are derived from ----------------------------------


def test_matrix_rows_behind_these_expectations() -> None:
    tf215 = MATRIX.line_for("2.15.1")
    tf216 = MATRIX.line_for("2.16.2")
    tf214 = MATRIX.line_for("2.14.1")
    tf23 = MATRIX.line_for("2.3.4")
    tf210 = MATRIX.line_for("2.10.1")
    assert tf215 is not None and tf216 is not None and tf214 is not None
    assert tf23 is not None and tf210 is not None
    assert MATRIX.lines[0].latest_patch == "2.21.0"
    assert "3.12" in MATRIX.lines[0].python["linux-x86_64"]
    assert tf215.python["linux-x86_64"] == ("3.9", "3.10", "3.11")
    assert (tf215.cuda, tf215.cudnn, tf214.cuda, tf23.cuda) == ("12.2", "8.9", "11.8", "10.1")
    assert tf215.compute_capabilities == ComputeCapabilities(
        ("sm_50", "sm_60", "sm_70", "sm_75", "sm_80"), ("compute_80",)
    )
    assert tf216.compute_capabilities is not None
    assert "sm_35" not in tf216.compute_capabilities.sass
    assert "sm_35" in (tf214.compute_capabilities or ComputeCapabilities((), ())).sass
    assert tf215.and_cuda is not None and tf215.and_cuda["nvidia-cudnn-cu12"] == "==8.9.4.25"
    assert tf216.pins.tf_keras == "<2.17,>=2.16"
    assert tf215.pins.keras == "<2.16,>=2.15.0"
    assert tf210.windows_native_gpu and not tf215.windows_native_gpu
    floors = {
        "2.15 linux": driver_floor(MATRIX, tf215, "linux"),
        "2.3 linux": driver_floor(MATRIX, tf23, "linux"),
        "2.10 windows": driver_floor(MATRIX, tf210, "windows"),
        "2.15 ptx": ptx_driver_floor(MATRIX, tf215, "linux"),
    }
    assert {k: v.version if v else None for k, v in floors.items()} == {
        "2.15 linux": "525.60.13",
        "2.3 linux": "418.39",
        "2.10 windows": "452.39",
        "2.15 ptx": "535.54.03",
    }


# --- tensorflow.python ------------------------------------------------------------------------

PY312 = f.python(version="3.12.3")

PYTHON_CASES = {
    "tf2.15-py3.11-linux": Case(
        f.facts(), (Severity.OK,), ("TensorFlow 2.15", "Python 3.11", "linux-x86_64")
    ),
    "tf2.15-py3.11-macos-arm64": Case(
        f.facts(platform=f.platform(system="Darwin", machine="arm64", libc="")),
        (Severity.OK,),
        ("macos-arm64",),
    ),
    "tf2.15-py3.12-no-gpu": Case(
        f.cpu_only_machine(python=PY312),
        (Severity.WARNING,),
        ("2.15.1", "Python 3.12", "3.9-3.11"),
        ("2.21.0", "3.9-3.11"),
        (f'{PIP} install "tensorflow==2.21.0"',),
    ),
    "tf2.15-py3.12-import-fails": Case(
        f.cpu_only_machine(python=PY312, tensorflow=f.tensorflow(status="import-error")),
        (Severity.ERROR,),
        ("Python 3.12", "3.9-3.11"),
        commands=(f'{PIP} install "tensorflow==2.21.0"',),
    ),
    "tf2.15-py3.12-static": Case(
        f.cpu_only_machine(python=PY312, tensorflow=f.tensorflow(status="skipped")),
        (Severity.WARNING,),
        ("Python 3.12",),
    ),
    # The fix must name what fits the machine, GPU included (docs/findings.md, *matrix*).
    "tf2.15-py3.12-gpu": Case(
        f.facts(python=PY312),
        (Severity.WARNING,),
        ("Python 3.12", "3.9-3.11"),
        commands=(f'{PIP} install "tensorflow[and-cuda]==2.21.0"',),
    ),
    "none-py3.12-gpu": Case(
        no_tf(python=PY312),
        (Severity.INFO,),
        ("2.21.0", "Python 3.12"),
        commands=(f'{PIP} install "tensorflow[and-cuda]==2.21.0"',),
    ),
    "none-py3.12-no-gpu": Case(
        f.cpu_only_machine(python=PY312, packages=(), tensorflow=None),
        (Severity.INFO,),
        ("2.21.0", "Python 3.12"),
        commands=(f'{PIP} install "tensorflow==2.21.0"',),
    ),
    # The summary names the newest release for the Python; the fix what this machine runs:
    # driver 470 cannot run CUDA 12 builds, and a T4 has sm_75 code in 2.14 (CUDA 11.8).
    "none-py3.11-t4-driver-470": Case(
        no_tf(driver=f.driver(driver_version="470.82.01", gpus=(T4,))),
        (Severity.INFO,),
        ("2.21.0", "Python 3.11"),
        ("2.14.1",),
        commands=(f'{PIP} install "tensorflow[and-cuda]==2.14.1"',),
    ),
    # TensorFlow missing and no release for this Python: packages.tensorflow reports the
    # cause with its fix (one finding per cause); this check notes it.
    "none-py3.14": Case(
        f.facts(python=f.python(version="3.14.0"), packages=(), tensorflow=None),
        (Severity.INFO,),
        (
            "No TensorFlow release has a wheel",
            "Python 3.14",
            "`tfdoctor check packages.tensorflow` gives the fix",
        ),
    ),
    "python-2.7": Case(
        f.facts(python=f.python(version="2.7.18")),
        (Severity.ERROR,),
        ("no wheels", "2.7.18"),
    ),
    "ppc64le": Case(
        f.facts(platform=f.platform(machine="ppc64le")),
        (Severity.ERROR,),
        ("no wheels", "ppc64le"),
    ),
    "tf-not-in-matrix": Case(
        f.facts(packages=installed("2.99.0")),
        (Severity.UNKNOWN,),
        ("2.99.0", "not in the compatibility matrix"),
        commands=(f"{PIP} install -U tfdoctor",),
    ),
    "no-python-facts": Case(
        f.facts(python=None), (Severity.UNKNOWN,), ("Could not determine", "Python")
    ),
}


@pytest.mark.parametrize(
    "case",
    params(PYTHON_CASES),
)
def test_python_wheels(case: Case) -> None:
    assert_case(check_python_wheels, case)


FAILED_IMPORT = f.tensorflow(status="import-error", error_type="ImportError")


def _no_wheel(facts: Facts, matrix: Matrix = MATRIX) -> list[Finding]:
    """The findings naming ``tf-no-wheel-for-python`` at warning or above."""
    return [
        x
        for x in run_checks(CheckContext(facts, matrix))
        if x.cause == "tf-no-wheel-for-python" and x.severity.rank >= Severity.WARNING.rank
    ]


def test_python_wheels_venv_on_windows_uses_the_launcher() -> None:
    # python.org's Windows installer puts no python3.13 on the PATH: the launcher picks it.
    facts = f.facts(
        platform=WINDOWS,
        python=f.python(version="3.14.0", executable="C:\\py314\\python.exe"),
        packages=(),
        tensorflow=None,
    )
    [finding] = _no_wheel(facts)
    assert finding.fix is not None
    assert finding.fix.commands[0] == "py -3.13 -m venv .venv"


def test_python_wheels_venv_skips_a_python_only_a_pre_release_serves() -> None:
    # A line with only a pre-release is never recommended: pip takes it only with --pre, so
    # a Python only it has wheels for gets no TensorFlow.
    matrix = load_matrix(str(f.FIXTURE_MATRIX_PATH), env={})
    newest = matrix.lines[0]
    python = {plat: (*vs, "3.15") for plat, vs in newest.python.items()}
    ahead = dataclasses.replace(newest, line="9.99", latest_patch="9.99.0rc0", python=python)
    matrix = dataclasses.replace(matrix, lines=(ahead, *matrix.lines))
    facts = f.facts(python=f.python(version="3.15.0"), packages=(), tensorflow=None)
    [finding] = _no_wheel(facts, matrix)
    assert finding.fix is not None
    assert finding.fix.commands[0] == "python3.13 -m venv .venv"


@pytest.mark.parametrize(
    "facts",
    [
        pytest.param(
            f.facts(python=f.python(version="3.14.0"), packages=(), tensorflow=None),
            id="missing-py3.14",
        ),
        pytest.param(
            f.facts(
                platform=WINDOWS,
                python=f.python(version="3.14.0", executable="C:\\py314\\python.exe"),
                packages=(),
                tensorflow=None,
            ),
            id="missing-py3.14-windows",
        ),
        pytest.param(
            f.facts(
                python=f.python(version="3.11.7", implementation="PyPy"),
                packages=(),
                tensorflow=None,
            ),
            id="missing-pypy",
        ),
        # Installed, for another Python (its import fails), and no release has a wheel for
        # this one.
        pytest.param(
            f.facts(python=f.python(version="3.14.0"), tensorflow=FAILED_IMPORT),
            id="installed-py3.14",
        ),
        pytest.param(
            f.facts(python=f.python(version="2.7.18"), tensorflow=FAILED_IMPORT),
            id="installed-py2.7",
        ),
    ],
)
def test_no_wheel_has_one_finding_and_its_fix_removes_it(facts: Facts) -> None:
    """One cause, one finding, one fix: the fix, applied (the new environment's Python with
    TensorFlow installed there by its pip), leaves no finding of the cause."""
    [finding] = _no_wheel(facts)
    assert finding.fix is not None
    after = f.apply_venv(facts, finding.fix.commands, MATRIX)
    assert after is not None, finding.fix.commands
    assert _no_wheel(after) == []


def test_a_platform_without_wheels_has_one_no_wheel_finding() -> None:
    """Linux ppc64le: no release of any Python; packages.tensorflow reports it with its fix
    (build from source, or another machine), tensorflow.python notes it."""
    facts = f.facts(platform=f.platform(machine="ppc64le"), packages=(), tensorflow=None)
    [finding] = _no_wheel(facts)
    assert finding.id == "packages.tensorflow" and finding.fix is not None
    assert "ppc64le" in finding.fix.text
    [note] = [x for x in run_checks(CheckContext(facts, MATRIX)) if x.id == "tensorflow.python"]
    assert (
        note.severity is Severity.INFO
        and "`tfdoctor check packages.tensorflow` gives the fix" in note.summary
    )


def test_the_no_wheel_property_can_fail() -> None:
    """Planted: the new environment's TensorFlow under the old Python keeps the cause."""
    facts = f.facts(python=f.python(version="3.14.0"), packages=(), tensorflow=None)
    [finding] = _no_wheel(facts)
    assert finding.fix is not None
    after = f.apply_venv(facts, finding.fix.commands, MATRIX)
    assert after is not None
    assert _no_wheel(dataclasses.replace(after, python=facts.python)) != []
    assert f.apply_venv(facts, ("python3.13 -m venv .venv",), MATRIX) is None


@pytest.mark.parametrize(
    ("platform", "python", "commands"),
    [
        pytest.param(
            WINDOWS,
            f.python(version="3.14.0", executable="C:\\py314\\python.exe"),
            ("py -3.13 -m venv .venv", ".venv\\Scripts\\python -m pip install tensorflow"),
            id="windows-python-newer-than-every-release",
        ),
        pytest.param(
            None,
            f.python(version="3.15.0"),
            ("python3.13 -m venv .venv", ".venv/bin/python -m pip install tensorflow"),
            id="linux-python-newer-than-every-release",
        ),
        pytest.param(
            dataclasses.replace(WINDOWS, machine="ARM64"),
            f.python(version="3.12.4", executable="C:\\py312\\python.exe"),
            ("wsl --install -d Ubuntu",),
            id="windows-on-arm",
        ),
        pytest.param(
            f.platform(machine="ppc64le"),
            f.python(version="3.12.4"),
            ("uname -m",),
            id="linux-ppc64le",
        ),
        pytest.param(
            # musl's loader read by the probe (Alpine): manylinux wheels need glibc (PEP 600).
            f.platform(libc="musl", libc_version="1.2.5"),
            f.python(version="3.12.4"),
            ("ldd --version 2>&1 | head -1", "tfdoctor matrix"),
            id="linux-musl",
        ),
        pytest.param(
            # Termux on an Android phone: its C library (Bionic) unnamed, its prefix Android's.
            f.platform(machine="aarch64", libc="unknown", libc_version=None),
            f.python(
                version="3.12.4",
                executable="/data/data/com.example.shell/files/usr/bin/python3",
                prefix="/data/data/com.example.shell/files/usr",
            ),
            (
                "pkg install proot-distro",
                "proot-distro install debian",
                "proot-distro login debian",
                "apt update && apt install -y python3-venv",
                "python3 -m venv ~/tf",
                "~/tf/bin/python -m pip install tensorflow",
            ),
            id="android-app-prefix",
        ),
        pytest.param(
            # Python's own name for the system on Android (PEP 738).
            f.platform(system="Android", machine="aarch64", libc="unknown", libc_version=None),
            f.python(version="3.13.1"),
            (
                "pkg install proot-distro",
                "proot-distro install debian",
                "proot-distro login debian",
                "apt update && apt install -y python3-venv",
                "python3 -m venv ~/tf",
                "~/tf/bin/python -m pip install tensorflow",
            ),
            id="android-system",
        ),
        pytest.param(
            None,
            f.python(version="3.10.14", implementation="PyPy"),
            ("python3.13 -m venv .venv", ".venv/bin/python -m pip install tensorflow"),
            id="pypy",
        ),
        pytest.param(
            None,
            # GraalPy's platform.python_implementation(), which the probe records.
            f.python(version="3.11.7", implementation="GraalVM"),
            ("python3.13 -m venv .venv", ".venv/bin/python -m pip install tensorflow"),
            id="graalpy",
        ),
    ],
)
def test_tensorflow_missing_where_no_release_has_a_wheel_says_so_not_install(
    platform: Optional[PlatformFacts], python: PythonFacts, commands: tuple[str, ...]
) -> None:
    """No release has a wheel for this interpreter: "install TensorFlow" would fail, so the
    missing TensorFlow is that cause, with the Python that has wheels here."""
    facts = f.facts(python=python, packages=(), tensorflow=None)
    if platform is not None:
        facts = dataclasses.replace(facts, platform=platform)
    found = [x for x in run_checks(CheckContext(facts, MATRIX)) if x.id == "packages.tensorflow"]
    assert [x.cause for x in found] == ["tf-no-wheel-for-python"]
    assert found[0].fix is not None and found[0].fix.commands == commands


@pytest.mark.parametrize(
    "python",
    [
        pytest.param("3.12.4", id="a-release-fits"),
        # Older than any Python the matrix lists: older releases had wheels it does not record.
        pytest.param("3.5.10", id="older-than-the-matrix"),
        pytest.param("2.7.18", id="python-2"),
    ],
)
def test_tensorflow_missing_where_a_release_may_fit_is_installed(python: str) -> None:
    facts = f.facts(python=f.python(version=python), packages=(), tensorflow=None)
    found = [x for x in run_checks(CheckContext(facts, MATRIX)) if x.id == "packages.tensorflow"]
    assert [x.cause for x in found] == ["tf-not-installed"]


def test_a_musl_system_other_than_alpine_is_named_as_itself() -> None:
    # musl is the C library of other distributions than Alpine (Void's musl edition).
    facts = f.facts(python=f.python(version="3.12.4"), packages=(), tensorflow=None)
    plat = f.platform(os_name="Void Linux", libc="musl", libc_version="1.2.5")
    facts = dataclasses.replace(facts, platform=plat)
    found = [x for x in run_checks(CheckContext(facts, MATRIX)) if x.id == "packages.tensorflow"]
    assert [x.cause for x in found] == ["tf-no-wheel-for-python"]
    fix = found[0].fix
    assert fix is not None and "(Void Linux) uses musl libc" in fix.text
    assert "is Alpine" not in fix.text


def test_a_32_bit_android_is_told_another_machine() -> None:
    # Termux on a 32-bit ARM phone: no glibc distribution under proot-distro has a wheel.
    facts = f.facts(python=f.python(version="3.13.1"), packages=(), tensorflow=None)
    plat = f.platform(system="Android", machine="armv7l", libc="", libc_version=None)
    facts = dataclasses.replace(facts, platform=plat)
    found = [x for x in run_checks(CheckContext(facts, MATRIX)) if x.id == "packages.tensorflow"]
    fix = found[0].fix
    assert fix is not None and "32-bit Android (armv7l)" in fix.text
    assert "proot-distro" not in " ".join(fix.commands)


def test_an_unnamed_c_library_alone_is_no_platform_without_wheels() -> None:
    # The probe could not name the C library, and nothing shows Android or musl: a release
    # may fit, so the fix installs one.
    facts = f.facts(python=f.python(version="3.12.4"), packages=(), tensorflow=None)
    facts = dataclasses.replace(facts, platform=f.platform(libc="unknown", libc_version=None))
    found = [x for x in run_checks(CheckContext(facts, MATRIX)) if x.id == "packages.tensorflow"]
    assert [x.cause for x in found] == ["tf-not-installed"]


def test_python_wheels_without_matrix_is_unknown() -> None:
    [finding] = judge(check_python_wheels, f.facts(), matrix=None)
    assert finding.severity is Severity.UNKNOWN
    assert finding.summary.startswith("Could not determine")


# --- driver.cuda ------------------------------------------------------------------------------

UBUNTU_DRIVERS = "sudo ubuntu-drivers install"


def tf23_machine(driver_version: str, python_version: str = "3.8.10") -> Facts:
    """TensorFlow 2.3.4 (CUDA 10.1: needs the toolkit's own driver) on an A100."""
    return f.facts(
        python=f.python(version=python_version),
        packages=installed("2.3.4", numpy="1.18.5"),
        tensorflow=tf_build("2.3.4", "10.1", "7"),
        driver=f.driver(driver_version=driver_version),
    )


def windows_tf210(driver_version: str) -> Facts:
    """Native Windows, TensorFlow 2.10.1 (its build_info says cuda_version 64_112)."""
    return f.facts(
        platform=WINDOWS,
        python=WIN_PYTHON,
        packages=installed("2.10.1"),
        tensorflow=tf_build("2.10.1", "64_112", "64_8"),
        driver=f.driver(driver_version=driver_version),
        cuda_libs=None,
    )


DRIVER_CASES = {
    "tf2.15-driver-535": Case(
        f.facts(driver=f.driver(driver_version="535.104.05")),
        (Severity.OK,),
        ("535.104.05", "CUDA 12.2", ">= 525.60.13"),
    ),
    # An A100 needs 2.14's compute_80 PTX (driver >= 520.61.05); Python 3.11 rules out
    # 2.11 and older: nothing fits driver 470, so only the driver upgrade is offered.
    "tf2.15-a100-driver-470": Case(
        f.facts(driver=f.driver(driver_version="470.82.01")),
        (Severity.ERROR,),
        ("470.82.01", "too old", "CUDA 12.2", ">= 525.60.13"),
        ("525.60.13",),
        detail=("minor version compatibility",),
    ),
    "tf2.15-t4-driver-470": Case(
        f.facts(driver=f.driver(driver_version="470.82.01", gpus=(T4,))),
        (Severity.ERROR,),
        ("470.82.01", ">= 525.60.13"),
        ("525.60.13", "TensorFlow 2.14.1", "CUDA 11.8"),
    ),
    "tf2.3-driver-418.39": Case(tf23_machine("418.39"), (Severity.OK,), ("CUDA 10.1", ">= 418.39")),
    "tf2.3-driver-418.30": Case(
        tf23_machine("418.30"),
        (Severity.ERROR,),
        ("418.30", ">= 418.39"),
        ("418.39",),
        detail=("the driver CUDA 10.1 shipped with",),
    ),
    # The build's record (CUDA 11.8) wins over the matrix's 12.2 for 2.15.
    "build-cuda-11.8-wins": Case(
        f.facts(
            tensorflow=f.tensorflow(cuda_version="11.8"),
            driver=f.driver(driver_version="470.82.01"),
        ),
        (Severity.OK,),
        ("CUDA 11.8", ">= 450.80.02"),
    ),
    "build-cuda-10.0-wins": Case(
        dataclasses.replace(tf23_machine("418.30"), tensorflow=tf_build("2.3.4", "10.0", "7")),
        (Severity.OK,),
        ("CUDA 10.0", ">= 410.48"),
    ),
    "windows-tf2.10-below-floor": Case(
        windows_tf210("452.06"),
        (Severity.ERROR,),
        ("452.06", "CUDA 11.2", ">= 452.39"),
        ("452.39",),
    ),
    "windows-tf2.10-at-floor": Case(
        windows_tf210("452.39"), (Severity.OK,), ("CUDA 11.2", ">= 452.39")
    ),
    "no-gpu": Case(f.cpu_only_machine(), ()),
    "cpu-build": Case(f.facts(tensorflow=f.tensorflow(is_cuda_build=False, cuda_version=None)), ()),
    "no-tf": Case(no_tf(), ()),
    # A release the matrix has no line of is judged by the CUDA its build records (NVIDIA's
    # driver table); without that record it is unknown.
    "tf-not-in-matrix": Case(
        f.facts(packages=installed("2.99.0")), (Severity.OK,), ("2.99.0", "CUDA 12.2")
    ),
    "tf-not-in-matrix-too-old-driver": Case(
        f.facts(
            packages=installed("1.11.0"),
            tensorflow=f.tensorflow(version="1.11.0", cuda_version="9.2"),
            driver=f.driver(driver_version="390.87"),
        ),
        (Severity.ERROR,),
        ("390.87", "1.11.0", "CUDA 9.2", ">= 396.26"),
    ),
    "tf-not-in-matrix-no-record": Case(
        f.facts(packages=installed("2.99.0"), tensorflow=None), (Severity.UNKNOWN,), ("not in",)
    ),
}


@pytest.mark.parametrize("case", params(DRIVER_CASES))
def test_driver_cuda(case: Case) -> None:
    assert_case(check_driver_cuda, case)


@pytest.mark.parametrize(
    ("facts", "commands"),
    [
        pytest.param(
            f.facts(driver=f.driver(driver_version="470.82.01", gpus=(T4,))),
            (f'{PIP} install "tensorflow[and-cuda]==2.14.1"',),
            id="t4-driver-470-keeps-driver-with-2.14.1",
        ),
        # 2.14 carries compute_80, so machine code for the A100 too (CUDA 11.8: driver 450+).
        pytest.param(
            f.facts(driver=f.driver(driver_version="470.82.01")),
            (f'{PIP} install "tensorflow[and-cuda]==2.14.1"',),
            id="a100-driver-470-keeps-driver-with-2.14.1",
        ),
        # Python 3.7 reaches 2.0 (CUDA 10.0, driver >= 410.48), sold as tensorflow-gpu.
        pytest.param(
            tf23_machine("418.30", python_version="3.7.17"),
            (f'{PIP} install "tensorflow-gpu==2.0.4"',),
            id="tf2.3-py3.7-driver-418.30-tensorflow-gpu-2.0.4",
        ),
        pytest.param(tf23_machine("418.30"), (), id="tf2.3-py3.8-driver-418.30-nothing"),
    ],
)
def test_driver_cuda_fix_offers_the_newest_tf_this_driver_runs(
    facts: Facts, commands: tuple[str, ...]
) -> None:
    [finding] = judge(check_driver_cuda, facts)
    assert finding.severity is Severity.ERROR and finding.fix is not None
    first, *rest = finding.fix.commands
    assert first.startswith(UBUNTU_DRIVERS)
    assert tuple(rest) == commands


def test_windows_driver_fix_has_no_linux_command() -> None:
    [finding] = judge(check_driver_cuda, windows_tf210("452.06"))
    assert finding.fix is not None
    assert not any("ubuntu" in cmd or "sudo" in cmd for cmd in finding.fix.commands)


def test_driver_command_names_the_exact_floor() -> None:
    [finding] = judge(check_driver_cuda, tf23_machine("418.30"))
    assert finding.fix is not None
    driver_cmd = finding.fix.commands[0]
    assert driver_cmd.startswith(UBUNTU_DRIVERS)
    assert "418.39" in driver_cmd


# --- gpu.compute-capability -------------------------------------------------------------------

#: TensorFlow 2.15.1 whose build_info did not list architectures: the matrix's list decides.
TF215_MATRIX_CAPS = tf_build("2.15.1", "12.2", "8")
TF216 = tf_build("2.16.2", "12.3", "8")


def h100_under_215(**tf: Any) -> Facts:
    """An H100 (9.0) under TensorFlow 2.15 (compute_80 PTX for it only), TensorFlow's ``tf``."""
    return f.facts(tensorflow=tf_build("2.15.1", "12.2", "8", **tf), driver=f.driver(gpus=(H100,)))


CAPABILITY_CASES = {
    "tf2.15-t4-7.5-sass": Case(
        f.facts(tensorflow=TF215_MATRIX_CAPS, driver=f.driver(gpus=(T4,))),
        (Severity.OK,),
        ("machine code", "GPU 0", "7.5"),
    ),
    # 2.15 lists compute_80, which is machine code and PTX: an A100 runs its own code.
    "tf2.15-a100-8.0-sass": Case(
        f.facts(tensorflow=TF215_MATRIX_CAPS), (Severity.OK,), ("machine code", "8.0")
    ),
    # sm_80 machine code runs on 8.9 (same major, higher minor).
    "tf2.15-l4-8.9-sass-via-sm_80": Case(
        f.facts(
            tensorflow=TF215_MATRIX_CAPS,
            driver=f.driver(gpus=(GpuFacts(0, "NVIDIA L4", compute_capability="8.9"),)),
        ),
        (Severity.OK,),
        ("machine code",),
    ),
    # Nothing of major 9 in 2.15: an H100 JIT-compiles the compute_80 PTX.
    "tf2.15-h100-9.0-ptx": Case(
        f.facts(tensorflow=TF215_MATRIX_CAPS, driver=f.driver(gpus=(H100,))),
        (Severity.WARNING,),
        ("only through PTX JIT", "9.0"),
        commands=(CACHE, f'{PIP} install "tensorflow[and-cuda]==2.21.0"'),
        detail=("compute_80", "TensorFlow 2.16 and later carry machine code"),
    ),
    # 2.21 carries compute_90 PTX for a 12.0 GPU, and is known to fail on it (XLA).
    "tf2.21-rtx5090-12.0-known-failure": Case(
        f.facts(
            python=PY312,
            packages=installed("2.21.0"),
            tensorflow=tf_build("2.21.0", "12.5", "9"),
            driver=f.driver(driver_version="570.86.15", gpus=(RTX5090,)),
        ),
        (Severity.ERROR,),
        ("known to fail", "12.0"),
    ),
    # The H100 under 2.15 of tf2.15-h100-9.0-ptx, where CUDA refused the PTX, in the words of
    # its runtime and driver APIs (the import's error, a line TensorFlow logged): no JIT carried it.
    "tf2.15-h100-ptx-refused-runtime": Case(
        h100_under_215(
            error_message="CUDA runtime implicit initialization on GPU:0 failed. Status: "
            "device kernel image is invalid"
        ),
        (Severity.ERROR,),
        ("no code", "9.0", "can run"),
        detail=("compute_80", "kernel image is invalid"),
    ),
    "tf2.15-h100-ptx-refused-driver": Case(
        h100_under_215(
            log_errors=(
                "'cuModuleLoadData(&module, data)' failed with 'CUDA_ERROR_NO_BINARY_FOR_GPU'",
            )
        ),
        (Severity.ERROR,),
        ("no code", "9.0"),
        detail=("CUDA_ERROR_NO_BINARY_FOR_GPU",),
    ),
    "tf2.15-h100-ptx-driver-530": Case(
        f.facts(
            tensorflow=TF215_MATRIX_CAPS,
            driver=f.driver(driver_version="530.30.02", gpus=(H100,)),
        ),
        (Severity.ERROR,),
        ("only through PTX JIT", "driver >= 535.54.03"),
    ),
    "tf2.16-k40-3.5-none": Case(
        f.facts(packages=installed("2.16.2"), tensorflow=TF216, driver=f.driver(gpus=(K40,))),
        (Severity.ERROR,),
        ("2.16.2", "no code", "3.5"),
        ("TensorFlow 2.14.1",),
        (f'{PIP} install "tensorflow[and-cuda]==2.14.1"',),
        ("sm_50",),
    ),
    # The wheel's own list (factory default: sm_80 included) wins over the matrix's.
    "build-info-sm_80-wins": Case(f.facts(), (Severity.OK,), ("machine code", "8.0")),
    "build-info-without-7.x-wins": Case(
        f.facts(
            tensorflow=f.tensorflow(compute_capabilities=("sm_80", "compute_80")),
            driver=f.driver(gpus=(T4,)),
        ),
        (Severity.ERROR,),
        ("no code", "7.5"),
        detail=("sm_80, compute_80",),
    ),
    "gpu-capability-unknown": Case(
        f.facts(tensorflow=TF215_MATRIX_CAPS, driver=f.driver(gpus=(GpuFacts(0, "GPU"),))),
        (Severity.UNKNOWN,),
        ("Could not determine", "GPU 0"),
    ),
    # 2.2's wheels do not record their architectures in the matrix; CUDA 10.1 knows the T4
    # (an A100 is newer than CUDA 10.1: test_checks_real_misses).
    "wheel-capabilities-unknown": Case(
        f.facts(
            packages=installed("2.2.3"),
            tensorflow=tf_build("2.2.3", "10.1", "7"),
            driver=f.driver(gpus=(T4,)),
        ),
        (Severity.UNKNOWN,),
        ("Could not determine", "architectures"),
    ),
    "cpu-build": Case(f.facts(tensorflow=f.tensorflow(is_cuda_build=False, cuda_version=None)), ()),
    "no-gpu": Case(f.cpu_only_machine(), ()),
}


@pytest.mark.parametrize("case", params(CAPABILITY_CASES))
def test_compute_capability(case: Case) -> None:
    assert_case(check_compute_capability, case)


def test_each_gpu_gets_its_own_finding() -> None:
    facts = f.facts(tensorflow=TF215_MATRIX_CAPS, driver=f.driver(gpus=(T4, H100)))
    found = judge(check_compute_capability, facts)
    assert [(x.severity, x.summary.count("GPU 0"), x.summary.count("GPU 1")) for x in found] == [
        (Severity.OK, 1, 0),
        (Severity.WARNING, 0, 1),
    ]


def test_a_listed_gpu_whose_code_cuda_refused_does_not_overrule_the_verdict() -> None:
    """TensorFlow lists a GPU newer than its build all the same: with CUDA's refusal in the
    log the listing is no proof that the build has code for it, so the error stays an error."""
    listed = (DeviceFacts("/physical_device:GPU:0", "GPU"),)
    ok_facts = h100_under_215(devices=listed)
    bad_facts = h100_under_215(
        devices=listed,
        log_errors=("status: Internal: no kernel image is available for execution on the device",),
    )
    assert "tf-lists-every-gpu" in Machine(ok_facts, MATRIX).observations
    assert "tf-lists-every-gpu" not in Machine(bad_facts, MATRIX).observations
    assert "tf-lists-gpu" in Machine(bad_facts, MATRIX).observations


#: A build with machine code for 3.5 and 5.2 and PTX for 7.0 only: a 5.0 GPU lies inside its
#: range (TensorFlow lists it) with no code it can run; a 3.0 GPU lies below it.
GAPPED_BUILD = ("sm_35", "sm_52", "compute_70")


def listed_gpu_of(capability: str) -> Facts:
    """A GPU of ``capability`` that TensorFlow, built for :data:`GAPPED_BUILD`, listed."""
    devices = (
        DeviceFacts("/physical_device:CPU:0", "CPU"),
        DeviceFacts("/physical_device:GPU:0", "GPU", {"compute_capability": capability}),
    )
    gpu = GpuFacts(0, "GeForce MX", compute_capability=capability)
    return f.facts(
        tensorflow=f.tensorflow(compute_capabilities=GAPPED_BUILD, devices=devices),
        driver=f.driver(gpus=(gpu,)),
    )


def test_a_listed_gpu_inside_the_builds_range_without_code_stays_an_error() -> None:
    """TensorFlow lists a GPU at or above its build's lowest capability whether or not any of
    the build's code runs there: the listing runs no kernel, so the verdict stays an error."""
    facts = listed_gpu_of("5.0")
    assert "tf-lists-every-gpu" in Machine(facts, MATRIX).observations
    [found] = [
        x for x in run_checks(CheckContext(facts, MATRIX)) if x.id == "gpu.compute-capability"
    ]
    assert (found.cause, found.severity) == ("gpu-arch-unsupported", Severity.ERROR)
    assert "lists this GPU all the same" in found.detail
    assert "ignores this GPU" not in found.detail


def test_a_listed_gpu_below_the_builds_lowest_capability_unsettles_the_reading() -> None:
    """TensorFlow ignores a GPU below its build's lowest capability: listing one contradicts
    what was read of the build's code, so what it carries is not known."""
    [found] = judge(check_compute_capability, listed_gpu_of("3.0"))
    assert found.severity is Severity.UNKNOWN
    assert "architectures" in found.summary
    unlisted = dataclasses.replace(
        listed_gpu_of("3.0"), tensorflow=f.tensorflow(compute_capabilities=GAPPED_BUILD)
    )
    [ignored] = judge(check_compute_capability, unlisted)
    assert (ignored.cause, ignored.severity) == ("gpu-arch-unsupported", Severity.ERROR)
    assert "ignores this GPU" in ignored.detail


#: TensorFlow 2.17's wheel: machine code from 6.0 on, PTX of 9.0 alone.
BUILD_FROM_SM60 = ("sm_60", "sm_70", "sm_80", "sm_89", "sm_90", "compute_90")


def release_on_gpu(version: str, build: tuple[str, ...], capability: str, listed: bool) -> Facts:
    """TensorFlow ``version`` built for ``build`` on a GPU of ``capability``, which its device
    list shows where ``listed``."""
    facts = listed_gpu_of(capability)
    assert facts.tensorflow is not None
    devices = facts.tensorflow.devices if listed else facts.tensorflow.devices[:1]
    return dataclasses.replace(
        facts,
        packages=(f.pkg("tensorflow", version), f.pkg("numpy", "1.26.4")),
        tensorflow=f.tensorflow(version=version, compute_capabilities=build, devices=devices),
    )


@pytest.mark.parametrize("listed", [True, False])
def test_a_gpu_above_the_releases_fixed_floor_is_listed_though_below_the_build(
    listed: bool,
) -> None:
    """From 2.3 on TensorFlow lists every GPU of 3.5 or newer whatever its wheel was built for
    (gpu_device.cc's fixed 3.5 and 5.2): a 5.2 GPU under 2.17's wheel (sm_60 and up) is
    listed, and its operations fail; never told ignored, nor its listing a misreading."""
    facts = release_on_gpu("2.17.0", BUILD_FROM_SM60, "5.2", listed)
    assert ("tf-lists-every-gpu" in Machine(facts, MATRIX).observations) is listed
    [found] = judge(check_compute_capability, facts)
    assert (found.cause, found.severity) == ("gpu-arch-unsupported", Severity.ERROR)
    assert "lists this GPU all the same" in found.detail
    assert "ignores this GPU" not in found.detail


def test_a_release_before_2_3_lists_from_its_builds_lowest_capability() -> None:
    """Up to 2.2 TensorFlow's floor is its build's own list: a 3.7 GPU under a build from 5.2
    on is ignored; from 2.3 on a GPU below the fixed 3.5 is."""
    old = release_on_gpu("2.2.0", ("sm_52", "sm_60", "compute_70"), "3.7", listed=False)
    [ignored] = judge(check_compute_capability, old)
    assert (ignored.cause, ignored.severity) == ("gpu-arch-unsupported", Severity.ERROR)
    assert "ignores this GPU" in ignored.detail
    [below] = judge(
        check_compute_capability, release_on_gpu("2.17.0", BUILD_FROM_SM60, "3.0", listed=False)
    )
    assert "ignores this GPU" in below.detail
    # A source build for it lowers that floor only through TF_EXTRA_CUDA_CAPABILITIES.
    assert below.fix is not None
    assert "--copt=-DTF_EXTRA_CUDA_CAPABILITIES=3.0" in below.fix.text, below.fix.text


def test_ptx_with_too_old_driver_fix_upgrades_driver_or_tf() -> None:
    facts = f.facts(
        tensorflow=TF215_MATRIX_CAPS, driver=f.driver(driver_version="530.30.02", gpus=(H100,))
    )
    [finding] = judge(check_compute_capability, facts)
    assert finding.severity is Severity.ERROR and finding.fix is not None
    assert "535.54.03" in finding.fix.text
    assert f'{PIP} install "tensorflow[and-cuda]==2.21.0"' in finding.fix.commands


# --- cuda.versions ----------------------------------------------------------------------------

AND_CUDA_215 = (f'{PIP} install "tensorflow[and-cuda]==2.15.1"',)

CUDA_VERSION_CASES = {
    "cudnn-8.9.4-matches": Case(f.facts(), ()),
    "cudnn-8.9.7-newer-minor": Case(f.facts(cuda_libs=cudnn_libs("8.9.7")), ()),
    "cudnn-8.6-older": Case(
        f.facts(cuda_libs=cudnn_libs("8.6.0")),
        (Severity.ERROR,),
        ("cuDNN 8.6.0", "cuDNN 8.9"),
        commands=AND_CUDA_215,
    ),
    "cudnn-9-for-8.x-build": Case(
        f.facts(cuda_libs=cudnn_libs("9.1.0", "libcudnn.so.9")),
        (Severity.ERROR,),
        ("cuDNN 9.1.0", "8.x"),
        commands=AND_CUDA_215,
    ),
    # The build's record (cuDNN 9) wins over the matrix's 8.9 when the major differs.
    "build-cudnn-9-wins": Case(
        f.facts(tensorflow=f.tensorflow(cudnn_version="9")),
        (Severity.ERROR,),
        ("cuDNN 8.9.4", "built with cuDNN 9"),
    ),
    "cudnn-wheel-outside-pin": Case(
        f.facts(packages=f.packages(f.pkg("nvidia-cudnn-cu12", "9.1.0.70"))),
        (Severity.WARNING,),
        ("nvidia-cudnn-cu12 9.1.0.70", "nvidia-cudnn-cu12==8.9.4.25"),
        commands=(f'{PIP} install "nvidia-cudnn-cu12==8.9.4.25"',),
    ),
    "cudnn-wheel-inside-pin": Case(
        f.facts(packages=f.packages(f.pkg("nvidia-cudnn-cu12", "8.9.4.25"))), ()
    ),
    "cudnn-and-wheel-both-wrong": Case(
        f.facts(
            cuda_libs=cudnn_libs("9.1.0", "libcudnn.so.9"),
            packages=f.packages(f.pkg("nvidia-cudnn-cu12", "9.1.0.70")),
        ),
        (Severity.ERROR,),
        ("2 CUDA library versions",),
        commands=AND_CUDA_215,
        detail=("cuDNN 9.1.0", "nvidia-cudnn-cu12 9.1.0.70"),
    ),
    # Only the major is known when the version comes from the file name (libcudnn.so.8):
    # that is not evidence of an older minor.
    "cudnn-major-only-from-filename": Case(
        f.facts(
            cuda_libs=f.cuda_libs(
                f.lib(
                    "cudnn",
                    "libcudnn.so.8",
                    dataclasses.replace(
                        f.pip_cand("cudnn/lib/libcudnn.so.8", "8"), version_source="filename"
                    ),
                )
            )
        ),
        (),
    ),
    # 2.10 has no tensorflow[and-cuda] pins: reinstalling tensorflow==2.10.1 changes nothing.
    "tf2.10-cudnn-7-no-pip-pins": Case(
        f.facts(
            python=f.python(version="3.10.12"),
            packages=installed("2.10.1"),
            tensorflow=tf_build("2.10.1", "11.2", "8"),
            cuda_libs=cudnn_libs("7.6.5", "libcudnn.so.7"),
        ),
        (Severity.ERROR,),
        ("cuDNN 7.6.5", "8.1"),
        ("cuDNN 8.1",),
    ),
    "cpu-build": Case(
        f.facts(
            tensorflow=f.tensorflow(is_cuda_build=False, cuda_version=None),
            cuda_libs=cudnn_libs("7.6.5"),
        ),
        (),
    ),
    "not-selected": Case(
        f.facts(
            cuda_libs=f.cuda_libs(
                f.lib(
                    "cudnn",
                    "libcudnn.so.8",
                    f.pip_cand("cudnn/lib/libcudnn.so.8", "8.6.0"),
                    selected=None,
                )
            )
        ),
        (),
    ),
    "no-cuda-libs-facts": Case(f.facts(cuda_libs=None), ()),
}


@pytest.mark.parametrize(
    "case",
    params(CUDA_VERSION_CASES),
)
def test_cuda_versions(case: Case) -> None:
    assert_case(check_cuda_versions, case)


def test_cuda_versions_fix_without_pins_installs_no_tensorflow_again() -> None:
    facts = CUDA_VERSION_CASES["tf2.10-cudnn-7-no-pip-pins"].facts
    [finding] = judge(check_cuda_versions, facts)
    assert finding.fix is not None
    assert f'{PIP} install "tensorflow==2.10.1"' not in finding.fix.commands


# --- packages.pins ----------------------------------------------------------------------------


def tf216_machine(
    numpy: str, *extra: PackageFacts, python: str = "3.12.3", legacy: Optional[str] = None
) -> Facts:
    env = {"PATH": "/usr/bin:/bin"}
    if legacy is not None:
        env["TF_USE_LEGACY_KERAS"] = legacy
    return f.facts(
        python=f.python(version=python),
        packages=installed("2.16.2", *TF216_REQUIRES, numpy=numpy, extra=extra),
        tensorflow=tf_build("2.16.2", "12.3", "8"),
        environment=env,
    )


PIN_CASES = {
    "tf2.15-all-in-range": Case(
        f.facts(
            packages=f.packages(
                f.pkg("keras", "2.15.0"), f.pkg("protobuf", "4.25.3"), f.pkg("ml-dtypes", "0.3.2")
            )
        ),
        (),
    ),
    "tf2.15-numpy-2": Case(
        f.facts(packages=installed("2.15.1", *f.TF_REQUIRES, numpy="2.0.1")),
        (Severity.ERROR,),
        ("numpy 2.0.1", "2.15.1"),
        commands=(f'{PIP} install "numpy<2.0.0,>=1.23.5"',),
        detail=("NumPy 2",),
    ),
    # No Requires-Dist recorded: the matrix's pin stands in.
    "tf2.15-numpy-2-no-metadata": Case(
        f.facts(packages=installed("2.15.1", numpy="2.0.1")),
        (Severity.ERROR,),
        ("numpy 2.0.1",),
        commands=(f'{PIP} install "numpy<2.0.0,>=1.23.5"',),
    ),
    "tf2.15-keras-3": Case(
        f.facts(packages=f.packages(f.pkg("keras", "3.3.3"))),
        (Severity.ERROR,),
        ("keras 3.3.3",),
        commands=(f'{PIP} install "keras<2.16,>=2.15.0"',),
        detail=("Keras 3",),
    ),
    "tf2.15-protobuf-5": Case(
        f.facts(packages=f.packages(f.pkg("protobuf", "5.26.1"))),
        (Severity.WARNING,),
        ("protobuf 5.26.1", "<5.0.0dev"),
    ),
    "tf2.15-ml-dtypes-0.4": Case(
        f.facts(packages=f.packages(f.pkg("ml-dtypes", "0.4.0"))),
        (Severity.WARNING,),
        ("ml-dtypes 0.4.0",),
        commands=(f'{PIP} install "ml-dtypes~=0.3.1"',),
    ),
    # 2.15 reads the variable too: "Your environment has TF_USE_LEGACY_KERAS set to True, but
    # you do not have the tf_keras package installed" (huggingface/transformers#40391).
    "tf2.15-legacy-keras-needs-tf-keras": Case(
        f.facts(environment={"TF_USE_LEGACY_KERAS": "1"}),
        (Severity.ERROR,),
        ("TF_USE_LEGACY_KERAS is set but tf-keras is not installed",),
    ),
    # TensorFlow 2.16 requires numpy>=1.26 on Python 3.12 only (a python_version marker).
    "tf2.16-py3.12-numpy-1.24": Case(
        tf216_machine("1.24.4"),
        (Severity.ERROR,),
        ("numpy 1.24.4", ">=1.26.0"),
        commands=(f'{PIP} install "numpy<2.0.0,>=1.26.0"',),
    ),
    "tf2.16-py3.11-numpy-1.24": Case(tf216_machine("1.24.4", python="3.11.7"), ()),
    "tf2.16-keras-2": Case(
        tf216_machine("1.26.4", f.pkg("keras", "2.15.0")),
        (Severity.ERROR,),
        ("keras 2.15.0", ">=3.0.0"),
        commands=(f'{PIP} install "keras>=3.0.0"',),
    ),
    "tf2.16-legacy-keras-without-tf-keras": Case(
        tf216_machine("1.26.4", legacy="1"),
        (Severity.ERROR,),
        ("TF_USE_LEGACY_KERAS", "tf-keras"),
        commands=(f'{PIP} install "tf-keras<2.17,>=2.16"',),
    ),
    "tf2.16-legacy-keras-with-tf-keras": Case(
        tf216_machine("1.26.4", f.pkg("tf-keras", "2.16.0"), legacy="1"), ()
    ),
    "tf2.16-legacy-keras-off": Case(tf216_machine("1.26.4", legacy="0"), ()),
    "tf2.16-tf-keras-2.15": Case(
        tf216_machine("1.26.4", f.pkg("tf-keras", "2.15.1")),
        (Severity.WARNING,),
        ("tf-keras 2.15.1", "tf-keras<2.17,>=2.16"),
        commands=(f'{PIP} install "tf-keras<2.17,>=2.16"',),
    ),
    "no-tf": Case(no_tf(), ()),
    "no-package-facts": Case(f.facts(packages=None), ()),
}


@pytest.mark.parametrize("case", params(PIN_CASES))
def test_dependency_pins(case: Case) -> None:
    assert_case(check_dependency_pins, case)


def test_one_pin_finding_per_package() -> None:
    facts = f.facts(
        packages=installed(
            "2.15.1",
            *f.TF_REQUIRES,
            numpy="2.0.1",
            extra=(f.pkg("keras", "3.3.3"), f.pkg("protobuf", "5.26.1")),
        )
    )
    found = judge(check_dependency_pins, facts)
    assert [(x.severity, x.summary.split()[0]) for x in found] == [
        (Severity.ERROR, "numpy"),
        (Severity.ERROR, "keras"),
        (Severity.WARNING, "protobuf"),
    ]


# --- marker environment -----------------------------------------------------------------------

LINUX_MARKERS = {
    "extra": "",
    "python_version": "3.11",
    "python_full_version": "3.11.7",
    "implementation_name": "cpython",
    "implementation_version": "3.11.7",
    "platform_python_implementation": "CPython",
    "platform_system": "Linux",
    "sys_platform": "linux",
    "os_name": "posix",
    "platform_machine": "x86_64",
    "platform_release": "6.8.0-45-generic",
}


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        pytest.param(f.facts(), LINUX_MARKERS, id="linux-cpython"),
        pytest.param(
            f.facts(python=WIN_PYTHON, platform=WINDOWS),
            {
                **LINUX_MARKERS,
                "python_version": "3.10",
                "python_full_version": "3.10.11",
                "implementation_version": "3.10.11",
                "platform_system": "Windows",
                "sys_platform": "win32",
                "os_name": "nt",
                "platform_machine": "AMD64",
                "platform_release": "10",
            },
            id="windows",
        ),
        pytest.param(
            f.facts(
                python=f.python(version="3.10.14", implementation="PyPy"),
                platform=f.platform(system="Darwin", machine="arm64", release="23.4.0"),
            ),
            {
                "extra": "",
                "python_version": "3.10",
                "python_full_version": "3.10.14",
                "implementation_name": "pypy",
                "platform_python_implementation": "PyPy",
                "platform_system": "Darwin",
                "sys_platform": "darwin",
                "os_name": "posix",
                "platform_machine": "arm64",
                "platform_release": "23.4.0",
            },
            id="pypy-macos-leaves-implementation-version-out",
        ),
        pytest.param(f.facts(python=None, platform=None), {"extra": ""}, id="nothing-known"),
    ],
)
def test_examined_marker_environment(facts: Facts, expected: dict[str, str]) -> None:
    assert Machine(facts, None).marker_env == expected


def test_checks_pin_and_drift_read_markers_for_the_examined_machine() -> None:
    # Judged on a Linux machine: os_name must be the examined Windows machine's "nt".
    facts = f.facts(
        python=WIN_PYTHON,
        platform=WINDOWS,
        packages=installed(
            "2.16.2",
            'numpy<2.0.0,>=1.26.0; os_name == "nt"',
            'numpy<2.0.0,>=1.23.5; os_name != "nt"',
            numpy="1.24.4",
            extra=(f.pkg("tensorboard", "2.16.2"),),
        ),
        packages_complete=True,
    )
    (pins,) = judge(check_dependency_pins, facts)
    assert pins.severity is Severity.ERROR
    assert "numpy 1.24.4" in pins.summary and ">=1.26.0" in pins.summary
    assert environment_pinset(facts).warnings == (
        "tensorflow requires numpy<2.0.0,>=1.26.0, but numpy 1.24.4 is installed "
        "(pip will refuse these pins until that is fixed)",
    )
    ctx = CheckContext(facts, MATRIX, against=('numpy==1.26.4 ; os_name == "nt"',))
    (drift,) = run_checks(ctx, select_checks(["packages.drift"]))
    assert drift.severity is Severity.WARNING
    assert drift.summary == "numpy 1.24.4 is installed; the requirements pin numpy==1.26.4"


# --- platform.windows-gpu ---------------------------------------------------------------------

WINDOWS_CASES = {
    "windows-gpu-tf2.15": Case(
        f.facts(platform=WINDOWS, python=WIN_PYTHON),
        (Severity.WARNING,),
        ("2.15.1", "native Windows"),
        ("WSL2", "2.10.1"),
        (
            "wsl --install",
            f'{WIN_PIP} install "tensorflow==2.10.1"',
        ),
    ),
    # 2.10 has no wheel for 3.12: the fix must not offer it.
    "windows-gpu-tf2.15-py3.12": Case(
        f.facts(
            platform=WINDOWS, python=f.python(version="3.12.4", executable="C:\\venv\\python.exe")
        ),
        (Severity.WARNING,),
        ("2.15.1", "native Windows"),
        ("WSL2", "a Python 3.7 to 3.10 environment with TensorFlow 2.10"),
        ("wsl --install",),
    ),
    "windows-gpu-tf2.10": Case(
        f.facts(platform=WINDOWS, python=WIN_PYTHON, packages=installed("2.10.1")), ()
    ),
    "windows-no-gpu-tf2.15": Case(
        f.facts(platform=WINDOWS, python=WIN_PYTHON, driver=f.NO_DRIVER), ()
    ),
    "linux-gpu-tf2.15": Case(f.facts(), ()),
    "windows-gpu-no-tf": Case(no_tf(platform=WINDOWS, python=WIN_PYTHON), ()),
}


@pytest.mark.parametrize("case", params(WINDOWS_CASES))
def test_windows_gpu(case: Case) -> None:
    assert_case(check_windows_gpu, case)


def test_windows_gpu_fix_follows_the_matrix() -> None:
    # The last native Windows GPU line and its Windows Pythons come from the matrix: a
    # matrix that states them otherwise changes the advice.
    facts = f.facts(
        platform=WINDOWS, python=f.python(version="3.12.4", executable="C:\\venv\\python.exe")
    )
    matrix = f.with_line(MATRIX, "2.10", python={"windows-x86_64": ("3.8", "3.9")})
    fix = causes.platform.windows_gpu_fix(Machine(facts, matrix))
    assert "a Python 3.8 to 3.9 environment with TensorFlow 2.10" in fix.text
    assert "3.7" not in fix.text and "3.10" not in fix.text
    # No line with native Windows GPU wheels: no line or Pythons are named.
    lines = tuple(dataclasses.replace(x, windows_native_gpu=False) for x in MATRIX.lines)
    fix = causes.platform.windows_gpu_fix(Machine(facts, dataclasses.replace(MATRIX, lines=lines)))
    assert "TensorFlow 2.10" not in fix.text and "Python 3." not in fix.text


# --- every check without a matrix or facts ----------------------------------------------------

COMPAT_CHECKS = (
    check_python_wheels,
    check_driver_cuda,
    check_compute_capability,
    check_cuda_versions,
    check_dependency_pins,
    check_windows_gpu,
)

BARE = f.facts(
    python=None,
    platform=None,
    cpu=None,
    packages=None,
    driver=None,
    cuda_libs=None,
    tensorflow=None,
    environment=None,
)

SAMPLE_FACTS = {
    "healthy": f.facts(),
    "cpu-only": f.cpu_only_machine(),
    "windows-gpu": f.facts(platform=WINDOWS, python=WIN_PYTHON),
    "tf2.16-legacy": tf216_machine("1.24.4", legacy="1"),
    "bare": BARE,
}


def passes(func: CheckFunc, facts: Facts, matrix: Any) -> list[str]:
    """The summaries of the OK findings a check gives (an exception fails the test)."""
    return [x.summary for x in judge(func, facts, matrix) if x.severity is Severity.OK]


@pytest.mark.parametrize("func", COMPAT_CHECKS, ids=lambda fn: fn.__name__)
@pytest.mark.parametrize("facts", list(SAMPLE_FACTS.values()), ids=list(SAMPLE_FACTS))
def test_without_matrix_never_crashes_or_passes(func: CheckFunc, facts: Facts) -> None:
    assert passes(func, facts, None) == []


@pytest.mark.parametrize("func", COMPAT_CHECKS, ids=lambda fn: fn.__name__)
def test_bare_facts_never_crash_or_pass(func: CheckFunc) -> None:
    assert passes(func, BARE, MATRIX) == []


def test_a_pass_is_seen_where_the_check_has_its_inputs() -> None:
    # With facts and matrix, the healthy machine's checks pass: the rule above would see it.
    assert passes(check_python_wheels, SAMPLE_FACTS["healthy"], MATRIX)
    assert passes(check_driver_cuda, SAMPLE_FACTS["healthy"], MATRIX)


# --- review cases: build without TensorFlow's word, drivers by place, older patches ----------

AARCH64 = f.platform(machine="aarch64")


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        # The Linux aarch64 wheels are CPU builds: no CUDA verdicts without TF's own word.
        pytest.param(
            f.facts(platform=AARCH64, tensorflow=None, packages=installed("2.16.2")),
            [],
            id="aarch64-no-tf-facts",
        ),
        # tensorflow-cpu is never a CUDA build.
        pytest.param(
            f.facts(
                tensorflow=None,
                packages=(f.pkg("tensorflow-cpu", "2.16.2", top_level=("tensorflow",)),),
            ),
            [],
            id="tensorflow-cpu-no-tf-facts",
        ),
        # The x86-64 tensorflow wheel is: the matrix's CUDA 12.3 stands in.
        pytest.param(
            f.facts(tensorflow=None, packages=installed("2.16.2")),
            [Severity.OK],
            id="x86-64-no-tf-facts",
        ),
    ],
)
def test_driver_check_trusts_the_matrix_only_for_cuda_builds(
    facts: Facts, expected: list[Severity]
) -> None:
    assert [x.severity for x in judge(check_driver_cuda, facts)] == expected


@pytest.mark.parametrize(
    ("platform", "gpus", "needle", "has_apt"),
    [
        pytest.param(f.platform(wsl="WSL2"), None, "Windows host", False, id="wsl"),
        pytest.param(f.platform(container="docker"), None, "on the host", False, id="container"),
        pytest.param(None, (K40,), "Kepler", False, id="kepler-no-driver-fits"),
        pytest.param(None, None, "Install NVIDIA driver 525.60.13", True, id="bare-metal"),
        # ubuntu-drivers is Ubuntu's own: Fedora gets no command of another distribution.
        pytest.param(
            f.platform(os_name="Fedora Linux 40 (Workstation Edition)"),
            None,
            "distribution's NVIDIA driver packages",
            False,
            id="fedora",
        ),
        # Facts of schema 5 hold os-release's name only: a derivative is not taken for Ubuntu.
        pytest.param(
            f.platform(os_name="Linux Mint 21.3"),
            None,
            "distribution's NVIDIA driver packages",
            False,
            id="mint-name-only",
        ),
        # os-release's ID_LIKE names Ubuntu under Linux Mint: Ubuntu's archive and tools.
        pytest.param(
            f.platform(os_name="Linux Mint 21.3", os_ids=("linuxmint", "ubuntu", "debian")),
            None,
            "Install NVIDIA driver 525.60.13",
            True,
            id="mint-id-like-ubuntu",
        ),
        # A name that says Ubuntu is not read where the identifiers say otherwise.
        pytest.param(
            f.platform(os_name="Debian GNU/Linux 12 (bookworm)", os_ids=("debian",)),
            None,
            "distribution's NVIDIA driver packages",
            False,
            id="debian-ids",
        ),
        pytest.param(
            f.platform(os_name="Linux"), None, "Install NVIDIA driver 525.60.13", True, id="unnamed"
        ),
    ],
)
def test_driver_fix_fits_where_the_driver_lives(
    platform: Any, gpus: Any, needle: str, has_apt: bool
) -> None:
    kw: dict[str, Any] = {"driver_version": "470.82.01"}
    if gpus is not None:
        kw["gpus"] = gpus
    facts = f.facts(
        platform=platform or f.platform(),
        packages=installed("2.16.2"),
        tensorflow=tf_build("2.16.2", "12.3", "8"),
        driver=f.driver(**kw),
    )
    [finding] = judge(check_driver_cuda, facts)
    assert finding.severity is Severity.ERROR and finding.fix is not None
    assert needle in finding.fix.text
    apt = [c for c in finding.fix.commands if c.startswith("sudo ubuntu-drivers install nvidia:")]
    assert bool(apt) is has_apt
    if has_apt:
        assert apt[0].startswith("sudo ubuntu-drivers install nvidia:525 ")


def test_an_older_patch_with_more_wheels_is_not_a_warning() -> None:
    # 2.11.0 had cp37 wheels; the line's latest patch 2.11.1 does not.
    facts = f.facts(python=f.python(version="3.7.17"), packages=installed("2.11.0"))
    [finding] = judge(check_python_wheels, facts)
    assert finding.severity is Severity.INFO
    assert "2.11.1" in finding.summary and "the installed 2.11.0 runs" in finding.summary


def test_no_release_fits_this_gpu_warns_with_the_cpu_option() -> None:
    # A Kepler GPU on driver 470 with Python 3.13: no CUDA build fits, the CPU one does.
    facts = no_tf(
        python=f.python(version="3.13.1"), driver=f.driver(driver_version="470.82.01", gpus=(K40,))
    )
    [finding] = judge(check_python_wheels, facts)
    assert finding.severity is Severity.WARNING
    assert "No TensorFlow release runs on this machine's GPU" in finding.summary
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install "tensorflow==2.21.0"',)


def test_a_shadowed_cudnn_is_fixed_on_the_loader_path() -> None:
    libs = f.cuda_libs(
        f.lib(
            "cudnn",
            "libcudnn.so.8",
            LibraryCandidate("/usr/local/cuda/lib64/libcudnn.so.8", "LD_LIBRARY_PATH", "8.6.0"),
            f.pip_cand("cudnn/lib/libcudnn.so.8", "8.9.7"),
        )
    )
    facts = f.facts(
        cuda_libs=libs,
        environment={"LD_LIBRARY_PATH": "/usr/local/cuda/lib64:/opt/other"},
    )
    [finding] = judge(check_cuda_versions, facts)
    assert finding.severity is Severity.ERROR and finding.fix is not None
    assert finding.fix.commands == ("export LD_LIBRARY_PATH=/opt/other",)


def test_tf_keras_of_another_line_is_reported_for_2_15() -> None:
    facts = f.facts(packages=(*f.packages(), f.pkg("tf-keras", "2.16.0")))
    found = judge(check_dependency_pins, facts)
    assert [(x.severity, "tf-keras 2.16.0" in x.summary) for x in found] == [
        (Severity.WARNING, True)
    ]


@pytest.mark.parametrize(
    ("tf", "extra", "expected"),
    [
        pytest.param("2.17.0", (), True, id="keras3-line-without-tf-keras"),
        pytest.param("2.17.0", (f.pkg("tf-keras", "2.17.0"),), False, id="tf-keras-installed"),
        pytest.param("2.15.1", (), False, id="keras2-line"),
    ],
)
def test_a_package_written_for_keras_2_needs_tf_keras_on_a_keras_3_line(
    tf: str, extra: tuple[PackageFacts, ...], expected: bool
) -> None:
    keras = "3.5.0" if tf >= "2.16" else "2.15.0"
    packages = installed(tf, extra=(f.pkg("keras", keras), f.pkg("deepface", "0.0.93"), *extra))
    facts = f.facts(python=PY312, packages=packages, tensorflow=tf_build(tf, "12.3", "8"))
    found = [x for x in judge(check_dependency_pins, facts) if x.cause == "tf-keras-missing"]
    assert bool(found) is expected, found
    if expected:
        (finding,) = found
        assert finding.severity is Severity.ERROR and "deepface 0.0.93" in finding.summary
        assert finding.fix is not None
        assert any('"tf-keras' in c and "2.17" in c for c in finding.fix.commands)
        assert any("serengil/deepface" in link for link in finding.links)
        # The fix, applied, clears the cause.
        fixed = dataclasses.replace(facts, packages=(*packages, f.pkg("tf-keras", "2.17.1")))
        assert not [x for x in judge(check_dependency_pins, fixed) if x.cause == "tf-keras-missing"]


@pytest.mark.parametrize(
    ("tf", "keras", "transformers", "extra", "expected"),
    [
        pytest.param("2.17.0", "3.5.0", "4.45.2", (), True, id="tf-side-refuses-keras3"),
        pytest.param("2.17.0", "3.5.0", "4.38.0", (), True, id="first-release-that-refuses"),
        pytest.param("2.17.0", "3.5.0", "4.37.2", (), False, id="before-the-refusal"),
        pytest.param("2.17.0", "3.5.0", "5.0.0", (), False, id="no-tensorflow-side"),
        pytest.param(
            "2.17.0", "3.5.0", "4.45.2", (f.pkg("tf-keras", "2.17.0"),), False, id="tf-keras"
        ),
        pytest.param("2.17.0", "2.15.0", "4.45.2", (), False, id="keras-2-package"),
        pytest.param("2.15.1", "2.15.0", "4.45.2", (), False, id="keras2-line"),
    ],
)
def test_a_library_refusing_keras_3_on_its_tensorflow_side_warns_without_tf_keras(
    tf: str, keras: str, transformers: str, extra: tuple[PackageFacts, ...], expected: bool
) -> None:
    # transformers' TF side (4.38 to 4.x) refuses a keras package of major 3 or more as its
    # TF models load; `import transformers` itself works, hence a warning, not an error.
    packages = installed(
        tf, extra=(f.pkg("keras", keras), f.pkg("transformers", transformers), *extra)
    )
    facts = f.facts(python=PY312, packages=packages, tensorflow=tf_build(tf, None, None))
    found = [x for x in judge(check_dependency_pins, facts) if x.cause == "tf-keras-missing"]
    assert bool(found) is expected, found
    if expected:
        (finding,) = found
        assert finding.severity is Severity.WARNING
        assert f"transformers {transformers}" in finding.summary
        assert finding.fix is not None
        assert any('"tf-keras' in c and "2.17" in c for c in finding.fix.commands)
        assert any("huggingface/transformers" in link for link in finding.links)


def test_a_library_failing_on_import_keeps_the_missing_tf_keras_an_error() -> None:
    # One failing as it is imported (deepface) beside one failing on use: the error wins.
    extra = (f.pkg("keras", "3.5.0"), f.pkg("transformers", "4.45.2"), f.pkg("deepface", "0.0.93"))
    facts = f.facts(
        python=PY312,
        packages=installed("2.17.0", extra=extra),
        tensorflow=tf_build("2.17.0", None, None),
    )
    [finding] = [x for x in judge(check_dependency_pins, facts) if x.cause == "tf-keras-missing"]
    assert finding.severity is Severity.ERROR
    assert "deepface 0.0.93" in finding.summary and "transformers 4.45.2" in finding.summary


def test_the_keras_2_users_table_is_validated() -> None:
    text = DEFAULT_COMPANIONS.read_text(encoding="utf-8")
    assert parse_companions(text, "c.yaml").keras2_users["deepface"].sources
    twice = text.replace("  - name: retina-face\n", "  - name: deepface\n", 1)
    with pytest.raises(MatrixError, match="duplicate package"):
        parse_companions(twice, "c.yaml")
    unsourced = text.replace("source: retinaface-package-utils", "source: nowhere", 1)
    with pytest.raises(MatrixError, match="nowhere"):
        parse_companions(unsourced, "c.yaml")
    when = text.replace("    fails_at: use\n", "    fails_at: later\n", 1)
    with pytest.raises(MatrixError, match="fails_at"):
        parse_companions(when, "c.yaml")


def test_the_standalone_keras_rows_are_validated() -> None:
    text = DEFAULT_COMPANIONS.read_text(encoding="utf-8")
    keras = parse_companions(text, "c.yaml").standalone_keras
    assert keras is not None and keras.releases and all(r.tensorflow for r in keras.releases)
    unsorted = text.replace(
        '{release: "2.4", tensorflow: "<2.5,>=2.2"', '{release: "2.1.9", tensorflow: "<2.5"'
    )
    with pytest.raises(MatrixError, match="standalone_keras"):
        parse_companions(unsorted, "c.yaml")
    unsourced = text.replace(
        "source: [keras-init-2.4.0, tensorflow-2.5-keras-nightly]", "source: x"
    )
    with pytest.raises(MatrixError, match="standalone_keras"):
        parse_companions(unsourced, "c.yaml")


def test_what_tensorflow_requires_of_a_companion_is_validated() -> None:
    text = DEFAULT_COMPANIONS.read_text(encoding="utf-8")
    need = parse_companions(text, "c.yaml").companions["tensorflow-io-gcs-filesystem"]
    # The 2.7 and 2.8 wheels require the plug-in too, with floors of their own.
    rows = [need.required_by(v) for v in ("2.7.4", "2.8.0", "2.15.1")]
    assert [(r.spec, r.sources) if r is not None else None for r in rows] == [
        (">=0.21.0", ("tf-2.7-setup-gcs-plugin",)),
        (">=0.23.0", ("tf-2.8-gcs-plugin-floor",)),
        (">=0.23.1", ("tf-setup-gcs-plugin",)),
    ]
    assert need.required_by("2.6.5") is None and need.required_by("2.20.0") is None
    bad = text.replace('- {range: ">=0.23.1", tensorflow', '- {range: "0.23.1", tensorflow', 1)
    assert bad != text
    with pytest.raises(MatrixError, match=r"required_by_tensorflow\[2\]\.range"):
        parse_companions(bad, "c.yaml")
    unsourced = text.replace("source: [tf-setup-gcs-plugin]", "source: [nowhere]", 1)
    with pytest.raises(MatrixError, match="nowhere"):
        parse_companions(unsourced, "c.yaml")


def test_a_gpu_the_line_is_known_to_fail_on_is_an_error() -> None:
    # RTX 50 series (12.0) with 2.20: the PTX should JIT, but reported runs fail to load it.
    facts = f.facts(
        python=PY312,
        packages=installed("2.20.0"),
        tensorflow=tf_build("2.20.0", "12.5", "9"),
        driver=f.driver(driver_version="570.86.15", gpus=(RTX5090,)),
    )
    [finding] = judge(check_compute_capability, facts)
    assert finding.severity is Severity.ERROR
    assert "known to fail" in finding.summary and "CUDA_ERROR_INVALID_PTX" in finding.detail
    assert finding.fix is not None
    # The failure is on the PTX path, which every release takes on this GPU (none carries
    # sm_120 code): an older release not reported failing is no fix; the container is.
    assert finding.fix.commands == (
        "docker run --gpus all -it --rm nvcr.io/nvidia/tensorflow:25.02-tf2-py3",
    )
    assert "No TensorFlow release on PyPI carries machine code" in finding.fix.text
    assert MATRIX.line_for("2.20.0") is not None
    assert "12.0" in MATRIX.line_for("2.20.0").known_gpu_failures  # type: ignore[union-attr]


def test_a_known_failure_on_the_ptx_path_offers_a_release_with_machine_code() -> None:
    # Planted: 2.12 (machine code up to sm_80, compute_80 PTX) known to fail on an H100 (9.0),
    # and the newest line without sm_90 code. The fix skips that PTX-only line for the newest
    # with machine code for the GPU.
    text = f.FIXTURE_MATRIX_PATH.read_text(encoding="utf-8")
    head, rest = text.split('  - line: "2.12"\n', 1)
    rest = rest.replace(
        "    cuda_install:", '    known_gpu_failures:\n      "9.0": "planted"\n    cuda_install:', 1
    ).replace("    sources:\n", "    sources:\n      known_gpu_failures: tf-issue-111958\n", 1)
    top, lines = head.split("\ntensorflow:\n", 1)
    newest, older = lines.split('\n  - line: "2.20"', 1)
    newest = newest.replace(
        "sass: [sm_60, sm_70, sm_80, sm_89, sm_90]\n      ptx: [compute_90]",
        "sass: [sm_60, sm_70, sm_80, sm_89]\n      ptx: [compute_80]",
    )
    head = f'{top}\ntensorflow:\n{newest}\n  - line: "2.20"{older}'
    matrix = parse_matrix(head + '  - line: "2.12"\n' + rest, "planted.yaml")
    facts = f.facts(
        packages=installed("2.12.1"),
        tensorflow=tf_build("2.12.1", "11.8", "8"),
        driver=f.driver(driver_version="570.86.15", gpus=(H100,)),
    )
    [finding] = judge(check_compute_capability, facts, matrix)
    assert finding.cause == "gpu-known-failure", finding
    assert finding.fix is not None
    line_220 = matrix.line_for("2.20")
    assert line_220 is not None
    assert f'tensorflow[and-cuda]=={line_220.latest_patch}"' in finding.fix.commands[0]


def test_protobuf_4_under_a_release_that_caps_it_below_4_is_an_error() -> None:
    tf29 = f.pkg(
        "tensorflow",
        "2.9.3",
        "protobuf<3.20,>=3.9.2",
        "tensorboard<2.10,>=2.9",
        top_level=("tensorflow",),
    )
    facts = f.facts(
        packages=(tf29, f.pkg("numpy", "1.23.5"), f.pkg("protobuf", "4.21.12")),
        tensorflow=f.tensorflow(status="skipped", version=None, cuda_version=None),
    )
    found = [x for x in judge(check_dependency_pins, facts) if x.cause]
    assert [(x.cause, x.severity) for x in found] == [("protobuf-incompatible", Severity.ERROR)]
    assert found[0].fix is not None
    assert found[0].fix.commands == (f'{PIP} install "protobuf<3.20,>=3.9.2"',)


@pytest.mark.parametrize(
    ("protobuf", "imported", "verdict"),
    [
        pytest.param("3.20.2", False, ("protobuf-incompatible", Severity.ERROR), id="below-static"),
        pytest.param("5.26.1", False, ("protobuf-incompatible", Severity.ERROR), id="above-static"),
        # The import ran and worked: protobuf-incompatible's claim is refuted (a note), the
        # declared range is still broken, which is the range's own cause.
        pytest.param("3.20.2", True, ("dependency-out-of-range", Severity.WARNING), id="below"),
        pytest.param("5.26.1", True, ("dependency-out-of-range", Severity.WARNING), id="above"),
    ],
)
def test_protobuf_out_of_tensorflows_range_is_protobufs_cause_until_the_import_works(
    protobuf: str, imported: bool, verdict: tuple[str, Severity]
) -> None:
    # A converter pinning protobuf~=3.20.2 (as tf2onnx 1.16 does) let pip keep 3.20.2 under
    # TensorFlow 2.15's >=3.20.3: the cause explain gives pip's notice on protobuf where no
    # working import refutes it, and a fix that names a protobuf both ranges admit.
    converter = f.pkg("tf2onnx", "1.16.0", "protobuf~=3.20.2")
    tf = None if imported else f.tensorflow(status="skipped", version=None, cuda_version=None)
    extra = {} if tf is None else {"tensorflow": tf}
    facts = f.facts(packages=f.packages(converter, f.pkg("protobuf", protobuf)), **extra)
    found = [x for x in judge(check_dependency_pins, facts) if x.cause]
    assert [(x.cause, x.severity) for x in found] == [verdict]
    assert found[0].fix is not None
    assert "~=3.20.2" in found[0].fix.commands[0] and ">=3.20.3" in found[0].fix.commands[0]
    # Inside the range: nothing to say.
    fine = f.facts(packages=f.packages(converter, f.pkg("protobuf", "3.20.3")), **extra)
    assert not [x for x in judge(check_dependency_pins, fine) if x.cause]


def test_protobuf_above_a_cap_whose_code_it_loads_is_not_protobuf_incompatible() -> None:
    # 3.20.3 under TensorFlow 2.10's <3.20 (static: the import was not run): the runtime loads
    # the older generated code (causes.software.protobuf_above_cap_loads), so the declared
    # range is what is broken, not the code's protobuf; a note, as where the import ran: that
    # knowledge is evidence beside the declaration, and a healthy machine stays healthy when
    # judged without its import.
    tf210 = f.pkg("tensorflow", "2.10.1", "protobuf<3.20,>=3.9.2", top_level=("tensorflow",))
    facts = f.facts(
        packages=(tf210, f.pkg("numpy", "1.23.5"), f.pkg("protobuf", "3.20.3")),
        tensorflow=f.tensorflow(status="skipped", version=None, cuda_version=None),
    )
    found = [x for x in judge(check_dependency_pins, facts) if x.cause and "protobuf" in x.summary]
    assert [(x.cause, x.severity) for x in found] == [("dependency-out-of-range", Severity.INFO)]


def _family_verdicts(*extra: PackageFacts) -> list[tuple[str, Severity, str, str]]:
    """check_dependency_pins on TensorFlow 2.15.1 beside ``extra``: (cause, severity, summary,
    fix command) of each finding with a cause."""
    facts = f.facts(packages=f.packages(*extra))
    return [
        (x.cause, x.severity, x.summary, x.fix.commands[0] if x.fix and x.fix.commands else "")
        for x in judge(check_dependency_pins, facts)
        if x.cause
    ]


def test_a_range_tensorflows_family_declares_is_judged_like_tensorflows() -> None:
    # TensorBoard requires werkzeug>=1.0.1 (its setup.py); an older one is what pip check
    # reports, on the package that states the range.
    board = f.pkg("tensorboard", "2.15.2", "werkzeug>=1.0.1", "protobuf<5.0.0dev,>=3.19.6")
    [(cause, severity, summary, command)] = _family_verdicts(board, f.pkg("werkzeug", "0.16.1"))
    assert (cause, severity) == ("dependency-out-of-range", Severity.WARNING)
    assert "werkzeug 0.16.1" in summary and "tensorboard 2.15.2" in summary
    assert command.endswith('install "werkzeug>=1.0.1"')
    # Inside the range, or a library outside TensorFlow's family: nothing.
    assert not _family_verdicts(board, f.pkg("werkzeug", "3.0.1"))
    library = f.pkg("scipy", "1.13.1", "numpy<2.3,>=1.22.4")
    assert not _family_verdicts(library, f.pkg("werkzeug", "3.0.1"))


def test_protobuf_past_what_a_family_packages_code_was_generated_for() -> None:
    # tensorflow-metadata 1.13 caps protobuf below 4: protobuf 4.21+ refuses its generated
    # code ("Descriptors cannot be created directly"), though TensorFlow 2.15's range admits it.
    metadata = f.pkg("tensorflow-metadata", "1.13.1", "protobuf<4,>=3.20.3")
    [(cause, severity, _, command)] = _family_verdicts(metadata, f.pkg("protobuf", "4.25.3"))
    # TensorFlow's import ran and worked (the factory's default): it does not load this
    # package's code, so the range's own cause, still an error.
    assert (cause, severity) == ("dependency-out-of-range", Severity.ERROR)
    assert "<4" in command and ">=3.20.3" in command and "!=4.21.0" in command
    # Above a cap that still loads the code (3.20.3 under TensorBoard 2.10's <3.20): pip's
    # notice only.
    board = f.pkg("tensorboard", "2.15.2", "protobuf<3.20,>=3.9.2")
    assert not _family_verdicts(board, f.pkg("protobuf", "3.20.3"))


@pytest.mark.parametrize(
    "library",
    [
        # TFX's and TensorFlow Federated's releases, on TensorFlow but not released beside
        # it (the module table's on_tensorflow rows): their pins are their own business.
        f.pkg("tensorflow-data-validation", "1.14.0", "pyarrow<11,>=10"),
        f.pkg("tensorflow-transform", "1.14.0", "pyarrow<11,>=10"),
        f.pkg("tensorflow-federated", "0.61.0", "pyarrow<11,>=10"),
        f.pkg("tensorflow-serving-api", "2.15.1", "pyarrow<11,>=10"),
    ],
    ids=lambda p: p.name,
)
def test_a_library_on_tensorflow_named_tensorflow_is_not_its_family(library: Any) -> None:
    assert not causes.software.tensorflow_family(library.name)
    # Its pyarrow pin is no verdict (its release's own TensorFlow, which the companion table
    # pairs with it, is judged apart: tensorflow-federated 0.61 is for TensorFlow 2.12).
    verdicts = _family_verdicts(library, f.pkg("pyarrow", "14.0.2"))
    assert not [v for v in verdicts if "pyarrow" in v[2] or v[0] != "companion-mismatch"]


def test_a_library_on_tensorflow_pinning_a_dependency_exactly_reads_as_explain_reads_it() -> None:
    # deepctr 0.9.3 declares h5py==3.7.0; pip check reports it beside h5py 3.11.0, and so
    # does explain of pip's notice: the same cause, and the same fix, naming the library.
    library = f.pkg("deepctr", "0.9.3", "h5py==3.7.0")
    facts = f.facts(packages=f.packages(library, f.pkg("h5py", "3.11.0")))
    [found] = [x for x in judge(check_dependency_pins, facts) if x.cause == "library-pin-conflicts"]
    assert found.severity is Severity.WARNING
    assert found.summary == "deepctr 0.9.3 pins h5py==3.7.0; h5py 3.11.0 is installed"
    notice = (
        "ERROR: pip's dependency resolver does not currently take into account all the packages "
        "that are installed. This behaviour is the source of the following dependency "
        "conflicts.\ndeepctr 0.9.3 requires h5py==3.7.0, but you have h5py 3.11.0 which is "
        "incompatible.\n"
    )
    [said] = [x for x in explained(notice).findings if x.cause == "library-pin-conflicts"]
    assert found.fix is not None and said.fix is not None
    assert found.fix.text == said.fix.text
    # The detail's sentence on the pin is one sentence, written once (causes.software).
    pin = causes.software.library_pin_detail("deepctr 0.9.3", "h5py")
    assert found.detail == pin and said.detail.endswith(pin)
    # The pin met, a range rather than a pin, or a library not written on TensorFlow: nothing.
    for other in (
        f.pkg("h5py", "3.7.0"),
        f.pkg("deepctr", "0.9.3", "h5py<3.8"),
        f.pkg("requests-cache", "1.0.0", "h5py==3.7.0"),
    ):
        pair = (library, other) if other.name == "h5py" else (other, f.pkg("h5py", "3.11.0"))
        facts = f.facts(packages=f.packages(*pair))
        assert not [
            x for x in judge(check_dependency_pins, facts) if x.cause == "library-pin-conflicts"
        ]


def test_the_family_by_the_module_table_or_tensorflows_namespace() -> None:
    family = ("tensorflow-datasets", "tensorboard", "tb-nightly", "tensorflow-metadata")
    assert all(causes.software.tensorflow_family(d) for d in family)
    assert not causes.software.tensorflow_family("tf-models-official")


def test_a_family_packages_protobuf_range_without_an_import_is_worded_for_any_package() -> None:
    # tensorflow-metadata 1.13 declares protobuf<4 (its generated code needs it), which
    # TensorFlow 2.15's own range does not; where no import ran, the cause is protobuf's
    # range, and its words must not claim that TensorFlow's is the one broken.
    metadata = f.pkg("tensorflow-metadata", "1.13.1", "protobuf<4,>=3.20.3")
    facts = f.facts(
        packages=f.packages(metadata, f.pkg("protobuf", "4.25.3")),
        tensorflow=f.tensorflow(status="skipped"),
    )
    found = [x for x in judge(check_dependency_pins, facts) if x.cause and "protobuf" in x.summary]
    assert [x.cause for x in found] == ["protobuf-incompatible"]
    assert "tensorflow-metadata 1.13.1" in found[0].summary
    assert "TensorFlow" not in causes.CAUSES["protobuf-incompatible"].title


def test_keras_of_another_line_under_a_release_that_ships_with_its_own() -> None:
    tf26 = f.pkg("tensorflow", "2.6.5", "keras<2.7,>=2.6.0rc3", top_level=("tensorflow",))
    facts = f.facts(
        packages=(tf26, f.pkg("numpy", "1.19.5"), f.pkg("keras", "2.11.0")),
        python=f.python(version="3.9.18"),
        tensorflow=f.tensorflow(status="skipped", version=None, cuda_version=None),
    )
    found = [x for x in judge(check_dependency_pins, facts) if x.cause == "keras-version"]
    assert len(found) == 1  # the range finding, not a second one for the same cause
    assert found[0].fix is not None
    loose = dataclasses.replace(tf26, requires=("keras~=2.6",))
    assert facts.packages is not None
    facts = dataclasses.replace(facts, packages=(loose, *facts.packages[1:]))
    (finding,) = [x for x in judge(check_dependency_pins, facts) if x.cause == "keras-version"]
    assert "is not the Keras of TensorFlow 2.6" in finding.summary
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install "keras==2.6.*"',)


def _and_cuda_commands(facts: Facts, matrix: Matrix) -> list[str]:
    """Every command of every finding's fix that installs a CUDA extra."""
    found = run_checks(CheckContext(facts, matrix))
    return [c for x in found if x.fix for c in x.fix.commands if "[and-cuda]" in c]


@pytest.mark.parametrize(
    ("matrix", "version"),
    [
        pytest.param(MATRIX, "2.21.0", id="2.21"),
        pytest.param(load_matrix(env={}), "2.22.0rc0", id="2.22-pre-release"),
    ],
)
def test_native_windows_is_never_told_to_install_the_cuda_extra(
    matrix: Matrix, version: str
) -> None:
    # The win_amd64 wheels of 2.21 and 2.22 still declare the and-cuda extra, unmarked
    # (tests/data/pypi/metadata/tensorflow-*-windows.METADATA): there it would fetch CUDA
    # wheels for a CPU build that never loads them.
    requires = tuple(
        line.split(": ", 1)[1]
        for line in (METADATA / f"tensorflow-{version}-windows.METADATA")
        .read_text("utf-8")
        .splitlines()
        if line.startswith("Requires-Dist: ")
    )
    cpu_build = f.cpu_build(version)
    tf_pkg = f.pkg("tensorflow", version, *requires, top_level=("tensorflow",))
    windows = f.facts(
        platform=WINDOWS,
        python=WIN_PYTHON,
        packages=(tf_pkg, f.pkg("numpy", "2.1.0")),
        tensorflow=cpu_build,
        cuda_libs=f.cuda_libs(),
    )
    missing = CudaLibsFacts(
        cuda_major=12,
        cudnn_major=9,
        libraries=tuple(f.lib(n, f"lib{n}.so") for n in ("cudart", "cublas", "cudnn")),
    )
    assert _and_cuda_commands(dataclasses.replace(windows, cuda_libs=missing), matrix) == []
    # Beside the removed tensorflow-gpu package, whose fix reinstalls the kept release.
    stub = f.pkg("tensorflow-gpu", "2.12.0", top_level=("tensorflow",))
    assert windows.packages is not None
    both = dataclasses.replace(windows, packages=(*windows.packages, stub))
    assert _and_cuda_commands(both, matrix) == []
    # The same release on Linux without its CUDA libraries is told to install them so.
    linux = f.facts(
        packages=(tf_pkg, f.pkg("numpy", "2.1.0")),
        tensorflow=f.tensorflow(
            version=version,
            cuda_version="12.5.1",
            cudnn_version="9",
            devices=(DeviceFacts("/physical_device:CPU:0", "CPU"),),
        ),
        cuda_libs=missing,
    )
    assert any(f"tensorflow[and-cuda]=={version}" in c for c in _and_cuda_commands(linux, matrix))


@pytest.mark.parametrize(
    ("value", "legacy"),
    [("1", True), ("true", True), ("True", True), ("yes", False), ("TRUE", False), (" 1", False)],
)
def test_the_legacy_switch_is_read_as_tensorflow_reads_it(value: str, legacy: bool) -> None:
    # tensorflow/__init__.py: os.environ.get("TF_USE_LEGACY_KERAS", None) in ("true", "True", "1")
    from tfdoctor.machine import Machine

    machine = Machine(f.facts(environment={"TF_USE_LEGACY_KERAS": value}), f.FIXTURE_MATRIX)
    assert machine.legacy_keras is legacy


def _keras_verdicts(tf: PackageFacts, keras: str, python: str = "3.7.9") -> list[Finding]:
    """The keras-version findings of the pins check for ``tf`` beside keras ``keras``."""
    facts = f.facts(
        packages=(tf, f.pkg("numpy", "1.18.5"), f.pkg("keras", keras)),
        python=f.python(version=python),
        tensorflow=f.tensorflow(status="skipped", version=None, cuda_version=None),
    )
    return [x for x in judge(check_dependency_pins, facts) if x.cause == "keras-version"]


def _old_tf(version: str) -> PackageFacts:
    """A TensorFlow from before its wheel required a keras."""
    return f.pkg("tensorflow", version, "numpy>=1.16", top_level=("tensorflow",))


@pytest.mark.parametrize(
    ("tf_version", "keras_version", "release"),
    [
        pytest.param("1.15.3", "2.4.3", "2.3", id="keras-2.4-needs-tf-2.2"),
        pytest.param("2.3.1", "2.3.1", "2.4", id="keras-2.3-uses-tensorlike-gone-in-2.3"),
        pytest.param("2.1.4", "2.2.5", "2.3", id="keras-2.2-only-tf-1"),
        pytest.param("1.12.3", "2.4.3", "2.2", id="before-keras-2.3s-range"),
    ],
)
def test_standalone_keras_that_does_not_work_with_the_tensorflow_installed(
    tf_version: str, keras_version: str, release: str
) -> None:
    # Before 2.5 TensorFlow's wheel requires no keras, and these keras releases declare no
    # TensorFlow: pip installs any beside any, and the companion table's standalone_keras rows
    # are what judge the pair.
    (finding,) = _keras_verdicts(_old_tf(tf_version), keras_version)
    assert finding.severity == Severity.WARNING
    assert f"keras {keras_version} does not work with tensorflow {tf_version}" in finding.summary
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install "keras=={release}.*"',)
    # The fix, applied, installs a keras that works with this TensorFlow.
    assert not _keras_verdicts(_old_tf(tf_version), f"{release}.1")


@pytest.mark.parametrize(
    ("tf_version", "keras_version"),
    [
        pytest.param("2.3.1", "2.4.3", id="keras-2.4-on-tf-2.3"),
        pytest.param("1.15.3", "2.3.1", id="keras-2.3-on-tf-1.15"),
        pytest.param("1.15.3", "2.2.4", id="keras-2.2-on-tf-1.15"),
        pytest.param("2.4.1", "2.6.0", id="no-row-for-keras-2.6"),
    ],
)
def test_standalone_keras_that_works_with_the_tensorflow_installed_is_not_judged(
    tf_version: str, keras_version: str
) -> None:
    assert not _keras_verdicts(_old_tf(tf_version), keras_version)


def test_a_keras_tensorflow_requires_is_judged_by_that_requirement_alone() -> None:
    # TensorFlow 2.6 requires keras of its line: the standalone rows (keras 2.4 needs <2.5)
    # would say the same thing a second time.
    tf26 = f.pkg("tensorflow", "2.6.5", "keras<2.7,>=2.6.0rc3", top_level=("tensorflow",))
    (finding,) = _keras_verdicts(tf26, "2.4.3", python="3.9.18")
    assert "outside TensorFlow 2.6.5's range" in finding.summary


def _h5py_verdicts(tf: PackageFacts, h5py: str) -> list[Finding]:
    facts = f.facts(
        packages=(tf, f.pkg("numpy", "1.18.5"), f.pkg("h5py", h5py)),
        python=f.python(version="3.7.9"),
        tensorflow=f.tensorflow(status="skipped", version=None, cuda_version=None),
    )
    return [x for x in judge(check_dependency_pins, facts) if x.cause == "dependency-out-of-range"]


def test_a_range_the_line_needs_without_declaring_it_is_judged_like_its_pins() -> None:
    # TensorFlow 2.1.0's wheel declares no h5py; the line's later patches declare h5py<=2.10.0
    # (the matrix's undeclared_ranges): h5py 3 breaks its HDF5 loader, and pip check is silent.
    (finding,) = _h5py_verdicts(_old_tf("2.1.0"), "3.1.0")
    assert finding.severity == Severity.WARNING
    assert "does not declare" in finding.detail and "pip check` does not" in finding.detail
    assert finding.fix is not None
    assert finding.fix.commands == (f'{PIP} install "h5py<=2.10.0"',)
    assert not _h5py_verdicts(_old_tf("2.1.0"), "2.10.0")  # the fix applied
    # A patch that declares it is judged by its own declaration, worded so.
    declared = f.pkg("tensorflow", "2.1.4", "h5py<=2.10.0", top_level=("tensorflow",))
    (finding,) = _h5py_verdicts(declared, "3.1.0")
    assert "pip check` reports it too" in finding.detail
    # A line without such a range: nothing to judge.
    assert not _h5py_verdicts(_old_tf("2.2.0"), "3.1.0")


def _slim_verdicts(tf_version: str, slim: str) -> list[Finding]:
    tf = f.pkg("tensorflow", tf_version, top_level=("tensorflow",))
    facts = f.facts(
        packages=(tf, f.pkg("numpy", "1.18.5"), f.pkg("tf-slim", slim)),
        python=f.python(version="3.7.9"),
        tensorflow=f.tensorflow(status="skipped", version=None, cuda_version=None),
    )
    return [x for x in judge(check_dependency_pins, facts) if x.cause == "companion-mismatch"]


def test_tf_slim_before_its_contrib_free_release_under_tensorflow_2_is_judged() -> None:
    # tf-slim declares no TensorFlow; 1.0 imports tensorflow.contrib (gone in 2.0), 1.1 does not.
    (finding,) = _slim_verdicts("2.1.0", "1.0")
    assert finding.fix is not None and any('"tf-slim==1.1.*"' in c for c in finding.fix.commands)
    assert not _slim_verdicts("2.1.0", "1.1.0")  # the fix applied: nothing to judge
    assert not _slim_verdicts("1.14.0", "1.0")  # TensorFlow 1 has contrib


def _itex_verdicts(tf_version: str, itex: str) -> list[Finding]:
    tf = f.pkg("tensorflow", tf_version, top_level=("tensorflow",))
    facts = f.facts(
        packages=(tf, f.pkg("intel-extension-for-tensorflow", itex)),
        python=f.python(version="3.10.12"),
        tensorflow=f.tensorflow(status="skipped", version=None, cuda_version=None),
    )
    return [x for x in judge(check_dependency_pins, facts) if x.cause == "companion-mismatch"]


def test_intels_plugin_is_judged_by_the_tensorflow_its_release_names() -> None:
    # 1.1.0 declares only tensorflow>=2.10; its README installs 2.11.0 or 2.10.0 beside it.
    (finding,) = _itex_verdicts("2.12.0", "1.1.0")
    assert finding.fix is not None
    assert any('"intel-extension-for-tensorflow==1.2.*"' in c for c in finding.fix.commands)
    assert not _itex_verdicts("2.11.0", "1.1.0")
    # From 2.13.0.0 the wheel pins its line: a four-part release is read by its line.
    assert _itex_verdicts("2.14.0", "2.13.0.0")
    assert not _itex_verdicts("2.14.1", "2.14.0.2")


def test_a_python_error_of_tensorflows_own_code_is_not_a_wheel_of_another_python() -> None:
    # TensorFlow 2.11.1 on Python 3.7 (no such wheel), whose import stopped in its Python
    # code on a NumPy too new: its compiled extensions loaded, so no error for the wheel; the
    # import failure's own reading names the NumPy, TensorFlow's code being what the probe ran.
    failed = f.tensorflow(
        status="import-error",
        version="2.11.1",
        error_type="AttributeError",
        error_message="module 'numpy' has no attribute 'object'.",
        devices=(),
    )
    facts = f.facts(
        python=f.python(version="3.7.17"), packages=installed("2.11.1"), tensorflow=failed
    )
    [wheels] = judge(check_python_wheels, facts)
    assert wheels.severity is Severity.WARNING
    found = run_checks(CheckContext(facts, MATRIX))
    imported = next(x for x in found if x.id == "tensorflow.import")
    assert imported.cause == "dependency-out-of-range"
    assert "numpy<1.24" in " ".join(imported.fix.commands if imported.fix else ())
    # A loader's error is what another Python's files raise: an error for the wheel.
    crashed = dataclasses.replace(failed, error_type="ImportError", error_message="DLL load")
    [wheels] = judge(check_python_wheels, dataclasses.replace(facts, tensorflow=crashed))
    assert wheels.severity is Severity.ERROR


def test_a_probe_that_timed_out_says_nothing_of_the_wheels_python() -> None:
    slow = f.tensorflow(status="timeout", version="2.11.1", devices=())
    facts = f.facts(
        python=f.python(version="3.7.17"), packages=installed("2.11.1"), tensorflow=slow
    )
    [wheels] = judge(check_python_wheels, facts)
    assert wheels.severity is Severity.WARNING


@pytest.mark.parametrize(
    ("platform", "cause"),
    [
        # Windows' wheels, from the first release with any (0.12.0), are for Python 3.5 and
        # later: the shipped matrix's early releases say so.
        pytest.param(WINDOWS, "tf-no-wheel-for-python", id="windows"),
        # Linux's early releases had Python 2.7 wheels: one still installs there.
        pytest.param(None, "tf-not-installed", id="linux"),
    ],
)
def test_a_python_older_than_every_line_s_is_judged_by_the_early_releases(
    platform: Optional[PlatformFacts], cause: str
) -> None:
    facts = f.facts(python=f.python(version="2.7.18"), packages=(), tensorflow=None)
    if platform is not None:
        facts = dataclasses.replace(facts, platform=platform)
    found = [
        x
        for x in run_checks(CheckContext(facts, open_matrix(None)))
        if x.id == "packages.tensorflow"
    ]
    assert [x.cause for x in found] == [cause]
