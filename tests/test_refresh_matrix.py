"""scripts/refresh_matrix.py: wheel tags, METADATA, build_info and the matrix cross-check.

The fixtures under tests/data/pypi are real bytes fetched from PyPI: trimmed simple-index JSON
(PEP 691) and the METADATA / build_info.py members of the named wheels.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import random
import re
import shutil
import socket
import sys
import threading
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any, Optional

import pytest
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "pypi"


def _load_script() -> ModuleType:
    """Import scripts/refresh_matrix.py (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        "refresh_matrix", ROOT / "scripts" / "refresh_matrix.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses resolve the defining module through sys.modules.
    sys.modules["refresh_matrix"] = module
    spec.loader.exec_module(module)
    return module


rm = _load_script()


def index(dist: str) -> list[Any]:
    """The recorded simple-index files of a distribution."""
    result: list[Any] = rm.parse_simple_index(
        json.loads((DATA / f"simple-{dist}.json").read_text(encoding="utf-8"))
    )
    return result


def metadata(name: str) -> Any:
    """A recorded METADATA file, parsed."""
    return rm.parse_metadata((DATA / "metadata" / f"{name}.METADATA").read_text("utf-8"))


def build_info(name: str) -> dict[str, object]:
    """A recorded build_info.py, parsed."""
    result: dict[str, object] = rm.parse_build_info(
        (DATA / "build_info" / f"{name}.py").read_text("utf-8")
    )
    return result


def file_named(filename: str) -> Any:
    """An index entry for a bare file name."""
    return rm.IndexFile(filename, "https://example.invalid/" + filename, None, False, None)


# --- wheel file names ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("filename", "version", "pythons", "platforms", "glibc"),
    [
        pytest.param(
            "tensorflow-1.15.5-cp37-cp37m-manylinux2010_x86_64.whl",
            "1.15.5",
            {"3.7"},
            {"linux-x86_64"},
            (2, 12),
            id="manylinux2010-cp37m",
        ),
        pytest.param(
            "tensorflow-1.13.1-cp36-cp36m-manylinux1_x86_64.whl",
            "1.13.1",
            {"3.6"},
            {"linux-x86_64"},
            (2, 5),
            id="manylinux1",
        ),
        pytest.param(
            "tensorflow-2.16.2-cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
            "2.16.2",
            {"3.12"},
            {"linux-x86_64"},
            (2, 17),
            id="pep600-and-manylinux2014-tag-set",
        ),
        pytest.param(
            "tensorflow-2.21.0-cp313-cp313-manylinux_2_27_aarch64.whl",
            "2.21.0",
            {"3.13"},
            {"linux-aarch64"},
            (2, 27),
            id="pep600-aarch64",
        ),
        pytest.param(
            "tensorflow-2.0.4-cp36-cp36m-macosx_10_11_x86_64.whl",
            "2.0.4",
            {"3.6"},
            {"macos-x86_64"},
            None,
            id="macosx-10-11-x86_64",
        ),
        pytest.param(
            "tensorflow-2.21.0-cp310-cp310-macosx_12_0_arm64.whl",
            "2.21.0",
            {"3.10"},
            {"macos-arm64"},
            None,
            id="macosx-12-arm64",
        ),
        pytest.param(
            "tensorflow-2.21.0rc1-cp311-cp311-win_amd64.whl",
            "2.21.0rc1",
            {"3.11"},
            {"windows-x86_64"},
            None,
            id="win-amd64-rc",
        ),
        pytest.param(
            "tensorflow_gpu-1.15.5-cp37-cp37m-win_amd64.whl",
            "1.15.5",
            {"3.7"},
            {"windows-x86_64"},
            None,
            id="underscored-dist-name",
        ),
        pytest.param(
            "example-1.0-cp38.cp39-abi3-macosx_11_0_universal2.whl",
            "1.0",
            {"3.8", "3.9"},
            {"macos-arm64", "macos-x86_64"},
            None,
            id="compressed-tag-set-universal2",
        ),
        pytest.param("example-1.0-py3-none-any.whl", "1.0", set(), set(), None, id="pure-python"),
        pytest.param(
            "tensorflow-1.15.5-cp37-cp37m-win32.whl",
            "1.15.5",
            {"3.7"},
            set(),
            None,
            id="win32-not-a-matrix-platform",
        ),
    ],
)
def test_parse_wheel(
    filename: str,
    version: str,
    pythons: set[str],
    platforms: set[str],
    glibc: Optional[tuple[int, int]],
) -> None:
    wheel = rm.parse_wheel(file_named(filename))
    assert wheel is not None
    assert (str(wheel.version), set(wheel.pythons), set(wheel.platforms), wheel.glibc) == (
        version,
        pythons,
        platforms,
        glibc,
    )


@pytest.mark.parametrize(
    "filename",
    [
        pytest.param("tensorflow-gpu-2.12.0.tar.gz", id="sdist"),
        pytest.param("tensorflow-2.21.0.whl", id="no-tags"),
    ],
)
def test_parse_wheel_rejects_non_wheels(filename: str) -> None:
    assert rm.parse_wheel(file_named(filename)) is None


# --- grouping and selection ----------------------------------------------------------------


def test_latest_finals_skip_release_candidates() -> None:
    latest = rm.latest_finals(index("tensorflow"))
    assert {line: str(v) for line, v in latest.items()} == {
        "1.15": "1.15.5",
        "2.0": "2.0.4",
        "2.8": "2.8.4",
        "2.12": "2.12.1",
        "2.16": "2.16.2",
        "2.21": "2.21.0",
    }
    assert rm.wanted_lines(latest) == ["2.21", "2.16", "2.12", "2.8", "2.0", "1.15"]


def test_latest_finals_skip_yanked_files() -> None:
    # No tensorflow file is yanked on PyPI; mark 2.21.0 so (PEP 592: bool or reason string).
    doc = json.loads((DATA / "simple-tensorflow.json").read_text(encoding="utf-8"))
    for entry in doc["files"]:
        if entry["filename"].startswith("tensorflow-2.21.0-"):
            entry["yanked"] = "broken wheels"
    latest = rm.latest_finals(rm.parse_simple_index(doc))
    assert "2.21" not in latest  # only 2.21.0rc1 is left, and release candidates do not count
    assert str(latest["2.16"]) == "2.16.2"


def test_latest_finals_count_sdists() -> None:
    # tensorflow-gpu 2.12.0 is an sdist that only raises an error: it exists, without wheels.
    latest = rm.latest_finals(index("tensorflow-gpu"))
    assert {line: str(v) for line, v in latest.items()} == {
        "1.15": "1.15.5",
        "2.11": "2.11.0",
        "2.12": "2.12.0",
    }
    assert rm.wheels_of(index("tensorflow-gpu"), Version("2.12.0")) == []


