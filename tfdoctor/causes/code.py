"""Causes code shows (``tfdoctor scan``): an API the target release removed or changed."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final, Optional

from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.causes.common import (
    KERAS_FILE_METADATA,
    TF_KERAS_OF_MINOR,
    companion_install,
    legacy_keras_switch,
    list_file_command,
)
from tfdoctor.causes.software import jax_floor_fix
from tfdoctor.compat import last_keras2_line
from tfdoctor.findings import Fix
from tfdoctor.machine import Machine
from tfdoctor.matrix import version_key
from tfdoctor.modules import modules

#: The ids of this area's causes, as checks, explain and scan name them.
API_REMOVED: Final = CauseId("api-removed")
TF_TOO_OLD_FOR_CODE: Final = CauseId("tf-too-old-for-code")
DEPENDENCY_TOO_OLD_FOR_CODE: Final = CauseId("dependency-too-old-for-code")
API_MOVED_TO_COMPAT_V1: Final = CauseId("api-moved-to-compat-v1")
TF_CONTRIB_REMOVED: Final = CauseId("tf-contrib-removed")
TF_ESTIMATOR_REMOVED: Final = CauseId("tf-estimator-removed")
KERAS3_BEHAVIOUR_CHANGE: Final = CauseId("keras3-behaviour-change")
API_DEFAULT_CHANGED: Final = CauseId("api-default-changed")
NUMPY_NAME_REMOVED: Final = CauseId("numpy-name-removed")
NUMPY2_BEHAVIOUR_CHANGE: Final = CauseId("numpy2-behaviour-change")

TF2_MIGRATE = "https://www.tensorflow.org/guide/migrate"


KERAS3_MIGRATE = "https://keras.io/guides/migrating_to_keras_3/"


#: Causes the source code reveals: a use of an API that the target release removed or changed.
CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            API_REMOVED,
            "The code uses an API the target TensorFlow does not have",
            "The name is not in the target release's public API: using it raises AttributeError "
            "(or ImportError), at import when it is used at module level.",
            "https://www.tensorflow.org/api_docs/python/tf",
        ),
        define(
            TF_TOO_OLD_FOR_CODE,
            "The installed TensorFlow is older than the code",
            "The code was written for a later TensorFlow release: a name, a keyword argument, "
            "an op, kernel or conversion it relies on is not in the installed release yet (a "
            "public name or argument a later release brought, a kernel that handles fewer "
            "ranks, a conversion a later release added), so it raises AttributeError, "
            "ImportError, TypeError or UnimplementedError (a name a later release removed is "
            "api-removed). The fix is upgrading TensorFlow to the release the code targets, "
            "not changing the code.",
            "https://github.com/tensorflow/tensorflow/blob/master/RELEASE.md",
            "https://www.tensorflow.org/install/pip",
        ),
        define(
            DEPENDENCY_TOO_OLD_FOR_CODE,
            "A library beside TensorFlow is older than the code",
            "The code was written for a later release of a library it uses beside TensorFlow "
            "(matplotlib, JAX, ...): a behaviour or function that release added is refused by "
            "the installed, older one in its own words. The fix is that library's release, "
            "or code that does without the addition.",
        ),
        define(
            API_MOVED_TO_COMPAT_V1,
            "A TensorFlow 1 API used under TensorFlow 2",
            "TensorFlow 2 removed the graph-and-session API from its top-level namespace; the "
            "name lives on only under tf.compat.v1 (a stop-gap that also needs "
            "tf.compat.v1.disable_eager_execution() for graph code). The TensorFlow 2 idiom is "
            "eager code with tf.function.",
            TF2_MIGRATE,
        ),
        define(
            TF_CONTRIB_REMOVED,
            "tf.contrib was removed in TensorFlow 2.0",
            "tf.contrib is not in any TensorFlow 2 release (not even under tf.compat.v1); each "
            "part moved to core TensorFlow, to a separate package (TensorFlow Addons, "
            "tf-slim, TensorFlow Probability) or was dropped.",
            "https://github.com/tensorflow/community/blob/master/rfcs/20180907-contrib-sunset.md",
        ),
        define(
            TF_ESTIMATOR_REMOVED,
            "tf.estimator was removed in TensorFlow 2.16",
            "TensorFlow 2.16 no longer ships tf.estimator (and tf.compat.v1.estimator); "
            "Estimator code must move to Keras models and custom training loops, or stay on "
            "TensorFlow 2.15 or older.",
            "https://github.com/tensorflow/tensorflow/releases/tag/v2.16.1",
        ),
        define(
            KERAS3_BEHAVIOUR_CHANGE,
            "Keras 2 code under Keras 3",
            "From TensorFlow 2.16, tf.keras is Keras 3, which removed or changed Keras 2 APIs "
            "(legacy optimizers, the SavedModel save format, most keras.backend functions, "
            "layers.experimental). Keras 2 stays available as the tf-keras package with "
            "TF_USE_LEGACY_KERAS=1 set before TensorFlow is imported.",
            KERAS3_MIGRATE,
            "https://keras.io/getting_started/#tensorflow--keras-2-backwards-compatibility",
        ),
        define(
            API_DEFAULT_CHANGED,
            "An API whose default behaviour changed",
            "The call keeps working but its default changed between the releases compared, so "
            "the result can differ silently.",
            TF2_MIGRATE,
        ),
        define(
            NUMPY_NAME_REMOVED,
            "The code uses a NumPy name the installed NumPy removed",
            "NumPy 1.24 removed the aliases of builtins (np.object, np.bool, np.int, np.float, "
            "np.complex, np.str) and NumPy 2.0 removed many more names (np.float_, np.NaN, "
            "np.string_...); code written for an older NumPy raises AttributeError, and NumPy's "
            "message names the replacement.",
            "https://numpy.org/doc/stable/release/1.24.0-notes.html#expired-deprecations",
            "https://numpy.org/doc/stable/numpy_2_0_migration_guide.html",
        ),
        define(
            NUMPY2_BEHAVIOUR_CHANGE,
            "Code written for NumPy 1 meets a behaviour NumPy 2 changed",
            "NumPy 2.0 kept some names but changed what they do: np.array(obj, copy=False) "
            "(and np.asarray's copy=False) now raises 'Unable to avoid copy while creating an "
            "array as requested' where NumPy 1 copied silently. Code in a tool or in a library "
            "it loads fails as soon as pip resolves NumPy 2.",
            "https://numpy.org/doc/stable/numpy_2_0_migration_guide.html"
            "#adapting-to-changes-in-the-copy-keyword",
            "https://numpy.org/doc/stable/release/2.0.0-notes.html",
        ),
    )
)


def keras3_fix(m: Machine) -> Fix:
    """Keras 2 code under Keras 3: tf-keras with TF_USE_LEGACY_KERAS, the last TensorFlow
    whose tf.keras is Keras 2 (where the matrix is known), or migrate."""
    last = _last_keras2_release(m)
    older = f"; or run it on {last};" if last else ","
    spec = m.tf_keras_spec
    if spec is None:
        return Fix(
            f"This code is written for Keras 2: install {TF_KERAS_OF_MINOR} and set "
            f"TF_USE_LEGACY_KERAS=1 (before TensorFlow is imported){older} or migrate it to "
            "Keras 3 (save models as `.keras`).",
            (*m.pip("show tensorflow"), *legacy_keras_switch(m)),
        )
    return Fix(
        "This code is written for Keras 2: install tf-keras and set TF_USE_LEGACY_KERAS=1 "
        f"(before TensorFlow is imported){older} or migrate it to Keras 3 (save models as "
        "`.keras`).",
        (*companion_install(m, spec), *legacy_keras_switch(m)),
    )


def _last_keras2_release(m: Machine) -> str:
    """The words for the newest TensorFlow line whose tf.keras is Keras 2
    (:func:`tfdoctor.compat.last_keras2_line`), with the Pythons its wheels are for; empty
    where the matrix is not known."""
    line = last_keras2_line(m.matrix) if m.matrix is not None else None
    if line is None:
        return ""
    pythons = sorted({py for pys in line.python.values() for py in pys}, key=version_key)
    where = (
        f" (in a new virtual environment of Python {pythons[0]} to {pythons[-1]}, which its "
        "wheels are for)"
        if pythons
        else ""
    )
    return f"TensorFlow {line.line}, the last release whose tf.keras is Keras 2{where}"


def keras3_loss_scale_fix(m: Machine) -> Fix:
    """Keras 2's LossScaleOptimizer arguments under Keras 3, whose LossScaleOptimizer takes
    the inner optimizer, initial_scale and dynamic_growth_steps only
    (keras/src/optimizers/loss_scale_optimizer.py): the Keras 3 spelling, or Keras 2 back."""
    legacy = keras3_fix(m)
    return Fix(
        "Keras 3's LossScaleOptimizer takes the inner optimizer, initial_scale and "
        "dynamic_growth_steps only, and its loss scale is always dynamic: drop loss_scale= and "
        "dynamic=; give clipnorm, clipvalue, weight_decay and the like to the inner optimizer; "
        "for a fixed loss scale, pass loss_scale_factor=N to the inner optimizer and do not wrap "
        "it. " + legacy.text,
        legacy.commands,
    )


#: The first Keras 3 release whose Functional models take nested inputs again: 3.0 to 3.3 take
#: a dict of inputs only flat. Keras 3.4.0's release notes, "Add support for arbitrary, deeply
#: nested input/output structures in Functional models" (keras-team/keras 8cb1829d:
#: https://github.com/keras-team/keras/releases/tag/v3.4.0).
KERAS_NESTED_INPUTS: Final = "3.4"


def keras3_nested_inputs_fix(m: Machine) -> Fix:
    """Keras 2 code building a Functional model from a nested dict of inputs under Keras 3.0 to
    3.3, which refuse it: Keras 3.4 or later takes the structure again, so upgrading Keras
    keeps the code and Keras 3; tf-keras with TF_USE_LEGACY_KERAS (:func:`keras3_fix`) is the
    way back to Keras 2."""
    legacy = keras3_fix(m)
    return Fix(
        f"Keras 3.0 to 3.3 take a dict of Functional inputs only flat (one KerasTensor per key); "
        f"Keras {KERAS_NESTED_INPUTS} and later take nested structures again, as Keras 2 did. "
        f"Upgrade Keras to {KERAS_NESTED_INPUTS} or later (the command below). Else: "
        + legacy.text[0].lower()
        + legacy.text[1:],
        m.install(f"keras>={KERAS_NESTED_INPUTS}"),
    )


def tf_too_old_fix(
    m: Machine, used: str, since: Optional[str], commands: Sequence[str] = ()
) -> Fix:
    """The installed TensorFlow older than the code that relies on ``used`` (an op, kernel or
    conversion, in words): upgrade to ``since``, the first release that supports it, where the
    knowledge or the log says which; else to the release the code's own requirements name."""
    if since:
        return Fix(
            f"TensorFlow supports {used} from {since} on, and the installed release is older: "
            f"the code was written for a newer TensorFlow. Upgrade TensorFlow to {since} or "
            "later, in the same major line as the code.",
            tuple(commands) or m.pip(f'install "tensorflow>={since},<{version_key(since)[0] + 1}"'),
        )
    return Fix(
        f"The installed TensorFlow does not support {used}, which the code relies on: the code "
        "was written for a newer release. Upgrade TensorFlow to the release the code names in "
        "its own requirements (requirements.txt, setup.py's install_requires, its README), and "
        "check which one is installed now.",
        tuple(commands) or m.pip("show tensorflow"),
    )


