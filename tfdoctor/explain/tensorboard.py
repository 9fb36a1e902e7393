"""TensorBoard's environment as a log shows it over several lines.

Which TensorBoard distributions are installed, read from a listing (``pip list``'s rows, an
issue's ``- name: version`` list, and ``tensorboard/tools/diagnose_tensorboard.py``'s
``INFO: installed: name==version`` lines), beside the TensorFlow listed; and a nightly
TensorFlow or TensorBoard pip-installed into an environment where TensorBoard then fails to
start. One line alone does not say either: the signatures (``signatures.yaml``) read the lines
that do (``Duplicate plugins for name``, pip's ``-ensorboard`` leftovers).
"""

from __future__ import annotations

import re
from typing import Optional

from tfdoctor import causes
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import version_key

#: The distributions that install the ``tensorboard`` package (causes.software's list).
_TB_NAMES = r"tensorboard|tb[-_]nightly|tensorflow[-_]tensorboard"
#: TensorFlow's distributions whose TensorBoard a listing pairs (the nightlies included).
_TF_NAMES = (
    r"tensorflow(?:[-_](?:gpu|cpu))?"
    r"|tf[-_]nightly(?:[-_](?:gpu|cpu))?(?:[-_]2\.0[-_]preview)?"
)
#: One listed row: diagnose_tensorboard.py's ``INFO: installed: name==version``, pip list's
#: ``name   version``, an issue's ``- name: version``; pip freeze's bare ``name==version``
#: alone is left out (written alone, it is a requirement, not what is installed). One run of
#: blanks at each place: linear on any line.
_ROW = (
    r"^[ \t]*(?:INFO:[ \t]+installed:[ \t]+(?P<{k}d>{names})==|(?:[-*][ \t]+)?"
    r"(?P<{k}>{names})(?:[ \t]+|:[ \t]*))"
    r"v?(?P<{k}v>\d+\.\d+(?:\.\d+)?(?:(?:a|b|rc|\.dev)\d+)?)[ \t]*\r?$"
)
_TB_ROW = re.compile(_ROW.format(k="tb", names=_TB_NAMES), re.MULTILINE)
_TF_ROW = re.compile(_ROW.format(k="tf", names=_TF_NAMES), re.MULTILINE)

#: pip installing a nightly TensorFlow or TensorBoard (a notebook's ``!pip``/``%pip`` too).
_NIGHTLY_INSTALL = re.compile(
    r"\bpip3?[ \t]+install\b[^\n]{0,200}?[ \t](?:tf|tb)[-_]nightly\b", re.IGNORECASE
)
#: TensorBoard failing to start: the notebook magic's report (tensorboard/notebook.py), or a
#: traceback through TensorBoard's own start-up (tensorboard/program.py, main.py).
_TB_FAILED = re.compile(
    r"Failed to launch TensorBoard|tensorboard[/\\](?:program|main)\.py\"?, line \d"
)

#: The notebook magic's header before TensorBoard's own stderr: the failure's reason follows.
_STDERR_SHOWN = "Contents of stderr:"
#: The last line of a Python traceback: the exception's name (dotted or not), then its
#: message or nothing.
_EXCEPTION_LINE = re.compile(
    r"^[ \t]*(?:[A-Za-z_]\w{0,60}\.){0,6}\w{0,60}(?:Error|Exception)(?::|[ \t]*$)", re.MULTILINE
)


def _reason_shown(text: str) -> bool:
    """Whether the notebook magic's copy of TensorBoard's stderr is in the log with its reason:
    any message, or a traceback that ends in its exception (a paste cut off inside the
    traceback shows no reason)."""
    at = text.find(_STDERR_SHOWN)
    if at < 0:
        return False
    traceback = text.find("Traceback (most recent call last)", at)
    return traceback < 0 or _EXCEPTION_LINE.search(text, traceback) is not None


def _normal(name: str) -> str:
    return name.lower().replace("_", "-")


