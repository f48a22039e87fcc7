"""What a learner's function did on one call, as plain data: its report.

The checkers and the command interpreter run the learner's function in the
guard's child (:mod:`.guard`); there each call becomes a report, a dict that
JSON carries unchanged (the class grader's kernel prints it, the grader reads
it), and the caller judges the reports (:func:`.checkers.judge`). A report holds

- ``"value"``: what the call returned, :func:`describe`\\ d; with ``"view"``,
  ``{"arg": i, "writeable": bool}``, when it shares memory with array argument i;
- or ``"error"``: what it raised, :func:`describe_error`\\ d;
- or ``"timeout"`` (seconds) or ``"ended"`` (how), from the guard; a timeout
  while the answer was read (``"doing": "reading"``) keeps its ``"value"`` or
  ``"error"`` type;
- ``"changed"``: ``{i: description}`` of each array argument changed in place;
- ``"printed"``: what it printed (bounded).

The grader copies this module into each learner's box with the guard: it imports
numpy and the guard, nothing else of posenc_lib.
"""

import reprlib

import numpy as np

from .guard import Guard

__all__ = ["call_report", "describe", "describe_error", "run_calls", "serve_calls"]

MAX_NUMBERS = 10**6  # numbers (or items) of one answer described
MAX_TEXT = 300  # characters of a repr or a message


_LISTS = reprlib.Repr()  # at most 30 items a list, 4 levels deep
_LISTS.maxlist = _LISTS.maxtuple = 30


def _short_repr(value):
    """``repr(value)``, of at most 30 items a level for a list or tuple."""
    text = _LISTS.repr(value) if type(value) in (list, tuple) else repr(value)
    return str.__str__(text)[:MAX_TEXT]


def describe(value, budget=None, depth=0):
    """``value`` as plain data: its type, a short repr and its numbers.

    Examples
    --------
    >>> describe([0.5, 1])["items"]
    [{'type': 'float', 'repr': '0.5', 'value': 0.5}, {'type': 'int', 'repr': '1', 'value': 1}]
    >>> describe(np.ma.masked_array([0.5]))["data"]
    [0.5]
    """  # noqa: E501
    budget = [MAX_NUMBERS] if budget is None else budget
    kind = type(value)
    desc = {"type": kind.__name__}
    try:
        desc["repr"] = _short_repr(value)
        if value is None or kind in (bool, int, float, str):
            desc["value"] = value[:MAX_TEXT] if kind is str else value
        elif isinstance(value, list | tuple):
            desc["len"] = len(value)
            if len(value) <= budget[0] and depth < 4:
                budget[0] -= len(value)
                desc["items"] = [describe(v, budget, depth + 1) for v in value]
        else:
            array = np.asarray(value)  # (an ndarray subclass: its numbers)
            desc |= {"array": isinstance(value, np.ndarray), "dtype": str(array.dtype)}
            desc["shape"] = list(array.shape)
            if array.dtype.kind in "biuf" and array.size <= budget[0]:
                budget[0] -= array.size
                desc["data"] = array.ravel().tolist()
    except BaseException as error:  # noqa: BLE001 - its repr or __array__ failed
        desc["unreadable"] = describe_error(error)
    return desc


def describe_error(error):
    """An exception as plain data: type name, its classes' names, message, code.

    Examples
    --------
    >>> describe_error(SystemExit(3))
    {'type': 'SystemExit', 'classes': ['SystemExit', 'BaseException', 'object'], 'message': '3', 'code': 3}
    """  # noqa: E501
    kind = type(error)
    desc = {"type": kind.__name__, "classes": [c.__name__ for c in kind.__mro__]}
    try:
        desc["message"] = str.__str__(str(error))[:MAX_TEXT]
    except BaseException:  # noqa: BLE001 - its __str__ failed: no message
        desc["message"] = None
    if isinstance(error, SystemExit):
        code = error.code
        desc["code"] = code if code is None or type(code) in (int, str) else repr(code)
    return desc


def _view(value, args):
    """``{"arg": i, "writeable": ...}`` if ``value`` shares memory with args[i]."""
    for i, arg in enumerate(args):
        if isinstance(arg, np.ndarray) and np.may_share_memory(value, arg):
            return {"arg": i, "writeable": bool(value.flags.writeable)}
    return None


def call_report(fn, args, note=None):
    """The report of ``fn(*args)``; ``note(data)`` is the guard's (timing).

    Examples
    --------
    >>> call_report(lambda row: row, (np.zeros(2),))["view"]
    {'arg': 0, 'writeable': True}
    >>> call_report(int, ("x",))["error"]["type"]
    'ValueError'
    """
    note = note or (lambda data: None)
    before = [np.copy(a) if isinstance(a, np.ndarray) else None for a in args]
    note({"doing": "call"})
    try:
        value = fn(*args)
    except BaseException as error:  # noqa: BLE001 - the point: nothing escapes
        note({"doing": "reading", "error": {"type": type(error).__name__}})
        report = {"error": describe_error(error)}
    else:
        note({"doing": "reading", "value": {"type": type(value).__name__}})
        report = {"value": describe(value)}
        view = _view(value, args) if isinstance(value, np.ndarray) else None
        if view:
            report["view"] = view
    changed = {
        str(i): describe(arg)
        for i, (arg, old) in enumerate(zip(args, before, strict=True))
        if old is not None and not np.array_equal(arg, old, equal_nan=True)
    }
    return {**report, "changed": changed} if changed else report


def serve_calls(functions, read_only=False):
    """A guard's ``serve``: request ``(name, args)`` calls ``functions[name]``
    (its array arguments made read-only if ``read_only``)."""

    def serve(request, note):
        name, args = request
        for arg in args if read_only else ():
            if isinstance(arg, np.ndarray):
                arg.flags.writeable = False
        return call_report(functions[name], args, note)

    return serve


def run_calls(fn, calls, time_limit=None):
    """The report of ``fn(*args)`` for each ``args`` of ``calls``, in a guard's
    child; after a timeout or the child's end, no more calls are made.

    Examples
    --------
    >>> [report["value"]["value"] for report in run_calls(max, [(1, 2), (4, 3)])]
    [2, 4]
    """
    reports = []
    with Guard(serve_calls({"fn": fn}), time_limit) as guard:
        for args in calls:
            reports.append(guard.ask(("fn", tuple(args))))
            if "timeout" in reports[-1] or "ended" in reports[-1]:
                break
    return reports
