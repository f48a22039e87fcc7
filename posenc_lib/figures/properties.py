"""Figures of chapters 04 (why sines), 05 (common mistakes) and 06 (beyond).

Each function draws the arrays you pass, computed visibly in the notebook cell
(``S = table @ table.T``, then ``similarity_figure(S, ...)``), and returns the
:class:`~matplotlib.figure.Figure`, so tests can check the numbers behind a
picture instead of its pixels (``fig.axes[0].images[0].get_array()``,
``fig.axes[1].lines[0].get_xydata()``).

This module imports matplotlib; ``import posenc_lib`` never imports it.
"""

import matplotlib.pyplot as plt
import numpy as np

from ..validation import (
    check_array,
    check_choice,
    check_integer,
    check_positions,
    check_table,
    check_tables,
)
from .describe import describe_figure
from .style import PEAK_MARKER, heatmap

# |difference| below which two tables of values in [-1, 1] agree: each entry is
# within a few float64 ulps (1e-15) of its sine or cosine, on any CPU.
_AGREE = 1e-12

__all__ = [
    "check_score_panels",
    "compare_tables",
    "look_back_heatmaps",
    "score_heatmaps",
    "similarity_figure",
]


def similarity_figure(matrix, offsets, similarities):
    """A similarity matrix as a heatmap, and similarity against offset.

    Parameters
    ----------
    matrix : array_like of shape (n_positions, n_positions)
        ``PE[p] · PE[q]`` for positions ``p, q`` in ``0 .. n_positions - 1``,
        e.g. ``table @ table.T``.
    offsets : array_like of int, shape (n_offsets,)
        Offsets ``Δ >= 0`` for the curve.
    similarities : array_like of shape (n_offsets,)
        ``PE[p] · PE[p + Δ]`` for each offset (finite).

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[0].images[0].get_array()`` is ``matrix``;
        ``fig.axes[1].lines[0].get_xydata()`` holds ``(offsets, similarities)``.
        Colours and the dashed line are scaled to the diagonal, ``d_model / 2``.

    Examples
    --------
    >>> from posenc_lib import sinusoidal_positions
    >>> table = sinusoidal_positions(range(20), 16)  # (20, 16)
    >>> S = table @ table.T  # (20, 20)
    >>> fig = similarity_figure(S, np.arange(20), S[0])
    >>> fig.axes[0].images[0].get_array().shape
    (20, 20)
    """
    matrix = check_table(matrix, "matrix", what="(n_positions, n_positions)")
    offsets = check_positions(offsets, "offsets")  # (n_offsets,)
    per_offset = {"shape": offsets.shape, "what": f"({len(offsets)},): one per offset"}
    similarities = check_array(similarities, "similarities", **per_offset)
    half_width = float(np.max(np.diag(matrix)))  # d_model / 2 for an encoding
    if half_width <= 0:
        raise ValueError(
            f"matrix has largest diagonal entry {half_width}, must be > 0: "
            "the colours are scaled to it (d_model / 2 for an encoding)."
        )
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(9.0, 3.4), gridspec_kw={"width_ratios": [1, 1.4]}
    )
    image = heatmap(left, matrix, vmax=half_width, quantity="score")
    left.set_aspect("equal")
    fig.colorbar(image, ax=left, label="PE[p] · PE[q]")
    left.set(xlabel="position q", ylabel="position p", title="PE[p] · PE[q]")
    right.plot(offsets, similarities, color="tab:blue")
    right.axhline(half_width, color="grey", linestyle="--", linewidth=1)
    right.axhline(0, color="black", linewidth=0.6)
    right.set(
        xlabel="offset Δ = |p − q|",
        ylabel="PE[p] · PE[p + Δ]",
        title=f"Similarity against offset (d_model = {2 * half_width:g})",
    )
    right.annotate(
        "d_model / 2",
        (offsets[-1], half_width),
        xytext=(0, -3),
        textcoords="offset points",
        ha="right",
        va="top",
        color="grey",
    )
    fig.tight_layout()
    n = len(matrix)
    return describe_figure(
        fig,
        f"Left: the {n} by {n} matrix of dot products PE[p] · PE[q], largest "
        f"({half_width:g}) on the diagonal and the same along every diagonal. "
        "Right: the dot product against the offset, highest at offset 0 and "
        "falling, with ripples, as the offset grows.",
    )


