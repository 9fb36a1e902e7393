"""The HTML report in a real browser: Debian's headless Chromium, driven by Playwright.

Without the browser or Playwright these tests skip on a developer's machine and fail in CI
(``CI=true``), whose ``.ci/run`` installs both.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.html_report import SCRIPT, TOKEN, planted_report, render

#: Where Debian's ``chromium`` package puts the browser.
CHROMIUM = "/usr/bin/chromium"


def _browser_path() -> str:
    """The Chromium to drive; skip without one, fail in CI."""
    found = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if found is None:
        _missing("no chromium (apt-get install chromium)")
    return str(found)


def _missing(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run the browser tests: {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("no playwright (the test extra installs it)")
    executable = _browser_path()
    with sync_playwright() as driver:
        # No sandbox: CI runs as root, where Chromium refuses its own sandbox.
        launched = driver.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def report_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("html") / "report.html"
    path.write_text(render(planted_report()), encoding="utf-8")
    return path


def _open(browser: Any, path: Path, *, javascript: bool) -> tuple[Any, Any, list[str]]:
    """A page showing ``path``, and the console messages and page errors it produced."""
    context = browser.new_context(java_script_enabled=javascript)
    page = context.new_page()
    messages: list[str] = []
    page.on("console", lambda msg: messages.append(f"{msg.type}: {msg.text}"))
    page.on("pageerror", lambda exc: messages.append(f"pageerror: {exc}"))
    page.on("requestfailed", lambda req: messages.append(f"requestfailed: {req.url}"))
    page.goto(path.as_uri(), wait_until="load")
    return context, page, messages


def test_the_console_check_catches_an_error(browser: Any, tmp_path: Path) -> None:
    """The watch on the console is real: a page with a failing script is caught."""
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><p>x</p><script>undefinedName()</script>", encoding="utf-8")
    context, _, messages = _open(browser, bad, javascript=True)
    context.close()
    assert any("undefinedName" in m for m in messages)


def test_renders_without_a_console_message(browser: Any, report_file: Path) -> None:
    context, page, messages = _open(browser, report_file, javascript=True)
    try:
        assert messages == []
        assert page.title() == "tfdoctor check report"
        # The planted markup stayed text: no script element, and the text is on the page.
        assert page.locator("script").count() == 0
        assert SCRIPT in page.inner_text("#findings")
        assert TOKEN not in page.content()
    finally:
        context.close()


def test_the_charts_are_drawn_with_their_values(browser: Any, report_file: Path) -> None:
    context, page, _ = _open(browser, report_file, javascript=True)
    try:
        charts = page.locator("svg.chart")
        assert charts.count() == 2
        for i in range(2):
            box = charts.nth(i).bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 50
        bars = page.locator("svg.throughput g.kernel > title").all_text_contents()
        assert bars == [
            "matmul float32: 12.3 TFLOP/s, peak 19.5 TFLOP/s",
            "matmul float16: 201.0 TFLOP/s, peak 312.0 TFLOP/s",
            "matmul bfloat16: 150.0 TFLOP/s, no peak known",
        ]
        # Each bar is drawn, and ends short of its peak line.
        for kernel in page.locator("svg.throughput g.kernel:has(line.peak)").all():
            bar = kernel.locator("rect").bounding_box()
            peak = kernel.locator("line.peak").bounding_box()
            assert bar is not None and peak is not None
            assert 0 < bar["x"] + bar["width"] < peak["x"]
        points = page.locator("svg.bandwidth circle.point > title").all_text_contents()
        assert points[-1].startswith("16 MiB: bus bandwidth 800.0 MB/s")
        assert len(points) == 4
        odd = page.locator("table.fleet td.odd").all_inner_texts()
        assert odd == ["\u26a0 2.20.0 (odd one out)"]
    finally:
        context.close()


def test_usable_without_javascript(browser: Any, report_file: Path) -> None:
    context, page, messages = _open(browser, report_file, javascript=False)
    try:
        assert messages == []
        findings = page.inner_text("#findings")
        assert "NumPy 2.1 is too new for TensorFlow 2.15" in findings
        assert "pip install 'numpy<2'" in page.inner_text("pre.fix")
        assert page.locator("svg.chart").count() == 2
    finally:
        context.close()


def test_printable(browser: Any, report_file: Path) -> None:
    context, page, _ = _open(browser, report_file, javascript=False)
    try:
        page.emulate_media(media="print")
        assert page.locator("pre.fix").is_visible()
        assert page.locator("svg.bandwidth").is_visible()
        pdf = page.pdf(format="A4")
        assert pdf.startswith(b"%PDF")
    finally:
        context.close()
