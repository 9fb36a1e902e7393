"""The driver probe against a gcc-built libnvidia-ml.so.1, fake nvidia-smi programs and
recorded nvidia-smi output.

The stub exports the NVML entry points the installed pynvml resolves (``nvmlInitWithFlags``
or ``nvmlInit_v2``, ``nvmlDeviceGetCount_v2``, ``nvmlDeviceGetHandleByIndex_v2``,
``nvmlDeviceGetPciInfo_v3`` ...), so the real binding and the real dynamic loader run in the
real child process. Environment variables the C code reads choose the scenario:
``STUB_NVML_RC_<function>`` makes a call return that nvmlReturn_t, ``STUB_NVML_GPUS`` sets
the device count, ``STUB_NVML_LOST`` the index of a GPU fallen off the bus,
``STUB_NVML_CRASH``/``STUB_NVML_HANG`` make nvmlInit die or hang, and ``STUB_NVML_LOG``
names a file that records each call.
"""

from __future__ import annotations

import ast
import ctypes
import dataclasses
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

import pytest

from tests.cstubs import build_shared_lib
from tfdoctor.facts import DriverFacts, GpuFacts, ProbeError
from tfdoctor.probes._run import CommandResult, child_script, run_command
from tfdoctor.probes.nvidia import (
    SMI_FIELDS,
    combine_errors,
    cuda_version_from_int,
    parse_nvml_result,
    parse_smi_cuda_version,
    parse_smi_failure,
    parse_smi_query,
    probe_driver,
    read_nvidia_smi,
)

DATA = Path(__file__).parent / "data" / "nvidia_smi"
MIB = 1024 * 1024

