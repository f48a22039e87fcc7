"""The worked answers of notebooks/answers/02_answers.ipynb, recomputed."""

import math

import numpy as np
import pytest

from posenc_lib import pos_encoding, rotation_matrix, sinusoidal_positions, wavelengths
from posenc_lib.figures.sliders import describe_position


def test_exercise_1_pe_of_2_for_d_model_4():
    np.testing.assert_array_equal(
        pos_encoding(2, 4).round(4), [0.9093, -0.4161, 0.0200, 0.9998]
    )
    assert describe_position(2, 4) == (
        "pair 0 (frequency 1): sin 2 = 0.9093, cos 2 = -0.4161;\n"
        "pair 1 (frequency 0.01): sin 0.02 = 0.0200, cos 0.02 = 0.9998"
    )
    assert math.cos(2) < 0 and 2 > math.pi / 2


def test_exercise_2_pair_141_is_closest_to_1000_positions():
    lam = wavelengths(512)
    pair = int(np.argmin(np.abs(lam - 1000)))
    assert pair == 141 and (2 * pair, 2 * pair + 1) == (282, 283)
    assert round(lam[pair], 2) == 1003.01
    assert (round(lam[140], 2), round(lam[142], 2)) == (967.56, 1039.75)
    assert round(512 / 2 * math.log10(1000 / (2 * math.pi)) / 4, 2) == 140.92


def test_exercise_3_position_44_is_the_first_within_0_02_of_pe_0():
    positions = np.arange(1, 51)
    table = sinusoidal_positions(positions, 2)
    distance = np.linalg.norm(table - [0.0, 1.0], axis=1)
    assert positions[distance <= 0.02][0] == 44
    assert round(distance[43], 4) == 0.0177
    np.testing.assert_array_equal(table[43].round(4), [0.0177, 0.9998])
    assert round(44 - 14 * math.pi, 3) == 0.018  # 7 turns
    misses = [abs(round(2 * math.pi * n) - 2 * math.pi * n) for n in range(1, 7)]
    assert round(min(misses), 3) == 0.133  # "0.13 or more away"


def test_exercise_4_an_odd_width_has_a_drifting_squared_length():
    k = np.arange(5)
    omega = 1 / 10000 ** (2 * (k // 2) / 5)
    np.testing.assert_array_equal(
        omega.round(6), [1.0, 1.0, 0.025119, 0.025119, 0.000631]
    )

    def squared(pos):
        angle = pos * omega
        pe = np.where(k % 2 == 0, np.sin(angle), np.cos(angle))
        return round(float(pe @ pe), 3)

    assert [squared(pos) for pos in (0, 500, 1000)] == [2.0, 2.096, 2.348]
    with pytest.raises(ValueError, match="d_model == 5, must be an even integer >= 2."):
        pos_encoding(3, 5)


def test_exercise_5_rows_10_and_13_are_a_rotation_apart():
    table = sinusoidal_positions(range(64), 32)
    row_10, row_13 = table[10], table[13]
    for row in (row_10, row_13):
        np.testing.assert_allclose(row[0::2] ** 2 + row[1::2] ** 2, 1.0)
        assert row @ row == pytest.approx(16.0)
    np.testing.assert_allclose(rotation_matrix(3, 32) @ row_10, row_13, atol=1e-12)
    difference = np.abs(row_13 - row_10)
    assert round(difference[:8].max(), 2) == 1.75
    assert round(difference[16:].max(), 2) == 0.03
