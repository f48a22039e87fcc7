"""Learner code that never answers, against the checkers: a verdict, never a hang.

Each call runs in the guard's child (``posenc_lib/exercise/guard.py``) under a
time limit (default 5 s, the ``time_limit`` keyword): past it the child's whole
process group is killed. Nothing the code does in its own process (turn off an
alarm, ignore signals, catch every exception, fork) changes that, and a Jupyter
kernel that runs checks stays alive and interruptible. No test sleeps: each
waits on an event (a thread, a fifo, a reply) with a timeout that only catches
a hang (``HANG``); every check runs in a worker thread.
"""

import os
import re
import select
import signal
import threading
import time

import pytest
from learner_functions import SHARED

from posenc_lib import lookup
from posenc_lib.exercise import (
    check_lookup,
    check_pos_encoding,
    check_sinusoidal_positions,
)
from posenc_lib.exercise.guard import TIME_LIMIT

CHECKERS = {
    "pos_encoding": check_pos_encoding,
    "lookup": check_lookup,
    "sinusoidal_positions": check_sinusoidal_positions,
}
SHARED = {SHARED[t]["task"]: SHARED[t] for t in SHARED}
LIMIT = 0.3  # seconds: short, so that the hangs below end quickly
HANG = 60  # seconds: a check still running then hangs


