"""Judge the workers' outcomes: who did not arrive, the all-reduce, bandwidth, the fleet."""

from __future__ import annotations

import dataclasses
import re
import statistics
from collections.abc import Mapping, Sequence
from typing import Any, Optional

from tfdoctor import causes
from tfdoctor.causes import finding
from tfdoctor.causes.cluster import (
    busbw_below_min_fix,
    cluster_unreachable_fix,
    peer_failed_fix,
    port_in_use_fix,
    slow_link_fix,
    view_mismatch_fix,
)
from tfdoctor.cluster.fleet import compare_nodes, fleet_table
from tfdoctor.cluster.spec import ClusterSpec, named
from tfdoctor.cluster.workers import WorkerOutcome
from tfdoctor.evidence.cluster import read_cluster_evidence
from tfdoctor.findings import (
    BandwidthPoint,
    CollectiveImplementation,
    Finding,
    Fix,
    FleetTable,
    LinkPoint,
    Severity,
)
from tfdoctor.records import Record, record
from tfdoctor.units import bandwidth_text, size_text

CHECK = "cluster"

#: A neighbour pair is the slow link when its best transfer is this many times slower than
#: the median pair's: far beyond the noise of transfers timed one at a time (loopback runs
#: on a busy 2-core machine vary by about 2x).
SLOW_LINK_FACTOR = 4.0

#: ``--min-busbw`` is in GB/s as nccl-tests prints it: 1e9 bytes per second
#: (nccl-tests' src/common.cu divides by 1.0E9).
GB = 1e9


#: TensorFlow's coordination service declares a silent task dead after this many seconds
#: without a heartbeat (``heartbeat_timeout``, default 10 s, coordination_config.proto): a
#: step deadline below it ends before TensorFlow has named a stopped peer.
HEARTBEAT_SECONDS = 10.0


def lost_peers(
    error: str, spec: Optional[ClusterSpec], own_address: str = ""
) -> tuple[list[str], str]:
    """The tasks a worker's error says died mid-run, and how it noticed; ``([], "")`` if none.

    TensorFlow's own verdict first (tasks that stopped sending heartbeats); then the task
    gRPC names as the far end of a call that broke or could not connect, or the address it
    names, which ``spec`` turns back into its task.
    """
    seen = read_cluster_evidence(error)
    if seen.unhealthy:
        return list(seen.unhealthy), "stopped sending heartbeats"
    if spec is None or not (seen.cut_off or seen.unreachable):
        return [], ""
    others = [a for a in spec.addresses() if a.text != own_address]
    named = set(seen.remote_targets)
    gone = [f"{a.job} {a.index} ({a.text})" for a in others if f"{a.job} {a.index}" in named]
    if not gone:
        at = {_loose(p) for p in seen.peer_addresses}
        gone = [f"{a.job} {a.index} ({a.text})" for a in others if _loose(a.text) in at]
    if not gone and seen.unreachable:
        gone = [
            f"{a.job} {a.index} ({a.text})"
            for a in others
            if re.search(rf"(?<![\w.]){re.escape(a.text)}(?!\d)", error)
        ]
    return gone, "could no longer be reached" if gone else ""


#: How a peer that went away by itself is named.
LEFT = "arrived, then left the test by itself (before any step deadline)"
#: How a peer named by another survivor's TensorFlow is named.
RELAYED = "failed, as another worker's TensorFlow reported (died or stopped mid-test)"


def _task_of(peer: str) -> str:
    """``worker 1`` of ``worker 1 (127.0.0.1:2222)``."""
    return peer.split(" (", 1)[0]


def heartbeat_note(timeout: float) -> str:
    """What a step deadline below TensorFlow's heartbeat timeout cannot tell ("" above it)."""
    if timeout >= HEARTBEAT_SECONDS:
        return ""
    return (
        f"; with --timeout below TensorFlow's {HEARTBEAT_SECONDS:g} s heartbeat "
        "timeout, a peer that stopped (hung, or paused) cannot be told from a slow one: "
        f"use --timeout {HEARTBEAT_SECONDS + 5:g} or more to have it named"
    )


def _loose(address: str) -> str:
    """``host:port`` compared without brackets or case (gRPC writes ``ipv6:[::1]:2222``)."""
    return address.replace("[", "").replace("]", "").lower()


