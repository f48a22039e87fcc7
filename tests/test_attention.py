"""posenc_lib.attention against plain loops and each library's RoPE, written out."""

import math
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
    softmax,
)

D_MODEL = 8


@pytest.fixture
def tokens():
    return np.random.default_rng(1).normal(size=(6, D_MODEL))  # (n, d_model)


def loop_attention(x, head):
    """Single-head attention with Python loops and math.exp."""
    q, k, v = x @ head.w_q, x @ head.w_k, x @ head.w_v
    out = np.zeros_like(v)
    for i in range(len(x)):
        scores = [float(q[i] @ k[j]) / math.sqrt(q.shape[1]) for j in range(len(x))]
        weights = [math.exp(s - max(scores)) for s in scores]
        for j, weight in enumerate(weights):
            out[i] += weight / sum(weights) * v[j]
    return out


def test_self_attention_matches_loop_reference(tokens):
    head = init_head(D_MODEL, 4, seed=3)
    np.testing.assert_allclose(
        self_attention(tokens, head), loop_attention(tokens, head), atol=1e-12
    )


def test_init_head_is_seeded():
    first, second = init_head(D_MODEL, seed=5), init_head(D_MODEL, seed=5)
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
    assert not np.array_equal(first.w_q, init_head(D_MODEL, seed=6).w_q)


def test_softmax_rows_sum_to_one_without_overflow():
    weights = softmax(np.array([[1000.0, 1000.0], [0.0, -1000.0]]))
    np.testing.assert_allclose(weights, [[0.5, 0.5], [1.0, 0.0]])


def test_attention_is_permutation_equivariant_until_positions_are_added(tokens):
    head, perm = init_head(D_MODEL), [3, 0, 5, 1, 4, 2]
    assert permutation_gap(lambda x: self_attention(x, head), tokens, perm) < 1e-12
    pe = sinusoidal_positions(range(len(tokens)), D_MODEL)
    assert permutation_gap(lambda x: self_attention(x + pe, head), tokens, perm) > 0.1


# Independent references: each library's published RoPE, written out here.


