"""Causes in a cluster's description and its collectives (``tfdoctor cluster``, ``fleet``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, Optional

from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.causes.common import show_env
from tfdoctor.findings import Fix
from tfdoctor.machine import Machine

#: The ids of this area's causes, as checks, explain and scan name them.
TF_CONFIG_INVALID_JSON: Final = CauseId("tf-config-invalid-json")
TF_CONFIG_NO_CLUSTER: Final = CauseId("tf-config-no-cluster")
TF_CONFIG_SPARSE_CLUSTER: Final = CauseId("tf-config-sparse-cluster")
TF_CONFIG_BAD_CLUSTER: Final = CauseId("tf-config-bad-cluster")
TF_CONFIG_MASTER_TASK: Final = CauseId("tf-config-master-task")
TF_CONFIG_UNKNOWN_JOB: Final = CauseId("tf-config-unknown-job")
TF_CONFIG_MULTIPLE_CHIEFS: Final = CauseId("tf-config-multiple-chiefs")
TF_CONFIG_TASK_INVALID: Final = CauseId("tf-config-task-invalid")
TF_CONFIG_TASK_OUT_OF_RANGE: Final = CauseId("tf-config-task-out-of-range")
TF_CONFIG_BAD_ADDRESS: Final = CauseId("tf-config-bad-address")
TF_CONFIG_ADDRESS_SCHEME: Final = CauseId("tf-config-address-scheme")
TF_CONFIG_IPV6_UNBRACKETED: Final = CauseId("tf-config-ipv6-unbracketed")
TF_CONFIG_ADDRESS_WHITESPACE: Final = CauseId("tf-config-address-whitespace")
TF_CONFIG_DUPLICATE_ADDRESS: Final = CauseId("tf-config-duplicate-address")
TF_CONFIG_LOCALHOST_MULTI_HOST: Final = CauseId("tf-config-localhost-multi-host")
TF_CONFIG_UNRESOLVABLE: Final = CauseId("tf-config-unresolvable")
TF_CONFIG_SINGLE_WORKER: Final = CauseId("tf-config-single-worker")
SLURM_OUTSIDE_SRUN: Final = CauseId("slurm-outside-srun")
SLURM_INCONSISTENT: Final = CauseId("slurm-inconsistent")
SLURM_TF_CONFIG_MISMATCH: Final = CauseId("slurm-tf-config-mismatch")
SLURM_RESOLVER_NOT_DEFAULT: Final = CauseId("slurm-resolver-not-default")
K8S_NO_TF_CONFIG: Final = CauseId("k8s-no-tf-config")
CLUSTER_PORT_IN_USE: Final = CauseId("cluster-port-in-use")
CLUSTER_VIEW_MISMATCH: Final = CauseId("cluster-view-mismatch")
CLUSTER_TASK_UNREACHABLE: Final = CauseId("cluster-task-unreachable")
CLUSTER_COLLECTIVE_FAILED: Final = CauseId("cluster-collective-failed")
MPI_INTERFACE_UNPINNED: Final = CauseId("mpi-interface-unpinned")
CLUSTER_WORKER_FAILED: Final = CauseId("cluster-worker-failed")
CLUSTER_BUSBW_BELOW_MIN: Final = CauseId("cluster-busbw-below-min")
CLUSTER_SLOW_LINK: Final = CauseId("cluster-slow-link")
FLEET_FACT_DIFFERS: Final = CauseId("fleet-fact-differs")
DATASET_AUTOSHARD_MISMATCH: Final = CauseId("dataset-autoshard-mismatch")

_NCCL_PERFORMANCE = "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"

_TF_CONFIG_GUIDE = "https://www.tensorflow.org/guide/distributed_training#setting_up_tf_config_environment_variable"


_MULTI_WORKER = "https://www.tensorflow.org/tutorials/distribute/multi_worker_with_keras"


_COMMUNICATION = (
    "https://www.tensorflow.org/api_docs/python/tf/distribute/experimental/"
    "CommunicationImplementation"
)


_DISTRIBUTED_INPUT = "https://www.tensorflow.org/tutorials/distribute/input#sharding"


_SLURM_RESOLVER = (
    "https://www.tensorflow.org/api_docs/python/tf/distribute/cluster_resolver/SlurmClusterResolver"
)


#: Causes ``tfdoctor cluster`` and ``diff``/``fleet`` name; the rules are TensorFlow's own
#: (multi_worker_util._validate_cluster_spec, TFConfigClusterResolver, SlurmClusterResolver).
CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            TF_CONFIG_INVALID_JSON,
            "TF_CONFIG is not a JSON object",
            "TFConfigClusterResolver reads TF_CONFIG with json.loads; anything else fails when "
            "the strategy is created.",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_NO_CLUSTER,
            "No cluster description: training runs as one worker",
            "Without TF_CONFIG, or without its `cluster` key, TFConfigClusterResolver returns an "
            "empty ClusterSpec and MultiWorkerMirroredStrategy silently trains on this worker "
            "alone.",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_SPARSE_CLUSTER,
            "TF_CONFIG with `sparseCluster` only",
            "TFConfigClusterResolver reads only the `cluster` key; a dynamic-worker "
            "`sparseCluster` alone leaves an empty ClusterSpec, and training runs as one worker.",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_BAD_CLUSTER,
            "TF_CONFIG `cluster` has the wrong shape",
            "`cluster` maps each job name to a list of `host:port` strings (ClusterSpec).",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_MASTER_TASK,
            "A `master` task in TensorFlow 2",
            "TensorFlow 1's `master` task type is rejected by TensorFlow 2's "
            "multi_worker_util._validate_cluster_spec ('Disallowed task type'); the role is "
            "`chief`.",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_UNKNOWN_JOB,
            "A job name TensorFlow does not allow",
            "multi_worker_util._validate_cluster_spec allows the jobs chief, worker, evaluator "
            "and ps only.",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_MULTIPLE_CHIEFS,
            "More than one chief or evaluator",
            "multi_worker_util._validate_cluster_spec allows at most one `chief` and one "
            "`evaluator` task.",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_TASK_INVALID,
            "TF_CONFIG `task` missing or not in the cluster",
            "Each process names its own task (`type` a job of `cluster`, `index` an integer); "
            "TensorFlow rejects a task type the cluster lacks.",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_TASK_OUT_OF_RANGE,
            "TF_CONFIG task index out of range",
            "The task index must be below the number of addresses of its job "
            "(multi_worker_util._validate_cluster_spec).",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_BAD_ADDRESS,
            "A task address is not host:port",
            "Each task's gRPC server listens on the port of its address; an address without a "
            "valid port (1-65535) cannot be served or reached.",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_ADDRESS_SCHEME,
            "A task address carries a scheme (grpc://)",
            "TensorFlow takes bare host:port pairs; a '/' before the port fails the strategy's "
            "start with 'Could not interpret \"grpc://host:port\" as a host-port pair' "
            "(ValidateHostPortPair, tensorflow/core/distributed_runtime/rpc/grpc_channel.cc).",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_IPV6_UNBRACKETED,
            "An IPv6 task address without brackets",
            "gRPC reads a target with two or more colons and no brackets as a bare IPv6 address "
            "without a port (grpc src/core/util/host_port.cc, SplitHostPort), so `::1:2222` "
            "is not the port 2222 of ::1; write `[::1]:2222`.",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_ADDRESS_WHITESPACE,
            "A task address with spaces or line breaks",
            "TensorFlow hands the address to gRPC as written: a host name with a space never "
            "resolves, and the peers wait for the task until the collective times out.",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_DUPLICATE_ADDRESS,
            "Two tasks share one address",
            "Two gRPC servers cannot listen on one host:port; the second fails to start or the "
            "collectives wait for a task that never answers.",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_LOCALHOST_MULTI_HOST,
            "localhost in a cluster that spans hosts",
            "A loopback address means each machine itself: other hosts cannot reach a task "
            "listed as localhost or 127.x, and the collectives wait for it.",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_UNRESOLVABLE,
            "A task's host name does not resolve",
            "gRPC cannot connect to a task whose name does not resolve; the collectives wait "
            "for it until they time out ('failed to connect to all addresses').",
            _TF_CONFIG_GUIDE,
        ),
        define(
            TF_CONFIG_SINGLE_WORKER,
            "A cluster of one task",
            "A valid TF_CONFIG with a single task: MultiWorkerMirroredStrategy runs on this "
            "worker alone.",
            _MULTI_WORKER,
        ),
        define(
            SLURM_OUTSIDE_SRUN,
            "In a Slurm job but outside a job step",
            "SlurmClusterResolver reads SLURM_PROCID and the SLURM_STEP_* variables, which only "
            "`srun` sets ('Not running inside a SLURM step?').",
            _SLURM_RESOLVER,
        ),
        define(
            SLURM_INCONSISTENT,
            "The Slurm step variables do not add up",
            "SlurmClusterResolver builds the cluster from SLURM_STEP_NODELIST, "
            "SLURM_STEP_TASKS_PER_NODE and SLURM_STEP_NUM_TASKS; they must agree.",
            _SLURM_RESOLVER,
        ),
        define(
            SLURM_TF_CONFIG_MISMATCH,
            "TF_CONFIG does not match the Slurm step it runs in",
            "srun starts SLURM_NTASKS processes on the step's nodes, each with its SLURM_PROCID; "
            "a TF_CONFIG with another task count, hosts outside the allocation or an index "
            "that is not the process's own leaves a task that never arrives or two processes "
            "claiming one, and the strategy waits until it times out.",
            _SLURM_RESOLVER,
            _TF_CONFIG_GUIDE,
        ),
        define(
            SLURM_RESOLVER_NOT_DEFAULT,
            "MultiWorkerMirroredStrategy does not read Slurm by itself",
            "The strategy reads TF_CONFIG unless given a resolver: in a Slurm step without "
            "TF_CONFIG, pass SlurmClusterResolver() (it uses ports 8888 and up on each node).",
            _SLURM_RESOLVER,
        ),
        define(
            K8S_NO_TF_CONFIG,
            "A Kubernetes pod without TF_CONFIG",
            "Kubeflow's v1 TFJob operator writes TF_CONFIG into each pod; Kubeflow Trainer v2 "
            "has no TensorFlow runtime, so a Job or JobSet must set TF_CONFIG itself.",
            "https://www.kubeflow.org/docs/components/trainer/legacy-v1/user-guides/tensorflow/",
        ),
        define(
            CLUSTER_PORT_IN_USE,
            "A task's port is already in use",
            "The task's gRPC server cannot listen on a port another process holds; TensorFlow "
            "fails to start the server ('Address already in use').",
            _TF_CONFIG_GUIDE,
        ),
        define(
            CLUSTER_VIEW_MISMATCH,
            "The workers disagree on the cluster or on who is which task",
            "Every process must see the same cluster list and claim a task of its own: a "
            "process started with a stale list, or two processes with one index, leave the "
            "strategy waiting for a task that never arrives (TensorFlow checks neither before "
            "its collectives time out).",
            _TF_CONFIG_GUIDE,
        ),
        define(
            CLUSTER_TASK_UNREACHABLE,
            "A task did not arrive",
            "A task's server never answered within the time allowed: the process was not "
            "started, died, listens elsewhere, or a firewall blocks its port (a worker stuck "
            "after 'Started server with target', or 'failed to connect to all addresses').",
            _MULTI_WORKER,
        ),
        define(
            CLUSTER_COLLECTIVE_FAILED,
            "The collective all-reduce failed or gave wrong values",
            "A sum all-reduce over every worker through MultiWorkerMirroredStrategy did not "
            "return the known total, or a collective aborted: a task contributed nothing, NCCL "
            "failed to set it up, or the workers joined its group with other devices or "
            "counts (TensorFlow's collective executor aborts a group whose members differ in "
            "device type or group size: a worker that sees no GPU, or another number of them, "
            "or processes running different programs or strategies).",
            _MULTI_WORKER,
            _COMMUNICATION,
        ),
        define(
            MPI_INTERFACE_UNPINNED,
            "MPI connects over a network interface that does not join the hosts",
            "Open MPI's TCP transport uses every interface it finds unless told which; an "
            "interface whose address repeats on every host (docker0, virbr0, a bridge) or one "
            "that routes elsewhere connects a rank to another process than the one it meant "
            "(Open MPI: 'received unexpected process identifier') or hangs the job. Naming the "
            "interfaces that join the hosts (btl_tcp_if_include, or btl_tcp_if_exclude of the "
            "others; NCCL_SOCKET_IFNAME for NCCL) settles it.",
            "https://github.com/horovod/horovod/blob/v0.28.1/docs/mpi.rst",
            "https://www.open-mpi.org/faq/?category=tcp#tcp-selection",
        ),
        define(
            CLUSTER_WORKER_FAILED,
            "A worker process failed",
            "A worker ended before the collective test finished; its own output says why.",
            _MULTI_WORKER,
        ),
        define(
            CLUSTER_BUSBW_BELOW_MIN,
            "The all-reduce bus bandwidth is below the required minimum",
            "The median bus bandwidth of the largest all-reduce (algbw * 2(n-1)/n, nccl-tests' "
            "convention) is below what the fabric was to deliver: a slow or misconfigured link, "
            "a fallback to another transport, or CPU collectives where NCCL was meant to run.",
            _NCCL_PERFORMANCE,
        ),
        define(
            CLUSTER_SLOW_LINK,
            "One link between ring neighbours is far slower than the others",
            "A ring all-reduce moves every chunk over every neighbour link, so it runs at the "
            "slowest link's pace: one pair whose point-to-point transfers are far slower than "
            "the other pairs' holds back the whole collective.",
            _NCCL_PERFORMANCE,
        ),
        define(
            FLEET_FACT_DIFFERS,
            "Nodes of one cluster differ",
            "Workers of one job should run the same TensorFlow, CUDA, cuDNN, driver and Python, "
            "with the same GPUs and settings; a node that differs fails or slows the whole job.",
            _MULTI_WORKER,
        ),
        define(
            DATASET_AUTOSHARD_MISMATCH,
            "tf.data cannot shard the input by file across the workers",
            "Sharded by file (the FILE policy, or the AUTO policy on an input read from files) "
            "each worker reads its own files, and each must get one: an input with fewer files "
            "than workers fails under either policy. An input not read from files "
            "(from_tensor_slices, a generator) fails under the FILE policy only; the AUTO "
            "policy falls back to DATA sharding for it and only notes it "
            "(auto_shard.cc, shard_dataset_op.cc).",
            _DISTRIBUTED_INPUT,
        ),
    )
)


#: A TF_CONFIG that TensorFlow reads, as the fixes show it.
_TF_CONFIG_EXAMPLE = (
    'export TF_CONFIG=\'{"cluster": {"worker": ["host1:12345", "host2:12345"]}, '
    '"task": {"type": "worker", "index": 0}}\''
)


def tf_config_json_fix() -> Fix:
    """TF_CONFIG written as JSON that json.loads reads."""
    # TFConfigClusterResolver._load_tf_config: json.loads(os.environ.get('TF_CONFIG', '{}')).
    return Fix(
        "Write TF_CONFIG as JSON (double quotes; generate it with json.dumps).",
        ('echo "TF_CONFIG=$TF_CONFIG"', _TF_CONFIG_EXAMPLE),
    )


def task_fix() -> Fix:
    """Each process its own task of a job the cluster has, its index below the job's size."""
    return Fix(
        "Give each process its own `task`: the same `cluster` everywhere, and "
        '`"task": {"type": "worker", "index": i}` with i = 0, 1, ... one per process, '
        "below the number of addresses its job lists.",
        ('echo "TF_CONFIG=$TF_CONFIG"',),
    )


