"""Adversarial learner code against the checkers: no hang, nothing escapes.

Every checker calls the learner's function under a time limit (default 5 s, a
``time_limit`` keyword to change it), and turns whatever it raises or returns
into a CheckResult. ``check_lookup`` says what happened to the table.
"""

import sys
import textwrap
import threading
import time

import numpy as np
import pytest

from posenc_lib import lookup, pos_encoding, sinusoidal_positions
from posenc_lib.exercise import (
    check_lookup,
    check_pos_encoding,
    check_sinusoidal_positions,
)
from posenc_lib.exercise.guard import TIME_LIMIT, guarded_call

CHECKERS = {
    "pos_encoding": (check_pos_encoding, pos_encoding),
    "lookup": (check_lookup, lookup),
    "sinusoidal_positions": (check_sinusoidal_positions, sinusoidal_positions),
}
LIMIT = 0.3  # seconds: short, so that the hangs below end quickly
HANG = 120  # seconds: a check still running then hangs (only a hang is that slow)


def _returns_within(seconds, call, *args, **kwargs):
    """``call(*args, **kwargs)``, failing the test if it has not returned after
    ``seconds`` (it is then left running in a daemon thread)."""
    returned = []
    thread = threading.Thread(
        target=lambda: returned.append(call(*args, **kwargs)), daemon=True
    )
    thread.start()
    thread.join(seconds)
    assert returned, f"{call.__name__} still running after {seconds} s: a hang"
    return returned[0]


def _endless(*args):
    while True:
        pass


def _spin_for_3_s(*args):
    """A hang that ends: the thread fallback abandons it, and it must not keep a
    core busy for the rest of the test session."""
    end = time.monotonic() + 3
    while time.monotonic() < end:
        pass


def _endless_swallowing(*args):
    while True:
        try:
            time.sleep(0.001)
        except BaseException:  # noqa: BLE001, S110 - the learner's bare except
            pass


class _BadArray:
    def __array__(self, dtype=None, copy=None):
        raise RuntimeError("no array here")


class _ExitingArray:
    def __array__(self, dtype=None, copy=None):
        sys.exit(7)

    def __repr__(self):
        return "ExitingArray()"


class _BadRepr(list):
    def __repr__(self):
        raise ValueError("no repr either")


class _EndlessArray:
    def __array__(self, dtype=None, copy=None):
        _endless()


class _Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("cannot print me")


def _raiser(exception):
    def fn(*args):
        raise exception

    return fn


def _returner(value):
    return lambda *args: value


BAD_FUNCTIONS = {
    "endless-loop": (_endless, "did not finish in time", "within 0.3 s"),
    "endless-loop-swallowing": (
        _endless_swallowing,
        "did not finish in time",
        "within 0.3 s",
    ),
    "sys.exit(0)": (_raiser(SystemExit(0)), "raised an error", "SystemExit: 0"),
    "sys.exit()": (_raiser(SystemExit()), "raised an error", "SystemExit (sys.exit"),
    "SystemExit('bye')": (
        _raiser(SystemExit("bye")),
        "raised an error",
        "SystemExit: bye",
    ),
    "KeyboardInterrupt": (
        _raiser(KeyboardInterrupt()),
        "raised an error",
        "Got:      KeyboardInterrupt",
    ),
    "GeneratorExit": (_raiser(GeneratorExit()), "raised an error", "GeneratorExit"),
    "unprintable-exception": (
        _raiser(_Unprintable()),
        "raised an error",
        "_Unprintable: (its message could not be shown)",
    ),
    "__array__-raises": (
        _returner(_BadArray()),
        "wrong kind of answer",
        "RuntimeError: no array here",
    ),
    "__array__-exits": (
        _returner(_ExitingArray()),
        "wrong kind of answer",
        "SystemExit: 7",
    ),
    "__repr__-raises": (
        _returner(_BadRepr([1.0, 2.0])),
        "wrong kind of answer",
        "ValueError: no repr either",
    ),
    "__array__-endless": (
        _returner(_EndlessArray()),
        "wrong kind of answer",
        "within 0.3 s",
    ),
}


@pytest.mark.parametrize("checker", CHECKERS, ids=str)
@pytest.mark.parametrize("bad", BAD_FUNCTIONS, ids=str)
def test_nothing_escapes_and_nothing_hangs(checker, bad):
    check, _ = CHECKERS[checker]
    fn, headline, detail = BAD_FUNCTIONS[bad]
    result = _returns_within(HANG, check, fn, time_limit=LIMIT)
    assert (result.passed, result.mistake) == (False, None)
    assert headline in result.message.splitlines()[0]
    assert detail in result.message


@pytest.mark.parametrize("checker", CHECKERS, ids=str)
def test_a_normal_check_passes_under_the_default_time_limit(checker):
    check, right = CHECKERS[checker]
    assert check(right).passed


def test_the_time_limit_is_the_documented_default_and_configurable():
    assert TIME_LIMIT == 5.0
    with pytest.raises(ValueError, match=r"^time_limit == 0, must be in \(0, 3600\]"):
        check_pos_encoding(pos_encoding, time_limit=0)


