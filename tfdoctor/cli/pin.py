"""``tfdoctor pin``: pinned requirements for this setup, or for a target."""

from __future__ import annotations

import datetime
import sys
from typing import TYPE_CHECKING, Optional

import typer

from tfdoctor import __version__
from tfdoctor.cli.options import MATRIX_OPTION, facts_option, interpreter_option
from tfdoctor.cli.output import doctor_errors, fail, print_out
from tfdoctor.defaults import ExitCode
from tfdoctor.shellword import shell_word

if TYPE_CHECKING:
    from tfdoctor.pin.service import PinOptions


def pin_command(
    output: Optional[str] = typer.Option(
        None, "--output", "-o", metavar="FILE", help="Write FILE (atomically), not stdout."
    ),
    all_packages: bool = typer.Option(
        False, "--all", help="Pin every installed distribution, not only TensorFlow's."
    ),
    python_version: Optional[str] = typer.Option(
        None, "--python-version", metavar="X.Y", help="Pin for this Python version (target mode)."
    ),
    platform: Optional[str] = typer.Option(
        None, "--platform", metavar="OS", help="Target platform: linux, windows, macos ..."
    ),
    cuda: Optional[str] = typer.Option(
        None, "--cuda", metavar="X.Y", help="Target: an installed CUDA toolkit version."
    ),
    driver: Optional[str] = typer.Option(
        None, "--driver", metavar="VERSION", help="Target NVIDIA driver version."
    ),
    gpu: Optional[str] = typer.Option(
        None, "--gpu", metavar="CC|NAME", help="Target GPU: compute capability or model name."
    ),
    resolve: bool = typer.Option(
        False,
        "--resolve",
        help="Target mode: pin every package exactly (==) as pip's resolver picks them for the "
        "target; reads the package index (network). Without it a target gets ranges, offline.",
    ),
    index_url: Optional[str] = typer.Option(
        None,
        "--index-url",
        metavar="URL",
        help="The package index --resolve and --hashes read (default: PyPI).",
    ),
    hashes: bool = typer.Option(
        False,
        "--hashes",
        help="Add sha256 hashes of every file of each pinned release from the package index "
        "(network); exact pins only (an environment, or a target with --resolve).",
    ),
    python: str = interpreter_option(
        "Pin this interpreter's environment; in target mode it fills what the target leaves out."
    ),
    facts_file: Optional[str] = facts_option("Pin from"),
    matrix: Optional[str] = MATRIX_OPTION,
) -> None:
    """Pinned requirements reproducing this TensorFlow setup, or the newest fitting a target.

    The package index is read only with --resolve or --hashes. Exits 0; 2 when nothing can be
    pinned (nothing fits; with --resolve, pip finds no wheels that install); 3 on bad input,
    an index that cannot be reached, pip missing or older than 22.2, or an unwritable FILE
    (left as is).
    """
    from tfdoctor.pin import PinError
    from tfdoctor.pin.atomic import write_atomic
    from tfdoctor.pin.service import PinOptions, make_pins

    options = PinOptions(
        python=python,
        all_packages=all_packages,
        python_version=python_version,
        platform=platform,
        cuda=cuda,
        driver=driver,
        gpu=gpu,
        hashes=hashes,
        facts_file=facts_file,
        matrix=matrix,
        resolve=resolve,
        index_url=index_url,
    )
    try:
        with doctor_errors():
            pinset = make_pins(options)
    except PinError as exc:
        typer.echo(f"tfdoctor: {exc}", err=True)
        for reason in exc.reasons:
            typer.echo(f"  {reason}", err=True)
        raise typer.Exit(ExitCode.ERRORS) from None
    from tfdoctor.render.requirements import render_requirements

    text = render_requirements(
        pinset,
        version=__version__,
        date=datetime.date.today().isoformat(),
        command=command_line(options, output),
    )
    for warning in pinset.warnings:
        typer.echo(f"tfdoctor: warning: {warning}", err=True)
    if output is None:
        print_out(text, nl=False)
        raise typer.Exit(ExitCode.OK)
    try:
        write_atomic(output, text)
    except (OSError, ValueError) as exc:
        raise fail(f"cannot write {output}: {exc}") from None
    raise typer.Exit(ExitCode.OK)


def command_line(options: PinOptions, output: Optional[str]) -> str:
    """The ``tfdoctor pin`` command that reproduces this output, for the file's header."""
    from tfdoctor.render.requirements import display_path

    def path(value: Optional[str]) -> Optional[str]:
        # The file is committed: this machine's absolute paths say nothing elsewhere.
        if value is None or value == "-":
            return value
        return display_path(value)

    words = ["tfdoctor", "pin"]
    flags = (
        ("--all", options.all_packages),
        ("--resolve", options.resolve),
        ("--hashes", options.hashes),
    )
    words.extend(flag for flag, on in flags if on)
    index_url = options.index_url
    if index_url is not None:
        from tfdoctor.pin.resolve import display_url

        index_url = display_url(index_url)  # a token in it must not go into the file
    valued = (
        ("--index-url", index_url),
        ("--python-version", options.python_version),
        ("--platform", options.platform),
        ("--cuda", options.cuda),
        ("--driver", options.driver),
        ("--gpu", options.gpu),
        ("--facts", path(options.facts_file)),
        ("--matrix", path(options.matrix)),
        ("--python", None if options.python == sys.executable else path(options.python)),
        ("-o", path(output)),
    )
    words.extend(f"{flag} {shell_word(value)}" for flag, value in valued if value is not None)
    return " ".join(words)


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("pin", short_help="Pinned requirements for this setup, or for a target.")(
        pin_command
    )
