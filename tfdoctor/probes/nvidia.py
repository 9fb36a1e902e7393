"""The NVIDIA driver and its GPUs: NVML in a child process, else ``nvidia-smi``.

``probe_driver`` is a fallback chain: :func:`read_nvml` runs ``child/nvml_info.py`` with the
doctor's own interpreter (NVML is loaded in that child, so a driver crash cannot take the
doctor down, and the ``LD_LIBRARY_PATH`` of ``env`` decides which ``libnvidia-ml.so.1``
loads); when that fails, :func:`read_nvidia_smi` asks ``nvidia-smi``. Each reader returns
facts or a :class:`ProbeError`; the pure ``parse_*`` functions turn recorded output into facts.
"""

from __future__ import annotations

import csv
import dataclasses
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

from tfdoctor.facts import DriverFacts, GpuFacts, ProbeError
from tfdoctor.probes._run import (
    ChildFailure,
    CommandResult,
    Runner,
    child_report,
    child_script,
    run_command,
)
from tfdoctor.version_codes import cuda_dotted

PROBE = "driver"

#: The reasons ``DriverFacts.error`` can carry.
REASONS = (
    "library-not-found",
    "driver-not-loaded",
    "no-permission",
    "version-mismatch",
    "no-gpu",
    "unknown",
)

# nvmlReturn_t codes that name a cause (nvml.h; NVML API reference, "Device Queries" /
# "Initialization and Cleanup"). nvidia-smi exits with the same numbers (nvidia-smi(1),
# "RETURN VALUE": 4 permission, 6 not found, 9 driver not loaded, 12 NVML not found).
NVML_CODE_REASONS = {
    4: "no-permission",
    6: "no-gpu",
    9: "driver-not-loaded",
    12: "library-not-found",
    18: "version-mismatch",
}

#: One line per reason; the NVML or nvidia-smi text follows in ``detail``.
REASON_MESSAGES = {
    "library-not-found": (
        "libnvidia-ml.so.1 was not found: no NVIDIA driver is installed, or its libraries are "
        "not on the loader path"
    ),
    "driver-not-loaded": (
        "The NVIDIA driver's libraries are installed but its kernel module is not loaded"
    ),
    "no-permission": "This user may not access the NVIDIA devices (insufficient permissions)",
    "version-mismatch": (
        "Driver/library version mismatch: the loaded NVIDIA kernel module and "
        "libnvidia-ml.so.1 are from different driver versions"
    ),
    "no-gpu": "The NVIDIA driver is loaded but reports no GPUs",
}

# When NVML and nvidia-smi disagree, the one that got further into the driver knows more:
# "library not found" is the earliest failure, "no GPU" the latest. Rank 2 is "the driver's
# library was reached, then something went wrong": it outranks an nvidia-smi "not found",
# which then says nothing about the library. Reasons not listed rank 0.
_DRIVER_RANK = {
    "library-not-found": 1,
    "driver-not-loaded": 3,
    "version-mismatch": 4,
    "no-permission": 5,
    "no-gpu": 6,
}
_NVML_RANK = {
    **_DRIVER_RANK,
    # pynvml missing says nothing about the driver.
    "pynvml-missing": 0,
    # An unnamed NVML return code, a hang or a crash inside NVML: the library had loaded.
    "unknown": 2,
    "timeout": 2,
    "crashed": 2,
    # A child that printed nothing usable may have got anywhere; it must not let a missing
    # nvidia-smi claim that no library exists.
    "child-error": 2,
}
_SMI_RANK = {
    **_DRIVER_RANK,
    # An unrecognised nvidia-smi message says nothing.
    "unknown": 0,
    # nvidia-smi started and then hung or crashed inside the driver.
    "timeout": 2,
    "crashed": 2,
}

#: ``nvidia-smi --query-gpu`` fields, in the order the parser expects by default.
SMI_FIELDS = (
    "index",
    "name",
    "uuid",
    "pci.bus_id",
    "compute_cap",
    "memory.total",
    "memory.used",
    "mig.mode.current",
    "driver_version",
)
# ``compute_cap`` arrived in the R510 nvidia-smi; older ones answer
# 'Field "compute_cap" is not a valid field to query.' and exit 2.
_OPTIONAL_SMI_FIELDS = ("compute_cap",)
_NOT_VALID_FIELD = re.compile(r'Field "([^"]+)" is not a valid field to query')
# Values nvidia-smi prints for a field the GPU or driver cannot report.
_SMI_MISSING = {"", "n/a", "[n/a]", "[not supported]", "not supported", "[unknown error]"}
_MIB = 1024 * 1024

