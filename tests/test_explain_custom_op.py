"""A project's own TensorFlow op (a .so its Makefile, setup.py or build script compiles, or a
CUDA plugin compiled as it runs) that does not compile, link or load against the installed
TensorFlow: the flags TensorFlow reports, not a companion's release; a companion's library,
TensorFlow's own and other programs' same words stay theirs."""

from __future__ import annotations

import pytest

from tests.explaining import all_causes, explained, fix_text, top_error
from tfdoctor.causes.software import global_function_name

CAUSE = "custom-op-build-mismatch"
FLAGS = "tf.sysconfig.get_compile_flags()"

#: A traceback whose project file (outside site-packages) calls tf.load_op_library.
_LOADER = (
    "Traceback (most recent call last):\n"
    '  File "/home/user/proj/ops/__init__.py", line 6, in <module>\n'
    "    _ops = tf.load_op_library(path)\n"
    '  File "/home/user/.venv/lib/python3.7/site-packages/tensorflow/python/framework/'
    'load_library.py", line 61, in load_op_library\n'
    "    lib_handle = py_tf.TF_LoadLibrary(library_filename)\n"
)


def _own_op_fix(line: str) -> str:
    """The fix of the log line ``line``, whose top error is asserted to be this cause."""
    top = top_error(explained(line + "\n"))
    assert top.cause == CAUSE
    return fix_text(top)


# --- compiling: TensorFlow's headers -----------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "/home/user/.venv/lib/python3.6/site-packages/tensorflow/include/tensorflow/core/"
        "platform/default/mutex.h:25:22: fatal error: nsync_cv.h: No such file or directory",
        "/usr/lib/python3/dist-packages/tensorflow_core/include/tensorflow/core/platform/"
        'mutex.h(31): catastrophic error: cannot open source file "nsync_mu.h"',
    ],
    ids=["gcc", "nvcc"],
)
def test_nsyncs_header_unfound_adds_its_directory(line: str) -> None:
    top = top_error(explained(line + "\ncompilation terminated.\n"))
    assert top.cause == CAUSE
    fix = fix_text(top)
    assert "external/nsync/public" in fix and FLAGS in fix and "gcc" in fix


def test_tensorflows_header_missing_from_the_ops_source_is_the_include_flag() -> None:
    text = "kernels/warp_op.cc:4:10: fatal error: tensorflow/core/framework/op.h: No such file\n"
    top = top_error(explained(text))
    assert top.cause == CAUSE and "tensorflow/core/framework/op.h" in fix_text(top)


def test_an_error_inside_tensorflows_headers_is_the_compiler_or_its_standard() -> None:
    line = (
        "/home/user/.venv/lib/python3.9/site-packages/tensorflow/include/absl/base/"
        'policy_checks.h:79:2: error: #error "C++ versions less than C++14 are not supported."'
    )
    top = top_error(explained(line + "\n"))
    assert top.cause == CAUSE
    fix = fix_text(top)
    assert "C++ standard" in fix and "gcc --version" in fix


@pytest.mark.parametrize(
    "text",
    [
        'Setting up TensorFlow plugin "fused_bias_act.cu": Preprocessing... Compiling... Failed!\n',
        "RuntimeError: NVCC returned an error. See below for full command line and output log:"
        "\n\nnvcc --gpu-architecture=sm_75 fused_bias_act.cu --shared\n",
    ],
    ids=["progress", "traceback-only"],
)
def test_a_plugin_compiled_as_it_runs_names_the_compiler(text: str) -> None:
    top = top_error(explained(text))
    assert top.cause == CAUSE
    fix = fix_text(top)
    assert "nvcc" in fix and "gcc" in fix and "_GLIBCXX_USE_CXX11_ABI" in fix


@pytest.mark.parametrize(
    "line",
    [
        "tf_ops/sampling/tf_sampling.cpp:24:37: error: 'class tensorflow::shape_inference::"
        "InferenceContext' has no member named 'MakeShape'",
        "/home/u/proj/ops/roi.cu.cc:40:5: error: no matching function for call to "
        "\u2018tensorflow::OpKernelContext::allocate_output(int)\u2019",
    ],
    ids=["ascii-quotes", "utf8-quotes"],
)
def test_an_ops_own_source_refused_for_tensorflows_api_is_the_release(line: str) -> None:
    fix = _own_op_fix(line)
    assert FLAGS in fix and "release the project's build was written for" in fix


