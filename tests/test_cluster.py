"""``tfdoctor cluster check``, ``diff``, ``fleet``: pure validation, no TensorFlow, no network."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

from tests import factories as f
from tests.commandline import tfdoctor
from tfdoctor.causes import CAUSES
from tfdoctor.cluster import check_report
from tfdoctor.cluster.fleet import compare_nodes, differences, node_summary
from tfdoctor.cluster.spec import (
    check_environment,
    expand_hostlist,
    expand_tasks_per_node,
    slurm_spec,
    split_address,
)
from tfdoctor.cluster.verdicts import Measurements, judge, measurements
from tfdoctor.cluster.workers import (
    WorkerOutcome,
    local_spec,
    parse_worker_output,
    stragglers,
)
from tfdoctor.facts import Facts
from tfdoctor.findings import BandwidthPoint, FleetRow, Severity, report_to_json
from tfdoctor.probes._run import CommandResult

ROOT = Path(__file__).resolve().parent.parent


class FakeResolver:
    """Resolves only the names it is given; records every name asked (never the network)."""

    def __init__(self, *known: str) -> None:
        self.known = set(known)
        self.asked: list[str] = []

    def __call__(self, host: str) -> Optional[str]:
        self.asked.append(host)
        return None if host in self.known else "Name or service not known"


def tf_config(cluster: object, task: object = None) -> str:
    doc: dict[str, object] = {"cluster": cluster}
    if task is not None:
        doc["task"] = task
    return json.dumps(doc)


def causes_of(env: dict[str, str], resolver: Optional[FakeResolver] = None) -> list[str]:
    _, findings = check_environment(env, resolver or FakeResolver())
    return [x.cause for x in findings if x.severity is Severity.ERROR]


W0 = {"type": "worker", "index": 0}


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        pytest.param("{'cluster': {}}", "tf-config-invalid-json", id="single-quotes"),
        pytest.param("[1, 2]", "tf-config-invalid-json", id="not-an-object"),
        pytest.param(json.dumps({"task": W0}), "tf-config-no-cluster", id="no-cluster-key"),
        pytest.param(
            json.dumps({"sparseCluster": {"worker": {"0": "10.0.0.1:2222"}}, "task": W0}),
            "tf-config-sparse-cluster",
            id="sparse-cluster",
        ),
        pytest.param(tf_config({"worker": []}, W0), "tf-config-no-cluster", id="empty-jobs"),
        pytest.param(tf_config({"worker": "10.0.0.1:1"}, W0), "tf-config-bad-cluster", id="str"),
        pytest.param(tf_config(["10.0.0.1:1"], W0), "tf-config-bad-cluster", id="list"),
        pytest.param(
            tf_config({"master": ["10.0.0.1:1"], "worker": ["10.0.0.2:1"]}, W0),
            "tf-config-master-task",
            id="master",
        ),
        pytest.param(
            tf_config({"trainer": ["10.0.0.1:1"], "worker": ["10.0.0.2:1"]}, W0),
            "tf-config-unknown-job",
            id="unknown-job",
        ),
        pytest.param(
            tf_config({"chief": ["10.0.0.1:1", "10.0.0.2:1"], "worker": ["10.0.0.3:1"]}, W0),
            "tf-config-multiple-chiefs",
            id="two-chiefs",
        ),
        pytest.param(
            tf_config({"evaluator": ["10.0.0.1:1", "10.0.0.2:1"], "worker": ["10.0.0.3:1"]}, W0),
            "tf-config-multiple-chiefs",
            id="two-evaluators",
        ),
        pytest.param(tf_config({"worker": ["10.0.0.1:1"]}), "tf-config-task-invalid", id="no-task"),
        pytest.param(
            tf_config({"worker": ["10.0.0.1:1"]}, {"type": "chief", "index": 0}),
            "tf-config-task-invalid",
            id="task-type-not-in-cluster",
        ),
        pytest.param(
            tf_config({"worker": ["10.0.0.1:1"]}, {"type": "worker", "index": "one"}),
            "tf-config-task-invalid",
            id="index-not-int",
        ),
        pytest.param(
            tf_config({"worker": ["10.0.0.1:1", "10.0.0.2:1"]}, {"type": "worker", "index": 2}),
            "tf-config-task-out-of-range",
            id="index-too-big",
        ),
        pytest.param(
            tf_config({"worker": ["10.0.0.1:1", "10.0.0.2:1"]}, {"type": "worker", "index": -1}),
            "tf-config-task-out-of-range",
            id="index-negative",
        ),
        pytest.param(
            tf_config({"worker": ["10.0.0.1", "10.0.0.2:1"]}, W0),
            "tf-config-bad-address",
            id="no-port",
        ),
        pytest.param(
            tf_config({"worker": ["10.0.0.1:70000", "10.0.0.2:1"]}, W0),
            "tf-config-bad-address",
            id="port-out-of-range",
        ),
        pytest.param(
            tf_config({"worker": ["10.0.0.1:2222", "10.0.0.1:2222"]}, W0),
            "tf-config-duplicate-address",
            id="duplicate",
        ),
        pytest.param(
            tf_config({"worker": ["localhost:2222", "10.0.0.2:2222"]}, W0),
            "tf-config-localhost-multi-host",
            id="localhost-multi-host",
        ),
        pytest.param(
            tf_config({"worker": ["127.0.0.5:2222", "10.0.0.2:2222"]}, W0),
            "tf-config-localhost-multi-host",
            id="127-multi-host",
        ),
        pytest.param(
            tf_config({"worker": ["node-a.invalid:2222", "10.0.0.2:2222"]}, W0),
            "tf-config-unresolvable",
            id="unresolvable",
        ),
    ],
)
def test_each_invalid_tf_config_gives_its_one_finding(text: str, cause: str) -> None:
    assert causes_of({"TF_CONFIG": text}) == [cause]
    assert cause in CAUSES


def test_a_valid_two_worker_config_passes_and_names_this_task() -> None:
    resolver = FakeResolver("node-a.example", "node-b.example")
    env = {"TF_CONFIG": tf_config({"worker": ["node-a.example:2222", "node-b.example:2222"]}, W0)}
    spec, findings = check_environment(env, resolver)
    assert [x.severity for x in findings] == [Severity.OK]
    assert findings[0].summary == "TF_CONFIG: 2 worker; this process is worker 0"
    assert spec is not None and spec.task_count == 2
    assert sorted(resolver.asked) == ["node-a.example", "node-b.example"]


def test_loopback_only_cluster_is_fine_and_never_resolved() -> None:
    resolver = FakeResolver()
    env = {"TF_CONFIG": tf_config({"worker": ["127.0.0.1:2222", "localhost:2223"]}, W0)}
    assert causes_of(env, resolver) == []
    assert resolver.asked == []


def test_evaluator_may_be_missing_from_the_cluster() -> None:
    env = {"TF_CONFIG": tf_config({"worker": ["10.0.0.1:1"]}, {"type": "evaluator", "index": 0})}
    assert causes_of(env) == []


def test_one_task_is_a_note_that_training_runs_alone() -> None:
    _, findings = check_environment(
        {"TF_CONFIG": tf_config({"worker": ["10.0.0.1:1"]}, W0)}, FakeResolver()
    )
    assert [x.cause for x in findings if x.severity is Severity.INFO] == ["tf-config-single-worker"]


def test_no_description_at_all_is_an_error() -> None:
    assert causes_of({}) == ["tf-config-no-cluster"]


def test_kubernetes_pod_without_tf_config() -> None:
    assert causes_of({"KUBERNETES_SERVICE_HOST": "10.96.0.1"}) == ["k8s-no-tf-config"]


@pytest.mark.parametrize(
    ("text", "hosts"),
    [
        pytest.param("node1", ["node1"], id="one"),
        pytest.param("node[1-3]", ["node1", "node2", "node3"], id="range"),
        pytest.param("gpu[08-10],cpu1", ["gpu08", "gpu09", "gpu10", "cpu1"], id="padded"),
        pytest.param("n[1,3-4]", ["n1", "n3", "n4"], id="list-and-range"),
    ],
)
def test_slurm_hostlist(text: str, hosts: list[str]) -> None:
    assert expand_hostlist(text) == hosts


def test_slurm_tasks_per_node() -> None:
    assert expand_tasks_per_node("2(x3),1") == [2, 2, 2, 1]


SLURM_STEP = {
    "SLURM_JOB_ID": "42",
    "SLURM_PROCID": "1",
    "SLURM_STEP_NUM_TASKS": "3",
    "SLURM_STEP_NODELIST": "node[1-2]",
    "SLURM_STEP_TASKS_PER_NODE": "2,1",
}


def test_slurm_step_gives_the_resolvers_cluster() -> None:
    spec = slurm_spec(SLURM_STEP)
    assert spec.jobs == {"worker": ("node1:8888", "node1:8889", "node2:8888")}
    assert spec.task_index == 1
    _, findings = check_environment(SLURM_STEP, FakeResolver("node1", "node2"))
    assert [x.cause for x in findings if x.severity is not Severity.OK] == [
        "slurm-resolver-not-default"
    ]


def test_slurm_batch_script_outside_srun() -> None:
    env = {"SLURM_JOB_ID": "42", "SLURM_PROCID": "0"}
    assert causes_of(env) == ["slurm-outside-srun"]


def test_slurm_step_that_does_not_add_up() -> None:
    env = {**SLURM_STEP, "SLURM_STEP_NUM_TASKS": "4"}
    assert causes_of(env, FakeResolver("node1", "node2")) == ["slurm-inconsistent"]


def test_slurm_names_that_do_not_resolve() -> None:
    assert causes_of(SLURM_STEP, FakeResolver("node1")) == ["tf-config-unresolvable"]


@pytest.mark.parametrize(
    ("text", "host", "port"),
    [
        ("10.0.0.1:2222", "10.0.0.1", 2222),
        ("[::1]:2222", "::1", 2222),
        ("host", "host", None),
        ("host:http", "host", None),
    ],
)
def test_split_address(text: str, host: str, port: Optional[int]) -> None:
    assert split_address(text) == (host, port)


# --- fleet and diff ----------------------------------------------------------------------------


def test_node_summary_names_versions_gpus_and_env() -> None:
    facts = f.facts(
        environment={"TF_FORCE_GPU_ALLOW_GROWTH": "true", "TF_CONFIG": "{}", "PATH": "/x"}
    )
    summary = node_summary(facts)
    assert summary["tensorflow"] == "2.15.1"
    assert summary["GPU model"] == "NVIDIA A100-SXM4-80GB"
    assert summary["GPU count"] == "1"
    assert summary["NVIDIA driver"] == "550.54.15"
    assert summary["$TF_FORCE_GPU_ALLOW_GROWTH"] == "true"
    assert "$TF_CONFIG" not in summary and "$PATH" not in summary


def test_the_odd_node_out_is_named() -> None:
    same = {"tensorflow": "2.16.1", "GPU count": "8"}
    nodes = {
        "node-a": same,
        "node-b": same,
        "node-c": {"tensorflow": "2.15.0", "GPU count": "8"},
    }
    (diff,) = differences(nodes)
    assert diff.odd == ("node-c",)
    findings = compare_nodes(nodes)
    differs = [x for x in findings if x.cause == "fleet-fact-differs"]
    assert [x.summary for x in differs] == [
        "tensorflow differs on node-c (the other 2 have 2.16.1)"
    ]
    assert differs[0].severity is Severity.ERROR


def test_two_nodes_have_no_majority_but_both_values_are_shown() -> None:
    nodes = {"a": {"$NCCL_DEBUG": "INFO"}, "b": {}}
    (x,) = [x for x in compare_nodes(nodes) if x.cause]
    assert x.summary == "$NCCL_DEBUG differs between the nodes"
    assert x.detail == "a: INFO; b: (unknown)"
    assert x.severity is Severity.WARNING


def _save(tmp_path: Path, name: str, facts: Facts) -> str:
    from tfdoctor.findings import Report

    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(report_to_json(Report(facts, ()), "0.1.0")), encoding="utf-8")
    return str(path)


#: A child environment without the host's launcher variables (TF_CONFIG, Slurm's, Kubernetes').
LAUNCHER_FREE = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}


def test_diff_cli_names_what_differs(tmp_path: Path) -> None:
    a = _save(tmp_path, "node-a", f.facts())
    b = _save(tmp_path, "node-b", f.facts(tensorflow=f.tensorflow(version="2.16.1")))
    out = tfdoctor("diff", a, b, "--json", environ=LAUNCHER_FREE)
    assert out.returncode == 2, out.stderr
    doc = json.loads(out.stdout)
    ids = [x["id"] for x in doc["findings"]]
    assert "fleet.differs.tensorflow" in ids
    text = tfdoctor("diff", a, b, "--no-color", environ=LAUNCHER_FREE).stdout
    assert "node-a: 2.15.1; node-b: 2.16.1" in text


def test_fleet_cli_names_the_odd_node(tmp_path: Path) -> None:
    paths = [_save(tmp_path, f"n{i}", f.facts()) for i in range(2)]
    paths.append(_save(tmp_path, "n2", f.facts(driver=f.driver(driver_version="535.1"))))
    out = tfdoctor("fleet", *paths, "--json", environ=LAUNCHER_FREE)
    assert out.returncode == 1 - 1, out.stderr  # a differing driver is a warning
    summaries = [x["summary"] for x in json.loads(out.stdout)["findings"]]
    assert "NVIDIA driver differs on n2 (the other 2 have 550.54.15)" in summaries


def test_fleet_cli_unreadable_report_exits_3(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    out = tfdoctor("fleet", str(bad), str(tmp_path / "missing.json"), environ=LAUNCHER_FREE)
    assert out.returncode == 3
    assert out.stderr.startswith("tfdoctor: error:") and "Traceback" not in out.stderr


def test_cluster_check_cli_exit_codes(tmp_path: Path) -> None:
    good = tf_config({"worker": ["127.0.0.1:2222", "127.0.0.1:2223"]}, W0)
    assert (
        tfdoctor("cluster", "check", env={"TF_CONFIG": good}, environ=LAUNCHER_FREE).returncode == 0
    )
    bad = tfdoctor("cluster", "check", "--json", env={"TF_CONFIG": "{'x'"}, environ=LAUNCHER_FREE)
    assert bad.returncode == 2
    assert [x["cause"] for x in json.loads(bad.stdout)["findings"]] == ["tf-config-invalid-json"]
    from_stdin = tfdoctor("cluster", "check", "--tf-config", "-", stdin=good, environ=LAUNCHER_FREE)
    assert from_stdin.returncode == 0, from_stdin.stdout
    missing = tfdoctor(
        "cluster", "check", "--tf-config", str(tmp_path / "none.json"), environ=LAUNCHER_FREE
    )
    assert missing.returncode == 3 and "Traceback" not in missing.stderr


def test_cluster_check_does_not_import_tensorflow() -> None:
    code = (
        "import sys, os\n"
        "os.environ['TF_CONFIG'] = '{}'\n"
        "from tfdoctor.cli.app import main\n"
        "main(['cluster', 'check', '--json'])\n"
        "assert 'tensorflow' not in sys.modules\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr


# --- reading the workers' output -----------------------------------------------------------------


def _cmd(stdout: str, returncode: int = 0, stderr: str = "") -> CommandResult:
    return CommandResult(("python",), returncode, stdout, stderr, 1.0)


def test_stragglers_are_read_from_tensorflows_log() -> None:
    log = (
        "I0000 coordination_service.cc:502] Waiting for 1/3 tasks to connect.\n"
        "I0000 coordination_service.cc:505] Example stragglers:\n"
        "/job:worker/replica:0/task:1\n/job:worker/replica:0/task:2\n"
        "I0000 coordination_service_agent.cc:245] Coordination agent has successfully connected.\n"
    )
    assert stragglers(log) == ["worker 1", "worker 2"]


def test_a_worker_that_died_mid_test_is_named_with_its_last_step() -> None:
    out = '{"event": "step", "step": "all-reduce", "task": "worker 1"}\n'
    outcome = parse_worker_output("worker 1", "127.0.0.1:1", _cmd(out, -9))
    assert (outcome.status, outcome.step) == ("crashed", "all-reduce")
    spec = local_spec([1, 2])
    (x,) = judge(spec, [outcome], 10.0)
    assert x.cause == "cluster-worker-failed"
    assert x.summary == "worker 1 ended with exit status -9 in step 'all-reduce'"


def _ok_result(got: list[float], facts: dict[str, dict[str, str]]) -> str:
    doc = {
        "event": "result",
        "status": "ok",
        "task": "worker 0",
        "workers": 2,
        "allreduce": {"ok": got == [1.0, 2.0], "got": got, "expected": [1.0, 2.0]},
        "facts": {t: {"task": t, "host": "h", "facts": v} for t, v in facts.items()},
        "sweep": [{"bytes": 4, "seconds": 0.001, "algbw": 4000.0, "busbw": 4000.0}],
    }
    return json.dumps(doc) + "\n"


def test_a_wrong_all_reduce_names_the_missing_contribution() -> None:
    same = {"tensorflow": "2.21.0"}
    outcome = parse_worker_output(
        "worker 0",
        "127.0.0.1:1",
        _cmd(_ok_result([1.0, 0.0], {"worker 0": same, "worker 1": same})),
    )
    findings = judge(local_spec([1, 2]), [outcome], 10.0)
    bad = [x for x in findings if x.severity is Severity.ERROR]
    assert [x.summary for x in bad] == [
        "sum all-reduce gave wrong values: replica 1 (got 0, expected 2)"
    ]


def test_a_worker_whose_tensorflow_differs_is_reported_from_gathered_facts() -> None:
    gathered = {"worker 0": {"tensorflow": "2.21.0"}, "worker 1": {"tensorflow": "2.20.0"}}
    outcome = parse_worker_output("worker 0", "127.0.0.1:1", _cmd(_ok_result([1.0, 2.0], gathered)))
    findings = judge(local_spec([1, 2]), [outcome], 10.0)
    assert [x.id for x in findings] == [
        "cluster.allreduce",
        "cluster.bandwidth",
        "fleet.nodes",
        "fleet.differs.tensorflow",
    ]
    assert findings[-1].detail == "worker 0 (h): 2.21.0; worker 1 (h): 2.20.0"


def test_a_timeout_names_the_task_that_did_not_arrive() -> None:
    outcome = parse_worker_output(
        "worker 0", "127.0.0.1:1", _cmd("", -9), step_timed_out="strategy", missing=["worker 1"]
    )
    (x,) = judge(local_spec([1, 2]), [outcome], 5.0)
    assert x.summary == "worker 0: step 'strategy' did not finish in 5 s; worker 1 did not arrive"


def test_check_report_wraps_findings() -> None:
    report = check_report({}, FakeResolver(), "0.1.0", "now")
    assert report.exit_code() == 2
    assert isinstance(WorkerOutcome("w", "a", "ok"), WorkerOutcome)


def test_the_run_carries_its_sweep_and_the_workers_facts_for_charts() -> None:
    gathered = {
        "worker 0": {"tensorflow": "2.21.0", "python": "3.11.7"},
        "worker 1": {"tensorflow": "2.21.0", "python": "3.11.7"},
        "worker 2": {"tensorflow": "2.20.0", "python": "3.11.7"},
    }
    outcome = parse_worker_output("worker 0", "127.0.0.1:1", _cmd(_ok_result([1.0, 2.0], gathered)))
    measured = measurements(local_spec([1, 2]), [outcome])
    assert measured.bandwidth == (BandwidthPoint(4, 0.001, 4000.0, 4000.0),)
    fleet = measured.fleet
    assert fleet is not None
    assert fleet.nodes == ("worker 0 (h)", "worker 1 (h)", "worker 2 (h)")
    assert fleet.rows == (
        FleetRow("python", ("3.11.7",) * 3),
        FleetRow("tensorflow", ("2.21.0", "2.21.0", "2.20.0"), differs=True, odd=("worker 2 (h)",)),
    )


def test_a_run_without_a_result_carries_no_measurements() -> None:
    outcome = WorkerOutcome("worker 0", "127.0.0.1:1", "timeout")
    assert measurements(local_spec([1, 2]), [outcome]) == Measurements()
