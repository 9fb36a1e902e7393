"""The catalogue's fix builders: every fix fits the machine it is for and changes something."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shlex
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Optional

import pytest

from tests import factories as f
from tfdoctor import causes
from tfdoctor.causes.common import Candidate, installed_package_named
from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.evidence.tflog import cuda_of_soname, library_of, read_events, unloaded_files
from tfdoctor.facts import (
    CondaFacts,
    CondaPackage,
    CudaLibsFacts,
    DeviceFacts,
    Facts,
    FoundLibrary,
    LibraryCandidate,
    LibraryFacts,
    PlatformFacts,
    facts_from_json,
)
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import LogHints, Machine, dll_version, get_pip_url
from tfdoctor.matrix import load_matrix

#: What ``Machine.ld_path_with`` appends: the old value, when there was one.
KEEP = '"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"'
MISSING = ("cudart", "cublas", "cufft", "cusparse", "cusolver", "curand", "cudnn")


def machine(facts: Facts) -> Machine:
    return Machine(facts, f.FIXTURE_MATRIX)


def no_cuda_libs(*elsewhere: FoundLibrary, runpath: tuple[str, ...] = ()) -> CudaLibsFacts:
    return CudaLibsFacts(
        cuda_major=12,
        cudnn_major=8,
        libraries=tuple(f.lib(n, f"lib{n}.so") for n in MISSING),
        elsewhere=elsewhere,
        runpath=runpath,
        runpath_object=f"{f.SITE}/tensorflow/libtensorflow_framework.so.2" if runpath else None,
    )


def tf_pkg(name: str, version: str) -> tuple:  # type: ignore[type-arg]
    return (f.pkg(name, version, top_level=("tensorflow",)), f.pkg("numpy", "1.26.4"))


def fix_text(fix: Fix) -> str:
    return "\n".join((fix.text, *fix.commands))


@pytest.mark.parametrize(
    ("packages", "platform", "wanted", "unwanted"),
    [
        pytest.param(
            tf_pkg("tensorflow", "2.15.1"),
            f.platform(),
            "and-cuda]==2.15.1",
            "conda",
            id="2.15-has-the-extra",
        ),
        pytest.param(
            tf_pkg("tensorflow", "2.11.1"),
            f.platform(),
            "/usr/local/cuda-11.2",
            "and-cuda",
            id="2.11-predates-the-extra",
        ),
        pytest.param(
            tf_pkg("tensorflow", "2.13.1"),
            f.platform(),
            "nvidia-cudnn-cu11",
            "and-cuda",
            id="2.13-cudnn-wheel-on-the-path",
        ),
        pytest.param(
            tf_pkg("tf-nightly", "2.22.0.dev20260101"),
            f.platform(),
            "tf-nightly[and-cuda]",
            "tensorflow[and-cuda]",
            id="nightly-own-extra",
        ),
        pytest.param(
            tf_pkg("tf-nightly", "2.4.0.dev20201011"),
            f.platform(),
            "CUDA toolkit",
            "and-cuda",
            id="nightly-before-the-extra",
        ),
        pytest.param(
            tf_pkg("tensorflow", "2.16.1"),
            f.platform(),
            "tensorflow[and-cuda]==2.",
            "==2.16.1",
            id="2.16.1-wheels-not-found-upgrade",
        ),
        pytest.param(
            tf_pkg("tensorflow", "2.16.2"),
            f.platform(),
            "tensorflow[and-cuda]==2.16.2",
            "LD_LIBRARY_PATH",
            id="2.16.2-finds-its-own-wheels",
        ),
    ],
)
def test_the_cuda_library_fix_follows_the_release(
    packages: tuple,  # type: ignore[type-arg]
    platform: object,
    wanted: str,
    unwanted: str,
) -> None:
    facts = f.facts(
        packages=packages,
        platform=platform,
        cuda_libs=no_cuda_libs(),
        tensorflow=f.tensorflow(version=packages[0].version, cuda_version=None),
    )
    _cause, fix = causes.gpu.cuda_libraries_fix(machine(facts), MISSING)
    assert wanted in fix_text(fix)
    assert unwanted not in fix_text(fix)


def test_conda_commands_only_inside_conda() -> None:
    plain = f.facts(
        packages=tf_pkg("tensorflow", "2.10.1"),
        cuda_libs=no_cuda_libs(),
        tensorflow=f.tensorflow(version="2.10.1", cuda_version=None, cudnn_version=None),
    )
    _, fix = causes.gpu.cuda_libraries_fix(machine(plain), MISSING)
    assert "conda" not in fix_text(fix)
    conda = dataclasses.replace(
        plain,
        python=f.python(env_kind="conda", prefix="/home/u/miniconda3/envs/tf"),
        conda=CondaFacts("/home/u/miniconda3/envs/tf", (CondaPackage("python", "3.10.4"),)),
    )
    _, fix = causes.gpu.cuda_libraries_fix(machine(conda), MISSING)
    assert "conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1" in fix.commands


def test_externally_managed_python_gets_a_venv_not_a_refused_pip() -> None:
    facts = f.facts(
        python=f.python(
            env_kind="system", executable="/usr/bin/python3", prefix="/usr", externally_managed=True
        ),
    )
    commands = machine(facts).pip_install("numpy<2")
    assert commands[0].startswith("python3 -m venv")
    assert not any(c.startswith("/usr/bin/python3 -m pip install") for c in commands)


def test_a_package_upgrade_quoted_in_words_is_pips_command_not_the_venvs() -> None:
    """Where pip's commands for an externally managed Python start by creating a venv, the
    command a NumPy fix quotes for the refused package is still pip's."""
    facts = f.facts(
        python=f.python(
            env_kind="system", executable="/usr/bin/python3", prefix="/usr", externally_managed=True
        ),
    )
    m = machine(facts)
    abi = causes.software.numpy_abi_fix(m, "cv2", "opencv-python")
    newer = causes.software.numpy_newer_build_fix(m, "1.20.0", "cv2", "opencv-python")
    for fix in (abi, newer):
        assert "`python3 -m venv" not in fix.text
    assert "-m pip install --upgrade opencv-python" in abi.text
    assert "--no-binary opencv-python opencv-python" in newer.text


def test_a_toolkit_off_the_path_gets_the_one_path_line() -> None:
    found = (
        *tuple(
            FoundLibrary(n, f"/usr/local/cuda-12.2/lib64/lib{n}.so.12", "12.2", "usr-local-cuda")
            for n in MISSING
            if n != "cudnn"
        ),
        FoundLibrary("cudnn", "/opt/cudnn/lib/libcudnn.so.8", "8.9.7", "opt"),
    )
    facts = f.facts(cuda_libs=no_cuda_libs(*found))
    cause, fix = causes.gpu.cuda_libraries_fix(machine(facts), MISSING)
    assert cause == "cuda-libs-off-path"
    assert fix.commands == (
        "export LD_LIBRARY_PATH=/usr/local/cuda-12.2/lib64:/opt/cudnn/lib"
        '"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"',
    )


def test_a_module_tree_gets_module_load() -> None:
    found = (
        *tuple(
            FoundLibrary(n, f"/sw/cuda/12.2/lib64/lib{n}.so.12", "12.2", "module", "cuda/12.2")
            for n in MISSING
            if n != "cudnn"
        ),
        FoundLibrary("cudnn", "/sw/cudnn/8.9/lib/libcudnn.so.8", "8.9.7", "module", "cudnn/8.9"),
    )
    _, fix = causes.gpu.cuda_libraries_fix(
        machine(f.facts(cuda_libs=no_cuda_libs(*found))), MISSING
    )
    assert fix.commands == ("module load cuda/12.2", "module load cudnn/8.9")


def test_a_copy_of_another_cuda_major_is_not_offered() -> None:
    found = tuple(
        FoundLibrary(n, f"/usr/local/cuda-11.8/lib64/lib{n}.so.11", "11.8", "usr-local-cuda")
        for n in MISSING
    )
    cause, _ = causes.gpu.cuda_libraries_fix(
        machine(f.facts(cuda_libs=no_cuda_libs(*found))), MISSING
    )
    assert cause == "cuda-libs-missing"


def test_a_runpath_without_the_wheels_gets_the_wheel_directories() -> None:
    facts = f.facts(
        packages=(*f.packages(), f.pkg("nvidia-cudnn-cu12", "8.9.4.25")),
        cuda_libs=no_cuda_libs(runpath=(f"{f.SITE}/tensorflow",)),
    )
    cause, fix = causes.gpu.cuda_libraries_fix(machine(facts), MISSING)
    assert cause == "cuda-wheels-unfound"
    assert f"{f.SITE}/nvidia/cudnn/lib" in fix.commands[0]


@pytest.mark.parametrize(
    ("value", "expected"),
    [("64_8", "8"), ("64_112", "11.2"), ("64_101", "10.1"), ("8.9.4", "8.9.4"), ("x", None)],
)
def test_windows_dll_suffixes_read_as_versions(value: str, expected: str | None) -> None:
    assert dll_version(value) == expected


@pytest.mark.parametrize(
    ("name", "major"),
    [
        ("libcudart.so.10.1", "10"),
        ("libcudart.so.11.0", "11"),  # every 11.x
        ("libcudart.so.12", "12"),
        ("libcublasLt.so.12", "12"),
        ("cudart64_92.dll", "9"),
        ("cudart64_101.dll", "10"),
        ("cudart64_110.dll", "11"),  # every 11.x
        ("CUDART64_12.DLL", "12"),
        ("cublas64_10.dll", "10"),
        ("cublas64_11.dll", "11"),
        # Their own majors, not CUDA's: cuFFT 10 ships with CUDA 11.
        ("libcufft.so.10", None),
        ("cufft64_10.dll", None),
        ("libcudnn.so.8", None),
    ],
)
def test_the_runtime_and_cublas_names_carry_the_cuda_major(name: str, major: str | None) -> None:
    cuda = cuda_of_soname(name)
    assert (cuda.split(".")[0] if cuda else None) == major


@pytest.mark.parametrize(
    ("container", "has_gpus", "ld_path", "word"),
    [
        pytest.param("docker", False, "", "--gpus", id="container-without-gpu"),
        pytest.param("docker", True, "", "ld.so.conf.d", id="container-with-gpu"),
        pytest.param(None, False, "", "ld.so.conf.d", id="host"),
        pytest.param("docker", False, "/usr/local/cuda/lib64/stubs", "unset", id="on-ld-path"),
    ],
)
def test_the_stub_libcuda_fix_goes_where_the_stub_comes_from(
    container: str | None, has_gpus: bool, ld_path: str, word: str
) -> None:
    facts = f.facts(
        platform=f.platform(container=container),
        environment={"PATH": "/usr/bin", "LD_LIBRARY_PATH": ld_path},
    )
    fix = causes.gpu.libcuda_stub_fix(
        Machine(facts, f.FIXTURE_MATRIX), "/usr/local/cuda/lib64/stubs/libcuda.so.1", has_gpus
    )
    assert word in "\n".join((fix.text, *fix.commands))


def test_library_names_from_log_lines() -> None:
    log = (
        "W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: x\n"
        "W dso_loader.cc:64] Could not load dynamic library 'cublasLt64_11.dll'; dlerror: x\n"
        "ImportError: libcudart.so.12: cannot open shared object file: No such file"
    )
    files = unloaded_files(read_events(log))
    assert files == ("libcudnn.so.8", "cublasLt64_11.dll", "libcudart.so.12")
    assert [library_of(n) for n in files] == ["cudnn", "cublasLt", "cudart"]


def _findings(facts: Facts) -> tuple[Finding, ...]:
    return run_checks(CheckContext(facts, f.FIXTURE_MATRIX))


def test_a_stray_cudnn_is_taken_off_the_path() -> None:
    stray = LibraryCandidate("/opt/old/lib/libcudnn.so.8", "LD_LIBRARY_PATH", "8.1.0", "call", True)
    wheel = f.pip_cand("cudnn/lib/libcudnn.so.8", "8.9.4")
    facts = f.facts(
        cuda_libs=f.cuda_libs(f.lib("cudnn", "libcudnn.so.8", stray, wheel)),
        environment={"LD_LIBRARY_PATH": "/opt/old/lib:/usr/local/lib"},
    )
    shadowed = [x for x in _findings(facts) if x.cause == "cudnn-shadowed"]
    assert shadowed
    assert {x.fix.commands for x in shadowed if x.fix} == {
        ("export LD_LIBRARY_PATH=/usr/local/lib",)
    }


