"""explain on the words of container runtimes and NVIDIA's Container Toolkit: the GPU refused
by the CLI, the daemon, the toolkit's stages, CDI and Kubernetes' scheduler, each with the
step on the host that hands the GPU over (lines written in each program's own format)."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained, fix_text, readings, top_error
from tfdoctor.evidence.devices import (
    apptainer_shown,
    container_run_with_gpu,
    container_run_without_gpu,
    container_shares_host_python,
    host_packager,
    tf_cpu_image,
    tf_image_release,
)
from tfdoctor.findings import Severity

HOOK = (
    "docker: Error response from daemon: failed to create task for container: failed to create "
    "shim task: OCI runtime create failed: runc create failed: unable to start container "
    "process: error during container init: error running hook #0: error running hook: exit "
    "status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
)
RUN = "$ docker run --gpus all --rm tensorflow/tensorflow:2.16.1-gpu nvidia-smi\n"


def _no_gpu_fix(log: str) -> str:
    """The fix of the log's top finding, asserted to be an error of container-no-gpu."""
    top = top_error(explained(log))
    assert top.cause == "container-no-gpu"
    return fix_text(top)


def test_dockers_cli_without_gpus_asks_for_docker_19_03_and_the_toolkit() -> None:
    text = _no_gpu_fix(RUN + "unknown flag: --gpus\nSee 'docker run --help'.\n")
    assert "19.03" in text and "nvidia-ctk runtime configure --runtime=docker" in text
    assert "cdi generate" not in text


def test_podmans_cli_without_gpus_asks_for_the_cdi_device() -> None:
    log = (
        "$ podman run --gpus all tensorflow/tensorflow:2.16.1-gpu python train.py\n"
        "Error: unknown flag: --gpus\nSee 'podman run --help'\n"
    )
    text = _no_gpu_fix(log)
    assert "nvidia-ctk cdi generate" in text and "--device nvidia.com/gpu=all" in text
    assert "19.03" not in text


@pytest.mark.parametrize(
    ("line", "docker"),
    [
        pytest.param(
            "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all",
            False,
            id="podman",
        ),
        pytest.param(
            "docker: Error response from daemon: CDI device injection failed: unresolvable CDI "
            "devices nvidia.com/gpu=1.",
            True,
            id="docker",
        ),
    ],
)
def test_an_unresolvable_cdi_device_asks_for_nvidias_cdi_specification(
    line: str, docker: bool
) -> None:
    text = _no_gpu_fix(line + "\n")
    assert "nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml" in text
    assert "nvidia-ctk cdi list" in text
    assert ('"cdi": true' in text) is docker


def test_kubernetes_without_a_free_gpu_looks_at_the_nodes_and_the_device_plugin() -> None:
    log = (
        "  Warning  FailedScheduling  2m  default-scheduler  0/4 nodes are available: 1 node(s) "
        "had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 Insufficient "
        "nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found.\n"
    )
    text = _no_gpu_fix(log)
    assert "kubectl describe nodes" in text and "nvidia-device-plugin" in text
    assert "docker run" not in text
    # The device plugin's pod gets the driver only from containerd's default runtime.
    assert "--runtime=containerd --set-as-default" in text


@pytest.mark.parametrize(
    ("line", "words"),
    [
        pytest.param(
            "nvidia-container-cli: device error: 3: unknown device: unknown.",
            "nvidia-smi -L",
            id="device",
        ),
        pytest.param(
            "nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/"
            "9a8b/merged/usr/lib/x86_64-linux-gnu/libcuda.so.1: file exists: unknown.",
            "Build the image without them",
            id="mount-file-exists",
        ),
        pytest.param(
            "nvidia-container-cli: container error: cgroup subsystem devices not found: unknown.",
            "cgroup v2",
            id="cgroup",
        ),
        pytest.param(
            "nvidia-container-cli: ldcache error: process /sbin/ldconfig failed with error code: "
            "127: unknown.",
            "nvidia-container-cli -k -d /dev/tty info",
            id="ldcache",
        ),
    ],
)
def test_the_toolkits_stages_after_the_driver_each_get_their_own_step(
    line: str, words: str
) -> None:
    assert words in _no_gpu_fix(RUN + HOOK + line + "\n")


def test_a_driver_file_already_in_the_image_is_looked_for_in_the_directory_named() -> None:
    line = (
        "nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/"
        "9a8b/merged/usr/lib/aarch64-linux-gnu/libcuda.so.1: file exists: unknown.\n"
    )
    text = _no_gpu_fix(RUN + HOOK + line)
    assert "ls -l /usr/lib/aarch64-linux-gnu |" in text and "x86_64" not in text


@pytest.mark.parametrize(
    "line",
    [
        "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown.",
        "nvidia-container-cli: initialization error: driver error: failed to process request: "
        "unknown.",
    ],
    ids=["nvml", "rpc"],
)
def test_the_toolkit_finding_no_driver_is_the_hosts_driver_not_the_containers_start(
    line: str,
) -> None:
    top = top_error(explained(RUN + HOOK + line + "\n"))
    assert top.cause == "driver-not-loaded"
    text = fix_text(top)
    assert "on the host" in text and "nvidia-smi" in text
    # Not the container's flags: --gpus was given, and the toolkit ran.
    assert "docker run --gpus all IMAGE" not in text


def test_a_runtime_registered_but_not_installed_asks_to_install_the_toolkit() -> None:
    log = (
        "docker: Error response from daemon: failed to create task for container: failed to "
        "create shim task: OCI runtime create failed: unable to retrieve OCI runtime error "
        "(open /run/containerd/io.containerd.runtime.v2.task/moby/5f1e/log.json: no such file "
        'or directory): exec: "nvidia-container-runtime": executable file not found in $PATH: '
        "unknown.\n"
    )
    assert "apt-get install -y nvidia-container-toolkit" in _no_gpu_fix(log)


