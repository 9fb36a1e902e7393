"""A log pasted through a container runtime, a system log, a narrow console or Windows reads as
the log itself: the reader takes off what the paste added (``tfdoctor.explain.reader``)."""

from __future__ import annotations

import io
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.explaining import explained, top_error
from tfdoctor.explain.reader import clean, read_log

_TB = (
    "Traceback (most recent call last):\n"
    '  File "/home/user/proj/train.py", line 14, in <module>\n'
    "    x = tf.placeholder(tf.float32, shape=[None, 784])\n"
    "AttributeError: module 'tensorflow' has no attribute 'placeholder'\n"
)
_CAUSE = "api-moved-to-compat-v1"

#: TensorFlow's loader line (tsl/platform/default/dso_loader.cc), longer than any console.
_DLOPEN = (
    "2025-01-12 22:03:03.896484: W external/local_tsl/tsl/platform/default/dso_loader.cc:70] "
    "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared "
    "object file: No such file or directory; LD_LIBRARY_PATH: /usr/local/nvidia/lib64\n"
)


def test_the_plain_traceback_names_the_cause() -> None:
    assert top_error(explained(_TB)).cause == _CAUSE


def test_kubernetes_cri_records_are_read_through_and_their_parts_joined() -> None:
    lines = _TB.splitlines()
    records = [
        f"2024-03-02T10:00:0{i}.12345678{i}Z stderr F {line}" for i, line in enumerate(lines)
    ]
    # The runtime cut the last line in two: a P record, then the F record that ends it.
    last = lines[-1]
    records[-1] = f"2024-03-02T10:00:09.000000001Z stderr P {last[:30]}"
    records.append(f"2024-03-02T10:00:09.000000002Z stderr F {last[30:]}")
    log = "\n".join(records) + "\n"
    assert clean(log) == _TB
    assert top_error(explained(log)).cause == _CAUSE


@pytest.mark.parametrize("label", ["trainer-1  | ", "app_1     | ", "tf-worker-12 | "])
def test_docker_compose_service_labels_are_read_through(label: str) -> None:
    log = "".join(f"{label}{line}\n" for line in _TB.splitlines())
    # An empty line of the service's keeps its label and no blank after the bar.
    log += label.rstrip() + "\n"
    assert clean(log) == _TB + "\n"
    assert top_error(explained(log)).cause == _CAUSE


def test_journalctl_lines_are_read_through() -> None:
    log = "".join(
        f"Mar 02 10:00:0{i} gpu-node python3[20514]: {line}\n"
        for i, line in enumerate(_TB.splitlines())
    )
    assert clean(log) == _TB
    assert top_error(explained(log)).cause == _CAUSE


@pytest.mark.parametrize(
    "stamp",
    [
        lambda i: f"10:00:{i:02d}  ",  # Jenkins' Timestamper in the console
        lambda i: f"00:00:{i:02d}.250  ",  # its elapsed time, with milliseconds
        lambda i: f"[2024-03-02T10:00:{i:02d}.123Z] ",  # a Pipeline's plain-text log
        lambda i: f"Mar 02 10:00:{i:02d} ",  # moreutils' ts
    ],
)
def test_a_time_before_every_line_is_read_through(stamp: Callable[[int], str]) -> None:
    log = "".join(f"{stamp(i)}{line}\n" for i, line in enumerate(_TB.splitlines()))
    assert clean(log) == _TB
    assert top_error(explained(log)).cause == _CAUSE


def test_tensorflows_own_times_are_no_prefix_to_take_off() -> None:
    # TensorFlow's lines start with a date and a time of their own (and absl's with a
    # letter): they stay as printed.
    log = _DLOPEN * 4 + "I0302 10:00:00.123456 140 main.py:12] step\n" * 3
    assert clean(log) == log


def test_a_containers_json_file_log_is_read_as_its_lines() -> None:
    # Docker's json-file driver: a record a line, the line's text (escaped) in "log".
    records = [
        json.dumps({"log": f"{line}\n", "stream": "stderr", "time": f"2024-03-02T10:00:0{i}Z"})
        for i, line in enumerate(_TB.splitlines())
    ]
    log = "\n".join(records) + "\n"
    assert clean(log) == _TB
    assert top_error(explained(log)).cause == _CAUSE


def test_a_kaggle_notebook_log_is_read_as_its_lines() -> None:
    # A JSON array, a record a line: "[" before the first, "," before each other.
    records = [
        json.dumps({"stream_name": "stderr", "time": 2.5 + i, "data": f"{line}\n"})
        for i, line in enumerate(_TB.splitlines())
    ]
    log = "[" + "\n,".join(records) + "]\n"
    assert clean(log) == _TB
    assert top_error(explained(log)).cause == _CAUSE


@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_json_log_records_are_read_under_either_line_end(end: str) -> None:
    # A log saved or pasted on Windows ends its lines with CRLF: the records are the same.
    docker = [
        json.dumps({"log": f"{line}\n", "stream": "stderr", "time": "2024-03-02T10:00:00Z"})
        for line in _TB.splitlines()
    ]
    kaggle = [
        json.dumps({"stream_name": "stderr", "time": 2.5, "data": f"{line}\n"})
        for line in _TB.splitlines()
    ]
    for log in (end.join(docker) + end, "[" + f"{end},".join(kaggle) + f"{end}]{end}"):
        assert clean(log).rstrip("]\n") == _TB.rstrip("\n")
        assert top_error(explained(log)).cause == _CAUSE


