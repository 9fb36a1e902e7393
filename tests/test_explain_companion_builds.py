"""Native code and libraries built for another TensorFlow or Keras, read where the log names
little: an op library's missing TensorFlow symbol with no library or loader shown (an add-on's
or the project's own, both ranked), DALI's TensorFlow plugin (built as it is installed, by the
gcc TensorFlow was built with), and a library whose release the companion table pairs with
another standalone Keras than the one a listing shows. Logs written for these tests."""

from __future__ import annotations

import time

import pytest

from tests.explaining import CANDIDATE, explained, finding_of, fix_text, problem_causes, top_error
from tfdoctor.evidence.packages import read_installed_versions
from tfdoctor.evidence.traceback import installed_namespaced
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
    # From NVIDIA's index, at the DALI release installed (the plugin pins it exactly).
    assert "--extra-index-url https://pypi.nvidia.com" in fix
    assert '"nvidia-dali-tf-plugin-cudaXXX==<installed nvidia-dali-cudaXXX version>"' in fix
    assert "g++ --version" in fix and "GCC: " in fix and "gcc" in fix
    # Not the namespace folder read as a distribution's name.
    assert "provides `nvidia`" not in fix


_DALI_LOADER = (
    "Traceback (most recent call last):\n"
    '  File "fit.py", line 2, in <module>\n'
    "    import nvidia.dali.plugin.tf as dali_tf\n"
    f'  File "{_DALI_SITE}/nvidia/dali_tf_plugin/dali_tf_plugin.py", line 48, in '
    "load_dali_tf_plugin\n"
    "    raise first_error or Exception('No matching DALI plugin found for installed "
    "TensorFlow version')\n"
)


@pytest.mark.parametrize(
    "last",
    [
        # The loader's first error, raised in place of its own words: a CUDA runtime missing.
        "tensorflow.python.framework.errors_impl.NotFoundError: libcudart.so.11.0: cannot "
        "open shared object file: No such file or directory\n",
        # The plugin's library found, the CUDA runtime it links not.
        "tensorflow.python.framework.errors_impl.NotFoundError: "
        f"{_DALI_SITE}/nvidia/dali_tf_plugin/libdali_tf_current.so: libcudart.so.12: cannot "
        "open shared object file: No such file or directory\n",
    ],
    ids=["cuda-runtime", "plugin-links-cuda-runtime"],
)
def test_dalis_loader_echoed_over_a_cuda_library_is_not_the_plugins_build(last: str) -> None:
    found = explained(_DALI_LOADER + last)
    assert all(f.fix is None or "nvidia-dali-tf-plugin" not in fix_text(f) for f in found.findings)


def test_dalis_plugin_install_that_picked_a_prebuilt_library_is_no_problem() -> None:
    text = (
        "Checking build environment for DALI TF plugin ...\n"
        ' Using compiler:                       "g++", version 9.4\n'
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


# --- pip's own list of what it installed -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Successfully installed Keras-2.3.0 numpy-1.17.2 stellargraph-0.7.1 "
            "tensorflow-1.14.0\n",
            {"keras": "2.3.0", "stellargraph": "0.7.1", "tensorflow": "1.14.0"},
        ),
        # A paste that wrapped pip's one line over indented lines of items.
        (
            "  Successfully installed absl-py-0.8.0 h5py-2.10.0 keras-2.3.0\n"
            "    keras-applications-1.0.8 networkx-2.3 stellargraph-0.7.1\n"
            "    tensorboard-1.14.0 tensorflow-1.14.0 wrapt-1.11.2\n"
            "Using GCN (local pooling) filters...\n"
            "    tensorflow-2.0.0\n",
            {
                "keras": "2.3.0",
                "stellargraph": "0.7.1",
                "tensorboard": "1.14.0",
                "tensorflow": "1.14.0",
            },
        ),
        # A later install replaced the earlier release: pip's last list names the one there.
        (
            "Successfully installed keras-3.3.3 namex-0.0.8\n"
            "    Found existing installation: keras 3.3.3\n"
            "      Successfully uninstalled keras-3.3.3\n"
            "Successfully installed keras-2.15.0 tensorflow-2.15.0\n",
            {"keras": "2.15.0", "tensorflow": "2.15.0"},
        ),
    ],
    ids=["one-line", "wrapped", "installed-over"],
)
def test_pips_installed_list_gives_the_releases_a_listing_would(
    text: str, expected: dict[str, str]
) -> None:
    assert read_installed_versions(text, ("stellargraph", "tfx-bsl")) == expected


