"""The conda probe: package records read from the head of ``conda-meta/*.json``."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Optional

import pytest

from tfdoctor.facts import CondaPackage
from tfdoctor.probes.conda import (
    parse_channel,
    parse_conda_record,
    parse_record_name,
    probe_conda,
)

DATA = Path(__file__).parent / "data" / "conda"

RECORDS = {
    "cudnn-8.9.2.26-cuda11_0.json": CondaPackage("cudnn", "8.9.2.26", "cuda11_0", "conda-forge"),
    "cudatoolkit-11.8.0-h6a678d5_0.json": CondaPackage(
        "cudatoolkit", "11.8.0", "h6a678d5_0", "pkgs/main"
    ),
    "cuda-version-12.9-h4f385c5_3.json": CondaPackage(
        "cuda-version", "12.9", "h4f385c5_3", "conda-forge"
    ),
    "libcublas-12.1.0.26-0.json": CondaPackage(
        "libcublas", "12.1.0.26", "0", "nvidia/label/cuda-12.1.0"
    ),
}


@pytest.mark.parametrize("filename", sorted(RECORDS), ids=sorted(RECORDS))
def test_whole_record(filename: str) -> None:
    text = (DATA / filename).read_text(encoding="utf-8")
    assert parse_conda_record(filename, text, complete=True) == RECORDS[filename]


@pytest.mark.parametrize("filename", sorted(RECORDS), ids=sorted(RECORDS))
def test_record_cut_after_its_channel(filename: str) -> None:
    # A large record is read only up to its head: what the head lacks comes from the name.
    text = (DATA / filename).read_text(encoding="utf-8")
    head = text[: text.index('"channel"') + 200]
    assert parse_conda_record(filename, head, complete=False) == RECORDS[filename]


def test_record_cut_before_its_channel_keeps_the_name() -> None:
    head = '{\n  "build": "cuda11_0",\n  "build_number": 0,\n  "cha'
    pkg = parse_conda_record("cudnn-8.9.2.26-cuda11_0.json", head, complete=False)
    assert pkg == CondaPackage("cudnn", "8.9.2.26", "cuda11_0", "")


def test_nested_keys_are_not_taken_for_the_record_s() -> None:
    head = '{\n  "link": {\n    "name": "other",\n    "version": "0"\n  },\n  "files": ['
    pkg = parse_conda_record("numpy-1.26.4-py311h64a7726_0.json", head, complete=False)
    assert pkg == CondaPackage("numpy", "1.26.4", "py311h64a7726_0", "")


def test_garbage_after_the_head_is_never_read(tmp_path: Path) -> None:
    meta = tmp_path / "conda-meta"
    meta.mkdir()
    head = (DATA / "cudatoolkit-11.8.0-h6a678d5_0.json").read_text(encoding="utf-8")[:600]
    (meta / "cudatoolkit-11.8.0-h6a678d5_0.json").write_bytes(head.encode() + b"\xff\x00" * 100_000)
    facts = probe_conda(str(tmp_path), head_bytes=1024)
    assert facts is not None and facts.error is None
    assert facts.packages == (RECORDS["cudatoolkit-11.8.0-h6a678d5_0.json"],)


@pytest.mark.parametrize(
    ("channel", "build", "expected"),
    [
        ("https://conda.anaconda.org/conda-forge/linux-64", "h0", "conda-forge"),
        ("https://conda.anaconda.org/conda-forge/", "h0", "conda-forge"),
        ("https://conda.anaconda.org/conda-forge/noarch", "h0", "conda-forge"),
        ("https://repo.anaconda.com/pkgs/main/linux-64", "h0", "pkgs/main"),
        ("https://repo.anaconda.com/pkgs/r/osx-arm64", "h0", "pkgs/r"),
        (
            "https://conda.anaconda.org/nvidia/label/cuda-11.8.0/linux-64",
            "0",
            "nvidia/label/cuda-11.8.0",
        ),
        (
            "https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/conda-forge/linux-64",
            "h0",
            "conda-forge",
        ),
        ("https://mirrors.tuna.tsinghua.edu.cn/anaconda/pkgs/main/linux-64", "h0", "pkgs/main"),
        ("conda-forge", "h0", "conda-forge"),
        ("pkgs/main", "h0", "pkgs/main"),
        ("https://conda.anaconda.org/pypi", "pypi_0", "pypi"),
        ("", "pypi_0", "pypi"),
        ("", "h0", ""),
    ],
    ids=[
        "conda-forge-subdir",
        "conda-forge-trailing-slash",
        "conda-forge-noarch",
        "defaults-main",
        "defaults-r",
        "nvidia-label",
        "mirror-cloud",
        "mirror-pkgs",
        "bare-name",
        "bare-defaults",
        "pypi-url",
        "pypi-build",
        "unknown",
    ],
)
def test_parse_channel(channel: str, build: str, expected: str) -> None:
    assert parse_channel(channel, build) == expected


@pytest.mark.parametrize(
    ("filename", "expected"),
    [
        ("cuda-nvcc-12.4.131-0.json", ("cuda-nvcc", "12.4.131", "0")),
        ("python_abi-3.11-4_cp311.json", ("python_abi", "3.11", "4_cp311")),
        ("history", None),
        ("broken-.json", None),
    ],
    ids=["dashes-in-name", "underscore", "not-a-record", "empty-part"],
)
def test_parse_record_name(filename: str, expected: Optional[tuple[str, str, str]]) -> None:
    assert parse_record_name(filename) == expected


def test_probe_reads_every_record_sorted(tmp_path: Path) -> None:
    meta = tmp_path / "conda-meta"
    meta.mkdir()
    for name in RECORDS:
        shutil.copy(DATA / name, meta / name)
    (meta / "history").write_text("==> 2024-01-01 00:00:00 <==\n")
    (meta / "not-json-1-0.json").write_text("{ not json")
    facts = probe_conda(str(tmp_path))
    assert facts is not None and facts.error is None
    assert facts.prefix == str(tmp_path)
    expected = sorted(
        [*RECORDS.values(), CondaPackage("not-json", "1", "0", "")], key=lambda p: p.name
    )
    assert facts.packages == tuple(expected)
    assert facts.package("cudnn") == RECORDS["cudnn-8.9.2.26-cuda11_0.json"]


def test_not_a_conda_prefix(tmp_path: Path) -> None:
    assert probe_conda(str(tmp_path)) is None
    assert probe_conda(None) is None


def test_a_record_nested_past_any_shape_is_read_like_one_cut_short() -> None:
    # json.loads alone raises RecursionError on it; the probe must not raise at all.
    text = '{\n  "name": "numpy",\n  "version": "1.26.4",\n  "x": ' + "[" * 4000 + "]" * 4000 + "}"
    pkg = parse_conda_record("numpy-1.26.4-py311h64a7726_0.json", text, complete=True)
    assert pkg == CondaPackage("numpy", "1.26.4", "py311h64a7726_0", "")
