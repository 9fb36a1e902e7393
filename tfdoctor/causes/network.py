"""Causes a download shows: the machine's network, a proxy, a host, the CA certificates."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final, Optional

from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.causes.common import set_env, set_env_to_output
from tfdoctor.findings import Fix
from tfdoctor.machine import Machine

#: The ids of this area's causes, as explain names them.
PYTHON_CA_CERTS_MISSING: Final = CauseId("python-ca-certs-missing")
DOWNLOAD_HOST_CERT_UNVERIFIABLE: Final = CauseId("download-host-cert-unverifiable")
PROXY_NOT_CONFIGURED: Final = CauseId("proxy-not-configured")
DOWNLOAD_HOST_UNREACHABLE: Final = CauseId("download-host-unreachable")
NO_NETWORK_ACCESS: Final = CauseId("no-network-access")
DOWNLOAD_HASH_MISMATCH: Final = CauseId("download-hash-mismatch")

# Keras' get_file calls urllib's urlretrieve, which verifies with the ssl module's default
# CA store (keras/utils/data_utils.py; Lib/urllib/request.py); pip and requests carry
# certifi's bundle instead. python.org's macOS installer ships no CA store for its OpenSSL and
# leaves it to "Install Certificates.command" (Mac/BuildScript/resources/ReadMe.rtf).
_PYTHON_ORG_MAC = "https://github.com/python/cpython/blob/3.11/Mac/BuildScript/resources/ReadMe.rtf"
_SSL_DOCS = "https://docs.python.org/3/library/ssl.html#ssl.get_default_verify_paths"
_KERAS_GET_FILE = "https://www.tensorflow.org/api_docs/python/tf/keras/utils/get_file"
_PIP_PROXY = "https://pip.pypa.io/en/stable/user_guide/#using-a-proxy-server"
_PIP_HASHES = "https://pip.pypa.io/en/stable/topics/secure-installs/#hash-checking-mode"
# TensorFlow Datasets' downloader fetches with requests, which reads HTTP(S)_PROXY and
# REQUESTS_CA_BUNDLE (its _sync_download says so). Its own TFDS_HTTP(S)_PROXY and
# TFDS_CA_BUNDLE lived only in 2019's 1.x releases (pull requests 488 and 663), where the
# standard variables worked as well: no fix names them.
_TFDS_DOWNLOADER = (
    "https://github.com/tensorflow/datasets/blob/master/"
    "tensorflow_datasets/core/download/downloader.py"
)

CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            PYTHON_CA_CERTS_MISSING,
            "The downloading Python cannot verify certificates: no CA it trusts signed them",
            "Python's ssl module verifies a server against the CA certificates its OpenSSL "
            "finds (or, for pip and requests, certifi's bundle); where it finds none (python.org's "
            "macOS Python until its Install Certificates.command runs) or a TLS-intercepting "
            "proxy re-signs the connection with the organisation's own CA, every HTTPS download "
            "fails with CERTIFICATE_VERIFY_FAILED, whatever the host. TensorFlow and Keras are "
            "not at fault.",
            _PYTHON_ORG_MAC,
            _SSL_DOCS,
        ),
        define(
            DOWNLOAD_HOST_CERT_UNVERIFIABLE,
            "The download host's certificate cannot be verified",
            "The certificate one host presents is expired, names another host or is "
            "self-signed, while downloads from other hosts verify: the fault is on that server "
            "(or in a clock or CA bundle too old to judge it), not in TensorFlow.",
            _SSL_DOCS,
        ),
        define(
            PROXY_NOT_CONFIGURED,
            "The network needs a proxy the downloading process was not given",
            "Where the Internet is reachable only through a proxy, a process that connects "
            "directly (pip, Keras' get_file, TensorFlow Datasets, TF-Hub) is refused or times "
            "out; Python's clients use a proxy only when told (HTTPS_PROXY, HTTP_PROXY, pip's "
            "--proxy).",
            _PIP_PROXY,
            _TFDS_DOWNLOADER,
            "https://docs.python.org/3/library/urllib.request.html#urllib.request.getproxies",
        ),
        define(
            DOWNLOAD_HOST_UNREACHABLE,
            "The download host cannot be reached from this network",
            "The host a file comes from is blocked by a national or corporate filter, or the "
            "service itself is down or its name no longer resolves; the machine and TensorFlow "
            "are fine, and the file can come by another route.",
            _KERAS_GET_FILE,
        ),
        define(
            NO_NETWORK_ACCESS,
            "The machine has no outside network",
            "An air-gapped host or a cluster's compute nodes have no route out, so the first "
            "download of weights, datasets or modules fails ('Network is unreachable'); the "
            "files must be fetched elsewhere and put where the loader looks first.",
            _KERAS_GET_FILE,
            "https://www.tensorflow.org/datasets/overview#manual_download_if_download_fails",
        ),
        define(
            DOWNLOAD_HASH_MISMATCH,
            "A downloaded package is not the file its hash says",
            "pip checks each file it downloads against a hash, from the requirements file "
            "(--hash, a lock file Pipenv or pip-compile wrote) or from the index's link, and "
            "refuses one that differs: a download cut short or altered on the way (a proxy or "
            "a mirror serving another file, a corrupted entry of pip's cache; TensorFlow's "
            "wheels are hundreds of megabytes), or hashes written for other files than the "
            "ones pip chose (another release, another platform's wheel). The package itself "
            "is not at fault.",
            _PIP_HASHES,
        ),
    )
)


#: A candidate for a failed connection: what it is, what tells it apart, its fix, and the
#: commands of both (the test first).
NETWORK_CANDIDATES: Mapping[str, tuple[str, str, str]] = {
    "no-network": (
        "the machine has no outside network (an air-gapped host, a cluster's compute nodes)",
        "`curl -I URL` fails the same way on this machine and works on another",
        "download the file on a connected machine and put it where the loader looks first: "
        "Keras' get_file reads ~/.keras/models (applications' weights) and ~/.keras/datasets "
        "(keras.datasets) before downloading, a keras.applications model takes weights= the "
        "file's path, TensorFlow Datasets reads a prepared data_dir (tfds.load(name, "
        "data_dir=DIR, download=False)), TF-Hub a module directory or TFHUB_CACHE_DIR; pip "
        "installs from wheels downloaded elsewhere (pip download, then pip install "
        "--no-index --find-links)",
    ),
    "proxy": (
        "the network reaches the Internet only through a proxy this process was not given",
        "`env | grep -i proxy` shows no HTTPS_PROXY while a browser or the system settings use one",
        "give the process the proxy (HTTPS_PROXY and HTTP_PROXY set before starting "
        "Python or the notebook, which TensorFlow Datasets' downloader reads too; pip install "
        "--proxy); for a proxy that intercepts TLS, also its CA certificate (SSL_CERT_FILE, "
        "REQUESTS_CA_BUNDLE)",
    ),
    "host": (
        "the host is blocked on this network (a national or corporate filter) or down",
        "`curl -I URL` fails here, yet other sites load and the URL works from another network",
        "fetch the file by another route (another network, a VPN, a mirror) into the "
        "loader's cache as above, or wait for the service",
    ),
}

#: The proxy's address, for the user to fill in.
_PROXY = "http://PROXY_HOST:PORT"


#: On a Windows machine, cmd's line, then PowerShell's, of what sh's ``mkdir -p`` of Keras'
#: cache folders and ``env | grep -i proxy`` do: neither shell has ``env``, ``grep`` or
#: ``mkdir -p``, nor reads ``~`` (Keras' cache is os.path.expanduser("~")/.keras, the user's
#: profile folder there). cmd's ``set HTTP`` lists the variables whose names start with HTTP.
_WINDOWS_COMMANDS: Mapping[str, tuple[str, str]] = {
    "cache": (
        'mkdir "%USERPROFILE%\\.keras\\models" "%USERPROFILE%\\.keras\\datasets"',
        'New-Item -ItemType Directory -Force "$HOME\\.keras\\models", "$HOME\\.keras\\datasets"',
    ),
    "proxy": ("set HTTP", "Get-ChildItem Env: | Where-Object Name -like '*proxy*'"),
}


def _network_commands(m: Machine, key: str) -> tuple[str, ...]:
    """The commands of candidate ``key`` in the machine's shells (cmd's and PowerShell's on
    Windows, sh's elsewhere)."""
    windows = m.os == "windows"
    if key == "no-network":
        return (
            _WINDOWS_COMMANDS["cache"]
            if windows
            else ("mkdir -p ~/.keras/models ~/.keras/datasets",)
        )
    if key == "proxy":
        return (
            *(_WINDOWS_COMMANDS["proxy"] if windows else ("env | grep -i proxy",)),
            *set_env(m, ("HTTPS_PROXY", _PROXY), ("HTTP_PROXY", _PROXY)),
            # uv takes no --proxy (Machine.pip leaves it out there): it reads the variables
            # the line above sets.
            *m.pip(f"install --proxy {_PROXY} PACKAGE"),
        )
    return ()