_NGC_WITHOUT_DRIVER = (
    "================\n== TensorFlow ==\n================\n\n"
    "NVIDIA Release 24.02-tf2 (build 83211111)\nTensorFlow Version 2.15.0\n\n"
    "WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.\n"
    "   Use the NVIDIA Container Toolkit to start this container with GPU support; see\n"
    "   https://docs.nvidia.com/datacenter/cloud-native/ .\n"
)
_HOST_SMI = (
    "$ nvidia-smi\n"
    "| NVIDIA-SMI 535.129.03             Driver Version: 535.129.03   CUDA Version: 12.2     |\n"
    "|   0  NVIDIA GeForce RTX 3090        Off | 00000000:01:00.0 Off |                  N/A |\n"
    "$ docker run -it --rm nvcr.io/nvidia/tensorflow:24.02-tf2-py3\n"
)


def test_nvidias_image_started_without_the_driver_is_a_note_on_a_machine_meant_for_the_cpu() -> (
    None
):
    report = explained(_NGC_WITHOUT_DRIVER)
    assert readings(report) == []
    (found,) = [x for x in report.findings if x.cause == "container-no-gpu"]
    assert found.severity is Severity.INFO and "--gpus all" in fix_text(found)


def test_nvidias_image_started_without_the_driver_on_a_gpu_host_is_an_error() -> None:
    top = top_error(explained(_HOST_SMI + _NGC_WITHOUT_DRIVER))
    assert top.cause == "container-no-gpu" and "--gpus all" in fix_text(top)


_CUDA_BANNER = (
    "\n==========\n== CUDA ==\n==========\n\nCUDA Version 12.2.2\n\n"
    "WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.\n"
    "   Use the NVIDIA Container Toolkit to start this container with GPU support; see\n"
    "   https://docs.nvidia.com/datacenter/cloud-native/ .\n"
)
#: An early image (TensorRT Inference Server 19.x) printing the refusal without a driver; the
#: nvidia_entrypoint.sh whose source is public (2018 on) runs checkSMVER.sh only where it
#: found libcuda.so.1 and /dev/nvidiactl, so a recent image run without a GPU prints the
#: driver warning instead.
_NO_SUPPORTED_GPU = (
    "\n===============================\n== TensorRT Inference Server ==\n"
    "===============================\n\nNVIDIA Release 19.02 (build 5627011)\n\n"
    "ERROR: No supported GPU(s) detected to run this container\n"
)


_TOOLKIT = "NVIDIA Container Toolkit"


@pytest.mark.parametrize(
    ("log", "fix"),
    [
        pytest.param(
            "$ docker run --rm -it acme/segmenter:1.2\n" + _CUDA_BANNER, _TOOLKIT, id="banner"
        ),
        pytest.param(
            "user@box:~/proj$ sudo docker run -it --shm-size=2g acme-infer\n" + _NO_SUPPORTED_GPU,
            _TOOLKIT,
            id="no-supported-gpu",
        ),
        pytest.param(
            "$ podman run --rm \\\n    -v $PWD:/w acme/train:3\n" + _CUDA_BANNER,
            "--device nvidia.com/gpu=all",
            id="continued-podman",
        ),
    ],
)
def test_nvidias_image_check_after_a_run_without_a_gpu_flag_is_a_container_without_gpu(
    log: str, fix: str
) -> None:
    (found,) = [x for x in explained(log).findings if x.cause == "container-no-gpu"]
    assert found.severity is Severity.WARNING and fix in fix_text(found)


@pytest.mark.parametrize(
    ("log", "why"),
    [
        pytest.param(
            "$ docker run --gpus all --rm acme/segmenter:1.2\n" + _CUDA_BANNER,
            "GPU flag",
            id="gpu-flag",
        ),
        pytest.param(
            "#6 [2/4] RUN /opt/nvidia/nvidia_entrypoint.sh python -c 'print(1)'\n" + _CUDA_BANNER,
            "build's step",
            id="build-step",
        ),
        pytest.param(
            "Step 3/7 : RUN /opt/nvidia/nvidia_entrypoint.sh true\n"
            " ---> Running in 4c1f0e9a2b3d\n" + _CUDA_BANNER,
            "build's step",
            id="classic-build-step",
        ),
        pytest.param(
            "$ docker run --rm acme/segmenter:1.2\n"
            + _CUDA_BANNER
            + "2024-05-01 10:00:00.000000: I tensorflow/core/common_runtime/gpu/"
            "gpu_device.cc:1928] Created device /job:localhost/replica:0/task:0/device:GPU:0 "
            "with 22000 MB memory:  -> device: 0, name: NVIDIA A10G, pci bus id: 0000:00:1e.0, "
            "compute capability: 8.6\n",
            "GPU is reached after it",
            id="gpu-after",
        ),
        pytest.param(
            "$ docker run --rm acme-infer\n"
            "WARNING: Detected NVIDIA NVIDIA GeForce RTX 5090 GPU, which is not yet supported in "
            "this version of the container\n" + _NO_SUPPORTED_GPU,
            "names a GPU it found",
            id="check-names-a-gpu",
        ),
        pytest.param(
            # A daemon whose default runtime is NVIDIA's hands the GPU over without a flag;
            # deviceQuery names Tesla boards without "NVIDIA".
            "$ docker run --rm acme-infer\n"
            "ERROR: Detected Tesla K80 GPU, which is not supported by this container\n"
            + _NO_SUPPORTED_GPU,
            "names a GPU it found",
            id="check-names-a-tesla",
        ),
        pytest.param(
            # A plain run first, then nvidia-docker's, which adds the NVIDIA runtime itself.
            "$ docker run --rm acme-infer\nbash: nvidia-smi: command not found\n"
            "$ nvidia-docker run --rm acme-infer\n" + _NO_SUPPORTED_GPU,
            "nvidia-docker",
            id="nvidia-docker-after-a-plain-run",
        ),
    ],
)
def test_nvidias_image_check_is_a_note_where_the_log_shows_otherwise(log: str, why: str) -> None:
    report = explained(log)
    assert readings(report) == []
    (found,) = [x for x in report.findings if x.cause == "container-no-gpu"]
    assert found.severity is Severity.INFO and why in found.detail