def test_a_check_run_from_a_worker_thread_still_ends():
    box = {}
    worker = threading.Thread(
        target=lambda: box.update(
            result=check_pos_encoding(_spin_for_3_s, time_limit=LIMIT)
        )
    )
    worker.start()
    worker.join(10)
    assert not worker.is_alive()
    assert "did not finish in time" in box["result"].message


def test_a_running_outer_timer_is_kept_and_the_thread_fallback_used():
    import signal

    fired = []
    old = signal.signal(signal.SIGALRM, lambda *args: fired.append(True))
    signal.setitimer(signal.ITIMER_REAL, 30.0)
    try:
        outcome = guarded_call(_spin_for_3_s, (), 0.2)
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert type(outcome.error).__name__ == "TimeLimitExceeded"
    assert 25 < remaining <= 30 and not fired


def test_a_hang_is_reported_in_a_jupyter_kernel():
    jupyter_client = pytest.importorskip("jupyter_client")
    manager, client = jupyter_client.manager.start_new_kernel(kernel_name="python3")
    code = textwrap.dedent(
        """
        from posenc_lib.exercise import check_pos_encoding
        def pos_encoding(pos, d):
            while True:
                pass
        print(check_pos_encoding(pos_encoding, time_limit=0.5).message.splitlines()[0])
        """
    )
    try:
        reply = client.execute_interactive(code, timeout=60, output_hook=_collect)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert reply["content"]["status"] == "ok"
    assert _collect.text == ["pos_encoding: your function did not finish in time.\n"]


def _collect(message):
    if message["msg_type"] == "stream":
        _collect.text.append(message["content"]["text"])


_collect.text = []


# -- check_lookup: what happened to the table --------------------------------------


def _view(table, token_id):
    return table[token_id]


def _zeroes_another_row(table, token_id):
    table[(token_id + 1) % len(table)] = 0.0
    return table[token_id].copy()


def _increments_then_copies(table, token_id):
    table[token_id] += 1
    return table[token_id].copy()


def _read_only_view(table, token_id):
    row = table[token_id]
    row.flags.writeable = False
    return row


def _copy(table, token_id):
    return np.array(table[token_id])


TABLE_CASES = {
    "view": (
        _view,
        "added-to-table",
        [
            "lookup: not right yet; this is the mistake 'added-to-table'.",
            "Tried:    lookup(table, 0)",
            "The row you return is a view into the table (they share memory).",
            "After row += pos_encoding(3, d), the table itself changed:",
            "  table[0] before: [0.5000 -0.5000 1.0000 0.0000]",
            "  table[0] after:  [0.6411 -1.4900 1.0300 0.9996]",
        ],
    ),
    "zeroes-another-row": (
        _zeroes_another_row,
        None,
        [
            "lookup: not right yet; the table must not change.",
            "Tried:    lookup(table, 0)",
            "Calling it changed the table it was given (your function wrote into "
            "it; it should only read it):",
            "  table[1] before: [1.0000 2.0000 3.0000 4.0000]",
            "  table[1] after:  [0.0000 0.0000 0.0000 0.0000]",
        ],
    ),
    "increments-then-copies": (
        _increments_then_copies,
        None,
        [
            "lookup: not right yet; the table must not change.",
            "Tried:    lookup(table, 0)",
            "Calling it changed the table it was given (your function wrote into "
            "it; it should only read it):",
            "  table[0] before: [0.5000 -0.5000 1.0000 0.0000]",
            "  table[0] after:  [1.5000 0.5000 2.0000 1.0000]",
        ],
    ),
    "read-only-view": (
        _read_only_view,
        None,
        [
            "lookup: not right yet; return a new array, not a view.",
            "Tried:    lookup(table, 0)",
            "The row you return is a read-only view into the table (they share "
            "memory).",
            "So row += pos_encoding(3, d) leaves the table alone but raises "
            "ValueError: output array is read-only.",
        ],
    ),
}


@pytest.mark.parametrize("case", TABLE_CASES, ids=str)
def test_check_lookup_says_what_happened_to_the_table(case):
    fn, mistake, lines = TABLE_CASES[case]
    result = check_lookup(fn)
    assert (result.passed, result.mistake) == (False, mistake)
    assert result.message.splitlines()[: len(lines)] == lines


def test_check_lookup_lists_every_changed_row_up_to_three():
    def clears_everything(table, token_id):
        row = table[token_id].copy()
        table[:] = 0.0
        return row

    message = check_lookup(clears_everything).message
    assert message.count(" before: ") == 3  # the first case's table has 3 rows
    assert "table[2] after:  [0.0000 0.0000 0.0000 0.0000]" in message


def test_more_than_three_changed_rows_are_counted():
    from posenc_lib.exercise.checkers import _changes

    before = np.arange(10.0).reshape(5, 2)
    lines = _changes(before, before * 0)
    assert len(lines) == 7 and lines[-1] == "  ... and 2 more rows changed."


def test_check_lookup_passes_a_copy():
    assert check_lookup(_copy).passed
