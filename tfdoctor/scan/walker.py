"""Find the uses of TensorFlow and Keras APIs in Python source, by parsing it (never running it).

Imports bind local names to modules or objects (``import tensorflow as tf``, ``from tensorflow
import keras``, ``from tensorflow.keras import layers``, ``import keras.backend as K``); each
attribute chain, call or bare name rooted in such a binding resolves to its fully qualified
name, written ``tf.X`` for ``tensorflow.X`` and ``keras.X`` for standalone Keras. Calls of a
method on any other object are kept when their method name is one the rules ask about
(``model.fit_generator(...)``), and so are reads of an attribute a rule asks about, passed in
the same collection with a leading dot (``.lr`` for ``model.optimizer.lr``). A path argument
is followed through the function's (or module's) string assignments, concatenations,
``.format()``, f-strings and ``os.path.join``; what a name holds (a Keras model, optimizer,
layer or symbolic tensor) through the calls assigned to it. An alias assigned from a bound
module (``tf = tf.compat.v1``, ``keras = tf.keras``) rebinds the name. Notebooks (``.ipynb``)
are read cell by cell; IPython magics and shell lines are blanked so that line numbers stay
those of the cell.
"""

from __future__ import annotations

import ast
import bisect
import builtins
import dataclasses
import functools
import os
import re
import stat
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path
from typing import Optional, Union

from tfdoctor.bounded import (
    MAX_NOTEBOOK_BYTES,
    MAX_SOURCE_BYTES,
    InputError,
    code_problem,
    parse_json,
    size_text,
)
from tfdoctor.records import Record, record

#: Top-level packages whose APIs are judged; the rest of a file's imports are ignored.
ROOTS = {"tensorflow": "tf", "keras": "keras", "tf_keras": "tf_keras"}

#: Cell magics whose body is Python (``%%time`` times the cell); other cell magics are not.
PYTHON_CELL_MAGICS = ("%%time", "%%timeit", "%%capture", "%%prun")

_BUILTINS = frozenset(dir(builtins))

#: How an error of :class:`FileUses` starts when the file was left unparsed on purpose.
SKIPPED = "skipped: "


@record
class Use(Record):
    """One use of an API name in a file: where, how, and what was passed to a call."""

    #: Fully qualified name, ``tf.`` / ``keras.`` form (``tf.compat.v1.Session``).
    name: str
    #: The name as written in the source (``K.mean``, ``Session``).
    written: str
    line: int
    #: 1-based, in characters.
    column: int
    #: ``import``, ``attribute``, ``call``, ``name`` (a bare name bound by an import) or
    #: ``star`` (a bare name that only a ``from X import *`` can have bound).
    kind: str
    #: The local name the use goes through (``K`` for ``K.mean``); for an import, the name it
    #: binds. Empty when the import binds nothing the code then uses by that route.
    binding: str = ""
    #: Keyword arguments of a call.
    kwargs: tuple[str, ...] = ()
    #: The path-like first argument of a call (or its ``filepath=``) when it is a literal.
    path_arg: Optional[str] = None
    #: The notebook cell (1-based) for a notebook, else None.
    cell: Optional[int] = None
    #: (keyword, kind of its literal value) for each keyword argument: ``true``, ``false``,
    #: ``int``, ``str``, ``other`` (a literal of another type) or ``?`` (not a literal).
    kwarg_values: tuple[tuple[str, str], ...] = ()
    #: Each positional argument: the source text of a name or attribute chain, the ``repr`` of
    #: a literal, else ``?``.
    positional: tuple[str, ...] = ()
    #: Whether an argument is a Keras symbolic tensor (``keras.Input`` or a layer called on
    #: one, followed through the function's assignments).
    keras_tensor_args: bool = False


@record
class MethodUse(Record):
    """A call ``receiver.method(...)`` on an object that is not an API name."""

    method: str
    receiver: str
    line: int
    column: int
    kwargs: tuple[str, ...] = ()
    path_arg: Optional[str] = None
    cell: Optional[int] = None
    #: A read of the attribute ``receiver.method`` (``optimizer.lr``), not a call.
    attribute: bool = False
    kwarg_values: tuple[tuple[str, str], ...] = ()
    #: What the receiver is, where the function's assignments say: ``model``, ``optimizer``,
    #: ``layer`` or ``tensor`` (a Keras symbolic tensor); else "".
    receiver_kind: str = ""


@record
class FileUses(Record):
    """Everything found in one file, or why it could not be read."""

    path: str
    uses: tuple[Use, ...] = ()
    methods: tuple[MethodUse, ...] = ()
    #: Why the file (or a notebook cell) could not be parsed, with its line.
    errors: tuple[str, ...] = ()
    #: A notebook's :func:`notebook_source_lines`.
    cell_lines: tuple[int, ...] = ()


def normalize(dotted: str) -> str:
    """``tensorflow.compat.v2.X`` -> ``tf.X``; ``tensorflow.X`` -> ``tf.X``; else unchanged."""
    head, _, rest = dotted.partition(".")
    if head != "tensorflow":
        return dotted
    if rest == "compat.v2" or rest.startswith("compat.v2."):
        rest = rest[len("compat.v2") + 1 :]
    return f"tf.{rest}" if rest else "tf"


def mentions_api(text: str) -> bool:
    """Whether ``text`` can use TensorFlow or Keras at all (every use starts with an import)."""
    return "tensorflow" in text or "keras" in text


