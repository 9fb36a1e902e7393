"""Checks: pure functions from facts to findings, in one explicit ordered registry.

Each check has a stable id, written once, here; it guards its inputs first (no facts -> an
``unknown`` finding, never a silent pass) and its findings carry its id (the one exception is
:data:`FINDING_IDS`). A finding whose cause what TensorFlow showed contradicts (it imported,
it lists the GPU, the smoke test ran kernels there) becomes a note naming that observation
(:mod:`tfdoctor.causes.observed`). A check that raises becomes a ``doctor.crashed`` finding
naming it; the other checks still run. A check lives in the module named after its id's area
(``packages.pins`` in :mod:`tfdoctor.checks.packages`; ``doctor.probes`` in
:mod:`tfdoctor.checks.platform`), helpers several areas share in
:mod:`tfdoctor.checks._shared`. Named subsets (:data:`SMOKE`, :data:`GPU_GATE`, the
checks an option asks for) live beside the registry, so no caller filters checks by id strings.
"""

from __future__ import annotations

import dataclasses
import traceback
from collections.abc import Iterable, Mapping, Sequence
from typing import Callable, Optional

from tfdoctor.causes import observed
from tfdoctor.checks import (
    cpu,
    cuda,
    driver,
    gpu,
    hosted,
    notebook,
    packages,
    platform,
    python,
    runtime,
    smoke,
    tensorflow,
    xla,
)
from tfdoctor.checks._context import CheckContext
from tfdoctor.findings import Finding, Severity
from tfdoctor.records import Record, record

CheckFunc = Callable[[CheckContext], Iterable[Finding]]

#: The one check whose findings carry another id than the check's: ``doctor.probes`` reports
#: each probe that failed as ``doctor.probe-failed``, an id reports and docs/findings.md promise
#: stable. Every other check's findings carry the check's own id; a check that raises becomes
#: one ``doctor.crashed`` finding whose ``check`` names it.
FINDING_IDS: Mapping[str, str] = {"doctor.probes": "doctor.probe-failed"}


@record
class Check(Record):
    """A registered check: its id, a title for ``--list``, and the function."""

    id: str
    title: str
    func: CheckFunc

    @property
    def finding_id(self) -> str:
        """The id its findings carry (the check's own, but for :data:`FINDING_IDS`)."""
        return FINDING_IDS.get(self.id, self.id)


def _gpu_required(ctx: CheckContext) -> Iterable[Finding]:
    """``gpu.required`` judges the findings of :data:`GPU_GATE`, run here so that the gate
    works when it is the only check selected, and can never disagree with them."""
    if not ctx.require_gpu:
        return ()
    # Findings already made on this context are reused, not made again.
    return gpu.check_gpu_required(ctx, run_checks(ctx, GPU_GATE))


#: ``--require-gpu``'s check: runs even when the CHECK_IDs leave it out.
GPU_REQUIRED = Check(
    "gpu.required", "With --require-gpu: TensorFlow can use a GPU, or why not", _gpu_required
)
#: ``--against``'s check: runs even when the CHECK_IDs leave it out.
DRIFT = Check(
    "packages.drift",
    "Installed packages match the --against requirements file",
    packages.check_drift,
)
#: Judges the fresh-process memory figure a smoke test measures.
MEMORY_HELD = Check(
    "runtime.memory-held",
    "A fresh process with this environment holds little GPU memory (with --smoke)",
    runtime.check_memory_held,
)
#: The smoke test's own checks; they say nothing unless a smoke test ran (``tfdoctor smoke``,
#: ``check --smoke``). Their verdict is the one ``pin`` records.
SMOKE: tuple[Check, ...] = (
    Check("smoke.crashed", "The smoke test ran to the end", smoke.check_crashed),
    Check(
        "smoke.devices",
        "Every device asked for, and the driver's GPUs, were tested",
        smoke.check_devices,
    ),
    Check(
        "smoke.placement", "Kernels ran on the device they were pinned to", smoke.check_placement
    ),
    Check("smoke.correctness", "Kernel results match a float64 reference", smoke.check_correctness),
    Check("smoke.throughput", "Throughput is a sane fraction of peak", smoke.check_throughput),
    Check("smoke.first-op", "The first GPU op starts promptly", smoke.check_first_op),
    Check("smoke.memory", "The smoke test kept within its GPU memory cap", smoke.check_memory),
    Check("smoke.graph-mode", "What tf.function buys over eager here", smoke.check_graph_mode),
    Check(
        "smoke.mixed-precision",
        "Whether mixed precision pays off on this GPU",
        smoke.check_mixed_precision,
    ),
)
#: What ``tfdoctor smoke`` judges: the smoke checks and the fresh-process memory figure.
SMOKE_COMMAND: tuple[Check, ...] = (MEMORY_HELD, *SMOKE)

