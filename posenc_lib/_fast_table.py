"""The fast path of :func:`posenc_lib.sinusoidal_positions` (private).

:mod:`posenc_lib.positional` shows the formula; this module computes the same
numbers faster for a long contiguous range of positions ``a, a + 1, ..., b``,
and supplies the one correction that makes both paths exact.

Rotation blocks
    Shifting the position by ``j`` rotates every (sin, cos) pair by the fixed
    angle ``j * frequency`` (the rotation property of chapter 03). So the table
    is cut into blocks of ``B`` rows, and each row is the block's first row times
    a precomputed rotation: one complex multiplication per pair instead of a
    sine and a cosine. Every row is one rotation (built from two exact ones) away
    from an exactly computed row, so no rounding error accumulates.

Exact angles
    ``pos / divisor`` is rounded to float64; at position 1e9 that rounding alone
    moves the angle by about 1e-7. :func:`rounding_error` recovers the part the
    division dropped (an error-free product, after Dekker), and :func:`turn`
    adds it: ``sin(a + r) = sin(a) cos(r) + cos(a) sin(r)``. ``|r|`` is below one
    unit in the last place of ``a``; while it is below 1e-8 (positions up to
    about 1e8) the first-order ``sin(a) + r cos(a)`` is already exact to 5e-17,
    and beyond that ``cos(r)`` and ``sin(r)`` are computed. Both need the
    position exact in float64 (below ``2**53``) and no overflow in the
    error-free product (``base`` up to 1e100): the accepted range.

Scratch memory stays a few percent of the output: work is done a bounded number
of rows at a time.
"""

import math

import numpy as np

__all__ = [
    "accurate_sin_cos",
    "rotated_table",
    "rounding_error",
    "row_blocks",
    "takes_fast_path",
    "to_halves",
    "turn",
]

FAST_MIN_ROWS = 64  # below this many rows the direct formula is just as quick
_TEMP_FRACTION = 0.03  # each kind of scratch array stays below this share of out
_MIN_SCRATCH_BYTES = 1 << 18  # ...or below 256 KiB, whichever is larger


def takes_fast_path(positions, dtype):
    """True if ``positions`` is a long run ``a, a + 1, ..., b`` and dtype allows it.

    The rotation is done on a complex view of the output, so only float32 and
    float64 tables qualify.
    """
    n_rows = len(positions)
    if n_rows < FAST_MIN_ROWS or np.dtype(dtype) not in (np.float32, np.float64):
        return False
    if positions[-1] - positions[0] != n_rows - 1:
        return False
    return bool(np.all(np.diff(positions) == 1))


def _split(a):
    """Veltkamp split: ``a == high + low`` with each half holding 26 bits."""
    scaled = 134217729.0 * a  # 2**27 + 1
    high = scaled - (scaled - a)
    return high, a - high


def rounding_error(positions, divisors, angle):
    """``positions / divisors - angle`` exactly; ``angle`` is the rounded quotient.

    Shapes: positions ``(rows,)``, divisors ``(pairs,)``, angle and result
    ``(rows, pairs)``.
    """
    numerator = positions.astype(np.float64)[:, None]  # (rows, 1)
    product = angle * divisors  # (rows, pairs), rounded
    (h1, l1), (h2, l2) = _split(angle), _split(divisors)
    error = ((h1 * h2 - product) + h1 * l2 + l1 * h2) + l1 * l2  # product's rounding
    return ((numerator - product) - error) / divisors  # (rows, pairs)


def accurate_sin_cos(positions, divisors):
    """sin and cos of ``positions / divisors`` without the rounding of the quotient.

    Shapes: positions ``(rows,)``, divisors ``(pairs,)``, results ``(rows, pairs)``.
    """
    angle = positions.astype(np.float64)[:, None] / divisors  # (rows, pairs)
    rest = rounding_error(positions, divisors, angle)  # (rows, pairs)
    return turn(np.sin(angle), np.cos(angle), rest)


_FIRST_ORDER = 1e-8  # below this |rest|, rest**2 / 2 < 5e-17: first order is exact