def _process(view: Mapping[str, Any]) -> str:
    """Where one worker's view came from: its pid, host and address."""
    return f"pid {view.get('pid')} on {view.get('host')} ({view.get('address')})"


def view_problems(views: Sequence[Mapping[str, Any]], unanswered: Sequence[str]) -> list[str]:
    """What the workers' handshake views disagree on: tasks claimed twice, different cluster
    lists (by digest), and the addresses no worker answered at."""
    problems = []
    claims: dict[str, dict[tuple[Any, Any], Mapping[str, Any]]] = {}
    for view in views:
        claims.setdefault(str(view.get("task")), {})[(view.get("host"), view.get("pid"))] = view
    for task, who in sorted(claims.items()):
        if len(who) > 1:
            processes = named([_process(v) for v in who.values()])
            problems.append(f"{task} is claimed by {len(who)} processes: {processes}")
    lists: dict[str, dict[str, Any]] = {}
    for view in views:
        seen = lists.setdefault(str(view.get("digest")), {"tasks": view.get("tasks"), "by": set()})
        seen["by"].add(f"{view.get('task')} (pid {view.get('pid')} on {view.get('host')})")
    if len(lists) > 1:
        ranked = sorted(lists.items(), key=lambda kv: (-len(kv[1]["by"]), kv[0]))
        parts = [
            f"{named(sorted(seen['by']))} see(s) {seen['tasks']} task(s) [list {digest}]"
            for digest, seen in ranked
        ]
        problems.append("the workers see different cluster lists: " + "; ".join(parts))
    if unanswered:
        problems.append(f"no worker answered at {named(list(unanswered))}")
    return problems


def view_mismatch_finding(outcome: WorkerOutcome) -> Finding:
    """A worker stopped before TensorFlow because its peers' views differ from its own."""
    result = outcome.result or {}
    views = [v for v in (result.get("me"), *(result.get("heard") or ())) if isinstance(v, dict)]
    if isinstance(result.get("holder"), dict):
        views.append(result["holder"])
    problems = view_problems(views, result.get("unanswered") or ())
    return finding(
        f"{CHECK}.view-mismatch",
        Severity.ERROR,
        causes.cluster.CLUSTER_VIEW_MISMATCH,
        f"{outcome.task}: " + ("; ".join(problems) or "the workers' views differ"),
        fix=view_mismatch_fix(),
    )


