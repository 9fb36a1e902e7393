"""The machine-readable report: versioned JSON, secrets redacted, keys sorted."""

from __future__ import annotations

import json

from tfdoctor.findings import Report, report_to_json
from tfdoctor.redact import Redactor


def render_json(report: Report, version: str, strict: bool = False) -> str:
    """The report as indented, key-sorted JSON (see ``docs/report.schema.json``), newline-ended."""
    data = Redactor(private=False).tree(report_to_json(report, version, strict))
    return json.dumps(data, indent=2, sort_keys=True) + "\n"
