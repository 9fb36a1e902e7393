"""Configure TensorFlow's GPUs from a training script, and say what took effect and why.

:func:`configure_gpus` applies memory growth (or a hard per-GPU limit), restricts the visible
GPUs and picks a mixed-precision policy, then returns a :class:`GpuConfigResult`. When
TensorFlow's runtime has already started, device settings can no longer change: the result
then has ``too_late=True`` and a ``fix`` (or, with ``strict=True``, :class:`TooLateError` is
raised) instead of TensorFlow's bare ``RuntimeError``.

This is the one module of tfdoctor that imports TensorFlow, and only inside
:func:`configure_gpus`: the settings must apply in the caller's own process.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Optional

from tfdoctor.records import Record, record

_log = logging.getLogger("tfdoctor")

#: Accepted values of ``mixed_precision`` (None means "off").
MIXED_PRECISION_CHOICES = ("auto", "float16", "bfloat16", "off")

# TensorFlow's own messages when device settings change after the runtime started
# (tensorflow/python/eager/context.py: set_visible_devices, set_memory_growth,
# set_logical_device_configuration all raise RuntimeError once the context handle exists).
_TOO_LATE_MARKER = "cannot be modified after being initialized"

TOO_LATE_REASON = (
    "TensorFlow's runtime had already started in this process (an op ran, a model was built, "
    "or logical devices were listed); device settings are fixed from then on"
)

TOO_LATE_FIX = (
    "Call tfdoctor.configure_gpus() right after `import tensorflow`, before any model, tensor "
    "or tf.config.list_logical_devices() call. Or set it before Python starts: "
    'eval "$(tfdoctor env)" (TF_FORCE_GPU_ALLOW_GROWTH=true), and CUDA_VISIBLE_DEVICES=0,1 '
    "to restrict the GPUs."
)
#: The fix where TF_FORCE_GPU_ALLOW_GROWTH=true is already set: growth is in effect anyway.
TOO_LATE_FIX_GROWTH_SET = (
    "Call tfdoctor.configure_gpus() right after `import tensorflow`, before any model, tensor "
    "or tf.config.list_logical_devices() call, or set CUDA_VISIBLE_DEVICES=0,1 before Python "
    "starts to restrict the GPUs. Memory growth is already in effect through "
    "TF_FORCE_GPU_ALLOW_GROWTH=true in the environment."
)
GROWTH_FROM_ENV = (
    "already in effect: TF_FORCE_GPU_ALLOW_GROWTH=true in the environment turns it on for "
    "every GPU (GetAllowGrowthValue, tensorflow/core/common_runtime/gpu/gpu_bfc_allocator.cc)"
)


@record
class Outcome(Record):
    """One setting asked for: what, on which device, and why it did or did not take effect."""

    #: ``memory_growth``, ``memory_limit``, ``visible_devices`` or ``mixed_precision``.
    setting: str
    #: ``GPU:0`` for a per-device setting, ``all`` for a process-wide one.
    device: str
    #: What was (or would have been) set: ``on``, ``4096 MB``, ``GPU:0,GPU:1``, a policy name.
    value: str
    reason: str


@record
class GpuState(Record):
    """One physical GPU TensorFlow lists, and what this call set on it."""

    index: int
    #: TensorFlow's name, ``/physical_device:GPU:0``.
    name: str
    #: ``"8.0"``, from ``tf.config.experimental.get_device_details``; None when not reported.
    compute_capability: Optional[str]
    visible: bool
    #: True when memory growth is on after this call (set by it, or already by
    #: TF_FORCE_GPU_ALLOW_GROWTH=true); None when this call did not ask for it or it failed.
    memory_growth: Optional[bool] = None
    memory_limit_mb: Optional[int] = None


@record
class GpuConfigResult(Record):
    """What :func:`configure_gpus` applied, what failed, what it skipped, and why."""

    gpus: tuple[GpuState, ...]
    applied: tuple[Outcome, ...]
    #: Settings asked for that did not take effect: the runtime had started, the environment
    #: overrode them, Keras was unusable. Each is something to fix.
    not_applied: tuple[Outcome, ...]
    #: The Keras policy set (``mixed_float16`` / ``mixed_bfloat16``), or None.
    mixed_precision: Optional[str] = None
    #: True when TensorFlow's runtime had started before the devices could be configured.
    too_late: bool = False
    #: What to do instead, when something was not applied for a reason the caller can fix.
    fix: Optional[str] = None
    #: Settings with nothing to act on, or superseded by design; none of them a failure: no
    #: GPU, ``"auto"`` keeping float32, a memory limit standing in for growth.
    skipped: tuple[Outcome, ...] = ()

    @property
    def ok(self) -> bool:
        """Nothing asked for failed (``not_applied`` is empty); skipped settings do not count,
        so a machine without a GPU is ok."""
        return not self.not_applied

    def describe(self) -> str:
        """The result as a few plain lines, for a training script's log."""
        lines = [f"tfdoctor.configure_gpus: {len(self.gpus)} GPU(s)"]
        lines += [f"  applied: {_line(o)}" for o in self.applied]
        lines += [f"  not applied: {_line(o)}" for o in self.not_applied]
        lines += [f"  skipped: {_line(o)}" for o in self.skipped]
        if self.fix:
            lines.append(f"  fix: {self.fix}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()


class TooLateError(RuntimeError):
    """TensorFlow's runtime started before the devices were configured (``strict=True``).

    A RuntimeError, like TensorFlow's own, so existing handlers still catch it; it carries the
    full :class:`GpuConfigResult` and the ``fix``.
    """

    def __init__(self, result: GpuConfigResult) -> None:
        fix = result.fix or TOO_LATE_FIX
        super().__init__(f"{TOO_LATE_REASON}. {fix}")
        self.result = result
        self.fix = fix


@record
class _Request(Record):
    """Validated arguments."""

    memory_growth: bool
    memory_limit_mb: Optional[int]
    visible: Optional[tuple[int, ...]]
    mixed_precision: Optional[str]


def _line(o: Outcome) -> str:
    return f"{o.setting}={o.value} on {o.device}: {o.reason}"


def _short(device: Any) -> str:
    """``GPU:0`` from ``/physical_device:GPU:0``."""
    return str(device.name).replace("/physical_device:", "")


def validate(
    memory_growth: bool,
    memory_limit_mb: Optional[int],
    visible: Optional[Sequence[int]],
    mixed_precision: Optional[str],
) -> _Request:
    """The arguments checked, or ValueError/TypeError naming the bad one."""
    if not isinstance(memory_growth, bool):
        raise TypeError(f"memory_growth must be True or False, got {memory_growth!r}")
    if memory_limit_mb is not None:
        if isinstance(memory_limit_mb, bool) or not isinstance(memory_limit_mb, int):
            raise TypeError(f"memory_limit_mb must be an int (MB) or None, got {memory_limit_mb!r}")
        if memory_limit_mb <= 0:
            raise ValueError(f"memory_limit_mb must be positive, got {memory_limit_mb}")
    indices: Optional[tuple[int, ...]] = None
    if visible is not None:
        if isinstance(visible, (str, bytes)) or not isinstance(visible, Sequence):
            raise TypeError(f"visible must be a list of GPU indices or None, got {visible!r}")
        for i in visible:
            if isinstance(i, bool) or not isinstance(i, int) or i < 0:
                raise ValueError(f"visible: {i!r} is not a GPU index (0, 1, ...)")
        if len(set(visible)) != len(visible):
            raise ValueError(f"visible: {list(visible)} names a GPU twice")
        indices = tuple(visible)
    if mixed_precision is not None and mixed_precision not in MIXED_PRECISION_CHOICES:
        raise ValueError(
            f"mixed_precision must be one of {', '.join(MIXED_PRECISION_CHOICES)} or None, "
            f"got {mixed_precision!r}"
        )
    policy = None if mixed_precision in (None, "off") else mixed_precision
    return _Request(memory_growth, memory_limit_mb, indices, policy)


def _cc_tuple(cc: str) -> tuple[int, int]:
    major, _, minor = cc.partition(".")
    return int(major), int(minor or 0)


def choose_policy(
    requested: Optional[str], capabilities: Sequence[Optional[str]]
) -> tuple[Optional[str], str]:
    """The Keras mixed-precision policy for ``requested`` on GPUs of these compute
    capabilities, and why; (None, why not) when none should be set.

    The policy is process-wide, so the slowest GPU decides. TensorFlow's mixed-precision guide
    (https://www.tensorflow.org/guide/mixed_precision#supported_hardware): GPUs of compute
    capability 7.0+ (Volta's tensor cores) gain the most from float16; older ones gain no math
    speed. bfloat16 tensor-core math came with compute capability 8.0 (NVIDIA A100 Tensor Core
    GPU Architecture whitepaper: third-generation Tensor Cores add BF16 at the FP16 rate), and
    with float32's exponent range it needs no loss scaling.
    """
    if requested is None:
        return None, "not asked for"
    if not capabilities:
        return None, "no GPU: mixed precision only speeds up GPUs with tensor cores"
    known = [cc for cc in capabilities if cc is not None]
    if requested in ("float16", "bfloat16"):
        needs = (7, 0) if requested == "float16" else (8, 0)
        slow = sorted({cc for cc in known if _cc_tuple(cc) < needs}, key=_cc_tuple)
        why = f"asked for {requested}"
        if slow:
            why += (
                f"; compute capability {', '.join(slow)} has no {requested} tensor cores, "
                "so expect no speed-up there"
            )
        return f"mixed_{requested}", why
    if len(known) != len(capabilities):
        return None, "the compute capability of some GPU is unknown; kept float32"
    lowest = min(known, key=_cc_tuple)
    major_minor = _cc_tuple(lowest)
    if major_minor >= (8, 0):
        return "mixed_bfloat16", (
            f"compute capability {lowest}: bfloat16 tensor cores run as fast as float16 and "
            "keep float32's range, so no loss scaling is needed"
        )
    if major_minor >= (7, 0):
        return "mixed_float16", (
            f"compute capability {lowest}: float16 tensor cores (Model.fit scales the loss; a "
            "custom training loop needs keras.mixed_precision.LossScaleOptimizer)"
        )
    return None, (
        f"compute capability {lowest} is below 7.0: no tensor cores, so mixed precision "
        "brings no math speed-up; kept float32"
    )


def _capability(tf: Any, device: Any) -> Optional[str]:
    """``"8.0"`` from ``tf.config.experimental.get_device_details`` (TF 2.3+), else None."""
    try:
        details = tf.config.experimental.get_device_details(device)
    except (AttributeError, ValueError, RuntimeError):
        return None
    cc = details.get("compute_capability") if isinstance(details, Mapping) else None
    if isinstance(cc, tuple) and len(cc) == 2:
        return f"{cc[0]}.{cc[1]}"
    return None


def _is_too_late(exc: RuntimeError) -> bool:
    return _TOO_LATE_MARKER in str(exc)


class _Recorder:
    """Collects outcomes; after the first "too late" every later device setting is skipped."""

    def __init__(self) -> None:
        self.applied: list[Outcome] = []
        self.not_applied: list[Outcome] = []
        self.skipped: list[Outcome] = []
        self.too_late = False

    def attempt(
        self, setting: str, device: str, value: str, call: Callable[[], object], why: str
    ) -> bool:
        """Run one TensorFlow configuration call; True when it took effect."""
        if self.too_late:
            self.not_applied.append(Outcome(setting, device, value, TOO_LATE_REASON))
            return False
        try:
            call()
        except RuntimeError as exc:
            if not _is_too_late(exc):
                raise
            self.too_late = True
            self.not_applied.append(Outcome(setting, device, value, TOO_LATE_REASON))
            return False
        self.applied.append(Outcome(setting, device, value, why))
        return True


def _configure(
    tf: Any, devices: Sequence[Any], request: _Request, env: Mapping[str, str]
) -> GpuConfigResult:
    """Apply ``request`` to ``devices`` (the physical devices TensorFlow lists)."""
    rec = _Recorder()
    if request.visible is not None:
        missing = [i for i in request.visible if i >= len(devices)]
        if missing:
            raise ValueError(
                f"visible: no GPU {missing[0]}; TensorFlow lists {len(devices)} "
                f"(indices 0-{len(devices) - 1})"
            )
        chosen = [devices[i] for i in request.visible]
        rec.attempt(
            "visible_devices",
            "all",
            ",".join(_short(d) for d in chosen) or "none",
            # https://www.tensorflow.org/api_docs/python/tf/config/set_visible_devices
            lambda: tf.config.set_visible_devices(chosen, devices[0].device_type),
            "only these are used; the others stay free for other processes",
        )
    visible = set(range(len(devices)) if request.visible is None else request.visible)
    states: list[GpuState] = []
    for index, device in enumerate(devices):
        name = _short(device)
        growth: Optional[bool] = None
        limit: Optional[int] = None
        if index in visible and request.memory_limit_mb is not None:
            configs = [tf.config.LogicalDeviceConfiguration(memory_limit=request.memory_limit_mb)]
            # https://www.tensorflow.org/api_docs/python/tf/config/set_logical_device_configuration
            if rec.attempt(
                "memory_limit",
                name,
                f"{request.memory_limit_mb} MB",
                functools.partial(tf.config.set_logical_device_configuration, device, configs),
                "TensorFlow maps at most this much of the GPU",
            ):
                limit = request.memory_limit_mb
            if request.memory_growth:
                # context.set_memory_growth refuses a device with logical devices configured.
                rec.skipped.append(
                    Outcome(
                        "memory_growth",
                        name,
                        "on",
                        "TensorFlow cannot combine memory growth with a memory limit; the "
                        "limit caps what it maps instead",
                    )
                )
        elif index in visible and request.memory_growth:
            forced = env.get("TF_FORCE_GPU_ALLOW_GROWTH")
            if forced == "false":
                # TF reads the variable first and it overrides the option (GetAllowGrowthValue,
                # tensorflow/core/common_runtime/gpu/gpu_bfc_allocator.cc).
                rec.not_applied.append(
                    Outcome(
                        "memory_growth",
                        name,
                        "on",
                        "TF_FORCE_GPU_ALLOW_GROWTH=false in the environment overrides it",
                    )
                )
            elif forced == "true":
                # Nothing to call: the allocator reads the variable whenever it starts, so
                # growth holds even where this call comes after the runtime started.
                rec.applied.append(Outcome("memory_growth", name, "on", GROWTH_FROM_ENV))
                growth = True
            elif rec.attempt(
                "memory_growth",
                name,
                "on",
                # https://www.tensorflow.org/api_docs/python/tf/config/experimental/set_memory_growth
                functools.partial(tf.config.experimental.set_memory_growth, device, True),
                "TensorFlow maps GPU memory as it needs it instead of nearly all at once",
            ):
                growth = True
        states.append(
            GpuState(index, device.name, _capability(tf, device), index in visible, growth, limit)
        )
    policy = _apply_policy(tf, request, [s.compute_capability for s in states if s.visible], rec)
    too_late_fix = (
        TOO_LATE_FIX_GROWTH_SET if env.get("TF_FORCE_GPU_ALLOW_GROWTH") == "true" else TOO_LATE_FIX
    )
    return GpuConfigResult(
        gpus=tuple(states),
        applied=tuple(rec.applied),
        not_applied=tuple(rec.not_applied),
        mixed_precision=policy,
        too_late=rec.too_late,
        fix=too_late_fix if rec.too_late else None,
        skipped=tuple(rec.skipped),
    )


def _apply_policy(
    tf: Any, request: _Request, capabilities: Sequence[Optional[str]], rec: _Recorder
) -> Optional[str]:
    """Set the Keras global policy ``choose_policy`` picks; the policy set, or None."""
    if request.mixed_precision is None:
        return None
    policy, why = choose_policy(request.mixed_precision, capabilities)
    if policy is None:
        # "auto" decided float32 is best here: a choice, not a failure.
        rec.skipped.append(Outcome("mixed_precision", "all", request.mixed_precision, why))
        return None
    try:
        # https://www.tensorflow.org/api_docs/python/tf/keras/mixed_precision/set_global_policy
        # (Keras 3: https://keras.io/api/mixed_precision/policy/); a Keras global, not a
        # device setting, so it still applies after the runtime started.
        tf.keras.mixed_precision.set_global_policy(policy)
    except (ImportError, AttributeError) as exc:
        rec.not_applied.append(
            Outcome("mixed_precision", "all", policy, f"Keras is not usable here: {exc}")
        )
        return None
    rec.applied.append(Outcome("mixed_precision", "all", policy, why))
    return policy


def _no_gpu(tf: Any, request: _Request) -> GpuConfigResult:
    """The no-op result on a machine (or build) where TensorFlow sees no GPU: all skipped."""
    if not tf.test.is_built_with_cuda():
        why = "this TensorFlow is a CPU-only build: it sees no GPU"
    else:
        why = "TensorFlow sees no GPU (run `tfdoctor check` for the reason)"
    asked = []
    if request.visible is not None:
        asked.append(("visible_devices", ",".join(f"GPU:{i}" for i in request.visible)))
    if request.memory_limit_mb is not None:
        asked.append(("memory_limit", f"{request.memory_limit_mb} MB"))
    elif request.memory_growth:
        asked.append(("memory_growth", "on"))
    if request.mixed_precision is not None:
        asked.append(("mixed_precision", request.mixed_precision))
    return GpuConfigResult(
        gpus=(),
        applied=(),
        not_applied=(),
        skipped=tuple(Outcome(setting, "all", value, why) for setting, value in asked),
    )


def configure_gpus(
    memory_growth: bool = True,
    memory_limit_mb: Optional[int] = None,
    visible: Optional[Sequence[int]] = None,
    mixed_precision: Optional[str] = None,
    *,
    strict: bool = False,
) -> GpuConfigResult:
    """Configure TensorFlow's GPUs; call it at the top of a training script.

    ``memory_growth``: map GPU memory as needed instead of nearly all of it at start.
    ``memory_limit_mb``: instead, cap each visible GPU at this many MB (a logical device).
    ``visible``: indices into ``tf.config.list_physical_devices("GPU")`` to use; None keeps all.
    ``mixed_precision``: ``"auto"`` picks the Keras policy from the GPUs' compute capability,
    ``"float16"`` / ``"bfloat16"`` force one, ``"off"`` or None leaves float32.
    ``strict``: raise :class:`TooLateError` when TensorFlow's runtime had already started,
    instead of returning a result with ``too_late=True``.

    Without a GPU nothing changes: the result lists each setting as skipped and why, and is
    ``ok`` (nothing failed).
    Bad arguments raise ValueError or TypeError before TensorFlow is imported.
    """
    request = validate(memory_growth, memory_limit_mb, visible, mixed_precision)
    # Only this function brings TensorFlow in: `import tfdoctor` stays light.
    import tensorflow as tf  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: PLC0415

    # https://www.tensorflow.org/api_docs/python/tf/config/list_physical_devices (listing
    # physical devices does not start the runtime; listing logical ones would).
    devices = tf.config.list_physical_devices("GPU")
    result = _configure(tf, devices, request, os.environ) if devices else _no_gpu(tf, request)
    return _finish(result, strict)


def _finish(result: GpuConfigResult, strict: bool) -> GpuConfigResult:
    """Log the result; raise TooLateError for a too-late result under ``strict``."""
    if result.too_late:
        if strict:
            raise TooLateError(result)
        _log.warning("%s", result.describe())
    else:
        _log.info("%s", result.describe())
    return result
