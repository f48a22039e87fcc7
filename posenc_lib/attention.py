r"""Chapter 06's tiny self-attention layer, ``softmax(Q K^T / sqrt(d_head)) V`` with
``Q, K, V = x W_q, x W_k, x W_v`` (it only shuffles its output when the rows of
``x`` are shuffled), learned positions and RoPE (J. Su et al., RoFormer,
arXiv:2104.09864): ``rope(q, m) . rope(k, n)`` depends on ``n - m``.
"""

from typing import NamedTuple

import numpy as np

from .embedding import init_embedding
from .positional import exact_sin_cos, sinusoidal_positions
from .validation import (
    check_array,
    check_array_size,
    check_callable,
    check_choice,
    check_d_model,
    check_instance,
    check_integer,
    check_permutation,
    check_position,
    check_positions,
    check_sequence,
    check_table,
)

__all__ = [
    "AttentionHead",
    "LearnedPositions",
    "init_head",
    "permutation_gap",
    "position_scores",
    "rope",
    "rope_score",
    "self_attention",
    "softmax",
]


class AttentionHead(NamedTuple):
    """The three projection matrices of one head, each ``(d_model, d_head)``."""

    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray


def _check_head(head):
    """``head``, an :class:`AttentionHead` of three finite ``(d_model, d_head)``."""
    what = "an AttentionHead(w_q, w_k, w_v), e.g. from init_head"
    check_instance(head, "head", AttentionHead, what=what)
    w_q = check_table(head.w_q, "head.w_q", what="(d_model, d_head)")
    same = {"shape": w_q.shape, "what": f"{w_q.shape}, the shape of head.w_q"}
    w_k = check_table(head.w_k, "head.w_k", **same)
    return AttentionHead(w_q, w_k, check_table(head.w_v, "head.w_v", **same))


def _check_finite_result(result, name):
    """``result``, or a ValueError naming ``name`` if float64 overflowed."""
    if not np.isfinite(result).all():
        raise ValueError(
            f"{name} holds numbers too large for float64: the result overflowed "
            "(scale them down)."
        )
    return result


def init_head(d_model, d_head=None, *, seed=0):
    """Random projections ``w_q``, ``w_k``, ``w_v``, each ``(d_model, d_head)``
    (``d_head`` even, default ``d_model``), entries ``N(0, 1 / d_model)``.

    Examples
    --------
    >>> init_head(8, 4).w_q.shape
    (8, 4)
    """
    d_model = check_d_model(d_model)
    d_head = d_model if d_head is None else check_d_model(d_head, "d_head")
    check_array_size((3, d_model, d_head), "d_model and d_head", what="projections")
    rng = np.random.default_rng(check_integer(seed, "seed", min_value=0))
    w = rng.normal(size=(3, d_model, d_head)) / np.sqrt(d_model)  # (3, d_model, d_head)
    return AttentionHead(*w)


def softmax(scores, axis=-1):
    """Softmax along ``axis``, shifted by the maximum so it never overflows: ``+inf``
    entries share the weight, ``-inf`` get none, a slice of only ``-inf`` raises.

    Examples
    --------
    >>> softmax([np.inf, 1.0, np.inf])
    array([0.5, 0. , 0.5])
    """
    scores = check_array(scores, "scores", inf=True)
    check_array_size(scores.shape, "scores", what="a float64 copy")
    scores = scores.astype(np.float64)
    ndim = max(scores.ndim, 1)
    axis = check_integer(axis, "axis", min_value=-ndim, max_value=ndim - 1)
    top = scores.max(axis=axis, keepdims=True)
    if np.isneginf(top).any():
        raise ValueError("scores has a slice of only -inf: softmax is undefined.")
    if np.isposinf(top).any():  # the limit: the +inf entries share the weight
        scores = np.where(
            np.isposinf(top), np.where(scores == top, 0.0, -np.inf), scores
        )
        top = np.where(np.isposinf(top), 0.0, top)
    with np.errstate(over="ignore"):  # 1e308 - (-1e308) is -inf: weight 0
        weights = np.exp(scores - top)
    return weights / weights.sum(axis=axis, keepdims=True)


