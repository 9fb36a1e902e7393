"""pip's empty list of TensorFlow's releases (``from versions: none``) read with its other
candidates: the reading given first, then, as warnings, the causes the log leaves open (the
pinned release alone, a 32-bit interpreter, a pip too old for macOS 11's tags); and Apple's
tensorflow-macos, whose wheels carry macOS 11 tags only."""

from __future__ import annotations

from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text, top_error
from tfdoctor import causes
from tfdoctor.evidence import pip as pip_evidence
from tfdoctor.evidence.pip import read_machine, read_python_64bit
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.machine import Machine


def _refusal(requirement: str, origin: str = "", prefix: str = "ERROR: ") -> str:
    """pip's two lines for a requirement it found no release of at all."""
    origin = f" ({origin})" if origin else ""
    return (
        f"{prefix}Could not find a version that satisfies the requirement {requirement}{origin} "
        "(from versions: none)\n"
        f"{prefix}No matching distribution found for {requirement}\n"
    )


def _of(report: Report, cause: str) -> Optional[Finding]:
    return next((x for x in report.findings if x.cause == cause), None)


def _candidate(report: Report, cause: str) -> Finding:
    found = _of(report, cause)
    assert found is not None, [x.id for x in report.findings]
    assert found.severity == Severity.WARNING
    assert found.summary.startswith("Or: ")
    return found


def test_a_users_pin_has_the_pinned_release_as_its_other_candidate() -> None:
    report = explained(_refusal("tensorflow==1.10.0"))
    assert top_error(report).cause == "tf-no-wheel-for-python"
    other = _candidate(report, "tf-release-not-for-python")
    # TensorFlow 1.10.0's files: cp27, cp33-cp36 (the matrix's early releases).
    assert "Python 3.6" in fix_text(other)


def test_a_dependants_pin_has_no_release_at_all_as_its_other_candidate() -> None:
    report = explained(_refusal("tensorflow==1.10.0", "from some_app"))
    assert top_error(report).cause == "tf-release-not-for-python"
    other = _candidate(report, "tf-no-wheel-for-python")
    assert "64-bit CPython" in fix_text(other)


def test_a_pin_whose_release_fits_the_python_shown_has_no_release_candidate() -> None:
    # Python 3.6 has wheels of 1.10.0: the pin is not what pip refused for.
    shown = "Using pip 18.1 from /home/u/venv/lib/python3.6/site-packages/pip (python 3.6)\n"
    report = explained(shown + _refusal("tensorflow==1.10.0"))
    assert _of(report, "tf-release-not-for-python") is None


@pytest.mark.parametrize(
    "before",
    [
        pytest.param("", id="nothing-shown"),
        pytest.param("(venv) C:\\Users\\u\\proj>pip install tensorflow\n", id="windows"),
        pytest.param(
            "C:\\Users\\u>python --version\nPython 3.7.4\n", id="windows-python-with-wheels"
        ),
    ],
)
def test_no_release_at_all_has_a_32bit_python_as_its_other_candidate(before: str) -> None:
    report = explained(before + _refusal("tensorflow"))
    assert top_error(report).cause == "tf-no-wheel-for-python"
    other = _candidate(report, "python-32bit")
    assert "64-bit" in fix_text(other)
    assert other.fix is not None
    assert "struct.calcsize" in other.fix.commands[0]


@pytest.mark.parametrize(
    "before",
    [
        pytest.param("user@MacBook-Pro proj % pip install tensorflow\n", id="a-mac"),
        pytest.param(
            "Requirement already satisfied: scipy in /Users/u/miniforge3/envs/x/lib/python3.8/"
            "site-packages (from gpflow) (1.8.0)\n",
            id="a-mac-path-on-another-line",
        ),
        pytest.param(
            "Using pip 25.2 from /home/u/venv/lib/python3.15/site-packages/pip (python 3.15)\n",
            id="a-python-without-wheels",
        ),
        pytest.param(
            "Linux gpu 5.15.0-86-generic #96-Ubuntu SMP x86_64 x86_64 x86_64 GNU/Linux\n",
            id="a-64-bit-linux-machine",
        ),
    ],
)
def test_a_mac_a_python_without_wheels_or_a_64bit_machine_has_no_32bit_candidate(
    before: str,
) -> None:
    report = explained(before + _refusal("tensorflow"))
    assert _of(report, "python-32bit") is None


