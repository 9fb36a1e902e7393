"""Causes in how a container was started: GPU access, the size of its shared memory."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final, Optional

from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.findings import Fix
from tfdoctor.machine import Machine

#: The ids of this area's causes, as checks, explain and scan name them.
CONTAINER_NO_GPU: Final = CauseId("container-no-gpu")
NCCL_SHM_TOO_SMALL: Final = CauseId("nccl-shm-too-small")
CONTAINER_HOST_PYTHON_LEAK: Final = CauseId("container-host-python-leak")
CONTAINER_IMAGE_PLATFORM: Final = CauseId("container-image-platform")

#: Apptainer's (Singularity's) environment and bind rules: the host's environment passes into
#: the container unless --cleanenv, and the home directory is bound by default.
_APPTAINER_ENV = "https://apptainer.org/docs/user/main/environment_and_metadata.html"
_APPTAINER_BIND = "https://apptainer.org/docs/user/main/bind_paths_and_mounts.html"
#: Python's user site-packages under the home directory, searched unless PYTHONNOUSERSITE.
_PYTHON_USER_SITE = "https://docs.python.org/3/library/site.html#site.ENABLE_USER_SITE"

NVIDIA_CONTAINER_TOOLKIT = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"
)


_NCCL_ENV = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-shm-disable"


_DOCKER_RUN = "https://docs.docker.com/reference/cli/docker/container/run/"
#: Docker's multi-platform images: one image per platform, QEMU's binfmt handlers to run
#: another's, and buildx's --platform to build for one.
_MULTI_PLATFORM = "https://docs.docker.com/build/building/multi-platform/"


#: Causes in the container's start: GPU access, shared memory, the host's environment.
CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            CONTAINER_HOST_PYTHON_LEAK,
            "The container's Python imports packages from the host",
            "Apptainer (Singularity) passes the host's environment into the container and "
            "binds the home directory by default, and a Docker or Podman command can do the "
            "same (-v $HOME:$HOME, -e PYTHONPATH): PYTHONPATH, and the user site-packages or "
            "an environment under the home directory, put the host's packages before the "
            "image's own, and a package of another release or Python build fails to import "
            "there.",
            _APPTAINER_ENV,
            _APPTAINER_BIND,
            _PYTHON_USER_SITE,
        ),
        define(
            CONTAINER_NO_GPU,
            "The container was started without GPU access",
            "Containers see a GPU only when started through the NVIDIA Container Toolkit (`docker"
            " run --gpus all`, a Kubernetes `nvidia.com/gpu` resource limit).",
            NVIDIA_CONTAINER_TOOLKIT,
        ),
        define(
            CONTAINER_IMAGE_PLATFORM,
            "The container image is built for another CPU architecture than the host",
            "An image holds programs for one CPU architecture (linux/amd64, linux/arm64). On a "
            "host of another (an amd64 image on Apple silicon, a Graviton or Jetson machine, "
            "an arm64 image on a PC) the kernel refuses to start them ('exec format error') "
            "unless an emulator is registered for that architecture, and under one TensorFlow "
            "runs slowly or meets instructions the emulator lacks: the image for the host's "
            "platform is the fix.",
            _MULTI_PLATFORM,
        ),
        define(
            NCCL_SHM_TOO_SMALL,
            "NCCL cannot create its shared memory (/dev/shm too small)",
            "NCCL moves data between the GPUs of one machine through shared memory in /dev/shm. "
            "Docker gives a container a 64 MiB /dev/shm unless told otherwise, and NCCL's "
            "segments do not fit ('No space left on device', 'Error while creating shared "
            "memory segment'): the collective, and the multi-GPU step, fails.",
            _DOCKER_RUN,
            _NCCL_ENV,
            "https://github.com/NVIDIA/nccl/issues/290",
        ),
    )
)


def docker_runtime_fix() -> Fix:
    """Docker's daemon refused ``--gpus``: it has no NVIDIA runtime, so the NVIDIA Container
    Toolkit is not installed on the host (or not registered with Docker)."""
    return Fix(
        "Docker's daemon has no NVIDIA runtime for --gpus: install the NVIDIA Container "
        "Toolkit (nvidia-container-toolkit) on the host from NVIDIA's package repository (its "
        "install guide), register it with Docker, restart Docker, and start the container "
        "with --gpus.",
        (
            "sudo apt-get install -y nvidia-container-toolkit  # after adding NVIDIA's "
            "repository (install guide); dnf/zypper on other distributions",
            "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker",
            "docker run --rm --gpus all IMAGE nvidia-smi",
        ),
    )


def runtime_name_fix() -> Fix:
    """Docker's daemon refused ``--runtime=nvidia``: no runtime of that name is registered
    with it. The NVIDIA Container Toolkit's configure command registers it (in
    /etc/docker/daemon.json); before Docker 19.03 the nvidia-docker2 package did; from 19.03
    ``--gpus`` needs no named runtime at all."""
    return Fix(
        "Docker's daemon has no runtime named nvidia: install the NVIDIA Container Toolkit on "
        "the host and register its runtime with Docker (the second command writes it into "
        "/etc/docker/daemon.json), then restart Docker; on Docker before 19.03 the "
        "nvidia-docker2 package registered it. With Docker 19.03 or later, `--gpus all` "
        "replaces `--runtime=nvidia`.",
        (
            "sudo apt-get install -y nvidia-container-toolkit  # after adding NVIDIA's "
            "repository (install guide); nvidia-docker2 on Docker before 19.03",
            "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker",
            "docker info --format '{{json .Runtimes}}'",
        ),
    )


#: Docker Desktop for Mac runs containers in a Linux VM that has no GPU: its GPU support is
#: Windows' (WSL 2) only (https://docs.docker.com/desktop/features/gpu/), and Apple's Metal
#: plugin runs natively on macOS only (https://developer.apple.com/metal/tensorflow-plugin/).
_DOCKER_DESKTOP_GPU = "https://docs.docker.com/desktop/features/gpu/"


def mac_host(m: Machine) -> bool:
    """The log shows the container started on a Mac (Docker Desktop's or Podman's VM)."""
    return m.hints is not None and m.hints.container_host == "macos"


def mac_container_fix() -> Fix:
    """No container on a Mac reaches a GPU: Docker Desktop's Linux VM has none (its GPU
    support is WSL 2's, on Windows), so TensorFlow's GPU there is tensorflow-metal, run
    natively on macOS on Apple silicon."""
    return Fix(
        "A container on a Mac runs in Docker Desktop's (or Podman's) Linux VM, which has no "
        "GPU: neither --gpus all nor a -gpu image hands it one (Docker Desktop's GPU support "
        f"is for Windows, {_DOCKER_DESKTOP_GPU}). On Apple silicon, run TensorFlow natively on "
        "macOS with the tensorflow-metal plugin for its GPU; in the container it runs on the "
        "CPU.",
        ("python3 -m pip install tensorflow tensorflow-metal  # on macOS, not in a container",),
    )


def container_gpu_fix(m: Machine) -> Fix:
    """Hand the GPU to the container: the pod's resource limit, podman's CDI device, or
    docker's ``--gpus`` (with the NVIDIA runtime registered once on the host); on a Mac, none
    reaches one (:func:`mac_container_fix`)."""
    if mac_host(m):
        return mac_container_fix()
    if m.container == "kubernetes":
        return Fix(
            "Request the GPU in the pod spec (the NVIDIA device plugin hands it over only to "
            "containers that ask): resources.limits nvidia.com/gpu: 1.",
            ("kubectl describe node | grep -i nvidia.com/gpu",),
        )
    if m.container in ("apptainer", "singularity"):
        # Apptainer binds the host driver's libraries (libcuda, nvidia-smi) and the GPU's
        # device nodes only when asked (https://apptainer.org/docs/user/main/gpu.html).
        return Fix(
            f"{m.container.capitalize()} hands the container the host's NVIDIA driver (libcuda, "
            "nvidia-smi) and the GPU's devices only with --nv (or --nvccli, through the NVIDIA "
            "Container Toolkit): add it to the command.",
            (f"{m.container} exec --nv IMAGE.sif nvidia-smi",),
        )
    if m.container == "podman":
        return Fix(
            "Podman takes the GPU through CDI: generate the specification on the host, then "
            "pass the device.",
            (
                "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml",
                "podman run --device nvidia.com/gpu=all IMAGE",
            ),
        )
    # Compose's GPU access: https://docs.docker.com/compose/how-tos/gpu-support/
    return Fix(
        "Start the container with GPU access through the NVIDIA Container Toolkit (formerly "
        "nvidia-docker), which mounts the host driver's libraries (libcuda) and devices into "
        "it; if `--gpus` is refused, register the NVIDIA runtime with Docker on the host once. "
        "With Docker Compose, the service's deploy.resources.reservations.devices entry "
        "(driver: nvidia, count: all, capabilities: [gpu]) hands it over.",
        (
            "docker run --gpus all IMAGE",
            "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker",
        ),
    )


def nccl_shm_fix() -> Fix:
    """A /dev/shm big enough for NCCL: the container's shm size or the host's IPC namespace."""
    return Fix(
        "Give the container a larger /dev/shm: `docker run --shm-size=1g` (or `--ipc=host`); "
        "on Kubernetes mount an emptyDir with medium: Memory at /dev/shm. Check the size with "
        "`df -h /dev/shm`. As a last resort NCCL_SHM_DISABLE=1 makes NCCL avoid shared memory, "
        "at a cost in speed.",
        ("df -h /dev/shm",),
    )


def host_python_leak_fix(tool: str, path: str) -> Fix:
    """The container run with the host's environment and home kept out (``tool``: the
    command the log shows, apptainer, singularity, docker or podman; ``path``: the host's
    package that was imported), so the image's own packages are imported."""
    if tool in ("docker", "podman"):
        return Fix(
            f"The container imported {path} from the host: mount only the project's directory "
            "(not the home directory, whose .local holds the host's user site-packages), do "
            "not pass PYTHONPATH into it, and set PYTHONNOUSERSITE=1, so the image's own "
            "packages are imported.",
            (f"{tool} run -e PYTHONNOUSERSITE=1 -v $PWD:/work -w /work IMAGE python ...",),
        )
    return Fix(
        f"The container imported {path} from the host: run it with a clean environment "
        "(--cleanenv drops PYTHONPATH and the rest of the host's variables) and without the "
        "host's user site-packages (PYTHONNOUSERSITE=1, or --no-home), so the image's own "
        "packages are imported.",
        (
            f"{tool} exec --cleanenv --env PYTHONNOUSERSITE=1 IMAGE.sif python ...",
            "unset PYTHONPATH",
        ),
    )