#: The cause each candidate of a failed connection names.
NETWORK_CAUSE: Mapping[str, CauseId] = {
    "no-network": NO_NETWORK_ACCESS,
    "proxy": PROXY_NOT_CONFIGURED,
    "host": DOWNLOAD_HOST_UNREACHABLE,
}


def tfjs_download_fix(m: Machine, host: str, package: str = "tfjs-node") -> Fix:
    """tfjs-node's install script that could not resolve the host it downloads libtensorflow
    from (``host``): the name resolved, or the script pointed at a mirror of the same files
    (TFJS_NODE_CDN_STORAGE, read by tfjs-node/scripts/install.js and named in its README),
    set in the way of this machine's shell. ``package``: the one the log shows (tfjs-node-gpu
    runs the same script)."""
    return Fix(
        "tfjs-node's install script (scripts/install.js) downloads libtensorflow, and the "
        f"prebuilt addon, from {host}, and this machine could not resolve that name: the "
        "network, not TensorFlow. Check that the machine resolves it (its DNS, a VPN, a "
        "network that allows only a proxy); where the host is blocked or the machine is "
        "offline, point the script at a mirror that carries the same files with "
        "TFJS_NODE_CDN_STORAGE (tfjs-node's README), then install again.",
        (
            f"nslookup {host}",
            *set_env(m, ("TFJS_NODE_CDN_STORAGE", "https://MIRROR/")),
            f"npm install @tensorflow/{package}",
        ),
    )


