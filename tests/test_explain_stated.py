"""What a user states of the machine in words: an issue form's fields, and a sentence that
TensorFlow does not use the GPU. Every form here is written for the test in the shapes of
TensorFlow's templates (the 2022 forms' headings, the older Markdown items)."""

from __future__ import annotations

from typing import Optional

import pytest

from tests import factories
from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.stated import Stated, read_gpu_complaint, read_slow_start, read_stated
from tfdoctor.findings import Finding, Report, Severity

FORM = """### Issue type

Bug

### TensorFlow version

{tf}

### OS platform and distribution

{os}

### Python version

{py}

### Current behavior?

{what}
"""

ITEMS = """**System information**
- OS Platform and Distribution (e.g., Linux Ubuntu 16.04): {os}
- TensorFlow installed from (source or binary): binary
- TensorFlow version (use command below): {tf}
- Python version: {py}

{what}
"""


@pytest.mark.parametrize(
    "form, tf, os, py, expected",
    [
        (FORM, "2.15.1", "Ubuntu 22.04", "3.11", Stated("2.15.1", "3.11", "linux")),
        (FORM, "tf 2.17", "Windows 11 Pro", "Python 3.12.4", Stated("2.17", "3.12.4", "windows")),
        (
            ITEMS,
            "v2.4.0-rc4-71-g582c8d236cb 2.4.0",
            "macOS 12.6 (Intel)",
            "3.8.10",
            Stated("2.4.0", "3.8.10", "macos", "x86_64"),
        ),
        (ITEMS, "2.10.0", "WSL2 Ubuntu 20.04", "3.9", Stated("2.10.0", "3.9", "linux", wsl=True)),
        # A nightly's own spelling of its version, read as pip spells the build.
        (
            FORM,
            "2.15.0-dev20230816",
            "Ubuntu 20.04",
            "3.11",
            Stated("2.15.0.dev20230816", "3.11", "linux"),
        ),
        # pip's own spelling (`pip list`'s row) keeps the suffix too.
        (
            FORM,
            "tf-nightly 2.15.0.dev20230816",
            "Ubuntu 20.04",
            "3.11",
            Stated("2.15.0.dev20230816", "3.11", "linux"),
        ),
        (FORM, "2.16.0rc0", "Ubuntu 22.04", "3.11", Stated("2.16.0rc0", "3.11", "linux")),
    ],
    ids=[
        "form-linux",
        "form-windows",
        "items-git-describe",
        "items-wsl",
        "form-nightly",
        "form-pip-nightly",
        "form-pip-rc",
    ],
)
def test_a_forms_fields_are_read_as_stated(
    form: str, tf: str, os: str, py: str, expected: Stated
) -> None:
    found = read_stated(form.format(tf=tf, os=os, py=py, what="It fails."))
    assert (found.tf_version, found.python, found.os, found.arch, found.wsl) == (
        expected.tf_version,
        expected.python,
        expected.os,
        expected.arch,
        expected.wsl,
    )
    assert found.lines


def test_text_without_a_form_states_nothing() -> None:
    assert read_stated("Traceback (most recent call last):\nValueError: x\n") == Stated()


@pytest.mark.parametrize(
    "line",
    [
        "but tensorflow can't utilize the GPU at all",
        "The GPU is not detected by TensorFlow.",
        "no GPU found when I run list_physical_devices",
        "TensorFlow does not use my gpu",
    ],
)
def test_a_users_sentence_that_the_gpu_is_unused_is_read(line: str) -> None:
    assert read_gpu_complaint(f"Some context.\n{line}\nMore.") == line


def test_tensorflows_own_line_is_no_complaint() -> None:
    text = (
        "2024-01-02 10:00:00.000000: I external/local_xla/xla/tsl/cuda/cudart_stub.cc:32] Could "
        "not find cuda drivers on your machine, GPU will not be used.\n"
    )
    assert read_gpu_complaint(text) is None


