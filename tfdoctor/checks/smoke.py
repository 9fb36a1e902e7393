"""Checks on the smoke test: did each device compute, correctly, where asked, at speed.

Each check yields nothing when no smoke test ran (``facts.smoke`` is None), so
``tfdoctor check`` without ``--smoke`` reports exactly what it did before.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator
from typing import Callable, Optional

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, fix
from tfdoctor.checks._shared import read_output
from tfdoctor.facts import SmokeDevice, SmokeFacts, SmokeResult
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.gpu_config import choose_policy

#: Below this fraction of the data-sheet peak a kernel is slow enough to name: cuBLAS and
#: oneDNN reach well over half of peak on large matmuls, convolutions less.
MIN_FRACTION = {
    "matmul": 0.25,
    "xla-dense": 0.2,
    "conv2d-forward": 0.1,
    "conv2d-backward": 0.1,
    "mixed-precision-step": 0.1,
}
#: Seconds a GPU's first op may take before the delay is worth a warning: longer means the
#: driver JIT-compiled PTX because the wheel has no machine code for this GPU
#: (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#just-in-time-compilation).
SLOW_FIRST_OP = 10.0
#: Mixed precision pays off when the step runs at least this much faster.
MIXED_GAIN = 1.3
#: CPUs the kernels may lose to other processes before a CPU's throughput is not judged: the
#: child's threads want every CPU it may use, so half a CPU taken by others already shows.
CPU_SHARED_SLACK = 0.5

MIXED_PRECISION_GUIDE = "https://www.tensorflow.org/guide/mixed_precision"
GPU_GUIDE = "https://www.tensorflow.org/guide/gpu"

CheckFunc = Callable[[CheckContext], Iterator[Finding]]


def _when_smoke_ran(func: Callable[[SmokeFacts], Iterator[Finding]]) -> CheckFunc:
    """The registered check for ``func``: silent unless a smoke test ran."""

    @functools.wraps(func)
    def check(ctx: CheckContext) -> Iterator[Finding]:
        if ctx.facts.smoke is not None:
            yield from func(ctx.facts.smoke)

    return check


#: ``placed_on`` of a kernel TensorFlow refused to run on its device (hard placement).
FALLBACK = "fallback"


def _on_gpu(device: Optional[str]) -> bool:
    """Whether a device name (``/device:GPU:0``) names a GPU."""
    return device is not None and ":GPU:" in f":{device.upper()}"


#: No kernel ran: the interpreter cannot import TensorFlow, which `check` diagnoses in full.
_IMPORT_FIX = fix(
    "TensorFlow does not import in this interpreter, so no kernel ran: `tfdoctor check` "
    "(with the same --python) names the cause and its fix.",
    "tfdoctor check",
)


def _crash_fix(device: str) -> Fix:
    """What to do about a hang or crash: GPU kernels point at the CUDA stack, CPU ones not."""
    if _on_gpu(device):
        return fix(
            "Run the failing kernel alone to see TensorFlow's own error; a hang or crash "
            "in one GPU kernel usually means a broken CUDA/cuDNN library or driver (see "
            "`tfdoctor check`).",
            "tfdoctor check",
        )
    return fix(
        "Run the failing kernel alone to see TensorFlow's own error. On the CPU a crash "
        "usually means a TensorFlow wheel built for instructions this CPU lacks (see "
        "`tfdoctor check cpu.avx`) or too little memory; a hang, a machine too busy to "
        "finish within --timeout.",
        "tfdoctor check",
    )


def _label(result: SmokeResult) -> str:
    return f"{result.kernel}/{result.dtype} on {result.device}"


def _rate(flops: float) -> str:
    if flops >= 1e12:
        return f"{flops / 1e12:.1f} TFLOP/s"
    return f"{flops / 1e9:.1f} GFLOP/s"


def _results(smoke: SmokeFacts) -> Iterator[tuple[SmokeDevice, SmokeResult]]:
    for device in smoke.devices:
        for result in device.results:
            yield device, result


def _cpu_shared(device: SmokeDevice) -> Optional[str]:
    """How other processes shared a CPU device's CPUs during the kernels, when they did.

    The child may use its affinity CPUs, at most the cgroup quota's worth at a time; others
    kept ``cpu_busy_others`` of those CPUs busy. It was shared when what was left falls
    short of what it may use.
    """
    if device.device_type != "CPU" or device.cpu_busy_others is None:
        return None
    if device.cpu_affinity is None:
        return None
    usable = float(device.cpu_affinity)
    if device.cpu_quota is not None:
        usable = min(usable, device.cpu_quota)
    left = device.cpu_affinity - device.cpu_busy_others
    if left >= usable - CPU_SHARED_SLACK:
        return None
    return (
        f"other processes kept {device.cpu_busy_others:.1f} of its {device.cpu_affinity} "
        "CPUs busy meanwhile"
    )


def _derived_gpu(device: SmokeDevice) -> bool:
    return device.device_type == "GPU" and device.peak_basis == "derived"


def _tf32_bound(device: SmokeDevice, result: SmokeResult) -> Optional[float]:
    """The derived non-tensor float32 peak as a lower bound on a TF32 kernel's peak, if any.

    A GPU's derived peak is for float32 on the CUDA cores. With TF32 on, TensorFlow's float32
    matmuls and convolutions run on tensor cores, whose dense TF32 rate is at least the
    non-tensor float32 rate on every NVIDIA GPU with TF32 (equal on GeForce Ampere and Ada,
    2x to 8x on data-center parts; NVIDIA's data sheets), so the derived figure bounds the
    real peak from below: a kernel under the floor of it is slow, and one above it proves
    nothing.
    """
    if not (_derived_gpu(device) and device.tf32) or result.peak is not None:
        return None
    if result.dtype != "float32" or result.kernel not in MIN_FRACTION:
        return None
    return device.peaks.get("float32")


def check_crashed(ctx: CheckContext) -> Iterator[Finding]:
    """The smoke child finished, and no kernel raised, hung or killed it; where it did not,
    the cause its output shows, read as ``explain`` reads a log (the same readers, cause and
    fix builder, fitted to this machine), so that a run that failed says why."""
    smoke = ctx.facts.smoke
    if smoke is None:
        return
    for finding, said in _crashed(smoke):
        yield _with_cause(ctx, finding, said)


def _with_cause(ctx: CheckContext, finding: Finding, said: str) -> Finding:
    """``finding`` of a failed run, naming the cause what the run printed shows (its weightiest,
    the first of equals); unchanged where the output shows none."""
    if finding.severity is not Severity.ERROR or finding.cause:
        return finding
    read = read_output(ctx, said)
    if not read:
        return finding
    found = max(read, key=lambda x: x.severity.rank)
    return dataclasses.replace(
        finding,
        summary=f"{finding.summary}: {found.summary}",
        detail=f"{finding.detail}\n\n{found.detail}".strip(),
        fix=found.fix,
        links=found.links or finding.links,
        cause=found.cause,
    )


def _crashed(smoke: SmokeFacts) -> Iterator[tuple[Finding, str]]:
    """The findings of the run's end, each with the text the failure printed."""
    # In the order the run printed them: its stderr, then the error it ended with (where the
    # stderr does not already hold it), so that a cause logged above ("Loaded runtime CuDNN
    # library: ...") comes before the exception that points at it.
    error = smoke.error_message or ""
    printed = "\n".join(
        p for p in (smoke.stderr_tail, "" if error in smoke.stderr_tail else error) if p
    )
    if smoke.status != "ok":
        where = ""
        if smoke.failed_kernel:
            where = f" in {smoke.failed_kernel} on {smoke.failed_device or 'a device'}"
        if smoke.status == "interrupted":
            # Ctrl-C says nothing about TensorFlow: the kernels not finished are unknown.
            yield (
                Finding(
                    "smoke.crashed",
                    Severity.UNKNOWN,
                    "The smoke test was interrupted (Ctrl-C)"
                    + (where or " during TensorFlow import"),
                    "The kernels that finished are judged; the rest did not run.",
                ),
                "",
            )
            return
        what = {
            "timeout": "hung",
            "signal": f"crashed ({smoke.signal})",
            "import-error": "could not import TensorFlow",
        }.get(smoke.status, "failed")
        yield (
            Finding(
                "smoke.crashed",
                Severity.ERROR,
                f"The smoke test {what}{where}",
                "\n".join(p for p in (smoke.error_message or "", smoke.stderr_tail[-1500:]) if p),
                _IMPORT_FIX
                if smoke.status == "import-error"
                else _crash_fix(smoke.failed_device or ""),
                (GPU_GUIDE,) if _on_gpu(smoke.failed_device) else (),
            ),
            printed,
        )
        return
    raised = [r for _, r in _results(smoke) if r.status == "error" and r.placed_on != FALLBACK]
    for result in raised:
        yield (
            Finding(
                "smoke.crashed",
                Severity.ERROR,
                f"{_label(result)} raised an error",
                result.error or "",
                fix(
                    "See the error above; `tfdoctor check` finds library and driver problems."
                    if _on_gpu(result.device)
                    else "See the error above; rerun with the same TensorFlow outside tfdoctor "
                    "to see whether it repeats."
                ),
            ),
            "\n".join(p for p in (smoke.stderr_tail, result.error or "") if p),
        )
    count = sum(len(d.results) for d in smoke.devices)
    if not raised and count:
        yield (
            Finding(
                "smoke.crashed",
                Severity.OK,
                f"{count} kernels ran on {len(smoke.devices)} device"
                f"{'s' if len(smoke.devices) != 1 else ''} in {smoke.seconds or 0:.1f} s",
            ),
            "",
        )


@_when_smoke_ran
def check_placement(smoke: SmokeFacts) -> Iterator[Finding]:
    """Each kernel ran on the device it was pinned to, not silently on the CPU."""
    wrong = [r for _, r in _results(smoke) if r.placed_on is not None and r.placed_on != r.device]
    for result in wrong:
        if result.placed_on == FALLBACK:
            yield Finding(
                "smoke.placement",
                Severity.ERROR,
                f"{result.kernel}/{result.dtype} could not run on {result.device}",
                "TensorFlow has no kernel on this device for an op of this step, or cannot "
                "use the device; with soft placement on (TensorFlow's default) the op would "
                f"have run on another device without an error. TensorFlow said: {result.error}",
                fix(
                    "Check that the device and its libraries load (`tfdoctor check`), and log "
                    "placements to see which op falls back.",
                    "tfdoctor check",
                ),
                (GPU_GUIDE,),
            )
            continue
        yield Finding(
            "smoke.placement",
            Severity.ERROR,
            f"{result.kernel}/{result.dtype} asked for {result.device} but ran on "
            f"{result.placed_on}",
            "TensorFlow's soft placement moved the op to another device, usually because "
            "the GPU kernel for it is missing or failed to load: work meant for the GPU runs "
            "on the CPU without an error.",
            fix(
                "Log placements to see which ops fall back, and check the CUDA libraries.",
                'python -c "import tensorflow as tf; tf.debugging.set_log_device_placement(True)'
                '; tf.matmul(tf.ones((2, 2)), tf.ones((2, 2)))"',
                "tfdoctor check",
            ),
            (GPU_GUIDE,),
        )
    placed = [r for _, r in _results(smoke) if r.placed_on is not None]
    if placed and not wrong:
        yield Finding("smoke.placement", Severity.OK, f"All {len(placed)} kernels ran where pinned")


def _wrong_fix(device: str) -> Fix:
    """What to do about a wrong result: ECC counters for a GPU, the CPU's stability else."""
    if _on_gpu(device):
        return fix(
            "Check the GPU's ECC error counters and rerun; if it repeats, try another "
            "driver or TensorFlow release.",
            "nvidia-smi -q -d ECC",
        )
    return fix(
        "Rerun; if it repeats on the CPU, try another TensorFlow release (a oneDNN bug), and "
        "look for machine-check (MCE) or memory errors in the kernel log."
    )


@_when_smoke_ran
def check_correctness(smoke: SmokeFacts) -> Iterator[Finding]:
    """Each result matched the float64 NumPy reference within its dtype's tolerance."""
    wrong = [r for _, r in _results(smoke) if r.ok is False and r.status == "ok"]
    for result in wrong:
        error = "not finite" if result.max_abs_error is None else f"{result.max_abs_error:.3g}"
        tolerance = "" if result.tolerance is None else f" (tolerance {result.tolerance:.3g})"
        yield Finding(
            "smoke.correctness",
            Severity.ERROR,
            f"{_label(result)} computed a wrong result: max error {error}{tolerance}",
            "The output differs from a float64 NumPy reference on the same inputs by more "
            "than rounding in this precision explains. Wrong results without an error point "
            "to faulty hardware (check ECC errors and clocks), a broken library build, or a "
            "driver bug.",
            _wrong_fix(result.device),
        )
    checked = [r for _, r in _results(smoke) if r.ok is not None]
    if checked and not wrong:
        yield Finding(
            "smoke.correctness",
            Severity.OK,
            f"All {len(checked)} results match the float64 reference",
        )


_SLOW_GPU_CAUSES = (
    "Far below peak usually means throttled or low clocks (power or thermal limits), another "
    "job on the device, or a CPU fallback."
)


def _slow_gpu_fix() -> Fix:
    """Where to look when a GPU kernel runs far below its peak."""
    return fix(
        "Look at clocks, power and throttle reasons while it runs, and at other processes on "
        "the device.",
        "nvidia-smi -q -d PERFORMANCE,CLOCK,POWER",
    )


@_when_smoke_ran
def check_throughput(smoke: SmokeFacts) -> Iterator[Finding]:
    """Throughput is a sane fraction of the device's peak for that precision."""
    slow = []
    for device, result in _results(smoke):
        floor = MIN_FRACTION.get(result.kernel)
        frac = result.fraction_of_peak
        if floor is None or frac is None or result.throughput is None or result.peak is None:
            continue
        if frac < floor:
            slow.append((device, result, frac, floor))
    for device, result, frac, floor in slow:
        assert result.throughput is not None and result.peak is not None
        shared = _cpu_shared(device)
        summary = (
            f"{_label(result)} reached {_rate(result.throughput)}, {frac:.0%} of the "
            f"{_rate(result.peak)} peak"
        )
        expected = f"Expected at least {floor:.0%} of peak at size {result.size or 'unknown'}. "
        if shared is not None:
            yield Finding(
                "smoke.throughput",
                Severity.INFO,
                f"{summary}, but {shared}: not judged",
                f"{expected}The CPU was shared while the kernels ran, so the figure measures "
                f"the competition, not the CPU. Peak: {device.peak_source or 'unknown'}.",
            )
        elif device.device_type == "GPU":
            yield Finding(
                "smoke.throughput",
                Severity.WARNING,
                summary,
                f"{expected}{_SLOW_GPU_CAUSES} Peak: {device.peak_source or 'unknown'}.",
                _slow_gpu_fix(),
            )
        else:
            yield Finding(
                "smoke.throughput",
                Severity.WARNING,
                summary,
                f"{expected}Far below peak on a CPU usually means other processes competing "
                "for the cores (in this container or beside it), a power-saving clock, or "
                "TensorFlow using fewer threads than there are cores. Peak: "
                f"{device.peak_source or 'unknown'}.",
                fix("Look at what else runs on the CPUs while it runs.", "top"),
            )
    below_bound = []
    for device, result in _results(smoke):
        bound = _tf32_bound(device, result)
        floor = MIN_FRACTION.get(result.kernel)
        if bound is None or floor is None or result.throughput is None:
            continue
        if result.throughput < floor * bound:
            below_bound.append((device, result, bound, floor))
    for device, result, bound, floor in below_bound:
        assert result.throughput is not None
        yield Finding(
            "smoke.throughput",
            Severity.WARNING,
            f"{_label(result)} reached {_rate(result.throughput)} as TF32, under {floor:.0%} "
            f"of even the {_rate(bound)} non-tensor float32 peak",
            "TF32 tensor cores run at least as fast as the CUDA cores' float32 peak, so this "
            f"kernel is far below what the GPU can do. {_SLOW_GPU_CAUSES} "
            f"Peak: {device.peak_source or 'unknown'}.",
            _slow_gpu_fix(),
        )
    for device in smoke.devices:
        bounded = [r for r in device.results if r.throughput and _tf32_bound(device, r)]
        if bounded:
            yield Finding(
                "smoke.throughput",
                Severity.INFO,
                f"{len(bounded)} TF32 kernels on {device.name} ({device.model or 'unknown model'}"
                ") judged only against a lower bound: the derived non-tensor float32 peak",
                "No TF32 tensor-core peak is known for this GPU, and the derived peak counts "
                "the CUDA cores only; TF32 runs at least as fast, so only a kernel below the "
                f"floor of that bound is named. Peak: {device.peak_source or 'unknown'}.",
            )
    unknown_peak = [d for d in smoke.devices if not d.peaks and d.results]
    for device in unknown_peak:
        yield Finding(
            "smoke.throughput",
            Severity.INFO,
            f"No peak known for {device.name} ({device.model or 'unknown model'}): "
            "throughput not judged",
            device.peak_source or "",
        )
    for device in smoke.devices:
        above = [r for r in device.results if _above_peak(r)]
        if above:
            top = max(above, key=lambda r: r.fraction_of_peak or 0.0)
            yield Finding(
                "smoke.throughput",
                Severity.INFO,
                f"{device.name} ran faster than its peak ({top.kernel}/{top.dtype} reached "
                f"{top.fraction_of_peak or 0:.2f}x it): {_why_above(device)}",
                "No kernel runs faster than a true peak, so this one is only a lower bound "
                "and fractions of it say nothing about health. "
                f"Peak: {device.peak_source or 'unknown'}.",
            )
    judged = [r for _, r in _results(smoke) if r.fraction_of_peak is not None]
    if judged and not slow and not below_bound:
        best = max(judged, key=lambda r: r.fraction_of_peak or 0.0)
        yield Finding(
            "smoke.throughput",
            Severity.OK,
            f"Throughput near expectations (best {best.kernel}/{best.dtype} on {best.device}: "
            f"{_of_peak(best)})",
        )


def _above_peak(result: SmokeResult) -> bool:
    """Whether a kernel beat its peak: the peak is then a lower bound, not a ceiling."""
    return result.fraction_of_peak is not None and result.fraction_of_peak > 1.0


def _of_peak(result: SmokeResult) -> str:
    """``85% of peak``; never a fraction above 1 as if the peak were right."""
    if _above_peak(result):
        return "above its peak, which is therefore only a lower bound"
    return f"{result.fraction_of_peak or 0:.0%} of peak"


def _why_above(device: SmokeDevice) -> str:
    """Why a device's peak came out low, as far as the facts say."""
    if device.device_type == "GPU":
        if _derived_gpu(device):
            return "the GPU boosted above the clock the CUDA driver reports"
        return "the data-sheet figure is below what this GPU does"
    cpu = device.cpu_peak
    if device.peak_basis == "measured":
        return "the kernel beat the FMA loop's measurement, which ran short or was disturbed"
    if cpu is not None and cpu.clock_source in ("cpuinfo", "model-name"):
        return (
            "the clock used is the one /proc/cpuinfo or the model name shows, below the one "
            "the cores run at"
        )
    if cpu is not None and cpu.lower_bound:
        return f"the FLOP per cycle are a lower bound ({cpu.lower_bound})"
    return "the derivation understates this CPU"


def check_first_op(ctx: CheckContext) -> Iterator[Finding]:
    """A GPU's first op starts promptly (no long PTX JIT at every start)."""
    smoke = ctx.facts.smoke
    if smoke is None:
        return
    for device, result in _results(smoke):
        if result.kernel != "first-op" or result.seconds is None:
            continue
        if device.device_type == "GPU" and result.seconds > SLOW_FIRST_OP:
            capability = device.compute_capability or "unknown"
            yield causes.finding(
                "smoke.first-op",
                Severity.WARNING,
                causes.gpu.GPU_PTX_JIT,
                f"The first op on {device.name} took {result.seconds:.1f} s",
                "A first op this slow means the driver JIT-compiled TensorFlow's PTX for this "
                f"GPU (compute capability {capability}): the wheel carries no machine code "
                "for it. Every new process pays this until the JIT cache holds it.",
                causes.gpu.ptx_jit_fix(ctx.machine, capability),
            )
        else:
            start = (
                ""
                if smoke.runtime_seconds is None
                else (f" (devices created in {smoke.runtime_seconds:.2f} s)")
            )
            yield Finding(
                "smoke.first-op",
                Severity.OK,
                f"First op on {device.name} in {result.seconds * 1e3:.0f} ms{start}",
            )


@_when_smoke_ran
def check_graph_mode(smoke: SmokeFacts) -> Iterator[Finding]:
    """How much ``tf.function`` buys over eager on a small training step here."""
    for device in smoke.devices:
        steps = {r.dtype: r for r in device.results if r.kernel == "train-step"}
        eager, graph = steps.get("eager"), steps.get("graph")
        if eager is None or graph is None or not eager.seconds or not graph.seconds:
            continue
        gain = eager.seconds / graph.seconds
        yield Finding(
            "smoke.graph-mode",
            Severity.INFO if gain >= 1.0 else Severity.WARNING,
            f"tf.function runs a small training step {gain:.1f}x as fast as eager on "
            f"{device.name} ({graph.seconds * 1e3:.2f} ms vs {eager.seconds * 1e3:.2f} ms)",
            "Eager mode dispatches each op from Python; a tf.function traces the step into a "
            "graph once. Small models gain the most. Keras `fit` uses a tf.function unless "
            "`run_eagerly=True`.",
            None,
            ("https://www.tensorflow.org/guide/function",),
        )


def _mixed_fix(device: SmokeDevice) -> Fix:
    """Where to turn mixed precision on: in the training script, before the model is built.

    The policy is the one ``tfdoctor.configure_gpus(mixed_precision="auto")`` picks
    (:func:`tfdoctor.gpu_config.choose_policy`). Where "auto" keeps float32 (below compute
    capability 7.0, or an unknown one), the step measured here was float16's, so the advice
    asks for float16 by name.
    """
    policy, _ = choose_policy("auto", (device.compute_capability,))
    if policy is None:
        policy, asked, picks = "mixed_float16", "float16", ""
    else:
        asked = "auto"
        picks = f" (it picks the policy from the GPU's compute capability: {policy} here)"
    scaling = (
        "bfloat16 needs no loss scaling"
        if policy == "mixed_bfloat16"
        else "Model.fit scales the loss; a custom loop needs "
        "keras.mixed_precision.LossScaleOptimizer"
    )
    return fix(
        "In the training script, before building the model, call "
        f'`tfdoctor.configure_gpus(mixed_precision="{asked}")`{picks} or '
        f'`keras.mixed_precision.set_global_policy("{policy}")` ({scaling}). The policy is '
        "per process: setting it anywhere else changes nothing."
    )


@_when_smoke_ran
def check_mixed_precision(smoke: SmokeFacts) -> Iterator[Finding]:
    """Whether mixed float16 makes a matmul-heavy step faster on this GPU, and advice."""
    for device in smoke.devices:
        steps = {r.dtype: r for r in device.results if r.kernel == "mixed-precision-step"}
        full, mixed = steps.get("float32"), steps.get("mixed_float16")
        if full is None or mixed is None or not full.seconds or not mixed.seconds:
            continue
        gain = full.seconds / mixed.seconds
        if gain >= MIXED_GAIN:
            summary = (
                f"Mixed precision runs a matmul-heavy step {gain:.1f}x as fast on "
                f"{device.name}: worth using"
            )
            advice = _mixed_fix(device)
        else:
            summary = (
                f"Mixed precision gains little on {device.name} ({gain:.2f}x): float32 "
                f"{'(as TF32) ' if device.tf32 else ''}is as good here"
            )
            advice = None
        yield Finding(
            "smoke.mixed-precision",
            Severity.INFO,
            summary,
            "The same two-layer step in float32 and in float16 compute with float32 weights "
            f"and loss scaling ({mixed.size}). Memory-bound or small models gain less than "
            "this.",
            advice,
            (MIXED_PRECISION_GUIDE,),
        )


def _gpu_requested(smoke: SmokeFacts) -> bool:
    """No ``--device`` filter, or one that names a GPU."""
    return not smoke.requested_devices or any(_on_gpu(d) for d in smoke.requested_devices)


def check_devices(ctx: CheckContext) -> Iterator[Finding]:
    """Every device asked for was tested, at least one was, and the driver's GPUs among them."""
    smoke = ctx.facts.smoke
    if smoke is None:
        return
    listed = ", ".join(smoke.listed_devices) or "no device"
    if smoke.unmatched_devices:
        names = ", ".join(smoke.unmatched_devices)
        asked = "were" if len(smoke.unmatched_devices) > 1 else "was"
        yield Finding(
            "smoke.devices",
            Severity.ERROR,
            f"{names} {asked} asked for; TensorFlow lists only {listed}",
            "The smoke test runs only on devices TensorFlow lists; a GPU missing from the "
            "list means TensorFlow cannot use it (`tfdoctor check` says why).",
            fix(
                "Name a device TensorFlow lists, or find out why it lists no GPU.", "tfdoctor check"
            ),
            (GPU_GUIDE,),
        )
    elif smoke.status == "ok" and not smoke.devices:
        yield Finding(
            "smoke.devices",
            Severity.ERROR,
            "The smoke test tested no device",
            f"TensorFlow lists {listed}; nothing ran, so nothing was checked.",
        )
    driver = ctx.facts.driver
    driver_gpus = len(driver.gpus) if driver is not None else 0
    tested_gpus = [d for d in smoke.devices if d.device_type == "GPU"]
    planned = bool(smoke.devices or smoke.listed_devices)
    if driver_gpus and planned and not tested_gpus and _gpu_requested(smoke):
        yield Finding(
            "smoke.devices",
            Severity.WARNING,
            f"The driver reports {driver_gpus} GPU{'s' if driver_gpus != 1 else ''}; "
            "TensorFlow tested none",
            f"NVIDIA's driver lists {driver_gpus} GPU{'s' if driver_gpus != 1 else ''}, but "
            f"TensorFlow lists {listed}: a CPU-only TensorFlow, CUDA libraries it cannot load, "
            "or CUDA_VISIBLE_DEVICES hiding them.",
            fix("See why TensorFlow does not use the GPUs.", "tfdoctor check"),
            (GPU_GUIDE,),
        )
    elif smoke.devices and not smoke.unmatched_devices:
        names = ", ".join(d.name.replace("/device:", "") for d in smoke.devices)
        yield Finding("smoke.devices", Severity.OK, f"Tested {names}")


@_when_smoke_ran
def check_memory(smoke: SmokeFacts) -> Iterator[Finding]:
    """The smoke test kept within its GPU memory cap, beside whatever else runs there."""
    for device in smoke.devices:
        if device.device_type != "GPU":
            continue
        cap = device.memory_limit or smoke.max_memory
        if device.memory_setup_error:
            yield Finding(
                "smoke.memory",
                Severity.WARNING,
                f"The smoke test could not cap its memory on {device.name}",
                "TensorFlow refused the logical device with a memory limit "
                f"({device.memory_setup_error}), so the kernels could take more GPU memory "
                "than --max-memory allows, beside any other job on the GPU.",
                fix("Run it when the GPU is idle, or report the error with `tfdoctor check`."),
            )
        elif cap and device.memory_peak is not None and device.memory_peak > cap:
            yield Finding(
                "smoke.memory",
                Severity.WARNING,
                f"The smoke test took {device.memory_peak / 2**20:.0f} MiB on {device.name}, "
                f"over its {cap / 2**20:.0f} MiB cap",
                "TensorFlow's allocator reported a peak above the logical device's limit; "
                "the cap did not hold.",
            )
        elif cap and device.memory_peak is not None:
            yield Finding(
                "smoke.memory",
                Severity.OK,
                f"The smoke test stayed within its {cap / 2**20:.0f} MiB cap on {device.name} "
                f"(peak {device.memory_peak / 2**20:.0f} MiB)",
            )
