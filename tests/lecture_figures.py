"""The figures of notebooks/lecture.ipynb, re-drawn here to measure their text.

Imported by ``tests/test_lecture.py`` and ``tests/browser/test_slides.py``
(by path). :func:`figure_text_sizes` runs the lecture's code cells in order,
as the kernel does, and measures the font size in PNG pixels of every text of
every figure the lecture shows, in the order of its PNG outputs: each
``plt.show()`` (the explorer is drawn in the browser, as SVG: no PNG).
:func:`colour_spans` runs them
the same way and returns, for each figure, how much of each heatmap's colour
scale its data spans.
"""

import ast
import contextlib
import io
from pathlib import Path

import matplotlib
import nbformat

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from posenc_lib.figures.style import text_sizes  # noqa: E402

LECTURE = Path(__file__).resolve().parent.parent / "notebooks" / "lecture.ipynb"


def _run_cell(source, namespace):
    """Run one cell; return the value of its last expression (as IPython shows)."""
    tree = ast.parse(source)
    last = (
        tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    )
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)


def _measure_figures(measure, path=LECTURE):
    """``[measure(figure), ...]``, one per PNG the lecture shows, in order."""
    found = []

    def show():
        for number in plt.get_fignums():
            found.append(measure(plt.figure(number)))
        plt.close("all")

    namespace = {}
    real_show = plt.show
    plt.show = show
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            _run_cells(path, namespace)
    finally:
        plt.show = real_show
        plt.close("all")
        matplotlib.rcdefaults()
    return found


def figure_text_sizes(path=LECTURE):
    """``[(smallest_px, largest_px, n_texts), ...]``, one per PNG the lecture shows."""
    sizes = _measure_figures(text_sizes, path)
    return [(found[0][0], found[-1][0], len(found)) for found in sizes]


def _spans(figure):
    """``[(axes title, data span / colour-scale span), ...]`` of its heatmaps."""
    spans = []
    for ax in figure.axes:
        for image in ax.images:
            data = image.get_array()
            low, high = image.get_clim()
            spans.append(
                (ax.get_title(), float(data.max() - data.min()) / (high - low))
            )
    return spans


def colour_spans(path=LECTURE):
    """``[[(title, span), ...], ...]``: per figure, each heatmap's share of its scale.

    ``span`` is (largest - smallest value) / (top - bottom of the colour scale):
    1 when the data uses the whole scale, small when it is one pale colour.
    """
    return _measure_figures(_spans, path)


def _run_cells(path, namespace):
    """Run the notebook's code cells in order."""
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code" and cell.source.strip():
            _run_cell(cell.source, namespace)
