"""CI formats: JUnit XML (validated against the Jenkins schema) and GitHub workflow commands."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Optional

import pytest
import xmlschema

from tests import factories as f
from tests.commandline import tfdoctor
from tfdoctor.facts import Facts, to_json
from tfdoctor.findings import Finding, Fix, Report, Severity
from tfdoctor.records import record
from tfdoctor.render.github import (
    MAX_PER_JOB,
    MAX_PER_KIND,
    annotation,
    escape_data,
    escape_property,
    fit_step_summary,
    render_github,
)
from tfdoctor.render.junit import render_junit, tensorflow_version

ROOT = Path(__file__).resolve().parent.parent
XSD = Path(__file__).parent / "data" / "junit" / "junit-10.xsd"
SECRET = "hf_abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture(scope="module")
def schema() -> xmlschema.XMLSchema:
    return xmlschema.XMLSchema(str(XSD))


def every_kind() -> Report:
    """A report with every severity, a fix, a crash, a repeated id and awkward characters."""
    findings = (
        Finding("python.bits", Severity.OK, "CPython 3.11.7, 64-bit"),
        Finding(
            "cuda.shadowed",
            Severity.ERROR,
            "libcudnn.so.8 from LD_LIBRARY_PATH shadows the pip wheel's",
            detail="first line\nsecond <line> & \x1b[31mcolour\x1b[0m",
            fix=Fix("Unset it", ("unset LD_LIBRARY_PATH",)),
            links=("https://www.tensorflow.org/install/pip",),
        ),
        Finding("packages.drift", Severity.WARNING, "numpy 2.0.0 is not numpy==1.26.4"),
        Finding("packages.drift", Severity.WARNING, f"token={SECRET} differs"),
        Finding("gpu.visible", Severity.UNKNOWN, "Could not determine the GPUs TensorFlow sees"),
        Finding("driver.nvidia", Severity.INFO, "No NVIDIA GPU or driver on this machine"),
        Finding(
            "gpu.memory-growth",
            Severity.INFO,
            "GPU memory growth is not configured",
            fix=Fix("Set it", ("export TF_FORCE_GPU_ALLOW_GROWTH=true",)),
        ),
        Finding(
            "doctor.crashed",
            Severity.UNKNOWN,
            "Check cpu.avx crashed: KeyError: 'x'",
            check="cpu.avx",
        ),
    )
    return Report(facts=f.facts(), findings=findings)


def parse(xml: str) -> ET.Element:
    return ET.fromstring(xml.encode("utf-8"))


def outcome(case: ET.Element) -> str:
    for tag in ("failure", "error", "skipped"):
        if case.find(tag) is not None:
            return tag
    return "passed"


def assert_consistent(root: ET.Element) -> None:
    """What the schema cannot say (its attributes are all strings): counts match the cases."""
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert len(suites) == 1
    suite = suites[0]
    cases = suite.findall("testcase")
    outcomes = [outcome(c) for c in cases]
    for element in (root, suite):
        assert int(element.attrib["tests"]) == len(cases)
        assert int(element.attrib["failures"]) == outcomes.count("failure")
        assert int(element.attrib["errors"]) == outcomes.count("error")
    assert int(suite.attrib["skipped"]) == outcomes.count("skipped")
    names = [c.attrib["name"] for c in cases]
    assert len(set(names)) == len(names), "reporters merge test cases of the same name"
    for case in cases:
        assert len([c for c in case if c.tag in ("failure", "error", "skipped")]) <= 1


@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
def test_junit_validates_against_the_schema(schema: xmlschema.XMLSchema, strict: bool) -> None:
    xml = render_junit(every_kind(), "0.1.0", command="check", strict=strict)
    schema.validate(xml)
    assert_consistent(parse(xml))
    assert xml.startswith('<?xml version="1.0" encoding="UTF-8"?>\n') and xml.endswith(">\n")


def test_the_schema_rejects_what_reporters_reject(schema: xmlschema.XMLSchema) -> None:
    # The vendored schema is not a no-op: a test case without a name is refused.
    with pytest.raises(xmlschema.XMLSchemaValidationError):
        schema.validate('<testsuites><testsuite tests="1"><testcase/></testsuite></testsuites>')


def test_junit_maps_each_severity() -> None:
    root = parse(render_junit(every_kind(), "0.1.0", command="check"))
    cases = {c.attrib["name"]: c for c in root.iter("testcase")}
    assert {name: outcome(case) for name, case in cases.items()} == {
        "python.bits": "passed",
        "cuda.shadowed": "failure",
        "packages.drift #1": "passed",
        "packages.drift #2": "passed",
        "gpu.visible": "skipped",
        "driver.nvidia": "skipped",
        "gpu.memory-growth": "passed",
        "cpu.avx": "skipped",
    }
    assert cases["cuda.shadowed"].attrib["classname"] == "tfdoctor.check.cuda"
    failure = cases["cuda.shadowed"].find("failure")
    assert failure is not None and failure.attrib["type"] == "error"
    assert failure.attrib["message"] == "libcudnn.so.8 from LD_LIBRARY_PATH shadows the pip wheel's"
    assert failure.text == (
        "libcudnn.so.8 from LD_LIBRARY_PATH shadows the pip wheel's\n"
        "first line\nsecond <line> & \\x1b[31mcolour\\x1b[0m\n"
        "Fix: Unset it\n  $ unset LD_LIBRARY_PATH\n"
        "See: https://www.tensorflow.org/install/pip"
    )
    note = cases["packages.drift #1"].find("system-out")
    assert note is not None and note.text == "warning: numpy 2.0.0 is not numpy==1.26.4"


def test_junit_strict_fails_warnings_and_unknowns_and_errors_a_crash() -> None:
    root = parse(render_junit(every_kind(), "0.1.0", command="check", strict=True))
    outcomes = {c.attrib["name"]: outcome(c) for c in root.iter("testcase")}
    assert outcomes["packages.drift #1"] == outcomes["gpu.visible"] == "failure"
    assert outcomes["cpu.avx"] == "error"
    assert outcomes["driver.nvidia"] == "skipped"
    assert outcomes["python.bits"] == outcomes["gpu.memory-growth"] == "passed"


def test_junit_redacts_secrets() -> None:
    xml = render_junit(every_kind(), "0.1.0", command="check")
    assert SECRET not in xml


def properties(xml: str) -> dict[str, str]:
    return {p.attrib["name"]: p.attrib["value"] for p in parse(xml).iter("property")}


def test_junit_properties_name_the_versions() -> None:
    xml = render_junit(every_kind(), "9.9.9", command="smoke", strict=True)
    assert properties(xml) == {
        "tfdoctor.version": "9.9.9",
        "tfdoctor.command": "smoke",
        "tfdoctor.strict": "true",
        "tensorflow.version": "2.15.1",
        "python.version": "3.11.7",
    }
    suite = parse(xml).find("testsuite")
    assert suite is not None and suite.attrib["name"] == "tfdoctor smoke"
    assert suite.attrib["timestamp"] == "2026-01-01T00:00:00+00:00"


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        pytest.param(f.facts(), "2.15.1", id="imported"),
        pytest.param(
            f.facts(tensorflow=f.tensorflow(status="skipped", version=None)),
            "2.15.1",
            id="static-installed",
        ),
        pytest.param(
            f.facts(tensorflow=None, packages=(f.pkg("numpy", "1.26.4"),)), None, id="absent"
        ),
        pytest.param(Facts("0.1.0", "2026-01-01T00:00:00+00:00"), None, id="nothing-probed"),
    ],
)
def test_tensorflow_version_property(facts: Facts, expected: Optional[str]) -> None:
    assert tensorflow_version(facts) == expected


def test_junit_of_an_empty_report_is_valid(schema: xmlschema.XMLSchema) -> None:
    xml = render_junit(Report(f.facts(), ()), "0.1.0", command="explain")
    schema.validate(xml)
    assert_consistent(parse(xml))
    assert properties(xml)["tensorflow.version"] == "2.15.1"


def test_junit_whole_output_for_a_small_report() -> None:
    report = Report(
        Facts("0.1.0", "2026-01-01T00:00:00+00:00"),
        (
            Finding("python.bits", Severity.OK, "CPython, 64-bit"),
            Finding("tensorflow.import", Severity.ERROR, "import failed", fix=Fix("Reinstall")),
        ),
    )
    assert render_junit(report, "0.1.0", command="check") == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<testsuites name="tfdoctor" tests="2" failures="1" errors="0">\n'
        '  <testsuite name="tfdoctor check" tests="2" failures="1" errors="0" skipped="0" '
        'timestamp="2026-01-01T00:00:00+00:00">\n'
        "    <properties>\n"
        '      <property name="tfdoctor.version" value="0.1.0" />\n'
        '      <property name="tfdoctor.command" value="check" />\n'
        '      <property name="tfdoctor.strict" value="false" />\n'
        '      <property name="tensorflow.version" value="unknown" />\n'
        '      <property name="python.version" value="unknown" />\n'
        "    </properties>\n"
        '    <testcase name="python.bits" classname="tfdoctor.check.python">\n'
        "      <system-out>ok: CPython, 64-bit</system-out>\n"
        "    </testcase>\n"
        '    <testcase name="tensorflow.import" classname="tfdoctor.check.tensorflow">\n'
        '      <failure type="error" message="import failed">import failed\n'
        "Fix: Reinstall</failure>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "</testsuites>\n"
    )


# --- GitHub workflow commands ------------------------------------------------------------


def many(severity: Severity, n: int, area: str) -> tuple[Finding, ...]:
    return tuple(Finding(f"{area}.c{i:02d}", severity, f"{severity.value} {i}") for i in range(n))


def annotation_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(("::error", "::warn", "::not"))]


def test_github_annotates_the_most_severe_first_within_the_limits() -> None:
    findings = (
        many(Severity.INFO, 12, "aaa")
        + many(Severity.UNKNOWN, 3, "bbb")
        + many(Severity.WARNING, 12, "ccc")
        + many(Severity.ERROR, 15, "ddd")
        + many(Severity.OK, 4, "eee")
    )
    text = render_github(Report(f.facts(), findings), "0.1.0", command="check")
    shown = annotation_lines(text)
    kinds = [line.split(" ", 1)[0] for line in shown]
    assert kinds == ["::error"] * 10 + ["::warning"] * 10 + ["::notice"] * 10
    assert len(shown) <= MAX_PER_JOB and MAX_PER_KIND == 10
    # Warnings before unknowns (both are warnings to GitHub): the 3 unknowns are left out.
    assert all("could not determine" not in line for line in shown)
    assert shown[0].endswith("::error 0") and shown[9].endswith("::error 9")
    assert (
        "tfdoctor: 5 more errors, 5 more warnings, 2 more notices not annotated (GitHub shows at "
        "most 10 of each kind per step); all findings are listed below and in the job summary."
    ) in text.splitlines()


def test_github_whole_output() -> None:
    report = Report(
        f.facts(),
        (
            Finding("python.bits", Severity.OK, "CPython 3.11.7, 64-bit"),
            Finding(
                "cuda.shadowed",
                Severity.ERROR,
                "100% shadowed, really",
                detail="line one\r\nline two",
                fix=Fix("Unset it", ("unset LD_LIBRARY_PATH",)),
            ),
            Finding("gpu.visible", Severity.UNKNOWN, "Could not determine the GPUs"),
        ),
    )
    assert render_github(report, "0.1.0", command="check", strict=True) == (
        "::error title=tfdoctor cuda.shadowed::100%25 shadowed, really%0A%0Aline one%0Aline two"
        "%0A%0AFix: Unset it%0A  $ unset LD_LIBRARY_PATH\n"
        "::warning title=tfdoctor gpu.visible (could not determine)::Could not determine the GPUs\n"
        "::group::tfdoctor check: 1 error, 1 unknown, 1 ok\n"
        "[ ok ] python.bits: CPython 3.11.7, 64-bit\n"
        "[ ?? ] gpu.visible: Could not determine the GPUs\n"
        "[FAIL] cuda.shadowed: 100% shadowed, really\n"
        "::endgroup::\n"
        "tfdoctor 0.1.0: 1 error, 1 unknown, 1 ok; exit code 2: errors found\n"
    )


@pytest.mark.parametrize(
    ("text", "data", "prop"),
    [
        pytest.param("a%b", "a%25b", "a%25b", id="percent"),
        pytest.param("a\r\nb", "a%0D%0Ab", "a%0D%0Ab", id="newlines"),
        pytest.param("x: y, z", "x: y, z", "x%3A y%2C z", id="colon-comma"),
        pytest.param("::stop-commands::x", "::stop-commands::x", "%3A%3Astop-commands%3A%3Ax"),
    ],
)
def test_workflow_command_escaping(text: str, data: str, prop: str) -> None:
    assert escape_data(text) == data
    assert escape_property(text) == prop


@dataclasses.dataclass(frozen=True)
class _Location:
    path: str
    line: int
    column: int


@record
class _LocatedFinding(Finding):
    """A finding with a place in a file, as ``scan`` findings carry one."""

    location: Optional[Any] = None


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        pytest.param(
            _Location("src/train, v2.py", 12, 5),
            "::warning file=src/train%2C v2.py,line=12,col=5,title=tfdoctor scan.x::use",
            id="object",
        ),
        pytest.param(
            {"path": "nb.ipynb", "line": 3, "column": None},
            "::warning file=nb.ipynb,line=3,title=tfdoctor scan.x::use",
            id="mapping-no-column",
        ),
        pytest.param(
            {"path": "nb.ipynb", "line": 3, "column": 1, "cell": 4},
            "::warning file=nb.ipynb,title=tfdoctor scan.x::use",
            id="notebook-cell",
        ),
        pytest.param(None, "::warning title=tfdoctor scan.x::use", id="none"),
        pytest.param({"path": "", "line": 3}, "::warning title=tfdoctor scan.x::use", id="no-path"),
    ],
)
def test_annotation_carries_file_and_line(location: Any, expected: str) -> None:
    finding = _LocatedFinding("scan.x", Severity.WARNING, "use", location=location)
    assert annotation(finding, "warning") == expected


def test_github_redacts_and_keeps_commands_out_of_the_log() -> None:
    report = Report(
        f.facts(),
        (Finding("env.x", Severity.WARNING, f"token={SECRET}\n::error::injected"),),
    )
    text = render_github(report, "0.1.0", command="check")
    assert SECRET not in text
    # The summary's line break is escaped in the annotation and folded in the list.
    assert [line for line in text.splitlines() if "injected" in line] == [
        "::warning title=tfdoctor env.x::token=***%0A::error::injected",
        "[warn] env.x: token=*** ::error::injected",
    ]


# --- the job summary ---------------------------------------------------------------------


def test_step_summary_fits_unchanged_when_there_is_room() -> None:
    assert fit_step_summary("# hi\n", 5) == "# hi\n"


def test_step_summary_is_cut_at_a_line_and_closes_an_open_fence() -> None:
    markdown = "# report\n\n```text\n" + "é long line of facts\n" * 5000 + "```\n"
    room = 4096
    cut = fit_step_summary(markdown, room)
    assert len(cut.encode("utf-8")) <= room
    lines = cut.splitlines()
    assert lines[0] == "# report"
    assert "é long line of facts" in lines
    assert lines.count("```") == 1 and lines.index("```") > 2
    assert "1 MiB job-summary limit" in cut


def test_step_summary_is_empty_without_room() -> None:
    assert fit_step_summary("x" * 100, 10) == ""
    assert fit_step_summary("x" * 100, -5) == ""


# --- the command line --------------------------------------------------------------------


@pytest.fixture
def broken_facts(tmp_path: Path) -> Path:
    path = tmp_path / "facts.json"
    path.write_text(json.dumps(to_json(f.python32_machine())), encoding="utf-8")
    return path


def test_check_format_junit(broken_facts: Path, schema: xmlschema.XMLSchema) -> None:
    out = tfdoctor("check", "--facts", str(broken_facts), "--format", "junit")
    assert out.returncode == 2, out.stderr
    schema.validate(out.stdout)
    root = parse(out.stdout)
    assert_consistent(root)
    bits = next(c for c in root.iter("testcase") if c.attrib["name"] == "python.bits")
    assert outcome(bits) == "failure"


def test_check_format_github_appends_the_job_summary(broken_facts: Path, tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step output\n", encoding="utf-8")
    out = tfdoctor(
        "check",
        "--facts",
        str(broken_facts),
        "--format",
        "github",
        env={"GITHUB_STEP_SUMMARY": str(summary)},
    )
    assert out.returncode == 2, out.stderr
    assert out.stdout.startswith("::error title=tfdoctor python.bits::")
    assert "::group::tfdoctor check:" in out.stdout
    written = summary.read_text(encoding="utf-8")
    assert written.startswith("earlier step output\n### tfdoctor report\n")
    assert "python.bits" in written


def test_github_summary_that_cannot_be_written_is_one_warning(broken_facts: Path) -> None:
    out = tfdoctor(
        "check",
        "--facts",
        str(broken_facts),
        "--format",
        "github",
        env={"GITHUB_STEP_SUMMARY": str(ROOT / "no-such-dir" / "summary.md")},
    )
    assert out.returncode == 2
    assert out.stdout.startswith("::error")
    assert out.stderr.startswith("tfdoctor: warning: cannot write $GITHUB_STEP_SUMMARY")
    assert len(out.stderr.splitlines()) == 1


def test_json_and_a_ci_format_conflict(broken_facts: Path) -> None:
    out = tfdoctor("check", "--facts", str(broken_facts), "--json", "--format", "junit")
    assert out.returncode == 3
    assert (
        out.stderr.strip() == "tfdoctor: error: --json and --format junit ask for different outputs"
    )


def test_smoke_accepts_the_ci_formats() -> None:
    # The option is accepted: the run gets as far as checking the interpreter.
    for fmt in ("junit", "github"):
        out = tfdoctor("smoke", "--format", fmt, "--python", str(ROOT / "no-such-python"))
        assert out.returncode == 3
        assert "no such interpreter" in out.stderr
    conflict = tfdoctor("smoke", "--json", "--format", "github")
    assert conflict.returncode == 3
    assert "ask for different outputs" in conflict.stderr


# --- hostile strings ---------------------------------------------------------------------

#: What a log line or a file name can carry into a finding: a terminal's escapes (a colour, a
#: character-set switch, a title), a bell, a backspace, a lone carriage return, DEL, a C1 CSI
#: (U+009B), a workflow command, the end of an XML CDATA section, a lone surrogate (a file
#: name's byte that was not UTF-8), and a very long line.
HOSTILE = (
    "ImportError: \x1b[2J\x1b(0lqqk\x1b]0;title\x07 \x08\x08 a\rb \x7f \x9b31m"
    " ::error file=a.py::injected ]]> <tag>&amp; py\udcffthon" + "x" * 20_000
)


@pytest.mark.parametrize("fmt", ["text", "markdown", "github", "junit", "json"])
def test_hostile_strings_reach_no_output_as_control_characters(fmt: str) -> None:
    from tfdoctor.cli.output import OutputFormat, render

    finding = Finding(
        "explain.x",
        Severity.ERROR,
        HOSTILE,
        detail=HOSTILE,
        fix=Fix("Fix " + HOSTILE, (f"echo {HOSTILE}",)),
    )
    text = render(Report(f.facts(), (finding,)), OutputFormat(fmt), True, False, False)
    controls = {c for c in text if (ord(c) < 32 and c not in "\t\n") or 0x7F <= ord(c) <= 0x9F}
    assert controls == set()
    text.encode("utf-8")  # no lone surrogate: any UTF-8 file or stream can hold it
    assert "\\x1b(0lqqk" in text or fmt == "json"  # visible, not acted on
    if fmt == "github":
        # Each line starts with a command of ours, a mark or our summary: none injected.
        for line in text.splitlines():
            assert line.startswith(
                ("::error title=tfdoctor", "::group::", "::endgroup::", "[", "tfdoctor ")
            )
    if fmt == "junit":
        ET.fromstring(text)  # well-formed whatever the text held


@pytest.mark.parametrize("fmt", ["text", "markdown", "github"])
def test_quoted_workflow_commands_are_inert_in_a_ci_log(fmt: str) -> None:
    # The runner obeys "::" first on a line after its leading blanks, and "##[" anywhere:
    # a quoted line of a CI job's own log must reach the next job's log as text.
    from tfdoctor.cli.output import OutputFormat, render

    # .NET's TrimStart() takes every white space: a no-break or an ideographic space too.
    detail = (
        "::error file=a.py::injected\n    ::add-mask::secret\n##[error]Process completed\n"
        "\u00a0::warning::nbsp\n\u3000\u2003::notice::wide"
    )
    finding = Finding("explain.x", Severity.ERROR, "see ##[warning]x and ::notice::y", detail)
    text = render(Report(f.facts(), (finding,)), OutputFormat(fmt), True, False, False)
    commands = [line for line in text.splitlines() if line.lstrip().startswith("::")]
    ours = ("::error title=tfdoctor explain.x::", "::group::", "::endgroup::")
    assert all(line.startswith(ours) for line in commands), commands
    # Within a command of ours the runner reads no other (the line is that command).
    others = [line for line in text.splitlines() if line not in commands]
    assert not [line for line in others if "##[" in line]
    assert "\\x3a:error file=a.py::injected" in text or fmt == "github"


def test_json_keeps_the_strings_a_report_holds_exact() -> None:
    # JSON writes a control character as its own escape (\u001b) and stays ASCII; a second,
    # visible escape would change the value a script or a replay (--facts) reads back.
    from tfdoctor.cli.output import OutputFormat, render

    held = "ImportError: \x1b[31mred\x1b[0m\x07 a\rb \x7f \x9b \udcff\r\nnext"
    finding = Finding("explain.x", Severity.ERROR, held, detail=held, fix=Fix("Fix it", ("x",)))
    text = render(Report(f.facts(), (finding,)), OutputFormat("json"), True, False, False)
    assert text.isascii()
    (found,) = json.loads(text)["findings"]
    assert (found["summary"], found["detail"]) == (held, held)


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_quotes_a_workflow_command_inert_and_exact(fmt: str) -> None:
    # GitHub's own job logs end a failed step with "##[error]Process completed with exit code
    # 1."; a finding quoting it, printed as JSON in a job's log, must not raise an annotation.
    from tfdoctor.cli.output import OutputFormat, render
    from tfdoctor.findings import Location

    held = "##[error]Process completed with exit code 1. ::error::x \\##[warning]"
    finding = Finding("explain.x", Severity.ERROR, held, location=Location("a.py", 1, 1))
    text = render(Report(f.facts(), (finding,)), OutputFormat(fmt), True, False, False)
    assert "##[" not in text
    assert all(not line.lstrip().startswith("::") for line in text.splitlines())
    data = json.loads(text)
    if fmt == "json":
        assert data["findings"][0]["summary"] == held
    else:
        assert json.dumps(held)[1:-1] in json.dumps(data)  # read back as held
