"""``tfdoctor explain``: the reader, the real-log corpus, fixes fitted to what is known, the CLI."""

from __future__ import annotations

import dataclasses
import gzip
import io
import json
import random
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests import factories as f
from tests.commandline import in_process
from tests.explaining import readings
from tfdoctor.explain import explain, scan
from tfdoctor.explain.reader import LogText, lines_of, read_log, split_text
from tfdoctor.facts import LibraryCandidate, to_json
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.signatures import load_signatures

SIGNATURES = load_signatures()
LOGS = Path(__file__).resolve().parent / "data" / "logs"
CASES = sorted(LOGS.glob("*.log"))


def _read(data: bytes, name: str = "", **kw: Any) -> list[tuple[str, str]]:
    return list(lines_of(read_log(io.BytesIO(data), name, **kw)))


def _explain(text: str, **kw: Any) -> Report:
    return explain([split_text(text)], SIGNATURES, f.FIXTURE_MATRIX, **kw)


def _fix_text(finding: Finding) -> str:
    if finding.fix is None:
        return ""
    return "\n".join((finding.fix.text, *finding.fix.commands))


# --- reading ------------------------------------------------------------------------------


def test_plain_lines_are_numbered_from_one() -> None:
    assert _read(b"a\nb\n") == [("line 1", "a"), ("line 2", "b")]


def test_ansi_colours_and_crlf_are_removed() -> None:
    data = b"\x1b[1;31mE0000 error\x1b[0m\r\n\x1b]0;title\x07plain\r\n"
    assert _read(data) == [("line 1", "E0000 error"), ("line 2", "plain")]


def test_a_redrawn_progress_bar_keeps_its_last_state() -> None:
    data = b"Epoch 1/2\n 1/10 [==>...]\r 5/10 [=====>]\r10/10 [==========] - loss: 0.1\nnext\n"
    assert _read(data) == [
        ("line 1", "Epoch 1/2"),
        ("line 2", "10/10 [==========] - loss: 0.1"),
        ("line 3", "next"),
    ]


@pytest.mark.parametrize("seed", range(4))
def test_every_redrawn_line_keeps_its_last_non_empty_state(seed: int) -> None:
    # What a terminal shows of each line: of its states between carriage returns, the last
    # that is not empty (an empty line when all are). Random lines of a few characters meet
    # the edges: returns first, last, doubled, alone, and lines with none.
    draw = random.Random(seed)
    lines = ["".join(draw.choice("ab\r") for _ in range(draw.randint(0, 8))) for _ in range(300)]
    shown = []
    for line in lines:
        states = [state for state in line.split("\r") if state]
        shown.append(states[-1] if states else "")
    assert split_text("\n".join(lines)).text == "\n".join(shown)


def test_typographic_quotes_read_as_the_straight_ones_printed() -> None:
    data = "Could not load dynamic library \u2018libcusolver.so.10\u2019; said \u201cno\u201d\n"
    assert _read(data.encode("utf-8")) == [
        ("line 1", "Could not load dynamic library 'libcusolver.so.10'; said \"no\"")
    ]


def test_invalid_utf8_is_replaced_not_fatal() -> None:
    assert _read(b"bad \xff\xfe byte\nok\n") == [
        ("line 1", "bad \ufffd\ufffd byte"),
        ("line 2", "ok"),
    ]


def test_utf16_from_powershell_is_decoded() -> None:
    data = "Illegal instruction\r\nnext\r\n".encode("utf-16")
    assert _read(data) == [("line 1", "Illegal instruction"), ("line 2", "next")]


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_decoded(codec: str) -> None:
    # .NET's UnicodeEncoding(false, ...) writes no mark, and a log cut from a longer one
    # loses it; a line in a German locale keeps its words.
    text = (
        "W dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
        "libcudart.so.11.0: Kann die Shared-Object-Datei nicht \u00f6ffnen\r\nnext\r\n"
    )
    lines = _read(text.encode(codec))
    assert [where for where, _ in lines] == ["line 1", "line 2"]
    assert lines[0][1].endswith("nicht \u00f6ffnen") and lines[1][1] == "next"


