"""explain reads an exception protobuf's runtime raises under a generated ``_pb2`` module as
protobuf and the generated code disagreeing, whatever its words, and tells the direction only
when the words show it. Every log is written for the test, a variant of the family."""

from __future__ import annotations

import dataclasses

import pytest

from tests import factories as f
from tfdoctor.causes.software import protobuf_fix
from tfdoctor.checks import run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.explain import explain
from tfdoctor.explain.reader import split_text
from tfdoctor.facts import CondaFacts, CondaPackage, PackageFacts, TFStatus
from tfdoctor.findings import Report, Severity
from tfdoctor.machine import Machine
from tfdoctor.signatures import load_signatures

SIGNATURES = load_signatures()
SITE = "/opt/env/lib/python3.9/site-packages"


def _explain(text: str) -> Report:
    return explain([split_text(text)], SIGNATURES, f.FIXTURE_MATRIX)


def _traceback(generated: str, runtime: str, exception: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        f'  File "{generated}", line 22, in <module>\n'
        "    _descriptor.FieldDescriptor(\n"
        f'  File "{runtime}", line 553, in __new__\n'
        "    _message.Message._CheckCalledFromGeneratedFile()\n"
        f"{exception}\n"
    )


def _protobuf_fix(report: Report) -> str:
    found = [x for x in report.findings if x.cause == "protobuf-incompatible"]
    assert len(found) == 1, [x.id for x in report.findings]
    fix = found[0].fix
    assert fix is not None
    return "\n".join((fix.text, *fix.commands))


@pytest.mark.parametrize(
    ("generated", "exception"),
    [
        pytest.param(
            f"{SITE}/tensorflow/core/protobuf/config_pb2.py",
            "AttributeError: module 'google._upb._message' has no attribute 'Message'",
            id="upb-attribute",
        ),
        pytest.param(
            f"{SITE}/tensorboard/compat/proto/summary_pb2.py",
            "TypeError: Descriptors cannot be created directly.",
            id="descriptors-tensorboard",
        ),
        pytest.param(
            "C:\\Users\\user\\env\\Lib\\site-packages\\tensorflow\\core\\framework\\types_pb2.py",
            "AttributeError: 'google._upb._message.FieldDescriptor' object has no attribute 'x'",
            id="windows",
        ),
    ],
)
def test_a_newer_runtime_is_told_to_step_back(generated: str, exception: str) -> None:
    runtime = (
        "C:\\Users\\user\\env\\Lib\\site-packages\\google\\protobuf\\descriptor.py"
        if generated.startswith("C:")
        else f"{SITE}/google/protobuf/descriptor.py"
    )
    fix = _protobuf_fix(_explain(_traceback(generated, runtime, exception)))
    # The fixture's 2.6 to 2.11 declare protobuf<3.20: pip takes 3.20.3 under a cap of 3.21.
    assert 'install "protobuf<3.20"' in fix and "3.21" not in fix


def test_the_cap_is_the_lowest_the_lines_with_old_generated_code_declare() -> None:
    # A line stating a lower cap moves the bound with it: read from the matrix, no constant.
    line = f.FIXTURE_MATRIX.line_for("2.11")
    assert line is not None
    pins = dataclasses.replace(line.pins, protobuf="<3.19,>=3.9.2")
    matrix = f.with_line(f.FIXTURE_MATRIX, "2.11", pins=pins)
    text = _traceback(
        f"{SITE}/tensorflow/core/framework/types_pb2.py",
        f"{SITE}/google/protobuf/descriptor.py",
        "TypeError: Descriptors cannot be created directly.",
    )
    report = explain([split_text(text)], SIGNATURES, matrix)
    fix = _protobuf_fix(report)
    assert 'install "protobuf<3.19"' in fix and "TensorFlow 2.11 declares" in fix


def test_a_python_only_newer_lines_serve_gets_no_cap_below_their_range() -> None:
    # Python 3.11 has wheels from TensorFlow 2.12 on, whose range is >=3.20.3: the <3.20 of
    # the lines before them would leave it.
    site = "/opt/env/lib/python3.11/site-packages"
    text = _traceback(
        f"{site}/tensorboard/compat/proto/summary_pb2.py",
        f"{site}/google/protobuf/descriptor.py",
        "TypeError: Descriptors cannot be created directly.",
    )
    fix = _protobuf_fix(_explain(text))
    assert "protobuf<3.20" not in fix and "pip show tensorflow protobuf" in fix


def test_an_arm64_mac_takes_the_cap_of_its_pythons_lines() -> None:
    # tensorflow-macos 2.9 declares 2.9's range (<3.20); the matrix's arm64 wheels of
    # tensorflow itself start later, so the lines are read for the Python on any platform.
    mac = f.platform(system="Darwin", machine="arm64", os_name="macOS 13.4", libc="")
    m = Machine(
        f.facts(python=f.python(version="3.9.13"), platform=mac, packages=()),
        f.FIXTURE_MATRIX,
    )
    fix = protobuf_fix(m)
    assert 'install "protobuf<3.20"' in "\n".join(fix.commands), fix


