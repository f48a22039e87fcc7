"""Figures of the encoding itself (chapter 02): the table, its columns, its wavelengths,
each on ``ax`` (or a new figure)."""

import numpy as np

from ..positional import frequencies
from ..validation import (
    check_array,
    check_array_size,
    check_index,
    check_positive,
    check_sequence,
    check_table,
)
from .describe import describe_figure
from .style import colour_words, heatmap, new_axes

__all__ = ["plot_encoding_heatmap", "plot_wavelengths", "plot_waves"]

_TABLE = "(n_positions, d_model), one row per position"


def plot_encoding_heatmap(table, *, ax=None):
    """Draw a table of encodings as a heatmap, with a colour bar: rows are
    positions, columns are k.

    Parameters
    ----------
    table : array_like of shape (n_positions, d_model)
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.images[0].get_array()`` is ``table``.

    Examples
    --------
    >>> from posenc_lib import sinusoidal_positions
    >>> ax = plot_encoding_heatmap(sinusoidal_positions(range(10), 8))
    >>> [float(y) for y in ax.get_ylim()]  # position 0 at the top
    [9.5, -0.5]
    """
    table = check_table(table, what=_TABLE)  # (n_positions, d_model)
    ax = new_axes(ax)
    image = heatmap(ax, table)
    ax.figure.colorbar(image, ax=ax, label="PE[pos, k]")
    n_positions, d_model = table.shape
    ax.set(xlabel="column k", ylabel="position pos", title=f"PE, d_model = {d_model}")
    low, _, high = colour_words("encoding")
    describe_figure(
        ax.figure,
        f"Heatmap of the encoding table: {n_positions} positions (rows, 0 at the "
        f"top) by {d_model} columns, {low} -1 to {high} +1; the left columns change "
        "fast from row to row, the right ones slowly.",
    )
    return ax


def plot_waves(table, columns, *, base=10000.0, ax=None):
    """Columns of a table of encodings against position: dots on their waves.

    Parameters
    ----------
    table : array_like of shape (n_positions, d_model)
    columns : sequence of int
    base : float, default 10000.0
        The table's base (for the continuous waves).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[2 * i]`` is the wave of ``columns[i]``, ``ax.lines[2 * i + 1]``
        its dots.

    Examples
    --------
    >>> from posenc_lib import sinusoidal_positions
    >>> ax = plot_waves(sinusoidal_positions(range(5), 8), [0, 3])
    >>> [line.get_label() for line in ax.lines[1::2]]
    ['k = 0 (sin, pair 0)', 'k = 3 (cos, pair 1)']
    """
    table = check_table(table, what=_TABLE)  # (n_positions, d_model)
    n_positions, d_model = table.shape
    omega = frequencies(d_model, base)  # (d_model // 2,)
    check_sequence(columns, "columns", what="a sequence of column indices")
    columns = [
        check_index(k, f"columns[{i}]", d_model, what="d_model")
        for i, k in enumerate(columns)
    ]
    n_fine = 20 * n_positions  # points of each continuous wave
    check_array_size((len(columns), n_fine), "table", what="its continuous waves")
    fine = np.linspace(0, n_positions - 1, n_fine)  # continuous positions
    ax = new_axes(ax, figsize=(7, 3))
    for number, k in enumerate(columns):
        wave = np.cos if k % 2 else np.sin
        label = f"k = {k} ({wave.__name__}, pair {k // 2})"
        colour = f"C{number % 10}"
        ax.plot(fine, wave(fine * omega[k // 2]), color=colour, alpha=0.5, lw=1)
        marker = "s" if k % 2 else "o"  # cos squares, sin dots: not colour alone
        dots = {"color": colour, "ms": 3.5, "label": label}
        ax.plot(np.arange(n_positions), table[:, k], marker, **dots)
    ax.set(xlabel="position pos", ylabel="PE[pos, k]", ylim=(-1.15, 1.15))
    ax.set_title(f"Columns of PE against position (d_model = {d_model})")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    describe_figure(
        ax.figure,
        f"Columns {', '.join(map(str, columns))} of the table against position "
        f"0 to {n_positions - 1}: each a sine (dots) or cosine (squares) between "
        "-1 and 1, slower for larger k.",
    )
    return ax


def plot_wavelengths(wavelengths, *, base=10000.0, ax=None):
    """Wavelength of every pair on a log scale, with ``2*pi`` and ``base*2*pi`` marked.

    Parameters
    ----------
    wavelengths : array_like of shape (d_model // 2,)
        E.g. ``posenc_lib.wavelengths(d_model)``.
    base : float, default 10000.0
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[0]`` holds ``(pair, wavelengths)``; the y axis is log.

    Examples
    --------
    >>> from posenc_lib import wavelengths
    >>> plot_wavelengths(wavelengths(8)).lines[0].get_xdata().tolist()
    [0, 1, 2, 3]
    """
    one_per_pair = {"ndim": 1, "what": "(d_model // 2,), one per pair"}
    wavelengths = check_array(wavelengths, "wavelengths", positive=True, **one_per_pair)
    base = check_positive(base, "base")
    pairs = np.arange(len(wavelengths))  # (d_model // 2,)
    ax = new_axes(ax)
    ax.plot(pairs, wavelengths, marker="o", label="wavelength of the pair")
    top = base * 2 * np.pi
    for value, text in [(2 * np.pi, "2π"), (top, f"{base:g}·2π")]:
        ax.axhline(value, color="grey", linestyle="--", linewidth=1)
        place = {"textcoords": "offset points", "ha": "right", "va": "bottom"}
        ax.annotate(text, (pairs[-1], value), xytext=(4, 3), color="grey", **place)
    last = (pairs[-1], wavelengths[-1])  # 2π·base^((d_model-2)/d_model), the longest
    place = {"ha": "center", "va": "top", "arrowprops": {"arrowstyle": "->", "lw": 0.8}}
    ax.annotate(f"last: {last[1]:,.0f}", last, xytext=(last[0], last[1] / 60), **place)
    ax.set_yscale("log")
    ax.set_ylim(1, top * 4)
    ax.set(xlabel="pair i = k // 2", ylabel="wavelength (positions)")
    ax.set_title(f"Wavelengths grow geometrically (d_model = {2 * len(pairs)})")
    return ax