# Field sizes and struct layouts from nvml.h (nvmlPciInfo_t v3, nvmlMemory_t).
NVML_STUB_C = r"""
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int nvmlReturn_t;
typedef struct { int index; } stub_device;
typedef stub_device *nvmlDevice_t;
typedef struct {
    char busIdLegacy[16];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
} nvmlPciInfo_t;
typedef struct { unsigned long long total, free, used; } nvmlMemory_t;

struct gpu {
    const char *name, *uuid, *bus;
    int major, minor;
    unsigned long long total, used;
    int mig;                 /* -1: NVML_ERROR_NOT_SUPPORTED */
    long long ecc_c, ecc_u;  /* -1: NVML_ERROR_NOT_SUPPORTED */
};
static const struct gpu GPUS[2] = {
    {"NVIDIA A100-SXM4-80GB", "GPU-6f1c2a9e-3b47-4d1a-9e0c-8a2b5d7e4f10", "00000000:07:00.0",
     8, 0, 85899345920ULL, 91226112ULL, 1, 2, 0},
    {"Tesla T4", "GPU-0b8e5c3d-91f2-6a47-c2d8-3e7f1a9b6c54", "00000000:3B:00.0",
     7, 5, 16106127360ULL, 5242880ULL, -1, -1, -1},
};
static stub_device HANDLES[2] = {{0}, {1}};

static void trace(const char *fn) {
    const char *path = getenv("STUB_NVML_LOG");
    if (path) { FILE *f = fopen(path, "a"); if (f) { fprintf(f, "%s\n", fn); fclose(f); } }
}
static int rc_for(const char *fn) {
    char key[160];
    trace(fn);
    snprintf(key, sizeof key, "STUB_NVML_RC_%s", fn);
    const char *v = getenv(key);
    return v ? atoi(v) : 0;
}
#define CHECK(fn) do { int rc_ = rc_for(fn); if (rc_) return rc_; } while (0)
static int count(void) {
    const char *v = getenv("STUB_NVML_GPUS");
    int n = v ? atoi(v) : 2;
    return n < 0 ? 0 : (n > 2 ? 2 : n);
}
static int put(char *buf, unsigned int len, const char *s) {
    if (strlen(s) + 1 > len) return 7; /* NVML_ERROR_INSUFFICIENT_SIZE */
    strcpy(buf, s);
    return 0;
}
static int init(const char *fn) {
    if (getenv("STUB_NVML_CRASH")) raise(SIGSEGV);
    if (getenv("STUB_NVML_HANG")) sleep(60);
    return rc_for(fn);
}

nvmlReturn_t nvmlInit(void) { return init("nvmlInit"); }
nvmlReturn_t nvmlInit_v2(void) { return init("nvmlInit"); }
nvmlReturn_t nvmlInitWithFlags(unsigned int flags) { (void)flags; return init("nvmlInit"); }
nvmlReturn_t nvmlShutdown(void) { CHECK("nvmlShutdown"); return 0; }

const char *nvmlErrorString(nvmlReturn_t r) {
    switch (r) {
    case 0: return "Success";
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 9: return "Driver Not Loaded";
    case 15: return "GPU is lost";
    case 18: return "RM has detected an NVML/RM version mismatch.";
    default: return "Unknown Error";
    }
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *buf, unsigned int len) {
    CHECK("nvmlSystemGetDriverVersion");
    return put(buf, len, "550.54.15");
}
nvmlReturn_t nvmlSystemGetNVMLVersion(char *buf, unsigned int len) {
    CHECK("nvmlSystemGetNVMLVersion");
    return put(buf, len, "12.550.54.15");
}
nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *v) {
    CHECK("nvmlSystemGetCudaDriverVersion"); *v = 12040; return 0;
}
nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *v) {
    CHECK("nvmlSystemGetCudaDriverVersion_v2"); *v = 12040; return 0;
}
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *n) {
    CHECK("nvmlDeviceGetCount"); *n = (unsigned int)count(); return 0;
}
nvmlReturn_t nvmlDeviceGetCount(unsigned int *n) { return nvmlDeviceGetCount_v2(n); }
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvmlDevice_t *d) {
    CHECK("nvmlDeviceGetHandleByIndex");
    const char *lost = getenv("STUB_NVML_LOST");
    if (lost && (unsigned int)atoi(lost) == i) return 15; /* NVML_ERROR_GPU_IS_LOST */
    if (i >= (unsigned int)count()) return 2; /* NVML_ERROR_INVALID_ARGUMENT */
    *d = &HANDLES[i];
    return 0;
}
nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int i, nvmlDevice_t *d) {
    return nvmlDeviceGetHandleByIndex_v2(i, d);
}
nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *buf, unsigned int len) {
    CHECK("nvmlDeviceGetName"); return put(buf, len, GPUS[d->index].name);
}
nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *buf, unsigned int len) {
    CHECK("nvmlDeviceGetUUID"); return put(buf, len, GPUS[d->index].uuid);
}
nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t *p) {
    CHECK("nvmlDeviceGetPciInfo");
    memset(p, 0, sizeof *p);
    strncpy(p->busIdLegacy, GPUS[d->index].bus + 4, sizeof p->busIdLegacy - 1);
    strncpy(p->busId, GPUS[d->index].bus, sizeof p->busId - 1);
    return 0;
}
nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t d, nvmlPciInfo_t *p) {
    return nvmlDeviceGetPciInfo_v3(d, p);
}
nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int *major, int *minor) {
    CHECK("nvmlDeviceGetCudaComputeCapability");
    *major = GPUS[d->index].major; *minor = GPUS[d->index].minor; return 0;
}
nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m) {
    CHECK("nvmlDeviceGetMemoryInfo");
    m->total = GPUS[d->index].total; m->used = GPUS[d->index].used;
    m->free = m->total - m->used;
    return 0;
}
nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int *cur, unsigned int *pending) {
    CHECK("nvmlDeviceGetMigMode");
    if (GPUS[d->index].mig < 0) return 3;
    *cur = (unsigned int)GPUS[d->index].mig; *pending = *cur; return 0;
}
nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, int type, int counter,
                                         unsigned long long *n) {
    CHECK("nvmlDeviceGetTotalEccErrors");
    if (counter != 0) return 2; /* the probe asks for NVML_VOLATILE_ECC */
    long long v = type == 0 ? GPUS[d->index].ecc_c : GPUS[d->index].ecc_u;
    if (v < 0) return 3;
    *n = (unsigned long long)v;
    return 0;
}
"""

