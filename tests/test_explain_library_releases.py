"""Libraries beside TensorFlow at a release the code was not written for, read from the
module table: a release that removed what a library's code uses (JAX 0.7.0's
jax.interpreters.xla names, sentencepiece 0.2.2's SentencePieceProcessor.Init), and a release
that added what the code relies on, refused by older releases in their own words (matplotlib
3.3.0's depth-1 images, JAX 0.4.31's jax.nn.dot_product_attention under Keras 3). Near misses
keep their own reading."""

from __future__ import annotations

from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import SIGNATURES, explained, fix_text
from tfdoctor import causes
from tfdoctor.facts import PackageFacts
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.modules import ModulesError, modules, parse_modules


def _only(report: Report, cause: str) -> Finding:
    found = [x for x in report.findings if x.cause == cause]
    assert len(found) == 1, [(x.id, x.severity.value) for x in report.findings]
    return found[0]


def _none_of(report: Report, cause: str) -> None:
    assert not [x for x in report.findings if x.cause == cause], [
        (x.id, x.severity.value) for x in report.findings
    ]


# --- a release that removed what a library's code uses ------------------------------------------


def test_a_name_jax_removed_is_read_with_jax_s_release_and_tfp_s_way_out() -> None:
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/opt/env/lib/python3.11/site-packages/tensorflow_probability/substrates/jax/'
        'internal/backend/jax/ops.py", line 681, in <module>\n'
        "    jax.interpreters.xla.pytype_aval_mappings[onp.ndarray])\n"
        "AttributeError: module 'jax.interpreters.xla' has no attribute 'pytype_aval_mappings'\n"
    )
    found = _only(report, "dependency-api-removed")
    assert found.severity is Severity.ERROR
    assert "jax 0.7.0" in found.summary
    assert found.fix is not None and 'pip install "jax<0.7.0"' in found.fix.commands
    text = fix_text(found)
    # The frame is tensorflow-probability's: it is told to move, and which build has the guard.
    assert "tensorflow-probability" in text and "tfp-nightly" in text


def test_a_whole_submodule_a_release_removed_is_read_with_that_release() -> None:
    # SageMaker Python SDK 2.0.0 renamed sagemaker.tensorflow.serving to .model.
    report = explained("ModuleNotFoundError: No module named 'sagemaker.tensorflow.serving'\n")
    found = _only(report, "dependency-api-removed")
    assert found.severity is Severity.ERROR and "sagemaker 2.0.0" in found.summary
    assert found.fix is not None and 'pip install "sagemaker<2.0.0"' in found.fix.commands
    assert "sagemaker.tensorflow.model" in found.fix.text
    # 2.15.0 brought the module back as deprecated aliases: the later releases are a way out.
    assert "sagemaker 2.15.0 and later" in found.fix.text
    # A submodule of it the table does not list keeps the other readings.
    other = explained("ModuleNotFoundError: No module named 'sagemaker.tensorflow.estimator2'\n")
    assert all("2.0.0 removed" not in x.summary for x in other.findings)


def test_a_method_sentencepiece_removed_is_read_from_the_objects_words() -> None:
    found = _only(
        explained("AttributeError: 'SentencePieceProcessor' object has no attribute 'Init'\n"),
        "dependency-api-removed",
    )
    # The words name a class, not its module: a warning.
    assert found.severity is Severity.WARNING
    assert found.fix is not None and 'pip install "sentencepiece<0.2.2"' in found.fix.commands
    assert "model_proto" in fix_text(found)


#: Pillow 10.0.0's removed text size methods (its notes name a bbox method for each).
_PILLOW_10_TEXT_SIZE = [
    "FreeTypeFont.getsize",
    "FreeTypeFont.getoffset",
    "ImageFont.getsize",
    "TransposedFont.getsize",
    "ImageDraw.textsize",
    "ImageDraw.multiline_textsize",
]


@pytest.mark.parametrize("name", _PILLOW_10_TEXT_SIZE)
def test_a_text_size_method_pillow_10_removed_is_read_with_its_release(name: str) -> None:
    cls, method = name.split(".")
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/srv/env/lib/python3.10/site-packages/zzboxes/draw.py", line 40, in label\n'
        "    w, h = obj.size_of(text)\n"
        f"AttributeError: '{cls}' object has no attribute '{method}'\n"
    )
    found = _only(report, "dependency-api-removed")
    assert found.severity is Severity.WARNING  # the words name a class, not its module
    assert "pillow 10.0.0" in found.summary
    assert found.fix is not None and 'pip install "pillow<10.0.0"' in found.fix.commands
    assert ("textbbox" if cls == "ImageDraw" else "getbbox") in fix_text(found)
    # The bitmap ImageFont's getbbox came with Pillow 9.2.0, FreeTypeFont's with 8.0.0: the
    # row names no release for them (the refusal shows a Pillow 10 anyway).
    assert "8.0.0" not in fix_text(found)