def master_task_fix() -> Fix:
    """TensorFlow 1's `master` job renamed `chief`."""
    return Fix(
        "Rename the `master` job to `chief` (in a TFJob, the `Master` replica type to "
        "`Chief`), in every worker's TF_CONFIG."
    )


def unknown_job_fix() -> Fix:
    """Only the job names multi_worker_util allows."""
    return Fix("Name the jobs chief, worker, evaluator or ps.")


def one_task_fix(job: Optional[str] = None) -> Fix:
    """One address for the job (``job``: chief or evaluator) that allows one, the others
    under `worker`."""
    return Fix(f"Keep one `{job or 'chief'}` address; list the others under `worker`.")


def address_scheme_fix() -> Fix:
    """Bare host:port addresses in the cluster."""
    return Fix(
        "Drop the scheme: write host:port (grpc://node1:2222 -> node1:2222).",
        ('echo "TF_CONFIG=$TF_CONFIG"',),
    )


def autoshard_fix() -> Fix:
    """The input sharded by element (DATA), or split into at least as many files as workers."""
    # The words of tf.data's own advice (shard_dataset_op.cc): the DATA or OFF policy through
    # tf.data.Options, or more files than shards.
    return Fix(
        "Shard the input by element: set the DATA policy on the dataset given to the "
        "strategy (or OFF, and shard it yourself with dataset.shard), or split the input "
        "into at least as many files as there are workers.",
        (
            "options = tf.data.Options(); options.experimental_distribute.auto_shard_policy = "
            "tf.data.experimental.AutoShardPolicy.DATA; dataset = dataset.with_options(options)",
        ),
    )


