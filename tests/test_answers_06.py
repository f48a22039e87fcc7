"""The worked answers of notebooks/answers/06_answers.ipynb, recomputed."""

import numpy as np
import pytest

from posenc_lib import sinusoidal_positions
from posenc_lib.attention import (
    LearnedPositions,
    init_head,
    permutation_gap,
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


def test_1_rope_layer_is_not_permutation_equivariant(x, head):
    def with_rope(rows):
        return self_attention(rows, head, positions=range(5))

    assert round(permutation_gap(with_rope, x, PERM), 3) == 0.39


def test_2_learned_rows_have_no_common_length():
    learned = (LearnedPositions(max_len=64, d_model=8)(range(64)) ** 2).sum(axis=1)
    sinusoid = (sinusoidal_positions(range(64), 8) ** 2).sum(axis=1)
    assert f"{learned.min():.5f} {learned.max():.5f}" == "0.00038 0.00879"
    assert np.ptp(learned) > 0.008 and np.ptp(sinusoid) < 1e-12
    np.testing.assert_allclose(sinusoid, 4.0)


def test_3_position_only_term_depends_on_both_positions(head):
    pe = sinusoidal_positions(range(24), 8)
    term = (pe @ head.w_q) @ (pe @ head.w_k).T
    assert round(diagonal_spread(term), 4) == 5.6438
    assert diagonal_spread(pe @ pe.T) < 1e-12  # W_q = W_k = I: distance only


def test_4_offset_zero_is_the_plain_dot_product(x, head):
    q, k = x[0] @ head.w_q, x[1] @ head.w_k
    assert np.allclose([rope_score(q, k, m, m) for m in (0, 7, 500)], q @ k)
    assert round(float(q @ k), 6) == -1.707744