def gpus_flag_fix(tool: str) -> Fix:
    """A container CLI that refused ``--gpus`` (``tool``: ``docker`` or ``podman``): Docker's
    CLI took the flag in 19.03; Podman takes an NVIDIA GPU as a CDI device."""
    if tool == "podman":
        return Fix(
            "This Podman has no --gpus: it takes the GPU as a CDI device. Generate NVIDIA's CDI "
            "specification on the host once (again after a driver upgrade), then pass the "
            "device instead of --gpus.",
            (
                "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml",
                "podman run --rm --device nvidia.com/gpu=all IMAGE nvidia-smi",
            ),
        )
    return Fix(
        "This Docker CLI predates --gpus (added in Docker 19.03): upgrade Docker to 19.03 or "
        "later, install the NVIDIA Container Toolkit on the host and register it, then start "
        "the container with --gpus all (on an older Docker kept as it is, nvidia-docker2's "
        "--runtime=nvidia).",
        (
            "docker version --format '{{.Client.Version}} {{.Server.Version}}'",
            "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker",
            "docker run --rm --gpus all IMAGE nvidia-smi",
        ),
    )


def cdi_spec_fix(tool: Optional[str]) -> Fix:
    """A CDI device (``nvidia.com/gpu=...``) no specification on the host names: generate
    NVIDIA's specification (again after each driver upgrade) and list what it names."""
    run = (
        "docker run --rm --device nvidia.com/gpu=all IMAGE nvidia-smi"
        if tool == "docker"
        else "podman run --rm --device nvidia.com/gpu=all IMAGE nvidia-smi"
    )
    daemon = (
        " Docker's daemon reads CDI specifications only with its CDI feature on "
        '("features": {"cdi": true} in /etc/docker/daemon.json, then restart Docker).'
        if tool == "docker"
        else ""
    )
    return Fix(
        "No CDI specification on the host names this GPU device: generate NVIDIA's on the host "
        "with the NVIDIA Container Toolkit (and again after every driver upgrade, which makes "
        "the old one stale), check the names it lists, and ask for one of them." + daemon,
        (
            "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml",
            "nvidia-ctk cdi list",
            run,
        ),
    )


