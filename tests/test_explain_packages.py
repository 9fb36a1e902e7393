"""What explain reads of packages: pip's conflict reports (installed, missing, and
ResolutionImpossible), companions' import-time checks of TensorFlow, and Keras 3 refusing an
object of a library written for Keras 2. Every log here is written for the test, a variant
of the family, so that no rule rests on one thread's words."""

from __future__ import annotations

import dataclasses
import time
from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text, readings, top_error
from tfdoctor.evidence.devices import visible_devices_set
from tfdoctor.evidence.packages import (
    Conflict,
    read_conda_rows,
    read_conflicts,
    read_echoed_versions,
    read_import_checks,
    read_install_requests,
    read_numpy_builds,
    read_pip_installed,
    read_stale_import,
)
from tfdoctor.explain import explain
from tfdoctor.explain.api import _last_keras2_line
from tfdoctor.explain.packages import keyword_added
from tfdoctor.explain.reader import split_text
from tfdoctor.facts import Facts, PackageFacts
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.matrix import load_matrix
from tfdoctor.scan.rules import load_rules
from tfdoctor.signatures import load_signatures

SIGNATURES = load_signatures()


def _explain(text: str) -> Report:
    return explain([split_text(text)], SIGNATURES, f.FIXTURE_MATRIX)


def _bundled(text: str) -> Report:
    """The report with the bundled matrix (its early releases and platforms)."""
    return explain([split_text(text)], SIGNATURES, load_matrix())


def _one(report: Report, cause: str) -> Finding:
    found = [x for x in report.findings if x.cause == cause]
    assert len(found) == 1, [(x.id, x.severity.value) for x in report.findings]
    return found[0]


def _fix(finding: Finding) -> str:
    assert finding.fix is not None
    return "\n".join((finding.fix.text, *finding.fix.commands))


# --- reading pip's conflict reports -------------------------------------------------------------


#: A conflict as pip prints it, and what is read: requirer, its version, target, specifier,
#: kind and (for an installed target) the version pip found.
READ = {
    "pip-20.3-and-later": (
        "tensorflow-text 2.14.0 requires tensorflow<2.15,>=2.14.0, but you have tensorflow "
        "2.16.1 which is incompatible.",
        "tensorflow-text 2.14.0 tensorflow <2.15,>=2.14.0 installed 2.16.1",
    ),
    "pip-20.2": (
        "tensorflow-addons 0.21.0 requires tensorflow<2.14.0,>=2.11.0, but you'll have "
        "tensorflow 2.14.1 which is incompatible.",
        "tensorflow-addons 0.21.0 tensorflow <2.14.0,>=2.11.0 installed 2.14.1",
    ),
    "before-pip-20.2": (
        "ERROR: tensorflow 2.1.0 has requirement gast==0.2.2, but you'll have gast 0.4.0 "
        "which is incompatible.",
        "tensorflow 2.1.0 gast ==0.2.2 installed 0.4.0",
    ),
    "missing": (
        "tensorflow 2.13.0 requires flatbuffers>=23.1.21, which is not installed.",
        "tensorflow 2.13.0 flatbuffers >=23.1.21 missing",
    ),
    "names-normalised": (
        "Tensorflow_CPU 2.10.1 requires Keras<2.11,>=2.10.0, but you have keras 2.12.0 "
        "which is incompatible.",
        "tensorflow-cpu 2.10.1 keras <2.11,>=2.10.0 installed 2.12.0",
    ),
}


@pytest.mark.parametrize("line, fields", READ.values(), ids=READ.keys())
def test_a_conflict_is_read_as_pip_printed_it(line: str, fields: str) -> None:
    req, version, target, spec, kind, *have = fields.split()
    # pip 20.2 and before said what the install would leave ("you'll have"): planned.
    planned = "you'll have" in line
    expected = Conflict(req, version, target, spec, kind, have[0] if have else "", planned=planned)
    assert read_conflicts([line]) == [expected]


def test_resolution_impossible_pairs_the_users_pin_with_each_range() -> None:
    text = """\
ERROR: Cannot install -r requirements.txt (line 2) and protobuf==3.20.3 because these
package versions have conflicting dependencies.

The conflict is caused by:
    The user requested protobuf==3.20.3
    grpcio-tools 1.48.2 depends on protobuf<4.0dev and >=3.12.0
    tensorflow 2.9.3 depends on protobuf<3.20 and >=3.9.2
"""
    assert read_conflicts([text]) == [
        Conflict("grpcio-tools", "1.48.2", "protobuf", "<4.0dev,>=3.12.0", "requested", "==3.20.3"),
        Conflict("tensorflow", "2.9.3", "protobuf", "<3.20,>=3.9.2", "requested", "==3.20.3"),
    ]


def test_text_without_a_conflict_has_none() -> None:
    assert read_conflicts(["Successfully installed tensorflow-2.16.1 keras-3.3.3"]) == []


# --- what a conflict stands for ----------------------------------------------------------------


#: A broken requirement, the cause it stands for, and words its fix must hold.
CAUSES = {
    "companion-follows-tensorflow": (
        "tensorflow-text 2.14.0 requires tensorflow<2.15,>=2.14.0, but you have tensorflow "
        "2.16.1 which is incompatible.",
        "companion-mismatch",
        "tensorflow-text==2.16.*",
    ),
    "companion-from-the-table": (
        "tensorflow-io 0.31.0 requires tensorflow<2.12.0,>=2.11.0, but you have tensorflow "
        "2.12.1 which is incompatible.",
        "companion-mismatch",
        "tensorflow-io==0.32.*",
    ),
    # Keras 3 over 2.14 (over 2.15 it is the setup Keras' instructions give: a note alone).
    "keras": (
        "tensorflow 2.14.0 requires keras<2.15,>=2.14.0, but you have keras 3.3.3 which is "
        "incompatible.",
        "keras-version",
        "keras<2.15,>=2.14.0",
    ),
    "numpy-2": (
        "tensorflow-intel 2.12.0 requires numpy<1.24,>=1.22, but you have numpy 2.0.1 "
        "which is incompatible.",
        "numpy-abi",
        "numpy<1.24,>=1.22",
    ),
    "protobuf": (
        "tensorflow 2.10.0 requires protobuf<3.20,>=3.9.2, but you have protobuf 4.21.12 "
        "which is incompatible.",
        "protobuf-incompatible",
        "protobuf<3.20,>=3.9.2",
    ),
    "another-dependency": (
        "tensorflow 2.11.0 requires tensorboard<2.12,>=2.11, but you have tensorboard "
        "2.13.0 which is incompatible.",
        "dependency-out-of-range",
        "tensorboard<2.12,>=2.11",
    ),
    "missing": (
        "tensorflow 2.13.0 requires flatbuffers>=23.1.21, which is not installed.",
        "dependency-missing",
        "flatbuffers>=23.1.21",
    ),
}


@pytest.mark.parametrize("line, cause, words", CAUSES.values(), ids=CAUSES.keys())
def test_a_broken_requirement_is_named_by_what_it_is_about(
    line: str, cause: str, words: str
) -> None:
    finding = _one(_explain(line), cause)
    assert finding.severity.rank >= Severity.WARNING.rank
    assert words in _fix(finding)


def test_a_users_pin_outside_tensorflows_range_is_the_conflict() -> None:
    text = """\
The conflict is caused by:
    The user requested protobuf==3.20.3
    grpcio-tools 1.48.2 depends on protobuf<4.0dev and >=3.12.0
    tensorflow 2.9.3 depends on protobuf<3.20 and >=3.9.2

ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/
"""
    # protobuf's range is the one TensorFlow's generated code needs: its own cause.
    finding = _one(_explain(text), "protobuf-incompatible")
    assert finding.severity is Severity.ERROR
    assert "protobuf<3.20,>=3.9.2" in _fix(finding)
    assert "grpcio" not in finding.summary  # its range admits the pin: not the clash


def test_a_users_keras_pin_outside_tensorflows_range_is_a_keras_of_another_line() -> None:
    text = """\
The conflict is caused by:
    The user requested keras==2.10.0
    tensorflow 2.11.1 depends on keras<2.12 and >=2.11.0
"""
    finding = _one(_explain(text), "keras-version")
    assert finding.severity is Severity.ERROR
    assert "keras<2.12,>=2.11.0" in _fix(finding)


def test_a_companion_against_the_requested_tensorflow_is_a_companion_mismatch() -> None:
    text = """\
The conflict is caused by:
    The user requested tensorflow==2.16.1
    tensorflow-decision-forests 1.8.1 depends on tensorflow~=2.15.0
"""
    finding = _one(_explain(text), "companion-mismatch")
    assert "pip index versions tensorflow-decision-forests" in _fix(finding)


def test_a_conflict_between_other_packages_is_not_tensorflows() -> None:
    line = (
        "gensim 4.3.3 requires numpy<2.0,>=1.18.5, but you have numpy 2.1.3 which is incompatible."
    )
    report = _explain(line)
    assert all(x.severity.rank < Severity.WARNING.rank for x in report.findings)


def test_a_requirement_pip_lists_but_the_pin_satisfies_is_no_finding() -> None:
    text = """\
The conflict is caused by:
    The user requested numpy==1.26.4
    pandas 2.2.2 depends on numpy>=1.23.2
"""
    assert all(x.severity.rank < Severity.WARNING.rank for x in _explain(text).findings)


# --- companions' checks as they import ---------------------------------------------------------


@pytest.mark.parametrize(
    "text, dist, spec, found, warned",
    [
        pytest.param(
            "ImportError: This version of TensorFlow Probability requires TensorFlow\n"
            "version >= 2.13; Detected an installation of version 2.12.0. Please\n"
            "upgrade TensorFlow to proceed.",
            "tensorflow-probability",
            ">=2.13",
            "2.12.0",
            False,
            id="probability-wrapped",
        ),
        pytest.param(
            "ImportError: This version of TF-Agents requires TensorFlow version >= 2.15.0; "
            "Detected an installation of version 2.14.1. Please upgrade TensorFlow to proceed.",
            "tf-agents",
            ">=2.15.0",
            "2.14.1",
            False,
            id="agents",
        ),
        pytest.param(
            "UserWarning: Tensorflow Addons supports using Python ops for all Tensorflow "
            "versions above or equal to 2.12.0 and strictly below 2.15.0 (nightly versions are "
            "not supported). \n The versions of TensorFlow you are currently using is 2.16.1 "
            "and is not supported.",
            "tensorflow-addons",
            ">=2.12.0,<2.15.0",
            "2.16.1",
            False,
            id="addons",
        ),
        pytest.param(
            "ValueError: Arg specs do not match: original=FullArgSpec(args=['x', 'name', "
            "'out_type'], varargs=None), new=FullArgSpec(args=['x', 'name'], varargs=None), "
            "fn=<function shape_v2 at 0x7f3a2c0d1b80>",
            "tensorflow-probability",
            "",
            "",
            False,
            id="probability-signatures",
        ),
    ],
)
def test_a_companions_verdict_is_read(
    text: str, dist: str, spec: str, found: str, warned: bool
) -> None:
    (check,) = read_import_checks([text])
    assert (check.dist, check.spec, check.found, check.warned) == (dist, spec, found, warned)
    finding = _one(_explain(text), "companion-mismatch")
    # A warning the program went on after (the custom-op loaders') is a warning.
    assert finding.severity is (Severity.WARNING if warned else Severity.ERROR)
    assert dist in _fix(finding)


def test_the_tensorflow_a_companion_found_is_the_installed_one() -> None:
    text = (
        "This version of TensorFlow Probability requires TensorFlow version >= 2.16; Detected "
        "an installation of version 2.15.1. Please upgrade TensorFlow to proceed."
    )
    report = _explain(text)
    assert report.facts.package("tensorflow") is not None
    assert "2.15.1" in _fix(_one(report, "companion-mismatch"))


_DF_WARNING = (
    "WARNING:root:TensorFlow Decision Forests {df} is compatible with the following TensorFlow "
    "Versions: [{listed}]. However, TensorFlow {tf} was detected. This can cause issues with "
    "the TF API and symbols in the custom C++ ops. See the TF and TF-DF compatibility table at "
    "https://github.com/tensorflow/decision-forests/blob/main/documentation/known_issues.md"
    "#compatibility-table.\nEpoch 1/3\n"
)


@pytest.mark.parametrize(
    "listed, tf, spec",
    [
        pytest.param("'2.12.0'", "2.13.0", "==2.12.0", id="one-release"),
        pytest.param("'2.16.1', '2.16.2'", "2.17.0", ">=2.16.1,<=2.16.2", id="two-releases"),
    ],
)
def test_decision_forests_logged_check_is_a_warning_naming_its_release(
    listed: str, tf: str, spec: str
) -> None:
    text = _DF_WARNING.format(df="1.3.0", listed=listed, tf=tf)
    (check,) = read_import_checks([text])
    assert (check.dist, check.spec, check.found, check.warned) == (
        "tensorflow-decision-forests",
        spec,
        tf,
        True,
    )
    finding = _one(_explain(text), "companion-mismatch")
    assert finding.severity is Severity.WARNING
    assert 'pip install "tensorflow-decision-forests==' in _fix(finding)
    assert f"TensorFlow {tf} is installed" in _fix(finding)


@pytest.mark.parametrize(
    "prefix",
    ["2023-05-01 12:00:00 WARNING ", "W0412 10:02:11.118 check_version.py:40] "],
)
def test_decision_forests_check_after_a_loggers_prefix_names_its_distribution(
    prefix: str,
) -> None:
    text = _DF_WARNING.format(df="1.3.0", listed="'2.12.0'", tf="2.13.0").replace(
        "WARNING:root:", prefix
    )
    (check,) = read_import_checks([text])
    assert check.dist == "tensorflow-decision-forests"


def test_decision_forests_check_is_dropped_once_a_fitting_release_is_installed() -> None:
    text = _DF_WARNING.format(df="1.3.0", listed="'2.12.0'", tf="2.13.0") + (
        "$ pip install tensorflow-decision-forests==1.5.0\n"
        "Successfully installed tensorflow-decision-forests-1.5.0\n"
    )
    assert not [x for x in _explain(text).findings if x.cause == "companion-mismatch"]


@pytest.mark.parametrize(
    "text",
    [
        # Its setup.py requires tensorflow~=2.X.0: every patch of the line it was built for.
        pytest.param(
            _DF_WARNING.format(df="1.5.0", listed="'2.13.0'", tf="2.13.1"), id="patch-apart"
        ),
        # Its words quoted inside another line are no verdict.
        pytest.param(
            'INFO:root:Note: a message like "TensorFlow Decision Forests 1.3.0 is compatible '
            "with the following TensorFlow Versions: ['2.12.0']. However, TensorFlow 2.13.0 "
            'was detected." is printed when versions mismatch.\n',
            id="quoted",
        ),
    ],
)
def test_decision_forests_check_that_is_no_mismatch_is_not_read(text: str) -> None:
    assert read_import_checks([text]) == []
    assert not [x for x in _explain(text).findings if x.cause == "companion-mismatch"]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(("A" * 30 + " ") * 3_000 + " is compatible with the following", id="names"),
        pytest.param("Failure to load the custom " + "Ab " * 40_000, id="failure-words"),
    ],
)
def test_the_companions_logged_verdicts_read_a_long_line_in_linear_time(text: str) -> None:
    start = time.perf_counter()
    assert read_import_checks([text]) == []
    assert time.perf_counter() - start < 0.5


# --- Keras 3 refusing a Keras 2 library's object ----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "ValueError: Only instances of `keras.Layer` can be added to a Sequential model. "
            "Received: <tf_keras.src.layers.core.dense.Dense object at 0x7f00aa3c1d50> (of "
            "type <class 'tf_keras.src.layers.core.dense.Dense'>)",
            id="tf-keras-layer",
        ),
        pytest.param(
            'Traceback (most recent call last):\n  File "/srv/app/model.py", line 12, in '
            "build\n    model.add(hub_layer)\n  File "
            '"/srv/venv/lib/python3.12/site-packages/keras/src/models/sequential.py", line 95, '
            "in add\n    raise ValueError(\nValueError: Only instances of `keras.Layer` can be "
            "added to a Sequential model. Received: <tensorflow_hub.keras_layer.KerasLayer "
            "object at 0x7a11c2>",
            id="hub-layer-with-frames",
        ),
    ],
)
def test_keras3_refusing_a_keras2_librarys_object_asks_for_tf_keras(text: str) -> None:
    finding = _one(_explain(text), "tf-keras-missing")
    assert finding.severity is Severity.ERROR
    assert "TF_USE_LEGACY_KERAS" in _fix(finding)


def test_keras3_refusing_another_object_is_not_blamed_on_keras2() -> None:
    text = (
        "ValueError: Only instances of `keras.Layer` can be added to a Sequential model. "
        "Received: <function relu at 0x7f00aa> (of type <class 'function'>)"
    )
    assert not [x for x in _explain(text).findings if x.cause == "tf-keras-missing"]


_CUT_REFUSAL = (
    "ValueError                                Traceback (most recent call last)\n"
    "[/env/lib/python3.11/site-packages/keras/src/models/sequential.py](#) in add(self, layer)\n"
    "---> 97             raise ValueError(\n"
    '     98                 "Only instances of `keras.Layer` can be "\n'
)


def test_keras3_refusing_an_unnamed_object_is_a_warning_to_use_tf_keras() -> None:
    # The paste stops before the message names the object: Keras 2 libraries' layers are the
    # usual ones, so tf-keras is offered, at warning.
    finding = _one(_explain(_CUT_REFUSAL), "tf-keras-missing")
    assert finding.severity is Severity.WARNING
    assert "tf-keras" in _fix(finding)


def test_keras3_refusing_a_named_object_of_no_keras2_library_is_not_blamed_on_tf_keras() -> None:
    text = (
        "ValueError: Only instances of `keras.Layer` can be added to a Sequential model. "
        "Received: <function relu at 0x7f2a1c0d3e20> (of type <class 'function'>)\n"
    )
    assert all(x.cause != "tf-keras-missing" for x in _explain(text).findings)


#: Keras 3's refusal of a layer of a library the catalogue does not know, as Sequential.add
#: raises it: the object's class printed twice (``<... object at 0x...>`` and its type).
_FOREIGN_REFUSAL = (
    "ValueError: Only instances of `keras.Layer` can be added to a Sequential model. "
    "Received: <{0} object at 0x7f3a21c0e4d0> (of type <class '{0}'>)\n"
)


@pytest.mark.parametrize(
    "cls", ["binarynets.layers.QuantDense", "mylib.layers.Encoder", "__main__.AttentionLayer"]
)
def test_keras3_refusing_an_unknown_librarys_layer_ranks_both_kerases(cls: str) -> None:
    # Either the library builds on Keras 2 and only Keras 3 is there (tf-keras), or tf.keras
    # is Keras 2 already and the model is the standalone package's: both, the first leading,
    # each with its own fix, at warning, as the log does not tell them apart.
    report = _explain(_FOREIGN_REFUSAL.format(cls))
    lead = _one(report, "tf-keras-missing")
    other = _one(report, "keras-standalone-mixed-with-tf-keras")
    assert lead.severity is other.severity is Severity.WARNING
    assert report.findings.index(lead) < report.findings.index(other)
    assert "TF_USE_LEGACY_KERAS" in _fix(lead)
    assert "tf.keras" in _fix(other) and other.summary.startswith("Or:")


def test_keras3_refusing_a_layer_with_legacy_keras_set_is_the_mix_of_two_kerases() -> None:
    # TF_USE_LEGACY_KERAS=1 shown: tf.keras is Keras 2 already, so installing tf-keras is no
    # answer; the model must come from the Keras the layer is built on.
    facts = f.facts(environment={"TF_USE_LEGACY_KERAS": "1"})
    report = explained(_FOREIGN_REFUSAL.format("binarynets.layers.QuantDense"), facts)
    finding = _one(report, "keras-standalone-mixed-with-tf-keras")
    assert finding.severity is Severity.ERROR
    assert not [x for x in report.findings if x.cause == "tf-keras-missing"]


@pytest.mark.parametrize(
    ("setting", "mixed"),
    [
        ('os.environ["TF_USE_LEGACY_KERAS"] = "1"\n', True),
        ("export TF_USE_LEGACY_KERAS=True\n", True),
        # TensorFlow takes only "true", "True" and "1": this leaves Keras 3 as tf.keras.
        ('os.environ["TF_USE_LEGACY_KERAS"] = "yes"\n', False),
        # Set and then removed before the run: the run's tf.keras is Keras 3.
        ("$ export TF_USE_LEGACY_KERAS=1\n$ unset TF_USE_LEGACY_KERAS\n", False),
        ("export TF_USE_LEGACY_KERAS=1\nunset -v KERAS_BACKEND TF_USE_LEGACY_KERAS\n", False),
        ('os.environ["TF_USE_LEGACY_KERAS"] = "1"\ndel os.environ["TF_USE_LEGACY_KERAS"]\n', False),
        ('os.environ["TF_USE_LEGACY_KERAS"] = "1"\nos.environ.pop("TF_USE_LEGACY_KERAS")\n', False),
        ("export TF_USE_LEGACY_KERAS=1\nexport -n TF_USE_LEGACY_KERAS\n", False),
        ("$ export TF_USE_LEGACY_KERAS=1\n$ cd proj && unset TF_USE_LEGACY_KERAS\n", False),
        (
            "PS C:\\proj> $env:TF_USE_LEGACY_KERAS=1\n"
            "PS C:\\proj> Remove-Item Env:TF_USE_LEGACY_KERAS\n",
            False,
        ),
        # env -u runs that one command without it; the shell that runs the next keeps it.
        ("export TF_USE_LEGACY_KERAS=1\n$ env -u TF_USE_LEGACY_KERAS nvidia-smi\n", True),
        # os.unsetenv leaves os.environ, which TensorFlow reads, as it was.
        ('os.environ["TF_USE_LEGACY_KERAS"] = "1"\nos.unsetenv("TF_USE_LEGACY_KERAS")\n', True),
        # The last assignment stands.
        ("export TF_USE_LEGACY_KERAS=0\nexport TF_USE_LEGACY_KERAS=1\n", True),
        # Prose and comments remove nothing.
        ("export TF_USE_LEGACY_KERAS=1\n# never unset TF_USE_LEGACY_KERAS here\n", True),
        ("export TF_USE_LEGACY_KERAS=1\nYou may unset TF_USE_LEGACY_KERAS later.\n", True),
        # Removed, then set again: set.
        ("unset TF_USE_LEGACY_KERAS\nexport TF_USE_LEGACY_KERAS=1\n", True),
        ("export TF_USE_LEGACY_KERAS=1\nunset TF_USE_LEGACY\n", True),  # another variable
        (
            "export TF_USE_LEGACY_KERAS=1\nunset TF_USE_LEGACY_KERAS\n"
            "export TF_USE_LEGACY_KERAS=True\n",
            True,
        ),
    ],
)
def test_the_logs_own_legacy_keras_setting_decides_between_the_readings(
    setting: str, mixed: bool
) -> None:
    report = _explain(setting + _FOREIGN_REFUSAL.format("binarynets.layers.QuantDense"))
    causes = [x.cause for x in report.findings if x.severity.rank >= Severity.WARNING.rank]
    if mixed:
        assert causes == ["keras-standalone-mixed-with-tf-keras"]
        assert report.findings[0].severity is Severity.ERROR
    else:
        assert causes == ["tf-keras-missing", "keras-standalone-mixed-with-tf-keras"]


