"""TensorFlow beside PyTorch and JAX in one program: XLA's convolution autotuner failing every
cuDNN algorithm where another framework took the GPU's memory (the ranked candidates it shares
with a cuDNN handle that fails to start), and a library's refusal of Keras 3 read whole where a
paste wrapped it; a native backtrace of TensorFlow's import running another framework's
library."""

from __future__ import annotations

import pytest

from tests.explaining import explained, finding_of, fix_text, top_error
from tfdoctor.evidence import traceback as traceback_module
from tfdoctor.evidence.backtrace import read_native_backtraces, read_native_frames
from tfdoctor.evidence.traceback import read_tracebacks, rejoin_wrapped_messages

#: XLA's strict autotuner failure as JAX raises it (XlaRuntimeError; older jaxlib a plain
#: RuntimeError), and as TensorFlow's XLA does, each followed by the HLO it printed.
_HLO = (
    "\n%cudnn-conv.1 = (f32[8,32,30,30]{3,2,1,0}, u8[0]{0}) custom-call(f32[8,3,32,32]{3,2,1,0} "
    '%p0, f32[32,3,3,3]{3,2,1,0} %p1), custom_call_target="__cudnn$convForward"\n'
)


@pytest.mark.parametrize(
    "error",
    [
        pytest.param("jaxlib.xla_extension.XlaRuntimeError: UNKNOWN: ", id="jax-xla-runtime-error"),
        pytest.param("RuntimeError: UNKNOWN: ", id="old-jaxlib-runtime-error"),
        pytest.param("tensorflow.python.framework.errors_impl.UnknownError: ", id="tf-xla"),
    ],
)
def test_conv_algorithm_picker_failure_ranks_memory_first(error: str) -> None:
    text = f"{error}Failed to determine best cudnn convolution algorithm for:{_HLO}"
    top = top_error(explained(text))
    assert top.cause == "gpu-library-init-failed"
    fix = fix_text(top)
    # Memory leads, with what tells the two frameworks' preallocation apart.
    assert fix.index("1. the GPU's memory") < fix.index("2. ")
    assert "XLA_PYTHON_CLIENT_PREALLOCATE=false" in fix
    assert "TF_FORCE_GPU_ALLOW_GROWTH=true" in fix


def test_conv_algorithm_picker_warning_alone_is_no_failure() -> None:
    # Without strictness XLA logs the same words and goes on with a fallback algorithm.
    text = (
        "2021-06-01 10:00:00.000001: W external/org_tensorflow/tensorflow/compiler/xla/service/"
        "gpu/gpu_conv_algorithm_picker.cc:729] Failed to determine best cudnn convolution "
        "algorithm: INTERNAL: All algorithms tried for %cudnn-conv.1 failed.\n\n"
        "Convolution performance may be suboptimal.\n"
    )
    assert finding_of(explained(text), "gpu-library-init-failed") is None


#: Transformers' refusal of Keras 3 (modeling_tf_utils.py, from 4.38), one line as Python prints it.
_REFUSAL = (
    "ValueError: Your currently installed version of Keras is Keras 3, but this is not yet "
    "supported in Transformers. Please install the backwards-compatible tf-keras package "
    "with `pip install tf-keras`."
)


@pytest.mark.parametrize(
    "cut",
    [
        pytest.param("Keras 3, ", id="after-a-comma"),
        pytest.param("Keras is ", id="after-a-word-no-sentence-ends-on"),
        pytest.param("backwards-", id="inside-a-hyphenated-word"),
    ],
)
def test_a_message_wrapped_mid_sentence_is_read_whole(cut: str) -> None:
    at = _REFUSAL.index(cut) + len(cut)
    head, rest = _REFUSAL[:at].rstrip(), _REFUSAL[at:]
    text = f"{head}\n{rest}\n"
    assert rejoin_wrapped_messages(text).split("\n")[0] == _REFUSAL
    (tb,) = read_tracebacks(text)
    assert tb.message == _REFUSAL.split(": ", 1)[1]
    assert top_error(explained(text)).cause == "tf-keras-missing"


