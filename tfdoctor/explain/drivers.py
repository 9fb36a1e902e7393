"""Builders for the NVIDIA driver, the devices it serves, and WSL's GPU paths."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.compat import PTX, cuda_driver_floor, gpu_code
from tfdoctor.evidence.devices import wsl1_shown
from tfdoctor.evidence.stated import failing_run_names
from tfdoctor.explain.common import cite, hits_by, program_refused
from tfdoctor.explain.revealed import Revealed
from tfdoctor.explain.scanning import Evidence, Hits
from tfdoctor.findings import Finding, Fix, Severity, keep_weightier
from tfdoctor.machine import Machine
from tfdoctor.matrix import version_key
from tfdoctor.signatures import MODULE_KEY_REFUSED, NOUVEAU_HOLDS_GPU


def _driver_runs(m: Machine, driver: Optional[str]) -> str:
    """What driver ``driver`` runs by the matrix's driver floors (each CUDA release's minimum
    driver, lowered to its major's floor by minor version compatibility): the newest CUDA
    release whose floor it meets, and the next one's floor ('' where the table cannot say)."""
    if not driver or m.matrix is None:
        return ""
    # Under WSL the driver is the Windows host's, and reports Windows version numbers.
    os_name = "windows" if m.os == "windows" or m.wsl else "linux"
    have = version_key(driver)
    ran: Optional[str] = None
    for toolkit in m.matrix.cuda_toolkits:  # oldest first
        floor = cuda_driver_floor(m.matrix, toolkit.cuda, os_name)
        if floor is None:
            continue
        if have < version_key(floor.version):
            older = f"CUDA {ran} and older" if ran else "no CUDA release the table lists"
            return (
                f"the log's driver, {driver}, runs {older} (CUDA {toolkit.cuda} needs "
                f"{floor.version} or newer: {floor.rule}, by NVIDIA's tables): a build for that "
                "CUDA or a later one needs a newer driver"
            )
        ran = toolkit.cuda
    return ""


def _kernel_dso(hits: Sequence[Hits]) -> Optional[tuple[str, str]]:
    """The kernel module's and libcuda's driver branches TensorFlow compared, where the
    line is among ``hits`` (the kernel-dso-mismatch signature's groups)."""
    for hit in hits:
        for groups in hit.groups:
            kernel, dso = groups.get("driver_version"), groups.get("dso_version")
            if kernel and dso and kernel[0].isdigit() and dso[0].isdigit():
                return kernel.split(".")[0], dso.split(".")[0]
    return None


def _libcuda_newer(hits: Sequence[Hits]) -> Optional[tuple[str, str]]:
    """The two branches where the loaded libcuda's is the newer (a container's own copy can
    be so; an upgrade whose module is not reloaded is too)."""
    pair = _kernel_dso(hits)
    return pair if pair is not None and int(pair[1]) > int(pair[0]) else None


def _in_container(m: Machine, r: Revealed) -> bool:
    """The log (or the facts) show a container: its tool's run (with or without a GPU's
    flags), a CUDA image, its host name."""
    return bool(
        m.container
        or r.cuda_image
        or r.docker_run_without_gpu
        or r.run_tool
        or r.container_hostname
        or r.container_tool
    )


