"""Check on machines it was not written from: each family of causes judged on near variants of
one machine (another OS, another TensorFlow line, another installer, another Python, a facts
document saved by an older schema, ``--static``), built here field by field. A variant keeps
its family's cause and a fix with the family's words, and where the right fix depends on what
changed (the OS), the fix follows it; a healthy machine stays healthy on every variant.

The lines walked are read from the shipped matrix (``compat_matrix.yaml``): the variants ask
whether a rule reaches rows it was not written from, as ``tests/test_checks_reach.py`` does.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

import pytest

from tests import factories as f
from tests.test_checks_reach import LINES, healthy
from tfdoctor.checks import CHECKS, run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import (
    Facts,
    PackageFacts,
    facts_from_json,
    normalize_name,
    to_json,
)
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import load_matrix

MATRIX = load_matrix()


def latest(line: str) -> str:
    """The newest patch the matrix lists for ``line``."""
    found = MATRIX.line_for(f"{line}.0")
    assert found is not None, line
    return found.latest_patch


#: Where each OS keeps an environment's interpreter and packages.
_PLACES = {
    "linux": ("/home/u/env/bin/python", "/home/u/env", "/home/u/env/lib/python3/site-packages"),
    "macos": ("/Users/u/env/bin/python", "/Users/u/env", "/Users/u/env/lib/python3/site-packages"),
    "windows": (
        "C:\\Users\\u\\env\\Scripts\\python.exe",
        "C:\\Users\\u\\env",
        "C:\\Users\\u\\env\\Lib\\site-packages",
    ),
}
#: The platform facts of each OS as its probe records them (Python's platform module).
_PLATFORMS: dict[str, dict[str, Any]] = {
    "linux": {"nvidia_device_nodes": ()},
    "macos": {
        "system": "Darwin",
        "release": "21.6.0",
        "os_name": "macOS 12.6",
        "machine": "x86_64",
        "libc": "",
        "libc_version": None,
        "nvidia_device_nodes": (),
    },
    "windows": {
        "system": "Windows",
        "release": "10",
        "os_name": "Windows 10",
        "machine": "AMD64",
        "libc": "",
        "libc_version": None,
        "nvidia_device_nodes": (),
    },
}
#: Installers as the interpreter probe names the environment they made.
ENV_KINDS = ("system", "venv", "conda")


def on(os_key: str, facts: Facts, env_kind: str = "venv", python: Optional[str] = None) -> Facts:
    """``facts`` moved to another OS and environment kind: its platform, its interpreter's
    paths, and where its packages live."""
    exe, prefix, site = _PLACES[os_key]
    assert facts.python is not None
    py = dataclasses.replace(
        facts.python,
        executable=exe,
        prefix=prefix,
        base_prefix=prefix if env_kind in ("system", "conda") else "/usr",
        env_kind=env_kind,
        site_packages=(site,),
        version=python or facts.python.version,
    )
    packages = tuple(dataclasses.replace(p, location=site) for p in facts.packages or ())
    tf = facts.tensorflow
    if tf is not None:
        tf = dataclasses.replace(tf, interpreter=exe)
    gpu_side: dict[str, Any] = {}
    if os_key != "linux":
        gpu_side = {"cuda_libs": None, "driver": f.NO_DRIVER}
    return dataclasses.replace(
        facts,
        platform=f.platform(**_PLATFORMS[os_key]),
        python=py,
        packages=packages,
        tensorflow=tf,
        **gpu_side,
    )


def judge(facts: Facts) -> list[Finding]:
    """Every check's findings, as ``check --facts`` reports them."""
    return list(run_checks(CheckContext(facts, MATRIX), CHECKS))


def naming(found: list[Finding], cause: str) -> list[Finding]:
    """The findings that name ``cause`` at warning or above (what the bench counts)."""
    return [
        x for x in found if x.cause == cause and x.severity in (Severity.WARNING, Severity.ERROR)
    ]


