"""Checkers for the exercise: run your function, then name the mistake it makes.

Each checker calls your function on a fixed bank of cases in a child process
(:mod:`.guard`; an error, an exit or an endless loop becomes a verdict). The
reports come back as plain data (:mod:`.reports`), and :func:`judge`, which
the class grader calls too, compares the answers with the library's, then with
the lesson's mistakes, the usual bugs (:mod:`._usual_bugs`) and other
libraries' layouts. The bank parts every mistake from every other and from the
right answer (width 6 parts ``integer-power``'s divisor 21 from 21.5443).
"""

import json
from functools import partial

import numpy as np

from ..conventions import encoding_table
from ..embedding import lookup as _right_lookup
from ..mistakes import MISTAKES
from ..positional import pos_encoding as _right_pos_encoding
from ..positional import sinusoidal_positions as _right_sinusoidal_positions
from ..validation import check_callable, check_seconds
from ._checking import (
    Case,
    CheckResult,
    Stop,
    close,
    diagnose,
    failed,
    imported,
    mistake_result,
    read_case,
    see,
    show,
)
from ._usual_bugs import BUGS, POS_ENCODING_BUGS, SINUSOIDAL_POSITIONS_BUGS
from .reports import read_answer, run_calls, value_of

__all__ = [
    "CheckResult",
    "case_args",
    "check_lookup",
    "check_pos_encoding",
    "check_sinusoidal_positions",
    "judge",
]

_OTHER_CONVENTIONS = ("concat", "cos-first", "tensor2tensor")  # valid, not asked for


def _recognised(task, how):
    """The ids of the mistakes of ``task`` the checker tells by ``how``."""
    return [m.id for m in MISTAKES.values() if (m.task, m.recognised_by) == (task, how)]


def _pos_encoding_cases():
    pairs = [(0, 4), (3, 4), (2, 2), (1, 6), (10, 6), (7, 8), (50, 16)]
    return [Case(a, f"pos_encoding{a}", _right_pos_encoding(*a)) for a in pairs]


def _lookup_cases():
    table_a = np.array(
        [[0.5, -0.5, 1.0, 0.0], [1.0, 2.0, 3.0, 4.0], [-1.5, 0.25, 7.0, -3.0]]
    )  # (3, 4)
    table_b = np.arange(10.0).reshape(5, 2) / 4 - 1  # (5, 2)
    cases = [(table_a, "table", i) for i in (0, 2, 1)]
    cases += [(table_b, "table_b", i) for i in (4, 0)]
    return [
        Case((table, i), f"lookup({label}, {i})", _right_lookup(table, i))
        for table, label, i in cases
    ]


def _positions_cases():
    inputs = [([0, 1], 4), ([2, 0, 5], 2), ([3], 4), ([1, 10, 0], 6), ([7, 7], 8)]
    inputs.append((list(range(20)), 16))
    short = lambda ps: str(ps) if len(ps) < 5 else f"list(range({len(ps)}))"  # noqa: E731
    call = "sinusoidal_positions({}, {})"
    return [
        Case((ps, d), call.format(short(ps), d), _right_sinusoidal_positions(ps, d))
        for ps, d in inputs
    ]


_CASES = {
    "lookup": _lookup_cases,
    "pos_encoding": _pos_encoding_cases,
    "sinusoidal_positions": _positions_cases,
}


def case_args(task):
    """The arguments of each case the checker of ``task`` calls the function with.

    >>> case_args("pos_encoding")[:2]
    [(0, 4), (3, 4)]
    """
    return [case.args for case in _CASES[task]()]


def _read_all(name, cases, reports):
    """``(answers, descriptions)`` of every case; Stop at the first that failed."""
    pairs = zip(cases, reports, strict=False)
    runs = [read_case(name, case, report) for case, report in pairs]
    if len(runs) < len(cases):
        raise ValueError(f"{len(reports)} reports for {len(cases)} cases")
    return [answer for answer, _ in runs], [desc for _, desc in runs]