def roformer_loop(x, pos, base=10000.0):
    """RoFormer's equation 34, one number at a time: pairs (x_2i, x_2i+1)."""
    d, out = len(x), []
    for k in range(d):
        theta = pos * base ** (-2 * (k // 2) / d)
        partner = -x[k + 1] if k % 2 == 0 else x[k - 1]  # (-x2, x1, -x4, x3, ...)
        out.append(x[k] * math.cos(theta) + partner * math.sin(theta))
    return np.array(out)


def gptj_rope(x, positions, base=10000.0):
    """GPT-J: ``x * cos + rotate_every_two(x) * sin``, sin/cos repeated per pair."""
    d = x.shape[1]
    inv_freq = 1.0 / base ** (np.arange(0, d, 2) / d)  # (d / 2,)
    angle = np.repeat(np.outer(positions, inv_freq), 2, axis=1)  # (n, d)
    x1, x2 = x[:, ::2], x[:, 1::2]
    rotated = np.stack((-x2, x1), axis=-1).reshape(x.shape)  # rotate_every_two
    return x * np.cos(angle) + rotated * np.sin(angle)


def torchtune_rope(x, positions, base=10000.0):
    """torchtune: reshape to (..., d / 2, 2) and turn each pair."""
    d = x.shape[1]
    theta = 1.0 / base ** (np.arange(0, d, 2)[: d // 2] / d)  # (d / 2,)
    angle = np.outer(positions, theta)  # (n, d / 2)
    pairs = x.reshape(len(x), -1, 2)
    x0, x1 = pairs[..., 0], pairs[..., 1]
    out = np.stack(
        [
            x0 * np.cos(angle) - x1 * np.sin(angle),
            x1 * np.cos(angle) + x0 * np.sin(angle),
        ],
        axis=-1,
    )
    return out.reshape(x.shape)


def llama_rope(x, positions, base=10000.0):
    """Llama / Hugging Face: ``q * cos + rotate_half(q) * sin``, cos = [cos | cos]."""
    d = x.shape[1]
    inv_freq = 1.0 / base ** (np.arange(0, d, 2) / d)  # (d / 2,)
    freqs = np.outer(positions, inv_freq)  # (n, d / 2)
    emb = np.concatenate((freqs, freqs), axis=-1)  # (n, d)
    x1, x2 = x[:, : d // 2], x[:, d // 2 :]
    rotate_half = np.concatenate((-x2, x1), axis=-1)
    return x * np.cos(emb) + rotate_half * np.sin(emb)


WIDTHS_AND_POSITIONS = [(2, [0, 1, 5]), (8, [0, 3, 1000]), (64, [7, 2048, 10**6])]


def reference_atol(x, positions):
    """The references' own error: they round ``pos * inv_freq`` (``rope`` does
    not), which moves an angle by up to ``pos * 2**-52`` and an entry by
    ``|x|`` times that; on top, 1e-12 as before. (test_adversarial_exactness.py
    holds ``rope`` to mpmath.)"""
    return 1e-12 + 2 * max(positions) * 2.0**-52 * float(np.abs(x).max())


@pytest.mark.parametrize(("d", "positions"), WIDTHS_AND_POSITIONS, ids=str)
@pytest.mark.parametrize(
    "reference", [gptj_rope, torchtune_rope], ids=["gpt-j", "torchtune"]
)
def test_interleaved_rope_matches_gptj_and_torchtune(d, positions, reference):
    x = np.random.default_rng(d).normal(size=(len(positions), d))
    np.testing.assert_allclose(
        rope(x, positions),
        reference(x, positions),
        rtol=1e-12,
        atol=reference_atol(x, positions),
    )


@pytest.mark.parametrize(("d", "positions"), WIDTHS_AND_POSITIONS, ids=str)
def test_half_rope_matches_llama_rotate_half(d, positions):
    x = np.random.default_rng(d).normal(size=(len(positions), d))
    atol = reference_atol(x, positions)
    for base in (10000.0, 500000.0):
        ours = rope(x, positions, base=base, layout="half")
        np.testing.assert_allclose(ours, llama_rope(x, positions, base), 1e-12, atol)


@pytest.mark.parametrize("pos", [0, 1, 7, 1000])
def test_rope_is_the_roformer_equation_and_the_transpose_of_r(tokens, pos):
    rotated = rope(tokens[:1], [pos])[0]
    np.testing.assert_allclose(rotated, roformer_loop(tokens[0], pos), atol=1e-12)
    np.testing.assert_allclose(rotated, rotation_matrix(pos, D_MODEL).T @ tokens[0])
    np.testing.assert_allclose(rotated, rotation_matrix(-pos, D_MODEL) @ tokens[0])


def test_half_layout_is_the_interleaved_one_with_columns_regrouped(tokens):
    half = np.r_[0:D_MODEL:2, 1:D_MODEL:2]  # (x0, x2, ..., x1, x3, ...)
    np.testing.assert_allclose(
        rope(tokens[:, half], range(6), layout="half"),
        rope(tokens, range(6))[:, half],
        atol=1e-15,
    )


def test_position_scores_add_matches_a_loop(tokens):
    head, n = init_head(D_MODEL, seed=2), 5
    pe = sinusoidal_positions(range(n), D_MODEL)
    scores = position_scores(tokens[0], tokens[1], head, n, method="add")
    for m in range(n):
        for j in range(n):
            expected = ((tokens[0] + pe[m]) @ head.w_q) @ (
                (tokens[1] + pe[j]) @ head.w_k
            )
            assert scores[m, j] == pytest.approx(expected, rel=1e-12)


def test_rope_scores_are_rope_score_of_the_projections(tokens):
    """(Chapter 06: their diagonals are constant, with PE added they are not.)"""
    head = init_head(D_MODEL, seed=2)
    rotated = position_scores(tokens[0], tokens[1], head, 20, method="rope")
    q, k = tokens[0] @ head.w_q, tokens[1] @ head.w_k
    assert rotated[4, 9] == pytest.approx(rope_score(q, k, 4, 9))


def test_learned_positions_returns_rows_of_its_table():
    np.testing.assert_array_equal(LEARNED([7, 0]), LEARNED.table[[7, 0]])
    assert LEARNED.table.shape == (8, D_MODEL)


LEARNED = LearnedPositions(max_len=8, d_model=D_MODEL)
REFUSED = [  # (call, error, message)
    (lambda: rope(np.ones((2, 3)), [0, 1]), ValueError, "x.shape[1] == 3, must be an "),
    (
        lambda: rope(np.ones((1, 2)), [0], layout="rotate_half"),
        ValueError,
        "layout == 'rotate_half', must be one of 'interleaved', 'half'.",
    ),
    (
        lambda: position_scores(np.ones(8), np.ones(8), init_head(8), 3, method="mix"),
        ValueError,
        "method == 'mix', must be one of 'add', 'rope'.",
    ),
    (
        lambda: permutation_gap(abs, np.eye(6), [0, 0, 1, 2, 3, 4]),
        ValueError,
        "perm == [0, 0, 1, 2, 3, 4], must be a permutation of range(6).",
    ),
    (
        lambda: LEARNED([3, 8]),
        ValueError,
        "positions[1] == 8, must be in [0, 8), i.e. 0 <= positions[1] < max_len. "
        "A learned table of max_len == 8 rows has no row for it; the sinusoidal "
        "encoding has no such limit.",
    ),
    (lambda: LEARNED([-1]), ValueError, "positions[0] == -1, must be a non-negative "),
]


@pytest.mark.parametrize(("call", "error", "message"), REFUSED)
def test_each_function_names_its_argument(call, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}"):
        call()
