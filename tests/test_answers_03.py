"""The worked answers of notebooks/answers/03_answers.ipynb, recomputed.

Each test recomputes an answer's numbers with the library (and, where it helps, a
second way), so a change to the library or to the answers' reasoning fails here.
"""

import math

import numpy as np
import pytest

from posenc_lib import (
    frequencies,
    offset_similarity,
    rotation_matrix,
    sinusoidal_positions,
)
from posenc_lib.properties import min_distance

D_MODEL = 16


@pytest.fixture(scope="module")
def table():
    return sinusoidal_positions(range(200), D_MODEL)


@pytest.mark.parametrize(("a", "b"), [(1, 2), (3, 5), (-4, 10), (100, 7)])
def test_exercise_1_rotations_add_and_commute(a, b):
    product = rotation_matrix(a, D_MODEL) @ rotation_matrix(b, D_MODEL)
    np.testing.assert_allclose(product, rotation_matrix(a + b, D_MODEL), atol=1e-12)
    np.testing.assert_allclose(
        product, rotation_matrix(b, D_MODEL) @ rotation_matrix(a, D_MODEL), atol=1e-12
    )
    pe = sinusoidal_positions([50, 50 + a + b], D_MODEL)
    np.testing.assert_allclose(product @ pe[0], pe[1], atol=1e-12)


def test_exercise_2_the_inverse_rotation_is_the_transpose(table):
    back = table[7:] @ rotation_matrix(-7, D_MODEL).T
    np.testing.assert_allclose(back, table[:-7], atol=1e-12)
    R = rotation_matrix(7, D_MODEL)
    np.testing.assert_allclose(rotation_matrix(-7, D_MODEL), R.T)
    np.testing.assert_allclose(R.T @ R, np.eye(D_MODEL), atol=1e-12)


def relative_similarity(width):
    return offset_similarity(range(2000), width) / (width / 2)


def test_exercise_3_the_narrow_model_falls_to_half_first():
    starts = [offset_similarity([0], width)[0] for width in (16, 128)]
    assert starts == [8.0, 64.0]
    first_below_half = [int(np.argmax(relative_similarity(w) < 0.5)) for w in (16, 128)]
    assert first_below_half == [9, 46]
    for width, first in zip((16, 128), first_below_half, strict=True):
        assert np.all(relative_similarity(width)[:first] >= 0.5)


def test_exercise_3_the_share_of_fast_pairs_is_a_quarter_plus_two_over_d():
    for width, expected in [(16, (3, 8)), (128, (17, 64))]:
        f = frequencies(width)
        fast = int(np.sum(np.isclose(f, 0.1) | (f > 0.1)))
        assert (fast, len(f)) == expected
        assert fast / len(f) == pytest.approx(1 / 4 + 2 / width)
        assert fast == width // 8 + 1  # pairs i <= d_model / 8


def test_exercise_3_the_wide_model_wobbles_less():
    lows = [round(float(relative_similarity(w)[100:].min()), 2) for w in (16, 128)]
    assert lows == [-0.45, -0.03]


def test_exercise_4_first_offset_within_01_is_622():
    offsets = np.arange(1, 2000)
    pe = sinusoidal_positions(range(2000), 4)
    distance = np.linalg.norm(pe[offsets] - pe[0], axis=1)  # brute force, from 0
    first = int(offsets[np.argmax(distance < 0.1)])
    assert (first, round(float(distance[first - 1]), 4)) == (622, 0.0724)
    assert np.all(distance[: first - 1] >= 0.1)
    assert min_distance(622, 4)[1] == 19 and round(min_distance(622, 4)[0], 2) == 0.24
    assert min_distance(623, 4)[1] == 622


def test_exercise_4_both_hands_are_near_a_whole_turn():
    turns = 622 * frequencies(4) / (2 * math.pi)
    assert turns.round(4).tolist() == [98.9944, 0.9899]
    short = 622 * frequencies(4) - 2 * math.pi * turns.round()
    assert short.round(4).tolist() == [-0.0353, -0.0632]
    assert 99 * 2 * math.pi == pytest.approx(622.04, abs=0.005)
    assert 2 * math.pi / frequencies(4)[1] == pytest.approx(100 * 2 * math.pi)


def test_exercise_5_pair_0_turns_a_sixth_of_a_turn_per_step():
    step = np.degrees(frequencies(D_MODEL)[:2])
    turns = 15 * frequencies(D_MODEL)[:2] / (2 * math.pi)
    assert step.round(1).tolist() == [57.3, 18.1]
    assert turns.round(2).tolist() == [2.39, 0.75]


def test_exercise_6_look_five_back_and_three_ahead(table):
    back5 = table @ rotation_matrix(5, D_MODEL) @ table.T
    rows = np.arange(5, 200)
    np.testing.assert_array_equal(back5[rows].argmax(axis=1), rows - 5)
    ahead3 = table @ rotation_matrix(-3, D_MODEL) @ table.T
    rows = np.arange(0, 197)
    np.testing.assert_array_equal(ahead3[rows].argmax(axis=1), rows + 3)


def one_pair_turned(pair):
    R3 = rotation_matrix(3, D_MODEL)
    block = slice(2 * pair, 2 * pair + 2)
    M = np.eye(D_MODEL)
    M[block, block] = R3[block, block]
    return M


@pytest.mark.parametrize("pair", range(8))
def test_exercise_7_only_pair_0_can_look_back_alone(table, pair):
    rows = np.arange(3, 200)
    peaks = (table @ one_pair_turned(pair) @ table.T)[rows].argmax(axis=1)
    hits = int(np.sum(peaks == rows - 3))
    offsets = np.unique(rows - peaks).tolist()
    assert (hits, offsets) == ((197, [3]) if pair == 0 else (0, [0]))


def test_exercise_7_the_losses_explain_which_pair_wins():
    loss = 1 - np.cos(3 * frequencies(D_MODEL))
    assert loss.round(3).tolist() == [1.99, 0.417, 0.045, 0.004, 0.0, 0.0, 0.0, 0.0]
    wins = [bool(loss[i] > loss.sum() - loss[i]) for i in range(8)]
    assert wins == [True] + [False] * 7