# --- sources -----------------------------------------------------------------------------------


def notebook_cells(text: str) -> list[tuple[int, str]]:
    """(1-based cell number, Python source) of each code cell of a notebook's JSON.

    Magic (``%``), shell (``!``) and help (``?``) lines become empty lines; a cell run by a
    non-Python cell magic (``%%bash``) is left out. InputError when nested too deeply.
    """
    return _notebook(text)[0]


_SOURCE_KEY = re.compile(r'^\s*"source"\s*:\s*(.*?)\s*$')


def notebook_source_lines(text: str, cells: int) -> tuple[int, ...]:
    """For each of a notebook's ``cells`` cells, the line of its JSON that holds the cell's
    first source line (0 where that cannot be told), so that a finding can point into the
    ``.ipynb`` file itself (SARIF, code scanning).

    nbformat 4 writes ``"source": [`` and then one source line per JSON line; a source kept
    as one string sits on the key's line. Keys inside strings are escaped, so each unescaped
    ``"source":`` key opens a cell; when their count is not the number of cells (a notebook
    written on one line, nbformat 3) nothing is told.
    """
    found: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _SOURCE_KEY.match(line)
        if match:
            rest = match.group(1)
            found.append(number + 1 if rest == "[" else number if rest.startswith('"') else 0)
    return tuple(found) if len(found) == cells else ()


def _notebook(text: str) -> tuple[list[tuple[int, str]], int]:
    """The code cells of a notebook (see :func:`notebook_cells`) and how many cells it has."""
    data = parse_json(text, "notebook", "a notebook")
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        # nbformat 3 kept cells under worksheets.
        sheets = data.get("worksheets", []) if isinstance(data, dict) else []
        cells = [c for s in sheets if isinstance(s, dict) for c in s.get("cells", [])]
    out: list[tuple[int, str]] = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", cell.get("input", ""))
        text_of = "".join(source) if isinstance(source, list) else str(source)
        lines = text_of.split("\n")
        first = lines[0].strip() if lines else ""
        if first.startswith("%%") and not first.startswith(PYTHON_CELL_MAGICS):
            continue
        out.append((number, "\n".join(_python_line(line) for line in lines)))
    return out, len(cells)


def _python_line(line: str) -> str:
    stripped = line.strip()
    if stripped.startswith(("%", "!")) or (stripped.endswith("?") and not stripped.startswith("#")):
        return ""
    return line


# --- the walk ----------------------------------------------------------------------------------


class _Bindings:
    """Local names bound by imports of TensorFlow or Keras, over a whole file."""

    def __init__(self) -> None:
        #: Local name -> fully qualified name (``tf`` -> ``tf``, ``layers`` -> ``tf.keras.layers``).
        self.names: dict[str, str] = {}
        #: Local names bound by ``import a.b as c`` or ``from a import b``: uses through them
        #: repeat what the import line already said.
        self.imported_objects: set[str] = set()
        #: Modules imported with ``*``.
        self.star: list[str] = []
        #: Every name the file binds itself (assignments, definitions, parameters).
        self.local: set[str] = set()
        #: Names rebound to a module by an assignment (``tf = tf.compat.v1``).
        self.aliases: set[str] = set()
        #: Names bound by imports of other packages (``from gensim.models import Word2Vec``).
        self.foreign: set[str] = set()
        #: Modules of the scanned file's own project (files and packages beside it): what
        #: they return may well be a Keras model (``from model import build``).
        self.project: frozenset[str] = frozenset()
        #: Whether the file imports from a private TensorFlow tree (``tensorflow._api.v1``;
        #: Keras' own ``keras.src`` is no API and not judged).
        self.private = False


def scan_source(
    text: str, path: str, methods: Collection[str] = (), notebook: bool = False
) -> FileUses:
    """The API uses in one file's text (``notebook``: the text is an ``.ipynb`` document)."""
    if not mentions_api(text):
        return FileUses(path)
    parts: list[tuple[Optional[int], str]]
    cell_lines: tuple[int, ...] = ()
    if notebook:
        try:
            cells, total = _notebook(text)
            parts = list(cells)
            cell_lines = notebook_source_lines(text, total)
        except InputError as exc:
            return FileUses(path, errors=(f"{SKIPPED}{str(exc).partition(': ')[2]}",))
        except (ValueError, AttributeError, TypeError) as exc:
            return FileUses(path, errors=(f"not a readable notebook: {exc}",))
    else:
        parts = [(None, text)]
    problem = code_problem("\n".join(source for _, source in parts) if notebook else text)
    if problem is not None:
        return FileUses(path, errors=(f"{SKIPPED}{problem}",))
    try:
        found = _scan_parts(parts, path, text, methods)
        return dataclasses.replace(found, cell_lines=cell_lines) if cell_lines else found
    except RecursionError:
        # Python's parser (3.11 on) refuses an expression too deep to build, and the walk
        # below recurses along call chains: the file is skipped, the others scanned.
        return FileUses(path, errors=(f"{SKIPPED}nested too deeply for Python's parser",))
    except MemoryError:
        # The parser's own stack limit on right-nested code (``- - - ... 1``), or no memory.
        return FileUses(path, errors=(f"{SKIPPED}too deep or too large for Python's parser",))


