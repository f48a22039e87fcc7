"""Checkers for the exercise: run your function and name the mistake it makes.

Each checker calls your function on a bank of cases, compares every answer with
the library's (:func:`posenc_lib.lookup`, :func:`posenc_lib.pos_encoding`,
:func:`posenc_lib.sinusoidal_positions`) and, when they differ, with each of the
lesson's common mistakes (:mod:`posenc_lib.mistakes`). The bank is chosen so
that every mistake gives a different answer from every other and from the right
one: width 6, for example, is where ``integer-power`` (divisor 21 instead of
21.5443) parts from the right answer, while ``integer-division`` parts from it
at any position > 0.

Before saying an answer matches none of the common mistakes, the checkers try
the usual bugs outside the lesson's list (:mod:`._usual_bugs`: positions
ignored or sorted, off by one, multiply instead of divide, degrees) and a
``lookup`` that returns a column, and name what they find.

``pos_encoding`` may return a list, a tuple or a numpy array: the lesson writes
``PE[3]`` as four numbers and the starter reads any of them. ``lookup`` and
``sinusoidal_positions`` must return an array: the lesson's next step adds the
encoding to the looked-up row (``+`` joins two lists instead of adding them),
and the exercise card asks for "a float array of shape (len(positions),
d_model)"; their messages say so. If it raises, the
error's type and message are reported, never raised through (``sys.exit()`` and
``KeyboardInterrupt`` included); a stub that raises ``NotImplementedError`` is
reported as "not implemented yet". Each call has a time limit (default 5 s): an
endless loop is reported as "did not finish in time", not waited for. Each check
runs in a forked copy of your process (:mod:`._isolation`), so nothing your
function does (turn off the alarm, end the process with ``os._exit``) can hang
or kill the caller, a notebook kernel included; what it prints is shown.
``isolated=False`` runs the check in the calling process instead: for a
function that is not a learner's code, such as the grader's replay of one
(the grader, ``posenc_tools.grading``).

API
---
``check_pos_encoding(fn)``
    ``fn(pos, d)`` should return ``PE[pos]``, shape (d,).
``check_lookup(fn)``
    ``fn(table, token_id)`` should return a copy of row ``token_id``, shape (d,).
``check_sinusoidal_positions(fn)``
    ``fn(positions, d_model)`` should return shape (len(positions), d_model).
``CheckResult``
    What each returns: ``.passed`` (bool), ``.mistake`` (an id of
    :data:`posenc_lib.mistakes.MISTAKES` or ``None``), ``.message`` (for a
    person: what was tried, expected and returned, the mistake it matches and
    where in the lesson to look) and ``.convention`` (set when the answer is
    another library's valid layout, such as ``[sin | cos]`` halves: not a
    mistake, but not the exercise's layout). ``str(result)`` is the message; a
    notebook shows it as a coloured box.
"""

import numpy as np

from ..conventions import encoding_table
from ..embedding import lookup as _right_lookup
from ..mistakes import MISTAKES, POS_ENCODING_MISTAKES
from ..positional import pos_encoding as _right_pos_encoding
from ..positional import sinusoidal_positions as _right_sinusoidal_positions
from ..validation import describe
from ._checking import (
    Case,
    CheckResult,
    Stop,
    close,
    coerce_answer,
    convention_result,
    diagnose,
    first_difference,
    make_result,
    mistake_result,
    run_case,
    see,
    show,
)
from ._isolation import judged, run_check
from ._usual_bugs import POS_ENCODING_BUGS, SINUSOIDAL_POSITIONS_BUGS, rows_for
from .guard import guarded_call, why

__all__ = [
    "CheckResult",
    "check_lookup",
    "check_pos_encoding",
    "check_sinusoidal_positions",
]

_OTHER_CONVENTIONS = ("concat", "cos-first", "tensor2tensor")  # valid, not asked for


def _convention(cases, answers, table_of):
    """The other library convention every answer follows, or None.

    ``table_of(convention, case)`` is that convention's answer to ``case``.
    """
    for convention in _OTHER_CONVENTIONS:
        if all(
            close(answer, table_of(convention, case))
            for case, answer in zip(cases, answers, strict=True)
        ):
            return convention
    return None


def _judge(name, cases, answers, candidates, table_of, **options):
    """Another library's convention first (not a mistake), then ``diagnose``."""
    convention = _convention(cases, answers, table_of)
    if convention is None:
        return diagnose(name, cases, answers, candidates, **options)
    wrong = next(
        i for i, case in enumerate(cases) if not close(answers[i], case.expected)
    )
    return convention_result(
        name, convention, first_difference(cases[wrong], answers[wrong])
    )


def _convention_row(convention, case):
    pos, d = case.args
    return encoding_table(convention, [pos], d)[0]  # (d,)


