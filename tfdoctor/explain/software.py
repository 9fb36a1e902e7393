"""Builders for the software beside TensorFlow: companions, Keras, NumPy, protobuf, ops."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Callable, Optional

from tfdoctor import causes
from tfdoctor.compat import first_keras3_line
from tfdoctor.evidence.frozen import freezer_of
from tfdoctor.evidence.packages import plugin_dist
from tfdoctor.evidence.traceback import (
    Traceback,
    file_owner,
    installed_namespaced,
    installed_package,
    loose_frames,
    origin_of,
)
from tfdoctor.explain.common import (
    Builder,
    _cite_head,
    _rule_named,
    _without,
    cite,
    group,
    hits_by,
    warned_of,
)
from tfdoctor.explain.native import (
    _built_on_tensorflow,
    _library_owner,
    _own_op_library,
    _package_loader,
)
from tfdoctor.explain.packages import internal_caller, internal_caller_fix, tf_keras_generation
from tfdoctor.explain.revealed import _BAZEL_TF, _SERVING_WORDS, Revealed
from tfdoctor.explain.scanning import Evidence, Hits
from tfdoctor.explain.syntax import (
    BUILTIN_GENERICS_RELEASE,
    UNION_RELEASE,
    builtin_generic_before_release,
    compile_error_at_newer_syntax,
    compile_error_at_older_syntax,
    union_before_release,
)
from tfdoctor.facts import TF_DISTRIBUTIONS, normalize_name
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import version_key
from tfdoctor.modules import distribution_of, modules
from tfdoctor.signatures import (
    BAZEL_WORDS,
    BENIGN,
    DEEPMD_BUILD,
    DESCRIPTOR_CLASH,
    GENCODE_CHECK,
    MACOS_WORDS,
    SETUPTOOLS_WORDS,
    TFJS_WORDS,
    TFLITE_WORDS,
    WINDOWS_WORDS,
)


def _protobuf(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    required, loaded = group(hits, "required"), group(hits, "loaded")
    if any(DESCRIPTOR_CLASH in h.signature.tags for h in hits):
        return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_clash_fix(
            m, group(hits, "proto"), r.imported_before
        )
    if any(GENCODE_CHECK in h.signature.tags for h in hits):
        return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_gencode_fix(
            m, required, loaded, group(hits, "proto")
        )
    if required and loaded and any(h.signature.id == "protobuf-cpp-headers-older" for h in hits):
        return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_runtime_newer_fix(
            m, required, loaded
        )
    if required and loaded:
        return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_runtime_fix(
            required, loaded
        )
    if any(h.signature.id == "protobuf-container-append" for h in hits):
        method = group(hits, "attr") or "append"
        upgrade = causes.software.protobuf_fix(m, too_old=True, missing=method)
        if r.kernel_install:
            # An install ran inside the notebook's kernel: the protobuf the kernel imported
            # before it stays loaded (api_implementation picks it once, at import), whatever
            # release the install put on disk. An install that left the old protobuf on disk
            # is not mended by the restart: the upgrade stays named, after it.
            restart = causes.notebook.restart_fix(
                causes.notebook.NOTEBOOK_RESTART_MENUS, "protobuf, and the code that uses it,"
            )
            return causes.notebook.KERNEL_RESTART_NEEDED, Fix(
                f"{restart.text} If the error stays after it, the protobuf on disk is old too: "
                + upgrade.text,
                restart.commands,
            )
        return causes.software.PROTOBUF_INCOMPATIBLE, upgrade
    if any(h.signature.id == "protobuf-get-prototype" for h in hits):
        # A method protobuf 6.30 removed (causes.software.PROTOBUF_REMOVED): newer, not older.
        return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_removed_fix(
            m, "GetPrototype"
        )
    # What the generated code asked of a runtime older than it: the name decides the floor.
    missing = next(
        (_PROTOBUF_TOO_OLD[h.signature.id] for h in hits if h.signature.id in _PROTOBUF_TOO_OLD),
        None,
    )
    if missing is not None:
        return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_fix(
            m, too_old=True, missing=missing
        )
    return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_fix(m)


#: The signatures of protobuf runtimes older than the generated code, and the name each says
#: the runtime lacks (causes.software.PROTOBUF_GENCODE_MODULES gives its first release).
_PROTOBUF_TOO_OLD: dict[str, str] = {
    "protobuf-builder-missing": "builder",
    "protobuf-serialized-options": "serialized_options",
    "protobuf-descriptor-syntax": "syntax",
}


def _keras3(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "keras2-op-layer-under-keras3" for h in hits):
        # Only Keras 3 lacks Keras 2's TFOpLambda: the file is Keras 2's whatever else the
        # log shows, so tf-keras loads it.
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras2_model_fix(m)
    if all(h.signature.id == "keras3-keras-path-not-zip" for h in hits):
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras_path_not_zip_fix(m)
    if all(h.signature.id == "keras3-model-dir-without-weights" for h in hits):
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras3_weights_missing_fix(m)
    if all(h.signature.id == "keras3-loss-scale-arguments" for h in hits):
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras3_loss_scale_fix(m)
    if all(h.signature.id == "keras3-positional-non-tensor" for h in hits):
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras3_positional_fix(m)
    if all(h.signature.id == "keras2-file-variables-under-keras3" for h in hits):
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras2_weights_fix(m)
    if all(h.signature.id == "keras3-nested-inputs" for h in hits):
        # Keras 3.4 takes nested inputs again: the code runs on a newer Keras 3 as it is.
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras3_nested_inputs_fix(m)
    if any(
        h.signature.id in ("model-class-not-located", "model-function-not-located") for h in hits
    ):
        if tf_keras_generation(m)[0] == 2:
            # Keras 2 loading: the file is Keras 3's.
            return causes.software.MODEL_FROM_NEWER_KERAS, causes.software.keras3_model_fix(m)
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras2_model_fix(m)
    named = _rule_named(m, hits)
    if named is not None and named[0] == causes.code.KERAS3_BEHAVIOUR_CHANGE:
        # The rule's words; the legacy-Keras commands of the log's own TensorFlow, where the
        # rule keeps Keras 2 as a way out (a rule without legacy_keras gives no commands).
        legacy = causes.code.keras3_fix(m).commands if named[1].commands else ()
        return named[0], Fix(named[1].text, legacy)
    return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras3_fix(m)


def _keras3_model(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    cause = causes.software.KERAS3_MODEL_UNDER_KERAS2
    if all(h.signature.id == "keras3-file-variables-under-keras2" for h in hits):
        # The variable names say which Keras loads, not which wrote the file.
        return cause, causes.software.keras3_weights_fix(m)
    return cause, causes.software.keras3_model_fix(m)


def _tf_too_old(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """The installed TensorFlow older than the code: what it lacks, by the signature's words."""
    if any(h.signature.id == "variable-scope-early-signature" for h in hits):
        return causes.code.TF_TOO_OLD_FOR_CODE, causes.code.variable_scope_fix(m)
    if any(h.signature.id == "dimension-list-before-int-conversion" for h in hits):
        return causes.code.TF_TOO_OLD_FOR_CODE, causes.code.dimension_list_fix(m)
    return causes.code.TF_TOO_OLD_FOR_CODE, causes.code.tile_rank_fix(m, group(hits, "rank") or "")


