"""Fixes made exact by what the log already shows: the TensorFlow lines that ask for a CUDA
soname, the Pythons of a requirement's releases against the ones pip lists instead, a vendor
build's TensorFlow line, the last 1.x line for TensorFlow 1 code, and TensorFlow's C library
that the loader's cache does not list yet."""

from __future__ import annotations

import pytest

from tests.explaining import explained, finding_of, fix_text, top_error
from tfdoctor.findings import Finding, Report, Severity


def _of(report: Report, cause: str) -> Finding:
    found = [f for f in report.findings if f.cause == cause]
    assert found, [f.id for f in report.findings]
    return found[0]


# --- a CUDA soname: the TensorFlow lines whose builds ask for it ------------------------------


def _not_loaded(soname: str) -> str:
    return (
        "2023-05-02 10:11:12.000001: W tensorflow/stream_executor/platform/default/"
        f"dso_loader.cc:64] Could not load dynamic library '{soname}'; dlerror: {soname}: "
        "cannot open shared object file: No such file or directory\n"
    )


def test_a_cusolver_soname_names_the_lines_and_toolkits_that_ask_for_it() -> None:
    top = top_error(explained(_not_loaded("libcusolver.so.10")))
    assert top.cause == "cuda-libs-missing"
    fix = fix_text(top)
    # CUDA 10.1 to 11.0 ship libcusolver.so.10; 11.1 and later libcusolver.so.11.
    assert "libcusolver.so.10 are 2.1 to 2.3 (CUDA 10.1" in fix
    assert "2.4 (CUDA 11.0" in fix
    assert "11.2" not in fix


def test_the_cuda_11_runtime_soname_names_each_cuda_11_line() -> None:
    top = top_error(explained(_not_loaded("libcudart.so.11.0")))
    assert top.cause == "cuda-libs-missing"
    fix = fix_text(top)
    assert "2.4 (CUDA 11.0, cuDNN 8.0)" in fix and "2.5 to 2.11 (CUDA 11.2" in fix
    assert "CUDA 10.1" not in fix and "CUDA 12" not in fix


def test_two_sonames_keep_only_the_lines_that_ask_for_both() -> None:
    text = _not_loaded("libcudart.so.11.0") + _not_loaded("libcusolver.so.10")
    fix = fix_text(_of(explained(text), "cuda-libs-missing"))
    assert "2.4 (CUDA 11.0, cuDNN 8.0) (from the matrix)" in fix
    assert "CUDA 10.1" not in fix and "CUDA 11.2" not in fix


def test_a_soname_of_no_line_adds_no_lines() -> None:
    # CUDA 9.0's runtime: older than every line the matrix holds.
    fix = fix_text(top_error(explained(_not_loaded("libcudart.so.9.0"))))
    assert "builds that ask for" not in fix


def _dll_not_loaded(dll: str) -> str:
    return (
        "2022-03-04 10:11:12.000001: W tensorflow/stream_executor/platform/default/"
        f"dso_loader.cc:64] Could not load dynamic library '{dll}'; dlerror: {dll} not found\n"
    )


_WINDOWS_GPU_FOUND = (
    "2022-03-04 10:11:13.000001: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1733] "
    "Found device 0 with properties: \npciBusID: 0000:01:00.0 name: NVIDIA GeForce RTX 3060 "
    "computeCapability: 8.6\n"
)


def test_a_windows_runtime_dll_names_the_native_windows_lines_that_ask_for_it() -> None:
    text = _dll_not_loaded("cudart64_110.dll") + _WINDOWS_GPU_FOUND
    fix = fix_text(_of(explained(text), "cuda-libs-missing"))
    # cudart64_110.dll is libcudart.so.11.0 on Windows; the native Windows GPU builds end at 2.10.
    assert "cudart64_110.dll are 2.4 (CUDA 11.0, cuDNN 8.0) and 2.5 to 2.10 (CUDA 11.2" in fix
    assert "2.11" not in fix and "CUDA 10.1" not in fix


def test_a_windows_math_dll_reads_its_digits_as_the_soname_major() -> None:
    text = _dll_not_loaded("cusolver64_10.dll") + _WINDOWS_GPU_FOUND
    fix = fix_text(_of(explained(text), "cuda-libs-missing"))
    # cusolver64_10.dll: CUDA 10.1 to 11.0 (libcusolver.so.10), not CUDA 11.2's cusolver64_11.
    assert "cusolver64_10.dll are 2.1 to 2.3 (CUDA 10.1" in fix
    assert "CUDA 11.2" not in fix


