"""Failures explain reads from tracebacks and loaders: API names judged by scan's knowledge,
the paths' inferences kept apart, pip's refusals reasoned from its own list, and the causes
the corpus in tests/data/logs covers with real logs (api-*, ptxas-gpu-name-*, nccl-shm-*,
companion-*, native-lib-*, no-wheel-list-*)."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import fix_text
from tfdoctor import causes
from tfdoctor.evidence.pip import read_refusals, read_wheel_refusal, requested_version
from tfdoctor.evidence.traceback import (
    MAX_FRAMES,
    MAX_TRACEBACKS,
    egg_release,
    egg_releases,
    installed_package,
    loose_frames,
    origin_of,
    path_hints,
    read_tracebacks,
)
from tfdoctor.explain import BUILDERS, explain
from tfdoctor.explain.reader import split_text
from tfdoctor.facts import Facts, PackageFacts
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import load_matrix
from tfdoctor.scan.knowledge import ApiKnowledge, public_name
from tfdoctor.scan.rules import Rule
from tfdoctor.signatures import BENIGN, EVIDENCE, Signature, load_signatures

ROOT = Path(__file__).resolve().parent.parent
SIGNATURES = load_signatures()


def _explain(text: str) -> Report:
    return explain([split_text(text)], SIGNATURES, f.FIXTURE_MATRIX)


def _only(report: Report, cause: str) -> Finding:
    found = [x for x in report.findings if x.cause == cause]
    assert len(found) == 1, [x.id for x in report.findings]
    return found[0]


def _only_unexplained(report: Report, exception: str) -> Finding:
    """The one finding of a log whose exception no cause explains: unknown, never OK, and
    naming the exception (so a test that nothing is blamed also fails when explain says
    nothing at all)."""
    assert [x.id for x in report.findings] == ["explain.unexplained-exception"]
    finding = report.findings[0]
    assert finding.severity is Severity.UNKNOWN
    assert finding.summary.endswith(f"no cause for: {exception}"), finding.summary
    return finding


def _fix_of(log: str, cause: str) -> str:
    """The fix text of the one finding of ``cause`` that ``log`` gets."""
    fix = _only(_explain(log), cause).fix
    assert fix is not None
    return fix.text


# --- reading tracebacks ----------------------------------------------------------------------

CPYTHON = """\
Traceback (most recent call last):
  File "/opt/conda/envs/tf/lib/python3.9/site-packages/keras/src/trainers/t.py", line 5, in fit
    self.step()
  File "/content/drive/train.py", line 12, in step
    opt = tf.keras.optimizers.Adam(lr=0.1)