def _api_removed(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    named = _rule_named(m, hits)
    if named is not None:
        return named
    return causes.code.API_REMOVED, Fix(
        "Port the uses the installed TensorFlow lacks: `tfdoctor scan` lists each with its "
        "replacement.",
        ("tfdoctor scan .",),
    )


def _tf_module_missing(evidence: Evidence) -> bool:
    """Whether a traceback of ``evidence`` says Python found no top-level ``tensorflow``."""
    return any(
        (missing := tb.missing_module) is not None
        and missing.lone_top_level
        and missing.name == "tensorflow"
        for tb in evidence.tracebacks
    )


def _unrecognised_distribution_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    evidence: Evidence,
    machine: Machine,
) -> Optional[Finding]:
    """Transformers' placeholders saying TensorFlow is absent where the log lists no package:
    its release looks TensorFlow up by a list of distribution names (src/transformers/utils/
    import_utils.py, ``candidates``), so the words are the same for a TensorFlow not
    installed in the Python that ran (the reading, first) and one installed under a name that
    list lacks, the other candidate, a warning with its own fix (pip's list tells them apart).
    A listing shown settles it (:func:`_unrecognised_distribution`)."""
    hits = hits_by(
        by_cause,
        causes.software.TF_NOT_INSTALLED,
        "transformers-requires-tensorflow",
        "transformers-tf-classes-missing",
    )
    cause = causes.software.TF_DISTRIBUTION_UNRECOGNISED
    if (
        not hits
        or evidence.listed
        or f"explain.{cause}" in findings
        or not warned_of(findings, causes.software.TF_NOT_INSTALLED)
        # Python found no module 'tensorflow', which every distribution installs: none is
        # there under any name. A TensorFlow 1.x shown is refused for its version.
        or _tf_module_missing(evidence)
        or (machine.tf is not None and version_key(machine.tf.version)[:1] < (2,))
    ):
        return None
    return causes.other_candidate(
        cause,
        "TensorFlow installed under a name Transformers does not look for",
        cite(hits) + "\nTransformers decides whether TensorFlow is there by its "
        "distribution's name; the log lists no package, so a TensorFlow 2 installed as "
        "another distribution (a nightly, a vendor's build) is not ruled out.",
        causes.software.unrecognised_distribution_fix(machine, "transformers", None),
    )


def _graph_code(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "keras-tf1-session-under-tf2" for h in hits):
        # Multi-backend Keras' own refusal: its session is what the code asked for.
        return causes.code.API_MOVED_TO_COMPAT_V1, causes.software.keras_session_fix(
            m, group(hits, "symbol")
        )
    if m.tf is not None and version_key(m.tf.version)[:1] < (2,):
        # TensorFlow 1 shown: eager execution is the program's choice, not the release's.
        return causes.code.API_MOVED_TO_COMPAT_V1, causes.software.graph_code_fix("", m.tf.version)
    # scan's words for the API the message names, after the step every such API needs.
    api = group(hits, "api")
    port = ""
    if api and m.matrix is not None:
        from tfdoctor.scan.knowledge import ApiKnowledge  # noqa: PLC0415 - loads scan's rules

        verdict = ApiKnowledge(m.matrix).name(api)
        port = verdict.fix.text if verdict is not None else ""
    return causes.code.API_MOVED_TO_COMPAT_V1, causes.software.graph_code_fix(port)


#: The dependency each signature of ``dependency-out-of-range`` reads, as a pin to fall back to
#: where TensorFlow's declared range does not already exclude the installed release, and why.
_DEPENDENCY_PINS: dict[str, tuple[str, str, str]] = {
    "wrapt-dictwrapper": (
        "wrapt",
        "wrapt<1.15",
        "Install a wrapt before 1.15, which this TensorFlow's tracked objects work with (or "
        "upgrade TensorFlow to 2.13 or later).",
    ),
    "six-newbase-metaclass": (
        "six",
        "six>=1.12.0",
        "Install six 1.12 or later, inside every range TensorFlow declares (six>=1.10.0 in "
        "1.x, six>=1.12.0 in later releases): an old six (1.4.1) builds with_metaclass's "
        "base as a class named NewBase that TensorFlow's metaclasses do not expect. If pip "
        "already lists a newer six, an older copy is imported first (macOS's system Python "
        'ships six 1.4.1 in its Extras directory): `python -c "import six; '
        'print(six.__version__, six.__file__)"` shows which file; run TensorFlow from a '
        "virtual environment, whose six comes first.",
    ),
    "bfloat16-numpy-too-old": (
        "numpy",
        "numpy>=1.16.0,<2.0",
        "Install NumPy 1.16 or later (before 2.0), the NumPy this TensorFlow was built against.",
    ),
    # The extension's C code imports numpy.core._multiarray_umath, which NumPy has from 1.16
    # (numpy/core/code_generators/generate_ufunc_api.py of v1.16.0): an older NumPy is below
    # the build's; a TensorFlow built so declares no NumPy 2 either.
    "numpy-multiarray-umath-failed": (
        "numpy",
        "numpy>=1.16.0,<2.0",
        "Install NumPy 1.16 or later (before 2.0): the extension was built against NumPy "
        "1.16 or later, whose numpy.core._multiarray_umath the installed NumPy lacks.",
    ),
    "gast-node-arguments": (
        "gast",
        "",
        "Install the gast release the installed TensorFlow pins (`pip show tensorflow` lists "
        "it: TensorFlow 1.15 to 2.1 gast==0.2.2, 2.2 to 2.4 gast==0.3.3, 2.5 and 2.6 "
        "gast==0.4.0): AutoGraph's code builds syntax nodes for that release's fields.",
    ),
    "gast-autograph-unconverted": (
        "gast",
        "",
        "Install the gast release the installed TensorFlow pins (`pip show tensorflow` lists "
        "it: TensorFlow 1.15 to 2.1 gast==0.2.2, 2.2 to 2.4 gast==0.3.3, 2.5 and 2.6 "
        "gast==0.4.0): AutoGraph converts functions by building syntax nodes for that "
        "release, and runs them unconverted under another.",
    ),
    "flatbuffers-endvector-old": (
        "flatbuffers",
        "flatbuffers>=2.0",
        "Install the flatbuffers release the installed TensorFlow declares (`pip show "
        "tensorflow` lists the range): the TFLite converter code calls Builder.EndVector() "
        "without the length flatbuffers 1.x requires, so it was written for flatbuffers 2.",
    ),
    "flatbuffers-endvector-new": (
        "flatbuffers",
        "flatbuffers<2",
        "Install the flatbuffers release the installed TensorFlow declares (`pip show "
        "tensorflow` lists the range): the TFLite converter code passes Builder.EndVector() "
        "the length flatbuffers 2 no longer takes, so it was written for flatbuffers 1; or "
        "upgrade TensorFlow (and the converting package) to releases built for flatbuffers 2.",
    ),
    # onnx.helper.make_attribute refuses an untyped empty list from 1.15 on (onnx/helper.py
    # of v1.15.0; v1.14.1 took it): the code that built the node was written for an older onnx.
    # tf2onnx passes the type from 1.16.0 (onnx/tensorflow-onnx#2279, "Enable support to ONNX
    # 1.15": tf2onnx/utils.py's make_onnx_node_with_attr).
    "onnx-attribute-empty-untyped": (
        "onnx",
        "onnx<1.15",
        "Install onnx before 1.15 (1.14.1 is the last), the onnx the code that builds the ONNX "
        "nodes was written for, or upgrade that code (the converter: tf2onnx 1.16 or later for "
        "a TensorFlow model) to a release made for the installed onnx: from 1.15, onnx.helper."
        "make_attribute refuses an empty list unless the caller passes the attribute's type "
        "(attr_type), which your own code calling it can pass.",
    ),
    "arrow-extension-undefined-symbol": (
        "pyarrow",
        "",
        "Install the pyarrow release the extension's package declares (`pip check` names it: "
        '"tfx-bsl 1.14.0 requires pyarrow<11,>=10, but you have pyarrow 14.0.1"): its '
        "compiled library was built against that pyarrow's Arrow C++ library, whose symbols "
        "change between pyarrow's major releases.",
    ),
    "numpy-symbolic-tensor": (
        "numpy",
        "numpy<1.20",
        "Install a NumPy this TensorFlow supports (before 1.20).",
    ),
    # urllib3 2 requires an ssl module built with OpenSSL 1.1.1 or later (2.0.0 to 2.0.2 refuse
    # LibreSSL too); 1.26 supports both.
    "urllib3-v2-old-openssl": (
        "urllib3",
        "urllib3<2",
        "Install urllib3 1.26 (before 2): urllib3 2 refuses this Python's ssl module, built with "
        "the library the log names (an OpenSSL older than 1.1.1, or LibreSSL, which urllib3 "
        "2.0.0 to 2.0.2 refuse and later releases only warn of). A Python built against "
        "OpenSSL 1.1.1 or later (a newer conda or system Python) lets urllib3 2 run too.",
    ),
}