def test_an_old_pip_where_the_system_may_be_macos_is_the_other_candidate() -> None:
    # Homebrew's Python on an Intel Mac lives under /usr/local, as a source-built one on Linux.
    shown = "Using pip 20.2.4 from /usr/local/lib/python3.8/site-packages/pip (python 3.8)\n"
    report = explained(_refusal("tensorflow") + shown)
    other = _candidate(report, "pip-too-old")
    assert "20.3" in fix_text(other)
    assert other.fix is not None
    assert "python -m pip install --upgrade pip" in other.fix.commands


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param(
            "Using pip 20.3.1 from /usr/local/lib/python3.8/site-packages/pip (python 3.8)\n",
            id="a-pip-that-reads-macos-11",
        ),
        pytest.param(
            "Using pip 20.2.4 from /usr/lib/python3/dist-packages/pip (python 3.8)\n",
            id="a-linux-python",
        ),
    ],
)
def test_no_old_pip_candidate_where_pip_reads_macos_11_or_the_system_is_linux(
    shown: str,
) -> None:
    report = explained(_refusal("tensorflow") + shown)
    assert _of(report, "pip-too-old") is None


def test_tensorflow_macos_with_no_release_names_its_macos_11_tags() -> None:
    report = explained(_refusal("tensorflow-macos"))
    top = top_error(report)
    assert top.cause == "tf-no-wheel-for-python"
    text = fix_text(top)
    assert "macOS 11" in text
    assert "10.16" in text
    assert top.fix is not None
    assert "SYSTEM_VERSION_COMPAT=0 python -m pip install tensorflow-macos" in top.fix.commands


def test_tensorflow_macos_on_a_python_it_has_no_wheels_for_names_its_pythons() -> None:
    shown = "Using pip 23.0 from /Users/u/venv/lib/python3.7/site-packages/pip (python 3.7)\n"
    top = top_error(explained(shown + _refusal("tensorflow-macos")))
    text = fix_text(top)
    assert "for Python 3.7" in text
    assert "CPython 3.8 to 3.12" in text
    assert "SYSTEM_VERSION_COMPAT" not in text


@pytest.mark.parametrize(
    ("prompt", "requirement", "system", "install"),
    [
        pytest.param(
            "user@box:~$ ", "tensorflow-macos==2.12.0", "Linux", "tensorflow==2.12.0", id="linux"
        ),
        pytest.param(
            "PS C:\\Users\\me> ", "tensorflow-macos", "Windows", "tensorflow", id="windows"
        ),
    ],
)
def test_tensorflow_macos_asked_for_on_another_system_is_replaced_by_tensorflow(
    prompt: str, requirement: str, system: str, install: str
) -> None:
    """Apple's build has macOS wheels only: on Linux or Windows no Python, pip or macOS tag
    explains the empty list, and the fix installs TensorFlow's own distribution."""
    top = top_error(explained(f"{prompt}pip install {requirement}\n" + _refusal(requirement)))
    assert top.cause == "tf-no-wheel-for-python"
    text = fix_text(top)
    assert f"pip on {system} lists none" in text
    assert f"`{install}`" in text
    assert 'sys_platform == "darwin"' in text
    assert "10.16" not in text and "SYSTEM_VERSION_COMPAT" not in text