@pytest.mark.parametrize(
    ("version", "expected", "glibc"),
    [
        pytest.param(
            "2.21.0",
            {
                "linux-x86_64": ["3.10", "3.11", "3.12", "3.13"],
                "linux-aarch64": ["3.10", "3.11", "3.12", "3.13"],
                "macos-x86_64": [],
                "macos-arm64": ["3.10", "3.11", "3.12", "3.13"],
                "windows-x86_64": ["3.10", "3.11", "3.12", "3.13"],
            },
            "2.27",
            id="2.21-no-intel-mac",
        ),
        pytest.param(
            "2.16.2",
            {
                "linux-x86_64": ["3.9", "3.10", "3.11", "3.12"],
                "linux-aarch64": ["3.9", "3.10", "3.11", "3.12"],
                "macos-x86_64": ["3.9", "3.10", "3.11", "3.12"],
                "macos-arm64": ["3.9", "3.10", "3.11", "3.12"],
                "windows-x86_64": ["3.9", "3.10", "3.11", "3.12"],
            },
            "2.17",
            id="2.16-every-platform",
        ),
        pytest.param(
            "1.15.5",
            {
                "linux-x86_64": ["3.6", "3.7"],
                "linux-aarch64": [],
                "macos-x86_64": ["3.6", "3.7"],
                "macos-arm64": [],
                "windows-x86_64": ["3.6", "3.7"],
            },
            "2.12",
            id="1.15-manylinux2010",
        ),
    ],
)
def test_pythons_and_glibc_per_platform(
    version: str, expected: dict[str, list[str]], glibc: str
) -> None:
    wheels = rm.wheels_of(index("tensorflow"), Version(version))
    assert rm.pythons_by_platform(wheels) == expected
    assert rm.glibc_floor(wheels) == glibc


def test_release_candidates_do_not_mix_into_the_final() -> None:
    wheels = rm.wheels_of(index("tensorflow"), Version("2.21.0"))
    assert len(wheels) == 16
    assert {w.file.filename.split("-")[1] for w in wheels} == {"2.21.0"}


@pytest.mark.parametrize(
    ("version", "platform", "expected"),
    [
        pytest.param(
            "2.21.0",
            "linux-x86_64",
            "tensorflow-2.21.0-cp311-cp311-manylinux_2_27_x86_64.whl",
            id="prefers-cp311",
        ),
        pytest.param(
            "1.15.5",
            "linux-x86_64",
            "tensorflow-1.15.5-cp37-cp37m-manylinux2010_x86_64.whl",
            id="else-newest-cpython",
        ),
        pytest.param("2.12.1", "macos-arm64", None, id="no-wheel"),
    ],
)
def test_pick_wheel(version: str, platform: str, expected: Optional[str]) -> None:
    wheel = rm.pick_wheel(rm.wheels_of(index("tensorflow"), Version(version)), platform)
    assert (wheel.file.filename if wheel else None) == expected


def test_thin_wrapper_wheels_are_recognised_by_size() -> None:
    wheels = rm.wheels_of(index("tensorflow"), Version("2.16.2"))
    windows = rm.pick_wheel(wheels, "windows-x86_64")
    linux = rm.pick_wheel(wheels, "linux-x86_64")
    assert windows.file.size == 2070
    assert rm.needs_own_metadata(windows, {}) is True
    assert rm.needs_own_metadata(linux, {}) is False
    macos = rm.pick_wheel(wheels, "macos-arm64")
    assert rm.needs_own_metadata(macos, {"macos-arm64": "tensorflow-macos"}) is True


# --- METADATA ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "requires_python", "expected"),
    [
        pytest.param(
            "tensorflow-2.21.0-linux",
            ">=3.10",
            {
                "numpy": [{"specifier": ">=1.26.0", "marker": None}],
                "protobuf": [{"specifier": "<8.0.0,>=6.31.1", "marker": None}],
                "keras": [{"specifier": ">=3.12.0", "marker": None}],
                "tf-keras": [],
                "ml-dtypes": [{"specifier": "<1.0.0,>=0.5.1", "marker": None}],
                "h5py": [{"specifier": "<3.15.0,>=3.11.0", "marker": None}],
                "tensorboard": [],
            },
            id="2.21-pep508-no-spaces",
        ),
        pytest.param(
            "tensorflow-2.16.2-linux",
            ">=3.9",
            {
                "numpy": [
                    {"specifier": "<2.0.0,>=1.23.5", "marker": 'python_version <= "3.11"'},
                    {"specifier": "<2.0.0,>=1.26.0", "marker": 'python_version >= "3.12"'},
                ],
                "protobuf": [
                    {
                        "specifier": "!=4.21.0,!=4.21.1,!=4.21.2,!=4.21.3,!=4.21.4,!=4.21.5,"
                        "<5.0.0dev,>=3.20.3",
                        "marker": None,
                    }
                ],
                "keras": [{"specifier": ">=3.0.0", "marker": None}],
                "tf-keras": [],
                "ml-dtypes": [{"specifier": "~=0.3.1", "marker": None}],
                "h5py": [{"specifier": ">=3.10.0", "marker": None}],
                "tensorboard": [{"specifier": "<2.17,>=2.16", "marker": None}],
            },
            id="2.16-conditional-numpy",
        ),
        pytest.param(
            "tensorflow-1.15.5-linux",
            None,
            {
                "numpy": [{"specifier": "<1.19.0,>=1.16.0", "marker": None}],
                "protobuf": [{"specifier": ">=3.6.1", "marker": None}],
                "keras": [],
                "tf-keras": [],
                "ml-dtypes": [],
                "h5py": [{"specifier": "<=2.10.0", "marker": None}],
                "tensorboard": [{"specifier": "<1.16.0,>=1.15.0", "marker": None}],
            },
            id="1.15-parenthesised-no-requires-python",
        ),
    ],
)
def test_metadata_pins(name: str, requires_python: Optional[str], expected: object) -> None:
    parsed = metadata(name)
    assert parsed.requires_python == requires_python
    assert rm.parse_pins(parsed.requires_dist) == expected


@pytest.mark.parametrize(
    ("name", "python", "expected"),
    [
        pytest.param(
            "tensorflow-2.19.1-linux",
            "3.11",
            {"windows-x86_64": "tensorflow-intel"},
            id="2.19-linux-names-intel",
        ),
        pytest.param("tensorflow-2.19.1-windows", "3.11", {}, id="2.19-windows-is-full"),
        pytest.param("tensorflow-2.11.1-linux", "3.10", {}, id="2.11-linux-names-none"),
        pytest.param(
            "tensorflow-2.11.1-aarch64",
            "3.10",
            # The wrapper wheels carry both markers; only their own platform's entry matters.
            {"linux-aarch64": "tensorflow-cpu-aws", "windows-x86_64": "tensorflow-intel"},
            id="2.11-aarch64-wrapper",
        ),
        pytest.param(
            "tensorflow-2.12.1-linux",
            "3.11",
            {"linux-aarch64": "tensorflow-cpu-aws", "windows-x86_64": "tensorflow-intel"},
            id="2.12-linux-names-both",
        ),
        pytest.param(
            "tensorflow-2.16.2-windows",
            "3.11",
            {"windows-x86_64": "tensorflow-intel"},
            id="2.16-windows-wrapper",
        ),
    ],
)
def test_wrappers(name: str, python: str, expected: dict[str, str]) -> None:
    assert rm.parse_wrappers(metadata(name).requires_dist, python) == expected


def test_wrapper_record_of_a_thin_wheel() -> None:
    wheels = rm.wheels_of(index("tensorflow"), Version("2.16.2"))
    windows = rm.pick_wheel(wheels, "windows-x86_64")
    record = rm.platform_wheel_record(
        windows, "windows-x86_64", metadata("tensorflow-2.16.2-windows")
    )
    assert record == {
        "wheel": "tensorflow-2.16.2-cp311-cp311-win_amd64.whl",
        "size": 2070,
        "thin": True,
        "metadata_read": True,
        "wrapper": "tensorflow-intel",
        "wrapper_requirement": 'tensorflow-intel ==2.16.2 ; platform_system == "Windows"',
    }