def _dependency(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # Each signature of this cause names its distribution by what it reads (the table); h5py 3
    # under a loader written for h5py 2 has the catalogue's own builder.
    ids = [h.signature.id for h in hits]
    if "h5py-str-decode" in ids:
        return causes.software.DEPENDENCY_OUT_OF_RANGE, causes.software.h5py_bytes_fix(m)
    if "numpy-core-module-missing" in ids:
        return causes.software.DEPENDENCY_OUT_OF_RANGE, causes.software.numpy_core_module_fix(m)
    if "openvino-mo-dependency-unsatisfied" in ids:
        # The Model Optimizer's own check names the package, the installed release and the
        # range it requires.
        return causes.software.DEPENDENCY_OUT_OF_RANGE, causes.software.mo_dependency_fix(
            m, group(hits, "dist"), group(hits, "required"), group(hits, "installed")
        )
    if set(ids) <= {"numpy-multiarray-failed", "numpy-umath-failed"}:
        # The frames name whose extension NumPy refused, where it is not TensorFlow's own.
        package = r.numpy_extension
        return causes.software.DEPENDENCY_OUT_OF_RANGE, causes.software.numpy_c_api_fix(
            m, package.module if package else "", package.dist if package else ""
        )
    key = next((i for i in ids if i in _DEPENDENCY_PINS), "numpy-symbolic-tensor")
    dist, fallback, text = _DEPENDENCY_PINS[key]
    if key.startswith(("flatbuffers-", "gast-", "arrow-")):
        # Which side moved depends on the TensorFlow and the converting package: without
        # TensorFlow's declared range, no pin is offered, only what shows the ranges.
        fix = causes.common.range_fix(m, dist) or Fix(
            text, (*m.pip(f"show tensorflow {dist}"), *m.pip("check"))
        )
        return causes.software.DEPENDENCY_OUT_OF_RANGE, fix
    return causes.software.DEPENDENCY_OUT_OF_RANGE, causes.common.declared_range_fix(
        m, dist, fallback, text
    )


def _glob_extra(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    return causes.platform.SHELL_GLOB_EXTRA, causes.platform.quoted_extra_fix(
        m, group(hits, "dist")
    )


def _dependency_missing(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "tf-keras-package-unimportable" for h in hits):
        return causes.software.DEPENDENCY_MISSING, causes.software.keras_package_fix(m)
    # Else Keras asking for h5py (h5py-needed).
    return causes.software.DEPENDENCY_MISSING, causes.common.install_fix(
        m, "Install h5py, which Keras needs to read and write HDF5 (.h5) files.", "h5py"
    )


def _newer_model(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if all(h.signature.id == "keras-zip-read-as-savedmodel" for h in hits):
        return (
            causes.software.MODEL_FROM_NEWER_KERAS,
            causes.software.newer_keras_model_fix("keras-zip", os_name=m.os),
        )
    if any(h.signature.id == "keras-initializer-class-unknown" for h in hits):
        # An initializer class tf.keras writes, which the loader (older Keras, or
        # TensorFlow.js where the log shows it) does not define.
        return causes.software.MODEL_FROM_NEWER_KERAS, causes.software.initializer_class_fix(
            group(hits, "keras_class"), r.tfjs
        )
    layer = group(hits, "symbol")
    if r.tfjs and layer and any(h.signature.id == "model-unknown-functional" for h in hits):
        # TensorFlow.js' layers loader (its "This may be due to one of the following reasons"
        # or its frames): no Keras release loads the model there.
        renamed = causes.software.TF_KERAS_MISNAMED_CLASSES.get(layer)
        if renamed is not None:
            # No TensorFlow.js has the class: the converter renames it.
            return (
                causes.software.MODEL_FROM_NEWER_KERAS,
                causes.software.tfjs_converter_rename_fix(layer, renamed),
            )
        return causes.software.MODEL_FROM_NEWER_KERAS, causes.software.tfjs_unknown_class_fix(
            f"`{layer}`", _TFJS_CLASS_WRITERS.get(layer, "")
        )
    misnamed = causes.software.TF_KERAS_MISNAMED_CLASSES.get(layer or "")
    if layer and misnamed is not None:
        # Not a newer Keras's class: tf.keras's own misnomer, which tf.keras maps back.
        return (
            causes.software.MODEL_FROM_NEWER_KERAS,
            causes.software.tf_keras_misnamed_class_fix(layer, misnamed),
        )
    return causes.software.MODEL_FROM_NEWER_KERAS, causes.software.newer_keras_model_fix(
        "h5", layer
    )


#: Which tf.keras writes a class TensorFlow.js' layers API may lack: Functional, a newer
#: tf.keras's class for a functional model (tfjs learned it in PR 3863). TensorFlow 1.13's
#: BatchNormalizationV1 no TensorFlow.js has: causes.software.TF_KERAS_MISNAMED_CLASSES.
_TFJS_CLASS_WRITERS = {
    "Functional": " Newer tf.keras releases write it for a functional model.",
}


def _graph_older(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    return causes.software.GRAPH_FROM_OLDER_TENSORFLOW, causes.software.graph_from_older_tf_fix(
        group(hits, "attr")
    )


def _keras(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # A library built on the standalone keras, where the frames show one: named in the fix.
    library = (r.keras_importer.module, r.keras_importer.dist) if r.keras_importer else ()
    if any(h.signature.id == "keras-internal-api-missing" for h in hits):
        # Whichever of TensorFlow's step-locked companions the machine shows off its line.
        user = internal_caller(m)[0]
        if user == "keras":
            return causes.software.KERAS_VERSION, causes.software.keras_match_fix(m, *library)
        return internal_caller_fix(m, user)
    if any(h.signature.id == "keras-api-v2-missing" for h in hits) and m.keras3_is_tf_keras:
        # A TensorFlow whose tf.keras is Keras 3 never loads keras.api._v2: the code asked
        # for Keras 2's tree itself.
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras2_layout_fix(
            m, "keras.api._v2"
        )
    if any(h.signature.id == "keras-applications-submodules-hook" for h in hits):
        return causes.software.KERAS_VERSION, causes.software.keras_submodules_fix(m)
    if all(h.signature.id == "keras-history-missing" for h in hits):
        return causes.software.KERAS_VERSION, causes.software.keras_history_fix(m)
    if any(h.signature.id == "keras-multi-gpu-device-names" for h in hits):
        return causes.software.KERAS_VERSION, causes.software.keras_device_names_fix(m)
    if any(h.signature.id == "keras-optimizer-registered-twice" for h in hits):
        # Registered twice in one process: two copies of Keras, not one of the wrong release
        # only, so every copy goes before TensorFlow's own Keras comes back.
        return causes.software.KERAS_VERSION, causes.software.keras_copies_fix(m)
    return causes.software.KERAS_VERSION, causes.software.keras_match_fix(m, *library)


def _import_crash(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if r.rocm_loaded:
        # A native crash once ROCm's libraries are loaded: tensorflow-rocm is built for one
        # ROCm release, and on another its calls into HIP's runtime break (a stack smashed, a
        # segmentation fault) instead of failing to load (AMD's support matrix).
        return causes.gpu.ROCM_VERSION_MISMATCH, causes.gpu.rocm_match_fix(m, None)
    if r.imported_before:
        # The command that crashed imports other packages first: their native libraries,
        # loaded ahead of TensorFlow's, are the first suspects (one cause, one fix).
        return causes.runtime.IMPORT_ORDER_CONFLICT, causes.runtime.import_order_fix(
            r.imported_before, crashed=True
        )
    return causes.software.IMPORT_CRASH, causes.software.import_crash_fix(m)


def import_crash_candidate(
    findings: Mapping[str, Finding], m: Machine, r: Revealed
) -> Optional[Finding]:
    """A crash of a command that imports other packages before TensorFlow, read as their order
    (:func:`_import_crash`): the release of those packages crashing beside TensorFlow's, in
    whatever order, is the other candidate."""
    order = findings.get(f"explain.{causes.runtime.IMPORT_ORDER_CONFLICT}")
    if order is None or not r.imported_before or order.severity is not Severity.ERROR:
        return None
    if f"explain.{causes.software.IMPORT_CRASH}" in findings:
        return None
    return causes.other_candidate(
        causes.software.IMPORT_CRASH,
        f"the release of {', '.join(r.imported_before)} installed crashes beside TensorFlow",
        f"{order.detail}\nA package's release can crash in one process with TensorFlow's "
        "libraries whichever is imported first; the fault handler's run of each order tells.",
        causes.software.import_crash_fix(m, r.imported_before),
    )


def _addon_tools(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    bazel = [h for h in hits if BAZEL_WORDS in h.signature.tags]
    if bazel and len(bazel) == len(hits):
        # Bazel's C/C++ autoconfiguration: the Visual C++ wrapper's words are Windows'.
        windows = r.os == "windows" or any(WINDOWS_WORDS in h.signature.tags for h in bazel)
        return (
            causes.platform.NATIVE_ADDON_BUILD_TOOLS_MISSING,
            causes.platform.bazel_toolchain_fix(
                "windows" if windows else r.os, group(bazel, "compiler") or ""
            ),
        )
    extension = [h for h in hits if SETUPTOOLS_WORDS in h.signature.tags]
    if extension and len(extension) == len(hits):
        # setuptools' words: MSVC is Windows', xcrun macOS's; a compiler it could not run.
        tags = {t for h in extension for t in h.signature.tags}
        shown = (
            "windows"
            if WINDOWS_WORDS in tags
            else "macos"
            if MACOS_WORDS in tags
            else r.os or "linux"
        )
        return (
            causes.platform.NATIVE_ADDON_BUILD_TOOLS_MISSING,
            causes.platform.extension_toolchain_fix(shown, group(extension, "compiler") or ""),
        )
    # node-gyp's words name what it missed: Python, Visual Studio, Xcode (macOS's), make.
    said = " ".join(line for h in hits if h not in extension for _, line in h.citations)
    toolchain = (
        "Python"
        if "Python" in said
        else "VS"
        if "Visual Studio" in said or "find VS" in said
        else ""
    )
    system = (
        "macos"
        if "Xcode" in said
        else r.os or "linux"
        if "not found: make" in said  # make is what node-gyp runs on Linux (and BSDs)
        else r.os
    )
    xcodebuild = any(h.signature.id == "xcodebuild-needs-xcode" for h in hits)
    return causes.platform.NATIVE_ADDON_BUILD_TOOLS_MISSING, causes.platform.addon_toolchain_fix(
        toolchain, system, clt_active=xcodebuild
    )


#: The readings of a C API binding whose TensorFlow C library lacks a name it uses: at
#: compile (cgo), link, or load time (glibc's and Windows' loaders).
_C_API_MISSING = frozenset(
    {
        "c-api-name-unknown",
        "c-api-symbol-undefined",
        "c-api-symbol-lookup-error",
        "c-api-procedure-entry-point-missing",
    }
)


#: DALI's TensorFlow plugin refusing every library it has, or the loader refusing one of them.
_DALI_PLUGIN = frozenset({"dali-tf-plugin-unmatched", "dali-tf-plugin-library-refused"})


def _companion(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if all(h.signature.id == "filesystem-scheme-unregistered" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.filesystem_plugin_fix(
            m, group(hits, "scheme")
        )
    if any(h.signature.id == "edgetpu-delegate-prepare" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.edgetpu_runtime_fix(m)
    if any(h.signature.id == "edgetpu-model-needs-newer-runtime" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.edgetpu_model_runtime_fix(
            group(hits, "required"), group(hits, "loaded")
        )
    if any(h.signature.id == "keras-retinanet-tf-version-check" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.library_tf_check_fix(
            m, "keras-retinanet", group(hits, "required"), group(hits, "excluded")
        )
    if any(h.signature.id == "tfjs-unsupported-ops" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.converter_older_fix(
            m, "tensorflowjs"
        )
    if any(h.signature.id == "edward-tf-unsupported" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.edward_tf_fix(m)
    if any(h.signature.id == "grappler-given-rewriter-config" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.older_grappler_caller_fix(m)
    if any(h.signature.id == "tfjs-core-releases-differ" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.tfjs_releases_fix()
    if any(h.signature.id == "dotnet-c-api-entry-point-missing" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.dotnet_binding_fix(
            group(hits, "symbol") or "a C function"
        )
    if any(h.signature.id in _C_API_MISSING for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.c_binding_fix(
            group(hits, "binding"), group(hits, "symbol") or "a C name", r.os
        )
    if any(h.signature.id == "horovod-tensorflow-extension-not-built" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.horovod_unbuilt_fix(m)
    if any(DEEPMD_BUILD in h.signature.tags for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.deepmd_rebuild_fix(
            m, group(hits, "required"), group(hits, "tf_version"), group(hits, "flag")
        )
    if any(h.signature.id in _DALI_PLUGIN for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.dali_plugin_fix(m)
    if any(h.signature.id == "horovod-framework-version-mismatch" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.rebuild_on_install_fix(
            m, "horovod", "HOROVOD_WITH_TENSORFLOW=1"
        )
    # Named by its library's path, or by its own words ("TensorFlow Probability").
    libraries = [g["library"] for h in hits for g in h.groups if g.get("library")]
    named = group(hits, "dist")
    op = group(hits, "op")
    owners = (
        origin_of(x).dist
        or plugin_dist(x)
        or _library_owner(x)
        or _built_on_tensorflow(installed_package(x))
        for x in libraries
    )
    dist = (
        next(filter(None, owners), "")
        if libraries
        else normalize_name(named.replace(" ", "-"))
        if named
        else (modules().op_library(op) or "")
        if op
        else ""
    )
    # A namespace root's library is named by the folder below it (nvidia.dali_tf_plugin).
    top = next((t for t in map(installed_namespaced, libraries) if t), None)
    symbol = group(hits, "symbol") or ""
    loader = _package_loader(libraries, r.op_loader)
    if not dist and top is None and loader is not None:
        # The library's own name says no package, and the log gives no folder of it: the
        # installed package whose code called tf.load_op_library is whose library it is.
        top, dist = loader, distribution_of(loader) or ""
    if not dist and top is None and symbol:
        own = _own_op_library(libraries, r.op_loader)
        if own is not None:
            # No package's: the project's own op library, built by its script or shipped
            # prebuilt, against another TensorFlow or with other flags.
            return causes.software.CUSTOM_OP_BUILD_MISMATCH, causes.software.custom_op_fix(
                own, symbol, r.tf_version
            )
    if "horovod" in (dist, top):
        # Horovod compiles its TensorFlow extension (horovod/tensorflow/mpi_lib) as it is
        # installed, against the TensorFlow present then: no release table, a rebuild
        # (docs/troubleshooting.rst, "pip install --no-cache-dir horovod").
        return causes.software.COMPANION_MISMATCH, causes.software.rebuild_on_install_fix(
            m, "horovod", "HOROVOD_WITH_TENSORFLOW=1"
        )
    # The symbol's C++ ABI says which TensorFlow build lacks it where the log does not show
    # the release (whose own wheels' ABI would then be the question).
    abi = causes.software.cxx_abi_of(symbol) if r.tf_version is None else None
    fix = causes.software.companion_fix(m, dist or None, abi=abi)
    if not dist and top is not None:
        # No distribution the table knows: the directory it is installed in names the add-on.
        shown = next((x for x in libraries if installed_namespaced(x) == top), None) or next(
            iter(libraries), r.op_loader
        )
        fix = Fix(
            f"The add-on is {causes.common.package_named(top)} (its library: {shown}). {fix.text}",
            (*fix.commands, causes.common.owner_of_package_command(top)),
        )
    return causes.software.COMPANION_MISMATCH, fix


#: The signatures of XLA's refusal of an op it has no kernel for, and of a kernel look-up that
#: found kernels of the op but none for the attributes (dtype) it was given.
_XLA_KERNEL_IDS = frozenset({"xla-unsupported-op", "xla-no-kernel-for-op"})
_ATTRS_KERNEL_IDS = frozenset(
    {"no-kernel-for-op-attrs", "no-device-kernel-for-op", "no-device-for-node"}
)


def _op_kernel(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """An op without a kernel: XLA's, one for the dtype given, or one on the GPU it was put on
    (the first hit's kind: the line the log shows first; a kernel of the op that refused the
    attributes on a device of the process makes it the dtype's, whatever the line); an
    add-on's op, whose library registers it, is that library's to load."""
    first = hits[0].signature.id if hits else ""
    kind = "xla" if first in _XLA_KERNEL_IDS else "attrs" if first in _ATTRS_KERNEL_IDS else ""
    if kind != "xla" and r.kernel_refused_attrs:
        kind = "refused"
    op = group(hits, "op")
    if kind == "attrs" and op is not None and modules().op_library(op) is not None:
        # An add-on's op (the module table names whose) with no kernel at all: its library
        # is not loaded whole in this process, or is of another release; not a dtype.
        return causes.software.OP_NOT_REGISTERED, causes.software.op_not_registered_fix(m, op)
    return causes.runtime.OP_KERNEL_MISSING, causes.runtime.op_kernel_fix(op, kind)


def _library_pin(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # Numba's own import check names the NumPy bound it was built for; pip's words are read in
    # explain.packages; without either, the generic fix.
    numba = next((h for h in hits if h.signature.id == "numba-numpy-range"), None)
    bound = group([numba], "numpy_version") if numba is not None else None
    if numba is not None and bound is not None:
        upper = any("or less" in line for _, line in numba.citations)
        return causes.software.LIBRARY_PIN_CONFLICTS, causes.software.numba_numpy_fix(
            m, bound, upper
        )
    return causes.software.LIBRARY_PIN_CONFLICTS, causes.software.library_pin_fix(m)


#: The placeholder a converter writes in the old one-byte opcode field for every builtin
#: numbered past 127 (tensorflow/lite/schema/schema.fbs, PLACEHOLDER_FOR_GREATER_OP_CODES;
#: the real code sits in the int32 builtin_code field a runtime of its time does not read):
#: an operator newer than the runtime, whatever version follows it.
_GREATER_OP_CODES = "PLACEHOLDER_FOR_GREATER_OP_CODES"
#: The TFLite op resolver's words for an operator's first version, which every runtime that has
#: the operator knows (lite/core/api/op_resolver.cc); not the placeholder.
_FIRST_OP_VERSION = re.compile(
    rf"Didn't find op for builtin opcode '(?!{_GREATER_OP_CODES}')\w+' version '1'"
)
#: TOCO's words where Select TensorFlow ops were allowed and an op is no TensorFlow op either
#: (tensorflow/lite/toco/tflite/export.cc).
_TOCO_UNRECOGNIZED = "and are not recognized by TensorFlow"
#: The TFLite converters refusing an op they have no builtin for: MLIR's, and TOCO's before it.
_CONVERTER_REFUSALS = frozenset({"tflite-converter-op-unsupported", "toco-op-unsupported"})


#: How the client's own TensorFlow words the node check's refusal of a graph it builds or
#: imports: importer.py's import_graph_def and ops.py's _create_c_op turn the
#: InvalidArgumentError into a ValueError ("Convert to ValueError for backwards
#: compatibility"), so the release that refused is the client's, not a remote TPU's.
_CLIENT_REFUSAL = "ValueError"


def _op_unregistered(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "tflite-flex-delegate-missing" for h in hits):
        return causes.software.OP_NOT_REGISTERED, causes.software.tflite_flex_fix(m)
    if any(
        h.signature.id == "toco-op-unsupported" and _TOCO_UNRECOGNIZED in line
        for h in hits
        for _, line in h.citations
    ):
        return causes.software.OP_NOT_REGISTERED, causes.software.tflite_unknown_op_fix(
            group(hits, "op")
        )
    if any(h.signature.id in _CONVERTER_REFUSALS for h in hits):
        return causes.software.OP_NOT_REGISTERED, causes.software.tflite_select_ops_fix(
            group(hits, "op")
        )
    custom = next((h for h in hits if h.signature.id == "tflite-unresolved-custom-op"), None)
    if custom is not None:
        return causes.software.OP_NOT_REGISTERED, causes.software.tflite_custom_op_fix(
            m, group([custom], "op")
        )
    if (
        any(h.signature.id == "tflite-micro-registration-missing" for h in hits)
        and group(hits, "op") != _GREATER_OP_CODES
    ) or any(_FIRST_OP_VERSION.search(line) for h in hits for _, line in h.citations):
        # Version 1 is every builtin's first: no converter newer than the runtime wrote it,
        # the resolver the program built lacks the operator.
        return causes.software.OP_NOT_REGISTERED, causes.software.tflite_resolver_fix(
            group(hits, "op")
        )
    if all(TFLITE_WORDS in h.signature.tags for h in hits):
        return causes.software.OP_NOT_REGISTERED, causes.software.tflite_runtime_fix()
    op = group(hits, "op")
    node_check = [
        h for h in hits if h.signature.id in ("graph-attr-not-in-op", "graph-inputs-not-in-op")
    ]
    if (
        r.remote_tpu is not None
        and node_check
        and not any(_CLIENT_REFUSAL in line for h in node_check for _, line in h.citations)
    ):
        # A TPU on another host checks the client's graph against its own TensorFlow's ops
        # (node_def_util.cc's ValidateNodeDef): a node that does not fit them is the two
        # releases differing, not a file written by another release. The client's own
        # TensorFlow refusing a node it builds or imports raises a ValueError instead.
        return causes.hosted.TPU_VERSION_MISMATCH, causes.hosted.tpu_version_fix()
    if any(h.signature.id == "graph-attr-not-in-op" for h in hits):
        return causes.software.OP_NOT_REGISTERED, causes.software.graph_from_other_tf_fix(m, op)
    if any(h.signature.id == "graph-inputs-not-in-op" for h in hits):
        return causes.software.OP_NOT_REGISTERED, causes.software.graph_from_other_tf_fix(
            m, op, inputs=True
        )
    return causes.software.OP_NOT_REGISTERED, causes.software.op_not_registered_fix(
        m, op, _op_host(hits)
    )


#: TensorFlow Java's exceptions (org.tensorflow.TensorFlowException, and the newer
#: org.tensorflow.exceptions.TFNotFoundException).
_JAVA_WORDS = re.compile(r"\borg\.tensorflow\.(?:exceptions\.)?\w*Exception\b")


def _op_host(hits: Sequence[Hits]) -> str:
    """The process an unregistered op was asked of, where its cited line shows one no Python
    import reaches: TensorFlow.js (its own words), TensorFlow Serving's model server,
    TensorFlow Java; "" otherwise."""
    if hits and all(TFJS_WORDS in h.signature.tags for h in hits):
        return causes.software.TFJS_HOST
    lines = [line for h in hits for _, line in h.citations]
    if any(map(_SERVING_WORDS.search, lines)) or any(_BAZEL_TF in line for line in lines):
        return causes.software.SERVING_HOST
    if any(map(_JAVA_WORDS.search, lines)):
        return causes.software.NATIVE_HOST
    return ""


#: The Python release a distribution's package or path names (python3.8-venv,
#: /usr/lib/python3.8/distutils/).
_DISTRO_PYTHON = re.compile(r"python3\.(?P<minor>\d+)(?:-venv\b|/)")


def _distro_part(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """Which part of the distribution's Python is missing (its signature says), with the
    release its own lines name, else the log's Python."""
    ids = {h.signature.id for h in hits}
    if ids <= {"ensurepip-disabled-debian", "venv-package-named"}:
        # The system Python's ensurepip refused by Debian's patch: no package lifts it.
        return causes.platform.DISTRO_PYTHON_PART_MISSING, causes.platform.system_pip_fix()
    part = (
        "tkinter"
        if "tkinter-missing" in ids
        else "distutils"
        if "distutils-stub-debian" in ids
        else "ensurepip"
    )
    named = [
        f"3.{match.group('minor')}"
        for h in hits
        for _, line in h.citations
        for match in [_DISTRO_PYTHON.search(line)]
        if match is not None
    ]
    python = named[0] if named else (m.python_version or "")
    return causes.platform.DISTRO_PYTHON_PART_MISSING, causes.platform.distro_part_fix(part, python)


def _numpy_abi(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """An extension built for NumPy 1 under NumPy 2: the package whose extension it is, where
    the traceback's frames name it, beside TensorFlow's own range."""
    installed = m.facts.package("numpy")
    numpy = installed.version if installed is not None else r.numpy_version
    # A NumPy 2 that pip installed in the log may be the one that ran, whatever NumPy a
    # listing shows: then no direction is read.
    if (
        numpy
        and all(version_key(v)[:1] < (2,) for v in (numpy, *r.numpy_installed))
        and all(h.signature.id == "numpy-pybind-handle" for h in hits)
    ):
        # pybind11's words say only that TensorFlow's bfloat16 type could not be made from the
        # NumPy C API loaded: under a NumPy 1 the log shows, that NumPy is older than the one
        # the build was compiled against (tensorflow#57106), not NumPy 2's ABI.
        return causes.software.DEPENDENCY_OUT_OF_RANGE, causes.software.numpy_c_api_fix(
            m, older=True
        )
    package = r.numpy_extension
    return causes.software.NUMPY_ABI, causes.software.numpy_abi_fix(
        m, package.module if package else "", package.dist if package else ""
    )


def _added_row(cause: causes.CauseId, build: Callable[[Machine, str], Fix]) -> Builder:
    """A builder for the signatures the module table's ``added_to_distribution`` keys: the fix
    names the release of the row of the signature that hit."""

    def builder(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
        table = modules().added_to_dist
        signature = next(h.signature.id for h in hits if h.signature.id in table)
        return cause, build(m, signature)

    return builder


def _keras_backend_row(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A Keras 3 backend's refusal the module table's ``added_to_distribution`` keys: the
    release of the row. Where the row's addition is a module (torch._dynamo), the last of
    its readings (causes.software.added_module_causes; the traceback's reading gives the
    first): under a release shown that has it, the install broken."""
    table = modules().added_to_dist
    signature = next(h.signature.id for h in hits if h.signature.id in table)
    row = table[signature]
    backend = next((b for b, d in causes.software.KERAS3_BACKENDS.items() if d == row.dist), "")
    if row.module and backend:
        cause = causes.software.added_module_causes(m, row)[-1]
        if cause == causes.platform.WHEEL_MISMATCH:
            return cause, causes.platform.backend_module_missing_fix(
                m, backend, row.dist, row.module
            )
    return causes.software.KERAS_BACKEND_VERSION_UNSUPPORTED, causes.software.keras_backend_fix(
        m, signature
    )


def _too_old_for_code(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A library older than the code needs: R's own words name the package and both releases;
    else the module table's row of the signature that hit."""
    if any(h.signature.id == "r-namespace-older-than-required" for h in hits):
        return causes.code.DEPENDENCY_TOO_OLD_FOR_CODE, causes.code.r_package_too_old_fix(
            group(hits, "dist") or "the package", group(hits, "loaded"), group(hits, "required")
        )
    return _added_row(causes.code.DEPENDENCY_TOO_OLD_FOR_CODE, causes.code.dependency_too_old_fix)(
        m, r, hits
    )


def _simple(cause: causes.CauseId, build: Callable[[Machine], Fix]) -> Builder:
    def builder(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
        return cause, build(m)

    return builder


#: A TensorFlow release a user names (``tensorflow 2.15``, ``TF 2.16.1``, ``tf==2.15``).
_NAMED_TF = re.compile(r"(?i)\b(?:tensorflow|tf)(?:\s*==\s*|\s+|-)v?(\d+\.\d+)(?:\.\d+)?\b")
#: Words of a model that does not load.
_MODEL_NOT_LOADING = re.compile(
    r"(?i)\bmodel\b[^.\n]{0,80}?\b(?:unable|can'?t|cannot|fails?|failed|not)\b[^.\n]{0,30}?"
    r"\b(?:load|import|open|read|restore)"
    r"|\b(?:unable|can'?t|cannot|fails?|failed)\s+to\s+(?:load|import|open|read|restore)\b"
    r"[^.\n]{0,30}?\bmodel\b"
)
#: Words that say it works after all.
_WORKS = re.compile(r"(?i)\bno errors?\b")
#: "Keras 3" as users write it.
_KERAS3_WORDS = re.compile(r"(?i)\bkeras\s*3\b")
_QUOTED_ARG = re.compile(r"['`\"](\w+)['`\"]")
#: Words that say an argument is not taken.
_REFUSED_WORDS = re.compile(
    r"(?i)\bno\b|\bnot\b|n't\b|\bremoved\b|\bunrecogni[sz]ed\b|\bunexpected\b|\bdropped\b"
)


#: A frame of the TensorFlow Model Garden's research code in a clone (models/research/X/),
#: whose root holds the `official` package it imports
#: (https://github.com/tensorflow/models/tree/master/research/object_detection).
_GARDEN_RESEARCH = re.compile(
    r"^(?P<root>.{0,300}?[\\/]models(?:-[\w.]{1,40})?)[\\/]research[\\/]\w+[\\/]"
)


def _model_garden_official(evidence: Evidence) -> Optional[Finding]:
    """The Model Garden's research code (a frame under a clone's ``models/research/``) failing
    to import ``official``: the clone's root, which holds it, is not first on the path."""
    for tb in evidence.tracebacks:
        # Python's message alone for the Model Garden's `official` package, or a part of it.
        missing = tb.missing_module
        if (
            tb.type not in ("ModuleNotFoundError", "ImportError")
            or missing is None
            or not missing.alone
            or missing.name.partition(".")[0] != "official"
        ):
            continue
        roots = [r for r in (_GARDEN_RESEARCH.match(f.path) for f in tb.frames) if r]
        if not roots:
            continue
        root = roots[-1].group("root")
        return causes.finding(
            f"explain.{causes.software.PACKAGE_NOT_INSTALLED}",
            Severity.ERROR,
            causes.software.PACKAGE_NOT_INSTALLED,
            f"The Model Garden's {missing.name} is not on the Python path",
            f"{tb.where}: {tb.type}: {tb.message}\nThe code is the Model Garden's research "
            f"code in a clone ({roots[-1].group(0)}), whose official package is at {root}.",
            causes.software.model_garden_path_fix(root, "\\" in root),
        )
    return None


#: A Python frame's file, as CPython prints it (a traceback cut before its exception too).
_FRAME_FILE = re.compile(r'File "(?P<path>[^"\n]{1,400})", line \d+')


def _syntax_newer_than_python(
    evidence: Evidence, revealed: Revealed, machine: Machine
) -> Optional[Finding]:
    """Python's compile error at a line of syntax a newer Python added, where the log shows
    the Python (explain.syntax): the code, or the package's release, needs that Python."""
    found = compile_error_at_newer_syntax(evidence.first_text, revealed.python)
    if found is None or revealed.python is None:
        return None
    cited, release, syntax, package = found
    owner = f"{package}'s code" if package else "The code"
    return causes.finding(
        f"explain.{causes.platform.PYTHON_TOO_OLD_FOR_PACKAGE}",
        Severity.ERROR,
        causes.platform.PYTHON_TOO_OLD_FOR_PACKAGE,
        f"{owner} needs Python {release} or newer; this is Python {revealed.python}",
        f"{cited}\nPython cannot compile the line: it uses {syntax}, which Python {release} "
        f"added, and the log shows Python {revealed.python}.",
        causes.platform.syntax_python_fix(machine, revealed.python, release, syntax, package),
        # Each release's "What's New" page lists the syntax it added.
        (f"https://docs.python.org/3/whatsnew/{release}.html",),
    )


def _syntax_older_than_python(evidence: Evidence, machine: Machine) -> Optional[Finding]:
    """Python's compile error at a line of syntax a release took away (explain.syntax): the
    compile error shows this Python is that release or newer, so the file was written for an
    older one. Whose file it is decides: TensorFlow's own, a release not built for this
    Python; an installed package's, a release of it that predates this Python; the project's,
    the line to rewrite."""
    python = machine.python_version
    found = compile_error_at_older_syntax(evidence.first_text, python)
    if found is None:
        return None
    cited, release, syntax, replacement, path = found
    owner = file_owner(path)
    shown = f"Python {python}" if python else f"a Python of {release} or later"
    said = f"{cited}\nPython cannot compile the line: it uses {syntax}, and this is {shown}."
    if owner.tensorflow:
        return causes.finding(
            f"explain.{causes.platform.TF_RELEASE_NOT_FOR_PYTHON}",
            Severity.ERROR,
            causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
            f"TensorFlow's own files use syntax Python {release} took away: the installed "
            "release predates this Python",
            said,
            causes.platform.release_newer_python_fix(
                machine, "", release, uses=f"uses {syntax} (this is {shown})"
            ),
            (f"https://docs.python.org/3/whatsnew/{release}.html",),
        )
    who = owner.who
    return causes.finding(
        f"explain.{causes.platform.PYTHON_REMOVED_MODULE}",
        Severity.ERROR,
        causes.platform.PYTHON_REMOVED_MODULE,
        f"{who or 'The code'} uses syntax Python {release} took away"
        + (f" (this is Python {python})" if python else ""),
        said,
        causes.platform.removed_module_fix(
            machine,
            "",
            release,
            replacement,
            who,
            bool(owner.dist),
            syntax=syntax,
            building=owner.building,
        ),
        (f"https://docs.python.org/3/whatsnew/{release}.html",),
    )


#: The typing a Python release gave, each read by its reader (explain.syntax): the reader, the
#: release, the typing in words with its PEP's page, and why only an older Python refuses it.
_TYPING_READINGS = (
    (
        builtin_generic_before_release,
        BUILTIN_GENERICS_RELEASE,
        ("a built-in collection as a generic type (list[int], PEP 585)", "pep-0585"),
        "The line subscripts a built-in collection, which Python "
        f"{BUILTIN_GENERICS_RELEASE} allowed first: only an older Python refuses it so.",
    ),
    (
        union_before_release,
        UNION_RELEASE,
        ("a union of types written X | Y (PEP 604)", "pep-0604"),
        f"The line writes a union of types with |, which Python {UNION_RELEASE} allowed first: "
        "only an older Python refuses it so.",
    ),
)


def _typing_newer_than_python(
    evidence: Evidence, revealed: Revealed, machine: Machine
) -> Optional[Finding]:
    """CPython's TypeError at a line using typing a later Python gave (``list[int]``, PEP 585;
    ``X | Y``, PEP 604): only an older Python raises it there, so the code, or the package's
    release, is written for that Python or newer; a Python the log shows only rules it out."""
    python = revealed.python
    for tb in evidence.tracebacks:
        if tb.type != "TypeError" or not tb.frames:
            continue
        last = tb.frames[-1]
        for reader, release, syntax, why in _TYPING_READINGS:
            package = reader(tb.message, last.code, last.path, python)
            if package is not None:
                return _typing_newer_finding(tb, package, python, release, syntax, why, machine)
    return None


def _typing_newer_finding(
    tb: Traceback,
    package: str,
    python: Optional[str],
    release: str,
    syntax: tuple[str, str],
    why: str,
    machine: Machine,
) -> Finding:
    """The code (``package``'s, where its file is in site-packages; empty for the project's)
    uses typing a Python ``release`` gave (``syntax``: in words, and its PEP's page), refused
    at ``tb``'s innermost frame by Python ``python`` (None where the log does not show it:
    the refusal alone proves it older than ``release``)."""
    last = tb.frames[-1]
    owner = f"{package}'s code" if package else "The code"
    words, pep = syntax
    return causes.finding(
        f"explain.{causes.platform.PYTHON_TOO_OLD_FOR_PACKAGE}",
        Severity.ERROR,
        causes.platform.PYTHON_TOO_OLD_FOR_PACKAGE,
        f"{owner} needs Python {release} or newer; this is "
        + (f"Python {python}" if python else f"a Python before {release}"),
        f'{tb.where}: TypeError: {tb.message}\nFile "{last.path}" ... {last.code.strip()}\n{why}',
        causes.platform.syntax_python_fix(machine, python, release, words, package or None),
        (f"https://peps.python.org/{pep}/",),
    )


#: A traceback the log ends inside, at TensorFlow's tracked dict's attribute lookup
#: (``_DictWrapper.__getattribute__`` in trackable/data_structures.py, training/tracking/ before
#: 2.10), the source line it ran at most after it: the exception line was cut from the paste.
_DICT_WRAPPER_CUT = re.compile(
    r'File "(?P<path>[^"\n]{0,400}[\\/]tensorflow[\\/]python[\\/]'
    r'(?:trackable|training[\\/]tracking)[\\/]data_structures\.py)", line \d+, '
    r"in __getattribute__[ \t]*(?:\r?\n[ \t]+\S[^\n]*)?\s*\Z"
)


def _dict_wrapper_cut(evidence: Evidence, machine: Machine) -> Optional[Finding]:
    """A traceback cut before its exception line whose innermost frame is TensorFlow's
    ``_DictWrapper.__getattribute__``: wrapt 1.15 under a TensorFlow of 2.12 or older.

    ``_DictWrapper`` is a wrapt ``ObjectProxy``: an ``AttributeError`` its lookup raises goes
    on to the proxy's ``__getattr__`` (C code, no frame), and a property's own error has the
    property's frame below. What leaves the lookup as the innermost frame is the ``TypeError``
    wrapt 1.15 let through ("this __dict__ descriptor does not support '_DictWrapper'
    objects"; wrapt 1.15.0 stopped suppressing exceptions in attribute access:
    https://github.com/tensorflow/tensorflow/issues/59869, GrahamDumpleton/wrapt#231).
    From TensorFlow 2.13 the same error comes from typing-extensions 4.6
    (https://github.com/tensorflow/tensorflow/issues/62217): not read as wrapt there."""
    if evidence.tracebacks:
        return None  # the exception line is there: the signatures read it
    cut = _DICT_WRAPPER_CUT.search(evidence.first_text)
    if cut is None:
        return None
    if machine.tf is not None and version_key(machine.tf.version) >= (2, 13):
        return None
    dist, fallback, text = _DEPENDENCY_PINS["wrapt-dictwrapper"]
    return causes.finding(
        f"explain.{causes.software.DEPENDENCY_OUT_OF_RANGE}",
        Severity.WARNING,
        causes.software.DEPENDENCY_OUT_OF_RANGE,
        "Most likely wrapt 1.15 under a TensorFlow whose tracked dicts were written before it",
        _cite_head(evidence, [cut.group("path")])
        + "\nThe log ends inside a traceback at TensorFlow's tracked dict's attribute lookup "
        "(_DictWrapper.__getattribute__), its exception line cut. What that lookup raises "
        'itself is the TypeError wrapt 1.15 lets through ("this __dict__ descriptor does not '
        "support '_DictWrapper' objects\"); under TensorFlow 2.13 or later the same error "
        "comes from typing-extensions 4.6 or later instead. `pip show tensorflow wrapt "
        "typing-extensions` tells which.",
        causes.common.declared_range_fix(machine, dist, fallback, text),
    )


def _keras3_in_words(evidence: Evidence, machine: Machine) -> Optional[Finding]:
    """The Keras 2 to Keras 3 boundary in a user's words, where no line of the log shows it:
    a model that worked under a release before the first Keras 3 line and does not load under
    one from it, or an argument the text quotes beside "Keras 3" that a rule says Keras 3
    removed (Embedding's `input_length`)."""
    text = evidence.first_text
    matrix = machine.matrix
    first = first_keras3_line(matrix) if matrix is not None else None
    if not text or first is None or matrix is None:
        return None
    boundary = version_key(first.line)
    named = {version_key(v) for v in _NAMED_TF.findall(text)}
    said = ""
    model = False
    cited: list[str] = []
    replacement = ""
    loading = _MODEL_NOT_LOADING.search(text)
    if loading is not None and _WORKS.search(text):
        loading = None
    if any(v < boundary for v in named) and any(v >= boundary for v in named) and loading:
        model = True
        cited = [loading.group(0)]
        said = (
            f"The text names TensorFlow releases on both sides of {first.line}, where Keras 3 "
            "became tf.keras, and a model that does not load: a model Keras 2 saved, read by "
            "Keras 3."
        )
    elif _KERAS3_WORDS.search(text):
        from tfdoctor.scan.knowledge import ApiKnowledge  # noqa: PLC0415 - loads scan's rules

        removed = {
            r.kwarg: r.replacement
            for r in ApiKnowledge(matrix).rules.rules
            if r.kwarg and r.cause == causes.code.KERAS3_BEHAVIOUR_CHANGE
        }
        # The argument quoted on a line that names Keras 3 and says it is gone or refused.
        arg = next(
            (
                a
                for line in text.split("\n")
                if _KERAS3_WORDS.search(line) and _REFUSED_WORDS.search(line)
                for a in _QUOTED_ARG.findall(line)
                if a in removed
            ),
            None,
        )
        if arg is not None:
            said = f"The text quotes `{arg}` beside Keras 3, which does not take it."
            cited = [arg]
            replacement = removed[arg]
    if not said:
        return None
    return causes.finding(
        f"explain.{causes.code.KERAS3_BEHAVIOUR_CHANGE}",
        Severity.WARNING,
        causes.code.KERAS3_BEHAVIOUR_CHANGE,
        "Keras 2 code or models under Keras 3 (the user's words)",
        f"{_cite_head(evidence, cited)}\n{said}",
        causes.code.keras2_model_fix(machine) if model else _with_rule(replacement, machine),
    )


def _with_rule(replacement: str, machine: Machine) -> Fix:
    """Keras 3's own way for what the text names (the rule's), or Keras 2 kept (tf-keras)."""
    kept = causes.code.keras3_fix(machine)
    return Fix(f"{replacement} To keep the Keras 2 code instead: {kept.text}", kept.commands)


#: Transformers' words that it has no TensorFlow: its TF classes' placeholders (and the names
#: its __init__ then leaves undefined), and its notice at import that it found no framework.
_NO_TF_SIGNATURES = frozenset(
    {
        "transformers-requires-tensorflow",
        "transformers-tf-classes-missing",
        "transformers-no-framework",
    }
)


def _unrecognised_distribution(
    evidence: Evidence, machine: Machine, by_cause: dict[str, list[Hits]], benign: list[Hits]
) -> Optional[Finding]:
    """Transformers saying TensorFlow is absent where a listing in the log shows TensorFlow 2
    installed under another distribution name than ``tensorflow``: its release looks
    TensorFlow up by a list of names that lacks that one (src/transformers/utils/
    import_utils.py, ``candidates``). The finding replaces "not installed", whose fix would
    install a second TensorFlow over the first, and the notice."""
    said = [
        h
        for h in (*by_cause.get(causes.software.TF_NOT_INSTALLED, ()), *benign)
        if h.signature.id in _NO_TF_SIGNATURES
    ]
    if not said or "tensorflow" in evidence.listed:
        return None  # the plain name is one every release looks for: another reason
    tf_listed = {n: v for n, v in evidence.listed.items() if n in TF_DISTRIBUTIONS}
    # A TensorFlow 1.x is refused for its version ("TensorFlow >= 2.0"), not for its name.
    shown = next(((n, v) for n, v in tf_listed.items() if version_key(v)[:1] >= (2,)), None)
    logged = evidence.tf_logged_at
    tf1 = machine.tf is not None and version_key(machine.tf.version)[:1] < (2,)
    if shown is None and (logged is None or tf_listed or tf1):
        # No TensorFlow 2 listed, and no line of TensorFlow's own beside nothing that says
        # it is 1.x.
        return None
    ids = {h.signature.id for h in said}
    for hit in said:
        if hit.signature.cause == BENIGN:
            benign.remove(hit)
        else:
            _without(by_cause, causes.software.TF_NOT_INSTALLED, hit.signature.id)
    cause = causes.software.TF_DISTRIBUTION_UNRECOGNISED
    fix = causes.software.unrecognised_distribution_fix(
        machine, "transformers", *(shown or (None, ""))
    )
    if shown is None:
        # TensorFlow's own lines say it imported, not under which name or release: an
        # inference, a warning.
        return causes.finding(
            f"explain.{cause}",
            Severity.WARNING,
            cause,
            "Transformers reports no TensorFlow where TensorFlow's own lines show it imported",
            f"{cite(said)}\nTensorFlow's own logger wrote to this log ({logged}): TensorFlow "
            "is installed where it ran. Transformers looks it up by distribution name and "
            "counts only TensorFlow 2, so either its release does not know the name TensorFlow "
            "is installed under, or the TensorFlow is 1.x.",
            fix,
        )
    dist, version = shown
    return causes.finding(
        f"explain.{cause}",
        # The placeholders raise; the notice alone leaves the program running without models.
        Severity.WARNING if ids == {"transformers-no-framework"} else Severity.ERROR,
        cause,
        f"Transformers does not recognise TensorFlow installed as {dist}",
        f"{cite(said)}\nThe log lists {dist} {version}: TensorFlow is installed, under a "
        "distribution name the Transformers release does not look for, so it treats "
        "TensorFlow as absent.",
        fix,
    )


def _tensorboard_duplicate(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> tuple[causes.CauseId, Fix]:
    """Every TensorBoard out, pip's '~' leftovers deleted where the log shows the directory,
    the one TensorBoard of the installed TensorFlow back in."""
    site = next(
        (g["site_packages"] for h in hits for g in h.groups if g.get("site_packages")), None
    )
    leftover = next((g["leftover"] for h in hits for g in h.groups if g.get("leftover")), None)
    return (
        causes.software.TENSORBOARD_DUPLICATE_INSTALL,
        causes.software.tensorboard_duplicate_fix(m, site, leftover),
    )


@functools.cache
def _family_path() -> re.Pattern[str]:
    """A frame's path inside a package of TensorFlow's family (the module table's ``family``),
    as a bundle keeps its folders."""
    names = "|".join(sorted(map(re.escape, modules().family), key=len, reverse=True))
    return re.compile(rf"[/\\](?:{names})[/\\]")


#: What a bundle that left out or mangled TensorFlow's files raises while its code runs: a
#: module or name not there, a library not found, bytecode the freezer compiled wrongly.
_BUNDLE_ERRORS = frozenset(
    {
        "ImportError",
        "ModuleNotFoundError",
        "AttributeError",
        "NameError",
        "SystemError",
        "FileNotFoundError",
        "OSError",
    }
)


def _in_bundle(path: str) -> bool:
    """A frame's path inside a frozen program's bundle and a package of TensorFlow's family."""
    return freezer_of(path) is not None and _family_path().search(path) is not None


def frozen_program_finding(evidence: Evidence, m: Machine) -> Optional[Finding]:
    """A frozen program (the log shows its freezer's bundle) failing inside TensorFlow's
    family's code as the bundle holds it: a module, name or library missing there, or its
    bytecode refused: the freezer's support of this TensorFlow, whose release (or an option
    that copies the package whole) is the fix. A paste that cut the exception and kept such
    frames is a warning: the frames show where, not what failed."""
    tool = evidence.freezer
    if tool is None:
        return None
    names = causes.software.FREEZER_NAMES
    cause = causes.software.FREEZER_TF_SUPPORT_OUTDATED
    for tb in reversed(evidence.tracebacks):
        # A GPU library the program cannot load is the machine's CUDA (its readings).
        if tb.type not in _BUNDLE_ERRORS or causes.gpu.CUDA_LIBRARY.search(tb.message):
            continue
        inside = next((f for f in reversed(tb.frames) if _in_bundle(f.path)), None)
        if inside is None:
            continue
        # The frame's own bundle names the freezer where the log shows two.
        tool = freezer_of(inside.path) or tool
        name = names[tool]
        return causes.finding(
            f"explain.{cause}",
            Severity.ERROR,
            cause,
            f"TensorFlow's code fails inside the program {name} froze",
            f"{tb.where}: {tb.type}: {tb.message.strip()}\nIts frames run TensorFlow's code from "
            f"{name}'s bundle (the innermost: {inside.path}): the bundle holds TensorFlow as "
            f"{name} collected it, not as pip installed it.",
            causes.software.freezer_fix(m, tool),
        )
    if evidence.tracebacks:
        return None
    paths = [f.path for f in loose_frames(evidence.first_text) if _in_bundle(f.path)]
    if not paths:
        return None
    name = names[tool]
    return causes.finding(
        f"explain.{cause}",
        Severity.WARNING,
        cause,
        f"TensorFlow's import fails inside the program {name} froze (the exception is cut)",
        f"The frames run TensorFlow's modules from {name}'s bundle ({paths[-1]}); the "
        "exception itself is not in the log.",
        causes.software.freezer_fix(m, tool),
    )
