"""Figures for chapters 03 (why sines), 04 (common mistakes) and 06 (beyond).

Each function computes its numbers with the library, draws them, and returns
the :class:`~matplotlib.figure.Figure`, so tests can check the numbers behind a
picture instead of its pixels (``fig.axes[0].images[0].get_array()``,
``fig.axes[0].lines[0].get_xydata()``). Call
:func:`posenc_lib.plotting.setup_notebook` first for the course's defaults.

The pictures of one pair on the unit circle live in :mod:`posenc_lib.circles` and
are re-exported here, so a chapter imports all its figures from one place.

This module imports matplotlib; ``import posenc_lib`` never imports it.
"""

import matplotlib.pyplot as plt
import numpy as np

from ._validation import check_d_model, check_integer
from .attention import position_scores
from .circles import (
    PAIR_CIRCLE_SIZE,
    clock_faces,
    draw_pair_stage,
    pair_circle,
    show_pair_shift,
    unit_circle,
)
from .plotting import PE_CMAP
from .positional import sinusoidal_positions
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
