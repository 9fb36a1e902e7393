"""The public API of a TensorFlow line, as listed from its wheels by ``scripts/gen_scan_api.py``.

Every line from 2.0 is kept in one file, ``api_lines.txt``: the newest line's listing in full,
then each older line as the rows that differ from the line after it (the rows of 22 lines
share most of their text). The Keras distributions are kept the same way, release by release,
each in its own file (:data:`KERAS_STORES`): ``keras`` 2.6 to 2.15 and every Keras 3, and
``tf-keras``. A line's listing is rebuilt on first use, in this process, with what those say
of its line: standalone ``keras`` where TensorFlow's own listing has none (Keras 2.6 to 2.12,
whose package is the implementation) and ``tf_keras``.

A name either exists (a module, or a symbol: what lies beyond a symbol, a class attribute, is
not judged), lies in a namespace whose members are not listed, or is missing from the first
component the target does not have.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Optional, Union

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


#: The most public homes of one name a fix lists (:meth:`ApiIndex.homes`): more are a common
#: word (``relu``, ``get``), not one name that moved.
MOST_HOMES = 3


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
    #: The tf-keras release whose ``tf_keras`` rows are listed ("" for none).
    tf_keras: str = ""

    def lookup(self, name: str) -> Lookup:
        """Whether ``name`` (``tf.keras.layers.Dense``) exists in this API."""
        parts = name.split(".")
        # A listing of part of a namespace (tf-keras' ``tf.compat.v1.keras``) starts deeper.
        first = next(
            (cut for cut in range(1, len(parts) + 1) if ".".join(parts[:cut]) in self.modules),
            None,
        )
        if first is None:
            return Lookup(UNKNOWN)
        module = ".".join(parts[:first])
        for i, part in enumerate(parts[first:], start=first):
            members = self.modules.get(module)
            if members is None:
                return Lookup(UNKNOWN)
            if part.startswith("__") and part.endswith("__") and part != "__internal__":
                # __version__, __name__: attributes every module has. Not __internal__,
                # TensorFlow's API for Keras (2.x), a module its listings hold like any other.
                return Lookup(OK)
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

    def respelled(self, name: str) -> Optional[str]:
        """The name this API spells ``name``'s missing part as, if it differs only in case
        and underscores (``keras.optimizers.adam`` -> ``keras.optimizers.Adam``, ``Conv2d`` ->
        ``Conv2D``): the member of the module where lookup stopped."""
        found = self.lookup(name)
        if found.status != MISSING:
            return None
        module, _, part = found.missing_at.rpartition(".")
        members = self.modules.get(module) or frozenset()
        rest = name[len(found.missing_at) :]
        key = part.replace("_", "").lower()
        # Deeper names continue only through a submodule (``keras.layers.normalization.X`` is
        # no ``keras.layers.Normalization.X``: that is a class).
        same = sorted(
            m.rstrip("/")
            for m in members
            if m.rstrip("/").replace("_", "").lower() == key and (not rest or m.endswith("/"))
        )
        if len(same) != 1 or same[0] == part:
            return None
        return f"{module}.{same[0]}{rest}"

    def homes(self, last: str, root: str) -> list[str]:
        """Every public name under ``root`` (``keras``, ``tf.keras``) whose last part is
        ``last`` (a symbol, not a submodule), sorted: where this API exports a name that moved."""
        return sorted(
            f"{module}.{last}"
            for module, members in self.modules.items()
            if members is not None
            and last in members
            and (module == root or module.startswith(root + "."))
        )

    @staticmethod
    def _private(rest: list[str]) -> bool:
        return rest[0] in PRIVATE_ROOTS or ".".join(rest[:2]) in PRIVATE_ROOTS


def parse_api(text: str) -> ApiIndex:
    """An :class:`ApiIndex` from one line's listing (rows, and ``# tensorflow X`` comments)."""
    versions: dict[str, str] = {}
    rows = []
    for row in text.splitlines():
        if row.startswith("#"):
            words = row[1:].split()
            if len(words) == 2 and words[0] in ("tensorflow", "keras"):
                versions[words[0]] = words[1]
        elif row.strip():
            rows.append(row)
    pairs = [(key, value) for key, _, value in (row.partition("\t") for row in rows)]
    return _index(versions.get("tensorflow", ""), versions.get("keras", ""), pairs)


def _index(tf_version: str, keras_version: str, rows: Iterable[tuple[str, _Value]]) -> ApiIndex:
    modules: dict[str, Optional[frozenset[str]]] = {}
    renames: dict[str, str] = {}
    for key, value in rows:
        if not isinstance(value, str):
            modules[key] = value
        elif key.startswith("="):
            renames[key[1:]] = value.strip()
        elif value.strip() == "*":
            modules[key] = None
        else:
            modules[key] = frozenset(value.split())
    line = ".".join(tf_version.split(".")[:2])
    return ApiIndex(line, tf_version, keras_version, modules, renames)


