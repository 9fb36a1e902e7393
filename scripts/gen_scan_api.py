"""List the public API of each TensorFlow line (and its Keras) into tfdoctor's scan data.

Usage: python scripts/gen_scan_api.py [--site-packages DIR] [--check]
       python scripts/gen_scan_api.py --version X.Y.Z [--wheel-url URL] [--check]
       python scripts/gen_scan_api.py --all [--check]
       python scripts/gen_scan_api.py --keras [--check]

TensorFlow's wheels generate their public namespace as plain ``from X import Y as Z`` files
(``tensorflow/__init__.py`` and the ``tensorflow/_api/v2`` tree, ``tensorflow_core/`` in 2.0
and 2.1, relative imports there), with lazily loaded modules set by ``setattr``
(``_LazyLoader`` for ``tf.estimator`` and, 2.6 to 2.14, ``tf.keras`` from Keras 2's
``keras/api/_v2``; ``_KerasLazyLoader`` from 2.15, served by Keras 3's ``keras/_tf_keras``
where Keras 3 is installed). This script reads those files as text with :mod:`ast`; it never
imports TensorFlow. One line's listing, one row per module, is what ``tfdoctor scan`` uses to
say "this name does not exist in the target" as a fact:

    MODULE<TAB>member member/ ...     (a trailing ``/`` marks a submodule)
    MODULE<TAB>*                      (members not listed: not checked)
    =tf.compat.v1.NAME<TAB>tf.V2NAME      (the TensorFlow 2 name of the same object)

The last kind is how ``tf_upgrade_v2`` renames: a TensorFlow 1 name absent from TensorFlow 2
whose object TensorFlow 2 exports under another name (``tf.random_normal`` -> ``tf.random.normal``).
Every line is kept in ``tfdoctor/scan/api_lines.txt`` (:func:`tfdoctor.scan.api.pack`): the
newest in full, each older line as its differences from the next; a run replaces the lines it
read and keeps the others.

``--version`` (or ``--wheel-url``) reads a release without installing it: the generated files
come out of the Linux x86-64 ``tensorflow-cpu`` wheel on PyPI (else ``tensorflow``'s) over HTTP
range requests, with the reader of ``scripts/refresh_matrix.py``, so only the zip's central
directory and the ``__init__.py`` files travel (about 1 MB of a 200 MB wheel). ``tf.keras`` and
``keras`` are read likewise from the Keras wheel that pip installs beside it on Python 3.11: the
newest release that the TensorFlow wheel's ``Requires-Dist: keras`` admits (of the same line for
Keras 2); up to 2.5 TensorFlow requires no Keras and ``tf.keras`` is in its own wheel. ``--all``
reads the newest patch of every line from 2.0 that the bundled matrix knows.

``--keras`` lists the Keras distributions on their own, each in its store beside that file
(:data:`tfdoctor.scan.api.KERAS_STORES`, packed the same way): ``keras`` from 2.6, the newest
release of each minor (2.6 to 2.15 were released with the TensorFlow line of the same number;
2.6 to 2.12 install the implementation as ``keras/`` and their public API is the tree they
generate for ``tf.keras``, ``keras/api/_v2/keras``; from 2.13 ``keras/`` is that API), then every
Keras 3 minor; and ``tf-keras`` (Keras 2 for TensorFlow 2.14 on), with the
``tf_keras.api._v1.keras`` tree that TensorFlow serves as ``tf.compat.v1.keras`` when
``TF_USE_LEGACY_KERAS`` is set (tensorflow/python/util/lazy_loader.py).

``--check`` writes nothing and exits 1 when the data file differs from what it would write.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import sysconfig
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional, Protocol

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "tfdoctor" / "scan"

#: Namespaces whose members are not listed: generated op wrappers (``raw_ops``), private ones,
#: and ``compat.v2``, which repeats ``tf`` itself.
OPAQUE = (
    "tf.raw_ops",
    "tf.__internal__",
    "tf.__operators__",
    "tf.compat.v2",
    "tf.compat.v1.raw_ops",
    "tf.compat.v1.compat",
    "tf.compat.v1.__internal__",
)

#: Also not listed in a TensorFlow 1.x line: ``tf.contrib`` is the implementation itself, not
#: generated API, and 1.x's ``tf.compat.v1`` repeats ``tf``.
TF1_OPAQUE = ("tf.contrib", "tf.compat.v1")

#: From 2.15 tensorflow/__init__.py sets ``tf.keras`` (and ``tf.losses``, ``tf.metrics``, ...)
#: to a ``_KerasLazyLoader``, which names no module: it serves Keras 3's ``keras._tf_keras.keras``
#: tree where Keras 3 is installed, for ``tf.compat.v1.keras`` too (``KerasLazyLoader._initialize``
#: in tensorflow/python/util/lazy_loader.py picks that package whatever the mode), else Keras 2's
#: ``keras.api._v2`` (``_v1`` for ``tf.compat.v1.keras``).
KERAS_LAZY = "<keras>"
KERAS_TREES = {
    "v2": ("keras._tf_keras.keras", "keras.api._v2.keras"),
    "v1": ("keras._tf_keras.keras", "keras.api._v1.keras"),
}
#: The submodules a ``_KerasLazyLoader`` refuses under Keras 3.
KERAS3_REFUSED = "__internal__.legacy."


class Tree(Protocol):
    """Where the packages' files are read from: a site-packages directory or remote wheels."""

    def is_package(self, dotted: str) -> bool:
        """Whether ``dotted`` is a package (a directory with ``__init__.py``)."""
        ...

    def init_text(self, dotted: str) -> str:
        """The text of package ``dotted``'s ``__init__.py``."""
        ...

    def version(self, dist: str) -> str:
        """The version of distribution ``dist`` (``tensorflow`` or ``keras``)."""
        ...


