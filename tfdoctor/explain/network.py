"""Builders for the network: downloads, index hosts and certificates."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.explain.common import cite, hits_by, warned_of
from tfdoctor.explain.revealed import Revealed
from tfdoctor.explain.scanning import Evidence, Hits
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine

#: pip's own words around a connection to its index: its vendored urllib3's module path and
#: "Could not fetch URL" (pip/_internal/index/collector.py).
_PIP_INDEX_WORDS = ("pip._vendor", "Could not fetch URL")


def _cert_path_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
) -> Optional[Finding]:
    """Python's certificate verification refusing an issuer it does not trust (Modules/_ssl.c:
    "certificate verify failed", OpenSSL's reason after it from Python 3.7 on): the machine's
    store leads (the finding's fix ranks it, then a TLS-intercepting proxy), and the host or
    a filter on the network path to it, which no setting here changes, is the last
    candidate, a warning of its own cause with its own fix: fetch the file by another
    route."""
    hits = hits_by(by_cause, causes.network.PYTHON_CA_CERTS_MISSING, "ssl-issuer-not-trusted")
    led = warned_of(findings, causes.network.PYTHON_CA_CERTS_MISSING)
    if not hits or not led or f"explain.{causes.network.DOWNLOAD_HOST_UNREACHABLE}" in findings:
        return None
    if any(w in line for h in hits for _, line in h.citations for w in _PIP_INDEX_WORDS):
        # pip's index: its file has no loader's cache to take another route into, and the
        # filter on the way is the lead's first step already (an intercepting proxy).
        return None
    return causes.other_candidate(
        causes.network.DOWNLOAD_HOST_UNREACHABLE,
        "the download host or a filter on the way to it",
        cite(hits) + "\nThe words say only that no CA this Python trusts signed the "
        "certificate it received: a server's incomplete chain or a network that answers for "
        "the host fails the same way as a store without the CA.",
        causes.network.cert_path_fix(_download_url(hits)),
    )


#: A downloaded file's URL in a cited line, or the host urllib3 names (host='pypi.org').
_DOWNLOAD_URL = re.compile(
    r"https?://[^\s'\"<>()]{1,300}|host='(?P<host>[\w.-]{1,253})'"
    # libcurl's details (TensorFlow's HTTP client): "Could not resolve host: NAME",
    # "Failed to connect to NAME port 443".
    r"|(?:resolve host:|connect to) (?P<curl_host>[\w-]{1,63}(?:\.[\w-]{1,63}){1,8})"
)
#: The system's words for a failed connection, as the cited line gives them (Winsock's run to
#: 180 characters: WSAETIMEDOUT's "A connection attempt failed because ... has failed to
#: respond").
_NETWORK_ERROR = re.compile(
    r"\[(?:Errno|WinError) -?\d+\] [^'\"<>()\n]{1,200}|Connection to [\w.-]{1,253} timed out"
    r"|Read timed out|urlopen error timed out|libcurl code \d+ meaning '[^'\n]{1,80}'"
)
#: OpenSSL's reason for a failed verification, after Python 3.7's colon.
_VERIFY_REASON = re.compile(r"certificate verify failed: ([^(\n'>]{1,160})")
#: The ranking of the candidates for each kind of failed connection: no route or no name
#: server first where the system found none, a proxy first where the direct connection was
#: refused or dropped, the host's route first where it connected and then stalled.
_NETWORK_ORDER: dict[str, tuple[str, ...]] = {
    "download-network-unreachable": ("no-network", "proxy", "host"),
    "download-name-unresolved": ("no-network", "proxy", "host"),
    "download-name-unknown": ("no-network", "proxy", "host"),
    "download-getaddrinfo-failed": ("no-network", "proxy", "host"),
    "download-name-no-address": ("no-network", "proxy", "host"),
    "download-no-route-to-host": ("no-network", "proxy", "host"),
    "download-winsock-unreachable": ("no-network", "proxy", "host"),
    "download-connection-refused": ("proxy", "host", "no-network"),
    "download-connection-timed-out": ("proxy", "host", "no-network"),
    "download-winsock-no-response": ("proxy", "host", "no-network"),
    "download-read-timed-out": ("host", "proxy", "no-network"),
    "tf-http-host-unresolved": ("no-network", "proxy", "host"),
    "tf-http-connect-failed": ("proxy", "host", "no-network"),
}


#: The causes of a download whose connection failed.
_CONNECTION_CAUSES = (
    causes.network.NO_NETWORK_ACCESS,
    causes.network.PROXY_NOT_CONFIGURED,
    causes.network.DOWNLOAD_HOST_UNREACHABLE,
)


def _download_url(hits: Sequence[Hits]) -> Optional[str]:
    """The URL (or urllib3's host, as an https URL) the cited lines show, if any."""
    for h in hits:
        for _, line in h.citations:
            match = _DOWNLOAD_URL.search(line)
            if match is not None:
                host = match.group("host") or match.group("curl_host")
                return f"https://{host}" if host else match.group(0).rstrip(".:,;")
    return None


#: The host tfjs-node's install script downloads libtensorflow and its addon from by default
#: (tfjs-node/scripts/install.js, BASE_HOST).
_TFJS_HOST = "storage.googleapis.com"
#: Node's failed name lookup (signatures.yaml) and the host it names (lib/internal/errors.js,
#: dnsException: "getaddrinfo CODE HOST").
_NODE_DNS = "node-getaddrinfo-failed"
_NODE_LOOKUP = re.compile(r"\bgetaddrinfo (?:ENOTFOUND|EAI_AGAIN) (?P<host>[\w.-]{1,253})")


def _download_network(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A download whose connection failed: the candidates ranked by what the system said."""
    first = min(hits, key=lambda h: h.first)
    said_first = first.citations[0][1] if first.citations else ""
    if first.signature.id == _NODE_DNS and _TFJS_HOST in said_first:
        # tfjs-node's install script, whose download host and mirror setting are its own.
        return causes.network.NO_NETWORK_ACCESS, causes.network.tfjs_download_fix(
            m, _TFJS_HOST, r.tfjs_node_package or "tfjs-node"
        )
    order = _NETWORK_ORDER.get(first.signature.id, ("proxy", "host", "no-network"))
    said = " ".join(line for h in hits for _, line in h.citations)
    error = _NETWORK_ERROR.search(said)
    words = error.group(0).strip() if error is not None else first.signature.summary
    node = _NODE_LOOKUP.search(said_first) if first.signature.id == _NODE_DNS else None
    if node is not None:
        # Node's lookup of another host (a model or registry the program names): npm's and
        # Node's settings, not pip's.
        return causes.network.NETWORK_CAUSE[order[0]], causes.network.node_network_fix(
            m, order, node.group(0), node.group("host")
        )
    return causes.network.NETWORK_CAUSE[order[0]], causes.network.network_fix(
        m, order, words, _download_url(hits), slow=first.signature.id == "download-read-timed-out"
    )


def _ca_certs(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A certificate no trusted CA signed: python.org's macOS step where macOS may be the
    system, and the intercepting proxy first for clients that carry certifi's own bundle."""
    said = " ".join(line for h in hits for _, line in h.citations)
    # pip and requests verify with certifi's bundle (urllib3's "HTTPSConnectionPool", requests'
    # "SSLError("), not the interpreter's store: a missing store does not explain them.
    proxy_first = any(w in said for w in ("HTTPSConnectionPool", "SSLError(", "pip._vendor"))
    if r.os == "macos":
        macos: Optional[bool] = True
    elif r.os is not None:
        macos = False
    elif m.os is not None:
        macos = m.os == "macos"
    else:
        macos = None
    reason = _VERIFY_REASON.search(said)
    return causes.network.PYTHON_CA_CERTS_MISSING, causes.network.ca_certs_fix(
        m,
        macos,
        r.python,
        proxy_first=proxy_first,
        reason=reason.group(1).strip() if reason is not None else "",
        url=_download_url(hits),
    )


def _host_cert(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """One host's certificate that does not verify, with OpenSSL's reason."""
    said = " ".join(line for h in hits for _, line in h.citations)
    reason = _VERIFY_REASON.search(said)
    return causes.network.DOWNLOAD_HOST_CERT_UNVERIFIABLE, causes.network.host_cert_fix(
        m,
        reason.group(1).strip() if reason is not None else "certificate verify failed",
        _download_url(hits),
    )


#: A client's notice that it will try again: pip's (urllib3's Retry) and TensorFlow's own
#: (retrying_utils.cc). The program went on; alone, it does not say how the download ended.
_RETRY_NOTICE = re.compile(r"\bRetrying \(Retry\(|will be automatically retried")


def _retried_only(found: Finding, hits: Sequence[Hits], evidence: Evidence) -> Finding:
    """``found`` made a warning where a failed connection is read only from retry notices
    (every line its signatures matched is cited, and is one) and nothing else in the log
    failed: no refusal of pip's, no exception, no other cause's error line."""
    if (
        found.severity is not Severity.ERROR
        or found.cause not in _CONNECTION_CAUSES
        or evidence.refusals
        or any(not tb.warned for tb in evidence.tracebacks)
        or any(
            h.signature.severity == "error" and h.signature.cause not in _CONNECTION_CAUSES
            for h in evidence.hits.values()
        )
        or not all(
            h.count == len(h.citations)
            and all(_RETRY_NOTICE.search(line) for _, line in h.citations)
            for h in hits
        )
    ):
        return found
    return dataclasses.replace(
        found,
        severity=Severity.WARNING,
        detail=found.detail
        + "\nThe log shows only that the program tried again, not that the download failed in "
        "the end: harmful where the retries run out.",
    )


def _pip_unreached_index(by_cause: dict[str, list[Hits]]) -> None:
    """pip's empty list of releases after its connection failed is the connection's."""
    if any(
        "Retrying (Retry(" in line or "pip._vendor" in line
        for cause in _CONNECTION_CAUSES
        for h in by_cause.get(cause, ())
        for _, line in h.citations
    ):
        # pip could not reach its index: "from versions: none" then says nothing of the
        # wheels, only that pip saw none.
        by_cause.pop(causes.platform.TF_NO_WHEEL_FOR_PYTHON, None)
