"""TensorFlow's objects read without importing them: the CUDA libraries they name and the GPU
code in their ``.nv_fatbin`` sections, on gcc-built libraries holding fat binaries written
here byte by byte."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import venv
from pathlib import Path
from typing import Any

import pytest

from tests.cstubs import build_shared_lib, require_gcc
from tfdoctor.cuda_layout import library_names
from tfdoctor.doctor import collect_facts
from tfdoctor.facts import GpuCodeFacts, ProbeError
from tfdoctor.probes._run import run_command
from tfdoctor.probes.cudalibs import probe_cuda_libs
from tfdoctor.probes.elf import ElfSection, parse_elf_sections
from tfdoctor.probes.fatbin import FatbinCode, parse_fatbin
from tfdoctor.probes.tfbuild import read_build

PTX, SASS = 1, 2


def entry(kind: int, arch: int, payload: bytes, header_size: int = 64) -> bytes:
    """One fat binary entry: a header (kind, version, header size, payload size, the
    architecture at byte 28), then the payload padded to 8 bytes."""
    padded = payload + b"\0" * (-len(payload) % 8)
    head = struct.pack("<HHIQ", kind, 0x0101, header_size, len(padded))
    head += struct.pack("<IIHHI", len(payload), 0, 1, 7, arch)
    return head + b"\0" * (header_size - len(head)) + padded


def container(*entries: bytes) -> bytes:
    """A fat binary container: magic 0xBA55ED50, version 1, a 16-byte header, the entries."""
    body = b"".join(entries)
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(body)) + body


#: Two translation units' containers, 8 bytes of padding between them; the second holds a
#: Blackwell-style entry with a longer header.
FATBIN = (
    container(
        entry(SASS, 70, b"\x28\xb5\x2f\xfd cubin for sm_70"),
        entry(SASS, 80, b"cubin 80"),
        entry(PTX, 80, b".version 8.5\n.target sm_80\n"),
    )
    + b"\0" * 8
    + container(entry(SASS, 100, b"cubin 100", header_size=112), entry(PTX, 90, b"ptx"))
)


def c_library(fatbin: bytes, *words: str) -> str:
    """C source of a library whose ``.nv_fatbin`` section is ``fatbin`` and whose read-only
    data holds ``words`` (as TensorFlow's holds the base names it builds sonames from)."""
    array = ", ".join(str(b) for b in fatbin) or "0"
    names = ", ".join(f'"{w}"' for w in words) or '"none"'
    return (
        '__attribute__((section(".nv_fatbin"), aligned(8), used))\n'
        f"const unsigned char tfdoctor_fatbin[] = {{{array}}};\n"
        f"const char *const tfdoctor_names[] = {{{names}}};\n"
        "const char *tfdoctor_name(int i) { return tfdoctor_names[i]; }\n"
    )


# --- the container format --------------------------------------------------------------------


def test_every_container_and_entry_kind_is_read() -> None:
    code = parse_fatbin(b"\0" * 24 + FATBIN + b"\0" * 16, 24)
    assert code == FatbinCode(
        sass=("sm_70", "sm_80", "sm_100"), ptx=("compute_80", "compute_90"), containers=2
    )


def test_a_region_without_containers_holds_no_code() -> None:
    assert parse_fatbin(b"\0" * 64) == FatbinCode()


@pytest.mark.parametrize(
    "data",
    [
        FATBIN[:40],
        FATBIN[:-8],
        FATBIN[:16] + struct.pack("<HHIQ", SASS, 1, 8, 0) + FATBIN[32:],
        struct.pack("<IHHQ", 0xBA55ED50, 2, 16, 0),
        container(entry(SASS, 80, b"x" * 16)[:-8]) + b"\0" * 8,
    ],
    ids=["header-only", "cut-short", "entry-header-too-small", "version-2", "entry-overruns"],
)
def test_a_damaged_container_is_an_error(data: bytes) -> None:
    result = parse_fatbin(data, name="lib.so")
    assert isinstance(result, ProbeError), result
    assert result.reason == "bad-fatbin" and result.message.startswith("lib.so: ")


# --- in a real ELF file ----------------------------------------------------------------------


def test_the_section_headers_of_a_gcc_built_library(tmp_path: Path) -> None:
    lib = build_shared_lib(tmp_path, "libx.so", c_library(FATBIN, "cudnn"))
    sections = parse_elf_sections(lib.read_bytes())
    assert isinstance(sections, tuple)
    (fatbin,) = [s for s in sections if s.name == ".nv_fatbin"]
    assert lib.read_bytes()[fatbin.offset : fatbin.offset + len(FATBIN)] == FATBIN
    assert any(s.name.startswith(".rodata") for s in sections)
    assert isinstance(parse_elf_sections(b"\x7fELF\x02\x01" + b"\xff" * 80), ProbeError)
    assert isinstance(parse_elf_sections(b"text"), ProbeError)


def test_a_file_without_section_headers_has_none() -> None:
    header = b"\x7fELF\x02\x01\x01" + b"\0" * 9 + struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, *[0] * 10)
    assert parse_elf_sections(header) == ()
    assert ElfSection(".x", 1, 0, 0).name == ".x"