A100 = GpuFacts(
    index=0,
    name="NVIDIA A100-SXM4-80GB",
    uuid="GPU-6f1c2a9e-3b47-4d1a-9e0c-8a2b5d7e4f10",
    pci_bus_id="00000000:07:00.0",
    compute_capability="8.0",
    memory_total=81920 * MIB,
    memory_used=87 * MIB,
    mig_mode=True,
    ecc_corrected=2,
    ecc_uncorrected=0,
)
T4 = GpuFacts(
    index=1,
    name="Tesla T4",
    uuid="GPU-0b8e5c3d-91f2-6a47-c2d8-3e7f1a9b6c54",
    pci_bus_id="00000000:3B:00.0",
    compute_capability="7.5",
    memory_total=15360 * MIB,
    memory_used=5 * MIB,
    mig_mode=None,
    ecc_corrected=None,
    ecc_uncorrected=None,
)

# A fake nvidia-smi: answers the calls a JSON script lists, in order, and fails loudly on any
# other call (the strict-fake rule), logging every argv it saw.
FAKE_SMI = """\
#!{python}
import json, sys
from pathlib import Path
here = Path(__file__).resolve().parent
script = json.loads((here / "smi_script.json").read_text())
log = here / "smi_calls.log"
seen = log.read_text().splitlines() if log.exists() else []
with log.open("a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\\n")
if len(seen) >= len(script) or script[len(seen)]["args"] != sys.argv[1:]:
    sys.stderr.write("fake nvidia-smi: unexpected call %r\\n" % (sys.argv[1:],))
    sys.exit(99)
step = script[len(seen)]
sys.stdout.write(step["stdout"])
sys.exit(step["rc"])
"""


def query_args(fields: Sequence[str] = SMI_FIELDS) -> list[str]:
    """The arguments the probe passes for a GPU query."""
    return ["--query-gpu=" + ",".join(fields), "--format=csv,noheader,nounits"]


def recorded(name: str) -> str:
    """A recorded nvidia-smi output."""
    return (DATA / name).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def stub_lib_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the stub libnvidia-ml.so.1."""
    directory = tmp_path_factory.mktemp("nvml-stub")
    build_shared_lib(directory, "libnvidia-ml.so.1", NVML_STUB_C)
    return directory


@pytest.fixture
def empty_bin(tmp_path: Path) -> Path:
    """A PATH directory without nvidia-smi."""
    path = tmp_path / "bin"
    path.mkdir()
    return path


def fake_smi(directory: Path, steps: Sequence[tuple[list[str], str, int]]) -> Path:
    """Write a fake nvidia-smi into ``directory`` that answers ``steps`` (args, stdout, rc)."""
    directory.mkdir(parents=True, exist_ok=True)
    script = [{"args": args, "stdout": out, "rc": rc} for args, out, rc in steps]
    (directory / "smi_script.json").write_text(json.dumps(script), encoding="utf-8")
    exe = directory / "nvidia-smi"
    exe.write_text(FAKE_SMI.format(python=sys.executable), encoding="utf-8")
    exe.chmod(0o755)
    return directory


def smi_calls(directory: Path) -> list[list[str]]:
    """The argv lists the fake nvidia-smi saw."""
    log = directory / "smi_calls.log"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def stub_env(lib_dir: Path, bin_dir: Path, **stub: str) -> dict[str, str]:
    """The probe's environment: only the stub on the loader path, only ``bin_dir`` on PATH."""
    env = {"LD_LIBRARY_PATH": str(lib_dir), "PATH": str(bin_dir)}
    env.update({f"STUB_NVML_{k}": v for k, v in stub.items()})
    return env


def system_has_nvml() -> bool:
    """Whether this machine's loader finds a real libnvidia-ml.so.1 without help."""
    try:
        ctypes.CDLL("libnvidia-ml.so.1")
    except OSError:
        return False
    return True


# --- NVML through the stub ----------------------------------------------------------------


def test_two_gpus_of_different_compute_capability(
    stub_lib_dir: Path, empty_bin: Path, tmp_path: Path
) -> None:
    log = tmp_path / "nvml.log"
    facts = probe_driver(env=stub_env(stub_lib_dir, empty_bin, LOG=str(log)))
    assert facts == DriverFacts(
        source="nvml",
        driver_version="550.54.15",
        cuda_version="12.4",
        nvml_version="12.550.54.15",
        gpus=(A100, T4),
    )
    calls = log.read_text().split()
    assert calls[0] == "nvmlInit"
    assert calls[-1] == "nvmlShutdown"


