"""Families read further: a user's file that shadows a package in Python's other words, a
TensorFlow source checkout as the current directory, conda's and mamba's refusals, gast's
node check under AutoGraph, and protobuf's upb runtime refusing a generated module whose
frames a short traceback left out."""

from __future__ import annotations

from tests.explaining import explained, fix_text, top_error


def test_a_plain_file_found_for_a_dotted_import_is_the_users_shadow() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "tensorflow.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        '  File "proj/tensorflow.py", line 3, in <module>\n'
        "    from tensorflow.python import debug as tf_debug\n"
        "ImportError: No module named 'tensorflow.python'; 'tensorflow' is not a package\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-shadowed-module"
    assert "tensorflow.py" in fix_text(top)


def test_python_2_names_only_the_tail_and_the_frame_names_the_package() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/exp/keras.py", line 8, in <module>\n'
        "    from keras.datasets import mnist\n"
        "ImportError: No module named datasets\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-shadowed-module" and "keras.py" in fix_text(top)


def test_an_installed_packages_own_frame_is_no_shadow() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python2.7/site-packages/keras/__init__.py", line 3, in <module>\n'
        "    from keras.datasets import mnist\n"
        "ImportError: No module named datasets\n"
    )
    assert all(f.cause != "tf-shadowed-module" for f in explained(text).findings)


def test_tensorflows_guard_against_its_source_tree() -> None:
    text = (
        "Error importing tensorflow.  Unless you are using bazel,\n"
        "you should not try to import tensorflow from its source directory;\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-shadowed-module" and "directory" in fix_text(top)


def test_mamba_finds_no_tensorflow_build() -> None:
    text = (
        "    └─ tensorflow >=2.4.0,<2.16 * does not exist (perhaps a typo or a missing channel).\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python" and "conda search" in fix_text(top)
    # Another tensorflow-* package is not TensorFlow's build.
    other = "    └─ tensorflow-datasets 9.9 does not exist (perhaps a typo or a missing channel).\n"
    assert all(f.cause != "tf-release-not-for-python" for f in explained(other).findings)


def test_tensorflows_source_tree_notice_beside_another_import_error_is_not_the_cause() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python2.7/dist-packages/tensorflow/python/__init__.py", line 49, '
        "in <module>\n"
        "    from tensorflow.python import pywrap_tensorflow\n"
        "ImportError: libcudart.so.8.0: cannot open shared object file: No such file or "
        "directory\n"
        "Error importing tensorflow.  Unless you are using bazel,\n"
        "you should not try to import tensorflow from its source directory;\n"
    )
    assert all(f.cause != "tf-shadowed-module" for f in explained(text).findings)


def test_a_tensorflow_installed_with_target_is_not_the_users_shadow() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/var/task/handler.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        '  File "/var/task/tensorflow/__init__.py", line 37, in <module>\n'
        "    from tensorflow.python.tools import module_util as _module_util\n"
        "ModuleNotFoundError: No module named 'tensorflow.python.tools'\n"
    )
    assert all(f.cause != "tf-shadowed-module" for f in explained(text).findings)


def test_gasts_check_outside_tensorflow_is_not_tensorflows_pin() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.8/site-packages/pythran/toolchain.py", line 9, in compile\n'
        "    tree = convert(node)\n"
        '  File "/venv/lib/python3.8/site-packages/gast/gast.py", line 19, in create_node\n'
        "    format(Name, nbparam, len(Fields))\n"
        "AssertionError: Bad argument number for Name: 3, expecting 4\n"
    )
    assert all(f.cause != "dependency-out-of-range" for f in explained(text).findings)


def test_a_custom_ops_missing_framework_library_is_not_the_c_archive() -> None:
    text = "/usr/bin/ld: cannot find -ltensorflow_framework\n"
    assert "libtensorflow-*.tar.gz" not in "".join(
        fix_text(f) for f in explained(text).findings if f.fix is not None
    )


def test_gasts_node_check_under_autograph() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.7/site-packages/tensorflow_core/python/autograph/pyct/'
        'templates.py", line 223, in _convert_to_ast\n'
        "    return gast.Name(id=n, ctx=None, annotation=None)\n"
        '  File "/venv/lib/python3.7/site-packages/gast/gast.py", line 19, in create_node\n'
        "    format(Name, nbparam, len(Fields))\n"
        "AssertionError: Bad argument number for Name: 3, expecting 4\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range" and "gast" in fix_text(top)


