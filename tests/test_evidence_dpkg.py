"""dpkg -l's rows read into the packages they show installed, and a shared library's package
found among them by Debian's naming of library packages."""

from __future__ import annotations

import pytest

from tfdoctor.evidence.dpkg import apt_installed, dpkg_installed, library_packages

_LISTING = """\
$ dpkg -l | grep -E 'libfoo|zlib'
ii  libfoo2-fast:amd64   3.0-1ubuntu1   amd64   Fast variant of the foo runtime
rc  libfoo1:amd64        2.9-1          amd64   Removed, configuration left
ii  libfoo-dev           3.0-1          amd64   Headers of the foo runtime
ii  zlib1g:amd64         1:1.2.11.dfsg-2ubuntu1   amd64   compression library - runtime
"""


def test_rows_give_installed_names_and_versions_only() -> None:
    assert dpkg_installed(_LISTING) == (
        ("libfoo2-fast", "3.0-1ubuntu1"),
        ("libfoo-dev", "3.0-1"),
        ("zlib1g", "1:1.2.11.dfsg-2ubuntu1"),
    )


@pytest.mark.parametrize(
    ("library", "expected"),
    [
        # Not libfoo-dev: it holds the unversioned link, not the runtime the loader opened.
        pytest.param(
            "/usr/lib/x86_64-linux-gnu/libfoo.so.2.0", ["libfoo2-fast 3.0-1ubuntu1"], id="variant"
        ),
        pytest.param("/usr/lib/libfoobar.so.1", [], id="longer-name-is-another-library"),
        pytest.param("/opt/x/bin/tool", [], id="no-library"),
    ],
)
def test_a_librarys_package_is_named_after_its_soname(library: str, expected: list[str]) -> None:
    assert library_packages(library, dpkg_installed(_LISTING)) == expected


def test_apt_lists_installed_rows_are_read_with_their_versions() -> None:
    text = (
        "$ apt list --installed | grep infer\n"
        "\n"
        "libnvinfer8/unknown,now 8.0.0-1+cuda11.0 amd64 [installed,upgradable to: 8.2.0-1]\n"
        "libnvinfer-plugin8/unknown,now 8.0.0-1+cuda11.0 amd64 [installed,automatic]\n"
        "libnvinfer-dev/unknown 8.2.0-1+cuda11.4 amd64 [upgradable from: 8.0.0-1+cuda11.0]\n"
    )
    assert apt_installed(text) == (
        ("libnvinfer8", "8.0.0-1+cuda11.0"),
        ("libnvinfer-plugin8", "8.0.0-1+cuda11.0"),
    )
    assert apt_installed("libnvinfer8/unknown 8.2.0-1 amd64 [upgradable from: 8.0.0-1]\n") == ()
