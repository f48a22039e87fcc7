"""Every claim of notebooks/02_sinusoidal_encoding.ipynb, asserted with the library."""

import math

import numpy as np
import pytest

from posenc_lib import (
    encode,
    frequencies,
    lookup,
    pos_encoding,
    sinusoidal_positions,
    wavelengths,
)
from posenc_lib.figures.sliders import describe_position


def _rows(array):
    return sorted(map(tuple, array))


def test_order_is_missing_without_positions_and_present_with_them():
    table = np.random.default_rng(0).normal(size=(3, 4)).round(2)
    assert _rows(lookup(table, [0, 1, 2])) == _rows(lookup(table, [2, 1, 0]))
    assert _rows(encode(table, [0, 1, 2])) != _rows(encode(table, [2, 1, 0]))


def test_divisors_and_frequencies_for_d_8():
    pair = np.arange(8) // 2
    np.testing.assert_array_equal(pair, [0, 0, 1, 1, 2, 2, 3, 3])
    np.testing.assert_allclose(frequencies(8), [1, 0.1, 0.01, 0.001])


# The worked trace PE[3] (d = 4) and the sum with [0.5, -0.5, 1, 0] have one home
# each: tests/test_positional.py and tests/test_embedding.py.


def test_position_zero_is_0_1_0_1_for_every_even_width_up_to_512():
    for d_model in range(2, 513, 2):
        expected = [0.0, 1.0] * (d_model // 2)
        np.testing.assert_array_equal(pos_encoding(0, d_model), expected)


def test_the_cards_two_examples():
    np.testing.assert_allclose(
        sinusoidal_positions([0, 1], 4),
        [[0, 1, 0, 1], [0.841471, 0.540302, 0.00999983, 0.99995]],
        rtol=0,
        atol=5e-7,
    )
    np.testing.assert_allclose(
        sinusoidal_positions([2, 0, 5], 2),
        [[0.909297, -0.416147], [0, 1], [-0.958924, 0.283662]],
        rtol=0,
        atol=5e-7,
    )


def test_left_columns_flip_often_right_columns_never_over_64_positions():
    table = sinusoidal_positions(range(64), 32)
    sign_changes = (np.diff(np.sign(table), axis=0) != 0).sum(axis=0)
    assert (sign_changes[1], sign_changes[31]) == (20, 0)


def test_wavelengths_of_the_drawn_waves():
    np.testing.assert_allclose(
        wavelengths(32)[[0, 3, 6]].round(2), [6.28, 35.33, 198.69]
    )
    turns = 40 / wavelengths(32)[[0, 6]]  # over 40 positions: six turns, a fifth
    assert turns[0] == pytest.approx(6.4, abs=0.1)
    assert turns[1] == pytest.approx(0.2, abs=0.01)


def test_wavelengths_from_2pi_towards_10000_2pi():
    lam = wavelengths(64)
    assert lam[0] == pytest.approx(2 * math.pi)
    assert round(lam[-1]) == 47_117 and lam[-1] < 10000 * 2 * math.pi
    np.testing.assert_allclose(lam[1:] / lam[:-1], 10000 ** (2 / 64))


def test_tap_a_position():
    assert describe_position(1, 8).startswith(
        "pair 0 (frequency 1): sin 1 = 0.8415, cos 1 = 0.5403; "
        "pair 1 (frequency 0.1): sin 0.1 = 0.0998, cos 0.1 = 0.9950; "
        "pair 2 (frequency 0.01): sin 0.01 = 0.0100, cos 0.01 = 1.0000"
    )
    assert describe_position(3, 4) == (
        "pair 0 (frequency 1): sin 3 = 0.1411, cos 3 = -0.9900; "
        "pair 1 (frequency 0.01): sin 0.03 = 0.0300, cos 0.03 = 0.9996"
    )
