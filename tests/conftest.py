"""Shared pytest configuration."""

from __future__ import annotations

import sys
from pathlib import Path

# The tests import the package from the checkout even when it is not installed.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def pytest_collection_modifyitems(config: object, items: list[object]) -> None:
    """Tests marked ``slow`` import the real TensorFlow in a child: without it they skip,
    with the reason, instead of failing (``.[test,tensorflow]`` installs it)."""
    import importlib.util

    import pytest

    if importlib.util.find_spec("tensorflow") is not None:
        return
    skip = pytest.mark.skip(reason="needs TensorFlow: pip install '.[test,tensorflow]'")
    for item in items:
        if item.get_closest_marker("slow") is not None:  # type: ignore[attr-defined]
            item.add_marker(skip)  # type: ignore[attr-defined]