def _convention_table(convention, case):
    return encoding_table(convention, *case.args)  # (n, d_model)


def _run(name, check, fn, time_limit, isolated):
    _check_callable(fn)
    if not isinstance(isolated, bool):
        raise TypeError(f"isolated == {describe(isolated)}, must be True or False.")
    if isolated:
        return run_check(name, check, fn, time_limit)
    return judged(name, check, fn, time_limit)


def _not_an_array(name, case, value, why):
    """A failed result: right numbers, but a list or tuple where an array is due."""
    kind = type(value).__name__
    return make_result(
        False,
        None,
        [
            f"{name}: not right yet; your function returns a {kind}, not an array.",
            f"Tried:    {case.call}",
            f"Got:      the right numbers, as a {kind}",
            why,
            see(name),
        ],
    )


def _array_due(name, cases, values, why):
    """The result for the first list or tuple among ``values``, or None."""
    for case, value in zip(cases, values, strict=True):
        if not isinstance(value, np.ndarray):
            return _not_an_array(name, case, value, why)
    return None


def _check_callable(fn):
    if not callable(fn):
        raise TypeError(f"fn == {describe(fn)}, must be a function: yours, to check.")


def _pos_encoding_cases():
    pairs = [(0, 4), (3, 4), (2, 2), (1, 6), (10, 6), (7, 8), (50, 16)]
    return [
        Case((pos, d), f"pos_encoding({pos}, {d})", _right_pos_encoding(pos, d))
        for pos, d in pairs
    ]


def check_pos_encoding(fn, *, time_limit=None, isolated=True):
    """Check a learner's ``pos_encoding(pos, d)`` and name the mistake it makes.

    Parameters
    ----------
    fn : callable
        ``fn(pos, d)`` returning ``PE[pos]`` as d numbers (list, tuple or array).
    time_limit : float, optional
        Seconds each call of ``fn`` may take, default 5; a call that runs
        longer (an endless loop) is reported as such.
    isolated : bool, default True
        Run the check in a forked copy of this process (False: in this one,
        for a function that is not a learner's own code).

    Returns
    -------
    CheckResult
        ``passed``, ``mistake`` (an id from ``MISTAKES`` or None), ``message``,
        and ``convention`` when the answer follows another library's valid
        layout (:data:`posenc_lib.conventions.CONVENTIONS`).

    Examples
    --------
    >>> from posenc_lib import pos_encoding
    >>> from posenc_lib.mistakes import MISTAKES
    >>> check_pos_encoding(pos_encoding)
    CheckResult(passed=True, mistake=None)
    >>> check_pos_encoding(MISTAKES["integer-division"]).mistake
    'integer-division'
    >>> print(check_pos_encoding(MISTAKES["sine-only"]).message.splitlines()[0])
    pos_encoding: not right yet; this is the mistake 'sine-only'.
    """
    return _run("pos_encoding", _check_pos_encoding, fn, time_limit, isolated)


def _check_pos_encoding(fn, *, time_limit=None):
    """The check itself, run in a child process by :func:`check_pos_encoding`."""
    cases = _pos_encoding_cases()
    try:
        answers = [run_case("pos_encoding", fn, case, time_limit)[2] for case in cases]
    except Stop as stop:
        return stop.result
    candidates = {
        mistake: [MISTAKES[mistake](*case.args) for case in cases]
        for mistake in POS_ENCODING_MISTAKES
    }
    for bug in POS_ENCODING_BUGS:
        candidates[bug] = [rows_for(bug)([c.args[0]], c.args[1])[0] for c in cases]
    return _judge("pos_encoding", cases, answers, candidates, _convention_row)


def _lookup_cases():
    table_a = np.array(
        [[0.5, -0.5, 1.0, 0.0], [1.0, 2.0, 3.0, 4.0], [-1.5, 0.25, 7.0, -3.0]]
    )
    table_b = np.arange(10.0).reshape(5, 2) / 4 - 1  # (5, 2)
    cases = [
        (table_a, "table", 0),
        (table_a, "table", 2),
        (table_a, "table", 1),
        (table_b, "table_b", 4),
        (table_b, "table_b", 0),
    ]
    return [
        Case(
            (table, token_id),
            f"lookup({label}, {token_id})",
            _right_lookup(table, token_id),
        )
        for table, label, token_id in cases
    ]


def _row_hint(case, answer):
    """Say which row of the table a wrong answer is, if it is one."""
    table, token_id = case.args
    rows = [j for j in range(len(table)) if close(answer, table[j])]
    if rows and rows[0] != token_id:
        return [f"That is row {rows[0]} of the table; row {token_id} was asked for."]
    return []