def test_json_records_whose_text_never_ends_a_line_are_a_line_each() -> None:
    # A collector that keeps each line without its end (the CRI record read as JSON):
    # the records are not one line joined.
    records = [
        json.dumps({"time": "2024-03-02T10:00:00Z", "stream": "stderr", "log": line})
        for line in _TB.splitlines()
    ]
    log = "\n".join(records) + "\n"
    assert clean(log) == _TB
    assert top_error(explained(log)).cause == _CAUSE
    # Where records do end lines, one without an end is part of the next (Docker's json-file
    # driver cuts a long line into records).
    cut = '{"log":"Traceback (most ","stream":"stderr"}\n{"log":"recent call last):\\n"}\n' + (
        '{"log":"x\\n"}\n'
    )
    assert clean(cut) == "Traceback (most recent call last):\nx\n"


def test_json_lines_that_hold_no_log_record_stay_as_they_are() -> None:
    text = '{"a": 1}\n{"log": 2}\n{"b": "x"}\n{"time": 3}\nplain\n'
    assert clean(text) == text
    # A record among other lines is read; a line that only looks like one stays.
    mixed = '{"log": "one\\n"}\n{"log": "two\\n"}\n{"log": "three\\n"}\n{"log": broken\nend'
    assert clean(mixed) == 'one\ntwo\nthree\n{"log": broken\nend'


_PIP_REFUSAL = (
    "Collecting tensorflow==1.15\n"
    "ERROR: Could not find a version that satisfies the requirement tensorflow==1.15 "
    "(from versions: 2.12.0, 2.13.0)\n"
    "ERROR: No matching distribution found for tensorflow==1.15\n"
)


def test_a_docker_build_steps_plain_progress_is_read_through() -> None:
    # BuildKit: the step's number and the seconds since it started, as many decimals as the
    # seconds leave room for; its own lines (the step's name, its end) keep their number.
    seconds = ["0.512", "9.998", "12.34"]
    log = "#8 [3/4] RUN pip install tensorflow==1.15\n"
    log += "".join(f"#8 {s} {line}\n" for s, line in zip(seconds, _PIP_REFUSAL.splitlines()))
    log += '#8 ERROR: process "/bin/sh -c pip install tensorflow==1.15" did not complete\n'
    cleaned = clean(log)
    assert _PIP_REFUSAL in cleaned and cleaned.startswith("#8 [3/4] RUN")
    plain = {f.cause for f in explained(_PIP_REFUSAL).findings}
    assert "tf-release-not-for-python" in plain
    assert {f.cause for f in explained(log).findings} == plain


def test_a_failed_build_steps_summary_is_read_without_its_seconds() -> None:
    summary = "------\n > [3/4] RUN pip install tensorflow==1.15:\n"
    summary += "".join(f"1.{i}34 {line}\n" for i, line in enumerate(_PIP_REFUSAL.splitlines()))
    summary += "------\n"
    assert _PIP_REFUSAL in clean(summary)
    # A header that starts the text, or follows the header's characters inside another line.
    assert _PIP_REFUSAL in clean(summary.removeprefix("------\n"))
    assert _PIP_REFUSAL in clean("if x > [1]: y = 2\n" + summary)
    # Lines that start with a number, without BuildKit's header, are the log's own.
    own = "0.512 seconds per step\n1.234 seconds per step\n2.5 loss\n3.75 loss\n"
    assert clean(own) == own
    # Nor do the lines after the summary's closing rule, or under a header of another form.
    assert clean(summary + own).endswith("------\n" + own)
    # A heredoc's lines follow the header before the step's own.
    heredoc = summary.replace(
        "tensorflow==1.15:\n", "<<EOF\npip install tensorflow==1.15\nEOF:\n", 1
    )
    assert _PIP_REFUSAL in clean(heredoc)
    other = " > [2/3] copying files\n" + own
    assert clean(other) == other


def test_a_prefix_on_fewer_than_three_lines_is_the_logs_own() -> None:
    text = "web_1 | started\nresult | value\nMar 02 10:00:01 host cron[12]: job ran\nend\n"
    assert clean(text) == text


@pytest.mark.parametrize("blank", [">", "> "])
def test_a_log_quoted_in_a_reply_is_read_through_the_quote(blank: str) -> None:
    log = "".join(f"> {line}\n" for line in _DLOPEN.splitlines())
    log += blank + "\n" + "".join(f"> {line}\n" for line in _TB.splitlines())
    assert clean(log) == _DLOPEN + "\n" + _TB
    assert top_error(explained(log)).cause == _CAUSE


@pytest.mark.parametrize("levels", [2, 3])
def test_a_log_quoted_in_a_reply_to_a_reply_is_read_through_every_quote(levels: int) -> None:
    log = "".join(f"{'> ' * levels}{line}\n" for line in _TB.splitlines())
    assert clean(log) == _TB
    assert top_error(explained(log)).cause == _CAUSE


def test_pythons_prompt_and_a_quote_inside_a_quote_keep_their_marks() -> None:
    session = ">>> import tensorflow as tf\n>>> tf.placeholder\n>>> x = 1\n>>> y = 2\n"
    assert clean(session) == session
    # A quoted session: the quote is taken off once, the prompts stay.
    assert clean("".join(f"> {line}\n" for line in session.splitlines())) == session
    # A few quoted lines among a log's own are the log's (an R console, a shell's PS2).
    own = "> x <- 1\nresult\nline two\nline three\nline four\n"
    assert clean(own) == own


@pytest.mark.parametrize("indent", ["    ", "\t"])
def test_a_log_pasted_as_an_indented_code_block_keeps_its_own_indents(indent: str) -> None:
    log = "".join(
        f"{indent}{line}\n" if line else "\n" for line in (_DLOPEN + "\n" + _TB).split("\n")
    )
    assert clean(log).rstrip("\n") == (_DLOPEN + "\n" + _TB).rstrip("\n")
    assert top_error(explained(log)).cause == _CAUSE
    # One line without the indent: no code block, the text is left as it is (a traceback's
    # frames alone are indented by the program).
    frames = '  File "/x.py", line 1, in <module>\n    import tensorflow\nImportError: boom\n'
    assert clean(frames) == frames
    assert clean("    " + frames) == "    " + frames


