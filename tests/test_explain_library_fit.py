"""Libraries built on TensorFlow or Keras whose own code does not fit the installed release
(an import of a module or name it lacks, raised in the library's frame or named by its lazy
import), and a library that does not recognise the installed TensorFlow distribution: who
asked decides the cause, and the fix names that library."""

from __future__ import annotations

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.packages import read_listed_versions
from tfdoctor.evidence.traceback import read_tracebacks
from tfdoctor.findings import Finding, Report, Severity

_WRAPPER = (
    "Failed to import {module} because of the following error (look up to see its traceback):"
)


def _named(report: Report, cause: str) -> list[Finding]:
    return [x for x in report.findings if x.cause == cause]


def _at_least_warning(report: Report, cause: str) -> bool:
    return any(x.severity.rank >= Severity.WARNING.rank for x in _named(report, cause))


# --- a library's own import of what the installed TensorFlow or Keras lacks ---------------------


def test_a_private_name_a_librarys_pytest_frame_imports_is_that_librarys_release() -> None:
    log = (
        "/srv/ci/py3.9/lib/python3.9/site-packages/transformers/modeling_tf_utils.py:71: in "
        "<module>\n"
        "    from tensorflow.python.keras.engine import call_context\n"
        "E   ImportError: cannot import name 'call_context' from "
        "'tensorflow.python.keras.engine' (/srv/ci/py3.9/lib/python3.9/site-packages/"
        "tensorflow/python/keras/engine/__init__.py)\n"
    )
    report = explained(log)
    top = top_error(report)
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    assert 'install --upgrade "transformers<5"' in fix
    # No advice for the user's own code at error level: the code is the library's.
    assert not [x for x in _named(report, "api-removed") if x.severity is Severity.ERROR]


def test_a_keras_module_named_by_a_lazy_import_wrapper_is_that_librarys_release() -> None:
    log = "\n".join(
        (
            "Loading the node failed: " + _WRAPPER.format(module="optimum.exporters.tasks"),
            _WRAPPER.format(module="transformers.modeling_tf_utils"),
            "No module named 'keras.engine'",
        )
    )
    report = explained(log)
    top = top_error(report)
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    # The innermost wrapper names the module that imported; Keras 2.12 is the last with
    # keras.engine outside keras.src.
    assert 'install --upgrade "transformers<5"' in fix
    assert "2.12" in fix
    assert not [
        x
        for x in _named(report, "keras3-behaviour-change")
        if x.severity.rank >= Severity.WARNING.rank
    ]


def test_a_plugins_frame_importing_keras_2_12s_layout_names_the_plugin_and_keras_2_12() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/fit.py", line 2, in <module>\n'
        "    import intel_extension_for_tensorflow as itex\n"
        '  File "/home/dev/.local/lib/python3.11/site-packages/intel_extension_for_tensorflow/'
        'python/ops/norm.py", line 12, in <module>\n'
        "    from keras.engine.base_layer import Layer\n"
        "ModuleNotFoundError: No module named 'keras.engine'\n"
    )
    top = top_error(explained(log))
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    assert "intel-extension-for-tensorflow" in fix
    assert '"tensorflow~=2.12.0"' in fix


def test_a_tensorflow_name_a_wrapped_import_asks_for_is_that_librarys_release() -> None:
    log = (
        "RuntimeError: "
        + _WRAPPER.format(module="transformers.models.gpt2.modeling_tf_gpt2")
        + " module 'tensorflow' has no attribute 'experimental_nonexistent_op'\n"
    )
    report = explained(log)
    top = top_error(report)
    assert top.cause == "companion-mismatch"
    assert 'install --upgrade "transformers<5"' in fix_text(top)
    assert not [x for x in _named(report, "api-removed") if x.severity is Severity.ERROR]


def test_the_users_own_import_of_keras_engine_keeps_the_keras_3_reading() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/project/layers.py", line 4, in <module>\n'
        "    from keras.engine import base_layer\n"
        "ModuleNotFoundError: No module named 'keras.engine'\n"
    )
    report = explained(log)
    assert _at_least_warning(report, "keras3-behaviour-change")
    assert not _named(report, "companion-mismatch")


def test_a_wrapper_around_an_error_outside_tensorflow_is_not_a_library_mismatch() -> None:
    log = "\n".join(
        (
            "RuntimeError: " + _WRAPPER.format(module="transformers.pipelines"),
            "No module named 'torch.distributed.tensor'",
        )
    )
    assert not _named(explained(log), "companion-mismatch")


