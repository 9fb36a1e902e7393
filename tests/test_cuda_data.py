"""The shipped CUDA data (tfdoctor/data/cuda.yaml): invariants of the data, and a planted
violation of each rule answered in one line naming the file, the line and the field."""

from __future__ import annotations

import re

import pytest

from tests.planted import line_of, planted_error
from tfdoctor.cuda_layout import CUDA_DATA, CudaDataError, cuda_data, parse_cuda_data

TEXT = CUDA_DATA.read_text(encoding="utf-8")
DATA = cuda_data()


def _cited(text: str) -> set[str]:
    """Every source id the rows cite (``source: id`` or ``source: [a, b]``)."""
    ids: set[str] = set()
    for value in re.findall(r"source: (\[[^\]]*\]|[a-z0-9.-]+)", text):
        ids.update(v.strip() for v in value.strip("[]").split(","))
    return ids


def test_every_source_is_cited_and_every_citation_resolves() -> None:
    assert _cited(TEXT) == set(DATA.sources)
    assert all(s.url.startswith("https://") for s in DATA.sources.values())


def test_every_soname_row_names_the_libraries_that_follow_the_toolkit() -> None:
    fixed = {lib.name for lib in DATA.libraries if lib.soname is not None}
    # cuDNN's soname is its own major, not the toolkit's.
    following = {lib.name for lib in DATA.libraries} - fixed - {"cudnn"}
    for row in DATA.sonames:
        assert set(row.versions) == following, row.cuda_major
        assert all(set(table) <= following for table in row.minors.values())
    assert set(DATA.follow_toolkit_major) <= following


def test_every_library_directory_is_a_wheels_directory() -> None:
    directories = {w.directory for w in DATA.wheels}
    for lib in DATA.libraries:
        assert set(lib.wheel_dirs) <= directories, lib.name
    assert DATA.nvcc_dir in directories


def test_the_pairing_is_sorted_and_ends_below_the_newest() -> None:
    majors = [cuda for cuda, _ in DATA.cudnn_pairing]
    assert majors == sorted(majors)
    assert all(cudnn <= DATA.newest_cudnn_major for _, cudnn in DATA.cudnn_pairing)
    assert DATA.newest_cuda[0] >= majors[-1]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        pytest.param(
            "  - cuda_major: 12\n",
            "  - cuda_major: 12\n    colour: blue\n",
            "sonames[2].colour: unknown field",
            id="unknown-key",
        ),
        pytest.param(
            "    source: [cuda-configure, cuda-release-notes]\n",
            "    source: [cuda-configure, no-such-source]\n",
            "sonames[12].source: unknown source 'no-such-source'",
            id="unknown-source",
        ),
        pytest.param(
            "  - cuda_major: 12\n",
            "  - cuda_major: 11\n",
            "sonames[11].cuda_major: duplicate cuda_major",
            id="duplicate-major",
        ),
        pytest.param(
            'cudart: "12", cublas',
            'cudart: "12", cuBLAS',
            "sonames[12].versions.cuBLAS: unknown library",
            id="unknown-library",
        ),
        pytest.param(
            "dir: nccl, grouped: false, source: [tf-runpath, cuda-python-864]}\n",
            "dir: nccl, grouped: false}\n",
            "wheels[10].source: missing field",
            id="missing-source",
        ),
    ],
)
def test_a_planted_violation_is_one_line(old: str, new: str, message: str) -> None:
    line, error = planted_error(parse_cuda_data, CudaDataError, TEXT, old, new, "cuda.yaml")
    assert error.startswith(message), error
    # At the planted line, or the next one for a key added below it.
    assert line - line_of(TEXT, old) in (0, 1), error


def test_a_new_cuda_major_is_a_row_of_data() -> None:
    row = (
        "  - cuda_major: 14\n"
        '    versions: {cudart: "14", cublas: "14", cublasLt: "14", cufft: "13", '
        'cusparse: "13", cusolver: "13", curand: "10"}\n'
        "    source: cuda-release-notes\n"
    )
    text = TEXT.replace(
        "\n# A CUDA major newer than the table", f"{row}\n# A CUDA major newer than the table"
    )
    data = parse_cuda_data(text, "cuda.yaml")
    assert data.sonames[-1].cuda_major == 14
    assert data.sonames[-1].versions["cufft"] == "13"
