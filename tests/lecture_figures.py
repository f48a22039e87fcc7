"""The figures of notebooks/lecture.ipynb, re-drawn here to measure their text.

Imported by ``tests/test_lecture.py`` and ``tests/browser/test_slides.py``
(by path). :func:`figure_text_sizes` runs the lecture's code cells in order,
as the kernel does, and measures the font size in PNG pixels of every text of
every figure the lecture shows, in the order of its PNG outputs: each
``plt.show()`` (the explorer is drawn in the browser, as SVG: no PNG).
:func:`colour_reaches` runs them
the same way and returns, for each figure, how far each heatmap's data reaches
towards the end of its colour scale; :func:`styles` what each image colours and
how; :func:`png_size` reads a stored PNG's pixel size; :func:`text_sizes`
measures one figure's text.
"""

import ast
import base64
import contextlib
import io
import struct
from pathlib import Path

import matplotlib
import nbformat

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

from posenc_lib.figures.describe import check_figure  # noqa: E402

LECTURE = Path(__file__).resolve().parent.parent / "notebooks" / "lecture.ipynb"


def text_sizes(figure):
    """``[(size_px, text), ...]``, smallest first: every text ``figure`` draws.

    Draws the figure once on its own canvas and records each text that is drawn
    (visible, not empty): tick labels inside the axes' limits, axis labels,
    titles, legends, colour bars and annotations. A size is ``fontsize * dpi /
    72``, the CSS pixel size when the image is shown at its own size.
    """
    drawn, draw = [], matplotlib.text.Text.draw

    def recording_draw(text, renderer):
        if text.get_visible() and text.get_text().strip():
            drawn.append(text)
        return draw(text, renderer)

    if not hasattr(check_figure(figure).canvas, "get_renderer"):  # not drawable yet
        FigureCanvasAgg(figure)
    matplotlib.text.Text.draw = recording_draw
    try:
        figure.canvas.draw()
    finally:
        matplotlib.text.Text.draw = draw
    scale = figure.dpi / 72
    return sorted((round(t.get_fontsize() * scale, 2), t.get_text()) for t in drawn)


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


def measure_figures(measure, path=LECTURE):
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
    sizes = measure_figures(text_sizes, path)
    return [(found[0][0], found[-1][0], len(found)) for found in sizes]


def _reaches(figure):
    """``[(axes title, largest |value| / end of the colour scale), ...]``."""
    reaches = []
    for ax in figure.axes:
        for image in ax.images:
            data = np.ma.masked_invalid(image.get_array())  # grey keys are NaN
            end = max(abs(limit) for limit in image.get_clim())
            reaches.append((ax.get_title(), float(np.abs(data).max()) / end))
    return reaches


def colour_reaches(path=LECTURE):
    """``[[(title, reach), ...], ...]``: per figure, how far each heatmap reaches.

    ``reach`` is the largest ``|value|`` over the end of the colour scale (its
    largest ``|limit|``): 1 when the darkest colour is used, small when the whole
    panel is one pale colour. Every quantity's scale starts at 0 or is centred
    on it (``posenc_lib.figures.style.STYLES``), so this is the share of the map used
    on one side of 0.
    """
    return measure_figures(_reaches, path)


def styles(figure):
    """``[(quantity, colour map, (vmin, vmax)), ...]`` of the figure's images."""
    return [
        (image.get_label(), image.get_cmap().name, tuple(map(float, image.get_clim())))
        for ax in figure.axes
        for image in ax.images
    ]


def png_size(png):
    """``(width, height)`` in pixels of a PNG stored as base64 text."""
    header = base64.b64decode(png.strip()[:64])  # the IHDR chunk comes first
    return struct.unpack(">II", header[16:24])


def _run_cells(path, namespace):
    """Run the notebook's code cells in order."""
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code" and cell.source.strip():
            _run_cell(cell.source, namespace)