def fleet_differs_fix(fact: str, shown: str = "", commands: Sequence[str] = ()) -> Fix:
    """The one ``fact`` made the same on every node (``shown``: what differs where, as the
    evidence names it; ``commands``: how to read the fact on a node)."""
    where = f" ({shown})" if shown else ""
    return Fix(
        f"Make {fact} the same on every node{where} (one image or one lock file for all "
        "workers); `tfdoctor diff A.json B.json` compares two nodes' reports.",
        tuple(commands),
    )


def cluster_unreachable_fix() -> Fix:
    """Every task started, listening on its own address, reachable through the firewall."""
    return Fix(
        "Start every task of the cluster (one process per address in TF_CONFIG), with the "
        "same cluster and its own task; check each listens on its address and that the "
        "hosts can reach each other's ports (`tfdoctor cluster check` reads TF_CONFIG).",
        ('echo "TF_CONFIG=$TF_CONFIG"',),
    )


def cluster_waiting_fix(tasks: Sequence[str]) -> Fix:
    """The tasks a session waits for (``tasks``, as /job:X/replica:0/task:N): each started,
    listening on its address, that address resolving and reachable from every other task."""
    # master.cc logs each task its DeviceFinder has not heard from every ten seconds: the
    # request never reached a server of that task, wherever it stopped.
    named = ", ".join(tasks) if tasks else "a task of the cluster"
    return Fix(
        f"The session is waiting for {named}: no answer came. Start every task (one "
        "process per address of the cluster spec, each with the same spec and its own job "
        "and index), and check from this host that each address resolves and its port is "
        "reachable: a host name only one machine or network knows (a container's own name, "
        "a cluster-internal DNS name) resolves nowhere else, so give each task an address "
        "every task resolves, or its IP. A few such lines while the other tasks start are "
        "normal.",
        (
            'echo "TF_CONFIG=$TF_CONFIG"',
            "getent hosts HOST  # each host of the cluster spec",
            "nc -zv HOST PORT  # each task's address",
        ),
    )


