"""pip's "Successfully installed" list read for TensorFlow's own distributions: one reader for
the hosted runtimes' reading (which TensorFlow an install put in) and the stale-import reading
(which release the process kept). The lines are written here in pip's format
(commands/install.py: "Successfully installed %s", each item ``name-version``)."""

from __future__ import annotations

import pytest

from tfdoctor.evidence.packages import installed_items, read_tf_installed


@pytest.mark.parametrize(
    ("line", "dist", "version"),
    [
        pytest.param(
            "Successfully installed absl-py-1.0.0 tensorflow-2.6.0 wrapt-1.12.1",
            "tensorflow",
            "2.6.0",
            id="among-others",
        ),
        pytest.param(
            "  Successfully installed tensorflow-gpu-1.15.0",
            "tensorflow-gpu",
            "1.15.0",
            id="indented-gpu",
        ),
        pytest.param(
            "Successfully installed tf-nightly-2.10.0.dev20220601",
            "tf-nightly",
            "2.10.0.dev20220601",
            id="nightly",
        ),
        pytest.param(
            "Successfully installed tf-nightly-2.0-preview-2.0.0.dev20190516",
            "tf-nightly-2.0-preview",
            "2.0.0.dev20190516",
            id="preview-nightly-named-with-a-release",
        ),
        pytest.param(
            "Successfully installed tensorflow-estimator-2.6.0 tensorflow-cpu-2.6.0",
            "tensorflow-cpu",
            "2.6.0",
            id="companion-before-it-passed-over",
        ),
        pytest.param(
            "Successfully installed tensorflow-2.16.1+cpu keras-3.3.3",
            "tensorflow",
            "2.16.1+cpu",
            id="local-version-label",
        ),
    ],
)
def test_the_first_of_tensorflows_distributions_on_the_list_is_read(
    line: str, dist: str, version: str
) -> None:
    (found,) = read_tf_installed(f"Collecting x\n{line}\nDone\n")
    assert (found.dist, found.version) == (dist, version)
    # The line as far as the item: what a finding quotes of it.
    item = f"{dist}-{version}"
    assert found.line == line.strip()[: line.strip().index(item) + len(item)]


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "Successfully installed tensorflow-io-gcs-filesystem-0.23.1 tensorboard-2.6.0",
            id="companions-only",
        ),
        pytest.param("Successfully installed my-tensorflow-2.0.0", id="a-name-ending-in-it"),
        pytest.param("Successfully uninstalled tensorflow-2.6.0", id="uninstalled"),
        pytest.param("pip install tensorflow-2.6.0.whl", id="not-pips-list"),
    ],
)
def test_lists_without_tensorflows_own_distribution_are_not_read(line: str) -> None:
    assert list(read_tf_installed(f"{line}\n")) == []


def test_each_list_is_read_once_in_order_with_where_it_lies() -> None:
    text = (
        "Successfully uninstalled tensorflow-2.5.0\n"
        "Successfully installed tensorflow-2.6.0 tensorflow-gpu-2.6.0\n"
        "Successfully installed tf-nightly-2.7.0.dev20210801\n"
    )
    first, second = read_tf_installed(text)
    assert (first.dist, second.dist) == ("tensorflow", "tf-nightly")
    assert text[first.start : first.end].endswith("tensorflow-2.6.0")
    assert first.start == text.index("Successfully installed")
    assert text[second.start : second.end] == "Successfully installed tf-nightly-2.7.0.dev20210801"


def test_the_list_reader_splits_each_item_at_its_last_hyphen() -> None:
    # The one reading of pip's items both readers share: a name may hold hyphens, a release
    # none; a word without a hyphen is no item.
    listed = "absl-py-1.0.0 tf-nightly-2.0-preview-2.0.0.dev20190516 Tensorflow_GPU-1.15.0 x"
    assert installed_items(listed) == {
        "absl-py": "1.0.0",
        "tf-nightly-2-0-preview": "2.0.0.dev20190516",
        "tensorflow-gpu": "1.15.0",
    }


def test_an_item_past_the_release_pattern_is_passed_over_for_a_later_one() -> None:
    text = "Successfully installed tensorflow-x.y tensorflow-gpu-2.6.0\n"
    (found,) = read_tf_installed(text)
    assert (found.dist, found.version) == ("tensorflow-gpu", "2.6.0")
    assert found.line == text.strip()
