"""What explain reads of native Windows failures outside Python's own words: TensorFlow.js for
Node's addon that Windows would not load (Node prints Windows' reason and the addon's path on
two lines), and a GPU build of TensorFlow asked for on native Windows after 2.10 (a C library
archive, a tensorflow-gpu pin, a wheel's platform tag, a user's words). Every log here is
written for the test, a variant of its family."""

from __future__ import annotations

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.nodejs import rejoin_addon_paths
from tfdoctor.evidence.stated import read_gpu_complaint
from tfdoctor.findings import Severity

_ADDON = (
    "\\\\?\\D:\\work\\svc\\node_modules\\@tensorflow\\{package}\\lib\\{napi}\\tfjs_binding.node"
)


def _node_failure(reason: str, package: str = "tfjs-node", napi: str = "napi-v6") -> str:
    """Node's uncaught error for an addon Windows would not load, as a terminal shows it."""
    return (
        "D:\\work\\svc>node server.js\n"
        "node:internal/modules/cjs/loader:1460\n"
        "  return process.dlopen(module, path.toNamespacedPath(filename));\n"
        "                 ^\n\n"
        f"Error: {reason}\n"
        f"{_ADDON.format(package=package, napi=napi)}\n"
        "    at Module._extensions..node (node:internal/modules/cjs/loader:1460:18)\n"
        "    at Module.load (node:internal/modules/cjs/loader:1203:32)\n"
        "  code: 'ERR_DLOPEN_FAILED'\n"
    )


def test_the_addon_path_joins_windows_reason_and_keeps_every_line_number() -> None:
    text = "Error: The specified module could not be found.\n\\\\?\\C:\\a\\b.node\nnext\n"
    joined = rejoin_addon_paths(text)
    assert joined.split("\n")[0] == (
        "Error: The specified module could not be found. \\\\?\\C:\\a\\b.node"
    )
    assert joined.count("\n") == text.count("\n")
    assert rejoin_addon_paths("no namespaced path here\n") == "no namespaced path here\n"


def test_a_tfjs_addon_whose_dll_failed_to_start_is_a_cpu_without_avx() -> None:
    top = top_error(
        explained(_node_failure("A dynamic link library (DLL) initialization routine failed."))
    )
    assert top.cause == "cpu-lacks-avx"
    fix = fix_text(top)
    assert "AVX" in fix
    assert "@tensorflow/tfjs-backend-wasm" in fix
    assert "/proc/cpuinfo" not in fix  # native Windows has none


def test_a_localised_initialisation_failure_reads_the_same() -> None:
    reason = "Eine DLL-Initialisierungsroutine ist fehlgeschlagen."
    assert top_error(explained(_node_failure(reason))).cause == "cpu-lacks-avx"


def test_a_tfjs_addon_that_exists_but_does_not_load_misses_tensorflow_dll_beside_it() -> None:
    log = _node_failure(
        "The specified module could not be found.", package="tfjs-node-gpu", napi="napi-v9"
    )
    top = top_error(explained(log))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "tensorflow.dll" in fix
    assert "lib\\napi-v9" in fix and "deps\\lib\\tensorflow.dll" in fix
    assert "npm rebuild @tensorflow/tfjs-node-gpu --build-addon-from-source" in fix
    assert "CUDA" in fix  # the GPU package's own DLLs
    assert "LD_DEBUG" not in fix


def test_a_tfjs_addon_of_another_word_size_is_a_32_bit_node() -> None:
    top = top_error(explained(_node_failure("%1 is not a valid Win32 application.")))
    assert top.cause == "wheel-mismatch"
    assert "64-bit" in fix_text(top)


def test_tfjs_own_message_for_an_addon_never_built_asks_for_its_build() -> None:
    log = (
        "Error: The Node.js native addon module (tfjs_binding.node) can not be found at path: "
        "/srv/app/node_modules/@tensorflow/tfjs-node/lib/napi-v8/tfjs_binding.node. \n"
    )
    top = top_error(explained(log))
    assert top.cause == "native-library-unresolved"
    assert "npm rebuild @tensorflow/tfjs-node --build-addon-from-source" in fix_text(top)


