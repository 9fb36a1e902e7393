"""What the build's own objects say outranks the constants and the docstring: the libraries it
opens, the GPU code it carries, the CUDA its ``and-cuda`` extra pins."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests import factories as f
from tfdoctor.checks._context import CheckContext
from tfdoctor.checks.cuda import check_cuda_libraries
from tfdoctor.checks.gpu import check_compute_capability
from tfdoctor.cuda_layout import declared_cuda
from tfdoctor.facts import (
    CudaLibsFacts,
    Facts,
    GpuCodeFacts,
    GpuFacts,
    LibraryFacts,
    TensorFlowFacts,
)
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import view

METADATA = Path(__file__).parent / "data" / "pypi" / "metadata"
SITE = f.SITE

#: The names TF 2.21's objects hold (no curand), and its RUNPATH's wheel directories.
NAMED_221 = ("cudart", "cublas", "cublasLt", "cufft", "cusparse", "cusolver", "cudnn", "nccl")
RUNPATH_221 = (
    *(
        f"{SITE}/nvidia/{d}/lib"
        for d in ("nccl", "cuda_cupti", "cublas", "cudnn", "cufft", "cusparse", "cuda_runtime")
    ),
    f"{SITE}/tensorrt",
    f"{SITE}/nvidia/cusolver/lib",
)


def _libs(**kw: object) -> CudaLibsFacts:
    """Every library found in its wheel but cuRAND, which the RUNPATH does not reach."""
    wheel = {"cudart": "cuda_runtime", "cublasLt": "cublas"}
    found = [
        f.lib(n, f"lib{n}.so", f.pip_cand(f"{wheel.get(n, n)}/lib/lib{n}.so", "12.5"))
        for n in ("cudart", "cublas", "cublasLt", "cufft", "cusparse", "cusolver", "cudnn")
    ]
    base = CudaLibsFacts(
        cuda_major=12,
        cudnn_major=9,
        libraries=(*found, LibraryFacts("curand", ("libcurand.so.10",))),
    )
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


#: TensorFlow not imported (``--static``): only the search speaks for the libraries.
STATIC = f.tensorflow(status="skipped", devices=())


def _cuda_libraries(facts: Facts) -> Finding:
    (finding,) = check_cuda_libraries(CheckContext(facts, f.FIXTURE_MATRIX))
    return finding


@pytest.mark.parametrize(
    ("libs", "severity", "needle"),
    [
        pytest.param(
            _libs(named_libraries=NAMED_221),
            Severity.OK,
            "All 7 CUDA libraries the build opens",
            id="named-by-the-build",
        ),
        pytest.param(
            _libs(runpath=RUNPATH_221, runpath_object=f"{SITE}/tensorflow/x.so"),
            Severity.OK,
            "All 7 CUDA libraries the build opens",
            id="runpath-of-older-facts",
        ),
        pytest.param(
            _libs(named_libraries=(*NAMED_221, "curand")),
            Severity.ERROR,
            "Missing CUDA libraries TensorFlow needs: curand",
            id="named-and-missing",
        ),
        pytest.param(
            _libs(), Severity.ERROR, "needs: curand", id="build-unread-every-library-counts"
        ),
    ],
)
def test_the_libraries_required_are_those_the_build_opens(
    libs: CudaLibsFacts, severity: Severity, needle: str
) -> None:
    finding = _cuda_libraries(f.facts(cuda_libs=libs, tensorflow=STATIC))
    assert finding.severity is severity, finding
    assert needle in finding.summary
    if severity is Severity.OK:
        assert "curand: not found (the build never opens it)" in finding.detail


def test_tensorflow_listing_the_gpu_outranks_the_search() -> None:
    libs = _libs(named_libraries=(*NAMED_221, "curand"))
    finding = _cuda_libraries(f.facts(cuda_libs=libs))
    assert finding.severity is Severity.INFO and finding.fix is None
    assert "yet TensorFlow lists 1 GPU(s) (/physical_device:GPU:0)" in finding.summary


# --- GPU code ----------------------------------------------------------------------------------

B200 = GpuFacts(0, "NVIDIA B200", compute_capability="10.0")
H100 = GpuFacts(0, "NVIDIA H100 80GB HBM3", compute_capability="9.0")
#: What the fat binaries of TF 2.21's (and 2.22rc0's) libraries hold.
FATBIN_221 = GpuCodeFacts(
    sass=("sm_60", "sm_70", "sm_80", "sm_89", "sm_90"),
    ptx=("compute_90",),
    objects=(f"{SITE}/tensorflow/libtensorflow_cc.so.2",),
)
TF_REQUIRES_222 = (
    "numpy>=1.26.0",
    'nvidia-cuda-runtime-cu12<13.0,>=12.5.82; extra == "and-cuda"',
    'nvidia-cudnn-cu12<10.0,>=9.10.2.21; extra == "and-cuda"',
)


def _tf222(**kw: object) -> TensorFlowFacts:
    """TF 2.22.0rc0 as imported: its build info has the flags only."""
    base = f.tensorflow(
        version="2.22.0rc0",
        build_info={"is_cuda_build": "True", "is_rocm_build": "False"},
        cuda_version=None,
        cudnn_version=None,
        compute_capabilities=(),
    )
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


def _facts_222(gpu: GpuFacts, gpu_code: GpuCodeFacts | None) -> Facts:
    return f.facts(
        packages=(
            f.pkg("tensorflow", "2.22.0rc0", *TF_REQUIRES_222, top_level=("tensorflow",)),
            f.pkg("numpy", "2.1.3"),
        ),
        tensorflow=_tf222(),
        driver=f.driver(driver_version="580.65.06", cuda_version="13.0", gpus=(gpu,)),
        cuda_libs=dataclasses.replace(f.cuda_libs(), gpu_code=gpu_code),
    )


def _capability(facts: Facts) -> list[Finding]:
    return list(check_compute_capability(CheckContext(facts, f.FIXTURE_MATRIX)))


def test_without_build_info_the_fatbin_and_the_and_cuda_pins_tell_the_build() -> None:
    facts = _facts_222(H100, FATBIN_221)
    assert view(facts, f.FIXTURE_MATRIX).build_cuda == "12.5"
    assert view(facts, f.FIXTURE_MATRIX).build_cudnn == "9.10"
    (finding,) = _capability(facts)
    assert finding.severity is Severity.OK and "machine code" in finding.summary

    (ptx,) = _capability(_facts_222(B200, FATBIN_221))
    assert ptx.severity is Severity.WARNING and ptx.cause == "gpu-ptx-jit"
    assert "sm_60, sm_70, sm_80, sm_89, sm_90, compute_90" in ptx.detail


def test_without_build_info_or_fatbin_the_gpu_code_is_unknown() -> None:
    (finding,) = _capability(_facts_222(H100, None))
    assert finding.severity is Severity.UNKNOWN and "architectures" in finding.summary


def test_the_fatbin_outranks_the_build_info_list() -> None:
    # The build info claims machine code for 10.0; the objects carry none.
    tf = f.tensorflow(compute_capabilities=("sm_80", "sm_100", "compute_100"))
    said = f.facts(tensorflow=tf, driver=f.driver(gpus=(B200,)))
    assert [x.severity for x in _capability(said)] == [Severity.OK]
    seen = dataclasses.replace(
        said, cuda_libs=dataclasses.replace(f.cuda_libs(), gpu_code=FATBIN_221)
    )
    assert [x.cause for x in _capability(seen)] == ["gpu-ptx-jit"]
    # An object read without GPU code (a CPU build's) says nothing: the build info stands.
    empty = dataclasses.replace(
        said, cuda_libs=dataclasses.replace(f.cuda_libs(), gpu_code=GpuCodeFacts())
    )
    assert [x.severity for x in _capability(empty)] == [Severity.OK]


# --- the CUDA the and-cuda extra pins ------------------------------------------------------------


def _requires(name: str) -> list[str]:
    text = (METADATA / name).read_text(encoding="utf-8")
    return [
        line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("Requires-Dist: ")
    ]


@pytest.mark.parametrize(
    ("requires", "expected"),
    [
        pytest.param(
            _requires("tensorflow-2.21.0-linux.METADATA"), ("12.5", "9.3"), id="tf-2.21.0"
        ),
        pytest.param(
            [
                'nvidia-cuda-runtime-cu12==12.5.82; extra == "and-cuda"',
                'nvidia-cudnn-cu12==9.3.0.75; extra == "and-cuda"',
            ],
            ("12.5", "9.3"),
            id="tf-2.18-exact-pins",
        ),
        pytest.param(
            ['nvidia-cuda-runtime==13.0.48; extra == "and-cuda"'], ("13.0", None), id="cuda-13"
        ),
        pytest.param(
            ["nvidia-cuda-runtime-cu12>=12.5.82", 'nvidia-cudnn-cu12<10; extra == "and-cuda"'],
            (None, None),
            id="unconditional-or-unbounded",
        ),
        pytest.param(_requires("tensorflow-2.11.1-linux.METADATA"), (None, None), id="no-extra"),
    ],
)
def test_the_and_cuda_pins(requires: list[str], expected: tuple[str | None, str | None]) -> None:
    assert declared_cuda(requires) == expected
