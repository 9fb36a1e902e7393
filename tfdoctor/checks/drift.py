"""Drift: installed packages against a requirements file (``tfdoctor check --against FILE``)."""

from __future__ import annotations

import shlex
from collections.abc import Iterator

from tfdoctor.checks._context import CheckContext, fix, pip_command, unknown
from tfdoctor.facts import normalize_name
from tfdoctor.findings import Finding, Severity


def check_drift(ctx: CheckContext) -> Iterator[Finding]:
    """Each pinned package is installed at a version its requirement allows."""
    from packaging.markers import UndefinedEnvironmentName  # noqa: PLC0415 - only with --against
    from packaging.requirements import Requirement  # noqa: PLC0415
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415

    facts = ctx.facts
    if ctx.against is None:
        return
    if facts.packages is None:
        yield unknown("packages.drift", "the installed packages", facts.error_for("python"))
        return
    if not facts.packages_complete:
        # A plain `check --json` report lists TensorFlow's family only: any other pin would
        # read as "not installed".
        yield Finding(
            "packages.drift",
            Severity.UNKNOWN,
            "Could not determine the installed packages: this report lists only "
            "TensorFlow's packages",
            fix=fix(
                "Save the report with every package, or compare on the machine itself.",
                f"tfdoctor check --json --against {shlex.quote(ctx.against_file or 'FILE')}",
            ),
        )
        return
    # The examined interpreter's marker values; Marker.evaluate takes this one's for any the
    # facts do not record.
    env = ctx.machine.marker_env
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
        remedy = fix("Install the pinned version.", pip_command(ctx.machine, f'install "{pinned}"'))
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
    if compared == 0:
        yield Finding(
            "packages.drift",
            Severity.INFO,
            f"No requirement in {ctx.against_file or 'the file'} applies to this environment",
            "The file is empty, or every requirement's marker excludes this interpreter and "
            "platform: nothing was compared.",
        )
        return
    yield Finding(
        "packages.drift",
        Severity.OK,
        f"All {compared} pinned packages match the installed versions",
    )
