"""``check --static`` fails where the installed files show that ``import tensorflow`` would fail.

Each case builds a real environment (a venv with hand-written dist-info directories holding
TensorFlow 2.21.0's real METADATA) and runs the real command on it with ``--python``: a
package TensorFlow imports as it starts outside its declared range, a ``tensorflow`` module
that shadows the installed one, a wheel built for another Python or machine.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Optional

import pytest

from tests import factories as f
from tests.fakeenv import (
    HOST_PLATFORM,
    HOST_TAG,
    ROOT,
    FakeEnv,
    check,
    found,
    make_env,
    tf_requires,
)
from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.doctor import collect_facts
from tfdoctor.facts import Facts, PackageFacts
from tfdoctor.findings import Finding, Severity, facts_from_report_json
from tfdoctor.machine import START_IMPORTS
from tfdoctor.wheel_tags import misfit

#: What TensorFlow 2.21.0's METADATA declares for protobuf (tests/fakeenv.py's TF_METADATA).
PROTOBUF_RANGE = "protobuf<8.0.0,>=6.31.1"
OTHER_MINOR = f"cp3{sys.version_info[1] - 1}"
OTHER_ARCH = "aarch64" if HOST_TAG.endswith("x86_64") else "x86_64"


@pytest.fixture
def env(tmp_path: Path) -> FakeEnv:
    return make_env(tmp_path)


def judge(facts: Facts) -> tuple[Finding, ...]:
    return run_checks(CheckContext(facts, f.FIXTURE_MATRIX))


# --- a package TensorFlow imports as it starts, outside its declared range ------------------


def test_protobuf_below_tensorflows_range_fails_the_static_gate(env: FakeEnv) -> None:
    env.install("protobuf", "4.25.3", f"cp37-abi3-{HOST_PLATFORM}", module="google")
    code, report = check(env, "--static")
    assert code == 2
    (pin,) = found(report, "packages.pins")
    # Below the floor the runtime lacks what TensorFlow's generated code imports, and no import
    # ran to refute it: protobuf's own cause (checks/packages.py _protobuf_cause).
    assert (pin["severity"], pin["cause"]) == ("error", "protobuf-incompatible")
    assert pin["summary"] == (
        f"protobuf 4.25.3 is outside TensorFlow 2.21.0's range {PROTOBUF_RANGE}"
    )
    assert "not run" in pin["detail"] and "--static" in pin["detail"]
    # The exact command for the examined interpreter, not the doctor's own.
    assert pin["fix"]["commands"] == [f'{env.python} -m pip install "{PROTOBUF_RANGE}"']


def test_protobuf_inside_the_range_passes_the_static_gate(env: FakeEnv) -> None:
    env.install("protobuf", "6.31.1", f"cp39-abi3-{HOST_PLATFORM}", module="google")
    code, report = check(env, "--static")
    assert found(report, "packages.pins") == []
    assert code == 0, [x for x in report["findings"] if x["severity"] == "error"]


def test_the_protobuf_fix_applied_removes_the_cause(env: FakeEnv) -> None:
    env.install("protobuf", "4.25.3", module="google")
    _, report = check(env, "--static")
    facts = facts_from_report_json(report)
    (before,) = [x for x in judge(facts) if x.id == "packages.pins"]
    assert before.severity is Severity.ERROR and before.fix is not None
    after = f.apply_pip(facts, before.fix.commands)
    assert after is not None and after.package("protobuf") is not None
    assert [x for x in judge(after) if x.id == "packages.pins"] == []


#: Not required since 2.21; installed so that its absence (a note) stays out of these tests.
TENSORBOARD = f.pkg("tensorboard", "2.20.0")


def _six_below_range(status: str) -> Facts:
    """TensorFlow 2.21's metadata with six below its floor (six>=1.12.0), import ``status``."""
    tf = f.pkg("tensorflow", "2.21.0", *tf_requires(), top_level=("tensorflow",))
    return f.facts(
        packages=(tf, f.pkg("six", "1.11.0"), TENSORBOARD),
        tensorflow=f.tensorflow(status=status, version=None if status == "skipped" else "2.21.0"),
    )


