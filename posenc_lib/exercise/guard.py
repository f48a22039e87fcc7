"""Calling a learner's function safely: a time limit, and nothing escapes.

:func:`guarded_call` runs ``fn(*args)`` and returns an :class:`Outcome`: the
value, or whatever the call raised, of *any* kind (``SystemExit`` from
``sys.exit()``, ``KeyboardInterrupt`` raised by the code, an exception whose
message itself raises), or :class:`TimeLimitExceeded` if it ran past the limit.
Only a real Ctrl-C of the person at the keyboard is passed on.

How the limit is enforced
    On the main thread of a POSIX process (the command line, and a Jupyter
    kernel, which runs cells on its main thread) a ``SIGALRM`` timer raises
    :class:`TimeLimitExceeded` inside the learner's code; it derives from
    ``BaseException`` so ``except Exception`` cannot swallow it; the timer
    fires again every 0.05 s, and from the second time on every line of the
    learner's code raises it (a trace function), so neither can a bare
    ``except`` in a loop (nested ones in several loops can still hold out: the
    command line then exits with a message 2 s later; and since the learner's
    code can also turn the alarm off, ``posenc run --solution`` runs it in a
    child process that its parent kills when it goes silent, see
    ``_child_run``). It costs about 0.15 ms
    a call (a check makes 5 to 20 calls and takes 10 to 40 ms in all). A loop
    inside one C call (numpy on a huge array) is only stopped when it returns.
    Elsewhere (Windows, a worker thread, or when a timer is already running,
    e.g. pytest-timeout's) the call runs in a daemon thread that is abandoned
    when the limit passes: the hang is reported, but the loop keeps a core busy
    until the process ends.
"""

import signal
import sys
import threading
import time
from dataclasses import dataclass

__all__ = [
    "TIME_LIMIT",
    "Outcome",
    "TimeLimitExceeded",
    "guarded_call",
    "last_resort",
    "on_call",
    "why",
]

TIME_LIMIT = 5.0
"""Seconds one call of the learner's function may take (the checkers' cases and
a script's queries are tiny: the right answer takes well under a millisecond)."""

_MESSAGE_LIMIT = 1.0  # seconds to turn an exception into its message
_REFIRE = 0.05  # seconds between repeated alarms once the limit has passed
_GIVE_UP = 2.0  # seconds past the limit after which last_resort is called

last_resort = None
"""Called (with the limit) if a call still runs 2 s past its limit, having
swallowed every TimeLimitExceeded (nested bare ``except`` clauses): the command
line sets it to print a message and exit; in a notebook it stays None."""

on_call = None
"""Called with no argument as each guarded call starts and as it ends: the child
process of ``posenc run --solution`` sets it to tell its parent it is alive."""


class TimeLimitExceeded(BaseException):  # noqa: N818 - reads as an event, like SystemExit
    """Raised inside the learner's code when it runs past the time limit."""


@dataclass(frozen=True)
class Outcome:
    """What a guarded call gave: ``value``, or the exception it raised."""

    value: object = None
    error: BaseException | None = None


def _check_limit(time_limit):
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
        raise TypeError(f"time_limit == {time_limit!r}, must be a number of seconds.")
    if not 0 < time_limit <= 3600:
        raise ValueError(f"time_limit == {time_limit}, must be in (0, 3600] seconds.")
    return float(time_limit)


def _alarm_available():
    """True on a POSIX main thread with no interval timer already running."""
    if not hasattr(signal, "setitimer"):
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    return signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def guarded_call(fn, args=(), time_limit=None):
    """``Outcome`` of ``fn(*args)``; never raises, except on a real Ctrl-C.

    Parameters
    ----------
    fn : callable
    args : tuple
    time_limit : float, optional
        Seconds; default :data:`TIME_LIMIT`.

    Examples
    --------
    >>> guarded_call(max, (2, 3)).value
    3
    >>> import sys
    >>> guarded_call(sys.exit, (4,)).error
    SystemExit(4)
    >>> def endless():
    ...     while True:
    ...         pass
    >>> type(guarded_call(endless, time_limit=0.1).error).__name__
    'TimeLimitExceeded'
    """
    limit = TIME_LIMIT if time_limit is None else _check_limit(time_limit)
    if on_call is not None:
        on_call()
    try:
        if _alarm_available():
            return _call_with_alarm(fn, args, limit)
        return _call_in_thread(fn, args, limit)
    finally:
        if on_call is not None:
            on_call()