def test_native_windows_after_2_10_with_an_unused_gpu_is_the_ended_windows_build() -> None:
    text = FORM.format(
        tf="2.15.0", os="Windows 10", py="3.10", what="TensorFlow can't see the GPU."
    )
    finding = top_error(explained(text))
    assert finding.cause == "windows-native-gpu-ended"
    assert "wsl" in fix_text(finding).lower()


def test_a_stated_platform_the_release_has_no_wheel_for_is_that_release() -> None:
    text = FORM.format(
        tf="2.18.0",
        os="macOS 14 on an Intel Mac",
        py="3.11",
        what="pip install tensorflow==2.18.0 finds no matching distribution.",
    )
    finding = top_error(explained(text))
    assert finding.cause == "tf-release-not-for-python"
    assert '"tensorflow==2.16.2"' in fix_text(finding)


@pytest.mark.parametrize(
    "tf, os, what",
    [
        # A platform the release publishes wheels for.
        ("2.18.0", "macOS 14 (Apple M2)", "pip install tensorflow fails."),
        # Not about installing.
        ("2.18.0", "macOS 14 on an Intel Mac", "The model's loss is NaN after one epoch."),
        # Linux after 2.10 has its GPU build.
        ("2.15.0", "Ubuntu 22.04", "TensorFlow can't see the GPU."),
    ],
    ids=["wheel-exists", "not-an-install", "linux-gpu"],
)
def test_a_stated_machine_without_those_causes_gets_neither(tf: str, os: str, what: str) -> None:
    report = explained(FORM.format(tf=tf, os=os, py="3.11", what=what))
    assert all(
        x.cause not in ("tf-release-not-for-python", "windows-native-gpu-ended")
        for x in report.findings
    ), [x.id for x in report.findings]


@pytest.mark.parametrize(
    "text",
    [
        "My saved model loads fine with TensorFlow 2.14 but I am unable to load the model in "
        "tensorflow 2.17.",
        "Since Keras 3 my code fails: the layer no longer takes 'input_length'.",
    ],
    ids=["model-across-2.16", "argument-beside-keras3"],
)
def test_keras3_in_a_users_words_is_the_keras3_boundary(text: str) -> None:
    report = explained(text)
    (finding,) = [x for x in report.findings if x.cause == "keras3-behaviour-change"]
    assert finding.detail.startswith("line ")


@pytest.mark.parametrize(
    "text",
    [
        # Both releases before Keras 3.
        "The model loads with TensorFlow 2.12 but I am unable to load the model in TF 2.13.",
        # An argument Keras 3 still takes.
        "With Keras 3 the 'units' argument is confusing.",
    ],
    ids=["both-before", "kept-argument"],
)
def test_words_that_do_not_cross_the_keras3_boundary_are_not_it(text: str) -> None:
    assert all(x.cause != "keras3-behaviour-change" for x in explained(text).findings)


@pytest.mark.parametrize(
    "text",
    [
        "I'm using Keras 3 with the JAX backend. How do I change the 'batch_size' in fit?",
        "I don't want to use the GPU for this, CPU is enough.",
        "My model loads fine in TF 2.15 and in tensorflow 2.16.1 too. No error when loading it.",
        "The docs say you must install tensorflow-text before running. Done, both import fine.",
        "I ran pip install tensorflow-addons as required by the README.",
    ],
    ids=["keras3-fit-argument", "cpu-by-choice", "loads-in-both", "install-done", "install-said"],
)
def test_a_users_harmless_words_are_no_finding(text: str) -> None:
    report = explained(text)
    assert all(x.severity.rank < Severity.WARNING.rank for x in report.findings), [
        (x.id, x.severity.value) for x in report.findings
    ]


@pytest.mark.parametrize(
    "os, expected",
    [
        ("Ubuntu 22.04 (Docker Desktop on Windows 11)", "linux"),
        ("Windows 10 and macOS 14", None),
    ],
)
def test_a_system_inside_another_or_two_systems(os: str, expected: object) -> None:
    assert read_stated(FORM.format(tf="2.16.1", os=os, py="3.11", what="x")).os == expected