def test_a_long_word_after_pips_installed_list_is_read_in_linear_time() -> None:
    # One blank-free word of name-version look-alikes: every split of it would be tried by
    # items allowed to abut.
    word = "-".join(f"{i % 10}a{(i + 3) % 10}b" for i in range(40))
    text = f"Successfully installed tensorflow-2.15.0\n  {word}:\n"
    assert len(word) >= 150
    began = time.perf_counter()
    assert read_installed_versions(text) == {"tensorflow": "2.15.0"}
    assert time.perf_counter() - began < 0.5


def test_pips_installed_list_pairs_a_library_with_the_keras_it_installed() -> None:
    text = (
        "$ pip install stellargraph\n"
        "Successfully installed gensim-3.8.0 keras-2.3.0 keras-applications-1.0.8\n"
        "   stellargraph-0.7.1 tensorflow-1.14.0\n" + _GCN_FAILS
    )
    found = finding_of(explained(text), COMPANION)
    assert found is not None and "keras<2.2.5,>=2.2.3" in fix_text(found)


def test_pips_installed_list_pairs_a_companion_with_another_tensorflow() -> None:
    text = (
        "Successfully installed tensorflow-2.3.0 tfx-bsl-0.15.3\n"
        "RuntimeError: the pipeline stopped\n"
    )
    found = finding_of(explained(text), COMPANION)
    assert found is not None and found.severity is Severity.WARNING
    assert "tfx-bsl==0.26.1" in fix_text(found)


# --- packages under a namespace root several distributions share ------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (
            "/v/lib/python3.10/site-packages/nvidia/dali_tf_plugin/libdali_tf_2_9.so",
            "nvidia.dali_tf_plugin",
        ),
        ("/v/lib/python3.9/site-packages/google/cloud/storage/blob.py", "google.cloud.storage"),
        ("/v/lib/python3.9/site-packages/google/protobuf/descriptor.py", "google.protobuf"),
        ("/v/lib/python3.9/site-packages/tensorflow_text/python/ops/_ops.so", "tensorflow_text"),
        ("/home/me/project/nvidia/ops.py", None),
    ],
    ids=["nvidia", "google-cloud", "google", "not-a-namespace", "not-installed"],
)
def test_a_namespace_roots_file_is_named_by_the_folder_below_it(
    path: str, expected: str | None
) -> None:
    assert installed_namespaced(path) == expected


def test_a_namespaced_librarys_own_refusal_names_its_subpackage() -> None:
    site = "/srv/venv/lib/python3.9/site-packages"
    text = (
        "Traceback (most recent call last):\n"
        '  File "serve.py", line 3, in <module>\n'
        "    from google.cloud import tfx_helpers\n"
        f'  File "{site}/google/cloud/tfx_helpers/__init__.py", line 12, in <module>\n'
        '    raise ImportError("tfx_helpers requires TensorFlow >= 2.11, found 2.8.0")\n'
        "ImportError: tfx_helpers requires TensorFlow >= 2.11, found 2.8.0\n"
    )
    top = top_error(explained(text))
    assert top.cause == COMPANION and "google.cloud.tfx_helpers" in top.summary
    fix = fix_text(top)
    assert "b'google/cloud/tfx_helpers/'" in fix and "pip show google " not in fix


def test_a_namespaced_op_library_names_its_subpackage() -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: /opt/venv/lib/python3.10/"
        "site-packages/nvidia/tf_fused_ops/_fused_ops.so: undefined symbol: "
        "_ZN10tensorflow8OpKernel11TraceStringEPNS_15OpKernelContextEb"
    )
    top = top_error(explained(line + "\n"))
    fix = fix_text(top)
    assert top.cause == COMPANION and "`nvidia.tf_fused_ops`" in fix
    assert "b'nvidia/tf_fused_ops/'" in fix


@pytest.mark.parametrize(
    "text",
    [
        "Successfully installed tensorflow-2.15.0 tensorflow-text-2.15.0\n",
        "  Successfully installed gensim-3.8.0 keras-2.2.4 networkx-2.3\n"
        "    stellargraph-0.7.1 tensorflow-1.14.0\n"
        "Epoch 1/200\n",
        # TensorFlow upgraded with the companion: the first install's TensorFlow is gone.
        "$ pip install tensorflow==2.13.0\n"
        "Successfully installed keras-2.13.1 tensorflow-2.13.0\n"
        "$ pip install -U tensorflow==2.15.0 tensorflow-probability==0.23.0\n"
        "      Successfully uninstalled tensorflow-2.13.0\n"
        "Successfully installed keras-2.15.0 tensorflow-2.15.0 tensorflow-probability-0.23.0\n",
        # Keras moved back to the release the library was written for.
        "$ pip install stellargraph==0.7.1 keras==2.3.0\n"
        "Successfully installed keras-2.3.0 stellargraph-0.7.1\n"
        "$ pip install keras==2.2.4\n"
        "      Successfully uninstalled Keras-2.3.0\n"
        "Successfully installed keras-2.2.4\n"
        "Epoch 1/3\n",
    ],
    ids=[
        "text-of-its-line",
        "stellargraph-with-its-keras",
        "tensorflow-upgraded-after",
        "keras-downgraded-after",
    ],
)
def test_pips_installed_list_of_releases_that_fit_is_no_problem(text: str) -> None:
    assert not problem_causes(explained(text))


