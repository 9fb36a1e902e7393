"""runtime.memory-growth: whether the environment lets TensorFlow take GPU memory as needed;
runtime.memory-held: whether it takes effect in a fresh process (real child, fake drivers)."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

import pytest

from tests import factories as f
from tests.cstubs import build_shared_lib
from tests.test_probe_nvidia import NVML_STUB_C
from tfdoctor.checks import CHECKS, run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.env.usage import LOAD, USAGE
from tfdoctor.facts import (
    DeviceFacts,
    Facts,
    HeldGpu,
    HeldMemory,
    SmokeFacts,
    facts_from_json,
    to_json,
)
from tfdoctor.findings import Finding, Severity
from tfdoctor.probes._run import run_command
from tfdoctor.render.envfile import render_env
from tfdoctor.smoke import SmokeOptions, run_smoke
from tfdoctor.smoke.memory import read_memory_held


def judge(facts: Facts) -> list[Finding]:
    return list(run_checks(CheckContext(facts), select_checks(["runtime.memory-growth"])))


def with_env(**variables: str) -> Facts:
    return f.facts(environment={"PATH": "/usr/bin:/bin", **variables})


@pytest.mark.parametrize(
    ("env", "severity", "words"),
    [
        pytest.param({}, Severity.INFO, "not configured", id="unset"),
        pytest.param(
            {"TF_FORCE_GPU_ALLOW_GROWTH": "true"}, Severity.OK, "as it needs it", id="growth-true"
        ),
        pytest.param(
            {"TF_GPU_ALLOCATOR": "cuda_malloc_async"}, Severity.OK, "on demand", id="async"
        ),
        pytest.param(
            {"TF_FORCE_GPU_ALLOW_GROWTH": "True"}, Severity.WARNING, "ignored", id="capital-true"
        ),
        pytest.param(
            {"TF_FORCE_GPU_ALLOW_GROWTH": "1"}, Severity.WARNING, "ignored", id="one-not-true"
        ),
        pytest.param(
            {"TF_FORCE_GPU_ALLOW_GROWTH": "false"}, Severity.INFO, "=false", id="explicit-false"
        ),
        pytest.param(
            {"TF_GPU_ALLOCATOR": "bfc", "TF_FORCE_GPU_ALLOW_GROWTH": "true"},
            Severity.OK,
            "as it needs it",
            id="bfc-with-growth",
        ),
    ],
)
def test_environment_decides(env: dict[str, str], severity: Severity, words: str) -> None:
    (finding,) = judge(with_env(**env))
    assert finding.id == "runtime.memory-growth"
    assert finding.severity is severity
    assert words in finding.summary


def test_the_fix_names_the_env_command_and_the_api() -> None:
    (finding,) = judge(with_env())
    assert finding.fix is not None
    assert finding.fix.commands == (
        'eval "$(tfdoctor env)"',
        "export TF_FORCE_GPU_ALLOW_GROWTH=true",
    )
    assert "tfdoctor.configure_gpus()" in finding.fix.text
    assert "CUDNN_STATUS_INTERNAL_ERROR" in finding.detail


def test_on_windows_the_fix_is_in_powershell_and_cmd() -> None:
    # eval "$(...)" and export are no commands in cmd or PowerShell.
    windows = f.platform(system="Windows", machine="AMD64", os_name="Windows 10", libc="")
    (finding,) = judge(dataclasses.replace(with_env(), platform=windows))
    assert finding.fix is not None
    assert finding.fix.commands == (
        "tfdoctor env --shell powershell | Out-String | Invoke-Expression",
        "set TF_FORCE_GPU_ALLOW_GROWTH=true",
        '$env:TF_FORCE_GPU_ALLOW_GROWTH = "true"',
    )


@pytest.mark.parametrize(
    ("system", "shell"),
    [pytest.param("Linux", "sh", id="linux-sh"), pytest.param("Windows", "powershell", id="win")],
)
def test_the_fix_loads_the_env_as_its_own_header_says(system: str, shell: str) -> None:
    # One home for how `tfdoctor env` is loaded: the fix runs what the output's header names.
    plat = f.platform(system=system, machine="AMD64", os_name=system, libc="")
    (finding,) = judge(dataclasses.replace(with_env(), platform=plat))
    assert finding.fix is not None
    header = render_env((), shell, "0").splitlines()[0]
    assert header.endswith(f"Use: {USAGE[shell]}")
    assert finding.fix.commands[0] == LOAD[shell]
    assert USAGE[shell].startswith(LOAD[shell])


def test_a_gpu_shared_with_another_process_is_a_warning() -> None:
    busy = dataclasses.replace(f.driver().gpus[0], memory_total=80 * 2**30, memory_used=30 * 2**30)
    facts = dataclasses.replace(with_env(), driver=f.driver(gpus=(busy,)))
    (finding,) = judge(facts)
    assert finding.severity is Severity.WARNING
    assert "GPU 0 30.0 of 80 GiB" in finding.summary


def _no_gpu_tf() -> Facts:
    return f.facts(tensorflow=f.tensorflow(devices=(DeviceFacts("/physical_device:CPU:0", "CPU"),)))


@pytest.mark.parametrize(
    "facts",
    [
        pytest.param(f.cpu_only_machine(), id="no-gpu"),
        pytest.param(_no_gpu_tf(), id="tf-sees-no-gpu"),
        pytest.param(f.facts(tensorflow=f.tensorflow(status="import-error")), id="tf-broken"),
        pytest.param(f.facts(tensorflow=f.tensorflow(is_cuda_build=False)), id="cpu-build"),
    ],
)
def test_silent_where_tensorflow_uses_no_gpu(facts: Facts) -> None:
    assert judge(facts) == []


def test_static_run_still_judges_the_environment() -> None:
    facts = f.facts(tensorflow=f.tensorflow(status="skipped"))
    (finding,) = judge(facts)
    assert finding.severity is Severity.INFO


def test_unknown_environment_is_unknown_not_ok() -> None:
    (finding,) = judge(f.facts(environment=None))
    assert finding.severity is Severity.UNKNOWN


def test_registered_once_in_order() -> None:
    ids = [c.id for c in CHECKS]
    assert ids.count("runtime.memory-growth") == 1
    assert ids.index("runtime.memory-growth") > ids.index("cuda.libraries")


# --- runtime.memory-held: the smoke test's fresh process, judged on replayed facts ----------

GIB = 2**30
MIB = 2**20


def held_facts(*gpus: HeldGpu, status: str = "ok", configured: bool = False) -> Facts:
    """Facts of a smoke run whose fresh process measured ``gpus``."""
    held = HeldMemory(status=status, growth_configured=configured, gpus=gpus, seconds=9.0)
    smoke = SmokeFacts(status="ok", level="quick", interpreter="python", memory_held=held)
    return f.facts(smoke=smoke)


def h200(held: Optional[int], needed: Optional[int] = 512, **kw: object) -> HeldGpu:
    base = HeldGpu(
        device="/device:GPU:0",
        pci_bus_id="00000000:19:00.0",
        memory_total=143771 * MIB,
        memory_held=held,
        memory_held_method="process",
        memory_needed=needed,
    )
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


def judge_held(facts: Facts) -> list[Finding]:
    return list(run_checks(CheckContext(facts), select_checks(["runtime.memory-held"])))


@pytest.mark.parametrize(
    ("facts", "severities", "words"),
    [
        pytest.param(held_facts(h200(600 * MIB)), [Severity.OK], "in effect", id="growth-works"),
        pytest.param(
            held_facts(h200(3 * GIB, needed=2 * GIB)),
            [Severity.OK],
            "at most 3.0 GiB",
            id="held-near-a-large-need",
        ),
        pytest.param(
            held_facts(h200(136 * GIB)),
            [Severity.WARNING],
            "TensorFlow mapped 136.0 of 140.4 GiB on /device:GPU:0 after a small op: memory "
            "growth is not in effect",
            id="whole-gpu-mapped",
        ),
        pytest.param(
            held_facts(h200(40 * GIB, needed=None, memory_held_method="device-delta")),
            [Severity.WARNING],
            "not in effect",
            id="over-a-quarter-by-device-delta",
        ),
        pytest.param(
            held_facts(h200(None, memory_held_method=None, error="NVML lists no compute process")),
            [Severity.UNKNOWN],
            "Could not measure",
            id="no-measurement",
        ),
        pytest.param(
            held_facts(h200(600 * MIB), h200(130 * GIB, device="/device:GPU:1"), configured=True),
            [Severity.WARNING, Severity.OK],
            "GPU:1",
            id="one-of-two-mapped",
        ),
        pytest.param(
            held_facts(status="timeout"), [Severity.UNKNOWN], "ended with timeout", id="timeout"
        ),
        # Beside a 120 GiB job TensorFlow maps the 20 GiB that are free: 14 % of the GPU.
        pytest.param(
            held_facts(h200(19 * GIB, memory_free_before=20 * GIB)),
            [Severity.WARNING],
            "TensorFlow mapped 19.0 of 140.4 GiB on /device:GPU:0 after a small op (20.0 GiB "
            "were free before the import): memory growth is not in effect",
            id="shared-gpu-free-memory-mapped",
        ),
        # Not configured and far above the need, yet under 80 % of free: still not growth.
        pytest.param(
            held_facts(h200(10 * GIB, memory_free_before=100 * GIB)),
            [Severity.WARNING],
            "not in effect",
            id="not-configured-far-above-need",
        ),
        pytest.param(
            held_facts(h200(2 * GIB, memory_free_before=100 * GIB), configured=True),
            [Severity.OK],
            "in effect",
            id="configured-above-need-below-free",
        ),
        pytest.param(
            held_facts(h200(90 * GIB, memory_free_before=100 * GIB), configured=True),
            [Severity.WARNING],
            "not in effect",
            id="configured-yet-free-memory-mapped",
        ),
    ],
)
def test_memory_held(facts: Facts, severities: list[Severity], words: str) -> None:
    findings = judge_held(facts)
    assert [x.severity for x in findings] == severities
    assert all(x.id == "runtime.memory-held" for x in findings)
    assert words in findings[0].summary


def test_memory_held_warning_carries_the_fix_and_what_the_environment_said() -> None:
    (unset,) = judge_held(held_facts(h200(136 * GIB)))
    (overridden,) = judge_held(held_facts(h200(136 * GIB), configured=True))
    assert unset.fix is not None
    assert "export TF_FORCE_GPU_ALLOW_GROWTH=true" in unset.fix.commands
    assert 'eval "$(tfdoctor env)"' in unset.fix.commands
    assert "tfdoctor.configure_gpus()" in unset.fix.text
    assert "Nothing in the environment asks for memory growth" in unset.detail
    assert "overrides it" in overridden.detail


@pytest.mark.parametrize(
    "facts",
    [
        pytest.param(f.facts(), id="no-smoke"),
        pytest.param(f.facts(smoke=SmokeFacts("ok", "quick", "python")), id="cpu-only-smoke"),
        pytest.param(held_facts(status="no-gpu"), id="tf-sees-no-gpu"),
    ],
)
def test_memory_held_is_silent_without_gpu_data(facts: Facts) -> None:
    assert judge_held(facts) == []


def test_memory_held_registered_right_after_memory_growth() -> None:
    ids = [c.id for c in CHECKS]
    assert ids.index("runtime.memory-held") == ids.index("runtime.memory-growth") + 1


# --- the fresh-process child, for real, against gcc-built NVML and CUDA drivers --------------

# Appended to the fake libnvidia-ml.so.1 of test_probe_nvidia: the compute-process list.
# STUB_NVML_PROCS="DEV:PID:BYTES,..." where PID "self" is the caller and BYTES "tf" behaves
# like TensorFlow: 600 MiB under TF_FORCE_GPU_ALLOW_GROWTH=true, else 95 % of the GPU;
# "na" is NVML_VALUE_NOT_AVAILABLE. Struct layouts from nvml.h (nvmlProcessInfo_t, _v1_t).
NVML_PROCS_C = r"""
typedef struct { unsigned int pid; unsigned long long used; unsigned int gi, ci; } stub_proc;
typedef struct { unsigned int pid; unsigned long long used; } stub_proc_v1;

