"""What a cause is, and which observations refute which causes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NewType

from tfdoctor.records import Record, record

#: A cause's id: stable, named in reports, ``explain``, ``scan`` and the data files. Each area
#: module names its ids as constants (``causes.software.NUMPY_ABI``); a plain string becomes
#: one only where it is checked against the catalogue (data files, a report read back).
CauseId = NewType("CauseId", str)


@record
class Cause(Record):
    """One root cause: what it is, why it breaks TensorFlow, where that is documented."""

    id: str
    title: str
    explanation: str
    links: tuple[str, ...] = ()
    #: Kinds of observation (:data:`tfdoctor.machine.OBSERVATION_KINDS`) that show the opposite
    #: of what this cause claims: where TensorFlow showed one, a finding resting on the cause is
    #: at most a note (:mod:`tfdoctor.causes.observed`). Filled from :data:`CONTRADICTED_BY`.
    contradicted_by: tuple[str, ...] = ()


#: Observed beats inferred, the one relation: each kind of observation, and the causes whose
#: claim it refutes. "TensorFlow cannot import" falls to an import that ran; "TensorFlow cannot
#: use the GPU" to a GPU in its device list; "GPU kernels (convolutions, XLA's) cannot run" to
#: the smoke test running them there.
CONTRADICTED_BY: Mapping[str, tuple[str, ...]] = {
    "tf-imports": (
        "tf-not-installed",
        "tf-no-wheel-for-python",
        "tf-shadowed-module",
        "numpy-abi",
        "protobuf-incompatible",
        # Not dependency-missing: it also names requirements TensorFlow imports only when a
        # feature is used, which an import that ran does not refute (its check already weighs
        # the import for the ones imported at start).
        "cpu-lacks-avx",
        "cpu-emulated",
        "glibc-too-old",
        "macos-too-old",
        "msvc-runtime-missing",
        "python-32bit",
        "import-failed-unknown",
        "import-crash",
        "import-hang",
    ),
    "tf-lists-gpu": (
        "tf-cpu-only-build",
        "windows-native-gpu-ended",
        "wsl1",
        "wsl-driver-broken",
        "gpu-access-blocked",
        "driver-not-loaded",
        "driver-libraries-missing",
        "driver-version-mismatch",
        "driver-no-permission",
        # Not driver-too-old: the listing (BaseGPUDeviceFactory::ListPhysicalDevices) asks the
        # driver API alone (cuInit, the device count), and the CUDA runtime the build links
        # meets the driver first where a device is created (CreateDevices: cudaSetDevice,
        # then "CUDA runtime implicit initialization on GPU:0 failed. Status: CUDA driver
        # version is insufficient for CUDA runtime version"); a kernel run refutes it.
        # https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/core/common_runtime/gpu/gpu_device.cc
        "cuinit-unknown-error",
        "container-no-gpu",
        "cuda-libs-missing",
        "cuda-libs-off-path",
        "cuda-wheels-unfound",
        "conda-cuda-mismatch",
        "gpu-unseen-no-reason",
        "cuda-visible-devices-hidden",
        "gpu-not-bound",
    ),
    # Not gpu-arch-unsupported: a listing runs no kernel, and TensorFlow lists every GPU at or
    # above the lowest capability its release lists (GetValidDeviceIds, compat.listing_floor),
    # one the build has no code for included; a kernel run refutes it. Where the check reads
    # the GPU as below that floor, a listing contradicts the reading itself, and the check
    # says so (gpu.compute-capability).
    "gpu-kernels-ran": (
        "gpu-known-failure",
        # The smoke test's matmul is a cuBLAS call: the library of a CUDA older than the GPU
        # would have failed it.
        "cuda-release-predates-gpu",
        "gpu-arch-unsupported",
        "gpu-ptx-driver-too-old",
        "driver-too-old",
    ),
    "gpu-conv-ran": ("cudnn-version-mismatch", "cudnn-shadowed", "gpu-library-init-failed"),
    "gpu-xla-ran": ("ptxas-too-new", "ptxas-too-old", "ptxas-missing", "libdevice-missing"),
    # A log's own: the run did its work after the notices (an epoch to its end, a model saved,
    # tests passed). What a notice predicts of a package's version (a companion's version
    # warning, pip's list of conflicts) did not happen in this run; that it imported, too.
    # Not the GPU's causes: a run on the CPU does its work all the same.
    "run-went-on": (
        "companion-mismatch",
        "dependency-out-of-range",
        "dependency-missing",
        "library-pin-conflicts",
        "tf-keras-mismatch",
        "keras-version",
        "numba-llvmlite-mismatch",
    ),
}


def define(cid: CauseId, title: str, explanation: str, *links: str) -> tuple[CauseId, Cause]:
    """One entry of an area's catalogue, with the observations that refute it."""
    refuted_by = tuple(kind for kind, ids in CONTRADICTED_BY.items() if cid in ids)
    return cid, Cause(cid, title, explanation, links, refuted_by)
