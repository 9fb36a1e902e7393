"""A hosted notebook without a GPU runtime: the runtime's accelerator is the fix, not CUDA
or a driver, from the log's own signs of the notebook (its paths, its name)."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text
from tfdoctor.findings import Finding, Severity

_UNLISTED = (
    "!ls /content/drive/MyDrive/proj\ntrain.py\n>>> tf.config.list_physical_devices('GPU')\n[]\n"
)


def _gpu_finding(text: str) -> Finding:
    report = explained(text)
    found = [f for f in report.findings if f.severity.rank >= Severity.WARNING.rank]
    assert found, [(f.id, f.severity.value) for f in report.findings]
    return found[0]


def test_colab_without_a_gpu_is_told_the_runtime_setting() -> None:
    top = _gpu_finding(_UNLISTED)
    assert top.cause == "hosted-runtime-without-gpu"
    fix = fix_text(top)
    assert "Hardware accelerator" in fix and "Do not install CUDA" in fix


def test_colab_where_libcuda_does_not_load_is_the_runtime_too() -> None:
    text = (
        "/content/proj\n"
        "2023-01-02 10:00:00.000000: W tensorflow/compiler/xla/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: "
        "cannot open shared object file: No such file or directory\n"
    )
    top = _gpu_finding(text)
    assert top.cause == "hosted-runtime-without-gpu"
    assert "nvidia-smi" in fix_text(top)


@pytest.mark.parametrize("where", ["/kaggle/working", "/kaggle/temp/run"])
def test_kaggle_is_named_by_its_paths(where: str) -> None:
    text = _UNLISTED.replace("/content/drive/MyDrive/proj", where)
    top = _gpu_finding(text)
    assert top.cause == "hosted-runtime-without-gpu"
    assert "Settings > Accelerator" in fix_text(top)


def test_colab_named_only_by_the_loaders_search_path_is_the_runtime_too() -> None:
    # TensorFlow 2's loader prints the LD_LIBRARY_PATH; /usr/lib64-nvidia is Colab's.
    text = (
        "2021-05-02 10:00:00.000000: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libcuda.so.1'; dlerror: "
        "libcuda.so.1: cannot open shared object file: No such file or directory; "
        "LD_LIBRARY_PATH: /usr/lib64-nvidia\n"
    )
    top = _gpu_finding(text)
    assert top.cause == "hosted-runtime-without-gpu"
    assert "Hardware accelerator" in fix_text(top)


def test_without_a_notebooks_sign_the_runtime_is_not_named() -> None:
    text = _UNLISTED.replace("/content/drive/MyDrive/proj", "/home/user/proj")
    assert _gpu_finding(text).cause != "hosted-runtime-without-gpu"


def test_the_words_colab_or_kaggle_are_not_a_hosted_notebook() -> None:
    text = (
        "It works on Colab but not on my own PC (Kaggle too).\n"
        'user@box:~/proj$ python -c "import tensorflow as tf; '
        "print(tf.config.list_physical_devices('GPU'))\"\n"
        "[]\n"
    )
    assert _gpu_finding(text).cause != "hosted-runtime-without-gpu"


def test_a_container_run_without_gpus_outranks_the_notebook() -> None:
    text = (
        "$ docker run -p 127.0.0.1:9000:8080 us-docker.pkg.dev/colab-images/public/runtime\n"
        "/content/x.py\n"
        "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n"
    )
    assert _gpu_finding(text).cause == "container-no-gpu"


# --- the driver's library in containers and on nodes ------------------------------------------

_LOADER = (
    "/usr/bin/tensorflow_model_server: error while loading shared libraries: libcuda.so.1: "
    "cannot open shared object file: No such file or directory\n"
)


def test_a_pods_program_without_libcuda_is_a_pod_without_the_gpu() -> None:
    text = "$ kubectl --namespace=ml logs deployment/serving -c serving\n" + _LOADER
    top = _gpu_finding(text)
    assert top.cause == "container-no-gpu" and top.severity is Severity.ERROR
    assert "nvidia.com/gpu" in fix_text(top)


def test_the_same_program_on_a_host_is_the_drivers_library() -> None:
    assert _gpu_finding(_LOADER).cause == "driver-libraries-missing"


def test_libcuda_not_found_beside_a_loaded_kernel_module_is_the_user_space_library() -> None:
    text = (
        "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:200] libcuda reported version "
        "is: Not found: was unable to find libcuda.so DSO loaded into this program\n"
        "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:204] kernel reported version "
        "is: 418.67.0\n"
    )
    top = _gpu_finding(text)
    assert top.cause == "driver-libraries-missing" and top.severity is Severity.ERROR
    assert "418.67.0" in fix_text(top)


def test_libcuda_not_found_without_a_kernel_module_is_no_error() -> None:
    text = (
        "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:200] libcuda reported version "
        "is: Not found: was unable to find libcuda.so DSO loaded into this program\n"
    )
    assert all(x.severity is not Severity.ERROR for x in explained(text).findings)


def test_a_container_tool_is_read_only_from_its_commands() -> None:
    from tfdoctor.evidence.devices import container_shown

    assert container_shown("$ kubectl logs pod/x\n") == "kubernetes"
    assert container_shown("user@host:~$ docker exec -it tf python x.py\n") == "docker"
    assert container_shown("I read the docker docs and the kubectl guide\n") is None


def test_a_container_run_without_gpus_ranks_the_container_first() -> None:
    text = (
        "$ docker run -v $PWD:/work tensorflow/tensorflow:2.15.0-gpu python /work/check.py\n"
        ">>> tf.config.list_physical_devices('GPU')\n"
        "[]\n"
    )
    top = _gpu_finding(text)
    assert top.cause == "driver-not-loaded"
    assert "--gpus" in fix_text(top)


def test_a_kernel_module_with_libcuda_missing_is_one_error() -> None:
    text = (
        "$ python train.py\n"
        "W dso_loader.cc:64] Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: "
        "cannot open shared object file: No such file or directory\n"
        "E cuda_driver.cc:271] failed call to cuInit: UNKNOWN ERROR (303)\n"
        "I cuda_diagnostics.cc:204] kernel reported version is: 525.85.12\n"
    )
    errors = [x.cause for x in explained(text).findings if x.severity is Severity.ERROR]
    assert errors == ["driver-libraries-missing"]


def test_a_programs_missing_libcuda_is_the_drivers_not_a_wheels() -> None:
    fix = fix_text(_gpu_finding("$ ./run_server.sh\n" + _LOADER))
    assert "tensorflow-cpu" not in fix and "pip install" not in fix
