"""List the last Keras 2 release that has each of Keras 2's own modules, into tfdoctor's data.

Usage: python scripts/gen_keras2_module_releases.py KERAS_GIT_DIR [--check]

Keras 2.6 to 2.12 ship their sources as they lie in keras-team/keras's tree (``keras/``, the
pip package's runfiles: keras/tools/pip_package/build_pip_package.sh); 2.13 moved them under
``keras/src/`` and generates ``keras/`` from the ``keras_export`` paths alone (pip_build.py of
v2.13.1 to v2.15.0), so code importing ``keras.utils.layer_utils`` finds it only in a release
up to 2.12, and only in those whose tree still has that file. This script reads the tree of
each release tag (``git ls-tree``, KERAS_GIT_DIR a clone or mirror of keras-team/keras, read
offline), checks that pip_build.py of 2.13.1, 2.14.0 and 2.15.0 still copies keras/ under
keras/src/, and writes, for Keras 2's own modules (those ``keras2_modules.txt`` lists, read
from the wheels, and every module of the packages that export nothing: keras/engine/,
keras/legacy_tf_layers/ and the optimizer_v2 package, keras/optimizer_v2/ up to 2.8 and
keras/optimizers/optimizer_v2/ from 2.9 to 2.11), the last release whose tree has it:

    MODULE<TAB>RELEASE

into ``tfdoctor/scan/keras2_module_releases.txt``, with the tags and their commits in its head.

``--check`` writes nothing and exits 1 when the data file differs from what it would write.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tfdoctor" / "scan" / "keras2_module_releases.txt"
MODULES = ROOT / "tfdoctor" / "scan" / "keras2_modules.txt"
#: The final releases of the keras package before 2.13 moved its sources under keras/src/.
TAGS = ("v2.6.0", "v2.7.0", "v2.8.0", "v2.9.0", "v2.10.0", "v2.11.0", "v2.12.0")
#: The releases whose pip_build.py copies keras/ under keras/src/ and generates keras/ from
#: the keras_export paths alone: no module of the tables is at its place in their wheels.
MOVED = ("v2.13.1", "v2.14.0", "v2.15.0")
#: The packages of Keras 2's layout whose modules code imports though they export nothing
#: (the optimizer_v2 package at both its places: keras/optimizer_v2/ to 2.8, then
#: keras/optimizers/optimizer_v2/ to 2.11).
LAYOUT = (
    "keras/engine/",
    "keras/optimizer_v2/",
    "keras/optimizers/optimizer_v2/",
    "keras/legacy_tf_layers/",
)
#: pip_build.py's line that puts the sources under keras/src/ (keras-team/keras v2.13.1).
SRC_LINE = 'SRC_DIRNAME = "src"'


def module_of(path: str) -> str:
    """``keras/utils/layer_utils.py`` -> ``keras.utils.layer_utils`` (a package's
    ``__init__.py`` is the package); empty for a test or a file that is no module."""
    if not path.endswith(".py") or path.endswith("_test.py"):
        return ""
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def git(git_dir: Path, *args: str) -> str:
    """``git ARGS`` in ``git_dir`` (a clone's work tree or .git, or a bare mirror): its output."""
    return subprocess.run(
        ["git", "-C", str(git_dir), *args],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout


def tree(git_dir: Path, tag: str) -> set[str]:
    """The files of ``keras/`` at ``tag``."""
    return set(git(git_dir, "ls-tree", "-r", "--name-only", tag, "keras/").split())


def commit(git_dir: Path, tag: str) -> str:
    """The commit ``tag`` names."""
    return git(git_dir, "rev-list", "-n", "1", tag).strip()


def moves_to_src(git_dir: Path, tag: str) -> bool:
    """Whether pip_build.py at ``tag`` copies keras/ under keras/src/."""
    return SRC_LINE in git(git_dir, "show", f"{tag}:pip_build.py").splitlines()


def wanted(files: set[str], listed: set[str]) -> set[str]:
    """The modules of ``files`` to list: the wheels' own modules and the layout's."""
    out = set()
    for path in files:
        module = module_of(path)
        if module and (module in listed or path.startswith(LAYOUT)):
            out.add(module)
    return out


def render(git_dir: Path) -> str:
    """The data file's text."""
    listed = {
        row.split("\t", 1)[0]
        for row in MODULES.read_text(encoding="utf-8").splitlines()
        if row and not row.startswith("#")
    }
    last: dict[str, str] = {}
    head = []
    for tag in TAGS:
        head.append(f"#   keras-team/keras {tag} {commit(git_dir, tag)}")
        for module in wanted(tree(git_dir, tag), listed):
            last[module] = tag[1:].rsplit(".", 1)[0]
    for tag in MOVED:
        if not moves_to_src(git_dir, tag):
            raise SystemExit(f"{tag}'s pip_build.py lacks {SRC_LINE!r}: the table would be wrong")
        head.append(f"#   keras-team/keras {tag} {commit(git_dir, tag)} pip_build.py: {SRC_LINE}")
    lines = [
        "# The last Keras 2 line whose keras/ tree has each of Keras 2's own modules at its",
        "# place (the wheels of 2.13 to 2.15 hold them under keras/src/: their pip_build.py).",
        "# Generated by scripts/gen_keras2_module_releases.py; do not edit. Read from:",
        *head,
    ]
    lines += [f"{module}\t{last[module]}" for module in sorted(last)]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir", type=Path)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(list(argv) or None)
    text = render(args.git_dir)
    if args.check:
        return 0 if OUT.is_file() and OUT.read_text(encoding="utf-8") == text else 1
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