def compare_tables(right, wrong, *, name):
    """The right table, a mistaken one, and their difference, side by side.

    Parameters
    ----------
    right, wrong : array_like of shape (n_positions, d_model)
        The library's table and the one a mistaken function builds.
    name : str
        The mistake's name, for the title.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[i].images[0]`` holds ``right``, ``wrong`` and ``wrong - right``
        for ``i = 0, 1, 2``. The difference panel is scaled to its own largest
        value, so a small difference still shows (its colour bar says how small).
        ``fig.axes[3]`` and ``fig.axes[4]`` are the colour bars, each named by its
        title (``"PE[pos, k]"``, ``"difference"``).

    Examples
    --------
    >>> from posenc_lib import sinusoidal_positions
    >>> right = sinusoidal_positions(range(10), 8)  # (10, 8)
    >>> fig = compare_tables(right, right[:, ::-1], name="columns reversed")
    >>> fig.axes[2].images[0].get_array().shape
    (10, 8)
    """
    what = "(n_positions, d_model), one row per position"
    # (n_positions, d_model) each
    right = check_table(right, "right", what=what)
    wrong = check_table(wrong, "wrong", what=what)
    if wrong.shape != right.shape:
        raise ValueError(
            f"wrong has shape {wrong.shape}, must match right's {right.shape}."
        )
    difference = wrong - right  # (n_positions, d_model)
    # Entries where the tables agree differ by rounding only (a few ulps, +-1e-16
    # with a sign that depends on the CPU's SIMD kernels); zero sits on a colour
    # boundary, so draw them as exactly 0.
    difference[np.abs(difference) < _AGREE] = 0.0
    largest = float(np.abs(difference).max())
    fig, axes = plt.subplots(
        1, 3, figsize=(10.0, 3.0), sharey=True, layout="constrained"
    )
    image = heatmap(axes[0], right)
    heatmap(axes[1], wrong)
    spread = heatmap(axes[2], difference, vmax=largest or 1.0)
    titles = ["right: PE", f"mistake: {name}", f"wrong − right (max {largest:.2g})"]
    for ax, title in zip(axes, titles, strict=True):
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("column k")
    axes[0].set_ylabel("position pos")
    # Each colour bar's name above it: a label at its side would sit where the
    # next panel's y label goes, and read as the difference panel's.
    for values, where, label in [
        (image, axes[:2], "PE[pos, k]"),
        (spread, axes[2], "difference"),
    ]:
        fig.colorbar(values, ax=where).ax.set_title(label, fontsize=9)
    return describe_figure(
        fig,
        f"Three heatmaps side by side: the right table, the table of the mistake "
        f"'{name}', and their difference (largest {largest:.2g}; 0 where they agree).",
    )


_SCALES = ("shared", "own")


def _colour_bars(fig, axes, images, panels, *, scale, label, **kwargs):
    """One colour bar for every panel, or (``scale="own"``) each on its own scale.

    ``"own"``: panel ``j``'s colours run from ``-m`` to ``+m``, ``m`` its own
    largest ``|score|``: the same colour map, still centred on 0, a bar each.
    """
    if scale == "shared":
        fig.colorbar(images[-1], ax=list(axes), label=label, **kwargs)
        return
    for ax, image, scores in zip(axes, images, panels, strict=True):
        largest = float(np.abs(scores).max()) or 1.0
        image.set_clim(-largest, largest)
        fig.colorbar(image, ax=ax, label=label, **kwargs)


def score_heatmaps(added, rotated, *, scale="shared"):
    """Attention scores at every pair of positions, two ways of giving position.

    Parameters
    ----------
    added : array_like of shape (n_positions, n_positions)
        Scores with ``PE`` added to the input before projecting (depend on both
        positions), e.g. ``position_scores(..., method="add")``.
    rotated : array_like of shape (n_positions, n_positions)
        Scores with RoPE rotating query and key (constant along diagonals).
    scale : {"shared", "own"}, default "shared"
        ``"shared"``: both panels on one colour scale, ``±`` the largest
        ``|score|``, with one colour bar (compare sizes across panels).
        ``"own"``: each panel on ``±`` its own largest ``|score|`` (a colour
        bar each), so a panel of small scores still shows its pattern. Both
        use the scores' colour map, centred on 0 (:data:`.style.STYLES`).

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[0].images[0]`` and ``fig.axes[1].images[0]`` hold ``added``
        and ``rotated``; ``image.get_clim()`` is each panel's colour scale.

    Raises
    ------
    ValueError
        If ``scale`` is neither ``"shared"`` nor ``"own"``.

    Examples
    --------
    >>> fig = score_heatmaps(np.eye(12), np.eye(12))
    >>> fig.axes[1].images[0].get_array().shape
    (12, 12)
    >>> fig = score_heatmaps(np.eye(3), 0.1 * np.eye(3) - 0.5, scale="own")
    >>> [float(v) for v in fig.axes[1].images[0].get_clim()]
    [-0.5, 0.5]
    >>> plt.close("all")
    """
    what = "(n_positions, n_positions): query position by key position"
    added = check_table(added, "added", what=what)  # (n, n)
    rotated = check_table(rotated, "rotated", what=what)  # (n, n)
    check_choice(scale, "scale", _SCALES)
    vmax = max(np.abs(added).max(), np.abs(rotated).max()) or 1.0
    fig, axes = plt.subplots(1, 2, figsize=(7.5, 3.2), sharey=True)
    images = [
        heatmap(ax, s, vmax=vmax, quantity="score")
        for ax, s in zip(axes, (added, rotated), strict=True)
    ]
    for ax, title in zip(
        axes, ["add PE to the input", "rotate query and key (RoPE)"], strict=True
    ):
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("key position q")
    axes[0].set_ylabel("query position p")
    label = "score query · key"
    _colour_bars(fig, axes, images, (added, rotated), scale=scale, label=label)
    return describe_figure(
        fig,
        "Two heatmaps of attention scores, query position by key position: positions"
        " added to the input (left) and query and key rotated by RoPE (right).",
    )


