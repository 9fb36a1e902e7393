"""sha256 hashes of pinned releases from the package index (``tfdoctor pin --hashes``).

The only network access in tfdoctor, and only when asked. It reads the project's page of the
simple repository API in its JSON form, as pip does (PEP 691): ``GET /simple/<name>/`` with
``Accept: application/vnd.pypi.simple.v1+json`` lists every file of every release with its
``hashes.sha256``. pip's hash-checking mode accepts a requirement when any listed hash matches
the file it downloads, so every file of the pinned release, wheels and sdist, is listed
(https://pip.pypa.io/en/stable/topics/secure-installs/), as ``pip-compile --generate-hashes``
does.
"""

from __future__ import annotations

import dataclasses
import json
import re
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable, Optional

from tfdoctor.pin import PinEntry, Pinset

if TYPE_CHECKING:
    from packaging.version import Version

#: A project's page of the simple repository API (PEP 503 name).
INDEX_URL = "https://pypi.org/simple/{name}/"
#: The JSON form of that page (PEP 691), version 1; the index answers HTML without it.
SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"
#: Seconds per request.
TIMEOUT = 20.0

#: ``fetch(name)``: the project's page as parsed JSON.
Fetch = Callable[[str], Any]

_SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
#: Older sdist archive suffixes packaging's sdist parser does not know (pip still installs
#: them); read as ``.tar.gz`` to find the version.
_OLD_SDIST_SUFFIXES = (".tar.bz2", ".tbz", ".tar.xz", ".txz", ".tgz", ".tar")


class HashError(RuntimeError):
    """Hashes could not be obtained (network, unknown release, malformed answer)."""


def _name_and_version(filename: str) -> Optional[tuple[str, Version]]:
    """The (PEP 503 name, version) a wheel or sdist file name carries; None for others."""
    from packaging.utils import (  # noqa: PLC0415 - packaging loads with --hashes only
        InvalidSdistFilename,
        InvalidWheelFilename,
        parse_sdist_filename,
        parse_wheel_filename,
    )
    from packaging.version import InvalidVersion  # noqa: PLC0415

    try:
        if filename.endswith(".whl"):
            name, version, _build, _tags = parse_wheel_filename(filename)
            return name, version
        for suffix in _OLD_SDIST_SUFFIXES:
            if filename.endswith(suffix):
                filename = filename[: -len(suffix)] + ".tar.gz"
                break
        return parse_sdist_filename(filename)
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        return None  # eggs, installers, odd names: pip does not install those either


def parse_release_hashes(data: Any, name: str, version: str) -> tuple[str, ...]:
    """``sha256:<hex>`` of every file of ``name==version`` on a PEP 691 project page, sorted.

    Versions compare as pip compares them (``1.17`` is ``1.17.0``); the name in a file name
    must be the project's, as pip requires before it downloads a file.
    """
    from packaging.utils import canonicalize_name  # noqa: PLC0415
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415

    meta = data.get("meta") if isinstance(data, dict) else None
    api = str(meta.get("api-version", "")) if isinstance(meta, dict) else ""
    files = data.get("files") if isinstance(data, dict) else None
    # PEP 691: a client must refuse a major version of the API it does not know.
    if api.split(".")[0] != "1" or not isinstance(files, list):
        raise HashError(f"{name}=={version}: the index answered without a file list")
    try:
        wanted = (canonicalize_name(name), Version(version))
    except InvalidVersion:
        raise HashError(f"{name}=={version}: not a version the index can list") from None
    digests = set()
    for item in files:
        if not isinstance(item, dict) or _name_and_version(str(item.get("filename"))) != wanted:
            continue
        hashes = item.get("hashes")
        sha = hashes.get("sha256") if isinstance(hashes, dict) else None
        if isinstance(sha, str) and _SHA256_RE.match(sha):
            digests.add(f"sha256:{sha}")
    if not digests:
        raise HashError(f"{name}=={version}: the index lists no files with sha256 digests")
    return tuple(sorted(digests))


def fetch_project_json(name: str) -> Any:
    """The index's PEP 691 JSON page for one project; :class:`HashError` on any failure."""
    request = urllib.request.Request(INDEX_URL.format(name=name), headers={"Accept": SIMPLE_JSON})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            kind = response.headers.get_content_type()
            if kind != SIMPLE_JSON:
                raise HashError(f"{name}: the package index answered {kind}, not {SIMPLE_JSON}")
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            raise HashError(f"{name} is not on the package index") from None
        raise HashError(f"{name}: the package index answered {exc.code}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise HashError(f"{name}: cannot reach the package index ({exc})") from None


def add_hashes(pinset: Pinset, fetch: Fetch = fetch_project_json, workers: int = 8) -> Pinset:
    """``pinset`` with every pinned entry's hashes; :class:`HashError` if any is missing.

    pip's hash-checking mode needs every requirement pinned with ``==``, so ranges (target
    mode) cannot be hashed.
    """
    pinned = [e for e in pinset.entries if e.pinned]
    ranges = [e.name for e in pinned if e.exact_version is None]
    if ranges:
        raise HashError(
            f"hashes need exact versions; {', '.join(ranges)} are ranges (pin an environment "
            "instead of a target)"
        )

    def one(entry: PinEntry) -> tuple[str, ...]:
        version = entry.exact_version or ""
        return parse_release_hashes(fetch(entry.name), entry.name, version)

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        found: Sequence[tuple[str, ...]] = list(pool.map(one, pinned))
    by_name = {e.name: h for e, h in zip(pinned, found)}
    entries = tuple(
        dataclasses.replace(e, hashes=by_name[e.name]) if e.name in by_name else e
        for e in pinset.entries
    )
    return dataclasses.replace(pinset, entries=entries)
