"""TensorFlow's native code on the platform under it: where the log leaves the reason open
(an illegal instruction on a Mac it does not show, Windows' reason cut from "DLL load failed",
TensorFlow's own line without the loader's error), a CPU without AVX is ranked as the other
candidate; a JVM library that does not load is the HDFS file system's unless another library
starts a JVM; Node's ERR_DLOPEN_FAILED beside TensorFlow.js is its addon."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import CANDIDATE, explained, fix_text, readings, top_error
from tfdoctor.findings import Finding, Report, Severity


def _finding(report: Report, cause: str) -> Optional[Finding]:
    return next((x for x in report.findings if x.cause == cause), None)


def test_an_illegal_instruction_on_a_mac_not_shown_ranks_an_intel_mac_without_avx() -> None:
    report = explained("$ python -c 'import tensorflow'\nIllegal instruction: 4\n")
    assert top_error(report).cause == "cpu-emulated"
    avx = _finding(report, "cpu-lacks-avx")
    assert avx is not None and avx.severity.value == "warning"
    assert avx.summary.endswith(CANDIDATE)
    fix = fix_text(avx)
    assert "AVX" in fix and "sysctl -n machdep.cpu.brand_string" in fix
    assert [x.cause for x in readings(report)] == ["cpu-emulated"]


def test_a_log_of_macos_whose_mac_is_not_shown_ranks_the_same_candidate() -> None:
    report = explained(
        "Python 3.9.6 (default, Oct 18 2022, 12:41:40) [Clang 14.0.0] on darwin\n"
        "Illegal instruction\n"
    )
    assert top_error(report).cause == "cpu-emulated"
    avx = _finding(report, "cpu-lacks-avx")
    assert avx is not None and avx.summary.endswith(CANDIDATE)


@pytest.mark.parametrize("python", ["/usr/local/bin/python3.11", "/opt/anaconda3/bin/python"])
def test_a_macs_prompt_outranks_a_program_path_macs_have_too(python: str) -> None:
    # /usr/local (Intel Homebrew) and /opt (Anaconda) are a Mac's paths too: the zsh prompt
    # of a Mac says macOS, so no fix reads Linux's /proc/cpuinfo.
    report = explained(
        f"kim@Kims-MacBook-Pro ~ % {python} -c 'import tensorflow'\n"
        f"zsh: illegal hardware instruction  {python} -c 'import tensorflow'\n"
    )
    fixes = [fix_text(x) for x in report.findings if x.fix is not None]
    assert fixes and not [x for x in fixes if "/proc/cpuinfo" in x]
    assert top_error(report).cause == "cpu-emulated"


@pytest.mark.parametrize(
    "prompt",
    [
        pytest.param("kim@Kims-MacBook-Pro:~/src$", id="mac-host"),
        pytest.param("kim@box:/Users/kim/src$", id="users-home"),
        pytest.param("kim@box src %", id="zsh-prompt"),
    ],
)
def test_a_macs_prompt_of_any_shell_says_macos(prompt: str) -> None:
    # bash's `$` ends a prompt on a Mac as on Linux: the Mac's host name, its /Users/ home
    # and zsh's prompt as macOS sets it say the system.
    report = explained(f"{prompt} python -c 'import tensorflow'\nIllegal instruction\n")
    assert top_error(report).cause == "cpu-emulated"
    assert not [x for x in report.findings if x.fix is not None and "/proc/cpuinfo" in fix_text(x)]


def test_a_container_run_from_a_macs_prompt_keeps_its_linux_paths() -> None:
    # A container is Linux whatever its host: its /usr/ paths are no Mac's, so the fixes are
    # not a Mac's native Python (arch -arm64) nor its sysctl.
    report = explained(
        "kim@Kims-MacBook-Pro ~ % docker run --rm tensorflow/tensorflow python -c "
        "'import tensorflow'\n"
        '  File "/usr/local/lib/python3.11/dist-packages/tensorflow/__init__.py", line 38, '
        "in <module>\n"
        "Illegal instruction\n"
    )
    fixes = [fix_text(x) for x in report.findings if x.fix is not None]
    assert fixes and not [x for x in fixes if "arch -arm64" in x or "sysctl" in x]


def test_an_apple_silicon_mac_shown_keeps_rosetta_alone() -> None:
    report = explained("MacBook Pro M1 chip\nzsh: illegal hardware instruction  python app.py\n")
    assert top_error(report).cause == "cpu-emulated"
    assert _finding(report, "cpu-lacks-avx") is None


def test_an_intel_mac_shown_is_the_cpu_itself_with_no_candidate() -> None:
    report = explained("macOS 10.12.6\nIllegal instruction: 4\n")
    assert top_error(report).cause == "cpu-lacks-avx"
    assert _finding(report, "cpu-emulated") is None


def test_qemu_keeps_the_emulator_alone() -> None:
    report = explained("qemu: uncaught target signal 4 (Illegal instruction) - core dumped\n")
    assert all(x.cause != "cpu-lacks-avx" for x in report.findings)


def test_windows_reason_cut_ranks_a_cpu_without_avx_after_the_runtime() -> None:
    report = explained("import tensorflow\nImportError: DLL load failed\n")
    assert top_error(report).cause == "msvc-runtime-missing"
    avx = _finding(report, "cpu-lacks-avx")
    assert avx is not None and avx.severity.value == "warning" and avx.summary.endswith(CANDIDATE)
    fix = fix_text(avx)
    # Windows' check of the CPU's instruction sets, not Linux's /proc/cpuinfo.
    assert "coreinfo64" in fix and "/proc/cpuinfo" not in fix and "1.5" in fix


def test_windows_reason_given_decides_without_a_candidate() -> None:
    missing = explained("ImportError: DLL load failed: The specified module could not be found.\n")
    assert _finding(missing, "cpu-lacks-avx") is None
    init = explained(
        "ImportError: DLL load failed: A dynamic link library (DLL) initialization routine "
        "failed.\n"
    )
    assert top_error(init).cause == "cpu-lacks-avx"
    assert not top_error(init).summary.endswith(CANDIDATE)


@pytest.mark.parametrize(
    "reason",
    [
        "The specified module could not be found.",
        "  The specified procedure could not be found.",
        "%1 is not a valid Win32 application.",
    ],
)
def test_windows_reason_on_the_line_below_decides_without_a_candidate(reason: str) -> None:
    # A paste wrapped after Python's colon keeps Windows' reason on the next line: not cut.
    report = explained(
        "ImportError: DLL load failed while importing _pywrap_tensorflow_internal:\n"
        f"{reason}\n\nFailed to load the native TensorFlow runtime.\n"
    )
    assert _finding(report, "cpu-lacks-avx") is None


def test_tensorflows_own_line_alone_ranks_a_cpu_without_avx() -> None:
    report = explained("Failed to load the native TensorFlow runtime.\n")
    assert top_error(report).cause == "native-library-unresolved"
    avx = _finding(report, "cpu-lacks-avx")
    assert avx is not None and avx.severity.value == "warning"
    fix = fix_text(avx)
    assert "/proc/cpuinfo" in fix and "coreinfo64" in fix


def test_tensorflows_own_line_with_the_loaders_error_has_no_avx_candidate() -> None:
    report = explained(
        "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or "
        "directory\nFailed to load the native TensorFlow runtime.\n"
    )
    assert _finding(report, "cpu-lacks-avx") is None


def _loader_over(module: str, python: str = "313", loader: bool = True) -> str:
    """TensorFlow 1's loader raising its own words over an import of ``module`` that failed,
    on a python.org install of Python ``python`` (its folder's tag); with ``loader`` False,
    the import is the user's script's, not the loader's."""
    site = rf"C:\Python{python}\Lib\site-packages\tensorflow\python"
    where = rf"{site}\pywrap_tensorflow.py" if loader else r"C:\proj\train.py"
    return (
        "Traceback (most recent call last):\n"
        f'  File "{where}", line 58, in <module>\n'
        f"    import {module}\n"
        f"ModuleNotFoundError: No module named '{module}'\n\n"
        "Failed to load the native TensorFlow runtime.\n"
    )


def test_tensorflows_own_line_over_a_module_python_removed_is_that_removal() -> None:
    # The loader's words over Python 3.13's refusal of imp (gone in 3.12): the removed
    # module's reading names the reason; no DLL, no CPU candidate.
    report = explained(_loader_over("imp"))
    assert top_error(report).cause == "tf-release-not-for-python"
    assert _finding(report, "native-library-unresolved") is None
    assert _finding(report, "cpu-lacks-avx") is None


@pytest.mark.parametrize(
    ("module", "python", "loader"),
    [
        # A Python that still has the module: not the removal, the loader's reading stays.
        pytest.param("imp", "37", True, id="a-python-that-has-it"),
        # Another module than one Python removed.
        pytest.param("numpy", "313", True, id="not-a-removed-module"),
        # A module missing in another traceback is no reason of the loader's.
        pytest.param("imp", "313", False, id="another-traceback"),
    ],
)
def test_tensorflows_own_line_over_another_import_reason_stays_the_loaders(
    module: str, python: str, loader: bool
) -> None:
    report = explained(_loader_over(module, python, loader))
    assert _finding(report, "native-library-unresolved") is not None


def test_tensorflows_own_line_on_linux_shown_has_no_avx_candidate() -> None:
    # On Linux a CPU without AVX kills the import (SIGILL): it prints no Python error.
    report = explained(
        '  File "/usr/lib/python3/dist-packages/tensorflow/python/pywrap_tensorflow.py", line 58\n'
        "Linux-5.15.0-91-generic-x86_64-with-glibc2.35\n"
        "Failed to load the native TensorFlow runtime.\n"
    )
    assert _finding(report, "cpu-lacks-avx") is None


def test_libjvm_unfound_ranks_the_hdfs_file_systems_environment() -> None:
    report = explained(
        "ERROR: libjvm.so: cannot open shared object file: No such file or directory\n"
    )
    assert top_error(report).cause == "native-library-unresolved"
    hdfs = _finding(report, "filesystem-env-misconfigured")
    assert hdfs is not None and hdfs.severity.value == "warning"
    assert hdfs.summary.endswith(CANDIDATE) and "JAVA_HOME" in fix_text(hdfs)


def test_libjvm_unfound_beside_hdfs_is_its_environment() -> None:
    report = explained(
        "reading hdfs://namenode:8020/data/train.tfrecord\n"
        "ERROR: libjvm.so: cannot open shared object file: No such file or directory\n"
    )
    top = top_error(report)
    assert top.cause == "filesystem-env-misconfigured" and not top.summary.endswith(CANDIDATE)


def test_libjvm_unfound_beside_another_jvm_library_is_the_loaders() -> None:
    report = explained(
        "import jpype\njpype.startJVM()\n"
        "OSError: libjvm.so: cannot open shared object file: No such file or directory\n"
    )
    assert all(x.cause != "filesystem-env-misconfigured" for x in report.findings)


def test_node_dlopen_failed_beside_tfjs_node_is_its_addon() -> None:
    text = (
        "at Object.<anonymous> "
        "(C:\\app\\node_modules\\@tensorflow\\tfjs-node\\dist\\index.js:72:16)\n"
        "at Module._compile (node:internal/modules/cjs/loader:1368:14) {\n"
        "    code: 'ERR_DLOPEN_FAILED'\n"
        "}\n"
    )
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "tensorflow.dll" in fix and "deps\\lib" in fix and "copy " in fix
    assert "ldd" not in fix  # the log is of Windows


def test_node_dlopen_failed_names_the_gpu_package_the_log_shows() -> None:
    text = (
        "C:\\app> npm install @tensorflow/tfjs-node-gpu\n"
        "at Object.<anonymous> "
        "(C:\\app\\node_modules\\@tensorflow\\tfjs-node-gpu\\dist\\index.js:72:16)\n"
        "    code: 'ERR_DLOPEN_FAILED'\n"
    )
    top = top_error(explained(text))
    assert top.fix is not None
    assert "npm rebuild @tensorflow/tfjs-node-gpu --build-addon-from-source" in top.fix.commands
    assert not any("tfjs-node\\" in c or "tfjs-node " in c for c in top.fix.commands)


def test_node_dlopen_failed_system_not_shown_gives_both_systems() -> None:
    text = "$ npm view @tensorflow/tfjs-node binary\nError: ERR_DLOPEN_FAILED\n"
    fix = fix_text(top_error(explained(text)))
    assert "tensorflow.dll" in fix and "ldd" in fix


def test_node_dlopen_failed_of_another_addon_is_not_tfjs() -> None:
    text = (
        "at Object.<anonymous> (/srv/app/node_modules/sharp/lib/sharp.js:10:16)\n"
        "  code: 'ERR_DLOPEN_FAILED'\n"
    )
    report = explained(text)
    assert all("tfjs" not in (x.summary or "") for x in report.findings)
    assert all(x.cause != "native-library-unresolved" for x in report.findings)


def test_a_packages_own_library_reported_absent_is_a_build_for_another_platform() -> None:
    text = (
        "tensorflow.python.framework.errors_impl.NotFoundError: /srv/venv/lib/python3.10/"
        "site-packages/tensorflow_text/python/ops/_regex_split_ops.so: cannot open shared "
        "object file: No such file or directory\n"
    )
    top = top_error(explained(text))
    assert top.cause == "wheel-mismatch"
    fix = fix_text(top)
    assert "uname -m" in fix and "file /srv/venv/lib/python3.10/site-packages/" in fix
    assert "tensorflow-text" in fix and "--only-binary=:all:" in fix


def test_a_library_searched_by_name_keeps_the_loaders_reading() -> None:
    text = "ImportError: libfoo.so: cannot open shared object file: No such file or directory\n"
    assert all(x.cause != "wheel-mismatch" for x in explained(text).findings)


def test_a_dependency_the_packages_library_needs_keeps_the_loaders_reading() -> None:
    text = (
        "ImportError: libgomp.so.1: cannot open shared object file: No such file or directory "
        "(required by /srv/venv/lib/python3.10/site-packages/tensorflow_text/python/ops/"
        "_regex_split_ops.so)\n"
    )
    assert all(x.cause != "wheel-mismatch" for x in explained(text).findings)


def test_dotnet_library_not_found_ranks_a_32bit_process_after_it() -> None:
    text = (
        "Unhandled Exception:\nSystem.DllNotFoundException: libtensorflow\n"
        "  at (wrapper managed-to-native) TensorFlow.TFGraph.TF_NewGraph()\n"
    )
    report = explained(text)
    top = top_error(report)
    assert top.cause == "native-library-unresolved"
    # TensorFlowSharp's NuGet package carries the library: no TensorFlow.NET package offered.
    assert "SciSharp" not in fix_text(top)
    word = _finding(report, "binding-process-not-64bit")
    assert word is not None and word.severity.value == "warning"
    assert word.summary.endswith(CANDIDATE) and "PlatformTarget=x64" in fix_text(word)


def test_dotnet_library_that_failed_to_start_is_the_cpu_not_the_word_size() -> None:
    text = (
        "System.DllNotFoundException: Unable to load DLL 'tensorflow': A dynamic link library "
        "(DLL) initialization routine failed. (Exception from HRESULT: 0x8007045A)\n"
    )
    report = explained(text)
    assert top_error(report).cause == "cpu-lacks-avx"
    assert _finding(report, "binding-process-not-64bit") is None
    assert _finding(report, "native-library-unresolved") is None


def test_another_dotnet_library_not_found_is_not_tensorflows() -> None:
    report = explained("System.DllNotFoundException: libgdiplus\n")
    assert _finding(report, "binding-process-not-64bit") is None


def test_java_on_a_32bit_jvm_is_the_process() -> None:
    text = (
        'Exception in thread "main" java.lang.UnsatisfiedLinkError: Cannot find TensorFlow '
        "native library for OS: windows, architecture: x86. See https://github.com/tensorflow/"
        "tensorflow/tree/master/tensorflow/java/README.md for possible solutions\n"
    )
    top = top_error(explained(text))
    assert top.cause == "binding-process-not-64bit"
    assert "64-bit JDK" in fix_text(top)


def test_java_on_a_64bit_machine_without_a_build_is_not_the_word_size() -> None:
    text = (
        "java.lang.UnsatisfiedLinkError: Cannot find TensorFlow native library for OS: linux, "
        "architecture: aarch64.\n"
    )
    assert _finding(explained(text), "binding-process-not-64bit") is None


def test_libhdfs_unfound_is_hdfs_even_beside_another_jvm_library() -> None:
    text = "import jpype\nlibhdfs.so: cannot open shared object file: No such file or directory\n"
    report = explained(text)
    assert any(x.cause == "filesystem-env-misconfigured" for x in report.findings)


@pytest.mark.parametrize(
    "line",
    [
        "The code execution cannot proceed because VCRUNTIME140_1.dll was not found. "
        "Reinstalling the program may fix this problem.",
        "The program can't start because MSVCP140_1.dll is missing from your computer. "
        "Try reinstalling the program to fix this problem.",
    ],
)
def test_windows_dialog_for_a_visual_cpp_runtime_dll_asks_for_the_redistributable(
    line: str,
) -> None:
    report = explained(f"C:\\work> python train.py\npython.exe - System Error\n{line}\n")
    top = top_error(report)
    assert top.cause == "msvc-runtime-missing"
    assert "vc_redist.x64.exe" in fix_text(top)


def test_windows_dialog_for_another_dll_is_not_the_visual_cpp_runtime() -> None:
    report = explained(
        "The code execution cannot proceed because cudnn64_8.dll was not found. "
        "Reinstalling the program may fix this problem.\n"
    )
    assert all(x.cause != "msvc-runtime-missing" for x in report.findings)


@pytest.mark.parametrize("code", ["0xc000001d", "3221225501"])
def test_faulthandler_illegal_instruction_on_windows_is_a_cpu_without_avx(code: str) -> None:
    # faulthandler prints exceptions it has no words for as their code.
    report = explained(
        "platform win32 -- Python 3.11.4, pytest-7.4.0, pluggy-1.2.0\n"
        f"tests\\test_net.py Windows fatal exception: code {code}\n\n"
        "Current thread 0x00002b10 (most recent call first):\n"
        '  File "C:\\venv\\lib\\site-packages\\tensorflow\\python\\framework\\ops.py", '
        "line 1003 in _create_c_op\n"
    )
    top = top_error(report)
    assert top.cause == "cpu-lacks-avx"
    assert "coreinfo64" in fix_text(top)


def test_faulthandler_illegal_instruction_alone_checks_the_cpu_with_windows_tools() -> None:
    # Only Python on Windows prints "Windows fatal exception": no /proc/cpuinfo there.
    fix = fix_text(top_error(explained("Windows fatal exception: code 0xc000001d\n")))
    assert "coreinfo64" in fix and "/proc/cpuinfo" not in fix


def test_faulthandler_access_violation_is_not_a_cpu_without_avx() -> None:
    report = explained("Windows fatal exception: access violation\n")
    assert all(x.cause != "cpu-lacks-avx" for x in report.findings)


_MAC_SITE = "/Users/kim/tf/lib/python3.11/site-packages"


def test_dyld_missing_tensorflows_own_framework_library_is_an_incomplete_install() -> None:
    # The wheel puts libtensorflow_framework.2.dylib beside its extensions: not found for
    # TensorFlow's own extension, the installation lacks its own file.
    report = explained(
        f"ImportError: dlopen({_MAC_SITE}/tensorflow/python/_pywrap_tensorflow_internal.so, "
        "0x0002): Library not loaded: @rpath/libtensorflow_framework.2.dylib\n"
        f"  Referenced from: <1A2B> {_MAC_SITE}/tensorflow/python/_pywrap_tensorflow_internal.so\n"
        f"  Reason: tried: '{_MAC_SITE}/tensorflow/python/../libtensorflow_framework.2.dylib' "
        "(no such file)\n"
    )
    top = top_error(report)
    assert top.cause == "tf-install-incomplete"
    fix = fix_text(top)
    assert "uninstall -y" in fix and "install" in fix


@pytest.mark.parametrize(
    "words",
    [
        "Library not loaded: @rpath/libtensorflow_framework.2.dylib",
        "Symbol not found: __ZN3tsl6StatusC1Ev",
    ],
)
def test_the_metal_plugin_refused_is_the_plugins_not_an_incomplete_install(words: str) -> None:
    # The plugin lies outside tensorflow/: built for another TensorFlow, not a file missing.
    report = explained(
        f"tensorflow.python.framework.errors_impl.NotFoundError: dlopen({_MAC_SITE}/"
        f"tensorflow-plugins/libmetal_plugin.dylib, 0x0006): {words}\n"
    )
    assert top_error(report).cause == "companion-mismatch"


def test_dyld_missing_another_library_for_tensorflow_is_not_an_incomplete_install() -> None:
    report = explained(
        f"ImportError: dlopen({_MAC_SITE}/tensorflow/python/_pywrap_tensorflow_internal.so, "
        "0x0002): Library not loaded: @rpath/libiomp5.dylib\n"
    )
    assert top_error(report).cause == "native-library-unresolved"


@pytest.mark.parametrize(
    "line",
    [
        "ImportError: /opt/py/lib/python3.11/site-packages/tensorflow/python/"
        "_pywrap_tensorflow_internal.so: undefined symbol: "
        "_ZN10tensorflow6StatusC1EN4absl12lts_2023080211StatusCodeESt17basic_string_view",
        f"ImportError: dlopen({_MAC_SITE}/tensorflow/python/_pywrap_tensorflow_internal.so, 2): "
        "Symbol not found: __ZN3tsl6StatusC1Ev",
    ],
)
def test_tensorflows_extension_missing_its_own_symbol_is_two_releases_mixed(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "tf-install-incomplete"
    fix = fix_text(top)
    assert "uninstall -y" in fix and "find_spec" in fix
    # The framework library the loader found first: ldd resolves it; otool -L prints only
    # the install name (@rpath/...), so on macOS dyld's own "Expected in:" line names it.
    macos = "dlopen(" in line
    assert ("ldd " in fix) != macos
    assert ('"Expected in:"' in fix) == macos
    assert "otool -L" not in fix
    assert ("$LD_LIBRARY_PATH" in fix) != macos
    assert ("$DYLD_LIBRARY_PATH" in fix) == macos


def test_ctypes_winerror_193_is_a_file_of_another_word_size() -> None:
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "C:\\Python311\\Lib\\ctypes\\__init__.py", line 376, in __init__\n'
        "    self._handle = _dlopen(self._name, mode)\n"
        "OSError: [WinError 193] %1 is not a valid Win32 application\n"
    )
    top = top_error(report)
    assert top.cause == "native-library-unresolved"
    assert "struct.calcsize('P')" in fix_text(top)


def test_a_run_path_library_dyld_tried_in_a_homebrew_keg_names_the_formula() -> None:
    # dyld names the library by its run-path; the paths it tried show the keg it was built for.
    report = explained(
        f"OSError: dlopen({_MAC_SITE}/lightgbm/lib/lib_lightgbm.dylib, 0x0006): Library not "
        "loaded: @rpath/libomp.dylib\n"
        f"  Referenced from: <5E2A> {_MAC_SITE}/lightgbm/lib/lib_lightgbm.dylib\n"
        f"  Reason: tried: '{_MAC_SITE}/lightgbm/lib/libomp.dylib' (no such file), "
        "'/usr/local/opt/libomp/lib/libomp.dylib' (no such file), "
        "'/usr/lib/libomp.dylib' (no such file, not in dyld cache)\n"
    )
    fix = fix_text(top_error(report))
    assert "brew install libomp" in fix and "ls /usr/local/opt/libomp/lib" in fix


def test_a_run_path_library_tried_outside_a_keg_keeps_the_general_reading() -> None:
    report = explained(
        f"ImportError: dlopen({_MAC_SITE}/tensorflow/python/_pywrap_tensorflow_internal.so, "
        "0x0002): Library not loaded: @rpath/libiomp5.dylib\n"
        f"  Reason: tried: '{_MAC_SITE}/tensorflow/python/../libiomp5.dylib' (no such file)\n"
    )
    fix = fix_text(top_error(report))
    assert "brew" not in fix and "otool -L" in fix


def test_ctypes_could_not_find_module_on_windows_reads_the_windows_loader() -> None:
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "C:\\Python312\\Lib\\ctypes\\__init__.py", line 379, in __init__\n'
        "    self._handle = _dlopen(self._name, mode)\n"
        "FileNotFoundError: Could not find module 'D:\\deps\\libtensorflow\\lib\\tensorflow.dll' "
        "(or one of its dependencies). Try using the full path with constructor syntax.\n"
    )
    top = top_error(report)
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "dumpbin /dependents" in fix and "ldd" not in fix