def _scan_parts(
    parts: list[tuple[Optional[int], str]], path: str, text: str, methods: Collection[str]
) -> FileUses:
    """The API uses in a file's sources (one, or a notebook's cells)."""
    trees: list[tuple[Optional[int], ast.AST, list[str]]] = []
    errors: list[str] = []
    for cell, source in parts:
        try:
            tree = ast.parse(source, filename=path)
        except (SyntaxError, ValueError) as exc:
            where = f"cell {cell} line" if cell is not None else "line"
            lineno = getattr(exc, "lineno", None) or 1
            msg = getattr(exc, "msg", None) or str(exc)
            errors.append(f"{where} {lineno}: {msg}")
            continue
        trees.append((cell, tree, source.splitlines()))
    bindings = _Bindings()
    if path and not path.startswith("<"):  # a file, not a source line (``<traceback>``)
        bindings.project = _project_modules(str(Path(path).absolute().parent))
    for _, parsed, _ in trees:
        _collect_imports(parsed.body, bindings)  # type: ignore[attr-defined]
    uses: list[Use] = []
    calls: list[MethodUse] = []
    if bindings.star:
        # A star import can bind any bare name: every node is looked at, and every name the
        # file binds itself is known first.
        for _, parsed, _ in trees:
            _collect_locals(parsed, bindings)
        for cell_number, parsed, lines in trees:
            resolver = _Resolver(bindings, methods, lines, cell_number, uses, calls, parsed)
            resolver.run(ast.walk(parsed))
        return FileUses(path, tuple(uses), tuple(calls), tuple(errors))
    wanted = [m for m in methods if m[0] != "~" and (m if m[0] == "." else f".{m}(") in text]
    if not bindings.names and not wanted and not bindings.private:
        return FileUses(path, errors=tuple(errors))
    # Only statements whose lines mention a bound name or a wanted method are walked: most of
    # a file is code that touches neither, and walking it costs as much as parsing it.
    words = sorted(bindings.names) + [m[1:] if m[0] == "." else f"{m}(" for m in wanted]
    if bindings.private:
        # The lines that import from TensorFlow's private trees bind nothing judged.
        words.append("tensorflow")
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + ")")
    seen_local: set[str] = set()
    for cell_number, parsed, lines in trees:
        hits = sorted(
            {number for number, line in enumerate(lines, start=1) if pattern.search(line)}
        )
        if not hits:
            continue
        resolver = _Resolver(bindings, methods, lines, cell_number, uses, calls, parsed)
        resolver.run(_nodes_on(parsed.body, hits))  # type: ignore[attr-defined]
        seen_local |= resolver.local
    # A name the file also assigns is not (only) the import's: `backend = None` after a failed
    # import, a loop variable. Uses through such an imported object are dropped; module
    # aliases (`tf`) keep their meaning (they are not reassigned in practice).
    shadowed = (seen_local | bindings.local) & bindings.imported_objects
    if shadowed:
        uses = [u for u in uses if u.kind == "import" or u.binding not in shadowed]
    return FileUses(path, tuple(uses), tuple(calls), tuple(errors))


def _collect_imports(body: list[ast.stmt], bindings: _Bindings) -> None:
    """Imports anywhere in the statements (inside functions, ``try``, ``if`` too)."""
    stack: list[ast.AST] = list(reversed(body))  # in source order: a later import wins
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import):
            for alias in node.names:
                _bind_import(alias, bindings)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            in_scope = node.level == 0 and module.split(".")[0] in ROOTS
            for alias in node.names:
                if alias.name == "*":
                    if in_scope:
                        bindings.star.append(normalize(module))
                    continue
                local = alias.asname or alias.name
                qualified = normalize(f"{module}.{alias.name}")
                if in_scope and not _private(qualified):
                    bindings.names[local] = qualified
                    bindings.imported_objects.add(local)
                else:
                    if (
                        not in_scope
                        and node.level == 0
                        and module.split(".")[0] not in bindings.project
                    ):
                        bindings.foreign.add(local)
                    bindings.private = bindings.private or (in_scope and qualified[:3] == "tf.")
                    bindings.local.add(local)
        elif isinstance(node, ast.Assign):
            _bind_alias(node, bindings)
        else:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bindings.local.add(node.name)
            for field in reversed(_BODIES):
                stack.extend(reversed(_statements(getattr(node, field, ()))))


def _bind_import(alias: ast.alias, bindings: _Bindings) -> None:
    root = alias.name.split(".")[0]
    if root not in ROOTS:
        bindings.local.add(alias.asname or root)
        if root not in bindings.project:
            bindings.foreign.add(alias.asname or root)
    elif alias.asname is None:
        bindings.names[root] = normalize(root)
    elif _private(normalize(alias.name)):
        bindings.private = bindings.private or root == "tensorflow"
        bindings.local.add(alias.asname)
    else:
        bindings.names[alias.asname] = normalize(alias.name)
        if "." in alias.name and not _is_package_alias(alias.name):
            bindings.imported_objects.add(alias.asname)


def _bind_alias(node: ast.Assign, bindings: _Bindings) -> None:
    """``tf = tf.compat.v1`` or ``keras = tf.keras``: the name now stands for that module (a
    chain of attributes on a bound module whose last part is lower case: a namespace, not a
    class or a value)."""
    if not isinstance(node.value, ast.Attribute) or len(node.targets) != 1:
        return
    if not isinstance(node.targets[0], ast.Name):
        return
    parts: list[str] = []
    cur: ast.expr = node.value
    while isinstance(cur, ast.Attribute):
        parts.append(cur.attr)
        cur = cur.value
    if not parts or not isinstance(cur, ast.Name) or cur.id not in bindings.names:
        return
    if cur.id in bindings.imported_objects or not parts[0].islower():
        return
    target = node.targets[0].id
    bindings.names[target] = ".".join([bindings.names[cur.id], *reversed(parts)])
    bindings.imported_objects.discard(target)
    bindings.aliases.add(target)


