"""A call that meets a changed behaviour (api-default-changed), or an argument a release
removed as scan's rule of the signature's name words it (api-removed), is fixed where it was
made: the user's own line gets the edit; an installed package's line gets that package's
release made for the installed release, or the release before the change, never an edit of a
file under site-packages. The same message gives different fixes by whose frame made the
call."""

from __future__ import annotations

import pytest

from tests.explaining import SIGNATURES, explained, fix_text, renamed
from tfdoctor.findings import Finding, Report


def _changed(report: Report) -> Finding:
    """The report's api-default-changed finding."""
    found = [x for x in report.findings if x.cause == "api-default-changed"]
    assert found, [(x.id, x.severity.value) for x in report.findings]
    return found[0]


_NUMPY = "/home/user/.venv/lib/python3.7/site-packages/numpy/lib"


def _np_load(caller: str, code: str) -> str:
    """np.load refusing object arrays, asked by the frame ``caller`` running ``code``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/run.py", line 9, in <module>\n'
        "    main()\n"
        f'  File "{caller}", line 58, in load\n'
        f"    {code}\n"
        f'  File "{_NUMPY}/npyio.py", line 453, in load\n'
        "    pickle_kwargs=pickle_kwargs)\n"
        f'  File "{_NUMPY}/format.py", line 722, in read_array\n'
        '    raise ValueError("Object arrays cannot be loaded when "\n'
        "ValueError: Object arrays cannot be loaded when allow_pickle=False\n"
    )


def test_the_users_own_np_load_is_told_the_keyword() -> None:
    fix = fix_text(_changed(explained(_np_load("/home/user/proj/weights.py", "np.load(p)"))))
    assert "np.load(path, allow_pickle=True)" in fix
    assert "own code (" not in fix


def test_a_packages_np_load_is_told_its_release_or_numpy_before_the_change() -> None:
    site = "/home/user/.venv/lib/python3.7/site-packages/facekit/detect.py"
    fix = fix_text(_changed(explained(_np_load(site, "np.load(p)"))))
    assert "facekit's own code" in fix and site in fix
    assert "numpy<1.16.3" in fix and "numpy 1.16.3 and later" in fix
    # No PyPI name is made up from the directory: the command looks the owner up.
    assert "pip install --upgrade facekit" not in fix and "b'facekit/'" in fix


def test_a_package_of_tensorflows_family_is_told_its_release_for_the_installed_one() -> None:
    # Keras' releases go with TensorFlow's: its newest is made for a later TensorFlow (Keras
    # 2.11 for 2.11, Keras 3 for 2.16), so no bare upgrade of it is offered.
    site = "/home/user/.venv/lib/python3.7/site-packages/keras/datasets/imdb.py"
    found = _changed(explained(_np_load(site, "np.load(path)")))
    fix = fix_text(found)
    assert "keras's own code" in fix and "numpy<1.16.3" in fix
    assert "keras release built for" in fix
    commands = found.fix.commands if found.fix is not None else ()
    assert commands and not any("--upgrade" in c and "keras" in c for c in commands)


def test_a_changed_numpy_default_in_a_package_speaks_of_numpy_only() -> None:
    site = "/home/user/.venv/lib/python3.7/site-packages/facekit/detect.py"
    fix = fix_text(_changed(explained(_np_load(site, "np.load(p)"))))
    assert "optimizer" not in fix


def test_the_change_is_read_from_the_signatures_data_not_its_id() -> None:
    # A line of the same family under another id: its `changed` row dates the change.
    site = "/home/user/.venv/lib/python3.7/site-packages/facekit/detect.py"
    report = explained(
        _np_load(site, "np.load(p)"),
        signatures=renamed(
            "numpy-load-allow-pickle", SIGNATURES.by_id("numpy-load-allow-pickle").tags
        ),
    )
    assert "numpy<1.16.3" in fix_text(_changed(report))


def _unbuilt(caller: str) -> str:
    """The optimizer of TensorFlow 2.11 refusing a variable, stepped by the frame ``caller``
    (Windows paths, a conda environment's ``Lib``)."""
    keras = r"C:\Users\user\anaconda3\envs\tf\Lib\site-packages\keras\optimizers"
    return (
        "Traceback (most recent call last):\n"
        r'  File "C:\Users\user\proj\train.py", line 30, in <module>' + "\n"
        "    model.fit(xs, ys, epochs=3)\n"
        f'  File "{caller}", line 140, in train_step\n'
        "    self.optimizer.apply_gradients(zip(grads, self.encoder.trainable_variables))\n"
        rf'  File "{keras}\optimizer_experimental\optimizer.py", line 1140, in apply_gradients'
        "\n    return super().apply_gradients(grads_and_vars, name=name)\n"
        "KeyError: 'The optimizer cannot recognize variable dense_1/kernel:0. This usually "
        "means you are trying to call the optimizer to update different parts of the model "
        "separately. Please call `optimizer.build(variables)` with the full list of trainable "
        "variables before the training loop or use legacy optimizer "
        "`tf.keras.optimizers.legacy.Adam.'\n"
    )


@pytest.mark.parametrize(
    ("caller", "library"),
    [
        (r"C:\Users\user\proj\dann.py", False),
        (r"C:\Users\user\anaconda3\envs\tf\Lib\site-packages\domainkit\dann.py", True),
    ],
    ids=["own-code", "conda-site-packages"],
)
def test_the_optimizers_change_on_windows(caller: str, library: bool) -> None:
    fix = fix_text(_changed(explained(_unbuilt(caller))))
    assert ("domainkit's own code" in fix) is library
    assert ("tensorflow<2.11" in fix) is library
    # Both keep the words of what changed: the legacy optimizer.
    assert "optimizers.legacy" in fix


def _get_updates(caller: str, function: str) -> str:
    """Keras' TensorFlow 1 style training loop asking the new optimizer for get_updates, from
    the frame ``caller``."""
    keras = "/usr/local/lib/python3.10/dist-packages/keras/src/engine"
    return (
        "Traceback (most recent call last):\n"
        '  File "/content/proj/train.py", line 294, in <module>\n'
        "    run()\n"
        f'  File "{caller}", line 2371, in {function}\n'
        "    self.keras_model.fit(generator, epochs=epochs)\n"
        f'  File "{keras}/training_v1.py", line 856, in fit\n'
        "    return func.fit(\n"
        f'  File "{keras}/training_v1.py", line 2284, in _make_train_function\n'
        "    updates = self.optimizer.get_updates(\n"
        "AttributeError: 'SGD' object has no attribute 'get_updates'.\n"
    )


def test_a_rules_edit_stays_with_the_users_own_line() -> None:
    fix = fix_text(_changed(explained(_get_updates("/content/proj/model.py", "train"))))
    assert fix.startswith("Use tf.keras.optimizers.legacy")
    assert "own code (" not in fix


def test_a_rules_edit_in_an_eggs_code_becomes_its_release() -> None:
    egg = "/usr/local/lib/python3.10/dist-packages/segkit-1.0-py3.10.egg/segkit/model.py"
    fix = fix_text(_changed(explained(_get_updates(egg, "train"))))
    assert fix.startswith("The call is segkit's own code") and "tensorflow<2.11" in fix
    assert "optimizers.legacy" in fix


@pytest.mark.parametrize(("python", "named"), [("3.10", False), ("3.12", True)])
def test_the_release_before_the_change_names_a_python_it_installs_on(
    python: str, named: bool
) -> None:
    # TensorFlow 2.10, the last line before 2.11, has wheels up to Python 3.10 (the matrix).
    egg = f"/usr/local/lib/python{python}/dist-packages/segkit/model.py"
    text = _get_updates(egg, "train").replace("python3.10", f"python{python}")
    fix = fix_text(_changed(explained(text)))
    assert "tensorflow<2.11" in fix
    assert (
        "with Python 3.10 or older, as tensorflow 2.10 has no wheel for Python 3.12" in fix
    ) is named


def test_a_message_without_frames_keeps_the_edit() -> None:
    text = (
        "KeyError: 'The optimizer cannot recognize variable dense_58/kernel:0. This usually "
        "means you are trying to call the optimizer to update different parts of the model "
        "separately. Please call `optimizer.build(variables)` with the full list of trainable "
        "variables before the training loop or use legacy optimizer "
        "`tf.keras.optimizers.legacy.Adam.'\n"
    )
    fix = fix_text(_changed(explained(text)))
    assert "optimizer.build(model.trainable_variables)" in fix and "own code (" not in fix


def _decay(caller: str) -> str:
    """The optimizer of TensorFlow 2.11 refusing `decay`, passed by the frame ``caller``."""
    keras = "/home/user/.venv/lib/python3.9/site-packages/keras/optimizers/optimizer_experimental"
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 5, in <module>\n'
        "    model = build(cfg)\n"
        f'  File "{caller}", line 40, in build\n'
        "    opt = tf.keras.optimizers.Adam(lr, decay=1e-6)\n"
        f'  File "{keras}/adam.py", line 104, in __init__\n'
        "    super().__init__(\n"
        f'  File "{keras}/optimizer.py", line 134, in _process_kwargs\n'
        "    raise ValueError(\n"
        "ValueError: decay is deprecated in the new Keras optimizer, please check the docstring "
        "for valid arguments, or use the legacy optimizer, e.g., tf.keras.optimizers.legacy.Adam.\n"
    )


@pytest.mark.parametrize(
    ("caller", "library"),
    [
        ("/home/user/proj/models.py", False),
        ("/home/user/.venv/lib/python3.9/site-packages/ctrkit/models.py", True),
    ],
    ids=["own-code", "site-packages"],
)
def test_a_removed_argument_a_signature_reads_follows_the_caller_too(
    caller: str, library: bool
) -> None:
    found = [x for x in explained(_decay(caller)).findings if x.cause == "api-removed"]
    assert found
    fix = fix_text(found[0])
    assert ("ctrkit's own code" in fix) is library and ("tensorflow<2.11" in fix) is library
    assert fix.startswith("Pass a schedule as learning_rate") is not library
