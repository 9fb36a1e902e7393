"""Describe this interpreter and its TensorFlow-related distributions as one JSON document.

Standard library only, Python 3.7+. The doctor imports :func:`collect` directly for its own
interpreter and runs this file by path for another one (``--python``); with ``--all`` it
lists every installed distribution (``tfdoctor pin``, ``check --against``).
"""

from __future__ import annotations

import glob
import json
import os
import platform
import re
import struct
import subprocess
import sys
from typing import Any, Optional

try:  # Python 3.8+
    from importlib import metadata as _metadata
except ImportError:  # Python 3.7: the backport if present, else _DistInfo below
    try:
        import importlib_metadata as _metadata  # type: ignore[no-redef,import-not-found,unused-ignore]
    except ImportError:
        _metadata = None  # type: ignore[assignment]

# Distributions worth reporting: the TensorFlow family, the pins that break most often, every
# NVIDIA wheel (the CUDA libraries TensorFlow's `and-cuda` extra installs), libtpu (what a
# TPU VM's TensorFlow loads), and every
# distribution `import tensorflow` imports when it starts (tfdoctor.machine.START_IMPORTS).
_FAMILY = re.compile(
    r"^(tensorflow.*|tf-.*|tb-nightly|tensorboard.*|intel-tensorflow.*|keras.*|numpy|protobuf"
    r"|ml-dtypes|h5py|nvidia-.*|jax|jaxlib|torch|typing-extensions|wrapt|grpcio|absl-py"
    r"|opt-einsum|flatbuffers|gast|astunparse|six|termcolor|packaging|libtpu.*)$"
)
#: The command-line flag that lists every distribution, not only the family.
ALL_FLAG = "--all"
# Distributions whose file list is read to learn which top-level packages they write;
# RECORD of a TensorFlow wheel has ~10k lines, so only where it matters.
_RECORD_READ = re.compile(r"^(tensorflow.*|tf-nightly.*|intel-tensorflow.*)$")


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _env_kind() -> str:
    prefix = sys.prefix
    if os.path.isdir(os.path.join(prefix, "conda-meta")):
        return "conda"
    if hasattr(sys, "real_prefix"):
        return "virtualenv"
    if getattr(sys, "base_prefix", prefix) != prefix:
        return "venv"
    system_prefixes = ("/usr", "/usr/local", "/opt/homebrew", "/Library/Frameworks", "/System")
    if sys.platform == "win32":
        lowered = prefix.lower()
        if "windowsapps" in lowered or "program files" in lowered:
            return "system"
        return "user"
    if prefix in system_prefixes or prefix.startswith(system_prefixes[3:]):
        return "system"
    return "user"


def _uv_maker() -> Optional[str]:
    """The uv release that made this environment: the ``uv = <version>`` line uv writes into
    its pyvenv.cfg (crates/uv-virtualenv/src/virtualenv.rs in astral-sh/uv); None where
    another tool made it, or no pyvenv.cfg is there."""
    try:
        with open(os.path.join(sys.prefix, "pyvenv.cfg"), encoding="utf-8") as cfg:
            pairs = [line.partition("=") for line in cfg]
    except (OSError, UnicodeDecodeError):
        return None
    return next((value.strip() for key, _, value in pairs if key.strip() == "uv"), None)


def _importable(name: str) -> bool:
    """Whether the top-level module ``name`` can be imported here (found, not imported):
    ``python -m pip`` needs pip's package, and ``python -m ensurepip`` the standard library's
    ensurepip, which Debian and Ubuntu move out of their system Python into python3-venv."""
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _uv_project() -> Optional[str]:
    """The directory beside this environment that holds a uv project's lock (``uv.lock``),
    where the environment's pyvenv.cfg names uv as its maker: uv writes a ``uv = <version>``
    line there (crates/uv-virtualenv/src/virtualenv.rs in astral-sh/uv) and keeps a project's
    environment in ``.venv`` beside pyproject.toml and uv.lock
    (https://docs.astral.sh/uv/concepts/projects/layout/); None otherwise."""
    prefix = os.path.abspath(sys.prefix)
    project = os.path.dirname(prefix)
    if _uv_maker() is None or not os.path.isfile(os.path.join(project, "uv.lock")):
        return None
    # uv add and uv sync install into the project's environment: .venv beside the lock, or
    # UV_PROJECT_ENVIRONMENT (relative to the project's root)
    # (https://docs.astral.sh/uv/concepts/projects/config/#project-environment-path); an
    # environment of another name beside the lock (uv venv venv) is not changed by them.
    wanted = os.environ.get("UV_PROJECT_ENVIRONMENT") or ".venv"
    if os.path.normpath(os.path.join(project, os.path.expanduser(wanted))) != prefix:
        return None
    return project