@pytest.mark.parametrize(
    "text",
    [
        # Another program's use of nsync (onnxruntime's mutex), not TensorFlow's headers.
        "onnxruntime/core/platform/ort_mutex.h:8:10: fatal error: nsync_cv.h: No such file\n",
        # A header of the project's own tree.
        "src/ops.cc:3:10: fatal error: ops/common.h: No such file or directory\n",
        # The plugin built and loaded.
        'Setting up TensorFlow plugin "upfirdn_2d.cu": Preprocessing... Loading... Done.\n',
        # A source checkout of TensorFlow built with Bazel, not the wheel's headers.
        "external/org_tensorflow/tensorflow/core/platform/env.h:12:3: error: expected ';'\n",
        # TensorFlow's own source, built by Bazel: not a project's op.
        "tensorflow/core/kernels/foo_op.cc:12:3: error: 'tensorflow::Bar' has not been declared\n",
    ],
    ids=["onnxruntime-nsync", "own-header", "plugin-done", "bazel-tree", "tensorflow-source"],
)
def test_other_compilations_are_not_a_custom_op(text: str) -> None:
    assert CAUSE not in all_causes(text)


# --- linking: the framework library's name -----------------------------------------------------


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("/usr/bin/ld: cannot find -ltensorflow_framework", "-ltensorflow_framework"),
        (
            "/usr/bin/ld: cannot find -l:libtensorflow_framework.so.1: No such file or directory",
            "-l:libtensorflow_framework.so.1",
        ),
    ],
    ids=["unversioned", "other-major"],
)
def test_the_framework_library_by_another_name_is_tensorflows_link_flags(
    line: str, named: str
) -> None:
    top = top_error(explained(line + "\ncollect2: error: ld returned 1 exit status\n"))
    assert top.cause == CAUSE
    fix = fix_text(top)
    assert named in fix and "-l:libtensorflow_framework.so.N" in fix and FLAGS in fix


def test_apples_linker_refusing_the_gnu_l_colon_form_names_the_macos_flag() -> None:
    text = (
        "tensorflow version: 1.14.0\n"
        "ld: library not found for -l:libtensorflow_framework.1.dylib\n"
        "clang: error: linker command failed with exit code 1 (use -v to see invocation)\n"
    )
    top = top_error(explained(text))
    assert top.cause == CAUSE
    fix = fix_text(top)
    assert "-l:libtensorflow_framework.1.dylib" in fix and "-ltensorflow_framework.N" in fix
    assert "1.15" in fix


def test_apples_linker_refusing_the_form_under_a_later_release_is_the_build_script() -> None:
    text = (
        "tensorflow version: 2.4.1\nld: library not found for -l:libtensorflow_framework.2.dylib\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "project's own build script" in fix and "1.14" not in fix


def test_apples_linker_missing_the_plain_name_is_the_link_flags() -> None:
    top = top_error(explained("ld: library not found for -ltensorflow_framework\n"))
    assert top.cause == CAUSE and "-ltensorflow_framework" in fix_text(top)


def test_apples_linker_missing_another_library_is_not_a_custom_op() -> None:
    assert CAUSE not in all_causes("ld: library not found for -lomp\n")


def test_the_c_library_unlinked_is_not_a_custom_op() -> None:
    assert CAUSE not in all_causes("/usr/bin/ld: cannot find -ltensorflow\n")


# --- loading: TensorFlow's C++ symbols, its framework library ----------------------------------


def test_an_op_outside_site_packages_missing_a_symbol_is_rebuilt() -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: /home/user/warp-ctc/"
        "tensorflow_binding/kernels.so: undefined symbol: "
        "_ZN10tensorflow8OpKernel11TraceStringEPNS_15OpKernelContextEb"
    )
    top = top_error(explained(line + "\n"))
    assert top.cause == CAUSE
    assert FLAGS in fix_text(top) and "build script was written for" in fix_text(top)


