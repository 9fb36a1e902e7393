"""The modules a shown ``python -c`` command imports before TensorFlow.

A crash in native code while importing (``Segmentation fault``) after another package's
native libraries loaded into the same process points at that package: the command the log
shows (``$ python -c "import scipy; import tensorflow"``) says which were loaded first. Only
packages count: a module of Python's own library (``os``, ``sys``) is no such suspect.
"""

from __future__ import annotations

import re
import sys

#: A Python interpreter run with ``-c CODE`` (options such as ``-X faulthandler`` or ``-u``
#: before it), the code quoted on one line.
_PYTHON_C = re.compile(
    r"(?:^|[\s$>])python[\d.]{0,5}(?:\.exe)?[ \t]+"
    r"(?:-[A-Za-z]\S{0,30}[ \t]+(?:[a-z_]{1,30}[ \t]+)?){0,3}"
    r"-c[ \t]+(?P<q>[\"'])(?P<code>[^\"'\n]{1,400})(?P=q)",
    re.MULTILINE,
)
#: ``import a, b.c as d`` and ``from a.b import c``: the top-level packages a statement loads.
_IMPORT = re.compile(
    r"^import\s+(?P<names>[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)$"
)
_FROM = re.compile(r"^from\s+(?P<name>[\w.]+)\s+import\b")

#: Python's own modules (3.10 and later list them; before, the few a one-line command uses).
_STDLIB: frozenset[str] = frozenset(
    getattr(sys, "stdlib_module_names", ("os", "sys", "time", "math", "re", "json", "logging"))
)


def _imported(statement: str) -> list[str]:
    """The top-level packages one statement imports, in order ([] for any other statement)."""
    match = _FROM.match(statement)
    if match is not None:
        return [match.group("name").split(".")[0]]
    match = _IMPORT.match(statement)
    if match is None:
        return []
    return [part.split()[0].split(".")[0] for part in match.group("names").split(",")]


def imported_before_tensorflow(text: str) -> tuple[str, ...]:
    """The packages (not Python's own modules) the first ``python -c`` command of ``text``
    that imports TensorFlow imports before it, in order; () where no command shows that."""
    for match in _PYTHON_C.finditer(text):
        before: list[str] = []
        for statement in match.group("code").split(";"):
            names = _imported(statement.strip())
            if "tensorflow" in names:
                before += names[: names.index("tensorflow")]
                return tuple(dict.fromkeys(n for n in before if n not in _STDLIB))
            before += names
    return ()
