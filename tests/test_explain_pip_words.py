"""pip's own words when it finds nothing to install: the distribution it names, the releases it
lists, the specifier asked for and the file it could not fetch decide between no release at
all for this Python and platform (tf-no-wheel-for-python) and no file of the release asked for
(tf-release-not-for-python), and the fix names what would install."""

from __future__ import annotations

import re
from typing import Optional

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.packages import read_conda_missing_releases
from tfdoctor.evidence.pip import (
    read_first_platform,
    read_missing_wheel,
    read_unmatched,
    requested_version,
)
from tfdoctor.signatures import load_signatures
from tfdoctor.wheel_index import wheel_index

_NO_LIST = (
    "Collecting dm-reverb\n"
    "ERROR: Could not find a version that satisfies the requirement dm-reverb "
    "(from versions: none)\n"
    "ERROR: No matching distribution found for dm-reverb\n"
)


def test_a_companion_without_any_release_for_this_python_is_named_with_its_pythons() -> None:
    top = top_error(explained(_NO_LIST))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    # The bundled index of PyPI's files: dm-reverb's newest release and what it publishes.
    newest = wheel_index()["dm-reverb"][-1]
    assert newest.version in fix and newest.describe() in fix


def test_a_range_pip_lists_other_releases_for_is_the_release_not_for_this_python() -> None:
    text = (
        "Looking in indexes: https://pypi.org/simple, https://google-coral.github.io/py-repo/\n"
        "ERROR: Could not find a version that satisfies the requirement pycoral~=2.0 "
        "(from versions: 0.0.5, 0.0.9, 0.1.0)\n"
        "ERROR: No matching distribution found for pycoral~=2.0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert "~=2.0" in fix and "0.1.0" in fix
    # pycoral carries a native library: not a pure-Python package the module table knows.
    assert "pure" not in fix
    # Coral's own index (the bundled one's pycoral rows): 2.0's Pythons, and PyPI's 0.x
    # releases, another project's, are not offered.
    newest = wheel_index()["pycoral"][-1]
    assert newest.version == "2.0.0" and newest.describe() in fix and "3.9" in fix
    assert "another project's" in fix and "relax the pin" not in fix


def test_a_companion_whose_listed_releases_are_its_own_may_relax_the_pin() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow-io==0.99.0 "
        "(from versions: 0.30.0, 0.31.0)\n"
    )
    # pip's releases are ones the index lists: the pin may move to them.
    assert "relax the pin" in fix_text(top_error(explained(text)))
    assert "another project's" not in fix_text(top_error(explained(text)))


def test_a_published_range_pip_found_no_file_of_is_the_release_not_for_this_python() -> None:
    # Only pip's last line: the requirement as asked, no list of versions.
    text = "ERROR: No matching distribution found for tensorflow-text~=2.16.1\n"
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    # What the release asked for publishes (the bundled index), and where Windows' ended.
    assert "tensorflow-text 2.16" in fix and "Windows" in fix
    # Its Linux wheels run under WSL2 on Windows, where its Windows wheels ended.
    assert "WSL2" in fix


def test_a_range_no_release_exists_for_stays_a_companion_without_wheels() -> None:
    text = "ERROR: No matching distribution found for tensorflow-text==9.9.9\n"
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    assert "No release of tensorflow-text" in fix_text(top)


