"""``tfdoctor cluster``: pre-flight for multi-worker training with ``tf.distribute``.

- :func:`check_report` validates the cluster description this worker sees (``TF_CONFIG``,
  Slurm, Kubernetes) without importing TensorFlow or connecting anywhere;
- :func:`smoke_report` then runs this worker's task of the cluster through
  ``MultiWorkerMirroredStrategy`` (all-reduce with known values, bandwidth sweep, facts of
  every worker gathered through the collective);
- :func:`local_report` starts N workers on loopback ports and runs the same test on them;
- :func:`tfdoctor.cluster.fleet.fleet_report` compares saved ``check --json`` reports.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Optional

from tfdoctor.cluster.fleet import FleetError, fleet_report
from tfdoctor.cluster.spec import (
    DEFAULT_LOOKUP,
    ClusterSpec,
    NameLookup,
    Resolver,
    check_environment,
    patient,
    read_tf_config,
    system_resolver,
)
from tfdoctor.cluster.verdicts import Measurements, judge, measurements
from tfdoctor.cluster.workers import (
    DEFAULT_ITERATIONS,
    DEFAULT_SIZES,
    FULL_SIZES,
    IMPLEMENTATIONS,
    SmokeOptions,
    WorkerOutcome,
    run_local,
    run_worker,
)
from tfdoctor.facts import Facts
from tfdoctor.findings import Finding, Report, Severity

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_SIZES",
    "FULL_SIZES",
    "IMPLEMENTATIONS",
    "ClusterSpec",
    "FleetError",
    "NameLookup",
    "SmokeOptions",
    "WorkerOutcome",
    "check_report",
    "fleet_report",
    "local_report",
    "read_tf_config",
    "smoke_report",
    "system_resolver",
]


def _report(
    findings: Sequence[Finding],
    version: str,
    now: str,
    outcomes: Sequence[WorkerOutcome] = (),
    spec: Optional[ClusterSpec] = None,
) -> Report:
    """The report of ``findings``; interrupted (exit 130) when Ctrl-C stopped a worker.

    With ``spec``, the run's measurements (bandwidth sweep, neighbour links, the collective
    implementation) and the workers' facts go with it (charts)."""
    measured = measurements(spec, outcomes) if spec is not None else Measurements()
    return Report(
        Facts(tfdoctor_version=version, collected_at=now),
        tuple(findings),
        interrupted=any(o.status == "interrupted" for o in outcomes),
        bandwidth=measured.bandwidth,
        links=measured.links,
        collective=measured.collective,
        fleet=measured.fleet,
    )


def check_report(
    env: Mapping[str, str],
    resolve: Resolver,
    version: str,
    now: str,
    lookup: NameLookup = DEFAULT_LOOKUP,
    wait_dns: float = 0.0,
) -> Report:
    """The findings on the cluster description in ``env`` (no TensorFlow, no connection).

    ``wait_dns``: seconds a name that does not resolve yet is looked up again.
    """
    if wait_dns > 0:
        resolve = patient(resolve, wait_dns)
        lookup = dataclasses.replace(lookup, deadline=lookup.deadline + wait_dns)
    _, findings = check_environment(env, resolve, lookup)
    return _report(findings, version, now)


def smoke_report(
    env: Mapping[str, str],
    options: SmokeOptions,
    resolve: Resolver,
    version: str,
    now: str,
    min_busbw: Optional[float] = None,
) -> Report:
    """This worker's check, then its task of the collective test when the check passed.

    ``min_busbw`` (GB/s): the largest all-reduce's median bus bandwidth must reach it."""
    spec, findings = check_environment(env, resolve)
    errors = any(f.severity is Severity.ERROR for f in findings)
    if spec is None or errors or spec.task_type is None:
        return _report(findings, version, now)
    outcome = run_worker(spec, options, env)
    findings = (*findings, *judge(spec, [outcome], options.timeout, min_busbw))
    return _report(findings, version, now, [outcome], spec)


def local_report(
    workers: int,
    options: SmokeOptions,
    version: str,
    now: str,
    *,
    ports: Optional[Sequence[int]] = None,
    skip: Sequence[int] = (),
    extra_env: Optional[Mapping[int, Mapping[str, str]]] = None,
    min_busbw: Optional[float] = None,
) -> Report:
    """N workers on loopback, each with its own TF_CONFIG, and the fleet report of the run."""
    spec, outcomes = run_local(workers, options, ports=ports, skip=skip, extra_env=extra_env)
    addresses = ", ".join(spec.jobs["worker"])
    head = Finding(
        "cluster.local",
        Severity.OK,
        f"{workers} worker(s) on loopback: {addresses}",
        check="cluster",
    )
    judged = judge(spec, outcomes, options.timeout, min_busbw)
    return _report((head, *judged), version, now, outcomes, spec)
