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


@pytest.mark.parametrize(
    "line",
    [
        # ctpu's first releases named the VM a GCE Instance, later ones a Compute Engine one.
        "2018/05/14 08:01:02 could not create GCE Instance without a base image\n",
        "2019/02/11 16:40:09 could not create Compute Engine instance without a base image\n",
    ],
)
def test_no_vm_image_for_the_version_asks_for_one_whose_image_family_exists(line: str) -> None:
    log = (
        "$ ctpu up --tf-version=1.9\n"
        "2018/05/14 08:01:01 Creating Compute Engine VM demo (this may take a minute)...\n" + line
    )
    top = top_error(explained(log))
    assert top.cause == "platform-image-unavailable"
    text = fix_text(top)
    assert "ml-images" in text and "--gce-image" in text and "--tf-version" in text
    # Not the TPU's software version: the service offered this one.
    assert "ctpu tf-versions" not in text and "SageMaker" not in text
    # ctpu names a family by the patch from 2.4 (gceImageFamily), and returns no error of
    # the look-up's own (resolveImageFamily): a refused look-up reads the same.
    assert "tf-X-Y-Z" in text and "refused the look-up" in text
