"""The machine-readable report: versioned JSON, secrets redacted, keys sorted."""

from __future__ import annotations

import json

from tfdoctor.findings import Report, report_to_json
from tfdoctor.redact import Redactor
from tfdoctor.render._common import inert_json


def render_json(report: Report, version: str, strict: bool = False) -> str:
    """The report as indented, key-sorted JSON (see ``docs/report.schema.json``), newline-ended."""
    # Redact the report itself, not its JSON form: only the values are rewritten, so the
    # field names (and the finding ids) are never matched against the secret rules. Control
    # characters stay as they are: json.dumps writes them as \u escapes, in ASCII.
    data = report_to_json(Redactor(private=False, controls=False).tree(report), version, strict)
    return inert_json(json.dumps(data, indent=2, sort_keys=True) + "\n")