def outcome_finding(
    outcome: WorkerOutcome, timeout: float, spec: Optional[ClusterSpec] = None
) -> Optional[Finding]:
    """The finding for a worker that did not end well (``None`` for one that did).

    ``spec`` names the task behind an address a peer's error mentions.
    """
    result = outcome.result or {}
    if outcome.status == "ok":
        return None
    if outcome.status == "not-started":
        return Finding(
            f"{CHECK}.not-started",
            Severity.INFO,
            f"{outcome.task} ({outcome.address}) was not started, as asked",
            check=CHECK,
        )
    if outcome.status == "interrupted":
        where = f" in step '{outcome.step}'" if outcome.step else ""
        return Finding(
            f"{CHECK}.interrupted",
            Severity.UNKNOWN,
            f"{outcome.task} ({outcome.address}) was interrupted (Ctrl-C){where}; not judged",
            check=CHECK,
        )
    if outcome.status == "mismatch" or (
        outcome.status == "port-in-use" and isinstance(result.get("holder"), dict)
    ):
        return view_mismatch_finding(outcome)
    if outcome.status == "port-in-use":
        return finding(
            f"{CHECK}.port-in-use",
            Severity.ERROR,
            causes.cluster.CLUSTER_PORT_IN_USE,
            f"{outcome.task}: port of {outcome.address} is already in use "
            f"({result.get('error', 'in use')})",
            fix=port_in_use_fix(outcome.address.rpartition(":")[2]),
        )
    if outcome.status == "timeout":
        missing = [str(m) for m in result.get("missing", [])]
        step = result.get("step", outcome.step)
        if missing:
            summary = (
                f"{outcome.task}: step '{step}' did not finish in {timeout:g} s; "
                f"{', '.join(missing)} did not arrive"
            )
        elif outcome.departed:
            summary = (
                f"{outcome.task}: step '{step}' did not finish in {timeout:g} s; "
                f"{outcome.departed[0]} {LEFT}"
            )
        elif outcome.relayed:
            summary = (
                f"{outcome.task}: step '{step}' did not finish in {timeout:g} s; "
                f"{outcome.relayed[0]} {RELAYED}"
            )
        elif result.get("arrived"):
            summary = (
                f"{outcome.task}: step '{step}' did not finish in {timeout:g} s although "
                "every task had arrived (all answered before TensorFlow started)"
            )
        else:
            summary = (
                f"{outcome.task}: step '{step}' did not finish in {timeout:g} s although "
                "every task's port answers"
            )
        if not missing and not outcome.departed and not outcome.relayed:
            summary += heartbeat_note(timeout)
        return finding(
            f"{CHECK}.task-unreachable",
            Severity.ERROR,
            causes.cluster.CLUSTER_TASK_UNREACHABLE,
            summary,
            fix=cluster_unreachable_fix(),
        )
    error = str(result.get("error") or "")
    lost, how = lost_peers(error, spec, outcome.address)
    blamed = [x for x in lost if _task_of(x) not in outcome.excused]
    why = " (died mid-test)"
    if outcome.departed and outcome.departed[0] not in {_task_of(x) for x in blamed}:
        # The first peer to leave by itself is the cause; TensorFlow names whichever peer
        # its collective last waited on, a healthy one among them.
        blamed, how, why = [outcome.departed[0]], LEFT, ""
    if not blamed and not outcome.departed and outcome.relayed:
        # The peers TensorFlow names were aborted themselves, and said by whom.
        blamed, how, why = [outcome.relayed[0]], RELAYED, ""
    if lost and not blamed and outcome.unheard:
        # Every peer TensorFlow names was ended by its own step deadline, waiting, like this
        # worker, for a task the view exchange never heard from: that task never arrived.
        return finding(
            f"{CHECK}.task-unreachable",
            Severity.ERROR,
            causes.cluster.CLUSTER_TASK_UNREACHABLE,
            f"{outcome.task}: step '{outcome.step}' was aborted when a peer waiting for "
            f"{', '.join(outcome.unheard)} ended at its own step deadline; "
            f"{', '.join(outcome.unheard)} did not arrive (never heard in the view exchange)",
            error.strip()[-1500:],
            fix=cluster_unreachable_fix(),
        )
    if lost and not blamed:
        # Every peer TensorFlow names was ended by its own step deadline: held up, like
        # this worker, by a task that neither died nor answered.
        return finding(
            f"{CHECK}.task-unreachable",
            Severity.ERROR,
            causes.cluster.CLUSTER_TASK_UNREACHABLE,
            f"{outcome.task}: step '{outcome.step}' was aborted when {named(lost)} ended at "
            "its own step deadline; the task that held them up cannot be told"
            + heartbeat_note(timeout),
            error.strip()[-1500:],
            fix=cluster_unreachable_fix(),
        )
    lost = blamed
    if lost:
        # A peer died after the strategy connected: TensorFlow aborts every survivor's
        # collective, and its error is the only news of the dead task another node gets.
        return finding(
            f"{CHECK}.worker-failed",
            Severity.ERROR,
            causes.cluster.CLUSTER_WORKER_FAILED,
            f"{outcome.task}: step '{outcome.step}' was aborted: {', '.join(lost)} {how}{why}",
            error.strip()[-1500:],
            fix=peer_failed_fix(lost),
        )
    if error:
        first, _, rest = error.strip().partition("\n")
        summary, detail = f"{outcome.task}: {first}", rest.strip()[-1500:]
    else:
        how = "was killed" if outcome.status == "killed" else "ended"
        summary = (
            f"{outcome.task} {how} with exit status {outcome.returncode} in step '{outcome.step}'"
        )
        detail = outcome.stderr_tail[-1500:]
    return finding(
        f"{CHECK}.worker-failed",
        Severity.ERROR,
        causes.cluster.CLUSTER_WORKER_FAILED,
        summary,
        detail,
    )


