"""Hand-built facts for check tests: a healthy GPU machine, changed field by field."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from tfdoctor.facts import (
    CpuFacts,
    CudaLibsFacts,
    DeviceFacts,
    DriverFacts,
    Facts,
    GpuFacts,
    LibraryCandidate,
    LibraryFacts,
    PackageFacts,
    PlatformFacts,
    ProbeError,
    PythonFacts,
    TensorFlowFacts,
    normalize_name,
)
from tfdoctor.machine import conda_spec_name
from tfdoctor.matrix import Matrix, load_companions, load_matrix

SITE = "/opt/venv/lib/python3.11/site-packages"


def python(**kw: Any) -> PythonFacts:
    base = PythonFacts(
        version="3.11.7",
        implementation="CPython",
        executable="/opt/venv/bin/python",
        bits=64,
        env_kind="venv",
        prefix="/opt/venv",
        base_prefix="/usr",
        pip_version="24.0",
        site_packages=(SITE,),
    )
    return dataclasses.replace(base, **kw)


def platform(**kw: Any) -> PlatformFacts:
    base = PlatformFacts(
        system="Linux",
        release="6.8.0-45-generic",
        os_name="Ubuntu 22.04.4 LTS",
        machine="x86_64",
        libc="glibc",
        libc_version="2.35",
        wsl=None,
        container=None,
        rosetta=False,
        nvidia_device_nodes=("/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm"),
    )
    return dataclasses.replace(base, **kw)


def cpu(**kw: Any) -> CpuFacts:
    base = CpuFacts(
        model="AMD EPYC 7763 64-Core Processor",
        physical_cores=16,
        logical_cores=32,
        flags=("sse4_1", "sse4_2", "avx", "avx2", "fma"),
        flags_known=True,
        memory_total=64 * 2**30,
        memory_available=60 * 2**30,
        swap_total=0,
    )
    return dataclasses.replace(base, **kw)


def pkg(name: str, version: str, *requires: str, top_level: tuple[str, ...] = ()) -> PackageFacts:
    return PackageFacts(name, version, SITE, tuple(requires), False, top_level)


TF_REQUIRES = (
    "numpy<2.0.0,>=1.23.5",
    "protobuf!=4.21.0,!=4.21.1,!=4.21.2,!=4.21.3,!=4.21.4,!=4.21.5,<5.0.0dev,>=3.20.3",
    "tensorboard<2.16,>=2.15",
    'nvidia-cudnn-cu12==8.9.4.25; extra == "and-cuda"',
)


def packages(*extra: PackageFacts) -> tuple[PackageFacts, ...]:
    return (
        pkg("tensorflow", "2.15.1", *TF_REQUIRES, top_level=("tensorflow",)),
        pkg("numpy", "1.26.4"),
        *extra,
    )


def driver(**kw: Any) -> DriverFacts:
    base = DriverFacts(
        source="nvml",
        driver_version="550.54.15",
        cuda_version="12.4",
        nvml_version="12.550.54.15",
        gpus=(
            GpuFacts(
                0,
                "NVIDIA A100-SXM4-80GB",
                "GPU-0f1e2d3c",
                "00000000:07:00.0",
                "8.0",
                80 * 2**30,
                2**20,
                False,
                0,
                0,
            ),
        ),
    )
    return dataclasses.replace(base, **kw)


NO_DRIVER = DriverFacts(
    source="none",
    error=ProbeError("driver", "library-not-found", "libnvidia-ml.so.1 was not found"),
)


def lib(
    name: str, soname: str, *candidates: LibraryCandidate, selected: int | None = 0
) -> LibraryFacts:
    return LibraryFacts(name, (soname,), tuple(candidates), selected if candidates else None)


def pip_cand(path: str, version: str) -> LibraryCandidate:
    return LibraryCandidate(f"{SITE}/nvidia/{path}", "pip", version, "call", True)


def cuda_libs(*libraries: LibraryFacts) -> CudaLibsFacts:
    default = (
        lib("cudart", "libcudart.so.12", pip_cand("cuda_runtime/lib/libcudart.so.12", "12.2")),
        lib("cudnn", "libcudnn.so.8", pip_cand("cudnn/lib/libcudnn.so.8", "8.9.4")),
        lib(
            "cuda",
            "libcuda.so.1",
            LibraryCandidate(
                "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "ldconfig", "12.4", "call", True
            ),
        ),
    )
    return CudaLibsFacts(cuda_major=12, cudnn_major=8, libraries=libraries or default)


def tensorflow(**kw: Any) -> TensorFlowFacts:
    base = TensorFlowFacts(
        status="ok",
        interpreter="/opt/venv/bin/python",
        version="2.15.1",
        git_version="v2.15.0-11-g63f5a65c7cd",
        build_info={"cuda_version": "12.2", "cudnn_version": "8", "is_cuda_build": "True"},
        build_info_source="import",
        is_cuda_build=True,
        is_rocm_build=False,
        cuda_version="12.2",
        cudnn_version="8",
        compute_capabilities=("sm_50", "sm_60", "sm_70", "sm_80", "compute_90"),
        devices=(
            DeviceFacts("/physical_device:CPU:0", "CPU"),
            DeviceFacts("/physical_device:GPU:0", "GPU", {"compute_capability": "8.0"}),
        ),
        seconds=3.2,
        timeout=60.0,
    )
    return dataclasses.replace(base, **kw)


def cpu_build(version: str, **kw: Any) -> TensorFlowFacts:
    """TensorFlow ``version``'s CPU build as its import reports it: no CUDA, the CPU listed."""
    base = tensorflow(
        version=version,
        build_info={"is_cuda_build": "False"},
        is_cuda_build=False,
        cuda_version=None,
        cudnn_version=None,
        compute_capabilities=(),
        devices=(DeviceFacts("/physical_device:CPU:0", "CPU"),),
    )
    return dataclasses.replace(base, **kw)


