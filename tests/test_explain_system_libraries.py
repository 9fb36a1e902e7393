"""A library of the operating system that a wheel links and never carries (manylinux's policy):
the fix installs the system package that holds it, named for Debian and Ubuntu and for RHEL and
Fedora, where the generic fix only tells how to find what the loader misses."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text
from tfdoctor.causes.platform import SYSTEM_LIBRARY_PACKAGES, system_library_fix

_CV2_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/app/train.py", line 3, in <module>\n'
    "    import cv2\n"
    '  File "/usr/local/lib/python3.10/site-packages/cv2/__init__.py", line 181, in <module>\n'
    "    bootstrap()\n"
    "ImportError: {library}: cannot open shared object file: No such file or directory\n"
)


def _fix_of(library: str) -> str:
    found = [
        x
        for x in explained(_CV2_TRACEBACK.format(library=library)).findings
        if x.cause == "native-library-unresolved"
    ]
    assert found, library
    return fix_text(found[0])


def test_opencvs_missing_libgl_installs_the_system_package_or_the_headless_wheel() -> None:
    fix = _fix_of("libGL.so.1")
    assert "apt-get install -y libgl1" in fix and "dnf install -y mesa-libGL" in fix
    assert "opencv-python-headless" in fix


def test_openmps_runtime_names_its_package_and_no_opencv() -> None:
    fix = _fix_of("libgomp.so.1")
    assert "libgomp1" in fix and "opencv" not in fix


def test_a_library_the_table_does_not_know_keeps_the_loaders_trace() -> None:
    fix = _fix_of("libfrobnicate.so.3")
    assert "LD_DEBUG=libs" in fix and "apt-get" not in fix


@pytest.mark.parametrize("name", sorted(SYSTEM_LIBRARY_PACKAGES))
def test_each_known_library_names_both_families_packages(name: str) -> None:
    fix = system_library_fix(name)
    assert fix is not None
    deb, rpm = SYSTEM_LIBRARY_PACKAGES[name]
    assert any(f"install -y {deb}" in c for c in fix.commands)
    assert any(f"install -y {rpm}" in c for c in fix.commands)


def test_a_library_outside_the_table_has_no_system_fix() -> None:
    assert system_library_fix("libcudnn") is None
