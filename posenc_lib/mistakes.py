"""The lesson's common mistakes, written out as code that makes them.

Each mistake has the signature of the function it gets wrong, so chapter 05 can
put it beside the right answer and the checkers and
:func:`posenc_lib.identify_encoding` can recognise it. The right formula::

    angle      = pos / 10000 ** (2 * pair / d)
    PE[pos][k] = sin(angle) if k is even else cos(angle)

========================= ================================================
id                        what the code does
========================= ================================================
``k-instead-of-pair``     ``angle = pos / 10000 ** (2 * k / d)``
``swapped-sin-cos``       cosine in even columns, sine in odd ones
``sine-only``             sine in every column
``integer-division``      exponent ``(2 * pair) // d``, which is always 0
``integer-power``         divisor truncated: ``int(10000 ** (2 * pair / d))``
``added-to-table``        ``lookup`` returns a view, so ``row += PE``
                          writes into the table
========================= ================================================

``MISTAKES`` maps each id to its function, in this order; ``WRONG_LINE`` and
``DESCRIPTION`` map it to the wrong line and to what goes wrong. The five
``POS_ENCODING_MISTAKES`` take ``pos`` and ``d`` like ``pos_encoding`` and
return shape ``(d,)``.
"""

import numpy as np

from .validation import check_d_model, check_index, check_integer, check_table

__all__ = [
    "DESCRIPTION",
    "MISTAKES",
    "POS_ENCODING_MISTAKES",
    "WRONG_LINE",
    "added_to_table",
    "integer_division",
    "integer_power",
    "k_instead_of_pair",
    "sine_only",
    "swapped_sin_cos",
]


def _checked(pos, d):
    return check_integer(pos, "pos", min_value=0), check_d_model(d, name="d")


def k_instead_of_pair(pos, d):
    """``PE[pos]`` with the column index ``k`` in the exponent instead of ``k // 2``.

    The wrong line::

        angle = pos / 10000 ** (2 * k / d)    # right: 2 * (k // 2) / d

    Examples
    --------
    Column 1 should be ``cos(3)``; here it is ``cos(3 / 100)``:

    >>> k_instead_of_pair(3, 4).round(4).tolist()
    [0.1411, 0.9996, 0.0003, 1.0]
    """
    pos, d = _checked(pos, d)
    pe = np.zeros(d)  # (d,)
    for k in range(d):
        angle = pos / 10000 ** (2 * k / d)
        pe[k] = np.sin(angle) if k % 2 == 0 else np.cos(angle)
    return pe


