"""The packages of the conda environment the examined interpreter lives in.

conda (and mamba, pixi, rattler) records each installed package as
``<prefix>/conda-meta/<name>-<version>-<build>.json`` (the "prefix record"). The files hold
every installed path and can run to megabytes (cudatoolkit's), while the four keys wanted
here come early: conda writes its keys sorted (``build``, ``build_number``, ``channel``, ...)
and rattler writes ``name``, ``version``, ``build``, ``channel`` first. So only the head of
each file is read, and what it lacks comes from the file name, whose three parts conda's
package specification fixes (neither version nor build may contain ``-``:
https://docs.conda.io/projects/conda-build/en/latest/resources/package-spec.html).
"""

from __future__ import annotations

import json
import os
import re
import traceback
from pathlib import Path
from typing import Optional
from urllib.parse import urlsplit

from tfdoctor.bounded import parse_json
from tfdoctor.facts import CondaFacts, CondaPackage, ProbeError

PROBE = "conda"

#: Bytes read from the start of each record; enough for the keys before ``files``.
HEAD_BYTES = 8 * 1024

# A top-level string key as both writers lay it out (two-space indent: conda's json.dump and
# serde_json's pretty printer); nested keys sit deeper, so they never match.
_KEY = re.compile(r'^[ \t]{0,2}"(name|version|build|channel)"\s*:\s*"((?:[^"\\]|\\.)*)"', re.M)
# Platform subdirectories that end a channel URL (conda's known subdirs, conda/base/constants.py).
_SUBDIR = re.compile(r"^(noarch|(linux|osx|win|emscripten|wasi|zos|freebsd)-[a-z0-9_]+)$")
_ANACONDA_HOSTS = ("conda.anaconda.org", "anaconda.org", "repo.anaconda.com")


def parse_channel(channel: str, build: str = "") -> str:
    """A channel's short name (``https://conda.anaconda.org/conda-forge/linux-64``: conda-forge).

    ``repo.anaconda.com/pkgs/main`` reads ``pkgs/main``; a mirror's URL reads as its last
    component(s) the same way; ``pypi`` for the ``pypi_0`` builds ``conda list`` shows for
    packages pip installed.
    """
    if build.startswith("pypi_") or channel == "pypi":
        return "pypi"
    if "://" not in channel:
        return channel.strip("/")
    url = urlsplit(channel)
    parts = [p for p in url.path.split("/") if p]
    if parts and _SUBDIR.match(parts[-1]):
        parts.pop()
    if url.hostname in _ANACONDA_HOSTS:
        return "/".join(parts)
    if len(parts) >= 2 and parts[-2] == "pkgs":
        return "/".join(parts[-2:])
    return parts[-1] if parts else channel


def _unescape(text: str) -> str:
    """A JSON string's body as its value (``\\/`` -> ``/``); left as is when malformed."""
    try:
        value = json.loads(f'"{text}"')
    except ValueError:
        return text
    return value if isinstance(value, str) else text


def parse_record_name(filename: str) -> Optional[tuple[str, str, str]]:
    """(name, version, build) from ``cudatoolkit-11.8.0-h6a678d5_0.json``."""
    stem = filename.removesuffix(".json")
    parts = stem.rsplit("-", 2)
    if len(parts) != 3 or not all(parts):
        return None
    return parts[0], parts[1], parts[2]


def parse_conda_record(filename: str, head: str, complete: bool) -> Optional[CondaPackage]:
    """One package from a record's file name and the text of its head.

    ``complete`` says ``head`` is the whole file, which is then read as JSON; a head cut
    short is searched for the top-level keys. None when neither names a package.
    """
    fields: dict[str, str] = {}
    if complete:
        try:
            doc = parse_json(head, filename, "a conda record")
        except ValueError:  # not JSON, or nested past any record's shape: read as cut short
            doc = None
        if isinstance(doc, dict):
            fields = {k: v for k, v in doc.items() if k in ("name", "version", "build", "channel")}
            fields = {k: v for k, v in fields.items() if isinstance(v, str)}
    if not fields:
        # The path lists that make the files large come after the wanted keys (in both
        # layouts); searching stops where they start.
        ends = [i for i in (head.find('"files":'), head.find('"paths_data":')) if i >= 0]
        for key, value in _KEY.findall(head, 0, min(ends, default=len(head))):
            fields.setdefault(key, _unescape(value))
    from_name = parse_record_name(filename)
    if from_name is not None:
        for key, value in zip(("name", "version", "build"), from_name):
            fields.setdefault(key, value)
    if not fields.get("name") or not fields.get("version"):
        return None
    build = fields.get("build", "")
    return CondaPackage(
        name=fields["name"],
        version=fields["version"],
        build=build,
        channel=parse_channel(fields.get("channel", ""), build),
    )


def read_conda_meta(prefix: str, head_bytes: int = HEAD_BYTES) -> list[tuple[str, str, bool]]:
    """(file name, head text, whether the head is the whole file) per ``conda-meta/*.json``."""
    records = []
    meta = Path(prefix, "conda-meta")
    try:
        with os.scandir(meta) as entries:
            names = sorted(e.name for e in entries if e.name.endswith(".json"))
    except OSError:
        return []
    for path in (meta / n for n in names):
        try:
            with path.open("rb") as handle:
                data = handle.read(head_bytes + 1)
        except OSError:
            continue
        complete = len(data) <= head_bytes
        records.append((path.name, data[:head_bytes].decode("utf-8", "replace"), complete))
    return records


def probe_conda(prefix: Optional[str], head_bytes: int = HEAD_BYTES) -> Optional[CondaFacts]:
    """The conda environment at ``prefix``, or None when it is not one; never raises."""
    if not prefix or not Path(prefix, "conda-meta").is_dir():
        return None
    try:
        packages = [
            pkg
            for name, head, complete in read_conda_meta(prefix, head_bytes)
            if (pkg := parse_conda_record(name, head, complete)) is not None
        ]
    # A probe records instead of raising; the traceback names the bug.
    except Exception as exc:
        return CondaFacts(
            prefix=prefix,
            error=ProbeError(PROBE, "crashed", str(exc), traceback.format_exc()),
        )
    packages.sort(key=lambda p: (p.name, p.version))
    return CondaFacts(prefix=prefix, packages=tuple(packages))