def test_utf16_without_a_mark_is_found_past_the_limit_too() -> None:
    data = ("Epoch 1/1 - loss: 0.1\n" * 400 + "Illegal instruction\n").encode("utf-16-le")
    assert _read(data, chunk=512, limit=4096)[-1][1] == "Illegal instruction"


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"\x00" * 4096 + b"Illegal instruction\n", id="zero-bytes-then-text"),
        pytest.param(b"name\x00value\x00" * 300 + b"\nIllegal instruction\n", id="zero-separated"),
    ],
)
def test_zero_bytes_alone_do_not_make_utf16(data: bytes) -> None:
    # Zero bytes at both places of a code unit: still read as UTF-8 (random bytes are binary
    # data, as UTF-8: test_cli_exits_3_on_bad_input).
    assert _read(data)[-1][1] == "Illegal instruction"


def test_escape_sequences_of_every_kind_are_removed() -> None:
    # ESC ( 0 switches a terminal to line drawing, ESC c resets it, ESC 7 saves the cursor:
    # ECMA-35's escape sequences, not only ECMA-48's control sequences.
    data = b"\x1b(0E0000 \x1b(Berror\x1bc\x1b7 here\n"
    assert _read(data) == [("line 1", "E0000 error here")]


def test_binary_data_inside_a_log_reads_as_empty_lines_around_its_text() -> None:
    # A file's bytes printed into a log (cat of a model file, a core dump): the lines of text
    # before and after it, the failure included, keep their numbers; the binary lines are
    # empty. Zero bytes (a hole where a truncated log's start was) are not binary, only gone.
    junk = random.Random(7).randbytes(64 * 1024)
    data = b"\x00" * 300 + b"Epoch 1/2\n" + junk + b"\nnext\nIllegal instruction\n"
    reader = read_log(io.BytesIO(data), chunk=4096)
    lines = list(lines_of(reader))
    assert lines[0] == ("line 1", "Epoch 1/2")
    assert lines[-2:] == [
        (f"line {len(lines) - 1}", "next"),
        (f"line {len(lines)}", "Illegal instruction"),
    ]
    assert len(lines) == 3 + junk.count(b"\n") + 1
    assert reader.binary_lines > junk.count(b"\n") // 2
    assert sum(1 for _, line in lines if line) < 80


@pytest.mark.parametrize(
    "failure",
    [
        pytest.param("ImportError: DLL load failed: 找不到指定的模块。".encode("gbk"), id="gbk"),
        pytest.param("OSError: Zugriff verweigert: 'C:\\Modèles'".encode("cp1252"), id="cp1252"),
    ],
)
def test_a_line_of_text_in_another_encoding_beside_binary_data_is_kept(failure: bytes) -> None:
    # A Windows log in its locale's code page: bytes that are not UTF-8 (U+FFFD as read) make
    # no line binary data, even in a block that binary data was printed into.
    junk = b"\x01\x02\x03\x04\x05\x06\x10\x11\x12\xff" * 100
    lines = _read(b"Epoch 1/2\n" + junk + b"\n" + failure + b"\r\n")
    assert lines[-1][0] == "line 3"
    assert lines[-1][1].startswith(("ImportError: DLL load failed: ", "OSError: Zugriff"))


def test_terminal_shift_characters_do_not_make_a_log_binary() -> None:
    # `tput sgr0` under TERM=screen ends in SI (0x0f): a coloured log holds one a line.
    data = b"".join(b"\x1b[32mEpoch %d\x1b[m\x0f ok\n" % i for i in range(200))
    lines = _read(data + b"Illegal instruction\n")
    assert len(lines) == 201 and lines[-1] == ("line 201", "Illegal instruction")


def test_line_numbers_hold_across_small_chunks() -> None:
    data = b"".join(f"line {i} \xc3\xa9\r\n".encode("latin-1") for i in range(1, 200))
    lines = _read(data, chunk=7)
    assert len(lines) == 199
    assert lines[150][0] == "line 151"
    assert lines[150][1].startswith("line 151 ")


def test_a_last_line_without_a_line_end_stays_with_the_lines_above_it() -> None:
    # A paste often ends without a line end, on the exception that closes its traceback.
    data = (
        b"Traceback (most recent call last):\n"
        b'  File "C:\\Python39\\lib\\site-packages\\cv2\\__init__.py", line 8, in <module>\n'
        b"    from .cv2 import *\n"
        b"ImportError: DLL load failed while importing cv2: The specified module could not be "
        b"found."
    )
    blocks = list(read_log(io.BytesIO(data)))
    assert len(blocks) == 1 and blocks[0].text.endswith("could not be found.")
    assert list(lines_of(blocks))[-1][0] == "line 4"
    # A line end at the end adds no empty line.
    ended = list(read_log(io.BytesIO(data + b"\n")))
    assert [b.text for b in ended] == [blocks[0].text]