@pytest.mark.parametrize(
    ("stub", "expected_reason"),
    [
        pytest.param({"RC_nvmlInit": "9"}, "driver-not-loaded", id="driver-not-loaded"),
        pytest.param({"RC_nvmlInit": "18"}, "version-mismatch", id="lib-rm-version-mismatch"),
        pytest.param({"RC_nvmlInit": "4"}, "no-permission", id="no-permission-at-init"),
        pytest.param(
            {"RC_nvmlDeviceGetHandleByIndex": "4"}, "no-permission", id="no-permission-per-device"
        ),
        pytest.param({"RC_nvmlInit": "999"}, "unknown", id="unknown-error"),
        pytest.param(
            {"RC_nvmlDeviceGetHandleByIndex": "15"}, "unknown", id="every-gpu-fallen-off-the-bus"
        ),
    ],
)
def test_nvml_failures_are_classified(
    stub_lib_dir: Path, empty_bin: Path, stub: dict[str, str], expected_reason: str
) -> None:
    facts = probe_driver(env=stub_env(stub_lib_dir, empty_bin, **stub))
    assert facts.source == "none"
    assert facts.gpus == ()
    assert facts.error is not None
    assert facts.error.probe == "driver"
    assert facts.error.reason == expected_reason
    assert facts.nvml_error is not None
    assert facts.nvml_error.reason == expected_reason
    # nvidia-smi was tried and its absence is recorded beside the NVML failure.
    assert "nvidia-smi: nvidia-smi is not on PATH" in facts.error.detail
    assert "\n" not in facts.error.message


def test_version_mismatch_says_so(stub_lib_dir: Path, empty_bin: Path) -> None:
    facts = probe_driver(env=stub_env(stub_lib_dir, empty_bin, RC_nvmlInit="18"))
    assert facts.error is not None
    assert facts.error.message.startswith("Driver/library version mismatch")
    assert "NVML_ERROR_LIB_RM_VERSION_MISMATCH (18)" in facts.error.detail


def test_no_library_anywhere_is_library_not_found(empty_bin: Path, tmp_path: Path) -> None:
    if system_has_nvml():
        pytest.skip("this machine's loader finds a real libnvidia-ml.so.1")
    empty_lib = tmp_path / "lib"
    empty_lib.mkdir()
    facts = probe_driver(env={"LD_LIBRARY_PATH": str(empty_lib), "PATH": str(empty_bin)})
    assert facts.source == "none"
    assert facts.error is not None
    assert facts.error.reason == "library-not-found"
    assert facts.nvml_error is not None
    assert facts.nvml_error.reason == "library-not-found"
    assert "NVML_ERROR_LIBRARY_NOT_FOUND" in facts.nvml_error.detail


def test_zero_gpus_keeps_the_driver_facts(stub_lib_dir: Path, empty_bin: Path) -> None:
    facts = probe_driver(env=stub_env(stub_lib_dir, empty_bin, GPUS="0"))
    assert facts.source == "nvml"
    assert facts.driver_version == "550.54.15"
    assert facts.gpus == ()
    assert facts.error is not None
    assert facts.error.reason == "no-gpu"


