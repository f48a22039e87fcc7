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

with ``base = 10000``. Wavelengths grow geometrically from ``2*pi`` (pair 0) to
almost ``base * 2*pi`` (the last pair).

How a whole table is computed: shifting the position by ``j`` rotates every
(sin, cos) pair by the fixed angle ``j * frequency`` (the rotation property of
chapter 03, :func:`rotation_matrix`). So for a contiguous range of positions the
table is cut into blocks of ``B`` rows, and each row is the block's first row
times a precomputed rotation: one complex multiplication per pair instead of a
sine and a cosine. Every row is one rotation (built from two exact ones) away from
an exactly computed row, so no rounding error accumulates; other inputs use the
formula directly.

References
----------
.. [1] A. Vaswani et al., "Attention Is All You Need", NeurIPS 2017, section 3.5.
"""

import math

import numpy as np

from ._validation import (
    check_d_model,
    check_dtype,
    check_integer,
    check_positions,
    check_positive,
)

__all__ = [
    "frequencies",
    "pos_encoding",
    "rotation_matrix",
    "sinusoidal_positions",
    "wavelengths",
]

_FAST_MIN_ROWS = 64  # below this many rows the direct formula is just as quick
_TEMP_FRACTION = 0.03  # each kind of scratch array stays below this share of out
_MIN_SCRATCH_BYTES = 1 << 18  # ...or below 256 KiB, whichever is larger


def _divisors(d_model, base):
    """``base ** (2 * pair / d_model)`` for every pair, shape ``(d_model // 2,)``."""
    pair = np.arange(d_model // 2)  # (d_model // 2,)
    return base ** (2 * pair / d_model)  # (d_model // 2,)


def frequencies(d_model, base=10000.0):
    """Angular frequency of each (sin, cos) pair: ``1 / base ** (2 * pair / d_model)``.

    Parameters
    ----------
    d_model : int
        Width of the encoding, an even integer >= 2.
    base : float, default 10000.0
        The base of the geometric progression of wavelengths.

    Returns
    -------
    numpy.ndarray of shape (d_model // 2,)
        Radians per position, from 1 (pair 0) down to nearly ``1 / base``.

    Examples
    --------
    >>> frequencies(4)
    array([1.  , 0.01])
    """
    d_model = check_d_model(d_model)
    return 1.0 / _divisors(d_model, check_positive(base, "base"))


def wavelengths(d_model, base=10000.0):
    """Wavelength of each (sin, cos) pair in positions: ``2 * pi / frequency``.

    Parameters
    ----------
    d_model : int
        Width of the encoding, an even integer >= 2.
    base : float, default 10000.0
        The base of the geometric progression of wavelengths.

    Returns
    -------
    numpy.ndarray of shape (d_model // 2,)
        From ``2 * pi`` (pair 0) growing by a factor ``base ** (2 / d_model)``.

    Examples
    --------
    >>> wavelengths(4).round(2)
    array([  6.28, 628.32])
    """
    d_model = check_d_model(d_model)
    return 2 * np.pi * _divisors(d_model, check_positive(base, "base"))


def _split(a):
    """Veltkamp split: ``a == high + low`` with each half holding 26 bits."""
    scaled = 134217729.0 * a  # 2**27 + 1
    high = scaled - (scaled - a)
    return high, a - high


def _accurate_sin_cos(positions, divisors):
    """sin and cos of ``positions / divisors`` without the rounding of the quotient.

    The quotient is rounded to ``high``; the exact remainder ``low`` comes from an
    error-free product (Dekker), and ``sin(high + low)`` is corrected to first
    order. Shapes: positions ``(rows,)``, divisors ``(pairs,)``, results
    ``(rows, pairs)``.
    """
    numerator = positions.astype(np.float64)[:, None]  # (rows, 1)
    high = numerator / divisors  # (rows, pairs)
    product = high * divisors  # (rows, pairs)
    (h1, l1), (h2, l2) = _split(high), _split(divisors)
    error = ((h1 * h2 - product) + h1 * l2 + l1 * h2) + l1 * l2  # product's rounding
    low = ((numerator - product) - error) / divisors  # (rows, pairs)
    sin, cos = np.sin(high), np.cos(high)
    return sin + cos * low, cos - sin * low


def _scratch_rows(out, bytes_per_row):
    """Rows per block so that scratch arrays stay a small share of ``out``."""
    budget = max(_TEMP_FRACTION * out.nbytes, _MIN_SCRATCH_BYTES)
    return max(1, int(budget // bytes_per_row))


def _fill_direct(positions, divisors, out):
    """The formula itself, a block of rows at a time. ``out``: (n, d_model).

    Angles get the same exact-quotient treatment as the fast path's block starts,
    so a position's row does not depend on which path computed it.
    """
    rows = _scratch_rows(out, bytes_per_row=12 * 8 * len(divisors))
    for first in range(0, len(positions), rows):
        block = slice(first, first + rows)
        sin, cos = _accurate_sin_cos(positions[block], divisors)  # (rows, pairs)
        out[block, 0::2], out[block, 1::2] = sin, cos


def _rotors(positions, divisors):
    """``sin(a) + 1j * cos(a)`` for the exact angles ``a = positions / divisors``.

    That is a pair as stored in ``out`` seen as complex numbers, and by angle
    addition ``rotor(p + q) == -1j * rotor(p) * rotor(q)``. Shapes: positions
    ``(rows,)``, divisors ``(pairs,)``, result ``(rows, pairs)``.
    """
    rotor = np.empty((len(positions), len(divisors)), dtype=np.complex128)
    rotor.real, rotor.imag = _accurate_sin_cos(positions, divisors)
    return rotor


def _rotation_steps(n_steps, divisors):
    """``-1j * rotor(j)`` for j < n_steps, shape ``(n_steps, pairs)``.

    Built the way the table is: ``j = coarse + fine`` with both parts below
    ``isqrt(n_steps) + 1``, so a few exact rows and one product per step.
    """
    fine = math.isqrt(n_steps - 1) + 1  # fine * fine >= n_steps
    offsets = np.arange(fine)
    exact = -1j * _rotors(np.r_[offsets, fine * offsets], divisors)  # (2 fine, pairs)
    steps = exact[fine:, None, :] * exact[:fine]  # (coarse, fine, pairs)
    return steps.reshape(fine * fine, len(divisors))[:n_steps]  # (n_steps, pairs)


def _block_rows(out, pairs):
    """Rows per rotation block: about 6 sqrt(n), so few starts need exact sines.

    Capped so that the step table stays a small share of ``out``.
    """
    cap = _scratch_rows(out, bytes_per_row=16 * pairs)
    return max(8, min(6 * math.isqrt(out.shape[0]), cap))


def _rotate_blocks(rotor, step, rows):
    """``rows[k * block + j] = rotor[k] * step[j]``; the last block may be short."""
    block, pairs = step.shape
    n_full = len(rows) // block
    full = rows[: n_full * block].reshape(n_full, block, pairs)  # a view
    np.multiply(rotor[:n_full, None, :], step, out=full)
    if n_full < len(rotor):  # a short last block
        tail = rows[n_full * block :]
        np.multiply(rotor[n_full], step[: len(tail)], out=tail)


def _fill_rotated(start, divisors, out):
    """Rows ``start, start + 1, ...`` by rotating exact block starts (module notes).

    In ``out`` seen as complex numbers (one per pair), row ``b + j`` of a block
    starting at position ``b`` is ``rotor(b) * step[j]``: one multiplication,
    written straight into ``out``.
    """
    n_rows, pairs = out.shape[0], len(divisors)
    block = _block_rows(out, pairs)
    step = _rotation_steps(block, divisors)  # (block, pairs)
    z_out = out.view(np.complex64 if out.dtype == np.float32 else np.complex128)
    n_blocks = -(-n_rows // block)
    chunk = _scratch_rows(out, bytes_per_row=12 * 8 * pairs)  # blocks at a time
    for first in range(0, n_blocks, chunk):
        blocks = np.arange(first, min(first + chunk, n_blocks))
        rotor = _rotors(start + block * blocks, divisors)  # (len(blocks), pairs)
        _rotate_blocks(rotor, step, z_out[first * block : (first + chunk) * block])


def _contiguous_start(positions):
    """First position if ``positions`` is ``a, a + 1, ..., b``, else ``None``."""
    n_rows = len(positions)
    if n_rows < _FAST_MIN_ROWS or positions[-1] - positions[0] != n_rows - 1:
        return None
    return int(positions[0]) if np.all(np.diff(positions) == 1) else None


def sinusoidal_positions(positions, d_model, *, base=10000.0, dtype=np.float64):
    """Sinusoidal encodings of the given positions, one row per position.

    Parameters
    ----------
    positions : sequence of int, shape (n,)
        Non-negative integer positions, in any order, duplicates allowed, n >= 1.
        A ``range`` or integer array works as well as a list.
    d_model : int
        Width of the encoding, an even integer >= 2.
    base : float, default 10000.0
        Base of the wavelengths' geometric progression.
    dtype : floating dtype, default numpy.float64
        Dtype of the result. Angles are always computed in float64, so a float32
        table is accurate (to float32 rounding) even at very large positions.

    Returns
    -------
    numpy.ndarray of shape (n, d_model)
        Row ``r`` encodes ``positions[r]``: column ``2 * pair`` holds
        ``sin(angle)`` and column ``2 * pair + 1`` holds ``cos(angle)``.

    Raises
    ------
    TypeError
        If ``d_model`` or a position is not an integer, or ``dtype`` is not a
        floating-point type.
    ValueError
        If ``d_model`` is odd or < 2, a position is negative, or ``positions`` is
        empty or not 1-D.

    Examples
    --------
    >>> sinusoidal_positions([0, 1], 4).round(6)
    array([[0.      , 1.      , 0.      , 1.      ],
           [0.841471, 0.540302, 0.01    , 0.99995 ]])
    >>> sinusoidal_positions([2, 0, 5], 2).round(6)
    array([[ 0.909297, -0.416147],
           [ 0.      ,  1.      ],
           [-0.958924,  0.283662]])
    """
    positions = check_positions(positions)  # (n,)
    d_model = check_d_model(d_model)
    divisors = _divisors(d_model, check_positive(base, "base"))  # (d_model // 2,)
    out = np.empty((len(positions), d_model), dtype=check_dtype(dtype))  # (n, d_model)
    start = _contiguous_start(positions)
    if start is not None and out.dtype in (np.float32, np.float64):
        _fill_rotated(start, divisors, out)
    else:
        _fill_direct(positions, divisors, out)
    return out


def pos_encoding(pos, d_model, *, base=10000.0, dtype=np.float64):
    """The encoding of one position, ``PE[pos]``.

    Parameters
    ----------
    pos : int
        A non-negative position.
    d_model : int
        Width of the encoding, an even integer >= 2.
    base, dtype
        As in :func:`sinusoidal_positions`.

    Returns
    -------
    numpy.ndarray of shape (d_model,)

    Examples
    --------
    The lesson's worked trace, d = 4 and pos = 3:

    >>> pos_encoding(3, 4).round(4)
    array([ 0.1411, -0.99  ,  0.03  ,  0.9996])
    >>> pos_encoding(0, 6)
    array([0., 1., 0., 1., 0., 1.])
    """
    pos = check_integer(pos, "pos", min_value=0)
    return sinusoidal_positions([pos], d_model, base=base, dtype=dtype)[0]


def rotation_matrix(offset, d_model, *, base=10000.0):
    """The matrix ``R`` with ``PE[p + offset] == R @ PE[p]`` for every position p.

    Each pair ``(sin a, cos a)`` becomes ``(sin(a + t), cos(a + t))`` with
    ``t = offset * frequency``; by the angle-addition formulas that is the 2x2 block
    ``[[cos t, sin t], [-sin t, cos t]]``. R is block-diagonal, one block per pair,
    in the interleaved (sin, cos) column order.

    Parameters
    ----------
    offset : int
        The shift in positions; may be negative (then ``p + offset`` must be >= 0
        for ``PE[p + offset]`` to exist).
    d_model : int
        Width of the encoding, an even integer >= 2.
    base : float, default 10000.0
        As in :func:`sinusoidal_positions`.

    Returns
    -------
    numpy.ndarray of shape (d_model, d_model)

    Examples
    --------
    >>> R = rotation_matrix(3, 4)
    >>> bool(np.allclose(R @ pos_encoding(5, 4), pos_encoding(8, 4)))
    True
    >>> rotation_matrix(0, 2)
    array([[ 1.,  0.],
           [-0.,  1.]])
    """
    offset = check_integer(offset, "offset")
    d_model = check_d_model(d_model)
    angle = offset / _divisors(d_model, check_positive(base, "base"))  # (d_model // 2,)
    even = np.arange(0, d_model, 2)  # column of each pair's sine
    matrix = np.zeros((d_model, d_model))  # (d_model, d_model)
    matrix[even, even] = matrix[even + 1, even + 1] = np.cos(angle)
    matrix[even, even + 1] = np.sin(angle)
    matrix[even + 1, even] = -np.sin(angle)
    return matrix