def fix_text(found: list[Finding]) -> str:
    return "\n".join("\n".join((x.fix.text, *x.fix.commands)) for x in found if x.fix is not None)


def above_info(found: list[Finding]) -> list[str]:
    """What a healthy machine must not show: anything above a note."""
    return [
        f"{x.id}/{x.cause}: {x.summary}"
        for x in found
        if x.severity in (Severity.WARNING, Severity.ERROR)
    ]


def with_packages(facts: Facts, *new: PackageFacts) -> Facts:
    """``facts`` with the distributions ``new`` in place of those of their names."""
    names = {normalize_name(p.name) for p in new}
    kept = tuple(p for p in facts.packages or () if normalize_name(p.name) not in names)
    return dataclasses.replace(facts, packages=kept + new)


def cpu_tensorflow(version: str, *requires: str, status: str = "ok") -> Facts:
    """A machine without a GPU where ``tensorflow`` ``version`` is installed (declaring
    ``requires``) and its import ended with ``status``."""
    cpu_only = f.cpu_build(version, git_version=f"v{version}", status=status)
    if status != "ok":
        cpu_only = dataclasses.replace(cpu_only, devices=(), version=None)
    return f.facts(
        platform=f.platform(nvidia_device_nodes=()),
        packages=(f.pkg("tensorflow", version, *requires, top_level=("tensorflow",)),),
        driver=f.NO_DRIVER,
        cuda_libs=None,
        tensorflow=cpu_only,
    )


def static(facts: Facts) -> Facts:
    """``facts`` as ``check --static`` collects them: the import not run."""
    assert facts.tensorflow is not None
    tf = dataclasses.replace(
        facts.tensorflow,
        status="skipped",
        devices=(),
        signal=None,
        returncode=None,
        error_type=None,
        error_message=None,
        stderr_tail="",
    )
    return dataclasses.replace(facts, tensorflow=tf)


#: Fields added to the facts after its first schema, by object: a document saved then lacks
#: them, and the loader reads it with their defaults (``facts.READABLE_SCHEMA_VERSIONS``).
_LATER_FIELDS = {
    "": ("nvidia_kernel", "cuinit", "conda", "notebook", "hosted"),
    "python": (
        "tensorflow_origin",
        "tensorflow_path_entry",
        "tensorflow_path_kind",
        "uv_project",
        "pip_installed",
        "uv_venv",
        "ensurepip",
    ),
    "platform": ("emulation", "host_machine", "os_ids"),
}


def saved_by_schema_1(facts: Facts) -> Facts:
    """``facts`` written to JSON without the fields later schemas added, and read back."""
    doc = to_json(facts)
    doc["schema_version"] = 1
    for where, fields in _LATER_FIELDS.items():
        part = doc if not where else doc.get(where)
        for name in fields if isinstance(part, dict) else ():
            part.pop(name, None)
    return facts_from_json(doc)


# --- protobuf above TensorFlow's cap, judged as --static collects it ------------------------

#: TensorFlow 2.10.0's Requires-Dist for protobuf (its wheel's METADATA).
TF210_PROTOBUF = "protobuf<3.20,>=3.9.2"


@pytest.mark.parametrize("os_key", sorted(_PLACES))
@pytest.mark.parametrize("env_kind", ENV_KINDS)
def test_protobuf_above_cap_that_loads_stays_healthy_when_not_imported(
    os_key: str, env_kind: str
) -> None:
    """protobuf 3.20.3 under a TensorFlow that caps it below 3.20: its runtime loads code
    generated by older protoc, so a machine whose import was not run is as healthy as one whose
    import ran (pip's notice is a note), on every OS and installer."""
    base = with_packages(cpu_tensorflow("2.10.0", TF210_PROTOBUF), f.pkg("protobuf", "3.20.3"))
    for variant in (base, static(base)):
        found = judge(on(os_key, variant, env_kind))
        assert above_info(found) == []
        (note,) = [x for x in found if x.id == "packages.pins" and "protobuf" in x.summary]
        assert note.severity is Severity.INFO
        # What the note rests on: the import seen to work, or (not run) the runtime alone.
        assert ("imported with it (observed)" in note.detail) is (variant is base), note.detail


