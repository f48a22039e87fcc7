"""Dot products of encodings: d/2 on the diagonal, a function of |i - j| elsewhere."""

import math
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc_lib import (
    offset_similarity,
    pos_encoding,
    similarity,
    sinusoidal_positions,
)

d_models = st.integers(1, 32).map(lambda half: 2 * half)
positions = st.integers(0, 1000)
# d/2 terms, each with an angle error up to about 1000 * 2**-53
TOLERANCE = 1e-10


@given(positions, d_models)
def test_self_similarity_is_half_the_width(pos, d_model):
    row = pos_encoding(pos, d_model)
    assert float(row @ row) == pytest.approx(d_model / 2, abs=TOLERANCE)
    assert similarity(pos, pos, d_model) == pytest.approx(d_model / 2, abs=TOLERANCE)


@given(positions, positions, st.integers(0, 1000), d_models)
def test_similarity_depends_only_on_the_distance(i, j, shift, d_model):
    base = similarity(i, j, d_model)
    assert similarity(j, i, d_model) == pytest.approx(base, abs=TOLERANCE)
    assert similarity(i + shift, j + shift, d_model) == pytest.approx(
        base, abs=TOLERANCE
    )
    closed_form = offset_similarity([abs(i - j)], d_model)[0]
    assert closed_form == pytest.approx(base, abs=TOLERANCE)


def test_similarity_is_the_dot_product_of_the_rows():
    expected = sum(math.cos(8 / 10000 ** (2 * pair / 8)) for pair in range(4))
    assert similarity(3, 11, 8) == pytest.approx(expected, abs=1e-13)


def test_similarity_falls_from_d_over_2_for_near_neighbours():
    values = offset_similarity(range(4), 64)
    assert values[0] == 32.0
    assert np.all(np.diff(values) < 0)


def test_the_similarity_of_all_rows_is_toeplitz_with_d_over_2_diagonal():
    table = sinusoidal_positions(range(40), 16)  # (40, 16)
    matrix = table @ table.T  # (40, 40)
    np.testing.assert_allclose(np.diag(matrix), 8.0, atol=1e-12)
    for offset in range(1, 40):
        diagonal = np.diagonal(matrix, offset)
        expected = offset_similarity([offset], 16)[0]
        np.testing.assert_allclose(diagonal, expected, atol=1e-12)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: similarity(-1, 0, 4), ValueError, "p == -1, must be an integer >= 0."),
        (
            lambda: similarity(0, 1.5, 4),
            TypeError,
            "q == 1.5 (float), must be an integer >= 0.",
        ),
        (
            lambda: similarity(0, 1, 3),
            ValueError,
            "d_model == 3, must be an even integer >= 2.",
        ),
        (
            lambda: offset_similarity([-2], 4),
            ValueError,
            "offsets[0] == -2, must be a non-negative integer.",
        ),
        (
            lambda: offset_similarity([0], "4"),
            TypeError,
            "d_model == '4' (str), must be an even integer >= 2.",
        ),
    ],
    ids=[
        "i-negative",
        "q-float",
        "d-odd",
        "offset-negative",
        "d-string",
    ],
)
def test_bad_input(call, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        call()
