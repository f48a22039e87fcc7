r"""Properties of the sinusoidal encoding, as functions to compute and check.

Dot products. Pair ``i`` contributes
``sin(a) sin(b) + cos(a) cos(b) = cos(a - b)``, so

.. math::

    PE[p] \cdot PE[q] = \sum_{i < d/2} \cos\big((p - q)\,\omega_i\big),

which depends only on the offset ``p - q`` (and is even in it, so only on
``|p - q|``). At offset 0 every term is 1, hence ``PE[p] . PE[p] == d_model / 2``.
"""

import numpy as np

from ._validation import check_d_model, check_integer, check_positions
from .positional import frequencies, sinusoidal_positions

__all__ = ["offset_similarity", "similarity", "similarity_matrix"]


def similarity(i, j, d_model):
    """The dot product ``PE[i] . PE[j]`` of two encodings.

    Parameters
    ----------
    i, j : int
        Non-negative positions.
    d_model : int
        Width of the encoding, an even integer >= 2.

    Returns
    -------
    float

    Examples
    --------
    >>> similarity(2, 2, 4)
    2.0
    >>> round(similarity(3, 7, 8), 6) == round(similarity(10, 14, 8), 6)
    True
    """
    i = check_integer(i, "i", min_value=0)
    j = check_integer(j, "j", min_value=0)
    rows = sinusoidal_positions([i, j], d_model)  # (2, d_model)
    return float(rows[0] @ rows[1])


def similarity_matrix(positions, d_model):
    """All dot products ``PE[p] . PE[q]`` for ``p, q`` in ``positions``.

    Parameters
    ----------
    positions : sequence of int, shape (n,)
        Non-negative positions.
    d_model : int
        Width of the encoding, an even integer >= 2.

    Returns
    -------
    numpy.ndarray of shape (n, n)
        Symmetric; constant along each diagonal when ``positions`` is a range.

    Examples
    --------
    >>> similarity_matrix(range(3), 2).round(4)
    array([[ 1.    ,  0.5403, -0.4161],
           [ 0.5403,  1.    ,  0.5403],
           [-0.4161,  0.5403,  1.    ]])
    """
    table = sinusoidal_positions(positions, d_model)  # (n, d_model)
    return table @ table.T  # (n, n)


def offset_similarity(offsets, d_model):
    """``PE[p] . PE[p + k]`` for each offset ``k``, from the closed form (module notes).

    Parameters
    ----------
    offsets : sequence of int, shape (m,)
        Offsets ``k >= 0``.
    d_model : int
        Width of the encoding, an even integer >= 2.

    Returns
    -------
    numpy.ndarray of shape (m,)
        ``sum_i cos(k * w_i)``; equal to ``d_model / 2`` at ``k == 0``.

    Examples
    --------
    >>> offset_similarity([0, 1], 4).round(4)
    array([2.    , 1.5403])
    """
    offsets = check_positions(offsets, name="offsets")  # (m,)
    d_model = check_d_model(d_model)
    angle = offsets[:, None] * frequencies(d_model)  # (m, d_model // 2)
    return np.cos(angle).sum(axis=1)  # (m,)
