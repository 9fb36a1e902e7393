"""uv's refusal of TensorFlow for the interpreter's tags, with its hint on the lines below naming
the interpreter and the Python tags of the release's wheels: a pin of one release is that
release's Pythons (tf-release-not-for-python), every release refused is this Python's
(tf-no-wheel-for-python); the fix names the Python the wheels are for."""

from __future__ import annotations

from tests import factories as f
from tests.explaining import SIGNATURES, explained, fix_text, top_error
from tfdoctor.evidence.pip import read_abi_hints
from tfdoctor.explain import explain
from tfdoctor.explain.reader import split_text

PINNED = """\
  \N{MULTIPLICATION SIGN} No solution found when resolving dependencies:
  ╰─▶ Because tensorflow==2.9.3 has no wheels with a matching Python ABI tag (e.g., `cp312`) and \
trainer==0.3.0 depends on tensorflow==2.9.3, we can conclude that trainer==0.3.0 cannot be used.
      And because only trainer==0.3.0 is available and you require trainer, we can conclude that \
your requirements are unsatisfiable.

      hint: You require CPython 3.12 (`cp312`), but we only found wheels for `tensorflow` \
(v2.9.3) with the following Python ABI tags: `cp37m`, `cp38`,
      `cp39`, `cp310`
"""

EVERY = """\
  \N{MULTIPLICATION SIGN} No solution found when resolving dependencies:
  ╰─▶ Because all versions of tensorflow have no wheels with a matching Python ABI tag (e.g., \
`cp314`) and you require
      tensorflow, we can conclude that your requirements are unsatisfiable.

      hint: You require CPython 3.14 (`cp314`), but we only found wheels for `tensorflow` \
(v2.20.0) with the following Python ABI tags: `cp39`, `cp310`, `cp311`, `cp312`, `cp313`
"""


def test_the_hint_is_read_across_the_terminals_wrap() -> None:
    (hint,) = read_abi_hints([PINNED])
    assert (hint.dist, hint.version, hint.python) == ("tensorflow", "2.9.3", "3.12")
    assert hint.tags == ("cp37m", "cp38", "cp39", "cp310")


def test_a_single_tag_is_read_too() -> None:
    text = (
        "hint: You require CPython 3.11 (`cp311`), but we only found wheels for `tensorflow` "
        "(v2.2.3) with the following Python ABI tag: `cp38`"
    )
    (hint,) = read_abi_hints([text])
    assert hint.tags == ("cp38",)


def test_a_pinned_release_without_wheels_for_this_python_names_its_pythons() -> None:
    top = top_error(explained(PINNED))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert "3.7, 3.8, 3.9, 3.10" in fix and "this is 3.12" in fix
    assert "uv venv --python 3.10" in fix
    # uv's words say which tag failed: not a 32-bit interpreter.
    assert "64-bit" not in fix


def test_no_release_for_this_python_is_the_pythons_cause() -> None:
    top = top_error(explained(EVERY))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert "uv venv --python 3.13" in fix and "64-bit" not in fix


def test_the_hint_of_another_distribution_is_not_tensorflows() -> None:
    # A companion's hint: whether any of its releases fits is the companion's question.
    text = EVERY.replace("`tensorflow` (v2.20.0)", "`tensorflow-text` (v2.18.0)").replace(
        "all versions of tensorflow", "all versions of tensorflow-text"
    )
    report = explained(text)
    assert all("The resolver chose" not in fix_text(f) for f in report.findings if f.fix)


def test_without_the_hint_the_matrix_names_the_pythons_and_no_bitness() -> None:
    # pixi resolves PyPI with uv's resolver and lists the versions it tried, one per line.
    log = (
        "  \N{MULTIPLICATION SIGN} failed to solve the pypi requirements of 'default' 'linux-64'\n"
        "  ╰─▶ Because only the following versions of tensorflow are available:\n"
        "          tensorflow<=2.17.0\n"
        "          tensorflow==2.17.1\n"
        "have no wheels with a matching Python ABI tag and you require tensorflow, we can "
        "conclude that your requirements are unsatisfiable.\n"
    )
    top = top_error(explained(log))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert "Python ABI tag" not in fix or "not its bitness" in fix
    assert "64-bit" not in fix and "uv venv --python 3." in fix
    assert "3.12" in fix  # a Python the newest release has wheels for (the fixture matrix's)


def test_uvs_earlier_hint_on_its_own_line_is_read_the_same_way() -> None:
    log = (
        "error: Distribution tensorflow==2.15.1 @ registry+https://pypi.org/simple can't be "
        "installed because it doesn't have a source distribution or wheel for the current "
        "platform\n"
        "\n"
        "hint: You're using CPython 3.13 (`cp313`), but `tensorflow` (v2.15.1) only has wheels "
        "with the following Python ABI tags: `cp39`, `cp310`, `cp311`\n"
    )
    (hint,) = read_abi_hints([log])
    assert (hint.python, hint.tags) == ("3.13", ("cp39", "cp310", "cp311"))
    top = top_error(explained(log))
    assert top.cause == "tf-release-not-for-python"
    assert "uv venv --python 3.11" in fix_text(top)


#: pixi's own words around a PyPI resolution it hands to uv's resolver (prefix-dev/pixi,
#: src/lock_file/resolve/pypi.rs), above uv's report, after the command the user ran.
PIXI_HEAD = (
    "$ pixi add --pypi trainer\n"
    "  \N{MULTIPLICATION SIGN} failed to solve the pypi requirements of 'default' 'linux-64'\n"
    "  ├─▶ failed to resolve pypi dependencies\n"
)


def test_uvs_words_in_a_pixi_workspace_get_pixis_commands() -> None:
    top = top_error(explained(PIXI_HEAD + PINNED))
    assert top.cause == "tf-release-not-for-python"
    assert top.fix is not None
    assert top.fix.commands == ('pixi add "python=3.10.*"', "pixi install")
    assert "uv venv" not in fix_text(top)


def test_an_unpublished_pin_in_a_pixi_workspace_is_pinned_with_pixi() -> None:
    refusal = (
        "  ╰─▶ Because there is no version of tensorflow==2.99.0 and you require "
        "tensorflow==2.99.0, we can conclude that your requirements are unsatisfiable.\n"
    )
    top = top_error(explained(PIXI_HEAD.replace("trainer", '"tensorflow==2.99.0"') + refusal))
    assert top.cause == "pinned-release-not-published"
    assert top.fix is not None and top.fix.commands
    assert all(c.startswith("pixi add --pypi ") for c in top.fix.commands)


def test_a_uv_command_far_above_the_error_still_says_whose_environment_it_is() -> None:
    # `uv run` in the first block, NumPy's refusal in another: the installer is read over the
    # whole log, not from the lines a signature cites.
    head = "$ uv run train.py\n" + "Epoch 1/10\n" * 3
    tail = (
        "A module that was compiled using NumPy 1.x cannot be run in\n"
        "NumPy 2.0.0 as it may crash. To support both 1.x and 2.x\n"
        "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
        "Traceback (most recent call last):\n"
        '  File "/work/proj/.venv/lib/python3.11/site-packages/tensorflow/__init__.py", '
        "line 37, in <module>\n"
        "    from tensorflow.python.tools import module_util as _module_util\n"
        "AttributeError: _ARRAY_API not found\n"
    )
    report = explain(
        [split_text(head), split_text(tail, first_line=5)], SIGNATURES, f.FIXTURE_MATRIX, None
    )
    top = top_error(report)
    assert top.cause == "numpy-abi"
    assert top.fix is not None and top.fix.commands == ('uv add "numpy<2"',)
