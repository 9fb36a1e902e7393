"""Compare nodes: the facts that should agree across a cluster, and the node that differs.

A node is summarised as a flat map of fact name to value (:func:`node_summary` from a saved
``check --json`` report; the cluster worker child produces the same names from inside
TensorFlow), so saved reports and facts gathered through the collectives compare alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

from tfdoctor import causes
from tfdoctor.bounded import MAX_REPORT_BYTES, InputError, read_json
from tfdoctor.causes import finding
from tfdoctor.cluster.spec import SHOWN as SHOWN_NODES
from tfdoctor.cluster.spec import named
from tfdoctor.facts import Facts, FactsError, TFStatus, normalize_name
from tfdoctor.findings import (
    Finding,
    FleetRow,
    FleetTable,
    Report,
    Severity,
    facts_from_report_json,
)
from tfdoctor.machine import Machine
from tfdoctor.records import Record, record

#: Finding ids start with this (``fleet.nodes``, ``fleet.differs.tensorflow`` ...).
CHECK = "fleet"

#: Facts whose difference breaks a multi-worker job outright, not just slows or skews it:
#: collectives exchange serialized graphs and tensors between these builds.
BREAKING = frozenset({"tensorflow", "python", "tensorflow build CUDA", "tensorflow build cuDNN"})

#: Environment variables that change how every worker behaves, so they should agree.
#: TF_CONFIG differs by design (each task's index); TF_CLI_* and TF_VAR_* are Terraform's.
ENV_EXACT = ("CUDA_VISIBLE_DEVICES", "XLA_FLAGS", "KERAS_BACKEND", "LD_LIBRARY_PATH", "PYTHONPATH")
ENV_PREFIXES = ("TF_", "NCCL_")
ENV_SKIP_PREFIXES = ("TF_CLI_", "TF_VAR_")

#: How many odd nodes a finding names before it counts the rest; the majority is a count.
NAMED_NODES = 10

#: The value a summary shows for a fact its node could not determine.
UNKNOWN = "(unknown)"


class FleetError(ValueError):
    """A report that cannot be read or holds no facts; the message names the file."""


def matters(name: str) -> bool:
    """Whether environment variable ``name`` should agree across the nodes."""
    if name == "TF_CONFIG" or name.startswith(ENV_SKIP_PREFIXES):
        return False
    return name in ENV_EXACT or name.startswith(ENV_PREFIXES)


def node_summary(facts: Facts) -> dict[str, str]:
    """The facts to compare across nodes, by name; :data:`UNKNOWN` where not determined."""
    out: dict[str, str] = {}
    out["python"] = facts.python.version if facts.python else UNKNOWN
    if facts.platform is not None:
        out["platform"] = f"{facts.platform.system} {facts.platform.machine}"
    tf = facts.tensorflow
    installed = Machine(facts, None).tf
    version = (
        tf.version if tf is not None and tf.version else (installed.version if installed else None)
    )
    out["tensorflow"] = version or UNKNOWN
    if tf is not None and tf.status == TFStatus.OK:
        out["tensorflow build CUDA"] = tf.cuda_version or "none"
        out["tensorflow build cuDNN"] = tf.cudnn_version or "none"
    for dist in ("keras", "numpy"):
        pkg = facts.package(dist)
        out[dist] = pkg.version if pkg is not None else "not installed"
    driver = facts.driver
    if driver is not None:
        out["NVIDIA driver"] = driver.driver_version or "none"
        out["GPU count"] = str(len(driver.gpus))
        names = sorted({g.name for g in driver.gpus})
        out["GPU model"] = ", ".join(names) if names else "none"
    # NCCL and the CUDA libraries as pip installs them, by distribution name.
    for pkg in facts.packages or ():
        dist = normalize_name(pkg.name)
        if dist.startswith("nvidia-"):
            out[dist] = pkg.version
    for name, value in sorted((facts.environment or {}).items()):
        if matters(name):
            out[f"${name}"] = value
    return out


def load_node(path: str) -> tuple[str, Facts, Optional[dict[str, Any]]]:
    """A saved ``check --json`` report: its node name (the file's stem), facts, summary."""
    try:
        data = read_json(path, MAX_REPORT_BYTES, "a saved report")
    except OSError as exc:
        raise FleetError(f"cannot read {path}: {exc.strerror or exc}") from None
    except InputError as exc:
        raise FleetError(str(exc)) from None
    except ValueError as exc:  # not JSON, or not UTF-8
        raise FleetError(f"{path}: not JSON: {exc}") from None
    try:
        facts = facts_from_report_json(data)
    except FactsError as exc:
        raise FleetError(f"{path}: {exc}") from None
    summary = data.get("summary") if isinstance(data, dict) else None
    return Path(path).stem, facts, summary if isinstance(summary, dict) else None


@record
class Difference(Record):
    """One fact that differs: its name, and which nodes hold which value."""

    fact: str
    groups: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def odd(self) -> Optional[tuple[str, ...]]:
        """The nodes out of line: those of the rarest value when one value is the majority's."""
        if len(self.groups) < 2:
            return None
        sizes = sorted(len(nodes) for _, nodes in self.groups)
        if sizes[-1] == sizes[-2]:
            return None
        majority = max(self.groups, key=lambda g: len(g[1]))[0]
        return tuple(sorted(n for value, nodes in self.groups if value != majority for n in nodes))


def differences(nodes: Mapping[str, Mapping[str, str]]) -> list[Difference]:
    """Each fact whose value is not the same on every node (a missing one counts as unknown)."""
    names = sorted({k for summary in nodes.values() for k in summary})
    out = []
    for name in names:
        by_value: dict[str, list[str]] = {}
        for node in sorted(nodes):
            by_value.setdefault(nodes[node].get(name, UNKNOWN), []).append(node)
        if len(by_value) > 1:
            groups = sorted(((v, tuple(n)) for v, n in by_value.items()), key=lambda g: -len(g[1]))
            out.append(Difference(name, tuple(groups)))
    return out


def fleet_table(nodes: Mapping[str, Mapping[str, str]]) -> FleetTable:
    """Every compared fact, node by node, with the differing ones and their odd nodes marked."""
    names = sorted(nodes)
    diffs = {d.fact: d for d in differences(nodes)}
    rows = []
    for fact in sorted({k for summary in nodes.values() for k in summary}):
        diff = diffs.get(fact)
        rows.append(
            FleetRow(
                fact,
                tuple(nodes[n].get(fact, UNKNOWN) for n in names),
                differs=diff is not None,
                odd=(diff.odd or ()) if diff is not None else (),
            )
        )
    return FleetTable(tuple(names), tuple(rows))


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower().lstrip("$")).strip("-")


