"""Report what ``import tensorflow`` gives in this interpreter, as JSON after a marker line.

Run by path as ``python tf_info.py MARKER``. Standard library only, Python 3.7+.

Two documents are printed, each on the line after ``MARKER``: a ``pre-import`` one (where
TensorFlow would be imported from, flushed before importing it) and a ``done`` one. The first
survives an import that kills the process with a signal or hangs; the parent keeps the last.
TensorFlow and user code may print to stdout too, so only the marker delimits the documents.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any, Callable, Optional

#: Items that failed while the rest were collected; each is also written to stderr.
_ERRORS: list[dict[str, str]] = []


def _emit(marker: str, doc: dict[str, Any]) -> None:
    """Print ``doc`` as one JSON line after the marker line, and flush."""
    sys.stdout.write("\n" + marker + "\n" + json.dumps(doc, default=str) + "\n")
    sys.stdout.flush()


def _note_error(what: str, exc: BaseException) -> None:
    """Remember a failed item and say so on stderr, where the parent keeps the tail."""
    text = f"{type(exc).__name__}: {exc}"
    _ERRORS.append({"item": what, "error": text})
    sys.stderr.write(f"tf_info: {what} failed: {text}\n")


def _type_name(exc: BaseException) -> str:
    """``ImportError`` for builtins, ``module.Name`` otherwise."""
    cls = type(exc)
    module = getattr(cls, "__module__", "builtins")
    if module == "builtins":
        return cls.__qualname__
    return f"{module}.{cls.__qualname__}"


def _chained_message(exc: BaseException) -> str:
    """The exception's message, then those of its causes and contexts, outermost first."""
    parts = [str(exc)]
    seen = {id(exc)}
    current = exc.__cause__ or exc.__context__
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        parts.append(f"caused by {_type_name(current)}: {current}")
        current = current.__cause__ or current.__context__
    return "\n".join(parts)


def _drop_own_dir() -> None:
    """Take this script's directory off ``sys.path`` so sibling scripts cannot shadow modules."""
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or os.curdir).resolve() != here]


def _as_command_path() -> None:
    """``sys.path`` as ``python -c "import tensorflow"`` has it in the user's shell: the working
    directory first, where a script run by path has its own directory (dropped above).

    Left out under ``-I``, ``-P`` or ``PYTHONSAFEPATH`` (3.11+), as Python leaves it out
    (https://docs.python.org/3/using/cmdline.html#envvar-PYTHONSAFEPATH). The env_info probe
    resolves ``import tensorflow`` on the same path, so the import run is the one resolved.
    """
    if not (sys.flags.isolated or getattr(sys.flags, "safe_path", False)) and "" not in sys.path:
        sys.path.insert(0, "")


def _locate() -> Optional[dict[str, Any]]:
    """Where ``tensorflow`` would be imported from, without importing it."""
    import importlib.util

    spec = importlib.util.find_spec("tensorflow")
    if spec is None:
        return None
    return {
        "origin": spec.origin,
        "locations": [str(p) for p in spec.submodule_search_locations or ()],
        # A directory without __init__.py (often left behind by an uninstall) imports as an
        # empty namespace package.
        "namespace": spec.origin in (None, "namespace"),
    }


def _site_dirs() -> list[str]:
    """The interpreter's site directories, then the rest of ``sys.path``."""
    dirs: list[str] = []
    try:
        import site

        dirs.extend(site.getsitepackages())
        dirs.append(site.getusersitepackages())
    except Exception as exc:  # venvs made by virtualenv < 20 lack getsitepackages
        _note_error("site.getsitepackages", exc)
    dirs.extend(p for p in sys.path if p)
    out: list[str] = []
    for d in dirs:
        if d not in out:
            out.append(d)
    return out


