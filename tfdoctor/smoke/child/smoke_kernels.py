"""Run TensorFlow kernels on each visible device and report placement, correctness and speed.

Run by path in the examined interpreter as ``python smoke_kernels.py MARKER CONFIG_JSON``.
Needs TensorFlow and NumPy, nothing from tfdoctor; Python 3.8+. With ``"watch_parent": true``
in the config it exits as soon as its stdin reaches end of file: the parent holds the other
end of that pipe, so the child dies with the parent however the parent ends (even SIGKILL).

Every event is one line, ``MARKER {json}``, flushed at once: ``start``, ``imported``,
``plan`` (every device and kernel to run), ``kernel-start`` and ``kernel-done`` per kernel,
``device-done`` (GPU memory the run took) and ``done``. The parent reads them as they come,
so when a kernel hangs or kills the process it knows which kernel on which device it was.
TensorFlow and user code may print too; only lines starting with the marker count.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import json
import math
import os
import re
import sys
import threading
import time
from typing import Any, Callable, Optional

#: Relative error per sqrt(K) allowed for each input precision, inputs uniform in [-1, 1]:
#: a few units in the last place of the accumulated sum. TF32 keeps 10 mantissa bits
#: (https://docs.nvidia.com/cuda/cublas/#cublasmath-t), like float16.
RTOL = {"float32": 1e-5, "tf32": 2e-3, "float16": 2e-3, "bfloat16": 1.6e-2}

#: Matmul sizes (n for n x n by n x n) per level; GPUs are scaled down to the memory cap.
MATMUL_N = {
    "tiny": {"CPU": 128, "GPU": 256},
    "quick": {"CPU": 2048, "GPU": 4096},
    "full": {"CPU": 4096, "GPU": 8192},
}
#: Half-precision matmuls on a CPU without native support run at this size at most.
CPU_HALF_N = {"tiny": 128, "quick": 512, "full": 1024}
#: conv2d NHWC input (batch, height, width, channels) with a 3x3 filter to as many channels.
CONV_SHAPE = {
    "tiny": {"CPU": (2, 8, 8, 8), "GPU": (2, 8, 8, 8)},
    "quick": {"CPU": (8, 56, 56, 64), "GPU": (64, 56, 56, 64)},
    "full": {"CPU": (32, 56, 56, 64), "GPU": (64, 56, 56, 128)},
}
#: Seconds each throughput measurement runs for (after one warm-up call).
MIN_SECONDS = {"tiny": 0.01, "quick": 0.25, "full": 1.5}
#: Steps of the small training step, eager and graph.
TRAIN_STEPS = {"tiny": 5, "quick": 30, "full": 200}
#: Width and batch of the mixed-precision comparison step (GPU only).
MIXED_SHAPE = {"tiny": (64, 128), "quick": (2048, 512), "full": (4096, 1024)}
#: Largest size checked against the float64 NumPy reference (its cost is n^3 on the CPU).
CHECK_N = 512
CHECK_CONV = (2, 12, 12, 16)

# cuda.h, CUdevice_attribute (CUDA driver API, "Device Management"):
# https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__DEVICE.html
CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13  # kHz: the maximum SM clock
CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
NAME_SIZE = 256

# Errors TensorFlow raises, with soft placement off, for an op that cannot run on the device
# it was pinned to (tensorflow/core/common_runtime/placer.cc, "Could not satisfy device
# specification"; tensorflow/core/framework/op_kernel.cc, "No registered '...' OpKernel";
# tensorflow/core/common_runtime/eager/execute.cc, "Could not find device for node").
PLACEMENT_ERRORS = re.compile(
    r"Could not satisfy (?:explicit )?device specification|No registered '?[\w.]*'? ?OpKernel"
    r"|No registered kernel|no supported kernel|Could not find device for node",
    re.IGNORECASE,
)
#: /proc/stat columns that count as busy: user nice system idle iowait irq softirq steal
#: (proc(5)); steal is time the hypervisor gave this CPU to another guest.
BUSY_COLUMNS = (0, 1, 2, 5, 6, 7)

_MARKER = ""
_FAULT: dict[str, str] = {}


def emit(event: str, **fields: Any) -> None:
    """One event line after the marker, flushed so it survives a crash that follows."""
    fields["event"] = event
    sys.stdout.write(_MARKER + " " + json.dumps(fields, default=str) + "\n")
    sys.stdout.flush()


def describe(exc: BaseException) -> str:
    """``TypeName: message``."""
    return f"{type(exc).__name__}: {exc}"


def kernel_id(kernel: str, dtype: str) -> str:
    """``kernel/dtype``, the name the fault hooks use."""
    return kernel + "/" + dtype


class Kernel:
    """What one kernel run found; becomes a ``kernel-done`` event."""

    def __init__(self, kernel: str, dtype: str, device: str) -> None:
        self.fields: dict[str, Any] = {
            "kernel": kernel,
            "dtype": dtype,
            "device": device,
            "placed_on": None,
            "ok": None,
            "max_abs_error": None,
            "tolerance": None,
            "seconds": None,
            "flops": None,
            "throughput": None,
            "status": "ok",
            "error": None,
            "note": "",
            "size": "",
        }

    def set(self, **fields: Any) -> None:
        """Record fields of the result."""
        self.fields.update(fields)


# --- helpers that need TensorFlow ---------------------------------------------------------


def short_device(name: str) -> str:
    """``/job:localhost/replica:0/task:0/device:GPU:0`` -> ``/device:GPU:0``."""
    index = name.find("/device:")
    return name[index:] if index >= 0 else name


def sync(tf: Any, tensor: Any) -> None:
    """Wait for ``tensor``: fetch one element (GPU streams run in order, so all is done)."""
    tf.reshape(tensor, [-1])[0].numpy()


def bench(
    tf: Any, fn: Callable[[], Any], min_seconds: float, repeats: int = 3
) -> tuple[float, Any]:
    """Seconds per call of ``fn``: the fastest of ``repeats`` timed runs, and its last result.

    One warm-up call (tracing, allocation, autotuning), one call to size the runs, then
    ``repeats`` runs sharing ``min_seconds``. The fastest run is the device's capability; the
    slower ones carry the noise of a shared machine (the same rule ``timeit`` follows).
    """
    result = fn()
    sync(tf, result)
    start = time.perf_counter()
    result = fn()
    sync(tf, result)
    once = max(time.perf_counter() - start, 1e-6)
    calls = max(1, min(1000, math.ceil(min_seconds / repeats / once)))
    best = once
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            result = fn()
        sync(tf, result)
        best = min(best, (time.perf_counter() - start) / calls)
    return best, result


def perturb(kernel: str, dtype: str, array: Any) -> Any:
    """The test fault hook: a wrong element in one kernel's output, to prove the check bites."""
    if _FAULT.get("perturb") == kernel_id(kernel, dtype):
        array = array.copy()
        array.flat[0] += 1.0
    return array