def test_nvidias_image_check_with_no_run_shown_stays_a_note() -> None:
    (found,) = [x for x in explained(_NO_SUPPORTED_GPU).findings if x.cause == "container-no-gpu"]
    assert found.severity is Severity.INFO


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(
            "$ sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml\n"
            "INFO[0000] Auto-detected mode as 'nvml'\n"
            "INFO[0000] Selecting /dev/nvidia0 as /dev/nvidia0\n"
            "INFO[0000] Generated CDI spec with version 0.5.0\n",
            id="cdi-generate",
        ),
        pytest.param(
            "$ sudo nvidia-ctk runtime configure --runtime=docker\n"
            "INFO[0000] Wrote updated config to /etc/docker/daemon.json\n"
            "INFO[0000] It is recommended that docker daemon be restarted.\n",
            id="runtime-configure",
        ),
        pytest.param(
            "NOTE: The SHMEM allocation limit is set to the default of 64MB.  This may be\n"
            "   insufficient for TensorFlow.  NVIDIA recommends the use of the following flags:\n"
            "   docker run --gpus all --ipc=host --ulimit memlock=-1 --ulimit stack=67108864 ...\n",
            id="ngc-shm-note",
        ),
        pytest.param(
            "  Normal  Scheduled  10s  default-scheduler  Successfully assigned default/tf to "
            "gpu-node-1\n",
            id="k8s-scheduled",
        ),
    ],
)
def test_the_toolkits_and_schedulers_lines_of_a_working_setup_stay_below_warning(log: str) -> None:
    assert readings(explained(log)) == []


_LIBCUDA_MISSING = (
    "2024-02-01 09:00:00.000000: W external/local_tsl/tsl/platform/default/dso_loader.cc:70] "
    "Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared "
    "object file: No such file or directory\n"
    "2024-02-01 09:00:00.000001: W external/local_xla/xla/stream_executor/cuda/"
    "cuda_driver.cc:268] failed call to cuInit: UNKNOWN ERROR (303)\n"
)


@pytest.mark.parametrize(
    ("command", "tool"),
    [
        pytest.param(
            "$ apptainer exec tensorflow_2.15.0-gpu.sif python train.py",
            "apptainer",
            id="apptainer",
        ),
        pytest.param(
            "srun --gres=gpu:1 singularity run tf.sif python train.py", "singularity", id="srun"
        ),
    ],
)
def test_apptainer_without_nv_is_the_container_given_no_driver(command: str, tool: str) -> None:
    (found,) = readings(explained(command + "\n" + _LIBCUDA_MISSING))
    assert found.cause == "container-no-gpu"
    assert f"{tool} exec --nv" in fix_text(found)


def test_apptainer_with_nv_is_not_read_as_a_container_without_the_gpu() -> None:
    log = "$ apptainer exec --nv tf.sif python train.py\n" + _LIBCUDA_MISSING
    assert "container-no-gpu" not in {x.cause for x in readings(explained(log))}


@pytest.mark.parametrize(
    ("text", "without_gpu", "shown"),
    [
        pytest.param("$ apptainer exec tf.sif python x.py\n", "apptainer", "apptainer", id="exec"),
        pytest.param(
            "srun -n 4 singularity shell tf.sif\n", "singularity", "singularity", id="behind-srun"
        ),
        pytest.param("$ apptainer exec --nv tf.sif python x.py\n", None, "apptainer", id="nv"),
        pytest.param("$ singularity run --nvccli tf.sif\n", None, "singularity", id="nvccli"),
        pytest.param(
            "$ apptainer exec --rocm tf-rocm.sif python x.py\n", None, "apptainer", id="rocm"
        ),
        pytest.param(
            "$ apptainer build tf.sif docker://tensorflow/tensorflow\n", None, None, id="build"
        ),
        # The device nodes handed over one by one, as before the NVIDIA runtime, or ROCm's.
        pytest.param(
            "$ docker run --device /dev/nvidia0 --device /dev/nvidiactl tensorflow/tensorflow"
            ":latest-gpu python x.py\n",
            None,
            None,
            id="device-nodes",
        ),
        pytest.param(
            "$ docker run --device=/dev/kfd --device=/dev/dri rocm/tensorflow python x.py\n",
            None,
            None,
            id="rocm-device-nodes",
        ),
        pytest.param(
            "$ docker run --device /dev/ttyUSB0 tensorflow/tensorflow:latest-gpu python x.py\n",
            "docker",
            None,
            id="other-device",
        ),
        # An instance takes its GPU flags as it starts (apptainer instance start --nv).
        pytest.param(
            "$ apptainer instance start tf.sif t1\n", "apptainer", "apptainer", id="instance"
        ),
        pytest.param(
            "$ singularity instance start --nv tf.sif t1\n", None, "singularity", id="instance-nv"
        ),
        pytest.param(
            "$ apptainer instance run tf.sif t1\n", "apptainer", "apptainer", id="instance-run"
        ),
        # A command into a running instance has the flags its start gave it, not its own.
        pytest.param(
            "$ apptainer exec instance://t1 python x.py\n", None, "apptainer", id="into-instance"
        ),
        pytest.param(
            "$ apptainer instance start tf.sif t1\n$ apptainer exec instance://t1 python x.py\n",
            "apptainer",
            "apptainer",
            id="into-instance-started-without",
        ),
    ],
)
def test_apptainers_commands_are_read_alike_with_and_without_a_gpu_flag(
    text: str, without_gpu: Optional[str], shown: Optional[str]
) -> None:
    # One pattern of the commands that start a container serves both readers.
    found = container_run_without_gpu(text)
    assert (found[0] if found else None) == without_gpu
    assert apptainer_shown(text) == shown


