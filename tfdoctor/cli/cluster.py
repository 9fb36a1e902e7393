"""``tfdoctor cluster``: pre-flight for multi-worker tf.distribute training (a command group)."""

from __future__ import annotations

import os
import sys
from contextlib import nullcontext
from typing import Any, Optional

import typer

from tfdoctor import __version__
from tfdoctor.cli.options import (
    COLOR_OPTION,
    JSON_OPTION,
    chosen_format,
    format_option,
    interpreter_option,
    require_python,
)
from tfdoctor.cli.output import emit_report, fail, now, spinner, use_color

cluster_app = typer.Typer(
    help="Pre-flight for multi-worker training with tf.distribute (TF_CONFIG, Slurm, Kubernetes).",
    no_args_is_help=True,
    rich_markup_mode=None,
)

TIMEOUT_OPTION: Any = typer.Option(
    60.0,
    "--timeout",
    metavar="SECONDS",
    help="Time allowed per step (strategy start, each all-reduce); then the missing task is named.",
)
#: The longest --wait-dns: an hour, far beyond any pod's start.
MAX_WAIT_DNS = 3600.0

FULL_OPTION: Any = typer.Option(
    False, "--full", help="Sweep all-reduce sizes from 4 B to 64 MiB (default: up to 16 MiB)."
)


def _smoke_options(python: str, timeout: float, full: bool) -> Any:
    from tfdoctor.cluster import DEFAULT_SIZES, FULL_SIZES, SmokeOptions

    if timeout <= 0:
        raise fail("--timeout must be positive")
    require_python(python)
    return SmokeOptions(python=python, timeout=timeout, sizes=FULL_SIZES if full else DEFAULT_SIZES)


@cluster_app.command("check", short_help="Validate this worker's cluster description.")
def cluster_check_command(
    tf_config: Optional[str] = typer.Option(
        None,
        "--tf-config",
        metavar="FILE",
        help="Validate this TF_CONFIG document ('-' reads stdin) instead of $TF_CONFIG.",
    ),
    wait_dns: float = typer.Option(
        0.0,
        "--wait-dns",
        metavar="SECONDS",
        help="Look up a name that does not resolve yet again until it does, for this long "
        "(the pods of a job appear in DNS as they start).",
    ),
    json_out: bool = JSON_OPTION,
    output_format: str = format_option("cluster"),
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Validate this worker's cluster description; TensorFlow is not imported, nothing connects.

    Exits 0 when it is a valid cluster, 2 on errors, 3 when --tf-config cannot be read.
    """
    if not 0 <= wait_dns <= MAX_WAIT_DNS:
        raise fail(f"--wait-dns must be between 0 and {MAX_WAIT_DNS:g} seconds")
    from tfdoctor.bounded import InputError
    from tfdoctor.cluster import NameLookup, check_report, read_tf_config, system_resolver

    env = dict(os.environ)
    if tf_config is not None:
        try:
            env["TF_CONFIG"] = read_tf_config(tf_config)
        except InputError as exc:
            raise fail(str(exc)) from None
    status = spinner() if use_color(sys.stderr) else None
    with status if status is not None else nullcontext():
        lookup = NameLookup(
            progress=None
            if status is None
            else lambda done, total: status.update(f"tfdoctor: resolving host names {done}/{total}")
        )
        report = check_report(env, system_resolver, __version__, now(), lookup, wait_dns)
    fmt = chosen_format(output_format, json_out)
    raise typer.Exit(emit_report(report, fmt, color, "cluster check"))


@cluster_app.command("smoke", short_help="Check, all-reduce and bandwidth on every worker.")
def cluster_smoke_command(
    timeout: float = TIMEOUT_OPTION,
    full: bool = FULL_OPTION,
    python: str = interpreter_option("Run the worker in this interpreter's TensorFlow."),
    json_out: bool = JSON_OPTION,
    output_format: str = format_option("cluster"),
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Run on every worker under its launcher: check, all-reduce, bandwidth, fleet report."""
    from tfdoctor.cluster import smoke_report, system_resolver

    options = _smoke_options(python, timeout, full)
    report = smoke_report(dict(os.environ), options, system_resolver, __version__, now())
    fmt = chosen_format(output_format, json_out)
    raise typer.Exit(emit_report(report, fmt, color, "cluster smoke"))


@cluster_app.command("local", short_help="Run N loopback workers and smoke them.")
def cluster_local_command(
    workers: int = typer.Option(2, "--workers", "-n", min=1, max=16, help="Worker processes."),
    timeout: float = TIMEOUT_OPTION,
    full: bool = FULL_OPTION,
    python: str = interpreter_option("Run the workers in this interpreter's TensorFlow."),
    json_out: bool = JSON_OPTION,
    output_format: str = format_option("cluster"),
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Start N workers on free loopback ports, each with its own TF_CONFIG, and smoke them."""
    from tfdoctor.cluster import local_report

    options = _smoke_options(python, timeout, full)
    report = local_report(workers, options, __version__, now())
    fmt = chosen_format(output_format, json_out)
    raise typer.Exit(emit_report(report, fmt, color, "cluster local"))


def register(app: typer.Typer) -> None:
    """Add the group to ``app``."""
    app.add_typer(
        cluster_app,
        name="cluster",
        short_help="Pre-flight for multi-worker tf.distribute training.",
    )