@pytest.mark.parametrize(
    "line",
    [
        # A method the class still has, and a class of that name the table does not list.
        "AttributeError: 'SentencePieceProcessor' object has no attribute 'EncodeAsIds'",
        "AttributeError: 'Tokenizer' object has no attribute 'Init'",
        # A method Pillow 10 still has (added in 8.0.0: an older Pillow's refusal).
        "AttributeError: 'FreeTypeFont' object has no attribute 'getbbox'",
        # A name jax.interpreters.xla still has.
        "AttributeError: module 'jax.interpreters.xla' has no attribute 'canonicalize_dtype'",
    ],
)
def test_other_missing_attributes_are_not_a_listed_removal(line: str) -> None:
    _none_of(explained(line + "\n"), "dependency-api-removed")


# --- a release that added what the code relies on -----------------------------------------------


def test_matplotlib_refusing_a_depth_one_image_is_a_matplotlib_older_than_the_code() -> None:
    found = _only(
        explained("TypeError: Invalid shape (32, 32, 1) for image data\n"),
        "dependency-too-old-for-code",
    )
    assert found.severity is Severity.ERROR
    row = modules().added_to_dist["matplotlib-imshow-depth-one"]
    assert found.fix is not None
    assert f'pip install "matplotlib>={row.added_in}"' in found.fix.commands
    assert "squeeze" in fix_text(found)
    assert row.links[0] in found.links


@pytest.mark.parametrize(
    "line",
    [
        # Depths every matplotlib release refuses (3.5 and later add the shapes it takes).
        "TypeError: Invalid shape (32, 32, 2) for image data",
        "TypeError: Invalid shape (32, 32, 5) for image data. Data must be 2D (monochromatic), "
        "or 3D: MxNx3 (RGB) or MxNx4 (RGBA)",
        # Four dimensions: a batch, refused by every release.
        "TypeError: Invalid shape (1, 32, 32, 1) for image data",
    ],
)
def test_shapes_no_matplotlib_takes_are_not_a_release(line: str) -> None:
    _none_of(explained(line + "\n"), "dependency-too-old-for-code")


def test_keras_saying_jax_lacks_flash_attention_is_a_backend_older_than_keras() -> None:
    report = explained(
        "ImportError: Flash attention is not supported in your current JAX version. Please "
        "update it by following the official guide: "
        "https://jax.readthedocs.io/en/latest/installation.html\n"
    )
    found = _only(report, "keras-backend-version-unsupported")
    assert found.severity is Severity.WARNING
    row = modules().added_to_dist["keras-jax-flash-attention-unsupported"]
    assert row.dist == "jax"
    assert found.fix is not None
    # No machine shown: how to keep the build, jax and jaxlib together, no blind command.
    assert f'"jax[cuda12]>={row.added_in}"' in found.fix.text
    assert found.fix.commands == ("pip show jax jaxlib",)


@pytest.mark.parametrize(
    ("packages", "command"),
    [
        pytest.param(
            (
                f.pkg("jax", "0.4.30"),
                f.pkg("jaxlib", "0.4.30"),
                f.pkg("jax-cuda12-plugin", "0.4.30"),
            ),
            '"jax[cuda12]>=0.4.31"',
            id="cuda-plugin",
        ),
        pytest.param(
            (f.pkg("jax", "0.4.30"), f.pkg("jaxlib", "0.4.30")), '"jax[cpu]>=0.4.31"', id="cpu"
        ),
        # A build no extra of jax's installs: no command that would put the CPU build there.
        pytest.param(
            (f.pkg("jax", "0.4.30"), f.pkg("jaxlib", "0.4.30+cuda11.cudnn86")), "", id="cuda11"
        ),
        pytest.param(
            (
                f.pkg("jax", "0.4.30"),
                f.pkg("jaxlib", "0.4.30"),
                f.pkg("jax-rocm60-plugin", "0.4.30"),
            ),
            "",
            id="rocm",
        ),
    ],
)
def test_a_jax_release_floor_keeps_the_build_the_machine_shows(
    packages: tuple[PackageFacts, ...], command: str
) -> None:
    machine = f.facts(packages=f.packages(*packages, f.pkg("keras", "3.8.0")))
    found = _only(explained(_FLASH, facts=machine), "keras-backend-version-unsupported")
    assert found.fix is not None
    if not command:
        assert not any("install" in c for c in found.fix.commands), found.fix.commands
        return
    assert any(command in c for c in found.fix.commands), found.fix.commands