def test_tensorflows_own_frame_missing_its_module_is_not_a_library_mismatch() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/run.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        '  File "/opt/venv/lib/python3.10/site-packages/tensorflow/python/__init__.py", line '
        "40, in <module>\n"
        "    from tensorflow.python.eager import context\n"
        "ModuleNotFoundError: No module named 'tensorflow.python.eager'\n"
    )
    assert not _named(explained(log), "companion-mismatch")


# --- a TensorFlow distribution the library does not recognise -----------------------------------

_NOTICE = (
    "None of PyTorch, TensorFlow >= 2.0, or Flax have been found. Models won't be available "
    "and only tokenizers, configuration and file/data utilities can be used."
)
_PLACEHOLDER = (
    "ImportError: \nTFBertModel requires the TensorFlow library but it was not found in your "
    "environment. Checkout the instructions on the\ninstallation page: "
    "https://www.tensorflow.org/install and follow the ones that match your environment.\n"
)


def _listing(*rows: tuple[str, str]) -> str:
    return "$ pip list\nPackage    Version\n---------- -------\n" + "".join(
        f"{name:<24} {version}\n" for name, version in rows
    )


def test_the_notice_beside_a_listed_rocm_build_is_an_unrecognised_distribution() -> None:
    log = _listing(("tensorflow-rocm", "2.3.1"), ("numpy", "1.19.5")) + (
        ">>> import transformers\n" + _NOTICE + "\n"
    )
    report = explained(log)
    found = _named(report, "tf-distribution-unrecognised")
    assert found and found[0].severity is Severity.WARNING
    fix = fix_text(found[0])
    assert 'install --upgrade "transformers<5"' in fix and "tensorflow-rocm" in fix


def test_a_placeholder_beside_a_listed_nightly_is_an_unrecognised_distribution() -> None:
    log = _listing(("tf-nightly", "2.5.0.dev20210119")) + _PLACEHOLDER
    report = explained(log)
    top = top_error(report)
    assert top.cause == "tf-distribution-unrecognised"
    assert 'install --upgrade "transformers<5"' in fix_text(top)
    assert not _named(report, "tf-not-installed")


def test_a_distribution_no_release_lists_is_replaced_by_tensorflow() -> None:
    log = _listing(("tensorflow-cpu-aws", "2.15.1")) + _PLACEHOLDER
    top = top_error(explained(log))
    assert top.cause == "tf-distribution-unrecognised"
    fix = fix_text(top)
    assert "uninstall -y tensorflow-cpu-aws" in fix
    # TensorFlow of the listed line, not the newest (which may bring Keras 3 and another CUDA).
    assert '"tensorflow~=2.15.0"' in fix


def test_the_notice_alone_is_a_note() -> None:
    report = explained(_NOTICE + "\n")
    assert all(x.severity.rank < Severity.WARNING.rank for x in report.findings)
    assert not _named(report, "tf-distribution-unrecognised")


def test_the_notice_beside_plain_tensorflow_is_not_a_name_transformers_misses() -> None:
    log = _listing(("tensorflow", "2.15.0"), ("tensorflow-estimator", "2.15.0")) + _NOTICE
    assert not _named(explained(log), "tf-distribution-unrecognised")


def test_the_notice_beside_tensorflow_1_is_refused_for_its_version_not_its_name() -> None:
    log = _listing(("tensorflow-gpu", "1.15.0")) + _NOTICE
    assert not _named(explained(log), "tf-distribution-unrecognised")


def test_a_placeholder_with_no_tensorflow_shown_stays_not_installed() -> None:
    report = explained(_PLACEHOLDER)
    top = top_error(report)
    assert top.cause == "tf-not-installed"
    # The same words for a TensorFlow under a name Transformers' list lacks: the other
    # candidate, after the reading, whose fix lists the distribution before any step.
    (other,) = _named(report, "tf-distribution-unrecognised")
    assert other.severity is Severity.WARNING and other.summary.endswith("(the other candidate)")
    assert report.findings.index(top) < report.findings.index(other)
    fix = fix_text(other)
    assert fix.splitlines()[1].startswith("pip list")  # no interpreter shown: pip's own
    assert "transformers" in fix


def test_a_listing_without_tensorflow_leaves_no_other_candidate() -> None:
    log = _listing(("torch", "1.7.1"), ("transformers", "4.2.0")) + _PLACEHOLDER
    report = explained(log)
    assert top_error(report).cause == "tf-not-installed"
    assert not _named(report, "tf-distribution-unrecognised")


