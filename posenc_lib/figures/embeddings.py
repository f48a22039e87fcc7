"""Figures of chapter 01: word vectors as labelled points in the plane.

This module imports matplotlib; ``import posenc_lib`` never imports it.
"""

import numpy as np

from ..validation import (
    check_sequence,
    check_table,
    describe,
)
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


def _check_points(points):
    """``points`` as a finite float64 array of shape (n_words, 2)."""
    what = "(n_words, 2), one point per word"
    points = check_table(points, "points", what=what, shape=(None, 2))  # (n_words, 2)
    return points.astype(np.float64)


def _check_per_word(values, name, n_words, *, one):
    """``values`` as a list of ``n_words`` items (not a string): one per word."""
    what = f"a sequence of {one}, one per point"
    per = ": one per point"
    return list(check_sequence(values, name, what=what, length=n_words, per=per))


def _check_labels(words, groups, n_words):
    """``words`` (str) and ``groups`` (hashable; None: one group), one per point."""
    words = _check_per_word(words, "words", n_words, one="str")
    for index, word in enumerate(words):
        if not isinstance(word, str):
            raise TypeError(f"words[{index}] == {describe(word)}, must be a str.")
    if groups is None:
        return words, [""] * n_words
    groups = _check_per_word(groups, "groups", n_words, one="group names")
    for index, group in enumerate(groups):
        try:
            hash(group)
        except TypeError:
            raise TypeError(
                f"groups[{index}] == {describe(group)}, must be hashable, e.g. a str."
            ) from None
    return words, groups


def plot_word_vectors(points, words, *, ax=None, title=None, groups=None):
    """Words as labelled points in the plane.

    Parameters
    ----------
    points : array_like of shape (n_words, 2)
        2-D coordinates (finite), e.g. from ``posenc_lib.word_vectors.project_2d``.
    words : sequence of str, length n_words
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure by default.
    title : str, optional
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
    points = _check_points(points)  # (n_words, 2)
    words, groups = _check_labels(words, groups, len(points))
    ax = new_axes(ax, figsize=(4, 4))
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