def test_a_wheel_address_that_answers_not_found_is_a_file_never_published() -> None:
    url = "https://storage.googleapis.com/tensorflow/windows/cpu/tensorflow-1.9.1-cp36-cp36m-win_amd64.whl"
    text = (
        f"Could not install requirement tensorflow==1.9.1 from {url} because of error 404 "
        f"Client Error: Not Found for url: {url}\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert "tensorflow-1.9.1-cp36-cp36m-win_amd64.whl" in fix and "CPython 3.6" in fix
    assert "404" in fix and "pip install" in fix


@pytest.mark.parametrize(
    "text",
    [
        # The same 404 for a file that is no wheel (a project's archive), or no TensorFlow's.
        "Could not install requirement foo==1.0 from https://example.org/foo-1.0.tar.gz "
        "because of error 404 Client Error: Not Found for url: https://example.org/foo-1.0.tar.gz",
        "Could not install requirement numpy==1.0 from https://example.org/numpy-1.0-cp36-cp36m-"
        "win_amd64.whl because of error 404 Client Error: Not Found for url: "
        "https://example.org/numpy-1.0-cp36-cp36m-win_amd64.whl",
        # A 404 of another client (pip's refusal of a package outside TensorFlow's family is
        # that package's: tests/test_explain_package_refusals.py).
        "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: "
        "https://storage.googleapis.com/tensorflow/models/x.h5",
    ],
    ids=["archive", "other-wheel", "other-client"],
)
def test_the_same_words_elsewhere_are_not_these_causes(text: str) -> None:
    causes = {x.cause for x in explained(text + "\n").findings}
    assert not causes & {"tf-release-not-for-python", "tf-no-wheel-for-python"}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "ERROR: No matching distribution found for tensorflow-text~=2.16.1",
            ("tensorflow-text", "~=2.16.1"),
        ),
        (
            "No matching distribution found for tensorflow==1.10.0 (from rasa_core)",
            ("tensorflow", "==1.10.0"),
        ),
        ("ERROR: No matching distribution found for Dm_Reverb", ("dm-reverb", "")),
        ("ERROR: Could not find a version", None),
    ],
    ids=["compatible", "pinned-from", "any-version", "other"],
)
def test_read_unmatched(line: str, expected: object) -> None:
    assert read_unmatched(line) == expected


def test_read_missing_wheel_reads_the_tags_of_the_file_not_found() -> None:
    url = "https://example.org/tf/tensorflow-1.3.1-cp36-cp36m-win_amd64.whl"
    found = read_missing_wheel(
        f"Could not install requirement tensorflow==1.3.1 from {url} because of HTTP error 404 "
        f"Client Error: Not Found for url: {url} for URL {url}"
    )
    assert found is not None
    assert (found.dist, found.version, found.python_version, found.platform) == (
        "tensorflow",
        "1.3.1",
        "3.6",
        "win_amd64",
    )
    assert (
        read_missing_wheel(
            "because of error 404 Client Error: Not Found for url: https://x/y.tar.gz"
        )
        is None
    )


def test_every_indexed_companion_is_one_pips_refusals_read() -> None:
    # The bundled index's distributions are the companions the fixes know the wheels of: pip's
    # refusal of each must reach them (a name outside tensorflow-, tf-, tflite- is listed).
    patterns = [
        s.pattern for s in load_signatures().signatures if s.id == "pip-no-matching-distribution"
    ]
    assert patterns
    for dist in wheel_index():
        assert patterns[0].search(f"No matching distribution found for {dist}"), dist


def _typing_traceback(message: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/app/run.py", line 1, in <module>\n'
        "    import some_package\n"
        '  File "/home/user/.venv/lib/python3.8/site-packages/some_package/core.py", line 9, '
        "in <module>\n"
        "    Handler = Callable[[int, ...], str]\n"
        '  File "/usr/lib/python3.8/typing.py", line 149, in _type_check\n'
        '    raise TypeError(f"{msg} Got {arg!r:.100}.")\n'
        f"TypeError: {message}\n"
    )


def test_typing_an_older_python_refuses_is_a_python_too_old_for_the_package() -> None:
    text = _typing_traceback("Callable[[arg, ...], result]: each arg must be a type. Got Ellipsis.")
    top = top_error(explained(text))
    assert top.cause == "python-too-old-for-package"
    fix = fix_text(top)
    assert "3.10 or newer" in fix and "python --version" in fix


@pytest.mark.parametrize(
    "message",
    [
        # Another object where a type belongs: a mistake in the code, on any Python.
        "Callable[[arg, ...], result]: each arg must be a type. Got 'int'.",
        "Union[arg, ...]: each arg must be a type. Got Ellipsis.",
    ],
    ids=["callable-other-object", "union"],
)
def test_other_typing_refusals_are_not_the_pythons_age(message: str) -> None:
    causes = {x.cause for x in explained(_typing_traceback(message)).findings}
    assert "python-too-old-for-package" not in causes


