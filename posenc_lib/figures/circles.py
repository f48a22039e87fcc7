"""One (sin, cos) pair on the unit circle: the picture behind the rotation property.

A pair is drawn as the point ``(x, y) = (sin a, cos a)``: position 0 sits at
12 o'clock and growing positions turn it clockwise, like a clock hand. Shifting
every position by ``k`` turns the point by the fixed angle ``k * frequency``,
wherever it starts (chapter 03). Each function returns what it drew, so tests can
check the numbers behind a picture instead of its pixels.

This module imports matplotlib; ``import posenc_lib`` never imports it.
"""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.text import Annotation

from ..positional import frequencies, sinusoidal_positions
from ..validation import (
    check_d_model,
    check_index,
    check_instance,
    check_integer,
    check_positions,
    check_sequence,
)
from .describe import describe_figure
from .style import check_axes

__all__ = [
    "PAIR_CIRCLE_SIZE",
    "clock_faces",
    "draw_pair_stage",
    "pair_circle",
    "pair_shift_title",
    "show_pair_shift",
    "unit_circle",
]


def unit_circle(ax):
    """Draw a grey unit circle on ``ax``, equal aspect, no frame: a pair's stage.

    Parameters
    ----------
    ax : matplotlib.axes.Axes

    Returns
    -------
    None

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot()
    >>> unit_circle(ax)
    >>> [float(limit) for limit in ax.get_xlim()]
    [-1.3, 1.3]
    """
    check_axes(ax)
    turn = np.linspace(0, 2 * np.pi, 200)
    ax.plot(np.sin(turn), np.cos(turn), color="lightgrey", linewidth=1, zorder=0)
    ax.set(aspect="equal", xlim=(-1.3, 1.3), ylim=(-1.3, 1.3), xticks=[], yticks=[])
    for side in ax.spines.values():
        side.set_visible(False)


