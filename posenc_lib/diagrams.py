"""Figures for chapters 03 (why sines), 04 (common mistakes) and 06 (beyond).

Each function computes its numbers with the library, draws them, and returns
the :class:`~matplotlib.figure.Figure`, so tests can check the numbers behind a
picture instead of its pixels (``fig.axes[0].images[0].get_array()``,
``fig.axes[0].lines[0].get_xydata()``). Call
:func:`posenc_lib.plotting.setup_notebook` first for the course's defaults.

A (sin, cos) pair is drawn as the point ``(x, y) = (sin a, cos a)``: position 0
sits at 12 o'clock and growing positions turn it clockwise, like a clock hand.

This module imports matplotlib; ``import posenc_lib`` never imports it.
"""

import matplotlib.pyplot as plt
import numpy as np

from ._validation import check_d_model, check_index, check_integer, check_positions
from .attention import position_scores
from .plotting import PE_CMAP
from .positional import frequencies, sinusoidal_positions
from .properties import encoding_table, offset_similarity, similarity_matrix

__all__ = [
    "PAIR_CIRCLE_SIZE",
    "clock_faces",
    "compare_tables",
    "draw_pair_stage",
    "pair_circle",
    "score_heatmaps",
    "show_pair_shift",
    "similarity_figure",
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
    turn = np.linspace(0, 2 * np.pi, 200)
    ax.plot(np.sin(turn), np.cos(turn), color="lightgrey", linewidth=1, zorder=0)
    ax.set(aspect="equal", xlim=(-1.3, 1.3), ylim=(-1.3, 1.3), xticks=[], yticks=[])
    for side in ax.spines.values():
        side.set_visible(False)


def _check_pair(pair, d_model):
    return check_index(pair, "pair", d_model // 2, what="d_model // 2")


def pair_circle(offset, *, d_model=16, pair=1, n_positions=16, starts=(0, 5)):
    """One pair of ``PE[pos]`` moving round the unit circle, and a shift by ``offset``.

    Dots mark positions ``0 .. n_positions - 1``; an arrow joins each position in
    ``starts`` to ``start + offset``. Every arrow turns by the same angle
    ``offset * w_pair``: the rotation of chapter 03. The slider version is
    :class:`posenc_lib.widgets.PairCircleExplorer`, drawn by the same helpers.

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
    return fig


#: Size in inches of the :func:`pair_circle` figure.
PAIR_CIRCLE_SIZE = (3.6, 3.6)


def draw_pair_stage(ax, d_model, pair, n_positions, n_arrows, *, animated=False):
    """The parts of :func:`pair_circle` that ``offset`` does not move, and its arrows.

    Draws the circle, the numbered dots and the axis labels; adds ``n_arrows`` red
    arrows and an empty title for :func:`show_pair_shift` to place.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    d_model, pair, n_positions : int
        As in :func:`pair_circle`, already checked.
    n_arrows : int
    animated : bool, default False
        Make arrows and title animated, i.e. left out of ``canvas.draw()``
        (for blitting).

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
    ax.set_title("", fontsize=9).set_animated(animated)
    style = {"arrowstyle": "->", "color": "tab:red", "lw": 1.5}
    return [
        ax.annotate("", xy=(0, 0), xytext=(0, 0), arrowprops=style, animated=animated)
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
    starts : numpy.ndarray of int, shape (n_starts,)

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
    columns = slice(2 * pair, 2 * pair + 2)
    begin = sinusoidal_positions(starts, d_model)[:, columns]  # (n_starts, 2)
    end = sinusoidal_positions(starts + offset, d_model)[:, columns]  # (n_starts, 2)
    for arrow, xy_start, xy_end in zip(arrows, begin, end, strict=True):
        arrow.xyann, arrow.xy = tuple(xy_start), tuple(xy_end)
    frequency = frequencies(d_model)[pair]
    ax.title.set_text(
        f"pair {pair} of d_model = {d_model}: +{offset} positions\n"
        f"turns by {offset} × {frequency:.3f} = {offset * frequency:.3f} rad"
    )
    return np.stack([begin, end], axis=1)  # (n_starts, 2, 2)


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
        face ``f``: ``PE[positions[h], 2 * pairs[f] : 2 * pairs[f] + 2]``.

    Examples
    --------
    >>> fig = clock_faces([0, 44], 16, [0, 1])
    >>> len(fig.axes), len(fig.axes[0].lines)
    (2, 3)
    >>> plt.close(fig)
    """
    positions = check_positions(positions)  # (n,)
    d_model = check_d_model(d_model)
    pairs = [_check_pair(pair, d_model) for pair in pairs]
    table = sinusoidal_positions(positions, d_model)  # (n, d_model)
    fig, axes = plt.subplots(
        1, len(pairs), figsize=(2.0 * len(pairs), 2.3), squeeze=False
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
        ax.set_title(f"pair {pair}\nwavelength {wavelength:,.4g}", fontsize=9)
    axes[0, -1].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig


def similarity_figure(n_positions, d_model, max_offset):
    """The similarity matrix as a heatmap, and similarity against offset.

    Parameters
    ----------
    n_positions : int
        The heatmap covers positions ``0 .. n_positions - 1``.
    d_model : int
    max_offset : int
        The curve covers offsets ``0 .. max_offset``.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[0].images[0].get_array()`` is ``similarity_matrix``;
        ``fig.axes[1].lines[0].get_xydata()`` holds ``(k, PE[p] . PE[p + k])``.

    Examples
    --------
    >>> fig = similarity_figure(20, 16, 50)
    >>> fig.axes[0].images[0].get_array().shape
    (20, 20)
    >>> plt.close(fig)
    """
    n_positions = check_integer(n_positions, "n_positions", min_value=1)
    d_model = check_d_model(d_model)
    offsets = np.arange(check_integer(max_offset, "max_offset", min_value=1) + 1)
    matrix = similarity_matrix(range(n_positions), d_model)  # (n, n)
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(9.0, 3.4), gridspec_kw={"width_ratios": [1, 1.4]}
    )
    image = left.imshow(
        matrix,
        cmap=PE_CMAP,
        vmin=-d_model / 2,
        vmax=d_model / 2,
        interpolation="nearest",
    )
    fig.colorbar(image, ax=left, label="PE[i] · PE[j]")
    left.set(xlabel="position j", ylabel="position i", title="PE[i] · PE[j]")
    right.plot(offsets, offset_similarity(offsets, d_model), color="tab:blue")
    right.axhline(d_model / 2, color="grey", linestyle="--", linewidth=1)
    right.axhline(0, color="black", linewidth=0.6)
    right.set(
        xlabel="offset k = |i - j|",
        ylabel="PE[p] · PE[p + k]",
        title=f"Similarity against offset (d_model = {d_model})",
    )
    right.annotate(
        "d_model / 2",
        (offsets[-1], d_model / 2),
        xytext=(0, -3),
        textcoords="offset points",
        ha="right",
        va="top",
        color="grey",
    )
    fig.tight_layout()
    return fig


def _heatmap(ax, array, title, vmax):
    image = ax.imshow(
        array,
        cmap=PE_CMAP,
        vmin=-vmax,
        vmax=vmax,
        aspect="auto",
        interpolation="nearest",
    )
    ax.set_title(title, fontsize=10)
    return image


def compare_tables(fn, n_positions, d_model, *, name):
    """The right table ``PE`` beside the table a mistaken ``fn`` builds.

    Parameters
    ----------
    fn : callable
        ``fn(pos, d_model)`` with the signature of ``pos_encoding``.
    n_positions : int
    d_model : int
    name : str
        The mistake's name, for the title.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[0].images[0]`` holds the right table, ``fig.axes[1].images[0]``
        the one from ``fn``, both ``(n_positions, d_model)``.

    Examples
    --------
    >>> from posenc_lib import pos_encoding
    >>> fig = compare_tables(pos_encoding, 10, 8, name="the library")
    >>> fig.axes[1].images[0].get_array().shape
    (10, 8)
    >>> plt.close(fig)
    """
    right = sinusoidal_positions(range(n_positions), d_model)  # (n_positions, d)
    wrong = encoding_table(fn, n_positions, d_model)  # (n_positions, d)
    fig, axes = plt.subplots(1, 2, figsize=(7.0, 3.0), sharey=True)
    _heatmap(axes[0], right, "right: PE", 1)
    image = _heatmap(axes[1], wrong, f"mistake: {name}", 1)
    for ax in axes:
        ax.set_xlabel("column k")
    axes[0].set_ylabel("position pos")
    fig.colorbar(image, ax=axes, label="PE[pos, k]")
    return fig


def score_heatmaps(x_q, x_k, head, n_positions):
    """Scores of one query token against one key token at every pair of positions.

    Left: ``PE`` added to the input before projecting (the score depends on both
    positions). Right: RoPE rotates the query and key (constant along diagonals:
    the score depends only on the offset).

    Parameters
    ----------
    x_q, x_k : array_like of shape (d_model,)
        Embeddings of the query and key tokens.
    head : posenc_lib.attention.AttentionHead
    n_positions : int

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[0].images[0]`` and ``fig.axes[1].images[0]`` hold
        ``position_scores(..., method="add")`` and ``(..., method="rope")``.

    Examples
    --------
    >>> from posenc_lib.attention import init_head
    >>> x = np.ones(8)
    >>> fig = score_heatmaps(x, x, init_head(8), 12)
    >>> fig.axes[1].images[0].get_array().shape
    (12, 12)
    >>> plt.close(fig)
    """
    added = position_scores(x_q, x_k, head, n_positions, method="add")  # (n, n)
    rotated = position_scores(x_q, x_k, head, n_positions, method="rope")  # (n, n)
    vmax = max(np.abs(added).max(), np.abs(rotated).max())
    fig, axes = plt.subplots(1, 2, figsize=(7.5, 3.2), sharey=True)
    _heatmap(axes[0], added, "add PE to the input", vmax)
    image = _heatmap(axes[1], rotated, "rotate q and k (RoPE)", vmax)
    for ax in axes:
        ax.set_xlabel("key position n")
    axes[0].set_ylabel("query position m")
    fig.colorbar(image, ax=axes, label="score q · k")
    return fig