def test_a_stray_directory_that_serves_other_libraries_stays_behind_the_right_one() -> None:
    stray = LibraryCandidate(
        "/usr/local/cuda/lib64/libcudnn.so.8", "LD_LIBRARY_PATH", "8.1.0", "call", True
    )
    cudart = LibraryCandidate(
        "/usr/local/cuda/lib64/libcudart.so.12", "LD_LIBRARY_PATH", "12.2", "call", True
    )
    wheel = f.pip_cand("cudnn/lib/libcudnn.so.8", "8.9.4")
    facts = f.facts(
        cuda_libs=f.cuda_libs(
            f.lib("cudart", "libcudart.so.12", cudart),
            f.lib("cudnn", "libcudnn.so.8", stray, wheel),
        ),
        environment={"LD_LIBRARY_PATH": "/usr/local/cuda/lib64"},
    )
    fixes = {x.fix.commands for x in _findings(facts) if x.cause == "cudnn-shadowed" and x.fix}
    assert fixes == {(f"export LD_LIBRARY_PATH={f.SITE}/nvidia/cudnn/lib" + KEEP,)}


def cause_faults(cid: str, cause: causes.Cause) -> list[str]:
    """A catalogue entry filed under another id than its own, without a title, or whose
    explanation is not a finished sentence."""
    faults = [] if cid == cause.id else [f"{cid}: filed as {cause.id}"]
    faults += [] if cause.title else [f"{cid}: no title"]
    return faults + ([] if cause.explanation.endswith((".", ")", "'")) else [f"{cid}: explanation"])


def test_every_cause_has_an_explanation_and_a_stable_id() -> None:
    assert [x for cid, cause in causes.CAUSES.items() for x in cause_faults(cid, cause)] == []
    # Planted: an entry under another id, one without a title, an explanation cut short.
    abi = causes.CAUSES["numpy-abi"]
    assert cause_faults("numpy-2", abi) == ["numpy-2: filed as numpy-abi"]
    assert cause_faults("numpy-abi", dataclasses.replace(abi, title="")) == ["numpy-abi: no title"]
    cut = dataclasses.replace(abi, explanation=abi.explanation.rstrip(".)'") + " and")
    assert cause_faults("numpy-abi", cut) == ["numpy-abi: explanation"]


def test_tensorrt_load_failures_are_not_blamed() -> None:
    tf = f.tensorflow(
        devices=(),
        log_errors=(
            "W dso_loader.cc:64] Could not load dynamic library 'libnvinfer.so.7'; dlerror: x",
            "W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: x",
        ),
    )
    assert machine(f.facts(tensorflow=tf)).unloaded_files == ("libcudnn.so.8",)


@pytest.mark.parametrize(
    ("version", "cpu_only"),
    [
        # tensorflow 1.15.0 was the GPU build (its release notes); 1.15.2 on, tensorflow-gpu.
        pytest.param("1.15.0", False, id="release-whose-tensorflow-was-the-gpu-build"),
        pytest.param("1.15.2", True, id="later-patch-with-tensorflow-gpu"),
        pytest.param("2.1.0", False, id="tensorflow-holds-gpu-support"),
    ],
)
def test_plain_tensorflow_is_cpu_only_where_the_release_has_another_gpu_build(
    version: str, cpu_only: bool
) -> None:
    # No word from TensorFlow itself (import skipped): the matrix decides by the release.
    facts = f.facts(
        packages=(f.pkg("tensorflow", version, top_level=("tensorflow",)),),
        tensorflow=f.tensorflow(status="skipped", is_cuda_build=None, cuda_version=None),
    )
    assert machine(facts).cpu_only_distribution is cpu_only


@pytest.mark.parametrize("name", ["tensorflow-cpu", "tensorflow_cpu", "Tensorflow.CPU"])
def test_a_cpu_distribution_is_cpu_only_however_its_metadata_spells_it(name: str) -> None:
    facts = f.facts(
        packages=(f.pkg(name, "2.15.1", top_level=("tensorflow",)),),
        tensorflow=f.tensorflow(status="skipped", is_cuda_build=None, cuda_version=None),
    )
    assert machine(facts).cpu_only_distribution
    gate = [
        x
        for x in run_checks(CheckContext(facts, f.FIXTURE_MATRIX, require_gpu=True))
        if x.id == "gpu.required"
    ]
    assert [x.cause for x in gate] == ["tf-cpu-only-build"]


def test_windows_dlls_off_the_path_get_a_path_entry() -> None:
    bin_dir = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2\\bin"
    found = (
        FoundLibrary("cudart", f"{bin_dir}\\cudart64_110.dll", "11.2", "cuda-home"),
        FoundLibrary("cudnn", f"{bin_dir}\\cudnn64_8.dll", "8.1", "cuda-home"),
    )
    facts = f.facts(
        platform=f.platform(system="Windows", machine="AMD64", os_name="Windows 10", libc=""),
        packages=tf_pkg("tensorflow", "2.10.1"),
        tensorflow=f.tensorflow(version="2.10.1", cuda_version="64_112", cudnn_version="64_8"),
        cuda_libs=no_cuda_libs(*found),
    )
    cause, fix = causes.gpu.cuda_libraries_fix(machine(facts), ("cudart", "cudnn"))
    assert cause == "cuda-libs-off-path"
    assert fix.commands == (f'setx PATH "%PATH%;{bin_dir}"',)


@pytest.mark.parametrize(
    ("version", "cuda", "wanted"),
    [
        pytest.param("2.16.1", "12.3", '"tensorflow==2.14.1"', id="broken-extra-release-for-conda"),
        pytest.param("2.15.1", "12.2", '"tensorflow[and-cuda]==2.15.1"', id="own-route-works"),
    ],
)
def test_conda_cuda_decides_only_where_the_release_has_no_route_of_its_own(
    version: str, cuda: str, wanted: str
) -> None:
    prefix = "/home/u/miniconda3/envs/tf"
    facts = f.facts(
        python=f.python(env_kind="conda", prefix=prefix, executable=f"{prefix}/bin/python"),
        conda=CondaFacts(prefix, (CondaPackage("cudatoolkit", "11.8.0", "h", "conda-forge"),)),
        packages=tf_pkg("tensorflow", version),
        tensorflow=f.tensorflow(version=version, cuda_version=cuda),
        cuda_libs=no_cuda_libs(),
    )
    _, fix = causes.gpu.cuda_libraries_fix(machine(facts), MISSING)
    assert any(c.endswith(wanted) for c in fix.commands), fix


def nameless(findings: Iterable[Finding]) -> set[tuple[str, str]]:
    """(id, summary) of warnings and errors that name no cause, but for smoke results
    (measurements), drift against a requirements file and the doctor's own findings."""
    exempt = ("smoke.", "packages.drift", "doctor.")
    return {
        (x.id, x.summary)
        for x in findings
        if x.severity.rank >= Severity.WARNING.rank and not x.cause and not x.id.startswith(exempt)
    }


def test_every_problem_the_checks_report_names_its_cause() -> None:
    """A warning or error without a cause would have no catalogue entry for explain and scan
    to share; smoke results (measurements, not causes) and drift against a requirements file
    are the exceptions."""
    from tests import test_checks
    from tests.test_real_failures import CASES as CORPUS

    facts_list = [case[2] for case in test_checks.CASES]
    facts_list += [
        facts_from_json(json.loads(p.read_text(encoding="utf-8"))["facts"]) for p in CORPUS
    ]
    findings = [x for facts in facts_list for x in _findings(facts)]
    assert any(x.cause for x in findings) and nameless(findings) == set()
    # Planted: a warning without a cause; a smoke result, exempt, is not one.
    planted = Finding("gpu.visible", Severity.WARNING, "no cause named")
    assert nameless([*findings, planted]) == {("gpu.visible", "no cause named")}
    assert nameless([dataclasses.replace(planted, id="smoke.matmul")]) == set()


def test_removing_tensorflow_gpu_restores_the_kept_release_files() -> None:
    facts = f.facts(packages=(*f.packages(), f.pkg("tensorflow-gpu", "2.12.0")))
    fix = causes.software.tensorflow_gpu_removed_fix(machine(facts))
    assert fix.commands == (
        "/opt/venv/bin/python -m pip uninstall -y tensorflow-gpu",
        '/opt/venv/bin/python -m pip install --force-reinstall --no-deps "tensorflow==2.15.1"',
        '/opt/venv/bin/python -m pip install "tensorflow[and-cuda]==2.15.1"',
    )


def test_a_venv_for_an_externally_managed_python_carries_its_tensorflow() -> None:
    facts = f.facts(
        python=f.python(
            env_kind="system", executable="/usr/bin/python3", prefix="/usr", externally_managed=True
        ),
    )
    assert machine(facts).pip_install("numpy<2") == (
        "python3 -m venv ~/.venvs/tf",
        '~/.venvs/tf/bin/python -m pip install "numpy<2" "tensorflow==2.15.1"',
    )


def test_a_keras3_model_needs_no_install_where_keras3_already_serves_tf_keras() -> None:
    # TensorFlow 2.15 (Keras 2): install a Keras 3 line. TensorFlow 2.21 (Keras 3): only the
    # legacy switch stands in the way; reinstalling would change nothing.
    old = causes.software.keras3_model_fix(Machine(f.facts(), f.FIXTURE_MATRIX))
    assert any('"tensorflow>=2.16"' in c for c in old.commands), old.commands
    new_tf = f.pkg("tensorflow", "2.21.0", "keras>=3.12.0", top_level=("tensorflow",))
    facts = f.facts(packages=(new_tf, f.pkg("numpy", "2.1.0")))
    assert causes.software.keras3_model_fix(Machine(facts, f.FIXTURE_MATRIX)).commands == (
        "unset TF_USE_LEGACY_KERAS",
    )


def test_the_keras3_switch_is_removed_in_the_windows_shells() -> None:
    # `unset` is no command in cmd or PowerShell: each shell's own removal.
    windows = f.facts(platform=WINDOWS)
    fix = causes.software.keras3_code_fix(Machine(windows, f.FIXTURE_MATRIX), "keras.src.legacy")
    assert fix.commands[-2:] == (
        "set TF_USE_LEGACY_KERAS=",
        "Remove-Item Env:TF_USE_LEGACY_KERAS -ErrorAction SilentlyContinue",
    )
    assert not [c for c in fix.commands if c.startswith("unset ")]


def _windows_argv(line: str) -> list[str]:
    """The arguments a Windows program gets from ``line`` (CommandLineToArgvW's rules for a
    line with no backslash before a quote): blanks split outside double quotes, which are
    dropped; a single quote is a letter."""
    words, word, quoted, started = [], "", False, False
    for ch in line:
        if ch == '"':
            quoted, started = not quoted, True
        elif ch in " \t" and not quoted:
            if started:
                words.append(word)
            word, started = "", False
        else:
            word, started = word + ch, True
    if started:
        words.append(word)
    return words


@pytest.mark.parametrize(
    "command",
    [
        causes.common.INTERPRETER_CHECK,
        causes.common.PLATFORM_CHECK,
        causes.common.MACHINE_CHECK,
        causes.gpu.DEVICE_LOG_COMMAND,
    ],
)
def test_an_interpreter_check_passes_one_program_in_sh_and_windows(command: str) -> None:
    # These run on every system: sh and a Windows shell must hand python the same program.
    posix = shlex.split(command)
    assert posix[:2] == ["python", "-c"] and len(posix) == 3
    assert _windows_argv(command) == posix
    compile(posix[2], "<check>", "exec")


def test_the_device_log_command_runs_in_every_shell() -> None:
    # sh's `NAME=value command` prefix is no syntax in cmd or PowerShell: the level is set
    # from Python, and the program is double-quoted with no character sh would expand.
    [command] = causes.gpu.read_device_log_fix().commands
    assert not command.startswith("TF_CPP_MIN_LOG_LEVEL=")
    program = command.split(" -c ", 1)[1]
    assert program[0] == program[-1] == '"' and '"' not in program[1:-1]
    assert not set("$`\\!") & set(program)


@pytest.mark.parametrize(
    ("line", "keras3"),
    [("2.15", False), ("2.16", True), ("2.17", True), ("2.21", True)],
)
def test_keras3_serves_tf_keras_on_every_line_from_2_16(line: str, keras3: bool) -> None:
    from tfdoctor.compat import keras3_serves_tf_keras

    found = f.FIXTURE_MATRIX.line_for(f"{line}.0")
    assert found is not None
    assert keras3_serves_tf_keras(found) is keras3