def _changes(before, after, limit=3):
    """Lines showing the rows of a table that differ, before and after."""
    if before.shape != after.shape:  # resized in place
        return [f"  its shape went from {before.shape} to {after.shape}."]
    rows = np.flatnonzero(~((before == after) | (np.isnan(before) & np.isnan(after))))
    rows = np.unique(rows // before.shape[1])
    lines = []
    for row in rows[:limit]:
        lines += [
            f"  table[{row}] before: {show(before[row])}",
            f"  table[{row}] after:  {show(after[row])}",
        ]
    if len(rows) > limit:
        lines.append(f"  ... and {len(rows) - limit} more rows changed.")
    return lines


def _changed(before, after):
    return not np.array_equal(before, after, equal_nan=True)


def _add_in_place(value, d):
    """``value += PE[3]``, the model-input step; the exception it raised, or None."""
    pe = _right_pos_encoding(3, d)  # (d,)

    def add():
        nonlocal value
        value += pe

    return guarded_call(add).error


def _writes_into_table(value, table):
    """Lines saying what ``row += PE`` on the returned row does to ``table``."""
    shares = isinstance(value, np.ndarray) and np.shares_memory(value, table)
    before = table.copy()  # (vocab_size, d)
    error = _add_in_place(value, table.shape[1])
    if _changed(before, table):
        return [
            "The row you return is a view into the table (they share memory).",
            "After row += pos_encoding(3, d), the table itself changed:",
            *_changes(before, table),
        ], "added-to-table"
    if shares:  # a read-only view: the add raised instead of writing
        return [
            "The row you return is a read-only view into the table (they share "
            "memory).",
            "So row += pos_encoding(3, d) leaves the table alone"
            + ("." if error is None else f" but raises {why(error)}."),
            "The next step adds the encoding to the row: return a new array, "
            "e.g. table[token_id].copy().",
        ], "a read-only view"
    return [], None


def _aliasing(case, table, value):
    """``(lines, mistake)``: how ``fn`` let the table change, or ``([], None)``."""
    original = case.args[0]
    if _changed(original, table):
        return [
            "Calling it changed the table it was given (your function wrote into "
            "it; it should only read it):",
            *_changes(original, table),
        ], "changed the table"
    return _writes_into_table(value, table)


def _column_result(case, value, time_limit):
    """A failed result if ``value`` is column ``token_id`` of the table, else None.

    Only an array, list or tuple is read (an object of the learner's own class
    was already reported as the wrong kind of answer).
    """
    table, token_id = case.args
    vocab_size = table.shape[0]
    if type(value) not in (np.ndarray, list, tuple) or token_id >= table.shape[1]:
        return None
    answer, problem = coerce_answer(value, (vocab_size,), time_limit)
    if problem is not None:
        return None
    if not close(answer, table[:, token_id]):
        return None
    return make_result(
        False,
        None,
        [
            f"lookup: not right yet; that is column {token_id} of the table, not "
            f"row {token_id}.",
            f"Tried:    {case.call}",
            f"Expected: {show(case.expected)} (row {token_id}, {table.shape[1]} "
            "numbers)",
            f"Got:      {show(answer)} (table[:, {token_id}], {vocab_size} numbers)",
            "The table has one row per token: token t's vector is table[t] "
            "(table[t, :]), not table[:, t].",
            see("lookup"),
        ],
    )


_ROW_IS_AN_ARRAY = (
    "A list or a tuple does not pass here: the lesson's next step adds to the row "
    "(the embedding plus the encoding), and Python's + joins lists and tuples "
    "instead of adding their numbers (row + row holds 2 * d of them). Return an "
    "array: table[token_id].copy()."
)


def check_lookup(fn, *, time_limit=None, isolated=True):
    """Check a learner's ``lookup(table, token_id)``, including ``added-to-table``.

    Parameters
    ----------
    fn : callable
        ``fn(table, token_id)`` returning row ``token_id`` of the float64 array
        ``table`` (shape (vocab_size, d)) as d numbers, without sharing memory
        with the table.
    time_limit : float, optional
        Seconds each call of ``fn`` may take, default 5; a call that runs
        longer (an endless loop) is reported as such.
    isolated : bool, default True
        Run the check in a forked copy of this process (False: in this one,
        for a function that is not a learner's own code).

    Returns
    -------
    CheckResult
        ``mistake`` is ``'added-to-table'`` if the row is a view of the table
        (adding the encoding to it in place would change the table) or if
        ``fn`` itself changes the table; otherwise None.

    Examples
    --------
    >>> from posenc_lib import lookup
    >>> from posenc_lib.mistakes import MISTAKES
    >>> check_lookup(lookup)
    CheckResult(passed=True, mistake=None)
    >>> check_lookup(MISTAKES["added-to-table"]).mistake
    'added-to-table'
    >>> check_lookup(lambda table, token_id: table[token_id].copy()).passed
    True
    """
    return _run("lookup", _check_lookup, fn, time_limit, isolated)


def _check_lookup(fn, *, time_limit=None):
    """The check itself, run in a child process by :func:`check_lookup`."""
    cases = _lookup_cases()
    answers, values = [], []
    try:
        for case in cases:
            try:
                (table, _), value, answer = run_case("lookup", fn, case, time_limit)
            except Stop as stop:
                column = _column_result(case, stop.value, time_limit)
                if column is not None:
                    return column
                raise
            aliasing, mistake = _aliasing(case, table, value)
            if aliasing:
                where = [f"Tried:    {case.call}", *aliasing]
                if mistake in _NOT_A_MISTAKE:
                    return _table_result(_NOT_A_MISTAKE[mistake], where)
                return mistake_result("lookup", mistake, where)
            answers.append(answer)
            values.append(value)
    except Stop as stop:
        return stop.result
    wrong = [i for i, case in enumerate(cases) if not close(answers[i], case.expected)]
    hints = _row_hint(cases[wrong[0]], answers[wrong[0]]) if wrong else []
    result = diagnose("lookup", cases, answers, {}, example=0, hints=hints)
    if result.passed:
        return _array_due("lookup", cases, values, _ROW_IS_AN_ARRAY) or result
    return result


_NOT_A_MISTAKE = {  # what check_lookup found, when it is not one of the mistakes
    "changed the table": "lookup: not right yet; the table must not change.",
    "a read-only view": "lookup: not right yet; return a new array, not a view.",
}


def _table_result(headline, where):
    return make_result(False, None, [headline, *where, see("lookup")])


def _short_list(positions):
    return str(positions) if len(positions) < 5 else f"list(range({len(positions)}))"


def _positions_cases():
    inputs = [
        ([0, 1], 4),
        ([2, 0, 5], 2),
        ([3], 4),
        ([1, 10, 0], 6),
        ([7, 7], 8),
        (list(range(20)), 16),
    ]
    return [
        Case(
            (positions, d),
            f"sinusoidal_positions({_short_list(positions)}, {d})",
            _right_sinusoidal_positions(positions, d),
        )
        for positions, d in inputs
    ]


def check_sinusoidal_positions(fn, *, time_limit=None, isolated=True):
    """Check a learner's vectorised ``sinusoidal_positions(positions, d_model)``.

    Parameters
    ----------
    fn : callable
        ``fn(positions, d_model)`` with ``positions`` a list of non-negative
        ints, returning shape (len(positions), d_model).
    time_limit : float, optional
        Seconds each call of ``fn`` may take, default 5; a call that runs
        longer (an endless loop) is reported as such.
    isolated : bool, default True
        Run the check in a forked copy of this process (False: in this one,
        for a function that is not a learner's own code).

    Returns
    -------
    CheckResult
        The same mistakes as :func:`check_pos_encoding` are recognised, row by
        row. An answer in another library's layout (``[sin | cos]`` halves, say)
        fails with ``convention`` set and no mistake.

    Examples
    --------
    >>> from posenc_lib import sinusoidal_positions
    >>> check_sinusoidal_positions(sinusoidal_positions)
    CheckResult(passed=True, mistake=None)
    >>> def stub(positions, d_model):
    ...     raise NotImplementedError
    >>> print(check_sinusoidal_positions(stub).message.splitlines()[0])
    sinusoidal_positions: not implemented yet.
    """
    return _run(
        "sinusoidal_positions", _check_sinusoidal_positions, fn, time_limit, isolated
    )


def _check_sinusoidal_positions(fn, *, time_limit=None):
    """The check itself, run in a child process by the public checker."""
    cases = _positions_cases()
    try:
        runs = [
            run_case("sinusoidal_positions", fn, case, time_limit) for case in cases
        ]
    except Stop as stop:
        return stop.result
    answers = [answer for _, _, answer in runs]
    candidates = {
        mistake: [
            np.array([MISTAKES[mistake](p, c.args[1]) for p in c.args[0]])
            for c in cases
        ]
        for mistake in POS_ENCODING_MISTAKES
    }
    for bug in SINUSOIDAL_POSITIONS_BUGS:
        candidates[bug] = [rows_for(bug)(*c.args) for c in cases]
    result = _judge(
        "sinusoidal_positions", cases, answers, candidates, _convention_table, example=0
    )
    if result.passed:
        values = [value for _, value, _ in runs]
        why = _TABLE_IS_AN_ARRAY
        return _array_due("sinusoidal_positions", cases, values, why) or result
    return result


_TABLE_IS_AN_ARRAY = (
    'A list of rows does not pass here: the exercise card asks for "a float array '
    'of shape (len(positions), d_model)". Return np.array(rows), or build the '
    "array directly."
)
