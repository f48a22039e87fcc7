"""The numbers behind each figure of posenc_lib.figures.properties, not its pixels."""

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from posenc_lib import (  # noqa: E402
    frequencies,
    offset_similarity,
    rotation_matrix,
    sinusoidal_positions,
    wavelengths,
)
from posenc_lib.attention import init_head, position_scores  # noqa: E402
from posenc_lib.figures import (  # noqa: E402
    clock_faces,
    compare_tables,
    look_back_heatmaps,
    pair_circle,
    score_heatmaps,
    similarity_figure,
)
from posenc_lib.figures.circles import unit_circle  # noqa: E402
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


def test_clock_faces_titles_print_wavelengths_without_an_exponent():
    fig = clock_faces([0, 44, 710], 16, [0, 1, 3, 7])
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
    fig = similarity_figure(matrix, offsets, offset_similarity(offsets, 16))
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
    fig = compare_tables(right, wrong, name="sine-only")
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


def test_compare_tables_draws_entries_that_agree_to_rounding_as_zero():
    """0 is on a colour boundary: a difference of +-1 ulp, whose sign is the
    CPU's, would pick one of two colours."""
    right = sinusoidal_positions(range(6), 4)
    wrong = right * (1 + 4 * np.finfo(float).eps)  # a few ulps off everywhere
    wrong[2, 1] += 0.5
    difference = compare_tables(right, wrong, name="x").axes[2].images[0].get_array()
    expected = np.zeros((6, 4))
    expected[2, 1] = 0.5
    np.testing.assert_allclose(difference, expected, rtol=1e-12, atol=0)
    assert np.count_nonzero(difference) == 1


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


def look_back_scores(n_positions, matrix, d_model=16):
    """``score[p, q] = PE[p] · matrix PE[q]`` for the first ``n_positions``."""
    table = sinusoidal_positions(range(n_positions), d_model)
    return table @ matrix @ table.T


def test_look_back_heatmaps_draw_the_scores_p_down_q_across():
    scores = look_back_scores(32, rotation_matrix(3, 16))
    rolled = look_back_scores(32, np.roll(np.eye(16), 3, axis=0))
    fig = look_back_heatmaps({"R(3)": scores, "roll": rolled}, offset=3)
    for ax, (title, expected) in zip(
        fig.axes[:2], [("R(3)", scores), ("roll", rolled)], strict=True
    ):
        image = ax.images[0]
        np.testing.assert_allclose(image.get_array(), expected)
        assert image.get_extent() == [-0.5, 31.5, 31.5, -0.5]  # p = 0 on top
        assert image.get_clim() == pytest.approx((-8, 8))  # one scale: d_model / 2
        assert ax.get_title() == title
        assert ax.get_xlabel() == "key position q"
    assert fig.axes[0].get_ylabel() == "query position p"
    assert fig.axes[2].get_ylabel() == "score[p, q]"  # the colour bar


def test_look_back_heatmaps_mark_the_diagonal_and_each_rows_peak():
    scores = look_back_scores(40, rotation_matrix(3, 16))
    rolled = look_back_scores(40, np.roll(np.eye(16), 3, axis=0))
    fig = look_back_heatmaps({"R(3)": scores, "roll": rolled}, offset=3)
    rows = np.arange(3, 40)
    for ax, matrix in zip(fig.axes[:2], [scores, rolled], strict=True):
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


BAD_PANELS = {
    "empty": (
        {},
        3,
        TypeError,
        "panels == {}, must be a non-empty dict of title -> scores.",
    ),
    "different-shapes": (
        {"a": np.zeros((4, 4)), "b": np.zeros((5, 5))},
        1,
        ValueError,
        "panels['b'] has shape (5, 5), must be (4, 4) (square, and the same for"
        " every panel).",
    ),
    "not-square": (
        {"a": np.zeros((4, 3))},
        1,
        ValueError,
        "panels['a'] has shape (4, 3), must be (4, 4) (square, and the same for"
        " every panel).",
    ),
    "not-2d": (
        {"a": np.zeros(4)},
        1,
        ValueError,
        "panels['a'] has shape (4,), must be 2-D: (n_positions, n_positions):"
        " query position p by key position q.",
    ),
    "offset-too-far": (
        {"a": np.zeros((4, 4))},
        4,
        ValueError,
        "offset == 4, must be an integer in [0, 3].",
    ),
}