def check_score_panels(panels, entries="title -> scores"):
    """``panels`` as a list of (title, square float matrix), all of one shape.

    The check of every figure of square query-by-key panels (scores here,
    attention weights in :mod:`.lookback`); ``entries`` names them in a message.

    Examples
    --------
    >>> check_score_panels({"right": [[1, 0], [0, 1]]})
    [('right', array([[1., 0.],
           [0., 1.]]))]
    """
    what = "(n_positions, n_positions): query position p by key position q"
    panels = check_tables(panels, "panels", what=what, entries=entries)
    n = len(next(iter(panels.values())))  # the first panel's rows
    same = {"shape": (n, n), "what": f"{(n, n)} (square, and the same for every panel)"}
    return [
        (str(title), check_table(scores, f"panels[{title!r}]", **same).astype(float))
        for title, scores in panels.items()
    ]


def look_back_heatmaps(panels, *, offset, scale="shared"):
    """Attention scores by query and key position, with ``q = p - offset`` marked.

    One heatmap per matrix, all on one colour scale (or each on its own). A dashed
    line runs along the diagonal ``q = p - offset`` (the key ``offset`` tokens
    back) and a dot marks the highest score of each row ``p >= offset``: when the
    dots sit on the line, every query looks ``offset`` tokens back.

    Parameters
    ----------
    panels : dict of str to array_like of shape (n_positions, n_positions)
        Title -> ``score[p, q]`` for query positions ``p`` (rows) and key
        positions ``q`` (columns), ``0 .. n_positions - 1``; e.g.
        ``table @ rotation_matrix(3, d_model) @ table.T``.
    offset : int
        How far back the line is drawn, ``0 <= offset < n_positions``.
    scale : {"shared", "own"}, default "shared"
        ``"shared"``: every panel on ``±`` the largest ``|score|``, one colour
        bar. ``"own"``: each panel on ``±`` its own largest ``|score|``, with
        its own colour bar (as :func:`score_heatmaps`).

    Returns
    -------
    matplotlib.figure.Figure
        For panel ``f``: ``fig.axes[f].images[0].get_array()`` is its matrix;
        ``fig.axes[f].lines[0].get_xydata()`` the ends ``(q, p)`` of the
        diagonal; ``fig.axes[f].lines[1].get_xydata()`` the dots, one
        ``(argmax_q score[p, q], p)`` per row ``p >= offset``.

    Raises
    ------
    TypeError
        If ``panels`` is not a non-empty dict.
    ValueError
        If a matrix is not square, the matrices differ in shape, ``offset``
        is outside ``[0, n_positions - 1]``, or ``scale`` is not one of the two.

    Examples
    --------
    >>> scores = np.eye(6, k=-2)  # row p scores 1 at q = p - 2
    >>> fig = look_back_heatmaps({"two back": scores}, offset=2)
    >>> fig.axes[0].lines[0].get_xydata().tolist()  # from (0, 2) to (3, 5)
    [[0.0, 2.0], [3.0, 5.0]]
    >>> fig.axes[0].lines[1].get_xydata()[:, 0].tolist()  # every dot on the line
    [0.0, 1.0, 2.0, 3.0]
    >>> plt.close(fig)
    """
    checked = check_score_panels(panels)
    n_positions = checked[0][1].shape[0]
    offset = check_integer(offset, "offset", min_value=0, max_value=n_positions - 1)
    check_choice(scale, "scale", _SCALES)
    vmax = max(float(np.abs(scores).max()) for _, scores in checked) or 1.0
    rows = np.arange(offset, n_positions)  # query positions with a key offset back
    fig, axes = plt.subplots(
        1, len(checked), figsize=(2.9 * len(checked) + 1.2, 3.3), squeeze=False,
        layout="constrained",  # the legend below, clear of the axes at any size
    )  # fmt: skip
    images = []
    for ax, (title, scores) in zip(axes[0], checked, strict=True):
        images.append(heatmap(ax, scores, vmax=vmax, quantity="score"))
        ax.set_aspect("equal")
        ax.plot(
            [0, n_positions - 1 - offset], [offset, n_positions - 1],
            color="black", linestyle="--", linewidth=1.2, label=f"q = p − {offset}",
            zorder=3,  # over the rings: the line shows through them
        )  # fmt: skip
        ax.plot(scores[rows].argmax(axis=1), rows, **PEAK_MARKER,
                label="highest score of row p")  # fmt: skip
        ax.set(title=title, xlabel="key position q")
        ax.locator_params(integer=True)  # whole positions, however few
    axes[0, 0].set_ylabel("query position p")
    scores = [scores for _, scores in checked]
    _colour_bars(
        fig, axes[0], images, scores, scale=scale, label="score[p, q]", shrink=0.8
    )
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=2)
    return describe_figure(
        fig,
        f"{len(checked)} heatmap{'s' if len(checked) > 1 else ''} of attention "
        "scores, query position p by key "
        f"position q; a dashed line marks q = p − {offset} and circles mark each "
        "row's highest score.",
    )