@pytest.mark.parametrize(
    ("status", "severity"),
    [
        pytest.param("skipped", Severity.ERROR, id="static-inferred-error"),
        pytest.param("ok", Severity.WARNING, id="imported-observed-wins"),
    ],
)
def test_a_start_import_out_of_range_is_an_error_only_where_the_import_did_not_run(
    status: str, severity: Severity
) -> None:
    (pin,) = [x for x in judge(_six_below_range(status)) if x.id == "packages.pins"]
    assert pin.summary == "six 1.11.0 is outside TensorFlow 2.21.0's range six>=1.12.0"
    assert pin.severity is severity


def undeclared_start_imports(start_imports: Iterable[str], requires: Iterable[str]) -> set[str]:
    """Distributions the gate expects ``import tensorflow`` to load that TensorFlow's
    metadata does not require (their ranges would be no requirement of TensorFlow's)."""
    from packaging.requirements import Requirement

    declared = {Requirement(r).name.lower().replace("_", "-") for r in requires}
    return set(start_imports) - declared


def test_every_start_import_is_a_requirement_tensorflow_declares() -> None:
    assert undeclared_start_imports(START_IMPORTS, tf_requires()) == set()
    # Planted: a distribution TensorFlow does not declare, and a declared one dropped.
    assert undeclared_start_imports((*START_IMPORTS, "colorama"), tf_requires()) == {"colorama"}
    first = sorted(START_IMPORTS)[0]
    kept = [r for r in tf_requires() if not r.lower().replace("_", "-").startswith(first)]
    assert undeclared_start_imports(START_IMPORTS, kept) == {first}


# --- a tensorflow module that shadows the installed one -------------------------------------


