"""The peers a worker's error names, and the one task every survivor blames."""

from __future__ import annotations

import json

import pytest

from tfdoctor.cluster.verdicts import judge, lost_peers
from tfdoctor.cluster.workers import local_spec, missing_tasks, parse_worker_output
from tfdoctor.evidence.cluster import (
    ClusterEvidence,
    channel_hosts,
    looked_up,
    nccl_mismatched_ranks,
    nccl_release,
    read_cluster_evidence,
)
from tfdoctor.probes._run import CommandResult


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Collective ops is aborted by: The following tasks are unhealthy (stopped sending "
            "heartbeats):\n/job:worker/replica:0/task:2\nThe tasks have crashed.",
            ClusterEvidence(unhealthy=("worker 2",)),
            id="coordination-unhealthy",
        ),
        pytest.param(
            "Task /job:worker/replica:0/task:1 heartbeat timeout. This indicates that the remote "
            "task has failed, got preempted, or crashed unexpectedly.",
            ClusterEvidence(unhealthy=("worker 1",)),
            id="coordination-heartbeat-timeout",
        ),
        pytest.param(
            "Waiting for 1/3 tasks to connect.\nExample stragglers:\n"
            "/job:worker/replica:0/task:1\n/job:chief/replica:0/task:0\n",
            ClusterEvidence(stragglers=("worker 1", "chief 0")),
            id="coordination-stragglers",
        ),
        pytest.param(
            "Collective ops is aborted by: Connection reset by peer\nAdditional GRPC error "
            "information from remote target /job:worker/replica:0/task:2 while calling "
            '/tensorflow.CollectiveService/RecvBuf:\n:{"description":"Error received from '
            'peer ipv4:127.0.0.1:41001","grpc_status":14}',
            ClusterEvidence(
                remote_targets=("worker 2",),
                peer_addresses=("127.0.0.1:41001",),
                cut_off=True,
            ),
            id="grpc-reset-remote-target",
        ),
        pytest.param(
            "failed to connect to all addresses; last error: UNKNOWN: ipv6:[::1]:2223: "
            "Failed to connect to remote host: Connection refused",
            ClusterEvidence(peer_addresses=("[::1]:2223",), unreachable=True),
            id="grpc-unreachable-v6",
        ),
        pytest.param("Socket closed", ClusterEvidence(cut_off=True), id="grpc-socket-closed"),
        pytest.param("InvalidArgumentError: shapes differ", ClusterEvidence(), id="unrelated"),
    ],
)
def test_read_cluster_evidence(text: str, expected: ClusterEvidence) -> None:
    assert read_cluster_evidence(text) == expected


def test_a_peer_cut_off_is_named_by_the_address_grpc_gives_without_a_remote_target() -> None:
    error = (
        "UnavailableError: Collective ops is aborted by: Socket closed\n"
        ':{"description":"Error received from peer ipv4:127.0.0.1:44219","grpc_status":14}'
    )
    spec = local_spec([4421, 44219, 5000])
    assert lost_peers(error, spec, "127.0.0.1:4421") == (
        ["worker 1 (127.0.0.1:44219)"],
        "could no longer be reached",
    )


def test_tensorflows_own_verdict_wins_over_the_peer_that_relayed_it() -> None:
    # Task 1 relays the coordination service's news that task 2 died: task 2 is blamed.
    error = (
        "Connection reset by peer\nAdditional GRPC error information from remote target "
        "/job:worker/replica:0/task:1\nThe following tasks are unhealthy (stopped sending "
        "heartbeats):\n/job:worker/replica:0/task:2\n"
    )
    assert lost_peers(error, local_spec([1, 2, 3]), "127.0.0.1:1") == (
        ["worker 2"],
        "stopped sending heartbeats",
    )


def _timed_out(me: int, unanswered: list[str]) -> CommandResult:
    """A worker killed in step 'strategy' after a handshake that left ``unanswered``."""
    events = [
        {"event": "step", "step": "handshake", "task": f"worker {me}"},
        {
            "event": "handshake",
            "me": {"task": f"worker {me}"},
            "heard": [],
            "unanswered": unanswered,
        },
        {"event": "step", "step": "strategy", "task": f"worker {me}"},
    ]
    stdout = "".join(json.dumps(e) + "\n" for e in events)
    return CommandResult(("python",), -9, stdout, "", 12.0, timed_out=True)