def _judge_encoding(task, reports):
    """The verdict on ``pos_encoding`` or ``sinusoidal_positions``."""
    cases, one = _CASES[task](), task == "pos_encoding"  # one: a row of the table
    try:
        answers, descs = _read_all(task, cases, reports)
    except Stop as stop:
        return stop.result

    def each(table):  # table(positions, d): what it answers to every case
        if one:
            return [table([c.args[0]], c.args[1])[0] for c in cases]
        return [table(*c.args) for c in cases]

    candidates = {
        m: each(lambda ps, d, m=m: np.array([MISTAKES[m](p, d) for p in ps]))
        for m in _recognised("pos_encoding", "answers")
    }
    for bug in POS_ENCODING_BUGS if one else SINUSOIDAL_POSITIONS_BUGS:
        candidates[bug] = each(BUGS[bug].rows)
    conventions = {c: each(partial(encoding_table, c)) for c in _OTHER_CONVENTIONS}
    return diagnose(task, cases, answers, descs, candidates, conventions=conventions)


def _changes(before, after):
    """Lines showing the rows of a table that differ, before and after (a case's
    table has 3 or 5 rows: all are shown)."""
    if before.shape != after.shape:  # resized in place
        return [f"  its shape went from {before.shape} to {after.shape}."]
    rows = np.flatnonzero(~((before == after) | (np.isnan(before) & np.isnan(after))))
    lines = []
    for row in np.unique(rows // before.shape[1]):
        lines.append(f"  table[{row}] before: {show(before[row])}")
        lines.append(f"  table[{row}] after:  {show(after[row])}")
    return lines


def _what_happened_to_the_table(case, report, answer):
    """A failed result if the call changed the table or returned a view of it."""
    table, token_id = case.args
    tried, view = f"Tried:    {case.call}", report.get("view") or {}
    if "0" in report.get("changed", {}):
        after = np.asarray(value_of(report["changed"]["0"]), dtype=np.float64)
        return failed(
            "lookup: not right yet; the table must not change.",
            tried,
            "Calling it changed the table it was given (your function wrote into "
            "it; it should only read it):",
            *_changes(table, after),
            see("lookup"),
        )
    if view.get("arg") != 0:
        return None
    if not view.get("writeable"):
        return failed(
            "lookup: not right yet; return a new array, not a view.",
            tried,
            "The row you return is a read-only view into the table (they share "
            "memory).",
            "So row += pos_encoding(3, d) leaves the table alone but raises "
            "ValueError: output array is read-only.",
            "The next step adds the encoding to the row: return a new array.",
            see("lookup"),
        )
    lines = [tried, "The row you return is a view into the table (they share memory)."]
    if close(answer, table[token_id]):
        after = table.copy()  # (vocab_size, d)
        after[token_id] += _right_pos_encoding(3, table.shape[1])
        lines.append("After row += pos_encoding(3, d), the table itself would change:")
        lines += _changes(table, after)
    else:
        lines.append("So row += pos_encoding(3, d) would change the table too.")
    return mistake_result("lookup", _recognised("lookup", "view")[0], lines)


def _column_result(case, desc):
    """A failed result if the answer is column ``token_id`` of the table, else None."""
    table, token_id = case.args
    if desc is None or desc["type"] not in ("ndarray", "list", "tuple"):
        return None
    answer, problem = read_answer(desc, (table.shape[0],))
    if problem is not None or not close(answer, table[:, token_id]):
        return None
    return failed(
        f"lookup: not right yet; that is column {token_id} of the table, not row "
        f"{token_id}.",
        f"Tried:    {case.call}",
        f"Expected: {show(case.expected)} (row {token_id}, {table.shape[1]} numbers)",
        f"Got:      {show(answer)} (table[:, {token_id}], {table.shape[0]} numbers)",
        "The table has one row per token: token t's vector is row t, not column t.",
        see("lookup"),
    )


def _judge_lookup(reports):
    cases, answers, descs = _lookup_cases(), [], []
    for case, report in zip(cases, reports, strict=False):
        try:
            answer, desc = read_case("lookup", case, report)
        except Stop as stop:
            return _column_result(case, stop.desc) or stop.result
        table_result = _what_happened_to_the_table(case, report, answer)
        if table_result is not None:
            return table_result
        answers.append(answer)
        descs.append(desc)
    if len(answers) < len(cases):
        raise ValueError(f"{len(reports)} reports for {len(cases)} cases")
    wrong = [i for i, case in enumerate(cases) if not close(answers[i], case.expected)]
    hints = []
    if wrong:
        (table, token_id), answer = cases[wrong[0]].args, answers[wrong[0]]
        rows = [j for j in range(len(table)) if close(answer, table[j])]
        if rows and rows[0] != token_id:
            hints = [
                f"That is row {rows[0]} of the table; row {token_id} was asked for."
            ]
    candidates = {
        m: [MISTAKES[m](*case.args) for case in cases]
        for m in _recognised("lookup", "answers")
    }
    return diagnose("lookup", cases, answers, descs, candidates, hints=hints)


@np.errstate(all="ignore")  # answers near 1e308 overflow: no warning reaches a learner
def judge(task, reports, module=None, name=None):
    """The verdict on ``task`` from the reports of its cases' calls, in order.

    Parameters
    ----------
    task : {"lookup", "pos_encoding", "sinusoidal_positions"}
    reports : list of dict
        One report per case of :func:`case_args`, up to the first that failed.
    module, name : str, optional
        The function's ``__module__`` and ``__name__``: the library's own fails.

    Examples
    --------
    >>> from posenc_lib import pos_encoding
    >>> from posenc_lib.exercise.reports import call_report
    >>> args = case_args("pos_encoding")
    >>> judge("pos_encoding", [call_report(pos_encoding, a) for a in args])
    CheckResult(passed=True, mistake=None)
    """
    own = imported(task, module, name)
    if own is not None:
        return failed(f"{task}: {own}.")
    if task == "lookup":
        return _judge_lookup(reports)
    return _judge_encoding(task, reports)


def _check(task, fn, time_limit):
    """Run ``fn`` on the cases of ``task`` in a guard's child, then judge."""
    check_callable(fn, "fn", what="a function: yours, to check")
    limit = None if time_limit is None else check_seconds(time_limit)
    reports = run_calls(fn, case_args(task), limit)
    reports = json.loads(json.dumps(reports))  # as the class grader receives them
    for report in reports:
        print(report.get("printed", ""), end="")
    names = (getattr(fn, key, None) for key in ("__module__", "__name__"))
    return judge(task, reports, *names)


def check_pos_encoding(fn, *, time_limit=None):
    """Check a learner's ``pos_encoding(pos, d)`` and name the mistake it makes.

    Parameters
    ----------
    fn : callable
        ``fn(pos, d)`` returning ``PE[pos]``, a float array of shape (d,).
    time_limit : float, optional
        Seconds each call of ``fn`` may take, default 5.

    Returns
    -------
    CheckResult
        ``.passed``, ``.mistake`` (an id of ``MISTAKES`` or None), ``.message``.

    Examples
    --------
    >>> from posenc_lib.mistakes import MISTAKES
    >>> print(check_pos_encoding(MISTAKES["sine-only"]).message.splitlines()[0])
    pos_encoding: not right yet; this is the mistake 'sine-only'.
    """
    return _check("pos_encoding", fn, time_limit)


def check_lookup(fn, *, time_limit=None):
    """Check a learner's ``lookup(table, token_id)``, including ``added-to-table``.

    Parameters
    ----------
    fn : callable
        ``fn(table, token_id)`` returning row ``token_id`` of ``table`` as a new array.
    time_limit : float, optional
        Seconds each call of ``fn`` may take, default 5.

    Returns
    -------
    CheckResult
        As :func:`check_pos_encoding`; ``mistake`` is ``'added-to-table'`` for a
        writeable view of the table.

    Examples
    --------
    >>> check_lookup(lambda table, token_id: table[token_id].copy())
    CheckResult(passed=True, mistake=None)
    """
    return _check("lookup", fn, time_limit)


def check_sinusoidal_positions(fn, *, time_limit=None):
    """Check a learner's vectorised ``sinusoidal_positions(positions, d_model)``.

    Parameters
    ----------
    fn : callable
        ``fn(positions, d_model)`` returning an array (len(positions), d_model).
    time_limit : float, optional
        Seconds each call of ``fn`` may take, default 5.

    Returns
    -------
    CheckResult
        As :func:`check_pos_encoding`, the mistakes recognised row by row.

    Examples
    --------
    >>> def stub(positions, d_model):
    ...     raise NotImplementedError
    >>> print(check_sinusoidal_positions(stub).message.splitlines()[0])
    sinusoidal_positions: not implemented yet.
    """
    return _check("sinusoidal_positions", fn, time_limit)