def test_a_symbol_of_another_abseil_release_says_other_headers_not_the_link() -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: /home/user/proj/build/"
        "_grid_ops.so: undefined symbol: _ZN10tensorflow6StatusC1ENS_5error4CodeEN4absl12lts_"
        "2021032411string_viewE"
    )
    fix = _own_op_fix(line)
    assert "absl::lts_20210324" in fix and "another TensorFlow release" in fix
    assert "not linked against TensorFlow's framework library" not in fix


@pytest.mark.parametrize(
    ("symbol", "since"),
    [("__cudaPushCallConfiguration", "9.2"), ("__cudaRegisterFatBinaryEnd", "10.1")],
)
def test_an_ops_cuda_runtime_entry_missing_is_one_toolkit_for_both(symbol: str, since: str) -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: /home/user/pointnet2/tf_ops/"
        f"sampling/tf_sampling_so.so: undefined symbol: {symbol}"
    )
    fix = _own_op_fix(line)
    assert f"CUDA {since} or later" in fix and "-lcudart" in fix and "nvcc --version" in fix


_CUDA_UNFOUND = (
    "Traceback (most recent call last):\n"
    '  File "{caller}", line 12, in <module>\n'
    "    _mod = tf.load_op_library(path)\n"
    '  File "/home/user/.venv/lib/python3.6/site-packages/tensorflow/python/framework/'
    'load_library.py", line 60, in load_op_library\n'
    "    lib_handle = py_tf.TF_LoadLibrary(library_filename)\n"
    "tensorflow.python.framework.errors_impl.NotFoundError: libcudart.so.9.0: cannot open "
    "shared object file: No such file or directory\n"
)


def test_an_ops_cuda_release_unfound_is_rebuilt_with_the_toolkit_here() -> None:
    fix = _own_op_fix(_CUDA_UNFOUND.format(caller="/home/user/pointnet2/tf_ops/sampling/x.py"))
    assert "libcudart.so.9.0" in fix and "nvcc --version" in fix


def test_a_published_packages_ops_linking_an_unfound_cuda_is_its_release() -> None:
    caller = "/home/user/.venv/lib/python3.6/site-packages/tensorflow_io/python/ops/__init__.py"
    top = top_error(explained(_CUDA_UNFOUND.format(caller=caller)))
    assert top.cause == "companion-mismatch"


def test_tensorflows_own_cuda_unfound_at_import_is_not_an_op() -> None:
    text = (
        "ImportError: libcudart.so.9.0: cannot open shared object file: No such file or directory\n"
    )
    assert CAUSE not in all_causes(text)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (
            "tensorflow.python.framework.errors_impl.NotFoundError: C:\\Users\\u\\proj\\"
            "build\\roi_pooling.so not found",
            "Windows did not load",
        ),
        (
            "tensorflow.python.framework.errors_impl.NotFoundError: ./build/roi_pooling.so: "
            "cannot open shared object file: No such file or directory",
            "does not exist",
        ),
    ],
    ids=["windows", "linux-unbuilt"],
)
def test_a_projects_op_library_not_loaded_is_built_here(line: str, words: str) -> None:
    fix = _own_op_fix(line)
    assert "roi_pooling.so" in fix and words in fix and "tf.sysconfig" in fix


@pytest.mark.parametrize(
    "line",
    [
        # A companion's library in site-packages stays the companion's.
        "tensorflow.python.framework.errors_impl.NotFoundError: C:\\venv\\Lib\\site-packages"
        "\\tensorflow_io\\python\\ops\\libtensorflow_io.so not found",
        # A library the op links, named by its soname: not the op's own file.
        "tensorflow.python.framework.errors_impl.NotFoundError: libfoo.so.1: cannot open "
        "shared object file: No such file or directory",
        # TensorFlow's dso_loader on Windows, not tf.load_op_library.
        "Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found",
    ],
    ids=["companion", "soname", "dso-loader"],
)
def test_other_libraries_not_loaded_are_not_an_unbuilt_op(line: str) -> None:
    hits = [f for f in explained(line + "\n").findings if f.cause == CAUSE]
    assert not any("Windows did not load" in fix_text(f) for f in hits)
    assert not any("does not exist" in fix_text(f) for f in hits)


