"""dpkg -l's rows read into the packages they show installed, and a shared library's package
found among them by Debian's naming of library packages."""

from __future__ import annotations

import pytest

from tfdoctor.evidence.dpkg import dpkg_installed, library_packages

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
