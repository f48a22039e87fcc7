"""Dot products of encodings: d/2 on the diagonal, a function of |i - j| elsewhere.

(test_adversarial_exactness.py holds ``similarity`` to the closed form
``sum_i cos((p - q) w_i)`` at any two positions, so to the dot product and
a function of the distance.)
"""

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc_lib import (
    offset_similarity,
    pos_encoding,
    rotation_matrix,
    similarity,
    sinusoidal_positions,
)
from posenc_lib.properties import (
    diagonal_spread,
    min_row_distance,
    pair_turns,
    rotation_error,
    table_of,
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


def test_pair_turns_reads_back_a_scaled_turn_under_what_is_not_one():
    """Each block: a known scale times a turn, plus a reflection and cross-pair
    entries, which the turn part must ignore."""
    rng = np.random.default_rng(0)
    angle, scale = rng.uniform(-3, 3, 4), rng.uniform(0.5, 5, 4)  # (4,) each
    cos, sin = scale * np.cos(angle), scale * np.sin(angle)
    reflection = rng.normal(size=(4, 2))  # [[c, d], [d, -c]]: no turn in it
    matrix = rng.normal(size=(8, 8))  # cross-pair entries stay, blocks are replaced
    for i in range(4):
        c, d = reflection[i]
        matrix[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [
            [cos[i] + c, sin[i] + d],
            [-sin[i] + d, cos[i] - c],
        ]
    found = pair_turns(matrix)
    np.testing.assert_allclose(found.angle, angle, rtol=0, atol=1e-12)
    np.testing.assert_allclose(found.scale, scale, rtol=0, atol=1e-12)
    expected = np.kron(np.eye(4), np.ones((2, 2)))  # the blocks, and only them
    assert np.array_equal(found.matrix != 0, expected != 0)
    np.testing.assert_allclose(
        pair_turns(found.matrix).angle, angle, rtol=0, atol=1e-12
    )


def test_pair_turns_of_a_rotation_are_its_angles():
    found = pair_turns(rotation_matrix(5, 16))
    wrapped = np.angle(np.exp(1j * 5 * 10000 ** (-np.arange(8) / 8)))  # (-pi, pi]
    np.testing.assert_allclose(found.angle, wrapped, rtol=0, atol=1e-12)
    np.testing.assert_allclose(found.scale, 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(found.matrix, rotation_matrix(5, 16), atol=1e-15)


@pytest.mark.parametrize("shape", [(1, 1), (1, 5), (5, 1), (3, 7), (7, 3), (6, 6)])
def test_diagonal_spread_is_the_largest_range_of_a_diagonal(shape):
    """It walks the shorter side; here each diagonal, one at a time."""
    matrix = np.random.default_rng(sum(shape)).normal(size=shape)
    diagonals = range(1 - shape[0], shape[1])
    expected = max(np.ptp(np.diagonal(matrix, k)) for k in diagonals)
    assert diagonal_spread(matrix) == expected


FN = "must return d_model == 4 real"
TO, ROWS = table_of, np.zeros((2, 4))
REFUSED = [  # (call, error, message)
    (lambda: similarity(-1, 0, 4), ValueError, "p == -1, must be an integer >= 0."),
    (lambda: similarity(0, 1.5, 4), TypeError, "q == 1.5 (float), must be an integer "),
    (lambda: similarity(0, 1, 3), ValueError, "d_model == 3, must be an even integer "),
    (lambda: offset_similarity([-2], 4), ValueError, "offsets[0] == -2, must be a non"),
    (lambda: offset_similarity([0], "4"), TypeError, "d_model == '4' (str), must be "),
    (lambda: pair_turns(np.ones((4, 6))), ValueError, "matrix has shape (4, 6), must"),
    (lambda: pair_turns(np.ones((3, 3))), ValueError, "matrix.shape[0] == 3, must be"),
    (lambda: TO(lambda p, d: None, 2, 4), TypeError, f"fn(0, 4) returned None, {FN}"),
    (lambda: TO(lambda p, d: [[0], [1, 2]], 2, 4), TypeError, "fn(0, 4) returned [["),
    (lambda: TO(lambda p, d: [0.0], 2, 4), ValueError, "fn(0, 4) returned shape (1,)"),
    (lambda: rotation_error(ROWS, 2), ValueError, "offset == 2, must be < 2 (the num"),
    (
        lambda: min_row_distance([[0.0, 1.0]]),
        ValueError,
        "table has shape (1, 2), must",
    ),
    (
        lambda: TO(pos_encoding, 10**6, 2),  # a function called 10**6 times
        ValueError,
        "n_positions == 1000000, must be an integer in [1, 100000].",
    ),
]


@pytest.mark.parametrize(("call", "error", "message"), REFUSED)
def test_each_function_names_its_argument(call, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}"):
        call()
