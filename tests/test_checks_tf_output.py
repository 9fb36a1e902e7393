"""TensorFlow's own output, read by ``check`` as ``explain`` reads a log: what the import
printed (``tensorflow.output``) and what a failed smoke run printed (``smoke.crashed``) name
the cause ``explain`` names for the same text, with the fix fitted to the machine; what
TensorFlow showed working is never contradicted, a cause another check named from the facts is
not named twice, and start-up noise stays below warning."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Optional

import pytest

from tests.explaining import explained
from tests.facts_cases import read_case
from tfdoctor.checks import run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.evidence.tflog import error_lines
from tfdoctor.facts import Facts, SmokeFacts, TFStatus, facts_from_json
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import load_matrix

DATA = Path(__file__).parent / "data"
CASES = sorted((DATA / "runtime_output").glob("*.json"))
FAILURES = [p for p in CASES if read_case(p)["expect"]["cause"] != "none"]
HEALTHY = DATA / "healthy" / "tf218-and-cuda-venv-t4.json"
MATRIX = load_matrix()

#: Written in the format TensorFlow 2.18 prints them (third_party/xla/xla/stream_executor/cuda/
#: cuda_driver.cc: the device allocation that failed at start; bfc_allocator.cc).
OOM_AT_START = (
    "2024-10-01 08:00:03.000001: E external/local_xla/xla/stream_executor/cuda/"
    "cuda_driver.cc:1087] failed to allocate 14.75GiB (15837691904 bytes) from device: "
    "RESOURCE_EXHAUSTED: : CUDA_ERROR_OUT_OF_MEMORY: out of memory"
)
#: TensorFlow's loader and device registration (dso_loader.cc, gpu_device.cc).
DLOPEN = (
    "2024-10-01 08:00:01.000001: W external/local_tsl/tsl/platform/default/dso_loader.cc:70] "
    "Could not load dynamic library 'libcudnn.so.9'; dlerror: libcudnn.so.9: cannot open "
    "shared object file: No such file or directory\n"
    "2024-10-01 08:00:01.000002: W tensorflow/core/common_runtime/gpu/gpu_device.cc:2343] "
    "Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above "
    "are installed properly if you would like to use GPU. Follow the guide at "
    "https://www.tensorflow.org/install/gpu for how to download and setup the required "
    "libraries for your platform.\nSkipping registering GPU devices..."
)
#: XLA's check of the driver against its ptxas (xla/service/gpu/nvptx_compiler.cc).
PTXAS_NEWER = (
    "2024-10-01 08:00:05.000001: W external/local_xla/xla/service/gpu/nvptx_compiler.cc:930] "
    "The NVIDIA driver's CUDA version is 12.4 which is older than the PTX compiler version "
    "12.5.82. Because the driver is older than the PTX compiler version, XLA is disabling "
    "parallel compilation, which may slow down compilation. You should update your NVIDIA "
    "driver or use the NVIDIA-provided CUDA forward compatibility packages."
)
#: cuda_dnn.cc's version check, then the error the convolution raised.
CUDNN_OLDER = (
    "2024-10-01 08:00:06.000001: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:535]"
    " Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.3.0.  CuDNN library "
    "needs to have matching major version and equal or higher minor version."
)
DNN_FAILED = (
    "tensorflow.python.framework.errors_impl.FailedPreconditionError: DNN library "
    "initialization failed. Look at the errors above for more details."
)


def _fix(found: Finding) -> str:
    return "" if found.fix is None else found.fix.text + "\n" + "\n".join(found.fix.commands)


def healthy(stderr: str = "", gpu_listed: bool = True, smoke: Optional[SmokeFacts] = None) -> Facts:
    """The healthy TensorFlow 2.18 machine with a T4, its import having printed ``stderr``."""
    facts = facts_from_json(json.loads(HEALTHY.read_text(encoding="utf-8")))
    tf = facts.tensorflow
    assert tf is not None
    devices = tf.devices if gpu_listed else tuple(d for d in tf.devices if d.device_type != "GPU")
    tf = dataclasses.replace(
        tf, stderr_tail=stderr, log_errors=error_lines(stderr), devices=devices
    )
    return dataclasses.replace(facts, tensorflow=tf, smoke=smoke)


def failed_smoke(error: str, stderr: str = "", kernel: Optional[str] = None) -> SmokeFacts:
    """A quick smoke run that ended with ``error``, having printed ``stderr``."""
    return SmokeFacts(
        status="child-error",
        level="quick",
        interpreter="/home/user/tf/bin/python",
        failed_kernel=kernel,
        failed_device="/device:GPU:0" if kernel else None,
        error_message=error,
        stderr_tail=stderr,
    )


def findings(facts: Facts, *ids: str) -> list[Finding]:
    checks = select_checks(list(ids)) if ids else None
    return list(run_checks(CheckContext(facts, MATRIX), checks))


def problems(found: list[Finding]) -> list[Finding]:
    return [x for x in found if x.severity.rank >= Severity.WARNING.rank]


def printed(doc: dict[str, Any]) -> str:
    """What TensorFlow's children printed in a facts document: the import's stderr, then the
    smoke run's stderr and the error it ended with."""
    smoke = doc.get("smoke") or {}
    parts = (
        doc["tensorflow"]["stderr_tail"],
        smoke.get("stderr_tail") or "",
        smoke.get("error_message") or "",
    )
    return "\n".join(p for p in parts if p)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_machine_gets_its_verdict(path: Path) -> None:
    case = read_case(path)
    expect = case["expect"]
    found = findings(facts_from_json(case["facts"]))
    assert case["source"].startswith("https://")
    if expect["cause"] == "none":
        assert problems(found) == [], problems(found)
        return
    hits = [x for x in problems(found) if x.cause == expect["cause"]]
    assert hits, [(x.id, x.severity.value, x.cause) for x in problems(found)]
    fixes = "\n".join(map(_fix, hits))
    for needle in expect.get("fix_includes", ()):
        assert needle in fixes, (needle, fixes)


