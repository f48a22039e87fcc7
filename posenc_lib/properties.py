r"""Properties of the sinusoidal encoding, as functions to compute and check.

Pair ``i`` contributes ``sin(a) sin(b) + cos(a) cos(b) = cos(a - b)`` to a dot
product, so ``PE[p] . PE[q] = sum_i cos((p - q) w_i)`` depends on ``|p - q|``
only (``d_model / 2`` at 0), and ``|PE[p] - PE[p + Δ]|^2 = 4 sum_i sin^2(Δ w_i
/ 2)``. The checks take any table: chapter 05 asks which property a mistake breaks.
"""

from typing import NamedTuple

import numpy as np

from .positional import exact_sin_cos, rotation_matrix, sinusoidal_positions
from .validation import (
    check_array,
    check_array_size,
    check_callable,
    check_d_model,
    check_integer,
    check_position,
    check_positions,
    check_table,
    describe,
)

__all__ = [
    "MAX_CALLS",
    "diagonal_spread",
    "min_distance",
    "min_row_distance",
    "offset_similarity",
    "pair_angle_gaps",
    "pair_turns",
    "property_report",
    "rotation_error",
    "shift_map_error",
    "similarity",
    "table_of",
]

MAX_CALLS = 10**5  # calls of a function table_of makes; chapter 05 makes 800


def _floats(table, name="table", what=None):
    """``table`` checked (2-D, finite) and as float64, that copy's size checked."""
    table = check_table(table, name, what=what or _TABLE)
    check_array_size(table.shape, name, what="a float64 copy")
    return table.astype(np.float64)


def similarity(p, q, d_model):
    """``PE[p] . PE[q]``, the dot product of positions ``p``, ``q`` in ``[0, 2**53)``.

    Examples
    --------
    >>> similarity(2, 2, 4)
    2.0
    """
    p, q = check_position(p, "p"), check_position(q, "q")
    rows = sinusoidal_positions([p, q], d_model)  # (2, d_model)
    return float(rows[0] @ rows[1])