@pytest.mark.parametrize(
    ("tf", "protobuf", "has", "lacks"),
    [
        # 2.5 declares a floor only: its code predates the upb runtime, and the cap joins it.
        pytest.param("2.5.3", "4.21.1", 'install "protobuf<3.20,>=3.9.2"', "pip check", id="floor"),
        # 2.15's range admits the installed runtime and nothing below the cap: another
        # package's code failed, and no cap that leaves TensorFlow's range is installed.
        pytest.param("2.15.1", "4.25.3", "pip check", "protobuf<3.20", id="new-range"),
    ],
)
def test_a_shown_tensorflow_bounds_the_step_back(
    tf: str, protobuf: str, has: str, lacks: str
) -> None:
    m = Machine(
        f.facts(
            python=f.python(version="3.9.13"),
            packages=(
                f.pkg("tensorflow", tf, top_level=("tensorflow",)),
                f.pkg("protobuf", protobuf),
            ),
        ),
        f.FIXTURE_MATRIX,
    )
    fix = protobuf_fix(m)
    said = "\n".join((fix.text, *fix.commands))
    assert has in said and lacks not in said


def test_other_words_get_no_direction() -> None:
    # An older runtime refuses newer generated code in its own words: no "older than" advice.
    text = _traceback(
        f"{SITE}/object_detection/protos/anchor_pb2.py",
        f"{SITE}/google/protobuf/descriptor.py",
        "TypeError: __new__() got an unexpected keyword argument 'serialized_options'",
    )
    fix = _protobuf_fix(_explain(text))
    assert "pip check" in fix and "<3.21" not in fix


@pytest.mark.parametrize(
    ("generated", "exception"),
    [
        pytest.param(
            f"{SITE}/tensorflow/core/protobuf/config_pb2.py",
            "TypeError: Couldn't build proto file into descriptor pool: duplicate file name "
            "(tensorflow/core/protobuf/config.proto)",
            id="duplicate-proto",
        ),
        pytest.param(
            "train.py",
            "AttributeError: module 'google._upb._message' has no attribute 'Message'",
            id="caller-not-generated",
        ),
    ],
)
def test_not_a_version_disagreement(generated: str, exception: str) -> None:
    report = _explain(_traceback(generated, f"{SITE}/google/protobuf/descriptor.py", exception))
    assert all(x.cause != "protobuf-incompatible" for x in report.findings), [
        x.id for x in report.findings
    ]


def _pool_refusal(caller: str, code: str) -> str:
    """protobuf's own descriptor.py raising its compiled pool's KeyError under ``caller``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        f'  File "{caller}", line 4, in <module>\n'
        f"    {code}\n"
        f'  File "{SITE}/google/protobuf/descriptor.py", line 501, in __new__\n'
        "    return _message.default_pool.FindFieldByName(full_name)\n"
        'KeyError: "Couldn\'t find field google.protobuf.FieldOptions.unverified_lazy"\n'
    )


def test_protobufs_own_field_refused_is_read_whoever_imported_protobuf() -> None:
    # The frames before protobuf's are a user's package and Keras', none a generated module.
    text = _pool_refusal("segnet/layers.py", "from keras.layers import Dense")
    fix = _protobuf_fix(_explain(text))
    # The installed release again over the mixed files: a plain install changes nothing.
    assert 'install --force-reinstall --no-deps "protobuf' in fix
    assert "pip check" not in fix


def test_two_environments_listings_are_not_copies_in_one() -> None:
    # conda keeps one record a package in an environment: two conda rows are two listings.
    listing = (
        "(base) $ conda list protobuf\n"
        "protobuf                  3.19.1           py37h295c915_0\n"
        "(tf) $ conda list protobuf\n"
        "protobuf                  3.20.3           py39h6a678d5_0    conda-forge\n"
    )
    fix = _protobuf_fix(_explain(_pool_refusal("segnet/layers.py", "import keras") + listing))
    assert "times" not in fix and "conda remove" not in fix


def test_a_listing_with_several_protobuf_copies_removes_each_with_its_installer() -> None:
    listing = (
        "protobuf                  4.21.12          py310h2c1b2ae_0    conda-forge\n"
        "protobuf                  4.25.1                    <pip>\n"
        "protobuf                  3.20.3                   pypi_0    pypi\n"
    )
    text = _pool_refusal("segnet/layers.py", "from keras.layers import Dense") + listing
    fix = _protobuf_fix(_explain(text))
    assert "3 times" in fix
    assert fix.count("uninstall -y protobuf") == 2
    assert "conda remove -y --force protobuf" in fix
    # conda's release back from its channel, inside conda.
    assert "conda install -y -c conda-forge protobuf=4.21.12" in fix
    assert "pip install" not in fix


def test_pip_copies_alone_bring_the_newest_back_with_pip() -> None:
    listing = (
        "protobuf                  3.19.6                   pypi_0    pypi\n"
        "protobuf                  3.20.3                   pypi_0    pypi\n"
    )
    text = _pool_refusal("segnet/layers.py", "import tensorflow as tf") + listing
    fix = _protobuf_fix(_explain(text))
    assert "conda" not in fix
    assert 'install "protobuf==3.20.3"' in fix


def test_another_projects_field_is_not_protobufs_own() -> None:
    text = _pool_refusal("segnet/layers.py", "import tensorflow as tf").replace(
        "google.protobuf.FieldOptions", "segnet.Config"
    )
    assert not [x for x in _explain(text).findings if x.cause == "protobuf-incompatible"]


def _import_refused(
    *copies: PackageFacts, conda: tuple[CondaPackage, ...] = (), prefix: str = "/opt/venv"
) -> Report:
    """check on a machine whose ``import tensorflow`` ends in protobuf's pool refusal raised
    from the protobuf under :data:`f.SITE`, with ``copies`` of protobuf recorded and ``conda``
    the conda environment's packages (a conda environment at ``prefix`` where given)."""
    tail = _pool_refusal(f"{f.SITE}/tensorflow/__init__.py", "from tensorflow.core import *")
    facts = f.facts(
        packages=f.packages(*copies),
        tensorflow=f.tensorflow(
            status=TFStatus.IMPORT_ERROR,
            version=None,
            devices=(),
            error_type="KeyError",
            error_message=tail.rsplit("KeyError: ", 1)[1].strip(),
            stderr_tail=tail.replace(SITE, f.SITE),
        ),
        conda=CondaFacts(prefix, conda) if conda else None,
    )
    ctx = CheckContext(facts, f.FIXTURE_MATRIX)
    return Report(facts=facts, findings=run_checks(ctx, select_checks(["tensorflow.import"])))