_HOME_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/home/bob/proj/train.py", line 2, in <module>\n'
    "    import tensorflow as tf\n"
    '  File "/home/bob/.local/lib/python3.10/site-packages/tensorflow/__init__.py", line 37, '
    "in <module>\n"
    "    from tensorflow.python.tools import module_util as _module_util\n"
    "ImportError: /home/bob/.local/lib/python3.10/site-packages/tensorflow/python/"
    "_pywrap_tensorflow_internal.so: undefined symbol: "
    "_ZN4absl12lts_2023080212log_internal9kCharNullE\n"
)


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(
            "$ docker run --gpus all -v $HOME:$HOME -w $PWD IMAGE python train.py", id="home"
        ),
        pytest.param(
            "$ podman run -e PYTHONPATH=$PYTHONPATH -v /data:/data IMAGE python train.py",
            id="pythonpath",
        ),
    ],
)
def test_a_docker_command_sharing_the_hosts_python_leads_with_the_leak(command: str) -> None:
    top = top_error(explained(command + "\n" + _HOME_TRACEBACK))
    assert top.cause == "container-host-python-leak"
    text = fix_text(top)
    assert "PYTHONNOUSERSITE=1" in text and "--cleanenv" not in text


def test_an_image_with_its_own_pythonpath_and_user_site_is_not_read_as_a_leak() -> None:
    # A multi-stage image's packages under /root/.local, its own PYTHONPATH: nothing the host's.
    traceback = _HOME_TRACEBACK.replace("/home/bob", "/root")
    log = "$ docker run --gpus all -e PYTHONPATH=/app IMAGE python train.py\n" + traceback
    assert "container-host-python-leak" not in {x.cause for x in explained(log).findings}


def test_the_same_traceback_on_a_host_is_not_read_as_a_container_leak() -> None:
    causes = {x.cause for x in explained("$ python train.py\n" + _HOME_TRACEBACK).findings}
    assert "container-host-python-leak" not in causes


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("$ docker run -v $HOME:$HOME IMAGE python x.py\n", "docker", id="home-var"),
        pytest.param("$ docker run -v ~/.local:/root/.local IMAGE\n", "docker", id="local"),
        pytest.param("$ podman run -e PYTHONPATH IMAGE\n", "podman", id="pythonpath"),
        pytest.param(
            "$ docker run --mount type=bind,source=/home/ann,target=/home/ann IMAGE\n",
            "docker",
            id="mount",
        ),
        pytest.param("$ docker run -v /home/ann/data/:/data IMAGE\n", None, id="data-below-home"),
        pytest.param("$ docker run -v $PWD:/work -w /work IMAGE\n", None, id="project"),
        pytest.param(
            "$ docker run -e PYTHONPATH=$PYTHONPATH:/app IMAGE\n", "docker", id="host-pythonpath"
        ),
        pytest.param("$ docker run -e PYTHONPATH=/app/src IMAGE\n", None, id="image-pythonpath"),
        pytest.param('$ docker run -v "$HOME":"$HOME" IMAGE\n', "docker", id="quoted"),
        pytest.param("$ docker run -v $PWD:/root IMAGE\n", None, id="home-in-the-image"),
        pytest.param("$ docker run -v /srv/app:/home/app IMAGE\n", None, id="home-target"),
    ],
)
def test_a_container_command_sharing_the_hosts_python_is_read_as_such(
    text: str, expected: Optional[str]
) -> None:
    found = container_shares_host_python(text)
    assert (found[0] if found else None) == expected


@pytest.mark.parametrize(
    ("image", "gpu_image"),
    [
        pytest.param("tensorflow/tensorflow", "tensorflow/tensorflow:latest-gpu", id="untagged"),
        pytest.param(
            "tensorflow/tensorflow:2.15.0", "tensorflow/tensorflow:2.15.0-gpu", id="release"
        ),
        pytest.param(
            "tensorflow/tensorflow:latest-jupyter",
            "tensorflow/tensorflow:latest-gpu-jupyter",
            id="jupyter",
        ),
        pytest.param(
            "tensorflow/tensorflow:1.15.5-py3",
            "tensorflow/tensorflow:1.15.5-gpu-py3",
            id="py3",
        ),
        pytest.param(
            "tensorflow/tensorflow:2.1.0-py3-jupyter",
            "tensorflow/tensorflow:2.1.0-gpu-py3-jupyter",
            id="py3-jupyter",
        ),
    ],
)
def test_tensorflows_cpu_image_listing_no_gpu_asks_for_its_gpu_tag(
    image: str, gpu_image: str
) -> None:
    log = (
        f'$ docker run --gpus all -it --rm {image} python -c "import tensorflow as tf; '
        "print(tf.config.list_physical_devices('GPU'))\"\n[]\n"
    )
    top = top_error(explained(log))
    assert top.cause == "tf-cpu-only-build"
    assert f"docker run --gpus all --rm {gpu_image} nvidia-smi" in fix_text(top)


def test_tensorflows_gpu_image_listing_no_gpu_is_not_read_as_the_cpu_image() -> None:
    log = (
        '$ docker run --gpus all -it --rm tensorflow/tensorflow:2.15.0-gpu python -c "import '
        "tensorflow as tf; print(tf.config.list_physical_devices('GPU'))\"\n[]\n"
    )
    assert all(x.cause != "tf-cpu-only-build" for x in readings(explained(log)))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "$ docker run -it tensorflow/tensorflow bash\n",
            "tensorflow/tensorflow:latest",
            id="latest",
        ),
        pytest.param(
            "$ podman run docker.io/tensorflow/tensorflow:2.16.1 python x.py\n",
            "tensorflow/tensorflow:2.16.1",
            id="registry",
        ),
        pytest.param("$ docker run --gpus all tensorflow/tensorflow:latest-gpu\n", None, id="gpu"),
        pytest.param("$ docker pull tensorflow/tensorflow:2.16.1\n", None, id="pull"),
        pytest.param("$ docker run tensorflow/serving:2.16.1\n", None, id="serving"),
    ],
)
def test_tensorflows_cpu_image_is_read_from_the_run_command(
    text: str, expected: Optional[str]
) -> None:
    assert tf_cpu_image(text) == expected