def misplaced(kernel: str, dtype: str, device: str) -> str:
    """The test fault hook: pin one kernel to a device that does not exist."""
    if _FAULT.get("misplace") == kernel_id(kernel, dtype):
        return "/device:GPU:999"
    return device


def is_placement_error(message: str) -> bool:
    """Whether TensorFlow's error says the op could not run on the device it was pinned to."""
    return PLACEMENT_ERRORS.search(message) is not None


def maybe_hang(kernel: str, dtype: str) -> None:
    """The test fault hook: never return from one kernel, to prove the parent kills it."""
    if _FAULT.get("hang") == kernel_id(kernel, dtype):
        while True:
            time.sleep(60)


def compare(
    result: Kernel, got: Any, want: Any, rtol: float, reduce_len: int, scale: float = 1.0
) -> None:
    """Set max_abs_error, tolerance and ok from the float64 reference ``want``."""
    import numpy as np  # noqa: PLC0415 - imported with TensorFlow, after the start event

    error = float(np.max(np.abs(np.asarray(got, dtype=np.float64) - want)))
    tolerance = rtol * math.sqrt(reduce_len) * scale
    ok = bool(error <= tolerance) and bool(np.all(np.isfinite(got)))
    result.set(max_abs_error=error, tolerance=tolerance, ok=ok)


def uniform(rng: Any, shape: tuple[int, ...]) -> Any:
    """float32 values uniform in [-1, 1)."""
    return rng.uniform(-1.0, 1.0, size=shape).astype("float32")


def to_dtype(tf: Any, array: Any, dtype: str) -> tuple[Any, Any]:
    """``array`` as a tensor of ``dtype``, and the exact values it holds as float64."""
    tensor = tf.cast(tf.constant(array), dtype)
    return tensor, tf.cast(tensor, "float64").numpy()


# --- kernels -----------------------------------------------------------------------------


def run_first_op(tf: Any, ctx: dict[str, Any], result: Kernel) -> None:
    """Time the first op on the device: runtime start, kernel loading and any PTX JIT."""
    start = time.perf_counter()
    with tf.device(ctx["device"]):
        out = tf.constant([1.0, 2.0]) * 2.0 + 1.0
        values = out.numpy()
    result.set(seconds=time.perf_counter() - start, placed_on=short_device(out.device))
    got = perturb("first-op", "float32", values)
    compare(result, got, [3.0, 5.0], RTOL["float32"], 1)