def test_check_removes_each_protobuf_copy_its_records_show_in_the_folder_that_ran() -> None:
    # conda's protobuf and two copies pip wrote over it into the same site-packages: one
    # record has conda's version (conda's own), the other two are pip's.
    copies = (f.pkg("protobuf", "3.3.2"), f.pkg("protobuf", "3.4.0"), f.pkg("protobuf", "3.2.0"))
    conda = (CondaPackage("protobuf", "3.3.2", "py27_0", "conda-forge"),)
    report = _import_refused(*copies, conda=conda)
    fix = _protobuf_fix(report)
    assert "3 times" in fix and "records show" in fix
    assert fix.count("uninstall -y protobuf") == 2
    assert "conda remove -y --force protobuf" in fix
    assert "conda install -y -c conda-forge protobuf=3.3.2" in fix
    (found,) = [x for x in report.findings if x.cause == "protobuf-incompatible"]
    assert (found.id, found.severity) == ("tensorflow.import", Severity.ERROR)


def test_check_counts_no_copy_outside_the_folder_that_ran() -> None:
    # One protobuf in the environment and one in the user's site-packages, which Python
    # reads apart: one copy where the refusal ran, so the reading keeps its general fix.
    user = dataclasses.replace(f.pkg("protobuf", "3.4.0"), location="/home/u/.local/lib/site")
    fix = _protobuf_fix(_import_refused(f.pkg("protobuf", "3.2.0"), user))
    assert "times" not in fix and "uninstall" not in fix


@pytest.mark.parametrize(
    ("copies", "installed"),
    [
        pytest.param(("3.19.6", "4.25.1"), '"protobuf==3.19.6"', id="newest-tensorflow-loads"),
        pytest.param(("4.21.12", "4.25.1"), '"protobuf<3.20,>=3.9.2"', id="none-in-range"),
    ],
)
def test_pip_copies_bring_back_one_tensorflows_range_admits(
    copies: tuple[str, str], installed: str
) -> None:
    # TensorFlow 2.10's wheel declares protobuf<3.20,>=3.9.2: protobuf 4 it does not load.
    listing = "Name: tensorflow\nVersion: 2.10.0\n" + "".join(
        f"protobuf                  {v}                   pypi_0    pypi\n" for v in copies
    )
    fix = _protobuf_fix(_explain(_pool_refusal("segnet/layers.py", "import keras") + listing))
    assert f"pip install {installed}" in fix and '4.25.1"' not in fix


def test_check_counts_no_conda_package_of_an_environment_around_the_folder_that_ran() -> None:
    # The interpreter is conda's base at /opt, and the refusal ran from a folder below it that
    # is not its site-packages (another environment's, as base's envs/NAME is): base's conda
    # protobuf is not in that folder, which records one copy.
    conda = (CondaPackage("protobuf", "3.3.2", "py27_0", "conda-forge"),)
    fix = _protobuf_fix(_import_refused(f.pkg("protobuf", "3.2.0"), conda=conda, prefix="/opt"))
    assert "times" not in fix and "conda remove" not in fix
    # At the prefix's own site-packages, conda's package is the second copy.
    there = _protobuf_fix(_import_refused(f.pkg("protobuf", "3.2.0"), conda=conda))
    assert "2 times" in there and "conda remove -y --force protobuf" in there
