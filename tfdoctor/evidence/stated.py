"""What a user states of the machine in words: the fields of an issue's form, a sentence
saying that TensorFlow does not use the GPU, and one saying that its start takes long.

TensorFlow's issue forms ask for the release, the platform, the Python and the CUDA versions
under headings (``### TensorFlow version`` then the answer, since 2022:
https://github.com/tensorflow/tensorflow/tree/master/.github/ISSUE_TEMPLATE), and its older
Markdown templates as list items (``- TensorFlow version (use command below): 2.3.0``,
``- OS Platform and Distribution (e.g., Linux Ubuntu 16.04): Windows 10``); Keras' and many
projects' templates copy them. A pasted thread often holds nothing else. What is read here is
*stated*: the user's words, kept with the line they came from; nothing is added to them.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Optional

from tfdoctor.evidence.packages import tf_release_at
from tfdoctor.records import Record, record

#: How much of a text is searched for the form's fields (they open an issue).
STATED_READ = 64 << 10


@record
class Stated(Record):
    """The machine as a user's form states it; each field None where it does not."""

    tf_version: Optional[str] = None
    python: Optional[str] = None
    #: ``windows``, ``macos`` or ``linux``.
    os: Optional[str] = None
    #: ``x86_64``, ``arm64`` (Apple silicon) or ``aarch64``, where the platform's words say.
    arch: Optional[str] = None
    #: The answer names WSL (Linux under Windows, not native Windows).
    wsl: bool = False
    #: The lines the fields were read from, as written (a form's answer under its heading).
    lines: tuple[str, ...] = ()
    #: The answer the system was read from.
    os_said: str = ""
    #: The CUDA release the form names (``- CUDA/cuDNN version: CUDA 9.0, cudnn 7.4.2``).
    cuda: Optional[str] = None
    #: The GPU model the form names (``- GPU model and memory: GeForce RTX 2080 Ti``).
    gpu: Optional[str] = None

    def platform(self) -> Optional[str]:
        """The wheel platform key the statement names (``macos-x86_64``), or None where it
        does not name both the system and, for macOS and Linux, the processor."""
        if self.os == "windows" and not self.wsl:
            return "windows-x86_64"
        if self.os == "macos" and self.arch in ("x86_64", "arm64"):
            return f"macos-{self.arch}"
        if self.os == "linux" and self.arch in ("x86_64", "aarch64"):
            return f"linux-{self.arch}"
        return None


# A field's label, in either template's words, and which field it fills.
_LABELS = (
    (re.compile(r"(?i)^tensorflow\s+version\b|^tf\s+version\b"), "tf_version"),
    (re.compile(r"(?i)^python\s+version\b"), "python"),
    (re.compile(r"(?i)^os\s+platform(?:\s+and\s+distribution)?\b|^operating\s+system\b"), "os"),
    (re.compile(r"(?i)^cuda(?:\s*/\s*cudnn)?\s+version\b"), "cuda"),
    (re.compile(r"(?i)^gpu\s+model\b"), "gpu"),
)
#: ``### Label`` (a form's heading, the answer on the next non-empty line) or ``- Label: answer``
#: / ``**Label**: answer`` (a template's item).
_HEADING = re.compile(r"^[ \t]*#{2,4}(?P<label>[^\n]*)$")
_ITEM = re.compile(
    r"^\s*(?:[-*]\s*)?\**(?P<label>[A-Za-z][^:\n]{2,80}?)\**\s*:\s*(?P<value>\S[^\n]*)$"
)
#: A line that names TensorFlow's release and nothing else (``Tensorflow 1.13``, ``TF: 2.4.1``,
#: ``tensorflow-gpu 1.15``): a sentence around it ("on TensorFlow 2.0 it works") is not one,
#: nor a row of `pip list` or `conda list`, which pad the name into a column (their rows are
#: read as installed packages, with the rest of the listing).
_BARE_RELEASE = re.compile(
    r"(?i)^[ \t]*(?:[-*][ \t]*)?(?:tensorflow|tf)(?:[-_ ]gpu)?(?: ?[:=] ?| )"
    r"v?(?P<release>[0-2]\.\d{1,2}(?:\.\d{1,2})?)[ \t]*$"
)
_VERSION = re.compile(r"(?<![\w.])v?(\d+\.\d+(?:\.\d+)?)(?![\w.])")
#: TensorFlow's version as the form states it, with a pre-release's or a nightly's suffix as
#: pip writes it (``2.16.0rc0``, ``2.15.0.dev20230816``: PEP 440's normal form, what `pip list`
#: shows); TensorFlow's own spelling of the suffix (``-dev20230816``) is read after it.
_TF_VERSION = re.compile(r"(?<![\w.])v?(\d+\.\d+(?:\.\d+)?(?:(?:a|b|rc)\d+|\.dev\d+)?)(?![\w.])")
_PYTHON = re.compile(r"(?<![\d.])(3\.\d{1,2}(?:\.\d+)?|2\.7(?:\.\d+)?)(?![\d.])")

