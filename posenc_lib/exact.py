r"""Exact angles, and :func:`sinusoidal_table`, the path
:func:`~posenc_lib.sinusoidal_positions` takes for tables no chapter draws.

*Exact angles*: the float64 quotient ``angle = pos / divisor`` is rounded (by
6e-8 at position 1e9); Dekker's error-free product [1]_ gives ``angle * divisor
== p + e`` exactly, and :func:`sin_cos` turns by the remainder ``((pos - p) - e)
/ divisor``: within 1e-15 for positions up to ``2**53``, bases up to 1e100.
*Rotation blocks*: as ``sin + 1j * cos``, position ``b + j`` is ``-1j * rotor(b)
* rotor(j)``; a run is cut into blocks of about ``6 * sqrt(n)`` rows whose first
rows and steps are exact, so no error builds up, in a few percent of scratch.

References
----------
.. [1] T. J. Dekker, "A floating-point technique for extending the available
   precision", Numerische Mathematik 18, 1971, pp. 224-242.
"""

import math

import numpy as np

from .validation import check_array_size

__all__ = ["row_blocks", "sin_cos", "sinusoidal_table", "takes_over"]

PLAIN_BELOW = 2**12  # positions below: the rounded quotient is off by <= 2.3e-13
FAST_MIN_ROWS = 2**12  # rows from which rotating rows pays; no chapter draws as many
_SCRATCH = (0.03, 2**18)  # scratch per array: 3% of the output, or 256 KiB


def takes_over(positions):
    """True if :func:`sinusoidal_table` should compute these positions' table:
    one is ``>= 2**12`` or there are ``2**12`` or more. The course draws no such.

    Examples
    --------
    >>> takes_over(np.array([0, 4095])), takes_over(np.array([4096]))
    (False, True)
    """
    return len(positions) >= FAST_MIN_ROWS or bool(positions.max() >= PLAIN_BELOW)


def sinusoidal_table(positions, divisors, dtype):
    """The interleaved table, ``(n, d_model)`` of ``dtype``: ``sin`` and ``cos`` of
    the exact angles ``positions / divisors`` (int64, ``|position| < 2**53``).

    Examples
    --------
    >>> sinusoidal_table(np.array([0, 1]), np.array([1.0, 100.0]), np.float64).round(4)
    array([[0.    , 1.    , 0.    , 1.    ],
           [0.8415, 0.5403, 0.01  , 1.    ]])
    """
    shape, itemsize = (len(positions), 2 * len(divisors)), np.dtype(dtype).itemsize
    check_array_size(shape, "positions and divisors", itemsize=itemsize)
    table = np.empty(shape, dtype=dtype)  # (n, d_model)
    run = positions[-1] - positions[0] == len(positions) - 1  # a, a + 1, ...?
    run = run and table.dtype in (np.float32, np.float64)
    if run and np.all(np.diff(positions) == 1):
        _rotate_into(table, int(positions[0]), divisors)
    else:
        for rows in row_blocks(table):
            table[rows, 0::2], table[rows, 1::2] = _sin_cos(positions[rows], divisors)
    return table


def sin_cos(positions, divisors):
    """``sin`` and ``cos`` of the exact angles ``positions / divisors``, each
    ``(n, pairs)``, for int64 ``positions`` with ``|position| < 2**53``.

    Examples
    --------
    >>> sin, cos = sin_cos(np.array([0, -1]), np.array([1.0]))
    >>> sin.round(4).tolist(), cos.round(4).tolist()
    ([[0.0], [-0.8415]], [[1.0], [0.5403]])
    """
    shape = (len(positions), len(divisors))
    check_array_size(shape, "positions and divisors", what="sines and cosines")
    sin = np.empty(shape)  # (n, pairs)
    cos = np.empty_like(sin)
    for rows in row_blocks(sin, pairs=len(divisors)):
        sin[rows], cos[rows] = _sin_cos(positions[rows], divisors)
    return sin, cos


def _split(a):
    """Veltkamp's split: ``a == high + low``, each half holding 26 bits."""
    scaled = 134217729.0 * a  # 2**27 + 1
    high = scaled - (scaled - a)
    return high, a - high