def unresolved_host_fix(host: Optional[str] = None) -> Fix:
    """A task's host name that does not resolve where another task looks it up: a name every
    task resolves, or an address (``host`` where known)."""
    return Fix(
        "Fix the name (in Kubernetes, a headless Service gives each pod a "
        "name: <pod>.<service>.<namespace>.svc), or use IP addresses.",
        (f"getent hosts {host or 'HOST  # each host of the cluster spec'}",),
    )


def mpi_interfaces_fix() -> Fix:
    """Open MPI (and NCCL) kept to the interfaces that join the hosts."""
    # Horovod's guide, "Hangs due to non-routed network interfaces": exclude lo and docker0
    # from Open MPI's TCP transport and from NCCL's sockets.
    return Fix(
        "Open MPI connected a rank over an interface that does not lead to the process it "
        "meant: an interface whose address repeats on every host (docker0, virbr0) or one not "
        "routed between them. List each host's interfaces, then tell Open MPI which to use "
        "(-mca btl_tcp_if_include with the interface that joins the hosts, or "
        "-mca btl_tcp_if_exclude with the others; oob_tcp_if_include for its own daemons) and "
        "NCCL the same (NCCL_SOCKET_IFNAME).",
        (
            "ip -4 -o addr show  # on each host: an address that repeats on every host is not "
            "routed",
            "mpirun -mca btl_tcp_if_exclude lo,docker0 -mca oob_tcp_if_exclude lo,docker0 "
            "-x NCCL_SOCKET_IFNAME=^lo,docker0 ... python train.py  # the interfaces ip listed",
        ),
    )


