"""pip's refusal of a requirement TensorFlow's own release declares: pip's "(from X==V)" names
the requirer, and a pure-Python companion released beside TensorFlow (estimator, TensorBoard)
that pip found no release of, with the index read, is the metadata's, not the machine's."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.pip import Requirer, refusal_requirer


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param(
            "ERROR: No matching distribution found for tensorboard<2.10,>=2.9.1 "
            "(from tensorflow==2.9.0rc2)",
            ("tensorboard", Requirer("tensorflow", "2.9.0rc2", "")),
            id="old-pip-names-the-requirers-release",
        ),
        pytest.param(
            "ERROR: Could not find a version that satisfies the requirement "
            "tensorflow-estimator<2.4.0,>=2.3.0rc0 (from tensorflow) (from versions: 2.2.0)",
            ("tensorflow-estimator", Requirer("tensorflow", "", "")),
            id="new-pip-names-the-requirer-alone",
        ),
        pytest.param(
            "No matching distribution found for tb_nightly<2.15.0a0,>=2.14.0a0 "
            "(from tf_nightly==2.14.0.dev20230601->-r reqs.txt (line 2))",
            ("tb-nightly", Requirer("tf-nightly", "2.14.0.dev20230601", "")),
            id="a-chain-from-a-requirements-file",
        ),
        pytest.param(
            "ERROR: No matching distribution found for tensorboard==2.9.1 "
            "(from -r requirements.txt (line 3))",
            None,
            id="the-users-own-file",
        ),
        pytest.param(
            "ERROR: No matching distribution found for tensorboard==2.9.1",
            None,
            id="the-command-line",
        ),
    ],
)
def test_the_requirer_pip_names(line: str, expected: Optional[tuple[str, Requirer]]) -> None:
    assert refusal_requirer(line) == expected


def _old_pip(requirement: str, origin: str) -> str:
    """A pip before 20.3's two lines for a requirement it found no distribution of."""
    return (
        f"Collecting {requirement} (from {origin})\n"
        f"  Could not find a version that satisfies the requirement {requirement} "
        f"(from {origin}) (from versions: )\n"
        f"No matching distribution found for {requirement} (from {origin})\n"
    )


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(
            "ERROR: No matching distribution found for tensorboard<2.10,>=2.9.1 "
            "(from tensorflow==2.9.0rc2)\n",
            id="pips-last-line-alone",
        ),
        pytest.param(_old_pip("tensorboard<2.10,>=2.9.1", "tensorflow==2.9.0rc2"), id="old-pip"),
        pytest.param(
            "ERROR: Could not find a version that satisfies the requirement "
            "tensorboard<2.10,>=2.9.1 (from tensorflow) (from versions: 2.8.0, 2.9.0)\n"
            "ERROR: No matching distribution found for tensorboard<2.10,>=2.9.1\n",
            id="new-pip-with-its-list",
        ),
    ],
)
def test_a_pure_companion_tensorflow_requires_and_no_index_offers(log: str) -> None:
    top = top_error(explained(log))
    assert top.cause == "tf-metadata-unsatisfiable"
    fix = fix_text(top)
    assert "tensorboard<2.10,>=2.9.1" in fix
    assert "pip index versions tensorboard" in fix
    # pip takes the pre-releases a specifier names: no resolver option to offer.
    assert "--pre" not in fix and "lock" not in fix


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(
            "Collecting tensorboard<2.10,>=2.9.1 (from tensorflow==2.9.0)\n"
            "  Could not fetch URL https://pypi.org/simple/tensorboard/: There was a problem "
            "confirming the ssl certificate - skipping\n"
            "  Could not find a version that satisfies the requirement tensorboard<2.10,>=2.9.1 "
            "(from tensorflow==2.9.0) (from versions: )\n"
            "No matching distribution found for tensorboard<2.10,>=2.9.1 "
            "(from tensorflow==2.9.0)\n",
            id="the-index-was-not-read",
        ),
        pytest.param(
            _old_pip("tensorboard<2.10,>=2.9", "tensorflow==2.9.0"),
            id="a-final-release-is-published-with-its-companions",
        ),
        pytest.param(
            "Collecting tensorflow==2.9.0\n"
            "  Downloading tensorflow-2.9.0-cp39-cp39-manylinux2014_x86_64.whl (511.7 MB)\n"
            "ERROR: Could not find a version that satisfies the requirement "
            "tensorboard<2.10,>=2.9 (from tensorflow) (from versions: none)\n",
            id="a-newer-pip-collecting-a-final-release",
        ),
        pytest.param(
            _old_pip("tensorboard<2.10,>=2.9.1", "some_app==1.0"), id="another-packages-pin"
        ),
        pytest.param(
            _old_pip("tensorboard<2.10,>=2.9.1", "-r requirements.txt (line 2)"),
            id="the-users-own-pin",
        ),
        pytest.param(_old_pip("tensorboard", "tensorflow==2.9.0"), id="no-range-no-release-at-all"),
        pytest.param(
            _old_pip("tensorflow-io-gcs-filesystem>=0.23.1", "tensorflow==2.9.0"),
            id="a-native-companion-has-wheels-to-read",
        ),
        pytest.param(
            "Using pip 21.3.1 from /home/u/venv/lib/python3.12/site-packages/pip (python 3.12)\n"
            "ERROR: No matching distribution found for tensorboard<2.10,>=2.9.1 "
            "(from tensorflow==2.9.0)\n",
            id="a-python-the-release-has-no-wheel-for",
        ),
        pytest.param(
            "ERROR: Could not find a version that satisfies the requirement "
            "tensorboard<2.10,>=2.9.1 (from tensorflow) (from versions: 2.9.0, 2.9.1)\n"
            "ERROR: No matching distribution found for tensorboard<2.10,>=2.9.1\n",
            id="pips-list-holds-a-release-in-range",
        ),
    ],
)
def test_near_variants_are_not_the_metadatas(log: str) -> None:
    report = explained(log)
    assert all(x.cause != "tf-metadata-unsatisfiable" for x in report.findings)


def test_the_listing_asks_for_pre_releases_and_a_pip_with_its_index_command() -> None:
    # A pip before 20.3 ("(from tensorflow==2.1.0rc1)") has no `pip index` (21.2), and
    # `pip index versions` drops the pre-releases the range names unless asked.
    log = _old_pip("tensorflow-estimator<2.2.0,>=2.1.0rc0", "tensorflow==2.1.0rc1")
    top = top_error(explained(log))
    assert top.cause == "tf-metadata-unsatisfiable" and top.fix is not None
    commands = top.fix.commands
    upgrade = next(i for i, c in enumerate(commands) if "install --upgrade pip" in c)
    listing = next(i for i, c in enumerate(commands) if "index versions" in c)
    assert upgrade < listing and "--pre tensorflow-estimator" in commands[listing]


def test_a_final_range_from_a_newer_pip_lists_without_more() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement "
        "tensorboard<2.10,>=2.9.1 (from tensorflow) (from versions: 2.8.0, 2.9.0)\n"
    )
    top = top_error(explained(log))
    assert top.fix is not None
    assert not any("--pre" in c or "upgrade pip" in c for c in top.fix.commands)
