"""``cluster check``'s cross-checks: address forms, Slurm step against TF_CONFIG, bounded output."""

from __future__ import annotations

import time

import pytest

from tests.test_cluster import FakeResolver, tf_config
from tfdoctor.cluster.spec import check_environment
from tfdoctor.findings import Finding, Severity

W0 = {"type": "worker", "index": 0}


def findings_of(env: dict[str, str], resolver: FakeResolver) -> list[Finding]:
    _, findings = check_environment(env, resolver)
    return [x for x in findings if x.severity in (Severity.ERROR, Severity.WARNING)]


def one_worker_config(*addresses: str, index: int = 0) -> dict[str, str]:
    return {"TF_CONFIG": tf_config({"worker": list(addresses)}, {"type": "worker", "index": index})}


@pytest.mark.parametrize(
    ("address", "cause"),
    [
        pytest.param("::1:2222", "tf-config-ipv6-unbracketed", id="v6-loopback"),
        pytest.param("fe80::1:2222", "tf-config-ipv6-unbracketed", id="v6-link-local"),
        pytest.param("grpc://node1.invalid:2222", "tf-config-address-scheme", id="grpc-scheme"),
        pytest.param("http://node1.invalid:2222", "tf-config-address-scheme", id="http-scheme"),
        pytest.param(" node1.invalid:2222", "tf-config-address-whitespace", id="leading-space"),
        pytest.param("node1.invalid:2222\n", "tf-config-address-whitespace", id="newline"),
        pytest.param("node1 .invalid:2222", "tf-config-address-whitespace", id="inner-space"),
        pytest.param("node1.invalid", "tf-config-bad-address", id="no-port"),
        pytest.param("node1.invalid:70000", "tf-config-bad-address", id="port-too-big"),
    ],
)
def test_an_address_tensorflow_or_grpc_would_misread_is_one_named_finding(
    address: str, cause: str
) -> None:
    resolver = FakeResolver("node0.invalid")
    found = findings_of(one_worker_config("node0.invalid:2222", address), resolver)
    assert [x.cause for x in found] == [cause]
    assert "worker 1" in found[0].summary and found[0].fix is not None
    # A malformed address is never handed to the resolver (grpc://host is no host name).
    assert resolver.asked == ["node0.invalid"]


def test_bracketed_ipv6_passes() -> None:
    assert findings_of(one_worker_config("[::1]:2222", "[::1]:2223"), FakeResolver()) == []


def test_a_scheme_is_rejected_with_tensorflows_reason() -> None:
    (found,) = findings_of(one_worker_config("grpc://10.0.0.1:2222"), FakeResolver())
    assert "TensorFlow rejects" in found.summary
    assert "as a host-port pair" in found.detail
    assert found.fix is not None and "node1:2222" in found.fix.text


def test_seventy_thousand_duplicates_are_one_finding_with_a_count() -> None:
    env = one_worker_config(*["10.0.0.1:2222"] * 70_000)
    started = time.monotonic()
    found = findings_of(env, FakeResolver())
    assert time.monotonic() - started < 20
    assert [x.cause for x in found] == ["tf-config-duplicate-address"]
    summary = found[0].summary
    assert "69999 tasks reuse an earlier task's address" in summary
    assert summary.endswith("and 69994 more")
    assert len(summary) < 400


def test_many_tasks_with_the_same_bad_form_are_one_finding() -> None:
    env = one_worker_config(*[f"grpc://10.0.{i // 250}.{i % 250}:2222" for i in range(5000)])
    (found,) = findings_of(env, FakeResolver())
    assert found.cause == "tf-config-address-scheme"
    assert found.summary.startswith("TF_CONFIG: 5000 tasks a scheme before host:port")
    assert found.summary.endswith("and 4995 more")


def test_names_that_do_not_resolve_are_one_finding() -> None:
    env = one_worker_config(*[f"node{i}.invalid:2222" for i in range(40)])
    (found,) = findings_of(env, FakeResolver())
    assert found.cause == "tf-config-unresolvable"
    assert found.summary.startswith("TF_CONFIG: 40 host names do not resolve here: ")
    assert "and 35 more" in found.summary


# --- Slurm step against TF_CONFIG ---------------------------------------------------------------

NODES = [f"node{n:02d}.invalid" for n in (1, 2, 3, 4, 7)]


