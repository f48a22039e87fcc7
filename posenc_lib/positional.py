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
``2*pi * base ** ((d_model - 2) / d_model)`` (the last pair), just short of
``2*pi * base``.

This *interleaved* layout is the paper's and the lesson's. Many libraries store
the same numbers as two halves, all the sines then all the cosines
(``layout="concat"``: column ``pair`` holds the sine and column
``d_model // 2 + pair`` the cosine); :mod:`posenc_lib.conventions` names the
layouts real code uses and recognises them.

The functions below compute exactly this. For a long contiguous range of
positions, :func:`sinusoidal_positions` hands over to a faster route with the same
results (``posenc_lib._fast_table``: each row is an exactly computed row rotated
pair by pair, the rotation property of chapter 03).

References
----------
.. [1] A. Vaswani et al., "Attention Is All You Need", NeurIPS 2017, section 3.5.
"""

import numpy as np

from . import _fast_table
from .validation import (
    check_array_size,
    check_base,
    check_choice,
    check_d_model,
    check_dtype,
    check_position,
    check_positions,
)

__all__ = [
    "LAYOUTS",
    "frequencies",
    "pos_encoding",
    "rotation_matrix",
    "sinusoidal_positions",
    "wavelengths",
]

LAYOUTS = ("interleaved", "concat")  # [sin, cos, sin, cos, ...] or [sin... | cos...]


def _divisors(d_model, base):
    """``base ** (2 * pair / d_model)`` for every pair, shape ``(d_model // 2,)``;
    ``d_model`` and ``base`` already checked, the size is checked here."""
    check_array_size((d_model // 2,), "d_model", what="the frequencies")
    pair = np.arange(d_model // 2)  # (d_model // 2,): columns 2 pair and 2 pair + 1
    return base ** (2 * pair / d_model)  # (d_model // 2,)


def sinusoidal_positions(
    positions, d_model, *, base=10000.0, dtype=np.float64, layout="interleaved"
):
    """Sinusoidal encodings of the given positions, one row per position.

    Parameters
    ----------
    positions : sequence of int, shape (n,)
        Integer positions in ``[0, 2**53)``, in any order, duplicates allowed,
        n >= 1. A ``range`` or integer array works as well as a list. Up to
        ``2**53`` float64 holds every integer, so each position has its own angle.
    d_model : int
        Width of the encoding, an even integer >= 2.
    base : float, default 10000.0
        Base of the wavelengths' geometric progression, in ``[1, 1e100]``.
    dtype : floating dtype, default numpy.float64
        Dtype of the result. Angles are always computed in float64, so a float32
        table is accurate to float32 rounding up to position 1e8.
    layout : {"interleaved", "concat"}, default "interleaved"
        Where the sine and cosine of each pair go: columns ``2 * pair`` and
        ``2 * pair + 1`` (the paper's layout), or columns ``pair`` and
        ``d_model // 2 + pair`` (``[sin | cos]`` halves, as Marian, GPT-J and
        Transformer-XL store it). The same numbers, in another column order.

    Notes
    -----
    Each value is within 1e-15 of ``sin`` (or ``cos``) of ``pos / divisor``
    computed exactly, where ``divisor`` is the float64 value of
    ``base ** (2 * pair / d_model)``. That divisor is itself rounded (relative
    error about 1e-16), which moves the angle by about ``pos * 1e-16``: against
    the formula in exact arithmetic the error is below ``1e-15 + 3e-16 * pos``
    (1e-7 at position 1e9), and no float64 divisor does better.

    Returns
    -------
    numpy.ndarray of shape (n, d_model)
        Row ``r`` encodes ``positions[r]``: column ``2 * pair`` holds
        ``sin(angle)`` and column ``2 * pair + 1`` holds ``cos(angle)``
        (``layout="interleaved"``).

    Raises
    ------
    TypeError
        If ``d_model`` or a position is not an integer, or ``dtype`` is not a
        floating-point type.
    ValueError
        If ``d_model`` is odd or < 2, a position is negative or >= 2**53,
        ``positions`` is empty or not 1-D, ``base`` is outside ``[1, 1e100]``, or
        the result would be larger than 256 MiB
        (``posenc_lib.validation.MAX_ARRAY_BYTES``), or ``layout`` is not one of
        :data:`LAYOUTS`.

    Examples
    --------
    >>> sinusoidal_positions([0, 1], 4).round(6)
    array([[0.      , 1.      , 0.      , 1.      ],
           [0.841471, 0.540302, 0.01    , 0.99995 ]])
    >>> sinusoidal_positions([2, 0, 5], 2).round(6)
    array([[ 0.909297, -0.416147],
           [ 0.      ,  1.      ],
           [-0.958924,  0.283662]])
    >>> sinusoidal_positions([0, 1], 4, layout="concat").round(6)
    array([[0.      , 0.      , 1.      , 1.      ],
           [0.841471, 0.01    , 0.540302, 0.99995 ]])
    """
    d_model = check_d_model(d_model)
    base, dtype = check_base(base), check_dtype(dtype)
    layout = check_choice(layout, "layout", LAYOUTS)
    positions = check_positions(positions)  # (n,)
    size = (len(positions), d_model)
    check_array_size(size, "positions and d_model", itemsize=dtype.itemsize)
    divisor = _divisors(d_model, base)  # (d_model // 2,): base ** (2 * pair / d_model)
    if _fast_table.takes_fast_path(positions, dtype):  # a long run a, a + 1, ...
        table = _fast_table.rotated_table(positions[0], len(positions), divisor, dtype)
    else:
        table = np.empty((len(positions), d_model), dtype=dtype)  # (n, d_model)
        for rows in _fast_table.row_blocks(table):  # slices of rows, to bound memory
            angle = positions[rows, None] / divisor  # (rows, d_model // 2)
            sin, cos = np.sin(angle), np.cos(angle)  # (rows, d_model // 2) each
            # The division rounds: ``rest`` is what it dropped (below 1e-12 for
            # positions under 10,000); turning by it keeps large positions exact.
            rest = _fast_table.rounding_error(positions[rows], divisor, angle)
            sin, cos = _fast_table.turn(sin, cos, rest)  # of angle + rest
            table[rows, 0::2] = sin  # even columns: sine
            table[rows, 1::2] = cos  # odd columns: cosine
    if layout == "concat":  # the same columns reordered: [0, 2, ..., 1, 3, ...]
        _fast_table.to_halves(table)  # in place, a block of rows at a time
    return table


def pos_encoding(pos, d_model, *, base=10000.0, dtype=np.float64, layout="interleaved"):
    """The encoding of one position, ``PE[pos]``.

    Parameters
    ----------
    pos : int
        A position in ``[0, 2**53)``.
    d_model : int
        Width of the encoding, an even integer >= 2.
    base, dtype, layout
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

    Marian's layout, the sines first:

    >>> pos_encoding(3, 4, layout="concat").round(4)
    array([ 0.1411,  0.03  , -0.99  ,  0.9996])
    """
    pos = check_position(pos, "pos")
    table = sinusoidal_positions([pos], d_model, base=base, dtype=dtype, layout=layout)
    return table[0]


def exact_sin_cos(positions, d_model, base=10000.0, *, half=False):
    """sin and cos of the exact angles ``positions / divisor``, one column per pair.

    The maths room's shared exact-angle step (not in ``__all__``: its callers
    check the arguments first).

    The angles of :func:`sinusoidal_positions` for any integers (an offset may
    be negative), with its accuracy: within 1e-15 of the exact values, for
    ``|position| < 2**53`` and ``base`` in ``[1, 1e100]``. With ``half``, of half
    those angles (``divisor`` doubled, itself exact), for chapter 03's distances.

    Parameters
    ----------
    positions : numpy.ndarray of int64, shape (n,)
        Already checked integers, ``|position| < 2**53``.
    d_model : int
        Already checked even width.
    base : float, default 10000.0
        Checked here.

    Returns
    -------
    sin, cos : numpy.ndarray of shape (n, d_model // 2)

    Examples
    --------
    >>> sin, cos = exact_sin_cos(np.array([0, -1]), 2)
    >>> sin.round(4).tolist(), cos.round(4).tolist()
    ([[0.0], [-0.8415]], [[1.0], [0.5403]])
    """
    divisor = _divisors(d_model, check_base(base)) * (2.0 if half else 1.0)
    check_array_size((len(positions), d_model // 2), "positions and d_model")
    sin = np.empty((len(positions), d_model // 2))  # (n, d_model // 2)
    cos = np.empty_like(sin)
    for rows in _fast_table.row_blocks(sin, pairs=d_model // 2):  # bounded scratch
        sin[rows], cos[rows] = _fast_table.accurate_sin_cos(positions[rows], divisor)
    return sin, cos


def frequencies(d_model, base=10000.0):
    """Angular frequency of each (sin, cos) pair: ``1 / base ** (2 * pair / d_model)``.

    Parameters
    ----------
    d_model : int
        Width of the encoding, an even integer >= 2.
    base : float, default 10000.0
        The base of the geometric progression of wavelengths, in ``[1, 1e100]``.

    Returns
    -------
    numpy.ndarray of shape (d_model // 2,)
        Radians per position, from 1 (pair 0) down to nearly ``1 / base``.

    Raises
    ------
    ValueError
        If ``d_model`` is odd or < 2, ``base`` is outside ``[1, 1e100]``, or the
        result would be larger than 256 MiB (``d_model > 2**26``).

    Examples
    --------
    >>> frequencies(4)
    array([1.  , 0.01])
    """
    d_model = check_d_model(d_model)
    return 1.0 / _divisors(d_model, check_base(base))


def wavelengths(d_model, base=10000.0):
    """Wavelength of each (sin, cos) pair in positions: ``2 * pi / frequency``.

    Parameters
    ----------
    d_model : int
        Width of the encoding, an even integer >= 2.
    base : float, default 10000.0
        The base of the geometric progression of wavelengths, in ``[1, 1e100]``.

    Returns
    -------
    numpy.ndarray of shape (d_model // 2,)
        From ``2 * pi`` (pair 0) growing by a factor ``base ** (2 / d_model)``.

    Raises
    ------
    ValueError
        As :func:`frequencies`.

    Examples
    --------
    >>> wavelengths(4).round(2)
    array([  6.28, 628.32])
    """
    d_model = check_d_model(d_model)
    return 2 * np.pi * _divisors(d_model, check_base(base))


def rotation_matrix(offset, d_model, *, base=10000.0):
    """The matrix ``R`` with ``PE[p + offset] == R @ PE[p]`` for every position p.

    Each pair ``(sin a, cos a)`` becomes ``(sin(a + t), cos(a + t))`` with
    ``t = offset * frequency``; by the angle-addition formulas that is the 2x2 block
    ``[[cos t, sin t], [-sin t, cos t]]``. R is block-diagonal, one block per pair,
    in the interleaved (sin, cos) column order.

    Parameters
    ----------
    offset : int
        The shift in positions, ``|offset| < 2**53``; may be negative (then
        ``p + offset`` must be >= 0 for ``PE[p + offset]`` to exist).
    d_model : int
        Width of the encoding, an even integer >= 2.
    base : float, default 10000.0
        As in :func:`sinusoidal_positions`.

    Returns
    -------
    numpy.ndarray of shape (d_model, d_model)
        Each entry within 1e-15 of the exact ``sin`` or ``cos`` of
        ``offset / divisor`` (as :func:`sinusoidal_positions`), over the whole
        accepted range.

    Raises
    ------
    TypeError
        If ``offset`` or ``d_model`` is not an integer.
    ValueError
        If ``|offset| >= 2**53``, ``d_model`` is odd or < 2, ``base`` is outside
        ``[1, 1e100]``, or the matrix would be larger than 256 MiB.

    Examples
    --------
    >>> R = rotation_matrix(3, 4)
    >>> bool(np.allclose(R @ pos_encoding(5, 4), pos_encoding(8, 4)))
    True
    >>> rotation_matrix(0, 2)
    array([[ 1.,  0.],
           [-0.,  1.]])
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
