# ruff: noqa: E501 -- log lines are written whole, as the programs print them
"""The driver stack below TensorFlow, as each program there prints its failure: CUDA's driver
API through TensorFlow's cuInit line and cuda_diagnostics.cc, NVML (nvidia-smi and the Python
bindings), the kernel (the nvidia module, modprobe and the lockdown), WSL 2 and the container
toolkit. Each log is written here in the program's own format; the words are the programs'
(sources in tfdoctor/signatures.yaml beside each reading).

Where the text names the reason (a signature refused, nouveau holding the GPU, a libcuda with no
module under it) the fix is that reason's; harmless lines of the same programs stay at info.
"""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text
from tfdoctor.findings import Report, Severity

#: TensorFlow's log prefixes of three generations: stream_executor (1.x-2.10), XLA inside
#: TensorFlow (2.11-2.14), XLA as an external repository (2.15+).
_SE = "2021-03-04 05:06:07.080910: {level} tensorflow/stream_executor/cuda/{file}] "
_XLA = "2023-03-04 05:06:07.080910: {level} tensorflow/compiler/xla/stream_executor/cuda/{file}] "
_EXT = "2024-03-04 05:06:07.080910: {level} external/local_xla/xla/stream_executor/cuda/{file}] "


def _tf(prefix: str, level: str, file: str, message: str) -> str:
    """One line of TensorFlow's C++ log with ``prefix``'s source tree."""
    return prefix.format(level=level, file=file) + message


def _cuinit(prefix: str, result: str) -> str:
    """cuda_driver.cc's line for a failed cuInit, with ``result`` as ToString formats it."""
    return _tf(prefix, "E", "cuda_driver.cc:274", f"failed call to cuInit: {result}")


def _diag(prefix: str, message: str) -> str:
    """A line of cuda_diagnostics.cc's report after cuInit failed."""
    return _tf(prefix, "I", "cuda_diagnostics.cc:165", message)


_NO_KERNEL = "kernel driver does not appear to be running on this host (node3): /proc/driver/nvidia/version does not exist"

_PREFIXES = pytest.mark.parametrize("prefix", [_SE, _XLA, _EXT], ids=["se", "xla", "ext"])


def _top(report: Report) -> tuple[str, str]:
    """The first finding at warning or above: its cause and severity."""
    for x in report.findings:
        if x.severity.rank >= Severity.WARNING.rank:
            return x.cause, x.severity.value
    return "", ""


# --- cuInit's results, by name and by number --------------------------------------------------

_BY_NAME = [
    (
        "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: system has unsupported display driver / cuda driver combination",
        "driver-version-mismatch",
    ),
    ("CUDA_ERROR_STUB_LIBRARY: CUDA driver is a stub library", "libcuda-stub"),
    (
        "CUDA_ERROR_INSUFFICIENT_DRIVER: CUDA driver version is insufficient for CUDA runtime version",
        "driver-too-old",
    ),
    (
        "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: forward compatibility was attempted on non supported HW",
        "driver-too-old",
    ),
    (
        "CUDA_ERROR_DEVICE_UNAVAILABLE: CUDA-capable device(s) is/are busy or unavailable",
        "gpu-busy-or-unavailable",
    ),
    ("CUDA_ERROR_UNKNOWN: unknown error", "cuinit-unknown-error"),
]


@_PREFIXES
@pytest.mark.parametrize(("result", "cause"), _BY_NAME, ids=[c for _, c in _BY_NAME])
def test_cuinit_results_by_name_give_their_cause(prefix: str, result: str, cause: str) -> None:
    assert _top(explained(_cuinit(prefix, result)))[0] == cause


#: ToString's "UNKNOWN ERROR (n)" where cuGetErrorName gives no name: cuda.h's numbers.
_BY_NUMBER = [
    (803, "driver-version-mismatch"),
    (804, "driver-too-old"),
    (35, "driver-too-old"),
    (46, "gpu-busy-or-unavailable"),
    (34, "libcuda-stub"),
    (999, "cuinit-unknown-error"),
]


@pytest.mark.parametrize(("number", "cause"), _BY_NUMBER, ids=[str(n) for n, _ in _BY_NUMBER])
@pytest.mark.parametrize("prefix", [_SE, _EXT], ids=["se", "ext"])
def test_cuinit_results_by_number_give_their_cause(prefix: str, number: int, cause: str) -> None:
    report = explained(_cuinit(prefix, f"UNKNOWN ERROR ({number})"))
    assert _top(report) == (cause, "error")


