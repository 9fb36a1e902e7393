"""tfdoctor: an environment doctor for TensorFlow.

Importing this package stays light: it never imports TensorFlow, which only ever runs in
child interpreters.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