_OS_WORDS = (
    (re.compile(r"(?i)\bwsl\d?\b|windows subsystem for linux"), "linux"),
    (re.compile(r"(?i)\bwin(?:dows)?\s*(?:7|8|10|11|server)?\b|\bwin(?:7|8|10|11)\b"), "windows"),
    (
        re.compile(
            r"(?i)\bmac\s*os\b|\bmacos\b|\bos\s*x\b|\bmac\b|\bdarwin\b|\bsonoma\b|\bventura\b|"
            r"\bmonterey\b|\bbig\s*sur\b|\bsequoia\b"
        ),
        "macos",
    ),
    (
        re.compile(
            r"(?i)\blinux\b|\bubuntu\b|\bdebian\b|\bcentos\b|\bfedora\b|\brhel\b|\bred\s*hat\b|"
            r"\barch\b|\bmanjaro\b|\bopensuse\b|\brocky\b|\balmalinux\b"
        ),
        "linux",
    ),
)
#: A system run inside another one.
_GUEST = re.compile(r"(?i)\bdocker\b|\bcontainer\b|\bvm\b|\bvirtual ?box\b|\bwsl\d?\b|\bpodman\b")
_ARCH_WORDS = (
    (re.compile(r"(?i)\bx86[_-]?64\b|\bamd64\b|\bx64\b|\bintel\b"), "x86_64"),
    (re.compile(r"(?i)\barm64\b|\bapple\s+silicon\b|\bm[1-4](?:\s*(?:pro|max|ultra))?\b"), "arm64"),
    (re.compile(r"(?i)\baarch64\b"), "aarch64"),
)


#: Where a sentence splits into clauses that may speak of different machines ("works on WSL2,
#: fails on my server"; "runs on Windows but not under WSL 2").
_CLAUSE_BREAK = re.compile(
    r"[.!?;,:()\n]|\b(?:but|while|whereas|although|though|however|yet|whilst)\b", re.IGNORECASE
)
#: A clause saying the program runs there: the machine it names is not the failing one.
_RUNS_WORDS = re.compile(
    r"\b(?:works?|worked|working|fine|ok(?:ay)?|succe(?:ed|eds|eded|ssfully|ss)|no (?:problems?|"
    r"issues?|errors?))\b",
    re.IGNORECASE,
)
#: A clause's words of failing, which its working words are then negated by ("does not work
#: on WSL2", "is not working under WSL 2", "fails on WSL2").
_FAILS_WORDS = re.compile(
    r"\b(?:not|never|no longer|cannot|fail(?:s|ed|ing|ure)?|error|crash(?:es|ed)?|broken?)\b|"
    r"n't\b",
    re.IGNORECASE,
)


def failing_run_names(pattern: re.Pattern[str], text: str) -> Optional[re.Match[str]]:
    """The first of ``pattern``'s matches in ``text`` (a user's words naming a system: WSL 2)
    whose clause does not say the program runs there: "works on WSL2, fails on my server"
    names WSL 2 as the machine that works, "fails on WSL2" and "I use WSL 2" as this one."""
    for found in pattern.finditer(text):
        starts = [m.end() for m in _CLAUSE_BREAK.finditer(text, 0, found.start())]
        start = starts[-1] if starts else 0
        after = _CLAUSE_BREAK.search(text, found.end())
        clause = text[start : after.start() if after is not None else len(text)]
        if _RUNS_WORDS.search(clause) is None or _FAILS_WORDS.search(clause) is not None:
            return found
    return None