@pytest.mark.parametrize("path", FAILURES, ids=lambda p: p.stem)
def test_explain_names_the_same_cause_for_the_same_text(path: Path) -> None:
    case = read_case(path)
    report = explained(printed(case["facts"]), matrix=MATRIX)
    assert any(
        x.cause == case["expect"]["cause"] and x.severity.rank >= Severity.WARNING.rank
        for x in report.findings
    ), [(x.id, x.cause) for x in report.findings]


def test_memory_taken_at_start_is_read_from_the_import_output() -> None:
    (found,) = problems(findings(healthy(OOM_AT_START), "tensorflow.output"))
    assert (found.severity, found.cause) == (Severity.ERROR, "gpu-out-of-memory")
    assert "TF_FORCE_GPU_ALLOW_GROWTH" in _fix(found)


def test_start_up_noise_alone_is_ok() -> None:
    noise = (
        "2024-10-01 08:00:00.000001: E external/local_xla/xla/stream_executor/cuda/"
        "cuda_fft.cc:485] Unable to register cuFFT factory: Attempting to register factory "
        "for plugin cuFFT when one has already been registered\n"
        "2024-10-01 08:00:00.000002: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] "
        "TF-TRT Warning: Could not find TensorRT"
    )
    (found,) = findings(healthy(noise), "tensorflow.output")
    assert found.severity is Severity.OK
    assert problems(findings(healthy(noise))) == []


def test_a_listed_gpu_is_never_contradicted_by_the_text() -> None:
    # The loader's words say cuDNN did not load, yet TensorFlow lists the GPU: observed wins.
    found = findings(healthy(DLOPEN, gpu_listed=True))
    assert [x for x in problems(found) if x.cause == "cuda-libs-missing"] == []


def test_the_text_names_missing_libraries_where_no_gpu_is_listed() -> None:
    found = problems(findings(healthy(DLOPEN, gpu_listed=False)))
    assert any(x.cause == "cuda-libs-missing" for x in found), found


def test_a_cause_the_facts_named_is_not_named_again() -> None:
    # xla.ptxas judges the ptxas the facts hold; the same cause from the text is not repeated.
    found = problems(findings(healthy(PTXAS_NEWER)))
    causes = [x.cause for x in found]
    assert causes.count("ptxas-too-new") == 1, found
    assert [x.id for x in found if x.cause == "ptxas-too-new"] == ["xla.ptxas"]


