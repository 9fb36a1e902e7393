"""The machine-readable report: versioned JSON, secrets redacted, keys sorted."""

from __future__ import annotations

import json

from tfdoctor.findings import Report, report_to_json
from tfdoctor.redact import Redactor


def render_json(report: Report, version: str, strict: bool = False) -> str:
    """The report as indented, key-sorted JSON (see ``docs/report.schema.json``), newline-ended."""
    # Redact the report itself, not its JSON form: only the values are rewritten, so the
    # field names (and the finding ids) are never matched against the secret rules.
    data = report_to_json(Redactor(private=False).tree(report), version, strict)
    return json.dumps(data, indent=2, sort_keys=True) + "\n"
