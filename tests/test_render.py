"""Renderers: whole-output golden tests for text, markdown and JSON, and the report schema.

Set ``TFDOCTOR_UPDATE_GOLDEN=1`` to rewrite the golden files after an intended change, then
read the diff before committing it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import typing
from pathlib import Path
from typing import Any

import pytest

import tfdoctor.facts as facts_module
from tfdoctor.facts import (
    CpuFacts,
    CudaLibsFacts,
    DeviceFacts,
    DriverFacts,
    Facts,
    GpuFacts,
    LibraryCandidate,
    LibraryFacts,
    PackageFacts,
    PlatformFacts,
    ProbeError,
    PythonFacts,
    TensorFlowFacts,
    to_json,
)
from tfdoctor.findings import Finding, Fix, Report, Severity, facts_from_report_json
from tfdoctor.redact import Redactor
from tfdoctor.render.jsonout import render_json
from tfdoctor.render.markdown import render_markdown
from tfdoctor.render.text import area_of, group_by_area, render_text

GOLDEN = Path(__file__).parent / "data" / "golden"
SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "report.schema.json"
ANSI = re.compile(r"\x1b\[")
# A fixed machine for private redaction, so the markdown golden is the same everywhere.
FIXED_REDACTOR = Redactor(private=True, home="/home/alice", hostname="build-box-07")

GPU_UUID = "GPU-5f3c1a2b-7d4e-4f60-9a8b-0c1d2e3f4a5b"


def full_facts() -> Facts:
    """Every section filled: a GPU, a library with two candidates, TF log errors, a failed probe."""
    return Facts(
        tfdoctor_version="0.1.0",
        collected_at="2024-05-02T10:11:12Z",
        python=PythonFacts(
            version="3.11.9",
            implementation="CPython",
            executable="/home/alice/venvs/tf/bin/python",
            bits=64,
            env_kind="venv",
            prefix="/home/alice/venvs/tf",
            base_prefix="/usr",
            pip_version="24.0",
            site_packages=("/home/alice/venvs/tf/lib/python3.11/site-packages",),
        ),
        platform=PlatformFacts(
            system="Linux",
            release="5.15.0-105-generic",
            os_name="Ubuntu 22.04.4 LTS",
            machine="x86_64",
            libc="glibc",
            libc_version="2.35",
            wsl=None,
            container="docker",
            rosetta=False,
            nvidia_device_nodes=("/dev/nvidia-uvm", "/dev/nvidia0", "/dev/nvidiactl"),
        ),
        cpu=CpuFacts(
            model="AMD EPYC 7763 64-Core Processor",
            physical_cores=64,
            logical_cores=128,
            flags=("avx", "avx2", "fma"),
            flags_known=True,
            memory_total=540_000_000_000,
            memory_available=500_000_000_000,
            swap_total=0,
        ),
        packages=(
            PackageFacts(
                "tensorflow", "2.16.1", "/home/alice/venvs/tf/lib/python3.11/site-packages"
            ),
            PackageFacts(
                "nvidia-cudnn-cu12", "8.9.7.29", "/home/alice/venvs/tf/lib/python3.11/site-packages"
            ),
            PackageFacts("requests", "2.31.0", "/home/alice/venvs/tf/lib/python3.11/site-packages"),
            PackageFacts("numpy", "1.26.4", "/home/alice/venvs/tf/lib/python3.11/site-packages"),
            PackageFacts("tfdoctor", "0.1.0", "/home/alice/src/tfdoctor", editable=True),
        ),
        driver=DriverFacts(
            source="nvml",
            driver_version="550.54.15",
            cuda_version="12.4",
            nvml_version="12.550.54.15",
            gpus=(
                GpuFacts(
                    index=0,
                    name="NVIDIA A100-SXM4-80GB",
                    uuid=GPU_UUID,
                    pci_bus_id="00000000:07:00.0",
                    compute_capability="8.0",
                    memory_total=85_899_345_920,
                    memory_used=4_294_967_296,
                    mig_mode=False,
                    ecc_corrected=0,
                    ecc_uncorrected=0,
                ),
            ),
        ),
        cuda_libs=CudaLibsFacts(
            cuda_major=12,
            cudnn_major=8,
            libraries=(
                LibraryFacts(
                    name="cudart",
                    sonames=("libcudart.so.12",),
                    candidates=(
                        LibraryCandidate(
                            path="/home/alice/venvs/tf/lib/python3.11/site-packages/nvidia/cuda_runtime/lib/libcudart.so.12",
                            origin="pip",
                            version="12.3.101",
                            version_source="call",
                            loadable=True,
                        ),
                    ),
                    selected=0,
                ),
                LibraryFacts(
                    name="cudnn",
                    sonames=("libcudnn.so.8",),
                    candidates=(
                        LibraryCandidate(
                            path="/usr/local/cuda-11.8/lib64/libcudnn.so.8",
                            origin="LD_LIBRARY_PATH",
                            version="8.6.0",
                            version_source="call",
                            loadable=True,
                        ),
                        LibraryCandidate(
                            path="/home/alice/venvs/tf/lib/python3.11/site-packages/nvidia/cudnn/lib/libcudnn.so.8",
                            origin="pip",
                            version="8.9.7",
                            version_source="filename",
                            loadable=None,
                        ),
                    ),
                    selected=0,
                ),
                LibraryFacts(name="cublasLt", sonames=("libcublasLt.so.12",)),
            ),
            ptxas=None,
            libdevice="/home/alice/venvs/tf/lib/python3.11/site-packages/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc",
        ),
        tensorflow=TensorFlowFacts(
            status="ok",
            interpreter="/home/alice/venvs/tf/bin/python",
            version="2.16.1",
            git_version="v2.16.0-rc0-18-g5bc9d26649c",
            build_info={
                "cuda_version": "12.3",
                "cudnn_version": "8",
                "is_cuda_build": "True",
            },
            build_info_source="get_build_info",
            is_cuda_build=True,
            is_rocm_build=False,
            cuda_version="12.3",
            cudnn_version="8",
            compute_capabilities=("sm_50", "sm_60", "sm_70", "sm_80", "compute_90"),
            devices=(
                DeviceFacts(name="/physical_device:CPU:0", device_type="CPU"),
                DeviceFacts(
                    name="/physical_device:GPU:0",
                    device_type="GPU",
                    details={"compute_capability": "8.0", "device_name": "NVIDIA A100-SXM4-80GB"},
                ),
            ),
            log_errors=(
                "E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:535] Loaded runtime "
                "CuDNN library: 8.6.0 but source was compiled with: 8.9.4.",
            ),
            returncode=0,
            seconds=4.25,
            timeout=120.0,
            stderr_tail="2024-05-02 10:11:10.1 I tensorflow/core/util/port.cc:113] oneDNN on.\n"
            "E cuda_dnn.cc:535] Loaded runtime CuDNN library: 8.6.0",
        ),
        environment={
            "CUDA_VISIBLE_DEVICES": "0",
            "LD_LIBRARY_PATH": "/usr/local/cuda-11.8/lib64",
            "TF_CPP_MIN_LOG_LEVEL": "0",
        },
        errors=(
            ProbeError(
                probe="ldconfig",
                reason="timeout",
                message="ldconfig -p did not answer in 10 s",
                detail="killed after 10 s on build-box-07",
            ),
        ),
    )


def full_findings() -> tuple[Finding, ...]:
    """Findings of every severity, in several areas (two outside the fixed area order)."""
    return (
        Finding(
            "smoke.matmul", Severity.OK, "A 1024x1024 matmul ran on GPU:0", check="smoke_matmul"
        ),
        Finding("python.version", Severity.OK, "Python 3.11 is supported by TensorFlow 2.16"),
        Finding(
            "cuda.cudnn-version",
            Severity.ERROR,
            "cuDNN 8.6.0 is loaded but TensorFlow 2.16.1 was built with cuDNN 8.9",
            detail="LD_LIBRARY_PATH puts /usr/local/cuda-11.8/lib64 ahead of the cuDNN that pip "
            "installed, so TensorFlow loads the older library and cannot create convolution "
            "kernels. Loaders search LD_LIBRARY_PATH before the wheel's RPATH.",
            fix=Fix(
                "Drop the CUDA 11.8 directory from LD_LIBRARY_PATH so the pip cuDNN wins:",
                (
                    'export LD_LIBRARY_PATH="$(echo "$LD_LIBRARY_PATH" | tr : "\\n" '
                    '| grep -v cuda-11.8 | paste -sd:)"',
                    "python -c 'import tensorflow as tf; print(tf.config.list_physical_devices())'",
                ),
            ),
            links=("https://www.tensorflow.org/install/pip",),
            check="check_cudnn_version",
        ),
        Finding(
            "packages.numpy",
            Severity.WARNING,
            "numpy 1.26.4 is older than TensorFlow 2.16 prefers",
            fix=Fix("Upgrade numpy:", ("pip install 'numpy>=1.26,<2'",)),
        ),
        Finding("platform.container", Severity.INFO, "Running inside a docker container"),
        Finding(
            "cuda.ptxas",
            Severity.UNKNOWN,
            "Could not determine the ptxas version: ptxas was not found",
            detail="XLA compiles kernels with ptxas; without it some ops fall back to the driver.",
        ),
        Finding("gpu.count", Severity.OK, "1 GPU visible: NVIDIA A100-SXM4-80GB"),
        Finding("doctor.crashed", Severity.ERROR, "The check check_tensorrt crashed: KeyError"),
        Finding("tensorflow.import", Severity.OK, "TensorFlow 2.16.1 imports"),
    )


def full_report() -> Report:
    """The fixed report every golden file renders."""
    return Report(facts=full_facts(), findings=full_findings())


def failed_report() -> Report:
    """Every probe failed: all sections None, only some with a recorded reason."""
    facts = Facts(
        tfdoctor_version="0.1.0",
        collected_at="2024-05-02T10:11:12Z",
        errors=(
            ProbeError("python", "timeout", "python did not answer in 30 s"),
            ProbeError("driver", "library-not-found", "libnvidia-ml.so.1 is not installed"),
            ProbeError(
                "tensorflow",
                "signal",
                "the child was killed by SIGILL",
                detail="Illegal instruction (core dumped)\nline two",
            ),
        ),
    )
    findings = (
        Finding("python.version", Severity.UNKNOWN, "Could not determine the Python version"),
        Finding("driver.version", Severity.UNKNOWN, "Could not determine the driver version"),
    )
    return Report(facts=facts, findings=findings)


def check_golden(name: str, actual: str) -> None:
    """Compare ``actual`` with the golden file, or rewrite it under TFDOCTOR_UPDATE_GOLDEN=1."""
    path = GOLDEN / name
    if os.environ.get("TFDOCTOR_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    assert actual == expected


# --- golden files ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "render"),
    [
        pytest.param("full.txt", render_text, id="text-quiet"),
        pytest.param("full-verbose.txt", lambda r: render_text(r, verbose=True), id="text-verbose"),
        pytest.param(
            "full-color.ansi", lambda r: render_text(r, color=True, width=80), id="text-color"
        ),
        pytest.param(
            "full.md", lambda r: render_markdown(r, "0.1.0", redactor=FIXED_REDACTOR), id="markdown"
        ),
        pytest.param("full.json", lambda r: render_json(r, "0.1.0", False), id="json"),
    ],
)
def test_full_report_matches_golden(name: str, render: Any) -> None:
    check_golden(name, render(full_report()))


@pytest.mark.parametrize(
    ("name", "render"),
    [
        pytest.param("failed-verbose.txt", lambda r: render_text(r, verbose=True), id="text"),
        pytest.param(
            "failed.md", lambda r: render_markdown(r, "0.1.0", redactor=FIXED_REDACTOR), id="md"
        ),
    ],
)
def test_failed_report_matches_golden(name: str, render: Any) -> None:
    check_golden(name, render(failed_report()))


# --- behaviour the goldens only show --------------------------------------------------------


@pytest.mark.parametrize(
    "render",
    [
        pytest.param(lambda r: render_text(r, verbose=True), id="text"),
        pytest.param(lambda r: render_markdown(r, "0.1.0"), id="markdown"),
    ],
)
def test_failed_probes_say_could_not_determine(render: Any) -> None:
    out = render(failed_report())
    # Eight sections have no facts: every one says so, with the recorded reason where any.
    assert out.count("could not determine") == 8
    assert "could not determine (python: timeout: python did not answer in 30 s)" in out
    assert "could not determine (the probe recorded no reason)" in out


def test_quiet_text_names_failed_probes() -> None:
    out = render_text(failed_report())
    assert "Probes that could not determine their facts: driver, python, tensorflow" in out


def test_quiet_text_hides_facts_and_ok_findings_detail() -> None:
    out = render_text(full_report())
    assert "AMD EPYC" not in out
    # A healthy area's verdict line is its findings' summaries; notes show one line each.
    assert "[ ok ] python      Python 3.11 is supported by TensorFlow 2.16\n" in out
    assert "cuDNN 8.6.0 is loaded" in out
    note = Finding("driver.nvidia", Severity.INFO, "No NVIDIA GPU", "libnvidia-ml.so.1 missing")
    report = Report(facts=full_report().facts, findings=(note,))
    assert "libnvidia-ml.so.1 missing" not in render_text(report)
    assert "libnvidia-ml.so.1 missing" in render_text(report, verbose=True)


def test_areas_follow_the_fixed_order_then_alphabetical() -> None:
    areas = [area for area, _ in group_by_area(full_findings())]
    assert areas == [
        "python",
        "platform",
        "packages",
        "tensorflow",
        "gpu",
        "cuda",
        "doctor",
        "smoke",
    ]


@pytest.mark.parametrize(
    ("finding_id", "area"),
    [
        pytest.param("cuda.cudnn.version", "cuda", id="nested"),
        pytest.param("doctor", "doctor", id="no-dot"),
    ],
)
def test_area_is_the_id_prefix(finding_id: str, area: str) -> None:
    assert area_of(finding_id) == area


def test_fix_commands_are_printed_whole_and_unwrapped() -> None:
    out = render_text(full_report(), width=40)
    for finding in full_findings():
        for command in finding.fix.commands if finding.fix else ():
            assert any(line.strip() == command for line in out.splitlines()), command


def test_no_ansi_without_color() -> None:
    for verbose in (False, True):
        assert not ANSI.search(render_text(full_report(), verbose=verbose, color=False))


def test_color_output_has_ansi() -> None:
    assert ANSI.search(render_text(full_report(), color=True))


def test_text_is_plain_ascii_without_color() -> None:
    render_text(full_report(), verbose=True).encode("ascii")


def test_markup_in_facts_is_printed_literally() -> None:
    facts = dataclasses.replace(full_facts(), environment={"XLA_FLAGS": "[bold]--x=1[/bold]"})
    out = render_text(Report(facts=facts, findings=()), verbose=True)
    assert "XLA_FLAGS=[bold]--x=1[/bold]" in out


@pytest.mark.parametrize(
    ("severities", "strict", "phrase"),
    [
        pytest.param((), False, "exit code 0: no problems found", id="empty"),
        pytest.param(
            (Severity.OK, Severity.INFO), True, "exit code 0: no problems found", id="info-strict"
        ),
        pytest.param(
            (Severity.WARNING,),
            False,
            "exit code 0: no errors (warnings and unknowns fail only with --strict)",
            id="warning",
        ),
        pytest.param(
            (Severity.UNKNOWN,),
            True,
            "exit code 1: warnings or unknowns (--strict)",
            id="unknown-strict",
        ),
        pytest.param((Severity.ERROR,), False, "exit code 2: errors found", id="error"),
    ],
)
def test_summary_line_explains_exit_code(
    severities: tuple[Severity, ...], strict: bool, phrase: str
) -> None:
    findings = tuple(Finding(f"env.x{i}", sev, "s") for i, sev in enumerate(severities))
    out = render_text(Report(facts=full_facts(), findings=findings), strict=strict)
    assert out.splitlines()[-1].endswith(f"{phrase}.")


def test_markdown_fences_survive_backticks_in_commands() -> None:
    finding = Finding(
        "env.x", Severity.ERROR, "s", fix=Fix("run:", ("echo ```not a fence```", "echo `x`"))
    )
    out = render_markdown(Report(facts=full_facts(), findings=(finding,)), "0.1.0")
    assert "````sh\n  echo ```not a fence```\n  echo `x`\n  ````" in out
    assert_fences_balanced(out)


def test_markdown_table_cells_escape_pipes_and_html() -> None:
    finding = Finding("env.x", Severity.WARNING, "a | b <details> c\nd")
    out = render_markdown(Report(facts=full_facts(), findings=(finding,)), "0.1.0")
    assert "| warning | `env.x` | a \\| b &lt;details> c d |" in out


def assert_fences_balanced(markdown: str) -> None:
    """Every opening fence is closed by a fence of the same length."""
    open_fence = ""
    for line in markdown.splitlines():
        match = re.match(r"\s*(`{3,})", line)
        if not match:
            continue
        if not open_fence:
            open_fence = match.group(1)
        elif line.strip() == open_fence:
            open_fence = ""
    assert not open_fence


def test_markdown_fences_balanced_in_goldens() -> None:
    assert_fences_balanced(render_markdown(full_report(), "0.1.0"))
    assert_fences_balanced(render_markdown(failed_report(), "0.1.0"))


# --- JSON and the schema --------------------------------------------------------------------


@pytest.mark.parametrize(
    "report", [pytest.param(full_report(), id="full"), pytest.param(failed_report(), id="failed")]
)
def test_json_round_trips_to_the_same_facts(report: Report) -> None:
    data = json.loads(render_json(report, "0.1.0", False))
    assert facts_from_report_json(data) == report.facts


def test_json_is_deterministic_and_sorted() -> None:
    out = render_json(full_report(), "0.1.0", True)
    assert out == render_json(full_report(), "0.1.0", True)
    assert json.loads(out)["summary"] == {
        "counts": {"error": 2, "info": 1, "ok": 4, "unknown": 1, "warning": 1},
        "exit_code": 2,
        "worst": "error",
    }
    assert list(json.loads(out)) == sorted(json.loads(out))


@pytest.mark.parametrize(
    "report", [pytest.param(full_report(), id="full"), pytest.param(failed_report(), id="failed")]
)
def test_json_validates_against_schema(report: Report) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(json.loads(render_json(report, "0.1.0")))


def test_schema_rejects_unknown_fact_fields() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    data = json.loads(render_json(full_report(), "0.1.0"))
    data["facts"]["driver"]["gpus"][0]["temperature"] = 40
    with pytest.raises(jsonschema.ValidationError, match="temperature"):
        jsonschema.Draft202012Validator(schema).validate(data)


def _dataclasses() -> dict[str, type]:
    found: dict[str, type] = {}

    def walk(cls: type) -> None:
        found[cls.__name__] = cls
        hints = typing.get_type_hints(cls, vars(facts_module))
        for hint in hints.values():
            for arg in (hint, *typing.get_args(hint), *_nested_args(hint)):
                if dataclasses.is_dataclass(arg) and arg.__name__ not in found:
                    walk(arg)  # type: ignore[arg-type]

    walk(Facts)
    return found


def _nested_args(hint: Any) -> list[Any]:
    return [a for arg in typing.get_args(hint) for a in typing.get_args(arg)]


def _json_types(hint: Any) -> set[str]:
    """The JSON types a field's value can take, as the schema spells them."""
    if typing.get_origin(hint) is typing.Union:
        return set().union(*(_json_types(a) for a in typing.get_args(hint)))
    origin = typing.get_origin(hint)
    if origin is tuple:
        return {"array"}
    if origin is dict or dataclasses.is_dataclass(hint):
        return {"object"}
    names = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}
    return {names[hint]}


