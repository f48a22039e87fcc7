"""The usual bugs outside the lesson's list, as answers to compare with (private).

Each bug is a tuple ``(what, *lines)``: what the answer looks like, then what
went wrong (for :func:`._checking.mistake_result`); :func:`rows_for` computes
its answers with the library's own functions.

============================ ================================================
bug                          what the code does
============================ ================================================
positions ignored            rows for ``range(len(positions))``
positions sorted             rows for ``sorted(positions)``
off by one                   ``PE[pos + 1]``: positions counted from 1
multiply instead of divide   ``angle = pos * 10000 ** (2 * pair / d)``
degrees                      ``sin(radians(angle))``: the angle read as degrees
============================ ================================================

>>> rows_for(OFF_BY_ONE)([0], 2).round(4)
array([[0.8415, 0.5403]])
"""

import numpy as np

from ..positional import frequencies, sinusoidal_positions

__all__ = ["POS_ENCODING_BUGS", "SINUSOIDAL_POSITIONS_BUGS", "rows_for"]

POSITIONS_IGNORED = (
    "the positions given were ignored: row k is PE[k]",
    "Your rows are the encodings of 0, 1, ..., n - 1 (range(len(positions))), "
    "whatever positions holds.",
    "Row k must be PE[positions[k]]: compute the angles from the positions themselves.",
)
POSITIONS_SORTED = (
    "the positions were sorted first",
    "Your rows are the encodings of sorted(positions).",
    "Row k must be PE[positions[k]], in the order given (the card: positions "
    "come in any order, repeats allowed).",
)
OFF_BY_ONE = (
    "it looks off by one: your answer for position p is PE[p + 1]",
    "Positions count from 0: the first token is at position 0, and PE[0] is "
    "[0, 1, 0, 1, ...].",
    "Use the position as given; do not add 1 to it.",
)
MULTIPLIED = (
    "it looks like multiply instead of divide",
    "Your angles are pos * 10000 ** (2 * pair / d): they grow with the pair, "
    "so the later pairs turn fastest.",
    "In the formula the position is divided by 10000 ** (2 * pair / d), so the "
    "later pairs turn slowest.",
)
DEGREES = (
    "it looks like the angle was read as degrees",
    "Your sines and cosines are those of angle * pi / 180, as if the angle "
    "were in degrees (math.radians(angle), or a calculator in DEG mode).",
    "The formula's angle is already in radians, which is what np.sin, np.cos, "
    "math.sin and math.cos take: pass it as it is.",
)


def _interleaved(angle):
    """sin and cos of each angle side by side, (n, d/2) -> (n, d)."""
    return np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(len(angle), -1)


_ROWS = {
    POSITIONS_IGNORED: lambda ps, d: sinusoidal_positions(range(len(ps)), d),
    POSITIONS_SORTED: lambda ps, d: sinusoidal_positions(sorted(ps), d),
    OFF_BY_ONE: lambda ps, d: sinusoidal_positions([p + 1 for p in ps], d),
    MULTIPLIED: lambda ps, d: _interleaved(np.outer(ps, 1 / frequencies(d))),
    DEGREES: lambda ps, d: _interleaved(np.radians(np.outer(ps, frequencies(d)))),
}

#: the bugs a ``pos_encoding(pos, d)`` can make, in the order they are tried
POS_ENCODING_BUGS = (OFF_BY_ONE, MULTIPLIED, DEGREES)
#: those of ``sinusoidal_positions(positions, d_model)``
SINUSOIDAL_POSITIONS_BUGS = (POSITIONS_IGNORED, POSITIONS_SORTED, *POS_ENCODING_BUGS)


def rows_for(bug):
    """``f(positions, d)``: the table the ``bug`` gives, shape (n, d)."""
    return _ROWS[bug]
