"""The install side read by the evidence that tells its causes apart: pip's age (its version
line, its unprefixed refusal), conda's check of a package whose files passed Windows' path
limit, an x86-64 conda in Apple's channel, TensorFlow imported from the per-user site into a
conda Python, and an R session bound to another Python than the one TensorFlow went into."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Finding, Report, Severity


def _named(report: Report, cause: str) -> Finding:
    """The report's finding of ``cause`` at warning or above, asserted to exist."""
    found = [
        x for x in report.findings if x.cause == cause and x.severity.rank >= Severity.WARNING.rank
    ]
    assert found, [(x.id, x.severity.value) for x in report.findings]
    return found[0]


def _absent(report: Report, cause: str) -> bool:
    return all(x.cause != cause for x in report.findings)


# pip's age --------------------------------------------------------------------------------


def test_a_pip_before_19_shown_alone_on_linux_is_too_old_for_the_wheels() -> None:
    text = (
        "$ pip --version\npip 8.1.2 from /home/ci/venv/lib/python3.5/site-packages (python 3.5)\n"
    )
    found = _named(explained(text), "pip-too-old")
    assert found.severity is Severity.WARNING
    assert "python -m pip install --upgrade pip" in fix_text(found)
    assert "manylinux2010" in fix_text(found)


def test_a_current_pip_or_a_windows_pip_shown_alone_is_no_finding() -> None:
    current = "pip 24.0 from /home/ci/venv/lib/python3.11/site-packages/pip (python 3.11)\n"
    windows = "pip 9.0.3 from c:\\python36\\lib\\site-packages (python 3.6)\n"
    assert _absent(explained(current), "pip-too-old")
    assert _absent(explained(windows), "pip-too-old")


def test_an_old_pip_beside_another_failure_leaves_that_failure_the_cause() -> None:
    text = (
        "pip 10.0.1 from /usr/lib/python3/dist-packages (python 3.6)\n"
        "Illegal instruction (core dumped)\n"
    )
    assert _absent(explained(text), "pip-too-old")


def test_an_unprefixed_refusal_of_tensorflow_since_115_is_an_old_pip() -> None:
    # pip before 19.1 printed its errors without "ERROR:"; here the paste cut its list short,
    # and a line skipped for another Python does not make the Python the reason.
    text = (
        "Ignoring tensorflow: markers 'python_version >= \"3.8\"' don't match your environment\n"
        "Collecting tensorflow<2.0,>=1.15.2\n"
        "  Could not find a version that satisfies the requirement tensorflow<2.0,>=1.15.2 "
        "(from versions: 0.12.1, 1.0.0, 1.0.1, 1.1.0, 1.2.0, 1.2.1, 1.3.0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "pip-too-old"
    assert "without 'ERROR:'" in fix_text(top) and "upgrade pip" in fix_text(top)


def test_an_unprefixed_refusal_listing_only_older_releases_names_the_newest() -> None:
    text = (
        "  Could not find a version that satisfies the requirement tensorflow<2.0,>=1.15.2 "
        "(from versions: 1.12.0, 1.13.1, 1.14.0)\n"
        "No matching distribution found for tensorflow<2.0,>=1.15.2\n"
    )
    top = top_error(explained(text))
    assert top.cause == "pip-too-old" and "1.14.0" in fix_text(top)


def test_a_prefixed_refusal_or_an_old_request_is_not_read_as_an_old_pip() -> None:
    # A current pip's refusal with its list cut short says nothing of pip's age.
    prefixed = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow<2.0,>=1.15.2 "
        "(from versions: 0.12.1, 1.0.0, 1.0.1, 1.1.0, 1.2.0, 1.2.1, 1.3.0\n"
    )
    old_request = (
        "Could not find a version that satisfies the requirement tensorflow==1.2.0 "
        "(from versions: 1.12.0, 1.13.1)\n"
    )
    none_listed = (
        "Could not find a version that satisfies the requirement tensorflow>=2.0 "
        "(from versions: none)\n"
    )
    newer_pip = "pip 19.0.3 from /usr/lib/python3/dist-packages (python 3.6)\n" + prefixed[7:]
    for text in (prefixed, old_request, none_listed, newer_pip):
        assert _absent(explained(text), "pip-too-old"), text


