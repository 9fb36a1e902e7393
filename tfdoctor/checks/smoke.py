"""Checks on the smoke test: did each device compute, correctly, where asked, at speed.

Each check yields nothing when no smoke test ran (``facts.smoke`` is None), so
``tfdoctor check`` without ``--smoke`` reports exactly what it did before.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Callable, Optional

from tfdoctor.checks._context import CheckContext, fix
from tfdoctor.facts import SmokeDevice, SmokeFacts, SmokeResult
from tfdoctor.findings import Finding, Severity

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


@_when_smoke_ran
def check_crashed(smoke: SmokeFacts) -> Iterator[Finding]:
    """The smoke child finished, and no kernel raised, hung or killed it."""
    if smoke.status != "ok":
        where = ""
        if smoke.failed_kernel:
            where = f" in {smoke.failed_kernel} on {smoke.failed_device or 'a device'}"
        what = {
            "timeout": "hung",
            "signal": f"crashed ({smoke.signal})",
            "import-error": "could not import TensorFlow",
        }.get(smoke.status, "failed")
        yield Finding(
            "smoke.crashed",
            Severity.ERROR,
            f"The smoke test {what}{where}",
            "\n".join(p for p in (smoke.error_message or "", smoke.stderr_tail[-1500:]) if p),
            fix(
                "Run the failing kernel alone to see TensorFlow's own error; a hang or crash "
                "in one kernel usually means a broken CUDA/cuDNN library or driver (see "
                "`tfdoctor check`).",
                "tfdoctor check",
            ),
            (GPU_GUIDE,),
        )
        return
    raised = [r for _, r in _results(smoke) if r.status == "error"]
    for result in raised:
        yield Finding(
            "smoke.crashed",
            Severity.ERROR,
            f"{_label(result)} raised an error",
            result.error or "",
            fix("See the error above; `tfdoctor check` finds library and driver problems."),
        )
    if not raised:
        count = sum(len(d.results) for d in smoke.devices)
        yield Finding(
            "smoke.crashed",
            Severity.OK,
            f"{count} kernels ran on {len(smoke.devices)} device"
            f"{'s' if len(smoke.devices) != 1 else ''} in {smoke.seconds or 0:.1f} s",
        )


@_when_smoke_ran
def check_placement(smoke: SmokeFacts) -> Iterator[Finding]:
    """Each kernel ran on the device it was pinned to, not silently on the CPU."""
    wrong = [r for _, r in _results(smoke) if r.placed_on is not None and r.placed_on != r.device]
    for result in wrong:
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
            fix(
                "Check the GPU's ECC error counters and rerun; if it repeats, try another "
                "driver or TensorFlow release.",
                "nvidia-smi -q -d ECC",
            ),
        )
    checked = [r for _, r in _results(smoke) if r.ok is not None]
    if checked and not wrong:
        yield Finding(
            "smoke.correctness",
            Severity.OK,
            f"All {len(checked)} results match the float64 reference",
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
        yield Finding(
            "smoke.throughput",
            Severity.WARNING,
            f"{_label(result)} reached {_rate(result.throughput)}, {frac:.0%} of the "
            f"{_rate(result.peak)} peak",
            f"Expected at least {floor:.0%} of peak at size {result.size or 'unknown'}. "
            "Far below peak usually means throttled or low clocks (power or thermal limits), "
            "another job on the device, or a CPU fallback. Peak: "
            f"{device.peak_source or 'unknown'}.",
            fix(
                "Look at clocks, power and throttle reasons while it runs, and at other "
                "processes on the device.",
                "nvidia-smi -q -d PERFORMANCE,CLOCK,POWER"
                if device.device_type == "GPU"
                else "top",
            ),
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
            "kernel is far below what the GPU can do. Far below peak usually means throttled "
            "or low clocks (power or thermal limits), another job on the device, or a CPU "
            f"fallback. Peak: {device.peak_source or 'unknown'}.",
            fix(
                "Look at clocks, power and throttle reasons while it runs, and at other "
                "processes on the device.",
                "nvidia-smi -q -d PERFORMANCE,CLOCK,POWER",
            ),
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
        above = [
            r for r in device.results if r.fraction_of_peak is not None and r.fraction_of_peak > 1.1
        ]
        if (device.device_type == "CPU" or _derived_gpu(device)) and above:
            why = (
                "the clock used understates the boost clock"
                if device.device_type == "CPU"
                else "the GPU boosted above the clock the CUDA driver reports"
            )
            yield Finding(
                "smoke.throughput",
                Severity.INFO,
                f"{device.name} ran faster than its derived peak ({above[0].fraction_of_peak:.0%}"
                f" in {above[0].kernel}/{above[0].dtype}): {why}",
                f"Peak: {device.peak_source}.",
            )
    judged = [r for _, r in _results(smoke) if r.fraction_of_peak is not None]
    if judged and not slow and not below_bound:
        best = max(judged, key=lambda r: r.fraction_of_peak or 0.0)
        yield Finding(
            "smoke.throughput",
            Severity.OK,
            f"Throughput near expectations (best {best.kernel}/{best.dtype} on {best.device}: "
            f"{(best.fraction_of_peak or 0):.0%} of peak)",
        )


@_when_smoke_ran
def check_first_op(smoke: SmokeFacts) -> Iterator[Finding]:
    """A GPU's first op starts promptly (no long PTX JIT at every start)."""
    for device, result in _results(smoke):
        if result.kernel != "first-op" or result.seconds is None:
            continue
        if device.device_type == "GPU" and result.seconds > SLOW_FIRST_OP:
            capability = device.compute_capability or "unknown"
            yield Finding(
                "smoke.first-op",
                Severity.WARNING,
                f"The first op on {device.name} took {result.seconds:.1f} s",
                "A first op this slow means the driver JIT-compiled TensorFlow's PTX for this "
                f"GPU (compute capability {capability}): the wheel carries no machine code "
                "for it. Every new process pays this until the JIT cache holds it.",
                fix(
                    "Install a TensorFlow built for this compute capability "
                    "(`tfdoctor check gpu.compute-capability`), or keep the JIT cache and "
                    "make it large enough.",
                    "export CUDA_CACHE_MAXSIZE=4294967296",
                ),
                (
                    "https://docs.nvidia.com/cuda/cuda-c-programming-guide/#just-in-time-compilation",
                ),
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
            advice = fix(
                "Set the mixed_float16 policy before building the model (Keras scales the "
                "loss for you).",
                'python -c "import keras; keras.mixed_precision.set_global_policy('
                "'mixed_float16')\"",
            )
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
