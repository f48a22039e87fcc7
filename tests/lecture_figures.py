"""The figures of notebooks/lecture.ipynb, re-drawn to measure them: one per PNG
output (every ``plt.show()``) by :func:`measure_figures`."""

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
    """``[(size_px, text), ...]``, smallest first: every visible text ``figure``
    draws, at ``fontsize * dpi / 72`` (CSS px when shown at its own size)."""
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


def measure_figures(measure, path=LECTURE):
    """``[measure(figure), ...]``, one per PNG the notebook shows, in order."""
    found = []

    def show():
        for number in plt.get_fignums():
            found.append(measure(plt.figure(number)))
        plt.close("all")

    namespace, real_show, plt.show = {}, plt.show, show
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            for cell in nbformat.read(path, as_version=4).cells:
                if cell.cell_type == "code":
                    exec(compile(cell.source, "<cell>", "exec"), namespace)
    finally:
        plt.show = real_show
        plt.close("all")
        matplotlib.rcdefaults()
    return found


def figure_text_sizes(path=LECTURE):
    """``[(smallest_px, largest_px, n_texts), ...]``, one per PNG the lecture shows."""
    sizes = measure_figures(text_sizes, path)
    return [(found[0][0], found[-1][0], len(found)) for found in sizes]


def reaches(figure):
    """``[(axes title, reach), ...]``: each heatmap's largest ``|value|`` over its
    colour scale's largest ``|limit|`` (small: the panel is one pale colour)."""
    found = []
    for ax in figure.axes:
        for image in ax.images:
            data = np.ma.masked_invalid(image.get_array())  # grey keys are NaN
            end = max(abs(limit) for limit in image.get_clim())
            found.append((ax.get_title(), float(np.abs(data).max()) / end))
    return found


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
