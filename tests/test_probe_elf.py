"""The ELF dynamic-section reader, on gcc-built libraries and hand-made 32-bit/big-endian files."""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path

import pytest

from tests.cstubs import build_shared_lib, require_gcc
from tfdoctor.facts import CudaLibsFacts, ProbeError
from tfdoctor.probes._run import run_command
from tfdoctor.probes.cudalibs import probe_cuda_libs
from tfdoctor.probes.elf import (
    ElfDynamic,
    expand_origin,
    parse_elf_dynamic,
    read_elf_dynamic,
    tensorflow_runpath,
)

DATA = Path(__file__).parent / "data" / "elf"
SOURCE = "int tfdoctor_elf_stub(void) { return 1; }\n"


def _build(directory: Path, filename: str, *flags: str) -> Path:
    """A shared library linked with extra flags (``-Wl,...``)."""
    gcc = require_gcc()
    directory.mkdir(parents=True, exist_ok=True)
    src = directory / "stub.c"
    src.write_text(SOURCE, encoding="utf-8")
    out = directory / filename
    subprocess.run(
        [gcc, "-shared", "-fPIC", "-o", str(out), str(src), f"-Wl,-soname,{filename}", *flags],
        check=True,
        capture_output=True,
    )
    src.unlink()
    return out


def _elf(bits: int, byteorder: str, dynamic: list[tuple[int, str]]) -> bytes:
    """A minimal ELF shared object: one PT_LOAD over the file, a PT_DYNAMIC, a string table."""
    end = "<" if byteorder == "little" else ">"
    strtab = b"\0"
    entries: list[tuple[int, int]] = []
    for tag, text in dynamic:
        entries.append((tag, len(strtab)))
        strtab += text.encode() + b"\0"
    wide = bits == 64
    ehsize, phentsize = (64, 56) if wide else (52, 32)
    phoff = ehsize
    dyn_off = phoff + 2 * phentsize
    dyn_size = (16 if wide else 8) * (len(entries) + 3)
    str_off = dyn_off + dyn_size
    vaddr = 0x10000  # a load address unlike the file offset, as real objects have
    entries += [(5, vaddr + str_off), (10, len(strtab)), (0, 0)]
    total = str_off + len(strtab)
    ident = b"\x7fELF" + bytes([2 if wide else 1, 1 if byteorder == "little" else 2, 1])
    ident += b"\0" * (16 - len(ident))
    if wide:
        header = ident + struct.pack(
            end + "HHIQQQIHHHHHH", 3, 62, 1, 0, phoff, 0, 0, 64, 56, 2, 0, 0, 0
        )
        load = struct.pack(end + "IIQQQQQQ", 1, 5, 0, vaddr, vaddr, total, total, 0x1000)
        dyn = struct.pack(
            end + "IIQQQQQQ", 2, 6, dyn_off, vaddr + dyn_off, 0, dyn_size, dyn_size, 8
        )
        body = b"".join(struct.pack(end + "qQ", t, v) for t, v in entries)
    else:
        header = ident + struct.pack(
            end + "HHIIIIIHHHHHH", 3, 3, 1, 0, phoff, 0, 0, 52, 32, 2, 0, 0, 0
        )
        load = struct.pack(end + "IIIIIIII", 1, 0, vaddr, vaddr, total, total, 5, 0x1000)
        dyn = struct.pack(
            end + "IIIIIIII", 2, dyn_off, vaddr + dyn_off, 0, dyn_size, dyn_size, 6, 4
        )
        body = b"".join(struct.pack(end + "iI", t, v) for t, v in entries)
    data = header + load + dyn + body + strtab
    assert len(data) == total
    return data


def test_runpath_of_a_gcc_built_library(tmp_path: Path) -> None:
    lib = _build(
        tmp_path / "site" / "tensorflow",
        "libtensorflow_framework.so.2",
        "-Wl,-rpath,$ORIGIN/../nvidia/cudnn/lib:$ORIGIN/../nvidia/cublas/lib",
        "-Wl,--enable-new-dtags",
    )
    dynamic = read_elf_dynamic(str(lib))
    assert isinstance(dynamic, ElfDynamic)
    assert dynamic.runpath == ("$ORIGIN/../nvidia/cudnn/lib", "$ORIGIN/../nvidia/cublas/lib")
    assert dynamic.rpath == ()
    assert dynamic.soname == "libtensorflow_framework.so.2"
    assert dynamic.bits == 64 and dynamic.byteorder == "little"

    found = tensorflow_runpath(tmp_path / "site" / "tensorflow")
    assert found.error is None and found.kind == "runpath"
    assert found.object == str(lib)
    site = tmp_path / "site"
    assert found.dirs == (str(site / "nvidia/cudnn/lib"), str(site / "nvidia/cublas/lib"))