def test_simultaneous_timeouts_converge_on_the_task_that_never_arrived() -> None:
    # Worker 2 never started. Workers 0 and 1 time out in the same moment; by then each one's
    # peer may already be dead (killed by its own deadline), so ports prove nothing: both
    # name worker 2 from the handshake, decided before any deadline.
    ports = [41000, 41001, 41002]
    spec = local_spec(ports)
    outcomes = []
    for me in (0, 1):
        cmd = _timed_out(me, ["127.0.0.1:41002"])
        address = f"127.0.0.1:{ports[me]}"
        missing, arrived = missing_tasks(spec, address, cmd.stdout, cmd.stderr)
        assert (missing, arrived) == (["worker 2"], False)
        outcomes.append(parse_worker_output(f"worker {me}", address, cmd, "strategy", missing))
    findings = judge(spec, outcomes, 12.0)
    assert [x.summary.split(": ", 1)[1] for x in findings] == [
        "step 'strategy' did not finish in 12 s; worker 2 did not arrive"
    ] * 2


def test_a_hang_after_every_task_arrived_says_so_and_what_a_short_timeout_hides() -> None:
    spec = local_spec([41000, 41001])
    cmd = _timed_out(0, [])
    missing, arrived = missing_tasks(spec, "127.0.0.1:41000", cmd.stdout, cmd.stderr)
    assert (missing, arrived) == ([], True)
    outcome = parse_worker_output("worker 0", "127.0.0.1:41000", cmd, "all-reduce", [], True)
    (x,) = judge(spec, [outcome], 5.0)
    assert x.summary == (
        "worker 0: step 'all-reduce' did not finish in 5 s although every task had arrived "
        "(all answered before TensorFlow started); with --timeout below TensorFlow's 10 s "
        "heartbeat timeout, a peer that stopped (hung, or paused) cannot be told from a slow "
        "one: use --timeout 15 or more to have it named"
    )
    (y,) = judge(spec, [outcome], 30.0)
    assert "heartbeat" not in y.summary


def test_the_channel_cache_names_each_tasks_host() -> None:
    # grpc_channel.cc's SparseGrpcChannelCache logs one line per job of the spec it was given.
    text = (
        "I tensorflow/core/distributed_runtime/rpc/grpc_channel.cc:215] Initialize "
        "GrpcChannelCache for job ps -> {0 -> ps-0.tf.svc:2222}\n"
        "I tensorflow/core/distributed_runtime/rpc/grpc_channel.cc:215] Initialize "
        "GrpcChannelCache for job worker -> {0 -> localhost:2222, 1 -> 172.17.0.4:2222, "
        "2 -> [fd00::4]:2222}\n"
    )
    assert channel_hosts(text) == {
        "ps 0": "ps-0.tf.svc",
        "worker 0": "localhost",
        "worker 1": "172.17.0.4",
        "worker 2": "[fd00::4]",
    }
    assert channel_hosts("Started server with target: grpc://localhost:2222") == {}


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("ps-0.tf.svc", True),
        ("h35n03", True),
        ("localhost", False),
        ("10.0.0.5", False),
        ("[fd00::4]", False),
    ],
    ids=["dns", "short", "loopback", "ipv4", "ipv6"],
)
def test_only_a_name_is_looked_up(host: str, expected: bool) -> None:
    assert looked_up(host) is expected


@pytest.mark.parametrize(
    ("code", "release"),
    [
        pytest.param(2408, "2.4.8", id="before-2.9"),
        pytest.param(2804, "2.8.4", id="2.8"),
        pytest.param(20906, "2.9.6", id="from-2.9"),
        pytest.param(22705, "2.27.5", id="2.27"),
    ],
)
def test_nccls_version_code_is_read_as_its_release(code: int, release: str) -> None:
    assert nccl_release(code) == release


def test_the_ranks_nccls_version_check_names() -> None:
    text = (
        "n2:70:78 [0] init.cc:612 NCCL WARN Mismatched NCCL version detected : rank 3 version "
        "21903 rank 0 version 2708\n"
        "n2:70:78 [0] init.cc:612 NCCL WARN Mismatched NCCL version detected : rank 3 version "
        "21903 rank 1 version 21903"
    )
    assert nccl_mismatched_ranks(text) == (("3", "2.19.3"), ("0", "2.7.8"), ("1", "2.19.3"))
    assert nccl_mismatched_ranks("NCCL INFO NCCL version 2.19.3+cuda12.3") == ()
