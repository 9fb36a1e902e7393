"""What a worker's error and log say about the other tasks of its cluster.

TensorFlow's coordination service, its gRPC layer and gRPC itself each name a peer their own
way: a task (``/job:worker/replica:0/task:1``) or an address (``ipv4:10.0.0.2:2222``). This
module reads them all once into :class:`ClusterEvidence`; the cluster verdicts decide which
task to blame. The words are TensorFlow's and gRPC's, as measured with TF 2.21 and read in
``xla/tsl/distributed_runtime/coordination/coordination_service.cc`` and
``tensorflow/core/distributed_runtime/rpc/grpc_util.h``.
"""

from __future__ import annotations

import ipaddress
import re

from tfdoctor.records import Record, record

#: A task as TensorFlow names it in its runtime.
TASK = re.compile(r"/job:(\w+)/replica:\d+/task:(\d+)")
_TASKS = r"((?:/job:\w+/replica:\d+/task:\d+[\s,]*)+)"

#: The coordination service, on tasks that have not registered or reached a barrier yet
#: ("Example stragglers:\n/job:worker/replica:0/task:1").
_STRAGGLERS = re.compile(r"stragglers:\s*" + _TASKS)
#: The coordination service, on tasks that died mid-run, in the error every surviving task's
#: collective is aborted with ("The following tasks are unhealthy (stopped sending
#: heartbeats):\n/job:worker/replica:0/task:1\nThe tasks have crashed. ...").
_UNHEALTHY = re.compile(r"unhealthy \(stopped sending heartbeats\):\s*" + _TASKS)
#: The coordination service, on one task's missed heartbeats ("Task
#: /job:worker/replica:0/task:1 heartbeat timeout. This indicates that the remote task has
#: failed, got preempted, or crashed unexpectedly.").
_HEARTBEAT_TIMEOUT = re.compile(r"Task (/job:\w+/replica:\d+/task:\d+) heartbeat timeout")
#: TensorFlow's gRPC layer, on a call that failed at the other end ("Additional GRPC error
#: information from remote target /job:worker/replica:0/task:1 while calling ...").
_REMOTE_TARGET = re.compile(r"remote target (/job:\w+/replica:\d+/task:\d+)")
#: gRPC, naming the address of the peer a call went to ("Error received from peer
#: ipv4:127.0.0.1:44219", "last error: UNKNOWN: ipv4:127.0.0.1:44219: Failed to connect to
#: remote host: Connection refused").
_PEER_ADDRESS = re.compile(r"\b(?:ipv4|ipv6):(\[[0-9A-Fa-f:.%\w]+\]:\d+|[\w.-]+:\d+)")
#: TensorFlow 1's gRPC server on the cluster it was given, one line per job
#: (tensorflow/core/distributed_runtime/rpc/grpc_channel.cc, SparseGrpcChannelCache's
#: ``LOG(INFO) << "Initialize GrpcChannelCache for job " << ToString()``: "Initialize
#: GrpcChannelCache for job worker -> {0 -> localhost:2222, 1 -> worker-1.svc:2222}").
_CHANNEL_CACHE = re.compile(r"Initialize GrpcChannelCache for job (\w+) -> \{([^}\n]{0,4000})\}")
_CHANNEL_ENTRY = re.compile(r"(\d+) -> (\[[0-9A-Fa-f:.%\w]+\]|[\w.-]+):\d+")
#: gRPC's words for a peer that went away during a call (measured: a worker killed
#: mid-collective) and for one it cannot connect to any more.
CUT_OFF_WORDS = ("Socket closed", "Connection reset by peer", "Broken pipe")
UNREACHABLE_WORDS = ("failed to connect to all addresses", "Connection refused")


#: NCCL's check that every rank of a communicator runs its release (src/init.cc,
#: "Mismatched NCCL version detected : rank %d version %d rank %d version %d"), each version
#: as NCCL_VERSION_CODE.
_NCCL_MISMATCH = re.compile(
    r"Mismatched NCCL version detected : rank (\d+) version (\d+) rank (\d+) version (\d+)"
)


def nccl_release(code: int) -> str:
    """NCCL's NCCL_VERSION_CODE as the release it stands for: X*1000+Y*100+Z up to 2.8,
    X*10000+Y*100+Z from 2.9 on (nccl.h.in, NCCL_VERSION)."""
    if code >= 10000:
        return f"{code // 10000}.{code % 10000 // 100}.{code % 100}"
    return f"{code // 1000}.{code % 1000 // 100}.{code % 100}"


def nccl_mismatched_ranks(text: str) -> tuple[tuple[str, str], ...]:
    """The ranks NCCL's version check names in ``text``, each with its NCCL release, in the
    order given, each rank once."""
    found: dict[str, str] = {}
    for first, first_code, second, second_code in _NCCL_MISMATCH.findall(text):
        found.setdefault(first, nccl_release(int(first_code)))
        found.setdefault(second, nccl_release(int(second_code)))
    return tuple(found.items())


def _names(text: str) -> tuple[str, ...]:
    """The tasks in ``text`` as ``job index``, in order, each once."""
    return tuple(dict.fromkeys(f"{job} {index}" for job, index in TASK.findall(text)))


@record
class ClusterEvidence(Record):
    """The peers one worker's error and log name, by what each source says of them.

    Tasks are ``job index``; addresses ``host:port`` as gRPC writes them.
    """

    #: Tasks the coordination service says stopped sending heartbeats (died mid-run).
    unhealthy: tuple[str, ...] = ()
    #: Tasks the coordination service still waited for (had not arrived), the last list.
    stragglers: tuple[str, ...] = ()
    #: Tasks TensorFlow's gRPC layer names as the far end of a failed call.
    remote_targets: tuple[str, ...] = ()
    #: Peer addresses gRPC names.
    peer_addresses: tuple[str, ...] = ()
    #: gRPC says the connection broke during a call (the peer went away).
    cut_off: bool = False
    #: gRPC says it could not connect at all.
    unreachable: bool = False


def channel_hosts(text: str) -> dict[str, str]:
    """The host of each task (``job index``) TensorFlow 1's gRPC server lists in ``text``, as
    the cluster spec it was given names it (a host name or an address)."""
    return {
        f"{job} {index}": host
        for job, entries in _CHANNEL_CACHE.findall(text)
        for index, host in _CHANNEL_ENTRY.findall(entries)
    }


def looked_up(host: str) -> bool:
    """Whether a host as a cluster spec writes it needs a name look-up: neither an IP address
    nor the loopback name."""
    if host.lower() in ("localhost", "localhost.localdomain", "ip6-localhost"):
        return False
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return True
    return False


def read_cluster_evidence(text: str) -> ClusterEvidence:
    """Everything ``text`` (a worker's error, or its stderr) says about its peers."""
    unhealthy = [n for found in _UNHEALTHY.findall(text) for n in _names(found)]
    unhealthy += [n for found in _HEARTBEAT_TIMEOUT.findall(text) for n in _names(found)]
    waiting = _STRAGGLERS.findall(text)
    return ClusterEvidence(
        unhealthy=tuple(dict.fromkeys(unhealthy)),
        stragglers=_names(waiting[-1]) if waiting else (),
        remote_targets=tuple(
            dict.fromkeys(n for found in _REMOTE_TARGET.findall(text) for n in _names(found))
        ),
        peer_addresses=tuple(dict.fromkeys(_PEER_ADDRESS.findall(text))),
        cut_off=any(words in text for words in CUT_OFF_WORDS),
        unreachable=any(words in text for words in UNREACHABLE_WORDS),
    )