@pytest.mark.parametrize("case", BAD_PANELS)
def test_look_back_heatmaps_reject_bad_input(case):
    panels, offset, error, message = BAD_PANELS[case]
    with pytest.raises(error, match=re.escape(message)):
        look_back_heatmaps(panels, offset=offset)


def test_score_heatmaps_own_scale_fits_each_panel_centred_on_0():
    added = np.arange(16.0).reshape(4, 4) - 4  # -4 .. 11
    rotated = np.add.outer(np.arange(4), -np.arange(4)) * 0.1 - 0.5  # -0.8 .. -0.2
    fig = score_heatmaps(added, rotated, scale="own")
    for ax, largest in zip(fig.axes[:2], [11, 0.8], strict=True):
        assert ax.images[0].get_clim() == pytest.approx((-largest, largest))
    assert len(fig.axes) == 4  # two panels, a colour bar each
    shared = score_heatmaps(added, rotated)
    assert [ax.images[0].get_clim() for ax in shared.axes[:2]] == [(-11, 11)] * 2
    with pytest.raises(ValueError, match=re.escape("scale == 'own ', must be")):
        score_heatmaps(added, rotated, scale="own ")


def test_look_back_heatmaps_own_scale_fits_each_panel_centred_on_0():
    near = look_back_scores(8, rotation_matrix(3, 16))  # all > 0: 1.8 .. 8
    far = -0.1 * near
    fig = look_back_heatmaps({"near": near, "far": far}, offset=3, scale="own")
    for ax, scores in zip(fig.axes[:2], [near, far], strict=True):
        largest = np.abs(scores).max()
        assert ax.images[0].get_clim() == pytest.approx((-largest, largest))
    assert len(fig.axes) == 4  # two panels, a colour bar each
    with pytest.raises(ValueError, match=re.escape("scale == 'each', must be")):
        look_back_heatmaps({"near": near}, offset=3, scale="each")


def test_compare_tables_names_each_colour_bar_above_it():
    # a label at the first bar's side sat where the difference panel's y label goes
    right = sinusoidal_positions(range(10), 8)  # (10, 8)
    fig = compare_tables(right, right[:, ::-1], name="columns reversed")
    bars = fig.axes[3:]
    assert [bar.get_title() for bar in bars] == ["PE[pos, k]", "difference"]
    assert [bar.get_ylabel() for bar in bars] == ["", ""]


BAD_ARGUMENTS = {
    "circle-no-axes": (
        lambda: unit_circle(None),
        TypeError,
        "ax == None, must be a matplotlib Axes, e.g. from plt.subplots().",
    ),
    "circle-negative-offset": (
        lambda: pair_circle(-1, d_model=4, pair=1),
        ValueError,
        "offset == -1, must be an integer >= 0.",
    ),
    "curve-lengths": (
        lambda: similarity_figure(np.eye(3), [0, 1, 2], [1.0, 0.5]),
        ValueError,
        "similarities has shape (2,), must be (3,): one per offset.",
    ),
    "curve-negative-offset": (
        lambda: similarity_figure(np.eye(3), [0, -1], [1.0, 0.5]),
        ValueError,
        "offsets[1] == -1, must be a non-negative integer.",
    ),
    "curve-nan": (
        lambda: similarity_figure(np.eye(3), [0, 1], [1.0, np.nan]),
        ValueError,
        "similarities[1] == nan, must be a finite number.",
    ),
    "matrix-no-positive-diagonal": (
        lambda: similarity_figure(np.zeros((3, 3)), [0, 1], [0.0, 0.0]),
        ValueError,
        "matrix has largest diagonal entry 0.0, must be > 0: the colours are "
        "scaled to it (d_model / 2 for an encoding).",
    ),
    "compare-inf": (
        lambda: compare_tables(np.eye(3), np.full((3, 3), np.inf), name="x"),
        ValueError,
        "wrong[0, 0] == inf, must be a finite number.",
    ),
}


@pytest.mark.parametrize("case", BAD_ARGUMENTS)
def test_bad_arguments_are_named_as_the_signature_does(case):
    call, error, message = BAD_ARGUMENTS[case]
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        call()
    plt.close("all")