ValueError: boom
"""


def test_a_cpython_traceback_keeps_type_message_frames_and_code() -> None:
    (tb,) = read_tracebacks(CPYTHON)
    assert (tb.type, tb.message, tb.where) == ("ValueError", "boom", "line 6")
    assert [(fr.line, fr.function) for fr in tb.frames] == [(5, "fit"), (12, "step")]
    assert tb.frames[1].code == "opt = tf.keras.optimizers.Adam(lr=0.1)"


@pytest.mark.parametrize(
    ("text", "path", "function"),
    [
        pytest.param(
            "File ~/venv/lib/python3.10/site-packages/keras/src/utils/traceback_utils.py:122, "
            "in filter_traceback.<locals>.error_handler(*args, **kwargs)\n"
            "AttributeError: x",
            "~/venv/lib/python3.10/site-packages/keras/src/utils/traceback_utils.py",
            "filter_traceback.<locals>.error_handler",
            id="ipython8",
        ),
        pytest.param(
            "/usr/local/lib/python3.6/dist-packages/tf_sentencepiece/__init__.py in <module>()\n"
            "NotFoundError: y",
            "/usr/local/lib/python3.6/dist-packages/tf_sentencepiece/__init__.py",
            "<module>",
            id="ipython7",
        ),
        pytest.param(
            "[/usr/local/lib/python3.10/dist-packages/keras/src/models/sequential.py]"
            "(https://localhost:8080/#) in add(self, layer, rebuild)\n"
            "ValueError: z",
            "/usr/local/lib/python3.10/dist-packages/keras/src/models/sequential.py",
            "add",
            id="colab-link",
        ),
        pytest.param(
            "[~/envs/a/lib/python3.9/site-packages/tensorflow_io/__init__.py](#) in <module>\n"
            "NotImplementedError: w",
            "~/envs/a/lib/python3.9/site-packages/tensorflow_io/__init__.py",
            "<module>",
            id="colab-link-module",
        ),
        pytest.param(
            "[<ipython-input-3-0a1b2c3d4e5f>](https://localhost:8080/#) in <cell line: 2>()\n"
            "[C:\\Users\\user\\env\\Lib\\site-packages\\tf_keras\\src\\layers\\core.py]"
            "(https://localhost:8080/#) in call(self, x)\n"
            "TypeError: v",
            "C:\\Users\\user\\env\\Lib\\site-packages\\tf_keras\\src\\layers\\core.py",
            "call",
            id="colab-link-windows-after-a-cell",
        ),
    ],
)
def test_notebook_frames_are_read(text: str, path: str, function: str) -> None:
    (tb,) = read_tracebacks(text)
    assert [(fr.path, fr.function) for fr in tb.frames] == [(path, function)]


_CUT = (
    "---------------------------------------------------------------------------\n"
    "ValueError                                Traceback (most recent call last)\n"
    "{frame}\n"
    "     95                 layer = origin_layer\n"
    "---> 97             raise ValueError(\n"
    '     98                 "Only instances of `keras.Layer` can be "\n'
    '     99                 f"added to a Sequential model. "\n'
)


@pytest.mark.parametrize(
    "frame",
    [
        pytest.param(
            "[/usr/lib/python3.11/site-packages/keras/src/models/sequential.py]"
            "(https://localhost:8080/#) in add(self, layer, rebuild)",
            id="colab-link",
        ),
        pytest.param(
            "File /usr/lib/python3.11/site-packages/keras/src/models/sequential.py:97, in "
            "Sequential.add(self, layer, rebuild)",
            id="ipython8",
        ),
    ],
)
def test_a_traceback_cut_before_its_exception_line_keeps_what_the_header_and_source_say(
    frame: str,
) -> None:
    (tb,) = read_tracebacks(_CUT.format(frame=frame))
    assert tb.name == "ValueError"
    assert tb.message == "Only instances of `keras.Layer` can be added to a Sequential model."
    assert tb.frames[-1].path.endswith("keras/src/models/sequential.py")


def test_a_cut_traceback_without_a_named_header_is_not_guessed() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/x/site-packages/keras/src/models/sequential.py", line 97, in add\n'
        "    raise ValueError(\n"
    )
    assert read_tracebacks(text) == []


def test_a_whole_ipython_traceback_is_read_once_from_its_exception_line() -> None:
    text = _CUT.format(frame="/x/site-packages/keras/src/models/sequential.py in add(self)") + (
        "\nValueError: Only instances of `keras.Layer` can be added. Received: 3\n"
    )
    (tb,) = read_tracebacks(text)
    assert tb.message.endswith("Received: 3")


def test_a_lone_exception_line_is_an_exception_without_frames() -> None:
    (tb,) = read_tracebacks("AttributeError: module 'tensorflow' has no attribute 'Session'")
    assert (tb.name, tb.frames) == ("AttributeError", ())


def test_what_is_kept_is_bounded_to_the_innermost_frames() -> None:
    frames = "".join(f'  File "f{i}.py", line {i}, in g\n' for i in range(MAX_FRAMES + 10))
    (tb,) = read_tracebacks(frames + "ValueError: x\n")
    assert len(tb.frames) == MAX_FRAMES
    assert tb.frames[-1].path == f"f{MAX_FRAMES + 9}.py"
    assert len(read_tracebacks("ValueError: x\n" * (MAX_TRACEBACKS + 5))) == MAX_TRACEBACKS


def test_text_without_an_exception_has_no_traceback() -> None:
    assert read_tracebacks("ERROR: No matching distribution found for tensorflow") == []


@pytest.mark.parametrize(
    ("path", "dist", "generation", "installed"),
    [
        ("/x/lib/python3.11/site-packages/keras/src/trainers/trainer.py", "keras", "Keras 3", True),
        ("/x/lib/python3.8/site-packages/keras/engine/training.py", "keras", "Keras 2", True),
        ("/x/site-packages/keras/src/engine/training.py", "keras", "Keras 2", True),
        ("C:\\Py\\Lib\\site-packages\\tf_keras\\src\\engine\\x.py", "tf-keras", "Keras 2", True),
        ("/x/dist-packages/tensorflow_text/python/ops/a.py", "tensorflow-text", "", True),
        # An egg's folder (setuptools' {project}-{version}-py{X.Y}.egg) holds the package.
        (
            "/x/site-packages/Keras-2.0.8-py2.7.egg/keras/engine/training.py",
            "keras",
            "Keras 2",
            True,
        ),
        ("/home/me/src/keras/keras/src/models/model.py", "keras", "Keras 3", False),
        ("/home/me/train.py", "", "", False),
    ],
)
def test_a_path_says_which_distribution_a_frame_is(
    path: str, dist: str, generation: str, installed: bool
) -> None:
    found = origin_of(path)
    assert (found.dist, found.generation, found.installed) == (dist, generation, installed)


@pytest.mark.parametrize(
    ("path", "package", "release"),
    [
        (
            "/u/lib/python3.7/site-packages/DeepXDE-0.6.1-py3.7.egg/deepxde/model.py",
            "deepxde",
            ("DeepXDE", "0.6.1"),
        ),
        # A platform-specific egg, a Windows path, a name whose dash setuptools wrote as "_".
        (
            "C:\\Py\\Lib\\site-packages\\onnx_tf-1.5.0-py3.6-win-amd64.egg\\onnx_tf\\backend.py",
            "onnx_tf",
            ("onnx_tf", "1.5.0"),
        ),
        ("/u/site-packages/magenta/music/x.py", "magenta", None),
        # A folder that only ends in .egg, outside site-packages: the user's own.
        ("/home/u/proj/tool-1.0-py3.7.egg/tool/x.py", None, None),
    ],
)
def test_an_eggs_folder_names_its_release_and_holds_the_package(
    path: str, package: Optional[str], release: Optional[tuple[str, str]]
) -> None:
    assert installed_package(path) == package
    assert egg_release(path) == release


def test_the_frames_eggs_give_the_releases_installed() -> None:
    (tb,) = read_tracebacks(
        "Traceback (most recent call last):\n"
        '  File "/u/site-packages/Tensor_Rec-0.26-py3.5.egg/tensorrec/tensorrec.py", line 9, '
        "in fit\n"
        "    x = 1\n"
        "ValueError: x\n"
    )
    assert egg_releases([tb]) == {"tensor-rec": "0.26"}


def test_paths_imply_python_and_environment_and_say_which_path() -> None:
    hints = path_hints(
        ["/content/x.py", "/opt/conda/envs/a/lib/python3.9/site-packages/k.py", "/kaggle/in.py"]
    )
    assert [(h.fact, h.value.split(" (")[0]) for h in hints] == [
        ("environment", "a Google Colab runtime"),
        ("python", "3.9"),
        ("environment", "a conda environment"),
        ("environment", "a Kaggle notebook"),
    ]
    assert all(h.because for h in hints)


def test_no_path_no_inference() -> None:
    assert path_hints(["train.py", "<stdin>"]) == []


# --- scan's knowledge, asked by name -----------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("tensorflow", "tf"),
        ("tensorflow._api.v2.compat.v1", "tf.compat.v1"),
        ("keras.api._v2.keras.layers", "tf.keras.layers"),
        ("keras._tf_keras.keras.layers", "tf.keras.layers"),
        ("keras.api.optimizers", "keras.optimizers"),
        ("keras.api._v1.keras.layers", "tf.compat.v1.keras.layers"),
        ("tensorflow._api.v1.random", "tf.random"),
        ("tensorflow_core._api.v1.compat.v1", "tf.compat.v1"),
        ("tensorflow_estimator.python.estimator.api._v2.estimator", "tf.estimator"),
        ("tensorflow_estimator.python.estimator.api._v1.estimator.export", "tf.estimator.export"),
        ("tensorflow_estimator.python.estimator.canned", None),
        ("keras.src.engine", None),
        ("numpy", None),
    ],
)
def test_printed_module_names_map_to_api_names(module: str, name: str) -> None:
    assert public_name(module) == name


def test_a_name_missing_from_the_estimators_generated_tree_is_a_tf_estimator_name() -> None:
    # tf.estimator printed as the tree tensorflow_estimator generates for TensorFlow 2: the
    # module imported, so the name, not the module, is what this release lacks.
    finding = _only(
        _explain(
            "AttributeError: module 'tensorflow_estimator.python.estimator.api._v2.estimator' "
            "has no attribute 'feeding'"
        ),
        "api-removed",
    )
    assert finding.severity is Severity.ERROR
    assert "`tf.estimator.feeding`" in finding.summary
    assert finding.fix is not None and "TensorFlow release" in finding.fix.text


def test_explain_and_scan_give_one_fix_for_one_name() -> None:
    knowledge = ApiKnowledge(f.FIXTURE_MATRIX)
    verdict = knowledge.name("tf.estimator")
    assert verdict is not None
    finding = _only(
        _explain("AttributeError: module 'tensorflow' has no attribute 'estimator'"),
        "tf-estimator-removed",
    )
    assert finding.fix == verdict.fix
    assert verdict.release == "2.16"


@pytest.mark.parametrize(
    ("message", "cause", "fix_word"),
    [
        pytest.param(
            "ModuleNotFoundError: No module named 'tensorflow.contrib'",
            "tf-contrib-removed",
            "tf-slim",
            id="no-module",
        ),
        pytest.param(
            "ImportError: cannot import name 'experimental' from 'keras.layers' "
            "(/usr/lib/python3.11/site-packages/keras/layers/__init__.py)",
            "keras3-behaviour-change",
            "Rescaling",
            id="cannot-import",
        ),
        pytest.param(
            "AttributeError: module 'tensorflow' has no attribute 'placeholder'",
            "api-moved-to-compat-v1",
            "tf.compat.v1.placeholder",
            id="tf1-name",
        ),
    ],
)
def test_an_exception_about_a_name_gets_scans_verdict(
    message: str, cause: str, fix_word: str
) -> None:
    finding = _only(_explain(message), cause)
    assert fix_word in (finding.fix.text if finding.fix else "")


def test_code_of_tf_contrib_may_keep_any_1x_line_and_is_told_the_last() -> None:
    # Every 1.x release has tf.contrib: the project's own 1.x pin serves, 1.15 is the newest.
    finding = _only(
        _explain("AttributeError: module 'tensorflow' has no attribute 'contrib'"),
        "tf-contrib-removed",
    )
    text = finding.fix.text if finding.fix else ""
    assert "TensorFlow 1.x" in text and "1.15 is the last release with tf.contrib" in text


def test_an_unexpected_keyword_is_judged_from_the_source_line() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 9, in <module>\n'
        "    opt = tf.keras.optimizers.SGD(lr=0.01)\n"
        "TypeError: __init__() got an unexpected keyword argument 'lr'\n"
    )
    finding = _only(_explain(log), "keras3-behaviour-change")
    assert finding.fix is not None and "learning_rate=" in finding.fix.text


def test_an_unknown_keyword_is_not_blamed_on_keras3() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/x/site-packages/keras/src/optimizers/base_optimizer.py", line 90, in f\n'
        '    raise ValueError(f"Argument(s) not recognized: {kwargs}")\n'
        "ValueError: Argument(s) not recognized: {'momentum_x': 1}\n"
    )
    _only_unexplained(_explain(log), "ValueError")


@pytest.mark.parametrize(
    ("message", "fix_word"),
    [
        pytest.param(
            "ValueError: Argument(s) not recognized: {'lr': 0.01}", "learning_rate=", id="lr"
        ),
        pytest.param(
            "ValueError: Argument(s) not recognized: {'epsilon_x': 1e-07, 'lr': 0.5}",
            "learning_rate=",
            id="second-key",
        ),
        pytest.param(
            "ValueError: Argument(s) not recognized: {'decay': 1e-06}", "schedule", id="decay"
        ),
    ],
)
def test_keras3s_refusal_alone_names_its_api_by_its_wording(message: str, fix_word: str) -> None:
    # No frame says whose API it was: Keras 3's optimizers word their refusal this way.
    finding = _only(_explain(message), "keras3-behaviour-change")
    assert finding.fix is not None and fix_word in finding.fix.text


def test_a_layer_refusal_is_not_read_as_an_optimizer_one() -> None:
    # `lr` is an optimizer keyword: a layer refusing it is not the optimizer rule's case.
    log = "ValueError: Unrecognized keyword arguments passed to Dense: {'lr': 0.01}\n"
    finding = _only(_explain(log), "keras3-behaviour-change")
    assert finding.fix is not None and "learning_rate=" not in finding.fix.text


def test_a_name_missing_from_an_older_tensorflow_is_not_its_removal() -> None:
    log = (
        "tf.__version__ = 1.0.0\nAttributeError: module 'tensorflow' has no attribute 'estimator'\n"
    )
    report = _explain(log)
    # Not the removal in 2.16: a TensorFlow older than the release that brought the name
    # (1.1, its release notes), so the code needs a newer one.
    finding = next(f for f in report.findings if f.cause == "tf-too-old-for-code")
    assert finding.fix is not None and "has no attribute 'estimator'" in finding.detail
    assert "upgrade TensorFlow to 1.1 or later" in finding.fix.text
    assert "2.16" not in finding.fix.text
    # 1.2 has it: missing there for another reason, neither its age nor the removal.
    later = _explain(log.replace("1.0.0", "1.2.0"))
    assert all("2.16" not in fix_text(f) for f in later.findings)
    assert not any(f.cause == "api-removed" for f in later.findings)


# --- pip's own words ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dist", "asked", "listed", "release"),
    [
        pytest.param(
            "tensorflow-text", "1.15.0", "1.0.0b2, 1.15.0rc0, 1.15.1, 2.0.1", "1.15.1", id="text"
        ),
        pytest.param("tensorflow", "2.15.0", "2.14.1, 2.15.1, 2.16.1", "2.15.1", id="tensorflow"),
        pytest.param(
            "tensorflow-io", "0.37.0", "0.36.0, 0.37.1, 0.37.2rc0", "0.37.1", id="no-pre-release"
        ),
    ],
)
def test_a_pin_whose_line_pip_lists_is_told_that_release(
    dist: str, asked: str, listed: str, release: str
) -> None:
    log = (
        f"ERROR: Could not find a version that satisfies the requirement {dist}=={asked} "
        f"(from versions: {listed})\nERROR: No matching distribution found for {dist}=={asked}\n"
    )
    finding = _only(_explain(log), "tf-release-not-for-python")
    assert finding.fix is not None
    assert f'{dist}=={release}"' in "\n".join(finding.fix.commands)
    # The title names the distribution whose release has no wheel, a companion's too.
    what = "TensorFlow" if dist == "tensorflow" else dist
    assert finding.summary == (
        f"The requested {what} release has no wheel for this Python and platform"
    )


@pytest.mark.parametrize(
    ("requirement", "listed"),
    [
        pytest.param("tensorflow-text==2.16.1", "2.0.1, 2.1.1", id="line-not-listed"),
        pytest.param("tensorflow-text>=2.16", "2.0.1, 2.16.0rc0", id="not-a-pin"),
    ],
)
def test_a_refusal_without_the_pins_line_is_not_a_release_fix(
    requirement: str, listed: str
) -> None:
    log = (
        f"ERROR: Could not find a version that satisfies the requirement {requirement} "
        f"(from versions: {listed})\nERROR: No matching distribution found for {requirement}\n"
    )
    for finding in _explain(log).findings:
        assert "line) did" not in (finding.fix.text if finding.fix else "")


def test_a_refusal_is_read_with_its_versions() -> None:
    (refusal,) = read_refusals(
        [
            "ERROR: Could not find a version that satisfies the requirement tensorflow==2.0.0 "
            "(from -r requirements.txt (line 12)) (from versions: none)"
        ]
    )
    assert (refusal.dist, refusal.spec, refusal.versions) == ("tensorflow", "==2.0.0", ())
    assert requested_version(refusal.spec) == "2.0.0"


def test_a_list_wrapped_over_lines_is_read_whole() -> None:
    (refusal,) = read_refusals(
        [
            "ERROR: Could not find a version that satisfies the requirement tensorflow==2.12.0 "
            "(from versions: 2.10.0, 2.10.1, \n2.11.0rc0, 2.11.0)\nERROR: No matching"
        ]
    )
    assert refusal.final_versions == ("2.10.0", "2.10.1", "2.11.0")


def test_a_list_whose_opening_words_are_wrapped_is_still_the_list() -> None:
    (refusal,) = read_refusals(
        [
            "Could not find a version that satisfies the requirement tensorflow==1.10.0 (from "
            "rasa_core) (from \n      versions: )\nNo matching distribution found"
        ]
    )
    assert (refusal.shown, refusal.versions, refusal.spec) == (True, (), "==1.10.0")
    (cut,) = read_refusals(["Could not find a version that satisfies the requirement tf==2.3.0"])
    assert (cut.shown, cut.versions) == (False, ())


def test_a_refused_wheel_is_read_by_its_tags() -> None:
    wheel = read_wheel_refusal(
        "tensorflow_gpu-1.0.1-cp34-cp34m-linux_x86_64.whl is not a supported wheel on this "
        "platform."
    )
    assert wheel is not None
    assert (wheel.dist, wheel.version, wheel.python_version, wheel.platform) == (
        "tensorflow_gpu",
        "1.0.1",
        "3.4",
        "linux_x86_64",
    )


@pytest.mark.parametrize(
    ("python", "words"),
    [
        ("3.14", "newer than any"),
        ("2.7", "too old"),
        ("3.11", "32-bit"),
        (None, "newer or older"),
    ],
)
def test_none_listed_reasons_from_the_python(python: Optional[str], words: str) -> None:
    machine = Machine(Facts("", ""), f.FIXTURE_MATRIX)
    cause, fix, _ = causes.platform.pip_refusal_fix(machine, (), None, python)
    assert cause == "tf-no-wheel-for-python"
    assert words in fix.text


def test_none_listed_in_a_log_is_not_blamed_on_one_reason() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow "
        "(from versions: none)\nERROR: No matching distribution found for tensorflow\n"
    )
    finding = _only(_explain(log), "tf-no-wheel-for-python")
    assert finding.fix is not None and "newer or older" in finding.fix.text


@pytest.mark.parametrize(
    ("log", "cause"),
    [
        pytest.param(
            "ERROR: No matching distribution found for tensorflow\n"
            "ERROR: tensorflow-2.10.1-cp310-cp310-win_amd64.whl is not a supported wheel on this "
            "platform.\n",
            "python-32bit",
            id="no-release-at-all-and-the-64-bit-windows-wheel-refused",
        ),
        pytest.param(
            "ERROR: Could not find a version that satisfies the requirement tensorflow==2.10.1 "
            "(from versions: 2.12.0, 2.13.0)\nERROR: tensorflow-2.10.1-cp310-cp310-win_amd64.whl "
            "is not a supported wheel on this platform.\n",
            "wheel-mismatch",
            id="releases-listed-so-the-interpreter-is-64-bit",
        ),
        pytest.param(
            "ERROR: No matching distribution found for tensorflow\n"
            "ERROR: tensorflow-2.10.1-cp310-cp310-manylinux_2_17_x86_64.whl is not a supported "
            "wheel on this platform.\n",
            "wheel-mismatch",
            id="linux-wheel",
        ),
    ],
)
def test_a_refused_64_bit_windows_wheel_with_no_release_at_all_is_a_32_bit_python(
    log: str, cause: str
) -> None:
    finding = _only(_explain(log), cause)
    assert finding.fix is not None
    assert ("64-bit Python" in finding.fix.text) is (cause == "python-32bit")


# --- TensorFlow 2.21 without tensorboard, under `tfdoctor run` ---------------------------------

TB_MISSING = (
    "Traceback (most recent call last):\n"
    '  File "/work/train.py", line 40, in <module>\n'
    '    tf.summary.scalar("loss", loss, step=step)\n'
    '  File "/usr/lib/python3.12/site-packages/tensorflow/python/summary/tb_summary.py", '
    "line 298, in scalar\n"
    '    raise TBNotInstalledError("tf.summary.scalar") from exc\n'
    "tensorflow.python.summary.tb_summary.TBNotInstalledError: TensorBoard is not installed, "
    "missing implementation for tf.summary.scalar\n"
)


def test_tensorboard_missing_is_explained() -> None:
    finding = _only(_explain(TB_MISSING), "tensorboard-not-installed")
    assert finding.fix is not None and any("tensorboard" in c for c in finding.fix.commands)


def test_run_explains_a_script_that_stops_without_tensorboard(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(
        f"import sys\nsys.stderr.write({TB_MISSING!r})\nsys.exit(1)\n", encoding="utf-8"
    )
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tfdoctor",
            "run",
            "--report",
            str(report),
            "--",
            sys.executable,
            str(script),
        ],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert proc.returncode == 1, proc.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    assert "explain.tensorboard-not-installed" in [x["id"] for x in data["findings"]]


# --- an exception nothing explains ---------------------------------------------------------


def test_an_exception_nothing_explains_is_unknown_never_ok() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/content/app.py", line 3, in <module>\n'
        "    model.fit(x)\n"
        '  File "/usr/local/lib/python3.11/dist-packages/keras/src/trainers/trainer.py", '
        "line 9, in fit\n"
        '    raise RuntimeError("weird")\n'
        "RuntimeError: weird\n"
    )
    (finding,) = _explain(log).findings
    assert (finding.id, finding.severity) == ("explain.unexplained-exception", Severity.UNKNOWN)
    assert "keras (Keras 3)" in finding.detail
    assert "/content/app.py, line 3: model.fit(x)" in finding.detail
    assert "Inferred from paths" in finding.detail


def test_an_explained_exception_needs_no_unknown() -> None:
    log = "AttributeError: module 'tensorflow' has no attribute 'estimator'\n"
    ids = [x.id for x in _explain(log).findings]
    assert ids == ["explain.tf-estimator-removed"]


def test_a_stopped_program_is_no_failure() -> None:
    log = 'Traceback (most recent call last):\n  File "a.py", line 1, in f\nKeyboardInterrupt\n'
    assert [x.id for x in _explain(log).findings] == ["explain.no-signature"]


def test_the_version_pip_could_not_find_is_not_the_installed_one() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow==2.12.0 "
        "(from versions: 2.10.0, 2.11.0)\nERROR: No matching distribution found for "
        "tensorflow==2.12.0\n"
    )
    report = _explain(log)
    assert report.facts.tensorflow is not None and report.facts.tensorflow.version is None
    assert all("The log shows: TensorFlow" not in x.detail for x in report.findings)
    # What the log does say: the release asked for has no wheel here.
    finding = _only(report, "tf-release-not-for-python")
    assert finding.severity is Severity.ERROR


def test_a_method_a_keras3_model_lacks_gets_scans_verdict() -> None:
    log = "AttributeError: 'Sequential' object has no attribute 'fit_generator'\n"
    finding = _only(_explain(log), "keras3-behaviour-change")
    assert finding.summary.startswith("`Sequential.fit_generator`")
    assert finding.fix is not None and "model.fit(generator" in finding.fix.text


def test_a_method_of_another_class_is_not_judged() -> None:
    log = "AttributeError: 'DataFrame' object has no attribute 'fit_generator'\n"
    finding = _only_unexplained(_explain(log), "AttributeError")
    assert "'DataFrame' object" in finding.detail


def test_the_machines_own_tensorflow_decides_whether_a_removal_applies() -> None:
    log = [split_text("AttributeError: module 'tensorflow' has no attribute 'estimator'")]
    old = Facts("", "", packages=(PackageFacts("tensorflow", "2.15.0", ""),))
    new = Facts("", "", packages=(PackageFacts("tensorflow", "2.16.1", ""),))
    causes_new = [x.cause for x in explain(log, SIGNATURES, f.FIXTURE_MATRIX, new).findings]
    _only_unexplained(explain(log, SIGNATURES, f.FIXTURE_MATRIX, old), "AttributeError")
    assert "tf-estimator-removed" in causes_new


def causes_without_a_builder(signatures: Iterable[Signature], builders: Iterable[str]) -> set[str]:
    """Causes a signature names that no fix builder serves."""
    return {s.cause for s in signatures} - {BENIGN, EVIDENCE} - set(builders)


def test_every_cause_a_signature_names_has_a_fix_builder() -> None:
    """A cause without a builder would reach the report with no fix at all."""
    assert causes_without_a_builder(SIGNATURES.signatures, BUILDERS) == set()
    # Planted: the builder of a cause a signature names is taken away.
    cause = next(s.cause for s in SIGNATURES.signatures if s.cause in BUILDERS)
    assert causes_without_a_builder(SIGNATURES.signatures, set(BUILDERS) - {cause}) == {cause}


def test_an_add_on_of_another_release_is_fitted_to_the_installed_tensorflow() -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: /usr/lib/python3.10/"
        "site-packages/tensorflow_text/python/ops/_regex_split_ops.so: undefined symbol: "
        "_ZN10tensorflow8OpKernel11TraceStringEPNS_15OpKernelContextEb"
    )
    facts = Facts("", "", packages=(PackageFacts("tensorflow", "2.15.1", ""),))
    report = explain([split_text(line)], SIGNATURES, f.FIXTURE_MATRIX, facts)
    finding = _only(report, "companion-mismatch")
    assert finding.fix is not None
    assert any('"tensorflow-text==2.15.*"' in c for c in finding.fix.commands)


def test_tensorflows_own_library_is_no_add_on() -> None:
    line = (
        "ImportError: /usr/lib/python3.10/site-packages/tensorflow/python/"
        "_pywrap_tensorflow_internal.so: undefined symbol: _ZN10tensorflow6StatusC1Ev"
    )
    # Not an add-on built for another TensorFlow: TensorFlow's own two libraries disagree.
    report = _explain(line)
    assert all(x.cause != "companion-mismatch" for x in report.findings)
    finding = _only(report, "tf-install-incomplete")
    assert "_pywrap_tensorflow_internal.so" in finding.detail
    assert finding.fix is not None and "LD_LIBRARY_PATH" in finding.fix.text


def test_an_add_on_missing_a_tsl_symbol_is_named_by_its_directory() -> None:
    # From 2.13 much of TensorFlow's C++ is in namespace tsl: the mangled name no longer says
    # "TensorFlow", the add-on's directory does.
    line = (
        "caused by: ['/opt/venv/lib/python3.12/site-packages/tensorflow_io/python/ops/"
        "libtensorflow_io_plugins.so: undefined symbol: _ZN3tsl5mutex6unlockEv']"
    )
    finding = _only(_explain(line), "companion-mismatch")
    assert finding.fix is not None
    assert "https://github.com/tensorflow/io#tensorflow-version-compatibility" in finding.fix.text
    assert "pip show tensorflow tensorflow-io" in finding.fix.commands


def test_tensorflows_own_library_missing_a_tsl_symbol_is_no_add_on() -> None:
    line = (
        "ImportError: /usr/lib/python3.12/site-packages/tensorflow/python/"
        "_pywrap_tensorflow_internal.so: undefined symbol: _ZN3tsl5mutex6unlockEv"
    )
    report = _explain(line)
    assert all(x.cause != "companion-mismatch" for x in report.findings)
    finding = _only(report, "tf-install-incomplete")
    assert finding.fix is not None and "_ZN3tsl5mutex6unlockEv" in finding.fix.text


# --- Keras 3's saving errors: the fix of scan's rule of the same name ------------------------


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        pytest.param(
            "ValueError: Invalid filepath extension for saving. Please add either a `.keras` "
            "extension for the native Keras format (recommended) or a `.h5` extension. "
            "Received: filepath=out/model.",
            "keras3-save-savedmodel",
            id="save-dir",
        ),
        pytest.param(
            "ValueError: The filepath provided must end in `.keras` (Keras model format). "
            "Received: filepath=ckpt/best.hdf5",
            "keras3-checkpoint-path",
            id="checkpoint",
        ),
        pytest.param(
            "ValueError: The filename must end in `.weights.h5`. Received: filepath=cp.ckpt",
            "keras3-save-weights",
            id="weights",
        ),
    ],
)
def test_a_keras3_saving_error_gets_scans_fix_for_that_use(line: str, rule: str) -> None:
    finding = _only(_explain(line), "keras3-behaviour-change")
    verdict = ApiKnowledge(f.FIXTURE_MATRIX).rule(rule)
    assert verdict is not None and finding.fix is not None
    assert finding.fix.text == verdict.fix.text
    assert "export TF_USE_LEGACY_KERAS=1" in finding.fix.commands


def causes_apart(signatures: Iterable[Signature], rules: Iterable[Rule]) -> list[str]:
    """Signatures named after a scan rule that blame another cause than the rule does."""
    by_id = {r.id: r.cause for r in rules}
    return [s.id for s in signatures if s.id in by_id and s.cause != by_id[s.id]]


def test_a_signature_named_after_a_scan_rule_shares_its_cause() -> None:
    rules = ApiKnowledge(f.FIXTURE_MATRIX).rules.rules
    ids = {r.id for r in rules}
    shared = [s for s in SIGNATURES.signatures if s.id in ids]
    assert len(shared) >= 4
    assert causes_apart(SIGNATURES.signatures, rules) == []
    # Planted: a shared signature that blames another cause.
    planted = dataclasses.replace(shared[0], cause="another-cause")
    assert causes_apart((planted,), rules) == [planted.id]


def test_the_keras2_fix_of_a_saving_error_is_the_logs_tensorflows() -> None:
    log = "tf.__version__ 2.18.0\nValueError: The filepath provided must end in `.keras`."
    finding = _only(_explain(log), "keras3-behaviour-change")
    assert finding.fix is not None
    assert any("tf-keras<2.19,>=2.18" in c for c in finding.fix.commands)


def test_a_removed_module_names_the_last_release_that_had_it() -> None:
    verdict = ApiKnowledge(f.FIXTURE_MATRIX).name("tf.estimator")
    assert verdict is not None
    assert 'pip install "tensorflow==2.15.*"' in verdict.fix.text
    # tf.contrib left with TensorFlow 2.0: 1.15 is another major, no stop-gap to offer.
    contrib = ApiKnowledge(f.FIXTURE_MATRIX).name("tf.contrib")
    assert contrib is not None and "Stop-gap: stay on" not in contrib.fix.text


# --- Keras and TensorFlow of different releases; tf-keras asked for; protobuf's list --------


@pytest.mark.parametrize(
    "line",
    [
        "AttributeError: module 'tensorflow.compat.v2.__internal__' has no attribute 'dispatch'",
        "AttributeError: module 'tensorflow.compat.v2.__internal__.tracking' has no attribute "
        "'DelegatingTrackableMixin'",
        "tensorflow.python.framework.errors_impl.AlreadyExistsError: Another metric with the "
        "same name already exists.",
    ],
    ids=["internal", "internal-submodule", "metric"],
)
def test_keras_of_another_release_is_keras_version(line: str) -> None:
    finding = _only(_explain(line), "keras-version")
    assert finding.severity is Severity.ERROR


def test_keras_of_another_release_gets_the_keras_of_the_logs_tensorflow() -> None:
    log = "tf.__version__ 2.6.0\nAlreadyExistsError: Another metric with the same name"
    log += " already exists."
    finding = _only(_explain(log), "keras-version")
    assert finding.fix is not None
    assert any("keras<2.7,>=2.6" in c for c in finding.fix.commands)


def test_keras_optimizers_registered_twice_are_two_keras_copies() -> None:
    line = "AssertionError: Duplicate registrations for type 'experimentalOptimizer'"
    # TensorFlow's revived-type registry takes each name once; Keras registers its optimizers
    # as it is imported, so a second copy of Keras in the process registers them again.
    finding = _only(_explain("tf.__version__ 2.11.0\n" + line), "keras-version")
    assert finding.severity is Severity.ERROR and finding.fix is not None
    assert any("uninstall -y keras keras-nightly" in c for c in finding.fix.commands)
    assert any("keras<2.12,>=2.11" in c for c in finding.fix.commands)


@pytest.mark.parametrize(
    "name",
    # tf_deprecated_optimizer: TensorFlow's own legacy copy of Keras
    # (tensorflow/python/keras/optimizer_v2/optimizer_v2.py) registers it, not Keras.
    ["'trackable_dict_wrapper'", "tf_deprecated_optimizer", "'tf_deprecated_optimizer'"],
)
def test_tensorflows_own_type_registered_twice_is_not_keras(name: str) -> None:
    report = _explain(f"AssertionError: Duplicate registrations for type {name}")
    assert "keras-version" not in {x.cause for x in report.findings}


def test_a_library_that_asks_for_tf_keras_gets_it_with_the_legacy_switch() -> None:
    line = (
        "ValueError: Your currently installed version of Keras is Keras 3, but this is not yet "
        "supported in Transformers. Please install the backwards-compatible tf-keras package "
        "with `pip install tf-keras`."
    )
    finding = _only(_explain(line), "tf-keras-missing")
    assert finding.fix is not None
    assert "export TF_USE_LEGACY_KERAS=1" in finding.fix.commands
    # The log does not show TensorFlow: the fix says how to find its minor, pins nothing.
    assert "pip show tensorflow" in finding.fix.commands
    assert "tf-keras~=2.X.0" in finding.fix.text
    pinned = _only(_explain("tf.__version__ 2.17.0\n" + line), "tf-keras-missing")
    assert pinned.fix is not None
    assert any("tf-keras<2.18,>=2.17" in c for c in pinned.fix.commands)


def test_protobufs_list_of_workarounds_alone_names_protobuf() -> None:
    log = (
        "If you cannot immediately regenerate your protos, some other possible workarounds are:\n"
        " 1. Downgrade the protobuf package to 3.20.x or lower.\n"
        " 2. Set PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python (but this will use pure-Python "
        "parsing and will be much slower).\n"
    )
    assert "protobuf" in _fix_of(log, "protobuf-incompatible")


# --- a cuDNN or cuBLAS handle that fails to start: candidates ranked by evidence -------------

_HANDLE = (
    "2023-01-01 00:00:00.000000: E tensorflow/stream_executor/cuda/cuda_dnn.cc:334] Could not "
    "create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR"
)
_CANDIDATE_WORDS = {
    "memory": "memory was already taken",
    "version": "of another version than the build's",
    "driver": "driver is older than",
}


def _ranking(log: str) -> list[str]:
    text = _fix_of(log, "gpu-library-init-failed")
    assert all(words in text for words in _CANDIDATE_WORDS.values()), text
    return sorted(_CANDIDATE_WORDS, key=lambda key: text.index(_CANDIDATE_WORDS[key]))


@pytest.mark.parametrize(
    ("log", "first"),
    [
        pytest.param(_HANDLE, "memory", id="nothing-else-shown"),
        pytest.param(
            "Loaded runtime CuDNN library: 7.4.1 but source was compiled with: 7.6.0\n" + _HANDLE,
            "version",
            id="cudnn-of-another-version",
        ),
        pytest.param(
            "tf.__version__ 2.15.0\n"
            "| NVIDIA-SMI 450.80.02    Driver Version: 450.80.02    CUDA Version: 11.0     |\n"
            '  File "/usr/lib/python3.10/site-packages/tensorflow/python/x.py", line 1, in f\n'
            + _HANDLE,
            "driver",
            id="driver-below-the-builds-floor",
        ),
        pytest.param(
            "tf.__version__ 2.15.0\n"
            '  File "/usr/lib/python3.10/site-packages/tensorflow/python/x.py", line 1, in f\n'
            + _HANDLE
            + "\nE tensorflow/stream_executor/cuda/cuda_dnn.cc:337] Possibly insufficient driver "
            "version: 450.80.2",
            "driver",
            id="cudnns-own-driver-line",
        ),
    ],
)
def test_the_candidates_for_a_handle_that_fails_are_ranked_by_evidence(
    log: str, first: str
) -> None:
    ranking = _ranking(log)
    assert ranking[0] == first
    assert len(ranking) == 3


@pytest.mark.parametrize(
    ("loaded", "first"),
    [
        pytest.param("8100", "version", id="older-minor"),
        pytest.param("8900", "memory", id="newer-minor-serves-the-build"),
    ],
)
def test_a_loaded_cudnn_counts_against_the_build_as_cudnn_itself_judges(
    loaded: str, first: str
) -> None:
    log = (
        "tf.__version__ 2.12.0\n"
        '  File "/usr/lib/python3.10/site-packages/tensorflow/python/x.py", line 1, in f\n'
        "I tensorflow/compiler/xla/stream_executor/cuda/cuda_dnn.cc:424] Loaded cuDNN version "
        f"{loaded}\n" + _HANDLE
    )
    assert _ranking(log)[0] == first


_NO_DNN = (
    "tensorflow.python.framework.errors_impl.UnknownError: Fail to find the dnn "
    "implementation. [Op:CudnnRNN]"
)


def test_no_cudnn_at_all_without_a_handle_error_puts_its_version_first() -> None:
    text = _fix_of(_NO_DNN, "cudnn-version-mismatch")
    assert text.index(_CANDIDATE_WORDS["version"]) < text.index(_CANDIDATE_WORDS["memory"])


@pytest.mark.parametrize(
    "before",
    [
        pytest.param(_HANDLE + "\n", id="handle-error"),
        pytest.param(
            "W tensorflow/core/common_runtime/bfc_allocator.cc:457] Allocator (GPU_0_bfc) ran "
            "out of memory trying to allocate 1.00GiB (rounded to 1073741824)\n",
            id="out-of-memory",
        ),
    ],
)
def test_no_cudnn_after_a_handle_or_memory_failure_keeps_memory_first(before: str) -> None:
    found = _explain(before + _NO_DNN).findings
    # The version may be a ranked candidate of the handle's failure ("Or: ..."), after
    # memory; never the reading.
    assert not any(
        x.cause == "cudnn-version-mismatch" and not x.summary.startswith("Or: ") for x in found
    )
    ranked = [x.cause for x in found if x.summary.startswith("Or: ")]
    if "cudnn-version-mismatch" in ranked and "gpu-out-of-memory" in ranked:
        assert ranked.index("gpu-out-of-memory") < ranked.index("cudnn-version-mismatch")


#: A failed BFC allocation as TensorFlow 2.5 and later print it: the size, then the allocator's
#: own advice on its next line.
_BFC_FAILED = (
    "2025-03-01 10:00:00.000001: W external/local_xla/xla/tsl/framework/bfc_allocator.cc:501] "
    "Allocator (GPU_0_bfc) ran out of memory trying to allocate 96.00MiB (rounded to "
    "100663296)requested by op model/conv2d_3/Conv2D\n"
)
_ASYNC_ADVICE = (
    "If the cause is memory fragmentation maybe the environment variable "
    "'TF_GPU_ALLOCATOR=cuda_malloc_async' will improve the situation. \n"
    "Current allocation summary follows.\n"
)


def test_the_allocators_own_advice_joins_the_out_of_memory_fix() -> None:
    with_advice = _fix_of(_BFC_FAILED + _ASYNC_ADVICE, "gpu-out-of-memory")
    assert "TF_GPU_ALLOCATOR=cuda_malloc_async" in with_advice
    # The usual remedies stay first: the advice is TensorFlow's guess, for fragmented memory.
    assert with_advice.index("batch size") < with_advice.index("cuda_malloc_async")
    # Without the line (TensorFlow before 2.5, a paste that cut it) the fix does not name it.
    assert "cuda_malloc_async" not in _fix_of(_BFC_FAILED, "gpu-out-of-memory")


def test_the_advice_alone_reads_as_the_failed_allocation_it_follows() -> None:
    found = _only(_explain(_ASYNC_ADVICE), "gpu-out-of-memory")
    assert found.severity is Severity.ERROR


def test_each_candidate_says_what_tells_it_apart() -> None:
    fix = causes.runtime.gpu_library_init_fix(Machine(Facts("", ""), None))
    assert "`nvidia-smi` shows the memory in use" in fix.text
    assert "`tfdoctor check` compares" in fix.text
    assert fix.commands[0] == "nvidia-smi"
    assert "tfdoctor check" in fix.commands


@pytest.mark.parametrize(
    ("message", "cause", "word", "tf_keras_offered"),
    [
        pytest.param(
            "AttributeError: module 'tf_keras.api._v2.keras.layers' has no attribute 'NopeLayer'",
            "api-removed",
            "tf-keras 2.21.0",
            False,
            id="tf-keras-serving-tf.keras",
        ),
        pytest.param(
            "ImportError: cannot import name 'NotALayerEither' from 'keras.layers' "
            "(/usr/lib/python3.11/site-packages/keras/layers/__init__.py)",
            "api-removed",
            "neither in Keras",
            False,
            id="in-no-keras",
        ),
        pytest.param(
            "AttributeError: module 'keras._tf_keras.keras.layers' has no attribute "
            "'DenseFeatures'",
            "keras3-behaviour-change",
            "Keras 2 API",
            True,
            id="keras-2-api",
        ),
    ],
)
def test_explain_judges_keras_names_from_the_keras_listings(
    message: str, cause: str, word: str, tf_keras_offered: bool
) -> None:
    finding = _only(_explain(message), cause)
    assert word in finding.detail
    fix = " ".join((finding.fix.text, *finding.fix.commands)) if finding.fix else ""
    assert ("tf-keras" in fix) == tf_keras_offered


# --- each companion's own library and words, judged with the companion table ------------------

#: TensorFlow 2.16.2 installed: the release of each companion for it is in the table.
TF_2_16 = Facts("", "", packages=(PackageFacts("tensorflow", "2.16.2", ""),))


@pytest.mark.parametrize(
    ("line", "install"),
    [
        pytest.param(
            "tensorflow.python.framework.errors_impl.NotFoundError: /opt/venv/lib/python3.11/"
            "site-packages/tensorflow_text/python/ops/_regex_split_ops.so: undefined symbol: "
            "_ZN10tensorflow8OpKernel11TraceStringEPNS_15OpKernelContextEb",
            "tensorflow-text==2.16.*",
            id="tensorflow-text",
        ),
        pytest.param(
            "caused by: ['/opt/venv/lib/python3.11/site-packages/tensorflow_io/python/ops/"
            "libtensorflow_io_plugins.so: undefined symbol: _ZN3tsl5mutex6unlockEv']",
            "tensorflow-io==0.37.1",
            id="tensorflow-io",
        ),
        pytest.param(
            "caused by: ['/opt/venv/lib/python3.11/site-packages/tensorflow_io_gcs_filesystem/"
            "core/python/ops/libtensorflow_io_gcs_filesystem.so: undefined symbol: "
            "_ZN3tsl6StatusC1EN10tensorflow5error4CodeESt17basic_string_viewIcSt11char_traitsIcEE"
            "NS_14SourceLocationE']",
            "tensorflow-io-gcs-filesystem==0.37.1",
            id="tensorflow-io-gcs-filesystem",
        ),
        # TF-DF's known issues page quotes this line; 1.9.2 pins tensorflow==2.16.2.
        pytest.param(
            "/opt/venv/lib/python3.11/site-packages/tensorflow_decision_forests/tensorflow/ops/"
            "training/training.so: undefined symbol: _ZN10tensorflow11GetNodeAttrERKNS_9AttrSlice"
            "EN4absl14lts_2020_09_2311string_viewEPSs",
            "tensorflow-decision-forests==1.9.2",
            id="tensorflow-decision-forests",
        ),
        pytest.param(
            "E   ImportError: This version of TensorFlow Probability requires TensorFlow version "
            ">= 2.18; Detected an installation of version 2.16.2. Please upgrade TensorFlow to "
            "proceed.",
            "tensorflow-probability==0.24.*",
            id="tensorflow-probability",
        ),
    ],
)
def test_a_companions_failure_is_fixed_by_its_release_for_the_installed_tensorflow(
    line: str, install: str
) -> None:
    report = explain([split_text(line)], SIGNATURES, f.FIXTURE_MATRIX, TF_2_16)
    finding = _only(report, "companion-mismatch")
    assert finding.fix is not None
    assert any(f'"{install}"' in c for c in finding.fix.commands), finding.fix.commands


def test_the_metal_plug_in_of_another_release_is_named_and_sent_to_its_table() -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: dlopen(/Users/me/venv/lib/"
        "python3.11/site-packages/tensorflow-plugins/libmetal_plugin.dylib, 0x0006): symbol "
        "not found in flat namespace '_TF_AllocateOutput'"
    )
    finding = _only(_explain(line), "companion-mismatch")
    assert finding.fix is not None
    assert "tensorflow-metal" in finding.fix.text
    assert "pip index versions tensorflow-metal" in finding.fix.commands


def test_addons_warning_outside_its_range_says_it_reached_its_end_of_life() -> None:
    lines = (
        "/opt/venv/lib/python3.11/site-packages/tensorflow_addons/utils/ensure_tf_install.py:53:"
        " UserWarning: Tensorflow Addons supports using Python ops for all Tensorflow versions "
        "above or equal to 2.13.0 and strictly below 2.16.0 (nightly versions are not "
        "supported). \n The versions of TensorFlow you are currently using is 2.16.2 and is not "
        "supported. \n"
    )
    report = explain([split_text(lines)], SIGNATURES, f.FIXTURE_MATRIX, TF_2_16)
    finding = _only(report, "companion-mismatch")
    assert finding.fix is not None
    assert "TensorFlow Addons reached its end of life" in finding.fix.text
    # No release to move to: TensorFlow moves, and the fix says it is a downgrade.
    assert "downgrades TensorFlow from 2.16.2" in finding.fix.text
    assert any('"tensorflow<2.16.0,>=2.13.0"' in c for c in finding.fix.commands)


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param("", id="tensorflow-not-shown"),
        pytest.param(">>> tf.__version__\n'2.1.0'\n", id="older-tensorflow-shown"),
    ],
)
def test_an_ended_add_on_moves_tensorflow_only_where_it_is_newer(shown: str) -> None:
    # The add-on's op library refused by a TensorFlow the log does not show newer than its
    # last release: an older TensorFlow has an add-on release of its own, and a downgrade
    # to the last release's range would be an upgrade past what the code runs on.
    lines = (
        f"{shown}>>> import tensorflow_addons as tfa\n"
        "tensorflow.python.framework.errors_impl.NotFoundError: /opt/venv/lib/python3.7/"
        "site-packages/tensorflow_addons/custom_ops/layers/_correlation_cost_ops.so: "
        "undefined symbol: _ZN10tensorflow8OpKernel11TraceStringEPNS_15OpKernelContextEb\n"
    )
    finding = _only(_explain(lines), "companion-mismatch")
    assert finding.fix is not None
    assert not [c for c in finding.fix.commands if '"tensorflow<2.16.0,>=2.13.0"' in c]
    assert "downgrades TensorFlow from" not in finding.fix.text


@pytest.mark.parametrize(
    ("line", "conda"),
    [
        pytest.param(
            "ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.32' not "
            "found (required by /home/u/mambaforge/envs/ml/lib/python3.11/site-packages/"
            "tensorflow/libtensorflow_cc.so.2)",
            True,
            id="conda-env-loads-the-system-copy",
        ),
        pytest.param(
            "ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not "
            "found (required by /home/u/micromamba/envs/ml/lib/python3.11/site-packages/"
            "tensorflow/libtensorflow_cc.so.2)",
            True,
            id="micromamba-env-loads-the-system-copy",
        ),
        pytest.param(
            "OSError: /lib64/libstdc++.so.6: version `CXXABI_1.3.13' not found (required by "
            "/srv/venv/lib/python3.10/site-packages/tensorflow_io/python/ops/libtensorflow_io.so)",
            False,
            id="system-runtime-too-old",
        ),
    ],
)
def test_an_old_libstdcxx_names_the_symbol_and_where_to_get_one(line: str, conda: bool) -> None:
    finding = _only(_explain(line), "libstdcxx-too-old")
    assert finding.fix is not None
    commands = " ".join(finding.fix.commands)
    symbol = line.split("version `")[1].split("'", maxsplit=1)[0]
    assert f"grep -F {symbol}" in commands
    assert ("conda install -c conda-forge libstdcxx-ng" in commands) is conda
    assert "glibc " not in finding.fix.text.lower()  # not the C library's advice


#: The loader's refusal of a distribution package's library (ldd's words) beside the row of
#: dpkg -l that shows the package, and TensorFlow Lite's unresolved custom op after it.
_PACKAGED_REQUIRER = "\n".join(
    (
        "RuntimeError: Encountered unresolved custom op: acme-accel-op.Node number 0 "
        "(acme-accel-op) failed to prepare.",
        "$ dpkg -l | grep libacme",
        "ii  libacmedelegate2-turbo:arm64   5.2   arm64   Delegate for the Acme accelerator",
        "$ ldd /usr/lib/aarch64-linux-gnu/libacmedelegate.so.2",
        "/usr/lib/aarch64-linux-gnu/libacmedelegate.so.2: /usr/lib/aarch64-linux-gnu/"
        "libstdc++.so.6: version `GLIBCXX_3.4.26' not found (required by "
        "/usr/lib/aarch64-linux-gnu/libacmedelegate.so.2)",
        "",
    )
)


def test_an_old_libstdcxx_names_the_library_that_needs_it_and_its_package() -> None:
    report = _explain(_PACKAGED_REQUIRER)
    finding = _only(report, "libstdcxx-too-old")
    assert finding.fix is not None and finding.severity == Severity.ERROR
    text = finding.fix.text
    assert "/usr/lib/aarch64-linux-gnu/libacmedelegate.so.2 needs" in text
    assert "libacmedelegate2-turbo 5.2" in text and "GCC 9.1.0 or newer's" in text
    assert "apt-cache policy libacmedelegate2-turbo" in finding.fix.commands
    # The op the delegate would register is the consequence: second, below the loader's.
    op = _only(report, "op-not-registered")
    assert op.severity == Severity.WARNING
    assert report.findings.index(finding) < report.findings.index(op)


def test_an_old_glibc_names_the_library_that_needs_it_and_its_package() -> None:
    lines = _PACKAGED_REQUIRER.splitlines()
    lines[-1] = (
        "/usr/lib/aarch64-linux-gnu/libacmedelegate.so.2: /lib/aarch64-linux-gnu/libc.so.6: "
        "version `GLIBC_2.28' not found (required by "
        "/usr/lib/aarch64-linux-gnu/libacmedelegate.so.2)"
    )
    finding = _only(_explain("\n".join(lines) + "\n"), "glibc-too-old")
    assert finding.fix is not None
    assert "a release of libacmedelegate.so.2 built for this glibc" in finding.fix.text
    assert "libacmedelegate2-turbo 5.2" in finding.fix.text
    assert "apt-cache policy libacmedelegate2-turbo" in finding.fix.commands


def test_an_old_libstdcxx_asks_dpkg_for_a_system_librarys_package_where_no_row_shows_it() -> None:
    line = _PACKAGED_REQUIRER.splitlines()[-1]
    finding = _only(_explain(line), "libstdcxx-too-old")
    assert finding.fix is not None
    assert "dpkg -S /usr/lib/aarch64-linux-gnu/libacmedelegate.so.2" in finding.fix.commands
    assert "a release of libacmedelegate.so.2 built for this system" in finding.fix.text


@pytest.mark.parametrize(
    ("symbol", "gcc"),
    [
        pytest.param("GLIBCXX_3.4.30", "12.1.0", id="gcc-12.1"),
        # GCC's ABI table: 3.4.28 came with 9.3.0 (not 10), 3.4.32 with 13.2.0 (13.1.0 lacks
        # it), so a floor of the major release alone would admit a runtime without the symbol.
        pytest.param("GLIBCXX_3.4.28", "9.3.0", id="gcc-9.3"),
        pytest.param("GLIBCXX_3.4.32", "13.2.0", id="gcc-13.2"),
    ],
)
def test_a_conda_environments_own_old_libstdcxx_is_updated_there(symbol: str, gcc: str) -> None:
    line = (
        "ImportError: /home/u/miniconda3/envs/tf/bin/../lib/libstdc++.so.6: version "
        f"`{symbol}' not found (required by /usr/lib/x86_64-linux-gnu/libicuuc.so.70)"
    )
    finding = _only(_explain(line), "libstdcxx-too-old")
    assert finding.fix is not None
    assert f'conda install -c conda-forge "libstdcxx-ng>={gcc}"' in finding.fix.commands
    assert "LD_LIBRARY_PATH" in finding.fix.text and "newer distribution" not in finding.fix.text


@pytest.mark.parametrize(
    "message",
    [
        "AttributeError: module 'tensorflow.keras.backend' has no attribute 'get_session'",
        "AttributeError: module 'tensorflow.keras.backend' has no attribute 'set_session'",
    ],
)
def test_a_tf1_keras_name_gone_from_tf2_is_named_with_its_compat_v1_home(message: str) -> None:
    finding = _only(_explain(message), "api-moved-to-compat-v1")
    assert finding.fix is not None
    assert "tf.compat.v1.keras.backend." in finding.fix.text and "2.15" in finding.fix.text


def test_a_tf1_names_compat_v1_home_is_scans() -> None:
    # One judgement, two entrances: explain says what scan says of the name in a file.
    verdict = ApiKnowledge(load_matrix()).name("tf.keras.backend.get_session")
    assert verdict is not None and verdict.cause == "api-moved-to-compat-v1"
    assert "kept it only up to TensorFlow 2.15" in verdict.what
    message = "AttributeError: module 'tensorflow.keras.backend' has no attribute 'get_session'"
    finding = _only(_explain(message), "api-moved-to-compat-v1")
    assert finding.fix == verdict.fix and verdict.what in finding.detail


def test_a_name_no_release_ever_had_stays_a_removed_name() -> None:
    text = "AttributeError: module 'tensorflow.keras.backend' has no attribute 'no_such_thing'"
    assert not [x for x in _explain(text).findings if x.cause == "api-moved-to-compat-v1"]


def test_a_signature_named_as_a_scan_rule_takes_the_rules_cause_and_fix() -> None:
    # TensorFlow 2.11-2.15's optimizers refuse decay= and point at their legacy namespace,
    # which Keras 3 does not have: scan's rule for 2.11, not a Keras 3 change.
    log = (
        "ValueError: decay is deprecated in the new Keras optimizer, please check the docstring "
        "for valid arguments, or use the legacy optimizer, e.g., tf.keras.optimizers.legacy.Adam.\n"
    )
    finding = _only(_explain(log), "api-removed")
    assert finding.fix is not None and "tf.keras.optimizers.legacy" in finding.fix.text


@pytest.mark.parametrize(
    "log",
    [
        # Keras 3's wrapper: the layer's own exception is the paragraph after it.
        "TypeError: Exception encountered when calling Flatten.call().\n\nFailed to convert "
        "elements of (Dimension(None), Dimension(32)) to Tensor.\n\nArguments received by "
        "Flatten.call():\n  • inputs=tf.Tensor(shape=(?, 2, 16), dtype=float32)\n",
        "AttributeError: Exception encountered when calling MonoDense.call(). can't set "
        "attribute 'kernel'\n",
        # A name passed where Keras 3's add_weight takes the shape, from a package's frames.
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/site-packages/keras/src/backend/common/variables.py", '
        "line 550, in standardize_shape\n"
        "ValueError: Cannot convert '('c', 'o', 'u', 'n', 't')' to a shape. Found invalid "
        "entry 'c' of type '<class 'str'>'.\n",
    ],
)
def test_keras_2_habits_refused_inside_keras_3_name_keras_3_as_the_likely_cause(log: str) -> None:
    report = _explain(log)
    (found,) = [x for x in report.findings if x.severity.rank >= Severity.WARNING.rank]
    assert (found.cause, found.severity) == ("keras3-behaviour-change", Severity.WARNING)
    assert found.fix is not None and "TF_USE_LEGACY_KERAS=1" in found.fix.text
    # The same habit outside Keras 3 (Keras 2's own wording, no keras/src frame) is not it.
    keras2 = log.replace("Flatten.call()", 'layer "flatten" (type Flatten)').replace(
        "MonoDense.call()", 'layer "mono" (type MonoDense)'
    )
    keras2 = keras2.replace("keras/src/backend/common", "keras/engine")
    if "to a shape" not in log:  # standardize_shape's words are Keras 3's own, wherever raised
        assert all(x.cause != "keras3-behaviour-change" for x in _explain(keras2).findings)


def _refused_in(frames: Iterable[tuple[str, str]]) -> str:
    """A keyword refused where Python raises it: in the caller's frame (the last shown)."""
    lines = ["Traceback (most recent call last):"]
    for path, code in frames:
        lines += [f'  File "{path}", line 7, in run', f"    {code}"]
    lines.append("TypeError: __init__() got an unexpected keyword argument 'reuse_scope'")
    return "\n".join(lines) + "\n"


