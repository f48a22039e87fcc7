"""posenc_lib.figures.style: the presentation scale and the measured text sizes
(measured by ``tests/lecture_figures.py``)."""

import re

import matplotlib
import matplotlib.pyplot as plt
import pytest
from lecture_figures import text_sizes

from posenc_lib import sinusoidal_positions
from posenc_lib.figures import plot_encoding_heatmap
from posenc_lib.figures.style import (
    PRESENTATION_SCALE,
    SCALE_VARIABLE,
    figure_scale,
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


@pytest.mark.parametrize("by", ["argument", "variable"])
def test_presentation_scale_makes_axis_text_at_least_18_px(monkeypatch, by):
    if by == "variable":
        monkeypatch.setenv(SCALE_VARIABLE, "presentation")
    setup_notebook(scale="presentation" if by == "argument" else None)
    assert plt.rcParams["figure.dpi"] == 80 * PRESENTATION_SCALE
    smallest, largest = _heatmap_text()[0][0], _heatmap_text()[-1][0]
    assert smallest >= 18 and largest == pytest.approx(11 * 160 / 72, abs=0.01)


def test_a_number_in_the_environment_variable_sets_the_scale(monkeypatch):
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
        ("big", None, ValueError, "scale == 'big', must be a number > 0 or"),
    ],
    ids=["zero", "negative-variable", "word-variable", "list", "word"],
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