def self_attention(x, head, *, positions=None):
    """One head of self-attention over the rows of ``x``, ``(n, d_model)``, no mask,
    ``(n, d_head)``; with ``positions`` (one per row), RoPE turns queries and keys.

    Examples
    --------
    >>> x = np.eye(4)[:3]                     # three tokens, d_model = 4
    >>> self_attention(x, init_head(4)).shape
    (3, 4)
    """
    head = _check_head(head)
    d_model = head.w_q.shape[0]
    x = check_table(x, "x", what=f"(n, {d_model})", shape=(None, d_model))  # (n, d)
    check_array_size((len(x), len(x)), "x", what="the scores")
    check_array_size((len(x), head.w_q.shape[1]), "x and head", what="queries")
    with np.errstate(all="ignore"):  # overflow is reported by name, below
        q, k, v = (_check_finite_result(x @ w, "x") for w in head)  # (n, d_head)
        if positions is not None:
            q, k = rope(q, positions), rope(k, positions)
        scores = _check_finite_result(q @ k.T / np.sqrt(q.shape[1]), "x")  # (n, n)
        return _check_finite_result(softmax(scores) @ v, "x")  # (n, d_head)


def permutation_gap(layer, x, perm):
    """``max |layer(x[perm]) - layer(x)[perm]|``: zero when shuffling the rows of
    ``x``, ``(n, d)``, only shuffles the output rows.

    Examples
    --------
    >>> x = np.arange(6.0).reshape(3, 2)
    >>> permutation_gap(lambda rows: 2 * rows, x, [2, 0, 1])
    0.0
    """
    check_callable(layer, "layer", what="a function of an (n, d) array")
    x = check_table(x, "x", what="(n, d), one row per token")  # (n, d)
    check_array_size(x.shape, "x", itemsize=x.itemsize, what="x[perm]")
    perm = check_permutation(perm, "perm", size=len(x))
    shuffled = check_array(layer(x[perm]), "layer(x[perm])")
    out = check_array(layer(x), "layer(x)")
    if out.ndim < 1 or len(out) != len(x) or shuffled.shape != out.shape:
        raise ValueError(
            f"layer(x) has shape {out.shape} and layer(x[perm]) {shuffled.shape}, "
            f"must be one shape with {len(x)} rows (one per row of x)."
        )
    return float(np.max(np.abs(shuffled - out[perm])))


