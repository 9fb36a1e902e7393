"""pip's and uv's refusals of a package around TensorFlow, not TensorFlow itself (an application
or a library that depends on it): read from pip's words (the distribution, who required it, the
releases listed) as every refusal is, with a fix that says how to read the Pythons and
platforms its releases publish wheels for, never a Python guessed for it."""

from __future__ import annotations

import pytest

from tests.explaining import SIGNATURES, explained, fix_text, readings, renamed, top_error
from tfdoctor.evidence.installer import UV_WORDS

_NONE = (
    "ERROR: Could not find a version that satisfies the requirement {req} (from versions: none)\n"
    "ERROR: No matching distribution found for {req}\n"
)


def _causes(text: str) -> set[str]:
    return {x.cause for x in readings(explained(text))}


def test_no_release_listed_is_every_release_with_the_way_to_read_its_pythons() -> None:
    text = "$ python --version\nPython 3.11.4\n$ pip install deepspeech\n" + _NONE.format(
        req="deepspeech"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    assert "deepspeech" in top.summary
    fix = fix_text(top)
    assert "https://pypi.org/pypi/deepspeech/json" in fix
    assert "Python 3.11.4" in fix and "virtual environment" in fix
    # Nothing bundled knows its Pythons: none is named, and TensorFlow is not its subject.
    assert "TensorFlow" not in fix
    # The log shows the Python: a misspelt name is not the likely reading.
    assert "misspelt" not in fix


def test_an_empty_list_of_a_package_once_python_2_only_dates_the_refusal() -> None:
    # tensorflow-serving-api published py2 wheels only before 1.9.0: pip on Python 3 that
    # lists none of its releases read the index before py3 wheels came.
    # pip before 19.1 wrote an empty list as nothing: "(from versions: )".
    old_pip = _NONE.format(req="tensorflow-serving-api").replace("ERROR: ", "")
    old_pip = old_pip.replace("(from versions: none)", "(from versions: )")
    fix = fix_text(top_error(explained(old_pip)))
    assert "1.8.0 publish wheels for Python 2 only" in fix
    assert "Python 2.7 environment" in fix and "1.9.0 or later on Python 3" in fix
    # A Python 2 shown would have listed those releases: no such reading.
    two = "$ python --version\nPython 2.7.18\n" + old_pip
    assert "Python 2 only" not in fix_text(top_error(explained(two)))
    # "none" is pip 19.1 or later, which ran after 1.9.0 was out: its empty list is
    # another cause's.
    assert "Python 2 only" not in fix_text(
        top_error(explained(_NONE.format(req="tensorflow-serving-api")))
    )
    # Releases listed, or a package whose releases were never Python 2 only: none either.
    listed = (
        "ERROR: Could not find a version that satisfies the requirement "
        "tensorflow-serving-api==9.0 (from versions: 2.20.0, 2.21.0)\n"
    )
    assert "Python 2 only" not in fix_text(top_error(explained(listed)))
    assert "Python 2 only" not in fix_text(
        top_error(explained(_NONE.format(req="tensorflow-text")))
    )


def test_an_empty_list_with_nothing_else_shown_names_a_misspelt_name_as_a_candidate() -> None:
    fix = fix_text(top_error(explained(_NONE.format(req="speechkitz"))))
    assert "misspelt" in fix and "https://pypi.org/project/speechkitz/" in fix


def test_a_dependants_requirement_names_the_dependant() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement ml-metadata>=1.14.0 "
        "(from tfx) (from versions: none)\n"
        "ERROR: No matching distribution found for ml-metadata>=1.14.0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert "tfx requires it" in fix and "release of tfx" in fix
    assert "misspelt" not in fix


def test_a_pin_pip_lists_others_of_is_that_release() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement jaxlib==0.4.3; "
        'extra == "jax" (from dm-acme[jax]) (from versions: 0.4.6, 0.4.7, 0.4.9, 0.4.10)\n'
        'ERROR: No matching distribution found for jaxlib==0.4.3; extra == "jax"\n'
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    # That release's own files, and the dependant whose pin it is: installing a listed
    # release would leave dm-acme's requirement unmet.
    assert "https://pypi.org/pypi/jaxlib/0.4.3/json" in fix
    assert "dm-acme requires" in fix and "release of dm-acme" in fix
    assert 'pip install "jaxlib==' not in fix
    assert "later ones do" in fix


def test_a_pin_older_releases_are_listed_for_does_not_say_the_python_is_newer() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement rasa==3.6.0 "
        "(from versions: 1.0.0, 2.8.0)\n"
        "ERROR: No matching distribution found for rasa==3.6.0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert "later ones do" not in fix and "other releases do" in fix


def test_uvs_refusal_of_one_release_of_another_package_speaks_of_that_release() -> None:
    text = (
        "Because numba==0.53.1 has no wheels with a matching Python ABI tag (e.g., `cp312`), "
        "we can conclude that numba==0.53.1 cannot be used.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python" and top.summary.startswith("uv found no numba")
    fix = fix_text(top)
    assert "numba 0.53.1" in fix
    assert "TensorFlow" not in fix and "pip lists" not in fix


@pytest.mark.parametrize("dist", ["reverb-tools", "mypycoral"])
def test_a_name_like_a_companions_is_that_packages_own(dist: str) -> None:
    top = top_error(explained(f"ERROR: No matching distribution found for {dist}==1.0\n"))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert f"https://pypi.org/pypi/{dist}/json" in fix
    assert "/project/dm-reverb/" not in fix and "/project/pycoral/" not in fix


def test_tensorflows_own_refusal_is_still_tensorflows() -> None:
    text = "Python 3.13.0\n" + _NONE.format(req="tensorflow")
    top = top_error(explained(text))
    assert top.cause in ("tf-no-wheel-for-python", "tf-release-not-for-python")
    assert "pypi.org/pypi/tensorflow/json" not in fix_text(top)


@pytest.mark.parametrize(
    "before",
    [
        pytest.param(
            "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, "
            "status=None)) after connection broken by 'ProxyError('Cannot connect to proxy.', "
            "OSError(0, 'Error'))': /simple/deepspeech/\n",
            id="pip-retried-through-a-proxy",
        ),
        pytest.param(
            "Could not fetch URL https://pypi.org/simple/deepspeech/: There was a problem "
            "confirming the ssl certificate: HTTPSConnectionPool(host='pypi.org', port=443) - "
            "skipping\n",
            id="pip-could-not-fetch-the-index",
        ),
        pytest.param(
            "ERROR: Ignored the following yanked versions: 0.1.0, 0.2.0\n", id="only-yanked"
        ),
    ],
)
def test_a_refusal_pip_could_not_judge_is_not_a_missing_wheel(before: str) -> None:
    assert "tf-no-wheel-for-python" not in _causes(before + _NONE.format(req="deepspeech"))


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(_NONE.format(req="requirements.txt"), id="a-requirements-file-without-r"),
        pytest.param(
            "$ pip install deepspeech\nSuccessfully installed deepspeech-0.9.3\n",
            id="an-install-that-worked",
        ),
        pytest.param(
            "I get 'No matching distribution found' when I install it, any idea?\n",
            id="the-words-in-prose-without-a-name",
        ),
        pytest.param(
            "I always get No matching distribution found for this package, any idea?\n",
            id="the-words-in-prose-before-a-word",
        ),
        pytest.param(
            "Could not find a version that satisfies the requirement in the docs, so I pinned it\n",
            id="the-other-words-in-prose-before-a-word",
        ),
    ],
)
def test_near_misses_are_not_a_missing_wheel(text: str) -> None:
    assert not _causes(text) & {"tf-no-wheel-for-python", "tf-release-not-for-python"}