@pytest.mark.parametrize(
    "result",
    ["CUDA_ERROR_INVALID_DEVICE: invalid device ordinal", "UNKNOWN ERROR (101)"],
    ids=["name", "number"],
)
@pytest.mark.parametrize("prefix", [_SE, _EXT], ids=["se", "ext"])
def test_cuinit_refusing_the_device_selection_is_named_without_the_variable(
    prefix: str, result: str
) -> None:
    """cuInit's CUDA_ERROR_INVALID_DEVICE alone: the log does not show CUDA_VISIBLE_DEVICES
    hiding the GPUs, so the result is named as it is (as check does), the variable only
    looked at in the fix."""
    report = explained(_cuinit(prefix, result))
    top = report.findings[0]
    assert _top(report) == ("gpu-unseen-no-reason", "warning")
    assert "CUDA_ERROR_INVALID_DEVICE" in top.summary and "selection" not in top.summary
    assert top.fix is not None and "nvidia-smi -L" in top.fix.commands
    assert not any(c.startswith("unset") for c in top.fix.commands)


@pytest.mark.parametrize(
    ("shown", "hidden"),
    [
        # -1 and an empty value hide every GPU; 2 names a GPU a machine may not have.
        pytest.param("export CUDA_VISIBLE_DEVICES=-1", True, id="minus-one"),
        pytest.param("os.environ['CUDA_VISIBLE_DEVICES'] = ''", True, id="empty"),
        pytest.param("CUDA_VISIBLE_DEVICES=2 python train.py", True, id="index-2"),
        # GPU 0 exists wherever a GPU does: the variable then hides none.
        pytest.param("export CUDA_VISIBLE_DEVICES=0", False, id="index-0"),
    ],
)
def test_cuinit_refusing_the_device_selection_reads_a_shown_variable(
    shown: str, hidden: bool
) -> None:
    """Where the log sets CUDA_VISIBLE_DEVICES to a value that names no GPU there, cuInit's
    CUDA_ERROR_INVALID_DEVICE is that variable's doing (cuInit takes no device of its own)."""
    text = shown + "\n" + _cuinit(_EXT, "CUDA_ERROR_INVALID_DEVICE: invalid device ordinal")
    cause = _top(explained(text))[0]
    assert (cause == "cuda-visible-devices-hidden") is hidden
    assert cause in ("cuda-visible-devices-hidden", "gpu-unseen-no-reason")


def test_a_number_of_another_call_reads_alike() -> None:
    line = "E tensorflow/stream_executor/cuda/cuda_driver.cc:1032] failed call to cuDevicePrimaryCtxRetain: UNKNOWN ERROR (46)"
    assert _top(explained(line))[0] == "gpu-busy-or-unavailable"


def test_a_number_outside_a_failed_call_is_not_read() -> None:
    # A progress bar's or a server's own "UNKNOWN ERROR (804)" names no CUDA call.
    report = explained("request 17 finished with UNKNOWN ERROR (804)")
    assert _top(report) == ("", "")


# --- cuda_diagnostics.cc: libcuda and the kernel module -----------------------------------------


@_PREFIXES
def test_libcuda_without_a_kernel_module_is_the_driver_not_loaded(prefix: str) -> None:
    text = "\n".join(
        (
            _cuinit(prefix, "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"),
            _diag(prefix, "retrieving CUDA diagnostic information for host: node3"),
            _diag(prefix, "libcuda reported version is: 550.54.14"),
            _diag(prefix, _NO_KERNEL),
        )
    )
    report = explained(text)
    assert _top(report) == ("driver-not-loaded", "warning")
    assert "sudo modprobe nvidia" in fix_text(report.findings[0])


def test_no_device_with_a_kernel_module_keeps_the_devices_reading() -> None:
    text = "\n".join(
        (
            _cuinit(_EXT, "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"),
            _diag(_EXT, "libcuda reported version is: 550.54.14"),
            _diag(_EXT, "kernel reported version is: 550.54.14"),
        )
    )
    assert _top(explained(text))[0] == "cuda-visible-devices-hidden"


def test_libcuda_without_a_module_under_wsl_is_not_a_module_to_load() -> None:
    # WSL 2 has no nvidia module and no /proc/driver/nvidia: the Windows driver serves the GPU.
    text = "\n".join(
        (
            "Linux DESKTOP-Q1 5.15.153.1-microsoft-standard-WSL2 #1 SMP x86_64 GNU/Linux",
            _cuinit(_EXT, "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"),
            _diag(_EXT, "libcuda reported version is: 550.54.14"),
            _diag(_EXT, _NO_KERNEL),
        )
    )
    report = explained(text)
    cause, _ = _top(report)
    assert cause != "driver-not-loaded"
    assert "modprobe" not in "\n".join(fix_text(x) for x in report.findings if x.fix)


