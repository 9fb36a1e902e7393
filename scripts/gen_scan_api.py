"""List the public API of the installed TensorFlow and Keras into tfdoctor's scan data.

Usage: python scripts/gen_scan_api.py [--site-packages DIR] [--check]
       python scripts/gen_scan_api.py --version X.Y.Z [--wheel-url URL] [--check]

TensorFlow's wheels generate their public namespace as plain ``from X import Y as Z`` files
(``tensorflow/__init__.py`` and the ``tensorflow/_api/v2`` tree; Keras 3 likewise under
``keras/`` and, for ``tf.keras``, ``keras/_tf_keras/keras``). This script reads those files as
text with :mod:`ast`; it never imports TensorFlow. The result, one line per module, is what
``tfdoctor scan`` uses to say "this name does not exist in the target" as a fact:

    MODULE<TAB>member member/ ...     (a trailing ``/`` marks a submodule)
    MODULE<TAB>*                      (members not listed: not checked)
    =tf.compat.v1.NAME<TAB>tf.V2NAME      (the TensorFlow 2 name of the same object)

The last kind is how ``tf_upgrade_v2`` renames: a TensorFlow 1 name absent from TensorFlow 2
whose object TensorFlow 2 exports under another name (``tf.random_normal`` -> ``tf.random.normal``).

``--version`` (or ``--wheel-url``) reads a release without installing it: the generated files
come out of the Linux x86-64 ``tensorflow-cpu`` wheel on PyPI (else ``tensorflow``'s) over HTTP
range requests, with the reader of ``scripts/refresh_matrix.py``, so only the zip's central
directory and the ``__init__.py`` files travel (about 1 MB of a 200 MB wheel). ``tf.keras`` and
``keras`` are read likewise from the Keras wheel that pip installs beside it on Python 3.11: the
newest release that the TensorFlow wheel's ``Requires-Dist: keras`` admits.

``--check`` writes nothing and exits 1 when the data file differs from what it would write.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import sysconfig
import zipfile
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
    "tf.compat.v1.keras",
)

#: tensorflow/__init__.py sets these with ``setattr`` (lazily loaded Keras modules):
#: ``tf.keras`` is Keras 3's ``keras._tf_keras.keras`` from 2.16 on, and ``tf.losses``,
#: ``tf.metrics``, ``tf.optimizers``, ``tf.initializers`` are its submodules.
LAZY = {
    "tf.keras": "keras._tf_keras.keras",
    "tf.losses": "keras._tf_keras.keras.losses",
    "tf.metrics": "keras._tf_keras.keras.metrics",
    "tf.optimizers": "keras._tf_keras.keras.optimizers",
    "tf.initializers": "keras._tf_keras.keras.initializers",
}


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

    def _dir(self, dotted: str) -> Path:
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


def _members(text: str) -> list[tuple[str, str]]:
    """(public name, dotted source) for each ``from X import Y as Z`` of a generated file."""
    tree = ast.parse(text)
    out: list[tuple[str, str]] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                name = alias.asname or alias.name
                if name != "*":
                    out.append((name, f"{node.module}.{alias.name}"))
    return out


#: Public name -> the dotted object it is imported from (filled by :func:`walk`).
ORIGINS: dict[str, str] = {}


def walk(site: Tree, public: str, dotted: str, table: dict[str, list[str]]) -> None:
    """Record module ``public`` (the package ``dotted``) and, depth first, its submodules."""
    if public in table:
        return
    if public in OPAQUE:
        table[public] = ["*"]
        return
    if not site.is_package(dotted):
        table[public] = ["*"]
        return
    members: list[str] = []
    table[public] = members
    subs: list[tuple[str, str]] = []
    for name, source in _members(site.init_text(dotted)):
        if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
            continue  # private names are no API, dunder ones (__version__) are
        if site.is_package(source):
            members.append(name + "/")
            subs.append((f"{public}.{name}", source))
        else:
            members.append(name)
            ORIGINS[f"{public}.{name}"] = source
    if public == "tf":
        members.extend(f"{lazy[3:]}/" for lazy in LAZY)
        subs.extend(LAZY.items())
    members[:] = sorted(set(members))
    for sub_public, sub_dotted in subs:
        walk(site, sub_public, sub_dotted, table)


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


def render(site: Tree) -> tuple[str, str]:
    """(the TensorFlow line, the data file's text) for the TensorFlow and Keras in ``site``."""
    tf_version = site.version("tensorflow")
    keras_version = site.version("keras")
    ORIGINS.clear()
    table: dict[str, list[str]] = {}
    # The top of the namespace is tensorflow/__init__.py; its submodules live in _api/v2.
    top = _members(site.init_text("tensorflow"))
    members = []
    subs = []
    for name, source in top:
        if name.startswith("_") and not name.endswith("__"):
            continue
        if site.is_package(source):
            members.append(name + "/")
            subs.append((f"tf.{name}", source))
        else:
            members.append(name)
            ORIGINS[f"tf.{name}"] = source
    members.extend(f"{lazy[3:]}/" for lazy in LAZY)
    subs.extend(LAZY.items())
    table["tf"] = sorted(set(members))
    for public, dotted in subs:
        walk(site, public, dotted, table)
    walk(site, "keras", "keras", table)
    line = ".".join(tf_version.split(".")[:2])
    head = [
        f"# The public API of TensorFlow {tf_version} (tf.keras: Keras {keras_version}) and of",
        f"# Keras {keras_version} (keras), read from their wheels' generated API files.",
        "# Generated by scripts/gen_scan_api.py; do not edit.",
        f"# tensorflow {tf_version}",
        f"# keras {keras_version}",
    ]
    body = [f"{module}\t{' '.join(names)}" for module, names in sorted(table.items())]
    body = [row for row in body if not row.startswith("keras._tf_keras")]
    body.extend(_renames())
    return line, "\n".join(head + body) + "\n"


# === remote wheels ==========================================================================

#: The dists tried for a version's TensorFlow wheel, in order: tensorflow-cpu's Linux wheel is
#: the same Python API as tensorflow's without the CUDA libraries' size.
TF_DISTS = ("tensorflow-cpu", "tensorflow")
WHEEL_PLATFORM = "linux-x86_64"
#: Local headers of members this close together are fetched in one range request.
PREFETCH_GAP = 1024 * 1024
#: Room for a member's local header (30 bytes, its name, an extra field) past its offset.
HEADER_SLACK = 1024
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
        for archive, _version in archives.values():
            for name in archive.namelist():
                if name.endswith("/__init__.py"):
                    self._where.setdefault(name, archive)

    @staticmethod
    def _path(dotted: str) -> str:
        return dotted.replace(".", "/") + "/__init__.py"

    def is_package(self, dotted: str) -> bool:
        """Whether a wheel holds ``dotted``/__init__.py."""
        return self._path(dotted) in self._where

    def init_text(self, dotted: str) -> str:
        """The text of ``dotted``/__init__.py (prefetched, else fetched now)."""
        path = self._path(dotted)
        if path not in self._texts:
            self._texts[path] = self._where[path].read(path).decode("utf-8")
        return self._texts[path]

    def version(self, dist: str) -> str:
        """The version of the wheel read for ``dist``."""
        return self.archives[dist][1]

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
            self._texts[info.filename] = archive.read(info).decode("utf-8")


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
    return [
        i
        for i in archive.infolist()
        if i.filename == "tensorflow/__init__.py"
        or (i.filename.startswith("tensorflow/_api/v2/") and i.filename.endswith("/__init__.py"))
    ]


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


def _keras_wheel(rm: Any, pypi: Any, tf_metadata: str) -> tuple[str, str]:
    """(URL, version) of the Keras wheel pip installs with that TensorFlow on Python 3.11."""
    from packaging.requirements import Requirement  # noqa: PLC0415
    from packaging.specifiers import SpecifierSet  # noqa: PLC0415

    specifier = SpecifierSet()
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
        if wheel is None or file.yanked or not file.filename.endswith("-py3-none-any.whl"):
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
        keras_url, keras_version = _keras_wheel(rm, pypi, tf_metadata)
        pypi.log(f"wheel {keras_url.rsplit('/', 1)[-1]}")
        keras_zip = zipfile.ZipFile(rm.HttpRangeFile(keras_url))
        tree = WheelTree(
            {"tensorflow": (tf_zip, tf_version.group(1)), "keras": (keras_zip, keras_version)}
        )
        tree.prefetch(tf_zip, _api_members(tf_zip, "tensorflow"))
        tree.prefetch(keras_zip, _api_members(keras_zip, "keras"))
    except (rm.FetchError, zipfile.BadZipFile, OSError) as error:
        raise SystemExit(f"gen_scan_api: {error}") from error
    return tree


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) ``tfdoctor/scan/api_tf<line>.txt``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--site-packages", help="where TensorFlow and Keras are installed")
    parser.add_argument("--version", help="read TensorFlow X.Y.Z's wheel on PyPI instead")
    parser.add_argument("--wheel-url", help="read this TensorFlow wheel (a URL) instead")
    parser.add_argument("--check", action="store_true", help="only report a stale file")
    args = parser.parse_args(argv)
    site: Tree
    if args.version or args.wheel_url:
        site = wheel_tree(args.version, args.wheel_url)
    else:
        site = SiteTree(Path(args.site_packages or sysconfig.get_paths()["purelib"]))
    line, text = render(site)
    path = OUT_DIR / f"api_tf{line}.txt"
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    if current == text:
        return 0
    if args.check:
        print(f"{path.relative_to(ROOT)} is stale: run {Path(__file__).name}", file=sys.stderr)
        return 1
    path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