_NO_GPU_LISTED = (
    "GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-1234)\n"
    "$ python -c \"import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))\"\n"
    "[]\n"
)


@pytest.mark.parametrize(
    "after",
    [
        # One command run without it (coreutils' env -u); the shell keeps it.
        "$ env -u CUDA_VISIBLE_DEVICES nvidia-smi -L\n",
        # A comment, not a command.
        "# tip: never unset CUDA_VISIBLE_DEVICES on the shared box\n",
    ],
    ids=["env-u", "comment"],
)
def test_a_removal_that_is_no_command_of_the_shell_leaves_the_variable_set(after: str) -> None:
    log = "$ export CUDA_VISIBLE_DEVICES=-1\n" + after + _NO_GPU_LISTED
    assert visible_devices_set(log) == "-1"
    assert _explain(log).findings[0].cause == "cuda-visible-devices-hidden"


def test_a_removal_by_the_shell_leaves_the_variable_unset() -> None:
    log = "$ export CUDA_VISIBLE_DEVICES=-1\n$ unset CUDA_VISIBLE_DEVICES\n" + _NO_GPU_LISTED
    assert visible_devices_set(log) is None


#: Keras 2's functional model (tf_keras here) refusing an input it does not know as its own
#: KerasTensor, the object printed after "Got: ".
_FUNCTIONAL_REFUSAL = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/proj/build.py", line 22, in <module>\n'
    "    model = tf_keras.Model(inputs=inp, outputs=out)\n"
    '  File "/home/u/venv/lib/python3.11/site-packages/tf_keras/src/engine/functional_utils.py", '
    "line 60, in is_input_keras_tensor\n"
    "    raise ValueError(_KERAS_TENSOR_TYPE_CHECK_ERROR_MSG.format(tensor))\n"
    "ValueError: Found unexpected instance while processing input tensors for keras functional "
    "model. Expecting KerasTensor which is from tf.keras.Input() or output from keras layer "
    "call(). Got: {}\n"
)


@pytest.mark.parametrize(
    "got",
    [
        # Keras 3.0's repr, and the later one with ragged.
        "<KerasTensor shape=(None, 128), dtype=float32, sparse=False, name=keras_tensor>",
        "<KerasTensor shape=(None, 8), dtype=float32, sparse=False, ragged=False, name=ids>",
    ],
)
def test_keras2_functional_model_given_a_keras3_tensor_is_two_kerases_mixed(got: str) -> None:
    report = _explain(_FUNCTIONAL_REFUSAL.format(got))
    finding = _one(report, "keras-standalone-mixed-with-tf-keras")
    assert finding.severity is Severity.ERROR
    text = _fix(finding)
    assert "import Input and Model from the same Keras" in text
    assert "`from tf_keras import Input, Model`" in text
    assert "`from keras import Input, Model`" in text
    assert "the layer added to it" not in text
    assert finding.fix is not None
    assert any("show keras tf-keras" in c for c in finding.fix.commands)


_KERAS3_GOT = "<KerasTensor shape=(None, 128), dtype=float32, sparse=False, name=keras_tensor>"


@pytest.mark.parametrize(
    "quoted",
    [
        'INFO:root:seen before: "{}"\n',
        "> {}\n",
        "{}\n",
    ],
    ids=["a-logger-s-quote", "a-reply-s-quote", "no-traceback"],
)
def test_keras2_functional_refusal_quoted_outside_a_traceback_is_not_read(quoted: str) -> None:
    line = _FUNCTIONAL_REFUSAL.format(_KERAS3_GOT).splitlines()[-1]
    report = _explain(quoted.format(line))
    assert not {x.cause for x in report.findings} & {"keras-standalone-mixed-with-tf-keras"}


@pytest.mark.parametrize(
    "got",
    [
        'Tensor("dense/Relu:0", shape=(None, 4), dtype=float32)',
        "<tf.Tensor: shape=(2, 4), dtype=float32, numpy=...>",
        "[[0.1 0.2]]",
    ],
)
def test_keras2_functional_model_given_no_keras_tensor_names_no_keras_mix(got: str) -> None:
    report = _explain(_FUNCTIONAL_REFUSAL.format(got))
    assert not {x.cause for x in report.findings} & {"keras-standalone-mixed-with-tf-keras"}


@pytest.mark.parametrize(
    "cls",
    [
        "keras.src.layers.core.dense.Dense",  # Keras' own: not another Keras's
        "keras_hub.src.models.bert.bert_backbone.BertBackbone",  # built on Keras 3
        "numpy.ndarray",
        "torch.nn.modules.linear.Linear",
        "mylib.utils.Config",  # no word of a layer
        # A model of another framework or library: "model" in a name says nothing of Keras.
        "sklearn.linear_model._logistic.LogisticRegression",
        "torchvision.models.resnet.ResNet",
        "transformers.models.bert.modeling_bert.BertModel",
    ],
)
def test_keras3_refusing_what_is_no_other_kerass_layer_names_no_keras_mix(cls: str) -> None:
    report = _explain(_FOREIGN_REFUSAL.format(cls))
    causes = {x.cause for x in report.findings}
    assert not causes & {"tf-keras-missing", "keras-standalone-mixed-with-tf-keras"}


#: A Transformers TensorFlow model built by Keras 3's layer machinery, as frames show it.
_TF_MODEL_ON_KERAS3 = (
    '  File "/srv/venv/lib/python3.11/site-packages/transformers/modeling_tf_utils.py", line 2901,'
    " in from_pretrained\n"
    "    model.build_in_name_scope()\n"
    '  File "/srv/venv/lib/python3.11/site-packages/keras/src/layers/layer.py", line 226, in '
    "build_wrapper\n"
    "    original_build_method(*args, **kwargs)\n"
    '  File "/srv/venv/lib/python3.11/site-packages/transformers/models/bert/modeling_tf_bert.py",'
    " line 1180, in build\n"
    "    if self.built:\n"
)


def test_keras2_code_run_by_keras3_in_a_failed_traceback_asks_for_tf_keras() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/embed.py", line 4, in <module>\n'
        '    model = TFBertModel.from_pretrained("bert-base-uncased")\n'
        + _TF_MODEL_ON_KERAS3
        + "AttributeError: 'TFBertMainLayer' object has no attribute 'built'\n"
    )
    finding = _one(_explain(text), "tf-keras-missing")
    assert finding.severity is Severity.ERROR
    assert "tf-keras" in _fix(finding) and "TF_USE_LEGACY_KERAS" in _fix(finding)


def test_keras2_code_run_by_keras3_in_frames_cut_before_the_error_is_a_warning() -> None:
    # The paste starts and stops inside the traceback: no exception shows what failed.
    finding = _one(_explain(_TF_MODEL_ON_KERAS3), "tf-keras-missing")
    assert finding.severity is Severity.WARNING
    assert "stops before the exception" in finding.detail


def test_a_library_frame_outside_its_keras_code_is_no_keras2_code() -> None:
    # hub.load is TensorFlow's SavedModel loading, not TensorFlow Hub's Keras layer.
    text = _TF_MODEL_ON_KERAS3.replace(
        "transformers/modeling_tf_utils.py", "tensorflow_hub/module_v2.py"
    ).replace("transformers/models/bert/modeling_tf_bert.py", "tensorflow_hub/resolver.py")
    assert all(x.cause != "tf-keras-missing" for x in _explain(text).findings)


@pytest.mark.parametrize(
    "keras_frame",
    [
        # Keras 2.13-2.15 keep their modules under keras/src too: not Keras 3.
        "/srv/venv/lib/python3.11/site-packages/keras/src/engine/base_layer.py",
        # tf-keras is the Keras 2 the code wants.
        "/srv/venv/lib/python3.11/site-packages/tf_keras/src/engine/base_layer.py",
    ],
)
def test_keras2_code_beside_keras2_frames_is_no_keras3_reading(keras_frame: str) -> None:
    text = _TF_MODEL_ON_KERAS3.replace(
        "/srv/venv/lib/python3.11/site-packages/keras/src/layers/layer.py", keras_frame
    )
    assert all(x.cause != "tf-keras-missing" for x in _explain(text).findings)


# --- versions a session echoed, and the companion fitted to them --------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        pytest.param(">>> tf.__version__\n'2.18.0'\n", {"tensorflow": "2.18.0"}, id="repl"),
        pytest.param("In [4]: np.__version__\nOut[4]: '2.0.2'\n", {"numpy": "2.0.2"}, id="ipython"),
        pytest.param(
            "print(tensorflow.__version__)\n2.17.0rc1\n", {"tensorflow": "2.17.0rc1"}, id="print"
        ),
        # A nightly's own __version__ writes its suffix with a hyphen; pip writes ".dev".
        pytest.param(
            ">>> tf.__version__\n'2.15.0-dev20230816'\n",
            {"tensorflow": "2.15.0.dev20230816"},
            id="nightly",
        ),
        # TensorFlow 2.0's previews wrote "-alpha0", "-beta1": pip's 2.0.0a0, 2.0.0b1, not 2.0.0.
        pytest.param(">>> tf.__version__\n'2.0.0-alpha0'\n", {"tensorflow": "2.0.0a0"}, id="alpha"),
        pytest.param(">>> tf.__version__\n'2.0.0-beta1'\n", {"tensorflow": "2.0.0b1"}, id="beta"),
        pytest.param(">>> tf.__version__\nTraceback (most recent call last):\n", {}, id="no-value"),
        pytest.param(">>> keras.__version__\n'2.6.0'\n", {"keras": "2.6.0"}, id="keras"),
        # TensorFlow 2.0-2.3's own copy imported as keras marks its version: not the package.
        pytest.param("In [2]: keras.__version__\nOut[2]: '2.3.0-tf'\n", {}, id="tf-own-keras"),
        pytest.param(">>> tf.keras.__version__\n'2.4.0'\n", {}, id="tf-keras-attribute"),
        # TensorFlow's issue template's command: git's description, then the release.
        pytest.param(
            '$ python -c "import tensorflow as tf; print(tf.GIT_VERSION, tf.VERSION)"\n'
            "('v1.12.0-0-ga6d8ffae09', '1.12.0')\n",
            {"tensorflow": "1.12.0"},
            id="template-python2-tuple",
        ),
        pytest.param(
            'python3 -c "import tensorflow as tf; '
            'print(tf.version.GIT_VERSION, tf.version.VERSION)"\n'
            "v2.9.0-rc2-42-g8a20d54a3c1 2.9.0\n",
            {"tensorflow": "2.9.0"},
            id="template-python3",
        ),
        # Builds before tensorflow/tensorflow#24583 printed GIT_VERSION as bytes.
        pytest.param(
            'python -c "import tensorflow as tf; print(tf.GIT_VERSION, tf.VERSION)"\n'
            "b'v1.12.0-5131-gc6f3c5dc48' 1.13.0-dev20181225\n",
            {"tensorflow": "1.13.0.dev20181225"},
            id="template-python3-bytes",
        ),
        pytest.param(
            'python -c "import tensorflow as tf; print(tf.version.GIT_VERSION, tf.version.VERSION)"'
            "\nunknown 2.16.0-rc0\n",
            {"tensorflow": "2.16.0rc0"},
            id="template-source-build-pre-release",
        ),
        pytest.param(
            'python -c "import tensorflow as tf; print(tf.GIT_VERSION, tf.VERSION)"\n'
            "Traceback (most recent call last):\n",
            {},
            id="template-no-value",
        ),
        # A shell's one-line program printing __version__: the value on the next line.
        pytest.param(
            '$ python -c "import tensorflow as tf; print(tf.__version__)"\n2.5.0\n',
            {"tensorflow": "2.5.0"},
            id="shell-python-c",
        ),
        pytest.param(
            "C:\\work> py -c 'import numpy as np;print(np.__version__)'\r\n1.26.4\r\n",
            {"numpy": "1.26.4"},
            id="shell-py-c-windows",
        ),
        pytest.param(
            '$ python3.11 -c "import tensorflow as tf; print(tf.__version__)"\n'
            "Traceback (most recent call last):\n",
            {},
            id="shell-python-c-no-value",
        ),
        # Two values printed: which line is which is not shown.
        pytest.param(
            '$ python -c "import tensorflow as tf, numpy as np; print(np.__version__); '
            'print(tf.__version__)"\n1.19.5\n2.5.0\n',
            {},
            id="shell-python-c-two-prints",
        ),
        # Not typed at a prompt: the program of another command's line.
        pytest.param(
            '$ cd proj && python -c "import tensorflow as tf; print(tf.__version__)"\n2.5.0\n',
            {},
            id="shell-python-c-chained",
        ),
        # The value not alone on its line.
        pytest.param(
            '$ python -c "import tensorflow as tf; print(tf.__version__)"\n'
            "2021.10.1 is the date of the build\n",
            {},
            id="shell-python-c-not-a-version-line",
        ),
        # keras bound to another package than keras by the program's own import.
        pytest.param(
            '$ python -c "import tf_keras as keras; print(keras.__version__)"\n2.16.0\n',
            {},
            id="shell-python-c-tf-keras-as-keras",
        ),
        pytest.param(
            '$ python -c "from tensorflow import keras; print(keras.__version__)"\n2.16.0\n',
            {},
            id="shell-python-c-keras-from-tensorflow",
        ),
        pytest.param(
            '(tf) me@MacBook-Air ~ % python -c "import keras; print(keras.__version__)"\n3.3.3\n',
            {"keras": "3.3.3"},
            id="shell-python-c-keras-zsh-prompt",
        ),
        # TensorFlow's own constant, 2.x's and 1.x's spelling.
        pytest.param(
            ">>> tf.version.VERSION\n'2.16.0-dev20231109'\n",
            {"tensorflow": "2.16.0.dev20231109"},
            id="repl-version-constant",
        ),
        pytest.param(
            ">>> print(tf.VERSION)\n1.13.0-rc2\n",
            {"tensorflow": "1.13.0rc2"},
            id="repl-tf1-constant",
        ),
        # NumPy has no such constant.
        pytest.param(">>> np.VERSION\n'1.26.4'\n", {}, id="repl-numpy-no-constant"),
        # TensorFlow's own spelling of a candidate and a nightly, in pip's.
        pytest.param(
            '$ python -c "import tensorflow as tf; print(tf.__version__)"\n2.17.0-rc0\n',
            {"tensorflow": "2.17.0rc0"},
            id="shell-python-c-candidate-dash",
        ),
        pytest.param(
            '$ python3 -c "import tensorflow as tf; print(tf.__version__)"\n2.16.0-dev20231109\n',
            {"tensorflow": "2.16.0.dev20231109"},
            id="shell-python-c-nightly-dash",
        ),
    ],
)
def test_a_version_echoed_on_the_next_line_is_read(text: str, expected: dict[str, str]) -> None:
    assert read_echoed_versions([text]) == expected


def test_a_one_line_program_printing_two_versions_names_no_release() -> None:
    # NumPy's version printed first: read as TensorFlow's, the fix would name a TensorFlow
    # 1.19.5 that the log does not show.
    text = (
        '$ python -c "import tensorflow as tf, numpy as np; print(np.__version__); '
        'print(tf.__version__)"\n1.19.5\n2.5.0\n$ python train.py\n'
        "Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n'
        "    model = tf.keras.Sequential()\n"
        "AttributeError: module 'tensorflow' has no attribute 'keras'\n"
    )
    assert "1.19.5" not in " ".join(fix_text(x) + x.detail for x in explained(text).findings)


ADDON = (
    "caused by: ['/opt/venv/lib/python3.12/site-packages/tensorflow_io/python/ops/"
    "libtensorflow_io.so: undefined symbol: _ZN3tsl6StatusC1Ev']"
)


def test_a_companion_under_a_tensorflow_newer_than_its_releases_names_their_range() -> None:
    log = f">>> import tensorflow as tf\n>>> tf.__version__\n'2.19.0'\n{ADDON}\n"
    fix = _fix(_one(_explain(log), "companion-mismatch"))
    assert "is known to this tfdoctor" in fix
    assert 'install "tensorflow<2.17.0,>=2.16.0"' in fix
    assert "pip index versions tensorflow-io" in fix


def test_a_companion_without_a_tensorflow_shown_names_where_its_releases_end() -> None:
    # The log shows no TensorFlow release: the table's newest row says above which none fits.
    fix = _fix(_one(_explain(f"{ADDON}\n"), "companion-mismatch"))
    assert "The newest tensorflow-io release the table knows (0.37.1)" in fix
    assert "TensorFlow 2.17.0 or later" in fix
    # Shown, the TensorFlow is answered by the table's rows instead.
    shown = _fix(_one(_explain(f"print(tf.__version__)\n2.3.1\n{ADDON}\n"), "companion-mismatch"))
    assert "The newest tensorflow-io release" not in shown


_TFQ = (
    "tensorflow.python.framework.errors_impl.NotFoundError: /opt/venv/lib/python3.7/"
    "site-packages/tensorflow_quantum/core/ops/_tfq_simulate_ops.so: undefined symbol: "
    "_ZN10tensorflow8OpKernel11TraceStringEPNS_15OpKernelContextEb"
)


def test_tensorflow_quantum_moves_to_the_release_built_for_the_tensorflow_shown() -> None:
    # Each tensorflow-quantum release pins one TensorFlow (release/setup.py at its tag).
    fix = _fix(_one(_explain(f"print(tf.__version__)\n2.4.1\n{_TFQ}\n"), "companion-mismatch"))
    assert "tensorflow-quantum 0.5.1" in fix and "releases 0.5.0 to 0.5.1 all fit it" in fix
    assert "tensorflow-quantum==0.5.1" in fix


def test_a_pinned_companions_oldest_release_names_its_floor() -> None:
    # No TensorFlow shown: the oldest row's pin (==2.1.0) is the floor, the newest's range the
    # ceiling of what the table knows.
    fix = _fix(_one(_explain(f"{_TFQ}\n"), "companion-mismatch"))
    assert "needs TensorFlow 2.1 or later (its oldest, 0.2.0, declares tensorflow==2.1.0)" in fix
    assert "(0.7.6) declares tensorflow<2.19,>=2.18" in fix


def test_a_companion_under_an_older_tensorflow_moves_to_its_release() -> None:
    log = f"print(tf.__version__)\n2.3.1\n{ADDON}\n"
    fix = _fix(_one(_explain(log), "companion-mismatch"))
    assert "tensorflow-io==0.16.*" in fix


# --- plugins built for another TensorFlow -------------------------------------------------------


@pytest.mark.parametrize(
    "line, dist",
    [
        pytest.param(
            "NotFoundError: dlopen(/Users/user/.venv/lib/python3.12/site-packages/"
            "tensorflow-plugins/libmetal_plugin.dylib, 0x0006): Symbol not found: "
            "__ZN3tsl8internal15LogMessageFatalC1EPKci",
            "tensorflow-metal",
            id="metal-tsl-symbol",
        ),
        pytest.param(
            "dlopen(/opt/homebrew/envs/tf/lib/python3.9/site-packages/tensorflow-plugins/"
            "libmetal_plugin.dylib, 6): Symbol not found: _TFE_NewTensorHandle",
            "tensorflow-metal",
            id="metal-c-api",
        ),
        pytest.param(
            "/srv/venv/lib/python3.10/site-packages/tensorflow-plugins/libitex_gpu.so: "
            "undefined symbol: _ZNK3xla5Shape8ToStringEb",
            "intel-extension-for-tensorflow",
            id="itex-linux",
        ),
        pytest.param(
            "/home/user/venv/lib/python3.10/site-packages/tensorflow-plugins/"
            "libtfdml_plugin.so: undefined symbol: TF_NewStatus",
            "tensorflow-directml-plugin",
            id="directml-wsl",
        ),
        # On Windows TensorFlow words any LoadLibrary failure of a plugin "<file> not found"
        # (the file is there: TensorFlow listed the folder to find it).
        pytest.param(
            "tensorflow.python.framework.errors_impl.NotFoundError: D:\\envs\\dml\\lib\\"
            "site-packages\\tensorflow-plugins\\tfdml_plugin.dll not found",
            "tensorflow-directml-plugin",
            id="directml-windows",
        ),
    ],
)
def test_a_plugin_missing_a_tensorflow_symbol_is_a_companion_mismatch(line: str, dist: str) -> None:
    finding = _one(_explain(line), "companion-mismatch")
    assert f"pip index versions {dist}" in _fix(finding)


def test_a_plugin_missing_a_macos_class_is_not_blamed_on_tensorflow() -> None:
    line = (
        "dlopen(/Users/user/env/lib/python3.9/site-packages/tensorflow-plugins/"
        "libmetal_plugin.dylib, 6): Symbol not found: _OBJC_CLASS_$_MPSGraphExecutionDescriptor"
    )
    assert not [x for x in _explain(line).findings if x.cause == "companion-mismatch"]


# --- NumPy names a library still uses ----------------------------------------------------------


