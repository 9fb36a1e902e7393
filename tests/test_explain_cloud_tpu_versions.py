"""ctpu, Cloud TPU's command line tool, refusing a TensorFlow version the service does not
offer as a TPU software version (tools/ctpu/commands/up.go, ConfigureTFVersion: "%q
TensorFlow version not available; to see available versions, execute ctpu tf-versions"):
the platform has no image for the release, and the fix is one it lists. The lines are written
here in ctpu's words, with its log package's date prefix.
"""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error


@pytest.mark.parametrize(
    ("line", "version"),
    [
        (
            '2020/06/02 09:12:44 "2.3" TensorFlow version not available; to see available '
            "versions, execute ctpu tf-versions\n",
            "2.3",
        ),
        (
            '"1.13.2" TensorFlow version not available; to see available versions, execute '
            "ctpu tf-versions\n",
            "1.13.2",
        ),
    ],
)
def test_a_version_cloud_tpu_does_not_offer_is_the_platforms_image(line: str, version: str) -> None:
    top = top_error(explained(line))
    assert top.cause == "platform-image-unavailable"
    text = fix_text(top)
    assert f"TensorFlow {version}" in text and "ctpu tf-versions" in text
    assert "SageMaker" not in text and "pip install" not in text
    # ctpu checks the version against the service's list (c.tpu.ListVersions()), not a list
    # of its own: updating ctpu offers nothing more.
    assert "update ctpu" not in text
