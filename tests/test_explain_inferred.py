"""explain keeps what a log states apart from what it implies, and makes up nothing else.

A log never states the interpreter, its word size or the machine's architecture, and implies
the operating system and Python only through paths and file names: the report's facts leave
them unknown, the fixes are the general ones where they would need them, and the finding says
in plain words what the log shows and what was inferred, from which path.
"""

from __future__ import annotations

import dataclasses

import pytest

from tests import factories as f
from tfdoctor import causes
from tfdoctor.explain import explain
from tfdoctor.explain.reader import split_text
from tfdoctor.facts import Facts, NvidiaKernelFacts, to_json
from tfdoctor.findings import Finding, Report
from tfdoctor.machine import LogHints, Machine
from tfdoctor.signatures import load_signatures

SIGNATURES = load_signatures()

DLOPEN = (
    "2021-01-02 20:12:26.425425: W tensorflow/stream_executor/platform/default/dso_loader.cc:60]"
    " Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot "
    "open shared object file: No such file or directory"
)
#: A path that implies Python 3.10 in a conda environment (TensorFlow's own frame).
CONDA_FRAME = (
    '  File "/home/me/miniconda3/envs/tf/lib/python3.10/site-packages/tensorflow/__init__.py",'
    " line 37, in <module>"
)
INSTALLED_215 = "Successfully installed keras-2.15.0 tensorflow-2.15.0"


def _explain(*lines: str) -> Report:
    return explain([split_text("\n".join(lines))], SIGNATURES, f.FIXTURE_MATRIX)


def _cause(report: Report) -> Finding:
    return next(x for x in report.findings if x.cause)


def _fix_text(finding: Finding) -> str:
    assert finding.fix is not None
    return "\n".join((finding.fix.text, *finding.fix.commands))


def test_a_log_gets_no_interpreter_and_no_architecture() -> None:
    report = _explain(DLOPEN, CONDA_FRAME, INSTALLED_215)
    facts = to_json(report.facts)
    assert facts["python"] is None and facts["platform"] is None
    # What the log states is in the facts: the releases pip installed.
    assert [(p["name"], p["version"]) for p in facts["packages"]] == [
        ("tensorflow", "2.15.0"),
        ("keras", "2.15.0"),
    ]


def test_the_finding_says_what_was_shown_and_what_was_inferred_from_which_path() -> None:
    detail = _cause(_explain(DLOPEN, CONDA_FRAME, INSTALLED_215)).detail
    assert "The log shows: TensorFlow 2.15.0." in detail
    inferred = next(line for line in detail.splitlines() if line.startswith("Inferred"))
    assert inferred.startswith("Inferred from paths and file names, not stated: ")
    assert "Python 3.10 (/home/me/miniconda3/envs/tf/lib/python3.10/site-packages)" in inferred
    assert "a conda environment (" in inferred
    assert "Linux (libcudart.so.11.0)" in inferred
    # Shown before inferred, each once: the inferred Python is not listed as shown.
    assert detail.index("The log shows") < detail.index("Inferred from paths")
    assert "Python 3.10" not in detail.split("Inferred")[0]


def test_what_a_path_implies_still_fits_the_fix() -> None:
    # The conda environment the path implies gets the conda line; no interpreter is named.
    text = _fix_text(_cause(_explain(DLOPEN, CONDA_FRAME, INSTALLED_215)))
    assert "tensorflow[and-cuda]==2.15.0" in text
    assert "-m pip" not in text


def test_the_cuda_extra_says_the_architecture_is_not_shown() -> None:
    finding = _cause(_explain(DLOPEN, INSTALLED_215))
    assert finding.fix is not None
    assert 'pip install "tensorflow[and-cuda]==2.15.0"' in finding.fix.commands
    assert "does not show this machine's architecture" in finding.fix.text


def test_without_an_operating_system_the_extra_is_left_out() -> None:
    report = _explain(
        "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory",
    )
    assert report.facts.platform is None
    assert "and-cuda" not in "\n".join(_fix_text(x) for x in report.findings if x.fix)


def test_hints_fill_only_what_the_facts_lack() -> None:
    bare = Facts(tfdoctor_version="0", collected_at="2026-01-01T00:00:00+00:00")
    hinted = Machine(bare, f.FIXTURE_MATRIX, LogHints(os="linux", python="3.11", conda=True))
    assert (hinted.os, hinted.platform, hinted.target.python) == ("linux", None, "3.11")
    assert hinted.in_conda and hinted.marker_env.get("python_version") == "3.11"
    # The generic interpreter: no executable is made up.
    assert hinted.pip("install x") == ("pip install x",)
    probed = Machine(f.facts(), f.FIXTURE_MATRIX, LogHints(os="windows", python="3.8"))
    assert (probed.os, probed.target.python) == ("linux", "3.11")


