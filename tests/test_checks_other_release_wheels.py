"""NVIDIA wheels of another CUDA (or cuDNN) major than the build's: they are not the build's
wheels off the loader's path, and the fix installs the build's own, read from the wheel's
and-cuda requirements; with the near misses (the build's own wheels present, a release whose
extra finds its wheels) and the fix applied to the facts."""

from __future__ import annotations

import dataclasses
import shlex

import pytest

from tests import factories as f
from tfdoctor.checks import CHECKS, run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.checks.cuda import check_cuda_libraries
from tfdoctor.cuda_layout import libraries_in, wheel_cuda_major, wheel_dir, wheels_share_files
from tfdoctor.env.settings import environment_settings
from tfdoctor.facts import DeviceFacts, Facts, LibraryCandidate, PackageFacts, normalize_name
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import view
from tfdoctor.matrix import load_matrix

MATRIX = load_matrix()

#: The library causes a missing CUDA library is reported under.
_LIBRARY_CAUSES = ("cuda-libs-missing", "cuda-wheels-unfound", "cuda-libs-off-path")
_SEVERE = (Severity.WARNING, Severity.ERROR)


def _dir(sub: str) -> str:
    return f"{f.SITE}/nvidia/{sub}/lib"


def _requires(major: int) -> tuple[str, ...]:
    """A CUDA build's and-cuda requirements, of CUDA ``major``'s wheels."""
    return (
        "numpy<2.0.0,>=1.23.5",
        f'nvidia-cublas-cu{major}=={major}.3.4.1; extra == "and-cuda"',
        f'nvidia-cuda-runtime-cu{major}=={major}.3.101; extra == "and-cuda"',
        f'nvidia-cudnn-cu{major}==8.9.7.29; extra == "and-cuda"',
    )


def _wheels(major: int) -> tuple[PackageFacts, ...]:
    return (
        f.pkg(f"nvidia-cublas-cu{major}", f"{major}.1.3.1"),
        f.pkg(f"nvidia-cuda-runtime-cu{major}", f"{major}.8.89"),
        f.pkg(f"nvidia-cudnn-cu{major}", "8.9.7.29"),
    )


def _machine(version: str, cuda: str, wheels_major: int) -> Facts:
    """TensorFlow ``version`` built for CUDA ``cuda`` (12.x), the nvidia-* wheels of CUDA
    ``wheels_major`` installed with their directories on LD_LIBRARY_PATH; the CUDA 12
    runtime and cuBLAS not found, cuDNN 8 found there."""
    dirs = ":".join(_dir(d) for d in ("cublas", "cuda_runtime", "cudnn"))
    cudnn = LibraryCandidate(
        _dir("cudnn") + "/libcudnn.so.8", "LD_LIBRARY_PATH", "8.9.7", "call", True
    )
    driver = LibraryCandidate(
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "ldconfig", "12.4", "call", True
    )
    return f.facts(
        packages=(
            f.pkg("tensorflow", version, *_requires(12), top_level=("tensorflow",)),
            f.pkg("numpy", "1.26.4"),
            *_wheels(wheels_major),
        ),
        cuda_libs=f.cuda_libs(
            f.lib("cudart", "libcudart.so.12"),
            f.lib("cublas", "libcublas.so.12"),
            f.lib("cudnn", "libcudnn.so.8", cudnn),
            f.lib("cuda", "libcuda.so.1", driver),
        ),
        tensorflow=f.tensorflow(
            version=version,
            cuda_version=cuda,
            build_info={"cuda_version": cuda, "cudnn_version": "8", "is_cuda_build": "True"},
            devices=(DeviceFacts("/physical_device:CPU:0", "CPU"),),
        ),
        environment={"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": dirs},
    )


def _library_finding(facts: Facts) -> Finding:
    found = [
        x
        for x in run_checks(CheckContext(facts, MATRIX), CHECKS)
        if x.id == "cuda.libraries" and x.severity in _SEVERE
    ]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(
    ("dist", "major"),
    [
        pytest.param("nvidia-cublas-cu11", 11, id="cu11"),
        pytest.param("nvidia-cudnn-cu12", 12, id="cu12"),
        pytest.param("nvidia-cublas", None, id="unsuffixed"),
        pytest.param("nvidia-cuda-nvcc-cuda", None, id="not-a-major"),
    ],
)
def test_a_wheels_cuda_major_is_its_suffix(dist: str, major: int | None) -> None:
    assert wheel_cuda_major(dist) == major