_NO_TENSORFLOW = (
    "/app # pip install tensorflow\n"
    "ERROR: Could not find a version that satisfies the requirement tensorflow "
    "(from versions: none)\n"
    "ERROR: No matching distribution found for tensorflow\n"
    "/app # pip debug\n"
    "WARNING: This command is only meant for debugging.\n"
)


def test_a_musl_interpreter_pip_lists_no_tensorflow_for_is_told_a_glibc_system() -> None:
    text = (
        _NO_TENSORFLOW + "Compatible tags: 411\n"
        "  cp311-cp311-musllinux_1_2_x86_64\n"
        "  cp311-cp311-musllinux_1_1_x86_64\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert "musl" in fix and "glibc" in fix


@pytest.mark.parametrize(
    ("shown", "system"),
    [
        (
            "$ docker run --rm -it python:3.11-alpine sh\n/ # pip install tensorflow\n",
            "the python:3.11-alpine image",
        ),
        ("FROM python:3.12-alpine3.20\nRUN pip install tensorflow\n", "python:3.12-alpine3.20"),
        (
            'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.19.1\nPRETTY_NAME="Alpine Linux v3.19"\n',
            "Alpine Linux v3.19",
        ),
        (
            # postmarketOS: Alpine's C library, named by its ID_LIKE.
            'ID=postmarketos\nID_LIKE="alpine"\nPRETTY_NAME="postmarketOS v23.12"\n',
            "postmarketOS v23.12",
        ),
    ],
    ids=["docker-run-alpine-tag", "dockerfile-alpine-tag", "os-release-alpine", "alpine-like"],
)
def test_an_alpine_system_pip_lists_no_tensorflow_for_is_told_a_glibc_system(
    shown: str, system: str
) -> None:
    top = top_error(explained(shown + _NO_TENSORFLOW))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert "musl" in fix and "glibc" in fix and system in fix and "-slim" in fix


@pytest.mark.parametrize(
    "text",
    [
        # A multi-stage build whose last stage is Debian's: which stage ran pip is not shown.
        "FROM python:3.11-alpine AS tools\nFROM python:3.11-slim\nRUN pip install tensorflow\n"
        + _NO_TENSORFLOW,
        # Alpine's image named, TensorFlow listed: not a refusal of every release.
        "$ docker run --rm python:3.11-alpine pip install tensorflow==2.99\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow==2.99 "
        "(from versions: 2.15.0, 2.16.1)\n",
        # Alpine in prose only.
        "I moved off alpine last year.\n" + _NO_TENSORFLOW,
        # A side Alpine container on a Windows host; pip ran in PowerShell, on Windows.
        "PS C:\\Users\\me> docker run --rm -v myvol:/data alpine ls /data\nfile.txt\n"
        "PS C:\\Users\\me> python --version\nPython 3.13.1\n"
        "PS C:\\Users\\me> pip install tensorflow\n" + _NO_TENSORFLOW,
        # A container named alpine, started from NVIDIA's Ubuntu image.
        "$ docker run --name alpine --gpus all -it nvcr.io/nvidia/tensorflow:24.01-tf2-py3 bash\n"
        "root@abc:/workspace# pip install tensorflow\n" + _NO_TENSORFLOW,
    ],
    ids=[
        "multi-stage-glibc-last",
        "releases-listed",
        "prose",
        "side-container-on-windows",
        "container-named-alpine",
    ],
)
def test_alpine_words_that_do_not_show_the_system_are_not_musl(text: str) -> None:
    found = explained(text).findings
    assert not any(x.fix is not None and "musl" in x.fix.text for x in found)


def test_an_android_interpreter_pip_lists_no_tensorflow_for_is_told_a_glibc_distribution() -> None:
    # PEP 738's tags of CPython on Android: Bionic, no manylinux wheel installs.
    text = _NO_TENSORFLOW + "Compatible tags: 12\n  cp313-cp313-android_24_arm64_v8a\n"
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    assert top.fix is not None and "proot-distro install debian" in top.fix.commands
    assert "Android" in top.fix.text and "glibc" in top.fix.text
    # Debian's image has no Python, and its Python refuses pip outside an environment.
    assert top.fix.commands[-1] == "~/tf/bin/python -m pip install tensorflow"


def test_a_32_bit_android_interpreter_is_not_sent_to_proot_distro() -> None:
    # TensorFlow's Linux wheels are x86-64 and aarch64 only: a 32-bit ARM Debian has none.
    text = _NO_TENSORFLOW + "Compatible tags: 12\n  cp313-cp313-android_24_armeabi_v7a\n"
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    assert top.fix is not None and not top.fix.commands
    assert "32-bit Android (armeabi_v7a)" in top.fix.text


@pytest.mark.parametrize(
    "text",
    [
        # A glibc interpreter's tags: its list of releases, not its tags, says more.
        _NO_TENSORFLOW + "Compatible tags: 600\n  cp311-cp311-manylinux_2_36_x86_64\n",
        # musl's tags where pip lists TensorFlow releases: not a refusal of every release.
        "ERROR: Could not find a version that satisfies the requirement tensorflow==2.99 "
        "(from versions: 2.15.0, 2.16.1)\n"
        "Compatible tags: 411\n  cp311-cp311-musllinux_1_2_x86_64\n",
    ],
    ids=["glibc-tags", "releases-listed"],
)
def test_other_tags_are_not_read_as_musl(text: str) -> None:
    found = explained(text).findings
    assert not any(x.fix is not None and "musl" in x.fix.text for x in found)
    assert not any(x.fix is not None and "Android" in x.fix.text for x in found)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Compatible tags: 27\n  cp37-cp37m-win32\n", "win32"),
        (
            "Compatible tags: 3\n  py3-none-any\n  cp39-cp39-macosx_11_0_arm64\n",
            "macosx_11_0_arm64",
        ),
        ("Compatible tags: 3\nsomething else\n", None),
        ("  cp37-cp37m-win32\n", None),
        (
            "Because all versions of tensorflow have no wheels with a matching platform tag "
            "(e.g., `manylinux_2_31_riscv64`) and you require tensorflow, we can conclude ...\n",
            "manylinux_2_31_riscv64",
        ),
        (
            "Because tensorflow-text==2.18.0 has no wheels with a matching platform tag (e.g., "
            "`win_amd64`) and you require tensorflow-text==2.18.0, we can conclude ...\n",
            "win_amd64",
        ),
        ("no wheels with a matching platform tag for this machine\n", None),
        (
            "Because tensorflow-io==0.37.1 has no wheels with a matching platform tag (e.g.,\n"
            "`win_amd64`) and you require tensorflow-io==0.37.1, we can conclude ...\n",
            "win_amd64",
        ),
        (
            "$ uv pip compile requirements.in --python-platform x86_64-unknown-linux-musl\n"
            "Because all versions of tensorflow have no wheels with a matching platform tag "
            "(e.g., `musllinux_1_2_x86_64`) and you require tensorflow, we can conclude ...\n",
            None,
        ),
    ],
    ids=[
        "first",
        "past-any",
        "no-list",
        "no-head",
        "uv-example",
        "uv-example-one",
        "uv-no-tag",
        "uv-example-wrapped",
        "uv-target-platform",
    ],
)
def test_read_first_platform(text: str, expected: object) -> None:
    assert read_first_platform(text) == expected