def test_a_log_copied_from_a_pages_source_reads_its_entities_as_characters() -> None:
    escaped = (
        _TB.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )
    assert escaped != _TB
    assert clean(escaped) == _TB
    assert clean(escaped.replace("&#39;", "&#x27;")) == _TB
    # An entity shown as text (the page's ``&amp;lt;``) is that text once, not twice read;
    # an entity no program prints stays.
    assert clean("a &amp;lt; b &copy; c\n") == "a &lt; b &copy; c\n"


def _hard_wrapped(text: str, width: int) -> str:
    out: list[str] = []
    for line in text.split("\n"):
        cut = max(len(line) - 1, 0) // width * width
        out.extend(line[i : i + width] for i in range(0, cut, width))
        out.append(line[cut:])
    return "\n".join(out)


@pytest.mark.parametrize("width", [80, 100, 120])
def test_a_log_hard_wrapped_at_a_consoles_width_is_joined_again(width: int) -> None:
    log = _DLOPEN * 3 + _TB
    wrapped = _hard_wrapped(log, width)
    assert wrapped != log
    assert clean(wrapped) == log
    causes = {f.cause for f in explained(log).findings}
    assert "cuda-libs-missing" in causes
    assert {f.cause for f in explained(wrapped).findings} == causes


def test_lines_of_one_length_that_start_lines_of_their_own_are_not_joined() -> None:
    # Keras' progress lines are all as wide, and the next epoch starts a line of its own.
    progress = "1875/1875 [==============================] - 5s 2ms/step - loss: 0.2934 - acc: 0.91"
    text = "".join(f"Epoch {i}/5\n{progress}\n" for i in range(1, 6))
    assert clean(text) == text
    # A wrap is certain only after two cuts at one width: a line cut once is not, but at a
    # console's width (80 or 120 columns).
    once = _hard_wrapped(_DLOPEN[:150] + "\n", 100)
    assert once.count("\n") == 2
    assert clean(once) == once
    assert clean(_hard_wrapped(_DLOPEN[:150] + "\n", 80)) == _DLOPEN[:150] + "\n"
    twice = _hard_wrapped(_DLOPEN, 80)
    assert clean(twice) == _DLOPEN


def test_crlf_line_ends_are_read_before_a_whole_line_markdown_span() -> None:
    log = "`AttributeError: module 'tensorflow' has no attribute 'placeholder'`\r\n"
    assert clean(log) == "AttributeError: module 'tensorflow' has no attribute 'placeholder'\n"


sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_robust  # noqa: E402

#: A few cases of different kinds (a traceback, TensorFlow's loader lines, pip, a benign log),
#: each right as pasted, run under every perturbation of the robustness bench.
_ROBUST_CASES = (
    "batch-2026-12/estimator-tf-76349",
    "batch-2026-12/avx-tf114-core2-tf-46496",
    "batch-2026-12/benign-onednn-forge-1573",
)


@pytest.mark.parametrize("name", _ROBUST_CASES)
def test_cases_stay_right_under_every_perturbation_of_a_paste(name: str) -> None:
    batch = name.split("/", maxsplit=1)[0]
    found = [c for c in bench_robust.cases([bench_robust.UNSEEN / batch]) if c[0] == name]
    assert found, f"{name} is not a plain case"
    _, meta, text = found[0]
    outcome = bench_robust.run_case(name, meta, text, seed=1)
    assert outcome.right
    assert set(outcome.kept) == set(bench_robust.PERTURBATIONS)
    lost = {label: outcome.got[label] for label, kept in outcome.kept.items() if not kept}
    assert not lost


def test_every_perturbation_changes_a_log_and_keeps_its_words() -> None:
    rng = random.Random(3)
    log = _DLOPEN * 3 + _TB
    for label, perturb in bench_robust.PERTURBATIONS.items():
        # tail needs a report; windows leaves a log with a shared object's loader line as it
        # is (tests/test_explain_windows_paths.py perturbs its own).
        if perturb in (bench_robust.tail, bench_robust.windows):
            continue
        changed = perturb(log, rng)
        assert changed != log, label
        assert "placeholder" in changed, label


def _blocks_of(data: bytes) -> list[str]:
    return [block.text for block in read_log(io.BytesIO(data), "-")]


def test_a_logs_last_line_read_without_its_line_end_keeps_no_carriage_return() -> None:
    data = (
        b"pip install tf\r\n"
        b"`AttributeError: module 'tensorflow' has no attribute 'placeholder'`\r\n"
    )
    assert _blocks_of(data) == [
        "pip install tf\nAttributeError: module 'tensorflow' has no attribute 'placeholder'"
    ]


def test_one_long_line_wrapped_at_the_end_of_a_log_is_joined_again() -> None:
    # The log's last line comes from the reader without its line end: its pieces still count.
    line = _DLOPEN.rstrip("\n")
    wrapped = _hard_wrapped(line, 100)
    assert wrapped.count("\n") == 2
    assert _blocks_of(wrapped.encode()) == [line]
    # A cut at a blank: the rest starts with the blank, and is joined too.
    spaced = "x" * 99 + " " + "y" * 99 + " " + "z" * 30
    assert _blocks_of(_hard_wrapped(spaced, 100).encode()) == [spaced]