def library_call_fix(m: Machine, product: str, asked: str, dist: str) -> Fix:
    """The code of the installed library ``dist`` asking the installed ``product``
    (TensorFlow or Keras) for what it refuses (``asked``, in words): that code was written for
    another release of ``product``, the other candidate beside the library's release
    (companion-mismatch). Nothing installs blind: which release fits is in the library's
    requirements, not in the log."""
    return Fix(
        f"The installed {product} refuses what the code asks ({asked}): that code was "
        f"written for another release of {product}. Read which release {dist}'s "
        "requirements name and install that TensorFlow (and Keras) in a fresh virtual "
        f"environment, or {dist}'s release made for the installed one.",
        m.pip(f"show tensorflow keras {dist}"),
    )


def changed_in_library_fix(
    dist: str,
    path: str,
    product: str,
    since: Optional[str],
    edit: Fix,
    release: Fix,
    before: Optional[tuple[str, str, str]] = None,
) -> Fix:
    """A call whose behaviour ``product`` changed in ``since`` (``edit``: how code adapts the
    call, the fix for the user's own code), made by the code of the installed package ``dist``
    (its file ``path``): ``release``, that package's release made for the installed
    ``product``, or ``product`` before ``since``, the line the package was written for. Never
    an edit of its file: pip's next install of the package undoes it. ``before``: where the
    running Python has no wheel of the last line before ``since``, that line, the running
    Python and the newest Python the line serves (the matrix's), so the environment kept
    for it gets a Python the line installs on."""
    python = (
        f" with Python {before[2]} or older, as {product} {before[0]} has no wheel for Python "
        f"{before[1]}"
        if before is not None
        else ""
    )
    back = (
        f" Or keep {product} before {since} (`{product}<{since}`), whose behaviour this "
        f"{dist} release was written for, in an environment of its own{python}."
        if since
        else ""
    )
    return Fix(
        f"The call is {dist}'s own code ({path}), not yours: an edit of that file is undone "
        f"by the next install of {dist}. {release.text}{back} What changed, and what code "
        f"made for it does (your own code too, where it builds what it hands {dist}): "
        f"{edit.text}",
        release.commands,
    )