def _package(tmp_path: Path) -> Path:
    """A ``tensorflow`` package whose two libraries name libraries and carry GPU code as
    TensorFlow 2.21's do: cuSOLVER named in libtensorflow_cc.so.2 only, cuRAND nowhere."""
    package = tmp_path / "site" / "tensorflow"
    build_shared_lib(
        package,
        "libtensorflow_framework.so.2",
        c_library(container(entry(SASS, 60, b"a"), entry(SASS, 90, b"b")), "cudart", "cublas"),
    )
    build_shared_lib(
        package,
        "libtensorflow_cc.so.2",
        c_library(
            container(entry(SASS, 89, b"c"), entry(PTX, 90, b"d")),
            "cudnn",
            "cufft",
            "cusparse",
            "cusolver",
            "nccl",
            "libcuda.so.1",
        ),
    )
    (package / "__init__.py").write_text("")
    return package


def test_the_build_names_what_it_opens_and_carries_its_gpu_code(tmp_path: Path) -> None:
    package = _package(tmp_path)
    read = read_build(package, library_names())
    # cuBLASLt comes with cuBLAS; cuRAND is named by neither library.
    assert read.named == tuple(n for n in library_names() if n != "curand")
    framework, cc = (
        str(package / n) for n in ("libtensorflow_framework.so.2", "libtensorflow_cc.so.2")
    )
    assert read.objects == (framework, cc)
    assert read.gpu_code == GpuCodeFacts(
        sass=("sm_60", "sm_89", "sm_90"), ptx=("compute_90",), objects=(framework, cc)
    )


def test_a_damaged_object_is_reported_and_the_others_still_read(tmp_path: Path) -> None:
    package = _package(tmp_path)
    (package / "libtensorflow_cc.so.2").write_bytes(b"\x7fELF\x02\x01garbage")
    read = read_build(package, library_names())
    assert read.named == ("cudart", "cublas", "cublasLt")
    assert read.gpu_code is not None and read.gpu_code.sass == ("sm_60", "sm_90")
    assert read.error is not None and read.error.reason == "bad-elf"


def test_nothing_readable_reads_as_unknown(tmp_path: Path) -> None:
    assert read_build(None, library_names()).named is None
    assert read_build(tmp_path, library_names()).named is None
    (tmp_path / "libtensorflow_framework.so.2").write_bytes(b"")
    empty = read_build(tmp_path, library_names())
    assert empty.named is None and empty.error is not None


def test_the_library_probe_records_what_the_build_names(tmp_path: Path) -> None:
    package = _package(tmp_path)
    facts = probe_cuda_libs(
        [str(package.parent)],
        {"is_cuda_build": True, "cuda_version": "12.5.1", "cudnn_version": "9"},
        {},
        run_command,
        ldconfig_output="",
        system_dirs=(),
        toolkit_dirs=(),
    )
    assert facts.named_libraries is not None and "curand" not in facts.named_libraries
    assert "cusolver" in facts.named_libraries
    assert facts.gpu_code is not None and facts.gpu_code.ptx == ("compute_90",)
    # The search itself still covers every library, so the report can say what is where.
    assert "curand" in [lib.name for lib in facts.libraries]


# --- end to end: a TF 2.22-style install, probed ---------------------------------------------

#: TensorFlow 2.22.0rc0's build_info.py: the flags only, no CUDA, cuDNN or capability list.
BUILD_INFO_222 = (
    "import collections\n"
    "build_info = collections.OrderedDict([('is_cuda_build', True), ('is_rocm_build', False),"
    " ('is_tensorrt_build', False)])\n"
)
METADATA_222 = (
    "Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.22.0rc0\n"
    "Provides-Extra: and-cuda\n"
    'Requires-Dist: nvidia-cuda-runtime==13.0.96; extra == "and-cuda"\n'
    'Requires-Dist: nvidia-cudnn-cu13<10.0,>=9.14.0.64; extra == "and-cuda"\n'
)


