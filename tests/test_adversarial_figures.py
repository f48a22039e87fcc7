"""The geometry of every figure: what a flipped extent or a swapped label would break.

``tests/test_figures_*.py`` check the numbers behind each picture; these check
where they land: extents (row 0 at the top, one cell per entry), axis limits and
scales, labels, colour scales. Whether a stored notebook PNG is still what its
cell draws is guarded by nbval itself: ``conftest.py`` makes it compare
``image/png`` outputs byte for byte (see the README's maintainer notes).
"""

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from posenc_lib import sinusoidal_positions  # noqa: E402
from posenc_lib.figures import (  # noqa: E402
    clock_faces,
    compare_tables,
    pair_circle,
    plot_encoding_heatmap,
    score_heatmaps,
)


def _top_row_first(image):
    """True if row 0 of the image's array is drawn at the top of its axes."""
    left, right, bottom, top = image.get_extent()
    ylow, yhigh = image.axes.get_ylim()
    return top < bottom and yhigh < ylow


def test_encoding_heatmap_extent_and_orientation():
    table = sinusoidal_positions(range(12), 6)
    ax = plot_encoding_heatmap(table)
    image = ax.images[0]
    assert image.get_extent() == [-0.5, 5.5, 11.5, -0.5]
    assert _top_row_first(image)
    assert (ax.get_xlim(), ax.get_ylim()) == ((-0.5, 5.5), (11.5, -0.5))
    assert image.get_clim() == (-1.0, 1.0)


def test_compare_tables_geometry():
    right = sinusoidal_positions(range(8), 4)
    fig = compare_tables(right, right[::-1], name="rows reversed")
    panels = fig.axes[:3]
    for ax in panels:
        assert ax.images[0].get_extent() == [-0.5, 3.5, 7.5, -0.5]
        assert _top_row_first(ax.images[0])
        assert ax.get_xlabel() == "column k"
    np.testing.assert_array_equal(panels[1].images[0].get_array(), right[::-1])
    assert panels[0].get_ylabel() == "position pos"
    largest = np.abs(right[::-1] - right).max()
    np.testing.assert_allclose(panels[2].images[0].get_clim(), (-largest, largest))


def test_score_heatmaps_geometry():
    added = np.arange(16.0).reshape(4, 4) - 8
    fig = score_heatmaps(added, -added)
    for ax in fig.axes[:2]:
        assert ax.images[0].get_extent() == [-0.5, 3.5, 3.5, -0.5]
        assert _top_row_first(ax.images[0])
        assert ax.images[0].get_clim() == (-8.0, 8.0)
        assert ax.get_xlabel() == "key position q"
    assert fig.axes[0].get_ylabel() == "query position p"


@pytest.mark.parametrize(
    "draw",
    [lambda: pair_circle(3), lambda: clock_faces([0, 5], 16, [0, 1, 2])],
    ids=["pair_circle", "clock_faces"],
)
def test_circles_are_round_and_centred(draw):
    for ax in draw().axes:
        assert ax.get_aspect() == 1.0
        assert ax.get_xlim() == (-1.3, 1.3) and ax.get_ylim() == (-1.3, 1.3)


def test_a_flipped_extent_is_caught(monkeypatch):
    """The mutation the issue found: position 0 drawn at the bottom."""
    from posenc_lib.figures import style

    def flipped(image, rows=None):
        n_rows, n_columns = image.get_array().shape
        image.set_extent((-0.5, n_columns - 0.5, -0.5, n_rows - 0.5))

    monkeypatch.setattr(style, "set_rows", flipped)
    ax = plot_encoding_heatmap(sinusoidal_positions(range(5), 4))
    assert not _top_row_first(ax.images[0])


@pytest.mark.parametrize("flip", [False, True])
def test_the_orientation_check_tells_the_two_apart(flip):
    from matplotlib.figure import Figure

    ax = Figure().add_subplot()
    image = ax.imshow(np.zeros((3, 2)), origin="lower" if flip else "upper")
    assert _top_row_first(image) is not flip
