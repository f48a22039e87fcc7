"""Figures of chapters 04 (why sines, the look-back layer), 05 (common mistakes)
and 06 (beyond), of the arrays the notebook cell computed."""

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
from .style import PEAK_MARKER, apply_style, heatmap

# |difference| below which two tables of values in [-1, 1] agree: each entry is
# within a few float64 ulps (1e-15) of its sine or cosine, on any CPU.
_AGREE = 1e-12

__all__ = [
    "attention_maps",
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
        ``PE[p] · PE[q]``, e.g. ``table @ table.T``.
    offsets : array_like of int, shape (n_offsets,)
    similarities : array_like of shape (n_offsets,)
        ``PE[p] · PE[p + Δ]`` for each offset ``Δ``.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[0].images[0].get_array()`` is ``matrix`` (colours scaled to
        its diagonal, ``d_model / 2``); ``fig.axes[1].lines[0]`` the curve.

    Examples
    --------
    >>> from posenc_lib import sinusoidal_positions
    >>> table = sinusoidal_positions(range(20), 16)  # (20, 16)
    >>> S = table @ table.T  # (20, 20)
    >>> similarity_figure(S, np.arange(20), S[0]).axes[1].lines[0].get_xydata().shape
    (20, 2)
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
    title = f"Similarity against offset (d_model = {2 * half_width:g})"
    right.set(xlabel="offset Δ = |p − q|", ylabel="PE[p] · PE[p + Δ]", title=title)
    place = dict(textcoords="offset points", ha="right", va="top", color="grey")
    right.annotate("d_model / 2", (offsets[-1], half_width), xytext=(0, -3), **place)
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
        (scaled to its own largest value) for ``i = 0, 1, 2``; ``fig.axes[3:]``
        are the colour bars.

    Examples
    --------
    >>> from posenc_lib import sinusoidal_positions
    >>> right = sinusoidal_positions(range(10), 8)  # (10, 8)
    >>> fig = compare_tables(right, right[:, ::-1], name="columns reversed")
    """
    what = "(n_positions, d_model), one row per position"
    right = check_table(right, "right", what=what)
    wrong = check_table(wrong, "wrong", what=what)
    if wrong.shape != right.shape:
        raise ValueError(
            f"wrong has shape {wrong.shape}, must match right's {right.shape}."
        )
    difference = wrong - right  # (n_positions, d_model)
    # agreeing entries differ by a few ulps of a CPU-dependent sign; 0 is on a
    # colour boundary, so draw them as exactly 0
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
    # each colour bar's name above it: at its side it reads as the next panel's
    bars = [(image, axes[:2], "PE[pos, k]"), (spread, axes[2], "difference")]
    for values, where, label in bars:
        fig.colorbar(values, ax=where).ax.set_title(label, fontsize=9)
    return describe_figure(
        fig,
        f"Three heatmaps side by side: the right table, the table of the mistake "
        f"'{name}', and their difference (largest {largest:.2g}; 0 where they agree).",
    )


_SCALES = ("shared", "own")


def _colour_bars(fig, axes, images, panels, *, scale, label, **kwargs):
    """One colour bar for every panel, or (``scale="own"``) each panel on ``±``
    its own largest ``|score|``, with a bar each."""
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
        Scores with ``PE`` added to the input, e.g.
        ``position_scores(..., method="add")``.
    rotated : array_like of shape (n_positions, n_positions)
        Scores with RoPE rotating query and key.
    scale : {"shared", "own"}, default "shared"
        Both panels on ``±`` the largest ``|score|`` with one colour bar, or
        each on ``±`` its own (a small panel still shows its pattern).

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[0].images[0]`` and ``fig.axes[1].images[0]`` hold ``added``
        and ``rotated``.

    Examples
    --------
    >>> fig = score_heatmaps(np.eye(3), 0.1 * np.eye(3) - 0.5, scale="own")
    >>> [float(v) for v in fig.axes[1].images[0].get_clim()]
    [-0.5, 0.5]
    """
    what = "(n_positions, n_positions): query position by key position"
    added = check_table(added, "added", what=what)  # (n, n)
    rotated = check_table(rotated, "rotated", what=what)  # (n, n)
    check_choice(scale, "scale", _SCALES)
    vmax = max(np.abs(added).max(), np.abs(rotated).max()) or 1.0
    fig, axes = plt.subplots(1, 2, figsize=(7.5, 3.2), sharey=True)
    titles, images = ["add PE to the input", "rotate query and key (RoPE)"], []
    for ax, scores, title in zip(axes, (added, rotated), titles, strict=True):
        images.append(heatmap(ax, scores, vmax=vmax, quantity="score"))
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


def _check_panels(panels, entries="title -> scores"):
    """``panels`` as a list of (title, square float matrix), all of one shape."""
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

    A ring marks the highest score of each row ``p >= offset``: on the dashed line
    ``q = p - offset``, every query looks ``offset`` tokens back.

    Parameters
    ----------
    panels : dict of str to array_like of shape (n_positions, n_positions)
        Title -> ``score[p, q]``, query ``p`` by key ``q``; e.g.
        ``table @ rotation_matrix(3, d_model) @ table.T``.
    offset : int
        ``0 <= offset < n_positions``.
    scale : {"shared", "own"}, default "shared"
        As in :func:`score_heatmaps`.

    Returns
    -------
    matplotlib.figure.Figure
        Panel ``f``: ``fig.axes[f].images[0]`` its matrix, ``lines[0]`` the ends
        ``(q, p)`` of the diagonal, ``lines[1]`` the rings
        ``(argmax_q score[p, q], p)``.

    Examples
    --------
    >>> scores = np.eye(6, k=-2)  # row p scores 1 at q = p - 2
    >>> fig = look_back_heatmaps({"two back": scores}, offset=2)
    >>> fig.axes[0].lines[1].get_xydata()[:, 0].tolist()  # every ring on the line
    [0.0, 1.0, 2.0, 3.0]
    """
    checked = _check_panels(panels)
    n_positions = checked[0][1].shape[0]
    offset = check_integer(offset, "offset", min_value=0, max_value=n_positions - 1)
    check_choice(scale, "scale", _SCALES)
    vmax = max(float(np.abs(scores).max()) for _, scores in checked) or 1.0
    fig, axes = plt.subplots(
        1, len(checked), figsize=(2.9 * len(checked) + 1.2, 3.3), squeeze=False,
        layout="constrained",  # the legend below, clear of the axes at any size
    )  # fmt: skip
    images = []
    for ax, (title, scores) in zip(axes[0], checked, strict=True):
        images.append(heatmap(ax, scores, vmax=vmax, quantity="score"))
        ax.set_aspect("equal")
        _mark_look_back(ax, scores, offset, 1.2, "highest score of row p")
        ax.set(title=title, xlabel="key position q")
        ax.locator_params(integer=True)  # whole positions, however few
    axes[0, 0].set_ylabel("query position p")
    bars = dict(scale=scale, label="score[p, q]", shrink=0.8)
    _colour_bars(fig, axes[0], images, [s for _, s in checked], **bars)
    legend = axes[0, 0].get_legend_handles_labels()
    fig.legend(*legend, loc="outside lower center", ncols=2)
    return describe_figure(
        fig,
        f"{len(checked)} heatmap{'s' if len(checked) > 1 else ''} of attention "
        "scores, query position p by key position q; a dashed line marks "
        f"q = p − {offset} and circles mark each row's highest score.",
    )


def _mark_look_back(ax, scores, lag, width, peak):
    """The dashed line ``q = p - lag`` (over the rings) and a ring at each row's
    largest entry, rows ``p >= lag``."""
    n, rows = len(scores), np.arange(lag, len(scores))
    ax.plot([0, n - 1 - lag], [lag, n - 1], "k--", lw=width, label=f"q = p − {lag}",
            zorder=3)  # fmt: skip
    ax.plot(scores[rows].argmax(axis=1), rows, **PEAK_MARKER, label=peak)


def attention_maps(panels, *, lag):
    """Attention weights by query position p and key position q, one panel each.

    Keys after the query (``q > p``, masked) are grey; a dashed line marks
    ``q = p - lag`` and a ring the largest weight of each row ``p >= lag``.

    Parameters
    ----------
    panels : dict of str to array_like of shape (n_positions, n_positions)
        Title -> weights in ``[0, 1]``, row ``p`` the query, column ``q`` the key.
    lag : int
        ``0 <= lag < n_positions``.

    Examples
    --------
    >>> fig = attention_maps({"three back": np.eye(6, k=-3)}, lag=3)
    >>> fig.axes[0].lines[1].get_xydata().tolist()  # (q, p): every row at p - 3
    [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    """
    checked = _check_panels(panels, entries="title -> attention weights")
    n, panels = checked[0][1].shape[0], len(checked)
    lag = check_integer(lag, "lag", min_value=0, max_value=n - 1)
    later = np.triu(np.ones((n, n), bool), 1)  # keys q > p
    kw = dict(layout="constrained", subplot_kw={"facecolor": "0.8"})  # masked: grey
    fig, axes = plt.subplots(1, panels, figsize=(2.6 * panels + 1, 3.3), **kw)
    for ax, (title, weight) in zip(np.atleast_1d(axes), checked, strict=True):
        image = apply_style(ax.imshow(np.where(later, np.nan, weight)), "weight")
        _mark_look_back(ax, weight, lag, 1, "largest weight of row p")
        ax.set(title=title, xlabel="key position q", ylabel="query position p")
        ax.set(xticks=range(0, n, 2), yticks=range(0, n, 2))  # whole positions
    fig.colorbar(image, ax=axes, label="attention weight", shrink=0.8)
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=2)
    return describe_figure(
        fig,
        "Attention weights, one map per panel, query position p down, key position "
        f"q across, keys after p in grey; a dashed line marks q = p − {lag} and "
        "circles mark the largest weight of each row.",
    )
