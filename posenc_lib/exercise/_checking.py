"""How a checker judges: :func:`read_case` reads one call's report or stops the
check; :func:`diagnose` compares the answers with the right ones, then with other
layouts, rounding, the lesson's mistakes and the usual bugs (:data:`BUGS`). The
rules every judge applies (the checkers, the grader, ``run_commands``) are here
once: :func:`imported`, :func:`dtype_problem`, :func:`rounding_problem`, then
:func:`type_problem`.
"""

import html
from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from ..conventions import USED_BY
from ..formatting import format_number, format_numbers
from ..mistakes import CHAPTER, MISTAKES
from ..positional import frequencies, sinusoidal_positions
from .reports import read_report, why

RTOL = ATOL = 1e-6
TOLERANCE = "rtol = atol = 1e-6"
# bound at import: a learner's later ``np.allclose = lambda *a, **k: True`` is ignored
_allclose, _isclose = np.allclose, np.isclose

# Where each topic is taught: (notebook, section), a "## " heading up to its colon
_01, _02 = "01_embeddings.ipynb", "02_sinusoidal_encoding.ipynb"
_FORMULA, _COPY = (_02, "The formula"), (_01, "The lookup returns a copy")
SECTIONS = {
    **{m.id: (m.taught, (CHAPTER, m.section)) for m in MISTAKES.values()},
    "pos_encoding": (_FORMULA, (_02, "The worked trace")),
    "sinusoidal_positions": (_FORMULA, (_02, "The exercise card's two examples")),
    "lookup": ((_01, "The table"), _COPY),
}