_CTYPES_WARNED = (
    "C:\\venv\\lib\\site-packages\\tensorflow_io\\python\\ops\\__init__.py:98: "
    "UserWarning: unable to load libtensorflow_io_plugins.so: Could not find module "
    "'C:\\venv\\lib\\site-packages\\tensorflow_io\\python\\ops\\"
    "libtensorflow_io_plugins.so' (or one of its dependencies). Try using the full path with "
    "constructor syntax.\n"
)
_EPOCH_DONE = (
    "Epoch 1/2\n"
    "1875/1875 [==============================] - 6s 3ms/step - loss: 0.2981 - accuracy: 0.9137\n"
)


@pytest.mark.parametrize(
    "text",
    [
        _CTYPES_WARNED,
        _CTYPES_WARNED + _EPOCH_DONE,
        _CTYPES_WARNED.replace("UserWarning: ", "") + _EPOCH_DONE,
    ],
    ids=["in-a-warning", "warning-then-epochs", "run-went-on"],
)
def test_ctypes_could_not_find_module_the_run_went_past_is_a_note(text: str) -> None:
    # A package that loads an optional DLL with ctypes catches the error and goes on.
    found = [x for x in explained(text).findings if x.cause == "native-library-unresolved"]
    assert found and all(x.severity is Severity.INFO for x in found)