def test_the_logs_package_manager_feeds_the_machine() -> None:
    bare = Facts(tfdoctor_version="0", collected_at="2026-01-01T00:00:00+00:00")
    dnf = Machine(bare, f.FIXTURE_MATRIX, LogHints(os="linux", packager="dnf"))
    assert (dnf.packager, dnf.ubuntu) == ("dnf", False)
    apt = Machine(bare, f.FIXTURE_MATRIX, LogHints(packager="apt"))
    # apt alone does not tell Ubuntu from Debian.
    assert (apt.packager, apt.ubuntu) == ("apt", None)
    assert Machine(bare, f.FIXTURE_MATRIX, LogHints(os="windows", packager="apt")).packager is None
    # The probed distribution wins over the log.
    fedora = f.facts(platform=f.platform(os_name="Fedora Linux 40 (Workstation Edition)"))
    probed = Machine(fedora, f.FIXTURE_MATRIX, LogHints(os="linux", packager="apt"))
    assert (probed.packager, probed.ubuntu) == ("dnf", False)


@pytest.mark.parametrize(
    ("hints", "rebuild", "ubuntu_drivers"),
    [
        pytest.param(LogHints(os="linux", packager="dnf"), "sudo dracut --force", False, id="dnf"),
        pytest.param(
            LogHints(os="linux", packager="apt"), "sudo update-initramfs -u", True, id="apt"
        ),
    ],
)
def test_driver_fixes_follow_the_logs_package_manager(
    hints: LogHints, rebuild: str, ubuntu_drivers: bool
) -> None:
    # nouveau holds the GPU (the kernel's facts) where no probe named the distribution.
    facts = dataclasses.replace(
        f.facts(nvidia_kernel=NvidiaKernelFacts(modules=("nouveau",))), platform=None
    )
    m = Machine(facts, f.FIXTURE_MATRIX, hints)
    commands = causes.gpu.driver_load_fix(m).commands
    assert commands[-1].startswith(rebuild) and "#" not in commands[-1]
    _, upgrade = causes.gpu.driver_upgrade(m, "525.60.13")
    assert bool(upgrade) is ubuntu_drivers


# --- TensorFlow's own lines: what they state, where; what a file name implies -----------------

CUDNN_MISMATCH = (
    "E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:447] Loaded runtime CuDNN "
    "library: 8.7.0 but source was compiled with: 8.9.4.  CuDNN library needs to have matching "
    "major version and equal or higher minor version."
)


def test_what_tensorflows_lines_state_names_the_line() -> None:
    detail = _cause(_explain("Epoch 1/3", INSTALLED_215, CUDNN_MISMATCH)).detail
    shown = next(line for line in detail.splitlines() if line.startswith("The log shows"))
    assert shown == (
        "The log shows: TensorFlow 2.15.0, a build for cuDNN 8.9.4 (line 3), "
        "cuDNN 8.7.0 loaded (line 3)."
    )


def test_a_missing_librarys_file_name_implies_its_cuda_as_inferred_with_the_line() -> None:
    report = _explain("Epoch 1/3", DLOPEN)
    detail = _cause(report).detail
    inferred = next(line for line in detail.splitlines() if line.startswith("Inferred"))
    assert "a build for CUDA 11 (line 2: libcudart.so.11.0)" in inferred
    # The matrix's lines built for CUDA 11 (a closed range: CUDA 12 came with 2.15).
    assert "so TensorFlow 2.4 to 2.14 (line 2: libcudart.so.11.0)" in inferred
    # Inferred, so never a fact of the report: no driver, no CUDA made up for the machine.
    assert report.facts.driver is None
    assert "CUDA 11" not in detail.split("Inferred")[0]


def test_the_allocation_that_failed_is_shown_with_device_size_and_line() -> None:
    bfc = (
        "2020-04-21 11:39:04.586734: W tensorflow/core/common_runtime/bfc_allocator.cc:419] "
        "Allocator (GPU_1_bfc) ran out of memory trying to allocate 1.53GiB (rounded to "
        "1638400000).  Current allocation summary follows."
    )
    detail = _cause(_explain("Epoch 1/3", bfc)).detail
    assert "The log shows: an allocation of 1.5 GiB failing on GPU:1 (line 2)." in detail
    # The op's device path is where memory ran out, not the name of a GPU.
    oom = "ResourceExhaustedError: OOM when allocating tensor with shape[8] and type float on "
    tensor = _explain(oom + "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc")
    assert "The log shows: an allocation failing on GPU:0 (line 1)." in _cause(tensor).detail


def test_files_of_two_libraries_narrow_the_lines_to_those_built_for_both() -> None:
    cudnn7 = "W dso_loader.cc:55] Could not load dynamic library 'libcudnn.so.7'; dlerror: x"
    cuda10 = "W dso_loader.cc:55] Could not load dynamic library 'libcudart.so.10.1'; dlerror: x"
    detail = _cause(_explain(cuda10, cudnn7)).detail
    inferred = next(line for line in detail.splitlines() if line.startswith("Inferred"))
    assert "so TensorFlow 2.1 to 2.3 (line 1: libcudart.so.10.1, line 2: libcudnn.so.7)" in inferred