def _plain(value: Any) -> Any:
    """A JSON-safe copy: containers and scalars kept, anything else as str."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)


def _device_details(tf: Any, device: Any) -> dict[str, str]:
    """``get_device_details`` of a GPU with the compute capability as ``"8.6"``."""
    details = tf.config.experimental.get_device_details(device)
    out: dict[str, str] = {}
    for key, value in details.items():
        if key == "compute_capability" and isinstance(value, (tuple, list)):
            out[str(key)] = ".".join(str(v) for v in value)
        else:
            out[str(key)] = str(value)
    return out


def _attempt(what: str, func: Callable[[], Any]) -> Any:
    """``func()``, or None after noting why it failed."""
    try:
        return func()
    except Exception as exc:
        _note_error(what, exc)
        return None


def _call_api(tf: Any, name: str) -> Any:
    """``tf.<name>()``, or None after noting why; the lookup itself is guarded too.

    Looking the function up before the guard would let one missing from an older release
    (``tf.sysconfig.get_build_info`` before TF 2.3) end the whole child.
    """

    def call() -> Any:
        target = tf
        for part in name.split("."):
            target = getattr(target, part)
        return target()

    return _attempt("tf." + name, call)


def _list_devices(tf: Any) -> Any:
    """``tf.config.list_physical_devices()`` (under ``experimental`` only in TF 1.14-2.0)."""
    lister = getattr(tf.config, "list_physical_devices", None)
    if lister is None:
        lister = tf.config.experimental.list_physical_devices
    return lister()


def _describe(tf: Any) -> dict[str, Any]:
    """Version, build and devices of an imported TensorFlow, each item guarded."""
    doc: dict[str, Any] = {
        "version": _attempt("tf.__version__", lambda: str(tf.__version__)),
        "git_version": _attempt("tf.version.GIT_VERSION", lambda: str(tf.version.GIT_VERSION)),
        "is_cuda_build": _call_api(tf, "test.is_built_with_cuda"),
        "is_rocm_build": _call_api(tf, "test.is_built_with_rocm"),
    }
    # tf.sysconfig.get_build_info() exists since TF 2.3; for older releases the parent
    # reads build_info.py as a file.
    build_info = _call_api(tf, "sysconfig.get_build_info")
    doc["build_info"] = None if build_info is None else _plain(dict(build_info))
    devices = _attempt("tf.config.list_physical_devices", lambda: _list_devices(tf))
    listed: Optional[list[dict[str, Any]]] = None
    if devices is not None:
        listed = []
        for device in devices:
            entry: dict[str, Any] = {
                "name": str(device.name),
                "device_type": str(device.device_type),
            }
            if entry["device_type"] == "GPU":
                details = _attempt(
                    f"tf.config.experimental.get_device_details({entry['name']})",
                    lambda device=device: _device_details(tf, device),  # type: ignore[misc]
                )
                entry["details"] = details or {}
            listed.append(entry)
    doc["devices"] = listed
    return doc


def _import_tensorflow() -> Any:
    """``import tensorflow``; kept in one place so the import is easy to find."""
    import tensorflow  # type: ignore[import-not-found,import-untyped,unused-ignore]

    return tensorflow


def main(argv: list[str]) -> int:
    """Print the pre-import and the final document; return the exit status."""
    if len(argv) != 2:
        sys.stderr.write("usage: tf_info.py MARKER\n")
        return 2
    marker = argv[1]
    _drop_own_dir()
    _as_command_path()
    base: dict[str, Any] = {
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "site_dirs": _site_dirs(),
    }
    base["location"] = _attempt("importlib.util.find_spec", _locate)
    _emit(marker, dict(base, phase="pre-import"))
    if base["location"] is None:
        _emit(marker, dict(base, phase="done", status="not-installed", errors=_ERRORS))
        return 0

    try:
        tf = _import_tensorflow()
    except BaseException as exc:  # SystemExit and KeyboardInterrupt raised by the import too
        traceback.print_exc()
        failure = {
            "status": "import-error",
            "error_type": _type_name(exc),
            "error_message": _chained_message(exc),
        }
        _emit(marker, dict(base, phase="done", errors=_ERRORS, **failure))
        return 0

    if getattr(tf, "__file__", None) is None and not hasattr(tf, "__version__"):
        paths = ", ".join(base["location"]["locations"])
        failure = {
            "status": "import-error",
            "error_type": "NamespacePackage",
            "error_message": (
                f"'tensorflow' imported as an empty namespace package from {paths}: a "
                "directory without __init__.py, often left behind by an uninstall"
            ),
        }
        _emit(marker, dict(base, phase="done", errors=_ERRORS, **failure))
        return 0

    doc = dict(base, phase="done", status="ok")
    doc.update(_describe(tf))
    doc["errors"] = _ERRORS
    _emit(marker, doc)
    return 0


if __name__ == "__main__":
    _status = main(sys.argv)
    sys.stdout.flush()
    sys.stderr.flush()
    # Interpreter shutdown after importing TensorFlow costs about half a second and runs
    # TF's atexit handlers, which have crashed on broken installs; all output is flushed.
    os._exit(_status)