def _not_available(*items: str) -> str:
    return (
        "Solving environment: failed\n\n"
        "PackagesNotFoundError: The following packages are not available from current channels:"
        "\n\n" + "".join(f"  - {item}\n" for item in items) + "\nCurrent channels:\n\n"
        "  - https://conda.anaconda.org/conda-forge/linux-64\n"
        "  - https://conda.anaconda.org/conda-forge/noarch\n"
    )


def test_a_pinned_release_no_conda_channel_has_is_that_release_not_for_this_platform() -> None:
    top = top_error(explained(_not_available("tensorflow=1.7.0")))
    assert top.cause == "tf-release-not-for-python"
    assert "tensorflow 1.7.0" in top.summary
    assert "conda search" in fix_text(top)


@pytest.mark.parametrize(
    "items",
    [
        # No release asked for: the channels lack the package, not one release of it.
        ("tensorflow-deps",),
        ("tensorflow",),
        # Another package's release.
        ("scipy=0.1.0",),
    ],
    ids=["apple-deps", "any-release", "other-package"],
)
def test_no_release_asked_of_conda_is_not_a_missing_release(items: tuple[str, ...]) -> None:
    found = explained(_not_available(*items)).findings
    assert not any(x.summary.startswith("conda's channels have no build") for x in found)