def dependency_too_old_fix(m: Machine, signature: str) -> Fix:
    """A library older than the release that added what the code relies on (the module
    table's ``added_to_distribution`` row of the ``signature`` whose words showed it)."""
    row = modules().added_to_dist[signature]
    instead = f", or {row.instead}" if row.instead else ""
    if row.dist == "jax":
        return jax_floor_fix(
            m,
            row.added_in,
            f"jax {row.added_in} added what the code relies on ({row.what}), and the "
            f"installed jax is older{instead}.",
        )
    return Fix(
        f"{row.dist} {row.added_in} added what the code relies on ({row.what}), and the "
        f"installed {row.dist} is older: upgrade {row.dist} to {row.added_in} or later"
        f"{instead}.",
        m.install(f"{row.dist}>={row.added_in}"),
    )


def checkout_dependency_fix(
    m: Machine, dist: Optional[str], user: str, version: Optional[str]
) -> Fix:
    """A source checkout of ``user`` asking the installed ``dist`` for what it lacks (``dist``
    None where the log does not show which module is asked: Python 2's words in a zipped
    egg's frame; ``version`` the release the log shows installed): the ``dist`` the
    checkout's requirements name, most likely a newer one, and how to tell the two
    directions apart."""
    if dist is None:
        return Fix(
            f"The source of {user} is newer code than a package it uses. Install what "
            f"{user}'s requirements (its setup.py, requirements.txt or README) name for it, "
            "from its repository where they name a development version; the line the "
            "traceback points at names the module it asks, and `pip check` names a "
            f"requirement of {user}'s that an installed release is outside.",
            (*m.pip("check"),),
        )
    installed = (
        f"{dist} {version} is installed"
        if version
        else f"`pip show {dist}` shows the installed release"
    )
    return Fix(
        f"The source checkout of {user} is newer code than the {dist} release installed: "
        f"install the {dist} its requirements (its setup.py, requirements.txt or README) "
        f"name, from {dist}'s repository where they name a development version, or "
        f"`pip install --upgrade {dist}`. {installed}: where it is newer than the release "
        f"the checkout names, {dist} removed the name since, and that release is the one to "
        f"install instead (or a {user} release made for the installed {dist}).",
        (*m.pip(f"show {dist}"),),
    )


