"""Checks on the platform (emulation, WSL, native Windows) and on the probes themselves."""

from __future__ import annotations

from collections.abc import Iterator

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, unknown
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import Machine


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
        "with 'Illegal instruction' on import." + _native_wheels(ctx.machine),
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
        causes.platform.wsl1_fix(),
        ("https://docs.nvidia.com/cuda/wsl-user-guide/index.html",),
        cause=causes.platform.WSL1,
    )


def check_windows_gpu(ctx: CheckContext) -> Iterator[Finding]:
    """Native Windows has no TensorFlow GPU support after 2.10."""
    facts, m = ctx.facts, ctx.machine
    if m.matrix is None or m.os != "windows" or facts.driver is None or not facts.driver.gpus:
        return
    if m.tf is None or m.line is None or m.line.windows_native_gpu:
        return
    yield causes.finding(
        "platform.windows-gpu",
        Severity.WARNING,
        causes.platform.WINDOWS_NATIVE_GPU_ENDED,
        f"TensorFlow {m.tf.version} has no GPU support on native Windows",
        "",
        causes.platform.windows_gpu_fix(m),
    )


#: The file tensorflow-metal's plugin loads from; its name in a load error marks the plugin.
METAL_LIBRARY = "libmetal_plugin.dylib"


def check_metal(ctx: CheckContext) -> Iterator[Finding]:
    """On a Mac: the tensorflow-metal plugin loads with this TensorFlow, and has a wheel for
    this Python."""
    facts, m = ctx.facts, ctx.machine
    plat = facts.platform
    if m.os != "macos" or plat is None or plat.rosetta or m.tf is None:
        return  # platform.rosetta names an x86-64 Python under Rosetta
    metal = facts.package("tensorflow-metal")
    tf = facts.tensorflow
    said = "\n".join(
        (tf.error_message or "", tf.stderr_tail, *tf.log_errors) if tf is not None else ()
    )
    if metal is not None and METAL_LIBRARY in said:
        line = next(x for x in said.splitlines() if METAL_LIBRARY in x)
        # A plugin built for another TensorFlow: the companion cause, whose fix reads the
        # companion table's tensorflow-metal rows.
        yield causes.finding(
            "platform.metal",
            Severity.ERROR,
            causes.software.COMPANION_MISMATCH,
            f"tensorflow-metal {metal.version} does not load with {m.tf.name} {m.tf.version}",
            line.strip(),
            causes.software.companion_fix(m, "tensorflow-metal", metal),
        )
        return
    table = m.companion("tensorflow-metal")
    newest = table.releases[-1] if table is not None and table.releases else None
    py = m.python_version
    if metal is None and newest is not None and plat.machine == "arm64" and py:
        if not newest.runs_on(py):
            yield causes.finding(
                "platform.metal",
                Severity.INFO,
                causes.platform.METAL_NO_WHEEL_FOR_PYTHON,
                f"No tensorflow-metal wheel for Python {py}: TensorFlow uses the CPU only",
                "",
                causes.platform.metal_python_fix(m),
            )
        elif (
            tf is not None
            and tf.status == "ok"
            and not any(d.device_type == "GPU" for d in tf.devices)
        ):
            # TensorFlow ran and listed no GPU: on a Mac only Apple's plugin brings one. A
            # warning where a plugin release pairs with this TensorFlow (installing it is the
            # whole fix); a note where none does, as reaching the GPU then means another
            # TensorFlow, and a Mac on the CPU is no fault.
            fits = causes.platform.metal_release(m) is not None
            yield causes.finding(
                "platform.metal",
                Severity.WARNING if fits else Severity.INFO,
                causes.software.PACKAGE_NOT_INSTALLED,
                "tensorflow-metal is not installed: TensorFlow uses the CPU only on this Mac",
                f"TensorFlow {m.tf.version} ran and listed no GPU; no CUDA build exists for "
                "macOS, and the Apple GPU is reached only through the tensorflow-metal plugin.",
                causes.platform.metal_missing_fix(m),
            )
        return
    if metal is not None and tf is not None and tf.status == "ok":
        if any(d.device_type == "GPU" for d in tf.devices):
            yield Finding(
                "platform.metal", Severity.OK, f"tensorflow-metal {metal.version} registers the GPU"
            )
            return
        own = table.row_of(metal.version) if table is not None else None
        if own is not None and own.admits(m.tf.version):
            # The pair the companion table gives: moving the plugin would change nothing,
            # and the evidence of why no GPU registered is TensorFlow's own log.
            yield causes.finding(
                "platform.metal",
                Severity.WARNING,
                causes.gpu.GPU_UNSEEN_NO_REASON,
                f"tensorflow-metal {metal.version}, the release for TensorFlow "
                f"{m.tf.version}, is installed, but TensorFlow lists no GPU",
                "",
                causes.gpu.read_device_log_fix(),
            )
            return
        yield causes.finding(
            "platform.metal",
            Severity.WARNING,
            causes.software.COMPANION_MISMATCH,
            f"tensorflow-metal {metal.version} is installed, but TensorFlow lists no GPU",
            "",
            causes.software.companion_fix(m, "tensorflow-metal", metal),
        )


def _native_wheels(m: Machine) -> str:
    """Since which line native arm64 wheels of tensorflow exist, from the matrix."""
    lines = causes.platform.wheel_lines(m.matrix.lines, "macos-arm64") if m.matrix else []
    if not lines:
        return ""
    return f" Native arm64 wheels exist from TensorFlow {lines[0]} (tensorflow-macos before that)."