def test_an_ops_own_function_missing_is_an_object_left_out_of_the_link() -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: /home/user/pointnet2/tf_ops/"
        "grouping/tf_grouping_so.so: undefined symbol: _Z20query_ball_point_gpuiiiifiPKfS0_PiS1_"
    )
    fix = _own_op_fix(line)
    assert "`query_ball_point_gpu`" in fix and ".cu.o" in fix


@pytest.mark.parametrize(
    "line",
    [
        # An installed package's library: its release, not a project's build.
        "tensorflow.python.framework.errors_impl.NotFoundError: /usr/lib/python3/dist-packages/"
        "somepkg/_ops.so: undefined symbol: _Z20query_ball_point_gpuiiiifiPKfS0_PiS1_",
        # Not tf.load_op_library's words: another program's loader.
        "ImportError: /home/user/proj/_ext.so: undefined symbol: __cudaPushCallConfiguration",
        # A namespaced symbol is not the project's global function.
        "tensorflow.python.framework.errors_impl.NotFoundError: /home/user/proj/_ops.so: "
        "undefined symbol: _ZN2cv3Mat10deallocateEv",
    ],
    ids=["installed", "not-tensorflow", "namespaced"],
)
def test_other_missing_symbols_are_not_an_unlinked_part(line: str) -> None:
    hits = [f for f in explained(line + "\n").findings if f.cause == CAUSE]
    assert not any(".cu.o" in fix_text(f) or "-lcudart" in fix_text(f) for f in hits)


def test_global_function_names_are_read_from_their_length() -> None:
    assert global_function_name("_Z20query_ball_point_gpuiiiifiPKfS0_PiS1_") == (
        "query_ball_point_gpu"
    )
    assert global_function_name("_Z5abc") is None
    assert global_function_name("_ZN10tensorflow6TensorD1Ev") is None


def test_a_macos_op_library_ending_in_dylib_is_rebuilt() -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: dlopen(/Users/u/src/build/"
        "libzero_out.dylib, 0x0006): symbol not found in flat namespace "
        "'__ZN10tensorflow8OpKernel11TraceStringEPNS_15OpKernelContextEb'"
    )
    assert "libzero_out.dylib" in _own_op_fix(line)


def test_an_installed_op_package_the_table_does_not_know_stays_a_published_add_on() -> None:
    # Installed into site-packages: a published package with releases for each TensorFlow
    # (tensorflow-compression, tf-sentencepiece) as often as a project's own; its release for
    # the installed TensorFlow is named first (companion-mismatch), not a rebuild.
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: /home/user/.venv/lib/"
        "python3.8/site-packages/warpctc_tensorflow/kernels.cpython-38-x86_64-linux-gnu.so: "
        "undefined symbol: _ZN10tensorflow12OpDefBuilder4AttrESs"
    )
    causes = all_causes(line + "\n")
    assert "companion-mismatch" in causes and CAUSE not in causes


def test_a_companions_op_library_stays_the_companions() -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: /home/user/.venv/lib/python3.8/"
        "site-packages/tensorflow_text/python/ops/_regex_split_ops.so: undefined symbol: "
        "_ZN10tensorflow8OpKernel11TraceStringEPNS_15OpKernelContextEb"
    )
    causes = all_causes(line + "\n")
    assert "companion-mismatch" in causes and CAUSE not in causes


def test_tensorflows_own_library_missing_a_symbol_is_not_a_custom_op() -> None:
    line = (
        "ImportError: /home/user/.venv/lib/python3.8/site-packages/tensorflow/python/"
        "_pywrap_tensorflow_internal.so: undefined symbol: _ZN10tensorflow8OpKernelD2Ev"
    )
    assert CAUSE not in all_causes(line + "\n")


def test_the_1x_framework_library_unfound_for_a_projects_op_is_relinked() -> None:
    text = _LOADER + (
        "tensorflow.python.framework.errors_impl.NotFoundError: libtensorflow_framework.so.1: "
        "cannot open shared object file: No such file or directory\n"
    )
    top = top_error(explained(text))
    assert top.cause == CAUSE
    assert "libtensorflow_framework.so.1" in fix_text(top) and FLAGS in fix_text(top)


