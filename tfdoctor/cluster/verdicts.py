"""Judge the workers' outcomes: who did not arrive, the all-reduce, bandwidth, the fleet."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Optional

from tfdoctor import causes
from tfdoctor.causes import finding
from tfdoctor.causes.cluster import cluster_unreachable_fix, peer_failed_fix, port_in_use_fix
from tfdoctor.cluster.fleet import compare_nodes, fleet_table
from tfdoctor.cluster.spec import ClusterSpec
from tfdoctor.cluster.workers import WorkerOutcome, unhealthy
from tfdoctor.findings import BandwidthPoint, Finding, FleetTable, Severity

CHECK = "cluster"


def _size(n: float) -> str:
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:g} {unit}"
    return f"{n:g} B"


def _rate(bps: float) -> str:
    return f"{bps / 1e6:.1f} MB/s" if bps >= 1e5 else f"{bps / 1e3:.2f} kB/s"


#: gRPC's words when a task that had connected no longer answers: "failed to connect to all
#: addresses; last error: UNKNOWN: ipv4:127.0.0.1:44219: Failed to connect to remote host:
#: Connection refused" (measured, TF 2.21: a peer that died between two collectives).
_UNREACHABLE = "failed to connect to all addresses"
#: A peer killed during a collective, as its peers' gRPC channel reports it, with the peer as
#: the remote target (measured, TF 2.21: "Socket closed" / "Connection reset by peer" and
#: "remote target /job:worker/replica:0/task:1" in the error's detail).
_CUT_OFF = ("Socket closed", "Connection reset by peer")
_REMOTE_TASK = re.compile(r"/job:(\w+)/replica:\d+/task:(\d+)")


def lost_peers(
    error: str, spec: Optional[ClusterSpec], own_address: str = ""
) -> tuple[list[str], str]:
    """The tasks a worker's error says died mid-run, and how it noticed; ``([], "")`` if none.

    TensorFlow names the tasks whose heartbeats stopped; gRPC names only the address it could
    no longer reach, which ``spec`` turns back into its task.
    """
    dead = unhealthy(error)
    if dead:
        return dead, "stopped sending heartbeats"
    if spec is not None and any(words in error for words in _CUT_OFF):
        # gRPC's own words for a peer killed mid-collective name it as the remote target.
        named = {(job, int(index)) for job, index in _REMOTE_TASK.findall(error)}
        gone = [
            f"{a.job} {a.index} ({a.text})"
            for a in spec.addresses()
            if a.text != own_address and (a.job, a.index) in named
        ]
        if gone:
            return gone, "could no longer be reached"
    if spec is None or _UNREACHABLE not in error:
        return [], ""
    gone = [
        f"{a.job} {a.index} ({a.text})"
        for a in spec.addresses()
        if a.text != own_address and re.search(rf"(?<![\w.]){re.escape(a.text)}(?!\d)", error)
    ]
    return gone, "could no longer be reached" if gone else ""


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
        else:
            summary = (
                f"{outcome.task}: step '{step}' did not finish in {timeout:g} s although "
                "every task's port answers"
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
            f"{_size(row['bytes']):>10} {row['seconds'] * 1e3:>8.2f}ms "
            f"{_rate(row['algbw']):>12} {_rate(row['busbw']):>12}"
        )
    top = sweep[-1]
    return Finding(
        f"{CHECK}.bandwidth",
        Severity.INFO,
        f"all-reduce of {_size(top['bytes'])}: {_rate(top['busbw'])} bus bandwidth, "
        f"{sweep[0]['seconds'] * 1e3:.2f} ms for {_size(sweep[0]['bytes'])}",
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
    """The facts every worker sent through the collective, compared node by node."""
    nodes = gathered_nodes(result)
    if not nodes:
        return ()
    return compare_nodes(nodes)


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
