"""The lesson's and the exercise card's worked numbers, from the library.

The two source documents (``../shared/seeds``) state these numbers; the chapters
show them again, each checked in its own cell (nbval keeps those true). Numbers
given to 4 decimals are compared within half a unit of the 4th decimal, the
card's 6 significant digits within half a unit of the 6th: any CPU's last bits
pass, a wrong formula does not. (The lesson's sum, embedding plus encoding, is
``encode``'s doctest; its command script, test_exercise_cli.py's first test.)
"""

import math

import numpy as np

from posenc_lib import pos_encoding, sinusoidal_positions

FOUR_DECIMALS = 5e-5


def test_the_lessons_trace_for_width_4_at_position_3():
    pe = pos_encoding(3, 4)
    expected = [math.sin(3), math.cos(3), math.sin(0.03), math.cos(0.03)]
    np.testing.assert_allclose(pe, expected, rtol=0, atol=1e-15)
    lesson = [0.1411, -0.9900, 0.0300, 0.9996]
    np.testing.assert_allclose(pe, lesson, rtol=0, atol=FOUR_DECIMALS)


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