SITE = "/srv/env/lib/python3.8/site-packages"


def test_a_companion_refusing_a_keyword_in_its_own_frame_called_another_tensorflow() -> None:
    """The callee is not shown (Python raises in the caller): a package written against
    TensorFlow passing an argument its callee lacks was written for another release."""
    log = _refused_in(
        [("/home/u/train.py", "hub.load(path)"), (f"{SITE}/tensorflow_hub/module.py", "x, y)")]
    )
    finding = _only(_explain(log), "companion-mismatch")
    assert finding.severity is Severity.WARNING
    assert "tensorflow-hub" in finding.summary


@pytest.mark.parametrize(
    "frames",
    [
        # A package not written against TensorFlow: its callee can be anything.
        [("/home/u/train.py", "get(url)"), (f"{SITE}/requests/api.py", "x, y)")],
        # Another package's frame after the companion's: the callee is that package.
        [
            (f"{SITE}/tensorflow_hub/module.py", "x, y)"),
            (f"{SITE}/requests/api.py", "x, y)"),
        ],
    ],
    ids=["not-written-for-tensorflow", "callee-shown"],
)
def test_a_keyword_refused_by_another_callee_is_no_companion_mismatch(
    frames: list[tuple[str, str]],
) -> None:
    report = _explain(_refused_in(frames))
    assert all(x.cause != "companion-mismatch" for x in report.findings)


