"""A fix that moves TensorFlow to another line names what moves with it: the Keras of the line
pip takes (Keras 3 serves tf.keras from 2.16 on, Keras 2 before: the matrix's keras pins), and
a Python that line has wheels for where the installed one has none."""

from __future__ import annotations

from tests import factories as f
from tfdoctor import causes
from tfdoctor.causes.common import tensorflow_move_fix
from tfdoctor.facts import PackageFacts
from tfdoctor.machine import Machine

TEXT = "Install the TensorFlow the add-on declares."


def _machine(
    tf: str, python: str = "3.11.9", *extra: PackageFacts, windows: bool = False
) -> Machine:
    installed = (
        f.pkg("tensorflow", tf, top_level=("tensorflow",)),
        f.pkg("numpy", "1.26.4"),
        *extra,
    )
    return Machine(
        f.facts(
            packages=installed,
            tensorflow=f.tensorflow(version=tf),
            python=f.python(version=python),
            **(
                {"platform": f.platform(system="Windows", machine="AMD64", libc="")}
                if windows
                else {}
            ),
        ),
        f.FIXTURE_MATRIX,
    )


def _keras_pin(line: str) -> str:
    found = f.FIXTURE_MATRIX.line_for(f"{line}.0")
    assert found is not None and found.pins.keras is not None
    return f"keras{found.pins.keras}"


def test_a_downgrade_below_the_first_keras3_line_installs_that_lines_keras_2() -> None:
    fix = tensorflow_move_fix(_machine("2.16.1"), TEXT, "tensorflow<2.16,>=2.13")
    assert fix.commands[-1].endswith(f'install "tensorflow<2.16,>=2.13" "{_keras_pin("2.15")}"')
    assert "Keras moves with it: TensorFlow 2.15's tf.keras is Keras 2" in fix.text
    assert "from TensorFlow 2.16 on" in fix.text


def test_an_upgrade_into_keras_3_names_keras_3_and_an_installed_tf_keras_of_the_line() -> None:
    m = _machine("2.15.1", "3.11.9", f.pkg("tf-keras", "2.15.1"))
    fix = tensorflow_move_fix(m, TEXT, "tensorflow<2.17,>=2.16")
    line = f.FIXTURE_MATRIX.line_for("2.16.0")
    assert line is not None
    assert f'"{_keras_pin("2.16")}" "tf-keras{line.pins.tf_keras}"' in fix.commands[-1]
    assert "tf.keras is Keras 3" in fix.text


def test_a_move_within_one_keras_names_no_keras() -> None:
    fix = tensorflow_move_fix(_machine("2.15.1"), TEXT, "tensorflow<2.15,>=2.13")
    assert fix.text == TEXT
    assert fix.commands[-1].endswith('install "tensorflow<2.15,>=2.13"')


def test_a_range_without_a_wheel_for_this_python_moves_the_python_too() -> None:
    fix = tensorflow_move_fix(_machine("2.16.1", "3.12.4"), TEXT, "tensorflow<2.15,>=2.13")
    line = f.FIXTURE_MATRIX.line_for("2.14.0")
    assert line is not None
    newest = line.pythons_on("linux-x86_64")[-1]
    assert "No TensorFlow in that range has a wheel for Python 3.12" in fix.text
    assert fix.commands[0] == f"python{newest} -m venv .venv"
    assert fix.commands[-1] == (
        f'.venv/bin/python -m pip install "tensorflow<2.15,>=2.13" "{_keras_pin("2.14")}"'
    )


def test_a_new_python_on_windows_is_made_by_its_launcher() -> None:
    # python.org's Windows installer puts no python3.X on the PATH, and a virtual
    # environment's interpreter is under Scripts\ there: the commands run as written.
    m = _machine("2.16.1", "3.12.4", windows=True)
    assert m.os == "windows"
    fix = tensorflow_move_fix(m, TEXT, "tensorflow<2.15,>=2.13")
    line = f.FIXTURE_MATRIX.line_for("2.14.0")
    assert line is not None
    newest = line.pythons_on("windows-x86_64")[-1]
    assert fix.commands[0] == f"py -{newest} -m venv .venv"
    assert fix.commands[-1].startswith('.venv\\Scripts\\python -m pip install "tensorflow<2.15')


def test_a_companions_downgrade_names_the_keras_that_moves_with_tensorflow() -> None:
    # An add-on at its end of life whose last release declares a TensorFlow before Keras 3.
    m = _machine("2.16.1")
    fix = causes.software.companion_fix(m, "tensorflow-addons")
    assert "downgrades TensorFlow from 2.16.1" in fix.text
    assert "Keras moves with it" in fix.text and "keras<" in fix.commands[-1]


def test_a_move_between_keras_3_lines_moves_an_installed_tf_keras_of_the_old_line() -> None:
    # tf-keras 2.17 declares TensorFlow 2.17's line (the matrix's tf_keras pin): it breaks
    # beside 2.16, though tf.keras is Keras 3 on both lines.
    m = _machine("2.17.1", "3.11.9", f.pkg("tf-keras", "2.17.0"))
    fix = tensorflow_move_fix(m, TEXT, "tensorflow<2.17,>=2.16")
    line = f.FIXTURE_MATRIX.line_for("2.16.0")
    assert line is not None and line.pins.tf_keras is not None
    assert fix.commands[-1].endswith(
        f'install "tensorflow<2.17,>=2.16" "tf-keras{line.pins.tf_keras}"'
    )
    assert "tf-keras 2.17.0 is of another line" in fix.text
    assert "Keras moves with it" not in fix.text


def test_a_tf_keras_of_the_line_taken_stays() -> None:
    m = _machine("2.17.1", "3.11.9", f.pkg("tf-keras", "2.16.0"))
    fix = tensorflow_move_fix(m, TEXT, "tensorflow<2.17,>=2.16")
    assert fix.text == TEXT


def test_a_companion_built_for_older_lines_names_the_python_those_lines_need() -> None:
    # dm-reverb's library asks for abseil's 2020_02_25 LTS, TensorFlow 2.3's and 2.4's: no
    # wheel of those lines installs on Python 3.11, so the move names a Python they have.
    m = _machine("2.11.0", "3.11.9", f.pkg("dm-reverb", "0.2.0"))
    fix = causes.software.companion_build_fix(
        m, "dm-reverb", "_ZN4absl14lts_2020_02_2513base_internal8SpinLock4LockEv", "2.11.0"
    )
    assert "lts_2020_02_25" in fix.text
    assert "No TensorFlow in that range has a wheel for Python 3.11" in fix.text, fix.text
    assert [c for c in fix.commands if "-m venv" in c], fix.commands
