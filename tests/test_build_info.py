"""TensorFlow's build_info.py read as a file: where it is, its shapes, and the versions in it."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest

from tests.test_probe_tensorflow import BUILD_INFO_2_2, BUILD_INFO_2_21
from tfdoctor.probes.build_info import (
    BuildVersions,
    find_build_info,
    parse_build_info,
    parse_cuda_version,
    parse_cudnn_major,
    read_build_info,
    tensorflow_dirs,
    versions_from_build_info,
)

# The dict-literal shape of the Windows tensorflow-gpu 2.3 wheels (license header cut).
BUILD_INFO_2_3_WINDOWS = '''\
"""Auto-generated module providing information about the build."""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

build_info = {'cuda_version': '64_101', 'cudnn_version': '64_7', 'cuda_compute_capabilities': ['sm_35', 'sm_37', 'sm_52', 'sm_60', 'sm_61', 'compute_70'], 'is_rocm_build': False, 'is_cuda_build': True, 'msvcp_dll_names': 'msvcp140.dll,msvcp140_1.dll', 'nvcuda_dll_name': 'nvcuda.dll', 'cudart_dll_name': 'cudart64_101.dll', 'cudnn_dll_name': 'cudnn64_7.dll'}
'''  # noqa: E501 - one line, as generated


# --- the file's shapes ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            BUILD_INFO_2_21,
            {
                "cpu_compiler": "clang",
                "cuda_compute_capabilities": ["sm_60", "sm_70", "sm_80", "sm_89", "compute_90"],
                "cuda_version": "12.5.1",
                "cudnn_version": "9",
                "is_cuda_build": True,
                "is_rocm_build": False,
                "is_tensorrt_build": False,
            },
            id="ordered-dict-tf2.21",
        ),
        pytest.param(
            BUILD_INFO_2_3_WINDOWS,
            {
                "cuda_version": "64_101",
                "cudnn_version": "64_7",
                "cuda_compute_capabilities": [
                    "sm_35",
                    "sm_37",
                    "sm_52",
                    "sm_60",
                    "sm_61",
                    "compute_70",
                ],
                "is_rocm_build": False,
                "is_cuda_build": True,
                "msvcp_dll_names": "msvcp140.dll,msvcp140_1.dll",
                "nvcuda_dll_name": "nvcuda.dll",
                "cudart_dll_name": "cudart64_101.dll",
                "cudnn_dll_name": "cudnn64_7.dll",
            },
            id="dict-literal-windows-tf2.3",
        ),
        pytest.param(
            BUILD_INFO_2_2,
            {
                "is_rocm_build": False,
                "is_cuda_build": True,
                "cuda_version_number": "10.1",
                "cudnn_version_number": "7",
            },
            id="module-constants-tf2.2",
        ),
        pytest.param(
            "import os\nbuild_info = dict(os.environ)\nis_cuda_build = os.name == 'posix'\n",
            {},
            id="not-literals",
        ),
        pytest.param(
            "build_info: dict[str, object] = {'cuda_version': '12.3'}\n"
            "cudnn_version_number: str = '8'\n",
            {"cuda_version": "12.3", "cudnn_version_number": "8"},
            id="annotated-assignments",
        ),
        pytest.param(
            "build_info = dict([('cuda_version', '11.8')], is_cuda_build=True)\n",
            {"cuda_version": "11.8", "is_cuda_build": True},
            id="dict-call-with-keywords",
        ),
        pytest.param(
            "build_info = collections.OrderedDict((('cudnn_version', '8'),))\n",
            {"cudnn_version": "8"},
            id="tuple-of-pairs",
        ),
        pytest.param(
            "cuda_version = '10.0'\nbuild_info = {'cuda_version': '10.1'}\n"
            "cuda_version = '9.0'\nx = y = 1\nx = 2\n",
            {"cuda_version": "10.1", "x": 2, "y": 1},
            id="mapping-wins-then-last-assignment",
        ),
        pytest.param(
            "build_info = collections.OrderedDict(['cuda', 'bad'])\ncuda_version = '12'\n",
            {"cuda_version": "12"},
            id="not-pairs",
        ),
    ],
)
def test_parse_build_info(source: str, expected: dict[str, object]) -> None:
    assert parse_build_info(source) == expected


# --- the versions in it --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            BUILD_INFO_2_21,
            BuildVersions(True, False, "12.5.1", "9", 12, 5, 9),
            id="tf2.21-cuda12.5.1",
        ),
        pytest.param(
            BUILD_INFO_2_3_WINDOWS,
            BuildVersions(True, False, "64_101", "64_7", 10, 1, 7),
            id="windows-tf2.3",
        ),
        pytest.param(
            BUILD_INFO_2_2,
            BuildVersions(True, False, "10.1", "7", 10, 1, 7),
            id="tf2.2-module-constants",
        ),
    ],
)
def test_versions_from_recorded_files(source: str, expected: BuildVersions) -> None:
    assert versions_from_build_info(parse_build_info(source)) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param(
            # tf.sysconfig.get_build_info() of some builds, and facts saved as text.
            {"is_cuda_build": "True", "is_rocm_build": "False", "cuda_version": "12.2"},
            BuildVersions(True, False, "12.2", None, 12, 2, None),
            id="flags-as-strings",
        ),
        pytest.param(
            {"is_cuda_build": False, "is_rocm_build": False},
            BuildVersions(False, False, None, None, None, None, None),
            id="cpu-build",
        ),
        pytest.param(
            {"cuda_version": "", "cuda_version_number": "11.0", "cudnn_version": 8},
            BuildVersions(None, None, "11.0", "8", 11, 0, 8),
            id="empty-key-falls-through-and-int-cudnn",
        ),
        pytest.param({}, BuildVersions(None, None, None, None, None, None, None), id="empty"),
    ],
)
def test_versions_from_build_info(raw: dict[str, object], expected: BuildVersions) -> None:
    assert versions_from_build_info(raw) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("12.5.1", (12, 5), id="dotted"),
        pytest.param("12", (12, 0), id="major-only"),
        pytest.param("64_112", (11, 2), id="windows"),
        pytest.param("", None, id="empty"),
        pytest.param(12.5, None, id="not-text"),
    ],
)
def test_parse_cuda_version(value: object, expected: Optional[tuple[int, int]]) -> None:
    assert parse_cuda_version(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("9", 9, id="major"),
        pytest.param("8.9", 8, id="dotted"),
        pytest.param("64_8", 8, id="windows"),
        pytest.param(True, None, id="bool"),
        pytest.param("unknown", None, id="garbage"),
    ],
)
def test_parse_cudnn_major(value: object, expected: Optional[int]) -> None:
    assert parse_cudnn_major(value) == expected


# --- where it is ---------------------------------------------------------------------------


def _package(site: Path, regular: bool, build_info: Optional[str]) -> Path:
    package = site / "tensorflow"
    (package / "python" / "platform").mkdir(parents=True)
    if regular:
        (package / "__init__.py").write_text("", encoding="utf-8")
    if build_info is not None:
        path = package / "python" / "platform" / "build_info.py"
        path.write_text(build_info, encoding="utf-8")
    return package


def test_a_regular_package_later_on_the_path_wins_over_a_leftover(tmp_path: Path) -> None:
    # A directory without __init__.py left by an uninstall, first on the path, still holding
    # an older build_info.py: import skips it for the regular package (importlib's PathFinder).
    _package(tmp_path / "a", regular=False, build_info=BUILD_INFO_2_2)
    real = _package(tmp_path / "b", regular=True, build_info=BUILD_INFO_2_21)
    sites = [str(tmp_path / "a"), str(tmp_path / "b")]

    assert tensorflow_dirs(sites) == (real,)
    assert find_build_info(sites) == real / "python" / "platform" / "build_info.py"
    info = read_build_info(sites)
    assert info is not None and info["cuda_version"] == "12.5.1"


def test_only_the_imported_package_counts(tmp_path: Path) -> None:
    _package(tmp_path / "a", regular=True, build_info=None)
    _package(tmp_path / "b", regular=True, build_info=BUILD_INFO_2_21)
    sites = [str(tmp_path / "a"), str(tmp_path / "b")]

    assert find_build_info(sites) is None
    assert read_build_info(sites) is None


def test_namespace_portions_are_searched_in_order(tmp_path: Path) -> None:
    first = _package(tmp_path / "a", regular=False, build_info=None)
    second = _package(tmp_path / "b", regular=False, build_info=BUILD_INFO_2_2)
    sites = [str(tmp_path / "a"), str(tmp_path / "missing"), str(tmp_path / "b")]

    assert tensorflow_dirs(sites) == (first, second)
    assert find_build_info(sites) == second / "python" / "platform" / "build_info.py"


def test_no_tensorflow_and_an_unreadable_file(tmp_path: Path) -> None:
    assert tensorflow_dirs([str(tmp_path)]) == ()
    assert read_build_info([str(tmp_path)]) is None
    _package(tmp_path, regular=True, build_info="build_info = {\n")
    assert read_build_info([str(tmp_path)]) is None


@pytest.mark.parametrize(
    "source",
    [
        # Deeper than any CPython's parser takes (3.13's takes 5,000 levels of this).
        pytest.param("build_info = {'x': a" + ".b" * 50_000 + "}\n", id="deep-expression"),
        pytest.param("x = 1\n" * 1_400_000, id="over-8-MiB"),
    ],
)
def test_a_hostile_build_info_is_unread_not_a_crash(tmp_path: Path, source: str) -> None:
    # Python 3.11 and later raise RecursionError on the deep one (3.9 crashes); neither is parsed.
    _package(tmp_path, regular=True, build_info=source)
    assert read_build_info([str(tmp_path)]) is None
