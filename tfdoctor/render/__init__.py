"""Renderers: a :class:`~tfdoctor.findings.Report` in, a string out; they never print or probe."""

from __future__ import annotations

from tfdoctor.render.jsonout import render_json
from tfdoctor.render.markdown import render_markdown
from tfdoctor.render.text import render_text

__all__ = ["render_json", "render_markdown", "render_text"]
