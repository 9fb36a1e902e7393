"""What the smoke tests share: judging facts with the smoke checks; what this machine runs."""

from __future__ import annotations

import dataclasses
import json
import platform
import re
import sys
from pathlib import Path

import pytest

from tfdoctor.checks import CHECKS, run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import Facts, SmokeResult
from tfdoctor.findings import Finding, Report
from tfdoctor.render.jsonout import render_json
from tfdoctor.smoke.fma import fma_kernels

ROOT = Path(__file__).resolve().parent.parent
SMOKE_CHECKS = tuple(c for c in CHECKS if c.id.startswith("smoke."))


def judge(facts: Facts) -> list[Finding]:
    return list(run_checks(CheckContext(facts), SMOKE_CHECKS))


def by_id(findings: list[Finding], fid: str) -> list[Finding]:
    return [x for x in findings if x.id == fid]


def assert_schema_valid(facts: Facts) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "report.schema.json").read_text(encoding="utf-8"))
    report = Report(facts=facts, findings=tuple(judge(facts)))
    jsonschema.Draft202012Validator(schema).validate(json.loads(render_json(report, "0.1.0")))


def cpu_result(**kw: object) -> SmokeResult:
    base = SmokeResult(
        kernel="matmul", dtype="float32", device="/device:CPU:0", placed_on="/device:CPU:0"
    )
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


def fma_runs_here() -> bool:
    """Whether the FMA loop can run on this machine: Linux, x86-64, FMA3."""
    if not sys.platform.startswith("linux") or platform.machine() not in ("x86_64", "AMD64"):
        return False
    match = re.search(r"^flags\s*:(.*)$", Path("/proc/cpuinfo").read_text(), re.MULTILINE)
    return match is not None and bool(fma_kernels(set(match.group(1).split())))