def _numpy_traceback(path: str, name: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 40, in <module>\n'
        f"    x = np.{name}\n"
        '  File "/env/lib/python3.11/site-packages/numpy/__init__.py", line 324, in __getattr__\n'
        "    raise AttributeError(__former_attrs__[attr])\n"
        f"AttributeError: module 'numpy' has no attribute '{name}'.\n"
    )


@pytest.mark.parametrize(
    "path, name, cause, words",
    [
        pytest.param(
            "/env/lib/python3.11/site-packages/tensorboard/compat/tensorflow_stub/dtypes.py",
            "bool",
            # TensorBoard declares NumPy without a cap: the name it uses is what broke, not a
            # range TensorFlow declares.
            "numpy-name-removed",
            "numpy<1.24",
            id="expired-alias-in-tensorboard",
        ),
        pytest.param(
            "C:\\Users\\user\\env\\Lib\\site-packages\\tensorflow\\python\\framework\\dtypes.py",
            "complex",
            "dependency-out-of-range",
            "numpy<1.24",
            id="expired-alias-in-tensorflow-windows",
        ),
        pytest.param(
            "/env/lib/python3.11/site-packages/keras/src/utils/np_utils.py",
            "float_",
            "numpy-abi",
            "numpy",
            id="numpy-2-removal",
        ),
        pytest.param(
            "/usr/lib/python3.12/dist-packages/tensorboard/compat/tensorflow_stub/dtypes.py",
            "string_",
            "numpy-name-removed",
            "numpy<2",
            id="numpy-2-removal-outside-tensorflows-stack",
        ),
    ],
)
def test_a_library_using_a_removed_numpy_name_is_explained(
    path: str, name: str, cause: str, words: str
) -> None:
    finding = _one(_explain(_numpy_traceback(path, name)), cause)
    assert finding.severity is Severity.ERROR
    assert words in _fix(finding)


def test_numpy_2s_own_words_for_a_removed_name_name_its_release() -> None:
    # NumPy 2.x's __getattr__ for the names it removed, as it prints them.
    text = _numpy_traceback(
        "/env/lib/python3.12/site-packages/tensorflow/python/framework/dtypes.py", "unicode_"
    ).replace(
        "AttributeError: module 'numpy' has no attribute 'unicode_'.\n",
        "AttributeError: `np.unicode_` was removed in the NumPy 2.0 release. "
        "Use `np.str_` instead.\n",
    )
    finding = _one(_explain(text), "numpy-abi")
    assert finding.severity is Severity.ERROR
    assert "removed in NumPy 2.0" in finding.summary and "tensorflow" in finding.summary


@pytest.mark.parametrize(
    "path, name",
    [
        pytest.param("/home/user/project/train.py", "object", id="own-code"),
        pytest.param("/env/lib/python3.11/site-packages/tensorflow/x.py", "nosuch", id="never-had"),
    ],
)
def test_a_numpy_name_not_removed_or_used_by_own_code_is_not_blamed(path: str, name: str) -> None:
    report = _explain(_numpy_traceback(path, name))
    assert not [x for x in report.findings if x.cause in ("dependency-out-of-range", "numpy-abi")]


@pytest.mark.parametrize(
    "message, instead, below",
    [
        pytest.param("module 'numpy' has no attribute 'int'.", "`int`", "numpy<1.24", id="1.24"),
        pytest.param(
            "`np.NaN` was removed in the NumPy 2.0 release. Use `np.nan` instead.",
            "`np.nan`",
            "numpy<2.0",
            id="2.0",
        ),
    ],
)
def test_own_code_using_a_removed_numpy_name_is_told_what_to_write(
    message: str, instead: str, below: str
) -> None:
    text = _numpy_traceback("/home/user/project/train.py", "x").replace(
        "AttributeError: module 'numpy' has no attribute 'x'.", f"AttributeError: {message}"
    )
    finding = _one(_explain(text), "numpy-name-removed")
    assert finding.severity is Severity.ERROR
    assert instead in _fix(finding) and below in _fix(finding)
    assert "train.py, line 40" in finding.detail


# --- modules of known distributions --------------------------------------------------------------


def _import_traceback(statement: str, message: str, path: str = "/srv/app/run.py") -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 3, in <module>\n'
        f"    {statement}\n"
        f"{message}\n"
    )


@pytest.mark.parametrize(
    "module, dist",
    [
        pytest.param("cv2", "opencv-python", id="import-name-differs"),
        pytest.param("sklearn", "scikit-learn", id="sklearn"),
        pytest.param("keras_cv", "keras-cv", id="tensorflow-project"),
    ],
)
def test_a_missing_module_installs_the_distribution_that_provides_it(
    module: str, dist: str
) -> None:
    text = _import_traceback(f"import {module}", f"ModuleNotFoundError: No module named '{module}'")
    finding = _one(_explain(text), "package-not-installed")
    assert finding.severity is Severity.ERROR
    assert f'pip install "{dist}"' in _fix(finding)
    assert f"install {module}" not in _fix(finding).replace(f"install {dist}", "")


def test_a_missing_companion_is_not_installed_blind() -> None:
    # Its newest release pins a TensorFlow: without the log's TensorFlow, say how to choose.
    text = _import_traceback(
        "import tensorflow_text as text", "ModuleNotFoundError: No module named 'tensorflow_text'"
    )
    finding = _one(_explain(text), "package-not-installed")
    assert 'pip install "tensorflow-text"' not in _fix(finding)
    assert "pip index versions tensorflow-text" in _fix(finding)


def test_a_missing_requirement_of_tensorflow_is_a_broken_install() -> None:
    text = _import_traceback(
        "import tensorflow as tf",
        "ModuleNotFoundError: No module named 'opt_einsum'",
        "/env/lib/python3.11/site-packages/tensorflow/python/ops/special_math_ops.py",
    )
    finding = _one(_explain(text), "dependency-missing")
    assert finding.fix is not None and "opt-einsum" in finding.fix.commands[-1]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("ImportError: No module named sklearn.metrics.pairwise", id="alone"),
        pytest.param(
            _import_traceback(
                "from sklearn.metrics.pairwise import cosine_similarity",
                "ImportError: No module named sklearn.metrics.pairwise",
                "/usr/lib/python2.7/site-packages/helpers/similar.py",
            ),
            id="in-a-library",
        ),
    ],
)
def test_python2s_dotted_name_whose_first_part_failed_is_that_package_missing(text: str) -> None:
    """Python 2 prints the dotted rest from the part that did not import: the first part is
    the package missing, not a release of it without the submodule."""
    finding = _one(_explain(text), "package-not-installed")
    assert 'pip install "scikit-learn"' in _fix(finding)


@pytest.mark.parametrize(
    "text",
    [
        # An installed scikit-learn without the submodule: Python 2 names the submodule's part.
        pytest.param("ImportError: No module named metrics.pairwise", id="a-submodule's-part"),
        # The line shows the printed name as another package's submodule.
        pytest.param(
            _import_traceback(
                "import tensorflow.keras.layers", "ImportError: No module named keras.layers"
            ),
            id="another-package's-submodule",
        ),
    ],
)
def test_python2s_dotted_name_of_a_submodule_is_no_package_missing(text: str) -> None:
    report = _explain(text)
    assert not [x for x in report.findings if x.cause == "package-not-installed"]


def test_a_submodule_of_an_unlisted_package_is_not_a_missing_package() -> None:
    message = "ModuleNotFoundError: No module named 'sklearn.externals.joblib'"
    report = _explain(_import_traceback("import x", message))
    assert not [x for x in report.findings if x.cause == "package-not-installed"]


@pytest.mark.parametrize(
    "message",
    ["ModuleNotFoundError: No module named 'my_helpers'", "ImportError: No module named 'pkg_x'"],
)
def test_a_module_nobody_lists_is_a_warning_that_installs_no_guessed_name(message: str) -> None:
    """Which distribution provides an unlisted module is likely, not known: the finding says
    so, names the likely distribution and the user's own module, and installs nothing."""
    finding = _one(_explain(_import_traceback("import x", message)), "package-not-installed")
    assert finding.severity is Severity.WARNING
    assert finding.fix is not None and not any("install" in c for c in finding.fix.commands)
    assert "PYTHONPATH" in finding.fix.text


@pytest.mark.parametrize(
    "message",
    [
        "ModuleNotFoundError: No module named '_lzma'",  # an interpreter built without it
        "ModuleNotFoundError: No module named 'sqlite3'",  # the standard library's
    ],
)
def test_a_private_or_standard_module_is_no_package_to_install(message: str) -> None:
    report = _explain(_import_traceback("import x", message))
    assert not [x for x in report.findings if x.cause == "package-not-installed"]


@pytest.mark.parametrize(
    "message, name",
    [
        pytest.param(
            "AttributeError: module 'ml_dtypes' has no attribute 'int2'", "int2", id="attr"
        ),
        pytest.param(
            "ImportError: cannot import name 'float8_e3m4' from 'ml_dtypes' "
            "(/env/lib/python3.11/site-packages/ml_dtypes/__init__.py)",
            "float8_e3m4",
            id="import",
        ),
    ],
)
def test_a_requirement_without_a_name_its_caller_uses_is_out_of_range(
    message: str, name: str
) -> None:
    text = _import_traceback(
        "from ml_dtypes import x",
        message,
        "/env/lib/python3.11/site-packages/tensorflow/python/framework/dtypes.py",
    )
    finding = _one(_explain(text), "dependency-out-of-range")
    assert name in finding.summary and "tensorflow" in finding.detail
    assert "ml-dtypes" in _fix(finding)


def test_a_requirement_without_a_name_another_library_uses_is_that_librarys_pairing() -> None:
    # A library outside TensorFlow's family asks: its release and the dependency's are what the
    # frames show; the range TensorFlow declares is not in play, so no second reading of it.
    text = _import_traceback(
        "float8_e3m4 = ml_dtypes.float8_e3m4",
        "AttributeError: module 'ml_dtypes' has no attribute 'float8_e3m4'",
        "/env/lib/python3.11/site-packages/jax/_src/dtypes.py",
    )
    report = _explain(text)
    assert not [x for x in report.findings if x.cause == "dependency-out-of-range"]
    finding = _one(report, "dependency-api-removed")
    assert "jax" in finding.summary and "ml-dtypes" in _fix(finding)


def test_a_requirement_without_a_name_another_library_uses_before_another_failure_is_read() -> None:
    # The refusal is not the exception that stopped the run (a later one was raised while
    # handling it): no library pairing is read from it, so TensorFlow's range still is.
    refused = _import_traceback(
        "float8_e3m4 = ml_dtypes.float8_e3m4",
        "AttributeError: module 'ml_dtypes' has no attribute 'float8_e3m4'",
        "/env/lib/python3.11/site-packages/zzlib/dtypes.py",
    )
    later = _import_traceback("raise RuntimeError('setup failed')", "RuntimeError: setup failed")
    report = _explain(
        f"{refused}\nDuring handling of the above exception, another exception occurred:\n\n{later}"
    )
    assert "ml-dtypes" in _fix(_one(report, "dependency-out-of-range"))


@pytest.mark.parametrize(
    "name, floor",
    [("runtime_version", "protobuf>=5.27"), ("builder", "protobuf>=3.20")],
)
def test_protobuf_without_a_module_generated_code_imports_is_upgraded(
    name: str, floor: str
) -> None:
    module = "google.protobuf.internal" if name == "builder" else "google.protobuf"
    text = _import_traceback(
        f"from {module} import {name}",
        f"ImportError: cannot import name '{name}' from '{module}' "
        "(/env/lib/python3.10/site-packages/google/protobuf/__init__.py)",
        "/env/lib/python3.10/site-packages/object_detection/protos/anchor_pb2.py",
    )
    finding = _one(_explain(text), "protobuf-incompatible")
    assert floor in _fix(finding)


# --- NumPy refusing an extension built for another NumPy ----------------------------------------


#: pybind11's words where TensorFlow's bfloat16 type cannot be made from the NumPy C API loaded.
_BFLOAT16_HANDLE = (
    "Traceback (most recent call last):\n"
    '  File "/env/lib/python3.8/site-packages/tensorflow/python/framework/dtypes.py", line 34, '
    "in <module>\n"
    "    _np_bfloat16 = _pywrap_bfloat16.TF_bfloat16_type()\n"
    "TypeError: Unable to convert function return value to a Python type! The signature was\n"
    "\t() -> handle\n"
)


@pytest.mark.parametrize(
    "shown",
    [
        "Name: numpy\nVersion: 1.17.4\nSummary: NumPy\n",
        ">>> np.__version__\n'1.17.4'\n",
    ],
    ids=["pip-show", "echoed"],
)
def test_tensorflows_bfloat16_refused_under_a_numpy_1_is_a_numpy_older_than_the_build(
    shown: str,
) -> None:
    report = _explain(shown + _BFLOAT16_HANDLE)
    assert not [x for x in report.findings if x.cause == "numpy-abi"]
    finding = _one(report, "dependency-out-of-range")
    # Not NumPy 2's way out: the NumPy shown is already below 2.
    assert "numpy<2" not in _fix(finding) and "older than" in _fix(finding)


def test_tensorflows_bfloat16_refused_under_numpy_2_or_no_numpy_shown_is_the_abi() -> None:
    upgraded = (
        "Name: numpy\nVersion: 1.26.4\nSummary: NumPy\n"
        "$ pip install --upgrade numpy\nSuccessfully installed numpy-2.0.1\n"
    )
    # A NumPy 1 shown before pip installed a NumPy 2 is not the one that ran.
    for shown in ("Name: numpy\nVersion: 2.0.2\nSummary: NumPy\n", "", upgraded):
        finding = _one(_explain(shown + _BFLOAT16_HANDLE), "numpy-abi")
        assert "numpy<2" in _fix(finding)


#: NumPy's refusal of an extension, the cause, and words the fix holds.
REFUSED = {
    "api-newer-than-running": (
        "RuntimeError: module compiled against API version 0xf but this version of numpy is 0xd",
        "dependency-out-of-range",
        "numpy>=1.22",
    ),
    "abi-numpy-1-under-2": (
        "ImportError: module compiled against ABI version 0x1000009 but this version of numpy "
        "is 0x2000000",
        "numpy-abi",
        "numpy",
    ),
}


@pytest.mark.parametrize("line, cause, words", REFUSED.values(), ids=REFUSED.keys())
def test_numpys_refusal_of_an_extension_names_the_numpy_it_wants(
    line: str, cause: str, words: str
) -> None:
    finding = _one(_explain(line), cause)
    assert words in _fix(finding)


def test_numpy_c_api_versions_unknown_to_the_table_are_not_guessed() -> None:
    assert (
        read_numpy_builds(
            ["module compiled against API version 0x7f but this version of numpy is 0xd"]
        )
        == []
    )


# --- a package reaching into TensorFlow's private modules ---------------------------------------


def _private(path: str, error: str) -> Report:
    return _explain(f'Traceback (most recent call last):\n  File "{path}", line 7, in f\n{error}\n')


def test_keras_2_missing_a_private_tensorflow_name_is_of_another_release() -> None:
    report = _private(
        "/env/lib/python3.9/site-packages/keras/engine/training.py",
        "AttributeError: module 'tensorflow.python.framework.ops' has no attribute '_TensorLike'",
    )
    assert _one(report, "keras-version").severity is Severity.ERROR


def test_a_companion_missing_a_private_tensorflow_name_is_built_for_another() -> None:
    report = _private(
        "/env/lib/python3.10/site-packages/tensorflow_probability/python/internal/tf_keras.py",
        "ImportError: cannot import name 'keras_tensor' from 'tensorflow.python.keras.engine'",
    )
    assert "tensorflow-probability" in _fix(_one(report, "companion-mismatch"))


def test_a_private_name_missing_without_a_library_frame_is_not_blamed() -> None:
    log = (
        'Traceback (most recent call last):\n  File "/home/user/train.py", line 3, in <module>\n'
        "AttributeError: module 'tensorflow.python.framework.ops' has no attribute 'Tensor_'\n"
    )
    report = _explain(log)
    assert not [x for x in report.findings if x.cause in ("keras-version", "companion-mismatch")]


# --- Keras 2's module layout asked of Keras 3 ----------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        # Python names the first module it did not find: keras.src.engine, not a submodule.
        "ModuleNotFoundError: No module named 'keras.src.engine'",
        "ImportError: cannot import name 'data_adapter' from 'keras.src.engine' (unknown location)",
        "ModuleNotFoundError: No module named 'keras.legacy_tf_layers'",
    ],
)
def test_keras_2s_own_modules_missing_are_keras_2_code_under_keras_3(line: str) -> None:
    finding = _one(_explain(line), "keras3-behaviour-change")
    assert "TF_USE_LEGACY_KERAS" in _fix(finding)


def test_a_keras_3_module_missing_is_not_called_keras_2_code() -> None:
    report = _explain("ModuleNotFoundError: No module named 'keras.src.trainers'")
    assert not [x for x in report.findings if x.cause == "keras3-behaviour-change"]


# --- a 32-bit Python, as it says itself -------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "Python 3.8.10 (tags/v3.8.10:3d8993a, May  3 2021, 11:34:34) [MSC v.1928 32 bit (Intel)]"
        " on win32",
        '  File "C:\\Users\\user\\AppData\\Local\\Programs\\Python\\Python39-32\\lib\\site.py"'
        ", line 12, in <module>",
    ],
)
def test_a_32_bit_python_is_named_and_explains_pips_refusal(line: str) -> None:
    log = f"{line}\nERROR: No matching distribution found for tensorflow\n"
    report = _explain(log)
    assert "64-bit Python" in _fix(_one(report, "python-32bit"))
    assert not [x for x in report.findings if x.cause == "tf-no-wheel-for-python"]


def test_a_64_bit_python_is_not_called_32_bit() -> None:
    log = "Python 3.11.9 (tags/v3.11.9:de54cf5, Apr  2 2024) [MSC v.1938 64 bit (AMD64)] on win32\n"
    assert not [x for x in _explain(log).findings if x.cause == "python-32bit"]


# --- pip refusing a companion, not TensorFlow -----------------------------------------------------


#: pip refusing a companion, by what it listed: the log, and the companion.
REFUSED_COMPANIONS = {
    "listed": (
        "ERROR: Could not find a version that satisfies the requirement tensorflow-io==0.37.1 "
        "(from versions: 0.34.0, 0.35.0)\n"
        "ERROR: No matching distribution found for tensorflow-io==0.37.1\n",
        "tensorflow-io",
    ),
    "none": (
        "ERROR: Could not find a version that satisfies the requirement tensorflow-text "
        "(from versions: none)\nERROR: No matching distribution found for tensorflow-text\n",
        "tensorflow-text",
    ),
}


@pytest.mark.parametrize("log, dist", REFUSED_COMPANIONS.values(), ids=REFUSED_COMPANIONS.keys())
def test_a_companion_without_a_wheel_is_not_read_as_tensorflow(log: str, dist: str) -> None:
    # pip's refusal is about the companion's wheels for this Python and platform, not about
    # the TensorFlow it was built for: the finding and its fix name the companion.
    report = _explain(log)
    # A release pinned while pip lists others is that release's; no release at all, the
    # package's.
    pinned = "from versions: none" not in log
    cause = "tf-release-not-for-python" if pinned else "tf-no-wheel-for-python"
    finding = _one(report, cause)
    fix = _fix(finding)
    assert dist in finding.summary
    assert f"pip index versions {dist}" in fix
    assert f"https://pypi.org/project/{dist}/#files" in fix
    assert "tensorflow==0." not in fix  # a companion's versions are not TensorFlow's
    assert "64-bit" not in fix  # nothing says the interpreter is the reason
    assert [x.cause for x in report.findings] == [cause]


def test_a_renamed_companion_without_a_wheel_gets_its_successor() -> None:
    log = (
        "$ pip install tflite-runtime\n"
        "ERROR: Could not find a version that satisfies the requirement tflite-runtime "
        "(from versions: none)\nERROR: No matching distribution found for tflite-runtime\n"
    )
    fix = _fix(_one(_explain(log), "tf-no-wheel-for-python"))
    assert 'pip install "ai-edge-litert"' in fix
    assert "ai_edge_litert" in fix


def test_tf_keras_of_another_line_is_its_own_cause() -> None:
    line = (
        "tf-keras 2.17.0 requires tensorflow<2.18,>=2.17, but you have tensorflow 2.16.2 which "
        "is incompatible."
    )
    finding = _one(_explain(line), "tf-keras-mismatch")
    assert 'install "tf-keras<2.17,>=2.16"' in _fix(finding)


# --- ops no loaded library registered -----------------------------------------------------------


@pytest.mark.parametrize(
    "op, module",
    [
        ("Addons>ImageProjectiveTransformV3", "import tensorflow_addons"),
        ("IO>DecodeJSON", "import tensorflow_io"),
        ("NormalizeUTF8", "import tensorflow_text"),
        ("SimpleMLInferenceOpWithHandle", "import tensorflow_decision_forests"),
    ],
)
def test_an_add_on_op_not_registered_asks_for_its_library(op: str, module: str) -> None:
    text = (
        "tensorflow.python.framework.errors_impl.NotFoundError: "
        f"Op type not registered '{op}' in binary running on worker-3."
    )
    finding = _one(_explain(text), "op-not-registered")
    assert finding.severity is Severity.ERROR
    assert module in _fix(finding)


def test_an_op_of_no_known_library_names_both_explanations() -> None:
    text = "NotFoundError: Op type not registered 'XlaCallModule' in binary running on h."
    fix = _fix(_one(_explain(text), "op-not-registered"))
    assert "newer TensorFlow" in fix and "add-on library" in fix


@pytest.mark.parametrize(
    "text",
    [
        "---------------------------------------------------------------------------\n"
        "ModuleNotFoundError                       Traceback (most recent call last)\n"
        "Cell In[4], line 2\n      1 import numpy as np\n----> 2 import sklearn\n\n"
        "ModuleNotFoundError: No module named 'sklearn'\n",
        _import_traceback(
            "import sklearn",
            "ModuleNotFoundError: No module named 'sklearn'",
            "/tmp/ipykernel_4242/1733081122.py",
        ),
    ],
    ids=["ipython-8-cell", "ipykernel-file"],
)
def test_a_module_missing_in_a_notebook_is_installed_into_the_kernel(text: str) -> None:
    finding = _one(_explain(text), "package-not-installed")
    assert finding.fix is not None
    assert finding.fix.commands == ('%pip install "scikit-learn"',)