def test_a_failed_import_is_left_to_tensorflow_import() -> None:
    facts = healthy(OOM_AT_START)
    tf = facts.tensorflow
    assert tf is not None
    failed = dataclasses.replace(
        facts,
        tensorflow=dataclasses.replace(
            tf, status=TFStatus.IMPORT_ERROR, error_type="ImportError", devices=()
        ),
    )
    assert findings(failed, "tensorflow.output") == []


def test_a_failed_smoke_run_names_the_cause_logged_above_its_error() -> None:
    smoke = failed_smoke(DNN_FAILED, CUDNN_OLDER + "\n" + DNN_FAILED, kernel="conv2d-forward")
    (found,) = findings(healthy(smoke=smoke), "smoke.crashed")
    assert (found.severity, found.cause) == (Severity.ERROR, "cudnn-version-mismatch")
    assert found.summary.startswith("The smoke test failed in conv2d-forward")


def test_a_failed_smoke_run_without_a_known_cause_keeps_its_own_finding() -> None:
    (found,) = findings(healthy(smoke=failed_smoke("child printed no JSON")), "smoke.crashed")
    assert (found.severity, found.cause) == (Severity.ERROR, "")


def _harness() -> ModuleType:
    """scripts/check_consistency.py, loaded once (its dataclass needs its module registered)."""
    name = "check_consistency"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).parent.parent / "scripts" / "check_consistency.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("text", "placement"),
    [
        pytest.param(
            'Traceback (most recent call last):\n  File "train.py", line 1, in <module>\n'
            "    import tensorflow as tf\nImportError: libcudart.so.11.0: cannot open shared "
            "object file: No such file or directory",
            "import-failed",
            id="import-traceback",
        ),
        pytest.param("Illegal instruction (core dumped)", "import-killed", id="sigill"),
        pytest.param(OOM_AT_START, "import-ok", id="log-lines-only"),
        pytest.param(
            'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n'
            "    model.fit(x, y)\n" + DNN_FAILED,
            "smoke-failed",
            id="run-traceback",
        ),
        pytest.param("ERROR: No matching distribution found for tensorflow", "installer", id="pip"),
    ],
)
def test_the_harness_places_a_log_where_its_shape_says(text: str, placement: str) -> None:
    assert _harness().natural(text) == placement


def test_the_harness_places_the_text_as_the_child_printed_it() -> None:
    harness = _harness()
    base = healthy()
    failed = harness.place(base, DLOPEN, "import-failed")
    assert failed.tensorflow.status == TFStatus.IMPORT_ERROR
    assert failed.tensorflow.log_errors == error_lines(DLOPEN)
    ran = harness.place(base, DLOPEN, "import-ok")
    assert ran.tensorflow.status == TFStatus.OK and "libcudnn.so.9" in ran.tensorflow.stderr_tail
    smoke = harness.place(base, DNN_FAILED, "smoke-failed").smoke
    assert smoke is not None and smoke.stderr_tail.endswith("more details.")


def test_an_abort_names_the_cause_its_stderr_logged() -> None:
    # cuda_dnn.cc's version check, then LOG(FATAL)'s "Check failed" and the shell's word for
    # SIGABRT: the abort is the cuDNN of another release, not an unknown crash.
    stderr = (
        "2021-03-01 10:00:00.000001: E tensorflow/stream_executor/cuda/cuda_dnn.cc:359] Loaded "
        "runtime cuDNN library: 8.0.5 but source was compiled with: 8.1.0.  CuDNN library "
        "needs to have matching major version and equal or higher minor version.\n"
        "2021-03-01 10:00:00.000002: F tensorflow/core/kernels/conv_ops.cc:1120] Check failed: "
        "stream->parent()->GetConvolveAlgorithms(conv_parameters.ShouldIncludeWinogradNonfused"
        "<T>(), &algorithms)\nAborted (core dumped)"
    )
    facts = healthy()
    tf = facts.tensorflow
    assert tf is not None
    killed = dataclasses.replace(
        facts,
        tensorflow=dataclasses.replace(
            tf, status=TFStatus.SIGNAL, signal="SIGABRT", devices=(), stderr_tail=stderr
        ),
    )
    (found,) = findings(killed, "tensorflow.import")
    assert (found.severity, found.cause) == (Severity.ERROR, "cudnn-version-mismatch")
    assert found.summary.startswith("Importing TensorFlow killed the interpreter with SIGABRT")
