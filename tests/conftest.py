"""Shared pytest configuration."""

from __future__ import annotations

import sys
from pathlib import Path

# The tests import the package from the checkout even when it is not installed.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
