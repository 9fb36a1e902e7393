"""Building TensorFlow, TensorFlow Serving, companions and custom ops from source: the words
Bazel, its C/C++ toolchain configuration, nvcc and the linker print, read as the cause they
name.

| Message (as printed) | Releases | Source |
| --- | --- | --- |
| `Please upgrade (downgrade) your bazel installation to version X or higher (lower) to build TensorFlow!` | TensorFlow's configure.py, 1.x to 2.x | https://github.com/tensorflow/tensorflow/blob/v2.0.0/configure.py |
| `Current Bazel version is X, expected at least (at most) Y` | TensorFlow 1.x workspace.bzl; bazel-skylib versions.check | https://github.com/tensorflow/tensorflow/blob/v1.2.0/tensorflow/workspace.bzl, https://github.com/bazelbuild/bazel-skylib/blob/1.0.3/lib/versions.bzl |
| `file '@bazel_tools//...bzl' does not contain symbol 'S'` | every Bazel (Starlark's load) | https://github.com/bazelbuild/bazel/blob/7.0.0/src/main/java/net/starlark/java/eval/Eval.java |
| `unexpected keyword 'K' in call to repository_rule(...)` (`keywords` for several) | Bazel before 0.27 | https://github.com/bazelbuild/bazel/blob/0.4.2/src/main/java/com/google/devtools/build/lib/syntax/BaseFunction.java |
| `F() got unexpected keyword argument 'K'` | Bazel's Starlark interpreter since | https://github.com/bazelbuild/bazel/blob/7.0.0/src/main/java/net/starlark/java/eval/BuiltinFunction.java |
| `... by passing the flag --incompatible_X=false`, `Use --incompatible_X=false to temporarily ...` | Bazel 0.6 onward (flipped incompatible changes) | https://bazel.build/release/backward-compatibility |
| `Use ctx.actions.declare_file instead of ctx.new_file.` + `Use --incompatible_new_actions_api=false ...` | Bazel with new_actions_api flipped | https://github.com/bazelbuild/bazel/blob/6.0.0/src/main/java/com/google/devtools/build/lib/analysis/starlark/StarlarkRuleContext.java |
| `ERROR: --experimental_X :: Unrecognized option: --experimental_X` (a .bazelrc's versioned flag) | every Bazel | https://github.com/bazelbuild/bazel/blob/7.0.0/src/main/java/com/google/devtools/build/lib/runtime/BlazeOptionHandler.java |
| `The value 'PACKAGE_NAME' has been removed in favor of 'package_name()'` | Bazel 0.27 onward | https://github.com/bazelbuild/bazel/blob/0.27.0/src/main/java/com/google/devtools/build/lib/syntax/Identifier.java |
| `depsets cannot contain mutable items` | Bazel 0.5.3 onward | https://github.com/bazelbuild/bazel/blob/0.5.3/src/main/java/com/google/devtools/build/lib/syntax/SkylarkNestedSet.java |
| `name 'set' is not defined` (in a .bzl; `http_archive`, `git_repository` in a WORKSPACE) | Bazel after the `set` constructor's removal | https://github.com/bazelbuild/bazel/blob/0.6.0/src/main/java/com/google/devtools/build/lib/syntax/SkylarkNestedSet.java |
| `The native http_archive (git_repository) rule is deprecated. load(...)` | Bazel 0.20 onward | https://github.com/bazelbuild/bazel/blob/0.20.0/src/main/java/com/google/devtools/build/lib/packages/WorkspaceFactory.java |
| `Unrecoverable error while evaluating node 'REPOSITORY_DIRECTORY:@X'` | Bazel's crash (any release) | https://github.com/bazelbuild/bazel/blob/0.4.3/src/main/java/com/google/devtools/build/skyframe/ParallelEvaluator.java |
| `Cannot find gcc or CC; either correct your path or set the CC environment variable` | Bazel's unix_cc_configure | https://github.com/bazelbuild/bazel/blob/7.0.0/tools/cpp/unix_cc_configure.bzl |
| `Could not find any FILES matching version 'V' in any subdirectory:` | TensorFlow 2.1 to 2.17's find_cuda_config.py | https://github.com/tensorflow/tensorflow/blob/v2.15.0/third_party/gpus/find_cuda_config.py |
| `Bazel couldn't find a valid Visual C++ build tools installation on your machine.` | Bazel on Windows | https://github.com/bazelbuild/bazel/blob/7.0.0/tools/cpp/vc_installation_error.bat.tpl |
| `no such package '@local_config_cc//'` | every Bazel (cc_configure) | https://github.com/bazelbuild/bazel/blob/0.20.0/tools/cpp/cc_configure.bzl |
| `#error -- unsupported GNU version! gcc versions later than N are not supported!` (clang's, Visual Studio's) | every CUDA toolkit's crt/host_config.h | https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html#host-compiler-support-policy |
| `undefined symbol: _ZTIN10tensorflow8OpKernelE` (an op not linked with -ltensorflow_framework) | TensorFlow 1.4 onward | https://www.tensorflow.org/guide/create_op#compile_the_op_using_your_system_compiler |
"""  # noqa: E501 - a table, one row a line, its source URLs whole

