"""The slider widgets: their text, their pictures' numbers and their structure."""

import io
import re

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import PIL.Image  # noqa: E402

from posenc_lib import (  # noqa: E402
    frequencies,
    pos_encoding,
    rotation_matrix,
    sinusoidal_positions,
)
from posenc_lib.figures.circles import pair_circle  # noqa: E402
from posenc_lib.figures.explorer import pair_table  # noqa: E402
from posenc_lib.figures.sliders import (  # noqa: E402
    PairCircleExplorer,
    PositionExplorer,
    describe_position,
    position_explorer,
)


def test_describe_position_matches_the_exercise_card():
    # The card's "tap a position" view of position 1 with 8 numbers.
    assert describe_position(1, 8) == (
        "pair 0 (frequency 1): sin 1 = 0.8415, cos 1 = 0.5403; "
        "pair 1 (frequency 0.1): sin 0.1 = 0.0998, cos 0.1 = 0.9950; "
        "pair 2 (frequency 0.01): sin 0.01 = 0.0100, cos 0.01 = 1.0000; "
        "pair 3 (frequency 0.001): sin 0.001 = 0.0010, cos 0.001 = 1.0000"
    )


def test_describe_position_zero_is_sin_0_cos_1_without_negative_zero():
    text = describe_position(0, 6)
    assert text.count("sin 0 = 0.0000, cos 0 = 1.0000") == 3
    assert "-0.0000" not in describe_position(314159, 2)


@pytest.mark.parametrize(("pos", "d_model"), [(3, 4), (17, 10), (50, 64)])
def test_describe_position_numbers_are_pos_encoding(pos, d_model):
    numbers = re.findall(r"= (-?\d\.\d{4})", describe_position(pos, d_model))
    np.testing.assert_allclose(
        np.array(numbers, dtype=float), pos_encoding(pos, d_model), atol=5e-5
    )
    assert describe_position(pos, d_model).count("; ") == d_model // 2 - 1


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((1, 7), ValueError, "d_model == 7, must be an even integer >= 2."),
        ((-1, 4), ValueError, "pos == -1, must be an integer >= 0."),
    ],
    ids=["odd-d", "negative-pos"],
)
def test_describe_position_errors(args, error, message):
    with pytest.raises(error, match=re.escape(message)):
        describe_position(*args)


@pytest.fixture
def explorer():
    return position_explorer(pos=1, d_model=8, max_pos=30)


def test_structure_and_css_hooks(explorer):
    assert isinstance(explorer, PositionExplorer)
    sliders = (explorer.pos_slider, explorer.d_slider)
    assert [s.description for s in sliders] == ["pos", "d_model"]
    assert explorer.d_slider.step == 2 and explorer.d_slider.min == 2
    assert (explorer.pos_slider.min, explorer.pos_slider.max) == (0, 30)
    assert "posenc-explorer" in explorer._dom_classes
    for widget, name in [
        (explorer.pos_slider, "pos"),
        (explorer.d_slider, "d"),
        (explorer.table, "table"),
        (explorer.image, "image"),
    ]:
        assert f"posenc-{name}" in widget._dom_classes
    assert explorer.image.format == "png"
    assert repr(explorer) == "PositionExplorer(pos=1, d_model=8)"


def _state(explorer, pos, d_model, n_positions=31):
    """Assert that text, bars, marker and heatmap all show (pos, d_model)."""
    assert explorer.text.value == describe_position(pos, d_model)
    assert explorer.table.value == pair_table(pos, d_model)
    np.testing.assert_array_equal(explorer.bar_heights(), pos_encoding(pos, d_model))
    assert list(explorer.marker.get_ydata()) == [pos, pos]
    heatmap = explorer.heatmap_ax.images[0]
    np.testing.assert_array_equal(
        heatmap.get_array(), sinusoidal_positions(range(n_positions), d_model)
    )
    assert heatmap.colorbar is not None
    assert explorer.bars_ax.get_title() == f"PE[{pos}] with d_model = {d_model}"


def test_slider_steps_update_text_bars_marker_and_heatmap(explorer):
    _state(explorer, 1, 8)
    explorer.pos_slider.value = 12
    _state(explorer, 12, 8)
    explorer.d_slider.value = 4
    _state(explorer, 12, 4)
    explorer.d_slider.value = 64
    _state(explorer, 12, 64)


def _png(explorer):
    return PIL.Image.open(io.BytesIO(explorer.image.value))


def test_image_is_a_stamp_free_png_that_changes_with_pos(explorer):
    first = bytes(explorer.image.value)
    assert first.startswith(b"\x89PNG") and b"Software" not in first
    assert _png(explorer).size == (760, 256)
    explorer.pos_slider.value = 2
    assert bytes(explorer.image.value) != first


