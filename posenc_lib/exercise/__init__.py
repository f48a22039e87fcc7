"""The learner's exercise (chapter 03): the command language (:func:`run_commands`,
``posenc run``), :func:`compare_outputs`, and the checkers, which name the
mistake your function makes."""

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
    "MISTAKES", "CheckResult", "CommandError", "OutputComparison", "check_lookup",
    "check_pos_encoding", "check_sinusoidal_positions", "compare_outputs",
    "run_commands",
]  # fmt: skip
