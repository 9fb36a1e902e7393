"""The report as one self-contained HTML page: findings and fixes, facts, and charts drawn as
inline SVG (the smoke test's throughput against peak, the all-reduce bandwidth, the fleet's
facts). No script, no external style, font or image: it opens offline, prints, and reads the
same with JavaScript off. Every value is redacted (private mode, as the paste-ready markdown)
and HTML-escaped. Formatting only."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Optional

from tfdoctor.facts import Facts, SmokeDevice, SmokeFacts
from tfdoctor.findings import (
    BandwidthPoint,
    CollectiveImplementation,
    Finding,
    FleetTable,
    LinkPoint,
    Report,
    Severity,
)
from tfdoctor.redact import MASK, Redactor, is_secret_name
from tfdoctor.render._common import counts_phrase, exit_phrase, facts_sections, group_by_area
from tfdoctor.render.smoke import RESULT_HEADER, rate, result_cells, smoke_lines
from tfdoctor.units import bandwidth_text, size_text

#: Inline styles: screen and print (https://developer.mozilla.org/docs/Web/CSS/@media).
_CSS = """
:root { color-scheme: light; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0;
  color: #1b1f24; background: #fff; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; }
h2 { font-size: 1.25rem; border-bottom: 1px solid #d0d7de; padding-bottom: .2rem;
  margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 0 0 .4rem; }
code, pre { font: 13px/1.4 ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 4px; padding: .6rem;
  overflow-x: auto; white-space: pre-wrap; word-break: break-word; }
pre.fix { background: #eef6ee; border-color: #9cc59c; user-select: all; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid #d0d7de; padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
.sev { display: inline-block; min-width: 4.5rem; font-weight: 600; text-transform: uppercase;
  font-size: .8rem; }
.sev-error .sev { color: #b00020; } .sev-warning .sev { color: #9a6700; }
.sev-unknown .sev { color: #6e40c9; } .sev-info .sev { color: #0550ae; }
.sev-ok .sev { color: #1a7f37; }
article.finding { border-left: 4px solid #d0d7de; padding: .4rem .8rem; margin: 1rem 0; }
article.sev-error { border-color: #b00020; } article.sev-warning { border-color: #bf8700; }
article.sev-unknown { border-color: #8250df; } article.sev-info { border-color: #0969da; }
.chart { max-width: 100%; height: auto; }
.chart text { font: 11px system-ui, sans-serif; fill: #1b1f24; }
.chart .bar { fill: #0969da; } .chart .over { fill: #1a7f37; }
.chart .peak { stroke: #b00020; stroke-width: 2; stroke-dasharray: 4 3; }
.chart .axis { stroke: #57606a; } .chart .grid { stroke: #d0d7de; }
.chart .line { fill: none; stroke: #0969da; stroke-width: 2; }
.chart .point { fill: #0969da; }
td.odd { background: #ffebe9; font-weight: 600; } tr.differs th { color: #b00020; }
tr.slow td { background: #ffebe9; font-weight: 600; }
.muted { color: #57606a; }
@media print {
  body { font-size: 11pt; } main { max-width: none; padding: 0; }
  article.finding, figure, table { break-inside: avoid; }
  pre { overflow: visible; }
  a[href^="http"]::after { content: " (" attr(href) ")"; font-size: 9pt; }
}
"""


def render_html(
    report: Report,
    version: str,
    *,
    command: str = "check",
    strict: bool = False,
    redactor: Optional[Redactor] = None,
) -> str:
    """The report as one HTML page; ``redactor`` defaults to private redaction for this machine."""
    redactor = redactor or Redactor.for_this_machine(private=True)
    safe = redactor.tree(report)
    title = f"tfdoctor {command} report"
    body: list[str] = [
        f"<h1>{_e(title)}</h1>",
        f'<p class="muted">tfdoctor {_e(version)}, {_e(safe.facts.collected_at)}</p>',
        f"<p><strong>{_e(counts_phrase(safe.findings))}</strong>; "
        f"{_e(exit_phrase(safe, strict))}.</p>",
    ]
    body += _findings(safe.findings)
    if safe.facts.smoke is not None:
        body += _smoke(safe.facts.smoke)
    if safe.bandwidth:
        body += _bandwidth(safe.bandwidth, safe.collective)
    if safe.links:
        body += _links(safe.links)
    if safe.fleet is not None:
        body += _fleet(safe.fleet)
    if _has_machine_facts(safe.facts):
        body += _facts(safe.facts)
    # Every string above came from the redacted copy and passed through _e: nothing the
    # machine reported can open a tag or an attribute.
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        # No network, no script: the page can be opened from a bug report safely.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">\n"
        f"<title>{_e(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n"
        + "\n".join(body)
        + "\n</main>\n</body>\n</html>\n"
    )


def _e(text: object) -> str:
    """``text`` escaped for an HTML element or a quoted attribute."""
    return escape(str(text), quote=True)


def _findings(findings: Sequence[Finding]) -> list[str]:
    """The findings table, then each finding that asks for action with its detail and fix."""
    out = ['<section id="findings">', "<h2>Findings</h2>"]
    ordered = [f for _, group in group_by_area(findings) for f in group]
    if not ordered:
        return [*out, "<p>No checks ran.</p>", "</section>"]
    out.append("<table><thead><tr><th>Severity</th><th>Check</th><th>Summary</th></tr></thead>")
    out.append("<tbody>")
    for f in ordered:
        out.append(
            f'<tr class="sev-{_e(f.severity.value)}"><td><span class="sev">'
            f"{_e(f.severity.value)}</span></td><td><code>{_e(f.id)}</code></td>"
            f"<td>{_e(f.summary)}</td></tr>"
        )
    out += ["</tbody></table>"]
    for f in ordered:
        if f.severity is not Severity.OK:
            out += _finding(f)
    return [*out, "</section>"]


def _finding(f: Finding) -> list[str]:
    """One finding: severity, id and summary, its detail, its fix with copyable commands."""
    cause = f' <span class="muted">(cause <code>{_e(f.cause)}</code>)</span>' if f.cause else ""
    out = [
        f'<article class="finding sev-{_e(f.severity.value)}">',
        f'<h3><span class="sev">{_e(f.severity.value)}</span> <code>{_e(f.id)}</code>: '
        f"{_e(f.summary)}{cause}</h3>",
    ]
    if f.fix is not None:
        out.append(f"<p><strong>Fix:</strong> {_e(f.fix.text)}</p>")
        if f.fix.commands:
            out.append(f'<pre class="fix">{_e(chr(10).join(f.fix.commands))}</pre>')
    if f.detail:
        # One line is prose; more is a log or a table whose lines only <pre> keeps.
        if "\n" in f.detail.strip("\n"):
            out.append(f'<pre class="detail">{_e(f.detail.strip(chr(10)))}</pre>')
        else:
            out.append(f"<p>{_e(f.detail)}</p>")
    links = [link for link in f.links if link.startswith(("https://", "http://"))]
    if links:
        items = ", ".join(f'<a href="{_e(link)}">{_e(link)}</a>' for link in links)
        out.append(f"<p>See: {items}</p>")
    return [*out, "</article>"]


def _has_machine_facts(facts: Facts) -> bool:
    """Whether the report probed a machine, as ``check`` does (every check reads Python's
    facts); the smoke test's, cluster and fleet reports show their own measurements."""
    return facts.python is not None


def _facts(facts: Facts) -> list[str]:
    """Every fact section as preformatted lines."""
    out = ['<section id="facts">', "<h2>Environment</h2>"]
    for section in facts_sections(facts, brief=False):
        out.append(f"<h3>{_e(section.title)}</h3>")
        lines = "\n".join(line[2:] if line.startswith("  ") else line for line in section.lines)
        out.append(f"<pre>{_e(lines or '(none)')}</pre>")
    return [*out, "</section>"]


# --- smoke: throughput against peak ------------------------------------------------------


def _smoke(smoke: SmokeFacts) -> list[str]:
    """Per device a bar chart of each kernel's throughput against its peak, and the table."""
    out = ['<section id="smoke">', "<h2>Smoke test</h2>"]
    out.append(f"<pre>{_e(chr(10).join(line.strip() for line in smoke_lines(smoke)[:1]))}</pre>")
    for device in smoke.devices:
        name = device.name + (f": {device.model}" if device.model else "")
        out.append(f"<h3>{_e(name)}</h3>")
        chart = _throughput_chart(device)
        if chart:
            out += [
                "<figure>",
                chart,
                f"<figcaption>Throughput of each kernel on {_e(device.name)}; the dashed "
                "line is the device's peak for that precision "
                f"({_e(device.peak_source or 'no peak known')}).</figcaption>",
                "</figure>",
            ]
        out.append("<table><thead><tr>")
        out.append("".join(f"<th>{_e(h)}</th>" for h in RESULT_HEADER) + "</tr></thead><tbody>")
        for result in device.results:
            cells = result_cells(device, result)
            out.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>")
        out.append("</tbody></table>")
        for result in device.results:
            text = "; ".join(t for t in (result.error or "", result.note) if t)
            if text:
                out.append(
                    f"<p><code>{_e(result.kernel)}/{_e(result.dtype)}</code>: {_e(text)}</p>"
                )
    return [*out, "</section>"]


_BAR_LEFT = 190
_BAR_WIDTH = 330
_BAR_ROW = 26


def _throughput_chart(device: SmokeDevice) -> str:
    """A horizontal bar per kernel that reported a throughput, with its peak as a dashed line."""
    rows = [r for r in device.results if r.throughput is not None]
    if not rows:
        return ""
    top = max(max(r.throughput or 0.0, r.peak or 0.0) for r in rows) or 1.0
    height = _BAR_ROW * len(rows) + 30
    width = _BAR_LEFT + _BAR_WIDTH + 170

    def x(value: float) -> float:
        return _BAR_LEFT + _BAR_WIDTH * value / top

    out = [
        f'<svg class="chart throughput" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>Throughput against peak on {_e(device.name)}</title>",
        f'<line class="axis" x1="{_BAR_LEFT}" y1="4" x2="{_BAR_LEFT}" y2="{height - 24}"/>',
    ]
    for i, r in enumerate(rows):
        y = 6 + i * _BAR_ROW
        value = r.throughput or 0.0
        label = f"{r.kernel} {r.dtype}"
        shown = rate(value)
        if r.fraction_of_peak is not None:
            shown += f" ({r.fraction_of_peak:.0%} of peak)"
        peak_text = f", peak {rate(r.peak)}" if r.peak else ", no peak known"
        over = " over" if r.peak and value > r.peak else ""
        out.append(
            f'<g class="kernel" data-kernel="{_e(r.kernel)}" data-dtype="{_e(r.dtype)}" '
            f'data-throughput="{value:.6g}"' + (f' data-peak="{r.peak:.6g}">' if r.peak else ">")
        )
        out.append(f"<title>{_e(label)}: {_e(rate(value))}{_e(peak_text)}</title>")
        out.append(f'<text x="{_BAR_LEFT - 6}" y="{y + 14}" text-anchor="end">{_e(label)}</text>')
        out.append(
            f'<rect class="bar{over}" x="{_BAR_LEFT}" y="{y + 3}" '
            f'width="{max(x(value) - _BAR_LEFT, 1.0):.1f}" height="{_BAR_ROW - 8}"/>'
        )
        if r.peak:
            px = x(r.peak)
            out.append(
                f'<line class="peak" x1="{px:.1f}" y1="{y}" x2="{px:.1f}" y2="{y + _BAR_ROW - 2}">'
                f"<title>peak {_e(rate(r.peak))}</title></line>"
            )
        out.append(
            f'<text class="value" x="{max(x(value), x(r.peak or 0.0)) + 6:.1f}" y="{y + 14}">'
            f"{_e(shown)}</text>"
        )
        out.append("</g>")
    out.append(
        f'<text x="{_BAR_LEFT}" y="{height - 8}">0</text>'
        f'<text x="{_BAR_LEFT + _BAR_WIDTH}" y="{height - 8}" text-anchor="middle">'
        f"{_e(rate(top))}</text>"
    )
    out.append("</svg>")
    return "\n".join(out)


# --- cluster: bus bandwidth against message size ----------------------------------------


def _spread_ms(low: float, high: float) -> str:
    """The fastest and slowest timed call, or a dash when they were not measured."""
    return f"{low * 1e3:.3f}-{high * 1e3:.3f} ms" if low and high else "-"


def _bandwidth(
    points: Sequence[BandwidthPoint], used: Optional[CollectiveImplementation] = None
) -> list[str]:
    """A line chart of bus bandwidth against message size (log x axis), and the table."""
    out = ['<section id="bandwidth">', "<h2>All-reduce bandwidth</h2>"]
    if used is not None:
        out.append(
            f'<p class="collective">Collective implementation: <strong>{_e(used.ran)}</strong> '
            f"on {_e(used.device)} ({used.ranks} ranks; configured {_e(used.configured)}).</p>"
        )
    out.append("<figure>")
    out.append(_bandwidth_chart(points))
    out.append(
        "<figcaption>Bus bandwidth of a sum all-reduce against message size (log scale), "
        "as nccl-tests defines it, at the median of the timed calls.</figcaption></figure>"
    )
    out.append(
        "<table><thead><tr><th>size</th><th>time (median)</th><th>min-max</th><th>timed</th>"
        "<th>algbw</th><th>busbw</th></tr></thead><tbody>"
    )
    for p in points:
        out.append(
            f"<tr><td>{_e(size_text(p.size))}</td><td>{p.seconds * 1e3:.3f} ms</td>"
            f"<td>{_e(_spread_ms(p.seconds_min, p.seconds_max))}</td><td>{p.iterations}</td>"
            f"<td>{_e(bandwidth_text(p.algbw))}</td><td>{_e(bandwidth_text(p.busbw))}</td></tr>"
        )
    return [*out, "</tbody></table>", "</section>"]


def _links(points: Sequence[LinkPoint]) -> list[str]:
    """The ring neighbours' point-to-point transfers, the slow link marked."""
    out = [
        '<section id="links">',
        "<h2>Links between ring neighbours</h2>",
        '<table class="links"><thead><tr><th>from</th><th>to</th><th>size</th><th>best</th>'
        "<th>median</th><th>min-max</th><th></th></tr></thead><tbody>",
    ]
    for p in points:
        cells = f"<td>{_e(p.source)}</td><td>{_e(p.target)}</td>"
        if p.error:
            out.append(f'<tr class="unmeasured">{cells}<td colspan="5">{_e(p.error)}</td></tr>')
            continue
        mark = ' class="slow"' if p.slow else ""
        out.append(
            f"<tr{mark}>{cells}<td>{_e(size_text(p.size))}</td>"
            f"<td>{_e(bandwidth_text(p.bandwidth))}</td><td>{p.seconds * 1e3:.3f} ms</td>"
            f"<td>{_e(_spread_ms(p.seconds_min, p.seconds_max))}</td>"
            f"<td>{'slow link' if p.slow else ''}</td></tr>"
        )
    return [*out, "</tbody></table>", "</section>"]


def _bandwidth_chart(points: Sequence[BandwidthPoint]) -> str:
    """The SVG: one point per size on a log-2 x axis, a line through them, titled values."""
    left, top, plot_w, plot_h = 80, 14, 520, 220
    width, height = left + plot_w + 30, top + plot_h + 60
    sizes = [math.log2(max(p.size, 1)) for p in points]
    low, high = min(sizes), max(sizes)
    span = (high - low) or 1.0
    peak = max(p.busbw for p in points) or 1.0

    def x(size: int) -> float:
        return left + plot_w * (math.log2(max(size, 1)) - low) / span

    def y(bps: float) -> float:
        return top + plot_h - plot_h * bps / (peak * 1.1)

    out = [
        f'<svg class="chart bandwidth" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">',
        "<title>All-reduce bus bandwidth against message size</title>",
    ]
    for i in range(5):
        value = peak * 1.1 * i / 4
        gy = y(value)
        out.append(
            f'<line class="grid" x1="{left}" y1="{gy:.1f}" x2="{left + plot_w}" y2="{gy:.1f}"/>'
            f'<text x="{left - 6}" y="{gy + 4:.1f}" text-anchor="end">'
            f"{_e(bandwidth_text(value))}</text>"
        )
    out.append(
        f'<line class="axis" x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" '
        f'y2="{top + plot_h}"/>'
    )
    # A label per size while they fit; every n-th when the sweep is long.
    step = max(1, math.ceil(len(points) / 9))
    for i, p in enumerate(points):
        if i % step == 0 or i == len(points) - 1:
            out.append(
                f'<text x="{x(p.size):.1f}" y="{top + plot_h + 16}" text-anchor="middle">'
                f"{_e(size_text(p.size))}</text>"
            )
    path = " ".join(f"{x(p.size):.1f},{y(p.busbw):.1f}" for p in points)
    out.append(f'<polyline class="line" points="{path}"/>')
    for p in points:
        out.append(
            f'<circle class="point" cx="{x(p.size):.1f}" cy="{y(p.busbw):.1f}" r="4" '
            f'data-size="{p.size}" data-busbw="{p.busbw:.6g}"><title>{_e(size_text(p.size))}: '
            f"bus bandwidth {_e(bandwidth_text(p.busbw))}, algorithm bandwidth "
            f"{_e(bandwidth_text(p.algbw))}, {p.seconds * 1e3:.3f} ms</title></circle>"
        )
    out.append(
        f'<text x="{left + plot_w / 2:.0f}" y="{height - 12}" text-anchor="middle">'
        "message size (log scale)</text>"
        f'<text x="14" y="{top + plot_h / 2:.0f}" text-anchor="middle" '
        f'transform="rotate(-90 14 {top + plot_h / 2:.0f})">bus bandwidth</text>'
    )
    out.append("</svg>")
    return "\n".join(out)


# --- fleet: the facts side by side ------------------------------------------------------


def _fleet(table: FleetTable) -> list[str]:
    """The compared facts, one column per node, the differing rows and odd nodes marked."""
    out = ['<section id="fleet">', "<h2>Fleet</h2>"]
    out.append(
        "<p>Facts that differ are marked <strong>&#x2260;</strong>; the node out of line "
        "(holding a value the majority does not) is highlighted.</p>"
    )
    out.append(
        '<table class="fleet"><thead><tr><th>fact</th>'
        + "".join(f"<th>{_e(node)}</th>" for node in table.nodes)
        + "</tr></thead><tbody>"
    )
    for row in table.rows:
        # A variable whose name says secret keeps no value here (the redactor masks such keys
        # in the facts; in the table they are row labels).
        masked = row.fact.startswith("$") and is_secret_name(row.fact)
        values = [MASK if masked else v for v in row.values]
        mark = "&#x2260; " if row.differs else ""
        cells = []
        for node, value in zip(table.nodes, values):
            if node in row.odd:
                cells.append(
                    f'<td class="odd" title="{_e(node)} is out of line">'
                    f'&#x26A0; {_e(value)} <span class="muted">(odd one out)</span></td>'
                )
            else:
                cells.append(f"<td>{_e(value)}</td>")
        cls = ' class="differs"' if row.differs else ""
        out.append(f"<tr{cls}><th>{mark}{_e(row.fact)}</th>{''.join(cells)}</tr>")
    return [*out, "</tbody></table>", "</section>"]