def test_tfjs_own_message_from_denos_npm_cache_asks_to_run_its_install_script() -> None:
    # Deno's npm cache keeps each release in a folder of its version; Deno runs no install
    # script it was not allowed to, so the addon was never fetched. tfjs-node 4.21.0 lists
    # N-API versions 3 to 8: node-pre-gyp's find() reads napi-v8 under any later runtime.
    log = (
        "error: Uncaught Error: The Node.js native addon module (tfjs_binding.node) can not be "
        "found at path: D:\\cache\\npm\\registry.npmjs.org\\@tensorflow\\tfjs-node-gpu\\"
        "4.21.0\\lib\\napi-v8\\tfjs_binding.node\n"
    )
    top = top_error(explained(log))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "deno approve-scripts npm:@tensorflow/tfjs-node-gpu" in fix
    assert "tfjs-node-gpu\\4.21.0\\lib\\napi-v8" in fix
    assert "npm rebuild" not in fix and "Visual C++ Redistributable" not in fix


def test_an_addon_missing_from_node_modules_on_windows_copies_its_dll_too() -> None:
    # On Windows the install stages tensorflow.dll beside the addon in its napi-v folder: an
    # addon copied from another napi-v folder needs it beside it too.
    log = (
        "Error: The Node.js native addon module (tfjs_binding.node) can not be found at path: "
        "C:\\app\\node_modules\\@tensorflow\\tfjs-node\\lib\\napi-v8\\tfjs_binding.node. \n"
    )
    fix = fix_text(top_error(explained(log)))
    assert (
        'dir /s /b "C:\\app\\node_modules\\@tensorflow\\tfjs-node\\lib\\tfjs_binding.node"' in fix
    )
    assert "tfjs_binding.node and tensorflow.dll" in fix
    assert "npm rebuild @tensorflow/tfjs-node --build-addon-from-source" in fix
    assert "deno" not in fix.lower()


def test_nodes_own_message_for_a_missing_addon_asks_for_its_build() -> None:
    # tfjs-node releases before its own check require the addon's path: Node's words then.
    log = (
        "Error: Cannot find module "
        "'/opt/svc/node_modules/@tensorflow/tfjs-node/lib/napi-v6/tfjs_binding.node'\n"
        "Require stack:\n- /opt/svc/node_modules/@tensorflow/tfjs-node/dist/index.js\n"
        "    at Function.Module._resolveFilename (node:internal/modules/cjs/loader:1039:15)\n"
        "  code: 'MODULE_NOT_FOUND',\n"
    )
    top = top_error(explained(log))
    assert top.cause == "native-library-unresolved"
    assert "npm rebuild @tensorflow/tfjs-node --build-addon-from-source" in fix_text(top)


def test_a_missing_module_of_another_package_is_not_tensorflow_js() -> None:
    log = "Error: Cannot find module '/opt/svc/node_modules/sharp/build/Release/sharp.node'\n"
    report = explained(log)
    assert all(x.cause != "native-library-unresolved" for x in report.findings)


def test_another_packages_addon_failing_the_same_way_is_not_tensorflow_js() -> None:
    # The same two lines for another addon: not TensorFlow's library, no cause of its own.
    log = (
        "Error: A dynamic link library (DLL) initialization routine failed.\n"
        "\\\\?\\C:\\app\\node_modules\\sharp\\build\\Release\\sharp-win32-x64.node\n"
    )
    report = explained(log)
    assert all(x.severity.rank < Severity.WARNING.rank for x in report.findings)


def test_a_windows_gpu_archive_of_a_release_without_one_ended_with_2_10() -> None:
    log = (
        "Building tensorflow-sys on Windows with the gpu feature:\n"
        "error: failed to download https://storage.googleapis.com/tensorflow/libtensorflow/"
        "libtensorflow-gpu-windows-x86_64-2.13.0.zip: 404 Not Found\n"
    )
    top = top_error(explained(log))
    assert top.cause == "windows-native-gpu-ended"
    fix = fix_text(top)
    assert "2.10" in fix and "WSL2" in fix


def test_the_windows_gpu_archive_of_a_release_that_had_one_is_no_such_finding() -> None:
    log = (
        "Downloading https://storage.googleapis.com/tensorflow/libtensorflow/"
        "libtensorflow-gpu-windows-x86_64-2.10.0.zip\n"
        "Downloading https://storage.googleapis.com/tensorflow/libtensorflow/"
        "libtensorflow-cpu-windows-x86_64-2.15.0.zip\n"
    )
    report = explained(log)
    assert all(x.cause != "windows-native-gpu-ended" for x in report.findings)