#: tensorflow-macos asked for on Linux beside what the log shows there: the lines shown, the
#: requirement, words the fix says and the command it ends with (none where no install fits).
_MACOS_ONLY_ON_LINUX = {
    # The pin stays where its line has the machine's wheels; TensorFlow's aarch64 wheels start
    # at 2.10 (a Linux container on an Apple silicon Mac).
    "x86-64-pinned": ("$ uname -m\nx86_64\n", "tensorflow-macos==2.9.0", (), '"tensorflow==2.9.0"'),
    "aarch64-unpinned": ("$ uname -m\naarch64\n", "tensorflow-macos==2.9.0", (), '"tensorflow"'),
    # Machines `tensorflow` has no Linux wheel for either: their own way, no install.
    "ppc64le": (
        "$ uname -m\nppc64le\n",
        "tensorflow-macos==2.12.0",
        ("no wheel for Linux ppc64le either", "Build TensorFlow from source"),
        None,
    ),
    "armv7l": (
        "$ uname -m\narmv7l\n",
        "tensorflow-macos==2.12.0",
        ("no wheel for Linux armv7l either", "32-bit Arm"),
        None,
    ),
    # Read before a pip too old for manylinux2010 and a range's Pythons.
    "old-pip": (
        "$ pip --version\npip 9.0.1 from /usr/lib/python3/dist-packages (python 3.6)\n",
        "tensorflow-macos==2.12.0",
        ("pip on Linux lists none",),
        '"tensorflow==2.12.0"',
    ),
    "range": (
        "$ python3 --version\nPython 3.12.1\n",
        "tensorflow-macos>=2.9,<2.13",
        ("pip on Linux lists none",),
        '"tensorflow"',
    ),
}


@pytest.mark.parametrize("case", sorted(_MACOS_ONLY_ON_LINUX))
def test_tensorflow_macos_on_linux_reads_the_machine_and_comes_first(case: str) -> None:
    shown, requirement, words, install = _MACOS_ONLY_ON_LINUX[case]
    text = f"{shown}user@box:~$ pip install '{requirement}'\n" + _refusal(requirement)
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python" and top.fix is not None
    assert all(w in top.fix.text for w in words), top.fix.text
    if install is None:
        assert not any("install" in c for c in top.fix.commands), top.fix.commands
    else:
        assert top.fix.commands[-1].endswith(f"install {install}"), top.fix.commands


def test_a_macos_only_plugin_on_another_system_is_left_out_not_pinned_as_tensorflow() -> None:
    """tensorflow-metal's releases (0.x, 1.x) are not TensorFlow's: its pin names no
    TensorFlow release, and nothing replaces it on Linux."""
    fix = causes.platform.macos_only_dist_fix(
        Machine(f.facts(), f.FIXTURE_MATRIX), "tensorflow-metal", "linux", "1.0.0"
    )
    assert "tensorflow==" not in fix.text and "leave it out" in fix.text, fix.text
    assert fix.commands[-1].endswith('pip install "tensorflow"'), fix.commands


@pytest.mark.parametrize(
    ("text", "machine"),
    [
        pytest.param(
            "Linux nano 4.9.140-tegra #1 SMP PREEMPT Fri Oct 16 12:32:46 PDT 2020 aarch64 "
            "aarch64 aarch64 GNU/Linux\n",
            "aarch64",
            id="uname-a",
        ),
        pytest.param("$ uname -m\nppc64le\n", "ppc64le", id="uname-m"),
        pytest.param("Linux-5.10.0-21-arm64-aarch64-with-glibc2.31\n", "aarch64", id="platform"),
        pytest.param("Building for x86_64 and aarch64 targets\n", None, id="prose"),
        # uname -a's fields, not an architecture a sentence puts beside "GNU/Linux".
        pytest.param("Does TensorFlow run on i686 GNU/Linux at all?\n", None, id="prose-gnu"),
        pytest.param(
            "Linux raspberrypi 5.10.103-v7l+ #1529 SMP Tue Mar 8 12:24:00 GMT 2022 armv7l "
            "GNU/Linux\n",
            "armv7l",
            id="uname-a-armv7l",
        ),
        pytest.param("$ uname -m\narmv8l\n", None, id="not-a-named-machine"),
        pytest.param(
            "Python 3.13.0 (tags/v3.13.0:60403a5, Oct  7 2024, 09:38:07) [MSC v.1941 64 bit "
            "(AMD64)] on win32\n",
            "x86_64",
            id="windows-64bit-banner",
        ),
        pytest.param(
            "Python 3.7.3 (v3.7.3:ef4ec6ed12, Mar 25 2019, 21:26:53) [MSC v.1916 32 bit "
            "(Intel)] on win32\n",
            None,
            id="windows-32bit-banner",
        ),
    ],
)
def test_read_machine_reads_unames_and_platforms_words(text: str, machine: object) -> None:
    assert read_machine(text) == machine


