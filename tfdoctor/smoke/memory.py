"""Does the user's memory-growth setting take effect? One small op per GPU in a fresh process.

The smoke kernels run with memory growth forced and capped, so they cannot tell. This runs
``child/memory_held.py`` in the examined interpreter with the environment unchanged, as a
training script would start, and keeps what NVML says the process holds on each GPU beside
what TensorFlow's allocator needed. :func:`read_memory_held` runs it; the pure
:func:`parse_memory_held` turns its output into :class:`~tfdoctor.facts.HeldMemory`.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

from tfdoctor.facts import HeldGpu, HeldMemory
from tfdoctor.probes._run import CommandResult, Runner, run_command
from tfdoctor.smoke.events import parse_events

CHILD = Path(__file__).resolve().parent / "child" / "memory_held.py"


def growth_configured(env: Mapping[str, str]) -> bool:
    """Whether the environment asks TensorFlow to take GPU memory only as it needs it.

    TF_FORCE_GPU_ALLOW_GROWTH must be exactly ``true`` (GetAllowGrowthValue,
    tensorflow/core/common_runtime/gpu/gpu_bfc_allocator.cc); TF_GPU_ALLOCATOR=cuda_malloc_async
    takes memory from CUDA's pool on demand (gpu_cudamallocasync_allocator.cc).
    """
    return (
        env.get("TF_FORCE_GPU_ALLOW_GROWTH") == "true"
        or env.get("TF_GPU_ALLOCATOR") == "cuda_malloc_async"
    )


def run_watched(
    argv: Sequence[str], env: Optional[Mapping[str, str]], timeout: float
) -> CommandResult:
    """:func:`run_command` with the child's stdin a pipe held open until the child ends."""
    return run_command(argv, env, timeout, keep_stdin_open=True)


def read_memory_held(
    python: str,
    env: Optional[Mapping[str, str]] = None,
    timeout: float = 180.0,
    runner: Runner = run_watched,
) -> HeldMemory:
    """Run the memory child in ``python`` with ``env`` (ours by default) as is; never raises.

    The child exits when its stdin reaches end of file, so it never outlives this process
    (it runs in its own session, which a signal to ours does not reach); a ``runner`` must
    keep that stdin open until the child ends, as :func:`run_watched` does.
    """
    marker = f"=== tfdoctor memory {secrets.token_hex(8)} ==="
    environ = dict(os.environ if env is None else env)
    result = runner([python, str(CHILD), marker, "--watch-parent"], environ, timeout)
    return parse_memory_held(result, marker, growth_configured(environ), timeout)


def _int(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: Any) -> Optional[str]:
    return None if value is None or value == "" else str(value)


def _gpu(doc: Mapping[str, Any]) -> HeldGpu:
    return HeldGpu(
        device=str(doc.get("device", "")),
        pci_bus_id=_text(doc.get("pci_bus_id")),
        memory_total=_int(doc.get("memory_total")),
        memory_held=_int(doc.get("memory_held")),
        memory_held_method=_text(doc.get("memory_held_method")),
        memory_needed=_int(doc.get("memory_needed")),
        memory_free_before=_int(doc.get("memory_free_before")),
        error=_text(doc.get("error")),
    )


def parse_memory_held(
    result: CommandResult, marker: str, growth: bool, timeout: float
) -> HeldMemory:
    """Facts from a finished (or killed) memory child."""
    common: dict[str, Any] = {"growth_configured": growth, "seconds": round(result.seconds, 3)}
    tail = result.stderr_tail()
    if result.start_error is not None:
        return HeldMemory(
            "child-error", error_message=f"could not start: {result.start_error}", **common
        )
    if result.timed_out:
        return HeldMemory(
            "timeout",
            error_message=f"TensorFlow did not run one op within {timeout:g} s; killed",
            stderr_tail=tail,
            **common,
        )
    if result.signal_name is not None:
        return HeldMemory(
            "signal",
            error_message=f"the process died of {result.signal_name}",
            stderr_tail=tail,
            **common,
        )
    events = parse_events(result.stdout, marker)
    doc = events[-1] if events else {}
    if doc.get("event") == "import-error":
        return HeldMemory("import-error", error_message=_text(doc.get("error")), **common)
    status = doc.get("status")
    if doc.get("event") != "memory-held" or status not in ("ok", "no-gpu"):
        return HeldMemory(
            "child-error",
            error_message=f"no result (exit status {result.returncode})",
            stderr_tail=tail,
            **common,
        )
    gpus = tuple(_gpu(g) for g in doc.get("gpus") or () if isinstance(g, dict))
    return HeldMemory(str(status), gpus=gpus, nvml_error=_text(doc.get("nvml_error")), **common)