def test_and_cuda_extra_of_2_21() -> None:
    assert rm.parse_extra(metadata("tensorflow-2.21.0-linux").requires_dist) == {
        "nvidia-cublas-cu12": "<13.0,>=12.5.3.2",
        "nvidia-cuda-cupti-cu12": "<13.0,>=12.5.82",
        "nvidia-cuda-nvcc-cu12": "<13.0,>=12.5.82",
        "nvidia-cuda-nvrtc-cu12": "<13.0,>=12.5.82",
        "nvidia-cuda-runtime-cu12": "<13.0,>=12.5.82",
        "nvidia-cudnn-cu12": "<10.0,>=9.3.0.75",
        "nvidia-cufft-cu12": "<12.0,>=11.2.3.61",
        "nvidia-curand-cu12": "<11.0,>=10.3.6.82",
        "nvidia-cusolver-cu12": "<12.0,>=11.6.3.83",
        "nvidia-cusparse-cu12": "<13.0,>=12.5.1.3",
        "nvidia-nccl-cu12": "<3.0,>=2.27.7",
        "nvidia-nvjitlink-cu12": "<13.0,>=12.5.82",
    }


@pytest.mark.parametrize(
    ("name", "expected_cudnn"),
    [
        pytest.param("tensorflow-2.16.2-linux", "==8.9.7.29", id="2.16-exact-pins"),
        pytest.param("tensorflow-2.12.1-linux", None, id="2.12-no-extra"),
        pytest.param("tensorflow-1.15.5-linux", None, id="1.15-no-extra"),
    ],
)
def test_and_cuda_extra(name: str, expected_cudnn: Optional[str]) -> None:
    extra = rm.parse_extra(metadata(name).requires_dist)
    assert (extra or {}).get("nvidia-cudnn-cu12") == expected_cudnn
    # The base requirements never leak into the extra.
    assert "numpy" not in (extra or {})


# --- build_info.py -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "cuda", "cudnn", "is_cuda_build", "capabilities"),
    [
        pytest.param("tensorflow_gpu-1.15.5-linux", "10", "7", True, None, id="constants-gpu-1.15"),
        pytest.param("tensorflow-1.15.5-linux", None, None, False, None, id="constants-cpu-1.15"),
        pytest.param(
            "tensorflow_gpu-1.15.5-windows", "10.0", "7", True, None, id="constants-windows-1.15"
        ),
        pytest.param(
            "tensorflow-2.3.4-linux",
            "10.1",
            "7",
            True,
            {"sass": ["sm_35", "sm_37", "sm_52", "sm_60", "sm_61", "sm_70"], "ptx": ["compute_70"]},
            id="dict-literal-2.3",
        ),
        pytest.param(
            "tensorflow-2.4.4-linux",
            "11.0",
            "8",
            True,
            {"sass": ["sm_35", "sm_50", "sm_60", "sm_70", "sm_75", "sm_80"], "ptx": ["compute_80"]},
            id="ordered-dict-2.4",
        ),
        pytest.param(
            "tensorflow-2.4.4-windows",
            "11.0",
            "8",
            True,
            {"sass": ["sm_35", "sm_50", "sm_60", "sm_70", "sm_75", "sm_80"], "ptx": ["compute_80"]},
            id="ordered-dict-windows-dll-suffixes-2.4",
        ),
        pytest.param(
            "tensorflow-2.12.1-linux",
            "11.8",
            "8",
            True,
            {"sass": ["sm_35", "sm_50", "sm_60", "sm_70", "sm_75", "sm_80"], "ptx": ["compute_80"]},
            id="ordered-dict-2.12",
        ),
        pytest.param(
            "tensorflow-2.16.2-linux",
            "12.3",
            "8",
            True,
            {"sass": ["sm_50", "sm_60", "sm_70", "sm_80", "sm_90"], "ptx": ["compute_90"]},
            id="ordered-dict-2.16",
        ),
        pytest.param(
            "tensorflow-2.21.0-linux",
            "12.5",
            "9",
            True,
            {"sass": ["sm_60", "sm_70", "sm_80", "sm_89", "sm_90"], "ptx": ["compute_90"]},
            id="ordered-dict-2.21",
        ),
        pytest.param(
            "tensorflow-2.21.0-aarch64", None, None, False, None, id="cpu-build-aarch64-2.21"
        ),
        pytest.param(
            "tensorflow-2.21.0-windows", None, None, False, None, id="cpu-build-windows-2.21"
        ),
        pytest.param(
            "tensorflow_cpu_aws-2.12.1-aarch64",
            None,
            None,
            False,
            None,
            id="wrapped-cpu-aws-2.12",
        ),
        pytest.param(
            "tensorflow_intel-2.12.1-windows", None, None, False, None, id="wrapped-intel-2.12"
        ),
    ],
)
def test_build_info(
    name: str,
    cuda: Optional[str],
    cudnn: Optional[str],
    is_cuda_build: bool,
    capabilities: Optional[dict[str, list[str]]],
) -> None:
    facts = rm.build_facts(build_info(name), name)
    caps = facts["compute_capabilities"]
    assert (facts["cuda"], facts["cudnn_major"], facts["is_cuda_build"]) == (
        cuda,
        cudnn,
        is_cuda_build,
    )
    if capabilities is None:
        assert caps is None
    else:
        assert caps == {**capabilities, "other": []}
    assert rm.is_cuda(facts) is is_cuda_build


def test_build_info_raw_keys_of_windows_2_4() -> None:
    raw = build_info("tensorflow-2.4.4-windows")
    assert raw["cuda_version"] == "64_110"
    assert raw["cudart_dll_name"] == "cudart64_110.dll"
    assert sorted(raw) == [
        "cpu_compiler",
        "cuda_compute_capabilities",
        "cuda_version",
        "cudart_dll_name",
        "cudnn_dll_name",
        "cudnn_version",
        "is_cuda_build",
        "is_rocm_build",
        "msvcp_dll_names",
        "nvcuda_dll_name",
    ]


def test_build_info_is_not_executed(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    source = f"import pathlib\npathlib.Path({str(marker)!r}).touch()\ncuda_version_number = '9.0'\n"
    assert rm.parse_build_info(source) == {"cuda_version_number": "9.0"}
    assert not marker.exists()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("12.5.1", "12.5", id="linux-patch"),
        pytest.param("11.8", "11.8", id="linux-minor"),
        pytest.param("10", "10", id="bare-major"),
        pytest.param("64_101", "10.1", id="windows-101"),
        pytest.param("64_112", "11.2", id="windows-112"),
        pytest.param("", None, id="empty"),
        pytest.param(None, None, id="absent"),
    ],
)
def test_cuda_major_minor(value: object, expected: Optional[str]) -> None:
    assert rm.cuda_major_minor(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("9", "9", id="major"),
        pytest.param("8.1", "8", id="major-minor"),
        pytest.param("64_8", "8", id="windows"),
        pytest.param(None, None, id="absent"),
    ],
)
def test_cudnn_major(value: object, expected: Optional[str]) -> None:
    assert rm.cudnn_major(value) == expected