def id_violations(sources: dict[str, str]) -> list[str]:
    """What breaks "each id constant is defined by exactly one ``define`` of its own area":
    ``sources`` maps an area's name to its module's text."""
    import ast

    problems: list[str] = []
    values: dict[str, str] = {}
    for area, text in sources.items():
        tree = ast.parse(text)
        constants = {
            node.target.id: ast.literal_eval(node.value.args[0])
            for node in tree.body
            if isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "CauseId"
        }
        defined = [
            node.args[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "define"
            and node.args
        ]
        names = [arg.id for arg in defined if isinstance(arg, ast.Name)]
        problems.extend(
            f"{area}: define() with {ast.unparse(arg)}, not an id constant of the area"
            for arg in defined
            if not isinstance(arg, ast.Name) or arg.id not in constants
        )
        for name, value in constants.items():
            if names.count(name) != 1:
                problems.append(f"{area}.{name} is defined {names.count(name)} times")
            if value in values:
                problems.append(f"{area}.{name} repeats {values[value]}'s id {value!r}")
            values[value] = f"{area}.{name}"
    return problems


def _area_sources() -> dict[str, str]:
    from pathlib import Path

    return {
        area.__name__.rsplit(".", 1)[1]: Path(area.__file__ or "").read_text(encoding="utf-8")
        for area in causes.AREAS
    }


def test_every_id_constant_is_registered_exactly_once() -> None:
    # An area's catalogue is a dict: a second definition would silently replace the first,
    # and a constant without one would name a cause no finding can carry.
    assert id_violations(_area_sources()) == []
    constants = {
        value
        for area in causes.AREAS
        for name, value in vars(area).items()
        if name.isupper() and isinstance(value, str) and value in causes.CAUSES
    }
    assert constants == set(causes.CAUSES)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            'A: Final = CauseId("a")\nCAUSES = dict((define(A, "t", "e"), define(A, "u", "f")))',
            ["x.A is defined 2 times"],
            id="defined-twice",
        ),
        pytest.param('A: Final = CauseId("a")\n', ["x.A is defined 0 times"], id="never-defined"),
        pytest.param(
            'A: Final = CauseId("a")\nCAUSES = dict((define(A, "t", "e"), define("b", "u", "f")))',
            ["x: define() with 'b', not an id constant of the area"],
            id="literal-id",
        ),
        pytest.param(
            'A: Final = CauseId("a")\nB: Final = CauseId("a")\n'
            'CAUSES = dict((define(A, "t", "e"), define(B, "u", "f")))',
            ["x.B repeats x.A's id 'a'"],
            id="same-id-twice",
        ),
    ],
)
def test_the_id_rule_catches_violations(source: str, expected: list[str]) -> None:
    assert id_violations({"x": source}) == expected


#: Words the data files use where no cause is meant: a log line that is harmless noise
#: (``benign``), evidence for another signature's cause (``evidence``), a healthy machine
#: (``none``), a finding without a cause (``""``).
_NOT_CAUSES = {"benign", "evidence", "none", ""}


def named_causes(text: str, suffix: str) -> set[str]:
    """The cause ids a data file names: ``cause:`` entries in YAML, ``"cause"`` keys in JSON."""
    import json
    import re

    if suffix == ".yaml":
        return {m.group(1) for m in re.finditer(r"^[ -]*cause:[ ]*([^\s#]+)", text, re.M)}
    found: set[str] = set()
    stack = [json.loads(text)]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            cause = node.get("cause")
            if isinstance(cause, str):
                found.add(cause)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def test_every_cause_the_data_files_name_is_catalogued() -> None:
    from pathlib import Path

    root = Path(causes.__file__).resolve().parent.parent.parent
    files = [root / "tfdoctor" / "signatures.yaml", root / "tfdoctor" / "scan_rules.yaml"]
    files += sorted((root / "tests" / "data").rglob("*.json"))
    named: dict[str, str] = {}
    for path in files:
        for cid in named_causes(path.read_text(encoding="utf-8"), path.suffix):
            named.setdefault(cid, str(path.relative_to(root)))
    named.update({cid: "CONTRADICTED_BY" for ids in causes.CONTRADICTED_BY.values() for cid in ids})
    assert len(named) > 50  # the files were read
    unknown = {cid: where for cid, where in named.items() if cid not in causes.CAUSES}
    # A cause a thread confirmed that the catalogue has no id for yet scores as a miss in the
    # unseen batches until it gains one (tests/test_logs_unseen.py lists each).
    from tests.test_logs_unseen import PROPOSED_CAUSES

    allowed = _NOT_CAUSES | set(PROPOSED_CAUSES)
    assert {cid: where for cid, where in unknown.items() if cid not in allowed} == {}


@pytest.mark.parametrize(
    ("text", "suffix"),
    [
        pytest.param("  - id: x\n    cause: no-such-cause  # planted\n", ".yaml", id="yaml"),
        pytest.param('{"cases": [{"expect": {"cause": "no-such-cause"}}]}', ".json", id="json"),
    ],
)
def test_a_planted_unknown_cause_is_seen(text: str, suffix: str) -> None:
    assert named_causes(text, suffix) - set(causes.CAUSES) == {"no-such-cause"}


def test_an_id_two_areas_define_is_refused() -> None:
    # Planted: the same id in two areas; merging must fail instead of keeping the second.
    one = causes.CAUSES["numpy-abi"]
    with pytest.raises(ValueError, match="numpy-abi"):
        causes.merge(({"numpy-abi": one}, {"numpy-abi": one}))
    assert list(causes.merge(({"numpy-abi": one}, {}))) == ["numpy-abi"]


def test_every_area_module_is_assembled() -> None:
    # An area module left out of AREAS would define causes no finding can name.
    import pkgutil

    # Not areas: the types and the relation, the shared fix vocabulary, the observed rule.
    shared = {"base", "common", "observed"}
    names = {m.name for m in pkgutil.iter_modules(causes.__path__)} - shared
    assert names == {area.__name__.rsplit(".", 1)[1] for area in causes.AREAS}


@pytest.mark.parametrize(
    ("installed", "fixed"),
    [
        pytest.param("7.37.0rc1", False, id="pre-release-in-range"),
        pytest.param("6.30.0", True, id="below-range"),
    ],
)
def test_a_range_fix_is_offered_only_where_pip_would_change_something(
    installed: str, fixed: bool
) -> None:
    # pip counts an installed pre-release inside the range as satisfying it: installing the
    # range would change nothing there.
    tf = f.pkg("tensorflow", "2.21.0", "protobuf<8.0.0,>=6.31.1", top_level=("tensorflow",))
    facts = f.facts(packages=(tf, f.pkg("numpy", "2.1.0"), f.pkg("protobuf", installed)))
    fix = causes.common.range_fix(Machine(facts, f.FIXTURE_MATRIX), "protobuf")
    assert (fix is not None) is fixed


#: TensorFlow 2.15's protobuf range, as its wheel declares it.
TF215_PROTOBUF = "protobuf!=4.21.0,!=4.21.1,!=4.21.2,!=4.21.3,!=4.21.4,!=4.21.5,<5.0.0dev,>=3.20.3"


@pytest.mark.parametrize(
    ("requirer", "joint", "admits"),
    [
        # A converter that pins protobuf's 3.20 series: 3.20.3 serves it and TensorFlow.
        pytest.param("protobuf~=3.20.2", True, "3.20.3", id="a-version-serves-both"),
        # One whose range and TensorFlow's share no version: TensorFlow's range alone.
        pytest.param("protobuf<3.20", False, "4.25.3", id="disjoint"),
        # One whose range does not narrow TensorFlow's: TensorFlow's range alone, without the
        # claim that it lets pip take a protobuf outside the other's.
        pytest.param("protobuf>=3.12", False, "4.25.3", id="wider"),
        # One that caps TensorFlow's below its own cap: the joint range.
        pytest.param("protobuf<4", True, "3.20.3", id="capped"),
    ],
)
def test_a_range_fix_stays_inside_the_ranges_other_installed_packages_declare(
    requirer: str, joint: bool, admits: str
) -> None:
    from packaging.specifiers import SpecifierSet

    tf = f.pkg("tensorflow", "2.15.0", TF215_PROTOBUF, top_level=("tensorflow",))
    other = f.pkg("converter", "1.16.0", requirer)
    facts = f.facts(packages=(tf, other, f.pkg("protobuf", "3.20.2")))
    fix = causes.common.range_fix(Machine(facts, f.FIXTURE_MATRIX), "protobuf")
    assert fix is not None
    (command,) = fix.commands
    spec = command.split('"protobuf', 1)[1].rstrip('"')
    assert SpecifierSet(spec).contains(admits)
    assert ("converter" in fix.text) is joint
    assert (requirer.removeprefix("protobuf") in spec) is joint


def _system(name: str, soname: str, version: str) -> LibraryFacts:
    return f.lib(
        name,
        soname,
        LibraryCandidate(f"/usr/local/cuda-12.3/lib64/{soname}", "ldconfig", version, "call", True),
    )


def test_cudnn_missing_beside_a_system_toolkit_is_added_to_it() -> None:
    # A CUDA image: the toolkit serves every library but cuDNN (it has cuDNN 9 only, the
    # build loads libcudnn.so.8). The fix adds cuDNN 8 beside it, and moves nothing else.
    served = (
        _system("cudart", "libcudart.so.12", "12.3"),
        _system("cublas", "libcublas.so.12", "12.3"),
        _system("cufft", "libcufft.so.11", "11.0"),
        f.lib("cudnn", "libcudnn.so.8"),
    )
    # TensorFlow lists no GPU (it skipped it for want of cuDNN).
    cpu = f.tensorflow(devices=(DeviceFacts("/physical_device:CPU:0", "CPU"),))
    facts = f.facts(
        cuda_libs=CudaLibsFacts(cuda_major=12, cudnn_major=8, libraries=served), tensorflow=cpu
    )
    (finding,) = [
        x for x in run_checks(CheckContext(facts, f.FIXTURE_MATRIX)) if x.id == "cuda.libraries"
    ]
    assert finding.cause == "cuda-libs-missing"
    assert finding.fix is not None
    text = fix_text(finding.fix)
    assert "cuDNN 8.9 for CUDA 12" in text
    # The series' wheel as a TensorFlow line's and-cuda extra pins it (a release NVIDIA
    # published and TensorFlow tested).
    assert 'pip install "nvidia-cudnn-cu12==8.9.7.29"' in text
    assert "tensorflow" not in " ".join(finding.fix.commands)  # TensorFlow is not moved
    # Applied: the wheel's cuDNN on the loader's path, and the cause is gone.
    wheel = LibraryCandidate(
        f"{f.SITE}/nvidia/cudnn/lib/libcudnn.so.8", "LD_LIBRARY_PATH", "8.9.7", "call", True
    )
    fixed = (*served[:-1], f.lib("cudnn", "libcudnn.so.8", wheel))
    after = dataclasses.replace(
        facts, cuda_libs=CudaLibsFacts(cuda_major=12, cudnn_major=8, libraries=fixed)
    )
    assert not [
        x
        for x in run_checks(CheckContext(after, f.FIXTURE_MATRIX))
        if x.cause == "cuda-libs-missing"
    ]


def test_the_newest_tensorflow_a_driver_runs_is_offered_only_where_the_driver_is_known() -> None:
    # Without the driver the matrix would name its newest line whatever the driver is.
    unknown = machine(f.facts(driver=None))
    assert "the newest this driver runs" not in fix_text(
        causes.gpu.driver_too_old_fix(unknown, "525.60.13")
    )
    old = machine(f.facts(driver=f.driver(driver_version="470.82.01")))
    offered = fix_text(causes.gpu.driver_too_old_fix(old, "525.60.13"))
    assert "the newest this driver runs" in offered
    assert "2.21" not in offered  # CUDA 12 builds need a 525+ driver


def test_a_converter_upgrade_holds_the_installed_tensorflow() -> None:
    # tensorflowjs 4.x requires tensorflow-decision-forests, each release of which pins one
    # TensorFlow: an upgrade that does not name the installed TensorFlow can move it.
    tf = f.pkg("tensorflow", "2.15.1", top_level=("tensorflow",))
    facts = f.facts(packages=(tf, f.pkg("tensorflowjs", "3.21.0")))
    fix = causes.software.converter_older_fix(machine(facts), "tensorflowjs")
    assert any(
        "install --upgrade tensorflowjs" in c and '"tensorflow==2.15.1"' in c for c in fix.commands
    )
    unknown = causes.software.converter_older_fix(machine(f.facts(packages=())), "tensorflowjs")
    assert not any("tensorflow==" in c or "install" in c for c in unknown.commands)
    assert "pip show" in " ".join(unknown.commands) and "tensorflow==VERSION" in unknown.text


