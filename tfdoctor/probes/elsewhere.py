"""CUDA, cuDNN and NCCL libraries that sit where the loader does not look.

A copy under ``/usr/local/cuda-11.8``, in a cuDNN tarball under ``/opt``, in another conda
environment or behind an environment module explains "installed but not found": the fix is
to point the loader at it, or to install the wheel. The search is bounded: a fixed list of
places, each listed at most one level deep, never a walk of the disk. Every directory listing
goes through one :data:`Lister`, so a test can count them.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
import traceback
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Callable, Optional

from tfdoctor.cuda_layout import library_names
from tfdoctor.facts import CudaLibsFacts, FoundLibrary, ProbeError
from tfdoctor.probes.cudalibs import version_from_filename
from tfdoctor.records import Record, record

#: Lists a directory: its entry names, sorted; empty when it cannot be read.
Lister = Callable[[str], Sequence[str]]

#: Variables naming a CUDA toolkit or cuDNN root (CUDA_PATH is the Windows installer's and
#: conda's name; CUDNN_PATH the one NVIDIA's cuDNN install guide exports).
ROOT_VARIABLES = ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "CUDNN_PATH")

# Package directories in a conda ``pkgs`` cache that can hold these libraries (defaults'
# cudatoolkit/cudnn/nccl, conda-forge's and nvidia's split cuda-* and libcu* packages).
_CONDA_PKG = re.compile(r"^(cudatoolkit|cudnn|nccl|cuda-|libcu|libnccl|libnvjitlink)", re.I)
# Module directories under $MODULEPATH worth reading (cuda/11.8, cudnn/8.6, CUDA/12.1.1 ...).
_MODULE_DIR = re.compile(r"^(cuda|cudnn|nccl|cudatoolkit)", re.I)
# A modulefile larger than this is not a plain module; it is left unread.
_MODULEFILE_LIMIT = 64 * 1024


def list_dir(path: str) -> tuple[str, ...]:
    """The names in ``path``, sorted; empty when it is missing or unreadable."""
    try:
        with os.scandir(path) as entries:
            return tuple(sorted(entry.name for entry in entries))
    except (OSError, ValueError):
        return ()


# --- modulefiles ---------------------------------------------------------------------------

# Lmod: prepend_path("LD_LIBRARY_PATH", "/opt/cuda/lib64") or append_path(...), optionally
# with a third separator argument; the value may be a string, a local, pathJoin(a, "b") or
# a .. "/lib64" (https://lmod.readthedocs.io/en/latest/050_lua_modulefiles.html).
_LUA_PATH = re.compile(
    r"""\b(?:prepend_path|append_path)\s*\(\s*["']LD_LIBRARY_PATH["']\s*,\s*(.+?)\s*(?:,\s*["'][^"']*["']\s*)?\)\s*$"""
)
_LUA_LOCAL = re.compile(r"""^\s*local\s+(\w+)\s*=\s*(.+?)\s*$""")
# Tcl (Environment Modules): prepend-path LD_LIBRARY_PATH /opt/cuda/lib64, set root /opt/cuda
# (https://modules.readthedocs.io/en/latest/modulefile.html).
_TCL_PATH = re.compile(
    r"^\s*(?:prepend-path|append-path)\s+(?:(?:-d|--delim)\s+\S+\s+)?LD_LIBRARY_PATH\s+(.+?)\s*$"
)
_TCL_SET = re.compile(r"^\s*set\s+(\w+)\s+(.+?)\s*$")


def _lua_value(expr: str, local: Mapping[str, str]) -> Optional[str]:
    """The string a small Lua expression evaluates to: literals, locals, ``..``, pathJoin."""
    expr = expr.strip()
    join = re.fullmatch(r"pathJoin\s*\((.*)\)", expr)
    if join:
        parts = [_lua_value(p, local) for p in join.group(1).split(",")]
        if any(p is None for p in parts):
            return None
        return "/".join(p.strip("/") if i else p.rstrip("/") for i, p in enumerate(parts) if p)
    if ".." in expr and not re.fullmatch(r"""["'][^"']*["']""", expr):
        pieces = [_lua_value(p, local) for p in expr.split("..")]
        return None if any(p is None for p in pieces) else "".join(p or "" for p in pieces)
    literal = re.fullmatch(r"""["']([^"']*)["']""", expr)
    if literal:
        return literal.group(1)
    return local.get(expr)


def _tcl_value(expr: str, variables: Mapping[str, str]) -> Optional[str]:
    expr = expr.strip().strip('"').strip("{}")

    def sub(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return variables.get(name, "\0")

    value = re.sub(r"\$\{(\w+)\}|\$(\w+)", sub, expr)
    return None if "\0" in value or "[" in value else value


def parse_modulefile(text: str) -> tuple[str, ...]:
    """The directories a Lmod (``.lua``) or Tcl modulefile adds to ``LD_LIBRARY_PATH``.

    Values built from locals (``local base = "/opt/cuda"``) and Tcl variables (``set root
    /opt/cuda``) are followed; anything computed otherwise is skipped.
    """
    dirs: list[str] = []
    lua_locals: dict[str, str] = {}
    tcl_vars: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.split("--", 1)[0]  # a Lua comment; Tcl lines are matched on ``raw``
        value: Optional[str] = None
        if match := _LUA_LOCAL.match(line):
            found = _lua_value(match.group(2), lua_locals)
            if found is not None:
                lua_locals[match.group(1)] = found
            continue
        if match := _LUA_PATH.search(line):
            value = _lua_value(match.group(1), lua_locals)
        elif match := _TCL_SET.match(raw):
            found = _tcl_value(match.group(2), tcl_vars)
            if found is not None:
                tcl_vars[match.group(1)] = found
            continue
        elif match := _TCL_PATH.match(raw):
            value = _tcl_value(match.group(1), tcl_vars)
        for part in (value or "").split(":"):
            if part.startswith("/") and part not in dirs:
                dirs.append(part.rstrip("/") or "/")
    return tuple(dirs)


# --- cuDNN headers -------------------------------------------------------------------------

_CUDNN_DEFINE = re.compile(r"^\s*#\s*define\s+CUDNN_(MAJOR|MINOR|PATCHLEVEL)\s+(\d+)", re.M)


def parse_cudnn_header(text: str) -> Optional[str]:
    """``8.9.7`` from a ``cudnn_version.h`` (cuDNN 8+) or ``cudnn.h`` (7 and older)."""
    found = dict(_CUDNN_DEFINE.findall(text))
    if "MAJOR" not in found:
        return None
    return ".".join(found[k] for k in ("MAJOR", "MINOR", "PATCHLEVEL") if k in found)


def _cudnn_header_version(lib_dir: str, lister: Lister) -> Optional[str]:
    """The version the headers next to a cuDNN library directory declare (tarball layout)."""
    for include in (lib_dir, str(PurePosixPath(lib_dir).parent / "include")):
        names = set(lister(include))
        for header in ("cudnn_version.h", "cudnn.h"):
            if header in names:
                try:
                    with Path(include, header).open(encoding="utf-8", errors="replace") as f:
                        version = parse_cudnn_header(f.read(_MODULEFILE_LIMIT))
                except OSError:
                    continue
                if version is not None:
                    return version
    return None


# --- places --------------------------------------------------------------------------------


@record
class Place(Record):
    """A directory to look in, and how it is reported."""

    directory: str
    place: str
    module: Optional[str] = None


def _under(root: str, path: str) -> str:
    return str(Path(root) / path.lstrip("/")) if root not in ("", "/") else path


def _conda_base(prefix: Optional[str]) -> Optional[Path]:
    """The conda installation holding ``prefix`` (an env under ``envs/``, or the base)."""
    if not prefix:
        return None
    path = Path(prefix)
    if path.parent.name == "envs" and (path.parent.parent / "conda-meta").is_dir():
        return path.parent.parent
    return path if (path / "conda-meta").is_dir() else None


def places(
    env: Mapping[str, str],
    prefix: Optional[str],
    lister: Lister,
    root: str = "/",
) -> list[Place]:
    """Every directory to search, in reporting order; each place listed one level at most.

    ``prefix`` is the examined interpreter's ``sys.prefix``; ``root`` is prepended to the
    fixed system places (``/usr/local``, ``/opt``) so tests can build a fake tree.
    """
    out: list[Place] = []
    for var in ROOT_VARIABLES:
        home = env.get(var)
        if not home:
            continue
        out += [Place(str(Path(home) / sub), "cuda-home") for sub in ("lib64", "lib")]
        targets = Path(home) / "targets"
        out += [Place(str(targets / t / "lib"), "cuda-home") for t in lister(str(targets))]

    usr_local = _under(root, "/usr/local")
    toolkits = [n for n in lister(usr_local) if n == "cuda" or n.startswith("cuda-")]
    out += [Place(str(Path(usr_local, n, "lib64")), "usr-local-cuda") for n in toolkits]

    opt = _under(root, "/opt")
    for name in lister(opt):
        top = str(Path(opt, name))
        inside = lister(top)
        out.append(Place(top, "opt"))
        out += [Place(str(Path(top, sub)), "opt") for sub in ("lib", "lib64") if sub in inside]

    if env.get("CONDA_PREFIX"):
        out.append(Place(str(Path(env["CONDA_PREFIX"], "lib")), "conda-env"))
    base = _conda_base(prefix)
    if base is not None:
        out.append(Place(str(base / "lib"), "conda-env"))
        envs = base / "envs"
        out += [Place(str(envs / n / "lib"), "conda-env") for n in lister(str(envs))]
        pkgs = base / "pkgs"
        wanted = [n for n in lister(str(pkgs)) if _CONDA_PKG.match(n)]
        out += [Place(str(pkgs / n / "lib"), "conda-pkgs") for n in wanted]

    out += _module_places(env.get("MODULEPATH"), lister)
    out += _site_places(prefix, env.get("HOME"), lister)
    return out


def _module_places(modulepath: Optional[str], lister: Lister) -> list[Place]:
    out: list[Place] = []
    for tree in (p for p in (modulepath or "").split(":") if p):
        for family in (n for n in lister(tree) if _MODULE_DIR.match(n)):
            folder = Path(tree, family)
            for filename in lister(str(folder)):
                if filename.startswith("."):  # .version, .modulerc: defaults, not modules
                    continue
                try:
                    with (folder / filename).open(encoding="utf-8", errors="replace") as handle:
                        text = handle.read(_MODULEFILE_LIMIT)
                except OSError:  # a directory of deeper versions, or unreadable
                    continue
                module = f"{family}/{filename.removesuffix('.lua')}"
                out += [Place(d, "module", module) for d in parse_modulefile(text)]
    return out


def _site_places(prefix: Optional[str], home: Optional[str], lister: Lister) -> list[Place]:
    """``nvidia/*/lib`` of every ``python3.*`` site-packages of this prefix and ``~/.local``."""
    out: list[Place] = []
    bases = [str(Path(prefix, "lib"))] if prefix else []
    if home:
        bases.append(str(Path(home, ".local", "lib")))
    for base in bases:
        for version in (n for n in lister(base) if n.startswith("python3")):
            nvidia = Path(base, version, "site-packages", "nvidia")
            out += [Place(str(nvidia / n / "lib"), "site-packages") for n in lister(str(nvidia))]
    return out


# --- the probe -----------------------------------------------------------------------------


def match_library(filename: str, sonames: Mapping[str, Iterable[str]]) -> Optional[str]:
    """The library a file name belongs to (``libcudnn.so.8.9.7`` -> ``cudnn``), if any."""
    for name, names in sonames.items():
        for soname in names:
            if filename == soname or filename.startswith(soname + "."):
                return name
    return None


def find_elsewhere(
    sonames: Mapping[str, Sequence[str]],
    seen: Iterable[str],
    env: Mapping[str, str],
    prefix: Optional[str] = None,
    *,
    lister: Lister = list_dir,
    root: str = "/",
) -> tuple[FoundLibrary, ...]:
    """Library files for ``sonames`` in the usual places that are not among ``seen``.

    ``sonames`` maps a library to the file names TF asks for (cudalibs'
    ``tf_library_names``); a file counts when it is one of them or a longer version of one
    (``libcudnn.so.8.9.7`` for ``libcudnn.so.8``). ``seen`` holds the real paths of the
    candidates the loader's search already reaches. Each real file is reported once, at the
    first place it is met, by the soname link where there is one.
    """
    known = {os.path.realpath(p) for p in seen}
    cache: dict[str, Sequence[str]] = {}

    def once(path: str) -> Sequence[str]:
        # /opt/<x> is listed to find its lib dirs and again as a place: one listing each.
        if path not in cache:
            cache[path] = lister(path)
        return cache[path]

    ordered = {name: sonames[name] for name in library_names() if name in sonames}
    found: list[FoundLibrary] = []
    listed: set[str] = set()
    for place in places(env, prefix, once, root):
        directory = os.path.normpath(place.directory)
        if directory in listed:
            continue
        listed.add(directory)
        groups: dict[str, list[str]] = {}
        names: dict[str, str] = {}
        for filename in once(directory):
            name = match_library(filename, ordered)
            if name is None:
                continue
            path = str(Path(directory, filename))
            real = os.path.realpath(path)
            if real in known or not Path(real).is_file():
                continue
            groups.setdefault(real, []).append(path)
            names[real] = name
        for real, paths in groups.items():
            known.add(real)
            name = names[real]
            shortest = min(paths, key=len)  # the soname link, where the directory has one
            version = version_from_filename(*paths, real)
            if name == "cudnn" and version is not None and "." not in version:
                version = _cudnn_header_version(directory, once) or version
            found.append(FoundLibrary(name, shortest, version, place.place, place.module))
    return tuple(found)


def probe_elsewhere(
    libs: CudaLibsFacts,
    env: Mapping[str, str],
    prefix: Optional[str] = None,
    *,
    lister: Lister = list_dir,
    root: str = "/",
    platform: str = sys.platform,
) -> CudaLibsFacts:
    """``libs`` with ``elsewhere`` filled from the bounded search; never raises.

    The sonames searched and the files already reached are those of ``libs``, the cudalibs
    probe's result. Linux only: the places are Linux's.
    """
    if not platform.startswith("linux"):
        return libs
    sonames = {lib.name: lib.sonames for lib in libs.libraries}
    seen = [c.path for lib in libs.libraries for c in lib.candidates]
    try:
        found = find_elsewhere(sonames, seen, env, prefix, lister=lister, root=root)
    # A probe records instead of raising; the traceback names the bug.
    except Exception as exc:
        error = ProbeError("cuda_libs", "crashed", f"elsewhere: {exc}", traceback.format_exc())
        return dataclasses.replace(libs, error=libs.error or error)
    return dataclasses.replace(libs, elsewhere=found)