def test_protobuf_that_refuses_the_generated_code_stays_an_error_when_not_imported() -> None:
    """protobuf 4.21 refuses code generated before 3.19: without the import, still an error,
    and its fix, applied, takes the cause away."""
    facts = static(
        with_packages(cpu_tensorflow("2.10.0", TF210_PROTOBUF), f.pkg("protobuf", "4.21.12"))
    )
    found = naming(judge(facts), "protobuf-incompatible")
    assert found and found[0].severity is Severity.ERROR
    assert "protobuf" in fix_text(found)
    assert found[0].fix is not None
    fixed = f.apply_pip(facts, found[0].fix.commands)
    assert fixed is not None
    assert naming(judge(fixed), "protobuf-incompatible") == []


def test_protobuf_above_cap_is_a_candidate_when_the_import_failed() -> None:
    """Where the import was run and failed, an out-of-range protobuf stays a warning: one
    candidate among others, not a note."""
    facts = with_packages(
        cpu_tensorflow("2.10.0", TF210_PROTOBUF, status="import-error"),
        f.pkg("protobuf", "3.20.3"),
    )
    (pin,) = [x for x in judge(facts) if x.id == "packages.pins" and "protobuf" in x.summary]
    assert pin.severity is Severity.WARNING


# --- a 32-bit Python ------------------------------------------------------------------------


@pytest.mark.parametrize("os_key", ["linux", "windows"])
@pytest.mark.parametrize("env_kind", ENV_KINDS)
@pytest.mark.parametrize("python", ["3.7.9", "3.10.11", "3.12.4"])
def test_python_32bit_on_every_os_installer_and_python(
    os_key: str, env_kind: str, python: str
) -> None:
    """No TensorFlow wheel is built for a 32-bit Python: the cause and the 64-bit Python in
    the fix, by Windows' launcher on Windows and by the versioned name elsewhere."""
    facts = on(os_key, f.python32_machine(), env_kind, python)
    if os_key == "linux":
        assert facts.platform is not None
        facts = dataclasses.replace(
            facts, platform=dataclasses.replace(facts.platform, machine="i686")
        )
    found = naming(judge(facts), "python-32bit")
    assert found and found[0].severity is Severity.ERROR
    text = fix_text(found)
    assert "64-bit" in text
    commands = "\n".join(found[0].fix.commands if found[0].fix else ())
    assert ("py -" in commands) is (os_key == "windows"), commands
    wide = dataclasses.replace(facts.python, bits=64) if facts.python else None
    assert naming(judge(dataclasses.replace(facts, python=wide)), "python-32bit") == []


# --- a CPU without AVX ----------------------------------------------------------------------


def sigill(version: str) -> Facts:
    """TensorFlow ``version`` installed on a CPU without AVX; its import died of SIGILL."""
    facts = cpu_tensorflow(version, status="signal")
    assert facts.tensorflow is not None
    tf = dataclasses.replace(
        facts.tensorflow,
        signal="SIGILL",
        returncode=-4,
        stderr_tail="Fatal Python error: Illegal instruction",
    )
    return dataclasses.replace(
        facts,
        tensorflow=tf,
        cpu=f.cpu(model="Intel(R) Celeron(R) CPU N3350", flags=("sse4_1", "sse4_2")),
    )


