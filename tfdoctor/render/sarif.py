"""SARIF 2.1.0 output of ``tfdoctor scan``, as GitHub code scanning reads it.

One ``run``; one reporting descriptor per finding id; one result per finding with a location
(paths relative to the working directory, ``/``-separated, under ``%SRCROOT%``). Columns count
Unicode code points, as the scan reports them. Spec: https://docs.oasis-open.org/sarif/sarif/v2.1.0/
"""

from __future__ import annotations

import json
import os
from typing import Any, Optional

from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.redact import Redactor
from tfdoctor.render._common import inert_json

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/tensorflow/tensorflow/releases"

# SARIF levels: error, warning, note (and none); unknown is a warning: unknown is never OK.
_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.UNKNOWN: "warning",
    Severity.INFO: "note",
    Severity.OK: "none",
}


def render_sarif(report: Report, version: str, base: Optional[str] = None) -> str:
    """The report as a SARIF 2.1.0 log (``base``: the directory paths are made relative to)."""
    safe = Redactor(private=False).tree(report)
    root = os.path.abspath(base or os.curdir)  # noqa: PTH100 - os.path.relpath below takes str
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    for finding in safe.findings:
        if finding.location is None:
            continue
        if finding.id not in index:
            index[finding.id] = len(rules)
            rules.append(_rule(finding))
        results.append(_result(finding, index[finding.id], root))
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "tfdoctor",
                        "version": version,
                        "semanticVersion": version,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return inert_json(json.dumps(log, indent=2, sort_keys=True) + "\n")


def _rule(finding: Finding) -> dict[str, Any]:
    rule: dict[str, Any] = {
        "id": finding.id,
        "name": "".join(part.capitalize() for part in finding.id.replace(".", "-").split("-")),
        "shortDescription": {"text": finding.id},
        "fullDescription": {"text": finding.detail or finding.summary},
        "defaultConfiguration": {"level": _LEVEL[finding.severity]},
        "properties": {"tags": ["tensorflow", finding.cause or "scan"]},
    }
    if finding.links:
        rule["helpUri"] = finding.links[0]
    if finding.fix is not None:
        rule["help"] = {"text": finding.fix.text}
    return rule


def _result(finding: Finding, rule_index: int, root: str) -> dict[str, Any]:
    where = finding.location
    assert where is not None
    message = finding.detail or finding.summary
    if finding.fix is not None:
        message += f" Fix: {finding.fix.text}"
        if finding.fix.commands:
            message += " (" + "; ".join(finding.fix.commands) + ")"
    region: dict[str, Any] = {"startLine": max(1, where.line), "startColumn": max(1, where.column)}
    artifact = {"uri": _uri(where.path, root)}
    if not artifact["uri"].startswith("file:"):
        artifact["uriBaseId"] = "%SRCROOT%"
    location: dict[str, Any] = {
        "physicalLocation": {"artifactLocation": artifact, "region": region}
    }
    if where.cell is not None:
        message = f"Notebook cell {where.cell}, line {where.line}: {message}"
        # Code scanning shows a result at a line of the file it names (it needs a physical
        # location: SARIF 2.1.0 section 3.28.3, GitHub's SARIF support page), so the region is
        # the line of the .ipynb JSON that holds the source line, where it is known, and the
        # cell with the line within it is the logical location (section 3.33).
        if where.file_line is not None:
            region["startLine"] = where.file_line
            del region["startColumn"]  # a column of the cell's source, not of the JSON line
        else:
            region = {"startLine": 1}
        location["physicalLocation"]["region"] = region
        location["logicalLocations"] = [
            {
                "name": f"cell {where.cell}, line {where.line}",
                "fullyQualifiedName": f"{artifact['uri']}:cell {where.cell}:{where.line}",
                "kind": "module",
                "properties": {"cell": where.cell, "line": where.line, "column": where.column},
            }
        ]
    return {
        "ruleId": finding.id,
        "ruleIndex": rule_index,
        "level": _LEVEL[finding.severity],
        "message": {"text": message},
        "locations": [location],
    }


def _uri(path: str, root: str) -> str:
    """``path`` relative to ``root`` with ``/`` separators (absolute when outside it)."""
    full = os.path.abspath(path)  # noqa: PTH100 - strings in, strings out
    try:
        rel = os.path.relpath(full, root)
    except ValueError:  # another drive on Windows
        rel = full
    if rel.startswith(".."):
        return _file_uri(full)
    return rel.replace(os.sep, "/")


def _file_uri(path: str) -> str:
    from pathlib import Path  # noqa: PLC0415 - only for paths outside the base

    return Path(path).as_uri()