def _private(qualified: str) -> bool:
    """Keras' private trees: never API, never judged (``from keras.src import ops``,
    ``keras._tf_keras``, ``keras.api``, tf-keras' ``tf_keras.src``)."""
    parts = qualified.split(".")
    if parts[0] in ("keras", "tf_keras") and len(parts) > 1 and parts[1] in ("src", "api"):
        return True
    return any(p.startswith("_") and not p.endswith("__") for p in parts)


def _collect_locals(tree: ast.AST, bindings: _Bindings) -> None:
    """Every name the file binds itself (assignments, definitions, parameters)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bindings.local.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bindings.local.add(node.name)
        elif isinstance(node, ast.arg):
            bindings.local.add(node.arg)
    for name in bindings.local & bindings.imported_objects:
        bindings.imported_objects.discard(name)
        bindings.names.pop(name, None)


#: Fields of compound statements that hold statements (or ``except`` clauses).
_BODIES = ("body", "orelse", "finalbody", "handlers")


def _statements(value: object) -> list[ast.AST]:
    if isinstance(value, list):
        return [v for v in value if isinstance(v, (ast.stmt, ast.excepthandler))]
    return []


def _nodes_on(body: list[ast.stmt], hits: list[int]) -> Iterator[ast.AST]:
    """The nodes of the statements that span one of the ``hits`` lines, parents first.

    A compound statement's own parts (a ``def``'s decorators and defaults, an ``if``'s test)
    are walked when it spans a hit; its body statements are each pruned the same way.
    """
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        start = getattr(node, "lineno", 1)
        for decorator in getattr(node, "decorator_list", ()):
            start = min(start, decorator.lineno)
        end = getattr(node, "end_lineno", None) or start
        at = bisect.bisect_left(hits, start)
        if at == len(hits) or hits[at] > end:
            continue
        inner: list[ast.AST] = []
        for field, value in ast.iter_fields(node):
            if field in _BODIES and isinstance(value, list):
                inner.extend(_statements(value))
            elif isinstance(value, ast.AST):
                yield from ast.walk(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        yield from ast.walk(item)
        if not inner:
            yield node
        else:
            yield node
            stack.extend(reversed(inner))


def _is_package_alias(dotted: str) -> bool:
    """Whether ``import dotted as x`` aliases a namespace (``tensorflow.compat.v1``)."""
    return normalize(dotted) in ("tf.compat.v1", "tf.keras") or dotted.count(".") == 0


class _Resolver:
    """Resolves one tree's chains, calls and names against the file's bindings."""

    def __init__(
        self,
        bindings: _Bindings,
        methods: Collection[str],
        lines: list[str],
        cell: Optional[int],
        uses: list[Use],
        calls: list[MethodUse],
        tree: Optional[ast.AST] = None,
    ) -> None:
        self.b = bindings
        self.methods = methods
        self.attributes = frozenset(m[1:] for m in methods if m.startswith("."))
        #: Calls whose arguments are recorded in full and whose path argument is followed
        #: through assignments (``~Name`` in ``methods``, and the methods): elsewhere only
        #: keyword names and a literal path count, which is cheap.
        self.path_calls = frozenset(m.lstrip("~") for m in methods if m[0] != ".")
        self.strings = _Strings(tree) if tree is not None else None
        self.kinds = (
            _Kinds(self.strings, self._qualified, bindings.foreign)
            if self.strings is not None
            else None
        )
        #: Whether the code can hold a Keras symbolic tensor at all (it calls an Input).
        self.symbolic = self.kinds is not None and any("Input(" in line for line in lines)
        self.lines = lines
        self.cell = cell
        self.uses = uses
        self.calls = calls
        #: Names the walked code binds itself (assignments, parameters).
        self.local: set[str] = set()

    def run(self, nodes: Iterable[ast.AST]) -> None:
        """Resolve ``nodes`` (each parent before its children)."""
        skip: set[int] = set()
        local = self.local
        for node in nodes:
            if id(node) in skip:
                continue
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load):
                    self._name(node)
                else:
                    local.add(node.id)
            elif isinstance(node, ast.arg):
                local.add(node.arg)
            elif isinstance(node, ast.Call):
                self._call(node, skip)
            elif isinstance(node, ast.Attribute):
                if node.attr in self.attributes and isinstance(node.ctx, ast.Load):
                    self._attribute(node)
                self._chain(node, skip, "attribute")
            elif isinstance(node, ast.Assign):
                self._alias(node, skip)
            elif isinstance(node, ast.Import):
                self._import(node)
            elif isinstance(node, ast.ImportFrom):
                self._import_from(node)

    # -- helpers

    def _column(self, line: int, col: int) -> int:
        """1-based character column from ast's 0-based UTF-8 byte offset."""
        if 0 < line <= len(self.lines):
            text = self.lines[line - 1]
            if not text.isascii():
                return len(text.encode("utf-8")[:col].decode("utf-8", "replace")) + 1
        return col + 1

    def _add(
        self,
        name: str,
        written: str,
        node: ast.AST,
        kind: str,
        binding: str = "",
        kwargs: tuple[str, ...] = (),
        path_arg: Optional[str] = None,
        call: Optional[ast.Call] = None,
    ) -> None:
        line = getattr(node, "lineno", 1)
        column = self._column(line, getattr(node, "col_offset", 0))
        values: tuple[tuple[str, str], ...] = ()
        positional: tuple[str, ...] = ()
        symbolic = False
        if call is not None:
            if name.rsplit(".", 1)[-1] in self.path_calls:
                values = _kwarg_values(call)
                positional = tuple(_argument_text(a) for a in call.args)
            if self.symbolic and name.startswith("tf.") and ".keras" not in name:
                kinds = self.kinds
                symbolic = kinds is not None and any(
                    kinds.of(a, line) == TENSOR for a in _argument_parts(call.args)
                )
        self.uses.append(
            Use(
                name,
                written,
                line,
                column,
                kind,
                binding,
                kwargs,
                path_arg,
                self.cell,
                values,
                positional,
                symbolic,
            )
        )

    def _resolve(self, node: ast.expr) -> Optional[tuple[str, str, str]]:
        """(qualified name, written text, root local name) of a Name/Attribute chain."""
        parts: list[str] = []
        cur: ast.expr = node
        while isinstance(cur, ast.Attribute):
            parts.append(cur.attr)
            cur = cur.value
        if not isinstance(cur, ast.Name):
            return None
        base = self.b.names.get(cur.id)
        if base is None:
            return None
        parts.reverse()
        written = ".".join([cur.id, *parts])
        return ".".join([base, *parts]), written, cur.id

    def _qualified(self, node: ast.expr) -> Optional[str]:
        """The fully qualified API name of a name or attribute chain, if it is one."""
        resolved = self._resolve(node)
        return resolved[0] if resolved is not None else None

    def _kind(self, node: ast.expr, line: int) -> str:
        return self.kinds.of(node, line) if self.kinds is not None else ""

    def _mark(self, node: ast.expr, skip: set[int]) -> None:
        cur: ast.expr = node
        while isinstance(cur, ast.Attribute):
            skip.add(id(cur))
            cur = cur.value
        skip.add(id(cur))

    # -- node kinds

    def _chain(self, node: ast.Attribute, skip: set[int], kind: str) -> None:
        resolved = self._resolve(node)
        self._mark(node, skip)
        if resolved is None:
            return
        name, written, root = resolved
        self._add(name, written, node, kind, binding=root)

    def _attribute(self, node: ast.Attribute) -> None:
        """A read of ``receiver.attr`` that a rule asks about (``model.optimizer.lr``)."""
        if self._resolve(node) is not None:
            return  # an API name (tf.keras.X.lr), judged as such
        line = node.end_lineno or node.lineno
        col = (node.end_col_offset or 0) - len(node.attr)
        self.calls.append(
            MethodUse(
                node.attr,
                _source_text(node.value),
                line,
                self._column(line, max(col, 0)),
                cell=self.cell,
                attribute=True,
                receiver_kind=self._kind(node.value, line),
            )
        )

    def _name(self, node: ast.Name) -> None:
        if node.id in self.b.imported_objects:
            self._add(self.b.names[node.id], node.id, node, "name", binding=node.id)
        elif (
            self.b.star
            and node.id not in self.b.names
            and node.id not in self.b.local
            and node.id not in _BUILTINS
        ):
            for module in self.b.star:
                self._add(f"{module}.{node.id}", node.id, node, "star", binding=node.id)

    def _call(self, node: ast.Call, skip: set[int]) -> None:
        func = node.func
        kwargs = tuple(k.arg for k in node.keywords if k.arg is not None)
        last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        path_arg = _path_argument(node, self.strings if last in self.path_calls else None)
        if isinstance(func, (ast.Attribute, ast.Name)):
            resolved = self._resolve(func)
            if resolved is not None:
                self._mark(func, skip)
                name, written, root = resolved
                self._add(
                    name,
                    written,
                    func,
                    "call",
                    binding=root,
                    kwargs=kwargs,
                    path_arg=path_arg,
                    call=node,
                )
                return
            if isinstance(func, ast.Name):
                if self.b.star and func.id not in self.b.local and func.id not in _BUILTINS:
                    skip.add(id(func))
                    for module in self.b.star:
                        self._add(
                            f"{module}.{func.id}",
                            func.id,
                            func,
                            "star",
                            binding=func.id,
                            kwargs=kwargs,
                            path_arg=path_arg,
                            call=node,
                        )
                return
            if func.attr in self.methods:
                line = func.end_lineno or func.lineno
                col = (func.end_col_offset or 0) - len(func.attr)
                self.calls.append(
                    MethodUse(
                        func.attr,
                        _source_text(func.value),
                        line,
                        self._column(line, max(col, 0)),
                        kwargs,
                        path_arg,
                        self.cell,
                        kwarg_values=_kwarg_values(node),
                        receiver_kind=self._kind(func.value, line),
                    )
                )

    def _alias(self, node: ast.Assign, skip: set[int]) -> None:
        """``flags = tf.app.flags`` binds like an import: the line says it once for the uses
        through the name."""
        target = node.targets[0] if len(node.targets) == 1 else None
        if not isinstance(target, ast.Name) or target.id not in self.b.aliases:
            return
        if not isinstance(node.value, ast.Attribute):
            return
        resolved = self._resolve(node.value)
        self._mark(node.value, skip)
        if resolved is not None and resolved[0] == self.b.names.get(target.id):
            self._add(resolved[0], resolved[1], node.value, "import", binding=target.id)

    def _import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] not in ROOTS or "." not in alias.name:
                continue
            binding = alias.asname if alias.asname in self.b.imported_objects else ""
            self._add(
                normalize(alias.name),
                alias.name,
                _where(alias, node),
                "import",
                binding=binding or "",
            )

    def _import_from(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level != 0 or module.split(".")[0] not in ROOTS:
            return
        for alias in node.names:
            if alias.name == "*":
                self._add(normalize(module), module, node, "import")
                continue
            local = alias.asname or alias.name
            binding = local if local in self.b.imported_objects else ""
            self._add(
                normalize(f"{module}.{alias.name}"),
                f"{module}.{alias.name}",
                _where(alias, node),
                "import",
                binding=binding,
            )


def _where(alias: ast.alias, node: ast.stmt) -> ast.AST:
    """The alias itself where Python records its position (3.10+), else its statement."""
    return alias if hasattr(alias, "lineno") else node


def _path_argument(node: ast.Call, strings: Optional[_Strings] = None) -> Optional[str]:
    """The first positional argument, or ``filepath=``/``filename=``/``path=``, as text.

    Only its tail decides the format, so a string built at run time counts by the tail it
    surely has (``f"{out}/model.h5"`` -> ``"…/model.h5"``), through variables assigned in the
    same function or module (:class:`_Strings`); anything else is unknown (None).
    """
    arg: Optional[ast.expr] = node.args[0] if node.args else None
    if arg is None:
        for keyword in node.keywords:
            if keyword.arg in ("filepath", "filename", "path"):
                arg = keyword.value
                break
    if arg is None:
        return None
    return (strings or _NO_FLOW).tail(arg, getattr(node, "lineno", 0))


#: name -> (first, last line of its scope, line, value or None) of each binding.
_Assigned = dict[str, list[tuple[int, int, int, Optional[ast.expr]]]]
#: The span of the module's own scope (every line).
_WHOLE = 1 << 30
#: What an unknown part of a string built at run time is written as.
UNKNOWN_PART = "\u2026"


class _Strings:
    """The strings a file builds: string values through assignments, within a function (or
    the module), followed only as far as their tail is certain."""

    def __init__(self, tree: Optional[ast.AST]) -> None:
        self.tree = tree
        #: name -> (first, last line of the innermost function around it, or of the whole
        #: module; line; value) of each assignment to the name.
        #: A value of None: bound to something unknown (a parameter, a loop variable).
        self._assigned: Optional[_Assigned] = None

    def _build(self) -> _Assigned:
        out: _Assigned = {}
        if self.tree is None:
            return out
        # Assignments and functions are statements: the walk never enters an expression.
        body = getattr(self.tree, "body", [])
        stack: list[tuple[ast.AST, int, int]] = [(n, 0, _WHOLE) for n in body]
        while stack:
            node, first, last = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first, last = node.lineno, node.end_lineno or node.lineno
                # A parameter hides the module's name of the same spelling.
                arguments = node.args
                every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
                every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
                for arg in every:
                    out.setdefault(arg.arg, []).append((first, last, first, None))
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                for target in ast.walk(node.target):
                    if isinstance(target, ast.Name):
                        out.setdefault(target.id, []).append((first, last, node.lineno, None))
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        entry = (first, last, node.lineno, node.value)
                        out.setdefault(target.id, []).append(entry)
                continue
            for field in _BODIES:
                stack.extend(
                    (child, first, last) for child in _statements(getattr(node, field, ()))
                )
        return out

    def lookup(self, name: str, line: int) -> Optional[ast.expr]:
        """The value last assigned to ``name`` before ``line`` in the innermost scope around
        ``line`` that assigns it (the module's assignments where no function does)."""
        if self._assigned is None:
            self._assigned = self._build()
        entries = self._assigned.get(name)
        if not entries:
            return None
        around = [e for e in entries if e[0] <= line <= e[1]]
        if not around:
            return None
        narrowest = min(e[1] - e[0] for e in around)
        # The nearest assignment before the use (a loop or a branch may assign another value:
        # the tail is then a guess, as a reader of the code would guess it).
        before = [e for e in around if e[1] - e[0] == narrowest and e[2] < line]
        return max(before, key=lambda e: e[2])[3] if before else None

    def tail(self, node: ast.expr, line: int, depth: int = 0) -> Optional[str]:
        """The text of ``node`` with its unknown parts as :data:`UNKNOWN_PART`, or None when
        even its tail is unknown."""
        text = self._text(node, line, depth)
        if text is None or text.endswith(UNKNOWN_PART):
            return None
        return text

    def _text(self, node: ast.expr, line: int, depth: int) -> Optional[str]:
        if depth > 8:
            return None
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else None
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    parts.append(value.value)
                elif isinstance(value, ast.FormattedValue):
                    inner = self._text(value.value, line, depth + 1)
                    parts.append(inner if inner is not None else UNKNOWN_PART)
            return "".join(parts)
        if isinstance(node, ast.Name):
            assigned = self.lookup(node.id, line)
            return self._text(assigned, line, depth + 1) if assigned is not None else None
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Add):
                left = self._text(node.left, line, depth + 1)
                right = self._text(node.right, line, depth + 1)
                if right is None:
                    return None
                return (left if left is not None else UNKNOWN_PART) + right
            if isinstance(node.op, ast.Mod):
                # "%s.h5" % name: the template's tail, unless it ends in a conversion.
                left = self._text(node.left, line, depth + 1)
                if left is None or re.search(r"%[-#0 +\d.]*[a-z]$", left):
                    return None
                return UNKNOWN_PART + left
            if isinstance(node.op, ast.Div):  # pathlib: base / "model.h5"
                right = self._text(node.right, line, depth + 1)
                return None if right is None else UNKNOWN_PART + "/" + right
            return None
        if isinstance(node, ast.Call):
            return self._call_text(node, line, depth)
        return None

    def _call_text(self, node: ast.Call, line: int, depth: int) -> Optional[str]:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "format":
            template = self._text(func.value, line, depth + 1)
            if template is None or template.endswith("}"):
                return None
            return UNKNOWN_PART + template
        name = _source_text(func)
        if name.endswith(("path.join", "os.path.join")) and node.args:
            last = self._text(node.args[-1], line, depth + 1)
            return None if last is None else UNKNOWN_PART + "/" + last
        if name in ("str", "Path", "pathlib.Path", "os.fspath") and len(node.args) == 1:
            return self._text(node.args[0], line, depth + 1)
        return None


