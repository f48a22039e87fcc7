"""The course's figure style, and the two drawing steps every figure shares.

- :func:`setup_notebook`: every chapter's ``## Setup`` cell calls it. It fixes a
  small set of matplotlib defaults and, inside IPython, tells the inline backend
  to save PNGs with ``bbox_inches="tight"`` and **no** ``Software`` stamp, so a
  re-executed notebook stores byte-identical images (``scripts/run_notebooks.py``).
- :func:`heatmap`: the one way a table is drawn (``PE``, a similarity matrix,
  attention scores): a diverging colour map centred on 0, row 0 at the top.
- :class:`Blitter`: how the sliders redraw one Agg figure quickly. The static
  parts are drawn once; a step restores them and draws only the moving artists
  (matplotlib's "Faster rendering by using blitting"), then encodes a PNG.

This module imports matplotlib; ``import posenc_lib`` never imports it.
"""

import io

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import PIL.Image

__all__ = [
    "INLINE_FIGURE_KWARGS",
    "PE_CMAP",
    "Blitter",
    "heatmap",
    "new_axes",
    "set_rows",
    "setup_notebook",
]

#: What the inline backend passes to ``savefig``: no version stamp in the PNG.
INLINE_FIGURE_KWARGS = {"bbox_inches": "tight", "metadata": {"Software": None}}

#: Diverging colour map for encodings: -1 blue, 0 white, +1 red.
PE_CMAP = "RdBu_r"

_RC = {
    "figure.figsize": (6.0, 3.0),
    "figure.dpi": 80,
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.grid": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "image.cmap": PE_CMAP,
    "legend.fontsize": 9,
    "legend.frameon": False,
}


def setup_notebook():
    """Set the course's plot defaults; in IPython also stamp-free inline PNGs.

    It also makes numpy 2 print scalars as numpy 1 did (``0.5``, ``True``, not
    ``np.float64(0.5)``, ``np.True_``), so a chapter's stored outputs read the
    same under every numpy the course supports. Safe to call more than once and
    outside IPython (then only the matplotlib and numpy defaults change).

    Examples
    --------
    >>> setup_notebook()
    >>> plt.rcParams["figure.figsize"]
    [6.0, 3.0]
    """
    mpl.rcParams.update(_RC)
    if np.lib.NumpyVersion(np.__version__) >= "2.0.0":
        np.set_printoptions(legacy="1.25")  # scalars print as under numpy 1
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return
    shell = get_ipython()
    if shell is not None and "inline" in mpl.get_backend():
        shell.run_line_magic(
            "config", f"InlineBackend.print_figure_kwargs = {INLINE_FIGURE_KWARGS!r}"
        )


def new_axes(ax=None, figsize=None):
    """``ax`` itself, or the Axes of a new pyplot figure of size ``figsize``.

    Examples
    --------
    >>> new_axes(figsize=(2, 1)).figure.get_size_inches().tolist()
    [2.0, 1.0]
    >>> plt.close("all")
    """
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def heatmap(ax, table, *, vmax=1.0, rows=None, animated=False):
    """Draw a 2-D ``table`` on ``ax``: row 0 at the top, one cell per entry.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    table : array_like of shape (n_rows, n_columns)
    vmax : float, default 1.0
        Colours run from ``-vmax`` (blue) through 0 (white) to ``+vmax`` (red).
    rows : array_like of shape (n_rows,), optional
        The label of each row (e.g. the positions); ``0 .. n_rows - 1`` by default.
        Must be evenly spaced, since rows are drawn as equal bands.
    animated : bool, default False
        Leave the image out of a full draw (for :class:`Blitter`).

    Returns
    -------
    matplotlib.image.AxesImage
        ``image.get_array()`` is ``table``; ``image.get_extent()`` is
        ``(-0.5, n_columns - 0.5, last row + 0.5, first row - 0.5)``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> image = heatmap(Figure().add_subplot(), np.zeros((3, 4)))
    >>> [float(edge) for edge in image.get_extent()]
    [-0.5, 3.5, 2.5, -0.5]
    """
    table = np.asarray(table, dtype=float)  # (n_rows, n_columns)
    image = ax.imshow(
        table,
        cmap=PE_CMAP,
        vmin=-vmax,
        vmax=vmax,
        aspect="auto",
        interpolation="nearest",
        animated=animated,
    )
    set_rows(image, rows)
    return image


def set_rows(image, rows=None):
    """Point a heatmap's extent at its data: row labels ``rows``, top to bottom.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> image = heatmap(Figure().add_subplot(), np.zeros((3, 2)), rows=[10, 11, 12])
    >>> [float(edge) for edge in image.get_extent()]
    [-0.5, 1.5, 12.5, 9.5]
    """
    n_rows, n_columns = image.get_array().shape
    first = 0 if rows is None or len(rows) == 0 else rows[0]
    step = 1 if rows is None or len(rows) < 2 else rows[1] - rows[0]
    last = first + step * (n_rows - 1)
    image.set_extent((-0.5, n_columns - 0.5, last + step / 2, first - step / 2))


class Blitter:
    """Redraw one Agg figure fast: static parts once, then only what moves.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        A figure on a ``FigureCanvasAgg``.
    moving : callable
        Returns the moving artists, in drawing order. They are set
        ``animated=True`` here, so a full draw leaves them out.
    rc : callable, optional
        A context manager factory (e.g. an ``rc_context``) active while drawing.

    Examples
    --------
    >>> from matplotlib.backends.backend_agg import FigureCanvasAgg
    >>> from matplotlib.figure import Figure
    >>> figure = Figure(figsize=(1, 1), dpi=50)
    >>> canvas = FigureCanvasAgg(figure)
    >>> (line,) = figure.add_subplot().plot([0, 1])
    >>> blitter = Blitter(figure, lambda: [line])
    >>> blitter.png()[:4]
    b'\\x89PNG'
    >>> line.set_ydata([1, 0])  # a step: only the line is drawn again
    >>> blitter.png() != blitter.png()
    False
    """

    def __init__(self, figure, moving, *, rc=None):
        self.figure, self._moving, self._rc = figure, moving, rc
        self._background = None

    def invalidate(self):
        """The static parts changed: draw them again at the next :meth:`png`."""
        self._background = None

    def png(self):
        """Static background plus the moving artists, as PNG bytes.

        Equal pictures give equal bytes (RGB, fast compression, no metadata).
        """
        artists = list(self._moving())
        canvas = self.figure.canvas
        if self._background is None:
            for artist in artists:
                artist.set_animated(True)
            if self._rc is None:
                canvas.draw()  # everything except the moving artists
            else:
                with self._rc():
                    canvas.draw()
            self._background = canvas.copy_from_bbox(self.figure.bbox)
        canvas.restore_region(self._background)
        for artist in artists:
            self.figure.draw_artist(artist)
        size = canvas.get_width_height()
        rgba = PIL.Image.frombuffer("RGBA", size, canvas.buffer_rgba())
        buffer = io.BytesIO()
        rgba.convert("RGB").save(buffer, format="png", compress_level=1)
        return buffer.getvalue()