def test_a_runtime_of_one_minor_names_the_cudnn_every_line_of_it_was_built_with() -> None:
    # Every line built with CUDA 10.1 (2.1 to 2.3) was built with cuDNN 7.6.
    fix = fix_text(top_error(explained(_dll_not_loaded("cudart64_101.dll"))))
    assert "Install CUDA 10.1 and cuDNN 7.6 " in fix
    # CUDA 10.0's lines differ in their cuDNN (1.15: 7.6, 2.0: 7.4): none is named.
    older = fix_text(top_error(explained(_not_loaded("libcudart.so.10.0"))))
    assert "CUDA 10.0" in older and "cuDNN 7." not in older


def test_a_build_whose_cuda_the_log_shows_keeps_its_own_toolkit() -> None:
    text = "2.4.1\n" + _not_loaded("libcudart.so.11.0") + "tf.__version__ = '2.4.1'\n"
    fix = fix_text(_of(explained(text), "cuda-libs-missing"))
    # The installed line is known: its own toolkit, not the list of every line.
    assert "builds that ask for" not in fix
    assert "11.0" in fix


# --- a requirement's range of releases, and pip listing only newer ones ------------------------


def _no_match(spec: str, versions: str) -> str:
    return (
        "Collecting tf-keras==2.17.0\n"
        f"ERROR: Could not find a version that satisfies the requirement tensorflow{spec} "
        f"(from tf-keras) (from versions: {versions})\n"
        f"ERROR: No matching distribution found for tensorflow{spec}\n"
    )


def test_a_range_of_older_releases_beside_newer_listed_ones_names_their_pythons() -> None:
    top = top_error(explained(_no_match("<2.18,>=2.17", "2.20.0rc0, 2.20.0, 2.21.0")))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    # 2.17's wheels are for 3.9 to 3.12; 2.20's add 3.13: the interpreter is that one.
    assert "Python 3.9 to 3.12 only" in fix and "Python 3.12 (a new virtual" in fix
    assert "Python 3.13 too" in fix


def test_listed_releases_with_the_same_pythons_are_not_read_as_the_python() -> None:
    # 2.18's wheels are for the Pythons 2.17's are: the list does not say the Python is what
    # stops pip (the platform, the index or the log's date may).
    top = top_error(explained(_no_match("<2.18,>=2.17", "2.18.0, 2.18.1")))
    assert "Python 3.12 (a new virtual" not in fix_text(top)


def test_a_range_that_admits_a_listed_release_is_not_this_reading() -> None:
    report = explained(_no_match(">=2.17", "2.20.0, 2.21.0"))
    assert all("its releases (TensorFlow" not in fix_text(f) for f in report.findings)


# --- a vendor's build of TensorFlow pinned, and no release at all ------------------------------