def difference_finding(diff: Difference) -> Finding:
    """One finding per differing fact: the odd node(s) by name, the majority as a count."""
    odd = diff.odd
    if odd is not None:
        majority_value, majority = diff.groups[0]
        summary = (
            f"{diff.fact} differs on {named(odd, NAMED_NODES)} (the other "
            f"{len(majority)} have {majority_value})"
        )
        listing = [f"{len(majority)} nodes: {majority_value}"]
        listing += [f"{named(nodes, NAMED_NODES)}: {value}" for value, nodes in diff.groups[1:]]
    else:
        summary = f"{diff.fact} differs between the nodes"
        listing = [f"{named(nodes, NAMED_NODES)}: {value}" for value, nodes in diff.groups]
    severity = Severity.ERROR if diff.fact in BREAKING else Severity.WARNING
    return finding(
        f"{CHECK}.differs.{_slug(diff.fact)}",
        severity,
        causes.cluster.FLEET_FACT_DIFFERS,
        summary,
        "; ".join(listing),
        causes.cluster.fleet_differs_fix(diff.fact),
    )


def membership_finding(names: Sequence[str], diffs: Sequence[Difference]) -> Finding:
    """Every node, and for each differing fact which nodes hold which value, in full: a note
    (the text report shows it with --verbose; the JSON report always has it)."""
    lines = [f"nodes: {', '.join(names)}"]
    for diff in diffs:
        lines += [f"{diff.fact} = {value}: {', '.join(nodes)}" for value, nodes in diff.groups]
    return Finding(
        f"{CHECK}.membership",
        Severity.INFO,
        f"{len(names)} node(s) by name, and who holds each value of the {len(diffs)} "
        "differing fact(s)",
        "\n".join(lines),
        check=CHECK,
    )