def test_a_member_a_letter_from_a_removed_one_gets_that_ones_fix() -> None:
    report = _explain("AttributeError: 'Sequential' object has no attribute 'predict_clases'")
    finding = _only(report, "api-removed")
    assert "predict_classes" in finding.detail
    assert finding.fix is not None and "predict" in finding.fix.text


def test_a_member_like_no_removed_one_is_not_judged() -> None:
    report = _explain("AttributeError: 'Sequential' object has no attribute 'summarise'")
    assert all(x.cause != "api-removed" for x in report.findings)


def test_an_op_without_a_kernel_on_the_gpu_it_was_pinned_to_is_op_kernel_missing() -> None:
    line = (
        "InvalidArgumentError: Could not satisfy device specification '/job:localhost/"
        "replica:0/task:0/device:GPU:0'. enable_soft_placement=0. Supported device types [CPU]. "
        "All available devices [/job:localhost/replica:0/task:0/device:GPU:0, /job:localhost/"
        "replica:0/task:0/device:CPU:0]. [Op:ScatterNd]"
    )
    finding = _only(_explain(line), "op-kernel-missing")
    assert finding.fix is not None and "ScatterNd" in finding.fix.text


def test_a_gpu_that_does_not_exist_is_not_a_missing_kernel() -> None:
    line = (
        "InvalidArgumentError: Could not satisfy device specification '/job:localhost/"
        "replica:0/task:0/device:GPU:3'. enable_soft_placement=0. Supported device types [GPU, "
        "CPU]. All available devices [/job:localhost/replica:0/task:0/device:GPU:0, "
        "/job:localhost/replica:0/task:0/device:CPU:0]. [Op:MatMul]"
    )
    assert all(x.cause != "op-kernel-missing" for x in _explain(line).findings)


