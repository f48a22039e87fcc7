"""posenc_lib.figures.style: the presentation scale and the measured text sizes
(measured by ``tests/lecture_figures.py``)."""

import re

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from lecture_figures import text_sizes
from matplotlib.figure import Figure

from posenc_lib import sinusoidal_positions
from posenc_lib.figures import plot_encoding_heatmap
from posenc_lib.figures.style import (
    PRESENTATION_SCALE,
    SCALE_VARIABLE,
    check_axes,
    figure_scale,
    heatmap,
    new_axes,
    set_rows,
    setup_notebook,
)


@pytest.fixture(autouse=True)
def _restore_rc(monkeypatch):
    monkeypatch.delenv(SCALE_VARIABLE, raising=False)
    with matplotlib.rc_context():
        yield
    plt.close("all")


def _heatmap_text():
    plot_encoding_heatmap(sinusoidal_positions(range(64), 32))
    return text_sizes(plt.gcf())


def test_default_chapters_are_unchanged():
    setup_notebook()
    assert plt.rcParams["figure.dpi"] == 80 and plt.rcParams["font.size"] == 10
    sizes = _heatmap_text()
    assert sizes[0][0] == pytest.approx(10 * 80 / 72, abs=0.01)  # about 11 px


def test_presentation_scale_makes_axis_text_at_least_18_px():
    setup_notebook(scale="presentation")
    assert plt.rcParams["figure.dpi"] == 80 * PRESENTATION_SCALE
    smallest, largest = _heatmap_text()[0][0], _heatmap_text()[-1][0]
    assert smallest >= 18 and largest == pytest.approx(11 * 160 / 72, abs=0.01)


def test_the_environment_variable_sets_the_scale(monkeypatch):
    monkeypatch.setenv(SCALE_VARIABLE, "presentation")
    setup_notebook()
    assert plt.rcParams["figure.dpi"] == 160
    monkeypatch.setenv(SCALE_VARIABLE, "1.5")
    assert figure_scale() == 1.5
    assert figure_scale(1.0) == 1.0  # an explicit scale wins


@pytest.mark.parametrize(
    "scale, variable, error, message",
    [
        (0, None, ValueError, "scale == 0, must be a finite number > 0."),
        (None, "-2", ValueError, "POSENC_SCALE == -2.0, must be a finite number > 0."),
        (None, "big", ValueError, "POSENC_SCALE == 'big', must be a number > 0 or"),
        ([2], None, TypeError, "scale == [2], must be a finite number > 0."),
    ],
    ids=["zero", "negative-variable", "word-variable", "list"],
)
def test_bad_scales_are_named(monkeypatch, scale, variable, error, message):
    if variable is not None:
        monkeypatch.setenv(SCALE_VARIABLE, variable)
    with pytest.raises(error, match=re.escape(message)):
        figure_scale(scale)


def test_text_sizes_skip_ticks_outside_the_axes():
    figure = plt.figure(dpi=72)
    ax = figure.add_subplot()
    ax.set_xticks([0, 1, 2])
    ax.set_xlim(0.5, 1.5)  # only the tick at 1 (and its label) is inside
    ax.set_yticks([])
    assert [text for _, text in text_sizes(figure)] == ["1"]


def _axes():
    return Figure().add_subplot()


AXES = "must be a matplotlib Axes, e.g. from plt.subplots()."
ROWS = "must be increasing in equal steps: rows are drawn as equal bands."


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: check_axes(3), TypeError, f"ax == 3 (int), {AXES}"),
        (lambda: new_axes(ax=plt), TypeError, "ax == <module 'matplotlib.pyplot'"),
        (
            lambda: new_axes(figsize=(4, 0)),
            ValueError,
            "figsize[1] == 0, must be a finite number > 0.",
        ),
        (
            lambda: new_axes(figsize=(4, 3, 2)),
            ValueError,
            "figsize == (4, 3, 2), must be (width, height) in inches, or None.",
        ),
        (lambda: heatmap(None, np.zeros((2, 2))), TypeError, f"ax == None, {AXES}"),
        (
            lambda: heatmap(_axes(), [[0.0, np.nan]]),
            ValueError,
            "table[0, 1] == nan, must be a finite number.",
        ),
        (
            lambda: heatmap(_axes(), np.zeros((2, 2)), vmax=0),
            ValueError,
            "vmax == 0, must be a finite number > 0.",
        ),
        (
            lambda: heatmap(_axes(), np.zeros((3, 2)), rows=[0, 1, 3]),
            ValueError,
            f"rows == [0, 1, 3], {ROWS}",
        ),
        (
            lambda: heatmap(_axes(), np.zeros((2, 2)), rows=[5, 4]),
            ValueError,
            f"rows == [5, 4], {ROWS}",
        ),
        (
            lambda: heatmap(_axes(), np.zeros((3, 2)), rows=[0, 1]),
            ValueError,
            "rows has length 2, must be 3: one label per row.",
        ),
        (
            lambda: set_rows(_axes(), [0]),
            TypeError,
            "image == <Axes: >, must be a matplotlib AxesImage, e.g. from heatmap().",
        ),
        (
            lambda: text_sizes(_axes()),
            TypeError,
            "figure == <Axes: >, must be a matplotlib Figure.",
        ),
    ],
    ids=[
        "check-axes",
        "new-axes-module",
        "figsize-zero",
        "figsize-three",
        "heatmap-no-axes",
        "heatmap-nan",
        "heatmap-vmax",
        "rows-uneven",
        "rows-decreasing",
        "rows-short",
        "set-rows-axes",
        "text-sizes-axes",
    ],
)
def test_bad_arguments_of_the_drawing_steps_are_named(call, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}"):
        call()


def test_one_labelled_row_and_even_steps_are_accepted():
    image = heatmap(_axes(), np.zeros((1, 2)), rows=[7])
    assert image.get_extent() == [-0.5, 1.5, 7.5, 6.5]
    image = heatmap(_axes(), np.zeros((3, 2)), rows=range(10, 16, 2))
    assert image.get_extent() == [-0.5, 1.5, 15.0, 9.0]
