"""The ``tfdoctor`` executable's entry point (``tfdoctor = "tfdoctor.entry:main"``): the
command line's fast path, :mod:`tfdoctor.cli.fast`."""

from __future__ import annotations

from tfdoctor.cli.fast import main

__all__ = ["main"]
