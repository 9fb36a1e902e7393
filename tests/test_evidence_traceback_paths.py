"""What an installed file's path says of the module it runs: whether the module is its
library's TensorFlow front end (a folder or file below the top-level package named for
TensorFlow), which makes TensorFlow the likeliest callee of that module's calls. The import
error a library's own exception wraps, as repr prints it among its arguments. And the
versioned interpreter command a shell line ran."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.evidence.traceback import (
    Frame,
    checkout_of,
    checkout_package,
    code_package,
    cut_import,
    entered_package,
    installed_package,
    python_command,
    read_tracebacks,
    tensorflow_facing,
    users_own,
    wrapped_import_error,
)


@pytest.mark.parametrize(
    "path",
    [
        "/usr/lib/python3.8/site-packages/coremltools/converters/mil/frontend/tensorflow2/load.py",
        "/opt/venv/lib/python3.9/site-packages/jax/experimental/jax2tf/jax2tf.py",
        "/opt/conda/lib/python3.7/site-packages/ray/rllib/utils/tf_ops.py",
        "C:\\Users\\me\\Anaconda3\\envs\\x\\Lib\\site-packages\\kit\\backend\\tf\\ops.py",
        "/srv/env/lib/python3.6/site-packages/kit-1.0-py3.6.egg/kit/layers_tf.py",
    ],
    ids=["tensorflow2-folder", "jax2tf-folder", "tf-ops-file", "windows-tf-folder", "egg-tf-file"],
)
def test_a_module_named_for_tensorflow_is_its_front_end(path: str) -> None:
    assert tensorflow_facing(path)


@pytest.mark.parametrize(
    "path",
    [
        # The top-level package's own name says nothing of one module.
        "/opt/venv/lib/python3.9/site-packages/tf_agents/environments/py_environment.py",
        "/opt/venv/lib/python3.9/site-packages/jax/_src/lax/convolution.py",
        "/opt/venv/lib/python3.9/site-packages/kit/tfx.py",
        # The user's own files are no installed library's.
        "/home/me/proj/tf/ops.py",
    ],
    ids=["top-level-name", "other-module", "tf-prefix-word", "users-file"],
)
def test_other_modules_are_not(path: str) -> None:
    assert not tensorflow_facing(path)


@pytest.mark.parametrize(
    "path, package",
    [
        # A zipped egg's code keeps the file name bdist_egg compiled it under.
        ("build/bdist.macosx-10.12-x86_64/egg/kit/optimizers/ftml.py", "kit"),
        ("C:\\src\\build\\bdist.win-amd64\\egg\\kit\\layers.py", "kit"),
        ("/srv/env/lib/python3.6/site-packages/kit-1.0-py3.6.egg/kit/layers.py", "kit"),
        # A project's own build folder that is no egg's.
        ("/home/me/proj/build/lib/kit/layers.py", None),
    ],
    ids=["zipped-egg", "zipped-egg-windows", "egg-folder", "build-lib"],
)
def test_an_eggs_file_is_its_packages(path: str, package: Optional[str]) -> None:
    assert installed_package(path) == package


def test_an_import_error_a_librarys_exception_wraps_is_read_with_its_escapes_undone() -> None:
    message = (
        "('There was a problem importing TensorFlow. The tensorflow backend cannot be used.', "
        "ImportError(\"cannot import name 'Pickler' from 'picklekit.core' "
        '(C:\\\\envs\\\\x\\\\lib\\\\site-packages\\\\picklekit\\\\core.py)"))'
    )
    assert wrapped_import_error(message) == (
        "cannot import name 'Pickler' from 'picklekit.core' "
        "(C:\\envs\\x\\lib\\site-packages\\picklekit\\core.py)"
    )


@pytest.mark.parametrize(
    "message",
    [
        "cannot import name 'Pickler' from 'picklekit.core'",
        "ValueError(\"bad value 'x'\")",
        "ImportError('no quotes inside')",
    ],
    ids=["plain-message", "other-error", "single-quoted-repr"],
)
def test_other_messages_wrap_no_import_error(message: str) -> None:
    assert wrapped_import_error(message) is None


@pytest.mark.parametrize(
    ("path", "own"),
    [
        ("/home/u/proj/model.py", True),
        ("C:\\Users\\u\\proj\\model.py", True),
        ("<ipython-input-3-5f1c>", True),
        ("/opt/venv/lib/python3.8/site-packages/gpflow/models/training.py", False),
        ("/usr/lib/python3.8/importlib/__init__.py", False),
        ("C:\\Python39\\Lib\\importlib\\__init__.py", False),
        ("<frozen importlib._bootstrap>", False),
        ("<string>", False),
        ("/tmp/__autograph_generated_filek3j2l1.py", False),
        ("/tmp/tmpab12cd34.py", False),
        ("/home/u/proj/tmp_script.py", True),
    ],
    ids=[
        "script",
        "windows-script",
        "notebook-cell",
        "installed",
        "stdlib",
        "windows-stdlib",
        "frozen",
        "exec",
        "autograph",
        "autograph-temporary-file",
        "script-named-tmp",
    ],
)
def test_the_users_own_code_by_its_path(path: str, own: bool) -> None:
    assert users_own(path) is own


def test_a_traceback_cut_at_an_import_is_read_with_its_module() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/bin/train", line 5, in <module>\n'
        "    from trainer.main import main\n"
    )
    cut = cut_import(text)
    assert cut is not None
    assert (cut.path, cut.code, cut.module) == (
        "/opt/conda/bin/train",
        "from trainer.main import main",
        "trainer",
    )


def test_no_cut_import_where_a_message_follows_or_the_line_imports_nothing() -> None:
    frame = 'Traceback (most recent call last):\n  File "/x/run.py", line 1, in <module>\n'
    assert cut_import(frame + "    import trainer\nImportError: DLL load failed\n") is None
    assert cut_import(frame + "    trainer.run()\n") is None
    assert cut_import("    import trainer\n") is None


@pytest.mark.parametrize(
    ("text", "command"),
    [
        pytest.param("$ python3 train.py\n", "python3", id="prompt-script"),
        pytest.param('python3.11 -c "import tensorflow"\n', "python3.11", id="minor-inline"),
        pytest.param(
            "PS C:\\proj> py -3.10 -m pip install tensorflow\n", "py -3.10", id="launcher"
        ),
        pytest.param("$ python train.py\n", None, id="plain-python"),
        pytest.param("python3: can't open file 'x.py'\n", None, id="program-name-in-a-message"),
        pytest.param("/usr/bin/python3 --version\n", None, id="no-code-run"),
        # The line that ran the failing code, not an install or a venv made before it: a
        # `python3 -m pip` before `python train.py` put TensorFlow into another Python.
        pytest.param(
            "$ python3 -m pip install tensorflow\n$ python train.py\n"
            "ModuleNotFoundError: No module named 'tensorflow'\n$ python3 -m pip list\n",
            None,
            id="plain-python-ran-the-code",
        ),
        pytest.param(
            "PS C:\\proj> py -3.10 -m venv .venv\n(.venv) PS C:\\proj> python train.py\n",
            None,
            id="windows-venv-made-by-the-launcher",
        ),
        pytest.param(
            "$ pip install tensorflow\n$ python3.11 train.py\n"
            "ModuleNotFoundError: No module named 'tensorflow'\n",
            "python3.11",
            id="last-before-the-failure",
        ),
    ],
)
def test_the_versioned_interpreter_a_shell_line_ran(text: str, command: Optional[str]) -> None:
    assert python_command(text) == command


def test_pytests_long_report_gives_the_innermost_frame_after_the_error() -> None:
    # pytest's long report: the innermost frame's place comes after the exception's "E" line
    # (_pytest/_code/code.py, ReprFileLocation with the exception's type name).
    text = (
        "keras/src/ops/numpy.py:3584: in matmul\n"
        "    return backend.numpy.matmul(x1, x2)\n"
        "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n"
        "\n"
        ">   def matmul(x1, x2):\n"
        "E   AttributeError: 'Parameter' object has no attribute 'fget'\n"
        "\n"
        "keras/src/backend/torch/numpy.py:60: AttributeError\n"
    )
    (tb,) = read_tracebacks(text)
    assert [f.path for f in tb.frames] == [
        "keras/src/ops/numpy.py",
        "keras/src/backend/torch/numpy.py",
    ]
    assert tb.frames[-1].line == 60


def test_a_place_line_of_another_exception_type_is_no_frame() -> None:
    text = (
        "keras/src/ops/numpy.py:3584: in matmul\n"
        "    return backend.numpy.matmul(x1, x2)\n"
        "E   AttributeError: 'Parameter' object has no attribute 'fget'\n"
        "\n"
        "keras/src/backend/torch/numpy.py:60: TypeError\n"
    )
    (tb,) = read_tracebacks(text)
    assert [f.path for f in tb.frames] == ["keras/src/ops/numpy.py"]


def test_autographs_frames_before_tf_2_7_are_read_with_their_mark() -> None:
    # TensorFlow 2.2 to 2.6's "in user code:" frames: '    {}:{} {}' and "  *" for a function
    # AutoGraph converted (autograph/pyct/error_utils.py); the source line indented below.
    text = (
        "TypeError: in user code:\n"
        "\n"
        "    /srv/env/lib/python3.8/site-packages/blocks/norm.py:40 call  *\n"
        "        return self.inner(x, scale=2.0, **kwargs)\n"
        "    /srv/env/lib/python3.8/site-packages/blocks/util.py:12 helper\n"
        "        return f(x)\n"
        "\n"
        "    TypeError: f() got an unexpected keyword argument 'scale'\n"
    )
    tb = read_tracebacks(text)[-1]
    assert [(f.path, f.line, f.function, f.converted) for f in tb.frames] == [
        ("/srv/env/lib/python3.8/site-packages/blocks/norm.py", 40, "call", True),
        ("/srv/env/lib/python3.8/site-packages/blocks/util.py", 12, "helper", False),
    ]
    assert tb.frames[0].code == "return self.inner(x, scale=2.0, **kwargs)"


def test_autographs_frames_from_tf_2_7_keep_the_function_apart_from_the_mark() -> None:
    text = (
        "TypeError: in user code:\n"
        "\n"
        '    File "/srv/env/lib/python3.9/site-packages/blocks/norm.py", line 40, in call  *\n'
        "        return self.inner(x, scale=2.0, **kwargs)\n"
        '    File "/srv/env/lib/python3.9/site-packages/blocks/util.py", line 12, in helper  **\n'
        "        return f(x)\n"
        "\n"
        "    TypeError: f() got an unexpected keyword argument 'scale'\n"
    )
    tb = read_tracebacks(text)[-1]
    assert [(f.function, f.converted) for f in tb.frames] == [("call", True), ("helper", False)]


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("train.py:45 epoch\n", id="flush-left-unmarked"),
        pytest.param("    see train.py:45 for the loop\n", id="words-around"),
    ],
)
def test_a_place_without_autographs_form_is_no_frame(line: str) -> None:
    (tb,) = read_tracebacks(f"{line}ValueError: bad value\n")
    assert tb.frames == ()


def test_an_ipython_frame_of_a_script_without_a_suffix_is_a_frame() -> None:
    # IPython 8 prints any file's frame as `File NAME:LINE, in FUNC` (ultratb's
    # _format_filename), a console script's too; its home folder as `~`.
    text = (
        "---------------------------------------------------------------------------\n"
        "ImportError                               Traceback (most recent call last)\n"
        "File ~/venv/bin/mytool:5, in <module>\n"
        "----> 5 from mytool.cli import entry\n"
        "\n"
        "File /opt/app/mytool/cli.py:3, in <module>\n"
        "----> 3 from mytool.core import helper\n"
        "\n"
        "ImportError: cannot import name 'helper'\n"
    )
    (tb,) = read_tracebacks(text)
    assert [(f.path, f.line, f.function) for f in tb.frames] == [
        ("~/venv/bin/mytool", 5, "<module>"),
        ("/opt/app/mytool/cli.py", 3, "<module>"),
    ]


def test_a_line_that_names_a_file_and_a_line_alone_is_no_ipython_frame() -> None:
    # Without a path's start, or without the function IPython names after it, a "File x:3"
    # is no frame: a line of prose or another program's.
    text = "File notes:3, in short\nFile /etc/app.conf:3\nValueError: bad value\n"
    (tb,) = read_tracebacks(text)
    assert tb.frames == ()


_CUT_AFTER_NOTE = (
    "XXX lineno: 12, opcode: 0\n"
    "Traceback (most recent call last):\n"
    '  File "serve.py", line 4, in <module>\n'
    "    predict = restore(blob)\n"
    '  File "/opt/svc/lib/python3.8/site-packages/svc/runner.py", line 30, in restore\n'
    "    return fn(arg)\n"
)


def test_cpythons_opcode_note_names_the_exception_of_a_traceback_cut_before_it() -> None:
    # ceval.c (2.x-3.11) prints the note, then raises SystemError('unknown opcode').
    (tb,) = read_tracebacks(_CUT_AFTER_NOTE)
    assert (tb.type, tb.message, tb.note) == (
        "SystemError",
        "unknown opcode",
        "XXX lineno: 12, opcode: 0",
    )
    assert [f.function for f in tb.frames] == ["<module>", "restore"]
    assert tb.where == "line 1"


def test_a_cut_traceback_without_the_note_or_after_its_own_exception_names_nothing() -> None:
    assert read_tracebacks(_CUT_AFTER_NOTE.split("\n", 1)[1]) == []
    # The note belongs to the exception read after it, not to a later cut traceback.
    earlier = (
        _CUT_AFTER_NOTE.replace("    return fn(arg)\n", "    return fn(arg)\nValueError: no\n")
        + _CUT_AFTER_NOTE.split("\n", 1)[1]
    )
    assert [(tb.type, tb.note) for tb in read_tracebacks(earlier)] == [("ValueError", "")]


# --- a package's source tree outside site-packages -------------------------------------------


def _frames(*rows: tuple[str, str]) -> list[Frame]:
    return [Frame(path, 1, "<module>", code) for path, code in rows]


def test_a_source_tree_imported_through_its_init_is_that_packages() -> None:
    frames = _frames(
        ("<string>", ""),
        ("/home/ana/code/agents/tf_agents/__init__.py", "from tf_agents import networks"),
        ("/home/ana/code/agents/tf_agents/networks/network.py", "from tensorflow.python import x"),
    )
    found = checkout_package(frames[-1].path, frames)
    assert found == ("tf_agents", "/home/ana/code/agents")


def test_an_import_by_name_leading_into_the_tree_is_that_packages() -> None:
    frames = _frames(
        ("train.py", "from tf_agents.networks import network"),
        ("C:\\src\\agents\\tf_agents\\networks\\network.py", "from tensorflow.python import x"),
    )
    assert checkout_package(frames[-1].path, frames) == ("tf_agents", "C:\\src\\agents")
    # A relative path: the tree lies in the current directory.
    frames = _frames(("train.py", "import tf_agents"), ("tf_agents/__init__.py", "import x"))
    assert checkout_package("tf_agents/__init__.py", frames) == ("tf_agents", ".")


def test_a_folder_only_named_like_a_package_is_the_users() -> None:
    # The user's own script in a folder named like the library, importing the library from
    # elsewhere: nothing shows the folder imported as the package.
    frames = _frames(
        ("/home/ana/tf_agents/train.py", "import tf_agents"),
        ("/opt/env/lib/python3.10/site-packages/tf_agents/__init__.py", "from x import y"),
    )
    assert checkout_package(frames[0].path, frames) is None
    # An installed copy is installed_package's; a folder no listed package names is nobody's.
    assert checkout_package(frames[1].path, frames) is None
    frames = _frames(("/w/mylib/__init__.py", "import mylib"), ("/w/mylib/a.py", "import x"))
    assert checkout_package("/w/mylib/a.py", frames) is None


def test_whose_code_a_file_is_installed_first_then_a_source_tree() -> None:
    frames = _frames(
        ("train.py", "import sonnet"),
        ("/opt/env/lib/python3.10/site-packages/sonnet/__init__.py", "from sonnet import nets"),
        ("/home/ana/src/sonnet/sonnet/__init__.py", "import x"),
    )
    assert code_package(frames[1].path, frames) == "sonnet"
    assert code_package(frames[2].path, frames) == "sonnet"  # the tree's __init__ ran
    assert code_package(frames[0].path, frames) is None  # the user's own script


def test_a_librarys_tree_entered_from_a_script_elsewhere_is_the_librarys() -> None:
    # A script outside the tree calls a file inside it: the library's code, though nothing
    # shows the directory imported as a package.
    frames = _frames(
        ("/home/ana/run.py", "convert(model)"),
        ("/home/ana/keras-onnx/keras2onnx/main.py", "x.graph"),
    )
    assert entered_package(frames[1].path, frames) == "keras2onnx"
    # A program started inside the tree is the user's own, whatever the folder is named;
    # ``python -m``'s runner before it does not count as the program's first file.
    frames = _frames(
        ("<frozen runpy>", "exec(code)"),
        ("/home/ana/keras2onnx/train.py", "fit()"),
        ("/home/ana/keras2onnx/lib.py", "x.graph"),
    )
    assert entered_package(frames[2].path, frames) is None
    assert entered_package("/home/ana/mine/lib.py", frames) is None


def test_a_checkout_and_the_folder_holding_it() -> None:
    frames = _frames(
        ("train.py", "import sonnet"),
        ("/home/ana/src/sonnet-repo/sonnet/__init__.py", "import x"),
    )
    assert checkout_of(frames[1].path, frames) == ("sonnet", "/home/ana/src/sonnet-repo")
    # An installed copy, or a path whose start a paste masked, is no checkout.
    assert checkout_of("/usr/lib/python3/dist-packages/sonnet/__init__.py", frames) is None
    assert checkout_of(".../sonnet/__init__.py", frames) is None


@pytest.mark.parametrize(
    "between",
    [
        pytest.param("fallback: plugin skipped\nEpoch 1/2\n", id="other-words"),
        pytest.param(
            'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\n',
            id="another-header",
        ),
    ],
)
def test_the_opcode_note_names_only_the_traceback_right_below_it(between: str) -> None:
    # The note is printed as the exception is raised; a later cut traceback (the exception
    # caught, the program gone on) raised something else.
    note, rest = _CUT_AFTER_NOTE.split("\n", 1)
    assert read_tracebacks(f"{note}\n{between}{rest}") == []
    # Blank lines between still leave it the note of the traceback below.
    (tb,) = read_tracebacks(f"{note}\n\n{rest}")
    assert tb.note == note


def test_a_frame_whose_start_a_paste_cut_keeps_its_path_and_source() -> None:
    text = (
        '  File "train.py", line 12, in <module>\n'
        "    main()\n"
        "...\n"
        'envs/py2/lib/python2.7/site-packages/tensorflow/python/layers/base.py", line 98, '
        "in __init__\n"
        "    raise TypeError('Keyword argument not understood:', kwarg)\n"
        "TypeError: ('Keyword argument not understood:', 'axis_name')\n"
    )
    (tb,) = read_tracebacks(text)
    inner = tb.frames[-1]
    assert len(tb.frames) == 2
    assert inner.path.endswith("tensorflow/python/layers/base.py") and inner.line == 98
    assert inner.function == "__init__" and inner.code.startswith("raise TypeError(")


def test_a_quoted_path_in_a_message_is_no_frame() -> None:
    text = 'OSError: Unable to open "weights.py", line 3 of the list\n'
    assert all(not tb.frames for tb in read_tracebacks(text))


@pytest.mark.parametrize(
    "path, found",
    [
        # A branch's archive holding the package of its repository's name.
        ("/home/u/dl/edge-ml-main/edge_ml/models.py", ("edge_ml", "/home/u/dl/edge-ml-main")),
        ("edge-ml-master/edge_ml/models.py", ("edge_ml", "edge-ml-master")),
        # A clone named for a listed distribution (keras-resnet installs keras_resnet).
        (
            "C:\\src\\keras-resnet\\keras_resnet\\models.py",
            ("keras_resnet", "C:\\src\\keras-resnet"),
        ),
        # Another project's archive, and a user's project named for no listed distribution.
        ("/home/u/tools-master/edge_ml/models.py", None),
        ("/home/u/proj/proj/models.py", None),
    ],
)
def test_a_checkouts_folder_names_say_whose_tree_it_is(
    path: str, found: Optional[tuple[str, str]]
) -> None:
    """The one reader of a source tree: what the frames show imported, else the folders'
    names (explain.dependencies reads its callers through it)."""
    assert checkout_package(path, ()) == found
