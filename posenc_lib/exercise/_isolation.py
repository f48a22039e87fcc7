"""Run a check in a forked child, so that no learner function can hang, kill or
crash the caller (private).

The time limit of :mod:`.guard` lives in the learner's own process: code
that turns off the alarm, ignores ``SIGALRM`` or nests bare ``except`` loops
outlives it, and ``os._exit(0)`` ends the process (in a notebook, the kernel).
So :func:`run_check` forks: the child runs the whole check (every call of the
learner's function, under the usual per-call limit) and sends back the
:class:`~._checking.CheckResult` as JSON, with what the function printed; the
parent waits for it on a pipe (:mod:`._watchdog`), on its main thread, so a
Ctrl-C (a kernel interrupt) stops the wait, kills the child and is raised as
usual. The child beats around each call; silence for the limit plus
:data:`GRACE` or an end without a verdict becomes a verdict of its own. The
child runs in its own process group, killed as a whole when the check is over.

Fork copies the process, so the learner's function, defined in a notebook
cell, runs as it is (nothing is pickled); the fork costs a few milliseconds.
Where there is no fork (Windows) the check runs in the process, as before.
Either way a checker that fails in its own code (because the learner's code
changed numpy, say ``np.allclose = lambda *a, **k: True``) gives a verdict
saying it could not judge, never a traceback.
"""

import gc
import io
import json
import os
import signal
import sys
import warnings

from . import guard
from ._checking import CheckResult, make_result, see
from ._watchdog import Heartbeat, watch
from .guard import TIME_LIMIT, why

__all__ = ["GRACE", "judged", "run_check"]

GRACE = 2.0  # seconds past the per-call limit before the child is ended
_OUTPUT_LIMIT = 1 << 16  # characters of the function's own output passed back


class _Capture(io.TextIOBase):
    """What the learner's function prints, up to :data:`_OUTPUT_LIMIT`."""

    def __init__(self):
        self.parts, self.size = [], 0

    def writable(self):
        return True

    def write(self, text):
        text = str(text)
        if self.size < _OUTPUT_LIMIT:
            self.parts.append(text[: _OUTPUT_LIMIT - self.size])
            if self.size + len(text) > _OUTPUT_LIMIT:
                self.parts.append("\n... (the rest of the output is left out)\n")
        self.size += len(text)
        return len(text)

    def getvalue(self):
        return "".join(self.parts)


def judged(name, check, fn, time_limit):
    """``check(fn, time_limit=...)``, or a verdict saying the checker failed."""
    try:
        return check(fn, time_limit=time_limit)
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: BLE001 - the checker's own code failed
        return make_result(
            False,
            None,
            [
                f"{name}: the checker could not judge your function: its own code "
                f"failed ({why(error)}).",
                "Did your code change numpy or posenc_lib (for example "
                "np.allclose = ...)? Restart the kernel, then run the check again.",
            ],
        )


def _child(read_end, write_end, name, check, fn, time_limit):
    """The forked child: run the check, send the verdict, end. Never returns."""
    try:
        os.close(read_end)
        os.setpgid(0, 0)
        try:
            signal.set_wakeup_fd(-1)  # the parent's event loop is not ours to wake
        except ValueError:  # not the main thread
            pass
        out, err = _Capture(), _Capture()
        sys.stdout, sys.stderr = out, err
        beat = Heartbeat(write_end)
        guard.on_call, guard.last_resort = beat, None
        result = judged(name, check, fn, time_limit)
        fields = (result.passed, result.mistake, result.message, result.convention)
        payload = [*fields, out.getvalue(), err.getvalue()]
        beat.send_verdict(json.dumps(payload).encode())
    finally:
        os._exit(0)


class _Process:
    """A forked child, reaped at most once."""

    def __init__(self, pid):
        self.pid, self.status = pid, None

    def alive(self):
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
        return self.status is None

    def end(self):
        """Kill the child's group (whatever it started too), then reap it."""
        for kill in (os.killpg, os.kill):
            try:
                kill(self.pid, signal.SIGKILL)
            except OSError:
                pass
        if self.status is None:
            self.status = os.waitpid(self.pid, 0)[1]


def _no_verdict(name, reason, limit, process):
    """The verdict when the child said nothing: ran past its limit, or ended."""
    if reason == "silent":
        return make_result(
            False,
            None,
            [
                f"{name}: your function did not finish in time.",
                f"It ran past the time limit ({limit:g} s) and did not stop when "
                "told to (does it turn off the alarm, ignore SIGALRM or catch every "
                "exception?); the process running it was ended.",
                see(name),
            ],
        )
    process.end()
    code = process.status
    how = (
        f"it was killed by {signal.Signals(os.WTERMSIG(code)).name}"
        if os.WIFSIGNALED(code)
        else f"it exited with status {os.waitstatus_to_exitcode(code)}: os._exit()?"
    )
    return make_result(
        False,
        None,
        [
            f"{name}: your function ended the process running the check ({how}) "
            "instead of returning an answer.",
            "Return the answer; do not end the program. (This kernel is unharmed: "
            "the check ran in a copy of it.)",
            see(name),
        ],
    )


def _result(payload):
    """The CheckResult sent as JSON; what the function printed is printed here."""
    passed, mistake, message, convention, out, err = json.loads(payload)
    if out:
        print(out, end="")
    if err:
        print(err, end="", file=sys.stderr)
    return CheckResult(bool(passed), mistake, message, convention=convention)


def run_check(name, check, fn, time_limit=None):
    """The :class:`CheckResult` of ``check(fn, time_limit=...)``, run in a fork.

    Examples
    --------
    >>> from posenc_lib.exercise.checkers import _check_pos_encoding
    >>> import os
    >>> print(run_check("pos_encoding", _check_pos_encoding, lambda p, d: os._exit(0)))
    ... # doctest: +ELLIPSIS
    pos_encoding: your function ended the process running the check (it exited ...
    """
    limit = TIME_LIMIT if time_limit is None else guard._check_limit(time_limit)
    if not hasattr(os, "fork"):
        return judged(name, check, fn, time_limit)
    read_end, write_end = os.pipe()
    pid = -1
    gc.freeze()  # the child's collections then skip the parent's objects: no copies
    try:
        with warnings.catch_warnings():  # Python 3.12 warns: forking with threads
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    finally:
        if pid != 0:
            gc.unfreeze()
    if pid == 0:
        _child(read_end, write_end, name, check, fn, time_limit)
    os.close(write_end)
    process = _Process(pid)
    try:
        try:
            os.setpgid(pid, pid)  # as the child does: no race with the kill below
        except OSError:
            pass
        payload, reason = watch(read_end, process.alive, time_limit=limit, grace=GRACE)
        if payload is None:
            return _no_verdict(name, reason, limit, process)
        return _result(payload)
    finally:
        process.end()
        os.close(read_end)