#: Every check, in the order findings are reported. Add new checks here.
CHECKS: tuple[Check, ...] = (
    Check("doctor.probes", "Every probe produced facts", platform.check_probes),
    Check("python.bits", "64-bit Python", python.check_bits),
    Check(
        "python.environment",
        "Virtual environment, not a global interpreter",
        python.check_environment,
    ),
    Check("platform.rosetta", "Native Python, not x86-64 under Rosetta", platform.check_rosetta),
    Check(
        "platform.metal",
        "On a Mac: tensorflow-metal loads with this TensorFlow and Python",
        platform.check_metal,
    ),
    Check("platform.wsl", "WSL 2 for GPU access", platform.check_wsl),
    Check(
        "notebook.kernel",
        "In a notebook: the kernel runs the terminal's environment",
        notebook.check_kernel_env,
    ),
    Check(
        "notebook.variables",
        "In a notebook: LD_LIBRARY_PATH and CUDA_VISIBLE_DEVICES are the terminal's",
        notebook.check_kernel_variables,
    ),
    Check(
        "notebook.restart",
        "In a notebook: the imported TensorFlow is the installed one",
        notebook.check_kernel_restart,
    ),
    Check(
        "hosted.tensorflow",
        "On a hosted image: the TensorFlow it ships",
        hosted.check_hosted_tensorflow,
    ),
    Check("hosted.tpu", "On a TPU: a generation TensorFlow runs on, with libtpu", hosted.check_tpu),
    Check(
        "platform.windows-gpu",
        "No GPU expected from TensorFlow 2.11+ on native Windows",
        platform.check_windows_gpu,
    ),
    Check(
        "cpu.avx",
        "CPU has the vector instructions TensorFlow wheels need",
        cpu.check_cpu_features,
    ),
    Check(
        "packages.tensorflow",
        "Exactly one TensorFlow distribution installed",
        packages.check_tf_distributions,
    ),
    Check(
        "packages.tensorflow-gpu",
        "No removed tensorflow-gpu package",
        packages.check_tensorflow_gpu_package,
    ),
    Check(
        "packages.wheels",
        "Installed wheels built for this Python and machine",
        packages.check_wheel_tags,
    ),
    Check(
        "tensorflow.python",
        "TensorFlow has wheels for this Python and platform",
        tensorflow.check_python_wheels,
    ),
    Check(
        "packages.pins",
        "Every requirement TensorFlow and its companions declare, in range",
        packages.check_dependency_pins,
    ),
    Check(
        "packages.removed-api",
        "No installed release uses what another installed release removed",
        packages.check_removed_api_users,
    ),
    Check(
        "packages.conda",
        "One TensorFlow in a conda environment; conda's CUDA of the build's version",
        packages.check_conda_mix,
    ),
    DRIFT,
    Check("tensorflow.import", "TensorFlow imports", tensorflow.check_tf_import),
    Check("driver.nvidia", "NVIDIA driver loaded", driver.check_driver),
    Check("driver.cuda", "Driver new enough for TensorFlow's CUDA build", driver.check_driver_cuda),
    Check("gpu.ecc", "No uncorrected GPU memory errors", gpu.check_ecc),
    Check("gpu.visible", "TensorFlow sees the GPUs", gpu.check_gpu_visible),
    Check(
        "gpu.compute-capability",
        "The wheel carries code for each GPU",
        gpu.check_compute_capability,
    ),
    Check(
        "gpu.absent",
        "A container without GPU access (a build step) is not a broken GPU",
        gpu.check_gpu_absent,
    ),
    GPU_REQUIRED,
    Check("cuda.libraries", "CUDA libraries TensorFlow needs are found", cuda.check_cuda_libraries),
    Check("cuda.shadowed", "No CUDA library shadowed by another version", cuda.check_cuda_shadowed),
    Check(
        "cuda.versions",
        "cuDNN and CUDA wheels match the build and its pins",
        cuda.check_cuda_versions,
    ),
    Check("xla.ptxas", "XLA's ptxas fits the driver", xla.check_ptxas),
    Check("xla.libdevice", "XLA finds libdevice", xla.check_libdevice),
    Check(
        "tensorflow.output",
        "What TensorFlow printed as it imported names no problem",
        tensorflow.check_tf_output,
    ),
    Check(
        "runtime.memory-growth",
        "TensorFlow maps GPU memory as needed, not all at start",
        runtime.check_memory_growth,
    ),
    *SMOKE_COMMAND,
)