def run_matmul(tf: Any, ctx: dict[str, Any], result: Kernel, dtype: str) -> None:
    """n x n matmul: correctness at a checkable size, throughput at the level's size."""
    device, n = ctx["device"], ctx["matmul_n"]
    if ctx["device_type"] == "CPU" and dtype != "float32":
        n = min(n, CPU_HALF_N[ctx["level"]])
    check_n = min(n, CHECK_N)
    rtol = RTOL["tf32" if dtype == "float32" and ctx["tf32"] else dtype]
    rng = ctx["rng"]
    with tf.device(device):
        a, a64 = to_dtype(tf, uniform(rng, (check_n, check_n)), dtype)
        b, b64 = to_dtype(tf, uniform(rng, (check_n, check_n)), dtype)
        out = tf.matmul(a, b)
        got = perturb("matmul", dtype, tf.cast(out, "float64").numpy())
    result.set(placed_on=short_device(out.device))
    # The output is rounded to the dtype too: allow half a unit in its last place of the
    # largest value on top of the accumulation error.
    compare(result, got, a64 @ b64, rtol, check_n)
    with tf.device(device):
        a = tf.cast(tf.random.uniform((n, n), -1.0, 1.0), dtype)
        b = tf.cast(tf.random.uniform((n, n), -1.0, 1.0), dtype)
        matmul = tf.function(tf.linalg.matmul)
        seconds, out = bench(tf, lambda: matmul(a, b), ctx["min_seconds"])
    flops = 2.0 * n**3
    result.set(seconds=seconds, flops=flops, throughput=flops / seconds, size=f"n={n}")
    if result.fields["placed_on"] != short_device(out.device):
        result.set(placed_on=short_device(out.device))
    if dtype == "float32" and ctx["tf32"]:
        result.set(note="TF32: TensorFlow runs float32 matmuls on TensorFloat-32 tensor cores")


def conv_reference(x: Any, w: Any, g: Any) -> tuple[Any, Any, Any]:
    """float64 conv2d (3x3, stride 1, SAME), and the gradients for upstream ``g``."""
    import numpy as np  # noqa: PLC0415 - see compare

    windows = np.lib.stride_tricks.sliding_window_view
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    patches = windows(xp, (3, 3), axis=(1, 2))  # n, h, w, c, 3, 3
    y = np.einsum("nhwcab,abco->nhwo", patches, w)
    dw = np.einsum("nhwcab,nhwo->abco", patches, g)
    gp = np.pad(g, ((0, 0), (1, 1), (1, 1), (0, 0)))
    gpatches = windows(gp, (3, 3), axis=(1, 2))  # n, h, w, o, 3, 3
    dx = np.einsum("nhwoab,abco->nhwc", gpatches, w[::-1, ::-1])
    return y, dx, dw


def conv_inputs(tf: Any, shape: tuple[int, ...], rng: Any) -> tuple[Any, ...]:
    """Input, 3x3 filter and upstream gradient for ``shape`` (n, h, w, c), as tensors."""
    n, h, w, c = shape
    x = uniform(rng, (n, h, w, c))
    f = uniform(rng, (3, 3, c, c))
    g = uniform(rng, (n, h, w, c))
    return x, f, g


def run_conv(tf: Any, ctx: dict[str, Any], result: Kernel, backward: bool) -> None:
    """conv2d forward (or its input and filter gradients) on cuDNN / oneDNN."""
    device = ctx["device"]
    kernel = "conv2d-backward" if backward else "conv2d-forward"
    rtol = RTOL["tf32" if ctx["tf32"] else "float32"]

    def step(x: Any, f: Any, g: Any) -> Any:
        if not backward:
            return tf.nn.conv2d(x, f, 1, "SAME")
        with tf.GradientTape() as tape:
            tape.watch([x, f])
            y = tf.nn.conv2d(x, f, 1, "SAME")
        dx, df = tape.gradient(y, [x, f], output_gradients=g)
        return tf.concat([tf.reshape(dx, [-1]), tf.reshape(df, [-1])], 0)

    x, f, g = conv_inputs(tf, CHECK_CONV, ctx["rng"])
    with tf.device(device):
        out = step(tf.constant(x), tf.constant(f), tf.constant(g))
        got = perturb(kernel, "float32", out.numpy().astype("float64"))
    result.set(placed_on=short_device(out.device))
    import numpy as np  # noqa: PLC0415 - see compare

    y, dx, dw = conv_reference(x.astype("float64"), f.astype("float64"), g.astype("float64"))
    want = np.concatenate([dx.ravel(), dw.ravel()]) if backward else y
    # dW sums over every output position; y and dX over 3 x 3 x channels.
    reduce_len = CHECK_CONV[0] * CHECK_CONV[1] * CHECK_CONV[2] if backward else 9 * CHECK_CONV[3]
    compare(result, got.reshape(want.shape), want, rtol, reduce_len)
    shape = ctx["conv_shape"]
    with tf.device(device):
        xs, fs, gs = (tf.constant(a) for a in conv_inputs(tf, shape, ctx["rng"]))
        fn = tf.function(step)
        seconds, out = bench(tf, lambda: fn(xs, fs, gs), ctx["min_seconds"])
    n, h, w, c = shape
    flops = 2.0 * n * h * w * c * c * 9 * (2 if backward else 1)
    result.set(
        seconds=seconds,
        flops=flops,
        throughput=flops / seconds,
        size=f"x={n}x{h}x{w}x{c}, filter=3x3x{c}x{c}",
    )


