"""The checkers name the usual bugs outside the lesson's list (issue 26, item 6).

Each bug is written here as a learner would write it, independently of
``posenc_lib.exercise._usual_bugs`` (which computes what the checker compares
with), and its whole message is pinned.
"""

import itertools
import math

import numpy as np
import pytest

from posenc_lib import sinusoidal_positions
from posenc_lib.exercise import (
    check_lookup,
    check_pos_encoding,
    check_sinusoidal_positions,
)
from posenc_lib.exercise._usual_bugs import (
    POS_ENCODING_BUGS,
    SINUSOIDAL_POSITIONS_BUGS,
    rows_for,
)
from posenc_lib.exercise.checkers import _pos_encoding_cases, _positions_cases
from posenc_lib.mistakes import MISTAKES, POS_ENCODING_MISTAKES


def loop_encoding(pos, d, angle_of):
    """``PE[pos]`` as a learner's loop writes it, with their own angle."""
    row = []
    for k in range(d):
        angle = angle_of(pos, k // 2, d)
        row.append(math.sin(angle) if k % 2 == 0 else math.cos(angle))
    return np.array(row)


def right_angle(pos, pair, d):
    return pos / 10000 ** (2 * pair / d)


def multiplied(pos, d):
    return loop_encoding(pos, d, lambda p, i, d: p * 10000 ** (2 * i / d))


def in_degrees(pos, d):
    return loop_encoding(pos, d, lambda p, i, d: math.radians(right_angle(p, i, d)))


def counted_from_one(pos, d):
    return loop_encoding(pos + 1, d, right_angle)


def ignores_positions(positions, d_model):
    return np.array(
        [loop_encoding(p, d_model, right_angle) for p in range(len(positions))]
    )


def sorts_positions(positions, d_model):
    return np.array([loop_encoding(p, d_model, right_angle) for p in sorted(positions)])


def rowwise(pos_encoding):
    return lambda positions, d_model: np.array(
        [pos_encoding(p, d_model) for p in positions]
    )


# -- the banks tell every bug apart from the right answer and the mistakes ------


def _separated(outputs_a, outputs_b):
    return any(
        not np.allclose(a, b, rtol=1e-6, atol=1e-6)
        for a, b in zip(outputs_a, outputs_b, strict=True)
    )


def test_the_banks_separate_every_bug_mistake_and_the_right_answer():
    for cases, bugs in [
        (_pos_encoding_cases(), POS_ENCODING_BUGS),
        (_positions_cases(), SINUSOIDAL_POSITIONS_BUGS),
    ]:
        table = [
            (np.atleast_1d(c.args[0]).tolist(), c.args[1]) for c in cases
        ]  # (positions, d) of each case
        answers = {"right": [sinusoidal_positions(*t) for t in table]}
        for mistake in POS_ENCODING_MISTAKES:
            answers[mistake] = [rowwise(MISTAKES[mistake])(*t) for t in table]
        for bug in bugs:
            answers[bug[0]] = [rows_for(bug)(*t) for t in table]
        for a, b in itertools.combinations(answers, 2):
            assert _separated(answers[a], answers[b]), (a, b)


def test_the_bugs_the_checker_computes_are_the_learners_bugs():
    table = rows_for(POS_ENCODING_BUGS[1])([3, 7], 8)  # multiply instead of divide
    np.testing.assert_allclose(table, rowwise(multiplied)([3, 7], 8), rtol=1e-12)
    table = rows_for(POS_ENCODING_BUGS[2])([3, 7], 8)  # degrees
    np.testing.assert_allclose(table, rowwise(in_degrees)([3, 7], 8), rtol=1e-12)


# -- each bug, named, with its whole message --------------------------------------

FORMULA = 'See chapter 02: "The formula", "The worked trace".'
CARD = 'See chapter 02: "The formula", "The exercise card\'s two examples".'
LOOKUP = 'See chapter 01: "The table", "The lookup returns a copy".'

OFF_BY_ONE = (
    "it looks off by one: your answer for position p is PE[p + 1].",
    "Positions count from 0: the first token is at position 0, and PE[0] is "
    "[0, 1, 0, 1, ...].",
    "Use the position as given; do not add 1 to it.",
)

MESSAGES = {
    "multiply": (
        check_pos_encoding,
        multiplied,
        [
            "pos_encoding: not right yet; it looks like multiply instead of divide.",
            "Tried:    pos_encoding(3, 4)",
            "Expected: [0.1411 -0.9900 0.0300 0.9996]",
            "Got:      [0.1411 -0.9900 -0.9998 -0.0221]",
            "Columns that differ: 2, 3.",
            "Your angles are pos * 10000 ** (2 * pair / d): they grow with the "
            "pair, so the later pairs turn fastest.",
            "The formula divides: angle = pos / 10000 ** (2 * pair / d).",
            FORMULA,
        ],
    ),
    "degrees": (
        check_pos_encoding,
        in_degrees,
        [
            "pos_encoding: not right yet; it looks like the angle was read as degrees.",
            "Tried:    pos_encoding(3, 4)",
            "Expected: [0.1411 -0.9900 0.0300 0.9996]",
            "Got:      [0.0523 0.9986 0.0005 1.0000]",
            "Columns that differ: 0, 1, 2, 3.",
            "Your sines and cosines are those of angle * pi / 180, as if the angle "
            "were in degrees (math.radians(angle), or a calculator in DEG mode).",
            "angle = pos / 10000 ** (2 * pair / d) is already in radians, which is "
            "what np.sin, np.cos, math.sin and math.cos take: pass it as it is.",
            FORMULA,
        ],
    ),
    "off-by-one": (
        check_pos_encoding,
        counted_from_one,
        [
            f"pos_encoding: not right yet; {OFF_BY_ONE[0]}",
            "Tried:    pos_encoding(0, 4)",
            "Expected: [0.0000 1.0000 0.0000 1.0000]",
            "Got:      [0.8415 0.5403 0.0100 1.0000]",
            "Columns that differ: 0, 1, 2, 3.",
            *OFF_BY_ONE[1:],
            FORMULA,
        ],
    ),
    "positions-off-by-one": (
        check_sinusoidal_positions,
        rowwise(counted_from_one),
        [
            f"sinusoidal_positions: not right yet; {OFF_BY_ONE[0]}",
            "Tried:    sinusoidal_positions([0, 1], 4)",
            "Row 0 of the answer:",
            "Expected: [0.0000 1.0000 0.0000 1.0000]",
            "Got:      [0.8415 0.5403 0.0100 1.0000]",
            "Columns that differ: 0, 1, 2, 3.",
            *OFF_BY_ONE[1:],
            CARD,
        ],
    ),
    "positions-ignored": (
        check_sinusoidal_positions,
        ignores_positions,
        [
            "sinusoidal_positions: not right yet; the positions given were "
            "ignored: row k is PE[k].",
            "Tried:    sinusoidal_positions([2, 0, 5], 2)",
            "Row 0 of the answer:",
            "Expected: [0.9093 -0.4161]",
            "Got:      [0.0000 1.0000]",
            "Columns that differ: 0, 1.",
            "Your rows are the encodings of 0, 1, ..., n - 1 "
            "(range(len(positions))), whatever positions holds.",
            "Row k must be PE[positions[k]]: compute the angles from the positions "
            "themselves.",
            CARD,
        ],
    ),
    "positions-sorted": (
        check_sinusoidal_positions,
        sorts_positions,
        [
            "sinusoidal_positions: not right yet; the positions were sorted first.",
            "Tried:    sinusoidal_positions([2, 0, 5], 2)",
            "Row 0 of the answer:",
            "Expected: [0.9093 -0.4161]",
            "Got:      [0.0000 1.0000]",
            "Columns that differ: 0, 1.",
            "Your rows are the encodings of sorted(positions).",
            "Row k must be PE[positions[k]], in the order given (the card: "
            "positions come in any order, repeats allowed).",
            CARD,
        ],
    ),
    "positions-multiply": (
        check_sinusoidal_positions,
        rowwise(multiplied),
        None,  # the same explanation as for pos_encoding, checked by its headline
    ),
    "positions-degrees": (check_sinusoidal_positions, rowwise(in_degrees), None),
    "lookup-column": (
        check_lookup,
        lambda table, token_id: table[:, token_id].copy(),
        [
            "lookup: not right yet; that is column 0 of the table, not row 0.",
            "Tried:    lookup(table, 0)",
            "Expected: [0.5000 -0.5000 1.0000 0.0000] (row 0, 4 numbers)",
            "Got:      [0.5000 1.0000 -1.5000] (table[:, 0], 3 numbers)",
            "The table has one row per token: token t's vector is table[t] "
            "(table[t, :]), not table[:, t].",
            LOOKUP,
        ],
    ),
    "lookup-list": (
        check_lookup,
        lambda table, token_id: [float(x) for x in table[token_id]],
        [
            "lookup: not right yet; your function returns a list, not an array.",
            "Tried:    lookup(table, 0)",
            "Got:      the right numbers, as a list",
            "A list or a tuple does not pass here: the lesson's next step adds to "
            "the row (the embedding plus the encoding), and Python's + joins lists "
            "and tuples instead of adding their numbers (row + row holds 2 * d of "
            "them). Return an array: table[token_id].copy().",
            LOOKUP,
        ],
    ),
    "positions-list": (
        check_sinusoidal_positions,
        lambda positions, d_model: sinusoidal_positions(positions, d_model).tolist(),
        [
            "sinusoidal_positions: not right yet; your function returns a list, "
            "not an array.",
            "Tried:    sinusoidal_positions([0, 1], 4)",
            "Got:      the right numbers, as a list",
            'A list of rows does not pass here: the exercise card asks for "a '
            'float array of shape (len(positions), d_model)". Return '
            "np.array(rows), or build the array directly.",
            CARD,
        ],
    ),
}


@pytest.mark.parametrize("bug", MESSAGES)
def test_each_usual_bug_is_named_with_its_message(bug):
    check, fn, lines = MESSAGES[bug]
    result = check(fn)
    assert (result.passed, result.mistake, result.convention) == (False, None, None)
    assert "matches none of the common mistakes" not in result.message
    if lines is None:
        headline = result.message.splitlines()[0]
        assert headline.startswith("sinusoidal_positions: not right yet; it looks")
    else:
        assert result.message.splitlines() == lines


def test_a_tuple_from_lookup_is_refused_as_a_list_is():
    result = check_lookup(lambda table, token_id: tuple(table[token_id]))
    assert not result.passed
    assert result.message.splitlines()[0] == (
        "lookup: not right yet; your function returns a tuple, not an array."
    )


def test_a_list_from_pos_encoding_passes():
    # the lesson writes PE[3] as four numbers, and the starter reads a list
    result = check_pos_encoding(
        lambda pos, d: loop_encoding(pos, d, right_angle).tolist()
    )
    assert result.passed
