"""Real worker children without TensorFlow: a stand-in ``tensorflow`` package, ports, waits.

The stand-in's strategy listens on the task's port and waits, as a strategy waiting for a peer
that never comes does: tests of what happens around the strategy need the port held, not
TensorFlow (whose import alone takes seconds here).
"""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent

#: A ``tensorflow`` whose strategy binds this task's port from TF_CONFIG, then waits forever.
FAKE_TENSORFLOW = """\
import json, os, socket, time

__version__ = "0.0-stand-in"


class distribute:
    class experimental:
        class CommunicationImplementation:
            AUTO, RING, NCCL = "AUTO", "RING", "NCCL"

        @staticmethod
        def CommunicationOptions(implementation=None):
            return implementation

    @staticmethod
    def MultiWorkerMirroredStrategy(communication_options=None):
        config = json.loads(os.environ["TF_CONFIG"])
        task = config["task"]
        address = config["cluster"][task["type"]][task["index"]]
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", int(address.rpartition(":")[2])))
        server.listen()
        globals()["held"] = server
        while True:
            time.sleep(60)
"""


def write_stand_in(tmp_path: Path) -> Path:
    """A directory under ``tmp_path`` holding the stand-in ``tensorflow`` package."""
    package = tmp_path / "site" / "tensorflow"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(FAKE_TENSORFLOW, encoding="utf-8")
    return package.parent


def worker_env(
    site: Path, port: int, workers: Optional[list[str]] = None, index: int = 0
) -> dict[str, str]:
    """This environment with the stand-in first on the path and a TF_CONFIG: ``workers``, by
    default this port and port 1 on loopback (a peer that never comes, so the strategy waits).
    """
    config = {
        "cluster": {"worker": workers or [f"127.0.0.1:{port}", "127.0.0.1:1"]},
        "task": {"type": "worker", "index": index},
    }
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]),
        "TF_CONFIG": json.dumps(config),
    }


def listening(port: int) -> bool:
    """Whether something accepts connections on 127.0.0.1:``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def wait_listening(port: int, seconds: float = 60) -> bool:
    """Whether the port starts listening within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if listening(port):
            return True
        time.sleep(0.05)
    return False
