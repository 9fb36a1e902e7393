"""Libraries off the loader's path: a bounded search of the usual places in a fake tree."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest

from tfdoctor.facts import CudaLibsFacts, FoundLibrary, LibraryCandidate, LibraryFacts
from tfdoctor.probes.cudalibs import tf_library_names
from tfdoctor.probes.elsewhere import (
    find_elsewhere,
    list_dir,
    match_library,
    parse_cudnn_header,
    parse_modulefile,
    probe_elsewhere,
)

CUDA11 = tf_library_names(11, 8, 8)

CUDNN_VERSION_H = """\
#ifndef CUDNN_VERSION_H_
#define CUDNN_VERSION_H_

#define CUDNN_MAJOR 8
#define CUDNN_MINOR 9
#define CUDNN_PATCHLEVEL 7

#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)
"""

# Lmod modulefile in the shape HPC sites write for a CUDA toolkit.
CUDA_LUA = """\
help([[CUDA Toolkit 11.8]])
whatis("Version: 11.8")
local base = "{root}"
setenv("CUDA_HOME", base)
prepend_path("PATH", pathJoin(base, "bin"))
prepend_path("LD_LIBRARY_PATH", pathJoin(base, "lib64"))
-- prepend_path("LD_LIBRARY_PATH", "/nowhere/commented/out")
prepend_path("CPATH", pathJoin(base, "include"))
"""

# Tcl modulefile (Environment Modules) for a cuDNN tarball.
CUDNN_TCL = """\
#%Module1.0
proc ModulesHelp {{ }} {{ puts stderr "cuDNN 8.6" }}
module-whatis "cuDNN 8.6.0.163 for CUDA 11"
set root {root}
setenv CUDNN_PATH $root
prepend-path LD_LIBRARY_PATH $root/lib
# prepend-path LD_LIBRARY_PATH /nowhere/commented/out
"""


def touch(path: Path, link_to: Optional[str] = None) -> Path:
    """A file (or a symbolic link to ``link_to``) and its directories."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if link_to is None:
        path.write_bytes(b"\x7fELF")
    else:
        path.symlink_to(link_to)
    return path


class Counter:
    """A lister that counts, and remembers, every directory listed."""

    def __init__(self) -> None:
        self.listed: list[str] = []

    def __call__(self, path: str) -> tuple[str, ...]:
        self.listed.append(path)
        return list_dir(path)


@pytest.fixture
def machine(tmp_path: Path) -> dict[str, object]:
    """A fake machine: a root for /usr/local and /opt, $HOME, a conda install, modules."""
    root = tmp_path / "root"
    toolkit = root / "usr/local/cuda-11.8/lib64"
    touch(toolkit / "libcudart.so.11.8.89")
    touch(toolkit / "libcudart.so.11.0", "libcudart.so.11.8.89")
    touch(toolkit / "libcudart.so", "libcudart.so.11.0")
    touch(root / "usr/local/cuda", "cuda-11.8")
    touch(root / "usr/local/bin/python3")

    tarball = root / "opt/cudnn-linux-x86_64-8.9.7.29_cuda11-archive"
    touch(tarball / "lib/libcudnn.so.8")
    (tarball / "include").mkdir()
    (tarball / "include/cudnn_version.h").write_text(CUDNN_VERSION_H)
    touch(root / "opt/nvidia/deep/er/libcudnn.so.8")  # deeper than one level: not searched

    cuda_home = tmp_path / "cuda-home"
    touch(cuda_home / "targets/x86_64-linux/lib/libcublas.so.11.11.3.6")
    touch(cuda_home / "targets/x86_64-linux/lib/libcublas.so.11", "libcublas.so.11.11.3.6")

    conda = tmp_path / "miniconda3"
    (conda / "conda-meta").mkdir(parents=True)
    prefix = conda / "envs" / "tf"
    (prefix / "conda-meta").mkdir(parents=True)
    touch(conda / "envs/other/lib/libcudnn.so.8.6.0")
    touch(conda / "envs/other/lib/libcudnn.so.8", "libcudnn.so.8.6.0")
    touch(conda / "pkgs/cudatoolkit-11.8.0-h6a678d5_0/lib/libcufft.so.10.9.0.58")
    touch(conda / "pkgs/cudatoolkit-11.8.0-h6a678d5_0/lib/libcufft.so.10", "libcufft.so.10.9.0.58")
    touch(conda / "pkgs/numpy-1.26.4-py311h64a7726_0/lib/libcufft.so.10")  # not a CUDA package
    touch(prefix / "lib/python3.10/site-packages/nvidia/cusparse/lib/libcusparse.so.11")

    home = tmp_path / "home"
    touch(home / ".local/lib/python3.11/site-packages/nvidia/nccl/lib/libnccl.so.2")

    modules = tmp_path / "modules"
    module_cuda = tmp_path / "sw/cuda/11.8"
    touch(module_cuda / "lib64/libcurand.so.10")
    module_cudnn = tmp_path / "sw/cudnn/8.6.0"
    touch(module_cudnn / "lib/libcudnn.so.8.6.0")
    touch(module_cudnn / "lib/libcudnn.so.8", "libcudnn.so.8.6.0")
    (modules / "cuda").mkdir(parents=True)
    (modules / "cuda/11.8.lua").write_text(CUDA_LUA.format(root=module_cuda))
    (modules / "cuda/.version").write_text("#%Module\nset ModulesVersion 11.8\n")
    (modules / "cudnn").mkdir()
    (modules / "cudnn/8.6.0-cuda11").write_text(CUDNN_TCL.format(root=module_cudnn))
    (modules / "gcc").mkdir()
    (modules / "gcc/12.lua").write_text('prepend_path("LD_LIBRARY_PATH", "/x")\n')

    env = {
        "CUDA_HOME": str(cuda_home),
        "HOME": str(home),
        "MODULEPATH": str(modules),
    }
    return {"root": str(root), "env": env, "prefix": str(prefix), "tmp": tmp_path}