def test_an_unprefixed_refusal_of_a_companion_listing_no_release_with_linux_wheels() -> None:
    # tflite-support publishes Linux wheels for every release from 0.1.0 (the bundled index);
    # a pip before 19.1 listing only its early pre-releases did not read their tags.
    text = (
        "Collecting tflite-support>=0.4.0\n"
        "  Could not find a version that satisfies the requirement tflite-support>=0.4.0 "
        "(from versions: 0.1.0a0, 0.1.0a1)\n"
        "No matching distribution found for tflite-support>=0.4.0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "pip-too-old"
    fix = fix_text(top)
    assert "manylinux1" in fix and "python -m pip install --upgrade pip" in fix
    # The reading the text leaves open, ranked second: the Python those wheels are for.
    assert "CPython 3.7 to 3.11" in fix


def test_a_companion_refusal_an_old_pip_does_not_explain_keeps_its_reading() -> None:
    prefixed = (
        "ERROR: Could not find a version that satisfies the requirement tflite-support>=0.4.0 "
        "(from versions: 0.1.0a0, 0.1.0a1)\n"
    )
    none_listed = (
        "Could not find a version that satisfies the requirement tflite-support>=0.4.0 "
        "(from versions: )\n"
    )
    # A Python no admitted release has a wheel for: the Python, not pip, is the reason.
    python_shown = (
        "$ python3 --version\nPython 3.5.2\n"
        "Could not find a version that satisfies the requirement tflite-support>=0.4.0 "
        "(from versions: 0.1.0a0, 0.1.0a1)\n"
    )
    # A listed release with Linux wheels: pip reads those tags.
    listed = (
        "Could not find a version that satisfies the requirement tflite-support>=0.4.4 "
        "(from versions: 0.4.0, 0.4.1)\n"
    )
    for text in (prefixed, none_listed, python_shown, listed):
        assert _absent(explained(text), "pip-too-old"), text


# Windows' path limit in conda's words -----------------------------------------------------


_DEEP = (
    "Lib/site-packages/tensorflow/include/external/llvm-project/mlir/_virtual_includes/"
    "BufferizableOpInterfaceIncGen/mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h.inc"
)
_CACHE = (
    "C:\\Users\\me\\AppData\\Local\\miniconda3\\pkgs\\tensorflow-base-2.10.0-mkl_py39h6a7f48e_0"
)


def _corrupted(cache: str, path: str) -> str:
    return (
        "Verifying transaction: failed\n"
        f"CondaVerificationError: The package for tensorflow-base located at {cache}\n"
        f"appears to be corrupted. The path '{path}'\n"
        "specified in the package manifest cannot be found.\n"
    )


def test_conda_missing_a_deep_windows_file_of_a_package_is_the_path_limit() -> None:
    assert len(_CACHE) + 1 + len(_DEEP) >= 250
    top = top_error(explained(_corrupted(_CACHE, _DEEP)))
    assert top.cause == "windows-long-paths"
    fix = fix_text(top)
    assert "LongPathsEnabled" in fix and "conda clean --packages" in fix


def test_conda_missing_a_short_or_a_posix_file_is_not_the_path_limit() -> None:
    short = _corrupted(_CACHE, "Lib/site-packages/numpy/__init__.py")
    posix = _corrupted("/home/me/miniconda3/pkgs/tensorflow-base-2.10.0-mkl_py39h6a7f48e_0", _DEEP)
    alone = f"appears to be corrupted. The path '{_DEEP}'\n"
    for text in (short, posix, alone):
        assert _absent(explained(text), "windows-long-paths"), text


def test_pips_path_limit_keeps_pips_fix() -> None:
    text = (
        "ERROR: Could not install packages due to an OSError: [Errno 2] No such file or "
        "directory: 'C:\\Users\\me\\AppData\\Local\\Packages\\PythonSoftwareFoundation.Python.3.11"
        "_qbz5n2kfra8p0\\LocalCache\\local-packages\\Python311\\site-packages\\tensorflow\\"
        "include\\external\\com_github_grpc_grpc\\src\\core\\ext\\filters\\client_channel\\"
        "lb_policy\\grpclb\\client_load_reporting_filter.h'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "windows-long-paths" and "same pip command" in fix_text(top)


# An x86-64 conda in Apple's channel -------------------------------------------------------


def test_an_osx64_conda_searching_apples_channel_is_emulated() -> None:
    text = (
        "PackagesNotFoundError: The following packages are not available from current channels:\n"
        "\n"
        "  - tensorflow-deps\n"
        "\n"
        "Current channels:\n"
        "\n"
        "  - https://conda.anaconda.org/apple/osx-64\n"
        "  - https://conda.anaconda.org/apple/noarch\n"
        "  - https://repo.anaconda.com/pkgs/main/osx-64\n"
    )
    found = _named(explained(text), "cpu-emulated")
    assert "Miniforge3-MacOSX-arm64.sh" in fix_text(found)


_APPLE_CHANNEL = (
    "PackagesNotFoundError: The following packages are not available from current channels:\n"
    "\n  - tensorflow-deps\n\nCurrent channels:\n\n"
    "  - https://conda.anaconda.org/apple/osx-64\n"
)


def test_an_osx64_conda_on_an_intel_mac_gets_pypi_not_the_arm64_installer() -> None:
    # An Intel Mac following Apple's guide prints the same search: its conda is native.
    text = "machdep.cpu.brand_string: Intel(R) Core(TM) i7-8850H\n" + _APPLE_CHANNEL
    causes = {f.cause for f in explained(text).findings}
    assert "cpu-emulated" not in causes
    found = _named(explained(text), "wheel-mismatch")
    fix = fix_text(found)
    assert "arm64" not in " ".join(found.fix.commands if found.fix else ())
    assert "pip install" in fix and "macOS x86-64 wheels" in fix


def test_an_osx64_conda_on_apple_silicon_shown_gets_the_arm64_conda_alone() -> None:
    found = _named(explained("macOS-12.6-arm64-arm-64bit\n" + _APPLE_CHANNEL), "cpu-emulated")
    assert "Miniforge3-MacOSX-arm64.sh" in fix_text(found) and "brand_string" not in fix_text(found)


def test_an_osx64_conda_on_a_mac_not_shown_says_how_to_tell_intel_apart() -> None:
    found = _named(explained(_APPLE_CHANNEL), "cpu-emulated")
    assert "sysctl -n machdep.cpu.brand_string" in fix_text(found)


def test_apples_arm64_channel_or_another_osx64_channel_is_not_emulation() -> None:
    arm = "  - https://conda.anaconda.org/apple/osx-arm64\n"
    forge = "  - https://conda.anaconda.org/conda-forge/osx-64\n"
    assert _absent(explained(arm), "cpu-emulated")
    assert _absent(explained(forge), "cpu-emulated")


# TensorFlow from the per-user site in a conda Python --------------------------------------


def test_tensorflow_from_the_user_site_inside_anaconda_is_shadowed() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Users\\me\\Anaconda3\\lib\\site-packages\\IPython\\core\\'
        'interactiveshell.py", line 3331, in run_code\n'
        "    exec(code_obj, self.user_global_ns, self.user_ns)\n"
        '  File "C:\\Users\\me\\AppData\\Roaming\\Python\\Python38\\site-packages\\tensorflow\\'
        '__init__.py", line 41, in <module>\n'
        "    from tensorflow.python.tools import module_util as _module_util\n"
    )
    found = _named(explained(text), "tf-shadowed-module")
    fix = fix_text(found)
    assert "Roaming" in fix and "pip uninstall -y tensorflow" in fix


def test_tensorflow_from_the_user_site_on_linux_inside_miniconda_is_shadowed() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/miniconda3/envs/tf/lib/python3.9/runpy.py", line 197, in _run_module\n'
        "    return _run_code(code, main_globals, None,\n"
        '  File "/home/me/.local/lib/python3.9/site-packages/tensorflow/__init__.py", line 37, '
        "in <module>\n"
        "    from tensorflow.python.tools import module_util as _module_util\n"
    )
    found = _named(explained(text), "tf-shadowed-module")
    assert "/home/me/.local/lib/python3.9/site-packages" in fix_text(found)


