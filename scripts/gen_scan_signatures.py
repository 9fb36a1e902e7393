"""List the parameters of each TensorFlow line's public functions into tfdoctor's scan data.

Usage: python scripts/gen_scan_signatures.py [--wheel-dir DIR] [--check]
       python scripts/gen_scan_signatures.py --wheel PATH [--wheel PATH ...] [--check]
       python scripts/gen_scan_signatures.py --keras {keras,tf-keras} [--wheel-dir DIR] [--check]

For each TensorFlow line the bundled matrix knows from 2.0, and each 1.x line on PyPI from
1.9 (the first whose wheel generates its API as files), the newest patch of each (the Linux
x86-64 ``tensorflow-cpu`` wheel on PyPI, else ``tensorflow``'s: the wheel
``scripts/gen_scan_api.py`` reads), the public names of ``tf`` and ``tf.compat.v1`` (a 1.x
line's ``tf`` alone: its ``tf.compat.v1`` repeats it, ``tf.contrib`` is no generated API) are read
from the wheel's generated API files with that script's reader, each with the implementation
module and symbol it is imported from. That module is parsed with :mod:`ast` (never imported)
and the function's parameters (a class's ``__init__``, else its ``__new__``, else its first
base's that resolves) are recorded: the names a caller may pass by keyword, and ``**`` where
the def takes ``**kwargs``. A decorator (``deprecated_args``, ``tf_export``) is not followed:
the row is what the def declares. A name bound by an assignment, one the module does not
define (a C extension's), or one defined more than once is left out rather than guessed;
``tf.keras`` and ``tf.estimator`` (served from other wheels from 2.6 on) are left out in every
line, so that a line is never read as lacking what another package serves.

    tf.NAME<TAB>param param ... [**]

Every line is kept in ``tfdoctor/scan/signature_lines.txt`` with the layout of
``api_lines.txt`` (:func:`tfdoctor.scan.api.pack`): the newest line in full, each older line
as its differences from the next. The whole wheels are read (about 200 MB each): they are
downloaded into ``--wheel-dir`` (a directory outside the repository) once and read from there.

``--keras DIST`` reads the Keras distribution ``DIST`` the same way, each release its name
listing covers (``scripts/gen_scan_api.py --keras``: ``keras`` 2.6 to 2.15 and every Keras 3,
``tf-keras`` from 2.14), its public names walked as that listing walks them, into its own store
(:data:`tfdoctor.scan.api.KERAS_SIGNATURE_STORES`). Keras' classes take most keywords through
``**kwargs`` checked by a base class, so there a class's ``**kwargs`` are followed to the base
``__init__`` they are handed to, and the keywords a check there writes literally join the row
(:class:`Resolver`). The model class's methods users call (:data:`MODEL_METHODS`) are rows
of its name (``keras.Model.fit``), read from the first def down its method resolution order,
Keras 3's backend trainer taken as TensorFlow's (:meth:`Resolver.method`). With ``--wheel``,
the listed wheels are the whole store.

``--check`` writes nothing and exits 1 when the data file differs from what it would write.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import tempfile
import urllib.request
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Optional, Union

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_scan_api

#: Public names whose implementation is not in the TensorFlow wheel in every line (Keras 2's
#: own wheel serves ``tf.keras`` from 2.6, tensorflow-estimator ``tf.estimator``): left out of
#: every line alike.
LEFT_OUT = ("tf.keras.", "tf.compat.v1.keras.", "tf.estimator.", "tf.compat.v1.estimator.")
#: How deep ``from X import NAME`` chains are followed to the def.
MAX_HOPS = 8
#: The mark of a def that takes ``**kwargs``.
KWARGS = "**"  # tfdoctor.scan.api.KWARGS_MARK

_Def = Union[ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef]


class Sources:
    """The Python modules of one TensorFlow wheel, parsed on demand."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.archive = archive
        #: Installed path (``tensorflow/python/ops/math_ops.py``) -> the member's name.
        self.members: dict[str, str] = {}
        for name in archive.namelist():
            if name.endswith(".py"):
                self.members.setdefault(gen_scan_api._DATA_DIR_RE.sub("", name), name)
        # TensorFlow 2.0 and 2.1 install the package as tensorflow_core, and their sources
        # import it as ``tensorflow``.
        self.core = "tensorflow_core/__init__.py" in self.members
        self._parsed: dict[str, Optional[ast.Module]] = {}

    def _path(self, dotted: str) -> Optional[str]:
        if self.core and (dotted == "tensorflow" or dotted.startswith("tensorflow.")):
            dotted = "tensorflow_core" + dotted[len("tensorflow") :]
        for path in (dotted.replace(".", "/") + ".py", dotted.replace(".", "/") + "/__init__.py"):
            if path in self.members:
                return path
        return None

    def is_module(self, dotted: str) -> bool:
        """Whether ``dotted`` is a module of the wheel (a file, not a symbol)."""
        return self._path(dotted) is not None

    def module(self, dotted: str) -> Optional[ast.Module]:
        """The parsed module ``dotted``; None where the wheel has no source for it."""
        if dotted not in self._parsed:
            path = self._path(dotted)
            tree = None
            if path is not None:
                text = self.archive.read(self.members[path]).decode("utf-8", "replace")
                try:
                    tree = ast.parse(text)
                except SyntaxError:
                    tree = None  # a file of another Python's grammar: nothing is read from it
            self._parsed[dotted] = tree
        return self._parsed[dotted]