from __future__ import annotations

import pytest

from tests.explaining import all_causes, explained, fix_text, tag_readings, top_error
from tfdoctor.signatures import REMOVED_API, WINDOWS_WORDS

BAZEL = "bazel-version-mismatch"
TOOLS = "native-addon-build-tools-missing"
HOST = "build-host-compiler-unsupported"
OP = "custom-op-build-mismatch"

_CACHE = "/home/dev/.cache/bazel/_bazel_dev/3f2a9c/external"


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        pytest.param(
            "ERROR: /src/serving/WORKSPACE:12:1: Traceback (most recent call last):\n"
            "\nCurrent Bazel version is 0.5.4, expected at least 0.10.0\n",
            "Bazel 0.10.0 or newer",
            id="workspace-minimum",
        ),
        pytest.param(
            "Current Bazel version is 7.2.1, expected at most 6.5.0\n",
            "Bazel 6.5.0 or older",
            id="workspace-maximum",
        ),
        pytest.param(
            f"ERROR: {_CACHE}/org_tensorflow/third_party/gpus/cuda_configure.bzl:117:1: file "
            "'@bazel_tools//tools/cpp:windows_cc_configure.bzl' does not contain symbol "
            "'setup_vc_env_vars'\nERROR: error loading package '': Extension file "
            "'third_party/gpus/cuda_configure.bzl' has errors\n",
            "setup_vc_env_vars from Bazel's own tools",
            id="bazel-tools-symbol",
        ),
        pytest.param(
            f"ERROR: {_CACHE}/org_tensorflow/third_party/gpus/cuda_configure.bzl:828:18: "
            "unexpected keyword 'environ' in call to repository_rule(implementation: function, "
            "*, attrs: dict or NoneType = None, local: bool = False).\n",
            "an argument this Bazel release does not take",
            id="old-keyword-words",
        ),
        pytest.param(
            "ERROR: Traceback (most recent call last):\n"
            '\tFile "/src/third_party/repo.bzl", line 40, column 28, in <toplevel>\n'
            "Error in repository_rule: repository_rule() got unexpected keyword argument "
            "'remotable'\n",
            "an argument this Bazel release does not take",
            id="new-keyword-words",
        ),
        pytest.param(
            "ERROR: /private/var/tmp/_bazel_dev/9a1f/external/io_bazel_rules_closure/closure/"
            "private/defs.bzl:27:16: The `set` constructor for depsets is deprecated and will "
            "be removed. Please use the `depset` constructor instead. You can temporarily enable "
            "the deprecated `set` constructor by passing the flag "
            "--incompatible_disallow_set_constructor=false.\n",
            "--incompatible_disallow_set_constructor=false",
            id="set-constructor",
        ),
        pytest.param(
            f"ERROR: {_CACHE}/io_bazel_rules_closure/closure/private/defs.bzl:27:16: name 'set' "
            "is not defined\n",
            "an older Bazel release",
            id="set-gone",
        ),
        pytest.param(
            "ERROR: /src/tensorflow/tensorflow/tensorflow.bzl:1008:30: depsets cannot contain "
            "mutable items.\n",
            "an older Bazel release",
            id="depset-mutable-items",
        ),
        pytest.param(
            "ERROR: /src/tools/proto.bzl:31:9: Traceback (most recent call last):\n"
            "Error in new_file: Use ctx.actions.declare_file instead of ctx.new_file. \n"
            "Use --incompatible_new_actions_api=false to temporarily disable this check.\n",
            "--incompatible_new_actions_api=false",
            id="ctx-new-file",
        ),
        pytest.param(
            "INFO: Reading rc options for 'build' from /src/tensorflow/.bazelrc:\n"
            "  'build' options: --apple_platform_type=macos --experimental_repo_remote_exec\n"
            "ERROR: --experimental_repo_remote_exec :: Unrecognized option: "
            "--experimental_repo_remote_exec\n",
            "does not know --experimental_repo_remote_exec",
            id="rc-option-unknown",
        ),
        pytest.param(
            "ERROR: /src/tools/defs.bzl:12:20: The value 'PACKAGE_NAME' has been removed in "
            "favor of 'package_name()', please use the latter "
            "(https://docs.bazel.build/versions/master/skylark/lib/native.html#package_name).\n",
            "an older Bazel release",
            id="package-name",
        ),
        pytest.param(
            "ERROR: error loading package '': Encountered error while reading extension file "
            "'closure/defs.bzl': no such package '@io_bazel_rules_closure//closure': The native "
            'http_archive rule is deprecated. load("@bazel_tools//tools/build_defs/repo:http.bzl"'
            ', "http_archive") for a drop-in replacement.\nUse '
            "--incompatible_remove_native_http_archive=false to temporarily continue using the "
            "native rule.\n",
            "--incompatible_remove_native_http_archive=false",
            id="native-http-archive",
        ),
        pytest.param(
            "ERROR: /src/vid2depth/WORKSPACE:29:1: name 'new_http_archive' is not defined\n",
            "repo:http.bzl",
            id="native-rule-gone",
        ),
    ],
)
def test_a_bazel_release_the_source_does_not_build_with(text: str, wanted: str) -> None:
    top = top_error(explained(text))
    assert top.cause == BAZEL
    fix = fix_text(top)
    assert wanted in fix and "Bazelisk" in fix


