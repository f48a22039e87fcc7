"""The usual bugs outside the lesson's list (issue 26, item 6): what they answer.

``posenc_lib.exercise._usual_bugs`` computes each bug's answers with the
library's functions; here each is checked against the bug written as a learner
writes it (``learner_functions``), and the checkers' banks are checked to tell
every bug apart from the right answer and the lesson's mistakes. Each bug's
message is pinned with its learner function (tests/test_exercise_checkers.py).
"""

import itertools

import learner_functions as lf
import numpy as np
import pytest

from posenc_lib import sinusoidal_positions
from posenc_lib.exercise._usual_bugs import (
    BUGS,
    POS_ENCODING_BUGS,
    SINUSOIDAL_POSITIONS_BUGS,
)
from posenc_lib.exercise.checkers import _pos_encoding_cases, _positions_cases
from posenc_lib.mistakes import MISTAKES, POS_ENCODING_MISTAKES

LEARNERS = {  # each bug, as a learner's sinusoidal_positions
    "positions-ignored": lf.sp_ignores_positions,
    "positions-sorted": lf.sp_sorts_positions,
    "off-by-one": lf.sp_off_by_one,
    "multiplied": lf.sp_multiplied,
    "degrees": lambda ps, d: np.array([lf.pe_degrees(p, d) for p in ps]),
}


def test_every_bug_has_a_learner_and_is_tried():
    assert set(LEARNERS) == set(BUGS) == set(SINUSOIDAL_POSITIONS_BUGS)
    assert set(POS_ENCODING_BUGS) <= set(BUGS)


@pytest.mark.parametrize("bug", LEARNERS)
def test_each_bug_answers_what_a_learner_who_makes_it_answers(bug):
    for positions, d in [([3, 0, 7, 7], 8), ([2, 0, 5], 2), (list(range(20)), 16)]:
        np.testing.assert_allclose(
            BUGS[bug].rows(positions, d), LEARNERS[bug](positions, d), atol=1e-9
        )


def test_the_banks_separate_every_bug_mistake_and_the_right_answer():
    for cases, bugs in [
        (_pos_encoding_cases(), POS_ENCODING_BUGS),
        (_positions_cases(), SINUSOIDAL_POSITIONS_BUGS),
    ]:
        table = [(np.atleast_1d(c.args[0]).tolist(), c.args[1]) for c in cases]
        answers = {"right": [sinusoidal_positions(*t) for t in table]}
        for mistake in POS_ENCODING_MISTAKES:
            rows = lambda ps, d, m=mistake: np.array([MISTAKES[m](p, d) for p in ps])  # noqa: E731
            answers[mistake] = [rows(*t) for t in table]
        for bug in bugs:
            answers[bug] = [BUGS[bug].rows(*t) for t in table]
        for a, b in itertools.combinations(answers, 2):
            assert any(
                not np.allclose(x, y, rtol=1e-6, atol=1e-6)
                for x, y in zip(answers[a], answers[b], strict=True)
            ), (a, b)
