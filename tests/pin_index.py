"""A tiny package index for the resolver tests: wheels built here, served on 127.0.0.1.

The wheels are minimal but valid (``.dist-info`` with METADATA, WHEEL and RECORD); pip reads
their metadata to resolve, as it reads real ones. The index speaks PEP 503 (HTML pages whose
links carry ``#sha256=``), the form every index has; no network beyond the loopback.
"""

from __future__ import annotations

import base64
import hashlib
import html
import http.server
import io
import threading
import zipfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from packaging.utils import canonicalize_name


def wheel(
    name: str,
    version: str,
    tag: str,
    requires: Sequence[str] = (),
    extras: Sequence[str] = (),
    requires_python: str | None = None,
) -> tuple[str, bytes]:
    """(file name, bytes) of a wheel with these metadata and no code."""
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    meta = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    if requires_python:
        meta.append(f"Requires-Python: {requires_python}")
    meta.extend(f"Provides-Extra: {e}" for e in extras)
    meta.extend(f"Requires-Dist: {r}" for r in requires)
    files = {
        f"{info}/METADATA": "\n".join(meta) + "\n",
        f"{info}/WHEEL": (
            f"Wheel-Version: 1.0\nGenerator: tfdoctor-tests\nRoot-Is-Purelib: false\nTag: {tag}\n"
        ),
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{path},sha256={digest.decode()},{len(text.encode())}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = "\n".join(record) + "\n"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path, text in files.items():
            entry = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            archive.writestr(entry, text)
    return f"{dist}-{version}-{tag}.whl", buffer.getvalue()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Index:
    """Wheels by project, and the pages of a PEP 503 simple index over them."""

    def __init__(self, wheels: Sequence[tuple[str, tuple[str, bytes]]]) -> None:
        self.projects: dict[str, dict[str, bytes]] = {}
        for project, (filename, data) in wheels:
            self.projects.setdefault(canonicalize_name(project), {})[filename] = data
        self.requests: list[str] = []

    def files(self) -> dict[str, bytes]:
        return {name: data for files in self.projects.values() for name, data in files.items()}

    def page(self, path: str) -> tuple[int, str, bytes]:
        """(status, content type, body) for a request path."""
        self.requests.append(path)
        parts = [p for p in path.split("?", maxsplit=1)[0].split("/") if p]
        if parts == ["simple"]:
            links = "".join(f'<a href="{p}/">{p}</a>\n' for p in sorted(self.projects))
            return 200, "text/html", f"<html><body>{links}</body></html>".encode()
        if len(parts) == 2 and parts[0] == "simple":
            files = self.projects.get(canonicalize_name(parts[1]))
            if files is None:
                return 404, "text/plain", b"not found"
            links = "".join(
                f'<a href="../../files/{html.escape(name)}#sha256={sha256(data)}">'
                f"{html.escape(name)}</a><br/>\n"
                for name, data in sorted(files.items())
            )
            return 200, "text/html", f"<html><body>\n{links}</body></html>".encode()
        if len(parts) == 2 and parts[0] == "files":
            data = self.files().get(parts[1])
            if data is not None:
                return 200, "application/octet-stream", data
        return 404, "text/plain", b"not found"


@contextmanager
def serve(index: Index) -> Iterator[str]:
    """The index on 127.0.0.1 (a free port) while the block runs; yields its simple URL."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status, kind, body = index.page(self.path)
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/simple"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
