"""The shipped CUDA data (tfdoctor/data/cuda.yaml): invariants of the data, and a planted
violation of each rule answered in one line naming the file, the line and the field."""

from __future__ import annotations

import dataclasses
import re

import pytest

from tests.planted import line_of, planted_error
from tfdoctor.cuda_layout import CUDA_DATA, CudaData, CudaDataError, cuda_data, parse_cuda_data
from tfdoctor.yamldoc import DataSource

TEXT = CUDA_DATA.read_text(encoding="utf-8")
DATA = cuda_data()


def _cited(text: str) -> set[str]:
    """Every source id the rows cite (``source: id`` or ``source: [a, b]``)."""
    ids: set[str] = set()
    for value in re.findall(r"source: (\[[^\]]*\]|[a-z0-9.-]+)", text):
        ids.update(v.strip() for v in value.strip("[]").split(","))
    return ids


def citation_gaps(text: str, data: CudaData) -> list[str]:
    """Sources nothing cites, citations of no source, and sources that are not https."""
    cited, defined = _cited(text), set(data.sources)
    gaps = [f"{sid} is cited by nothing" for sid in sorted(defined - cited)]
    gaps += [f"{sid} is no source" for sid in sorted(cited - defined)]
    return gaps + [
        f"{s.id} is not https" for s in data.sources.values() if not s.url.startswith("https://")
    ]


def soname_faults(data: CudaData) -> list[str]:
    """Soname rows that do not name exactly the libraries following the toolkit (cuDNN's
    soname is its own major, not the toolkit's), and follow_toolkit_major names outside them."""
    fixed = {lib.name for lib in data.libraries if lib.soname is not None}
    following = {lib.name for lib in data.libraries} - fixed - {"cudnn"}
    faults = [f"CUDA {row.cuda_major}" for row in data.sonames if set(row.versions) != following]
    faults += [
        f"CUDA {row.cuda_major}.{minor}"
        for row in data.sonames
        for minor, table in row.minors.items()
        if not set(table) <= following
    ]
    return faults + sorted(set(data.follow_toolkit_major) - following)


def directory_faults(data: CudaData) -> list[str]:
    """Library directories, and nvcc's, that no wheel ships."""
    directories = {w.directory for w in data.wheels}
    faults = [
        f"{lib.name}: {d}" for lib in data.libraries for d in lib.wheel_dirs if d not in directories
    ]
    return faults + ([] if data.nvcc_dir in directories else [f"nvcc: {data.nvcc_dir}"])


def pairing_faults(data: CudaData) -> list[str]:
    """A cuDNN pairing out of order, naming a cuDNN newer than the newest, or a CUDA newer
    than the newest."""
    majors = [cuda for cuda, _ in data.cudnn_pairing]
    faults = [] if majors == sorted(majors) else ["not sorted"]
    faults += [f"cuDNN {n}" for _, n in data.cudnn_pairing if n > data.newest_cudnn_major]
    return faults + ([] if data.newest_cuda[0] >= max(majors) else ["CUDA above the newest"])


def test_every_source_is_cited_and_every_citation_resolves() -> None:
    assert citation_gaps(TEXT, DATA) == []
    # Planted: a citation of no source; a source nothing cites.
    assert citation_gaps(TEXT + "    source: ghost\n", DATA) == ["ghost is no source"]
    extra = DataSource("ghost", "Ghost", "https://example.org/ghost")
    assert citation_gaps(
        TEXT, dataclasses.replace(DATA, sources={**DATA.sources, "ghost": extra})
    ) == ["ghost is cited by nothing"]


def test_every_soname_row_names_the_libraries_that_follow_the_toolkit() -> None:
    assert soname_faults(DATA) == []
    # Planted: a row that leaves one library out.
    row = DATA.sonames[-1]
    fewer = dataclasses.replace(row, versions=dict(list(row.versions.items())[1:]))
    assert soname_faults(dataclasses.replace(DATA, sonames=(*DATA.sonames[:-1], fewer))) == [
        f"CUDA {row.cuda_major}"
    ]


def test_every_library_directory_is_a_wheels_directory() -> None:
    assert directory_faults(DATA) == []
    # Planted: a library in a directory no wheel ships.
    lib = dataclasses.replace(DATA.libraries[0], wheel_dirs=("ghost",))
    planted = dataclasses.replace(DATA, libraries=(lib, *DATA.libraries[1:]))
    assert directory_faults(planted) == [f"{lib.name}: ghost"]


def test_the_pairing_is_sorted_and_ends_below_the_newest() -> None:
    assert pairing_faults(DATA) == []
    # Planted: two rows out of order; a cuDNN newer than the newest.
    cuda, cudnn = DATA.cudnn_pairing[0]
    reverse = dataclasses.replace(DATA, cudnn_pairing=((cuda, cudnn), (cuda - 1, cudnn)))
    assert pairing_faults(reverse) == ["not sorted"]
    newer = dataclasses.replace(DATA, cudnn_pairing=((cuda, DATA.newest_cudnn_major + 1),))
    assert pairing_faults(newer) == [f"cuDNN {DATA.newest_cudnn_major + 1}"]


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