static unsigned int stub_procs(int index, unsigned int *pids, unsigned long long *used) {
    const char *spec = getenv("STUB_NVML_PROCS");
    char buf[512], who[32], size[32];
    unsigned int n = 0;
    int dev;
    if (!spec) return 0;
    strncpy(buf, spec, sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    for (char *item = strtok(buf, ","); item && n < 8; item = strtok(NULL, ",")) {
        if (sscanf(item, "%d:%31[^:]:%31s", &dev, who, size) != 3 || dev != index) continue;
        pids[n] = strcmp(who, "self") ? (unsigned int)strtoul(who, NULL, 10)
                                      : (unsigned int)getpid();
        if (!strcmp(size, "tf")) {
            const char *g = getenv("TF_FORCE_GPU_ALLOW_GROWTH");
            used[n] = g && !strcmp(g, "true") ? 629145600ULL : GPUS[index].total / 100 * 95;
        } else if (!strcmp(size, "na")) {
            used[n] = ~0ULL;
        } else {
            used[n] = strtoull(size, NULL, 10);
        }
        n++;
    }
    return n;
}
static nvmlReturn_t procs(const char *fn, nvmlDevice_t d, unsigned int *count, void *out,
                          int v1) {
    unsigned int pids[8];
    unsigned long long used[8];
    CHECK(fn);
    unsigned int n = stub_procs(d->index, pids, used);
    if (n == 0) { *count = 0; return 0; }
    if (out == NULL || *count < n) { *count = n; return 7; /* INSUFFICIENT_SIZE */ }
    for (unsigned int i = 0; i < n; i++) {
        if (v1) {
            stub_proc_v1 p = {pids[i], used[i]};
            ((stub_proc_v1 *)out)[i] = p;
        } else {
            stub_proc p = {pids[i], used[i], 0xFFFFFFFFu, 0xFFFFFFFFu};
            ((stub_proc *)out)[i] = p;
        }
    }
    *count = n;
    return 0;
}
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned int *c, void *o) {
    return procs("nvmlDeviceGetComputeRunningProcesses_v3", d, c, o, 0);
}
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t d, unsigned int *c, void *o) {
    return procs("nvmlDeviceGetComputeRunningProcesses_v2", d, c, o, 0);
}
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t d, unsigned int *c, void *o) {
    return procs("nvmlDeviceGetComputeRunningProcesses", d, c, o, 1);
}
"""

# A fake libcuda.so.1 with the CUDA driver API's signatures (cuda.h: cuInit, cuDeviceGet,
# cuDeviceGetPCIBusId, cuDeviceGetName, cuDeviceGetAttribute). STUB_CUDA_BUS: the PCI bus id of
# each ordinal (comma list). STUB_CUDA_DEVICES: "NAME|MAJOR.MINOR|SMS|CLOCK_KHZ" per ordinal
# (';' list) for the name and the attributes CU_DEVICE_ATTRIBUTE_CLOCK_RATE (13),
# _MULTIPROCESSOR_COUNT (16), _COMPUTE_CAPABILITY_MAJOR (75) and _MINOR (76); any other
# attribute fails. STUB_CUDA_RC_<call>=N makes that call return N.
CUDA_STUB_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int stub_rc(const char *fn) {
    char key[96];
    snprintf(key, sizeof key, "STUB_CUDA_RC_%s", fn);
    const char *v = getenv(key);
    return v ? atoi(v) : 0;
}
int cuInit(unsigned int flags) { (void)flags; return stub_rc("cuInit"); }
int cuDeviceGet(int *dev, int ordinal) { *dev = ordinal; return stub_rc("cuDeviceGet"); }
int cuDeviceGetPCIBusId(char *buf, int len, int dev) {
    const char *spec = getenv("STUB_CUDA_BUS");
    char copy[256];
    int i = 0;
    if (!spec) return 100; /* CUDA_ERROR_NO_DEVICE */
    strncpy(copy, spec, sizeof copy - 1);
    copy[sizeof copy - 1] = 0;
    for (char *t = strtok(copy, ","); t; t = strtok(NULL, ","), i++) {
        if (i == dev) { snprintf(buf, (size_t)len, "%s", t); return 0; }
    }
    return 101; /* CUDA_ERROR_INVALID_DEVICE */
}
static int stub_device(int dev, char *name, size_t len, int *v) {
    const char *spec = getenv("STUB_CUDA_DEVICES");
    char copy[1024], n[256];
    int i = 0;
    if (!spec) return 100;
    strncpy(copy, spec, sizeof copy - 1);
    copy[sizeof copy - 1] = 0;
    for (char *t = strtok(copy, ";"); t; t = strtok(NULL, ";"), i++) {
        if (i != dev) continue;
        if (sscanf(t, "%255[^|]|%d.%d|%d|%d", n, &v[0], &v[1], &v[2], &v[3]) != 5) return 1;
        if (name) snprintf(name, len, "%s", n);
        return 0;
    }
    return 101;
}
int cuDeviceGetName(char *name, int len, int dev) {
    int v[4], rc = stub_rc("cuDeviceGetName");
    return rc ? rc : stub_device(dev, name, (size_t)len, v);
}
int cuDeviceGetAttribute(int *value, int attrib, int dev) {
    int v[4], rc = stub_rc("cuDeviceGetAttribute");
    if (rc || (rc = stub_device(dev, NULL, 0, v))) return rc;
    switch (attrib) {
    case 75: *value = v[0]; return 0;
    case 76: *value = v[1]; return 0;
    case 16: *value = v[2]; return 0;
    case 13: *value = v[3]; return 0;
    default: return 1; /* CUDA_ERROR_INVALID_VALUE */
    }
}
"""