@pytest.mark.parametrize("limit", [4096, 1 << 20], ids=["log-past-the-limit", "whole-log"])
def test_a_last_line_without_a_line_end_stays_with_its_traceback_in_a_long_log(
    limit: int,
) -> None:
    # Past the limit only the log's last part is read: its last line stays in its block too.
    tail = (
        b"Traceback (most recent call last):\n"
        b'  File "train.py", line 3, in <module>\n'
        b"    import tensorflow as tf\n"
        b"ImportError: libcudart.so.11.0: cannot open shared object file"
    )
    data = b"Epoch 1/1 - loss: 0.1\n" * 1000 + tail
    blocks = list(read_log(io.BytesIO(data), chunk=1024, limit=limit))
    assert blocks[-1].text.endswith("cannot open shared object file")
    assert "Traceback (most recent call last):" in blocks[-1].text


def test_an_endless_line_is_cut_under_one_number() -> None:
    blocks = list(read_log(io.BytesIO(b"x" * 100 + b"\nend\n"), chunk=8, max_line=32))
    assert max(len(b.text) for b in blocks) < 64
    assert list(lines_of(blocks))[-1] == ("line 2", "end")


def _notebook() -> bytes:
    doc = {
        "nbformat": 4,
        "cells": [
            {"cell_type": "markdown", "source": ["# title"]},
            {
                "cell_type": "code",
                "outputs": [
                    {"output_type": "stream", "name": "stderr", "text": ["first\n", "second\n"]},
                    {
                        "output_type": "error",
                        "ename": "RuntimeError",
                        "evalue": "x",
                        "traceback": [
                            "\x1b[0;31mRuntimeError\x1b[0m  Traceback",
                            "\x1b[0;31mRuntimeError\x1b[0m: Physical devices cannot be modified "
                            "after being initialized",
                        ],
                    },
                ],
            },
        ],
    }
    return json.dumps(doc).encode()


def test_a_notebook_reads_its_outputs_by_cell_and_line() -> None:
    lines = _read(_notebook(), "run.ipynb")
    assert lines[0] == ("cell 2, line 1", "first")
    assert lines[2] == ("cell 2, line 3", "RuntimeError  Traceback")
    assert lines[3][1].startswith("RuntimeError: Physical devices")


def test_a_notebook_is_recognised_without_its_suffix() -> None:
    report = explain(read_log(io.BytesIO(_notebook()), "-"), SIGNATURES, f.FIXTURE_MATRIX)
    finding = report.findings[0]
    assert finding.id == "explain.gpu-config-too-late"
    assert "cell 2, line 4: RuntimeError: Physical devices" in finding.detail


def test_json_that_is_no_notebook_is_read_as_text() -> None:
    assert _read(b'{"msg": "Illegal instruction"}\n') == [
        ("line 1", '{"msg": "Illegal instruction"}')
    ]


# --- the corpus of real logs ---------------------------------------------------------------