def test_a_build_that_records_no_versions_is_read_from_its_objects_and_pins(
    tmp_path: Path,
) -> None:
    """The doctor, on a real venv: the CUDA searched comes from the and-cuda pins (13, not the
    newest-known 12), the GPU code from the fat binaries."""
    venv.create(tmp_path / "env", with_pip=False)
    site = next((tmp_path / "env").glob("lib*/python*/site-packages"), None)
    if site is None:
        pytest.skip("POSIX venv layout needed")
    package = _package(site.parent / "unused")
    shutil.copytree(package, site / "tensorflow")
    (site / "tensorflow" / "python" / "platform").mkdir(parents=True)
    (site / "tensorflow" / "python" / "platform" / "build_info.py").write_text(BUILD_INFO_222)
    info = site / "tensorflow-2.22.0rc0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(METADATA_222, encoding="utf-8")
    (info / "RECORD").write_text("tensorflow/__init__.py,,\n", encoding="utf-8")

    facts = collect_facts(str(tmp_path / "env" / "bin" / "python"), static=True, timeout=30)

    libs = facts.cuda_libs
    assert libs is not None and libs.cuda_major == 13 and libs.cudnn_major == 9
    (cudart,) = [lib for lib in libs.libraries if lib.name == "cudart"]
    assert cudart.sonames == ("libcudart.so.13",)
    assert libs.gpu_code is not None
    assert (libs.gpu_code.sass, libs.gpu_code.ptx) == (("sm_60", "sm_89", "sm_90"), ("compute_90",))
    assert libs.named_libraries is not None and "curand" not in libs.named_libraries


def test_a_library_linked_at_link_time_is_named_too(tmp_path: Path) -> None:
    """A build that links cuDNN (DT_NEEDED, as conda-forge's do) names it in .dynstr only."""
    stub = build_shared_lib(
        tmp_path / "lib", "libcudnn.so.9", "int cudnnGetVersion(void) { return 1; }\n"
    )
    package = tmp_path / "tensorflow"
    package.mkdir()
    source = tmp_path / "framework.c"
    source.write_text(c_library(b"", "cudart"), encoding="utf-8")
    subprocess.run(
        [
            require_gcc(),
            "-shared",
            "-fPIC",
            "-o",
            str(package / "libtensorflow_framework.so.2"),
            str(source),
            f"-L{stub.parent}",
            "-Wl,--no-as-needed",
            "-l:libcudnn.so.9",
        ],
        check=True,
        capture_output=True,
    )
    assert read_build(package, library_names()).named == ("cudart", "cudnn")


@pytest.mark.parametrize(
    ("name", "sass", "ptx"),
    [
        ("sm75-sm80-sm90-compute90", ("sm_75", "sm_80", "sm_90"), ("compute_90",)),
        ("sm100-sm120-compute120", ("sm_100", "sm_120"), ("compute_120",)),
    ],
)
def test_fat_binaries_made_by_nvcc(name: str, sass: tuple[str, ...], ptx: tuple[str, ...]) -> None:
    data = (Path(__file__).parent / "data" / "fatbin" / f"{name}.fatbin").read_bytes()
    assert parse_fatbin(data) == FatbinCode(sass=sass, ptx=ptx, containers=1)


def test_a_read_is_kept_until_the_object_changes(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("TFDOCTOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TFDOCTOR_NO_CACHE", raising=False)
    package = _package(tmp_path)
    first = read_build(package, library_names())
    assert list((tmp_path / "cache").glob("tfbuild-*.json"))
    # Overwritten in place with the same size and time: the key cannot tell, so the kept
    # read answers (the object itself, now zeros, would name nothing).
    framework = package / "libtensorflow_framework.so.2"
    stats = framework.stat()
    with framework.open("r+b") as handle:
        handle.write(bytes(stats.st_size))
    os.utime(framework, ns=(stats.st_atime_ns, stats.st_mtime_ns))
    assert read_build(package, library_names()) == first
    # A reinstall changes the time: read afresh, and the zeros are no library.
    os.utime(framework, ns=(stats.st_atime_ns, stats.st_mtime_ns + 1_000_000_000))
    again = read_build(package, library_names())
    assert again != first and str(framework) not in again.objects