def test_the_refusal_whole_is_read_by_one_signature_its_first_sentence_by_the_other() -> None:
    from tfdoctor.explain import scan
    from tfdoctor.explain.reader import split_text
    from tfdoctor.signatures import load_signatures

    def read(text: str) -> set[str]:
        hits = scan([split_text(text)], load_signatures()).hits
        return {
            sid
            for sid in ("tf-keras-required-by-library", "keras3-refused-by-library")
            if sid in hits
        }

    assert read(_REFUSAL + "\n") == {"tf-keras-required-by-library"}
    first = _REFUSAL[: _REFUSAL.index(" Please")]
    assert read(first + "\n") == {"keras3-refused-by-library"}


def test_the_first_sentence_alone_wrapped_still_names_tf_keras() -> None:
    # A paste that kept the refusal's first sentence only, wrapped after its comma.
    text = (
        "ValueError: Your currently installed version of Keras is Keras 3,\n"
        "but this is not yet supported in Transformers.\n"
    )
    assert top_error(explained(text)).cause == "tf-keras-missing"


@pytest.mark.parametrize(
    "text",
    [
        # A message that ends a sentence, a repr or a word a sentence may end on: what follows
        # is another program's output or the writer's own words.
        pytest.param(
            "ModuleNotFoundError: No module named 'tf_keras'\nI installed it with pip,\n",
            id="after-a-quote",
        ),
        pytest.param(
            "ImportError: /lib/x86_64-linux-gnu/libm.so.6: version `GLIBC_2.29' not found\n"
            "libc6 is already the newest version (2.27-3ubuntu1.5).\n",
            id="after-a-word",
        ),
        pytest.param(
            "ValueError: Shapes (None, 1) and (None, 10) are incompatible with\n"
            '  File "train.py", line 3, in <module>\n',
            id="a-frame-below",
        ),
        pytest.param(
            "RuntimeError: the kernel failed for\n"
            "W0612 10:00:00.000000 140 gpu_timer.cc:114] Skipping the delay kernel\n",
            id="a-log-line-below",
        ),
        pytest.param(
            "ValueError: cannot reshape the tensor of\nmodel.fit(x, y)\n", id="code-below"
        ),
        # Another program's line below a word no sentence ends on.
        pytest.param(
            "RuntimeError: the module is\n"
            "Requirement already satisfied: numpy in /usr/lib/python3/dist-packages (1.21.5)\n",
            id="pip-below-is",
        ),
        pytest.param(
            "RuntimeError: the layer was\nSuccessfully installed keras-3.3.3\n",
            id="pip-installed-below",
        ),
        pytest.param(
            "OSError: the file is\nlibc6 is already the newest version (2.35-0ubuntu3.8).\n",
            id="apt-below-is",
        ),
        pytest.param(
            "ImportError: cannot load the\nE: Unable to locate package libcudnn8\n",
            id="apt-error-below",
        ),
        pytest.param("ValueError: Error when checking the\nEpoch 1/10\n", id="keras-epoch-below"),
        pytest.param(
            "InternalError: failed to initialize the\nWARNING:tensorflow:5 out of the last 5\n",
            id="python-logging-below",
        ),
    ],
)
def test_lines_that_do_not_go_on_the_message_stay_apart(text: str) -> None:
    assert rejoin_wrapped_messages(text) is text


def test_only_the_lines_holding_an_exceptions_words_are_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A long log asks the pattern of a cut message only at the lines that can be one.
    asked: list[int] = []
    pattern = traceback_module._CUT_MESSAGE

    class _Asked:
        def match(self, text: str, pos: int = 0, endpos: int = 2**62) -> object:
            if len(text) > len(_REFUSAL):  # the log's, not a line's below the message
                asked.append(pos)
            return pattern.match(text, pos, endpos)

        def finditer(self, text: str) -> object:
            asked.extend(m.start() for m in pattern.finditer(text))
            asked.append(-1)  # a search of the whole text
            return pattern.finditer(text)

    monkeypatch.setattr(traceback_module, "_CUT_MESSAGE", _Asked())
    noise = "2024-03-10 18:42:51.339121: I tensorflow/core/framework/x.cc:404] Local: a note\n"
    cut = _REFUSAL[: _REFUSAL.index("Keras 3, ") + len("Keras 3,")]
    rest = _REFUSAL[len(cut) + 1 :]
    text = noise * 500 + f"{cut}\n{rest}\n" + noise * 500
    assert rejoin_wrapped_messages(text).split("\n")[500] == _REFUSAL
    assert asked == [len(noise) * 500]


