"""Which distribution pip collected a package for, read once from pip's "Collecting X (from
Y)" progress and the file it chose for each (operations/prepare.py's "Collecting %s",
network/download.py's "Downloading %s"): the hosted runtimes name the package that brought
TensorFlow in, and a failed source build the package that required it."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.evidence.pip import Requirer, collected_requirer, read_collected, read_source_builds


def _collecting(name: str, spec: str, file: str, origin: str = "") -> str:
    """pip's two lines for one requirement: what it collected, then the file it chose."""
    source = f" (from {origin})" if origin else ""
    return f"Collecting {name}{spec}{source}\n  Downloading {file} (1.0 MB)\n"


_PINNED = _collecting("sleap", "==1.1.5", "sleap-1.1.5-py3-none-any.whl")
_BY_NAME = _collecting("sleap", "", "sleap-1.1.5-py3-none-any.whl")
_TF = _collecting(
    "tensorflow", "==2.6.0", "tensorflow-2.6.0-cp38-cp38-manylinux2010_x86_64.whl", "sleap==1.1.5"
)


@pytest.mark.parametrize(
    ("log", "dist", "expected"),
    [
        pytest.param(_PINNED + _TF, "tensorflow", Requirer("sleap", "1.1.5", ""), id="pinned"),
        pytest.param(
            _BY_NAME + _TF, "tensorflow", Requirer("sleap", "1.1.5", "1.1.5"), id="by-name-alone"
        ),
        pytest.param(_TF, "tensorflow", Requirer("sleap", "", ""), id="requirer-not-collected"),
        pytest.param(
            _collecting("sleap", "", "sleap-1.1.5-py3-none-any.whl", "deeplabcut")
            + _TF.replace("sleap==1.1.5", "sleap"),
            "tensorflow",
            Requirer("sleap", "1.1.5", ""),
            id="requirer-itself-required",
        ),
        pytest.param(_PINNED + _TF, "TensorFlow", Requirer("sleap", "1.1.5", ""), id="any-case"),
        pytest.param(_PINNED, "sleap", None, id="asked-for-by-the-user"),
        pytest.param(_PINNED + _TF, "numpy", None, id="not-collected"),
    ],
)
def test_the_requirer_and_its_releases_are_read(
    log: str, dist: str, expected: Optional[Requirer]
) -> None:
    assert collected_requirer(read_collected(log), dist) == expected


def test_a_failed_source_build_names_the_package_it_was_collected_for() -> None:
    log = (
        _BY_NAME
        + _collecting("pycocotools", "", "pycocotools-2.0.tar.gz", "sleap")
        + "ERROR: Failed building wheel for pycocotools\n"
    )
    (build,) = read_source_builds([log])
    assert (build.dist, build.required_by, build.requirer_chosen) == (
        "pycocotools",
        "sleap",
        "1.1.5",
    )
