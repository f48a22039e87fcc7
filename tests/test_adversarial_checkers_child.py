"""The checkers' child process: what it starts ends with it; a kernel lives on.

A check forks a child (``posenc_lib/exercise/guard.py``) whose process group is
killed when the check is done, and a Jupyter kernel that runs checks stays
alive and interruptible whatever the learner's function does. No test sleeps:
each waits on an event (a fifo, a reply) with a timeout that only catches a
hang.
"""

import os
import select
import signal

import pytest

from posenc_lib import lookup
from posenc_lib.exercise import check_lookup

HANG = 60  # seconds: only a hang takes this long


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
