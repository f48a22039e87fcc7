"""``posenc run --solution`` in a child process the command line can kill (private).

Nothing a solution does in its own process can be relied on to stop it: it may
turn off the alarm (``signal.setitimer(signal.ITIMER_REAL, 0)``), ignore
``SIGALRM``, swallow a Ctrl-C, leave a thread running or end the process with
``os._exit(0)`` half-way. So the script runs in a child process (in its own
session, so a Ctrl-C at the keyboard reaches only the parent), and the parent
decides:

Heartbeats
    The child writes a byte to a control pipe as each call of the learner's
    functions starts and ends and after each printed line, at most every
    :data:`BEAT` seconds (a clock read per line otherwise: the cost per query
    stays where it was). The parent waits on that pipe; silence for the time
    limit plus :data:`GRACE` means the learner's code holds out against the
    child's own time limit, and the whole process group is killed.
The verdict
    At the end the child writes ``=STATUS`` and ends with ``os._exit``, so a
    thread it leaves behind cannot keep it alive. No verdict means the process
    ended early (``os._exit``, a crash, a signal): output is missing, and the
    parent says so and exits 2, whatever the child's exit status was.
A real Ctrl-C
    The parent gets it, kills the child's group and exits 130.

The script itself is read and checked by the parent and handed over on the
child's standard input; the child prints to the parent's standard output
directly (no copy in between).
"""

import os
import select
import signal
import subprocess
import sys
import time
from argparse import Namespace

__all__ = ["BEAT", "GRACE", "run_in_child"]

BEAT = 0.2  # seconds: the child beats at most this often
GRACE = 4.0  # seconds past the time limit: the child's own guard gives up at 2 s
_EXIT_ERROR = 2
_VERDICT = b"="


class _Heartbeat:
    """Writes a byte to the control pipe, at most every :data:`BEAT` seconds."""

    def __init__(self, fd):
        self.fd, self.last = fd, 0.0

    def __call__(self):
        now = time.monotonic()
        if now - self.last >= BEAT:
            self.last = now
            self._write(b".")

    def _write(self, data):
        try:
            os.write(self.fd, data)
        except OSError:  # the parent is gone: nobody is waiting for the answer
            os._exit(_EXIT_ERROR)

    def finish(self, status):
        """Flush the streams, send the verdict and end the process at once."""
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        self._write(_VERDICT + str(status).encode() + b"\n")
        os._exit(status)


def _child_main(argv):
    """The child: ``CONTROL_FD TIME_LIMIT SOLUTION``, the script on stdin."""
    from . import _time_limit, cli

    beat = _Heartbeat(int(argv[0]))
    _time_limit.on_call = beat
    args = Namespace(file="-", solution=argv[2], time_limit=float(argv[1]))

    def give_up(limit):
        cli.say_gave_up(limit)
        beat.finish(_EXIT_ERROR)

    beat.finish(cli.run_main(args, beat=beat, give_up=give_up))


def _start(text, solution, time_limit, control):
    """The child process, its script already written to its standard input."""
    command = [sys.executable, "-m", __name__, str(control), repr(time_limit)]
    out = sys.stdout.fileno() if hasattr(sys.stdout, "fileno") else None
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


def _watch(child, control, time_limit):
    """The child's verdict, or None if it went silent past the limit or ended
    without one; returns ``(status, reason)``."""
    received, deadline = b"", time.monotonic() + time_limit + GRACE
    while _VERDICT not in received or not received.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0:
            return None, "silent"
        ready, _, _ = select.select([control], [], [], min(left, 0.5))
        if not ready:
            if child.poll() is not None and not _readable(control):
                return None, "ended"
            continue
        chunk = os.read(control, 4096)
        if not chunk:
            return None, "ended"
        received = (received + chunk)[-64:]  # beats are dots: keep the tail
        deadline = time.monotonic() + time_limit + GRACE
    status = received[received.rindex(_VERDICT) + 1 : -1]
    return (int(status), None) if status.isdigit() else (None, "ended")


def _readable(fd):
    return bool(select.select([fd], [], [], 0)[0])


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
        status, reason = _watch(child, read_end, time_limit)
        if reason == "silent":
            return _EXIT_ERROR, (
                f"posenc: your function ran past the time limit ({time_limit:g} s) "
                "and did not stop when told to (does it turn off the alarm, or "
                "catch every exception?): its process was ended."
            )
        if reason == "ended":
            return _EXIT_ERROR, _ended_early(child)
        return status, None
    finally:
        _kill(child)
        os.close(read_end)


if __name__ == "__main__":
    _child_main(sys.argv[1:])