# --- the file of every line ------------------------------------------------------------------

STORE = "api_lines.txt"
#: The Keras distributions listed on their own, release by release (``keras`` from 2.6: Keras 2
#: to 2.15, then Keras 3; ``tf-keras`` from 2.14), and the store of each.
KERAS_STORES = {"keras": "keras_lines.txt", "tf-keras": "tf_keras_lines.txt"}
#: TensorFlow 1.x lines (1.9 to 1.15), apart: what scan judges against is TensorFlow 2, and a
#: 1.x listing answers only "which 1.x release has this name" (explain).
TF1_STORE = "tf1_lines.txt"
#: The parameters of each line's public functions and classes (``scripts/gen_scan_signatures.py``).
SIGNATURE_STORE = "signature_lines.txt"
#: The parameters of each Keras distribution's public callables, release by release
#: (``scripts/gen_scan_signatures.py --keras``).
KERAS_SIGNATURE_STORES = {
    "keras": "keras_signature_lines.txt",
    "tf-keras": "tf_keras_signature_lines.txt",
}


@record
class Listing(Record):
    """One line's listing as rows (``KEY<TAB>value``), the unit the store packs."""

    line: str
    tensorflow: str
    keras: str
    rows: tuple[str, ...]


@record
class _Block(Record):
    line: str
    tensorflow: str
    keras: str
    #: ``+KEY<TAB>value`` (set), ``-KEY`` (drop), ``~KEY<TAB>+a -b`` (members in and out).
    ops: tuple[str, ...]


def _split(rows: Iterable[str]) -> dict[str, str]:
    return dict(row.partition("\t")[::2] for row in rows)


def _ops(old: dict[str, str], new: dict[str, str]) -> list[str]:
    """The operations that turn the rows ``old`` into ``new``, sorted by key."""
    ops = []
    for key in sorted(old.keys() | new.keys()):
        before, after = old.get(key), new.get(key)
        if before == after:
            continue
        if after is None:
            ops.append(f"-{key}")
            continue
        if before is None or key.startswith("=") or "*" in (before, after):
            ops.append(f"+{key}\t{after}")
            continue
        was, now = set(before.split()), set(after.split())
        change = [f"+{m}" for m in sorted(now - was)] + [f"-{m}" for m in sorted(was - now)]
        if len(change) < len(now):
            ops.append(f"~{key}\t{' '.join(change)}")
        else:
            ops.append(f"+{key}\t{after}")
    return ops


#: A row's value while the store is replayed: its text, or the members once a ``~`` touched it.
_Value = Union[str, frozenset[str]]


def _apply(rows: dict[str, _Value], ops: Iterable[str]) -> None:
    """Apply one block's operations to ``rows`` in place."""
    for op in ops:
        key, _, value = op[1:].partition("\t")
        if op[0] == "+":
            rows[key] = value
        elif op[0] == "-":
            del rows[key]
        else:
            old = rows[key]
            members = frozenset(old.split()) if isinstance(old, str) else old
            words = value.split()
            gone = {word[1:] for word in words if word[0] == "-"}
            rows[key] = (members - gone) | {word[1:] for word in words if word[0] == "+"}


def _text(value: _Value) -> str:
    return value if isinstance(value, str) else " ".join(sorted(value))


def pack(listings: Sequence[Listing], head: Sequence[str] = ()) -> str:
    """The store's text for ``listings``: newest line in full, each older one as differences."""
    ordered = sorted(listings, key=lambda x: version_key(x.line), reverse=True)
    out = [f"# {comment}" for comment in head]
    previous: dict[str, str] = {}
    for listing in ordered:
        rows = _split(listing.rows)
        out.append(f"@ {listing.line} tensorflow={listing.tensorflow} keras={listing.keras}")
        out.extend(_ops(previous, rows))
        previous = rows
    return "\n".join(out) + "\n"


def _blocks(text: str) -> list[_Block]:
    blocks: list[_Block] = []
    head: Optional[list[str]] = None
    ops: list[str] = []
    for row in text.splitlines():
        if row.startswith("@ "):
            if head is not None:
                blocks.append(_Block(head[0], head[1], head[2], tuple(ops)))
            words = row[2:].split()
            head = [words[0], *(word.partition("=")[2] for word in words[1:3])]
            ops = []
        elif row and not row.startswith("#"):
            ops.append(row)
    if head is not None:
        blocks.append(_Block(head[0], head[1], head[2], tuple(ops)))
    return blocks


