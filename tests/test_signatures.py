"""The signatures file: strict validation, and every example a real line its pattern matches."""

from __future__ import annotations

import re

import pytest

from tfdoctor.causes import CAUSES
from tfdoctor.signatures import (
    BENIGN,
    EVIDENCE,
    SignatureError,
    load_signatures,
    parse_signatures,
)

SIGNATURES = load_signatures()

GOOD_ENTRY = """\
  - id: demo
    cause: cpu-lacks-avx
    severity: error
    keyword: Illegal instruction
    pattern: 'Illegal instruction'
    summary: demo
    sources: [https://example.org/x]
    examples: ["Illegal instruction (core dumped)"]
"""


def _doc(entry: str = GOOD_ENTRY) -> str:
    return "schema_version: 1\nsignatures:\n" + entry


def test_the_bundled_signatures_load() -> None:
    assert len(SIGNATURES.signatures) >= 40
    ids = [s.id for s in SIGNATURES.signatures]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("sig", SIGNATURES.signatures, ids=lambda s: s.id)
def test_every_example_matches_its_own_pattern(sig: object) -> None:
    from tfdoctor.signatures import Signature

    assert isinstance(sig, Signature)
    assert sig.examples
    for line in sig.examples:
        assert sig.keyword in line, line
        assert sig.pattern.search(line), line
    assert sig.cause in CAUSES or sig.cause in (BENIGN, EVIDENCE)
    assert all(re.match(r"https://", u) for u in sig.sources)


def test_no_benign_example_matches_a_cause_signature() -> None:
    causes = [s for s in SIGNATURES.signatures if s.cause not in (BENIGN, EVIDENCE)]
    for benign in (s for s in SIGNATURES.signatures if s.cause == BENIGN):
        for line in benign.examples:
            hits = [c.id for c in causes if c.keyword in line and c.pattern.search(line)]
            assert hits == [], (benign.id, line)


def test_no_cause_example_matches_a_benign_signature() -> None:
    benign = [s for s in SIGNATURES.signatures if s.cause == BENIGN]
    for sig in (s for s in SIGNATURES.signatures if s.cause not in (BENIGN, EVIDENCE)):
        for line in sig.examples:
            assert [b.id for b in benign if b.pattern.search(line)] == [], (sig.id, line)


def test_benign_and_evidence_signatures_are_info() -> None:
    for sig in SIGNATURES.signatures:
        if sig.cause in (BENIGN, EVIDENCE):
            assert sig.severity == "info" and sig.severity_with_gpu is None, sig.id
        if sig.cause == BENIGN:
            assert sig.explanation, sig.id