#: An installed package's folder, as a virtual environment's paths show it.
_SITE = "/home/u/venv/lib/python3.8/site-packages"


def _gdb_frames(*frames: tuple[str, str]) -> str:
    """A gdb backtrace of frames without debugging information (``function``, ``library``),
    innermost first, each frame's ``from`` wrapped onto its own line as gdb does."""
    return "".join(
        f"#{n}  0x00007f0000{n:06x} in {function} ()\n   from {library}\n"
        for n, (function, library) in enumerate(frames)
    )


#: TensorFlow's static initialiser and the frames it called, outermost last.
_TF_INIT = (
    ("tensorflow::port::InitMain()", f"{_SITE}/tensorflow/python/../libtensorflow_framework.so.2"),
    ("_GLOBAL__sub_I_port.cc", f"{_SITE}/tensorflow/python/../libtensorflow_framework.so.2"),
    ("call_init", "/lib64/ld-linux-x86-64.so.2"),
    ("_dl_open", "/lib64/ld-linux-x86-64.so.2"),
)


def test_frames_are_read_innermost_first_with_their_libraries() -> None:
    text = _gdb_frames(("memcpy", "/lib/x86_64-linux-gnu/libc.so.6"), *_TF_INIT)
    text += "#5  0x0000000000401000 in main (argc=1, argv=0x7ffd) at main.c:10\n"
    frames = read_native_frames(text)
    assert [f.number for f in frames] == [0, 1, 2, 3, 4, 5]
    assert [f.package for f in frames[:3]] == [None, "tensorflow", "tensorflow"]
    assert [f.initialiser for f in frames[:3]] == [False, False, True]
    assert frames[5].library == ""


def test_another_packages_library_inside_tensorflows_initialisers_is_the_import_order() -> None:
    text = _gdb_frames(
        ("std::__once_callable", f"{_SITE}/jaxlib/xla_extension.so"),
        ("__pthread_once_slow", "/lib/x86_64-linux-gnu/libpthread.so.0"),
        *_TF_INIT,
    )
    top = top_error(explained(text))
    assert top.cause == "import-order-conflict"
    fix = fix_text(top)
    assert "Import TensorFlow first" in fix and "jaxlib" in fix


def test_the_thread_that_imported_tensorflow_is_read_of_all_threads_backtraces() -> None:
    # gdb's ``thread apply all bt`` prints the highest-numbered thread first: an idle worker's
    # stack, then the main thread's, in which the import crashed.
    idle = _gdb_frames(
        ("pthread_cond_wait", "/lib/x86_64-linux-gnu/libpthread.so.0"),
        ("std::thread::_State_impl::_M_run", f"{_SITE}/jaxlib/xla_extension.so"),
    )
    crashed = _gdb_frames(
        ("std::__once_callable", f"{_SITE}/jaxlib/xla_extension.so"),
        ("__pthread_once_slow", "/lib/x86_64-linux-gnu/libpthread.so.0"),
        *_TF_INIT,
    )
    text = (
        'Thread 2 (Thread 0x7f00aa (LWP 102) "python"):\n'
        f"{idle}\n"
        'Thread 1 (Thread 0x7f00bb (LWP 101) "python"):\n'
        f"{crashed}"
    )
    assert [len(t) for t in read_native_backtraces(text)] == [2, 6]
    assert top_error(explained(text)).cause == "import-order-conflict"