_FLASH = (
    "ImportError: Flash attention is not supported in your current JAX version. Please "
    "update it by following the official guide: "
    "https://jax.readthedocs.io/en/latest/installation.html\n"
)


@pytest.mark.parametrize(
    ("jax", "upgraded"),
    [
        pytest.param("0.4.30", True, id="older-than-the-row"),
        pytest.param("0.4.35", False, id="has-it"),
    ],
)
def test_flash_attention_words_on_a_machine_with_jax_are_judged_by_its_release(
    jax: str, upgraded: bool
) -> None:
    # Keras' check imports JAX's private cuDNN helpers beside jax.nn.dot_product_attention
    # (keras/src/backend/jax/nn.py, _can_use_flash_attention): under a JAX that already has
    # the function, the words do not show it too old, and an upgrade to the row's release
    # changes nothing.
    machine = f.facts(packages=f.packages(f.pkg("jax", jax), f.pkg("keras", "3.8.0")))
    found = _only(explained(_FLASH, facts=machine), "keras-backend-version-unsupported")
    text = fix_text(found)
    row = modules().added_to_dist["keras-jax-flash-attention-unsupported"]
    assert (f'>={row.added_in}"' in text) is upgraded
    assert ("is older" in text) is upgraded
    if not upgraded:
        assert f"installed jax {jax} has" in text
        assert "pip show keras jax" in text


def test_keras_words_for_another_backend_are_not_jax() -> None:
    # Keras' torch backend says the same of PyTorch: no JAX release is its fix.
    report = explained(
        "ImportError: Flash attention is not supported in your current PyTorch version. Please "
        "update it by following the official guide: https://pytorch.org/get-started/locally/\n"
    )
    assert "jax" not in " ".join(fix_text(x) for x in report.findings)


# --- the table itself ---------------------------------------------------------------------------


def test_every_added_row_keys_a_signature_of_its_cause() -> None:
    # Each row is read through its signature: one of the two causes a release missing reads as.
    wanted = {
        causes.code.DEPENDENCY_TOO_OLD_FOR_CODE,
        causes.software.KERAS_BACKEND_VERSION_UNSUPPORTED,
    }
    table = modules().added_to_dist
    assert table
    for sid in table:
        assert SIGNATURES.by_id(sid).cause in wanted, sid


_TABLE = """schema_version: 1
sources:
  - {{id: s, title: "t", url: "https://example.org"}}
modules: []
ops: []
added_to_distribution:
  - {{signature: {signature}, dist: matplotlib, added_in: "{release}", what: "w", source: s}}
"""


@pytest.mark.parametrize(
    ("signature", "release", "field"),
    [("Not_An_Id", "3.3.0", "signature"), ("some-signature", "3.x", "added_in")],
)
def test_a_malformed_added_row_names_its_field(signature: str, release: str, field: str) -> None:
    with pytest.raises(ModulesError, match=field):
        parse_modules(_TABLE.format(signature=signature, release=release))


def test_a_well_formed_added_row_is_read() -> None:
    table = parse_modules(_TABLE.format(signature="some-signature", release="3.3.0"))
    assert table.added_to_dist["some-signature"].added_in == "3.3.0"


@pytest.mark.parametrize(
    ("module", "error"),
    [
        pytest.param("matplotlib._imshow", "", id="dotted"),
        pytest.param("matplotlib", "module", id="a-package-alone"),
        pytest.param("matplotlib/_imshow", "module", id="a-path"),
    ],
)
def test_an_added_row_s_module_is_a_dotted_name(module: str, error: str) -> None:
    text = _TABLE.format(signature="some-signature", release="3.3.0").replace(
        'what: "w",', f'what: "w", module: "{module}",'
    )
    if error:
        with pytest.raises(ModulesError, match=error):
            parse_modules(text)
        return
    assert parse_modules(text).added_to_dist["some-signature"].module == module


# --- Keras 3's torch backend on a torch without torch._dynamo --------------------------------

#: `import keras` with KERAS_BACKEND=torch: the backend's package imports its random module,
#: whose first lines import torch._dynamo (keras/src/backend/torch/random.py; the 3.0.0 source
#: tree kept it at keras/backend/torch/random.py).
_DYNAMO = """Traceback (most recent call last):
  File "/home/ana/proj/train.py", line 2, in <module>
    import keras
  File "{site}/keras/__init__.py", line 7, in <module>
    from keras.api import DTypePolicy
  File "{site}/keras/{src}backend/__init__.py", line 44, in <module>
    from keras.{dotted}backend.torch import *  # noqa: F403
  File "{site}/keras/{src}backend/torch/__init__.py", line 22, in <module>
    from keras.{dotted}backend.torch import random
  File "{site}/keras/{src}backend/torch/random.py", line 2, in <module>
    import torch._dynamo as dynamo
ModuleNotFoundError: No module named 'torch._dynamo'
"""


