"""``tfdoctor bundle``: one redacted archive of this environment for a bug report."""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import shlex
from typing import TYPE_CHECKING, Optional

import typer

from tfdoctor import __version__
from tfdoctor.cli.options import (
    EXAMINE_OPTION,
    IMPORT_TIMEOUT_OPTION,
    MATRIX_OPTION,
    STATIC_OPTION,
)
from tfdoctor.cli.output import doctor_errors, fail, now, print_out
from tfdoctor.defaults import DEFAULT_TIMEOUT, ExitCode

if TYPE_CHECKING:
    from tfdoctor.bundle import Member
    from tfdoctor.facts import Facts
    from tfdoctor.findings import Report
    from tfdoctor.redact import Redactor
    from tfdoctor.runwatch import Watched

#: Where the archive goes without ``-o``.
DEFAULT_OUTPUT = "tfdoctor-bundle.tar.gz"


def bundle_command(
    output: str = typer.Option(
        DEFAULT_OUTPUT,
        "--output",
        "-o",
        metavar="FILE",
        help="Write the archive here: .tar.gz (or .tgz) or .zip.",
    ),
    smoke: bool = typer.Option(
        False, "--smoke", help="Also run the smoke test and include its report."
    ),
    static: bool = STATIC_OPTION,
    timeout: float = IMPORT_TIMEOUT_OPTION,
    python: str = EXAMINE_OPTION,
    matrix: Optional[str] = MATRIX_OPTION,
) -> None:
    """Write one redacted archive for a bug report: the check report, the libraries, pip
    inspect, the pins and a README; exits 0 once written, 3 when it cannot be."""
    from tfdoctor.bundle import BundleError

    try:
        names = make_bundle(
            output, python, smoke=smoke, static=static, timeout=timeout, matrix=matrix
        )
    except BundleError as exc:
        raise fail(str(exc)) from None
    print_out(f"tfdoctor: wrote {output}: {', '.join(names)}")
    raise typer.Exit(ExitCode.OK)


def make_bundle(
    output: str,
    python: str,
    *,
    smoke: bool = False,
    static: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
    matrix: Optional[str] = None,
    watched: Optional[Watched] = None,
) -> tuple[str, ...]:
    """Diagnose ``python``'s environment and write the bundle; the names written.

    Raises :class:`~tfdoctor.bundle.BundleError` for an output that cannot be written, and
    typer's exit (after one line) for bad input to the checks.
    """
    from tfdoctor.bundle import Member, check_output, library_lines, write_bundle
    from tfdoctor.doctor import CheckOptions, diagnose
    from tfdoctor.redact import Redactor

    check_output(output)
    smoke_options = None
    if smoke:
        from tfdoctor.smoke import SmokeOptions

        smoke_options = SmokeOptions(python=python)
    # Every distribution listed once: the report shows them and the pins are made from them.
    options = CheckOptions(
        python=python,
        static=static,
        timeout=timeout,
        matrix=matrix,
        smoke=smoke_options,
        all_packages=True,
    )
    with doctor_errors():
        report = diagnose(options)
    redactor = Redactor.for_this_machine(private=True)
    # The JSON members keep control characters exact: json.dumps escapes them, in ASCII.
    exact = dataclasses.replace(redactor, controls=False)
    members = [_report_member(report, exact)]
    notes: list[str] = []
    if report.facts.smoke is not None:
        members.append(_json_member("smoke.json", report.facts.smoke, exact, "the smoke test"))
    members.append(
        Member("libraries.txt", library_lines(report.facts), "the CUDA libraries TensorFlow loads")
    )
    members += _pip_inspect(python, exact, notes)
    members += _pins(report.facts, matrix, notes)
    if watched is not None:
        members.append(_run_log(watched))
    header = (
        f"tfdoctor {__version__} bundle, made {now()}, of the Python environment of "
        f"{report.facts.python.executable if report.facts.python else python}"
    )
    return write_bundle(output, members, notes, header, redactor=redactor, environ=os.environ)


def _report_member(report: Report, redactor: Redactor) -> Member:
    """``check --json``'s report, redacted as the markdown report is (private)."""
    from tfdoctor.bundle import Member
    from tfdoctor.findings import report_to_json

    data = report_to_json(redactor.tree(report), __version__)
    text = json.dumps(data, indent=2, sort_keys=True) + "\n"
    return Member("report.json", text, "the `tfdoctor check --json` report")


def _json_member(name: str, value: object, redactor: Redactor, about: str) -> Member:
    from tfdoctor.bundle import Member
    from tfdoctor.facts import to_json

    return Member(name, json.dumps(to_json(redactor.tree(value)), indent=2) + "\n", about)


def _pip_inspect(python: str, redactor: Redactor, notes: list[str]) -> list[Member]:
    from tfdoctor.bundle import Member, read_pip_inspect

    data, why = read_pip_inspect(python)
    if data is None:
        notes.append(f"pip-inspect.json: {why}")
        return []
    text = json.dumps(redactor.tree(data), indent=1, sort_keys=True) + "\n"
    return [Member("pip-inspect.json", text, "`pip inspect --local` of the examined Python")]


def _pins(facts: Facts, matrix: Optional[str], notes: list[str]) -> list[Member]:
    """``tfdoctor pin``'s requirements for the environment the report describes; a note when
    there are none."""
    from tfdoctor.bundle import Member
    from tfdoctor.inputs import DoctorError
    from tfdoctor.pin import PinError
    from tfdoctor.pin.service import environment_pins
    from tfdoctor.render.requirements import render_requirements

    try:
        pinset = environment_pins(facts, matrix)
    except (PinError, DoctorError) as exc:
        notes.append(f"pins.txt: tfdoctor pin found nothing to pin: {exc}")
        return []
    text = render_requirements(
        pinset,
        version=__version__,
        date=datetime.date.today().isoformat(),
        command="tfdoctor pin",
    )
    return [Member("pins.txt", text, "`tfdoctor pin`: requirements reproducing this setup")]


def _run_log(watched: Watched) -> Member:
    """The watched command's kept output, with a line saying what fell between."""
    from tfdoctor.bundle import Member

    kept = watched.kept
    lines = [f"$ {shlex.join(watched.argv)}", *kept.head]
    if kept.dropped:
        lines.append(f"[... {kept.dropped} lines not kept ...]")
    lines += kept.tail
    how = f"killed by {watched.signal_name}" if watched.signal_name else "exited"
    lines.append(f"[{how}, exit code {watched.exit_code}]")
    return Member(
        "run.log", "\n".join(lines) + "\n", "the output of the command `tfdoctor run` ran"
    )


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("bundle", short_help="One redacted archive of this environment for a bug report.")(
        bundle_command
    )