def test_the_installer_named_is_its_words_tag() -> None:
    # uv's refusal under an id no code names: its uv-words tag alone names uv.
    text = (
        "Because numba==0.53.1 has no wheels with a matching Python ABI tag (e.g., `cp312`), "
        "we can conclude that numba==0.53.1 cannot be used.\n"
    )
    others = tuple(t for t in SIGNATURES.by_id("uv-no-abi-tag").tags if t != UV_WORDS)
    for tags, named in ((tuple(sorted((*others, UV_WORDS))), "uv"), (others, "pip")):
        top = top_error(explained(text, signatures=renamed("uv-no-abi-tag", tags)))
        assert top.summary.startswith(f"{named} found no numba")


def test_uvs_refusal_of_a_companions_release_is_told_in_uvs_name_with_that_release() -> None:
    text = (
        "Because tensorflow-text==2.10.0 has no wheels with a matching Python ABI tag (e.g., "
        "`cp312`), we can conclude that tensorflow-text==2.10.0 cannot be used.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python" and top.summary.startswith("uv found no")
    fix = fix_text(top)
    assert fix.startswith("uv ") and "pip lists" not in fix
    # The bundled index's wheels of the release uv chose, not of the newest release.
    assert "tensorflow-text 2.10.0 publishes" in fix


def test_a_python_only_a_path_implies_is_not_said_to_be_shown() -> None:
    text = (
        '  File "/home/u/.venv/lib/python3.9/site-packages/app/setup.py", line 1, in <module>\n'
        + _NONE.format(req="deepspeech")
    )
    fix = fix_text(top_error(explained(text)))
    assert "its paths imply Python 3.9" in fix and "the log shows Python" not in fix


def test_tensorflows_refusal_through_a_failing_proxy_is_not_a_missing_wheel() -> None:
    text = (
        "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, "
        "status=None)) after connection broken by 'ProxyError('Cannot connect to proxy.', "
        "OSError(0, 'Error'))': /simple/tensorflow/\n" + _NONE.format(req="tensorflow")
    )
    assert not _causes(text) & {"tf-no-wheel-for-python", "tf-release-not-for-python"}


def test_only_pips_last_line_does_not_say_no_release_at_all() -> None:
    fix = fix_text(
        top_error(
            explained("ERROR: No matching distribution found for mediapipe-model-maker==0.2.1\n")
        )
    )
    assert "the release asked for (==0.2.1)" in fix
    assert "no release of mediapipe-model-maker publishes" not in fix
    assert "misspelt" not in fix


_BUILD_BACKEND = (
    "  Installing build dependencies: finished with status 'error'\n"
    # pip's own box-drawing: its words as it prints them.
    "  × pip subprocess to install build dependencies did not run successfully.\n"  # noqa: RUF001
    "  ╰─> [3 lines of output]\n"
    "      {where}\n"
    "      ERROR: Could not find a version that satisfies the requirement setuptools>=40.8.0 "
    "(from versions: none)\n"
    "      ERROR: No matching distribution found for setuptools>=40.8.0\n"
)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "$ pip install --no-index --find-links /opt/wheels mypkg\n"
            + _BUILD_BACKEND.format(where="Looking in links: /opt/wheels"),
            id="offline-find-links-without-setuptools",
        ),
        pytest.param(
            _BUILD_BACKEND.format(
                where="Looking in indexes: https://nexus.example.com/repository/pypi/simple"
            ),
            id="private-index-without-setuptools",
        ),
        pytest.param(
            "Looking in indexes: https://nexus.example.com/simple\n"
            + _NONE.format(req="deepspeech==0.9.3"),
            id="private-index-without-the-package",
        ),
        pytest.param(
            "Python 3.10.12\n$ python -m pip install --no-index -f ./wheels tensorflow==2.15.0\n"
            + _NONE.format(req="tensorflow==2.15.0"),
            id="tensorflow-from-a-directory-without-it",
        ),
    ],
)
def test_a_refusal_from_an_index_other_than_pypi_is_not_a_python_without_wheels(
    text: str,
) -> None:
    # What an index of the user's own or a --find-links directory holds is not what PyPI's
    # files say of the Python: no wheel of setuptools is missing for any Python.
    assert not _causes(text) & {"tf-no-wheel-for-python", "tf-release-not-for-python"}