# A strict fake `tensorflow` for the child: only what memory_held.py calls; anything else is
# an AttributeError. FAKE_TF_GPUS sets the GPU count, FAKE_TF_IMPORT_ERROR and FAKE_TF_HANG
# break the import.
FAKE_TF = """\
import contextlib
import os
import time

if os.environ.get("FAKE_TF_IMPORT_ERROR"):
    raise ImportError("libcudnn.so.9: cannot open shared object file")
if os.environ.get("FAKE_TF_HANG"):
    time.sleep(60)


class _Tensor:
    def __init__(self, values):
        self.values = values

    def __mul__(self, k):
        return _Tensor([v * k for v in self.values])

    def __add__(self, k):
        return _Tensor([v + k for v in self.values])

    def numpy(self):
        return self.values


class _Device:
    def __init__(self, name):
        self.name = name


def constant(values):
    return _Tensor(list(values))


@contextlib.contextmanager
def device(name):
    yield


class config:
    @staticmethod
    def list_logical_devices(kind):
        assert kind == "GPU", kind
        count = int(os.environ.get("FAKE_TF_GPUS", "0"))
        return [_Device("/job:localhost/replica:0/task:0/device:GPU:%d" % i) for i in range(count)]

    class experimental:
        @staticmethod
        def get_memory_info(name):
            return {"current": 256, "peak": 512}
"""