def test_ctypes_could_not_find_module_alone_on_its_line_stays_an_error() -> None:
    text = _CTYPES_WARNED.split("UserWarning: unable to load libtensorflow_io_plugins.so: ")[1]
    assert top_error(explained("FileNotFoundError: " + text)).cause == "native-library-unresolved"


def _dll_status(module: str, frame: str) -> str:
    """Python's words for a Windows status it has no message for (STATUS_DLL_NOT_FOUND)."""
    return (
        "Traceback (most recent call last):\n"
        f'  File "C:\\env\\lib\\site-packages\\{frame}", line 64, in <module>\n'
        f"ImportError: DLL load failed with error code 3221225781 while importing {module}\n"
    )


def test_dll_load_failed_with_status_dll_not_found_is_a_missing_dll() -> None:
    report = explained(
        _dll_status("_pywrap_tensorflow_internal", "tensorflow\\python\\pywrap_tensorflow.py")
    )
    top = top_error(report)
    assert top.cause == "msvc-runtime-missing"
    assert "vc_redist.x64.exe" in fix_text(top)


def test_dll_load_failed_with_a_status_names_another_packages_extension() -> None:
    top = top_error(explained(_dll_status("cygrpc", "grpc\\__init__.py")))
    assert top.cause == "native-library-unresolved"
    assert "grpcio" in fix_text(top)