# --- tf-keras, the cuDNN pin and wrapped wheels ---------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("tf_keras-2.21.0", "<2.22,>=2.21", id="2.21-pep508"),
        pytest.param("tf_keras-2.15.1", "<2.16,>=2.15", id="2.15-spaced"),
        pytest.param("tf_keras-2.14.1", None, id="2.14-no-tensorflow-requirement"),
        pytest.param("tensorflow-2.21.0-linux", None, id="tensorflow-itself"),
    ],
)
def test_tensorflow_requirement(name: str, expected: Optional[str]) -> None:
    assert rm.parse_tensorflow_requirement(metadata(name).requires_dist) == expected


def test_tf_keras_line_takes_the_newest_final_wheel() -> None:
    files = index("tf-keras")
    latest = rm.latest_finals(files)
    assert {line: str(v) for line, v in latest.items()} == {
        "2.14": "2.14.1",
        "2.15": "2.15.1",  # not 2.15.1rc0, not 2.15.0
        "2.21": "2.21.0",
    }
    wheel = rm.pure_wheel(rm.wheels_of(files, latest["2.15"]))
    assert wheel.file.filename == "tf_keras-2.15.1-py3-none-any.whl"  # not the sdist


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("tensorflow-2.21.0-linux", ("nvidia-cudnn-cu12", "9.3"), id="2.21-range"),
        pytest.param("tensorflow-2.16.2-linux", ("nvidia-cudnn-cu12", "8.9"), id="2.16-exact"),
        pytest.param("tensorflow-2.12.1-linux", None, id="2.12-no-extra"),
    ],
)
def test_cudnn_pin_of_the_extra(name: str, expected: Optional[tuple[str, str]]) -> None:
    pin = rm.cudnn_pin(rm.parse_extra(metadata(name).requires_dist))
    assert (None if pin is None else (pin[0], rm.pin_major_minor(pin[1]))) == expected


@pytest.mark.parametrize(
    ("specifier", "expected"),
    [
        pytest.param("<10.0,>=9.3.0.75", "9.3", id="range"),
        pytest.param("==8.7.0.84", "8.7", id="exact"),
        pytest.param("~=9.1.0", "9.1", id="compatible"),
        pytest.param(">=8.6,>=9.0.1", "9.0", id="highest-floor-binds"),
        pytest.param("<10", None, id="no-floor"),
        pytest.param("==9.*", None, id="wildcard"),
        pytest.param("not a specifier", None, id="invalid"),
    ],
)
def test_pin_major_minor(specifier: str, expected: Optional[str]) -> None:
    assert rm.pin_major_minor(specifier) == expected


@pytest.mark.parametrize(
    ("platform", "dist", "expected"),
    [
        pytest.param(
            "linux-aarch64",
            "tensorflow-cpu-aws",
            "tensorflow_cpu_aws-2.12.1-cp311-cp311-manylinux_2_17_aarch64.manylinux2014_aarch64.whl",
            id="aarch64-cpu-aws",
        ),
        pytest.param(
            "windows-x86_64",
            "tensorflow-intel",
            "tensorflow_intel-2.12.1-cp311-cp311-win_amd64.whl",
            id="windows-intel",
        ),
    ],
)
def test_wrapped_wheel_of_a_thin_wheel(platform: str, dist: str, expected: str) -> None:
    wheels = rm.wheels_of(index("tensorflow"), Version("2.12.1"))
    thin = rm.pick_wheel(wheels, platform)
    own = metadata("tensorflow-2.12.1-" + ("aarch64" if "aarch64" in platform else "windows"))
    record = rm.platform_wheel_record(thin, platform, own)
    assert record["thin"] is True
    assert record["wrapper"] == dist
    wheel = rm.wrapped_wheel(str(record["wrapper_requirement"]), index(dist), platform)
    assert wheel.file.filename == expected


@pytest.mark.parametrize(
    ("requirement", "platform"),
    [
        pytest.param("tensorflow-cpu-aws ==2.11.1", "linux-aarch64", id="version-not-on-index"),
        pytest.param("tensorflow-cpu-aws ==2.12.1", "windows-x86_64", id="no-wheel-there"),
        pytest.param("not a requirement ==", "linux-aarch64", id="invalid"),
    ],
)
def test_wrapped_wheel_none(requirement: str, platform: str) -> None:
    assert rm.wrapped_wheel(requirement, index("tensorflow-cpu-aws"), platform) is None


# --- the matrix check ----------------------------------------------------------------------

WHEELS = {
    "tensorflow-2.21.0-cp311-cp311-manylinux_2_27_x86_64.whl": {
        "METADATA": "metadata/tensorflow-2.21.0-linux.METADATA",
        "build_info.py": "build_info/tensorflow-2.21.0-linux.py",
    },
    "tensorflow-2.21.0-cp311-cp311-manylinux_2_27_aarch64.whl": {
        "build_info.py": "build_info/tensorflow-2.21.0-aarch64.py",
    },
    "tensorflow-2.21.0-cp311-cp311-win_amd64.whl": {
        "build_info.py": "build_info/tensorflow-2.21.0-windows.py",
    },
    "tf_keras-2.21.0-py3-none-any.whl": {"METADATA": "metadata/tf_keras-2.21.0.METADATA"},
    "tensorflow-2.22.0rc0-cp311-cp311-manylinux_2_27_x86_64.whl": {
        "METADATA": "metadata/tensorflow-2.22.0rc0-linux.METADATA",
        "build_info.py": "build_info/tensorflow-2.22.0rc0-linux.py",
    },
    "tensorflow-2.22.0rc0-cp311-cp311-manylinux_2_27_aarch64.whl": {
        "build_info.py": "build_info/tensorflow-2.22.0rc0-aarch64.py",
    },
    "tensorflow-2.22.0rc0-cp311-cp311-win_amd64.whl": {
        "build_info.py": "build_info/tensorflow-2.22.0rc0-windows.py",
    },
    "tensorflow-2.12.1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl": {
        "METADATA": "metadata/tensorflow-2.12.1-linux.METADATA",
        "build_info.py": "build_info/tensorflow-2.12.1-linux.py",
    },
    "tensorflow-2.12.1-cp311-cp311-manylinux_2_17_aarch64.manylinux2014_aarch64.whl": {
        "METADATA": "metadata/tensorflow-2.12.1-aarch64.METADATA",
    },
    "tensorflow-2.12.1-cp311-cp311-win_amd64.whl": {
        "METADATA": "metadata/tensorflow-2.12.1-windows.METADATA",
    },
    "tensorflow_cpu_aws-2.12.1-cp311-cp311-manylinux_2_17_aarch64.manylinux2014_aarch64.whl": {
        "build_info.py": "build_info/tensorflow_cpu_aws-2.12.1-aarch64.py",
    },
    "tensorflow_intel-2.12.1-cp311-cp311-win_amd64.whl": {
        "build_info.py": "build_info/tensorflow_intel-2.12.1-windows.py",
    },
    "tensorflow-1.15.5-cp37-cp37m-manylinux2010_x86_64.whl": {
        "METADATA": "metadata/tensorflow-1.15.5-linux.METADATA",
        "build_info.py": "build_info/tensorflow-1.15.5-linux.py",
    },
    "tensorflow_gpu-1.15.5-cp37-cp37m-manylinux2010_x86_64.whl": {
        "build_info.py": "build_info/tensorflow_gpu-1.15.5-linux.py",
    },
    "tensorflow_gpu-1.15.5-cp37-cp37m-win_amd64.whl": {
        "build_info.py": "build_info/tensorflow_gpu-1.15.5-windows.py",
    },
}


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    """A --cache-dir laid out from the recorded fixtures, as the script writes it."""
    cache = tmp_path / "cache"
    (cache / "simple").mkdir(parents=True)
    for path in DATA.glob("simple-*.json"):
        shutil.copyfile(path, cache / "simple" / (path.name.removeprefix("simple-")))
    for wheel, members in WHEELS.items():
        (cache / "wheels" / wheel).mkdir(parents=True)
        for name, source in members.items():
            shutil.copyfile(DATA / source, cache / "wheels" / wheel / name)
    return cache