def unpack(text: str) -> list[Listing]:
    """Every line's full listing from the store's text, newest first (rows sorted)."""
    rows: dict[str, _Value] = {}
    out = []
    for block in _blocks(text):
        _apply(rows, block.ops)
        listing = tuple(f"{key}\t{_text(value)}" for key, value in sorted(rows.items()))
        out.append(Listing(block.line, block.tensorflow, block.keras, listing))
    return out


@functools.cache
def _stored(store: str = STORE) -> tuple[_Block, ...]:
    path = DATA_DIR / store
    if not path.is_file():
        return ()
    return tuple(_blocks(path.read_text(encoding="utf-8")))


@functools.cache
def bundled_lines() -> tuple[str, ...]:
    """The TensorFlow lines with a bundled API listing, newest first."""
    return tuple(sorted((b.line for b in _stored()), key=version_key, reverse=True))


def _rows(store: str, line: str) -> Optional[tuple[_Block, dict[str, _Value]]]:
    """The header and rows of ``line`` in ``store``, replayed from the newest block."""
    rows: dict[str, _Value] = {}
    for block in _stored(store):
        _apply(rows, block.ops)
        if block.line == line:
            return block, rows
    return None


#: The last line whose standalone ``keras`` is Keras 2 (released with the line of its number).
LAST_KERAS2 = (2, 15)


@functools.cache
def load_api(line: str) -> Optional[ApiIndex]:
    """The bundled API listing of TensorFlow ``line``, if there is one, with the standalone
    ``keras`` of that line where TensorFlow's listing has none, and its ``tf_keras``."""
    found = _rows(STORE, line)
    if found is None:
        return None
    block, rows = found
    merged: dict[str, _Value] = dict(rows)
    if "keras" not in merged and version_key(line) <= LAST_KERAS2:
        keras = _rows(KERAS_STORES["keras"], line)
        if keras is not None:
            merged.update(keras[1])
    tf_keras = _rows(KERAS_STORES["tf-keras"], line)
    if tf_keras is not None:
        merged.update((k, v) for k, v in tf_keras[1].items() if k.split(".")[0] == "tf_keras")
    index = _index(block.tensorflow, block.keras, merged.items())
    return dataclasses.replace(index, tf_keras=tf_keras[0].keras) if tf_keras else index


def release_has(version: Optional[str], name: str) -> bool:
    """Whether the listing of the line of TensorFlow ``version`` (``2.3.1``) has ``name``
    (``tf.experimental``); False where no version is given or no listing covers its line."""
    line = version.split(".")[:2] if version else []
    index = load_api(".".join(line)) if len(line) == 2 else None
    return index is not None and index.has(name)


@functools.cache
def tf1_lines() -> tuple[str, ...]:
    """The TensorFlow 1.x lines with a bundled listing, newest first."""
    return tuple(sorted((b.line for b in _stored(TF1_STORE)), key=version_key, reverse=True))


@functools.cache
def load_tf1(line: str) -> Optional[ApiIndex]:
    """The bundled listing of TensorFlow 1.x ``line`` (``1.13``), if there is one."""
    found = _rows(TF1_STORE, line)
    if found is None:
        return None
    block, rows = found
    return _index(block.tensorflow, block.keras, rows.items())


def keras_releases(dist: str) -> tuple[str, ...]:
    """The minor releases of Keras distribution ``dist`` with a bundled listing, newest first."""
    blocks = _stored(KERAS_STORES[dist])
    return tuple(sorted((b.line for b in blocks), key=version_key, reverse=True))


@functools.cache
def load_keras(dist: str, release: str) -> Optional[ApiIndex]:
    """The bundled listing of ``dist`` (``keras``, ``tf-keras``) release ``release`` (``3.4``);
    its ``keras`` field is the release's full version, its ``line`` empty."""
    found = _rows(KERAS_STORES[dist], release)
    if found is None:
        return None
    block, rows = found
    return _index("", block.keras, rows.items())


def keras2_for(target: str) -> Optional[ApiIndex]:
    """The Keras 2 that TensorFlow ``target`` can run (``TF_USE_LEGACY_KERAS``): tf-keras of
    that line, or for a line newer than any listed the newest tf-keras."""
    releases = keras_releases("tf-keras")
    if target in releases:
        return load_keras("tf-keras", target)
    if releases and version_key(target) > version_key(releases[0]):
        return load_keras("tf-keras", releases[0])
    return None


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


#: What each of Keras 2's own modules (``keras.utils.np_utils``) exported as public API, read
#: from the Keras 2 wheels by ``scripts/gen_keras2_modules.py``.
KERAS2_MODULES = "keras2_modules.txt"


