"""Time ``tfdoctor cluster local --workers 2`` against one ``tfdoctor check``, side by side.

Run from the repository root with the environment under test (TensorFlow installed) active::

    python benchmarks/bench_cluster.py --runs 5

- Wall time: ``cluster local --workers 2`` (two worker processes on loopback, each importing
  TensorFlow, all-reduce test, the neighbour links, bandwidth sweep to 16 MiB with 20 timed
  calls per size) and ``check`` (which imports TensorFlow once in its child), each a fresh
  process, interleaved, in one run. Target: the cluster run takes at most 1.5x the check.
- Bandwidth: the all-reduce bus bandwidth of the largest size (the median call, from the JSON
  report's ``collective`` object) beside a raw loopback TCP copy of the same number of bytes in
  this process, as a ratio: how much of what the loopback carries TensorFlow's collective over
  gRPC uses.

Only 127.0.0.1 is ever used.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time

from _timing import print_medians, runs_from_arguments, time_interleaved, timed

TARGET = 1.5
SIZE = 16 * 1024 * 1024

#: ``cluster local`` as the report describes it: two workers, the default sweep.
LOCAL = [sys.executable, "-m", "tfdoctor", "cluster", "local", "--workers", "2", "--json"]

COMMANDS = {
    "check": [sys.executable, "-m", "tfdoctor", "check", "--json"],
    "cluster local --workers 2": LOCAL,
    # The same run with the former 3 timed calls per size: what the 20 cost.
    "cluster local --iterations 3": [*LOCAL, "--iterations", "3"],
}


def _drain(server: socket.socket, size: int) -> None:
    """Accept one connection and read ``size`` bytes from it."""
    conn, _ = server.accept()
    with conn:
        received = 0
        while received < size:
            chunk = conn.recv(1 << 20)
            if not chunk:
                break
            received += len(chunk)


def raw_loopback_copy(size: int, rounds: int = 5) -> float:
    """Bytes per second of the best of ``rounds`` copies of ``size`` bytes over 127.0.0.1 TCP."""
    payload = b"\0" * size
    best = float("inf")
    for _ in range(rounds):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
            server.bind(("127.0.0.1", 0))
            server.listen(1)
            reader = threading.Thread(target=_drain, args=(server, size))
            reader.start()
            with socket.create_connection(server.getsockname()) as client:
                start = time.perf_counter()
                client.sendall(payload)
                reader.join()
                best = min(best, time.perf_counter() - start)
    return size / best


def bus_bandwidth(report: str) -> float:
    """The largest size's median bus bandwidth (bytes/s) from ``cluster local --json`` output."""
    sweep = json.loads(report)["collective"]["bandwidth"]
    return float(max(sweep, key=lambda p: p["size"])["busbw"])


def main() -> int:
    """Print the medians, the ratio to the target, and the bandwidth comparison."""
    runs = runs_from_arguments(__doc__.splitlines()[0] if __doc__ else "", 5)
    samples = time_interleaved(COMMANDS, runs)
    medians = print_medians(samples, "check", "check")
    ratio = medians["cluster local --workers 2"] / medians["check"]
    verdict = "meets" if ratio <= TARGET else "misses"
    print(f"cluster local / check: {ratio:.2f}x ({verdict} the {TARGET}x target)")
    few = medians["cluster local --iterations 3"] / medians["check"]
    print(f"cluster local --iterations 3 / check: {few:.2f}x")

    _, out = timed(COMMANDS["cluster local --workers 2"])
    busbw = bus_bandwidth(out)
    raw = raw_loopback_copy(SIZE)
    print(
        f"all-reduce bus bandwidth {busbw / 1e6:.1f} MB/s; raw loopback copy of 16 MiB "
        f"{raw / 1e6:.1f} MB/s; ratio {busbw / raw:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