def verdict_findings(
    names: Sequence[str], verdicts: Mapping[str, Optional[Mapping[str, Any]]]
) -> list[Finding]:
    """Each node's own verdict: the nodes whose check found errors by name, the rest counted."""
    worst = {n: str(v.get("worst", "unknown")) for n, v in verdicts.items() if v is not None}
    failed = [n for n in names if worst.get(n) == "error"]
    fine = [n for n in names if n in worst and worst[n] != "error"]
    out = []
    if failed:
        codes = {str((verdicts[n] or {}).get("exit_code")) for n in failed}
        out.append(
            Finding(
                f"{CHECK}.node-verdict",
                Severity.ERROR,
                f"{named(failed, NAMED_NODES)}: "
                f"{'its' if len(failed) == 1 else 'their'} own check found error "
                f"(exit code {', '.join(sorted(codes))})",
                "Run `tfdoctor check` on that node for its findings and fixes: "
                + ", ".join(failed),
                check=CHECK,
            )
        )
    if fine:
        found = sorted({worst[n] for n in fine})
        out.append(
            Finding(
                f"{CHECK}.node-verdict",
                Severity.OK,
                f"{fine[0]}: its own check found {found[0]}"
                if len(fine) == 1
                else f"{len(fine)} nodes: their own check found {' or '.join(found)}",
                check=CHECK,
            )
        )
    return out


def compare_nodes(
    nodes: Mapping[str, Mapping[str, str]],
    verdicts: Optional[Mapping[str, Optional[Mapping[str, Any]]]] = None,
) -> tuple[Finding, ...]:
    """The fleet's findings: the nodes and their verdicts, then one per differing fact.

    Bounded for any number of nodes: odd nodes are named, the majority counted; the full
    lists are in one note.
    """
    names = sorted(nodes)
    out: list[Finding] = []
    diffs = differences(nodes)
    compared = len({k for s in nodes.values() for k in s})
    out.append(
        Finding(
            f"{CHECK}.nodes",
            Severity.OK if not diffs else Severity.INFO,
            f"{len(names)} node(s): {named(names)}; {compared} facts compared, {len(diffs)} differ",
            check=CHECK,
        )
    )
    out += verdict_findings(names, verdicts or {})
    out.extend(difference_finding(d) for d in diffs)
    if len(names) > SHOWN_NODES or any(
        len(nodes_) > NAMED_NODES for d in diffs for _, nodes_ in d.groups
    ):
        out.append(membership_finding(names, diffs))
    return tuple(out)


def fleet_report(paths: Sequence[str], version: str, now: str) -> Report:
    """The fleet report over saved ``check --json`` reports (raises :class:`FleetError`)."""
    if len(paths) < 2:
        raise FleetError("give at least two reports to compare")
    nodes: dict[str, dict[str, str]] = {}
    verdicts: dict[str, Optional[dict[str, Any]]] = {}
    for path in paths:
        name, facts, summary = load_node(path)
        if name in nodes:
            name = path
        nodes[name] = node_summary(facts)
        verdicts[name] = summary
    return Report(
        Facts(tfdoctor_version=version, collected_at=now),
        compare_nodes(nodes, verdicts),
        fleet=fleet_table(nodes),
    )