@functools.lru_cache(maxsize=1)
def _keras2_modules() -> dict[str, tuple[str, ...]]:
    path = DATA_DIR / KERAS2_MODULES
    if not path.is_file():
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for row in path.read_text(encoding="utf-8").splitlines():
        if row and not row.startswith("#"):
            module, _, names = row.partition("\t")
            out[module] = tuple(names.split())
    return out


#: The last Keras 2 line (2.6 to 2.12) whose keras/ tree has each of Keras 2's own modules at
#: its place, read from keras-team/keras's release tags by
#: ``scripts/gen_keras2_module_releases.py`` (2.13 moved them under keras/src/).
KERAS2_MODULE_RELEASES = "keras2_module_releases.txt"


@functools.lru_cache(maxsize=1)
def _keras2_module_releases() -> dict[str, str]:
    path = DATA_DIR / KERAS2_MODULE_RELEASES
    if not path.is_file():
        return {}
    rows = path.read_text(encoding="utf-8").splitlines()
    return dict(row.split("\t", 1) for row in rows if row and not row.startswith("#"))


def keras2_module_last(module: str) -> str:
    """The last Keras 2 line whose tree has ``module`` (``keras.utils.layer_utils``, or
    ``tf.keras.utils.layer_utils`` for the same module) at its place, from 2.6 to 2.12; empty
    where the table does not list it (a module of multi-backend Keras, or none). A module
    that is also a public export path (``keras.optimizers``) is at its place in the wheels of
    2.13 to 2.15 too, generated from the export paths: TensorFlow's listings answer for it
    first (explain.api's ``_last_keras2_line``)."""
    bare = module[3:] if module.startswith("tf.keras.") else module
    return _keras2_module_releases().get(bare, "")


#: The tree the listing of Keras 2's own modules (2.6 to 2.12) does not describe: keras.src,
#: the tree of Keras 2.13 to 2.15 (2.13 moved Keras 2's modules under keras/src/) and of Keras 3
#: (whose keras/src/backend/ is a package of backends that holds none of Keras 2's
#: keras.backend functions): https://github.com/keras-team/keras/tree/v3.3.3/keras/src/backend
KERAS_SRC_TREE = "keras.src."


def keras2_listing_describes(module: str) -> bool:
    """Whether ``module`` may be one of the Keras 2 (2.6 to 2.12) modules the listing reads:
    not one under :data:`KERAS_SRC_TREE`."""
    return not module.startswith(KERAS_SRC_TREE)


def keras2_homes(name: str) -> dict[str, tuple[str, ...]]:
    """Keras 2's own modules (2.6 to 2.12) that export a public name ending in ``.name``,
    each with those public names (``pad_sequences`` -> keras.utils.data_utils:
    keras.preprocessing.sequence.pad_sequences, keras.utils.pad_sequences)."""
    out: dict[str, tuple[str, ...]] = {}
    for module, names in _keras2_modules().items():
        found = tuple(n for n in names if n.rsplit(".", 1)[-1] == name)
        if found:
            out[module] = found
    return out


def keras2_module_exports(module: str) -> tuple[str, ...]:
    """The public names one of Keras 2's own modules exported (``keras.utils.np_utils`` ->
    ``keras.utils.to_categorical``, ...), spelled under the root asked (``tf.keras.`` for a
    ``tf.keras.utils.np_utils``); empty for any other module."""
    root = "tf." if module.startswith("tf.keras.") else ""
    names = _keras2_modules().get(module[len(root) :], ())
    return tuple(root + name for name in names)


#: The functions and classes multi-backend Keras (2.0.0 to 2.3.1) removed from its modules,
#: read from keras-team/keras's release tags by ``scripts/gen_keras_multibackend_removed.py``.
KERAS_MULTIBACKEND_REMOVED = "keras_multibackend_removed.txt"


@record
class KerasRemoved(Record):
    """A function or class a multi-backend Keras release removed from one of its modules."""

    module: str
    name: str
    #: The last release whose module has it, and the release that removed it.
    last: str
    removed_in: str
    #: The modules of :attr:`removed_in` that define it (empty for none).
    defined_in: tuple[str, ...] = ()


@functools.lru_cache(maxsize=1)
def _keras_multibackend_removed() -> tuple[KerasRemoved, ...]:
    path = DATA_DIR / KERAS_MULTIBACKEND_REMOVED
    if not path.is_file():
        return ()
    out: list[KerasRemoved] = []
    for row in path.read_text(encoding="utf-8").splitlines():
        if row and not row.startswith("#"):
            module, name, last, removed_in, defined = row.split("\t")
            out.append(
                KerasRemoved(
                    module, name, last, removed_in, tuple(defined.split(",")) if defined else ()
                )
            )
    return tuple(out)


