"""Renderers: format a report as text, JSON or markdown. Formatting only.

Import the renderer you need (``tfdoctor.render.text`` ...): this package imports none of
them, so JSON output never pays for loading rich.
"""