#: A GPU node's containerd set up with the NVIDIA runtime as its default, which is what hands
#: the device plugin's pod (started without a RuntimeClass) the driver
#: (https://github.com/NVIDIA/k8s-device-plugin#prerequisites).
_CONTAINERD_NVIDIA_DEFAULT = (
    "sudo nvidia-ctk runtime configure --runtime=containerd --set-as-default && "
    "sudo systemctl restart containerd"
)


def k8s_gpu_capacity_fix() -> Fix:
    """No node with a free ``nvidia.com/gpu``: the resource is advertised only by the NVIDIA
    device plugin on nodes whose container runtime hands GPUs over; else every GPU is taken."""
    return Fix(
        "No node offers a free nvidia.com/gpu. See which nodes advertise it (Capacity and "
        "Allocatable) and how much is allocated: where none does, the NVIDIA device plugin (or "
        "the GPU Operator) is not running on the GPU nodes, or their container runtime is not "
        "set up with the NVIDIA Container Toolkit; where all are allocated, free GPUs or "
        "lower the pod's resources.limits nvidia.com/gpu.",
        (
            "kubectl describe nodes | grep -E '^Name:|nvidia.com/gpu'",
            "kubectl get pods -A -o wide | grep -i nvidia-device-plugin",
            _CONTAINERD_NVIDIA_DEFAULT,
        ),
    )