def _sin_cos(positions, divisors):
    """:func:`sin_cos` of a block of rows, all at once: (rows, pairs) each."""
    numerator = positions.astype(np.float64)[:, None]  # (rows, 1), exact
    angle = numerator / divisors  # (rows, pairs), rounded
    product = angle * divisors  # (rows, pairs), rounded: p
    (h1, l1), (h2, l2) = _split(angle), _split(divisors)
    error = ((h1 * h2 - product) + h1 * l2 + l1 * h2) + l1 * l2  # e, exactly
    rest = ((numerator - product) - error) / divisors  # r: the angle is angle + r
    sin, cos = np.sin(angle), np.cos(angle)
    if np.max(np.abs(rest), initial=0.0) < 1e-8:  # rest**2 / 2 < 5e-17
        return sin + rest * cos, cos - rest * sin
    sin_rest, cos_rest = np.sin(rest), np.cos(rest)
    return sin * cos_rest + cos * sin_rest, cos * cos_rest - sin * sin_rest


def _scratch_rows(out, bytes_per_row):
    """Rows per block that keep one scratch array within ``_SCRATCH``."""
    return max(1, int(max(_SCRATCH[0] * out.nbytes, _SCRATCH[1]) // bytes_per_row))


def row_blocks(out, pairs=None):
    """Slices of ``out``'s rows, small enough that the dozen float64 scratch
    arrays of :func:`_sin_cos` (``pairs`` per row, default half the columns)
    each stay a few percent of ``out``."""
    pairs = out.shape[1] // 2 if pairs is None else pairs
    rows = _scratch_rows(out, bytes_per_row=12 * 8 * max(pairs, 1))
    for first in range(0, out.shape[0], rows):
        yield slice(first, min(first + rows, out.shape[0]))


def _rotors(positions, divisors):
    """``sin(a) + 1j * cos(a)`` of the exact angles, shape (rows, pairs)."""
    rotor = np.empty((len(positions), len(divisors)), dtype=np.complex128)
    rotor.real, rotor.imag = _sin_cos(positions, divisors)
    return rotor


def _steps(n_steps, divisors):
    """``-1j * rotor(j)`` for ``j < n_steps``, (n_steps, pairs): ``j = coarse +
    fine``, two short exact tables and one product per step."""
    fine = math.isqrt(n_steps - 1) + 1  # fine * fine >= n_steps
    offsets = np.arange(fine)
    exact = -1j * _rotors(np.r_[offsets, fine * offsets], divisors)  # (2 fine, pairs)
    steps = exact[fine:, None, :] * exact[:fine]  # (coarse, fine, pairs)
    return steps.reshape(fine * fine, len(divisors))[:n_steps]  # (n_steps, pairs)


def _rotate_into(table, start, divisors):
    """Fill ``table`` with the rows of ``start, start + 1, ...``: row ``b + j``
    of a block starting at ``b`` is ``rotor(b) * step[j]``, on a complex view."""
    n_rows, pairs = len(table), len(divisors)
    block = max(8, min(6 * math.isqrt(n_rows), _scratch_rows(table, 16 * pairs)))
    step = _steps(block, divisors)  # (block, pairs)
    z = table.view(np.complex64 if table.dtype == np.float32 else np.complex128)
    n_blocks = -(-n_rows // block)
    chunk = _scratch_rows(table, bytes_per_row=12 * 8 * pairs)  # blocks at a time
    for first in range(0, n_blocks, chunk):
        starts = start + block * np.arange(first, min(first + chunk, n_blocks))
        rotor = _rotors(starts, divisors)  # (blocks, pairs)
        rows = z[first * block : (first + chunk) * block]  # (blocks * block, pairs)
        full = len(rows) // block
        out = rows[: full * block].reshape(full, block, pairs)  # a view
        np.multiply(rotor[:full, None, :], step, out=out)
        if full < len(rotor):  # a short last block
            np.multiply(
                rotor[full], step[: len(rows) - full * block], out=rows[full * block :]
            )