def keras_multibackend_removed(name: str, module: str = "") -> tuple[KerasRemoved, ...]:
    """The rows of the multi-backend Keras table for ``name`` (of ``module`` where given)."""
    return tuple(
        r for r in _keras_multibackend_removed() if r.name == name and module in ("", r.module)
    )


# --- TensorFlow before 1.9 -------------------------------------------------------------------

#: TensorFlow's public API before the oldest listed 1.x line (0.10 to 1.8), kept by hand from
#: TensorFlow's release notes: what each release added, removed or moved.
EARLY_STORE = "tf_early.txt"


@record
class EarlySpan(Record):
    """One span of releases whose public API has ``name``, with the row's source."""

    name: str
    #: The first release that has it; "" for every release the table lists before ``until``.
    since: str
    #: The first release without it; "" for still there in the oldest listed line.
    until: str
    #: The name that replaces it from ``until`` on ("" for none).
    now: str
    source: str


@record
class EarlyApi(Record):
    """What the release notes say of the releases before the listings (``tf_early.txt``)."""

    #: The releases the spans speak of, oldest first.
    releases: tuple[str, ...]
    #: A module Python printed for a public namespace then -> its public name.
    modules: dict[str, str]
    spans: tuple[EarlySpan, ...]

    def spans_of(self, name: str) -> tuple[EarlySpan, ...]:
        """The spans of exactly ``name`` (``tf.nn.rnn_cell``), oldest first."""
        return tuple(s for s in self.spans if s.name == name)

    def has(self, name: str, release: str) -> Optional[bool]:
        """Whether release ``release`` (``0.12``; older than any listed is allowed) has
        ``name`` in its public API; None where the table says nothing of the name."""
        spans = self.spans_of(name)
        if not spans:
            return None
        key = version_key(release)[:2]
        if self.releases and key < version_key(self.releases[0]):
            # Older than every release the notes are read for: only a span that starts
            # later says the name was not there yet.
            return False if all(s.since for s in spans) else None
        return any(_within(s, release) for s in spans)


def parse_early(text: str) -> EarlyApi:
    """An :class:`EarlyApi` from the text of ``tf_early.txt``; ValueError names a bad row."""
    releases: tuple[str, ...] = ()
    modules: dict[str, str] = {}
    spans: list[EarlySpan] = []
    for number, row in enumerate(text.splitlines(), start=1):
        if not row.strip() or row.startswith("#"):
            continue
        fields = row.split("\t")
        if fields[0] == "@releases" and len(fields) == 2:
            releases = tuple(fields[1].split())
        elif fields[0] == "@module" and len(fields) == 4:
            modules[fields[1]] = fields[2]
        elif len(fields) == 5 and fields[0].startswith("tf."):
            name, since, until, now, source = (f.strip() for f in fields)
            known = (since, until) if releases else ()
            if any(x != "-" and x not in releases for x in known):
                raise ValueError(f"{EARLY_STORE}:{number}: a release the @releases row lacks")
            spans.append(
                EarlySpan(
                    name,
                    "" if since == "-" else since,
                    "" if until == "-" else until,
                    "" if now == "-" else now,
                    source,
                )
            )
        else:
            raise ValueError(f"{EARLY_STORE}:{number}: not a row of this file: {row!r}")
    return EarlyApi(releases, modules, tuple(spans))


@functools.cache
def load_early() -> EarlyApi:
    """The bundled table of TensorFlow's API before the listings (empty where missing)."""
    path = DATA_DIR / EARLY_STORE
    if not path.is_file():
        return EarlyApi((), {}, ())
    return parse_early(path.read_text(encoding="utf-8"))


@record
class ReleaseGap(Record):
    """Where the releases a log allows lack a name, read against every release tfdoctor knows
    (the early table, then the 1.x and 2.x listings)."""

    name: str
    #: ``added`` (every release without it is older than every release with it), ``removed``
    #: (newer) or ``away`` (between two releases with it).
    kind: str
    #: The allowed releases without it, oldest first.
    missing: tuple[str, ...]
    #: The last release before them that has it, and the first after ("" for none).
    last_before: str
    first_after: str
    #: The first release after ``last_before`` without it, the one that removed or moved it
    #: ("" where no release before them has it): the allowed releases may all be later ones.
    gone_in: str
    #: The span whose end or start decides: its replacement and source.
    now: str
    source: str


def _within(span: EarlySpan, release: str) -> bool:
    """Whether ``release`` (a release line; "" for none) lies in ``span``."""
    if not release:
        return False
    key = version_key(release)[:2]
    return (not span.since or version_key(span.since) <= key) and (
        not span.until or key < version_key(span.until)
    )