@pytest.mark.parametrize("name", pip_evidence._ARCH_NAMES)
def test_every_named_machine_passes_the_plain_search_and_the_expression(name: str) -> None:
    # One table serves both: a name the expression reads is never cut by the search before it.
    assert read_machine(f"$ uname -m\n{name}\n") == name
    assert read_machine(f"Linux-6.1.0-{name}-with-glibc2.36\n") == name


_JETSON = "Linux nano 4.9.140-tegra #1 SMP PREEMPT aarch64 aarch64 aarch64 GNU/Linux\n"


@pytest.mark.parametrize(
    ("shown", "requirement", "cause", "words"),
    [
        pytest.param(
            _JETSON + "$ python3 --version\nPython 3.6.9\n",
            "tensorflow",
            "tf-no-wheel-for-python",
            ("Linux aarch64", "Python 3.6.9 has none there"),
            id="aarch64-python-without-wheels",
        ),
        pytest.param(
            _JETSON + "pip 18.1 from /usr/lib/python3/dist-packages/pip (python 3.7)\n",
            "tensorflow",
            "pip-too-old",
            ("manylinux2014", "19.3"),
            id="aarch64-pip-before-19.3",
        ),
        pytest.param(
            _JETSON + "$ python3 --version\nPython 3.8.10\n",
            "tensorflow==1.15",
            "tf-no-wheel-for-python",
            ("TensorFlow 1.15 publishes no Linux aarch64 wheel", "start at 2.10"),
            id="aarch64-pin-before-its-wheels",
        ),
        # TensorFlow's install guide starts its Linux aarch64 builds at 2.10 (AWS's
        # tensorflow-cpu-aws, which the tensorflow wheel installs there): a 2.9 pin is told to
        # move to 2.10 of `tensorflow`, no third party's distribution.
        pytest.param(
            _JETSON + "$ python3 --version\nPython 3.8.10\n",
            "tensorflow==2.9.1",
            "tf-no-wheel-for-python",
            ("TensorFlow 2.9.1 publishes no Linux aarch64 wheel", "start at 2.10"),
            id="aarch64-pin-of-2.9",
        ),
        pytest.param(
            "Linux-5.14.0-ppc64le-with-glibc2.34\n",
            "tensorflow",
            "tf-no-wheel-for-python",
            ("Linux ppc64le", "from source"),
            id="ppc64le",
        ),
        # uname -m's answer alone on its line is the kernel's own word, as uname -a's is: a
        # 32-bit system, which no Python and no pin changes.
        pytest.param(
            "pi@raspberrypi:~ $ uname -m\narmv7l\npi@raspberrypi:~ $ python3 --version\n"
            "Python 3.11.2\n",
            "tensorflow",
            "python-32bit",
            ("32-bit Arm (armv7l)", "aarch64"),
            id="uname-m-32bit-arm",
        ),
        pytest.param(
            "$ uname -m\ni686\n",
            "tensorflow==2.15.0",
            "python-32bit",
            ("32-bit x86 (i686)", "x86-64"),
            id="uname-m-32bit-x86",
        ),
    ],
)
def test_a_linux_machine_shown_decides_why_no_release_fits(
    shown: str, requirement: str, cause: str, words: tuple[str, ...]
) -> None:
    report = explained(shown + _refusal(requirement))
    top = top_error(report)
    assert top.cause == cause
    assert all(w in fix_text(top) for w in words)
    # A 64-bit machine other than a Pi's kernel: no 32-bit candidate.
    assert "ppc64le" not in shown or _of(report, "python-32bit") is None


