"""Validate the cluster description a worker stands in: ``TF_CONFIG``, Slurm, Kubernetes.

Pure functions of the environment (and an injected name resolver): nothing here imports
TensorFlow or connects anywhere. The rules are TensorFlow's own, read from
``tensorflow/python/distribute/multi_worker_util.py`` (``_validate_cluster_spec``),
``cluster_resolver/tfconfig_cluster_resolver.py`` and ``slurm_cluster_resolver.py``, so a
spec this module passes is one ``MultiWorkerMirroredStrategy`` accepts as a whole cluster.
"""

from __future__ import annotations

import ipaddress
import json
import queue
import re
import socket
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Optional

from tfdoctor import causes
from tfdoctor.bounded import (
    MAX_JSON_NESTING,
    MAX_TF_CONFIG_BYTES,
    InputError,
    parse_json,
    read_text,
)
from tfdoctor.causes import CauseId, finding
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.records import Record, record

#: Finding ids (the check is the id's prefix ``cluster``).
CHECK = "cluster"

#: Says whether ``host`` resolves: ``None`` when it does, else the reason. Injected so that
#: tests never touch the network.
Resolver = Callable[[str], Optional[str]]
#: Told ``(answered, total)`` as host names are looked up.
LookupProgress = Callable[[int, int], None]

#: Host names looked up at once. ``getaddrinfo`` blocks its thread for as long as the
#: resolver takes (about 0.15 s for an unknown name, seconds for a dead DNS server), so a
#: cluster of hundreds of names is looked up in parallel, without flooding the resolver.
RESOLVE_WORKERS = 16
#: Seconds all look-ups may take together; names unanswered by then are reported as such.
RESOLVE_DEADLINE = 10.0

#: The task types ``_validate_cluster_spec`` allows (``allowed_task_types``); TF1's ``master``
#: is not among them in TF2.
ALLOWED_TASK_TYPES = ("chief", "worker", "evaluator", "ps")

#: SlurmClusterResolver's default first port (``port_base=8888``): task k on a node listens on
#: 8888 + k.
SLURM_PORT_BASE = 8888

#: The variables SlurmClusterResolver reads; only ``srun`` sets the ``SLURM_STEP_*`` ones
#: (``_get_slurm_var`` raises "Not running inside a SLURM step?" without them).
SLURM_STEP_VARS = (
    "SLURM_PROCID",
    "SLURM_STEP_NUM_TASKS",
    "SLURM_STEP_NODELIST",
    "SLURM_STEP_TASKS_PER_NODE",
)

TF_CONFIG_GUIDE = "https://www.tensorflow.org/guide/distributed_training#setting_up_tf_config_environment_variable"
MULTI_WORKER_TUTORIAL = "https://www.tensorflow.org/tutorials/distribute/multi_worker_with_keras"
SLURM_RESOLVER_DOC = (
    "https://www.tensorflow.org/api_docs/python/tf/distribute/cluster_resolver/SlurmClusterResolver"
)
TFJOB_DOC = "https://www.kubeflow.org/docs/components/trainer/legacy-v1/user-guides/tensorflow/"


def system_resolver(host: str) -> Optional[str]:
    """Resolve ``host`` with the system's resolver: ``None`` when it resolves, else why not."""
    try:
        socket.getaddrinfo(host, None)
    except (OSError, UnicodeError) as exc:
        return str(exc) or type(exc).__name__
    return None


#: Seconds between two look-ups of a name that does not resolve yet (``--wait-dns``).
DNS_RETRY_SECONDS = 0.5


def patient(resolve: Resolver, seconds: float, pause: float = DNS_RETRY_SECONDS) -> Resolver:
    """``resolve``, asked again every ``pause`` seconds until the name resolves or ``seconds``
    have passed since the first look-up: the DNS names of pods still starting appear late
    (a headless Service publishes a pod's record only once the pod exists)."""
    if seconds <= 0:
        return resolve
    first: list[float] = []
    lock = threading.Lock()

    def ask(host: str) -> Optional[str]:
        with lock:
            if not first:
                first.append(time.monotonic())
        end = first[0] + seconds
        while True:
            reason = resolve(host)
            if reason is None or time.monotonic() + pause > end:
                return reason
            time.sleep(pause)

    return ask


@record
class NameLookup(Record):
    """How the host names of a cluster are looked up: at most ``workers`` at once, all within
    ``deadline`` seconds, with ``progress`` told after each answer."""

    workers: int = RESOLVE_WORKERS
    deadline: float = RESOLVE_DEADLINE
    progress: Optional[LookupProgress] = None


#: Look-ups as the commands run them.
DEFAULT_LOOKUP = NameLookup()