def _presence(name: str, early: EarlyApi) -> list[tuple[str, Optional[bool]]]:
    """Each known release, oldest first, with whether its public API has ``name``."""
    out: list[tuple[str, Optional[bool]]] = [(r, early.has(name, r)) for r in early.releases]
    listed = [(line, load_tf1(line)) for line in tf1_lines()]
    listed += [(line, load_api(line)) for line in bundled_lines()]
    for line, index in sorted(listed, key=lambda x: version_key(x[0])):
        status = index.lookup(name).status if index is not None else UNKNOWN
        out.append((line, None if status == UNKNOWN else status == OK))
    return out


def release_gap(name: str, allowed: Optional[Sequence[str]] = None) -> Optional[ReleaseGap]:
    """How ``name``, a name the early table has rows for, is missing from the releases
    ``allowed`` (release lines; None: any known release): added later, removed, or away for a
    while. None where the table says nothing of it, no allowed release lacks it, or the
    releases without it lie on both sides of those with it (the direction is not decided)."""
    early = load_early()
    spans = early.spans_of(name)
    if not spans:
        return None
    presence = _presence(name, early)
    if allowed is None:
        asked = [r for r, has in presence if has is False]
    else:
        known = dict(presence)
        asked = []
        for release in allowed:
            has = known[release] if release in known else early.has(name, release)
            if has is False:
                asked.append(release)
    having = [r for r, has in presence if has]
    if not asked or not having:
        return None
    asked = sorted(set(asked), key=version_key)
    low, high = version_key(asked[0]), version_key(asked[-1])
    before = [r for r in having if version_key(r) < low]
    after = [r for r in having if version_key(r) > high]
    if any(low < version_key(r) < high for r in having):
        return None  # releases with it among those without: no one direction
    if before and after:
        kind = "away"
    elif after:
        kind = "added"
    else:
        kind = "removed"
    last_before = before[-1] if before else ""
    first_after = after[0] if after else ""
    # The span that ends where the name goes (its replacement), else the one that starts
    # where it comes.
    ending = next((s for s in spans if s.until and _within(s, last_before)), None)
    starting = next((s for s in spans if s.since and s.since == first_after), None)
    decided = ending or starting or spans[0]
    gone_in = ""
    if last_before:
        after_last = (
            r for r, has in presence if has is False and version_key(r) > version_key(last_before)
        )
        gone_in = ending.until if ending is not None else next(after_last, asked[0])
    return ReleaseGap(
        name, kind, tuple(asked), last_before, first_after, gone_in, decided.now, decided.source
    )


def _run_words(some: Sequence[str], known: Sequence[str]) -> list[str]:
    """``some`` of the releases ``known`` (both oldest first) in words, each run of releases
    adjacent in ``known`` as ``A to B``."""
    runs: list[list[str]] = []
    for release in some:
        at = known.index(release)
        if runs and known.index(runs[-1][-1]) == at - 1:
            runs[-1].append(release)
        else:
            runs.append([release])
    return [r[0] if len(r) == 1 else f"{r[0]} to {r[-1]}" for r in runs]


@record
class NameReleases(Record):
    """The TensorFlow releases whose public API has a name, each dated by the earliest source
    that speaks of it: the release notes' table (``tf_early.txt``) before the listings, then
    each listed line's own API (:func:`name_releases`)."""

    name: str
    #: Every release tfdoctor knows, oldest first: the early table's, then the listed lines.
    known: tuple[str, ...]
    #: Those whose API has the name, oldest first.
    having: tuple[str, ...]
    #: Those whose API lacks it, as far as a source says (a name the early table has no row
    #: for is neither had nor lacked by the releases before the listings).
    lacking: tuple[str, ...]

    @property
    def first(self) -> str:
        """The oldest release known to have the name ("" for none)."""
        return self.having[0] if self.having else ""

    @property
    def dated(self) -> bool:
        """Whether :attr:`first` is the release that brought the name: the release before it
        lacks it. Not so where the oldest listing (1.9) has a name the release notes' table
        says nothing of: an earlier release may have brought it, and the listings cannot say."""
        if not self.having:
            return False
        at = self.known.index(self.first)
        return at > 0 and self.known[at - 1] in self.lacking

    def span(self) -> str:
        """The releases with the name in words, each run of adjacent ones as ``A to B``
        (``1.4 to 2.21``; ``1.9 (or earlier) to 2.21`` where :attr:`dated` is not so)."""
        words = _run_words(self.having, self.known)
        if words and not self.dated:
            words[0] = words[0].replace(self.first, f"{self.first} (or earlier)", 1)
        return ", ".join(words)

    def since(self) -> str:
        """From when the name is there, in words: ``from 1.4 on``, or ``from 1.9 (or earlier)
        on`` where no source dates the oldest release known to have it."""
        return f"from {self.first} on" if self.dated else f"from {self.first} (or earlier) on"