@pytest.mark.parametrize(
    "frames",
    [
        '  File "C:\\Python311\\Lib\\subprocess.py", line 1538, in _execute_child\n'
        "    hp, ht, pid, tid = _winapi.CreateProcess(executable, args,\n",
        '  File "C:\\Python311\\Lib\\multiprocessing\\popen_spawn_win32.py", line 73, in '
        "__init__\n    hp, ht, pid, tid = _winapi.CreateProcess(\n",
    ],
)
def test_winerror_193_starting_a_program_is_no_dll_of_another_word_size(frames: str) -> None:
    # CreateProcess refusing a file that is no program: no DLL of this Python's, no TensorFlow.
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "C:\\work\\run.py", line 4, in <module>\n'
        '    subprocess.run(["tools\\\\convert"])\n'
        f"{frames}"
        "OSError: [WinError 193] %1 is not a valid Win32 application\n"
    )
    assert all(x.cause != "native-library-unresolved" for x in report.findings)
    assert all("tensorflow" not in fix_text(x) for x in report.findings if x.fix is not None)


@pytest.mark.parametrize(
    "reason",
    [
        "code signature in <2B> '{tf}/libtensorflow_framework.2.dylib' not valid for use in "
        "process: library load disallowed by system policy",
        "mach-o file, but is an incompatible architecture (have 'x86_64', need 'arm64')",
    ],
)
def test_tensorflows_own_library_dyld_found_and_refused_is_no_incomplete_install(
    reason: str,
) -> None:
    # dyld's reason says the file is there: the installation does not lack it.
    tf = f"{_MAC_SITE}/tensorflow"
    report = explained(
        f"ImportError: dlopen({tf}/python/_pywrap_tensorflow_internal.so, 0x0002): Library not "
        "loaded: @rpath/libtensorflow_framework.2.dylib\n"
        f"  Referenced from: <1A2B> {tf}/python/_pywrap_tensorflow_internal.so\n"
        f"  Reason: tried: '{tf}/libtensorflow_framework.2.dylib' ({reason.format(tf=tf)})\n"
    )
    assert all(x.cause != "tf-install-incomplete" for x in report.findings)