def test_no_module_tensorflow_beside_a_placeholder_leaves_no_other_name() -> None:
    # Every TensorFlow distribution installs the module 'tensorflow': none is there.
    log = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        "ModuleNotFoundError: No module named 'tensorflow'\n"
    ) + _PLACEHOLDER
    report = explained(log)
    assert top_error(report).cause == "tf-not-installed"
    assert not _named(report, "tf-distribution-unrecognised")


def test_a_tensorflow_1_shown_beside_a_placeholder_leaves_no_other_name() -> None:
    # Transformers refuses TensorFlow 1.x for its version, whatever its distribution's name.
    report = explained("TensorFlow version: 1.15.0\n" + _PLACEHOLDER)
    assert top_error(report).cause == "tf-not-installed"
    assert not _named(report, "tf-distribution-unrecognised")


# --- what the evidence layer reads ---------------------------------------------------------------


def test_a_listing_names_tensorflows_other_distributions_with_a_nightlys_version() -> None:
    listed = read_listed_versions(
        "tf-nightly               2.5.0.dev20210119\ntensorflow-rocm          2.4.0\n"
    )
    assert listed == {"tf-nightly": "2.5.0.dev20210119", "tensorflow-rocm": "2.4.0"}
    # A requirement's pin, with no freeze shown, is not what is installed.
    assert "tf-nightly" not in read_listed_versions("tf-nightly==2.5.0.dev20210119\n")


def test_a_listing_names_the_companions_not_named_after_tensorflow() -> None:
    names = ("dm-sonnet", "intel-extension-for-tensorflow", "spektral", "tf-slim", "transformers")
    listed = read_listed_versions(
        "intel-extension-for-tensorflow 1.1.0\ndm-sonnet        1.36\ntf_slim  1.1.0\n"
        "spektral 0.6.0\ntransformers                 4.3.0\n",
        names,
    )
    assert listed == {
        "intel-extension-for-tensorflow": "1.1.0",
        "dm-sonnet": "1.36",
        "tf-slim": "1.1.0",
        "spektral": "0.6.0",
        "transformers": "4.3.0",
    }


def test_a_listed_library_below_the_tensorflow_its_code_imports_under_is_a_mismatch() -> None:
    # transformers 4.2's TF models need TensorFlow 2.3 (the companion table's built_on rows).
    report = explained("transformers                 4.2.0\ntensorflow                   2.2.0\n")
    found = [x for x in report.findings if x.cause == "companion-mismatch"]
    assert [x.severity for x in found] == [Severity.WARNING]
    assert 'pip install "tensorflow>=2.3"' in fix_text(found[0])
    fitting = explained("transformers                 4.2.0\ntensorflow                   2.3.0\n")
    assert not [x for x in fitting.findings if x.cause == "companion-mismatch"]


def test_the_innermost_wrapper_is_the_module_that_raised() -> None:
    text = "\n".join(
        (
            _WRAPPER.format(module="optimum.onnxruntime.modeling_ort"),
            _WRAPPER.format(module="transformers.modeling_tf_utils"),
            "No module named 'keras.engine'",
        )
    )
    (tb,) = read_tracebacks(text)
    assert tb.wrapper == "transformers.modeling_tf_utils"
    # A wrapper two lines up, past a blank line, names nothing.
    (far,) = read_tracebacks(_WRAPPER.format(module="a.b") + "\n\nNo module named 'keras.engine'")
    assert far.wrapper == ""


_STARTUP = (
    "2021-03-02 10:11:12.123456: I tensorflow/stream_executor/platform/default/"
    "dso_loader.cc:49] Successfully opened dynamic library libamdhip64.so\n"
)


def test_the_notice_after_tensorflows_own_lines_asks_which_distribution_it_is() -> None:
    report = explained(_STARTUP + ">>> import transformers\n" + _NOTICE + "\n")
    found = _named(report, "tf-distribution-unrecognised")
    assert found and found[0].severity is Severity.WARNING
    fix = fix_text(found[0])
    assert "pip list" in fix and 'install --upgrade "transformers<5"' in fix
    # Where that TensorFlow is 1.x, the notice is right about it.
    assert "1.x" in fix


def test_tensorflows_own_lines_beside_a_listed_tensorflow_1_are_not_this() -> None:
    log = _STARTUP + _listing(("tensorflow-rocm", "1.15.12")) + _NOTICE
    assert not _named(explained(log), "tf-distribution-unrecognised")