def test_wheels_of_another_cuda_major_are_not_the_builds_off_the_path() -> None:
    """TF 2.16.1 (CUDA 12, its own wheels unfound by it) beside CUDA 11's wheels only."""
    found = _library_finding(_machine("2.16.1", "12.3", 11))
    assert found.cause == "cuda-libs-missing"
    assert found.fix is not None
    assert "cu11" not in found.fix.text
    assert "CUDA 11's" in found.fix.text
    # The build's own pins, read from its requirements; their directories are on the path.
    assert any(
        "nvidia-cublas-cu12==12.3.4.1" in c and "nvidia-cuda-runtime-cu12==12.3.101" in c
        for c in found.fix.commands
    ), found.fix.commands
    assert not [c for c in found.fix.commands if "LD_LIBRARY_PATH" in c]
    assert "LD_LIBRARY_PATH names them already" in found.fix.text


def test_the_path_line_comes_where_the_path_lacks_the_builds_directories() -> None:
    facts = _machine("2.16.1", "12.3", 11)
    facts = dataclasses.replace(facts, environment={"PATH": "/usr/bin:/bin"})
    found = _library_finding(facts)
    assert found.cause == "cuda-libs-missing"
    assert found.fix is not None
    assert [c for c in found.fix.commands if c.startswith("export LD_LIBRARY_PATH=")]


def test_the_path_line_adds_only_the_directories_the_path_lacks() -> None:
    facts = _machine("2.16.1", "12.3", 11)
    env = {"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": f"{_dir('cuda_runtime')}/:{_dir('cudnn')}"}
    found = _library_finding(dataclasses.replace(facts, environment=env))
    assert found.fix is not None
    lines = [c for c in found.fix.commands if c.startswith("export LD_LIBRARY_PATH=")]
    assert len(lines) == 1
    assert _dir("cublas") in lines[0]
    assert _dir("cuda_runtime") not in lines[0]


def test_a_release_whose_extra_finds_its_wheels_gets_the_extra() -> None:
    found = _library_finding(_machine("2.15.1", "12.2", 11))
    assert found.cause == "cuda-libs-missing"
    assert found.fix is not None
    assert any("tensorflow[and-cuda]==2.15.1" in c for c in found.fix.commands)
    assert "cu11" not in found.fix.text


def test_the_builds_own_wheels_off_its_search_stay_unfound() -> None:
    """The near miss: the CUDA 12 wheels themselves, which 2.16.1 does not search."""
    facts = _machine("2.16.1", "12.3", 12)
    facts = dataclasses.replace(facts, environment={"PATH": "/usr/bin:/bin"})
    assert _library_finding(facts).cause == "cuda-wheels-unfound"


@pytest.mark.parametrize(
    ("version", "other"),
    [
        pytest.param("9.1.0.70", True, id="cudnn-9-beside-a-cudnn-8-build"),
        pytest.param("8.9.4.25", False, id="cudnn-8"),
    ],
)
def test_a_cudnn_wheel_of_another_major_is_another_release(version: str, other: bool) -> None:
    facts = f.facts(packages=f.packages(f.pkg("nvidia-cudnn-cu12", version)))
    m = view(facts, MATRIX)
    assert bool(m.other_release_wheels) is other
    assert bool(m.build_cuda_wheels) is not other


def _after(facts: Facts, commands: tuple[str, ...]) -> Facts:
    """The facts after the fix: its pip installs applied, and the loader's reading of each
    missing library where a wheel of the build's CUDA major now holds it in a directory on
    LD_LIBRARY_PATH (the fix's export line first)."""
    installed = f.apply_pip(facts, commands, add_missing=True)
    assert installed is not None
    path = (facts.environment or {}).get("LD_LIBRARY_PATH", "").split(":")
    for command in commands:
        if command.startswith("export LD_LIBRARY_PATH="):
            words = shlex.split(command.removeprefix("export LD_LIBRARY_PATH="))
            path = [*words[0].split(":"), *path]
    on_path = {p.rstrip("/") for p in path if p}
    m = view(installed, MATRIX)
    major = int(m.build_cuda_major or 0)
    held = {
        sub
        for pkg in installed.packages or ()
        if wheel_cuda_major(normalize_name(pkg.name)) == major
        and (sub := wheel_dir(normalize_name(pkg.name), pkg.version)) is not None
        and _dir(sub) in on_path
    }
    libs = installed.cuda_libs
    assert libs is not None
    libraries = []
    for lib in libs.libraries:
        sub = next((s for s in sorted(held) if lib.name in libraries_in(s)), None)
        if lib.selected is None and sub is not None:
            found = LibraryCandidate(
                f"{_dir(sub)}/{lib.sonames[0]}", "LD_LIBRARY_PATH", f"{major}.3", "call", True
            )
            libraries.append(dataclasses.replace(lib, candidates=(found,), selected=0))
        else:
            libraries.append(lib)
    return dataclasses.replace(
        installed, cuda_libs=dataclasses.replace(libs, libraries=tuple(libraries))
    )


