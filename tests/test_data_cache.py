"""The cache of validated data files: same bytes and reader, same value, no second parse;
anything changed, torn or foreign is parsed afresh; the cache never turns into an error."""

from __future__ import annotations

import pickle
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tfdoctor.cache import CACHE_KEEP, cache_dir, code_of
from tfdoctor.matrix import DEFAULT_MATRIX, Matrix, MatrixError, load_matrix, parse_matrix
from tfdoctor.yamldoc import load_cached


class Counted:
    """A reader that counts its calls: text -> its lines."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, text: str, path: str) -> list[str]:
        self.calls += 1
        if "bad" in text:
            raise MatrixError(f"{path}:1: bad")
        return text.splitlines()


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {"TFDOCTOR_CACHE_DIR": str(tmp_path / "cache")}


def _doc(tmp_path: Path, text: str = "a\nb\n") -> Path:
    path = tmp_path / "doc.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _entries(env: dict[str, str]) -> list[Path]:
    return sorted(Path(env["TFDOCTOR_CACHE_DIR"]).glob("doc-*.pickle"))


def test_the_same_file_is_parsed_once(tmp_path: Path, env: dict[str, str]) -> None:
    doc, parse = _doc(tmp_path), Counted()
    first = load_cached(str(doc), "doc", MatrixError, parse, list, env)
    second = load_cached(str(doc), "doc", MatrixError, parse, list, env)
    assert first == second == ["a", "b"]
    assert parse.calls == 1
    assert len(_entries(env)) == 1


def test_changed_bytes_are_parsed_again(tmp_path: Path, env: dict[str, str]) -> None:
    doc, parse = _doc(tmp_path), Counted()
    load_cached(str(doc), "doc", MatrixError, parse, list, env)
    doc.write_text("a\nc\n", encoding="utf-8")
    assert load_cached(str(doc), "doc", MatrixError, parse, list, env) == ["a", "c"]
    assert parse.calls == 2


def test_the_same_bytes_at_another_path_are_parsed_again(
    tmp_path: Path, env: dict[str, str]
) -> None:
    doc, parse = _doc(tmp_path), Counted()
    load_cached(str(doc), "doc", MatrixError, parse, list, env)
    (tmp_path / "other").mkdir()
    moved = _doc(tmp_path / "other")
    load_cached(str(moved), "doc", MatrixError, parse, list, env)
    assert parse.calls == 2  # a parsed value names its file: the path is part of the key


def test_another_python_parses_again(
    tmp_path: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    doc, parse = _doc(tmp_path), Counted()
    load_cached(str(doc), "doc", MatrixError, parse, list, env)
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    load_cached(str(doc), "doc", MatrixError, parse, list, env)
    assert parse.calls == 2


_READER = """
from cachepkg import helper

def parse(text, path):
    return helper.shape(text)
