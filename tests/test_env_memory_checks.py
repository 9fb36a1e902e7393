"""runtime.memory-growth: whether the environment lets TensorFlow take GPU memory as needed."""

from __future__ import annotations

import dataclasses

import pytest

from tests import factories as f
from tfdoctor.checks import CHECKS, run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import DeviceFacts, Facts
from tfdoctor.findings import Finding, Severity


def judge(facts: Facts) -> list[Finding]:
    return list(run_checks(CheckContext(facts), select_checks(["runtime.memory-growth"])))


def with_env(**variables: str) -> Facts:
    return f.facts(environment={"PATH": "/usr/bin:/bin", **variables})


@pytest.mark.parametrize(
    ("env", "severity", "words"),
    [
        pytest.param({}, Severity.INFO, "not configured", id="unset"),
        pytest.param(
            {"TF_FORCE_GPU_ALLOW_GROWTH": "true"}, Severity.OK, "as it needs it", id="growth-true"
        ),
        pytest.param(
            {"TF_GPU_ALLOCATOR": "cuda_malloc_async"}, Severity.OK, "on demand", id="async"
        ),
        pytest.param(
            {"TF_FORCE_GPU_ALLOW_GROWTH": "True"}, Severity.WARNING, "ignored", id="capital-true"
        ),
        pytest.param(
            {"TF_FORCE_GPU_ALLOW_GROWTH": "1"}, Severity.WARNING, "ignored", id="one-not-true"
        ),
        pytest.param(
            {"TF_FORCE_GPU_ALLOW_GROWTH": "false"}, Severity.INFO, "=false", id="explicit-false"
        ),
        pytest.param(
            {"TF_GPU_ALLOCATOR": "bfc", "TF_FORCE_GPU_ALLOW_GROWTH": "true"},
            Severity.OK,
            "as it needs it",
            id="bfc-with-growth",
        ),
    ],
)
def test_environment_decides(env: dict[str, str], severity: Severity, words: str) -> None:
    (finding,) = judge(with_env(**env))
    assert finding.id == "runtime.memory-growth"
    assert finding.severity is severity
    assert words in finding.summary


def test_the_fix_names_the_env_command_and_the_api() -> None:
    (finding,) = judge(with_env())
    assert finding.fix is not None
    assert finding.fix.commands == (
        'eval "$(tfdoctor env)"',
        "export TF_FORCE_GPU_ALLOW_GROWTH=true",
    )
    assert "tfdoctor.configure_gpus()" in finding.fix.text
    assert "CUDNN_STATUS_INTERNAL_ERROR" in finding.detail


def test_a_gpu_shared_with_another_process_is_a_warning() -> None:
    busy = dataclasses.replace(f.driver().gpus[0], memory_total=80 * 2**30, memory_used=30 * 2**30)
    facts = dataclasses.replace(with_env(), driver=f.driver(gpus=(busy,)))
    (finding,) = judge(facts)
    assert finding.severity is Severity.WARNING
    assert "GPU 0 30.0 of 80 GiB" in finding.summary


def _no_gpu_tf() -> Facts:
    return f.facts(tensorflow=f.tensorflow(devices=(DeviceFacts("/physical_device:CPU:0", "CPU"),)))


@pytest.mark.parametrize(
    "facts",
    [
        pytest.param(f.cpu_only_machine(), id="no-gpu"),
        pytest.param(_no_gpu_tf(), id="tf-sees-no-gpu"),
        pytest.param(f.facts(tensorflow=f.tensorflow(status="import-error")), id="tf-broken"),
        pytest.param(f.facts(tensorflow=f.tensorflow(is_cuda_build=False)), id="cpu-build"),
    ],
)
def test_silent_where_tensorflow_uses_no_gpu(facts: Facts) -> None:
    assert judge(facts) == []


def test_static_run_still_judges_the_environment() -> None:
    facts = f.facts(tensorflow=f.tensorflow(status="skipped"))
    (finding,) = judge(facts)
    assert finding.severity is Severity.INFO


def test_unknown_environment_is_unknown_not_ok() -> None:
    (finding,) = judge(f.facts(environment=None))
    assert finding.severity is Severity.UNKNOWN


def test_registered_once_in_order() -> None:
    ids = [c.id for c in CHECKS]
    assert ids.count("runtime.memory-growth") == 1
    assert ids.index("runtime.memory-growth") > ids.index("cuda.libraries")