def _driver_mismatch(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """The kernel module and libcuda of different versions: in a container, the image's own
    libcuda (the NVIDIA runtime mounts the host's, which match its module: its start fails
    otherwise), over an older host driver where it is the newer (too old for the image's CUDA);
    elsewhere a driver upgraded without reloading its module."""
    pair = _kernel_dso(hits)
    if pair is not None and pair[0] != pair[1] and _in_container(m, r):
        if int(pair[1]) > int(pair[0]):
            return causes.gpu.DRIVER_TOO_OLD, causes.gpu.container_libcuda_newer_fix(*pair)
        return causes.gpu.DRIVER_VERSION_MISMATCH, causes.gpu.container_libcuda_older_fix(*pair)
    return causes.gpu.DRIVER_VERSION_MISMATCH, causes.gpu.driver_mismatch_fix()


def _container_libcuda_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
) -> Optional[Finding]:
    """A libcuda newer than the kernel module where the log shows no container: the image's
    own copy over an older host driver is the other candidate beside an upgrade whose module
    was not reloaded, a warning (a reboot does not help it)."""
    mismatch = findings.get(f"explain.{causes.gpu.DRIVER_VERSION_MISMATCH}")
    hits = by_cause.get(causes.gpu.DRIVER_VERSION_MISMATCH, ())
    newer = _libcuda_newer(hits)
    if (
        mismatch is None
        or mismatch.cause != causes.gpu.DRIVER_VERSION_MISMATCH
        or newer is None
        or f"explain.{causes.gpu.DRIVER_TOO_OLD}" in findings
    ):
        return None
    kernel, dso = newer
    return causes.other_candidate(
        causes.gpu.DRIVER_TOO_OLD,
        "a container's own libcuda newer than the host's driver",
        cite(hits) + f"\nThe loaded libcuda ({dso}) is newer than the kernel module "
        f"({kernel}). Outside a container that is a driver upgraded without reloading its "
        "module (the finding above); inside one, the image's own libcuda over an older host "
        "driver, which a reboot does not change. /.dockerenv tells the two apart.",
        causes.gpu.container_libcuda_newer_fix(kernel, dso),
    )


#: The signature of TensorFlow's CHECK for a driver API function libcuda lacks.
_LIBCUDA_FUNCTION_MISSING = "libcuda-function-missing"


def _legacy_gpu_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    r: Revealed,
) -> Optional[Finding]:
    """A libcuda without a function of the build's CUDA, where the log shows no GPU: beside a
    driver not updated, a GPU whose newest driver is too old for it, a warning. NVIDIA keeps
    GPUs it stops supporting on a legacy driver branch, and the Tesla-architecture GPUs
    (compute capability 1.x) ended with the 340.xx branch, before CUDA 7.0's driver (its
    cuDevicePrimaryCtx* functions): such a GPU cannot get a driver new enough, and no
    TensorFlow release has GPU code for it.
    https://www.nvidia.com/en-us/drivers/unix/legacy-gpu/,
    https://developer.nvidia.com/cuda-legacy-gpus"""
    hits = hits_by(by_cause, causes.gpu.DRIVER_TOO_OLD, _LIBCUDA_FUNCTION_MISSING)
    older = findings.get(f"explain.{causes.gpu.DRIVER_TOO_OLD}")
    if (
        not hits
        or older is None
        or older.cause != causes.gpu.DRIVER_TOO_OLD
        or f"explain.{causes.gpu.GPU_ARCH_UNSUPPORTED}" in findings
        or r.compute_capability is not None
        or r.gpu_name is not None
    ):
        return None  # a GPU the log shows is its own answer
    return causes.other_candidate(
        causes.gpu.GPU_ARCH_UNSUPPORTED,
        "a GPU whose newest NVIDIA driver predates the build's CUDA",
        cite(hits) + "\nThe driver's libcuda lacks a function the build calls. A driver not "
        "updated is the reading above; a GPU NVIDIA moved to a legacy driver branch cannot get "
        "a newer one (the GPUs of compute capability 1.x ended with the 340.xx drivers, before "
        "CUDA 7.0), and no TensorFlow release has GPU code for such a GPU. The GPU's name and "
        "NVIDIA's legacy GPU list (https://developer.nvidia.com/cuda-legacy-gpus) tell the two "
        "apart.",
        causes.gpu.legacy_gpu_fix(),
    )