def read_stated(text: str) -> Stated:
    """The fields of an issue's form (or template) in the head of ``text``, and the TensorFlow
    release a line of its own names."""
    head = text[:STATED_READ]
    lines = head.split("\n")
    # A line that is the release alone ("Tensorflow 1.13", "TF 2.4.1"): the user's statement
    # of which TensorFlow ran, as a thread without a form writes it. One release only, and a
    # form's own field is worth more.
    bare = {m.group("release"): m.group(0).strip() for m in map(_BARE_RELEASE.match, lines) if m}
    values: dict[str, tuple[str, str]] = {}
    if "version" in head.lower() or "platform" in head.lower():
        values = _form_fields(lines)
    if len(bare) == 1 and "tf_version" not in values:
        ((release, said),) = bare.items()
        values["tf_version"] = (release, said)
    if not values:
        return Stated()
    stated = _judge(values)
    if stated.os == "macos" and stated.arch is None:
        # The processor is often said in the text rather than in the field ("my Intel Mac"):
        # the user's own lines only (a log line may name Intel's MKL), Apple silicon first.
        words = "\n".join(x for x in head.split("\n") if not _PRINTED.search(x))
        arch = next(
            (name for pattern, name in (_ARCH_WORDS[1], _ARCH_WORDS[0]) if pattern.search(words)),
            None,
        )
        if arch is not None:
            stated = dataclasses.replace(stated, arch=arch)
    return stated


def _form_fields(lines: list[str]) -> dict[str, tuple[str, str]]:
    """Each field of a form or template in ``lines``: its answer and the line it is on."""
    values: dict[str, tuple[str, str]] = {}
    for i, line in enumerate(lines):
        heading = _HEADING.match(line)
        if heading is not None:
            field = _field(heading.group("label").strip())
            answer = next((x.strip() for x in lines[i + 1 : i + 4] if x.strip()), "")
            if field and answer and not answer.startswith("#"):
                values.setdefault(field, (answer, answer))
            continue
        item = _ITEM.match(line)
        if item is not None:
            field = _field(item.group("label"))
            if field:
                values.setdefault(field, (item.group("value").strip(), line.strip()))
    return values


def _field(label: str) -> Optional[str]:
    label = label.strip().strip("*").strip()
    return next((field for pattern, field in _LABELS if pattern.search(label)), None)


def _judge(values: dict[str, tuple[str, str]]) -> Stated:
    tf_version = python = os = arch = None
    wsl = False
    os_said = ""
    used: list[str] = []
    if "tf_version" in values:
        answer, line = values["tf_version"]
        # `python -c "import tensorflow as tf; print(tf.version.GIT_VERSION, tf.version.VERSION)"`
        # prints the git describe first: the release is the last plain version.
        # A nightly's or a release candidate's own spelling (2.15.0-dev20230816) keeps its
        # suffix, in pip's spelling: the build that ran is not the final release.
        found = [
            tf_release_at(v.group(1), answer, v.end())
            for v in _TF_VERSION.finditer(answer)
            if v.group(1).split(".")[0] in ("0", "1", "2")
        ]
        described = re.search(r"\bv\d+\.\d+\S*-g[0-9a-f]{6,}", answer) is not None
        if found and (described or len(set(found)) == 1):
            # One release, or git's description then the release: several releases named
            # ("2.16.1, also tried 1.15") say no single one.
            tf_version = found[-1]
            used.append(line)
    if "python" in values:
        answer, line = values["python"]
        found = _PYTHON.findall(answer)
        if found:
            python = found[0]
            used.append(line)
    if "os" in values:
        answer, line = values["os"]
        named = {name for pattern, name in _OS_WORDS if pattern.search(answer)}
        wsl = failing_run_names(_OS_WORDS[0][0], answer) is not None
        if "linux" in named and _GUEST.search(answer):
            named = {"linux"}  # Linux in a container or VM on another system
        os = next(iter(named)) if len(named) == 1 else None
        arch = next((name for pattern, name in _ARCH_WORDS if pattern.search(answer)), None)
        if os is not None:
            used.append(line)
            os_said = answer
    cuda = gpu = None
    if "cuda" in values:
        answer, line = values["cuda"]
        # "CUDA 9.0, cudnn 7.4.2", "cuda10.0": the first version after the word CUDA. Without
        # the word ("11.2 / 8.1"), the answer's only version, or the first of two where no
        # cuDNN release could be it (a major of 10 or more): "9.0 / 7.0" may be either order.
        after_word = _CUDA.search(answer)
        versions = _VERSION.findall(answer)
        bare = versions[0] if versions else None
        if bare is not None and len(versions) > 1 and int(bare.split(".")[0]) < 10:
            bare = None
        release = after_word.group(1) if after_word is not None else bare
        if release is not None and release.split(".")[0] in _CUDA_MAJORS:
            cuda = ".".join(release.split(".")[:2])
            used.append(line)
    if "gpu" in values:
        answer, line = values["gpu"]
        model = _GPU_MODEL.search(answer)
        if model is not None:
            gpu = model.group(0).strip()
            used.append(line)
    return Stated(tf_version, python, os, arch, wsl, tuple(used), os_said, cuda, gpu)


