"""The doctor inside a notebook: ``tfdoctor.check()`` and the ``%tfdoctor`` line magic.

Both examine the kernel's own interpreter and compare it with the environment Jupyter was
started from (:mod:`tfdoctor.probes.notebook`); the report they return shows itself as HTML in
a notebook and as text elsewhere, redacted like every other output. IPython is never imported:
``%load_ext tfdoctor`` hands :func:`load_ipython_extension` the running shell, which
registers the magic itself.
"""

from __future__ import annotations

import html
import shlex
import sys
from typing import Any, Optional

from tfdoctor import __version__
from tfdoctor.defaults import DEFAULT_TIMEOUT
from tfdoctor.doctor import CheckOptions, diagnose
from tfdoctor.facts import Facts
from tfdoctor.findings import Finding, Report
from tfdoctor.inputs import DoctorError


class NotebookReport:
    """A report as a notebook shows it: HTML in Jupyter, the text report elsewhere."""

    def __init__(self, report: Report, *, strict: bool = False, verbose: bool = False) -> None:
        self.report = report
        self.strict = strict
        self.verbose = verbose

    @property
    def facts(self) -> Facts:
        """What the probes found."""
        return self.report.facts

    @property
    def findings(self) -> tuple[Finding, ...]:
        """What the checks concluded."""
        return self.report.findings

    @property
    def exit_code(self) -> int:
        """The code ``tfdoctor check`` would exit with (``strict`` as asked)."""
        return self.report.exit_code(self.strict)

    def text(self) -> str:
        """The text report, secrets redacted, no colour."""
        from tfdoctor.render.text import render_text  # rich loads when shown

        return render_text(self.report, verbose=self.verbose, strict=self.strict)

    def json(self) -> str:
        """The JSON report (``docs/report.schema.json``), secrets redacted."""
        from tfdoctor.render.jsonout import render_json  # loaded when asked

        return render_json(self.report, __version__, self.strict)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return self.text().rstrip("\n")

    def _repr_html_(self) -> str:
        """Jupyter's rich display: the text report, escaped, in a preformatted block."""
        return f'<pre class="tfdoctor-report">{html.escape(self.text())}</pre>'


def in_kernel() -> bool:
    """This process is a Jupyter kernel (ipykernel is loaded; nothing is imported to tell)."""
    return "ipykernel" in sys.modules


def check(
    *ids: str,
    static: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
    python: Optional[str] = None,
    facts: Optional[str] = None,
    matrix: Optional[str] = None,
    require_gpu: bool = False,
    against: Optional[str] = None,
    strict: bool = False,
    verbose: bool = False,
) -> NotebookReport:
    """Examine this kernel's environment (or ``python``'s) and return the judged report.

    In a kernel examining itself, the report also compares the kernel with the terminal
    Jupyter was started from. Raises :class:`tfdoctor.inputs.DoctorError` for bad input.
    """
    examined = python or sys.executable
    options = CheckOptions(
        python=examined,
        static=static,
        timeout=timeout,
        check_ids=ids,
        facts_file=facts,
        matrix=matrix,
        require_gpu=require_gpu,
        against=against,
        in_kernel=in_kernel() and facts is None and examined == sys.executable,
    )
    return NotebookReport(diagnose(options), strict=strict, verbose=verbose)


#: ``tfdoctor check`` options the magic takes, by click's parameter name; the others
#: (output formats, ``--list``, ``--smoke``) belong to the command line.
MAGIC_OPTIONS = frozenset(
    {
        "ids",
        "static",
        "timeout",
        "python",
        "facts_file",
        "matrix",
        "require_gpu",
        "against",
        "strict",
        "verbose",
    }
)


def _check_params(line: str) -> dict[str, Any]:
    """``tfdoctor check``'s own options parsed from a magic's line (click's parser).

    Raises DoctorError for an option the magic does not take.
    """
    import typer  # the CLI's parser, for the magic only

    from tfdoctor.cli.app import app

    group: Any = typer.main.get_command(app)
    command = group.get_command(None, "check")
    ctx = command.make_context("%tfdoctor", shlex.split(line))
    for param in command.params:
        if param.name not in MAGIC_OPTIONS and ctx.params.get(param.name) != param.default:
            flag = param.opts[0] if param.opts else param.name
            raise DoctorError(f"%tfdoctor does not take {flag}; use the command line for it")
    return dict(ctx.params)


def magic(line: str) -> Optional[NotebookReport]:
    """``%tfdoctor [check options]``: the report, or one error line on stderr (no traceback)."""
    try:
        params = _check_params(line)
        return check(
            *(params["ids"] or ()),
            static=params["static"],
            timeout=params["timeout"],
            python=params["python"],
            facts=params["facts_file"],
            matrix=params["matrix"],
            require_gpu=params["require_gpu"],
            against=params["against"],
            strict=params["strict"],
            verbose=params["verbose"],
        )
    except DoctorError as exc:
        message = str(exc)
    except Exception as exc:
        # click's errors (typer vendors click from 0.28, so they are told by their methods):
        # a usage error formats its message; --help raises Exit, having printed its text.
        format_message = getattr(exc, "format_message", None)
        if callable(format_message):
            message = str(format_message())
        elif hasattr(exc, "exit_code"):
            return None
        else:
            raise
    print(f"tfdoctor: error: {message}", file=sys.stderr)
    return None


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext tfdoctor``: register the ``%tfdoctor`` line magic on the running shell."""
    ipython.register_magic_function(magic, magic_kind="line", magic_name="tfdoctor")
