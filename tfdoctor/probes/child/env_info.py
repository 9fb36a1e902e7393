"""Describe this interpreter and its TensorFlow-related distributions as one JSON document.

Standard library only, Python 3.7+. The doctor imports :func:`collect` directly for its own
interpreter and runs this file by path for another one (``--python``).
"""

from __future__ import print_function

import json
import os
import platform
import re
import struct
import subprocess
import sys

try:  # Python 3.8+
    from importlib import metadata as _metadata
except ImportError:  # pragma: no cover - Python 3.7 without the backport
    _metadata = None  # type: ignore[assignment]

# Distributions worth reporting: the TensorFlow family, the pins that break most often, and
# every NVIDIA wheel (the CUDA libraries TensorFlow's `and-cuda` extra installs).
_FAMILY = re.compile(
    r"^(tensorflow.*|tf-.*|tb-nightly|tensorboard.*|intel-tensorflow.*|keras.*|numpy|protobuf"
    r"|ml-dtypes|h5py|nvidia-.*|jax|jaxlib|torch|typing-extensions|wrapt|grpcio|absl-py"
    r"|opt-einsum|flatbuffers|gast)$"
)
# Distributions whose file list is read to learn which top-level packages they write;
# RECORD of a TensorFlow wheel has ~10k lines, so only where it matters.
_RECORD_READ = re.compile(r"^(tensorflow.*|tf-nightly.*|intel-tensorflow.*)$")


def _normalize(name):
    # type: (str) -> str
    return re.sub(r"[-_.]+", "-", name).lower()


def _env_kind():
    # type: () -> str
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


def _rosetta():
    # type: () -> bool
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


def _site_packages():
    # type: () -> list
    dirs = []
    try:
        import site

        dirs.extend(site.getsitepackages())
        user = site.getusersitepackages()
        if isinstance(user, str):
            dirs.append(user)
    except (AttributeError, ImportError):
        pass
    for entry in sys.path:
        if entry.endswith(("site-packages", "dist-packages")) and entry not in dirs:
            dirs.append(entry)
    return [d for d in dirs if os.path.isdir(d)]


def _top_level(dist):
    # type: (object) -> list
    names = set()
    try:
        text = dist.read_text("top_level.txt")  # type: ignore[attr-defined]
    except (OSError, ValueError):
        text = None
    if text:
        names.update(line.strip() for line in text.splitlines() if line.strip())
        return sorted(names)
    try:
        record = dist.read_text("RECORD")  # type: ignore[attr-defined]
    except (OSError, ValueError):
        record = None
    for line in (record or "").splitlines():
        first = line.split(",", 1)[0].replace("\\", "/").split("/", 1)[0]
        if first and not first.endswith((".dist-info", ".data")) and first != "..":
            names.add(first[:-3] if first.endswith(".py") else first)
    return sorted(names)


def _editable(dist):
    # type: (object) -> bool
    try:
        text = dist.read_text("direct_url.json")  # type: ignore[attr-defined]
    except (OSError, ValueError):
        return False
    if not text:
        return False
    try:
        return bool(json.loads(text).get("dir_info", {}).get("editable", False))
    except ValueError:
        return False


def _packages():
    # type: () -> list
    if _metadata is None:
        return []
    seen = set()
    result = []
    for dist in _metadata.distributions():
        try:
            name = dist.metadata["Name"]
        except (KeyError, OSError):
            continue
        if not name:
            continue
        key = _normalize(name)
        # The first distribution on sys.path wins an import; later duplicates are shadowed.
        if key in seen or not _FAMILY.match(key):
            continue
        seen.add(key)
        try:
            location = str(dist.locate_file(""))
        except (OSError, ValueError):
            location = ""
        result.append(
            {
                "name": name,
                "version": dist.version or "",
                "location": location,
                "requires": list(dist.requires or []),
                "editable": _editable(dist),
                "top_level": _top_level(dist) if _RECORD_READ.match(key) else [],
            }
        )
    result.sort(key=lambda p: _normalize(p["name"]))
    return result


def _pip_version():
    # type: () -> object
    if _metadata is None:
        return None
    try:
        return _metadata.version("pip")
    except Exception:  # noqa: BLE001 - any metadata failure means "unknown"
        return None


def collect():
    # type: () -> dict
    """This interpreter, its machine as it sees it, and its TensorFlow-related packages."""
    return {
        "python": {
            "version": platform.python_version(),
            "implementation": platform.python_implementation(),
            "executable": sys.executable,
            "bits": struct.calcsize("P") * 8,
            "env_kind": _env_kind(),
            "prefix": sys.prefix,
            "base_prefix": getattr(sys, "base_prefix", sys.prefix),
            "pip_version": _pip_version(),
            "site_packages": _site_packages(),
        },
        "machine": platform.machine(),
        "rosetta": _rosetta(),
        "packages": _packages(),
    }


if __name__ == "__main__":
    sys.stdout.write(json.dumps(collect()))
    sys.stdout.flush()