def test_a_removed_api_is_read_from_the_tag_not_the_id() -> None:
    # A line of the family under an id no code names: its removed-api tag alone says the
    # Bazel is newer than the source.
    text = (
        "ERROR: /src/tools/defs.bzl:7:15: The value 'REPOSITORY_NAME' has been removed in favor "
        "of 'repository_name()', please use the latter.\n"
    )
    tagged, untagged = tag_readings(text, "starlark-removed-api", REMOVED_API, BAZEL)
    assert "an older Bazel release" in tagged and "an older Bazel release" not in untagged


def test_use_bazel_version_is_said_to_be_bazelisks_only() -> None:
    # Bazel itself ignores USE_BAZEL_VERSION: the export alone changes nothing without Bazelisk.
    top = top_error(explained("Current Bazel version is 0.5.4, expected at least 0.10.0\n"))
    assert top.fix is not None
    export = [c for c in top.fix.commands if "USE_BAZEL_VERSION" in c]
    assert export and all("Bazelisk only" in c for c in export)
    assert "ignores it" in top.fix.text


def test_bazels_crash_setting_up_a_repository_is_a_warning_with_its_release() -> None:
    text = (
        "FATAL: bazel crashed due to an internal error. Printing stack trace:\n"
        "java.lang.RuntimeException: Unrecoverable error while evaluating node "
        "'REPOSITORY_DIRECTORY:@llvm' (requested by nodes 'PACKAGE_LOOKUP:@llvm//')\n"
    )
    found = [x for x in explained(text).findings if x.cause == BAZEL]
    assert found and found[0].severity.value == "warning"
    assert "@llvm" in fix_text(found[0]) and "cat .bazelversion" in fix_text(found[0])


