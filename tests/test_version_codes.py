"""NVIDIA's version integers in dotted form (tfdoctor/version_codes.py)."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.version_codes import cuda_dotted, cudnn_dotted


@pytest.mark.parametrize(
    ("code", "dotted"),
    [
        pytest.param(12020, "12.2", id="12.2"),
        pytest.param(12040, "12.4", id="12.4"),
        pytest.param(11080, "11.8", id="11.8"),
        pytest.param(10010, "10.1", id="10.1"),
        pytest.param(9020, "9.2", id="9.2"),
        pytest.param(13000, "13.0", id="13.0"),
    ],
)
def test_cudas_version_integer_is_major_thousands_and_minor_tens(code: int, dotted: str) -> None:
    assert cuda_dotted(code) == dotted


@pytest.mark.parametrize(
    ("value", "dotted"),
    [
        pytest.param("8.9.4", "8.9.4", id="dotted"),
        pytest.param("7201", "7.2.1", id="cudnn7"),
        pytest.param("8600", "8.6.0", id="cudnn8"),
        pytest.param("90300", "9.3.0", id="cudnn9"),
        pytest.param("91001", "9.10.1", id="cudnn9-two-digit-minor"),
        pytest.param("", None, id="empty"),
        pytest.param(None, None, id="none"),
    ],
)
def test_cudnns_version_integer_by_its_major(value: Optional[str], dotted: Optional[str]) -> None:
    assert cudnn_dotted(value) == dotted