def _rosetta() -> bool:
    # Apple documents `sysctl.proc_translated` = 1 for a process translated by Rosetta 2.
    if sys.platform != "darwin":
        return False
    try:
        out = subprocess.run(
            ["sysctl", "-n", "sysctl.proc_translated"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            timeout=5,
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return out.strip() == b"1"


def _site_packages() -> list[str]:
    """The site directories imports actually search, in ``sys.path`` order.

    ``site.getsitepackages()`` also names directories that are not on the path (the user
    site inside a venv, for one), and lists the user site after the global one although
    ``site.py`` puts it first; ``sys.path`` is what ``import tensorflow`` walks.
    """
    seen = set()
    dirs = []
    for entry in sys.path:
        if entry.endswith(("site-packages", "dist-packages")) and entry not in seen:
            seen.add(entry)
            if os.path.isdir(entry):
                dirs.append(entry)
    return dirs


def _top_level(dist: Any) -> list[str]:
    names: set[str] = set()
    try:
        text = dist.read_text("top_level.txt")
    except (OSError, ValueError):
        text = None
    if text:
        names.update(line.strip() for line in text.splitlines() if line.strip())
        return sorted(names)
    try:
        record = dist.read_text("RECORD")
    except (OSError, ValueError):
        record = None
    for line in (record or "").splitlines():
        first = line.split(",", 1)[0].replace("\\", "/").split("/", 1)[0]
        if first and not first.endswith((".dist-info", ".data")) and first != "..":
            names.add(first[:-3] if first.endswith(".py") else first)
    return sorted(names)


def _editable(dist: Any) -> bool:
    try:
        text = dist.read_text("direct_url.json")
    except (OSError, ValueError):
        return False
    if not text:
        return False
    try:
        doc = json.loads(text)
    except ValueError:
        return False
    dir_info = doc.get("dir_info") if isinstance(doc, dict) else None
    return isinstance(dir_info, dict) and dir_info.get("editable") is True


class Headers:
    """The header fields of a core metadata file (METADATA, PKG-INFO): what this script reads
    of them, as :class:`email.message.Message` gives them (names case-insensitive; ``m[name]``
    the first value or None; ``get_all`` every value or None).

    The metadata format is RFC 822 headers (https://packaging.python.org/en/latest/
    specifications/core-metadata/); the stdlib's email parser reads them about ten times
    slower, which a listing of every distribution (``--all``) pays once per file.
    """

    def __init__(self, text: str) -> None:
        self._fields: dict[str, list[str]] = {}
        last: Optional[list[str]] = None
        for line in text.splitlines():
            if not line:
                break  # the body (the long description) starts after the first empty line
            # A line of only spaces is a folded continuation, as in email's parser: a License
            # field holding a whole licence text keeps its blank lines that way (hatchling).
            if line[0] in " \t":
                if last:  # a folded continuation of the previous field
                    last[-1] += "\n" + line
                continue
            name, colon, value = line.partition(":")
            if not colon:
                break  # not a header line: where email's parser also ends the headers
            last = self._fields.setdefault(name.strip().lower(), [])
            last.append(value.strip())

    def __getitem__(self, name: str) -> Optional[str]:
        found = self._fields.get(name.lower())
        return found[0] if found else None

    def get_all(self, name: str) -> Optional[list[str]]:
        return self._fields.get(name.lower())


def read_metadata(dist: Any) -> Headers:
    """A distribution's core metadata (METADATA, else an sdist's or egg's PKG-INFO)."""
    return Headers(dist.read_text("METADATA") or dist.read_text("PKG-INFO") or "")


class _DistInfo:
    """The slice of ``importlib.metadata.Distribution`` used here, for Python 3.7."""

    def __init__(self, path: str) -> None:
        self._path = path

    @property
    def requires(self) -> list[str]:
        return read_metadata(self).get_all("Requires-Dist") or []

    def read_text(self, name: str) -> Optional[str]:
        try:
            with open(os.path.join(self._path, name), encoding="utf-8") as handle:
                return handle.read()
        except OSError:
            return None

    def locate_file(self, name: str) -> str:
        return os.path.join(os.path.dirname(self._path), name)


def _wanted(dist: Any) -> bool:
    """Whether a distribution may matter, judged from its ``*.dist-info`` directory name.

    Parsing every METADATA file costs about 1.5 ms each (hundreds in a data-science
    environment); the directory name (``tensorflow-2.21.0.dist-info``) is free. Distributions
    without such a path (eggs, custom finders) are always read.
    """
    path = getattr(dist, "_path", None)
    return _wanted_dir(os.path.basename(str(path)) if path is not None else "")


def _wanted_dir(name: str) -> bool:
    """Whether a ``NAME-VERSION.dist-info`` (or ``.egg-info``) directory may matter."""
    stem = _dir_stem(name)
    return stem is None or stem == "pip" or bool(_FAMILY.match(stem))


def _dir_stem(name: str) -> Optional[str]:
    """The normalised project name of a ``NAME-VERSION.dist-info`` directory; None for a
    path of another kind (read it to know)."""
    if not name.endswith((".dist-info", ".egg-info")):
        return None
    # Wheel directory names escape "-" in the project name as "_", so NAME has no "-".
    return _normalize(name.rsplit(".", 1)[0].split("-", 1)[0])


def _stem(dist: Any) -> Optional[str]:
    path = getattr(dist, "_path", None)
    return _dir_stem(os.path.basename(str(path)) if path is not None else "")


def _distributions() -> list[Any]:
    """Every distribution, in ``sys.path`` order, none of its metadata read yet."""
    if _metadata is not None:
        return list(_metadata.distributions())
    found = []
    for entry in sys.path:
        if entry and os.path.isdir(entry):
            found.extend(
                _DistInfo(p) for p in sorted(glob.glob(os.path.join(entry, "*.dist-info")))
            )
    return found


def _requires(dist: Any, meta: Any) -> list[str]:
    """``Requires-Dist`` lines; an egg's ``requires.txt`` through importlib when it has none."""
    found = meta.get_all("Requires-Dist")
    if not found and dist.read_text("requires.txt"):
        found = dist.requires  # importlib.metadata translates requires.txt sections
    return [str(r) for r in found or []]


def wheel_tags(text: str) -> list[str]:
    """The ``Tag:`` lines of a ``WHEEL`` file, in order (``cp311-cp311-manylinux_2_27_x86_64``).

    The file is RFC 822 headers like METADATA; a wheel built for several tags has one ``Tag``
    line each (https://packaging.python.org/en/latest/specifications/binary-distribution-format/).
    """
    return [str(v) for v in Headers(text).get_all("Tag") or [] if v]


def _wheel_tags(dist: Any) -> list[str]:
    try:
        text = dist.read_text("WHEEL")
    except (OSError, ValueError):
        return []
    return wheel_tags(text) if text else []


def installed_names(path: list[str]) -> set[str]:
    """Normalised names of the distributions whose metadata directory is on ``path``.

    Directory names only (``protobuf-4.25.3.dist-info``, ``six-1.16.0-py3.9.egg-info``): a
    listing per path entry, no metadata file read.
    """
    names = set()
    for entry in path:
        try:
            listing = os.listdir(entry or os.curdir)
        except OSError:
            continue
        for item in listing:
            if item.endswith((".dist-info", ".egg-info")):
                names.add(_normalize(item.rsplit(".", 1)[0].split("-", 1)[0]))
    return names


_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def missing_requires(requires: list[str], installed: set[str]) -> list[str]:
    """The requirements without an environment marker whose distribution is not installed.

    A requirement with a marker (an extra, a Python version) is left out: judging it needs
    the marker evaluated, which the standard library cannot do.
    """
    out = []
    for line in requires:
        match = _REQUIREMENT_NAME.match(line)
        if ";" not in line and match and _normalize(match.group(1)) not in installed:
            out.append(match.group(1))
    return out


def _describe(dist: Any, meta: Any, key: str, name: str) -> dict[str, Any]:
    try:
        location = str(dist.locate_file(""))
    except (OSError, ValueError):
        location = ""
    requires = _requires(dist, meta)
    tensorflow = bool(_RECORD_READ.match(key))
    return {
        "name": name,
        "version": str(meta["Version"] or ""),
        "location": location,
        "requires": requires,
        "editable": _editable(dist),
        "top_level": _top_level(dist) if tensorflow else [],
        "wheel_tags": _wheel_tags(dist),
        "requires_missing": (
            missing_requires(requires, installed_names(sys.path)) if tensorflow else []
        ),
    }


def _packages(dists: list[Any], all_packages: bool) -> tuple[list[dict[str, Any]], Optional[str]]:
    """The family's distributions and every distribution they require (or all of them) by
    name, and pip's version.

    What the family requires is read from its own metadata (TensorFlow 2.21 requires
    google-pasta, libclang and requests, among others): the doctor then judges every declared
    requirement, not a list. Distributions are chosen by their directory's name before any
    metadata is read.
    """
    if all_packages:
        return _read_packages(dists, None)
    family, pip_version = _read_packages([d for d in dists if _wanted(d)], _FAMILY)
    listed = {_normalize(str(p["name"])) for p in family}
    # Requirements behind an extra are installed only on request: pip check skips them too.
    required = {
        _normalize(m.group(1))
        for p in family
        for m in (_REQUIREMENT_NAME.match(r) for r in p["requires"] if "extra" not in r)
        if m is not None
    } - listed
    if not required:
        return family, pip_version
    chosen = [d for d in dists if _stem(d) in required or _stem(d) is None]
    wanted = re.compile("^(" + "|".join(re.escape(n) for n in sorted(required)) + ")$")
    more, _ = _read_packages(chosen, wanted)
    result = family + more
    result.sort(key=lambda p: _normalize(str(p["name"])))
    return result, pip_version


def _read_packages(
    dists: list[Any], names: Optional[re.Pattern[str]]
) -> tuple[list[dict[str, Any]], Optional[str]]:
    """The distributions whose normalised name ``names`` matches (None: all), and pip's
    version if pip is among ``dists``.

    Each distribution's metadata is read once, here (``dist.metadata`` would parse it again
    on each access, as ``dist.version`` and ``dist.requires`` do).
    """
    seen = set()
    result = []
    pip_version = None
    for dist in dists:
        # One broken dist-info (bad METADATA, odd JSON) must not cost the whole listing.
        try:
            meta = read_metadata(dist)
            name = meta["Name"]
            if not name:
                continue
            key = _normalize(str(name))
            # The first distribution on sys.path wins an import; later ones are shadowed.
            if key in seen:
                continue
            seen.add(key)
            if key == "pip":
                pip_version = str(meta["Version"])
            if names is None or names.match(key):
                result.append(_describe(dist, meta, key, str(name)))
        except Exception:  # skip the one broken record, keep the rest
            continue
    result.sort(key=lambda p: _normalize(str(p["name"])))
    return result, pip_version


# --- where `import tensorflow` resolves, and PEP 668 ---------------------------------------


def externally_managed(marker_exists: bool, prefix: str, base_prefix: str) -> bool:
    """PEP 668: pip refuses to install when the stdlib directory holds ``EXTERNALLY-MANAGED``
    and the interpreter is not a virtual environment's (``sys.prefix == sys.base_prefix``).

    https://peps.python.org/pep-0668/#marking-an-interpreter-as-using-an-external-package-manager
    """
    return marker_exists and prefix == base_prefix


def _externally_managed() -> bool:
    try:
        import sysconfig

        stdlib = sysconfig.get_path("stdlib")
    except Exception:  # an odd build without the scheme: unknown reads as not marked
        return False
    marker = bool(stdlib) and os.path.isfile(os.path.join(stdlib, "EXTERNALLY-MANAGED"))
    return externally_managed(marker, sys.prefix, getattr(sys, "base_prefix", sys.prefix))


def command_path(path: list[str], prepended: bool, safe_path: bool) -> list[str]:
    """``sys.path`` as ``python -c`` would have it in the user's shell.

    This process's ``sys.path[0]`` is its own script's directory (or the doctor's), which
    ``prepended`` says was added (not under ``-I`` or ``-P``); ``python -c`` puts ``''``,
    the working directory, there instead, unless ``PYTHONSAFEPATH`` is set (Python 3.11+,
    https://docs.python.org/3/using/cmdline.html#envvar-PYTHONSAFEPATH).
    """
    rest = list(path[1:] if prepended and path else path)
    return rest if safe_path else ["", *rest]


def path_kind(
    entry: str,
    pythonpath: list[str],
    site_dirs: list[str],
    user_site: Optional[str],
    pth_dirs: list[str],
) -> str:
    """Why ``entry`` is on ``sys.path``: ``working-directory``, ``PYTHONPATH``,
    ``site-packages``, ``user-site``, ``pth`` (a line of a ``.pth`` file) or ``other``."""
    if entry == "":
        return "working-directory"
    full = _norm(entry)
    if full in {_norm(p) for p in pythonpath if p}:
        return "PYTHONPATH"
    if full in {_norm(p) for p in site_dirs}:
        return "site-packages"
    if user_site and full == _norm(user_site):
        return "user-site"
    if full in {_norm(p) for p in pth_dirs}:
        return "pth"
    return "other"


def _norm(path: str) -> str:
    return os.path.normcase(os.path.normpath(os.path.abspath(path)))


def _pth_dirs(site_dirs: list[str]) -> list[str]:
    """Directories the ``.pth`` files of these site directories add (``site.addpackage``)."""
    found = []
    for site_dir in site_dirs:
        for pth in sorted(glob.glob(os.path.join(glob.escape(site_dir), "*.pth"))):
            try:
                with open(pth, encoding="utf-8", errors="replace") as handle:
                    lines = handle.read(256 * 1024).splitlines()
            except OSError:
                continue
            for raw in lines:
                line = raw.rstrip()
                if line and not line.startswith(("#", "import ", "import\t")):
                    found.append(os.path.join(site_dir, line))
    return found


def _find_spec(name: str, path: list[str]) -> Any:
    """``importlib.util.find_spec`` over ``path`` instead of ``sys.path``, importing nothing.

    The meta path is walked in order so that finders installed ahead of the path finder
    (editable installs' mapping finders) answer as they would for ``import``.
    """
    import importlib.machinery

    for finder in sys.meta_path:
        try:
            if finder is importlib.machinery.PathFinder:
                spec = importlib.machinery.PathFinder.find_spec(name, path)
            else:
                find = getattr(finder, "find_spec", None)
                spec = find(name, None) if find is not None else None
        except Exception:  # a broken finder must not end the search; import would skip it too
            continue
        if spec is not None:
            return spec
    return None


def _tensorflow_resolution() -> dict[str, Optional[str]]:
    """Where ``import tensorflow`` would resolve for the user's command, without importing it."""
    prepended = not (sys.flags.isolated or getattr(sys.flags, "safe_path", False))
    safe = sys.version_info >= (3, 11) and bool(os.environ.get("PYTHONSAFEPATH"))
    path = command_path(sys.path, prepended, safe)
    none: dict[str, Optional[str]] = {
        "tensorflow_origin": None,
        "tensorflow_path_entry": None,
        "tensorflow_path_kind": None,
    }
    spec = _find_spec("tensorflow", path)
    if spec is None:
        return none
    locations = list(spec.submodule_search_locations or ())
    if locations:
        origin = str(locations[0])
        parent = os.path.dirname(origin)
    elif spec.origin and spec.origin not in ("namespace", "built-in", "frozen"):
        origin = str(spec.origin)
        parent = os.path.dirname(origin)
    else:
        return none
    entry = next((p for p in path if _norm(p or os.curdir) == _norm(parent)), None)
    if entry is None:  # a finder that maps the name elsewhere (an editable install)
        return {**none, "tensorflow_origin": origin, "tensorflow_path_kind": "other"}
    import site

    try:
        site_dirs = list(site.getsitepackages())
    except Exception:  # virtualenv < 20 lacks getsitepackages
        site_dirs = [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    user_site = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    pythonpath = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    pth = _pth_dirs(site_dirs + ([user_site] if user_site else []))
    return {
        "tensorflow_origin": origin,
        # The working directory's entry is '' on sys.path; the directory itself says more.
        "tensorflow_path_entry": entry or os.getcwd(),
        "tensorflow_path_kind": path_kind(entry, pythonpath, site_dirs, user_site, pth),
    }


def _resolution() -> dict[str, Any]:
    try:
        return _tensorflow_resolution()
    except Exception as exc:  # unknown, not a failed probe: the rest still reports
        sys.stderr.write(f"env_info: resolving tensorflow failed: {type(exc).__name__}: {exc}\n")
        return {}


def collect(all_packages: bool = False) -> dict[str, Any]:
    """This interpreter, its machine as it sees it, and its TensorFlow-related packages.

    ``all_packages`` lists every installed distribution instead (``tfdoctor pin``).
    """
    packages, pip_version = _packages(_distributions(), all_packages)
    return {
        "python": {
            "version": platform.python_version(),
            "implementation": platform.python_implementation(),
            "executable": sys.executable,
            "bits": struct.calcsize("P") * 8,
            "env_kind": _env_kind(),
            "prefix": sys.prefix,
            "base_prefix": getattr(sys, "base_prefix", sys.prefix),
            "pip_version": pip_version,
            "site_packages": _site_packages(),
            "externally_managed": _externally_managed(),
            "uv_project": _uv_project(),
            "pip_installed": _importable("pip"),
            "uv_venv": _uv_maker(),
            "ensurepip": _importable("ensurepip"),
            **_resolution(),
        },
        "machine": platform.machine(),
        "rosetta": _rosetta(),
        "packages": packages,
    }


if __name__ == "__main__":
    sys.stdout.write(json.dumps(collect(all_packages=ALL_FLAG in sys.argv[1:])))
    sys.stdout.flush()
