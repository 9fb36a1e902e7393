"""Checks: pure functions from facts to findings, in one explicit ordered registry.

Each check has a stable id, guards its inputs first (no facts -> an ``unknown`` finding,
never a silent pass) and returns findings whose ids it declares. A check that raises
becomes a ``doctor.crashed`` finding naming it; the other checks still run.
"""

from __future__ import annotations

import dataclasses
import traceback
from collections.abc import Iterable, Sequence
from typing import Callable, Optional

from tfdoctor.checks import (
    compat,
    container,
    drift,
    gpu,
    platform,
    python,
    runtime,
    smoke,
    software,
    xla,
)
from tfdoctor.checks._context import CheckContext
from tfdoctor.findings import Finding, Severity

CheckFunc = Callable[[CheckContext], Iterable[Finding]]


@dataclasses.dataclass(frozen=True)
class Check:
    """A registered check: its id, a title for ``--list``, the function, the ids it emits."""

    id: str
    title: str
    func: CheckFunc
    finding_ids: tuple[str, ...]


#: Every check, in the order findings are reported. Add new checks here.
CHECKS: tuple[Check, ...] = (
    Check(
        "doctor.probes",
        "Every probe produced facts",
        platform.check_probes,
        ("doctor.probe-failed",),
    ),
    Check("python.bits", "64-bit Python", python.check_bits, ("python.bits",)),
    Check(
        "python.environment",
        "Virtual environment, not a global interpreter",
        python.check_environment,
        ("python.environment",),
    ),
    Check(
        "platform.rosetta",
        "Native Python, not x86-64 under Rosetta",
        platform.check_rosetta,
        ("platform.rosetta",),
    ),
    Check("platform.wsl", "WSL 2 for GPU access", platform.check_wsl, ("platform.wsl",)),
    Check(
        "platform.windows-gpu",
        "No GPU expected from TensorFlow 2.11+ on native Windows",
        compat.check_windows_gpu,
        ("platform.windows-gpu",),
    ),
    Check(
        "cpu.avx",
        "CPU has the vector instructions TensorFlow wheels need",
        platform.check_cpu_features,
        ("cpu.avx",),
    ),
    Check(
        "packages.tensorflow",
        "Exactly one TensorFlow distribution installed",
        software.check_tf_distributions,
        ("packages.tensorflow",),
    ),
    Check(
        "packages.tensorflow-gpu",
        "No removed tensorflow-gpu package",
        software.check_tensorflow_gpu_package,
        ("packages.tensorflow-gpu",),
    ),
    Check(
        "tensorflow.python",
        "TensorFlow has wheels for this Python and platform",
        compat.check_python_wheels,
        ("tensorflow.python",),
    ),
    Check(
        "packages.pins",
        "numpy, keras, protobuf, ml-dtypes and tf-keras in TensorFlow's ranges",
        compat.check_dependency_pins,
        ("packages.pins",),
    ),
    Check(
        "packages.drift",
        "Installed packages match the --against requirements file",
        drift.check_drift,
        ("packages.drift",),
    ),
    Check(
        "tensorflow.import", "TensorFlow imports", software.check_tf_import, ("tensorflow.import",)
    ),
    Check("driver.nvidia", "NVIDIA driver loaded", gpu.check_driver, ("driver.nvidia",)),
    Check(
        "driver.cuda",
        "Driver new enough for TensorFlow's CUDA build",
        compat.check_driver_cuda,
        ("driver.cuda",),
    ),
    Check("gpu.ecc", "No uncorrected GPU memory errors", gpu.check_ecc, ("gpu.ecc",)),
    Check("gpu.visible", "TensorFlow sees the GPUs", gpu.check_gpu_visible, ("gpu.visible",)),
    Check(
        "gpu.compute-capability",
        "The wheel carries code for each GPU",
        compat.check_compute_capability,
        ("gpu.compute-capability",),
    ),
    Check(
        "gpu.absent",
        "A container without GPU access (a build step) is not a broken GPU",
        container.check_gpu_absent,
        ("gpu.absent",),
    ),
    Check(
        "gpu.required",
        "With --require-gpu: TensorFlow can use a GPU, or why not",
        container.check_gpu_required,
        ("gpu.required",),
    ),
    Check(
        "cuda.libraries",
        "CUDA libraries TensorFlow needs are found",
        gpu.check_cuda_libraries,
        ("cuda.libraries",),
    ),
    Check(
        "cuda.shadowed",
        "No CUDA library shadowed by another version",
        gpu.check_cuda_shadowed,
        ("cuda.shadowed",),
    ),
    Check(
        "cuda.versions",
        "cuDNN and CUDA wheels match the build and its pins",
        compat.check_cuda_versions,
        ("cuda.versions",),
    ),
    Check("xla.ptxas", "XLA's ptxas fits the driver", xla.check_ptxas, ("xla.ptxas",)),
    Check("xla.libdevice", "XLA finds libdevice", xla.check_libdevice, ("xla.libdevice",)),
    Check(
        "runtime.memory-growth",
        "TensorFlow maps GPU memory as needed, not all at start",
        runtime.check_memory_growth,
        ("runtime.memory-growth",),
    ),
    Check(
        "runtime.memory-held",
        "A fresh process with this environment holds little GPU memory (with --smoke)",
        runtime.check_memory_held,
        ("runtime.memory-held",),
    ),
    # The smoke checks say nothing unless a smoke test ran (tfdoctor smoke, check --smoke).
    Check(
        "smoke.crashed", "The smoke test ran to the end", smoke.check_crashed, ("smoke.crashed",)
    ),
    Check(
        "smoke.devices",
        "Every device asked for, and the driver's GPUs, were tested",
        smoke.check_devices,
        ("smoke.devices",),
    ),
    Check(
        "smoke.placement",
        "Kernels ran on the device they were pinned to",
        smoke.check_placement,
        ("smoke.placement",),
    ),
    Check(
        "smoke.correctness",
        "Kernel results match a float64 reference",
        smoke.check_correctness,
        ("smoke.correctness",),
    ),
    Check(
        "smoke.throughput",
        "Throughput is a sane fraction of peak",
        smoke.check_throughput,
        ("smoke.throughput",),
    ),
    Check(
        "smoke.first-op",
        "The first GPU op starts promptly",
        smoke.check_first_op,
        ("smoke.first-op",),
    ),
    Check(
        "smoke.memory",
        "The smoke test kept within its GPU memory cap",
        smoke.check_memory,
        ("smoke.memory",),
    ),
    Check(
        "smoke.graph-mode",
        "What tf.function buys over eager here",
        smoke.check_graph_mode,
        ("smoke.graph-mode",),
    ),
    Check(
        "smoke.mixed-precision",
        "Whether mixed precision pays off on this GPU",
        smoke.check_mixed_precision,
        ("smoke.mixed-precision",),
    ),
)