#: A CUDA release in a form's answer (``CUDA 9.0``, ``cuda10.1``, ``CUDA: 11.2``).
_CUDA = re.compile(r"(?i)\bcuda\s*:?\s*v?(\d{1,2}\.\d)(?![\d])")
#: CUDA's majors (7 to 13): another number (a cuDNN release, a driver) is not a CUDA release.
_CUDA_MAJORS = frozenset({"7", "8", "9", "10", "11", "12", "13"})
#: An NVIDIA GPU model in a form's answer, without the memory size that follows it.
_GPU_MODEL = re.compile(
    r"(?i)(?:nvidia\s+)?(?:geforce|quadro|tesla|titan|rtx|gtx)\b[\w \-]{0,30}?"
    r"(?=\s*(?:$|[,;(/]|\d+\s*gb|with\b))"
)


#: A sentence saying TensorFlow does not use, find or list the GPU, in a user's words.
_NO_GPU = re.compile(
    r"(?i)(?:\b(?:can'?t|cannot|not|isn'?t|doesn'?t|does not|don'?t|unable to|fails? to|won'?t|"
    r"never)\b[^.\n]{0,40}?\b(?:use|utili[sz]e|detect|find|see|recogni[sz]e|list|access|run on)\b"
    r"[^.\n]{0,25}?\bgpus?\b"
    r"|\bgpus?\b[^.\n]{0,30}?\b(?:is|are)\s+(?:not|never)\s+(?:detected|found|available|used|"
    r"recogni[sz]ed|listed|visible|being used|utili[sz]ed)\b"
    r"|\bno\s+gpus?\s+(?:is\s+|are\s+)?(?:detected|found|available|listed)\b"
    # The work landing on the CPU instead: "only uses the CPU", "trains on the CPU instead",
    # "CPU mode only".
    r"|\b(?:only|just)\s+(?:uses?|using|utili[sz]es?|(?:runs?|running|trains?|training)\s+on)"
    r"\s+(?:the\s+)?cpu\b"
    r"|\b(?:uses?|using|(?:runs?|running|trains?|training)\s+on)\s+(?:the\s+)?cpu\s+"
    r"(?:only|instead)\b"
    r"|\bcpu\s+mode\s+only\b|\bonly\s+(?:in\s+)?cpu\s+mode\b)"
)


#: A line a program printed (TensorFlow's `file.cc:123]` prefix, a logger's level), not the
#: user's words: TensorFlow's own "GPU will not be used" on a machine without one is no
#: complaint.
_PRINTED = re.compile(r"\.(?:cc|py|h):\d+\]|^\s*(?:\d{4}-\d\d-\d\d|[IWEF]\d{4} |[IWEF] \S+/)")