def run_xla(tf: Any, ctx: dict[str, Any], result: Kernel) -> None:
    """One XLA-compiled dense step (``jit_compile=True``): relu(a @ b + bias)."""
    device, n = ctx["device"], ctx["matmul_n"]
    if ctx["device_type"] == "CPU":
        n = min(n, 1024)  # XLA on the CPU is not the point of the test; keep it short
    check_n = min(n, CHECK_N)
    rtol = RTOL["tf32" if ctx["tf32"] else "float32"]
    rng = ctx["rng"]

    def dense(a: Any, b: Any, bias: Any) -> Any:
        return tf.nn.relu(tf.matmul(a, b) + bias)

    step = tf.function(dense, jit_compile=True)
    a, b, bias = (uniform(rng, (check_n, check_n)) for _ in range(3))
    start = time.perf_counter()
    with tf.device(device):
        out = step(tf.constant(a), tf.constant(b), tf.constant(bias[0]))
        got = perturb("xla-dense", "float32", out.numpy().astype("float64"))
    compiled = time.perf_counter() - start
    result.set(placed_on=short_device(out.device))
    import numpy as np  # noqa: PLC0415 - see compare

    want = np.maximum(a.astype("float64") @ b.astype("float64") + bias[0], 0.0)
    compare(result, got, want, rtol, check_n)
    with tf.device(device):
        big = [tf.random.uniform((n, n), -1.0, 1.0) for _ in range(2)]
        vec = tf.random.uniform((n,), -1.0, 1.0)
        seconds, out = bench(tf, lambda: step(big[0], big[1], vec), ctx["min_seconds"])
    flops = 2.0 * n**3
    result.set(
        seconds=seconds,
        flops=flops,
        throughput=flops / seconds,
        size=f"n={n}",
        note=f"compiled and ran the first call in {compiled:.2f} s",
    )


def mlp_step(tf: Any, variables: list[Any], x: Any, y: Any, lr: float, half: bool) -> Any:
    """One SGD step of a two-layer perceptron; ``half`` computes in float16 (mixed precision).

    Mixed precision as Keras does it: float32 variables, float16 compute, a loss scale so
    small float16 gradients do not flush to zero
    (https://www.tensorflow.org/guide/mixed_precision).
    """
    w1, b1, w2, b2 = variables
    scale = 1024.0 if half else 1.0
    with tf.GradientTape() as tape:
        if half:
            xs, w1s, b1s, w2s, b2s = (tf.cast(v, "float16") for v in (x, w1, b1, w2, b2))
        else:
            xs, w1s, b1s, w2s, b2s = x, w1, b1, w2, b2
        hidden = tf.nn.relu(tf.matmul(xs, w1s) + b1s)
        out = tf.cast(tf.matmul(hidden, w2s) + b2s, "float32")
        loss = tf.reduce_mean(tf.square(out - y))
        scaled = loss * scale
    grads = tape.gradient(scaled, variables)
    for var, grad in zip(variables, grads):
        var.assign_sub(lr * tf.cast(grad, "float32") / scale)
    return loss


def make_mlp(tf: Any, rng: Any, width: tuple[int, int, int], batch: int) -> tuple[Any, ...]:
    """Variables (w1, b1, w2, b2) and data (x, y) of a perceptron in -> hidden -> out."""
    d_in, d_hidden, d_out = width
    w1 = uniform(rng, (d_in, d_hidden)) / math.sqrt(d_in)
    w2 = uniform(rng, (d_hidden, d_out)) / math.sqrt(d_hidden)
    variables = [
        tf.Variable(w1),
        tf.Variable(tf.zeros((d_hidden,))),
        tf.Variable(w2),
        tf.Variable(tf.zeros((d_out,))),
    ]
    return (
        variables,
        tf.constant(uniform(rng, (batch, d_in))),
        tf.constant(uniform(rng, (batch, d_out))),
    )


def run_train_step(
    tf: Any, ctx: dict[str, Any], result: Kernel, state: dict[str, Any], compiled: bool
) -> None:
    """A small training step (Dense 20-10-1, SGD, batch 32), eager or as a ``tf.function``.

    Both runs start from the same weights, so graph mode must reach eager mode's loss.
    """
    steps = ctx["train_steps"]
    rng = __import__("numpy").random.default_rng(7)
    with tf.device(ctx["device"]):
        variables, x, y = make_mlp(tf, rng, (20, 10, 1), 32)

        def step() -> Any:
            return mlp_step(tf, variables, x, y, 0.05, False)

        fn = tf.function(step) if compiled else step
        loss = fn()
        loss.numpy()
        start = time.perf_counter()
        for _ in range(steps):
            loss = fn()
        value = float(loss.numpy())
    seconds = (time.perf_counter() - start) / steps
    mode = result.fields["dtype"]
    value = float(perturb("train-step", mode, [value])[0])
    result.set(seconds=seconds, placed_on=short_device(loss.device), size=f"{steps + 1} steps")
    state[mode] = (value, seconds)
    if compiled and "eager" in state:
        eager_loss, eager_seconds = state["eager"]
        compare(result, [value], [eager_loss], 1e-5, 1, max(1.0, abs(eager_loss)))
        result.set(note=f"{eager_seconds / seconds:.1f}x the speed of the eager step")
    else:
        result.set(ok=math.isfinite(value))


