"""Plot defaults and the figures of the course notebooks.

Every notebook's ``## Setup`` cell calls :func:`setup_notebook`. It fixes a small
set of matplotlib defaults and, inside IPython, tells the inline backend to save
PNGs with ``bbox_inches="tight"`` and **no** ``Software`` stamp, so that a
re-executed notebook stores byte-identical images (see ``scripts/run_notebooks.py``).

Each plotting function draws on an ``ax`` you pass (or a new figure) and returns
the Axes, so tests can check the numbers behind a picture instead of its pixels:
``ax.images[0].get_array()``, ``[bar.get_height() for bar in ax.patches]``,
``ax.lines[0].get_ydata()``.

The slider widgets (:mod:`posenc_lib.widgets`, :mod:`posenc_lib.explorer_figure`)
redraw one Agg figure by blitting and send PNG bytes to the browser;
:func:`blit_png` is that last step, shared by all of them.

This module imports matplotlib; ``import posenc_lib`` never imports it.
"""

import io

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import PIL.Image

from ._validation import check_d_model, check_index, check_integer
from .positional import frequencies, sinusoidal_positions, wavelengths

__all__ = [
    "INLINE_FIGURE_KWARGS",
    "PE_CMAP",
    "blit_png",
    "plot_encoding_bars",
    "plot_encoding_heatmap",
    "plot_wavelengths",
    "plot_waves",
    "plot_word_vectors",
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
_SIN_COLOUR, _COS_COLOUR = "tab:blue", "tab:orange"


def setup_notebook():
    """Set the course's plot defaults; in IPython also stamp-free inline PNGs.

    Safe to call more than once and outside IPython (then only the matplotlib
    defaults change).

    Examples
    --------
    >>> setup_notebook()
    >>> plt.rcParams["figure.figsize"]
    [6.0, 3.0]
    """
    mpl.rcParams.update(_RC)
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return
    shell = get_ipython()
    if shell is not None and "inline" in mpl.get_backend():
        shell.run_line_magic(
            "config", f"InlineBackend.print_figure_kwargs = {INLINE_FIGURE_KWARGS!r}"
        )


def _axes(ax, figsize=None):
    """``ax`` itself, or the Axes of a new figure."""
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def plot_encoding_heatmap(n_positions, d_model, *, ax=None, mark_pos=None):
    """Heatmap of ``PE`` for positions ``0 .. n_positions - 1`` (rows) by column k.

    Parameters
    ----------
    n_positions : int
        Number of positions (rows), >= 1.
    d_model : int
        Width of the encoding (columns), even, >= 2.
    ax : matplotlib Axes, optional
        Where to draw; a new figure by default.
    mark_pos : int, optional
        Draw a horizontal line through this position's row.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.images[0].get_array()`` is the ``(n_positions, d_model)`` table; the
        image has a colour bar (``ax.images[0].colorbar``).

    Examples
    --------
    >>> ax = plot_encoding_heatmap(10, 8)
    >>> ax.images[0].get_array().shape
    (10, 8)
    >>> plt.close("all")
    """
    n_positions = check_integer(n_positions, "n_positions", min_value=1)
    table = sinusoidal_positions(range(n_positions), d_model)  # (n_positions, d)
    ax = _axes(ax)
    image = ax.imshow(
        table,
        cmap=PE_CMAP,
        vmin=-1,
        vmax=1,
        aspect="auto",
        interpolation="nearest",
        extent=(-0.5, d_model - 0.5, n_positions - 0.5, -0.5),
    )
    ax.figure.colorbar(image, ax=ax, label="PE[pos, k]")
    ax.set(xlabel="column k", ylabel="position pos", title=f"PE, d_model = {d_model}")
    if mark_pos is not None:
        ax.axhline(mark_pos, color="black", linewidth=1.5)
    return ax


def plot_waves(columns, d_model, n_positions=40, *, ax=None):
    """Column ``k`` of ``PE`` against position: dots on the wave they sample.

    The encoding exists only at integer positions (the dots); the faint line is
    the continuous sine or cosine through them.

    Parameters
    ----------
    columns : sequence of int
        Columns ``k`` to draw, each in ``[0, d_model)``.
    d_model : int
        Width of the encoding, even, >= 2.
    n_positions : int, default 40
        Positions ``0 .. n_positions - 1`` on the x axis.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        For column ``columns[i]``, ``ax.lines[2 * i]`` is the continuous wave and
        ``ax.lines[2 * i + 1]`` the dots, whose y data is ``PE[:, columns[i]]``.

    Examples
    --------
    >>> ax = plot_waves([0, 3], d_model=8, n_positions=5)
    >>> [line.get_label() for line in ax.lines[1::2]]
    ['k = 0 (sin, pair 0)', 'k = 3 (cos, pair 1)']
    >>> plt.close("all")
    """
    table = sinusoidal_positions(range(n_positions), d_model)  # (n_positions, d)
    omega = frequencies(d_model)  # (d_model // 2,)
    fine = np.linspace(0, n_positions - 1, 20 * n_positions)  # continuous positions
    ax = _axes(ax, figsize=(7, 3))
    for number, k in enumerate(columns):
        k = check_index(k, "column k", d_model, what="d_model")
        wave = np.cos if k % 2 else np.sin
        label = f"k = {k} ({wave.__name__}, pair {k // 2})"
        colour = f"C{number % 10}"
        ax.plot(fine, wave(fine * omega[k // 2]), color=colour, alpha=0.5, lw=1)
        ax.plot(np.arange(n_positions), table[:, k], "o", color=colour, ms=3.5,
                label=label)  # fmt: skip
    ax.set(xlabel="position pos", ylabel="PE[pos, k]", ylim=(-1.15, 1.15))
    ax.set_title(f"Columns of PE against position (d_model = {d_model})")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return ax


def plot_wavelengths(d_model, *, ax=None):
    """Wavelength of every pair on a log scale, between ``2*pi`` and ``10000*2*pi``.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[0]`` holds ``(pair, wavelengths(d_model))``; the y axis is log.

    Examples
    --------
    >>> ax = plot_wavelengths(8)
    >>> ax.get_yscale()
    'log'
    >>> plt.close("all")
    """
    d_model = check_d_model(d_model)
    pairs = np.arange(d_model // 2)  # (d_model // 2,)
    ax = _axes(ax)
    ax.plot(pairs, wavelengths(d_model), marker="o", label="wavelength of the pair")
    for value, text in [(2 * np.pi, "2π"), (10000 * 2 * np.pi, "10000·2π")]:
        ax.axhline(value, color="grey", linestyle="--", linewidth=1)
        ax.annotate(
            text,
            (pairs[-1], value),
            xytext=(4, 3),
            color="grey",
            textcoords="offset points",
            ha="right",
            va="bottom",
        )
    ax.set_yscale("log")
    ax.set_ylim(1, 10000 * 2 * np.pi * 4)
    ax.set(xlabel="pair = k // 2", ylabel="wavelength (positions)")
    ax.set_title(f"Wavelengths grow geometrically (d_model = {d_model})")
    return ax


def plot_encoding_bars(vector, *, ax=None, title=None):
    """A vector as bars, sine columns (even k) and cosine columns (odd k) coloured.

    Returns
    -------
    matplotlib.axes.Axes
        ``[bar.get_height() for bar in ax.patches]`` equals ``vector``.

    Examples
    --------
    >>> ax = plot_encoding_bars([0.0, 1.0, 0.0, 1.0])
    >>> [float(bar.get_height()) for bar in ax.patches]
    [0.0, 1.0, 0.0, 1.0]
    >>> plt.close("all")
    """
    vector = np.asarray(vector, dtype=float)  # (d_model,)
    ax = _axes(ax)
    k = np.arange(len(vector))
    colours = [_COS_COLOUR if i % 2 else _SIN_COLOUR for i in k]
    ax.bar(k, vector, color=colours, width=0.8)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set(ylabel="value", ylim=(-1.1, 1.1), title=title)
    ax.set_xlabel("column k   (blue: sin, even k;  orange: cos, odd k)")
    return ax


def _label_shifts(points, tolerance=0.06):
    """For each point, how many earlier points lie within ``tolerance`` of the span.

    Labels of nearly coinciding points are moved down by that many lines.
    """
    span = np.ptp(points, axis=0).max() or 1.0
    distance = np.linalg.norm(points[:, None] - points[None], axis=-1)  # (n, n)
    close = np.tril(distance < tolerance * span, k=-1)  # earlier points only
    return close.sum(axis=1)


def plot_word_vectors(points, words, *, ax=None, title=None, groups=None):
    """Words as labelled points in the plane.

    Parameters
    ----------
    points : array_like of shape (n_words, 2)
        2-D coordinates, e.g. from ``posenc_lib.word_vectors.project_2d``.
    words : sequence of str, length n_words
    groups : sequence of hashable, length n_words, optional
        Words of one group share a colour.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.collections[0].get_offsets()`` equals ``points``.

    Examples
    --------
    >>> ax = plot_word_vectors([[0, 0], [1, 1]], ["cat", "dog"])
    >>> [text.get_text() for text in ax.texts]
    ['cat', 'dog']
    >>> plt.close("all")
    """
    points = np.asarray(points, dtype=float)  # (n_words, 2)
    ax = _axes(ax, figsize=(4, 4))
    if groups is None:
        groups = [""] * len(words)
    names = list(dict.fromkeys(groups))
    colours = [f"C{names.index(group) % 10}" for group in groups]
    ax.scatter(points[:, 0], points[:, 1], c=colours, s=30)
    for (x, y), word, shift in zip(points, words, _label_shifts(points), strict=True):
        ax.annotate(
            word, (x, y), xytext=(5, 3 - 11 * shift), textcoords="offset points"
        )
    ax.set(xlabel="direction 1", ylabel="direction 2", title=title)
    ax.margins(0.2)
    return ax


def blit_png(figure, background, artists):
    """Restore ``background``, draw only ``artists`` on it, return the PNG bytes.

    Blitting, as in matplotlib's "Faster rendering by using blitting" guide: the
    static parts were drawn once (``figure.canvas.draw()`` with the moving
    artists ``animated=True``) and kept with ``copy_from_bbox``.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        A figure on a ``FigureCanvasAgg``.
    background : object
        ``figure.canvas.copy_from_bbox(figure.bbox)``, taken after a full draw.
    artists : iterable of matplotlib.artist.Artist
        The moving artists, drawn in this order.

    Returns
    -------
    bytes
        An RGB PNG (fast compression, no metadata); equal pictures give equal bytes.

    Examples
    --------
    >>> from matplotlib.backends.backend_agg import FigureCanvasAgg
    >>> from matplotlib.figure import Figure
    >>> figure = Figure(figsize=(1, 1), dpi=50)
    >>> canvas = FigureCanvasAgg(figure)
    >>> (line,) = figure.add_subplot().plot([0, 1], animated=True)
    >>> canvas.draw()  # everything except the animated line
    >>> background = canvas.copy_from_bbox(figure.bbox)
    >>> blit_png(figure, background, [line])[:4]
    b'\\x89PNG'
    """
    canvas = figure.canvas
    canvas.restore_region(background)
    for artist in artists:
        figure.draw_artist(artist)
    rgba = PIL.Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba())
    buffer = io.BytesIO()
    rgba.convert("RGB").save(buffer, format="png", compress_level=1)
    return buffer.getvalue()