def test_every_place_is_searched(machine: dict[str, object]) -> None:
    tmp = machine["tmp"]
    assert isinstance(tmp, Path)
    root = Path(str(machine["root"]))
    env = machine["env"]
    assert isinstance(env, dict)
    # The loader already sees the toolkit's cudart (say, through LD_LIBRARY_PATH): left out.
    seen = [str(root / "usr/local/cuda/lib64/libcudart.so.11.0")]

    found = find_elsewhere(
        CUDA11, seen, env, str(machine["prefix"]), lister=Counter(), root=str(root)
    )

    conda, sw = tmp / "miniconda3", tmp / "sw"
    site = "lib/python3.10/site-packages/nvidia"
    assert found == (
        FoundLibrary(
            "cublas",
            str(tmp / "cuda-home/targets/x86_64-linux/lib/libcublas.so.11"),
            "11.11.3.6",
            "cuda-home",
        ),
        FoundLibrary(
            "cudnn",
            str(root / "opt/cudnn-linux-x86_64-8.9.7.29_cuda11-archive/lib/libcudnn.so.8"),
            "8.9.7",
            "opt",
        ),
        FoundLibrary("cudnn", str(conda / "envs/other/lib/libcudnn.so.8"), "8.6.0", "conda-env"),
        FoundLibrary(
            "cufft",
            str(conda / "pkgs/cudatoolkit-11.8.0-h6a678d5_0/lib/libcufft.so.10"),
            "10.9.0.58",
            "conda-pkgs",
        ),
        FoundLibrary(
            "curand", str(sw / "cuda/11.8/lib64/libcurand.so.10"), "10", "module", "cuda/11.8"
        ),
        FoundLibrary(
            "cudnn",
            str(sw / "cudnn/8.6.0/lib/libcudnn.so.8"),
            "8.6.0",
            "module",
            "cudnn/8.6.0-cuda11",
        ),
        FoundLibrary(
            "cusparse",
            str(conda / "envs/tf" / site / "cusparse/lib/libcusparse.so.11"),
            "11",
            "site-packages",
        ),
        FoundLibrary(
            "nccl",
            str(tmp / "home/.local/lib/python3.11/site-packages/nvidia/nccl/lib/libnccl.so.2"),
            "2",
            "site-packages",
        ),
    )


def test_a_toolkit_not_on_the_path_is_found_once(machine: dict[str, object]) -> None:
    root = Path(str(machine["root"]))
    found = find_elsewhere(CUDA11, [], {}, None, root=str(root))
    # /usr/local/cuda links to cuda-11.8: one report, at the first name met.
    assert found == (
        FoundLibrary(
            "cudart",
            str(root / "usr/local/cuda/lib64/libcudart.so.11.0"),
            "11.8.89",
            "usr-local-cuda",
        ),
        FoundLibrary(
            "cudnn",
            str(root / "opt/cudnn-linux-x86_64-8.9.7.29_cuda11-archive/lib/libcudnn.so.8"),
            "8.9.7",
            "opt",
        ),
    )


def test_the_listings_are_bounded(machine: dict[str, object]) -> None:
    root = Path(str(machine["root"]))
    tmp = machine["tmp"]
    assert isinstance(tmp, Path)
    env = machine["env"]
    assert isinstance(env, dict)
    # A busy /opt and a big package cache cost one listing per entry, nothing deeper.
    for index in range(50):
        (root / f"opt/app{index}/share/deep/deeper").mkdir(parents=True)
        (tmp / f"miniconda3/pkgs/pkg{index}-1.0-0/lib/deep").mkdir(parents=True)
    counter = Counter()

    find_elsewhere(CUDA11, [], env, str(machine["prefix"]), lister=counter, root=str(root))

    assert len(counter.listed) == len(set(counter.listed))  # nothing listed twice
    assert not [p for p in counter.listed if "deep" in p or "/share" in p]
    assert not [p for p in counter.listed if "/pkgs/pkg" in p or "numpy" in p]
    # /opt and its 52 entries, then a fixed few dozen elsewhere (25 in this tree).
    assert len(counter.listed) <= 53 + 30, counter.listed