MATRIX_2_21 = """\
schema_version: 1
tensorflow:
  - line: "2.21"
    latest_patch: "2.21.0"
    requires_python: ">=3.10"
    python:
      linux-x86_64: ["3.10", "3.11", "3.12", "3.13"]
      linux-aarch64: ["3.10", "3.11", "3.12", "3.13"]
      macos-x86_64: []
      macos-arm64: ["3.10", "3.11", "3.12", "3.13"]
      windows-x86_64: ["3.10", "3.11", "3.12", "3.13"]
    glibc_min: "2.27"
    gpu_package: {linux: tensorflow, windows: null, macos: tensorflow-metal}
    cuda_builds: [linux-x86_64]
    windows_native_gpu: false
    wrappers: {}
    cuda: "12.5"
    cudnn: "9.3"
    compute_capabilities:
      sass: ["sm_60", "sm_70", "sm_80", "sm_89", "sm_90"]
      ptx: ["compute_90"]
    pins:
      numpy: ">=1.26.0"
      protobuf: ">=6.31.1,<8"
      keras: ">=3.12.0"
      tf_keras: ">=2.21,<2.22"
      ml_dtypes: ">=0.5.1,<1"
    and_cuda:
      nvidia-cublas-cu12: "<13.0,>=12.5.3.2"
      nvidia-cuda-cupti-cu12: "<13.0,>=12.5.82"
      nvidia-cuda-nvcc-cu12: "<13.0,>=12.5.82"
      nvidia-cuda-nvrtc-cu12: "<13.0,>=12.5.82"
      nvidia-cuda-runtime-cu12: "<13.0,>=12.5.82"
      nvidia-cudnn-cu12: "<10.0,>=9.3.0.75"
      nvidia-cufft-cu12: "<12.0,>=11.2.3.61"
      nvidia-curand-cu12: "<11.0,>=10.3.6.82"
      nvidia-cusolver-cu12: "<12.0,>=11.6.3.83"
      nvidia-cusparse-cu12: "<13.0,>=12.5.1.3"
      nvidia-nccl-cu12: "<3.0,>=2.27.7"
      nvidia-nvjitlink-cu12: "<13.0,>=12.5.82"
"""

MATRIX_1_15 = """\
  - line: "1.15"
    latest_patch: "1.15.5"
    requires_python: null
    python:
      linux-x86_64: ["3.6", "3.7"]
      linux-aarch64: []
      macos-x86_64: ["3.6", "3.7"]
      macos-arm64: []
      windows-x86_64: ["3.6", "3.7"]
    glibc_min: "2.12"
    gpu_package: {linux: tensorflow-gpu, windows: tensorflow-gpu, macos: null}
    cuda_builds: [windows-x86_64, linux-x86_64]
    windows_native_gpu: true
    wrappers: {}
    cuda: "10.0"
    cudnn: "7.4"
    compute_capabilities: null
    pins:
      numpy: "<1.19.0,>=1.16.0"
      protobuf: ">=3.6.1"
      keras: null
      ml_dtypes: null
    and_cuda: null
"""

MATRIX_2_12 = """\
  - line: "2.12"
    latest_patch: "2.12.1"
    requires_python: ">=3.8"
    python:
      linux-x86_64: ["3.8", "3.9", "3.10", "3.11"]
      linux-aarch64: ["3.8", "3.9", "3.10", "3.11"]
      macos-x86_64: ["3.8", "3.9", "3.10", "3.11"]
      macos-arm64: []
      windows-x86_64: ["3.8", "3.9", "3.10", "3.11"]
    glibc_min: "2.17"
    gpu_package: {linux: tensorflow, windows: null, macos: tensorflow-metal}
    cuda_builds: [linux-x86_64]
    windows_native_gpu: false
    wrappers: {linux-aarch64: tensorflow-cpu-aws, windows-x86_64: tensorflow-intel}
    cuda: "11.8"
    cudnn: "8.6"
    compute_capabilities:
      sass: [sm_35, sm_50, sm_60, sm_70, sm_75, sm_80]
      ptx: [compute_80]
    pins:
      numpy: "<=1.24.3,>=1.22"
      protobuf: "!=4.21.0,!=4.21.1,!=4.21.2,!=4.21.3,!=4.21.4,!=4.21.5,<5.0.0dev,>=3.20.3"
      keras: "<2.13,>=2.12.0"
      tf_keras: null
      ml_dtypes: null
    and_cuda: null
"""


def line_facts(cache: Path, line: str) -> dict[str, object]:
    """collect_line for one recorded line, answered from the cache only."""
    pypi = rm.PyPI(cache_dir=cache, offline=True)
    files = pypi.index("tensorflow")
    latest = rm.latest_finals(files)[line]
    side = {dist: pypi.index(dist) for dist in rm.SIDE_DISTS}
    result: dict[str, object] = rm.collect_line(pypi, line, latest, files, side)
    return result


def test_check_agrees(cache_dir: Path) -> None:
    import yaml

    facts = [line_facts(cache_dir, line) for line in ("2.21", "2.12", "1.15")]
    matrix = yaml.safe_load(MATRIX_2_21 + MATRIX_2_12 + MATRIX_1_15)
    assert rm.diff_matrix(matrix, facts) == []


def test_check_reports_each_wrong_field(cache_dir: Path) -> None:
    import yaml

    wrong = MATRIX_2_21.replace(
        'linux-x86_64: ["3.10", "3.11", "3.12", "3.13"]', 'linux-x86_64: ["3.9", "3.10"]'
    ).replace('cuda: "12.5"', 'cuda: "12.3"')
    wrong_1_15 = MATRIX_1_15.replace('cudnn: "7.4"', 'cudnn: "8.0"')
    facts = [line_facts(cache_dir, "2.21"), line_facts(cache_dir, "1.15")]
    assert rm.diff_matrix(yaml.safe_load(wrong + wrong_1_15), facts) == [
        '2.21: python.linux-x86_64: matrix ["3.9", "3.10"], '
        'wheels ["3.10", "3.11", "3.12", "3.13"]',
        '2.21: cuda: matrix "12.3", wheels "12.5"',
        '1.15: cudnn: matrix "8.0", wheels "7"',
    ]


def test_check_reports_pins_and_missing_lines(cache_dir: Path) -> None:
    import yaml

    wrong = MATRIX_2_21.replace('numpy: ">=1.26.0"', 'numpy: ">=1.26.0,<2"').replace(
        "    wrappers: {}\n", "    wrappers: {windows-x86_64: tensorflow-intel}\n"
    )
    facts = [line_facts(cache_dir, "2.21"), line_facts(cache_dir, "1.15")]
    assert rm.diff_matrix(yaml.safe_load(wrong), facts) == [
        '2.21: pins.numpy: matrix ">=1.26.0,<2", wheels ">=1.26.0"',
        '2.21: wrappers: matrix {"windows-x86_64": "tensorflow-intel"}, wheels {}',
        "1.15: on PyPI (1.15.5), missing from the matrix",
    ]


