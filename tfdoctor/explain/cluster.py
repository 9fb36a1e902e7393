"""Builders for clusters: NCCL, collectives, tasks and pods."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.cluster import (
    TASK,
    channel_hosts,
    looked_up,
    nccl_mismatched_ranks,
    read_cluster_evidence,
)
from tfdoctor.evidence.traceback import failures
from tfdoctor.explain.common import cite, hits_by, warned_of
from tfdoctor.explain.containers import _hit
from tfdoctor.explain.progress import _went_on_seen
from tfdoctor.explain.revealed import Revealed
from tfdoctor.explain.scanning import Evidence, Hits
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine


def _nccl_release_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    revealed: Revealed,
) -> Optional[Finding]:
    """NCCL's shared-memory registration refused where the log does not show NCCL's release:
    the same include/shm.h line runs from NCCL 2.4 to 2.11 (signatures.yaml,
    nccl-shm-register-invalid-argument), so a failed collective leads and NCCL 2.4's bug
    before 2.4.6 (NVIDIA/nccl#185) is the other candidate, a warning with its own fix. A
    release shown decides it either way (:func:`_nccl_release`)."""
    hits = hits_by(by_cause, causes.gpu.NCCL_RELEASE_BUG, "nccl-shm-register-invalid-argument")
    failed = warned_of(findings, causes.cluster.CLUSTER_COLLECTIVE_FAILED)
    if not hits or revealed.nccl_version is not None or not failed:
        return None
    return causes.other_candidate(
        causes.gpu.NCCL_RELEASE_BUG,
        "NCCL 2.4's shared-memory bug, fixed in 2.4.6",
        cite(hits) + "\nCUDA refused NCCL's shared-memory segment as an invalid argument. "
        "NCCL 2.4 before 2.4.6 does so when two ranks of one host share a segment name; later "
        "releases print the same line for other failures. The log does not show which NCCL "
        "ran: its release tells the two apart.",
        causes.gpu.nccl_shm_release_fix(None, revealed.nccl_cuda),
    )


def _unresolved_task_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    evidence: Evidence,
) -> Optional[Finding]:
    """TensorFlow 1's master waiting for tasks that never answer (master.cc's "CreateSession
    still waiting for response from worker"): the words are the same whether the task did not
    start, its port is closed or its host name does not resolve where the master looks it up,
    so a name that does not resolve is a candidate of its own, a warning after the wait's
    finding, with its own fix. Left out where the gRPC server's channel cache (grpc_channel.cc)
    lists every waited-for task by an IP address or localhost: no name is looked up."""
    waits = hits_by(
        by_cause, causes.cluster.CLUSTER_TASK_UNREACHABLE, "createsession-waiting-for-worker"
    )
    waiting = warned_of(findings, causes.cluster.CLUSTER_TASK_UNREACHABLE)
    if not waits or not waiting:
        return None
    text = evidence.first_text
    hosts = channel_hosts(text) if "GrpcChannelCache" in text else {}
    tasks = sorted({g["spec"] for h in waits for g in h.groups if g.get("spec")})
    named = [
        hosts.get(f"{job} {index}")
        for job, index in (TASK.findall(t)[0] for t in tasks if TASK.search(t))
    ]
    if named and all(host is not None and not looked_up(host) for host in named):
        return None
    seen = read_cluster_evidence(text)
    if seen.unreachable and seen.peer_addresses and len(seen.peer_addresses) >= len(tasks):
        # gRPC names the address it failed to connect to ("ipv4:10.0.0.5:2222: ... Connection
        # refused"), one for each task waited for: the names resolved.
        return None
    shown = sorted({h for h in named if h is not None and looked_up(h)})
    return causes.other_candidate(
        causes.cluster.TF_CONFIG_UNRESOLVABLE,
        "a task's host name that does not resolve here",
        cite(waits)
        + "\nNo answer came from "
        + (", ".join(tasks) or "a task")
        + ". A task whose host name does not resolve where the master looks it up waits so"
        + (f" ({', '.join(shown)}, as the cluster spec names it)" if shown else "")
        + "; so does one that did not start or whose port is closed (the finding above).",
        causes.cluster.unresolved_host_fix(shown[0] if len(shown) == 1 else None),
    )


def _fleet_differs(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """Nodes of one job differing in the fact the signature read names: NCCL's own check
    names the ranks and their releases; another signature only what it says differs."""
    if any(h.signature.id == "nccl-version-mismatch" for h in hits):
        return _nccl_versions_differ(m, hits)
    # No fact read beyond the signature's words: name them, with no command of NCCL's.
    said = "; ".join(dict.fromkeys(h.signature.summary for h in hits))
    return causes.cluster.FLEET_FACT_DIFFERS, causes.cluster.fleet_differs_fix(
        "what the log shows differing", said
    )


def _nccl_versions_differ(m: Machine, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """NCCL's ranks running other releases, each rank with the release NCCL names."""
    ranks = nccl_mismatched_ranks("\n".join(line for h in hits for _, line in h.citations))
    shown = ", ".join(f"rank {rank} has NCCL {release}" for rank, release in ranks)
    return causes.cluster.FLEET_FACT_DIFFERS, causes.cluster.fleet_differs_fix(
        "NCCL",
        shown,
        (
            # The environment's own pip (a wheel's nvidia-nccl), conda's package in a conda
            # environment, and the system's library.
            *(f"{c} 2>/dev/null | grep -i nccl  # on every node" for c in m.pip("list")),
            *(("conda list nccl  # on every node",) if m.in_conda else ()),
            "ldconfig -p | grep libnccl  # on every node",
        ),
    )


def _cluster_unreachable(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> tuple[causes.CauseId, Fix]:
    # The master's own wait names the tasks that never answered; gRPC's words name none.
    tasks = sorted({g["spec"] for h in hits for g in h.groups if g.get("spec")})
    if any(h.signature.id == "createsession-waiting-for-worker" for h in hits):
        return causes.cluster.CLUSTER_TASK_UNREACHABLE, causes.cluster.cluster_waiting_fix(tasks)
    return causes.cluster.CLUSTER_TASK_UNREACHABLE, causes.cluster.cluster_unreachable_fix()


#: The collective executor refusing a member of a group (TensorFlow 2.5+ and earlier words).
_GROUP_MISMATCH = ("collective-group-mismatch", "collective-group-mismatch-old")


#: NCCL's warnings that name the transport that failed, by the signature that reads each.
_NCCL_TRANSPORTS = (
    ("nccl-no-socket-interface", "socket"),
    ("nccl-infiniband-failure", "ib"),
    ("nccl-peer-access-unsupported", "p2p"),
)


def _collective(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # A member refused by its group is the workers disagreeing on the group's devices; NCCL's
    # own failures are read from NCCL's log, by the transport its warning names (one only:
    # two transports failing leave the general advice).
    if any(h.signature.id in _GROUP_MISMATCH for h in hits):
        return causes.cluster.CLUSTER_COLLECTIVE_FAILED, causes.cluster.collective_group_fix(m)
    named = {transport for sid, transport in _NCCL_TRANSPORTS if _hit(hits, sid)}
    transport = named.pop() if len(named) == 1 else None
    return causes.cluster.CLUSTER_COLLECTIVE_FAILED, causes.gpu.collective_failed_fix(transport)


def _nccl_release(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """NCCL's shared-memory registration refused: NCCL 2.4's bug before 2.4.6 where the
    release NCCL printed is one of those; else (another release, or none shown: the same
    include/shm.h line runs up to NCCL 2.11) a collective that failed, read from NCCL's log."""
    if r.nccl_version is None or not causes.gpu.nccl_shm_bug(r.nccl_version):
        return causes.cluster.CLUSTER_COLLECTIVE_FAILED, causes.gpu.collective_failed_fix()
    return causes.gpu.NCCL_RELEASE_BUG, causes.gpu.nccl_shm_release_fix(r.nccl_version, r.nccl_cuda)


#: NCCL's verbs wrapper's warning that a call failed (misc/ibvwrap.cc), and its lines naming
#: the socket transport it uses then: net_socket.cc's "NET/Socket : Using [0]eth0:..." and
#: init.cc's "Using network Socket". ncclNetInit tries the IB transport first and, where its
#: init fails, the next one (src/net.cc): the run goes on over sockets.
_IBV_CALL_FAILED = re.compile(r"NCCL WARN Call to ibv_\w+ failed")
_NCCL_SOCKET_CHOSEN = re.compile(r"NCCL INFO (?:NET/Socket : Using\b|Using network Socket\b)")


def _nccl_fell_back_to_sockets(found: Finding, hits: Sequence[Hits], evidence: Evidence) -> Finding:
    """``found`` as a note where NCCL's InfiniBand failure is only a verbs call that failed
    (no completion error of a running collective) and NCCL went on: the log names its socket
    transport after the last such line and nothing failed, or the run went on
    (:func:`_went_on_seen`)."""
    if (
        found.severity.rank <= Severity.INFO.rank
        or not hits
        or any(h.signature.id != "nccl-infiniband-failure" for h in hits)
        or not all(_IBV_CALL_FAILED.search(line) for h in hits for _, line in h.citations)
    ):
        return found
    text = evidence.first_text
    last = max((m.end() for m in _IBV_CALL_FAILED.finditer(text)), default=-1)
    sockets = last >= 0 and _NCCL_SOCKET_CHOSEN.search(text, last) is not None
    failed = evidence.refusals or failures([tb for tb in evidence.tracebacks if not tb.warned])
    if not ((sockets and not failed) or "run-went-on" in _went_on_seen(evidence)):
        return found
    return dataclasses.replace(
        found,
        severity=Severity.INFO,
        detail=f"{found.detail}\nNCCL went on without InfiniBand: "
        + (
            "it chose its socket transport after the failed call"
            if sockets
            else "the log shows the run went on"
        )
        + ". Collectives run slower over sockets; the fix applies only where InfiniBand "
        "(or RoCE) should carry them.",
    )


#: The event Kubernetes' scheduler records when it binds a pod to a node
#: (pkg/scheduler/schedule_one.go: "Successfully assigned %v/%v to %v").
_POD_ASSIGNED = "Successfully assigned "


def _settle_pod_scheduled(evidence: Evidence, findings: dict[str, Finding]) -> None:
    """Kubernetes' scheduler refusing a pod for want of a free GPU, then assigning it (a GPU
    freed, or the cluster autoscaler added a node): the refusal was a wait, not the failure,
    so its finding becomes a note. Not where other lines show the container without a GPU."""
    key = f"explain.{causes.container.CONTAINER_NO_GPU}"
    found = findings.get(key)
    if (
        found is None
        or found.severity.rank < Severity.WARNING.rank
        or "k8s-insufficient-gpu" not in evidence.hits
        or any(
            h.signature.cause == causes.container.CONTAINER_NO_GPU
            for sid, h in evidence.hits.items()
            if sid != "k8s-insufficient-gpu"
        )
    ):
        return
    text = evidence.first_text
    refused = text.find("Insufficient nvidia.com/gpu")
    if text.find(_POD_ASSIGNED, max(refused, 0)) < 0:
        return
    findings[key] = dataclasses.replace(
        found,
        severity=Severity.INFO,
        detail=found.detail + "\nThe scheduler assigned the pod to a node afterwards: it waited "
        "for a free GPU, and got one.",
    )