def test_another_programs_log_line_is_not_tensorflows() -> None:
    log = "I0302 10:11:12.123456 1234 cuda_dnn.cc:529] Loaded cuDNN version 8902\n" + _NOTICE + "\n"
    assert not _named(explained(log), "tf-distribution-unrecognised")


# --- what the fix installs: a distribution's name, and one way at a time ------------------------


def _commands(finding: Finding) -> tuple[str, ...]:
    assert finding.fix is not None
    return finding.fix.commands


def test_an_import_name_the_module_table_lacks_is_looked_up_never_installed() -> None:
    # object_detection (TensorFlow's Object Detection API, installed from its source tree) is
    # not PyPI's object-detection; a user's own package installed into site-packages has no
    # PyPI project at all.
    for top in ("object_detection", "mymodels"):
        log = (
            "Traceback (most recent call last):\n"
            '  File "/home/dev/train.py", line 2, in <module>\n'
            f"    import {top}\n"
            f'  File "/home/dev/venv/lib/python3.11/site-packages/{top}/layers.py", line 12, '
            "in <module>\n"
            "    from keras.engine.base_layer import Layer\n"
            "ModuleNotFoundError: No module named 'keras.engine'\n"
        )
        top_finding = top_error(explained(log))
        assert top_finding.cause == "companion-mismatch"
        commands = _commands(top_finding)
        assert not [c for c in commands if "install" in c.split()], commands
        assert any(c.startswith(f"pip show {top.replace('_', '-')}") for c in commands)


def test_a_wrapped_import_of_an_unknown_package_is_looked_up_never_installed() -> None:
    log = (
        "RuntimeError: "
        + _WRAPPER.format(module="mymodels.layers")
        + " module 'tensorflow' has no attribute 'experimental_nonexistent_op'\n"
    )
    top = top_error(explained(log))
    assert top.cause == "companion-mismatch"
    assert not [c for c in _commands(top) if "install" in c.split()]
    assert "pip show mymodels" in fix_text(top)


def test_the_keras_2_12_way_out_is_told_not_run_after_the_upgrade() -> None:
    log = "\n".join(
        (
            _WRAPPER.format(module="transformers.modeling_tf_utils"),
            "No module named 'keras.engine'",
        )
    )
    top = top_error(explained(log))
    commands = _commands(top)
    # The commands run in order: installing Keras 2.12 after the upgrade would undo it.
    assert any('install --upgrade "transformers<5"' in c for c in commands)
    assert not [c for c in commands if "~=2.12.0" in c]
    assert top.fix is not None and '"keras~=2.12.0"' in top.fix.text


def test_an_upgrade_of_transformers_stays_below_5_which_has_no_tensorflow_code() -> None:
    wrapped = top_error(
        explained(
            "RuntimeError: "
            + _WRAPPER.format(module="transformers.models.gpt2.modeling_tf_gpt2")
            + " module 'tensorflow' has no attribute 'experimental_nonexistent_op'\n"
        )
    )
    unrecognised = top_error(
        explained(_listing(("tf-nightly", "2.5.0.dev20210119")) + _PLACEHOLDER)
    )
    for finding in (wrapped, unrecognised):
        upgrades = [c for c in _commands(finding) if "--upgrade" in c and "transformers" in c]
        assert upgrades and all('"transformers<5"' in c for c in upgrades), upgrades
        assert finding.fix is not None and "5 has no TensorFlow code" in finding.fix.text


def test_no_upgrade_runs_before_the_listing_says_which_distribution_it_is() -> None:
    (found,) = _named(
        explained(_STARTUP + ">>> import transformers\n" + _NOTICE + "\n"),
        "tf-distribution-unrecognised",
    )
    commands = _commands(found)
    assert len(commands) == 1 and "pip list" in commands[0]


def test_jaxs_log_line_from_tensorflows_xla_tree_is_not_tensorflow_imported() -> None:
    # jaxlib built XLA from TensorFlow's tree: its lines name external/org_tensorflow/.
    log = (
        "2023-02-07 10:39:21.397297: W external/org_tensorflow/tensorflow/compiler/xla/"
        "stream_executor/cuda/cuda_driver.cc:263] failed call to cuInit: CUDA_ERROR_NO_DEVICE\n"
        + _NOTICE
        + "\n"
    )
    assert not _named(explained(log), "tf-distribution-unrecognised")
