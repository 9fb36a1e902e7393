"""conda's package list read once: one reader of ``conda list`` rows, one list of conda's
TensorFlow packages, for what conda installed and for which TensorFlow build it shows."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.causes import conda as conda_causes
from tfdoctor.evidence.conda import (
    CONDA_TENSORFLOW,
    CondaRow,
    conda_installed,
    list_row_at,
    listed_rows,
)
from tfdoctor.evidence.packages import read_conda_rows, tf_installer

_HEADER = "# packages in environment at /home/me/miniconda3/envs/tf:\n#\n"
_COLUMNS = "# Name                    Version                   Build  Channel\n"


@pytest.mark.parametrize(
    ("line", "row"),
    [
        pytest.param(
            "tensorflow-base           2.4.1           gpu_py38h29c2da4_0",
            CondaRow("tensorflow-base", "2.4.1", "gpu_py38h29c2da4_0", ""),
            id="defaults-no-channel",
        ),
        pytest.param(
            "tensorflow                2.15.0          cuda120py311h47b2d34_3    conda-forge",
            CondaRow("tensorflow", "2.15.0", "cuda120py311h47b2d34_3", "conda-forge"),
            id="conda-forge",
        ),
        pytest.param(
            "tensorflow                2.15.0                   pypi_0    pypi",
            CondaRow("tensorflow", "2.15.0", "pypi_0", "pypi"),
            id="pip",
        ),
        pytest.param(
            "jaxlib                    0.4.23          cuda120py311h5a49573_200    conda-forge\r",
            CondaRow("jaxlib", "0.4.23", "cuda120py311h5a49573_200", "conda-forge"),
            id="crlf",
        ),
        pytest.param("# Name   Version   Build  Channel", None, id="columns"),
        pytest.param("tensorflow 2.15.0 pypi_0 pypi extra", None, id="five-columns"),
        pytest.param("2024-03-10 18:42:51.339121: I tensorflow/core/x.cc:1] ok", None, id="log"),
    ],
)
def test_a_conda_list_line_is_read_as_its_columns(line: str, row: Optional[CondaRow]) -> None:
    text = f"noise\n{line}\nnumpy 1.26.4 py311h64a7726_0\n"
    assert list_row_at(text, len("noise\n")) == row


def test_rows_count_as_installed_only_under_conda_lists_header() -> None:
    rows = (
        "tensorflow                2.15.0          cuda120py311h47b2d34_3    conda-forge\n"
        "jax                       0.4.23             pyhd8ed1ab_0    conda-forge\n"
        "jaxlib                    0.4.23                   pypi_0    pypi\n"
        "tensorflow-gpu            2.4.1                h30adc30_0\n"
    )
    asked = frozenset({"jax", "jaxlib", *CONDA_TENSORFLOW})
    assert conda_installed(_HEADER + _COLUMNS + rows, asked) == {
        "tensorflow",
        "jax",
        "tensorflow-gpu",
    }
    # Only the names asked for.
    assert conda_installed(_HEADER + rows, frozenset({"jax"})) == {"jax"}
    # The same columns without the header (conda search's): what a channel offers.
    assert conda_installed(_COLUMNS + rows, asked) == frozenset()
    assert listed_rows(_COLUMNS + rows) == []
    # Rows before the header are not its rows.
    assert conda_installed(rows + _HEADER, asked) == frozenset()
    # A file in conda's package cache says conda installed the package.
    cached = '  File "/opt/conda/pkgs/jaxlib-0.4.23-cuda120py311h5a49573_200/lib/x.py"\n'
    assert conda_installed(cached, asked) == {"jaxlib"}


def test_tensorflow_rows_are_read_by_the_same_reader_with_or_without_the_header() -> None:
    rows = (
        "tensorflow                2.15.0          cuda120py311h47b2d34_3    conda-forge\n"
        "tensorflow-estimator      2.15.0             pyhd8ed1ab_0    conda-forge\n"
        "tensorflow-base           2.15.0          cuda120py311h_0\n"
        "tensorflow-gpu            2.4.1                 h30adc30\n"  # no build number
        "tensorflow-cpu            2.16.0rc0         cpu_py311h_0\n"  # a pre-release
        "tensorflow_gpu            2.4.1                gpu_py38h_0\n"  # not conda's name
    )
    read = read_conda_rows([rows])
    assert [(r.name, r.kind) for r in read] == [("tensorflow", "gpu"), ("tensorflow-base", "gpu")]
    # The header changes nothing here; the rows are those the shared reader gives.
    assert read_conda_rows([_HEADER + rows]) == read
    assert [r for r in listed_rows(_HEADER + rows) if r in read] == read


def test_conda_tensorflow_has_one_home_that_the_machine_checks_and_causes_share() -> None:
    # The package that holds the files comes first: the machine reports it before its
    # metapackages.
    assert CONDA_TENSORFLOW[0] == "tensorflow-base"
    assert set(CONDA_TENSORFLOW) <= conda_causes._CONDA_TF_PACKAGES
    for name in CONDA_TENSORFLOW:
        assert tf_installer((), {name}) == "conda"
    assert tf_installer((), {"tensorflow-estimator", "jax"}) is None


def test_conda_45s_pip_rows_read_as_pips_and_protobuf_copies_are_all_kept() -> None:
    rows = (
        "protobuf                  3.3.2                    py27_0    conda-forge\n"
        "protobuf                  3.4.0                     <pip>\n"
        "tensorflow                1.3.0                     <pip>\n"
    )
    assert [(r.name, r.version, r.channel) for r in read_conda_rows([rows])] == [
        ("tensorflow", "1.3.0", "pypi"),
        ("protobuf", "3.3.2", "conda-forge"),
        ("protobuf", "3.4.0", "pypi"),
    ]
    assert list_row_at("numpy 1.13.1 <pip> extra\n", 0) is None
