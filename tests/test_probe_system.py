"""Platform, CPU and environment probes: pure parsers on recorded outputs, and one live run."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tfdoctor.probes import system

DATA = Path(__file__).parent / "data" / "system"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            'PRETTY_NAME="Ubuntu 22.04.4 LTS"\nNAME="Ubuntu"\nVERSION_ID="22.04"\n',
            "Ubuntu 22.04.4 LTS",
            id="ubuntu",
        ),
        pytest.param('NAME="Alpine Linux"\nVERSION="3.19"\n', "Alpine Linux 3.19", id="no-pretty"),
        pytest.param("", None, id="empty"),
    ],
)
def test_parse_os_release(text: str, expected: str | None) -> None:
    assert system.parse_os_release(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            'NAME="Linux Mint"\nVERSION="21.3 (Virginia)"\nID=linuxmint\nID_LIKE="ubuntu debian"\n'
            'PRETTY_NAME="Linux Mint 21.3"\n',
            ("linuxmint", "ubuntu", "debian"),
            id="mint",
        ),
        pytest.param(
            'NAME="Pop!_OS"\nID=pop\nID_LIKE="ubuntu debian"\n',
            ("pop", "ubuntu", "debian"),
            id="pop-os",
        ),
        pytest.param(
            'NAME="Rocky Linux"\nID="rocky"\nID_LIKE="rhel centos fedora"\n',
            ("rocky", "rhel", "centos", "fedora"),
            id="rocky",
        ),
        pytest.param(
            'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\n', ("ubuntu", "debian"), id="ubuntu"
        ),
        pytest.param('NAME="Fedora Linux"\nID=fedora\n', ("fedora",), id="no-id-like"),
        # os-release(5): an absent ID means "linux", which names no distribution.
        pytest.param('NAME="Linux"\n', (), id="no-id"),
        pytest.param("", (), id="empty"),
    ],
)
def test_parse_os_ids(text: str, expected: tuple[str, ...]) -> None:
    assert system.parse_os_ids(text) == expected


@pytest.mark.parametrize(
    ("release", "proc_version", "expected"),
    [
        pytest.param(
            "5.15.153.1-microsoft-standard-WSL2",
            "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1)"
            " (gcc (GCC) 11.2.0)"
            " #1 SMP",
            "WSL2",
            id="wsl2",
        ),
        pytest.param(
            "4.4.0-19041-Microsoft",
            "Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com)"
            " (gcc version 5.4.0 (GCC) )",
            "WSL1",
            id="wsl1",
        ),
        pytest.param(
            "6.8.0-45-generic",
            "Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) (x86_64-linux-gnu-gcc-13)",
            None,
            id="native",
        ),
    ],
)
def test_parse_wsl(release: str, proc_version: str, expected: str | None) -> None:
    assert system.parse_wsl(release, proc_version) == expected


@pytest.mark.parametrize(
    ("cgroup", "env", "dockerenv", "containerenv", "expected"),
    [
        pytest.param("0::/\n", {}, True, False, "docker", id="dockerenv-cgroup2"),
        pytest.param(
            "12:pids:/docker/3f1e0c9b7d\n", {}, False, False, "docker", id="docker-cgroup1"
        ),
        pytest.param("0::/\n", {"container": "podman"}, False, True, "podman", id="podman"),
        pytest.param(
            "0::/kubepods.slice/kubepods-burstable.slice/cri-containerd-1a2b.scope\n",
            {"KUBERNETES_SERVICE_HOST": "10.0.0.1"},
            False,
            False,
            "kubernetes",
            id="kubernetes",
        ),
        pytest.param("0::/init.scope\n", {}, False, False, None, id="bare-metal"),
    ],
)
def test_parse_container(
    cgroup: str, env: dict[str, str], dockerenv: bool, containerenv: bool, expected: str | None
) -> None:
    assert system.parse_container(cgroup, env, dockerenv, containerenv) == expected


@pytest.mark.parametrize(
    ("filename", "model", "has", "lacks"),
    [
        pytest.param(
            "cpuinfo_zen4.txt", "AMD EPYC 9R14", ("avx", "avx2", "fma", "avx512f"), (), id="zen4"
        ),
        pytest.param(
            "cpuinfo_old_xeon_no_avx.txt",
            "Intel(R) Xeon(R) CPU           X5650  @ 2.67GHz",
            ("sse4_2",),
            ("avx", "avx2", "fma"),
            id="westmere-no-avx",
        ),
        pytest.param("cpuinfo_graviton3.txt", "", ("asimd", "sve"), ("avx",), id="graviton3"),
    ],
)
def test_parse_cpuinfo(
    filename: str, model: str, has: tuple[str, ...], lacks: tuple[str, ...]
) -> None:
    got_model, flags = system.parse_cpuinfo((DATA / filename).read_text(encoding="utf-8"))
    assert got_model == model
    assert set(has) <= set(flags)
    assert not set(lacks) & set(flags)


def test_parse_cpuinfo_reports_vector_flags_in_a_fixed_order() -> None:
    _model, flags = system.parse_cpuinfo((DATA / "cpuinfo_zen4.txt").read_text(encoding="utf-8"))
    assert flags == (
        "sse4_1",
        "sse4_2",
        "avx",
        "avx2",
        "fma",
        "f16c",
        "avx512f",
        "avx512bw",
        "avx512vl",
        "avx512_vnni",
        "avx512_bf16",
    )


def test_parse_sysctl_features_intel_mac() -> None:
    text = "FPU VME DE PSE SSE SSE2 SSE3 SSSE3 FMA SSE4.1 SSE4.2 AVX1.0 F16C\nAVX2 BMI1 BMI2"
    assert system.parse_sysctl_features(text) == ("sse4_1", "sse4_2", "avx", "avx2", "fma", "f16c")


def test_parse_musl_version() -> None:
    assert (
        system.parse_musl_version("musl libc (x86_64)\nVersion 1.2.4\nDynamic Program Loader")
        == "1.2.4"
    )
    assert system.parse_musl_version("") is None


def test_a_python_without_confstr_reads_an_unnamed_c_library(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Termux's CPython before 3.13 (sys.platform "linux"): Bionic has no confstr, so os has
    # none, and no musl loader is there.
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delattr(os, "confstr", raising=False)
    monkeypatch.setattr(system, "Path", lambda _: tmp_path)
    assert system.read_libc() == ("unknown", None)


def test_select_environment_keeps_only_relevant_variables() -> None:
    env = {
        "CUDA_VISIBLE_DEVICES": "0",
        "TF_CPP_MIN_LOG_LEVEL": "2",
        "XLA_FLAGS": "--xla_gpu_cuda_data_dir=/usr/local/cuda",
        "HOME": "/home/alice",
        "AWS_SECRET_ACCESS_KEY": "abc",
        "NCCL_DEBUG": "INFO",
    }
    assert list(system.select_environment(env)) == [
        "CUDA_VISIBLE_DEVICES",
        "NCCL_DEBUG",
        "TF_CPP_MIN_LOG_LEVEL",
        "XLA_FLAGS",
    ]


def test_live_platform_and_cpu_on_this_machine() -> None:
    plat = system.probe_platform(env={})
    cpu = system.probe_cpu()
    assert plat.system and plat.machine
    assert cpu.logical_cores and cpu.logical_cores >= 1
    assert cpu.memory_total and cpu.memory_total > 2**28
    if plat.system == "Linux":
        assert plat.libc in ("glibc", "musl")
        assert cpu.flags_known


def test_notebook_markers_are_recorded_for_the_environment_kind() -> None:
    from tfdoctor.facts import Facts
    from tfdoctor.machine import Machine
    from tfdoctor.probes.system import select_environment

    env = select_environment({"COLAB_RELEASE_TAG": "release-colab_20250101", "HOME": "/root"})
    assert env == {"COLAB_RELEASE_TAG": "release-colab_20250101"}
    facts = Facts(tfdoctor_version="0", collected_at="now", environment=env)
    assert Machine(facts, None).notebook == "colab"


MEMINFO = """MemTotal:       24683636 kB
MemFree:        22135060 kB
MemAvailable:   24231948 kB
Buffers:           62012 kB
SwapTotal:             0 kB
HugePages_Total:       0
"""


def test_parse_meminfo_reads_what_free_shows() -> None:
    assert system.parse_meminfo(MEMINFO) == (24683636 * 1024, 24231948 * 1024, 0)
    assert system.parse_meminfo("") == (None, None, None)
    # An old kernel without MemAvailable (before 3.14): unknown, not guessed.
    assert system.parse_meminfo("MemTotal: 1000 kB\n") == (1024000, None, None)


def test_physical_cores_are_distinct_sibling_lists() -> None:
    # Four logical CPUs, two cores with two threads each; then no topology at all.
    assert system.count_physical_cores(["0,2\n", "1,3\n", "0,2\n", "1,3\n"]) == 2
    assert system.count_physical_cores(["0-1", "0-1", "2-3", "2-3"]) == 2
    assert system.count_physical_cores(["", ""]) is None


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc and /sys")
def test_probe_cpu_agrees_with_psutil_here() -> None:
    import psutil

    cpu = system.probe_cpu()
    assert cpu.logical_cores == psutil.cpu_count(logical=True)
    assert cpu.physical_cores == psutil.cpu_count(logical=False)
    assert cpu.memory_total == psutil.virtual_memory().total
    assert cpu.swap_total == psutil.swap_memory().total
    assert cpu.memory_available is not None and cpu.memory_available > 0
