"""List the names multi-backend Keras (2.0.0 to 2.3.1) removed from its modules, into tfdoctor's
data.

Usage: python scripts/gen_keras_multibackend_removed.py KERAS_GIT_DIR [--check]

Libraries and example code of 2017 to 2019 import helpers from multi-backend Keras' own
modules (``keras.utils.conv_utils.normalize_data_format``, ``keras.engine.topology``), which
moved between its releases. This script reads each release tag of keras-team/keras from 2.0.0
to 2.3.1 (KERAS_GIT_DIR a clone or mirror, read offline with ``git show``), parses every module
of ``keras/`` (not a test) with :mod:`ast`, and takes the names a module binds at its top level:
its functions, classes, assignments and imports (a ``from .x import *`` of Keras' own module
brings that module's public names). A function or class a module defines in one release that
the next release's module (still there) binds by no means, nor any later release up to 2.3.1,
is written as

    MODULE<TAB>NAME<TAB>LAST<TAB>REMOVED_IN<TAB>DEFINED_IN

(DEFINED_IN: the modules of REMOVED_IN that define the name with a ``def`` or ``class``,
comma-separated, empty for none) into ``tfdoctor/scan/keras_multibackend_removed.txt``, with
the tags and their commits in its head. Names that start with an underscore are left out.

``--check`` writes nothing and exits 1 when the data file differs from what it would write.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The tree's reader of gen_keras2_module_releases.py (scripts/ is no package).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_keras2_module_releases import git, module_of  # noqa: E402

OUT = ROOT / "tfdoctor" / "scan" / "keras_multibackend_removed.txt"
#: The releases of multi-backend Keras 2 (2.4.0 on is a front for tf.keras).
TAGS = [
    "2.0.0",
    "2.0.1",
    "2.0.2",
    "2.0.3",
    "2.0.4",
    "2.0.5",
    "2.0.6",
    "2.0.7",
    "2.0.8",
    "2.0.9",
    "2.1.0",
    "2.1.1",
    "2.1.2",
    "2.1.3",
    "2.1.4",
    "2.1.5",
    "2.1.6",
    "2.2.0",
    "2.2.1",
    "2.2.2",
    "2.2.3",
    "2.2.4",
    "2.2.5",
    "2.3.0",
    "2.3.1",
]


def _resolve(module: str, level: int, target: str, package: bool) -> str:
    """The absolute module a ``from`` import names (``from ..utils import x`` in
    ``keras.layers.core``)."""
    if level == 0:
        return target
    base = module.split(".")
    base = base if package else base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


class Module:
    """One module's top-level bindings at one release."""

    def __init__(self, name: str, tree: ast.Module, package: bool) -> None:
        self.name = name
        self.defined: set[str] = set()
        self.bound: set[str] = set()
        self.stars: list[str] = []
        for node in tree.body:
            self._read(node, package)

    def _read(self, node: ast.stmt, package: bool) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.defined.add(node.name)
            self.bound.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                self.bound.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Import):
            self.bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(self.name, node.level, node.module or "", package)
            for alias in node.names:
                if alias.name == "*":
                    self.stars.append(source)
                else:
                    self.bound.add(alias.asname or alias.name)
        elif isinstance(node, (ast.If, ast.Try)):
            # Guarded imports and definitions (a backend chosen at import, a Python 2 fallback).
            for inner in [*node.body, *node.orelse, *getattr(node, "finalbody", [])]:
                self._read(inner, package)
            for handler in getattr(node, "handlers", []):
                for inner in handler.body:
                    self._read(inner, package)


def release(git_dir: Path, tag: str) -> dict[str, Module]:
    """Every module of ``keras/`` at ``tag``, parsed."""
    out: dict[str, Module] = {}
    for path in git(git_dir, "ls-tree", "-r", "--name-only", tag, "keras/").split():
        name = module_of(path)
        if not name:
            continue
        try:
            tree = ast.parse(git(git_dir, "show", f"{tag}:{path}"))
        except SyntaxError:
            continue
        out[name] = Module(name, tree, path.endswith("__init__.py"))
    return out


def names(modules: dict[str, Module]) -> dict[str, set[str]]:
    """Each module's public names, a star import of Keras' own module bringing its own."""
    memo: dict[str, set[str]] = {}

    def of(name: str, seen: frozenset[str]) -> set[str]:
        if name in memo:
            return memo[name]
        module = modules.get(name)
        if module is None or name in seen:
            return set()
        found = {n for n in module.bound if not n.startswith("_")}
        for star in module.stars:
            found |= of(star, seen | {name})
        memo[name] = found
        return found

    return {name: of(name, frozenset()) for name in modules}


def rows(git_dir: Path) -> tuple[list[str], list[str]]:
    """The head lines (tags and commits) and the table's rows."""
    head = [
        f"#   keras-team/keras {tag} {git(git_dir, 'rev-list', '-n1', tag).strip()}" for tag in TAGS
    ]
    releases = [release(git_dir, tag) for tag in TAGS]
    public = [names(r) for r in releases]
    out: list[str] = []
    for i in range(1, len(TAGS)):
        before, now = public[i - 1], public[i]
        for module in sorted(before):
            if module not in now:
                continue  # the module itself went: "No module named", another reading
            # A function or class the module defined: what code imports of it (what it
            # imported, the standard library or Keras' own layers, is not its own API).
            own = {n for n in releases[i - 1][module].defined if not n.startswith("_")}
            for name in sorted(own - now[module]):
                if any(name in later.get(module, ()) for later in public[i + 1 :]):
                    continue  # a later release has it there again
                defined = sorted(m for m, mod in releases[i].items() if name in mod.defined)
                out.append(f"{module}\t{name}\t{TAGS[i - 1]}\t{TAGS[i]}\t{','.join(defined)}")
    return head, out


def render(head: Sequence[str], body: Sequence[str]) -> str:
    """The data file's text."""
    lines = [
        "# Names multi-backend Keras (2.0.0 to 2.3.1) removed from its modules: MODULE, NAME,",
        "# the last release whose module has it, the release that removed it, and the modules of",
        "# that release that define it. Generated by scripts/gen_keras_multibackend_removed.py;",
        "# do not edit. Read from:",
        *head,
        *body,
    ]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or with --check compare) the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir", type=Path)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = render(*rows(args.git_dir))
    if args.check:
        same = OUT.is_file() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} differs")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