#: R packages number a development version with a fourth component of 9000 and up
#: (0.7.0.9017), which only the package's development repository serves, never CRAN
#: (https://r-pkgs.org/lifecycle.html, "Version number").
R_DEVELOPMENT_FROM = 9000


def r_package_too_old_fix(package: str, loaded: Optional[str], required: Optional[str]) -> Fix:
    """An R package (``package``, ``loaded`` installed) older than the ``required`` release a
    package R loads asks for: CRAN's release, or the development repository's where the
    requirement is a development version CRAN does not serve."""
    need = f" {required}, the release" if required else " the release"
    have = f" (installed: {loaded})" if loaded else ""
    parts = re.split(r"[.-]", required) if required else []  # R takes either separator
    development = len(parts) >= 4 and parts[3].isdigit() and int(parts[3]) >= R_DEVELOPMENT_FROM
    commands: tuple[str, ...] = (f'install.packages("{package}")',)
    text = (
        f"R's {package}{have} is older than{need} a package being loaded requires: "
        f"install a newer {package} in R, then restart the R session (a loaded namespace stays "
        "until then) and load the package again."
    )
    if development:
        text += (
            f" {required} is a development version (numbered 9000 and up), and CRAN serves "
            f"released versions only: install {package} from its development repository, "
            "which its DESCRIPTION's URL field names (the second command prints it), e.g. "
            "with remotes::install_github(), or use the released version of the package that "
            "requires it."
        )
        commands = (*commands, f'packageDescription("{package}")$URL')
    return Fix(text, commands)