def offset_similarity(offsets, d_model):
    """``PE[p] . PE[p + Δ] = sum_i cos(Δ w_i)`` for each ``Δ`` of ``offsets``, ``(m,)``.

    Examples
    --------
    >>> offset_similarity([0, 1], 4).round(4)
    array([2.    , 1.5403])
    """
    offsets = check_positions(offsets, name="offsets")  # (m,)
    d_model = check_d_model(d_model)
    check_array_size((len(offsets), d_model // 2), "offsets and d_model", what="angles")
    _, cos = exact_sin_cos(offsets, d_model)  # (m, d_model // 2), exact angles
    return cos.sum(axis=1)  # (m,)


def pair_angle_gaps(p, q, d_model):
    """How far apart ``p`` and ``q`` are on each pair's "clock face": ``(q - p)
    w_i`` wrapped into ``[0, pi]``, ``(d_model // 2,)`` (near 0: cannot tell).

    Examples
    --------
    >>> pair_angle_gaps(0, 1, 4).round(4)
    array([1.  , 0.01])
    """
    offset = check_position(q, "q") - check_position(p, "p")
    sin, cos = exact_sin_cos(np.array([offset]), d_model)  # (1, d_model // 2) each
    return np.abs(np.arctan2(sin[0], cos[0]))  # (d_model // 2,), wrapped exactly


class PairTurns(NamedTuple):
    """Each pair's own block of a matrix, read as a turn times a scale."""

    angle: np.ndarray  # (d_model // 2,): the turn of each pair, radians in [-pi, pi]
    scale: np.ndarray  # (d_model // 2,): how much each pair's block stretches
    matrix: np.ndarray  # (d_model, d_model): those scaled turns alone, 0 elsewhere


def pair_turns(matrix):
    """The turn and scale closest to each pair's own ``2 x 2`` block of ``matrix``,
    ``(d_model, d_model)`` (e.g. ``W_Q @ W_K.T``): block ``[[w, x], [y, z]]`` is
    nearest to ``scale * [[cos t, sin t], [-sin t, cos t]]`` (a block of
    :func:`~posenc_lib.positional.rotation_matrix`) with ``scale * (cos t, sin t)
    = ((w + z) / 2, (x - y) / 2)``; for ``R(Δ)``, ``t = Δ ω_i`` and scale 1.

    Examples
    --------
    >>> found = pair_turns(rotation_matrix(3, 4))
    >>> found.angle.round(4), found.scale.round(4)
    (array([3.  , 0.03]), array([1., 1.]))
    """
    matrix = _floats(matrix, "matrix", "(d_model, d_model), square")
    d_model = check_d_model(matrix.shape[0], name="matrix.shape[0]")
    square = (d_model, d_model)
    matrix = check_table(matrix, "matrix", shape=square, what=f"{square}, square")
    n = d_model // 2
    blocks = matrix.reshape(n, 2, n, 2)[np.arange(n), :, np.arange(n)]  # (n, 2, 2)
    cos = (blocks[:, 0, 0] + blocks[:, 1, 1]) / 2  # (n,): scale * cos t
    sin = (blocks[:, 0, 1] - blocks[:, 1, 0]) / 2  # (n,): scale * sin t
    turns = np.zeros((n, 2, n, 2))
    turns[np.arange(n), :, np.arange(n)] = np.moveaxis([[cos, sin], [-sin, cos]], 2, 0)
    return PairTurns(
        np.arctan2(sin, cos), np.hypot(sin, cos), turns.reshape(d_model, -1)
    )


def min_distance(n_positions, d_model):
    """The smallest distance between two of ``PE[0] .. PE[n_positions - 1]``, and
    the smallest offset ``Δ`` at which it occurs (one offset at a time).

    Examples
    --------
    >>> distance, offset = min_distance(100, 2)
    >>> offset, round(distance, 4)
    (44, 0.0177)
    """
    n_positions = check_integer(n_positions, "n_positions", min_value=2)
    d_model = check_d_model(d_model)
    size = (n_positions - 1, d_model // 2)
    check_array_size(size, "n_positions and d_model", what="angles")
    offsets = np.arange(1, n_positions)  # (n_positions - 1,)
    sin_half, _ = exact_sin_cos(offsets, d_model, half=True)  # sin(Δ w_i / 2)
    distance = 2 * np.sqrt((sin_half**2).sum(axis=1))  # (n_positions - 1,)
    best = int(np.argmin(distance))
    return float(distance[best]), int(offsets[best])


def table_of(fn, n_positions, d_model):
    """Stack ``fn(pos, d_model)`` for ``pos = 0 .. n_positions - 1`` (at most
    :data:`MAX_CALLS`) into a table; a call that returns anything but ``d_model``
    finite real numbers is named.

    Examples
    --------
    >>> from posenc_lib import pos_encoding
    >>> table_of(pos_encoding, 2, 4)
    array([[0.        , 1.        , 0.        , 1.        ],
           [0.84147098, 0.54030231, 0.00999983, 0.99995   ]])
    """
    check_callable(fn, "fn", what="a function like pos_encoding(pos, d_model)")
    n_positions = check_integer(n_positions, "n_positions", min_value=1)
    d_model = check_d_model(d_model)
    check_array_size((n_positions, d_model), "n_positions and d_model")
    check_integer(n_positions, "n_positions", min_value=1, max_value=MAX_CALLS)
    table = np.empty((n_positions, d_model))  # (n_positions, d_model)
    for pos in range(n_positions):
        table[pos] = _row(fn, pos, d_model)
    return table


def _row(fn, pos, d_model):
    """``fn(pos, d_model)`` as ``d_model`` finite real numbers, or an error."""
    call, value = f"fn({pos}, {d_model})", fn(pos, d_model)
    must = f"must return d_model == {d_model} real numbers"
    try:
        row = np.asarray(value)
    except ValueError:  # rows of different lengths
        row = np.asarray(None)
    if row.dtype.kind not in "iuf":  # None, text, bool, complex
        raise TypeError(f"{call} returned {describe(value, kind=False)}, {must}.")
    if row.shape != (d_model,):
        shown = f"shape {row.shape}" if row.ndim else describe(value, kind=False)
        raise ValueError(f"{call} returned {shown}, {must}.")
    return check_array(row, call)  # (d_model,), no nan or inf


def _shifted(table, offset):
    """Rows ``p`` and rows ``p + offset`` of ``table``, as two float arrays."""
    table = _floats(table)  # (n_positions, d)
    offset = check_integer(offset, "offset", min_value=1)
    if offset >= len(table):
        raise ValueError(
            f"offset == {offset}, must be < {len(table)} (the number of rows of table)."
        )
    return table[:-offset], table[offset:]  # (n_positions - offset, d_model) each


_TABLE = "(n_positions, d_model), one row per position"


def rotation_error(table, offset):
    """``max |PE[p + offset] - R(offset) @ PE[p]|`` over the rows of ``table``
    (rows for positions ``0, 1, ...``; ``1 <= offset < n_positions``): rounding
    for the true encoding.

    Examples
    --------
    >>> rotation_error(sinusoidal_positions(range(50), 8), 3) < 1e-12
    True
    """
    before, after = _shifted(table, offset)  # (n - offset, d) each
    check_array_size((after.shape[1],) * 2, "table", what="the rotation matrix")
    rotated = before @ rotation_matrix(offset, before.shape[1]).T  # (n - offset, d)
    return float(np.max(np.abs(after - rotated)))


def shift_map_error(table, offset):
    """The largest error of the least-squares fit ``table[p + offset] ~= M @
    table[p]``: near zero when *some* matrix ``M`` shifts every row (a rotation
    at any frequencies), large when a pair's sine has lost its cosine.
    Parameters as in :func:`rotation_error`.

    Examples
    --------
    >>> shift_map_error(sinusoidal_positions(range(50), 8), 3) < 1e-12
    True
    """
    before, after = _shifted(table, offset)  # (n - offset, d) each
    check_array_size((after.shape[1],) * 2, "table", what="the fitted matrix")
    m_t = np.linalg.lstsq(before, after, rcond=None)[0]  # (d, d), the transpose of M
    return float(np.max(np.abs(before @ m_t - after)))


def diagonal_spread(matrix):
    """The largest range (max - min) of any diagonal of ``matrix``: zero exactly
    when entry ``[i, j]`` depends only on ``j - i``.

    Examples
    --------
    >>> diagonal_spread([[1.0, 2.0], [3.0, 5.0]])
    4.0
    """
    matrix = _floats(matrix, "matrix", "(n, m)")  # (n, m), finite
    if len(matrix) > matrix.shape[1]:
        matrix = matrix.T  # the same diagonals, fewer rows to walk
    rows, cols = matrix.shape  # diagonal j - i is entry j - i + rows - 1 below
    high = np.full(rows + cols - 1, -np.inf)  # (rows + cols - 1,)
    low = -high
    for i, row in enumerate(matrix):  # row i meets diagonals -i .. cols - 1 - i
        part = slice(rows - 1 - i, rows - 1 - i + cols)
        np.maximum(high[part], row, out=high[part])
        np.minimum(low[part], row, out=low[part])
    return float((high - low).max())


def min_row_distance(table):
    """The closest two rows of ``table``, ``(n, d)``, trying every pair: their
    distance, and the first such ``i < j``.

    Examples
    --------
    >>> min_row_distance([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])
    (1.0, 0, 2)
    """
    table = _floats(table, what="(n, d)")  # (n, d), finite
    if len(table) < 2:
        raise ValueError(f"table has shape {table.shape}, must have at least 2 rows.")
    check_array_size((len(table),) * 2, "table", what="distances of every two rows")
    best = (np.inf, 0, 0)
    for i in range(len(table) - 1):
        dist = np.sqrt(((table[i + 1 :] - table[i]) ** 2).sum(axis=1))  # (n - i - 1,)
        j = int(np.argmin(dist))
        if dist[j] < best[0]:
            best = (float(dist[j]), i, i + 1 + j)
    return best


def property_report(table, *, offset=3):
    """Chapter 03's properties of ``table`` (rows for positions 0, 1, ...): the
    largest difference from the true table, :func:`rotation_error` and
    :func:`shift_map_error` at ``offset``, ``max |PE[p].PE[p] - d_model/2|``,
    :func:`diagonal_spread` of ``table @ table.T``, :func:`min_row_distance`.

    Examples
    --------
    >>> report = property_report(sinusoidal_positions(range(40), 8))
    >>> {name: round(value, 3) for name, value in report.items()}
    {'differs from PE': 0.0, 'rotation error': 0.0, 'shift map error': 0.0, \
'squared-length error': 0.0, 'diagonal spread': 0.0, 'min distance': 0.658}
    """
    table = _floats(table)  # (n_positions, d_model)
    n_positions, d_model = table.shape
    d_model = check_d_model(d_model, name="table.shape[1]")
    check_array_size((n_positions,) * 2, "table", what="table @ table.T")
    true = sinusoidal_positions(range(n_positions), d_model)  # (n_positions, d_model)
    squared = (table**2).sum(axis=1)  # (n_positions,): PE[p] . PE[p]
    return {
        "differs from PE": float(np.max(np.abs(table - true))),
        "rotation error": rotation_error(table, offset),
        "shift map error": shift_map_error(table, offset),
        "squared-length error": float(np.max(np.abs(squared - d_model / 2))),
        "diagonal spread": diagonal_spread(table @ table.T),
        "min distance": min_row_distance(table)[0],
    }