def test_probe_elsewhere_uses_the_libraries_facts(machine: dict[str, object]) -> None:
    root = Path(str(machine["root"]))
    seen = str(root / "usr/local/cuda-11.8/lib64/libcudart.so.11.0")
    libs = CudaLibsFacts(
        cuda_major=11,
        cudnn_major=8,
        libraries=(
            LibraryFacts("cudart", ("libcudart.so.11.0",), (LibraryCandidate(seen, "system"),)),
            LibraryFacts("cudnn", ("libcudnn.so.8",)),
        ),
    )
    facts = probe_elsewhere(libs, {}, None, root=str(root), platform="linux")
    assert [(f.name, f.place) for f in facts.elsewhere] == [("cudnn", "opt")]
    assert facts.libraries == libs.libraries
    assert probe_elsewhere(libs, {}, None, root=str(root), platform="win32") == libs


def test_a_crash_is_recorded(machine: dict[str, object]) -> None:
    def broken(path: str) -> tuple[str, ...]:
        raise RuntimeError("boom")

    libs = CudaLibsFacts(cuda_major=12, cudnn_major=9)
    facts = probe_elsewhere(libs, {}, None, lister=broken, platform="linux")
    assert facts.error is not None and facts.error.reason == "crashed"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (CUDA_LUA.format(root="/sw/cuda/11.8"), ("/sw/cuda/11.8/lib64",)),
        (CUDNN_TCL.format(root="/sw/cudnn/8.6"), ("/sw/cudnn/8.6/lib",)),
        (
            'prepend_path("LD_LIBRARY_PATH","/opt/nvidia/cuda/lib64:/opt/nvidia/cuda/extras/lib64")',
            ("/opt/nvidia/cuda/lib64", "/opt/nvidia/cuda/extras/lib64"),
        ),
        (
            "local root = '/apps/cuda'\nappend_path('LD_LIBRARY_PATH', root .. '/lib64')",
            ("/apps/cuda/lib64",),
        ),
        ('prepend_path("LD_LIBRARY_PATH", "/a/lib", ";")', ("/a/lib",)),
        (
            "#%Module\nset version 12.1\nset root /usr/local/cuda-$version\n"
            "prepend-path --delim : LD_LIBRARY_PATH ${root}/lib64\n",
            ("/usr/local/cuda-12.1/lib64",),
        ),
        ("prepend-path LD_LIBRARY_PATH [file join $root lib64]", ()),
        ('prepend_path("LD_LIBRARY_PATH", os.getenv("X"))', ()),
        ('prepend_path("PATH", "/opt/cuda/bin")', ()),
    ],
    ids=[
        "lmod-pathjoin",
        "tcl-set",
        "lmod-two-dirs",
        "lmod-concat",
        "lmod-separator",
        "tcl-nested-vars",
        "tcl-command-skipped",
        "lmod-getenv-skipped",
        "other-variable",
    ],
)
def test_parse_modulefile(text: str, expected: tuple[str, ...]) -> None:
    assert parse_modulefile(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (CUDNN_VERSION_H, "8.9.7"),
        (
            "#define CUDNN_MAJOR      7\n#define CUDNN_MINOR      6\n#define CUDNN_PATCHLEVEL 5\n",
            "7.6.5",
        ),
        ("#define CUDNN_VERSION 8907\n", None),
    ],
    ids=["cudnn_version.h-8", "cudnn.h-7", "no-major"],
)
def test_parse_cudnn_header(text: str, expected: Optional[str]) -> None:
    assert parse_cudnn_header(text) == expected


@pytest.mark.parametrize(
    ("filename", "expected"),
    [
        ("libcudnn.so.8", "cudnn"),
        ("libcudnn.so.8.9.7", "cudnn"),
        ("libcudnn.so", None),
        ("libcudnn.so.80", None),
        ("libcublasLt.so.11", "cublasLt"),
        ("libcublas.so.11.11.3.6", "cublas"),
        ("libcudart.so.11.0", "cudart"),
        ("libcudart.so.11.8.89", None),
        ("libcudnn_ops_infer.so.8", None),
    ],
    ids=[
        "soname",
        "longer-version",
        "dev-link",
        "other-major",
        "lt",
        "cublas-full",
        "cudart-soname",
        "cudart-real-file-alone",
        "cudnn-sublibrary",
    ],
)
def test_match_library(filename: str, expected: Optional[str]) -> None:
    assert match_library(filename, CUDA11) == expected


def test_list_dir_of_nothing(tmp_path: Path) -> None:
    assert list_dir(str(tmp_path / "missing")) == ()
    (tmp_path / "b").mkdir()
    (tmp_path / "a").write_text("")
    assert list_dir(str(tmp_path)) == ("a", "b")