def turn(sin, cos, rest):
    """sin and cos of ``angle + rest``, given those of ``angle`` and a small ``rest``.

    Examples
    --------
    >>> [round(float(v), 12) for v in turn(np.sin(1.0), np.cos(1.0), 0.5)]
    [0.997494986604, 0.070737201668]
    """
    if np.max(np.abs(rest), initial=0.0) < _FIRST_ORDER:
        return sin + rest * cos, cos - rest * sin
    sin_rest, cos_rest = np.sin(rest), np.cos(rest)
    return sin * cos_rest + cos * sin_rest, cos * cos_rest - sin * sin_rest


def _scratch_rows(out, bytes_per_row):
    """Rows per block so that scratch arrays stay a small share of ``out``."""
    budget = max(_TEMP_FRACTION * out.nbytes, _MIN_SCRATCH_BYTES)
    return max(1, int(budget // bytes_per_row))


def row_blocks(out, pairs=None):
    """Slices of ``out``'s rows, each small enough that its scratch arrays stay a
    few percent of ``out`` (about 12 float64 temporaries per pair and row);
    ``pairs`` per row, default half of ``out``'s columns.

    Examples
    --------
    >>> list(row_blocks(np.empty((3, 4))))
    [slice(0, 3, None)]
    """
    pairs = out.shape[1] // 2 if pairs is None else pairs
    rows = _scratch_rows(out, bytes_per_row=12 * 8 * max(pairs, 1))
    for first in range(0, out.shape[0], rows):
        yield slice(first, min(first + rows, out.shape[0]))


def to_halves(table):
    """Reorder ``table``'s columns in place from (sin, cos) pairs to two halves.

    Column ``2 * pair`` moves to ``pair`` and ``2 * pair + 1`` to
    ``d_model // 2 + pair``, a bounded block of rows at a time, so the scratch
    memory stays a few percent of the table and both layouts share one path.

    Examples
    --------
    >>> table = np.array([[0.0, 1.0, 2.0, 3.0]])
    >>> to_halves(table)
    >>> table
    array([[0., 2., 1., 3.]])
    """
    half = table.shape[1] // 2
    for rows in row_blocks(table):
        block = table[rows].copy()  # (rows, d_model)
        table[rows, :half], table[rows, half:] = block[:, 0::2], block[:, 1::2]


def _rotors(positions, divisors):
    """``sin(a) + 1j * cos(a)`` for the exact angles ``a = positions / divisors``.

    That is a pair as stored in the table seen as complex numbers, and by angle
    addition ``rotor(p + q) == -1j * rotor(p) * rotor(q)``. Shapes: positions
    ``(rows,)``, divisors ``(pairs,)``, result ``(rows, pairs)``.
    """
    rotor = np.empty((len(positions), len(divisors)), dtype=np.complex128)
    rotor.real, rotor.imag = accurate_sin_cos(positions, divisors)
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


def block_rows(out, pairs):
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


def rotated_table(start, n_rows, divisors, dtype):
    """Rows for positions ``start .. start + n_rows - 1``, by rotating exact rows.

    In the table seen as complex numbers (one per pair), row ``b + j`` of a block
    starting at position ``b`` is ``rotor(b) * step[j]``: one multiplication,
    written straight into the output. Returns an ``(n_rows, 2 * pairs)`` array.
    """
    pairs = len(divisors)
    out = np.empty((n_rows, 2 * pairs), dtype=dtype)  # (n_rows, d_model)
    block = block_rows(out, pairs)
    step = _rotation_steps(block, divisors)  # (block, pairs)
    z_out = out.view(np.complex64 if out.dtype == np.float32 else np.complex128)
    n_blocks = -(-n_rows // block)
    chunk = _scratch_rows(out, bytes_per_row=12 * 8 * pairs)  # blocks at a time
    for first in range(0, n_blocks, chunk):
        blocks = np.arange(first, min(first + chunk, n_blocks))
        rotor = _rotors(start + block * blocks, divisors)  # (len(blocks), pairs)
        _rotate_blocks(rotor, step, z_out[first * block : (first + chunk) * block])
    return out
