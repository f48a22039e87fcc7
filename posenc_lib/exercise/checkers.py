"""Checkers for the exercise: run your function, then name the mistake it makes.

Each checker calls your function on a bank of cases in a guard's child
(:mod:`.guard`); :func:`judge`, the class grader's judge too, compares the reports
(:mod:`.reports`) with the answers. The bank parts every mistake from every other
and from the right answer (width 6: ``integer-power``'s 21 from 21.5443).
"""

import json
from functools import partial

import numpy as np

from ..conventions import encoding_table
from ..embedding import lookup as _right_lookup
from ..mistakes import MISTAKES
from ..positional import pos_encoding as _right_pos_encoding
from ..positional import sinusoidal_positions as _right_positions
from ..validation import check_callable, check_seconds
from ._checking import (
    BUGS,
    POS_ENCODING_BUGS,
    SINUSOIDAL_POSITIONS_BUGS,
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
from .reports import read_answer, run_calls, value_of

__all__ = [
    "CheckResult", "case_args", "check_lookup", "check_pos_encoding",
    "check_sinusoidal_positions", "judge",
]  # fmt: skip

_OTHER_CONVENTIONS = ("concat", "cos-first", "tensor2tensor")  # valid, not asked for


def _recognised(task, how):
    """The ids of the mistakes of ``task`` the checker tells by ``how``."""
    return [m.id for m in MISTAKES.values() if (m.task, m.recognised_by) == (task, how)]


def _cases(task):
    """The bank of ``task``: each case's arguments, how the call reads, its answer."""
    if task == "pos_encoding":
        pairs = [(0, 4), (3, 4), (2, 2), (1, 6), (10, 6), (7, 8), (50, 16)]
        return [Case(a, f"pos_encoding{a}", _right_pos_encoding(*a)) for a in pairs]
    if task == "lookup":
        table = np.array([[0.5, -0.5, 1, 0], [1, 2, 3, 4], [-1.5, 0.25, 7, -3]])
        table_b = np.arange(10.0).reshape(5, 2) / 4 - 1  # (5, 2)
        cases = [(table, "table", i) for i in (0, 2, 1)]
        cases += [(table_b, "table_b", i) for i in (4, 0)]
        return [
            Case((table, i), f"lookup({label}, {i})", _right_lookup(table, i))
            for table, label, i in cases
        ]
    inputs = [([0, 1], 4), ([2, 0, 5], 2), ([3], 4), ([1, 10, 0], 6), ([7, 7], 8)]
    inputs.append((list(range(20)), 16))
    shown = [str(ps) if len(ps) < 5 else "list(range(20))" for ps, _ in inputs]
    return [
        Case((ps, d), f"{task}({text}, {d})", _right_positions(ps, d))
        for (ps, d), text in zip(inputs, shown, strict=True)
    ]


def case_args(task):
    """The arguments of each case the checker of ``task`` calls the function with."""
    return [case.args for case in _cases(task)]


def _read_all(task, cases, reports):
    """``(answers, descriptions)`` of every case, or the failed result of the
    first that failed (for ``lookup``: also a column, a changed table, a view)."""
    answers, descs = [], []
    for case, report in zip(cases, reports, strict=False):
        try:
            answer, desc = read_case(task, case, report)
        except Stop as stop:
            column = _column_result(case, stop.desc) if task == "lookup" else None
            return column or stop.result
        table = task == "lookup" and _what_happened_to_the_table(case, report, answer)
        if table:
            return table
        answers.append(answer)
        descs.append(desc)
    if len(answers) < len(cases):
        raise ValueError(f"{len(reports)} reports for {len(cases)} cases")
    return answers, descs


def _changes(before, after):
    """Lines showing each row of a table that differs, before and after."""
    if before.shape != after.shape:  # resized in place
        return [f"  its shape went from {before.shape} to {after.shape}."]
    rows = np.flatnonzero(~((before == after) | (np.isnan(before) & np.isnan(after))))
    return [
        f"  table[{row}] {when} {show(table[row])}"
        for row in np.unique(rows // before.shape[1])
        for when, table in (("before:", before), ("after: ", after))
    ]


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


@np.errstate(all="ignore")  # answers near 1e308 overflow: no warning reaches a learner
def judge(task, reports, module=None, name=None):
    """The verdict on ``task`` from the reports of its cases' calls, in order.

    ``reports``: one per case of :func:`case_args`, up to the first that failed;
    ``module``, ``name``: the function's ``__module__`` and ``__name__`` (the
    library's own fails).

    >>> from posenc_lib import pos_encoding
    >>> from posenc_lib.exercise.reports import call_report
    >>> args = case_args("pos_encoding")
    >>> judge("pos_encoding", [call_report(pos_encoding, a) for a in args])
    CheckResult(passed=True, mistake=None)
    """
    own = imported(task, module, name)
    if own is not None:
        return failed(f"{task}: {own}.")
    cases = _cases(task)
    read = _read_all(task, cases, reports)
    if isinstance(read, CheckResult):
        return read
    if task == "lookup":
        mistakes = _recognised("lookup", "answers")
        candidates = {m: [MISTAKES[m](*c.args) for c in cases] for m in mistakes}
        return diagnose(task, cases, *read, candidates)
    one = task == "pos_encoding"  # one row of the table

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
    return diagnose(task, cases, *read, candidates, conventions=conventions)


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
    """Check a learner's ``lookup(table, token_id)``: row ``token_id`` of
    ``table`` as a new array (a writeable view is ``'added-to-table'``).

    Parameters and the result as :func:`check_pos_encoding`.

    Examples
    --------
    >>> check_lookup(lambda table, token_id: table[token_id].copy())
    CheckResult(passed=True, mistake=None)
    """
    return _check("lookup", fn, time_limit)


def check_sinusoidal_positions(fn, *, time_limit=None):
    """Check a learner's ``sinusoidal_positions(positions, d_model)``: an array
    (len(positions), d_model), its mistakes recognised row by row.

    Parameters and the result as :func:`check_pos_encoding`.

    Examples
    --------
    >>> def stub(positions, d_model):
    ...     raise NotImplementedError
    >>> print(check_sinusoidal_positions(stub).message.splitlines()[0])
    sinusoidal_positions: not implemented yet.
    """
    return _check("sinusoidal_positions", fn, time_limit)