def collective_group_fix(m: Machine) -> Fix:
    """Every worker joins each collective group alike: the same devices, the same program (the
    variable printed in the machine's shells)."""
    return Fix(
        "The workers joined one collective group with different devices or group sizes: "
        "each worker must see the same GPUs (a worker whose GPU is hidden or missing joins "
        "as CPU, one with fewer GPUs gives another group size) and run the same program, "
        "with one strategy created once per process. Give every worker its GPUs (the same "
        "CUDA_VISIBLE_DEVICES, each listing them), or where the workers cannot have the same "
        "devices use CommunicationImplementation.RING instead of NCCL "
        "(tf.distribute.MultiWorkerMirroredStrategy(communication_options="
        "tf.distribute.experimental.CommunicationOptions(implementation="
        "tf.distribute.experimental.CommunicationImplementation.RING))).",
        (
            *show_env(m, "CUDA_VISIBLE_DEVICES"),
            "nvidia-smi -L",
            "python -c \"import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))\"",
        ),
    )


def peer_failed_fix(lost: Sequence[str] = ()) -> Fix:
    """The collective only reports that a peer went away: its own log says why."""
    whose = ", ".join(lost) if lost else "the other workers"
    return Fix(
        f"Read the log of {whose} for why it ended (a crash, the kernel's out-of-memory "
        "killer, preemption or eviction by the scheduler); restart the job from a checkpoint "
        "once it is fixed.",
        ("dmesg | grep -i -E 'killed process|out of memory'",),
    )


