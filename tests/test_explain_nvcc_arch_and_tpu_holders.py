"""Two families of the runtime below TensorFlow, read from the tools' own words whatever the
release or the program that relays them.

- nvcc's refusal of an architecture its feature list lacks: ``Value 'sm_XX' is not defined for
  option 'gpu-architecture'`` (with or without its ``nvcc fatal :`` prefix) and ``Unsupported
  gpu architecture 'compute_XX'``. From Maxwell (sm_50) to Volta (sm_72) CUDA 13 dropped the
  architectures as well, so where the log does not show the toolkit's release the summary and
  the fix name both candidates, which ``nvcc --version`` tells apart: a toolkit older than the
  first CUDA to know the architecture (NVIDIA's GPU feature list, data/cuda.yaml), or one of
  CUDA 13 or later (CUDA 12.9's release notes on deprecated architectures); the toolkits that
  compile for it run from the first to CUDA 12.x. With CUDA 13 shown, the compiler's own cause
  says so, not a wheel without code for the GPU.
- A TPU another process holds: libtpu's ``The TPU is already in use by process with pid N``,
  TensorFlow's ``libtpu.so is already in use by process with pid N`` or, where it cannot see
  the holder, ``libtpu.so already in use by another process`` (tpu_initializer_helper.cc, 2.7
  on, at INFO: a warning unless this process then finds no TPU) and the device node's ``TPU
  initialization failed: open(/dev/vfio/N): Device or resource busy`` (Cloud Dataflow's TPU
  troubleshooting page): the fix finds and ends that process, not nvidia-smi's GPU compute
  mode.

The logs below are written here, short and in the programs' words.
"""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Severity

_NVCC_VERSION = "$ nvcc --version\nnvcc: NVIDIA (R) Cuda compiler driver\n"


@pytest.mark.parametrize(
    ("log", "cause", "has", "lacks"),
    [
        pytest.param(
            "$ python setup.py build_ext --inplace\n"
            "nvcc fatal   : Value 'sm_89' is not defined for option 'gpu-architecture'\n"
            "error: command '/usr/local/cuda/bin/nvcc' failed with exit code 1\n",
            "ptxas-too-old",
            ("CUDA 11.8",),
            ("CUDA 13",),
            id="ada-custom-op",
        ),
        pytest.param(
            "Using gpu device 0: GeForce GTX 1080 (CNMeM is disabled, cuDNN 5005)\n"
            "ERROR (theano.sandbox.cuda): Failed to compile cuda_ndarray.cu: "
            "Value 'sm_61' is not defined for option 'gpu-architecture'\n",
            "ptxas-too-old",
            ("CUDA 8.0 to 12.x", "CUDA 13", "nvcc --version"),
            ("most likely", "CUDA 8.0 or newer"),
            id="pascal-relayed",
        ),
        pytest.param(
            "nvcc fatal   : Unsupported gpu architecture 'compute_70'\n",
            "ptxas-too-old",
            ("CUDA 9.0 to 12.x", "CUDA 13"),
            ("most likely", "CUDA 9.0 or newer"),
            id="volta-virtual-architecture",
        ),
        pytest.param(
            _NVCC_VERSION + "Cuda compilation tools, release 13.0, V13.0.48\n"
            "$ pip install .\n"
            "nvcc fatal   : Value 'sm_61' is not defined for option 'gpu-architecture'\n",
            "ptxas-too-old",
            ("CUDA 12 toolkit's nvcc", "7.5"),
            ("XLA",),
            id="cuda13-drops-pascal",
        ),
        pytest.param(
            _NVCC_VERSION + "Cuda compilation tools, release 7.5, V7.5.17\n"
            "nvcc fatal   : Value 'sm_61' is not defined for option 'gpu-architecture'\n",
            "ptxas-too-old",
            ("CUDA 8.0",),
            ("CUDA 13",),
            id="cuda75-predates-pascal",
        ),
    ],
)
def test_nvcc_refusing_an_architecture_names_what_the_log_leaves_open(
    log: str, cause: str, has: tuple[str, ...], lacks: tuple[str, ...]
) -> None:
    top = top_error(explained(log))
    assert top.cause == cause
    text = fix_text(top)
    assert all(word in text for word in has), text
    assert not any(word in text for word in lacks), text


