"""Regenerate docs/compatibility.md from compat_matrix.yaml.

Usage: python scripts/gen_compatibility_doc.py [--check]

``--check`` writes nothing and exits 1 when the document is stale.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tfdoctor.matrix import MatrixError, load_companions, load_matrix  # noqa: E402 - needs the path above
from tfdoctor.render.matrixdoc import render_compat_doc  # noqa: E402

DOC = ROOT / "docs" / "compatibility.md"


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) the document; 0 when up to date, 1 stale, 2 error."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report a stale document")
    args = parser.parse_args(argv)
    try:
        text = render_compat_doc(load_matrix(str(ROOT / "compat_matrix.yaml")), load_companions())
    except MatrixError as exc:
        print(f"gen_compatibility_doc: {exc}", file=sys.stderr)
        return 2
    current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    if args.check:
        if current != text:
            print(f"{DOC.relative_to(ROOT)} is stale: run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    if current != text:
        tmp = DOC.with_suffix(".md.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(DOC)
    return 0


if __name__ == "__main__":
    sys.exit(main())