def allreduce_finding(result: dict[str, Any]) -> Finding:
    """Correct sum all-reduce, or the replicas whose contribution is missing or wrong."""
    got = result.get("allreduce", {}).get("got", [])
    expected = result.get("allreduce", {}).get("expected", [])
    workers = result.get("workers")
    if got == expected and expected:
        return Finding(
            f"{CHECK}.allreduce",
            Severity.OK,
            f"sum all-reduce over {workers} worker(s), {len(expected)} replica(s): correct, "
            "every replica's contribution verified",
            check=CHECK,
        )
    wrong = [
        f"replica {i} (got {g:g}, expected {e:g})"
        for i, (g, e) in enumerate(zip(got, expected))
        if g != e
    ]
    return finding(
        f"{CHECK}.allreduce",
        Severity.ERROR,
        causes.cluster.CLUSTER_COLLECTIVE_FAILED,
        "sum all-reduce gave wrong values: " + ("; ".join(wrong) or f"{got} != {expected}"),
    )


def _spread(row: Mapping[str, Any]) -> str:
    """The fastest and slowest timed call, in milliseconds, when they were measured."""
    low, high = row.get("seconds_min"), row.get("seconds_max")
    if not low or not high:
        return ""
    return f"{float(low) * 1e3:.2f}-{float(high) * 1e3:.2f}ms"


def implementation(result: Mapping[str, Any]) -> Optional[CollectiveImplementation]:
    """The collective implementation a worker's result reports, when it reports one."""
    used = result.get("collective")
    if not isinstance(used, dict):
        return None
    return CollectiveImplementation(
        configured=str(used.get("configured", "?")),
        ran=str(used.get("ran", "?")),
        device=str(used.get("device", "?")),
        ranks=int(result.get("replicas") or 0),
    )


def _implementation_text(used: Optional[CollectiveImplementation]) -> str:
    if used is None:
        return ""
    if used.ran == used.configured:
        return f"; {used.ran} on {used.device}"
    return f"; {used.ran} on {used.device} (configured {used.configured})"


def bandwidth_finding(result: dict[str, Any]) -> Optional[Finding]:
    """The sweep as nccl-tests reports it: size, median time and its spread, algorithm and
    bus bandwidth at the median, and the implementation that ran."""
    sweep = result.get("sweep") or []
    if not sweep:
        return None
    lines = [f"{'size':>10} {'time':>10} {'min-max':>17} {'algbw':>12} {'busbw':>12}"]
    for row in sweep:
        lines.append(
            f"{size_text(row['bytes']):>10} {row['seconds'] * 1e3:>8.2f}ms {_spread(row):>17} "
            f"{bandwidth_text(row['algbw']):>12} {bandwidth_text(row['busbw']):>12}"
        )
    top = sweep[-1]
    count = top.get("iterations")
    timed = f", median of {count}" if count else ""
    return Finding(
        f"{CHECK}.bandwidth",
        Severity.INFO,
        f"all-reduce of {size_text(top['bytes'])}: {bandwidth_text(top['busbw'])} bus "
        f"bandwidth{timed}, {sweep[0]['seconds'] * 1e3:.2f} ms for {size_text(sweep[0]['bytes'])}"
        f"{_implementation_text(implementation(result))}",
        "\n".join(lines),
        check=CHECK,
    )


def min_busbw_finding(result: dict[str, Any], min_busbw: float) -> Optional[Finding]:
    """The largest size's median bus bandwidth against ``min_busbw`` (GB/s)."""
    sweep = sorted(result.get("sweep") or [], key=lambda r: r["bytes"])
    if not sweep:
        return Finding(
            f"{CHECK}.busbw",
            Severity.UNKNOWN,
            f"could not determine the bus bandwidth to compare with --min-busbw {min_busbw:g} "
            "GB/s: no all-reduce was timed",
            check=CHECK,
        )
    top = sweep[-1]
    got = float(top["busbw"]) / GB
    if got >= min_busbw:
        return Finding(
            f"{CHECK}.busbw",
            Severity.OK,
            f"bus bandwidth at {size_text(top['bytes'])}: {got:.3g} GB/s, at least the "
            f"{min_busbw:g} GB/s required",
            check=CHECK,
        )
    used = implementation(result)
    return finding(
        f"{CHECK}.busbw",
        Severity.ERROR,
        causes.cluster.CLUSTER_BUSBW_BELOW_MIN,
        f"bus bandwidth at {size_text(top['bytes'])}: {got:.3g} GB/s, below the {min_busbw:g} "
        f"GB/s required{_implementation_text(used)}",
        "The median of the timed all-reduces of the largest size, as nccl-tests computes "
        "bus bandwidth (algbw * 2(n-1)/n).",
        busbw_below_min_fix(used.ran if used is not None else "?"),
    )


