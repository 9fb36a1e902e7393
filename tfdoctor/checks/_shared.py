"""Helpers the checks of several areas share: the installed line and its CUDA build, a
matrix that predates the release, declared ranges, the driver's failure causes, misfit wheels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, fix, pip_command
from tfdoctor.facts import PackageFacts, TensorFlowFacts, normalize_name
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import START_IMPORTS
from tfdoctor.matrix import TFLine, version_key
from tfdoctor.wheel_tags import misfit

if TYPE_CHECKING:
    from packaging.specifiers import SpecifierSet


def installed_line(ctx: CheckContext) -> tuple[Optional[PackageFacts], Optional[TFLine]]:
    """The installed TensorFlow and its line in the matrix (None where either is unknown)."""
    pkg = ctx.machine.tf
    if pkg is None or ctx.matrix is None:
        return pkg, None
    return pkg, ctx.matrix.line_for(pkg.version)


def matrix_unknown(fid: str, ctx: CheckContext, pkg: PackageFacts) -> Finding:
    """The finding for a TensorFlow release the matrix does not know: one older than its
    oldest line is out of its range (no newer tfdoctor covers it); a newer one, not yet in."""
    newest = ctx.matrix.lines[0].line if ctx.matrix else "?"
    oldest = ctx.matrix.lines[-1].line if ctx.matrix and ctx.matrix.lines else None
    if oldest is not None and version_key(pkg.version)[:2] < version_key(oldest)[:2]:
        return Finding(
            fid,
            Severity.UNKNOWN,
            f"TensorFlow {pkg.version} is older than every line of the compatibility matrix "
            f"(oldest: {oldest})",
            "Its CUDA, driver and package requirements are not in the matrix: its checks "
            "cannot judge them.",
        )
    return Finding(
        fid,
        Severity.UNKNOWN,
        f"TensorFlow {pkg.version} is not in the compatibility matrix (newest known: {newest})",
        "This tfdoctor predates the release or does not cover it; its checks cannot judge it.",
        fix(
            "Upgrade tfdoctor for a current matrix.",
            pip_command(ctx.machine, "install -U tfdoctor"),
        ),
    )


def specifier(spec: str) -> SpecifierSet:
    """``spec`` parsed as a version range."""
    from packaging.specifiers import SpecifierSet  # noqa: PLC0415 - loaded when needed

    return SpecifierSet(spec)


def no_gpu_here(ctx: CheckContext) -> bool:
    """No NVIDIA GPU reached this process (the machine view's one rule); device nodes handed
    in without the driver's libraries are the driver finding's to explain."""
    m = ctx.machine
    return m.gpu_presence == "absent" or (
        m.gpu_presence == "not-handed-over" and not m.device_nodes
    )


#: Driver failure reason -> the cause in the catalogue.
_REASON_CAUSES = {
    "version-mismatch": causes.gpu.DRIVER_VERSION_MISMATCH,
    "no-permission": causes.gpu.DRIVER_NO_PERMISSION,
    "driver-not-loaded": causes.gpu.DRIVER_NOT_LOADED,
    "library-not-found": causes.container.CONTAINER_NO_GPU,
    "no-gpu": causes.gpu.GPU_NOT_BOUND,
}


def driver_cause(ctx: CheckContext, reason: str) -> tuple[causes.CauseId, Fix]:
    """The cause a driver failure reason names, and its fix (one builder per cause, the
    same that explain uses)."""
    if ctx.machine.wsl2_host_driver:
        # WSL 2 has no NVIDIA kernel module or Linux driver of its own: the Windows driver
        # gives it the GPU through /dev/dxg and the libraries WSL mounts in /usr/lib/wsl/lib
        # (NVIDIA's CUDA on WSL guide), so loading a module, reinstalling a Linux driver or
        # restarting a container changes nothing there.
        return causes.platform.WSL_DRIVER_BROKEN, causes.platform.wsl_gpu_fix(ctx.machine)
    cause = _REASON_CAUSES.get(reason, causes.gpu.DRIVER_NOT_LOADED)
    gpu_absent = (
        causes.gpu.DRIVER_NOT_LOADED,
        causes.container.CONTAINER_NO_GPU,
        causes.gpu.GPU_NOT_BOUND,
    )
    if cause in gpu_absent and (causes.gpu.runtime_chooses_gpu(ctx.machine)):
        # A Colab or Kaggle VM (which runs the notebook in a container of its own): the
        # runtime's accelerator setting gives it the GPU and its driver.
        return causes.gpu.driver_not_loaded(ctx.machine)
    if cause == causes.gpu.GPU_NOT_BOUND:
        return causes.gpu.unbound_gpu(ctx.machine)
    if cause == causes.container.CONTAINER_NO_GPU:
        return cause, causes.container.container_gpu_fix(ctx.machine)
    if cause == causes.gpu.DRIVER_VERSION_MISMATCH:
        return cause, causes.gpu.driver_mismatch_fix()
    if cause == causes.gpu.DRIVER_NO_PERMISSION:
        return cause, causes.gpu.no_permission_fix(ctx.machine.container is not None)
    return causes.gpu.DRIVER_NOT_LOADED, causes.gpu.driver_load_fix(ctx.machine)


def wheel_misfits(ctx: CheckContext) -> Optional[Finding]:
    """The distributions whose WHEEL tags do not fit, as one finding (one cause, one fix):
    an error where TensorFlow or a package it imports as it starts is among them."""
    facts, m = ctx.facts, ctx.machine
    py = facts.python
    if py is None:
        return None
    misfits = [
        (p, why) for p in facts.packages or () if (why := misfit(p.wheel_tags, py, facts.platform))
    ]
    if not misfits:
        return None
    breaks = {normalize_name(p.name) for p in m.tf_providers} | set(START_IMPORTS)
    fatal = any(normalize_name(p.name) in breaks for p, _ in misfits)
    severity = Severity.ERROR if fatal else Severity.WARNING
    glibc = [why for _, why in misfits if why.part == "glibc"]
    names = ", ".join(f"{p.name} {p.version}" for p, _ in misfits)
    detail = "\n".join(
        f"{p.name}: built for {why.built_for}; here: {why.here}" for p, why in misfits
    )
    if len(glibc) == len(misfits):
        need = max(glibc, key=lambda why: version_key(why.glibc or "0")).glibc or ""
        return causes.finding(
            "packages.wheels",
            severity,
            causes.platform.GLIBC_TOO_OLD,
            f"{names}: built for glibc {need} or newer, this system has {glibc[0].here}",
            detail,
            causes.platform.glibc_fix(f"GLIBC_{need}"),
        )
    macos = [why for _, why in misfits if why.part == "macos"]
    if len(macos) == len(misfits):
        need = max(macos, key=lambda why: version_key(why.built_for.split()[1])).built_for
        return causes.finding(
            "packages.wheels",
            severity,
            causes.platform.MACOS_TOO_OLD,
            f"{names}: built for {need.split(' (')[0]}, this system is {macos[0].here}",
            detail,
            causes.platform.macos_fix(need.split()[1]),
        )
    return causes.finding(
        "packages.wheels",
        severity,
        causes.platform.WHEEL_MISMATCH,
        f"{names}: wheel built for another Python or machine ({misfits[0][1].built_for}; "
        f"here: {misfits[0][1].here})",
        detail,
        causes.platform.wheel_reinstall_fix(m, [p for p, _ in misfits]),
    )


def import_output(tf: TensorFlowFacts) -> str:
    """What TensorFlow's import printed: the error lines it logged, then its stderr's tail."""
    return "\n".join(x for x in (*tf.log_errors, tf.stderr_tail) if x)


def read_output(ctx: CheckContext, said: str) -> tuple[Finding, ...]:
    """What ``explain`` reads in text TensorFlow's child printed (its import's output, the
    smoke run's): the same signatures, evidence readers and cause builders, fitted to this
    machine's facts. Only the findings that name a cause at warning or above, in the order
    explain reports them; each text is read once per context."""
    if not said.strip():
        return ()
    made = ctx.output_read.get(said)
    if made is not None:
        return made
    from tfdoctor.explain import explain  # noqa: PLC0415 - explain's readers load on demand
    from tfdoctor.explain.reader import split_text  # noqa: PLC0415
    from tfdoctor.signatures import load_signatures  # noqa: PLC0415

    report = explain([split_text(said)], load_signatures(), ctx.matrix, ctx.facts)
    made = ctx.output_read[said] = tuple(
        x for x in report.findings if x.cause and x.severity.rank >= Severity.WARNING.rank
    )
    return made
