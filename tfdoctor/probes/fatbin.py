"""The GPU architectures in a CUDA fat binary (an ELF file's ``.nv_fatbin`` section), headers only.

``nvcc`` puts each translation unit's GPU code in a fat binary container: a 16-byte header
(magic ``0xBA55ED50``, version 1, the header's size, then the size of what follows), then
entries, each with its own header and payload. An entry header starts with its kind (1 PTX,
2 machine code, an ELF "cubin"), its version, its header size and its payload size; the
architecture (``major * 10 + minor``: 90 is ``sm_90``) is the 32-bit word at byte 28. The
layout is that of CUDA's ``fatbinary_section.h``/``fatbinary.h`` (``fatBinaryHeader``) and of
the entry header as public readers of the format document it (NVIDIA publishes no
specification of the entries; cuobjdump's ``--list-elf``/``--list-ptx`` print the same
architectures). A shared object holds one container per translation unit, back to back.

Only headers are read, never a payload (the payloads are compressed), so the section's
hundreds of megabytes cost a few thousand small reads. Everything is little-endian: CUDA
builds exist for x86-64 and little-endian AArch64 and POWER only.
"""

from __future__ import annotations

import struct
from typing import Union

from tfdoctor.facts import ProbeError
from tfdoctor.probes.elf import Data
from tfdoctor.records import Record, record

PROBE = "cuda_libs"

#: The container header's magic number (CUDA's FATBIN_MAGIC), as it lies in the file.
MAGIC = struct.pack("<I", 0xBA55ED50)
_CONTAINER = struct.Struct("<IHHQ")  # magic, version, header size, size of the entries
_ENTRY = struct.Struct("<HHIQ")  # kind, version, header size, payload size
_ARCH = struct.Struct("<I")
_ARCH_AT = 28
_ENTRY_MIN = _ARCH_AT + _ARCH.size
#: Entry kinds: PTX text, and machine code (``cuobjdump`` counts 0x10 as machine code too).
_PTX, _SASS = 1, frozenset({2, 0x10})


@record
class FatbinCode(Record):
    """The architectures a fat binary region holds code for, oldest first."""

    #: ``sm_XY``: machine code for compute capability X.Y.
    sass: tuple[str, ...] = ()
    #: ``compute_XY``: PTX the driver can compile for X.Y and newer.
    ptx: tuple[str, ...] = ()
    containers: int = 0


class _FatbinError(ValueError):
    """A container or entry header that does not fit the region or the format."""


def _arch_key(name: str) -> int:
    return int(name.rpartition("_")[2])


def _container(data: Data, start: int, end: int, sass: set[str], ptx: set[str]) -> int:
    """Read the container at ``start``; add its architectures; return where it ends."""
    if start + _CONTAINER.size > end:
        raise _FatbinError(f"a container header cut off at byte {start}")
    _magic, version, header_size, size = _CONTAINER.unpack_from(data, start)
    if version != 1 or header_size < _CONTAINER.size:
        raise _FatbinError(f"container version {version}, header of {header_size} bytes")
    stop: int = start + header_size + size
    if stop > end:
        raise _FatbinError(f"a container at byte {start} runs past the section")
    entry: int = start + header_size
    while entry + _ENTRY_MIN <= stop:
        kind, _version, entry_header, payload = _ENTRY.unpack_from(data, entry)
        if entry_header < _ENTRY_MIN:
            raise _FatbinError(f"an entry header of {entry_header} bytes at byte {entry}")
        (arch,) = _ARCH.unpack_from(data, entry + _ARCH_AT)
        if kind == _PTX:
            ptx.add(f"compute_{arch}")
        elif kind in _SASS:
            sass.add(f"sm_{arch}")
        entry += entry_header + payload
    if entry != stop:
        raise _FatbinError(f"the entries of the container at byte {start} overrun it")
    return stop


def parse_fatbin(
    data: Data, start: int = 0, end: int = -1, name: str = "file"
) -> Union[FatbinCode, ProbeError]:
    """The architectures of every container in ``data[start:end]`` (a ``.nv_fatbin`` section).

    Containers follow each other, sometimes after alignment padding; anything between them
    that is not a container header is skipped up to the next magic number.
    """
    end = len(data) if end < 0 else min(end, len(data))
    sass: set[str] = set()
    ptx: set[str] = set()
    count = 0
    position = data.find(MAGIC, start, end)
    try:
        while position >= 0:
            position = _container(data, position, end, sass, ptx)
            count += 1
            position = data.find(MAGIC, position, end)
    except (_FatbinError, struct.error) as exc:
        return ProbeError(PROBE, "bad-fatbin", f"{name}: {exc}")
    return FatbinCode(
        sass=tuple(sorted(sass, key=_arch_key)),
        ptx=tuple(sorted(ptx, key=_arch_key)),
        containers=count,
    )