def test_the_user_site_without_conda_or_conda_alone_is_no_shadow() -> None:
    user_only = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.10/runpy.py", line 196, in _run_module_as_main\n'
        '  File "/home/me/.local/lib/python3.10/site-packages/tensorflow/__init__.py", line 37, '
        "in <module>\n"
    )
    conda_only = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/miniconda3/envs/tf/lib/python3.9/site-packages/tensorflow/__init__.py", '
        "line 37, in <module>\n"
    )
    assert _absent(explained(user_only), "tf-shadowed-module")
    assert _absent(explained(conda_only), "tf-shadowed-module")


# R bound to another Python -----------------------------------------------------------------


_R_MISSING = (
    "Error: Valid installation of TensorFlow not found.\n"
    "\n"
    "Python environments searched for 'tensorflow' package:\n"
    " {searched}\n"
    "\n"
    "You can install TensorFlow using the install_tensorflow() function.\n"
)


def test_r_searching_another_python_than_the_named_environment_is_a_session_mismatch() -> None:
    text = 'install_tensorflow(envname = "r-tf")\nuse_virtualenv("r-tf")\n' + _R_MISSING.format(
        searched="/usr/bin/python3.10"
    )
    top = top_error(explained(text))
    assert top.cause == "kernel-env-mismatch"
    assert 'reticulate::use_virtualenv("r-tf", required = TRUE)' in fix_text(top)


def test_r_searching_the_named_environment_or_naming_none_is_not_installed() -> None:
    searched = 'install_tensorflow(envname = "r-tf")\n' + _R_MISSING.format(
        searched="/home/me/.virtualenvs/r-tf/bin/python"
    )
    unnamed = _R_MISSING.format(searched="/usr/bin/python3.10")
    for text in (searched, unnamed):
        report = explained(text)
        assert _absent(report, "kernel-env-mismatch"), text
        assert _named(report, "tf-not-installed")


