"""The all-reduce sweep's statistics, ``--min-busbw``, the implementation, the neighbour links.

Read from what a worker child prints (its result line), through the verdicts and every
renderer; the real runs are in ``test_cluster_local.py`` (loopback) and
``test_cluster_fabric.py`` (network namespaces, one link slowed).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in the test extras
import pytest

from tests.commandline import tfdoctor
from tfdoctor.cluster import _report
from tfdoctor.cluster.verdicts import (
    bandwidth_finding,
    judge,
    link_findings,
    link_points,
    min_busbw_finding,
)
from tfdoctor.cluster.workers import local_spec, parse_worker_output
from tfdoctor.findings import Report, Severity
from tfdoctor.probes._run import CommandResult
from tfdoctor.render.html import render_html
from tfdoctor.render.jsonout import render_json
from tfdoctor.render.text import render_text

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "report.schema.json").read_text(encoding="utf-8"))
MiB = 1 << 20


def _row(size: int, seconds: float, ranks: int = 3) -> dict[str, Any]:
    """One sweep row as the child prints it, busbw by nccl-tests' rule."""
    algbw = size / seconds
    return {
        "bytes": float(size),
        "seconds": seconds,
        "seconds_min": seconds * 0.8,
        "seconds_max": seconds * 1.5,
        "iterations": 20,
        "algbw": algbw,
        "busbw": algbw * 2 * (ranks - 1) / ranks,
        "ok": True,
    }


def _link(source: int, target: int, seconds: float, size: int = MiB) -> dict[str, Any]:
    return {
        "from": f"worker {source}",
        "to": f"worker {target}",
        "bytes": size,
        "seconds": seconds * 1.2,
        "seconds_min": seconds,
        "seconds_max": seconds * 2,
        "iterations": 5,
        "bandwidth": size / (seconds * 1.2),
    }


def _result(
    sweep: list[dict[str, Any]], links: list[dict[str, Any]], configured: str = "AUTO"
) -> dict[str, Any]:
    same = {"tensorflow": "2.21.0"}
    return {
        "event": "result",
        "status": "ok",
        "task": "worker 0",
        "workers": 3,
        "replicas": 3,
        "allreduce": {"ok": True, "got": [1.0, 2.0, 3.0], "expected": [1.0, 2.0, 3.0]},
        "facts": {t: {"task": t, "host": "h", "facts": same} for t in ("worker 0", "worker 1")},
        "sweep": sweep,
        "collective": {"configured": configured, "device": "CPU", "ran": "RING"},
        "links": links,
    }


#: Three workers: the link 2 -> 0 moves 1 MiB in 200 ms, the others in 2 ms.
SLOW_RING = [_link(0, 1, 0.002), _link(1, 2, 0.0025), _link(2, 0, 0.2)]
#: 16 MiB in 80 ms over 3 ranks: algbw 209.7 MB/s, busbw 279.6 MB/s.
SWEEP = [_row(4, 0.0005), _row(16 * MiB, 0.08)]


def _run(result: dict[str, Any], min_busbw: Any = None) -> Report:
    """The report of a run whose chief printed ``result``."""
    spec = local_spec([1, 2, 3])
    cmd = CommandResult(("python",), 0, json.dumps(result) + "\n", "", 1.0)
    outcome = parse_worker_output("worker 0", "127.0.0.1:1", cmd)
    return _report(judge(spec, [outcome], 10.0, min_busbw), "0.1.0", "now", [outcome], spec)


def test_the_one_link_far_slower_than_the_median_pair_is_marked() -> None:
    points = link_points({"links": SLOW_RING})
    assert [(p.source, p.target, p.slow) for p in points] == [
        ("worker 0", "worker 1", False),
        ("worker 1", "worker 2", False),
        ("worker 2", "worker 0", True),
    ]
    # The best transfer is the link's bandwidth: 1 MiB in 2 ms.
    assert points[0].bandwidth == pytest.approx(MiB / 0.002)


def test_links_within_the_noise_have_no_outlier() -> None:
    # 2.5x apart: a busy machine's loopback varies that much; the rule wants 4x.
    even = [_link(0, 1, 0.002), _link(1, 2, 0.005), _link(2, 0, 0.003)]
    assert not any(p.slow for p in link_points({"links": even}))
    assert [f.id for f in link_findings(link_points({"links": even}))] == ["cluster.links"]


def test_the_slow_link_is_named_with_its_pace_cause_and_fix() -> None:
    findings = link_findings(link_points({"links": SLOW_RING}))
    table, slow = findings
    assert table.summary == (
        "3 ring neighbour link(s) timed alone: slowest worker 2 -> worker 0 at 5.2 MB/s"
    )
    assert "worker 2 -> worker 0" in table.detail and table.detail.endswith("slow")
    assert slow.severity is Severity.WARNING
    assert slow.cause == "cluster-slow-link"
    assert slow.summary == (
        "the link worker 2 -> worker 0 is the slow one: 5.2 MB/s, 90x slower than the other "
        "pairs (471.9 MB/s)"
    )
    assert slow.fix is not None and "worker 2 and worker 0" in slow.fix.text


def test_a_link_that_could_not_be_timed_is_unknown_never_ok() -> None:
    broken = [_link(0, 1, 0.002), {"from": "worker 1", "to": "worker 0", "error": "No route"}]
    findings = link_findings(link_points({"links": broken}))
    unknown = [f for f in findings if f.severity is Severity.UNKNOWN]
    assert [f.summary for f in unknown] == [
        "could not time the link worker 1 -> worker 0: No route"
    ]


