"""pip's own lines, one classifier for every reader: each kind of line pip prints, in pip's
own words (the lines are written here in pip's format: the module's comments cite the source
that prints each), with pip's indentation and its level before warnings and errors."""

from __future__ import annotations

import time
from typing import Optional

import pytest

from tfdoctor.evidence.installer import log_installer
from tfdoctor.evidence.packages import installed_items
from tfdoctor.evidence.pip import (
    PipKind,
    PythonRefusal,
    pip_words,
    read_pip_line,
    read_pip_lines,
    read_python_refusals,
)
from tfdoctor.explain.keras_versions import _pip_own

_LINES = [
    pytest.param(
        "Processing ./dist/tfdoctor-0.1-py3-none-any.whl",
        PipKind.PROCESSING,
        "",
        "./dist/tfdoctor-0.1-py3-none-any.whl",
        id="processing",
    ),
    pytest.param(
        "Collecting tensorflow==2.6.0",
        PipKind.COLLECTING,
        "",
        "tensorflow==2.6.0",
        id="collecting",
    ),
    pytest.param(
        "  Downloading tensorflow-2.6.0-cp39-cp39-manylinux2010_x86_64.whl (458.3 MB)",
        PipKind.DOWNLOADING,
        "",
        "tensorflow-2.6.0-cp39-cp39-manylinux2010_x86_64.whl (458.3 MB)",
        id="downloading-indented",
    ),
    pytest.param(
        "  Using cached numpy-1.19.5-cp39-cp39-manylinux2010_x86_64.whl (14.9 MB)",
        PipKind.USING_CACHED,
        "",
        "numpy-1.19.5-cp39-cp39-manylinux2010_x86_64.whl (14.9 MB)",
        id="using-cached",
    ),
    pytest.param(
        "Requirement already satisfied: numpy~=1.19.2 in /usr/local/lib/python3.9/site-packages"
        " (from tensorflow==2.6.0) (1.19.5)",
        PipKind.SATISFIED,
        "",
        ": numpy~=1.19.2 in /usr/local/lib/python3.9/site-packages (from tensorflow==2.6.0)"
        " (1.19.5)",
        id="satisfied",
    ),
    pytest.param(
        "Requirement already satisfied (use --upgrade to upgrade): tensorflow-gpu in "
        "/usr/lib/python3/dist-packages",
        PipKind.SATISFIED,
        "",
        " (use --upgrade to upgrade): tensorflow-gpu in /usr/lib/python3/dist-packages",
        id="satisfied-before-pip-10",
    ),
    pytest.param(
        "Requirement already up-to-date: keras in /usr/local/lib/python3.6/dist-packages (2.3.1)",
        PipKind.UP_TO_DATE,
        "",
        ": keras in /usr/local/lib/python3.6/dist-packages (2.3.1)",
        id="up-to-date",
    ),
    pytest.param(
        "Installing collected packages: numpy, tensorflow",
        PipKind.INSTALLING,
        "",
        ": numpy, tensorflow",
        id="installing",
    ),
    pytest.param(
        "  Attempting uninstall: numpy",
        PipKind.ATTEMPTING_UNINSTALL,
        "",
        ": numpy",
        id="attempting-uninstall",
    ),
    pytest.param(
        "    Found existing installation: numpy 1.21.6",
        PipKind.FOUND_EXISTING,
        "",
        "numpy 1.21.6",
        id="found-existing",
    ),
    pytest.param(
        "    Uninstalling numpy-1.21.6:",
        PipKind.UNINSTALLING,
        "",
        "numpy-1.21.6:",
        id="uninstalling",
    ),
    pytest.param(
        "      Successfully uninstalled numpy-1.21.6",
        PipKind.UNINSTALLED,
        "",
        "numpy-1.21.6",
        id="uninstalled",
    ),
    pytest.param(
        "Successfully installed numpy-1.19.5 tensorflow-2.6.0",
        PipKind.INSTALLED,
        "",
        "numpy-1.19.5 tensorflow-2.6.0",
        id="installed",
    ),
    pytest.param(
        "ERROR: pip's dependency resolver does not currently take into account all the packages "
        "that are installed. This behaviour is the source of the following dependency conflicts.",
        PipKind.RESOLVER_NOTE,
        "ERROR",
        " does not currently take into account all the packages that are installed. This "
        "behaviour is the source of the following dependency conflicts.",
        id="resolver-note",
    ),
    pytest.param(
        "ERROR: pip's legacy dependency resolver does not consider dependency conflicts when "
        "selecting packages. This behaviour is the source of the following dependency conflicts.",
        PipKind.RESOLVER_NOTE,
        "ERROR",
        " does not consider dependency conflicts when selecting packages. This behaviour is the "
        "source of the following dependency conflicts.",
        id="resolver-note-legacy",
    ),
    pytest.param(
        "tensorflow 2.6.0 requires numpy~=1.19.2, but you have numpy 1.21.6 which is incompatible.",
        PipKind.CONFLICT,
        "",
        "tensorflow 2.6.0 requires numpy~=1.19.2, but you have numpy 1.21.6 which is incompatible.",
        id="conflict",
    ),
    pytest.param(
        "ERROR: tensorflow 2.3.0 has requirement numpy<1.19.0,>=1.16.0, but you'll have numpy "
        "1.19.1 which is incompatible.",
        PipKind.CONFLICT,
        "ERROR",
        "tensorflow 2.3.0 has requirement numpy<1.19.0,>=1.16.0, but you'll have numpy 1.19.1 "
        "which is incompatible.",
        id="conflict-before-20.3",
    ),
    pytest.param(
        "tensorflow 2.6.0 requires keras, which is not installed.",
        PipKind.CONFLICT,
        "",
        "tensorflow 2.6.0 requires keras, which is not installed.",
        id="conflict-not-installed",
    ),
    pytest.param(
        "tfx-bsl 1.14.0 has requirement pyarrow<11,>=10, but you have pyarrow 14.0.1.",
        PipKind.CONFLICT,
        "",
        "tfx-bsl 1.14.0 has requirement pyarrow<11,>=10, but you have pyarrow 14.0.1.",
        id="conflict-pip-check",
    ),
    pytest.param(
        "ERROR: Cannot install tensorflow==2.6.0 and numpy==1.22.0 because these package "
        "versions have conflicting dependencies.",
        PipKind.CANNOT_INSTALL,
        "ERROR",
        "tensorflow==2.6.0 and numpy==1.22.0 because these package versions have conflicting "
        "dependencies.",
        id="cannot-install",
    ),
    pytest.param(
        "ERROR: ResolutionImpossible: for help visit "
        "https://pip.pypa.io/en/latest/user_guide/#fixing-conflicting-dependencies",
        PipKind.RESOLUTION_IMPOSSIBLE,
        "ERROR",
        ": for help visit https://pip.pypa.io/en/latest/user_guide/"
        "#fixing-conflicting-dependencies",
        id="resolution-impossible",
    ),
    pytest.param(
        "ERROR: Could not find a version that satisfies the requirement tensorflow==2.12.0 "
        "(from versions: 2.13.0rc0, 2.13.0)",
        PipKind.NO_VERSION,
        "ERROR",
        "tensorflow==2.12.0 (from versions: 2.13.0rc0, 2.13.0)",
        id="no-version",
    ),
    pytest.param(
        "  Could not find a version that satisfies the requirement tensorflow (from versions: )",
        PipKind.NO_VERSION,
        "",
        "tensorflow (from versions: )",
        id="no-version-before-19.1",
    ),
    pytest.param(
        "ERROR: No matching distribution found for tensorflow==2.12.0",
        PipKind.NO_MATCH,
        "ERROR",
        "tensorflow==2.12.0",
        id="no-match",
    ),
    pytest.param(
        "ERROR: tensorflow-2.6.0-cp39-cp39-win_amd64.whl is not a supported wheel on this "
        "platform.",
        PipKind.UNSUPPORTED_WHEEL,
        "ERROR",
        "tensorflow-2.6.0-cp39-cp39-win_amd64.whl is not a supported wheel on this platform.",
        id="unsupported-wheel",
    ),
]


