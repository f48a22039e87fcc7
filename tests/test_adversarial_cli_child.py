"""`posenc run --solution` against solutions that fight the process they run in.

The second adversarial pass made the command line report success after losing
output (``os._exit(0)``, ``sys.stdout = None``, a swallowed Ctrl-C, ``\\r`` line
ends) and hang past every limit (the alarm turned off or ignored, a thread left
behind). The solution now runs in a child process that the command line watches
and kills (``posenc_lib/exercise/_child_run.py``): each case here must end with
the right status and message, and never hang. No test sleeps: each waits on the
event (a line, the process's end) with a timeout that only catches a hang.
"""

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from test_adversarial_cli import posenc  # no traceback, a 60 s hang guard

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "examples" / "lesson.txt"
HANG = 60  # seconds: only a hang takes this long
FROM_LIBRARY = "from posenc_lib import lookup, pos_encoding as _library\n"
EARLY = (
    "posenc: the process running your solution exited with status 0 (os._exit()?) "
    "before the script was done: its output is incomplete.\n"
)
SILENT = (
    "posenc: your function ran past the time limit (0.5 s) and did not stop when "
    "told to (does it turn off the alarm, or catch every exception?): its process "
    "was ended.\n"
)


@pytest.fixture(scope="module")
def lesson_lines():
    status, out, err = posenc("run", str(LESSON))
    assert (status, err) == (0, "")
    return out.splitlines(keepends=True)


def solution(tmp_path, body):
    path = tmp_path / "solution.py"
    path.write_text(FROM_LIBRARY + body)
    return str(path)


def run_solution(tmp_path, body, *options):
    path = solution(tmp_path, body)
    return posenc("run", "--solution", path, *options, str(LESSON))


# -- lost output is a failure ------------------------------------------------------


def test_os_exit_in_pos_encoding_is_reported(tmp_path, lesson_lines):
    body = "import os\ndef pos_encoding(pos, d):\n    os._exit(0)\n"
    assert run_solution(tmp_path, body) == (2, lesson_lines[0], EARLY)


def test_os_exit_at_module_level_is_reported(tmp_path):
    assert run_solution(tmp_path, "import os\nos._exit(0)\n") == (2, "", EARLY)


def test_a_crash_of_the_process_is_reported(tmp_path, lesson_lines):
    body = "import os, signal\ndef pos_encoding(pos, d):\n    os.kill(os.getpid(), 9)\n"
    status, out, err = run_solution(tmp_path, body)
    assert (status, out) == (2, lesson_lines[0])
    assert err == (
        "posenc: the process running your solution was killed by SIGKILL before "
        "the script was done: its output is incomplete.\n"
    )


def test_sys_stdout_none_loses_no_line(tmp_path, lesson_lines):
    body = "import sys\ndef pos_encoding(pos, d):\n    sys.stdout = None\n"
    body += "    return _library(pos, d)\n"
    assert run_solution(tmp_path, body) == (0, "".join(lesson_lines), "")


def test_sys_stdout_none_at_module_level_loses_no_line(tmp_path, lesson_lines):
    body = "import sys\nsys.stdout = None\npos_encoding = _library\n"
    assert run_solution(tmp_path, body) == (0, "".join(lesson_lines), "")


def test_sys_stdout_closed_is_reported_without_a_traceback(tmp_path, lesson_lines):
    body = "import sys\ndef pos_encoding(pos, d):\n    sys.stdout.close()\n"
    body += "    return _library(pos, d)\n"
    status, out, err = run_solution(tmp_path, body)
    assert (status, out) == (2, lesson_lines[0])
    assert err == (
        "posenc: standard output was closed (by your solution?) before the script "
        "was done: its output is incomplete.\n"
    )


# -- the input ---------------------------------------------------------------------


@pytest.mark.parametrize("newline", ["\r", "\r\n", "\n"], ids=repr)
def test_every_kind_of_line_end_runs_every_line(tmp_path, lesson_lines, newline):
    script = LESSON.read_text().replace("\n", newline).encode()
    path = solution(tmp_path, "pos_encoding = _library\n")
    assert posenc("run", "--solution", path, "-", stdin=script) == (
        0,
        "".join(lesson_lines),
        "",
    )


def test_a_zero_padded_41_digit_integer_is_an_integer():
    script = b"TABLE 1 2\n0 0\nPOSENC " + b"0" * 40 + b"1\n"
    assert posenc("run", "-", stdin=script) == (0, "0.8415 0.5403\n", "")


# -- nothing keeps it alive past the time limit -------------------------------------

HOLD_OUTS = {
    "alarm-turned-off": (
        "import signal\ndef pos_encoding(pos, d):\n"
        "    signal.setitimer(signal.ITIMER_REAL, 0)\n    while True:\n        pass\n"
    ),
    "alarm-ignored": (
        "import signal\ndef pos_encoding(pos, d):\n"
        "    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    while True:\n"
        "        pass\n"
    ),
    "alarm-ignored-while-loading": (
        "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
        "while True:\n    pass\n"
    ),
}


@pytest.mark.parametrize("case", HOLD_OUTS, ids=str)
def test_a_solution_that_stops_the_alarm_is_ended(tmp_path, lesson_lines, case):
    status, out, err = run_solution(tmp_path, HOLD_OUTS[case], "--time-limit", "0.5")
    loading = case.endswith("loading")
    assert (status, out, err) == (2, "" if loading else lesson_lines[0], SILENT)


def test_a_thread_left_sleeping_does_not_keep_it_alive(tmp_path, lesson_lines):
    body = (
        "import threading, time\n"
        "threading.Thread(target=time.sleep, args=(10**6,)).start()\n"
        "pos_encoding = _library\n"
    )
    assert run_solution(tmp_path, body) == (0, "".join(lesson_lines), "")


def test_a_forked_process_is_ended_with_it(tmp_path, lesson_lines):
    body = (
        "import os, time\n"
        "if os.fork() == 0:\n    time.sleep(10**6)\n"
        "pos_encoding = _library\n"
    )
    assert run_solution(tmp_path, body) == (0, "".join(lesson_lines), "")


# -- a real Ctrl-C -------------------------------------------------------------------


def _readline(stream):
    """One line of ``stream``, or fail if none comes within HANG seconds."""
    assert select.select([stream], [], [], HANG)[0], "no line: a hang"
    return stream.readline()


@pytest.mark.parametrize("swallow", ["catches-KeyboardInterrupt", "ignores-SIGINT"])
def test_a_ctrl_c_the_solution_swallows_still_exits_130(
    tmp_path, lesson_lines, swallow
):
    setup = {
        "catches-KeyboardInterrupt": "",
        "ignores-SIGINT": "    signal.signal(signal.SIGINT, signal.SIG_IGN)\n",
    }[swallow]
    body = (
        "import signal, sys\ndef pos_encoding(pos, d):\n"
        + setup
        + "    print('waiting', file=sys.stderr, flush=True)\n"
        "    while True:\n        try:\n            signal.pause()\n"
        "        except KeyboardInterrupt:\n            pass\n"
    )
    path = solution(tmp_path, body)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "posenc_lib",
            "run",
            "--solution",
            path,
            "--time-limit",
            "600",
            str(LESSON),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        start_new_session=True,  # its own group, as a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert _readline(process.stderr) == b"waiting\n"
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        out, err = process.communicate(timeout=HANG)
    finally:
        process.kill()
    assert (process.returncode, out.decode(), err) == (
        130,
        lesson_lines[0],
        b"posenc: interrupted.\n",
    )
