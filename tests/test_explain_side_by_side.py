"""Readings of what the log says of the installed packages and of Keras 3's shapes: two
TensorFlow distributions that pip's conflict lines show installed side by side, and a
TensorShape method called on the tuple Keras 3 passes as a shape."""

from __future__ import annotations

from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text
from tfdoctor.explain.packages import two_distributions_candidate
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.machine import Machine

HEAD = (
    "ERROR: pip's dependency resolver does not currently take into account all the packages "
    "that are installed. This behaviour is the source of the following dependency conflicts.\n"
)


def _of(report: Report, cause: str) -> Optional[Finding]:
    return next((f for f in report.findings if f.cause == cause), None)


@pytest.mark.parametrize(
    ("log", "removed", "kept"),
    [
        pytest.param(
            HEAD + "tensorflow-gpu 2.3.1 requires numpy<1.19.0,>=1.16.0, but you have numpy "
            "1.19.5 which is incompatible.\n"
            "tensorflow 2.4.1 requires six~=1.15.0, but you have six 1.16.0 which is "
            "incompatible.\n",
            "tensorflow-gpu tensorflow",
            "tensorflow==2.4.1",
            id="pips-conflicts",
        ),
        # TensorFlow's preload check on Windows names each distribution and its release.
        pytest.param(
            "ImportError: Found conflicting TensorFlow installations in this environment: "
            "tensorflow 2.21.0, tensorflow-intel 2.20.1, tf-nightly 2.22.0.dev20260101. These "
            "distributions install into the same directory, so mixing versions leaves shared "
            "libraries from different releases on disk and the native TensorFlow runtime will "
            "fail to load.\n",
            "tensorflow tensorflow-intel tf-nightly",
            "tensorflow==2.21.0",
            id="tensorflows-own-check",
        ),
    ],
)
def test_distributions_shown_together_are_installed_side_by_side(
    log: str, removed: str, kept: str
) -> None:
    found = _of(explained(log), "tf-multiple-distributions")
    assert found is not None and found.severity is Severity.ERROR
    fix = fix_text(found)
    assert f"pip uninstall -y {removed}" in fix
    assert f'pip install "{kept}"' in fix


def test_tensorflows_own_check_of_a_32_bit_python_is_of_windows() -> None:
    log = (
        "ImportError: TensorFlow requires a 64-bit Python interpreter, but this interpreter "
        "is 32-bit. Reinstall the 64-bit build of Python and reinstall TensorFlow into it.\n"
    )
    found = _of(explained(log), "python-32bit")
    assert found is not None and ".venv\\Scripts\\python -m pip install" in fix_text(found)


@pytest.mark.parametrize(
    "release",
    [
        pytest.param("1.15.5", id="oldest-line"),
        # Older than every line of the matrix: its GPU build was tensorflow-gpu too.
        pytest.param("1.14.0", id="before-the-matrix"),
    ],
)
def test_a_gpu_package_before_2_1_is_kept_under_its_own_name(release: str) -> None:
    log = HEAD + (
        f"tensorflow-gpu {release} requires gast==0.2.2, but you have gast 0.3.3 which is "
        "incompatible.\n"
        "tf-nightly 2.3.0.dev20200601 requires gast==0.3.3, but you have gast 0.2.2 which is "
        "incompatible.\n"
    )
    found = _of(explained(log), "tf-multiple-distributions")
    assert found is not None
    assert f'pip install "tensorflow-gpu=={release}"' in fix_text(found)


def test_a_gpu_package_of_a_line_whose_gpu_build_is_tensorflow_is_kept_as_tensorflow() -> None:
    log = HEAD + (
        "tensorflow-gpu 2.6.0 requires numpy~=1.19.2, but you have numpy 1.21.0 which is "
        "incompatible.\n"
        "tf-nightly 2.7.0.dev20210801 requires gast==0.4.0, but you have gast 0.3.3 which is "
        "incompatible.\n"
    )
    found = _of(explained(log), "tf-multiple-distributions")
    assert found is not None
    assert 'pip install "tensorflow==2.6.0"' in fix_text(found)


@pytest.mark.parametrize(
    "second",
    [
        # The platform build the tensorflow package itself requires on Windows.
        "tensorflow-intel 2.12.0 requires keras<2.13,>=2.12.0, but you have keras 3.0.0 which "
        "is incompatible.\n",
        # The same distribution twice.
        "tensorflow 2.12.0 requires numpy<1.24,>=1.22, but you have numpy 1.26.0 which is "
        "incompatible.\n",
    ],
)
def test_one_installation_is_not_side_by_side(second: str) -> None:
    log = HEAD + (
        "tensorflow 2.12.0 requires keras<2.13,>=2.12.0, but you have keras 3.0.0 which is "
        "incompatible.\n"
    )
    assert _of(explained(log + second), "tf-multiple-distributions") is None