@pytest.mark.parametrize(
    ("stub", "changed", "nvml_error"),
    [
        pytest.param({"RC_nvmlDeviceGetUUID": "3"}, {"uuid": None}, None, id="uuid-not-supported"),
        pytest.param(
            {"RC_nvmlDeviceGetCudaComputeCapability": "999"},
            {"compute_capability": None},
            ProbeError(
                "driver",
                "partial",
                "NVML could not read nvmlDeviceGetCudaComputeCapability (device 0, device 1)",
                "device 0: nvmlDeviceGetCudaComputeCapability: NVML_ERROR_UNKNOWN (999)\n"
                "device 1: nvmlDeviceGetCudaComputeCapability: NVML_ERROR_UNKNOWN (999)",
            ),
            id="compute-capability-unknown-error",
        ),
        pytest.param(
            {"RC_nvmlDeviceGetMemoryInfo": "4"},
            {"memory_total": None, "memory_used": None},
            ProbeError(
                "driver",
                "partial",
                "NVML could not read nvmlDeviceGetMemoryInfo (device 0, device 1)",
                "device 0: nvmlDeviceGetMemoryInfo: NVML_ERROR_NO_PERMISSION (4)\n"
                "device 1: nvmlDeviceGetMemoryInfo: NVML_ERROR_NO_PERMISSION (4)",
            ),
            id="memory-no-permission",
        ),
        pytest.param(
            {"RC_nvmlDeviceGetMigMode": "3"}, {"mig_mode": None}, None, id="mig-not-supported"
        ),
    ],
)
def test_one_failing_call_loses_only_its_field(
    stub_lib_dir: Path,
    empty_bin: Path,
    stub: dict[str, str],
    changed: dict[str, Any],
    nvml_error: Optional[ProbeError],
) -> None:
    facts = probe_driver(env=stub_env(stub_lib_dir, empty_bin, **stub))
    assert facts.source == "nvml"
    assert facts.error is None
    expected = tuple(dataclasses.replace(gpu, **changed) for gpu in (A100, T4))
    assert facts.gpus == expected
    # A call that failed (not merely unsupported) is reported beside the facts.
    assert facts.nvml_error == nvml_error


def test_cuda_version_falls_back_to_the_unversioned_call(
    stub_lib_dir: Path, empty_bin: Path, tmp_path: Path
) -> None:
    log = tmp_path / "nvml.log"
    env = stub_env(stub_lib_dir, empty_bin, RC_nvmlSystemGetCudaDriverVersion_v2="13", LOG=str(log))
    facts = probe_driver(env=env)
    assert facts.cuda_version == "12.4"
    assert "nvmlSystemGetCudaDriverVersion" in log.read_text().split()


def test_crash_inside_the_driver_is_contained(stub_lib_dir: Path, empty_bin: Path) -> None:
    facts = probe_driver(env=stub_env(stub_lib_dir, empty_bin, CRASH="1"))
    assert facts.source == "none"
    assert facts.nvml_error is not None
    assert facts.nvml_error.reason == "crashed"
    assert "SIGSEGV" in facts.nvml_error.message
    assert facts.error is not None
    # nvidia-smi missing must not be read as "no library": NVML had loaded one.
    assert facts.error.reason == "unknown"
    assert "SIGSEGV" in facts.error.message
    # faulthandler in the child names the NVML call that crashed.
    assert "nvmlInit" in facts.nvml_error.detail


def test_one_lost_gpu_keeps_the_other(stub_lib_dir: Path, empty_bin: Path) -> None:
    facts = probe_driver(env=stub_env(stub_lib_dir, empty_bin, LOST="1"))
    assert facts.source == "nvml"
    assert facts.gpus == (A100,)
    assert facts.error is None
    assert facts.nvml_error is not None
    assert facts.nvml_error.message == "NVML could not read GPU 1: GPU is lost"
    assert "NVML_ERROR_GPU_IS_LOST (15)" in facts.nvml_error.detail


def test_a_lost_gpu_and_a_failed_call_are_both_reported(
    stub_lib_dir: Path, empty_bin: Path
) -> None:
    env = stub_env(stub_lib_dir, empty_bin, LOST="1", RC_nvmlDeviceGetMemoryInfo="4")
    facts = probe_driver(env=env)
    assert facts.gpus == (dataclasses.replace(A100, memory_total=None, memory_used=None),)
    assert facts.nvml_error is not None
    assert facts.nvml_error.message == "NVML could not read GPU 1: GPU is lost"
    assert facts.nvml_error.detail.splitlines()[-1] == (
        "device 0: nvmlDeviceGetMemoryInfo: NVML_ERROR_NO_PERMISSION (4)"
    )