@pytest.mark.parametrize(
    ("version", "cpu_build"),
    [
        pytest.param("1.14.0", "tensorflow==1.14.0", id="older-than-every-line"),
        pytest.param("2.0.4", "tensorflow==2.0.4", id="tensorflow-gpu-line"),
        # The 1.15 line's GPU build is tensorflow-gpu, but 1.15.0's was tensorflow itself, its
        # CPU-only build tensorflow-cpu (the 1.15.0 release notes); 1.15.2 went back.
        pytest.param("1.15.0", "tensorflow-cpu==1.15.0", id="release-packaged-unlike-its-line"),
        pytest.param("1.15.2", "tensorflow==1.15.2", id="later-patch-of-that-line"),
        pytest.param("2.1.0", "tensorflow-cpu==2.1.0", id="tensorflow-holds-both"),
        pytest.param("9.9.0", "tensorflow-cpu==9.9.0", id="newer-than-every-line"),
    ],
)
def test_the_cpu_build_for_libcuda_follows_the_matrixs_gpu_distribution(
    version: str, cpu_build: str
) -> None:
    facts = f.facts(
        packages=(f.pkg("tensorflow", version, top_level=("tensorflow",)),),
        tensorflow=f.tensorflow(version=version),
    )
    fix = causes.gpu.libcuda_import_fix(machine(facts))
    assert fix.commands[-1].endswith(f'pip install "{cpu_build}"')
    # Without the matrix the release's CPU build is named, never installed.
    blind = causes.gpu.libcuda_import_fix(Machine(facts, None))
    assert not any("install" in c for c in blind.commands)


@pytest.mark.parametrize(
    ("version", "dist"),
    [
        ("1.15.0", "tensorflow"),
        ("1.15.5", "tensorflow-gpu"),
        ("2.0.4", "tensorflow-gpu"),
        ("2.1.0", "tensorflow"),
    ],
)
def test_condas_gpu_build_is_replaced_with_the_matrixs_gpu_distribution(
    version: str, dist: str
) -> None:
    fix = causes.software.conda_pypi_companion_fix(
        machine(f.facts()), version, ["tensorflow-gpu"], gpu=True
    )
    assert f'"{dist}=={version}"' in fix.commands[-1]
    cpu = causes.software.conda_pypi_companion_fix(machine(f.facts()), version, ["tensorflow"])
    assert f'"tensorflow=={version}"' in cpu.commands[-1]
    # Only TensorFlow changes installer: a forced reinstall would replace conda's NumPy,
    # h5py and protobuf with PyPI's too.
    assert not [c for c in (*fix.commands, *cpu.commands) if "--force-reinstall" in c]


def test_a_64bit_python_on_windows_is_picked_by_the_launcher() -> None:
    # The 32-bit python stays first on the PATH: `python -m venv` would make a 32-bit
    # environment again, where pip finds no TensorFlow wheel.
    fix = causes.platform.python_64bit_fix(machine(f.facts(platform=WINDOWS)))
    # The launcher's newest 64-bit Python 3 may be one no TensorFlow serves yet: the version
    # is the newest the matrix's newest final line has Windows (x86-64) wheels for.
    assert fix.commands[0] == "py -3.13-64 -m venv .venv"
    assert "Python 3.13" in fix.text and "arm64" not in fix.text
    assert fix.commands[1].startswith(".venv\\Scripts\\python ")
    unknown = causes.platform.python_64bit_fix(Machine(f.facts(platform=WINDOWS), None))
    assert unknown.commands[0] == "py -3-64 -m venv .venv"
    linux = causes.platform.python_64bit_fix(machine(f.facts()))
    assert linux.commands[-1].startswith(".venv/bin/python ")


def test_a_32bit_windows_system_is_told_it_needs_a_64bit_one() -> None:
    # platform.machine() reads the native architecture past WOW64 (CPython's Lib/platform.py,
    # _get_machine_win32): x86 is the system's, where no 64-bit Python installs.
    fix = causes.platform.python_64bit_fix(machine(f.facts(platform=f.platform(**_WIN32))))
    assert "32-bit Windows" in fix.text and "64-bit (x64) edition of Windows" in fix.text
    assert not [c for c in fix.commands if c.startswith(("py -", "python3"))], fix.commands


def test_a_32bit_python_on_a_64bit_windows_gets_the_launchers_commands() -> None:
    # A 32-bit Python on a 64-bit Windows: platform.machine() says AMD64.
    facts = f.facts(platform=f.platform(**{**_WIN32, "machine": "AMD64"}))
    fix = causes.platform.python_64bit_fix(machine(facts))
    assert fix.commands[0] == "py -3.13-64 -m venv .venv", fix.commands


_WIN32 = {"system": "Windows", "machine": "x86", "os_name": "Windows 10", "libc": ""}


def test_a_64bit_python_on_an_unknown_system_has_commands_windows_shells_run() -> None:
    # No system shown: a 32-bit Python is most often python.org's Windows installer, so the
    # launcher's forms come first, then a POSIX install's, every check in double quotes (cmd
    # takes a single quote as a letter).
    fix = causes.platform.python_64bit_fix(machine(f.facts(platform=None)))
    windows = [c for c in fix.commands if c.startswith(("py -", ".venv\\"))]
    assert windows[:2] == [
        "py -3.13-64 -c \"import struct; print(struct.calcsize('P') * 8)\"",
        "py -3.13-64 -m venv .venv",
    ]
    assert ".venv\\Scripts\\python -m pip install tensorflow" in fix.commands
    assert fix.commands.index(windows[-1]) < fix.commands.index("python3.13 -m venv .venv")
    assert not [c for c in fix.commands if " -c '" in c], fix.commands
    assert "python.org" in fix.text


@pytest.mark.parametrize(
    "platform",
    [
        pytest.param(f.platform(), id="linux"),
        pytest.param(
            f.platform(system="Darwin", machine="arm64", os_name="macOS 14.4", libc=""),
            id="macos",
        ),
    ],
)
def test_a_64bit_python_elsewhere_is_picked_by_its_versioned_name(platform: PlatformFacts) -> None:
    # `python` on the PATH may still be the 32-bit one after a 64-bit install beside it: the
    # environment is made by the new install's python3.X, the newest Python the matrix's
    # newest line has wheels for on this platform.
    m = machine(f.facts(platform=platform))
    newest = causes.platform._newest_python_on(m, m.platform or "")
    assert newest is not None
    fix = causes.platform.python_64bit_fix(m)
    assert f"python{newest} -m venv .venv" in fix.commands, fix
    assert not [c for c in fix.commands if c.startswith(("python -m", "python3 -m"))], fix
    assert f"Python {newest}" in fix.text
    # Without the matrix no version is named, and no bare `python -m venv` either.
    bare = causes.platform.python_64bit_fix(Machine(f.facts(platform=platform), None))
    assert not [c for c in bare.commands if "-m venv" in c], bare


def test_the_tile_fix_names_the_rank_only_where_the_log_gives_it() -> None:
    m = machine(f.facts())
    assert (
        "any rank (this one has 8 dimensions) from 1.3 on" in causes.code.tile_rank_fix(m, "8").text
    )
    general = causes.code.tile_rank_fix(m).text
    assert "tf.tile on a tensor of any rank from 1.3 on" in general
    assert "dimensions" not in general


def test_the_too_old_fix_names_the_first_release_only_where_known() -> None:
    m = machine(f.facts())
    known = causes.code.tf_too_old_fix(m, "int64 multiples", "1.4")
    assert "from 1.4 on" in known.text
    assert any('"tensorflow>=1.4,<2"' in c for c in known.commands)
    unknown = causes.code.tf_too_old_fix(m, "int64 multiples", None)
    assert "own requirements" in unknown.text and "1.4" not in unknown.text
    # The examined interpreter's pip, not whichever `pip` comes first on PATH.
    assert unknown.commands == ("/opt/venv/bin/python -m pip show tensorflow",)


WINDOWS = f.platform(system="Windows", machine="AMD64", os_name="Windows 10", libc="")


def _env_fixes(m: Machine) -> dict[str, tuple[str, ...]]:
    """The commands of every fix builder that sets an environment variable, by builder."""
    return {
        "memory": causes.runtime.gpu_memory_fix(m).commands,
        "threads": causes.runtime.thread_limit_fix(m).commands,
        "config-order": causes.runtime.config_order_fix(m).commands,
        "library-init": causes.runtime.gpu_library_init_fix(m).commands,
        "onednn": causes.runtime.onednn_kernel_fix(m).commands,
        "few-cores": causes.gpu.few_cores_fix(m, "2").commands,
        "legacy-keras": causes.common.legacy_keras_switch(m),
    }


def test_a_windows_machine_sets_variables_in_cmd_and_powershell_not_with_export() -> None:
    facts = f.facts(platform=WINDOWS, packages=tf_pkg("tensorflow", "2.10.1"))
    fixes = _env_fixes(machine(facts))
    for name, commands in fixes.items():
        assert not any(c.startswith("export ") for c in commands), name
        assert any(c.startswith("set TF_") for c in commands), name
        assert any(c.startswith("$env:TF_") for c in commands), name
    assert fixes["threads"][-3:] == (
        "set TF_NUM_INTRAOP_THREADS=4",
        "set TF_NUM_INTEROP_THREADS=2",
        '$env:TF_NUM_INTRAOP_THREADS = "4"; $env:TF_NUM_INTEROP_THREADS = "2"',
    )
    assert fixes["few-cores"] == (
        "set TF_MIN_GPU_MULTIPROCESSOR_COUNT=2",
        '$env:TF_MIN_GPU_MULTIPROCESSOR_COUNT = "2"',
    )


def test_a_linux_machine_keeps_export() -> None:
    fixes = _env_fixes(machine(f.facts(packages=tf_pkg("tensorflow", "2.15.1"))))
    for name, commands in fixes.items():
        assert any(c.startswith("export TF_") for c in commands), name
        assert not any(c.startswith(("set ", "$env:")) for c in commands), name
    assert fixes["threads"][-1] == "export TF_NUM_INTRAOP_THREADS=4 TF_NUM_INTEROP_THREADS=2"
    assert causes.common.set_env(machine(f.facts()), ("XLA_FLAGS", "--a --b")) == (
        "export XLA_FLAGS='--a --b'",
    )


@pytest.mark.parametrize(
    ("system", "expected"),
    [
        pytest.param("Linux", ('export SSL_CERT_FILE="$(python -m certifi)"',), id="linux"),
        pytest.param(
            "Windows",
            (
                "for /f \"delims=\" %i in ('python -m certifi') do set SSL_CERT_FILE=%i",
                '$env:SSL_CERT_FILE = "$(python -m certifi)"',
            ),
            id="windows",
        ),
    ],
)
def test_a_variable_set_to_a_commands_output_in_the_machines_shells(
    system: str, expected: tuple[str, ...]
) -> None:
    plat = f.platform(system=system, machine="AMD64", os_name=system, libc="")
    m = machine(f.facts(platform=plat))
    assert causes.common.set_env_to_output(m, "SSL_CERT_FILE", "python -m certifi") == expected


def test_the_network_fixes_set_variables_in_the_machines_shells() -> None:
    # The proxy and a CA bundle: cmd's and PowerShell's forms on Windows, export elsewhere.
    windows = machine(f.facts(platform=WINDOWS))
    proxy = causes.network.network_fix(windows, ("proxy",), "[WinError 10061]").commands
    certs = causes.network.ca_certs_fix(windows, False, None).commands
    assert "set HTTPS_PROXY=http://PROXY_HOST:PORT" in proxy
    assert "set REQUESTS_CA_BUNDLE=/path/to/organisation-ca.pem" in certs
    assert '$env:SSL_CERT_FILE = "$(python -m certifi)"' in certs
    assert not any(c.startswith("export ") for c in (*proxy, *certs))
    linux = machine(f.facts())
    proxy = causes.network.network_fix(linux, ("proxy",), "[Errno 111]").commands
    certs = causes.network.ca_certs_fix(linux, False, None).commands
    assert "export HTTPS_PROXY=http://PROXY_HOST:PORT HTTP_PROXY=http://PROXY_HOST:PORT" in proxy
    assert "export REQUESTS_CA_BUNDLE=/path/to/organisation-ca.pem" in certs


def test_the_hidden_gpu_variable_is_printed_in_the_machines_shells() -> None:
    # sh's echo reads no variable in cmd or PowerShell: cmd's %NAME%, PowerShell's $env:NAME.
    windows = machine(f.facts(platform=WINDOWS))
    linux = machine(f.facts())
    win = causes.gpu.no_device_fix(windows).commands
    assert win[:2] == (
        "echo CUDA_VISIBLE_DEVICES=%CUDA_VISIBLE_DEVICES%",
        '"CUDA_VISIBLE_DEVICES=$env:CUDA_VISIBLE_DEVICES"',
    )
    assert not any("$CUDA_VISIBLE_DEVICES" in c for c in win)
    assert causes.gpu.no_device_fix(linux).commands[0] == (
        'echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"'
    )
    # The candidate among the others of a GPU TensorFlow does not list: the same forms.
    listed = causes.gpu.unlisted_gpu_fix(windows, ("cpu-build", "hidden"), "shown").commands
    assert "echo CUDA_VISIBLE_DEVICES=%CUDA_VISIBLE_DEVICES%" in listed
    assert 'echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"' not in listed
    assert causes.gpu.unlisted_candidate_commands(linux, "hidden") == (
        'echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"',
    )