def name_releases(name: str, module: bool = False) -> NameReleases:
    """The releases whose public API has ``name`` (``tf.X`` or a Keras name; with ``module``,
    a listed module of its own), from the release notes' table before the listings (1.9 on)
    and the listings from there. A member of tf.contrib, which the 1.x listings hold as a whole
    (its modules load lazily, so the listing cannot tell), is in those lines where the table
    keeps it to its last release (the table's rows run on into the listings, tf_early.txt's
    header). The one reading of when a name came: a fix dates it from here, never from the
    listings' first line alone."""
    early = load_early()
    kept = bool(early.releases) and early.has(name, early.releases[-1]) is True
    presence: list[tuple[str, Optional[bool]]] = [(r, early.has(name, r)) for r in early.releases]
    listed = [(line, load_tf1(line), kept) for line in tf1_lines()]
    listed += [(line, load_api(line), False) for line in bundled_lines()]
    for line, index, lazy in sorted(listed, key=lambda x: version_key(x[0])):
        if index is None:
            presence.append((line, None))
        elif module:
            presence.append((line, name in index.modules))
        else:
            status = index.lookup(name).status
            has = status == OK or (lazy and status == UNKNOWN)
            presence.append((line, None if status == UNKNOWN and not has else has))
    # Oldest first, each release once (the early table stops before the listings start).
    ordered = sorted(dict(presence).items(), key=lambda x: version_key(x[0]))
    return NameReleases(
        name,
        tuple(r for r, _ in ordered),
        tuple(r for r, has in ordered if has),
        tuple(r for r, has in ordered if has is False),
    )


# --- the parameters of TensorFlow's public callables -----------------------------------------


#: The mark in a signature row of a def that takes ``**kwargs``.
KWARGS_MARK = "**"


class ParameterListings:
    """The signature listings of every line (``signature_lines.txt``'s text), indexed by name
    so that one name's rows are replayed without rebuilding every line's table."""

    def __init__(self, text: str) -> None:
        blocks = _blocks(text)
        #: The lines, newest first.
        self.lines = tuple(b.line for b in blocks)
        self._touched: dict[str, list[tuple[int, str]]] = {}
        for at, block in enumerate(blocks):
            for op in block.ops:
                self._touched.setdefault(op[1:].partition("\t")[0], []).append((at, op))

    def of(self, name: str) -> dict[str, frozenset[str]]:
        """Line -> the parameters the public callable ``name`` (``tf.reduce_max``) takes by
        keyword in that line (with :data:`KWARGS_MARK` where it takes ``**kwargs``), for the
        lines whose listing reads it; a line without it is absent (the callable is missing,
        or its parameters are not read from the text: the listing leaves both out)."""
        ops = self._touched.get(name, [])
        rows: dict[str, _Value] = {}
        out: dict[str, frozenset[str]] = {}
        for at, line in enumerate(self.lines):
            _apply(rows, [op for block, op in ops if block == at])
            value = rows.get(name)
            if value is not None:
                out[line] = frozenset(value.split()) if isinstance(value, str) else value
        return out

    def names(self) -> tuple[str, ...]:
        """Every public callable some line's listing reads, sorted."""
        return tuple(sorted(self._touched))

    def keyword(self, name: str, keyword: str) -> KeywordReleases:
        """The lines that read callable ``name`` and those of them that take ``keyword`` by
        name (a ``**kwargs`` alone does not: what it accepts is the function's to say)."""
        return _dated(name, keyword, self.lines, self.of(name))


def _dated(
    name: str, keyword: str, lines: tuple[str, ...], read: dict[str, frozenset[str]]
) -> KeywordReleases:
    """:meth:`ParameterListings.keyword` from the listed ``lines`` and what
    :meth:`ParameterListings.of` reads for ``name``."""
    having = tuple(sorted(read, key=version_key))
    known = tuple(sorted(lines, key=version_key))
    taking = tuple(x for x in having if keyword in read[x])
    return KeywordReleases(name, keyword, known, having, taking)


@functools.cache
def load_parameters() -> ParameterListings:
    """The bundled signature listings (empty where the file is missing), read on first use."""
    path = DATA_DIR / SIGNATURE_STORE
    return ParameterListings(path.read_text(encoding="utf-8") if path.is_file() else "")


@functools.cache
def parameters_of(name: str) -> dict[str, frozenset[str]]:
    """:meth:`ParameterListings.of` of the bundled listings."""
    return load_parameters().of(name)