def _no_device_without_kernel(*before: str) -> str:
    """cuInit finding no device, then the diagnostics finding no kernel driver."""
    return "\n".join(
        (
            *before,
            _cuinit(_SE, "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"),
            _diag(_SE, _NO_KERNEL),
        )
    )


def test_no_device_on_a_host_without_a_kernel_driver_is_not_the_variable() -> None:
    # CUDA_VISIBLE_DEVICES hides devices from CUDA; it does not take the kernel driver away,
    # and nothing here expects a GPU: a machine without one.
    report = explained(_no_device_without_kernel())
    assert _top(report) == ("", "")
    (found,) = [x for x in report.findings if x.cause == "driver-not-loaded"]
    assert "nothing in the log expects a GPU" in found.detail


def test_no_device_without_a_kernel_driver_keeps_a_variable_shown_hiding_the_gpus() -> None:
    text = _no_device_without_kernel('$ export CUDA_VISIBLE_DEVICES=""')
    assert _top(explained(text)) == ("cuda-visible-devices-hidden", "warning")


def test_no_kernel_driver_and_no_libcuda_on_a_cpu_machine_stays_a_note() -> None:
    text = "\n".join(
        (
            _tf(_XLA, "W", "cuda_driver.cc:266", "failed call to cuInit: UNKNOWN ERROR (303)"),
            _diag(_XLA, _NO_KERNEL),
        )
    )
    assert _top(explained(text)) == ("", "")


@_PREFIXES
def test_kernel_and_dso_versions_apart_are_a_driver_mismatch(prefix: str) -> None:
    text = "\n".join(
        (
            _diag(prefix, "libcuda reported version is: 550.54.14"),
            _diag(prefix, "kernel reported version is: 535.161.7"),
            _tf(
                prefix,
                "E",
                "cuda_diagnostics.cc:312",
                "kernel version 535.161.7 does not match DSO version 550.54.14 -- cannot find working devices in this configuration",
            ),
        )
    )
    report = explained(text)
    assert _top(report) == ("driver-version-mismatch", "error")
    assert "reboot" in fix_text(report.findings[0])


# --- NVML: nvidia-smi and the Python bindings ------------------------------------------------------

_NVML = [
    (
        "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.54",
        "driver-version-mismatch",
    ),
    (
        "pynvml.nvml.NVMLError_LibRmVersionMismatch: RM has detected an NVML/RM version mismatch.",
        "driver-version-mismatch",
    ),
    ("Failed to initialize NVML: Driver Not Loaded", "driver-not-loaded"),
    ("pynvml.nvml.NVMLError_DriverNotLoaded: Driver Not Loaded", "driver-not-loaded"),
    (
        "pynvml.nvml.NVMLError_LibraryNotFound: NVML Shared Library Not Found",
        "driver-libraries-missing",
    ),
    (
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
        "driver-not-loaded",
    ),
    (
        "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in your system.",
        "driver-libraries-missing",
    ),
]


@pytest.mark.parametrize(
    "text",
    [
        "$ nvidia-smi\nNo devices were found",
        "user@node3:~$ nvidia-smi\nNo devices were found\nuser@node3:~$ ",
    ],
    ids=["bare", "prompted"],
)
def test_nvidia_smi_counting_no_gpu_is_a_driver_that_drives_none(text: str) -> None:
    """NVML started (the module runs) and counted no GPU: its candidates, at warning, as the
    line alone does not tell them apart."""
    assert _top(explained(text)) == ("gpu-not-bound", "warning")


def test_no_devices_inside_another_sentence_is_not_nvidia_smis() -> None:
    report = explained("bluetoothctl: scan finished. No devices were found nearby, retrying")
    assert _top(report) == ("", "")


def test_a_traceback_ending_in_nvmls_error_reads_the_same() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/gpu_stats.py", line 4, in <module>\n'
        "    pynvml.nvmlInit()\n"
        '  File "/home/user/.venv/lib/python3.11/site-packages/pynvml.py", line 1947, in nvmlInit\n'
        "    _nvmlCheckReturn(ret)\n"
        "pynvml.NVMLError_LibRmVersionMismatch: RM has detected an NVML/RM version mismatch.\n"
    )
    assert _top(explained(text))[0] == "driver-version-mismatch"


# --- the kernel: the module refused, nouveau, a version apart ---------------------------------------

_NVRM_PROBE = (
    "[   10.123456] NVRM: The NVIDIA probe routine was not called for 1 device(s).\n"
    "[   10.123460] NVRM: This can occur when a driver such as: \n"
    "               NVRM: nouveau, rivafb, nvidiafb or rivatv \n"
    "               NVRM: was loaded and obtained ownership of the NVIDIA device(s).\n"
    "[   10.123470] NVRM: No NVIDIA devices probed."
)
_NVRM_API = (
    "[  812.337101] NVRM: API mismatch: the client has the version 550.54.14, but\n"
    "               NVRM: this kernel module has the version 535.161.07.  Please\n"
    "               NVRM: make sure that this kernel module and all NVIDIA driver\n"
    "               NVRM: components have the same version."
)
_MOK = "mokutil --import"