@pytest.mark.parametrize(
    "requirement",
    [
        pytest.param("tensorflow>=2.7.2", id="a-range"),
        pytest.param("tensorflow==1.15.5+nv21.7", id="a-local-version-pin"),
    ],
)
def test_a_request_with_a_specifier_has_no_32bit_candidate(requirement: str) -> None:
    assert _of(explained(_refusal(requirement)), "python-32bit") is None


@pytest.mark.parametrize(
    ("wheel", "words", "compat"),
    [
        pytest.param(
            "numpy-1.18.5-cp38-cp38-macosx_11_0_x86_64.whl",
            ("An x86_64 macOS wheel", "macOS 11.0 or later", "10.16"),
            True,
            id="macos-11-tag",
        ),
        pytest.param(
            "tensorflow-2.3.1-cp37-cp37m-macosx_10_9_x86_64.whl",
            ("an arm64 Python on Apple silicon takes none", "macOS 10.9 or later"),
            False,
            id="macos-10-tag",
        ),
    ],
)
def test_a_refused_macos_wheel_says_what_its_tag_needs(
    wheel: str, words: tuple[str, ...], compat: bool
) -> None:
    top = top_error(explained(f"ERROR: {wheel} is not a supported wheel on this platform.\n"))
    assert top.cause == "wheel-mismatch"
    text = fix_text(top)
    assert all(w in text for w in words)
    assert ("SYSTEM_VERSION_COMPAT=0" in text) is compat
    assert "platform.mac_ver()" in text


# --- a library's requirement of the name `tensorflow` on a Mac ----------------------------

_MINIFORGE = "/Users/me/miniforge3/envs/lab/lib/python3.9/site-packages"


def _library_refusal(requirer: str = "from somelib", python: str = "python3.9") -> str:
    return (
        "Collecting somelib==1.0.0\n"
        f"Requirement already satisfied: scipy in {_MINIFORGE.replace('python3.9', python)} "
        "(from somelib==1.0.0) (1.8.0)\n" + _refusal("tensorflow>=2.4.0", requirer)
    )


def test_a_librarys_tensorflow_refused_on_a_mac_adds_the_distribution_name_candidate() -> None:
    report = explained(_library_refusal())
    # The reading given stays first: no TensorFlow for this interpreter.
    assert top_error(report).cause == "tf-no-wheel-for-python"
    found = _of(report, "tf-distribution-unrecognised")
    assert found is not None and found.severity is Severity.WARNING
    fix = fix_text(found)
    assert "pip install --no-deps somelib" in fix and "tensorflow-macos" in fix
    # The first line whose `tensorflow` has macOS arm64 wheels (the matrix), not an older one.
    assert "TensorFlow 2.13 or later" in fix


def test_the_name_candidate_needs_a_library_a_mac_and_a_python_apples_build_has() -> None:
    asked = _library_refusal(requirer="")
    linux = _library_refusal().replace("/Users/me", "/home/me")
    intel = "Platform: macOS-12.6-x86_64-i386-64bit\n" + _library_refusal()
    # tensorflow-macos never had Python 3.7 wheels (the bundled index).
    py37 = "$ python --version\nPython 3.7.9\n" + _library_refusal(python="python3.7")
    for text in (asked, linux, intel, py37):
        assert _of(explained(text), "tf-distribution-unrecognised") is None, text


# pip's refusal where platform.platform() (or uname) shows an arm64 Python on macOS: the
# tensorflow distribution's macOS arm64 wheels start with the matrix's first such line.
_ARM64 = "Platform: macOS-12.6-arm64-arm-64bit\nPython version: 3.10.8\n"
_INTEL = "Platform: macOS-12.6-x86_64-i386-64bit\nPython version: 3.10.8\n"