def _argument_parts(args: list[ast.expr]) -> Iterator[ast.expr]:
    """The arguments of a call and the items of a list or tuple passed (tf.concat([a, b]))."""
    for arg in args:
        if isinstance(arg, (ast.List, ast.Tuple)):
            yield from arg.elts
        else:
            yield arg


#: The kinds :class:`_Kinds` tells apart (``other``: made by another package's call, or an
#: optimizer of the old kind, :data:`_OLD_OPTIMIZER_RE`).
MODEL, OPTIMIZER, LAYER, TENSOR, OTHER = "model", "optimizer", "layer", "tensor", "other"
_OPTIMIZER_RE = re.compile(r"^(?:tf\.keras|keras|tf)\.optimizers\.[A-Z]\w*$")
# Optimizers that keep the old optimizer's methods the rules on Keras optimizers ask about
# (get_updates, get_slot, _set_hyper, _decayed_lr, ...): TensorFlow 1's own
# (tf.compat.v1.train.AdamOptimizer: get_slot, get_slot_names, _create_slots, the
# _resource_apply methods), and the legacy Keras ones 2.11 to 2.15 keep OptimizerV2 as
# (tf.keras.optimizers.legacy.Adam, and its aliases in TensorFlow's own API, tf.optimizers.legacy
# and tf.compat.v1's; Keras 3 refuses to make one, which the name's own rule says).
_OLD_OPTIMIZER_RE = re.compile(
    r"^(?:tf\.(?:compat\.v1\.)?train\.[A-Z]\w*Optimizer"
    r"|(?:tf(?:\.compat\.v1)?(?:\.keras)?|keras|tf_keras)\.optimizers\.legacy\.[A-Z]\w*)$"
)
_MODEL_RE = re.compile(
    r"^(?:tf\.keras|keras)\.(?:Model|Sequential|models\.(?:Model|Sequential|load_model|"
    r"clone_model)|saving\.load_model|applications\.(?:\w+\.)?[A-Z]\w*)$"
)
_LAYER_RE = re.compile(r"^(?:tf\.keras|keras)\.layers\.[A-Z]\w*$")
_INPUT_RE = re.compile(r"^(?:tf\.keras|keras)\.(?:layers\.)?Input$")
_MERGE_RE = re.compile(r"^(?:tf\.keras|keras)\.(?:layers\.[a-z]\w*|ops\.\w+)$")


