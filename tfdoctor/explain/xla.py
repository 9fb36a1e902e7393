"""Builders for XLA's compilers: a ptxas too old or too new for the GPU."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.explain.common import group
from tfdoctor.explain.revealed import Revealed
from tfdoctor.explain.scanning import Hits
from tfdoctor.findings import Fix
from tfdoctor.machine import Machine
from tfdoctor.matrix import parse_arch

#: The oldest architecture generation (Maxwell, compute capability 5.x) whose name every ptxas
#: of TensorFlow 2's CUDA releases (10.0 to 12.x) knows; CUDA 13's is later
#: (:func:`tfdoctor.causes.gpu.toolkit_dropped_arch`).
_OLDEST_ARCH_MAJOR_KEPT = 5

#: nvcc's refusals of an architecture its feature list lacks (signatures.yaml).
_NVCC = frozenset({"nvcc-unknown-gpu-arch", "nvcc-unsupported-gpu-arch"})


def _arch_of(hits: Sequence[Hits]) -> Optional[str]:
    """The architecture the compiler refused (``sm_61``): its own word, else XLA's later
    words of the GPU's capability (``ptxas does not support CC 8.9``), else nvcc's virtual
    architecture (``compute_61``, read as its real one)."""
    arch = group(hits, "gpu_arch")
    cap = group(hits, "compute_capability")
    if arch is None and cap is not None:
        arch = "sm_" + cap.replace(".", "")
    if arch is None:
        nvcc = " ".join(line for h in hits if h.signature.id in _NVCC for _, line in h.citations)
        named = re.search(r"compute_(\d+[a-z]?)", nvcc)
        arch = f"sm_{named.group(1)}" if named else None
    return arch


def compiler_summary(hits: Sequence[Hits], r: Revealed) -> Optional[str]:
    """The summary of a compiler's refusal of an architecture that CUDA 13 dropped (sm_50 to
    sm_72): the toolkit's release where the log shows it, else both readings (older than the
    GPU, or of a major that dropped it); None where the signature's own words hold."""
    arch = _arch_of(hits)
    parsed = parse_arch(arch or "")
    if parsed is None:
        return None
    nvcc = any(h.signature.id in _NVCC for h in hits)
    tool = "The CUDA compiler (nvcc)" if nvcc else "The ptxas XLA runs"
    capability = f"{parsed[1]}.{parsed[2]}"
    if r.toolkit_major is not None:
        major = r.toolkit_major[0]
        if causes.gpu.toolkit_dropped_arch(major, parsed[1], parsed[2]) is None:
            return None
        return (
            f"{tool} is of CUDA {major}, which does not compile for compute capability {capability}"
        )
    if not nvcc and (_ptxas_named(r) is not None or r.ptxas_path):
        return None  # the fix reads the ptxas XLA names, as _ptxas_old does
    dropping = _dropping(arch, r)
    if dropping is None or parsed[1] < _OLDEST_ARCH_MAJOR_KEPT:
        return None
    return (
        f"{tool} does not know compute capability {capability}: it is older than this GPU, "
        f"or of CUDA {dropping[0]} or newer, which dropped it"
    )


def _ptxas_old(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    arch = _arch_of(hits)
    parsed = parse_arch(arch) if arch else None
    nvcc = [line for h in hits if h.signature.id in _NVCC for _, line in h.citations]
    if parsed is not None and r.toolkit_major is not None:
        dropped = causes.gpu.toolkit_dropped_arch(r.toolkit_major[0], parsed[1], parsed[2])
        if dropped is not None:
            # A compiler newer than the GPU: the GPU too old for that toolkit, not the
            # compiler; the cause stays the compiler's (a project's own nvcc build carries
            # no wheel), with a summary of its own (compiler_summary).
            known = f"{parsed[1]}.{parsed[2]}"
            return causes.xla.PTXAS_TOO_OLD, causes.gpu.toolkit_dropped_arch_fix(
                m,
                known,
                r.toolkit_major[0],
                r.toolkit_major[1],
                dropped,
                "nvcc" if nvcc else "ptxas",
            )
    if parsed is not None and parsed[1] < _OLDEST_ARCH_MAJOR_KEPT:
        # XLA asks ptxas for the GPU's own architecture. Every ptxas from CUDA 6.5 to 10.2
        # knows Kepler's sm_30 to sm_37; CUDA 11 dropped sm_30 and CUDA 12 sm_35 and sm_37. A
        # ptxas that does not know one is newer than the GPU: the GPU is too old for the
        # toolchain and for the TensorFlow built with it, not the ptxas too old.
        # https://docs.nvidia.com/cuda/archive/11.0/cuda-toolkit-release-notes/index.html
        # https://docs.nvidia.com/cuda/archive/12.0.0/cuda-toolkit-release-notes/index.html
        known = f"{parsed[1]}.{parsed[2]}"
        return causes.gpu.GPU_ARCH_UNSUPPORTED, causes.gpu.gpu_arch_fix(m, known)
    if nvcc:
        # nvcc names a virtual architecture (compute_86) where it has no real one (sm_86).
        return causes.xla.PTXAS_TOO_OLD, causes.xla.ptxas_old_fix(
            m, arch, "nvcc", dropped=_dropping(arch, r)
        )
    shown = _ptxas_named(r)
    dropping = _dropping(arch, r) if shown is None and r.ptxas_path is None else None
    return causes.xla.PTXAS_TOO_OLD, causes.xla.ptxas_old_fix(
        m, arch, "ptxas", shown, r.ptxas_path, dropped=dropping
    )


def _ptxas_named(r: Revealed) -> Optional[tuple[str, str, str]]:
    """What XLA's line says of the ptxas it runs, where it calls it too old or miscompiling
    (not one newer than the driver): the fix reads that ptxas."""
    return next((p for p in r.ptxas_shown if p[0] != "newer-than-driver"), None)


def _dropping(arch: Optional[str], r: Revealed) -> Optional[tuple[int, str]]:
    """The CUDA major that dropped ``arch`` from its compilers' feature list, where the log
    does not show the toolkit's release: the compilers' lists have lost architectures as well
    as gained them, so one CUDA 13 dropped is a candidate beside one an older toolkit never
    knew (causes.gpu._TOOLKIT_OLDEST_ARCH)."""
    parsed = parse_arch(arch) if arch else None
    if parsed is None or r.toolkit_major is not None:
        return None
    return causes.gpu.dropping_toolkit(parsed[1], parsed[2])


def _ptxas_new(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A ptxas newer than the driver, with the versions XLA's own line states."""
    shown = next((p for p in r.ptxas_shown if p[0] == "newer-than-driver"), None)
    if shown is not None:
        return causes.xla.PTXAS_TOO_NEW, causes.xla.ptxas_fix(m, shown[2], shown[1])
    return causes.xla.PTXAS_TOO_NEW, causes.xla.ptxas_fix(m)