def test_the_1x_framework_library_unfound_for_a_companion_stays_the_companions() -> None:
    text = _LOADER.replace("/home/user/proj/ops/", "/home/user/.venv/lib/python3.7/site-packages/")
    text = text.replace("site-packages/__init__.py", "site-packages/tensorflow_io/ops.py") + (
        "tensorflow.python.framework.errors_impl.NotFoundError: libtensorflow_framework.so.1: "
        "cannot open shared object file: No such file or directory\n"
    )
    assert CAUSE not in all_causes(text)


def test_the_1x_framework_library_for_an_unlisted_installed_package_is_its_release() -> None:
    # A package pip installed (under site-packages), though the module table does not list
    # it, was built for TensorFlow 1: its release, not a project's own op to relink.
    text = _LOADER.replace(
        "/home/user/proj/ops/__init__.py",
        "/home/user/.venv/lib/python3.7/site-packages/graphops/kernels/__init__.py",
    ) + (
        "tensorflow.python.framework.errors_impl.NotFoundError: libtensorflow_framework.so.1: "
        "cannot open shared object file: No such file or directory\n"
    )
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    assert "the package that provides `graphops`" in fix and "TensorFlow 1.x" in fix
    assert FLAGS not in fix


def test_macos_framework_dylib_of_another_major_for_a_projects_op() -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: dlopen(/Users/user/KPConv/"
        "tf_custom_ops/tf_neighbors.so, 6): Library not loaded: "
        "@rpath/libtensorflow_framework.1.dylib\n"
    )
    top = top_error(explained(line + "tensorflow version: 2.3.0\n"))
    assert top.cause == CAUSE
    fix = fix_text(top)
    assert "libtensorflow_framework.1.dylib" in fix and "TensorFlow 2.3.0" in fix


def test_macos_framework_dylib_of_the_installed_major_is_not_read_so() -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: dlopen(/Users/user/KPConv/"
        "tf_custom_ops/tf_neighbors.so, 6): Library not loaded: "
        "@rpath/libtensorflow_framework.2.dylib\n"
    )
    assert CAUSE not in all_causes(line + "tensorflow version: 2.3.0\n")


def test_the_unversioned_framework_library_unfound_for_a_projects_op_is_relinked() -> None:
    text = _LOADER + (
        "tensorflow.python.framework.errors_impl.NotFoundError: libtensorflow_framework.so: "
        "cannot open shared object file: No such file or directory\n"
    )
    top = top_error(explained(text))
    assert top.cause == CAUSE and "-l:libtensorflow_framework.so.N" in fix_text(top)


def test_a_release_before_the_framework_library_drops_it_from_the_link() -> None:
    text = "tensorflow version: 1.3.0\n/usr/bin/ld: cannot find -ltensorflow_framework\n"
    top = top_error(explained(text))
    assert top.cause == CAUSE
    fix = fix_text(top)
    assert "TensorFlow 1.3.0 has no framework library" in fix and "1.4" in fix


def test_the_c_librarys_header_is_not_a_custom_op() -> None:
    text = "main.c:1:10: fatal error: tensorflow/c/c_api.h: No such file or directory\n"
    assert CAUSE not in all_causes(text)


def test_a_projects_own_op_that_does_not_load_names_the_loaders_reading_too() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/content/flowproj/src/correlation.py", line 4, in <module>\n'
        '    tf.resource_loader.get_path_to_datafile("./ops/build/correlation.so"))\n'
        '  File "/usr/local/lib/python3.6/dist-packages/tensorflow/python/framework/'
        'load_library.py", line 61, in load_op_library\n'
        "    lib_handle = py_tf.TF_LoadLibrary(library_filename)\n"
        "tensorflow.python.framework.errors_impl.NotFoundError: /content/flowproj/src/ops/build/"
        "correlation.so: undefined symbol: _ZN10tensorflow12OpDefBuilder4AttrENSt7__cxx1112"
        "basic_stringIcSt11char_traitsIcESaIcEEE\n"
    )
    report = explained(log)
    top = top_error(report)
    assert top.cause == CAUSE
    general = [f for f in report.findings if f.cause == "native-library-unresolved"]
    assert [f.severity.value for f in general] == ["warning"]
    assert general[0].fix == top.fix