@pytest.fixture(scope="module")
def drivers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory with the fake libnvidia-ml.so.1 (with processes) and libcuda.so.1."""
    directory = tmp_path_factory.mktemp("drivers")
    build_shared_lib(directory, "libnvidia-ml.so.1", NVML_STUB_C + NVML_PROCS_C)
    build_shared_lib(directory, "libcuda.so.1", CUDA_STUB_C)
    return directory


@pytest.fixture(scope="module")
def fake_tf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PYTHONPATH entry whose `tensorflow` is the strict fake."""
    directory = tmp_path_factory.mktemp("faketf")
    (directory / "tensorflow").mkdir()
    (directory / "tensorflow" / "__init__.py").write_text(FAKE_TF, encoding="utf-8")
    return directory


def fake_env(drivers: Path, fake_tf: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "STUB_", "FAKE_"))}
    env.update(LD_LIBRARY_PATH=str(drivers), PYTHONPATH=str(fake_tf))
    env.update(extra)
    return env


# The A100 is NVML device 0 at 07:00.0, the T4 device 1 at 3B:00.0; CUDA numbers them the other
# way round here (CUDA_DEVICE_ORDER=FASTEST_FIRST may), so only the bus id pairs them right.
SWAPPED = "0000:3B:00.0,0000:07:00.0"


