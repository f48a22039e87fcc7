"""Every number of notebooks/answers/05_answers.ipynb, recomputed with the library."""

import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
from notebook_reading import EXERCISE_SCRIPT as LESSON

from posenc_lib import sinusoidal_positions
from posenc_lib.exercise import check_pos_encoding, run_commands

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
ANSWERS = NOTEBOOKS / "answers" / "05_answers.ipynb"
SOLUTION = NOTEBOOKS / "solutions" / "05_exercise.ipynb"
LEARNER = NOTEBOOKS / "05_exercise.ipynb"
SIM_SCRIPT = """
TABLE 1 8
0 0 0 0 0 0 0 0
SIM 1 3
SIM 6 8
SIM 0 7
SIM 5 12
SIM 10 4
SIM 15 9
"""


def _text(path):
    return "\n".join(c.source for c in nbformat.read(path, as_version=4).cells)


def test_each_exercise_has_an_answer_section_and_links_both_ways():
    answers = _text(ANSWERS)
    for notebook, prefix in ((SOLUTION, "../answers/"), (LEARNER, "answers/")):
        text = _text(notebook)
        for n in range(1, 5):
            assert f"([answer]({prefix}05_answers.ipynb#Exercise-{n}))" in text
    for n in range(1, 5):
        assert f"\n## Exercise {n}\n" in f"\n{answers}\n"
    assert "[← 05 · Exercise](../05_exercise.ipynb)" in answers
    assert "(../solutions/05_exercise.ipynb)" in answers
    assert SIM_SCRIPT.strip() in answers and LESSON.strip() in answers


def test_exercise_1_sine_everywhere_is_named_then_fixed():
    def sine_everywhere(pos, d):
        return np.sin(pos / 10000 ** (2 * (np.arange(d) // 2) / d))

    result = check_pos_encoding(sine_everywhere)
    assert result.mistake == "sine-only"
    assert result.message.splitlines()[1] == "Tried:    pos_encoding(0, 4)"


def test_exercise_2_a_shift_by_5_keeps_sim():
    lines = run_commands(SIM_SCRIPT).splitlines()
    assert lines == ["2.5637", "2.5637", "3.5163", "3.5163", "3.7837", "3.7837"]


def test_exercise_3_one_line_pos_encoding_passes():
    assert check_pos_encoding(lambda pos, d: sinusoidal_positions([pos], d)[0]).passed


def test_exercise_4_the_terminal_prints_what_run_commands_returns(tmp_path):
    path = tmp_path / "lesson.txt"
    path.write_text(LESSON)
    command = [sys.executable, "-m", "posenc_lib", "run", str(path)]
    terminal = subprocess.run(command, capture_output=True, text=True, check=True)
    assert terminal.stdout.splitlines() == run_commands(LESSON).splitlines()
    assert terminal.stdout.splitlines()[-1] == "0.5837"
