"""posenc_lib.figures.explorer: the numbers, the figure's data, the wiring, errors."""

import base64
import math
import re

import numpy as np
import pytest

from posenc_lib import pos_encoding, rotation_matrix, sinusoidal_positions
from posenc_lib.figures.explorer import (
    Explorer,
    ExplorerFigure,
    circle_title,
    dot_line,
    explorer,
    pair_table,
)


def _reference_encoding(pos, d_model):
    """The lesson's formula with math.sin / math.cos, one column at a time."""
    angles = [pos / 10000 ** (2 * (k // 2) / d_model) for k in range(d_model)]
    return [math.sin(a) if k % 2 == 0 else math.cos(a) for k, a in enumerate(angles)]


def test_pair_table_shows_the_worked_trace():
    table = pair_table(3, 4)
    rows = re.findall(r"<tr><td>(.*?)</td></tr>", table)
    assert rows == [
        "0</td><td>1</td><td>3</td><td>0.1411</td><td>-0.9900",
        "1</td><td>0.01</td><td>0.03</td><td>0.0300</td><td>0.9996",
    ]


@pytest.mark.parametrize("pos, d_model", [(0, 2), (7, 8), (50, 16)])
def test_pair_table_matches_the_formula(pos, d_model):
    reference = _reference_encoding(pos, d_model)
    rows = re.findall(r"<tr><td>(.*?)</td></tr>", pair_table(pos, d_model))
    sin_cos = [value for row in rows for value in row.split("</td><td>")[3:]]
    assert sin_cos == [f"{value:.4f}" for value in reference]


def test_wide_table_lists_first_and_last_pairs():
    table = pair_table(5, 64)
    pairs = re.findall(r"<tr[^>]*><td>(\d+|&#8942;)</td>", table)
    assert pairs == ["0", "1", "2", "3", "4", "5", "&#8942;", "30", "31"]


def test_highlighted_pair_is_bold():
    bold = re.findall(
        r'<tr style="font-weight: bold"><td>(\d+)', pair_table(1, 8, pair=2)
    )
    assert bold == ["2"]


@pytest.mark.parametrize("pos, d_model, offset", [(3, 4, 0), (5, 8, 3), (0, 64, 20)])
def test_dot_line_is_the_sum_of_cosines(pos, d_model, offset):
    expected = sum(
        math.cos(offset / 10000 ** (2 * i / d_model)) for i in range(d_model // 2)
    )
    line = dot_line(pos, d_model, offset)
    assert line == f"PE[{pos}] · PE[{pos + offset}] = {expected:.4f}"


def test_figure_data_follow_the_values():
    figure = ExplorerFigure(n_positions=30).update(pos=4, d_model=8, offset=3, pair=1)
    heights = [bar.get_height() for bar in figure._bars]
    np.testing.assert_allclose(heights, _reference_encoding(4, 8), atol=1e-12)
    np.testing.assert_array_equal(
        figure._heatmap.get_array(), sinusoidal_positions(range(30), 8)
    )
    assert figure._row.get_y() == 3.5 and figure._shifted_row.get_y() == 6.5
    start, end = figure._start.get_xydata()[0], figure._end.get_xydata()[0]
    np.testing.assert_allclose(start, pos_encoding(4, 8)[2:4])
    rotated = rotation_matrix(3, 8) @ pos_encoding(4, 8)  # the pair turned by Δ
    np.testing.assert_allclose(end, rotated[2:4], atol=1e-12)


def test_shifted_row_hidden_past_the_heatmap():
    figure = ExplorerFigure(n_positions=10).update(pos=8, d_model=4, offset=5)
    assert not figure._shifted_row.get_visible()


def test_png_is_the_same_for_the_same_values():
    first = ExplorerFigure(n_positions=20).update(2, 6, 1, 0)
    first.update(9, 10, 4, 2).update(2, 6, 1, 0)  # other values in between
    second = ExplorerFigure(n_positions=20).update(2, 6, 1, 0)
    assert first.png() == second.png()


def test_slider_step_updates_numbers_and_image():
    app = Explorer(pos=3, d_model=4, offset=2, max_pos=20, max_offset=5)
    before = app.image.value
    app.sliders["pos"].value = 4
    assert "PE[4] · PE[6]" in app.numbers.value
    assert pair_table(4, 4, pair=0) in app.numbers.value
    assert app.image.value != before
    assert app.image.value == ExplorerFigure(n_positions=26).update(4, 4, 2, 0).png()


def test_narrowing_d_clamps_the_pair():
    app = Explorer(pos=1, d_model=16, offset=1, pair=7)
    app.sliders["d"].value = 4
    assert app.sliders["pair"].max == 1
    assert app.values() == (1, 4, 1, 1)
    assert pair_table(1, 4, pair=1) in app.numbers.value


def test_explorer_displays_as_its_widget():
    app = explorer()
    bundle = app._repr_mimebundle_()
    view = bundle["application/vnd.jupyter.widget-view+json"]
    assert view["model_id"] == app.widget.model_id
    assert "posenc-lecture" in app.widget._dom_classes
    still = base64.b64decode(bundle["image/png"])  # what slides show instead
    assert still == app.image.value and still.startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"d_model": 7}, ValueError, "d_model == 7, must be an even integer >= 2."),
        (
            {"pos": 51},
            ValueError,
            "pos == 51, must be in [0, 51), i.e. 0 <= pos < max_pos + 1.",
        ),
        (
            {"offset": 2.0},
            TypeError,
            "offset == 2.0 (float), must be an integer in [0, 21).",
        ),
        (
            {"d_model": 8, "pair": 4},
            ValueError,
            "pair == 4, must be in [0, 4), i.e. 0 <= pair < d_model // 2.",
        ),
        (
            {"d_model": 66},
            ValueError,
            "d_model == 66, must be an even integer in [2, 64] (max_d_model == 64).",
        ),
        (
            {"max_pos": 0},
            ValueError,
            "max_pos == 0, must be an integer >= 1.",
        ),
    ],
    ids=["odd-d", "pos-too-big", "float-offset", "pair-too-big", "d-too-big", "max"],
)
def test_bad_arguments_are_named(kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        Explorer(**kwargs)


def test_dot_line_rejects_negative_offset():
    with pytest.raises(
        ValueError, match=re.escape("offset == -1, must be an integer >= 0.")
    ):
        dot_line(3, 4, -1)


def test_widening_d_model_gives_a_new_pair_slider_reaching_the_last_pair():
    app = Explorer(pos=1, d_model=4, offset=1, pair=1)
    old = app.sliders["pair"]
    app.sliders["d"].value = 16
    new = app.sliders["pair"]
    assert new is not old and (new.max, new.value) == (7, 1)  # End reaches 7
    assert "posenc-lecture-pair" in new._dom_classes
    assert new in app.widget.children[1].children[1].children  # shown in its place
    new.value = 7
    assert app.values() == (1, 16, 1, 7)
    assert pair_table(1, 16, pair=7) in app.numbers.value
    app.sliders["d"].value = 8  # narrower: the same slider, a lower max
    assert app.sliders["pair"] is new and new.max == 3 and app.values()[3] == 3


def test_offset_slider_is_labelled_delta():
    app = Explorer()
    labels = {name: s.description for name, s in app.sliders.items()}
    assert labels == {"pos": "pos", "d": "d_model", "offset": "Δ", "pair": "pair"}
    assert "posenc-lecture-offset" in app.sliders["offset"]._dom_classes


@pytest.mark.parametrize(
    "pair, offset, omega, expected",
    [
        (0, 20, 1.0, "pair 0: Δ·ω = 20 rad\n= 3 turns + 1.15 rad"),
        (0, 7, 1.0, "pair 0: Δ·ω = 7 rad\n= 1 turn + 0.717 rad"),
        (2, 3, 0.1, "pair 2: Δ·ω = 0.3 rad"),
    ],
)
def test_circle_title_says_whole_turns_are_dropped(pair, offset, omega, expected):
    assert circle_title(pair, offset, omega) == expected
    figure = ExplorerFigure(n_positions=30).update(pos=2, d_model=2, offset=20)
    assert figure._circle_title.get_text() == circle_title(0, 20, 1.0)


def test_column_axes_at_d_model_2_show_columns_0_and_1():
    figure = ExplorerFigure(n_positions=10).update(pos=1, d_model=2, offset=1)
    figure.png()
    for ax in (figure.bars_ax, figure.heat_ax):
        left, right = ax.get_xlim()
        ticks = [t for t in ax.get_xticks() if left <= t <= right]
        assert ticks == [0, 1], ax


def test_circle_legend_is_outside_the_circle_and_smaller_than_the_points():
    figure = ExplorerFigure(n_positions=10).update(pos=1, d_model=8, offset=2)
    figure.png()
    renderer = figure.figure.canvas.get_renderer()
    (legend,) = figure.figure.legends
    box = legend.get_window_extent(renderer)
    circle = figure.circle_ax.transData.transform([(-1, -1), (1, 1)])
    assert box.y1 < circle[0, 1] or box.x0 > circle[1, 0]  # below or beside it
    for handle in legend.legend_handles:
        assert handle.get_markersize() < figure._start.get_markersize()