class UnknownCheckError(ValueError):
    """A check id that is not registered."""


def select_checks(ids: Sequence[str]) -> tuple[Check, ...]:
    """The registered checks named by ``ids`` (all when empty), in registry order."""
    if not ids:
        return CHECKS
    known = {c.id for c in CHECKS}
    for wanted in ids:
        if wanted not in known:
            raise UnknownCheckError(
                f"unknown check {wanted!r}; `tfdoctor check --list` shows the ids"
            )
    return tuple(c for c in CHECKS if c.id in ids)


def run_checks(ctx: CheckContext, checks: Optional[Sequence[Check]] = None) -> tuple[Finding, ...]:
    """Run ``checks`` (default all) on ``ctx``; a crashing check becomes a finding."""
    findings: list[Finding] = []
    for check in CHECKS if checks is None else checks:
        try:
            produced = list(check.func(ctx))
        except Exception as exc:
            tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
            findings.append(
                Finding(
                    id="doctor.crashed",
                    severity=Severity.UNKNOWN,
                    summary=f"Check {check.id} crashed: {type(exc).__name__}: {exc}",
                    detail="".join(tb[-3:]).strip(),
                    check=check.id,
                )
            )
            continue
        findings.extend(dataclasses.replace(f, check=check.id) for f in produced)
    return tuple(findings)