#: The same candidates for Node and npm, whose words are their own: npm reads its proxy from
#: its configuration (``proxy``, ``https-proxy``; HTTPS_PROXY and HTTP_PROXY where unset) and
#: installs from its registry setting (https://docs.npmjs.com/cli/v10/using-npm/config#proxy,
#: #https-proxy, #registry); a name that does not resolve is the resolver's answer first
#: (``getaddrinfo ENOTFOUND``: EAI_NONAME; ``EAI_AGAIN``: no answer yet, Node's
#: lib/internal/errors.js dnsException).
NODE_NETWORK_CANDIDATES: Mapping[str, tuple[str, str, str]] = {
    "no-network": (
        "the machine has no outside network or no DNS resolver that answers for outside names "
        "(an air-gapped host, a container without DNS)",
        "`nslookup HOST` fails here and works on another machine",
        "install where the network reaches (then copy node_modules, or `npm pack` the "
        "packages), point npm at a registry this network reaches (`npm config set registry "
        "URL`), or give the machine or container a resolver",
    ),
    "proxy": (
        "the network reaches the Internet only through a proxy npm or Node was not given",
        "`npm config get https-proxy` prints null while a browser or the system settings use one",
        "give npm the proxy (npm config set proxy / https-proxy, or HTTPS_PROXY and "
        "HTTP_PROXY before it starts)",
    ),
    "host": (
        "the host's name does not resolve on this network (a filter, a typo in the URL or "
        "the registry setting) or the service is down",
        "`nslookup HOST` fails here, yet other names resolve",
        "check the URL or registry the program uses (`npm config get registry`), or reach "
        "the host by another route (another network, a VPN, a mirror)",
    ),
}


