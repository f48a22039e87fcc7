"""The learner's exercise (chapter 03): :func:`run_commands` runs the command
language (:mod:`.commands`, ``posenc run``: :mod:`.cli`), :func:`compare_outputs`
puts your output beside the reference's (:mod:`.diff`), and the checkers name
the mistake your function makes (:mod:`.checkers`, in a child process:
:mod:`.guard`).

>>> check_pos_encoding(MISTAKES["sine-only"]).mistake
'sine-only'
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