@dataclass(frozen=True)
class CheckResult:
    """The verdict of a checker.

    Attributes
    ----------
    passed : bool
    mistake, convention : str or None
        The id of the common mistake the answers match, or of another
        library's valid layout the answer follows (default None), if any.
    message : str
        Its first line says what is wrong, the next ones show it.

    Examples
    --------
    >>> CheckResult(False, "sine-only", "pos_encoding: sine-only.")
    CheckResult(passed=False, mistake='sine-only')
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
        """A box whose colour says passed, not written yet or failed."""
        headline, _, details = self.message.partition("\n")
        todo = "not implemented yet" in headline
        colour = "#2e7d32" if self.passed else "#757575" if todo else "#c62828"
        body = f"<pre style='margin: 0.4em 0 0'>{html.escape(details)}</pre>"
        return (
            f"<div style='border-left: 4px solid {colour}; padding: 0.3em 0.8em'>"
            f"<strong>{html.escape(headline)}</strong>{body if details else ''}</div>"
        )


Case = namedtuple("Case", "args call expected")  # call: "pos_encoding(3, 4)"


def failed(*lines, mistake=None):
    """A failed CheckResult whose message is ``lines``."""
    return CheckResult(False, mistake, "\n".join(lines))


class Stop(Exception):
    """Carries a failed CheckResult out of the case loop, and ``desc``, the value
    returned, if any."""

    def __init__(self, *lines, desc=None):
        super().__init__(lines[0])
        self.result, self.desc = failed(*lines), desc


def imported(task, module, name):
    """Why the function (its ``__module__`` and ``__name__``) is not the
    learner's but the library's own ``task``; else None."""
    library = isinstance(module, str) and module.split(".")[0] == "posenc_lib"
    if not library or name != task:
        return None
    return f"this is posenc_lib's own {task}, imported, not one written in the notebook"


def dtype_problem(desc):
    """``(reason, why)`` if an answer (described) holds integers or float16."""
    dtype = str(desc.get("dtype", ""))
    if dtype.startswith(("int", "uint")):
        return (
            f"your function returns integers (dtype {dtype})",
            "Integers keep nothing after the decimal point (0.8415 becomes 0): "
            "return floats.",
        )
    if dtype == "float16":
        return (
            "your function returns float16 numbers",
            "float16 keeps about 3 decimals: return float64 (float32 passes too).",
        )
    return None


def type_problem(desc):
    """``(reason, why)`` if an answer (described) is not a numpy array, else None."""
    if desc.get("array"):
        return None
    return (
        f"your function returns a {desc['type']}, not a numpy array",
        "The next step adds a row and an encoding, and Python's + joins lists and "
        "tuples instead of adding their numbers: return a numpy array.",
    )


def rounding_problem(answers, expected):
    """``(reason, why)`` if the answers are the expected ones rounded to 1 to 6
    decimals (and not within the tolerance), else None."""
    pairs = list(zip(answers, expected, strict=True))
    if all(close(a, e) for a, e in pairs):
        return None
    for n in range(1, 7):
        if all(_allclose(a, np.round(e, n), rtol=0, atol=1e-7) for a, e in pairs):
            why = f"Return them unrounded: the check compares within {TOLERANCE}."
            return f"your function returns values rounded to {n} decimals", why
    return None


def close(a, b):
    return a.shape == b.shape and bool(_allclose(a, b, rtol=RTOL, atol=ATOL))


def see(key):
    """Where the course teaches ``key``: 'See chapter 02: "The formula"; ...'."""
    chapters = {}
    for notebook, section in SECTIONS[key]:
        chapters.setdefault(notebook[:2], []).append(f'"{section}"')
    places = [f"chapter {n}: {', '.join(titles)}" for n, titles in chapters.items()]
    return f"See {'; '.join(places)}."


def show(array, decimals=4):
    if np.ndim(array) == 2:
        return f"[{' '.join(show(row, decimals) for row in array)}]"
    if decimals == 4:
        return f"[{format_numbers(array)}]"
    return f"[{' '.join(f'{x:.{decimals}f}' for x in np.ravel(array))}]"


def read_case(name, case, report):
    """``(answer, value description)`` of one case, or raise Stop saying why not."""
    answer, problem = read_report(report, case.expected.shape)
    tried, shape = f"Tried:    {case.call}", case.expected.shape
    if problem is None:
        dtype = dtype_problem(report["value"])
        if dtype is None:
            return answer, report["value"]
        raise Stop(f"{name}: not right yet; {dtype[0]}.", tried, dtype[1], see(name))
    kind, detail = problem
    if kind == "error" and "NotImplementedError" in detail.get("classes", ()):
        raise Stop(
            f"{name}: not implemented yet.",
            f"Calling {case.call} raised {why(detail)}.",
            "Replace the `raise NotImplementedError` line with your code, then run "
            "this check again.",
        )
    if kind == "ended":
        raise Stop(
            f"{name}: your function ended the process running the check ({detail}) "
            "instead of returning an answer.",
            "Return the answer; do not end the program. (The check ran in a copy "
            "of this process, which is unharmed.)",
            see(name),
        )
    if kind != "answer":
        got = f"Got:      {why(detail) if kind == 'error' else detail}"
        did = "raised an error" if kind == "error" else "did not finish in time"
        headline = f"{name}: your function {did}."
        raise Stop(headline, tried, f"Expected: {show(case.expected)}", got, see(name))
    transposed = len(shape) == 2 and detail.endswith(f"of shape {shape[::-1]}")
    raise Stop(
        f"{name}: your function returned the wrong kind of answer.",
        tried,
        f"Expected: {case.expected.size} numbers, shape {shape}",
        f"Got:      {detail}",
        *(["It looks transposed: one row per position is wanted."] * transposed),
        see(name),
        desc=report.get("value"),
    )


def first_difference(case, answer, angle=False):
    """Lines showing where ``answer`` and ``case.expected`` first differ (with 8
    decimals where 4 would print the same numbers); with ``angle``, the first
    pair that differs: the angle expected and the learner's (``arctan2`` of
    their columns, within half a turn of the expected one), or that their two
    numbers are off the unit circle."""
    expected, pos, row = case.expected, case.args[0], None
    if expected.ndim == 2:  # the first row that differs
        row = int(np.flatnonzero(~_isclose(answer, expected, RTOL, ATOL))[0])
        row //= expected.shape[1]
        expected, answer, pos = expected[row], answer[row], pos[row]
    columns = np.flatnonzero(~_isclose(answer, expected, RTOL, ATOL))
    decimals = 4 if show(expected) != show(answer) else 8
    lines = [
        f"Tried:    {case.call}",
        *([] if row is None else [f"Row {row} of the answer:"]),
        f"Expected: {show(expected, decimals)}",
        f"Got:      {show(answer, decimals)}",
        f"Columns that differ (by more than {TOLERANCE}): "
        f"{', '.join(str(c) for c in columns)}.",
    ]
    if not angle:
        return lines
    pair, d = int(columns[0]) // 2, expected.shape[0]
    angle = pos * frequencies(d)[pair]
    sine, cosine = answer[2 * pair], answer[2 * pair + 1]
    pairs = f"columns {2 * pair} and {2 * pair + 1}"
    lines += [
        f"First difference: column {columns[0]}, in pair {pair} ({pairs}).",
        f"  Expected angle: {pos} / 10000 ** (2 * {pair} / {d}) = "
        f"{format_number(angle)} rad",
    ]
    radius = sine**2 + cosine**2
    if not _isclose(radius, 1.0, rtol=0, atol=1e-4):
        sums = f"sin^2 + cos^2 = {format_number(radius)}, not 1"
        yours = f"  Your columns ({format_number(sine)}, {format_number(cosine)})"
        return [*lines, f"{yours} are not the sine and cosine of one angle: {sums}."]
    turn = np.arctan2(sine, cosine) - angle
    got = angle + (turn + np.pi) % (2 * np.pi) - np.pi  # nearest the expected one
    how = f"(arctan2 of {pairs}, up to whole turns)"
    return [*lines, f"  Your angle:     {format_number(got)} rad {how}"]


def diagnose(name, cases, answers, descs, candidates, *, conventions=None):
    """Compare the answers with the right ones, then with another library's
    layout (``conventions``: id -> its answers), rounding, and each of
    ``candidates`` (a mistake id or a usual bug, -> its answers on ``cases``).
    """
    wrong = [i for i, case in enumerate(cases) if not close(answers[i], case.expected)]
    listed = [(c, type_problem(d)) for c, d in zip(cases, descs, strict=True)]
    listed = [(case, problem) for case, problem in listed if problem]
    if not wrong and listed:  # the right numbers, in a list or a tuple
        case, (reason, why) = listed[0]
        tried = f"Tried:    {case.call}"
        return failed(f"{name}: not right yet; {reason}.", tried, why, see(name))
    if not wrong:
        shown = cases[1 if name == "pos_encoding" else 0]
        example = f"For example {shown.call} = {show(shown.expected)}."
        return CheckResult(
            True, None, f"{name}: passed all {len(cases)} cases.\n{example}"
        )
    first = cases[wrong[0]], answers[wrong[0]]
    where = first_difference(*first)
    matches = lambda outputs: all(map(close, answers, outputs))  # noqa: E731
    for convention, outputs in (conventions or {}).items():
        if matches(outputs):
            return _convention_result(name, convention, where)
    rounded = rounding_problem(answers, [case.expected for case in cases])
    if rounded is not None:
        return failed(
            f"{name}: not right yet; {rounded[0]}.", *where, rounded[1], see(name)
        )
    for mistake, outputs in candidates.items():
        if matches(outputs):
            return mistake_result(name, mistake, where)
    where = first_difference(*first, angle=name != "lookup")
    if name == "lookup":  # another row of the table?
        (table, token_id), answer = first[0].args, first[1]
        rows = [j for j, row in enumerate(table) if close(answer, row)]
        if rows and rows[0] != token_id:
            where.append(
                f"That is row {rows[0]} of the table; row {token_id} was asked for."
            )
    headline = (
        f"{name}: not right yet ({len(wrong)} of {len(cases)} cases differ); "
        "it matches none of the common mistakes."
    )
    return failed(headline, *where, see(name))


def mistake_result(name, mistake, where):
    """A failed result naming ``mistake``, a lesson's mistake or a usual bug."""
    if mistake in MISTAKES:
        record = MISTAKES[mistake]
        headline = f"{name}: not right yet; this is the mistake '{mistake}'."
        probably = f"Your code probably has: {record.wrong_line}"
        lines = [headline, *where, record.explanation, probably, see(mistake)]
        return failed(*lines, mistake=mistake)
    bug = BUGS[mistake]
    return failed(f"{name}: not right yet; {bug.what}.", *where, bug.lines, see(name))


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