def test_a_valid_document_parses() -> None:
    sigs = parse_signatures(_doc(), "s.yaml")
    assert sigs.by_id("demo").cause == "cpu-lacks-avx"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("", r"s\.yaml:1: the signatures file is empty", id="empty"),
        pytest.param("a: [", r"s\.yaml:\d+: YAML syntax error", id="yaml-syntax"),
        pytest.param(
            "schema_version: 2\nsignatures: []\n",
            r"s\.yaml:1: schema_version: 2 is not supported",
            id="schema-version",
        ),
        pytest.param(
            _doc("  []\n").replace("signatures:\n  []", "signatures: []"),
            r"s\.yaml:2: signatures: needs at least one signature",
            id="no-signatures",
        ),
        pytest.param(
            _doc(GOOD_ENTRY + "    colour: red\n"),
            r"s\.yaml:11: signatures\[0\]\.colour: unknown field",
            id="unknown-field",
        ),
        pytest.param(
            _doc(GOOD_ENTRY.replace("    summary: demo\n", "")),
            r"s\.yaml:3: signatures\[0\]\.summary: missing field",
            id="missing-field",
        ),
        pytest.param(
            _doc(GOOD_ENTRY.replace("cpu-lacks-avx", "no-such-cause")),
            r"s\.yaml:4: signatures\[demo\]\.cause: unknown cause 'no-such-cause'",
            id="unknown-cause",
        ),
        pytest.param(
            _doc(GOOD_ENTRY.replace("severity: error", "severity: fatal")),
            r"s\.yaml:5: signatures\[demo\]\.severity: 'fatal' is not one of",
            id="bad-severity",
        ),
        pytest.param(
            _doc(GOOD_ENTRY.replace("cause: cpu-lacks-avx", "cause: benign")),
            r"s\.yaml:5: signatures\[demo\]\.severity: a benign signature is info",
            id="benign-not-info",
        ),
        pytest.param(
            _doc(
                GOOD_ENTRY.replace("cause: cpu-lacks-avx", "cause: benign").replace(
                    "severity: error", "severity: info"
                )
            ),
            r"s\.yaml:3: signatures\[demo\]\.explanation: a benign signature says why",
            id="benign-without-explanation",
        ),
        pytest.param(
            _doc(GOOD_ENTRY.replace("'Illegal instruction'", "'Illegal (instruction'")),
            r"s\.yaml:7: signatures\[demo\]\.pattern: invalid regex",
            id="bad-regex",
        ),
        pytest.param(
            _doc(GOOD_ENTRY.replace("'Illegal instruction'", "'(?P<colour>Illegal) x'")),
            r"s\.yaml:7: signatures\[demo\]\.pattern: unknown group 'colour'",
            id="unknown-group",
        ),
        pytest.param(
            _doc(GOOD_ENTRY.replace("'Illegal instruction'", "'Illegal instruction!'")),
            r"s\.yaml:10: signatures\[demo\]\.pattern: does not match example",
            id="example-does-not-match",
        ),
        pytest.param(
            _doc(GOOD_ENTRY.replace("keyword: Illegal instruction", "keyword: SIGILL")),
            r"s\.yaml:10: signatures\[demo\]\.keyword: 'SIGILL' does not occur in example",
            id="keyword-not-in-example",
        ),
        pytest.param(
            _doc(GOOD_ENTRY.replace('["Illegal instruction (core dumped)"]', "[]")),
            r"s\.yaml:10: signatures\[demo\]\.examples: needs at least one example",
            id="no-example",
        ),
        pytest.param(
            _doc(GOOD_ENTRY.replace("https://example.org/x", "http://example.org/x")),
            r"s\.yaml:9: signatures\[demo\]\.sources: 'http://example.org/x' is not an https",
            id="not-https",
        ),
        pytest.param(
            _doc(GOOD_ENTRY + GOOD_ENTRY),
            r"s\.yaml:11: signatures\[1\]\.id: duplicate id 'demo'",
            id="duplicate-id",
        ),
    ],
)
def test_problems_are_one_line_with_file_line_and_field(text: str, expected: str) -> None:
    with pytest.raises(SignatureError) as err:
        parse_signatures(text, "s.yaml")
    message = str(err.value)
    assert "\n" not in message
    assert re.match(expected, message), message


def test_an_unreadable_file_is_one_line(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    with pytest.raises(SignatureError, match=r"cannot read the signatures"):
        load_signatures(str(tmp_path / "missing.yaml"))


def test_the_installed_package_ships_the_signatures() -> None:
    """An installed tfdoctor (CI installs it with `pip install .`) carries signatures.yaml."""
    import importlib.metadata
    from pathlib import Path

    from tfdoctor.signatures import DEFAULT_SIGNATURES

    try:
        dist = importlib.metadata.distribution("tfdoctor")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("the package is not installed in this environment (only importable)")
    names = {f.name for f in dist.files or ()}
    if "signatures.yaml" not in names and '"editable"' in (dist.read_text("direct_url.json") or ""):
        pytest.skip("an editable install serves the signatures from the source tree")
    if Path(str(dist.locate_file(""))).resolve() == DEFAULT_SIGNATURES.parent.parent.resolve():
        pytest.skip("the metadata found is the source tree's own (egg-info), not an install")
    installed_py = next((f for f in dist.files or () if f.name == "signatures.py"), None)
    source_py = DEFAULT_SIGNATURES.with_name("signatures.py").read_bytes()
    if installed_py is None or Path(str(dist.locate_file(installed_py))).read_bytes() != source_py:
        pytest.skip("the installed copy predates this source (CI installs afresh)")
    entry = next((f for f in dist.files or () if f.name == "signatures.yaml"), None)
    assert entry is not None, "signatures.yaml is missing from the installed package"
    assert Path(str(dist.locate_file(entry))).read_bytes() == DEFAULT_SIGNATURES.read_bytes()
    files = {str(f).replace("\\", "/") for f in dist.files or ()}
    assert "tfdoctor/explain/reader.py" in files
