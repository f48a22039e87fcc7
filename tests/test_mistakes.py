"""posenc_lib.mistakes: each mistake does what the lesson says it does."""

import inspect
import math
import re

import numpy as np
import pytest

from posenc_lib import pos_encoding
from posenc_lib.mistakes import (
    DESCRIPTION,
    MISTAKES,
    POS_ENCODING_MISTAKES,
    WRONG_LINE,
    added_to_table,
    integer_power,
    sine_only,
    swapped_sin_cos,
)

IDS = [
    "k-instead-of-pair",
    "swapped-sin-cos",
    "sine-only",
    "integer-division",
    "integer-power",
    "added-to-table",
]


def by_formula(pos, d, *, exponent, even, odd, divisor=lambda x: x):
    """One row built from the pieces of the formula, with plain math."""
    row = []
    for k in range(d):
        angle = pos / divisor(10000 ** exponent(k, d))
        row.append((even if k % 2 == 0 else odd)(angle))
    return row


def right_exponent(k, d):
    return 2 * (k // 2) / d


REFERENCES = {
    "k-instead-of-pair": lambda pos, d: by_formula(
        pos, d, exponent=lambda k, d: 2 * k / d, even=math.sin, odd=math.cos
    ),
    "swapped-sin-cos": lambda pos, d: by_formula(
        pos, d, exponent=right_exponent, even=math.cos, odd=math.sin
    ),
    "sine-only": lambda pos, d: by_formula(
        pos, d, exponent=right_exponent, even=math.sin, odd=math.sin
    ),
    "integer-division": lambda pos, d: by_formula(
        pos, d, exponent=lambda k, d: 0, even=math.sin, odd=math.cos
    ),
    "integer-power": lambda pos, d: by_formula(
        pos, d, exponent=right_exponent, even=math.sin, odd=math.cos, divisor=int
    ),
}


def test_the_registry_holds_the_issues_ids_in_order():
    assert list(MISTAKES) == IDS
    assert POS_ENCODING_MISTAKES == tuple(IDS[:-1])
    for table in (WRONG_LINE, DESCRIPTION):
        assert list(table) == IDS


@pytest.mark.parametrize("mistake", IDS)
def test_the_wrong_line_is_the_line_that_runs_and_the_docstring_shows_it(mistake):
    function = MISTAKES[mistake]
    assert function.__name__ == mistake.replace("-", "_")
    assert WRONG_LINE[mistake] in inspect.getsource(function)
    assert WRONG_LINE[mistake] in function.__doc__
    assert "\n" not in WRONG_LINE[mistake]


@pytest.mark.parametrize("mistake", POS_ENCODING_MISTAKES)
@pytest.mark.parametrize(("pos", "d"), [(0, 2), (3, 4), (1, 6), (10, 6), (37, 16)])
def test_each_mistake_matches_its_plain_math_reference(mistake, pos, d):
    got = MISTAKES[mistake](pos, d)
    assert got.shape == (d,)
    np.testing.assert_allclose(got, REFERENCES[mistake](pos, d), rtol=0, atol=1e-12)


@pytest.mark.parametrize("mistake", POS_ENCODING_MISTAKES)
def test_each_mistake_differs_from_the_right_answer(mistake):
    differs = [
        not np.allclose(MISTAKES[mistake](pos, d), pos_encoding(pos, d))
        for pos, d in [(0, 4), (3, 4), (10, 6)]
    ]
    assert any(differs)


def test_integer_power_only_matters_where_the_divisor_is_not_whole():
    for d in (2, 4, 8):  # divisors 1, 10, 100, 1000 are whole numbers
        np.testing.assert_allclose(integer_power(123, d), pos_encoding(123, d))
    assert not np.allclose(integer_power(1, 6), pos_encoding(1, 6))


def test_swapped_and_sine_only_break_position_zero():
    np.testing.assert_array_equal(swapped_sin_cos(0, 4), [1, 0, 1, 0])
    np.testing.assert_array_equal(sine_only(0, 4), [0, 0, 0, 0])


def test_sine_only_loses_the_constant_norm():
    norms = [float(sine_only(pos, 8) @ sine_only(pos, 8)) for pos in range(1, 6)]
    assert all(abs(norm - 4.0) > 0.05 for norm in norms)


def test_added_to_table_returns_a_view_that_writes_into_the_table():
    table = np.array([[0.5, -0.5, 1.0, 0.0], [1.0, 2.0, 3.0, 4.0]])
    row = added_to_table(table, 0)
    np.testing.assert_array_equal(row, [0.5, -0.5, 1.0, 0.0])
    assert np.shares_memory(row, table)
    row += pos_encoding(3, 4)
    # the table itself now holds the encoded row (the lesson's numbers: test_embedding)
    np.testing.assert_array_equal(table[0], [0.5, -0.5, 1.0, 0.0] + pos_encoding(3, 4))


@pytest.mark.parametrize("mistake", POS_ENCODING_MISTAKES)
@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((-1, 4), ValueError, "pos == -1, must be an integer >= 0."),
        ((1, 3), ValueError, "d == 3, must be an even integer >= 2."),
        ((1.5, 4), TypeError, "pos == 1.5 (float), must be an integer >= 0."),
    ],
    ids=["negative-pos", "odd-d", "float-pos"],
)
def test_mistakes_reject_bad_input_like_the_library(mistake, args, error, message):
    with pytest.raises(error, match=re.escape(message)):
        MISTAKES[mistake](*args)


def test_added_to_table_rejects_a_negative_id():
    message = "token_id == -1, must be in [0, 2), i.e. 0 <= token_id < vocab_size."
    with pytest.raises(ValueError, match=re.escape(message)):
        added_to_table(np.zeros((2, 4)), -1)