def _pulled_beside(found: str) -> str:
    """pip upgrading a package that requires ``tensorflow`` by that name, where ``found`` is
    its line for the TensorFlow distribution already there."""
    return (
        "$ pip install --upgrade keras\n"
        "Collecting keras\n"
        f"{found}\n"
        "Collecting tensorflow (from keras)\n"
        "  Downloading tensorflow-1.0.1-cp35-cp35m-manylinux1_x86_64.whl (44.1MB)\n"
        "Installing collected packages: tensorflow, keras\n"
        "Successfully installed keras-2.0.2 tensorflow-1.0.1\n"
    )


@pytest.mark.parametrize(
    "found",
    [
        "Requirement already satisfied: tensorflow-gpu in /srv/venv/lib/python3.5/site-packages "
        "(1.0.1)",
        # The legacy resolver's words under --upgrade (pip up to 20.2).
        "Requirement already up-to-date: tensorflow-gpu in /srv/venv/lib/python3.5/site-packages "
        "(1.0.1)",
    ],
    ids=["satisfied", "up-to-date"],
)
def test_pip_installing_a_second_distribution_beside_the_first(found: str) -> None:
    report = explained(_pulled_beside(found))
    top = _of(report, "tf-multiple-distributions")
    assert top is not None and top.severity is Severity.ERROR
    text = fix_text(top)
    assert "uninstall -y tensorflow-gpu tensorflow" in text
    assert 'pip install "tensorflow-gpu==1.0.1"' in text


def test_pip_upgrading_the_same_distribution_is_not_side_by_side() -> None:
    found = "Requirement already up-to-date: tensorflow in /srv/venv/lib/python3.5/site-packages"
    assert _of(explained(_pulled_beside(found)), "tf-multiple-distributions") is None


#: `pip list`'s rows (name, blanks, version) of a plug-in beside two TensorFlow distributions:
#: the plug-in's release fits the older one only (its README at v1.1.0: TensorFlow 2.11.0).
PLUGIN_LISTING = (
    "Package                        Version\n"
    "------------------------------ -------\n"
    "intel-extension-for-tensorflow 1.1.0\n"
    "intel-tensorflow               2.11.0\n"
    "tensorflow                     2.12.0\n"
)


def test_side_by_side_keeps_the_distribution_a_listed_companion_is_built_for() -> None:
    report = explained(PLUGIN_LISTING)
    side = _of(report, "tf-multiple-distributions")
    assert side is not None
    assert 'pip install "intel-tensorflow==2.11.0"' in fix_text(side)
    assert "intel-extension-for-tensorflow 1.1.0 is built for" in fix_text(side)
    # The companion's own finding gives the same way out, not a companion for 2.12.
    companion = _of(report, "companion-mismatch")
    assert companion is not None and companion.severity is Severity.WARNING
    assert companion.fix == side.fix


def test_side_by_side_keeps_the_newest_where_the_companion_fits_both() -> None:
    listing = PLUGIN_LISTING.replace("2.11.0", "2.10.0").replace("2.12.0", "2.11.0")
    side = _of(explained(listing), "tf-multiple-distributions")
    assert side is not None
    assert 'pip install "tensorflow==2.11.0"' in fix_text(side)
    assert "the newest final release shown" in fix_text(side)


def test_side_by_side_keeps_the_tensorflow_1_a_listed_sonnet_1_needs() -> None:
    listing = (
        "dm-sonnet                    1.36\n"
        "tensorflow                   2.8.0\n"
        "tensorflow-gpu               1.15.5\n"
    )
    report = explained(listing)
    side = _of(report, "tf-multiple-distributions")
    assert side is not None and 'pip install "tensorflow-gpu==1.15.5"' in fix_text(side)
    companion = _of(report, "companion-mismatch")
    assert companion is not None and companion.fix == side.fix


def test_a_listed_plugin_off_its_tensorflow_names_its_release_for_it() -> None:
    listing = PLUGIN_LISTING.replace("intel-tensorflow               2.11.0\n", "")
    companion = _of(explained(listing), "companion-mismatch")
    assert companion is not None
    assert 'pip install "intel-extension-for-tensorflow==1.2.*"' in fix_text(companion)


def test_a_tensorshape_method_on_a_tuple_is_keras3s_shape() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/app/layers.py", line 30, in build\n'
        "    self.units = input_shape.as_list()[-1]\n"
        "AttributeError: 'tuple' object has no attribute 'as_list'\n"
    )
    found = _of(explained(log), "keras3-behaviour-change")
    assert found is not None and found.severity is Severity.WARNING
    assert "TF_USE_LEGACY_KERAS" in fix_text(found)


def test_another_missing_attribute_of_a_tuple_is_not_keras3s() -> None:
    log = "AttributeError: 'tuple' object has no attribute 'numpy'\n"
    assert _of(explained(log), "keras3-behaviour-change") is None


