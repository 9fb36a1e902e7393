"""The accuracy read under the other name than this run logs it under: Keras before
standalone 2.3 and tf.keras before TensorFlow 2.0 log metrics=['accuracy'] as acc and val_acc,
the later releases the name given to compile (data/keras_api.yaml's metric_names_kept_in), so
metrics=['acc'] is acc on every release. The log shows the name Keras logs (its progress bar, a
callback's list of names) and the code asking for the other (a KeyError, a callback's words, a
value printed as None). Code asking accuracy of a run logging acc is an older release only
where the log shows one; the candidates are named otherwise. The same name on both sides, a
validation value asked with no validation data, and another library's progress lines are
nothing of this."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text
from tfdoctor.findings import Severity
from tfdoctor.keras_api import keras_api

#: A TensorFlow 2 run: the progress bar logs accuracy, the plotting script asks for val_acc.
_TF2_ASKS_ACC = (
    "Epoch 20/20\n"
    "1875/1875 [==============================] - 3s 2ms/step - loss: 0.1021 - accuracy: 0.9701"
    " - val_loss: 0.1304 - val_accuracy: 0.9612\n"
    "Traceback (most recent call last):\n"
    '  File "/home/ana/mnist/plot.py", line 41, in <module>\n'
    "    plt.plot(history.history['val_acc'])\n"
    "KeyError: 'val_acc'\n"
)
#: EarlyStopping's own words name what the logs hold.
_EARLY_STOPPING_ACC = (
    "Epoch 1/50\n"
    "WARNING:tensorflow:Early stopping conditioned on metric `val_acc` which is not available. "
    "Available metrics are: loss,accuracy,val_loss,val_accuracy\n"
)
#: Keras 3's progress bar (the accuracy before the loss) and ReduceLROnPlateau's words.
_KERAS3_PLATEAU_ACC = (
    "Epoch 12/100\n"
    "469/469 ━━━━━━━━━━━━━━━━━━━━ 2s 4ms/step - accuracy: 0.9172 - loss: 0.2301 - "
    "val_accuracy: 0.8990 - val_loss: 0.2877\n"
    "WARNING:root:Learning rate reduction is conditioned on metric `acc` which is not available. "
    "Available metrics are: accuracy,loss,val_accuracy,val_loss,learning_rate\n"
)
#: TensorFlow 1.15's tf.keras (per-sample timing) logging acc; ModelCheckpoint asked for
#: val_accuracy.
_TF1_CHECKPOINT_ACCURACY = (
    "Train on 50000 samples, validate on 10000 samples\n"
    "Epoch 3/10\n"
    "50000/50000 [==============================] - 6s 121us/sample - loss: 0.8123 - acc: 0.7154"
    " - val_loss: 0.9001 - val_acc: 0.6870\n"
    "WARNING:tensorflow:Can save best model only with val_accuracy available, skipping.\n"
)
#: A callback's logs.get('accuracy') printed as None after the progress bar's carriage return.
_TF1_CALLBACK_NONE = (
    "Epoch 9/9\n"
    "59424/60000 [============================>.] - ETA: 0s - loss: 0.0126 - acc: 0.9957"
    "accuracy: None\n"
    "60000/60000 [==============================] - 10s 162us/sample - loss: 0.0126 - acc: 0.9957\n"
)
#: Multi-backend Keras (its banner) logging acc; the code asks for val_accuracy.
_MULTI_BACKEND_ACCURACY = (
    "Using TensorFlow backend.\n"
    "Epoch 5/5\n"
    "60000/60000 [==============================] - 4s 70us/step - loss: 0.0712 - acc: 0.9781 "
    "- val_loss: 0.0702 - val_acc: 0.9779\n"
    "Traceback (most recent call last):\n"
    '  File "train.py", line 58, in <module>\n'
    "    print(history.history['val_accuracy'][-1])\n"
    "KeyError: 'val_accuracy'\n"
)


@pytest.mark.parametrize(
    "log",
    [_TF2_ASKS_ACC, _EARLY_STOPPING_ACC, _KERAS3_PLATEAU_ACC],
    ids=["tf2-keyerror-val-acc", "early-stopping-val-acc", "keras3-plateau-acc"],
)
def test_code_asking_acc_of_a_keras_logging_accuracy_was_written_for_the_older_name(
    log: str,
) -> None:
    found = [x for x in explained(log).findings if x.cause == "api-default-changed"]
    assert len(found) == 1 and found[0].severity is Severity.WARNING
    text = fix_text(found[0])
    # The fix names both ways: the names this Keras logs, or compile under the old name.
    assert "val_accuracy" in text and "metrics=['acc']" in text
    assert set(keras_api().metric_names_links) <= set(found[0].links)


@pytest.mark.parametrize(
    "log",
    [_TF1_CHECKPOINT_ACCURACY, _TF1_CALLBACK_NONE],
    ids=["tf1-checkpoint-val-accuracy", "tf1-callback-none"],
)
def test_code_asking_accuracy_of_a_run_logging_acc_names_each_candidate_where_no_release_shows(
    log: str,
) -> None:
    found = [x for x in explained(log).findings if x.cause == "tf-too-old-for-code"]
    assert len(found) == 1 and found[0].severity is Severity.WARNING
    # No release shown: the older TensorFlow is one candidate, named as such, beside
    # metrics=['acc'] and TensorFlow 2 behaviour switched off.
    assert "a TensorFlow older than the code, or" in found[0].summary
    text = fix_text(found[0])
    assert "logs.get('acc')" in text and "TensorFlow 2.0 or later" in text
    assert "disable_v2_behavior" in text and "metrics=['acc']" in text


@pytest.mark.parametrize("python", ["2.7", "3.7"])
def test_a_python_tensorflow_1_had_wheels_for_keeps_the_older_release_a_candidate(
    python: str,
) -> None:
    text = (
        "Traceback (most recent call last):\n"
        f'  File "/usr/lib/python{python}/dist-packages/app/train.py", line 5, in <module>\n'
        "    import missing_thing\n"
        "ImportError: No module named missing_thing\n"
    )
    found = [
        x
        for x in explained(text + _TF1_CHECKPOINT_ACCURACY).findings
        if x.cause == "tf-too-old-for-code"
    ]
    assert len(found) == 1 and "TensorFlow 2.0 or later" in fix_text(found[0])


def test_a_tensorflow_1_shown_logging_acc_is_that_release_older_than_the_code() -> None:
    report = explained(
        '$ python -c "import tensorflow as tf; print(tf.__version__)"\n1.15.0\n'
        + _TF1_CHECKPOINT_ACCURACY
    )
    found = [x for x in report.findings if x.cause == "tf-too-old-for-code"]
    assert len(found) == 1 and found[0].summary.startswith("TensorFlow 1.15.0 logs")
    assert "TensorFlow 2.0 or later" in fix_text(found[0])


@pytest.mark.parametrize(
    ("above", "version"),
    [
        pytest.param(">>> import keras\n>>> keras.__version__\n'2.2.4'\n", "2.2.4", id="shown"),
        pytest.param("", "", id="not-shown"),
    ],
)
def test_multi_backend_keras_logging_acc_is_that_keras_older_than_the_code(
    above: str, version: str
) -> None:
    found = [
        x
        for x in explained(above + _MULTI_BACKEND_ACCURACY).findings
        if x.cause == "dependency-too-old-for-code"
    ]
    assert len(found) == 1
    assert "keras to 2.3.0 or later" in fix_text(found[0])
    assert "TensorFlow 2.0" not in fix_text(found[0])
    # Where no release shows, compiling with metrics=['acc'] is the other candidate.
    assert (version in found[0].summary) if version else ("metrics=['acc']" in fix_text(found[0]))


def test_multi_backend_keras_2_3_shown_logging_acc_is_no_release_reading() -> None:
    # Keras 2.3 logs the name given to compile: only metrics=['acc'] logs acc there.
    report = explained(
        ">>> import keras\nUsing TensorFlow backend.\n>>> keras.__version__\n'2.3.1'\n"
        + _MULTI_BACKEND_ACCURACY
    )
    assert not [x for x in report.findings if x.severity.rank >= Severity.WARNING.rank]


@pytest.mark.parametrize(
    "log",
    [
        # Logged and read under the same name.
        "Epoch 3/3\n1875/1875 [==============================] - 3s 2ms/step - loss: 0.0712 - "
        "accuracy: 0.9781 - val_loss: 0.0702 - val_accuracy: 0.9779\nbest val_accuracy: 0.9779\n",
        # A validation value printed None where no validation data was given: the same name.
        "Epoch 2/2\n782/782 [==============================] - 13s 17ms/step - loss: 1.0540 - "
        "acc: 0.6279\nval_acc: None (no validation data given)\n",
        # A KeyError for the accuracy with no progress bar: which name Keras logs is not shown.
        "Traceback (most recent call last):\n"
        '  File "plot.py", line 4, in <module>\n'
        "    plt.plot(h['val_acc'])\n"
        "KeyError: 'val_acc'\n",
        # No validation data: the callback asks val_acc and the logs hold no val_ value at all.
        "Epoch 1/50\n1875/1875 [==============================] - 3s 2ms/step - loss: 0.2912 - "
        "accuracy: 0.9150\nWARNING:tensorflow:Early stopping conditioned on metric `val_acc` "
        "which is not available. Available metrics are: loss,accuracy\n",
        # Another library's progress lines (PyTorch's, Lightning's), not Keras' bar.
        "Using device: cuda\nEpoch 3/10 - loss: 0.3120 - accuracy: 0.8812\n"
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/train_torch.py", line 88, in <module>\n'
        "    best = results['acc']\n"
        "KeyError: 'acc'\n",
        "[lightning] Epoch 4 | step 900 - loss: 0.2201 - acc: 0.9100\n"
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/report.py", line 12, in <module>\n'
        "    print(report['accuracy'])\n"
        "KeyError: 'accuracy'\n",
        # A healthy run, then the user's own line printing another value as None.
        "Epoch 2/3\n1875/1875 [==============================] - 3s 2ms/step - loss: 0.1401 - "
        "accuracy: 0.9581\ntop1 acc: None (skipped: no eval set)\n",
        "Train on 60000 samples\nEpoch 1/1\n60000/60000 [==============================] - 6s "
        "100us/sample - loss: 0.2912 - acc: 0.9150\ntest accuracy: None\n",
    ],
    ids=[
        "same-name-accuracy",
        "same-name-acc-none",
        "no-progress-bar",
        "no-validation-data",
        "pytorch-progress",
        "lightning-progress",
        "healthy-tf2-own-none",
        "healthy-tf1-own-none",
    ],
)
def test_no_mismatch_shown_is_not_a_metric_name_reading(log: str) -> None:
    assert not [x for x in explained(log).findings if x.severity.rank >= Severity.WARNING.rank]


@pytest.mark.parametrize(
    "above",
    [
        pytest.param(">>> import tensorflow as tf\n>>> tf.__version__\n'2.4.1'\n", id="tf-2.4.1"),
        # A Python no TensorFlow 1.x published wheels for.
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "/home/u/.local/lib/python3.11/site-packages/mylib/train.py", line 5, in '
            "<module>\n    import missing_thing\n"
            "ModuleNotFoundError: No module named 'missing_thing'\n",
            id="python-3.11",
        ),
    ],
)
def test_a_tensorflow_2_logging_acc_names_its_two_causes_not_its_release(above: str) -> None:
    report = explained(above + _TF1_CHECKPOINT_ACCURACY)
    assert not [x for x in report.findings if x.cause == "tf-too-old-for-code"]
    found = [x for x in report.findings if x.cause == "api-default-changed"]
    assert len(found) == 1
    text = fix_text(found[0])
    assert "disable_v2_behavior" in text and "metrics=['acc']" in text
    assert "TensorFlow 2.0 or later" not in text