def view_mismatch_fix() -> Fix:
    """One cluster list everywhere, one index per process; restart the processes that differ."""
    return Fix(
        "Give every process the same `cluster` and its own `task` index (0 to N-1, one "
        "each), generated from one source; stop the processes started with an older list "
        "and start them again.",
        ('echo "TF_CONFIG=$TF_CONFIG"',),
    )


def port_in_use_fix(port: Optional[str] = None) -> Fix:
    """Free the task's port, or give the task another one in every TF_CONFIG."""
    return Fix(
        "Stop the process that holds the task's port (an earlier run still alive), or give "
        "the task a free port in every worker's TF_CONFIG.",
        (f"ss -ltnp 'sport = :{port}'" if port else "ss -ltnp",),
    )


def busbw_below_min_fix(ran: str) -> Fix:
    """Find the slow link, and check the collective runs on the transport meant for it."""
    nccl = (
        ""
        if ran == "NCCL"
        else "; on GPUs, have the strategy use NCCL (CommunicationOptions(implementation="
        "CommunicationImplementation.NCCL))"
    )
    return Fix(
        "Look at the links view for the slow pair, then at that link: its negotiated speed, "
        f"errors and drops, a shaping qdisc, the route between the hosts{nccl}; compare with "
        "nccl-tests' all_reduce_perf on the same hosts.",
        ("ip -s link", "tc qdisc show"),
    )


def slow_link_fix(source: str, target: str) -> Fix:
    """Check the one link between the two named tasks' hosts."""
    return Fix(
        f"Check the network path between {source} and {target}: the interfaces' negotiated "
        "speed, errors and drops, a traffic-shaping qdisc, a route that takes a slower path; "
        "move the job off that pair of hosts until it is fixed.",
        ("ip -s link", "tc qdisc show", "ip route show"),
    )
