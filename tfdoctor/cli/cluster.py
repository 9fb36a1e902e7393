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
    False, "--full", help="Sweep all-reduce sizes from 4 B to 1 GiB (default: up to 16 MiB)."
)
#: nccl-tests' default iteration count (``-n 20``).
ITERATIONS_OPTION: Any = typer.Option(
    20,
    "--iterations",
    metavar="N",
    help="Timed all-reduces per size after one warm-up; the median and min-max are reported.",
)
MIN_BUSBW_OPTION: Any = typer.Option(
    None,
    "--min-busbw",
    metavar="GB/s",
    help="Fail (exit 2) when the largest size's median bus bandwidth is below this "
    "(GB/s = 1e9 bytes/s, as nccl-tests prints it).",
)
IMPLEMENTATION_OPTION: Any = typer.Option(
    "auto",
    "--implementation",
    metavar="auto|ring|nccl",
    help="The collective implementation (tf.distribute.experimental.CommunicationOptions).",
)
LINK_BYTES_OPTION: Any = typer.Option(
    4 * 1024 * 1024,
    "--link-bytes",
    metavar="BYTES",
    help="Bytes of each point-to-point transfer between ring neighbours; 0 skips the links.",
)
MAX_SIZE_OPTION: Any = typer.Option(
    None,
    "--max-size",
    metavar="BYTES",
    help="Stop the all-reduce sweep at this message size (a quick run on a slow network).",
)
#: The most bytes one neighbour transfer may carry (the size of the largest all-reduce).
MAX_LINK_BYTES = 1 << 30


def _smoke_options(
    python: str,
    timeout: float,
    full: bool,
    iterations: int,
    implementation: str,
    link_bytes: int,
    min_busbw: Optional[float],
    max_size: Optional[int] = None,
) -> Any:
    from tfdoctor.cluster import DEFAULT_SIZES, FULL_SIZES, IMPLEMENTATIONS, SmokeOptions

    if timeout <= 0:
        raise fail("--timeout must be positive")
    if iterations < 1:
        raise fail("--iterations must be at least 1")
    if implementation.lower() not in IMPLEMENTATIONS:
        raise fail(f"--implementation must be one of {', '.join(IMPLEMENTATIONS)}")
    if not 0 <= link_bytes <= MAX_LINK_BYTES:
        raise fail(f"--link-bytes must be between 0 and {MAX_LINK_BYTES}")
    if min_busbw is not None and not min_busbw > 0:
        raise fail("--min-busbw must be a positive number of GB/s")
    sizes: tuple[int, ...] = FULL_SIZES if full else DEFAULT_SIZES
    if max_size is not None:
        if max_size < sizes[0]:
            raise fail(f"--max-size must be at least {sizes[0]} bytes")
        sizes = tuple(s for s in sizes if s <= max_size)
    require_python(python)
    return SmokeOptions(
        python=python,
        timeout=timeout,
        sizes=sizes,
        iterations=iterations,
        implementation=implementation.lower(),
        link_bytes=link_bytes,
    )


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
    max_size: Optional[int] = MAX_SIZE_OPTION,
    iterations: int = ITERATIONS_OPTION,
    min_busbw: Optional[float] = MIN_BUSBW_OPTION,
    implementation: str = IMPLEMENTATION_OPTION,
    link_bytes: int = LINK_BYTES_OPTION,
    python: str = interpreter_option("Run the worker in this interpreter's TensorFlow."),
    json_out: bool = JSON_OPTION,
    output_format: str = format_option("cluster"),
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Run on every worker under its launcher: check, all-reduce, bandwidth, fleet report."""
    from tfdoctor.cluster import smoke_report, system_resolver

    options = _smoke_options(
        python, timeout, full, iterations, implementation, link_bytes, min_busbw, max_size
    )
    report = smoke_report(dict(os.environ), options, system_resolver, __version__, now(), min_busbw)
    fmt = chosen_format(output_format, json_out)
    raise typer.Exit(emit_report(report, fmt, color, "cluster smoke"))


@cluster_app.command("local", short_help="Run N loopback workers and smoke them.")
def cluster_local_command(
    workers: int = typer.Option(2, "--workers", "-n", min=1, max=16, help="Worker processes."),
    timeout: float = TIMEOUT_OPTION,
    full: bool = FULL_OPTION,
    max_size: Optional[int] = MAX_SIZE_OPTION,
    iterations: int = ITERATIONS_OPTION,
    min_busbw: Optional[float] = MIN_BUSBW_OPTION,
    implementation: str = IMPLEMENTATION_OPTION,
    link_bytes: int = LINK_BYTES_OPTION,
    python: str = interpreter_option("Run the workers in this interpreter's TensorFlow."),
    json_out: bool = JSON_OPTION,
    output_format: str = format_option("cluster"),
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Start N workers on free loopback ports, each with its own TF_CONFIG, and smoke them."""
    from tfdoctor.cluster import local_report

    options = _smoke_options(
        python, timeout, full, iterations, implementation, link_bytes, min_busbw, max_size
    )
    report = local_report(workers, options, __version__, now(), min_busbw=min_busbw)
    fmt = chosen_format(output_format, json_out)
    raise typer.Exit(emit_report(report, fmt, color, "cluster local"))


def register(app: typer.Typer) -> None:
    """Add the group to ``app``."""
    app.add_typer(
        cluster_app,
        name="cluster",
        short_help="Pre-flight for multi-worker tf.distribute training.",
    )
