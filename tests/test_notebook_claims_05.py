"""Every claim of the exercise notebooks (05), recomputed with the library.

Their checks and stubs are tested in ``test_exercise_notebooks.py``; here are
the numbers the notebooks state.
"""

import math
from pathlib import Path

import nbformat
import numpy as np
import pytest
from notebook_reading import EXERCISE_HEADER as HEADER
from notebook_reading import EXERCISE_SCRIPT as SCRIPT
from notebook_reading import cells, markdown

from posenc_lib import pos_encoding, sinusoidal_positions
from posenc_lib.exercise import CommandError, compare_outputs, run_commands
from posenc_lib.mistakes import MISTAKES

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
SOLUTION = NOTEBOOKS / "solutions" / "05_exercise.ipynb"


def test_starter_prints_the_lessons_numbers():
    pe3 = [math.sin(3), math.cos(3), math.sin(0.03), math.cos(0.03)]
    add3 = np.array([0.5, -0.5, 1.0, 0.0]) + pe3
    expected = [
        "0.5000 -0.5000 1.0000 0.0000",
        " ".join(f"{x:.4f}" for x in pe3),
        " ".join(f"{x:.4f}" for x in add3),
        f"{math.cos(2) + math.cos(0.02):.4f}",
    ]
    assert run_commands(SCRIPT).splitlines() == expected
    assert expected[2] == "0.6411 -1.4900 1.0300 0.9996"
    assert expected[3] == "0.5837"  # SIM 1 3: two different positions


def test_starter_names_the_line_that_needs_an_unwritten_function():
    def lookup(table, token_id):
        raise NotImplementedError("lookup is not written yet")

    with pytest.raises(CommandError) as caught:
        run_commands(SCRIPT, lookup=lookup)
    assert str(caught.value).startswith("line 6: LOOKUP: lookup(table, 0) raised ")


def test_the_cards_examples():
    np.testing.assert_allclose(
        sinusoidal_positions([0, 1], 4),
        [[0, 1, 0, 1], [0.841471, 0.540302, 0.00999983, 0.99995]],
        atol=1e-6,
    )
    np.testing.assert_allclose(
        sinusoidal_positions([2, 0, 5], 2),
        [[0.909297, -0.416147], [0, 1], [-0.958924, 0.283662]],
        atol=1e-6,
    )


def _cells():
    return cells(SOLUTION)


def _markdown():
    return markdown(SOLUTION)


def test_the_script_in_the_notebook_is_the_tested_one():
    sources = [c.source for c in _cells() if c.cell_type == "code"]
    assert any(SCRIPT.strip() in source for source in sources)
    assert any(HEADER.strip() in source for source in sources)


def test_the_grammar_table_gives_every_command_and_its_printed_example():
    text = _markdown()
    for usage in (
        "TABLE <vocab_size> <d>",
        "TOKENS <id> <id> ...",
        "LOOKUP <token_id>",
    ):
        assert f"| `{usage}` |" in text
    for usage in ("POSENC <pos>", "ADD <pos>", "SIM <p> <q>"):
        assert f"| `{usage}` |" in text
    printed = run_commands(SCRIPT).splitlines()
    for command, line in zip(
        ["LOOKUP 0", "POSENC 3", "ADD 3", "SIM 1 3"], printed, strict=True
    ):
        assert f"| `{command}`" in text and f"| `{line}` |" in text
    assert "`LOOKUP 0` takes a *token id*" in text
    assert "`ADD 0` takes a *position*" in text
    grammar = text.index("## The command language")
    assert text.index("`SIM <p> <q>`") > grammar
    assert text.index("the similarity $PE[p] \\cdot PE[q]$") < text.index("## Summary")


def test_lookup_0_and_add_0_use_different_rows():
    lines = run_commands(HEADER + "LOOKUP 0\nADD 0").splitlines()
    assert lines == ["0.5000 -0.5000 1.0000 0.0000", "1.0000 3.0000 3.0000 5.0000"]


def test_sim_of_a_position_with_itself_is_half_the_width():
    assert run_commands(HEADER + "SIM 2 2") == "2.0000"


def test_sim_depends_only_on_the_distance():
    assert run_commands(HEADER + "SIM 1 3\nSIM 4 6").splitlines() == ["0.5837"] * 2
    assert (round(math.cos(2), 4), round(math.cos(0.02), 4)) == (-0.4161, 0.9998)


def test_sine_only_first_differs_on_line_2_number_2():
    reference = run_commands(SCRIPT)
    comparison = compare_outputs(
        run_commands(SCRIPT, pos_encoding=MISTAKES["sine-only"]), reference
    )
    assert comparison.first == 2
    assert "line 2, number 2: yours 0.1411, reference -0.9900" in comparison.summary()
    assert [a != b for a, b in comparison.rows] == [False, True, True, True]
    assert round(pos_encoding(3, 4)[1], 4) == round(math.cos(3), 4) == -0.99


def test_at_least_four_predictions_each_followed_by_code_and_an_explanation():
    cells = _cells()
    prompts = [i for i, c in enumerate(cells) if c.source.startswith("**Predict.**")]
    assert len(prompts) >= 4
    for i in prompts:
        assert "then run the next cell" in " ".join(cells[i].source.split())
        assert cells[i + 1].cell_type == "code"
        assert cells[i + 2].source.startswith("<details><summary>Why?</summary>")
        assert "solution" not in cells[i + 1].metadata.get("tags", [])


def _stored_html(nb_path, cell_id):
    cell = next(
        c for c in nbformat.read(nb_path, as_version=4).cells if c.id == cell_id
    )
    return "".join(o["data"]["text/html"] for o in cell.outputs if "data" in o)


def test_stored_diffs_show_the_solution_agreeing_and_the_learner_not():
    same = "Same output, as printed to 4 decimals: all 4 lines agree."
    assert same in _stored_html(SOLUTION, "exercise-20")
    learner = _stored_html(NOTEBOOKS / "05_exercise.ipynb", "exercise-20")
    assert "4 of 4 lines differ; the first is line 1." in learner
    assert "#ffcdd2" in learner  # the first differing line is highlighted
