"""Native code and libraries built for another TensorFlow or Keras, read where the log names
little: an op library's missing TensorFlow symbol with no library or loader shown (an add-on's
or the project's own, both ranked), DALI's TensorFlow plugin (built as it is installed, by the
gcc TensorFlow was built with), and a library whose release the companion table pairs with
another standalone Keras than the one a listing shows. Logs written for these tests."""

from __future__ import annotations

import pytest

from tests.explaining import CANDIDATE, explained, finding_of, fix_text, problem_causes, top_error
from tfdoctor.findings import Severity

COMPANION = "companion-mismatch"
CUSTOM_OP = "custom-op-build-mismatch"

# --- an op library's symbol, no library shown ----------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "tensorflow.python.framework.errors_impl.NotFoundError:undefined symbol: "
        "_ZN10tensorflow15OpKernelContext5inputEi",
        "NotFoundError: undefined symbol: _ZNK10tensorflow8OpKernel11TraceStringEPNS_"
        "15OpKernelContextEb",
        "undefined symbol: _ZN10tensorflow8internal21CheckOpMessageBuilder9NewStringEv",
    ],
    ids=["space-lost", "short-class", "words-alone"],
)
def test_a_bare_symbol_ranks_the_add_on_then_the_projects_own_build(line: str) -> None:
    report = explained(line + "\n")
    top = top_error(report)
    assert top.cause == COMPANION
    other = finding_of(report, CUSTOM_OP)
    assert other is not None and other.severity is Severity.WARNING
    assert other.summary.endswith(CANDIDATE)
    assert "tf.sysconfig.get_compile_flags()" in fix_text(other)


def test_a_bare_symbol_loaded_by_the_projects_own_file_is_its_build_alone() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/ana/matching/hungarian.py", line 9, in <module>\n'
        "    _mod = tf.load_op_library('./hungarian.so')\n"
        '  File "/home/ana/.venv/lib/python3.6/site-packages/tensorflow/python/framework/'
        'load_library.py", line 58, in load_op_library\n'
        "    lib_handle = py_tf.TF_LoadLibrary(library_filename)\n"
        "tensorflow.python.framework.errors_impl.NotFoundError: undefined symbol: "
        "_ZN10tensorflow8internal21CheckOpMessageBuilder9NewStringEv\n"
    )
    report = explained(text)
    found = [x for x in report.findings if x.cause == CUSTOM_OP]
    assert len(found) == 1 and not found[0].summary.endswith(CANDIDATE)


def test_a_symbol_of_another_library_is_no_op_librarys() -> None:
    line = "ImportError: undefined symbol: _ZN2cv3Mat10deallocateEv"
    assert CUSTOM_OP not in problem_causes(explained(line + "\n"))


# --- DALI's TensorFlow plugin ------------------------------------------------------------------

_DALI_SITE = "/usr/local/lib/python3.8/dist-packages"


@pytest.mark.parametrize(
    "text",
    [
        # The plugin's own package (DALI 0.22 on): its loader tried every library it has.
        "Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n'
        "    import nvidia.dali.plugin.tf as dali_tf\n"
        f'  File "{_DALI_SITE}/nvidia/dali/plugin/tf.py", line 29, in <module>\n'
        "    _dali_tf_module = dali_tf_plugin.load_dali_tf_plugin()\n"
        f'  File "{_DALI_SITE}/nvidia/dali_tf_plugin/dali_tf_plugin.py", line 48, in '
        "load_dali_tf_plugin\n"
        "    raise first_error or Exception('No matching DALI plugin found for installed "
        "TensorFlow version')\n"
        "Exception: No matching DALI plugin found for installed TensorFlow version\n",
        # The loader's refusal of the library built at install (a TensorFlow upgraded since).
        "tensorflow.python.framework.errors_impl.NotFoundError: "
        f"{_DALI_SITE}/nvidia/dali_tf_plugin/libdali_tf_current.so: undefined symbol: "
        "_ZN10tensorflow8OpKernel11TraceStringB5cxx11ERKNS_15OpKernelContextEb\n",
        # DALI 0.x kept the plugin's libraries beside nvidia/dali/plugin/tf.py; one built for
        # TensorFlow 1 asks for the 1.x framework library under TensorFlow 2.
        "tensorflow.python.framework.errors_impl.NotFoundError: /home/kim/miniconda3/envs/dl/"
        "lib/python3.7/site-packages/nvidia/dali/plugin/libdali_tf_1_15.so: "
        "libtensorflow_framework.so.1: cannot open shared object file: No such file or "
        "directory\n",
    ],
    ids=["no-matching-plugin", "current-undefined-symbol", "tf1-framework"],
)
def test_dalis_plugin_is_installed_again_with_the_gcc_tensorflow_was_built_with(text: str) -> None:
    top = top_error(explained(text))
    assert top.cause == COMPANION
    fix = fix_text(top)
    assert "nvidia-dali-tf-plugin" in fix and "--no-cache-dir" in fix
    assert "g++ --version" in fix and "GCC: " in fix and "gcc" in fix
    # Not the namespace folder read as a distribution's name.
    assert "provides `nvidia`" not in fix


def test_dalis_plugin_install_that_picked_a_prebuilt_library_is_no_problem() -> None:
    text = (
        "Checking build environment for DALI TF plugin ...\n"
        " Using compiler:                       \"g++\", version 9.4\n"
        " TF version installed:                 2.9\n"
        " g++ version used to compile TF:       9.3\n"
        " Can install prebuilt plugin?          Yes\n"
        "Tensorflow was built with g++ 9.3, providing prebuilt plugin\n"
        f"Copy /tmp/pip-install-x/nvidia-dali-tf-plugin-cuda110/prebuilt/9.3/libdali_tf_2_9.so "
        f"to {_DALI_SITE}/nvidia/dali_tf_plugin\n"
        "Successfully installed nvidia-dali-tf-plugin-cuda110-1.18.0\n"
    )
    assert not problem_causes(explained(text))


# --- a library's release and the standalone Keras --------------------------------------------

_GCN_FAILS = (
    "Traceback (most recent call last):\n"
    '  File "gcn_cora.py", line 71, in train\n'
    "    x_inp, x_out = gcn.node_model()\n"
    '  File "/home/lee/env/lib/python3.6/site-packages/stellargraph/layer/gcn.py", line 210, '
    "in call\n"
    "    if self.bias:\n"
    "TypeError: Using a `tf.Tensor` as a Python `bool` is not allowed.\n"
)


def test_a_listed_library_beside_a_keras_its_release_predates_names_that_keras() -> None:
    text = "$ pip list\nKeras        2.3.0\nstellargraph 0.7.1\ntensorflow   1.14.0\n" + _GCN_FAILS
    found = finding_of(explained(text), COMPANION)
    assert found is not None and found.severity.rank >= Severity.WARNING.rank
    fix = fix_text(found)
    assert "keras<2.2.5,>=2.2.3" in fix and "stellargraph 0.7.1" in fix


def test_a_listed_library_beside_the_keras_it_was_written_for_is_not_read() -> None:
    text = "$ pip list\nKeras        2.2.4\nstellargraph 0.7.1\ntensorflow   1.14.0\n" + _GCN_FAILS
    found = finding_of(explained(text), COMPANION)
    assert found is None or "keras<2.2.5" not in fix_text(found)