def test_the_upb_runtime_refusing_a_generated_module_whose_frames_were_cut() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.8/site-packages/torch/utils/tensorboard/writer.py", line 9, '
        "in <module>\n"
        "    from tensorboard.compat.proto.event_pb2 import SessionLog\n"
        "AttributeError: module 'google._upb._message' has no attribute 'Message'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "protobuf-incompatible" and "tensorboard" in top.summary


def test_wsls_own_gpu_library_missing_is_wsl_not_a_package() -> None:
    text = "ImportError: libd3d12.so: cannot open shared object file: No such file or directory\n"
    top = top_error(explained(text))
    assert top.cause == "wsl-driver-broken"
    fix = fix_text(top)
    assert "wsl --update" in fix and "apt" not in fix


def test_tensorflow_missing_with_no_interpreter_shown_names_no_release() -> None:
    top = top_error(explained("ModuleNotFoundError: No module named 'tensorflow'\n"))
    assert top.cause == "tf-not-installed"
    fix = fix_text(top)
    # Nothing shows the machine: no "newest that fits", and the two-interpreter check first.
    assert "tensorflow==" not in fix and "sys.executable" in fix and "pip -V" in fix


def test_a_full_disk_in_any_programs_words() -> None:
    for line, look in (
        (
            "ERROR: Could not install packages: OSError: [Errno 28] No space left on device",
            "df -h",
        ),
        (
            "failed to register layer: write /usr/lib/libtf.so.2: no space left on device",
            "df -h",
        ),
        (
            r"C:\Users\me> pip install tensorflow"
            + "\nOSError: [WinError 112] There is not enough space on the disk",
            "Get-PSDrive",
        ),
    ):
        top = top_error(explained(line + "\n"))
        assert top.cause == "disk-space-exhausted" and look in fix_text(top)


def test_shared_memory_and_kernel_limits_are_not_a_full_disk() -> None:
    for line in (
        "RuntimeError: unable to write to file </torch_18692>: No space left on device (28)",
        "Failed to add /run/systemd/ask-password to directory watch: No space left on device",
        "mkdir /sys/fs/cgroup/memory/docker/abc: no space left on device",
    ):
        assert all(f.cause != "disk-space-exhausted" for f in explained(line + "\n").findings)


def test_ncclss_shared_memory_is_not_the_disk() -> None:
    text = "include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device\n"
    assert all(f.cause != "disk-space-exhausted" for f in explained(text).findings)


def test_a_build_service_killing_the_build_for_memory() -> None:
    for text in (
        "Command killed due to excessive memory consumption\n",
        "Collecting tensorflow\nKilled\n\nCommand killed due to timeout or excessive memory "
        "consumption\n",
    ):
        top = top_error(explained(text))
        assert top.cause == "host-out-of-memory" and "--no-cache-dir" in fix_text(top)
        assert "batch size" not in fix_text(top)


def test_python_2s_dotted_tail_under_the_users_tensorflow_py() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/tensorflow.py", line 1, in <module>\n'
        "    from tensorflow.examples.tutorials.mnist import input_data\n"
        "ImportError: No module named examples.tutorials.mnist\n"
    )
    found = [f for f in explained(text).findings if f.cause == "tf-shadowed-module"]
    assert found and found[0].severity.value == "error"


def test_the_source_trees_own_import_error_keeps_the_source_tree_cause() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/tensorflow/tensorflow/python/__init__.py", line 48, in <module>\n'
        "    from tensorflow.python import pywrap_tensorflow\n"
        "ImportError: cannot import name 'pywrap_tensorflow'\n"
        "Error importing tensorflow.  Unless you are using bazel,\n"
        "you should not try to import tensorflow from its source directory;\n"
    )
    assert top_error(explained(text)).cause == "tf-shadowed-module"


def test_a_python_shown_without_its_platform_gets_no_release_said_to_fit() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/Users/me/venv/lib/python3.11/site-packages/keras/__init__.py", line 1, in '
        "<module>\n"
        "ModuleNotFoundError: No module named 'tensorflow'\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "tensorflow==" not in fix and "sys.executable" in fix