def run_mixed(tf: Any, ctx: dict[str, Any], result: Kernel, state: dict[str, Any]) -> None:
    """The same perceptron step in float32 and in mixed float16, to see what it buys here."""
    half = result.fields["dtype"] == "mixed_float16"
    width, batch = MIXED_SHAPE[ctx["level"]]
    rng = __import__("numpy").random.default_rng(11)
    with tf.device(ctx["device"]):
        variables, x, y = make_mlp(tf, rng, (width, width, width), batch)
        fn = tf.function(lambda: mlp_step(tf, variables, x, y, 1e-3, half))
        seconds, loss = bench(tf, fn, ctx["min_seconds"])
    # forward, then the gradients with respect to the inputs and the weights: 3 x 2 matmuls.
    flops = 3 * 2 * 2.0 * batch * width * width
    state[result.fields["dtype"]] = float(loss.numpy())
    result.set(
        seconds=seconds,
        flops=flops,
        throughput=flops / seconds,
        placed_on=short_device(loss.device),
        size=f"batch={batch}, width={width}",
    )
    if half and "float32" in state:
        # Losses after different numbers of steps drift apart slowly; both must stay finite
        # and close: float16 compute with loss scaling trains like float32.
        want = state["float32"]
        compare(result, [state[result.fields["dtype"]]], [want], 5e-2, 1, max(1.0, abs(want)))
        fp32_seconds = state.get("float32-seconds") or seconds
        result.set(note=f"{fp32_seconds / seconds:.2f}x the speed of the float32 step")
    else:
        state["float32-seconds"] = seconds
        result.set(ok=bool(math.isfinite(state[result.fields["dtype"]])))


# --- the run -----------------------------------------------------------------------------


def gpu_supports(dtype: str, capability: Optional[tuple[int, int]]) -> bool:
    """float16 tensor cores from Volta (7.0), bfloat16 from Ampere (8.0)."""
    if capability is None:
        return dtype == "float32"
    if dtype == "float16":
        return capability >= (7, 0)
    if dtype == "bfloat16":
        return capability >= (8, 0)
    return True


def plan_for(device_type: str, capability: Optional[tuple[int, int]]) -> list[tuple[str, str]]:
    """(kernel, dtype) pairs to run on one device, in order."""
    plan = [("first-op", "float32")]
    for dtype in ("float32", "float16", "bfloat16"):
        if device_type == "CPU" or gpu_supports(dtype, capability):
            plan.append(("matmul", dtype))
    plan += [
        ("conv2d-forward", "float32"),
        ("conv2d-backward", "float32"),
        ("xla-dense", "float32"),
        ("train-step", "eager"),
        ("train-step", "graph"),
    ]
    if device_type == "GPU" and gpu_supports("float16", capability):
        plan += [("mixed-precision-step", "float32"), ("mixed-precision-step", "mixed_float16")]
    return plan


def gpu_matmul_n(level: str, cap_bytes: int) -> int:
    """The level's GPU matmul size, shrunk so three float32 n x n matrices fill half the cap."""
    wanted = MATMUL_N[level]["GPU"]
    fits = int(math.sqrt(cap_bytes / 2.0 / (3 * 4)))
    return max(256, min(wanted, fits - fits % 256))


def device_key(name: str) -> str:
    """``GPU:0`` from ``GPU:0``, ``/GPU:0``, ``/device:GPU:0``, ``/physical_device:gpu:0``."""
    return name.upper().split("DEVICE:")[-1].lstrip("/")


def unmatched(wanted: list[str], listed: list[str]) -> list[str]:
    """The names in ``wanted`` that match none of the ``listed`` devices (``CPU:0``, ``GPU:1``)."""
    keys = {device_key(n) for n in listed}
    return [w for w in wanted if device_key(w) not in keys]


def describe_gpu(tf: Any, physical: Any) -> dict[str, Any]:
    """Model name and compute capability of a physical GPU."""
    try:
        details = tf.config.experimental.get_device_details(physical)
    except Exception as exc:
        return {"error": describe(exc)}
    capability = details.get("compute_capability")
    return {
        "model": details.get("device_name"),
        "compute_capability": None if capability is None else f"{capability[0]}.{capability[1]}",
    }


class CudaError(Exception):
    """A CUDA driver call returned an error (``None``: the library lacks the call)."""


def cuda_call(lib: Any, name: str, *args: Any) -> None:
    """Call ``lib.name``; raise CudaError unless it returns CUDA_SUCCESS (0)."""
    func = getattr(lib, name, None)
    if func is None:
        raise CudaError(name + " is missing from the CUDA driver")
    code = func(*args)
    if code != 0:
        raise CudaError(f"{name} returned {code}")