def _case(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    return data


CASE_FIELDS = {"source", "cause", "fix_has", "fix_lacks"}


def case_faults(case: Mapping[str, Any]) -> list[str]:
    """A log case whose source is not a GitHub issue or pull request, or that carries a field
    the replay below does not read (a typo there would go unchecked)."""
    faults = []
    if not re.match(r"https://github\.com/\S+/(issues|pull)/\d+$", str(case.get("source"))):
        faults.append(f"source {case.get('source')!r}")
    return faults + [f"field {k!r}" for k in sorted(set(case) - CASE_FIELDS)]


def test_the_corpus_is_large_and_sourced() -> None:
    cases = [_case(p) for p in CASES]
    assert sum(c["cause"] != "benign" for c in cases) >= 130
    assert sum(c["cause"] == "benign" for c in cases) >= 30
    assert [(p.name, x) for p, c in zip(CASES, cases) for x in case_faults(c)] == []
    # Planted: a forum thread as the source, a misspelt field.
    case = _case(CASES[0])
    assert case_faults({**case, "source": "https://stackoverflow.com/q/1"}) == [
        "source 'https://stackoverflow.com/q/1'"
    ]
    assert case_faults({**case, "fix_hass": ["pip"]}) == ["field 'fix_hass'"]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_a_real_log_gets_its_cause_and_fix(path: Path) -> None:
    case = _case(path)
    with path.open("rb") as stream:
        report = explain(read_log(stream, path.name), SIGNATURES, f.FIXTURE_MATRIX)
    if case["cause"] == "benign":
        assert report.worst().rank <= Severity.INFO.rank, [x.id for x in report.findings]
        assert report.exit_code() == 0
        return
    found = [x for x in report.findings if x.cause == case["cause"]]
    assert found, [x.id for x in report.findings]
    finding = found[0]
    assert finding.id == f"explain.{case['cause']}"
    assert re.search(r"^line \d+: ", finding.detail, re.MULTILINE), finding.detail
    fix = _fix_text(finding).lower()  # words in any case, as benchmarks/bench_accuracy.py
    for word in case.get("fix_has", ()):
        assert word.lower() in fix, (word, fix)
    for word in case.get("fix_lacks", ()):
        assert word.lower() not in fix, (word, fix)


# --- findings -------------------------------------------------------------------------------

DLOPEN = (
    "2021-01-02 20:12:26.425425: W tensorflow/stream_executor/platform/default/dso_loader.cc:60]"
    " Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot "
    "open shared object file: No such file or directory"
)


def test_nothing_recognised_is_one_info_finding() -> None:
    report = _explain("hello\nworld")
    assert [(x.id, x.severity) for x in report.findings] == [
        ("explain.no-signature", Severity.INFO)
    ]
    assert "2 lines" in report.findings[0].detail
    assert report.exit_code() == 0


def test_benign_noise_says_why_and_never_warns() -> None:
    line = (
        "2023-12-05 09:29:20.002737: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] "
        "TF-TRT Warning: Could not find TensorRT"
    )
    (finding,) = _explain(line).findings
    assert finding.id == "explain.benign.tf-trt-missing"
    assert finding.severity is Severity.INFO
    assert "TensorRT is an optional" in finding.detail


def test_citations_are_bounded_and_counted() -> None:
    report = _explain("\n".join([DLOPEN] * 7))
    (finding,) = readings(report)
    assert finding.detail.count("dso_loader.cc") == 3
    assert "(and 4 more like it)" in finding.detail
    assert "line 3: " in finding.detail


def test_no_and_cuda_fix_without_a_release_that_has_it() -> None:
    finding = _explain(DLOPEN).findings[0]
    assert "and-cuda" not in _fix_text(finding)
    assert "does not show the TensorFlow version" in finding.detail


def test_a_release_with_the_extra_gets_it() -> None:
    text = DLOPEN + "\nSuccessfully installed keras-2.15.0 tensorflow-2.15.0\n"
    finding = _explain(text).findings[0]
    assert 'pip install "tensorflow[and-cuda]==2.15.0"' in _fix_text(finding)
    assert "TensorFlow 2.15.0" in finding.detail


def test_the_gpu_in_the_log_raises_a_conditional_signature() -> None:
    stub = (
        "2024-03-12 08:15:01.219473: I external/local_tsl/tsl/cuda/cudart_stub.cc:31] Could not "
        "find cuda drivers on your machine, GPU will not be used."
    )
    assert _explain(stub).findings[0].severity is Severity.INFO
    gpu = (
        "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 9620 MB memory:  -> "
        "device: 0, name: NVIDIA GeForce RTX 3080 Ti, pci bus id: 0000:01:00.0, compute "
        "capability: 8.6"
    )
    assert _explain(stub + "\n" + gpu).findings[0].severity is Severity.ERROR


@pytest.mark.parametrize(
    ("dll", "cuda"),
    [
        pytest.param("cudart64_101.dll", "CUDA 10.1", id="cuda-10.1"),
        pytest.param("cudart64_92.dll", "CUDA 9.2", id="cuda-9.2"),
        pytest.param("cudart64_110.dll", None, id="cuda-11-any-minor"),
    ],
)
def test_a_windows_runtime_dll_names_the_cuda_its_name_carries(dll: str, cuda: str | None) -> None:
    line = (
        "2020-07-30 16:17:56.453813: W tensorflow/stream_executor/platform/default/"
        f"dso_loader.cc:55] Could not load dynamic library '{dll}'; dlerror: {dll} not found"
    )
    fix = _fix_text(_explain(line).findings[0])
    assert "PATH" in fix and "LD_LIBRARY_PATH" not in fix
    if cuda is None:
        # Every CUDA 11.x runtime is cudart64_110.dll: the name says the major, not the minor.
        assert "a CUDA 11 toolkit" in fix
        # A minor is named only beside each TensorFlow line whose build asks for the file.
        head, _, lines = fix.partition("The TensorFlow builds that ask for cudart64_110.dll")
        assert not re.search(r"CUDA 11\.\d", head)
        assert "2.4 (CUDA 11.0" in lines and "2.5 to 2.10 (CUDA 11.2" in lines
    else:
        assert f"Install {cuda} " in fix


@pytest.mark.parametrize(
    ("device", "allocator", "cause"),
    [("CPU", "cpu", "host-out-of-memory"), ("GPU", "GPU_0_bfc", "gpu-out-of-memory")],
)
def test_the_device_of_an_oom_says_whose_memory_ran_out(
    device: str, allocator: str, cause: str
) -> None:
    line = (
        "ResourceExhaustedError: OOM when allocating tensor with shape[64,2016,9,9] and type "
        f"float on /job:localhost/replica:0/task:0/device:{device}:0 by allocator {allocator}"
    )
    (finding,) = _explain(line).findings
    assert finding.cause == cause
    assert ("TF_FORCE_GPU_ALLOW_GROWTH" in _fix_text(finding)) is (device == "GPU")


@pytest.mark.parametrize(
    ("line", "has", "lacks"),
    [
        (
            "ImportError: cannot import name 'builder' from 'google.protobuf.internal'",
            "protobuf>=3.20",
            "protobuf<3.20",
        ),
        ("TypeError: Descriptors cannot be created directly.", "protobuf<3.20", "protobuf>=3.20"),
    ],
    ids=["too-old", "too-new"],
)
def test_a_protobuf_fix_moves_away_from_the_side_that_failed(
    line: str, has: str, lacks: str
) -> None:
    (finding,) = _explain(line).findings
    assert finding.cause == "protobuf-incompatible"
    assert has in _fix_text(finding)
    assert lacks not in _fix_text(finding)


@pytest.mark.parametrize(
    ("home", "cause"), [("/Users/me", "cpu-emulated"), ("/home/me", "cpu-lacks-avx")]
)
def test_an_illegal_instruction_on_macos_is_emulation(home: str, cause: str) -> None:
    log = (
        f'  File "{home}/venv/lib/python3.9/site-packages/tensorflow/python/tf2.py", line 21\n'
        "Fatal Python error: Illegal instruction"
    )
    finding, *rest = _explain(log).findings
    assert finding.cause == cause
    # A Mac the log does not tell apart keeps an Intel Mac without AVX as the ranked candidate.
    assert all(x.summary.endswith("(the other candidate)") for x in rest)


@pytest.mark.parametrize(
    ("module", "cause", "fix_word", "not_word"),
    [
        # Saved by Keras 2 (2.13-2.15), loaded by Keras 3: Keras 2 (tf-keras) reads it.
        ("keras.src.engine.functional", "keras3-behaviour-change", "tf-keras", "tensorflow>=2.16"),
        # Saved by Keras 3, loaded by Keras 2: only Keras 3 reads it; tf-keras would not.
        ("keras.src.models.functional", "keras3-model-under-keras2", "tensorflow>=2.16", "=1"),
    ],
)
def test_a_saved_model_of_the_other_keras_points_the_fix_its_way(
    module: str, cause: str, fix_word: str, not_word: str
) -> None:
    line = (
        f"TypeError: Could not deserialize class 'Functional' because its parent module {module}"
        f" cannot be imported. Full object config: {{'module': '{module}'}}"
    )
    (finding,) = _explain(line).findings
    assert finding.cause == cause
    assert fix_word in _fix_text(finding)
    assert not_word not in _fix_text(finding)


def test_no_kernel_image_without_a_capability_asks_for_it() -> None:
    line = "status: Internal: no kernel image is available for execution on the device"
    (finding,) = _explain(line).findings
    assert finding.cause == "gpu-arch-unsupported"
    assert "X.Y" not in "\n".join(finding.fix.commands if finding.fix else ())
    assert "compute_cap" in _fix_text(finding)


def test_the_scan_reads_every_line_once() -> None:
    blocks = [LogText("", 1, "a\nb"), LogText("", 3, DLOPEN)]
    evidence = scan(blocks, SIGNATURES)
    assert evidence.lines == 3
    assert evidence.hits["dlopen-cuda-library"].citations == [("line 3", DLOPEN)]


def test_a_keyword_with_digits_is_found_on_its_own_line_not_on_its_shapes() -> None:
    # "32 bit (" and "64 bit (" share a shape ("00 bit ("): only the line that holds the
    # keyword's own digits is the signature's, the only line visited, however many lines of
    # that shape come before and after it.
    head = "sys.version: 3.7.3 (v3.7.3:ef4ec6ed12, Mar 25 2019, 21:26:53) [MSC v.1916 "
    other = head + "64 bit (Intel)]\n"
    bits32 = head + "32 bit (Intel)]"
    evidence = scan([LogText("", 1, other * 5 + bits32 + "\n" + other)], SIGNATURES)
    assert list(evidence.hits) == ["python-32bit-version"]
    hit = evidence.hits["python-32bit-version"]
    assert hit.count == 1
    assert hit.citations == [("line 6", bits32)]


# --- combined with a machine's facts ---------------------------------------------------------

MISMATCH = (
    "2022-12-01 10:11:12.131415: E tensorflow/compiler/xla/stream_executor/cuda/cuda_dnn.cc:417]"
    " Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0.  CuDNN library "
    "needs to have matching major version and equal or higher minor version."
)
STRAY = "/usr/local/cuda-11.2/lib64/libcudnn.so.8"


def _machine_with_stray_cudnn() -> Any:
    stray = LibraryCandidate(STRAY, "LD_LIBRARY_PATH", "8.1.0", "call", True)
    return f.facts(
        packages=(f.pkg("tensorflow", "2.11.0", top_level=("tensorflow",)),),
        tensorflow=None,
        cuda_libs=f.cuda_libs(f.lib("cudnn", "libcudnn.so.8", stray)),
        environment={"LD_LIBRARY_PATH": "/usr/local/cuda-11.2/lib64"},
    )


def test_facts_say_where_the_logged_cudnn_comes_from() -> None:
    log_only = _explain(MISMATCH).findings[0]
    combined = _explain(MISMATCH, facts=_machine_with_stray_cudnn())
    finding = combined.findings[0]
    assert finding.cause == log_only.cause == "cudnn-version-mismatch"
    assert "the log does not say from where" in log_only.detail
    assert f"the loader picks {STRAY} (cuDNN 8.1.0), found through LD_LIBRARY_PATH" in (
        finding.detail
    )
    assert "does not show" not in finding.detail
    # The log's lines join the machine's TensorFlow facts.
    assert combined.facts.tensorflow is not None
    assert any("Loaded runtime CuDNN" in line for line in combined.facts.tensorflow.log_errors)
    assert combined.facts.python == _machine_with_stray_cudnn().python
    assert "TensorFlow needs cuDNN 8.6.0" in _fix_text(finding)


# --- the command ------------------------------------------------------------------------------


def test_cli_exits_2_on_an_error_cause(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "train.log"
    log.write_text(DLOPEN + "\n", encoding="utf-8")
    code, out, _ = in_process(capsys, "explain", str(log), "--no-color")
    assert code == 2
    assert "explain.cuda-libs-missing" in out


def test_cli_exits_0_on_benign_noise(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = in_process(
        capsys, "explain", str(LOGS / "benign-factory-relernn-63.log"), "--json"
    )
    report = json.loads(out)
    assert code == 0 == report["summary"]["exit_code"]
    assert {x["severity"] for x in report["findings"]} == {"info"}
    assert report["findings"][0]["check"] == "explain"


def test_cli_reads_markdown_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = io.TextIOWrapper(io.BytesIO(b"Illegal instruction (core dumped)\n"))
    monkeypatch.setattr("sys.stdin", stream)
    code, out, _ = in_process(capsys, "explain", "-", "--format", "markdown")
    assert code == 2
    assert "`explain.cpu-lacks-avx`" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["missing.log"], "cannot read missing.log", id="missing-file"),
        pytest.param([".", "--json"], "cannot read .", id="directory"),
        pytest.param(["x.log", "--facts", "f.json", "--here"], "--facts and --here", id="both"),
        pytest.param(["-", "--facts", "-"], "both be read from stdin", id="two-stdins"),
        pytest.param(["x.log", "--facts", "nope.json"], "cannot read facts file", id="bad-facts"),
        pytest.param(["random.bin"], "random.bin: binary data, not a text log", id="binary"),
        pytest.param(["x.log.gz"], "(gzip -dc x.log.gz | tfdoctor explain -)", id="gzipped"),
        pytest.param(
            ["job 7.log.gz"], "(gzip -dc 'job 7.log.gz' | tfdoctor explain -)", id="gzipped-space"
        ),
    ],
)
def test_cli_exits_3_on_bad_input(
    args: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.log").write_text("hello\n", encoding="utf-8")
    (tmp_path / "random.bin").write_bytes(random.Random(5).randbytes(64 * 1024))
    (tmp_path / "x.log.gz").write_bytes(gzip.compress(b"Illegal instruction\n"))
    (tmp_path / "job 7.log.gz").write_bytes(gzip.compress(b"Illegal instruction\n"))
    code, out, err = in_process(capsys, "explain", *args)
    assert code == 3
    assert out == ""
    assert message in err and err.count("\n") == 1


class _Terminal(io.TextIOWrapper):
    """Standard input as a terminal into which a log was pasted."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [True, False], ids=["terminal", "pipe"])
def test_cli_says_it_waits_for_a_paste_only_on_a_terminal(
    terminal: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `tfdoctor explain` alone reads stdin: on a terminal, silence would look like a hang.
    kind = _Terminal if terminal else io.TextIOWrapper
    monkeypatch.setattr("sys.stdin", kind(io.BytesIO(b"Illegal instruction\n")))
    code, out, err = in_process(capsys, "explain")
    assert code == 2 and "cpu-lacks-avx" in out
    assert ("paste it, then press Ctrl-D" in err) is terminal


def test_cli_combines_a_saved_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps(to_json(_machine_with_stray_cudnn())), encoding="utf-8")
    log = tmp_path / "run.log"
    log.write_text(MISMATCH + "\n", encoding="utf-8")
    code, out, _ = in_process(capsys, "explain", str(log), "--facts", str(facts), "--json")
    report = json.loads(out)
    assert code == 2
    assert STRAY in report["findings"][0]["detail"]
    assert report["facts"]["packages"][0]["name"] == "tensorflow"


def test_cli_a_logs_error_is_a_note_where_the_saved_report_shows_the_gpu_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Observed beats inferred: that machine's TensorFlow lists GPU:0, so the log's claim that
    # it cannot load its CUDA libraries does not fail the run.
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps(to_json(f.facts())), encoding="utf-8")
    log = tmp_path / "run.log"
    log.write_text(DLOPEN + "\n", encoding="utf-8")
    code, out, _ = in_process(capsys, "explain", str(log), "--facts", str(facts), "--json")
    report = json.loads(out)
    assert code == 0
    (finding,) = [x for x in report["findings"] if x["id"] == "explain.cuda-libs-missing"]
    assert finding["severity"] == "info"
    assert finding["summary"].startswith("TensorFlow lists GPU:0 although ")
    # Without the facts, the same log is an error.
    assert in_process(capsys, "explain", str(log), "--json")[0] == 2


def test_explains_finding_ids_are_documented() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "findings.md").read_text("utf-8")
    assert "explain.<cause>" in doc and "explain.benign.<signature>" in doc
    assert "explain.no-signature" in doc


def test_reports_are_frozen_values() -> None:
    report = _explain(DLOPEN)
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.findings[0].id = "x"  # type: ignore[misc]


def test_the_layering_rule_keeps_explain_off_checks_and_renderers() -> None:
    from tests.test_architecture import _imports_of, layer_violations

    assert layer_violations("tfdoctor.explain", _imports_of("from tfdoctor.checks import gpu"))
    assert layer_violations("tfdoctor.explain.reader", _imports_of("import tfdoctor.render.text"))
    assert not layer_violations("tfdoctor.explain", _imports_of("from tfdoctor import causes"))
    assert layer_violations("tfdoctor.signatures", _imports_of("import tfdoctor.machine"))