# nvidia-smi's failure messages, most specific first.
_SMI_FAILURES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"Driver/library version mismatch", re.I), "version-mismatch"),
    (re.compile(r"couldn't communicate with the NVIDIA driver", re.I), "driver-not-loaded"),
    (re.compile(r"Driver Not Loaded", re.I), "driver-not-loaded"),
    (re.compile(r"Insufficient Permissions|permission denied", re.I), "no-permission"),
    (re.compile(r"No devices were found", re.I), "no-gpu"),
    (re.compile(r"couldn't find libnvidia-ml\.so", re.I), "library-not-found"),
    (re.compile(r"command not found|No such file or directory", re.I), "library-not-found"),
)

Outcome = Union[DriverFacts, ProbeError]


def probe_driver(
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    timeout: float = 10.0,
) -> DriverFacts:
    """The driver and GPUs via NVML, else via nvidia-smi; never raises.

    ``timeout`` bounds each command (the NVML child, then up to three nvidia-smi calls).
    """
    nvml = read_nvml(env, runner, timeout)
    if isinstance(nvml, DriverFacts):
        return nvml
    smi = read_nvidia_smi(env, runner, timeout)
    if isinstance(smi, DriverFacts):
        return dataclasses.replace(smi, nvml_error=nvml)
    return DriverFacts(source="none", nvml_error=nvml, error=combine_errors(nvml, smi))


# --- NVML ---------------------------------------------------------------------------------


def read_nvml(
    env: Optional[Mapping[str, str]], runner: Runner = run_command, timeout: float = 10.0
) -> Outcome:
    """Run the NVML child script with this interpreter and parse what it printed."""
    result = runner(nvml_argv(), env, timeout)
    return parse_nvml_result(result, timeout)


def nvml_argv() -> list[str]:
    """The NVML child's command: this interpreter, which has ``nvidia-ml-py``."""
    return [sys.executable, child_script("nvml_info.py")]


def parse_nvml_result(result: CommandResult, timeout: float) -> Outcome:
    """Facts, or the reason NVML failed, from a finished ``nvml_info.py`` child."""
    detail = result.stderr_tail()
    doc = child_report(result, "NVML", timeout)
    if isinstance(doc, ChildFailure):
        if result.start_error is not None:
            return _nvml_error(doc.status, doc.message)
        if doc.status == "child-error":  # no report: what it printed instead says why
            detail = detail or result.stdout[-2000:]
        return _nvml_error(doc.status, doc.message, detail)
    try:
        return parse_nvml_doc(doc)
    except (KeyError, TypeError, ValueError) as exc:
        return _nvml_error(
            "child-error", f"the NVML child printed an unexpected report: {exc!r}", result.stdout
        )


def parse_nvml_doc(doc: Mapping[str, Any]) -> Outcome:
    """Facts, or the reason NVML failed, from the JSON document ``nvml_info.py`` prints."""
    if not doc.get("ok"):
        return _nvml_failure(doc)
    gpus = tuple(_gpu_from_nvml(d) for d in doc.get("devices") or ())
    device_errors = [e for e in doc.get("device_errors") or () if isinstance(e, dict)]
    if not gpus and device_errors:
        # Every device failed (a container without access to them, a GPU fallen off the bus).
        return _nvml_failure(device_errors[0])
    error = None
    if not gpus:
        error = ProbeError(PROBE, "no-gpu", REASON_MESSAGES["no-gpu"], "nvmlDeviceGetCount: 0")
    # Some GPUs read, others not (one fallen off the bus), or some values not: the readable
    # ones are the facts, and ``nvml_error`` says what NVML could not read and why.
    call_errors = [e for e in doc.get("call_errors") or () if isinstance(e, dict)]
    call_lines = [_call_error_line(e) for e in call_errors]
    partial = None
    if device_errors:
        first = _nvml_failure(device_errors[0])
        partial = ProbeError(
            PROBE,
            first.reason,
            f"NVML could not read GPU {device_errors[0].get('index')}: "
            f"{device_errors[0].get('message')}",
            "\n".join([_nvml_failure(e).detail for e in device_errors] + call_lines),
        )
    elif call_errors:
        partial = ProbeError(
            PROBE,
            "partial",
            f"NVML could not read {_failed_calls(call_errors)}",
            "\n".join(call_lines),
        )
    return DriverFacts(
        source="nvml",
        driver_version=_opt_str(doc.get("driver_version")),
        cuda_version=cuda_version_from_int(doc.get("cuda_driver_version")),
        nvml_version=_opt_str(doc.get("nvml_version")),
        gpus=gpus,
        nvml_error=partial,
        error=error,
    )