_R_RELAYED = (
    "Python environments searched for 'tensorflow' package:\n"
    " {searched}\n"
    "\n"
    "Python exception encountered:\n"
    " Traceback (most recent call last):\n"
    "ModuleNotFoundError: No module named 'tensorflow'\n"
)


@pytest.mark.parametrize(
    "searched",
    [
        pytest.param(
            "/home/ci/.cache/R/reticulate/uv/python/cpython-3.12.4-linux/bin/python3",
            id="uv-python",
        ),
        pytest.param(
            "/Users/me/Library/Caches/org.R-project.R/R/reticulate/uv/cache/archive-v0/Ab1/bin/python",
            id="ephemeral-macos",
        ),
        pytest.param(
            r"C:\Users\me\AppData\Local\R\cache\R\reticulate\uv\cache\archive-v0\x\Scripts\python.exe",
            id="ephemeral-windows",
        ),
    ],
)
def test_r_bound_to_reticulates_own_python_is_a_session_mismatch(searched: str) -> None:
    for template in (_R_MISSING, _R_RELAYED):
        top = top_error(explained(template.format(searched=searched)))
        assert top.cause == "kernel-env-mismatch", template
        assert "RETICULATE_PYTHON" in fix_text(top) and "py_require" in fix_text(top)
        assert "install_tensorflow" not in fix_text(top)


def test_r_searching_a_python_of_its_own_choice_beside_reticulates_is_not_installed() -> None:
    both = _R_RELAYED.format(
        searched="/home/ci/.cache/R/reticulate/uv/python/cpython-3.12.4-linux/bin/python3\n"
        " /usr/bin/python3"
    )
    report = explained(both)
    assert _absent(report, "kernel-env-mismatch")
    assert _named(report, "tf-not-installed")


@pytest.mark.parametrize(
    "exception",
    [
        pytest.param(
            "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or "
            "directory",
            id="cuda",
        ),
        pytest.param("AttributeError: module 'numpy' has no attribute 'object'", id="numpy"),
    ],
)
def test_r_bound_to_reticulates_own_python_that_has_tensorflow_is_no_session_mismatch(
    exception: str,
) -> None:
    # The R interfaces relay whatever import("tensorflow") raised under the same words: a
    # traceback through TensorFlow's own package is a Python that has it.
    env = "/home/ci/.cache/R/reticulate/uv/cache/archive-v0/Ab1"
    text = _R_MISSING.format(searched=f"{env}/bin/python") + (
        "Python exception encountered:\n"
        " Traceback (most recent call last):\n"
        f'  File "{env}/lib/python3.11/site-packages/tensorflow/__init__.py", line 40, in '
        "<module>\n"
        f"{exception}\n"
    )
    assert _absent(explained(text), "kernel-env-mismatch")


# The Model Garden's official package --------------------------------------------------------


def _garden(root: str, sep: str, message: str) -> str:
    frame = sep.join((root, "research", "object_detection", "builders", "model_builder.py"))
    return (
        "Traceback (most recent call last):\n"
        f'  File "{frame}", line 70, in <module>\n'
        "    from official.vision.image_classification.efficientnet import efficientnet_model\n"
        f"ModuleNotFoundError: {message}\n"
    )


def test_the_model_gardens_research_code_without_official_on_the_path() -> None:
    windows = _garden("d:\\work\\models", "\\", "No module named 'official.vision'")
    top = top_error(explained(windows))
    assert top.cause == "package-not-installed"
    assert "set PYTHONPATH=d:\\work\\models;d:\\work\\models\\research" in fix_text(top)
    # (`official` itself missing is the module table's: tf-models-official installs it.)
    posix = _garden("/home/me/models-master", "/", "No module named 'official.nlp'")
    top = top_error(explained(posix))
    assert top.cause == "package-not-installed"
    assert 'export PYTHONPATH="/home/me/models-master:' in fix_text(top)


def test_official_outside_a_clone_or_another_module_in_one_is_not_the_gardens_path() -> None:
    outside = _garden("/home/me/project", "/", "No module named 'official'").replace(
        "/research/", "/src/"
    )
    other = _garden("/home/me/models", "/", "No module named 'pycocotools'")
    for text in (outside, other):
        assert all("PYTHONPATH=" not in fix_text(f) for f in explained(text).findings if f.fix)


def test_an_unprefixed_refusal_a_release_before_1_15_meets_is_not_an_old_pip() -> None:
    # 1.12 to 1.14 publish manylinux1 wheels, which any pip reads: the request is not pip's to
    # fail (the matrix's lines start at 1.15; the releases before are its early releases).
    text = "Could not find a version that satisfies the requirement tensorflow<2.0.0,>=1.12.0\n"
    assert all(f.cause != "pip-too-old" for f in explained(text).findings)
