"""sinusoidal_positions and friends against a plain ``math.sin`` loop (reference.py).

Fewer than 2**12 rows of positions below 2**12 take the formula as written, the
rest ``posenc_lib.exact``: every kind of input is checked, within 1e-12 (both round
``pos / divisor`` once, by at most 2.3e-13 below 2**12, or the library not at all).
"""

import math
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import mpmath_rows
from reference import plain_loop as reference

from posenc_lib import (
    exact,
    frequencies,
    pos_encoding,
    rotation_matrix,
    sinusoidal_positions,
    wavelengths,
)

d_models = st.integers(1, 32).map(lambda half: 2 * half)


@pytest.mark.parametrize("d_model", [2, 4, 10, 512])
@pytest.mark.parametrize("n", [1, 4096], ids=["formula", "exact-run"])
def test_position_zero_is_exactly_0_1_0_1(d_model, n):
    first = sinusoidal_positions(range(n), d_model)[0]
    np.testing.assert_array_equal(first, [0.0, 1.0] * (d_model // 2))


def test_shuffled_and_duplicate_positions_match_plain_loop():
    positions = np.random.default_rng(0).integers(0, 2000, size=300)  # has repeats
    assert len(set(positions.tolist())) < len(positions)
    result = sinusoidal_positions(positions, 32)
    np.testing.assert_allclose(result, reference(positions, 32), rtol=0, atol=1e-12)


def test_shuffled_inside_with_the_endpoints_of_a_range_is_not_taken_for_one():
    middle = np.random.default_rng(1).permutation(np.arange(1, 4199))
    positions = [0, *middle.tolist(), 4199]  # first and last as in range(4200)
    result = sinusoidal_positions(positions, 8)
    np.testing.assert_allclose(result, reference(positions, 8), rtol=0, atol=1e-12)


def test_blocks_of_any_size_give_the_same_table(monkeypatch):
    """A scratch budget of one row, so that every loop of exact.py runs often."""
    expected = reference(range(5, 4105), 16)
    monkeypatch.setattr(exact, "_SCRATCH", (0.0, 1))
    for positions in (range(5, 4105), np.arange(5, 4105)[::-1]):
        result = sinusoidal_positions(positions, 16)
        order = 1 if isinstance(positions, range) else -1
        np.testing.assert_allclose(result[::order], expected, rtol=0, atol=1e-12)


def test_a_long_float32_range_matches_plain_loop_to_float32_rounding():
    result = sinusoidal_positions(range(4100), 64, dtype=np.float32)
    assert result.dtype == np.float32
    np.testing.assert_allclose(result, reference(range(4100), 64), rtol=0, atol=1e-7)


@pytest.mark.parametrize("order", [1, -1], ids=["run", "reversed"])
def test_float32_is_accurate_at_large_positions(order):
    positions = np.arange(10**6, 10**6 + 100)[::order]
    result = sinusoidal_positions(positions, 8, dtype=np.float32)
    assert result.dtype == np.float32
    np.testing.assert_allclose(result, mpmath_rows(positions, 8), atol=1e-7)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.longdouble])
@pytest.mark.parametrize("n", [5, 4096], ids=["formula", "exact-run"])
def test_dtype_is_respected(dtype, n):
    result = sinusoidal_positions(range(n), 6, dtype=dtype)
    assert result.dtype == dtype
    tolerance = 10 * np.finfo(dtype).eps if dtype != np.longdouble else 1e-12
    np.testing.assert_allclose(result, reference(range(n), 6), rtol=0, atol=tolerance)


# --- frequencies and wavelengths ----------------------------------------------


