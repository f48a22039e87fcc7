"""``posenc run --solution`` in a child process the command line can kill (private).

A solution may turn off the alarm, ignore ``SIGALRM``, swallow a Ctrl-C, leave
a thread running or end the process with ``os._exit(0)`` half-way; so the
script runs in a child process, in its own session (a Ctrl-C at the keyboard
reaches only the parent), watched as :mod:`._watchdog` describes:

* the child beats after each printed line and around each call of the
  learner's functions; silence for the time limit plus :data:`GRACE` gets the
  whole process group killed and reported (exit 2);
* its verdict is its exit status, sent just before it ends with ``os._exit``
  (so a thread left behind cannot keep it alive); no verdict means the
  process ended early: output is missing, exit 2, whatever the child's own
  exit status was;
* a real Ctrl-C reaches the parent, which kills the child and exits 130.

The script is read and checked by the parent and handed over on the child's
standard input; the child prints to the parent's standard output directly (no
copy in between), so the cost per query stays where it was.
"""

import os
import signal
import subprocess
import sys
from argparse import Namespace

from . import cli, guard  # cli imports this module too: names used late
from ._watchdog import Heartbeat, watch

__all__ = ["GRACE", "run_in_child"]

GRACE = 4.0  # seconds past the time limit: the child's own guard gives up at 2 s
_EXIT_ERROR = 2


class _Beat(Heartbeat):
    def finish(self, status):
        """Flush the streams, send the exit status and end the process at once."""
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        self.send_verdict(str(status).encode())
        os._exit(status)


def _child_main(argv):
    """The child: ``CONTROL_FD TIME_LIMIT SOLUTION``, the script on stdin."""
    beat = _Beat(int(argv[0]))
    guard.on_call = beat
    args = Namespace(file="-", solution=argv[2], time_limit=float(argv[1]))

    def give_up(limit):
        cli.say_gave_up(limit)
        beat.finish(_EXIT_ERROR)

    beat.finish(cli.run_main(args, beat=beat, give_up=give_up))


def _start(text, solution, time_limit, control):
    """The child process, its script already written to its standard input."""
    command = [sys.executable, "-m", __name__, str(control), repr(time_limit)]
    try:
        out = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file: the process's own
        out = None
    child = subprocess.Popen(
        [*command, solution],
        stdin=subprocess.PIPE,
        stdout=out,
        pass_fds=(control,),
        start_new_session=True,  # its own group, and no Ctrl-C from the keyboard
    )
    try:
        child.stdin.write(text.encode("utf-8", "surrogatepass"))
        child.stdin.close()
    except OSError:  # it ended before reading: reported as ending early
        pass
    return child


def _kill(child):
    """End the child and whatever it started in its process group."""
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except OSError:  # already gone
        pass
    child.wait()


def _ended_early(child):
    """What to say about a child that ended without a verdict."""
    try:
        code = child.wait(timeout=2.0)
    except subprocess.TimeoutExpired:  # it closed the control pipe and went on
        _kill(child)
        code = child.returncode
    if code < 0:
        how = f"was killed by {signal.Signals(-code).name}"
    else:
        how = f"exited with status {code} (os._exit()?)"
    return (
        f"posenc: the process running your solution {how} before the script was "
        "done: its output is incomplete."
    )


def run_in_child(text, solution, time_limit):
    """Run the script ``text`` with the functions of ``solution`` in a child.

    Returns
    -------
    status : int
        The child's exit status (0, 2, 130, 141), or 2 when it ended early or
        ran past ``time_limit`` plus :data:`GRACE` without a sign of life.
    message : str or None
        What to print on standard error (the child prints its own messages).
    """
    read_end, write_end = os.pipe()
    try:
        child = _start(text, solution, time_limit, write_end)
    finally:
        os.close(write_end)
    try:
        alive = lambda: child.poll() is None  # noqa: E731
        status, reason = watch(read_end, alive, time_limit=time_limit, grace=GRACE)
        if reason == "silent":
            return _EXIT_ERROR, (
                f"posenc: your function ran past the time limit ({time_limit:g} s) "
                "and did not stop when told to (does it turn off the alarm, or "
                "catch every exception?): its process was ended."
            )
        if reason == "ended":
            return _EXIT_ERROR, _ended_early(child)
        return (int(status) if status.isdigit() else _EXIT_ERROR), None
    finally:
        _kill(child)
        os.close(read_end)


if __name__ == "__main__":
    _child_main(sys.argv[1:])
