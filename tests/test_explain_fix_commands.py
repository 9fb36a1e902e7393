"""Fixes as a user runs them: the Pythons a release of TensorFlow serves, and the range a
dependency fix installs under several TensorFlow distributions."""

from __future__ import annotations

from tests.explaining import explained, fix_text
from tfdoctor.findings import Finding, Report
from tfdoctor.inputs import open_matrix

#: The shipped matrix: its newest line has a release candidate only.
SHIPPED = open_matrix(None)


def _of(report: Report, cause: str) -> Finding:
    found = [f for f in report.findings if f.cause == cause]
    assert found, [f.id for f in report.findings]
    return found[0]


def _commands(finding: Finding) -> tuple[str, ...]:
    assert finding.fix is not None, finding.id
    return tuple(finding.fix.commands)


_NO_RELEASE = (
    "$ pip install tensorflow\n"
    "ERROR: Could not find a version that satisfies the requirement tensorflow "
    "(from versions: none)\n"
    "ERROR: No matching distribution found for tensorflow\n"
)


def test_the_pythons_named_are_those_of_final_releases() -> None:
    # The shipped matrix's newest line has a release candidate only, the first for Python
    # 3.14: `pip install tensorflow` does not take it, so the fix names no 3.14.
    assert SHIPPED.lines[0].pre_release and "3.14" in SHIPPED.lines[0].python["linux-x86_64"]
    fix = fix_text(_of(explained(_NO_RELEASE, matrix=SHIPPED), "tf-no-wheel-for-python"))
    assert "(Python 3.6 to 3.13)" in fix
    assert "3.14" not in fix


def _conflicts(*lines: str) -> str:
    return (
        "ERROR: pip's dependency resolver does not currently take into account all the "
        "packages that are installed. This behaviour is the source of the following "
        "dependency conflicts.\n" + "".join(f"{x}\n" for x in lines)
    )


def test_a_range_of_the_removed_distribution_is_not_the_one_installed() -> None:
    # The fix of the two side by side keeps tensorflow 2.5.0 (from tensorflow-gpu 2.5.0):
    # the dependency's finding is that release's range, its command the same range.
    report = explained(
        _conflicts(
            "tensorflow 2.2.0 requires gast==0.3.3, but you have gast 0.3.0 which is incompatible.",
            "tensorflow-gpu 2.5.0 requires gast==0.4.0, but you have gast 0.3.0 which is "
            "incompatible.",
        )
    )
    kept = _of(report, "tf-multiple-distributions")
    assert "tensorflow==2.5.0" in " ".join(_commands(kept))
    gast = _of(report, "dependency-out-of-range")
    assert "(gast==0.4.0)" in gast.summary
    assert any("gast==0.4.0" in c for c in _commands(gast)), _commands(gast)
    assert not any("0.3.3" in c for c in _commands(gast))


def test_the_kept_release_s_range_comes_first_whatever_the_order() -> None:
    # pip prints the removed tensorflow-gpu 2.2.0's line first: the finding is still the
    # kept tensorflow 2.5.0's.
    report = explained(
        _conflicts(
            "tensorflow-gpu 2.2.0 requires gast==0.3.3, but you have gast 0.3.0 which is "
            "incompatible.",
            "tensorflow 2.5.0 requires gast==0.4.0, but you have gast 0.3.0 which is incompatible.",
        )
    )
    gast = _of(report, "dependency-out-of-range")
    assert "TensorFlow 2.5.0's range (gast==0.4.0)" in gast.summary
    assert any("gast==0.4.0" in c for c in _commands(gast)), _commands(gast)


_OLD_PYTHON_TF_KERAS = (
    "Traceback (most recent call last):\n"
    '  File "/home/ana/proj/train.py", line 3, in <module>\n'
    "    import segmentlib\n"
    '  File "/opt/venv/lib/python3.7/site-packages/segmentlib/__init__.py", line 2, in '
    "<module>\n"
    "    from tensorflow.keras.__internal__.layers import BaseImageAugmentationLayer\n"
    "ModuleNotFoundError: No module named 'tensorflow.keras.__internal__.layers'\n"
)