def test_rpath_of_a_gcc_built_library(tmp_path: Path) -> None:
    lib = _build(
        tmp_path / "tensorflow",
        "libtensorflow_framework.so.1",
        "-Wl,-rpath,${ORIGIN}/../lib:/usr/local/cuda/lib64",
        "-Wl,--disable-new-dtags",
    )
    dynamic = read_elf_dynamic(str(lib))
    assert isinstance(dynamic, ElfDynamic)
    assert dynamic.runpath == ()
    assert dynamic.rpath == ("${ORIGIN}/../lib", "/usr/local/cuda/lib64")
    found = tensorflow_runpath(tmp_path / "tensorflow")
    assert found.kind == "rpath"
    assert found.dirs == (str(tmp_path / "lib"), "/usr/local/cuda/lib64")


def test_a_library_without_either(tmp_path: Path) -> None:
    lib = build_shared_lib(tmp_path, "libplain.so", SOURCE)
    dynamic = read_elf_dynamic(str(lib))
    assert isinstance(dynamic, ElfDynamic)
    assert (dynamic.runpath, dynamic.rpath) == ((), ())


def test_the_companion_library_adds_its_runpath(tmp_path: Path) -> None:
    package = tmp_path / "tensorflow"
    _build(package, "libtensorflow_framework.so.2", "-Wl,-rpath,$ORIGIN/../nvidia/cudnn/lib")
    _build(
        package,
        "libtensorflow_cc.so.2",
        "-Wl,-rpath,$ORIGIN/../nvidia/cusolver/lib:$ORIGIN/../nvidia/cudnn/lib",
    )
    found = tensorflow_runpath(package)
    assert found.object == str(package / "libtensorflow_framework.so.2")
    assert found.dirs == (
        str(tmp_path / "nvidia/cudnn/lib"),
        str(tmp_path / "nvidia/cusolver/lib"),
    )


def test_the_python_extension_when_there_is_no_framework_library(tmp_path: Path) -> None:
    package = tmp_path / "tensorflow"
    _build(package / "python", "_pywrap_tensorflow_internal.so", "-Wl,-rpath,$ORIGIN/..")
    found = tensorflow_runpath(package)
    assert found.object == str(package / "python" / "_pywrap_tensorflow_internal.so")
    assert found.dirs == (str(package),)


def test_no_library_reads_nothing(tmp_path: Path) -> None:
    assert tensorflow_runpath(tmp_path).object is None
    assert tensorflow_runpath(None).dirs == ()


@pytest.mark.parametrize(
    ("bits", "byteorder"),
    [(32, "little"), (32, "big"), (64, "little"), (64, "big")],
    ids=["elf32-lsb", "elf32-msb", "elf64-lsb", "elf64-msb"],
)
def test_both_classes_and_byte_orders(bits: int, byteorder: str) -> None:
    data = _elf(bits, byteorder, [(1, "libc.so.6"), (14, "libx.so.1"), (29, "$ORIGIN/a:/b")])
    assert parse_elf_dynamic(data) == ElfDynamic(
        bits=bits,
        byteorder=byteorder,
        runpath=("$ORIGIN/a", "/b"),
        soname="libx.so.1",
    )


@pytest.mark.parametrize(
    "cut",
    [0, 3, 16, 40, 63, 100, 150, -5],
    ids=["empty", "magic", "ident", "header", "before-phdrs", "phdrs", "dynamic", "strtab"],
)
def test_a_truncated_file_is_an_error(cut: int) -> None:
    data = _elf(64, "little", [(29, "$ORIGIN/../nvidia/cudnn/lib")])
    result = parse_elf_dynamic(data[:cut], "lib.so")
    assert isinstance(result, ProbeError)
    assert result.reason == "bad-elf" and result.message.startswith("lib.so: ")


@pytest.mark.parametrize(
    "data",
    [
        b"not an elf file at all, just some text",
        b"\x7fELF" + b"\x09\x01" + b"\0" * 60,
        b"\x7fELF" + b"\xff" * 200,
    ],
    ids=["text", "bad-class", "garbage-header"],
)
def test_garbage_is_an_error(data: bytes) -> None:
    assert isinstance(parse_elf_dynamic(data), ProbeError)


