"""The numbers behind each figure of posenc_lib.figures.properties, not its pixels."""

import re

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from posenc_lib import (  # noqa: E402
    frequencies,
    offset_similarity,
    rotation_matrix,
    similarity_matrix,
    sinusoidal_positions,
)
from posenc_lib.attention import init_head, position_scores  # noqa: E402
from posenc_lib.exercise.mistakes import MISTAKES  # noqa: E402
from posenc_lib.figures import (  # noqa: E402
    clock_faces,
    compare_tables,
    pair_circle,
    score_heatmaps,
    similarity_figure,
)


def arrows(ax):
    """``(start, end)`` of each annotation drawn as an arrow."""
    return [(np.array(t.xyann), np.array(t.xy)) for t in ax.texts if t.arrow_patch]


def test_pair_circle_dots_are_the_pair_of_pe():
    fig = pair_circle(4, d_model=16, pair=2, n_positions=10)
    expected = sinusoidal_positions(range(10), 16)[:, 4:6]
    np.testing.assert_allclose(fig.axes[0].lines[1].get_xydata(), expected)


@pytest.mark.parametrize("offset", [0, 1, 5, 15])
def test_pair_circle_arrows_are_rotations_by_offset(offset):
    ax = pair_circle(offset, d_model=16, pair=1, starts=(0, 5)).axes[0]
    block = rotation_matrix(offset, 16)[2:4, 2:4]
    assert len(arrows(ax)) == 2
    for start, end in arrows(ax):
        np.testing.assert_allclose(end, block @ start, atol=1e-12)
        turn = np.arctan2(start[0], start[1]) + offset * frequencies(16)[1]
        np.testing.assert_allclose(end, [np.sin(turn), np.cos(turn)], atol=1e-12)


def test_pair_circle_title_states_the_angle():
    title = pair_circle(3, d_model=16, pair=1).axes[0].get_title()
    assert f"{3 * frequencies(16)[1]:.3f} rad" in title


def test_pair_circle_rejects_a_pair_past_the_width():
    msg = "pair == 8, must be in [0, 8), i.e. 0 <= pair < d_model // 2."
    with pytest.raises(ValueError, match=re.escape(msg)):
        pair_circle(1, d_model=16, pair=8)


def test_clock_faces_hands_point_at_the_pairs():
    positions, pairs = [0, 44, 710], [0, 1, 7]
    fig = clock_faces(positions, 16, pairs)
    table = sinusoidal_positions(positions, 16)
    for ax, pair in zip(fig.axes, pairs, strict=True):
        tips = [line.get_xydata()[1] for line in ax.lines[1:]]
        np.testing.assert_allclose(tips, table[:, 2 * pair : 2 * pair + 2])


def test_similarity_figure_shows_the_similarity_matrix_and_curve():
    matrix = similarity_matrix(range(25), 16)
    offsets = np.arange(61)
    fig = similarity_figure(matrix, offsets, offset_similarity(offsets, 16))
    image = fig.axes[0].images[0]
    np.testing.assert_allclose(image.get_array(), matrix)
    assert image.get_extent() == [-0.5, 24.5, 24.5, -0.5]  # i = 0 on top
    assert image.get_clim() == pytest.approx((-8, 8))  # scaled to d_model / 2
    curve = fig.axes[1].lines[0].get_xydata()
    np.testing.assert_array_equal(curve[:, 0], offsets)
    np.testing.assert_allclose(curve[:, 1], offset_similarity(offsets, 16))
    assert fig.axes[1].get_title() == "Similarity against offset (d_model = 16)"


def test_compare_tables_shows_right_wrong_and_their_difference():
    right = sinusoidal_positions(range(12), 8)
    wrong = np.array([MISTAKES["sine-only"](pos, 8) for pos in range(12)])
    fig = compare_tables(right, wrong, name="sine-only")
    np.testing.assert_allclose(fig.axes[0].images[0].get_array(), right)
    np.testing.assert_allclose(fig.axes[1].images[0].get_array(), wrong)
    np.testing.assert_allclose(fig.axes[2].images[0].get_array(), wrong - right)
    assert fig.axes[1].get_title() == "mistake: sine-only"
    largest = np.abs(wrong - right).max()
    assert fig.axes[2].images[0].get_clim() == pytest.approx((-largest, largest))
    for ax in fig.axes[:3]:
        assert ax.images[0].get_extent() == [-0.5, 7.5, 11.5, -0.5]


def test_compare_tables_rejects_tables_of_different_shapes():
    message = "wrong has shape (3, 4), must match right's (3, 6)."
    with pytest.raises(ValueError, match=re.escape(message)):
        compare_tables(np.zeros((3, 6)), np.zeros((3, 4)), name="x")


def test_score_heatmaps_show_added_and_rotated_scores():
    rng = np.random.default_rng(0)
    x_q, x_k, head = rng.normal(size=8), rng.normal(size=8), init_head(8)
    added = position_scores(x_q, x_k, head, 10, method="add")
    rotated = position_scores(x_q, x_k, head, 10, method="rope")
    fig = score_heatmaps(added, rotated)
    for ax, expected in zip(fig.axes[:2], [added, rotated], strict=True):
        np.testing.assert_allclose(ax.images[0].get_array(), expected)
        assert ax.images[0].get_extent() == [-0.5, 9.5, 9.5, -0.5]