#: The file libnvidia-container found already there, under the container's root filesystem
#: (``.../merged/usr/lib/aarch64-linux-gnu/libcuda.so.1: file exists``): its directory.
_MOUNTED_FILE = re.compile(r"/merged(?P<dir>/[\w./+-]+)/[\w.+-]+: file exists")


#: The toolkit's packages upgraded with the host's package manager (NVIDIA's install guide:
#: apt-get on Debian and Ubuntu, dnf (yum) on RHEL, Fedora and Amazon Linux, zypper on SUSE).
_TOOLKIT_PACKAGES = "nvidia-container-toolkit libnvidia-container1 libnvidia-container-tools"
_TOOLKIT_UPGRADE = {
    "apt": f"sudo apt-get install -y --only-upgrade {_TOOLKIT_PACKAGES}",
    "dnf": f"sudo dnf upgrade -y {_TOOLKIT_PACKAGES}",
    "yum": f"sudo yum update -y {_TOOLKIT_PACKAGES}",
    "zypper": f"sudo zypper update -y {_TOOLKIT_PACKAGES}",
}


def toolkit_stage_fix(line: str, packager: Optional[str] = None) -> Fix:
    """The NVIDIA Container Toolkit's CLI failing after it found the driver (``line``: its
    message): a device the host does not have, a driver library already in the image, the
    devices cgroup it cannot program, else its own debug output says which step; ``packager``:
    the host's package manager, where the log shows it (``apt``, ``dnf``, ``yum``,
    ``zypper``)."""
    debug = "sudo nvidia-container-cli -k -d /dev/tty info"
    if "unknown device" in line:
        return Fix(
            "The container asked for a GPU the host does not have (an index, UUID or bus ID "
            "the driver does not list): pass one that `nvidia-smi -L` lists on the host, or "
            "--gpus all.",
            ("nvidia-smi -L", "docker run --rm --gpus all IMAGE nvidia-smi -L"),
        )
    if "file exists" in line:
        # libnvidia-container creates each driver file it mounts; the image already holding
        # one (copied in, or a `docker commit` of a container run with GPUs) makes it fail.
        # The message names the file under the container's root (after overlayfs' merged/):
        # its directory is the image's, aarch64-linux-gnu on an Arm host.
        named = _MOUNTED_FILE.search(line)
        where = named.group("dir") if named is not None else "/usr/lib/x86_64-linux-gnu"
        return Fix(
            "The image already holds a file the toolkit mounts from the host's driver (the "
            "path in the message): the driver's libraries were copied into it, or it was "
            "committed from a container that ran with GPUs. Build the image without them "
            "(remove the COPY or RUN that put them there) and start it again with --gpus.",
            (
                "docker run --rm --entrypoint sh IMAGE -c "
                f"'ls -l {where} | grep -E \"libnvidia|libcuda\"'",
            ),
        )
    if "cgroup" in line:
        return Fix(
            "The toolkit could not program the container's devices cgroup: a "
            "libnvidia-container without cgroup v2 support (before 1.8.0) on a cgroup v2 host, "
            "or a rootless runtime. Upgrade the NVIDIA Container Toolkit"
            + (
                ""
                if packager in _TOOLKIT_UPGRADE
                else f" ({_TOOLKIT_PACKAGES}) with the host's package manager, from NVIDIA's "
                "repository"
            )
            + "; for rootless Podman hand the GPU over as a CDI device instead of the hook.",
            (
                "nvidia-container-cli --version",
                *((_TOOLKIT_UPGRADE[packager],) if packager in _TOOLKIT_UPGRADE else ()),
                "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml",
            ),
        )
    return Fix(
        "The NVIDIA Container Toolkit failed while handing the GPU to the container; its own "
        "debug output on the host names the step. Upgrade the toolkit if it is old, and check "
        "/etc/nvidia-container-runtime/config.toml (the ldconfig path it runs).",
        (debug, "nvidia-ctk --version"),
    )


