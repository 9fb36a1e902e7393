"""Which peer left a cluster test first, and which only ran out of its own step deadline.

Every ``tfdoctor`` running a worker holds a listening socket of its own for as long as it
runs; its worker tells the port to its peers in the view exchange, and each peer's
``tfdoctor`` connects to it then. Before it ends its worker at a step deadline it sends
``deadline`` on every connection, and ``aborted`` when TensorFlow aborted its worker naming a
peer; its end closes them. A connection that closes, or cannot be opened, without such a word
is a peer that went away by itself (its worker died, or its node): the first of those is the
task to blame. A peer that only reached its deadline or was aborted by another (a healthy
worker held up or cut off like this one) is never blamed, even when TensorFlow aborts this
worker's collective because of its end. The watch lives in ``tfdoctor``, not in the worker:
a worker blocked in TensorFlow's C++ runtime can run no Python thread, and a paused (SIGSTOP)
one nothing at all.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Sequence
from typing import Optional

#: The words a ``tfdoctor`` sends its peers before it ends: its worker reached a step deadline,
#: or TensorFlow aborted its worker's collective naming a peer (held up or broken by another).
DEADLINE = b"deadline\n"
ABORTED = "aborted"

#: Seconds a connection to a peer's ``tfdoctor`` may take to open.
CONNECT_SECONDS = 2.0


class Presence:
    """This process's listening socket, and the watch on every peer's."""

    def __init__(self) -> None:
        dual = socket.has_dualstack_ipv6()
        self._lock = threading.Lock()
        self._held: list[socket.socket] = []
        #: (peer, the line it sent before it ended: "" when none).
        self._news: list[tuple[str, str]] = []
        self._watched: set[str] = set()
        self._closed = False
        self.server: Optional[socket.socket] = None
        try:
            self.server = socket.create_server(
                ("", 0),
                family=socket.AF_INET6 if dual else socket.AF_INET,
                backlog=64,
                dualstack_ipv6=dual,
            )
        except OSError:
            return
        threading.Thread(target=self._accept, name="presence", daemon=True).start()

    @property
    def port(self) -> Optional[int]:
        """The port the peers connect to (None: no socket could be opened)."""
        return None if self.server is None else int(self.server.getsockname()[1])

    def _accept(self) -> None:
        assert self.server is not None
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with self._lock:
                if self._closed:
                    conn.close()
                    return
                self._held.append(conn)

    def watch(self, task: str, host: str, port: int) -> None:
        """Watch the ``tfdoctor`` of ``task`` at ``host:port`` until it ends (once per task)."""
        with self._lock:
            if task in self._watched or self._closed:
                return
            self._watched.add(task)
        threading.Thread(
            target=self._follow, args=(task, host, port), name=f"presence-{task}", daemon=True
        ).start()

    def _follow(self, task: str, host: str, port: int) -> None:
        """Read the peer's connection to its end: ``deadline`` first, or gone by itself."""
        data = b""
        try:
            with socket.create_connection((host, port), timeout=CONNECT_SECONDS) as conn:
                conn.settimeout(None)
                while b"\n" not in data:
                    chunk = conn.recv(64)
                    if not chunk:
                        break
                    data += chunk
        except OSError:
            pass
        with self._lock:
            if not self._closed:
                line = data.partition(b"\n")[0] if b"\n" in data else b""
                self._news.append((task, line.decode("utf-8", "replace")))

    def tell_deadline(self) -> None:
        """Tell every watching peer that this worker ends at its own step deadline."""
        self._tell(DEADLINE)

    def tell_aborted(self, blamed: Sequence[str]) -> None:
        """Tell every watching peer that TensorFlow aborted this worker naming ``blamed``."""
        self._tell(f"{ABORTED} {','.join(blamed)}\n".encode())

    def _tell(self, line: bytes) -> None:
        with self._lock:
            held = list(self._held)
        for conn in held:
            with contextlib.suppress(OSError):
                conn.sendall(line)

    def departed(self) -> list[str]:
        """The peers that went away by themselves, the first first."""
        with self._lock:
            return [task for task, line in self._news if not line]

    def excused(self) -> list[str]:
        """The peers that ended at their own step deadline, or aborted by another peer."""
        with self._lock:
            return [task for task, line in self._news if line]

    def relayed(self) -> list[str]:
        """The tasks aborted peers' TensorFlow named, as they told it, the first first."""
        with self._lock:
            lines = [line for _, line in self._news if line.startswith(ABORTED + " ")]
        named = [t for line in lines for t in line[len(ABORTED) + 1 :].split(",") if t]
        return list(dict.fromkeys(named))

    def settle(self, seconds: float = 0.5) -> None:
        """Give news already on its way (a peer's end a moment ago) time to be read."""
        time.sleep(seconds)

    def close(self) -> None:
        """Stop watching and close every connection: the peers see this process go."""
        with self._lock:
            self._closed = True
            held, self._held = self._held, []
        for conn in held:
            conn.close()
        if self.server is not None:
            self.server.close()