def test_a_message_printed_twice_at_the_longest_length_is_not_a_wrap() -> None:
    # pip's resolver note (pip/_internal/operations/check.py, via
    # src/pip/_internal/commands/install.py) before each conflict: two lines of one length,
    # each followed by a line of its own kind.
    note = (
        "ERROR: pip's dependency resolver does not currently take into account all the "
        "packages that are installed. This behaviour is the source of the following "
        "dependency conflicts.\n"
    )
    text = (
        f"{note}tensorflow 2.9.1 requires protobuf<3.20,>=3.9.2, but you have protobuf 4.21.2 "
        f"which is incompatible.\n\n{note}grpcio-tools 1.48.0 requires protobuf<5.0dev,>=3.12.0, "
        "but you have protobuf 3.11.0 which is incompatible.\n"
    )
    assert clean(text) == text


def test_one_warning_printed_again_with_other_times_is_not_a_wrap() -> None:
    # TensorFlow's warning (tf2tensorrt/utils/py_utils.cc) at the longest length every time,
    # each followed by a line of the program's own: its lines differ only in their numbers.
    text = "".join(
        f"2023-12-05 09:{n:02d}:{n + 3:02d}.002737: W tensorflow/compiler/tf2tensorrt/utils/"
        f"py_utils.cc:38] TF-TRT Warning: Could not find TensorRT\nworker {n}: step done\n"
        for n in range(10, 30)
    )
    assert clean(text) == text


def test_a_line_as_wide_as_a_console_before_a_message_of_its_own_is_not_a_wrap() -> None:
    # pip's two errors (pip/_internal/resolution/resolvelib/factory.py), the first exactly
    # 80 columns long: the second starts with its level, and with a capital letter.
    text = (
        "  Using cached numpy-1.19.5-cp39-cp39-win_amd64.whl (13.3 MB)\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow~=2.4.0\n"
        "ERROR: No matching distribution found for tensorflow~=2.4.0\n"
    )
    assert len(text.splitlines()[1]) == 80
    assert clean(text) == text
    assert clean(text.replace("\nERROR: No", "\nNo")) == text.replace("\nERROR: No", "\nNo")


def test_a_wrap_of_prefixed_lines_is_joined_before_the_prefix_is_taken_off() -> None:
    # A console wraps what it shows: the GitHub Actions or `docker logs -t` time included.
    log = "".join(
        f"2022-01-25T18:20:16.81838668{i}Z {line}" for i, line in enumerate([_DLOPEN] * 3)
    )
    assert clean(_hard_wrapped(log, 100)) == _DLOPEN * 3


def test_a_wrap_beside_a_progress_bar_redrawn_with_carriage_returns_is_joined() -> None:
    bar = "".join(
        f"\r{n}/500 [{'=' * (n // 20)}>] - ETA: 3s - loss: 0.69" for n in range(0, 500, 10)
    )
    # The bar's redraws are one long line of the file; the console showed its last state.
    wrapped = f"Epoch 1/1\n{bar}\n{_hard_wrapped(_DLOPEN * 2, 80)}"
    assert clean(wrapped) == clean(f"Epoch 1/1\n{bar}\n{_DLOPEN * 2}")


def test_a_line_that_starts_as_the_one_before_it_is_not_its_rest() -> None:
    # IPython pads its rule and its header to one width (core/ultratb.py); under a Compose
    # label both are as long, and the next line starts with the label again.
    rule = "-" * 75
    lines = [rule, f"{'SystemError':<42}Traceback (most recent call last)".ljust(75)]
    lines += ["<ipython-input-4-d1680108c58e> in <module>()", "----> 4   raise SystemError('x')"]
    text = "".join(f"app-1  | {line}\n" for line in lines)
    assert clean(text) == "".join(f"{line}\n" for line in lines)


@pytest.mark.parametrize(
    "report",
    [
        "Killed",
        "Aborted (core dumped)",
        "Segmentation fault (core dumped)",
        "Illegal instruction (core dumped)",
        "Illegal instruction",
        "Bus error",
        "zsh: illegal hardware instruction  python train.py",
        "bash: line 1:  4242 Killed                  python train.py",
    ],
)
def test_the_shells_report_of_a_death_after_a_line_as_wide_as_the_wrap_is_its_own(
    report: str,
) -> None:
    # The shell writes its report of the process's end on a line of its own, whatever the
    # length of the program's last line: a line exactly as wide as the console is not its start.
    last = "loading /home/user/data/train/shard-0001.tfrecord into the input pipeline now"
    last = last + "." * (80 - len(last) - 1) + "x"
    assert len(last) == 80
    log = _DLOPEN + last + "\n" + report + "\n"
    wrapped = _hard_wrapped(log, 80)
    assert clean(wrapped) == log


def test_a_process_killed_after_a_line_as_wide_as_the_wrap_is_still_read_as_killed() -> None:
    last = "loading /home/user/data/train/shard-0001.tfrecord into the input pipeline now, x"
    assert len(last) == 80
    causes = {f.cause for f in explained(_hard_wrapped(_DLOPEN, 80) + last + "\nKilled\n").findings}
    assert "host-out-of-memory" in causes


def test_one_long_line_cut_into_many_pieces_is_joined_in_linear_time() -> None:
    # A printed array or a blob of 3 MB on one line, wrapped by an 80-column console: 40,000
    # pieces, each joined once (a piece added to the joined line each time copies it whole).
    rng = random.Random(7)
    line = "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=3_200_000))
    wrapped = "\n".join(line[i : i + 80] for i in range(0, len(line), 80))
    started = time.perf_counter()
    assert clean(wrapped) == line
    assert time.perf_counter() - started < 2.0


