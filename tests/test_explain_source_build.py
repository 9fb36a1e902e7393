"""Building TensorFlow from source: the Bazel its tree accepts, and the Python headers its
extensions compile against."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        (
            "You have bazel 0.29.1 installed.\nPlease downgrade your bazel installation to "
            "version 0.26.1 or lower to build TensorFlow!\n",
            "Bazel 0.26.1 or older",
        ),
        (
            "Please upgrade your bazel installation to version 0.24.1 or higher to build "
            "TensorFlow!\n",
            "Bazel 0.24.1 or newer",
        ),
        (
            "ERROR: The project you're trying to build requires Bazel 6.5.0 (specified in "
            "/src/tensorflow/.bazelversion), but it wasn't found in /usr/bin.\n",
            "Bazel 6.5.0,",
        ),
        ("$ ./configure\nCannot find bazel. Please install bazel.\n", "Bazelisk"),
        (
            "ERROR: /src/tensorflow/tensorflow/workspace.bzl:17:3: //external:eigen_archive: no "
            "such attribute 'urls' in 'new_http_archive' rule.\n",
            "./configure prints its range",
        ),
    ],
)
def test_a_bazel_the_source_does_not_accept(text: str, wanted: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "bazel-version-mismatch"
    assert wanted in fix_text(top)


def test_a_later_configure_run_names_the_bound_that_still_fails() -> None:
    text = (
        "Please upgrade your bazel installation to version 0.24.1 or higher to build TensorFlow!\n"
        "Please downgrade your bazel installation to version 0.26.1 or lower to build TensorFlow!\n"
    )
    assert "0.26.1 or older" in fix_text(top_error(explained(text)))


def test_pythons_own_int_error_is_not_bazels() -> None:
    text = "ValueError: invalid literal for int() with base 10: '2b'\n"
    assert all(x.cause != "bazel-version-mismatch" for x in explained(text).findings)


def test_a_build_without_python_headers_is_told_the_dev_package() -> None:
    text = (
        "external/protobuf/python/google/protobuf/pyext/message.h:37:20: fatal error: Python.h: "
        "No such file or directory\n"
    )
    top = top_error(explained(text))
    assert top.cause == "build-python-headers-missing"
    assert "python3-dev" in fix_text(top)
    assert top.fix is not None and not any("apt" in c for c in top.fix.commands)  # no system
    linux = top_error(explained("user@host:~/src$ bazel build //x\n" + text))
    assert linux.fix is not None
    assert any(c.startswith("sudo apt-get install python3-dev") for c in linux.fix.commands)
