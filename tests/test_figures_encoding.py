"""The numbers behind every figure the notebooks draw (nbval never compares PNGs)."""

import numpy as np
import pytest

from posenc_lib import sinusoidal_positions, wavelengths
from posenc_lib.figures import (
    plot_encoding_heatmap,
    plot_wavelengths,
    plot_waves,
    plot_word_vectors,
)


def test_heatmap_image_is_the_encoding_table_row_0_on_top_with_colour_bar():
    table = sinusoidal_positions(range(50), 16)
    ax = plot_encoding_heatmap(table)
    image = ax.images[0]
    np.testing.assert_array_equal(image.get_array(), table)
    assert image.get_extent() == [-0.5, 15.5, 49.5, -0.5]  # one cell per entry
    assert (ax.get_xlim(), ax.get_ylim()) == ((-0.5, 15.5), (49.5, -0.5))
    assert image.colorbar.ax.get_ylabel() == "PE[pos, k]"
    assert image.get_clim() == (-1, 1)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("column k", "position pos")
    assert ax.get_title() == "PE, d_model = 16"
    assert len(ax.lines) == 0


def test_waves_dots_are_columns_of_the_table_on_their_continuous_wave():
    table = sinusoidal_positions(range(40), 8)
    ax = plot_waves(table, [0, 1, 6])
    assert len(ax.lines) == 6
    for number, k in enumerate([0, 1, 6]):
        wave, dots = ax.lines[2 * number], ax.lines[2 * number + 1]
        np.testing.assert_array_equal(dots.get_xdata(), np.arange(40))
        np.testing.assert_array_equal(dots.get_ydata(), table[:, k])
        # the faint line passes through the dots: it is the same sin or cos
        at_integers = np.interp(np.arange(40), wave.get_xdata(), wave.get_ydata())
        np.testing.assert_allclose(at_integers, table[:, k], atol=0.01)
        assert wave.get_color() == dots.get_color()
    assert ax.lines[3].get_label() == "k = 1 (cos, pair 0)"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "k = 0 (sin, pair 0)",
        "k = 1 (cos, pair 0)",
        "k = 6 (sin, pair 3)",
    ]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("position pos", "PE[pos, k]")
    assert ax.get_ylim() == (-1.15, 1.15)
    low, high = ax.get_xlim()
    assert low <= 0 and high >= 39


def test_wavelengths_from_two_pi_to_just_short_of_10000_two_pi_on_log_scale():
    ax = plot_wavelengths(wavelengths(64))
    line = ax.lines[0]
    np.testing.assert_array_equal(line.get_xdata(), np.arange(32))
    np.testing.assert_allclose(line.get_ydata(), wavelengths(64))
    assert line.get_ydata()[0] == pytest.approx(2 * np.pi)
    assert ax.get_yscale() == "log"
    assert ax.get_ylim()[0] == 1 and ax.get_ylim()[1] >= wavelengths(64)[-1]
    references = sorted(float(ref.get_ydata()[0]) for ref in ax.lines[1:])
    assert references == pytest.approx([2 * np.pi, 10000 * 2 * np.pi])
    assert ax.get_ylabel() == "wavelength (positions)"
    assert ax.get_xlabel() == "pair i = k // 2"
    texts = [text.get_text() for text in ax.texts]
    assert "last: 47,117" in texts  # 2π·10000^(62/64), not 10000·2π
    assert round(2 * np.pi * 10000 ** (62 / 64)) == 47_117


def test_word_vectors_points_and_labels():
    points = np.array([[0.0, 1.0], [2.0, -1.0], [0.5, 0.5]])
    ax = plot_word_vectors(points, ["cat", "dog", "pear"], groups=["a", "a", "f"])
    np.testing.assert_array_equal(ax.collections[0].get_offsets(), points)
    assert [text.get_text() for text in ax.texts] == ["cat", "dog", "pear"]
    colours = ax.collections[0].get_facecolors()
    assert (colours[0] == colours[1]).all() and (colours[0] != colours[2]).any()


def test_labels_of_coinciding_word_points_do_not_overlap():
    points = np.array([[0.0, 0.0], [0.001, 0.0], [1.0, 1.0], [0.0, 0.002]])
    ax = plot_word_vectors(points, ["cat", "fox", "pear", "dog"])
    offsets = [text.xyann for text in ax.texts]
    assert len({offsets[0], offsets[1], offsets[3]}) == 3
    assert offsets[2] == offsets[0]