def listed_tensorboards(text: str) -> dict[str, str]:
    """The TensorBoard distributions a listing in ``text`` shows installed, with versions."""
    if "ensorboard" not in text and "nightly" not in text:
        return {}
    out: dict[str, str] = {}
    for row in _TB_ROW.finditer(text):
        out.setdefault(_normal(row.group("tbd") or row.group("tb")), row.group("tbv"))
    return out


def _listed_tensorflow(text: str) -> Optional[tuple[str, str]]:
    row = _TF_ROW.search(text)
    if row is None:
        return None
    return _normal(row.group("tfd") or row.group("tf")), row.group("tfv")


def tensorboard_findings(text: str, m: Machine, explained: bool = False) -> list[Finding]:
    """Findings about the TensorBoards installed, from lines read together (see the module).
    The nightly's guess only where nothing else explains the failure: no other finding at
    warning or above (``explained``), and TensorBoard's own stderr, which the notebook magic
    prints after ``Contents of stderr:`` (tensorboard/notebook.py), does not show the
    exception it ended in."""
    if "ensorboard" not in text and "nightly" not in text:
        return []
    boards = listed_tensorboards(text)
    if len(boards) > 1:
        shown = ", ".join(f"{n} {v}" for n, v in boards.items())
        return [
            causes.finding(
                "explain.tensorboard-duplicate-install",
                Severity.ERROR,
                causes.software.TENSORBOARD_DUPLICATE_INSTALL,
                "More than one TensorBoard is installed",
                f"The listing shows {shown}: each installs the tensorboard package.",
                causes.software.tensorboard_duplicate_fix(m),
            )
        ]
    tf = _listed_tensorflow(text)
    if len(boards) == 1 and tf is not None:
        (name, version), (tf_name, tf_version) = next(iter(boards.items())), tf
        mismatch = _line_mismatch(version, tf_version)
        if mismatch:
            return [
                causes.finding(
                    "explain.companion-mismatch",
                    Severity.WARNING,
                    causes.software.COMPANION_MISMATCH,
                    "The TensorBoard installed is of another line than the TensorFlow",
                    f"The listing shows {name} {version} beside {tf_name} {tf_version}: "
                    f"{mismatch}.",
                    causes.software.tensorboard_line_fix(m, name, version, tf_name, tf_version),
                )
            ]
    if (
        not explained
        and not _reason_shown(text)
        and _NIGHTLY_INSTALL.search(text)
        and _TB_FAILED.search(text)
    ):
        return [
            causes.finding(
                "explain.tensorboard-duplicate-install",
                Severity.WARNING,
                causes.software.TENSORBOARD_DUPLICATE_INSTALL,
                "TensorBoard fails after a nightly was installed beside it: likely two "
                "TensorBoards",
                "The log shows a nightly TensorFlow or TensorBoard installed with pip, and "
                "TensorBoard then failing to start. A nightly TensorFlow requires tb-nightly, "
                "which pip installs beside the environment's tensorboard rather than in its "
                "place: likely, not shown (the error's last line is not in the log).",
                causes.software.tensorboard_duplicate_fix(m, nightly=True),
            )
        ]
    return []


def _line_mismatch(tb: str, tf: str) -> str:
    """Why TensorBoard ``tb`` does not go with TensorFlow ``tf``, or empty where it does (or
    where it is not known): from 1.6 every TensorFlow release requires a TensorBoard of its
    own major (its setup.py). Within a major the ranges differ by release (2.7 declares
    ``~=2.6``, 2.10-2.16 ``<2.X+1``, 2.19 ``~=2.19.0``), and the matrix does not carry them,
    so a minor apart is not called a mismatch."""
    tb_key, tf_key = version_key(tb)[:2], version_key(tf)[:2]
    if tf_key < (1, 6) or len(tb_key) < 2 or len(tf_key) < 2:
        return ""
    if tb_key[0] != tf_key[0]:
        return f"TensorBoard {tb_key[0]}.x does not go with TensorFlow {tf_key[0]}.x"
    return ""