def test_hung_driver_times_out(stub_lib_dir: Path, empty_bin: Path) -> None:
    facts = probe_driver(env=stub_env(stub_lib_dir, empty_bin, HANG="1"), timeout=1.0)
    assert facts.nvml_error is not None
    assert facts.nvml_error.reason == "timeout"
    assert facts.error is not None
    assert facts.error.reason == "unknown"


def test_missing_pynvml_is_reported_by_the_child(stub_lib_dir: Path) -> None:
    # -S leaves site-packages (and with it pynvml) off sys.path: the child must say so in JSON.
    result = run_command(
        [sys.executable, "-S", child_script("nvml_info.py")],
        {"LD_LIBRARY_PATH": str(stub_lib_dir)},
        30.0,
    )
    assert result.returncode == 0, result.stderr
    error = parse_nvml_result(result, 30.0)
    assert isinstance(error, ProbeError)
    assert error.reason == "pynvml-missing"
    assert "pynvml" in error.message


def test_child_script_is_python37_syntax() -> None:
    source = Path(child_script("nvml_info.py")).read_text(encoding="utf-8")
    ast.parse(source, feature_version=(3, 7))


# --- nvidia-smi fallback, end to end ------------------------------------------------------


def test_fallback_to_nvidia_smi_when_nvml_fails(stub_lib_dir: Path, tmp_path: Path) -> None:
    bin_dir = fake_smi(
        tmp_path / "bin",
        [
            (query_args(), recorded("query_a100_t4_r550.txt"), 0),
            ([], recorded("header_r550.txt"), 0),
        ],
    )
    facts = probe_driver(env=stub_env(stub_lib_dir, bin_dir, RC_nvmlInit="999"))
    assert smi_calls(bin_dir) == [query_args(), []]
    assert facts.source == "nvidia-smi"
    assert facts.driver_version == "550.54.15"
    assert facts.cuda_version == "12.4"
    assert facts.error is None
    assert facts.nvml_error is not None
    assert facts.nvml_error.reason == "unknown"
    # nvidia-smi has no ECC totals in this query: those stay unknown.
    assert facts.gpus == (
        dataclasses.replace(A100, ecc_corrected=None, ecc_uncorrected=None),
        T4,
    )


# nvidia-smi programs that fail the way a wedged or crashing driver makes them fail.
HANGING_SMI = """\
#!{python}
import sys, time
sys.stderr.write("nvidia-smi: waiting for the GPU to respond\\n")
sys.stderr.flush()
time.sleep(600)
"""
CRASHING_SMI = """\
#!{python}
import os, signal, sys
sys.stderr.write("nvidia-smi: about to touch the device\\n")
sys.stderr.flush()
os.kill(os.getpid(), signal.SIGSEGV)
"""


@pytest.mark.parametrize(
    ("program", "reason", "message"),
    [
        pytest.param(
            HANGING_SMI,
            "timeout",
            "nvidia-smi did not answer within 1 s (the driver may be hung)",
            id="hangs",
        ),
        pytest.param(CRASHING_SMI, "crashed", "nvidia-smi was killed by SIGSEGV", id="segfaults"),
    ],
)
def test_nvidia_smi_hang_or_crash_keeps_its_stderr(
    tmp_path: Path, program: str, reason: str, message: str
) -> None:
    exe = tmp_path / "nvidia-smi"
    exe.write_text(program.format(python=sys.executable), encoding="utf-8")
    exe.chmod(0o755)

    error = read_nvidia_smi({"PATH": str(tmp_path)}, run_command, 1.0)

    assert isinstance(error, ProbeError)
    assert (error.reason, error.message) == (reason, message)
    assert error.detail.startswith("nvidia-smi: ")


def test_old_nvidia_smi_without_compute_cap_is_asked_again(
    stub_lib_dir: Path, tmp_path: Path
) -> None:
    without = [f for f in SMI_FIELDS if f != "compute_cap"]
    bin_dir = fake_smi(
        tmp_path / "bin",
        [
            (query_args(), recorded("invalid_field_compute_cap.txt"), 2),
            (query_args(without), recorded("query_rtx3080_r470_no_compute_cap.txt"), 0),
            ([], recorded("header_r470.txt"), 0),
        ],
    )
    facts = probe_driver(env=stub_env(stub_lib_dir, bin_dir, RC_nvmlInit="999"))
    assert len(smi_calls(bin_dir)) == 3
    assert facts.source == "nvidia-smi"
    assert facts.cuda_version == "11.4"
    assert facts.gpus == (
        GpuFacts(
            index=0,
            name="NVIDIA GeForce RTX 3080",
            uuid="GPU-8fe3a97d-51f6-a669-0d80-b4530b81b816",
            pci_bus_id="00000000:0A:00.0",
            compute_capability=None,
            memory_total=10240 * MIB,
            memory_used=1211 * MIB,
            mig_mode=None,
        ),
    )