def swapped_sin_cos(pos, d):
    """``PE[pos]`` with cosine in the even columns and sine in the odd ones.

    The wrong line::

        pe[k] = np.cos(angle) if k % 2 == 0 else np.sin(angle)

    Examples
    --------
    >>> swapped_sin_cos(0, 4)
    array([1., 0., 1., 0.])
    """
    pos, d = _checked(pos, d)
    pe = np.zeros(d)  # (d,)
    for k in range(d):
        angle = pos / 10000 ** (2 * (k // 2) / d)
        pe[k] = np.cos(angle) if k % 2 == 0 else np.sin(angle)
    return pe


def sine_only(pos, d):
    """``PE[pos]`` with sine in every column.

    The wrong line::

        pe[k] = np.sin(angle)    # right: cos(angle) in the odd columns

    Examples
    --------
    >>> sine_only(0, 4)
    array([0., 0., 0., 0.])
    """
    pos, d = _checked(pos, d)
    pe = np.zeros(d)  # (d,)
    for k in range(d):
        angle = pos / 10000 ** (2 * (k // 2) / d)
        pe[k] = np.sin(angle)
    return pe


def integer_division(pos, d):
    """``PE[pos]`` with the exponent computed by integer division.

    The wrong line::

        angle = pos / 10000 ** ((2 * pair) // d)    # right: (2 * pair) / d

    Examples
    --------
    >>> integer_division(3, 4).round(4)
    array([ 0.1411, -0.99  ,  0.1411, -0.99  ])
    """
    pos, d = _checked(pos, d)
    pe = np.zeros(d)  # (d,)
    for k in range(d):
        pair = k // 2
        angle = pos / 10000 ** ((2 * pair) // d)
        pe[k] = np.sin(angle) if k % 2 == 0 else np.cos(angle)
    return pe


def integer_power(pos, d):
    """``PE[pos]`` with the divisor ``10000 ** (2 * pair / d)`` truncated to an int.

    The wrong line::

        angle = pos / int(10000 ** (2 * pair / d))    # right: no int(...)

    Only where the divisor is not a whole number (never when ``d`` is 4 or 8)
    are the frequencies slightly off, more so at later positions.

    Examples
    --------
    At ``d == 6``, pair 1 divides by 21 instead of 21.5443:

    >>> from posenc_lib import pos_encoding
    >>> integer_power(10, 6).round(4)
    array([-0.544 , -0.8391,  0.4584,  0.8887,  0.0216,  0.9998])
    >>> pos_encoding(10, 6).round(4)
    array([-0.544 , -0.8391,  0.4477,  0.8942,  0.0215,  0.9998])
    """
    pos, d = _checked(pos, d)
    pe = np.zeros(d)  # (d,)
    for k in range(d):
        pair = k // 2
        angle = pos / int(10000 ** (2 * pair / d))
        pe[k] = np.sin(angle) if k % 2 == 0 else np.cos(angle)
    return pe


def added_to_table(table, token_id):
    """A ``lookup`` that returns a view of the row, so adding to it edits the table.

    The wrong line::

        return table[token_id]    # right: table[token_id].copy()

    Examples
    --------
    >>> from posenc_lib import pos_encoding
    >>> table = np.zeros((2, 4))
    >>> row = added_to_table(table, 1)
    >>> row += pos_encoding(1, 4)
    >>> table.round(4)  # row 1 of the table has changed
    array([[0.    , 0.    , 0.    , 0.    ],
           [0.8415, 0.5403, 0.01  , 1.    ]])
    """
    table = check_table(table)  # (vocab_size, d)
    token_id = check_index(token_id, "token_id", table.shape[0], what="vocab_size")
    return table[token_id]  # (d,), a view


MISTAKES = {
    "k-instead-of-pair": k_instead_of_pair,
    "swapped-sin-cos": swapped_sin_cos,
    "sine-only": sine_only,
    "integer-division": integer_division,
    "integer-power": integer_power,
    "added-to-table": added_to_table,
}

POS_ENCODING_MISTAKES = tuple(name for name in MISTAKES if name != "added-to-table")

WRONG_LINE = {
    "k-instead-of-pair": "angle = pos / 10000 ** (2 * k / d)",
    "swapped-sin-cos": "pe[k] = np.cos(angle) if k % 2 == 0 else np.sin(angle)",
    "sine-only": "pe[k] = np.sin(angle)",
    "integer-division": "angle = pos / 10000 ** ((2 * pair) // d)",
    "integer-power": "angle = pos / int(10000 ** (2 * pair / d))",
    "added-to-table": "return table[token_id]",
}

DESCRIPTION = {
    "k-instead-of-pair": "The exponent uses the column k instead of pair = k // 2, "
    "so the two columns of a pair get different frequencies.",
    "swapped-sin-cos": "Cosine is in the even columns and sine in the odd ones, "
    "so position 0 is [1, 0, 1, 0, ...] instead of [0, 1, 0, 1, ...].",
    "sine-only": "Every column holds a sine, so both columns of a pair are equal "
    "and PE[pos] . PE[pos] is no longer d / 2.",
    "integer-division": "The exponent (2 * pair) // d truncates to 0, so every pair "
    "gets frequency 1 and repeats sin(pos), cos(pos).",
    "integer-power": "The divisor 10000 ** (2 * pair / d) is truncated to an integer, "
    "so frequencies are slightly off wherever it is not a whole number.",
    "added-to-table": "lookup returns a view of the row, so adding the encoding "
    "in place writes it into the embedding table.",
}