def _ranked_steps(
    candidates: Mapping[str, tuple[str, str, str]], order: Sequence[str], slot: str, target: str
) -> tuple[list[str], list[str]]:
    """The keys of ``candidates``, those in ``order`` first, and each one's numbered step
    (what it is, what tells it apart with ``slot`` replaced by ``target``, its fix)."""
    ranked = [*order, *(k for k in candidates if k not in order)]
    steps = []
    for number, key in enumerate(ranked, 1):
        what, tell, fix = candidates[key]
        steps.append(f"{number}. {what}: {tell.replace(slot, target)}; if so, {fix}.")
    return ranked, steps


def node_network_fix(m: Machine, order: Sequence[str], error: str, host: Optional[str]) -> Fix:
    """Node's or npm's name lookup that failed (``getaddrinfo ENOTFOUND HOST``) for a host
    other than a known download's: the candidates of :data:`NODE_NETWORK_CANDIDATES`, those
    in ``order`` first, in npm's and Node's words (no pip or Python advice)."""
    target = host or "HOST"
    _, steps = _ranked_steps(NODE_NETWORK_CANDIDATES, order, "HOST", target)
    return Fix(
        f"Node could not resolve {target} ({error}): the network or its settings, not "
        "TensorFlow. The candidates, most likely first: " + " ".join(steps),
        (
            f"nslookup {target}",
            "npm config get registry",
            "npm config get https-proxy",
            f"npm config set https-proxy {_PROXY}",
            f"npm config set proxy {_PROXY}",
        ),
    )


def network_fix(
    m: Machine, order: Sequence[str], error: str, url: Optional[str] = None, slow: bool = False
) -> Fix:
    """The candidates for a download whose connection failed on machine ``m``, those in
    ``order`` first, each with what tells it apart and its fix: ``error`` (the system's words)
    alone does not say which one it is. ``url``: the file the log shows, for the commands that
    test it; ``slow``: the connection was made and the data came too slowly (a longer timeout
    may do)."""
    target = url or "URL"
    ranked, steps = _ranked_steps(NETWORK_CANDIDATES, order, "URL", target)
    commands = [f"curl -I {target}"]
    commands += [c for key in ranked for c in _network_commands(m, key)]
    name = url.rstrip("/").rsplit("/", 1)[-1] if url and url.count("/") > 2 else ""
    if name:
        # get_file looks for the file under its own name before downloading it.
        steps.append(
            f"To bring this file by hand: `curl -L -O {url}` where it downloads, then copy "
            f"{name} to ~/.keras/models/ (weights) or ~/.keras/datasets/ (keras.datasets) "
            "here, or pass its path to the loader."
        )
    lead = f"The download failed before any data came ({error}): the connection, not TensorFlow."
    if slow:
        # urllib3's ReadTimeoutError: connected, then no data within the timeout; pip's own
        # default is 15 seconds (--timeout).
        lead = (
            f"The download connected and then waited too long for data ({error}): a slow or "
            "filtered route, not TensorFlow. A longer timeout may be enough (pip --timeout, "
            "--retries)."
        )
        retry = "install --timeout 120 --retries 10 PACKAGE"
        settings = m.pip_settings(retry)  # uv reads them from its variables
        commands[1:1] = (*(set_env(m, *settings) if settings else ()), *m.pip(retry))
    return Fix(
        lead + " The candidates, most likely first: " + " ".join(steps),
        tuple(dict.fromkeys(commands)),
    )


