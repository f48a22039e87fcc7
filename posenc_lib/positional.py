r"""Sinusoidal positional encoding, as in the original transformer.

For position ``pos`` and column ``k`` of a model of width ``d_model`` (even), let
``pair = k // 2``. Both columns of a pair share one frequency:

.. math::

    \mathrm{angle} = \frac{pos}{\mathrm{base}^{2\,\mathrm{pair} / d_{model}}},
    \qquad
    PE[pos, k] = \begin{cases}
        \sin(\mathrm{angle}) & k \text{ even} \\
        \cos(\mathrm{angle}) & k \text{ odd}
    \end{cases}

with ``base = 10000``: the paper's *interleaved* layout (``layout="concat"``
stores the sines, then the cosines). Every table the course draws runs the lines
of :func:`sinusoidal_positions`; from position ``2**12`` on, or for ``2**12`` rows
and more, :mod:`posenc_lib.exact` computes the same numbers without rounding
``pos / divisor``. Either way every value is within 1e-12 of the exact one, up
to position ``2**53`` (docs/ranges.md).

(A. Vaswani et al., "Attention Is All You Need", NeurIPS 2017, section 3.5.)
"""

import numpy as np

from . import exact
from .validation import (
    check_array_size,
    check_base,
    check_choice,
    check_d_model,
    check_dtype,
    check_instance,
    check_position,
    check_positions,
    describe,
)

__all__ = [
    "exact_sin_cos",
    "frequencies",
    "pos_encoding",
    "rotation_matrix",
    "sinusoidal_positions",
    "wavelengths",
]


