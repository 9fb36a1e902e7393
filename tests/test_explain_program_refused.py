"""glibc's loader refusing to start a program, read from the signatures' groups: the program
and the library its line names, whichever signature reads the line."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.explain import scan
from tfdoctor.explain.common import program_refused
from tfdoctor.explain.reader import split_text
from tfdoctor.signatures import load_signatures


def _refused(line: str, signature: str) -> Optional[tuple[str, str]]:
    evidence = scan([split_text(line + "\n")], load_signatures())
    return program_refused([evidence.hits[signature]])


@pytest.mark.parametrize(
    "line, signature, expected",
    [
        (
            "/opt/app/bin/classify: error while loading shared libraries: libfoo_ops.so.3: "
            "cannot open shared object file: No such file or directory",
            "shared-object-not-found",
            ("/opt/app/bin/classify", "libfoo_ops.so.3"),
        ),
        (
            "./serve: error while loading shared libraries: libcuda.so.1: cannot open shared "
            "object file: No such file or directory",
            "import-needs-libcuda",
            ("./serve", "libcuda.so.1"),
        ),
        (
            "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory",
            "import-needs-libcuda",
            None,
        ),
        (
            "ImportError: libfoo_ops.so.3: cannot open shared object file: No such file or "
            "directory",
            "shared-object-not-found",
            None,
        ),
    ],
    ids=["program-any-library", "program-libcuda", "python-libcuda", "python-any-library"],
)
def test_a_program_is_refused_only_where_glibc_names_it(
    line: str, signature: str, expected: Optional[tuple[str, str]]
) -> None:
    assert _refused(line, signature) == expected
