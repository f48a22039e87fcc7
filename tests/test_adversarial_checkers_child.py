"""Learner code that fights the process it runs in, against the checkers.

The second adversarial pass hung ``check_*`` forever (the alarm turned off or
ignored, nested bare ``except`` loops, an exception whose ``__str__`` loops),
killed the caller (``os._exit(0)``; in a notebook, the kernel) and made it
raise (``np.allclose = lambda *a, **k: True``: ``StopIteration``; a lookup
that resizes the table: ``IndexError``). Each check now runs in a forked child
(``posenc_lib/exercise/_isolation.py``) and every case here must come back as
a verdict, with the caller alive. No test sleeps or times itself: a hang is
caught by the timeout of the call (``HANG``) or of the event waited for.
"""

import os
import select
import signal
import threading

import numpy as np
import pytest

from posenc_lib import lookup, pos_encoding
from posenc_lib.exercise import check_lookup, check_pos_encoding

LIMIT = 0.3  # seconds: each call's limit, short so that the hangs end quickly
HANG = 60  # seconds: only a hang takes this long
DID_NOT_FINISH = "pos_encoding: your function did not finish in time."


def _in_thread(call):
    """``call()`` in a thread, failing the test if it takes HANG seconds."""
    box = {}
    worker = threading.Thread(target=lambda: box.update(result=call()), daemon=True)
    worker.start()
    worker.join(HANG)
    assert not worker.is_alive(), "the check hung"
    return box["result"]


def _alarm_off(pos, d):
    signal.setitimer(signal.ITIMER_REAL, 0)
    while True:
        pass


def _alarm_ignored(pos, d):
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    while True:
        pass


def _nested_bare_excepts(pos, d):
    while True:
        try:
            while True:
                try:
                    while True:
                        pass
                except BaseException:  # noqa: BLE001, S110 - the learner's
                    pass
        except BaseException:  # noqa: BLE001, S110
            pass


HANGS = {
    "alarm-turned-off": _alarm_off,
    "alarm-ignored": _alarm_ignored,
    "nested-bare-excepts": _nested_bare_excepts,
}


@pytest.mark.parametrize("case", HANGS, ids=str)
def test_a_function_that_outlives_its_alarm_gets_a_verdict(case):
    result = _in_thread(lambda: check_pos_encoding(HANGS[case], time_limit=LIMIT))
    assert (result.passed, result.mistake) == (False, None)
    assert result.message.splitlines()[0] == DID_NOT_FINISH


class _LoopingMessage(Exception):
    def __str__(self):
        while True:
            pass


def _raises_looping_message(pos, d):
    raise _LoopingMessage


def test_an_exception_whose_message_loops_is_reported():
    result = _in_thread(lambda: check_pos_encoding(_raises_looping_message))
    assert result.message.splitlines()[:4] == [
        "pos_encoding: your function raised an error.",
        "Tried:    pos_encoding(0, 4)",
        "Expected: [0.0000 1.0000 0.0000 1.0000]",
        "Got:      _LoopingMessage: (its message could not be shown)",
    ]


def test_os_exit_gets_a_verdict_and_the_caller_lives_on():
    result = check_pos_encoding(lambda pos, d: os._exit(0))
    assert (result.passed, result.mistake) == (False, None)
    assert result.message.splitlines()[0] == (
        "pos_encoding: your function ended the process running the check (it "
        "exited with status 0: os._exit()?) instead of returning an answer."
    )
    assert check_pos_encoding(pos_encoding).passed  # and this process still works


def test_a_signal_that_kills_gets_a_verdict():
    result = check_lookup(lambda table, token_id: os.kill(os.getpid(), 9))
    assert "(it was killed by SIGKILL)" in result.message.splitlines()[0]


def test_patching_allclose_in_the_function_changes_nothing_here():
    def patched(pos, d):
        np.allclose = lambda *a, **k: True
        return [0.0] * d

    original = np.allclose
    result = check_pos_encoding(patched)
    assert np.allclose is original  # the patch stayed in the child
    assert result.message.splitlines()[0] == (
        "pos_encoding: not right yet (7 of 7 cases differ); it matches none of "
        "the common mistakes."
    )


def test_patching_allclose_before_the_check_changes_no_verdict(monkeypatch):
    monkeypatch.setattr(np, "allclose", lambda *a, **k: True)
    assert not check_pos_encoding(lambda pos, d: [0.0] * d).passed
    assert check_pos_encoding(pos_encoding).passed


