"""What a learner's function did on one call, as plain data: its report.

In the guard's child each call becomes a dict that JSON carries
(:func:`call_report`): ``"value"`` (and ``"view"`` if it shares memory with an
array argument), or ``"error"``, or from the guard ``"timeout"`` or ``"ended"``;
``"changed"``, each array argument changed in place; ``"printed"``. The caller
reads it back (:func:`read_report`). A public contract: the class grader copies
this module into each learner's box (``REAL_MODULES``,
``tools/posenc_tools/grading/box.py``) beside a guard of its own and calls
:func:`run_calls` there: it imports only the standard library, numpy and
:mod:`.guard`, and the names of ``__all__`` keep their signatures.
"""

import reprlib

import numpy as np

from .guard import Guard

__all__ = [
    "call_report", "describe", "describe_error", "read_answer", "read_report",
    "run_calls", "serve_calls", "value_of", "why",
]  # fmt: skip

MAX_NUMBERS = 10**6  # numbers (or items) of one answer described
MAX_TEXT = 300  # characters of a repr or a message
_LISTS = reprlib.Repr()  # 30 items a list, 6 levels deep
_LISTS.maxlist = _LISTS.maxtuple = 30


def describe(value, budget=None, depth=0):
    """``value`` as plain data: its type, a short repr and its numbers.

    >>> describe(np.ma.masked_array([0.5]))
    {'type': 'MaskedArray', 'repr': 'masked_array(data=[0.5],\\n             mask=False,\\n       fill_value=1e+20)', 'array': True, 'dtype': 'float64', 'shape': [1], 'data': [0.5]}
    """  # noqa: E501
    budget = [MAX_NUMBERS] if budget is None else budget
    kind = type(value)
    desc = {"type": kind.__name__}
    try:
        text = _LISTS.repr(value) if kind in (list, tuple) else repr(value)
        desc["repr"] = str.__str__(text)[:MAX_TEXT]
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


def call_report(fn, args, note=None):
    """The report of ``fn(*args)``; ``note(data)`` is the guard's (timing).

    >>> call_report(lambda row: row, (np.zeros(2),))["view"]
    {'arg': 0, 'writeable': True}
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
        for i, arg in enumerate(args if isinstance(value, np.ndarray) else ()):
            if isinstance(arg, np.ndarray) and np.may_share_memory(value, arg):
                report["view"] = {"arg": i, "writeable": bool(value.flags.writeable)}
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


_HINTS = {
    "SystemExit": "sys.exit() ends the program; return the answer instead",
    "EOFError": "input() has nothing to read here: take what you need as arguments",
}


def why(error):
    """One line for an error report (``describe_error``), with a hint for some.

    >>> why({"type": "Exit", "classes": ["Exit", "SystemExit"], "code": 2})
    'Exit: 2 (sys.exit() ends the program; return the answer instead)'
    """
    name, classes = str(error["type"]), error.get("classes") or [error["type"]]
    if "SystemExit" in classes:
        text = "" if error.get("code") is None else str(error["code"])
    elif error.get("message") is None:
        text = "(its message could not be shown)"
    else:
        text = " ".join(str(error["message"]).split())
    text = text if len(text) <= 200 else text[:197] + "..."
    hint = next((_HINTS[c] for c in classes if c in _HINTS), None)
    if "[Errno 27]" in text:  # the guard's bound on what a call may print
        hint = "it printed more than 16 MiB"
    line = name + (f": {text}" if text else "")
    return f"{line} ({hint})" if hint else line


def value_of(desc):
    """The value a report describes, rebuilt from plain data (lists, arrays); of
    an array only numbers (the report may come from a learner's box):

    >>> value_of({"type": "ndarray", "dtype": "S2000000000", "data": [1]})
    Traceback (most recent call last):
    ...
    ValueError: a ndarray of dtype 'S2000000000' described with numbers
    """
    if "items" in desc:
        return [value_of(item) for item in desc["items"]]
    if "data" in desc:
        dtype = np.dtype(desc["dtype"])
        if dtype.kind not in "biuf" or dtype.itemsize > 16:
            raise ValueError(
                f"a {desc['type']} of dtype {desc['dtype']!r} described with numbers"
            )
        return np.array(desc["data"], dtype=dtype).reshape(desc["shape"])
    if "dtype" in desc:  # not numbers: only the dtype matters
        return np.empty(0, dtype=desc["dtype"])
    if "value" in desc or desc["type"] == "NoneType":
        return desc.get("value")
    raise ValueError(f"a {desc['type']} not described")


def read_answer(desc, shape):
    """``(array, None)`` for finite numbers of ``shape``, else ``(None, why)``."""
    kind = desc["type"]
    if "unreadable" in desc:
        problem = f"an object of type {kind} that cannot be read as numbers"
        return None, f"{problem} ({why(desc['unreadable'])})"
    if kind == "NoneType":
        return None, "None (is a `return` missing?)"
    items, far = desc.get("items"), f"far more than shape {shape} holds"
    if "len" in desc and items is None:
        return None, f"a {kind} holding {desc['len']} items, {far}"
    for index, item in enumerate(items or ()):
        if "len" in item and "items" not in item:
            return None, f"a {kind} whose item {index} holds {item['len']} items, {far}"
    text = " ".join(str(desc.get("repr", kind)).split())  # one line
    text = text if len(text) <= 70 else text[:67] + "..."
    try:
        array = np.asarray(value_of(desc))
    except (TypeError, ValueError):
        return None, f"{text}, which is not an array of numbers"
    if array.dtype.kind not in "iuf":
        return None, f"{text}, which is not numbers (dtype {array.dtype})"
    if "dtype" in desc and "data" not in desc or array.shape != shape:
        return None, f"{text}, of shape {tuple(desc.get('shape', array.shape))}"
    if not np.all(np.isfinite(array)):
        return None, f"{text}, which holds nan or inf"
    return array.astype(np.float64), None


def read_report(report, shape):
    """``(answer, None)``, or ``(None, (kind, detail))`` for a call that did not
    answer: kind ``"error"`` (detail: the error), ``"ended"``, ``"timeout"`` or
    ``"answer"`` (the wrong kind of answer; detail: what came back)."""
    for kind in ("error", "ended"):
        if kind in report:
            return None, (kind, report[kind])
    if "value" not in report:
        text = f"no answer within {report['timeout']:g} s (the time limit; an endless "
        return None, ("timeout", text + "loop?)")
    if "timeout" in report:
        text = f"an object of type {report['value']['type']} that cannot be read as "
        seconds = f"{report['timeout']:g} s"
        return None, ("answer", f"{text}numbers (reading it took over {seconds})")
    answer, problem = read_answer(report["value"], shape)
    return (answer, None) if problem is None else (None, ("answer", problem))