#: The kernel's words: the log, the cause and severity, words the fix names and must not name.
_KERNEL = [
    (
        "modprobe: ERROR: could not insert 'nvidia': Key was rejected by service",
        ("driver-not-loaded", "error"),
        (_MOK, "Secure Boot"),
        (),
    ),
    (
        "modprobe: ERROR: could not insert 'nvidia': Required key not available",
        ("driver-not-loaded", "error"),
        (_MOK, "Secure Boot"),
        (),
    ),
    (
        "modprobe: ERROR: could not insert 'nvidia_uvm': Key was rejected by service",
        ("driver-not-loaded", "error"),
        (_MOK,),
        (),
    ),
    (
        "insmod: ERROR: could not insert module nvidia.ko: Required key not available",
        ("driver-not-loaded", "error"),
        (_MOK,),
        (),
    ),
    (
        "insmod: ERROR: could not insert module /lib/modules/6.8.0-40-generic/updates/dkms/nvidia.ko.zst: Key was rejected by service",
        ("driver-not-loaded", "error"),
        (_MOK,),
        (),
    ),
    (
        "[    6.512345] Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7",
        ("driver-not-loaded", "warning"),
        (_MOK,),
        (),
    ),
    (
        "modprobe: FATAL: Module nvidia not found in directory /lib/modules/6.5.0-27-generic",
        ("driver-not-loaded", "error"),
        ("modprobe nvidia",),
        (_MOK,),
    ),
    (_NVRM_PROBE, ("driver-not-loaded", "error"), ("blacklist nouveau",), (_MOK,)),
    (
        "Mar  4 05:06:07 host kernel: [   18.761437] NVRM: The NVIDIA probe routine was not called for 2 device(s).",
        ("driver-not-loaded", "error"),
        ("blacklist nouveau",),
        (_MOK,),
    ),
    (_NVRM_API, ("driver-version-mismatch", "error"), ("reboot",), ()),
    (
        "Failed to initialize NVML: Driver/library version mismatch",
        ("driver-version-mismatch", "error"),
        ("reboot",),
        (),
    ),
]


@pytest.mark.parametrize(
    ("text", "top", "named", "unnamed"), _KERNEL, ids=[f"kernel-{i}" for i in range(len(_KERNEL))]
)
def test_the_kernels_words_give_the_reason_and_its_fix(
    text: str, top: tuple[str, str], named: tuple[str, ...], unnamed: tuple[str, ...]
) -> None:
    report = explained(f"$ sudo modprobe nvidia\n{text}")
    assert _top(report) == top
    fix = fix_text(report.findings[0])
    assert all(word in fix for word in named), fix
    assert not any(word in fix for word in unnamed), fix


# --- containers and WSL 2 -----------------------------------------------------------------------------

_HOOK = (
    "docker: Error response from daemon: failed to create task for container: failed to create "
    "shim task: OCI runtime create failed: runc create failed: unable to start container "
    "process: error during container init: error running hook #0: error running hook: exit "
    "status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
)

_CONTAINER = [
    (
        _HOOK
        + "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.2, please update your driver to a newer version, or use an earlier cuda container: unknown.",
        "driver-too-old",
    ),
    (
        _HOOK
        + "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown.",
        "driver-not-loaded",
    ),
    (
        _HOOK
        + "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown.",
        "driver-version-mismatch",
    ),
    (
        'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].',
        "container-no-gpu",
    ),
    (
        "docker: Error response from daemon: unknown or invalid runtime name: nvidia.",
        "container-no-gpu",
    ),
    (
        "$ docker exec -it trainer nvidia-smi\nFailed to initialize NVML: Unknown Error",
        "container-no-gpu",
    ),
]


#: NVML's failures as nvidia-smi shows them, then the container toolkit's refusals.
_REFUSALS = [*((f"$ nvidia-smi\n{line}", cause) for line, cause in _NVML), *_CONTAINER]


@pytest.mark.parametrize(
    ("text", "cause"), _REFUSALS, ids=[f"{c}-{i}" for i, (_, c) in enumerate(_REFUSALS)]
)
def test_nvml_and_the_container_toolkit_give_their_cause(text: str, cause: str) -> None:
    assert _top(explained(text)) == (cause, "error")


def test_the_toolkit_without_a_host_driver_fixes_the_host() -> None:
    report = explained(_CONTAINER[1][0])
    fix = fix_text(report.findings[0])
    assert "host" in fix
    assert "mokutil" not in fix


