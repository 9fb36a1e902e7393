"""The companion table's rows reach explain: a pasted listing's release of a companion, named
after TensorFlow or not, beside a TensorFlow its release does not declare, is a mismatch whose
fix names the release of the companion that does; the listing is read for every package the
table holds, not a list of names kept beside it."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text
from tfdoctor.evidence.packages import read_listed_versions
from tfdoctor.explain.scanning import _companion_names
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import load_companions
from tfdoctor.modules import modules

#: A program's end that no other reading explains: the listing alone is the evidence.
_FAILED = (
    "$ python train.py\n"
    "Traceback (most recent call last):\n"
    '  File "train.py", line 2, in <module>\n'
    '    raise RuntimeError("the pipeline stopped")\n'
    "RuntimeError: the pipeline stopped\n"
)


def _listing(*rows: tuple[str, str]) -> str:
    """``pip list``'s output holding ``rows`` (name, version)."""
    head = "$ pip list\nPackage                 Version\n----------------------- --------\n"
    return head + "".join(f"{name:<23} {version}\n" for name, version in rows) + "\n"


def _mismatch(text: str) -> Finding:
    found = [
        f
        for f in explained(text).findings
        if f.cause == "companion-mismatch" and f.severity.rank >= Severity.WARNING.rank
    ]
    assert found, [f"{f.id}:{f.severity}" for f in explained(text).findings]
    return found[0]


def test_the_listing_reads_every_package_the_table_pairs_with_tensorflow() -> None:
    table = load_companions()
    names = set(_companion_names())
    assert {*table.companions, *table.built_on} <= names
    # And the distributions of the module table's rows that date a module's addition (Keras 3's
    # torch backend imports torch._dynamo, which torch 2.0 added): their release in a listing
    # says whether the module is there. Nothing else.
    added = {row.dist for row in modules().added_to_dist.values()}
    assert "torch" in added
    assert names == {*table.companions, *table.built_on} | added
    # Written as pip lists it or with underscores, as hand-made lists do.
    listed = read_listed_versions("tfx-bsl   0.15.3\ndm_sonnet 1.36\n", ("dm-sonnet", "tfx-bsl"))
    assert listed == {"tfx-bsl": "0.15.3", "dm-sonnet": "1.36"}
    # Not named: not read (a name alone is no companion).
    assert "tfx-bsl" not in read_listed_versions("tfx-bsl   0.15.3\ntensorflow 2.3.0\n")


#: (TensorFlow installed, the companion, its release installed, the release the fix names).
_OFF_TABLE = (
    # tfx-bsl 0.15.x declares tensorflow>=1.15,<2.2; 0.26.1 is the newest that admits 2.3.
    ("2.3.0", "tfx-bsl", "0.15.3", "tfx-bsl==0.26.1"),
    # tensorflow-federated 0.19 pins tensorflow~=2.5.0; 0.17 pins ~=2.3.0.
    ("2.3.0", "tensorflow-federated", "0.19.0", "tensorflow-federated==0.17.*"),
    # tensorflow-transform 1.10 declares <2.10; 1.11 is the release for 2.10.
    ("2.10.1", "tensorflow-transform", "1.10.0", "tensorflow-transform==1.11.*"),
    # Reverb 0.7 is built against TensorFlow 2.8; 0.11 against 2.12 (its README's table).
    ("2.12.1", "dm-reverb", "0.7.2", "dm-reverb==0.11.*"),
    # tensorflow-compression 2.9 pins tensorflow~=2.9.0.
    ("2.11.0", "tensorflow-compression", "2.9.1", "tensorflow-compression==2.11.*"),
    # tensorflow-serving-api 2.0.0 locks to ~=2.0.0; 2.1.0 to ~=2.1.0 (2.1.4: >=2.1.4).
    ("2.1.0", "tensorflow-serving-api", "2.0.0", "tensorflow-serving-api==2.1.0"),
    # tensorflow-decision-forests 0.2.3 pins ~=2.7.0; 0.2.7 ~=2.9.1.
    ("2.9.1", "tensorflow-decision-forests", "0.2.3", "tensorflow-decision-forests==0.2.7"),
    # tensorflow-text 1.15 declares >=1.15.0,<1.16.
    ("1.15.5", "tensorflow-text", "2.0.1", "tensorflow-text==1.15.*"),
    # tensorflow-quantum 0.2.0 declares no TensorFlow and is built against 2.1.0; 0.4.0 pins
    # 2.3.1.
    ("2.3.1", "tensorflow-quantum", "0.2.0", "tensorflow-quantum==0.4.0"),
    # tensorflow-io 0.2 is built for TensorFlow 1.12.0, 0.4 to 0.6 for 1.13 (its README).
    ("1.13.1", "tensorflow-io", "0.2.0", "tensorflow-io==0.6.*"),
)