def _rope_pairs(layout, d):
    """Column indices of each pair's first and second member, ``(d // 2,)`` each."""
    if layout == "interleaved":  # RoFormer's equation, GPT-J, torchtune
        return np.arange(0, d, 2), np.arange(1, d, 2)
    return np.arange(d // 2), np.arange(d // 2, d)  # Llama's rotate_half


def rope(x, positions, *, base=10000.0, layout="interleaved"):
    """Turn pair ``i`` of row ``r`` of ``x``, ``(n, d)``, by ``positions[r] * base
    ** (-2 i / d)``: the point ``(x[2i], x[2i + 1])`` (``"interleaved"``:
    RoFormer, GPT-J, torchtune; ``rotation_matrix(p, d).T @ x[0]``) or ``(x[i],
    x[i + d // 2])`` (``"half"``: Llama's ``rotate_half``).

    Examples
    --------
    >>> rope([[1.0, 2.0, 0.0, 0.0]], [1], layout="half").round(4)
    array([[0.5403, 1.9999, 0.8415, 0.02  ]])
    """
    x = check_table(x, "x", what="(n, d), d even")  # (n, d)
    check_d_model(x.shape[1], name="x.shape[1]")
    check_array_size(x.shape, "x", what="a float64 copy")
    x = x.astype(np.float64)
    positions = check_positions(positions)  # (n,)
    layout = check_choice(layout, "layout", ("interleaved", "half"))
    first, second = _rope_pairs(layout, x.shape[1])  # (d // 2,) each
    check_sequence(positions, "positions", length=len(x), per=" (rows of x)")
    sin, cos = exact_sin_cos(positions, x.shape[1], base)  # (n, d // 2) each
    px, py = x[:, first], x[:, second]  # (n, d // 2) each: the pairs' x and y
    out = np.empty_like(x)  # (n, d)
    with np.errstate(over="ignore"):  # reported below, by name
        out[:, first] = px * cos - py * sin
        out[:, second] = px * sin + py * cos
    return _check_finite_result(out, "x")


def rope_score(q, k, m, n, *, base=10000.0, layout="interleaved"):
    """The score ``rope(q, m) . rope(k, n)`` of a query at ``m``, a key at ``n``.

    Examples
    --------
    >>> q, k = np.array([1.0, 2.0, 0.5, -1.0]), np.array([0.3, -0.2, 1.0, 0.4])
    >>> bool(np.isclose(rope_score(q, k, 2, 5), rope_score(q, k, 10, 13)))
    True
    """
    q = check_array(q, "q", ndim=1, what="(d,), d even")  # (d,)
    k = check_array(k, "k", ndim=1, what=f"{q.shape}, the shape of q", shape=q.shape)
    check_d_model(len(q), name="len(q)")
    check_array_size((2, len(q)), "q and k", what="the rotated pair")
    positions = [check_position(m, "m"), check_position(n, "n")]
    rotated = rope(np.stack([q, k]), positions, base=base, layout=layout)  # (2, d)
    with np.errstate(over="ignore", invalid="ignore"):
        score = rotated[0] @ rotated[1]
    return float(_check_finite_result(score, "q and k"))


def position_scores(x_q, x_k, head, n_positions, *, method):
    """Entry ``[m, n]``: the unscaled score ``q_m . k_n`` of ``x_q``, ``(d_model,)``,
    at position ``m`` and ``x_k`` at ``n < n_positions``; ``method="add"`` adds
    ``PE`` to them, ``"rope"`` rotates their projections.

    Examples
    --------
    >>> head, x = init_head(4), np.array([1.0, 0.0, 0.0, 1.0])
    >>> position_scores(x, x, head, 3, method="rope").shape
    (3, 3)
    """
    head = _check_head(head)
    d_model = head.w_q.shape[0]
    n_positions = check_integer(n_positions, "n_positions", min_value=1)
    size = (n_positions, max(n_positions, d_model))
    check_array_size(size, "n_positions", what="scores and rows")
    shape = (n_positions, head.w_q.shape[1])  # (n_positions, d_head)
    check_array_size(shape, "n_positions and head", what="the queries")
    what = f"({d_model},): one embedding of width d_model, the rows of head.w_q"
    x_q = check_array(x_q, "x_q", what=what, shape=(d_model,))  # (d_model,)
    x_k = check_array(x_k, "x_k", what=what, shape=(d_model,))  # (d_model,)
    check_choice(method, "method", ("add", "rope"))
    repeat = np.ones((n_positions, 1))  # (n_positions, 1)
    queries, keys = repeat * x_q, repeat * x_k  # (n_positions, d_model) each
    with np.errstate(all="ignore"):  # overflow is reported by name, below
        if method == "add":
            pe = sinusoidal_positions(range(n_positions), d_model)  # (n_pos, d_model)
            scores = ((queries + pe) @ head.w_q) @ ((keys + pe) @ head.w_k).T
        else:  # project, then rotate
            rows = range(n_positions)
            q = rope(_check_finite_result(queries @ head.w_q, "x_q"), rows)
            k = rope(_check_finite_result(keys @ head.w_k, "x_k"), rows)
            scores = q @ k.T  # (n_positions, n_positions)
    return _check_finite_result(scores, "x_q or x_k")


class LearnedPositions:
    """A learned positional table: one trainable row per position below ``max_len``,
    random as at initialisation (scale 0.02, GPT-2's); training never adds one.

    Examples
    --------
    >>> learned = LearnedPositions(max_len=4, d_model=2)
    >>> learned([0, 3]).shape
    (2, 2)
    """

    def __init__(self, max_len, d_model, *, seed=0):
        self.max_len = check_integer(max_len, "max_len", min_value=1)
        self.d_model = check_d_model(d_model)
        check_array_size((self.max_len, self.d_model), "max_len and d_model")
        self.table = init_embedding(self.max_len, self.d_model, seed=seed, scale=0.02)

    def __repr__(self):
        return f"LearnedPositions(max_len={self.max_len}, d_model={self.d_model})"

    def __call__(self, positions):
        """Rows of the table for ``positions``, shape ``(n, d_model)``."""
        positions = check_positions(positions)  # (n,)
        check_array_size((len(positions), self.d_model), "positions")
        for index in np.flatnonzero(positions >= self.max_len)[:1]:  # no row
            name, n = f"positions[{index}]", self.max_len
            raise ValueError(
                f"{name} == {positions[index]}, must be in [0, {n}), i.e. 0 <= {name} "
                f"< max_len. A learned table of max_len == {n} rows has no row for "
                "it; the sinusoidal encoding has no such limit."
            )
        return self.table[positions]  # (n, d_model)