@pytest.mark.parametrize(
    "text",
    [
        "Linux PC 5.10.16.3-microsoft-standard-WSL2 #1 SMP Fri Apr 2 22:23:49 UTC 2021 x86_64 GNU/Linux\n"
        + _cuinit(
            _EXT,
            "CUDA_ERROR_OPERATING_SYSTEM: OS call failed or operation not supported on this OS",
        ),
        "/sbin/ldconfig.real: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\n"
        + _cuinit(_EXT, "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"),
    ],
    ids=["operating-system", "no-device"],
)
def test_wsl2s_driver_failures_fix_the_windows_driver(text: str) -> None:
    report = explained(text)
    assert _top(report)[0] == "wsl-driver-broken"
    assert "Windows" in fix_text(report.findings[0])


# --- harmless lines of the same programs ----------------------------------------------------------------

_CREATED = _tf(
    _EXT,
    "I",
    "../../core/common_runtime/gpu/gpu_device.cc:2021",
    "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 21458 MB memory:  -> device: 0, name: NVIDIA GeForce RTX 4090, pci bus id: 0000:01:00.0, compute capability: 8.9",
)

_BENIGN = [
    _tf(
        _XLA,
        "I",
        "cuda_gpu_executor.cc:995",
        "successful NUMA node read from SysFS had negative value (-1), but there must be at least one NUMA node, so returning NUMA node zero. See more at https://github.com/torvalds/linux/blob/v6.0/Documentation/ABI/testing/sysfs-bus-pci#L344-L355",
    ),
    _tf(
        _EXT,
        "I",
        "cuda_executor.cc:1015",
        "could not open file to read NUMA node: /sys/bus/pci/devices/0000:01:00.0/numa_node\nYour kernel may have been built without NUMA support.",
    ),
    _tf(
        _EXT,
        "I",
        "cuda_executor.cc:1015",
        "could not open file to read NUMA node: /sys/bus/pci/devices/0000:01:00.0/numa_node\nYour kernel may have been built without NUMA support.\n[PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]",
    ),
    "/sbin/ldconfig.real: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\n" + _CREATED,
    "\n".join(
        (
            _diag(_SE, "libcuda reported version is: 470.223.2"),
            _diag(_SE, "kernel reported version is: 470.223.2"),
            _tf(
                _SE, "I", "cuda_diagnostics.cc:313", "kernel version seems to match DSO: 470.223.2"
            ),
        )
    ),
    "[    5.123456] nvidia: module verification failed: signature and/or required key missing - tainting kernel\n"
    + _CREATED,
    "$ nvidia-smi -L\nGPU 0: NVIDIA GeForce RTX 4090 (UUID: GPU-5d1b2c3a-0000-1111-2222-333344445555)\n"
    + _CREATED,
]


@pytest.mark.parametrize("text", _BENIGN, ids=[f"benign-{i}" for i in range(len(_BENIGN))])
def test_the_stacks_harmless_lines_stay_at_info(text: str) -> None:
    assert _top(explained(text)) == ("", "")


# --- a damaged libcuda, nouveau in the machine's own listings --------------------------------------

_BROKEN_LIBCUDA = [
    "ImportError: libcuda.so.1: file too short",
    _tf(
        _EXT,
        "W",
        "../platform/default/dso_loader.cc:64",
        "Could not load dynamic library 'libcuda.so.1'; dlerror: /usr/lib/x86_64-linux-gnu/libcuda.so.1: file too short",
    ),
    _tf(
        _SE,
        "W",
        "../platform/default/dso_loader.cc:64",
        "Could not load dynamic library 'libcuda.so.1'; dlerror: /usr/lib64/libcuda.so.1: invalid ELF header",
    ),
]


@pytest.mark.parametrize("line", _BROKEN_LIBCUDA, ids=["import", "dlopen-short", "dlopen-elf"])
def test_a_damaged_libcuda_is_the_drivers_libraries_reinstalled(line: str) -> None:
    report = explained(line)
    assert _top(report) == ("driver-libraries-missing", "error")
    fix = fix_text(report.findings[0])
    assert "Reinstall" in fix
    assert "--gpus" not in fix


def test_a_damaged_libcuda_under_wsl_is_the_windows_driver() -> None:
    text = (
        "/sbin/ldconfig.real: File /usr/lib/wsl/lib/libcuda.so.1 is empty, not checked.\n"
        + _BROKEN_LIBCUDA[1].replace("/usr/lib/x86_64-linux-gnu/", "/usr/lib/wsl/lib/")
    )
    report = explained(text)
    assert _top(report)[0] == "wsl-driver-broken"
    assert "apt-get install --reinstall" not in fix_text(report.findings[0])