@pytest.mark.parametrize(
    "text",
    [
        # A deprecation Bazel only warns of: the build goes on.
        pytest.param(
            "WARNING: /src/defs.bzl:27:16: The `set` constructor for depsets is deprecated and "
            "will be removed. Please use the `depset` constructor instead. You can temporarily "
            "enable the deprecated `set` constructor by passing the flag "
            "--incompatible_disallow_set_constructor=false.\n",
            id="warning-line",
        ),
        # The flag set on the command line is a choice, not an error.
        pytest.param(
            "bazel build --incompatible_disallow_set_constructor=false //tensorflow/tools/"
            "pip_package:build_pip_package\n",
            id="flag-given",
        ),
        # A dependency's own .bzl lacking a symbol is that dependency's pin, not Bazel's.
        pytest.param(
            "ERROR: /src/WORKSPACE:20:1: file '@io_bazel_rules_go//go:def.bzl' does not "
            "contain symbol 'go_rules_dependencies'\n",
            id="other-repository-symbol",
        ),
        # Python's TypeError (with "an") is a Python call's, not Starlark's.
        pytest.param(
            "TypeError: rule() got an unexpected keyword argument 'environ'\n",
            id="python-keyword",
        ),
        pytest.param(
            "name 'set' is not defined\nNameError: name 'set' is not defined\n",
            id="python-name",
        ),
        # Older Bazel's words for a macro of the source's own called with a keyword it lacks.
        pytest.param(
            "ERROR: /src/tensorflow/tensorflow/BUILD:12:1: unexpected keyword 'linkstatic' in "
            "call to tf_cc_test(name, srcs, deps, data = [], linkopts = [], args = None).\n",
            id="own-macro-keyword",
        ),
        # Bazel's crash elsewhere than a repository: not a reading of the source's release.
        pytest.param(
            "java.lang.RuntimeException: Unrecoverable error while evaluating node "
            "'ConfiguredTargetKey{label=//:bin}' (requested by nodes 'x')\n",
            id="crash-elsewhere",
        ),
        pytest.param("Current Bazel version is 6.5.0\n", id="version-only"),
        # An option of the command line's own that no release has: a typo, not a release.
        pytest.param(
            "ERROR: --cofig=cuda :: Unrecognized option: --cofig=cuda\n", id="typo-option"
        ),
        pytest.param(
            'WARNING: The native http_archive rule is deprecated. load("@bazel_tools//tools/'
            'build_defs/repo:http.bzl", "http_archive") for a drop-in replacement.\n',
            id="native-rule-warning",
        ),
    ],
)
def test_the_same_words_elsewhere_are_not_a_bazel_release(text: str) -> None:
    assert BAZEL not in all_causes(text)


def test_bazels_windows_toolchain_names_bazel_vc() -> None:
    text = (
        "C:\\tensorflow>bazel build --config=opt //tensorflow/tools/pip_package:"
        "build_pip_package\n"
        "ERROR: in target '//external:cc_toolchain': no such package '@local_config_cc//': "
        "Traceback (most recent call last):\n"
        '        File "C:/users/dev/_bazel_dev/x1/external/bazel_tools/tools/cpp/'
        'cc_configure.bzl", line 51\n'
        "                configure_windows_toolchain(repository_ctx)\n"
    )
    top = top_error(explained(text))
    assert top.cause == TOOLS
    fix = fix_text(top)
    assert "BAZEL_VC" in fix and "vswhere.exe" in fix


def test_bazels_visual_cpp_wrapper_is_windows_whatever_the_paths() -> None:
    text = (
        "The target you are compiling requires Visual C++ build tools.\n"
        "Bazel couldn't find a valid Visual C++ build tools installation on your machine.\n"
    )
    top = top_error(explained(text))
    assert top.cause == TOOLS and "BAZEL_VC" in fix_text(top)


def test_bazels_windows_words_are_read_from_the_tag() -> None:
    text = "Bazel couldn't find a valid Visual C++ build tools installation on your machine.\n"
    tagged, untagged = tag_readings(text, "bazel-vc-build-tools-not-found", WINDOWS_WORDS, TOOLS)
    assert "vswhere.exe" in tagged and "vswhere.exe" not in untagged


def test_bazel_without_a_compiler_on_linux_is_told_to_install_one() -> None:
    text = (
        "Error in fail:\nAuto-Configuration Error: Cannot find gcc or CC; either correct your "
        "path or set the CC environment variable\n"
        "ERROR: no such package '@@rules_cc++cc_configure_extension+local_config_cc//': "
        "Auto-Configuration Error\n"
    )
    top = top_error(explained(text))
    assert top.cause == TOOLS
    fix = fix_text(top)
    assert "build-essential" in fix and "CC" in fix and "BAZEL_VC" not in fix