def _dynamo_log(src: bool = True, site: str = "/home/ana/venv/lib/python3.10/site-packages") -> str:
    return _DYNAMO.format(site=site, src="src/" if src else "", dotted="src." if src else "")


@pytest.mark.parametrize("src", [True, False], ids=["keras-src", "keras-3.0-tree"])
def test_keras_torch_backend_without_dynamo_and_no_torch_shown_gives_both_readings(
    src: bool,
) -> None:
    # No torch release shown: an install broken first, then a torch older than 2.0, which
    # `pip show torch` tells apart.
    report = explained(_dynamo_log(src))
    causes = [x.cause for x in report.findings]
    assert causes[:2] == ["wheel-mismatch", "keras-backend-version-unsupported"]
    assert "pip show torch" in fix_text(report.findings[0])
    older = report.findings[1]
    assert older.severity is Severity.ERROR
    assert 'pip install "torch>=2.0.0"' in fix_text(older)
    assert "torch._dynamo" in fix_text(older)


@pytest.mark.parametrize(
    "shown",
    [
        "$ pip list\nPackage    Version\n---------- -------\nkeras      3.3.3\ntorch      2.1.0\n",
        '$ python -c "import torch; print(torch.__version__)"\n2.1.0+cu121\n',
        "$ pip show torch\nName: torch\nVersion: 2.1.0\n",
    ],
    ids=["pip-list", "version-echoed", "pip-show"],
)
def test_keras_torch_backend_without_dynamo_under_a_torch_2_the_log_shows_is_a_broken_torch(
    shown: str,
) -> None:
    report = explained(shown + _dynamo_log())
    _none_of(report, "keras-backend-version-unsupported")
    found = _only(report, "wheel-mismatch")
    assert 'pip install --force-reinstall --no-deps "torch==2.1.0"' in fix_text(found)


def test_keras_torch_backend_without_dynamo_under_a_torch_1_the_log_shows_is_its_age() -> None:
    shown = "$ pip list\nPackage    Version\n---------- -------\ntorch      1.13.1\n"
    report = explained(shown + _dynamo_log())
    _none_of(report, "wheel-mismatch")
    assert 'pip install "torch>=2.0.0"' in fix_text(
        _only(report, "keras-backend-version-unsupported")
    )


def test_keras_torch_backend_without_dynamo_under_torch_2_is_a_broken_torch() -> None:
    # torch 2.0 and later carry torch._dynamo: the module missing there is an install cut
    # short or built for another Python, which no newer release mends.
    machine = f.facts(packages=f.packages(f.pkg("torch", "2.1.0"), f.pkg("keras", "3.8.0")))
    report = explained(_dynamo_log(), facts=machine)
    _none_of(report, "keras-backend-version-unsupported")
    found = _only(report, "wheel-mismatch")
    assert "--force-reinstall" in fix_text(found)
    assert "torch>=2.0.0" not in fix_text(found)


def test_keras_torch_backend_without_dynamo_under_torch_1_names_the_release() -> None:
    machine = f.facts(packages=f.packages(f.pkg("torch", "1.13.1"), f.pkg("keras", "3.8.0")))
    found = _only(explained(_dynamo_log(), facts=machine), "keras-backend-version-unsupported")
    assert 'torch>=2.0.0"' in fix_text(found)


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "/home/ana/proj/bench.py", line 3, in <module>\n'
            "    import torch._dynamo as dynamo\n"
            "ModuleNotFoundError: No module named 'torch._dynamo'\n",
            id="the-user-s-own-import",
        ),
        pytest.param("ModuleNotFoundError: No module named 'torch._dynamo'\n", id="no-frame"),
        # Another traceback of the log passes through Keras' torch backend: not this one's.
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "/home/u/bench.py", line 3, in <module>\n'
            "    import torch._dynamo\n"
            "ModuleNotFoundError: No module named 'torch._dynamo'\n"
            "Traceback (most recent call last):\n"
            '  File "/home/u/train.py", line 9, in <module>\n'
            "    y = model(x)\n"
            '  File "/usr/lib/python3.10/site-packages/keras/src/backend/torch/core.py", '
            "line 40, in convert_to_tensor\n"
            '    raise ValueError("bad dtype")\n'
            "ValueError: bad dtype\n",
            id="another-traceback-s-frame",
        ),
        pytest.param(
            _dynamo_log().replace("torch._dynamo", "torch._dynamo_utils"), id="another-module"
        ),
        # Python adds that torch is no package: a file named torch.py, not a torch release.
        pytest.param(
            _dynamo_log().replace(
                "'torch._dynamo'\n", "'torch._dynamo'; 'torch' is not a package\n"
            ),
            id="a-file-named-torch",
        ),
    ],
)
def test_torch_dynamo_missing_outside_keras_backend_is_not_keras_s(log: str) -> None:
    _none_of(explained(log), "keras-backend-version-unsupported")