@pytest.mark.parametrize(
    "listing",
    [
        "$ lsmod | grep -E 'nvidia|nouveau'\nnouveau              2334720  3\nmxm_wmi                12288  1 nouveau",
        "$ lspci -k -s 01:00.0\n01:00.0 VGA compatible controller: NVIDIA Corporation GA102 [GeForce RTX 3090] (rev a1)\n\tKernel driver in use: nouveau\n\tKernel modules: nvidiafb, nouveau",
    ],
    ids=["lsmod", "lspci"],
)
def test_no_device_beside_nouveau_bound_is_nouveau_to_blacklist(listing: str) -> None:
    text = (
        _cuinit(_EXT, "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected") + "\n" + listing
    )
    report = explained(text)
    assert _top(report)[0] == "driver-not-loaded"
    assert "blacklist nouveau" in fix_text(report.findings[0])


def test_nouveau_named_in_a_module_list_only_is_not_read() -> None:
    # lspci's "Kernel modules:" lists the drivers that could bind, not the one bound.
    assert _top(explained("\tKernel modules: nvidiafb, nouveau")) == ("", "")


_DESKTOP_RUN = (
    "PS C:\\Users\\user> docker run --gpus all -it --rm tensorflow/tensorflow:2.16.1-gpu "
    "python -c \"import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))\"\n"
)
_HOSTNAME = _diag(_EXT, "hostname: 3f2a9c1b7d4e")


@pytest.mark.parametrize(
    "head",
    [
        _DESKTOP_RUN,
        "$ uname -r\n5.15.153.1-microsoft-standard-WSL2\n$ " + _DESKTOP_RUN.split("> ", 1)[1],
    ],
    ids=["powershell", "wsl2-shell"],
)
def test_a_container_with_its_gpu_flag_on_windows_is_wsls_gpu(head: str) -> None:
    text = (
        head
        + _cuinit(_EXT, "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected")
        + "\n"
        + _HOSTNAME
        + "\n[]"
    )
    report = explained(text)
    assert _top(report)[0] == "wsl-driver-broken"
    fix = fix_text(report.findings[0])
    assert "Windows NVIDIA driver" in fix
    assert "--gpus" not in fix


def test_a_container_without_its_gpu_flag_on_windows_keeps_the_flag() -> None:
    head = _DESKTOP_RUN.replace("--gpus all ", "")
    text = (
        head
        + _cuinit(_EXT, "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected")
        + "\n"
        + _HOSTNAME
    )
    report = explained(text)
    assert _top(report)[0] == "container-no-gpu"
    assert "--gpus" in fix_text(report.findings[0])


def test_nouveau_bound_alone_is_a_warning_with_its_fix() -> None:
    report = explained("$ lsmod | grep nouveau\nnouveau              2334720  3")
    assert _top(report) == ("driver-not-loaded", "warning")
    assert "blacklist nouveau" in fix_text(report.findings[0])


@pytest.mark.parametrize(
    "text",
    [
        "/sbin/ldconfig.real: File /usr/lib/x86_64-linux-gnu/libcuda.so.1 is empty, not checked.\n"
        + _CREATED,
        "Step 5/9 : RUN ldconfig\n ---> Running in 3f2a9c1b7d4e\n/sbin/ldconfig.real: File /lib/x86_64-linux-gnu/libcuda.so.1 is empty, not checked.",
    ],
    ids=["beside-a-gpu", "image-build"],
)
def test_ldconfigs_note_of_an_empty_libcuda_is_no_error(text: str) -> None:
    # ldconfig skips an empty file and says so: the container toolkit's mount points in an
    # image, or a libcuda the loader never loads; the loader's own words are the failure.
    report = explained(text)
    assert all(x.severity.rank < Severity.ERROR.rank for x in report.findings), [
        (x.cause, x.severity.value) for x in report.findings
    ]


#: A GPU-monitoring library's nvmlInit failing inside a training script's logger (pynvml's
#: _nvmlCheckReturn raising NVMLError_X for NVML_ERROR_X).
_NVML_IN_A_LOGGER = (
    "Traceback (most recent call last):\n"
    '  File "/srv/job/train.py", line 12, in <module>\n'
    "    logger = SystemMonitor()\n"
    '  File "/srv/job/.venv/lib/python3.11/site-packages/pynvml.py", line 1947, in nvmlInit\n'
    "    _nvmlCheckReturn(ret)\n"
    "pynvml.{error}\n"
)