@pytest.mark.parametrize("os_key", sorted(_PLACES))
@pytest.mark.parametrize("line", ["1.15", "2.4", "2.10", "2.15"])
def test_cpu_without_avx_on_every_os_and_line(os_key: str, line: str) -> None:
    """The official x86-64 wheels need AVX from 1.6 on: every line, every OS, whether the
    import crashed or was not run."""
    version = latest(line)
    for facts in (sigill(version), static(sigill(version))):
        found = naming(judge(on(os_key, facts)), "cpu-lacks-avx")
        assert found and found[0].severity is Severity.ERROR, on(os_key, facts)
        assert "AVX" in fix_text(found)
    with_avx = dataclasses.replace(sigill(version), cpu=f.cpu())
    assert naming(judge(on(os_key, static(with_avx))), "cpu-lacks-avx") == []


# --- an x86-64 Python under Rosetta ---------------------------------------------------------


def under_rosetta(version: str, env_kind: str) -> Facts:
    """TensorFlow ``version`` in an x86-64 Python that Rosetta 2 translates on Apple silicon;
    the import died of SIGILL (Rosetta has no AVX)."""
    facts = on("macos", sigill(version), env_kind)
    assert facts.platform is not None
    plat = dataclasses.replace(
        facts.platform,
        release="22.6.0",
        os_name="macOS 13.5",
        rosetta=True,
        emulation="rosetta",
        host_machine="arm64",
    )
    return dataclasses.replace(facts, platform=plat, cpu=f.cpu(model="Apple M1", flags=()))


@pytest.mark.parametrize("env_kind", ENV_KINDS)
@pytest.mark.parametrize("line", ["1.15", "2.4", "2.12", "2.16"])
def test_rosetta_on_every_line_installer_and_schema(env_kind: str, line: str) -> None:
    """An x86-64 Python under Rosetta: the cause names the emulation and the fix a native arm64
    Python, whatever the line and installer, and on a report saved before the facts named the
    emulation (only ``rosetta`` recorded)."""
    facts = under_rosetta(latest(line), env_kind)
    for variant in (facts, static(facts), saved_by_schema_1(facts)):
        found = naming(judge(variant), "cpu-emulated")
        assert found, variant.platform
        assert "arm64" in fix_text(found)
        assert naming(judge(variant), "cpu-lacks-avx") == []


# --- Keras of another minor beside TensorFlow -----------------------------------------------


def requires_of(line: str) -> tuple[str, ...]:
    """The Requires-Dist lines of the line's wheel for the packages the matrix pins."""
    found = MATRIX.line_for(f"{line}.0")
    assert found is not None
    return tuple(
        f"{dist}{spec}"
        for dist, spec in (("numpy", found.pins.numpy), ("keras", found.pins.keras))
        if spec
    )


def numpy_of(line: str) -> str:
    """A NumPy inside the line's pin."""
    found = MATRIX.line_for(f"{line}.0")
    assert found is not None
    return f.satisfying(found.pins.numpy or "") or "1.26.4"


#: Lines released in step with their own Keras (the matrix's keras_in_step).
KERAS_IN_STEP = tuple(x.line for x in MATRIX.lines if x.keras_in_step and x.pins.keras)


@pytest.mark.parametrize("os_key", sorted(_PLACES))
@pytest.mark.parametrize("line", KERAS_IN_STEP)
def test_keras_of_the_next_minor_on_every_os(os_key: str, line: str) -> None:
    """Keras of the next minor beside a TensorFlow released with its own: the cause on every
    OS, and the fix, applied, takes it away."""
    major, minor = line.split(".")
    version = latest(line)
    facts = on(
        os_key,
        with_packages(
            cpu_tensorflow(version, *requires_of(line)),
            f.pkg("keras", f"{major}.{int(minor) + 1}.0"),
            f.pkg("numpy", numpy_of(line)),
        ),
    )
    found = naming(judge(facts), "keras-version")
    assert found and found[0].severity is Severity.ERROR
    assert "keras" in fix_text(found) and "tensorflow-cpu" not in fix_text(found)
    assert found[0].fix is not None
    fixed = f.apply_pip(facts, found[0].fix.commands)
    assert fixed is not None
    assert naming(judge(fixed), "keras-version") == []