def _swig_fallback(root: str, sep: str) -> str:
    """TensorFlow 1's import failing at SWIG's fallback import, with its frames under ``root``."""
    tf = sep.join((root, "tensorflow", ""))
    return (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 2, in <module>\n'
        "    import tensorflow as tf\n"
        f'  File "{tf}__init__.py", line 24, in <module>\n'
        "    from tensorflow.python import *\n"
        f'  File "{tf}python{sep}__init__.py", line 49, in <module>\n'
        "    from tensorflow.python import pywrap_tensorflow\n"
        "ModuleNotFoundError: No module named '_pywrap_tensorflow_internal'\n"
    )


def test_tf1_module_missing_under_windows_is_the_dll_refusal_with_its_reason_cut() -> None:
    # SWIG's swig_import_helper falls back to a top-level import when Windows refuses the
    # module: the last exception names the module missing, Windows' reason is lost.
    report = explained(_swig_fallback(r"D:\envs\tf1\Lib\site-packages", "\\"))
    assert top_error(report).cause == "msvc-runtime-missing"
    found = {f.cause: f for f in report.findings}
    for other in ("cpu-lacks-avx", "cuda-libs-missing"):
        assert found[other].severity.value == "warning"
        assert found[other].summary.endswith(CANDIDATE) or found[other].summary.startswith("Or:")