def test_a_checker_that_fails_in_its_own_code_says_so(monkeypatch):
    def broken(*args, **kwargs):
        raise LookupError("broken on purpose")

    monkeypatch.setattr("posenc_lib.exercise._checking._allclose", broken)
    result = check_pos_encoding(pos_encoding)
    assert (result.passed, result.mistake) == (False, None)
    assert result.message.splitlines()[0] == (
        "pos_encoding: the checker could not judge your function: its own code "
        "failed (LookupError: broken on purpose)."
    )


def test_a_lookup_that_resizes_the_table_is_told_so():
    def resizing(table, token_id):
        row = table[token_id].copy()
        table.resize((1, table.shape[1]), refcheck=False)
        return row

    result = check_lookup(resizing)
    assert (result.passed, result.mistake) == (False, None)
    assert result.message.splitlines() == [
        "lookup: not right yet; the table must not change.",
        "Tried:    lookup(table, 0)",
        "Calling it changed the table it was given (your function wrote into it; "
        "it should only read it):",
        "  its shape went from (3, 4) to (1, 4).",
        'See chapter 01: "The table", "The lookup returns a copy".',
    ]


HUGE = {
    "flat": (lambda n: [0.5] * n, "a list holding 10000000 items"),
    "one-long-row": (lambda n: [[0.5] * n], "a list whose item 0 holds 10000000 items"),
}


@pytest.mark.parametrize("case", HUGE, ids=str)
def test_a_huge_wrong_answer_is_refused_by_its_size(case):
    build, got = HUGE[case]
    result = check_pos_encoding(lambda pos, d: build(10**7))
    assert f"Got:      {got}, far more than shape (4,) holds" in result.message


def test_what_the_function_prints_is_shown(capsys):
    def chatty(pos, d):
        print(f"pos={pos}")
        return pos_encoding(pos, d)

    assert check_pos_encoding(chatty).passed
    assert capsys.readouterr().out.splitlines()[:2] == ["pos=0", "pos=3"]


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
        # Every writer is gone (killed with the check's process group): the
        # fifo ends, instead of waiting for a writer that lives on.
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


# -- in a Jupyter kernel: it stays alive, and a check can be interrupted ---------


def _run_in_kernel(client, code):
    """Run ``code``; ``(status, printed text, ename)`` of its reply."""
    printed = []

    def collect(message):
        if message["msg_type"] == "stream":
            printed.append(message["content"]["text"])

    reply = client.execute_interactive(code, timeout=HANG, output_hook=collect)
    content = reply["content"]
    return content["status"], "".join(printed), content.get("ename")


def test_in_a_kernel_os_exit_leaves_it_alive_and_a_hang_can_be_interrupted(tmp_path):
    jupyter_client = pytest.importorskip("jupyter_client")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    manager, client = jupyter_client.manager.start_new_kernel(kernel_name="python3")
    setup = (
        "import os, signal\n"
        "from posenc_lib.exercise import check_pos_encoding\n"
        "def ends(pos, d):\n    os._exit(0)\n"
        "def hangs(pos, d):\n"
        f"    with open({str(fifo)!r}, 'w') as out:\n        out.write('x')\n"
        "    signal.setitimer(signal.ITIMER_REAL, 0)\n    while True:\n        pass\n"
    )
    try:
        assert _run_in_kernel(client, setup) == ("ok", "", None)
        status, printed, _ = _run_in_kernel(
            client, "print(check_pos_encoding(ends).message.splitlines()[0])"
        )
        assert (status, printed.split(" (")[0]) == (
            "ok",
            "pos_encoding: your function ended the process running the check",
        )
        msg_id = client.execute("check_pos_encoding(hangs, time_limit=600)")
        assert select.select([reader], [], [], HANG)[0], "the check never started"
        assert os.read(reader, 1) == b"x"
        manager.interrupt_kernel()  # the stop button
        reply = client.get_shell_msg(timeout=HANG)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = client.get_shell_msg(timeout=HANG)
        assert reply["content"]["ename"] == "KeyboardInterrupt"
        assert _run_in_kernel(client, "print(1 + 1)") == ("ok", "2\n", None)
    finally:
        os.close(reader)
        client.stop_channels()
        manager.shutdown_kernel(now=True)
