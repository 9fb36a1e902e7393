"""GPU paths end to end without a GPU: the whole CLI against a gcc-built fake NVML library."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.commandline import tfdoctor
from tests.cstubs import build_shared_lib
from tests.test_probe_nvidia import NVML_STUB_C


@pytest.fixture(scope="module")
def nvml_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("driver")
    build_shared_lib(directory, "libnvidia-ml.so.1", NVML_STUB_C)
    return directory


def check(nvml_dir: Path, *args: str, **stub: str) -> tuple[int, dict[str, dict[str, object]]]:
    env = {"LD_LIBRARY_PATH": str(nvml_dir)}
    env.update({f"STUB_NVML_{k}": v for k, v in stub.items()})
    out = tfdoctor("check", "--json", *args, env=env, timeout=300)
    report = json.loads(out.stdout)
    return out.returncode, {f["id"]: f for f in report["findings"]}


@pytest.mark.slow  # judges the TensorFlow installed beside the suite (its CUDA build)
def test_two_gpus_without_cuda_libraries_is_an_error_with_the_fix(nvml_dir: Path) -> None:
    code, findings = check(nvml_dir, "--static")
    driver = findings["driver.nvidia"]
    assert driver["severity"] == "ok"
    assert "NVIDIA A100-SXM4-80GB (compute 8.0)" in str(driver["summary"])
    assert "Tesla T4 (compute 7.5)" in str(driver["summary"])
    libs = findings["cuda.libraries"]
    assert libs["severity"] == "error"
    assert "tensorflow[and-cuda]==" in json.dumps(libs["fix"])
    assert code == 2


def test_driver_library_version_mismatch(nvml_dir: Path) -> None:
    code, findings = check(nvml_dir, "--static", "driver.nvidia", RC_nvmlInit="18")
    driver = findings["driver.nvidia"]
    assert driver["severity"] == "error"
    assert "version mismatch" in str(driver["summary"])
    assert "sudo reboot" in json.dumps(driver["fix"])
    assert code == 2


@pytest.mark.slow
def test_real_tensorflow_cannot_use_the_fake_gpus_and_says_why(nvml_dir: Path) -> None:
    code, findings = check(nvml_dir, "tensorflow.import", "gpu.visible")
    assert findings["tensorflow.import"]["severity"] == "ok"
    visible = findings["gpu.visible"]
    assert visible["severity"] == "error"
    assert "none of the 2 GPU(s)" in str(visible["summary"])
    assert code == 2