def facts(**kw: Any) -> Facts:
    base = Facts(
        tfdoctor_version="0.1.0",
        collected_at="2026-01-01T00:00:00+00:00",
        python=python(),
        platform=platform(),
        cpu=cpu(),
        packages=packages(),
        driver=driver(),
        cuda_libs=cuda_libs(),
        tensorflow=tensorflow(),
        environment={"PATH": "/usr/bin:/bin"},
    )
    return dataclasses.replace(base, **kw)


def cpu_only_machine(**kw: Any) -> Facts:
    """A machine without a GPU running the CUDA build of the wheel (the CI machine's case)."""
    base = facts(
        platform=platform(nvidia_device_nodes=()),
        driver=NO_DRIVER,
        cuda_libs=cuda_libs(
            lib("cudart", "libcudart.so.12"),
            lib("cudnn", "libcudnn.so.8"),
            lib("cuda", "libcuda.so.1"),
        ),
        tensorflow=tensorflow(
            devices=(DeviceFacts("/physical_device:CPU:0", "CPU"),),
            log_errors=(
                "failed call to cuInit: INTERNAL: CUDA error: Failed call to cuInit: "
                "UNKNOWN ERROR (303)",
            ),
        ),
    )
    return dataclasses.replace(base, **kw)


def python32_machine() -> Facts:
    """A 32-bit Python: no TensorFlow wheel installs there, so there is none to import (one
    that imported would make ``python.bits`` only a note: observed beats inferred)."""
    return facts(
        python=python(bits=32),
        packages=(pkg("numpy", "1.26.4"),),
        tensorflow=tensorflow(status="not-installed", version=None, devices=()),
    )


#: The frozen test matrix (tests/data/matrix/fixture.yaml): check logic is tested against it,
#: not against the shipped compat_matrix.yaml, so a new release there breaks no test.
FIXTURE_MATRIX_PATH = Path(__file__).resolve().parent / "data" / "matrix" / "fixture.yaml"
FIXTURE_MATRIX = load_matrix(str(FIXTURE_MATRIX_PATH), env={})


# --- a fix, applied to the facts ------------------------------------------------------------

_PIP_INSTALL = re.compile(r"-m pip install (.+)$")
_SPEC = re.compile(r'"([A-Za-z0-9_.-]+)(\[[^\]]*\])?([^"]*)"')