@pytest.mark.parametrize(("line", "kind", "level", "rest"), _LINES)
def test_each_kind_of_line_pip_prints_is_read_with_what_follows_its_words(
    line: str, kind: PipKind, level: str, rest: str
) -> None:
    said = read_pip_line(line)
    assert said is not None
    assert (said.kind, said.level, said.rest) == (kind, level, rest)
    # What it says is the line less pip's indentation and level.
    prefix = f"{level}: " if level else ""
    assert f"{prefix}{said.words}{said.rest}" == line.lstrip()


def test_every_kind_is_one_of_the_lines_read() -> None:
    read = {p.values[1] for p in _LINES}
    assert read == set(PipKind)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("I downgraded to keras 2.1.5 and it fails", id="user-words"),
        pytest.param("Epoch 1/10", id="training"),
        pytest.param("ImportError: cannot import name 'Layer'", id="traceback"),
        pytest.param("WARNING: keras 2.1.5 is old", id="a-warning-of-another"),
    ],
)
def test_lines_pip_did_not_print_are_none(line: str) -> None:
    assert read_pip_line(line) is None


def test_pip_words_name_the_opening_of_each_kind_and_none_for_those_without() -> None:
    assert pip_words(PipKind.COLLECTING) == "Collecting "
    assert pip_words(PipKind.INSTALLED) == "Successfully installed "
    assert pip_words(PipKind.CONFLICT) == ""
    assert pip_words(PipKind.UNSUPPORTED_WHEEL) == ""