def test_a_module_missing_in_a_script_is_installed_with_pip() -> None:
    text = _import_traceback("import sklearn", "ModuleNotFoundError: No module named 'sklearn'")
    finding = _one(_explain(text), "package-not-installed")
    assert finding.fix is not None and finding.fix.commands == ('pip install "scikit-learn"',)


# --- a saved config and a model's internals name the Keras generation ---------------------------


@pytest.mark.parametrize(
    "module, cause",
    [
        ("keras.src.models.functional", "keras3-model-under-keras2"),
        ("keras.src.engine.functional", "keras3-behaviour-change"),
        ("keras.engine.sequential", "keras3-behaviour-change"),
    ],
)
def test_the_module_a_saved_config_names_says_which_keras_wrote_it(module: str, cause: str) -> None:
    cls = module.rsplit(".", 1)[1].title()
    text = (
        f"TypeError: Could not locate class '{cls}'. Make sure custom classes are decorated "
        "with `@keras.saving.register_keras_serializable()`. Full object config: "
        f"{{'module': '{module}', 'class_name': '{cls}', 'config': {{}}}}"
    )
    finding = _one(_explain(text), cause)
    assert module in finding.detail


def test_a_config_of_an_unknown_layout_is_not_blamed_on_a_generation() -> None:
    text = (
        "TypeError: Could not locate class 'MyBlock'. Full object config: "
        "{'module': 'keras.layers', 'class_name': 'MyBlock'}"
    )
    report = _explain(text)
    assert not [
        x
        for x in report.findings
        if x.cause in ("keras3-model-under-keras2", "keras3-behaviour-change")
    ]


def _private_member(frames_in: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/convert.py", line 9, in <module>\n'
        "    converter = tf.lite.TFLiteConverter.from_keras_model(model)\n"
        f'  File "/env/lib/python3.11/site-packages/{frames_in}", line 1126, in _get_func\n'
        "    spec = model._get_save_spec()\n"
        "AttributeError: 'Functional' object has no attribute '_get_save_spec'\n"
    )


def test_keras_2_code_reaching_into_a_keras_3_model_is_a_keras_3_change() -> None:
    finding = _one(
        _explain(_private_member("tensorflow/lite/python/lite.py")), "keras3-behaviour-change"
    )
    assert "tensorflow" in finding.summary and "tf-keras" in _fix(finding)


def test_a_private_member_missing_under_keras_2_is_no_generation_mismatch() -> None:
    report = _explain(_private_member("keras/engine/training.py"))
    assert not [x for x in report.findings if x.cause == "keras3-behaviour-change"]


def test_a_converter_reading_output_names_of_a_keras_3_sequential_is_a_keras_3_change() -> None:
    # tf2onnx's from_keras reads a Keras 2 model's output_names; Keras 3's Sequential lacks it.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/export.py", line 7, in <module>\n'
        "    proto, _ = tf2onnx.convert.from_keras(model, opset=17)\n"
        '  File "/env/lib/python3.11/site-packages/tf2onnx/convert.py", line 331, in rename\n'
        "    if model.output_names and len(set(model.output_names)) != 1:\n"
        "AttributeError: 'Sequential' object has no attribute 'output_names'\n"
    )
    finding = _one(_explain(text), "keras3-behaviour-change")
    assert "output_names" in finding.summary and "TF_USE_LEGACY_KERAS=1" in _fix(finding)


def test_output_names_missing_on_an_object_that_is_no_keras_model_is_not_read() -> None:
    text = "AttributeError: 'Booster' object has no attribute 'output_names'\n"
    report = _explain(text)
    assert not [x for x in report.findings if x.cause == "keras3-behaviour-change"]


def test_a_keras_without_keras_src_is_older_than_what_imports_it() -> None:
    text = _import_traceback(
        "model = pickle.load(f)", "ModuleNotFoundError: No module named 'keras.src'"
    )
    finding = _one(_explain(text), "keras-version")
    assert "2.13" in finding.summary


def test_numpys_old_words_without_0x_are_read_and_the_copy_imported_first_is_shown() -> None:
    # NumPy before 1.10 printed the C API versions with %x: `version a ... numpy is 9`.
    text = "RuntimeError: module compiled against API version a but this version of numpy is 9\n"
    finding = _one(_explain(text), "dependency-out-of-range")
    assert finding.fix is not None
    assert finding.fix.commands[0].endswith('print(numpy.__version__, numpy.__file__)"')
    assert "numpy>=1.10" in _fix(finding)


def test_protobuf_is_upgraded_inside_tensorflows_own_range() -> None:
    # TensorFlow 2.15 declares protobuf<5.0.0dev,>=3.20.3: an upgrade for `builder` stays in
    # it; one for `runtime_version` (5.27) cannot, and the fix says so instead of breaking it.
    from tfdoctor.causes.software import protobuf_fix
    from tfdoctor.machine import Machine

    m = Machine(f.facts(), f.FIXTURE_MATRIX)
    builder = protobuf_fix(m, too_old=True, missing="builder")
    assert any("protobuf>=3.20," in c and "<5.0.0dev" in c for c in builder.commands)
    runtime = protobuf_fix(m, too_old=True, missing="runtime_version")
    assert not any("install" in c for c in runtime.commands), runtime.commands
    assert "stops below 5.27" in runtime.text


@pytest.mark.parametrize(
    ("message", "cause"),
    [
        # The private Keras module imported and lacks the name: TensorFlow still has its
        # private copy, so the caller (standalone Keras) was made for another release.
        (
            "AttributeError: module 'tensorflow.python.keras.backend' has no attribute 'get_graph'",
            "keras-version",
        ),
        # tensorflow.python itself lacks keras: the private copy is gone (2.16, Keras 3).
        (
            "AttributeError: module 'tensorflow.python' has no attribute 'keras'",
            "keras3-behaviour-change",
        ),
    ],
)
def test_a_private_module_that_imported_is_no_removal(message: str, cause: str) -> None:
    report = _explain(message)
    # The readings of the name (the library that may have asked, where no frame shows whose
    # code did, is another candidate: explain.unshown).
    found = [
        x.cause
        for x in report.findings
        if x.severity.rank >= Severity.WARNING.rank and not x.summary.startswith("Or: ")
    ]
    assert found == [cause]


_PRIVATE_KERAS_MISSING = (
    "AttributeError: module 'tensorflow.python.keras.backend' has no attribute 'planted_helper'\n"
)


@pytest.mark.parametrize(
    "shown", [pytest.param("", id="no-release"), pytest.param("tensorflow==1.11.0\n", id="tf1")]
)
def test_a_private_keras_name_with_no_frame_ranks_keras_then_an_older_tensorflow(
    shown: str,
) -> None:
    # No frame says whose code asked TensorFlow's private Keras: standalone Keras leads, the
    # code written for a later TensorFlow (whose copy has the name) is the other candidate,
    # and the lead's fix names both ways.
    report = _explain(shown + _PRIVATE_KERAS_MISSING)
    lead, older = report.findings[0], _one(report, "tf-too-old-for-code")
    assert lead.cause == "keras-version" and lead.severity is Severity.ERROR
    assert "upgrading TensorFlow" in _fix(lead)
    assert older.severity is Severity.WARNING and older.summary.startswith("Or: ")
    assert "tensorflow.python.keras.backend.planted_helper" in older.summary
    assert "Upgrade TensorFlow" in _fix(older)


def test_a_private_keras_name_the_users_own_frame_asked_is_no_unshown_keras() -> None:
    # The frame shows the user's own line asked: neither standalone Keras nor "no frame".
    report = _explain(
        "tensorflow==1.11.0\nTraceback (most recent call last):\n"
        '  File "/home/ana/proj/run.py", line 3, in <module>\n'
        "    K.planted_helper()\n" + _PRIVATE_KERAS_MISSING
    )
    assert all(x.cause != "keras-version" for x in report.findings)
    assert all("no frame" not in (x.detail + _fix(x)).lower() for x in report.findings)


def test_a_private_keras_name_under_tensorflow_2_stays_keras_alone() -> None:
    # TensorFlow 2 froze its private copy and moved Keras out: a name missing there may be
    # one a later release removed, so no older TensorFlow is offered.
    report = _explain("tensorflow==2.4.1\n" + _PRIVATE_KERAS_MISSING)
    assert all(x.cause != "tf-too-old-for-code" for x in report.findings)
    assert report.findings[0].cause == "keras-version"


@pytest.mark.parametrize(
    ("message", "cause", "words"),
    [
        # The class's family is where the Keras API lists it: an optimizer, a layer, a model.
        (
            "AttributeError: 'Adam' object has no attribute 'get_updates'",
            "api-default-changed",
            "legacy",
        ),
        # OptimizerV2's hyperparameter and slot methods, which 2.11's optimizers lack.
        (
            "AttributeError: 'Adam' object has no attribute '_set_hyper'",
            "api-default-changed",
            "tf.keras.optimizers.legacy",
        ),
        (
            "AttributeError: 'SGD' object has no attribute '_create_slots'",
            "api-default-changed",
            "add_variable_from_reference",
        ),
        (
            "AttributeError: 'RMSprop' object has no attribute 'lr'",
            "keras3-behaviour-change",
            "learning_rate",
        ),
        (
            "AttributeError: 'Dense' object has no attribute 'output_shape'",
            "keras3-behaviour-change",
            "compute_output_shape",
        ),
        (
            "AttributeError: 'Sequential' object has no attribute 'predict_classes'",
            "api-removed",
            "np.argmax",
        ),
    ],
)
def test_a_member_missing_from_a_keras_object_gets_scans_verdict(
    message: str, cause: str, words: str
) -> None:
    report = _explain(message)
    (found,) = [x for x in report.findings if x.severity.rank >= Severity.WARNING.rank]
    assert found.cause == cause
    assert found.fix is not None and words in found.fix.text


@pytest.mark.parametrize(
    "message",
    [
        "AttributeError: 'Booster' object has no attribute 'lr'",
        # A subclass of the code's own: whose base class it has is not shown.
        "AttributeError: 'AdamWeightDecay' object has no attribute '_set_hyper'",
    ],
)
def test_a_member_missing_from_another_class_is_not_judged_as_keras(message: str) -> None:
    report = _explain(message)
    assert not any(x.cause for x in report.findings)


def test_tensorflows_own_import_of_its_own_module_is_an_incomplete_install() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        '  File "/home/me/.local/lib/python3.12/site-packages/tensorflow/__init__.py", line 40, '
        "in <module>\n"
        "    from tensorflow.python import pywrap_tensorflow as _pywrap_tensorflow\n"
        "ModuleNotFoundError: No module named 'tensorflow.python'\n"
    )
    report = _explain(text)
    (found,) = [x for x in report.findings if x.severity.rank >= Severity.ERROR.rank]
    assert found.cause == "tf-install-incomplete"
    assert found.fix is not None
    assert found.fix.commands[0].endswith("uninstall -y tensorflow")


_MIXED_FILES = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 1, in <module>\n'
    "    import tensorflow as tf\n"
    '  File "/usr/lib/python3.6/site-packages/tensorflow/python/keras/backend/__init__.py", '
    "line 22, in <module>\n"
    "    from tensorflow.python.keras._impl.keras.backend import abs\n"
    "ImportError: cannot import name 'abs'\n"
)


def test_files_of_two_releases_rank_two_distributions_second() -> None:
    findings = [x for x in _explain(_MIXED_FILES).findings if x.severity.rank >= 2]
    assert [(x.cause, x.severity) for x in findings] == [
        ("tf-install-incomplete", Severity.ERROR),
        ("tf-multiple-distributions", Severity.WARNING),
    ]
    fix = findings[1].fix
    assert fix is not None and fix.commands[0].endswith("pip list")
    assert "tf-nightly" in fix.commands[1] and "tensorflow-gpu" in fix.commands[1]


def test_a_listing_of_one_tensorflow_leaves_no_second_candidate() -> None:
    listing = "Name: tensorflow-gpu\nVersion: 1.5.0\nLocation: /usr/lib/python3.6/site-packages\n"
    findings = _explain(listing + _MIXED_FILES).findings
    assert all(x.cause != "tf-multiple-distributions" for x in findings)


def test_the_users_import_of_a_tensorflow_module_is_no_incomplete_install() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/proj/train.py", line 3, in <module>\n'
        "    from tensorflow.python.keras.layers import Dense\n"
        "ModuleNotFoundError: No module named 'tensorflow.python.keras'\n"
    )
    report = _explain(text)
    assert all(x.cause != "tf-install-incomplete" for x in report.findings)


@pytest.mark.parametrize(
    "module", ["tensorflow.python.framework", "tensorflow.python.util", "tensorflow.core"]
)
def test_a_module_every_release_installs_missing_is_an_incomplete_install(module: str) -> None:
    """Whoever imports it, and without frames: no release lacks it, so no API moved."""
    report = _explain(f"ModuleNotFoundError: No module named '{module}'")
    (found,) = [x for x in report.findings if x.severity.rank >= Severity.ERROR.rank]
    assert found.cause == "tf-install-incomplete"


def test_a_tensorflow_core_module_not_every_release_has_is_code_of_another_release() -> None:
    # tensorflow.core is private as tensorflow.python is: a module some releases lack,
    # asked for with no frame to show whose code asks, is code built for another release.
    report = _explain("ModuleNotFoundError: No module named 'tensorflow.core.kernels'\n")
    (found,) = [x for x in report.findings if x.severity.rank >= Severity.WARNING.rank]
    assert found.cause == "companion-mismatch"


def test_python_36s_refusal_reads_its_module_from_the_statement_above() -> None:
    # Python 3.6 names no module ("cannot import name 'naming'"); the statement printed
    # above the message does, so it is read as a private name missing from tensorflow.python.
    text = (
        "from tensorflow.python.autograph.core import naming\n"
        "ImportError: cannot import name 'naming'\n"
    )
    causes_found = {x.cause for x in _explain(text).findings}
    assert "companion-mismatch" in causes_found
    # Another module's name in the statement is not taken for the message's.
    other = text.replace("import naming", "import converter")
    assert "companion-mismatch" not in {x.cause for x in _explain(other).findings}


def test_a_file_named_tensorflow_is_no_incomplete_install() -> None:
    text = "ModuleNotFoundError: No module named 'tensorflow.python'; 'tensorflow' is not a package"
    assert all(x.cause != "tf-install-incomplete" for x in _explain(text).findings)


def test_a_requirement_with_environment_markers_is_read() -> None:
    report = _explain(
        'tensorflow-text 2.15.0 requires tensorflow<2.16,>=2.15.0; platform_machine != "arm64" '
        'or platform_system != "Darwin", but you have tensorflow 2.16.1 which is incompatible.'
    )
    (found,) = [x for x in report.findings if x.severity.rank >= Severity.WARNING.rank]
    assert found.cause == "companion-mismatch"
    assert found.fix is not None and 'tensorflow-text==2.16.*"' in " ".join(found.fix.commands)


def test_colabs_restart_warning_asks_for_a_restart() -> None:
    report = _explain(
        "WARNING: The following packages were previously imported in this runtime:\n"
        "  [tensorflow]\n"
        "You must restart the runtime in order to use newly installed versions.\n"
    )
    (found,) = [x for x in report.findings if x.severity.rank >= Severity.WARNING.rank]
    assert found.cause == "kernel-restart-needed"
    assert found.fix is not None and "Restart session" in found.fix.text


_REPLACED_1 = (
    "Installing collected packages: tensorflow\n"
    "  Attempting uninstall: tensorflow\n"
    "    Found existing installation: tensorflow 2.12.0\n"
    "    Uninstalling tensorflow-2.12.0:\n"
    "      Successfully uninstalled tensorflow-2.12.0\n"
    "Successfully installed keras-2.15.0 tensorflow-2.15.1\n"
)


@pytest.mark.parametrize(
    ("after", "stale"),
    [
        # IPython's echo of the old release: the kernel imported it before the install.
        ("In [4]: tf.__version__\nOut[4]: '2.12.0'\n", ("2.12.0", "2.15.1")),
        # A print in the notebook's next cell.
        ("print(tf.__version__)\n2.12.0\n", ("2.12.0", "2.15.1")),
        # The new release echoed: the restart happened.
        (">>> tf.__version__\n'2.15.1'\n", None),
        # A third release: another interpreter, not this one kept.
        (">>> tf.__version__\n'2.9.1'\n", None),
        # NumPy's version says nothing of TensorFlow's.
        (">>> np.__version__\n'2.12.0'\n", None),
    ],
)
def test_a_version_echoed_after_pip_replaced_tensorflow(
    after: str, stale: Optional[tuple[str, str]]
) -> None:
    found = read_stale_import(_REPLACED_1 + after)
    assert ((found.removed, found.installed) if found else None) == stale


def test_an_echo_before_the_install_is_not_stale() -> None:
    text = "In [1]: tf.__version__\nOut[1]: '2.12.0'\n" + _REPLACED_1
    assert read_stale_import(text) is None


def test_the_kernel_still_holding_the_removed_release_needs_a_restart() -> None:
    report = _explain(_REPLACED_1 + "In [4]: tf.__version__\nOut[4]: '2.12.0'\n")
    top = top_error(report)
    assert top.cause == "kernel-restart-needed"
    assert "2.15.1" in top.summary and "2.12.0" in top.summary
    assert top.fix is not None and "Restart" in top.fix.text


def test_pip_installed_reads_its_list_and_what_it_found() -> None:
    text = (
        "Requirement already satisfied: numpy>=1.16 in ./venv/lib/python3.10/site-packages "
        "(from tensorflow-lattice) (1.26.4)\n"
        "Successfully installed dm-tree-0.1.8 tensorflow_lattice-2.0.13\n"
    )
    assert read_pip_installed(text) == ["dm-tree", "tensorflow-lattice", "numpy"]
    # The user's site directory: a kernel started before it existed does not search it.
    assert (
        read_pip_installed(
            "Defaulting to user installation because normal site-packages is not writeable\n" + text
        )
        == []
    )


_KERNEL_NO_MODULE = (
    "---------------------------------------------------------------------------\n"
    "ModuleNotFoundError                       Traceback (most recent call last)\n"
    "Cell In[2], line 1\n"
    "----> 1 import tensorflow_decision_forests as tfdf\n"
    "\n"
    "ModuleNotFoundError: No module named 'tensorflow_decision_forests'\n"
)


def test_a_kernel_without_the_module_pip_installed_runs_another_python() -> None:
    text = (
        "(tfdf) user@host:~$ pip install tensorflow_decision_forests\n"
        "Successfully installed tensorflow-decision-forests-1.8.1 wurlitzer-3.0.3\n"
        + _KERNEL_NO_MODULE
    )
    top = top_error(_explain(text))
    assert top.cause == "kernel-env-mismatch"
    fix = fix_text(top)
    assert "ipykernel" in fix and "%pip install tensorflow-decision-forests" in fix
    assert all(x.cause != "package-not-installed" for x in _explain(text).findings)


@pytest.mark.parametrize(
    "before",
    [
        # %pip installs into the kernel's own interpreter.
        "In [1]: %pip install tensorflow_decision_forests\n"
        "Successfully installed tensorflow-decision-forests-1.8.1\n",
        # Another distribution installed.
        "Successfully installed wurlitzer-3.0.3\n",
        # No install shown at all.
        "",
    ],
)
def test_a_kernel_missing_a_module_pip_did_not_install_there_is_not_another_python(
    before: str,
) -> None:
    causes = [x.cause for x in _explain(before + _KERNEL_NO_MODULE).findings]
    assert "kernel-env-mismatch" not in causes


def test_an_install_after_the_failure_is_its_remedy() -> None:
    text = _KERNEL_NO_MODULE + "Successfully installed tensorflow-decision-forests-1.8.1\n"
    assert all(x.cause != "kernel-env-mismatch" for x in _explain(text).findings)


_PIP_SHOW = (
    "!pip show tensorflow_decision_forests\n"
    "Name: tensorflow-decision-forests\n"
    "Version: 1.8.1\n"
    "Summary: Collection of training and inference decision forest algorithms.\n"
    "Home-page: https://github.com/tensorflow/decision-forests\n"
    "Location: {location}\n"
    "Requires: absl-py, numpy, pandas, six, tensorflow, wheel, wurlitzer\n"
)


def test_pip_show_after_the_failure_shows_another_interpreter_has_it() -> None:
    text = _KERNEL_NO_MODULE + _PIP_SHOW.format(
        location="/home/u/miniconda3/envs/tfdf/lib/python3.10/site-packages"
    )
    top = top_error(_explain(text))
    assert top.cause == "kernel-env-mismatch"
    assert "%pip install tensorflow-decision-forests" in fix_text(top)


def test_pip_show_of_an_install_after_the_failure_is_its_remedy() -> None:
    text = (
        _KERNEL_NO_MODULE
        + "!pip install tensorflow_decision_forests\n"
        + "Successfully installed tensorflow-decision-forests-1.8.1\n"
        + _PIP_SHOW.format(location="/opt/conda/lib/python3.10/site-packages")
    )
    assert all(x.cause != "kernel-env-mismatch" for x in _explain(text).findings)


def test_pip_show_of_the_user_site_is_not_another_interpreter() -> None:
    text = _KERNEL_NO_MODULE + _PIP_SHOW.format(
        location="/home/u/.local/lib/python3.10/site-packages"
    )
    assert all(x.cause != "kernel-env-mismatch" for x in _explain(text).findings)