def satisfying(spec: str) -> str | None:
    """A version inside ``spec``: the exact one for ``==``, else the lowest allowed bound."""
    if not spec:
        return None
    spec_set = SpecifierSet(spec)
    candidates = []
    for item in spec_set:
        version = item.version.replace(".*", ".0")
        candidates.append(version)
        if item.operator in ("<", "!="):
            continue
    for candidate in sorted(candidates, key=Version):
        if Version(candidate) in spec_set:
            return candidate
    return None


def apply_pip(
    facts: Facts,
    commands: tuple[str, ...],
    add_missing: bool = False,
    metadata: Mapping[str, tuple[str, ...]] | None = None,
) -> Facts | None:
    """The facts after the fix's ``pip install "dist<spec>"`` commands, where each sets a
    version of an installed distribution (``add_missing``: or installs one); None when the
    fix does something else. ``metadata`` gives the ``Requires-Dist`` of a release that
    declares other requirements than the one it replaces, by ``name==version``."""
    packages = list(facts.packages or ())
    changed = False
    for command in commands:
        match = _PIP_INSTALL.search(command)
        if match is None:
            continue
        for name, _extra, spec in _SPEC.findall(match.group(1)):
            version = satisfying(spec)
            if version is None:
                return None
            known = [
                i for i, p in enumerate(packages) if normalize_name(p.name) == normalize_name(name)
            ]
            declared = next(
                (
                    lines
                    for key, lines in (metadata or {}).items()
                    if key.split("==")[0] == normalize_name(name)
                    and Version(key.split("==")[1]) == Version(version)
                ),
                None,
            )
            for i in known:
                packages[i] = dataclasses.replace(packages[i], version=version)
                if declared is not None:
                    packages[i] = dataclasses.replace(packages[i], requires=declared)
            if not known and add_missing:
                packages.append(PackageFacts(name, version, SITE))
            changed = changed or bool(known) or add_missing
    if not changed:
        return None
    tf = facts.tensorflow
    if tf is not None and tf.status not in ("ok", "skipped"):
        # The failed import was observed with the packages before the change: after it, the
        # doctor would import again, so the old failure is no longer evidence.
        tf = dataclasses.replace(
            tf, status="skipped", error_type=None, error_message=None, stderr_tail=""
        )
    return dataclasses.replace(facts, packages=tuple(packages), tensorflow=tf)


#: conda's install command as Machine.conda_install writes it: options, then quoted MatchSpecs.
_CONDA_INSTALL = re.compile(r"^conda install (.+)$")
_QUOTED = re.compile(r'"([^"]+)"')


def conda_to_pep440(match_spec: str) -> tuple[str, str]:
    """The package name and the PEP 440 specifier of a conda MatchSpec as Machine.install
    writes it (``numpy<2,>=1.23.5``; ``keras=2.15``: every 2.15.x; a glob ``1.26.*``)."""
    name = conda_spec_name(match_spec)
    rest = match_spec[len(name) :]
    if rest.startswith("=") and not rest.startswith("=="):
        return name, f"=={rest[1:]}.*"
    clauses = [c if not c[:1].isdigit() else f"=={c}" for c in rest.split(",") if c]
    return name, ",".join(clauses)


def apply_conda(facts: Facts, commands: tuple[str, ...]) -> Facts | None:
    """The facts after the fix's ``conda install "spec"`` commands, where each sets a version
    of a package conda installed: its conda-meta record and the distribution it holds (the
    same name as PEP 503 compares them); None when the fix does something else or names a
    package conda did not install."""
    if facts.conda is None:
        return None
    conda = list(facts.conda.packages)
    packages = list(facts.packages or ())
    changed = False
    for command in commands:
        match = _CONDA_INSTALL.match(command)
        if match is None:
            continue
        for word in _QUOTED.findall(match.group(1)):
            name, spec = conda_to_pep440(word)
            version = satisfying(spec) if spec else None
            at = [i for i, p in enumerate(conda) if p.name == name]
            if version is None or not at:
                return None
            for i in at:
                conda[i] = dataclasses.replace(conda[i], version=version)
            for i, p in enumerate(packages):
                if normalize_name(p.name) == normalize_name(name):
                    packages[i] = dataclasses.replace(p, version=version)
            changed = True
    if not changed:
        return None
    return dataclasses.replace(
        facts,
        packages=tuple(packages),
        conda=dataclasses.replace(facts.conda, packages=tuple(conda)),
    )