def test_conditional_pins_match_any_branch() -> None:
    entries = rm.parse_pins(metadata("tensorflow-2.16.2-linux").requires_dist)["numpy"]
    value = rm.pin_value(entries)
    assert rm._pin_agrees(">=1.26.0,<2.0.0", value) is True
    assert rm._pin_agrees(">=1.22", value) is False


def test_gpu_facts_of_1_15_come_from_tensorflow_gpu(cache_dir: Path) -> None:
    facts = line_facts(cache_dir, "1.15")
    assert facts["linux_gpu_package"] == "tensorflow-gpu"
    assert facts["build_info"]["is_cuda_build"] is False  # type: ignore[index]
    assert facts["gpu_build_info"]["cuda_version"] == "10"  # type: ignore[index]
    assert facts["windows_build_info"]["cuda"] == "10.0"  # type: ignore[index]


@pytest.mark.parametrize(
    ("line", "aarch64_wheel", "windows_wheel", "cuda_builds", "windows_package"),
    [
        pytest.param(
            "2.21",
            "tensorflow-2.21.0-cp311-cp311-manylinux_2_27_aarch64.whl",
            "tensorflow-2.21.0-cp311-cp311-win_amd64.whl",
            ["linux-x86_64"],
            None,
            id="2.21-full-wheels-cpu-builds",
        ),
        pytest.param(
            "2.12",
            "tensorflow_cpu_aws-2.12.1-cp311-cp311-manylinux_2_17_aarch64.manylinux2014_aarch64.whl",
            "tensorflow_intel-2.12.1-cp311-cp311-win_amd64.whl",
            ["linux-x86_64"],
            None,
            id="2.12-wrappers-read-through",
        ),
        pytest.param(
            "1.15",
            None,
            "tensorflow_gpu-1.15.5-cp37-cp37m-win_amd64.whl",
            ["linux-x86_64", "windows-x86_64"],
            "tensorflow-gpu",
            id="1.15-tensorflow-gpu",
        ),
    ],
)
def test_platform_builds(
    cache_dir: Path,
    line: str,
    aarch64_wheel: Optional[str],
    windows_wheel: str,
    cuda_builds: list[str],
    windows_package: Optional[str],
) -> None:
    facts: dict[str, Any] = line_facts(cache_dir, line)
    aarch64 = facts["aarch64_build_info"]
    assert (aarch64["wheel"] if aarch64 else None) == aarch64_wheel
    assert facts["windows_build_info"]["wheel"] == windows_wheel
    assert facts["cuda_builds"] == cuda_builds
    assert facts["windows_gpu_package"] == windows_package
    assert facts["unread"] == []


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param(
            "2.21",
            {
                "version": "2.21.0",
                "wheel": "tf_keras-2.21.0-py3-none-any.whl",
                "metadata_read": True,
                "tensorflow": "<2.22,>=2.21",
            },
            id="2.21-release",
        ),
        pytest.param("2.12", None, id="2.12-no-release"),
    ],
)
def test_tf_keras_of_a_line(cache_dir: Path, line: str, expected: object) -> None:
    assert line_facts(cache_dir, line)["tf_keras"] == expected


def test_check_reports_gpu_build_fields(cache_dir: Path) -> None:
    import yaml

    wrong = (
        MATRIX_2_21.replace(
            "cuda_builds: [linux-x86_64]", "cuda_builds: [linux-x86_64, linux-aarch64]"
        )
        .replace('cudnn: "9.3"', 'cudnn: "9.1"')
        .replace('tf_keras: ">=2.21,<2.22"', "tf_keras: null")
    )
    wrong_2_12 = MATRIX_2_12.replace(
        "gpu_package: {linux: tensorflow, windows: null,",
        "gpu_package: {linux: tensorflow, windows: tensorflow,",
    ).replace("windows_native_gpu: false", "windows_native_gpu: true")
    wrong_1_15 = MATRIX_1_15.replace(
        "cuda_builds: [windows-x86_64, linux-x86_64]", "cuda_builds: [linux-x86_64]"
    )
    facts = [line_facts(cache_dir, line) for line in ("2.21", "2.12", "1.15")]
    assert rm.diff_matrix(yaml.safe_load(wrong + wrong_2_12 + wrong_1_15), facts) == [
        '2.21: cuda_builds: matrix ["linux-x86_64", "linux-aarch64"], wheels ["linux-x86_64"]',
        '2.21: cudnn (nvidia-cudnn-cu12<10.0,>=9.3.0.75): matrix "9.1", wheels "9.3"',
        '2.21: pins.tf_keras: matrix null, wheels "<2.22,>=2.21"',
        '2.12: gpu_package.windows: matrix "tensorflow", wheels null',
        "2.12: windows_native_gpu: matrix true, wheels false",
        '1.15: cuda_builds: matrix ["linux-x86_64"], wheels ["linux-x86_64", "windows-x86_64"]',
    ]


def test_check_reports_a_build_it_could_not_read(cache_dir: Path) -> None:
    import yaml

    # A wheel without build_info.py, as the cache records one ("<member>.absent").
    folder = cache_dir / "wheels" / "tensorflow-2.21.0-cp311-cp311-manylinux_2_27_aarch64.whl"
    (folder / "build_info.py").unlink()
    (folder / "build_info.py.absent").write_bytes(b"")
    facts = line_facts(cache_dir, "2.21")
    assert facts["cuda_builds"] == ["linux-x86_64"]
    assert rm.diff_matrix(yaml.safe_load(MATRIX_2_21), [facts]) == [
        "2.21: could not read the build_info of the linux-aarch64 build",
    ]


def test_summary_names_exactly_the_fields_compared(cache_dir: Path) -> None:
    import yaml

    # Every checked field made wrong must produce a difference, so the summary claims no more.
    row = yaml.safe_load(MATRIX_2_21)["tensorflow"][0]
    wrong = {
        **row,
        "latest_patch": "2.21.9",
        "requires_python": ">=3.9",
        "python": {**row["python"], "macos-x86_64": ["3.10"]},
        "glibc_min": "2.17",
        "gpu_package": {"linux": None, "windows": "tensorflow", "macos": None},
        "cuda_builds": [],
        "windows_native_gpu": True,
        "wrappers": {"windows-x86_64": "tensorflow-intel"},
        "cuda": "12.3",
        "cudnn": "8.9",
        "compute_capabilities": {"sass": ["sm_80"], "ptx": []},
        "pins": {**row["pins"], "tf_keras": "<2.21"},
        "and_cuda": None,
        "known_gpu_failures": {"12.0": "fails"},
        "notes": ["anything"],
    }
    out = rm.diff_line(wrong, line_facts(cache_dir, "2.21"))
    fields = {re.split(r"[ .]", line.split(": ")[1])[0] for line in out}
    checked = {field.split(".")[0] for field in rm.CHECKED_FIELDS}
    assert fields == checked
    assert {line.split(": ")[1] for line in out} >= {"gpu_package.linux", "gpu_package.windows"}
    assert not {"known_gpu_failures", "notes"} & fields


# --- the command line ----------------------------------------------------------------------


