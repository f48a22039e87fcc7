"""Chapter 04's figures of the trained look-back layer (:mod:`posenc_lib.lookback`):
the arrays you pass, drawn; attention weights in their style (:data:`.style.STYLES`).
"""

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np

from ..validation import check_array, check_instance, check_integer, check_positive
from .describe import describe_figure
from .properties import check_score_panels
from .style import PEAK_MARKER, apply_style

__all__ = ["attention_maps", "loss_curves"]


def attention_maps(panels, *, lag):
    """Attention weights by query position p and key position q, one panel each.

    Keys after the query (``q > p``, masked) are grey; a dashed line marks
    ``q = p - lag`` and a circle the largest weight of each row ``p >= lag``.
    ``fig.axes[f]`` holds panel ``f``: its ``images[0]``, its circles ``lines[1]``.

    Parameters
    ----------
    panels : dict of str to array_like of shape (n_positions, n_positions)
        Title -> weights in ``[0, 1]``, row ``p`` the query, column ``q`` the key.
    lag : int
        Where the dashed line is drawn, ``0 <= lag < n_positions``.

    Examples
    --------
    >>> fig = attention_maps({"three back": np.eye(6, k=-3)}, lag=3)
    >>> fig.axes[0].lines[1].get_xydata().tolist()  # (q, p): every row at p - 3
    [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    >>> plt.close(fig)
    """
    checked = check_score_panels(panels, entries="title -> attention weights")
    n, panels = checked[0][1].shape[0], len(checked)
    lag = check_integer(lag, "lag", min_value=0, max_value=n - 1)
    rows, later = np.arange(lag, n), np.triu(np.ones((n, n), bool), 1)  # keys q > p
    kw = dict(layout="constrained", subplot_kw={"facecolor": "0.8"})  # masked: grey
    fig, axes = plt.subplots(1, panels, figsize=(2.6 * panels + 1, 3.3), **kw)
    for ax, (title, weight) in zip(np.atleast_1d(axes), checked, strict=True):
        image = apply_style(ax.imshow(np.where(later, np.nan, weight)), "weight")
        diagonal = dict(lw=1, label=f"q = p − {lag}", zorder=3)  # over the rings
        ax.plot([0, n - 1 - lag], [lag, n - 1], "k--", **diagonal)
        ax.plot(weight[rows].argmax(axis=1), rows, **PEAK_MARKER,
                label="largest weight of row p")  # fmt: skip
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


def loss_curves(curves, *, references=None):
    """The training loss at each step, one curve per model, on a log scale.

    Parameters
    ----------
    curves : dict of str to array_like of shape (steps,)
        Label -> the loss of each step, as ``posenc_lib.lookback.train`` returns.
    references : dict of str to float, optional
        Label -> a loss (> 0) drawn as a grey horizontal line.

    Examples
    --------
    >>> fig = loss_curves({"a": [2.0, 1.0, 0.5]}, references={"chance": 2.77})
    >>> fig.axes[0].lines[0].get_ydata().tolist()
    [2.0, 1.0, 0.5]
    >>> plt.close(fig)
    """
    for name, value in (("curves", curves), ("references", references or {})):
        check_instance(value, name, Mapping, what=f"a dict of label -> {name[:-1]}")
    fig, ax = plt.subplots(figsize=(5.6, 3.0))
    for label, losses in curves.items():
        name, what = f"curves[{label!r}]", "(steps,), one loss per step"
        ax.plot(
            check_array(losses, name, ndim=1, what=what, positive=True), label=label
        )
    for j, (label, value) in enumerate((references or {}).items()):
        value = check_positive(value, f"references[{label!r}]")
        ax.axhline(value, color="grey", ls=(":", "-.")[j % 2], lw=1, label=label)
    ax.set(yscale="log", xlabel="training step", ylabel="loss (cross-entropy)")
    ax.set(title="Training loss, one fresh batch a step")
    ax.legend()
    return describe_figure(fig, "The training loss against the step, log scale.")
