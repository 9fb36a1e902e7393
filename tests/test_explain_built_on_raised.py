"""An exception no reading explains, raised in the code of an installed library built on
TensorFlow (the module table's family, or a library it marks written against TensorFlow's API):
a release of that library written for another TensorFlow is the candidate, named by its
distribution, a warning beside the exception itself. Not for the user's own code, not for what
a program's inputs raise (ValueError), and not where the companion table pairs the releases the
log shows installed."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text
from tfdoctor.findings import Severity

_SITE = "/home/li/.venv/lib/python3.8/site-packages"

#: onnx-tf's backend representation without the TensorFlow 1 graph its release builds.
_ONNX_TF = f"""Traceback (most recent call last):
  File "/home/li/export.py", line 7, in <module>
    tf_rep.export_graph("model.pb")
  File "{_SITE}/onnx_tf/backend_rep.py", line 86, in export_graph
    graph_proto = self.graph.as_graph_def()
AttributeError: 'NoneType' object has no attribute 'as_graph_def'
"""

#: TensorFlow Probability's base class refusing what an older release's subclass passes.
_TFD = "/usr/local/lib/python3.9/site-packages/tensorflow_probability/python/distributions"
_TFP = f"""Traceback (most recent call last):
  File "fit.py", line 12, in <module>
    dist = tfd.MixtureSameFamily(mix, comp)
  File "{_TFD}/mixture_same_family.py", line 212, in __init__
    super(MixtureSameFamily, self).__init__(
  File "{_TFD}/distribution.py", line 342, in __init__
    self._graph_parents = graph_parents
NotImplementedError: graph_parents is no longer supported
"""

#: Magenta's graph code calling TensorFlow's RNN cell, which refuses what it passes.
_CONDA = "/opt/conda/lib/python3.7/site-packages"
_MAGENTA = f"""Traceback (most recent call last):
  File "/opt/conda/bin/melody_rnn_generate", line 8, in <module>
    sys.exit(console_entry_point())
  File "{_CONDA}/magenta/models/melody_rnn/melody_rnn_generate.py", line 249, in entry_point
    tf.app.run(main)
  File "{_CONDA}/tensorflow/python/platform/app.py", line 125, in run
    _sys.exit(main(argv))
  File "{_CONDA}/magenta/models/shared/events_rnn_graph.py", line 64, in make_rnn_cell
    cell = rnn_cell(num_units)
  File "{_CONDA}/tensorflow/python/ops/rnn_cell_impl.py", line 410, in __init__
    self._kernel_initializer = initializers.get(kernel_initializer)
TypeError: Could not interpret initializer identifier: <function glorot at 0x7f1c2b5e1d30>
"""

#: TensorFlow Hub's Keras layer meeting an object of another TensorFlow (a Windows path).
_HUB_SITE = r"C:\Users\ana\miniconda3\envs\hub\lib\site-packages\tensorflow_hub"
_HUB = rf"""Traceback (most recent call last):
  File "C:\work\classify.py", line 9, in <module>
    model = tf.keras.Sequential([hub.KerasLayer(url, input_shape=(224, 224, 3))])
  File "{_HUB_SITE}\keras_layer.py", line 157, in __init__
    self._func = load_module(handle, tags, self._load_options)
  File "{_HUB_SITE}\keras_layer.py", line 459, in load_module
    return module_v2.load(handle, tags=tags, options=set_load_options)
AttributeError: 'Options' object has no attribute 'experimental_io_device'
"""


#: Transformers' TensorFlow code (its ``modeling_tf_*`` files) and its PyTorch code.
_HF = "/home/kai/venv/lib/python3.9/site-packages/transformers"
_HF_TF = f"""Traceback (most recent call last):
  File "/home/kai/train.py", line 21, in <module>
    model = TFAutoModelForSequenceClassification.from_pretrained("bert-base-cased")
  File "{_HF}/models/auto/auto_factory.py", line 484, in from_pretrained
    return model_class.from_pretrained(
  File "{_HF}/modeling_tf_utils.py", line 2904, in from_pretrained
    model.build_in_name_scope()
AttributeError: 'TFBertForSequenceClassification' object has no attribute 'build_in_name_scope'
"""
_HF_TORCH = f"""Traceback (most recent call last):
  File "/home/kai/train.py", line 21, in <module>
    model = AutoModel.from_pretrained("bert-base-uncased")
  File "{_HF}/modeling_utils.py", line 3120, in from_pretrained
    model.tie_weights()
AttributeError: 'BertModel' object has no attribute 'tie_weights'
"""


@pytest.mark.parametrize(
    ("log", "dist", "raised"),
    [
        pytest.param(_ONNX_TF, "onnx-tf", "AttributeError", id="onnx-tf-own-line"),
        pytest.param(_TFP, "tensorflow-probability", "NotImplementedError", id="tfp-base-class"),
        pytest.param(_MAGENTA, "magenta", "TypeError", id="magenta-calls-tensorflow"),
        pytest.param(_HUB, "tensorflow-hub", "AttributeError", id="hub-windows-paths"),
        pytest.param(_HF_TF, "transformers", "AttributeError", id="transformers-tf-code"),
    ],
)
def test_a_library_built_on_tensorflow_raising_is_its_release(
    log: str, dist: str, raised: str
) -> None:
    report = explained(log)
    found = next(x for x in report.findings if x.cause == "companion-mismatch")
    assert found.severity is Severity.WARNING
    assert found.summary.startswith(f"{dist} raised {raised}")
    assert dist in fix_text(found)
    # The exception itself stays reported: the candidate does not explain it away.
    assert any(x.id == "explain.unexplained-exception" for x in report.findings)


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(
            """Traceback (most recent call last):
  File "/home/li/export.py", line 7, in <module>
    graph_proto = rep.graph.as_graph_def()
AttributeError: 'NoneType' object has no attribute 'as_graph_def'
""",
            id="own-code",
        ),
        pytest.param(
            f"""Traceback (most recent call last):
  File "/home/li/export.py", line 7, in <module>
    tf_rep = prepare(model)
  File "{_SITE}/onnx_tf/backend.py", line 65, in prepare
    raise ValueError("The model has no graph")
ValueError: The model has no graph
""",
            id="library-value-error",
        ),
        pytest.param(
            "$ pip list\ntensorflow                 2.15.0\ntensorflow-probability     0.23.0\n"
            "$ python fit.py\n" + _TFP.replace("python3.9", "python3.10"),
            id="releases-paired-by-the-table",
        ),
        pytest.param(
            f"""Traceback (most recent call last):
  File "/home/li/export.py", line 7, in <module>
    rows = frame.to_numpy()
  File "{_SITE}/pandas/core/generic.py", line 5902, in __getattr__
    return object.__getattribute__(self, name)
AttributeError: 'DataFrame' object has no attribute 'to_numpy'
""",
            id="library-not-built-on-tensorflow",
        ),
        pytest.param(_HF_TORCH, id="transformers-pytorch-code"),
    ],
)
def test_no_release_candidate_elsewhere(log: str) -> None:
    report = explained(log)
    assert not [x for x in report.findings if x.cause == "companion-mismatch"]


def test_a_companion_installed_cleanly_stays_quiet() -> None:
    """The companion's name and pip's words where nothing failed: nothing above info."""
    report = explained(
        "$ pip install tensorflow-text==2.15.0\n"
        "Collecting tensorflow-text==2.15.0\n"
        "Requirement already satisfied: tensorflow<2.16,>=2.15.0 in ./venv/lib/python3.11/"
        "site-packages (from tensorflow-text==2.15.0) (2.15.1)\n"
        "Installing collected packages: tensorflow-text\n"
        "Successfully installed tensorflow-text-2.15.0\n"
        '$ python -c "import tensorflow_text as text; print(text.__version__)"\n'
        "2.15.0\n"
    )
    assert all(x.severity.rank <= Severity.INFO.rank for x in report.findings)


_EPOCHS = (
    "Epoch 1/2\n"
    "100/100 [==============================] - 3s 20ms/step - loss: 0.6931\n"
    "Epoch 2/2\n"
    "100/100 [==============================] - 2s 19ms/step - loss: 0.5210\n"
)
_TFP_BACKEND = "/srv/venv/lib/python3.10/site-packages/tensorflow_probability/python/internal"


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(
            f"""Traceback (most recent call last):
  File "/srv/app/features.py", line 12, in <module>
    from tensorflow_probability.python.internal import backend
  File "{_TFP_BACKEND}/backend/__init__.py", line 19, in <module>
    from tensorflow_probability.python.internal.backend import numpy as np_backend
AttributeError: module 'numpy' has no attribute 'bool8'
Falling back to the TensorFlow backend.
{_EPOCHS}""",
            id="logged-and-went-on",
        ),
        pytest.param(
            """Traceback (most recent call last):
  File "/srv/app/features.py", line 12, in <module>
    import tensorflow_hub as hub
  File "/srv/venv/lib/python3.10/site-packages/tensorflow_hub/__init__.py", line 90, in <module>
    from tensorflow_hub.estimator import LatestModuleExporter
ImportError: cannot import name 'LatestModuleExporter' from partially initialized module \
'tensorflow_hub.estimator' (most likely due to a circular import)
""",
            id="circular-import",
        ),
    ],
)
def test_no_release_question_where_the_words_or_the_run_say_otherwise(log: str) -> None:
    """A run that went on after the exception makes the candidate a note; a module asked while
    it was still importing is no release's lack."""
    report = explained(log)
    assert all(
        x.severity.rank <= Severity.INFO.rank
        for x in report.findings
        if x.cause == "companion-mismatch"
    )