def test_h5py_3_under_an_hdf5_loader_for_h5py_2() -> None:
    report = _explain(
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.7/dist-packages/tensorflow/python/keras/saving/'
        'hdf5_format.py", line 182, in load_model_from_hdf5\n'
        "    model_config = json.loads(model_config.decode('utf-8'))\n"
        "AttributeError: 'str' object has no attribute 'decode'\n"
    )
    (found,) = [x for x in report.findings if x.severity.rank >= Severity.WARNING.rank]
    assert found.cause == "dependency-out-of-range"
    assert found.fix is not None and 'h5py<3.0.0"' in " ".join(found.fix.commands)
    # Keras 2.0-2.1 kept the loader in engine/topology.py.
    older = _explain(
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/keras/engine/topology.py", line 3318, in '
        "load_weights_from_hdf5_group\n"
        "    original_keras_version = f.attrs['keras_version'].decode('utf8')\n"
        "AttributeError: 'str' object has no attribute 'decode'\n"
    )
    (found,) = [x for x in older.findings if x.severity.rank >= Severity.WARNING.rank]
    assert found.cause == "dependency-out-of-range" and found.severity is Severity.ERROR
    # The same message from the user's own code is no h5py matter.
    own = _explain(
        "Traceback (most recent call last):\n"
        '  File "/home/me/app.py", line 3, in <module>\n'
        "AttributeError: 'str' object has no attribute 'decode'\n"
    )
    assert all(x.cause != "dependency-out-of-range" for x in own.findings)


def test_h5py_3_under_a_librarys_own_hdf5_reader_names_the_library() -> None:
    # A library's own weight loader (not Keras') decoding an HDF5 attribute h5py 3 reads as str.
    report = _explain(
        "Traceback (most recent call last):\n"
        '  File "/srv/app/infer.py", line 12, in <module>\n'
        "    net.load_weights('weights.h5')\n"
        '  File "/opt/venv/lib/python3.8/site-packages/tensor2tensor/utils/hdf5_io.py", line 40, '
        "in load_weights\n"
        "    backend = f.attrs.get('backend').decode('utf8')\n"
        "AttributeError: 'str' object has no attribute 'decode'\n"
    )
    found = _one(report, "dependency-out-of-range")
    assert found.severity is Severity.ERROR and "tensor2tensor" in found.summary
    assert found.fix is not None and 'h5py<3.0.0"' in " ".join(found.fix.commands)
    assert "upgrade tensor2tensor" in found.fix.text
    # An import name no table maps to a distribution is not offered as one.
    unknown = _explain(
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.8/site-packages/mrcnn/model.py", line 2130, in '
        "load_weights\n"
        "    original_keras_version = f.attrs['keras_version'].decode('utf8')\n"
        "AttributeError: 'str' object has no attribute 'decode'\n"
    )
    found = _one(unknown, "dependency-out-of-range")
    assert found.fix is not None and "the mrcnn package" in found.fix.text
    # Keras 2.0-2.1's models.py, and loaders copied from it, decode the attribute they read
    # into a variable first.
    for path in ("keras/models.py", "zookit/io.py"):
        copied = _explain(
            "Traceback (most recent call last):\n"
            f'  File "/opt/venv/lib/python3.6/site-packages/{path}", line 237, in load_model\n'
            "    model_config = json.loads(model_config.decode('utf-8'))\n"
            "AttributeError: 'str' object has no attribute 'decode'\n"
        )
        assert _one(copied, "dependency-out-of-range").severity is Severity.ERROR
    # The library's line decoding something else than an HDF5 attribute is no h5py matter.
    other = _explain(
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.8/site-packages/tensor2tensor/utils/text.py", line 9, '
        "in read\n"
        "    return line.decode('utf8')\n"
        "AttributeError: 'str' object has no attribute 'decode'\n"
    )
    assert all(x.cause != "dependency-out-of-range" for x in other.findings)


def test_an_older_h5py_is_asked_only_inside_tensorflows_own_range() -> None:
    reader = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.8/site-packages/tensor2tensor/utils/hdf5_io.py", line 40, '
        "in load_weights\n"
        "    backend = f.attrs.get('backend').decode('utf8')\n"
        "AttributeError: 'str' object has no attribute 'decode'\n"
    )
    for declared, installs in (("h5py~=3.1.0", False), ("h5py>=2.9.0", True)):
        tf = f.pkg("tensorflow", "2.6.0", declared, top_level=("tensorflow",))
        facts = f.facts(packages=(tf, f.pkg("h5py", "3.1.0")))
        found = _one(explained(reader, facts=facts), "dependency-out-of-range")
        assert found.fix is not None
        commands = " ".join(found.fix.commands)
        # A range that starts at h5py 3: no older h5py is installed against it.
        assert ("install" in commands) is installs, declared
        assert not installs or f'"h5py<3.0.0,{declared[4:]}"' in commands
        assert "upgrade tensor2tensor" in found.fix.text


def test_the_decode_message_without_frames_names_h5py_as_the_likely_cause() -> None:
    bare = _explain("AttributeError: 'str' object has no attribute 'decode'\n")
    (found,) = [x for x in bare.findings if x.severity.rank >= Severity.WARNING.rank]
    assert (found.cause, found.severity) == ("dependency-out-of-range", Severity.WARNING)
    assert found.fix is not None and 'h5py<3.0.0"' in " ".join(found.fix.commands)
    # Under a TensorFlow whose loader reads h5py 3's strings, h5py is no candidate.
    newer = _explain(
        "TensorFlow version: 2.12.0\nAttributeError: 'str' object has no attribute 'decode'\n"
    )
    assert all(x.cause != "dependency-out-of-range" for x in newer.findings)


def test_an_exception_python_ignored_is_not_what_stopped_the_run() -> None:
    report = _explain(
        "Epoch 1/1 - loss: 0.1\n"
        "Exception ignored in: <function AtomicFunction.__del__ at 0x7f0>\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.11/site-packages/tensorflow/python/eager/polymorphic_'
        'function/atomic_function.py", line 291, in __del__\n'
        "TypeError: 'NoneType' object is not callable\n"
    )
    assert all(x.severity.rank <= Severity.INFO.rank for x in report.findings)


def test_a_companion_library_that_does_not_open_is_that_companion_of_another_tensorflow() -> None:
    log = (
        "NotImplementedError: unable to open file: libtensorflow_io.so, from paths: "
        "['/usr/local/lib/python3.8/dist-packages/tensorflow_io/python/ops/libtensorflow_io.so']"
        "\ncaused by: ['/usr/local/lib/python3.8/dist-packages/tensorflow_io/python/ops/"
        "libtensorflow_io.so: undefined symbol: _ZN10tensorflow8OpKernelD2Ev']\n"
    )
    top = top_error(explained(log))
    assert top.cause == "companion-mismatch"
    assert "tensorflow-io" in fix_text(top)
    # Named by the library's own name alone, too.
    top = top_error(explained("NotImplementedError: unable to open file: libtensorflow_io.so\n"))
    assert (top.cause, "tensorflow-io" in fix_text(top)) == ("companion-mismatch", True)


def test_a_companion_library_missing_a_system_framework_is_the_loader_with_its_release() -> None:
    lib = "/Users/u/venv/lib/python3.9/site-packages/tensorflow_io/python/ops/libtensorflow_io.so"
    log = (
        f"NotImplementedError: unable to open file: libtensorflow_io.so, from paths: ['{lib}']\n"
        f"    caused by: ['dlopen({lib}, 6): Library not loaded: /System/Library/Frameworks/"
        f"AVFAudio.framework/Versions/A/AVFAudio\\n  Referenced from: {lib}\\n  Reason: image "
        "not found']\n"
    )
    report = explained(log)
    top = top_error(report)
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "tensorflow-io" in fix and "AVFAudio" in fix
    assert "otool -L" in fix and "ldd" not in fix
    assert all(x.cause != "companion-mismatch" for x in report.findings)


@pytest.mark.parametrize(
    ("printed", "other"),
    [
        pytest.param(
            "<tensorflow.python.keras.engine.training.Model object at 0x7f3c>",
            "tf.keras",
            id="tf-keras-model",
        ),
        pytest.param(
            "<keras.layers.core.Dense object at 0x7f3c>",
            "the standalone keras package",
            id="keras-layer",
        ),
    ],
)
def test_keras_refusing_a_keras_object_is_two_keras_stacks(printed: str, other: str) -> None:
    log = f"TypeError: The added layer must be an instance of class Layer. Found: {printed}\n"
    top = top_error(explained(log))
    assert top.cause == "keras-version"
    assert other in top.summary
    assert "import every Keras name from one package" in fix_text(top)


def test_keras_refusing_what_is_not_a_keras_object_is_not_two_stacks() -> None:
    log = "TypeError: The added layer must be an instance of class Layer. Found: <object>\n"
    assert all(x.cause != "keras-version" for x in explained(log).findings)


@pytest.mark.parametrize(
    ("row", "kind", "command"),
    [
        pytest.param(
            "tensorflow                1.15.0          eigen_py37h9f89a44_0",
            "cpu",
            'conda install "tensorflow=1.15.0=gpu_*"',
            id="defaults-eigen",
        ),
        pytest.param(
            "tensorflow-base           2.3.0           mkl_py38h1234567_0",
            "cpu",
            'conda install "tensorflow=2.3.0=gpu_*"',
            id="defaults-mkl",
        ),
        pytest.param(
            "tensorflow                2.15.0          cpu_py311h6ac8430_2    conda-forge",
            "cpu",
            'conda install -c conda-forge "tensorflow=2.15.0=cuda*"',
            id="conda-forge-cpu",
        ),
        pytest.param(
            "tensorflow                2.15.0          cuda120py311h1b7a0a8_2    conda-forge",
            "gpu",
            "",
            id="conda-forge-cuda",
        ),
        pytest.param(
            "tensorflow                2.15.0          pypi_0    pypi", None, "", id="pip"
        ),
    ],
)
def test_a_conda_list_row_says_which_build_tensorflow_is(
    row: str, kind: Optional[str], command: str
) -> None:
    (read,) = read_conda_rows([f"# packages in environment at /opt/conda:\n{row}\n"])
    assert read.kind == kind
    report = explained(f"I can't use my GPU.\n{row}\n")
    found = [x for x in readings(report) if x.cause == "tf-cpu-only-build"]
    assert bool(found) is (kind == "cpu")
    # A row of a GPU build rules the CPU build out as a candidate too.
    ranked = [x for x in report.findings if x.cause == "tf-cpu-only-build"]
    assert not (kind == "gpu" and ranked)
    if found:
        assert found[0].fix is not None and command in found[0].fix.commands


def test_a_cpu_build_in_a_pixi_workspace_gets_pixis_add() -> None:
    """conda's listing of a pixi workspace's environment (its prefix under .pixi/envs): the
    GPU build goes into the workspace's manifest and lock with `pixi add`; `conda install`
    there would be undone by the next `pixi install`."""
    log = (
        "I can't use my GPU.\n"
        "# packages in environment at /home/u/proj/.pixi/envs/default:\n"
        "tensorflow                2.15.0          cpu_py311h6ac8430_2    conda-forge\n"
    )
    (found,) = [x for x in readings(explained(log)) if x.cause == "tf-cpu-only-build"]
    assert found.fix is not None
    assert found.fix.commands == ('pixi add "tensorflow=2.15.0=cuda*"',)
    # pixi solves for the CUDA its manifest declares: the fix says to declare it.
    assert "system-requirements add cuda" in found.fix.text


def test_a_keras_that_requires_another_tensorflow_is_a_keras_of_another_release() -> None:
    log = (
        "ERROR: keras 2.4.0 has requirement tensorflow>=2.2.0, but you'll have tensorflow "
        "2.0.0 which is incompatible.\n"
    )
    top = top_error(explained(log))
    assert top.cause == "keras-version"
    assert "keras" in fix_text(top)


def test_an_op_library_linking_another_majors_framework_is_a_companion_of_that_major() -> None:
    log = (
        "tensorflow.python.framework.errors_impl.NotFoundError: libtensorflow_framework.so.2: "
        "cannot open shared object file: No such file or directory\n"
    )
    top = top_error(explained(log))
    assert top.cause == "companion-mismatch"
    assert "TensorFlow 2.x" in fix_text(top)
    # The same library missing as TensorFlow 2 itself imports: not a companion's.
    own = log.replace("tensorflow.python.framework.errors_impl.NotFoundError", "ImportError")
    assert all(x.cause != "companion-mismatch" for x in explained(own).findings)


def test_conda_rows_are_read_at_the_start_and_after_other_rows() -> None:
    text = (
        "tensorflow                1.15.0          eigen_py37h9f89a44_0\n"
        "numpy                     1.17.4          py37h4320e6b_0\n"
        "tensorflow-base           1.15.0          eigen_py37h07d2309_0\n"
        "tensorflow-estimator      1.15.1             pyh2649769_0"
    )
    assert [(r.name, r.kind) for r in read_conda_rows([text])] == [
        ("tensorflow", "cpu"),
        ("tensorflow-base", "cpu"),
    ]
    assert read_conda_rows(["tensorflow"]) == read_conda_rows([""]) == []


def test_tensorflow_missing_in_a_notebook_that_runs_another_interpreter() -> None:
    shown = (
        "ModuleNotFoundError: No module named 'tensorflow'\n"
        "sys.executable in the terminal:\n"
        "'C:\\\\Users\\\\me\\\\miniconda3\\\\envs\\\\tf\\\\python.exe'\n"
        "sys.executable in the second shell:\n"
        "'C:\\\\Users\\\\me\\\\miniconda3\\\\python.exe'\n"
    )
    found = _one(_explain("In Jupyter:\n" + shown), "kernel-env-mismatch")
    assert found.severity is Severity.ERROR
    assert found.fix is not None
    register = found.fix.commands[1]
    assert '"C:\\Users\\me\\miniconda3\\envs\\tf\\python.exe" -m ipykernel install' in register
    assert "--name tf" in register
    assert all(x.cause != "tf-not-installed" for x in _explain("In Jupyter:\n" + shown).findings)
    # Without a notebook, or with one interpreter, it stays "not installed" in that Python.
    _one(_explain(shown), "tf-not-installed")
    one = "In Jupyter:\nModuleNotFoundError: No module named 'tensorflow'\n/opt/env/bin/python\n"
    _one(_explain(one), "tf-not-installed")


def test_python_2_names_no_module_and_the_frames_show_the_users_tensorflow_py() -> None:
    report = _explain(
        ">>> import tensorflow as tf\n"
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        '  File "tensorflow.py", line 3, in <module>\n'
        "    w = tf.Variable(0.0)\n"
        "AttributeError: 'module' object has no attribute 'Variable'\n"
    )
    found = _one(report, "tf-shadowed-module")
    assert found.fix is not None and 'mv "tensorflow.py"' in found.fix.commands[0]


def test_python_2_missing_a_tf1_name_through_the_users_tensorflow_py_is_the_shadow() -> None:
    # A TensorFlow 1 name (tf.Session) missing in Python 2's bare words, where the frames
    # run through the user's own tensorflow.py: that file is the cause, not a release.
    report = _explain(
        "Traceback (most recent call last):\n"
        '  File "/home/me/proj/tensorflow.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        '  File "/home/me/proj/tensorflow.py", line 3, in <module>\n'
        "    sess = tf.Session()\n"
        "AttributeError: 'module' object has no attribute 'Session'\n"
    )
    _one(report, "tf-shadowed-module")
    problems = [x for x in report.findings if x.severity.rank >= Severity.WARNING.rank]
    assert [x.cause for x in problems] == ["tf-shadowed-module"], problems


def test_tensorflow_without_a_name_every_release_has_is_no_whole_tensorflow() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/model.py", line 4, in <module>\n'
        "    step = tf.Variable(0)\n"
        "AttributeError: module 'tensorflow' has no attribute 'Variable'\n"
    )
    found = _one(_explain(log), "tf-install-incomplete")
    assert found.fix is not None and "print(tf.__file__" in found.fix.commands[0]
    # A name a later release brought (tf.function, 1.14): an older TensorFlow, not a hollow
    # install, leads; an incomplete install is at most information (the other candidate).
    newer = _explain(log.replace("Variable", "function"))
    assert top_error(newer).cause == "tf-too-old-for-code"
    assert all(
        x.severity is Severity.INFO for x in newer.findings if x.cause == "tf-install-incomplete"
    )


def test_a_name_an_early_release_brought_ranks_its_other_candidates_as_information() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/input.py", line 7, in <module>\n'
        "    lines = tf.data.TextLineDataset(paths)\n"
        "AttributeError: module 'tensorflow' has no attribute 'data'\n"
    )
    other = "(the other candidate)"
    report = _explain(log)
    assert _one(report, "tf-too-old-for-code").severity is Severity.ERROR
    for cause in ("tf-shadowed-module", "tf-install-incomplete"):
        found = _one(report, cause)
        assert found.severity is Severity.INFO
        assert found.summary.startswith("Or: ") and found.summary.endswith(other)
    # Python 3.10's suggestion makes the older release unlikely: the user's own module leads,
    # as a warning of its own, and the incomplete install stays the other candidate.
    suggested = _explain(log.replace("'data'\n", "'data'. Did you mean: 'math'?\n"))
    shadow = _one(suggested, "tf-shadowed-module")
    assert shadow.severity is Severity.WARNING and not shadow.summary.startswith("Or")
    assert not shadow.summary.endswith(other)
    broken = _one(suggested, "tf-install-incomplete")
    assert broken.severity is Severity.INFO and broken.summary.endswith(other)
    assert _one(suggested, "tf-too-old-for-code").severity is Severity.INFO


def test_a_package_importing_tensorflow_core_was_written_for_tensorflow_1_15_to_2_1() -> None:
    log = (
        "/usr/lib/python3.6/site-packages/graphlib/layers/base.py in <module>()\n"
        "----> 6 from tensorflow_core.python.keras.utils import tf_utils\n"
        "\n"
        "ModuleNotFoundError: No module named 'tensorflow_core'\n"
    )
    found = _one(_explain(log), "companion-mismatch")
    assert "graphlib" in found.summary and "tensorflow_core" in found.summary
    # The user's own import of it, with no package in the frames, is not a companion's.
    own = _explain("ModuleNotFoundError: No module named 'tensorflow_core'\n")
    assert all(x.cause != "companion-mismatch" for x in own.findings)


@pytest.mark.parametrize(
    ("log", "command"),
    [
        (
            "UnsatisfiableError: The following specifications were found to be in conflict:\n"
            "  - python 3.6*\n  - tensorflow 0.12.0rc0*\n",
            "conda create -n tf0120rc0 python=3.5 tensorflow=0.12.0rc0",
        ),
        (
            "UnsatisfiableError: The following specifications were found\nto be incompatible "
            "with the existing python installation in your environment:\n\nSpecifications:\n\n"
            "  - tensorflow==1.13.1 -> python[version='>=2.7,<2.8.0a0|>=3.6,<3.7.0a0|"
            ">=3.7,<3.8.0a0']\n\nYour python: python=3.8.5\n",
            "conda create -n tf1131 python=3.7 tensorflow=1.13.1",
        ),
    ],
)
def test_conda_finds_no_build_of_the_release_for_the_environments_python(
    log: str, command: str
) -> None:
    # The bundled matrix: its early releases hold 0.12.0's Pythons.
    found = _one(_bundled(log), "tf-release-not-for-python")
    assert found.fix is not None and found.fix.commands[0] == command


def test_an_older_protobuf_runtime_loaded_first_is_named_with_both_versions() -> None:
    report = _explain(
        "[libprotobuf FATAL external/protobuf_archive/src/google/protobuf/stubs/common.cc:68] "
        "This program requires version 3.7.0 of the Protocol Buffer runtime library, but the "
        "installed version is 3.6.1.  Please update your library.\n"
        "terminate called after throwing an instance of 'google::protobuf::FatalException'\n"
    )
    found = _one(report, "protobuf-incompatible")
    assert found.fix is not None
    assert "3.7.0" in found.fix.text and "3.6.1" in found.fix.text
    assert "Import tensorflow before" in found.fix.text


def test_a_package_asking_for_a_tensorflow_module_the_release_lacks_names_the_lines_with_it() -> (
    None
):
    log = (
        "/usr/local/lib/python3.7/dist-packages/keras_cv/layers/__init__.py in <module>()\n"
        "---> 15 from tensorflow.keras.__internal__.layers import BaseImageAugmentationLayer\n"
        "\n"
        "ModuleNotFoundError: No module named 'tensorflow.keras.__internal__.layers'\n"
    )
    found = _one(_explain(log), "companion-mismatch")
    assert "keras-cv" in found.summary
    # From the bundled listings: the lines whose public API has the module. Python 3.7's
    # lines without it are older: TensorFlow moves, not keras-cv (its newer releases need a
    # newer TensorFlow still).
    assert found.fix is not None and "TensorFlow 2.9 to 2.15" in found.fix.text
    assert not [c for c in found.fix.commands if "--upgrade" in c], found.fix.commands


def test_a_wildcard_pin_of_tensorflow_gpu_names_the_python_of_its_line() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow-gpu==1.15.* "
        "(from versions: 2.2.0rc1, 2.2.0, 2.2.1, 2.3.0, 2.3.1, 2.4.0rc0)\n"
        "ERROR: No matching distribution found for tensorflow-gpu==1.15.*\n"
    )
    found = _one(_bundled(log), "tf-release-not-for-python")
    assert found.fix is not None
    # tensorflow-gpu 1.15's wheels (the line's Pythons; no macOS for -gpu), by its own name.
    assert "tensorflow-gpu 1.15.* with Python 3.7" in found.fix.text
    assert "macOS" not in found.fix.text
    assert 'pip install "tensorflow-gpu==2.3.1"' in found.fix.text


def test_no_release_at_all_names_the_platforms_whose_wheels_begin_or_end_later() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow>=2.9.0 "
        "(from tensorflow-recommenders) (from versions: none)\n"
        "ERROR: No matching distribution found for tensorflow>=2.9.0\n"
    )
    found = _one(_bundled(log), "tf-no-wheel-for-python")
    assert found.fix is not None
    # Read from the matrix's Pythons per platform of each line.
    assert "macOS arm64 from 2.13 (tensorflow-macos before that)" in found.fix.text
    assert "Linux aarch64 from 2.10" in found.fix.text


