"""Libraries on TensorFlow and the dependencies they pin: an exact pin pip reports against the
release installed (``library-pin-conflicts``), an older release of a dependency that pip's
resolver went back to and cannot build from source (``pinned-sdist-unbuildable``), an
installed dependency pip replaced with a source build that fails
(``dependency-sdist-build-fails``), and a library's requirement pip says is not installed
(``dependency-missing``)."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Finding, Severity


def _of(text: str, cause: str) -> list[Finding]:
    return [f for f in explained(text).findings if f.cause == cause]


def _warned(text: str, cause: str) -> Finding:
    found = [f for f in _of(text, cause) if f.severity.rank >= Severity.WARNING.rank]
    assert found, [f"{f.id}:{f.severity}" for f in explained(text).findings]
    return found[0]


_RESOLVER = (
    "ERROR: pip's dependency resolver does not currently take into account all the packages "
    "that are installed. This behaviour is the source of the following dependency conflicts.\n"
)


# --- library-pin-conflicts ------------------------------------------------------------------


def test_a_library_on_tensorflow_pinning_a_dependency_exactly_is_named() -> None:
    text = (
        _RESOLVER + "deepctr 0.9.3 requires h5py==3.7.0, but you have h5py 3.11.0 which is "
        "incompatible.\n"
    )
    found = _warned(text, "library-pin-conflicts")
    fix = fix_text(found)
    assert "deepctr" in fix and "h5py==3.7.0" in fix and "h5py 3.11.0" in fix
    assert "pip index versions deepctr" in fix
    # No blind upgrade: it may keep the pin, or move TensorFlow's own dependencies.
    assert found.fix is not None
    assert not any("--upgrade deepctr" in c for c in found.fix.commands)


def test_a_library_on_tensorflow_with_a_range_is_not_a_pin() -> None:
    text = (
        _RESOLVER + "tf-agents 0.19.0 requires gym<=0.23.0,>=0.17.0, but you have gym 0.26.2 "
        "which is incompatible.\n"
    )
    assert not _of(text, "library-pin-conflicts")


def test_an_exact_pin_of_a_package_not_on_tensorflow_is_not_this_cause() -> None:
    # Colab's own package pins requests; it is no library written against TensorFlow.
    text = (
        _RESOLVER + "google-colab 1.0.0 requires requests==2.31.0, but you have requests 2.32.3 "
        "which is incompatible.\n"
    )
    assert not _of(text, "library-pin-conflicts")


def test_an_exact_pin_the_installed_release_meets_is_no_conflict() -> None:
    text = "Requirement already satisfied: h5py==3.7.0 in ./venv/lib/python3.10/site-packages\n"
    assert not _of(text, "library-pin-conflicts")


# --- pinned-sdist-unbuildable ---------------------------------------------------------------


def _backtracked(dist: str, version: str) -> str:
    return (
        f"INFO: pip is looking at multiple versions of {dist} to determine which version is "
        "compatible with other requirements. This could take a while.\n"
        f"  Downloading {dist}-{version}.tar.gz (12.3 MB)\n"
        "  Installing build dependencies ... done\n"
        "  Getting requirements to build wheel ... error\n"
        "  error: subprocess-exited-with-error\n"
        "\n"
        "  \u00d7 Getting requirements to build wheel did not run successfully.\n"
        "  │ exit code: 1\n"
    )


def test_an_old_release_the_resolver_went_back_to_is_told_its_build_tools() -> None:
    found = _warned(_backtracked("scikit-learn", "0.24.2"), "pinned-sdist-unbuildable")
    assert found.severity == Severity.ERROR
    fix = fix_text(found)
    assert "scikit-learn" in fix and "cython<3" in fix.lower()
    assert '--no-build-isolation "scikit-learn==0.24.2"' in fix


def test_a_source_build_without_backtracking_keeps_its_reading() -> None:
    text = _backtracked("scikit-learn", "0.24.2").replace("pip is looking at", "pip looked at")
    assert not _of(text, "pinned-sdist-unbuildable")
    assert _of(text, "tf-release-not-for-python")


def test_the_resolver_going_back_over_another_package_is_not_this_build() -> None:
    text = _backtracked("scikit-learn", "0.24.2").replace(
        "multiple versions of scikit-learn", "multiple versions of pandas"
    )
    assert not _of(text, "pinned-sdist-unbuildable")


def test_backtracking_that_ends_in_a_built_wheel_is_no_finding() -> None:
    text = (
        "INFO: pip is looking at multiple versions of pyyaml to determine which version is "
        "compatible with other requirements. This could take a while.\n"
        "  Downloading PyYAML-5.4.1.tar.gz (175 kB)\n"
        "Building wheels for collected packages: pyyaml\n"
        "  Building wheel for pyyaml (pyproject.toml) ... done\n"
        "Successfully installed pyyaml-5.4.1\n"
    )
    assert not _of(text, "pinned-sdist-unbuildable")


# --- dependency-sdist-build-fails -----------------------------------------------------------


def _replaced(dist: str, installed: str) -> str:
    return (
        f"  Building wheel for {dist} (setup.py) ... error\n"
        f"  ERROR: Failed building wheel for {dist}\n"
        f"Failed to build {dist}\n"
        f"Installing collected packages: {dist}, numba\n"
        f"  Attempting uninstall: {dist}\n"
        f"    Found existing installation: {dist} {installed}\n"
        f"    Uninstalling {dist}-{installed}:\n"
        f"      Successfully uninstalled {dist}-{installed}\n"
        f"  \u00d7 Running setup.py install for {dist} did not run successfully.\n"
    )


def test_a_wheel_pip_replaced_with_a_failing_source_build_is_kept_by_a_pin() -> None:
    found = _warned(_replaced("llvmlite", "0.40.1"), "dependency-sdist-build-fails")
    fix = fix_text(found)
    assert "llvmlite==0.40.1" in fix and "constraints" in fix


def test_another_package_replaced_beside_the_failed_build_is_not_this_cause() -> None:
    text = _replaced("llvmlite", "0.40.1").replace(
        "Found existing installation: llvmlite", "Found existing installation: numba"
    )
    assert not _of(text, "dependency-sdist-build-fails")


def test_a_replaced_wheel_whose_build_succeeded_is_no_finding() -> None:
    text = (
        "  Attempting uninstall: llvmlite\n"
        "    Found existing installation: llvmlite 0.40.1\n"
        "  Building wheel for llvmlite (setup.py) ... done\n"
        "Successfully installed llvmlite-0.41.0\n"
    )
    assert not _of(text, "dependency-sdist-build-fails")


def test_tensorflow_built_from_source_keeps_its_own_reading() -> None:
    text = _replaced("tensorflow", "2.15.0")
    assert not _of(text, "dependency-sdist-build-fails")


# --- companion-mismatch: a library asking Keras' top level for what it lacks -----------------


def _keras_asked(path: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 1, in <module>\n'
        "    import textlib\n"
        f'  File "{path}", line 12, in <module>\n'
        "    models = keras.models_v2\n"
        "AttributeError: module 'keras' has no attribute 'models_v2'\n"
    )


def test_a_library_asking_keras_for_a_missing_name_is_named() -> None:
    text = _keras_asked("/usr/lib/python3.10/site-packages/keras_textlib/backend.py")
    found = _warned(text, "companion-mismatch")
    assert "keras-textlib" in fix_text(found)


def test_the_users_own_code_asking_keras_is_not_a_library() -> None:
    text = _keras_asked("/home/user/proj/backend.py")
    assert not _of(text, "companion-mismatch")


def test_a_library_missing_a_name_of_another_module_is_not_keras() -> None:
    text = _keras_asked("/usr/lib/python3.10/site-packages/keras_textlib/backend.py")
    text = text.replace("module 'keras'", "module 'kerastuner'").replace(
        "keras.models_v2", "kerastuner.models_v2"
    )
    assert not _of(text, "companion-mismatch")


def test_ipython7_module_frames_without_parentheses_name_the_library() -> None:
    # IPython 7 prints a module's own frame as `path.py in <module>` (older releases add "()").
    text = (
        "AttributeError                            Traceback (most recent call last)\n"
        "<ipython-input-2-0a1b2c3d> in <module>\n"
        "----> 1 import gplib\n"
        "\n"
        "~/.local/lib/python3.7/site-packages/gplib/session.py in <module>\n"
        "     10 \n"
        "---> 11 class Tracer(tf.Session):\n"
        "     12     pass\n"
        "\n"
        "AttributeError: module 'tensorflow' has no attribute 'Session'\n"
    )
    found = _warned(text, "companion-mismatch")
    assert "gplib" in fix_text(found)


def test_a_companion_of_tensorflow_built_from_source_keeps_its_reading() -> None:
    # tensorflow-text without a wheel for the platform: no old-build-tools fix.
    text = _backtracked("tensorflow-text", "2.10.0")
    assert not _of(text, "pinned-sdist-unbuildable")


# --- tf-no-wheel-for-python: an old release pip fell back to ---------------------------------


def _fell_back(request: str, dist: str, version: str) -> str:
    """pip taking ``dist`` asked for as ``request``, then a requirement of it that only has a
    source archive, whose metadata step fails (pip 23's words)."""
    return (
        f"$ pip install {request}\n"
        f"Collecting {request}\n"
        f"  Downloading {dist}-{version}-py3-none-any.whl.metadata (9.4 kB)\n"
        f"Collecting absl-py<0.9,>=0.7 (from {dist})\n"
        "  Downloading absl-py-0.8.1.tar.gz (103 kB)\n"
        "  error: subprocess-exited-with-error\n"
        "  \n"
        "  \u00d7 python setup.py egg_info did not run successfully.\n"
        "  │ exit code: 1\n"
        "  Preparing metadata (setup.py) ... error\n"
        "error: metadata-generation-failed\n"
    )


def test_an_unpinned_package_pip_fell_back_to_an_old_release_of_is_the_python() -> None:
    from tfdoctor.wheel_index import releases_of

    found = _warned(_fell_back("tfx", "tfx", "0.23.1"), "tf-no-wheel-for-python")
    assert found.severity == Severity.ERROR
    fix = fix_text(found)
    newest = releases_of("tfx")[-1]
    # The index's newest release and its Requires-Python: the Python that does install.
    assert f"tfx {newest.version}" in fix and newest.requires_python in fix
    assert "tfx 0.23.1" in fix and "absl-py 0.8.1" in fix and 'install "tfx>0.23.1"' in fix
    assert not _of(_fell_back("tfx", "tfx", "0.23.1"), "tf-release-not-for-python")


def test_a_pinned_request_of_the_old_release_is_not_a_fallback() -> None:
    text = _fell_back("tfx==0.23.1", "tfx", "0.23.1")
    assert not _of(text, "tf-no-wheel-for-python")
    assert _of(text, "tf-release-not-for-python")


def test_the_newest_release_chosen_is_not_a_fallback() -> None:
    from tfdoctor.wheel_index import releases_of

    newest = releases_of("tfx")[-1].version
    assert not _of(_fell_back("tfx", "tfx", newest), "tf-no-wheel-for-python")


def test_a_package_the_index_does_not_list_is_not_read_as_a_fallback() -> None:
    assert not _of(_fell_back("somepkg", "somepkg", "0.1.0"), "tf-no-wheel-for-python")


def test_a_release_whose_newer_ones_share_its_python_range_is_not_a_fallback() -> None:
    from tfdoctor.wheel_index import releases_of

    # tfx 0.22.0 to 0.23.1 declare the same Requires-Python: pip could have taken 0.23.1.
    assert releases_of("tfx")
    assert not _of(_fell_back("tfx", "tfx", "0.22.0"), "tf-no-wheel-for-python")


def test_read_collected_reads_the_request_its_origin_and_the_file_chosen() -> None:
    from tfdoctor.evidence.pip import Collected, read_collected

    text = (
        "Collecting tfx (from -r requirements.txt (line 1))\n"
        "  Downloading https://files.pythonhosted.org/packages/ab/tfx-0.23.1-py3-none-any.whl "
        "(1.7MB)\n"
        "Collecting absl-py<0.9,>=0.7 (from tfx->-r requirements.txt (line 1))\n"
        "  Using cached absl-py-0.8.1.tar.gz (103 kB)\n"
        "Collecting numpy\n"
        "  Using cached scipy-1.0.0.tar.gz\n"
    )
    assert read_collected(text) == [
        Collected("tfx", "", "", "0.23.1", "any"),
        Collected("absl-py", "<0.9,>=0.7", "tfx", "0.8.1"),
    ]
    # A Docker build's prefix before each of pip's lines.
    docker = "#11 34.21 Collecting tfx\n#11 34.22   Using cached tfx-0.23.1-py3-none-any.whl\n"
    assert read_collected(docker) == [Collected("tfx", "", "", "0.23.1", "any")]


def _refused_after(request: str, version: str) -> str:
    """pip taking tfx asked for as ``request``, then refusing that release's TensorFlow range."""
    return (
        f"$ pip install {request}\n"
        f"Collecting {request}\n"
        f"  Downloading tfx-{version}-py3-none-any.whl (1.7 MB)\n"
        "ERROR: Could not find a version that satisfies the requirement "
        "tensorflow!=2.0.*,<2.4,>=1.15.2 (from tfx) (from versions: 2.12.0, 2.13.0, 2.14.0)\n"
        "ERROR: No matching distribution found for tensorflow!=2.0.*,<2.4,>=1.15.2\n"
    )


def test_a_refused_requirement_of_an_old_release_pip_fell_back_to_is_the_python() -> None:
    found = _warned(_refused_after("tfx", "0.23.1"), "tf-no-wheel-for-python")
    assert found.summary.startswith("pip fell back to tfx 0.23.1")
    fix = fix_text(found)
    assert "tensorflow!=2.0.*,<2.4,>=1.15.2" in fix and "fails to build" not in fix


def test_a_refused_requirement_of_a_pinned_release_is_no_fallback() -> None:
    found = explained(_refused_after("tfx==0.23.1", "0.23.1")).findings
    assert not any(f.summary.startswith("pip fell back") for f in found)


def _fell_back_on(python: str) -> str:
    """:func:`_fell_back` for ``tfx`` on a Python the log's own traceback shows."""
    return _fell_back("tfx", "tfx", "0.23.1").replace(
        "  Preparing metadata",
        f'      File "/usr/lib/python{python}/site-packages/setuptools/dist.py", line 1\n'
        "  Preparing metadata",
    )


@pytest.mark.parametrize("python", ["3.9", "3.12"], ids=["py39", "py312"])
def test_a_fallback_on_a_python_a_newer_release_supports_names_that_release(python: str) -> None:
    from tfdoctor.wheel_index import releases_of

    found = _warned(_fell_back_on(python), "tf-no-wheel-for-python")
    fix = fix_text(found)
    fits = [r for r in releases_of("tfx") if r.python_fits(python)]
    # The newest release for this Python installs here: no other Python, no claim that every
    # newer release excludes this one.
    assert fits and f'pip install "tfx=={fits[-1].version}"' in fix
    assert "with a Python its current releases support" not in fix
    assert "exclude this Python" not in found.summary


def test_a_fallback_on_a_python_no_newer_release_supports_names_the_newest() -> None:
    from tfdoctor.wheel_index import releases_of

    # tfx 0.23.1 is the last release whose Requires-Python admits 3.5.
    assert not [r for r in releases_of("tfx")[-20:] if r.python_fits("3.5")]
    found = _warned(_fell_back_on("3.5"), "tf-no-wheel-for-python")
    assert "with a Python its current releases support" in fix_text(found)


def test_a_companion_pin_on_an_unknown_system_claims_no_wheel_here() -> None:
    """The log names no system: the pinned release's wheels are for some platforms only, so
    the fix names them and does not say this machine is one."""
    log = (
        "$ python3 --version\nPython 3.11.9\n$ pip install tensorflow-io==0.31.0\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow-io==0.31.0 "
        "(from versions: 0.32.0, 0.33.0, 0.34.0, 0.35.0, 0.36.0, 0.37.0, 0.37.1)\n"
        "ERROR: No matching distribution found for tensorflow-io==0.31.0\n"
    )
    text = fix_text(top_error(explained(log)))
    assert "has a wheel for Python 3.11 here" not in text
    assert "tensorflow-io 0.31.0 has a wheel for Python 3.11 on " in text
    assert "on another platform that release has no wheel" in text


# --- dependency-missing of a library ----------------------------------------------------------

_CHECKED = (
    "$ pip install --no-deps tf-models-official==2.15.0\n"
    "Successfully installed tf-models-official-2.15.0\n"
    "$ pip check\n"
    "tf-models-official 2.15.0 requires tensorflow-text, which is not installed.\n"
    "tf-models-official 2.15.0 requires sacrebleu, which is not installed.\n"
    # `pip check` prints the name alone (commands/check.py), no range.
    "deepctr 0.9.3 requires tqdm, which is not installed.\n"
)


def _failing_import(module: str, path: str) -> str:
    return (
        "$ python train.py\n"
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/train.py", line 2, in <module>\n'
        "    from official.nlp import optimization\n"
        f'  File "/home/u/venv/lib/python3.11/site-packages/{path}", line 19, in <module>\n'
        f"    import {module}\n"
        f"ModuleNotFoundError: No module named '{module}'\n"
    )


@pytest.mark.parametrize(
    ("target", "module", "path", "command"),
    [
        pytest.param(
            "tensorflow-text",
            "tensorflow_text",
            "official/nlp/optimization.py",
            "pip index versions tensorflow-text",
            id="a-companion-in-its-release-for-the-installed-tensorflow",
        ),
        pytest.param(
            "tqdm",
            "tqdm",
            "deepctr/utils.py",
            # The range is not in pip check's words: the requirer asked for again brings it.
            'pip install "deepctr==0.9.3"',
            id="another-package-by-its-requirer",
        ),
    ],
)
def test_a_librarys_requirement_not_installed_under_a_failure_through_it_is_warned(
    target: str, module: str, path: str, command: str
) -> None:
    text = _CHECKED + _failing_import(module, path)
    found = [f for f in _of(text, "dependency-missing") if f.summary.startswith(target)]
    assert len(found) == 1 and found[0].severity == Severity.WARNING
    assert found[0].fix is not None and command in found[0].fix.commands
    # A companion's bare install would bring its newest release, and a TensorFlow with it.
    assert 'pip install "tensorflow-text"' not in found[0].fix.commands
    # The requirement nothing in the log went through stays unsaid.
    assert not [f for f in _of(text, "dependency-missing") if "sacrebleu" in f.summary]


def test_pips_notice_after_an_install_gives_the_range_to_install() -> None:
    text = (
        "$ pip install --no-deps deepctr==0.9.3\n"
        "Successfully installed deepctr-0.9.3\n"
        "deepctr 0.9.3 requires tqdm>=4.0, which is not installed.\n"
    ) + _failing_import("tqdm", "deepctr/utils.py")
    (found,) = _of(text, "dependency-missing")
    assert found.summary.endswith("(tqdm>=4.0)")
    assert found.fix is not None and 'pip install "tqdm>=4.0"' in found.fix.commands


def test_pip_checks_notice_claims_no_range_it_does_not_print() -> None:
    text = _CHECKED + _failing_import("tqdm", "deepctr/utils.py")
    (found,) = [f for f in _of(text, "dependency-missing") if f.summary.startswith("tqdm")]
    assert found.summary == "tqdm is not installed, though deepctr 0.9.3 requires it"
    assert "which the log does not show" in fix_text(found)


def test_pips_notice_of_a_requirement_not_installed_alone_is_a_note() -> None:
    found = _of(_CHECKED, "dependency-missing")
    assert found and all(f.severity == Severity.INFO for f in found)
    assert all(f.severity.rank <= Severity.INFO.rank for f in explained(_CHECKED).findings)


def test_a_failure_through_neither_package_leaves_the_notice_unsaid() -> None:
    text = _CHECKED + (
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/app.py", line 1, in <module>\n'
        "    import gradio\n"
        "ModuleNotFoundError: No module named 'gradio'\n"
    )
    assert not [f for f in _of(text, "dependency-missing") if f.severity.rank > 0]


def test_pkg_resources_refusing_a_librarys_requirement_ends_the_program() -> None:
    text = (
        '  File "/home/u/venv/lib/python3.8/site-packages/pkg_resources/__init__.py", line 786, '
        "in resolve\n"
        "    raise DistributionNotFound(req, requirers)\n"
        "pkg_resources.DistributionNotFound: The 'tensorflow-addons>=0.13' distribution was not "
        "found and is required by tf-models-official\n"
    )
    found = _warned(text, "dependency-missing")
    assert found.severity == Severity.ERROR
    assert found.summary.startswith("tensorflow-addons is not installed, though tf-models-official")
    assert found.fix is not None and "pip index versions tensorflow-addons" in found.fix.commands


def test_a_failure_through_the_requirer_that_names_another_module_leaves_the_notice_a_note() -> (
    None
):
    # pip's notice after an install, then a run that fails through the requirer's code for
    # another reason: the package not installed is not what failed.
    text = (
        "$ pip install tf-models-official==2.15.0\n"
        "Successfully installed tf-models-official-2.15.0\n"
        "tf-models-official 2.15.0 requires tensorflow-text~=2.15.0, which is not installed.\n"
        "$ python train.py\n"
        "Traceback (most recent call last):\n"
        '  File "/home/u/venv/lib/python3.11/site-packages/official/core/base_trainer.py", '
        "line 312, in train_step\n"
        "    outputs = self.model(inputs, training=True)\n"
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating "
        "tensor with shape[65536,65536] and type float on /job:localhost/replica:0/task:0/"
        "device:GPU:0 by allocator GPU_0_bfc [Op:MatMul]\n"
    )
    assert not [f for f in _of(text, "dependency-missing") if f.severity.rank > 0]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "$ python -m myservice\n"
            "WARNING stevedore.extension Could not load 'tf_plugin': The "
            "'tensorflow-serving-api>=2.0' distribution was not found and is required by "
            "myservice-plugins\n"
            "INFO myservice started, 3 extensions loaded\n",
            id="a-plugin-loaders-warning",
        ),
        pytest.param(
            "/home/u/venv/lib/python3.10/site-packages/somelib/__init__.py:12: UserWarning: "
            "optional extra not available: The 'pillow>=8' distribution was not found and is "
            "required by somelib\n"
            "Epoch 1/3\n",
            id="a-library-warning",
        ),
    ],
)
def test_pkg_resources_words_a_program_caught_and_logged_are_a_note(text: str) -> None:
    assert _of(text, "dependency-missing")
    assert all(f.severity.rank <= Severity.INFO.rank for f in explained(text).findings)


def test_pkg_resources_words_for_a_scripts_own_requirement_name_no_package() -> None:
    text = (
        "pkg_resources.DistributionNotFound: The 'h5py' distribution was not found and is "
        "required by the application\n"
    )
    assert all("though the requires" not in f.summary for f in explained(text).findings)
    assert not _of(text, "dependency-missing")