def test_a_name_the_table_does_not_list_of_a_listed_module_keeps_the_callers_reading() -> None:
    # The table answers the names it lists; another name of the same module, asked by an
    # installed library's frame, is that library's release against the module's.
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/srv/env/lib/python3.11/site-packages/evalkit/tokens.py", line 12, in load\n'
        "    return sentencepiece.load_model(path)\n"
        "AttributeError: module 'sentencepiece' has no attribute 'load_model'\n"
    )
    found = _only(report, "dependency-api-removed")
    assert "evalkit" in found.summary
    assert "0.2.2" not in fix_text(found)


def test_a_name_pandas_2_removed_imported_by_a_library_tells_that_library_to_move() -> None:
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/srv/env/lib/python3.10/site-packages/xgboost/compat.py", line 36, in '
        "<module>\n"
        "    from pandas import MultiIndex, Int64Index\n"
        "ImportError: cannot import name 'Int64Index' from 'pandas' "
        "(/srv/env/lib/python3.10/site-packages/pandas/__init__.py)\n"
    )
    found = _only(report, "dependency-api-removed")
    assert found.severity is Severity.ERROR
    assert "upgrade xgboost" in fix_text(found)
    assert found.fix is not None and 'pip install "pandas<2.0.0"' in found.fix.commands


def test_the_users_dataframe_append_under_pandas_2_is_told_the_replacement() -> None:
    found = _only(
        explained("AttributeError: 'DataFrame' object has no attribute 'append'\n"),
        "dependency-api-removed",
    )
    assert found.severity is Severity.WARNING
    assert "pandas.concat" in fix_text(found)


#: The innermost frame of a DataFrame's missing attribute: pandas' own __getattr__ (pandas 2's
#: pandas/core/generic.py, NDFrame.__getattr__ ends in object.__getattribute__), or PySpark's
#: (pyspark/sql/dataframe.py, DataFrame.__getattr__ raises "'%s' object has no attribute '%s'"
#: in Python's words), whose users often have pandas installed too.
_GETATTR = {
    "pandas": '  File "/srv/env/lib/python3.10/site-packages/pandas/core/generic.py", line 5989, '
    "in __getattr__\n    return object.__getattribute__(self, name)\n",
    "pyspark": '  File "/srv/env/lib/python3.10/site-packages/pyspark/sql/dataframe.py", line '
    "3129, in __getattr__\n    raise AttributeError(\n",
    "": "",
}


@pytest.mark.parametrize(
    ("version", "raiser", "severity"),
    [
        ("2.1.4", "pandas", Severity.ERROR),
        ("2.1.4", "pyspark", Severity.WARNING),
        ("2.1.4", "", Severity.ERROR),
        ("1.5.3", "pandas", None),
    ],
)
def test_pandas_own_getattr_settles_whose_class_lacks_the_method(
    version: str, raiser: str, severity: Optional[Severity]
) -> None:
    # pip show names the pandas installed, 2.0.0 on without DataFrame.append; the frame that
    # raised says whose class the object is: pandas' own __getattr__, or the user's code (a
    # class without __getattr__ raises from the interpreter). Another library's DataFrame
    # (PySpark's) raises the same words from its own code, beside any pandas.
    report = explained(
        f"Name: pandas\nVersion: {version}\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/report.py", line 12, in <module>\n'
        "    frame = frame.append(row)\n"
        + _GETATTR[raiser]
        + "AttributeError: 'DataFrame' object has no attribute 'append'\n"
    )
    found = [x for x in report.findings if x.cause == "dependency-api-removed"]
    assert [x.severity for x in found] == ([severity] if severity else [])


def test_a_library_calling_dataframe_append_is_told_to_move_to_pandas_2() -> None:
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/srv/env/lib/python3.10/site-packages/evalkit/summary.py", line 40, in collect\n'
        "    out = frame.append(row)\n"
        '  File "/srv/env/lib/python3.10/site-packages/pandas/core/generic.py", line 5989, in '
        "__getattr__\n"
        "    return object.__getattribute__(self, name)\n"
        "AttributeError: 'DataFrame' object has no attribute 'append'\n"
    )
    found = _only(report, "dependency-api-removed")
    assert "pandas 2.0.0" in found.summary
    assert "upgrade evalkit" in fix_text(found)


