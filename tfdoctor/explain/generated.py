"""Exceptions protobuf's runtime raises while a generated ``_pb2`` module loads.

A ``_pb2.py`` file is code that protoc generated for one protobuf runtime: it calls that
runtime (``_descriptor.FieldDescriptor(...)``, ``_message.Message``) as that release had it.
When the innermost frames are protobuf's own (``google/protobuf/``) and a frame above them is
a generated ``_pb2`` module, the exception, whatever its words (``Descriptors cannot be created
directly``, ``module 'google._upb._message' has no attribute 'Message'``), is the runtime and
the generated code disagreeing: protobuf outside the range the code's package declares
(protobuf's notes on its 4.21 runtime: https://protobuf.dev/news/2022-05-06/#python-updates).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.traceback import Frame, Traceback, origin_of
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.modules import distribution_of

#: protobuf's wheel installs the ``google.protobuf`` namespace package: its files lie there.
_RUNTIME = "/google/protobuf/"
#: Words only a runtime newer than the generated code says: ``google._upb`` is the backend
#: protobuf 4.21 introduced, and "Descriptors cannot be created directly" is 4.21's refusal of
#: code from protoc before 3.19 (https://protobuf.dev/news/2022-05-06/#python-updates).
_NEWER_RUNTIME = ("_upb", "Descriptors cannot")
#: The descriptor pool refusing a second copy of one .proto file: two packages (or two copies
#: of one) define it, which no protobuf release changes.
_DUPLICATE = "duplicate file name"


def _in_runtime(frame: Frame) -> bool:
    return _RUNTIME in frame.path.replace("\\", "/")


def _generated(frame: Frame) -> bool:
    return frame.path.replace("\\", "/").rsplit("/", 1)[-1].endswith("_pb2.py")


def generated_code_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """One finding when an exception is raised in protobuf's runtime below a ``_pb2`` frame."""
    for tb in tracebacks:
        found = _runtime_refusal(tb, m)
        if found is not None:
            return [found]
    return []


#: A statement importing a generated module (``from tensorboard.compat.proto.event_pb2 import
#: SessionLog``), where a short traceback (pytest's) leaves out the frames below it.
_IMPORTS_GENERATED = re.compile(
    r"^\s*(?:from\s+(?P<module>[\w.]*_pb2)\s+import\b|import\s+(?P<module2>[\w.]*_pb2)\b)"
)
#: The upb runtime's own module, named in its refusals of code it was not built for.
_UPB = "google._upb._message"


def _runtime_refusal(tb: Traceback, m: Machine) -> Optional[Finding]:
    frames = list(tb.frames)
    if not frames or _DUPLICATE in tb.message:
        return None
    if not _in_runtime(frames[-1]):
        # The frames stop at the import of a generated module, and the runtime's own module
        # words the refusal: the same disagreement, its inner frames cut from the paste.
        imported = _IMPORTS_GENERATED.match(frames[-1].code or "")
        if _UPB not in tb.message or imported is None:
            return None
        module = imported.group("module") or imported.group("module2")
        owner = distribution_of(module) or "the importing package"
        name = f"{module.rsplit('.', 1)[-1]}.py"
    else:
        # The generated module that called the runtime: the innermost frame above its own.
        caller = next((f for f in reversed(frames) if not _in_runtime(f)), None)
        if caller is None or not _generated(caller):
            return None
        owner = origin_of(caller.path).dist or "the calling package"
        name = caller.path.replace("\\", "/").rsplit("/", 1)[-1]
    return causes.finding(
        "explain.protobuf-incompatible",
        Severity.ERROR,
        causes.software.PROTOBUF_INCOMPATIBLE,
        f"protobuf's runtime refused {owner}'s generated code ({name})",
        f"{tb.where}: {tb.type}: {tb.message}\nThe exception is raised in protobuf's runtime "
        f"(google/protobuf/) while {owner}'s generated `_pb2` module loads: the installed "
        "protobuf is not the runtime that code was generated for.",
        _fix(m, newer=any(word in tb.message for word in _NEWER_RUNTIME)),
    )


def _fix(m: Machine, newer: bool) -> Fix:
    """TensorFlow's declared range; without one, away from a runtime the words show is newer,
    else no direction is guessed (an older runtime refuses newer code in other words)."""
    if newer:
        return causes.software.protobuf_fix(m)
    return causes.common.range_fix(m, "protobuf") or Fix(
        "Install the protobuf release the package that owns the generated code declares "
        "(`pip check` names the range each installed package wants).",
        ("pip check",),
    )
