"""Every claim of notebooks/03_why_sines.ipynb, recomputed with the library.

The reference encoding here is a plain double loop with ``math.sin``/``math.cos``.
"""

import math

import numpy as np
import pytest

from posenc_lib import (
    frequencies,
    offset_similarity,
    rotation_matrix,
    similarity_matrix,
    sinusoidal_positions,
    wavelengths,
)
from posenc_lib.properties import (
    diagonal_spread,
    min_distance,
    min_row_distance,
    pair_angle_gaps,
)

D_MODEL = 16


def reference(pos, d):
    """PE[pos] by the lesson's formula, one column at a time."""
    angles = [pos / 10000 ** (2 * (k // 2) / d) for k in range(d)]
    return np.array(
        [math.sin(a) if k % 2 == 0 else math.cos(a) for k, a in enumerate(angles)]
    )


@pytest.fixture(scope="module")
def table():
    return sinusoidal_positions(range(200), D_MODEL)


def test_rotation_block_is_the_angle_addition_matrix():
    t = 3.0
    expected = [[math.cos(t), math.sin(t)], [-math.sin(t), math.cos(t)]]
    np.testing.assert_allclose(rotation_matrix(3, 4)[:2, :2], expected)


def test_shift_by_five_is_r5_for_every_position(table):
    rotated = table[:-5] @ rotation_matrix(5, D_MODEL).T
    np.testing.assert_allclose(rotated, table[5:], atol=1e-12)
    np.testing.assert_allclose(
        rotation_matrix(5, D_MODEL) @ reference(40, D_MODEL),
        reference(45, D_MODEL),
        atol=1e-12,
    )


def test_pair_one_turns_by_three_omega_from_position_five(table):
    block = rotation_matrix(3, D_MODEL)[2:4, 2:4]
    np.testing.assert_allclose(block @ table[5, 2:4], table[8, 2:4], atol=1e-12)
    assert frequencies(D_MODEL)[1] == pytest.approx(0.316, abs=1e-3)


def test_pairs_equally_far_apart_are_equally_similar():
    S = similarity_matrix(range(40), D_MODEL)
    values = [reference(i, D_MODEL) @ reference(i + 5, D_MODEL) for i in (0, 10, 30)]
    np.testing.assert_allclose(S[[0, 10, 30], [5, 15, 35]], values)
    assert values[0] == pytest.approx(6.13704, abs=5e-6)
    assert diagonal_spread(S) < 1e-12


def test_similarity_falls_with_distance_but_not_monotonically():
    sims = offset_similarity(range(101), D_MODEL)
    np.testing.assert_allclose(sims, similarity_matrix(range(101), D_MODEL)[0])
    assert sims[0] == D_MODEL / 2
    assert sims[0] > sims[1:].max()
    assert not np.all(np.diff(sims) < 0)
    assert sims[1:11].mean() > sims[91:].mean()


@pytest.mark.parametrize("d", [2, 4, 6, 16, 64, 512])
def test_every_encoding_has_squared_length_half_d(d):
    norms = (sinusoidal_positions(range(500), d) ** 2).sum(axis=1)
    np.testing.assert_allclose(norms, d / 2)
    assert np.unique(norms.round(12)).tolist() == [d / 2]


def test_far_positions_are_encoded_by_the_same_formula():
    far = sinusoidal_positions([512, 10_000, 1_000_000], D_MODEL)
    expected = [reference(pos, D_MODEL) for pos in (512, 10_000, 1_000_000)]
    np.testing.assert_allclose(far, expected, atol=1e-9)


def test_closest_two_of_a_million_rows_are_088_apart():
    distance, offset = min_distance(1_000_000, D_MODEL)
    assert (round(distance, 4), offset) == (0.8812, 615746)
    direct = np.linalg.norm(reference(0, D_MODEL) - reference(offset, D_MODEL))
    assert direct == pytest.approx(distance, rel=1e-6)
    assert math.sqrt(D_MODEL / 2) == pytest.approx(2.83, abs=0.01)


def test_shortcut_agrees_with_every_pair_of_2000_rows():
    brute, i, j = min_row_distance(sinusoidal_positions(range(2000), D_MODEL))
    distance, offset = min_distance(2000, D_MODEL)
    assert brute == pytest.approx(distance, rel=1e-9)
    assert (j - i, offset) == (1, 1)


def test_a_single_pair_collides_710_positions_apart():
    distance, offset = min_distance(1000, 2)
    assert distance < 1e-4 and offset == 710
    assert np.linalg.norm(reference(0, 2) - reference(710, 2)) < 1e-4
    assert 710 / (2 * math.pi) == pytest.approx(113, abs=1e-4)


def test_wavelengths_grow_geometrically_from_2pi():
    lam = wavelengths(D_MODEL)
    assert lam[0] == pytest.approx(2 * math.pi)
    assert lam[-1] < 10000 * 2 * math.pi
    np.testing.assert_allclose(lam[1:] / lam[:-1], 10000 ** (2 / D_MODEL))
    assert lam.round(1).tolist()[:3] == [6.3, 19.9, 62.8]


def test_neighbours_differ_by_each_pairs_frequency():
    gaps = pair_angle_gaps(100, 101, D_MODEL)
    np.testing.assert_allclose(gaps, frequencies(D_MODEL))
    assert gaps[0] == pytest.approx(1.0) and gaps[-1] < 1e-3


def test_clock_hands_for_0_44_and_710():
    gaps_44 = pair_angle_gaps(0, 44, D_MODEL)
    gaps_710 = pair_angle_gaps(0, 710, D_MODEL)
    assert 44 / (2 * math.pi) == pytest.approx(7, abs=0.01)
    assert round(gaps_44[0], 3) == 0.018 and round(gaps_710[0], 3) == 0.0  # overlap
    assert gaps_44[1] > 1 and gaps_710[1] > 1  # pair 1 separates all three
    assert abs(gaps_44[1] - gaps_710[1]) > 0.3
    assert gaps_44[7] < 0.02 < 0.2 < gaps_710[7]  # pair 7: 710 apart, 44 not