def _within(seconds, call):
    """``call()``, failing the test if it has not returned after ``seconds``."""
    box = {}
    worker = threading.Thread(target=lambda: box.update(result=call()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert "result" in box, "the check hung"
    return box["result"]


def _endless(*args):
    while True:
        pass


def _swallows_everything(*args):
    while True:
        try:
            time.sleep(0.001)
        except BaseException:  # noqa: BLE001, S110 - the learner's bare except
            pass


def _alarm_off_and_ignored(*args):
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _endless()


HANGS = {
    "endless-loop": _endless,
    "swallows-every-exception": _swallows_everything,
    "alarm-off-and-signals-ignored": _alarm_off_and_ignored,
}


@pytest.mark.parametrize("checker", CHECKERS, ids=str)
@pytest.mark.parametrize("hang", HANGS, ids=str)
def test_a_call_that_never_returns_did_not_finish_in_time(checker, hang):
    result = _within(HANG, lambda: CHECKERS[checker](HANGS[hang], time_limit=LIMIT))
    assert result.message.splitlines() == [
        f"{checker}: your function did not finish in time.",
        f"Tried:    {SHARED[checker]['call']}",
        f"Expected: {SHARED[checker]['expected']}",
        "Got:      no answer within 0.3 s (the time limit; an endless loop?)",
        SHARED[checker]["see"],
    ]


class _EndlessArray:
    def __array__(self, dtype=None, copy=None):
        _endless()


class _EndlessMessage(Exception):
    def __str__(self):
        _endless()


def _raises_endless_message(*args):
    raise _EndlessMessage


def test_an_answer_that_cannot_be_read_in_time_is_the_wrong_kind():
    result = _within(HANG, lambda: check_pos_encoding(
        lambda pos, d: _EndlessArray(), time_limit=LIMIT
    ))  # fmt: skip
    assert result.message.splitlines()[:4] == [
        "pos_encoding: your function returned the wrong kind of answer.",
        "Tried:    pos_encoding(0, 4)",
        "Expected: 4 numbers, shape (4,)",
        "Got:      an object of type _EndlessArray that cannot be read as numbers "
        "(reading it took over 0.3 s)",
    ]


def test_an_error_whose_message_never_ends_is_named_without_it():
    result = _within(HANG, lambda: check_pos_encoding(
        _raises_endless_message, time_limit=LIMIT
    ))  # fmt: skip
    assert result.message.splitlines()[:4] == [
        "pos_encoding: your function raised an error.",
        "Tried:    pos_encoding(0, 4)",
        "Expected: [0.0000 1.0000 0.0000 1.0000]",
        "Got:      _EndlessMessage: (its message could not be shown)",
    ]


def test_the_time_limit_is_the_documented_default_and_checked():
    assert TIME_LIMIT == 5.0
    message = "time_limit == 0, must be a number of seconds in (0, 3600]."
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        check_pos_encoding(_endless, time_limit=0)
    message = "time_limit == '5' (str), must be a number of seconds in (0, 3600]."
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        check_lookup(_endless, time_limit="5")
    message = "time_limit == 100000000000...(401 digits), must be a number of "
    with pytest.raises(ValueError, match=f"^{re.escape(message)}"):
        check_lookup(_endless, time_limit=10**400)


# -- what the check starts ends with it; a kernel lives on ------------------------


def test_a_process_the_function_starts_is_ended_with_the_check(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def forks(table, token_id):
        ready, started = os.pipe()
        if os.fork() == 0:  # a grandchild that holds the fifo open for writing
            with open(fifo, "w") as out:
                out.write("x")
                out.flush()
                os.write(started, b"1")
                signal.pause()
        os.read(ready, 1)  # the grandchild is writing: wait for it
        return lookup(table, token_id)

    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert check_lookup(forks).passed
        received = b""
        # every writer is gone (killed with the check's process group): the
        # fifo ends, instead of waiting for a writer that lives on
        while select.select([reader], [], [], HANG)[0]:
            chunk = os.read(reader, 64)
            if not chunk:
                break
            received += chunk
        else:
            pytest.fail("a process the check started is still alive")
        assert received.startswith(b"x")
    finally:
        os.close(reader)


def _run(client, code):
    """Run ``code`` in the kernel; ``(status, printed text, ename)``."""
    printed = []

    def collect(message):
        if message["msg_type"] == "stream":
            printed.append(message["content"]["text"])

    reply = client.execute_interactive(code, timeout=HANG, output_hook=collect)
    content = reply["content"]
    return content["status"], "".join(printed), content.get("ename")


SETUP = """\
import os
from posenc_lib.exercise import check_pos_encoding
from posenc_lib import pos_encoding
def ends(pos, d):
    os._exit(0)
def asks(pos, d):
    return [float(input("a number: "))] * d
def chatty(pos, d):
    print("pos =", pos)
    return pos_encoding(pos, d)
def hangs(pos, d):
    with open({fifo!r}, "w") as out:
        out.write("x")
    while True:
        pass
first = lambda fn: print(check_pos_encoding(fn).message.splitlines()[0])
"""


def test_in_a_kernel_nothing_ends_it_and_a_hang_can_be_interrupted(tmp_path):
    jupyter_client = pytest.importorskip("jupyter_client")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    manager, client = jupyter_client.manager.start_new_kernel(kernel_name="python3")
    try:
        assert _run(client, SETUP.format(fifo=str(fifo))) == ("ok", "", None)
        status, printed, _ = _run(client, "first(ends)")
        assert (status, printed) == (
            "ok",
            "pos_encoding: your function ended the process running the check (it "
            "exited with status 0: os._exit()?) instead of returning an answer.\n",
        )
        # the kernel's own input() would ask the front end: in the check, EOF
        status, printed, _ = _run(client, "print(check_pos_encoding(asks))")
        assert "Got:      EOFError: EOF when reading a line (input() has" in printed
        status, printed, _ = _run(client, "first(chatty)")
        assert printed.splitlines() == [
            *(f"pos = {p}" for p in (0, 3, 2, 1, 10, 7, 50)),
            "pos_encoding: passed all 7 cases.",
        ]
        # stop_on_error=False: ipykernel 7 would otherwise abort a request that
        # reaches it before it has finished handling the interrupted one's error
        msg_id = client.execute(
            "check_pos_encoding(hangs, time_limit=600)", stop_on_error=False
        )
        assert select.select([reader], [], [], HANG)[0], "the check never started"
        assert os.read(reader, 1) == b"x"
        manager.interrupt_kernel()  # the stop button
        reply = client.get_shell_msg(timeout=HANG)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = client.get_shell_msg(timeout=HANG)
        assert reply["content"]["ename"] == "KeyboardInterrupt"
        assert _run(client, "print(1 + 1)") == ("ok", "2\n", None)
    finally:
        os.close(reader)
        client.stop_channels()
        manager.shutdown_kernel(now=True)
