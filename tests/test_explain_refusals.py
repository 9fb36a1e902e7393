"""What the system refuses a binary for, read for any package: glibc's versioned symbols in
every quoting a paste leaves, and pip's refusal of a wheel file whatever its distribution,
named on the message or only on the command before it."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, one_error, top_error
from tests.factories import FIXTURE_MATRIX
from tfdoctor.causes.platform import older_glibc_lines
from tfdoctor.evidence.pip import read_wheel_files_installed, read_wheel_refusals
from tfdoctor.evidence.traceback import read_python_shown
from tfdoctor.matrix import version_key


@pytest.mark.parametrize(
    ("line", "version"),
    [
        ("ImportError: /lib/x86_64-linux-gnu/libm.so.6: version 'GLIBC_2.29' not found", "2.29"),
        ("ImportError: /lib/x86_64-linux-gnu/libc.so.6 version `GLIBC_2.34` not found...", "2.34"),
        (
            "OSError: /lib/aarch64-linux-gnu/libc.so.6: version `GLIBC_2.33' not found (required "
            "by /usr/lib/python3/dist-packages/pycoral/pybind/_pywrap_coral.so)",
            "2.33",
        ),
        ('/lib64/libpthread.so.0: version "GLIBC_2.30" not found', "2.30"),
    ],
)
def test_glibc_too_old_in_every_quoting(line: str, version: str) -> None:
    top = top_error(explained(f"$ python3 -c 'import x'\n{line}\n"))
    assert top.cause == "glibc-too-old"
    assert f"glibc {version}" in fix_text(top)


def test_the_package_that_needs_the_glibc_is_named_in_the_fix() -> None:
    line = (
        "OSError: /lib/aarch64-linux-gnu/libc.so.6: version `GLIBC_2.33' not found (required by "
        "/usr/lib/python3/dist-packages/pycoral/pybind/_pywrap_coral.so)"
    )
    fix = fix_text(top_error(explained(line + "\n")))
    assert "pycoral" in fix and "older TensorFlow" not in fix


def test_tensorflow_needing_a_newer_glibc_names_the_lines_built_for_older_ones() -> None:
    line = (
        "ImportError: /lib64/libm.so.6: version `GLIBC_2.27' not found (required by "
        "/home/u/venv/lib/python3.11/site-packages/tensorflow/python/_pywrap_tensorflow_internal.so)"
    )
    fix = fix_text(top_error(explained(line + "\n")))
    # The matrix's glibc floors below 2.27, each with the run of lines built for it.
    assert "for glibc 2.17" in fix and "for glibc 2.12" in fix and "glibc 2.27 or newer" in fix


def test_glibc_floors_are_grouped_into_runs_newest_first() -> None:
    lines = FIXTURE_MATRIX.releases
    runs = older_glibc_lines(lines, "2.27")
    assert runs and all(version_key(floor) < version_key("2.27") for _, _, floor in runs)
    floors = [version_key(floor) for _, _, floor in runs]
    assert floors == sorted(floors, reverse=True)
    for first, last, floor in runs:
        assert version_key(first) <= version_key(last)
        assert all(
            x.glibc_min == floor
            for x in lines
            if not x.pre_release and version_key(first) <= version_key(x.line) <= version_key(last)
        )
    assert older_glibc_lines(lines, "2.5") == []


def test_a_symbol_version_of_another_library_is_not_glibc() -> None:
    line = "/usr/lib/libfoo.so.1: version `GLIBC_PRIVATE' not found"
    assert all(x.cause != "glibc-too-old" for x in explained(line + "\n").findings)


def test_a_refused_wheel_of_any_package_is_read_from_its_tags() -> None:
    text = (
        ">> Installing bundled binary dependencies.\n"
        "ERROR: numpy-1.18.5-cp38-cp38-macosx_11_0_x86_64.whl is not a supported wheel on this "
        "platform.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "wheel-mismatch"
    fix = fix_text(top)
    assert "macosx_11_0_x86_64" in fix and "numpy==1.18.5" in fix


def test_a_bare_refusal_takes_the_wheel_the_pip_command_named() -> None:
    text = (
        "$ pip3 install https://example.org/python/tflite_runtime-2.1.0.post1-cp37-cp37m-"
        "linux_aarch64.whl\n"
        "is not a supported wheel on this platform\n"
        "$ python3 --version\n"
        "Python 3.5.3\n"
    )
    top = top_error(explained(text))
    assert top.cause == "wheel-mismatch"
    fix = fix_text(top)
    assert "CPython 3.7 on linux_aarch64" in fix
    assert "cp35 tag for this Python 3.5" in fix


def test_a_bare_refusal_without_a_command_says_how_to_see_the_tags() -> None:
    top = top_error(explained("ERROR: is not a supported wheel on this platform.\n"))
    assert top.cause == "wheel-mismatch"
    assert "pip debug --verbose" in fix_text(top)


def test_the_wheel_named_last_before_the_refusal_is_the_one_refused() -> None:
    text = (
        "$ pip install ./a-1.0-cp39-cp39-linux_x86_64.whl\n"
        "Successfully installed a-1.0\n"
        "$ pip install ./b-2.0-cp310-cp310-win_amd64.whl\n"
        "ERROR: is not a supported wheel on this platform\n"
    )
    (found,) = read_wheel_refusals(text)
    assert found.dist == "b" and found.platform == "win_amd64"


def test_the_platform_wheels_pip_installs_from_a_file_are_read() -> None:
    text = (
        "$ pip3 install tflite_runtime-2.1.0-cp37-cp37m-linux_armv7l.whl\n"
        "$ pip install https://example.org/wheels/six-1.16.0-py2.py3-none-any.whl\n"
        "$ ls ./dist/foo-1.0-cp38-cp38-linux_x86_64.whl\n"
    )
    # A universal wheel carries no native code; a wheel named outside pip install is not one.
    assert read_wheel_files_installed(text) == [
        ("tflite_runtime-2.1.0-cp37-cp37m-linux_armv7l.whl", "tflite_runtime", "2.1.0")
    ]


def _undefined_symbol_after(install: str) -> str:
    return (
        f"$ {install}\n$ python3 detect.py\n"
        "OSError: /usr/lib/arm-linux-gnueabihf/libc++abi.so.1: undefined symbol: _Unwind_GetIP\n"
    )


def test_an_undefined_symbol_beside_a_wheel_installed_from_a_file_names_that_wheel() -> None:
    text = _undefined_symbol_after("pip3 install edgetool-0.9.0rc1-cp39-cp39-linux_armv7l.whl")
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "edgetool-0.9.0rc1-cp39-cp39-linux_armv7l.whl (a pre-release)" in fix
    assert "pip install --upgrade edgetool" in fix
    # Installed from the index: pip chose the build, no wheel file to blame.
    plain = fix_text(top_error(explained(_undefined_symbol_after("pip3 install edgetool"))))
    assert "installed from a file" not in plain


@pytest.mark.parametrize(
    ("text", "version"),
    [
        ("$ python3 --version\nPython 3.5.3\n", "3.5.3"),
        ("C:\\Users\\user> python -V\nPython 3.11.4\n", "3.11.4"),
        ("(tf) user@host:~$ python3.8 --version\r\nPython 3.8.10\r\n", "3.8.10"),
        ("$ python --version\n\nPython 3.9.1\n", None),  # not the next line
        ("Requires Python 3.7.5\n", None),  # no command asked
        ("$ pip --version\nPython 3.7.5\n", None),  # not an interpreter's
    ],
)
def test_the_python_version_is_read_only_after_its_command(text: str, version: str | None) -> None:
    assert read_python_shown(text) == version


# --- op libraries missing TensorFlow's C++ symbols: a project's own, or a companion's -----


def test_a_projects_own_op_library_is_rebuilt_with_tensorflows_flags() -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: /home/user/proj/ops/"
        "tf_match_so.so: undefined symbol: _ZN10tensorflow12OpDefBuilder5InputESs"
    )
    top = top_error(explained(line + "\n"))
    assert top.cause == "custom-op-build-mismatch"
    fix = fix_text(top)
    assert "/home/user/proj/ops/tf_match_so.so is the project's own build" in fix
    assert "old ABI's std::string" in fix and "tf.sysconfig.get_compile_flags()" in fix


def test_a_bare_symbol_line_takes_its_library_from_the_frame_that_loaded_it() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/content/proj/src/correlation.py", line 4, in <module>\n'
        '    tf.resource_loader.get_path_to_datafile("./ops/build/correlation.so"))\n'
        '  File "/usr/local/lib/python3.6/dist-packages/tensorflow/python/framework/'
        'load_library.py", line 61, in load_op_library\n'
        "    lib_handle = py_tf.TF_LoadLibrary(library_filename)\n"
        "undefined symbol: _ZN10tensorflow12OpDefBuilder4AttrENSt7__cxx1112basic_stringIcSt11"
        "char_traitsIcESaIcEEE\n"
    )
    top = top_error(explained(text))
    assert top.cause == "custom-op-build-mismatch"
    assert "std::__cxx11" in fix_text(top)


def test_a_companions_op_library_keeps_its_release_and_names_the_other_abi() -> None:
    line = (
        "NotFoundError: tensorflow_addons/custom_ops/activations/_activation_ops.so: undefined "
        "symbol: _ZN10tensorflow12OpDefBuilder4AttrESs"
    )
    top = top_error(explained(line + "\n"))
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    assert "build tensorflow-addons from source" in fix


def test_a_symbol_of_neither_abi_says_nothing_of_abis() -> None:
    line = "NotFoundError: /home/user/proj/ops/x.so: undefined symbol: _ZN10tensorflow8OpKernelD2Ev"
    fix = fix_text(top_error(explained(line + "\n")))
    assert "ABI's" not in fix and "project's own build" in fix


# --- names Keras and TensorFlow's step-locked companions lack --------------------------------


def test_keras3_refusing_a_legacy_name_is_keras2_code() -> None:
    top = top_error(
        explained("AttributeError: `BatchNormalization` is not available with Keras 3.\n")
    )
    assert top.cause == "keras3-behaviour-change"
    assert "TF_USE_LEGACY_KERAS=1" in fix_text(top)


def test_a_module_named_without_module_before_it_is_read_as_pythons_words() -> None:
    top = top_error(explained("'tensorflow.keras.backend' has no attribute 'control_flow_ops'\n"))
    assert top.cause == "api-removed"
    assert "tf.while_loop" in fix_text(top)


def test_a_class_name_without_module_is_not_a_module() -> None:
    report = explained("'Sequential' has no attribute 'predict_classes'\n")
    assert all(x.cause != "api-removed" for x in report.findings)


def test_the_companion_listed_off_tensorflows_line_is_the_one_that_lacks_the_name() -> None:
    text = (
        "AttributeError: module 'tensorflow.compat.v2.__internal__' has no attribute "
        "'monitoring'\n\n"
        "- tensorflow == 2.4.1\n"
        "- tensorflow-estimator == 2.6.0\n"
        "- tensorflow-hub == 0.7.0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range"
    assert "tensorflow-estimator==2.4.*" in fix_text(top)


def test_keras_listed_off_the_line_stays_keras_first() -> None:
    text = (
        "AttributeError: module 'tensorflow.compat.v2.__internal__' has no attribute 'tf2'\n"
        "tensorflow           2.6.0\n"
        "keras                2.7.0\n"
        "tensorflow-estimator 2.7.0\n"
    )
    assert top_error(explained(text)).cause == "keras-version"


def test_a_build_folder_names_its_system_in_one_reading() -> None:
    from tfdoctor.evidence.pip import build_folder_system

    found = [
        build_folder_system(text)
        for text in (
            "creating build/temp.linux-x86_64-3.8/h5py",
            "build\\lib.win32-3.7\\h5py",
            "build/lib.macosx-11.0-arm64-3.9",
            "rebuild/lib.linux-x86_64",
        )
    ]
    assert [x[0] if x else None for x in found] == ["linux", "windows", "macos", None]
    assert found[0] == ("linux", "build/temp.linux")


def test_any_library_missing_a_symbol_names_the_package_that_ships_it() -> None:
    line = (
        "ImportError: /opt/venv/lib/python3.10/site-packages/h5py/defs.cpython-310-x86_64-linux-"
        "gnu.so: undefined symbol: H5Pset_fapl_ros3"
    )
    top = top_error(explained(line + "\n"))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "reinstall h5py" in fix and "ldd " in fix


def test_tensorflows_own_symbols_stay_with_their_readings() -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: /opt/venv/lib/python3.11/"
        "site-packages/tensorflow_text/python/ops/_regex_split_ops.so: undefined symbol: "
        "_ZN10tensorflow8OpKernel11TraceStringEPNS_15OpKernelContextEb"
    )
    causes_found = {x.cause for x in explained(line + "\n").findings}
    assert "companion-mismatch" in causes_found
    assert "native-library-unresolved" not in causes_found


# --- what the readers must not take (review) ------------------------------------------------


def test_a_version_asked_of_python_is_not_pips_when_pip_is_another_majors() -> None:
    text = "$ python --version\nPython 2.7.18\n$ python3 -m pip install tensorflow\n"
    assert read_python_shown(text) is None


def test_a_universal_wheel_beside_a_platform_wheel_is_not_the_refused_one() -> None:
    text = (
        "$ pip install ./dist/mylib-0.1-py3-none-any.whl https://x/h5py-2.10.0-cp37-cp37m-"
        "linux_armv7l.whl\n"
        "ERROR: is not a supported wheel on this platform.\n"
    )
    (found,) = read_wheel_refusals(text)
    assert found.dist == "h5py"


def test_a_requirements_pin_is_not_the_installed_tensorflow() -> None:
    text = (
        "My requirements.txt:\n"
        "tensorflow==1.15.0\n\n"
        "AttributeError: module 'tensorflow' has no attribute 'contrib'\n"
    )
    top = top_error(explained(text))
    assert top.cause != "unexplained-exception"
    assert "contrib" in fix_text(top)


def test_keras_3_beside_tensorflow_216_is_its_own_keras() -> None:
    text = (
        "AttributeError: module 'tensorflow.compat.v2.__internal__' has no attribute "
        "'register_load_context_function'\n"
        "tensorflow 2.16.1\n"
        "keras 3.3.3\n"
        "tf_keras 2.15.0\n"
    )
    assert top_error(explained(text)).cause == "tf-keras-mismatch"


def test_a_macos_extension_is_not_linux_for_its_so_suffix() -> None:
    text = "ImportError: /x/foo/_ext.cpython-39-darwin.so: undefined symbol: bar\n"
    detail = explained(text).findings[0].detail
    assert "macOS" in detail and "Linux" not in detail


def test_a_libcxx_symbol_is_not_an_old_libstdcxx() -> None:
    line = (
        "ImportError: /v/site-packages/sentencepiece/_sentencepiece.so: undefined symbol: "
        "_ZNSt3__112basic_stringIcNS_11char_traitsIcEENS_9allocatorIcEEE6appendEPKc"
    )
    assert top_error(explained(line + "\n")).cause == "native-library-unresolved"


def test_a_std_symbol_is_the_libstdcxx_loaded_checked_where_it_is_loaded() -> None:
    line = (
        "ImportError: /home/u/envs/proj/lib/python3.10/site-packages/mylib/_core.so: undefined "
        "symbol: _ZSt28__throw_bad_array_new_lengthv"
    )
    top = top_error(explained(line + "\n"))
    assert top.cause == "libstdcxx-too-old"
    fix = fix_text(top)
    assert "ldd " in fix and "conda" not in fix


def test_a_symbol_version_of_libstdcxx_alone_is_an_old_libstdcxx() -> None:
    for line in (
        "libstdc++.so.6: version `GLIBCXX_3.4.22' not found",
        "TF 1.5.0 Java API broken in Ubuntu 14.04: `GLIBCXX_3.4.20' not found",
    ):
        top = top_error(explained(line + "\n"))
        assert top.cause == "libstdcxx-too-old"
        assert "strings libstdc++" not in fix_text(top)  # no path to read: ldconfig's


def test_no_lines_named_where_the_failing_release_claimed_an_older_glibc() -> None:
    # TensorFlow 2.5's wheels are tagged manylinux2010 (glibc 2.12), yet this build asked for
    # 2.14: the tags did not hold for it, so they name no older release that would run.
    line = (
        "ImportError: /lib64/libc.so.6: version `GLIBC_2.14' not found (required by "
        "/home/u/venv/lib/python3.6/site-packages/tensorflow/python/_pywrap_tensorflow_internal.so)"
    )
    fix = fix_text(top_error(explained("Successfully installed tensorflow-2.5.0\n" + line + "\n")))
    assert "glibc 2.14 or newer" in fix and "for glibc 2.12" not in fix
    assert older_glibc_lines(FIXTURE_MATRIX.releases, "2.14", "2.5.0") == []
    assert older_glibc_lines(FIXTURE_MATRIX.releases, "2.14", "2.12.0") != []


@pytest.mark.parametrize(
    ("site", "tag"),
    [
        # pip names the folder of a requirement it found installed, with no file below it.
        ("/home/pi/.local/lib/python3.9/site-packages", "cp39"),
        ("/usr/lib/python3.9/dist-packages", "cp39"),
        # Debian's folder for every Python 3 names no minor version: none is named.
        ("/usr/lib/python3/dist-packages", None),
    ],
    ids=["user-site", "debian-versioned", "debian-unversioned"],
)
def test_pips_already_satisfied_folder_names_the_interpreters_tag(
    site: str, tag: str | None
) -> None:
    text = (
        "$ pip3 install zebra-1.4.0-cp37-cp37m-linux_armv7l.whl\n"
        f"Requirement already satisfied: six>=1.12.0 in {site} (from zebra==1.4.0) (1.16.0)\n"
        "ERROR: zebra-1.4.0-cp37-cp37m-linux_armv7l.whl is not a supported wheel on this "
        "platform.\n"
    )
    fix = fix_text(one_error(explained(text), "wheel-mismatch"))
    named = f"the {tag} tag for this Python 3.9" if tag else "the cpXY tag of its version"
    assert named in fix


def test_herokus_installed_python_names_the_interpreters_tag() -> None:
    refusal = (
        "     $ pip install -r requirements.txt\n"
        "       zebra-0.9.0-cp35-cp35m-linux_x86_64.whl is not a supported wheel on this "
        "platform.\n"
    )
    for step, tag in (
        ("-----> Installing python-3.6.2\n", "the cp36 tag for this Python 3.6"),
        ("remote: -----> Installing Python 3.12.4\n", "the cp312 tag for this Python 3.12"),
        # Another step of the build names no Python: the fix stays general.
        ("-----> Installing requirements with pip\n", "the cpXY tag of its version"),
    ):
        fix = fix_text(one_error(explained(step + refusal), "wheel-mismatch"))
        assert tag in fix


def _mac_refusal(shown: str) -> str:
    """The fix of a refused macOS wheel tagged macosx_10_14, below ``shown``."""
    text = (
        f"{shown}$ pip3 install zebra-1.0-cp37-cp37m-macosx_10_14_x86_64.whl\n"
        "ERROR: zebra-1.0-cp37-cp37m-macosx_10_14_x86_64.whl is not a supported wheel on this "
        "platform.\n"
    )
    return fix_text(one_error(explained(text), "wheel-mismatch"))


def test_a_refused_macos_wheel_names_the_tag_of_the_macos_shown() -> None:
    # packaging's mac_platforms: macOS 10.15 takes macosx_10_15 and every older 10.x tag.
    newer = _mac_refusal("$ sw_vers -productVersion\n10.15.5\n")
    assert "takes wheels tagged macosx_10_15 and older, macosx_10_14 among them" in newer
    older = _mac_refusal("$ sw_vers -productVersion\n10.13.6\n")
    assert "takes wheels tagged macosx_10_13 and older, not macosx_10_14" in older
    assert "upgrade macOS to 10.14" in older
    # No macOS shown: no tag of it is named.
    assert "This macOS" not in _mac_refusal("")


def test_an_arm64_wheel_on_a_macos_10_is_not_fixed_by_upgrading_macos() -> None:
    """A Mac that runs macOS 10.x is an Intel one (arm64 came with macOS 11, per packaging's
    mac_platforms): the fix takes the x86_64 file, and upgrading macOS is not offered."""
    text = (
        "$ sw_vers -productVersion\n10.15.7\n"
        "$ pip3 install zebra-1.0-cp39-cp39-macosx_11_0_arm64.whl\n"
        "ERROR: zebra-1.0-cp39-cp39-macosx_11_0_arm64.whl is not a supported wheel on this "
        "platform.\n"
    )
    fix = fix_text(one_error(explained(text), "wheel-mismatch"))
    assert "runs on an Intel Mac, which takes no arm64 wheel" in fix
    assert "macosx_10_15 or older for x86_64" in fix
    assert "upgrade macOS" not in fix


def test_a_macos_wheel_of_the_shown_python_and_macos_leaves_the_architecture() -> None:
    """The log shows Python 3.7 (its site folder) and macOS 10.15: the refused cp37 wheel's
    macosx_10_14 tag is among those 10.15 takes, so its Python tag is not what differs."""
    shown = _mac_refusal(
        "$ sw_vers -productVersion\n10.15.5\n"
        "Requirement already satisfied: six in /Users/u/venv/lib/python3.7/site-packages (1.16.0)\n"
    )
    assert "macosx_10_14 among them: the architecture or the ABI tag is what differs" in shown
    assert "the Python tag or the architecture" not in shown


def test_macos_10_16_is_a_compatibility_answer_not_a_release() -> None:
    """sw_vers answers 10.16 on macOS 11 or later in its compatibility mode: neither an Intel
    Mac nor an upgrade to macOS 11 is claimed for it."""
    text = (
        "$ sw_vers -productVersion\n10.16\n"
        "$ pip3 install zebra-1.0-cp39-cp39-macosx_11_0_arm64.whl\n"
        "ERROR: zebra-1.0-cp39-cp39-macosx_11_0_arm64.whl is not a supported wheel on this "
        "platform.\n"
    )
    fix = fix_text(one_error(explained(text), "wheel-mismatch"))
    assert "This macOS 10.16" not in fix
    assert "SYSTEM_VERSION_COMPAT=0" in fix
