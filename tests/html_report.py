"""A report to render as HTML, with a smoke test, a bandwidth sweep, a fleet, a fix, and
planted markup and secrets; shared by the HTML tests and the browser tests."""

from __future__ import annotations

from typing import Optional

from tests import factories
from tfdoctor.cluster.fleet import fleet_table
from tfdoctor.facts import SmokeDevice, SmokeFacts, SmokeResult
from tfdoctor.findings import BandwidthPoint, Finding, Fix, Report, Severity
from tfdoctor.redact import Redactor
from tfdoctor.render.html import render_html

#: Planted where the page shows facts and findings: must come out as text, never as a tag.
SCRIPT = "<script>alert('planted')</script>"
#: Planted secrets: a token in an environment variable, a password in a pip index URL.
TOKEN = "hf_" + "Q" * 34
PASSWORD = "s3cretpass"
INDEX_URL = f"https://builder:{PASSWORD}@pypi.example.org/simple"


def _matmul(dtype: str, seconds: float, throughput: float, peak: Optional[float]) -> SmokeResult:
    """A correct matmul on GPU:0 at ``throughput`` FLOP/s against ``peak`` (None: unknown)."""
    device = "/device:GPU:0"
    return SmokeResult(
        "matmul",
        dtype,
        device,
        device,
        ok=True,
        seconds=seconds,
        throughput=throughput,
        peak=peak,
        fraction_of_peak=None if peak is None else throughput / peak,
    )


def smoke_facts() -> SmokeFacts:
    """A GPU's smoke test: three kernels with a rate (one without a known peak), one without."""
    device = "/device:GPU:0"
    return SmokeFacts(
        status="ok",
        level="quick",
        interpreter="/opt/venv/bin/python",
        tf_version="2.21.0",
        devices=(
            SmokeDevice(
                name="GPU:0",
                device_type="GPU",
                model="NVIDIA A100-SXM4-80GB",
                compute_capability="8.0",
                peaks={"float32": 19.5e12, "float16": 312e12},
                peak_source="https://www.nvidia.com/a100 data sheet",
                results=(
                    SmokeResult("first-op", "float32", device, device, ok=True, seconds=0.8),
                    _matmul("float32", 0.01, 12.3e12, 19.5e12),
                    _matmul("float16", 0.001, 201e12, 312e12),
                    _matmul("bfloat16", 0.002, 150e12, None),
                ),
            ),
        ),
    )


def planted_report() -> Report:
    """A report with a smoke test, a sweep, a fleet, a fix, and planted markup and secrets."""
    facts = factories.facts(
        environment={
            "HF_TOKEN": TOKEN,
            "PIP_INDEX_URL": INDEX_URL,
            "TF_CPP_MIN_LOG_LEVEL": SCRIPT,
        },
        smoke=smoke_facts(),
    )
    findings = (
        Finding("python.version", Severity.OK, "Python 3.11.7 is supported"),
        Finding(
            "packages.numpy",
            Severity.ERROR,
            f"NumPy 2.1 is too new for TensorFlow 2.15 {SCRIPT}",
            "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.1.0",
            Fix(
                "Install a NumPy that TensorFlow 2.15 was built against.",
                ("pip install 'numpy<2'",),
            ),
            links=("https://github.com/tensorflow/tensorflow/issues/1", "javascript:alert(1)"),
        ),
    )
    nodes = {
        "node-a": {"tensorflow": "2.21.0", "python": "3.11.7"},
        "node-b": {"tensorflow": "2.21.0", "python": "3.11.7"},
        "node-c": {"tensorflow": "2.20.0", "python": "3.11.7"},
    }
    sweep = tuple(
        BandwidthPoint(size, size / 1e9, size / 1e-3 / 1e3, 2e8 * (i + 1))
        for i, size in enumerate((4, 1024, 2**20, 16 * 2**20))
    )
    return Report(facts, findings, bandwidth=sweep, fleet=fleet_table(nodes))


def render(report: Report) -> str:
    """The page, redacted as for a fixed home and hostname."""
    return render_html(
        report, "0.1.0", redactor=Redactor(private=True, home="/home/ada", hostname="gpubox7")
    )
