"""ELF shared objects read without loading them: the dynamic section and the section headers.

A small reader with the standard library's ``struct`` only, for 32- and 64-bit files of
either byte order (the ELF format: https://refspecs.linuxfoundation.org/elf/gabi4+/ch5.dynamic.html,
section headers: https://refspecs.linuxfoundation.org/elf/gabi4+/ch4.sheader.html).
TensorFlow's pip wheels reach the ``nvidia-*`` wheels' libraries through the RUNPATH of
``libtensorflow_framework.so.2`` (``$ORIGIN/../nvidia/cudnn/lib`` ...); reading it tells the
library search where the loader really looks instead of assuming the wheel layout. The
sections tell what the build itself carries: the names of the libraries it opens (its
read-only data) and its GPU code (``.nv_fatbin``, read by :mod:`tfdoctor.probes.fatbin`).
"""

from __future__ import annotations

import mmap
import os
import posixpath
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Optional, Union

from tfdoctor.facts import ProbeError
from tfdoctor.records import Record, record

PROBE = "cuda_libs"

#: What the parser accepts: a file's bytes, or the file mapped into memory.
Data = Union[bytes, mmap.mmap]

_ELF_MAGIC = b"\x7fELF"
_ELFCLASS32, _ELFCLASS64 = 1, 2
_ELFDATA2LSB, _ELFDATA2MSB = 1, 2
_PT_LOAD, _PT_DYNAMIC = 1, 2
_DT_NULL, _DT_STRTAB, _DT_STRSZ = 0, 5, 10
_DT_SONAME, _DT_RPATH, _DT_RUNPATH = 14, 15, 29


@record
class ElfDynamic(Record):
    """The strings of a dynamic section that the loader's search uses, as written."""

    bits: int
    #: ``little`` or ``big``.
    byteorder: str
    runpath: tuple[str, ...] = ()
    rpath: tuple[str, ...] = ()
    soname: Optional[str] = None


class _ElfFormatError(ValueError):
    """The bytes are not a well-formed ELF file (or not one with a dynamic section)."""


def _unpack(fmt: str, data: Data, offset: int) -> tuple[int, ...]:
    if offset < 0 or offset + struct.calcsize(fmt) > len(data):
        raise _ElfFormatError(f"truncated at byte {offset}")
    return struct.unpack_from(fmt, data, offset)


def _string(data: Data, strtab: int, strsz: int, index: int) -> str:
    if index >= strsz:
        raise _ElfFormatError(f"string index {index} outside the string table")
    start = strtab + index
    end = data.find(b"\0", start, strtab + strsz)
    if end < 0:
        raise _ElfFormatError("unterminated string in the dynamic string table")
    return bytes(data[start:end]).decode("utf-8", "surrogateescape")


def _ident(data: Data) -> tuple[str, bool]:
    """The ``struct`` byte-order prefix and whether the file is 64-bit, from ``e_ident``."""
    if len(data) < 16 or data[:4] != _ELF_MAGIC:
        raise _ElfFormatError("not an ELF file")
    elf_class, elf_data = data[4], data[5]
    if elf_class not in (_ELFCLASS32, _ELFCLASS64) or elf_data not in (_ELFDATA2LSB, _ELFDATA2MSB):
        raise _ElfFormatError(f"unknown ELF class {elf_class} or data encoding {elf_data}")
    return ("<" if elf_data == _ELFDATA2LSB else ">"), elf_class == _ELFCLASS64


