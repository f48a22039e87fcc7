"""Watching a child process that runs a learner's code (private).

Nothing the learner's code does in its own process can be relied on to stop
it: it may turn off the alarm (``signal.setitimer(signal.ITIMER_REAL, 0)``),
ignore ``SIGALRM``, swallow every exception, or end the process with
``os._exit(0)``. So ``posenc run --solution`` (:mod:`._child_run`) and the
checkers (:mod:`._isolation`) run it in a child process, and the parent decides
from what comes through one pipe:

Heartbeats
    The child writes ``.`` as each guarded call starts and ends (and after each
    printed line), at most every :data:`BEAT` seconds, so the cost per call is
    a clock read. Silence for the time limit plus a grace means the learner's
    code holds out against the child's own time limit.
The verdict
    At the end the child writes ``=LENGTH\\n`` and that many bytes, then ends
    with ``os._exit``. No verdict means the process ended early (``os._exit``,
    a crash, a signal).

Examples
--------
>>> read_end, write_end = os.pipe()
>>> beat = Heartbeat(write_end)
>>> beat.send_verdict(b"0")
>>> watch(read_end, lambda: True, time_limit=1.0, grace=1.0)
(b'0', None)
>>> os.close(read_end); os.close(write_end)
"""

import os
import select
import time

__all__ = ["BEAT", "Heartbeat", "watch"]

BEAT = 0.2  # seconds: a child beats at most this often
_EXIT_ERROR = 2


class Heartbeat:
    """Writes ``.`` to the pipe ``fd``, at most every :data:`BEAT` seconds.

    If the parent is gone (the pipe is broken) the child ends at once: nobody
    is waiting for its answer.
    """

    def __init__(self, fd):
        self.fd, self.last = fd, 0.0

    def __call__(self):
        now = time.monotonic()
        if now - self.last >= BEAT:
            self.last = now
            self._write(b".")

    def _write(self, data):
        try:
            while data:
                data = data[os.write(self.fd, data) :]
        except OSError:
            os._exit(_EXIT_ERROR)

    def send_verdict(self, payload):
        """Send ``payload`` (bytes) as the verdict."""
        self._write(b"=" + str(len(payload)).encode() + b"\n" + payload)


def _read(fd, left):
    """Bytes from ``fd`` within ``left`` seconds (at most 0.5 s), b"" at its
    end, None if nothing came."""
    ready, _, _ = select.select([fd], [], [], max(0.0, min(left, 0.5)))
    return os.read(fd, 1 << 16) if ready else None


def watch(fd, alive, *, time_limit, grace):
    """Wait for the child's verdict on the pipe ``fd``.

    Parameters
    ----------
    fd : int
        The read end of the pipe.
    alive : callable
        ``alive()`` is False once the child has ended (a process it started
        may still hold the pipe open).
    time_limit, grace : float
        Seconds of silence allowed: the learner's limit plus a grace.

    Returns
    -------
    payload : bytes or None
        The verdict, or None.
    reason : None, "silent" or "ended"
        Why there is no verdict.
    """
    received, deadline = b"", time.monotonic() + time_limit + grace
    while True:
        verdict = _verdict(received)
        if verdict is not None:
            return verdict, None
        left = deadline - time.monotonic()
        if left <= 0:
            return None, "silent"
        chunk = _read(fd, left)
        if chunk is None:  # no sign of life for half a second
            if not alive() and not select.select([fd], [], [], 0)[0]:
                return None, "ended"
            continue
        if not chunk:
            return None, "ended"
        received = received.lstrip(b".") + chunk
        deadline = time.monotonic() + time_limit + grace


def _verdict(received):
    """The payload of a complete ``=LENGTH\\n...`` in ``received``, else None."""
    start = received.find(b"=")
    if start < 0:
        return None
    length, newline, rest = received[start + 1 :].partition(b"\n")
    if not newline or not length.isdigit() or len(rest) < int(length):
        return None
    return rest[: int(length)]
