"""Builders for containers: GPUs not passed in, images and host Pythons."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.devices import (
    apptainer_shown,
    container_shares_host_python,
    visible_hides_gpus,
)
from tfdoctor.explain.common import _floor, cite, group, hits_by
from tfdoctor.explain.exceptions import last_failure
from tfdoctor.explain.revealed import Revealed
from tfdoctor.explain.scanning import Evidence, Hits
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import version_key

#: Docker's daemon without the NVIDIA runtime's binary: --gpus finds no driver for GPUs, or the
#: runtime registered in daemon.json is not installed (signatures.yaml).
_RUNTIME_NOT_INSTALLED = frozenset({"docker-no-gpu-driver", "nvidia-runtime-binary-missing"})
#: Docker's refusals of ``--runtime=nvidia`` (signatures.yaml), in its newer and older words.
_RUNTIME_NAME_REFUSED = frozenset({"docker-no-nvidia-runtime", "docker-unknown-runtime-nvidia"})


def _matched_line(hits: Sequence[Hits], sid: str) -> Optional[str]:
    """The first line signature ``sid`` matched in ``hits``, or None."""
    return next((line for h in hits if h.signature.id == sid for _, line in h.citations), None)


def _container_tool(m: Machine, r: Revealed) -> str:
    """The tool the log shows running the container: Kubernetes, Podman or Docker (where it
    shows none: Docker, the commonest)."""
    for tool in (m.container, r.run_tool, r.container_tool):
        if tool in ("kubernetes", "podman", "docker"):
            return tool
    return "docker"


def _container_no_gpu(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if causes.container.mac_host(m):
        # Docker Desktop's VM on a Mac has no GPU: no runtime or flag on it hands one over.
        return causes.container.CONTAINER_NO_GPU, causes.container.mac_container_fix()
    if any(h.signature.id in _RUNTIME_NOT_INSTALLED for h in hits):
        # Docker's own daemon refused: the host side, whatever the log says of containers.
        return causes.container.CONTAINER_NO_GPU, causes.container.docker_runtime_fix()
    refused = _matched_line(hits, "container-cli-no-gpus-flag")
    if refused is not None:
        # Podman's CLI prints its errors behind "Error: ", Docker's CLI prints pflag's alone.
        podman = refused.lstrip().startswith("Error:") or m.container == "podman"
        return causes.container.CONTAINER_NO_GPU, causes.container.gpus_flag_fix(
            "podman" if podman else "docker"
        )
    cdi = _matched_line(hits, "cdi-device-unresolvable")
    if cdi is not None:
        docker = "daemon" in cdi or m.container == "docker"
        return causes.container.CONTAINER_NO_GPU, causes.container.cdi_spec_fix(
            "docker" if docker else "podman"
        )
    if any(h.signature.id == "nvml-unknown-in-container" for h in hits):
        return causes.container.CONTAINER_NO_GPU, causes.container.nvml_cgroup_fix(
            _container_tool(m, r)
        )
    if any(h.signature.id == "k8s-device-plugin-no-driver" for h in hits):
        # The plugin's own words say why the node has no nvidia.com/gpu to offer.
        return causes.container.CONTAINER_NO_GPU, causes.container.device_plugin_fix()
    if any(h.signature.id == "k8s-insufficient-gpu" for h in hits):
        return causes.container.CONTAINER_NO_GPU, causes.container.k8s_gpu_capacity_fix()
    stage = _matched_line(hits, "container-cli-stage-error")
    if stage is not None:
        return causes.container.CONTAINER_NO_GPU, causes.container.toolkit_stage_fix(
            stage, m.packager
        )
    if any(h.signature.id in _RUNTIME_NAME_REFUSED for h in hits):
        # The daemon has no runtime of the name --runtime asked for: its registration.
        return causes.container.CONTAINER_NO_GPU, causes.container.runtime_name_fix()
    fix = causes.container.container_gpu_fix(m)
    if not m.container:
        # The log does not show a container: the same failure on a host is the driver's.
        host = causes.gpu.driver_load_fix(m)
        fix = Fix(
            f"{fix.text} If this is not a container: {host.text}", (*fix.commands, *host.commands)
        )
    return causes.container.CONTAINER_NO_GPU, fix


def _no_device(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if r.docker_run_without_gpu is None and causes.gpu.runtime_chooses_gpu(m):
        # A hosted notebook whose runtime setting gives it a GPU: its VM runs the kernel in a
        # container of the platform's (Colab's hostname is that container's ID), which the
        # user cannot start with a GPU; the runtime's accelerator is what hands one over.
        return causes.hosted.HOSTED_RUNTIME_WITHOUT_GPU, causes.hosted.hosted_gpu_runtime_fix(m)
    if r.run_tool is not None and r.docker_run_without_gpu is None and (r.wsl or r.os == "windows"):
        # A container started with its GPU flag from Windows or WSL 2: the flag is there, and
        # its GPU comes through WSL 2 from the Windows driver.
        return causes.platform.WSL_DRIVER_BROKEN, causes.platform.wsl_container_gpu_fix()
    if r.docker_run_without_gpu is not None or (r.container_hostname and not m.container):
        # The log shows the container started with no GPU flag, or TensorFlow's diagnostics
        # name a Docker container's default hostname with no runtime shown: CUDA sees no
        # device because the runtime handed it none.
        return causes.container.CONTAINER_NO_GPU, causes.container.container_gpu_fix(m)
    if r.nouveau_holds_gpu and not m.wsl and not m.container:
        # The log shows nouveau holding the GPU: CUDA sees no device the nvidia module drives.
        return causes.gpu.DRIVER_NOT_LOADED, causes.gpu.nouveau_fix(m)
    if r.libcuda_without_module and not m.wsl and not m.container:
        # TensorFlow's diagnostics found the driver's libcuda but no kernel module: no device
        # because the module is not loaded (a kernel updated without its build, Secure Boot,
        # nouveau). WSL has no such module (the Windows driver serves the GPU).
        return causes.gpu.DRIVER_NOT_LOADED, causes.gpu.driver_load_fix(m)
    if r.no_gpu_host and not visible_hides_gpus(r.visible_devices) and not m.wsl:
        # TensorFlow's diagnostics found no NVIDIA kernel driver on this host (no
        # /proc/driver/nvidia/version), which no CUDA_VISIBLE_DEVICES makes so, and nothing in
        # the log expects a GPU: a machine without one (a note, assembly's reading of it).
        # WSL 2 has no such module (the Windows driver serves the GPU).
        return causes.gpu.DRIVER_NOT_LOADED, causes.gpu.driver_load_fix(m)
    return causes.gpu.CUDA_VISIBLE_DEVICES_HIDDEN, causes.gpu.no_device_fix(m)


def _unseen_gpu(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """TensorFlow reaching no GPU for a reason its log does not name. cuInit's
    CUDA_ERROR_INVALID_DEVICE (cuInit takes no device: one a user named by then is
    CUDA_VISIBLE_DEVICES's) is read as that variable's only where the log sets it to a value
    that names no GPU there, as check reads it only where the machine's value names none
    (checks/gpu.py ``_names_a_gpu_here``); else the result is named as it is, and the fix
    looks at the variable beside the driver's list."""
    if any(h.signature.id == "cuinit-invalid-device" for h in hits):
        if visible_hides_gpus(r.visible_devices):
            return _no_device(m, r, hits)
        return causes.gpu.GPU_UNSEEN_NO_REASON, causes.gpu.no_device_fix(m)
    return causes.gpu.GPU_UNSEEN_NO_REASON, causes.gpu.read_device_log_fix()


#: The file runc names as refused, where a script's name shows it is one.
_REFUSED_SCRIPT = re.compile(r"exec /\S*\.(?:sh|py|bash): exec format error")


def _image_platform(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    line = _matched_line(hits, "container-exec-format-error") or ""
    # runc before 1.1 does not name the file: a script is as likely as a binary there.
    script = "user process caused" in line or _REFUSED_SCRIPT.search(line) is not None
    return causes.container.CONTAINER_IMAGE_PLATFORM, causes.container.image_platform_fix(
        script, _container_tool(m, r)
    )


#: CUresult 804 in each of the log's wordings: its name, cuda_driver.cc's number where
#: cuGetErrorName knows none, the runtime's cudaGetErrorString (cuda.h, driver_types.h).
_COMPAT_REFUSED = re.compile(
    r"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE|UNKNOWN ERROR \(804\)"
    r"|forward compatibility was attempted on non supported HW"
)


def _compat_refused(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """CUresult 804 (CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: "forward compatibility was
    attempted on non supported HW") where the log shows the kernel module (cuda_diagnostics'
    "kernel reported version", nvidia-smi's driver) at or above the build's floor: the driver
    runs the build, and what failed is CUDA's forward-compatibility libcuda loaded on a GPU
    that does not take it. The check's reading of the same (checks/gpu.py), with its fix."""
    cited = [line for h in hits for _, line in h.citations]
    if not any(_COMPAT_REFUSED.search(line) for line in cited):
        return None
    floor, driver = _floor(m), r.kernel_module or r.driver_version
    if floor is None or driver is None or version_key(driver) < version_key(floor):
        return None
    return causes.gpu.DRIVER_VERSION_MISMATCH, causes.gpu.compat_libcuda_fix(None)


def _hit(hits: Sequence[Hits], sid: str) -> bool:
    """Whether the signature ``sid`` is among ``hits``."""
    return any(h.signature.id == sid for h in hits)


def _platform_image(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """The platform's image for the framework and Python asked for: the SDK's own list where
    its refusal names one, else the image the registry does not have."""
    setting, value, supported = (
        group(hits, g) for g in ("sdk_setting", "sdk_value", "sdk_supported")
    )
    if any(h.signature.id == "ctpu-version-not-available" for h in hits):
        return causes.hosted.PLATFORM_IMAGE_UNAVAILABLE, causes.hosted.cloud_tpu_version_fix(value)
    if any(h.signature.id == "ctpu-no-vm-image" for h in hits):
        return causes.hosted.PLATFORM_IMAGE_UNAVAILABLE, causes.hosted.cloud_tpu_vm_image_fix()
    fix = (
        causes.hosted.sagemaker_sdk_fix(m, setting, value, supported)
        if setting and value and supported
        else causes.hosted.sagemaker_versions_unset_fix()
        if any(h.signature.id == "sagemaker-sdk-version-unset" for h in hits)
        else causes.hosted.platform_image_fix(group(hits, "image"))
    )
    return causes.hosted.PLATFORM_IMAGE_UNAVAILABLE, fix


#: A container started by a command the log shows (its GPU flags, or that it is another
#: container, decide: evidence.devices.container_run_without_gpu reads them).
_CONTAINER_STARTED = re.compile(r"\b(?:nvidia-docker|docker|podman)[ \t]+(?:container[ \t]+)?run\b")


def _container_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    m: Machine,
    r: Revealed,
    evidence: Evidence,
) -> Optional[Finding]:
    """libcuda.so.1 missing where the log tells no container from a machine of its own: a
    container started without the GPU is the other candidate (its image carries CUDA, never
    the driver's library, which the NVIDIA runtime mounts), a warning with what tells the two
    apart. None where the log or the facts decide: a container shown (the builder's answer
    then), a hosted notebook (its runtime type, not a container's start, gives the GPU),
    native Windows, macOS or WSL, the driver's kernel module or nvidia-smi's GPU."""
    missing = findings.get(f"explain.{causes.gpu.DRIVER_LIBRARIES_MISSING}")
    hits = hits_by(by_cause, causes.gpu.DRIVER_LIBRARIES_MISSING, "import-needs-libcuda")
    if (
        missing is None
        or not hits
        or missing.severity.rank < Severity.WARNING.rank
        or m.facts.platform is not None
        or m.container is not None
        or r.notebook
        or m.os not in (None, "linux")
        or r.wsl
        or r.kernel_module
        or r.smi_gpu
        or _CONTAINER_STARTED.search(evidence.first_text)
    ):
        return None
    fix = causes.container.container_gpu_fix(m)
    return causes.other_candidate(
        causes.container.CONTAINER_NO_GPU,
        "a container started without the GPU",
        cite(hits) + "\nlibcuda.so.1 comes with the NVIDIA driver: a machine without the "
        "driver and a container started without the NVIDIA runtime both lack it, and the log "
        "shows neither. Inside a container /.dockerenv (Docker) or /run/.containerenv (Podman) "
        "exists: then this is the cause; else the driver is (the finding above).",
        Fix(fix.text, ("ls /.dockerenv /run/.containerenv", *fix.commands)),
    )


#: The GPU failures a TensorFlow of another release than the hosted image's shows: its cuDNN
#: or CUDA libraries are not the ones the image carries.
_IMAGE_PAIRING_CAUSES = (
    causes.gpu.CUDNN_VERSION_MISMATCH,
    causes.gpu.CUDNN_SHADOWED,
    causes.runtime.GPU_LIBRARY_INIT_FAILED,
    causes.gpu.CUDA_LIBS_MISSING,
)


#: A package imported from a home directory: the user site-packages
#: (``~/.local/lib/python3.10/site-packages``) or an environment installed under it
#: (``~/miniforge3/lib/...``, ``~/miniconda3/envs/x/lib/...``, ``~/venv/lib/...``).
_HOME_PACKAGE = re.compile(
    r"^(?P<path>/(?:home/[^/\s]+|root)/(?:[^\s]*?/)?lib/python\d\.\d+/site-packages/"
    r"(?P<package>[A-Za-z_]\w*))"
)


def _settle_host_python_leak(evidence: Evidence, findings: dict[str, Finding]) -> None:
    """A program run in an Apptainer (Singularity) container, or a Docker or Podman one whose
    command binds a home directory or passes PYTHONPATH in, whose failing traceback imports a
    package from a home directory: the host's environment (PYTHONPATH) or its home, which the
    container binds, put the host's package before the image's. The finding leads; what the
    package's failure reads as (another release, another NumPy) stays, a warning."""
    shared = container_shares_host_python(evidence.first_text)
    tool = shared[0] if shared is not None else apptainer_shown(evidence.first_text)
    tb = last_failure(evidence.tracebacks) if tool is not None else None
    home = next(
        (m for fr in (tb.frames if tb else ()) if (m := _HOME_PACKAGE.match(fr.path))), None
    )
    if tool is None or tb is None or home is None:
        return
    for key, x in list(findings.items()):
        if x.severity.rank > Severity.WARNING.rank:
            findings[key] = dataclasses.replace(x, severity=Severity.WARNING)
    found = causes.finding(
        f"explain.{causes.container.CONTAINER_HOST_PYTHON_LEAK}",
        Severity.ERROR,
        causes.container.CONTAINER_HOST_PYTHON_LEAK,
        f"The {tool} container imports {home.group('package')} from the host's home directory",
        f"{tb.where}: {tb.type}: {tb.message}\nThe traceback's code comes from "
        f"{home.group('path')}, under a home directory the container shares with the host, "
        "not from the image.",
        causes.container.host_python_leak_fix(tool, home.group("path")),
    )
    findings.setdefault(found.id, found)
