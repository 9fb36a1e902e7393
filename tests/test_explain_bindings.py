"""TensorFlow outside Python: the C API's bindings against an older C library, the C headers
not where the compiler looks, two TensorFlow.js releases in one program, and node-gyp without
a toolchain for TensorFlow.js for Node's addon."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.c_api import c_function
from tfdoctor.signatures import load_signatures


def test_a_go_binding_newer_than_the_c_library_names_the_binding() -> None:
    text = (
        "# github.com/wamuir/graft/tensorflow\n"
        "../pkg/mod/github.com/wamuir/graft@v0.4.0/tensorflow/tensor.go:69:26: could not "
        "determine kind of name for C.TF_FLOAT8_E4M3FN\n"
    )
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    assert "github.com/wamuir/graft" in fix and "TF_FLOAT8_E4M3FN" in fix
    assert "ldconfig -p | grep libtensorflow" in fix


def test_the_linkers_undefined_c_api_function_is_the_same_cause() -> None:
    text = (
        "/tmp/go-build1/b001/_x003.o: In function `_cgo_1_Cfunc_TF_NewSession':\n"
        "/tmp/go-build/cgo-gcc-prolog:198: undefined reference to `TF_NewSession'\n"
        "collect2: error: ld returned 1 exit status\n"
    )
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    assert fix_text(top).startswith("The binding was written for")


def test_an_undefined_reference_to_another_libraries_function_is_not_the_c_apis() -> None:
    text = "main.o: undefined reference to `png_create_read_struct'\n"
    assert all(f.cause != "companion-mismatch" for f in explained(text).findings)


def test_missing_c_headers_are_told_where_the_archive_goes() -> None:
    text = "attrs.go:20:11: fatal error: tensorflow/c/c_api.h: No such file or directory\n"
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "/usr/local" in fix and "CGO_CFLAGS" in fix


def test_two_tfjs_core_releases_are_aligned_not_reinstalled() -> None:
    text = (
        "TypeError: forwardFunc is not a function\n"
        "    at Engine.runKernelFunc (/app/node_modules/@tensorflow/tfjs-core/dist/engine.js:1:1)\n"
    )
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    assert "npm ls @tensorflow/tfjs-core" in fix and "tfjs-node" in fix


@pytest.mark.parametrize(
    ("text", "wanted", "unwanted"),
    [
        (
            "gyp ERR! find VS could not find a version of Visual Studio 2017 or newer to use\n",
            "Visual Studio Build Tools",
            "xcode-select",
        ),
        ("gyp: No Xcode or CLT version detected!\n", "xcode-select --install", "winget"),
        (
            'gyp ERR! stack Error: Can\'t find Python executable "python", you can set the '
            "PYTHON env variable.\n",
            "npm_config_python",
            "winget",
        ),
        (
            "$ uname -a\nLinux box 5.15.0 x86_64 GNU/Linux\ngyp ERR! stack Error: not found: "
            "make\n",
            "build-essential",
            "xcode-select",
        ),
    ],
)
def test_node_gyp_is_told_the_toolchain_it_missed(text: str, wanted: str, unwanted: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "native-addon-build-tools-missing"
    fix = fix_text(top)
    assert wanted in fix and unwanted not in fix


_XCODEBUILD = (
    "xcode-select: error: tool 'xcodebuild' requires Xcode, but active developer directory "
    "'/Library/Developer/CommandLineTools' is a command line tools instance\n"
)


@pytest.mark.parametrize(
    ("after", "severity"), [("gyp info ok\n", "info"), ("gyp ERR! not ok\n", "warning")]
)
def test_xcodebuilds_refusal_weighs_by_how_the_build_ended(after: str, severity: str) -> None:
    found = [
        f
        for f in explained(_XCODEBUILD + after).findings
        if f.cause == "native-addon-build-tools-missing"
    ]
    assert found and found[0].severity.value == severity
    fix = fix_text(found[0])
    # The Command Line Tools are the active directory: Xcode is asked for, not the tools.
    assert "/Applications/Xcode.app" in fix and "xcode-select --install" not in fix


def test_a_c_programs_undefined_tf_function_is_not_blamed_on_a_binding() -> None:
    text = (
        "/usr/bin/ld: cannot find -ltensorflow: No such file or directory\n"
        "hello_tf.c:(.text+0x9): undefined reference to `TF_Version'\n"
    )
    report = explained(text)
    assert all(f.cause != "companion-mismatch" for f in report.findings)
    assert top_error(report).cause == "native-library-unresolved"


def test_the_c_library_fix_follows_the_system_shown() -> None:
    mac = "/Users/me/src/main.c:1:10: fatal error: 'tensorflow/c/c_api.h' file not found\n"
    fix = fix_text(top_error(explained(mac)))
    assert "brew install libtensorflow" in fix and "ldconfig" not in fix


def test_a_program_the_loader_will_not_start_is_told_what_the_library_is() -> None:
    # A C++ program (no Python import) linking TensorFlow Lite's C library: the fix names
    # the library, how it is built and where the loader looks, not Python's import.
    log = (
        "$ ./build/detect --model m.tflite\n"
        "./build/detect: error while loading shared libraries: libtensorflowlite_c.so: "
        "cannot open shared object file: No such file or directory\n"
    )
    top = top_error(explained(log))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "libtensorflowlite_c" in fix and "tensorflow/lite/c" in fix
    assert "ldconfig" in fix and "LD_LIBRARY_PATH" in fix
    assert "ldd ./build/detect" in fix
    assert "import tensorflow" not in fix
    # The CMake build leaves the library in its build folder: ldconfig is told to look there.
    assert 'echo "$PWD/tflite_c_build" | sudo tee /etc/ld.so.conf.d/tensorflowlite_c.conf' in fix
    assert "cd tflite_c_build" not in fix


def test_a_library_the_table_does_not_know_is_named_without_a_build() -> None:
    log = (
        "/opt/bin/infer: error while loading shared libraries: libonnxruntime.so.1: cannot "
        "open shared object file: No such file or directory\n"
    )
    fix = fix_text(top_error(explained(log)))
    assert "libonnxruntime.so.1" in fix and "ldd /opt/bin/infer" in fix
    assert "cmake" not in fix and "import tensorflow" not in fix


def test_a_program_found_on_path_is_given_to_ldd_by_its_path() -> None:
    # The loader names the program as it was run (argv[0]); ldd reads a bare name as a file
    # in the working directory, so the fix asks the shell where the program is.
    log = (
        "infer: error while loading shared libraries: libonnxruntime.so.1: cannot open shared "
        "object file: No such file or directory\n"
    )
    fix = fix_text(top_error(explained(log)))
    assert "ldd \"$(command -v infer)\" | grep 'not found'" in fix
    assert "ldd infer" not in fix


def test_an_architecture_the_toolkit_dropped_is_not_a_toolkit_too_old() -> None:
    text = "nvcc fatal   : Unsupported gpu architecture 'compute_30'\n"
    assert all(f.cause != "ptxas-too-old" for f in explained(text).findings)


def test_alpines_build_tools_are_named_beside_debians() -> None:
    text = "$ uname -a\nLinux box 6.1.0 x86_64 Linux\ngyp ERR! stack Error: not found: make\n"
    fix = fix_text(top_error(explained(text)))
    assert "apk add --no-cache build-base" in fix and "sudo" not in fix


def test_kernel_function_names_without_tfjs_in_the_log_are_a_warning() -> None:
    alone = [
        f
        for f in explained("TypeError: kernelFunc is not a function\n").findings
        if f.cause == "companion-mismatch"
    ]
    assert alone and alone[0].severity.value == "warning"
    shown = (
        "TypeError: kernelFunc is not a function\n"
        "    at Engine.runKernelFunc (/app/node_modules/@tensorflow/tfjs-core/dist/tf-core."
        "node.js:3349:22)\n"
    )
    assert top_error(explained(shown)).cause == "companion-mismatch"


def test_node_gyps_python_on_windows_is_told_no_posix_shell_command() -> None:
    text = (
        r"npm ERR! path C:\Users\me\app\node_modules\@tensorflow\tfjs-node" + "\n"
        "npm ERR! gyp ERR! stack Error: Could not find any Python installation to use\n"
    )
    fix = fix_text(top_error(explained(text)))
    # cmd and PowerShell alike: the py launcher, which node-gyp tries itself.
    assert "py -3" in fix and "export " not in fix and "$env:" not in fix


def test_a_dotnet_binding_missing_a_c_function_is_a_release_pairing() -> None:
    report = explained(
        "Unhandled exception. System.EntryPointNotFoundException: Unable to find an entry "
        "point named 'TF_DeleteBuffer2' in DLL 'tensorflow'.\n"
    )
    found = top_error(report)
    assert found.cause == "companion-mismatch"
    assert "TF_DeleteBuffer2" in fix_text(found) and "Redist" in fix_text(found)
    assert "go list" not in fix_text(found)
    # Another library's missing entry point is not TensorFlow's C API.
    other = explained(
        "System.EntryPointNotFoundException: Unable to find an entry point named "
        "'cv_Mat_new' in DLL 'OpenCvSharpExtern'.\n"
    )
    assert not any(f.cause == "companion-mismatch" for f in other.findings)


@pytest.mark.parametrize(
    ("line", "lacks"),
    [
        pytest.param(
            "System.EntryPointNotFoundException: Unable to find an entry point named "
            "'TF_StringDecode' in DLL 'tensorflow'.",
            "TF_StringDecode",
            id="dotnet",
        ),
        pytest.param(
            "./infer: symbol lookup error: ./infer: undefined symbol: TF_StringEncode",
            "TF_StringEncode",
            id="glibc-loader",
        ),
        pytest.param(
            "The procedure entry point TF_StringEncodedSize could not be located in the "
            "dynamic link library D:\\tools\\infer.exe.",
            "TF_StringEncodedSize",
            id="windows-loader",
        ),
    ],
)
def test_a_removed_c_function_names_the_last_library_with_it(line: str, lacks: str) -> None:
    row = c_function(lacks)
    assert row is not None and row.last is not None
    found = top_error(explained(line + "\n"))
    assert found.cause == "companion-mismatch"
    assert f"in {row.removed}" in fix_text(found) and f" {row.last}" in fix_text(found)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "python3: symbol lookup error: /home/u/.local/lib/python3.8/site-packages/"
            "tensorflow_io/core/python/ops/libtensorflow_io_plugins.so: undefined symbol: "
            "TF_GetCode",
            id="glibc-site-packages",
        ),
        pytest.param(
            "The procedure entry point TF_GetCode could not be located in the dynamic link "
            "library C:\\Users\\me\\envs\\tf\\Lib\\site-packages\\tensorflow_text\\"
            "python\\ops\\_ops.pyd.",
            id="windows-pyd",
        ),
    ],
)
def test_a_python_add_ons_missing_c_function_is_not_a_c_binding(line: str) -> None:
    # A library inside a Python environment is an add-on built against another TensorFlow:
    # its fix is the add-on's release, never a libtensorflow download.
    report = explained(line + "\n")
    assert all("libtensorflow" not in fix_text(f) for f in report.findings if f.fix)


def test_the_loaders_undefined_non_tf_symbol_is_not_the_c_api() -> None:
    report = explained("./infer: symbol lookup error: ./infer: undefined symbol: png_create\n")
    assert not any(f.cause == "companion-mismatch" for f in report.findings)


@pytest.mark.parametrize(
    "line",
    [
        "System.DllNotFoundException: Unable to load DLL 'tensorflow': A dynamic link library "
        "(DLL) initialization routine failed. (Exception from HRESULT: 0x8007045A)",
        "The program '[912] Trainer.exe' has exited with code 0xC000001D (Illegal Instruction).",
    ],
)
def test_a_dotnet_host_stopped_by_the_cpu_is_the_instruction_set(line: str) -> None:
    assert top_error(explained(line + "\n")).cause == "cpu-lacks-avx"


def test_a_dotnet_tensorflow_dll_not_found_is_no_cpu_reading() -> None:
    report = explained(
        "System.DllNotFoundException: Unable to load DLL 'tensorflow': The specified module "
        "could not be found. (Exception from HRESULT: 0x8007007E)\n"
    )
    assert not any(f.cause == "cpu-lacks-avx" for f in report.findings)


@pytest.mark.parametrize(
    "line",
    [
        "Error loading shared library libgcc_s.so.1: No such file or directory (needed by "
        "/opt/app/lib/libtensorflow_framework.so.2)",
        "ImportError: Error relocating /usr/lib/python3.12/site-packages/tensorflow/python/"
        "_pywrap_tfe.so: __res_init: symbol not found",
    ],
)
def test_musls_loader_refusing_tensorflow_is_a_build_for_glibc(line: str) -> None:
    found = top_error(explained(line + "\n"))
    assert found.cause == "wheel-mismatch"
    assert "glibc" in fix_text(found) and "ldd --version" in fix_text(found)


def test_musls_loader_refusing_another_library_is_not_tensorflows() -> None:
    report = explained(
        "Error loading shared library libssl.so.3: No such file or directory (needed by "
        "/usr/bin/curl)\n"
    )
    assert not any(f.cause == "wheel-mismatch" for f in report.findings)


@pytest.mark.parametrize(
    ("text", "wanted", "unwanted"),
    [
        (
            "  building 'pkg._speedups' extension\n  error: Microsoft Visual C++ 14.0 or greater "
            'is required. Get it with "Microsoft C++ Build Tools": '
            "https://visualstudio.microsoft.com/visual-cpp-build-tools/\n",
            "Workload.VCTools",
            "apt-get",
        ),
        ("running build_ext\nerror: Unable to find vcvarsall.bat\n", "Build Tools", "node-gyp"),
        (
            "  gcc -pthread -fPIC -c src/mod.c -o build/mod.o\n"
            "  error: command 'gcc' failed: No such file or directory\n",
            "build-essential python3-dev",
            "winget",
        ),
        (
            "unable to execute 'x86_64-linux-gnu-gcc': No such file or directory\n"
            "error: command 'x86_64-linux-gnu-gcc' failed with exit status 1\n",
            "(x86_64-linux-gnu-gcc)",
            "node-gyp",
        ),
        (
            "xcrun: error: invalid active developer path (/Library/Developer/CommandLineTools), "
            "missing xcrun at: /Library/Developer/CommandLineTools/usr/bin/xcrun\n"
            "error: command '/usr/bin/clang' failed with exit code 1\n",
            "xcode-select --install",
            "apt-get",
        ),
    ],
)
def test_a_python_extension_build_is_told_the_toolchain_it_missed(
    text: str, wanted: str, unwanted: str
) -> None:
    top = top_error(explained(text))
    assert top.cause == "native-addon-build-tools-missing"
    fix = fix_text(top)
    # The way around the build is named too: a release with a wheel needs no compiler.
    assert wanted in fix and unwanted not in fix and "wheel" in fix


@pytest.mark.parametrize(
    "text",
    [
        # A compile that ran and failed: the compiler is there (its own errors say what).
        "src/mod.c:1:10: fatal error: Python.h: No such file or directory\n"
        "error: command '/usr/bin/gcc' failed with exit code 1\n",
        # Another program's missing file, in the same words.
        "error: command 'make' failed: No such file or directory\n",
    ],
)
def test_other_build_failures_are_not_a_missing_toolchain(text: str) -> None:
    assert not [
        f for f in explained(text).findings if f.cause == "native-addon-build-tools-missing"
    ]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "Uncaught (in promise) TypeError: Unknown op 'CropAndResizeV9'. File an issue at "
            "https://github.com/tensorflow/tfjs/issues so we can add it, or register a custom "
            "execution with tf.registerOp()\n",
            id="executor-sentence",
        ),
        pytest.param("Error: Unknown op 'CropAndResizeV9'.\n", id="sentence-cut"),
        pytest.param(
            "TypeError: Unknown op 'CropAndResizeV9'.\n"
            "    at executeOp (https://cdn.jsdelivr.net/npm/@tensorflow/tfjs@1.0.0:2:1)\n",
            id="cut-with-tfjs-frame",
        ),
    ],
)
def test_an_op_tfjs_does_not_implement_gets_a_tfjs_release(text: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "op-not-registered"
    fix = fix_text(top)
    assert "CropAndResizeV9" in fix and "@tensorflow/tfjs" in fix
    assert "pip" not in fix


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Error: Unknown op '-'\n", id="an-interpreters-operator"),
        pytest.param("unknown op 'to_solid'\n", id="lowercase-operator"),
        pytest.param("root.filter: Unknown op 'contains_all'\n", id="a-validators-words"),
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "convert.py", line 3, in <module>\n'
            "    export(graph)\n"
            "ValueError: Unknown op 'CropAndResizeV9'.\n",
            id="a-python-programs-words",
        ),
    ],
)
def test_other_programs_unknown_op_is_not_read_as_tfjs(text: str) -> None:
    assert all(f.cause != "op-not-registered" for f in explained(text).findings)


def test_the_loaders_line_names_the_program_it_would_not_start() -> None:
    # One reading of the loader's words: the signature that names the library names the
    # program glibc's line puts before it, and only there (Python's import names none).
    pattern = load_signatures().by_id("shared-object-not-found").pattern
    started = pattern.search(
        "  /opt/bin/infer: error while loading shared libraries: libonnxruntime.so.1: cannot "
        "open shared object file: No such file or directory"
    )
    assert started is not None
    assert started.group("command", "library") == ("/opt/bin/infer", "libonnxruntime.so.1")
    imported = pattern.search("ImportError: libfoo.so.1: cannot open shared object file: x")
    assert imported is not None and imported.group("command") is None