class _Kinds:
    """What a local name holds, from the calls assigned to it in the same function (or the
    module): a Keras model, optimizer or layer, or a Keras symbolic tensor."""

    def __init__(
        self,
        strings: _Strings,
        qualified: Callable[[ast.expr], Optional[str]],
        foreign: Collection[str] = (),
    ) -> None:
        self.strings = strings
        self.qualified = qualified
        self.foreign = foreign

    def of(self, node: ast.expr, line: int, depth: int = 0) -> str:
        """The kind of ``node`` as evaluated at ``line``, or ""."""
        if depth > 6:
            return ""
        if isinstance(node, ast.Name):
            if node.id in ("self", "cls"):
                return ""  # the instance: what its attributes hold is not followed
            value = self.strings.lookup(node.id, line)
            return self.of(value, line, depth + 1) if value is not None else ""
        if isinstance(node, ast.Call):
            return self._call(node, line, depth)
        if isinstance(node, ast.Attribute):
            owner = self.of(node.value, line, depth + 1)
            if owner == MODEL:
                return {"optimizer": OPTIMIZER, "output": TENSOR, "input": TENSOR}.get(
                    node.attr, ""
                )
            return ""
        if isinstance(node, ast.Subscript):
            owner = self.of(node.value, line, depth + 1)
            if owner == TENSOR:
                return TENSOR
            layers = node.value
            if isinstance(layers, ast.Attribute) and layers.attr == "layers":
                return LAYER if self.of(layers.value, line, depth + 1) == MODEL else ""
            return ""
        if isinstance(node, ast.BinOp):
            sides = (self.of(node.left, line, depth + 1), self.of(node.right, line, depth + 1))
            return TENSOR if TENSOR in sides else ""
        return ""

    def _call(self, node: ast.Call, line: int, depth: int) -> str:
        func = node.func
        name = self.qualified(func) if isinstance(func, (ast.Name, ast.Attribute)) else None
        if name is not None:
            if _INPUT_RE.match(name):
                return TENSOR
            if _OPTIMIZER_RE.match(name):
                return OPTIMIZER
            if _OLD_OPTIMIZER_RE.match(name):
                return OTHER
            if _MODEL_RE.match(name):
                return MODEL
            if _LAYER_RE.match(name):
                return LAYER
            if _MERGE_RE.match(name) and self._symbolic(node, line, depth):
                return TENSOR
            return ""
        if isinstance(func, ast.Attribute) and func.attr == "get_layer":
            return LAYER if self.of(func.value, line, depth + 1) == MODEL else ""
        root = func
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in self.foreign:
            return OTHER  # Word2Vec(...), joblib.load(...): not Keras
        # A layer or a model called on a symbolic tensor gives one: Dense(3)(x), model(x).
        if self.of(func, line, depth + 1) in (LAYER, MODEL) and self._symbolic(node, line, depth):
            return TENSOR
        return ""

    def _symbolic(self, node: ast.Call, line: int, depth: int) -> bool:
        return any(self.of(a, line, depth + 1) == TENSOR for a in _argument_parts(node.args))


