"""``tfdoctor matrix`` output: the lines as a table or as JSON, with the query's verdicts.

Formatting only: the verdicts come from :mod:`tfdoctor.compat`.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from typing import Any, Callable, Optional

from tfdoctor.compat import (
    CompanionAnswer,
    Target,
    Verdict,
    best_of,
    describe_target,
    driver_floor,
    install_requirement,
    ptx_driver_floor,
)
from tfdoctor.matrix import PLATFORMS, Matrix, TFLine, parse_arch
from tfdoctor.render._common import wrap_at_spaces


def _short_arch(arch: str) -> str:
    parsed = parse_arch(arch)
    if parsed is None:
        return arch
    _, major, minor, specific = parsed
    return f"{major}.{minor}{'a' if specific else ''}"


def _bounds(spec: Optional[str]) -> str:
    """A specifier with its lower bounds first (``>=1.23.5,<2.0.0``), for reading."""
    if not spec:
        return "-"
    parts = spec.split(",")
    return ",".join(sorted(parts, key=lambda p: (not p.startswith(">"), p)))


def gpu_code_summary(line: TFLine) -> str:
    """``5.0 6.0 7.0 8.0 +PTX 9.0``: the capabilities with machine code, then PTX."""
    caps = line.compute_capabilities
    if caps is None:
        return "-" if line.cuda is None else "?"
    sass = [_short_arch(a) for a in caps.sass]
    ptx = [_short_arch(a) for a in caps.ptx]
    text = " ".join(sass)
    if ptx and ptx == sass:
        text += " (+PTX each)"
    elif ptx:
        text += " +PTX " + " ".join(ptx)
    return text.strip()


def line_json(matrix: Matrix, verdict: Verdict, target: Target) -> dict[str, Any]:
    """One line as a JSON object (the keys are documented in docs/compatibility.md)."""
    line = verdict.line
    linux = driver_floor(matrix, line, "linux")
    windows = driver_floor(matrix, line, "windows") if line.windows_native_gpu else None
    ptx = ptx_driver_floor(matrix, line, "linux")
    caps = line.compute_capabilities
    return {
        "tensorflow": line.line,
        "latest_patch": line.latest_patch,
        "pre_release": line.pre_release,
        "requires_python": line.requires_python,
        "python": list(line.python["linux-x86_64"]),
        "python_by_platform": {k: list(v) for k, v in line.python.items()},
        "glibc_min": line.glibc_min,
        "cuda": line.cuda,
        "cudnn": line.cudnn,
        "min_driver_linux": linux.version if linux else None,
        "min_driver_windows": windows.version if windows else None,
        "min_driver_ptx_linux": ptx.version if ptx else None,
        "compute_capabilities": (
            {"sass": list(caps.sass), "ptx": list(caps.ptx)} if caps is not None else None
        ),
        "numpy": line.pins.numpy,
        "protobuf": line.pins.protobuf,
        "keras": line.pins.keras,
        "tf_keras": line.pins.tf_keras,
        "ml_dtypes": line.pins.ml_dtypes,
        "and_cuda": dict(line.and_cuda) if line.and_cuda is not None else None,
        "gpu_package": dict(line.gpu_package),
        "cuda_builds": list(line.cuda_builds),
        "windows_native_gpu": line.windows_native_gpu,
        "wrappers": dict(line.wrappers),
        "fits": verdict.fits,
        "reasons": list(verdict.reasons),
        "caveats": list(verdict.notes),
        "install": install_requirement(line, target) if verdict.fits else None,
        "known_gpu_failures": dict(line.known_gpu_failures),
        "notes": list(line.notes),
        "sources": {
            fact: [matrix.sources[s].url_for(line) for s in ids]
            for fact, ids in sorted(line.sources.items())
        },
    }


def render_matrix_json(matrix: Matrix, verdicts: Sequence[Verdict], target: Target) -> str:
    """The JSON list, one object per line, newest first; ends in a newline."""
    data = [line_json(matrix, v, target) for v in verdicts]
    return json.dumps(data, indent=2) + "\n"


def render_matrix_text(
    matrix: Matrix,
    verdicts: Sequence[Verdict],
    target: Target,
    *,
    asked: bool,
    color: bool = False,
    width: int = 100,
    pre: bool = False,
) -> str:
    """The table (lines that fit, newest first) and, for a query, the excluded lines and why;
    the newest fit a pre-release line only with ``pre``.

    Nothing a reader may copy is cut inside: a version range, a requirement or a driver
    version stays whole; only the GPU code column and the prose wrap, at spaces.
    """
    from rich.console import Console  # noqa: PLC0415 - only text output pays for rich
    from rich.text import Text  # noqa: PLC0415

    out = io.StringIO()
    console = Console(
        file=out,
        width=width,
        color_system="standard" if color else None,
        force_terminal=color,
        no_color=not color,
        highlight=False,
        emoji=False,
        # Requirements such as tensorflow[and-cuda] are text, not rich markup.
        markup=False,
    )

    def say(text: str, style: Optional[str] = None, hang: str = "") -> None:
        for part in wrap_at_spaces(text, width, hang):
            console.print(Text(part, style=style or ""), soft_wrap=True)

    plat = target.platform or "linux-x86_64"
    os_name = PLATFORMS.get(plat, "linux")
    fitting = [v for v in verdicts if v.fits]
    excluded = [v for v in verdicts if not v.fits]
    if asked:
        title = f"TensorFlow for {describe_target(target)}"
        if not fitting:
            title += ": no release fits"
    else:
        title = f"TensorFlow compatibility ({len(verdicts)} release lines)"
    say(title, "bold" if color else None)
    if fitting:
        say(
            f"Python: wheels on {plat}; driver: the oldest for the CUDA build on {os_name}; "
            "GPU code: compute capabilities with machine code, +PTX for JIT."
        )
        rows = []
        for verdict in fitting:
            line = verdict.line
            wheels = line.python.get(plat, ())
            floor = driver_floor(matrix, line, os_name) if os_name != "macos" else None
            rows.append(
                (
                    line.line,
                    line.latest_patch,
                    f"{wheels[0]}-{wheels[-1]}" if wheels else "-",
                    line.cuda or "-",
                    line.cudnn or "-",
                    floor.version if floor else "-",
                    gpu_code_summary(line),
                    _bounds(line.pins.numpy),
                    _bounds(line.pins.keras),
                )
            )
        header, *body = _table(_COLUMNS, rows, _COLUMNS.index("GPU code"), width)
        console.print(Text(header, style="bold" if color else ""), soft_wrap=True)
        for row_line in body:
            console.print(Text(row_line), soft_wrap=True)
    pre_lines = [v.line for v in fitting if v.line.pre_release]
    if pre_lines:
        say(
            "Pre-release: "
            + ", ".join(f"{line.line} ({line.latest_patch})" for line in pre_lines)
            + ("; for testing." if pre else "; not recommended until its final release.")
        )
    best = best_of(verdicts, pre) if asked else None
    if best is not None:
        console.print()
        # A command: printed whole, however narrow the terminal.
        console.print(
            Text(f'Newest fit: pip install "{install_requirement(best.line, target)}"'),
            soft_wrap=True,
        )
    if asked:
        _grouped(say, "Notes", [(v.line.line, n) for v in fitting for n in v.notes])
        _grouped(say, "Excluded", [(v.line.line, "; ".join(v.reasons)) for v in excluded])
    return out.getvalue()


_COLUMNS = ("TF", "latest", "Python", "CUDA", "cuDNN", "driver", "GPU code", "numpy", "keras")


def _table(
    header: Sequence[str], rows: Sequence[Sequence[str]], wrapped: int, width: int
) -> list[str]:
    """Columns two spaces apart, each as wide as its widest cell; only column ``wrapped``
    wraps, at spaces, into what ``width`` leaves it (never narrower than its longest word).

    A plain table rather than rich's: rich squeezes a too-wide table by folding cells
    mid-word, which cut ``<2.10.0`` in two when the output went to a pipe.
    """
    # "+PTX" stays with the architecture it names: joined by a no-break space while wrapping
    # (textwrap breaks only at ASCII whitespace).
    glued = [row[wrapped].replace("+PTX ", "+PTX\u00a0") for row in (header, *rows)]
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    others = sum(w for i, w in enumerate(widths) if i != wrapped) + 2 * (len(header) - 1)
    longest_word = max(len(word) for cell in glued for word in cell.split(" "))
    widths[wrapped] = min(widths[wrapped], max(width - others, longest_word))
    lines = []
    for row, cell in zip((header, *rows), glued):
        parts = [p.replace("\u00a0", " ") for p in wrap_at_spaces(cell, widths[wrapped])]
        for n, part in enumerate(parts):
            cells = [part if i == wrapped else row[i] if n == 0 else "" for i in range(len(row))]
            lines.append("  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip())
    return lines


def _grouped(say: Callable[..., None], title: str, items: Sequence[tuple[str, str]]) -> None:
    """``title:`` then each distinct text once, after the lines it applies to."""
    if not items:
        return
    lines_of: dict[str, list[str]] = {}
    for line_name, text in items:
        lines_of.setdefault(text, []).append(line_name)
    say("")
    say(f"{title}:")
    for text, names in lines_of.items():
        say(f"  {', '.join(names)}: {text}", hang="  ")


def companion_json(answer: CompanionAnswer) -> dict[str, Any]:
    """A companion query's answer as JSON (the keys are documented in docs/compatibility.md)."""
    comp = answer.companion
    return {
        "companion": comp.name,
        "tensorflow": answer.tensorflow,
        "release": answer.release,
        "pre": answer.pre,
        "pinned": answer.pinned,
        "end_of_life": comp.end_of_life or None,
        "sources": list(answer.sources),
        "matches": [
            {
                "release": m.release.release,
                "tensorflow": m.release.tensorflow,
                "python": m.release.python or None,
                "note": m.release.note or None,
                "install": m.install,
                "tensorflow_lines": list(m.tensorflow_lines),
                "sources": list(m.sources),
            }
            for m in answer.matches
        ],
    }


