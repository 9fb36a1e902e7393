"""List the parameters of each TensorFlow line's public functions into tfdoctor's scan data.

Usage: python scripts/gen_scan_signatures.py [--wheel-dir DIR] [--check]
       python scripts/gen_scan_signatures.py --wheel PATH [--wheel PATH ...] [--check]

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
    """Public name -> the parameters of the def it is, read statically from :class:`Sources`."""

    def __init__(self, sources: Sources) -> None:
        self.sources = sources

    def symbol(self, module: str, name: str, hops: int = 0) -> Optional[tuple[str, ...]]:
        """The parameters of ``name`` as module ``module`` defines or imports it; None where
        that is not decided by the text."""
        found = self._definition(module, name, hops)
        if found is None:
            return None
        where, node = found
        if isinstance(node, ast.ClassDef):
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
        if node.decorator_list and any(
            ast.unparse(d).split("(")[0].rsplit(".", 1)[-1] in ("dataclass", "attr.s", "s")
            for d in node.decorator_list
        ):
            return None  # generated __init__: nothing the text declares
        if any(k.arg == "metaclass" for k in node.keywords):
            return None  # a metaclass may define the call
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
        path = wheel_dir / url.rsplit("/", 1)[-1].split("#")[0]
        if not path.exists():
            pypi.log(f"download {path.name}")
            part = path.with_name(path.name + ".part")
            urllib.request.urlretrieve(url, part)
            part.rename(path)
        out.append(path)
    return out


def listings(wheels: Sequence[Path]) -> list[Any]:
    """The :class:`tfdoctor.scan.api.Listing` of signatures of each wheel."""
    gen_scan_api._package_path()
    from tfdoctor.scan.api import Listing  # noqa: PLC0415  (scripts/ is no package)

    out = []
    for path in wheels:
        with zipfile.ZipFile(path) as archive:
            version = _wheel_version(archive)
            print(f"gen_scan_signatures: read {path.name}", file=sys.stderr)
            rows = signature_rows(archive, version)
        line = ".".join(version.split(".")[:2])
        out.append(Listing(line, version, "", tuple(rows)))
    return out


def main(argv: Optional[list[str]] = None) -> int:
    """Write (or with --check, compare) ``tfdoctor/scan/signature_lines.txt``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--wheel-dir", help="where the wheels are downloaded (default: a temp dir)")
    parser.add_argument(
        "--wheel", action="append", default=[], help="read this local wheel (repeatable) instead"
    )
    parser.add_argument("--check", action="store_true", help="only report a stale file")
    args = parser.parse_args(argv)
    gen_scan_api._package_path()
    from tfdoctor.scan import api  # noqa: PLC0415

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
