"""Chapter 07's figures: the layouts of real libraries side by side, and a permutation.

Both draw what the cell computed: the tables come from
:func:`posenc_lib.encoding_table`, the column orders from
:func:`posenc_lib.conventions.permutation`.
"""

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np

from ..validation import check_permutation, check_tables, describe
from .describe import describe_figure
from .style import heatmap

__all__ = ["column_labels", "conventions_figure", "permutation_figure"]


def column_labels(perm):
    """What each column of a table holds, given ``perm`` with ``table[:, perm]`` = PE.

    Lesson column ``2 i`` is ``sin`` of pair ``i`` and ``2 i + 1`` its ``cos``;
    it sits at column ``perm[k]`` of the table.

    Examples
    --------
    >>> column_labels([0, 2, 1, 3])
    ['s0', 's1', 'c0', 'c1']
    """
    perm = check_permutation(perm)  # (d_model,)
    labels = [""] * len(perm)
    for k, column in enumerate(perm.tolist()):
        labels[column] = f"{'sc'[k % 2]}{k // 2}"
    return labels


def _check_orders(permutations, tables):
    """``permutations`` as a dict of table name -> checked column order or None."""
    if not isinstance(permutations, Mapping):
        raise TypeError(
            f"permutations == {describe(permutations)}, must be a dict of table "
            "name -> column order (or None)."
        )
    orders = {}
    for name, perm in permutations.items():
        if name not in tables:
            raise ValueError(
                f"permutations has the key {name!r}, which is not a key of tables "
                f"({', '.join(map(repr, tables))})."
            )
        d_model = tables[name].shape[1]
        orders[name] = (
            None
            if perm is None
            else check_permutation(perm, f"permutations[{name!r}]", size=d_model)
        )
    return orders


def conventions_figure(tables, permutations):
    """One heatmap per convention, columns labelled with what they hold.

    Parameters
    ----------
    tables : dict of str to array_like of shape (n_positions, d_model)
        Finite tables, the same positions in each convention, e.g.
        ``{c: encoding_table(c, range(24), 8) for c in CONVENTIONS}``.
    permutations : dict of str to array_like or None
        For names of ``tables``, the column order that gives the lesson's table
        (a permutation of ``range(d_model)``; labels ``s0``, ``c0``, ... on the x
        axis), or None for no labels.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[i].images[0].get_array()`` is the ``i``-th table.

    Examples
    --------
    >>> from posenc_lib import encoding_table
    >>> tables = {"interleaved": encoding_table("interleaved", range(5), 4)}
    >>> fig = conventions_figure(tables, {"interleaved": [0, 1, 2, 3]})
    >>> [t.get_text() for t in fig.axes[0].get_xticklabels()]
    ['s0', 'c0', 's1', 'c1']
    """
    what = "(n_positions, d_model), one row per position"
    tables = check_tables(tables, "tables", what=what)
    orders = _check_orders(permutations, tables)
    fig, axes = plt.subplots(
        1, len(tables), figsize=(2.6 * len(tables) + 1, 3.2), sharey=True, squeeze=False
    )
    for ax, (name, table) in zip(axes[0], tables.items(), strict=True):
        image = heatmap(ax, table)
        ax.set_title(name)
        ax.set_xticks(range(image.get_array().shape[1]))
        if orders.get(name) is not None:
            ax.set_xticklabels(column_labels(orders[name]), fontsize=8)
        ax.set_xlabel("column")
    axes[0, 0].set_ylabel("position")
    fig.colorbar(image, ax=axes[0].tolist(), label="value")
    return describe_figure(
        fig,
        f"{len(tables)} heatmaps of the same encoding in different column layouts "
        f"({', '.join(tables)}); tick labels s0, c0, ... name each column's sine "
        "or cosine and pair.",
    )


def permutation_figure(perm, *, top="interleaved (the lesson)", bottom="concat"):
    """Arrows from each lesson column to where another layout keeps that number.

    Parameters
    ----------
    perm : array_like of int, shape (d_model,)
        ``table[:, perm]`` is the lesson's table: lesson column ``k`` is column
        ``perm[k]`` of the other layout.
    top, bottom : str
        Names of the two rows of columns.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[0].lines[k].get_xdata()`` is ``[k, perm[k]]``.

    Examples
    --------
    >>> fig = permutation_figure([0, 2, 1, 3])
    >>> [line.get_xdata().tolist() for line in fig.axes[0].lines]
    [[0, 0], [1, 2], [2, 1], [3, 3]]
    """
    perm = check_permutation(perm)  # (d_model,)
    d = len(perm)
    labels = column_labels(np.arange(d))  # the lesson's columns: s0 c0 s1 c1 ...
    fig, ax = plt.subplots(figsize=(0.6 * d + 2, 2.4))
    for k, column in enumerate(perm.tolist()):
        colour = "tab:red" if k % 2 == 0 else "tab:blue"  # sin red, cos blue
        style = "-" if k % 2 == 0 else "--"  # and cos dashed: not colour alone
        ax.plot([k, column], [1, 0], color=colour, lw=1.5, linestyle=style)
        ax.annotate(labels[k], (k, 1), xytext=(0, 6), textcoords="offset points",
                    ha="center", color=colour)  # fmt: skip
        ax.annotate(labels[k], (column, 0), xytext=(0, -14),
                    textcoords="offset points", ha="center", color=colour)  # fmt: skip
    ax.set_yticks([0, 1], [bottom, top])
    ax.set_xticks(range(d))
    ax.set_xlabel("column")
    ax.set_title("where each column of the lesson's table goes")
    ax.set_ylim(-0.35, 1.35)
    ax.spines[["left", "bottom"]].set_visible(False)
    return describe_figure(
        fig,
        f"Lines from each of the {d} columns of the {top} layout (top) to where it "
        f"sits in the {bottom} layout (bottom); sine columns solid red, cosine "
        "columns dashed blue.",
    )