@pytest.mark.parametrize(
    ("nvml_rc", "smi_output", "smi_rc", "expected_reason"),
    [
        pytest.param(
            "9", "fail_driver_not_loaded.txt", 9, "driver-not-loaded", id="both-driver-not-loaded"
        ),
        pytest.param(
            "999", "fail_version_mismatch.txt", 18, "version-mismatch", id="smi-knows-mismatch"
        ),
        pytest.param("999", "fail_no_devices.txt", 6, "no-gpu", id="smi-finds-no-devices"),
        pytest.param(
            "12", "fail_no_permission.txt", 4, "no-permission", id="smi-got-further-than-nvml"
        ),
    ],
)
def test_both_failing_reports_the_most_specific_reason(
    stub_lib_dir: Path,
    tmp_path: Path,
    *,
    nvml_rc: str,
    smi_output: str,
    smi_rc: int,
    expected_reason: str,
) -> None:
    bin_dir = fake_smi(tmp_path / "bin", [(query_args(), recorded(smi_output), smi_rc)])
    facts = probe_driver(env=stub_env(stub_lib_dir, bin_dir, RC_nvmlInit=nvml_rc))
    assert smi_calls(bin_dir) == [query_args()]
    assert facts.source == "none"
    assert facts.error is not None
    assert facts.error.reason == expected_reason
    assert recorded(smi_output).strip().splitlines()[0] in facts.error.detail
    assert facts.nvml_error is not None


# --- pure parsers on recorded output ------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fields", "expected_gpus", "expected_driver"),
    [
        pytest.param(
            "query_a100_t4_r550.txt",
            SMI_FIELDS,
            (
                dataclasses.replace(A100, ecc_corrected=None, ecc_uncorrected=None),
                T4,
            ),
            "550.54.15",
            id="r550-a100-mig-and-t4",
        ),
        pytest.param(
            "query_not_supported_r535.txt",
            SMI_FIELDS,
            (
                GpuFacts(
                    index=0,
                    name="NVIDIA GeForce GTX 1650",
                    uuid="GPU-2d4c7a1e-0f93-b5e8-61c2-9a7d3e8f0b46",
                    pci_bus_id="00000000:01:00.0",
                    compute_capability="7.5",
                    memory_total=4096 * MIB,
                    memory_used=None,
                    mig_mode=None,
                ),
            ),
            "535.183.01",
            id="r535-not-supported-fields",
        ),
        pytest.param(
            "query_h100_mig_disabled_r580.txt",
            SMI_FIELDS,
            (
                GpuFacts(
                    index=0,
                    name="NVIDIA H100 80GB HBM3",
                    uuid="GPU-c3a1f0d2-7e64-9b85-24af-d61e08b7c935",
                    pci_bus_id="00000000:18:00.0",
                    compute_capability="9.0",
                    memory_total=81559 * MIB,
                    memory_used=0,
                    mig_mode=False,
                ),
            ),
            "580.65.06",
            id="r580-h100-mig-disabled",
        ),
    ],
)
def test_parse_smi_query(
    name: str,
    fields: Sequence[str],
    expected_gpus: tuple[GpuFacts, ...],
    expected_driver: Optional[str],
) -> None:
    assert parse_smi_query(recorded(name), fields) == (expected_gpus, expected_driver)