@pytest.mark.parametrize(
    "text",
    [
        # Only the system's libraries inside TensorFlow's initialisers: no other package.
        pytest.param(
            _gdb_frames(("memcpy", "/lib/x86_64-linux-gnu/libc.so.6"), *_TF_INIT), id="system"
        ),
        # The other package's code is outer to TensorFlow's (it loaded TensorFlow), and no
        # initialiser of TensorFlow's runs it.
        pytest.param(
            _gdb_frames(
                ("tensorflow::Status::Status()", f"{_SITE}/tensorflow/libtensorflow_cc.so.2"),
                ("torch::jit::load", f"{_SITE}/torch/lib/libtorch_cpu.so"),
            ),
            id="no-initialiser",
        ),
        pytest.param(
            _gdb_frames(*_TF_INIT, ("at::native::add", f"{_SITE}/torch/lib/libtorch_cpu.so")),
            id="other-package-outer",
        ),
        # The CUDA wheels TensorFlow's own install brings (tensorflow[and-cuda]).
        pytest.param(
            _gdb_frames(("cudnnCreate", f"{_SITE}/nvidia/cudnn/lib/libcudnn.so.8"), *_TF_INIT),
            id="tensorflows-cuda-wheels",
        ),
    ],
)
def test_a_stack_without_another_library_inside_the_import_is_no_import_order(text: str) -> None:
    assert finding_of(explained(text), "import-order-conflict") is None


def _coredump_frames(*frames: tuple[str, str]) -> str:
    """A stack as systemd-coredump (elfutils' unwinder) prints it: ``#N 0xADDRESS SYMBOL
    (MODULE + 0xOFFSET)``, the module by its file name only, innermost first."""
    return "".join(
        f"#{n:<2} 0x00007f00000{n:05x} {function} ({library} + 0x{n + 16:x})\n"
        for n, (function, library) in enumerate(frames)
    )


_PROTOBUF_IN_TF = (
    "_ZN6google8protobuf8internal20RepeatedPtrFieldBase14InternalExtendEi",
    "libtensorflow_framework.so.2",
)


def test_a_coredump_stack_names_each_frames_module() -> None:
    text = _coredump_frames(_PROTOBUF_IN_TF, ("_ZN4onnx8OpSchema4Attr", "onnx_state.so"))
    frames = read_native_frames(text)
    assert [f.library for f in frames] == ["libtensorflow_framework.so.2", "onnx_state.so"]


@pytest.mark.parametrize("form", ["coredump", "gdb"])
def test_another_library_running_tensorflows_copy_of_protobuf_is_the_exported_symbol(
    form: str,
) -> None:
    if form == "coredump":
        text = _coredump_frames(
            _PROTOBUF_IN_TF,
            ("_ZN4onnx8OpSchema4AttrEv", "onnxruntime_pybind11_state.so"),
            ("pthread_once", "libc.so.6"),
        )
        who = "onnxruntime_pybind11_state.so"
    else:
        text = _gdb_frames(
            (_PROTOBUF_IN_TF[0], f"{_SITE}/tensorflow/libtensorflow_framework.so.2"),
            ("_ZN4onnx8OpSchema4AttrEv", f"{_SITE}/onnxruntime/capi/onnxruntime_state.so"),
        )
        who = "onnxruntime"
    top = top_error(explained(text))
    assert top.cause == "tf-exported-symbol-clash"
    fix = fix_text(top)
    assert "protobuf" in fix and who in fix and "before TensorFlow" in fix
    # Where the path names the import package, the command runs that order once.
    ordered = 'python -X faulthandler -c "import onnxruntime; import tensorflow"'
    assert (ordered in fix) is (form == "gdb")


@pytest.mark.parametrize(
    "caller",
    [
        # TensorFlow's own code calling its own protobuf.
        ("_ZN10tensorflow8GraphDef5ParseEv", "_pywrap_tensorflow_internal.so"),
        # The C runtime on TensorFlow's behalf.
        ("start_thread", "libc.so.6"),
    ],
    ids=["tensorflow-own", "c-runtime"],
)
def test_tensorflows_copy_of_protobuf_run_by_no_other_library_is_no_clash(
    caller: tuple[str, str],
) -> None:
    text = _coredump_frames(_PROTOBUF_IN_TF, caller, ("main", "python3.11"))
    assert finding_of(explained(text), "tf-exported-symbol-clash") is None