def _driver_libraries(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "cuda-library-needs-libcuda-link" for h in hits):
        return causes.gpu.DRIVER_LIBRARIES_MISSING, causes.gpu.libcuda_link_fix(
            r.wsl or m.wsl is not None
        )
    if (
        r.gpu_container_run is not None
        and r.docker_run_without_gpu is None
        and all(h.signature.id == _NVML_MISSING for h in hits)
    ):
        # A container started with the GPU handed over: the NVIDIA runtime mounted the host
        # driver's NVML into it (the utility capability nvidia-smi needs), so neither loading a
        # module nor another start fixes it. libcuda comes only with the compute capability,
        # which an image may not ask for: its absence keeps the readings below.
        return causes.gpu.CUDA_LIBS_OFF_PATH, causes.container.mounted_driver_path_fix(
            r.gpu_container_run
        )
    in_container = bool(
        m.container is not None or r.cuda_image or r.docker_run_without_gpu or r.container_hostname
    )
    if any(h.signature.id == "libcuda-file-broken" for h in hits) and not in_container:
        # The file is there and damaged: the driver's own libraries reinstalled.
        return causes.gpu.DRIVER_LIBRARIES_MISSING, causes.gpu.driver_userspace_fix(m)
    if any(h.signature.id == "import-needs-libcuda" for h in hits):
        probed = m.facts.hosted is not None and m.facts.hosted.name is not None
        if (not in_container or probed) and causes.gpu.runtime_chooses_gpu(m):
            # A hosted runtime (a notebook's VM, a SageMaker instance of a family without a
            # GPU) has the driver's libcuda only where its accelerator or instance type is a
            # GPU: the GPU build cannot import on the one it got. The hosted probe's marker
            # outranks the container it runs in: the platform started that one, not the user.
            return causes.gpu.driver_not_loaded(m)
        if m.no_nvidia_gpu_seen:
            # The facts show no NVIDIA GPU on the bus a container shares with its host: no
            # --gpus flag or driver hands one over, the CPU build of the release is the fix.
            return causes.gpu.DRIVER_LIBRARIES_MISSING, causes.gpu.libcuda_import_fix(m)
        if in_container:
            # A container: the runtime mounts the host driver's libcuda only into a container
            # started with the GPU.
            return causes.container.CONTAINER_NO_GPU, causes.container.container_gpu_fix(m)
        if program_refused(hits) is not None:
            # A program linked to it (TensorFlow Serving's server), not a Python wheel: the
            # driver's library is what is missing.
            return causes.gpu.DRIVER_LIBRARIES_MISSING, causes.gpu.driver_load_fix(m)
        return causes.gpu.DRIVER_LIBRARIES_MISSING, causes.gpu.libcuda_import_fix(m)
    # The driver's user-space libraries (libnvidia-ml, libcuda) are not installed where the
    # kernel module is, or not visible to the container runtime.
    return causes.gpu.DRIVER_LIBRARIES_MISSING, causes.gpu.driver_load_fix(m)


#: nvidia-smi finding no libnvidia-ml (signatures.yaml).
_NVML_MISSING = "nvml-no-library"
#: The shell or the container runtime finding no nvidia-smi (signatures.yaml).
_SMI_MISSING = "nvidia-smi-not-found"


def _settle_smi_missing(by_cause: dict[str, list[Hits]]) -> None:
    """nvidia-smi missing read once: where the log's own lines of a container already read one
    started without the GPU (NVIDIA's image check, the toolkit's refusal), that finding says
    it, with its own words on the run; nvidia-smi's absence is a reading of its own only
    where none does."""
    if causes.container.CONTAINER_NO_GPU not in by_cause:
        return
    kept = [
        h for h in by_cause.get(causes.gpu.DRIVER_NOT_LOADED, []) if h.signature.id != _SMI_MISSING
    ]
    if kept:
        by_cause[causes.gpu.DRIVER_NOT_LOADED] = kept
    else:
        by_cause.pop(causes.gpu.DRIVER_NOT_LOADED, None)