#: The first release whose Tile kernel handles any rank. Read from the wheels' symbols:
#: TileOp::HandleCase<DT, NDIM> goes up to NDIM 6 in tensorflow 1.0.0's _pywrap_tensorflow.so
#: and to 7 in 1.1.0's and 1.2.1's _pywrap_tensorflow_internal.so; 1.3.0's (tensorflow's, and
#: tensorflow-gpu's for the GpuDevice) is TileOp::HandleCase<DT> over functor::Tile, which
#: falls back to internal::TileSimple for any rank.
TILE_ANY_RANK_SINCE = "1.3"


def tile_rank_fix(m: Machine, rank: str = "") -> Fix:
    """A Tile kernel of an early release refusing a rank above 5 (``rank``, where the log's
    words give it): the code was written for a release whose Tile handles any rank (1.3 on).
    Which earlier release first took a rank of 6 or 7 differs by rank, so only the release
    that takes every rank is named."""
    shown = f" (this one has {rank} dimensions)" if rank else ""
    return tf_too_old_fix(m, f"tf.tile on a tensor of any rank{shown}", TILE_ANY_RANK_SINCE)


#: The first release that converts static shape values (tf.Dimension, what x.get_shape()[i]
#: gives in TensorFlow 1) in a list given as an integer input. Read from the wheels' sources:
#: tensorflow 1.4.0's tensor_util.py _FilterInt accepts compat.integral_types and
#: tensor_shape.Dimension, 1.3.0's integral types only, so 1.3 falls back to a conversion
#: without a dtype, which refuses the Dimension objects ("Failed to convert object of type").
DIMENSION_LIST_SINCE = "1.4"


def dimension_list_fix(m: Machine) -> Fix:
    """Dimension values in a list an early release refuses as an integer input: the code was
    written for 1.4 on; casting each value works on every release."""
    cast = (
        "On any release, writing each static size as an int (d.value, or int(d)) also makes "
        "the list convert."
    )
    if m.tf is not None and version_key(m.tf.version)[:2] >= version_key(DIMENSION_LIST_SINCE):
        # The installed release converts them where the input is an integer: this one is not.
        return Fix(
            f"TensorFlow {m.tf.version} converts Dimension values only where the op's input is "
            f"an integer, and this one takes none: {cast[0].lower()}{cast[1:]}",
            (),
        )
    fix = tf_too_old_fix(
        m,
        "static shape values (Dimension, what x.get_shape()[i] gives) in a list given as an "
        "integer input (tf.tile's multiples, tf.reshape's shape)",
        DIMENSION_LIST_SINCE,
    )
    return Fix(f"{fix.text} {cast}", fix.commands)


#: The first release whose tf.variable_scope takes (name_or_scope, default_name, values, ...):
#: TensorFlow's RELEASE.md, "Release 0.11.0" (the argument order it calls new).
VARIABLE_SCOPE_VALUES_SINCE = "0.11"


def variable_scope_fix(m: Machine) -> Fix:
    """tf.variable_scope of an early release refusing default_name and values: the code was
    written for a release whose variable_scope takes them (0.11 on)."""
    # TensorFlow's RELEASE.md, Release 0.11.0: "Deprecated `tf.op_scope` and
    # `tf.variable_op_scope` in favor of a unified `tf.name_scope` and `tf.variable_scope`. The
    # new argument order of `tf.variable_scope` is incompatible with previous versions."
    return tf_too_old_fix(
        m,
        "the signature of tf.variable_scope the code calls (name_or_scope, default_name, "
        "values, ..., reuse)",
        VARIABLE_SCOPE_VALUES_SINCE,
    )