def test_pypi_among_the_indexes_read_keeps_the_refusal() -> None:
    text = "Looking in indexes: https://pypi.org/simple, https://pypi.ngc.nvidia.com\n"
    assert "tf-no-wheel-for-python" in _causes(text + _NONE.format(req="deepspeech"))


def test_a_local_version_is_never_on_pypi() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement torch==1.4.0+cpu "
        "(from versions: 2.0.0, 2.1.0)\n"
        "ERROR: No matching distribution found for torch==1.4.0+cpu\n"
    )
    fix = fix_text(top_error(explained(text)))
    # PyPI accepts no local versions: its files cannot say anything of 1.4.0+cpu.
    assert "never on PyPI" in fix and "--extra-index-url" in fix
    assert "pypi.org/pypi/torch" not in fix and "virtual environment" not in fix


def test_a_pinned_release_pip_does_not_list_may_not_exist() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement rasa==3.6.0 "
        "(from versions: 1.0.0, 2.8.0)\n"
    )
    assert "or does not exist" in fix_text(top_error(explained(text)))


@pytest.mark.parametrize(
    ("requirement", "listing"),
    [
        pytest.param("tensorflow==1.15.0", "2.12.0, 2.13.0, 2.15.0", id="tensorflow"),
        pytest.param("deepspeech==0.4.0", "0.9.2, 0.9.3", id="another-package"),
    ],
)
def test_a_retry_that_got_through_keeps_the_refusal_of_the_list_pip_read(
    requirement: str, listing: str
) -> None:
    text = (
        "Python 3.11.4\n"
        "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, "
        "status=None)) after connection broken by 'SSLError(SSLEOFError(8, 'EOF occurred in "
        "violation of protocol (_ssl.c:1006)'))': /simple/x/\n"
        "ERROR: Could not find a version that satisfies the requirement "
        f"{requirement} (from versions: {listing})\n"
    )
    # pip lists releases: it read the index after its retry, and its list stands.
    assert "tf-release-not-for-python" in _causes(text)