@pytest.mark.parametrize(
    ("extra", "want"),
    [
        pytest.param(
            {"STUB_NVML_PROCS": "1:self:tf,1:4242:1048576,0:4242:7", "STUB_CUDA_BUS": SWAPPED},
            [("/device:GPU:0", "00000000:3B:00.0", 15360 * MIB // 100 * 95, "process")],
            id="no-growth-whole-gpu-by-bus-id",
        ),
        pytest.param(
            {
                "STUB_NVML_PROCS": "1:self:tf",
                "STUB_CUDA_BUS": SWAPPED,
                "TF_FORCE_GPU_ALLOW_GROWTH": "true",
            },
            [("/device:GPU:0", "00000000:3B:00.0", 600 * MIB, "process")],
            id="growth-small",
        ),
        pytest.param(
            {
                "STUB_NVML_PROCS": "0:self:1048576",
                "STUB_CUDA_BUS": "0000:07:00.0",
                "STUB_NVML_RC_nvmlDeviceGetComputeRunningProcesses_v3": "13",
                "STUB_NVML_RC_nvmlDeviceGetComputeRunningProcesses_v2": "13",
            },
            [("/device:GPU:0", "00000000:07:00.0", MIB, "process")],
            id="old-driver-v1-call",
        ),
        pytest.param(
            {"STUB_NVML_PROCS": "0:4242:1048576", "STUB_CUDA_BUS": "0000:07:00.0"},
            [("/device:GPU:0", "00000000:07:00.0", 0, "device-delta")],
            id="pid-not-listed-falls-back-to-device-delta",
        ),
        pytest.param(
            {"STUB_NVML_PROCS": "0:self:na", "STUB_CUDA_BUS": "0000:07:00.0"},
            [("/device:GPU:0", "00000000:07:00.0", 0, "device-delta")],
            id="per-process-not-available",
        ),
        pytest.param(
            {"STUB_NVML_PROCS": "0:self:tf,1:self:tf", "FAKE_TF_GPUS": "2"},
            [("/device:GPU:0", None, None, None), ("/device:GPU:1", None, None, None)],
            id="two-gpus-without-bus-ids-stay-unmatched",
        ),
    ],
)
def test_memory_child_reads_nvml_through_ctypes(
    drivers: Path,
    fake_tf: Path,
    extra: dict[str, str],
    want: list[tuple[str, Optional[str], Optional[int], Optional[str]]],
) -> None:
    env = fake_env(drivers, fake_tf, **{"FAKE_TF_GPUS": "1", **extra})
    held = read_memory_held(sys.executable, env, timeout=60)
    assert held.status == "ok", held
    assert held.nvml_error is None
    assert held.growth_configured is (extra.get("TF_FORCE_GPU_ALLOW_GROWTH") == "true")
    got = [(g.device, g.pci_bus_id, g.memory_held, g.memory_held_method) for g in held.gpus]
    assert got == want
    assert all(g.memory_needed == 512 for g in held.gpus)
    # The stub's NVML reports the T4 (3B:00.0) with 5 MiB and the A100 (07:00.0) with 87 MiB
    # used before the import; the free memory is the rest.
    free = {"00000000:3B:00.0": 15360 * MIB - 5 * MIB, "00000000:07:00.0": 80 * GIB - 87 * MIB}
    assert [g.memory_free_before for g in held.gpus] == [
        free.get(g.pci_bus_id or "") for g in held.gpus
    ]
    for gpu in held.gpus:
        assert (gpu.memory_held_method == "process") is (gpu.error is None)


@pytest.mark.parametrize(
    ("extra", "status", "words"),
    [
        pytest.param({"FAKE_TF_GPUS": "0"}, "no-gpu", "", id="no-gpu"),
        pytest.param({"FAKE_TF_IMPORT_ERROR": "1"}, "import-error", "libcudnn", id="import"),
        pytest.param({"FAKE_TF_HANG": "1"}, "timeout", "within 3 s", id="hang"),
    ],
)
def test_memory_child_failures_are_facts(
    drivers: Path, fake_tf: Path, extra: dict[str, str], status: str, words: str
) -> None:
    held = read_memory_held(sys.executable, fake_env(drivers, fake_tf, **extra), timeout=3)
    assert held.status == status
    assert held.gpus == ()
    assert words in (held.error_message or "")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(
    "signum", [pytest.param(s, id=s.name) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL)]
)
def test_a_parent_that_dies_takes_the_memory_child_with_it(
    drivers: Path, fake_tf: Path, signum: signal.Signals
) -> None:
    # The child runs in its own session, so no signal to the parent reaches it: SIGINT is
    # caught and kills it; SIGTERM and SIGKILL end the parent at once, and the child sees its
    # stdin close. The fake TensorFlow's import hangs for 60 s, longer than the wait below.
    from tests.processes import alive, gone_within, start, wait_for_child

    code = (
        "import os, sys\n"
        "from tfdoctor.smoke.memory import read_memory_held\n"
        "read_memory_held(sys.executable, dict(os.environ), timeout=600)\n"
    )
    env = fake_env(drivers, fake_tf, FAKE_TF_HANG="1")
    env["PYTHONPATH"] = os.pathsep.join((str(fake_tf), str(Path(__file__).parent.parent)))
    parent = start(
        [sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    child: list[int] = []
    try:
        child = wait_for_child(parent.pid, "memory_held.py")
        assert child, "the memory child never started"
        time.sleep(0.5)
        parent.send_signal(signum)
        _, err = parent.communicate(timeout=30)
        assert (b"KeyboardInterrupt" in err) is (signum == signal.SIGINT)
        assert gone_within(child[0], 5), f"child {child[0]} outlived its parent ({signum.name})"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if child and alive(child[0]):
            os.killpg(child[0], signal.SIGKILL)  # an orphan leads its own process group


# Says whether stdin reached end of file within a second, then whether it is still open.
STDIN_STATE = """\
import select, sys
ready = select.select([sys.stdin], [], [], 1.0)[0]
print("eof" if ready and not sys.stdin.buffer.read() else "open")
"""


@pytest.mark.skipif(sys.platform == "win32", reason="select() on a pipe is POSIX")
@pytest.mark.parametrize(
    ("keep", "state"),
    [pytest.param(False, "eof", id="closed"), pytest.param(True, "open", id="kept")],
)
def test_run_command_keeps_stdin_open_only_when_asked(keep: bool, state: str) -> None:
    result = run_command([sys.executable, "-c", STDIN_STATE], None, 30, keep_stdin_open=keep)
    assert (result.returncode, result.stdout.strip()) == (0, state), result.stderr


def test_run_command_with_stdin_kept_open_still_times_out() -> None:
    argv = [sys.executable, "-c", "import sys; sys.stdin.read(); print('eof')"]
    result = run_command(argv, None, 1.0, keep_stdin_open=True)
    assert result.timed_out and result.signal_name == "SIGKILL" and result.stdout == ""


def test_nvml_that_cannot_start_leaves_the_figures_unknown(drivers: Path, fake_tf: Path) -> None:
    env = fake_env(drivers, fake_tf, FAKE_TF_GPUS="1", STUB_NVML_RC_nvmlInit="9")
    held = read_memory_held(sys.executable, env, timeout=60)
    assert held.status == "ok"
    assert held.nvml_error == "LibError: nvmlInit_v2 returned 9"
    (gpu,) = held.gpus
    assert gpu.memory_held is None and gpu.memory_needed == 512
    (finding,) = judge_held(held_facts(*held.gpus))
    assert finding.severity is Severity.UNKNOWN


# A stand-in interpreter: it answers the kernel child with a plan that has one GPU (and no
# kernels), and runs every other script (the memory child) in the real interpreter.
FAKE_PYTHON = """\
#!{python}
import json, os, sys
script, args = sys.argv[1], sys.argv[2:]
if script.endswith("smoke_kernels.py"):
    gpu = {{"name": "/device:GPU:0", "device_type": "GPU", "model": "Tesla T4", "plan": []}}
    for event in ({{"event": "imported", "seconds": 1.0, "tf_version": "2.21.0"}},
                  {{"event": "plan", "runtime_seconds": 0.1, "devices": [gpu]}},
                  {{"event": "done"}}):
        print(args[0] + " " + json.dumps(event), flush=True)
    sys.exit(0)
os.execv({python!r}, [{python!r}, script, *args])
"""


@pytest.mark.parametrize(
    ("growth", "severity"),
    [
        pytest.param("true", Severity.OK, id="growth"),
        pytest.param(None, Severity.WARNING, id="not"),
    ],
)
def test_smoke_runs_the_fresh_process_with_the_users_environment(
    drivers: Path, fake_tf: Path, tmp_path: Path, growth: Optional[str], severity: Severity
) -> None:
    python = tmp_path / "python"
    python.write_text(FAKE_PYTHON.format(python=sys.executable), encoding="utf-8")
    python.chmod(0o755)
    extra = {"FAKE_TF_GPUS": "1", "STUB_NVML_PROCS": "1:self:tf", "STUB_CUDA_BUS": SWAPPED}
    if growth is not None:
        extra["TF_FORCE_GPU_ALLOW_GROWTH"] = growth
    smoke = run_smoke(SmokeOptions(python=str(python)), env=fake_env(drivers, fake_tf, **extra))
    assert smoke.status == "ok", smoke
    assert smoke.memory_held is not None and smoke.memory_held.status == "ok"
    facts = f.facts(smoke=smoke)
    assert facts_from_json(json.loads(json.dumps(to_json(facts)))) == facts
    (finding,) = judge_held(facts)
    assert finding.severity is severity


@pytest.mark.slow
def test_real_tensorflow_without_a_gpu_reports_no_gpu() -> None:
    held = read_memory_held(sys.executable, timeout=120)
    if held.status == "import-error":
        pytest.skip(f"TensorFlow does not import here: {held.error_message}")
    assert (held.status, held.gpus) == ("no-gpu", ()), held


@pytest.mark.gpu
@pytest.mark.parametrize(
    ("growth", "severity"),
    [
        pytest.param("true", Severity.OK, id="growth"),
        pytest.param(None, Severity.WARNING, id="not"),
    ],
)
def test_real_gpu_memory_held_follows_the_environment(
    growth: Optional[str], severity: Severity
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("TF_FORCE_GPU_ALLOW_GROWTH",)}
    env.pop("TF_GPU_ALLOCATOR", None)
    if growth is not None:
        env["TF_FORCE_GPU_ALLOW_GROWTH"] = growth
    held = read_memory_held(sys.executable, env, timeout=300)
    assert held.status == "ok", held
    assert held.gpus and all(g.memory_held is not None for g in held.gpus), held
    findings = judge_held(held_facts(*held.gpus, configured=growth == "true"))
    assert {x.severity for x in findings} == {severity}, findings
