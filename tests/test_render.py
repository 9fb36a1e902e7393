"""Renderers: whole-output golden tests for text, markdown and JSON, and the report schema.

Set ``TFDOCTOR_UPDATE_GOLDEN=1`` to rewrite the golden files after an intended change, then
read the diff before committing it.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
import subprocess
import sys
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import tfdoctor.facts as facts_module
from tests import factories as f
from tests.golden import check_golden
from tfdoctor.facts import (
    SCHEMA_VERSION,
    CondaFacts,
    CondaPackage,
    CuInitFacts,
    DeviceNode,
    Facts,
    FoundLibrary,
    LibraryCandidate,
    NvidiaKernelFacts,
    PciDevice,
    ProbeError,
    to_json,
)
from tfdoctor.findings import (
    REPORT_SCHEMA_VERSION,
    UNEXPLAINED_EXCEPTION,
    BandwidthPoint,
    CollectiveImplementation,
    Finding,
    Fix,
    LinkPoint,
    Location,
    Report,
    Severity,
    Summary,
    facts_from_report_json,
)
from tfdoctor.redact import Redactor
from tfdoctor.render._common import area_of, facts_sections, group_by_area
from tfdoctor.render.jsonout import render_json
from tfdoctor.render.markdown import render_markdown
from tfdoctor.render.text import render_text

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "data" / "golden"
SCHEMA = ROOT / "docs" / "report.schema.json"
ANSI = re.compile(r"\x1b\[")
# A fixed machine for private redaction, so the markdown golden is the same everywhere.
FIXED_REDACTOR = Redactor(private=True, home="/home/alice", hostname="build-box-07")

GPU_UUID = "GPU-5f3c1a2b-7d4e-4f60-9a8b-0c1d2e3f4a5b"


def full_facts() -> Facts:
    """The factories' healthy GPU machine, changed so every kind of fact line shows: a docker
    container, an editable checkout in a home directory, a library with two candidates and
    one with none, TensorFlow's log errors and stderr, and a failed probe."""
    cudnn = f.lib(
        "cudnn",
        "libcudnn.so.8",
        LibraryCandidate(
            "/usr/local/cuda-11.8/lib64/libcudnn.so.8", "LD_LIBRARY_PATH", "8.6.0", "call", True
        ),
        dataclasses.replace(
            f.pip_cand("cudnn/lib/libcudnn.so.8", "8.9.4"),
            version_source="filename",
            loadable=None,
        ),
    )
    tfdoctor_checkout = dataclasses.replace(
        f.pkg("tfdoctor", "0.1.0"), location="/home/alice/src/tfdoctor", editable=True
    )
    return f.facts(
        collected_at="2024-05-02T10:11:12Z",
        platform=f.platform(container="docker"),
        packages=f.packages(
            f.pkg("nvidia-cudnn-cu12", "8.9.4.25"), f.pkg("requests", "2.31.0"), tfdoctor_checkout
        ),
        driver=f.driver(gpus=(dataclasses.replace(f.driver().gpus[0], uuid=GPU_UUID),)),
        cuda_libs=dataclasses.replace(
            f.cuda_libs(f.cuda_libs().libraries[0], cudnn, f.lib("cublasLt", "libcublasLt.so.12")),
            libdevice=f"{f.SITE}/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc",
        ),
        tensorflow=f.tensorflow(
            log_errors=(
                "E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:535] Loaded runtime "
                "CuDNN library: 8.6.0 but source was compiled with: 8.9.4.",
            ),
            returncode=0,
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
        Finding("python.version", Severity.OK, "Python 3.11 is supported by TensorFlow 2.15"),
        Finding(
            "cuda.libraries",
            Severity.ERROR,
            "cuDNN 8.6.0 is loaded but TensorFlow 2.15.1 was built with cuDNN 8.9",
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
            check="check_cuda_libraries",
        ),
        Finding(
            "packages.numpy",
            Severity.WARNING,
            "numpy 1.26.4 is older than TensorFlow 2.15 prefers",
            fix=Fix("Upgrade numpy:", ("pip install 'numpy>=1.26,<2'",)),
        ),
        Finding("platform.container", Severity.INFO, "Running inside a docker container"),
        Finding(
            "cuda.ptxas",
            Severity.UNKNOWN,
            "Could not determine the ptxas version: ptxas was not found",
            detail="XLA compiles kernels with ptxas; without it some ops fall back to the driver.",
        ),
        Finding("gpu.visible", Severity.OK, "1 GPU visible: NVIDIA A100-SXM4-80GB"),
        Finding("doctor.crashed", Severity.ERROR, "The check check_tensorrt crashed: KeyError"),
        Finding("tensorflow.import", Severity.OK, "TensorFlow 2.15.1 imports"),
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


def sections_report() -> Report:
    """The full report with every section added in facts schema 2 filled in, and a cause."""
    facts = full_facts()
    assert facts.python is not None and facts.platform is not None
    assert facts.cuda_libs is not None
    facts = dataclasses.replace(
        facts,
        python=dataclasses.replace(
            facts.python,
            externally_managed=True,
            tensorflow_origin="/home/alice/src/tensorflow",
            tensorflow_path_entry="/home/alice/src",
            tensorflow_path_kind="working-directory",
        ),
        platform=dataclasses.replace(facts.platform, emulation="qemu", host_machine="aarch64"),
        cuda_libs=dataclasses.replace(
            facts.cuda_libs,
            elsewhere=(
                FoundLibrary(
                    "cudnn", "/opt/cudnn/lib/libcudnn.so.8", "8.9.7", "module", "cudnn/8.9"
                ),
            ),
            runpath=(f"{f.SITE}/tensorflow/../nvidia/cudnn/lib",),
            runpath_object=f"{f.SITE}/tensorflow/libtensorflow_framework.so.2",
        ),
        nvidia_kernel=NvidiaKernelFacts(
            pci_devices=(PciDevice("0000:07:00.0", "0x20b2", "0x030200", "nvidia"),),
            pci_source="sysfs",
            kernel_module_version="NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15",
            modules=("nvidia", "nvidia_uvm"),
            device_nodes=(DeviceNode("/dev/nvidia0", True), DeviceNode("/dev/nvidiactl", False)),
            secure_boot=False,
            dkms=("nvidia/550.54.15, 6.5.0-35-generic, x86_64: installed",),
        ),
        cuinit=CuInitFacts(
            "error", 999, "CUDA_ERROR_UNKNOWN", "libcuda.so.1", "12.4", None, "unknown error"
        ),
        conda=CondaFacts(
            "/opt/conda/envs/tf",
            (CondaPackage("cudatoolkit", "11.8.0", "h6a678d5_0", "conda-forge"),),
        ),
    )
    finding = Finding(
        "driver.cuda",
        Severity.ERROR,
        "cuInit fails",
        check="driver.cuda",
        cause="cuinit-unknown-error",
    )
    return Report(facts=facts, findings=(*full_findings(), finding))


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
    check_golden(GOLDEN / name, render(full_report()))


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
    check_golden(GOLDEN / name, render(failed_report()))


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
    # Python and packages share the python probe's reason; platform, CPU, the CUDA libraries
    # and the environment have none recorded in this report.
    assert out.count("could not determine (") == 8
    assert out.count("could not determine (python: timeout: python did not answer in 30 s)") == 2
    assert out.count("could not determine (the probe recorded no reason)") == 4


def test_each_missing_section_shows_its_own_probes_reason() -> None:
    sections = {s.title: s.lines for s in facts_sections(failed_report().facts, brief=True)}
    python_reason = ("  could not determine (python: timeout: python did not answer in 30 s)",)
    assert sections["Python"] == python_reason
    assert sections["Packages"] == python_reason
    assert sections["TensorFlow"] == (
        "  could not determine (tensorflow: signal: the child was killed by SIGILL)",
    )
    assert sections["NVIDIA driver and GPUs"] == (
        "  could not determine (driver: library-not-found: libnvidia-ml.so.1 is not installed)",
    )


@pytest.mark.parametrize(
    "probe",
    [
        pytest.param("platform", id="platform"),
        pytest.param("cpu", id="cpu"),
        pytest.param("cuda_libs", id="cuda-libs"),
    ],
)
def test_sections_find_the_reason_under_the_name_the_probe_records(probe: str) -> None:
    error = ProbeError(probe, "crashed", "OSError: boom")
    facts = Facts(tfdoctor_version="0.1.0", collected_at="2024-05-02T10:11:12Z", errors=(error,))
    lines = [line for s in facts_sections(facts, brief=False) for line in s.lines]
    assert f"  could not determine ({probe}: crashed: OSError: boom)" in lines


def test_quiet_text_names_failed_probes() -> None:
    out = render_text(failed_report())
    assert "Probes that could not determine their facts: driver, python, tensorflow" in out


def test_quiet_text_hides_facts_and_ok_findings_detail() -> None:
    out = render_text(full_report())
    assert "AMD EPYC" not in out
    # A healthy area's verdict line is its findings' summaries; notes show one line each.
    assert "[ ok ] python      Python 3.11 is supported by TensorFlow 2.15\n" in out
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


def test_plain_text_marks_are_ascii() -> None:
    out = render_text(full_report())
    assert "[FAIL]" in out
    assert "[ ok ]" in out
    assert "\u2714" not in out
    assert "\u2718" not in out


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


def test_summary_line_names_an_unexplained_exception() -> None:
    # An exception raised outside TensorFlow is a note; the log is not clean all the same.
    unexplained = Finding(
        UNEXPLAINED_EXCEPTION,
        Severity.INFO,
        "The log ends in an exception tfdoctor has no cause for: RuntimeError, raised in torch",
    )
    out = render_text(Report(facts=full_facts(), findings=(unexplained,)))
    last = out.splitlines()[-1]
    assert "no problems found" not in last
    assert last.endswith(
        "exit code 0: no TensorFlow problem found, but the log ends in an exception tfdoctor "
        "has no cause for: RuntimeError, raised in torch."
    )


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
    "report",
    [
        pytest.param(full_report(), id="full"),
        pytest.param(failed_report(), id="failed"),
        pytest.param(sections_report(), id="schema-2-sections"),
    ],
)
def test_json_round_trips_to_the_same_facts(report: Report) -> None:
    data = json.loads(render_json(report, "0.1.0", False))
    assert facts_from_report_json(data) == report.facts


@pytest.mark.parametrize(
    "report",
    [
        pytest.param(full_report(), id="full"),
        pytest.param(failed_report(), id="failed"),
        pytest.param(sections_report(), id="schema-2-sections"),
    ],
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


def _generator() -> Any:
    """scripts/gen_report_schema.py as a module (scripts/ is not a package)."""
    path = ROOT / "scripts" / "gen_report_schema.py"
    spec = importlib.util.spec_from_file_location("gen_report_schema", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_schema_is_generated_from_the_dataclasses() -> None:
    """docs/report.schema.json is exactly what the generator writes (regenerate when stale)."""
    assert SCHEMA.read_text(encoding="utf-8") == _generator().render_schema(), (
        "docs/report.schema.json is stale: python scripts/gen_report_schema.py"
    )


def test_causes_in_findings_doc_are_generated_from_the_catalogue() -> None:
    doc = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    assert doc == _generator().render_findings_doc(doc), (
        "docs/findings.md is stale: python scripts/gen_report_schema.py"
    )


def test_causes_block_is_replaced_in_place_or_appended() -> None:
    gen = _generator()
    block = gen.render_causes()
    stale = f"intro\n{gen.CAUSES_BEGIN}\n| `old-cause` | Old |\n{gen.CAUSES_END}\nafter\n"
    assert gen.render_findings_doc(stale) == f"intro\n{block}\nafter\n"
    assert gen.render_findings_doc("intro\n") == f"intro\n\n{block}\n"


def _dataclasses() -> dict[str, type]:
    """Every dataclass the facts reach, by name, found by walking the type hints."""
    found: dict[str, type] = {}

    def walk(cls: type) -> None:
        found[cls.__name__] = cls
        for hint in typing.get_type_hints(cls, vars(facts_module)).values():
            nested = [a for arg in typing.get_args(hint) for a in typing.get_args(arg)]
            for arg in (hint, *typing.get_args(hint), *nested):
                is_class = isinstance(arg, type) and dataclasses.is_dataclass(arg)
                if is_class and arg.__name__ not in found:
                    walk(arg)

    walk(Facts)
    return found


def schema_faults(defs: Mapping[str, Any], shapes: Mapping[str, type]) -> list[str]:
    """Where the schema's definitions and the dataclasses part: a class or a definition
    missing, fields missing or out of order, a definition that admits unknown fields."""
    faults = [f"{name}: no definition" for name in sorted(set(shapes) - set(defs))]
    faults += [f"{name}: no class" for name in sorted(set(defs) - {*shapes, "Severity"})]
    for name, cls in shapes.items():
        if name not in defs:
            continue
        if list(defs[name]["properties"]) != [x.name for x in dataclasses.fields(cls)]:
            faults.append(f"{name}: fields")
        if defs[name].get("additionalProperties") is not False:
            faults.append(f"{name}: admits unknown fields")
    return faults


SHAPES: dict[str, type] = {
    **_dataclasses(),
    # The cluster commands' ``collective`` object.
    "BandwidthPoint": BandwidthPoint,
    "CollectiveImplementation": CollectiveImplementation,
    "LinkPoint": LinkPoint,
    "Finding": Finding,
    "Fix": Fix,
    "Location": Location,
    "Summary": Summary,
}


def test_schema_defines_every_dataclass_with_its_fields() -> None:
    """An independent walk: the generator left out no dataclass and no field."""
    defs = json.loads(SCHEMA.read_text(encoding="utf-8"))["$defs"]
    assert "Severity" in defs and schema_faults(defs, SHAPES) == []
    # Planted: a definition dropped, a field dropped, a definition left open.
    assert schema_faults({k: v for k, v in defs.items() if k != "Fix"}, SHAPES) == [
        "Fix: no definition"
    ]
    fix = defs["Fix"]
    fewer = {**fix, "properties": {k: v for k, v in fix["properties"].items() if k != "text"}}
    assert schema_faults({**defs, "Fix": fewer}, SHAPES) == ["Fix: fields"]
    assert schema_faults({**defs, "Fix": {**fix, "additionalProperties": True}}, SHAPES) == [
        "Fix: admits unknown fields"
    ]
    assert schema_faults({**defs, "Ghost": fix}, SHAPES) == ["Ghost: no class"]


def test_schema_versions_are_the_ones_written() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["properties"]["schema_version"]["const"] == REPORT_SCHEMA_VERSION
    assert schema["$defs"]["Facts"]["properties"]["schema_version"]["const"] == SCHEMA_VERSION
    assert "cause" in schema["$defs"]["Finding"]["required"]


def test_schema_rejects_a_finding_without_its_cause() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    data = json.loads(render_json(full_report(), "0.1.0"))
    del data["findings"][0]["cause"]
    with pytest.raises(jsonschema.ValidationError, match="cause"):
        jsonschema.Draft202012Validator(schema).validate(data)


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


@pytest.mark.parametrize(
    "module",
    [
        pytest.param("tfdoctor.render.markdown", id="markdown"),
        pytest.param("tfdoctor.render.jsonout", id="json"),
    ],
)
def test_markdown_and_json_renderers_do_not_load_rich(module: str) -> None:
    code = (
        f"import sys, {module}; print(sorted(m for m in sys.modules if m.split('.')[0] == 'rich'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert out.stdout.strip() == "[]"


def test_text_renderer_loads_rich() -> None:
    """The probe above can see rich at all: importing the text renderer does load it."""
    code = "import sys, tfdoctor.render.text; print('rich' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert out.stdout.strip() == "True"
