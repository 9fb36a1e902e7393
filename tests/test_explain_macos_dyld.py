"""macOS older than a native library was built for, as dyld 4 (macOS 12 on) says it: "built for
macOS X which is newer than running OS", beside the binary that referenced a missing symbol, on
a line of its own, or in Python's ImportError. Every log here is written for the test in dyld's
format."""

from __future__ import annotations

import pytest

from tests.explaining import explained, finding_of, fix_text
from tfdoctor.findings import Severity

_SITE = "/Users/ana/venv/lib/python3.11/site-packages"


@pytest.mark.parametrize(
    ("text", "release"),
    [
        pytest.param(
            f"ImportError: dlopen({_SITE}/tensorflow-plugins/libmetal_plugin.dylib, 0x0006): "
            "Symbol not found: _OBJC_CLASS_$_MPSGraphExecutableExecutionDescriptor\n"
            "  Referenced from: <5A1F2B3C-0D4E-3F5A-8B6C-7D8E9F0A1B2C> "
            f"{_SITE}/tensorflow-plugins/libmetal_plugin.dylib (built for macOS 13.0 which is "
            "newer than running OS)\n"
            "  Expected in:     <0B1C2D3E-4F5A-3B6C-9D7E-8F9A0B1C2D3E> /System/Library/"
            "Frameworks/MetalPerformanceShadersGraph.framework/Versions/A/"
            "MetalPerformanceShadersGraph\n",
            "13.0",
            id="referenced-from-with-uuid",
        ),
        pytest.param(
            "dyld[4121]: Symbol not found: _cblas_sgemm$NEWLAPACK\n"
            f"  Referenced from: <77A0B1C2-D3E4-35F6-A7B8-C9D0E1F2A3B4> {_SITE}/tensorflow/"
            "libtensorflow_framework.2.dylib\n"
            "built for macOS 13.3 which is newer than running OS\n",
            "13.3",
            id="a-line-of-its-own",
        ),
        pytest.param(
            f"ImportError: built for macOS 14.0 which is newer than running OS ({_SITE}/"
            "tensorflow/python/_pywrap_tensorflow_internal.so)\n",
            "14.0",
            id="in-the-import-error",
        ),
    ],
)
def test_dyld_saying_the_binary_is_newer_than_the_os_is_macos_too_old(
    text: str, release: str
) -> None:
    found = finding_of(explained(text), "macos-too-old")
    assert found is not None, [(x.id, x.severity.value) for x in explained(text).findings]
    assert found.severity is Severity.ERROR
    assert f"macOS {release} or newer" in fix_text(found)


def test_a_build_note_naming_the_target_macos_stays_quiet() -> None:
    # delocate's and a wheel build's words of a target, with nothing refused on this Mac.
    text = (
        "Fixing: dist/tensorflow_io-0.37.1-cp311-cp311-macosx_12_0_arm64.whl\n"
        "libtensorflow_io.so: built for macOS 12.0, matching the wheel's platform tag\n"
    )
    report = explained(text)
    assert all(x.severity.rank <= Severity.INFO.rank for x in report.findings), [
        (x.id, x.severity.value) for x in report.findings
    ]
