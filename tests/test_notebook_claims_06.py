"""Every claim of notebooks/06_beyond.ipynb, with the notebook's seeds and sizes."""

import re

import numpy as np
import pytest

from posenc_lib import rotation_matrix, sinusoidal_positions
from posenc_lib.attention import (
    LearnedPositions,
    init_head,
    permutation_gap,
    position_scores,
    rope,
    rope_score,
    self_attention,
)
from posenc_lib.properties import diagonal_spread

PERM = [2, 0, 4, 1, 3]


@pytest.fixture(scope="module")
def x():
    return np.random.default_rng(0).normal(size=(5, 8))


@pytest.fixture(scope="module")
def head():
    return init_head(8, seed=0)


def test_attention_without_positions_is_permutation_equivariant(x, head):
    out = self_attention(x, head)
    assert out.shape == (5, 8)
    assert np.allclose(self_attention(x[PERM], head)[0], out[2])  # the prediction
    assert np.allclose(self_attention(x[PERM], head), out[PERM])
    assert permutation_gap(lambda rows: self_attention(rows, head), x, PERM) < 1e-12


def test_adding_pe_breaks_the_symmetry(x, head):
    pe = sinusoidal_positions(range(5), 8)

    def with_positions(rows):
        return self_attention(rows + pe, head)

    assert not np.allclose(with_positions(x[PERM]), with_positions(x)[PERM])
    assert round(permutation_gap(with_positions, x, PERM), 3) == 0.72


def test_a_learned_table_has_no_row_for_max_len():
    learned = LearnedPositions(max_len=8, d_model=8)
    assert learned([0, 3, 7]).shape == (3, 8)
    msg = "positions[1] == 8, must be in [0, 8), i.e. 0 <= positions[1] < max_len."
    with pytest.raises(ValueError, match=re.escape(msg)):
        learned([5, 8])
    assert sinusoidal_positions([8, 100_000], 8).shape == (2, 8)
    assert np.all(np.isfinite(sinusoidal_positions([8, 100_000], 8)))


def test_rope_is_the_transpose_of_the_rotation_matrix(x, head):
    # RoPE turns (x, y) pairs counter-clockwise; the encoding's (sin, cos) pairs
    # turn the other way in that sense, so its shift matrix is the transpose
    q = x[0] @ head.w_q
    np.testing.assert_allclose(rope(q[None, :], [7])[0], rotation_matrix(7, 8).T @ q)
    np.testing.assert_allclose(rope(q[None, :], [7])[0], rotation_matrix(-7, 8) @ q)


def test_rope_scores_depend_only_on_the_offset(x, head):
    q, k = x[0] @ head.w_q, x[1] @ head.w_k
    three_apart = [rope_score(q, k, m, m + 3) for m in (0, 10, 500)]
    np.testing.assert_allclose(three_apart, three_apart[0], rtol=1e-10)
    assert round(three_apart[0], 6) == -1.74361
    assert round(rope_score(q, k, 0, 4), 6) == -0.367394
    # the derivation: q_m . k_n = q^T Q(m)^T Q(n) k = q^T Q(n - m) k, Q(p) = R(p)^T
    assert three_apart[0] == pytest.approx(q @ rotation_matrix(3, 8).T @ k)


def test_added_scores_depend_on_both_positions(x, head):
    added = position_scores(x[0], x[1], head, 24, method="add")
    rotated = position_scores(x[0], x[1], head, 24, method="rope")
    assert diagonal_spread(rotated) < 1e-12 and diagonal_spread(added) > 1


def test_rope_layer_ignores_a_common_shift(x, head):
    at_start = self_attention(x, head, positions=range(5))
    further_on = self_attention(x, head, positions=range(100, 105))
    np.testing.assert_allclose(at_start, further_on, atol=1e-12)
    assert not np.allclose(at_start, self_attention(x, head))