def test_read_conda_missing_releases_stops_at_the_channels() -> None:
    text = _not_available("tensorflow-gpu==1.15.0", "keras=2.3") + "  - tensorflow=9.9\n"
    assert [(x.dist, x.version) for x in read_conda_missing_releases((text,))] == [
        ("tensorflow-gpu", "1.15.0")
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Solving environment: failed\n\nResolvePackageNotFound: \n  - tensorflow=2.1.0\n"
            "  - numpy=1.18\n",
            [("tensorflow", "2.1.0")],
            id="conda-env-create",
        ),
        pytest.param(
            "Encountered problems while solving:\n"
            "  - nothing provides requested tensorflow-gpu 2.10.*\n",
            [("tensorflow-gpu", "2.10.*")],
            id="libsolv",
        ),
        pytest.param(
            "  - nothing provides requested tensorflow ==2.17.0\n",
            [("tensorflow", "2.17.0")],
            id="libsolv-exact",
        ),
        # An exported environment's build string names a build, not a release: not read.
        pytest.param(
            "  - nothing provides requested tensorflow-gpu ==2.17.0 cuda120py311hb76ca00_0\n",
            [],
            id="libsolv-build",
        ),
        pytest.param("ResolvePackageNotFound: \n  - tensorflow\n", [], id="no-release"),
    ],
)
def test_conda_and_libsolvs_other_words_for_a_missing_release_are_read(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert [(x.dist, x.version) for x in read_conda_missing_releases((text,))] == expected


def test_a_release_libsolv_finds_nothing_providing_is_the_channels_build() -> None:
    text = "error    libmamba Could not solve for environment specs\n" + (
        "Encountered problems while solving:\n  - nothing provides requested tensorflow 2.15.*\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python" and "2.15" in top.summary
    # libsolv's words (mamba, conda's libmamba solver), not conda's PackagesNotFoundError.
    assert "PackagesNotFoundError" not in top.detail


def test_a_python_refusal_of_an_indexed_companion_names_the_release_that_supports_it() -> None:
    from tfdoctor.wheel_index import releases_of

    text = "ERROR: Package 'tfx' requires a different Python: 3.11.4 not in '<3.11,>=3.9'\n"
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    # The newest release the index lists whose Requires-Python admits 3.11.
    fits = [r for r in releases_of("tfx") if r.python_fits("3.11.4")]
    assert fits and f'pip install "tfx=={fits[-1].version}"' in fix
    assert fits[-1].requires_python in fix


def test_a_python_refusal_no_indexed_release_supports_names_none() -> None:
    text = "ERROR: Package 'tfx' requires a different Python: 2.6.9 not in '<3.11,>=3.9'\n"
    fix = fix_text(top_error(explained(text)))
    # (pip's own listing of an old Python's releases is `pip install "tfx=="`, no version.)
    assert not re.search(r'"tfx==\d', fix) and "the commands list them" in fix


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        # Another project's release needing a newer Python: the package's range refuses (a
        # Python newer than a range is the release reading, as for TensorFlow's own).
        (
            "ERROR: Package 'trackkit' requires a different Python: 3.10.13 not in '>=3.11'\n",
            "python-too-old-for-package",
        ),
        # The same words with the quotes a paste's markup took away.
        (
            "Package trackkit requires a different Python: 3.10.13 not in >=3.11\n",
            "python-too-old-for-package",
        ),
        # A Python newer than it allows is no package needing a newer one.
        (
            "ERROR: Package 'trackkit' requires a different Python: 3.13.1 not in '<3.13,>=3.9'\n",
            "tf-release-not-for-python",
        ),
        # TensorFlow's own ecosystem keeps its release reading.
        (
            "ERROR: Package 'tfx' requires a different Python: 3.8.10 not in '<3.11,>=3.9'\n",
            "tf-release-not-for-python",
        ),
    ],
    ids=["older", "unquoted", "newer", "ecosystem"],
)
def test_a_python_refusal_of_another_projects_release_needing_a_newer_python(
    text: str, cause: str
) -> None:
    top = top_error(explained(text))
    assert top.cause == cause
    asked = re.search(r"Package '?([\w-]+)", text)
    assert asked is not None and asked.group(1) in fix_text(top)