def test_garbage_and_truncated_files_on_disk(tmp_path: Path) -> None:
    real = build_shared_lib(tmp_path, "libreal.so", SOURCE)
    cut = tmp_path / "libcut.so"
    cut.write_bytes(real.read_bytes()[:200])
    empty = tmp_path / "libempty.so"
    empty.write_bytes(b"")
    for path in (cut, empty, tmp_path / "missing.so", tmp_path):
        assert isinstance(read_elf_dynamic(str(path)), ProbeError), path

    package = tmp_path / "tensorflow"
    package.mkdir()
    (package / "libtensorflow_framework.so.2").write_bytes(b"\x7fELF\x02\x01garbage")
    found = tensorflow_runpath(package)
    assert found.dirs == () and found.error is not None and found.error.reason == "bad-elf"


def test_the_recorded_tensorflow_runpath_expands_without_repeats() -> None:
    text = (DATA / "tensorflow-2.21.0-libtensorflow_framework.so.2.runpath").read_text()
    entries = text.strip().split(":")
    assert len(entries) > 400  # Bazel repeats each entry per target
    dirs = expand_origin(entries, "/env/lib/python3.12/site-packages/tensorflow")
    site = "/env/lib/python3.12/site-packages"
    wheels = [d for d in dirs if d.startswith(site + "/nvidia/")]
    assert wheels == [
        f"{site}/nvidia/{name}/lib"
        for name in (
            "nccl",
            "cuda_cupti",
            "cublas",
            "cudnn",
            "cufft",
            "cusparse",
            "cuda_runtime",
            "nvshmem",
        )
    ]
    assert len(dirs) == len(set(dirs)) == 18


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        (["$ORIGIN/../lib"], ("/a/lib",)),
        (["${ORIGIN}/x/./y/"], ("/a/b/x/y",)),
        (["", "/opt/lib", "/opt/lib/"], ("/opt/lib",)),
        (["$ORIGIN"], ("/a/b",)),
    ],
    ids=["parent", "braces-and-dots", "empty-and-repeat", "bare-origin"],
)
def test_expand_origin(entries: list[str], expected: tuple[str, ...]) -> None:
    assert expand_origin(entries, "/a/b") == expected


# --- the library search uses what was read -------------------------------------------------

CUDART = "int cudaRuntimeGetVersion(int *v) { *v = 12030; return 0; }\n"


def _cuda_libs(site: Path) -> CudaLibsFacts:
    return probe_cuda_libs(
        [str(site)],
        {"is_cuda_build": True, "cuda_version": "12.3", "cudnn_version": "9"},
        {},
        run_command,
        ldconfig_output="",
        system_dirs=(),
        toolkit_dirs=(),
    )


def test_the_search_follows_the_runpath_read(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _build(
        site / "tensorflow",
        "libtensorflow_framework.so.2",
        "-Wl,-rpath,$ORIGIN/../custom/lib:$ORIGIN/../nvidia/cuda_runtime/lib",
        "-Wl,--enable-new-dtags",
    )
    (site / "tensorflow" / "__init__.py").write_text("")
    custom = build_shared_lib(site / "custom" / "lib", "libcudart.so.12", CUDART)
    wheel = build_shared_lib(site / "nvidia" / "cuda_runtime" / "lib", "libcudart.so.12", CUDART)
    # The wheel layout names nvidia/cudnn/lib, which this RUNPATH does not: not searched.
    build_shared_lib(site / "nvidia" / "cudnn" / "lib", "libcudnn.so.9", SOURCE)

    facts = _cuda_libs(site)

    assert facts.runpath_object == str(site / "tensorflow" / "libtensorflow_framework.so.2")
    assert facts.runpath == (str(site / "custom/lib"), str(site / "nvidia/cuda_runtime/lib"))
    (cudart,) = [lib for lib in facts.libraries if lib.name == "cudart"]
    assert [(c.path, c.origin) for c in cudart.candidates] == [
        (str(custom), "RUNPATH"),
        (str(wheel), "pip"),
    ]
    (cudnn,) = [lib for lib in facts.libraries if lib.name == "cudnn"]
    assert cudnn.candidates == ()


def test_without_a_framework_library_the_wheel_layout_stands_in(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "tensorflow").mkdir(parents=True)
    (site / "tensorflow" / "__init__.py").write_text("")
    wheel = build_shared_lib(site / "nvidia" / "cuda_runtime" / "lib", "libcudart.so.12", CUDART)

    facts = _cuda_libs(site)

    assert (facts.runpath, facts.runpath_object) == ((), None)
    (cudart,) = [lib for lib in facts.libraries if lib.name == "cudart"]
    assert [(c.path, c.origin) for c in cudart.candidates] == [(str(wheel), "pip")]
