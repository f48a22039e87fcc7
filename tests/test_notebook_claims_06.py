"""Every claim of notebooks/06_beyond.ipynb, with the notebook's seeds and sizes."""

import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
from notebook_reading import markdown

from posenc_lib import offset_similarity, rotation_matrix, sinusoidal_positions
from posenc_lib.attention import (
    LearnedPositions,
    init_head,
    permutation_gap,
    position_scores,
    rope,
    rope_score,
    self_attention,
)
from posenc_lib.embedding import init_embedding, row_cosines
from posenc_lib.properties import diagonal_spread

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "06_beyond.ipynb"
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


# -- section 5: add, not concatenate; and sqrt(d_model) -----------------------

D_MODEL = 512


@pytest.fixture(scope="module")
def emb():
    return init_embedding(1000, D_MODEL, seed=0)


def test_the_four_terms_sum_to_the_dot_product_of_the_sums(emb):
    x_i, x_j = emb[7], emb[42]
    p_i, p_j = sinusoidal_positions([3, 10], D_MODEL)
    terms = np.array([x_i @ x_j, x_i @ p_j, p_i @ x_j, p_i @ p_j])
    np.testing.assert_array_equal(terms.round(4), [-0.0219, 0.4678, -0.1627, 187.865])
    # each dot product of d terms is off by at most d * eps * sum |products|
    bound = (
        4
        * D_MODEL
        * np.finfo(float).eps
        * (np.abs(x_i) + np.abs(p_i))
        @ (np.abs(x_j) + np.abs(p_j))
    )
    assert abs(terms.sum() - (x_i + p_i) @ (x_j + p_j)) <= bound
    assert np.allclose(terms.sum(), (x_i + p_i) @ (x_j + p_j))  # the cell's True
    # "the position term was about 188 against a token term of -0.02"
    assert round(terms[3]) == 188 and round(terms[0], 2) == -0.02
    # the position term depends on the offset only: sum_i cos(7 w_i)
    assert terms[3] == pytest.approx(offset_similarity([7], D_MODEL)[0], rel=1e-12)


def test_random_embedding_rows_are_nearly_perpendicular_to_the_encoding():
    typical = []
    for d in (16, 64, 512):
        cos = row_cosines(init_embedding(1000, d), sinusoidal_positions(range(1000), d))
        typical.append(np.sqrt(np.mean(cos**2)))
    # the printed table: root mean square of cos, and 1 / sqrt(d_model)
    assert [round(t, 3) for t in typical] == [0.246, 0.127, 0.045]
    assert [round(1 / np.sqrt(d), 3) for d in (16, 64, 512)] == [0.25, 0.125, 0.044]
    # "near 0, and shrinking like 1/sqrt(d_model)"
    assert typical[0] > typical[1] > typical[2] < 0.05
    for t, d in zip(typical, (16, 64, 512), strict=True):
        assert t * np.sqrt(d) == pytest.approx(1.0, rel=0.05)


def test_the_why_x_dot_p_spreads_about_0_7_at_every_width():
    """The answer's reason: x . p has spread about sqrt(1/2) whatever the width,
    while |x| |p| is about sqrt(d_model / 2)."""
    for d in (16, 64, 512):
        x, pe = init_embedding(1000, d), sinusoidal_positions(range(1000), d)
        spread = np.sqrt(np.mean(np.einsum("rk,rk->r", x, pe) ** 2))
        assert spread == pytest.approx(np.sqrt(1 / 2), rel=0.05)
        lengths = np.linalg.norm(x, axis=1) * np.linalg.norm(pe, axis=1)
        assert lengths.mean() == pytest.approx(np.sqrt(d / 2), rel=0.05)
    text = " ".join(markdown(NOTEBOOK).split())
    assert r"$\sqrt{1/2} \approx 0.7$ at every width" in text
    assert "(the cross terms above were 0.47 and −0.16)" in text


def test_concatenating_costs_four_times_the_projection_parameters():
    n_added = sum(w.size for w in init_head(D_MODEL))
    n_concatenated = sum(w.size for w in init_head(2 * D_MODEL))
    assert (n_added, n_concatenated) == (3 * 512 * 512, 3 * 1024 * 1024)
    assert (n_added, n_concatenated, n_concatenated / n_added) == (
        786432,
        3145728,
        4.0,
    )


def test_sqrt_d_model_makes_the_embedding_lead_by_about_sqrt_2(emb):
    pe_rows = sinusoidal_positions(range(1000), D_MODEL)
    lengths = np.linalg.norm(pe_rows, axis=1)
    np.testing.assert_allclose(lengths, 16.0, rtol=1e-14)  # sqrt(512 / 2), every row
    pe_length = lengths.mean()
    emb_length = np.linalg.norm(emb, axis=1).mean()
    scaled_length = np.linalg.norm(np.sqrt(D_MODEL) * emb, axis=1).mean()
    assert [f"{v:.2f}" for v in (pe_length, emb_length, scaled_length)] == [
        "16.00",
        "1.00",
        "22.64",
    ]
    assert f"{emb_length / pe_length:.4f}" == "0.0625"
    assert f"{scaled_length / pe_length:.4f}" == "1.4153"
    assert round(pe_length / emb_length) == 16  # "16 times longer", "16 times shorter"
    assert f"{np.sqrt(2):.4f}" == "1.4142"  # "about sqrt 2 times longer"
    assert scaled_length / pe_length == pytest.approx(np.sqrt(2), abs=0.002)


def test_every_prediction_is_followed_by_code_and_an_explanation():
    cells = nbformat.read(NOTEBOOK, as_version=4).cells
    prompts = [
        i
        for i, c in enumerate(cells)
        if c.cell_type == "markdown" and "**Predict.**" in c.source
    ]
    assert len(prompts) == 7  # six before section 5, one in it
    for i in prompts:
        assert cells[i + 1].cell_type == "code", i
        after = cells[i + 2]
        assert after.cell_type == "markdown" and after.source.startswith(
            "<details><summary>Why?</summary>"
        ), i