def sinusoidal_positions(
    positions, d_model, *, base=10000.0, dtype=np.float64, layout="interleaved"
):
    """Sinusoidal encodings of the given positions, one row per position.

    Parameters
    ----------
    positions : sequence of int, shape (n,)
        Integer positions in ``[0, 2**53)``, in any order, duplicates allowed.
    d_model : int
        Width of the encoding, an even integer >= 2.
    base : float, default 10000.0
        In ``[1, 1e100]``.
    dtype : floating dtype, default numpy.float64
        Dtype of the result; the angles are float64.
    layout : {"interleaved", "concat"}, default "interleaved"
        A pair's sine and cosine in columns ``2 * pair`` and ``2 * pair + 1``
        (the paper's), or ``pair`` and ``d_model // 2 + pair`` (Marian's).

    Returns
    -------
    numpy.ndarray of shape (n, d_model)
        Row ``r`` encodes ``positions[r]`` (within 1e-12: module notes); at most
        256 MiB (``posenc_lib.validation.MAX_ARRAY_BYTES``).

    Examples
    --------
    >>> sinusoidal_positions([0, 1], 4).round(6)
    array([[0.      , 1.      , 0.      , 1.      ],
           [0.841471, 0.540302, 0.01    , 0.99995 ]])
    """
    d_model, dtype, base = check_d_model(d_model), check_dtype(dtype), check_base(base)
    check_choice(layout, "layout", ("interleaved", "concat"))
    positions, what = check_positions(positions), "positions and d_model"  # (n,)
    check_array_size((len(positions), d_model), what, itemsize=dtype.itemsize)
    check_array_size((len(positions), d_model // 2), what, what="the angles")
    pair = np.arange(d_model // 2)  # (d_model // 2,): columns 2 pair and 2 pair + 1
    divisor = base ** (2 * pair / d_model)  # (d_model // 2,)
    if exact.takes_over(positions):  # only tables no chapter draws: 2**12 rows/pos
        table = exact.sinusoidal_table(positions, divisor, dtype)  # the same numbers
    else:
        angle = positions[:, None] / divisor  # (n, d_model // 2)
        table = np.empty((len(positions), d_model), dtype=dtype)  # (n, d_model)
        table[:, 0::2] = np.sin(angle)  # even columns: sine
        table[:, 1::2] = np.cos(angle)  # odd columns: cosine
    return _to_halves(table) if layout == "concat" else table


def _to_halves(table):
    """Columns ``[0, 2, 4, ..., 1, 3, 5, ...]``, in place, a few rows at a time."""
    half = table.shape[1] // 2
    for rows in exact.row_blocks(table):
        block = table[rows].copy()  # (rows, d_model)
        table[rows, :half], table[rows, half:] = block[:, 0::2], block[:, 1::2]
    return table


def pos_encoding(pos, d_model, *, base=10000.0, dtype=np.float64, layout="interleaved"):
    """``PE[pos]``, shape ``(d_model,)``, for an integer ``pos`` in ``[0, 2**53)``;
    the rest as in :func:`sinusoidal_positions`.

    Examples
    --------
    >>> pos_encoding(3, 4).round(4)  # the lesson's trace
    array([ 0.1411, -0.99  ,  0.03  ,  0.9996])
    """
    pos = check_position(pos, "pos")
    table = sinusoidal_positions([pos], d_model, base=base, dtype=dtype, layout=layout)
    return table[0]


def _divisors(d_model, base):
    """``base ** (2 * pair / d_model)`` for every pair, the size checked."""
    check_array_size((d_model // 2,), "d_model", what="the frequencies")
    pair = np.arange(d_model // 2)  # (d_model // 2,)
    return check_base(base) ** (2 * pair / d_model)  # (d_model // 2,)


def exact_sin_cos(positions, d_model, base=10000.0, *, half=False):
    """sin and cos, ``(n, d_model // 2)`` each, of the exact angles of
    :func:`sinusoidal_positions` (with ``half``, of half of them) for integers
    ``|position| < 2**53``, within 1e-15: every function that turns a position
    or an offset into an angle uses it, so none rounds ``offset * frequency``.

    Examples
    --------
    >>> exact_sin_cos(np.array([-1]), 2)[0].round(4)
    array([[-0.8415]])
    """
    positions = np.asarray(positions)  # (n,)
    if positions.ndim != 1 or positions.dtype.kind not in "iu":
        raise TypeError(
            f"positions == {describe(positions)}, must be a 1-D integer array."
        )
    if np.any((positions >= 2**53) | (positions <= -(2**53))):
        raise ValueError(f"positions == {describe(positions)}, must be |p| < 2**53.")
    d_model = check_d_model(d_model)
    half = check_instance(half, "half", bool, what="True or False")
    divisor = _divisors(d_model, base) * (2.0 if half else 1.0)  # doubling is exact
    check_array_size((len(positions), d_model // 2), "positions and d_model")
    return exact.sin_cos(positions, divisor)


def frequencies(d_model, base=10000.0):
    """Angular frequency of each (sin, cos) pair, ``1 / base ** (2 * pair /
    d_model)``: radians per position, ``(d_model // 2,)``, from 1 to almost 1 / base.

    Examples
    --------
    >>> frequencies(4)
    array([1.  , 0.01])
    """
    return 1.0 / _divisors(check_d_model(d_model), base)


def wavelengths(d_model, base=10000.0):
    """Wavelength of each (sin, cos) pair in positions, ``2 * pi / frequency``:
    ``(d_model // 2,)``, from ``2 * pi`` (pair 0), times ``base ** (2 / d_model)``.

    Examples
    --------
    >>> wavelengths(4).round(2)
    array([  6.28, 628.32])
    """
    return 2 * np.pi * _divisors(check_d_model(d_model), base)


def rotation_matrix(offset, d_model, *, base=10000.0):
    """The matrix ``R`` with ``PE[p + offset] == R @ PE[p]`` for every position p:
    one block ``[[cos t, sin t], [-sin t, cos t]]`` per pair, ``t = offset *
    frequency`` (angle addition), for an integer ``|offset| < 2**53``; within 1e-15.

    Examples
    --------
    >>> R = rotation_matrix(3, 4)
    >>> bool(np.allclose(R @ pos_encoding(5, 4), pos_encoding(8, 4)))
    True
    """
    offset = check_position(offset, "offset", signed=True)
    d_model = check_d_model(d_model)
    check_array_size((d_model, d_model), "d_model")
    sin, cos = exact_sin_cos(np.array([offset]), d_model, base)  # (1, d_model // 2)
    even = np.arange(0, d_model, 2)  # column of each pair's sine
    matrix = np.zeros((d_model, d_model))  # (d_model, d_model)
    matrix[even, even] = matrix[even + 1, even + 1] = cos[0]
    matrix[even, even + 1] = sin[0]
    matrix[even + 1, even] = -sin[0]
    return matrix