def link_points(result: Mapping[str, Any]) -> tuple[LinkPoint, ...]:
    """The ring neighbours' transfers of a result, in ring order, the outliers marked."""
    points = []
    for raw in result.get("links") or ():
        if not isinstance(raw, dict):
            continue
        low = float(raw.get("seconds_min") or 0.0)
        size = int(raw.get("bytes") or 0)
        points.append(
            LinkPoint(
                source=str(raw.get("from", "?")),
                target=str(raw.get("to", "?")),
                size=size,
                seconds=float(raw.get("seconds") or 0.0),
                seconds_min=low,
                seconds_max=float(raw.get("seconds_max") or 0.0),
                bandwidth=size / low if low > 0 else 0.0,
                error=str(raw.get("error") or ""),
            )
        )
    measured = [p.bandwidth for p in points if not p.error and p.bandwidth > 0]
    if len(measured) >= 2:
        median = statistics.median(measured)
        points = [
            dataclasses.replace(p, slow=True)
            if not p.error and 0 < p.bandwidth * SLOW_LINK_FACTOR < median
            else p
            for p in points
        ]
    return tuple(sorted(points, key=lambda p: _task_order(p.source)))


def _task_order(task: str) -> tuple[int, str, int]:
    job, _, index = task.partition(" ")
    rank = {"chief": 0, "worker": 1}.get(job, 2)
    return rank, job, int(index) if index.isdigit() else 0


def link_findings(points: Sequence[LinkPoint]) -> tuple[Finding, ...]:
    """The neighbour pairs as a table; each outlier named, with its pace against the rest;
    each pair that could not be measured named as unknown."""
    if not points:
        return ()
    lines = [f"{'link':>22} {'size':>9} {'best':>12} {'median':>10} {'min-max':>17}"]
    for p in points:
        pair = f"{p.source} -> {p.target}"
        if p.error:
            lines.append(f"{pair:>22} not measured: {p.error}")
            continue
        spread = f"{p.seconds_min * 1e3:.2f}-{p.seconds_max * 1e3:.2f}ms"
        mark = "  slow" if p.slow else ""
        lines.append(
            f"{pair:>22} {size_text(p.size):>9} {bandwidth_text(p.bandwidth):>12} "
            f"{p.seconds * 1e3:>8.2f}ms {spread:>17}{mark}"
        )
    good = [p for p in points if not p.error]
    slow = [p for p in good if p.slow]
    fast = [p for p in good if not p.slow]
    if good:
        low = min(good, key=lambda p: p.bandwidth)
        head = (
            f"{len(good)} ring neighbour link(s) timed alone: slowest {low.source} -> "
            f"{low.target} at {bandwidth_text(low.bandwidth)}"
        )
    else:
        head = "no ring neighbour link could be timed"
    out = [Finding(f"{CHECK}.links", Severity.INFO, head, "\n".join(lines), check=CHECK)]
    median = statistics.median([p.bandwidth for p in fast]) if fast else 0.0
    for p in slow:
        out.append(
            finding(
                f"{CHECK}.slow-link",
                Severity.WARNING,
                causes.cluster.CLUSTER_SLOW_LINK,
                f"the link {p.source} -> {p.target} is the slow one: "
                f"{bandwidth_text(p.bandwidth)}, {median / p.bandwidth:.0f}x slower than the "
                f"other pairs ({bandwidth_text(median)})",
                "Point-to-point transfers between ring neighbours, one pair at a time, over "
                "the addresses the collective uses; the best of each pair's transfers.",
                slow_link_fix(p.source, p.target),
            )
        )
    for p in points:
        if p.error:
            out.append(
                Finding(
                    f"{CHECK}.link-unmeasured",
                    Severity.UNKNOWN,
                    f"could not time the link {p.source} -> {p.target}: {p.error}",
                    "The link test uses a second, free port on each worker besides its "
                    "task's port; a firewall that opens only the task's port blocks it.",
                    check=CHECK,
                )
            )
    return tuple(out)


