"""Figures of chapter 01: word vectors as labelled points in the plane."""

import numpy as np

from ..validation import check_array_size, check_sequence, check_table, describe
from .style import new_axes

__all__ = ["plot_word_vectors"]


def _label_shifts(points, tolerance=0.06):
    """For each point, how many earlier points lie within ``tolerance`` of the
    span: its label moves down by that many lines."""
    check_array_size((len(points),) * 2 + (2,), "points", what="label distances")
    span = np.ptp(points, axis=0).max() or 1.0
    distance = np.linalg.norm(points[:, None] - points[None], axis=-1)  # (n, n)
    close = np.tril(distance < tolerance * span, k=-1)  # earlier points only
    return close.sum(axis=1)


def _check_per_word(values, name, n_words, one, is_one, must):
    """``values`` as a list of ``n_words`` items, each passing ``is_one``."""
    what, per = f"a sequence of {one}, one per point", ": one per point"
    values = list(check_sequence(values, name, what=what, length=n_words, per=per))
    for index, value in enumerate(values):
        if not is_one(value):
            raise TypeError(f"{name}[{index}] == {describe(value)}, must be {must}.")
    return values


def _hashable(value):
    try:
        return hash(value) is not None
    except TypeError:
        return False


def plot_word_vectors(points, words, *, ax=None, title=None, groups=None):
    """Words as labelled points in the plane.

    Parameters
    ----------
    points : array_like of shape (n_words, 2)
    words : sequence of str, length n_words
    ax : matplotlib.axes.Axes, optional
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
    what = "(n_words, 2), one point per word"
    points = check_table(points, "points", what=what, shape=(None, 2)).astype(float)
    is_str = lambda word: isinstance(word, str)  # noqa: E731
    words = _check_per_word(words, "words", len(points), "str", is_str, "a str")
    if groups is not None:
        must = "hashable, e.g. a str"
        groups = _check_per_word(
            groups, "groups", len(points), "group names", _hashable, must
        )
    groups = [""] * len(points) if groups is None else groups
    shifts = _label_shifts(points)  # (n_words,)
    ax = new_axes(ax, figsize=(4, 4))
    names = list(dict.fromkeys(groups))
    colours = [f"C{names.index(group) % 10}" for group in groups]
    ax.scatter(points[:, 0], points[:, 1], c=colours, s=30)
    for (x, y), word, shift in zip(points, words, shifts, strict=True):
        offset = (5, 3 - 11 * shift)
        ax.annotate(word, (x, y), xytext=offset, textcoords="offset points")
    ax.set(xlabel="direction 1", ylabel="direction 2", title=title)
    ax.margins(0.2)
    return ax