@pytest.mark.parametrize("kind", ["working-directory", "PYTHONPATH"])
def test_a_shadowing_tensorflow_fails_the_static_gate(
    env: FakeEnv, tmp_path: Path, kind: str
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    extra: dict[str, str] = {}
    if kind == "working-directory":
        (work / "tensorflow").mkdir()
        (work / "tensorflow" / "__init__.py").write_text("", encoding="utf-8")
        shadow = work / "tensorflow"
        command = f'mv "{shadow}" "{shadow}.bak"  # rename your own module'
    else:
        lib = tmp_path / "lib"
        lib.mkdir()
        shadow = lib / "tensorflow.py"
        shadow.write_text("", encoding="utf-8")
        extra["PYTHONPATH"] = f"{ROOT}{os.pathsep}{lib}"
        command = f"unset PYTHONPATH  # or remove {lib} from it"
    code, report = check(env, "--static", cwd=work, extra_env=extra)
    assert code == 2
    (imp,) = found(report, "tensorflow.import")
    assert (imp["severity"], imp["cause"]) == ("error", "tf-shadowed-module")
    assert imp["summary"].startswith(f"`import tensorflow` loads {shadow} (from ")
    assert imp["fix"]["commands"] == [command]


def test_without_a_shadow_the_static_import_is_a_note(env: FakeEnv, tmp_path: Path) -> None:
    code, report = check(env, "--static", cwd=tmp_path)
    (imp,) = found(report, "tensorflow.import")
    assert imp["severity"] == "info" and code == 0


def test_a_known_shadow_bounds_the_import_and_the_progress_says_so(
    env: FakeEnv, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tensorflow").mkdir()
    (tmp_path / "tensorflow" / "__init__.py").write_text(
        "import time\ntime.sleep(600)\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    notes: list[str] = []
    started = time.monotonic()
    facts = collect_facts(env.python, timeout=60.0, progress=notes.append)
    assert time.monotonic() - started < 30
    assert facts.tensorflow is not None
    assert (facts.tensorflow.status, facts.tensorflow.timeout) == ("timeout", 5.0)
    assert f"importing {tmp_path / 'tensorflow'}, which shadows the installed TensorFlow" in (
        "\n".join(notes)
    )
    # What is awaited last is the import, never the driver probe that already ended.
    assert "TensorFlow" in notes[-1] and "driver" not in notes[-1]
    (imp,) = [x for x in judge(facts) if x.id == "tensorflow.import"]
    assert imp.cause == "tf-shadowed-module"
    assert imp.summary.startswith("Importing TensorFlow did not finish within 5 s")


# --- a wheel built for another Python or machine --------------------------------------------


@pytest.mark.parametrize(
    ("tag", "cause"),
    [
        pytest.param(
            f"{OTHER_MINOR}-{OTHER_MINOR}-{HOST_PLATFORM}",
            "wheel-mismatch",
            id="other-python",
        ),
        pytest.param(
            f"{HOST_TAG.rsplit('-', 1)[0]}-manylinux_2_17_{OTHER_ARCH}",
            "wheel-mismatch",
            id="other-arch",
        ),
    ],
)
def test_a_wheel_for_another_python_or_machine_fails_the_static_gate(
    env: FakeEnv, tmp_path: Path, tag: str, cause: str
) -> None:
    env.install("tensorflow", "2.21.0", tag, module="tensorflow")
    code, report = check(env, "--static", cwd=tmp_path)
    assert code == 2
    (wheel,) = found(report, "packages.wheels")
    assert (wheel["severity"], wheel["cause"]) == ("error", cause)
    assert wheel["fix"]["commands"] == [
        f'{env.python} -m pip install --force-reinstall --no-deps "tensorflow==2.21.0"'
    ]
    # The fix applied: pip reinstalls the wheel built for this interpreter; the cause is gone.
    facts = facts_from_report_json(report)
    fixed = dataclasses.replace(
        facts,
        packages=tuple(
            dataclasses.replace(p, wheel_tags=(HOST_TAG,)) if p.name == "tensorflow" else p
            for p in facts.packages or ()
        ),
    )
    assert [x.cause for x in judge(fixed) if x.id == "packages.wheels"] == [""]


def test_a_fitting_wheel_is_ok(env: FakeEnv, tmp_path: Path) -> None:
    _, report = check(env, "--static", cwd=tmp_path)
    (wheel,) = found(report, "packages.wheels")
    assert wheel["severity"] == "ok" and HOST_TAG in wheel["summary"]


def test_a_misfit_that_imported_is_a_warning() -> None:
    tf = dataclasses.replace(f.packages()[0], wheel_tags=("cp310-cp310-manylinux_2_17_x86_64",))
    facts = f.facts(packages=(tf,))
    (wheel,) = [x for x in judge(facts) if x.id == "packages.wheels"]
    assert (wheel.severity, wheel.cause) == (Severity.WARNING, "wheel-mismatch")
    static = dataclasses.replace(facts, tensorflow=f.tensorflow(status="skipped"))
    (wheel,) = [x for x in judge(static) if x.id == "packages.wheels"]
    assert wheel.severity is Severity.ERROR


# --- the tag rules, on plain facts ------------------------------------------------------------

PY311 = f.python(version="3.11.7")
LINUX = f.platform(machine="x86_64", libc="glibc", libc_version="2.35")


@pytest.mark.parametrize(
    ("tags", "python", "platform", "part"),
    [
        pytest.param(("cp311-cp311-manylinux_2_27_x86_64",), PY311, LINUX, None, id="tf-2.21"),
        pytest.param(("cp310-cp310-manylinux_2_27_x86_64",), PY311, LINUX, "python", id="cp310"),
        pytest.param(("cp39-abi3-manylinux2014_x86_64",), PY311, LINUX, None, id="abi3-older"),
        pytest.param(("cp312-abi3-manylinux2014_x86_64",), PY311, LINUX, "python", id="abi3-new"),
        pytest.param(("py3-none-any",), PY311, LINUX, None, id="pure"),
        pytest.param(("py2.py3-none-any",), PY311, LINUX, None, id="compressed"),
        pytest.param(
            ("pp310-pypy310_pp73-manylinux_2_17_x86_64",),
            PY311,
            LINUX,
            "python",
            id="pypy-wheel-on-cpython",
        ),
        pytest.param(
            ("cp311-cp311-manylinux_2_17_aarch64",),
            PY311,
            LINUX,
            "platform",
            id="aarch64-on-x86_64",
        ),
        pytest.param(
            ("cp311-cp311-manylinux_2_17_aarch64",),
            PY311,
            f.platform(machine="aarch64"),
            None,
            id="aarch64",
        ),
        pytest.param(("cp311-cp311-macosx_12_0_arm64",), PY311, LINUX, "platform", id="macos"),
        pytest.param(
            ("cp311-cp311-macosx_10_15_universal2",),
            PY311,
            f.platform(system="Darwin", machine="arm64"),
            None,
            id="universal2",
        ),
        # The macOS release the facts name is below the wheel's deployment target.
        pytest.param(
            ("cp39-cp39-macosx_10_15_x86_64",),
            f.python(version="3.9.7"),
            f.platform(system="Darwin", machine="x86_64", os_name="macOS 10.13.6"),
            "macos",
            id="macos-too-old",
        ),
        # macOS 11 as a Python built with an older SDK reports it (10.16) meets macosx_11_0.
        pytest.param(
            ("cp39-cp39-macosx_11_0_x86_64",),
            f.python(version="3.9.7"),
            f.platform(system="Darwin", machine="x86_64", os_name="macOS 10.16"),
            None,
            id="macos-10.16-is-11",
        ),
        pytest.param(
            ("cp311-cp311-win_amd64",),
            PY311,
            f.platform(system="Windows", machine="AMD64"),
            None,
            id="windows",
        ),
        pytest.param(
            ("cp311-cp311-manylinux_2_38_x86_64",), PY311, LINUX, "glibc", id="glibc-floor"
        ),
        pytest.param(("cp311-cp311-manylinux1_x86_64",), PY311, LINUX, None, id="manylinux1"),
        pytest.param(
            ("cp311-cp311-manylinux_2_17_x86_64",),
            PY311,
            f.platform(libc="musl", libc_version="1.2.4"),
            "platform",
            id="musl",
        ),
        pytest.param(
            ("cp310-cp310-linux_x86_64", "cp311-cp311-linux_x86_64"),
            PY311,
            LINUX,
            None,
            id="second-tag-fits",
        ),
        pytest.param(("not a tag",), PY311, LINUX, None, id="malformed-judges-nothing"),
        pytest.param(
            ("cp310-cp310-manylinux_2_17_x86_64",), PY311, None, "python", id="platform-unknown"
        ),
    ],
)
def test_misfit(tags: tuple[str, ...], python: Any, platform: Any, part: Optional[str]) -> None:
    why = misfit(tags, python, platform)
    assert (why.part if why else None) == part


def test_glibc_floor_names_the_glibc_needed() -> None:
    tf = dataclasses.replace(f.packages()[0], wheel_tags=("cp311-cp311-manylinux_2_38_x86_64",))
    static = f.facts(packages=(tf,), tensorflow=f.tensorflow(status="skipped"))
    (wheel,) = [x for x in judge(static) if x.id == "packages.wheels"]
    assert (wheel.severity, wheel.cause) == (Severity.ERROR, "glibc-too-old")
    assert "glibc 2.38" in wheel.summary and "2.38" in (wheel.fix.text if wheel.fix else "")


def test_old_facts_without_tags_are_a_note() -> None:
    (wheel,) = [x for x in judge(f.facts()) if x.id == "packages.wheels"]
    assert wheel.severity is Severity.INFO


def test_the_probe_records_the_wheel_tags(env: FakeEnv) -> None:
    from tfdoctor.probes.pyenv import probe_pyenv

    result = probe_pyenv(env.python)
    assert result.packages is not None
    by_name: dict[str, PackageFacts] = {p.name: p for p in result.packages}
    assert by_name["tensorflow"].wheel_tags == (HOST_TAG,)


def test_a_failed_import_with_a_misfit_wheel_names_the_wheel() -> None:
    tf = dataclasses.replace(f.packages()[0], wheel_tags=("cp310-cp310-manylinux_2_17_x86_64",))
    failed = f.tensorflow(
        status="import-error",
        error_type="ImportError",
        error_message="Python version mismatch: module was compiled for Python 3.10, but the "
        "interpreter version is incompatible: 3.11.7",
    )
    findings = judge(f.facts(packages=(tf,), tensorflow=failed))
    (imp,) = [x for x in findings if x.id == "tensorflow.import"]
    (wheel,) = [x for x in findings if x.id == "packages.wheels"]
    assert (imp.severity, imp.cause) == (Severity.ERROR, "wheel-mismatch")
    assert "Python version mismatch" in imp.detail
    # One cause, one fix: the import's finding and the wheel check's say the same.
    assert imp.fix == wheel.fix and wheel.severity is Severity.ERROR


def test_an_import_that_loaded_the_shadow_is_no_success() -> None:
    shadowed = f.python(
        tensorflow_origin="/home/me/work/tensorflow",
        tensorflow_path_entry="/home/me/work",
        tensorflow_path_kind="working-directory",
    )
    loaded = f.tensorflow(version=None, build_info={}, is_cuda_build=None, devices=())
    (imp,) = [
        x for x in judge(f.facts(python=shadowed, tensorflow=loaded)) if x.id == "tensorflow.import"
    ]
    assert (imp.severity, imp.cause) == (Severity.ERROR, "tf-shadowed-module")
    assert imp.summary.startswith("The import succeeded, loading a module without a version")


# --- a package TensorFlow imports as it starts, not installed -------------------------------


def test_a_missing_start_import_fails_the_static_gate(env: FakeEnv, tmp_path: Path) -> None:
    env.remove("protobuf")
    env.remove("six")
    code, report = check(env, "--static", cwd=tmp_path)
    assert code == 2
    (pin,) = found(report, "packages.pins")
    assert (pin["severity"], pin["cause"]) == ("error", "dependency-missing")
    assert pin["summary"] == "Not installed, though TensorFlow 2.21.0 requires them: protobuf, six"
    assert pin["fix"]["commands"] == [
        f'{env.python} -m pip install "{PROTOBUF_RANGE}" "six>=1.12.0"'
    ]
    # The fix applied (the packages added at the lowest version the ranges allow): gone.
    facts = facts_from_report_json(report)
    after = f.apply_pip(facts, tuple(pin["fix"]["commands"]), add_missing=True)
    assert after is not None
    assert [x for x in judge(after) if x.id == "packages.pins"] == []


def test_a_missing_requirement_not_imported_at_start_is_a_warning(
    env: FakeEnv, tmp_path: Path
) -> None:
    env.remove("grpcio")  # required, but `import tensorflow` does not import it
    code, report = check(env, "--static", cwd=tmp_path)
    (pin,) = found(report, "packages.pins")
    assert (pin["severity"], pin["cause"]) == ("warning", "dependency-missing")
    assert "grpcio: imported when used, by the TensorFlow Debugger" in pin["detail"]
    assert code == 0


def test_a_requirement_conda_installed_is_not_missing() -> None:
    from tfdoctor.facts import CondaFacts, CondaPackage

    tf = dataclasses.replace(
        f.pkg("tensorflow", "2.21.0", *tf_requires(), top_level=("tensorflow",)),
        requires_missing=("protobuf",),
    )
    static = f.tensorflow(status="skipped")
    missing = f.facts(packages=(tf, TENSORBOARD), tensorflow=static)
    assert [x.cause for x in judge(missing) if x.id == "packages.pins"] == ["dependency-missing"]
    conda = CondaFacts("/opt/conda", (CondaPackage("protobuf", "6.31.1", "py311", "conda-forge"),))
    in_conda = dataclasses.replace(missing, conda=conda)
    assert [x.cause for x in judge(in_conda) if x.id == "packages.pins"] == []


def test_a_wheel_for_a_newer_macos_is_macos_too_old() -> None:
    tf = dataclasses.replace(
        f.packages()[0], version="2.13.1", wheel_tags=("cp39-cp39-macosx_10_15_x86_64",)
    )
    facts = f.facts(
        packages=(tf,),
        python=f.python(version="3.9.7"),
        platform=f.platform(system="Darwin", machine="x86_64", os_name="macOS 10.13.6"),
        tensorflow=f.tensorflow(status="skipped"),
    )
    (wheel,) = [x for x in judge(facts) if x.id == "packages.wheels"]
    assert (wheel.severity, wheel.cause) == (Severity.ERROR, "macos-too-old")
    assert "macOS 10.15" in wheel.summary and "macOS 10.13" in wheel.summary
    assert wheel.fix is not None and "macOS 10.15 or newer" in wheel.fix.text