def test_the_lines_of_a_log_are_read_in_order_of_the_kinds_asked() -> None:
    log = (
        "Collecting tensorflow==2.6.0\n"
        "  Downloading tensorflow-2.6.0-cp39-cp39-manylinux2010_x86_64.whl (458.3 MB)\n"
        "Installing collected packages: tensorflow\n"
        "  Attempting uninstall: tensorflow\n"
        "    Found existing installation: tensorflow 2.5.0\n"
        "    Uninstalling tensorflow-2.5.0:\n"
        "      Successfully uninstalled tensorflow-2.5.0\n"
        "Successfully installed tensorflow-2.6.0\n"
    )
    kinds = (PipKind.UNINSTALLED, PipKind.FOUND_EXISTING)
    assert [(s.kind, s.rest) for s in read_pip_lines(log, *kinds)] == [
        (PipKind.FOUND_EXISTING, "tensorflow 2.5.0"),
        (PipKind.UNINSTALLED, "tensorflow-2.5.0"),
    ]
    assert list(read_pip_lines(log, PipKind.NO_MATCH)) == []
    # Only the kinds whose words open the line are read from a log.
    assert list(read_pip_lines(log, PipKind.CONFLICT)) == []


@pytest.mark.parametrize(
    ("line", "own"),
    [
        pytest.param("Requirement already satisfied: keras==2.1.5 in /x (2.1.5)", True, id="sat"),
        pytest.param("  Collecting keras==2.1.5", True, id="collecting-indented"),
        pytest.param(
            "tensorflow 2.0.0 requires keras>=2.2.4, but you have keras 2.1.5 which is "
            "incompatible.",
            True,
            id="conflict",
        ),
        # A refusal quotes the request: the user's words, as pip read them.
        pytest.param("ERROR: No matching distribution found for keras==2.1.5", False, id="refusal"),
        pytest.param("ERROR: Failed building wheel for h5py", False, id="build"),
        pytest.param("I use keras 2.1.5", False, id="user"),
    ],
)
def test_the_keras_reading_leaves_out_pips_reports_and_keeps_its_refusals(
    line: str, own: bool
) -> None:
    assert _pip_own(line) is own


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Because the current Python version (3.8.18) does not satisfy\n"
            "      Python>=3.9,<3.13 and tensorflow==2.16.1 depends on\n"
            "      Python>=3.9,<3.13, we can conclude that tensorflow==2.16.1 cannot be used.\n",
            PythonRefusal("tensorflow", "2.16.1", ">=3.9,<3.13", "3.8.18", installer="uv"),
            id="uv-current-wrapped",
        ),
        pytest.param(
            "Because the requested Python version (>=3.8) does not satisfy Python>=3.9 and all "
            "versions of tensorflow-text depend on Python>=3.9, we can conclude that all "
            "versions of tensorflow-text cannot be used.\n",
            PythonRefusal(
                "tensorflow-text", "", ">=3.9", project=">=3.8", every=True, installer="uv"
            ),
            id="uv-requested-every",
        ),
        pytest.param(
            "Because the requested Python version (>=3.9) does not satisfy Python>=3.10 and "
            "tensorflow{python_full_version >= '3.9'}>=2.17 depends on Python>=3.10, we can "
            "conclude that tensorflow>=2.17 cannot be used.\n",
            PythonRefusal("tensorflow", "", ">=3.10", project=">=3.9", installer="uv"),
            id="uv-marker-range",
        ),
        pytest.param(
            "  Because no versions of tensorflow match >2.16.1,<3.0.0\n"
            "   and tensorflow (2.16.1) requires Python >=3.9, <3.13, tensorflow is forbidden.\n",
            PythonRefusal("tensorflow", "2.16.1", ">=3.9, <3.13", installer="Poetry"),
            id="poetry-incompatibility",
        ),
        pytest.param(
            "The current project's supported Python range (>=3.8,<4.0) is not compatible with "
            "some of the required packages Python requirement:\n"
            "  - tensorflow requires Python >=3.9,<3.13, so it will not be satisfied for Python "
            ">=3.8,<3.9 || >=3.13,<4.0\n",
            PythonRefusal(
                "tensorflow", "", ">=3.9,<3.13", project=">=3.8,<4.0", installer="Poetry"
            ),
            id="poetry-project-range",
        ),
    ],
)
def test_uv_and_poetry_refusals_for_requires_python_are_read(
    text: str, expected: PythonRefusal
) -> None:
    assert read_python_refusals([text]) == [expected]


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "ERROR: Package 'tensorflow-text' requires a different Python: 3.6.9 not in '>=3.7'",
            id="pip-10-on",
        ),
        pytest.param(
            "tensorflow-text requires Python '>=3.7' but the running Python is 3.6.9",
            id="pip-9",
        ),
    ],
)
def test_pips_refusal_of_a_package_for_its_python_is_read_in_both_wordings(line: str) -> None:
    assert read_python_refusals([line]) == [PythonRefusal("tensorflow-text", "", ">=3.7", "3.6.9")]