def _schema_types(prop: dict[str, Any], defs: dict[str, Any]) -> set[str]:
    if "anyOf" in prop:
        return set().union(*(_schema_types(p, defs) for p in prop["anyOf"]))
    if "$ref" in prop:
        return {defs[prop["$ref"].rsplit("/", 1)[1]]["type"]}
    if "const" in prop:
        return {"integer"}
    kind = prop["type"]
    return set(kind) if isinstance(kind, list) else {kind}


@pytest.mark.parametrize("name", sorted(_dataclasses()))
def test_schema_mirrors_the_facts_dataclass(name: str) -> None:
    cls = _dataclasses()[name]
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    defs = schema["$defs"]
    entry = defs[name]
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    hints = typing.get_type_hints(cls, vars(facts_module))
    assert entry["additionalProperties"] is False
    assert list(entry["properties"]) == [f.name for f in fields]
    required = [
        f.name
        for f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    if name == "Facts":
        required.append("schema_version")  # facts_from_json refuses a document without it
    assert entry["required"] == required
    for field in fields:
        assert _schema_types(entry["properties"][field.name], defs) == _json_types(
            hints[field.name]
        ), field.name


def test_rendered_json_carries_every_fact_field() -> None:
    data = json.loads(render_json(full_report(), "0.1.0"))
    assert data["facts"] == to_json(full_facts())


@pytest.mark.parametrize(
    "render",
    [
        pytest.param(render_text, id="text"),
        pytest.param(lambda r: render_markdown(r, "0.1.0"), id="markdown"),
        pytest.param(lambda r: render_json(r, "0.1.0"), id="json"),
    ],
)
def test_output_ends_in_exactly_one_newline(render: Any) -> None:
    out = render(full_report())
    assert out.endswith("\n")
    assert not out.endswith("\n\n")
