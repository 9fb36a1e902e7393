"""What TensorFlow's own shared objects say about the build: the CUDA libraries they name and
the GPU code they carry, read from the files without importing TensorFlow or needing a GPU.

TensorFlow opens the CUDA libraries with ``dlopen`` by a name it builds at run time,
``lib<name>.so.<version>`` (xla/tsl/platform/default/dso_loader.cc: ``GetDsoHandle("cublas",
...)``), so its read-only data holds the base name (``cublas``), not the soname. A library
whose name is in none of the build's objects is one the build never opens: TensorFlow 2.14 to
2.21 name no cuRAND, though the ``and-cuda`` extra installs it. The GPU code comes from the
``.nv_fatbin`` sections (:mod:`tfdoctor.probes.fatbin`).
"""

from __future__ import annotations

import json
import mmap
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Optional, Union

from tfdoctor.cache import code_of, entry_path, read_entry, write_entry
from tfdoctor.facts import GpuCodeFacts, ProbeError
from tfdoctor.probes.elf import (
    RUNPATH_COMPANIONS,
    RUNPATH_OBJECTS,
    SHT_NOBITS,
    Data,
    ElfSection,
    parse_elf_sections,
)
from tfdoctor.probes.fatbin import FatbinCode, parse_fatbin
from tfdoctor.records import Record, record

PROBE = "cuda_libs"

#: The objects read, where present: the framework library (or TF 1.x's), its companion
#: ``libtensorflow_cc.so.2`` (the kernels, with cuSOLVER's and most of the GPU code), and the
#: Python extension that held everything before the framework library existed.
BUILD_OBJECTS = (*RUNPATH_OBJECTS, *RUNPATH_COMPANIONS)
#: Bytes searched per object at most. The largest, TF 2.21's libtensorflow_cc.so.2, has
#: 83 MiB of ``.rodata`` and 83 MiB of ``.dynstr``; the cap bounds what a stranger file costs.
MAX_SEARCH_BYTES = 512 * 2**20
#: Where a name is: string literals (``.rodata``, the names TF's loader builds sonames from),
#: and the dynamic string table, where a build that links a library at link time (DT_NEEDED)
#: names its soname.
_SEARCHED = (".rodata", ".dynstr")
_FATBIN = ".nv_fatbin"


def library_word(name: str) -> bytes:
    """The bytes naming library ``name`` in an object that opens it: the base name, and the
    driver's ``libcuda`` in full (``cuda`` alone is part of every other name)."""
    return b"libcuda" if name == "cuda" else name.encode()


@record
class BuildRead(Record):
    """What the objects of one TensorFlow package say; ``named`` None: none could be read."""

    objects: tuple[str, ...] = ()
    named: Optional[tuple[str, ...]] = None
    gpu_code: Optional[GpuCodeFacts] = None
    error: Optional[ProbeError] = None


def find_words(
    data: Data, regions: Sequence[tuple[int, int]], words: Sequence[bytes]
) -> frozenset[bytes]:
    """The ``words`` that occur in any of the (offset, size) ``regions`` of ``data``.

    ``find`` stops at the first occurrence, so a word the object holds costs little; one it
    lacks costs one pass over the regions (0.12 s for 83 MiB here; a mapped file is not copied).
    """
    found = set()
    for word in words:
        for offset, size in regions:
            if data.find(word, offset, offset + size) >= 0:
                found.add(word)
                break
    return frozenset(found)


def _regions(sections: Sequence[ElfSection], prefix: str) -> list[tuple[int, int]]:
    """(offset, size) of the sections named ``prefix`` or ``prefix.*`` that have bytes."""
    return [
        (s.offset, s.size)
        for s in sections
        if s.type != SHT_NOBITS and (s.name == prefix or s.name.startswith(prefix + "."))
    ]