def _argument_text(node: ast.expr) -> str:
    """A positional argument as :attr:`Use.positional` keeps it."""
    if isinstance(node, (ast.Name, ast.Attribute)):
        return _source_text(node)
    if isinstance(node, ast.Constant):
        return repr(node.value)
    return "?"


#: Strings without data flow: a literal or an f-string's literal tail only.
_NO_FLOW = _Strings(None)


def _kwarg_values(node: ast.Call) -> tuple[tuple[str, str], ...]:
    """(keyword, kind of literal) for each keyword argument of a call (see ``Use``)."""
    out = []
    for keyword in node.keywords:
        if keyword.arg is None:
            continue
        value = keyword.value
        kind = "?"
        if isinstance(value, ast.Constant):
            if value.value is True:
                kind = "true"
            elif value.value is False:
                kind = "false"
            elif isinstance(value.value, int):
                kind = "int"
            elif isinstance(value.value, str):
                kind = "str"
            else:
                kind = "other"
        elif isinstance(value, (ast.Tuple, ast.List)):
            kind = "other"
        out.append((keyword.arg, kind))
    return tuple(out)


def _source_text(node: ast.expr) -> str:
    """A short text of an expression (``self.model``), for matching receivers."""
    parts: list[str] = []
    cur: ast.expr = node
    while isinstance(cur, ast.Attribute):
        parts.append(cur.attr)
        cur = cur.value
    if isinstance(cur, ast.Name):
        parts.append(cur.id)
    elif isinstance(cur, ast.Call):
        inner = cur.func
        parts.append(_source_text(inner) + "()")
    elif isinstance(cur, ast.Subscript):
        parts.append(_source_text(cur.value) + "[]")
    else:
        parts.append("?")
    return ".".join(reversed(parts))