@pytest.mark.parametrize(
    ("line", "message", "dist", "release"),
    [
        (
            "from scipy.misc import imresize",
            "ImportError: cannot import name 'imresize' from 'scipy.misc' "
            "(/srv/env/lib/python3.8/site-packages/scipy/misc/__init__.py)",
            "scipy",
            "1.3.0",
        ),
        (
            "img = scipy.misc.imread(path)",
            "AttributeError: module 'scipy.misc' has no attribute 'imread'",
            "scipy",
            "1.3.0",
        ),
        (
            "from scipy.integrate import simps",
            "ImportError: cannot import name 'simps' from 'scipy.integrate' "
            "(/srv/env/lib/python3.12/site-packages/scipy/integrate/__init__.py)",
            "scipy",
            "1.14.0",
        ),
        (
            "from sklearn.externals import joblib",
            "ImportError: cannot import name 'joblib' from 'sklearn.externals' "
            "(/srv/env/lib/python3.8/site-packages/sklearn/externals/__init__.py)",
            "scikit-learn",
            "0.23.0",
        ),
        (
            "from sklearn.cross_validation import train_test_split",
            "ModuleNotFoundError: No module named 'sklearn.cross_validation'",
            "scikit-learn",
            "0.20.0",
        ),
        (
            "weights = group[name].value",
            "AttributeError: 'Dataset' object has no attribute 'value'",
            "h5py",
            "3.0.0",
        ),
        (
            "features = frame.as_matrix()",
            "AttributeError: 'DataFrame' object has no attribute 'as_matrix'",
            "pandas",
            "1.0.0",
        ),
        (
            "from markupsafe import soft_unicode",
            "ImportError: cannot import name 'soft_unicode' from 'markupsafe' "
            "(/srv/env/lib/python3.9/site-packages/markupsafe/__init__.py)",
            "markupsafe",
            "2.1.0",
        ),
        (
            'cmap = matplotlib.cm.get_cmap("viridis")',
            "AttributeError: module 'matplotlib.cm' has no attribute 'get_cmap'",
            "matplotlib",
            "3.9.0",
        ),
        (
            "from matplotlib.cm import register_cmap",
            "ImportError: cannot import name 'register_cmap' from 'matplotlib.cm' "
            "(/srv/env/lib/python3.11/site-packages/matplotlib/cm.py)",
            "matplotlib",
            "3.9.0",
        ),
        (
            "handles = legend.legendHandles",
            "AttributeError: 'Legend' object has no attribute 'legendHandles'",
            "matplotlib",
            "3.9.0",
        ),
        (
            "from sklearn.metrics import plot_confusion_matrix",
            "ImportError: cannot import name 'plot_confusion_matrix' from 'sklearn.metrics' "
            "(/srv/env/lib/python3.8/site-packages/sklearn/metrics/__init__.py)",
            "scikit-learn",
            "1.2.0",
        ),
        (
            "metrics.plot_roc_curve(clf, x_test, y_test)",
            "AttributeError: module 'sklearn.metrics' has no attribute 'plot_roc_curve'",
            "scikit-learn",
            "1.2.0",
        ),
        (
            "oracle = keras_tuner.oracles.Hyperband(objective='val_loss', max_epochs=30)",
            "AttributeError: module 'keras_tuner.oracles' has no attribute 'Hyperband'",
            "keras-tuner",
            "1.3.0",
        ),
        (
            "from keras_tuner.oracles import RandomSearch",
            "ImportError: cannot import name 'RandomSearch' from 'keras_tuner.oracles' "
            "(/srv/env/lib/python3.10/site-packages/keras_tuner/oracles/__init__.py)",
            "keras-tuner",
            "1.3.0",
        ),
    ],
    ids=[
        "scipy-misc-imresize",
        "scipy-misc-imread",
        "scipy-integrate-simps",
        "sklearn-externals-joblib",
        "sklearn-cross-validation",
        "h5py-dataset-value",
        "pandas-as-matrix",
        "markupsafe-soft-unicode",
        "matplotlib-cm-get-cmap",
        "matplotlib-cm-register-cmap",
        "matplotlib-legend-handles",
        "sklearn-metrics-plot-confusion-matrix",
        "sklearn-metrics-plot-roc-curve",
        "keras-tuner-oracles-hyperband",
        "keras-tuner-oracles-random-search",
    ],
)
def test_a_name_a_release_removed_is_read_with_that_release(
    line: str, message: str, dist: str, release: str
) -> None:
    # The library's frame asks the removed name: the fix moves that library, or the
    # dependency below the release that removed it (the module table's row and its source).
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/srv/env/lib/python3.8/site-packages/evalkit/data.py", line 12, in <module>\n'
        f"    {line}\n"
        f"{message}\n"
    )
    found = _only(report, "dependency-api-removed")
    assert f"{dist} {release}" in found.summary
    assert "upgrade evalkit" in fix_text(found)
    # A class's method is named where the user meets the class (pandas.DataFrame), not in
    # the module that defines it (pandas.core.generic).
    assert "core.generic" not in found.summary and "core.generic" not in fix_text(found)
    assert found.fix is not None and f'pip install "{dist}<{release}"' in found.fix.commands
    assert found.links