@pytest.mark.parametrize(
    ("log", "summary"),
    [
        pytest.param(
            "building extension 'my_op'\n"
            "nvcc fatal   : Unsupported gpu architecture 'compute_61'\n",
            "The CUDA compiler (nvcc) does not know compute capability 6.1: it is older than "
            "this GPU, or of CUDA 13 or newer, which dropped it",
            id="pascal-release-unshown",
        ),
        pytest.param(
            "$ nvcc --version\n"
            "Cuda compilation tools, release 13.0, V13.0.48\n"
            "$ python setup.py build_ext\n"
            "nvcc fatal   : Value 'sm_61' is not defined for option 'gpu-architecture'\n",
            "The CUDA compiler (nvcc) is of CUDA 13, which does not compile for compute "
            "capability 6.1",
            id="cuda13-shown",
        ),
        pytest.param(
            "W external/local_xla/xla/stream_executor/gpu/asm_compiler.cc:231] ptxas fatal   : "
            "Value 'sm_61' is not defined for option 'gpu-name'\n",
            "The ptxas XLA runs does not know compute capability 6.1: it is older than this "
            "GPU, or of CUDA 13 or newer, which dropped it",
            id="xla-ptxas-release-unshown",
        ),
        pytest.param(
            "nvcc fatal   : Value 'sm_89' is not defined for option 'gpu-architecture'\n",
            "The CUDA compiler (nvcc) is older than this GPU and does not know its architecture",
            id="ada-only-older",
        ),
    ],
)
def test_the_summary_of_a_compilers_refusal_claims_no_more_than_the_log_shows(
    log: str, summary: str
) -> None:
    top = top_error(explained(log))
    assert top.cause == "ptxas-too-old"
    assert top.summary == summary


@pytest.mark.parametrize(
    ("log", "ranked"),
    [
        pytest.param(
            "W external/xla/xla/stream_executor/cuda/subprocess_compilation.cc:194] ptxas "
            "fatal   : Value 'sm_61' is not defined for option 'gpu-name'\n",
            True,
            id="pascal-toolkit-unshown",
        ),
        pytest.param(
            "$ nvcc --version\nCuda compilation tools, release 6.0, V6.0.1\n"
            "ptxas fatal   : Value 'sm_52' is not defined for option 'gpu-name'\n",
            False,
            id="maxwell-old-toolkit-shown",
        ),
    ],
)
def test_xlas_ptxas_refusing_maxwell_to_volta_ranks_cuda13_where_the_release_is_unshown(
    log: str, ranked: bool
) -> None:
    top = top_error(explained(log))
    assert top.cause == "ptxas-too-old"
    text = fix_text(top)
    assert ("CUDA 12 toolkit's bin" in text) is ranked, text


@pytest.mark.parametrize(
    ("log", "has"),
    [
        pytest.param(
            "RuntimeError: Unable to initialize backend 'tpu': ABORTED: The TPU is already in "
            "use by process with pid 2811. Not attempting to load libtpu.so in this process.\n",
            ("process 2811", "kill 2811"),
            id="libtpu-names-the-holder",
        ),
        pytest.param(
            "I0000 00:00:1650000000.123456   4242 tpu_initializer_helper.cc:94] libtpu.so "
            'already in use by another process. Run "$ sudo lsof -w /dev/accel0" to figure out '
            "which process is using the TPU. Not attempting to load libtpu.so in this process.\n"
            "tensorflow.python.framework.errors_impl.NotFoundError: TPUs not found in the "
            "cluster. Failed in initialization: No matching devices found for "
            "'/device:TPU_SYSTEM:0'\n",
            (
                "sudo lsof -w /dev/accel*",
                "sudo lsof -t -w /dev/accel* /dev/vfio/* | xargs -r sudo kill",
            ),
            id="tensorflow-tpu-vm",
        ),
        pytest.param(
            "libtpu.so already in use by another process probably owned by another user. Run "
            '"$ sudo lsof -w /dev/accel0" to figure out which process is using the TPU.\n',
            ("sudo lsof -w",),
            id="another-users-process",
        ),
        pytest.param(
            "jax.errors.JaxRuntimeError: UNKNOWN: TPU initialization failed: "
            "open(/dev/vfio/1): Device or resource busy: Device or resource busy; Couldn't open "
            "iommu group /dev/vfio/1\n",
            ("sudo lsof -w /dev/vfio/1",),
            id="v5e-device-node",
        ),
    ],
)
def test_a_tpu_another_process_holds_names_that_process(log: str, has: tuple[str, ...]) -> None:
    report = explained(log)
    busy = [f for f in report.findings if f.cause == "tpu-held-by-another-process"]
    # TensorFlow's own note alone is a warning (it goes on without the TPU); the others, and
    # the note beside this process failing to find a TPU, are errors.
    alone = "tpu_initializer_helper" not in log and "libtpu.so already" in log
    assert busy and busy[0].severity is (Severity.WARNING if alone else Severity.ERROR)
    text = fix_text(busy[0])
    assert all(word in text for word in has), text
    assert "nvidia-smi" not in text
    # A cause of its own: no GPU title or NVIDIA page on a TPU's finding.
    assert "GPU" not in busy[0].summary
    assert not any("nvidia" in link for link in busy[0].links)
    # Every command runs as written: no placeholder such as PID.
    assert busy[0].fix is not None and not any("PID" in c for c in busy[0].fix.commands)


