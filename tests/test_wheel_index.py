"""The bundled index of the wheels companion releases publish, and the fixes it fits when pip
finds no wheel of a companion."""

from __future__ import annotations

from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text, top_error
from tfdoctor.causes.software import published_wheels
from tfdoctor.facts import Facts
from tfdoctor.machine import LogHints, Machine
from tfdoctor.matrix import version_key
from tfdoctor.wheel_index import ReleaseWheels, python_span, releases_of, wheel_index


def _hinted(os: Optional[str], python: Optional[str]) -> Machine:
    bare = Facts(tfdoctor_version="0", collected_at="2026-01-01T00:00:00+00:00")
    return Machine(bare, f.FIXTURE_MATRIX, LogHints(os=os, python=python))


def test_every_row_of_the_bundled_index_is_whole_and_sorted() -> None:
    index = wheel_index()
    assert "tensorflow-addons" in index and "tensorflow-text" in index
    for dist, rows in index.items():
        assert rows, dist
        keys = [version_key(r.version) for r in rows]
        assert keys == sorted(keys), dist
        for row in rows:
            assert row.pythons and row.platforms, (dist, row)
            assert all(p[0].isdigit() or p in ("py2", "py3") for p in row.pythons), (dist, row)


def test_a_release_fits_a_python_and_a_system_by_its_tags() -> None:
    row = ReleaseWheels("0.9.1", "", ("3.5", "3.6", "3.7"), ("linux-x86_64", "windows-x86_64"))
    assert row.python_fits("3.7.9") and not row.python_fits("3.8")
    assert row.platform_fits("windows") and row.platform_fits("linux", "x86_64")
    assert not row.platform_fits("macos") and not row.platform_fits("linux", "aarch64")
    assert row.describe() == "wheels for CPython 3.5 to 3.7 on Linux x86-64, Windows x86-64"
    pure = ReleaseWheels("1.5.0", "", ("py2",), ("any",))
    assert pure.python_fits("2.7.18") and not pure.python_fits("3.5.2")
    assert pure.describe() == "a pure-Python wheel for Python 2 only"
    assert not ReleaseWheels("2.0", ">=3.10", ("py3",), ("any",)).python_fits("3.9")
    assert python_span(("2.7", "3.5", "3.6", "3.8")) == "CPython 2.7, 3.5 to 3.6, 3.8"


@pytest.mark.parametrize(
    ("os", "python", "spec", "says"),
    [
        # Published for 3.5-3.7 only (PyPI's files): the nearest Python below the one here.
        pytest.param("windows", "3.8", "~=0.9.1", "use Python 3.7", id="python-too-new"),
        # Windows wheels begin with 2.4.1: the pinned 2.2.1 has none.
        pytest.param(
            "windows",
            "3.7",
            "==2.2.1",
            "the first later release with one is 2.4.1",
            id="no-windows-wheel",
        ),
        pytest.param(None, None, "==0.9.9", "No release of", id="no-such-release"),
        # The system unknown: the systems the release lacks, with the first release that has one.
        pytest.param(
            None,
            None,
            "==2.2.1",
            "no Windows wheel: the first later release with one is 2.4.1",
            id="os",
        ),
    ],
)
def test_the_releases_asked_for_are_told_against_this_python_and_system(
    os: Optional[str], python: Optional[str], spec: str, says: str
) -> None:
    dist = "tensorflow-text" if "2.2.1" in spec else "tensorflow-addons"
    text = published_wheels(_hinted(os, python), dist, spec)
    assert text is not None and says in text, text


def test_a_release_with_a_wheel_here_puts_the_refusal_down_to_the_interpreter() -> None:
    text = published_wheels(_hinted("linux", "3.7"), "tensorflow-addons", "~=0.9.1")
    assert text is not None and "32-bit" in text


def test_a_distribution_the_index_does_not_list_has_nothing_to_say() -> None:
    assert releases_of("no-such-dist") == ()
    assert published_wheels(_hinted("linux", "3.7"), "no-such-dist") is None


def test_pips_refusal_of_a_pinned_companion_names_the_python_its_wheels_are_for() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/venv/lib/python3.8/site-packages/setup_tools.py", line 1\n'
        "ERROR: Could not find a version that satisfies the requirement tensorflow-addons~=0.9.1 "
        "(from tensorflow_federated) (from versions: 0.10.0)\n"
        "ERROR: No matching distribution found for tensorflow-addons~=0.9.1\n"
    )
    top = top_error(explained(log))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert "CPython 3.5 to 3.7" in fix and "use Python 3.7" in fix


def test_a_makers_own_index_page_gives_the_rows_of_its_wheels() -> None:
    import importlib.util
    import sys
    from pathlib import Path

    scripts = Path(__file__).resolve().parent.parent / "scripts"
    sys.path.insert(0, str(scripts))
    try:
        spec = importlib.util.spec_from_file_location(
            "gen_wheel_index", scripts / "gen_wheel_index.py"
        )
        assert spec is not None and spec.loader is not None
        gen = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(gen)
        rm = gen._refresh_matrix()
    finally:
        sys.path.remove(str(scripts))
    # A PEP 503 page as Coral's index writes it: each anchor's text is the file name.
    names = [
        f"pycoral-2.0.0-cp39-cp39-{platform}.whl"
        for platform in ("linux_aarch64", "macosx_11_0_x86_64", "win_amd64")
    ]
    page = "<ul>" + "".join(
        f'<li><a href="https://example.org/{n}#sha256=00">{n}</a></li>' for n in names
    )
    rows = gen.rows_of(gen.own_index_files(page, rm), rm)
    assert rows == ["2.0.0\t-\t3.9\tlinux-aarch64 macos-x86_64 windows-x86_64"]
    assert "pycoral" in gen.OWN_INDEXES and "pycoral" in gen.DISTS