def test_a_package_importing_a_keras_2_module_under_keras_3_needs_keras_2_itself() -> None:
    log = (
        "File ~\\anaconda3\\envs\\py310\\lib\\site-packages\\keras_vggface\\models.py:16\n"
        "     15 from keras_applications.imagenet_utils import _obtain_input_shape\n"
        "---> 16 from keras.utils import layer_utils\n"
        "\n"
        # The paste lost the closing quote: Python always prints it.
        "ImportError: cannot import name 'layer_utils' from 'keras.utils\n"
    )
    found = _one(_explain(log), "keras3-behaviour-change")
    assert found.fix is not None
    # keras.utils.layer_utils is one of Keras 2's own modules: 2.13 to 2.15 generate keras/
    # from the public export paths only (keras-team/keras v2.15.0: pip_build.py), so the last
    # Keras that has it at that place is 2.12, and tf-keras (TF_USE_LEGACY_KERAS) has it not.
    assert found.fix.commands == ('pip install "tensorflow~=2.12.0" "keras~=2.12.0"',)
    assert "keras_vggface" in found.fix.text
    assert "2.15" in found.fix.text and "TensorFlow 2.12 and Keras 2.12" in found.fix.text
    # Nothing in the log says Keras 3 rather than a Keras 2 of 2.13 to 2.15: both are named.
    assert "Keras 3 or a Keras 2 of 2.13 to 2.15" in found.detail
    listed = _one(_explain("$ pip list\nkeras      3.1.0\n" + log), "keras3-behaviour-change")
    assert "the installed Keras is Keras 3 (keras 3.1.0 is installed)" in listed.detail


def test_a_package_asking_keras_3_for_a_public_keras_2_name_keeps_the_last_keras_2() -> None:
    # A name Keras 2.13 to 2.15 still export (TensorFlow 2.15's tf.keras listing has it) is
    # found in the last Keras 2 line, whatever 2.13 did to Keras 2's own modules.
    assert _last_keras2_line("keras.layers.LocallyConnected1D") == "2.15"
    assert _last_keras2_line("keras.utils.layer_utils") == "2.12"
    assert _last_keras2_line("keras.engine.functional") == "2.12"
    # A module of Keras 2's own that is also a public path (keras.activations) is not moved.
    assert _last_keras2_line("keras.activations") == "2.15"
    # An own module that left before 2.12 (2.9 split keras/layers/merge.py into merging/).
    assert _last_keras2_line("keras.layers.merge") == "2.8"
    # A member of an own module: the table follows modules, not their names (2.12's
    # generic_utils no longer holds get_custom_objects); multi-backend Keras' topology.
    assert _last_keras2_line("keras.utils.generic_utils.get_custom_objects") == ""
    assert _last_keras2_line("keras.engine.topology") == ""


def test_a_package_asking_for_multi_backend_keras_topology_is_not_sent_to_keras_2_12() -> None:
    # keras/engine/topology.py left with the multi-backend tree (keras-team/keras 2.4.0 had
    # it, 2.6.0 to 2.12.0 do not): Keras 2.12 would fail the same way.
    log = (
        "Traceback (most recent call last):\n"
        '  File "/srv/venv/lib/python3.8/site-packages/nnlib/layers.py", line 4, in <module>\n'
        "    from keras.engine.topology import Layer\n"
        "ModuleNotFoundError: No module named 'keras.engine.topology'\n"
    )
    text = "\n".join(fix_text(x) for x in _explain(log).findings)
    assert "2.12" not in text


def test_conda_with_no_build_of_any_release_for_the_python_is_no_wheel_for_it() -> None:
    log = (
        "UnsatisfiableError: The following specifications were found\nto be incompatible with "
        "the existing python installation in your environment:\n\n"
        "  - tensorflow -> python[version='2.7.*|3.7.*|3.6.*|3.5.*']\n\nYour python: python=3.8\n"
    )
    found = _one(_explain(log), "tf-no-wheel-for-python")
    assert (
        found.fix is not None
        and found.fix.commands[0] == "conda create -n tf python=3.7 tensorflow"
    )


def test_a_distribution_the_tables_do_not_know_is_not_called_pure_python() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow-foo==1.0 "
        "(from versions: none)\nERROR: No matching distribution found for tensorflow-foo==1.0\n"
    )
    texts = " ".join(x.fix.text for x in _explain(log).findings if x.fix is not None)
    assert "pure Python" not in texts


@pytest.mark.parametrize("prefix", ["/opt/homebrew", "/usr/local"])
def test_a_homebrew_library_dyld_misses_names_its_formula(prefix: str) -> None:
    ext = "/Users/u/venv/lib/python3.9/site-packages/h5py/_errors.cpython-39-darwin.so"
    log = (
        f"ImportError: dlopen({ext}, 0x0002): Library not loaded: {prefix}/opt/hdf5/lib/"
        "libhdf5.310.dylib\n"
        f"  Referenced from: <5D8A7D9C-1B0A-3D2E-9C3B-111111111111> {ext}\n"
        f"  Reason: tried: '{prefix}/opt/hdf5/lib/libhdf5.310.dylib' (no such file)\n"
    )
    top = top_error(explained(log))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "brew install hdf5" in fix and "libhdf5.310.dylib" in fix
    # brew info first: it says whether the formula is disabled (then a newer wheel is the fix).
    commands = top.fix.commands if top.fix is not None else ()
    assert commands.index("brew info hdf5") < commands.index("brew install hdf5")
    assert "disabled" in fix and "newer wheel" in fix
    assert "2024-10-24" not in fix  # openssl@1.1's own date is for that formula


def test_homebrews_disabled_openssl_11_points_to_a_newer_wheel() -> None:
    ext = "/Users/u/venv/lib/python3.10/site-packages/psycopg2/_psycopg.cpython-310-darwin.so"
    lib = "/opt/homebrew/opt/openssl@1.1/lib/libssl.1.1.dylib"
    log = (
        f"ImportError: dlopen({ext}, 0x0002): Library not loaded: {lib}\n"
        f"  Referenced from: <0A1B2C3D-4E5F-3A2B-9C8D-222222222222> {ext}\n"
        f"  Reason: tried: '{lib}' (no such file)\n"
    )
    top = top_error(explained(log))
    fix = fix_text(top)
    assert "brew info openssl@1.1" in fix and "2024-10-24" in fix
    assert "newer wheel of the package" in fix and "Referenced from" in fix


def test_a_library_outside_homebrews_links_keeps_dylds_tools() -> None:
    log = "dyld: Library not loaded: /usr/local/lib/libgomp.1.dylib\n"
    fix = fix_text(top_error(explained(log)))
    assert "brew install" not in fix and "otool -L" in fix


def test_a_tflite_operator_newer_than_the_runtime_asks_for_the_converters_release() -> None:
    for line in (
        "ValueError: Didn't find op for builtin opcode 'RESIZE_NEAREST_NEIGHBOR' version '3'\n",
        "java.lang.IllegalArgumentException: Internal error: Cannot create interpreter: Op "
        "builtin_code out of range: 127. Are you using old TFLite binary with newer model? "
        "Registration failed.\n",
        # An operator numbered past 127, read by a runtime that knows only the placeholder
        # the converter writes in the old field: version 1, and still a newer model.
        "ValueError: Didn't find op for builtin opcode 'PLACEHOLDER_FOR_GREATER_OP_CODES' "
        "version '1'\n",
    ):
        found = _one(_explain(line), "op-not-registered")
        assert found.fix is not None and "runtime of the converter's release" in found.fix.text


@pytest.mark.parametrize(
    ("text", "method"),
    [
        (
            "Didn't find op for builtin opcode 'PAD' version '1'. An older version of this "
            "builtin might be supported. Are you using an old TFLite binary with a newer model?"
            "\nFailed to get registration from op code PAD\n",
            "AddPad()",
        ),
        ("Failed to get registration from op code DEPTHWISE_CONV_2D\n", "AddDepthwiseConv2D()"),
        (
            "ValueError: Didn't find op for builtin opcode 'EXPAND_DIMS' version '1'\n",
            "AddExpandDims()",
        ),
    ],
    ids=["micro-both", "micro-registration", "first-version"],
)
def test_an_operators_first_version_unfound_is_the_resolver_not_the_runtime(
    text: str, method: str
) -> None:
    found = _one(_explain(text), "op-not-registered")
    assert found.fix is not None and method in found.fix.text
    assert "runtime of the converter's release" not in found.fix.text


def test_keras_3s_refusal_retyped_without_backticks_still_names_the_keras_2_library() -> None:
    message = (
        "ValueError: Only instances of keras.Layer can be added to a Sequential model. Received: "
        "<tensorflow_hub.keras_layer.KerasLayer object at 0x77d2995e4680>\n"
    )
    found = _one(_explain(message), "tf-keras-missing")
    assert "tensorflow-hub" in found.summary


def test_two_interpreters_without_jupyter_are_no_notebook_kernel() -> None:
    log = (
        "Ubuntu 22.04, Linux kernel 5.15, a plain script; which python:\n"
        "/home/me/proj/.venv/bin/python\n/usr/bin/python3 -m pip --version\n"
        "ModuleNotFoundError: No module named 'tensorflow'\n"
    )
    _one(_explain(log), "tf-not-installed")
    assert all(x.cause != "kernel-env-mismatch" for x in _explain(log).findings)


def test_a_windows_venv_interpreter_belongs_to_the_folder_above_scripts() -> None:
    log = (
        "In Jupyter: ModuleNotFoundError: No module named 'tensorflow'\n"
        "'C:\\\\proj\\\\venv\\\\Scripts\\\\python.exe'\n'C:\\\\Python311\\\\python.exe'\n"
    )
    fix = _one(_explain(log), "kernel-env-mismatch").fix
    assert fix is not None and "--name venv" in fix.commands[1]
    # One command a line: Windows PowerShell 5 has no &&.
    assert fix.commands[0].endswith("-m pip install ipykernel")
    assert not any("&&" in c for c in fix.commands)


def test_the_bare_decode_message_beside_an_h5py_2_is_not_h5py() -> None:
    log = "AttributeError: 'str' object has no attribute 'decode'\n"
    for h5py, expected in (("2.10.0", False), ("3.1.0", True)):
        facts = _with_h5py(h5py)
        report = explain([split_text(log)], SIGNATURES, f.FIXTURE_MATRIX, facts=facts)
        found = any(x.cause == "dependency-out-of-range" for x in report.findings)
        assert found is expected, h5py


def _with_h5py(version: str) -> Facts:
    """A machine's facts with h5py ``version`` installed (and nothing said of TensorFlow)."""
    return dataclasses.replace(f.facts(), packages=(PackageFacts("h5py", version, ""),))


def test_tensorflow_gpu_after_its_last_release_is_suggested_as_tensorflow() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow-gpu==2.11.0 "
        "(from versions: 2.12.0)\nERROR: No matching distribution found for "
        "tensorflow-gpu==2.11.0\n"
    )
    found = _one(_bundled(log), "tf-release-not-for-python")
    assert found.fix is not None
    assert 'tensorflow==2.12.0"' in found.fix.text
    assert "tensorflow-gpu==2.12.0" not in found.fix.text
    # The placeholder is the matrix's word (the line's tensorflow_gpu_release): a 2.12 with a
    # real tensorflow-gpu release keeps the name.
    real = f.with_line(load_matrix(), "2.12", tensorflow_gpu_release=True)
    kept = _one(explain([split_text(log)], SIGNATURES, real), "tf-release-not-for-python")
    assert kept.fix is not None and 'tensorflow-gpu==2.12.0"' in kept.fix.text


# --- a program asking for a package -------------------------------------------------------------


#: A program's own failing sentence naming the package it lacks, and the distribution named.
REQUESTS = {
    "module-list": (
        "ERROR  app.loader - Cannot load the pipeline: install the package(s) that contain the "
        "module(s): tensorflow_text, tensorflow_hub.",
        "tensorflow-text",
    ),
    "you-must": ("ImportError: You must install pydot to draw the graph.", "pydot"),
    "please-distribution": (
        "RuntimeError: please install tensorflow-addons to use the Lookahead wrapper",
        "tensorflow-addons",
    ),
    "not-installed": (
        "ValueError: tensorflow_probability is not installed",
        "tensorflow-probability",
    ),
    "pip-in-sentence": (
        "ImportError: the decoder needs sentencepiece ops; they are missing. Run pip install "
        "tensorflow-text",
        "tensorflow-text",
    ),
    "requires-library": (
        "ImportError: export requires the tf2onnx package to be installed.",
        "tf2onnx",
    ),
}


@pytest.mark.parametrize("text,dist", REQUESTS.values(), ids=REQUESTS.keys())
def test_a_package_a_program_asks_for_is_not_installed(text: str, dist: str) -> None:
    finding = top_error(explained(text))
    assert finding.id == "explain.package-not-installed", finding.id
    assert dist in fix_text(finding)


#: Sentences that name a package without saying the program stopped for want of it.
NOT_REQUESTS = {
    "pip-notice": "[notice] A new release of pip is available; to update, run: pip install -U pip",
    "warning": "UserWarning: h5py is not installed, saving to HDF5 will not work",
    "optional": "Install scipy for faster resampling (optional).",
    "installed": "Successfully installed tensorflow-text-2.15.0 tensorflow-hub-0.16.1",
    "unknown-name": "ImportError: You must install frobnicator-cli first.",
}


@pytest.mark.parametrize("text", NOT_REQUESTS.values(), ids=NOT_REQUESTS.keys())
def test_a_package_named_without_a_failure_is_no_finding(text: str) -> None:
    report = explained(text)
    assert all(x.cause != "package-not-installed" for x in report.findings), [
        x.id for x in report.findings
    ]


def test_a_requested_package_the_log_lists_installed_is_not_missing() -> None:
    text = (
        "tensorflow-text 2.15.0\n"
        "ImportError: you need to install tensorflow_text for this tokenizer"
    )
    facts = f.facts(packages=f.packages(f.pkg("tensorflow-text", "2.15.0")))
    report = explain([split_text(text)], SIGNATURES, f.FIXTURE_MATRIX, facts)
    assert all(x.cause != "package-not-installed" for x in report.findings)


def test_requests_are_read_once_each_with_their_line() -> None:
    text = "ok\nImportError: please install 'tensorflow_hub'\nagain: please install tensorflow_hub"
    found = read_install_requests(text)
    assert [(r.name, r.index) for r in found] == [("tensorflow_hub", 1)]


# --- a resolver's chosen release without a file here ---------------------------------------------


@pytest.mark.parametrize(
    "text, words",
    [
        (
            "error: Distribution tensorflow==2.14.1 @ registry+https://pypi.org/simple can't be "
            "installed because it doesn't have a source distribution or wheel for the current "
            "platform hint: You're using CPython 3.13 (`cp313`), but `tensorflow` (v2.14.1) only "
            "has wheels with the following Python ABI tags: `cp39`, `cp310`, `cp311`",
            ("3.11", "3.13"),
        ),
        (
            "error: Distribution tensorflow-cpu==2.16.2 @ registry+https://pypi.org/"
            "simple can't be installed because it doesn't have a source distribution or wheel for "
            "the current platform hint: Wheels are available for `tensorflow-cpu` "
            "(v2.16.2) on the following platforms: `manylinux_2_17_x86_64`, `win_amd64`",
            ("manylinux_2_17_x86_64",),
        ),
        ("Unable to find installation candidates for tensorflow (2.15.0)", ("2.15.0",)),
    ],
    ids=["uv-python", "uv-platform", "poetry"],
)
def test_a_release_a_resolver_chose_without_a_file_here_is_that_release(
    text: str, words: tuple[str, ...]
) -> None:
    """uv and Poetry name the one release they chose: that release has no wheel here, and the
    resolver's hint says which Pythons or platforms it has."""
    finding = top_error(explained(text))
    assert finding.cause == "tf-release-not-for-python", finding.id
    assert all(w in fix_text(finding) for w in words), fix_text(finding)


# --- a pip too old for what it installs ----------------------------------------------------------


def test_pypi_refusing_an_old_tls_is_pip_too_old_fixed_with_get_pip() -> None:
    text = (
        "Could not fetch URL https://pypi.python.org/simple/numpy/: There was a problem "
        "confirming the ssl certificate: [SSL: TLSV1_ALERT_PROTOCOL_VERSION] tlsv1 alert "
        "protocol version (_ssl.c:661) - skipping\n"
    )
    finding = top_error(explained(text))
    assert finding.cause == "pip-too-old"
    assert any("get-pip.py" in c for c in finding.fix.commands)  # type: ignore[union-attr]


def test_a_pip_before_requires_python_failing_a_build_is_upgraded_in_two_steps() -> None:
    text = (
        'Command "python setup.py egg_info" failed with error code 1 in /tmp/pip-build-q/h5py/\n'
        "You are using pip version 8.0.2, however version 19.1 is available.\n"
    )
    finding = top_error(explained(text))
    assert finding.cause == "pip-too-old"
    commands = finding.fix.commands  # type: ignore[union-attr]
    assert commands[0] == 'python -m pip install --upgrade "pip<21"'


def test_a_recent_pip_failing_a_build_is_not_pip_too_old() -> None:
    text = (
        'Command "python setup.py egg_info" failed with error code 1 in /tmp/pip-build-q/h5py/\n'
        "You are using pip version 18.1, however version 19.1 is available.\n"
    )
    assert all(x.cause != "pip-too-old" for x in explained(text).findings)


def test_a_pip_before_manylinux2010_finding_no_tensorflow_is_pip_too_old() -> None:
    text = (
        "Collecting tensorflow==2.1.0\n"
        "  Could not find a version that satisfies the requirement tensorflow==2.1.0 (from "
        "versions: 1.13.1, 1.13.2, 1.14.0)\n"
        "No matching distribution found for tensorflow==2.1.0\n"
        "You are using pip version 10.0.1, however version 20.0.2 is available.\n"
    )
    finding = top_error(explained(text))
    assert finding.cause == "pip-too-old"
    assert "10.0.1" in finding.fix.text  # type: ignore[union-attr]


_UP_TO_2_8 = "2.5.0, 2.6.0, 2.7.0, 2.8.0, 2.8.4"


def _listed_refusal(requirement: str, listed: str) -> str:
    return (
        f"ERROR: Could not find a version that satisfies the requirement {requirement} (from "
        f"versions: {listed})\nERROR: No matching distribution found for {requirement}\n"
    )


_PIP_19_2 = "Using pip 19.2.3 from /home/u/v/lib/python3.8/site-packages/pip (python 3.8)\n"
_PIP_20_0 = "Using pip 20.0.2 from /home/u/v/lib/python3.8/site-packages/pip (python 3.8)\n"


@pytest.mark.parametrize(
    ("shown", "requirement", "pips"),
    [
        pytest.param("", "tensorflow==2.12.0", True, id="a-release-past-the-cut-asked"),
        pytest.param(_PIP_19_2, "tensorflow", True, id="a-pip-before-19.3-shown"),
        # Nothing asked past 2.8 and no pip shown: the log may predate 2.9.
        pytest.param("", "tensorflow", False, id="nothing-asked-past-it"),
        pytest.param(_PIP_20_0, "tensorflow==2.12.0", False, id="a-pip-reading-manylinux2014"),
    ],
)
def test_a_list_ending_before_manylinux2014_is_a_pip_before_19_3(
    shown: str, requirement: str, pips: bool
) -> None:
    # The matrix's glibc floor rises from 2.12 (manylinux2010) to 2.17 (manylinux2014) at 2.9.
    report = explained(shown + _listed_refusal(requirement, _UP_TO_2_8))
    old = [x for x in report.findings if x.cause == "pip-too-old"]
    assert bool(old) is pips
    if pips:
        assert old[0] is top_error(report)
        assert "manylinux2014" in fix_text(old[0])
        assert "pip before 19.3" in fix_text(old[0])


def test_autographs_cause_naming_a_requirements_missing_name_is_out_of_range() -> None:
    text = (
        "WARNING:tensorflow:Entity <function step at 0x7f> could not be transformed and will be "
        "executed as-is. Please report this to the AutoGraph team. Cause: converting <function "
        "step at 0x7f>: AttributeError: module 'gast' has no attribute 'Str'\n"
    )
    (finding,) = [x for x in explained(text).findings if x.cause == "dependency-out-of-range"]
    assert "gast" in finding.summary


def test_keras3_refusing_a_layer_quoted_alone_is_a_keras2_layer_warning() -> None:
    report = explained("Only instances of `keras.Layer` can be added to a Sequential model.\n")
    (found,) = [x for x in report.findings if x.cause == "tf-keras-missing"]
    assert found.severity is Severity.WARNING


def test_autographs_cause_is_at_most_a_warning() -> None:
    text = (
        "WARNING:tensorflow:AutoGraph could not transform <function f at 0x1> and will run it "
        "as-is. Cause: converting <function f at 0x1>: AttributeError: module 'gast' has no "
        "attribute 'Index'\nEpoch 1/3\n"
    )
    report = explained(text)
    assert all(x.severity is not Severity.ERROR for x in report.findings)
    assert any(x.cause == "dependency-out-of-range" for x in report.findings)


def test_a_request_wrapped_onto_the_line_after_the_error_is_read() -> None:
    text = (
        "2021-01-01 10:00:00 ERROR    app.loader  - Could not load the model: some packages are "
        "missing. To\n"
        "run it, please install the package(s) that contain the module(s): tensorflow_hub.\n"
    )
    assert [r.name for r in read_install_requests(text)] == ["tensorflow_hub"]


@pytest.mark.parametrize(
    ("line", "cause", "command"),
    [
        pytest.param(
            "pkg_resources.ContextualVersionConflict: (numpy 1.23.3 (/home/u/env/lib/python3.9/"
            "site-packages), Requirement.parse('numpy~=1.19.2'), {'tensorflow'})",
            "dependency-out-of-range",
            'pip install "numpy~=1.19.2"',
            id="contextual-version-conflict",
        ),
        pytest.param(
            "pkg_resources.DistributionNotFound: The 'h5py<2.11.0,>=2.10.0' distribution was not "
            "found and is required by tensorflow",
            "dependency-missing",
            'pip install "h5py<2.11.0,>=2.10.0"',
            id="distribution-not-found",
        ),
    ],
)
def test_pkg_resources_refusals_are_read_as_the_requirement_they_break(
    line: str, cause: str, command: str
) -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/env/bin/checkm2", line 33, in <module>\n'
        "    sys.exit(load_entry_point('checkm2', 'console_scripts', 'checkm2')())\n" + line + "\n"
    )
    top = top_error(explained(log))
    assert top.cause == cause
    assert command in fix_text(top)
    assert "TensorFlow 's" not in top.summary and "pkg_resources:" in top.detail