def keras2_layout_fix(m: Machine, module: str) -> Fix:
    """Code (or a pickled object) naming Keras 2's own module under Keras 3: the same module
    of tf-keras, Keras 3's public API, or the Keras 2 release that has it."""
    # TF_USE_LEGACY_KERAS switches what tf.keras is, never what `import keras` finds: code
    # that names keras.engine or keras.src.engine itself needs tf-keras' copy of the module
    # (its wheel keeps Keras 2's tree under tf_keras/src/, as keras 2.13-2.15 did under
    # keras/src/) or another import.
    if module.startswith("keras.api."):
        # Keras 2's public tree: tf-keras serves it as the package itself.
        there = "tf_keras"
    else:
        there = "tf_keras.src." + (
            module.split(".", 2)[2] if module.startswith("keras.src.") else module[6:]
        )
    which = "tf-keras" if m.tf_keras_spec is not None else TF_KERAS_OF_MINOR
    # Keras 2.13 to 2.15 moved Keras 2's modules under keras/src/ (keras-team/keras v2.13.1:
    # pip_build.py): a module of 2.12's layout is missing from them too.
    also = "" if module.startswith(("keras.src.", "keras.api.")) else " (nor do 2.13-2.15)"
    return Fix(
        f"`{module}` is Keras 2's own module; Keras 3 has none{also}, and "
        "TF_USE_LEGACY_KERAS changes only what tf.keras is, not `import keras`. Import the "
        f"module from tf-keras instead (`{there}`), with {which} installed and "
        "TF_USE_LEGACY_KERAS=1, or use Keras 3's public names (keras.Model, keras.layers, "
        "keras.utils); a pickled object, or a package release, that names it loads with the "
        "Keras 2 it was written with.",
        keras3_fix(m).commands,
    )


def keras212_layout_fix(m: Machine, module: str) -> Fix:
    """Code importing Keras 2.12's module layout (``keras.engine``) beside Keras 2.13-2.15,
    which keep it under keras.src: the installed release's import, or the Keras the code was
    written for."""
    there = "keras.src." + module.split(".", 1)[1]
    return Fix(
        f"Keras 2.13 to 2.15 keep `{module}` as `{there}`, a private module: import it "
        "from there for the installed release (or use the public names, keras.Model and "
        "keras.layers), or run the code with TensorFlow 2.12 or older and the Keras of that "
        "line, the release it was written for, in an environment of its own.",
        # Only where the log shows a Python that TensorFlow 2.12 has wheels for.
        m.install("tensorflow<2.13", "keras<2.13")
        if _line_serves(m, "2.12")
        else m.pip("show tensorflow keras"),
    )


def keras_path_not_zip_fix(m: Machine) -> Fix:
    """Keras 3 given a `.keras` path that is no zip archive: check the path, and read an
    HDF5 model Keras 2 saved under that name as `.h5` (or with tf-keras)."""
    return Fix(
        "Keras 3 reads a `.keras` path only as the zip archive Keras 2.13 and later and Keras 3 "
        "write. Check that the path exists from where the program runs; if it does, the file "
        "is likely an HDF5 model that Keras 2.12 or older saved under that name (they wrote "
        "`.keras` as HDF5): give Keras 3 a copy named `.h5`, which it reads as a legacy H5 "
        "model, or load it with tf-keras and TF_USE_LEGACY_KERAS=1. A directory there is a "
        "SavedModel, which Keras 3 opens only for inference, as keras.layers.TFSMLayer(path, "
        "call_endpoint='serving_default').",
        (
            list_file_command("MODEL.keras", m.os),
            "python -c \"import h5py; print(h5py.is_hdf5('MODEL.keras'))\"",
            # cmd's and PowerShell's copy (Copy-Item's alias) for cp on Windows.
            "copy MODEL.keras MODEL.h5" if m.os == "windows" else "cp MODEL.keras MODEL.h5",
        ),
    )