@pytest.mark.parametrize(
    ("line", "release"),
    [
        ("Tensorflow 1.13", "1.13"),
        ("TF: 2.4.1", "2.4.1"),
        ("- tensorflow-gpu 1.15", "1.15"),
    ],
    ids=["word-and-release", "colon", "gpu-package-item"],
)
def test_a_line_naming_the_release_alone_states_it(line: str, release: str) -> None:
    found = read_stated(f"ValueError: x\n\nI ran it like this.\n{line}\n")
    assert found.tf_version == release and found.lines == (line.strip(),)


@pytest.mark.parametrize(
    "text",
    [
        # A sentence around the release: not a statement of the one installed.
        "It worked on TensorFlow 1.13 before.\n",
        # Two releases on lines of their own: no single one.
        "TensorFlow 1.13\nTensorFlow 2.0\n",
        # A row of `pip list`, its name padded into a column: the listing's, not a statement.
        "Package                            Version\ntensorflow                         2.12.0\n",
    ],
    ids=["in-a-sentence", "two-releases", "pip-list-row"],
)
def test_other_mentions_of_a_release_state_none(text: str) -> None:
    assert read_stated(text).tf_version is None


def test_a_forms_field_is_worth_more_than_a_bare_line() -> None:
    text = "TensorFlow 1.13\n" + FORM.format(tf="2.15.1", os="Ubuntu", py="3.11", what="x")
    assert read_stated(text).tf_version == "2.15.1"


def test_a_release_line_lets_the_tf1_loader_read_a_tf2_call() -> None:
    # TensorFlow 1's loader(sess, tags, export_dir) given one path: with no release shown the
    # message is as much TensorFlow 2's loader called without one.
    message = "TypeError: load() missing 1 required positional argument: 'export_dir'\n"
    assert all(f.cause != "api-removed" for f in explained(message).findings)
    top = top_error(explained(message + "\nmodel = tf.saved_model.load(path)\nTensorflow 1.13\n"))
    assert top.cause == "api-removed" and "TensorFlow 1.13" in top.detail


def test_several_releases_in_the_version_answer_state_none() -> None:
    text = FORM.format(tf="2.16.1 (also tried 1.15)", os="Ubuntu", py="3.11", what="x")
    assert read_stated(text).tf_version is None


# --- a start the user says is slow, on a GPU they name ------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "The time TensorFlow needs to initialize the model is very long.",
        "We see a first-time delay of 90-120 seconds when we create the Session.",
        "Startup takes 12 minutes before the first epoch.",
        "Loading the model takes several minutes on every launch.",
        "It takes 5 minutes to start.",
        "It takes 10 minutes before training starts.",
    ],
)
def test_a_users_sentence_that_the_start_is_slow_is_read(line: str) -> None:
    assert read_slow_start(f"Some context.\n{line}\nMore.") == line.rstrip(".")


@pytest.mark.parametrize(
    "text",
    [
        "The model starts in 2 seconds.",
        "Each epoch takes 12 minutes.",
        "2020-11-10 20:45:51.208355: W tensorflow/core/common_runtime/gpu/gpu_device.cc:1703] "
        "TensorFlow was not built with CUDA kernel binaries compatible with compute capability "
        "8.6. CUDA kernels will be jit-compiled from PTX, which could take 30 minutes or longer.",
        "The first epoch takes 10 minutes, the others 20 seconds.",
        "Training starts on the RTX 3090 and each epoch takes 5 minutes.",
        "The job starts, then after 2 hours of training the loss is NaN.",
    ],
    ids=[
        "a-short-start",
        "not-the-start",
        "tensorflows-own-line",
        "first-epoch",
        "training-starts",
        "job-starts-then",
    ],
)
def test_other_sentences_are_no_slow_start(text: str) -> None:
    assert read_slow_start(text) is None