def toolkit_host_driver_fix() -> Fix:
    """The toolkit, on the host, found no working NVIDIA driver there: the host's driver is
    what to load or install; nothing inside the image changes that."""
    return Fix(
        "The NVIDIA Container Toolkit runs on the host and found no working NVIDIA driver "
        "there: install the host's driver or load its kernel module (a driver upgraded "
        "without a reboot leaves none loaded), until nvidia-smi answers on the host; then "
        "start the container again. Installing CUDA or a driver inside the image changes "
        "nothing.",
        ("nvidia-smi", "lsmod | grep nvidia", "sudo modprobe nvidia"),
    )


def mounted_driver_path_fix(command: str) -> Fix:
    """The host driver's user-space libraries not found inside a container ``command`` started
    with the GPU handed over: the NVIDIA runtime mounted them, and the image's loader path
    hides them. nvidia-docker 1 mounted the driver's volume at /usr/local/nvidia, which the
    CUDA images' ``ENV LD_LIBRARY_PATH`` lists (nvidia/cuda Dockerfiles: "ENV
    LD_LIBRARY_PATH /usr/local/nvidia/lib:/usr/local/nvidia/lib64"); the NVIDIA Container
    Toolkit puts them in the system library directory and refreshes ldconfig's cache
    (https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/arch-overview.html)."""
    return Fix(
        f"The container was started with the GPU handed over ('{command[:120]}'): the NVIDIA "
        "runtime mounts the host driver's libraries (libnvidia-ml, libcuda) into it, so the "
        "image's loader path is what misses them. nvidia-docker 1 mounts them under "
        "/usr/local/nvidia, which the CUDA images put on LD_LIBRARY_PATH: an image that sets "
        "LD_LIBRARY_PATH outright instead of extending it drops that directory; the NVIDIA "
        "Container Toolkit puts them in the system library directory, found through ldconfig's "
        "cache. Extend the image's path (ENV LD_LIBRARY_PATH=/usr/local/nvidia/lib:"
        "/usr/local/nvidia/lib64:${LD_LIBRARY_PATH}) or run ldconfig in it. Where nvidia-smi "
        "fails on the host too, the host's driver is what is missing.",
        (
            "nvidia-smi",
            # The container a start like the one shown runs, looked into: its own command may
            # have ended it (``--rm ... nvidia-smi``), so ``exec`` may find none running.
            f"{_gpu_start(command)} --rm --entrypoint sh IMAGE -c 'echo $LD_LIBRARY_PATH; "
            'ls /usr/local/nvidia/lib64; ldconfig -p | grep -E "libnvidia-ml|libcuda"\'',
        ),
    )


