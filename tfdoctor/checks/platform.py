"""Checks on the platform, the CPU and the probes themselves."""

from __future__ import annotations

from collections.abc import Iterator

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, fix, unknown
from tfdoctor.findings import Finding, Severity

_X86 = ("x86_64", "amd64", "i386", "i686", "x86")


def check_probes(ctx: CheckContext) -> Iterator[Finding]:
    """Every probe that produced nothing is reported: unknown is never OK."""
    for err in ctx.facts.errors:
        yield Finding(
            "doctor.probe-failed",
            Severity.UNKNOWN,
            f"Could not probe {err.probe}: {err.message}",
            err.detail,
        )


def check_rosetta(ctx: CheckContext) -> Iterator[Finding]:
    """Rosetta 2 does not translate AVX, which every x86-64 TensorFlow wheel requires."""
    plat = ctx.facts.platform
    if plat is None:
        yield unknown("platform.rosetta", "the platform", ctx.facts.error_for("platform"))
        return
    if plat.emulation == "qemu":
        host = plat.host_machine or "another architecture"
        yield Finding(
            "platform.rosetta",
            Severity.ERROR,
            f"This {plat.machine} Python runs under QEMU emulation on a {host} host",
            "QEMU user-mode emulation lacks AVX, which the x86-64 TensorFlow wheels need, and "
            "runs native code many times slower: TensorFlow dies with 'Illegal instruction' or "
            "crawls. The native image or interpreter for the host runs the host's own wheels.",
            causes.platform.native_interpreter_fix(ctx.machine),
            cause=causes.platform.CPU_EMULATED,
        )
        return
    if not plat.rosetta:
        where = f", in a {plat.container} container" if plat.container else ""
        yield Finding(
            "platform.rosetta", Severity.OK, f"{plat.os_name} on {plat.machine}, native{where}"
        )
        return
    yield Finding(
        "platform.rosetta",
        Severity.ERROR,
        cause=causes.platform.CPU_EMULATED,
        summary="This Python is an x86-64 build translated by Rosetta 2 on Apple silicon",
        detail="Rosetta 2 does not translate AVX instructions, so the x86-64 TensorFlow wheel dies "
        "with 'Illegal instruction' on import. Native arm64 wheels exist from TensorFlow "
        "2.13 (tensorflow-macos before that).",
        fix=causes.platform.native_interpreter_fix(ctx.machine),
        links=(
            "https://developer.apple.com/documentation/apple-silicon/about-the-rosetta-translation-environment",
        ),
    )


def check_wsl(ctx: CheckContext) -> Iterator[Finding]:
    """GPU access from Linux on Windows needs WSL 2; WSL 1 has no GPU paravirtualisation."""
    plat = ctx.facts.platform
    if plat is None or plat.wsl is None:
        return
    if plat.wsl == "WSL2":
        yield Finding("platform.wsl", Severity.OK, "WSL 2: GPU passthrough is available")
        return
    yield Finding(
        "platform.wsl",
        Severity.WARNING,
        "Running under WSL 1: no GPU is reachable from TensorFlow",
        "CUDA on WSL needs WSL 2 and a Windows NVIDIA driver with WSL support.",
        fix(
            "From Windows PowerShell, convert the distribution to WSL 2.",
            "wsl --set-version <distribution> 2",
        ),
        ("https://docs.nvidia.com/cuda/wsl-user-guide/index.html",),
        cause=causes.platform.WSL1,
    )


def check_cpu_features(ctx: CheckContext) -> Iterator[Finding]:
    """Official x86-64 wheels are built with AVX since TensorFlow 1.6; without it, SIGILL."""
    cpu, plat = ctx.facts.cpu, ctx.facts.platform
    if cpu is None or plat is None:
        yield unknown("cpu.avx", "the CPU's features", ctx.facts.error_for("cpu"))
        return
    if plat.machine.lower() not in _X86:
        yield Finding(
            "cpu.avx", Severity.OK, f"{cpu.model or plat.machine}: not x86, AVX not needed"
        )
        return
    if not cpu.flags_known:
        yield unknown("cpu.avx", "whether the CPU supports AVX")
        return
    if "avx" not in cpu.flags:
        if plat.emulation or plat.rosetta:
            return  # the emulator lacks AVX, not the CPU: platform.rosetta names the fix
        yield causes.finding(
            "cpu.avx",
            Severity.ERROR,
            causes.platform.CPU_LACKS_AVX,
            f"The CPU ({cpu.model or 'unknown model'}) lacks AVX, which TensorFlow wheels require",
            "Since 1.6 the official x86-64 wheels are compiled with AVX; importing them on "
            "this CPU ends in 'Illegal instruction (core dumped)'. Virtual machines sometimes "
            "hide AVX from the guest (check the hypervisor's CPU model).",
            causes.platform.cpu_avx_fix(),
            ("https://www.tensorflow.org/install/source",),
        )
        return
    extras = [f for f in ("avx2", "fma", "avx512f") if f in cpu.flags]
    yield Finding(
        "cpu.avx",
        Severity.OK,
        f"{cpu.model or 'CPU'}: AVX"
        + (f", {', '.join(e.upper() for e in extras)}" if extras else ""),
    )