# --- NumPy 2 under a line built for NumPy 1 -------------------------------------------------

#: Lines the matrix states were compiled against NumPy 1 and that pin NumPy.
NUMPY1_LINES = tuple(
    x.line for x in MATRIX.lines if x.runs_on_numpy2() is False and x.pins.numpy and x.key >= (2, 0)
)


@pytest.mark.parametrize("os_key", sorted(_PLACES))
@pytest.mark.parametrize("line", NUMPY1_LINES)
def test_numpy2_under_a_numpy1_line_on_every_os(os_key: str, line: str) -> None:
    """NumPy 2 beside a line built for NumPy 1, its import not run: the ABI cause on every
    OS, a fix inside NumPy 1, and the fix, applied, takes the cause away."""
    facts = on(
        os_key,
        static(
            with_packages(cpu_tensorflow(latest(line), *requires_of(line)), f.pkg("numpy", "2.0.2"))
        ),
    )
    found = naming(judge(facts), "numpy-abi")
    assert found and found[0].severity is Severity.ERROR
    assert found[0].fix is not None and "numpy" in fix_text(found)
    fixed = f.apply_pip(facts, found[0].fix.commands)
    assert fixed is not None
    assert naming(judge(fixed), "numpy-abi") == []


# --- a GPU on native Windows ----------------------------------------------------------------


def windows_gpu(version: str) -> Facts:
    """TensorFlow ``version`` on native Windows beside an NVIDIA GPU its driver lists; the
    import ran and listed the CPU alone."""
    facts = on("windows", cpu_tensorflow(version), "system")
    drv = f.driver(
        source="nvidia-smi", driver_version="551.61", cuda_version="12.4", nvml_version=None
    )
    return dataclasses.replace(facts, driver=drv)


@pytest.mark.parametrize("line", [x.line for x in MATRIX.lines if x.key >= (2, 11)])
def test_native_windows_gpu_after_its_last_line(line: str) -> None:
    """Every line after native Windows' last GPU build: the cause, and WSL 2 in the fix,
    never a Linux extra or the retired tensorflow-gpu name."""
    found = naming(judge(windows_gpu(latest(line))), "windows-native-gpu-ended")
    assert found, line
    text = fix_text(found)
    assert "WSL2" in text and "and-cuda" not in text and "tensorflow-gpu" not in text


def test_native_windows_gpu_lines_and_wsl_are_not_told_to_move() -> None:
    """The lines that have a native Windows GPU build, and the same machine under WSL 2, are
    not told that native Windows has no GPU build."""
    native = [x.line for x in MATRIX.lines if x.windows_native_gpu]
    assert native
    for line in native:
        assert naming(judge(windows_gpu(latest(line))), "windows-native-gpu-ended") == [], line
    newest = max(MATRIX.lines, key=lambda x: x.key)
    wsl = on("linux", windows_gpu(newest.latest_patch))
    assert wsl.platform is not None
    wsl = dataclasses.replace(
        wsl,
        platform=dataclasses.replace(
            wsl.platform, wsl="WSL2", release="5.15.153.1-microsoft-standard-WSL2"
        ),
    )
    assert naming(judge(wsl), "windows-native-gpu-ended") == []


# --- a healthy GPU machine, moved -----------------------------------------------------------