def test_a_pinned_vendor_build_names_its_tensorflow_lines_pythons() -> None:
    text = (
        "$ pip install tensorflow-rocm==2.12.1.570\n"
        "ERROR: Could not find a version that satisfies the requirement "
        "tensorflow-rocm==2.12.1.570 (from versions: none)\n"
        "ERROR: No matching distribution found for tensorflow-rocm==2.12.1.570\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert "build of TensorFlow 2.12" in fix and "Python 3.8 to 3.11" in fix
    assert "Python 3.11 at the newest" in fix


def _pin_refused(dist: str, version: str, listed: str = "none") -> str:
    return (
        f"ERROR: Could not find a version that satisfies the requirement {dist}=={version} "
        f"(from versions: {listed})\n"
        f"ERROR: No matching distribution found for {dist}=={version}\n"
    )


def test_a_pinned_vendor_build_has_the_pinned_release_as_the_other_candidate() -> None:
    # pip's empty list is of every release for this interpreter when it ran; a log older than
    # the releases built for this Python reads the same, as for TensorFlow's own pins.
    report = explained(_pin_refused("tensorflow-rocm", "2.3.0"))
    assert top_error(report).cause == "tf-no-wheel-for-python"
    other = [f for f in report.findings if f.cause == "tf-release-not-for-python"]
    assert len(other) == 1 and other[0].severity.rank >= Severity.WARNING.rank
    fix = fix_text(other[0])
    assert "build of TensorFlow 2.3" in fix and "Python 3.8 at the newest" in fix
    assert "upgrade pip" not in fix


def test_a_dependants_pin_of_a_vendor_build_is_that_releases_refusal() -> None:
    # pip's resolver shows no list: the dependant's pin names the one release refused.
    text = (
        "ERROR: Cannot install app==1.0 and app==1.1 because these package versions have "
        "conflicting dependencies.\n\n"
        "The conflict is caused by:\n"
        "    app 1.1 depends on tensorflow-rocm==2.3.0\n"
        "    app 1.0 depends on tensorflow-rocm==2.3.0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert "build of TensorFlow 2.3" in fix and "a release of app that requires" in fix


def _with_python(python: str, pin: str) -> str:
    return (
        "$ pip --version\n"
        f"pip 20.3.4 from /usr/local/lib/python{python}/dist-packages/pip (python {python})\n"
        + _pin_refused("tensorflow-rocm", pin)
    )


@pytest.mark.parametrize(
    ("python", "pin"),
    [
        # TensorFlow 1.15.0's wheels had cp35 (PyPI's files), its line's latest patch
        # 1.15.5's not.
        pytest.param("3.5", "1.15.0", id="an-earlier-patchs-own-pythons"),
        # tensorflow-rocm 1.15.9 to 1.15.12 have cp38 wheels (PyPI's files), past
        # TensorFlow 1.15's last patch, 1.15.5, with cp36 and cp37 only.
        pytest.param("3.8", "1.15.12", id="a-vendors-patch-past-tensorflows-last"),
    ],
)
def test_a_pinned_vendor_build_is_not_judged_by_its_lines_latest_pythons(
    python: str, pin: str
) -> None:
    report = explained(_with_python(python, pin))
    assert not [f for f in report.findings if f.cause == "tf-release-not-for-python"]


def test_a_pinned_vendor_build_names_its_own_releases_pythons() -> None:
    words = fix_text(explained(_pin_refused("tensorflow-rocm", "1.15.0")).findings[0])
    assert "build of TensorFlow 1.15.0, whose own wheels are for Python 2.7, 3.5 to 3.7" in words
    past = fix_text(explained(_pin_refused("tensorflow-rocm", "1.15.12")).findings[0])
    assert "build of TensorFlow" not in past


@pytest.mark.parametrize(
    ("dist", "version", "listed"),
    [
        pytest.param("tensorflow-rocm", "2.3.0", "2.14.0.600, 2.16.1", id="other-releases-listed"),
        pytest.param("tensorflow-macos", "2.9.0", "none", id="apple-build-macos-wheels-only"),
        pytest.param("tf-nightly", "2.9.0.dev20220101", "none", id="nightly-pypi-drops-old-ones"),
    ],
)
def test_no_pinned_release_candidate(dist: str, version: str, listed: str) -> None:
    report = explained(_pin_refused(dist, version, listed))
    assert not [f for f in report.findings if " alone has no wheel" in f.summary]


def test_tensorflow_itself_is_not_called_a_vendor_build() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow "
        "(from versions: none)\n"
        "ERROR: No matching distribution found for tensorflow\n"
    )
    assert "is a build of TensorFlow" not in fix_text(top_error(explained(text)))


# --- TensorFlow 1 API under TensorFlow 2: the last 1.x line too --------------------------------


def test_tf1_api_moved_to_compat_v1_also_names_the_last_1x_line() -> None:
    text = "AttributeError: module 'tensorflow' has no attribute 'placeholder'\n"
    top = top_error(explained(text))
    assert top.cause == "api-moved-to-compat-v1"
    fix = fix_text(top)
    assert "tf.compat.v1.placeholder" in fix
    assert "TensorFlow 1.15, the last 1.x line" in fix and "tensorflow==1.15.5" in fix


def test_an_api_removed_within_tensorflow_2_is_not_sent_to_1x() -> None:
    text = "AttributeError: module 'tensorflow' has no attribute 'contrib'\n"
    report = explained(text)
    # The name's readings (an installed library's release of TensorFlow 1, the other
    # candidate where no frame shows whose code asked, is TensorFlow 1 code: explain.unshown).
    readings = [f for f in report.findings if not f.summary.startswith("Or: ")]
    assert readings and all("the last 1.x line" not in fix_text(f) for f in readings)


# --- TensorFlow's C library that the loader does not find --------------------------------------


def test_the_c_library_unfound_is_told_ldconfig_and_the_loader_path() -> None:
    text = (
        "$ gcc hello_tf.c -ltensorflow -o hello_tf\n"
        "$ ./hello_tf\n"
        "./hello_tf: error while loading shared libraries: libtensorflow.so.2: cannot open "
        "shared object file: No such file or directory\n"
    )
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "TensorFlow's C library" in fix and "sudo ldconfig /usr/local/lib" in fix
    assert "LD_LIBRARY_PATH" in fix


def test_the_python_packages_framework_library_is_not_the_c_library() -> None:
    text = (
        "ImportError: libtensorflow_framework.so.2: cannot open shared object file: "
        "No such file or directory\n"
    )
    report = explained(text)
    assert all("TensorFlow's C library" not in fix_text(f) for f in report.findings)


@pytest.mark.parametrize(
    ("text", "env"),
    [
        (
            "./label_image: error while loading shared libraries: libtensorflow_framework.so.2: "
            "cannot open shared object file: No such file or directory\n",
            "LD_LIBRARY_PATH",
        ),
        (
            "dyld[4242]: Library not loaded: @rpath/libtensorflow_framework.2.dylib\n"
            "  Referenced from: <0A1B2C3D-0000-1111-2222-333344445555> /Users/u/app/infer\n"
            "  Reason: tried: '/usr/local/lib/libtensorflow_framework.2.dylib' (no such file)\n",
            "DYLD_LIBRARY_PATH",
        ),
    ],
    ids=["ld.so", "dyld"],
)
def test_the_framework_library_unfound_as_a_program_starts_is_the_c_archives(
    text: str, env: str
) -> None:
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "libtensorflow archive" in fix and env in fix
    # Every TensorFlow wheel from 1.4 on ships the framework library in its tensorflow/
    # directory: a program linked against an installed TensorFlow misses it too.
    assert "does not install it" not in fix
    assert "tf.sysconfig.get_lib()" in fix


def test_an_io_plugin_library_is_not_the_c_library() -> None:
    text = (
        "OSError: libtensorflow_io.so: cannot open shared object file: No such file or directory\n"
    )
    report = explained(text)
    assert all("TensorFlow's C library" not in fix_text(f) for f in report.findings)


# --- a crash in native code after a command imported another package first ------------------


def test_a_crash_after_a_package_imported_first_names_it_and_its_upgrade() -> None:
    text = '$ python -c "import scipy; import tensorflow as tf"\nSegmentation fault (core dumped)\n'
    report = explained(text)
    top = top_error(report)
    # The order first, the package's release as the other candidate.
    assert top.cause == "import-order-conflict"
    fix = fix_text(top)
    assert "scipy imported ahead of it" in fix
    assert 'python -X faulthandler -c "import scipy; import tensorflow"' in fix
    release = finding_of(report, "import-crash")
    assert release is not None and "pip install --upgrade scipy" in fix_text(release)


def test_the_module_tables_distribution_is_upgraded_for_a_module() -> None:
    text = (
        '$ python3 -X faulthandler -c "import os, cv2; import tensorflow"\n'
        "Fatal Python error: Segmentation fault\n"
    )
    report = explained(text)
    fix = fix_text(top_error(report))
    # Python's own os is no suspect; cv2 is opencv-python's module.
    assert "cv2 imported ahead" in fix and "os," not in fix
    release = finding_of(report, "import-crash")
    assert release is not None and "pip install --upgrade opencv-python" in fix_text(release)


def test_tensorflow_imported_first_keeps_the_general_fix() -> None:
    text = '$ python -c "import tensorflow; import torch"\nSegmentation fault (core dumped)\n'
    top = top_error(explained(text))
    assert top.cause == "import-crash"
    fix = fix_text(top)
    assert "before TensorFlow" not in fix and "--upgrade" not in fix


def test_a_command_without_tensorflow_names_nothing() -> None:
    text = '$ python -c "import scipy; import numpy"\nSegmentation fault (core dumped)\n'
    fix = fix_text(top_error(explained(text)))
    assert "before TensorFlow" not in fix


def test_the_c_library_on_macos_is_told_dyld_library_path() -> None:
    text = (
        "dyld[123]: Library not loaded: @rpath/libtensorflow.2.dylib\n"
        "  Referenced from: /Users/me/proj/hello_tf\n"
    )
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "TensorFlow's C library" in fix and "DYLD_LIBRARY_PATH" in fix
    assert "ldconfig" not in fix