@record
class KeywordReleases(Record):
    """The TensorFlow lines whose public callable takes a keyword argument by name, of the
    lines whose signature listing reads the callable (:func:`keyword_releases`)."""

    name: str
    keyword: str
    #: Every line with a signature listing, oldest first.
    known: tuple[str, ...]
    #: The lines whose listing reads the callable's parameters, oldest first.
    having: tuple[str, ...]
    #: Those whose callable takes ``keyword`` by name, oldest first.
    taking: tuple[str, ...]

    @property
    def first(self) -> str:
        """The oldest line that takes the keyword ("" for none)."""
        return self.taking[0] if self.taking else ""

    @property
    def last(self) -> str:
        """The newest line that takes the keyword ("" for none)."""
        return self.taking[-1] if self.taking else ""

    def takes(self, line: str) -> Optional[bool]:
        """Whether ``line`` (``2.4``) takes the keyword; None where its listing does not read
        the callable."""
        return line in self.taking if line in self.having else None

    def span(self) -> str:
        """The lines that take the keyword in words, each run of adjacent lines as ``A to B``
        (``2.5 to 2.21``); a line whose listing does not read the callable ends a run."""
        return ", ".join(_run_words(self.taking, self.known))

    def before(self, line: str) -> Optional[bool]:
        """Whether the line just before ``line`` among :attr:`known` takes the keyword (None
        where there is none, or its listing does not read the callable)."""
        at = self.known.index(line)
        return self.takes(self.known[at - 1]) if at > 0 else None

    def after(self, line: str) -> tuple[str, Optional[bool]]:
        """The line just after ``line`` among :attr:`known` ("" for none) and whether it takes
        the keyword (None where there is none, or its listing does not read the callable)."""
        at = self.known.index(line)
        if at + 1 >= len(self.known):
            return "", None
        return self.known[at + 1], self.takes(self.known[at + 1])


def keyword_releases(name: str, keyword: str) -> KeywordReleases:
    """The lines whose public callable ``name`` (``tf.function``, ``tf.compat.v1.reduce_max``)
    exists with its parameters read, and those of them that take ``keyword`` by name, from the
    parameters read out of each line's wheel (the bundled ``signature_lines.txt``); one
    replay of ``name``'s rows, shared with :func:`parameters_of`."""
    return _dated(name, keyword, load_parameters().lines, parameters_of(name))


@functools.cache
def load_keras_parameters(dist: str) -> ParameterListings:
    """The bundled signature listings of Keras distribution ``dist`` (``keras``, ``tf-keras``;
    empty where the file is missing), read on first use."""
    path = DATA_DIR / KERAS_SIGNATURE_STORES[dist]
    return ParameterListings(path.read_text(encoding="utf-8") if path.is_file() else "")


#: The public prefix of a Keras name -> the distribution whose listings hold it and the prefix
#: they write. ``tf.keras`` is the ``keras`` distribution's tree in every line it serves: Keras
#: 2's own for TensorFlow 2.6 to 2.15, Keras 3's from 2.16 (``scripts/gen_scan_api.py``).
KERAS_PREFIXES = (
    ("tf_keras.", "tf-keras", "tf_keras."),
    ("keras.", "keras", "keras."),
    ("tf.keras.", "keras", "keras."),
)


def keras_listed(name: str) -> Optional[tuple[str, str]]:
    """(The Keras distribution whose signature listings hold ``name``, the name as they write
    it) for ``keras.X``, ``tf.keras.X`` and ``tf_keras.X``; None for a name no Keras serves."""
    for prefix, dist, written in KERAS_PREFIXES:
        if name.startswith(prefix):
            return dist, written + name[len(prefix) :]
    return None


@functools.cache
def keras_parameters_of(name: str) -> dict[str, frozenset[str]]:
    """:meth:`ParameterListings.of` of the Keras release listings for ``name`` (as
    :func:`keras_listed` maps it): release -> the keywords it takes; empty for a name no
    Keras serves."""
    listed = keras_listed(name)
    return load_keras_parameters(listed[0]).of(listed[1]) if listed is not None else {}


def keras_keyword_releases(name: str, keyword: str) -> Optional[KeywordReleases]:
    """The Keras releases whose public callable ``name`` (``keras.layers.LSTM``,
    ``tf.keras.layers.LSTM``, ``tf_keras.layers.LSTM``) exists with its parameters read, and
    those of them that take ``keyword``, from the bundled Keras signature listings; its
    ``known`` are the releases of the distribution that serves the name (``keras`` 2.6 to
    3.x, or ``tf-keras``). None for a name no Keras distribution serves."""
    listed = keras_listed(name)
    if listed is None:
        return None
    return _dated(name, keyword, load_keras_parameters(listed[0]).lines, keras_parameters_of(name))