#: How a scanned file is opened: without waiting, since opening a FIFO (named ``*.py``, or
#: a path given on the command line) for reading blocks until something writes to it, and
#: O_NONBLOCK makes it return at once (open(2), "O_NONBLOCK"; fifo(7)); the descriptor's
#: type is then checked. Windows has no O_NONBLOCK, and needs O_BINARY for bytes as read.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def read_file(path: str) -> Union[str, OSError, UnicodeDecodeError, InputError]:
    """The text of ``path`` (UTF-8, as Python reads source), or the error reading it; a file
    over :data:`MAX_SOURCE_BYTES` (a notebook: :data:`MAX_NOTEBOOK_BYTES`) is not read."""
    limit = MAX_NOTEBOOK_BYTES if path.endswith(".ipynb") else MAX_SOURCE_BYTES
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        return exc
    try:
        stream = open(fd, "rb")  # noqa: PTH123, SIM115 - a descriptor, not a path; closed below
    except OSError as exc:
        os.close(fd)  # no file object took the descriptor: it is ours to close
        return exc
    try:
        with stream:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return OSError("not a regular file (a FIFO, a device or a socket)")
            data = stream.read(limit + 1)
    except OSError as exc:
        return exc
    if len(data) > limit:
        return InputError(f"larger than {size_text(limit)}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return exc


@functools.lru_cache(maxsize=256)
def _project_modules(directory: str) -> frozenset[str]:
    """The modules importable from ``directory`` itself: its ``.py`` files and its packages
    (a scanned file imports its neighbours by these names)."""
    try:
        entries = list(Path(directory).iterdir())
    except OSError:
        return frozenset()
    return frozenset(
        entry.stem if entry.suffix == ".py" else entry.name
        for entry in entries
        if entry.suffix == ".py" or (entry / "__init__.py").is_file()
    )


def scan_path(path: str, methods: Collection[str] = ()) -> FileUses:
    """Read and scan one file (a notebook by its ``.ipynb`` suffix)."""
    text = read_file(path)
    if isinstance(text, OSError):
        return FileUses(path, errors=(f"cannot read: {text.strerror or text}",))
    if isinstance(text, UnicodeDecodeError):
        return FileUses(path, errors=(f"not UTF-8 text: {text.reason}",))
    if isinstance(text, InputError):
        return FileUses(path, errors=(f"{SKIPPED}{text}",))
    return scan_source(text, path, methods, notebook=path.endswith(".ipynb"))
