"""The exercise of chapter 05: its command language, its checkers, its mistakes.

What is where:

- :mod:`~posenc_lib.exercise.commands`: the command language (``TABLE``,
  ``TOKENS``, ``LOOKUP``, ``POSENC``, ``ADD``, ``SIM``) that combines a learner's
  ``lookup`` and ``pos_encoding``: :func:`run_commands`.
- :mod:`~posenc_lib.exercise.diff`: :func:`compare_outputs`, your output beside
  the reference's, line by line, the first difference highlighted.
- :mod:`~posenc_lib.exercise.cli`: ``posenc run FILE`` (or
  ``python -m posenc_lib run FILE``).
- :mod:`~posenc_lib.exercise.checkers`: ``check_lookup``, ``check_pos_encoding``,
  ``check_sinusoidal_positions``; each names the mistake it recognises.
- :mod:`~posenc_lib.exercise.mistakes`: the lesson's common mistakes, written out
  as code that makes them.

>>> from posenc_lib.exercise import check_pos_encoding
>>> from posenc_lib import pos_encoding
>>> check_pos_encoding(pos_encoding).passed
True
"""

from .checkers import (
    CheckResult,
    check_lookup,
    check_pos_encoding,
    check_sinusoidal_positions,
)
from .commands import CommandError, iter_commands, run_commands
from .diff import OutputComparison, compare_outputs
from .mistakes import MISTAKES

__all__ = [
    "MISTAKES",
    "CheckResult",
    "CommandError",
    "OutputComparison",
    "check_lookup",
    "check_pos_encoding",
    "check_sinusoidal_positions",
    "compare_outputs",
    "iter_commands",
    "run_commands",
]