def _registered(*funcs: CheckFunc) -> tuple[Check, ...]:
    """The registered checks of ``funcs``, in the order given."""
    by_func = {c.func: c for c in CHECKS}
    return tuple(by_func[func] for func in funcs)


#: The checks whose findings decide whether TensorFlow can use a GPU, causes before symptoms:
#: ``gpu.required`` names the worst of their findings (ties go to the one naming a cause, then
#: to the earlier here), so the gate says what the report above it says.
GPU_GATE: tuple[Check, ...] = _registered(
    packages.check_tf_distributions,
    tensorflow.check_tf_import,
    platform.check_wsl,
    platform.check_windows_gpu,
    # On a Mac the GPU is Apple's, reached only through tensorflow-metal: its finding, not
    # the NVIDIA driver's absence, says why TensorFlow lists none.
    platform.check_metal,
    driver.check_driver,
    gpu.check_gpu_absent,
    driver.check_driver_cuda,
    cuda.check_cuda_libraries,
    cuda.check_cuda_shadowed,
    cuda.check_cuda_versions,
    gpu.check_compute_capability,
    gpu.check_gpu_visible,
)


def implied_checks(*, require_gpu: bool = False, against: bool = False) -> tuple[Check, ...]:
    """The checks options ask for: ``--require-gpu`` gpu.required, ``--against`` packages.drift."""
    return tuple(check for check, on in ((GPU_REQUIRED, require_gpu), (DRIFT, against)) if on)


class UnknownCheckError(ValueError):
    """A check id that is not registered."""


def select_checks(ids: Sequence[str], also: Sequence[Check] = ()) -> tuple[Check, ...]:
    """The registered checks named by ``ids`` (all when empty) and ``also``, in registry order."""
    if not ids:
        return CHECKS
    known = {c.id for c in CHECKS}
    for wanted in ids:
        if wanted not in known:
            raise UnknownCheckError(
                f"unknown check {wanted!r}; `tfdoctor check --list` shows the ids"
            )
    return tuple(c for c in CHECKS if c.id in ids or c in also)


def run_checks(ctx: CheckContext, checks: Optional[Sequence[Check]] = None) -> tuple[Finding, ...]:
    """Run ``checks`` (default all) on ``ctx``; a crashing check becomes a finding.

    Each check runs once per context: a check that reads others' findings (``gpu.required``)
    gets the ones already made.
    """
    findings: list[Finding] = []
    for check in CHECKS if checks is None else checks:
        made = ctx.findings_made.get(check.id)
        if made is None:
            made = ctx.findings_made[check.id] = _run_one(ctx, check)
        findings.extend(made)
    return tuple(findings)


def _run_one(ctx: CheckContext, check: Check) -> tuple[Finding, ...]:
    try:
        produced = list(check.func(ctx))
    except Exception as exc:
        tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
        return (
            Finding(
                id="doctor.crashed",
                severity=Severity.UNKNOWN,
                summary=f"Check {check.id} crashed: {type(exc).__name__}: {exc}",
                detail="".join(tb[-3:]).strip(),
                check=check.id,
            ),
        )
    # Observed beats inferred: a finding that what TensorFlow showed contradicts is a note.
    return tuple(
        observed.overrule(dataclasses.replace(f, check=check.id), ctx.machine) for f in produced
    )
