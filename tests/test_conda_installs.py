"""A package conda installed is changed with conda, one pip installed with pip: each fix names
the installer of every package it moves, and conda only inside a conda environment."""

from __future__ import annotations

import dataclasses

import pytest

from tests import factories as f
from tests.explaining import explained
from tfdoctor.causes.common import install_fix
from tfdoctor.causes.software import numba_llvmlite_fix
from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.evidence.conda import conda_channels, in_environment
from tfdoctor.facts import CondaFacts, CondaPackage, Facts, PackageFacts
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import Machine, conda_match_spec

PREFIX = "/home/u/miniconda3/envs/tf"
PIP = f"{PREFIX}/bin/python -m pip install"


def in_conda(*conda: CondaPackage, packages: tuple[PackageFacts, ...] = ()) -> Facts:
    """A machine whose interpreter is a conda environment's, holding the conda packages
    ``conda`` (conda-meta) and the distributions ``packages`` beside TensorFlow 2.15.1."""
    return f.facts(
        python=f.python(env_kind="conda", prefix=PREFIX, executable=f"{PREFIX}/bin/python"),
        conda=CondaFacts(PREFIX, (CondaPackage("python", "3.11.7", "h", "conda-forge"), *conda)),
        packages=(f.packages()[0], *packages),
    )


def _judge(facts: Facts) -> tuple[Finding, ...]:
    return run_checks(CheckContext(facts, f.FIXTURE_MATRIX))


# --- conda's MatchSpec of a PEP 440 range ------------------------------------------------------


@pytest.mark.parametrize(
    ("specifier", "expected"),
    [
        pytest.param("<2.0.0,>=1.23.5", "numpy<2.0.0,>=1.23.5", id="range"),
        pytest.param("==1.26.4", "numpy==1.26.4", id="exact"),
        # conda ignores a .* after == and would match 2.15 alone: its own prefix form.
        pytest.param("==2.15.*", "numpy=2.15", id="prefix-alone"),
        pytest.param(">=1.16,==1.19.*", "numpy>=1.16,1.19.*", id="prefix-beside-a-range"),
        pytest.param("~=1.19.2", "numpy~=1.19.2", id="compatible-release"),
        pytest.param("!=1.24.*,<2", "numpy!=1.24.*,<2", id="excluded-prefix"),
        pytest.param("", "numpy", id="any"),
        pytest.param("===1.0", None, id="arbitrary-equality"),
    ],
)
def test_a_pep440_range_is_written_as_conda_reads_it(specifier: str, expected: str) -> None:
    assert conda_match_spec("numpy", specifier) == expected


# --- each package by its own installer ---------------------------------------------------------


def test_a_package_conda_installed_is_installed_with_conda_from_its_channel() -> None:
    m = Machine(
        in_conda(
            CondaPackage("numpy", "2.1.0", "py311h", "conda-forge"),
            packages=(f.pkg("numpy", "2.1.0"), f.pkg("protobuf", "5.27.0")),
        ),
        f.FIXTURE_MATRIX,
    )
    # Mixed: conda's NumPy beside pip's protobuf, each with its own installer.
    assert m.install("numpy<2", "protobuf<5") == (
        'conda install -c conda-forge "numpy<2"',
        f'{PIP} "protobuf<5"',
    )


def test_conda_s_default_channels_are_installed_from_without_a_channel() -> None:
    m = Machine(in_conda(CondaPackage("numpy", "2.1.0", "py311h", "pkgs/main")), f.FIXTURE_MATRIX)
    assert m.install("numpy<2") == ('conda install "numpy<2"',)


def test_names_compare_as_pep503_normalises_them() -> None:
    # conda-forge spells typing_extensions with an underscore; pip's name has a hyphen.
    m = Machine(
        in_conda(CondaPackage("typing_extensions", "4.12.2", "pyha", "conda-forge")),
        f.FIXTURE_MATRIX,
    )
    assert m.install("typing-extensions<4.6") == (
        'conda install -c conda-forge "typing_extensions<4.6"',
    )