@pytest.mark.parametrize(
    "table",
    [causes.runtime.GPU_LIBRARY_INIT_CANDIDATES, causes.gpu.UNLISTED_GPU_CANDIDATES],
    ids=["gpu-library-init", "unlisted-gpu"],
)
def test_each_candidate_carries_its_cause_title_and_fix(
    table: Mapping[str, Candidate],
) -> None:
    # One record per candidate: the finding of its own reads its cause and title there, and
    # its fix is the record's, fitted to the machine.
    m = machine(f.facts())
    for candidate in table.values():
        assert candidate.cause in causes.CAUSES
        assert candidate.title in (candidate.short, candidate.what)
        assert candidate.title and candidate.tell and candidate.fix(m).text
    memory = causes.runtime.GPU_LIBRARY_INIT_CANDIDATES["memory"]
    assert memory.title == "the GPU's memory already taken"
    assert causes.runtime.gpu_library_candidate_fix(m, "memory").commands == (
        *memory.shows,
        *memory.fix(m).commands,
    )
    metal = causes.gpu.UNLISTED_GPU_CANDIDATES["metal"]
    assert metal.title == metal.what
    # Shown by the examined interpreter's pip (Machine.pip), not by a bare `pip`.
    assert causes.gpu.unlisted_candidate_commands(m, "metal") == (
        "/opt/venv/bin/python -m pip show tensorflow-metal",
    )


def test_the_cudnn_dll_listing_is_where_exe_not_powershells_alias() -> None:
    fix = causes.gpu.older_cudnn_first_fix(machine(f.facts()), "8.6", "windows", False)
    assert fix.commands == ("where.exe cudnn64_*.dll",)
    both = causes.gpu.older_cudnn_first_fix(machine(f.facts()), "8.6", None, False)
    assert not any(c.startswith("where ") for c in both.commands)


_NIX_STORE_PATH = "/nix/store/abc123-python3-3.11.6-env"


def test_the_nix_toolkit_fix_has_no_placeholder_command() -> None:
    fix = causes.gpu.nix_cuda_fix(_NIX_STORE_PATH, ["cusolver", "cublas"])
    assert fix.commands == (
        "find /nix/store -maxdepth 3 \\( -name 'libcusolver.so*' -o -name 'libcublas.so*' \\) "
        "2>/dev/null",
    )
    assert not any("<" in c or "that store path" in c for c in fix.commands)
    assert "first on LD_LIBRARY_PATH" in fix.text


def test_the_nix_toolkit_fix_without_a_plain_name_runs_no_empty_find() -> None:
    fix = causes.gpu.nix_cuda_fix(_NIX_STORE_PATH, ["cudnn.so.8"])
    assert not any("find" in c for c in fix.commands)
    assert not any("\\(  \\)" in c for c in fix.commands)
    assert "find /nix/store -maxdepth 3 -name" in fix.text


def test_the_hidden_gpus_are_unhidden_in_the_machines_shells() -> None:
    # cmd's `set NAME=` removes it, PowerShell's Env: drive too; sh's unset and export.
    win = causes.gpu.visible_devices_fix(machine(f.facts(platform=WINDOWS))).commands
    assert win == (
        # common.unset_env's lines, the one home of each shell's removal.
        *causes.common.unset_env(machine(f.facts(platform=WINDOWS)), "CUDA_VISIBLE_DEVICES"),
        "set CUDA_VISIBLE_DEVICES=0",
        '$env:CUDA_VISIBLE_DEVICES = "0"',
    )
    assert causes.gpu.visible_devices_fix(machine(f.facts())).commands == (
        "unset CUDA_VISIBLE_DEVICES",
        "export CUDA_VISIBLE_DEVICES=0",
    )


def test_the_collective_groups_fix_prints_the_variable_in_the_machines_shells() -> None:
    win = causes.cluster.collective_group_fix(machine(f.facts(platform=WINDOWS))).commands
    assert "echo CUDA_VISIBLE_DEVICES=%CUDA_VISIBLE_DEVICES%" in win
    assert not any("$CUDA_VISIBLE_DEVICES" in c for c in win)
    assert causes.cluster.collective_group_fix(machine(f.facts())).commands[0] == (
        'echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"'
    )


@pytest.mark.parametrize("severity", [Severity.WARNING, Severity.INFO])
def test_other_candidate_titles_each_second_candidate_at_the_severity_given(
    severity: Severity,
) -> None:
    cause = causes.software.TF_INSTALL_INCOMPLETE
    fix = Fix("Reinstall TensorFlow.", ("pip install --force-reinstall tensorflow",))
    found = causes.other_candidate(cause, "the files may be incomplete", "detail", fix, severity)
    assert found.id == f"explain.{cause}" and found.cause == cause
    assert found.severity is severity
    assert found.summary == "Or: the files may be incomplete (the other candidate)"
    assert found.fix is fix and found.detail == "detail"
    # A warning unless the caller ranks it lower.
    plain = causes.other_candidate(cause, "the files may be incomplete", "detail", fix)
    assert plain.severity is Severity.WARNING


@pytest.mark.parametrize("requested", [None, "2.11.0", "2.9.0"])
def test_apple_silicons_fix_runs_the_examined_pythons_pip(requested: str | None) -> None:
    """The Apple silicon reading installs with the interpreter the facts name, as every other
    fix does, not with whatever ``python`` the shell finds first."""
    exe = "/opt/homebrew/bin/python3.10"
    m = machine(f.facts(python=f.python(executable=exe)))
    fix = causes.platform.apple_silicon_fix(m, requested, "2.13", ("3.9", "3.10"), "3.10.8")
    assert fix is not None
    pips = [c for c in fix.commands if " pip " in c]
    assert pips and all(c.startswith(f"{exe} -m pip install") for c in pips)


def test_a_librarys_call_of_another_release_installs_nothing_blind() -> None:
    m = machine(f.facts())
    fix = causes.code.library_call_fix(m, "Keras", "conv() refused its keyword groups", "spektral")
    assert "spektral's requirements" in fix.text and "conv() refused" in fix.text
    assert fix.commands == ("/opt/venv/bin/python -m pip show tensorflow keras spektral",)


@pytest.mark.parametrize(
    ("resolver", "command"),
    [
        ("uv pip", 'uv pip install "tensorflow==2.15.1" "keras==2.15.0"'),
        ("uv", 'uv add "tensorflow==2.15.1"'),
        ("poetry", 'poetry add "tensorflow==2.15.1"'),
        ("pdm", 'pdm add "tensorflow==2.15.1"'),
        # pixi's workspace, whose PyPI resolver prints uv's words: its own command.
        ("pixi", 'pixi add --pypi "tensorflow==2.15.1"'),
        ("pip", None),
    ],
)
def test_each_resolver_requires_a_release_with_its_own_command(
    resolver: str, command: str | None
) -> None:
    # uv's pip interface has no project to record the other requirement in: both go on its
    # command line; a project's resolver reads the other from pyproject.toml.
    assert causes.common.add_command(resolver, "tensorflow==2.15.1", "keras==2.15.0") == command


def test_an_unpublished_pin_on_a_python_no_release_serves_pins_nothing() -> None:
    fix = causes.software.unpublished_pin_fix("tensorflow", "==2.99.1", "uv", (), "3.14")
    assert "publishes a wheel for Python 3.14" in fix.text
    assert not any(x.startswith("uv add") for x in fix.commands)
    served = causes.software.unpublished_pin_fix(
        "tensorflow", "==2.99", "poetry", ("2.20.0",), "3.9"
    )
    assert served.commands == ('poetry add "tensorflow==2.20.0"',)
    assert "with wheels for Python 3.9" in served.text


def test_another_architectures_wheel_gets_an_environment_of_a_native_interpreter() -> None:
    # The loader refused an x86-64 wheel's library from a 32-bit Python (ELFCLASS64): the
    # environment is made by a native install's versioned interpreter and the wheel installed
    # there, not force-reinstalled by the same Python.
    m = machine(f.facts())
    fix = causes.platform.architecture_fix("x86_64", "tensorflow", m)
    interpreter = f"python{causes.platform._newest_python_on(m, 'linux-x86_64')}"
    made = fix.commands.index(f"{interpreter} -m venv .venv")
    assert fix.commands[made + 1] == ".venv/bin/python -m pip install tensorflow", fix
    assert not [c for c in fix.commands if "--force-reinstall" in c or "arch -" in c], fix
    # Under Rosetta (macOS's loader refused it): arch -arm64 runs every step native.
    rosetta = f.platform(
        system="Darwin", machine="x86_64", os_name="macOS 14.4", libc="", rosetta=True
    )
    mac = causes.platform.architecture_fix(None, "h5py", machine(f.facts(platform=rosetta)), True)
    assert mac.commands[:2] == (
        "arch -arm64 python3 -m venv .venv",
        "arch -arm64 .venv/bin/python -m pip install h5py",
    ), mac
    # Nothing known of the machine: the two checks only, no environment of a guessed Python.
    bare = causes.platform.architecture_fix(None)
    assert not [c for c in bare.commands if "install" in c or "venv" in c], bare


def test_an_ended_addon_without_tensorflows_version_is_shown_by_the_machines_pip() -> None:
    # TensorFlow Addons ended; TensorFlow is not among the packages: the fix shows both
    # releases through the examined environment's pip, as its listing of releases does,
    # not through whichever `pip` the PATH finds first.
    facts = f.facts(packages=(f.pkg("numpy", "1.26.4"),))
    m = machine(facts)
    assert m.tf is None
    fix = causes.software.companion_fix(m, "tensorflow-addons")
    show = "/opt/venv/bin/python -m pip show tensorflow tensorflow-addons"
    assert fix.commands[0] == show, fix
    assert not [c for c in fix.commands if c.startswith("pip ")], fix
    # The words name the listing of this add-on's releases, as the other fixes' words do.
    assert "(`pip index versions tensorflow-addons` lists them)" in fix.text, fix


def _tf_machine(version: str) -> Machine:
    """A machine whose TensorFlow is ``version`` (its matrix line's and-cuda pins apply)."""
    installed = (f.pkg("tensorflow", version, top_level=("tensorflow",)), f.pkg("numpy", "1.26.4"))
    return machine(f.facts(packages=installed, tensorflow=f.tensorflow(version=version)))


def test_the_compiler_wheel_follows_the_installed_lines_and_cuda_pin() -> None:
    ptxas = f"{f.SITE}/nvidia/cuda_nvcc/bin/ptxas"
    # 2.19's and-cuda extra pins nvidia-cuda-nvcc-cu12==12.5.82, older than sm_120's CUDA
    # 12.8: no install, and the oldest newer line whose extra admits 12.8 is named.
    pinned = causes.xla._nvcc_wheel_old_fix(_tf_machine("2.19.1"), "sm_120", ptxas)
    assert "TensorFlow 2.20 or newer" in pinned.text
    assert not any("install" in c for c in pinned.commands)
    # 2.21 admits it (<13.0,>=12.5.82): the wheel of 12.8 or newer is installed.
    free = causes.xla._nvcc_wheel_old_fix(_tf_machine("2.21.0"), "sm_120", ptxas)
    assert 'install "nvidia-cuda-nvcc-cu12>=12.8"' in free.commands[-1]
    # Clearing PATH reads the same pin: 2.19's wheel cannot reach 12.6, 2.21's gets its range.
    text = "Take /usr/local/cuda-11/bin off PATH"
    held = causes.xla._clear_path_fix(_tf_machine("2.19.1"), text, "12.6")
    assert "pins nvidia-cuda-nvcc-cu12==12.5.82" in held.text and len(held.commands) == 2
    moved = causes.xla._clear_path_fix(_tf_machine("2.21.0"), text, "12.6")
    assert moved.commands[-1].endswith('install "nvidia-cuda-nvcc-cu12<13.0,>=12.5.82"')