class SiteTree:
    """The packages installed in one site-packages directory."""

    def __init__(self, site: Path) -> None:
        self.site = site
        # TensorFlow 2.0 and 2.1 install the package as tensorflow_core (see WheelTree).
        self.core = (site / "tensorflow_core" / "__init__.py").is_file()

    def _dir(self, dotted: str) -> Path:
        if self.core and (dotted == "tensorflow" or dotted.startswith("tensorflow.")):
            dotted = "tensorflow_core" + dotted[len("tensorflow") :]
        return self.site.joinpath(*dotted.split("."))

    def is_package(self, dotted: str) -> bool:
        """Whether ``dotted`` is a package under the site."""
        return (self._dir(dotted) / "__init__.py").is_file()

    def init_text(self, dotted: str) -> str:
        """The text of package ``dotted``'s ``__init__.py``."""
        return (self._dir(dotted) / "__init__.py").read_text(encoding="utf-8")

    def version(self, dist: str) -> str:
        """The ``Version:`` of ``dist``'s installed METADATA."""
        # tensorflow-cpu installs as tensorflow_cpu-X.dist-info and provides the same package.
        for pattern in (f"{dist}-*.dist-info/METADATA", f"{dist}_cpu-*.dist-info/METADATA"):
            for meta in self.site.glob(pattern):
                for line in meta.read_text(encoding="utf-8").splitlines():
                    if line.startswith("Version:"):
                        return line.split(":", 1)[1].strip()
        raise SystemExit(f"gen_scan_api: {dist} is not installed in {self.site}")