def test_conda_s_package_is_looked_up_in_conda_s_channels() -> None:
    m = Machine(
        in_conda(
            CondaPackage("tensorflow-probability", "0.24.0", "pyhd8ed1ab_0", "conda-forge"),
            CondaPackage("numpy", "1.26.4", "py311h", "pkgs/main"),
        ),
        f.FIXTURE_MATRIX,
    )
    assert m.installable_releases("tensorflow-probability") == (
        "conda search -c conda-forge tensorflow-probability",
    )
    assert m.installable_releases("numpy") == ("conda search numpy",)
    assert m.installable_releases("protobuf") == (
        f"{PREFIX}/bin/python -m pip index versions protobuf",
    )


def test_in_a_pixi_workspace_conda_s_package_goes_through_pixi() -> None:
    # pixi's environments follow its manifest: `conda install` there is undone by the next
    # `pixi install` (Machine.conda_install), so conda's package is added with pixi.
    prefix = "/srv/project/.pixi/envs/default"
    facts = dataclasses.replace(
        in_conda(CondaPackage("numpy", "2.1.0", "py311h", "conda-forge")),
        python=f.python(env_kind="conda", prefix=prefix, executable=f"{prefix}/bin/python"),
        conda=CondaFacts(prefix, (CondaPackage("numpy", "2.1.0", "py311h", "conda-forge"),)),
    )
    assert Machine(facts, f.FIXTURE_MATRIX).install("numpy<2") == ('pixi add "numpy<2"',)


@pytest.mark.parametrize(
    "facts",
    [
        pytest.param(
            in_conda(CondaPackage("numpy", "2.1.0", "pypi_0", "pypi")), id="conda-lists-pip-s"
        ),
        pytest.param(in_conda(), id="not-in-conda-meta"),
        pytest.param(f.facts(), id="not-a-conda-environment"),
    ],
)
def test_what_conda_did_not_install_is_pip_s(facts: Facts) -> None:
    commands = Machine(facts, f.FIXTURE_MATRIX).install("numpy<2")
    assert [c for c in commands if c.startswith("conda")] == []
    assert commands[-1].endswith('-m pip install "numpy<2"')


def test_a_requirement_conda_cannot_read_stays_pip_s_and_says_why() -> None:
    m = Machine(in_conda(CondaPackage("numpy", "2.1.0", "py311h", "conda-forge")), f.FIXTURE_MATRIX)
    fix = install_fix(m, "Install NumPy 2.0.0.", "numpy===2.0.0")
    assert fix.commands == (f'{PIP} "numpy===2.0.0"',)
    assert "no conda form" in fix.text
    said = install_fix(m, "Install NumPy 1.", "numpy<2").text
    assert "numpy (from conda-forge)" in said and "no conda form" not in said


# --- check: the fix, applied, removes the cause ------------------------------------------------


@pytest.mark.parametrize(
    ("conda", "installed", "cause"),
    [
        pytest.param(
            CondaPackage("numpy", "2.1.0", "py311h", "conda-forge"),
            f.pkg("numpy", "2.1.0"),
            "numpy-abi",
            id="numpy2-from-conda-forge",
        ),
        pytest.param(
            CondaPackage("numpy", "1.22.4", "py311h", "pkgs/main"),
            f.pkg("numpy", "1.22.4"),
            "dependency-out-of-range",
            id="numpy-below-the-floor-from-defaults",
        ),
        pytest.param(
            CondaPackage("protobuf", "3.19.6", "py311h", "conda-forge"),
            f.pkg("protobuf", "3.19.6"),
            "protobuf-incompatible",
            id="protobuf-below-the-floor",
        ),
    ],
)
def test_a_conda_package_s_range_fix_is_conda_s_and_removes_the_cause(
    conda: CondaPackage, installed: PackageFacts, cause: str
) -> None:
    facts = in_conda(conda, packages=(installed,))
    facts = dataclasses.replace(facts, tensorflow=f.tensorflow(status="skipped"))
    found = [x for x in _judge(facts) if x.cause == cause]
    assert found and found[0].fix is not None
    assert found[0].severity.rank >= Severity.WARNING.rank
    commands = found[0].fix.commands
    # pip never touches what conda installed: conda's command changes it.
    assert [c for c in commands if "pip install" in c and conda.name in c] == [], commands
    assert any(c.startswith("conda install") and conda.name in c for c in commands), commands
    after = f.apply_conda(facts, commands)
    assert after is not None
    assert not [x for x in _judge(after) if x.cause == cause]


