"""What a learner's box runs besides their code: its start, and its guard.

Copied into the box's ``posenc_lib`` as ``_box.py`` (:func:`..box.make_stub`);
it imports the standard library only. :func:`start` runs as the box's kernel
starts, before any learner's code: it caps the box's threads
(``RLIMIT_NPROC``) and forbids new processes for good (a seccomp filter on
every thread of the kernel): threads share the kernel's one address space, so
its ``RLIMIT_AS`` (``--memory-mb``) bounds the learner's code as a whole.
Python's ways to start a process are refused by name (an audit hook):
``PermissionError: the grader's box forbids new processes (os.fork)``; any
other way gets ``EPERM``.

:class:`Guard` is ``posenc_lib.exercise.guard.Guard`` as the box holds it: the
checks cannot fork, so each call runs in a thread of the kernel, its output
discarded. A call still running at the time limit is reported as a timeout and
left running (it dies with the box); one that ends the kernel (``os._exit``)
makes the learner's row say the kernel died.
"""

import ctypes
import errno
import os
import queue
import resource
import sys
import threading
import time

__all__ = ["TIME_LIMIT", "Guard"]

TIME_LIMIT = 5.0  # as posenc_lib.exercise.guard's
#: per machine: its AUDIT_ARCH, the numbers of seccomp, fork, vfork, clone, clone3
MACHINES = {
    "x86_64": (0xC000003E, 317, 57, 58, 56, 435),
    "aarch64": (0xC00000B7, 277, None, None, 220, 435),  # no fork, no vfork
}
#: Python's audit events that would start a process
REFUSED = {"os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.system"}
REFUSED |= {"subprocess.Popen"}


def no_processes_filter(machine):
    """The seccomp program (raw BPF) that forbids new processes on ``machine``.

    ``fork``, ``vfork`` and ``clone`` without ``CLONE_THREAD`` fail with
    ``EPERM``; ``clone3`` (whose flags a filter cannot read) with ``ENOSYS``,
    so that the C library starts threads with ``clone``; a system call of
    another ABI (32-bit, x32) with ``EPERM``; anything else is allowed.
    """
    if machine not in MACHINES:
        raise OSError(f"the box's filter knows {' and '.join(MACHINES)}, not {machine}")
    audit, _, fork, vfork, clone, clone3 = MACHINES[machine]
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    allow, eperm, enosys = 0x7FFF0000, 0x50000 | errno.EPERM, 0x50000 | errno.ENOSYS
    # (code, k, where if true, where if false): a return value, or 0 for the next
    code = [(ld, 4, 0, 0), (jeq, audit, 0, eperm), (ld, 0, 0, 0)]  # arch, number
    code += [(jge, 0x40000000, eperm, 0), (jeq, clone3, enosys, 0)]  # x32, clone3
    code += [(jeq, nr, eperm, 0) for nr in (fork, vfork) if nr is not None]
    code += [(jeq, clone, 0, allow), (ld, 16, 0, 0), (jset, 0x10000, allow, eperm)]
    ends = [allow, eperm, enosys]
    program = b""
    for at, (op, k, true, false) in enumerate(code):
        ahead = len(code) - at - 1  # from the next instruction to the first return
        jumps = [0 if to == 0 else ahead + ends.index(to) for to in (true, false)]
        program += op.to_bytes(2, "little") + bytes(jumps) + k.to_bytes(4, "little")
    for k in ends:
        program += ret.to_bytes(2, "little") + b"\0\0" + k.to_bytes(4, "little")
    return program


