"""The learner's exercise (chapter 05): its command language and its checkers.

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
- :mod:`~posenc_lib.exercise.guard`: a learner's code in a child process, under
  a time limit, nothing escaping it; ``_reports.py``: what each call did, as
  plain data (the checkers', the command line's and the grader's);
- ``_checking.py`` (what the checkers say, how an answer is read), private.

The lesson's mistakes that the checkers recognise live in the maths room,
:mod:`posenc_lib.mistakes` (chapter 04 and :func:`posenc_lib.identify_encoding`
use them too); :data:`MISTAKES` is re-exported here. Grading a whole class is
the course's tools (posenc_tools), which this package does not import.

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
from .commands import CommandError, iter_commands, run_commands
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
    "iter_commands",
    "run_commands",
]