def test_a_tf_keras_name_under_a_python_before_keras3_is_not_read_as_keras3() -> None:
    # Python 3.7: no TensorFlow with Keras 3 as tf.keras installs there, so neither Keras 3
    # nor tf-keras with TF_USE_LEGACY_KERAS is the way out: the TensorFlow predates the name.
    report = explained(_OLD_PYTHON_TF_KERAS, matrix=SHIPPED)
    assert not [f for f in report.findings if f.cause == "keras3-behaviour-change"], [
        f.id for f in report.findings
    ]
    old = _of(report, "tf-too-old-for-code")
    fix = fix_text(old)
    assert "TensorFlow 2.9 to the line before 2.16" in fix
    assert "TF_USE_LEGACY_KERAS" not in fix and "tf-keras" not in fix
    assert not any("TF_USE_LEGACY_KERAS" in c for c in _commands(old))


def _glibc_refusal(triplet: str) -> str:
    return (
        f"ImportError: /lib/{triplet}/libm.so.6: version `GLIBC_2.29' not found (required by "
        "/home/pi/env/lib/python3.7/site-packages/tensorflow/python/"
        "_pywrap_tensorflow_internal.so)\n"
    )


def test_a_32_bit_arm_glibc_refusal_names_no_pypi_release() -> None:
    # PyPI's TensorFlow wheels are x86-64 and aarch64 ones: their glibc floors name no
    # release a Raspberry Pi OS (armhf) installs.
    fix = fix_text(
        _of(explained(_glibc_refusal("arm-linux-gnueabihf"), matrix=SHIPPED), "glibc-too-old")
    )
    assert "for glibc 2.17" not in fix and "TensorFlow 2." not in fix
    assert "no TensorFlow wheel for 32-bit ARM" in fix


def test_a_glibc_refusal_on_a_machine_uname_names_32_bit_arm_names_no_pypi_release() -> None:
    # The library's folder says nothing of the machine (/lib/libc.so.6); uname does.
    log = "Linux raspberrypi 5.10.103-v7l+ #1529 SMP Tue Mar 8 12:24:00 GMT 2022 armv7l GNU/Linux\n"
    fix = fix_text(
        _of(
            explained(log + _glibc_refusal("").replace("//", "/"), matrix=SHIPPED),
            "glibc-too-old",
        )
    )
    assert "for glibc 2.17" not in fix and "no TensorFlow wheel for 32-bit ARM" in fix


def test_an_x86_64_glibc_refusal_keeps_the_older_lines() -> None:
    fix = fix_text(
        _of(explained(_glibc_refusal("x86_64-linux-gnu"), matrix=SHIPPED), "glibc-too-old")
    )
    assert "for glibc 2.17" in fix and "32-bit ARM" not in fix


def test_a_tf_keras_name_under_an_old_python_says_the_older_tensorflow_is_likely() -> None:
    # The log shows the Python and the name missing, not the TensorFlow's release: a
    # standalone Keras of another release reads the same, so neither is stated as fact.
    old = _of(explained(_OLD_PYTHON_TF_KERAS, matrix=SHIPPED), "tf-too-old-for-code")
    said = old.summary + "\n" + (old.detail or "")
    assert "The installed TensorFlow is older than 2.9" not in said
    assert "likely older than 2.9" in said
    assert "`keras`" in said


def _tf_missing_under(site: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "{site}segmentlib{site[-1]}__init__.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        "ImportError: No module named tensorflow\n"
    )


def test_tensorflow_missing_under_python_2_on_windows_is_the_missing_wheel() -> None:
    # Windows' wheels are for Python 3.5 and later in every release (the matrix's lines and
    # early releases): pip of this Python finds none.
    site = "C:\\Python27\\lib\\site-packages\\"
    fix = fix_text(
        _of(explained(_tf_missing_under(site), matrix=SHIPPED), "tf-no-wheel-for-python")
    )
    assert "No TensorFlow release publishes a wheel for Python 2.7 on Windows" in fix
    assert "py -3." in fix and "pip install tensorflow" in fix


def test_tensorflow_missing_under_a_python_a_release_serves_is_installed() -> None:
    # Linux's early releases had Python 2.7 wheels, Windows' lines have Python 3.10 ones.
    for site in ("/usr/lib/python2.7/site-packages/", "C:\\Python310\\lib\\site-packages\\"):
        found = _of(explained(_tf_missing_under(site), matrix=SHIPPED), "tf-not-installed")
        assert "No TensorFlow release publishes" not in fix_text(found), site
