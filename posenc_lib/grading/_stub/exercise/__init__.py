"""``posenc_lib.exercise`` inside a learner's box: what chapter 05 imports, inert.

>>> from posenc_lib.grading._stub.exercise import check_lookup
>>> check_lookup(None)
lookup: checked by the grader after the notebook has run.
"""

from ..mistakes import MISTAKES

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

_NOTE = "(not run while the exercise is graded)"


class CommandError(Exception):
    """As :class:`posenc_lib.exercise.CommandError`; never raised here."""

    output = ()


class _Deferred:
    """What a checker returns in the box: a note, no verdict."""

    passed = mistake = convention = None

    def __init__(self, task):
        self.message = f"{task}: checked by the grader after the notebook has run."

    def __repr__(self):
        return self.message

    __str__ = __repr__


CheckResult = _Deferred


class OutputComparison(str):
    """What :func:`compare_outputs` returns here: a note."""


def check_lookup(fn, *, time_limit=None, isolated=True):
    return _Deferred("lookup")


def check_pos_encoding(fn, *, time_limit=None, isolated=True):
    return _Deferred("pos_encoding")


def check_sinusoidal_positions(fn, *, time_limit=None, isolated=True):
    return _Deferred("sinusoidal_positions")


def run_commands(text, *, lookup=None, pos_encoding=None, time_limit=None):
    return f"run_commands {_NOTE}"


def iter_commands(text):
    return iter(())


def compare_outputs(mine, reference):
    return OutputComparison(f"compare_outputs {_NOTE}")
