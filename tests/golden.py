"""Golden files: whole outputs compared with the text kept in ``tests/data``.

Set ``TFDOCTOR_UPDATE_GOLDEN=1`` to rewrite them after an intended change, then review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path


def check_golden(path: Path, actual: str) -> None:
    """Compare ``actual`` with the golden file, or rewrite it under TFDOCTOR_UPDATE_GOLDEN=1."""
    if os.environ.get("TFDOCTOR_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8")