def resolve_all(
    hosts: Sequence[str], resolve: Resolver, lookup: NameLookup
) -> dict[str, Optional[str]]:
    """``resolve``'s answer for each host answered within the deadline (a host left out was
    not answered in time).

    The look-ups run in daemon threads: one still blocked at the deadline is abandoned, and
    cannot keep the process from exiting.
    """
    answers: dict[str, Optional[str]] = {}
    if not hosts:
        return answers
    waiting: queue.SimpleQueue[str] = queue.SimpleQueue()
    for host in hosts:
        waiting.put(host)
    changed = threading.Condition()

    def work() -> None:
        while True:
            try:
                host = waiting.get_nowait()
            except queue.Empty:
                return
            try:
                reason = resolve(host)
            except Exception as exc:  # a resolver that fails is an answer: the name is unusable
                reason = f"{type(exc).__name__}: {exc}"
            with changed:
                answers[host] = reason
                changed.notify()

    for _ in range(max(1, min(lookup.workers, len(hosts)))):
        threading.Thread(target=work, name="tfdoctor-resolve", daemon=True).start()
    end = time.monotonic() + lookup.deadline
    count = 0
    finished = False
    while not finished:
        with changed:
            left = end - time.monotonic()
            if len(answers) == count and left > 0:
                changed.wait(left)
            count = len(answers)
            finished = count == len(hosts) or time.monotonic() >= end
            out = dict(answers) if finished else answers
        if lookup.progress is not None:
            lookup.progress(count, len(hosts))
    while True:  # the names not started yet are not looked up at all
        try:
            waiting.get_nowait()
        except queue.Empty:
            break
    return out


@record
class Address(Record):
    """One task's ``host:port`` as written in the spec, split."""

    job: str
    index: int
    text: str
    host: str
    port: Optional[int]


@record
class ClusterSpec(Record):
    """A cluster as TensorFlow sees it: jobs and their addresses, and this worker's task."""

    #: Where it came from: ``TF_CONFIG`` or ``Slurm``.
    source: str
    jobs: Mapping[str, tuple[str, ...]]
    task_type: Optional[str] = None
    task_index: Optional[int] = None

    @property
    def task_count(self) -> int:
        """How many tasks the cluster has in all."""
        return sum(len(v) for v in self.jobs.values())

    @property
    def chief(self) -> Optional[tuple[str, int]]:
        """The task that leads: the chief if there is one, else worker 0 (TF's ``is_chief``)."""
        if self.jobs.get("chief"):
            return ("chief", 0)
        if self.jobs.get("worker"):
            return ("worker", 0)
        return None

    def addresses(self) -> list[Address]:
        """Every task's address, in job then index order."""
        out = []
        for job in sorted(self.jobs):
            for index, text in enumerate(self.jobs[job]):
                host, port = split_address(text)
                out.append(Address(job, index, text, host, port))
        return out

    def to_json(self) -> dict[str, Any]:
        """The ``TF_CONFIG`` document for this spec."""
        doc: dict[str, Any] = {"cluster": {k: list(v) for k, v in self.jobs.items()}}
        if self.task_type is not None:
            doc["task"] = {"type": self.task_type, "index": self.task_index or 0}
        return doc


def split_address(text: str) -> tuple[str, Optional[int]]:
    """``host:port`` (or ``[v6]:port``) into host and port; port ``None`` when unreadable."""
    text = text.strip()
    # gRPC target prefixes a user may copy from elsewhere; TF's ClusterSpec does not take them.
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
    else:
        host, sep, port_text = text.rpartition(":")
        if not sep:
            return text, None
    if not port_text.isdigit():
        return host, None
    return host, int(port_text)