@pytest.mark.parametrize(
    ("line", "script"),
    [
        pytest.param("exec /usr/local/bin/python: exec format error", False, id="runc-1.1-binary"),
        pytest.param("exec /entrypoint.sh: exec format error", True, id="runc-1.1-script"),
        pytest.param(
            "standard_init_linux.go:228: exec user process caused: exec format error",
            True,
            id="runc-1.0",
        ),
    ],
)
def test_runcs_exec_format_error_is_an_image_of_another_platform(line: str, script: bool) -> None:
    top = top_error(explained("$ docker run --rm registry.example/tf-train:1.0\n" + line + "\n"))
    assert top.cause == "container-image-platform"
    text = fix_text(top)
    assert "docker image inspect IMAGE --format '{{.Os}}/{{.Architecture}}'" in text
    assert "tonistiigi/binfmt" in text
    assert ("#!" in text) is script


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(
            "2024/01/04 06:08:15 Loading NVML\n"
            "2024/01/04 06:08:15 Failed to initialize NVML: could not load NVML library.\n"
            "2024/01/04 06:08:15 If this is a GPU node, did you set the docker default runtime "
            "to `nvidia`?\n",
            id="older",
        ),
        pytest.param(
            "E0301 08:00:00.000000       1 factory.go:112] Incompatible strategy detected auto\n"
            "E0301 08:00:00.000001       1 factory.go:113] If this is a GPU node, did you "
            "configure the NVIDIA Container Toolkit?\n"
            "I0301 08:00:00.000002       1 main.go:381] No devices found. Waiting indefinitely.\n",
            id="factory",
        ),
    ],
)
def test_the_device_plugin_without_the_driver_sets_up_the_nodes_runtime(lines: str) -> None:
    text = _no_gpu_fix(
        "$ kubectl -n kube-system logs nvidia-device-plugin-daemonset-x7k2p\n" + lines
    )
    assert "nvidia-ctk runtime configure --runtime=containerd --set-as-default" in text
    assert "docker run" not in text


def test_nvmls_unknown_error_in_a_container_restores_the_devices_cgroup() -> None:
    text = _no_gpu_fix(
        "root@3f2a9c1b7d4e:/workspace# nvidia-smi\nFailed to initialize NVML: Unknown Error\n"
    )
    assert "daemon-reload" in text and "docker restart CONTAINER" in text
    assert "nvidia-ctk system create-dev-char-symlinks --create-all" in text


def test_apptainers_nv_without_a_driver_on_the_node_asks_for_a_gpu_node() -> None:
    log = (
        "$ apptainer exec --nv tf.sif python train.py\n"
        "INFO:    Could not find any nv files on this host!\n"
    )
    top = readings(explained(log + _LIBCUDA_MISSING))[0]
    assert top.cause == "driver-not-loaded"
    text = fix_text(top)
    assert "--gres=gpu:1" in text and "modprobe" not in text


def test_apptainers_nv_without_a_driver_alone_is_a_note() -> None:
    log = "INFO:    Could not find any nv files on this host!\nhello world\n"
    assert readings(explained(log)) == []


def test_cuda_seeing_no_device_in_a_container_started_without_a_gpu_flag_is_the_containers() -> (
    None
):
    log = (
        "$ docker run -it --rm tensorflow/tensorflow:latest-gpu python train.py\n"
        "2024-01-01 10:00:00.000000: E external/local_xla/xla/stream_executor/cuda/"
        "cuda_driver.cc:282] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable "
        "device is detected\n"
    )
    (found,) = readings(explained(log))
    assert found.cause == "container-no-gpu" and "docker run --gpus all IMAGE" in fix_text(found)
    # On a host the same line stays CUDA_VISIBLE_DEVICES' (or the driver's) candidate.
    host = readings(
        explained(log.replace("docker run -it --rm tensorflow/tensorflow:latest-gpu ", ""))
    )
    assert [x.cause for x in host] == ["cuda-visible-devices-hidden"]


def test_cuda_seeing_no_device_under_a_docker_containers_hostname_is_the_containers() -> None:
    log = (
        "trainer-1  | 2024-01-01 10:00:00.000000: E external/local_xla/xla/stream_executor/cuda/"
        "cuda_driver.cc:282] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable "
        "device is detected\n"
        "trainer-1  | 2024-01-01 10:00:00.000001: I external/local_xla/xla/stream_executor/cuda/"
        "cuda_diagnostics.cc:141] hostname: 7b1c2d3e4f5a\n"
    )
    (found,) = readings(explained(log))
    assert found.cause == "container-no-gpu"
    assert "deploy.resources.reservations.devices" in fix_text(found)


def test_the_toolkits_cuda_requirement_names_the_driver_that_cuda_release_shipped_with() -> None:
    line = (
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.3, please "
        "update your driver to a newer version, or use an earlier cuda container: unknown.\n"
    )
    top = top_error(explained(RUN + HOOK + line))
    assert top.cause == "driver-too-old"
    text = fix_text(top)
    # The check compares with the CUDA the driver reports: 12.3's own driver, not 12.x's
    # minor version compatibility floor.
    assert "CUDA 12.3" in text and "545.23.06" in text and "525.60.13" not in text
    assert "on the host" in text


def test_the_toolkits_cuda_requirement_on_wsl_names_the_windows_driver() -> None:
    # Docker Desktop's WSL 2: the driver is the Windows host's, numbered as Windows' (545.84
    # shipped with CUDA 12.3 there), not Linux's 545.23.06.
    line = (
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.3, please "
        "update your driver to a newer version, or use an earlier cuda container: unknown.\n"
    )
    uname = "$ uname -r\n5.15.133.1-microsoft-standard-WSL2\n"
    text = fix_text(top_error(explained(uname + RUN + HOOK + line)))
    assert "545.84" in text and "545.23.06" not in text


_REFUSED = (
    "  Warning  FailedScheduling  90s  default-scheduler  0/3 nodes are available: 3 "
    "Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption "
    "victims found for incoming pod.\n"
)