_FILES = "https://files.pythonhosted.org/packages/1a/2b/3c4d"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            f"  Link requires a different Python (3.13.1 not in: '>=3.9,<3.13'): {_FILES}/"
            "tensorflow-2.18.0-cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.whl "
            "(from https://pypi.org/simple/tensorflow/) (requires-python:>=3.9,<3.13)\n"
            f"  Link requires a different Python (3.13.1 not in: '>=3.9,<3.13'): {_FILES}/"
            "tensorflow-2.18.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl "
            "(from https://pypi.org/simple/tensorflow/) (requires-python:>=3.9,<3.13)\n"
            f"  Link requires a different Python (3.13.1 not in: '>=3.9,<3.12'): {_FILES}/"
            "tensorflow-2.15.1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl "
            "(from https://pypi.org/simple/tensorflow/) (requires-python:>=3.9,<3.12)\n",
            [
                PythonRefusal("", "2.18.0", ">=3.9,<3.13", "3.13.1", of="tensorflow"),
                PythonRefusal("", "2.15.1", ">=3.9,<3.12", "3.13.1", of="tensorflow"),
            ],
            id="pip-19.2-on-one-per-release",
        ),
        pytest.param(
            f"  Link requires a different Python (3.6.9 not in: '>=3.7'): {_FILES}/"
            "tensorflow_io-0.17.0.tar.gz#sha256=0123abcd (from https://pypi.org/simple/"
            "tensorflow-io/) (requires-python:>=3.7)\n",
            [PythonRefusal("", "0.17.0", ">=3.7", "3.6.9", of="tensorflow-io")],
            id="source-archive",
        ),
        pytest.param(
            f"  The package {_FILES}/tensorflow-2.2.0-cp38-cp38-manylinux2010_x86_64.whl"
            "#sha256=0123abcd (from https://pypi.org/simple/tensorflow/) (requires-python:"
            ">=3.5) is incompatible with the pythonversion in use. Acceptable python versions "
            "are:>=3.5\n",
            [PythonRefusal("", "2.2.0", ">=3.5", "", of="tensorflow")],
            id="pip-9-link-with-its-origin",
        ),
        pytest.param(
            f"  The package {_FILES}/tensorflow-2.2.0-cp38-cp38-manylinux2010_x86_64.whl"
            "#sha256=0123abcd is incompatible with the pythonversion in use. Acceptable python "
            "versions are:>=3.5\n",
            [PythonRefusal("", "2.2.0", ">=3.5", "", of="tensorflow")],
            id="pip-9-to-19.1",
        ),
    ],
)
def test_pips_verbose_refusals_of_files_for_their_python_are_read_per_release(
    text: str, expected: list[PythonRefusal]
) -> None:
    assert read_python_refusals([text]) == expected