_IMREAD = (
    "Traceback (most recent call last):\n"
    '  File "/srv/env/lib/python3.6/site-packages/evalkit/data.py", line 12, in <module>\n'
    "    img = scipy.misc.imread(path)\n"
    "AttributeError: module 'scipy.misc' has no attribute 'imread'\n"
)


@pytest.mark.parametrize(
    ("shown", "version"),
    [("", "1.1.0"), ("Name: scipy\nVersion: 1.1.0\nSummary: SciPy\n", None)],
    ids=["machine", "pip-show"],
)
def test_a_release_before_the_removal_is_not_told_the_removal(
    shown: str, version: str | None
) -> None:
    # SciPy 1.0 to 1.2 define scipy.misc.imread only where Pillow is installed: the same
    # words on SciPy 1.1.0 are not SciPy 1.3.0's removal, and scipy<1.3.0 changes nothing.
    facts = f.facts(packages=f.packages(f.pkg("scipy", version))) if version else None
    _none_of(explained(shown + _IMREAD, facts), "dependency-api-removed")
    # At or past the release that removed it, the reading stands.
    later = f.facts(packages=f.packages(f.pkg("scipy", "1.5.4")))
    assert "scipy 1.3.0" in _only(explained(_IMREAD, later), "dependency-api-removed").summary


def test_a_removed_name_the_library_falls_back_from_is_not_the_failure() -> None:
    # evalkit tries scipy.misc's imread, then imageio's: the fallback's failure (in the same
    # file, during the handling of the first) is the one that counts.
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/srv/env/lib/python3.8/site-packages/evalkit/io.py", line 3, in <module>\n'
        "    from scipy.misc import imread\n"
        "ImportError: cannot import name 'imread' from 'scipy.misc' "
        "(/srv/env/lib/python3.8/site-packages/scipy/misc/__init__.py)\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/env/lib/python3.8/site-packages/evalkit/io.py", line 5, in <module>\n'
        "    from imageio import imread\n"
        "ModuleNotFoundError: No module named 'imageio'\n"
    )
    _none_of(report, "dependency-api-removed")
    assert "imageio" in _only(report, "package-not-installed").summary


# --- JAX's own words for a removal --------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "release"),
    [
        (
            "AttributeError: jax.interpreters.xla.abstractify was deprecated in JAX v0.5.0 and "
            "removed in JAX v0.7.0. jax.core.abstractify can be used instead.",
            "0.7.0",
        ),
        ("AttributeError: jax.interpreters.xla.xb was removed in JAX v0.4.36.", "0.4.36"),
        ("TypeError: The newshape argument to jnp.reshape was removed in JAX v0.4.36.", "0.4.36"),
    ],
)
def test_jax_naming_the_release_that_removed_a_name_is_read_with_that_release(
    message: str, release: str
) -> None:
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/srv/env/lib/python3.11/site-packages/evalkit/ops.py", line 9, in <module>\n'
        "    fn = lookup()\n"
        f"{message}\n"
    )
    found = _only(report, "dependency-api-removed")
    assert found.severity is Severity.ERROR
    assert f"jax {release}" in found.summary
    assert found.fix is not None and f'pip install "jax<{release}"' in found.fix.commands
    assert "upgrade evalkit" in fix_text(found)


def test_jax_removal_pasted_above_its_frames_names_the_library_and_what_imported_it() -> None:
    # The message first, then pytest's frames cut before their end: the frames are its own,
    # the innermost installed one outside JAX uses the name, the outermost one imported it.
    site = "/opt/conda/envs/rl/lib/python3.12/site-packages"
    report = explained(
        "AttributeError: jax.interpreters.xla.abstractify was deprecated in JAX v0.5.0 and "
        "removed in JAX v0.7.0. jax.core.abstractify can be used instead.\n"
        f"{site}/policykit/__init__.py:4: in <module>\n"
        "    from policykit.dists import Normal\n"
        f"{site}/mathkit/substrates/jax/__init__.py:12: in <module>\n"
        "    from mathkit.substrates.jax import ops\n"
    )
    found = _only(report, "dependency-api-removed")
    words = fix_text(found)
    assert "upgrade mathkit (with policykit, whose import reaches it)" in words, words
    assert found.fix is not None and 'pip install "jax<0.7.0"' in found.fix.commands


