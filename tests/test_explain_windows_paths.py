"""The same failure pasted from Windows reads as from POSIX: a Python's version in a Windows
install's folder (``Python312\\Lib\\``), and the robustness bench's ``windows`` paste, which
writes a log's Python paths as the same install's on Windows."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Optional

import pytest

from tests.explaining import SIGNATURES, explained
from tfdoctor.evidence.traceback import path_python

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_robust

#: tf-keras or keras reaching for a private name of TensorFlow's, with a traceback cut before
#: its exception: which Keras 2 the machine has is read from the Python a path names (Python
#: 3.12 runs only TensorFlow lines whose tf.keras is Keras 3, so tf-keras).
_INTERNAL = (
    "module 'tensorflow._api.v2.compat.v2.__internal__' has no attribute "
    "'register_load_context_function'\n\n"
    "Traceback (most recent call last):\n"
    '  File "{path}", line 90, in import_module\n'
    "    return _bootstrap._gcd_import(name[level:], package, level)\n"
    '  File "<frozen importlib._bootstrap>", line 1387, in _gcd_import\n'
)


@pytest.mark.parametrize(
    "path",
    [
        "/home/ann/venv/lib/python3.12/site-packages/app/x.py",
        "C:\\Users\\ann\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\importlib\\__init__.py",
        "c:\\users\\ann\\appdata\\local\\programs\\python\\python312\\lib\\site-packages\\app\\x.py",
        "C:\\Users\\ann\\AppData\\Roaming\\Python\\Python312\\site-packages\\app\\x.py",
        "C:\\Program Files\\WindowsApps\\PythonSoftwareFoundation.Python.3.12_3.12.2544.0_x64__"
        "qbz5n2kfra8p0\\Lib\\importlib\\__init__.py",
    ],
    ids=[
        "posix-venv",
        "windows-stdlib",
        "windows-lower-case",
        "windows-user-site",
        "microsoft-store-stdlib",
    ],
)
def test_the_python_a_windows_installs_folder_names_decides_as_a_posix_path(path: str) -> None:
    report = explained(_INTERNAL.replace("{path}", path))
    assert [x.cause for x in report.findings][:1] == ["tf-keras-mismatch"]


@pytest.mark.parametrize(
    "path",
    [
        "C:\\Users\\ann\\proj\\venv\\Lib\\app\\x.py",
        "C:\\Users\\ann\\miniconda3\\envs\\python312\\Lib\\site-packages\\app\\x.py",
    ],
    ids=["venv", "conda-env-named-as-a-python"],
)
def test_a_venvs_or_conda_envs_lib_on_windows_names_no_python(path: str) -> None:
    report = explained(_INTERNAL.replace("{path}", path))
    assert "tf-keras-mismatch" not in [x.cause for x in report.findings]


@pytest.mark.parametrize(
    ("line", "tag"),
    [
        (
            "c:\\users\\a\\appdata\\local\\programs\\python\\python310\\lib\\site-packages\\pip",
            "310",
        ),
        (
            "OSError('C:\\\\Users\\\\a\\\\AppData\\\\Roaming\\\\Python\\\\Python38\\\\site-packages\\\\x')",
            "38",
        ),
        ("C:\\Users\\a\\miniconda3\\envs\\python37\\Lib\\site-packages\\x.py", None),
        ("C:\\\\Users\\\\a\\\\Envs\\\\python37\\\\Lib\\\\site-packages\\\\x.py", None),
    ],
    ids=["lower-case", "repr", "conda-env-named-as-a-python", "an-envs-name-in-a-repr"],
)
def test_the_windows_signature_reads_an_installs_folder_only(line: str, tag: Optional[str]) -> None:
    match = re.search(SIGNATURES.by_id("site-packages-python-windows").pattern, line)
    assert (match and match.group("path_python_tag")) == tag


@pytest.mark.parametrize(
    ("path", "version"),
    [
        ("/usr/lib/python3.8/importlib/__init__.py", "3.8"),
        ("C:\\Program Files\\Python310\\Lib\\site-packages\\x.py", "3.10"),
        ("c:\\users\\a\\appdata\\local\\programs\\python\\python37-32\\lib\\x.py", "3.7"),
        ("C:\\Users\\a\\miniconda3\\envs\\tf\\Lib\\site-packages\\x.py", None),
        ("/home/a/python3.8/x.py", "3.8"),
        ("C:\\Users\\a\\miniconda3\\envs\\python37\\Lib\\site-packages\\x.py", None),
        ("C:\\\\Users\\\\a\\\\Envs\\\\python37\\\\Lib\\\\x.py", None),
        ("/home/a/miniconda3/envs/python37/lib/python3.6/site-packages/x.py", "3.6"),
        ("C:\\\\Program Files\\\\Python310\\\\Lib\\\\x.py", "3.10"),
        (
            "C:\\Users\\a\\AppData\\Local\\Packages\\PythonSoftwareFoundation.Python.3.9_"
            "qbz5n2kfra8p0\\LocalCache\\x.py",
            "3.9",
        ),
        ("/usr/local/lib/python2.7/dist-packages/x.py", "2.7"),
        ("C:\\Python27\\Lib\\site-packages\\x.py", "2.7"),
    ],
    ids=[
        "posix",
        "windows",
        "windows-32-bit",
        "conda-windows",
        "posix-folder",
        "conda-env-named-as-a-python",
        "virtualenvwrapper-env-named-as-a-python-in-a-repr",
        "posix-lib-over-an-envs-name",
        "windows-in-a-repr",
        "microsoft-store-user-data",
        "posix-python-2",
        "windows-python-2",
    ],
)
def test_the_python_a_path_names(path: str, version: Optional[str]) -> None:
    assert path_python(path) == version


def _windows(text: str) -> str:
    return bench_robust.windows(text, random.Random(2))


#: Where the paste picks a name or a spelling: the user's (where the path has none) and the
#: case of ``Lib`` (Windows' file system ignores it; tracebacks show either).
_CHOSEN = (
    (re.compile(r"^C:\\Users\\(?:user|jdoe|ml)\\"), "C:\\Users\\NAME\\"),
    (re.compile(r"\\lib\\"), "\\Lib\\"),
)


@pytest.mark.parametrize(
    ("posix", "windows"),
    [
        (
            "/home/ann/venv/lib/python3.8/site-packages/torch/x.py",
            "C:\\Users\\ann\\venv\\Lib\\site-packages\\torch\\x.py",
        ),
        (
            "/opt/conda/envs/tf/lib/python3.10/site-packages/tensorflow/x.py",
            "C:\\Users\\NAME\\conda\\envs\\tf\\Lib\\site-packages\\tensorflow\\x.py",
        ),
        (
            "/home/ann/anaconda3/lib/python3.9/site-packages/keras/x.py",
            "C:\\Users\\ann\\anaconda3\\Lib\\site-packages\\keras\\x.py",
        ),
        (
            "/usr/local/lib/python3.8/dist-packages/keras/x.py",
            "C:\\Users\\NAME\\AppData\\Local\\Programs\\Python\\Python38\\Lib\\site-packages"
            "\\keras\\x.py",
        ),
        (
            "/home/ann/.local/lib/python3.8/site-packages/keras/x.py",
            "C:\\Users\\ann\\AppData\\Roaming\\Python\\Python38\\site-packages\\keras\\x.py",
        ),
        ("/home/ann/proj/train.py", "C:\\Users\\ann\\proj\\train.py"),
        (
            ".tox/py38/lib/python3.8/site-packages/torch/x.py",
            ".tox\\py38\\Lib\\site-packages\\torch\\x.py",
        ),
    ],
    ids=["venv", "conda-env", "conda-root", "system", "user-site", "project", "tox"],
)
def test_the_windows_paste_writes_each_install_as_windows_lays_it_out(
    posix: str, windows: str
) -> None:
    # The versions beside the path keep the paste from leaving the log as it is.
    got = _windows(f'  File "{posix}", line 3\nPython 3.8, 3.9, 3.10\n').splitlines()[0]
    path = got.removeprefix('  File "').removesuffix('", line 3')
    for pattern, fixed in _CHOSEN:
        path = pattern.sub(fixed.replace("\\", "\\\\"), path)
    assert path == windows


def test_the_windows_paste_doubles_backslashes_in_an_exceptions_repr() -> None:
    line = (
        "E   pkg.Error: ('no backend', ImportError(\"cannot import name 'A' from 'b' "
        '(/home/ann/venv/lib/python3.8/site-packages/b/__init__.py)"))\n'
        "Python 3.8\n"
    )
    assert "(C:\\\\Users\\\\ann\\\\venv\\\\" in _windows(line)


@pytest.mark.parametrize(
    "log",
    [
        "ImportError: libcudart.so.11.0: cannot open shared object file\n"
        '  File "/home/a/venv/lib/python3.8/site-packages/tensorflow/x.py", line 1\n',
        '  File "/home/a/venv/lib/python3.8/site-packages/tensorflow/x.py", line 1\n'
        "$ docker run --rm -it image python x.py\n",
        # The only word of the Python's version is the venv's folder, which Windows' lacks.
        '  File "/home/a/venv/lib/python3.8/site-packages/tensorflow/x.py", line 1\n',
    ],
    ids=["shared-object", "container", "version-only-in-a-venvs-path"],
)
def test_the_windows_paste_leaves_a_log_whose_cause_or_facts_it_would_change(log: str) -> None:
    assert _windows(log) == log


@pytest.mark.parametrize(
    "root",
    [
        "/home/ann/venv/lib/python3.8/site-packages/",
        "C:\\Users\\ann\\proj\\venv\\Lib\\site-packages\\",
        "c:\\users\\ann\\appdata\\local\\programs\\python\\python38\\lib\\site-packages\\",
    ],
    ids=["posix", "windows-venv", "windows-lower-case"],
)
def test_pytests_short_frames_and_the_import_errors_path_read_alike_on_windows(root: str) -> None:
    sep = "/" if root.startswith("/") else "\\"
    log = (
        "_ ERROR collecting tests/test_a.py _\n"
        f"{root}torch{sep}utils{sep}tensorboard{sep}__init__.py:10: in <module>\n"
        "    from .writer import FileWriter, SummaryWriter  # noqa: F401\n"
        f"{root}tensorboard{sep}compat{sep}proto{sep}summary_pb2.py:5: in <module>\n"
        "    from google.protobuf.internal import builder as _builder\n"
        "E   ImportError: cannot import name 'builder' from 'google.protobuf.internal' "
        f"({root}google{sep}protobuf{sep}internal{sep}__init__.py)\n"
    )
    assert [x.cause for x in explained(log).findings][:1] == ["protobuf-incompatible"]