@pytest.mark.parametrize(
    "line",
    [
        "TypeError: EndVector() missing 1 required positional argument: 'vectorNumElems'",
        "TypeError: EndVector() takes 1 positional argument but 2 were given",
    ],
    ids=["flatbuffers-1-under-code-for-2", "flatbuffers-2-under-code-for-1"],
)
def test_flatbuffers_of_the_other_major_is_out_of_range(line: str) -> None:
    """Which side moved depends on TensorFlow and the converting package: without the
    declared range the fix shows the ranges and pins nothing."""
    finding = _only(_explain(line), "dependency-out-of-range")
    assert finding.fix is not None and "flatbuffers" in finding.fix.text
    assert not any("install" in c for c in finding.fix.commands)


def test_onnx_refusing_an_untyped_empty_attribute_is_onnx_newer_than_the_code() -> None:
    """onnx 1.15's make_attribute refuses an empty list without its type: the code building
    the node was written for an older onnx, which the fix names with the caller's upgrade."""
    line = "ValueError: Could not infer attribute `strides` type from empty iterator"
    finding = _only(_explain(line), "dependency-out-of-range")
    assert finding.severity is Severity.ERROR
    assert finding.fix is not None and "onnx<1.15" in " ".join(finding.fix.commands)
    assert "attr_type" in finding.fix.text
    # The converter's first release that passes the type (onnx/tensorflow-onnx#2279).
    assert "tf2onnx 1.16 or later" in finding.fix.text


