"""The C API table (tfdoctor/data/c_api.yaml): its reader, invariants of the shipped rows, and
the fixes for a binding that finds a C function missing, which name the releases having it."""

from __future__ import annotations

import pytest

from tests.planted import planted_error
from tfdoctor.c_api import C_API_DATA, CApiError, c_api, c_function, parse_c_api
from tfdoctor.causes.software import c_binding_fix, dotnet_binding_fix

TEXT = C_API_DATA.read_text(encoding="utf-8")

TABLE = """\
schema_version: 1
sources:
  - {id: old-headers, title: "Old headers", url: "https://example.org/old"}
  - {id: new-headers, title: "New headers", url: "https://example.org/new"}
functions:
  - {name: TF_Gone, header: tensorflow/c/c_api.h, last: "1.9", removed: "1.10",
     source: [old-headers, new-headers]}
  - {name: TF_Fresh, header: tensorflow/c/c_api.h, added: "1.10", source: new-headers}
"""


def test_shipped_rows_name_their_sources_and_releases() -> None:
    data = c_api()
    assert data.functions, "an empty table reads no evidence"
    for row in data.functions.values():
        assert row.sources and all(s in data.sources for s in row.sources), row.name
        assert row.added is not None or (row.last is not None and row.removed is not None)
    assert all(s.url.startswith("https://") for s in data.sources.values())


def test_rows_read_as_added_or_removed() -> None:
    data = parse_c_api(TABLE, "t.yaml")
    gone, fresh = data.functions["TF_Gone"], data.functions["TF_Fresh"]
    assert (gone.last, gone.removed, gone.added) == ("1.9", "1.10", None)
    assert (fresh.added, fresh.removed) == ("1.10", None)


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        pytest.param(
            ', removed: "1.10"',
            "",
            6,
            "functions[TF_Gone]: last and removed go together",
            id="last-alone",
        ),
        pytest.param(
            ' added: "1.10",',
            "",
            8,
            "functions[TF_Fresh]: needs added, or removed with last",
            id="neither",
        ),
        pytest.param(
            'added: "1.10"',
            "added: 1.10",
            8,
            "functions[TF_Fresh].added: expected a string",
            id="unquoted",
        ),
        pytest.param(
            "name: TF_Fresh",
            "name: Fresh",
            8,
            "functions[1].name: 'Fresh' is not a valid C function name",
            id="name",
        ),
    ],
)
def test_a_planted_fault_names_file_line_and_field(
    old: str, new: str, line: int, message: str
) -> None:
    at, said = planted_error(parse_c_api, CApiError, TABLE, old, new, "t.yaml")
    assert at == line and said.startswith(message), said


def test_dotnet_fix_names_the_native_package_release_that_has_a_removed_function() -> None:
    row = c_function("TF_StringEncodedSize")
    assert row is not None and row.last is not None
    fix = dotnet_binding_fix("TF_StringEncodedSize")
    assert f"SciSharp.TensorFlow.Redist {row.last}" in fix.text
    assert f"in {row.removed}" in fix.text


def test_dotnet_fix_without_a_row_stays_general() -> None:
    fix = dotnet_binding_fix("TF_NotInTheTable")
    assert "different releases" in fix.text and "removed" not in fix.text


def test_c_binding_fix_names_the_last_library_with_a_removed_function() -> None:
    row = c_function("TF_StringEncode")
    assert row is not None
    fix = c_binding_fix("github.com/example/binding", "TF_StringEncode", "linux")
    assert f"libtensorflow {row.last} release (the last with it)" in fix.text
    assert "newer TensorFlow C library" not in fix.text  # the binding is the older one here


def test_an_added_function_names_its_first_release_in_both_fixes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The reader's other kind of row: the library loaded is older than the release that
    # added the function, so the fixes name that release or a newer one, never "the last".
    fresh = parse_c_api(TABLE).functions["TF_Fresh"]
    monkeypatch.setattr("tfdoctor.causes.software.c_function", {"TF_Fresh": fresh}.get)
    binding = c_binding_fix(None, "TF_Fresh", "linux")
    assert (
        "added TF_Fresh" in binding.text and "libtensorflow 1.10 release or newer" in binding.text
    )
    dotnet = dotnet_binding_fix("TF_Fresh")
    assert "SciSharp.TensorFlow.Redist 1.10 or newer" in dotnet.text
    assert "last" not in binding.text + dotnet.text