def _dynamic(data: Data) -> ElfDynamic:
    end, wide = _ident(data)
    # Elf32_Ehdr/Elf64_Ehdr: e_phoff, then e_phentsize and e_phnum (System V gABI, ch. 4).
    if wide:
        (phoff,) = _unpack(end + "Q", data, 0x20)
        phentsize, phnum = _unpack(end + "HH", data, 0x36)
        phdr, dyn = end + "IIQQQQQQ", end + "qQ"
    else:
        (phoff,) = _unpack(end + "I", data, 0x1C)
        phentsize, phnum = _unpack(end + "HH", data, 0x2A)
        phdr, dyn = end + "IIIIIIII", end + "iI"
    if phentsize < struct.calcsize(phdr):
        raise _ElfFormatError(f"program header entries of {phentsize} bytes")
    loads: list[tuple[int, int, int]] = []
    dynamic: Optional[tuple[int, int]] = None
    for index in range(phnum):
        fields = _unpack(phdr, data, phoff + index * phentsize)
        if wide:
            p_type, _flags, p_offset, p_vaddr, _paddr, p_filesz = fields[:6]
        else:
            p_type, p_offset, p_vaddr, _paddr, p_filesz = fields[:5]
        if p_type == _PT_LOAD:
            loads.append((p_vaddr, p_offset, p_filesz))
        elif p_type == _PT_DYNAMIC:
            dynamic = (p_offset, p_filesz)
    if dynamic is None:
        raise _ElfFormatError("no dynamic section (a static executable or an object file)")

    entries: list[tuple[int, int]] = []
    size = struct.calcsize(dyn)
    for offset in range(dynamic[0], dynamic[0] + dynamic[1] - size + 1, size):
        tag, value = _unpack(dyn, data, offset)
        if tag == _DT_NULL:
            break
        entries.append((tag, value))
    tags = dict(entries)
    if _DT_STRTAB not in tags or _DT_STRSZ not in tags:
        raise _ElfFormatError("dynamic section without a string table")
    # DT_STRTAB is a virtual address; the PT_LOAD segment holding it maps it to the file.
    address = tags[_DT_STRTAB]
    strtab = next(
        (off + address - vaddr for vaddr, off, size in loads if vaddr <= address < vaddr + size),
        None,
    )
    strsz = tags[_DT_STRSZ]
    if strtab is None or strtab + strsz > len(data):
        raise _ElfFormatError("the dynamic string table lies outside the file")

    def strings(wanted: int) -> list[str]:
        return [_string(data, strtab, strsz, value) for tag, value in entries if tag == wanted]

    def paths(wanted: int) -> tuple[str, ...]:
        return tuple(part for text in strings(wanted) for part in text.split(":"))

    sonames = strings(_DT_SONAME)
    return ElfDynamic(
        bits=64 if wide else 32,
        byteorder="little" if end == "<" else "big",
        runpath=paths(_DT_RUNPATH),
        rpath=paths(_DT_RPATH),
        soname=sonames[0] if sonames else None,
    )


@record
class ElfSection(Record):
    """One section header: the section's name and where its bytes lie in the file."""

    name: str
    #: ``sh_type``: 1 PROGBITS, 8 NOBITS (no bytes in the file) ...
    type: int
    offset: int
    size: int


#: ``sh_type`` of a section that takes no bytes in the file (``.bss``).
SHT_NOBITS = 8


def _sections(data: Data) -> tuple[ElfSection, ...]:
    end, wide = _ident(data)
    # Elf64_Ehdr/Elf32_Ehdr: e_shoff, then e_shentsize, e_shnum, e_shstrndx (gABI ch. 4).
    if wide:
        (shoff,) = _unpack(end + "Q", data, 0x28)
        shentsize, shnum, shstrndx = _unpack(end + "HHH", data, 0x3A)
        shdr = end + "IIQQQQIIQQ"
    else:
        (shoff,) = _unpack(end + "I", data, 0x20)
        shentsize, shnum, shstrndx = _unpack(end + "HHH", data, 0x2E)
        shdr = end + "IIIIIIIIII"
    if shoff == 0 or shnum == 0:
        return ()
    if shentsize < struct.calcsize(shdr):
        raise _ElfFormatError(f"section header entries of {shentsize} bytes")
    headers = [_unpack(shdr, data, shoff + i * shentsize) for i in range(shnum)]
    if shstrndx >= shnum:
        raise _ElfFormatError(f"section name table index {shstrndx} of {shnum} sections")
    names_at, names_size = headers[shstrndx][4], headers[shstrndx][5]
    if names_at + names_size > len(data):
        raise _ElfFormatError("the section name table lies outside the file")
    out = []
    for name, kind, _flags, _addr, offset, size, *_ in headers:
        if kind != SHT_NOBITS and offset + size > len(data):
            raise _ElfFormatError(f"a section lies outside the file (offset {offset})")
        out.append(ElfSection(_string(data, names_at, names_size, name), kind, offset, size))
    return tuple(out)


def parse_elf_sections(data: Data, name: str = "file") -> Union[tuple[ElfSection, ...], ProbeError]:
    """The section headers, named, or a ProbeError saying why the bytes are not an ELF file."""
    try:
        return _sections(data)
    except (_ElfFormatError, struct.error, IndexError) as exc:
        return ProbeError(PROBE, "bad-elf", f"{name}: {exc}")