@pytest.mark.parametrize("d_model", [2, 8, 128, 512])
def test_wavelengths_grow_geometrically_from_2pi_towards_10000_times_2pi(d_model):
    lengths = wavelengths(d_model)
    assert lengths.shape == (d_model // 2,)
    assert lengths[0] == pytest.approx(2 * math.pi, rel=1e-15)
    np.testing.assert_allclose(lengths[1:] / lengths[:-1], 10000 ** (2 / d_model))
    assert lengths[-1] < 10000 * 2 * math.pi
    np.testing.assert_allclose(lengths * frequencies(d_model), 2 * math.pi)


def test_frequencies_are_the_ones_the_encoding_uses():
    np.testing.assert_allclose(frequencies(8), [1, 0.1, 0.01, 0.001], rtol=1e-14)
    row = pos_encoding(1, 16)
    np.testing.assert_allclose(row[0::2], np.sin(frequencies(16)), atol=1e-15)
    np.testing.assert_allclose(row[1::2], np.cos(frequencies(16)), atol=1e-15)
    np.testing.assert_allclose(frequencies(6, base=64.0), [1, 0.25, 0.0625])


# --- the rotation property ----------------------------------------------------


@given(st.integers(-500, 500), st.integers(-500, 500), d_models)
def test_rotations_are_orthogonal_and_compose(a, b, d_model):
    rotate_a, rotate_b = rotation_matrix(a, d_model), rotation_matrix(b, d_model)
    np.testing.assert_allclose(rotate_a.T @ rotate_a, np.eye(d_model), atol=1e-12)
    np.testing.assert_allclose(rotate_a.T, rotation_matrix(-a, d_model), atol=0)
    composed = rotate_a @ rotate_b
    np.testing.assert_allclose(composed, rotation_matrix(a + b, d_model), atol=1e-11)


def test_rotation_is_block_diagonal_in_the_interleaved_layout():
    matrix = rotation_matrix(3, 6)
    blocks = np.kron(np.eye(3), np.ones((2, 2)))  # where 2x2 blocks may be nonzero
    assert np.all(matrix[blocks == 0] == 0)
    theta = 3 * frequencies(6)[1]
    expected = [[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]]
    np.testing.assert_allclose(matrix[2:4, 2:4], expected, atol=1e-15)
    np.testing.assert_array_equal(rotation_matrix(0, 4), np.eye(4))


# --- bad input: each function names its argument -------------------------------
# (the checks' own cases, bools, bytes, huge integers, are in test_validation.py)

EVEN = "must be an even integer >= 2."
NON_NEGATIVE = "must be a non-negative integer"
ONE_D = "must be a 1-D sequence of non-negative integers"
BASE = "must be a number in [1, 1e100]"
LOW = "below 1 an angle would exceed its position"
LAYOUTS = "must be one of 'interleaved', 'concat'."
FLOAT = "must be a floating-point dtype such as numpy.float64 or numpy.float32."

SP, PE, R = sinusoidal_positions, pos_encoding, rotation_matrix
REFUSED = [  # (call, error, message)
    (lambda: SP([0], 7), ValueError, f"d_model == 7, {EVEN}"),
    (lambda: PE(0, True), TypeError, f"d_model == True (bool), {EVEN}"),
    (lambda: frequencies(4.0), TypeError, f"d_model == 4.0 (float), {EVEN}"),
    (lambda: wavelengths(None), TypeError, f"d_model == None, {EVEN}"),
    (lambda: R(1, "4"), TypeError, f"d_model == '4' (str), {EVEN}"),
    (lambda: SP([0, -1], 4), ValueError, f"positions[1] == -1, {NON_NEGATIVE}."),
    (
        lambda: SP([0, 2.0], 4),
        TypeError,
        f"positions[1] == 2.0 (float), {NON_NEGATIVE}.",
    ),
    (lambda: SP(["0"], 4), TypeError, f"positions[0] == '0' (str), {NON_NEGATIVE}."),
    (lambda: SP("012", 4), TypeError, f"positions == '012' (str), {ONE_D}."),
    (lambda: SP(range(0), 4), ValueError, f"positions is empty, {ONE_D} of length"),
    (lambda: SP([[0, 1]], 4), ValueError, f"positions has shape (1, 2), {ONE_D}."),
    (lambda: SP(3, 4), TypeError, f"positions == 3 (int), {ONE_D}."),
    (lambda: SP([1], 4, base=0), ValueError, f"base == 0, {BASE}: {LOW}."),
    (lambda: SP([1], 4, base=np.nan), ValueError, f"base == nan, {BASE}."),
    (lambda: SP([1], 4, base="1e4"), TypeError, f"base == '1e4' (str), {BASE}."),
    (lambda: SP([1], 4, dtype=int), TypeError, f"dtype == int64, {FLOAT}"),
    (lambda: SP([1], 4, dtype=complex), TypeError, f"dtype == complex128, {FLOAT}"),
    (lambda: PE(-1, 4), ValueError, "pos == -1, must be an integer >= 0."),
    (lambda: PE([3], 4), TypeError, "pos == [3], must be an integer >= 0."),
    (lambda: R(0.5, 4), TypeError, "offset == 0.5 (float), must be an integer."),
    (lambda: frequencies(4, base=-1), ValueError, f"base == -1, {BASE}: {LOW}."),
    (lambda: SP([1], 4, layout="halves"), ValueError, f"layout == 'halves', {LAYOUTS}"),
    (lambda: PE(1, 4, layout="half"), ValueError, f"layout == 'half', {LAYOUTS}"),
    (lambda: PE(1, 4, layout=None), TypeError, f"layout == None, {LAYOUTS}"),
]


@pytest.mark.parametrize(("call", "error", "message"), REFUSED)
def test_each_function_names_its_argument(call, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}"):
        call()
    assert sinusoidal_positions([1], 4, dtype="float").dtype == np.float64
