r"""Token embeddings: a table with one row per token; looking up row ``t`` is
``one_hot(t) @ table`` without the multiplications, and the model's input at
position ``pos`` adds ``PE[pos]`` to it (chapter 06: why added, not concatenated).
"""

import numpy as np

from .positional import sinusoidal_positions
from .validation import (
    check_array_size,
    check_d_model,
    check_integer,
    check_positive,
    check_table,
    check_token_ids,
)

__all__ = ["encode", "init_embedding", "lookup", "one_hot", "row_cosines"]


def lookup(table, token_ids):
    """The rows of ``token_ids`` (in ``[0, vocab_size)``: a negative id never wraps
    around) of ``table``, ``(vocab_size, d)``: ``(d,)`` for one id, ``(n, d)`` for
    a sequence, a new array (writing into it leaves ``table`` unchanged).

    Examples
    --------
    >>> table = np.array([[0.5, -0.5, 1.0, 0.0], [1.0, 2.0, 3.0, 4.0]])
    >>> lookup(table, 1)
    array([1., 2., 3., 4.])
    """
    table = check_table(table)  # (vocab_size, d)
    token_ids = check_token_ids(token_ids, vocab_size=table.shape[0])
    rows = np.shape(token_ids) + table.shape[1:]  # (d,) or (n, d)
    check_array_size(rows, "token_ids and table", itemsize=table.itemsize)
    return np.take(table, token_ids, axis=0)  # (d,) or (n, d), always a copy


def one_hot(token_ids, vocab_size):
    """One-hot rows, ``(n, vocab_size)``: a 1 in column ``token_ids[r]`` of row ``r``,
    so that ``one_hot(ids, V) @ table == lookup(table, ids)``.

    Examples
    --------
    >>> one_hot([2, 0], 4)
    array([[0., 0., 1., 0.],
           [1., 0., 0., 0.]])
    """
    vocab_size = check_integer(vocab_size, "vocab_size", min_value=1)
    ids = np.atleast_1d(check_token_ids(token_ids, vocab_size))  # (n,)
    check_array_size((len(ids), vocab_size), "token_ids and vocab_size")
    rows = np.zeros((len(ids), vocab_size))  # (n, vocab_size)
    rows[np.arange(len(ids)), ids] = 1.0
    return rows


def encode(table, token_ids):
    """The model's input: each token's row plus the encoding of its position.

    ``lookup(table, token_ids) + sinusoidal_positions(range(n), d)``, ``(n, d)``:
    token ``token_ids[k]`` sits at position ``k``.

    Examples
    --------
    >>> table = np.array([[0.5, -0.5, 1.0, 0.0], [1.0, 2.0, 3.0, 4.0]])
    >>> encode(table, [1, 1, 1, 0])[3].round(4)  # the lesson's [0.5, -0.5, 1, 0] at 3
    array([ 0.6411, -1.49  ,  1.03  ,  0.9996])
    """
    table = check_table(table)  # (vocab_size, d)
    check_d_model(table.shape[1], name="table.shape[1] (the embedding width d)")
    ids = np.atleast_1d(check_token_ids(token_ids, vocab_size=len(table)))  # (n,)
    check_array_size((len(ids), table.shape[1]), "token_ids and table")
    rows = np.take(table, ids, axis=0).astype(np.float64)  # (n, d)
    rows += sinusoidal_positions(range(len(rows)), table.shape[1])  # (n, d)
    return rows


def init_embedding(vocab_size, d_model, *, seed=0, scale=None):
    """A random embedding table, ``(vocab_size, d_model)``, entries ``N(0,
    scale**2)``: by default ``1 / sqrt(d_model)``, rows of squared length about 1.

    Examples
    --------
    >>> table = init_embedding(1000, 512)
    >>> table.shape, float(np.linalg.norm(table, axis=1).mean().round(2))
    ((1000, 512), 1.0)
    """
    vocab_size = check_integer(vocab_size, "vocab_size", min_value=1)
    d_model = check_d_model(d_model)
    scale = 1 / np.sqrt(d_model) if scale is None else check_positive(scale, "scale")
    check_array_size((vocab_size, d_model), "vocab_size and d_model")
    rng = np.random.default_rng(check_integer(seed, "seed", min_value=0))
    return rng.normal(0.0, scale, size=(vocab_size, d_model))


def row_cosines(a, b):
    """``a[r] . b[r] / (|a[r]| |b[r]|)`` for each row ``r``, ``(n,)``, of ``a`` and
    ``b`` of one shape ``(n, d)``, no row all zeros.

    Examples
    --------
    >>> row_cosines([[1.0, 0.0], [1.0, 1.0]], [[0.0, 3.0], [2.0, 2.0]])
    array([0., 1.])
    """
    a = check_table(a, "a", what="(n, d), one vector per row", nonzero=True)
    check_array_size(a.shape, "a", what="a float64 copy")
    b = check_table(
        b, "b", what=f"{a.shape}, the shape of a", shape=a.shape, nonzero=True
    )
    a = a / np.abs(a).max(axis=1, keepdims=True)  # (n, d): no overflow in the lengths
    b = b / np.abs(b).max(axis=1, keepdims=True)  # (n, d)
    dots = np.einsum("rd,rd->r", a, b)  # (n,)
    cos = dots / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))  # (n,)
    return np.clip(cos, -1.0, 1.0)