def test_lines_of_one_length_that_differ_only_in_hexadecimal_numbers_are_not_a_wrap() -> None:
    # One VLOG line printed again with other addresses (hexadecimal), each before an object's
    # repr: lines the program printed, not a console's cut (benchmarks/bench_explain.py's
    # --distinct log).
    rng = random.Random(5)
    text = "".join(
        f"I0501 12:00:{i:02d}.0001{i:02d} 1{i:02d} gpu_util.cc:1{i:02d}] buffer "
        f"0x{rng.getrandbits(44):011x} stream {rng.choice(['dcaad', '2f449'])}\n"
        f"<tensorflow.python.framework.ops.EagerTensor object at 0x{rng.getrandbits(48):012x}>\n"
        for i in range(10, 40)
    )
    assert clean(text) == text


#: A line the program printed exactly 80 columns wide, ending no sentence: once a wrap at 80 is
#: certain, it is joined to the next line unless that line starts a line of its own.
_EIGHTY = "note: the build went on with the default options of this platform, as before, xy"


@pytest.mark.parametrize(
    "own",
    [
        # pip's own line starts (pip/_internal: operations/prepare.py's two, then
        # commands/install.py, req/__init__.py, network/download.py, wheel_builder.py).
        "Collecting tensorflow==2.15.0",
        "Requirement already satisfied: numpy>=1.23.5 in ./venv/lib/python3.11/site-packages",
        "Successfully installed keras-2.15.0 tensorflow-2.15.0",
        "Installing collected packages: numpy, tensorflow",
        "Downloading tensorflow-2.15.0-cp311-cp311-manylinux_2_17_x86_64.whl (475.2 MB)",
        "Building wheel for wrapt (setup.py): started",
        "ERROR: No matching distribution found for tensorflow==2.3.0",
        "WARNING: Retrying (Retry(total=4, connect=None, read=None)) after connection broken",
        "DEPRECATION: wrapt is being installed using the legacy 'setup.py install' method",
        # Shell prompts: bash's default PS1 in a virtual environment, PowerShell's, cmd's,
        # CPython's interactive prompts and IPython's.
        "(venv) user@host:~/proj$ python train.py",
        "user@gpu-box:~$ pip install tensorflow",
        "$ python -c 'import tensorflow as tf'",
        "PS C:\\Users\\me\\proj> python train.py",
        "C:\\Users\\me>python train.py",
        ">>> import tensorflow as tf",
        "... print(tf.__version__)",
        "In [3]: import tensorflow as tf",
        # Python code.
        "model.fit(x, y)",
        "import tensorflow as tf",
        "from tensorflow import keras",
        "x = tf.constant([1.0, 2.0])",
        # A path, as Python's warnings module starts its line (warnings.formatwarning).
        "/usr/local/lib/python3.10/dist-packages/keras/src/layers/core.py:87: UserWarning: x",
        "~/proj/train.py:12: DeprecationWarning: x",
        # CPython's traceback, glog's prefix, Keras' progress, a log record.
        "Traceback (most recent call last):",
        "W0000 00:00:1712345678.123456   12345 gpu_device.cc:2256] Cannot dlopen some GPU",
        "Epoch 3/10",
        "313/313 [==============================] - 1s 2ms/step - loss: 0.0712",
        "INFO:tensorflow:Assets written to: saved/assets",
        "2024-03-02 10:00:00.123456: I tensorflow/core/platform/cpu_feature_guard.cc:182]",
    ],
)
def test_a_line_of_its_own_after_a_line_as_wide_as_a_certain_wrap_is_not_joined(
    own: str,
) -> None:
    assert len(_EIGHTY) == 80
    log = _DLOPEN * 2 + _EIGHTY + "\n" + own + "\n"
    # The wrap at 80 is certain (the loader's lines cut twice each); the line exactly 80
    # columns wide stays apart from the line after it.
    assert clean(_hard_wrapped(log, 80)) == log


def test_a_cut_before_a_capital_letter_is_read_alike_by_both_the_width_and_the_join() -> None:
    # One cut at 80 columns before a capital letter does not make a wrap certain: nor does a
    # capital letter go on a line once a wrap is certain by other cuts.
    first = "dlerror: libcudnn.so.8: cannot open shared object file, read from the cache: "
    once = first.rjust(80, "_") + "\nNo such file or directory\n"
    assert len(once.split("\n")[0]) == 80
    assert clean(once) == once
    head = _hard_wrapped(_DLOPEN * 2, 80)
    capital = "x" * 79 + ",\nNo GPU was found, so the model runs on the CPU\n"
    assert clean(head + capital) == _DLOPEN * 2 + capital


def test_a_width_read_from_the_head_holds_for_the_whole_text() -> None:
    # A log whose head is wrapped at 80 columns but whose tail holds longer lines was not
    # wrapped at 80 as a whole (two pastes put together): no line of it is joined.
    head = _hard_wrapped(_DLOPEN, 80)
    filler = "".join(f"step {i}: loss 0.{i:05d}\n" for i in range(4000))
    tail = "x" * 90 + "\n" + _EIGHTY + "\n" + "the next line starts its own sentence here\n"
    text = head + filler + tail
    assert len(head + filler) > 64 * 1024
    assert clean(text) == text


def test_a_capital_letter_that_goes_on_a_word_the_console_cut_is_joined() -> None:
    # The BFC allocator's note (tsl/framework/bfc_allocator.cc), cut at 71 columns (a
    # narrow box) inside its size's unit: ``GiB`` goes on after ``Gi``, one line again.
    note = (
        "2024-03-02 10:00:00.123456: W tensorflow/tsl/framework/bfc_allocator.cc:296] Allo"
        "cator (GPU_0_bfc) ran out of memory trying to allocate 2.39Gi"
        "B with freed_by_count=0. The caller indicates that this is not a failure, but may "
        "mean that there could be performance gains if more memory were available.\n"
    )
    assert note[71:142].endswith("Gi")
    assert clean(_hard_wrapped(note, 71)) == note