#: pip's list of the releases it skipped for their Requires-Python, before its refusal.
_IGNORED = (
    "ERROR: Ignored the following versions that require a different python version: "
    "0.1.0.2 Requires-Python >=3.8,<3.11; 0.2.1.4 Requires-Python >=3.9,<3.12\n"
)


@pytest.mark.parametrize(
    ("request_", "named"),
    [
        # The newest release pip skipped, with its Requires-Python as pip printed it.
        (
            "mediapipe-model-maker",
            "mediapipe-model-maker 0.2.1.4 declares Requires-Python >=3.9,<3.12",
        ),
        # A range: the newest skipped release it admits.
        (
            "mediapipe-model-maker<0.2",
            "mediapipe-model-maker 0.1.0.2 declares Requires-Python >=3.8,<3.11",
        ),
        # No skipped release in the range: the refusal keeps its other reading.
        ("mediapipe-model-maker>1", None),
    ],
    ids=["name-alone", "range", "range-outside-the-list"],
)
def test_a_request_pip_skipped_every_release_of_names_their_python_range(
    request_: str, named: Optional[str]
) -> None:
    refused = (
        f"ERROR: Could not find a version that satisfies the requirement {request_} "
        "(from versions: none)\n"
    )
    top = top_error(explained(_IGNORED + refused))
    assert top.cause == "tf-no-wheel-for-python"
    if named is None:
        assert "Requires-Python" not in fix_text(top)
    else:
        assert named in fix_text(top)


@pytest.mark.parametrize(
    ("ignored", "pin", "listed", "offered"),
    [
        (
            "0.21.0 Requires-Python >=3.9; 0.22.0 Requires-Python >=3.9; 0.23.0 Requires-Python "
            ">=3.9",
            "tensorflow-addons==0.23.0",
            "0.19.0, 0.20.0",
            "tensorflow-addons 0.20.0",
        ),
        (
            # keras 3.x and 2.14.0 declare Requires-Python >=3.9; 2.13.1 and 2.15.0 >=3.8:
            # on Python 3.8 pip's list stops at 2.15.0.
            "2.14.0 Requires-Python >=3.9; 3.0.0 Requires-Python >=3.9",
            "keras==3.0.0",
            "2.12.0, 2.13.1, 2.15.0",
            None,
        ),
    ],
    ids=["same-major-listed", "only-another-major-listed"],
)
def test_a_release_pip_lists_for_this_python_is_offered_only_in_the_pins_major(
    ignored: str, pin: str, listed: str, offered: Optional[str]
) -> None:
    text = (
        f"ERROR: Ignored the following versions that require a different python version: "
        f"{ignored}\n"
        f"ERROR: Could not find a version that satisfies the requirement {pin} (from versions: "
        f"{listed})\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert "Requires-Python" in fix
    if offered is None:
        # keras 2.15.0 is not a replacement for a pin of keras 3.0.0 (another API).
        assert "2.15.0" not in fix and "the newest release pip lists" not in fix
    else:
        assert f"{offered}, the newest release pip lists" in fix


def test_the_release_named_for_a_python_has_a_wheel_for_the_machine_architecture() -> None:
    import dataclasses

    from tests import factories as f
    from tfdoctor.causes.platform import newest_release_for
    from tfdoctor.machine import Machine

    def on(machine: str) -> Machine:
        facts = f.facts()
        facts = dataclasses.replace(facts, platform=f.platform(machine=machine))
        return Machine(facts, f.FIXTURE_MATRIX)

    # tensorflow-addons publishes Linux wheels for x86-64 only.
    assert newest_release_for(on("x86_64"), "tensorflow-addons", "3.9") is not None
    assert newest_release_for(on("aarch64"), "tensorflow-addons", "3.9") is None


def test_releases_newer_than_the_index_are_not_another_project() -> None:
    newest = wheel_index()["tensorflow-io"][-1].version
    major, minor = newest.split(".")[:2]
    later = [f"{major}.{int(minor) + 1}.0", f"{major}.{int(minor) + 2}.0"]
    text = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow-io==0.10.0 "
        f"(from versions: {', '.join(later)})\n"
    )
    # Releases published after the bundled index was generated are tensorflow-io's own.
    assert "another project's" not in fix_text(top_error(explained(text)))


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "ERROR: Could not find a version that satisfies the requirement "
            "tflite-runtime==2.1.0.post1\n",
            id="no-list",
        ),
        pytest.param(
            "ERROR: Could not find a version that satisfies the requirement "
            "tflite-runtime==2.1.0.post1 (from versions: none)\n",
            id="empty-list",
        ),
    ],
)
def test_a_companion_pin_pypis_files_never_list_is_that_release_for_any_python(
    text: str,
) -> None:
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    # The index's releases (2.5.0 the oldest) and the newest for each system, not a Python.
    assert "2.5.0 to" in fix and "2.5.0 for macOS" in fix and "--extra-index-url" in fix