def _absolute(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    """The module a ``from ... import`` in ``module`` names."""
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    keep = len(parts) - node.level + (1 if is_package else 0)
    return ".".join(parts[:keep] + ([node.module] if node.module else []))


def _target_names(target: ast.expr) -> list[str]:
    """The names an assignment target binds (``x``, ``x, y``), not ``x.attr`` or ``x[i]``,
    which change an object already bound (``gather_nd.__doc__ = ...``)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for e in target.elts for n in _target_names(e)]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    return []


def _bindings(tree: ast.Module, name: str) -> list[ast.stmt]:
    """The top-level statements (inside ``if``/``try``/``with`` too) that bind ``name``."""
    out: list[ast.stmt] = []
    for node in gen_scan_api._body_nodes(tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                out.append(node)
        elif isinstance(node, ast.ImportFrom):
            if any((a.asname or a.name) == name for a in node.names):
                out.append(node)
        elif isinstance(node, ast.Import):
            if any((a.asname or a.name.split(".")[0]) == name for a in node.names):
                out.append(node)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if name in {n for t in targets for n in _target_names(t)}:
                out.append(node)
    return out


def _params(func: Union[ast.FunctionDef, ast.AsyncFunctionDef], method: bool) -> tuple[str, ...]:
    """The names a caller may pass by keyword (positional-only ones cannot be), and
    :data:`KWARGS` where the def takes ``**kwargs``; ``self``/``cls`` dropped from a method."""
    args = func.args
    named = [a.arg for a in args.args]
    if method:
        named = named[1:] if named else named
        if not args.args and args.posonlyargs:
            named = []  # ``def __init__(self, /, ...)``: self is the positional-only one
    named += [a.arg for a in args.kwonlyargs]
    return tuple(named) + ((KWARGS,) if args.kwarg is not None else ())


class Resolver:
    """Public name -> the parameters of the def it is, read statically from :class:`Sources`.

    With ``follow_kwargs`` (Keras), a class whose ``__init__`` takes ``**kwargs`` and hands them
    to its base's ``__init__`` (``super().__init__(..., **kwargs)``) takes the base's parameters
    too, down to the ``__init__`` that checks them (:func:`_kwargs_check`): its literal set of
    accepted keywords joins the row and ``**`` leaves it. Where the chain cannot be read to such
    a check, ``**`` stays."""

    def __init__(self, sources: Sources, follow_kwargs: bool = False, backend: str = "") -> None:
        self.sources = sources
        self.follow_kwargs = follow_kwargs
        #: With a backend (``tensorflow``), a name a module imports once per backend, each in
        #: a branch of ``if backend.backend() == ...`` (Keras 3's ``Trainer`` in
        #: keras/src/models/model.py), is that backend's import (:func:`_backend_import`).
        self.backend = backend

    def symbol(self, module: str, name: str, hops: int = 0) -> Optional[tuple[str, ...]]:
        """The parameters of ``name`` as module ``module`` defines or imports it; None where
        that is not decided by the text."""
        found = self._definition(module, name, hops)
        if found is None:
            return None
        where, node = found
        if isinstance(node, ast.ClassDef):
            if self.follow_kwargs:
                return self._keras_class(where, node, hops)
            return self._class(where, node, hops)
        return _params(node, method=False)

    def _definition(self, module: str, name: str, hops: int) -> Optional[tuple[str, _Def]]:
        """(The module, the def or class) that ``name`` of ``module`` is, through imports."""
        if hops > MAX_HOPS:
            return None
        tree = self.sources.module(module)
        if tree is None:
            return None
        bound = _bindings(tree, name)
        if not bound:
            # ``from tensorflow.python.ops.gen_math_ops import *`` brings generated ops.
            for node in gen_scan_api._body_nodes(tree.body):
                if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
                    source = _absolute(module, node, self._is_package(module))
                    found = self._definition(source, name, hops + 1)
                    if found is not None:
                        return found
            return None
        if len(bound) != 1 and self.backend:
            bound = _backend_import(bound, self.backend)
        if len(bound) != 1:
            return None  # defined twice, or defined then rebound: not one def to read
        node = bound[0]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return module, node
        if isinstance(node, ast.ImportFrom):
            alias = next(a for a in node.names if (a.asname or a.name) == name)
            source = _absolute(module, node, self._is_package(module))
            if self.sources.is_module(f"{source}.{alias.name}"):
                return None  # a module, not a callable
            return self._definition(source, alias.name, hops + 1)
        return None

    def _is_package(self, module: str) -> bool:
        path = self.sources._path(module)
        return path is not None and path.endswith("/__init__.py")

    def _class(self, module: str, node: ast.ClassDef, hops: int) -> Optional[tuple[str, ...]]:
        """The parameters a class's call takes: its ``__init__``, else its ``__new__``, else
        those of the first base that has either; None where a base cannot be read."""
        if _call_made_elsewhere(node):
            return None
        for method in ("__init__", "__new__"):
            defs = [
                n
                for n in node.body
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == method
            ]
            if len(defs) == 1:
                return _params(defs[0], method=True)
            if defs:
                return None
        for base in node.bases:
            if isinstance(base, ast.Name) and base.id == "object":
                continue
            if not isinstance(base, ast.Name):
                return None  # ``module.Class`` or a call (namedtuple): not followed
            found = self._definition(module, base.id, hops + 1)
            if found is None or not isinstance(found[1], ast.ClassDef):
                return None
            inherited = self._class(found[0], found[1], hops + 1)
            if inherited is None or inherited != ():
                return inherited
            # A base with no parameters of its own: the next base may declare them.
        return ()

    def _base(self, module: str, base: ast.expr, hops: int) -> Optional[tuple[str, ast.ClassDef]]:
        """The class a base expression names: ``Name``, or ``module.Name`` where ``module`` is
        an imported module (``base_layer.Layer``); None where it is not read statically."""
        found: Optional[tuple[str, _Def]] = None
        if isinstance(base, ast.Name):
            found = self._definition(module, base.id, hops + 1)
        elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
            owner = self._module_named(module, base.value.id)
            if owner is not None:
                found = self._definition(owner, base.attr, hops + 1)
        if found is None or not isinstance(found[1], ast.ClassDef):
            return None
        return found[0], found[1]

    def _module_named(self, module: str, name: str) -> Optional[str]:
        """The module that ``name`` is bound to in ``module`` by one import, if it is one."""
        tree = self.sources.module(module)
        bound = _bindings(tree, name) if tree is not None else []
        if len(bound) != 1 or not isinstance(bound[0], (ast.ImportFrom, ast.Import)):
            return None
        node = bound[0]
        if isinstance(node, ast.Import):
            alias = next(a for a in node.names if (a.asname or a.name.split(".")[0]) == name)
            dotted = alias.name if alias.asname else alias.name.split(".")[0]
        else:
            alias = next(a for a in node.names if (a.asname or a.name) == name)
            dotted = f"{_absolute(module, node, self._is_package(module))}.{alias.name}"
        return dotted if self.sources.is_module(dotted) else None

    def _mro(self, module: str, node: ast.ClassDef, hops: int) -> Optional[list[_Link]]:
        """The method resolution order of class ``node`` (Python's C3 linearisation) as far as
        the text reads it: a base not read statically stands in it as an opaque entry (None),
        where a walk down the order must stop. None where the bases cannot be ordered."""
        if hops > MAX_HOPS:
            return None
        this: _Link = (f"{module}.{node.name}", (module, node))
        lines: list[list[_Link]] = []
        heads: list[_Link] = []
        for base in node.bases:
            if isinstance(base, ast.Name) and base.id == "object":
                continue
            found = self._base(module, base, hops)
            if found is None:
                opaque: _Link = (f"?{module}.{ast.unparse(base)}", None)
                lines.append([opaque])
                heads.append(opaque)
                continue
            line = self._mro(found[0], found[1], hops + 1)
            if line is None:
                return None
            lines.append(line)
            heads.append(line[0])
        lines.append(heads)
        out = [this]
        while any(lines):
            lines = [line for line in lines if line]
            for line in lines:
                head = line[0][0]
                if not any(head in (k for k, _ in other[1:]) for other in lines):
                    break
            else:
                return None  # no consistent order: Python refuses the class too
            out.append(line[0])
            lines = [[x for x in other if x[0] != head] for other in lines]
        return out

    def _keras_class(self, module: str, node: ast.ClassDef, hops: int) -> Optional[tuple[str, ...]]:
        """The keywords a call of class ``node`` takes, following ``**kwargs`` down its method
        resolution order to the ``__init__`` that checks them (:class:`Resolver`)."""
        if _call_made_elsewhere(node):
            return None
        mro = self._mro(module, node, hops)
        if mro is None or any(link is not None and _builds_other(link[1]) for _, link in mro):
            return None
        out: list[str] = []
        taken: set[str] = set()
        positional = 0
        at = 0
        while True:
            # The next class down the order that defines __init__ (object's takes nothing).
            at = _next_init(mro, at)
            if at == len(mro):
                return tuple(out)
            link = mro[at][1]
            if link is None:
                return (*out, KWARGS) if out else None
            inits = _methods(link[1], "__init__")
            if len(inits) != 1:
                return (*out, KWARGS) if out else None
            init = inits[0]
            slots = _positional(init)
            taken |= set(slots[:positional])
            own = [p for p in _params(init, method=True) if p not in taken]
            accepted, closed = _kwargs_check(init)
            out += [p for p in own if p != KWARGS] + list(accepted)
            if KWARGS not in own or closed:
                return tuple(out)
            handed = _kwargs_handed(init, link[1])
            if handed is None:
                return (*out, KWARGS)
            target, passed, count = handed
            taken |= set(passed)
            # A call that hands on its own *args (an init-less mixin's pass-through) fills no
            # slot of its own: the slots the call above filled move on.
            positional = positional - len(slots) if count < 0 else count
            positional = max(positional, 0)
            if target is None:
                at += 1
            else:
                keys = [k for k, _ in mro]
                named = self._base(link[0], target, hops)
                key = f"{named[0]}.{named[1].name}" if named is not None else ""
                if key not in keys[at + 1 :]:
                    return (*out, KWARGS)
                at = keys.index(key, at + 1)

    def method(self, module: str, name: str, method: str) -> Optional[tuple[str, ...]]:
        """The keywords a call of method ``method`` of class ``name`` (as module ``module``
        defines or imports it) takes: the parameters of the first def of it down the class's
        method resolution order and, where it takes ``**kwargs``, the keywords its own check
        (:func:`_kwargs_check`) or that of the one method of its class it hands them to
        (``self._validate_compile(optimizer, metrics, **kwargs)``, :func:`_kwargs_passed_on`)
        accepts, ``**`` where neither refuses the rest. None where the class, or the def,
        is not read (a base before it not resolved)."""
        found = self._definition(module, name, 0)
        if found is None or not isinstance(found[1], ast.ClassDef):
            return None
        mro = self._mro(found[0], found[1], 0)
        func = _method_def(mro, method) if mro is not None else None
        if mro is None or func is None:
            return None
        own = _params(func, method=True)
        if KWARGS not in own:
            return own
        accepted, closed = _kwargs_check(func)
        out = [p for p in own if p != KWARGS] + list(accepted)
        handed = _kwargs_passed_on(func)
        checker = _method_def(mro, handed[0]) if handed is not None and not closed else None
        if handed is not None and checker is not None:
            _, count, passed = handed
            filled = set(_positional(checker)[:count]) | set(passed)
            out += [p for p in _params(checker, method=True) if p not in filled and p != KWARGS]
            more, closed = _kwargs_check(checker)
            out += more
        return tuple(out) if closed else (*out, KWARGS)


def _method_def(
    mro: list[_Link], name: str
) -> Optional[Union[ast.FunctionDef, ast.AsyncFunctionDef]]:
    """The def of method ``name`` Python finds down a method resolution order: the first
    class's that defines it once; None where a base not read, or a class that defines it more
    than once (a property's getter and setter), comes first."""
    for _, link in mro:
        if link is None:
            return None
        defs = _methods(link[1], name)
        if defs:
            return defs[0] if len(defs) == 1 else None
    return None


def _kwargs_passed_on(
    func: Union[ast.FunctionDef, ast.AsyncFunctionDef],
) -> Optional[tuple[str, int, tuple[str, ...]]]:
    """(The method, how many positional arguments, the keywords passed) of the one call of a
    method of the same object a def hands its ``**kwargs`` to (``self._validate_compile(
    optimizer, metrics, **kwargs)``, keras 2.6.0 to 2.15.0 keras/engine/training.py,
    Model.compile); None where no such call is, more than one, or one with ``*args``."""
    kwarg = func.args.kwarg.arg if func.args.kwarg is not None else ""
    this = func.args.args[0].arg if func.args.args else ""
    found = []
    for node in _own_nodes(func):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == this
            and any(
                k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kwarg
                for k in node.keywords
            )
        ):
            continue
        if any(isinstance(a, ast.Starred) for a in node.args):
            return None
        passed = tuple(k.arg for k in node.keywords if k.arg is not None)
        found.append((node.func.attr, len(node.args), passed))
    return found[0] if len(found) == 1 else None


#: One entry of a method resolution order: a key naming the class, and (its module, its
#: class statement), or None for a base the text does not resolve.
_Link = tuple[str, Optional[tuple[str, ast.ClassDef]]]


def _call_made_elsewhere(node: ast.ClassDef) -> bool:
    """Whether what a call of the class takes is not written in its text: a generated
    ``__init__`` (a dataclass, attrs), or a metaclass that may define the call."""
    if node.decorator_list and any(
        ast.unparse(d).split("(")[0].rsplit(".", 1)[-1] in ("dataclass", "attr.s", "s")
        for d in node.decorator_list
    ):
        return True
    return any(k.arg == "metaclass" for k in node.keywords)


def _backend_import(bound: list[ast.stmt], backend: str) -> list[ast.stmt]:
    """Of a name's several bindings, the one import from a module of Keras 3's ``backend``
    package (``keras.src.backend.tensorflow.trainer``), where every binding is a ``from``
    import: Keras 3 imports one class per backend under ``if backend.backend() == ...`` and
    the call runs that backend's (keras-team/keras v3.0.0, keras/src/models/model.py).
    ``bound`` itself where that is not so."""
    if not all(isinstance(n, ast.ImportFrom) for n in bound):
        return bound
    mark = f".backend.{backend}."
    picked: list[ast.stmt] = [
        n for n in bound if isinstance(n, ast.ImportFrom) and mark in f".{n.module or ''}."
    ]
    return picked if len(picked) == 1 else bound


def _next_init(mro: list[_Link], at: int) -> int:
    """The index of the first entry from ``at`` on that defines ``__init__`` or is opaque
    (``len(mro)`` for none)."""
    while at < len(mro):
        link = mro[at][1]
        if link is None or _methods(link[1], "__init__"):
            return at
        at += 1
    return at


def _builds_other(node: ast.ClassDef) -> bool:
    """Whether the class's ``__new__`` may return what another call built (Keras' ``Model``
    returns a ``Functional`` when called with inputs and outputs): then its ``__init__`` is not
    the whole of what the call takes (:func:`_made_here`)."""
    for new in _methods(node, "__new__"):
        for found in _own_nodes(new):
            if isinstance(found, ast.Return) and not _made_here(found.value):
                return True
    return False


def _made_here(value: Optional[ast.expr]) -> bool:
    """Whether a ``__new__``'s return value is the object it made: a name, or the base's
    ``__new__`` called through ``super()`` (``typing.cast(cls, super().__new__(cls))`` too)."""
    if isinstance(value, ast.Name):
        return True
    if not isinstance(value, ast.Call):
        return False
    if ast.unparse(value.func).rsplit(".", 1)[-1] == "cast" and len(value.args) == 2:
        return _made_here(value.args[1])
    made = value.func
    return (
        isinstance(made, ast.Attribute)
        and made.attr == "__new__"
        and isinstance(made.value, ast.Call)
        and isinstance(made.value.func, ast.Name)
        and made.value.func.id == "super"
    )


def _positional(func: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> list[str]:
    """The parameters of a method a call fills by position, ``self`` dropped."""
    return [a.arg for a in func.args.posonlyargs + func.args.args][1:]


def _methods(node: ast.ClassDef, name: str) -> list[Union[ast.FunctionDef, ast.AsyncFunctionDef]]:
    """The defs named ``name`` in a class body."""
    return [
        n
        for n in node.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name
    ]


def _own_nodes(func: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> list[ast.AST]:
    """The nodes of a def's body, not those of the defs and lambdas nested in it."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(func.body)
    while todo:
        node = todo.pop()
        out.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return out


def _literal_words(node: Optional[ast.expr]) -> Optional[tuple[str, ...]]:
    """The strings of a literal set, tuple or list of strings; None for anything else."""
    if not isinstance(node, (ast.Set, ast.Tuple, ast.List)):
        return None
    words = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return tuple(words) if len(words) == len(node.elts) else None


def _kwargs_check(
    func: Union[ast.FunctionDef, ast.AsyncFunctionDef],
) -> tuple[tuple[str, ...], bool]:
    """The keywords an ``__init__`` taking ``**kwargs`` accepts through them as its text writes
    them, and whether it refuses every other: Keras 2's base classes call
    ``generic_utils.validate_kwargs(kwargs, allowed_kwargs)`` with a literal set (or a name bound
    to one in the def), which raises ``('Keyword argument not understood:', ...)``; Keras 3's
    ``Layer.__init__`` and ``BaseOptimizer.__init__`` pop literal keywords
    (``kwargs.pop("input_dim", None)``) and then raise on what is left (``if kwargs: raise``);
    Keras 2's ``OptimizerV2`` refuses each key outside a literal set (:func:`_refused_outside`),
    and its ``Model._validate_compile`` the keys outside ``set(kwargs) - {...}``
    (:func:`_set_outside`) once an ``if`` on the difference raises. A pop whose ``if`` raises,
    in its test or by the name it was popped into (:func:`_names_tested`), is a refusal, not
    an acceptance."""
    kwarg = func.args.kwarg.arg if func.args.kwarg is not None else ""
    nodes = _own_nodes(func)
    literals: dict[str, tuple[str, ...]] = {}
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            words = _literal_words(node.value)
            if isinstance(target, ast.Name) and words is not None:
                literals[target.id] = words
    refused: set[int] = set()
    #: Names whose truth, or whose not being None, an ``if`` that raises tests.
    tested: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.If) and any(isinstance(n, ast.Raise) for n in node.body):
            refused.update(id(n) for n in ast.walk(node.test))
            tested.update(_names_tested(node.test))
    for node in nodes:
        # ``distribute_arg = kwargs.pop("distribute", None)`` then ``if distribute_arg is not
        # None: raise`` (keras 2.15.0 keras/src/engine/training.py, Model._validate_compile):
        # the pop is a refusal as much as one inside the test.
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id in tested
        ):
            refused.add(id(node.value))
    accepted: list[str] = []
    closed = False
    for node in nodes:
        if isinstance(node, ast.Call):
            callee = ast.unparse(node.func).rsplit(".", 1)[-1]
            first = node.args[0] if node.args else None
            on_kwargs = isinstance(first, ast.Name) and first.id == kwarg
            if callee == "validate_kwargs" and on_kwargs and len(node.args) >= 2:
                allowed = node.args[1]
                words = (
                    literals.get(allowed.id)
                    if isinstance(allowed, ast.Name)
                    else _literal_words(allowed)
                )
                if words is not None:
                    accepted.extend(words)
                    closed = True
            func_node = node.func
            if (
                isinstance(func_node, ast.Attribute)
                and func_node.attr == "pop"
                and isinstance(func_node.value, ast.Name)
                and func_node.value.id == kwarg
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and id(node) not in refused
            ):
                accepted.append(node.args[0].value)
        elif (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id == kwarg
            and any(isinstance(n, ast.Raise) for n in node.body)
        ):
            closed = True
        elif isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            words = _refused_outside(node, kwarg, literals)
            if words is not None:
                accepted.extend(words)
                closed = True
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            words = _set_outside(node.value, kwarg)
            if words is not None and isinstance(target, ast.Name) and target.id in tested:
                accepted.extend(words)
                closed = True
    return tuple(accepted), closed


def _names_tested(test: ast.expr) -> list[str]:
    """The name an ``if`` test is: ``NAME``, or ``NAME is not None``; none for any other."""
    if isinstance(test, ast.Name):
        return [test.id]
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.IsNot)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return [test.left.id]
    return []


def _set_outside(value: ast.expr, kwarg: str) -> Optional[tuple[str, ...]]:
    """The literal set of ``set(kwargs) - {...}``, the keys outside which a raise then refuses
    (keras 2.6.0 to 2.15.0 keras/engine/training.py, Model._validate_compile:
    ``invalid_kwargs = set(kwargs) - {"sample_weight_mode"}``); None for any other value."""
    if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Sub)):
        return None
    left = value.left
    if not (
        isinstance(left, ast.Call)
        and isinstance(left.func, ast.Name)
        and left.func.id == "set"
        and len(left.args) == 1
        and isinstance(left.args[0], ast.Name)
        and left.args[0].id == kwarg
    ):
        return None
    return _literal_words(value.right)


def _refused_outside(
    loop: ast.For, kwarg: str, literals: dict[str, tuple[str, ...]]
) -> Optional[tuple[str, ...]]:
    """The literal set a loop over ``kwargs`` refuses every other key of: ``for k in kwargs:
    if k not in allowed_kwargs: raise`` (Keras 2's OptimizerV2.__init__, keras 2.6 to 2.10
    keras/optimizer_v2/optimizer_v2.py: "Unexpected keyword argument passed to optimizer");
    None for any other loop."""
    if not (isinstance(loop.iter, ast.Name) and loop.iter.id == kwarg):
        return None
    key = loop.target.id if isinstance(loop.target, ast.Name) else ""
    for node in loop.body:
        if not isinstance(node, ast.If):
            continue
        test = node.test
        if not (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name)
            and test.left.id == key
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.NotIn)
            and any(isinstance(n, ast.Raise) for n in node.body)
        ):
            continue
        allowed = test.comparators[0]
        return (
            literals.get(allowed.id) if isinstance(allowed, ast.Name) else _literal_words(allowed)
        )
    return None


def _kwargs_handed(
    func: Union[ast.FunctionDef, ast.AsyncFunctionDef], cls: ast.ClassDef
) -> Optional[tuple[Optional[ast.expr], tuple[str, ...], int]]:
    """The base ``__init__`` call an ``__init__`` hands its ``**kwargs`` to: (None for
    ``super().__init__``, else the base named in ``Base.__init__(self, ...)``; the keywords it
    passes; how many positional arguments, ``self`` not counted, -1 where it hands on its own
    ``*args`` alone). None where no such call is, or more than one."""
    kwarg = func.args.kwarg.arg if func.args.kwarg is not None else ""
    found = []
    for node in _own_nodes(func):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "__init__"
        ):
            continue
        if not any(
            k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kwarg
            for k in node.keywords
        ):
            continue
        passed = tuple(k.arg for k in node.keywords if k.arg is not None)
        owner = node.func.value
        args = node.args
        if (
            isinstance(owner, ast.Call)
            and isinstance(owner.func, ast.Name)
            and owner.func.id == "super"
        ):
            target: Optional[ast.expr] = None
        elif any(ast.unparse(owner) == ast.unparse(b) for b in cls.bases) and args:
            target, args = owner, args[1:]  # Base.__init__(self, ...)
        else:
            continue
        starred = [a for a in args if isinstance(a, ast.Starred)]
        if not starred:
            found.append((target, passed, len(args)))
        elif (
            len(starred) == 1
            and args[-1] is starred[0]
            and isinstance(starred[0].value, ast.Name)
            and func.args.vararg is not None
            and starred[0].value.id == func.args.vararg.arg
            and len(args) == 1
        ):
            found.append((target, passed, -1))  # ``*args, **kwargs`` handed on as they came
        else:
            return None
    return found[0] if len(found) == 1 else None


def signature_rows(archive: zipfile.ZipFile, version: str) -> list[str]:
    """``tf.NAME<TAB>params`` for each public callable of ``tf`` and ``tf.compat.v1`` in the
    TensorFlow wheel ``archive`` whose parameters the text decides."""
    tree = gen_scan_api.WheelTree({"tensorflow": (archive, version)})
    gen_scan_api.ORIGINS.clear()
    table: dict[str, list[str]] = {}
    # A 1.x line: tf.contrib is the implementation itself, and its tf.compat.v1 repeats tf.
    tf1 = gen_scan_api.version_key(version) < (2, 0)
    opaque = gen_scan_api.OPAQUE + (gen_scan_api.TF1_OPAQUE if tf1 else ())
    gen_scan_api.walk(tree, "tf", "tensorflow", table, opaque)
    resolver = Resolver(Sources(archive))
    rows = []
    for public, source in sorted(gen_scan_api.ORIGINS.items()):
        if public.startswith(LEFT_OUT) or not source.startswith("tensorflow"):
            continue
        name = public.rsplit(".", 1)[-1]
        if name.startswith("__"):
            continue  # __version__ and the like: no callable
        module, _, symbol = source.rpartition(".")
        if module.startswith("tensorflow_core"):
            module = "tensorflow" + module[len("tensorflow_core") :]
        params = resolver.symbol(module, symbol)
        if params is not None:
            rows.append(f"{public}\t{' '.join(sorted(set(params)))}")
    return rows


#: The methods users call on a Keras model whose keywords are listed, as rows of the model
#: class's public name (``keras.Model.fit``): Keras 2's are defined on Model (keras 2.6.0
#: keras/engine/training.py; the *_generator ones up to 2.15), Keras 3's on Model, its backend's
#: trainer and the base trainer (keras 3.0.5 keras/src/models/model.py,
#: keras/src/backend/tensorflow/trainer.py, keras/src/trainers/trainer.py). A method a
#: release lacks has no row there.
MODEL_METHODS = (
    "compile",
    "evaluate",
    "evaluate_generator",
    "fit",
    "fit_generator",
    "load_weights",
    "predict",
    "predict_generator",
    "predict_on_batch",
    "save",
    "save_weights",
    "summary",
    "test_on_batch",
    "train_on_batch",
)
#: The Keras 3 backend whose trainer a model's methods are read from: TensorFlow's, the one
#: tfdoctor's users run (the methods' parameters are the same in every backend's trainer).
MODEL_BACKEND = "tensorflow"


def keras_signature_rows(archive: zipfile.ZipFile, dist: str, version: str) -> list[str]:
    """``NAME<TAB>params`` for each public callable of Keras distribution ``dist`` (``keras``,
    ``tf-keras``) in its wheel ``archive``, its public names walked as the name listings walk
    them (``gen_scan_api.keras_rows``), whose parameters the text decides; and one row for each
    of :data:`MODEL_METHODS` the model class (``keras.Model``) has (:meth:`Resolver.method`)."""
    package = dist.replace("-", "_")
    tree = gen_scan_api.WheelTree({package: (archive, version)})
    gen_scan_api.keras_rows(tree, dist)
    resolver = Resolver(Sources(archive), follow_kwargs=True)
    rows = []
    for public, source in sorted(gen_scan_api.ORIGINS.items()):
        # tf-keras' tf.compat.v1.keras tree repeats tf_keras' callables: its own names only.
        if not public.startswith(package + ".") or not source.startswith(package + "."):
            continue
        if any(part.startswith("_") for part in public.split(".")):
            continue  # __version__, keras.__internal__: no callable, or none for users
        module, _, symbol = source.rpartition(".")
        params = resolver.symbol(module, symbol)
        if params is not None:
            rows.append(f"{public}\t{' '.join(sorted(set(params)))}")
    model = gen_scan_api.ORIGINS.get(f"{package}.Model", "")
    if model.startswith(package + "."):
        methods = Resolver(resolver.sources, follow_kwargs=True, backend=MODEL_BACKEND)
        module, _, symbol = model.rpartition(".")
        for method in MODEL_METHODS:
            params = methods.method(module, symbol, method)
            if params is not None:
                rows.append(f"{package}.Model.{method}\t{' '.join(sorted(set(params)))}")
    return sorted(rows)


def keras_download(dist: str, wheel_dir: Path) -> list[Path]:
    """The wheel of the newest release of each minor of ``dist`` that the name listings cover
    (``gen_scan_api.KERAS_FIRST`` on), in ``wheel_dir``, downloaded where missing."""
    rm = gen_scan_api._refresh_matrix()
    pypi = rm.PyPI(log=lambda msg: print(f"gen_scan_signatures: {msg}", file=sys.stderr))
    files = pypi.index(dist)
    out = []
    for minor, version in sorted(rm.latest_finals(files).items()):
        if gen_scan_api.version_key(minor) < gen_scan_api.KERAS_FIRST[dist]:
            continue
        wheel = next(
            f
            for f in files
            if f.filename.endswith("-none-any.whl") and rm.file_version(f) == version
        )
        out.append(_fetch(pypi, wheel.url, wheel_dir / wheel.filename))
    return out


def _fetch(pypi: Any, url: str, path: Path) -> Path:
    """``path``, downloaded from ``url`` where it is missing."""
    if not path.exists():
        pypi.log(f"download {path.name}")
        part = path.with_name(path.name + ".part")
        urllib.request.urlretrieve(url, part)
        part.rename(path)
    return path


KERAS_HEAD = (
    "The parameters of each public function and class of one Keras distribution, release by",
    "release (the newest patch of each minor its name listing covers), read with ast from its",
    "wheels on PyPI. Generated by scripts/gen_scan_signatures.py --keras; do not edit. A row",
    "is NAME<TAB>the keywords a caller may pass: a class's __init__ parameters and, where it",
    "hands **kwargs to its base's __init__, the base's, down to the __init__ that checks them",
    "(Keras 2's validate_kwargs with a literal set or a loop refusing each key outside one,",
    "Keras 3's literal kwargs.pop then `if kwargs: raise`): the keywords it accepts there join",
    "the row. ** where the chain is not read to such a check. A class whose __new__ returns",
    "what another call built (Model) is left out; the methods users call on it are rows of",
    "their own (keras.Model.fit): the first def down its method resolution order (Keras 3's",
    "trainer the TensorFlow backend's), its **kwargs followed into its own check and into the",
    "one method of the model it hands them to. `@ LINE` opens a release: the newest in full,",
    "each older one as the rows that differ from the release above it (+KEY: the row is, -KEY:",
    "the row is not, ~KEY: parameters in and out).",
)


HEAD = (
    "The parameters of each TensorFlow line's public functions and classes (tf and, from 2.0,",
    "tf.compat.v1; tf.keras and tf.estimator are not listed), read with ast from the",
    "implementation modules of the Linux x86-64 wheels on PyPI (tensorflow-cpu, else",
    "tensorflow; the newest patch of each line). Generated by scripts/gen_scan_signatures.py;",
    "do not edit. A row is NAME<TAB>the parameters a caller may pass by keyword (** where the",
    "def takes **kwargs). `@ LINE` opens a line: the newest in full, each older one as the rows",
    "that differ from the line above it (+KEY: the row is, -KEY: the row is not, ~KEY:",
    "parameters in and out).",
)


def _wheel_version(archive: zipfile.ZipFile) -> str:
    """The ``Version:`` of a wheel's METADATA."""
    found = re.search(r"^Version:\s*(\S+)", gen_scan_api._metadata(archive), re.MULTILINE)
    if found is None:
        raise SystemExit("gen_scan_signatures: the wheel's METADATA has no Version")
    return found.group(1)


def download(versions: Iterable[str], wheel_dir: Path) -> list[Path]:
    """The wheel of each TensorFlow version in ``wheel_dir``, downloaded where missing."""
    rm = gen_scan_api._refresh_matrix()
    pypi = rm.PyPI(log=lambda msg: print(f"gen_scan_signatures: {msg}", file=sys.stderr))
    out = []
    for version in versions:
        url = gen_scan_api._tf_wheel_url(rm, pypi, version)
        out.append(_fetch(pypi, url, wheel_dir / url.rsplit("/", 1)[-1].split("#")[0]))
    return out


def listings(wheels: Sequence[Path], keras: str = "") -> list[Any]:
    """The :class:`tfdoctor.scan.api.Listing` of signatures of each TensorFlow wheel, or with
    ``keras`` (a distribution: ``keras``, ``tf-keras``) of each of its wheels."""
    gen_scan_api._package_path()
    from tfdoctor.scan.api import Listing  # noqa: PLC0415  (scripts/ is no package)

    out = []
    for path in wheels:
        with zipfile.ZipFile(path) as archive:
            version = _wheel_version(archive)
            print(f"gen_scan_signatures: read {path.name}", file=sys.stderr)
            if keras:
                rows = keras_signature_rows(archive, keras, version)
            else:
                rows = signature_rows(archive, version)
        line = ".".join(version.split(".")[:2])
        tf_version, keras_version = ("", version) if keras else (version, "")
        out.append(Listing(line, tf_version, keras_version, tuple(rows)))
    return out


def main(argv: Optional[list[str]] = None) -> int:
    """Write (or with --check, compare) ``tfdoctor/scan/signature_lines.txt``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--wheel-dir", help="where the wheels are downloaded (default: a temp dir)")
    parser.add_argument(
        "--wheel", action="append", default=[], help="read this local wheel (repeatable) instead"
    )
    parser.add_argument("--check", action="store_true", help="only report a stale file")
    parser.add_argument(
        "--keras",
        choices=sorted(gen_scan_api.KERAS_FIRST),
        help="list this Keras distribution's releases into its own store instead",
    )
    args = parser.parse_args(argv)
    gen_scan_api._package_path()
    from tfdoctor.scan import api  # noqa: PLC0415

    if args.keras:
        store = api.KERAS_SIGNATURE_STORES[args.keras]
        with tempfile.TemporaryDirectory() as scratch:
            wheels = (
                [Path(w) for w in args.wheel]
                if args.wheel
                else keras_download(args.keras, Path(args.wheel_dir or scratch))
            )
            text = api.pack(listings(wheels, args.keras), KERAS_HEAD)
        return gen_scan_api._write_store(store, text, args.check, Path(__file__).name)
    if args.wheel:
        path = gen_scan_api.OUT_DIR / api.SIGNATURE_STORE
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        lines = {x.line: x for x in api.unpack(current)}
        lines.update((x.line, x) for x in listings([Path(w) for w in args.wheel]))
        text = api.pack(list(lines.values()), HEAD)
    else:
        with tempfile.TemporaryDirectory() as scratch:
            wheel_dir = Path(args.wheel_dir or scratch)
            versions = gen_scan_api.newest_patches() + gen_scan_api.tf1_patches()
            wheels = download(versions, wheel_dir)
            text = api.pack(listings(wheels), HEAD)
    return gen_scan_api._write_store(api.SIGNATURE_STORE, text, args.check, Path(__file__).name)


if __name__ == "__main__":
    sys.exit(main())
