"""What the interpreter and the platform around TensorFlow show of themselves: a Python built
from source without a compiled module of its standard library, a file whose Windows path is
past MAX_PATH, and a crash of a command that imports other packages before TensorFlow."""

from __future__ import annotations

import pytest

from tests.explaining import explained, finding_of, fix_text, top_error
from tfdoctor.causes.platform import BUILT_PARTS
from tfdoctor.findings import Severity

_LZMA = (
    "Traceback (most recent call last):\n"
    '  File "{root}/lib/python3.10/site-packages/tensorflow_datasets/core/utils.py", line 3, '
    "in <module>\n"
    "    import lzma\n"
    '  File "{root}/lib/python3.10/lzma.py", line 27, in <module>\n'
    "    from _lzma import *\n"
    "ModuleNotFoundError: No module named '{module}'\n"
)


@pytest.mark.parametrize("module", sorted(BUILT_PARTS))
def test_a_compiled_standard_module_missing_names_its_library_and_the_rebuild(
    module: str,
) -> None:
    top = top_error(explained(_LZMA.format(root="/home/user/.local/py", module=module)))
    assert top.cause == "distro-python-part-missing", top
    fix = fix_text(top)
    apt, dnf, _ = BUILT_PARTS[module]
    assert f"apt-get install {apt}" in fix and f"dnf install {dnf}" in fix
    assert "build the same Python again" in fix


def test_pyenvs_python_is_rebuilt_by_its_own_command() -> None:
    root = "/home/user/.pyenv/versions/3.10.14"
    top = top_error(explained(_LZMA.format(root=root, module="_lzma")))
    assert top.cause == "distro-python-part-missing"
    assert top.fix is not None and top.fix.commands[-1] == "pyenv install --force 3.10.14"
    assert "3.10.14" in top.summary


def test_a_windows_python_missing_a_compiled_module_is_not_read_as_a_source_build() -> None:
    text = _LZMA.format(root="C:/Users/user/venv", module="_ctypes").replace(
        "/lib/python3.10/", "/Lib/"
    )
    assert finding_of(explained(text), "distro-python-part-missing") is None


def test_a_system_pythons_missing_module_is_no_build_to_redo() -> None:
    # /usr/lib/python3.10 is the distribution's own Python: its standard library package holds
    # _lzma, so rebuilding an interpreter would change nothing there.
    text = _LZMA.format(root="/usr", module="_lzma").replace(
        "/usr/lib/python3.10/site-packages/", "/usr/lib/python3/dist-packages/"
    )
    assert finding_of(explained(text), "distro-python-part-missing") is None


def test_a_module_of_no_library_is_not_this_reading() -> None:
    text = _LZMA.format(root="/home/user/.local/py", module="_tensorflow_own")
    assert finding_of(explained(text), "distro-python-part-missing") is None


_FAILED_DIR = (
    "Traceback (most recent call last):\n"
    '  File "C:\\Users\\user\\venv\\lib\\site-packages\\tensorflow_datasets\\core\\download\\'
    'extractor.py", line 120, in _copy\n'
    "    tf.io.gfile.makedirs(os.path.dirname(dest_path))\n"
    "tensorflow.python.framework.errors_impl.NotFoundError: Failed to create a directory: "
    "C:\\Users\\user\\tensorflow_datasets\\downloads\\extracted\\{name}\n"
)


def test_a_file_whose_windows_path_is_past_max_path_is_the_long_path_limit() -> None:
    top = top_error(explained(_FAILED_DIR.format(name="x" * 230)))
    assert top.cause == "windows-long-paths"
    assert "LongPathsEnabled" in fix_text(top) and "short folder" in fix_text(top)


def test_the_same_failure_on_a_short_path_is_not_the_long_path_limit() -> None:
    report = explained(_FAILED_DIR.format(name="sst2"))
    assert finding_of(report, "windows-long-paths") is None


@pytest.mark.parametrize(
    ("command", "order"),
    [
        pytest.param('python3 -c "import torchvision; import tensorflow"', True, id="other-first"),
        pytest.param('python3 -c "import tensorflow; import torchvision"', False, id="tf-first"),
    ],
)
def test_a_crash_after_another_package_was_imported_first_ranks_the_order_then_its_release(
    command: str, order: bool
) -> None:
    report = explained(f"{command}\nSegmentation fault (core dumped)\n")
    top = top_error(report)
    if not order:
        assert top.cause == "import-crash"
        return
    assert top.cause == "import-order-conflict" and top.severity is Severity.ERROR
    assert "torchvision" in fix_text(top) and "Import TensorFlow first" in fix_text(top)
    release = finding_of(report, "import-crash")
    assert release is not None and release.severity is Severity.WARNING
    assert "install another release of torchvision" in fix_text(release)