def cuda_device(lib: Any, ordinal: int) -> dict[str, Any]:
    """Name, compute capability, SM count and maximum SM clock (kHz) of one CUDA ordinal."""
    device = ctypes.c_int(0)
    cuda_call(lib, "cuDeviceGet", ctypes.byref(device), ordinal)
    name = ctypes.create_string_buffer(NAME_SIZE)
    cuda_call(lib, "cuDeviceGetName", name, NAME_SIZE, device)
    values = {}
    for key, attribute in (
        ("sm_count", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
        ("max_clock_khz", CU_DEVICE_ATTRIBUTE_CLOCK_RATE),
        ("major", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
        ("minor", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
    ):
        value = ctypes.c_int(0)
        cuda_call(lib, "cuDeviceGetAttribute", ctypes.byref(value), attribute, device)
        values[key] = value.value
    return {
        "name": name.value.decode("utf-8", "replace"),
        "compute_capability": f"{values['major']}.{values['minor']}",
        "sm_count": values["sm_count"],
        "max_clock_khz": values["max_clock_khz"],
    }


def cuda_devices(count: int) -> dict[int, dict[str, Any]]:
    """:func:`cuda_device` for ordinals 0..count-1 from the CUDA driver TensorFlow loaded.

    An ordinal that could not be read maps to ``{"error": why}``; this never raises.
    """
    library = "nvcuda.dll" if sys.platform == "win32" else "libcuda.so.1"
    try:
        lib = ctypes.CDLL(library)
        cuda_call(lib, "cuInit", 0)
    except (OSError, CudaError) as exc:
        return {i: {"error": describe(exc)} for i in range(count)}
    out: dict[int, dict[str, Any]] = {}
    for ordinal in range(count):
        try:
            out[ordinal] = cuda_device(lib, ordinal)
        except CudaError as exc:
            out[ordinal] = {"error": describe(exc)}
    return out


def sm_counts(
    tf_info: dict[str, Any], cuda: Optional[dict[str, Any]], index: int
) -> dict[str, Any]:
    """The plan's ``sm_count`` and ``max_clock_khz`` for TensorFlow's GPU ``index``, or why not.

    With no visible_device_list set, TensorFlow's GPU:N is CUDA ordinal N
    (tensorflow/core/common_runtime/gpu/gpu_device.cc); the name and compute capability
    TensorFlow reports (tf.config.experimental.get_device_details) must match the driver's.
    """
    if cuda is None:
        return {"sm_error": f"CUDA ordinal {index} was not read"}
    if "error" in cuda:
        return {"sm_error": cuda["error"]}
    for key in ("model", "compute_capability"):
        theirs = cuda["name" if key == "model" else key]
        if tf_info.get(key) and str(tf_info[key]).strip() != str(theirs).strip():
            return {
                "sm_error": f"CUDA ordinal {index} is {cuda['name']} ({cuda['compute_capability']}"
                f"), TensorFlow's GPU:{index} is {tf_info.get('model')} "
                f"({tf_info.get('compute_capability')}): not matched"
            }
    return {"sm_count": cuda["sm_count"], "max_clock_khz": cuda["max_clock_khz"]}


def configure_gpus(
    tf: Any, config: dict[str, Any], physical_gpus: list[Any], keys: set[str], cap: int
) -> tuple[list[Any], dict[str, str]]:
    """Make only the GPUs named in ``keys`` (all when empty) visible and cap each one.

    Returns the visible GPUs in TensorFlow's order and why a cap could not be set, per GPU.
    """
    chosen = [g for g in physical_gpus if not keys or device_key(g.name) in keys]
    if len(chosen) != len(physical_gpus):
        # TensorFlow then numbers the visible GPUs from 0: logical GPU:i is chosen[i]
        # (tensorflow/core/common_runtime/gpu/gpu_device.cc, visible_device_list).
        try:
            tf.config.set_visible_devices(chosen, "GPU")
        except Exception as exc:
            config["visible_error"] = describe(exc)
            chosen = list(physical_gpus)
    errors: dict[str, str] = {}
    for gpu in chosen:
        try:
            tf.config.set_logical_device_configuration(
                gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=cap // 2**20)]
            )
        except Exception as exc:
            errors[gpu.name] = describe(exc)
    return chosen, errors


def setup_devices(tf: Any, config: dict[str, Any], cap: int) -> list[dict[str, Any]]:
    """Hide unselected GPUs, cap the rest, create the devices, and describe the ones to run on.

    Records in ``config`` the devices TensorFlow lists and the names asked for that match none.
    """
    # Safe beside a training job: only the selected GPUs are made visible, so no CUDA context
    # is created on the others; each gets one logical device capped at `cap`, and the
    # allocator grows into it instead of reserving it (TF_FORCE_GPU_ALLOW_GROWTH, set by the
    # parent; tensorflow/core/common_runtime/gpu/gpu_bfc_allocator.h). set_memory_growth
    # cannot be combined with a logical device configuration (tensorflow/python/eager/context.py).
    wanted = [str(w) for w in config.get("devices") or []]
    physical = [d for d in tf.config.list_physical_devices() if d.device_type in ("CPU", "GPU")]
    listed = [device_key(d.name) for d in physical]
    config["listed"] = listed
    config["unmatched"] = unmatched(wanted, listed)
    keys = {device_key(w) for w in wanted}
    physical_gpus = [d for d in physical if d.device_type == "GPU"]
    chosen_gpus, setup_errors = configure_gpus(tf, config, physical_gpus, keys, cap)
    start = time.perf_counter()
    logical = tf.config.list_logical_devices()
    config["runtime_seconds"] = time.perf_counter() - start
    # Hard placement: an op with no kernel on the pinned device raises instead of moving to
    # the CPU, so a fallback anywhere in a kernel shows, not only in its final output.
    try:
        tf.config.set_soft_device_placement(False)
    except Exception as exc:
        config["soft_placement_error"] = describe(exc)
    tf32 = bool(tf.config.experimental.tensor_float_32_execution_enabled())
    config["tf32_enabled"] = tf32
    cuda = cuda_devices(len(physical_gpus)) if chosen_gpus else {}
    devices: list[dict[str, Any]] = []
    for dev in logical:
        if dev.device_type not in ("CPU", "GPU"):
            continue
        index = int(dev.name.rsplit(":", 1)[1])
        gpu = chosen_gpus[index] if dev.device_type == "GPU" and index < len(chosen_gpus) else None
        name = "/device:" + device_key(gpu.name) if gpu is not None else short_device(dev.name)
        if wanted and device_key(name) not in keys:
            continue
        info: dict[str, Any] = {"name": name, "device_type": dev.device_type}
        if name != short_device(dev.name):
            info["run_as"] = short_device(dev.name)
        capability = None
        if gpu is not None:
            ordinal = int(gpu.name.rsplit(":", 1)[1])
            info.update(describe_gpu(tf, gpu))
            info["memory_setup_error"] = setup_errors.get(gpu.name)
            info.update(sm_counts(info, cuda.get(ordinal), ordinal))
        if dev.device_type == "GPU":
            info["memory_limit"] = cap
            info["memory_growth"] = os.environ.get("TF_FORCE_GPU_ALLOW_GROWTH") == "true"
            if info.get("compute_capability"):
                major, minor = info["compute_capability"].split(".")
                capability = (int(major), int(minor))
        info["tf32"] = tf32 and capability is not None and capability >= (8, 0)
        info["plan"] = [list(p) for p in plan_for(dev.device_type, capability)]
        devices.append(info)
    return devices


def run_kernel(tf: Any, ctx: dict[str, Any], result: Kernel, state: dict[str, Any]) -> None:
    """Run one planned kernel into ``result``; an exception is recorded, not raised."""
    kernel, dtype = result.fields["kernel"], result.fields["dtype"]
    pinned = ctx["device"]
    ctx["device"] = misplaced(kernel, dtype, pinned)
    try:
        maybe_hang(kernel, dtype)
        if kernel == "first-op":
            run_first_op(tf, ctx, result)
        elif kernel == "matmul":
            run_matmul(tf, ctx, result, dtype)
        elif kernel.startswith("conv2d"):
            run_conv(tf, ctx, result, kernel == "conv2d-backward")
        elif kernel == "xla-dense":
            run_xla(tf, ctx, result)
        elif kernel == "train-step":
            run_train_step(tf, ctx, result, state, dtype == "graph")
        elif kernel == "mixed-precision-step":
            run_mixed(tf, ctx, result, state)
    except Exception as exc:
        if is_placement_error(str(exc)):
            # Some op of the kernel has no kernel on this device: with soft placement on it
            # would have run elsewhere without a word.
            result.set(status="error", ok=None, placed_on="fallback", error=describe(exc))
        else:
            result.set(status="error", ok=False, error=describe(exc))
    finally:
        ctx["device"] = pinned
    placed = result.fields["placed_on"]
    result.set(placed_on=ctx["aliases"].get(placed, placed))


def parse_proc_stat(text: str, cpus: Optional[set[int]]) -> Optional[int]:
    """Busy clock ticks summed over the ``cpuN`` lines of /proc/stat for ``cpus`` (None: all)."""
    total, seen = 0, False
    for line in text.splitlines():
        fields = line.split()
        if not fields or not fields[0].startswith("cpu") or fields[0] == "cpu":
            continue
        try:
            index = int(fields[0][3:])
            values = [int(v) for v in fields[1:9]]
        except ValueError:
            continue
        if cpus is not None and index not in cpus:
            continue
        seen = True
        total += sum(values[i] for i in BUSY_COLUMNS if i < len(values))
    return total if seen else None


def affinity() -> Optional[set[int]]:
    """The CPUs this process may run on, where the platform says."""
    get = getattr(os, "sched_getaffinity", None)
    return None if get is None else set(get(0))


def cpu_sample(cpus: Optional[set[int]]) -> Optional[tuple[float, float, float]]:
    """(wall seconds, busy CPU seconds on ``cpus``, this process's CPU seconds), Linux only."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:  # noqa: PTH123 - one plain read
            ticks = parse_proc_stat(stat.read(), cpus)
        per_second = os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError):
        return None
    if ticks is None or per_second <= 0:
        return None
    return time.monotonic(), ticks / per_second, time.process_time()


def busy_others(
    before: Optional[tuple[float, float, float]], after: Optional[tuple[float, float, float]]
) -> Optional[float]:
    """CPUs other processes kept busy, on average, between two samples: all busy time on
    this process's CPUs less this process's own CPU time, per second of wall time."""
    if before is None or after is None or after[0] - before[0] <= 0:
        return None
    others = (after[1] - before[1]) - (after[2] - before[2])
    return round(max(0.0, others / (after[0] - before[0])), 2)


def run_device(
    tf: Any, np: Any, info: dict[str, Any], level: str, cap: int, aliases: dict[str, str]
) -> None:
    """Every planned kernel on one device, then the memory it took or the CPU it shared."""
    device_type = info["device_type"]
    if device_type == "CPU":
        matmul_n = MATMUL_N[level]["CPU"]
    elif level == "tiny":
        matmul_n = MATMUL_N["tiny"]["GPU"]
    else:
        matmul_n = gpu_matmul_n(level, cap)
    run_as = info.get("run_as") or info["name"]
    ctx: dict[str, Any] = {
        "device": run_as,
        "device_type": device_type,
        "level": level,
        "tf32": info["tf32"],
        "matmul_n": matmul_n,
        "conv_shape": CONV_SHAPE[level][device_type],
        "min_seconds": MIN_SECONDS[level],
        "train_steps": TRAIN_STEPS[level],
        "rng": np.random.default_rng(0),
        "aliases": aliases,
    }
    state: dict[str, Any] = {}
    cpus = affinity()
    before = cpu_sample(cpus) if device_type == "CPU" else None
    for kernel, dtype in info["plan"]:
        emit("kernel-start", device=info["name"], kernel=kernel, dtype=dtype)
        result = Kernel(kernel, dtype, info["name"])
        run_kernel(tf, ctx, result, state)
        emit("kernel-done", **result.fields)
    memory: dict[str, Any] = {"device": info["name"]}
    if device_type == "GPU":
        try:
            usage = tf.config.experimental.get_memory_info(run_as)
            memory["memory_peak"] = int(usage["peak"])
            memory["memory_current"] = int(usage["current"])
        except Exception as exc:
            memory["memory_error"] = describe(exc)
    else:
        memory["cpu_affinity"] = None if cpus is None else len(cpus)
        memory["cpu_busy_others"] = busy_others(before, cpu_sample(cpus))
    emit("device-done", **memory)


def watch_parent() -> None:
    """Exit at once when stdin closes: the parent that holds its other end has gone."""

    def wait() -> None:
        with contextlib.suppress(OSError, ValueError):
            sys.stdin.buffer.read()
        os._exit(1)

    threading.Thread(target=wait, name="watch-parent", daemon=True).start()


def main(argv: list[str]) -> int:
    """Run the plan and print its events; the exit status is 0 unless the arguments are bad."""
    global _MARKER  # noqa: PLW0603 - one marker per process, set once here
    if len(argv) != 3:
        sys.stderr.write("usage: smoke_kernels.py MARKER CONFIG_JSON\n")
        return 2
    _MARKER = argv[1]
    config = json.loads(argv[2])
    if config.get("watch_parent"):
        watch_parent()
    _FAULT.update(config.get("fault") or {})
    level = config.get("level", "quick")
    cap = int(config.get("max_memory", 2**30))
    emit("start", python=sys.version.split()[0], pid=os.getpid())
    maybe_hang("import", "tensorflow")
    start = time.perf_counter()
    try:
        import tensorflow as tf  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: PLC0415

        # NumPy (the kernels' reference) is part of the measured import; after TensorFlow, its
        # dependency, so that a missing TensorFlow is named as such rather than its NumPy.
        np = importlib.import_module("numpy")
    except BaseException as exc:  # SystemExit and KeyboardInterrupt raised by an import too
        emit("import-error", error=describe(exc))
        return 0
    emit("imported", seconds=time.perf_counter() - start, tf_version=str(tf.__version__))
    devices = setup_devices(tf, config, cap)
    emit(
        "plan",
        runtime_seconds=config["runtime_seconds"],
        tf32_enabled=config["tf32_enabled"],
        listed=config["listed"],
        unmatched=config["unmatched"],
        visible_error=config.get("visible_error"),
        soft_placement_error=config.get("soft_placement_error"),
        devices=devices,
    )
    aliases = {d["run_as"]: d["name"] for d in devices if d.get("run_as")}
    for info in devices:
        run_device(tf, np, info, level, cap, aliases)
    emit("done")
    return 0


if __name__ == "__main__":
    _status = main(sys.argv)
    sys.stdout.flush()
    sys.stderr.flush()
    # Interpreter shutdown after importing TensorFlow costs about half a second and runs
    # TF's atexit handlers; every event is already flushed.
    os._exit(_status)