def _ptx(report: Report) -> list[Finding]:
    return [x for x in report.findings if x.cause == "gpu-ptx-jit"]


def test_a_slow_start_on_a_named_gpu_is_kernels_compiled_from_ptx() -> None:
    text = (
        "Initializing the model takes about 10 minutes on our Tesla V100, while each epoch "
        "takes 8 seconds.\nOn a Tesla P100 in the same environment it takes 3 minutes.\n"
    )
    (finding,) = _ptx(explained(text))
    # Of the two GPUs named, the newer one is the one a build lacks machine code for.
    assert finding.severity is Severity.WARNING
    assert "V100" in finding.summary and "7.0" in finding.summary
    assert "CUDA_CACHE_MAXSIZE" in fix_text(finding)


def test_a_release_with_machine_code_for_the_gpu_is_no_ptx_start() -> None:
    said = "Startup takes 12 minutes on the GeForce RTX 3090.\n"
    # No release shown: the reading stands.
    assert len(_ptx(explained(said))) == 1
    # TensorFlow 2.15 carries machine code for compute capability 8.6; 2.3 only PTX.
    assert not _ptx(explained("TensorFlow version: 2.15.0\n" + said))
    (finding,) = _ptx(explained("TensorFlow version: 2.3.0\n" + said))
    assert "TensorFlow 2.3 carries only PTX" in finding.detail


@pytest.mark.parametrize(
    "text",
    [
        "Startup takes 12 minutes.\n",
        "The GeForce RTX 3090 trains fine.\n",
    ],
    ids=["no-gpu-named", "no-slow-start"],
)
def test_a_slow_start_needs_both_the_words_and_a_gpu(text: str) -> None:
    assert not _ptx(explained(text))


def test_the_jit_cache_is_set_in_the_shell_of_a_windows_machine() -> None:
    # No release carries machine code for compute capability 12.0: the PTX reading stands.
    said = "Startup takes 12 minutes on the GeForce RTX 5090.\n"
    windows = factories.facts(platform=factories.platform(system="Windows"))
    (finding,) = _ptx(explained(said, facts=windows))
    commands = finding.fix.commands if finding.fix else ()
    assert "set CUDA_CACHE_MAXSIZE=4294967296" in commands
    assert not any(c.startswith("export ") for c in commands)


@pytest.mark.parametrize(
    ("system", "install", "note"),
    [
        ("Linux Ubuntu 22.04", True, None),
        ("", True, "for Linux or WSL 2"),
        ("Windows 11", False, "under WSL 2"),
    ],
    ids=["linux", "unknown", "windows"],
)
def test_the_ptx_fix_offers_a_pip_line_only_for_a_gpu_build_here(
    system: str, install: bool, note: Optional[str]
) -> None:
    # Native Windows has had no TensorFlow GPU build since 2.10: a pip line there installs
    # a CPU-only TensorFlow; on an unknown system it is marked as the Linux one.
    what = "Startup takes 12 minutes on the GeForce RTX 3090."
    said = FORM.format(tf="2.3.0", os=system, py="3.8", what=what) if system else what + "\n"
    (finding,) = _ptx(explained(said))
    commands = finding.fix.commands if finding.fix else ()
    assert any(c.startswith("pip install") for c in commands) is install
    if note is None:
        assert "WSL 2" not in fix_text(finding)
    else:
        assert note in fix_text(finding)


@pytest.mark.parametrize(
    ("system", "wsl"),
    [
        ("Ubuntu 22.04 on WSL2", True),
        ("Windows 11 (WSL 2, Ubuntu 22.04)", True),
        ("Ubuntu 20.04 server (the same code works on WSL2)", False),
    ],
    ids=["on-wsl2", "wsl2-in-brackets", "works-on-wsl2"],
)
def test_the_forms_wsl_is_the_failing_runs_only(system: str, wsl: bool) -> None:
    stated = read_stated(FORM.format(tf="2.15.0", os=system, py="3.10", what="It fails."))
    assert stated.wsl is wsl