#: A line where not using the GPU is chosen or asked about, not a failure: "I don't want to
#: use the GPU", "CPU only", CUDA_VISIBLE_DEVICES=-1, a question.
_BY_CHOICE = re.compile(
    # "CPU only" as a build or a choice; not "runs on the CPU only", which is the complaint.
    r"(?i)\b(?:want|need|intend|prefer|wish)\b|(?<!on )(?<!on the )\bcpu[- ]only\b"
    r"|CUDA_VISIBLE_DEVICES\s*=\s*-1|\?\s*$|\?\s+\w"
)


def read_gpu_complaint(text: str) -> Optional[str]:
    """The first line of ``text`` (its head) in which the user says the GPU is not used or not
    found; lines a program printed are not the user's."""
    # Every form names the GPU or the CPU within one line: only those lines reach the pattern
    # (a log's head is mostly other lines, and the case-blind pattern is the slow part).
    for raw in text[:STATED_READ].split("\n"):
        folded = raw.lower()
        if "gpu" not in folded and "cpu" not in folded:
            continue
        if _NO_GPU.search(raw) is None:
            continue
        line = raw.strip()
        if not _PRINTED.search(line) and not _BY_CHOICE.search(line):
            return line
    return None


#: A start in a user's words: the program's start-up or initialisation, a first run, call or
#: inference, a warm-up, a TensorFlow Session (the API's word) or a model created or loaded. Not
#: a first epoch or step: tracing and cuDNN's autotuning make those slow on every GPU. The bare
#: verb "start" is a start only where the time is spent on it ("takes 5 minutes to start",
#: "before it starts", "every start", starting the program): "training starts and each epoch
#: takes 5 minutes" or "the job starts, then after 2 hours ..." times the work, not the start.
_START = re.compile(
    r"(?i)\b(?:start[- ]?up|start(?:ing)?[- ]time|to\s+start|(?:each|every)\s+start"
    r"|before\s+(?:\w+\s+){0,3}?start(?:s|ed)?"
    r"|start(?:s|ing)?\s+(?:the\s+|my\s+|our\s+)?(?:program|script|app|application|process)"
    r"|launch(?:es|ing)?"
    r"|initiali[sz](?:e|es|ed|ing|ation)"
    r"|first[- ](?:time|run|call|inference|prediction|fit)"
    r"|warm[- ]?up|(?:creat(?:e|es|ing)|load(?:s|ing)?)\s+(?:the\s+|a\s+)?(?:session|model|graph)"
    r"|session\s+creation)\b"
)
#: Long, in a user's words: "very long", "a long time", "takes forever", a delay, a duration
#: counted in minutes or hours (seconds are weighed by :data:`_SECONDS`).
_LONG = re.compile(
    r"(?i)\b(?:(?:very|extremely|really|so|too)\s+(?:long|slow)|long\s+(?:time|delay|wait)"
    r"|takes?\s+(?:forever|ages)|delays?|\d+(?:\s*[-\u2013]\s*\d+)?\s*(?:minutes?|mins?|hours?)"
    r"|(?:several|many|a\s+few|few)\s+(?:minutes|hours))\b"
)
#: A duration in seconds: long only from half a minute (a start of a few seconds is normal).
_SECONDS = re.compile(r"(?i)\b(\d+)(?:\s*[-\u2013]\s*(\d+))?\s*(?:seconds?|secs?|s)\b")
#: Where a text's sentences end (a sentence is searched for both words, not a paragraph).
_SENTENCE_END = re.compile(r"[.!?](?:\s+|$)")


def read_slow_start(text: str) -> Optional[str]:
    """The first sentence of ``text`` (its head) in which the user says the program's start
    takes long (minutes, half a minute or more, "very long", a delay); lines a program printed
    are not the user's."""
    for raw in text[:STATED_READ].split("\n"):
        line = raw.strip()
        if not line or _PRINTED.search(line) or _START.search(line) is None:
            continue
        for sentence in _SENTENCE_END.split(line):
            if _START.search(sentence) is None:
                continue
            if _LONG.search(sentence) is not None or any(
                int(m.group(2) or m.group(1)) >= 30 for m in _SECONDS.finditer(sentence)
            ):
                return sentence.strip()
    return None
