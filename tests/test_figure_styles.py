"""One style per quantity (``STYLES``): every image of every figure function and of
the lecture names its quantity and has its colour map and scale, chosen in
style.py only."""

import re
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from lecture_figures import measure_figures, styles

from posenc_lib import rotation_matrix, sinusoidal_positions
from posenc_lib.figures import (
    attention_maps,
    compare_tables,
    conventions_figure,
    look_back_heatmaps,
    plot_encoding_heatmap,
    score_heatmaps,
    similarity_figure,
)
from posenc_lib.figures.explorer import colour_map
from posenc_lib.figures.style import STYLES

FIGURES = Path(__file__).resolve().parent.parent / "posenc_lib" / "figures"
TABLE = sinusoidal_positions(range(12), 8)  # (12, 8)
SCORES = TABLE @ rotation_matrix(3, 8) @ TABLE.T  # (12, 12): all > 0

#: figure function -> (a call with small data, the quantity of each image in order)
# fmt: off
CALLS = {
    "plot_encoding_heatmap": (
        lambda: plot_encoding_heatmap(TABLE).figure, ["encoding"]),
    "compare_tables": (
        lambda: compare_tables(TABLE, TABLE[:, ::-1], name="reversed"),
        ["encoding"] * 3),
    "conventions_figure": (
        lambda: conventions_figure({"a": TABLE, "b": TABLE}, {"a": None, "b": None}),
        ["encoding"] * 2),
    "similarity_figure": (
        lambda: similarity_figure(TABLE @ TABLE.T, np.arange(12), TABLE[0] @ TABLE.T),
        ["score"]),
    "look_back_heatmaps": (
        lambda: look_back_heatmaps({"R(3)": SCORES, "-": -0.1 * SCORES}, offset=3),
        ["score"] * 2),
    "look_back_heatmaps own": (
        lambda: look_back_heatmaps({"a": SCORES}, offset=3, scale="own"), ["score"]),
    "score_heatmaps": (lambda: score_heatmaps(SCORES, -SCORES), ["score"] * 2),
    "score_heatmaps own": (
        lambda: score_heatmaps(SCORES, 0.1 * SCORES, scale="own"), ["score"] * 2),
    "attention_maps": (
        lambda: attention_maps({"w": np.tril(np.full((6, 6), 0.2))}, lag=2),
        ["weight"]),
}
# fmt: on


def _check(found, where):
    for quantity, cmap, (low, high) in found:
        assert quantity in STYLES, f"{where}: an image of unknown quantity {quantity!r}"
        expected, scale = STYLES[quantity]
        assert cmap == expected, f"{where}: {quantity} drawn with {cmap}"
        if scale == "centred":
            assert low == -high > -np.inf and high > 0, f"{where}: {low}..{high}"
        else:
            assert (low, high) == (0.0, 1.0), f"{where}: {low}..{high}"


@pytest.mark.parametrize("name", CALLS)
def test_each_figure_function_colours_its_quantity_in_its_style(name):
    call, quantities = CALLS[name]
    found = styles(call())
    plt.close("all")
    assert [quantity for quantity, _, _ in found] == quantities
    _check(found, name)


def test_every_figure_of_the_lecture_colours_its_quantity_in_its_style():
    figures = measure_figures(styles)
    drawn = [style for found in figures for style in found]
    assert {quantity for quantity, _, _ in drawn} == set(STYLES)  # all three shown
    for number, found in enumerate(figures):
        _check(found, f"lecture figure {number}")


def test_the_explorers_heatmap_uses_the_encodings_colour_map():
    cmap = matplotlib.colormaps[STYLES["encoding"][0]].resampled(3)
    assert colour_map(3) == [matplotlib.colors.to_hex(cmap(i)) for i in range(3)]


def test_no_figure_module_chooses_a_colour_map_of_its_own():
    named = re.compile(r"""cmap\s*=\s*["']|["'](viridis|RdBu\w*|Greens|PuOr\w*)["']""")
    for path in sorted(FIGURES.glob("*.py")):
        if path.name == "style.py":
            continue
        found = named.search(path.read_text(encoding="utf-8"))
        assert found is None, f"{path.name}: {found and found.group()}"
