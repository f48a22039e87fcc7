"""How a checker judges a learner's function: run it on cases, compare, explain.

Private to :mod:`posenc_lib.exercise`, which holds the banks of cases and the
public checkers. A checker runs the learner's function on every case with
:func:`run_case` (a crash, a stub or an answer of the wrong shape stops it with a
:class:`Stop` carrying the finished result), then :func:`diagnose` compares the
answers with the right ones and, if they differ, with each mistake's answers.
Answers count as equal within ``rtol = atol = 1e-6``: a float32 answer passes,
and every mistake is off by far more on at least one case.
"""

import copy
import html
from dataclasses import dataclass

import numpy as np

from .._format import format_numbers
from ._time_limit import TimeLimitExceeded, guarded_call, why
from .mistakes import DESCRIPTION, MISTAKES, RIGHT_LINE, WRONG_LINE

__all__ = [
    "Case",
    "CheckResult",
    "Stop",
    "close",
    "coerce_answer",
    "diagnose",
    "make_result",
    "mistake_result",
    "run_case",
    "see",
    "show",
]

_RTOL = _ATOL = 1e-6  # float32 answers pass; every mistake is off by far more

_SECTIONS = {
    "k-instead-of-pair": ("The sinusoidal formula", "Common mistakes"),
    "swapped-sin-cos": ("The sinusoidal formula", "A worked trace", "Common mistakes"),
    "sine-only": ("The sinusoidal formula", "A worked trace", "Common mistakes"),
    "integer-division": ("The sinusoidal formula", "Common mistakes"),
    "integer-power": ("The sinusoidal formula", "Common mistakes"),
    "added-to-table": ("Embeddings: a table you index", "Common mistakes"),
    "pos_encoding": ("The sinusoidal formula", "A worked trace"),
    "sinusoidal_positions": ("The sinusoidal formula", "A worked trace"),
    "lookup": ("Embeddings: a table you index",),
}

_COLOURS = {"passed": "#2e7d32", "todo": "#757575", "failed": "#c62828"}


def coerce_answer(value, shape, time_limit=None):
    """``(array, None)`` for finite numbers of ``shape``, else ``(None, why)``.

    Lists, tuples and numpy arrays are all accepted; ``why`` describes what came
    back instead, for an error message. An answer whose ``__repr__`` or
    ``__array__`` raises or hangs is a wrong kind of answer, not an error.
    """
    outcome = guarded_call(_coerce, (value, shape), time_limit)
    if outcome.error is not None:
        kind = _type_name(value)
        problem = f"an object of type {kind} that cannot be read as numbers"
        return None, f"{problem} ({why(outcome.error)})"
    return outcome.value


def _type_name(value):
    try:
        return type(value).__name__
    except BaseException:  # noqa: BLE001 - even this is learner code
        return "value"


def _coerce(value, shape):
    if value is None:
        return None, "None (is a `return` missing?)"
    text = " ".join(repr(value).split())  # one line, even for an array
    text = text if len(text) <= 70 else text[:67] + "..."
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):
        return None, f"{text}, which is not an array of numbers"
    if array.dtype.kind not in "iuf":
        return None, f"{text}, which is not numbers (dtype {array.dtype})"
    if array.shape != shape:
        return None, f"{text}, of shape {array.shape}"
    if not np.all(np.isfinite(array)):
        return None, f"{text}, which holds nan or inf"
    return array.astype(np.float64), None


@dataclass(frozen=True)
class CheckResult:
    """The verdict of a checker.

    Attributes
    ----------
    passed : bool
        True when every case matched the right answer.
    mistake : str or None
        The id of the common mistake the answers match, if any.
    message : str
        A readable report; its first line is a one-line summary.

    Examples
    --------
    >>> result = CheckResult(False, "sine-only", "pos_encoding: sine-only.")
    >>> result
    CheckResult(passed=False, mistake='sine-only')
    >>> print(result)
    pos_encoding: sine-only.
    """

    passed: bool
    mistake: str | None
    message: str

    def __str__(self):
        return self.message

    def __repr__(self):
        return f"CheckResult(passed={self.passed}, mistake={self.mistake!r})"

    def _repr_html_(self):
        headline, _, details = self.message.partition("\n")
        todo = "not implemented yet" in headline
        colour = _COLOURS["passed" if self.passed else "todo" if todo else "failed"]
        body = f"<pre style='margin: 0.4em 0 0'>{html.escape(details)}</pre>"
        return (
            f"<div style='border-left: 4px solid {colour}; padding: 0.3em 0.8em'>"
            f"<strong>{html.escape(headline)}</strong>{body if details else ''}</div>"
        )


@dataclass(frozen=True)
class Case:
    args: tuple
    call: str  # how the call reads, e.g. "pos_encoding(3, 4)"
    expected: np.ndarray


class Stop(Exception):
    """Carries a failed CheckResult (no mistake named) out of the case loop."""

    def __init__(self, *lines):
        super().__init__(lines[0])
        self.result = make_result(False, None, lines)