@pytest.mark.parametrize(
    ("root", "sep"),
    [
        pytest.param("/home/u/venv/lib/python3.6/site-packages", "/", id="linux-install"),
        pytest.param("/Users/u/venv/lib/python3.6/site-packages", "/", id="macos-install"),
        pytest.param(r"C:\src\tensorflow", "\\", id="windows-source-tree"),
    ],
)
def test_tf1_module_missing_elsewhere_is_no_windows_dll(root: str, sep: str) -> None:
    causes = {f.cause for f in explained(_swig_fallback(root, sep)).findings}
    assert not causes & {"msvc-runtime-missing", "cuda-libs-missing", "cpu-lacks-avx"}


def test_tf1_module_missing_below_windows_own_refusal_is_read_by_that_refusal() -> None:
    # Both of SWIG's exceptions pasted: Windows' reason is shown (the library failed to
    # start), so the fallback's words are no cut reason beside it.
    tf = "C:\\Users\\u\\Anaconda3\\Lib\\site-packages\\tensorflow\\python\\"
    report = explained(
        "Traceback (most recent call last):\n"
        f'  File "{tf}pywrap_tensorflow_internal.py", line 14, in swig_import_helper\n'
        "    return importlib.import_module(mname)\n"
        "ImportError: DLL load failed: A dynamic link library (DLL) initialization routine "
        "failed.\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n"
        f'  File "{tf}pywrap_tensorflow_internal.py", line 17, in swig_import_helper\n'
        "    return importlib.import_module('_pywrap_tensorflow_internal')\n"
        "ModuleNotFoundError: No module named '_pywrap_tensorflow_internal'\n"
    )
    assert top_error(report).cause == "cpu-lacks-avx"
    assert all(x.cause != "msvc-runtime-missing" for x in report.findings)