#: What python.org's macOS installer asks to be run once per Python (its ReadMe).
def _install_certificates(python: Optional[str]) -> str:
    if python:
        return f'open "/Applications/Python {python}/Install Certificates.command"'
    # The folder is named after the interpreter's X.Y: ask the interpreter.
    return (
        "open \"/Applications/Python $(python3 -c 'import sys; "
        'print("%d.%d" % sys.version_info[:2])\')/Install Certificates.command"'
    )


def ca_certs_fix(
    m: Machine,
    macos: Optional[bool],
    python: Optional[str],
    proxy_first: bool = False,
    reason: str = "",
    url: Optional[str] = None,
) -> Fix:
    """Certificates the downloading Python can verify with: python.org's macOS Python's own
    step where the log shows macOS (or does not show the system), certifi's bundle elsewhere,
    a TLS-intercepting proxy's CA; never verification turned off; the variables set in the
    shells of machine ``m``. ``macos``: True, False, or
    None where the log does not show the system; ``python``: the interpreter's X.Y the log
    shows; ``proxy_first``: the client carries certifi's bundle (pip, requests), so an
    intercepting proxy is the likelier; ``reason``: what OpenSSL said it lacked."""
    host = _tls_endpoint(url)
    store = "the Python has no CA certificates its ssl module uses"
    if macos is not False:
        store += (
            " (python.org's macOS Python until its Install Certificates.command has run: "
            f"`{_install_certificates(python)}`, once per Python)"
        )
    store_fix = (
        "install certifi's bundle and point the ssl module at it (SSL_CERT_FILE, set "
        "before Python starts)"
    )
    proxy = (
        "a proxy of the organisation intercepts TLS and re-signs the connection with its own "
        f"CA: `openssl s_client -connect {host} -showcerts </dev/null` shows that "
        "organisation as the issuer; if so, put the organisation's CA certificate (from its "
        "IT) in SSL_CERT_FILE and REQUESTS_CA_BUNDLE (which TensorFlow Datasets' downloader "
        "reads too; pip: pip config set global.cert FILE)"
    )
    local = (
        f'{store}: `python -c "import ssl; print(ssl.get_default_verify_paths())"` names a '
        f"cafile or capath that does not exist; if so, {store_fix}"
    )
    host_side = _cert_host_side(host)
    ranked = [proxy, local, host_side] if proxy_first else [local, proxy, host_side]
    steps = " ".join(f"{n}. {text}." for n, text in enumerate(ranked, 1))
    said = f" ({reason})" if reason else ""
    commands = []
    if macos is not False:
        commands.append(_install_certificates(python))
    commands += [
        *m.pip("install --upgrade certifi"),
        *set_env_to_output(m, "SSL_CERT_FILE", "python -m certifi"),
        *set_env(m, ("REQUESTS_CA_BUNDLE", "/path/to/organisation-ca.pem")),
    ]
    return Fix(
        f"Certificate verification failed{said}: the downloading Python could not find the CA "
        "that signed the server's certificate. The candidates, most likely first: "
        + steps
        + " Do not turn verification off (verify=False): it hides the fault and lets anyone "
        "on the path replace the file.",
        tuple(commands),
    )


def _tls_endpoint(url: Optional[str]) -> str:
    """``HOST:PORT`` for `openssl s_client -connect` from ``url`` (its own port where it names
    one, HTTPS's 443 otherwise; no user part); ``HOST:443`` where no URL is known."""
    if not url:
        return "HOST:443"
    netloc = url.split("://", 1)[-1].split("/", 1)[0].rsplit("@", 1)[-1]
    # A port follows the last colon, after an IPv6 address's closing bracket.
    if re.search(r":\d+$", netloc) and (not netloc.startswith("[") or "]:" in netloc):
        return netloc
    return f"{netloc}:443"


