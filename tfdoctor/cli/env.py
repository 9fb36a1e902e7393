"""``tfdoctor env``: the environment variables TensorFlow should start with here."""

from __future__ import annotations

import enum
from typing import Optional

import typer

from tfdoctor import __version__
from tfdoctor.cli.options import EXAMINE_OPTION, facts_option
from tfdoctor.cli.output import doctor_errors, fail, print_out
from tfdoctor.defaults import ExitCode


class Shell(str, enum.Enum):
    """Shells ``tfdoctor env`` writes for (``tfdoctor.render.envfile.SHELLS``)."""

    sh = "sh"
    bash = "bash"
    zsh = "zsh"
    dash = "dash"
    fish = "fish"
    powershell = "powershell"


def env_command(
    shell: Optional[Shell] = typer.Option(  # noqa: B008 - typer's declaration style
        None,
        "--shell",
        help="Shell syntax: sh, bash, zsh or dash (the same export lines; the default), fish, "
        "powershell.",
    ),
    dockerfile: bool = typer.Option(False, "--dockerfile", help="Print Dockerfile ENV lines."),
    dotenv: bool = typer.Option(False, "--dotenv", help="Print a dotenv file (NAME=value)."),
    async_allocator: bool = typer.Option(
        False,
        "--async-allocator",
        help="Also use CUDA's async allocator (TF_GPU_ALLOCATOR=cuda_malloc_async).",
    ),
    log_level: Optional[int] = typer.Option(
        None,
        "--log-level",
        metavar="N",
        help="Also set TF_CPP_MIN_LOG_LEVEL: 0 all, 1 no INFO, 2 no WARNING, 3 no ERROR.",
    ),
    python: str = EXAMINE_OPTION,
    facts_file: Optional[str] = facts_option("Use"),
) -> None:
    """Environment variables TensorFlow should start with here: eval "$(tfdoctor env)".

    Memory growth always; the async allocator and log level when asked; XLA's libdevice
    directory and the pip CUDA libraries' LD_LIBRARY_PATH when TensorFlow would miss them.
    """
    from tfdoctor.env.service import environment_for

    if dockerfile and dotenv:
        raise fail("--dockerfile and --dotenv ask for different outputs")
    if shell is not None and (dockerfile or dotenv):
        raise fail("--shell and --dockerfile/--dotenv ask for different outputs")
    fmt = "dockerfile" if dockerfile else "dotenv" if dotenv else (shell or Shell.sh).value
    with doctor_errors():
        settings = environment_for(
            python, facts_file, async_allocator=async_allocator, log_level=log_level
        )
    from tfdoctor.render.envfile import EnvFormatError, render_env

    try:
        text = render_env(settings, fmt, __version__)
    except EnvFormatError as exc:
        raise fail(str(exc)) from None
    print_out(text, nl=False)
    raise typer.Exit(ExitCode.OK)


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("env", short_help="The environment variables TensorFlow should start with here.")(
        env_command
    )