def test_onnx_refusing_the_elements_of_an_attribute_is_not_the_empty_list() -> None:
    # The same function's other refusal (a list of mixed types) is no release question.
    line = (
        "ValueError: Could not infer the attribute type from the elements of the passed "
        "Iterable value."
    )
    assert not [x for x in _explain(line).findings if x.cause == "dependency-out-of-range"]


@pytest.mark.parametrize(
    "line",
    [
        "ImportError: libcusolver.so.10.0",
        "serve: error while loading shared libraries: libnvrtc.so.11.2: cannot open shared "
        "object file: No such file or directory",
    ],
)
def test_a_cuda_library_quoted_or_nvrtc_is_missing_cuda_libraries(line: str) -> None:
    _only(_explain(line), "cuda-libs-missing")


def test_an_add_on_no_table_lists_is_named_by_its_directory_and_found_by_its_files() -> None:
    line = (
        "ImportError: /srv/env/lib/python3.10/site-packages/zebra_ops/_ops.so: undefined symbol: "
        "_ZN10tensorflow8OpKernel11TraceStringEPNS_15OpKernelContextEb"
    )
    finding = _only(_explain(line), "companion-mismatch")
    assert finding.fix is not None and "`zebra_ops`" in finding.fix.text
    assert any("b'zebra_ops/'" in c for c in finding.fix.commands)