def test_a_gpu_another_process_holds_keeps_the_compute_mode_fix() -> None:
    top = top_error(
        explained(
            "tensorflow.python.framework.errors_impl.InternalError: CUDA runtime implicit "
            "initialization on GPU:0 failed. Status: all CUDA-capable devices are busy or "
            "unavailable\n"
        )
    )
    assert top.cause == "gpu-busy-or-unavailable"
    assert "nvidia-smi -c DEFAULT" in fix_text(top)


@pytest.mark.parametrize(
    "log",
    [
        # nvcc building for the architectures it knows: the flag's words, no refusal.
        pytest.param(
            "/usr/local/cuda/bin/nvcc -gencode arch=compute_86,code=sm_86 -c kernel.cu -o "
            "kernel.o\nnvcc --list-gpu-arch\ncompute_75\ncompute_86\ncompute_89\n",
            id="nvcc-building",
        ),
        # The TPU's own note of where libtpu came from, on a run that took the TPU.
        pytest.param(
            "I0000 00:00:1650000000.123456   4242 tpu_initializer_helper.cc:121] Libtpu path "
            "is: /home/user/env/lib/python3.10/site-packages/libtpu/libtpu.so\n"
            "[TpuDevice(id=0, process_index=0, coords=(0,0,0), core_on_chip=0)]\n",
            id="libtpu-loaded",
        ),
    ],
)
def test_the_same_words_where_nothing_failed_stay_quiet(log: str) -> None:
    report = explained(log)
    assert all(f.severity.rank <= Severity.INFO.rank for f in report.findings), [
        (f.id, f.severity) for f in report.findings
    ]


def test_a_busy_file_is_no_tpu_held() -> None:
    report = explained(
        "OSError: [Errno 16] Device or resource busy: '/mnt/data/.nfs0000000001a2b3c400000001'\n"
    )
    assert all(
        f.cause not in ("tpu-held-by-another-process", "gpu-busy-or-unavailable")
        for f in report.findings
    )


@pytest.mark.parametrize(
    ("log", "severity", "has"),
    [
        # TensorFlow's tpu_initializer_helper.cc names the holder's pid where it can read it.
        pytest.param(
            "2023-03-01 10:00:00.000000: I tensorflow/core/tpu/tpu_initializer_helper.cc:116] "
            "libtpu.so is already in use by process with pid 9665. Not attempting to load "
            "libtpu.so in this process.\n",
            Severity.WARNING,
            ("kill 9665",),
            id="tensorflow-names-the-pid",
        ),
        # A data worker importing TensorFlow while the holder trains: the run goes on.
        pytest.param(
            "$ python3 train.py\n"
            "I0000 00:00:1650000000.123456   4242 tpu_initializer_helper.cc:94] libtpu.so "
            'already in use by another process. Run "$ sudo lsof -w /dev/accel0" to figure out '
            "which process is using the TPU. Not attempting to load libtpu.so in this process.\n"
            "epoch:  1, train_loss: 2.2453, train_accuracy: 17.77, epoch_time: 0.978\n"
            "epoch:  2, train_loss: 1.9814, train_accuracy: 58.84, epoch_time: 0.252\n",
            Severity.WARNING,
            (),
            id="a-second-process-while-the-holder-trains",
        ),
        pytest.param(
            "I tensorflow/core/tpu/tpu_initializer_helper.cc:116] libtpu.so is already in use "
            "by process with pid 9665. Not attempting to load libtpu.so in this process.\n"
            "tensorflow.python.framework.errors_impl.NotFoundError: TPUs not found in the "
            "cluster. Failed in initialization: No matching devices found for "
            "'/device:TPU_SYSTEM:0'\n",
            Severity.ERROR,
            ("kill 9665",),
            id="the-pid-beside-no-tpu-found",
        ),
    ],
)
def test_tensorflows_note_of_the_tpu_holder_is_an_error_only_beside_a_failure(
    log: str, severity: Severity, has: tuple[str, ...]
) -> None:
    busy = [f for f in explained(log).findings if f.cause == "tpu-held-by-another-process"]
    assert busy and busy[0].severity is severity
    text = fix_text(busy[0])
    assert all(word in text for word in has), text