def parse_build_object(
    data: Data, names: Sequence[str], name: str = "file"
) -> Union[tuple[frozenset[str], FatbinCode], ProbeError]:
    """The library ``names`` one object's strings hold, and its GPU code."""
    sections = parse_elf_sections(data, name)
    if isinstance(sections, ProbeError):
        return sections
    budget, regions = MAX_SEARCH_BYTES, []
    for offset, size in (r for prefix in _SEARCHED for r in _regions(sections, prefix)):
        regions.append((offset, min(size, budget)))
        budget -= regions[-1][1]
        if budget <= 0:
            break
    words = {library_word(n): n for n in names}
    found = find_words(data, regions, list(words))
    sass: set[str] = set()
    ptx: set[str] = set()
    for offset, size in _regions(sections, _FATBIN):
        code = parse_fatbin(data, offset, offset + size, name)
        if isinstance(code, ProbeError):
            return code
        sass.update(code.sass)
        ptx.update(code.ptx)
    named = frozenset(words[w] for w in found)
    return named, FatbinCode(sass=_sorted(sass), ptx=_sorted(ptx))


def _sorted(archs: set[str]) -> tuple[str, ...]:
    return tuple(sorted(archs, key=lambda a: int(a.rpartition("_")[2])))


def _read_object(
    path: Path, names: Sequence[str]
) -> Union[tuple[frozenset[str], FatbinCode], ProbeError]:
    """:func:`_read_uncached`, kept in the cache between runs: TensorFlow's objects are
    large (about 0.3 s to search on every ``check``) and change only with a reinstall, which
    changes their size, modification time or inode, the entry's key."""
    # Keyed by the code that decides what a read gives: this module and what it reaches.
    code = code_of(__name__)
    try:
        stats = path.stat()
    except OSError:
        return _read_uncached(path, names)
    if code is None:
        return _read_uncached(path, names)
    identity = f"{path}\0{stats.st_size}\0{stats.st_mtime_ns}\0{stats.st_ino}"
    entry = entry_path("tfbuild", (identity.encode(), "\0".join(names).encode(), *code), ".json")
    cached = read_entry(entry) if entry is not None else None
    if cached is not None:
        try:
            doc = json.loads(cached)
            return frozenset(doc["named"]), FatbinCode(
                tuple(doc["sass"]), tuple(doc["ptx"]), int(doc["containers"])
            )
        except (ValueError, KeyError, TypeError):
            pass  # a damaged entry: read the object again
    result = _read_uncached(path, names)
    if entry is not None and not isinstance(result, ProbeError):
        found, fat = result
        doc = {
            "named": sorted(found),
            "sass": fat.sass,
            "ptx": fat.ptx,
            "containers": fat.containers,
        }
        write_entry(entry, json.dumps(doc).encode())
    return result


def _read_uncached(
    path: Path, names: Sequence[str]
) -> Union[tuple[frozenset[str], FatbinCode], ProbeError]:
    try:
        with path.open("rb") as handle:
            if os.fstat(handle.fileno()).st_size == 0:
                return ProbeError(PROBE, "bad-elf", f"{path}: empty file")
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return parse_build_object(data, names, str(path))
    except (OSError, ValueError) as exc:
        return ProbeError(PROBE, "unreadable", f"{path}: {exc}")


def read_build(package: Optional[Path], names: Sequence[str]) -> BuildRead:
    """Which of ``names`` TensorFlow's objects in ``package`` name, and their GPU code.

    ``cublasLt`` counts as named with ``cublas``: cuBLAS itself needs it (libcublas.so's
    DT_NEEDED lists libcublasLt since CUDA 10.1), whether or not TensorFlow names it too.
    """
    if package is None:
        return BuildRead()
    named: set[str] = set()
    sass: set[str] = set()
    ptx: set[str] = set()
    read: list[str] = []
    carrying: list[str] = []
    error: Optional[ProbeError] = None
    for relative in BUILD_OBJECTS:
        path = package / relative
        if not path.is_file():
            continue
        # A name one object holds is not searched for again in the next (the big ones).
        result = _read_object(path, [n for n in names if n not in named])
        if isinstance(result, ProbeError):
            error = error or result
            continue
        read.append(str(path))
        found, code = result
        named.update(found)
        sass.update(code.sass)
        ptx.update(code.ptx)
        if code.sass or code.ptx:
            carrying.append(str(path))
    if not read:
        return BuildRead(error=error)
    if "cublas" in named and "cublasLt" in names:
        named.add("cublasLt")
    gpu_code = GpuCodeFacts(_sorted(sass), _sorted(ptx), tuple(carrying), error)
    return BuildRead(
        objects=tuple(read),
        named=tuple(n for n in names if n in named),
        gpu_code=gpu_code,
        error=error,
    )
