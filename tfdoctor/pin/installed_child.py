"""List every distribution this interpreter can import, as one JSON document.

Standard library only, Python 3.7+. The doctor imports :func:`collect` directly for its own
interpreter and runs this file by path for another one (``tfdoctor pin --interpreter``).
Each entry has the keys of ``PackageFacts``; ``top_level`` is left empty (pinning does not
need it, and reading ``RECORD`` files would cost more than everything else together).
"""

from __future__ import annotations

import email.parser
import json
import re
import sys
from pathlib import Path
from typing import Any, Optional

try:  # Python 3.8+
    from importlib import metadata as _metadata
except ImportError:  # Python 3.7 without the backport: read *.dist-info directories
    _metadata = None  # type: ignore[assignment]


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _editable(read_text: Any) -> bool:
    """``direct_url.json`` with ``dir_info.editable`` (PEP 610) marks ``pip install -e``."""
    try:
        text = read_text("direct_url.json")
    except (OSError, ValueError):
        return False
    if not text:
        return False
    try:
        doc = json.loads(text)
    except ValueError:
        return False
    dir_info = doc.get("dir_info") if isinstance(doc, dict) else None
    return isinstance(dir_info, dict) and dir_info.get("editable") is True


def _read(path: Path, name: str) -> Optional[str]:
    try:
        return (path / name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _from_metadata() -> list[dict[str, Any]]:
    out = []
    for dist in _metadata.distributions():
        # One broken record (bad METADATA) must not cost the whole listing.
        try:
            meta = dist.metadata  # parsed once: each access re-reads the file
            name = meta["Name"]
            if not name:
                continue
            try:
                location = str(dist.locate_file(""))
            except (OSError, ValueError):
                location = ""
            out.append(
                {
                    "name": str(name),
                    "version": str(meta["Version"] or ""),
                    "location": location,
                    "requires": [str(r) for r in meta.get_all("Requires-Dist") or []],
                    "editable": _editable(dist.read_text),
                    "top_level": [],
                }
            )
        except Exception:  # skip the one broken record, keep the rest
            continue
    return out


def _from_directories() -> list[dict[str, Any]]:
    out = []
    for entry in sys.path:
        if not entry or not Path(entry).is_dir():
            continue
        for path in sorted(Path(entry).glob("*.dist-info")):
            text = _read(path, "METADATA") or ""
            meta = email.parser.Parser().parsestr(text, headersonly=True)
            if not meta.get("Name"):
                continue
            out.append(
                {
                    "name": str(meta["Name"]),
                    "version": str(meta.get("Version", "")),
                    "location": entry,
                    "requires": [str(r) for r in meta.get_all("Requires-Dist") or []],
                    "editable": _editable(lambda name, p=path: _read(p, name)),
                    "top_level": [],
                }
            )
    return out


def collect() -> list[dict[str, Any]]:
    """Every distribution, first on ``sys.path`` winning (as an import would), by name."""
    found = _from_metadata() if _metadata is not None else _from_directories()
    seen = set()
    result = []
    for item in found:
        key = _normalize(item["name"])
        if key in seen:
            continue
        seen.add(key)
        result.append(item)
    result.sort(key=lambda p: _normalize(p["name"]))
    return result


if __name__ == "__main__":
    sys.stdout.write(json.dumps(collect()))
    sys.stdout.flush()