@pytest.mark.parametrize("mark", ["> ", "#", "# "])
def test_a_traceback_quoted_behind_a_mark_is_read(mark: str) -> None:
    text = "\n".join(
        mark + line
        for line in (
            "Traceback (most recent call last):",
            '  File "/srv/env/lib/python3.9/site-packages/pkg/mod.py", line 3, in <module>',
            "    import missing_thing",
            "ModuleNotFoundError: No module named 'missing_thing'",
        )
    )
    (tb,) = read_tracebacks(text)
    assert tb.name == "ModuleNotFoundError"
    assert tb.frames and tb.frames[-1].path.endswith("pkg/mod.py")


def test_comments_without_a_quoted_traceback_are_left_alone() -> None:
    """A script's comments name a file and an exception, but no quoted header or numbered
    frame: taking the marks off would make an exception out of a comment."""
    text = '# File "config.yaml" is read below\n# ValueError: raised when it is missing\n'
    assert read_tracebacks(text) == []


def test_a_package_asking_for_multi_backend_keras_needs_that_keras() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/run.py", line 1, in <module>\n'
        "    import oldpkg\n"
        '  File "/srv/env/lib/python3.8/site-packages/oldpkg/__init__.py", line 4, in <module>\n'
        "    from keras.backend.tensorflow_backend import set_session\n"
        "ModuleNotFoundError: No module named 'keras.backend.tensorflow_backend'\n"
    )
    finding = _only(_explain(text), "keras-version")
    assert finding.fix is not None and any("keras<2.4" in c for c in finding.fix.commands)


