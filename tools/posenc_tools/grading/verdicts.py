"""Verdicts decided outside the learner's code, by the checkers' own judge.

The kernel (in its box) runs the learner's function on each case of the checker
with the guard's reporting (:func:`posenc_lib.exercise.reports.run_calls`, one
of the two modules of the library the box holds for real) and prints the
reports as JSON: :func:`ask_cell` is that cell's source. The grader parses them
and calls :func:`posenc_lib.exercise.checkers.judge`, as ``check_lookup`` and
the others do in a learner's notebook: the same reports give the same verdict
and the same message. The learner's code never sees the expected answers, the
checkers or the mistakes; what it can do to its own kernel only changes its own
reports, which are read as data.

>>> import json
>>> from posenc_lib import lookup
>>> from posenc_lib.exercise.reports import run_calls
>>> report = {"module": "__main__", "calls": run_calls(lookup, case_args("lookup"))}
>>> decide("lookup", json.loads(json.dumps(report)))["passed"]
True
"""

import numpy as np

from posenc_lib.exercise.checkers import case_args, judge

__all__ = ["KernelProblem", "ask_cell", "decide"]

#: the box's stand-ins for the library's functions raise this (see box.py)
REFERENCE_ERROR = "ReferenceNotAvailable"

_ASK_CELL = """\
import json as _posenc_json, numpy as _posenc_np
from posenc_lib.exercise.reports import run_calls as _posenc_run_calls
_posenc_fn = globals().get({task!r})
_posenc_report = (
    {{"module": str(getattr(_posenc_fn, "__module__", None)),
     "name": str(getattr(_posenc_fn, "__name__", None)),
     "calls": _posenc_run_calls(_posenc_fn, {calls})}}
    if callable(_posenc_fn) else {{"missing": True}}
)
print({marker!r} + _posenc_json.dumps(_posenc_report))
"""


class KernelProblem(Exception):
    """The kernel gave no usable answer; the message says why, for the row."""


def _literal(value):
    """``value`` (an int, a list, a float array) as Python source for the cell."""
    if isinstance(value, np.ndarray):
        return f"_posenc_np.array({value.tolist()!r}, dtype=float)"
    if isinstance(value, list | tuple):
        items = ", ".join(_literal(item) for item in value)
        return f"[{items}]" if isinstance(value, list) else f"({items},)"
    return repr(int(value))


def ask_cell(task, marker):
    """The source of the cell that reports the learner's ``task`` on its cases."""
    calls = _literal([tuple(args) for args in case_args(task)])
    return _ASK_CELL.format(task=task, calls=calls, marker=marker)


def _failed(message):
    return {"passed": False, "mistake": None, "convention": None, "message": message}


def decide(task, report):
    """The verdict on one task from the kernel's report (the parsed JSON).

    Returns ``{"passed", "mistake", "convention", "message"}``; raises
    :class:`KernelProblem` when the report cannot be read.
    """
    if not isinstance(report, dict):
        raise KernelProblem("the kernel's answer was not readable")
    if report.get("missing"):
        return _failed(
            f"There is no function named {task} in the notebook (was it renamed or "
            "deleted?)."
        )
    calls, module = report.get("calls"), report.get("module")
    if not isinstance(calls, list) or not all(isinstance(c, dict) for c in calls):
        raise KernelProblem("the kernel's answer was not readable")
    try:
        raised = [str(call["error"]["type"]) for call in calls if "error" in call]
        name = report.get("name")
        if REFERENCE_ERROR in raised:  # a stand-in of the library's own function
            module, name = "posenc_lib", task
        result = judge(task, calls, module, name)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise KernelProblem("the kernel's answer was not readable") from exc
    return {
        "passed": bool(result.passed),
        "mistake": result.mistake,
        "convention": result.convention,
        "message": result.message,
    }
