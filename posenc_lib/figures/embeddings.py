"""Figures of chapter 01: word vectors as labelled points in the plane.

This module imports matplotlib; ``import posenc_lib`` never imports it.
"""

import numpy as np

from .style import new_axes

__all__ = ["plot_word_vectors"]


def _label_shifts(points, tolerance=0.06):
    """For each point, how many earlier points lie within ``tolerance`` of the span.

    Labels of nearly coinciding points are moved down by that many lines.
    """
    span = np.ptp(points, axis=0).max() or 1.0
    distance = np.linalg.norm(points[:, None] - points[None], axis=-1)  # (n, n)
    close = np.tril(distance < tolerance * span, k=-1)  # earlier points only
    return close.sum(axis=1)


def plot_word_vectors(points, words, *, ax=None, title=None, groups=None):
    """Words as labelled points in the plane.

    Parameters
    ----------
    points : array_like of shape (n_words, 2)
        2-D coordinates, e.g. from ``posenc_lib.word_vectors.project_2d``.
    words : sequence of str, length n_words
    groups : sequence of hashable, length n_words, optional
        Words of one group share a colour.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.collections[0].get_offsets()`` equals ``points``.

    Examples
    --------
    >>> ax = plot_word_vectors([[0, 0], [1, 1]], ["cat", "dog"])
    >>> [text.get_text() for text in ax.texts]
    ['cat', 'dog']
    """
    points = np.asarray(points, dtype=float)  # (n_words, 2)
    ax = new_axes(ax, figsize=(4, 4))
    if groups is None:
        groups = [""] * len(words)
    names = list(dict.fromkeys(groups))
    colours = [f"C{names.index(group) % 10}" for group in groups]
    ax.scatter(points[:, 0], points[:, 1], c=colours, s=30)
    for (x, y), word, shift in zip(points, words, _label_shifts(points), strict=True):
        ax.annotate(
            word, (x, y), xytext=(5, 3 - 11 * shift), textcoords="offset points"
        )
    ax.set(xlabel="direction 1", ylabel="direction 2", title=title)
    ax.margins(0.2)
    return ax