def test_the_same_cause_with_pip_s_package_stays_pip_s() -> None:
    # The property's control: the same machine where pip installed NumPy.
    facts = in_conda(packages=(f.pkg("numpy", "2.1.0"),))
    found = [x for x in _judge(facts) if x.cause == "numpy-abi"]
    assert found and found[0].fix is not None
    assert [c for c in found[0].fix.commands if c.startswith("conda")] == []
    after = f.apply_pip(facts, found[0].fix.commands)
    assert after is not None
    assert not [x for x in _judge(after) if x.cause == "numpy-abi"]


# --- explain: conda list's rows decide the installer --------------------------------------------

_ABI = (
    "$ python -c 'import tensorflow'\n\n"
    "A module that was compiled using NumPy 1.x cannot be run in\n"
    "NumPy 2.0.1 as it may crash. To support both 1.x and 2.x\n"
    "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
    "Traceback (most recent call last):\n"
    '  File "<string>", line 1, in <module>\n'
    '  File "/home/u/miniconda3/envs/ml/lib/python3.11/site-packages/tensorflow/__init__.py", '
    "line 38, in <module>\n"
    "    from tensorflow.python.tools import module_util as _module_util\n"
    "AttributeError: _ARRAY_API not found\n"
)


def _conda_list(*rows: str) -> str:
    """``conda list``'s output with ``rows`` (name, version, build, channel) under its header."""
    return (
        "$ conda list\n# packages in environment at /home/u/miniconda3/envs/ml:\n#\n"
        "# Name                    Version                   Build  Channel\n"
        + "".join(f"{row}\n" for row in rows)
        + "\n"
    )


def _commands(text: str, cause: str) -> tuple[str, ...]:
    """The commands of the fix of the first finding of ``cause`` that ``text`` explains."""
    found = [x for x in explained(text).findings if x.cause == cause]
    assert found and found[0].fix is not None
    return found[0].fix.commands


@pytest.mark.parametrize(
    ("numpy_row", "expected"),
    [
        pytest.param(
            "numpy 2.0.1 py311h1461a6b_0 conda-forge",
            'conda install -c conda-forge "numpy<2.0.0,>=1.23.5"',
            id="conda-forge",
        ),
        pytest.param(
            "numpy 2.0.1 py311h08b1b3b_1",
            'conda install "numpy<2.0.0,>=1.23.5"',
            id="default-channels",
        ),
        pytest.param("numpy 2.0.1 pypi_0 pypi", 'pip install "numpy<2.0.0,>=1.23.5"', id="pip-s"),
    ],
)
def test_a_listed_package_is_moved_by_the_installer_its_row_shows(
    numpy_row: str, expected: str
) -> None:
    text = _conda_list(numpy_row, "tensorflow 2.15.0 pypi_0 pypi") + _ABI
    assert _commands(text, "numpy-abi") == (expected,)


def test_a_companion_conda_installed_gets_its_release_from_conda() -> None:
    # TensorFlow Probability 0.20 needs TensorFlow 2.12 or newer (its import-time check):
    # beside conda-forge's TensorFlow 2.11 the release for it, 0.19, comes from conda-forge.
    text = _conda_list(
        "tensorflow 2.11.1 cpu_py311h0b9f4a1_0 conda-forge",
        "tensorflow-base 2.11.1 cpu_py311h7dd3fd4_0 conda-forge",
        "tensorflow-probability 0.20.0 pyhd8ed1ab_0 conda-forge",
    ) + (
        "$ python train.py\nTraceback (most recent call last):\n"
        '  File "train.py", line 2, in <module>\n'
        '    raise RuntimeError("the pipeline stopped")\n'
        "RuntimeError: the pipeline stopped\n"
    )
    found = [
        x
        for x in explained(text).findings
        if x.cause == "companion-mismatch" and "probability" in x.summary
    ]
    assert found and found[0].fix is not None
    assert found[0].fix.commands == ('conda install -c conda-forge "tensorflow-probability=0.19"',)