def test_other_toolchain_words_are_not_bazels() -> None:
    # A package that merely names local_config_cc in a build file listing is no failure.
    assert TOOLS not in all_causes("INFO: Repository local_config_cc instantiated at:\n")


@pytest.mark.parametrize(
    ("line", "wanted"),
    [
        pytest.param(
            "/usr/local/cuda/include/crt/host_config.h:119:2: error: #error -- unsupported GNU "
            "version! gcc versions later than 5 are not supported!",
            "GCC_HOST_COMPILER_PATH=/usr/bin/gcc-5",
            id="gcc-cuda8",
        ),
        pytest.param(
            "/usr/local/cuda-11.2/include/crt/host_config.h:139:2: error: #error -- unsupported "
            "GNU version! gcc versions later than 10 are not supported! The nvcc flag "
            "'-allow-unsupported-compiler' can be used to override this version check; however, "
            "using an unsupported host compiler may cause compilation failure or incorrect run "
            "time execution. Use at your own risk.",
            "GCC 10 or older",
            id="gcc-cuda11",
        ),
        pytest.param(
            # clang reports an #error without the directive's name, unlike GCC.
            "/usr/local/cuda/include/crt/host_config.h:151:2: error: -- unsupported clang "
            "version! clang version must be less than 16 and greater than 3.2 . The nvcc flag "
            "'-allow-unsupported-compiler' can be used to override this version check",
            "-ccbin",
            id="clang",
        ),
        pytest.param(
            "C:\\cuda\\v11.2\\include\\crt/host_config.h(160): fatal error C1189: #error:  -- "
            "unsupported Microsoft Visual Studio version! Only the versions between 2017 and "
            "2019 (inclusive) are supported!",
            "Visual Studio",
            id="msvc",
        ),
    ],
)
def test_nvcc_refusing_the_host_compiler(line: str, wanted: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == HOST
    fix = fix_text(top)
    assert wanted in fix and "nvcc --version" in fix


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "#if __GNUC__ > 8\n// unsupported GNU version! gcc versions later than 8\n",
            id="bound-in-prose",
        ),
        # The header's own lines, as guides quote them to show the check (or comment it out).
        pytest.param(
            "#if __GNUC__ > 8\n#error -- unsupported GNU version! gcc versions later than 8 are "
            "not supported!\n#endif /* __GNUC__ > 8 */\n",
            id="header-quoted",
        ),
        pytest.param(
            "//#error -- unsupported GNU version! gcc versions later than 6 are not supported!\n",
            id="header-commented-out",
        ),
    ],
)
def test_a_guide_quoting_the_host_config_check_is_not_the_error(text: str) -> None:
    # The bound quoted as a preprocessor test, as guides show it, is not nvcc's refusal.
    assert HOST not in all_causes(text)


def test_an_op_not_linked_against_the_framework_library() -> None:
    text = (
        "tensorflow.python.framework.errors_impl.NotFoundError: ./zero_out.so: undefined "
        "symbol: _ZTIN10tensorflow8OpKernelE\n"
    )
    top = top_error(explained(text))
    assert top.cause == OP
    fix = fix_text(top)
    assert "-ltensorflow_framework" in fix and "get_link_flags" in fix


def test_an_op_of_the_other_abi_is_told_the_abi_not_the_link() -> None:
    text = (
        "tensorflow.python.framework.errors_impl.NotFoundError: ./zero_out.so: undefined "
        "symbol: _ZN10tensorflow8internal21CheckOpMessageBuilder9NewStringB5cxx11Ev\n"
    )
    top = top_error(explained(text))
    assert top.cause == OP
    fix = fix_text(top)
    assert "C++11 ABI" in fix and "framework library (libtensorflow_framework" not in fix