def is_loopback(host: str) -> bool:
    """``localhost`` or an address in 127.0.0.0/8 or ``::1``."""
    if host.lower() in ("localhost", "localhost.localdomain", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


# --- TF_CONFIG ---------------------------------------------------------------------------------


def _err(cause: CauseId, summary: str, detail: str = "", fix: Optional[Fix] = None) -> Finding:
    return finding(f"{CHECK}.{cause}", Severity.ERROR, cause, summary, detail, fix)


def _warn(cause: CauseId, summary: str, detail: str = "", fix: Optional[Fix] = None) -> Finding:
    return finding(f"{CHECK}.{cause}", Severity.WARNING, cause, summary, detail, fix)


def parse_tf_config(text: str) -> tuple[Optional[ClusterSpec], list[Finding]]:
    """``TF_CONFIG`` into a spec, and the findings on its form (JSON, keys, task, jobs).

    The spec is ``None`` when TensorFlow would not see a cluster at all.
    """
    # TFConfigClusterResolver: json.loads(os.environ.get('TF_CONFIG', '{}')).
    try:
        doc = parse_json(text, "TF_CONFIG", "TF_CONFIG") if text.strip() else {}
    except InputError:
        return None, [
            _err(
                causes.cluster.TF_CONFIG_INVALID_JSON,
                f"TF_CONFIG nests deeper than {MAX_JSON_NESTING} levels; a cluster "
                "description needs three",
                "A cluster description nests `cluster`, a job, its address list. TensorFlow's "
                "json.loads fails with RecursionError on a document nested about 1,000 deep, "
                "and no document this deep is a cluster it can use.",
            )
        ]
    except ValueError as exc:
        return None, [
            _err(
                causes.cluster.TF_CONFIG_INVALID_JSON,
                f"TF_CONFIG is not valid JSON: {exc}",
                fix=causes.cluster.tf_config_json_fix(),
            )
        ]
    if not isinstance(doc, dict):
        return None, [
            _err(
                causes.cluster.TF_CONFIG_INVALID_JSON,
                f"TF_CONFIG is JSON but not an object (a {type(doc).__name__})",
            )
        ]
    if "cluster" not in doc:
        if "sparseCluster" in doc:
            return None, [
                _err(
                    causes.cluster.TF_CONFIG_SPARSE_CLUSTER,
                    "TF_CONFIG has `sparseCluster` but no `cluster`: TensorFlow trains as one "
                    "worker",
                    fix=_cluster_key_fix(),
                )
            ]
        return None, [
            _err(
                causes.cluster.TF_CONFIG_NO_CLUSTER,
                "TF_CONFIG has no `cluster` key: TensorFlow trains as one worker",
                fix=_cluster_key_fix(),
            )
        ]
    cluster = doc["cluster"]
    jobs, findings = _parse_jobs(cluster)
    if jobs is None:
        return None, findings
    task_type, task_index, task_findings = _parse_task(doc.get("task"), jobs)
    spec = ClusterSpec("TF_CONFIG", jobs, task_type, task_index)
    return spec, findings + task_findings


def _cluster_key_fix() -> Fix:
    return Fix(
        "Name every task's address under `cluster` (TFConfigClusterResolver reads only that "
        "key; a missing one gives an empty ClusterSpec and single-worker training).",
        (
            'export TF_CONFIG=\'{"cluster": {"worker": ["host1:12345", "host2:12345"]}, '
            '"task": {"type": "worker", "index": 0}}\'',
        ),
    )


def _parse_jobs(cluster: Any) -> tuple[Optional[dict[str, tuple[str, ...]]], list[Finding]]:
    """``cluster`` into job -> addresses; findings on its shape and its task types."""
    bad_shape = _err(
        causes.cluster.TF_CONFIG_BAD_CLUSTER,
        "TF_CONFIG `cluster` is not a map of job name to a list of `host:port` addresses",
        f"It is: {json.dumps(cluster)[:200]}",
    )
    if not isinstance(cluster, dict):
        return None, [bad_shape]
    jobs: dict[str, tuple[str, ...]] = {}
    findings: list[Finding] = []
    for job, listed in cluster.items():
        tasks = listed
        # ClusterSpec also takes {index: address} maps (sparse jobs); both are read here.
        if isinstance(listed, dict):
            try:
                ordered = sorted(((int(k), v) for k, v in listed.items()), key=lambda kv: kv[0])
            except ValueError:
                return None, [bad_shape]
            tasks = [v for _, v in ordered]
        if not isinstance(tasks, list) or not all(isinstance(t, str) for t in tasks):
            return None, [bad_shape]
        jobs[str(job)] = tuple(tasks)
    if not jobs or not any(jobs.values()):
        return None, [
            _err(
                causes.cluster.TF_CONFIG_NO_CLUSTER,
                "TF_CONFIG `cluster` names no task: TensorFlow trains as one worker",
                fix=_cluster_key_fix(),
            )
        ]
    if "master" in jobs:
        findings.append(
            _err(
                causes.cluster.TF_CONFIG_MASTER_TASK,
                "TF_CONFIG has a `master` job, which TensorFlow 2 rejects",
                "multi_worker_util._validate_cluster_spec allows only chief, worker, evaluator "
                "and ps ('Disallowed task type found in cluster spec').",
                causes.cluster.master_task_fix(),
            )
        )
    unknown = sorted(j for j in jobs if j not in ALLOWED_TASK_TYPES and j != "master")
    if unknown:
        findings.append(
            _err(
                causes.cluster.TF_CONFIG_UNKNOWN_JOB,
                f"TF_CONFIG has job(s) TensorFlow does not allow: {', '.join(unknown)}",
                f"Allowed job names: {', '.join(ALLOWED_TASK_TYPES)} "
                "(multi_worker_util._validate_cluster_spec).",
                causes.cluster.unknown_job_fix(),
            )
        )
    for job in ("chief", "evaluator"):
        if len(jobs.get(job, ())) > 1:
            findings.append(
                _err(
                    causes.cluster.TF_CONFIG_MULTIPLE_CHIEFS,
                    f"TF_CONFIG has {len(jobs[job])} `{job}` tasks; TensorFlow allows one",
                    f"_validate_cluster_spec: 'There must be at most one {job!r} job.'",
                    causes.cluster.one_task_fix(job),
                )
            )
    return jobs, findings


def _parse_task(
    task: Any, jobs: Mapping[str, tuple[str, ...]]
) -> tuple[Optional[str], Optional[int], list[Finding]]:
    """``task`` into type and index, checked against the jobs as ``_validate_cluster_spec``."""
    fix = causes.cluster.task_fix()
    if task is None:
        return (
            None,
            None,
            [
                _err(
                    causes.cluster.TF_CONFIG_TASK_INVALID,
                    "TF_CONFIG has a cluster but no `task`: this process does not know which "
                    "task it is",
                    fix=fix,
                )
            ],
        )
    if not isinstance(task, dict) or not isinstance(task.get("type"), str):
        return (
            None,
            None,
            [
                _err(
                    causes.cluster.TF_CONFIG_TASK_INVALID,
                    "TF_CONFIG `task` has no `type` string",
                    fix=fix,
                )
            ],
        )
    task_type = task["type"]
    raw_index = task.get("index", 0)
    # TFConfigClusterResolver: int(task_info.get('index', 0)) - a string of digits passes.
    try:
        index = int(raw_index)
    except (TypeError, ValueError):
        return (
            task_type,
            None,
            [
                _err(
                    causes.cluster.TF_CONFIG_TASK_INVALID,
                    f"TF_CONFIG task index {raw_index!r} is not an integer",
                    fix=fix,
                )
            ],
        )
    if task_type not in jobs:
        if task_type == "evaluator":
            # _validate_cluster_spec: the evaluator may be missing from the cluster.
            return task_type, index, []
        return (
            task_type,
            index,
            [
                _err(
                    causes.cluster.TF_CONFIG_TASK_INVALID,
                    f"TF_CONFIG task type `{task_type}` is not a job in `cluster` "
                    f"({', '.join(sorted(jobs))})",
                    "_validate_cluster_spec: '`task_type` not found in cluster_spec.'",
                    fix,
                )
            ],
        )
    count = len(jobs[task_type])
    if not 0 <= index < count:
        return (
            task_type,
            index,
            [
                _err(
                    causes.cluster.TF_CONFIG_TASK_OUT_OF_RANGE,
                    f"TF_CONFIG task {task_type} {index} is out of range: `{task_type}` has "
                    f"{count} task(s), indices 0 to {count - 1}",
                    "_validate_cluster_spec: 'The `task_id` exceeds the maximum id'.",
                    fix,
                )
            ],
        )
    return task_type, index, []


#: How many tasks a finding on a repeated mistake names; the rest are a count. A spec of
#: 70,000 tasks with the same mistake gives one finding, not 70,000.
SHOWN = 5

#: A URL scheme before the address (``grpc://``, ``http://``).
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def named(items: Sequence[str], shown: int = SHOWN) -> str:
    """The first ``shown`` of ``items``, then how many more."""
    more = len(items) - shown
    return ", ".join(items[:shown]) + (f" and {more} more" if more > 0 else "")


def _collapsed(
    cause: CauseId,
    source: str,
    subjects: Sequence[str],
    what: str,
    detail: str,
    fix: Fix,
) -> list[Finding]:
    """One finding for every task with the same mistake: the first named, the rest counted."""
    if not subjects:
        return []
    if len(subjects) == 1:
        return [_err(cause, f"{source}: {subjects[0]}: {what}", detail, fix)]
    summary = f"{source}: {len(subjects)} tasks {what}: {named(subjects)}"
    return [_err(cause, summary, detail, fix)]


@record
class AddressRule(Record):
    """A mistake in the form of one address: the first rule an address breaks is its finding."""

    cause: CauseId
    test: Callable[[Address], bool]
    what: str
    detail: str
    fix: Fix


def _unbracketed_v6(a: Address) -> bool:
    return not a.text.strip().startswith("[") and a.text.count(":") >= 2


#: The rules on an address's form, in the order they are tried.
ADDRESS_RULES = (
    AddressRule(
        causes.cluster.TF_CONFIG_ADDRESS_SCHEME,
        lambda a: bool(_SCHEME.match(a.text.strip())),
        "a scheme before host:port, which TensorFlow rejects",
        "TensorFlow takes bare host:port: the strategy fails with 'Could not interpret "
        '"grpc://host:port" as a host-port pair\' (ValidateHostPortPair, '
        "tensorflow/core/distributed_runtime/rpc/grpc_channel.cc). The name is not looked up.",
        causes.cluster.address_scheme_fix(),
    ),
    AddressRule(
        causes.cluster.TF_CONFIG_ADDRESS_WHITESPACE,
        lambda a: a.text != "".join(a.text.split()),
        "spaces or line breaks in the address",
        "TensorFlow passes the address to gRPC as written; a name with a space never "
        "resolves. The name is not looked up.",
        Fix("Remove the whitespace (build TF_CONFIG with json.dumps from trimmed names)."),
    ),
    AddressRule(
        causes.cluster.TF_CONFIG_IPV6_UNBRACKETED,
        _unbracketed_v6,
        "an IPv6 address without brackets",
        "gRPC reads a target with two or more colons and no brackets as a bare IPv6 address "
        "without a port (SplitHostPort, grpc src/core/util/host_port.cc).",
        Fix("Put IPv6 addresses in brackets: [::1]:2222, [fe80::1%eth0]:2222."),
    ),
    AddressRule(
        causes.cluster.TF_CONFIG_BAD_ADDRESS,
        lambda a: not a.host or a.port is None,
        "not host:port",
        "Each task's gRPC server listens on the port of its address.",
        Fix("Write each address as host:port (IPv6 as [addr]:port)."),
    ),
    AddressRule(
        causes.cluster.TF_CONFIG_BAD_ADDRESS,
        lambda a: a.port is not None and not 1 <= a.port <= 65535,
        "a port out of range (1-65535)",
        "A TCP port is a number from 1 to 65535.",
        Fix("Use a free TCP port between 1024 and 65535 for each task."),
    ),
)


def _subject(a: Address) -> str:
    return f"{a.job} {a.index} {a.text!r}"


def check_addresses(
    spec: ClusterSpec, resolve: Resolver, lookup: NameLookup = DEFAULT_LOOKUP
) -> list[Finding]:
    """Each address: form (scheme, whitespace, IPv6 brackets, host:port, port range),
    duplicates, loopback mix, resolution; each mistake once, however many tasks make it."""
    findings: list[Finding] = []
    broken: dict[int, list[Address]] = {}
    good: list[Address] = []
    for a in spec.addresses():
        hit = next((n for n, r in enumerate(ADDRESS_RULES) if r.test(a)), None)
        if hit is None:
            good.append(a)
        else:
            broken.setdefault(hit, []).append(a)
    for number, rule in enumerate(ADDRESS_RULES):
        subjects = [_subject(a) for a in broken.get(number, ())]
        findings += _collapsed(rule.cause, spec.source, subjects, rule.what, rule.detail, rule.fix)
    findings += _duplicates(spec.source, good)
    hosts = sorted({a.host.lower() for a in good})
    loop = [h for h in hosts if is_loopback(h)]
    if loop and len(hosts) > len(loop):
        findings.append(
            _err(
                causes.cluster.TF_CONFIG_LOCALHOST_MULTI_HOST,
                f"{spec.source}: loopback address(es) {named(loop)} in a cluster that "
                f"spans other hosts ({named([h for h in hosts if h not in loop])})",
                "Each worker reaches 'localhost' on its own machine: the other hosts cannot "
                "connect to a task listed that way, and the all-reduce waits for it forever.",
                Fix("List every task by a name or IP address all hosts can reach."),
            )
        )
    names = [h for h in hosts if not (_is_ip(h) or is_loopback(h))]
    answers = resolve_all(names, resolve, lookup)
    failed = [h for h in names if answers.get(h) is not None]
    if failed:
        reasons = sorted({str(answers[h]) for h in failed})
        findings.append(
            _err(
                causes.cluster.TF_CONFIG_UNRESOLVABLE,
                f"{spec.source}: host {failed[0]!r} does not resolve here ({reasons[0]})"
                if len(failed) == 1
                else f"{spec.source}: {len(failed)} host names do not resolve here: "
                f"{named(failed)} ({'; '.join(reasons[:3])})",
                "gRPC cannot connect to a task whose name does not resolve; "
                "TensorFlow waits for it until the collective times out.",
                causes.cluster.unresolved_host_fix(failed[0]),
            )
        )
    late = [h for h in names if h not in answers]
    if late:
        findings.append(_late_finding(spec.source, late, len(names), lookup.deadline))
    return findings


def _duplicates(source: str, addresses: Sequence[Address]) -> list[Finding]:
    """One finding for every task whose host:port an earlier task already has."""
    seen: dict[tuple[str, Optional[int]], Address] = {}
    pairs: list[str] = []
    for a in addresses:
        key = (a.host.lower(), a.port)
        first = seen.setdefault(key, a)
        if first is not a:
            pairs.append(f"{first.job} {first.index} and {a.job} {a.index} share {a.text}")
    if not pairs:
        return []
    summary = (
        f"{source}: {pairs[0]}"
        if len(pairs) == 1
        else f"{source}: {len(pairs)} tasks reuse an earlier task's address: {named(pairs)}"
    )
    return [
        _err(
            causes.cluster.TF_CONFIG_DUPLICATE_ADDRESS,
            summary,
            "Two gRPC servers cannot listen on one port; the second fails to start "
            "('Address already in use') or every message goes to one of them.",
            Fix("Give every task its own host:port (on one host, one port each)."),
        )
    ]


def _late_finding(source: str, late: Sequence[str], total: int, deadline: float) -> Finding:
    """The names the resolver did not answer in time: unknown, neither good nor bad."""
    shown = named(late)
    return Finding(
        f"{CHECK}.resolve-timeout",
        Severity.UNKNOWN,
        f"{source}: {len(late)} of {total} host name(s) not resolved within {deadline:g} s: "
        f"{shown}",
        "The name resolver did not answer in time (a slow or unreachable DNS server); "
        "gRPC waits on these names as well when the workers connect.",
        Fix(
            "Look the names up by hand, and fix the resolver or use IP addresses.",
            (f"getent hosts {late[0]}",),
        ),
        check=CHECK,
    )


def read_tf_config(path: str) -> str:
    """The TF_CONFIG document in ``path`` (``-``: stdin), within what an environment variable
    holds; InputError naming the file when it cannot be read or is larger."""
    try:
        return read_text(path, MAX_TF_CONFIG_BYTES, "TF_CONFIG")
    except InputError:
        raise
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from None


def summary_finding(spec: ClusterSpec) -> Finding:
    """The ok line: how many tasks of which kinds, and which one this process is."""
    kinds = ", ".join(f"{len(v)} {k}" for k, v in sorted(spec.jobs.items()) if v)
    me = (
        f"this process is {spec.task_type} {spec.task_index}"
        if spec.task_type is not None
        else "this process's task is not set"
    )
    return Finding(
        f"{CHECK}.spec",
        Severity.OK,
        f"{spec.source}: {kinds}; {me}",
        check=CHECK,
    )


def single_worker_finding(spec: ClusterSpec) -> Optional[Finding]:
    """One task in all: valid, but MultiWorkerMirroredStrategy then runs on one worker."""
    if spec.task_count != 1:
        return None
    return finding(
        f"{CHECK}.single-worker",
        Severity.INFO,
        causes.cluster.TF_CONFIG_SINGLE_WORKER,
        f"{spec.source} lists one task: training runs on this worker alone",
    )


# --- Slurm -------------------------------------------------------------------------------------


def expand_hostlist(text: str) -> list[str]:
    """A Slurm host list (``node[01-03,07],gpu1``) into host names, in order.

    The same expansion as SlurmClusterResolver's ``expand_hostlist``; raises ``ValueError``
    on a malformed list.
    """
    hosts: list[str] = []
    for part in re.findall(r"[^,\[]+(?:\[[^\]]*\])?[^,]*", text):
        match = re.fullmatch(r"([^\[]*)\[([^\]]*)\](.*)", part)
        if match is None:
            if "[" in part or "]" in part:
                raise ValueError(f"malformed host list entry {part!r}")
            hosts.append(part)
            continue
        prefix, ranges, suffix = match.groups()
        for item in ranges.split(","):
            lo, sep, hi = item.partition("-")
            if not lo.isdigit() or (sep and not hi.isdigit()):
                raise ValueError(f"malformed range {item!r} in {part!r}")
            width = len(lo)
            for n in range(int(lo), int(hi if sep else lo) + 1):
                hosts.append(f"{prefix}{n:0{width}d}{suffix}")
    return hosts


def expand_tasks_per_node(text: str) -> list[int]:
    """``SLURM_STEP_TASKS_PER_NODE`` (``2(x3),1``) into a count per node."""
    counts: list[int] = []
    for item in text.split(","):
        match = re.fullmatch(r"(\d+)(?:\(x(\d+)\))?", item.strip())
        if match is None:
            raise ValueError(f"malformed tasks-per-node entry {item!r}")
        counts.extend([int(match.group(1))] * int(match.group(2) or 1))
    return counts


def slurm_spec(env: Mapping[str, str]) -> ClusterSpec:
    """The spec SlurmClusterResolver would build: ``worker`` tasks at host:8888+k.

    Raises ``ValueError`` (or ``KeyError``) when the step variables are missing or malformed.
    """
    hosts = expand_hostlist(env["SLURM_STEP_NODELIST"])
    per_node = expand_tasks_per_node(env["SLURM_STEP_TASKS_PER_NODE"])
    if len(per_node) != len(hosts):
        raise ValueError(
            f"SLURM_STEP_TASKS_PER_NODE has {len(per_node)} entries for {len(hosts)} nodes"
        )
    num = int(env["SLURM_STEP_NUM_TASKS"])
    if sum(per_node) != num:
        # SlurmClusterResolver: 'Requested {} tasks but only {} were assigned.'
        raise ValueError(f"SLURM_STEP_NUM_TASKS is {num} but the nodes hold {sum(per_node)}")
    workers = [f"{h}:{SLURM_PORT_BASE + k}" for h, n in zip(hosts, per_node) for k in range(n)]
    return ClusterSpec("Slurm", {"worker": tuple(workers)}, "worker", int(env["SLURM_PROCID"]))


def check_slurm(
    env: Mapping[str, str], resolve: Resolver, lookup: NameLookup = DEFAULT_LOOKUP
) -> list[Finding]:
    """Inside a Slurm job: inside ``srun``, the step variables consistent, names resolvable."""
    if "SLURM_JOB_ID" not in env and "SLURM_PROCID" not in env:
        return []
    missing = [v for v in SLURM_STEP_VARS if not env.get(v)]
    if missing:
        return [
            _err(
                causes.cluster.SLURM_OUTSIDE_SRUN,
                f"In a Slurm job but not in a job step: {', '.join(missing)} unset",
                "SlurmClusterResolver reads the step's variables, which only `srun` sets; in "
                "the batch script itself it fails ('Not running inside a SLURM step?').",
                Fix(
                    "Start one process per task with srun inside the batch script.",
                    ("srun --ntasks-per-node=1 python train.py",),
                ),
            )
        ]
    try:
        spec = slurm_spec(env)
    except (ValueError, KeyError) as exc:
        return [
            _err(
                causes.cluster.SLURM_INCONSISTENT,
                f"The Slurm step variables do not describe a cluster: {exc}",
                fix=Fix("Start the processes with srun; do not set SLURM_* variables by hand."),
            )
        ]
    findings: list[Finding] = []
    assert spec.task_index is not None
    if not 0 <= spec.task_index < spec.task_count:
        findings.append(
            _err(
                causes.cluster.SLURM_INCONSISTENT,
                f"SLURM_PROCID {spec.task_index} is outside the step's {spec.task_count} tasks",
            )
        )
    findings.extend(check_addresses(spec, resolve, lookup))
    if "TF_CONFIG" not in env:
        findings.append(
            finding(
                f"{CHECK}.slurm-resolver",
                Severity.INFO,
                causes.cluster.SLURM_RESOLVER_NOT_DEFAULT,
                f"Slurm step: {spec.task_count} tasks; this process is worker {spec.task_index}."
                " Pass SlurmClusterResolver() to the strategy (it reads no TF_CONFIG)",
                fix=Fix(
                    "Create the strategy with the Slurm resolver; without it, it trains alone.",
                    (
                        "strategy = tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver="
                        "tf.distribute.cluster_resolver.SlurmClusterResolver())",
                    ),
                ),
            )
        )
    return findings


def tf_task_order(spec: ClusterSpec) -> list[tuple[str, int]]:
    """Every task of ``spec`` in TensorFlow's worker order: chief, workers, then the rest."""
    jobs = ["chief", "worker", *sorted(j for j in spec.jobs if j not in ("chief", "worker"))]
    return [(job, i) for job in jobs for i in range(len(spec.jobs.get(job, ())))]


def _short(host: str) -> str:
    """A host name without its domain (Slurm lists nodes by their short names)."""
    return host.lower().split(".", 1)[0]


def check_slurm_tf_config(env: Mapping[str, str], spec: ClusterSpec) -> list[Finding]:
    """``TF_CONFIG`` inside a Slurm step against the step: task count, this process's rank,
    the hosts of the allocation and this node."""
    procid_text = env.get("SLURM_PROCID")
    if procid_text is None:
        return []
    source = spec.source
    fix = Fix(
        "Build TF_CONFIG inside srun from the step's own variables: one task per process, "
        "index = SLURM_PROCID, hosts from the step's node list (scontrol show hostnames).",
        (
            'srun bash -c \'export TF_CONFIG=$(python make_tf_config.py "$SLURM_STEP_NODELIST" '
            '"$SLURM_PROCID"); exec python train.py\'',
        ),
    )
    findings: list[Finding] = []
    problems: list[str] = []
    ntasks_var = "SLURM_STEP_NUM_TASKS" if env.get("SLURM_STEP_NUM_TASKS") else "SLURM_NTASKS"
    ntasks_text = env.get(ntasks_var)
    if ntasks_text is not None:
        if not ntasks_text.strip().isdigit():
            problems.append(f"{ntasks_var} is {ntasks_text!r}, not a number")
        elif int(ntasks_text) != spec.task_count:
            problems.append(
                f"{ntasks_var} is {int(ntasks_text)} but {source} lists {spec.task_count} "
                "task(s): "
                + (
                    "some tasks never start"
                    if int(ntasks_text) < spec.task_count
                    else "some processes have no task of their own"
                )
            )
    nodes_var = "SLURM_STEP_NODELIST" if env.get("SLURM_STEP_NODELIST") else "SLURM_JOB_NODELIST"
    nodes_text = env.get(nodes_var)
    if nodes_text:
        try:
            nodes = {_short(h) for h in expand_hostlist(nodes_text)}
        except ValueError as exc:
            problems.append(f"{nodes_var} {nodes_text!r} cannot be read: {exc}")
        else:
            outside = sorted(
                {
                    a.host
                    for a in spec.addresses()
                    if a.host
                    and not _is_ip(a.host)
                    and not is_loopback(a.host)
                    and _short(a.host) not in nodes
                }
            )
            if outside:
                problems.append(
                    f"{len(outside)} host(s) of {source} are not in {nodes_var} "
                    f"({named(sorted(nodes))}): {named(outside)}"
                )
    if problems:
        findings.append(
            _err(
                causes.cluster.SLURM_TF_CONFIG_MISMATCH,
                f"{source} does not match this Slurm step: {'; '.join(problems)}",
                "srun starts the step's tasks on its nodes; TensorFlow waits for every task "
                f"{source} lists, on the hosts it names.",
                fix,
            )
        )
    findings += _rank_mismatch(env, spec, procid_text, fix)
    return findings


def _rank_mismatch(
    env: Mapping[str, str], spec: ClusterSpec, procid_text: str, fix: Fix
) -> list[Finding]:
    """This process's task against its SLURM_PROCID and the node it runs on."""
    if spec.task_type is None or spec.task_index is None:
        return []
    me = (spec.task_type, spec.task_index)
    order = tf_task_order(spec)
    problems = []
    if procid_text.strip().isdigit() and me in order and order.index(me) != int(procid_text):
        problems.append(
            f"this process is {me[0]} {me[1]}, task {order.index(me)} in TensorFlow's order "
            f"(chief, then workers), but SLURM_PROCID is {int(procid_text)}"
        )
    node = env.get("SLURMD_NODENAME")
    tasks = spec.jobs.get(me[0], ())
    if node and me[1] < len(tasks):
        host, _ = split_address(tasks[me[1]])
        if host and not _is_ip(host) and not is_loopback(host) and _short(host) != _short(node):
            problems.append(f"its address {tasks[me[1]]} is not on this node ({node})")
    if not problems:
        return []
    return [
        _warn(
            causes.cluster.SLURM_TF_CONFIG_MISMATCH,
            f"{spec.source}: {'; '.join(problems)}",
            "When each process's task is not its own rank, two processes can claim one task "
            "(the same index everywhere is the usual cause) and another task never arrives.",
            fix,
        )
    ]


# --- Kubernetes --------------------------------------------------------------------------------


def check_kubernetes(env: Mapping[str, str], spec: Optional[ClusterSpec]) -> list[Finding]:
    """In a Kubernetes pod: TF_CONFIG must come from a TFJob operator or the manifest."""
    if "KUBERNETES_SERVICE_HOST" not in env or spec is not None or "TF_CONFIG" in env:
        return []
    return [
        _err(
            causes.cluster.K8S_NO_TF_CONFIG,
            "In a Kubernetes pod without TF_CONFIG: TensorFlow trains as one worker",
            "Kubeflow's training operator (v1 TFJob) writes TF_CONFIG into each pod; Kubeflow "
            "Trainer v2 has no TensorFlow runtime, so a Job or JobSet must set it itself.",
            Fix(
                "Set TF_CONFIG in the pod spec from the pod's completion index (see "
                "docs/cluster.md for an Indexed Job with a headless Service), or run a TFJob."
            ),
        )
    ]


# --- everything --------------------------------------------------------------------------------


def check_environment(
    env: Mapping[str, str], resolve: Resolver, lookup: NameLookup = DEFAULT_LOOKUP
) -> tuple[Optional[ClusterSpec], tuple[Finding, ...]]:
    """Every cluster finding for a process with environment ``env``, and the spec it sees.

    The spec is the ``TF_CONFIG`` one (what ``MultiWorkerMirroredStrategy()`` reads by
    default), else the Slurm step's.
    """
    findings: list[Finding] = []
    spec: Optional[ClusterSpec] = None
    text = env.get("TF_CONFIG")
    if text is not None:
        spec, form = parse_tf_config(text)
        findings.extend(form)
        if spec is not None:
            findings.extend(check_addresses(spec, resolve, lookup))
            findings.extend(check_slurm_tf_config(env, spec))
    slurm = check_slurm(env, resolve, lookup)
    findings.extend(slurm)
    if spec is None and text is None and slurm and not _has_errors(slurm):
        try:
            spec = slurm_spec(env)
        except (ValueError, KeyError):
            spec = None
    findings.extend(check_kubernetes(env, spec))
    if text is None and not slurm and not findings:
        findings.append(
            _err(
                causes.cluster.TF_CONFIG_NO_CLUSTER,
                "No cluster description: TF_CONFIG is unset and this is no Slurm step",
                "MultiWorkerMirroredStrategy() then trains as one worker, silently.",
                _cluster_key_fix(),
            )
        )
    if spec is not None:
        single = single_worker_finding(spec)
        if single is not None:
            findings.append(single)
        if not _has_errors(findings):
            findings.insert(0, summary_finding(spec))
    return spec, tuple(findings)


def _has_errors(findings: Sequence[Finding]) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)