# --- add-ons' op libraries named by their folders ----------------------------------------------


@pytest.mark.parametrize(
    ("line", "dist"),
    [
        # Decision Forests keeps its ops in a tensorflow/ folder of its own, which is not
        # TensorFlow's (macOS 12's dyld words).
        (
            "tensorflow.python.framework.errors_impl.NotFoundError: dlopen(/Users/me/venv/lib/"
            "python3.11/site-packages/tensorflow_decision_forests/tensorflow/ops/inference/"
            "inference.so, 0x0006): symbol not found in flat namespace '__ZN10tensorflow15"
            "OpKernelContext21CtxFailureWithWarningEPKciRKN4absl12lts_202308026StatusE'",
            "tensorflow-decision-forests",
        ),
        (
            "tensorflow.python.framework.errors_impl.NotFoundError: /home/u/.local/lib/"
            "python3.9/site-packages/tensorflow_recommenders_addons/dynamic_embedding/core/"
            "_cuckoo_hashtable_ops.so: undefined symbol: _ZN10tensorflow12OpDefBuilder4AttrENSt7"
            "__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
            "tensorflow-recommenders-addons",
        ),
        # A Python extension (not an op library) of a package built on TensorFlow, missing
        # the abseil of the TensorFlow it was built against: its folder's name holds the
        # word tensorflow, which is not TensorFlow's own folder.
        (
            "ImportError: /opt/venv/lib/python3.9/site-packages/tensorflow_data_validation/"
            "pywrap/_tensorflow_data_validation_extension.so: undefined symbol: _ZN4absl12lts_"
            "2021032416strings_internal17CatPiecesESt16initializer_listISt17basic_string_view"
            "IcSt11char_traitsIcEEE",
            "tensorflow-data-validation",
        ),
    ],
    ids=["tfdf-macos", "tfra-linux", "tfdv-extension-abseil"],
)
def test_an_add_ons_op_library_names_its_distribution(line: str, dist: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == COMPANION and f"pip show tensorflow {dist}" in fix_text(top)


def test_a_library_of_an_environment_named_tensorflow_is_read() -> None:
    env = "/home/u/anaconda3/envs/tensorflow/lib/python3.10/site-packages"
    text = (
        f"ImportError: {env}/h5py/defs.cpython-310-x86_64-linux-gnu.so: undefined symbol: "
        "H5Pset_fapl_ros3\n"
    )
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved" and "reinstall h5py" in fix_text(top)


def test_tensorflows_own_library_missing_a_symbol_stays_out_of_the_add_ons() -> None:
    line = (
        "ImportError: /opt/venv/lib/python3.10/site-packages/tensorflow/python/"
        "_pywrap_tensorflow_internal.so: undefined symbol: _ZN4absl12lts_2023080212log_"
        "internal10LogMessageD1Ev"
    )
    assert COMPANION not in problem_causes(explained(line + "\n"))


# --- a library's own floor on TensorFlow ------------------------------------------------------

_SITE = "/opt/conda/lib/python3.10/site-packages"


def test_a_librarys_floor_above_the_tensorflow_found_moves_tensorflow_not_the_library() -> None:
    # A newer release of the library would ask for a newer TensorFlow still: the floor it
    # states, or an older release of it, is the way out.
    text = (
        f'  File "{_SITE}/keras_nlp/src/version_utils.py", line 30, in <module>\n'
        "    raise RuntimeError(\n"
        "RuntimeError: KerasNLP requires TensorFlow 2.14 or later; found TensorFlow 2.12.0.\n"
    )
    top = top_error(explained(text))
    fix = fix_text(top)
    assert top.cause == COMPANION and 'install "tensorflow>=2.14,<2.15"' in fix
    assert "2.14, its floor's line" in fix
    assert "--upgrade keras-nlp" not in fix


@pytest.mark.parametrize(
    "text, severity, pin",
    [
        pytest.param(
            f'  File "{_SITE}/keras_cv/version_check.py", line 25, in check_tf_version\n'
            "    raise RuntimeError(\n"
            "RuntimeError: The Tensorflow package version needs to be at least 2.11.0 for "
            "KerasCV to run. Currently, your TensorFlow version is 2.10.1. Please upgrade with "
            "`$ pip install --upgrade tensorflow`.\n",
            Severity.ERROR,
            'install "tensorflow>=2.11.0,<2.12"',
            id="raised",
        ),
        pytest.param(
            f"{_SITE}/keras_nlp/version_check.py:27: ImportWarning: The Tensorflow package "
            "version needs to be at least 2.9.0 for KerasNLP to run. Currently, your "
            "TensorFlow version is 2.8.2. Please upgrade with\n  warnings.warn(\n",
            Severity.WARNING,
            'install "tensorflow>=2.9.0,<2.10"',
            id="warned",
        ),
    ],
)
def test_a_floor_worded_at_least_moves_tensorflow(text: str, severity: Severity, pin: str) -> None:
    # KerasCV's and KerasNLP's version_check.py: "needs to be at least X for KerasCV to run".
    found = [x for x in explained(text).findings if x.cause == COMPANION]
    assert len(found) == 1 and found[0].severity is severity
    fix = fix_text(found[0])
    assert pin in fix and "--upgrade keras" not in fix


def test_a_floor_with_no_tensorflow_found_does_not_move_tensorflow_to_it() -> None:
    # Neither the refusal's words nor the log give the TensorFlow it found: the floor's
    # line is no fix (the installed TensorFlow may be far above it, as on Python 3.12).
    text = (
        f'  File "{_SITE}/mylib/__init__.py", line 12, in <module>\n'
        "    raise ImportError(\n"
        "ImportError: mylib requires TensorFlow >= 2.0 with eager execution enabled.\n"
    )
    assert "tensorflow>=2.0,<2.1" not in "\n".join(
        fix_text(x) for x in explained(text).findings if x.fix is not None
    )


def test_a_range_marked_included_and_excluded_is_read_with_the_version_found() -> None:
    # OpenNMT-tf's version.py warns so as it imports, and goes on.
    text = (
        f"{_SITE}/opennmt/version.py:23: UserWarning: OpenNMT-tf supports TensorFlow versions "
        "2.3.0 (included) to 2.5.0 (excluded), but you have TensorFlow 2.6.0 installed. Some "
        "features might not work properly.\n  warnings.warn(\n"
    )
    found = [x for x in explained(text).findings if x.cause == COMPANION]
    assert len(found) == 1 and found[0].severity is Severity.WARNING
    fix = fix_text(found[0])
    assert "opennmt-tf asks for TensorFlow >=2.3.0,<2.5.0; TensorFlow 2.6.0 is installed" in fix


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            f"{_SITE}/opennmt/runner.py:210: UserWarning: Training on TensorFlow 2.6.0 asks for "
            "4 replicas but you have 2 devices.\n  warnings.warn(\n",
            id="devices",
        ),
        pytest.param(
            f"{_SITE}/mylib/io.py:88: UserWarning: This checkpoint was written by TensorFlow 2.9 "
            "but you have version 3 of the index file format; it will be converted.\n"
            "  warnings.warn(\n",
            id="version-of-something-else",
        ),
    ],
)
def test_but_you_have_of_something_else_than_tensorflow_is_no_refusal(text: str) -> None:
    assert COMPANION not in problem_causes(explained(text))


