"""Chapter 07's figure: the layouts of real libraries side by side."""

from collections.abc import Mapping

import matplotlib.pyplot as plt

from ..validation import check_instance, check_permutation, check_tables
from .describe import describe_figure
from .style import heatmap

__all__ = ["column_labels", "conventions_figure"]


def column_labels(perm):
    """What each column of a table holds (``s0`` for pair 0's sine, ...), given
    ``perm`` with ``table[:, perm]`` the lesson's table.

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
    what = "a dict of table name -> column order (or None)"
    check_instance(permutations, "permutations", Mapping, what=what)
    orders = {}
    for name, perm in permutations.items():
        if name not in tables:
            keys = ", ".join(map(repr, tables))
            raise ValueError(
                f"permutations has the key {name!r}, which is not a key of tables "
                f"({keys})."
            )
        size, what = tables[name].shape[1], f"permutations[{name!r}]"
        orders[name] = (
            perm if perm is None else check_permutation(perm, what, size=size)
        )
    return orders


def conventions_figure(tables, permutations):
    """One heatmap per convention, columns labelled with what they hold.

    Parameters
    ----------
    tables : dict of str to array_like of shape (n_positions, d_model)
    permutations : dict of str to array_like or None
        For names of ``tables``, the column order giving the lesson's table (x
        labels ``s0``, ``c0``, ...), or None for no labels.

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
    size = (2.6 * len(tables) + 1, 3.2)
    fig, axes = plt.subplots(1, len(tables), figsize=size, sharey=True, squeeze=False)
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