def test_pip_commands_reach_the_environment_the_log_shows_uv_managing() -> None:
    bare = dataclasses.replace(f.facts(), python=None)
    uv = Machine(bare, f.FIXTURE_MATRIX, LogHints(installer="uv pip"))
    assert uv.pip_install("numpy<2") == ('uv pip install "numpy<2"',)
    assert uv.pip("show tensorflow") == ("uv pip show tensorflow",)
    assert uv.pip("uninstall -y tensorflow") == ("uv pip uninstall tensorflow",)  # uv never asks
    # uv's pip interface has no `index`: pip itself, run by uv in that environment.
    assert uv.list_releases("tensorflow") == (
        "uv run --with pip python -m pip index versions tensorflow",
    )
    project = Machine(bare, f.FIXTURE_MATRIX, LogHints(installer="uv"))
    assert project.pip_look("list") == ("uv pip list",)
    # A uv project: uv pip install would be undone by the next uv sync or uv run, which
    # restore the lock; uv add writes the requirement to pyproject.toml and the lock.
    assert project.pip_install("numpy<2") == ('uv add "numpy<2"',)
    assert project.pip("uninstall -y tensorflow-gpu") == ("uv remove tensorflow-gpu",)
    assert project.pip('install --force-reinstall --no-deps "h5py==3.10.0"') == (
        'uv add --reinstall-package h5py "h5py==3.10.0"',
    )
    assert project.pip('install -U "tensorflow[and-cuda]==2.16.1"') == (
        'uv add --upgrade-package tensorflow "tensorflow[and-cuda]==2.16.1"',
    )
    # pip itself, and an option without a project form, keep uv's pip interface.
    assert project.pip("install --upgrade pip") == ("uv pip install --upgrade pip",)
    assert project.pip("install --user keras") == ("uv pip install --user keras",)
    # pixi's workspace: its own add and remove for PyPI packages, never uv's commands.
    pixi = Machine(bare, f.FIXTURE_MATRIX, LogHints(installer="pixi"))
    assert pixi.pip_install("numpy<2") == ('pixi add --pypi "numpy<2"',)
    assert pixi.pip("uninstall -y keras") == ("pixi remove --pypi keras",)
    assert not [c for c in pixi.pip('install --force-reinstall "h5py==3.10.0"') if "uv" in c]
    # pixi add --pypi reads each argument as a PEP 508 requirement (pixi's pypi_deps:
    # Requirement::parse): a bare wheel or source tree is no requirement there.
    assert not [c for c in pixi.pip("install ./tensorflow-2.16.1-cp311.whl") if "pixi" in c]
    # Neither shown: a bare pip, as before; the probed interpreter's own where known.
    assert Machine(bare, f.FIXTURE_MATRIX, LogHints()).pip("check") == ("pip check",)
    assert machine(f.facts()).pip("check") == ("/opt/venv/bin/python -m pip check",)


def test_check_fixes_a_uv_projects_environment_with_uv_add() -> None:
    """The facts show the environment is a uv project's (uv made it, uv.lock beside it): an
    install goes through the project; a uv environment without a project keeps its pip."""
    project = machine(f.facts(python=f.python(uv_project="/home/u/proj")))
    assert project.pip_install("numpy<2") == ('uv add "numpy<2"',)
    assert project.pip_look("check") == ("uv pip check",)
    plain = machine(f.facts(python=f.python(uv_project=None)))
    assert plain.pip_install("numpy<2") == ('/opt/venv/bin/python -m pip install "numpy<2"',)
    fix = causes.software.numpy_abi_fix(project)
    # The installed TensorFlow declares numpy<2.0.0,>=1.23.5: that range, no second cap.
    assert fix.commands == ('uv add "numpy<2.0.0,>=1.23.5"',)


def test_a_fix_that_looks_at_pip_asks_the_examined_interpreters_pip() -> None:
    """The builders that once wrote a bare `pip show` or `pip list` reach the examined
    interpreter through Machine.pip."""
    m = machine(f.facts())
    fixes = (
        causes.code.library_call_fix(m, "TensorFlow", "tf.foo()", "somelib"),
        causes.gpu.rocm_arch_list_fix(m, "gfx1030", "gfx1030gfx1031"),
        causes.software.graph_from_other_tf_fix(m, "Conv2D"),
        causes.runtime.unreleased_build_fix(m, "tf-nightly", "2.17.0.dev20240101", "2.16.1"),
    )
    for fix in fixes:
        assert fix.commands, fix
        for command in fix.commands:
            assert not command.startswith(("pip ", "python -m pip", "python3 -m pip")), command
    assert "/opt/venv/bin/python -m pip show tensorflow-rocm" in fixes[1].commands


def test_pips_own_upgrade_goes_through_the_module_where_no_interpreter_is_shown() -> None:
    """pip run by its launcher refuses to replace itself on Windows: its own upgrade, and the
    version read after it, are `python -m pip` even where other commands are a bare pip."""
    bare = Machine(dataclasses.replace(f.facts(), python=None), f.FIXTURE_MATRIX, LogHints())
    assert bare.pip("install --upgrade pip") == ("python -m pip install --upgrade pip",)
    assert bare.pip('install --upgrade "pip<21"') == ('python -m pip install --upgrade "pip<21"',)
    assert bare.pip("--version") == ("python -m pip --version",)
    assert bare.pip("install pipx") == ("pip install pipx",)  # another package
    fix = causes.platform.pip_upgrade_fix(machine(f.facts()), "pip is too old")
    assert all(c.startswith("/opt/venv/bin/python -m pip") for c in fix.commands if "pip" in c)


def test_uvs_forms_take_pips_network_options_and_cache_the_way_uv_reads_them() -> None:
    """uv's pip interface has no --timeout, --retries or --proxy (its own environment
    variables, UV_HTTP_TIMEOUT, UV_HTTP_RETRIES and the proxy variables, set them), and its
    cache is uv's own (`uv cache clean`), not pip's."""
    bare = dataclasses.replace(f.facts(), python=None)
    uv = Machine(bare, f.FIXTURE_MATRIX, LogHints(installer="uv pip", os="linux"))
    assert uv.pip("cache purge") == ("uv cache clean",)
    slow = causes.network.network_fix(uv, ("host",), "Read timed out", slow=True)
    assert "export UV_HTTP_TIMEOUT=120 UV_HTTP_RETRIES=10" in slow.commands, slow
    assert "uv pip install PACKAGE" in slow.commands, slow
    proxy = causes.network.network_fix(uv, ("proxy",), "Connection refused")
    assert "uv pip install PACKAGE" in proxy.commands, proxy
    for fix in (slow, proxy):
        assert not [c for c in fix.commands if "--timeout" in c or "--proxy" in c], fix
    # pip's own forms keep pip's options.
    pip = causes.network.network_fix(machine(f.facts()), ("host",), "Read timed out", slow=True)
    assert "/opt/venv/bin/python -m pip install --timeout 120 --retries 10 PACKAGE" in (
        pip.commands
    )


def test_other_frameworks_fixes_look_through_the_examined_interpreters_pip() -> None:
    m = machine(f.facts(packages=(f.pkg("numpy", "1.26.4"),)))
    fixes = (
        causes.gpu.jax_cudnn_shadowed_fix(m, "9.1.0", "9.8.0"),
        causes.gpu.onnxruntime_cuda_fix(m, None, None),
    )
    for fix in fixes:
        assert not [c for c in fix.commands if c.startswith(("pip ", "python -m pip"))], fix
    assert "/opt/venv/bin/python -m pip show onnxruntime-gpu" in fixes[1].commands


def test_a_look_after_an_install_into_a_new_environment_looks_there() -> None:
    """Where an externally managed Python's install goes into a new virtual environment, the
    `pip check` or `pip --version` that follows it in the fix reads that environment, not the
    system's interpreter the install left alone."""
    facts = f.facts(
        python=f.python(
            env_kind="system", executable="/usr/bin/python3", prefix="/usr", externally_managed=True
        ),
    )
    m = machine(facts)
    pinned = causes.software.tf_pin_conflict_fix(m, "typing-extensions", "fastapi")
    upgraded = causes.platform.pip_upgrade_fix(m, "pip is too old")
    for fix, look in ((pinned, "check"), (upgraded, "--version")):
        assert fix.commands[0] == "python3 -m venv ~/.venvs/tf", fix
        assert fix.commands[-1] == f"~/.venvs/tf/bin/python -m pip {look}", fix
    # Elsewhere the look is the examined interpreter's, as its install is.
    plain = causes.software.tf_pin_conflict_fix(machine(f.facts()), "typing-extensions")
    assert plain.commands[-1] == "/opt/venv/bin/python -m pip check"


def test_a_nightlys_builds_are_listed_with_pips_pre_releases() -> None:
    """A nightly's builds (2.17.0.dev20240101) are pre-releases: `pip index versions` drops
    them without --pre (pip/_internal/commands/index.py) and finds no tf-nightly at all."""
    m = machine(f.facts())
    assert m.list_releases("tf-nightly")[-1] == (
        "/opt/venv/bin/python -m pip index versions --pre tf-nightly"
    )
    assert (
        m.list_releases("tensorflow")[-1] == "/opt/venv/bin/python -m pip index versions tensorflow"
    )
    fix = causes.runtime.unreleased_build_fix(m, "tf-nightly", "2.17.0.dev20240101", "2.16.1")
    assert "index versions --pre tf-nightly" in fix.commands[0], fix
    assert "`pip index versions --pre tf-nightly`" in fix.text


@pytest.mark.parametrize(
    ("python", "pip", "listing"),
    [
        pytest.param("3.11.7", "24.0", "pip index versions --pre tf-nightly", id="pip-24"),
        # pip 21.2 added `pip index` (its changelog): an older pip is upgraded first.
        pytest.param("3.8.10", "20.0.2", "pip index versions --pre tf-nightly", id="pip-20"),
        # No pip with `pip index` runs on Python 3.5: pip's refusal lists the builds.
        pytest.param("3.5.2", "20.3.4", 'pip install "tf-nightly=="', id="python-3.5"),
    ],
)
def test_the_nightly_fix_names_the_listing_its_commands_run(
    python: str, pip: str, listing: str
) -> None:
    """The nightly fix's words name the listing its commands run on the pip the facts show,
    never `pip index versions` where that pip has none."""
    m = machine(f.facts(python=f.python(version=python, pip_version=pip)))
    fix = causes.runtime.unreleased_build_fix(m, "tf-nightly", "2.4.0.dev20200801", "2.4.0")
    assert f"`{listing}`" in fix.text, fix.text
    assert any(c.endswith(listing) for c in fix.commands), fix.commands
    if "index" not in listing:
        assert "index versions" not in fix.text
    if pip == "20.0.2":
        assert fix.commands[0].endswith("pip install --upgrade pip"), fix.commands


@pytest.mark.parametrize(
    ("system", "arch", "python"),
    [
        pytest.param("Darwin", "x86_64", "3.12.4", id="intel-mac"),
        pytest.param("Linux", "aarch64", "3.8.10", id="linux-aarch64"),
    ],
)
def test_python_range_fix_names_a_release_with_a_wheel_for_this_platform(
    system: str, arch: str, python: str
) -> None:
    """The release the fix installs has a wheel for the Python on this machine's own
    platform (the matrix's key), not on some other CPU of its operating system."""
    matrix = load_matrix()
    facts = dataclasses.replace(
        f.facts(python=f.python(version=python)),
        platform=f.platform(
            system=system, machine=arch, libc="" if system == "Darwin" else "glibc"
        ),
    )
    m = Machine(facts, matrix)
    assert m.platform is not None
    fix = causes.platform.python_range_fix(m, "tensorflow", "2.99.0", ">=3.99", python)
    named = [c.split("==")[1].rstrip('"') for c in fix.commands if "tensorflow==" in c]
    assert named, fix.commands
    line = matrix.line_for(named[0])
    assert line is not None and line.has_wheels_for(python, m.platform), (named, m.platform)


def test_a_free_threaded_build_is_sent_to_a_python_with_wheels_on_this_platform() -> None:
    """The default build the fix names has a wheel on this machine's own platform: an Intel
    Mac's free-threaded 3.13 is not sent to 3.13, whose wheels are Apple silicon's only."""
    matrix = load_matrix()
    facts = dataclasses.replace(
        f.facts(python=f.python(version="3.13.1")),
        platform=f.platform(system="Darwin", machine="x86_64", libc=""),
    )
    m = Machine(facts, matrix)
    assert m.platform is not None
    fix = causes.platform.interpreter_without_wheels_fix(m, "CPython", True, "3.13.1")
    assert fix is not None
    made = fix.commands[0].split(" ")[0].removeprefix("python")
    assert any(x.has_wheels_for(made, m.platform) for x in matrix.releases), fix.commands