def _cert_host_side(host: str) -> str:
    """The host's side of a certificate that does not verify: its chain, or a filter on the
    way to it, told apart from this machine's store by other hosts verifying; ``host`` as
    :func:`_tls_endpoint` gives it."""
    return (
        "the host or the network path to it is at fault (a server that sends an incomplete "
        "chain, which browsers complete and Python does not; a filter that tampers with the "
        f"connection): other HTTPS hosts verify from this Python and `openssl s_client -connect "
        f"{host}` reports the server's own certificate unverifiable; if so, fetch the file by "
        "another route (a mirror, another network) into the loader's cache (~/.keras/models, "
        "~/.keras/datasets, TensorFlow Datasets' data_dir)"
    )


def cert_path_fix(url: Optional[str] = None) -> Fix:
    """A certificate that does not verify because of the host or the network path to it (the
    last candidate of :func:`ca_certs_fix`), as a fix of its own: the test, then another
    route to the file."""
    host = _tls_endpoint(url)
    side = _cert_host_side(host)
    return Fix(
        side[0].upper() + side[1:] + ". The machine's CA store and proxy settings are not "
        "at fault then: the download has to take another route.",
        (f"openssl s_client -connect {host} -showcerts </dev/null",),
    )


def host_cert_fix(m: Machine, reason: str, url: Optional[str] = None) -> Fix:
    """One host's certificate that does not verify: the clock and CA bundle checked first,
    then another route to the file."""
    target = url or "URL"
    return Fix(
        f"The server's certificate did not verify ({reason}). Check first that this machine is "
        "not the cause: its clock (`date`; a wrong date makes valid certificates look expired) "
        "and a CA bundle too old to know the server's CA (upgrade certifi). If "
        f"`curl -I {target}` fails the same from other machines, the host's certificate is at "
        "fault: download the file from a mirror or by another route into the loader's cache "
        "(~/.keras/models, ~/.keras/datasets, TensorFlow Datasets' manual_dir), or wait for the "
        "host to fix its certificate. TensorFlow Datasets' checksums still verify a file "
        "fetched with tfds.download.DownloadConfig(verify_ssl=False) for that one dataset; "
        "never turn verification off for every download.",
        ("date", *m.pip("install --upgrade certifi"), f"curl -I {target}"),
    )


#: How to tell which file is wrong: pip prints the hash it expected and the one it got, and
#: PyPI never lets a file be uploaded again under the same name
#: (https://pypi.org/help/#file-name-reuse), so PyPI's listed hash is the file's.
_WHICH_HASH = (
    "To tell a stale hash from an altered file, compare the `Got` hash pip printed with the "
    "sha256 PyPI lists for that "
    "file (the release's Download files, View hashes; PyPI never replaces a file): the same "
    "means the expected hash was written for another file; another means the file was "
    "changed on the way or came from an index that is not PyPI (a proxy or mirror serving "
    "another file, a private index where the release was uploaded again), which has to be "
    "bypassed or fixed."
)


def hash_mismatch_fix(m: Machine, pipenv: bool) -> Fix:
    """The file downloaded again, past pip's cache (``pipenv``: Pipenv's lock file holds the
    hashes, so its lock is made again), with how to tell a stale hash from an altered file."""
    if pipenv:
        return Fix(
            "Make Pipenv's lock again with its cache cleared (it records the hashes of the files "
            "the index serves now, for each platform's wheel), then install: a file cut short "
            f"on the way fails the same check again, so retry where the download completes. "
            f"{_WHICH_HASH}",
            ("pipenv lock --clear", "pipenv install"),
        )
    return Fix(
        "Download the file again past pip's cache: empty the cache, then run the same pip "
        "command with --no-cache-dir. Where the requirements file pins hashes "
        "(--hash=sha256:...) and its versions changed, or it was written on another platform, "
        f"write its hashes again on this one (pip-compile --generate-hashes). {_WHICH_HASH}",
        m.pip("cache purge"),
    )
