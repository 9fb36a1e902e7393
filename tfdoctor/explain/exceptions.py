"""What explain says of exceptions without asking scan: the paths' inferences, and an
exception no cause explains."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Optional

from tfdoctor.evidence.traceback import Inferred, Traceback, origin_of, path_hints
from tfdoctor.findings import Finding, Fix, Severity


def inferred_note(hints: Sequence[Inferred]) -> str:
    """The facts paths imply, each with the path it rests on, marked as inferred."""
    words = []
    for hint in hints:
        what = _SHOWN.get(hint.fact, "{}").format(_OS_NAMES.get(hint.value, hint.value))
        words.append(f"{what} ({hint.because})")
    return "Inferred from paths and file names, not stated: " + "; ".join(words) + "."


#: How an inferred fact reads, by kind (the value fills the braces).
_SHOWN = {
    "python": "Python {}",
    "os": "{}",
    "cuda": "a build for CUDA {}",
    "cudnn": "a build for cuDNN {}",
    "tensorflow-lines": "so TensorFlow {}",
}
_OS_NAMES = {"linux": "Linux", "windows": "Windows", "macos": "macOS"}


#: Exceptions that say the program was stopped, not that it failed.
_STOPS = frozenset({"KeyboardInterrupt", "SystemExit"})


def unexplained_finding(tracebacks: Sequence[Traceback]) -> Optional[Finding]:
    """The last exception of the log when no cause explains it: what it observes, never OK."""
    failures = [tb for tb in tracebacks if tb.name not in _STOPS and not tb.ignored]
    if not failures:
        return None
    tb = failures[-1]
    detail = [f"{tb.where}: {tb.type}: {tb.message}".rstrip(": ")]
    library = next((fr for fr in reversed(tb.frames) if origin_of(fr.path).dist), None)
    if library is not None:
        origin = origin_of(library.path)
        label = f"{origin.dist} ({origin.generation})" if origin.generation else origin.dist
        detail.append(
            f"Raised in {label} (from its path): {library.path}, line {library.line}, "
            f"in {library.function}."
        )
    own = next((fr for fr in reversed(tb.frames) if not origin_of(fr.path).dist), None)
    if own is not None and not re.search(r"[/\\](?:site|dist)-packages[/\\]", own.path):
        code = f": {own.code}" if own.code else ""
        detail.append(f"The last frame outside the libraries: {own.path}, line {own.line}{code}")
    hints = path_hints([f.path for f in tb.frames])
    if hints:
        detail.append(inferred_note(hints))
    return Finding(
        "explain.unexplained-exception",
        Severity.UNKNOWN,
        f"The log ends in an exception tfdoctor has no cause for: {tb.name}",
        "\n".join(detail),
        Fix(
            "Search the message in the issues of the package that raised it; run `tfdoctor "
            "check` where it failed to rule out the environment.",
            ("tfdoctor check",),
        ),
        check="explain",
    )
