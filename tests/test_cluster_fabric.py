"""Workers on hosts of their own: network namespaces joined by veth pairs, one link slowed.

Each worker runs ``tfdoctor cluster smoke`` in its own network namespace with its own address;
every pair of namespaces has a veth pair of its own (a full mesh, host routes over it), so
slowing one veth pair with a token bucket (tc-tbf(8)) slows exactly one link between two
workers. The per-pair view must name that link, and ``--min-busbw`` must fail the run.

Needs root and iproute2 (``ip``, ``tc``): a skip elsewhere, a failure in CI (``CI=true``),
whose ``.ci/run`` installs iproute2 and runs as root.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The workers' addresses: a private range, only ever inside the namespaces made here.
SUBNET = "10.231.77"
#: Every worker's task port (each namespace has its own ports).
PORT = 23456
#: The slowed link's rate: about 5 MB/s, far below what a veth carries.
SLOW_RATE = "40mbit"
WORKERS = 3


def _fabric_missing() -> str:
    """Why namespaces cannot be made here, or an empty string."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "network namespaces need root"
    missing = [tool for tool in ("ip", "tc") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not installed (iproute2)"
    return ""


def _sh(*argv: str) -> None:
    subprocess.run(argv, check=True, capture_output=True, text=True, timeout=30)


class Fabric:
    """``WORKERS`` namespaces, a veth pair per pair of them, host routes over each pair."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.namespaces = [f"{tag}n{i}" for i in range(WORKERS)]
        #: (i, j) -> (the device in i's namespace, the one in j's)
        self.links: dict[tuple[int, int], tuple[str, str]] = {}

    def address(self, i: int) -> str:
        """Worker ``i``'s address."""
        return f"{SUBNET}.{i + 1}"

    def build(self) -> None:
        """Make the namespaces, the mesh and the routes."""
        for i, ns in enumerate(self.namespaces):
            _sh("ip", "netns", "add", ns)
            _sh("ip", "-n", ns, "link", "set", "lo", "up")
            _sh("ip", "-n", ns, "addr", "add", f"{self.address(i)}/32", "dev", "lo")
        for i in range(WORKERS):
            for j in range(i + 1, WORKERS):
                # Interface names hold at most 15 bytes (IFNAMSIZ).
                a, b = f"{self.tag}{i}{j}a", f"{self.tag}{i}{j}b"
                _sh("ip", "link", "add", a, "type", "veth", "peer", "name", b)
                for dev, ns in ((a, self.namespaces[i]), (b, self.namespaces[j])):
                    _sh("ip", "link", "set", dev, "netns", ns)
                    _sh("ip", "-n", ns, "link", "set", dev, "up")
                _sh(
                    "ip", "-n", self.namespaces[i], "route", "add", f"{self.address(j)}/32",
                    "dev", a, "src", self.address(i),
                )  # fmt: skip
                _sh(
                    "ip", "-n", self.namespaces[j], "route", "add", f"{self.address(i)}/32",
                    "dev", b, "src", self.address(j),
                )  # fmt: skip
                self.links[(i, j)] = (a, b)

    def slow(self, i: int, j: int) -> None:
        """Slow the link between workers ``i`` and ``j``, both ways (tc-tbf(8))."""
        for dev, ns in zip(self.links[(i, j)], (self.namespaces[i], self.namespaces[j])):
            _sh(
                "ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", dev, "root", "tbf",
                "rate", SLOW_RATE, "burst", "32kbit", "latency", "400ms",
            )  # fmt: skip

    def remove(self) -> None:
        """Delete the namespaces (their veth devices go with them)."""
        for ns in self.namespaces:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, check=False)


@pytest.fixture
def fabric() -> Iterator[Fabric]:
    """The namespaces of one test, removed after it."""
    why = _fabric_missing()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the namespace tests: {why}")
        pytest.skip(why)
    made = Fabric(f"tfd{os.getpid() % 100000}")
    try:
        made.build()
    except subprocess.CalledProcessError as exc:
        made.remove()
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"cannot build the namespaces here: {exc.stderr.strip()}")
    try:
        yield made
    finally:
        made.remove()


def _smoke(fabric: Fabric, *options: str) -> list[subprocess.CompletedProcess[str]]:
    """Run ``cluster smoke`` as every worker at once, each in its own namespace."""
    cluster = {"worker": [f"{fabric.address(i)}:{PORT}" for i in range(WORKERS)]}
    procs = []
    for i, ns in enumerate(fabric.namespaces):
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": "worker", "index": i}}),
        }
        argv = ["ip", "netns", "exec", ns, sys.executable, "-m", "tfdoctor", "cluster", "smoke"]
        procs.append(
            subprocess.Popen(
                [*argv, "--json", *options],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    done = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=400)
            done.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return done


@pytest.mark.slow
def test_the_one_slow_link_is_named_and_the_minimum_bus_bandwidth_fails(fabric: Fabric) -> None:
    fabric.slow(0, 2)
    runs = _smoke(
        fabric,
        "--timeout", "60",
        "--max-size", str(1 << 20),
        "--iterations", "3",
        "--link-bytes", str(1 << 20),
        "--min-busbw", "0.015",
    )  # fmt: skip
    for run in runs:
        assert run.returncode == 2, run.stdout + run.stderr
        report = json.loads(run.stdout)
        findings = {f["id"]: f for f in report["findings"]}
        # The ring is worker 0 -> 1 -> 2 -> 0: the slowed pair is timed as 2 -> 0.
        slow = [f for f in report["findings"] if f["id"] == "cluster.slow-link"]
        assert [f["summary"].split(":")[0] for f in slow] == [
            "the link worker 2 -> worker 0 is the slow one"
        ], findings.get("cluster.links")
        assert slow[0]["cause"] == "cluster-slow-link"
        assert findings["cluster.busbw"]["severity"] == "error"
        assert findings["cluster.busbw"]["cause"] == "cluster-busbw-below-min"
        assert "below the 0.015 GB/s required" in findings["cluster.busbw"]["summary"]
        assert findings["cluster.busbw"]["fix"]["commands"]
        collective = report["collective"]
        assert collective["implementation"]["ran"] == "RING"
        assert collective["implementation"]["ranks"] == WORKERS
        assert [(x["source"], x["target"], x["slow"]) for x in collective["links"]] == [
            ("worker 0", "worker 1", False),
            ("worker 1", "worker 2", False),
            ("worker 2", "worker 0", True),
        ]
        top = collective["bandwidth"][-1]
        assert top["size"] == 1 << 20 and top["iterations"] == 3
        assert top["seconds_min"] <= top["seconds"] <= top["seconds_max"]
