"""How the course prints a number, the same everywhere (the command interpreter,
the checkers' messages, the sliders): 4 decimals (of its scientific form from 1e10
on, so no line runs to 300 digits), never ``-0.0000``.
"""

import numpy as np

from .validation import check_array_size

__all__ = ["format_number", "format_numbers"]


def format_number(x):
    """``x`` with exactly 4 decimals; ``-0.0000`` is printed as ``0.0000``.

    Examples
    --------
    >>> format_number(-0.99), format_number(-1e-9), format_number(1e308)
    ('-0.9900', '0.0000', '1.0000e+308')
    """
    x = float(x)
    text = f"{x:.4e}" if abs(x) >= 1e10 else f"{x:.4f}"
    return "0.0000" if text == "-0.0000" else text


def format_numbers(values):
    """Every number of ``values`` (any shape) as :func:`format_number`, space-separated.

    Examples
    --------
    >>> format_numbers([0.14112, -0.98999, -0.00001])
    '0.1411 -0.9900 0.0000'
    """
    values = np.asarray(values)
    check_array_size(values.shape, "values", what="text")  # 8 characters a number
    return " ".join(format_number(x) for x in values.flat)