def test_a_pod_refused_for_a_gpu_then_assigned_was_only_waiting() -> None:
    log = (
        _REFUSED + "  Normal   TriggeredScaleUp  85s  cluster-autoscaler  pod triggered scale-up: "
        "[{gpu-pool 1->2 (max: 4)}]\n"
        "  Normal   Scheduled  10s  default-scheduler  Successfully assigned ml/tf-train-0 to "
        "gpu-pool-b7x2\n"
    )
    report = explained(log)
    assert readings(report) == []
    assert "container-no-gpu" in {x.cause for x in report.findings}


def test_a_pod_refused_for_a_gpu_and_never_assigned_stays_an_error() -> None:
    assert top_error(explained(_REFUSED)).cause == "container-no-gpu"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "$ docker run --gpus all tensorflow/tensorflow:2.16.1-gpu x\n", "2.16.1", id="gpu"
        ),
        pytest.param("$ docker run tensorflow/tensorflow:1.15.5-gpu-py3 x\n", "1.15.5", id="py3"),
        pytest.param("$ docker run tensorflow/tensorflow:2.15.0 x\n", "2.15.0", id="cpu"),
        pytest.param("$ docker run tensorflow/tensorflow:latest-gpu x\n", None, id="latest"),
        pytest.param("$ docker pull tensorflow/tensorflow:2.16.1-gpu\n", None, id="pull"),
    ],
)
def test_the_release_of_tensorflows_image_is_read_from_its_tag(
    text: str, expected: Optional[str]
) -> None:
    assert tf_image_release(text) == expected


def test_a_driver_below_the_images_cuda_names_the_floor_of_the_images_release() -> None:
    log = (
        "$ docker run --gpus all --rm tensorflow/tensorflow:2.16.1-gpu python train.py\n"
        "2024-04-01 08:00:00.000000: E external/local_xla/xla/stream_executor/cuda/"
        "cuda_driver.cc:282] failed call to cuInit: CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: "
        "forward compatibility was attempted on non supported HW\n"
        "2024-04-01 08:00:00.000001: E external/local_xla/xla/stream_executor/cuda/"
        "cuda_diagnostics.cc:251] kernel version 470.223.2 does not match DSO version "
        "535.104.5 -- cannot find working devices in this configuration\n"
    )
    top = top_error(explained(log))
    assert top.cause == "driver-too-old"
    # TensorFlow 2.16 is built with CUDA 12.3: CUDA 12's minor version compatibility floor.
    assert "525.60.13" in fix_text(top)


def test_forward_compatibility_refused_with_a_driver_new_enough_takes_compat_off_the_path() -> None:
    # The kernel module (cuda_diagnostics' own line) runs TensorFlow 2.16's CUDA 12.3: the
    # forward-compatibility libcuda is what the GPU refused, as the check reads it.
    log = (
        "$ docker run --gpus all --rm tensorflow/tensorflow:2.16.1-gpu python train.py\n"
        "2024-04-01 08:00:00.000000: E external/local_xla/xla/stream_executor/cuda/"
        "cuda_driver.cc:282] failed call to cuInit: CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: "
        "forward compatibility was attempted on non supported HW\n"
        "2024-04-01 08:00:00.000001: I external/local_xla/xla/stream_executor/cuda/"
        "cuda_diagnostics.cc:200] kernel reported version is: 535.104.5\n"
    )
    top = top_error(explained(log))
    words = fix_text(top)
    assert "forward-compatibility" in words and "off the loader's path" in words, words
    assert "525.60.13" not in words


#: A Mac's own platform line (Python's platform.platform() on Apple silicon) before the
#: container's command: Docker Desktop for Mac.
_MAC = "$ python3 -c 'import platform; print(platform.platform())'\nmacOS-14.2.1-arm64-arm-64bit\n"


def test_tensorflows_cpu_image_on_a_mac_says_no_container_there_reaches_a_gpu() -> None:
    log = _MAC + (
        '$ docker run -it --rm tensorflow/tensorflow:2.15.0 python -c "import tensorflow as tf; '
        "print(tf.config.list_physical_devices('GPU'))\"\n[]\n"
    )
    text = fix_text(top_error(explained(log)))
    assert "docker run --gpus all" not in text and "2.15.0-gpu" not in text
    assert "tensorflow-metal" in text and "Docker Desktop" in text


def test_dockers_daemon_refusing_gpus_on_a_mac_asks_for_no_toolkit() -> None:
    log = _MAC + (
        "$ docker run --gpus all --rm tensorflow/tensorflow:latest-gpu nvidia-smi\n"
        'docker: Error response from daemon: could not select device driver "" with '
        "capabilities: [[gpu]].\n"
    )
    text = _no_gpu_fix(log)
    assert "nvidia-container-toolkit" not in text and "tensorflow-metal" in text
    # The same refusal on a Linux host keeps the toolkit's install.
    assert "nvidia-container-toolkit" in _no_gpu_fix(log.replace(_MAC, ""))


_CGROUP = "nvidia-container-cli: container error: cgroup subsystem devices not found: unknown.\n"


@pytest.mark.parametrize(
    ("shown", "upgrade"),
    [
        pytest.param(
            "$ sudo dnf install -y nvidia-container-toolkit\n",
            "sudo dnf upgrade -y nvidia-container-toolkit",
            id="dnf",
        ),
        pytest.param(
            "$ sudo apt-get install -y nvidia-container-toolkit\n",
            "sudo apt-get install -y --only-upgrade nvidia-container-toolkit",
            id="apt",
        ),
        pytest.param("", None, id="none-shown"),
    ],
)
def test_the_toolkits_cgroup_upgrade_uses_the_hosts_package_manager(
    shown: str, upgrade: Optional[str]
) -> None:
    top = top_error(explained(shown + RUN + HOOK + _CGROUP))
    assert top.cause == "container-no-gpu" and top.fix is not None
    upgrades = [c for c in top.fix.commands if "upgrade" in c or " update " in c]
    if upgrade is None:
        # Neither shown: the words name the packages, no distribution's command.
        assert upgrades == [] and "the host's package manager" in top.fix.text
    else:
        assert len(upgrades) == 1 and upgrades[0].startswith(upgrade)