def parse_elf_dynamic(data: Data, name: str = "file") -> Union[ElfDynamic, ProbeError]:
    """The dynamic section's search strings, or a ProbeError saying why the bytes are not one."""
    try:
        return _dynamic(data)
    except (_ElfFormatError, struct.error, IndexError) as exc:
        return ProbeError(PROBE, "bad-elf", f"{name}: {exc}")


def expand_origin(entries: Sequence[str], directory: str) -> tuple[str, ...]:
    """RUNPATH entries with ``$ORIGIN``/``${ORIGIN}`` as ``directory``, normalised, deduplicated.

    ld.so(8): ``$ORIGIN`` is the directory of the object holding the entry. An empty entry
    means the process's working directory to glibc, which is not TensorFlow's; it is left out,
    as are repeats (the first occurrence is the one the loader searches).
    """
    out: list[str] = []
    for entry in entries:
        if not entry:
            continue
        path = entry.replace("${ORIGIN}", directory).replace("$ORIGIN", directory)
        path = posixpath.normpath(path)
        if path not in out:
            out.append(path)
    return tuple(out)


def read_elf_dynamic(path: str) -> Union[ElfDynamic, ProbeError]:
    """The dynamic section of the file at ``path``, mapped rather than read; never raises."""
    try:
        with Path(path).open("rb") as handle:
            if os.fstat(handle.fileno()).st_size == 0:
                return ProbeError(PROBE, "bad-elf", f"{path}: empty file")
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return parse_elf_dynamic(data, path)
    except (OSError, ValueError) as exc:
        return ProbeError(PROBE, "unreadable", f"{path}: {exc}")


# --- TensorFlow's libraries ------------------------------------------------------------------

#: The object whose RUNPATH the library search uses, first found wins: TF 2.x's framework
#: library, TF 1.x's, then the Python extension of builds without a framework library.
RUNPATH_OBJECTS = (
    "libtensorflow_framework.so.2",
    "libtensorflow_framework.so.1",
    "python/_pywrap_tensorflow_internal.so",
)
#: Libraries whose RUNPATH extends the framework's: TF 2.x wheels put cuSOLVER's wheel
#: directory in ``libtensorflow_cc.so.2`` only.
RUNPATH_COMPANIONS = ("libtensorflow_cc.so.2",)


@record
class Runpath(Record):
    """The search directories TensorFlow's libraries carry, ``$ORIGIN`` expanded."""

    #: The object read (``.../tensorflow/libtensorflow_framework.so.2``); None when none exists.
    object: Optional[str] = None
    #: RUNPATH entries, else RPATH ones (glibc ignores DT_RPATH where DT_RUNPATH is present).
    dirs: tuple[str, ...] = ()
    #: ``runpath``, ``rpath`` or None (neither is set).
    kind: Optional[str] = None
    error: Optional[ProbeError] = None


def _search_dirs(dynamic: ElfDynamic, path: str) -> tuple[tuple[str, ...], Optional[str]]:
    directory = posixpath.dirname(posixpath.abspath(path))
    if dynamic.runpath:
        return expand_origin(dynamic.runpath, directory), "runpath"
    if dynamic.rpath:
        return expand_origin(dynamic.rpath, directory), "rpath"
    return (), None


def tensorflow_runpath(package: Optional[Path]) -> Runpath:
    """The RUNPATH of TensorFlow's framework library in ``package`` (and its companions).

    An empty result without ``object`` means no such library exists (a CPU wheel of another
    layout, a source tree): the caller then keeps its model of the wheel layout.
    """
    if package is None:
        return Runpath()
    found = next((package / name for name in RUNPATH_OBJECTS if (package / name).is_file()), None)
    if found is None:
        return Runpath()
    dynamic = read_elf_dynamic(str(found))
    if isinstance(dynamic, ProbeError):
        return Runpath(object=str(found), error=dynamic)
    dirs, kind = _search_dirs(dynamic, str(found))
    for name in RUNPATH_COMPANIONS:
        companion = package / name
        if not companion.is_file():
            continue
        extra = read_elf_dynamic(str(companion))
        if isinstance(extra, ElfDynamic):
            more, _ = _search_dirs(extra, str(companion))
            dirs += tuple(d for d in more if d not in dirs)
    return Runpath(object=str(found), dirs=dirs, kind=kind)
