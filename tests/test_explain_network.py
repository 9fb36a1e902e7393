"""Downloads that fail on the machine's side (Keras' get_file, urllib, requests, pip): a
certificate no trusted CA signed, a host's own certificate, a connection refused, timed out or
without a route: the causes and the candidates, ranked by what the system said."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Severity

_WEIGHTS = "https://storage.googleapis.com/tensorflow/keras-applications/vgg16/vgg16_weights.h5"


def _get_file(reason: str, errno: str = "None") -> str:
    return (
        f"Downloading data from {_WEIGHTS}\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/train.py", line 9, in <module>\n'
        "    model = VGG16(weights='imagenet')\n"
        f"Exception: URL fetch failure on {_WEIGHTS}: {errno} -- {reason}\n"
    )


def test_an_issuer_the_python_does_not_have_is_its_ca_store() -> None:
    text = _get_file(
        "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local "
        "issuer certificate (_ssl.c:1129)"
    )
    top = top_error(explained(text))
    assert top.cause == "python-ca-certs-missing"
    fix = fix_text(top)
    assert "certifi" in fix and "SSL_CERT_FILE" in fix and "storage.googleapis.com:443" in fix
    # Never verification turned off, except as the warning against it.
    assert "verify=False" not in fix.replace("(verify=False)", "")


def test_the_host_or_a_filter_on_the_way_is_the_last_candidate_with_its_own_fix() -> None:
    # The store leads; the host's side (an incomplete chain, a filter answering for the host)
    # fails with the same words and is a warning of its own cause after it.
    text = _get_file(
        "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local "
        "issuer certificate (_ssl.c:1129)"
    )
    report = explained(text)
    ranked = [x for x in report.findings if x.severity.rank >= Severity.WARNING.rank]
    assert [x.cause for x in ranked] == ["python-ca-certs-missing", "download-host-unreachable"]
    other = ranked[1]
    assert other.severity is Severity.WARNING and other.summary.endswith("(the other candidate)")
    fix = fix_text(other)
    assert "openssl s_client -connect storage.googleapis.com:443" in fix
    assert "another route" in fix and "Install Certificates" not in fix
    assert "SSL_CERT_FILE" not in fix


def test_the_hosts_own_certificate_has_no_second_candidate() -> None:
    text = _get_file(
        "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: certificate has expired "
        "(_ssl.c:1006)"
    )
    assert "download-host-unreachable" not in [x.cause for x in explained(text).findings]


def test_a_hosts_own_port_is_the_one_openssl_connects_to() -> None:
    text = (
        "Exception: URL fetch failure on https://mirror.example.org:8443/data/cifar10.npz: None "
        "-- [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local "
        "issuer certificate (_ssl.c:1129)\n"
    )
    for x in explained(text).findings:
        if x.severity.rank >= Severity.WARNING.rank:
            fix = fix_text(x)
            assert "s_client -connect mirror.example.org:8443 " in fix, (x.id, fix)
            assert ":8443:443" not in fix


def test_pips_index_behind_an_untrusted_issuer_has_no_loaders_cache_candidate() -> None:
    # pip's file has no loader's cache to take another route into; the filter on the way is
    # the lead's intercepting proxy.
    said = (
        "SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate "
        "verify failed: unable to get local issuer certificate (_ssl.c:1123)'))"
    )
    text = (
        "Could not fetch URL https://pypi.org/simple/tensorflow/: There was a problem "
        "confirming the ssl certificate: HTTPSConnectionPool(host='pypi.org', port=443): Max "
        f"retries exceeded with url: /simple/tensorflow/ (Caused by {said}) - skipping\n"
        "ERROR: No matching distribution found for tensorflow\n"
    )
    report = explained(text)
    assert top_error(report).cause == "python-ca-certs-missing"
    assert "download-host-unreachable" not in [x.cause for x in report.findings]


def test_python_orgs_macos_python_gets_its_own_step_with_its_version() -> None:
    text = (
        '  File "/Library/Frameworks/Python.framework/Versions/3.6/lib/python3.6/urllib/'
        'request.py", line 1320, in do_open\n'
        "urllib.error.URLError: <urlopen error [SSL: CERTIFICATE_VERIFY_FAILED] certificate "
        "verify failed (_ssl.c:852)>\n"
    )
    top = top_error(explained(text))
    assert top.cause == "python-ca-certs-missing"
    assert '"/Applications/Python 3.6/Install Certificates.command"' in fix_text(top)


def test_a_linux_python_is_not_told_of_macos_installer() -> None:
    text = (
        '  File "/usr/lib/python3.10/urllib/request.py", line 1351, in do_open\n'
        "urllib.error.URLError: <urlopen error [SSL: CERTIFICATE_VERIFY_FAILED] certificate "
        "verify failed: unable to get local issuer certificate (_ssl.c:997)>\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "Install Certificates" not in fix and "pip install --upgrade certifi" in fix


def test_a_client_with_certifis_bundle_puts_the_intercepting_proxy_first() -> None:
    text = (
        "requests.exceptions.SSLError: HTTPSConnectionPool(host='tfhub.dev', port=443): Max "
        "retries exceeded with url: /google/x/1 (Caused by SSLError(SSLCertVerificationError(1, "
        "'[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate "
        "in certificate chain (_ssl.c:1006)')))\n"
    )
    top = top_error(explained(text))
    assert top.cause == "python-ca-certs-missing"
    fix = fix_text(top)
    assert fix.index("intercepts TLS") < fix.index("no CA certificates")
    assert "REQUESTS_CA_BUNDLE" in fix


@pytest.mark.parametrize(
    "reason",
    [
        "certificate has expired",
        "Hostname mismatch, certificate is not valid for 'data.example.org'.",
        "self-signed certificate",
    ],
    ids=["expired", "hostname", "self-signed"],
)
def test_the_hosts_own_certificate_is_the_hosts(reason: str) -> None:
    text = _get_file(
        f"[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: {reason} (_ssl.c:1006)"
    )
    top = top_error(explained(text))
    assert top.cause == "download-host-cert-unverifiable"
    fix = fix_text(top)
    assert "date" in fix and "mirror" in fix and "Install Certificates" not in fix


def test_no_route_out_is_no_network_first_with_the_cache() -> None:
    top = top_error(explained(_get_file("[Errno 101] Network is unreachable")))
    assert top.cause == "no-network-access"
    fix = fix_text(top)
    assert "~/.keras/models" in fix and f"curl -I {_WEIGHTS}" in fix
    assert "vgg16_weights.h5 to ~/.keras/models/" in fix
    # The other candidates stay named, after it.
    assert fix.index("no outside network") < fix.index("proxy this process") < fix.index("blocked")


@pytest.mark.parametrize(
    "line",
    [
        "IOError: [Errno socket error] [Errno 111] Connection refused",
        "urllib.error.URLError: <urlopen error [Errno 110] Connection timed out>",
        "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) "
        "after connection broken by 'ConnectTimeoutError(<pip._vendor.urllib3.connection."
        "HTTPSConnection object at 0x7f>, 'Connection to pypi.org timed out. (connect "
        "timeout=15)')': /simple/tensorflow/\n"
        # pip's retries ran out (a retry notice alone is a warning).
        "ERROR: Could not find a version that satisfies the requirement tensorflow (from "
        "versions: none)",
    ],
    ids=["py2-refused", "urllib-timeout", "pip-connect-timeout"],
)
def test_a_refused_or_dropped_connection_is_a_proxy_first(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "proxy-not-configured"
    fix = fix_text(top)
    assert "HTTPS_PROXY" in fix and "env | grep -i proxy" in fix and "--proxy" in fix


@pytest.mark.parametrize(
    "line",
    [
        "urllib.error.URLError: <urlopen error [Errno -3] Temporary failure in name resolution>",
        "urllib.error.URLError: <urlopen error [Errno 8] nodename nor servname provided, or not "
        "known>",
        "urllib.error.URLError: <urlopen error [Errno 11001] getaddrinfo failed>",
    ],
    ids=["eai-again", "macos-noname", "windows"],
)
def test_a_name_that_does_not_resolve_names_every_candidate(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "no-network-access"
    fix = fix_text(top)
    assert "HTTPS_PROXY" in fix and "blocked" in fix and "curl -I" in fix


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (
            "urllib.error.URLError: <urlopen error [Errno 113] No route to host>",
            "[Errno 113] No route to host",
        ),
        (_get_file("[Errno 65] No route to host"), "[Errno 65] No route to host"),
        (
            "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='tfhub.dev', port=443)"
            ": Max retries exceeded with url: /google/imagenet/mobilenet_v2_100_224/"
            "feature_vector/5?tf-hub-format=compressed (Caused by NewConnectionError('<urllib3."
            "connection.HTTPSConnection object at 0x7f1c>: Failed to establish a new connection:"
            " [Errno 113] No route to host'))",
            "[Errno 113] No route to host",
        ),
        (
            "urllib.error.URLError: <urlopen error [WinError 10051] A socket operation was "
            "attempted to an unreachable network>",
            "[WinError 10051] A socket operation was attempted to an unreachable network",
        ),
        (
            _get_file("[WinError 10065] A socket operation was attempted to an unreachable host"),
            "[WinError 10065] A socket operation was attempted to an unreachable host",
        ),
        (
            "urllib.error.URLError: <urlopen error [Errno -5] No address associated with hostname>",
            "[Errno -5] No address associated with hostname",
        ),
        (
            "urllib.error.URLError: <urlopen error [Errno 11004] getaddrinfo failed>",
            "[Errno 11004] getaddrinfo failed",
        ),
    ],
    ids=[
        "linux-ehostunreach",
        "macos-ehostunreach-get-file",
        "requests-tfhub-ehostunreach",
        "winsock-net-unreachable",
        "winsock-host-unreachable-get-file",
        "eai-nodata",
        "winsock-no-data",
    ],
)
def test_no_route_or_no_address_in_each_systems_words_is_no_network_first(
    line: str, said: str
) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "no-network-access"
    fix = fix_text(top)
    assert f"({said})" in fix
    assert fix.index("no outside network") < fix.index("proxy this process") < fix.index("blocked")


@pytest.mark.parametrize(
    "text",
    [
        "urllib.error.URLError: <urlopen error [WinError 10060] A connection attempt failed "
        "because the connected party did not properly respond after a period of time, or "
        "established connection failed because connected host has failed to respond>\n",
        # pip's retries, then its empty list: the connection, not the wheels.
        "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) "
        "after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection."
        "HTTPSConnection object at 0x000001F2>: Failed to establish a new connection: [WinError "
        "10060] A connection attempt failed because the connected party did not properly "
        "respond after a period of time, or established connection failed because connected "
        "host has failed to respond')': /simple/tensorflow/\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow (from "
        "versions: none)\nERROR: No matching distribution found for tensorflow\n",
    ],
    ids=["urllib", "pip-retries-then-none"],
)
def test_winsocks_timeout_is_a_proxy_first_in_its_whole_words(text: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "proxy-not-configured"
    fix = fix_text(top)
    assert "connected host has failed to respond)" in fix
    assert fix.index("proxy this process") < fix.index("no outside network")


def test_a_read_timeout_is_the_route_to_the_host_with_a_longer_timeout() -> None:
    line = (
        "pip._vendor.urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool("
        "host='files.pythonhosted.org', port=443): Read timed out.\n"
    )
    top = top_error(explained(line))
    assert top.cause == "download-host-unreachable"
    fix = fix_text(top)
    assert "--timeout" in fix and "curl -I https://files.pythonhosted.org" in fix


@pytest.mark.parametrize(
    "line",
    [
        # A local server (TensorFlow Serving's REST port), not a download.
        "requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=8501): "
        "Max retries exceeded with url: /v1/models/m:predict (Caused by NewConnectionError("
        "'<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new "
        "connection: [Errno 111] Connection refused'))",
        # A proxy is set, and it is the one that failed.
        "WARNING: Retrying (Retry(total=4)) after connection broken by 'ProxyError('Cannot "
        "connect to proxy.', NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection"
        " object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection "
        "refused'))': /simple/tensorflow/",
        # The same errno outside any download: a kernel, a cluster peer.
        "ConnectionRefusedError: [Errno 111] Connection refused",
        "OSError: [Errno 101] Network is unreachable",
        "socket.gaierror: [Errno -3] Temporary failure in name resolution",
        "OSError: [Errno 113] No route to host",
        # A server on the local network (a model server the program calls).
        "requests.exceptions.ConnectionError: HTTPConnectionPool(host='192.168.1.20', port=8501)"
        ": Max retries exceeded with url: /v1/models/m:predict (Caused by NewConnectionError("
        "'<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new "
        "connection: [Errno 113] No route to host'))",
        # An HTTP answer is no network failure.
        f"Exception: URL fetch failure on {_WEIGHTS}: 404 -- Not Found",
        # A certificate error named in prose, not Python's ssl error.
        "INFO: retrying after certificate verify failed on the mirror",
    ],
    ids=[
        "local-server",
        "proxy-set",
        "bare-refused",
        "bare-unreachable",
        "bare-dns",
        "bare-no-route",
        "local-server-no-route",
        "http-404",
        "prose",
    ],
)
def test_the_same_words_elsewhere_are_not_a_download_cause(line: str) -> None:
    ids = {
        "python-ca-certs-missing",
        "download-host-cert-unverifiable",
        "proxy-not-configured",
        "download-host-unreachable",
        "no-network-access",
    }
    assert all(f.cause not in ids for f in explained(line + "\n").findings)


@pytest.mark.parametrize(
    ("line", "cause"),
    [
        (
            "tensorflow.python.framework.errors_impl.UnavailableError: Error executing an HTTP "
            "request: libcurl code 6 meaning 'Couldn't resolve host name', error details: Could "
            "not resolve host: storage.googleapis.com",
            "no-network-access",
        ),
        (
            "AbortedError: All 10 retry attempts failed. The last failure: Unavailable: Error "
            "executing an HTTP request: libcurl code 7 meaning 'Couldn't connect to server', "
            "error details: Failed to connect to storage.googleapis.com port 443: Connection "
            "timed out",
            "proxy-not-configured",
        ),
    ],
    ids=["curl-name", "curl-connect"],
)
def test_tensorflows_own_http_client_reading_gcs(line: str, cause: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == cause
    fix = fix_text(top)
    assert "curl -I https://storage.googleapis.com" in fix and "libcurl code" in fix


def test_the_gce_metadata_token_lookup_off_google_cloud_is_not_a_download() -> None:
    line = (
        "W tensorflow/tsl/platform/cloud/google_auth_provider.cc:184] All attempts to get a "
        "Google authentication bearer token failed, returning an empty token. Retrieving token "
        'from GCE failed with "FAILED_PRECONDITION: Error executing an HTTP request: libcurl '
        "code 6 meaning 'Couldn't resolve host name', error details: Could not resolve host: "
        'metadata.google.internal".\n'
    )
    assert all(f.cause != "no-network-access" for f in explained(line).findings)


def test_pips_empty_list_after_a_failed_connection_is_the_connection() -> None:
    text = (
        "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) "
        "after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection."
        "HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno -3] "
        "Temporary failure in name resolution')': /simple/tensorflow/\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow (from "
        "versions: none)\n"
        "ERROR: No matching distribution found for tensorflow\n"
    )
    report = explained(text)
    assert top_error(report).cause == "no-network-access"
    assert "--no-index --find-links" in fix_text(top_error(report))
    assert all(f.cause != "tf-no-wheel-for-python" for f in report.findings)


def test_pips_empty_list_alone_is_still_the_wheels() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow (from "
        "versions: none)\n"
    )
    assert any(f.cause == "tf-no-wheel-for-python" for f in explained(text).findings)


def test_tensorflow_datasets_is_told_the_variables_requests_reads() -> None:
    # TensorFlow Datasets downloads with requests, which reads HTTPS_PROXY and
    # REQUESTS_CA_BUNDLE (downloader.py's _sync_download); it reads no TFDS_* variable.
    line = (
        "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='storage.googleapis.com', "
        "port=443): Max retries exceeded with url: /tfds-data/dataset_info/mnist/3.0.1 (Caused "
        "by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f>: Failed to "
        "establish a new connection: [Errno 110] Connection timed out'))\n"
    )
    top = top_error(explained(line))
    assert top.cause == "proxy-not-configured"
    fix = fix_text(top)
    assert "HTTPS_PROXY" in fix and "REQUESTS_CA_BUNDLE" in fix
    assert "TFDS_" not in fix


def test_no_ca_fix_names_a_variable_tensorflow_datasets_does_not_read() -> None:
    line = (
        "requests.exceptions.SSLError: HTTPSConnectionPool(host='storage.googleapis.com', "
        "port=443): Max retries exceeded with url: /tfds-data/x (Caused by SSLError("
        "SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify "
        "failed: self-signed certificate in certificate chain (_ssl.c:1006)')))\n"
    )
    top = top_error(explained(line))
    assert top.cause == "python-ca-certs-missing"
    assert "TFDS_" not in fix_text(top)


_PIP_READ_RETRY = (
    "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) "
    "after connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='files."
    "pythonhosted.org', port=443): Read timed out. (read timeout=15)\")': /packages/ab/cd/"
    "tensorflow-2.15.0-cp311-cp311-manylinux_2_17_x86_64.whl\n"
)
_PIP_NAME_RETRY = (
    "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) "
    "after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection."
    "HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno -3] "
    "Temporary failure in name resolution')': /simple/numpy/\n"
)
_TF_RETRY = (
    "2023-01-01 10:00:00.000000: W tensorflow/tsl/platform/cloud/retrying_utils.cc:31] The "
    "operation failed and will be automatically retried in 1.23 seconds (attempt 1 out of 10), "
    "caused by: UNAVAILABLE: Error executing an HTTP request: libcurl code 28 meaning 'Timeout "
    "was reached', error details: Operation timed out after 10001 milliseconds\n"
)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            _PIP_READ_RETRY + "Successfully installed tensorflow-2.15.0\n", id="pip-read-retry"
        ),
        pytest.param(
            _PIP_NAME_RETRY + "Successfully installed numpy-1.26.4\n", id="pip-name-retry"
        ),
        pytest.param(_TF_RETRY + "Epoch 1/10\n", id="tensorflow-retry"),
    ],
)
def test_a_retry_the_program_went_on_after_is_no_error(text: str) -> None:
    found = [f for f in explained(text).findings if f.cause in _CONNECTION]
    assert found and all(f.severity.name == "WARNING" for f in found)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            _PIP_NAME_RETRY.replace("numpy", "tensorflow")
            + "ERROR: Could not find a version that satisfies the requirement tensorflow (from "
            "versions: none)\nERROR: No matching distribution found for tensorflow\n",
            id="pip-index-unreached",
        ),
        pytest.param(
            _TF_RETRY + "tensorflow.python.framework.errors_impl.AbortedError: All 10 retry "
            "attempts failed. The last failure: Unavailable: Error executing an HTTP request: "
            "libcurl code 28 meaning 'Timeout was reached', error details: Operation timed out\n",
            id="tensorflow-retries-spent",
        ),
        pytest.param(_PIP_READ_RETRY * 4, id="more-retries-than-cited"),
        pytest.param(
            _PIP_NAME_RETRY + "Traceback (most recent call last):\n"
            '  File "/srv/app.py", line 3, in <module>\n'
            "    import numpy\n"
            "ModuleNotFoundError: No module named 'numpy'\n",
            id="an-exception-after",
        ),
    ],
)
def test_retries_that_end_in_failure_stay_an_error(text: str) -> None:
    assert top_error(explained(text)).cause in _CONNECTION


@pytest.mark.parametrize(
    "host",
    [
        pytest.param("tf-serving", id="compose-service"),
        pytest.param("192.168.1.20", id="private-address"),
        pytest.param("172.17.0.1", id="docker-bridge"),
        pytest.param("host.docker.internal", id="docker-host"),
    ],
)
def test_a_service_on_the_local_network_is_no_download(host: str) -> None:
    # TensorFlow Serving's REST API (or any server the program calls) refused: not a proxy.
    line = (
        f"requests.exceptions.ConnectionError: HTTPConnectionPool(host='{host}', port=8501): "
        "Max retries exceeded with url: /v1/models/resnet:predict (Caused by NewConnectionError("
        "'<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new "
        "connection: [Errno 111] Connection refused'))\n"
    )
    assert not any(f.cause in _CONNECTION for f in explained(line).findings)


def test_a_public_hosts_refusal_is_still_read() -> None:
    line = (
        "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='tfhub.dev', port=443): "
        "Max retries exceeded with url: /google/x/1 (Caused by NewConnectionError('<urllib3."
        "connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: "
        "[Errno 111] Connection refused'))\n"
    )
    assert top_error(explained(line)).cause == "proxy-not-configured"


_CONNECTION = ("no-network-access", "proxy-not-configured", "download-host-unreachable")


def test_the_proxy_is_set_in_the_shells_of_the_system_the_log_shows() -> None:
    # Winsock's refusal and a Windows path: cmd's `set` and PowerShell's `$env:`, as
    # `export` is a command of neither.
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Users\\u\\train.py", line 9, in <module>\n'
        "urllib.error.URLError: <urlopen error [WinError 10061] No connection could be made "
        "because the target machine actively refused it>\n"
    )
    top = top_error(explained(text))
    assert top.cause == "proxy-not-configured"
    assert top.fix is not None
    commands = top.fix.commands
    assert "set HTTPS_PROXY=http://PROXY_HOST:PORT" in commands
    assert "set HTTP_PROXY=http://PROXY_HOST:PORT" in commands
    assert (
        '$env:HTTPS_PROXY = "http://PROXY_HOST:PORT"; $env:HTTP_PROXY = "http://PROXY_HOST:PORT"'
        in commands
    )
    assert not any(c.startswith("export ") for c in commands)
    # Nor does either shell have env, grep or mkdir -p, or read ~: the variables are listed
    # and Keras' cache folders made in each shell's own words.
    assert not any("grep" in c or "mkdir -p" in c or "~" in c for c in commands)
    assert "set HTTP" in commands
    assert "Get-ChildItem Env: | Where-Object Name -like '*proxy*'" in commands
    assert 'mkdir "%USERPROFILE%\\.keras\\models" "%USERPROFILE%\\.keras\\datasets"' in commands


def test_elsewhere_the_proxy_is_exported() -> None:
    top = top_error(explained("IOError: [Errno socket error] [Errno 111] Connection refused\n"))
    assert top.fix is not None
    assert (
        "export HTTPS_PROXY=http://PROXY_HOST:PORT HTTP_PROXY=http://PROXY_HOST:PORT"
        in top.fix.commands
    )
    assert "env | grep -i proxy" in top.fix.commands
    assert "mkdir -p ~/.keras/models ~/.keras/datasets" in top.fix.commands


# --- tfjs-node's install script fetching libtensorflow --------------------------------------


def _tfjs_install(error: str) -> str:
    return (
        "> @tensorflow/tfjs-node@4.20.0 install /srv/api/node_modules/@tensorflow/tfjs-node\n"
        "> node scripts/install.js\n"
        "* Downloading libtensorflow\n"
        f"Error: {error}\n"
        "    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:118:26) {\n"
    )


def test_tfjs_nodes_download_host_unresolved_names_its_mirror_setting() -> None:
    top = top_error(explained(_tfjs_install("getaddrinfo EAI_AGAIN storage.googleapis.com")))
    assert top.cause == "no-network-access"
    fix = fix_text(top)
    assert "TFJS_NODE_CDN_STORAGE" in fix and "nslookup storage.googleapis.com" in fix


@pytest.mark.parametrize("package", ["tfjs-node", "tfjs-node-gpu"])
def test_tfjs_nodes_install_is_of_the_package_the_log_shows(package: str) -> None:
    # tfjs-node-gpu runs the same install script: its own package is installed again.
    log = _tfjs_install("getaddrinfo ENOTFOUND storage.googleapis.com").replace(
        "tfjs-node", package
    )
    top = top_error(explained(log))
    assert top.fix is not None
    assert f"npm install @tensorflow/{package}" in top.fix.commands


def test_a_local_service_name_node_could_not_resolve_is_no_download() -> None:
    report = explained(_tfjs_install("getaddrinfo ENOTFOUND redis"))
    assert all(f.cause != "no-network-access" for f in report.findings)


def test_node_resolving_another_host_beside_tfjs_keeps_the_general_advice() -> None:
    top = top_error(explained(_tfjs_install("getaddrinfo ENOTFOUND registry.npmjs.org")))
    assert top.cause in ("no-network-access", "proxy-not-configured")
    assert "TFJS_NODE_CDN_STORAGE" not in fix_text(top)


@pytest.mark.parametrize("host", ["registry.npmjs.org", "tfhub.dev"])
def test_node_resolving_another_host_is_worded_for_npm_and_node(host: str) -> None:
    # Node's own lookup: npm's settings and the resolver, never pip's proxy option.
    top = top_error(explained(_tfjs_install(f"getaddrinfo ENOTFOUND {host}")))
    assert top.fix is not None
    assert f"nslookup {host}" in top.fix.commands
    assert "npm config set https-proxy http://PROXY_HOST:PORT" in top.fix.commands
    assert "pip" not in fix_text(top)
    assert "~/.keras" not in fix_text(top)


def test_tfjs_nodes_mirror_setting_is_set_in_the_way_of_a_windows_shell() -> None:
    # cmd and PowerShell run no `NAME=value command`: the variable is set on a line of its own.
    log = _tfjs_install("getaddrinfo ENOTFOUND storage.googleapis.com").replace(
        "/srv/api/node_modules/@tensorflow/tfjs-node",
        "C:\\api\\node_modules\\@tensorflow\\tfjs-node",
    )
    top = top_error(explained(log))
    assert top.fix is not None
    commands = top.fix.commands
    assert "set TFJS_NODE_CDN_STORAGE=https://MIRROR/" in commands
    assert '$env:TFJS_NODE_CDN_STORAGE = "https://MIRROR/"' in commands
    assert not [c for c in commands if c.startswith("TFJS_NODE_CDN_STORAGE=")]