@pytest.mark.parametrize(
    ("loaded", "build", "serves"),
    [
        ("8.9.4", "8.9.7", True),  # the patch level is not asked
        ("8.9.7", "8.6.0", True),
        ("8.6.0", "8.9.0", False),
        ("9.1.0", "8.9.7", False),
        ("8", "8.9.7", True),  # a major read from a file name: what both have
    ],
)
def test_a_cudnn_serves_a_build_of_its_major_and_an_older_or_equal_minor(
    loaded: str, build: str, serves: bool
) -> None:
    # cuda_dnn.cc: "CuDNN library needs to have matching major version and equal or higher
    # minor version".
    assert causes.gpu.cudnn_serves(loaded, build) is serves


def test_the_secure_boot_fix_for_an_unknown_distribution_runs_as_given() -> None:
    """Each command runs as written: the choice of key file is the text's, not a shell
    comment inside a command."""
    fix = causes.gpu.secure_boot_fix(None)
    assert fix.commands and not any("#" in c for c in fix.commands)
    assert "mokutil --import" in fix.text


def test_the_secure_boot_fix_enrolls_only_a_key_file_the_machine_has(tmp_path: Path) -> None:
    """The unknown distribution's enrolling command, run by a shell with a recording `sudo`,
    imports the first of the builders' key files present here, and nothing where none is: an
    import of a file the machine lacks would fail and enroll nothing."""
    fix = causes.gpu.secure_boot_fix(None)
    (enroll,) = [c for c in fix.commands if "mokutil --import" in c]
    log = tmp_path / "sudo.log"
    fake = tmp_path / "sudo"
    fake.write_text('#!/bin/sh\necho "$@" >> "$SUDO_LOG"\n', encoding="utf-8")
    fake.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}",
        "SUDO_LOG": str(log),
    }
    subprocess.run(["bash", "-c", enroll], env=env, check=False, timeout=30)
    keys = (causes.gpu.DKMS_MOK, causes.gpu.UBUNTU_MOK, causes.gpu.AKMODS_MOK)
    present = [k for k in keys if Path(k).exists()]
    ran = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    assert ran == ([f"mokutil --import {present[0]}"] if present else [])


@pytest.mark.parametrize(
    ("prefix", "pixi"),
    [
        # pixi installs each environment of a workspace in its .pixi/envs/NAME.
        pytest.param("/home/u/proj/.pixi/envs/default", True, id="pixi-default"),
        pytest.param("/home/u/proj/.pixi/envs/cuda", True, id="pixi-named"),
        pytest.param("/opt/conda/envs/tf", False, id="conda-env"),
        # pixi global keeps its environments in $PIXI_HOME/envs, by default ~/.pixi/envs
        # (prefix-dev/pixi crates/pixi_global/src/common.rs, EnvRoot::from_env): no workspace
        # manifest there takes `pixi add`.
        pytest.param("/home/u/.pixi/envs/tf", False, id="pixi-global"),
        pytest.param("/root/.pixi/envs/python", False, id="pixi-global-root"),
        pytest.param("/Users/u/.pixi/envs/tf", False, id="pixi-global-macos"),
        pytest.param("/home/u/work/proj/.pixi/envs/default", True, id="pixi-workspace-in-home"),
    ],
)
def test_check_fixes_a_pixi_environment_with_pixi_add(prefix: str, pixi: bool) -> None:
    """The facts show the interpreter in a pixi workspace's environment (its prefix under
    .pixi/envs/): an install goes through the workspace's manifest, not conda's or pip's."""
    m = machine(
        f.facts(python=f.python(env_kind="conda", prefix=prefix, executable=f"{prefix}/bin/python"))
    )
    commands = m.pip_install("numpy<2")
    assert (commands == ('pixi add --pypi "numpy<2"',)) is pixi
    assert (causes.software.numpy_abi_fix(m).commands[0].startswith("pixi add")) is pixi


@pytest.mark.parametrize(
    ("name", "version", "spec"),
    [
        pytest.param("tensorflow", "2.15.1", "tensorflow[and-cuda]==2.15.1", id="tensorflow"),
        pytest.param("tensorflow-rocm", "2.14.0.600", None, id="rocm"),
        pytest.param("tensorflow-cpu", "2.15.1", None, id="cpu"),
    ],
)
def test_the_and_cuda_extra_is_tensorflows_own(name: str, version: str, spec: object) -> None:
    """Each matrix line's and_cuda is the ``tensorflow`` distribution's: tensorflow-rocm and
    tensorflow-cpu releases have no such extra, and a ROCm build's libraries are not CUDA's."""
    facts = f.facts(
        packages=(f.pkg(name, version, top_level=("tensorflow",)),),
        tensorflow=f.tensorflow(version=version),
    )
    assert machine(facts).and_cuda_spec() == spec


def test_a_rocm_build_by_its_build_info_has_no_and_cuda_extra() -> None:
    facts = f.facts(tensorflow=f.tensorflow(is_cuda_build=False, is_rocm_build=True))
    assert machine(facts).and_cuda_spec() is None


@pytest.mark.parametrize(
    ("version", "release"),
    [("2.14.0.600", "6.0.0"), ("2.12.0.560", "5.6.0"), ("2.11.0", None), ("2.14.0.6000", None)],
)
def test_the_rocm_release_a_tensorflow_rocm_version_names(
    version: str, release: Optional[str]
) -> None:
    facts = f.facts(packages=(f.pkg("tensorflow-rocm", version, top_level=("tensorflow",)),))
    assert machine(facts).rocm_release == release


@pytest.mark.parametrize(
    ("ids", "packager", "ubuntu"),
    [
        (("linuxmint", "ubuntu", "debian"), "apt", True),
        (("fedora",), None, False),
        (("centos", "rhel", "fedora"), None, False),
        ((), None, None),
    ],
)
def test_the_distribution_a_log_names_reaches_the_machine_view(
    ids: tuple[str, ...], packager: Optional[str], ubuntu: Optional[bool]
) -> None:
    """Without probed facts, the log's os-release identifiers answer as the facts' would;
    a name without its release (CentOS: yum or dnf) names no package manager."""
    bare = Machine(
        dataclasses.replace(f.facts(), platform=None),
        f.FIXTURE_MATRIX,
        LogHints(os_ids=ids, os_name="the distribution" if ids else None),
    )
    assert (bare.packager, bare.ubuntu) == (packager, ubuntu)
    assert bare.os_like("rhel") is ("rhel" in ids)


def test_the_probed_distribution_outweighs_the_logs() -> None:
    m = Machine(
        f.facts(platform=f.platform(os_ids=("fedora",), os_name="Fedora Linux 40")),
        f.FIXTURE_MATRIX,
        LogHints(os_ids=("ubuntu", "debian"), os_name="Ubuntu 22.04"),
    )
    assert m.os_ids == ("fedora",) and m.ubuntu is False


@pytest.mark.parametrize("container", [None, "docker"])
def test_the_rocm_libraries_fix_runs_no_installer_blindly(container: Optional[str]) -> None:
    """amdgpu-install is a package of its own (repo.radeon.com/amdgpu-install/RELEASE/),
    installs its own release's ROCm and, every use case, the kernel driver (AMD's
    amdgpu-install page): never a command to run on a machine that may lack it; inside a
    container, whose kernel driver is the host's, the text names --no-dkms."""
    m = Machine(
        dataclasses.replace(f.facts(), platform=None),
        f.FIXTURE_MATRIX,
        LogHints(rocm=True, container=container),
    )
    fix = causes.gpu.rocm_libraries_fix(m, ("libamdhip64.so",))
    assert not any("amdgpu-install" in command for command in fix.commands)
    assert "repo.radeon.com/amdgpu-install/" in fix.text
    assert ("--no-dkms" in fix.text) is (container is not None)


def _tf210_with_numpy(numpy: str) -> Facts:
    """TensorFlow 2.10.1 as its wheel declares NumPy (numpy>=1.20, a floor only) beside
    ``numpy``."""
    base = f.facts(tensorflow=f.tensorflow(version="2.10.1"))
    packages = tuple(p for p in base.packages or () if p.name not in ("tensorflow", "numpy"))
    return dataclasses.replace(
        base,
        packages=(
            *packages,
            f.pkg("tensorflow", "2.10.1", "numpy>=1.20", top_level=("tensorflow",)),
            f.pkg("numpy", numpy),
        ),
    )


def test_numpy_upgrades_under_a_numpy1_build_with_a_floor_only_range_keep_numpy1() -> None:
    """TensorFlow 2.10 declares numpy>=1.20 only, yet was compiled against NumPy 1.x (the
    matrix's numpy_abi): a NumPy upgrade its fixes run keeps NumPy 1's cap, or pip brings a
    NumPy 2 that TensorFlow cannot load."""
    m = machine(_tf210_with_numpy("1.21.6"))
    for fix in (
        causes.software.numpy_newer_build_fix(m, "1.25.0"),
        causes.software.numpy_newer_build_fix(m),
        causes.software.numpy_core_module_fix(m),
    ):
        installs = [c for c in fix.commands if " install " in c]
        assert installs, fix
        assert all("<2" in c for c in installs), fix.commands


def test_numpys_range_fix_under_a_numpy1_build_keeps_numpy1() -> None:
    """A NumPy below TensorFlow 2.10's floor (numpy>=1.20): the range fix installs inside
    the floor and NumPy 1's cap, not the floor alone (from which pip takes NumPy 2)."""
    fix = causes.common.range_fix(machine(_tf210_with_numpy("1.19.5")), "numpy")
    assert fix is not None
    installs = [c for c in fix.commands if " install " in c]
    assert installs and all("<2" in c and ">=1.20" in c for c in installs), fix.commands
    # The words name the range installed and the one the wheel declares, not one for both.
    assert "runs with (numpy>=1.20,<2" in fix.text and "declares numpy>=1.20," in fix.text
    assert "range TensorFlow declares" not in fix.text


_PIXI_PREFIX = "/home/u/proj/.pixi/envs/default"


@pytest.mark.parametrize(
    ("installer", "call", "expected"),
    [
        pytest.param(
            None,
            lambda m: m.conda_install("jax", "jaxlib", channel="conda-forge"),
            ("conda install -c conda-forge jax jaxlib",),
            id="conda",
        ),
        pytest.param(
            None,
            lambda m: m.conda_install("tensorboard=2.10", channel="anaconda", yes=True),
            ("conda install -y -c anaconda tensorboard=2.10",),
            id="conda-yes",
        ),
        pytest.param(
            "pixi",
            lambda m: m.conda_install("jax", "jaxlib", channel="conda-forge"),
            ("pixi add jax jaxlib",),
            id="pixi",
        ),
        pytest.param(
            "pixi",
            lambda m: m.conda_install('"tensorflow=2.15=cuda*"', channel="conda-forge"),
            ('pixi add "tensorflow=2.15=cuda*"',),
            id="pixi-build-string",
        ),
        pytest.param(
            "pixi",
            lambda m: m.conda_install("nccl", channel="nvidia", yes=True),
            ("pixi workspace channel add nvidia", "pixi add nvidia::nccl"),
            id="pixi-other-channel",
        ),
        pytest.param(
            "pixi",
            lambda m: m.conda_install('"h5py=3.10"', "hdf5", options=("--force-reinstall",)),
            ("pixi reinstall h5py hdf5",),
            id="pixi-reinstall",
        ),
        pytest.param(
            None,
            lambda m: m.conda_remove("tensorflow", "tensorflow-base", force=True),
            ("conda remove -y --force tensorflow tensorflow-base",),
            id="conda-remove",
        ),
        pytest.param(
            "pixi",
            lambda m: m.conda_remove("cudatoolkit"),
            ("pixi remove cudatoolkit",),
            id="pixi-remove",
        ),
        # pixi refuses a name its manifest does not list (tensorflow-base came in with
        # tensorflow) and then removes none: each name is a command of its own.
        pytest.param(
            "pixi",
            lambda m: m.conda_remove("tensorflow", "tensorflow-base", force=True),
            ("pixi remove tensorflow", "pixi remove tensorflow-base"),
            id="pixi-remove-each",
        ),
    ],
)
def test_conda_packages_go_through_the_environments_own_installer(
    installer: Optional[str], call: object, expected: tuple[str, ...]
) -> None:
    """conda's install and remove where conda manages the environment; pixi's add, reinstall
    and remove in a pixi workspace, whose manifest and lock the next `pixi install` restores."""
    m = Machine(f.facts(python=None), f.FIXTURE_MATRIX, LogHints(installer=installer))
    assert callable(call)
    assert call(m) == expected