@pytest.mark.parametrize(
    "error",
    [
        "NVMLError_DriverNotLoaded: Driver Not Loaded",
        "NVMLError_LibraryNotFound: NVML Shared Library Not Found",
    ],
)
@pytest.mark.parametrize("wanted", [False, True], ids=["cpu-job", "gpu-wanted"])
def test_nvml_finding_no_driver_in_a_job_that_wants_no_gpu_is_a_note(
    error: str, wanted: bool
) -> None:
    text = ("$ export CUDA_VISIBLE_DEVICES=0\n" if wanted else "") + _NVML_IN_A_LOGGER.format(
        error=error
    )
    report = explained(text)
    worst = max((x.severity.rank for x in report.findings), default=Severity.INFO.rank)
    assert (worst >= Severity.ERROR.rank) is wanted, [
        (x.cause, x.severity.value) for x in report.findings
    ]


def test_nvidia_smi_failing_where_uname_says_darwin_loads_no_kernel_module() -> None:
    # uname -s answers "Darwin" on macOS: no NVIDIA kernel module there to load.
    text = (
        "$ uname -s\nDarwin\n$ nvidia-smi\nNVIDIA-SMI has failed because it couldn't "
        "communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is "
        "installed and running.\n"
    )
    fixes = "\n".join(fix_text(x) for x in explained(text).findings if x.fix)
    assert "modprobe" not in fixes, fixes


def test_nvml_not_found_on_a_mac_loads_no_kernel_module() -> None:
    # pynvml on a Mac finds no libnvidia-ml: macOS has no NVIDIA driver to load.
    text = (
        '  File "/Users/me/miniforge3/lib/python3.11/site-packages/pynvml/nvml.py", line 1987, in _LoadNvmlLibrary\n'
        "    _nvmlCheckReturn(NVML_ERROR_LIBRARY_NOT_FOUND)\n"
        "pynvml.nvml.NVMLError_LibraryNotFound: NVML Shared Library Not Found"
    )
    report = explained(text)
    fixes = "\n".join(fix_text(x) for x in report.findings if x.fix)
    assert "modprobe" not in fixes
    assert "dmesg" not in fixes
    assert "tensorflow-metal" in fixes


def test_the_windows_side_commands_say_where_they_run() -> None:
    # The fix is read inside the container or WSL: a `wsl` command runs only in Windows.
    text = (
        _DESKTOP_RUN
        + _cuinit(_EXT, "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected")
        + "\n"
        + _HOSTNAME
    )
    fix = explained(text).findings[0].fix
    assert fix is not None
    wsl = [c for c in fix.commands if c.startswith("wsl ")]
    assert wsl
    assert all("# in Windows PowerShell" in c for c in wsl), wsl


def test_nvidia_smi_finding_no_gpu_gets_the_ranked_candidates_and_their_looks() -> None:
    # nvidia-smi's words where NVML starts and counts no device: the fix is check's (the
    # candidates ranked by the PCI binding, each with the command that tells it apart).
    report = explained("$ nvidia-smi\nNo devices were found\n")
    found = [x for x in report.findings if x.cause == "gpu-not-bound"]
    assert found and found[0].fix is not None
    assert "lspci -nnk -d 10de:" in found[0].fix.commands
    assert "vfio-pci" in fix_text(found[0]) and "Xid 79" in fix_text(found[0])


# --- the distribution the log names fits Secure Boot's key ------------------------------------

_KEY_REJECTED = "$ sudo modprobe nvidia\nmodprobe: ERROR: could not insert 'nvidia': Key was rejected by service\n"
_LSB_UBUNTU = (
    "$ lsb_release -a\nNo LSB modules are available.\nDistributor ID:\tUbuntu\n"
    "Description:\tUbuntu 22.04.4 LTS\nRelease:\t22.04\nCodename:\tjammy\n"
)
_OS_RELEASE_FEDORA = (
    '$ cat /etc/os-release\nNAME="Fedora Linux"\nVERSION="40 (Workstation Edition)"\n'
    'ID=fedora\nVERSION_ID=40\nPRETTY_NAME="Fedora Linux 40 (Workstation Edition)"\n'
)
_OS_RELEASE_POP = (
    'NAME="Pop!_OS"\nVERSION="22.04 LTS"\nID=pop\nID_LIKE="ubuntu debian"\n'
    'PRETTY_NAME="Pop!_OS 22.04 LTS"\n'
)
_FORM_UBUNTU = (
    "### OS platform and distribution\n\nLinux Ubuntu 22.04\n\n### Python version\n\n3.11\n\n"
)


