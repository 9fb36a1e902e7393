"""One installed package's code meeting another package's release that lacks what it uses,
read from the shape of the exception and whose frames the traceback shows: a third-party
package lacking what an installed package asks is dependency-api-removed (both ways out
named, the installed release's line pinned only where the log shows it); TensorFlow refusing
a companion's positional arguments is companion-mismatch. The user's own code, objects whose
owner nothing shows, a package's own frames and decorator frames are left alone."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Optional

import pytest

import tfdoctor.explain
from tests import factories as f
from tests.explaining import explained, fix_text
from tfdoctor.explain.modules import TF_OWN
from tfdoctor.findings import Finding, Report, Severity

_SITE = "/home/u/.venv/lib/python3.11/site-packages"
_DIST = "/usr/local/lib/python3.10/dist-packages"


def _frames(*frames: tuple[str, str, str], error: str) -> str:
    """A traceback from the user's script through ``frames`` (path, function, source line),
    innermost last, ending in ``error``."""
    lines = [
        "Traceback (most recent call last):",
        '  File "/home/u/proj/run.py", line 7, in <module>',
        "    main()",
    ]
    for number, (path, function, code) in enumerate(frames, start=10):
        lines += [f'  File "{path}", line {number}, in {function}', f"    {code}"]
    return "\n".join((*lines, error, ""))


def _named(report: Report, cause: str) -> Optional[Finding]:
    return next((x for x in report.findings if x.cause == cause), None)


def _dependency(report: Report) -> Finding:
    found = _named(report, "dependency-api-removed")
    assert found is not None, [(x.id, x.severity.value) for x in report.findings]
    return found


# --- a module's missing name, asked by another installed package -------------------------------

_JAX_LACKS = "AttributeError: module 'jax.interpreters.xla' has no attribute 'xla_call'"


def test_a_companion_asking_a_third_party_module_for_a_name_it_lacks() -> None:
    report = explained(
        _frames(
            (
                f"{_SITE}/tensorflow_probability/python/internal/backend/jax/ops.py",
                "<module>",
                "jax.interpreters.xla.xla_call(fn, *args)",
            ),
            error=_JAX_LACKS,
        )
    )
    found = _dependency(report)
    assert found.severity is Severity.ERROR
    assert "tensorflow-probability" in found.summary and "jax" in found.summary
    fix = fix_text(found)
    # Both ways out: the jax release it was written for, or its own release for this jax.
    assert "pip show tensorflow-probability jax" in fix
    assert "pip install --upgrade jax" in fix and "release of tensorflow-probability" in fix
    # No release is shown: no pin is made up.
    assert "jax<" not in fix
    assert _named(report, "unexplained-exception") is None


def test_the_installed_release_shown_names_the_line_below_it_without_running_it() -> None:
    facts = f.facts(packages=f.packages(f.pkg("jax", "0.4.30"), f.pkg("evalkit", "1.2.0")))
    report = explained(
        _frames(
            (f"{_SITE}/evalkit/core.py", "run", "return jax.interpreters.xla.xla_call"),
            error=_JAX_LACKS,
        ),
        facts=facts,
    )
    found = _dependency(report)
    assert found.fix is not None
    assert '"jax<0.4"' in found.fix.text and "jax 0.4.30 is installed" in found.fix.text
    # Which way the release moved is not shown: the pin is said, not run.
    assert not any("jax<" in c for c in found.fix.commands)
    assert any(c.endswith("pip check") for c in found.fix.commands)


def test_a_name_a_module_no_longer_exports_imported_by_a_library() -> None:
    report = explained(
        _frames(
            # A name the module table has no row for (its scipy.misc row answers imresize
            # with the release: test_explain_library_releases.py).
            (
                f"{_DIST}/evalkit/__init__.py",
                "<module>",
                "from skimage.measure import compare_ssim",
            ),
            error=(
                "ImportError: cannot import name 'compare_ssim' from 'skimage.measure' "
                f"({_DIST}/skimage/measure/__init__.py)"
            ),
        )
    )
    found = _dependency(report)
    assert found.severity is Severity.ERROR
    assert "compare_ssim from skimage.measure" in found.summary and "evalkit" in found.summary


def test_a_submodule_missing_from_an_imported_package() -> None:
    report = explained(
        _frames(
            (f"{_DIST}/evalkit/__init__.py", "<module>", "import jax.experimental.maps"),
            error="ModuleNotFoundError: No module named 'jax.experimental.maps'",
        )
    )
    found = _dependency(report)
    assert found.severity is Severity.WARNING
    assert "jax.experimental.maps" in found.summary


def test_a_modules_own_lazy_getattr_frame_is_the_callee() -> None:
    report = explained(
        _frames(
            (f"{_SITE}/evalkit/ops.py", "<module>", "call = xla.xla_call"),
            (f"{_SITE}/jax/_src/deprecations.py", "__getattr__", "raise AttributeError(msg)"),
            error=_JAX_LACKS,
        )
    )
    assert "evalkit" in _dependency(report).summary


# --- the user's own import of what a library's installed release lacks -------------------------


def test_the_users_import_of_a_name_a_library_no_longer_exports() -> None:
    report = explained(
        _frames(
            # A name the module table has no row for (scikit-learn 0.24 removed it; the table's rows
            # are sklearn.externals' joblib and the metrics' plot functions).
            ("/home/u/proj/persist.py", "<module>", "from sklearn.utils import safe_indexing"),
            error=(
                "ImportError: cannot import name 'safe_indexing' from 'sklearn.utils' "
                f"({_SITE}/sklearn/utils/__init__.py)"
            ),
        )
    )
    found = _dependency(report)
    # The code's release is not shown: a warning, both ways out named, none run blindly.
    assert found.severity is Severity.WARNING
    assert "scikit-learn" in found.summary and "safe_indexing from sklearn.utils" in found.summary
    assert found.fix is not None and found.fix.commands == ("pip show scikit-learn",)
    assert "port the code" in found.fix.text and "--upgrade scikit-learn" in found.fix.text


def test_a_submodule_a_library_lacks_without_frames_names_the_library() -> None:
    # Python imports a dotted name's parents first: sklearn.utils imported.
    found = _dependency(
        explained("ModuleNotFoundError: No module named 'sklearn.utils.linear_assignment_'\n")
    )
    assert found.severity is Severity.WARNING and "scikit-learn" in found.summary


def test_the_installed_release_shown_is_named_in_the_users_fix() -> None:
    facts = f.facts(packages=f.packages(f.pkg("scikit-learn", "1.2.2")))
    report = explained(
        _frames(
            ("/home/u/proj/persist.py", "<module>", "from sklearn.utils import safe_indexing"),
            error="ImportError: cannot import name 'safe_indexing' from 'sklearn.utils'",
        ),
        facts=facts,
    )
    found = _dependency(report)
    assert found.fix is not None and '"scikit-learn<1.2"' in found.fix.text
    assert "scikit-learn 1.2.2 is installed" in found.fix.text


def test_an_import_error_a_library_wrapped_in_its_own_exception_is_read() -> None:
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/tests/conftest.py", line 83, in <module>\n'
        "    backend = kit.tensor.tensorflow_backend()\n"
        f'  File "{_SITE}/kit/tensor/__init__.py", line 44, in __getattr__\n'
        "    raise exceptions.ImportBackendError(msg, e)\n"
        "kit.exceptions.ImportBackendError: ('There was a problem importing TensorFlow.', "
        "ImportError(\"cannot import name 'safe_indexing' from 'sklearn.utils' "
        f'({_SITE}/sklearn/utils/__init__.py)"))\n'
    )
    found = _dependency(report)
    assert found.severity is Severity.WARNING and "scikit-learn" in found.summary
    assert "It wraps an import error" in found.detail


@pytest.mark.parametrize(
    "text",
    [
        # A library the module table does not know may be a folder of the user's own.
        _frames(
            ("/home/u/proj/run2.py", "<module>", "from mytools.io import reader"),
            error="ModuleNotFoundError: No module named 'mytools.io'",
        ),
        # TensorFlow's family and its own modules have their own readings.
        _frames(
            ("/home/u/proj/run2.py", "<module>", "import tensorflow_hub.keras_layer"),
            error="ModuleNotFoundError: No module named 'tensorflow_hub.keras_layer'",
        ),
        # A private submodule is an install's or a build's.
        "ModuleNotFoundError: No module named 'sklearn.utils._cython_blas'\n",
        # So is a module below a private package.
        "ModuleNotFoundError: No module named 'pandas._libs.tslibs.base'\n",
        # A file of the user's named like the package took its place.
        _frames(
            ("/home/u/proj/sklearn/__init__.py", "<module>", "from sklearn.externals import six"),
            error="ImportError: cannot import name 'six' from 'sklearn.externals'",
        ),
        # A clone of the package's repository on the path: Python imported that copy.
        _frames(
            ("/home/u/models/official/vision/train.py", "<module>", "from official import vision"),
            (
                "/home/u/models/official/vision/__init__.py",
                "<module>",
                "from official.vision.beta import configs",
            ),
            error="ModuleNotFoundError: No module named 'official.vision.beta'",
        ),
    ],
    ids=[
        "unknown-package",
        "family",
        "private-submodule",
        "below-a-private-package",
        "users-file",
        "users-copy",
    ],
)
def test_near_misses_of_the_users_own_import(text: str) -> None:
    found = _named(explained(text), "dependency-api-removed")
    assert found is None or "The code was written for another" not in found.summary


# --- a call's refused arguments and an object's missing field ----------------------------------


def test_a_keyword_refused_by_a_function_the_line_calls_by_its_package() -> None:
    report = explained(
        _frames(
            (
                f"{_SITE}/evalkit/core.py",
                "run",
                'return jax.numpy.take(x, idx, mode="fill", fill_value=0)',
            ),
            error="TypeError: take() got an unexpected keyword argument 'fill_value'",
        )
    )
    found = _dependency(report)
    assert found.severity is Severity.WARNING
    assert "fill_value" in found.summary and "jax" in found.summary


@pytest.mark.parametrize(
    "error",
    [
        # Python 3.10+ qualifies a method by its class; Python 2 words a count "at least".
        pytest.param(
            "TypeError: Array.take() got an unexpected keyword argument 'fill_value'",
            id="python-3.10-qualified",
        ),
        pytest.param("TypeError: take() takes at least 2 arguments (1 given)", id="python-2"),
    ],
)
def test_pythons_refused_call_words_are_read_by_the_one_reader(error: str) -> None:
    # evidence.refusals reads Python's words of a refused call for every reading.
    report = explained(
        _frames(
            (f"{_SITE}/evalkit/core.py", "run", "return jax.numpy.take(x, fill_value=0)"),
            error=error,
        )
    )
    found = _dependency(report)
    assert "jax" in found.summary and "take()" in found.summary


def test_an_object_field_of_a_class_the_line_takes_from_its_package() -> None:
    report = explained(
        _frames(
            # A field the module table has no row for (its pandas rows answer .ix and as_matrix
            # with the release: test_explain_library_releases.py).
            (f"{_SITE}/evalkit/summary.py", "collect", "out = pandas.DataFrame(rows).to_panel()"),
            (
                f"{_SITE}/pandas/core/generic.py",
                "__getattr__",
                "return object.__getattribute__(self, name)",
            ),
            error="AttributeError: 'DataFrame' object has no attribute 'to_panel'",
        )
    )
    found = _dependency(report)
    assert found.severity is Severity.WARNING
    assert "pandas" in found.summary and "evalkit" in found.summary


def test_the_fix_names_what_tells_the_declared_range() -> None:
    # `pip show` lists the names a package requires, not their ranges: `pip check` names a
    # declared range the installed release is outside.
    for dist in ("jax", "torch"):
        fix = fix_text(
            _dependency(
                explained(
                    _frames(
                        (f"{_SITE}/evalkit/core.py", "run", f"return {dist}.interpreters.xla.t"),
                        error=f"AttributeError: module '{dist}.interpreters' has no attribute 't'",
                    )
                )
            )
        )
        assert "lists the range" not in fix and "lists the releases it requires" not in fix
        assert "pip check" in fix.splitlines()


def test_tensorflow_refusing_a_companions_positional_arguments() -> None:
    report = explained(
        _frames(
            (f"{_DIST}/sonnet/src/nets/mlp.py", "__init__", "super().__init__(name, dims)"),
            (
                f"{_DIST}/tensorflow/python/util/deprecation.py",
                "new_func",
                "return func(*args, **kwargs)",
            ),
            error="TypeError: __init__() takes 2 positional arguments but 3 were given",
        )
    )
    found = _named(report, "companion-mismatch")
    assert found is not None, [(x.id, x.severity.value) for x in report.findings]
    assert found.severity is Severity.WARNING
    assert "dm-sonnet" in found.summary and "3 positional arguments" in found.summary
    assert "dm-sonnet" in fix_text(found)
    assert _named(report, "dependency-api-removed") is None


_MISSING_MAX_VAL = "TypeError: psnr() missing 1 required positional argument: 'max_val'"


@pytest.mark.parametrize(
    ("caller", "code", "read"),
    [
        (f"{_DIST}/evalkit/metrics.py", "return tf.image.psnr(a, b)", True),
        # A call not made through tf. (whose function it is, is not shown), the user's own.
        (f"{_DIST}/evalkit/metrics.py", "return helper.psnr(a, b)", False),
        ("/home/user/proj/metrics.py", "return tf.image.psnr(a, b)", False),
    ],
)
def test_tensorflow_missing_arguments_a_companions_call_did_not_give(
    caller: str, code: str, read: bool
) -> None:
    report = explained(_frames((caller, "score", code), error=_MISSING_MAX_VAL))
    found = _named(report, "companion-mismatch")
    assert (found is not None) is read
    if found is not None:
        assert found.severity is Severity.WARNING
        assert "evalkit" in found.summary and "requires 'max_val'" in found.summary
        assert "evalkit" in fix_text(found)


# --- Python 2's words ----------------------------------------------------------------------------

_PY2 = "/usr/local/lib/python2.7/dist-packages"


def test_python_2s_unnamed_module_read_from_the_companions_line() -> None:
    report = explained(
        _frames(
            (f"{_PY2}/magenta/models/shared/graph.py", "build", "cell = tf.nn.rnn_cell.GRUCell(n)"),
            error="AttributeError: 'module' object has no attribute 'rnn_cell'",
        )
    )
    found = _named(report, "companion-mismatch")
    assert found is not None, [(x.id, x.severity.value) for x in report.findings]
    assert found.severity is Severity.ERROR
    assert "magenta" in found.summary and "rnn_cell" in found.summary
    assert "magenta" in fix_text(found)


def test_python_2s_unnamed_module_of_a_third_party_package() -> None:
    report = explained(
        _frames(
            (f"{_PY2}/evalkit/images.py", "resize", "return scipy.misc.imresize(x, 2)"),
            error="AttributeError: 'module' object has no attribute 'imresize'",
        )
    )
    found = _dependency(report)
    assert "scipy" in found.summary and "evalkit" in found.summary


def test_python_2s_count_of_arguments_through_a_tensorflow_wrapper() -> None:
    # Python 2 counts keyword arguments in "(5 given)" too (ceval.c: argcount + kwcount).
    report = explained(
        _frames(
            (f"{_PY2}/evalkit/layers.py", "build", "out = tf.nn.conv2d(x, w, s, p, f)"),
            (
                f"{_PY2}/tensorflow/python/util/deprecation.py",
                "new_func",
                "return func(*args, **kwargs)",
            ),
            error="TypeError: conv2d() takes at most 4 arguments (5 given)",
        )
    )
    found = _named(report, "companion-mismatch")
    assert found is not None, [(x.id, x.severity.value) for x in report.findings]
    assert "given 5 arguments" in found.summary and "evalkit" in found.summary


def test_a_private_tensorflow_name_in_python_2s_words_is_not_read_as_a_release() -> None:
    report = explained(
        _frames(
            (f"{_PY2}/evalkit/misc_io.py", "set_logger", "tf.logging._logger.handlers = []"),
            error="AttributeError: 'module' object has no attribute '_logger'",
        )
    )
    assert not any("asks tf. for" in x.summary for x in report.findings)


# --- near misses: the same words elsewhere -----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # The user's own code asks the module: no package's release is shown.
        _frames(
            ("/home/u/proj/helper.py", "run", "return scipy.misc.imresize(x, 2)"),
            error="AttributeError: module 'scipy.misc' has no attribute 'imresize'",
        ),
        # A None where an object was expected is no release.
        _frames(
            (f"{_SITE}/evalkit/core.py", "run", "return self.model.predict(x)"),
            error="AttributeError: 'NoneType' object has no attribute 'predict'",
        ),
        # A package's __getattr__ looks names up in data, for classes of any package: torch's
        # Module the submodules of a subclass (here another package's), pandas' NDFrame its
        # columns, a config object its keys.
        _frames(
            (f"{_SITE}/peft/tuners/lora/model.py", "forward", "cos = self.model.rotary_emb(x)"),
            (f"{_SITE}/torch/nn/modules/module.py", "__getattr__", "raise AttributeError("),
            error="AttributeError: 'LlamaAttention' object has no attribute 'rotary_emb'",
        ),
        _frames(
            (f"{_SITE}/evalkit/report.py", "score", "return df.accuracy.mean()"),
            (
                f"{_SITE}/pandas/core/generic.py",
                "__getattr__",
                "return object.__getattribute__(self, name)",
            ),
            error="AttributeError: 'DataFrame' object has no attribute 'accuracy'",
        ),
        _frames(
            (f"{_SITE}/evalkit/train.py", "fit", "lr = cfg.lr"),
            (f"{_SITE}/easydict/__init__.py", "__getattr__", "return self[name]"),
            error="AttributeError: 'EasyDict' object has no attribute 'lr'",
        ),
        # Python found the module in a file of the user's named like the package.
        _frames(
            (f"{_SITE}/evalkit/__init__.py", "<module>", "from jax import numpy as jnp"),
            error="ImportError: cannot import name 'numpy' from 'jax' (/home/u/proj/jax.py)",
        ),
        _frames(
            (f"{_SITE}/evalkit/__init__.py", "<module>", "import jax.experimental.maps"),
            error="ModuleNotFoundError: No module named 'jax.experimental'; 'jax' is not a package",
        ),
        # Python's own modules change with Python's release, not a package's.
        _frames(
            (f"{_SITE}/evalkit/util.py", "<module>", "Mapping = collections.Mapping"),
            error="AttributeError: module 'collections' has no attribute 'Mapping'",
        ),
        _frames(
            (f"{_SITE}/evalkit/util.py", "<module>", "from inspect import getargspec"),
            error="ImportError: cannot import name 'getargspec' from 'inspect' "
            "(/usr/lib/python3.11/inspect.py)",
        ),
        # An object whose owner no frame or line shows.
        _frames(
            (f"{_DIST}/evalkit/tokenizer.py", "set_proto", "sp.Init(model_proto=proto)"),
            error="AttributeError: 'SentencePieceProcessor' object has no attribute 'Init'",
        ),
        # A keyword refused by a method of a variable: whose function is not shown.
        _frames(
            (f"{_SITE}/evalkit/core.py", "run", "return self.encoder.encode(x, add_bos=True)"),
            error="TypeError: encode() got an unexpected keyword argument 'add_bos'",
        ),
        # Another package's decorator frame may wrap the caller's own function.
        _frames(
            (f"{_SITE}/evalkit/core.py", "run", "return self.step(x, fast=True)"),
            (f"{_SITE}/wrapt/wrappers.py", "__call__", "return self._wrapped(*args, **kwargs)"),
            error="TypeError: step() got an unexpected keyword argument 'fast'",
        ),
        # The package's own frames raising about itself.
        _frames(
            (f"{_SITE}/jax/_src/interpreters/xla.py", "<module>", "xla_call = _xla_call"),
            error=_JAX_LACKS,
        ),
        # One distribution's two import packages (attrs installs attr and attrs): the
        # package's own files of two releases, not a release pairing.
        _frames(
            (f"{_SITE}/attrs/__init__.py", "<module>", "from attr import frozen"),
            error=(
                f"ImportError: cannot import name 'frozen' from 'attr' ({_SITE}/attr/__init__.py)"
            ),
        ),
        # A circular import, in Python's own words.
        _frames(
            (f"{_SITE}/evalkit/core.py", "<module>", "from jax import numpy"),
            error=(
                "ImportError: cannot import name 'numpy' from partially initialized module "
                "'jax' (most likely due to a circular import)"
            ),
        ),
        # Python 3.13's note on a file of the user's shadowing the package.
        _frames(
            (f"{_SITE}/evalkit/core.py", "run", "return jax.jit(f)"),
            error=(
                "AttributeError: module 'jax' has no attribute 'jit' (consider renaming "
                "'/home/u/proj/jax.py' if it has the same name as a library you intended "
                "to import)"
            ),
        ),
        # A namespace package (a directory without __init__.py): not the installed package.
        _frames(
            (f"{_SITE}/evalkit/io.py", "<module>", "from imageio import imread"),
            error="ImportError: cannot import name 'imread' from 'imageio' (unknown location)",
        ),
        # A private submodule, most often a compiled extension: an install, not a release.
        _frames(
            (f"{_SITE}/evalkit/ops.py", "<module>", "from jax import _jaxlib_ext"),
            (f"{_SITE}/evalkit/ops.py", "<module>", "import jax._jaxlib_ext"),
            error="ModuleNotFoundError: No module named 'jax._jaxlib_ext'",
        ),
        # A module the module table says its distribution removed: that reading's words.
        _frames(
            (f"{_SITE}/evalkit/images.py", "resize", "img.resize(size, Image.ANTIALIAS)"),
            error="AttributeError: module 'PIL.Image' has no attribute 'ANTIALIAS'",
        ),
        # TensorFlow's own code asking one of its requirements: the module readings' case.
        _frames(
            (f"{_SITE}/tensorflow/python/framework/dtypes.py", "<module>", "int4 = ml_dtypes.int4"),
            error="AttributeError: module 'ml_dtypes' has no attribute 'int4'",
        ),
    ],
    ids=[
        "user-code",
        "none-type",
        "torch-module-getattr",
        "pandas-column-getattr",
        "config-key-getattr",
        "users-file-found",
        "users-file-not-a-package",
        "stdlib-attribute",
        "stdlib-import",
        "owner-unshown",
        "variable-method",
        "decorator-frame",
        "own-frames",
        "one-distribution",
        "circular-import",
        "shadowing-file",
        "namespace-package",
        "private-submodule",
        "module-table",
        "tensorflow-requirement",
    ],
)
def test_near_misses_are_not_a_dependency_release(text: str) -> None:
    found = _named(explained(text), "dependency-api-removed")
    assert found is None or "was written for another" not in found.summary


def test_a_packages_fallback_import_above_the_failure_is_not_read() -> None:
    first = _frames(
        (f"{_SITE}/evalkit/io.py", "<module>", "from scipy.misc import imread"),
        error="ImportError: cannot import name 'imread' from 'scipy.misc'",
    )
    second = _frames(
        (f"{_SITE}/evalkit/io.py", "<module>", "from imageio import imread"),
        error="ModuleNotFoundError: No module named 'imageio'",
    )
    text = (
        f"{first}\nDuring handling of the above exception, another exception occurred:\n\n{second}"
    )
    assert _named(explained(text), "dependency-api-removed") is None


def test_a_wrapper_of_tensorflows_that_calls_the_users_function_is_no_companion() -> None:
    # tf.function and the traceback filter call the caller's own function: the refusal is
    # that function's, not TensorFlow's.
    report = explained(
        _frames(
            (f"{_SITE}/evalkit/train.py", "fit", "loss = step(x, y, w)"),
            (
                f"{_SITE}/tensorflow/python/util/traceback_utils.py",
                "error_handler",
                "return fn(*args, **kwargs)",
            ),
            error="TypeError: step() takes 2 positional arguments but 3 were given",
        )
    )
    assert _named(report, "companion-mismatch") is None


def test_tensorflow_refusing_the_users_own_positional_arguments_is_not_a_companion() -> None:
    report = explained(
        _frames(
            ("/home/u/proj/model.py", "__init__", "super().__init__(name, dims)"),
            (
                f"{_DIST}/tensorflow/python/util/deprecation.py",
                "new_func",
                "return func(*args, **kwargs)",
            ),
            error="TypeError: __init__() takes 2 positional arguments but 3 were given",
        )
    )
    assert _named(report, "companion-mismatch") is None


def test_tensorflows_own_packages_have_one_home() -> None:
    # Which import packages are TensorFlow's and its Keras' own is written once, in
    # explain.modules, and read by every reader of frames (dependencies, packages, api).
    explain = Path(tfdoctor.explain.__file__).parent
    homes = []
    for path in sorted(explain.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Set):
                words = {e.value for e in node.elts if isinstance(e, ast.Constant)}
                if {"tf_keras", "tensorboard"} <= words:
                    homes.append(path.name)
    assert homes == ["modules.py"]
    assert {"tensorflow", "keras", "tf_keras", "tensorboard"} <= TF_OWN


# --- a project's source checkout asking a dependency -------------------------------------------

_SKLEARN_LACKS = "AttributeError: module 'sklearn.utils' has no attribute 'parallel_config'"


@pytest.mark.parametrize(
    "folder",
    [
        pytest.param("/home/u/dl/edge-ml-main", id="a-branch-archive"),
        pytest.param("/home/u/src/keras-resnet", id="a-clone-of-a-listed-distribution"),
        pytest.param("/srv/u/keras-resnet", id="a-clone-below-two-folders"),
    ],
)
def test_a_source_checkout_asking_a_dependency_reads_the_dependency_as_older(
    folder: str,
) -> None:
    """A checkout is its project's newest code: the dependency lacking its name is most
    likely older than it, and the fix says what tells the other way (a removal) apart."""
    package = "keras_resnet" if folder.endswith("keras-resnet") else "edge_ml"
    report = explained(
        _frames(
            (f"{folder}/{package}/models.py", "<module>", "sklearn.utils.parallel_config()"),
            error=_SKLEARN_LACKS,
        )
    )
    found = _named(report, "dependency-too-old-for-code")
    assert found is not None, [(x.id, x.severity.value) for x in report.findings]
    assert found.severity is Severity.WARNING
    assert "scikit-learn" in fix_text(found) and "pip show scikit-learn" in fix_text(found)
    assert _named(report, "dependency-api-removed") is None


#: Folders that are no checkout of the package: the user's own project laid out like a
#: clone, named for no listed distribution; a branch archive of another project.
_NO_CHECKOUT = ("/home/u/proj/proj/models.py", "/home/u/tools-master/edge_ml/models.py")


@pytest.mark.parametrize("path", _NO_CHECKOUT, ids=("users-project", "another-project"))
def test_a_folder_that_is_no_checkout_of_the_package_is_not_read(path: str) -> None:
    report = explained(
        _frames((path, "<module>", "sklearn.utils.parallel_config()"), error=_SKLEARN_LACKS)
    )
    assert _named(report, "dependency-too-old-for-code") is None


def test_a_checkout_asking_a_module_no_listed_distribution_installs_is_not_read() -> None:
    """``config`` may be the checkout's own module beside its package: nothing says an
    installed release lacks the name."""
    report = explained(
        _frames(
            ("/home/u/dl/edge-ml-main/edge_ml/models.py", "<module>", "cfg = config.load()"),
            error="AttributeError: module 'config' has no attribute 'load'",
        )
    )
    assert _named(report, "dependency-too-old-for-code") is None


def test_a_frame_whose_start_a_paste_cut_is_still_read() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  edge-ml-master/edge_ml/models.py", line 28, in <module>\n'
        "    sklearn.utils.parallel_config()\n"
        f"{_SKLEARN_LACKS}\n"
    )
    assert _named(explained(text), "dependency-too-old-for-code") is not None


# --- a package built from its source into an egg -----------------------------------------------

_EGG_FRAME = "build/bdist.linux-x86_64/egg/kit/optimizers/adam.py"


def _egg_traceback(code: str = "") -> str:
    """Python 2's words raised in a zipped egg's frame, its line printed where ``code``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n'
        "    from kit.optimizers import Adam\n"
        f'  File "{_EGG_FRAME}", line 8, in <module>\n'
        + (f"    {code}\n" if code else "")
        + "AttributeError: 'module' object has no attribute 'fused_update'\n"
    )


def test_a_package_built_from_source_asking_an_unnamed_module_is_read_as_newer_code() -> None:
    found = _named(explained(_egg_traceback()), "dependency-too-old-for-code")
    assert found is not None and found.severity is Severity.WARNING
    assert "pip check" in fix_text(found) and "pip install" not in fix_text(found)


def test_an_egg_whose_line_is_shown_is_read_from_the_line() -> None:
    """The line names the module asked: the other readings', not this guess."""
    report = explained(_egg_traceback("update = helpers.fused_update"))
    assert _named(report, "dependency-too-old-for-code") is None
