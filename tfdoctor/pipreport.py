"""pip's installation report (``pip install --dry-run --report``), read and validated once.

pip writes it as JSON: ``{"install": [{"metadata": {...}, "download_info": {...}}, ...]}``
(https://pip.pypa.io/en/stable/reference/installation-report/). ``tfdoctor pin --resolve``
reads the report of a target's resolution, ``tfdoctor fix`` that of each step's dry run; both
read it here, and anything else than that shape is a :class:`ReportError`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from tfdoctor.facts import normalize_name
from tfdoctor.records import Record, record


class ReportError(ValueError):
    """pip's installation report is not JSON, or not of the shape pip documents."""


@record
class Resolved(Record):
    """One distribution of pip's report."""

    name: str
    version: str
    requires: tuple[str, ...]
    #: ``sha256:<hex>`` of the file pip chose, when the report has it.
    hashes: tuple[str, ...]


_HEX = re.compile(r"^[0-9a-f]{64}$")


def load_report(text: str) -> dict[str, Any]:
    """The report pip printed as ``text``: a JSON object with an ``install`` list."""
    try:
        report = json.loads(text)
    except ValueError:
        raise ReportError("pip's installation report is not JSON") from None
    if not isinstance(report, dict) or not isinstance(report.get("install"), list):
        raise ReportError("pip's installation report has no install list")
    return report


def parse_report(report: Mapping[str, Any]) -> tuple[Resolved, ...]:
    """The distributions of an installation report, by name; :class:`ReportError` if
    malformed."""
    out: dict[str, Resolved] = {}
    for item in report.get("install", ()):
        meta = item.get("metadata") if isinstance(item, dict) else None
        if not isinstance(meta, dict):
            raise ReportError("pip's installation report has an item without metadata")
        name, version = meta.get("name"), meta.get("version")
        if not isinstance(name, str) or not isinstance(version, str):
            raise ReportError("pip's installation report names a distribution without a version")
        requires = meta.get("requires_dist")
        key = normalize_name(name)
        out[key] = Resolved(
            key,
            version,
            tuple(str(r) for r in requires) if isinstance(requires, list) else (),
            _digests(item.get("download_info")),
        )
    return tuple(out[k] for k in sorted(out))


def _digests(download: Any) -> tuple[str, ...]:
    """``sha256:<hex>`` from a report item's ``download_info.archive_info``."""
    archive = download.get("archive_info") if isinstance(download, dict) else None
    if not isinstance(archive, dict):
        return ()
    found = set()
    hashes = archive.get("hashes")
    if isinstance(hashes, dict) and isinstance(hashes.get("sha256"), str):
        found.add(hashes["sha256"].lower())
    legacy = archive.get("hash")  # "sha256=<hex>", before pip 23.0 added "hashes"
    if isinstance(legacy, str) and legacy.startswith("sha256="):
        found.add(legacy[len("sha256=") :].lower())
    return tuple(sorted(f"sha256:{h}" for h in found if _HEX.match(h)))