def forbid_processes():  # pragma: no cover - for good: in a box's kernel only
    """Install :func:`no_processes_filter` on every thread of this process."""
    raw = no_processes_filter(os.uname().machine)
    program = ctypes.create_string_buffer(raw, len(raw))

    class Program(ctypes.Structure):  # struct sock_fprog
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Program(len(raw) // 8, ctypes.addressof(program))
    libc = ctypes.CDLL(None, use_errno=True)
    seccomp = MACHINES[os.uname().machine][1]
    # PR_SET_NO_NEW_PRIVS; SECCOMP_SET_MODE_FILTER with SECCOMP_FILTER_FLAG_TSYNC
    one = ctypes.c_long(1)
    if libc.prctl(38, one, 0, 0, 0) or libc.syscall(
        ctypes.c_long(seccomp), one, one, ctypes.byref(fprog)
    ):
        raise OSError(ctypes.get_errno(), "seccomp filter refused")


def _refuse(event, args):
    if event in REFUSED:
        raise PermissionError(f"the grader's box forbids new processes ({event})")


def start(uid, extra):  # pragma: no cover - in a box's kernel only
    """Cap the box's threads, forbid processes, and drop to ``uid`` if not 0.

    The kernel exits (status 70) should any of it fail.
    """
    try:
        # its threads, and bwrap's init in a lecturer's box (the same user's)
        tasks = len(os.listdir("/proc/self/task")) + (0 if uid else 1)
        resource.setrlimit(resource.RLIMIT_NPROC, (tasks + extra, tasks + extra))
        forbid_processes()
        sys.addaudithook(_refuse)
        if uid:  # its private /tmp and "..": writable, as they were for root
            os.chmod("/tmp", 0o1777)
            os.chmod("..", 0o1777)
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
    except BaseException:
        os._exit(70)


class _Discard:
    """``sys.stdout`` and ``sys.stderr`` while guarded: a guarded thread's
    writes are dropped, every other thread's go where they went."""

    guarded = set()

    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        if threading.get_ident() in self.guarded:
            return len(text)
        return self.stream.write(text)

    def __getattr__(self, name):
        return getattr(self.stream, name)


class Guard:
    """A thread that serves requests, each waited on for ``time_limit`` seconds.

    As ``posenc_lib.exercise.guard.Guard``: ``serve(request, note)`` returns a
    dict of plain data and calls ``note(data)`` just before learner code runs;
    the limit runs from each note.

    >>> with Guard(lambda request, note: {"sum": sum(request)}) as guard:
    ...     guard.ask([1, 2])
    {'sum': 3, 'printed': ''}
    """

    def __init__(self, serve, time_limit=None):
        self.serve = serve
        self.limit = TIME_LIMIT if time_limit is None else float(time_limit)
        self.requests, self.replies, self.thread = queue.SimpleQueue(), None, None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def ask(self, request):
        """The reply to ``request``, or the last note plus ``"timeout": seconds``."""
        if self.thread is None:
            self.replies = queue.SimpleQueue()
            queues = (self.requests, self.replies)
            self.thread = threading.Thread(target=self._run, args=queues, daemon=True)
            for name in ("stdout", "stderr"):
                if not isinstance(getattr(sys, name), _Discard):
                    setattr(sys, name, _Discard(getattr(sys, name)))
            self.thread.start()
        self.requests.put(request)
        note, deadline = {}, time.monotonic() + self.limit
        while True:
            try:
                kind, data = self.replies.get(timeout=deadline - time.monotonic())
            except (queue.Empty, ValueError):  # ValueError: a negative timeout
                self.close()  # the next request starts another thread
                return {**note, "timeout": self.limit}
            if kind == "reply":
                if "ended" in data:
                    self.close()
                return data
            note, deadline = data, time.monotonic() + self.limit

    def close(self):
        """Let the thread end once it is done (it is left running if it is not)."""
        if self.thread is not None:
            self.requests.put(None)
            self.requests, self.thread = queue.SimpleQueue(), None

    def _run(self, requests, replies):
        me = threading.get_ident()
        _Discard.guarded.add(me)
        try:
            while (request := requests.get()) is not None:
                note = lambda data: replies.put(("note", data))  # noqa: E731
                replies.put(("reply", {**self.serve(request, note), "printed": ""}))
        except BaseException as exc:  # noqa: BLE001 - the serving failed: it ends
            replies.put(("reply", {"ended": f"it raised {type(exc).__name__}"}))
        finally:
            _Discard.guarded.discard(me)
