"""sha256 hashes of pinned releases from the package index (``tfdoctor pin --hashes``).

Network access, only when asked (this and ``--resolve``). It reads the project's page of the
simple repository API as pip does: ``GET <index>/<name>/`` asking first for the JSON form
(PEP 691, ``application/vnd.pypi.simple.v1+json``, which lists every file of every release
with its ``hashes.sha256``), and reading the HTML form (PEP 503, a link per file whose URL
ends in ``#sha256=<hex>``) from an index that only has that. pip's hash-checking mode accepts
a requirement when any listed hash matches the file it downloads, so every file of the pinned
release, wheels and sdist, is listed (https://pip.pypa.io/en/stable/topics/secure-installs/),
as ``pip-compile --generate-hashes`` does.
"""

from __future__ import annotations

import dataclasses
import html.parser
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable, Optional

from tfdoctor.bounded import MAX_INDEX_PAGE_BYTES, InputError, parse_json, read_stream
from tfdoctor.pin import PinEntry, Pinset

if TYPE_CHECKING:
    from packaging.version import Version

#: The simple repository API of PyPI, the default index (pip's default ``--index-url``).
PYPI_SIMPLE = "https://pypi.org/simple"
#: The JSON form of a project page (PEP 691), version 1; the index answers HTML without it.
SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"
#: The HTML forms (PEP 691's name for PEP 503's page, and the plain type older indexes send).
SIMPLE_HTML = ("application/vnd.pypi.simple.v1+html", "text/html")
#: What pip asks for: JSON first, HTML from an index that has no JSON.
ACCEPT = f"{SIMPLE_JSON}, application/vnd.pypi.simple.v1+html; q=0.1, text/html; q=0.01"
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


def project_url(name: str, index_url: str = PYPI_SIMPLE) -> str:
    """The URL of a project's page on the index at ``index_url`` (PEP 503 name)."""
    from packaging.utils import canonicalize_name  # noqa: PLC0415

    return f"{index_url.rstrip('/')}/{canonicalize_name(name)}/"


class _Links(html.parser.HTMLParser):
    """The anchors of a PEP 503 page: (file name, URL) pairs."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self._href: Optional[str] = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, Optional[str]]]) -> None:
        if tag == "a":
            self._href = dict(attrs).get("href") or ""
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.links.append(("".join(self._text).strip(), self._href))
            self._href = None


def parse_simple_html(text: str) -> dict[str, Any]:
    """A PEP 503 project page in PEP 691's JSON shape (``files`` with their ``hashes``).

    A file's name is the link's text, else the last part of its URL's path; its digests are
    in the URL's fragment (``#sha256=<hex>``), as PEP 503 puts them.
    """
    parser = _Links()
    parser.feed(text)
    parser.close()
    files = []
    for label, href in parser.links:
        url = urllib.parse.urlsplit(href)
        filename = label or urllib.parse.unquote(url.path.rsplit("/", 1)[-1])
        algorithm, _, digest = url.fragment.partition("=")
        hashes = {algorithm: digest} if algorithm and digest else {}
        files.append({"filename": filename, "url": href, "hashes": hashes})
    return {"meta": {"api-version": "1.0"}, "files": files}


def fetch_project_json(name: str, index_url: str = PYPI_SIMPLE) -> Any:
    """The index's project page in PEP 691's JSON shape; :class:`HashError` on any failure.

    The HTML form of an index without the JSON one is read into the same shape; a
    ``file://`` index is a directory of ``<name>/index.html`` pages, as pip reads it.
    """
    url = project_url(name, index_url)
    if url.startswith("file:"):
        url += "index.html"
    request = urllib.request.Request(url, headers={"Accept": ACCEPT})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            kind = response.headers.get_content_type()
            body = read_stream(response, url, MAX_INDEX_PAGE_BYTES, "an index page").decode()
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            raise HashError(f"{name} is not on the package index {index_url}") from None
        raise HashError(f"{name}: the package index answered {exc.code}") from None
    except FileNotFoundError:
        raise HashError(f"{name} is not on the package index {index_url}") from None
    except InputError as exc:
        raise HashError(f"{name}: the package index page is unusable: {exc}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise HashError(f"{name}: cannot reach the package index ({exc})") from None
    if kind == SIMPLE_JSON:
        try:
            return parse_json(body, url, "an index page")
        except InputError as exc:
            raise HashError(f"{name}: the package index page is unusable: {exc}") from None
        except ValueError:
            raise HashError(f"{name}: the package index answered malformed JSON") from None
    if kind in SIMPLE_HTML:
        return parse_simple_html(body)
    raise HashError(f"{name}: the package index answered {kind}, not a simple API page")


def add_hashes(pinset: Pinset, fetch: Fetch = fetch_project_json, workers: int = 8) -> Pinset:
    """``pinset`` with every pinned entry's hashes; :class:`HashError` if any is missing.

    pip's hash-checking mode needs every requirement pinned with ``==``, so ranges (target
    mode) cannot be hashed.
    """
    pinned = [e for e in pinset.entries if e.pinned]
    ranges = [e.name for e in pinned if e.exact_version is None]
    if ranges:
        raise HashError(
            f"hashes need exact versions; {', '.join(ranges)} are ranges (add --resolve to pin "
            "the target exactly, or pin an environment)"
        )

    def one(entry: PinEntry) -> tuple[str, ...]:
        version = entry.exact_version or ""
        found = parse_release_hashes(fetch(entry.name), entry.name, version)
        # Digests already known (the file pip chose, from its report) stay, with the index's.
        return tuple(sorted(set(found) | set(entry.hashes)))

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        found: Sequence[tuple[str, ...]] = list(pool.map(one, pinned))
    by_name = {e.name: h for e, h in zip(pinned, found)}
    entries = tuple(
        dataclasses.replace(e, hashes=by_name[e.name]) if e.name in by_name else e
        for e in pinset.entries
    )
    return dataclasses.replace(pinset, entries=entries)
