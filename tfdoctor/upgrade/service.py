"""``tfdoctor upgrade``'s service: read the environment, scan the code, pin the target, plan.

The facts are probed (never importing TensorFlow) or loaded, the code is scanned from the
installed line to the target (:func:`tfdoctor.scan.scan`), the target is pinned by ``pin``'s
service (offline ranges; pip's resolver with ``resolve``), and :func:`plan_upgrade` orders it
all. Nothing is installed or changed.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Optional

from tfdoctor.compat import Target
from tfdoctor.doctor import collect_facts
from tfdoctor.facts import Facts
from tfdoctor.findings import Finding
from tfdoctor.inputs import DoctorError, load_facts, open_companions, open_matrix, require_python
from tfdoctor.machine import Machine
from tfdoctor.matrix import Matrix, TFLine
from tfdoctor.pin import PinError, Pinset
from tfdoctor.pin.service import target_pins
from tfdoctor.probes._run import Runner, run_command
from tfdoctor.records import Record, record
from tfdoctor.scan import ScanError, ScanOptions, scan
from tfdoctor.scan.rules import Rule, Rules, RulesError, load_rules
from tfdoctor.upgrade import Plan, UpgradeError, plan_upgrade, read_release, scan_since

#: Seconds the probes may take (TensorFlow is not imported: its metadata says its version).
PROBE_TIMEOUT = 30.0


@record
class UpgradeOptions(Record):
    """What ``tfdoctor upgrade`` was asked to do."""

    #: The release to move to (``2.21`` or ``2.21.0``).
    to: str
    #: The code to scan (files, notebooks, directories); empty: none.
    paths: tuple[str, ...] = ()
    python: str = sys.executable
    facts_file: Optional[str] = None
    matrix: Optional[str] = None
    #: Exact pins from pip's resolver over the package index (network, opt-in).
    resolve: bool = False
    index_url: Optional[str] = None


def make_plan(
    options: UpgradeOptions,
    version: str,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
) -> Plan:
    """The plan to move the environment to ``options.to``; DoctorError on bad input."""
    if options.facts_file is not None and options.python != sys.executable:
        raise DoctorError("--facts and --python both say which environment to read")
    if options.index_url is not None and not options.resolve:
        raise DoctorError("--index-url names the index of --resolve; give it")
    table = open_matrix(options.matrix, env)
    try:
        line, release = read_release(table, options.to)
    except UpgradeError as exc:
        raise DoctorError(str(exc)) from None
    if options.facts_file is not None:
        facts = load_facts(options.facts_file)
    else:
        require_python(options.python, env, runner)
        facts = collect_facts(options.python, True, PROBE_TIMEOUT, env, runner)
    try:
        rules = load_rules()
    except RulesError as exc:
        raise DoctorError(str(exc)) from None
    code = _scan_code(options.paths, facts, table, line, rules, version)
    pins: Optional[Pinset] = None
    problem: Optional[tuple[str, tuple[str, ...]]] = None
    here = Machine(facts, table).target
    # The driver is judged by the plan's own steps (a driver can be upgraded); the pins are
    # for this Python, platform and GPU, with the CUDA wheels wherever there is a GPU.
    target = Target(here.python, here.platform, None, None, here.gpu)
    try:
        pins = target_pins(
            table,
            target,
            facts,
            line=line,
            resolve=options.resolve,
            index_url=options.index_url,
            env=env,
            runner=runner,
        )
    except PinError as exc:
        problem = (str(exc), exc.reasons)
    return plan_upgrade(
        facts,
        table,
        open_companions(),
        line,
        release,
        code=code,
        removed_in=_removed_in(rules),
        pins=pins,
        pin_problem=problem,
        paths=options.paths,
    )


def _scan_code(
    paths: tuple[str, ...], facts: Facts, table: Matrix, line: TFLine, rules: Rules, version: str
) -> tuple[Finding, ...]:
    """Scan's findings for the code under ``paths``, from the installed line to ``line``.

    The installed packages are not passed: the plan is for a new environment made from the
    pins, which has only what they ask for.
    """
    if not paths:
        return ()
    since = scan_since(facts, table, line)
    try:
        report = scan(ScanOptions(paths, line.line, since), rules, version, table)
    except ScanError as exc:
        raise DoctorError(str(exc)) from None
    return report.findings


def _removed_in(rules: Rules) -> dict[str, str]:
    """The oldest release line each cause's rules start at."""
    oldest: dict[str, Rule] = {}
    for rule in rules.rules:
        seen = oldest.get(rule.cause)
        if seen is None or rule.release_key < seen.release_key:
            oldest[rule.cause] = rule
    return {cause: rule.release for cause, rule in oldest.items()}