@pytest.mark.parametrize(
    ("shown", "names", "not_names"),
    [
        pytest.param(
            _LSB_UBUNTU, "update-secureboot-policy --enroll-key", "kmodgenca", id="lsb_release"
        ),
        pytest.param(
            _OS_RELEASE_POP, "update-secureboot-policy --enroll-key", "kmodgenca", id="derivative"
        ),
        pytest.param(_FORM_UBUNTU, "update-secureboot-policy --enroll-key", "kmodgenca", id="form"),
        pytest.param(_OS_RELEASE_FEDORA, "kmodgenca", "update-secureboot-policy", id="fedora"),
        pytest.param("", "modinfo -F signer nvidia", "kmodgenca", id="none-named"),
    ],
)
def test_secure_boots_key_is_the_named_distributions(
    shown: str, names: str, not_names: str
) -> None:
    """The distribution the log names decides whose signing key the fix enrolls; where none
    is named, the builders' keys are listed, none taken as certain."""
    report = explained(shown + _KEY_REJECTED)
    (found,) = [x for x in report.findings if x.cause == "driver-not-loaded"]
    assert found.fix is not None
    commands = "\n".join(found.fix.commands)
    assert names in commands and not_names not in commands


#: TensorFlow 1.x's CHECK where libcuda lacks a driver API function (cuda_driver.cc's
#: LIBCUDA_WRAP), whole and as a paste cut after the function's name.
_LIBCUDA_FUNCTION = (
    "F tensorflow/stream_executor/cuda/cuda_driver.cc:94] Check failed: s.ok() could not find "
    "cuDevicePrimaryCtxSetFlags in libcuda DSO; dlerror: cuDevicePrimaryCtxSetFlags not found"
)
_LIBCUDA_FUNCTION_CUT = (
    "F c:\\tf_jenkins\\home\\workspace\\release-win\\device\\gpu\\os\\windows\\tensorflow\\"
    "stream_executor\\cuda\\cuda_driver.cc:94] Check failed: s.ok() could not find "
    "cuDevicePrimaryCtxGetState"
)


@pytest.mark.parametrize("line", [_LIBCUDA_FUNCTION, _LIBCUDA_FUNCTION_CUT], ids=["whole", "cut"])
def test_a_libcuda_without_a_function_of_the_build_is_a_driver_too_old(line: str) -> None:
    report = explained(line + "\n")
    top = report.findings[0]
    assert top.cause == "driver-too-old" and top.severity is Severity.ERROR
    # A GPU kept on a legacy driver branch cannot get a newer driver: the other candidate.
    other = [x for x in report.findings if x.cause == "gpu-arch-unsupported"]
    assert len(other) == 1 and other[0].severity is Severity.WARNING
    assert "legacy driver branch" in other[0].detail
    # Such a GPU never gets driver 510, whose nvidia-smi first answers compute_cap: its fix
    # reads the GPU's name against the legacy list, and offers no release built for it.
    fix = other[0].fix
    assert fix is not None and "cuda-legacy-gpus" in fix.text
    assert not any("compute_cap" in command for command in fix.commands)
    assert "TF_CUDA_COMPUTE_CAPABILITIES" not in fix.text


def test_a_gpu_shown_beside_a_libcuda_without_a_function_is_no_legacy_candidate() -> None:
    text = (
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1405] Found device 0 with "
        "properties: \nname: GeForce GTX 1080 major: 6 minor: 1 memoryClockRate(GHz): 1.7335\n"
        + _LIBCUDA_FUNCTION
        + "\n"
    )
    report = explained(text)
    assert any(x.cause == "driver-too-old" for x in report.findings)
    assert not any(x.cause == "gpu-arch-unsupported" for x in report.findings)


def test_other_words_about_a_missing_cu_name_are_not_libcuda() -> None:
    report = explained("ERROR: could not find cudnn.h in /usr/local/cuda/include\n")
    assert not any(x.cause == "driver-too-old" for x in report.findings)


#: A long run's output: lines that say nothing about the GPU.
_EPOCHS = "".join(f"Epoch 1/5 step {i}: loss 0.{i:04d}\n" for i in range(3000))


@pytest.mark.parametrize("between", ["", _EPOCHS], ids=["next-line", "after-a-long-run"])
def test_a_gpu_tensorflow_created_anywhere_shows_wsls_driver_answered(between: str) -> None:
    # TensorFlow created the GPU's device: the Windows driver gave WSL 2 its GPU, wherever in
    # the log the line is, so what failed beside it is not WSL's driver.
    wsl_no_device = (
        "Linux PC 5.10.16.3-microsoft-standard-WSL2 #1 SMP Fri Apr 2 22:23:49 UTC 2021 x86_64 "
        "GNU/Linux\n" + _cuinit(_EXT, "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected")
    )
    assert _top(explained(f"{wsl_no_device}\n{_EPOCHS}"))[0] == "wsl-driver-broken"
    assert _top(explained(f"{wsl_no_device}\n{between}{_CREATED}\n"))[0] != "wsl-driver-broken"
