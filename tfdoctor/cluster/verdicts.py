"""Judge the workers' outcomes: who did not arrive, the all-reduce, bandwidth, the fleet."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Optional

from tfdoctor import causes
from tfdoctor.causes import finding
from tfdoctor.causes.cluster import (
    cluster_unreachable_fix,
    peer_failed_fix,
    port_in_use_fix,
    view_mismatch_fix,
)
from tfdoctor.cluster.fleet import compare_nodes, fleet_table
from tfdoctor.cluster.spec import ClusterSpec, named
from tfdoctor.cluster.workers import WorkerOutcome
from tfdoctor.evidence.cluster import read_cluster_evidence
from tfdoctor.findings import BandwidthPoint, Finding, Fix, FleetTable, Severity
from tfdoctor.units import bandwidth_text, size_text

CHECK = "cluster"


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
        if not missing and timeout < HEARTBEAT_SECONDS:
            summary += (
                f"; with --timeout below TensorFlow's {HEARTBEAT_SECONDS:g} s heartbeat "
                "timeout, a peer that stopped (hung, or paused) cannot be told from a slow one: "
                f"use --timeout {HEARTBEAT_SECONDS + 5:g} or more to have it named"
            )
        return finding(
            f"{CHECK}.task-unreachable",
            Severity.ERROR,
            causes.cluster.CLUSTER_TASK_UNREACHABLE,
            summary,
            fix=cluster_unreachable_fix(),
        )
    error = str(result.get("error") or "")
    lost, how = lost_peers(error, spec, outcome.address)
    if lost:
        # A peer died after the strategy connected: TensorFlow aborts every survivor's
        # collective, and its error is the only news of the dead task another node gets.
        return finding(
            f"{CHECK}.worker-failed",
            Severity.ERROR,
            causes.cluster.CLUSTER_WORKER_FAILED,
            f"{outcome.task}: step '{outcome.step}' was aborted: {', '.join(lost)} {how} "
            "(died mid-test)",
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


def bandwidth_finding(result: dict[str, Any]) -> Optional[Finding]:
    """The sweep as nccl-tests reports it: size, time, algorithm and bus bandwidth."""
    sweep = result.get("sweep") or []
    if not sweep:
        return None
    lines = [f"{'size':>10} {'time':>10} {'algbw':>12} {'busbw':>12}"]
    for row in sweep:
        lines.append(
            f"{size_text(row['bytes']):>10} {row['seconds'] * 1e3:>8.2f}ms "
            f"{bandwidth_text(row['algbw']):>12} {bandwidth_text(row['busbw']):>12}"
        )
    top = sweep[-1]
    return Finding(
        f"{CHECK}.bandwidth",
        Severity.INFO,
        f"all-reduce of {size_text(top['bytes'])}: {bandwidth_text(top['busbw'])} bus bandwidth, "
        f"{sweep[0]['seconds'] * 1e3:.2f} ms for {size_text(sweep[0]['bytes'])}",
        "\n".join(lines),
        check=CHECK,
    )


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
        BandwidthPoint(int(r["bytes"]), float(r["seconds"]), float(r["algbw"]), float(r["busbw"]))
        for r in sorted(result.get("sweep") or [], key=lambda r: r["bytes"])
    )


def lead_result(spec: ClusterSpec, outcomes: Sequence[WorkerOutcome]) -> Optional[dict[str, Any]]:
    """The result the run is judged by: the chief's, else any finished worker's."""
    done = [o for o in outcomes if o.status == "ok" and o.result]
    chief = spec.chief
    lead = next((o for o in done if chief and o.task == f"{chief[0]} {chief[1]}"), None)
    lead = lead or (done[0] if done else None)
    return None if lead is None else lead.result


def measurements(
    spec: ClusterSpec, outcomes: Sequence[WorkerOutcome]
) -> tuple[tuple[BandwidthPoint, ...], Optional[FleetTable]]:
    """The run's bandwidth sweep and the workers' facts side by side, for the report."""
    result = lead_result(spec, outcomes)
    if result is None:
        return (), None
    nodes = gathered_nodes(result)
    return sweep_points(result), fleet_table(nodes) if nodes else None


def judge(
    spec: ClusterSpec, outcomes: Sequence[WorkerOutcome], timeout: float
) -> tuple[Finding, ...]:
    """Every finding on a run: failed workers first, then the chief's (else any) result."""
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
        out.extend(fleet_findings(result))
    return tuple(out)