def test_stepping_draws_the_same_picture_as_opening_there(explorer):
    # The redraw reuses a background: no stale bars or markers may remain.
    for pos, d_model in [(5, 8), (29, 8), (7, 16), (3, 16)]:
        explorer.pos_slider.value, explorer.d_slider.value = pos, d_model
    fresh = position_explorer(pos=3, d_model=16, max_pos=30)
    assert bytes(explorer.image.value) == bytes(fresh.image.value)
    assert explorer.text.value == fresh.text.value
    assert explorer.table.value == fresh.table.value


def test_the_table_has_a_fixed_height_and_follows_the_image(explorer):
    # The numbers sit after the figure, in a box of fixed height: a wider
    # d_model adds rows to the table (up to 9), never moves the figure.
    numbers = explorer.children[-1]
    assert numbers.children == (explorer.image, explorer.table)
    assert numbers.layout.flex_flow == "row wrap"
    rows = [pair_table(3, d).count("<tr") for d in (2, 8, 16, 64)]
    assert rows == [2, 5, 9, 10]
    css = explorer.children[0].value
    assert re.search(r"\.posenc-table \{ height: [\d.]+em; overflow: hidden;", css)
    assert explorer.children[0].layout.display == "none"  # only its <style>


def test_invalid_start_values_raise():
    with pytest.raises(ValueError, match=re.escape("d_model == 5")):
        position_explorer(d_model=5)


# The pair circle explorer of chapter 03.


@pytest.fixture
def circle():
    return PairCircleExplorer(offset=3, d_model=16, pair=1)


def test_pair_circle_structure_and_css_hooks(circle):
    slider = circle.offset_slider
    assert (slider.description, slider.min, slider.max, slider.value) == (
        "offset Δ",
        0,
        15,
        3,
    )
    assert "posenc-pair-circle" in circle._dom_classes
    assert "posenc-offset" in slider._dom_classes
    assert "posenc-image" in circle.image._dom_classes
    assert circle.children[1:] == (slider, circle.image)
    assert repr(circle) == "PairCircleExplorer(offset=3, d_model=16)"
    width, height = _png(circle).size  # shown at its own size, not stretched
    assert circle.image.layout.width == f"{width}px" and width == height


@pytest.mark.parametrize("offset", [0, 1, 7, 15])
def test_pair_circle_arrows_join_pe_of_p_and_p_plus_k(circle, offset):
    circle.offset_slider.value = offset
    starts, ends = circle.arrow_points().transpose(1, 0, 2)  # (2, n_starts, 2)
    table = sinusoidal_positions(range(40), 16)  # (40, 16)
    np.testing.assert_array_equal(starts, table[[0, 5], 2:4])
    np.testing.assert_allclose(ends, table[[offset, 5 + offset], 2:4], atol=1e-15)
    np.testing.assert_allclose(
        ends, starts @ rotation_matrix(offset, 16)[2:4, 2:4].T, atol=1e-12
    )
    turn = f"{offset * frequencies(16)[1]:.3f} rad"
    assert circle.ax.get_title().endswith(turn)


def test_pair_circle_shows_the_figure_of_pair_circle(circle):
    figure = pair_circle(7, d_model=16, pair=1)
    static = figure.axes[0]
    circle.offset_slider.value = 7
    np.testing.assert_array_equal(
        circle.ax.lines[1].get_xydata(), static.lines[1].get_xydata()
    )
    arrows = [(t.xyann, t.xy) for t in static.texts if t.arrow_patch]
    np.testing.assert_array_equal(circle.arrow_points(), arrows)
    assert circle.ax.get_title() == static.get_title()
    assert [t.get_text() for t in circle.ax.texts] == [
        t.get_text() for t in static.texts
    ]
    plt.close(figure)


def test_pair_circle_png_is_the_same_for_equal_offsets(circle):
    first = bytes(circle.image.value)
    assert first.startswith(b"\x89PNG") and b"Software" not in first
    for offset in (0, 15, 8, 3):  # stepping may leave no stale arrows behind
        circle.offset_slider.value = offset
    assert bytes(circle.image.value) == first
    assert bytes(PairCircleExplorer(offset=3).image.value) == first
    circle.offset_slider.value = 4
    assert bytes(circle.image.value) != first


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"offset": 16}, "offset == 16, must be in [0, 16)"),
        ({"pair": 8}, "pair == 8, must be in [0, 8), i.e. 0 <= pair < d_model // 2."),
        ({"d_model": 5}, "d_model == 5, must be an even integer >= 2."),
    ],
    ids=["offset-past-max", "pair-past-width", "odd-d"],
)
def test_pair_circle_invalid_values_raise(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        PairCircleExplorer(**kwargs)


def test_column_ticks_are_whole_columns(explorer):
    explorer.d_slider.value = 14
    ticks = explorer.heatmap_ax.get_xticks()
    assert all(float(t).is_integer() for t in ticks), ticks
