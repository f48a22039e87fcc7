"""The numbers behind each figure of posenc_lib.figures.properties and .circles,
and where they land (extents: row 0 at the top; labels; colour scales)."""

import numpy as np
import pytest
from matplotlib.figure import Figure

from posenc_lib import (
    figures,
    frequencies,
    offset_similarity,
    rotation_matrix,
    sinusoidal_positions,
    wavelengths,
)
from posenc_lib.attention import init_head, position_scores
from posenc_lib.mistakes import MISTAKES


def _top_row_first(image):
    """True if row 0 of the image's array is drawn at the top of its axes."""
    left, right, bottom, top = image.get_extent()
    ylow, yhigh = image.axes.get_ylim()
    return top < bottom and yhigh < ylow


@pytest.mark.parametrize("flip", [False, True])
def test_the_orientation_check_tells_the_two_apart(flip):
    ax = Figure().add_subplot()
    image = ax.imshow(np.zeros((3, 2)), origin="lower" if flip else "upper")
    assert _top_row_first(image) is not flip


def _round_and_centred(ax):
    return ax.get_aspect() == 1.0 and ax.get_xlim() == ax.get_ylim() == (-1.3, 1.3)


@pytest.mark.parametrize("offset", [0, 1, 5, 15])
def test_pair_circle_draws_the_pair_and_arrows_turned_by_the_offset(offset):
    ax = figures.pair_circle(offset, d_model=16, pair=2, n_positions=10).axes[0]
    dots = sinusoidal_positions(range(10), 16)[:, 4:6]
    np.testing.assert_allclose(ax.lines[1].get_xydata(), dots)
    block = rotation_matrix(offset, 16)[4:6, 4:6]
    arrows = [(np.array(t.xyann), np.array(t.xy)) for t in ax.texts if t.arrow_patch]
    assert len(arrows) == 2  # from positions 0 and 5
    for start, end in arrows:
        np.testing.assert_allclose(end, block @ start, atol=1e-12)
        turn = np.arctan2(start[0], start[1]) + offset * frequencies(16)[2]
        np.testing.assert_allclose(end, [np.sin(turn), np.cos(turn)], atol=1e-12)
    assert f"{offset * frequencies(16)[2]:.3f} rad" in ax.get_title()
    assert _round_and_centred(ax)


def test_clock_faces_hands_point_at_the_pairs_titles_without_an_exponent():
    positions, pairs = [0, 44, 710], [0, 1, 3, 7]
    fig = figures.clock_faces(positions, 16, pairs)
    table = sinusoidal_positions(positions, 16)
    for ax, pair in zip(fig.axes[:4], pairs, strict=True):
        tips = [line.get_xydata()[1] for line in ax.lines[1:]]
        np.testing.assert_allclose(tips, table[:, 2 * pair : 2 * pair + 2])
        assert _round_and_centred(ax)
    titles = [ax.get_title() for ax in fig.axes[:4]]
    assert titles == [
        "pair 0\nwavelength 6.3",
        "pair 1\nwavelength 19.9",
        "pair 3\nwavelength 199",
        "pair 7\nwavelength 19,869",
    ]
    shown = [float(t.split()[-1].replace(",", "")) for t in titles]
    np.testing.assert_allclose(shown, wavelengths(16)[[0, 1, 3, 7]], atol=0.5)


def test_similarity_figure_shows_the_similarity_matrix_and_curve():
    table = sinusoidal_positions(range(25), 16)  # (25, 16)
    matrix = table @ table.T  # (25, 25)
    offsets = np.arange(61)
    fig = figures.similarity_figure(matrix, offsets, offset_similarity(offsets, 16))
    image = fig.axes[0].images[0]
    np.testing.assert_allclose(image.get_array(), matrix)
    assert image.get_extent() == [-0.5, 24.5, 24.5, -0.5]  # i = 0 on top
    assert fig.axes[0].get_ylim() == (24.5, -0.5)  # and the axis agrees
    # scaled to d_model / 2: the diagonal, a sum of 16 rounded squares, is 8 to
    # within 16 ulps
    np.testing.assert_allclose(image.get_clim(), (-8.0, 8.0), rtol=16 * 2**-52)
    curve = fig.axes[1].lines[0].get_xydata()
    np.testing.assert_array_equal(curve[:, 0], offsets)
    np.testing.assert_allclose(curve[:, 1], offset_similarity(offsets, 16))
    assert fig.axes[1].get_title() == "Similarity against offset (d_model = 16)"
    labels = (fig.axes[0].get_xlabel(), fig.axes[0].get_ylabel())
    assert labels == ("position q", "position p")
    assert fig.axes[1].get_xlabel() == "offset Δ = |p − q|"