def close(a, b):
    return a.shape == b.shape and np.allclose(a, b, rtol=_RTOL, atol=_ATOL)


def see(key):
    *first, last = [f'"{section}"' for section in _SECTIONS[key]]
    return f"See the lesson: {', '.join(first)}{' and ' * bool(first)}{last}."


def run_case(name, fn, case, time_limit=None):
    """``(args, value, answer)`` for one case, or raise Stop saying what failed.

    ``fn`` runs under ``time_limit`` seconds (default
    :data:`~posenc_lib.exercise._time_limit.TIME_LIMIT`); whatever it raises,
    ``SystemExit`` and ``KeyboardInterrupt`` included, becomes a Stop.
    """
    args = copy.deepcopy(case.args)  # the learner may modify what it is given
    outcome = guarded_call(fn, args, time_limit)
    if outcome.error is not None:
        raise Stop(*_call_failed(name, case, outcome.error))
    value = outcome.value
    shape = case.expected.shape
    answer, why = coerce_answer(value, shape, time_limit)
    if why is not None:
        raise Stop(
            f"{name}: your function returned the wrong kind of answer.",
            f"Tried:    {case.call}",
            f"Expected: {case.expected.size} numbers, shape {shape}",
            f"Got:      {why}",
            *_shape_hint(value, shape),
            see(name),
        )
    return args, value, answer


def _call_failed(name, case, error):
    """The lines of a result for a call that raised ``error`` or timed out."""
    if isinstance(error, NotImplementedError):
        text = why(error)
        return (
            f"{name}: not implemented yet.",
            f"Calling {case.call} raised {text}.",
            "Replace the `raise NotImplementedError` line with your code, "
            "then run this check again.",
        )
    if isinstance(error, TimeLimitExceeded):
        headline = f"{name}: your function did not finish in time."
    else:
        headline = f"{name}: your function raised an error."
    return (
        headline,
        f"Tried:    {case.call}",
        f"Expected: {show(case.expected)}",
        f"Got:      {why(error)}",
        see(name),
    )


def _shape_hint(value, shape):
    if not isinstance(value, list | tuple | np.ndarray):
        return []
    outcome = guarded_call(np.shape, (value,))  # ragged lists
    if outcome.error is not None:
        return []
    got = outcome.value
    if len(shape) == 2 and got == shape[::-1]:
        return ["It looks transposed: one row per position is wanted."]
    return []


def make_result(passed, mistake, lines):
    return CheckResult(passed, mistake, "\n".join(lines))


def show(array):
    if np.ndim(array) == 2:
        return f"[{' '.join(show(row) for row in array)}]"
    return f"[{format_numbers(array)}]"


def _first_difference(case, answer, what):
    """Lines showing where ``answer`` and ``case.expected`` first differ."""
    expected = case.expected
    lines = [f"Tried:    {case.call}"]
    if expected.ndim == 2:
        row = int(np.flatnonzero(~np.isclose(answer, expected, _RTOL, _ATOL))[0])
        row //= expected.shape[1]
        lines.append(f"Row {row} of {what}:")
        expected, answer = expected[row], answer[row]
    columns = np.flatnonzero(~np.isclose(answer, expected, _RTOL, _ATOL))
    return [
        *lines,
        f"Expected: {show(expected)}",
        f"Got:      {show(answer)}",
        f"Columns that differ: {', '.join(str(c) for c in columns)}.",
    ]


def diagnose(name, cases, answers, candidates, *, example=1, hints=()):
    """Compare the answers with the right ones, then with each mistake's.

    ``candidates`` maps a mistake id (or a sentence describing a wrong answer
    that is not one of the ids) to that mistake's answers on ``cases``.
    """
    wrong = [i for i, case in enumerate(cases) if not close(answers[i], case.expected)]
    if not wrong:
        shown = cases[example]
        return make_result(
            True,
            None,
            [
                f"{name}: passed all {len(cases)} cases.",
                f"For example {shown.call} = {show(shown.expected)}.",
            ],
        )
    where = _first_difference(cases[wrong[0]], answers[wrong[0]], "the answer")
    for mistake, outputs in candidates.items():
        if all(close(a, b) for a, b in zip(answers, outputs, strict=True)):
            return mistake_result(name, mistake, where)
    return make_result(
        False,
        None,
        [
            f"{name}: not right yet ({len(wrong)} of {len(cases)} cases differ); "
            "it matches none of the common mistakes.",
            *where,
            *hints,
            see(name),
        ],
    )


def mistake_result(name, mistake, where):
    if mistake in MISTAKES:
        explain = [
            DESCRIPTION[mistake],
            f"  wrong: {WRONG_LINE[mistake]}",
            f"  right: {RIGHT_LINE[mistake]}",
            see(mistake),
        ]
        headline = f"{name}: not right yet; this is the mistake '{mistake}'."
        return make_result(False, mistake, [headline, *where, *explain])
    return make_result(
        False, None, [f"{name}: not right yet.", *where, mistake, see(name)]
    )
