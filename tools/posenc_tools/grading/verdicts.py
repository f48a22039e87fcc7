"""Verdicts decided outside the learner's code: the checkers, replayed.

The exercise's checkers (:mod:`posenc_lib.exercise.checkers`) call a function
and judge what it returns. Here they run in the grader's own process, on a
*replay* of the learner's function: a stand-in that answers each call with what
the learner's function did in its kernel on the same inputs, as reported by
:func:`posenc_tools.grading._runner.answer` (numbers, type, ``repr``, the error it
raised, how it changed its arguments, the part of an argument it returned a view
of). The learner's code never sees the expected answers, the checkers or the
mistakes, and cannot patch them.

Which inputs? First the checker runs on a *probe* that records every input and
answers as the library would: that gives the inputs a right answer is asked
about. The kernel runs the learner's function on them all at once; then the
checker runs on the replay. An input the probe did not meet (a wrong answer can
take the checker down another path) is sent to the kernel in another round.

>>> from posenc_lib import lookup
>>> from posenc_tools.grading._runner import answer
>>> import json
>>> ask = lambda calls: json.loads(answer({"lookup": lookup}, "lookup", calls))
>>> decide("lookup", ask)["message"]
"lookup: this is posenc_lib's own lookup, imported, not one written in the notebook."
"""

import builtins
import json

import numpy as np

from posenc_lib import embedding, positional
from posenc_lib.exercise import checkers
from posenc_lib.exercise.guard import TIME_LIMIT, TimeLimitExceeded

__all__ = ["MAX_ROUNDS", "decide"]

MAX_ROUNDS = 4  # rounds of questions to the kernel per task
_REFERENCE = {
    "lookup": embedding.lookup,
    "pos_encoding": positional.pos_encoding,
    "sinusoidal_positions": positional.sinusoidal_positions,
}
#: the box's stand-ins for the library's functions raise this (see _stub)
REFERENCE_ERROR = "ReferenceNotAvailable"


class _Unknown(BaseException):  # noqa: N818 - an event: not asked yet
    """Raised by the replay for an input the kernel was not asked about yet."""


class KernelProblem(Exception):
    """The kernel gave no usable answer; the message says why, for the row."""


def _spec(arg):
    """An input as the kernel's ``_runner.decode`` reads it."""
    if isinstance(arg, np.ndarray):
        return {"shape": list(arg.shape), "data": arg.ravel().tolist()}
    if isinstance(arg, list | tuple):
        return [_spec(item) for item in arg]
    return int(arg)


def _key(args):
    return json.dumps([_spec(arg) for arg in args])


def _value(spec):
    """A value the learner's function returned, rebuilt from its description."""
    kind = spec["kind"]
    if kind == "None":
        return None
    if kind in ("bool", "int", "float", "str"):
        return getattr(builtins, kind)(spec["value"])
    if kind in ("list", "tuple"):
        return getattr(builtins, kind)(_value(item) for item in spec["items"])
    if kind in ("ndarray", "scalar"):
        dtype = np.dtype(str(spec["dtype"]))
        if dtype.kind not in "biuf":
            raise ValueError(f"dtype {dtype}")
        if kind == "scalar":
            return dtype.type(spec["value"])
        shape = tuple(int(n) for n in spec["shape"])
        return np.array(spec["data"], dtype=dtype).reshape(shape)
    name, text = str(spec["type"]), str(spec["repr"])
    return type(name, (_Opaque,), {"__repr__": lambda self: text})()


class _Opaque:
    """Stands for a value that is not numbers (its type name and repr only)."""


def _error(raised):
    """The exception the learner's function raised, rebuilt (type name, message)."""
    name, message = str(raised["type"]), str(raised["message"])
    if raised.get("timeout"):
        return TimeLimitExceeded(TIME_LIMIT)
    if name == "SystemExit":
        return SystemExit(message or None)
    base = getattr(builtins, name, None)
    if not (isinstance(base, type) and issubclass(base, BaseException)):
        base = NotImplementedError if raised.get("not_implemented") else Exception
    try:
        kind = type(name, (base,), {"__str__": lambda self: message})
    except (TypeError, ValueError):  # a name type() refuses
        kind = type("Exception", (base,), {"__str__": lambda self: message})
    return kind(message)


