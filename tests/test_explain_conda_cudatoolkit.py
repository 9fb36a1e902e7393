"""conda asked for a cudatoolkit of a CUDA major the package was never made for (it ends at
CUDA 11 on every platform: data/cuda.yaml's ``conda_cudatoolkit``): read from conda's own
refusal (PackagesNotFoundError, libsolv's "nothing provides requested") with the platform
conda solved for; on Windows no TensorFlow uses that CUDA either, elsewhere the CUDA release
comes under the names that replaced the package."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained, fix_text
from tfdoctor.cuda_layout import conda_cudatoolkit_end
from tfdoctor.evidence.packages import CondaMissingRelease, read_conda_missing_releases
from tfdoctor.findings import Finding, Report, Severity


def _refused(spec: str, platform_line: str) -> str:
    """conda 23's refusal of ``spec``, with ``platform_line`` under its channels."""
    return (
        "(tf) C:\\work>conda install -c conda-forge " + spec + " cudnn=8.9\n"
        "Channels:\n"
        " - conda-forge\n"
        " - defaults\n"
        f"{platform_line}\n"
        "Collecting package metadata (repodata.json): done\n"
        "Solving environment: failed\n"
        "\n"
        "PackagesNotFoundError: The following packages are not available from current "
        "channels:\n"
        "\n"
        f"  - {spec}*\n"
    )


def _older_conda(spec: str, subdir: str) -> str:
    """An older conda's refusal of ``spec``, naming the platform in each channel searched."""
    return (
        "PackagesNotFoundError: The following packages are not available from current "
        "channels:\n"
        "\n"
        f"  - {spec}\n"
        "\n"
        "Current channels:\n"
        "\n"
        f"  - https://conda.anaconda.org/conda-forge/{subdir}\n"
        "  - https://conda.anaconda.org/conda-forge/noarch\n"
    )


def _of(report: Report, cause: str) -> Optional[Finding]:
    return next((f for f in report.findings if f.cause == cause), None)


def test_the_data_says_where_cudatoolkit_ends() -> None:
    end = conda_cudatoolkit_end()
    assert end is not None
    last_major, successor, sources = end
    assert (last_major, successor) == (11, "cuda-version")
    assert sources and all(url.startswith("https://") for url in sources)


@pytest.mark.parametrize(
    ("text", "platform"),
    [
        (_refused("cudatoolkit=12.3", "Platform: win-64"), "win-64"),
        (_older_conda("conda-forge::cudatoolkit=12.1", "linux-64"), "linux-64"),
        (
            "error    libmamba Could not solve for environment specs\n"
            "    nothing provides requested cudatoolkit 12.0\n",
            "",
        ),
    ],
    ids=["platform-line", "channel-subdir", "libsolv"],
)
def test_conda_refusing_a_cudatoolkit_is_read_with_its_platform(text: str, platform: str) -> None:
    (found,) = read_conda_missing_releases((text,))
    assert found.dist == "cudatoolkit" and found.platform == platform
    assert found.version.startswith("12.")


def test_a_tensorflow_release_keeps_its_reading_and_gains_the_platform() -> None:
    text = _older_conda("tensorflow=1.7.0", "osx-64")
    assert read_conda_missing_releases((text,)) == [
        CondaMissingRelease("tensorflow", "1.7.0", "osx-64")
    ]


def test_cuda_12_asked_of_conda_on_windows_is_windows_native_gpu_ended() -> None:
    report = explained(_refused("cudatoolkit=12.3", "Platform: win-64"))
    found = _of(report, "windows-native-gpu-ended")
    assert found is not None and found.severity is Severity.ERROR
    assert "cudatoolkit 12.3" in found.summary and "CUDA 11" in found.detail
    text = fix_text(found)
    assert "WSL2" in text and "cudatoolkit=12" not in text
    assert _of(report, "pinned-release-not-published") is None


@pytest.mark.parametrize(
    "text",
    [
        _refused("cudatoolkit=12.3", "Platform: linux-64"),
        _older_conda("cudatoolkit=12.3", "linux-64"),
    ],
    ids=["platform-line", "channel-subdir"],
)
def test_cuda_12_asked_of_conda_on_linux_names_the_packages_that_replaced_it(text: str) -> None:
    report = explained(text)
    found = _of(report, "pinned-release-not-published")
    assert found is not None and found.severity is Severity.ERROR
    fix = fix_text(found)
    assert "cuda-version=12.3" in fix and "tensorflow[and-cuda]" in fix
    assert "cudatoolkit=12" not in fix
    assert _of(report, "windows-native-gpu-ended") is None


def test_a_cudatoolkit_of_its_own_span_is_not_this_reading() -> None:
    # cudatoolkit 11.2 exists; a channel without it for macOS is another question.
    report = explained(_older_conda("cudatoolkit=11.2", "osx-64"))
    for cause in ("pinned-release-not-published", "windows-native-gpu-ended"):
        assert _of(report, cause) is None, cause


@pytest.mark.parametrize(("asked", "release"), [("12.1.1", "12.1"), ("12", "12")])
def test_cuda_version_is_asked_by_its_major_and_minor(asked: str, release: str) -> None:
    # cuda-version is versioned only by MAJOR.MINOR (conda-forge/cuda-feedstock's
    # recipe/README.md): conda matches `cuda-version=12.1.1` to no release of it.
    found = _of(
        explained(_older_conda(f"cudatoolkit={asked}", "linux-64")), "pinned-release-not-published"
    )
    assert found is not None
    fix = fix_text(found)
    assert f"cuda-version={release} cuda-runtime" in fix
    if asked != release:
        assert f"cuda-version={asked}" not in fix


def test_cuda_12_asked_of_conda_on_macos_is_no_cuda_package_there() -> None:
    # conda-forge's `cuda` metapackage requires __linux or __win: nothing of CUDA 12 installs
    # on macOS, where TensorFlow reaches the GPU through tensorflow-metal.
    found = _of(
        explained(_older_conda("cudatoolkit=12.1", "osx-arm64")), "pinned-release-not-published"
    )
    assert found is not None
    fix = fix_text(found)
    assert "tensorflow-metal" in fix and "osx-arm64" in fix
    assert "cuda-runtime" not in fix and "cuda-version" not in fix and "and-cuda" not in fix