#: A traceback as the rich library draws it (rich ``traceback.py``, ``_render_stack``): a box
#: 60 columns wide, a path longer than the box folded onto the next line, the frame's line
#: marked among numbered lines with an indent guide, a locals panel beside the code, a
#: library's frame shown without its code, the note of hidden frames; the exception after.
_RICH_TB = """\
╭──────────── Traceback (most recent call last) ───────────╮
│ /srv/jobs/experiments/2031/nightly/pipelines/fit_model.p │
│ y:41 in main                                             │
│                                                          │
│   40 │   cfg = load()              ╭──── locals ────╮    │
│ ❱ 41 │   run(cfg)                  │ cfg = {}       │    │
│   42                               ╰────────────────╯    │
│                                                          │
│ /opt/venv/lib/python3.11/site-packages/click/core.py:783 │
│ in invoke                                                │
│                                                          │
│                 ... 7 frames hidden ...                  │
│                                                          │
│ /srv/jobs/steps.py:9 in run                              │
│                                                          │
│    8 def run(cfg):                                       │
│ ❱  9 │   return tf.Session()                             │
│   10                                                     │
╰──────────────────────────────────────────────────────────╯
AttributeError: module 'tensorflow' has no attribute
'Session'
"""

_RICH_READ = """\
Traceback (most recent call last):
  File "/srv/jobs/experiments/2031/nightly/pipelines/fit_model.py", line 41, in main
    run(cfg)
  File "/opt/venv/lib/python3.11/site-packages/click/core.py", line 783, in invoke
  File "/srv/jobs/steps.py", line 9, in run
    return tf.Session()
AttributeError: module 'tensorflow' has no attribute 'Session'
"""


def _ascii_box(text: str) -> str:
    """The box as rich draws it on a console that is not UTF-8 (``box.ASCII``), with the
    legacy Windows console's pointer."""
    return text.translate(str.maketrans("╭╮╰╯─│❱", "++++-|>"))


def test_a_rich_traceback_reads_as_pythons_own() -> None:
    assert clean(_RICH_TB) == _RICH_READ


def test_a_rich_traceback_in_the_ascii_box_reads_as_pythons_own() -> None:
    assert clean(_ascii_box(_RICH_TB)) == _RICH_READ


def test_a_rich_traceback_under_a_line_prefix_reads_as_pythons_own() -> None:
    prefixed = "".join(f"app-1  | {line}\n" for line in _RICH_TB.splitlines())
    assert clean(prefixed) == _RICH_READ


def test_a_rich_traceback_names_the_cause_its_frames_say() -> None:
    assert top_error(explained(_RICH_TB)).cause == _CAUSE


def test_a_word_longer_than_the_console_after_a_rich_box_is_joined_without_a_blank() -> None:
    box = _RICH_TB[: _RICH_TB.index("AttributeError")]
    folded = (
        "OSError:\n"
        "/opt/venv/lib/python3.11/site-packages/tensorflow/core/kernels/libtfkernel_sobol_o\n"
        "p.so: undefined symbol: _ZN3tsl6StatusC1Ev\n"
        "2031-01-01 10:00:00.000001: I tensorflow/core/util/port.cc:113] done\n"
    )
    assert clean(box + folded).endswith(
        "OSError: /opt/venv/lib/python3.11/site-packages/tensorflow/core/kernels/"
        "libtfkernel_sobol_op.so: undefined symbol: _ZN3tsl6StatusC1Ev\n"
        "2031-01-01 10:00:00.000001: I tensorflow/core/util/port.cc:113] done\n"
    )


def test_a_frame_rich_shows_without_a_path_gets_none_made_up() -> None:
    log = (
        "╭───── Traceback (most recent call last) ─────╮\n"
        "│ in <module>:1                               │\n"
        "╰─────────────────────────────────────────────╯\n"
        "ModuleNotFoundError: No module named 'tensorflow'\n"
    )
    assert clean(log) == (
        "Traceback (most recent call last):\nModuleNotFoundError: No module named 'tensorflow'\n"
    )


#: Two frames of files named in angle brackets as rich writes them (by version), and what
#: CPython's traceback holds of them.
_ANGLE_FRAMES = {
    "named": (
        "<stdin>:1 in <module>",
        "<string>:2 in run",
        '  File "<stdin>", line 1, in <module>\n  File "<string>", line 2, in run\n',
    ),
    "rich-13.4-nameless": ("in <module>:1", "in run:2", ""),
    "rich-13.1-nameless": ("in <module>", "in run", ""),
}


@pytest.mark.parametrize(
    ("first", "second", "expected"), list(_ANGLE_FRAMES.values()), ids=list(_ANGLE_FRAMES)
)
def test_frames_of_files_named_in_angle_brackets_rich_drew_without_a_blank_stay_apart(
    first: str, second: str, expected: str
) -> None:
    # rich puts no blank row before a frame whose file's name starts with "<".
    inner = [first, second, "", "/srv/app/train.py:12 in main", "", "❱ 12     model.fit(x)"]
    log = _rich_panel(inner, 60) + "\nValueError: bad\n"
    assert clean(log) == (
        "Traceback (most recent call last):\n"
        f"{expected}"
        '  File "/srv/app/train.py", line 12, in main\n'
        "    model.fit(x)\n"
        "ValueError: bad\n"
    )


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(
            "╭──────── Summary ────────╮\n"
            "│ model.fit(x)            │\n"
            "╰─────────────────────────╯\n",
            id="another-title",
        ),
        pytest.param(
            "┃ Layer    │ Output Shape │\n│ dense    │ (None, 10)   │\n",
            id="a-table",
        ),
    ],
)
def test_a_box_that_is_not_a_rich_traceback_stays_as_it_is(log: str) -> None:
    assert clean(log) == log


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(_RICH_TB.replace("│ in invoke     ", "│ in invoke"), id="a-side-out-of-line"),
        pytest.param(_RICH_TB.replace("╰" + "─" * 58 + "╯\n", ""), id="no-bottom-side"),
    ],
)
def test_a_rich_box_whose_sides_do_not_run_to_its_bottom_is_not_read_as_frames(log: str) -> None:
    assert 'File "' not in clean(log)


