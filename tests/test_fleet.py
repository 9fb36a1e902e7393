"""Fleets at scale: bounded findings, every node kept, --strict, the collective test in text."""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from types import SimpleNamespace

from tests import factories as f
from tests.commandline import tfdoctor
from tests.test_cluster import LAUNCHER_FREE, _save
from tfdoctor.cluster.fleet import compare_nodes, node_summary
from tfdoctor.cluster.verdicts import fleet_findings
from tfdoctor.cluster.workers import WORKER_SCRIPT
from tfdoctor.facts import Facts, PackageFacts
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.render.text import render_text


def worker_module() -> SimpleNamespace:
    """The worker child script's functions (it imports TensorFlow only in main)."""
    return SimpleNamespace(**runpy.run_path(WORKER_SCRIPT, run_name="cluster_worker"))


def test_two_thousand_nodes_name_the_odd_ones_and_count_the_majority() -> None:
    nodes = {f"node{i:04d}": {"tensorflow": "2.21.0", "numpy": "2.1.0"} for i in range(2000)}
    for odd in ("node0007", "node0500", "node1234", "node1999"):
        nodes[odd] = {"tensorflow": "2.20.0", "numpy": "2.1.0"}
    verdicts = {n: {"worst": "ok", "exit_code": 0} for n in nodes}
    verdicts["node0500"] = {"worst": "error", "exit_code": 2}
    findings = compare_nodes(nodes, verdicts)
    by_id: dict[str, list[Finding]] = {}
    for x in findings:
        by_id.setdefault(x.id, []).append(x)
    (differs,) = by_id["fleet.differs.tensorflow"]
    assert differs.summary == (
        "tensorflow differs on node0007, node0500, node1234, node1999 (the other 1996 have 2.21.0)"
    )
    assert differs.detail == "1996 nodes: 2.21.0; node0007, node0500, node1234, node1999: 2.20.0"
    assert by_id["fleet.nodes"][0].summary.startswith("2000 node(s): node0000, node0001, ")
    assert "and 1995 more" in by_id["fleet.nodes"][0].summary
    assert [x.summary for x in by_id["fleet.node-verdict"]] == [
        "node0500: its own check found error (exit code 2)",
        "1999 nodes: their own check found ok",
    ]
    # Every node is in the report, in one note: the JSON report has the whole list.
    (members,) = by_id["fleet.membership"]
    assert members.severity is Severity.INFO
    assert members.detail.count("node") >= 2000 + 1996
    assert "tensorflow = 2.21.0: node0000, node0001, node0002" in members.detail
    # Bounded text: everything but the note fits in a few lines.
    text = render_text(Report(Facts(tfdoctor_version="0", collected_at="now"), findings))
    assert len(text) < 3000 and "node1998" not in text


def test_facts_larger_than_any_fixed_row_all_come_back() -> None:
    child = worker_module()
    big = {"task": "worker 1", "host": "h1", "facts": {"$TF_PADDING": "x" * 20000}}
    small = {"task": "worker 0", "host": "h0", "facts": {"tensorflow": "2.21.0"}}
    rows = [child.pack(small), child.pack(big)]
    width = max(len(r) for r in rows)
    table = [r + [0] * (width - len(r)) for r in rows]
    gathered = child.unpack(table)
    assert gathered["worker 1"]["facts"]["$TF_PADDING"] == "x" * 20000
    assert gathered["worker 0"] == small


def test_a_row_that_does_not_read_back_is_named_not_dropped() -> None:
    child = worker_module()
    good = child.pack({"task": "worker 0", "host": "h0", "facts": {"tensorflow": "2.21.0"}})
    gathered = child.unpack([good, list(b'{"task": "worker 1", "fa')])
    result = {"workers": 3, "facts": gathered}
    findings = {x.id: x for x in fleet_findings(result)}
    missing = findings["cluster.facts-missing"]
    assert missing.severity is Severity.UNKNOWN
    assert missing.summary.startswith("the facts of replica 1, 1 more worker(s) did not come")
    assert "replica 1: its facts did not read back (24 B)" in missing.detail


def test_driver_nccl_and_cuda_libraries_are_compared() -> None:
    packages = (
        PackageFacts("nvidia-nccl-cu12", "2.21.5", "/site"),
        PackageFacts("nvidia_cudnn_cu12", "9.3.0.75", "/site"),
        PackageFacts("numpy", "2.1.0", "/site"),
    )
    summary = node_summary(f.facts(packages=packages))
    assert summary["nvidia-nccl-cu12"] == "2.21.5"
    assert summary["nvidia-cudnn-cu12"] == "9.3.0.75"
    assert summary["NVIDIA driver"] == "550.54.15"
    assert summary["GPU count"] == "1"


def test_the_worker_reads_the_driver_and_the_nvidia_distributions_by_the_same_names() -> None:
    child = worker_module()
    found = child.nvidia_distributions()
    assert all(name.startswith("nvidia-") and "_" not in name for name in found)
    # The host may have a driver or not; either way the value is a version or says so.
    version = child.driver_version()
    assert version in ("none", "(unknown)") or version[0].isdigit()


def test_fleet_strict_fails_on_a_difference_that_is_only_a_warning(tmp_path: Path) -> None:
    paths = [_save(tmp_path, f"n{i}", f.facts()) for i in range(2)]
    paths.append(_save(tmp_path, "n2", f.facts(driver=f.driver(driver_version="535.1"))))
    assert tfdoctor("fleet", *paths, "--json", environ=LAUNCHER_FREE).returncode == 0
    strict = tfdoctor("fleet", *paths, "--json", "--strict", environ=LAUNCHER_FREE)
    assert strict.returncode == 1, strict.stderr
    assert json.loads(strict.stdout)["summary"]["exit_code"] == 1
    same = tfdoctor("diff", paths[0], paths[1], "--strict", environ=LAUNCHER_FREE)
    assert same.returncode == 0, same.stdout + same.stderr


def test_text_shows_the_verified_all_reduce_and_the_sweep_table() -> None:
    findings = (
        Finding(
            "cluster.allreduce",
            Severity.OK,
            "sum all-reduce over 2 worker(s), 2 replica(s): correct, every replica's "
            "contribution verified",
            check="cluster",
        ),
        Finding(
            "cluster.bandwidth",
            Severity.INFO,
            "all-reduce of 64 KiB: 1.2 MB/s bus bandwidth, 0.50 ms for 4 B",
            "      size       time        algbw        busbw\n"
            "       4 B     0.50ms    0.01 kB/s    0.01 kB/s",
            check="cluster",
        ),
    )
    text = render_text(Report(Facts(tfdoctor_version="0", collected_at="now"), findings))
    section = text.split("Collective test\n", 1)[1]
    assert section.startswith("sum all-reduce over 2 worker(s), 2 replica(s): correct")
    assert "        size       time        algbw        busbw\n" in section
    assert "         4 B     0.50ms    0.01 kB/s    0.01 kB/s\n" in section