def _body_nodes(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a module body, with those inside ``if``/``try``/``with`` blocks (where
    the generated files import lazily loaded or optional modules), not those of functions."""
    out: list[ast.stmt] = []
    for node in body:
        out.append(node)
        if isinstance(node, ast.If):
            out.extend(_body_nodes(node.body) + _body_nodes(node.orelse))
        elif isinstance(node, ast.Try):
            out.extend(_body_nodes(node.body) + _body_nodes(node.orelse))
            out.extend(_body_nodes(node.finalbody))
            for handler in node.handlers:
                out.extend(_body_nodes(handler.body))
        elif isinstance(node, ast.With):
            out.extend(_body_nodes(node.body))
    return out


def _string(node: ast.expr, env: dict[str, str]) -> Optional[str]:
    """The value of a string expression built from literals and earlier string variables."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return env.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _string(node.left, env), _string(node.right, env)
        return left + right if left is not None and right is not None else None
    return None


def _assigned(
    target: ast.expr,
    value: ast.expr,
    env: dict[str, str],
    held: dict[str, str],
    out: list[tuple[str, str]],
) -> None:
    """What one assignment of a generated ``__init__.py`` exports (into ``out``) or holds
    (``held``: modules, ``env``: strings)."""
    if isinstance(target, ast.Attribute) and ast.unparse(target.value) == "_current_module":
        # 2.15 on: `_current_module.layers = _KerasLazyLoader(...)`
        dotted = _loaded(value, env, held)
        if dotted is not None:
            out.append((target.attr, dotted))
        return
    if isinstance(target, ast.Attribute):
        into = ast.unparse(target.value).removeprefix("_current_module.")
        if into in held and isinstance(value, ast.Name) and value.id in held:
            # `app.flags = flags` (1.15 and 2.x's compat.v1: `_current_module.app.flags =
            # flags`) puts a module into an imported submodule (tf.app).
            out.append((f"{into}.{target.attr}", held[value.id]))
        return
    if not isinstance(target, ast.Name):
        return
    dotted = _loaded(value, env, held)
    if dotted is not None:
        held[target.id] = dotted
        if not target.id.startswith("_"):
            # 1.x: `contrib = LazyLoader('contrib', globals(), 'tensorflow.contrib')` sets the
            # public name itself (2.x sets a private one, then setattr).
            out.append((target.id, dotted))
        return
    string = _string(value, env)
    if string is not None:
        env[target.id] = string


def _members(text: str, package: str = "") -> list[tuple[str, str]]:
    """(public name, dotted source) for each name a generated ``__init__.py`` of ``package``
    exports: ``from X import Y as Z`` (relative ones too, as in TensorFlow 2.0 and 2.1), and
    ``setattr(_current_module, "NAME", _LazyLoader(..., "dotted"))`` (lazily loaded modules:
    ``tf.keras`` from Keras 2.6 on, ``tf.estimator``)."""
    tree = ast.parse(text)
    out: list[tuple[str, str]] = []
    env: dict[str, str] = {}
    #: Variable -> the dotted module it holds (imported, lazily loaded, or an attribute of one).
    held: dict[str, str] = {}
    for node in _body_nodes(tree.body):
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue  # 1.x's generated files import print_function unaliased: no API
        if isinstance(node, ast.ImportFrom) and (node.module or node.level):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            for alias in node.names:
                name = alias.asname or alias.name
                if name != "*":
                    out.append((name, f"{base}.{alias.name}"))
                    held[name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            _assigned(node.targets[0], node.value, env, held, out)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            call = node.value
            hooked = next((k.value for k in call.keywords if k.arg == "child_package_str"), None)
            if hooked is not None and ast.unparse(call.func).endswith("package_hook"):
                # 1.13: component_api_helper.package_hook(parent_package_str=__name__,
                # child_package_str="tensorflow_estimator....estimator") sets tf.estimator.
                child = _string(hooked, env)
                if child is not None:
                    out.append((child.rsplit(".", 1)[-1], child))
                continue
            if (
                ast.unparse(call.func) == "setattr"
                and len(call.args) == 3
                and ast.unparse(call.args[0]) == "_current_module"
                and isinstance(call.args[1], ast.Constant)
            ):
                value = call.args[2]
                dotted = held.get(value.id) if isinstance(value, ast.Name) else None
                dotted = dotted or _loaded(value, env, held)
                if dotted is not None:
                    out.append((str(call.args[1].value), dotted))
    # `del LazyLoader` (1.x) takes back what the module imported for its own use.
    deleted = {
        target.id
        for node in _body_nodes(tree.body)
        if isinstance(node, ast.Delete)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    return list(dict.fromkeys(x for x in out if x[0] not in deleted))  # once each


def _loaded(value: ast.expr, env: dict[str, str], held: dict[str, str]) -> Optional[str]:
    """The module an expression loads: ``_LazyLoader(name, globals(), "dotted")``,
    ``_KerasLazyLoader(globals(), submodule=..., mode=...)``, or ``keras.losses`` where
    ``keras`` holds a module (2.0 to 2.5: ``losses = keras.losses``)."""
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name):
        base = held.get(value.value.id)
        return f"{base}.{value.attr}" if base else None
    if not isinstance(value, ast.Call):
        return None
    func = ast.unparse(value.func)
    if "KerasLazyLoader" in func:
        words = {k.arg: _string(k.value, env) for k in value.keywords if k.arg}
        submodule = words.get("submodule") or ""
        return f"{KERAS_LAZY}{words.get('mode') or 'v2'}:{submodule}"
    if "LazyLoader" in func and len(value.args) >= 3:  # 1.13 to 1.15 add a warning
        return _string(value.args[2], env)
    return None


def keras_tree(site: Tree, source: str) -> str:
    """The dotted module a ``_KerasLazyLoader`` serves from the Keras in ``site``."""
    mode, _, submodule = source[len(KERAS_LAZY) :].partition(":")
    keras3, keras2 = KERAS_TREES[mode]
    # Keras 3 installed: it serves tf.keras and tf.compat.v1.keras alike, and refuses every
    # name of the legacy submodules (tf.compat.v1.layers, tf.compat.v1.nn.rnn_cell:
    # KerasLazyLoader.__getattr__ raises AttributeError for them).
    keras3_installed = site.is_package(KERAS_TREES["v2"][0])
    if keras3_installed and submodule.startswith(KERAS3_REFUSED):
        return ""
    tree = keras3 if keras3_installed else keras2
    return f"{tree}.{submodule}" if submodule else tree


#: Public name -> the dotted object it is imported from (filled by :func:`walk`).
ORIGINS: dict[str, str] = {}


def walk(
    site: Tree,
    public: str,
    dotted: str,
    table: dict[str, list[str]],
    opaque: tuple[str, ...] = OPAQUE,
) -> None:
    """Record module ``public`` (the package ``dotted``) and, depth first, its submodules."""
    if public in table:
        return
    if public in opaque or not site.is_package(dotted):
        table[public] = ["*"]
        return
    members: list[str] = []
    table[public] = members
    subs: list[tuple[str, str]] = []
    # A name set twice (imported, then set lazily): the later one is what the module holds,
    # unless the Keras installed serves nothing there.
    sources: dict[str, str] = {}
    for name, written in _members(site.init_text(dotted), dotted):
        source = keras_tree(site, written) if written.startswith(KERAS_LAZY) else written
        if source:
            sources[name] = source
    placed: list[tuple[str, str]] = []
    for name, source in sources.items():
        if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
            continue  # private names are no API, dunder ones (__version__) are
        if "." in name:
            placed.append((name, source))  # a member set into a submodule: once it is walked
            continue
        if site.is_package(source):
            members.append(name + "/")
            subs.append((f"{public}.{name}", source))
        else:
            members.append(name)
            ORIGINS[f"{public}.{name}"] = source
    # A name both imported and lazily loaded: the module wins over the plain name.
    members[:] = sorted(m for m in set(members) if m + "/" not in members)
    for sub_public, sub_dotted in subs:
        walk(site, sub_public, sub_dotted, table, opaque)
    for name, source in placed:
        module, _, attr = f"{public}.{name}".rpartition(".")
        into = table.get(module)
        if into is not None and into != ["*"]:
            into[:] = sorted({*into, attr + "/" if site.is_package(source) else attr})


def _renames() -> list[str]:
    """``=tf.compat.v1.X<TAB>tf.Y`` where tf.X is gone and tf.Y is the same object."""
    v2: dict[str, list[str]] = {}
    for name, source in ORIGINS.items():
        if name.startswith("tf.") and not name.startswith(("tf.compat.", "tf.__")):
            v2.setdefault(source, []).append(name)
    rows = []
    prefix = "tf.compat.v1."
    for name, source in sorted(ORIGINS.items()):
        if not name.startswith(prefix) or "tf." + name[len(prefix) :] in ORIGINS:
            continue
        targets = sorted(v2.get(source, ()), key=lambda n: (n.count("."), len(n), n))
        if targets:
            rows.append(f"={name}\t{targets[0]}")
    return rows


def render(site: Tree) -> tuple[str, str, list[str]]:
    """(TensorFlow version, Keras version, the line's header text, its rows) for ``site``."""
    tf_version = site.version("tensorflow")
    keras_version = site.version("keras")
    ORIGINS.clear()
    table: dict[str, list[str]] = {}
    # The top of the namespace is tensorflow/__init__.py (tensorflow_core's in 2.0 and 2.1);
    # its submodules live in _api/v2, tf.keras in Keras' own tree from 2.6 on.
    tf1 = version_key(tf_version) < (2, 0)
    walk(site, "tf", "tensorflow", table, OPAQUE + TF1_OPAQUE if tf1 else OPAQUE)
    # The standalone `keras` package is listed where its files are generated API: Keras 3,
    # and Keras 2 from 2.13 (the implementation moved to keras/src); before, Keras 2's
    # `keras/__init__.py` is the implementation itself.
    if site.is_package("keras.src"):
        walk(site, "keras", "keras", table)
    body = [f"{module}\t{' '.join(names)}" for module, names in sorted(table.items())]
    body = [row for row in body if not row.startswith("keras._tf_keras")]
    body.extend(_renames())
    return tf_version, keras_version, body


# === remote wheels ==========================================================================

#: The dists tried for a version's TensorFlow wheel, in order: tensorflow-cpu's Linux wheel is
#: the same Python API as tensorflow's without the CUDA libraries' size.
TF_DISTS = ("tensorflow-cpu", "tensorflow")
WHEEL_PLATFORM = "linux-x86_64"
#: Local headers of members this close together are fetched in one range request.
PREFETCH_GAP = 1024 * 1024
#: Room for a member's local header (30 bytes, its name, an extra field) past its offset.
HEADER_SLACK = 1024
#: The first line whose tf.keras is Keras 3.
KERAS3_LINE = (2, 16)
_KERAS_REQ_RE = re.compile(r"^Requires-Dist:\s*keras\b(?!-)", re.IGNORECASE)


def _refresh_matrix() -> Any:
    """scripts/refresh_matrix.py, whose PyPI client and zip-over-HTTP reader are reused."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import refresh_matrix  # noqa: PLC0415  (scripts/ is no package; only this mode needs it)

    return refresh_matrix


class WheelTree:
    """The packages of remote wheels, read member by member over HTTP range requests."""

    def __init__(self, archives: dict[str, tuple[zipfile.ZipFile, str]]) -> None:
        #: dist -> (its wheel, opened over HTTP, and its version).
        self.archives = archives
        self._texts: dict[str, str] = {}
        self._where: dict[str, zipfile.ZipFile] = {}
        #: A member's path in the installed tree -> its name in the wheel (1.x wheels put the
        #: package under ``tensorflow-X.data/purelib/``, which pip installs into site-packages).
        self._member: dict[str, str] = {}
        for archive, _version in archives.values():
            for name in archive.namelist():
                if name.endswith("/__init__.py"):
                    path = _DATA_DIR_RE.sub("", name)
                    self._where.setdefault(path, archive)
                    self._member.setdefault(path, name)
        # TensorFlow 2.0 and 2.1 ship the package as tensorflow_core, which `tensorflow`
        # forwards to; their generated files name it either way.
        self.core = "tensorflow_core/__init__.py" in self._where

    def _path(self, dotted: str) -> str:
        if self.core and (dotted == "tensorflow" or dotted.startswith("tensorflow.")):
            dotted = "tensorflow_core" + dotted[len("tensorflow") :]
        return dotted.replace(".", "/") + "/__init__.py"

    def is_package(self, dotted: str) -> bool:
        """Whether a wheel holds ``dotted``/__init__.py."""
        return self._path(dotted) in self._where

    def init_text(self, dotted: str) -> str:
        """The text of ``dotted``/__init__.py (prefetched, else fetched now)."""
        path = self._path(dotted)
        if path not in self._texts:
            self._texts[path] = self._where[path].read(self._member[path]).decode("utf-8")
        return self._texts[path]

    def version(self, dist: str) -> str:
        """The version of the wheel read for ``dist`` ("" for no Keras wheel: up to 2.5
        tf.keras is TensorFlow's own)."""
        return self.archives[dist][1] if dist in self.archives else ""

    def prefetch(self, archive: zipfile.ZipFile, wanted: list[zipfile.ZipInfo]) -> None:
        """Read ``wanted`` members with one range request per cluster of nearby members.

        zipfile reads a member as header then data; left alone, each ``__init__.py`` would
        cost a request. Reading a cluster's whole span first puts it in the range reader's
        cache, from which the members are then read.
        """
        raw = archive.fp
        assert raw is not None
        infos = sorted(wanted, key=lambda i: i.header_offset)
        start = 0
        for i, info in enumerate(infos):
            last = i + 1 == len(infos)
            if last or infos[i + 1].header_offset - info.header_offset > PREFETCH_GAP:
                lo = infos[start].header_offset
                hi = info.header_offset + HEADER_SLACK + info.compress_size
                raw.seek(lo)
                raw.read(hi - lo)
                start = i + 1
        for info in infos:
            self._texts[_DATA_DIR_RE.sub("", info.filename)] = archive.read(info).decode("utf-8")


def _api_members(archive: zipfile.ZipFile, dist: str) -> list[zipfile.ZipInfo]:
    """The generated API files of a wheel: what :func:`walk` reads."""
    if dist == "keras":
        # keras/src holds the implementation; the API files are every other __init__.py.
        return [
            i
            for i in archive.infolist()
            if i.filename.startswith("keras/")
            and i.filename.endswith("/__init__.py")
            and not i.filename.startswith("keras/src/")
        ]
    # tensorflow_core/ in 1.15 to 2.1; tf.keras's own tree (python/keras/api) up to 2.5; the
    # 1.x wheels' _api/v1 tree (from 1.13), under their .data/purelib/ directory. Before 1.13
    # the generated modules sit at the package's top (tensorflow/app/): read as walked.
    tree = "/_api/v1/" if dist == "tensorflow1" else "/_api/v2/"
    out = []
    for info in archive.infolist():
        path = _DATA_DIR_RE.sub("", info.filename)
        if path in ("tensorflow/__init__.py", "tensorflow_core/__init__.py") or (
            path.startswith(("tensorflow/", "tensorflow_core/"))
            and (tree in path or "/keras/api/" in path)
            and path.endswith("/__init__.py")
        ):
            out.append(info)
    return out


#: The ``.data/purelib/`` (or ``platlib``) directory of a wheel's member path.
_DATA_DIR_RE = re.compile(r"^[^/]+\.data/(?:purelib|platlib)/")


def _metadata(archive: zipfile.ZipFile) -> str:
    """The dist-info METADATA of a wheel."""
    for name in archive.namelist():
        if name.endswith(".dist-info/METADATA") and name.count("/") == 1:
            return archive.read(name).decode("utf-8")
    raise SystemExit("gen_scan_api: the wheel has no dist-info/METADATA")


def _tf_wheel_url(rm: Any, pypi: Any, version: str) -> str:
    """The URL of TensorFlow ``version``'s Linux x86-64 wheel for Python 3.11 (or newest)."""
    from packaging.version import Version  # noqa: PLC0415  (a dependency of this mode only)

    for dist in TF_DISTS:
        wheel = rm.pick_wheel(rm.wheels_of(pypi.index(dist), Version(version)), WHEEL_PLATFORM)
        # A wheel under refresh_matrix's THIN_WHEEL_BYTES is a wrapper that holds no package.
        if wheel and (wheel.file.size or rm.THIN_WHEEL_BYTES + 1) > rm.THIN_WHEEL_BYTES:
            return str(wheel.file.url)
    raise SystemExit(f"gen_scan_api: no {WHEEL_PLATFORM} wheel of TensorFlow {version} on PyPI")


def _keras_wheel(rm: Any, pypi: Any, tf_metadata: str, line: str) -> Optional[tuple[str, str]]:
    """(URL, version) of the Keras wheel pip installs with TensorFlow ``line`` on Python 3.11;
    None where TensorFlow requires no Keras (up to 2.5, tf.keras is its own)."""
    from packaging.requirements import Requirement  # noqa: PLC0415
    from packaging.specifiers import SpecifierSet  # noqa: PLC0415

    specifier = SpecifierSet()
    if not any(_KERAS_REQ_RE.match(row) for row in tf_metadata.splitlines()):
        return None
    if version_key(line) < KERAS3_LINE:
        # Keras 2.6 to 2.15 shipped one line per TensorFlow line (2.6.0's own requirement,
        # keras~=2.6, would admit them all).
        specifier &= SpecifierSet(f"=={line}.*")
    for row in tf_metadata.splitlines():
        if _KERAS_REQ_RE.match(row):
            requirement = Requirement(row.split(":", 1)[1].strip())
            if requirement.marker is None or requirement.marker.evaluate(
                {"python_version": rm.PREFERRED_PYTHON, **rm.PLATFORM_ENVS[WHEEL_PLATFORM]}
            ):
                specifier &= requirement.specifier
    best = None
    for file in pypi.index("keras"):
        wheel = rm.parse_wheel(file)
        if wheel is None or file.yanked or not file.filename.endswith("-none-any.whl"):
            continue
        version = wheel.version
        if version.is_prerelease or version.is_devrelease or version not in specifier:
            continue
        if file.requires_python and rm.PREFERRED_PYTHON + ".0" not in SpecifierSet(
            file.requires_python
        ):
            continue
        if best is None or version > best[1]:
            best = (file.url, version)
    if best is None:
        raise SystemExit(f"gen_scan_api: no Keras wheel satisfies keras{specifier}")
    return str(best[0]), str(best[1])


def wheel_tree(version: Optional[str], wheel_url: Optional[str]) -> WheelTree:
    """A :class:`WheelTree` over the TensorFlow wheel (by version or URL) and its Keras."""
    rm = _refresh_matrix()
    pypi = rm.PyPI(log=lambda msg: print(f"gen_scan_api: {msg}", file=sys.stderr))
    try:
        url = wheel_url or _tf_wheel_url(rm, pypi, version or "")
        pypi.log(f"wheel {url.rsplit('/', 1)[-1]}")
        tf_zip = zipfile.ZipFile(rm.HttpRangeFile(url))
        tf_metadata = _metadata(tf_zip)
        tf_version = re.search(r"^Version:\s*(\S+)", tf_metadata, re.MULTILINE)
        if tf_version is None:
            raise SystemExit(f"gen_scan_api: {url}: METADATA has no Version")
        line = ".".join(tf_version.group(1).split(".")[:2])
        archives = {"tensorflow": (tf_zip, tf_version.group(1))}
        keras = _keras_wheel(rm, pypi, tf_metadata, line)
        if keras is not None:
            pypi.log(f"wheel {keras[0].rsplit('/', 1)[-1]}")
            archives["keras"] = (zipfile.ZipFile(rm.HttpRangeFile(keras[0])), keras[1])
        tree = WheelTree(archives)
        for dist, (archive, _version) in archives.items():
            kind = "tensorflow1" if dist == "tensorflow" and version_key(line) < (2, 0) else dist
            tree.prefetch(archive, _api_members(archive, kind))
    except (rm.FetchError, zipfile.BadZipFile, OSError) as error:
        raise SystemExit(f"gen_scan_api: {error}") from error
    return tree


# === the Keras distributions on their own ====================================================

#: Each Keras distribution listed on its own, and its first minor listed: keras 2.6 is the first
#: released apart from TensorFlow, tf-keras 2.14 the first of tf-keras.
KERAS_FIRST = {"keras": (2, 6), "tf-keras": (2, 14)}


def _implementation_packages(site: Tree, names: Sequence[str]) -> list[str]:
    """The top-level packages of Keras 2.6 to 2.12's implementation (``keras.engine``): they
    import, but are no API the listing can judge."""
    return sorted(n for n in names if n != "api" and site.is_package(f"keras.{n}"))


def keras_rows(site: Tree, dist: str, packages: Sequence[str] = ()) -> list[str]:
    """The rows of one Keras distribution's public API in ``site`` (``packages``: the top-level
    packages of its ``keras/`` directory, for Keras 2.6 to 2.12)."""
    ORIGINS.clear()
    table: dict[str, list[str]] = {}
    if dist == "tf-keras":
        walk(site, "tf_keras", "tf_keras", table)
        # What TensorFlow serves as tf.compat.v1.keras when TF_USE_LEGACY_KERAS is set.
        walk(site, "tf.compat.v1.keras", "tf_keras.api._v1.keras", table)
    elif site.is_package("keras.src"):
        # Keras 3.3's keras/__init__.py star-imports its API from keras/api.
        star = "from keras.api import *" in site.init_text("keras")
        walk(site, "keras", "keras.api" if star else "keras", table)
    else:
        walk(site, "keras", "keras.api._v2.keras", table)
        members = table["keras"]
        for name in _implementation_packages(site, packages):
            if name + "/" not in members and name not in members:
                members.append(name + "/")
                table[f"keras.{name}"] = ["*"]
        members.sort()
    return [f"{module}\t{' '.join(names)}" for module, names in sorted(table.items())]


def _keras_members(archive: zipfile.ZipFile, package: str) -> list[zipfile.ZipInfo]:
    """The generated API files of a Keras wheel: every ``__init__.py`` outside ``src/``."""
    return [
        i
        for i in archive.infolist()
        if i.filename.startswith(package + "/")
        and i.filename.endswith("/__init__.py")
        and not i.filename.startswith(package + "/src/")
    ]


def keras_listings(dist: str) -> list[Any]:
    """The :class:`tfdoctor.scan.api.Listing` of the newest release of every minor of ``dist``
    from :data:`KERAS_FIRST` on, read from its wheels on PyPI."""
    _package_path()
    from tfdoctor.scan.api import Listing  # noqa: PLC0415

    rm = _refresh_matrix()
    pypi = rm.PyPI(log=lambda msg: print(f"gen_scan_api: {msg}", file=sys.stderr))
    package = dist.replace("-", "_")
    out = []
    try:
        files = pypi.index(dist)
        for minor, version in sorted(rm.latest_finals(files).items()):
            if version_key(minor) < KERAS_FIRST[dist]:
                continue
            wheel = next(
                f
                for f in files
                if f.filename.endswith("-none-any.whl") and rm.file_version(f) == version
            )
            pypi.log(f"wheel {wheel.filename}")
            archive = zipfile.ZipFile(rm.HttpRangeFile(wheel.url))
            tree = WheelTree({package: (archive, str(version))})
            tree.prefetch(archive, _keras_members(archive, package))
            top = sorted(
                {n.split("/")[1] for n in archive.namelist() if n.count("/") >= 2}
                if package == "keras"
                else set()
            )
            rows = keras_rows(tree, dist, top)
            out.append(Listing(minor, "", str(version), tuple(rows)))
    except (rm.FetchError, zipfile.BadZipFile, OSError) as error:
        raise SystemExit(f"gen_scan_api: {error}") from error
    return out


KERAS_HEAD = (
    "The public API of each minor release of one Keras distribution (its newest patch), read",
    "from its wheels' generated API files. Generated by scripts/gen_scan_api.py --keras; do",
    "not edit. `@ LINE` opens a release: the newest in full, each older one as the rows that",
    "differ from the release above it (+KEY: the row is, -KEY: the row is not, ~KEY: members",
    "in and out).",
)


def _write_store(name: str, text: str, check: bool, script: str = Path(__file__).name) -> int:
    """Write (or with ``check``, compare) one store; 1 when ``check`` finds it stale (the
    message names ``script``, the generator to run)."""
    path = OUT_DIR / name
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    if current == text:
        return 0
    if check:
        print(f"{path.relative_to(ROOT)} is stale: run {script}", file=sys.stderr)
        return 1
    path.write_text(text, encoding="utf-8")
    return 0


TF1_HEAD = (
    "The public API of each TensorFlow 1.x line from 1.9 (tf and its tf.keras; tf.contrib and",
    "tf.compat.v1, which repeats tf, are not listed), read from the Linux wheels' generated",
    "API files. Generated by scripts/gen_scan_api.py --tf1; do not edit. `@ LINE` opens a",
    "line: the newest in full, each older one as the rows that differ from the line above it",
    "(+KEY: the row is, -KEY: the row is not, ~KEY: members in and out).",
)

HEAD = (
    "The public API of each TensorFlow line (tf, its tf.compat.v1 and tf.keras) and, from 2.16,",
    "of the Keras 3 it installs (keras), read from the Linux wheels' generated API files.",
    "Generated by scripts/gen_scan_api.py; do not edit.",
    "`@ LINE` opens a line: the newest in full, each older one as the rows that differ from",
    "the line above it (+KEY: the row is, -KEY: the row is not, ~KEY: members in and out).",
)


def _package_path() -> None:
    """Put the repository first on sys.path: the store's format lives in tfdoctor.scan.api."""
    sys.path.insert(0, str(ROOT))


def newest_patches() -> list[str]:
    """The newest patch of every released TensorFlow 2 line the bundled matrix knows."""
    _package_path()
    from tfdoctor.matrix import load_matrix  # noqa: PLC0415  (scripts/ is no package)

    # A line with no final release yet is left out: scan's default target is the newest line
    # listed, and that is a released one.
    return [
        row.latest_patch
        for row in load_matrix().lines
        if version_key(row.line) >= (2, 0) and not row.pre_release
    ]


#: The first 1.x line whose wheel generates its API as files: 1.8 and older build ``tf`` by
#: ``from tensorflow.python import *``, which names nothing a reader of text can list.
TF1_FIRST = (1, 9)


def tf1_patches() -> list[str]:
    """The newest final patch of every TensorFlow 1.x line from :data:`TF1_FIRST`, on PyPI."""
    rm = _refresh_matrix()
    pypi = rm.PyPI(log=lambda msg: print(f"gen_scan_api: {msg}", file=sys.stderr))
    newest: dict[tuple[int, int], Any] = {}
    for version in rm.final_versions(pypi.index("tensorflow")):
        line = (version.major, version.minor)
        if (
            version.major == 1
            and line >= TF1_FIRST
            and (line not in newest or version > newest[line])
        ):
            newest[line] = version
    return [str(v) for _line, v in sorted(newest.items())]


def listing(site: Tree) -> Any:
    """The :class:`tfdoctor.scan.api.Listing` of the TensorFlow and Keras in ``site``."""
    _package_path()
    from tfdoctor.scan.api import Listing  # noqa: PLC0415

    tf_version, keras_version, rows = render(site)
    line = ".".join(tf_version.split(".")[:2])
    return Listing(line, tf_version, keras_version, tuple(rows))


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) the lines' listings in ``tfdoctor/scan/api_lines.txt``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--site-packages", help="where TensorFlow and Keras are installed")
    parser.add_argument("--version", help="read TensorFlow X.Y.Z's wheel on PyPI instead")
    parser.add_argument("--wheel-url", help="read this TensorFlow wheel (a URL) instead")
    parser.add_argument(
        "--all", action="store_true", help="read the newest patch of every line on PyPI"
    )
    parser.add_argument(
        "--keras", action="store_true", help="read every keras and tf-keras release on PyPI"
    )
    parser.add_argument(
        "--tf1", action="store_true", help="read the newest patch of every 1.x line from 1.9"
    )
    parser.add_argument("--check", action="store_true", help="only report a stale file")
    args = parser.parse_args(argv)
    _package_path()
    from tfdoctor.scan import api  # noqa: PLC0415

    if args.tf1:
        listings = [listing(wheel_tree(version, None)) for version in tf1_patches()]
        return _write_store(api.TF1_STORE, api.pack(listings, TF1_HEAD), args.check)
    if args.keras:
        stale = 0
        for dist, store in api.KERAS_STORES.items():
            stale |= _write_store(store, api.pack(keras_listings(dist), KERAS_HEAD), args.check)
        return stale

    path = OUT_DIR / api.STORE
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    lines = {x.line: x for x in api.unpack(current)}
    if args.all:
        for version in newest_patches():
            new = listing(wheel_tree(version, None))
            lines[new.line] = new
    elif args.version or args.wheel_url:
        new = listing(wheel_tree(args.version, args.wheel_url))
        lines[new.line] = new
    else:
        new = listing(SiteTree(Path(args.site_packages or sysconfig.get_paths()["purelib"])))
        lines[new.line] = new
    return _write_store(api.STORE, api.pack(list(lines.values()), HEAD), args.check)


def version_key(version: str) -> tuple[int, ...]:
    """``2.15`` -> (2, 15)."""
    return tuple(int(part) for part in version.split(".") if part.isdigit())


if __name__ == "__main__":
    sys.exit(main())