def test_a_companion_conda_installed_is_moved_with_conda_and_its_cause_goes() -> None:
    # TensorFlow Probability declares no TensorFlow: the companion table's row judges it
    # (0.24 needs 2.16), and its release for 2.15, 0.23, comes from conda-forge as 0.24 did.
    tfp = ("tensorflow-probability", "0.24.0")
    facts = in_conda(
        CondaPackage(*tfp, "pyhd8ed1ab_0", "conda-forge"),
        packages=(f.pkg(*tfp, "absl-py", "numpy>=1.13.3"),),
    )
    found = [x for x in _judge(facts) if x.cause == "companion-mismatch"]
    assert found and found[0].fix is not None
    assert found[0].fix.commands == ('conda install -c conda-forge "tensorflow-probability=0.23"',)
    after = f.apply_conda(facts, found[0].fix.commands)
    assert after is not None
    assert not [x for x in _judge(after) if x.cause == "companion-mismatch"]


def test_a_table_after_the_list_is_not_read_as_conda_s_rows() -> None:
    # `pip list --outdated` prints four columns too (Package Version Latest Type): its rows
    # after conda's list are pip's table, not packages from a channel called "wheel".
    text = (
        _conda_list("python 3.11.9 h955ad1f_0", "tensorflow 2.15.0 pypi_0 pypi")
        + "$ pip list --outdated\nPackage Version Latest Type\n------- ------- ------ -----\n"
        "numpy   2.0.1   2.1.0  wheel\n\n" + _ABI
    )
    assert _commands(text, "numpy-abi") == ('pip install "numpy<2.0.0,>=1.23.5"',)


def test_a_row_the_list_reader_skips_does_not_end_the_list() -> None:
    # conda 4.5 and older print pip's packages as `<pip>` rows, inside the list: the rows
    # after one are still conda's.
    rows = ("keras 2.15.0 <pip>", "numpy 2.0.1 py311h1461a6b_0 conda-forge")
    assert conda_channels(_conda_list(*rows)) == {"numpy": "conda-forge"}


def test_an_upgrade_of_conda_s_package_is_conda_s_update_from_its_channel() -> None:
    m = Machine(
        in_conda(
            CondaPackage("numba", "0.56.4", "py311h", "conda-forge"),
            packages=(f.pkg("numba", "0.56.4"), f.pkg("scipy", "1.11.4")),
        ),
        f.FIXTURE_MATRIX,
    )
    assert m.upgrade("numba") == ("conda update -c conda-forge numba",)
    assert m.upgrade("scipy") == (f"{PREFIX}/bin/python -m pip install --upgrade scipy",)


def test_numba_s_numpy_pin_upgrades_numba_with_the_installer_its_row_shows() -> None:
    # numba's import-time check (numba/__init__.py, _ensure_critical_deps): the fix installs
    # NumPy in its range or upgrades numba, each by the installer that installed it.
    text = _conda_list(
        "numba 0.55.2 py310h4bd325d_0 conda-forge", "numpy 1.23.5 py310h53a5b5f_0 conda-forge"
    ) + (
        "Traceback (most recent call last):\n"
        '  File "/home/u/miniconda3/envs/ml/lib/python3.10/site-packages/numba/__init__.py",'
        " line 140, in _ensure_critical_deps\n"
        '    raise ImportError("Numba needs NumPy 1.22 or less")\n'
        "ImportError: Numba needs NumPy 1.22 or less\n"
    )
    commands = _commands(text, "library-pin-conflicts")
    assert 'conda install -c conda-forge "numpy<1.23"' in commands, commands
    assert "conda update -c conda-forge numba" in commands, commands
    assert not [c for c in commands if "pip install" in c], commands


def _abi_in(site_packages: str) -> str:
    """NumPy's refusal under the TensorFlow of the site-packages ``site_packages``."""
    return _ABI.replace("/home/u/miniconda3/envs/ml/lib/python3.11/site-packages", site_packages)


