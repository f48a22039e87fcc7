"""How a checker judges a learner's function: run it on cases, compare, explain.

Private to :mod:`posenc_lib.exercise`, which holds the banks of cases and the
public checkers. A checker runs the learner's function on every case with
:func:`run_case` (a crash, a stub or an answer of the wrong shape stops it with a
:class:`Stop` carrying the finished result), then :func:`diagnose` compares the
answers with the right ones and, if they differ, with each mistake's answers.
An answer that follows another library's valid layout is told so
(:func:`convention_result`) instead of being diagnosed. Answers count as equal
within ``rtol = atol = 1e-6``: a float32 answer passes, and every mistake is
off by far more on at least one case.
"""

import copy
import html
from dataclasses import dataclass

import numpy as np

from ..conventions import USED_BY
from ..formatting import format_number, format_numbers
from ..mistakes import DESCRIPTION, MISTAKES, RIGHT_LINE, WRONG_LINE
from ..positional import frequencies
from .guard import TimeLimitExceeded, guarded_call, why

__all__ = [
    "Case",
    "CheckResult",
    "Stop",
    "close",
    "coerce_answer",
    "convention_result",
    "diagnose",
    "first_difference",
    "make_result",
    "mistake_result",
    "run_case",
    "see",
    "show",
    "split_notes",
]

_RTOL = _ATOL = 1e-6  # float32 answers pass; every mistake is off by far more
# Bound at import: a learner's ``np.allclose = lambda *a, **k: True`` later on
# does not change how the checker compares.
_allclose, _isclose = np.allclose, np.isclose
_MAX_ITEMS = 10_000  # a list or tuple longer than this is refused before reading

# Where each topic is taught: (notebook, section), the section being a "## "
# heading of that notebook or its part before a colon (tests check they exist).
_FORMULA = ("02_sinusoidal_encoding.ipynb", "The formula")
_TRACE = ("02_sinusoidal_encoding.ipynb", "The worked trace")
_COPY = ("01_embeddings.ipynb", "The lookup returns a copy")
_MISTAKES_04 = "05_common_mistakes.ipynb"
_SECTIONS = {
    "k-instead-of-pair": (_FORMULA, (_MISTAKES_04, "1. `k-instead-of-pair`")),
    "swapped-sin-cos": (
        ("02_sinusoidal_encoding.ipynb", "Position 0"),
        (_MISTAKES_04, "2. `swapped-sin-cos`"),
    ),
    "sine-only": (_FORMULA, (_MISTAKES_04, "3. `sine-only`")),
    "integer-division": (_FORMULA, (_MISTAKES_04, "4. `integer-division`")),
    "integer-power": (_FORMULA, (_MISTAKES_04, "5. `integer-power`")),
    "added-to-table": (_COPY, (_MISTAKES_04, "6. `added-to-table`")),
    "pos_encoding": (_FORMULA, _TRACE),
    "sinusoidal_positions": (
        _FORMULA,
        ("02_sinusoidal_encoding.ipynb", "The exercise card's two examples"),
    ),
    "lookup": (("01_embeddings.ipynb", "The table"), _COPY),
}

_COLOURS = {
    "passed": "#2e7d32",
    "todo": "#757575",
    "failed": "#c62828",
    "note": "#1565c0",
}


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


def _too_long(value, shape):
    """What is far too long in ``value`` (a list or tuple, or one of its items),
    else None: such an answer is refused before it is formatted or read."""
    if not isinstance(value, list | tuple):
        return None
    limit = max(_MAX_ITEMS, *shape)
    kind = type(value).__name__
    if len(value) > limit:
        return f"a {kind} holding {len(value)} items"
    for index, item in enumerate(value[:limit]):
        if isinstance(item, list | tuple) and len(item) > limit:
            return f"a {kind} whose item {index} holds {len(item)} items"
    return None


def _start_repr(value):
    """``repr(value)``, of only the first 30 items of a long list or tuple (the
    message shows 70 characters)."""
    if isinstance(value, list | tuple) and len(value) > 30:
        text = repr(value[:30])
        return f"{text[:-1]}, ...{text[-1]}"
    return repr(value)