def test_no_cudnn_after_its_library_failed_to_load_makes_no_version_claim() -> None:
    log = (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic "
        "library 'libcudnn.so.7'; dlerror: libcudnn.so.7: cannot open shared object file: No "
        "such file or directory\n" + _NO_DNN
    )
    found = _explain(log).findings
    assert not any(x.cause == "cudnn-version-mismatch" for x in found)
    assert any(x.cause == "cuda-libs-missing" for x in found)


def test_frames_without_a_header_are_read_in_order_up_to_the_limit() -> None:
    text = "".join(
        f'  File "/srv/venv/lib/python3.11/site-packages/pkg/m{i}.py", line {i}, in f{i}\n'
        f"    step{i}()\n"
        for i in range(1, 6)
    )
    frames = loose_frames(text, limit=3)
    assert [f.path.rsplit("/", 1)[1] for f in frames] == ["m1.py", "m2.py", "m3.py"]
    assert [f.line for f in frames] == [1, 2, 3]


@pytest.mark.parametrize(
    ("spec", "mistyped"),
    [
        ("==0.21.2/", "0.21.2"),
        ("==0.21.2,", "0.21.2"),
        ('==0.21.2"', "0.21.2"),
        ("==0.21.2", None),  # a version: pip's list decides, not this reading
        ("==0.21.9/", None),  # not a release pip lists
        (">=0.21/", None),  # not a pin
    ],
)
def test_a_pin_ending_in_what_no_version_holds_is_read_as_its_release(
    spec: str, mistyped: Optional[str]
) -> None:
    line = (
        f"ERROR: Could not find a version that satisfies the requirement tfx{spec} (from "
        "versions: 0.21.0, 0.21.1, 0.21.2, 0.22.0)\n"
    )
    (refusal,) = read_refusals([line])
    assert refusal.mistyped_release == mistyped


def test_a_mistyped_pin_is_fixed_by_writing_the_release_not_by_another_python() -> None:
    report = _explain(
        "ERROR: Could not find a version that satisfies the requirement tfx==0.21.2/ (from -r "
        "requirements.txt (line 3)) (from versions: 0.21.0, 0.21.1, 0.21.2, 0.22.0)\n"
        "ERROR: No matching distribution found for tfx==0.21.2/\n"
    )
    found = _only(report, "pinned-release-not-published")
    assert found.fix is not None
    assert "tfx==0.21.2" in found.fix.commands[0] and "Python" not in found.summary
    assert not [x for x in report.findings if x.cause == "tf-release-not-for-python"]


_PIP_ELSEWHERE = (
    'docker run --rm -it --entrypoint /bin/bash example/image:1.0 -c "python --version"\n'
    "Python 3.8.18\n"
    'docker run --rm -it --entrypoint /bin/bash example/image:1.0 -c "pip --version"\n'
    "pip 22.0.2 from /usr/lib/python3/dist-packages/pip (python {pip})\n"
)


def test_pip_of_another_python_than_python_is_read_from_their_own_answers() -> None:
    found = _only(_explain(_PIP_ELSEWHERE.format(pip="3.10")), "package-not-installed")
    assert found.severity is Severity.WARNING
    assert found.fix is not None and "python -m pip install" in found.fix.commands[0]
    # The same Python answering both: nothing to say.
    same = _explain(_PIP_ELSEWHERE.format(pip="3.8")).findings
    assert all(x.cause != "package-not-installed" for x in same)


@pytest.mark.parametrize(
    "text",
    [
        # pip run as another interpreter's module: not the `pip` command of the shell.
        "$ python --version\nPython 3.11.4\n$ python3.10 -m pip --version\n"
        "pip 23.0 from /usr/lib/python3.10/site-packages/pip (python 3.10)\n",
        # An environment switched between the two answers.
        "$ python --version\nPython 3.11.4\n$ conda activate other\n(other) $ pip --version\n"
        "pip 23.0 from /opt/conda/envs/other/lib/python3.10/site-packages/pip (python 3.10)\n",
        # Another interpreter than the bare `python` asked.
        "$ python3.11 --version\nPython 3.11.4\n$ pip --version\n"
        "pip 23.0 from /usr/lib/python3/dist-packages/pip (python 3.10)\n",
    ],
)
def test_pip_and_python_of_other_shells_or_commands_are_no_mismatch(text: str) -> None:
    assert all(x.cause != "package-not-installed" for x in _explain(text).findings)


def test_a_mistyped_pin_beside_another_refusal_leaves_that_one_its_reading() -> None:
    report = _explain(
        "ERROR: Could not find a version that satisfies the requirement tfx==0.21.2/ (from "
        "versions: 0.21.0, 0.21.1, 0.21.2)\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow==2.15.0 "
        "(from versions: 2.18.0, 2.19.0)\n"
        "ERROR: No matching distribution found for tensorflow==2.15.0\n"
    )
    assert all(x.cause != "pinned-release-not-published" for x in report.findings)