def apply_installs(facts: Facts, commands: tuple[str, ...]) -> Facts | None:
    """The facts after a fix's conda installs (:func:`apply_conda`) and pip installs
    (:func:`apply_pip`), each package by its own installer; None where it changes neither."""
    conda = apply_conda(facts, commands) if any(c.startswith("conda ") for c in commands) else None
    return apply_pip(conda or facts, commands) or conda


#: A fix's new virtual environment: ``pythonX.Y -m venv DIR``, or Windows' launcher
#: ``py -X.Y -m venv DIR``; then TensorFlow installed by that environment's own pip.
_VENV = re.compile(r"^(?:python(\d+\.\d+)|py -(\d+\.\d+)) -m venv (\S+)$")
_VENV_INSTALL = re.compile(r"^(\S+) -m pip install tensorflow$")


def apply_venv(facts: Facts, commands: tuple[str, ...], matrix: Matrix) -> Facts | None:
    """The facts after a fix that makes a virtual environment with another CPython and
    installs TensorFlow there: that Python (the ``.0`` patch, CPython, 64-bit), that
    environment's interpreter, and the newest final release with a wheel for it on this
    platform (the one pip picks), not yet imported; None when the fix does something else."""
    made = next(filter(None, map(_VENV.match, commands)), None)
    into = next(filter(None, map(_VENV_INSTALL.match, commands)), None)
    if made is None or into is None or facts.python is None:
        return None
    minor = made.group(1) or made.group(2)
    line = matrix.newest_with_wheels(minor)
    if line is None:
        return None
    python = dataclasses.replace(
        facts.python,
        version=f"{minor}.0",
        implementation="CPython",
        executable=into.group(1),
        bits=64,
        env_kind="venv",
    )
    tf = pkg("tensorflow", line.latest_patch, top_level=("tensorflow",))
    return dataclasses.replace(
        facts,
        python=python,
        packages=(tf,),
        tensorflow=tensorflow(status="skipped", version=line.latest_patch),
    )


def with_release(text: str, patch: str) -> str:
    """Matrix ``text`` with a line for ``patch`` (``2.23.0``, ``2.23.0rc0``) on top.

    The new line copies the newest one, as a release that changes nothing else would; lines
    still at a pre-release get their final first, as they would have by then.
    """
    line = ".".join(patch.split(".")[:2])
    text = re.sub(r'latest_patch: "(\d+\.\d+\.\d+)(?:a|b|rc)\d+"', r'latest_patch: "\1"', text)
    head, rest = text.split("\ntensorflow:\n", 1)
    newest = rest.split("\n  - line: ", 1)[0]
    copied = re.sub(r'^  - line: "[^"]*"', f'  - line: "{line}"', newest, count=1)
    copied = re.sub(r'latest_patch: "[^"]*"', f'latest_patch: "{patch}"', copied, count=1)
    return f"{head}\ntensorflow:\n{copied}\n{rest}"


def with_line(matrix: Matrix, line: str, **changes: Any) -> Matrix:
    """``matrix`` with the fields ``changes`` of its line ``line`` replaced: a release fact
    stated otherwise, to show a reading follows the matrix."""
    assert matrix.line_for(line) is not None, line
    return dataclasses.replace(
        matrix,
        lines=tuple(
            dataclasses.replace(x, **changes) if x.line == line else x for x in matrix.lines
        ),
    )


def companion_table_names() -> set[str]:
    """Every distribution the companion table names: companions, libraries built on
    TensorFlow, Keras 2 users and the companions requiring only ``tensorflow``."""
    table = load_companions()
    return {*table.companions, *table.built_on, *table.keras2_users, *table.only_tensorflow}
