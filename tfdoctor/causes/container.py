"""Causes in how a container was started: GPU access, the size of its shared memory."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.findings import Fix
from tfdoctor.machine import Machine

#: The ids of this area's causes, as checks, explain and scan name them.
CONTAINER_NO_GPU: Final = CauseId("container-no-gpu")
NCCL_SHM_TOO_SMALL: Final = CauseId("nccl-shm-too-small")
CONTAINER_HOST_PYTHON_LEAK: Final = CauseId("container-host-python-leak")

#: Apptainer's (Singularity's) environment and bind rules: the host's environment passes into
#: the container unless --cleanenv, and the home directory is bound by default.
_APPTAINER_ENV = "https://apptainer.org/docs/user/main/environment_and_metadata.html"
_APPTAINER_BIND = "https://apptainer.org/docs/user/main/bind_paths_and_mounts.html"

NVIDIA_CONTAINER_TOOLKIT = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"
)


_NCCL_ENV = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-shm-disable"


_DOCKER_RUN = "https://docs.docker.com/reference/cli/docker/container/run/"


#: Causes in the container's start: GPU access, shared memory, the host's environment.
CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            CONTAINER_HOST_PYTHON_LEAK,
            "The container's Python imports packages from the host",
            "Apptainer (Singularity) passes the host's environment into the container and "
            "binds the home directory by default: PYTHONPATH, and the user site-packages or an "
            "environment under the home directory, put the host's packages before the image's "
            "own, and a package of another release or Python build fails to import there.",
            _APPTAINER_ENV,
            _APPTAINER_BIND,
        ),
        define(
            CONTAINER_NO_GPU,
            "The container was started without GPU access",
            "Containers see a GPU only when started through the NVIDIA Container Toolkit (`docker"
            " run --gpus all`, a Kubernetes `nvidia.com/gpu` resource limit).",
            NVIDIA_CONTAINER_TOOLKIT,
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


def container_gpu_fix(m: Machine) -> Fix:
    """Hand the GPU to the container: the pod's resource limit, podman's CDI device, or
    docker's ``--gpus`` (with the NVIDIA runtime registered once on the host)."""
    if m.container == "kubernetes":
        return Fix(
            "Request the GPU in the pod spec (the NVIDIA device plugin hands it over only to "
            "containers that ask): resources.limits nvidia.com/gpu: 1.",
            ("kubectl describe node | grep -i nvidia.com/gpu",),
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
    return Fix(
        "Start the container with GPU access through the NVIDIA Container Toolkit (formerly "
        "nvidia-docker), which mounts the host driver's libraries (libcuda) and devices into "
        "it; if `--gpus` is refused, register the NVIDIA runtime with Docker on the host once.",
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
    command the log shows, apptainer or singularity; ``path``: the host's package that was
    imported), so the image's own packages are imported."""
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