@pytest.mark.parametrize(
    ("version", "cuda", "path"),
    [
        pytest.param("2.16.1", "12.3", True, id="unfound-patch-path-set"),
        pytest.param("2.16.1", "12.3", False, id="unfound-patch-no-path"),
    ],
)
def test_the_fix_applied_removes_the_cause(version: str, cuda: str, path: bool) -> None:
    facts = _machine(version, cuda, 11)
    if not path:
        facts = dataclasses.replace(facts, environment={"PATH": "/usr/bin:/bin"})
    before = _library_finding(facts)
    assert before.fix is not None
    after = _after(facts, before.fix.commands)
    assert not [
        x
        for x in check_cuda_libraries(CheckContext(after, MATRIX))
        if x.cause in _LIBRARY_CAUSES and x.severity in _SEVERE
    ]


@pytest.mark.parametrize(
    ("wheels_major", "named"),
    [
        pytest.param(11, False, id="another-major"),
        pytest.param(12, True, id="the-builds-major"),
    ],
)
def test_env_puts_only_the_builds_wheels_on_the_path(wheels_major: int, named: bool) -> None:
    """`tfdoctor env`'s LD_LIBRARY_PATH names wheels in another site directory that serve the
    build, never those of another CUDA major."""
    user_site = "/home/u/.local/lib/python3.11/site-packages"
    facts = _machine("2.16.1", "12.3", wheels_major)
    packages = tuple(
        dataclasses.replace(p, location=user_site) if p.name.startswith("nvidia-") else p
        for p in facts.packages or ()
    )
    facts = dataclasses.replace(facts, packages=packages, environment={"PATH": "/usr/bin:/bin"})
    settings = {s.name: s.value for s in environment_settings(facts)}
    wheel = f"{user_site}/nvidia/cuda_runtime/lib"
    assert (wheel in settings.get("LD_LIBRARY_PATH", "")) is named


@pytest.mark.parametrize(
    ("one", "other", "shared"),
    [
        # cuDNN 8 for CUDA 11 and for CUDA 12: both libcudnn.so.8 in nvidia/cudnn/lib.
        (("nvidia-cudnn-cu11", "8.9.7.29"), ("nvidia-cudnn-cu12", "8.9.7.29"), True),
        (("nvidia-cudnn-cu12", "9.1.0.70"), ("nvidia-cudnn-cu13", "9.13.0.50"), True),
        (("nvidia-cudnn-cu11", "8.9.7.29"), ("nvidia-cudnn-cu12", "9.1.0.70"), False),
        # libcusolver.so.11 and libcurand.so.10 under CUDA 11 and 12 alike; NCCL's .so.2.
        (("nvidia-cusolver-cu11", "11.4.1.48"), ("nvidia-cusolver-cu12", "11.5.4.101"), True),
        (("nvidia-curand-cu11", "10.3.0.86"), ("nvidia-curand-cu12", "10.3.4.107"), True),
        (("nvidia-nccl-cu11", "2.19.3"), ("nvidia-nccl-cu12", "2.19.3"), True),
        # libcublas.so.11 beside libcublas.so.12; CUDA 13's in nvidia/cu13.
        (("nvidia-cublas-cu11", "11.11.3.6"), ("nvidia-cublas-cu12", "12.3.4.1"), False),
        (("nvidia-cublas-cu12", "12.9.1.4"), ("nvidia-cublas", "13.0.2.14"), False),
        # No library of nvcc's is named here: its files (ptxas) may be the same.
        (("nvidia-cuda-nvcc-cu11", "11.8.89"), ("nvidia-cuda-nvcc-cu12", "12.3.107"), True),
    ],
    ids=[
        "cudnn-8-both",
        "cudnn-9-both",
        "cudnn-8-and-9",
        "cusolver-11",
        "curand-10",
        "nccl-2",
        "cublas-11-and-12",
        "cublas-grouped",
        "nvcc-unknown",
    ],
)
def test_wheels_of_two_majors_share_files_where_their_libraries_do(
    one: tuple[str, str], other: tuple[str, str], shared: bool
) -> None:
    assert wheels_share_files(one, other) is shared
    assert wheels_share_files(other, one) is shared


