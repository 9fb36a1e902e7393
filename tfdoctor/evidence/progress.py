"""What a log shows of a run that went on and did its work (observed, not inferred).

A notice printed at start (a companion's version warning, pip's list of conflicts, a library
TensorFlow could not load) predicts a failure; the lines a program prints only once the work
is done show that the prediction did not come true for this run. Each family is read from the
program that prints it:

- Keras' progress bar at its target, one epoch trained or evaluated: ``N/N [====] - 2s
  5ms/step - loss: 0.12`` (Keras 2, tf.keras: ``Progbar.update`` in keras/utils/generic_utils.py,
  https://github.com/keras-team/keras/blob/v2.11.0/keras/utils/generic_utils.py) and
  ``N/N ━━━━ 2s 5ms/step - loss: 0.12`` (Keras 3: keras/src/utils/progbar.py,
  https://github.com/keras-team/keras/blob/v3.3.3/keras/src/utils/progbar.py); the count is
  right-aligned to the target's width, and a bar short of its target is a step, not an epoch;
- an Estimator's ``Loss for final step: 0.1.`` (tensorflow_estimator's estimator.py ``train``:
  ``logging.info('Loss for final step: %s.', loss)``) after its training loop ended;
- a SavedModel written: ``SavedModel written to: DIR/saved_model.pb`` (TensorFlow's
  saved_model/builder_impl.py ``save``, ``tf_logging.info("SavedModel written to: %s", path)``)
  and ``Assets written to: DIR/assets`` (saved_model/save.py, the assets of ``tf.saved_model.save``
  and ``model.save`` in the SavedModel format);
- a test run that passed: pytest's summary with passes and no failure or error
  (``==== 3 passed, 1 warning in 2.01s ====``, _pytest/terminal.py ``build_summary_stats_line``),
  unittest's ``Ran 3 tests in 0.012s`` followed by ``OK`` (unittest/runner.py ``run``:
  ``"Ran %d test%s in %.3fs"``, then ``OK`` only where ``wasSuccessful()``).

The evidence never says what a finding is worth; explain decides that (:mod:`tfdoctor.explain`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Optional

from tfdoctor.evidence.tflog import FATAL_START
from tfdoctor.records import Record, record


@record
class WentOn(Record):
    """The first line showing the run's work done, and what it shows in words."""

    #: The index of the line in the text it was read from (0 for the first).
    index: int
    line: str
    what: str
    #: The line is TensorFlow's own work (tf.keras' or Keras 2's bar, an Estimator's, a
    #: SavedModel's), which shows TensorFlow imported; a test runner's passes and Keras 3's
    #: bar (its backend may be JAX's or PyTorch's) do not.
    tensorflow: bool = False


#: Keras' bar at its target: the count equal to the target (a backreference), then the bar of
#: either generation; no digit before it, so "11/1" does not read as "1/1". Each with its
#: cheap gate, the bar's characters (a pass over the text costs less than a pattern).
_EPOCH_DONE_KERAS2 = re.compile(r"(?<!\d)(\d+)/\1 \[=+\] ")
_EPOCH_DONE_KERAS3 = re.compile(r"(?<!\d)(\d+)/\1 \u2501+ ")
_FINAL_STEP = re.compile(r"\bLoss for final step: \S")
_SAVED = re.compile(r"\b(?:SavedModel|Assets) written to: \S")
#: pytest's summary: only passes and quiet outcomes, never "failed" or "error(s)".
_PYTEST_PASSED = re.compile(
    r"^=+ (?:\d+ (?:skipped|deselected|xfailed|xpassed|warnings?), )*\d+ passed"
    r"(?:, \d+ (?:skipped|deselected|xfailed|xpassed|warnings?|rerun))* in [\d.]+s\b",
    re.M,
)
#: unittest's count of tests run, then (after a blank line) its verdict of success.
_UNITTEST_OK = re.compile(r"^Ran [1-9]\d* tests? in \d+\.\d+s\s*\n\s*\nOK\b", re.M)

#: Each family: its gate words, its pattern, what it shows, whether it is TensorFlow's work.
_FAMILIES: tuple[tuple[tuple[str, ...], re.Pattern[str], str, bool], ...] = (
    (("=]",), _EPOCH_DONE_KERAS2, "Keras ran an epoch to its end", True),
    (("\u2501 ",), _EPOCH_DONE_KERAS3, "Keras ran an epoch to its end", False),
    (("Loss for final step",), _FINAL_STEP, "the Estimator's training loop ended", True),
    ((" written to: ",), _SAVED, "a SavedModel was written", True),
    ((" passed",), _PYTEST_PASSED, "pytest's tests passed", False),
    (("Ran ",), _UNITTEST_OK, "unittest's tests passed", False),
)