def test_pkg_resources_refusing_a_pair_without_tensorflow_is_the_failure_not_a_note() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/env/bin/plotter", line 33, in <module>\n'
        "    sys.exit(load_entry_point('plotter', 'console_scripts', 'plotter')())\n"
        "pkg_resources.ContextualVersionConflict: (numpy 1.19.5 (/home/u/env/lib/python3.8/"
        "site-packages), Requirement.parse('numpy>=1.20'), {'matplotlib'})\n"
    )
    top = top_error(explained(log))
    assert top.cause == "dependency-out-of-range" and top.severity == Severity.ERROR
    assert 'pip install "numpy>=1.20"' in fix_text(top)
    assert "matplotlib  " not in fix_text(top)


# --- a package's own check of a dependency's version as it imports ---------------------------

# Each in the words of the package that prints it (evidence.packages.RANGE_CHECKS cites them).
_RANGE_CHECKS = [
    pytest.param(
        "ImportError: Matplotlib requires numpy>=1.20; you have 1.19.5\n",
        ("matplotlib", "numpy", ">=1.20", "1.19.5", "import"),
        id="matplotlib",
    ),
    pytest.param(
        "ImportError: this version of pandas is incompatible with numpy < 1.20.3\n"
        "your numpy version is 1.19.5.\n"
        "Please upgrade numpy to >= 1.20.3 to use this version of pandas\n",
        ("pandas", "numpy", ">=1.20.3", "1.19.5", "import"),
        id="pandas-numpy",
    ),
    pytest.param(
        "ImportError: Pandas requires version '2.7.3' or newer of 'numexpr' (version '2.7.1' "
        "currently installed).\n",
        ("pandas", "numexpr", ">=2.7.3", "2.7.1", "import"),
        id="pandas-optional-raised",
    ),
    pytest.param(
        "/srv/env/lib/python3.10/site-packages/pandas/compat/_optional.py:161: UserWarning: "
        "Pandas requires version '2.7.3' or newer of 'numexpr' (version '2.7.1' currently "
        "installed).\n",
        ("pandas", "numexpr", ">=2.7.3", "2.7.1", "import warning"),
        id="pandas-optional-warned",
    ),
    pytest.param(
        "ImportError: tokenizers>=0.11.1,!=0.11.3,<0.14 is required for a normal functioning "
        "of this module, but found tokenizers==0.14.1.\nTry: `pip install transformers -U` or "
        "`pip install -e '.[dev]'` if you're working with git main\n",
        ("transformers", "tokenizers", ">=0.11.1,!=0.11.3,<0.14", "0.14.1", "import"),
        id="require-version-with-hint",
    ),
    pytest.param(
        "ImportError: peft>=0.17.0 is required for a normal functioning of this module, but "
        "found peft==0.15.2.\n",
        ("", "peft", ">=0.17.0", "0.15.2", "import"),
        id="require-version-unnamed",
    ),
    pytest.param(
        "/usr/lib/python3/dist-packages/scipy/__init__.py:146: UserWarning: A NumPy version "
        ">=1.17.3 and <1.25.0 is required for this version of SciPy (detected version 1.26.4\n"
        '  warnings.warn(f"A NumPy version >={np_minversion} and <{np_maxversion}"\n',
        ("scipy", "numpy", ">=1.17.3,<1.25.0", "1.26.4", "import warning"),
        id="scipy",
    ),
    pytest.param(
        "RuntimeError: jaxlib is version 0.4.7, but this version of jax requires version >= "
        "0.4.14.\n",
        ("jax", "jaxlib", ">=0.4.14", "0.4.7", "import"),
        id="jaxlib-too-old",
    ),
    pytest.param(
        "RuntimeError: jaxlib version 0.4.20+cuda12.cudnn89 is newer than and incompatible with "
        "jax version 0.4.14. Please update your jax and/or jaxlib packages.\n",
        ("jax", "jaxlib", "<=0.4.14", "0.4.20+cuda12.cudnn89", "import"),
        id="jaxlib-newer-than-jax",
    ),
]


@pytest.mark.parametrize(("text", "expected"), _RANGE_CHECKS)
def test_a_package_s_own_range_check_is_read_as_the_conflict_it_found(
    text: str, expected: tuple[str, str, str, str, str]
) -> None:
    (c,) = read_conflicts([text])
    assert (c.requirer, c.target, c.spec, c.have, c.source) == expected
    assert c.kind == "installed"


@pytest.mark.parametrize(("text", "expected"), _RANGE_CHECKS)
def test_a_range_check_is_dependency_out_of_range_with_the_range_it_states(
    text: str, expected: tuple[str, str, str, str, str]
) -> None:
    _, target, spec, _, source = expected
    (found,) = [x for x in explained(text).findings if x.cause == "dependency-out-of-range"]
    # Raised, it ended the program; warned (and nothing failed after it), it is a note.
    assert found.severity == (Severity.ERROR if source == "import" else Severity.INFO)
    if target == "jaxlib":
        return  # jax's own pair: one release of both (the next tests)
    assert f'pip install "{target}{spec}"' in fix_text(found)


@pytest.mark.parametrize(
    ("text", "command"),
    [
        pytest.param(
            "RuntimeError: jaxlib is version 0.4.1, but this version of jax requires version "
            ">= 0.4.6.\n",
            'pip install -U "jax[cpu]"',
            id="older-cpu",
        ),
        pytest.param(
            "RuntimeError: jaxlib version 0.4.25 is newer than and incompatible with jax "
            "version 0.4.23. Please update your jax and/or jaxlib packages.\n",
            'pip install -U "jax[cpu]"',
            id="newer-cpu",
        ),
        pytest.param(
            "RuntimeError: jaxlib is version 0.4.16+cuda12.cudnn89, but this version of jax "
            "requires version >= 0.4.19.\n",
            'pip install -U "jax[cuda12]"',
            id="older-cuda12",
        ),
        pytest.param(
            "RuntimeError: jaxlib version 0.4.30 is newer than and incompatible with jax "
            "version 0.4.28. Please update your jax and/or jaxlib packages.\n",
            'pip install -U "jax[cuda12]"',
            id="newer-cuda12-plugin",
        ),
    ],
)
def test_jax_refusing_its_jaxlib_installs_one_release_of_both(text: str, command: str) -> None:
    """jax checks jaxlib both ways (too old, newer than jax), its message does not show jax's
    version, and PyPI's jaxlib is the CPU build: the fix moves both, keeping a CUDA build."""
    # The CUDA build shows in jaxlib's version, or as the plugin JAX installs beside it.
    plugin = f.facts(packages=f.packages(f.pkg("jax-cuda12-plugin", "0.4.30")))
    facts = plugin if "0.4.30" in text else None
    found = next(x for x in explained(text, facts).findings if x.cause == "dependency-out-of-range")
    assert found.fix is not None
    commands = " ".join(found.fix.commands)
    assert command in commands
    # Never jaxlib alone.
    assert "jaxlib" not in commands


_JAX_REFUSED = (
    "RuntimeError: jaxlib is version 0.4.1, but this version of jax requires version >= 0.4.6.\n"
)


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param(
            "$ conda list jax\n"
            "# packages in environment at /opt/conda/envs/ml:\n"
            "#\n"
            "# Name                    Version                   Build  Channel\n"
            "jax                       0.4.6              pyhd8ed1ab_0    conda-forge\n"
            "jaxlib                    0.4.1           cpu_py310h1ba47d1_0    conda-forge\n",
            id="conda-list",
        ),
        pytest.param(
            '  File "/opt/conda/pkgs/jaxlib-0.4.1-cpu_py310h1ba47d1_0/lib/python3.10/'
            'site-packages/jaxlib/version.py", line 17, in <module>\n',
            id="package-cache",
        ),
    ],
)
def test_jax_refusing_conda_s_jaxlib_updates_both_from_conda_forge(shown: str) -> None:
    found = next(
        x for x in explained(shown + _JAX_REFUSED).findings if x.cause == "dependency-out-of-range"
    )
    assert found.fix is not None
    assert found.fix.commands == ("conda install -c conda-forge jax jaxlib",)


def test_jax_refusing_pip_s_jaxlib_in_a_conda_environment_keeps_pip() -> None:
    listed = (
        "# packages in environment at /opt/conda/envs/ml:\n"
        "jax                       0.4.6                    pypi_0    pypi\n"
        "jaxlib                    0.4.1                    pypi_0    pypi\n"
    )
    found = next(
        x for x in explained(listed + _JAX_REFUSED).findings if x.cause == "dependency-out-of-range"
    )
    assert found.fix is not None and 'pip install -U "jax[cpu]"' in " ".join(found.fix.commands)


def test_jax_refusing_a_cuda_build_no_extra_installs_gets_no_cpu_command() -> None:
    text = (
        "RuntimeError: jaxlib is version 0.4.1+cuda11.cudnn86, but this version of jax "
        "requires version >= 0.4.6.\n"
    )
    (found,) = [x for x in explained(text).findings if x.cause == "dependency-out-of-range"]
    assert found.fix is not None and found.fix.commands == ()
    assert "CUDA 11" in found.fix.text


@pytest.mark.parametrize(
    ("tag", "major"), [("+cuda102", "10"), ("+cuda110", "11"), ("+cuda92", "9")]
)
def test_jax_refusing_an_old_cuda_build_reads_the_major_of_its_tag(tag: str, major: str) -> None:
    # jaxlib 0.1.x's tag named CUDA with its minor digit: +cuda102 is CUDA 10.2, not "CUDA 102".
    text = (
        f"RuntimeError: jaxlib is version 0.1.71{tag}, but this version of jax requires "
        "version >= 0.1.74.\n"
    )
    (found,) = [x for x in explained(text).findings if x.cause == "dependency-out-of-range"]
    assert found.fix is not None and found.fix.commands == ()
    assert f"a CUDA {major} build" in found.fix.text


@pytest.mark.parametrize(
    ("version", "plugin"), [("0.4.31+rocm624", None), ("0.4.31", "jax-rocm60-plugin")]
)
def test_jax_refusing_a_rocm_build_gets_no_cpu_command(version: str, plugin: object) -> None:
    # The cpu extra would put a CPU jaxlib of another release beside the ROCm build.
    text = (
        f"RuntimeError: jaxlib is version {version}, but this version of jax requires "
        "version >= 0.4.35.\n"
    )
    facts = f.facts(packages=f.packages(f.pkg(str(plugin), version))) if plugin else None
    (found,) = [x for x in explained(text, facts).findings if x.cause == "dependency-out-of-range"]
    assert found.fix is not None and found.fix.commands == ()
    assert "ROCm" in found.fix.text


def test_a_range_check_tensorflow_s_own_range_misses_moves_the_checking_package() -> None:
    text = (
        "TensorFlow version: 2.4.1\n"
        "ImportError: this version of pandas is incompatible with numpy < 1.20.3\n"
        "your numpy version is 1.19.5.\n"
    )
    (found,) = [x for x in explained(text).findings if x.cause == "dependency-out-of-range"]
    assert found.severity == Severity.ERROR
    assert found.fix is not None and found.fix.commands == ()
    # Installing pandas' range would take numpy out of TensorFlow 2.4's (numpy~=1.19.2).
    assert "numpy~=1.19.2" in found.fix.text and "release of pandas" in found.fix.text


@pytest.mark.parametrize(
    "text",
    [
        # Inside the range: no check failed.
        "Matplotlib requires numpy>=1.20; you have 1.21.0\n",
        # A check of TensorFlow itself is a companion's reading, not a dependency's range.
        "ImportError: tensorflow>=2.12 is required for a normal functioning of this module, but "
        "found tensorflow==2.11.0.\n",
        # Another sentence on the same words.
        "Matplotlib requires a display to show figures; you have none\n",
    ],
    ids=["inside-the-range", "tensorflow-itself", "other-words"],
)
def test_no_range_check_finding_where_none_failed_or_tensorflow_is_checked(text: str) -> None:
    assert not any(
        x.cause == "dependency-out-of-range" and x.severity.rank >= Severity.WARNING.rank
        for x in explained(text).findings
    )
    if "1.21.0" not in text:  # read, inside the range; the others are not read at all
        assert not [c for c in read_conflicts([text]) if c.source.startswith("import")]


@pytest.mark.parametrize(
    ("text", "dist"),
    [
        ("ImportError: Matplotlib requires dateutil>=2.7; you have 2.6.1\n", "python-dateutil"),
        (
            "ImportError: Pandas requires version '4.9.3' or newer of 'bs4' (version '4.6.0' "
            "currently installed).\n",
            "beautifulsoup4",
        ),
    ],
    ids=["matplotlib-dateutil", "pandas-bs4"],
)
def test_a_range_check_naming_an_import_package_installs_its_distribution(
    text: str, dist: str
) -> None:
    # Matplotlib's and pandas' checks name the module they imported, not what pip installs.
    (c,) = read_conflicts([text])
    assert c.target == dist
    (found,) = [x for x in explained(text).findings if x.cause == "dependency-out-of-range"]
    assert f'pip install "{dist}>=' in fix_text(found)


# --- pip's "Cannot install" line without the block that names the requirements -------------


def test_pips_head_line_alone_is_read_as_the_pins_asked_beside_tensorflow() -> None:
    head = (
        "ERROR: Cannot install tensorflow==2.12.0, pandas==2.2.2 and numpy==1.26.0 because these "
        "package versions have conflicting dependencies.\n"
    )
    found = [
        (c.requirer, c.requirer_version, c.target, c.kind, c.have) for c in read_conflicts([head])
    ]
    assert found == [
        ("tensorflow", "2.12.0", "pandas", "asked", "==2.2.2"),
        ("tensorflow", "2.12.0", "numpy", "asked", "==1.26.0"),
    ]
    # With the block that names the requirements, the block is read instead.
    block = head + "\nThe conflict is caused by:\n    The user requested numpy==1.26.0\n"
    assert not [c for c in read_conflicts([block]) if c.kind == "asked"]


