"""The CPU check: the vector instructions TensorFlow's wheels are compiled for."""

from __future__ import annotations

from collections.abc import Iterator

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, unknown
from tfdoctor.findings import Finding, Severity

_X86 = ("x86_64", "amd64", "i386", "i686", "x86")


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
        if ctx.machine.emulation:
            return  # the emulator lacks AVX, not the CPU: platform.rosetta names the fix
        yield causes.finding(
            "cpu.avx",
            Severity.ERROR,
            causes.platform.CPU_LACKS_AVX,
            f"The CPU ({cpu.model or 'unknown model'}) lacks AVX, which TensorFlow wheels require",
            "Since 1.6 the official x86-64 wheels are compiled with AVX; importing them on "
            "this CPU ends in 'Illegal instruction (core dumped)'. Virtual machines sometimes "
            "hide AVX from the guest (check the hypervisor's CPU model).",
            causes.platform.cpu_avx_fix(system=ctx.machine.os),
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
