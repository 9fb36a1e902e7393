"""TensorFlow as the examined interpreter imports it, observed from a child process.

``import tensorflow`` can raise, hang, or kill the process (SIGILL on a CPU without AVX,
SIGSEGV from a mismatched library), so it never happens in the doctor's own process: the
stdlib-only ``child/tf_info.py`` runs in the examined interpreter and prints JSON after a
marker line. This module turns that run (or its absence) into :class:`TensorFlowFacts`.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

from tfdoctor.evidence.tflog import error_lines
from tfdoctor.facts import DeviceFacts, TensorFlowFacts, TFStatus
from tfdoctor.probes._run import CommandResult, Runner, child_script, run_command
from tfdoctor.probes.build_info import build_flag, read_build_info, versions_from_build_info

CHILD = "tf_info.py"

#: How much of the child's stderr the facts keep: its start (where the import failed: the
#: first traceback, the first dso_loader lines) and its end (the final error).
STDERR_HEAD_LINES = 200
STDERR_TAIL_LINES = 400
STDERR_MAX_CHARS = 64 * 1024


def _cut_marker(lines: int, chars: int) -> str:
    return f"[... tfdoctor left out {lines} lines ({chars} characters) of stderr here ...]"


def bounded_stderr(
    text: str,
    head_lines: int = STDERR_HEAD_LINES,
    tail_lines: int = STDERR_TAIL_LINES,
    max_chars: int = STDERR_MAX_CHARS,
) -> str:
    """The child's stderr kept whole where small, else its first and last lines.

    At most ``head_lines`` + ``tail_lines`` lines and about ``max_chars`` characters (a third
    for the head, the rest for the tail), with one marker line where lines were left out.
    """
    lines = text.strip().splitlines()
    if len(lines) <= head_lines + tail_lines and len(text) <= max_chars:
        return text.strip()
    # One line longer than a quarter of the budget (a dumped tensor, a minified blob) keeps
    # its two ends, so it cannot crowd out every other line.
    cap = max(max_chars // 4, 80)
    lines = [_shorten(line, cap) for line in lines]
    head = _take(lines[:head_lines], max_chars // 3, from_end=False)
    rest = lines[len(head) :]
    tail = _take(rest[-tail_lines:] if tail_lines else [], max_chars - max_chars // 3, True)
    left_out = rest[: len(rest) - len(tail)]
    if not left_out:
        return "\n".join(head + tail)
    marker = _cut_marker(len(left_out), sum(len(line) + 1 for line in left_out))
    return "\n".join([*head, marker, *tail])


def _shorten(line: str, cap: int) -> str:
    if len(line) <= cap:
        return line
    keep = cap // 2
    return f"{line[:keep]} [... {len(line) - 2 * keep} characters left out ...] {line[-keep:]}"


def _take(lines: list[str], budget: int, from_end: bool) -> list[str]:
    """Whole lines from the start (or the end) of ``lines`` within ``budget`` characters."""
    taken: list[str] = []
    used = 0
    for line in reversed(lines) if from_end else lines:
        if used + len(line) + 1 > budget:
            break
        taken.append(line)
        used += len(line) + 1
    return taken[::-1] if from_end else taken


def parse_child_output(stdout: str, marker: str) -> list[dict[str, Any]]:
    """The JSON documents printed after each ``marker`` line, in order; garbage is skipped."""
    docs: list[dict[str, Any]] = []
    lines = stdout.splitlines()
    for index, line in enumerate(lines[:-1]):
        if line.strip() != marker:
            continue
        try:
            doc = json.loads(lines[index + 1])
        except ValueError:
            continue
        if isinstance(doc, dict):
            docs.append(doc)
    return docs


def normalize_build_info(raw: Mapping[str, object]) -> tuple[dict[str, str], tuple[str, ...]]:
    """Build info as ``str`` values, and the compute capabilities split out as a tuple."""
    info: dict[str, str] = {}
    capabilities: tuple[str, ...] = ()
    for key, value in raw.items():
        if key == "cuda_compute_capabilities":
            if isinstance(value, (list, tuple)):
                capabilities = tuple(str(v) for v in value)
            elif isinstance(value, str):  # some builds wrote "sm_35,sm_50"
                capabilities = tuple(v.strip() for v in value.split(",") if v.strip())
            continue
        if isinstance(value, (list, tuple)):
            info[str(key)] = ",".join(str(v) for v in value)
        else:
            info[str(key)] = str(value)
    return info, capabilities


def _text(value: object) -> Optional[str]:
    return None if value is None else str(value)


def _devices(raw: object) -> tuple[DeviceFacts, ...]:
    if not isinstance(raw, list):
        return ()
    out = []
    for item in raw:
        if not isinstance(item, dict):
            continue
        details = item.get("details")
        out.append(
            DeviceFacts(
                name=str(item.get("name", "")),
                device_type=str(item.get("device_type", "")),
                details=(
                    {str(k): str(v) for k, v in details.items()}
                    if isinstance(details, dict)
                    else {}
                ),
            )
        )
    return tuple(out)


def _file_build_info(pre: Optional[Mapping[str, Any]]) -> Optional[dict[str, object]]:
    """``build_info.py`` of the TensorFlow the child was about to import, read as a file."""
    if pre is None:
        return None
    site_dirs: list[str] = []
    location = pre.get("location")
    if isinstance(location, dict):
        # The directories find_spec chose; their parents are the site directories, from
        # which the build_info locator picks the same package again.
        site_dirs = [str(Path(p).parent) for p in location.get("locations") or ()]
    if not site_dirs:
        site_dirs = [str(p) for p in pre.get("site_dirs") or ()]
    return read_build_info(site_dirs) if site_dirs else None


def facts_from_result(
    result: CommandResult, marker: str, interpreter: str, timeout: float
) -> TensorFlowFacts:
    """Classify one run of the child into facts; the pure half of :func:`probe_tensorflow`."""
    docs = parse_child_output(result.stdout, marker)
    pre = next((d for d in docs if d.get("phase") == "pre-import"), None)
    done = next((d for d in reversed(docs) if d.get("phase") == "done"), None)
    signal = result.signal_name
    common: dict[str, Any] = {
        "interpreter": interpreter,
        # Read by the shared reader of TensorFlow's log lines, from the whole stderr (the
        # bounded tail below may leave the middle out).
        "log_errors": error_lines(result.stderr),
        "returncode": result.returncode,
        "seconds": round(result.seconds, 3),
        "stderr_tail": bounded_stderr(result.stderr),
    }

    if result.start_error is not None:
        return TensorFlowFacts(
            status=TFStatus.CHILD_ERROR,
            error_type="OSError",
            error_message=f"could not start {interpreter}: {result.start_error}",
            **common,
        )

    if result.timed_out:
        status = TFStatus.TIMEOUT
        common["timeout"] = float(timeout)
        common["error_message"] = f"no answer within {timeout:g} s; the child was killed"
    elif signal is not None:
        status = TFStatus.SIGNAL
        common["signal"] = signal
    elif done is not None and done.get("status") in (
        TFStatus.OK,
        TFStatus.NOT_INSTALLED,
        TFStatus.IMPORT_ERROR,
    ):
        status = str(done["status"])
    else:
        status = TFStatus.CHILD_ERROR
        common["error_message"] = f"the child printed no result (exit status {result.returncode})"

    if done is not None and status in (TFStatus.OK, TFStatus.IMPORT_ERROR):
        common["error_type"] = _text(done.get("error_type"))
        common["error_message"] = _text(done.get("error_message"))

    build_raw: Optional[Mapping[str, object]] = None
    source: Optional[str] = None
    if status == TFStatus.OK and done is not None:
        common["version"] = _text(done.get("version"))
        common["git_version"] = _text(done.get("git_version"))
        common["devices"] = _devices(done.get("devices"))
        imported = done.get("build_info")
        if isinstance(imported, dict):
            build_raw, source = imported, "import"
    if build_raw is None and status != TFStatus.NOT_INSTALLED:
        # Fallback: the file itself, readable whether the import failed, crashed or hung.
        from_file = _file_build_info(pre)
        if from_file is not None:
            build_raw, source = from_file, "file"

    if build_raw is not None:
        info, capabilities = normalize_build_info(build_raw)
        common["build_info"] = info
        common["build_info_source"] = source
        common["compute_capabilities"] = capabilities
        versions = versions_from_build_info(build_raw)
        common["is_cuda_build"] = versions.is_cuda_build
        common["is_rocm_build"] = versions.is_rocm_build
        common["cuda_version"] = versions.cuda_version
        common["cudnn_version"] = versions.cudnn_version
    if status == TFStatus.OK and done is not None:
        # tf.test.is_built_with_* answer even where the build info lacks the flags.
        for key in ("is_cuda_build", "is_rocm_build"):
            if common.get(key) is None:
                common[key] = build_flag(done.get(key))

    return TensorFlowFacts(status=status, **common)


def child_env(env: Optional[Mapping[str, str]]) -> dict[str, str]:
    """The child's environment: ``env`` (or ours) with TensorFlow's C++ logging fully on.

    TF_CPP_MIN_LOG_LEVEL=0 makes TF log the library-loading failures even where the user
    silenced them (read by tsl/platform/default/logging.cc; at 3, TF 2.21 still prints the
    cudart_stub line but drops "failed call to cuInit").
    """
    out = dict(os.environ if env is None else env)
    out["TF_CPP_MIN_LOG_LEVEL"] = "0"
    return out


def probe_tensorflow(
    python: str,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    timeout: float = 30.0,
) -> TensorFlowFacts:
    """Import TensorFlow in ``python`` (a child process) and report what happened; never raises."""
    # A fresh marker per run: nothing TF or user code prints can forge it.
    marker = f"=== tfdoctor tf_info {secrets.token_hex(8)} ==="
    argv: Sequence[str] = (python, child_script(CHILD), marker)
    try:
        result = runner(argv, child_env(env), timeout)
        return facts_from_result(result, marker, python, timeout)
    except Exception as exc:  # a probe never raises; the checks report this instead
        return TensorFlowFacts(
            status=TFStatus.CHILD_ERROR,
            interpreter=python,
            error_type=type(exc).__name__,
            error_message=str(exc),
        )