def keras3_weights_missing_fix(m: Machine) -> Fix:
    """Keras 3 given a `.keras` archive, or a folder with a config.json, holding no Keras 3
    weights file (model.weights.h5 or .npz): list what is there first; a Keras 2 model's
    files (saved_model.pb, variables/, an HDF5 file) load with Keras 2, a Keras 3 model whose
    weights are missing needs them fetched again."""
    legacy = keras3_fix(m).commands
    last = _last_keras2_release(m)
    older = f", or {last}" if last else ""
    return Fix(
        "Keras 3 loads a `.keras` archive, or a folder holding a config.json, with its weights "
        "in model.weights.h5 (or .npz), and found none. List what the archive or folder holds "
        "(the first two commands). A SavedModel (saved_model.pb, variables/) or an HDF5 model "
        "there was written by Keras 2 or another tool: load it with Keras 2, tf-keras and "
        f"TF_USE_LEGACY_KERAS=1 (the last commands){older}; Keras 3 opens a "
        "SavedModel only for inference (keras.layers.TFSMLayer). A Keras 3 model without the "
        "file lost it on the way (a download cut short, a copy that skipped it): fetch it again.",
        (
            "python -m zipfile -l MODEL.keras",
            list_file_command("MODEL_FOLDER", m.os),
            *legacy,
        ),
    )


def keras2_model_fix(m: Machine) -> Fix:
    """A model file Keras 2 wrote, loaded by Keras 3: load it with tf-keras (Keras 2), or
    save it again as `.keras` where it loads, for Keras 3."""
    commands = keras3_fix(m).commands
    which = "tf-keras" if m.tf_keras_spec is not None else TF_KERAS_OF_MINOR
    return Fix(
        f"The model file was written by Keras 2, whose classes Keras 3 does not find: load it "
        f"with {which} and TF_USE_LEGACY_KERAS=1 (or `tf_keras.models.load_model`), or load it "
        "once with TensorFlow 2.15 or tf-keras and save it as `.keras` for Keras 3.",
        commands,
    )


def keras3_positional_fix(m: Machine) -> Fix:
    """Keras 2 code handing a layer a non-tensor argument positionally under Keras 3, whose
    layers take only tensors so (keras/src/layers/layer.py): pass it by keyword, or Keras 2."""
    legacy = keras3_fix(m)
    return Fix(
        "Keras 3 layers take only tensors positionally: pass every other argument of the layer "
        "call by its keyword, as the message names it (`layer(x, training=True)`, not "
        "`layer(x, True)`; `mask=`, or the name in the layer's call() signature). Else: "
        + legacy.text[0].lower()
        + legacy.text[1:],
        legacy.commands,
    )


def keras2_weights_fix(m: Machine) -> Fix:
    """A `.keras` file whose weights Keras 3 finds laid out otherwise than its layers: a file
    Keras 2.13-2.15 wrote (metadata.json records which Keras did), loaded with tf-keras, or
    moved to Keras 3 through legacy H5 weights, which Keras 3 reads
    (keras/src/saving/saving_api.py, load_weights); the same Keras: a layer that builds other
    variables than when it was saved."""
    return Fix(
        "Read the Keras that wrote the file (metadata.json's keras_version; the first command "
        "prints it). A Keras 2 file loads with tf-keras and TF_USE_LEGACY_KERAS=1; for Keras 3, "
        "load it there once, save its weights with model.save_weights('MODEL.h5') and load them "
        "into the model built by the Keras 3 code (Keras 3 reads legacy H5 weights). Where "
        "this Keras wrote the file, the layer builds other variables than when it was saved: "
        "create a custom layer's weights in build(), and build the model before saving it.",
        (KERAS_FILE_METADATA, *keras3_fix(m).commands),
    )


def optimizer_build_fix() -> Fix:
    """Build the new optimizer with every variable it will update, or keep the old one."""
    return Fix(
        "From TensorFlow 2.11 the Keras optimizer creates its state for the variables it is "
        "built with, at its first update: call optimizer.build(model.trainable_variables) (the "
        "full list, every part the loop updates) before the training loop, use one optimizer "
        "per part, or use tf.keras.optimizers.legacy.<Name> (TensorFlow 2.11 to 2.15), the "
        "optimizer the code was written for."
    )


def keras_tensors_fix(m: Machine) -> Fix:
    """Functional-model code written before KerasTensors (TensorFlow 2.4): wrap its TensorFlow
    calls in Lambda layers, or run it with the TensorFlow it was written for."""
    return Fix(
        "From TensorFlow 2.4 a functional model is built from KerasTensors, symbolic "
        "placeholders that refuse len(), asserts and TensorFlow calls that do not dispatch on "
        "them; the code was written for TensorFlow 2.3 or older. Wrap each such call on a "
        "model's inputs in a layer (tf.keras.layers.Lambda(lambda x: ...)(inputs)), or run the "
        "code with TensorFlow before 2.4 (in an environment of Python 3.8 or older, the last "
        "that TensorFlow 2.3 supports).",
        # The install only where the log shows a Python that TensorFlow 2.3 publishes wheels
        # for (the matrix's line): on another the install would find nothing.
        m.pip_install("tensorflow<2.4") if _line_serves(m, "2.3") else (),
    )