def test_a_pin_before_apple_silicons_wheels_is_tensorflow_macos_of_that_release() -> None:
    report = explained(_ARM64 + _refusal("tensorflow==2.11.0"))
    top = top_error(report)
    assert top.cause == "tf-no-wheel-for-python"
    text = fix_text(top)
    assert "tensorflow-macos==2.11.0" in text and "2.13" in text
    # The Pythons of other platforms' wheels are no candidate on Apple silicon.
    assert not [x for x in report.findings if x.summary.startswith("Or:")]


def test_no_release_at_all_on_apple_silicon_names_the_first_arm64_line() -> None:
    top = top_error(explained(_ARM64 + _refusal("tensorflow>=2.3")))
    assert top.cause == "tf-no-wheel-for-python"
    text = fix_text(top)
    assert "2.13" in text and "tensorflow-macos" in text and "32-bit" not in text
    # Its arm64 wheels are tagged macosx_12_0 (2.13.0 on PyPI; 2.16.2 in
    # tests/data/pypi/simple-tensorflow.json): macOS 11 is a reason pip lists none.
    assert "macOS 12 or later" in text and "macOS 11 or later" not in text


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(_INTEL + _refusal("tensorflow==2.11.0"), id="intel-python"),
        pytest.param(_ARM64 + _refusal("tensorflow<2.10"), id="range-before-arm64"),
        pytest.param(
            _ARM64.replace("3.10.8", "3.7.9") + _refusal("tensorflow==2.11.0"),
            id="python-without-arm64-wheels",
        ),
    ],
)
def test_apple_silicons_reading_needs_an_arm64_python_and_a_release_it_could_have(
    text: str,
) -> None:
    assert "tensorflow-macos==" not in fix_text(top_error(explained(text)))


@pytest.mark.parametrize(
    ("text", "versions", "shown"),
    [
        pytest.param(
            "Could not find a version that matches tensorflow==2.5.0\n"
            "Tried: 2.12.0, 2.12.0, 2.13.0\nSkipped pre-versions: 2.14.0rc0\n",
            ("2.12.0", "2.13.0", "2.14.0rc0"),
            True,
            id="tried",
        ),
        pytest.param(
            "Could not find a version that matches tensorflow>=2.16 (from -r x.in (line 2))\n"
            "No versions found\nWas https://pypi.org/simple reachable?\n",
            (),
            True,
            id="none",
        ),
        pytest.param(
            "Could not find a version that matches tensorflow==2.5.0\n"
            "Tried: (no version found at all)\n",
            (),
            True,
            id="before-5.0",
        ),
        pytest.param(
            "Could not find a version that matches tensorflow==2.5.0\n", (), False, id="cut"
        ),
    ],
)
def test_pip_tools_refusal_is_read_as_pips_with_the_versions_it_tried(
    text: str, versions: tuple[str, ...], shown: bool
) -> None:
    (refusal,) = pip_evidence.read_refusals([text])
    assert (refusal.dist, refusal.versions, refusal.shown) == ("tensorflow", versions, shown)