def nodes_resolver() -> FakeResolver:
    """Resolves the nodes by full and by short name (the step's list holds short ones)."""
    return FakeResolver(*NODES, *(n.split(".")[0] for n in NODES))


def slurm_env(procid: int, **extra: str) -> dict[str, str]:
    """A task of a 5-task step on node[01-04,07], one task per node."""
    return {
        "SLURM_JOB_ID": "42",
        "SLURM_PROCID": str(procid),
        "SLURM_NTASKS": "5",
        "SLURM_STEP_NUM_TASKS": "5",
        "SLURM_STEP_NODELIST": "node[01-04,07]",
        "SLURM_JOB_NODELIST": "node[01-04,07]",
        "SLURM_STEP_TASKS_PER_NODE": "1(x5)",
        "SLURMD_NODENAME": f"node{[1, 2, 3, 4, 7][procid]:02d}",
        **extra,
    }


def test_a_tf_config_that_matches_its_slurm_step_passes() -> None:
    resolver = nodes_resolver()
    env = {**slurm_env(2), **one_worker_config(*(f"{n}:2222" for n in NODES), index=2)}
    assert findings_of(env, resolver) == []


def test_a_task_count_that_is_not_the_steps_is_an_error() -> None:
    resolver = nodes_resolver()
    env = {**slurm_env(0), **one_worker_config(*(f"{n}:2222" for n in NODES[:3]))}
    found = [x for x in findings_of(env, resolver) if x.severity is Severity.ERROR]
    assert [x.cause for x in found] == ["slurm-tf-config-mismatch"]
    assert "SLURM_STEP_NUM_TASKS is 5 but TF_CONFIG lists 3 task(s)" in found[0].summary


def test_slurm_ntasks_is_read_when_the_step_count_is_absent() -> None:
    env = {"SLURM_PROCID": "0", "SLURM_NTASKS": "4", **one_worker_config("10.0.0.1:1")}
    found = findings_of(env, FakeResolver())
    assert any("SLURM_NTASKS is 4 but TF_CONFIG lists 1" in x.summary for x in found)


def test_hosts_outside_the_allocation_are_named_through_the_bracket_syntax() -> None:
    resolver = FakeResolver("node01.invalid", "node05.invalid", "node09.invalid", "node07.invalid")
    hosts = ["node01.invalid", "node05.invalid", "node09.invalid", "node07.invalid", "node01"]
    env = {
        **slurm_env(0, SLURM_NTASKS="5", SLURM_STEP_NUM_TASKS="5"),
        **one_worker_config(*(f"{h}:{2222 + i}" for i, h in enumerate(hosts))),
    }
    env.pop("SLURM_STEP_NODELIST")  # the job's list serves when the step's is missing
    found = [x for x in findings_of(env, resolver) if x.cause == "slurm-tf-config-mismatch"]
    errors = [x for x in found if x.severity is Severity.ERROR]
    assert len(errors) == 1
    assert "2 host(s) of TF_CONFIG are not in SLURM_JOB_NODELIST" in errors[0].summary
    assert errors[0].summary.endswith("node05.invalid, node09.invalid")


def test_the_same_index_on_every_process_is_named_against_slurm_procid() -> None:
    resolver = nodes_resolver()
    env = {**slurm_env(3), **one_worker_config(*(f"{n}:2222" for n in NODES), index=0)}
    (found,) = findings_of(env, resolver)
    assert found.cause == "slurm-tf-config-mismatch" and found.severity is Severity.WARNING
    assert "this process is worker 0" in found.summary
    assert "but SLURM_PROCID is 3" in found.summary
    assert "is not on this node (node04)" in found.summary


def test_with_a_chief_the_rank_counts_the_chief_first() -> None:
    resolver = nodes_resolver()
    config = tf_config(
        {"chief": [f"{NODES[0]}:2222"], "worker": [f"{n}:2222" for n in NODES[1:]]},
        {"type": "worker", "index": 0},
    )
    assert findings_of({**slurm_env(1), "TF_CONFIG": config}, resolver) == []


def test_an_unreadable_node_list_is_named() -> None:
    env = {**slurm_env(0, SLURM_STEP_NODELIST="node[01-"), **one_worker_config("10.0.0.1:1")}
    causes = [x.cause for x in findings_of(env, FakeResolver())]
    assert "slurm-tf-config-mismatch" in causes