def test_exec_format_error_under_podman_and_kubernetes_uses_their_commands() -> None:
    line = "exec /usr/local/bin/python: exec format error\n"
    podman = fix_text(top_error(explained("$ podman run --rm registry.example/tf:1.0\n" + line)))
    assert "podman image inspect IMAGE" in podman and "docker " not in podman
    kube = fix_text(top_error(explained("$ kubectl logs tf-train-7d9f\n" + line)))
    assert "kubernetes.io/arch" in kube and "docker " not in kube


def test_nvmls_unknown_error_under_podman_restarts_with_podman() -> None:
    text = _no_gpu_fix(
        "$ podman run --device nvidia.com/gpu=all --rm tf:1.0 nvidia-smi\n"
        "Failed to initialize NVML: Unknown Error\n"
    )
    assert "podman restart CONTAINER" in text and "docker " not in text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("[root@node ~]# yum install -y nvidia-docker2\n", "yum", id="yum"),
        pytest.param(
            "Last metadata expiration check: 0:12:03 ago on Mon 04 Mar 2024 10:00:00 AM UTC.\n",
            "dnf",
            id="dnf-notice",
        ),
        pytest.param("$ sudo zypper in nvidia-container-toolkit\n", "zypper", id="zypper"),
        pytest.param("$ sudo apt update\n", "apt", id="apt"),
        pytest.param("see the dnf install guide\n", None, id="words"),
    ],
)
def test_the_hosts_package_manager_is_read_from_its_commands(
    text: str, expected: Optional[str]
) -> None:
    assert host_packager(text) == expected


#: cuInit's CUDA_ERROR_SHARED_OBJECT_INIT_FAILED as TensorFlow 2.3 prints it: the container's
#: libcuda could not start, harmless where no GPU was meant.
_CUINIT_303 = (
    "2020-11-05 10:00:00.000000: W tensorflow/stream_executor/cuda/cuda_driver.cc:312] "
    "failed call to cuInit: UNKNOWN ERROR (303)\n"
)


@pytest.mark.parametrize(
    "image",
    [
        pytest.param("tensorflow/tensorflow:2.3.0-gpu", id="tf-gpu-tag"),
        pytest.param("nvidia/cuda:11.0-cudnn8-runtime-ubuntu18.04", id="cuda-image"),
        pytest.param("nvcr.io/nvidia/tensorflow:20.10-tf2-py3", id="ngc"),
    ],
)
def test_a_gpu_image_started_without_the_gpu_flag_meant_the_gpu(image: str) -> None:
    run = f"$ docker run -it --rm {image} python train.py\n"
    (found,) = readings(explained(run + _CUINIT_303))
    assert found.cause == "container-no-gpu" and found.severity is Severity.ERROR
    assert "--gpus" in fix_text(found)
    # The same image pulled by Apptainer without --nv (its docker:// source).
    hpc = f"$ apptainer exec docker://{image} python train.py\n"
    (found,) = readings(explained(hpc + _CUINIT_303))
    assert found.cause == "container-no-gpu" and found.severity is Severity.ERROR


@pytest.mark.parametrize(
    "run",
    [
        pytest.param(
            "$ docker run -it --rm tensorflow/tensorflow:2.3.0 python train.py\n", id="cpu"
        ),
        pytest.param(
            "$ docker run --gpus all -it --rm tensorflow/tensorflow:2.3.0-gpu python x.py\n",
            id="flag",
        ),
        pytest.param("", id="no-command"),
    ],
)
def test_the_303_note_stays_a_note_without_a_gpu_image_run_bare(run: str) -> None:
    assert readings(explained(run + _CUINIT_303)) == []


# --- nvidia-smi missing where a container runs -----------------------------------------------


#: The host's nvidia-smi answering in a container started with the GPU (the toolkit's own
#: check), before the command that started the project's image.
_HOST_TOOLKIT_WORKS = (
    "$ docker run --rm --gpus all ubuntu:22.04 nvidia-smi\n"
    "| NVIDIA-SMI 550.54.14              Driver Version: 550.54.14      CUDA Version: 12.4     |\n"
    "|   0  NVIDIA RTX A4000               Off |   00000000:65:00.0 Off |                  Off |\n"
)


@pytest.mark.parametrize(
    "missing",
    [
        pytest.param("bash: nvidia-smi: command not found", id="bash"),
        pytest.param("sh: 1: nvidia-smi: not found", id="dash"),
        pytest.param("zsh: command not found: nvidia-smi", id="zsh"),
    ],
)
def test_nvidia_smi_missing_beside_a_container_with_the_hosts_gpu_is_a_container_without_it(
    missing: str,
) -> None:
    log = (
        _HOST_TOOLKIT_WORKS
        + "$ docker exec -it notebook bash\n"
        + "root@0a1b2c3d4e5f:/work# python -c 'import tensorflow as tf; "
        'print(tf.config.list_physical_devices("GPU"))\'\n[]\n'
        + f"root@0a1b2c3d4e5f:/work# nvidia-smi\n{missing}\n"
    )
    (found,) = readings(explained(log))
    assert found.cause == "container-no-gpu" and found.severity is Severity.WARNING
    assert "--gpus all" in fix_text(found)


def test_runc_finding_no_nvidia_smi_in_a_container_started_without_the_gpu() -> None:
    log = (
        _HOST_SMI.replace("$ docker run -it --rm nvcr.io/nvidia/tensorflow:24.02-tf2-py3\n", "")
        + "$ docker run --rm ubuntu:22.04 nvidia-smi\n"
        "docker: Error response from daemon: failed to create task for container: failed to "
        "create shim task: OCI runtime create failed: runc create failed: unable to start "
        'container process: exec: "nvidia-smi": executable file not found in $PATH: unknown.\n'
    )
    (found,) = readings(explained(log))
    assert found.cause == "container-no-gpu" and "--gpus all" in fix_text(found)