def test_at_least_of_something_else_than_a_version_is_no_floor() -> None:
    text = (
        f'  File "{_SITE}/keras_cv/version_check.py", line 25, in check_tf_version\n'
        "    raise RuntimeError(\n"
        "RuntimeError: TensorFlow 2.13.0 requires at least 2 GPUs for this strategy.\n"
    )
    assert COMPANION not in problem_causes(explained(text))


def test_a_librarys_floor_on_a_keras_3_line_moves_keras_with_tensorflow() -> None:
    text = (
        "tensorflow 2.12.0\nkeras 2.12.0\n"
        f'  File "{_SITE}/keras_nlp/src/version_utils.py", line 30, in <module>\n'
        "    raise RuntimeError(\n"
        "RuntimeError: KerasNLP requires TensorFlow 2.16 or later; found TensorFlow 2.12.0.\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert 'install "tensorflow>=2.16,<2.17" "keras>=3.0.0"' in fix and "Keras 3" in fix


def test_a_librarys_ceiling_below_the_tensorflow_found_keeps_the_librarys_release() -> None:
    text = (
        f'  File "{_SITE}/keras_nlp/src/version_utils.py", line 30, in <module>\n'
        "    raise RuntimeError(\n"
        "RuntimeError: KerasNLP requires TensorFlow < 2.16; found TensorFlow 2.17.0.\n"
    )
    top = top_error(explained(text))
    assert top.cause == COMPANION and "tensorflow>=" not in fix_text(top)