def test_parse_smi_query_rejects_a_short_row() -> None:
    with pytest.raises(ValueError, match="expected 9 columns"):
        parse_smi_query("0, Tesla T4, GPU-x\n")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("header_r470.txt", "11.4", id="r470"),
        pytest.param("header_r550.txt", "12.4", id="r550"),
        pytest.param("header_r580.txt", "13.0", id="r580"),
        pytest.param("header_cuda_na.txt", None, id="cuda-n-a"),
    ],
)
def test_parse_smi_cuda_version(name: str, expected: Optional[str]) -> None:
    assert parse_smi_cuda_version(recorded(name)) == expected


@pytest.mark.parametrize(
    ("name", "returncode", "expected"),
    [
        pytest.param("fail_driver_not_loaded.txt", 9, "driver-not-loaded", id="no-driver"),
        pytest.param("fail_version_mismatch.txt", 18, "version-mismatch", id="mismatch-r550"),
        pytest.param("fail_version_mismatch_r470.txt", 255, "version-mismatch", id="mismatch-r470"),
        pytest.param("fail_no_permission.txt", 4, "no-permission", id="no-permission"),
        pytest.param("fail_no_devices.txt", 6, "no-gpu", id="no-devices"),
        pytest.param("fail_command_not_found.txt", 127, "library-not-found", id="not-installed"),
        pytest.param("fail_library_not_found.txt", 12, "library-not-found", id="no-libnvidia-ml"),
        pytest.param("fail_unknown_error.txt", 255, "unknown", id="unknown-error"),
    ],
)
def test_parse_smi_failure(name: str, returncode: int, expected: str) -> None:
    error = parse_smi_failure(recorded(name), returncode)
    assert error.reason == expected
    assert error.probe == "driver"
    assert error.detail.splitlines()[0] == recorded(name).strip().splitlines()[0]


def test_parse_smi_failure_falls_back_to_the_exit_code() -> None:
    assert parse_smi_failure("", 9).reason == "driver-not-loaded"
    assert parse_smi_failure("something new\n", 3).message == "nvidia-smi failed: something new"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(12040, "12.4", id="12.4"),
        pytest.param(11020, "11.2", id="11.2"),
        pytest.param(13000, "13.0", id="13.0"),
        pytest.param(0, None, id="zero"),
        pytest.param(None, None, id="missing"),
        pytest.param(True, None, id="bool"),
    ],
)
def test_cuda_version_from_int(value: object, expected: Optional[str]) -> None:
    assert cuda_version_from_int(value) == expected


def test_combine_errors_only_reports_known_reasons() -> None:
    crashed = ProbeError("driver", "crashed", "killed by SIGSEGV")
    missing = ProbeError("driver", "library-not-found", "nvidia-smi is not on PATH")
    combined = combine_errors(crashed, missing)
    assert combined.reason == "unknown"
    assert combined.message == "killed by SIGSEGV"


# --- a runner that returns what no child would ----------------------------------------------


def test_garbage_from_the_child_is_an_error_not_an_exception(empty_bin: Path) -> None:
    def runner(
        argv: Sequence[str], env: Optional[Mapping[str, str]], timeout: float
    ) -> CommandResult:
        if argv[0] == sys.executable:
            return CommandResult(tuple(argv), 1, "Traceback (most recent", "boom", 0.1)
        return run_command(argv, env, timeout)

    facts = probe_driver(env={"PATH": str(empty_bin)}, runner=runner)
    assert facts.source == "none"
    assert facts.nvml_error is not None
    assert facts.nvml_error.reason == "child-error"
    assert facts.nvml_error.detail == "boom"


def test_malformed_report_is_an_error_not_an_exception() -> None:
    result = CommandResult(("python",), 0, '{"ok": true, "devices": [{"name": "x"}]}', "", 0.1)
    error = parse_nvml_result(result, 10.0)
    assert isinstance(error, ProbeError)
    assert error.reason == "child-error"


# --- a real driver --------------------------------------------------------------------------


@pytest.mark.gpu
def test_real_driver_reports_gpus() -> None:
    if not system_has_nvml():
        pytest.skip("no NVIDIA driver on this machine")
    facts = probe_driver(env=dict(os.environ))
    assert facts.source == "nvml", facts.nvml_error
    assert facts.gpus
    assert all(g.compute_capability and "." in g.compute_capability for g in facts.gpus)
    assert facts.driver_version is not None
    assert facts.cuda_version is not None
