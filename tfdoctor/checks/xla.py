"""Checks on XLA's GPU toolchain: the ptxas it compiles with and the libdevice it links."""

from __future__ import annotations

from collections.abc import Iterator

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext
from tfdoctor.evidence import tflog
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import version_key


def _gpu_build(ctx: CheckContext) -> bool:
    m = ctx.machine
    return bool(m.gpus) and m.build_cuda is not None and m.os == "linux"


def check_ptxas(ctx: CheckContext) -> Iterator[Finding]:
    """The ptxas XLA would run is no newer than the CUDA version the driver supports."""
    libs, drv = ctx.facts.cuda_libs, ctx.facts.driver
    if libs is None or drv is None or not _gpu_build(ctx):
        return
    have, driver_cuda = libs.ptxas_version, drv.cuda_version
    # What the driver says of PTX from a newer ptxas (CUDA_ERROR_UNSUPPORTED_PTX_VERSION, 222),
    # and XLA's own warning for a newer ptxas minor (nvptx_compiler.cc: "The NVIDIA driver's
    # CUDA version is 12.4 which is older than the PTX compiler version 12.5.82").
    logged = any(
        p.problem in ("unsupported-toolchain", "newer-than-driver")
        for p in ctx.machine.tf_logged(tflog.PtxasProblem)
    )
    if not have or not driver_cuda:
        return
    # ptxas turns PTX into machine code for the GPU, which any driver of the same CUDA major
    # loads (minor version compatibility); a newer major, or the driver's own complaint in
    # the log, is what breaks.
    if version_key(have)[:1] <= version_key(driver_cuda)[:1] and not logged:
        yield Finding(
            "xla.ptxas",
            Severity.OK,
            f"ptxas {have} ({libs.ptxas}) fits the driver's CUDA {driver_cuda}",
        )
        return
    newer_major = version_key(have)[:1] > version_key(driver_cuda)[:1]
    effect = (
        "XLA's kernels will not load"
        if newer_major
        else "XLA disables parallel compilation (slower jit compiles)"
    )
    yield causes.finding(
        "xla.ptxas",
        Severity.WARNING,
        causes.xla.PTXAS_TOO_NEW,
        f"ptxas {have} is newer than the CUDA {driver_cuda} this driver supports: {effect}",
        f"ptxas: {libs.ptxas}",
        causes.xla.ptxas_fix(ctx.machine),
    )


def check_libdevice(ctx: CheckContext) -> Iterator[Finding]:
    """XLA finds libdevice, where the evidence says it looked (its log, or a ptxas found)."""
    libs = ctx.facts.cuda_libs
    if libs is None or not _gpu_build(ctx):
        return
    # Found, but only where XLA does not look ($CUDA_HOME, a moved toolkit): still missing.
    elsewhere = ctx.machine.xla_flags_for_libdevice is not None
    if libs.libdevice is not None and not elsewhere:
        return
    # XLA's "libdevice not found at ./libdevice.10.bc" (nvptx_backend.cc) or "Can't find
    # libdevice directory ${CUDA_DIR}/nvvm/libdevice" (cuda_libdevice_path.cc).
    found = ctx.machine.tf_logged(tflog.LibdeviceMissing)
    logged = found[0] if found else None
    if not logged and libs.ptxas is None:
        return  # no evidence the search ran: say nothing rather than guess
    m = ctx.machine
    # From 2.11 XLA runs without being asked: Keras 2.11's optimizers compile their update
    # step with it on a GPU (jit_compile=True by default, keras/optimizers/
    # optimizer_experimental/optimizer.py at v2.11.0; the
    # "libdevice not found" of tf-keras issue 62 came from `optimizer="adam"`), and Keras 3
    # compiles fit itself (jit_compile="auto", keras/src/trainers/trainer.py). Before 2.11
    # only code that asks uses XLA (the matrix's xla_by_default). Unknown release: as from 2.11.
    by_default = m.line is None or m.line.xla_by_default
    severity = Severity.ERROR if logged else Severity.WARNING if by_default else Severity.INFO
    yield causes.finding(
        "xla.libdevice",
        severity,
        causes.xla.LIBDEVICE_MISSING,
        "XLA cannot find libdevice.10.bc: jit-compiled functions fail on the GPU",
        (logged.message + "\n" if logged else "")
        + (
            f"libdevice is at {libs.libdevice}, where XLA does not look by itself."
            if elsewhere
            else "Searched: XLA_FLAGS' --xla_gpu_cuda_data_dir, the CUDA toolkit roots and "
            "the nvidia-cuda-nvcc wheel."
        )
        + (
            ""
            if logged or by_default
            else f" TensorFlow {m.line.line if m.line else ''} compiles with XLA only where the "
            "code asks (jit_compile=True, tf.function(jit_compile=True)): other code runs."
        ),
        causes.xla.libdevice_fix(m),
    )