def test_compare_tables_shows_right_wrong_and_their_difference():
    right = sinusoidal_positions(range(12), 8)
    wrong = np.array([MISTAKES["sine-only"](pos, 8) for pos in range(12)])
    fig = figures.compare_tables(right, wrong, name="sine-only")
    np.testing.assert_allclose(fig.axes[0].images[0].get_array(), right)
    np.testing.assert_allclose(fig.axes[1].images[0].get_array(), wrong)
    # entries that agree to rounding (1e-12) are drawn as 0
    np.testing.assert_allclose(
        fig.axes[2].images[0].get_array(), wrong - right, rtol=0, atol=1e-12
    )
    assert fig.axes[1].get_title() == "mistake: sine-only"
    largest = np.abs(wrong - right).max()
    assert fig.axes[2].images[0].get_clim() == pytest.approx((-largest, largest))
    for ax in fig.axes[:3]:
        assert ax.images[0].get_extent() == [-0.5, 7.5, 11.5, -0.5]
        assert _top_row_first(ax.images[0]) and ax.get_xlabel() == "column k"
    assert fig.axes[0].get_ylabel() == "position pos"
    # each colour bar named above it: at its side it read as the next panel's
    bars = fig.axes[3:]
    assert [bar.get_title() for bar in bars] == ["PE[pos, k]", "difference"]
    assert [bar.get_ylabel() for bar in bars] == ["", ""]


def test_compare_tables_draws_entries_that_agree_to_rounding_as_zero():
    """0 is on a colour boundary: a difference of +-1 ulp, whose sign is the
    CPU's, would pick one of two colours."""
    right = sinusoidal_positions(range(6), 4)
    wrong = right * (1 + 4 * np.finfo(float).eps)  # a few ulps off everywhere
    wrong[2, 1] += 0.5
    difference = (
        figures.compare_tables(right, wrong, name="x").axes[2].images[0].get_array()
    )
    expected = np.zeros((6, 4))
    expected[2, 1] = 0.5
    np.testing.assert_allclose(difference, expected, rtol=1e-12, atol=0)
    assert np.count_nonzero(difference) == 1


def test_score_heatmaps_show_added_and_rotated_scores():
    rng = np.random.default_rng(0)
    x_q, x_k, head = rng.normal(size=8), rng.normal(size=8), init_head(8)
    added = position_scores(x_q, x_k, head, 10, method="add")
    rotated = position_scores(x_q, x_k, head, 10, method="rope")
    fig = figures.score_heatmaps(added, rotated)
    largest = max(np.abs(added).max(), np.abs(rotated).max())
    for ax, expected in zip(fig.axes[:2], [added, rotated], strict=True):
        np.testing.assert_allclose(ax.images[0].get_array(), expected)
        assert ax.images[0].get_extent() == [-0.5, 9.5, 9.5, -0.5]
        assert _top_row_first(ax.images[0]) and ax.get_xlabel() == "key position q"
        assert ax.images[0].get_clim() == pytest.approx((-largest, largest))
    assert fig.axes[0].get_ylabel() == "query position p"


def look_back_scores(n_positions, matrix, d_model=16):
    """``score[p, q] = PE[p] · matrix PE[q]`` for the first ``n_positions``."""
    table = sinusoidal_positions(range(n_positions), d_model)
    return table @ matrix @ table.T


def test_look_back_heatmaps_draw_the_scores_and_mark_each_rows_peak():
    scores = look_back_scores(40, rotation_matrix(3, 16))
    rolled = look_back_scores(40, np.roll(np.eye(16), 3, axis=0))
    panels = {"R(3)": scores, "roll": rolled}
    fig, rows = figures.look_back_heatmaps(panels, offset=3), np.arange(3, 40)
    for ax, (title, matrix) in zip(fig.axes[:2], panels.items(), strict=True):
        image = ax.images[0]
        np.testing.assert_allclose(image.get_array(), matrix)
        assert image.get_extent() == [-0.5, 39.5, 39.5, -0.5]  # p = 0 on top
        assert image.get_clim() == pytest.approx((-8, 8))  # one scale: d_model / 2
        assert (ax.get_title(), ax.get_xlabel()) == (title, "key position q")
        diagonal = ax.lines[0].get_xydata()  # (q, p) at both ends
        np.testing.assert_array_equal(diagonal, [[0, 3], [36, 39]])
        assert np.all(diagonal[:, 1] - diagonal[:, 0] == 3)  # q = p - 3
        assert ax.lines[0].get_label() == "q = p − 3"
        dots = ax.lines[1].get_xydata()  # (argmax q, p) per row p >= 3
        np.testing.assert_array_equal(dots[:, 1], rows)
        np.testing.assert_array_equal(dots[:, 0], matrix[rows].argmax(axis=1))
    on_line = [
        np.sum(ax.lines[1].get_xydata()[:, 0] == rows - 3) for ax in fig.axes[:2]
    ]
    assert on_line[0] == len(rows) and on_line[1] < len(rows) // 4
    assert fig.axes[0].get_ylabel() == "query position p"
    assert fig.axes[2].get_ylabel() == "score[p, q]"  # the colour bar


@pytest.mark.parametrize("figure", ["score_heatmaps", "look_back_heatmaps"])
def test_own_scale_fits_each_panel_centred_on_0(figure):
    near = look_back_scores(8, rotation_matrix(3, 16))  # all > 0: 1.8 .. 8
    far = -0.1 * near
    if figure == "score_heatmaps":
        fig = figures.score_heatmaps(near, far, scale="own")
    else:
        fig = figures.look_back_heatmaps(
            {"near": near, "far": far}, offset=3, scale="own"
        )
    for ax, scores in zip(fig.axes[:2], [near, far], strict=True):
        largest = np.abs(scores).max()
        assert ax.images[0].get_clim() == pytest.approx((-largest, largest))
    assert len(fig.axes) == 4  # two panels, a colour bar each
