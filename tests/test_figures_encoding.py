"""The numbers behind every figure the notebooks draw (nbval never compares PNGs)."""

import io
import re

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")


from posenc_lib import sinusoidal_positions, wavelengths  # noqa: E402
from posenc_lib.figures import (  # noqa: E402
    plot_encoding_heatmap,
    plot_wavelengths,
    plot_waves,
    plot_word_vectors,
)


def test_heatmap_image_is_the_encoding_table_with_colour_bar_and_labels():
    table = sinusoidal_positions(range(50), 16)
    ax = plot_encoding_heatmap(table)
    image = ax.images[0]
    np.testing.assert_array_equal(image.get_array(), table)
    assert image.colorbar is not None
    assert image.colorbar.ax.get_ylabel() == "PE[pos, k]"
    assert image.get_clim() == (-1, 1)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("column k", "position pos")
    assert ax.get_title() == "PE, d_model = 16"


def test_heatmap_without_mark_has_no_line():
    assert len(plot_encoding_heatmap(np.zeros((5, 4))).lines) == 0


def test_heatmap_rejects_a_vector():
    message = "table has shape (4,), must be 2-D: (n_positions, d_model)"
    with pytest.raises(ValueError, match=re.escape(message)):
        plot_encoding_heatmap(np.zeros(4))


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


def test_pngs_saved_with_the_inline_kwargs_have_no_software_stamp():
    from posenc_lib.figures.style import INLINE_FIGURE_KWARGS

    ax = plot_encoding_heatmap(np.zeros((5, 4)))
    buffer = io.BytesIO()
    ax.figure.savefig(buffer, format="png", **INLINE_FIGURE_KWARGS)
    assert b"Software" not in buffer.getvalue()
    assert b"matplotlib" not in buffer.getvalue().lower()


def test_waves_reject_a_column_past_the_width():
    message = "columns[0] == 8, must be in [0, 8), i.e. 0 <= columns[0] < d_model."
    with pytest.raises(ValueError, match=re.escape(message)):
        plot_waves(np.zeros((3, 8)), [8])


TABLE = np.zeros((5, 4))  # (n_positions, d_model)
POINTS = [[0.0, 0.0], [1.0, 1.0]]  # (n_words, 2)


BAD_ARGUMENTS = {
    "ax-a-word": (
        lambda: plot_encoding_heatmap(TABLE, ax="left"),
        TypeError,
        "ax == 'left' (str), must be a matplotlib Axes, e.g. from plt.subplots().",
    ),
    "columns-a-number": (
        lambda: plot_waves(TABLE, 3),
        TypeError,
        "columns == 3 (int), must be a sequence of column indices.",
    ),
    "wavelength-zero": (
        lambda: plot_wavelengths([6.3, 0.0]),
        ValueError,
        "wavelengths[1] == 0.0, must be a finite number > 0.",
    ),
    "points-3d": (
        lambda: plot_word_vectors([[0.0, 0.0, 1.0]], ["cat"]),
        ValueError,
        "points has shape (1, 3), must be (n_words, 2), one point per word.",
    ),
    "words-short": (
        lambda: plot_word_vectors(POINTS, ["cat"]),
        ValueError,
        "words has length 1, must be 2: one per point.",
    ),
    "words-a-string": (
        lambda: plot_word_vectors(POINTS, "cd"),
        TypeError,
        "words == 'cd' (str), must be a sequence of str, one per point.",
    ),
    "word-a-number": (
        lambda: plot_word_vectors(POINTS, ["cat", 7]),
        TypeError,
        "words[1] == 7 (int), must be a str.",
    ),
    "group-unhashable": (
        lambda: plot_word_vectors(POINTS, ["cat", "dog"], groups=[[1], [2]]),
        TypeError,
        "groups[0] == [1], must be hashable, e.g. a str.",
    ),
}


@pytest.mark.parametrize("case", BAD_ARGUMENTS)
def test_bad_arguments_are_named_as_the_signature_does(case):
    call, error, message = BAD_ARGUMENTS[case]
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        call()