def _wsl_driver(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """WSL 2's GPU libraries, or, for NVML's refusal alone where the log shows no WSL, the
    system blocking the GPU (a Hyper-V guest or a container prints the same words)."""
    if m.wsl is None and all(h.signature.id == "nvml-gpu-access-blocked" for h in hits):
        return causes.platform.GPU_ACCESS_BLOCKED, causes.platform.gpu_access_blocked_fix(False)
    return causes.platform.WSL_DRIVER_BROKEN, causes.platform.gpu_access_blocked_fix(
        m.wsl is not None, m
    )


def _driver_not_loaded(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    dlopen = any(
        h.signature.id in ("dlopen-libcuda", "dlopen-libcuda-old", "libcuda-diagnostics-not-found")
        for h in hits
    )
    if any(h.signature.id == "apptainer-no-nv-files" for h in hits):
        # Apptainer looked for the driver's files on the host itself and found none.
        tool = r.docker_run_without_gpu[0] if r.docker_run_without_gpu else None
        return causes.gpu.DRIVER_NOT_LOADED, causes.container.gpu_node_fix(
            tool if tool in ("apptainer", "singularity") else "apptainer"
        )
    if any(MODULE_KEY_REFUSED in h.signature.tags for h in hits):
        # The kernel said why the module does not load: its signature is not trusted.
        return causes.gpu.DRIVER_NOT_LOADED, causes.gpu.secure_boot_fix(m)
    if any(NOUVEAU_HOLDS_GPU in h.signature.tags for h in hits):
        return causes.gpu.DRIVER_NOT_LOADED, causes.gpu.nouveau_fix(m)
    if any(h.signature.id == "container-cli-driver-not-loaded" for h in hits):
        # The toolkit runs on the host: its driver, not the container's start, is missing.
        return causes.gpu.DRIVER_NOT_LOADED, causes.container.toolkit_host_driver_fix()
    if (
        any(h.signature.id == _SMI_MISSING for h in hits)
        and (
            m.container
            or r.container_hostname
            or r.docker_run_without_gpu
            or (r.run_tool and r.smi_gpu)
        )
        and not causes.gpu.runtime_chooses_gpu(m)
    ):
        # The log shows nvidia-smi missing in a container (its prompt, a container started
        # without a GPU flag), or containers run on a host whose driver nvidia-smi's table
        # shows answering: the NVIDIA Container Toolkit mounts the host driver's nvidia-smi
        # (and libcuda) only into a container started with the GPU, so the one without it is
        # such a container. A run with the flag and no driver shown puts no container around
        # the shell that missed it: the host's driver is the reading.
        return causes.container.CONTAINER_NO_GPU, causes.container.container_gpu_fix(m)
    if r.kernel_module and dlopen and not m.container and r.container_hostname:
        # The host's kernel module is seen (a container shares the host's kernel) from a
        # process whose hostname is a Docker container's ID: the runtime mounts the driver's
        # user-space libraries (libcuda) only into a container started with the GPU.
        return causes.container.CONTAINER_NO_GPU, causes.container.container_gpu_fix(m)
    if r.kernel_module and dlopen and not m.container:
        # TensorFlow's own diagnosis found the kernel module loaded: what is missing is the
        # driver's user-space library, not the driver.
        return causes.gpu.DRIVER_LIBRARIES_MISSING, causes.gpu.libcuda_beside_module_fix(
            r.kernel_module
        )
    return causes.gpu.driver_not_loaded(m)


#: The readings of a driver not reached that assume a Linux driver inside the machine: a
#: kernel module to load, its user-space libraries, their versions, cuInit's bare failure, CUDA
#: seeing no device (CUDA_VISIBLE_DEVICES aside), a container's GPU access where none is shown.
_LINUX_DRIVER_READINGS = (
    causes.gpu.DRIVER_NOT_LOADED,
    causes.gpu.DRIVER_LIBRARIES_MISSING,
    causes.gpu.DRIVER_VERSION_MISMATCH,
    causes.gpu.CUINIT_UNKNOWN_ERROR,
    causes.gpu.CUDA_VISIBLE_DEVICES_HIDDEN,
    # cuInit's shared-object failure read as a container's, where the log shows none.
    causes.container.CONTAINER_NO_GPU,
)


#: WSL 2 named in the user's words (``Ubuntu 22.04 on WSL2``, ``WSL 2``): beside the Linux
#: driver's messages (libcuda, nvidia-smi, cuInit), the machine that printed them.
_WSL2_SAID = re.compile(r"\bWSL ?2\b", re.IGNORECASE)


def _settle_wsl2(evidence: Evidence, machine: Machine, findings: dict[str, Finding]) -> None:
    """WSL 2 shown (its kernel, its driver directory, the form's or the user's words) beside
    a driver not reached, outside a container: ``wsl-driver-broken`` in place of the Linux driver's
    readings. A WSL 2 distribution has no NVIDIA kernel module of its own: the Windows
    driver gives it the GPU through /dev/dxg and the libraries WSL mounts in
    /usr/lib/wsl/lib (libcuda.so.1, libnvidia-ml.so.1), and NVIDIA's guide says to install
    no Linux driver inside it. So libcuda not loading, cuInit failing or CUDA seeing no
    device there is WSL's GPU support or the Windows driver (or a Linux driver installed over
    them), and loading a module or installing a Linux driver changes nothing.
    https://docs.nvidia.com/cuda/wsl-user-guide/index.html
    https://learn.microsoft.com/windows/wsl/tutorials/gpu-compute
    """
    # Only where the words say the failing run is under WSL 2 ("works on WSL2, fails on my
    # server" names another machine).
    said = failing_run_names(_WSL2_SAID, evidence.first_text) if machine.wsl is None else None
    if (machine.wsl != "WSL2" and said is None) or machine.container:
        # WSL 1 in the machine's facts is wsl1's (no GPU at all); a container's GPU access
        # is the container runtime's (container-no-gpu).
        return
    named = machine.wsl or (said.group(0) if said is not None else "WSL 2")
    if evidence.gpu_reached() is not None or _LIBCUDA_LINK in evidence.hits:
        # TensorFlow reached a GPU: the Windows driver answered, and what failed beside it
        # (cuDNN opening libcuda.so by its unversioned name) is the readings' own. That
        # failure alone shows it too: cuDNN's parts load as the first convolution runs, on a
        # GPU the process already opened through libcuda.so.1; WSL mounts the unversioned
        # libcuda.so beside it in /usr/lib/wsl/lib, which the loader does not search for
        # that name by default, so the loader's path is the fix, not WSL's GPU support.
        return
    for key, x in list(findings.items()):
        if x.cause not in _LINUX_DRIVER_READINGS or x.severity.rank < Severity.WARNING.rank:
            continue
        if x.cause == causes.gpu.CUDA_VISIBLE_DEVICES_HIDDEN and evidence.visible_devices:
            continue  # the variable is shown: it may hide the GPU
        del findings[key]
        other = "Or: " if x.summary.startswith("Or: ") else ""
        found = causes.finding(
            f"explain.{causes.platform.WSL_DRIVER_BROKEN}",
            x.severity,
            causes.platform.WSL_DRIVER_BROKEN,
            f"{other}Under WSL 2 the GPU is not reached through the Windows driver",
            f"{x.detail}\nThe log shows WSL 2 ({named}): its GPU comes from the Windows "
            "driver through the libraries WSL mounts in /usr/lib/wsl/lib, not from a Linux "
            "driver inside the distribution.",
            causes.platform.wsl_gpu_fix(machine),
        )
        keep_weightier(findings, found)


#: cuDNN's (or nvrtc's) failure to open the driver's library by its unversioned name.
_LIBCUDA_LINK = "cuda-library-needs-libcuda-link"


#: What TensorFlow or nvidia-smi says of a GPU it cannot reach, read as a machine's driver:
#: under WSL 1, which gives Linux no GPU at all, the cause is WSL's version, and these fixes
#: (load a kernel module, install a driver, start a container with --gpus) change nothing.
_NO_GPU_REACHED = (
    causes.gpu.DRIVER_NOT_LOADED,
    causes.gpu.DRIVER_LIBRARIES_MISSING,
    causes.gpu.DRIVER_VERSION_MISMATCH,
    causes.gpu.CUINIT_UNKNOWN_ERROR,
    causes.container.CONTAINER_NO_GPU,
    causes.platform.WSL_DRIVER_BROKEN,
    causes.platform.GPU_ACCESS_BLOCKED,
)


#: CUDA's own libraries not found (on the loader's path or at all).
_CUDA_LIBRARIES = (causes.gpu.CUDA_LIBS_MISSING, causes.gpu.CUDA_LIBS_OFF_PATH)


def _settle_wsl1(evidence: Evidence, findings: dict[str, Finding]) -> None:
    """WSL 1 shown (:func:`tfdoctor.evidence.devices.wsl1_shown`) beside a GPU not reached
    (a driver's finding, CUDA's libraries missing where a GPU is meant, no GPU listed, the
    user's complaint): ``wsl1`` in place of the driver's and the libraries' findings. WSL 1
    alone is no fault: TensorFlow runs there on the CPU. Not where the log shows WSL 2 too
    (its kernel or driver directory, ``evidence.wsl``): a distribution converted, or another
    one run, and the driver's findings are WSL 2's own."""
    shown = wsl1_shown(evidence.first_text) if not evidence.wsl else None
    if shown is None:
        return
    drivers = [
        k
        for k, x in findings.items()
        if x.cause in _NO_GPU_REACHED
        # CUDA's libraries a GPU setup lacks (not the start-up look of a machine without one,
        # a note): under WSL 1 no library of CUDA's reaches a GPU, so installing them cannot.
        or (x.cause in _CUDA_LIBRARIES and x.severity.rank >= Severity.WARNING.rank)
    ]
    no_gpu = any(listing.gpus == 0 for _, listing in evidence.devices)
    if not drivers and not no_gpu and evidence.gpu_complaint is None:
        return
    complaint = evidence.gpu_complaint
    said = "\n".join(
        [shown, *(findings[k].summary for k in drivers)]
        + ([f"{complaint[0]}: {complaint[1]}"] if complaint is not None else [])
    )
    for key in drivers:
        del findings[key]
    found = causes.finding(
        f"explain.{causes.platform.WSL1}",
        Severity.ERROR,
        causes.platform.WSL1,
        "Linux runs under WSL 1, which gives it no GPU",
        f"{said}\nThe kernel release (4.4.0-...-Microsoft) or `wsl -l -v` shows WSL 1: CUDA "
        "reaches a GPU only under WSL 2.",
        causes.platform.wsl1_fix(),
    )
    findings.setdefault(found.id, found)


def _gpus_named(evidence: Evidence, revealed: Revealed, machine: Machine) -> list[tuple[str, str]]:
    """The NVIDIA GPU models the log names (TensorFlow's device line, the issue's form, then
    the lines of its head, in the user's words or a tool's table), as the GPU table knows
    them: each model's name and compute capability."""
    if machine.matrix is None:
        return []
    names = [revealed.gpu_name] if revealed.gpu_name else []
    names += evidence.first_text.splitlines()
    models = (machine.matrix.gpu_model(name) for name in names if name.strip())
    return [(x.name, x.compute_capability) for x in models if x is not None]


def _slow_start_on_gpu(
    evidence: Evidence, revealed: Revealed, machine: Machine, found: Iterable[Finding]
) -> Optional[Finding]:
    """A start the user says takes long on a named NVIDIA GPU, with nothing else explained:
    the build without machine code for the GPU, whose PTX the driver compiles first.

    TensorFlow's own warning for it says "CUDA kernels will be jit-compiled from PTX, which
    could take 30 minutes or longer" (gpu_device.cc), printed only where its log level lets
    it through; the driver keeps what it compiled in a cache of 256 MiB by default, which
    TensorFlow's kernels outgrow, so every start compiles again (CUDA_CACHE_MAXSIZE, NVIDIA's
    CUDA programming guide, "Just-in-Time Compilation").
    https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/core/common_runtime/gpu/gpu_device.cc
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#just-in-time-compilation
    """
    if evidence.slow_start is None or any(x.severity.rank >= Severity.WARNING.rank for x in found):
        return None
    models = _gpus_named(evidence, revealed, machine)
    if not models:
        return None
    # Of several GPUs named (one slow, one compared), the newest is the one a build can lack.
    model, cap = max(models, key=lambda x: version_key(x[1]))
    line = machine.line
    known = line.compute_capabilities if line is not None else None
    if known is not None and gpu_code(known, cap) != PTX:
        return None  # the build has machine code for it (or none at all): not the PTX
    where, said = evidence.slow_start
    built = (
        f"TensorFlow {line.line} carries only PTX for compute capability {cap}"
        if line is not None and known is not None
        else "the log does not show which TensorFlow; a build made before the GPU's "
        "architecture has only PTX for it"
    )
    return causes.finding(
        f"explain.{causes.gpu.GPU_PTX_JIT}",
        Severity.WARNING,
        causes.gpu.GPU_PTX_JIT,
        f"A slow start on the {model} (compute capability {cap}): kernels compiled from PTX first",
        f"{where}: {said}\nThe {model} has compute capability {cap}; {built}, so the "
        "driver compiles every kernel from PTX before the first one runs, and again at each "
        "start where its cache is too small to keep them.",
        causes.gpu.ptx_jit_fix(machine, cap),
    )