def test_pip_tools_refusal_of_a_pin_its_finder_did_not_list_names_the_releases_pythons() -> None:
    text = (
        "[pipenv.exceptions.ResolutionFailure]: Warning: Your dependencies could not be "
        "resolved.\nERROR: Could not find a version that matches tensorflow==2.5.0\n"
        "Tried: 2.12.0, 2.13.0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    assert "2.13.0" in fix_text(top) and "Python 3.9" in fix_text(top)


_BANNER_313 = (
    "Python 3.13.0 (tags/v3.13.0:60403a5, Oct  7 2024, 09:38:07) [MSC v.1941 64 bit (AMD64)] "
    "on win32\n"
)


def test_a_python_newer_than_every_earlier_release_names_the_first_line_built_for_it() -> None:
    report = explained(_BANNER_313 + _refusal("tensorflow"))
    top = top_error(report)
    assert top.cause == "tf-no-wheel-for-python"
    text = fix_text(top)
    # The banner's version, the first line with its wheels and the Python before it.
    assert "Python 3.13.0" in text and "from 2.20 on" in text and "Python 3.12" in text
    # The banner's 64-bit build keeps the 32-bit candidate out, of the reading's words too.
    assert _of(report, "python-32bit") is None
    assert "32-bit" not in text and "32 bits" not in text and "platform" in text
    assert 'pip install "tensorflow>=2.20"' in text


@pytest.mark.parametrize(
    ("banner", "wide"),
    [
        pytest.param(_BANNER_313, True, id="amd64"),
        pytest.param(_BANNER_313.replace("(AMD64)", "(ARM64)"), True, id="arm64"),
        pytest.param(
            "Python 3.8.10 (tags/v3.8.10:3d8993a, May  3 2021, 11:34:34) [MSC v.1928 32 bit "
            "(Intel)] on win32\n",
            False,
            id="intel-32bit",
        ),
        pytest.param("Python 3.12.3 (main, Apr 10 2024, 05:33:47) [GCC 13.2.0] on linux\n", False),
    ],
)
def test_a_banner_shows_a_64bit_build_only_in_its_own_words(banner: str, wide: bool) -> None:
    assert read_python_64bit(banner) is wide


def test_a_python_newer_than_earlier_lines_keeps_the_32bit_and_platform_readings() -> None:
    shown = "$ python --version\nPython 3.10.4\n"
    text = fix_text(top_error(explained(shown + _refusal("tensorflow"))))
    assert "from 2.8 on" in text and "32-bit" in text and "platform" in text


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param(
            "C:\\Users\\me> pip --version\npip 24.2 from C:\\Users\\me\\AppData\\Local\\Programs"
            "\\Python\\Python313\\Lib\\site-packages\\pip (python 3.13)\n",
            id="pip-version",
        ),
        pytest.param(_BANNER_313, id="banner"),
    ],
)
def test_the_python_pip_runs_in_is_read_from_its_version_line_and_the_banner(shown: str) -> None:
    text = fix_text(top_error(explained(shown + _refusal("tensorflow"))))
    assert "Python 3.13" in text and "from 2.20 on" in text


def test_pips_end_of_life_warning_names_the_python_it_runs_in() -> None:
    warning = (
        "DEPRECATION: Python 2.7 reached the end of its life on January 1st, 2020. Please "
        "upgrade your Python as Python 2.7 is no longer maintained.\n"
    )
    assert "Python 2.7" in fix_text(top_error(explained(warning + _refusal("tensorflow"))))


def test_pip_tools_requirements_that_exclude_each_other_are_no_missing_wheel() -> None:
    # pip-tools joins the requirements on a name: each part admits a release it tried, none
    # admits both, so the releases exist for this Python and the requirements clash.
    text = (
        "Could not find a version that matches tensorflow<2.14,>=2.15 (from -r requirements.in "
        "(line 1))\nTried: 2.12.0, 2.13.0, 2.13.1, 2.14.0, 2.15.0, 2.15.1\n"
        "There are incompatible versions in the resolved dependencies:\n"
        "  tensorflow>=2.15 (from -r requirements.in (line 1))\n"
        "  tensorflow<2.14 (from tensorflow-text==2.13.0->-r requirements.in (line 2))\n"
    )
    assert pip_evidence.read_refusals([text]) == []
    found = {x.cause for x in explained(text).findings}
    assert not found & {"tf-no-wheel-for-python", "tf-release-not-for-python"}
    # A range none of whose releases it tried is still pip-tools' refusal of a missing wheel.
    (refusal,) = pip_evidence.read_refusals(
        [text.replace("tensorflow<2.14,>=2.15", "tensorflow<2.17,>=2.16")]
    )
    assert refusal.spec == "<2.17,>=2.16"