def _gpu_start(command: str) -> str:
    """The tool and GPU flags of the container start ``command`` (``nvidia-docker run``,
    ``docker run --gpus all``, ``docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=all``,
    ``podman run --device nvidia.com/gpu=all``), to start another container as it did."""
    if command.startswith("nvidia-docker"):
        return "nvidia-docker run"
    tool = "podman" if command.startswith("podman") else "docker"
    if "--gpus" in command:
        return f"{tool} run --gpus all"
    if "nvidia.com/gpu" in command:
        return f"{tool} run --device nvidia.com/gpu=all"
    return f"{tool} run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=all"


def gpu_image_fix(image: str, mac: bool = False) -> Fix:
    """TensorFlow's GPU image in place of its CPU image ``image`` (``tensorflow/tensorflow:TAG``):
    the same tag with ``-gpu``, before its ``-py3`` and ``-jupyter`` where it has them
    (https://www.tensorflow.org/install/docker: ``latest-gpu-jupyter``; 1.x's and 2.0-2.1's
    ``1.15.5-gpu-py3``, ``2.1.0-gpu-py3-jupyter``); ``mac``: the container runs on a Mac,
    where no image reaches a GPU (:func:`mac_container_fix`)."""
    if mac:
        return mac_container_fix()
    repo, _, tag = image.partition(":")
    cut = min((i for i in (tag.find("-py3"), tag.find("-jupyter")) if i >= 0), default=len(tag))
    gpu_tag = f"{tag[:cut]}-gpu{tag[cut:]}"
    return Fix(
        f"{image} is TensorFlow's CPU image: it has no CUDA libraries, so TensorFlow lists no "
        f"GPU whatever the container is given. Run its GPU image, {repo}:{gpu_tag}, with "
        "--gpus all (the NVIDIA Container Toolkit on the host hands it the driver).",
        (f"docker run --gpus all --rm {repo}:{gpu_tag} nvidia-smi",),
    )


def image_platform_fix(script: bool, tool: str = "docker") -> Fix:
    """An image of the host's platform (pulled or built with ``--platform``), or QEMU's
    handlers registered to emulate the image's; ``script``: the file refused may be a script,
    which the kernel refuses alike when its first line is not ``#!``; ``tool``: the one the
    log shows running the container (``docker``, ``podman``, ``kubernetes``)."""
    shebang = (
        " If the file refused is a script of the image's own, the same words mean its first "
        "line is not a #! line (#!/bin/sh): add one."
        if script
        else ""
    )
    if tool == "kubernetes":
        # The node's architecture is the well-known label kubernetes.io/arch
        # (https://kubernetes.io/docs/reference/labels-annotations-taints/#kubernetes-io-arch).
        return Fix(
            "The pod's image is built for another architecture than the node it was scheduled "
            "on. Compare the image's platforms with the nodes' (the kubernetes.io/arch label); "
            "use an image built for the node's platform (or a multi-platform one), or keep the "
            "pod on nodes of the image's with a nodeSelector on kubernetes.io/arch." + shebang,
            ("kubectl get nodes -L kubernetes.io/arch",),
        )
    # Podman takes the same --platform and the same binfmt registration
    # (https://docs.podman.io/en/latest/markdown/podman-build.1.html#platform-os-arch-variant).
    build = "podman build" if tool == "podman" else "docker buildx build"
    server = (
        "podman info --format '{{.Host.OS}}/{{.Host.Arch}}'"
        if tool == "podman"
        else "docker version --format '{{.Server.Os}}/{{.Server.Arch}}'"
    )
    sudo = "sudo " if tool == "podman" else ""
    return Fix(
        "Compare the image's platform with the host's; where they differ, use an image built "
        f"for the host's platform (pull it with --platform, or build it with {build} "
        "--platform linux/arm64 or linux/amd64 from a base image that has it), or register "
        "QEMU's emulation of the image's platform on the host, which runs TensorFlow slowly."
        + shebang,
        (
            f"{tool} image inspect IMAGE --format '{{{{.Os}}}}/{{{{.Architecture}}}}'",
            server,
            f"{sudo}{tool} run --privileged --rm tonistiigi/binfmt --install all",
        ),
    )