def test_the_rich_perturbation_reads_back_as_the_frames_it_was_drawn_from() -> None:
    for seed in range(12):
        drawn = bench_robust.rich(_TB, random.Random(seed))
        assert drawn != _TB
        assert clean(drawn) == _TB, seed


def _rich_panel(inner: list[str], width: int) -> str:
    """A rich traceback's box ``width`` columns wide around lines of its own."""
    title = " Traceback (most recent call last) "
    left = (width - 2 - len(title)) // 2
    right = width - 2 - len(title) - left
    rows = [f"│ {line.ljust(width - 4)} │" for line in inner]
    return "\n".join(
        ["╭" + "─" * left + title + "─" * right + "╮", *rows, "╰" + "─" * (width - 2) + "╯"]
    )


def test_a_path_rich_wrapped_at_its_blank_and_folded_is_joined_as_it_was() -> None:
    # rich's divide_line: "C:\Program" fits; the next word, longer than the line, starts a
    # line of its own and is folded at the line's width (46); " in fit" follows its rest.
    path = "C:\\Program Files\\Python311\\Lib\\site-packages\\keras\\src\\engine\\training.py"
    rest = path[len("C:\\Program ") :]
    inner = ["C:\\Program", rest[:46], rest[46:] + ":1234 in fit", "", "❱ 1234 x = 1"]
    assert len(rest[:46]) == 46
    log = _rich_panel(inner, 50) + "\nValueError: bad\n"
    assert clean(log) == (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 1234, in fit\n'
        "    x = 1\n"
        "ValueError: bad\n"
    )


def test_a_line_of_code_typer_wrapped_under_the_gutter_is_joined_again() -> None:
    # typer's rich traceback wraps code (word_wrap=True): the rest under the gutter's blanks,
    # of the marked line's neighbours too (no frame's line, and left out).
    inner = [
        "/srv/app/cli.py:8 in main",
        "",
        "    7 │   data = load(path, strict=True,",
        "      cache=False)",
        "❱   8 │   model.fit(data, epochs=10,",
        "      batch_size=32)",
        "    9",
    ]
    log = _rich_panel(inner, 50) + "\nValueError: bad\n"
    assert clean(log) == (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/cli.py", line 8, in main\n'
        "    model.fit(data, epochs=10, batch_size=32)\n"
        "ValueError: bad\n"
    )


@pytest.mark.parametrize("ascii_box", [False, True], ids=["rounded", "ascii"])
def test_rich_panel_of_a_syntax_error_reads_as_pythons_file_line_and_caret(ascii_box: bool) -> None:
    # rich's _render_syntax_error: an untitled panel after the frames' box, the path's row
    # (folded where longer than the box), the line, a mark under the offset; both boxes in
    # ASCII on a console that is not UTF-8.
    path = "/opt/py27/lib/python2.7/site-packages/proto/descriptor.py"
    shown = f" {path}:113"
    frames = _rich_panel(["/srv/app/run.py:3 in <module>", "", "❱ 3 import proto"], 50)
    panel = [shown[:46], shown[46:], "class Base(metaclass=Meta):", "               ▲"]
    rows = [f"│ {row.ljust(46)} │" for row in panel]
    log = "\n".join([frames, "╭" + "─" * 48 + "╮", *rows, "╰" + "─" * 48 + "╯"])
    if ascii_box:
        log = log.translate(bench_robust._TO_ASCII)
    assert clean(log + "\nSyntaxError: invalid syntax\n") == (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/run.py", line 3, in <module>\n'
        "    import proto\n"
        f'  File "{path}", line 113\n'
        "    class Base(metaclass=Meta):\n"
        "                   ^\n"
        "SyntaxError: invalid syntax\n"
    )


def test_an_exception_line_rich_wrapped_with_its_blank_kept_joins_with_one_blank() -> None:
    # rich keeps the blank at a wrapped line's end where it fits (divide_line measures a word
    # without it): the line is 53 columns with it in a console of 54, and "console" did not
    # fit beside "the".
    wrapped = "RuntimeError: a failure whose message runs on so the \nconsole wrapped it\n"
    assert wrapped.index("\n") == 53
    log = _rich_panel(["/srv/app/train.py:12 in main"], 54) + "\n" + wrapped
    assert clean(log).endswith(
        "RuntimeError: a failure whose message runs on so the console wrapped it\n"
    )


def test_a_line_after_a_rich_exception_whose_first_word_would_have_fitted_stays_apart() -> None:
    # "next" fits beside "the" in 57 columns, just (the blank rich kept is not counted): rich
    # did not wrap here.
    log = (
        _rich_panel(["/srv/app/train.py:12 in main"], 57)
        + "\nRuntimeError: a failure whose message runs on so the \nnext run went on\n"
    )
    assert clean(log).endswith("so the \nnext run went on\n")


def test_a_box_after_a_rich_traceback_that_is_not_read_stays_line_by_line() -> None:
    # An untitled box of another shape after the frames' box is left as it is, each row its
    # own line: none is taken as the exception's line and joined to the rows below it.
    frames = _rich_panel(["/srv/app/run.py:3 in <module>", "", "❱ 3 run()"], 50)
    other = ["+" + "-" * 48 + "+", "| " + "a note of the program's own".ljust(46) + " |"]
    log = "\n".join([frames, *other, other[0], "RuntimeError: stopped", ""])
    assert clean(log).endswith("\n".join([*other, other[0], "RuntimeError: stopped", ""]))