def test_the_archive_names_the_release_a_no_kernel_image_fix_moves_from() -> None:
    log = (
        "libtensorflow-gpu-windows-x86_64-2.3.1 on my GTX 860M GPU with compute capability 5.0: "
        "CUDA error: no kernel image is available for execution on the device\n"
    )
    top = top_error(explained(log))
    assert top.cause == "gpu-arch-unsupported"
    assert "TensorFlow 2.4" in fix_text(top)


def test_a_required_capability_is_not_the_users_gpu() -> None:
    log = (
        "This build needs my GPU with compute capability 3.5 or higher.\n"
        "CUDA error: no kernel image is available for execution on the device\n"
    )
    top = top_error(explained(log))
    assert "3.5 has no code" not in fix_text(top)


def _gpu_pin_refused(prompt: str) -> str:
    """pip refusing tensorflow-gpu 2.11.0 after ``prompt``, listing the releases it sees."""
    return (
        f"{prompt}pip install tensorflow-gpu==2.11.0\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow-gpu==2.11.0 "
        "(from versions: 2.9.0, 2.9.1, 2.10.0, 2.10.1, 2.12.0)\n"
        "ERROR: No matching distribution found for tensorflow-gpu==2.11.0\n"
    )


def test_tensorflow_gpu_after_2_10_refused_on_native_windows_ended_with_2_10() -> None:
    top = top_error(explained(_gpu_pin_refused("(tf) C:\\Users\\user>")))
    assert top.cause == "windows-native-gpu-ended"
    assert "2.10" in fix_text(top)


def test_the_same_refusal_on_linux_is_about_the_python() -> None:
    log = _gpu_pin_refused("user@box:~$ ")
    assert top_error(explained(log)).cause != "windows-native-gpu-ended"


def test_a_win_amd64_wheel_says_native_windows_where_no_gpu_is_listed() -> None:
    log = (
        "  Downloading tensorflow_intel-2.16.1-cp311-cp311-win_amd64.whl (377.0 MB)\n"
        "Successfully installed tensorflow-2.16.1 tensorflow-intel-2.16.1\n"
        ">>> tf.config.list_physical_devices('GPU')\n"
        "[]\n"
    )
    top = top_error(explained(log))
    assert top.cause == "windows-native-gpu-ended"
    assert "native Windows and TensorFlow 2.16.1" in fix_text(top)


def test_work_landing_on_the_cpu_is_a_complaint_and_wanting_it_there_is_not() -> None:
    assert read_gpu_complaint("Training runs on the CPU only, although CUDA is installed.")
    assert read_gpu_complaint("The installed environment results in CPU mode only for training.")
    assert read_gpu_complaint("It only uses the CPU during fit().") is not None
    assert read_gpu_complaint("I want to train only on the CPU for now.") is None
    assert read_gpu_complaint("I installed the CPU-only build, so it only uses the CPU.") is None
    assert read_gpu_complaint("The CPU usage is high during training.") is None


def test_cudnns_zlib_missing_is_looked_for_by_its_own_file_name() -> None:
    # cuDNN 8.3-8.9 on Windows prints this before the process dies; zlib's DLL has neither
    # the lib prefix nor the bitness of CUDA's own DLLs.
    report = explained(
        "2022-11-02 09:14:51.120458: I tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:53] Successfully opened dynamic library cudnn64_8.dll\n"
        "Could not locate zlibwapi.dll. Please make sure it is in your library path!\n"
    )
    top = top_error(report)
    assert top.cause == "cuda-libs-missing" and "where.exe zlibwapi.dll" in fix_text(top)
    commands = " ".join(c for x in report.findings if x.fix for c in x.fix.commands)
    assert "zlibwapi64_" not in commands


def test_a_cudnn_part_not_found_names_its_siblings_and_zlib() -> None:
    # cuDNN 8 loads its parts itself once its main DLL loaded: the part, or a DLL it needs
    # (zlib's, for 8.3-8.9), was not found.
    top = top_error(explained("Could not load library cudnn_ops_infer64_8.dll. Error code 126\n"))
    assert top.cause == "cuda-libs-missing"
    fix = fix_text(top)
    assert "where.exe cudnn64_8.dll cudnn_ops_infer64_8.dll zlibwapi.dll" in fix
    assert "not cudnn64_8.dll alone" in fix


def test_a_cudnn_part_of_another_word_size_is_not_one_off_the_path() -> None:
    report = explained("Could not load library cudnn_cnn_infer64_8.dll. Error code 193\n")
    top = top_error(report)
    assert top.cause == "cuda-libs-missing" and "another word size" in fix_text(top)
    assert all(x.cause != "cuda-libs-off-path" for x in report.findings)