def render_companion_json(answer: CompanionAnswer) -> str:
    """The answer as one JSON object; ends in a newline."""
    return json.dumps(companion_json(answer), indent=2) + "\n"


def render_companion_text(answer: CompanionAnswer, width: int = 100) -> str:
    """The releases that answer the query, newest first: each with the TensorFlow range it
    declares, the lines of the matrix it serves, the command that installs it, its sources."""
    comp = answer.companion
    lines: list[str] = []

    def say(text: str, hang: str = "") -> None:
        lines.extend(wrap_at_spaces(text, width, hang))

    if answer.tensorflow is not None:
        title = f"{comp.name} for TensorFlow {answer.tensorflow}"
    elif answer.release is not None:
        title = f"TensorFlow for {comp.name} {answer.release}"
    elif answer.pinned:
        title = f"{comp.name}: the range each TensorFlow line's wheel pins"
    else:
        title = f"{comp.name} releases and the TensorFlow each declares"
    say(title + ("" if answer.matches else ": no release known"))
    if comp.end_of_life:
        say(f"End of life: {comp.end_of_life}")
    if not answer.matches and answer.sources:
        say(f"Sources: {', '.join(answer.sources)}", hang="    ")
    for m in answer.matches:
        row = m.release
        say("")
        served = ", ".join(m.tensorflow_lines) or "none in the matrix"
        say(f"{comp.name} {row.release}: tensorflow{row.tensorflow} (TensorFlow lines: {served})")
        if row.python:
            say(f"  Python: {row.python}", hang="  ")
        if row.note:
            say(f"  Note: {row.note}", hang="  ")
        # A command: printed whole, however narrow the terminal.
        lines.append(f'  pip install "{m.install}"')
        say(f"  Sources: {', '.join(m.sources)}", hang="    ")
    return "\n".join(lines) + "\n"