def gathered_nodes(result: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The facts every worker sent through the collective, by node name."""
    gathered = result.get("facts") or {}
    return {
        f"{task} ({doc.get('host', '?')})": {str(k): str(v) for k, v in doc["facts"].items()}
        for task, doc in gathered.items()
        if isinstance(doc, dict) and isinstance(doc.get("facts"), dict)
    }


def fleet_findings(result: dict[str, Any]) -> tuple[Finding, ...]:
    """The facts every worker sent through the collective, compared node by node; the
    workers whose facts did not come back are named, never left out silently."""
    gathered = result.get("facts") or {}
    nodes = gathered_nodes(result)
    out = list(compare_nodes(nodes)) if nodes else []
    unread = sorted(t for t, doc in gathered.items() if f"{t} ({_host(doc)})" not in nodes)
    workers = result.get("workers")
    absent = workers - len(gathered) if isinstance(workers, int) else 0
    if unread or absent > 0:
        names = [*unread, *([f"{absent} more worker(s)"] if absent > 0 else [])]
        out.append(
            Finding(
                f"{CHECK}.facts-missing",
                Severity.UNKNOWN,
                f"the facts of {named(names)} did not come back through the collective: "
                "those workers are not compared",
                "; ".join(
                    f"{t}: {doc.get('error', 'no facts')}"
                    for t, doc in sorted(gathered.items())
                    if t in unread and isinstance(doc, dict)
                ),
                Fix(
                    "Run `tfdoctor check --json` on those nodes and compare with `tfdoctor fleet`."
                ),
                check=CHECK,
            )
        )
    return tuple(out)


def _host(doc: Any) -> str:
    return str(doc.get("host", "?")) if isinstance(doc, dict) else "?"


def sweep_points(result: dict[str, Any]) -> tuple[BandwidthPoint, ...]:
    """The bandwidth sweep of a worker's result as measurements, smallest message first."""
    return tuple(
        BandwidthPoint(
            int(r["bytes"]),
            float(r["seconds"]),
            float(r["algbw"]),
            float(r["busbw"]),
            float(r.get("seconds_min") or 0.0),
            float(r.get("seconds_max") or 0.0),
            int(r.get("iterations") or 0),
        )
        for r in sorted(result.get("sweep") or [], key=lambda r: r["bytes"])
    )


def lead_result(spec: ClusterSpec, outcomes: Sequence[WorkerOutcome]) -> Optional[dict[str, Any]]:
    """The result the run is judged by: the chief's, else any finished worker's."""
    done = [o for o in outcomes if o.status == "ok" and o.result]
    chief = spec.chief
    lead = next((o for o in done if chief and o.task == f"{chief[0]} {chief[1]}"), None)
    lead = lead or (done[0] if done else None)
    return None if lead is None else lead.result


@record
class Measurements(Record):
    """What the run measured, for the report beside its findings."""

    bandwidth: tuple[BandwidthPoint, ...] = ()
    links: tuple[LinkPoint, ...] = ()
    collective: Optional[CollectiveImplementation] = None
    fleet: Optional[FleetTable] = None


def measurements(spec: ClusterSpec, outcomes: Sequence[WorkerOutcome]) -> Measurements:
    """The run's bandwidth sweep, links, implementation and the workers' facts side by side."""
    result = lead_result(spec, outcomes)
    if result is None:
        return Measurements()
    nodes = gathered_nodes(result)
    return Measurements(
        sweep_points(result),
        link_points(result),
        implementation(result),
        fleet_table(nodes) if nodes else None,
    )


def judge(
    spec: ClusterSpec,
    outcomes: Sequence[WorkerOutcome],
    timeout: float,
    min_busbw: Optional[float] = None,
) -> tuple[Finding, ...]:
    """Every finding on a run: failed workers first, then the chief's (else any) result.

    ``min_busbw`` (GB/s): the largest size's median bus bandwidth must reach it."""
    out: list[Finding] = []
    for outcome in outcomes:
        f = outcome_finding(outcome, timeout, spec)
        if f is not None:
            out.append(f)
    result = lead_result(spec, outcomes)
    if result is not None:
        out.append(allreduce_finding(result))
        band = bandwidth_finding(result)
        if band is not None:
            out.append(band)
        if min_busbw is not None:
            below = min_busbw_finding(result, min_busbw)
            if below is not None:
                out.append(below)
        out.extend(link_findings(link_points(result)))
        out.extend(fleet_findings(result))
    return tuple(out)