def test_pixi_reinstalls_the_examined_environment() -> None:
    """pixi reinstall changes the default environment unless named another: the one whose
    prefix the facts show."""
    prefix = "/home/u/proj/.pixi/envs/cuda"
    python = f.python(env_kind="conda", prefix=prefix, executable=f"{prefix}/bin/python")
    m = machine(f.facts(python=python))
    assert m.conda_install("h5py", "hdf5", options=("--force-reinstall",)) == (
        "pixi reinstall -e cuda h5py hdf5",
    )
    default = machine(f.facts(python=dataclasses.replace(python, prefix=_PIXI_PREFIX)))
    assert default.conda_install("h5py", options=("--force-reinstall",)) == ("pixi reinstall h5py",)


def test_a_conda_tensorflow_in_a_pixi_workspace_is_reinstalled_by_pixi_in_its_words() -> None:
    """The reinstall of a conda channel's TensorFlow in a pixi workspace says pixi and runs
    pixi's reinstall of the lock's releases: no `conda list` step, no VERSION to fill in."""
    python = f.python(
        env_kind="conda", prefix=_PIXI_PREFIX, executable=f"{_PIXI_PREFIX}/bin/python"
    )
    conda = CondaFacts(
        _PIXI_PREFIX, (CondaPackage("tensorflow", "2.15.0", "cuda118", "conda-forge"),)
    )
    m = machine(f.facts(python=python, conda=conda))
    fix = causes.software.reinstall_by_installer(m, "to restore its files")
    assert fix is not None
    assert fix.commands == ("pixi reinstall tensorflow tensorflow-base",)
    assert "pixi" in fix.text and "conda list" not in fix.text and "VERSION" not in fix.text


def test_pixi_fixes_say_pixi_and_solve_again_where_a_pair_mismatches() -> None:
    """In a pixi workspace the words follow the commands: the package pip could not
    uninstall is replaced by pixi's update, and a mismatched h5py and libhdf5 are added in one
    solve (a reinstall would write the lock's mismatched pair again)."""
    python = f.python(
        env_kind="conda", prefix=_PIXI_PREFIX, executable=f"{_PIXI_PREFIX}/bin/python"
    )
    m = machine(f.facts(python=python, conda=CondaFacts(_PIXI_PREFIX, ())))
    stuck = causes.software.unremovable_dependency_fix(m, "wrapt", None)
    assert stuck.commands[0] == "pixi update wrapt"
    assert "`pixi update wrapt`" in stuck.text and "conda update" not in stuck.text
    pair = causes.software.hdf5_mismatch_fix(m, "1.12.1", "1.14.3")
    assert pair.commands == ("pixi list h5py", "pixi add h5py hdf5")
    assert "conda list" not in pair.text and "reinstall" not in " ".join(pair.commands)


def test_no_conda_install_in_a_pixi_workspace() -> None:
    """Every conda-form fix, for facts whose interpreter lies in a pixi workspace's
    environment, installs and removes with pixi: conda's commands would leave the manifest
    and lock behind, and the next `pixi install` would undo them."""
    python = f.python(
        env_kind="conda", prefix=_PIXI_PREFIX, executable=f"{_PIXI_PREFIX}/bin/python"
    )
    m = machine(f.facts(python=python))
    assert m.installer == "pixi"
    fixes = [
        causes.conda.conda_libraries_fix(m, m.line),
        causes.conda.conda_libraries_fix(m, m.line, replace=True),
        causes.software.conda_pip_duplicate_fix(
            m, [("tensorflow", "2.15.0", "conda-forge")], [("tensorflow", "2.14.1")]
        ),
        causes.software.conda_pip_duplicate_fix(
            m, [("tensorflow", "2.16.1", "nvidia")], [("tensorflow", "2.14.1")]
        ),
        causes.software.conda_tensorboards_fix(
            m, [("tensorboard", "conda-forge")], ["tensorboard"]
        ),
        causes.software.conda_tensorboards_fix(m, [("tensorboard", "conda-forge")], []),
        causes.software.jax_release_fix(m, "0.4.20"),
        causes.gpu.conda_gpu_build_fix(m, "2.15.0", "cpu_py311h", "conda-forge"),
    ]
    commands = [c for fix in fixes for c in fix.commands]
    assert any(c.startswith("pixi ") for c in commands)
    assert not [c for c in commands if re.match(r"conda (install|remove)\b", c)]


_UV_VENV = "/home/u/work/.venv"
_BARE_VENV = "/home/u/work/env"


def _without_pip(
    prefix: str,
    uv: Optional[str] = None,
    ensurepip: bool = True,
    env_kind: str = "venv",
    os_ids: tuple[str, ...] = (),
    name: str = "python",
) -> Machine:
    """A machine whose examined environment (a virtual one unless ``env_kind`` says) has no
    pip (schema 7's facts); ``name``: the interpreter's file name."""
    python = f.python(
        prefix=prefix,
        executable=f"{prefix}/bin/{name}",
        env_kind=env_kind,
        pip_version=None,
        pip_installed=False,
        uv_venv=uv,
        ensurepip=ensurepip,
    )
    platform = f.platform(os_ids=os_ids)
    return machine(f.facts(python=python, platform=platform, packages=(f.pkg("numpy", "2.0.1"),)))


@pytest.mark.parametrize(
    ("m", "install", "look"),
    [
        # `uv venv` makes an environment without pip: uv's pip interface installs there,
        # pointed at its interpreter (uv would otherwise change the active one, or .venv).
        pytest.param(
            _without_pip(_UV_VENV, uv="0.5.11"),
            (f'uv pip install --python {_UV_VENV}/bin/python "numpy<2"',),
            f"uv pip list --python {_UV_VENV}/bin/python",
            id="uv-venv",
        ),
        # `python -m venv --without-pip`: the standard library's ensurepip gives it pip.
        pytest.param(
            _without_pip(_BARE_VENV),
            (
                f"{_BARE_VENV}/bin/python -m ensurepip --upgrade",
                f'{_BARE_VENV}/bin/python -m pip install "numpy<2"',
            ),
            f"{_BARE_VENV}/bin/python -m ensurepip --upgrade && "
            f"{_BARE_VENV}/bin/python -m pip list",
            id="venv-without-pip",
        ),
        # Without ensurepip too (Debian's Python without python3-venv): pip's get-pip.py,
        # fetched by the interpreter itself.
        pytest.param(
            _without_pip(_BARE_VENV, ensurepip=False),
            (
                f'{_BARE_VENV}/bin/python -c "import urllib.request as u; '
                "u.urlretrieve('https://bootstrap.pypa.io/get-pip.py', 'get-pip.py')\"",
                f"{_BARE_VENV}/bin/python get-pip.py",
                f'{_BARE_VENV}/bin/python -m pip install "numpy<2"',
            ),
            f'{_BARE_VENV}/bin/python -c "import urllib.request as u; '
            "u.urlretrieve('https://bootstrap.pypa.io/get-pip.py', 'get-pip.py')\" && "
            f"{_BARE_VENV}/bin/python get-pip.py && {_BARE_VENV}/bin/python -m pip list",
            id="no-ensurepip",
        ),
        # Debian's and Ubuntu's system Python: its ensurepip refuses it; apt's pip.
        pytest.param(
            _without_pip("/usr", env_kind="system", os_ids=("ubuntu", "debian"), name="python3"),
            ("sudo apt-get install python3-pip", '/usr/bin/python3 -m pip install "numpy<2"'),
            "sudo apt-get install python3-pip && /usr/bin/python3 -m pip list",
            id="debian-system-python",
        ),
        # Another Python in /usr/bin (deadsnakes' python3.12): python3-pip's pip is the default
        # python3's and does not run under it; not apt's package.
        pytest.param(
            _without_pip("/usr", env_kind="system", os_ids=("ubuntu", "debian"), name="python3.12"),
            (
                "/usr/bin/python3.12 -m ensurepip --upgrade",
                '/usr/bin/python3.12 -m pip install "numpy<2"',
            ),
            "/usr/bin/python3.12 -m ensurepip --upgrade && /usr/bin/python3.12 -m pip list",
            id="debian-other-python",
        ),
        # Another distribution's system Python keeps its ensurepip.
        pytest.param(
            _without_pip("/usr", env_kind="system", os_ids=("arch",)),
            ("/usr/bin/python -m ensurepip --upgrade", '/usr/bin/python -m pip install "numpy<2"'),
            "/usr/bin/python -m ensurepip --upgrade && /usr/bin/python -m pip list",
            id="arch-system-python",
        ),
        # Facts older than schema 7 (or written by hand): a missing pip_version alone does not
        # say pip is absent; the environment's pip, as before.
        pytest.param(
            machine(f.facts(python=f.python(pip_version=None))),
            ('/opt/venv/bin/python -m pip install "numpy<2"',),
            "/opt/venv/bin/python -m pip list",
            id="not-recorded",
        ),
    ],
)
def test_an_environment_without_pip_gets_a_command_that_runs(
    m: Machine, install: tuple[str, ...], look: str
) -> None:
    assert m.pip_install("numpy<2") == install
    # The look runs after the commands that give the environment pip, each on its own line
    # (`&&` is refused by Windows PowerShell before 7): ``look`` lists them joined.
    lines = tuple(look.split(" && "))
    assert m.pip_look("list") == lines
    assert m.pip_look("list", " | grep -i numpy") == (*lines[:-1], lines[-1] + " | grep -i numpy")


@pytest.mark.parametrize(
    ("python", "url"),
    [
        ("3.8.10", "https://bootstrap.pypa.io/pip/3.8/get-pip.py"),
        ("3.9.18", "https://bootstrap.pypa.io/pip/3.9/get-pip.py"),
        ("2.7.18", "https://bootstrap.pypa.io/pip/2.7/get-pip.py"),
        ("3.10.12", "https://bootstrap.pypa.io/get-pip.py"),
        ("3.12.3", "https://bootstrap.pypa.io/get-pip.py"),
        (None, "https://bootstrap.pypa.io/get-pip.py"),
    ],
)
def test_get_pip_for_a_python_the_newest_script_refuses(python: Optional[str], url: str) -> None:
    """get-pip.py at the root refuses Pythons older than its minimum and names their own."""
    assert get_pip_url(python) == url


def test_no_ensurepip_on_an_old_python_fetches_its_own_get_pip() -> None:
    python = f.python(
        version="3.8.10",
        executable=f"{_BARE_VENV}/bin/python",
        prefix=_BARE_VENV,
        pip_version=None,
        pip_installed=False,
        ensurepip=False,
    )
    bootstrap = machine(f.facts(python=python)).pip_bootstrap
    assert bootstrap is not None
    assert "https://bootstrap.pypa.io/pip/3.8/get-pip.py" in bootstrap[0]


@pytest.mark.parametrize("uv", ["0.5.11", None])
def test_no_python_m_pip_where_pip_is_absent(uv: Optional[str]) -> None:
    """Every fix the checks write for an environment without pip runs: uv's pip interface
    where uv made it (no `-m pip` at all), else pip installed first by ensurepip."""
    m = _without_pip(_UV_VENV if uv else _BARE_VENV, uv=uv)
    facts = dataclasses.replace(
        m.facts, packages=(f.pkg("numpy", "2.0.1"), f.pkg("tensorflow", "2.15.1"))
    )
    fixes = [x.fix for x in _findings(facts) if x.fix is not None]
    fixes.append(causes.software.numpy_abi_fix(m))
    commands = [c for fix in fixes for c in fix.commands]
    # uv's own run of pip (`uv run --with pip`) brings pip along: only the interpreter's is
    # judged.
    uses_pip = [i for i, c in enumerate(commands) if "-m pip" in c and not c.startswith("uv ")]
    if uv is not None:
        assert not uses_pip
        assert any(c.startswith(f"uv pip install --python {_UV_VENV}/bin/python") for c in commands)
        return
    assert uses_pip
    for i in uses_pip:
        # In the same command line (a look joined with &&), or a line just before it.
        assert "-m ensurepip" in commands[i] or (i > 0 and "-m ensurepip" in commands[i - 1])


@pytest.mark.parametrize("capability", ["unknown", "X.Y"], ids=["smoke-test", "explain"])
def test_a_ptx_fix_without_the_gpus_capability_tells_how_to_read_it(capability: str) -> None:
    fix = causes.gpu.ptx_jit_fix(Machine(f.facts(), f.FIXTURE_MATRIX), capability)
    assert capability not in fix.text
    assert "compute_cap" in fix.text and "TF_CUDA_COMPUTE_CAPABILITIES" in fix.text


@pytest.mark.parametrize(
    ("module", "named"),
    [
        # The module table's distribution: no PyPI name made up from an import name.
        ("cv2", "opencv-python"),
        ("tensorflow_core", "tensorflow"),
        ("no_such_module_x", "the package that provides `no_such_module_x`"),
        (None, None),
    ],
)
def test_an_installed_import_package_is_named_by_its_distribution(
    module: Optional[str], named: Optional[str]
) -> None:
    assert installed_package_named(module) == named