"""


@pytest.fixture
def reader_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package whose reader calls a helper module of its own: both are the reader's code."""
    package = tmp_path / "lib" / "cachepkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "reader.py").write_text(_READER, encoding="utf-8")
    (package / "helper.py").write_text("shape = str.split\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(package.parent))
    yield package
    for name in [n for n in sys.modules if n.partition(".")[0] == "cachepkg"]:
        del sys.modules[name]


@pytest.mark.parametrize("changed", ["reader.py", "helper.py"])
def test_a_change_in_any_module_the_reader_reaches_parses_again(
    tmp_path: Path, env: dict[str, str], reader_package: Path, changed: str
) -> None:
    import importlib

    doc = _doc(tmp_path)
    reader = importlib.import_module("cachepkg.reader")
    first = load_cached(str(doc), "doc", MatrixError, reader.parse, list, env)
    assert load_cached(str(doc), "doc", MatrixError, reader.parse, list, env) == first
    assert len(_entries(env)) == 1
    source = reader_package / changed
    source.write_text(source.read_text(encoding="utf-8") + "# changed\n", encoding="utf-8")
    load_cached(str(doc), "doc", MatrixError, reader.parse, list, env)
    assert len(_entries(env)) == 2  # a new key: the old entry is not served


def test_the_matrix_is_keyed_by_its_validating_reader_and_record_types() -> None:
    code = code_of(parse_matrix.__module__)
    assert code is not None
    names = {part.split(b"\0", 1)[0].decode() for part in code}
    assert {"tfdoctor.matrix", "tfdoctor.yamldoc", "tfdoctor.records"} <= names


@pytest.mark.parametrize(
    "content",
    [b"", b"not a pickle", pickle.dumps({"a": 1})],
    ids=["empty", "garbage", "wrong-kind"],
)
def test_a_torn_or_foreign_entry_is_a_miss(
    tmp_path: Path, env: dict[str, str], content: bytes
) -> None:
    doc, parse = _doc(tmp_path), Counted()
    load_cached(str(doc), "doc", MatrixError, parse, list, env)
    (entry,) = _entries(env)
    entry.write_bytes(content)
    assert load_cached(str(doc), "doc", MatrixError, parse, list, env) == ["a", "b"]
    assert parse.calls == 2
    # The entry was written anew, and serves the next start.
    assert load_cached(str(doc), "doc", MatrixError, parse, list, env) == ["a", "b"]
    assert parse.calls == 2


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_an_entry_others_can_write_is_never_read(tmp_path: Path, env: dict[str, str]) -> None:
    doc, parse = _doc(tmp_path), Counted()
    load_cached(str(doc), "doc", MatrixError, parse, list, env)
    (entry,) = _entries(env)
    entry.write_bytes(pickle.dumps(["forged"]))
    entry.chmod(0o666)
    assert load_cached(str(doc), "doc", MatrixError, parse, list, env) == ["a", "b"]
    assert parse.calls == 2


def test_an_invalid_file_raises_the_readers_error_and_caches_nothing(
    tmp_path: Path, env: dict[str, str]
) -> None:
    doc, parse = _doc(tmp_path, "bad\n"), Counted()
    for _ in range(2):
        with pytest.raises(MatrixError, match="bad"):
            load_cached(str(doc), "doc", MatrixError, parse, list, env)
    assert parse.calls == 2
    assert _entries(env) == []


def test_an_unreadable_file_is_one_line(tmp_path: Path, env: dict[str, str]) -> None:
    missing = tmp_path / "missing.yaml"
    with pytest.raises(MatrixError, match=r"missing\.yaml: cannot read the doc: "):
        load_cached(str(missing), "doc", MatrixError, Counted(), list, env)


def test_an_unwritable_cache_costs_only_the_parse(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")  # a file where the directory would go
    env = {"TFDOCTOR_CACHE_DIR": str(blocker / "cache")}
    doc, parse = _doc(tmp_path), Counted()
    for _ in range(2):
        assert load_cached(str(doc), "doc", MatrixError, parse, list, env) == ["a", "b"]
    assert parse.calls == 2


def test_no_cache_means_none_read_or_written(tmp_path: Path, env: dict[str, str]) -> None:
    env = {**env, "TFDOCTOR_NO_CACHE": "1"}
    doc, parse = _doc(tmp_path), Counted()
    for _ in range(2):
        load_cached(str(doc), "doc", MatrixError, parse, list, env)
    assert parse.calls == 2
    assert not Path(env["TFDOCTOR_CACHE_DIR"]).exists()


def test_old_entries_are_pruned(tmp_path: Path, env: dict[str, str]) -> None:
    parse = Counted()
    for i in range(CACHE_KEEP + 3):
        doc = _doc(tmp_path, f"line {i}\n")
        load_cached(str(doc), "doc", MatrixError, parse, list, env)
    assert len(_entries(env)) == CACHE_KEEP


def test_the_bundled_matrix_from_the_cache_equals_a_fresh_parse(env: dict[str, str]) -> None:
    fresh = parse_matrix(DEFAULT_MATRIX.read_text(encoding="utf-8"), str(DEFAULT_MATRIX))
    assert load_matrix(env=env) == fresh  # written
    cached = load_matrix(env=env)  # read
    assert isinstance(cached, Matrix)
    assert cached == fresh
    assert cached.line_for("2.21.0") == fresh.line_for("2.21.0")


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"TFDOCTOR_CACHE_DIR": "/c"}, "/c"),
        ({"XDG_CACHE_HOME": "/x", "HOME": "/h"}, "/x/tfdoctor"),
        ({"HOME": "/h"}, "/h/.cache/tfdoctor"),
        # A relative XDG path is invalid by the specification: ignored.
        ({"XDG_CACHE_HOME": "rel", "HOME": "/h"}, "/h/.cache/tfdoctor"),
        ({}, None),
        ({"HOME": "/h", "TFDOCTOR_NO_CACHE": "1"}, None),
        ({"HOME": "/h", "TFDOCTOR_NO_CACHE": "0"}, "/h/.cache/tfdoctor"),
    ],
)
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")
def test_cache_dir_follows_the_environment(environ: dict[str, str], expected: str | None) -> None:
    found = cache_dir(environ)
    assert (None if found is None else str(found)) == expected
