"""The CUDA pip wheels' layout and XLA's CUDA-root flag."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.cuda_layout import (
    libraries_in,
    library_dirs,
    library_names,
    wheel_dir,
    without_xla_cuda_data_dir,
    xla_cuda_data_dir,
)


@pytest.mark.parametrize(
    ("name", "cuda_major", "expected"),
    [
        pytest.param("cudart", 12, ("cuda_runtime",), id="cudart-12"),
        pytest.param("cublasLt", 12, ("cublas",), id="cublaslt-in-cublas"),
        pytest.param("cudart", 13, ("cu13", "cuda_runtime"), id="cudart-13-grouped-first"),
        pytest.param("cudnn", 13, ("cudnn",), id="cudnn-13-own-dir"),
        pytest.param("nccl", 13, ("nccl",), id="nccl-13-own-dir"),
        pytest.param("cuda", 13, (), id="driver-no-wheel"),
        pytest.param("cufft", None, ("cufft",), id="unknown-cuda"),
    ],
)
def test_library_dirs(name: str, cuda_major: Optional[int], expected: tuple[str, ...]) -> None:
    assert library_dirs(name, cuda_major) == expected


@pytest.mark.parametrize(
    ("dist", "version", "expected"),
    [
        pytest.param("nvidia-cudnn-cu12", "9.3.0.75", "cudnn", id="cudnn-cu12"),
        pytest.param("nvidia-cuda-runtime-cu12", "12.5.82", "cuda_runtime", id="runtime-cu12"),
        pytest.param("nvidia-cublas-cu11", "11.11.3.6", "cublas", id="cublas-cu11"),
        pytest.param("nvidia-cublas", "13.0.0.19", "cu13", id="cublas-13-unsuffixed"),
        pytest.param("nvidia-cuda-runtime-cu13", "13.0.96", "cu13", id="runtime-cu13"),
        pytest.param("nvidia-cudnn-cu13", "9.13.0.50", "cudnn", id="cudnn-cu13-own-dir"),
        pytest.param("nvidia-nccl-cu13", "2.27.7", "nccl", id="nccl-cu13-own-dir"),
        pytest.param("nvidia-cuda-nvcc-cu12", "12.5.82", "cuda_nvcc", id="nvcc-cu12"),
        pytest.param("nvidia-ml-py", "12.560.30", None, id="not-a-library-wheel"),
        pytest.param("numpy", "2.1.0", None, id="unrelated"),
    ],
)
def test_wheel_dir(dist: str, version: str, expected: Optional[str]) -> None:
    assert wheel_dir(dist, version) == expected


def test_every_library_lies_in_the_directories_that_name_it() -> None:
    for name in library_names():
        for directory in library_dirs(name, 13):
            assert name in libraries_in(directory), (name, directory)
        assert all(name in libraries_in(d) for d in library_dirs(name))
    assert libraries_in("cu13") == (
        "cudart",
        "cublas",
        "cublasLt",
        "cufft",
        "cusparse",
        "cusolver",
        "curand",
    )
    assert libraries_in("cuda_nvcc") == ()


@pytest.mark.parametrize(
    ("flags", "data_dir", "others"),
    [
        pytest.param(
            "--xla_gpu_cuda_data_dir=/opt/cuda --foo=1", "/opt/cuda", ("--foo=1",), id="plain"
        ),
        pytest.param(
            "--a=1 --xla_gpu_cuda_data_dir='/opt/my cuda' --b=2",
            "/opt/my cuda",
            ("--a=1", "--b=2"),
            id="quoted-with-space",
        ),
        pytest.param("--xla_gpu_autotune_level=0", None, ("--xla_gpu_autotune_level=0",), id="no"),
        pytest.param(None, None, (), id="unset"),
    ],
)
def test_xla_cuda_data_dir(
    flags: Optional[str], data_dir: Optional[str], others: tuple[str, ...]
) -> None:
    assert xla_cuda_data_dir(flags) == data_dir
    assert without_xla_cuda_data_dir(flags) == others


def test_wheel_names_drop_the_cuda_suffix_from_cuda_13() -> None:
    from tfdoctor.cuda_layout import wheel_name

    assert wheel_name("nvidia-cuda-nvcc", 12) == "nvidia-cuda-nvcc-cu12"
    assert wheel_name("nvidia-cuda-nvcc", 13) == "nvidia-cuda-nvcc"
