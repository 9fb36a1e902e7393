"""``--format html``: one self-contained page, parsed here with html.parser and rendered by a
real headless Chromium (with JavaScript on and off) in :mod:`tests.test_render_html_browser`."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests import factories
from tests.commandline import tfdoctor, write_facts
from tests.html_report import PASSWORD, SCRIPT, TOKEN, planted_report, render, smoke_facts
from tfdoctor.cluster.fleet import fleet_table
from tfdoctor.cluster.verdicts import bandwidth_finding, sweep_points
from tfdoctor.facts import Facts
from tfdoctor.findings import Report


class Page(HTMLParser):
    """The parsed page: every start tag with its attributes, and the text by tag."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self.styles: list[str] = []
        self._open: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Record the tag and its attributes."""
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        """Close the innermost open tag of that name."""
        if tag in self._open:
            while self._open and self._open.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        """Keep text, and the style sheet apart."""
        (self.styles if self._open and self._open[-1] == "style" else self.text).append(data)

    def named(self, tag: str) -> list[dict[str, str]]:
        """The attributes of every ``tag``."""
        return [attrs for name, attrs in self.tags if name == tag]

    @property
    def all_text(self) -> str:
        """The text a reader sees."""
        return "".join(self.text)


@pytest.fixture(scope="module")
def page() -> Page:
    return Page(render(planted_report()))


def test_the_page_loads_nothing_from_anywhere(page: Page) -> None:
    assert page.named("script") == []
    assert page.named("link") == []
    assert page.named("iframe") == page.named("img") == page.named("object") == []
    for _, attrs in page.tags:
        assert "src" not in attrs
        assert not any(name.startswith("on") for name in attrs), attrs
    css = "".join(page.styles)
    assert "@import" not in css
    assert "url(" not in css
    assert "@font-face" not in css
    assert len(page.named("style")) == 1


def test_only_web_links_are_anchors(page: Page) -> None:
    hrefs = [a["href"] for a in page.named("a")]
    assert hrefs == ["https://github.com/tensorflow/tensorflow/issues/1"]


def test_planted_markup_is_text_not_a_tag(page: Page) -> None:
    raw = render(planted_report())
    assert SCRIPT not in raw
    assert "&lt;script&gt;" in raw
    # The fact once, the finding's summary twice (the table and its block), each as text.
    assert page.all_text.count(SCRIPT) == 3


def test_planted_secrets_are_redacted(page: Page) -> None:
    raw = render(planted_report())
    assert TOKEN not in raw
    assert PASSWORD not in raw
    assert "https://builder:***@pypi.example.org/simple" in page.all_text


def test_findings_show_severity_summary_detail_and_copyable_fix(page: Page) -> None:
    text = page.all_text
    assert "NumPy 2.1 is too new for TensorFlow 2.15" in text
    assert "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.1.0" in text
    assert "Install a NumPy that TensorFlow 2.15 was built against." in text
    fixes = [attrs for attrs in page.named("pre") if attrs.get("class") == "fix"]
    assert len(fixes) == 1
    assert "pip install 'numpy<2'" in text
    assert {a.get("class") for a in page.named("article")} == {"finding sev-error"}


def test_throughput_chart_carries_each_kernel_and_its_peak(page: Page) -> None:
    kernels = [g for g in page.named("g") if g.get("class") == "kernel"]
    assert [(g["data-kernel"], g["data-dtype"]) for g in kernels] == [
        ("matmul", "float32"),
        ("matmul", "float16"),
        ("matmul", "bfloat16"),
    ]
    assert [float(g["data-throughput"]) for g in kernels] == [12.3e12, 201e12, 150e12]
    # No peak known for bfloat16: no peak attribute and no line, rather than a line at 0.
    assert [float(g["data-peak"]) for g in kernels if "data-peak" in g] == [19.5e12, 312e12]
    assert len([ln for ln in page.named("line") if ln.get("class") == "peak"]) == 2
    assert "matmul float32: 12.3 TFLOP/s, peak 19.5 TFLOP/s" in page.all_text
    assert "matmul bfloat16: 150.0 TFLOP/s, no peak known" in page.all_text


def test_bandwidth_chart_has_a_point_per_size_on_a_log_axis(page: Page) -> None:
    points = [c for c in page.named("circle") if c.get("class") == "point"]
    assert [int(c["data-size"]) for c in points] == [4, 1024, 2**20, 16 * 2**20]
    xs = [float(c["cx"]) for c in points]
    # log2 sizes 2, 10, 20, 24: equal ratios make equal steps.
    steps = [b - a for a, b in zip(xs, xs[1:])]
    assert steps[0] / steps[2] == pytest.approx(8 / 4, rel=0.01)
    assert "16 MiB: bus bandwidth 800.0 MB/s" in page.all_text
    assert "message size (log scale)" in page.all_text


def test_the_chart_and_the_cluster_finding_name_a_message_size_alike() -> None:
    result = {
        "sweep": [
            {"bytes": 4, "seconds": 1e-5, "algbw": 4e5, "busbw": 4e5},
            {"bytes": 2**30, "seconds": 0.5, "algbw": 2e9, "busbw": 2e9},
        ]
    }
    found = bandwidth_finding(result)
    assert found is not None
    assert found.summary.startswith("all-reduce of 1 GiB: 2000.0 MB/s bus bandwidth")
    shown = Page(render(Report(factories.facts(), (found,), bandwidth=sweep_points(result))))
    assert "1 GiB: bus bandwidth 2000.0 MB/s" in shown.all_text


def test_fleet_table_marks_the_odd_node(page: Page) -> None:
    odd = [td for td in page.named("td") if td.get("class") == "odd"]
    assert [td["title"] for td in odd] == ["node-c is out of line"]
    assert "odd one out" in page.all_text


def test_a_fleet_secret_variable_shows_no_value() -> None:
    nodes = {"a": {"$TF_API_TOKEN": "plain-value-1"}, "b": {"$TF_API_TOKEN": "plain-value-2"}}
    report = Report(
        Facts(tfdoctor_version="0.1.0", collected_at="now"), (), fleet=fleet_table(nodes)
    )
    raw = render(report)
    assert "plain-value" not in raw


def test_only_a_report_that_probed_the_machine_lists_its_facts() -> None:
    smoke_only = Report(
        Facts(tfdoctor_version="0.1.0", collected_at="now", smoke=smoke_facts()), ()
    )
    parsed = Page(render(smoke_only))
    assert [s.get("id") for s in parsed.named("section")] == ["findings", "smoke"]
    full = Page(render(planted_report()))
    assert [s.get("id") for s in full.named("section")] == [
        "findings",
        "smoke",
        "bandwidth",
        "fleet",
        "facts",
    ]


@pytest.mark.slow
def test_smoke_draws_what_the_kernels_measured() -> None:
    done = tfdoctor("smoke", "--format", "html", "--device", "CPU:0", timeout=300)
    assert done.returncode in (0, 2), done.stderr
    parsed = Page(done.stdout)
    kernels = [g for g in parsed.named("g") if g.get("class") == "kernel"]
    assert ("matmul", "float32") in [(g["data-kernel"], g["data-dtype"]) for g in kernels]
    assert all(float(g["data-throughput"]) > 0 for g in kernels)
    peaks = [ln for ln in parsed.named("line") if ln.get("class") == "peak"]
    assert len(peaks) == len([g for g in kernels if "data-peak" in g])


def test_home_and_hostname_are_private() -> None:
    facts = factories.facts(environment={"TF_DUMP_DIR": "/home/ada/dumps on gpubox7"})
    raw = render(Report(facts, ()))
    assert "/home/ada" not in raw
    assert "gpubox7" not in raw
    assert "~/dumps on &lt;hostname&gt;" in raw


def test_check_writes_html_from_saved_facts(tmp_path: Path) -> None:
    facts = factories.facts(environment={"HF_TOKEN": TOKEN, "TF_CPP_VMODULE": SCRIPT})
    saved = write_facts(tmp_path, facts)
    done = tfdoctor("check", "--facts", str(saved), "--format", "html")
    assert done.returncode in (0, 2), done.stderr
    assert done.stderr == ""
    assert done.stdout.startswith("<!DOCTYPE html>")
    assert TOKEN not in done.stdout
    assert SCRIPT not in done.stdout
    parsed = Page(done.stdout)
    assert parsed.named("script") == []
    assert "tfdoctor check report" in parsed.all_text


def test_fleet_writes_html_with_the_odd_node(tmp_path: Path) -> None:
    paths = []
    for name, version in (("n1", "2.21.0"), ("n2", "2.21.0"), ("n3", "2.20.0")):
        facts = factories.facts(tensorflow=factories.tensorflow(version=version))
        path = tmp_path / f"{name}.json"
        path.write_text(
            json.dumps(
                {
                    "schema_version": 2,
                    "facts": json.loads(write_facts(tmp_path, facts).read_text()),
                    "findings": [],
                }
            ),
            encoding="utf-8",
        )
        paths.append(str(path))
    done = tfdoctor("fleet", *paths, "--format", "html")
    assert done.returncode == 2, done.stderr
    odd = [td for td in Page(done.stdout).named("td") if td.get("class") == "odd"]
    assert [td["title"] for td in odd] == ["n3 is out of line"]


def test_html_is_refused_where_it_is_not_offered(tmp_path: Path) -> None:
    done = tfdoctor("matrix", "--format", "html")
    assert done.returncode == 3
    assert done.stdout == ""
    assert done.stderr.startswith("tfdoctor: error: ")
    assert len(done.stderr.splitlines()) == 1