def test_intels_oneapi_runtime_is_the_toolkits_environment() -> None:
    text = "NotFoundError: libmkl_sycl.so.2: cannot open shared object file: No such file\n"
    fix = fix_text(top_error(explained(text)))
    assert "setvars.sh" in fix
    other = (
        "ImportError: libmkl_rt.so.1: cannot open shared object file: No such file or directory\n"
    )
    assert "setvars.sh" not in fix_text(top_error(explained(other)))


def test_a_line_pasted_as_one_inline_code_span_is_read_as_printed() -> None:
    text = (
        "When I run it I get the error:\n\n"
        "`AttributeError: module 'ml_dtypes' has no attribute 'float8_e4m3b11'. Did you mean: "
        "'float8_e4m3fn'?`\n"
    )
    assert top_error(explained(text)).cause == "dependency-out-of-range"
    # A span inside prose is the prose's: left as it is.
    from tfdoctor.explain.reader import clean

    assert clean("run `pip list` here\n") == "run `pip list` here\n"
    assert clean("  `x = 1`\n") == "  x = 1\n"


def test_autographs_warning_with_gasts_words_stays_harmless() -> None:
    text = (
        "WARNING: Entity <function f at 0x7f> could not be transformed and will be executed "
        "as-is. Cause: Bad argument number for Name: 3, expecting 4\n"
    )
    assert all(f.severity.value not in ("error", "warning") for f in explained(text).findings)


# --- TensorFlow from another Python's site-packages ---------------------------------------


def _through(tf_site: str, other: str, sep: str = "/") -> str:
    """A traceback of one process: a frame of ``other`` (this Python's files), then
    TensorFlow's own files under ``tf_site``, ending in the extension that did not load."""
    ext = sep.join((tf_site, "tensorflow", "python", "_pywrap_tensorflow_internal.so"))
    return (
        "Traceback (most recent call last):\n"
        f'  File "{other}", line 3, in <module>\n'
        "    import tensorflow as tf\n"
        f'  File "{sep.join((tf_site, "tensorflow", "__init__.py"))}", line 41, in <module>\n'
        "    from tensorflow.python.tools import module_util as _module_util\n"
        f"ImportError: {ext}: undefined symbol: _Py_ZeroStruct\n"
    )


def test_tensorflow_of_another_pythons_site_packages() -> None:
    text = _through(
        "/usr/local/lib/python3.6/dist-packages",
        "/home/u/venv/lib/python3.10/site-packages/keras/__init__.py",
    )
    top = top_error(explained(text))
    assert top.cause == "tf-shadowed-module"
    assert "Python 3.10 imported the TensorFlow of Python 3.6" in top.summary
    fix = fix_text(top)
    assert "remove /usr/local/lib/python3.6/dist-packages from it" in fix
    assert "uninstall" not in fix  # the copy belongs to the other Python: it stays
    # The traceback cannot say whether this Python has a TensorFlow of its own (PYTHONPATH
    # comes before site-packages): it is looked at, not installed blind.
    assert top.fix is not None and top.fix.commands[-1] == "python -m pip show tensorflow"
    assert not [c for c in top.fix.commands if "pip install" in c]


def test_windows_install_folders_name_their_python_too() -> None:
    text = _through(
        "C:\\Python36\\lib\\site-packages",
        "C:\\Users\\u\\AppData\\Local\\Programs\\Python\\Python310\\lib\\runpy.py",
        sep="\\",
    )
    top = top_error(explained(text))
    assert top.cause == "tf-shadowed-module" and "Python 3.6" in top.summary
    # Windows' shells have no unset, and cmd has no comment after a command: `set NAME=`
    # clears the variable for the shell it runs in.
    assert top.fix is not None
    assert not [c for c in top.fix.commands if c.startswith("unset") or "#" in c]
    assert "set PYTHONPATH=" in top.fix.commands
    # PowerShell's form beside cmd's, each named in the words.
    assert "Remove-Item Env:PYTHONPATH -ErrorAction SilentlyContinue" in top.fix.commands
    assert "cmd's `set PYTHONPATH=`" in top.fix.text and "PowerShell's" in top.fix.text


def test_one_pythons_frames_are_no_other_python() -> None:
    same = _through(
        "/home/u/venv/lib/python3.10/site-packages",
        "/usr/lib/python3.10/runpy.py",
    )
    debian = _through("/usr/lib/python3/dist-packages", "/usr/lib/python3.10/runpy.py")
    for text in (same, debian):
        causes = {x.cause for x in explained(text).findings}
        assert "tf-shadowed-module" not in causes, text
