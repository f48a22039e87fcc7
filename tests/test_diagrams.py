"""The numbers behind each figure of posenc_lib.diagrams, not its pixels."""

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
from posenc_lib.diagrams import (  # noqa: E402
    clock_faces,
    compare_tables,
    pair_circle,
    score_heatmaps,
    similarity_figure,
)
from posenc_lib.mistakes import MISTAKES  # noqa: E402


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
    fig = similarity_figure(25, 16, 60)
    np.testing.assert_allclose(
        fig.axes[0].images[0].get_array(), similarity_matrix(range(25), 16)
    )
    curve = fig.axes[1].lines[0].get_xydata()
    np.testing.assert_array_equal(curve[:, 0], np.arange(61))
    np.testing.assert_allclose(curve[:, 1], offset_similarity(range(61), 16))
    np.testing.assert_allclose(curve[:, 1], similarity_matrix(range(61), 16)[0])


def test_compare_tables_shows_right_and_wrong_tables():
    wrong = MISTAKES["sine-only"]
    fig = compare_tables(wrong, 12, 8, name="sine-only")
    np.testing.assert_allclose(
        fig.axes[0].images[0].get_array(), sinusoidal_positions(range(12), 8)
    )
    expected = np.array([wrong(pos, 8) for pos in range(12)])
    np.testing.assert_allclose(fig.axes[1].images[0].get_array(), expected)
    assert fig.axes[1].get_title() == "mistake: sine-only"


def test_score_heatmaps_show_added_and_rotated_scores():
    rng = np.random.default_rng(0)
    x_q, x_k, head = rng.normal(size=8), rng.normal(size=8), init_head(8)
    fig = score_heatmaps(x_q, x_k, head, 10)
    for ax, method in zip(fig.axes[:2], ["add", "rope"], strict=True):
        expected = position_scores(x_q, x_k, head, 10, method=method)
        np.testing.assert_allclose(ax.images[0].get_array(), expected)