#: A process shown ending without a traceback: TensorFlow's fatal log line (``F`` severity,
#: ``Check failed:``; tsl/platform/default/logging.cc, its prefix :data:`tflog.FATAL_START`, one
#: home for TensorFlow's prefixes), the shell's word for a fatal signal
#: (``Segmentation fault (core dumped)``, ``Aborted``, ``Killed``, glibc's strsignal of SIGFPE
#: ``Floating point exception``), CPython's own (``Fatal Python error:``), PyCharm's end of a
#: process a fatal signal ended (``exit code 139 (interrupted by signal 11: SIGSEGV)``),
#: libstdc++'s terminate handler before its abort (libstdc++-v3/libsupc++/vterminate.cc:
#: ``terminate called after throwing an instance of``), and a notebook's kernel dying
#: (JupyterLab's apputils/src/sessioncontext.tsx: ``... appears to have died. It will restart
#: automatically.``; VS Code's Jupyter extension, localize.ts
#: kernelCrashedDueToCodeInCurrentOrPreviousCell: ``The Kernel crashed while executing code
#: in the current cell``). The work shown before it does not say the run went on. The lines
#: whose cause the signatures name carry their tag ``process-ended`` (explain reads it).
_CRASH = re.compile(
    rf"\bCheck failed: |{FATAL_START}|Segmentation fault"
    r"|core dumped|^Aborted\s*$|^Killed\s*$|Fatal Python error:|Floating point exception"
    r"|interrupted by signal \d+: SIG(?:SEGV|ABRT|BUS|FPE|ILL|KILL)\b"
    r"|terminate called after throwing an instance of "
    r"|appears to have died\. It will restart automatically"
    r"|Kernel crashed while executing code in the",
    re.M,
)
_CRASH_WORDS = (
    "Check failed",
    ": F ",
    "F0",
    "F1",
    "Segmentation",
    "core dumped",
    "Aborted",
    "Killed",
    "Fatal Python",
    "Floating point",
    "interrupted by signal",
    "terminate called",
    "appears to have died",
    "Kernel crashed",
)


#: The most lines holding one gate word that a family's pattern is tried on: a log of a
#: million progress steps stays a bounded cost (the first of a family is what is kept; one
#: lost says less, never more). Past it, a crash is looked for by one pass of its pattern.
_MAX_CANDIDATES = 2000
#: How far past its line a pattern may read (unittest's verdict two lines below its count).
_BELOW = 64
#: A text this short is asked for each word with ``in`` before its lines are searched.
_SHORT = 4096


def _candidates(text: str, word: str) -> Iterator[tuple[int, int]]:
    """The start and end of each line of ``text`` that holds ``word``, in order (one search
    per occurrence, not a pattern over the whole text), the first :data:`_MAX_CANDIDATES`."""
    # The engine skips to a short literal's first character in C, faster than ``str.find``
    # where the word is absent from a long text (``benchmarks/bench_explain.py --literals``):
    # most of these words are on no line of a log.
    search = _word_pattern(word).search
    found = search(text)
    for _ in range(_MAX_CANDIDATES):
        if found is None:
            return
        at = found.start()
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        yield start, end
        found = search(text, end)


@functools.cache
def _word_pattern(word: str) -> re.Pattern[str]:
    """``word`` as a pattern, compiled once (the words are a fixed few)."""
    return re.compile(re.escape(word))


def _first(
    text: str, words: tuple[str, ...], pattern: re.Pattern[str], whole: bool = False
) -> Optional[int]:
    """Where the first line holding one of ``words`` that ``pattern`` matches (from its start,
    reading at most a little below it) starts; None where none does. Only the first lines
    holding each word are tried (:data:`_MAX_CANDIDATES`); where more hold it and ``whole``,
    the pattern then reads the rest of the text once."""
    best: Optional[int] = None
    # A text of a type of its own (explain's block, whose ``in`` asks its distinct line
    # shapes first) answers whether it holds a word without a pass over it.
    # So does a short text (one line a reader asks about): ``in`` costs less there than the
    # pattern set up for each word.
    asked = type(text) is not str or len(text) <= _SHORT
    for word in words:
        if asked and word not in text:
            continue
        lines = list(_candidates(text, word))
        for start, end in lines:
            if best is not None and start >= best:
                break
            if pattern.search(text, start, min(len(text), end + _BELOW)) is not None:
                best = start
                break
        else:
            if whole and len(lines) == _MAX_CANDIDATES:
                rest = lines[-1][1]
                found = pattern.search(text, rest, best if best is not None else len(text))
                if found is not None:
                    best = text.rfind("\n", 0, found.start()) + 1
    return best


def crash_shown(text: str) -> bool:
    """Whether ``text`` shows a process ending in a crash rather than a traceback. No line is
    left unread (a crash missed would let the work shown before it overrule a notice)."""
    return _first(text, _CRASH_WORDS, _CRASH, whole=True) is not None


def read_went_on(text: str) -> Optional[WentOn]:
    """The first line of ``text`` that shows the run's work done (an epoch to its end, a
    training loop ended, a model saved, tests passed); None where none does."""
    found: Optional[tuple[int, str, bool]] = None
    for words, pattern, what, tensorflow in _FAMILIES:
        start = _first(text, words, pattern)
        if start is not None and (found is None or start < found[0]):
            found = (start, what, tensorflow)
    if found is None:
        return None
    start, what, tensorflow = found
    end = text.find("\n", start)
    line = text[start : end if end >= 0 else len(text)]
    return WentOn(text.count("\n", 0, start), line.strip()[:200], what, tensorflow)
