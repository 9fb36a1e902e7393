"""Drift: installed packages against a requirements file (``tfdoctor check --against FILE``)."""

from __future__ import annotations

from collections.abc import Iterator

from tfdoctor.checks._context import CheckContext, fix, pip_command, unknown
from tfdoctor.checks.compat import _marker_environment
from tfdoctor.facts import normalize_name
from tfdoctor.findings import Finding, Severity


def check_drift(ctx: CheckContext) -> Iterator[Finding]:
    """Each pinned package is installed at a version its requirement allows."""
    from packaging.markers import (  # noqa: PLC0415 - only with --against
        UndefinedEnvironmentName,
        default_environment,
    )
    from packaging.requirements import Requirement  # noqa: PLC0415
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415

    facts = ctx.facts
    if ctx.against is None:
        return
    if facts.packages is None:
        yield unknown("packages.drift", "the installed packages", facts.error_for("python"))
        return
    # The examined interpreter's marker values; this one's for any the facts do not record.
    env = {str(k): str(v) for k, v in default_environment().items()}
    env.update(_marker_environment(facts))
    compared = 0
    drifted: list[Finding] = []
    for text in ctx.against:
        req = Requirement(text)
        try:
            if req.marker is not None and not req.marker.evaluate(env):
                continue
        except UndefinedEnvironmentName:
            pass  # compare rather than skip silently
        compared += 1
        name = normalize_name(req.name)
        pinned = f"{name}{req.specifier}"
        installed = facts.package(name)
        remedy = fix("Install the pinned version.", pip_command(facts, f'install "{pinned}"'))
        if installed is None:
            drifted.append(
                Finding(
                    "packages.drift",
                    Severity.WARNING,
                    f"{name} is pinned ({pinned}) but not installed",
                    fix=remedy,
                )
            )
            continue
        try:
            matches = req.specifier.contains(Version(installed.version), prereleases=True)
        except InvalidVersion:
            matches = False
        if not matches:
            drifted.append(
                Finding(
                    "packages.drift",
                    Severity.WARNING,
                    f"{name} {installed.version} is installed; the requirements pin {pinned}",
                    "Changed since the file was written (an upgrade, or another install).",
                    remedy,
                )
            )
    if drifted:
        yield from drifted
        return
    yield Finding(
        "packages.drift",
        Severity.OK,
        f"All {compared} pinned packages match the installed versions",
    )