def _moved(base: Facts, how: str) -> Facts:
    """``base`` under another installer, in a container, on a derivative distribution, with
    the oldest Python its line has wheels for, or saved by the first schema."""
    assert base.python is not None and base.platform is not None
    py, plat = base.python, base.platform
    if how == "conda":
        env = "/opt/conda/envs/tf"
        py = dataclasses.replace(
            py, env_kind="conda", prefix=env, base_prefix=env, executable=f"{env}/bin/python"
        )
    elif how == "system":
        py = dataclasses.replace(
            py, env_kind="system", prefix="/usr", base_prefix="/usr", executable="/usr/bin/python3"
        )
    elif how == "docker":
        plat = dataclasses.replace(plat, container="docker")
    elif how == "derivative":
        plat = dataclasses.replace(
            plat, os_ids=("linuxmint", "ubuntu", "debian"), os_name="Linux Mint 21.3"
        )
    elif how == "oldest-python":
        line = MATRIX.line_for(base.tensorflow.version or "") if base.tensorflow else None
        assert line is not None
        py = dataclasses.replace(py, version=f"{line.python['linux-x86_64'][0]}.2")
    elif how == "schema-1":
        return saved_by_schema_1(base)
    return dataclasses.replace(base, python=py, platform=plat)


@pytest.mark.parametrize(
    "how", ["conda", "system", "docker", "derivative", "oldest-python", "schema-1"]
)
def test_a_healthy_gpu_machine_stays_healthy_moved(how: str) -> None:
    """Every line's healthy GPU machine (tests/test_checks_reach.py), its import listing the
    GPU, shows nothing above a note under another installer, in a container, on a derivative
    distribution, with the oldest Python of its line, or read from a schema 1 report."""
    for line in LINES:
        assert above_info(judge(_moved(healthy(line, observed=True), how))) == [], line.line


@pytest.mark.parametrize("os_key", ["linux", "windows"])
def test_python_32bit_and_no_avx_read_from_a_schema_1_report(os_key: str) -> None:
    """A report saved by the first schema (no interpreter origin, no emulation, no os-release)
    keeps the verdicts a 32-bit Python and a CPU without AVX get."""
    bits = saved_by_schema_1(on(os_key, f.python32_machine()))
    assert naming(judge(bits), "python-32bit")
    avx = saved_by_schema_1(on(os_key, sigill(latest("2.10"))))
    assert naming(judge(avx), "cpu-lacks-avx")


def test_rosetta_sigill_is_the_emulations_beside_a_wheel_built_for_a_later_macos() -> None:
    """The import died of SIGILL under Rosetta beside a NumPy wheel built for a later macOS:
    the crash is the emulator's (a wheel built for a later macOS fails, where it does, on a
    symbol this macOS lacks, not on an instruction the CPU lacks), so the import's cause is the
    emulation; the wheel keeps its own finding."""
    facts = under_rosetta(latest("2.12"), "venv")
    numpy = dataclasses.replace(
        f.pkg("numpy", "1.24.3"), wheel_tags=("cp311-cp311-macosx_14_0_x86_64",)
    )
    facts = with_packages(facts, numpy)
    found = judge(facts)
    (crash,) = [x for x in found if x.id == "tensorflow.import"]
    assert crash.cause == "cpu-emulated"
    assert [x.cause for x in found if x.id == "packages.wheels"] == ["macos-too-old"]


def test_rosetta_sigill_of_a_shadowing_module_names_the_shadow_and_the_emulation() -> None:
    """The import died of SIGILL under Rosetta, loading a ``tensorflow`` found through
    PYTHONPATH rather than the installed one: the import's finding names the shadow (no other
    finding does), and platform.rosetta the emulation."""
    facts = under_rosetta(latest("2.12"), "venv")
    assert facts.python is not None
    py = dataclasses.replace(
        facts.python,
        tensorflow_origin="/Users/u/src/lib/tensorflow",
        tensorflow_path_entry="/Users/u/src/lib",
        tensorflow_path_kind="PYTHONPATH",
    )
    found = judge(dataclasses.replace(facts, python=py))
    (crash,) = [x for x in found if x.id == "tensorflow.import"]
    assert crash.cause == "tf-shadowed-module" and "SIGILL" in crash.summary
    assert [x.cause for x in found if x.id == "platform.rosetta"] == ["cpu-emulated"]
