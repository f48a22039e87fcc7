"""Every claim of the exercise notebooks (05), recomputed with the library.

Their checks and stubs are tested in ``test_exercise_notebooks.py``; here are
the numbers the notebooks state.
"""

import math

import numpy as np
import pytest

from posenc_lib import CommandError, run_commands, sinusoidal_positions

SCRIPT = """
TABLE 2 4
0.5 -0.5 1 0
1 2 3 4
TOKENS 1 1 1 0
LOOKUP 0
POSENC 3
ADD 3
SIM 2 2
"""


def test_starter_prints_the_lessons_numbers():
    pe3 = [math.sin(3), math.cos(3), math.sin(0.03), math.cos(0.03)]
    add3 = np.array([0.5, -0.5, 1.0, 0.0]) + pe3
    expected = [
        "0.5000 -0.5000 1.0000 0.0000",
        " ".join(f"{x:.4f}" for x in pe3),
        " ".join(f"{x:.4f}" for x in add3),
        "2.0000",
    ]
    assert run_commands(SCRIPT).splitlines() == expected
    assert expected[2] == "0.6411 -1.4900 1.0300 0.9996"


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