def test_a_caller_frame_above_the_library_is_not_named_its_importer() -> None:
    # A notebook's cell run by IPython calls the library: IPython imports nothing on the way.
    site = "/opt/conda/lib/python3.12/site-packages"
    report = explained(
        "Traceback (most recent call last):\n"
        f'  File "{site}/IPython/core/interactiveshell.py", line 3577, in run_code\n'
        "    exec(code_obj, self.user_global_ns, self.user_ns)\n"
        f'  File "{site}/mathkit/ops.py", line 40, in convert\n'
        "    return jax.interpreters.xla.abstractify(x)\n"
        "AttributeError: jax.interpreters.xla.abstractify was deprecated in JAX v0.5.0 and "
        "removed in JAX v0.7.0. jax.core.abstractify can be used instead.\n"
    )
    words = fix_text(_only(report, "dependency-api-removed"))
    assert "upgrade mathkit to" in words and "IPython" not in words, words


def test_jax_jit_refusing_donate_argnames_is_a_jax_before_the_release_that_added_it() -> None:
    report = explained("TypeError: jit() got an unexpected keyword argument 'donate_argnames'\n")
    found = _only(report, "dependency-too-old-for-code")
    row = modules().added_to_dist["jax-jit-donate-argnames-unknown"]
    assert found.fix is not None and f'"jax[cuda12]>={row.added_in}"' in found.fix.text
    assert "jaxlib" in found.fix.text
    # Another function's own keyword refusal is not JAX's jit.
    _none_of(
        explained("TypeError: fit() got an unexpected keyword argument 'donate_argnames'\n"),
        "dependency-too-old-for-code",
    )


def test_jax_announcing_a_removal_to_come_is_not_a_removal() -> None:
    report = explained(
        "DeprecationWarning: jax.interpreters.xla.canonicalize_dtype is deprecated and will be "
        "removed in JAX v0.7.0; use jax.dtypes.canonicalize_dtype.\n"
    )
    _none_of(report, "dependency-api-removed")


def test_another_librarys_getattr_is_not_named_the_user_of_the_method() -> None:
    """PySpark's DataFrame.__getattr__ raising the words is PySpark's object lacking the name,
    not PySpark calling pandas: the user's code is the one using it, and PySpark is not told
    to upgrade for pandas."""
    report = explained(
        "Name: pandas\nVersion: 2.1.4\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/report.py", line 12, in <module>\n'
        "    frame = frame.append(row)\n"
        + _GETATTR["pyspark"]
        + "AttributeError: 'DataFrame' object has no attribute 'append'\n"
    )
    found = _only(report, "dependency-api-removed")
    assert "pyspark (an installed package) uses it" not in found.detail
    assert "pyspark" not in fix_text(found)


def test_a_notebook_cell_asking_an_oracle_keras_tuner_removed_is_told_its_new_name() -> None:
    # The user's own cell: the row's replacement in the code, or keras-tuner below 1.3.0.
    found = _only(
        explained(
            "AttributeError                            Traceback (most recent call last)\n"
            "Cell In[13], line 58\n"
            "---> 58 oracle=keras_tuner.oracles.BayesianOptimization(objective='val_loss',\n"
            "AttributeError: module 'keras_tuner.oracles' has no attribute "
            "'BayesianOptimization'\n"
        ),
        "dependency-api-removed",
    )
    assert found.severity is Severity.ERROR and "keras-tuner 1.3.0" in found.summary
    assert "BayesianOptimizationOracle" in fix_text(found)
    assert "https://github.com/keras-team/keras-tuner/releases/tag/v1.3.0" in found.links
    # The tuner of that name stays in keras_tuner itself: not this removal.
    other = explained("AttributeError: module 'keras_tuner' has no attribute 'Hyperband'\n")
    assert all("1.3.0" not in x.summary for x in other.findings)


def test_a_sklearn_plot_function_on_python_3_12_is_told_only_the_display_classes() -> None:
    # No scikit-learn before 1.2.0 has wheels for Python 3.12: the pin is no way out there.
    found = _only(
        explained(
            "Traceback (most recent call last):\n"
            '  File "/home/v/eval.py", line 3, in <module>\n'
            "    from sklearn.metrics import plot_confusion_matrix\n"
            "ImportError: cannot import name 'plot_confusion_matrix' from 'sklearn.metrics' "
            "(/home/v/venv/lib/python3.12/site-packages/sklearn/metrics/__init__.py)\n"
        ),
        "dependency-api-removed",
    )
    assert "ConfusionMatrixDisplay for plot_confusion_matrix" in fix_text(found)
    assert found.fix is not None and not found.fix.commands
