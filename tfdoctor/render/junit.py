"""The report as JUnit XML, the test-report format Jenkins, GitLab and GitHub's reporters read.

One test case per finding: a check that yields several findings yields several test cases.
How a severity maps (the XML and the exit code agree):

- ok: passed.
- info: passed, the note in ``system-out``, when it carries a fix; else skipped: the check had
  nothing to judge here (no GPU, ``--static``).
- unknown: skipped (could not be determined); a failure with ``--strict``.
- warning: passed, the warning in ``system-out``; a failure with ``--strict``.
- error: a failure.

A check that crashed (``doctor.crashed``, severity unknown) is named after that check and is
skipped, or an ``error`` with ``--strict``: JUnit's word for a test that broke, not one that
found a fault.

Schema: the Jenkins xUnit plugin's ``junit-10.xsd``, which GitLab's and GitHub's test
reporters read as well (https://github.com/jenkinsci/xunit-plugin).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Optional

from tfdoctor.facts import Facts
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.machine import Machine
from tfdoctor.redact import Redactor
from tfdoctor.render._common import area_of

#: Finding ids that mean the doctor itself broke, not the environment: JUnit's ``error``.
CRASH_IDS = frozenset({"doctor.crashed"})

# Characters XML 1.0 cannot carry at all, not even escaped
# (https://www.w3.org/TR/xml/#charsets): a TensorFlow stderr tail may hold ANSI escapes.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def render_junit(report: Report, version: str, *, command: str, strict: bool = False) -> str:
    """The report as one JUnit ``testsuite`` named ``tfdoctor <command>``, newline-ended.

    Secrets are redacted as in the JSON report; the properties name the tfdoctor and
    TensorFlow versions.
    """
    safe = Redactor(private=False).tree(report)
    suite_name = f"tfdoctor {command}"
    cases = [_testcase(f, name, command, strict) for f, name in _named(safe.findings)]
    failures = sum(1 for c in cases if c.find("failure") is not None)
    errors = sum(1 for c in cases if c.find("error") is not None)
    skipped = sum(1 for c in cases if c.find("skipped") is not None)
    counts = {"tests": str(len(cases)), "failures": str(failures), "errors": str(errors)}

    root = ET.Element("testsuites", {"name": "tfdoctor", **counts})
    suite = ET.SubElement(
        root,
        "testsuite",
        {
            "name": suite_name,
            **counts,
            "skipped": str(skipped),
            "timestamp": _clean(safe.facts.collected_at),
        },
    )
    properties = ET.SubElement(suite, "properties")
    for name, value in _properties(safe.facts, version, command, strict):
        ET.SubElement(properties, "property", {"name": name, "value": _clean(value)})
    suite.extend(cases)
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"


def tensorflow_version(facts: Facts) -> Optional[str]:
    """The TensorFlow version: as imported, else as installed (``--static``), else None."""
    if facts.tensorflow is not None and facts.tensorflow.version:
        return facts.tensorflow.version
    installed = Machine(facts, None).tf
    return installed.version if installed is not None else None


def _properties(facts: Facts, version: str, command: str, strict: bool) -> list[tuple[str, str]]:
    python = facts.python.version if facts.python is not None else None
    return [
        ("tfdoctor.version", version),
        ("tfdoctor.command", command),
        ("tfdoctor.strict", "true" if strict else "false"),
        ("tensorflow.version", tensorflow_version(facts) or "unknown"),
        ("python.version", python or "unknown"),
    ]


def _named(findings: tuple[Finding, ...]) -> list[tuple[Finding, str]]:
    """Each finding with a test-case name unique in the suite: its id (a crash: the crashed
    check's), numbered when it recurs, since reporters merge test cases of the same name."""
    ids = [f.check if f.id in CRASH_IDS and f.check else f.id for f in findings]
    totals = Counter(ids)
    seen: Counter[str] = Counter()
    named = []
    for finding, case_id in zip(findings, ids):
        seen[case_id] += 1
        name = case_id if totals[case_id] == 1 else f"{case_id} #{seen[case_id]}"
        named.append((finding, name))
    return named


def _testcase(finding: Finding, name: str, command: str, strict: bool) -> ET.Element:
    case = ET.Element(
        "testcase",
        {"name": _clean(name), "classname": _clean(f"tfdoctor.{command}.{area_of(name)}")},
    )
    sev = finding.severity
    crashed = finding.id in CRASH_IDS
    attrs = {"type": "crashed" if crashed else sev.value, "message": _clean(finding.summary)}
    if sev is Severity.ERROR or (strict and sev in (Severity.WARNING, Severity.UNKNOWN)):
        # --strict fails on warnings and unknowns (exit code 1); the test report says the same.
        _child(case, "error" if crashed else "failure", attrs, _body(finding))
    elif sev is Severity.UNKNOWN or (sev is Severity.INFO and finding.fix is None):
        _child(case, "skipped", attrs, _body(finding))
    else:
        _child(case, "system-out", {}, f"{sev.value}: {_body(finding)}")
    return case


def _child(parent: ET.Element, tag: str, attrs: dict[str, str], text: str) -> None:
    element = ET.SubElement(parent, tag, attrs)
    element.text = _clean(text)


def _body(finding: Finding) -> str:
    """Summary, detail, fix and links as plain text, for the element's body."""
    parts = [finding.summary]
    if finding.detail:
        parts.append(finding.detail)
    if finding.fix is not None:
        parts.append("Fix: " + finding.fix.text)
        parts.extend(f"  $ {command}" for command in finding.fix.commands)
    parts.extend(f"See: {link}" for link in finding.links)
    if finding.check and finding.check != finding.id:
        parts.append(f"Check: {finding.check}")
    return "\n".join(parts)


def _clean(text: str) -> str:
    """``text`` with the characters XML cannot hold shown as ``\\xNN``."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
