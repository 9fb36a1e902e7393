"""The signatures file: strict validation, and every example a real line its pattern matches."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from tfdoctor.causes import CAUSES
from tfdoctor.signatures import (
    BENIGN,
    DEFAULT_SIGNATURES,
    EVIDENCE,
    TAGS,
    TF_DISTRIBUTION,
    Signature,
    SignatureError,
    load_signatures,
    optional_backticks,
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


def duplicate_ids(signatures: Sequence[Signature]) -> list[str]:
    """Ids given to more than one signature."""
    counts = Counter(s.id for s in signatures)
    return sorted(sid for sid, n in counts.items() if n > 1)


def example_faults(sig: Signature) -> list[str]:
    """What makes a signature untrustworthy: no example, an example its keyword or pattern
    misses (the prefilter would skip the line, or the pattern never fire), a cause outside the
    catalogue, a source that is not an https address."""
    faults = [] if sig.examples else ["no example"]
    faults += [f"keyword misses {line!r}" for line in sig.examples if sig.keyword not in line]
    faults += [f"pattern misses {line!r}" for line in sig.examples if not sig.pattern.search(line)]
    if sig.cause not in CAUSES and sig.cause not in (BENIGN, EVIDENCE):
        faults.append(f"unknown cause {sig.cause!r}")
    faults += [
        f"source {url!r} is not https" for url in sig.sources if not url.startswith("https://")
    ]
    return faults


def _is_cause(sig: Signature) -> bool:
    return sig.cause not in (BENIGN, EVIDENCE)


def benign_lines_blamed(signatures: Sequence[Signature]) -> list[tuple[str, str, str]]:
    """(benign signature, its example, cause signature) where a harmless line would be read
    as evidence for a cause, as the reader runs it: keyword first, then the pattern."""
    causes = [s for s in signatures if _is_cause(s)]
    return [
        (benign.id, line, c.id)
        for benign in signatures
        if benign.cause == BENIGN
        for line in benign.examples
        for c in causes
        if c.keyword in line and c.pattern.search(line)
    ]


def cause_lines_excused(signatures: Sequence[Signature]) -> list[tuple[str, str, str]]:
    """(cause signature, its example, benign signature) where a benign pattern also matches a
    line that is evidence for a cause."""
    benign = [s for s in signatures if s.cause == BENIGN]
    return [
        (sig.id, line, b.id)
        for sig in signatures
        if _is_cause(sig)
        for line in sig.examples
        for b in benign
        if b.pattern.search(line)
    ]


def loud_non_causes(signatures: Sequence[Signature]) -> list[str]:
    """Benign and evidence signatures above ``info`` (or raised with a GPU), and benign ones
    that do not say why they are harmless."""
    loud = [
        s.id
        for s in signatures
        if not _is_cause(s) and (s.severity != "info" or s.severity_with_gpu is not None)
    ]
    return loud + [s.id for s in signatures if s.cause == BENIGN and not s.explanation]


FIRST_CAUSE = next(s for s in SIGNATURES.signatures if _is_cause(s))
FIRST_BENIGN = next(s for s in SIGNATURES.signatures if s.cause == BENIGN)


def test_the_bundled_signatures_load_with_unique_ids() -> None:
    assert len(SIGNATURES.signatures) >= 40
    assert duplicate_ids(SIGNATURES.signatures) == []
    assert duplicate_ids((*SIGNATURES.signatures, FIRST_CAUSE)) == [FIRST_CAUSE.id]


@pytest.mark.parametrize("sig", SIGNATURES.signatures, ids=lambda s: s.id)
def test_every_example_matches_its_own_pattern(sig: Signature) -> None:
    assert example_faults(sig) == []


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        pytest.param({"examples": ()}, "no example", id="no-example"),
        pytest.param({"examples": ("an unrelated line",)}, "keyword misses", id="keyword"),
        pytest.param({"pattern": re.compile("^never$")}, "pattern misses", id="pattern"),
        pytest.param({"cause": "no-such-cause"}, "unknown cause", id="cause"),
        pytest.param({"sources": ("http://example.org",)}, "is not https", id="http-source"),
    ],
)
def test_a_planted_bad_signature_is_caught(change: dict[str, object], fault: str) -> None:
    faults = example_faults(dataclasses.replace(FIRST_CAUSE, **change))  # type: ignore[arg-type]
    assert any(fault in x for x in faults), faults


def test_no_benign_example_matches_a_cause_signature() -> None:
    assert benign_lines_blamed(SIGNATURES.signatures) == []
    # Planted: a benign signature whose example is a cause's evidence.
    line = FIRST_CAUSE.examples[0]
    planted = dataclasses.replace(FIRST_BENIGN, examples=(line,))
    assert (FIRST_BENIGN.id, line, FIRST_CAUSE.id) in benign_lines_blamed((FIRST_CAUSE, planted))


def test_no_cause_example_matches_a_benign_signature() -> None:
    assert cause_lines_excused(SIGNATURES.signatures) == []
    # Planted: a benign signature with a cause's pattern excuses that cause's lines.
    planted = dataclasses.replace(FIRST_CAUSE, id="planted", cause=BENIGN)
    line = FIRST_CAUSE.examples[0]
    assert (FIRST_CAUSE.id, line, "planted") in cause_lines_excused((FIRST_CAUSE, planted))


def test_benign_and_evidence_signatures_are_info_and_benign_ones_say_why() -> None:
    assert loud_non_causes(SIGNATURES.signatures) == []
    assert loud_non_causes((dataclasses.replace(FIRST_BENIGN, severity="warning"),)) == [
        FIRST_BENIGN.id
    ]
    assert loud_non_causes((dataclasses.replace(FIRST_BENIGN, explanation=""),)) == [
        FIRST_BENIGN.id
    ]


def test_a_valid_document_parses() -> None:
    sigs = parse_signatures(_doc(), "s.yaml")
    assert sigs.by_id("demo").cause == "cpu-lacks-avx"
    assert sigs.by_id("demo").needs == ""
    needing = parse_signatures(_doc(GOOD_ENTRY + "    needs: tensorflow-frame\n"), "s.yaml")
    assert needing.by_id("demo").needs == "tensorflow-frame"


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
            _doc(GOOD_ENTRY + "    needs: sunshine\n"),
            r"s\.yaml:11: signatures\[demo\]\.needs: 'sunshine' is not one of alone, ",
            id="unknown-need",
        ),
        pytest.param(
            _doc(
                GOOD_ENTRY.replace("cause: cpu-lacks-avx", "cause: evidence").replace(
                    "severity: error", "severity: info"
                )
                + "    needs: alone\n"
            ),
            r"s\.yaml:11: signatures\[demo\]\.needs: a evidence signature needs no context",
            id="evidence-with-need",
        ),
        pytest.param(
            _doc(GOOD_ENTRY + GOOD_ENTRY),
            r"s\.yaml:11: signatures\[1\]\.id: duplicate id 'demo'",
            id="duplicate-id",
        ),
        *(
            pytest.param(
                _doc(GOOD_ENTRY + f"    tags: {tags}\n"),
                r"s\.yaml:11: signatures\[demo\]\.tags: " + message,
                id=name,
            )
            for name, tags, message in (
                ("unknown-tag", "[sunshine]", "'sunshine' is not one of [a-z, -]*emulator, "),
                ("tag-not-a-list", "emulator", "expected a list"),
                ("no-tags", "[]", "needs at least one tag"),
                ("repeated-tag", "[emulator, emulator]", "'emulator' is given twice"),
            )
        ),
    ],
)
def test_problems_are_one_line_with_file_line_and_field(text: str, expected: str) -> None:
    with pytest.raises(SignatureError) as err:
        parse_signatures(text, "s.yaml")
    message = str(err.value)
    assert "\n" not in message
    assert re.match(expected, message), message


def test_tags_are_read_sorted() -> None:
    sigs = parse_signatures(_doc(GOOD_ENTRY + "    tags: [macos-words, emulator]\n"), "s.yaml")
    assert sigs.by_id("demo").tags == ("emulator", "macos-words")
    assert parse_signatures(_doc(), "s.yaml").by_id("demo").tags == ()


def test_every_tag_is_carried_by_a_shipped_signature() -> None:
    # A tag no signature carries is code reading nothing.
    carried = {t for sig in SIGNATURES.signatures for t in sig.tags}
    assert carried == set(TAGS)


#: Each system's or program's words, as the phrase every line of its own prints, and the tag
#: that says so (signatures.TAGS): Windows' loader, as Python reports it (dynload_win.c:
#: "DLL load failed", "Module use of ...dll conflicts") and as ctypes and cuDNN do (WinError
#: 126, "Error code" of LoadLibrary; a socket's WinError beside Linux's errno in one pattern is
#: no loader's, and no sign of Windows); dyld on macOS ("Expected in:", "built for macOS"); the ROCm
#: libraries TensorFlow's loader names (dso_loader.cc); Bazel's own launcher (bazel.sh).
TAG_FAMILIES = {
    "windows-words": (
        "DLL load failed",
        r"\[WinError 126",
        "conflicts with this version of Python",
        r"\.dll)\. Error code",
    ),
    "macos-words": ("Expected in:", "(?:Mac OS X|macOS)"),
    "rocm-words": ("amdhip64", "libMIOpen", "rocblas"),
    "bazel-words": ("requires Bazel", "bazel installation", "bazel_tools"),
}


@pytest.mark.parametrize("tag", sorted(TAG_FAMILIES))
def test_every_signature_of_a_family_carries_its_tag(tag: str) -> None:
    # A family's tag read from some of its lines only decides by which line the log shows.
    family = [
        sig.id
        for sig in SIGNATURES.signatures
        if any(w in sig.pattern.pattern for w in TAG_FAMILIES[tag])
    ]
    assert family, tag
    assert [sid for sid in family if tag not in SIGNATURES.by_id(sid).tags] == []


def test_an_unreadable_file_is_one_line(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    with pytest.raises(SignatureError, match=r"cannot read the signatures"):
        load_signatures(str(tmp_path / "missing.yaml"))


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "ImportError: DLL load failed: Das angegebene Modul wurde nicht gefunden.",
            "windows-dll-not-found",
        ),
        (
            "ImportError: DLL load failed: Le module spécifié est introuvable.",
            "windows-dll-not-found",
        ),
        (
            "ImportError: DLL load failed: 指定されたモジュールが見つかりません。",
            "windows-dll-not-found",
        ),
        ("ImportError: DLL load failed: Не найден указанный модуль.", "windows-dll-not-found"),  # noqa: RUF001
        (
            "ImportError: DLL load failed: Een initialisatieroutine van de dynamic link library "
            "(DLL-bestand) is mislukt.",
            "windows-dll-init-failed",
        ),
        (
            "ImportError: DLL load failed: 动态链接库(DLL)初始化例程失败。",
            "windows-dll-init-failed",
        ),
        # Another package's module (cv2): not TensorFlow's native library, in any language.
        (
            "ImportError: DLL load failed while importing cv2: Das angegebene Modul wurde "
            "nicht gefunden.",
            "",
        ),
        (
            "ImportError: DLL load failed: Error en una rutina de inicialización de biblioteca de "
            "vínculos dinámicos (DLL).",
            "windows-dll-init-failed",
        ),
        # A file of another machine type (193): Win32 in every language, not a missing module.
        (
            "ImportError: DLL load failed: %1 n'est pas une application Win32 valide.",
            "windows-dll-wrong-machine",
        ),
        (
            "ImportError: DLL load failed while importing _pywrap_tensorflow_internal: %1 は"
            "有効な Win32 アプリケーションではありません。",
            "windows-dll-wrong-machine",
        ),
    ],
)
def test_windows_messages_in_the_systems_language_name_their_error(
    line: str, expected: str
) -> None:
    """Windows words the reason after Python's "DLL load failed" in its own language: a
    module not found (126), a file of another machine type (193) and an initialisation
    routine that failed (1114) stay apart."""
    hits = [
        s.id
        for s in SIGNATURES.signatures
        if s.id.startswith("windows-dll") and s.keyword in line and s.pattern.search(line)
    ]
    assert hits == ([expected] if expected else [])


@pytest.mark.parametrize("sig", SIGNATURES.signatures, ids=lambda s: s.id)
def test_every_example_matches_with_its_backticks_lost(sig: Signature) -> None:
    # A message pasted into a Markdown page loses its paired backticks (`x` renders as code;
    # a lone one, the opening quote of `GLIBC_2.17', stays).
    for line in sig.examples:
        if line.count("`") % 2:
            continue
        plain = line.replace("`", "")
        assert sig.keyword in plain and sig.pattern.search(plain), (sig.id, plain)


def test_only_literal_backticks_become_optional() -> None:
    assert optional_backticks("The `save_format` arg") == "The `?save_format`? arg"
    assert optional_backticks("version [`'](?P<glibc>x)") == "version [`'](?P<glibc>x)"
    assert optional_backticks("a\\`b") == "a\\`b"


def test_tensorflows_family_names_have_one_home() -> None:
    # The distribution names of TensorFlow's family are written once (signatures.TF_DISTRIBUTION,
    # the {{tf_dist}} part), not spelled out again in a pattern.
    text = Path(DEFAULT_SIGNATURES).read_text(encoding="utf-8")
    assert TF_DISTRIBUTION[3:-1] not in text
    assert "{{tf_dist}}" in text


def test_a_change_met_is_read_as_distribution_and_release() -> None:
    text = _doc(GOOD_ENTRY + '    changed: {dist: numpy, release: "1.16.3"}\n')
    assert parse_signatures(text, "s.yaml").by_id("demo").changed == ("numpy", "1.16.3")
    assert parse_signatures(_doc(), "s.yaml").by_id("demo").changed is None
    with pytest.raises(SignatureError, match=r"changed\.release: '1\.16\.x' is not a valid"):
        parse_signatures(_doc(GOOD_ENTRY + "    changed: {dist: numpy, release: 1.16.x}\n"), "s")
