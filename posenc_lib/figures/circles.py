"""One (sin, cos) pair on the unit circle: the picture behind the rotation property.

A pair is the point ``(x, y) = (sin a, cos a)``: position 0 at 12 o'clock, growing
positions turning it clockwise like a clock hand; a shift by ``k`` turns it by
``k * frequency`` wherever it starts (chapter 04).
"""

import matplotlib.pyplot as plt
import numpy as np

from ..positional import frequencies, sinusoidal_positions
from ..validation import check_d_model, check_index, check_integer, check_positions
from .describe import describe_figure
from .style import check_axes

__all__ = ["clock_faces", "pair_circle", "pair_shift_title", "unit_circle"]


def unit_circle(ax):
    """Draw a grey unit circle on ``ax``, equal aspect, no frame: a pair's stage.

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
    """One pair of ``PE[pos]`` round the unit circle, and a shift by ``offset``.

    Dots mark positions ``0 .. n_positions - 1``; an arrow joins each of
    ``starts`` to ``start + offset``, all turning by ``offset * w_pair``. The
    slider version is :class:`~posenc_lib.figures.explorer.PairCircleExplorer`.

    Parameters
    ----------
    offset : int
        The shift ``k >= 0``.
    d_model, pair, n_positions : int, default 16, 1, 16
    starts : sequence of int, default (0, 5)

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[0].lines[1]`` the dots, ``PE[p, 2 * pair : 2 * pair + 2]``;
        arrows are annotations with an ``arrow_patch`` (``.xyann`` to ``.xy``).

    Examples
    --------
    >>> pair_circle(3).axes[0].lines[1].get_xydata().shape
    (16, 2)
    """
    offset = check_integer(offset, "offset", min_value=0)
    d_model = check_d_model(d_model)
    pair = _check_pair(pair, d_model)
    n_positions = check_integer(n_positions, "n_positions", min_value=1)
    starts = check_positions(starts, name="starts")  # (n_starts,)
    columns = slice(2 * pair, 2 * pair + 2)
    table = sinusoidal_positions(range(n_positions), d_model)  # (n_positions, d_model)
    dots = table[:, columns]  # (n_positions, 2)
    fig, ax = plt.subplots(figsize=(3.6, 3.6))
    unit_circle(ax)
    ax.plot(dots[:, 0], dots[:, 1], "o", color="tab:blue", markersize=5)
    for pos, (x, y) in enumerate(dots):
        ax.annotate(str(pos), (x, y), xytext=(1.16 * x, 1.16 * y), fontsize=7,
                    ha="center", va="center", color="tab:blue")  # fmt: skip
    ax.set(xlabel=f"PE[pos, {2 * pair}] = sin", ylabel=f"PE[pos, {2 * pair + 1}] = cos")
    ax.set_title(pair_shift_title(offset, d_model=d_model, pair=pair), fontsize=9)
    begin = sinusoidal_positions(starts, d_model)[:, columns]  # (n_starts, 2)
    end = sinusoidal_positions(starts + offset, d_model)[:, columns]  # (n_starts, 2)
    arrow = {"arrowstyle": "->", "color": "tab:red", "lw": 1.5}
    for xy_start, xy_end in zip(begin, end, strict=True):
        ax.annotate("", xy=tuple(xy_end), xytext=tuple(xy_start), arrowprops=arrow)
    return describe_figure(
        fig,
        f"Pair {pair} of PE (d_model = {d_model}) as points on the unit circle, "
        f"positions 0 to {n_positions - 1}; arrows from positions "
        f"{', '.join(map(str, starts))} turn by the same angle for a shift "
        f"of {offset}.",
    )


def pair_shift_title(offset, *, d_model, pair):
    """The title of a pair's circle shifted by ``offset``: how far it turns.

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


def clock_faces(positions, d_model, pairs):
    """Each pair as a clock face, with one hand per position in ``positions``.

    Fast pairs turn far per position and tell neighbours apart; slow pairs
    separate positions far apart, as a minute hand does.

    Parameters
    ----------
    positions, pairs : sequence of int
        One hand per position (a handful), one face per pair.
    d_model : int

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[f].lines[1 + h].get_xydata()[1]``, the tip of hand ``h`` on
        face ``f``, is ``PE[positions[h], 2 * pairs[f] : 2 * pairs[f] + 2]``.

    Examples
    --------
    >>> clock_faces([0, 44], 16, [0, 1]).axes[1].get_title().splitlines()
    ['pair 1', 'wavelength 19.9']
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
        length = 2 * np.pi / frequencies(d_model)[pair]  # one decimal below 100
        length = f"{length:.1f}" if length < 99.95 else f"{length:,.0f}"
        ax.set_title(f"pair {pair}\nwavelength {length}")
    axes[0, -1].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return describe_figure(
        fig,
        f"{len(pairs)} clock faces, one per pair, each with one hand per position "
        f"({', '.join(map(str, positions))}; the first hand widest): fast pairs "
        "turn far between positions, slow pairs barely move.",
    )