def _line_serves(m: Machine, line: str) -> bool:
    """Whether the log shows a Python that TensorFlow ``line`` publishes wheels for (the
    matrix); False where the Python or the line is unknown."""
    found = m.matrix.line_for(line) if m.matrix is not None else None
    return found is not None and m.line_fits(found, "", unknown=False)


#: The newest Python NumPy 1.16's wheels serve: its files on PyPI stop at cp37
#: (https://pypi.org/project/numpy/1.16.2/#files). NumPy is not in the matrix, so its bound
#: lives here.
_NUMPY_116_NEWEST_PYTHON: Final = (3, 7)


def numpy_allow_pickle_fix(m: Machine) -> Fix:
    """np.load of a file that holds object arrays under NumPy 1.16.3 and later: pass
    allow_pickle=True where the file is trusted, or keep NumPy below 1.16.3."""
    # NumPy 1.16.3 turned np.load's allow_pickle default to False (its release notes,
    # CVE-2019-6446).
    return Fix(
        "From NumPy 1.16.3 np.load refuses the pickled object arrays a .npy/.npz file holds "
        "unless asked (its allow_pickle default became False); the code was written for the "
        "old default. Where the file is trusted, load it with np.load(path, allow_pickle=True) "
        "(the call the traceback ends in), or keep NumPy below 1.16.3 for that code where the "
        "environment allows it (NumPy 1.16 has wheels up to Python 3.7, and TensorFlow 2.4 and "
        "later require a later NumPy).",
        # The pin is given only where the log shows a TensorFlow 1 on a Python NumPy 1.16's
        # wheels serve, the environments those wheels and TensorFlow's NumPy range both admit.
        m.install("numpy<1.16.3")
        if (
            m.python_version
            and version_key(m.python_version)[:2] <= _NUMPY_116_NEWEST_PYTHON
            and m.tf is not None
            and version_key(m.tf.version)[:1] == (1,)
        )
        else (),
    )


def numpy2_copy_fix(m: Machine) -> Fix:
    """np.array(obj, copy=False) under NumPy 2: NumPy 1, or code (or its library's release)
    that asks for a copy only where needed."""
    # NumPy 2.0's migration guide: copy=False now means "never copy"; np.asarray(obj) (or
    # copy=None) is NumPy 1's copy=False.
    return Fix(
        "The code (or a library it loads, named in the traceback) was written for NumPy 1: "
        "under NumPy 2 np.array(obj, copy=False) refuses to copy. Install NumPy 1 (numpy<2) in "
        "this environment, or a release of that library that supports NumPy 2; in code of your "
        "own replace np.array(obj, copy=False) with np.asarray(obj).",
        m.install("numpy<2"),
    )


#: Where TensorFlow 2 made a TensorShape's sizes plain ints: tensor_shape.py's V2 behaviour
#: (enable_v2_tensorshape, on by default from 2.0; tf.compat.v1.disable_v2_tensorshape keeps
#: TensorFlow 1's Dimension objects) and the migration guide's TensorShape section.
SHAPE_VALUE_SOURCES: Final = (
    "https://github.com/tensorflow/tensorflow/blob/v2.0.0/tensorflow/python/framework/tensor_shape.py",
    "https://www.tensorflow.org/guide/migrate/migrate_tf2",
)


def shape_value_fix() -> Fix:
    """TensorFlow 1's ``x.shape[i].value`` under TensorFlow 2, whose TensorShape gives ints."""
    return Fix(
        "TensorFlow 2 gives a TensorShape's sizes as int (None where unknown), not TensorFlow "
        "1's Dimension objects, which had .value: write x.shape[i] for x.shape[i].value "
        "(tf.compat.dimension_value(x.shape[i]) reads both), or call "
        "tf.compat.v1.disable_v2_tensorshape() at the start of the program to keep TensorFlow "
        "1's Dimension objects.",
        (),
    )
