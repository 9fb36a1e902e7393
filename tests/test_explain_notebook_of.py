"""The hosted notebook a log shows by its own paths and packages: one table of notebooks, each
row with the plain words its pattern needs, so the quick pass over a text and the pattern that
decides are read from the same row."""

from __future__ import annotations

import pytest

from tfdoctor.explain.revealed import _NOTEBOOKS, _notebook_of

#: One line per mark of each notebook, in the form the program that prints it writes it.
_SHOWN = [
    (
        "colab",
        '  File "/usr/local/lib/python3.10/dist-packages/google/colab/_import_hooks/_cv2.py", '
        "line 78, in load_module",
    ),
    ("colab", '  File "/content/train.py", line 3, in <module>'),
    ("colab", "Successfully installed tensorflow-2.8.2+zzzcolab20220719082949"),
    # /content/ as an option's value and in a path list.
    ("colab", "!python train.py --model_dir=/content/training --alsologtostderr"),
    ("colab", "%env PYTHONPATH=$PYTHONPATH:/content/models/research"),
    # The working directory itself, as a notebook's %cd prints it.
    ("colab", "%cd /content"),
    # Colab's %tensorflow_version magic's words, and the folder of the image's TensorFlow 1.
    ("colab", "TensorFlow 1.x selected."),
    ("colab", "TensorFlow is already loaded. Please restart the runtime to change versions."),
    (
        "colab",
        '  File "/tensorflow-1.15.2/python3.6/tensorflow_core/python/keras/engine/saving.py", '
        "line 1, in <module>",
    ),
    # pip naming Colab's own distribution among what is installed.
    (
        "colab",
        "google-colab 1.0.0 requires pandas~=1.3.5, but you have pandas 2.0.3 which is "
        "incompatible.",
    ),
    (
        "colab",
        "Requirement already satisfied: google-colab in /usr/local/lib/python3.10/dist-packages "
        "(1.0.0)",
    ),
    ("colab", "WARNING: The following packages were previously imported in this runtime:"),
    (
        "colab",
        "Looking in indexes: https://pypi.org/simple, "
        "https://us-python.pkg.dev/colab-wheels/public/simple/",
    ),
    (
        "colab",
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
        "library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No "
        "such file or directory; LD_LIBRARY_PATH: /usr/lib64-nvidia",
    ),
    ("kaggle", '  File "/kaggle/working/train.py", line 5, in <module>'),
    ("kaggle", "FileNotFoundError: [Errno 2] No such file or directory: '/kaggle/input/a.csv'"),
    (
        "sagemaker",
        '  File "/home/ec2-user/anaconda3/envs/tensorflow2_p310/lib/python3.10/site-packages/'
        'tensorflow/__init__.py", line 37, in <module>',
    ),
    ("sagemaker", '  File "/opt/ml/code/train.py", line 12, in <module>'),
    ("sagemaker", '  File "/home/sagemaker-user/model.py", line 2, in <module>'),
    ("databricks", "/databricks/python/bin/pip install tensorflow==2.15.0"),
    ("vertex", "cat: /opt/deeplearning/metadata/env_version: No such file or directory"),
]


@pytest.mark.parametrize(("name", "line"), _SHOWN)
def test_each_mark_names_its_notebook_through_its_rows_words(name: str, line: str) -> None:
    assert _notebook_of(line, ()) == name
    assert _notebook_of("", (line,)) == name
    (row,) = [x for x in _NOTEBOOKS if x.pattern.search(line)]
    # The quick pass reads the same row: a text its pattern matches holds one of its words.
    assert row.name == name and any(word in line for word in row.words)


def test_every_row_of_the_table_has_a_mark_shown_and_its_words() -> None:
    assert {name for name, _ in _SHOWN} == {row.name for row in _NOTEBOOKS}
    assert all(row.words for row in _NOTEBOOKS)


def test_a_word_without_the_notebooks_own_path_shows_none() -> None:
    # The words alone are no mark: a user writing of another machine.
    assert _notebook_of("it works on colab, with /kaggle/ datasets", ()) is None
    assert _notebook_of('  File "/home/me/train.py", line 3, in <module>', ()) is None


@pytest.mark.parametrize(
    "line",
    [
        # A Windows folder of that name, after its drive letter.
        '  File "C:/content/train.py", line 3, in <module>',
        # A web address's path.
        "Downloading https://example.org/content/model.h5",
        "See https://example.org/content for the model",
        # A folder that only begins with the word.
        "ls /contents/",
        # Asking pip for Colab's package says nothing of where pip runs.
        "pip install google-colab",
        "Collecting google-colab",
        # The magic run where IPython does not have it.
        "UsageError: Line magic function `%tensorflow_version` not found.",
        # Cloud Datalab's container keeps its notebooks under /content/datalab.
        '  File "/content/datalab/notebooks/train.py", line 3, in <module>',
    ],
    ids=[
        "drive-letter",
        "url",
        "url-end",
        "other-folder",
        "install-asked",
        "collecting",
        "magic-elsewhere",
        "datalab",
    ],
)
def test_the_same_words_elsewhere_show_no_notebook(line: str) -> None:
    assert _notebook_of(line, ()) is None


def test_two_notebooks_shown_name_neither() -> None:
    both = '  File "/content/train.py", line 3\n  File "/kaggle/working/a.py", line 1\n'
    assert _notebook_of(both, ()) is None
