"""Run a learner's code in a child process: a time limit, and nothing escapes.

Threat model: in a learner's own session this guards against *accidents* (an
endless loop, any exception, ``sys.exit()``, ``os._exit()``, ``input()``, huge
output, a fork, a ``numpy.py`` in the working folder), not against a learner
attacking their own kernel: the class grader boxes each kernel for that, with a
guard of its own (``tools/posenc_tools/grading/_in_box.py``).

The child's process group is killed as a whole past the time limit, when the
guard closes and, on Linux, when the parent dies (:func:`_isolate`). Without
``os.fork`` (Windows) a request is served in this process: no time limit, no
capture, no guard against ``os._exit()`` or ``input()``.
"""

import builtins
import gc
import json
import os
import signal
import sys
import time
import warnings
from contextlib import suppress
from multiprocessing.connection import Pipe

__all__ = ["FILE_LIMIT", "TIME_LIMIT", "Guard"]

TIME_LIMIT = 5.0  # seconds a learner's call may take (a right one: under 1 ms)
FILE_LIMIT = 16 * 2**20  # bytes any file written by the child may hold
PRINTED_LIMIT = 2**16  # bytes of printed output sent back per request


class Guard:
    """A child process that serves its parent's requests, each under a time limit.

    ``serve(request, note)``, run in the child, returns a dict of plain data and
    calls ``note(data)`` just before learner code runs: ``time_limit`` (seconds,
    checked by the caller; default :data:`TIME_LIMIT`) runs from each note.

    Examples
    --------
    >>> def serve(request, note):
    ...     note({"doing": "call"})
    ...     print("adding")
    ...     return {"sum": sum(request)}
    >>> with Guard(serve) as guard:
    ...     guard.ask([1, 2])
    {'sum': 3, 'printed': 'adding\\n'}
    """

    def __init__(self, serve, time_limit=None):
        self.serve = serve
        self.limit = TIME_LIMIT if time_limit is None else float(time_limit)
        self.pid = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def ask(self, request):
        """The child's reply to ``request``; or, the child gone (the next request
        starts another), the last note plus ``"timeout": seconds`` if it ran
        past the limit, ``{"ended": how}`` if it ended."""
        if not hasattr(os, "fork"):  # Windows: in this process, no time limit
            return self.serve(request, lambda data: None)
        if self.pid is None:
            self._start()
        note, deadline = {}, time.monotonic() + self.limit
        try:
            self._requests.send(request)
            while self._replies.poll(max(0.0, deadline - time.monotonic())):
                kind, data = json.loads(self._replies.recv_bytes())
                if kind == "reply":
                    return data
                note, deadline = data, time.monotonic() + self.limit
        except (EOFError, OSError):  # it has ended
            return self._ended(deadline)
        if self._exited() is not None:
            return self._ended(deadline)
        self.close()
        return {**note, "timeout": self.limit}

    def close(self):
        """End the child and its process group (if it runs)."""
        if self.pid is not None:
            self._requests.close()
            self._replies.close()
            for kill in (os.killpg, os.kill):
                with suppress(OSError):  # gone already
                    kill(self.pid, signal.SIGKILL)
            if self._exited() is None:
                self.status = os.waitpid(self.pid, 0)[1]
            self.pid = None

    def _start(self):
        requests, self._requests = Pipe(duplex=False)
        self._replies, replies = Pipe(duplex=False)
        parent, self.status = os.getpid(), None
        gc.freeze()  # the child's collections skip the parent's objects: no copies
        with warnings.catch_warnings():  # Python 3.12 warns: forking with threads
            warnings.simplefilter("ignore", DeprecationWarning)
            self.pid = os.fork()
        if self.pid == 0:
            try:
                self._requests.close()
                self._replies.close()
                _child(self.serve, requests, replies, parent)
            finally:
                os._exit(70)
        gc.unfreeze()
        requests.close()
        replies.close()
        with suppress(OSError):
            os.setpgid(self.pid, self.pid)  # as the child does: no race with a kill

    def _exited(self):
        """The child's wait status if it has ended (then reaped), else None."""
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            self.status = status if pid else None
        return self.status

    def _ended(self, deadline):
        """``{"ended": how}`` once the child has ended (killed at ``deadline``)."""
        while self._exited() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        self.close()
        if os.WIFSIGNALED(self.status):
            name = signal.Signals(os.WTERMSIG(self.status)).name
            return {"ended": f"it was killed by {name}"}
        code = os.WEXITSTATUS(self.status)
        return {"ended": f"it exited with status {code}: os._exit()?"}


def _child(serve, requests, replies, parent):
    """Serve requests until the parent closes the pipe. Never returns."""
    me = os.getpid()
    capture = _isolate(parent)

    def send(kind, data):
        if os.getpid() != me:  # a copy the learner's code forked: not ours to answer
            os._exit(0)
        replies.send_bytes(json.dumps([kind, data]).encode())

    while True:
        try:
            request = requests.recv()
        except EOFError:  # the parent is done
            os._exit(0)
        reply = serve(request, lambda data: send("note", data))
        send("reply", {**reply, "printed": _drain(capture)})


def _no_input(prompt=""):
    """``input()`` in the child, whose standard input is /dev/null."""
    raise EOFError("EOF when reading a line")


def _isolate(parent):
    """Group, path, signals, limits and streams of the child; the capture fd."""
    import ctypes
    import resource
    import tempfile

    os.setpgid(0, 0)
    with suppress(OSError, AttributeError):  # not Linux
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (Linux)
    if os.getppid() != parent:  # it died before the line above
        os._exit(0)
    folder = os.getcwd()
    sys.path[:] = [path for path in sys.path if path not in ("", ".", folder)]
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a full file: an OSError
    with suppress(ValueError):  # not the main thread
        signal.set_wakeup_fd(-1)  # the parent's event loop is not ours to wake
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))
    with tempfile.TemporaryFile() as file:  # nameless: it ends with the child
        capture = os.dup(file.fileno())
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(capture, 1)
    os.dup2(capture, 2)
    sys.stdin = open(os.devnull)
    sys.stdout, sys.stderr = (
        open(n, "w", buffering=1, closefd=False, errors="backslashreplace")
        for n in (1, 2)
    )
    builtins.input = _no_input  # a kernel's own input() would ask its front end
    return capture


def _drain(capture):
    """What the child printed since the last time, at most PRINTED_LIMIT bytes."""
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, OSError, ValueError):
            stream.flush()
    size = os.fstat(capture).st_size
    text = os.pread(capture, PRINTED_LIMIT, 0).decode("utf-8", "replace")
    os.ftruncate(capture, 0)
    os.lseek(capture, 0, os.SEEK_SET)  # shared with fds 1 and 2
    if size > PRINTED_LIMIT:
        text += f"\n... ({size - PRINTED_LIMIT} more bytes of output left out)\n"
    return text
