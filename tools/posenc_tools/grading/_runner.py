"""The kernel's side of grading: run a learner's function, report what it did.

This module runs *inside* the learner's kernel (inside its box: the box offers
it and :mod:`posenc_lib.exercise.guard`, nothing else of the library). It
decides nothing: :func:`answer` calls the learner's function on the inputs the
grader sent and reports, for each call, what came back (its type, its numbers,
its ``repr``, whether it shares memory with an argument), what it raised, and
how it changed its arguments. The grader (:mod:`posenc_tools.grading.verdicts`)
compares and explains, in its own process.

Whatever the learner's code did to this module or to numpy, it can only change
this learner's own report: the grader reads it as data, capped in size.
"""

import json

import numpy as np

from posenc_lib.exercise.guard import TimeLimitExceeded, guarded_call

__all__ = ["MAX_ITEMS", "answer", "decode", "encode"]

MAX_ITEMS = 100_000  # numbers kept of one value; a bigger answer is reported by type
_MAX_TEXT = 300  # characters of a repr or a message


def _text(function, value):
    """``function(value)`` as short text, or a note that it could not be made."""
    outcome = guarded_call(function, (value,), 1.0)
    if outcome.error is not None or not isinstance(outcome.value, str):
        return "(cannot be shown)"
    return str.__str__(outcome.value)[:_MAX_TEXT]


def encode(value, depth=0):
    """A JSON-ready description of ``value``: numbers, lists, arrays, or a repr.

    Examples
    --------
    >>> encode(np.arange(2.0))
    {'kind': 'ndarray', 'dtype': '<f8', 'shape': [2], 'data': [0.0, 1.0]}
    >>> encode([1, None])
    {'kind': 'list', 'items': [{'kind': 'int', 'value': 1}, {'kind': 'None'}]}
    """
    kind = type(value)
    if value is None:
        return {"kind": "None"}
    if kind in (bool, int, float) and (kind is not int or abs(value) < 2**63):
        return {"kind": kind.__name__, "value": value}
    if kind is str and len(value) <= _MAX_TEXT:
        return {"kind": "str", "value": value}
    if kind in (list, tuple) and depth < 3 and len(value) <= MAX_ITEMS:
        return {"kind": kind.__name__, "items": [encode(v, depth + 1) for v in value]}
    if kind is np.ndarray and value.dtype.kind in "biuf" and value.size <= MAX_ITEMS:
        return {"kind": "ndarray", "dtype": value.dtype.str,
                "shape": list(value.shape), "data": value.ravel().tolist()}  # fmt: skip
    if isinstance(value, np.generic) and value.dtype.kind in "biuf":
        return {"kind": "scalar", "dtype": value.dtype.str, "value": value.item()}
    return {"kind": "other", "type": _text(lambda v: type(v).__name__, value),
            "repr": _text(repr, value)}  # fmt: skip


def decode(spec):
    """The inputs the grader sent, rebuilt: ints, lists and float arrays only."""
    if isinstance(spec, dict):
        return np.array(spec["data"], dtype=np.float64).reshape(spec["shape"])
    if isinstance(spec, list):
        return [decode(item) for item in spec]
    return int(spec)


def _view(value, args):
    """Where ``value`` lies inside an array argument, if it shares its memory."""
    if not isinstance(value, np.ndarray):
        return None
    for index, arg in enumerate(args):
        if isinstance(arg, np.ndarray) and np.shares_memory(value, arg):
            start = arg.__array_interface__["data"][0]
            offset = value.__array_interface__["data"][0] - start
            return {"arg": index, "offset": offset, "strides": list(value.strides),
                    "writeable": bool(value.flags.writeable)}  # fmt: skip
    return None


def _call(function, inputs, time_limit):
    """What one call did: its value or error, its view, its changed arguments."""
    args = tuple(decode(spec) for spec in inputs)
    before = [arg.copy() if isinstance(arg, np.ndarray) else None for arg in args]
    outcome = guarded_call(function, args, time_limit)
    changed = {
        str(i): encode(arg)
        for i, (arg, old) in enumerate(zip(args, before, strict=True))
        if old is not None and not np.array_equal(arg, old, equal_nan=True)
    }
    report = {"changed": changed}
    if outcome.error is not None:
        error = outcome.error
        report["raised"] = {
            "type": _text(lambda e: type(e).__name__, error),
            "message": _text(str, error),
            "timeout": isinstance(error, TimeLimitExceeded),
            "not_implemented": isinstance(error, NotImplementedError),
        }
    else:
        report["value"] = encode(outcome.value)
        report["view"] = _view(outcome.value, args)
    return report


def answer(namespace, task, calls, time_limit=None):
    """Run ``namespace[task]`` on each of ``calls``; the reports, as JSON text.

    After a call that runs out of time, the later calls are not made (each
    would wait as long).

    Examples
    --------
    >>> report = json.loads(answer({"f": lambda a, b: a + b}, "f", [[1, 2]]))
    >>> report["calls"]
    [{'changed': {}, 'value': {'kind': 'int', 'value': 3}, 'view': None}]
    >>> answer({}, "f", [[1, 2]])
    '{"missing": true}'
    """
    function = namespace.get(task)
    if not callable(function):
        return json.dumps({"missing": True})
    module = _text(lambda f: getattr(f, "__module__", None), function)
    reports = []
    for inputs in calls:
        report = _call(function, inputs, time_limit)
        reports.append(report)
        if report.get("raised", {}).get("timeout"):
            break
    return json.dumps({"calls": reports, "module": module})