def test_a_cut_at_a_dot_between_two_digits_is_a_wrap_at_a_consoles_width() -> None:
    # pip's error (resolution/resolvelib/factory.py) cut at 80 columns inside the release
    # asked: the line ends in a dot that is the number's, not a sentence's.
    line = "ERROR: Could not find a version that satisfies the requirement mylib-gpu==3.17.4"
    line = line.rjust(81, " ")
    assert line[:80].endswith("3.17.")
    assert clean(_hard_wrapped(line + "\n", 80)) == line + "\n"
    # A sentence's full stop before a line of its own starting with a digit stays a line end.
    sentence = "Loaded the model.".rjust(80, "_") + "\n3 warnings\n"
    assert clean(sentence) == sentence


def test_a_capitalised_folder_of_a_path_cut_at_a_consoles_width_goes_on_the_path() -> None:
    # pip's error (pip/_internal/commands/install.py, create_os_error_message) naming a
    # Windows path, cut at 120 columns inside the path between two folders' letters.
    folders = ["C:", "Users", "me", "AppData", "Local", "Programs", "Python", "Python39"]
    path = "\\".join([*folders, "Lib", "site-packages", "mylib", "data"])
    line = (
        "ERROR: Could not install packages due to an OSError: [Errno 2] No such file or "
        f"directory: '{path}\\very_long_file_name_for_a_generated_module_of_the_package.py'"
    )
    cut = line.index("AppData") + 3
    line = line.rjust(len(line) + 120 - cut, " ")
    wrapped = _hard_wrapped(line + "\n", 120)
    assert wrapped.split("\n")[1].startswith("Data\\Local")
    assert clean(wrapped) == line + "\n"
    # A capitalised word that holds no separator still starts a line of its own.
    own = "x" * 60 + " C:\\Users\\me\\App".rjust(60, "_") + "\nCollecting mylib\n"
    assert len(own.split("\n")[0]) == 120
    assert clean(own) == own


#: A traceback whose frame in a long folder is its longest line (CPython's Lib/traceback.py
#: prints a frame on one line, its source under it indented).
_LONG_FRAME = (
    '  File "/srv/projects/research-group/experiments/2031/shared/pipelines/loader.py", '
    "line 258, in import_graph_def\n"
)
_FRAMED = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 3, in <module>\n'
    "    load()\n" + _LONG_FRAME + "    op_def = op_dict[node.op]\n"
    "KeyError: 'FIFOQueueV2'\n"
)


@pytest.mark.parametrize("width", [88, 100, 110])
def test_a_frame_line_cut_once_at_the_texts_width_is_joined(width: int) -> None:
    # One cut at a width no console opens at is no certain wrap, but for a frame line, whose
    # form CPython fixes: the rest completes it (``, i`` then ``n import_graph_def``, ``line
    # `` then ``258, in ...``).
    wrapped = _hard_wrapped(_FRAMED, width)
    assert wrapped.count("\n") == _FRAMED.count("\n") + 1
    assert clean(wrapped) == _FRAMED


def test_a_frame_line_before_its_exception_or_source_is_not_joined() -> None:
    # A frame without its source (``python -c``, a frozen program) before the exception's
    # line, and one before its source dedented by a paste, are as long as the longest line.
    bare = _LONG_FRAME + "tensorflow.python.framework.errors_impl.NotFoundError\n"
    assert clean(bare) == bare
    dedented = _LONG_FRAME + "op_def = op_dict[node.op]\n"
    assert clean(dedented) == dedented
    shorter = "  " + _LONG_FRAME + "x\n" + "y" * 200 + "\n"
    assert clean(shorter) == shorter


@pytest.mark.parametrize("after", ["StopIteration", "Killed"])
def test_a_frame_line_before_a_capitalised_word_of_its_own_is_not_joined(after: str) -> None:
    # A bare exception whose name has no kind's suffix (Python prints a StopIteration raised
    # without arguments as its name alone) and a shell's report of the process's end each
    # start a line of their own: the frame's function name and the word are no one name.
    bare = _LONG_FRAME + after + "\n"
    assert clean(bare) == bare


def test_the_cpu_guards_message_cut_before_its_instruction_is_still_read() -> None:
    # cpu_feature_guard.cc's fatal line cut once at 100 columns inside "The TensorFlow
    # library": a single cut at that width is no certain wrap, and the message's words from
    # the instruction on still say the CPU lacks it.
    line = (
        "2031-01-02 03:04:05.678901: F tensorflow/core/platform/cpu_feature_guard.cc:37] "
        "The TensorFlow library was compiled to use AVX instructions, but these aren't "
        "available on your machine.\n"
    )
    wrapped = _hard_wrapped(line, 100) + "Aborted (core dumped)\n"
    assert "library was" not in wrapped
    assert "cpu-lacks-avx" in {f.cause for f in explained(wrapped).findings}


def test_the_allocators_note_cut_inside_its_words_stays_a_note() -> None:
    # bfc_allocator.cc's note that the caller can do without the memory, cut once at 100
    # columns after its first words: a single cut at that width is no certain wrap, and the
    # note's first words still say it is none of the allocator's failures.
    note = (
        "Allocator (GPU_0_bfc) ran out of memory trying to allocate 3.10GiB with "
        "freed_by_count=0. The caller indicates that this is not a failure, but may mean "
        "that there could be performance gains if more memory were available.\n"
    )
    wrapped = _hard_wrapped(note, 110)
    assert "The caller indicates" in wrapped.split("\n")[0]
    assert "not a failure" not in wrapped.split("\n")[0]
    findings = explained(wrapped).findings
    assert findings
    assert all(f.severity.value in ("info", "ok") for f in findings), findings