def test_a_windows_traceback_without_windows_paths_still_names_bazel_vc() -> None:
    text = (
        "ERROR: in target '//external:cc_toolchain': no such package '@local_config_cc//': "
        "Traceback (most recent call last):\n"
        "                configure_windows_toolchain(repository_ctx)\n"
    )
    top = top_error(explained(text))
    assert top.cause == TOOLS and "BAZEL_VC" in fix_text(top)


def test_the_failed_repository_alone_names_both_systems() -> None:
    text = "ERROR: no such package '@local_config_cc//': Traceback (most recent call last):\n"
    fix = fix_text(top_error(explained(text)))
    assert "BAZEL_VC" in fix and "CC set to one" in fix


def test_the_windows_traceback_line_alone_is_a_note() -> None:
    report = explained("                configure_windows_toolchain(repository_ctx)\n")
    noted = [x for x in report.findings if x.cause == TOOLS]
    assert noted and all(x.severity.value == "info" for x in noted)


@pytest.mark.parametrize(
    ("installed", "linked"),
    [pytest.param("2.4.1", True, id="after-1.4"), pytest.param("1.3.0", False, id="before-1.4")],
)
def test_the_framework_link_is_named_only_for_releases_that_have_it(
    installed: str, linked: bool
) -> None:
    text = (
        f"TensorFlow version: {installed}\n"
        "tensorflow.python.framework.errors_impl.NotFoundError: ./zero_out.so: undefined "
        "symbol: _ZTVN10tensorflow8OpKernelE\n"
    )
    top = top_error(explained(text))
    assert top.cause == OP
    assert ("-ltensorflow_framework" in fix_text(top)) is linked


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (
            "ValueError: Could not find any cudnn.h, cudnn_version.h matching version '8' in "
            "any subdirectory:",
            ("cudnn.h, cudnn_version.h of version 8", "TF_CUDNN_VERSION", "TF_CUDA_PATHS"),
        ),
        (
            "Could not find any NvInferVersion.h matching version '8' in any subdirectory:",
            ("NvInferVersion.h of version 8", "TF_TENSORRT_VERSION"),
        ),
        (
            "Could not find any libcudart.so.12* in any subdirectory:",
            ("libcudart.so.12*", "TF_CUDA_PATHS"),
        ),
    ],
    ids=["cudnn-header", "tensorrt-header", "cuda-runtime-library"],
)
def test_find_cuda_configs_refusal_names_the_file_and_where_to_point_it(
    line: str, words: tuple[str, ...]
) -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/.cache/bazel/_bazel_user/0a1b/external/org_tensorflow/third_party/'
        'gpus/find_cuda_config.py", line 648, in <module>\n'
        "    main()\n"
        f"{line}\n"
        "        ''\n"
        "        'include'\n"
        "of:\n"
        "        '/usr/local/cuda'\n"
    )
    top = top_error(explained(log))
    assert top.cause == "build-cuda-config-not-found"
    text = fix_text(top)
    for word in words:
        assert word in text


def test_nvcc_and_libdevice_under_two_roots_name_one_toolkit() -> None:
    log = (
        "Inconsistent CUDA toolkit path: /usr vs /usr/lib/nvidia-cuda-toolkit\n"
        "Asking for detailed CUDA configuration...\n"
    )
    top = top_error(explained(log))
    assert top.cause == "build-cuda-config-not-found"
    assert "one CUDA toolkit" in fix_text(top)


def test_find_cuda_configs_refusal_on_windows_gives_windows_commands() -> None:
    # The script's Windows pattern (cudart.lib) under the toolkit's installer directory: no
    # find(1) there, and the build is configured with configure.py.
    log = (
        "Traceback (most recent call last):\n"
        '  File "C:\\\\users\\\\dev\\\\_bazel_dev\\\\x1\\\\external\\\\org_tensorflow\\\\'
        'third_party\\\\gpus\\\\find_cuda_config.py", line 648, in <module>\n'
        "    main()\n"
        "ValueError: Could not find any cudart.lib in any subdirectory:\n"
        "        'lib/x64'\n"
        "of:\n"
        "        'C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\v11.2\\\\'\n"
    )
    top = top_error(explained(log))
    assert top.cause == "build-cuda-config-not-found"
    assert top.fix is not None
    assert not any(c.startswith("find ") for c in top.fix.commands)
    assert "python configure.py" in top.fix.commands
