"""What a log shows of a GPU's memory around an allocation that failed (observed, not inferred).

The failure reads the same whatever filled the GPU; the lines around it tell the usual three
apart, each read from the program that prints it:

- the memory TensorFlow took for its device when it started, ``Created device ... with 215 MB
  memory: -> device: 0, name: ...`` (2.x) and ``Created TensorFlow device (... with 215 MB
  memory) -> physical GPU (...)`` (1.x), beside the GPU's own size: TensorFlow 2.1-2.4's
  ``deviceMemorySize: 10.76GiB`` in ``Found device 0 with properties`` (gpu_device.cc), or a
  size the GPU's name carries (``Tesla V100-SXM2-16GB``, ``NVIDIA H100 80GB HBM3``). TensorFlow
  maps the memory free when it starts (GPUBFCAllocator's limit, from cuMemGetInfo), so a device
  far smaller than its GPU shows memory another process held before TensorFlow began;
- the allocator's limit after a failure, ``Limit: 10098229248`` in the ``Stats:`` block
  (bfc_allocator.cc ``DumpMemoryLog``; AllocatorStats::DebugString), and the bytes the failed
  request asked for: a request at or above the limit can never fit, whatever else is freed;
- otherwise the memory filled step by step (model, optimizer state and activations together),
  which the batch size scales.

https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/core/common_runtime/gpu/gpu_device.cc
https://github.com/tensorflow/tensorflow/blob/v2.12.0/tensorflow/tsl/framework/bfc_allocator.cc
https://github.com/tensorflow/tensorflow/blob/v2.12.0/tensorflow/tsl/framework/allocator.cc

The evidence never says what a finding is worth; explain decides that (:mod:`tfdoctor.explain`).
"""

from __future__ import annotations

import re
from typing import Optional

from tfdoctor.evidence.frameworks import read_gpu_frameworks
from tfdoctor.evidence.tflog import readable_bytes
from tfdoctor.records import Record, record

_MIB = 1024**2
_GIB = 1024**3

#: The device TensorFlow created (its GPU:N), the memory it took (MB, as it prints it: MiB),
#: the physical GPU's index and its name.
_CREATED = re.compile(
    r"Created (?:TensorFlow )?device [^\n]{0,200}?GPU:(?P<logical>\d+) with (?P<mb>\d+) MB "
    r"memory\)?:?\s*->\s*(?:physical GPU \()?device: (?P<gpu>\d+), name: (?P<name>[^,\n]+)"
)
#: The program's own cap on TensorFlow's share of a GPU, where the log shows its code or
#: configuration: a logical (virtual) device's memory_limit (tf.config), TensorFlow 1's
#: per_process_gpu_memory_fraction (GPUOptions). A device that small is then what was asked.
_CAPPED = re.compile(
    r"\bmemory_limit\s*=|per_process_gpu_memory_fraction"
    r"|(?:Virtual|Logical)DeviceConfiguration|set_(?:virtual|logical)_device_configuration"
)
#: TensorFlow 2.1-2.4's description of the GPU it found, with its size.
_DEVICE_SIZE = re.compile(r"deviceMemorySize: (?P<size>\d+(?:\.\d+)?[KMGT]iB)")
#: A size in a GPU's model name: ``V100-SXM2-16GB``, ``H100 80GB HBM3``, ``A100-PCIE-40GB``.
_NAME_SIZE = re.compile(r"(?<![\d.])(?P<gb>\d{1,3})\s?GB\b")
#: The allocator's limit in its stats after a failure (``Limit:  10098229248``), or its
#: region line's ``memory_limit_: N``.
_LIMIT = re.compile(r"(?:^|\n)\s*Limit:\s+(?P<n>\d+)\s*(?:\n|$)|memory_limit_: (?P<m>\d+)")

#: The share of the GPU below which the memory TensorFlow took shows another process holding
#: the rest (a desktop's display takes a few hundred MiB, far from half).
TAKEN_SHARE = 0.5
#: The device size below which, with the GPU's own size not shown, memory was held elsewhere
#: unless the GPU is that small: the GPUs TensorFlow 2 runs on (compute capability 3.5 and
#: up) carry a GiB or more, and a display takes a few hundred MiB of it.
TAKEN_BELOW = 512 * 1024**2


@record
class GpuMemoryShown(Record):
    """The GPU's memory as the log shows it, each None where it does not."""

    #: The bytes TensorFlow took for its first GPU device when it started.
    device_bytes: Optional[int] = None
    #: The GPU's own size: TensorFlow's ``deviceMemorySize``, else its model name's.
    total_bytes: Optional[int] = None
    #: The allocator's limit, printed after a failure.
    limit_bytes: Optional[int] = None
    #: The program capped TensorFlow's share of the GPU: its code or configuration shows a
    #: memory limit or fraction, or two of TensorFlow's devices share one GPU (virtual
    #: devices), so a small device says nothing of other processes.
    capped: bool = False
    #: Other frameworks whose GPU work the log shows beside TensorFlow's (``PyTorch``,
    #: ``JAX``, ``CuPy``), in that order.
    frameworks: tuple[str, ...] = ()

    @property
    def taken_before(self) -> bool:
        """Whether TensorFlow's device is far smaller than its GPU, or than any GPU where the
        GPU's size is not shown: memory held elsewhere."""
        if self.device_bytes is None or self.capped:
            return False
        if self.total_bytes is None:
            return self.device_bytes < TAKEN_BELOW
        return self.device_bytes < TAKEN_SHARE * self.total_bytes

    def never_fits(self, request: Optional[int]) -> bool:
        """Whether ``request`` bytes are at least all the memory TensorFlow has on the GPU."""
        room = self.limit_bytes or self.device_bytes
        return request is not None and room is not None and request >= room


def read_gpu_memory(text: str) -> GpuMemoryShown:
    """What ``text`` shows of the first GPU's memory (:class:`GpuMemoryShown`)."""
    created = _CREATED.search(text)
    device = int(created["mb"]) * _MIB if created else None
    size = _DEVICE_SIZE.search(text)
    total = readable_bytes(size["size"]) if size else None
    if total is None and created is not None:
        named = _NAME_SIZE.search(created["name"])
        total = int(named["gb"]) * _GIB if named else None
    limit = _LIMIT.search(text)
    return GpuMemoryShown(
        device,
        total,
        int(limit["n"] or limit["m"]) if limit else None,
        _CAPPED.search(text) is not None or _virtual_devices(text),
        read_gpu_frameworks(text),
    )


def _virtual_devices(text: str) -> bool:
    """Whether two of TensorFlow's GPU devices in ``text`` sit on one physical GPU."""
    seen: dict[str, str] = {}
    for created in _CREATED.finditer(text):
        logical = seen.setdefault(created["gpu"], created["logical"])
        if logical != created["logical"]:
            return True
    return False
