"""List the public API of the installed TensorFlow and Keras into tfdoctor's scan data.

Usage: python scripts/gen_scan_api.py [--site-packages DIR] [--check]

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

``--check`` writes nothing and exits 1 when the data file differs from what it would write.
"""

from __future__ import annotations

import argparse
import ast
import sys
import sysconfig
from pathlib import Path

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


def _package_dir(site: Path, dotted: str) -> Path | None:
    """The directory of package ``dotted`` under ``site``, if it is a package there."""
    path = site.joinpath(*dotted.split("."))
    return path if (path / "__init__.py").is_file() else None


def _members(init: Path) -> list[tuple[str, str]]:
    """(public name, dotted source) for each ``from X import Y as Z`` of a generated file."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
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


def walk(site: Path, public: str, dotted: str, table: dict[str, list[str]]) -> None:
    """Record module ``public`` (the package ``dotted``) and, depth first, its submodules."""
    if public in table:
        return
    if public in OPAQUE:
        table[public] = ["*"]
        return
    directory = _package_dir(site, dotted)
    if directory is None:
        table[public] = ["*"]
        return
    members: list[str] = []
    table[public] = members
    subs: list[tuple[str, str]] = []
    for name, source in _members(directory / "__init__.py"):
        if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
            continue  # private names are no API, dunder ones (__version__) are
        if _package_dir(site, source) is not None:
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


def _version(site: Path, dist: str) -> str:
    for meta in site.glob(f"{dist}-*.dist-info/METADATA"):
        for line in meta.read_text(encoding="utf-8").splitlines():
            if line.startswith("Version:"):
                return line.split(":", 1)[1].strip()
    raise SystemExit(f"gen_scan_api: {dist} is not installed in {site}")


def render(site: Path) -> tuple[str, str]:
    """(the TensorFlow line, the data file's text) for the TensorFlow and Keras in ``site``."""
    tf_version = _version(site, "tensorflow")
    keras_version = _version(site, "keras")
    table: dict[str, list[str]] = {}
    # The top of the namespace is tensorflow/__init__.py; its submodules live in _api/v2.
    top = [(n, s) for n, s in _members(site / "tensorflow" / "__init__.py")]
    members = []
    subs = []
    for name, source in top:
        if name.startswith("_") and not name.endswith("__"):
            continue
        if _package_dir(site, source) is not None:
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


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) ``tfdoctor/scan/api_tf<line>.txt``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--site-packages", help="where TensorFlow and Keras are installed")
    parser.add_argument("--check", action="store_true", help="only report a stale file")
    args = parser.parse_args(argv)
    site = Path(args.site_packages or sysconfig.get_paths()["purelib"])
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