def _view_into(args, view, value):
    """``value`` as the same view into the checker's own argument, if possible."""
    target = args[int(view["arg"])]
    try:
        return np.ndarray(
            value.shape, value.dtype, buffer=target, offset=int(view["offset"]),
            strides=tuple(int(s) for s in view["strides"]),
        )  # fmt: skip
    except (TypeError, ValueError):  # not a view numpy can rebuild: a copy, then
        return value


def _replay(report, args):
    """Do to ``args`` what the learner's call did; ``(value, error)`` it gave."""
    for index, spec in report.get("changed", {}).items():
        args[int(index)][...] = _value(spec)  # the function wrote into it
    if "raised" in report:
        return None, _error(report["raised"])
    value = _value(report["value"])
    view = report.get("view")
    if view and isinstance(value, np.ndarray):
        value = _view_into(args, view, value)
        value.flags.writeable = bool(view["writeable"]) and value.flags.writeable
    return value, None


class _Replay:
    """The learner's function, as the kernel reported it."""

    def __init__(self, known):
        self.known, self.unknown, self.malformed = known, [], False

    def __call__(self, *args):
        key = _key(args)
        if key not in self.known:
            self.unknown.append(args)
            raise _Unknown
        try:
            value, error = _replay(self.known[key], args)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            self.malformed = True  # the kernel's report of this call is unreadable
            raise
        if error is not None:
            raise error
        return value


def _probe_inputs(task):
    """The inputs the checker gives a right answer, in order."""
    seen = []

    def probe(*args):
        seen.append(tuple(np.copy(a) if isinstance(a, np.ndarray) else a for a in args))
        return _REFERENCE[task](*args)

    getattr(checkers, f"check_{task}")(probe, isolated=False)
    return seen


def _missing(task):
    return (
        f"There is no function named {task} in the notebook "
        "(was it renamed or deleted?)."
    )


def _failed(message, **extra):
    return {"passed": False, "mistake": None, "convention": None,
            "message": message, **extra}  # fmt: skip


def _library_own(task, report, known):
    module = report.get("module")
    raised = [r.get("raised", {}).get("type") for r in known.values()]
    own = isinstance(module, str) and module.split(".")[0] == "posenc_lib"
    if own or REFERENCE_ERROR in raised:
        return _failed(
            f"{task}: this is posenc_lib's own {task}, imported, not one written "
            "in the notebook."
        )
    return None


def decide(task, ask):
    """The verdict on one task: ``passed``, ``mistake``, ``convention``, ``message``.

    ``ask(calls)`` runs the learner's function on each call's inputs in its
    kernel and returns the report of :func:`posenc_tools.grading._runner.answer`
    (parsed JSON); it raises :class:`KernelProblem` when there is none.
    """
    checker = getattr(checkers, f"check_{task}")
    known, pending = {}, _probe_inputs(task)
    for _ in range(MAX_ROUNDS):
        report = ask([[_spec(a) for a in args] for args in pending])
        if not isinstance(report, dict):
            raise KernelProblem("the kernel's answer was not readable")
        if report.get("missing"):
            return _failed(_missing(task))
        calls = report.get("calls")
        if not isinstance(calls, list) or not all(isinstance(c, dict) for c in calls):
            raise KernelProblem("the kernel's answer was not readable")
        known.update(
            (_key(args), call) for args, call in zip(pending, calls, strict=False)
        )
        own = _library_own(task, report, known)
        if own is not None:
            return own
        replay = _Replay(known)
        result = checker(replay, isolated=False)  # the replay is not learner code
        if replay.malformed:
            raise KernelProblem("the kernel's answer was not readable")
        if not replay.unknown:
            return {
                "passed": bool(result.passed),
                "mistake": result.mistake,
                "convention": result.convention,
                "message": result.message,
            }
        pending = replay.unknown
    raise KernelProblem("the checker kept asking about new inputs")