@pytest.mark.parametrize(
    ("site_packages", "expected"),
    [
        pytest.param(
            "/home/u/miniconda3/envs/ml/lib/python3.11/site-packages",
            'conda install -c conda-forge "numpy<2.0.0,>=1.23.5"',
            id="the-listed-environment",
        ),
        # A virtual environment made beside conda's: conda's list is not what runs.
        pytest.param(
            "/home/u/venv/lib/python3.11/site-packages",
            'pip install "numpy<2.0.0,>=1.23.5"',
            id="a-virtual-environment",
        ),
        # Another of conda's environments under the listed one (base holds envs/).
        pytest.param(
            "/home/u/miniconda3/envs/ml/envs/other/lib/python3.11/site-packages",
            'pip install "numpy<2.0.0,>=1.23.5"',
            id="an-environment-under-it",
        ),
    ],
)
def test_conda_s_list_decides_the_installer_of_its_own_environment_only(
    site_packages: str, expected: str
) -> None:
    rows = ("numpy 2.0.1 py311h1461a6b_0 conda-forge", "tensorflow 2.15.0 pypi_0 pypi")
    text = _conda_list(*rows) + _abi_in(site_packages)
    assert _commands(text, "numpy-abi") == (expected,)


@pytest.mark.parametrize(
    ("prefix", "site_packages", "inside"),
    [
        ("/opt/conda", "/opt/conda/lib/python3.10/site-packages", True),
        ("C:\\Users\\u\\Anaconda3", "c:\\users\\u\\anaconda3\\Lib\\site-packages", True),
        ("/opt/conda", "/opt/conda/envs/tf/lib/python3.10/site-packages", False),
        ("/opt/conda", "/opt/conda2/lib/python3.10/site-packages", False),
    ],
)
def test_a_site_packages_is_its_environment_s_own(
    prefix: str, site_packages: str, inside: bool
) -> None:
    assert in_environment(prefix, site_packages) is inside


def test_a_package_of_no_known_channel_is_installed_from_the_configured_ones() -> None:
    # conda records a local file's package under the channel "<unknown>": no channel to
    # install from, and a redirection to a shell.
    m = Machine(in_conda(CondaPackage("numpy", "2.1.0", "py311h", "<unknown>")), f.FIXTURE_MATRIX)
    assert m.install("numpy<2") == ('conda install "numpy<2"',)
    assert m.upgrade("numpy") == ("conda update numpy",)


def test_a_pin_of_another_library_moves_conda_s_package_with_conda() -> None:
    # numba's llvmlite and Keras 2's TensorFlow: the same range fixes, by the installer that
    # installed each package.
    llvmlite = CondaPackage("llvmlite", "0.38.1", "py311h", "conda-forge")
    keras = CondaPackage("keras", "2.15.0", "pyhd8ed1ab_0", "conda-forge")
    m = Machine(in_conda(llvmlite, keras), f.FIXTURE_MATRIX)
    fix = numba_llvmlite_fix(m, "0.56.4", ">=0.39.0dev0,<0.40")
    assert fix.commands == ('conda install -c conda-forge "llvmlite>=0.39.0dev0,<0.40"',)
    assert m.install("tensorflow<2.13", "keras<2.13") == (
        'conda install -c conda-forge "keras<2.13"',
        f'{PIP} "tensorflow<2.13"',
    )


def test_protobuf_s_broken_files_are_installed_again_by_its_installer() -> None:
    # protobuf's compiled backend found as a bare directory: installed again over its files,
    # with conda where conda installed it (conda install's --force-reinstall and --no-deps).
    text = _conda_list("protobuf 4.21.12 py311h_0 conda-forge", "tensorflow 2.15.0 pypi_0 pypi") + (
        "Traceback (most recent call last):\n"
        '  File "/home/u/miniconda3/envs/ml/lib/python3.11/site-packages/google/protobuf/'
        'internal/api_implementation.py", line 5, in <module>\n'
        "    from google._upb import _message\n"
        "ImportError: cannot import name '_message' from 'google._upb' (unknown location)\n"
    )
    (command,) = _commands(text, "protobuf-incompatible")
    assert command.startswith("conda install -c conda-forge --force-reinstall --no-deps "), command
    assert '"protobuf' in command and "pip" not in command