@pytest.mark.parametrize(
    ("tensorflow", "name", "release", "fix_has"), _OFF_TABLE, ids=[x[1] for x in _OFF_TABLE]
)
def test_a_listed_companion_beside_a_tensorflow_it_does_not_declare_names_its_release(
    tensorflow: str, name: str, release: str, fix_has: str
) -> None:
    found = _mismatch(_listing(("tensorflow", tensorflow), (name, release)) + _FAILED)
    assert fix_has in fix_text(found)


def test_a_listed_companion_whose_release_declares_the_tensorflow_is_no_mismatch() -> None:
    text = _listing(("tensorflow", "2.10.1"), ("tensorflow-data-validation", "1.11.0")) + _FAILED
    assert not [f for f in explained(text).findings if f.cause == "companion-mismatch"]


def test_a_release_whose_patch_narrowed_its_range_is_not_judged_by_the_line() -> None:
    # tfx-bsl 1.15.0 declares ~=2.15 (every TensorFlow 2 from 2.15), 1.15.1 <2.16: the table
    # holds 1.15.1 alone, so 1.15.0 has no row to be judged by.
    comp = load_companions().companions["tfx-bsl"]
    assert comp.row_of("1.15.0") is None
    row = comp.row_of("1.15.1")
    assert row is not None and not row.admits("2.16.1")


def test_a_conda_list_shows_the_companions_and_tensorflow_it_installed() -> None:
    # conda list's rows (name, version, build, channel) under its header: a pip-installed
    # companion shows there too (channel pypi), and TensorFlow's packages give its version.
    text = (
        "$ conda list\n# packages in environment at /home/u/miniconda3/envs/ml:\n#\n"
        "# Name                    Version                   Build  Channel\n"
        "tensorflow                2.3.0           mkl_py38h0be9d6b_0\n"
        "tensorflow-base           2.3.0           mkl_py38h4cc2f5b_0\n"
        "tensorflow-federated      0.19.0                   pypi_0    pypi\n\n"
    ) + _FAILED
    assert read_listed_versions(text, ("tensorflow-federated",)) == {
        "tensorflow-federated": "0.19.0"
    }
    found = _mismatch(text)
    assert "tensorflow-federated 0.19.0" in found.summary
    assert "tensorflow-federated==0.17.*" in fix_text(found)
    # The same columns with no header are another command's (conda search): not what is
    # installed.
    assert read_listed_versions(text.split("# Name", 1)[1], ("tensorflow-federated",)) == {}


def test_conda_search_rows_give_no_installed_tensorflow() -> None:
    # conda search prints conda list's columns under its own header: the builds a channel
    # offers, not the TensorFlow installed, so a companion listed beside them is not judged
    # against that release.
    text = (
        (
            "$ conda search tensorflow\nLoading channels: done\n"
            "# Name                       Version           Build  Channel\n"
            "tensorflow                     2.3.0 mkl_py38h0be9d6b_0  pkgs/main\n"
            "tensorflow                     2.3.0 mkl_py37h0481017_0  pkgs/main\n\n"
        )
        + _listing(("tensorflow-federated", "0.19.0"))
        + _FAILED
    )
    assert not [f for f in explained(text).findings if f.cause == "companion-mismatch"]


def test_a_companion_conda_installed_is_read_and_moved_with_conda() -> None:
    # conda list's rows from a conda channel are read as pip's are (channel pypi); the fix
    # moves each with the installer that installed it: conda's from its channel.
    text = (
        "$ conda list\n# packages in environment at /home/u/miniconda3/envs/ml:\n#\n"
        "# Name                    Version                   Build  Channel\n"
        "tensorflow                2.3.0           mkl_py38h0be9d6b_0\n"
        "tensorflow-probability    0.20.0             pyhd8ed1ab_0    conda-forge\n"
        "tfx-bsl                   0.15.3                   pypi_0    pypi\n\n"
    )
    names = ("tensorflow-probability", "tfx-bsl")
    assert read_listed_versions(text, names) == {
        "tensorflow-probability": "0.20.0",
        "tfx-bsl": "0.15.3",
    }
    found = [
        f
        for f in explained(text + _FAILED).findings
        if f.cause == "companion-mismatch" and "probability" in f.summary
    ]
    assert found and found[0].fix is not None
    commands = found[0].fix.commands
    # conda's TensorFlow moves with conda; pip installs only what no conda row shows.
    assert commands[0] == 'conda install "tensorflow>=2.12"', commands
    assert not [c for c in commands if "pip install" in c and "tensorflow" in c], commands
    # No release for TensorFlow 2.3 in the table: its releases are looked up where conda
    # installs them from.
    assert "`conda search -c conda-forge tensorflow-probability`" in found[0].fix.text