def test_a_pin_asked_beside_tensorflow_outside_its_matrix_range_is_that_range() -> None:
    text = (
        "ERROR: Cannot install tensorflow==2.12.0 and numpy==1.26.0 because these package "
        "versions have conflicting dependencies.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range"
    assert "compatibility matrix" in top.detail
    # A later TensorFlow whose range admits the pin, with the pin.
    assert top.fix is not None
    assert any('"numpy==1.26.0"' in c and "tensorflow==" in c for c in top.fix.commands)


@pytest.mark.parametrize(
    "head",
    [
        # Inside TensorFlow 2.15's range: the clash is elsewhere, which the log does not show.
        "ERROR: Cannot install tensorflow==2.15.0 and numpy==1.26.0 because these package "
        "versions have conflicting dependencies.",
        # A name the matrix records no range of.
        "ERROR: Cannot install tensorflow==2.12.0 and pandas==2.2.2 because these package "
        "versions have conflicting dependencies.",
        # No TensorFlow release asked for.
        "ERROR: Cannot install -r requirements.txt (line 3) and numpy==1.26.0 because these "
        "package versions have conflicting dependencies.",
    ],
    ids=["inside-the-range", "name-not-in-matrix", "no-tensorflow-pin"],
)
def test_no_reading_of_the_head_line_where_the_matrix_shows_no_clash(head: str) -> None:
    assert not readings(explained(head + "\n"))


# --- two packages' ranges a resolver could not meet, neither of them TensorFlow --------------

_CAUSED_BY = (
    "ERROR: Cannot install -r requirements.txt (line 2) and -r requirements.txt (line 5) because "
    "these package versions have conflicting dependencies.\n\n"
    "The conflict is caused by:\n"
)


def test_two_other_packages_ranges_pip_could_not_meet_are_read_as_each_pair() -> None:
    block = (
        _CAUSED_BY + "    rasa 3.6.0 depends on numpy<1.25.0 and >=1.19.2\n"
        "    nnabla 1.35.0 depends on numpy~=1.26.0\n"
        "    rasa 3.6.0 depends on tensorflow==2.12.0\n"
        "    keras-cv 0.6.0 depends on tensorflow>=2.13\n\n"
    )
    found = [(c.requirer, c.target, c.spec, c.have, c.other) for c in read_conflicts([block])]
    # Packages' ranges on TensorFlow itself are the companions' reading, not a pair here.
    assert found == [("rasa", "numpy", "<1.25.0,>=1.19.2", "~=1.26.0", "nnabla 1.35.0")]
    # The candidates of one package are no pair.
    same = (
        _CAUSED_BY
        + "    nnabla 1.35.0 depends on numpy~=1.26.0\n    nnabla 1.34.0 depends on numpy~=1.25.0\n"
    )
    assert [c for c in read_conflicts([same]) if c.kind == "between"] == []


def test_two_other_packages_ranges_that_do_not_meet_name_the_pair_to_move() -> None:
    text = (
        _CAUSED_BY + "    rasa 3.6.0 depends on numpy<1.25.0 and >=1.19.2\n"
        "    nnabla 1.35.0 depends on numpy~=1.26.0\n\n"
        "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/"
        "dependency-resolution/#dealing-with-dependency-conflicts\n"
    )
    (found,) = readings(explained(text))
    assert found.cause == "dependency-out-of-range" and found.severity == Severity.WARNING
    assert found.fix is not None
    assert "rasa" in found.fix.text and "nnabla" in found.fix.text
    assert "numpy<1.25.0,>=1.19.2" in found.fix.text and "numpy~=1.26.0" in found.fix.text


def test_a_library_on_tensorflow_pinning_the_name_exactly_is_its_pin() -> None:
    text = (
        _CAUSED_BY + "    tensorflow-ranking 0.5.0 depends on numpy==1.23.5\n"
        "    pandas 2.2.2 depends on numpy>=1.26.0\n\n"
    )
    (found,) = readings(explained(text))
    assert found.cause == "library-pin-conflicts"
    assert found.fix is not None and found.fix.text.startswith(
        "tensorflow-ranking pins numpy==1.23.5"
    )


@pytest.mark.parametrize(
    "rows",
    [
        # The two meet (numpy 1.24.x): pip lists every range on the name, these are not it.
        "    rasa 3.6.0 depends on numpy<1.25.0 and >=1.19.2\n"
        "    pandas 2.0.0 depends on numpy>=1.21.0\n",
        # TensorFlow's range is one side of the clash: that reading answers it, once.
        "    tensorflow-ranking 0.5.0 depends on numpy==1.23.5\n"
        "    tensorflow 2.12.1 depends on numpy<=1.24.3 and >=1.22\n"
        "    pandas 2.2.2 depends on numpy>=1.26.0\n",
    ],
    ids=["ranges-meet", "tensorflow-side-clashes"],
)
def test_no_pair_finding_where_they_meet_or_tensorflow_s_range_answers(rows: str) -> None:
    found = explained(_CAUSED_BY + rows + "\n").findings
    assert not [x for x in found if "ranges no release meets" in x.summary]


def test_a_traceback_after_the_resolver_s_pair_is_the_failure_not_the_pair() -> None:
    text = (
        _CAUSED_BY + "    rasa 3.6.0 depends on numpy<1.25.0 and >=1.19.2\n"
        "    nnabla 1.35.0 depends on numpy~=1.26.0\n\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/train.py", line 3, in <module>\n'
        "    import rasa\n"
        "ModuleNotFoundError: No module named 'rasa'\n"
    )
    assert not [x for x in explained(text).findings if "no release meets" in x.summary]


_TF_KERAS_NOTICE = (
    "ERROR: pip's dependency resolver does not currently take into account all the packages "
    "that are installed. This behaviour is the source of the following dependency conflicts.\n"
    "tf-keras 2.15.1 requires tensorflow<2.16,>=2.15, but you have tensorflow 2.16.1 which is "
    "incompatible.\n"
)


def test_pips_notice_of_a_tf_keras_nothing_uses_is_a_note() -> None:
    (finding,) = [x for x in explained(_TF_KERAS_NOTICE).findings if x.cause]
    assert (finding.cause, finding.severity) == ("tf-keras-mismatch", Severity.INFO)


def test_a_tf_keras_of_another_tensorflow_that_the_log_goes_through_is_an_error() -> None:
    log = _TF_KERAS_NOTICE + (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 2, in <module>\n'
        "    import tf_keras\n"
        '  File "/home/u/env/lib/python3.11/site-packages/tf_keras/__init__.py", line 3, in '
        "<module>\n"
        "    from tf_keras import __internal__\n"
        "AttributeError: module 'tensorflow.compat.v2' has no attribute '__internal__'\n"
    )
    report = explained(log)
    assert any(
        x.cause == "tf-keras-mismatch" and x.severity is Severity.ERROR for x in report.findings
    )


def test_a_pin_outside_tensorflows_range_moves_tensorflow_to_a_line_that_admits_it() -> None:
    log = (
        "ERROR: Cannot install -r requirements.txt (line 3) and protobuf==3.20.3 because these "
        "package versions have conflicting dependencies.\n\n"
        "The conflict is caused by:\n"
        "    The user requested protobuf==3.20.3\n"
        "    onnx 1.13.1 depends on protobuf<4 and >=3.20.2\n"
        "    tensorflow 2.9.0 depends on protobuf<3.20 and >=3.9.2\n"
    )
    top = top_error(explained(log))
    assert top.cause == "protobuf-incompatible"
    fix = fix_text(top)
    # The fixture matrix: 2.10 and 2.11 declare protobuf<3.20, 2.12 admits 3.20.3.
    line = f.FIXTURE_MATRIX.line_for("2.12")
    assert line is not None
    assert f'"tensorflow=={line.latest_patch}" "protobuf==3.20.3"' in fix


_BACKTRACK = (
    "Collecting tf-models-official\n"
    "Will try a different candidate, due to conflict:\n"
    "    tf-models-official 2.13.1 depends on tensorflow-text~=2.13.0\n"
)


def test_pip_backtracking_over_a_dependency_without_a_wheel_for_the_system_is_named() -> None:
    top = explained("PS C:\\dev> pip install tf-models-official\n" + _BACKTRACK).findings[0]
    assert top.cause == "tf-release-not-for-python"
    assert top.severity is Severity.WARNING
    assert top.fix is not None and "2.10" in top.fix.text  # tensorflow-text's last on Windows


@pytest.mark.parametrize(
    "head",
    [
        # Linux has tensorflow-text 2.13 wheels: the conflict is about versions.
        pytest.param("me@box:~$ pip install tf-models-official\n", id="linux"),
        pytest.param("", id="system-unknown"),
    ],
)
def test_pip_backtracking_is_not_put_down_to_wheels_where_they_exist(head: str) -> None:
    found = explained(head + _BACKTRACK).findings
    assert not any(x.cause == "tf-release-not-for-python" for x in found)


# --- a dependency outside the range a package of TensorFlow's family declares ----------------


@pytest.mark.parametrize(
    ("line", "weight"),
    [
        # pip 20.2 and before, of the install it is about to make: a warning.
        (
            "ERROR: tensorflow-metadata 0.30.0 has requirement absl-py<0.12,>=0.9, but you'll "
            "have absl-py 0.12.0 which is incompatible.",
            Severity.WARNING,
        ),
        # pip 20.3 and later, after the install, of a package already there, nothing failing
        # after it: a note.
        (
            "tensorflow-datasets 4.0.1 requires absl-py<0.12, but you have absl-py 0.13.0 which "
            "is incompatible.",
            Severity.INFO,
        ),
        # The nightly build tf-nightly requires in TensorBoard's place states TensorBoard's range.
        (
            "ERROR: tb-nightly 2.10.0a20220601 has requirement absl-py<0.12, but you'll have "
            "absl-py 0.13.0 which is incompatible.",
            Severity.WARNING,
        ),
        (
            "keras-nightly 2.9.0.dev2022041107 requires absl-py<0.12, but you have absl-py 0.13.0 "
            "which is incompatible.",
            Severity.INFO,
        ),
    ],
    ids=["metadata", "datasets", "tb-nightly", "keras-nightly"],
)
def test_a_family_package_s_range_broken_is_that_dependency_out_of_range(
    line: str, weight: Severity
) -> None:
    found = [x for x in explained(line).findings if x.cause == "dependency-out-of-range"]
    assert [x.severity for x in found] == [weight]
    fix = found[0].fix
    assert fix is not None
    assert any(c.startswith("pip install ") and "absl-py<0.12" in c for c in fix.commands)


@pytest.mark.parametrize(
    "line",
    [
        # A library written against TensorFlow pins what it likes: its own business.
        "ERROR: magenta 1.1.0 has requirement numpy<=1.16.0, but you'll have numpy 1.17.0 which "
        "is incompatible.",
        # Another author's library named tf-...: not TensorFlow's family, however named.
        "tf-keras-vis 0.8.6 requires imageio<3, but you have imageio 3.0.0 which is incompatible.",
        # Inside the range: pip names every requirement on the name, this one holds.
        "tensorflow-metadata 0.30.0 requires absl-py<0.12,>=0.9, but you have absl-py 0.11.0 "
        "which is incompatible.",
        # Its protobuf above the cap that still loads it is protobuf's own reading (info).
        "tensorboard 2.8.0 requires protobuf<3.20, but you have protobuf 3.20.1 which is "
        "incompatible.",
        # So is TensorBoard's nightly build's.
        "ERROR: tb-nightly 2.10.0a20220601 has requirement protobuf<3.20,>=3.9.2, but you'll "
        "have protobuf 3.20.0 which is incompatible.",
        # A nightly of a package outside the family is no family package.
        "tfp-nightly 0.17.0.dev20220601 requires absl-py<0.12, but you have absl-py 0.13.0 "
        "which is incompatible.",
    ],
)
def test_no_family_range_finding_where_the_range_is_not_the_family_s_or_holds(line: str) -> None:
    found = [
        x
        for x in explained(line).findings
        if x.cause == "dependency-out-of-range" and x.severity.rank >= Severity.WARNING.rank
    ]
    assert found == []


# --- a name a release of its own distribution removed ----------------------------------------


def test_a_name_pillow_removed_is_that_release_told_to_the_library_using_it() -> None:
    report = explained(
        '  File "/srv/env/lib/python3.10/site-packages/imgkit/resize.py", line 8, in shrink\n'
        "    return img.resize(size, Image.CUBIC)\n"
        "AttributeError: module 'PIL.Image' has no attribute 'CUBIC'\n"
    )
    found = top_error(report)
    assert found.cause == "dependency-api-removed"
    assert found.fix is not None and 'pip install "pillow<10.0.0"' in found.fix.commands
    assert "imgkit" in fix_text(found) and "BICUBIC" in fix_text(found)


@pytest.mark.parametrize(
    "line",
    [
        # A name Pillow 10 kept, and a module the table does not list.
        "AttributeError: module 'PIL.Image' has no attribute 'Resampling'",
        "AttributeError: module 'mylib.Image' has no attribute 'ANTIALIAS'",
    ],
)
def test_no_removed_api_reading_for_names_the_table_does_not_list(line: str) -> None:
    report = explained(line + "\n")
    assert not any(f.cause == "dependency-api-removed" for f in report.findings)


def test_the_release_that_removed_pkg_resources_is_read_from_the_module_table() -> None:
    from tfdoctor.modules import modules

    removed = modules().removed_from_dist["pkg_resources"]
    found = top_error(explained("ModuleNotFoundError: No module named 'pkg_resources'\n"))
    assert found.cause == "dependency-api-removed"
    assert found.fix is not None
    assert any(f"setuptools<{removed.removed_in}" in c for c in found.fix.commands)


def test_distutils_version_a_library_reads_is_the_setuptools_release_told_to_it() -> None:
    # A library reading distutils.version after a bare `import distutils`: the submodule was
    # bound by setuptools importing it, which its later releases do not do.
    from tfdoctor.modules import modules

    row = modules().removed_from_dist["distutils"]
    found = top_error(
        explained(
            '  File "/srv/env/lib/python3.8/site-packages/plotkit/__init__.py", line 3, in '
            "<module>\n"
            "    Loose = distutils.version.LooseVersion\n"
            "AttributeError: module 'distutils' has no attribute 'version'\n"
        )
    )
    assert found.cause == "dependency-api-removed"
    assert found.fix is not None
    assert f'pip install "setuptools<{row.removed_in}"' in found.fix.commands
    assert "plotkit" in fix_text(found) and "setuptools" in fix_text(found)
    # setuptools 59.6.0 no longer imports the submodule; distutils still has it.
    assert found.summary == (
        "distutils.version is not imported: setuptools 59.6.0 and later do not import it"
    )
    assert "removed" not in fix_text(found)


@pytest.mark.parametrize("module", ["distutils", "setuptools._distutils"])
def test_distutils_version_missing_without_a_frame_tells_the_code_and_the_release(
    module: str,
) -> None:
    found = top_error(explained(f"AttributeError: module '{module}' has no attribute 'version'\n"))
    assert found.cause == "dependency-api-removed"
    assert f"The code uses {module}.version" in fix_text(found)
    # No Python shows: the pin carries the marker that makes pip skip it on Python 3.12 and
    # later, where setuptools before 59.6.0 does not import.
    marked = "pip install \"setuptools<59.6.0;python_version<'3.12'\""
    assert (found.fix.commands if found.fix else ()) == (marked,)
    assert "import distutils.version" in fix_text(found)


def test_no_setuptools_pin_is_offered_on_a_python_no_release_before_the_removal_runs_on() -> None:
    # setuptools before 59.6.0 defaults to the standard library's distutils, which Python 3.12
    # removed: the pin would break setuptools itself there.
    found = top_error(
        explained(
            '  File "/srv/env/lib/python3.12/site-packages/plotkit/__init__.py", line 3, in '
            "<module>\n"
            "    Loose = distutils.version.LooseVersion\n"
            "AttributeError: module 'distutils' has no attribute 'version'\n"
        )
    )
    assert found.cause == "dependency-api-removed"
    assert found.fix is not None
    assert not any("setuptools<" in c for c in found.fix.commands)
    assert "plotkit" in fix_text(found) and "Python 3.12" in fix_text(found)


def test_distutils_version_missing_under_an_older_setuptools_is_not_that_release() -> None:
    # setuptools 58 imports distutils.version itself: the words there are another cause's.
    report = explained(
        "Name: setuptools\nVersion: 58.0.4\nSummary: Easily download\n"
        "AttributeError: module 'distutils' has no attribute 'version'\n"
    )
    assert not any(
        f.cause == "dependency-api-removed" and f.severity.rank >= Severity.WARNING.rank
        for f in report.findings
    )
    # At or past the release, the reading stands.
    later = explained(
        "Name: setuptools\nVersion: 65.5.0\nSummary: Easily download\n"
        "AttributeError: module 'distutils' has no attribute 'version'\n"
    )
    assert top_error(later).cause == "dependency-api-removed"


# --- a companion's release beside the TensorFlow a listing shows --------------------------------


@pytest.mark.parametrize(
    "listing",
    [
        "Package                Version\n---------------------- -------\n"
        "tensorflow             2.15.0\ntensorflow-addons      0.19.0\n",
        "- tensorflow: 2.15.0\n- tensorflow_addons: 0.19.0\n",
        "$ pip freeze\ntensorflow==2.15.0\ntensorflow-addons==0.19.0\n",
    ],
)
def test_a_listed_companion_built_for_another_tensorflow_is_a_warning(listing: str) -> None:
    # The companion table pairs TensorFlow Addons 0.19 with tensorflow<2.12: the question
    # check asks of an installed machine, asked of what the log shows.
    finding = _one(_bundled(listing), "companion-mismatch")
    assert finding.severity is Severity.WARNING
    assert "tensorflow-addons 0.19.0" in finding.summary
    assert "tensorflow-addons==0.23.*" in _fix(finding)


@pytest.mark.parametrize(
    "listing",
    [
        # A release the table pairs with the TensorFlow shown.
        "tensorflow             2.15.0\ntensorflow-addons      0.23.0\n",
        # No TensorFlow version in the log: nothing to judge the pair by.
        "tensorflow-addons      0.19.0\n",
        # A requirement written alone is not what is installed.
        "tensorflow==2.15.0\ntensorflow-addons==0.19.0\n",
    ],
)
def test_a_listed_companion_is_not_called_off_without_a_pair_shown(listing: str) -> None:
    report = _bundled(listing)
    assert not [x for x in report.findings if x.cause == "companion-mismatch"], [
        (x.id, x.severity.value) for x in report.findings
    ]


def test_a_private_helper_numpy_removed_names_the_distribution_that_imported_it() -> None:
    # NumPy 1.16 removed numpy.lib.arraypad's private helpers (numpy#11966); the frame that
    # imported one is scikit-image's, installed as the `skimage` package.
    report = _bundled(
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.6/site-packages/skimage/util/arraycrop.py", line 8, in '
        "<module>\n"
        "    from numpy.lib.arraypad import _validate_lengths\n"
        "ImportError: cannot import name '_validate_lengths' from 'numpy.lib.arraypad'\n"
    )
    found = _one(report, "dependency-api-removed")
    assert "upgrade scikit-image" in _fix(found) and "numpy<1.16.0" in _fix(found)
    assert "https://github.com/numpy/numpy/pull/11966" in found.links
    # A name the module still has is not this cause.
    other = _bundled("ImportError: cannot import name 'pad' from 'numpy.lib.arraypad'\n").findings
    assert not [x for x in other if x.cause == "dependency-api-removed"]


def test_pip_shows_block_reveals_the_tensorflow_release() -> None:
    # `pip show tensorflow` prints Name then Version: TensorFlow 2.20's NumPy floor (1.26)
    # is above 1.24, so no NumPy it runs with has np.object, and none is pinned.
    text = (
        "AttributeError: module 'numpy' has no attribute 'object'.\n"
        "Name: tensorflow\n"
        "Version: 2.20.0\n"
    )
    finding = _one(_explain(text), "numpy-name-removed")
    assert "numpy<1.24" not in _fix(finding)
    assert "no NumPy in that range has np.object" in _fix(finding)


def test_a_library_below_tensorflows_numpy_floor_is_upgraded_not_numpy_held_back() -> None:
    text = "Name: tensorflow\nVersion: 2.20.0\n" + _numpy_traceback(
        "/env/lib/python3.11/site-packages/tf2onnx/onnx_opset/math.py", "object"
    )
    finding = _one(_explain(text), "numpy-name-removed")
    fix = _fix(finding)
    assert "install --upgrade tf2onnx" in fix and "numpy<1.24" not in fix


def test_a_library_under_a_tensorflow_that_admits_an_older_numpy_may_hold_it_back() -> None:
    text = "Name: tensorflow\nVersion: 2.11.0\n" + _numpy_traceback(
        "/env/lib/python3.10/site-packages/tf2onnx/onnx_opset/math.py", "object"
    )
    assert "numpy<1.24" in _fix(_one(_explain(text), "numpy-name-removed"))


def test_a_tf1_keywords_older_name_is_the_scan_rules() -> None:
    # The older keyword (keep_dims) is the scan rule's kwarg, not a second copy of it.
    rules = load_rules()
    renamed = dataclasses.replace(
        rules,
        rules=tuple(
            dataclasses.replace(r, kwarg="keep_dimz") if r.id == "tf1-keep-dims" else r
            for r in rules.rules
        ),
    )
    assert keyword_added(rules, "reduce_sum", "keepdims") == (
        ["tf.reduce_sum", "tf.math.reduce_sum"],
        "1.5",
        "keep_dims",
    )
    found = keyword_added(renamed, "reduce_sum", "keepdims")
    assert found is not None and found[2] == "keep_dimz"


@pytest.mark.parametrize(
    ("line", "read"),
    [
        (
            "tensorflow 2.12.0 has requirement numpy<1.24,>=1.22, but you have numpy 1.26.0.",
            ("tensorflow", "numpy", "<1.24,>=1.22", "1.26.0"),
        ),
        (
            "tensorflow-text 2.12.0 has requirement tensorflow<2.13,>=2.12.0; platform_machine "
            '!= "arm64" or platform_system != "Darwin", but you have tensorflow 2.15.0.',
            ("tensorflow-text", "tensorflow", "<2.13,>=2.12.0", "2.15.0"),
        ),
        (
            "h5py 3.1.0 has requirement numpy>=1.17.5, but you have numpy 1.16.6.post1.",
            ("h5py", "numpy", ">=1.17.5", "1.16.6.post1"),
        ),
    ],
    ids=["tensorflow-range", "with-markers", "post-release"],
)
def test_pip_checks_report_without_a_verdict_is_read_as_the_installed_conflict(
    line: str, read: tuple[str, str, str, str]
) -> None:
    (c,) = read_conflicts([f"$ pip check\n{line}\n"])
    assert (c.requirer, c.target, c.spec, c.have, c.kind) == (*read, "installed")


def test_pip_checks_report_of_tensorflows_range_is_that_dependency_out_of_range() -> None:
    text = (
        "$ pip check\n"
        "tensorflow 2.12.0 has requirement numpy<1.24,>=1.22, but you have numpy 1.26.0.\n"
    )
    (found,) = readings(explained(text))
    assert found.cause == "dependency-out-of-range"
    assert 'pip install "numpy<1.24,>=1.22"' in fix_text(found)


@pytest.mark.parametrize(
    "words",
    [
        " but you have numpy 1.",
        " is required for a normal functioning of this module, but found a==1.",
        " is required for this version of SciPy (detected version 1",
        " or newer of 'numexpr' (version '1' currently installed).",
    ],
    ids=["pip-check", "require-version", "scipy", "pandas-optional"],
)
def test_check_and_range_words_on_a_long_line_are_read_in_linear_time(words: str) -> None:
    started = time.perf_counter()
    assert read_conflicts(["a" * 100_000 + words]) == []
    assert read_conflicts(["a>=1" * 25_000 + words]) == []
    assert time.perf_counter() - started < 0.5


@pytest.mark.parametrize(
    "line",
    ["    pkg{i} 1.0 depends on numpy>=1.{i}\n", "    pkg 1.{i} depends on numpy>=1.{i}\n"],
    ids=["many-packages", "one-package-many-releases"],
)
def test_a_long_conflict_block_of_other_packages_is_read_in_linear_time(line: str) -> None:
    # Thousands of ranges on one name: the few pairs of two packages kept are not taken from
    # every pair made.
    text = "The conflict is caused by:\n" + "".join(line.format(i=i) for i in range(4000))
    started = time.perf_counter()
    found = read_conflicts([text])
    assert time.perf_counter() - started < 0.5
    assert len(found) == (6 if "{i} 1.0" in line else 0)


def test_pips_conflict_words_on_a_long_line_are_read_in_linear_time() -> None:
    started = time.perf_counter()
    assert read_conflicts(["a" * 100_000 + " which is incompatible"]) == []
    assert time.perf_counter() - started < 0.5
    line = (
        "tensorflow 2.5.0 requires numpy~=1.19.2, but you have numpy 1.21.0 which is incompatible."
    )
    assert [c.requirer for c in read_conflicts([line])] == ["tensorflow"]


# --- a companion TensorFlow's own wheel requires --------------------------------------------------

_LISTING = """C:\\Users\\user>pip list
Package                      Version
---------------------------- ---------
absl-py                      1.4.0
keras                        {tf}
numpy                        1.23.5
tensorflow                   {tf}
tensorflow-intel             {tf}
{companion:<28} {version}
"""


@pytest.mark.parametrize(
    ("tf", "companion", "version", "warned"),
    [
        # TensorFlow 2.12 requires tensorflow-io-gcs-filesystem>=0.23.1: 0.31.0 (the last with
        # Windows wheels) is what pip installs for it there, whatever the plug-in's own table.
        ("2.12.0", "tensorflow-io-gcs-filesystem", "0.31.0", False),
        # tensorflow-io is no requirement of TensorFlow: its table alone judges it.
        ("2.12.0", "tensorflow-io", "0.31.0", True),
        # 2.7 and 2.8 require it with floors of their own (0.21.0, 0.23.0): pip's newest is
        # TensorFlow's choice there too.
        ("2.7.0", "tensorflow-io-gcs-filesystem", "0.31.0", False),
        ("2.8.0", "tensorflow-io-gcs-filesystem", "0.31.0", False),
        # Before 2.7 TensorFlow's wheel is not known to require the plug-in.
        ("2.6.0", "tensorflow-io-gcs-filesystem", "0.27.0", True),
    ],
)
def test_a_listed_companion_tensorflow_itself_requires_is_not_off_its_table(
    tf: str, companion: str, version: str, warned: bool
) -> None:
    report = _bundled(_LISTING.format(tf=tf, companion=companion, version=version))
    off = [x for x in report.findings if x.cause == "companion-mismatch"]
    assert bool(off) is warned, [(x.id, x.severity.value, x.summary) for x in report.findings]


def test_the_distributions_named_for_removal_all_write_tensorflows_folder() -> None:
    from tfdoctor.explain.packages import _OFTEN_PAIRED
    from tfdoctor.facts import TF_DISTRIBUTIONS

    assert set(_OFTEN_PAIRED) <= set(TF_DISTRIBUTIONS)


@pytest.mark.parametrize(
    ("requirer", "severity"),
    [
        pytest.param("tensorflow-metadata 1.14.0", Severity.WARNING, id="family"),
        # TFX's library on TensorFlow, named in its namespace: its pins are its own business.
        pytest.param("tensorflow-data-validation 1.14.0", Severity.INFO, id="tfx"),
        pytest.param("tensorflow-federated 0.61.0", Severity.INFO, id="federated"),
    ],
)
def test_pip_20_2s_notice_weighs_a_family_range_not_a_library_on_tensorflow(
    requirer: str, severity: Severity
) -> None:
    text = (
        f"ERROR: {requirer} has requirement pyarrow<11,>=10, but you'll have pyarrow 14.0.2 "
        "which is incompatible.\n"
    )
    (found,) = [x for x in explained(text).findings if x.cause == "dependency-out-of-range"]
    assert found.severity is severity


@pytest.mark.parametrize(
    ("channel", "command"),
    [
        pytest.param("conda-forge", "conda install -y -c conda-forge tensorflow=2.15.0", id="cf"),
        pytest.param("anaconda", "conda install -y -c anaconda tensorflow=2.15.0", id="anaconda"),
        # No channel shown: the configured default, as conda list leaves it blank.
        pytest.param("", "conda install -y tensorflow=2.15.0", id="default"),
    ],
)
def test_tensorflow_from_conda_and_pip_comes_back_from_the_channel_it_came_from(
    channel: str, command: str
) -> None:
    conda_build = {
        "conda-forge": "cpu_py311h6ac8430_2",
        "anaconda": "eigen_py311h3b0a8a7_0",
        "": "mkl_py311h3b0a8a7_0",
    }[channel]
    text = (
        "# packages in environment at /home/me/miniconda3/envs/tf:\n"
        "#\n"
        "# Name                    Version                   Build  Channel\n"
        f"tensorflow                2.15.0          {conda_build}    {channel}\n".replace(
            "    \n", "\n"
        )
        + "tensorflow-gpu            2.10.0                   pypi_0    pypi\n"
    )
    found = next(
        x for x in explained(text).findings if x.summary.startswith("TensorFlow is installed twice")
    )
    assert found.fix is not None
    assert found.fix.commands[-1] == command


def test_numpy2_over_the_cap_of_a_line_compiled_with_numpy2_is_out_of_range_only() -> None:
    """pip's notice of NumPy 2 above the numpy cap of a line the matrix states was compiled
    with NumPy 2 (a maintenance line's pin): out of the declared range, not NumPy's ABI break;
    the same notice under a line compiled against NumPy 1 is the ABI break."""
    notice = (
        "ERROR: pip's dependency resolver does not currently take into account all the "
        "packages that are installed. This behaviour is the source of the following "
        "dependency conflicts.\n"
        "tensorflow 2.17.1 requires numpy<2.0.0,>=1.23.5, but you have numpy 2.1.3 which is "
        "incompatible.\n"
    )
    matrix = load_matrix(env={})
    built2 = tuple(
        dataclasses.replace(x, numpy_abi=2) if x.line == "2.17" else x for x in matrix.lines
    )
    as_numpy2 = explained(notice, matrix=dataclasses.replace(matrix, lines=built2))
    assert "numpy-abi" not in {x.cause for x in as_numpy2.findings}
    assert "dependency-out-of-range" in {x.cause for x in as_numpy2.findings}
    assert "numpy-abi" in {x.cause for x in explained(notice, matrix=matrix).findings}
