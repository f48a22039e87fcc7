"""The learner's exercise (chapter 03): its command language and its checkers.

- :mod:`~posenc_lib.exercise.commands`: :func:`run_commands`, the command
  language (``TABLE``, ``TOKENS``, ``LOOKUP``, ``POSENC``, ``ADD``, ``SIM``);
  :mod:`~posenc_lib.exercise.cli`: the same as ``posenc run FILE``;
- :mod:`~posenc_lib.exercise.diff`: :func:`compare_outputs`, your output beside
  the reference's;
- :mod:`~posenc_lib.exercise.checkers`: ``check_lookup``, ``check_pos_encoding``,
  ``check_sinusoidal_positions``, each naming the mistake it recognises
  (:data:`MISTAKES`, from :mod:`posenc_lib.mistakes`);
- :mod:`~posenc_lib.exercise.guard`: your code in a child process, timed.

>>> from posenc_lib.exercise import check_pos_encoding
>>> from posenc_lib import pos_encoding
>>> check_pos_encoding(pos_encoding).passed
True
"""

from ..mistakes import MISTAKES
from .checkers import (
    CheckResult,
    check_lookup,
    check_pos_encoding,
    check_sinusoidal_positions,
)
from .commands import CommandError, run_commands
from .diff import OutputComparison, compare_outputs

__all__ = [
    "MISTAKES",
    "CheckResult",
    "CommandError",
    "OutputComparison",
    "check_lookup",
    "check_pos_encoding",
    "check_sinusoidal_positions",
    "compare_outputs",
    "run_commands",
]