def test_a_companion_pin_pypi_has_is_not_read_as_unpublished() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement tflite-runtime==2.5.0 "
        "(from versions: none)\n"
    )
    assert "PyPI has no wheel of" not in fix_text(top_error(explained(text)))


@pytest.mark.parametrize(
    ("spec", "version"),
    [
        ("==2.1.0.post1", "2.1.0.post1"),
        ("==2.4.0.dev20200101", "2.4.0.dev20200101"),
        ("==2.16.0rc0", "2.16.0rc0"),
        ("==1.15.*", "1.15.*"),
        (">=2.1.0.post1", None),
    ],
)
def test_a_pin_of_a_post_or_development_release_is_a_pin(spec: str, version: Optional[str]) -> None:
    assert requested_version(spec) == version


def test_a_companion_pin_newer_than_the_bundled_index_is_not_read_as_unpublished() -> None:
    # A release published after the bundled index was generated: the index knows nothing of
    # it, so nothing says PyPI lacks it.
    newest = wheel_index()["tflite-runtime"][-1].version
    major, minor = newest.split(".")[:2]
    text = (
        "ERROR: Could not find a version that satisfies the requirement "
        f"tflite-runtime=={major}.{int(minor) + 1}.0\n"
    )
    assert "PyPI has no wheel of" not in fix_text(top_error(explained(text)))


#: pip's verbose refusals of one release's files for their Requires-Python (pip 19.2 to 21.1
#: print no "Ignored the following versions" summary after them).
_LINKS = "".join(
    f"  Link requires a different Python (3.13.1 not in: '>=3.9,<3.13'): https://files."
    f"pythonhosted.org/packages/1a/2b/tensorflow-2.18.0-{tag}-{tag}-manylinux_2_17_x86_64."
    "manylinux2014_x86_64.whl (from https://pypi.org/simple/tensorflow/) "
    "(requires-python:>=3.9,<3.13)\n"
    for tag in ("cp311", "cp312")
)


def test_pips_verbose_refusals_of_files_name_the_python_and_a_release_for_it() -> None:
    refused = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow "
        "(from versions: none)\nERROR: No matching distribution found for tensorflow\n"
    )
    top = top_error(explained("Collecting tensorflow\n" + _LINKS + refused))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert "tensorflow 2.18.0 declares Requires-Python >=3.9,<3.13" in fix
    assert "Python 3.13.1 is outside (newer than it allows)" in fix
    # The matrix's newest release with a wheel for Python 3.13 on Linux, pinned.
    assert re.search(r'pip install "tensorflow==2\.\d+\.\d+"', fix), fix
