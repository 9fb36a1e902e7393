"""The public API of a TensorFlow line, as listed from its wheels by ``scripts/gen_scan_api.py``.

A name either exists (a module, or a symbol: what lies beyond a symbol, a class attribute, is
not judged), lies in a namespace whose members are not listed, or is missing from the first
component the target does not have.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Optional

from tfdoctor.matrix import version_key
from tfdoctor.records import Record, record

DATA_DIR = Path(__file__).resolve().parent

#: Real packages inside the ``tensorflow`` wheel that are not public API: importing from them
#: is private use, which the listing cannot judge (tensorflow.python.keras has its own rule).
PRIVATE_ROOTS = frozenset(
    {"python", "core", "compiler", "dtensor", "tsl", "include", "tools", "lite.python"}
)

OK = "ok"
MISSING = "missing"
UNKNOWN = "unknown"


@record
class Lookup(Record):
    """The verdict on one name: ``ok``, ``unknown`` or ``missing`` (from ``missing_at`` on)."""

    status: str
    missing_at: str = ""


@record
class ApiIndex(Record):
    """One TensorFlow line's public API: modules and their members."""

    line: str
    tensorflow: str
    keras: str
    #: Module -> members (a submodule with a trailing ``/``); None: members not listed.
    modules: dict[str, Optional[frozenset[str]]]
    #: ``tf.compat.v1.X`` -> the TensorFlow 2 name of the same object.
    renames: dict[str, str]

    def lookup(self, name: str) -> Lookup:
        """Whether ``name`` (``tf.keras.layers.Dense``) exists in this API."""
        parts = name.split(".")
        module = parts[0]
        if module not in self.modules:
            return Lookup(UNKNOWN)
        for i, part in enumerate(parts[1:], start=1):
            members = self.modules.get(module)
            if members is None:
                return Lookup(UNKNOWN)
            if part.startswith("__") and part.endswith("__"):
                return Lookup(OK)  # __version__, __name__: attributes every module has
            if part + "/" in members:
                module = f"{module}.{part}"
                continue
            if part in members:
                return Lookup(OK)  # a symbol: its attributes are not listed
            if i == 1 and parts[0] == "tf" and self._private(parts[1:]):
                return Lookup(UNKNOWN)
            return Lookup(MISSING, ".".join(parts[: i + 1]))
        return Lookup(OK)

    def has(self, name: str) -> bool:
        """Whether ``name`` exists."""
        return self.lookup(name).status == OK

    @staticmethod
    def _private(rest: list[str]) -> bool:
        return rest[0] in PRIVATE_ROOTS or ".".join(rest[:2]) in PRIVATE_ROOTS


def parse_api(text: str) -> ApiIndex:
    """An :class:`ApiIndex` from the data file's text."""
    modules: dict[str, Optional[frozenset[str]]] = {}
    renames: dict[str, str] = {}
    versions: dict[str, str] = {}
    for row in text.splitlines():
        if row.startswith("#"):
            words = row[1:].split()
            if len(words) == 2 and words[0] in ("tensorflow", "keras"):
                versions[words[0]] = words[1]
            continue
        if not row.strip():
            continue
        key, _, value = row.partition("\t")
        if key.startswith("="):
            renames[key[1:]] = value.strip()
        elif value.strip() == "*":
            modules[key] = None
        else:
            modules[key] = frozenset(value.split())
    tf_version = versions.get("tensorflow", "")
    line = ".".join(tf_version.split(".")[:2])
    return ApiIndex(line, tf_version, versions.get("keras", ""), modules, renames)


@functools.cache
def bundled_lines() -> tuple[str, ...]:
    """The TensorFlow lines with a bundled API listing, newest first."""
    found = [p.stem[len("api_tf") :] for p in DATA_DIR.glob("api_tf*.txt")]
    return tuple(sorted(found, key=version_key, reverse=True))


@functools.cache
def load_api(line: str) -> Optional[ApiIndex]:
    """The bundled API listing of TensorFlow ``line``, if there is one."""
    path = DATA_DIR / f"api_tf{line}.txt"
    if not path.is_file():
        return None
    return parse_api(path.read_text(encoding="utf-8"))


def api_for(target: str) -> Optional[ApiIndex]:
    """The listing that describes ``target``: its own, else (for a newer line) the newest."""
    lines = bundled_lines()
    if target in lines:
        return load_api(target)
    if lines and version_key(target) > version_key(lines[0]):
        # A line newer than any listing: the newest listing is the best evidence; a name it
        # lacks is not coming back.
        return load_api(lines[0])
    return None