def test_min_busbw_compares_the_largest_sizes_median_in_gb_per_s() -> None:
    result = _result(SWEEP, [])
    below = min_busbw_finding(result, 0.3)
    assert below is not None and below.severity is Severity.ERROR
    assert below.cause == "cluster-busbw-below-min"
    assert below.summary == (
        "bus bandwidth at 16 MiB: 0.28 GB/s, below the 0.3 GB/s required; RING on CPU "
        "(configured AUTO)"
    )
    assert below.fix is not None and "tc qdisc show" in below.fix.commands
    met = min_busbw_finding(result, 0.25)
    assert met is not None and met.severity is Severity.OK


def test_min_busbw_without_a_sweep_could_not_determine() -> None:
    found = min_busbw_finding(_result([], []), 1.0)
    assert found is not None and found.severity is Severity.UNKNOWN
    assert found.summary.startswith("could not determine the bus bandwidth")


def test_a_run_below_the_minimum_fails_with_exit_2_and_one_above_passes() -> None:
    assert _run(_result(SWEEP, []), 0.3).exit_code() == 2
    assert _run(_result(SWEEP, []), 0.25).exit_code() == 0
    assert _run(_result(SWEEP, [])).exit_code() == 0
    assert "cluster.busbw" not in [f.id for f in _run(_result(SWEEP, [])).findings]


def test_the_sweep_reports_median_spread_and_implementation() -> None:
    found = bandwidth_finding(_result(SWEEP, [], configured="NCCL"))
    assert found is not None
    assert found.summary == (
        "all-reduce of 16 MiB: 279.6 MB/s bus bandwidth, median of 20, 0.50 ms for 4 B; "
        "RING on CPU (configured NCCL)"
    )
    last = found.detail.splitlines()[-1].split()
    assert last[:3] == ["16", "MiB", "80.00ms"] and last[3] == "64.00-120.00ms"


def test_json_carries_the_collective_object_and_validates() -> None:
    report = _run(_result(SWEEP, SLOW_RING), 0.3)
    data = json.loads(render_json(report, "0.1.0"))
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    collective = data["collective"]
    assert collective["implementation"] == {
        "configured": "AUTO",
        "ran": "RING",
        "device": "CPU",
        "ranks": 3,
    }
    top = collective["bandwidth"][-1]
    assert (top["iterations"], top["seconds"], top["seconds_min"], top["seconds_max"]) == (
        20,
        0.08,
        pytest.approx(0.064),
        pytest.approx(0.12),
    )
    assert [x["slow"] for x in collective["links"]] == [False, False, True]
    assert {f["id"] for f in data["findings"]} >= {"cluster.busbw", "cluster.slow-link"}


def test_a_report_without_a_cluster_run_has_no_collective_object() -> None:
    assert "collective" not in json.loads(render_json(_run({"status": "ok"}), "0.1.0"))


def test_text_shows_the_sweep_and_the_links_tables() -> None:
    text = render_text(_run(_result(SWEEP, SLOW_RING), 0.3))
    section = text[text.index("Collective test") :]
    assert "bus bandwidth at 16 MiB: 0.28 GB/s, below the 0.3 GB/s required" in section
    assert "min-max" in section and "64.00-120.00ms" in section
    assert "worker 2 -> worker 0" in section


def test_html_shows_implementation_spread_and_the_slow_link() -> None:
    page = render_html(_run(_result(SWEEP, SLOW_RING)), "0.1.0", command="cluster local")
    assert "Collective implementation: <strong>RING</strong> on CPU (3 ranks; configured AUTO)" in (
        page
    )
    assert "<td>64.000-120.000 ms</td><td>20</td>" in page
    assert page.count('<tr class="slow">') == 1
    assert '<tr class="slow"><td>worker 2</td><td>worker 0</td>' in page


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (("--min-busbw", "0"), "--min-busbw must be a positive number of GB/s"),
        (("--min-busbw", "nan"), "--min-busbw must be a positive number of GB/s"),
        (("--iterations", "0"), "--iterations must be at least 1"),
        (("--max-size", "2"), "--max-size must be at least 4 bytes"),
        (("--implementation", "mpi"), "--implementation must be one of auto, ring, nccl"),
        (("--link-bytes", "-1"), "--link-bytes must be between 0 and 1073741824"),
    ],
    ids=["zero-busbw", "nan-busbw", "no-iterations", "tiny-max-size", "unknown-impl", "neg-link"],
)
def test_bad_bandwidth_options_exit_3_with_one_line(option: tuple[str, str], message: str) -> None:
    out = tfdoctor("cluster", "local", *option)
    assert out.returncode == 3
    assert out.stdout == ""
    assert out.stderr == f"tfdoctor: error: {message}\n"


def test_full_sweeps_to_1_gib_and_max_size_stops_it_earlier() -> None:
    from tfdoctor.cli.cluster import _smoke_options

    full = _smoke_options(sys.executable, 60.0, True, 20, "RING", 0, 1.0)
    assert full.sizes[0] == 4 and full.sizes[-1] == 1 << 30
    assert (full.iterations, full.implementation, full.link_bytes) == (20, "ring", 0)
    argv = full.argv()
    assert argv[argv.index("--sizes") + 1].endswith(",1073741824")
    assert argv[argv.index("--implementation") + 1] == "ring"
    short = _smoke_options(sys.executable, 60.0, True, 20, "auto", MiB, None, 65536)
    assert short.sizes == (4, 64, 1024, 16384)
    # The default sweep stays small.
    assert _smoke_options(sys.executable, 60.0, False, 20, "auto", MiB, None).sizes[-1] == 16 * MiB
