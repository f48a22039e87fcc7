"""Figures of chapters 03 (why sines), 04 (common mistakes) and 06 (beyond).

Each function draws the arrays you pass, computed visibly in the notebook cell
(``S = table @ table.T``, then ``similarity_figure(S, ...)``), and returns the
:class:`~matplotlib.figure.Figure`, so tests can check the numbers behind a
picture instead of its pixels (``fig.axes[0].images[0].get_array()``,
``fig.axes[1].lines[0].get_xydata()``).

This module imports matplotlib; ``import posenc_lib`` never imports it.
"""

import matplotlib.pyplot as plt
import numpy as np

from .._validation import check_table
from .style import heatmap

__all__ = ["compare_tables", "score_heatmaps", "similarity_figure"]


def similarity_figure(matrix, offsets, similarities):
    """A similarity matrix as a heatmap, and similarity against offset.

    Parameters
    ----------
    matrix : array_like of shape (n_positions, n_positions)
        ``PE[i] · PE[j]`` for positions ``i, j`` in ``0 .. n_positions - 1``,
        e.g. ``table @ table.T``.
    offsets : array_like of shape (n_offsets,)
        Offsets ``Δ`` for the curve.
    similarities : array_like of shape (n_offsets,)
        ``PE[p] · PE[p + Δ]`` for each offset.

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
    half_width = float(np.max(np.diag(matrix)))  # d_model / 2 for an encoding
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(9.0, 3.4), gridspec_kw={"width_ratios": [1, 1.4]}
    )
    image = heatmap(left, matrix, vmax=half_width)
    left.set_aspect("equal")
    fig.colorbar(image, ax=left, label="PE[i] · PE[j]")
    left.set(xlabel="position j", ylabel="position i", title="PE[i] · PE[j]")
    right.plot(offsets, similarities, color="tab:blue")
    right.axhline(half_width, color="grey", linestyle="--", linewidth=1)
    right.axhline(0, color="black", linewidth=0.6)
    right.set(
        xlabel="offset Δ = |i − j|",
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
    return fig


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

    Examples
    --------
    >>> from posenc_lib import sinusoidal_positions
    >>> right = sinusoidal_positions(range(10), 8)  # (10, 8)
    >>> fig = compare_tables(right, right[:, ::-1], name="columns reversed")
    >>> fig.axes[2].images[0].get_array().shape
    (10, 8)
    """
    what = "(n_positions, d_model), one row per position"
    right = check_table(right, "right", what=what)  # (n_positions, d_model)
    wrong = check_table(wrong, "wrong", what=what)  # (n_positions, d_model)
    if wrong.shape != right.shape:
        raise ValueError(
            f"wrong has shape {wrong.shape}, must match right's {right.shape}."
        )
    difference = wrong - right  # (n_positions, d_model)
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
    fig.colorbar(image, ax=axes[:2], label="PE[pos, k]")
    fig.colorbar(spread, ax=axes[2], label="difference")
    return fig


def score_heatmaps(added, rotated):
    """Attention scores at every pair of positions, two ways of giving position.

    Parameters
    ----------
    added : array_like of shape (n_positions, n_positions)
        Scores with ``PE`` added to the input before projecting (depend on both
        positions), e.g. ``position_scores(..., method="add")``.
    rotated : array_like of shape (n_positions, n_positions)
        Scores with RoPE rotating query and key (constant along diagonals).

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[0].images[0]`` and ``fig.axes[1].images[0]`` hold ``added``
        and ``rotated``, on one colour scale.

    Examples
    --------
    >>> fig = score_heatmaps(np.eye(12), np.eye(12))
    >>> fig.axes[1].images[0].get_array().shape
    (12, 12)
    """
    what = "(n_positions, n_positions): query position by key position"
    added = check_table(added, "added", what=what)  # (n, n)
    rotated = check_table(rotated, "rotated", what=what)  # (n, n)
    vmax = max(np.abs(added).max(), np.abs(rotated).max()) or 1.0
    fig, axes = plt.subplots(1, 2, figsize=(7.5, 3.2), sharey=True)
    heatmap(axes[0], added, vmax=vmax)
    image = heatmap(axes[1], rotated, vmax=vmax)
    for ax, title in zip(
        axes, ["add PE to the input", "rotate q and k (RoPE)"], strict=True
    ):
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("key position n")
    axes[0].set_ylabel("query position m")
    fig.colorbar(image, ax=axes, label="score q · k")
    return fig
