"""Learner code that never answers, against the checkers: a verdict, never a hang.

Each call runs in the guard's child under a time limit (default 5 s, the
``time_limit`` keyword): past it the child's whole process group is killed.
Nothing the code does in its own process (turn off an alarm, ignore signals,
catch every exception) changes that. A hang of the test itself is caught by
the timeout of the thread that runs the check (``HANG``); no test sleeps.
"""

import re
import signal
import threading
import time

import pytest

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
FIRST_CALL = {
    "pos_encoding": ("pos_encoding(0, 4)", "[0.0000 1.0000 0.0000 1.0000]"),
    "lookup": ("lookup(table, 0)", "[0.5000 -0.5000 1.0000 0.0000]"),
    "sinusoidal_positions": (
        "sinusoidal_positions([0, 1], 4)",
        "[[0.0000 1.0000 0.0000 1.0000] [0.8415 0.5403 0.0100 1.0000]]",
    ),
}
SEE = {
    "pos_encoding": 'See chapter 02: "The formula", "The worked trace".',
    "lookup": 'See chapter 01: "The table", "The lookup returns a copy".',
    "sinusoidal_positions": 'See chapter 02: "The formula", '
    '"The exercise card\'s two examples".',
}
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
    call, expected = FIRST_CALL[checker]
    assert result.message.splitlines() == [
        f"{checker}: your function did not finish in time.",
        f"Tried:    {call}",
        f"Expected: {expected}",
        "Got:      no answer within 0.3 s (the time limit; an endless loop?)",
        SEE[checker],
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


def test_a_check_run_from_a_worker_thread_still_ends():
    result = _within(
        HANG, lambda: check_sinusoidal_positions(_endless, time_limit=LIMIT)
    )
    assert result.message.splitlines()[0] == (
        "sinusoidal_positions: your function did not finish in time."
    )