def _coerce(value, shape):
    if value is None:
        return None, "None (is a `return` missing?)"
    too_long = _too_long(value, shape)
    if too_long is not None:
        return None, f"{too_long}, far more than shape {shape} holds"
    text = " ".join(_start_repr(value).split())  # one line, even for an array
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
    convention : str or None, default None
        When the answer is a valid layout of real libraries other than the
        exercise's: its id in :data:`posenc_lib.conventions.CONVENTIONS`
        (``"concat"``, ``"cos-first"`` or ``"tensor2tensor"``). Not a mistake,
        but not what the exercise asks for either.

    Examples
    --------
    >>> result = CheckResult(False, "sine-only", "pos_encoding: sine-only.")
    >>> result
    CheckResult(passed=False, mistake='sine-only')
    >>> print(result)
    pos_encoding: sine-only.
    >>> CheckResult(False, None, "...", convention="concat")
    CheckResult(passed=False, mistake=None, convention='concat')
    """

    passed: bool
    mistake: str | None
    message: str
    convention: str | None = None

    def __str__(self):
        return self.message

    def __repr__(self):
        extra = "" if self.convention is None else f", convention={self.convention!r}"
        return f"CheckResult(passed={self.passed}, mistake={self.mistake!r}{extra})"

    def _repr_html_(self):
        verdict, notes = split_notes(self.message)
        return _verdict_html(verdict, self.passed) + "".join(map(_note_html, notes))


def split_notes(message):
    """``(verdict, notes)``: the lines of ``message`` starting ``Note:`` apart.

    A note is said about an answer, not part of its verdict (a passing answer
    may carry one); notebooks show it in its own block.

    Examples
    --------
    >>> split_notes("f: passed all 2 cases.\\n\\nNote: f(-1) wraps.")
    ('f: passed all 2 cases.', ['Note: f(-1) wraps.'])
    """
    lines = message.split("\n")
    notes = [line for line in lines if line.startswith("Note:")]
    verdict = "\n".join(line for line in lines if not line.startswith("Note:"))
    return verdict.rstrip("\n"), notes


def _verdict_html(verdict, passed):
    """The verdict as a box whose colour says passed, not written yet or failed."""
    headline, _, details = verdict.partition("\n")
    todo = "not implemented yet" in headline
    colour = _COLOURS["passed" if passed else "todo" if todo else "failed"]
    body = f"<pre style='margin: 0.4em 0 0'>{html.escape(details)}</pre>"
    return (
        f"<div style='border-left: 4px solid {colour}; padding: 0.3em 0.8em'>"
        f"<strong>{html.escape(headline)}</strong>{body if details else ''}</div>"
    )


def _note_html(note):
    """One note as its own block, below the verdict and outside it."""
    text = html.escape(note.removeprefix("Note:").strip())
    return (
        f"<div style='border-left: 4px solid {_COLOURS['note']}; "
        "padding: 0.3em 0.8em; margin-top: 0.5em'>"
        f"<strong>Note</strong><div style='margin: 0.3em 0 0'>{text}</div></div>"
    )


@dataclass(frozen=True)
class Case:
    args: tuple
    call: str  # how the call reads, e.g. "pos_encoding(3, 4)"
    expected: np.ndarray


class Stop(Exception):
    """Carries a failed CheckResult (no mistake named) out of the case loop."""

    def __init__(self, *lines, value=None):
        super().__init__(lines[0])
        self.result = make_result(False, None, lines)
        self.value = value  # what the function returned, if it returned


def close(a, b):
    return a.shape == b.shape and bool(_allclose(a, b, rtol=_RTOL, atol=_ATOL))


def see(key):
    """Where the course teaches ``key``: sections of the chapters' notebooks.

    Examples
    --------
    >>> see("integer-division")
    'See chapter 02: "The formula"; chapter 04: "4. `integer-division`".'
    >>> see("pos_encoding")
    'See chapter 02: "The formula", "The worked trace".'
    """
    chapters = {}
    for notebook, section in _SECTIONS[key]:
        chapters.setdefault(notebook[:2], []).append(f'"{section}"')
    places = [f"chapter {n}: {', '.join(titles)}" for n, titles in chapters.items()]
    return f"See {'; '.join(places)}."


def run_case(name, fn, case, time_limit=None):
    """``(args, value, answer)`` for one case, or raise Stop saying what failed.

    ``fn`` runs under ``time_limit`` seconds (default
    :data:`~posenc_lib.exercise.guard.TIME_LIMIT`); whatever it raises,
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
            value=value,
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
    if not isinstance(value, list | tuple | np.ndarray) or _too_long(value, shape):
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


