"""The usual bugs outside the lesson's list, as answers to compare with (private).

Each :class:`Bug` has an id, what the answer looks like, what went wrong (for
:func:`._checking.mistake_result`) and ``rows(positions, d)``, its answers,
computed with the library's own functions. :data:`BUGS` maps id -> Bug.

============================ ================================================
bug                          what the code does
============================ ================================================
``positions-ignored``        rows for ``range(len(positions))``
``positions-sorted``         rows for ``sorted(positions)``
``off-by-one``               ``PE[pos + 1]``: positions counted from 1
``multiplied``               ``angle = pos * 10000 ** (2 * pair / d)``
``degrees``                  ``sin(radians(angle))``: the angle read as degrees
============================ ================================================

>>> BUGS["off-by-one"].rows([0], 2).round(4)
array([[0.8415, 0.5403]])
"""

from dataclasses import dataclass

import numpy as np

from ..positional import frequencies, sinusoidal_positions

__all__ = ["BUGS", "POS_ENCODING_BUGS", "SINUSOIDAL_POSITIONS_BUGS", "Bug"]


@dataclass(frozen=True)
class Bug:
    """A usual bug: ``id``, ``what`` the answer looks like, ``lines`` saying
    what went wrong, and ``rows(positions, d)``, its answers (n, d)."""

    id: str
    what: str
    lines: tuple
    rows: object


_POSITIONS_IGNORED = (
    "the positions given were ignored: row k is PE[k]",
    "Your rows are the encodings of 0, 1, ..., n - 1 (range(len(positions))), "
    "whatever positions holds.",
    "Row k must be PE[positions[k]]: compute the angles from the positions themselves.",
)
_POSITIONS_SORTED = (
    "the positions were sorted first",
    "Your rows are the encodings of sorted(positions).",
    "Row k must be PE[positions[k]], in the order given (the card: positions "
    "come in any order, repeats allowed).",
)
_OFF_BY_ONE = (
    "it looks off by one: your answer for position p is PE[p + 1]",
    "Positions count from 0: the first token is at position 0, and PE[0] is "
    "[0, 1, 0, 1, ...].",
    "Use the position as given; do not add 1 to it.",
)
_MULTIPLIED = (
    "it looks like multiply instead of divide",
    "Your angles are pos * 10000 ** (2 * pair / d): they grow with the pair, "
    "so the later pairs turn fastest.",
    "In the formula the position is divided by 10000 ** (2 * pair / d), so the "
    "later pairs turn slowest.",
)
_DEGREES = (
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
    "positions-ignored": lambda ps, d: sinusoidal_positions(range(len(ps)), d),
    "positions-sorted": lambda ps, d: sinusoidal_positions(sorted(ps), d),
    "off-by-one": lambda ps, d: sinusoidal_positions([p + 1 for p in ps], d),
    "multiplied": lambda ps, d: _interleaved(np.outer(ps, 1 / frequencies(d))),
    "degrees": lambda ps, d: _interleaved(np.radians(np.outer(ps, frequencies(d)))),
}
_TEXT = {
    "positions-ignored": _POSITIONS_IGNORED,
    "positions-sorted": _POSITIONS_SORTED,
    "off-by-one": _OFF_BY_ONE,
    "multiplied": _MULTIPLIED,
    "degrees": _DEGREES,
}
#: id -> :class:`Bug`, in the order they are tried
BUGS = {i: Bug(i, text[0], text[1:], _ROWS[i]) for i, text in _TEXT.items()}
#: the ids of the bugs a ``pos_encoding(pos, d)`` can make, in the order tried
POS_ENCODING_BUGS = ("off-by-one", "multiplied", "degrees")
#: those of ``sinusoidal_positions(positions, d_model)``
SINUSOIDAL_POSITIONS_BUGS = (
    "positions-ignored",
    "positions-sorted",
) + POS_ENCODING_BUGS