def _call_with_alarm(fn, args, limit):
    interrupted, alarms, done, old_trace = [], [], [], sys.gettrace()
    started = time.monotonic()

    def on_alarm(signum, frame):
        if done:  # a late alarm, already being disarmed: nothing to stop
            return
        alarms.append(signum)
        overtime = time.monotonic() - started - limit
        if overtime > _GIVE_UP and last_resort is not None:
            last_resort(limit)  # still running 2 s later: e.g. the CLI exits
        if len(alarms) > 1 and not done:  # the first was swallowed: every line
            _raise_on_every_line(frame, limit, done)
        raise TimeLimitExceeded(limit)

    def on_interrupt(signum, frame):
        interrupted.append(signum)
        raise KeyboardInterrupt

    old_alarm = signal.signal(signal.SIGALRM, on_alarm)
    old_interrupt = signal.getsignal(signal.SIGINT)
    if old_interrupt is signal.default_int_handler:
        signal.signal(signal.SIGINT, on_interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, limit, _REFIRE)
        try:
            value = fn(*args)
        finally:
            _disarm(done, old_trace)
        return Outcome(value=value)
    except KeyboardInterrupt as exc:
        if interrupted:  # Ctrl-C at the keyboard, not the learner's raise
            raise
        return Outcome(error=exc)
    except BaseException as exc:  # noqa: BLE001 - the point: nothing escapes
        return Outcome(error=exc)
    finally:
        _disarm(done, old_trace)  # again: an alarm may have cut the first short
        signal.signal(signal.SIGALRM, old_alarm)
        if old_interrupt is signal.default_int_handler:
            signal.signal(signal.SIGINT, old_interrupt)


def _disarm(done, old_trace):
    """Stop the timer and the tracer, even if an alarm interrupts this: a timer
    left running would kill the process with its next SIGALRM, once the old
    handler (SIG_DFL) is back. This frame is never traced."""
    while True:
        try:
            done.append(True)  # from here on, an alarm raises nothing
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.settrace(old_trace)
            return
        except TimeLimitExceeded:  # raised before ``done`` was seen: go again
            pass


def _raise_on_every_line(frame, limit, done):
    """Make the learner's frames raise at every line (and every new call), even
    inside an ``except`` clause that swallowed the first TimeLimitExceeded;
    ``done`` turns it off once the call is over."""

    def tracer(frame, event, arg):
        if done or frame.f_code.co_filename == __file__:
            return None  # the call is over, or this is the alarm handler itself
        if event in ("call", "line"):
            raise TimeLimitExceeded(limit)
        return tracer

    own = _call_with_alarm.__code__
    frames = []
    while frame is not None and frame.f_code is not own:
        frames.append(frame)
        frame = frame.f_back
    if frame is None:  # not inside a guarded call after all
        return
    sys.settrace(tracer)
    for learner_frame in frames:
        learner_frame.f_trace = tracer


def _call_in_thread(fn, args, limit):
    box = {}

    def target():
        try:
            box["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001
            box["error"] = exc

    worker = threading.Thread(target=target, name="posenc-learner-call", daemon=True)
    worker.start()
    worker.join(limit)
    if worker.is_alive():  # cannot be stopped: left to run, reported as a hang
        return Outcome(error=TimeLimitExceeded(limit))
    return Outcome(box.get("value"), box.get("error"))


def why(error):
    """A one-line account of ``error`` for a message, safe for any exception.

    Examples
    --------
    >>> why(ValueError("bad"))
    'ValueError: bad'
    >>> why(TimeLimitExceeded(5.0))
    'no answer within 5 s (the time limit; an endless loop?)'
    >>> why(SystemExit(0))
    'SystemExit: 0 (sys.exit() ends the program; return the answer instead)'
    """
    if isinstance(error, TimeLimitExceeded):
        limit = error.args[0] if error.args else TIME_LIMIT
        return f"no answer within {limit:g} s (the time limit; an endless loop?)"
    name = type(error).__name__
    shown = guarded_call(str, (error,), _MESSAGE_LIMIT)  # it may raise, or loop
    text = shown.value if isinstance(shown.value, str) else ""
    if shown.error is not None or not isinstance(shown.value, str):
        text = "(its message could not be shown)"
    text = " ".join(text.split())
    text = text if len(text) <= 200 else text[:197] + "..."
    if isinstance(error, SystemExit):
        code = "" if error.code is None else f": {error.code}"
        return f"{name}{code} (sys.exit() ends the program; return the answer instead)"
    return name + (f": {text}" if text else "")