def test_main_check_exit_codes(
    cache_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    matrix = tmp_path / "compat_matrix.yaml"
    args = ["check", "--offline", "--cache-dir", str(cache_dir), "--matrix", str(matrix)]
    matrix.write_text(MATRIX_2_21 + MATRIX_2_12, encoding="utf-8")
    assert rm.main([*args, "--lines", "2.21,2.12"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 lines agree with the wheels (fields: latest_patch, ")
    assert "cuda_builds, windows_native_gpu," in out
    assert out.endswith(
        "not checked: gpu_package.macos, sources, notes, known_gpu_failures, cuda_install.method, "
        "cuda_install.wheels_unfound, tensorflow_gpu_release, undeclared_ranges, "
        "tolerated_ranges, keras_in_step, tf_trt, xla_by_default, numpy_abi, onednn_opts\n"
    )
    assert out.count("\n") == 1
    matrix.write_text(MATRIX_2_21.replace('glibc_min: "2.27"', 'glibc_min: "2.17"'), "utf-8")
    assert rm.main([*args, "--lines", "2.21"]) == 1
    assert capsys.readouterr().out == '2.21: glibc_min: matrix "2.17", wheels "2.27"\n'


def test_main_dump_is_sorted_json_newest_first(
    cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = rm.main(["dump", "--offline", "--cache-dir", str(cache_dir), "--lines", "1.15,2.21"])
    out = capsys.readouterr().out
    assert code == 0
    document = json.loads(out)
    assert [line["line"] for line in document["lines"]] == ["2.21", "1.15"]
    assert out == json.dumps(document, indent=1, sort_keys=True) + "\n"
    assert document["dists"]["tensorflow-intel"]["latest_by_line"] == {
        "2.18": "2.18.0",
        "2.12": "2.12.1",
    }
    assert document["lines"][0]["dists_with_line"]["tf-keras"] == "2.21.0"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(
            ["check", "--matrix", "no-such-matrix.yaml"], "cannot read", id="missing-matrix"
        ),
        pytest.param(["dump", "--offline", "--lines", "2.21"], "not in the cache", id="offline"),
        pytest.param(["dump", "--lines", "9.9"], "no final tensorflow release", id="bad-line"),
    ],
)
def test_main_usage_errors(
    args: list[str],
    message: str,
    cache_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cache = cache_dir if "9.9" in args else tmp_path / "empty"
    assert rm.main([*args, "--offline", "--cache-dir", str(cache)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


def test_main_network_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as sock:  # a port nothing listens on once closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/simple/"
    assert rm.main(["dump", "--index-url", url, "--timeout", "5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"refresh_matrix: network error: GET {url}tensorflow/: ")
    assert err.count("\n") == 1


# --- zip over HTTP range requests ----------------------------------------------------------


class RangeHandler(BaseHTTPRequestHandler):
    """Serves the server's ``payload`` at /wheel.whl, honouring single byte ranges."""

    server: RangeServer

    def do_GET(self) -> None:
        """Answer 206 for a Range (suffix or start-end), 200 without one or when told to."""
        if self.path != "/wheel.whl":
            self.send_error(404)
            return
        data = self.server.payload
        header = self.headers.get("Range")
        match = re.fullmatch(r"bytes=(\d*)-(\d*)", header or "")
        if match is None or self.server.ignore_range:
            self._send(200, data, {})
            return
        first, last = match.groups()
        if first == "":
            start, end = max(0, len(data) - int(last)), len(data) - 1
        else:
            start, end = int(first), min(len(data) - 1, int(last) if last else len(data) - 1)
        body = data[start : end + 1]
        self.server.served.append((start, end))
        self._send(206, body, {"Content-Range": f"bytes {start}-{end}/{len(data)}"})

    def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Keep the test output quiet."""


class RangeServer(ThreadingHTTPServer):
    """A local HTTP server holding one payload."""

    payload: bytes = b""
    ignore_range: bool = False
    served: list[tuple[int, int]]


METADATA_BYTES = b"Metadata-Version: 2.1\nName: tensorflow\nRequires-Dist: numpy>=1.26.0\n"
BUILD_INFO_BYTES = (
    b"import collections\nbuild_info = collections.OrderedDict([('cuda_version', '12.5.1')])\n"
)


def make_wheel(build_info_path: str) -> bytes:
    """A zip shaped like a wheel, with 1 MiB of incompressible filler before the members."""
    buffer = io.BytesIO()
    filler = random.Random(0).randbytes(1024 * 1024)
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("tensorflow/libfiller.so", filler, zipfile.ZIP_STORED)
        archive.writestr(build_info_path, BUILD_INFO_BYTES, zipfile.ZIP_DEFLATED)
        archive.writestr("tensorflow-2.21.0.dist-info/METADATA", METADATA_BYTES)
        archive.writestr("tensorflow-2.21.0.dist-info/RECORD", b"")
    return buffer.getvalue()


@pytest.fixture
def server() -> Iterator[RangeServer]:
    """A RangeServer on 127.0.0.1 running in a thread."""
    httpd = RangeServer(("127.0.0.1", 0), RangeHandler)
    httpd.served = []
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=10)


def url_of(httpd: RangeServer, path: str = "/wheel.whl") -> str:
    """The URL of a path on the server."""
    host, port = httpd.server_address[:2]
    return f"http://{host!s}:{port}{path}"


@pytest.mark.parametrize(
    "build_info_path",
    [
        pytest.param("tensorflow/python/platform/build_info.py", id="tensorflow"),
        pytest.param("tensorflow_core/python/platform/build_info.py", id="tensorflow-core-1.15"),
    ],
)
def test_read_members_over_range_requests(server: RangeServer, build_info_path: str) -> None:
    server.payload = make_wheel(build_info_path)
    found = rm.read_members(url_of(server), ["METADATA", "build_info.py"], timeout=10)
    assert found == {"METADATA": METADATA_BYTES, "build_info.py": BUILD_INFO_BYTES}
    fetched = sum(end - start + 1 for start, end in server.served)
    assert fetched < len(server.payload) // 4  # the filler never travels


def test_read_members_leaves_out_absent_members(server: RangeServer) -> None:
    server.payload = make_wheel("elsewhere/build_info.py")
    found = rm.read_members(url_of(server), ["METADATA", "build_info.py"], timeout=10)
    assert found == {"METADATA": METADATA_BYTES}


@pytest.mark.parametrize(
    ("offset", "size"),
    [
        pytest.param(0, 10, id="start"),
        pytest.param(1000, 5000, id="across-blocks"),
        pytest.param(-100, 100, id="tail-from-first-request"),
        pytest.param(-10, 1000, id="past-the-end"),
    ],
)
def test_range_file_reads_like_a_file(server: RangeServer, offset: int, size: int) -> None:
    server.payload = random.Random(1).randbytes(20_000)
    remote = rm.HttpRangeFile(url_of(server), timeout=10, block_size=1024)
    assert remote.size == 20_000
    remote.seek(offset, os.SEEK_SET if offset >= 0 else os.SEEK_END)
    start = offset % 20_000
    assert remote.read(size) == server.payload[start : start + size]
    assert remote.tell() == min(20_000, start + size)


def test_range_file_caches_blocks(server: RangeServer) -> None:
    server.payload = bytes(range(256)) * 100
    remote = rm.HttpRangeFile(url_of(server), timeout=10, block_size=1024)
    remote.seek(3000)
    remote.read(10)
    remote.seek(3050)
    remote.read(10)
    assert remote.requests == 2  # the tail, then one block serving both reads


def test_range_file_refuses_a_server_without_ranges(server: RangeServer) -> None:
    server.payload = b"x" * 100
    server.ignore_range = True
    with pytest.raises(rm.FetchError, match="ignored Range"):
        rm.HttpRangeFile(url_of(server), timeout=10)


def test_range_file_reports_http_errors(server: RangeServer) -> None:
    with pytest.raises(rm.FetchError, match="HTTP 404"):
        rm.HttpRangeFile(url_of(server, "/missing.whl"), timeout=10)


# --- pre-release lines and drafts ----------------------------------------------------------------


def test_latest_versions_take_a_pre_release_only_where_a_line_has_no_final() -> None:
    files = index("tensorflow")
    with_pre = rm.latest_versions(files, pre=True)
    assert str(with_pre["2.22"]) == "2.22.0rc0"
    # 2.21 has rc0, rc1 and a final: the final wins.
    assert {k: v for k, v in with_pre.items() if k != "2.22"} == rm.latest_finals(files)
    assert "2.22" not in rm.latest_versions(files, pre=False)


def pre_line_facts(cache: Path, line: str) -> dict[str, object]:
    """collect for one line with --pre, answered from the cache only."""
    pypi = rm.PyPI(cache_dir=cache, offline=True)
    lines, _ = rm.collect(pypi, [line], pre=True)
    result: dict[str, object] = lines[0]
    return result


def test_a_line_with_only_pre_releases_needs_pre(cache_dir: Path) -> None:
    pypi = rm.PyPI(cache_dir=cache_dir, offline=True)
    with pytest.raises(ValueError, match=r"no final tensorflow release \(try --pre\)"):
        rm.collect(pypi, ["2.22"])


def test_draft_of_2_22_reads_python_from_the_wheel_tags_and_cuda_from_the_extra(
    cache_dir: Path,
) -> None:
    facts = pre_line_facts(cache_dir, "2.22")
    entry = rm.draft_entry(facts)
    assert entry["latest_patch"] == "2.22.0rc0"
    # Wheels for CPython 3.10-3.14, though the METADATA's classifiers stop at 3.13.
    classifiers = (DATA / "metadata" / "tensorflow-2.22.0rc0-linux.METADATA").read_text("utf-8")
    assert "Python :: 3.14" not in classifiers and "Python :: 3.13" in classifiers
    assert entry["python"]["linux-x86_64"] == ["3.10", "3.11", "3.12", "3.13", "3.14"]
    # build_info no longer records CUDA, cuDNN or the architectures.
    assert (entry["cuda"], entry["cudnn"], entry["compute_capabilities"]) == ("12.5", "9.10", None)
    assert entry["sources"]["cuda"] == entry["sources"]["cudnn"] == "wheel-metadata"
    assert "compute_capabilities" not in entry["sources"]
    assert entry["and_cuda"]["nvidia-nvshmem-cu12"] == ">=3.2.5"
    assert entry["pins"]["keras"] is None
    assert any("keras-nightly" in note for note in entry["notes"])
    assert any("pre-release" in note for note in entry["notes"])


def test_a_drafted_row_is_a_valid_matrix_row_that_check_agrees_with(cache_dir: Path) -> None:
    import yaml

    from tfdoctor.matrix import DEFAULT_MATRIX, parse_matrix

    facts = pre_line_facts(cache_dir, "2.22")
    drafted = rm.render_entry(rm.draft_entry(facts))
    assert rm.diff_line(yaml.safe_load(drafted)[0], facts) == []
    # Pasted over the shipped 2.22 row, the matrix loads with it.
    text = DEFAULT_MATRIX.read_text(encoding="utf-8")
    head, rest = text.split("\ntensorflow:\n", 1)
    tail = rest.split('\n  - line: "2.21"\n', 1)[1]
    matrix = parse_matrix(f'{head}\ntensorflow:\n{drafted}  - line: "2.21"\n{tail}', "d.yaml")
    assert matrix.lines[0].pre_release and matrix.lines[0].cudnn == "9.10"


def test_draft_writes_the_fields_the_schema_marks_as_drafted(cache_dir: Path) -> None:
    from tfdoctor import matrix_schema

    entry = rm.draft_entry(pre_line_facts(cache_dir, "2.22"))
    # 2.22 has an and-cuda extra, so the draft says how its CUDA libraries are installed.
    assert set(entry) == set(matrix_schema.drafted_fields())
    assert set(matrix_schema.required(matrix_schema.LINE_FIELDS)) <= set(entry)
    assert set(entry["sources"]) <= set(matrix_schema.source_keys())


def test_check_pre_agrees_with_the_shipped_2_22_row(cache_dir: Path) -> None:
    import yaml

    from tfdoctor.matrix import DEFAULT_MATRIX

    rows = yaml.safe_load(DEFAULT_MATRIX.read_text(encoding="utf-8"))["tensorflow"]
    row = next(r for r in rows if r["line"] == "2.22")
    facts = pre_line_facts(cache_dir, "2.22")
    if row["latest_patch"] != facts["latest_patch"]:
        pytest.skip(f"the shipped row is at {row['latest_patch']}, past the recorded wheels")
    assert rm.diff_line(row, facts) == []
    wrong = dict(row, cuda="12.8")
    assert rm.diff_line(wrong, pre_line_facts(cache_dir, "2.22")) == [
        '2.22: cuda: matrix "12.8", wheels "12.5"'
    ]


@pytest.mark.parametrize("version", ["2.21.0", "2.22.0rc0"])
def test_the_windows_wheel_declares_and_cuda_without_a_platform_marker(version: str) -> None:
    # Why no fix suggests tensorflow[and-cuda] on native Windows: there the extra still pulls
    # the nvidia-* wheels, for a CPU build that never loads them.
    meta = metadata(f"tensorflow-{version}-windows")
    windows = rm._env("windows-x86_64", "3.11", "and-cuda")
    pulled = [
        r.name
        for r in rm._requirements(meta.requires_dist)
        if r.name.startswith("nvidia-") and rm._applies(r, windows)
    ]
    assert "nvidia-cudnn-cu12" in pulled and len(pulled) >= 12


def test_main_draft_prints_yaml_rows(cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    code = rm.main(
        ["draft", "--lines", "2.22", "--pre", "--offline", "--cache-dir", str(cache_dir)]
    )
    assert code == 0
    rows = yaml.safe_load(capsys.readouterr().out)
    assert [r["line"] for r in rows] == ["2.22"]


@pytest.mark.parametrize(
    ("tag", "any_arch", "matrix_key"),
    [
        ("win_amd64", "windows-x86_64", "windows-x86_64"),
        ("win32", "windows-x86", None),
        ("manylinux2014_aarch64", "linux-aarch64", "linux-aarch64"),
        ("musllinux_1_1_x86_64", "linux-x86_64", "linux-x86_64"),
        ("linux_armv7l", "linux-armv7l", None),
        ("macosx_10_9_intel", "macos-x86_64", "macos-x86_64"),
        ("macosx_10_15_universal2", "macos-universal2", None),
        ("any", "any", None),
        ("cygwin_x86_64", None, None),
    ],
)
def test_a_wheel_platform_tag_has_one_key_and_the_matrix_keeps_some(
    tag: str, any_arch: Optional[str], matrix_key: Optional[str]
) -> None:
    assert rm.wheel_platform(tag) == any_arch
    assert rm.platform_key(tag) == matrix_key