def _convention_result(name, convention, where):
    """A failed result for an answer in another library's valid ``convention``."""
    lines = [
        f"{name}: not the exercise's layout yet; your answer follows the "
        f"'{convention}' convention.",
        *where,
        f"That is a valid convention, used by {USED_BY[convention]}.",
        "The exercise asks for the interleaved one: sin(angle) in column 2*pair and "
        "cos(angle) in column 2*pair + 1.",
        _CHANGE[convention],
        see(name),
    ]
    return CheckResult(False, None, "\n".join(lines), convention=convention)


#: a usual bug: what its answer looks like, what went wrong, and its answers
#: ``rows(positions, d)``, (n, d), computed with the library's functions
Bug = namedtuple("Bug", "what lines rows")


def _interleaved(angle):
    """sin and cos of each angle side by side, (n, d/2) -> (n, d)."""
    return np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(len(angle), -1)


#: id -> :class:`Bug`, in the order they are tried
BUGS = {
    "positions-ignored": Bug(
        "the positions given were ignored: row k is PE[k]",
        "Your rows are the encodings of 0, 1, ..., n - 1 (range(len(positions))), "
        "whatever positions holds.\nRow k must be PE[positions[k]]: compute the "
        "angles from the positions themselves.",
        lambda ps, d: sinusoidal_positions(range(len(ps)), d),
    ),
    "positions-sorted": Bug(
        "the positions were sorted first",
        "Your rows are the encodings of sorted(positions).\nRow k must be "
        "PE[positions[k]], in the order given (the card: positions come in any "
        "order, repeats allowed).",
        lambda ps, d: sinusoidal_positions(sorted(ps), d),
    ),
    "off-by-one": Bug(
        "it looks off by one: your answer for position p is PE[p + 1]",
        "Positions count from 0: the first token is at position 0, and PE[0] is "
        "[0, 1, 0, 1, ...].\nUse the position as given; do not add 1 to it.",
        lambda ps, d: sinusoidal_positions([p + 1 for p in ps], d),
    ),
    "multiplied": Bug(
        "it looks like multiply instead of divide",
        "Your angles are pos * 10000 ** (2 * pair / d): they grow with the pair, so "
        "the later pairs turn fastest.\nIn the formula the position is divided by "
        "10000 ** (2 * pair / d), so the later pairs turn slowest.",
        lambda ps, d: _interleaved(np.outer(ps, 1 / frequencies(d))),
    ),
    "degrees": Bug(
        "it looks like the angle was read as degrees",
        "Your sines and cosines are those of angle * pi / 180, as if the angle were "
        "in degrees (math.radians(angle), or a calculator in DEG mode).\nThe "
        "formula's angle is already in radians, which is what np.sin, np.cos, "
        "math.sin and math.cos take: pass it as it is.",
        lambda ps, d: _interleaved(np.radians(np.outer(ps, frequencies(d)))),
    ),
}
#: the ids of the bugs ``sinusoidal_positions`` and ``pos_encoding`` can make
SINUSOIDAL_POSITIONS_BUGS = tuple(BUGS)
POS_ENCODING_BUGS = SINUSOIDAL_POSITIONS_BUGS[2:]  # its positions are one number