def _call_error_line(error: Mapping[str, Any]) -> str:
    """``device 0: nvmlDeviceGetMemoryInfo: NVML_ERROR_NO_PERMISSION (4)``."""
    code = error.get("code")
    name = str(error.get("name") or "")
    text = f"{name} ({code})" if isinstance(code, int) else name
    return f"{error.get('where')}: {error.get('call')}: {text}"


def _failed_calls(errors: Sequence[Mapping[str, Any]]) -> str:
    """``nvmlDeviceGetMemoryInfo (device 0, device 1)``: each failed call once, in order."""
    wheres: dict[str, list[str]] = {}
    for error in errors:
        wheres.setdefault(str(error.get("call")), []).append(str(error.get("where")))
    return "; ".join(f"{call} ({', '.join(places)})" for call, places in wheres.items())


def cuda_version_from_int(value: object) -> Optional[str]:
    """NVML's CUDA driver version integer as text: 12040 -> ``"12.4"``, 11020 -> ``"11.2"``."""
    # NVML encodes it as CUDA_VERSION does: 1000 * major + 10 * minor (cuda.h).
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        return None
    return cuda_dotted(value)


def _nvml_failure(doc: Mapping[str, Any]) -> ProbeError:
    """A ProbeError from the child's failure document."""
    code = doc.get("code")
    name = str(doc.get("name") or "")
    text = str(doc.get("message") or name or "unknown NVML error")
    where = str(doc.get("stage") or "")
    detail = f"{where}: {name} ({code}): {text}" if isinstance(code, int) else text
    extra = doc.get("detail")
    if isinstance(extra, str) and extra:
        detail = f"{detail}\n{extra.strip()}"
    if name == "pynvml-import":
        return _nvml_error("pynvml-missing", text, detail)
    reason = NVML_CODE_REASONS.get(code) if isinstance(code, int) else None
    if reason is None:
        return _nvml_error("unknown", f"NVML failed in {where}: {text}", detail)
    return ProbeError(PROBE, reason, REASON_MESSAGES[reason], detail)


def _nvml_error(reason: str, message: str, detail: str = "") -> ProbeError:
    return ProbeError(PROBE, reason, message, detail)


def _gpu_from_nvml(doc: Mapping[str, Any]) -> GpuFacts:
    cc = doc.get("compute_capability")
    capability = None
    if isinstance(cc, list) and len(cc) == 2 and all(isinstance(v, int) for v in cc):
        capability = f"{cc[0]}.{cc[1]}"
    mig = doc.get("mig_mode")
    return GpuFacts(
        index=int(doc["index"]),
        name=str(doc["name"]),
        uuid=_opt_str(doc.get("uuid")),
        pci_bus_id=_opt_str(doc.get("pci_bus_id")),
        compute_capability=capability,
        memory_total=_opt_int(doc.get("memory_total")),
        memory_used=_opt_int(doc.get("memory_used")),
        mig_mode=mig if isinstance(mig, bool) else None,
        ecc_corrected=_opt_int(doc.get("ecc_corrected")),
        ecc_uncorrected=_opt_int(doc.get("ecc_uncorrected")),
    )


def _opt_str(value: object) -> Optional[str]:
    return value if isinstance(value, str) and value else None


def _opt_int(value: object) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# --- nvidia-smi ---------------------------------------------------------------------------


def read_nvidia_smi(
    env: Optional[Mapping[str, str]], runner: Runner = run_command, timeout: float = 10.0
) -> Outcome:
    """GPUs from ``nvidia-smi --query-gpu`` and the CUDA version from its plain header."""
    fields = list(SMI_FIELDS)
    while True:
        result = runner(_smi_query_argv(fields), env, timeout)
        if result.start_error is not None:
            return ProbeError(
                PROBE, "library-not-found", "nvidia-smi is not on PATH", result.start_error
            )
        if result.timed_out:
            return ProbeError(
                PROBE,
                "timeout",
                f"nvidia-smi did not answer within {timeout:g} s (the driver may be hung)",
                result.stderr_tail(),
            )
        if result.signal_name is not None:
            return ProbeError(
                PROBE,
                "crashed",
                f"nvidia-smi was killed by {result.signal_name}",
                result.stderr_tail(),
            )
        text = f"{result.stdout}\n{result.stderr}"
        invalid = _NOT_VALID_FIELD.search(text)
        if (
            result.returncode != 0
            and invalid
            and invalid.group(1) in _OPTIONAL_SMI_FIELDS
            and invalid.group(1) in fields
        ):
            fields.remove(invalid.group(1))
            continue
        break
    if result.returncode != 0:
        return parse_smi_failure(text, result.returncode)
    try:
        gpus, driver_version = parse_smi_query(result.stdout, fields)
    except ValueError as exc:
        return ProbeError(PROBE, "unknown", f"unreadable nvidia-smi output: {exc}", result.stdout)
    if not gpus:
        return ProbeError(PROBE, "no-gpu", REASON_MESSAGES["no-gpu"], result.stdout.strip())
    header = runner(["nvidia-smi"], env, timeout)
    cuda_version = None
    if header.returncode == 0 and not header.timed_out:
        cuda_version = parse_smi_cuda_version(header.stdout)
    return DriverFacts(
        source="nvidia-smi",
        driver_version=driver_version,
        cuda_version=cuda_version,
        gpus=gpus,
    )