def device_plugin_fix() -> Fix:
    """NVIDIA's device plugin without the driver in its pod: the node's container runtime
    configured with the NVIDIA runtime (as its default, or a RuntimeClass the plugin runs
    with), after the driver answers on the node (k8s-device-plugin's prerequisites)."""
    return Fix(
        "NVIDIA's device plugin runs in a pod that the node's container runtime did not hand "
        "the driver, so the node advertises no nvidia.com/gpu. On each GPU node: check that the "
        "driver answers, configure containerd (or CRI-O) with the NVIDIA runtime as its default "
        "and restart it, then restart the plugin's pod (or run the plugin with a RuntimeClass "
        "named nvidia) and check that the node lists nvidia.com/gpu. On nodes without a GPU, "
        "keep the plugin off with a nodeSelector.",
        (
            "nvidia-smi",
            _CONTAINERD_NVIDIA_DEFAULT,
            "kubectl describe nodes | grep -E '^Name:|nvidia.com/gpu'",
        ),
    )


#: NVIDIA's notice on containers losing the GPU after ``systemctl daemon-reload`` under
#: systemd's cgroup driver, with its workarounds (the /dev/char symlinks, cgroupfs).
NVML_CGROUP_NOTICE = "https://github.com/NVIDIA/nvidia-container-toolkit/issues/48"


def nvml_cgroup_fix(tool: str = "docker") -> Fix:
    """NVML's ``Unknown Error`` inside a container: its devices cgroup no longer lets it open
    the GPU (systemd re-applied the unit's cgroup on a daemon reload), or never did; ``tool``:
    the one the log shows running the container (``docker``, ``podman``, ``kubernetes``)."""
    symlinks = "sudo nvidia-ctk system create-dev-char-symlinks --create-all"
    if tool == "kubernetes":
        return Fix(
            "Inside a container NVML's 'Unknown Error' means the container may no longer open "
            "the GPU's device nodes. Where the GPU worked in the pod before, a `systemctl "
            "daemon-reload` on a node whose container runtime uses systemd's cgroup driver "
            "took the access: recreate the pod now; to keep it, create the /dev/char symlinks "
            "NVIDIA's toolkit makes on each GPU node. Where it never worked, request "
            "nvidia.com/gpu in the pod's resource limits.",
            ("kubectl delete pod POD  # its controller starts it again", symlinks),
        )
    where = (
        "start the container with the GPU as a CDI device (--device nvidia.com/gpu=all)"
        if tool == "podman"
        else "start the container with --gpus all"
    )
    # Docker's cgroupfs driver is what NVIDIA's notice offers for Docker (daemon.json).
    driver = "" if tool == "podman" else " (NVIDIA's notice also offers Docker's cgroupfs driver)"
    return Fix(
        "Inside a container NVML's 'Unknown Error' means the container may no longer open the "
        "GPU's device nodes. Where the GPU worked in it before, a `systemctl daemon-reload` on "
        f"a host whose {tool.capitalize()} uses systemd's cgroup driver took the access: "
        "restart the container now; to keep it, create the /dev/char symlinks NVIDIA's "
        f"toolkit makes{driver}. Where it never worked, {where}.",
        (f"{tool} restart CONTAINER", symlinks),
    )


