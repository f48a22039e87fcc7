"""The lesson's and the exercise card's worked numbers, from the library.

The two source documents (``../shared/seeds``) state these numbers; the chapters
show them again, each checked in its own cell (nbval keeps those true). Numbers
given to 4 decimals are compared within half a unit of the 4th decimal, the
card's 6 significant digits within half a unit of the 6th: any CPU's last bits
pass, a wrong formula does not.
"""

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from posenc_lib import (
    encode,
    one_hot,
    pos_encoding,
    rotation_matrix,
    similarity,
    sinusoidal_positions,
    wavelengths,
)

ROOT = Path(__file__).resolve().parent.parent
FOUR_DECIMALS = 5e-5


def test_the_lessons_trace_for_width_4_at_position_3():
    pe = pos_encoding(3, 4)
    expected = [math.sin(3), math.cos(3), math.sin(0.03), math.cos(0.03)]
    np.testing.assert_allclose(pe, expected, rtol=0, atol=1e-15)
    lesson = [0.1411, -0.9900, 0.0300, 0.9996]
    np.testing.assert_allclose(pe, lesson, rtol=0, atol=FOUR_DECIMALS)


def test_the_lessons_sum_of_an_embedding_and_the_encoding():
    table = np.array([[0.5, -0.5, 1.0, 0.0], [1.0, 2.0, 3.0, 4.0]])
    lesson = [0.6411, -1.4900, 1.0300, 0.9996]
    np.testing.assert_allclose(
        encode(table, [1, 1, 1, 0])[3], lesson, rtol=0, atol=FOUR_DECIMALS
    )


@pytest.mark.parametrize("d_model", [2, 4, 10, 512])
def test_position_0_is_zero_one_repeated(d_model):
    assert pos_encoding(0, d_model).tolist() == [0.0, 1.0] * (d_model // 2)


def test_a_one_hot_row_times_the_table_picks_that_row():
    table = np.arange(8.0).reshape(4, 2)
    assert (one_hot(2, 4) @ table).tolist() == [table[2].tolist()]


@pytest.mark.parametrize("d_model", [4, 8, 64])
def test_a_vectors_dot_product_with_itself_is_half_the_width(d_model):
    for pos in (0, 1, 7, 1000):
        assert similarity(pos, pos, d_model) == pytest.approx(d_model / 2, abs=1e-12)


def test_the_dot_product_depends_only_on_the_distance():
    by_offset = {abs(p - q): similarity(p, q, 16) for p in range(20) for q in (0, 9)}
    for p in range(20):
        for q in (0, 9):
            assert similarity(p, q, 16) == pytest.approx(
                by_offset[abs(p - q)], abs=1e-12
            )


def test_wavelengths_grow_from_2pi_to_tens_of_thousands():
    lam = wavelengths(512)
    assert lam[0] == pytest.approx(2 * math.pi)
    assert 10_000 < lam[-1] < 10_000 * 2 * math.pi
    np.testing.assert_allclose(lam[1:] / lam[:-1], 10_000 ** (2 / 512))


def test_a_shift_is_a_fixed_rotation_of_each_pair():
    for pos in (0, 5, 100):
        shifted = rotation_matrix(3, 8) @ pos_encoding(pos, 8)
        np.testing.assert_allclose(shifted, pos_encoding(pos + 3, 8), atol=1e-12)


def test_the_cards_two_examples():
    card_1 = [[0, 1, 0, 1], [0.841471, 0.540302, 0.00999983, 0.99995]]
    card_2 = [[0.909297, -0.416147], [0, 1], [-0.958924, 0.283662]]
    np.testing.assert_allclose(
        sinusoidal_positions([0, 1], 4), card_1, rtol=5e-6, atol=5e-7
    )
    np.testing.assert_allclose(
        sinusoidal_positions([2, 0, 5], 2), card_2, rtol=5e-6, atol=5e-7
    )


def test_the_cards_tap_a_position_numbers():
    """Position 1 encoded with 8 numbers: pairs of frequency 1, 0.1 and 0.01."""
    card = [0.8415, 0.5403, 0.0998, 0.9950, 0.0100, 1.0000]
    np.testing.assert_allclose(pos_encoding(1, 8)[:6], card, atol=FOUR_DECIMALS)


def test_the_lessons_command_script_prints_the_lessons_numbers():
    done = subprocess.run(
        [sys.executable, "-m", "posenc_lib", "run", "examples/lesson.txt"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[1] == "0.1411 -0.9900 0.0300 0.9996"  # POSENC 3
    assert lines[2] == "0.0000 1.0000 0.0000 1.0000"  # POSENC 0
    assert lines[3] == "0.6411 -1.4900 1.0300 0.9996"  # ADD 3
    assert lines[4] == "2.0000"  # SIM 2 2: d / 2
    assert lines[5] == lines[6]  # SIM 1 4 and SIM 5 8: the same distance
