"""sha256 hashes of pinned releases from the package index (``tfdoctor pin --hashes``).

The only network access in tfdoctor, and only when asked. It reads PyPI's JSON API,
``GET /pypi/<name>/<version>/json``, whose ``urls`` list every file of the release with its
``digests.sha256`` (https://docs.pypi.org/api/json/#get-a-release). pip's hash-checking mode
accepts a requirement when any listed hash matches the file it downloads, so every file of
the release is listed (https://pip.pypa.io/en/stable/topics/secure-installs/).
"""

from __future__ import annotations

import dataclasses
import json
import re
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from tfdoctor.pin import PinEntry, Pinset

#: The index's JSON API for one release.
INDEX_URL = "https://pypi.org/pypi/{name}/{version}/json"
#: Seconds per request.
TIMEOUT = 20.0

Fetch = Callable[[str, str], Any]

_SHA256_RE = re.compile(r"^[0-9a-f]{64}$")


class HashError(RuntimeError):
    """Hashes could not be obtained (network, unknown release, malformed answer)."""


def parse_release_hashes(data: Any, name: str, version: str) -> tuple[str, ...]:
    """``sha256:<hex>`` of every file in a release JSON document, sorted."""
    urls = data.get("urls") if isinstance(data, dict) else None
    if not isinstance(urls, list):
        raise HashError(f"{name}=={version}: the index answered without a file list")
    digests = set()
    for item in urls:
        sha = item.get("digests", {}).get("sha256") if isinstance(item, dict) else None
        if isinstance(sha, str) and _SHA256_RE.match(sha):
            digests.add(f"sha256:{sha}")
    if not digests:
        raise HashError(f"{name}=={version}: the index lists no files with sha256 digests")
    return tuple(sorted(digests))


def fetch_release_json(name: str, version: str) -> Any:
    """The index's JSON document for one release; :class:`HashError` on any failure."""
    url = INDEX_URL.format(name=name, version=version)
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            raise HashError(f"{name}=={version} is not on the package index") from None
        raise HashError(f"{name}=={version}: the package index answered {exc.code}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise HashError(f"{name}=={version}: cannot reach the package index ({exc})") from None


def add_hashes(pinset: Pinset, fetch: Fetch = fetch_release_json, workers: int = 8) -> Pinset:
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
        return parse_release_hashes(fetch(entry.name, version), entry.name, version)

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        found: Sequence[tuple[str, ...]] = list(pool.map(one, pinned))
    by_name = {e.name: h for e, h in zip(pinned, found)}
    entries = tuple(
        dataclasses.replace(e, hashes=by_name[e.name]) if e.name in by_name else e
        for e in pinset.entries
    )
    return dataclasses.replace(pinset, entries=entries)