def gpu_node_fix(tool: str) -> Fix:
    """Apptainer's ``--nv`` on a node with no NVIDIA driver (``tool``: apptainer or
    singularity): the job belongs on a GPU node, which a batch system gives when asked."""
    return Fix(
        f"{tool.capitalize()}'s --nv found no NVIDIA driver on this node: it has no GPU (a "
        "login or CPU-only node). Run the job on a GPU node: ask the batch system for a GPU "
        "(Slurm: --gres=gpu:1 or --gpus=1, on the cluster's GPU partition), then check "
        "nvidia-smi there.",
        (f"srun --gres=gpu:1 {tool} exec --nv IMAGE.sif nvidia-smi",),
    )


#: The CUDA an image is built for and the driver floor it asks of the host (its environment,
#: as NVIDIA's images set CUDA_VERSION and NVIDIA_REQUIRE_CUDA).
_IMAGE_CUDA = (
    "docker image inspect IMAGE --format '{{range .Config.Env}}{{println .}}{{end}}' "
    "| grep -E 'CUDA_VERSION|NVIDIA_REQUIRE_CUDA'"
)


def ngc_driver_fix(required: Optional[str], detected: Optional[str]) -> Fix:
    """An NGC image whose start-up check refused the host's driver (``required``: the driver
    release the image names; ``detected``: the host's, where the log shows it). A container
    runs on the host's driver; forward compatibility (the image's cuda-compat libraries) runs
    a newer CUDA only on data-center GPUs, and the check says it is unavailable here."""
    needs = f"NVIDIA driver {required} or later" if required else "a newer NVIDIA driver"
    has = f" (the host has {detected})" if detected else ""
    return Fix(
        f"The image was built for {needs}{has}, and its start-up check found forward "
        "compatibility unavailable on this GPU: a container uses the host's driver, so "
        f"upgrade the driver on the host to {required or 'the release the image names'} or "
        "later, or run an earlier release of the image whose driver requirement this driver "
        "meets (NVIDIA's framework support matrix lists each release's driver).",
        (
            "nvidia-smi  # on the host: the driver's version",
            _IMAGE_CUDA,
        ),
    )


def image_cuda_driver_fix(m: Machine, cuda: Optional[str]) -> Fix:
    """The host's driver below what the image's CUDA ``cuda`` needs (the NVIDIA Container
    Toolkit's check of the image's NVIDIA_REQUIRE_CUDA): a newer driver on the host, or an
    image of an older CUDA. The check compares ``cuda`` with the CUDA release the driver
    reports (NVML's; libnvidia-container src/cli/configure.c and src/driver.c), so its floor
    is the driver that CUDA release shipped with (the matrix's CUDA table), not the lower one
    minor version compatibility would let run. A Windows host's driver (Docker Desktop's WSL 2
    included) reports its Windows version number, so its floor is the Windows one."""
    from tfdoctor.compat import toolkit_driver  # noqa: PLC0415 - avoids a cycle at import

    host = "windows" if m.wsl or m.os == "windows" else "linux"
    least = toolkit_driver(m.matrix, cuda, host) if m.matrix is not None and cuda else None
    needs = f"CUDA {cuda}" if cuda else "its CUDA"
    floor = f" (the driver CUDA {cuda} shipped with, {least}, or newer)" if least else ""
    return Fix(
        f"The image is built for {needs}, and the NVIDIA Container Toolkit found the host's "
        f"driver older than that needs{floor}. A container runs on the host's driver: upgrade "
        "the driver on the host, or run an image of an older CUDA that this driver runs (for "
        "TensorFlow, the -gpu tag of an older release: `tfdoctor matrix` lists each release's "
        "CUDA).",
        (
            "nvidia-smi  # on the host: the driver's version",
            _IMAGE_CUDA,
        ),
    )