@pytest.mark.parametrize("version", ["2.16.1", "2.15.1"], ids=["pins", "extra"])
def test_the_other_majors_wheels_that_share_files_go_before_the_install(version: str) -> None:
    """Installed over nvidia-cudnn-cu11's libcudnn.so.8, nvidia-cudnn-cu12's would be deleted
    by a later uninstall of -cu11: that one is uninstalled first; cuBLAS 11 (its own files)
    is left, and no other-major wheel is installed."""
    found = _library_finding(_machine(version, "12.3" if version == "2.16.1" else "12.2", 11))
    assert found.fix is not None
    commands = found.fix.commands
    removes = [i for i, c in enumerate(commands) if " uninstall " in c]
    installs = [i for i, c in enumerate(commands) if " install " in c]
    assert len(removes) == 1 and installs and removes[0] < min(installs)
    assert shlex.split(commands[removes[0]])[-1:] == ["nvidia-cudnn-cu11"]
    assert not any("cu11" in commands[i] for i in installs)
    assert "cu11" not in found.fix.text and "Uninstall first" in found.fix.text


def test_other_major_wheels_of_their_own_files_are_not_uninstalled() -> None:
    """The near miss: cuBLAS 11 and the CUDA 11 runtime alone hold other sonames than the
    build's wheels, so the fix installs beside them and removes nothing."""
    facts = _machine("2.16.1", "12.3", 11)
    packages = tuple(p for p in facts.packages or () if p.name != "nvidia-cudnn-cu11")
    found = _library_finding(dataclasses.replace(facts, packages=packages))
    assert found.fix is not None
    assert not [c for c in found.fix.commands if " uninstall " in c]
    assert "Uninstall" not in found.fix.text


def test_a_cudnn_wheel_of_the_builds_cuda_is_named_by_its_cudnn_major() -> None:
    """cuDNN 9's wheel of the build's own CUDA 12 beside a cuDNN 8 build: the fix names what
    sets it apart (its cuDNN major), never its CUDA major, which is the build's."""
    facts = _machine("2.16.1", "12.3", 12)
    packages = tuple(p for p in facts.packages or () if not p.name.startswith("nvidia-"))
    facts = dataclasses.replace(facts, packages=(*packages, f.pkg("nvidia-cudnn-cu12", "9.1.0.70")))
    found = _library_finding(facts)
    assert found.cause == "cuda-libs-missing"
    assert found.fix is not None
    assert "are cuDNN 9's" in found.fix.text
    assert "CUDA 12's" not in found.fix.text
    assert any("nvidia-cudnn-cu12==8.9.7.29" in c for c in found.fix.commands)


def test_unsuffixed_wheels_of_cuda_13_are_another_major_than_a_cuda_12_builds() -> None:
    """CUDA 13's wheels carry no -cuXX suffix and share nvidia/cu13: beside a CUDA 12 build they
    are not its wheels off the path, and that directory goes on no path line."""
    facts = _machine("2.16.1", "12.3", 12)
    packages = tuple(p for p in facts.packages or () if not p.name.startswith("nvidia-"))
    cuda13 = (f.pkg("nvidia-cuda-runtime", "13.0.96"), f.pkg("nvidia-cublas", "13.1.0.3"))
    facts = dataclasses.replace(
        facts, packages=(*packages, *cuda13), environment={"PATH": "/usr/bin:/bin"}
    )
    assert wheel_cuda_major("nvidia-cublas", "cu13") == 13
    found = _library_finding(facts)
    assert found.cause == "cuda-libs-missing"
    assert found.fix is not None
    assert "are CUDA 13's" in found.fix.text
    assert not [c for c in found.fix.commands if "/nvidia/cu13/" in c]
    assert any("nvidia-cuda-runtime-cu12==12.3.101" in c for c in found.fix.commands)


def test_the_fix_claims_no_more_than_that_the_wheels_lack_some_of_the_builds_libraries() -> None:
    """cuDNN 8.9's and cuRAND's CUDA 11 wheels hold the sonames a CUDA 12 build loads too
    (libcudnn.so.8, libcurand.so.10): the fix says the wheels lack some, never all."""
    found = _library_finding(_machine("2.16.1", "12.3", 11))
    assert found.fix is not None
    assert "those wheels do not hold them all" in found.fix.text