def test_a_poetry_item_outside_its_projects_failure_is_not_a_refusal() -> None:
    # The list form is read only below Poetry's own header line.
    assert read_python_refusals(["  - tensorflow requires Python >=3.9\n"]) == []


@pytest.mark.parametrize(
    "filler",
    [
        pytest.param("a" * 60_000 + "\n", id="long-token"),
        pytest.param(" \n" * 30_000, id="blank-lines"),
    ],
)
def test_poetrys_python_readings_take_linear_time(filler: str) -> None:
    # A long token (a hash, a blob) or a run of blank lines beside Poetry's words: each of
    # its readings starts at a name's first character, on one line (quadratic before:
    # about a minute for either text).
    text = (
        "The current project's Python requirement (>=3.8) is not compatible with some of the "
        "required packages Python requirement:\n  - tensorflow requires Python >=3.9\n"
        + filler
        + "x requires Python >=3.9\n"
    )
    start = time.perf_counter()
    refusals = read_python_refusals([text])
    assert time.perf_counter() - start < 3
    assert [(r.dist, r.spec) for r in refusals] == [("tensorflow", ">=3.9")]


@pytest.mark.parametrize(
    ("text", "installer"),
    [
        pytest.param(
            "$ uv pip install -r requirements.txt\nResolved 42 packages in 1.20s\n",
            "uv pip",
            id="uv-pip-command",
        ),
        pytest.param("uv add tensorflow\n", "uv", id="uv-project-command"),
        pytest.param(
            "  \u00d7 No solution found when resolving dependencies:\n"
            "  ╰─▶ Because only tensorflow<2.0 is available and your project depends on "
            "tensorflow>=2.0, we can conclude that your project's requirements are unsatisfiable.",
            "uv",
            id="uv-project-report",
        ),
        pytest.param(
            "  \u00d7 No solution found when resolving script dependencies:\n"
            "  ╰─▶ Because there is no version of tensorflow==9.9 and you require "
            "tensorflow==9.9, we can conclude that your requirements are unsatisfiable.",
            "uv pip",
            id="uv-script-report",
        ),
        pytest.param(
            "ERROR: Could not find a version that satisfies the requirement tensorflow==9.9 "
            "(from versions: 2.16.1, 2.16.2)\n"
            "ERROR: No matching distribution found for tensorflow==9.9",
            None,
            id="pip-refusal",
        ),
        pytest.param("RUN pip install uv && echo uv pip\n", None, id="uv-named-not-run"),
        # uv's words for a project's lock out of date (--locked): only a project has uv.lock.
        pytest.param(
            "Resolved 42 packages in 12ms\nerror: The lockfile at `uv.lock` needs to be "
            "updated, but `--locked` was provided. To update the lockfile, run `uv lock`.\n",
            "uv",
            id="uv-lock-named",
        ),
        # pixi's PyPI resolution is uv's resolver: uv's words under pixi's own are pixi's.
        pytest.param(
            "  \u00d7 failed to solve the pypi requirements of environment 'default' for "
            "platform 'linux-64'\n"
            "  ├─▶ failed to resolve pypi dependencies\n"
            "  ╰─▶ Because you require tensorflow==2.15.1 and tensorflow==2.16.1, we can "
            "conclude that your requirements are unsatisfiable.\n",
            "pixi",
            id="pixi-pypi-resolution",
        ),
        pytest.param("$ pixi add --pypi tensorflow\n", "pixi", id="pixi-command"),
        pytest.param(
            '  File "/home/u/proj/.pixi/envs/default/lib/python3.12/site-packages/x.py", line 1\n',
            "pixi",
            id="pixi-environment-path",
        ),
        pytest.param("see mypixi.lock and uv.lockfile\n", None, id="other-lock-names"),
    ],
)
def test_the_installer_is_read_from_uvs_own_words(text: str, installer: Optional[str]) -> None:
    assert log_installer(text) == installer


def test_a_successfully_installed_lists_items_by_name() -> None:
    # A name holding a release of its own (TensorFlow 2.0's preview nightly) keeps it: the
    # release is what follows the last hyphen.
    assert installed_items(
        "tb-nightly-1.15.0a20190801 tf-nightly-2.0-preview-2.0.0.dev20190801 "
        "Keras_Applications-1.0.8"
    ) == {
        "tb-nightly": "1.15.0a20190801",
        "tf-nightly-2-0-preview": "2.0.0.dev20190801",
        "keras-applications": "1.0.8",
    }