def _smi_query_argv(fields: Sequence[str]) -> list[str]:
    return ["nvidia-smi", "--query-gpu=" + ",".join(fields), "--format=csv,noheader,nounits"]


def parse_smi_query(
    text: str, fields: Sequence[str] = SMI_FIELDS
) -> tuple[tuple[GpuFacts, ...], Optional[str]]:
    """GPUs and the driver version from ``--query-gpu=FIELDS --format=csv,noheader,nounits``.

    Raises ValueError on a line whose column count does not match ``fields``.
    """
    gpus = []
    driver_versions = []
    rows = csv.reader(line for line in text.splitlines() if line.strip())
    for row in rows:
        if len(row) != len(fields):
            raise ValueError(f"expected {len(fields)} columns, got {len(row)}: {row!r}")
        values = {f: _smi_value(v) for f, v in zip(fields, row)}
        index = values.get("index")
        name = values.get("name")
        if index is None or name is None:
            raise ValueError(f"a GPU without index or name: {row!r}")
        if values.get("driver_version"):
            driver_versions.append(values["driver_version"])
        gpus.append(
            GpuFacts(
                index=int(index),
                name=name,
                uuid=values.get("uuid"),
                pci_bus_id=values.get("pci.bus_id"),
                compute_capability=values.get("compute_cap"),
                memory_total=_mib_to_bytes(values.get("memory.total")),
                memory_used=_mib_to_bytes(values.get("memory.used")),
                mig_mode=_smi_mig(values.get("mig.mode.current")),
            )
        )
    driver_version = driver_versions[0] if driver_versions else None
    return tuple(gpus), driver_version


def parse_smi_cuda_version(text: str) -> Optional[str]:
    """The ``CUDA Version: 12.4`` of plain ``nvidia-smi`` output (None when ``N/A``)."""
    match = re.search(r"CUDA Version:\s*([0-9]+\.[0-9]+)", text)
    return match.group(1) if match else None


def parse_smi_failure(text: str, returncode: Optional[int] = None) -> ProbeError:
    """The reason behind a failed nvidia-smi, from its message or else its exit code."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    first = lines[0] if lines else f"nvidia-smi exited with {returncode}"
    detail = "\n".join(lines)
    for pattern, reason in _SMI_FAILURES:
        if pattern.search(text):
            return ProbeError(PROBE, reason, REASON_MESSAGES[reason], detail)
    by_code = NVML_CODE_REASONS.get(returncode) if returncode is not None else None
    if by_code is not None:
        return ProbeError(PROBE, by_code, REASON_MESSAGES[by_code], detail)
    return ProbeError(PROBE, "unknown", f"nvidia-smi failed: {first}", detail)


def _smi_value(raw: str) -> Optional[str]:
    value = raw.strip()
    return None if value.lower() in _SMI_MISSING else value


def _mib_to_bytes(value: Optional[str]) -> Optional[int]:
    # With ``nounits`` memory fields are MiB ("81920"; nvidia-smi --help-query-gpu).
    if value is None:
        return None
    try:
        return int(float(value) * _MIB)
    except ValueError:
        return None


def _smi_mig(value: Optional[str]) -> Optional[bool]:
    if value is None:
        return None
    lowered = value.lower()
    if lowered == "enabled":
        return True
    if lowered == "disabled":
        return False
    return None


# --- both failed --------------------------------------------------------------------------


def combine_errors(nvml: ProbeError, smi: ProbeError) -> ProbeError:
    """The one error to report when NVML and nvidia-smi both failed.

    The source that got further into the driver wins; NVML wins ties. The detail keeps both.
    """
    nvml_rank = _NVML_RANK.get(nvml.reason, 0)
    smi_rank = _SMI_RANK.get(smi.reason, 0)
    best = smi if smi_rank > nvml_rank else nvml
    reason = best.reason if best.reason in REASONS else "unknown"
    detail = f"NVML: {nvml.message}"
    if nvml.detail:
        detail += f"\n{nvml.detail}"
    detail += f"\nnvidia-smi: {smi.message}"
    if smi.detail:
        detail += f"\n{smi.detail}"
    return ProbeError(PROBE, reason, best.message, detail)