def _check_pair(pair, d_model, name="pair"):
    return check_index(pair, name, d_model // 2, what="d_model // 2")


def pair_circle(offset, *, d_model=16, pair=1, n_positions=16, starts=(0, 5)):
    """One pair of ``PE[pos]`` moving round the unit circle, and a shift by ``offset``.

    Dots mark positions ``0 .. n_positions - 1``; an arrow joins each position in
    ``starts`` to ``start + offset``. Every arrow turns by the same angle
    ``offset * w_pair``: the rotation of chapter 03. The slider version is
    :class:`posenc_lib.figures.sliders.PairCircleExplorer`, drawn by the same helpers.

    Parameters
    ----------
    offset : int
        The shift ``k >= 0``.
    d_model : int, default 16
    pair : int, default 1
        Which pair (columns ``2 * pair`` and ``2 * pair + 1``).
    n_positions : int, default 16
    starts : sequence of int, default (0, 5)
        Where the arrows start.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[0].lines[1].get_xydata()`` holds the dots, row ``p`` is
        ``PE[p, 2 * pair : 2 * pair + 2]``; arrows are the annotations with an
        ``arrow_patch`` (``.xyann`` the start, ``.xy`` the end).

    Examples
    --------
    >>> fig = pair_circle(3)
    >>> fig.axes[0].lines[1].get_xydata().shape
    (16, 2)
    >>> plt.close(fig)
    """
    offset = check_integer(offset, "offset", min_value=0)
    d_model = check_d_model(d_model)
    pair = _check_pair(pair, d_model)
    n_positions = check_integer(n_positions, "n_positions", min_value=1)
    starts = check_positions(starts, name="starts")  # (n_starts,)
    fig, ax = plt.subplots(figsize=PAIR_CIRCLE_SIZE)
    arrows = draw_pair_stage(ax, d_model, pair, n_positions, len(starts))
    show_pair_shift(ax, arrows, offset, d_model=d_model, pair=pair, starts=starts)
    return describe_figure(
        fig,
        f"Pair {pair} of PE (d_model = {d_model}) as points on the unit circle, "
        f"positions 0 to {n_positions - 1}; arrows from positions "
        f"{', '.join(map(str, starts))} turn by the same angle for a shift "
        f"of {offset}.",
    )


#: Size in inches of the :func:`pair_circle` figure.
PAIR_CIRCLE_SIZE = (3.6, 3.6)


def draw_pair_stage(ax, d_model, pair, n_positions, n_arrows):
    """The parts of :func:`pair_circle` that ``offset`` does not move, and its arrows.

    Draws the circle, the numbered dots and the axis labels; adds ``n_arrows`` red
    arrows and an empty title for :func:`show_pair_shift` to place.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    d_model, pair, n_positions : int
        As in :func:`pair_circle`.
    n_arrows : int
        At least 1.

    Returns
    -------
    list of matplotlib.text.Annotation
        The arrows, all at ``(0, 0)`` for now.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot()
    >>> len(draw_pair_stage(ax, 16, 1, n_positions=4, n_arrows=2))
    2
    >>> ax.lines[1].get_xydata().shape  # the dots
    (4, 2)
    """
    check_axes(ax)
    d_model = check_d_model(d_model)
    pair = _check_pair(pair, d_model)
    n_positions = check_integer(n_positions, "n_positions", min_value=1)
    n_arrows = check_integer(n_arrows, "n_arrows", min_value=1)
    dots = sinusoidal_positions(range(n_positions), d_model)[:, 2 * pair : 2 * pair + 2]
    unit_circle(ax)
    ax.plot(dots[:, 0], dots[:, 1], "o", color="tab:blue", markersize=5)  # (n, 2)
    for pos, (x, y) in enumerate(dots):
        ax.annotate(
            str(pos),
            (x, y),
            xytext=(1.16 * x, 1.16 * y),
            fontsize=7,
            ha="center",
            va="center",
            color="tab:blue",
        )
    ax.set(xlabel=f"PE[pos, {2 * pair}] = sin", ylabel=f"PE[pos, {2 * pair + 1}] = cos")
    ax.set_title("", fontsize=9)
    style = {"arrowstyle": "->", "color": "tab:red", "lw": 1.5}
    return [
        ax.annotate("", xy=(0, 0), xytext=(0, 0), arrowprops=style)
        for _ in range(n_arrows)
    ]


def show_pair_shift(ax, arrows, offset, *, d_model, pair, starts):
    """Point ``arrows`` from ``PE[start]`` to ``PE[start + offset]``; set the title.

    Only these artists change with ``offset``; a slider redraws just them.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    arrows : list of matplotlib.text.Annotation
        From :func:`draw_pair_stage`, one per start.
    offset, d_model, pair : int
        As in :func:`pair_circle`.
    starts : array_like of int, shape (n_starts,)

    Returns
    -------
    numpy.ndarray of shape (n_starts, 2, 2)
        ``[i, 0]`` the start and ``[i, 1]`` the end of arrow ``i``: the pair's two
        columns of ``PE[starts[i]]`` and ``PE[starts[i] + offset]``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot()
    >>> arrows = draw_pair_stage(ax, 4, 0, n_positions=4, n_arrows=1)
    >>> show_pair_shift(ax, arrows, 0, d_model=4, pair=0, starts=np.array([0]))
    array([[[0., 1.],
            [0., 1.]]])
    """
    check_axes(ax)
    offset = check_integer(offset, "offset", min_value=0)
    d_model = check_d_model(d_model)
    pair = _check_pair(pair, d_model)
    starts = check_positions(starts, "starts")  # (n_starts,)
    arrows = _check_arrows(arrows, len(starts))
    columns = slice(2 * pair, 2 * pair + 2)
    begin = sinusoidal_positions(starts, d_model)[:, columns]  # (n_starts, 2)
    end = sinusoidal_positions(starts + offset, d_model)[:, columns]  # (n_starts, 2)
    for arrow, xy_start, xy_end in zip(arrows, begin, end, strict=True):
        arrow.xyann, arrow.xy = tuple(xy_start), tuple(xy_end)
    ax.title.set_text(pair_shift_title(offset, d_model=d_model, pair=pair))
    return np.stack([begin, end], axis=1)  # (n_starts, 2, 2)


def _check_arrows(arrows, n_starts):
    """``arrows`` as a list of ``n_starts`` Annotations (from draw_pair_stage)."""
    what = "a list of arrows from draw_pair_stage, one per start"
    one = "an arrow from draw_pair_stage (a matplotlib Annotation)"
    check_sequence(arrows, "arrows", what=what)
    for index, arrow in enumerate(arrows):
        check_instance(arrow, f"arrows[{index}]", Annotation, what=one)
    return list(
        check_sequence(arrows, "arrows", length=n_starts, per=": one per start")
    )


def pair_shift_title(offset, *, d_model, pair):
    """The title of a pair's circle shifted by ``offset``: how far it turns.

    :func:`show_pair_shift` sets it; the offline web edition's slider shows the
    same text (``posenc_tools.build_site``).

    Examples
    --------
    >>> print(pair_shift_title(3, d_model=16, pair=1))
    pair 1 of d_model = 16: +3 positions
    turns by 3 × 0.316 = 0.949 rad
    """
    offset = check_integer(offset, "offset")
    frequency = frequencies(d_model)[_check_pair(pair, check_d_model(d_model))]
    return (
        f"pair {pair} of d_model = {d_model}: +{offset} positions\n"
        f"turns by {offset} × {frequency:.3f} = {offset * frequency:.3f} rad"
    )


def _readable(length):
    """A length in positions as a title prints it: no exponent, thousands separated.

    One decimal below 100, whole positions from 100 on.

    Parameters
    ----------
    length : float
        A non-negative length, e.g. a wavelength.

    Returns
    -------
    str

    Examples
    --------
    >>> [_readable(x) for x in (6.2832, 198.6918, 19869.1765)]
    ['6.3', '199', '19,869']
    """
    return f"{length:.1f}" if length < 99.95 else f"{length:,.0f}"


def clock_faces(positions, d_model, pairs):
    """Each pair as a clock face, with one hand per position in ``positions``.

    Fast pairs (small ``pair``) turn a lot per position and tell neighbours
    apart; slow pairs barely move between neighbours but separate positions far
    apart, as the minute hand separates times the second hand cannot.

    Parameters
    ----------
    positions : sequence of int
        One hand per position (a handful).
    d_model : int
    pairs : sequence of int
        One face per pair.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[f].lines[1 + h].get_xydata()[1]`` is the tip of hand ``h`` on
        face ``f``: ``PE[positions[h], 2 * pairs[f] : 2 * pairs[f] + 2]``. Each
        title gives the pair and its wavelength in positions, thousands separated,
        never with an exponent (``wavelength 19,869``, not ``1.987e+04``).

    Examples
    --------
    >>> fig = clock_faces([0, 44], 16, [0, 1])
    >>> len(fig.axes), len(fig.axes[0].lines)
    (2, 3)
    >>> fig.axes[1].get_title().splitlines()
    ['pair 1', 'wavelength 19.9']
    >>> plt.close(fig)
    """
    positions = check_positions(positions)  # (n,)
    d_model = check_d_model(d_model)
    pairs = [_check_pair(p, d_model, f"pairs[{i}]") for i, p in enumerate(pairs)]
    table = sinusoidal_positions(positions, d_model)  # (n, d_model)
    fig, axes = plt.subplots(  # faces as large as the heatmaps' panels
        1, len(pairs), figsize=(2.6 * len(pairs) + 1.2, 3.1), squeeze=False
    )
    for ax, pair in zip(axes[0], pairs, strict=True):
        unit_circle(ax)
        for index, pos in enumerate(positions):
            x, y = table[index, 2 * pair : 2 * pair + 2]
            width = 5.0 - 3.5 * index / max(1, len(positions) - 1)  # first widest
            ax.plot(
                [0, x], [0, y], color=f"C{index}", linewidth=width, label=f"pos {pos}"
            )
        wavelength = 2 * np.pi / frequencies(d_model)[pair]
        ax.set_title(f"pair {pair}\nwavelength {_readable(wavelength)}")
    axes[0, -1].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return describe_figure(
        fig,
        f"{len(pairs)} clock faces, one per pair, each with one hand per position "
        f"({', '.join(map(str, positions))}; the first hand widest): fast pairs "
        "turn far between positions, slow pairs barely move.",
    )