def test_nvidia_smi_missing_with_nothing_else_is_a_note_of_the_hosts_driver() -> None:
    # A script that collects the environment runs nvidia-smi on machines without a GPU too.
    report = explained("collect_env.sh: line 31: nvidia-smi: command not found\n")
    assert readings(report) == []
    (found,) = [x for x in report.findings if x.cause == "driver-not-loaded"]
    assert found.severity is Severity.INFO


def test_a_word_ending_in_nvidia_smi_is_not_read_as_it_missing() -> None:
    report = explained("pip: gpustat-nvidia-smi: not found in the index\n")
    assert not [x for x in report.findings if x.cause in ("driver-not-loaded", "container-no-gpu")]


def test_nvidia_smi_missing_beside_a_run_with_the_gpu_flag_is_the_hosts_driver() -> None:
    # The only container shown was started with --gpus all: nothing puts the shell that
    # missed nvidia-smi in a container, and the log contradicts one started without the GPU.
    log = (
        "$ nvidia-smi\n"
        "bash: nvidia-smi: command not found\n"
        "$ docker run --gpus all -it tensorflow/tensorflow:latest-gpu python train.py\n"
    )
    report = explained(log)
    assert not [x for x in report.findings if x.cause == "container-no-gpu"]
    (found,) = [x for x in report.findings if x.cause == "driver-not-loaded"]
    assert found.severity is Severity.INFO


# --- the driver's libraries missing inside a container started with the GPU ------------------

SMI_NO_NVML = (
    "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the "
    "NVIDIA Display Driver is properly installed and present in your system.\n"
)


@pytest.mark.parametrize(
    "start",
    [
        "$ nvidia-docker run --rm -it nvidia/cuda:10.0-base nvidia-smi\n",
        # NVIDIA's CUDA image untagged, as nvidia-docker 1.0's README tests the install.
        "$ nvidia-docker run --rm nvidia/cuda nvidia-smi\n",
        "$ docker run --gpus all --rm my/image:cuda nvidia-smi\n",
        "u@h:~$ sudo docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=0 -it my/image bash\n",
    ],
)
def test_the_drivers_libraries_missing_in_a_gpu_container_are_the_images_path(start: str) -> None:
    top = top_error(explained(start + SMI_NO_NVML))
    assert top.cause == "cuda-libs-off-path"
    text = fix_text(top)
    # The runtime mounted the libraries: the image's path, never a module to load.
    assert "/usr/local/nvidia/lib64" in text and "ldconfig" in text
    assert "modprobe" not in text and "--gpus all IMAGE" not in text
    # The check starts a container as the one shown was: that one may have ended (--rm).
    assert "exec CONTAINER" not in text and "--entrypoint sh IMAGE" in text


def test_the_drivers_libraries_missing_without_a_container_shown_are_the_drivers() -> None:
    assert top_error(explained(SMI_NO_NVML)).cause == "driver-libraries-missing"
    # A container shown started without the GPU: handing it over is the answer, as before.
    log = "$ docker run --rm my/image:cuda nvidia-smi\n" + SMI_NO_NVML
    assert top_error(explained(log)).cause != "cuda-libs-off-path"


def test_the_last_container_started_with_the_gpu_is_read_with_its_command() -> None:
    text = (
        "$ docker run --rm alpine true\n"
        "$ docker run --gpus all \\\n  --rm my/image python x.py\n"
        "$ nvidia-docker run nvidia/cuda:11.0-base nvidia-smi\n"
    )
    assert container_run_with_gpu(text) == (
        text.index("$ nvidia-docker"),
        "nvidia-docker run nvidia/cuda:11.0-base nvidia-smi",
    )
    # A command over continued lines: where its first line starts, its words joined.
    at, command = container_run_with_gpu(text[: text.index("$ nvidia-docker")]) or (0, "")
    assert at == text.index("$ docker run --gpus")
    assert " ".join(command.split()) == "docker run --gpus all --rm my/image python x.py"
    assert container_run_with_gpu("$ docker run --rm my/image python x.py\n") is None
    assert container_run_with_gpu("apptainer exec instance://gpu nvidia-smi --nv\n") is None


def test_the_drivers_libraries_missing_outside_the_container_are_the_hosts() -> None:
    start = "$ docker run --gpus all --rm nvidia/cuda:11.0-base nvidia-smi\n"
    # The runtime's own refusal: the host has no driver libraries, the container never started.
    refused = (
        "docker: Error response from daemon: OCI runtime create failed: error running hook #0: "
        "error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: "
        "initialization error: load library failed: libnvidia-ml.so.1: cannot open shared "
        "object file: no such file or directory: unknown.\n"
    )
    # The host's nvidia-smi failing before the container is started.
    host = "$ nvidia-smi\n" + SMI_NO_NVML
    for log in (start + refused, host + start):
        assert top_error(explained(log)).cause == "driver-libraries-missing"


@pytest.mark.parametrize(
    "start",
    [
        # The runtime named, nothing asked of it: an image that does not set
        # NVIDIA_VISIBLE_DEVICES gets runc's container, no driver library mounted.
        "$ docker run --runtime=nvidia -it my/image bash\n",
        "$ nvidia-docker run --rm -it my/image:cuda nvidia-smi\n",
        "$ docker run --gpus all -e NVIDIA_VISIBLE_DEVICES=void my/image nvidia-smi\n",
        # The start's own capabilities leave NVML (utility) out.
        "$ docker run --gpus all -e NVIDIA_DRIVER_CAPABILITIES=compute my/image nvidia-smi\n",
        # Devices passed by hand, AMD's flags, Apptainer's binds: no NVIDIA runtime mounts.
        "$ docker run --device /dev/nvidia0 --device /dev/nvidiactl my/image nvidia-smi\n",
        "$ docker run --device=/dev/kfd --device=/dev/dri rocm/tensorflow nvidia-smi\n",
        "$ singularity exec --nv tf.sif nvidia-smi\n",
    ],
)
def test_a_start_through_no_nvidia_runtime_mount_is_not_the_images_path(start: str) -> None:
    assert container_run_with_gpu(start) is None
    assert top_error(explained(start + SMI_NO_NVML)).cause != "cuda-libs-off-path"