def first_difference(case, answer, what="the answer"):
    """Lines showing where ``answer`` and ``case.expected`` first differ."""
    expected = case.expected
    lines = [f"Tried:    {case.call}"]
    if expected.ndim == 2:
        row = int(np.flatnonzero(~_isclose(answer, expected, _RTOL, _ATOL))[0])
        row //= expected.shape[1]
        lines.append(f"Row {row} of {what}:")
        expected, answer = expected[row], answer[row]
    columns = np.flatnonzero(~_isclose(answer, expected, _RTOL, _ATOL))
    return [
        *lines,
        f"Expected: {show(expected)}",
        f"Got:      {show(answer)}",
        f"Columns that differ: {', '.join(str(c) for c in columns)}.",
    ]


_ENCODINGS = ("pos_encoding", "sinusoidal_positions")  # answers made of (sin, cos)


def _angle_report(name, case, answer):
    """For an encoding: the first pair that differs, the angle expected and got.

    The learner's angle is recovered from their (sin, cos) columns with
    ``arctan2``, taken within half a turn of the expected one; if the two
    numbers are not on the unit circle, no angle gives them, and that is said.
    """
    if name not in _ENCODINGS:
        return []
    expected, pos = case.expected, case.args[0]
    if expected.ndim == 2:
        row = int(np.flatnonzero(~_isclose(answer, expected, _RTOL, _ATOL))[0])
        row //= expected.shape[1]
        expected, answer, pos = expected[row], answer[row], pos[row]
    column = int(np.flatnonzero(~_isclose(answer, expected, _RTOL, _ATOL))[0])
    pair, d = column // 2, expected.shape[0]
    angle = pos * frequencies(d)[pair]
    sine, cosine = answer[2 * pair], answer[2 * pair + 1]
    lines = [
        f"First difference: column {column}, in pair {pair} "
        f"(columns {2 * pair} and {2 * pair + 1}).",
        f"  Expected angle: {pos} / 10000 ** (2 * {pair} / {d}) = "
        f"{format_number(angle)} rad",
    ]
    radius = sine**2 + cosine**2
    if not _isclose(radius, 1.0, rtol=0, atol=1e-4):
        return [
            *lines,
            f"  Your columns ({format_number(sine)}, {format_number(cosine)}) are not "
            f"the sine and cosine of one angle: sin^2 + cos^2 = "
            f"{format_number(radius)}, not 1.",
        ]
    turn = np.arctan2(sine, cosine) - angle
    got = angle + (turn + np.pi) % (2 * np.pi) - np.pi  # nearest the expected one
    return [
        *lines,
        f"  Your angle:     {format_number(got)} rad "
        f"(arctan2 of columns {2 * pair} and {2 * pair + 1}, up to whole turns)",
    ]


def diagnose(name, cases, answers, candidates, *, example=1, hints=()):
    """Compare the answers with the right ones, then with each mistake's.

    ``candidates`` maps a mistake id (or a usual bug: a pair ``(what, lines)``
    naming a wrong answer that is not one of the ids, and how to fix it) to
    that mistake's answers on ``cases``.
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
    where = first_difference(cases[wrong[0]], answers[wrong[0]])
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
            *_angle_report(name, cases[wrong[0]], answers[wrong[0]]),
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
    if isinstance(mistake, tuple):  # a usual bug, not one of the lesson's
        what, explain = mistake
        headline = f"{name}: not right yet; {what}."
        return make_result(False, None, [headline, *where, *explain, see(name)])
    return make_result(
        False, None, [f"{name}: not right yet.", *where, mistake, see(name)]
    )


_HOW_TO_INTERLEAVE = (
    "The exercise asks for the interleaved one: sin(angle) in column 2*pair and "
    "cos(angle) in column 2*pair + 1."
)

_CHANGE = {
    "concat": "To change: write each pair's sine and cosine side by side "
    "(columns 2*pair and 2*pair + 1) instead of concatenating all sines, then all "
    "cosines.",
    "cos-first": "To change: the sine comes first in each pair; write sin(angle) "
    "and cos(angle) side by side (columns 2*pair and 2*pair + 1) instead of "
    "[cos | sin] halves.",
    "tensor2tensor": "To change: use the exponent 2 * pair / d (yours is "
    "pair / (d/2 - 1)), and write sin and cos side by side (columns 2*pair and "
    "2*pair + 1) instead of [sin | cos] halves.",
}


def convention_result(name, convention, where):
    """A failed result for an answer in another library's valid ``convention``."""
    lines = [
        f"{name}: not the exercise's layout yet; your answer follows the "
        f"'{convention}' convention.",
        *where,
        f"That is a valid convention, used by {USED_BY[convention]}.",
        _HOW_TO_INTERLEAVE,
        _CHANGE[convention],
        see(name),
    ]
    return CheckResult(False, None, "\n".join(lines), convention=convention)