def _struct_size(compiled: int, loaded: int, kind: str = "ValueError") -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/eval.py", line 3, in <module>\n'
        "    from pycocotools import mask\n"
        '  File "/opt/venv/lib/python3.9/site-packages/pycocotools/mask.py", line 3, in <module>\n'
        "    import pycocotools._mask as _mask\n"
        '  File "pycocotools/_mask.pyx", line 1, in init pycocotools._mask\n'
        f"{kind}: numpy.ndarray size changed, may indicate binary incompatibility. Expected "
        f"{compiled} from C header, got {loaded} from PyObject\n"
    )


def test_an_extension_built_for_a_newer_numpy_names_itself_and_both_ways() -> None:
    found = _of(explained(_struct_size(88, 80)), "dependency-out-of-range")
    assert found is not None and found.severity is Severity.ERROR
    assert found.summary.startswith("pycocotools (module pycocotools._mask)")
    fix = fix_text(found)
    # No TensorFlow shown: no unbounded upgrade (it could bring NumPy 2), the range asked for.
    assert "install --upgrade numpy" not in fix and "pip show tensorflow" in fix
    assert "--no-binary pycocotools pycocotools" in fix


def test_the_numpy_upgrade_stays_in_tensorflows_range() -> None:
    facts = f.facts(packages=f.packages())  # TensorFlow 2.15.1 declaring numpy<2.0.0,>=1.23.5
    found = _of(explained(_struct_size(88, 80), facts), "dependency-out-of-range")
    assert found is not None
    assert 'pip install --upgrade "numpy<2.0.0,>=1.23.5"' in fix_text(found)


def test_an_extension_built_for_an_older_numpy_is_not_this_reading() -> None:
    # Compiled smaller than the NumPy loaded: Cython's warning form, harmless.
    assert _of(explained(_struct_size(80, 88)), "dependency-out-of-range") is None


def test_dockers_older_words_for_a_missing_nvidia_runtime() -> None:
    found = _of(
        explained("docker: Error response from daemon: Unknown runtime specified nvidia.\n"),
        "container-no-gpu",
    )
    assert found is not None and found.severity is Severity.ERROR
    fix = fix_text(found)
    assert "nvidia-ctk runtime configure --runtime=docker" in fix and "nvidia-docker2" in fix


def test_the_other_candidate_installs_a_gpu_package_from_2_1_as_tensorflow() -> None:
    # tensorflow-gpu 2.1 and later is served by tensorflow: the candidate's reinstall names it
    # as the matrix derives it, as the side-by-side fix does.
    gpu = f.pkg("tensorflow-gpu", "2.10.0", top_level=("tensorflow",))
    nightly = f.pkg("tf-nightly", "2.11.0.dev20220801", top_level=("tensorflow",))
    m = Machine(f.facts(packages=(gpu, nightly)), f.FIXTURE_MATRIX)
    assert m.tf is not None and m.tf.name == "tensorflow-gpu"
    (found,) = two_distributions_candidate(m)
    assert found.fix is not None
    assert found.fix.commands[-1].endswith('"tensorflow==2.10.0"'), found.fix.commands


# --- two Keras distributions in a listing -----------------------------------------------------


def test_keras_beside_keras_nightly_in_a_listing() -> None:
    log = (
        "Package                      Version\n"
        "---------------------------- -------\n"
        "tensorflow                   2.9.1\n"
        "keras                        2.9.0\n"
        "keras-nightly                2.10.0.dev2022061507\n"
    )
    found = _of(explained(log), "keras-version")
    assert found is not None and found.severity is Severity.ERROR
    assert "keras 2.9.0, keras-nightly 2.10.0.dev2022061507" in found.summary
    text = fix_text(found)
    assert "pip uninstall -y keras keras-nightly" in text and "keras==2.9.*" in text


def test_tf_keras_beside_keras_3_in_a_listing_is_quiet() -> None:
    # TensorFlow 2.16's arrangement: Keras 3 is tf.keras, tf-keras installs tf_keras/.
    log = (
        "Package                      Version\n"
        "---------------------------- -------\n"
        "tensorflow                   2.16.1\n"
        "tf_keras                     2.16.0\n"
        "keras                        3.3.3\n"
    )
    report = explained(log)
    assert all(x.severity.rank < Severity.WARNING.rank for x in report.findings)


def test_tensorflow_rocm_beside_tensorflow_in_a_listing() -> None:
    # tensorflow-rocm's versions carry a fourth part, the ROCm release it is built for.
    log = (
        "Package                      Version\n"
        "---------------------------- -------\n"
        "tensorflow                   2.12.0\n"
        "tensorflow-rocm              2.11.1.550\n"
    )
    found = _of(explained(log), "tf-multiple-distributions")
    assert found is not None and "tensorflow-rocm 2.11.1.550" in found.summary
    assert "pip uninstall -y tensorflow tensorflow-rocm" in fix_text(found)
