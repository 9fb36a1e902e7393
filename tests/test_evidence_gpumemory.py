"""The GPU's memory as a log shows it around a failed allocation: the device TensorFlow
created, the GPU's own size, the allocator's limit (lines written in TensorFlow's format)."""

from __future__ import annotations

import pytest

from tfdoctor.evidence.gpumemory import GpuMemoryShown, read_gpu_memory

_GIB = 1024**3
_MIB = 1024**2


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        pytest.param(
            "I gpu_device.cc:1510] Created device /job:localhost/replica:0/task:0/device:GPU:0 "
            "with 9630 MB memory:  -> device: 0, name: NVIDIA A100-SXM4-40GB, pci bus id: "
            "0000:07:00.0, compute capability: 8.0",
            GpuMemoryShown(9630 * _MIB, 40 * _GIB),
            id="2x-name-size",
        ),
        pytest.param(
            "I gpu_device.cc:1406] Created TensorFlow device (/job:localhost/replica:0/task:0/"
            "device:GPU:0 with 6806 MB memory) -> physical GPU (device: 0, name: GeForce RTX "
            "2060, pci bus id: 0000:2b:00.0, compute capability: 7.5)",
            GpuMemoryShown(6806 * _MIB),
            id="1x-no-size",
        ),
        pytest.param(
            "pciBusID: 0000:01:00.0 name: GeForce GTX 1080 computeCapability: 6.1\ncoreClock: "
            "1.7335GHz coreCount: 20 deviceMemorySize: 7.93GiB deviceMemoryBandwidth: "
            "298.32GiB/s\nI gpu_device.cc:1406] Created TensorFlow device (/job:localhost/"
            "replica:0/task:0/device:GPU:0 with 300 MB memory) -> physical GPU (device: 0, "
            "name: GeForce GTX 1080, pci bus id: 0000:01:00.0, compute capability: 6.1)",
            GpuMemoryShown(300 * _MIB, int(7.93 * _GIB)),
            id="24-device-size",
        ),
        pytest.param(
            "I bfc_allocator.cc:1098] Stats: \nLimit:                     10098229248\n"
            "InUse:                      9429016320\n",
            GpuMemoryShown(limit_bytes=10098229248),
            id="stats-limit",
        ),
        pytest.param("Epoch 1/10\n", GpuMemoryShown(), id="nothing"),
    ],
)
def test_read_gpu_memory(text: str, shown: GpuMemoryShown) -> None:
    assert read_gpu_memory(text) == shown


def test_taken_and_never_fits() -> None:
    assert GpuMemoryShown(300 * _MIB, 8 * _GIB).taken_before
    assert not GpuMemoryShown(7 * _GIB, 8 * _GIB).taken_before
    assert GpuMemoryShown(300 * _MIB).taken_before  # no GPU TensorFlow 2 runs on is that small
    assert not GpuMemoryShown(6 * _GIB).taken_before
    assert GpuMemoryShown(limit_bytes=_GIB).never_fits(2 * _GIB)
    assert not GpuMemoryShown(limit_bytes=4 * _GIB).never_fits(2 * _GIB)
    assert not GpuMemoryShown().never_fits(2 * _GIB)


@pytest.mark.parametrize(
    ("text", "frameworks"),
    [
        pytest.param(
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB.",
            ("PyTorch",),
            id="pytorch-allocator",
        ),
        pytest.param(
            'File "/opt/venv/lib/python3.11/site-packages/jax/_src/api.py", line 1, in f\n'
            "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory",
            ("JAX",),
            id="jax-runtime",
        ),
        pytest.param(
            "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to load in-memory CUBIN: "
            "CUDA_ERROR_OUT_OF_MEMORY: out of memory",
            ("JAX",),
            id="jax-driver-out-of-memory",
        ),
        # Importing allocates nothing: an import alone shows no framework on the GPU.
        pytest.param(">>> import torch\n>>> import jax\n", (), id="imports-alone"),
        pytest.param(
            ">>> import torch\n>>> model = Net().cuda()\n>>> import jax\n>>> jax.devices()\n"
            "[CudaDevice(id=0)]\n",
            ("PyTorch", "JAX"),
            id="device-lines",
        ),
        pytest.param(
            '>>> import torch\n>>> x = torch.ones(3, device="cuda")\n',
            ("PyTorch",),
            id="torch-call",
        ),
        pytest.param('>>> x = model.to("cuda")\n', (), id="cuda-call-without-torch"),
        pytest.param("RuntimeError: torchvision is not a torch build", (), id="words-only"),
    ],
)
def test_other_frameworks_on_the_gpu_are_read_by_their_own_words(
    text: str, frameworks: tuple[str, ...]
) -> None:
    assert read_gpu_memory(text).frameworks == frameworks
