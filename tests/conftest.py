"""Shared pytest configuration."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

# The tests import the package from the checkout even when it is not installed.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


_CACHE: list[str] = []


def pytest_configure(config: object) -> None:
    """The tests' validated-data cache is their own, not the user's (every child inherits it)."""
    if "TFDOCTOR_CACHE_DIR" not in os.environ:
        _CACHE.append(tempfile.mkdtemp(prefix="tfdoctor-test-cache-"))
        os.environ["TFDOCTOR_CACHE_DIR"] = _CACHE[0]


def pytest_unconfigure(config: object) -> None:
    for path in _CACHE:
        shutil.rmtree(path, ignore_errors=True)


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
