"""`posenc run --solution`: what a solution does to the process it runs in.

The command reads and runs the script itself; only the solution's functions
run in a child process (``posenc_lib/exercise/guard.py``), in a process group
of its own that ends with the command, however the command ends. Each case runs
the ``posenc`` console script from a working folder that holds a ``numpy.py``
and a ``select.py`` of the learner's. No test sleeps: each waits on an event
(a line, a fifo, the process's end) with a timeout that only catches a hang.
"""

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "examples" / "lesson.txt"
POSENC = Path(sys.executable).with_name("posenc")
HANG = 60  # seconds: only a hang takes this long
RIGHT = "from posenc_lib import pos_encoding as _library\n"
POSENC_LINE = "line 16: POSENC: pos_encoding(3, 4)"
SHAPE = "expected 4 numbers, shape (4,)."


@pytest.fixture
def folder(tmp_path):
    """A working folder with modules named like standard ones, as learners' are."""
    (tmp_path / "numpy.py").write_text("raise ImportError('the learner's numpy.py')\n")
    (tmp_path / "select.py").write_text("raise ImportError('the learner's select')\n")
    return tmp_path


@pytest.fixture(scope="module")
def lesson_lines():
    done = subprocess.run([POSENC, "run", LESSON], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout.splitlines(keepends=True)


def posenc(folder, source, *args, script=LESSON, command=(POSENC,)):
    """Run ``posenc run --solution`` with ``source`` from ``folder``."""
    (folder / "my_solution.py").write_text(source)
    done = subprocess.run(
        [*command, "run", "--solution", "my_solution.py", *args, script],
        capture_output=True, text=True, cwd=folder, timeout=HANG,
    )  # fmt: skip
    assert "Traceback" not in done.stderr
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "command", [(POSENC,), (sys.executable, "-m", "posenc_lib")], ids=["posenc", "-m"]
)
def test_modules_named_like_standard_ones_in_the_folder_change_nothing(
    folder, lesson_lines, command
):
    source = "import numpy as np\nimport select\n" + RIGHT + "pos_encoding = _library\n"
    assert posenc(folder, source, command=command) == (0, "".join(lesson_lines), "")


def test_a_right_solution_is_not_timed_while_a_long_script_is_read(folder):
    script = folder / "ids.txt"
    script.write_text("TABLE 1 2\n0 0\nTOKENS " + "0 " * 4_000_000 + "\nADD 3999999\n")
    source = "def lookup(table, token_id):\n    return table[token_id].copy()\n"
    result = posenc(folder, source, "--time-limit", "0.1", script=script)
    assert result == (0, "-0.6528 -0.7575\n", "")


CALLS = {
    "os._exit(0)": (
        "import os\ndef pos_encoding(pos, d):\n    os._exit(0)\n",
        f"{POSENC_LINE} ended the process running it (it exited with status 0: "
        f"os._exit()?); {SHAPE}",
    ),
    "killed": (
        "import os\ndef pos_encoding(pos, d):\n    os.kill(os.getpid(), 9)\n",
        f"{POSENC_LINE} ended the process running it (it was killed by SIGKILL); "
        f"{SHAPE}",
    ),
    "input()": (
        "def pos_encoding(pos, d):\n    return [float(input('pos? '))] * d\n",
        f"{POSENC_LINE} raised EOFError: EOF when reading a line (input() has "
        f"nothing to read here: take what you need as arguments); {SHAPE}",
    ),
    "loop-ignoring-signals": (
        "import signal\ndef pos_encoding(pos, d):\n"
        "    for s in (signal.SIGALRM, signal.SIGTERM, signal.SIGINT):\n"
        "        signal.signal(s, signal.SIG_IGN)\n"
        "    while True:\n        pass\n",
        f"{POSENC_LINE} gave no answer within 0.5 s (the time limit; an endless "
        f"loop?); {SHAPE}",
    ),
}


@pytest.mark.parametrize("case", CALLS, ids=str)
def test_a_call_that_does_not_answer_is_a_line_n_error(folder, lesson_lines, case):
    source, message = CALLS[case]
    result = posenc(folder, source, "--time-limit", "0.5")
    assert result == (2, lesson_lines[0], message + "\n")


RUNS = {
    "forks-while-loading": "import os\nif os.fork() == 0:\n    pass\n",
    "forks-in-each-call": (
        "import os\ndef pos_encoding(pos, d):\n"
        "    if os.fork() == 0:\n        return [0.0] * d  # the copy: never heard\n"
        "    os.wait()\n    return _library(pos, d)\n"
    ),
    "leaves-a-thread": (
        "import threading, time\n"
        "threading.Thread(target=time.sleep, args=(10**6,)).start()\n"
    ),
    "sys.stdout-None": "import sys\nsys.stdout = None\n",
}


@pytest.mark.parametrize("case", RUNS, ids=str)
def test_a_solution_that_forks_or_plays_with_its_process_runs_once(
    folder, lesson_lines, case
):
    source = (
        RIGHT
        + RUNS[case]
        + "\npos_encoding = globals().get('pos_encoding', _library)\n"
    )
    assert posenc(folder, source) == (0, "".join(lesson_lines), "")


def test_what_a_call_writes_to_its_fds_shows_before_its_line(folder, lesson_lines):
    source = RIGHT + (
        "import os, sys\ndef pos_encoding(pos, d):\n"
        "    os.write(sys.stdout.fileno(), b'raw\\n')\n"
        "    print('to stderr', file=sys.stderr)\n"
        "    return _library(pos, d)\n"
    )
    status, out, err = posenc(folder, source, script=_script(folder, "POSENC 3"))
    assert (status, out, err) == (
        0,
        "raw\nto stderr\n0.1411 -0.9900 0.0300 0.9996\n",
        "",
    )


def _script(folder, query):
    path = folder / "script.txt"
    path.write_text(f"TABLE 1 4\n0 0 0 0\n{query}\n")
    return path


# -- however the command ends, the solution's process group ends with it -----------

LOOPING = """\
import os
def pos_encoding(pos, d):
    alive = open({alive!r}, "w")  # held open for as long as this process lives
    with open({fifo!r}, "w") as out:
        out.write(str(os.getpgid(0)))
    while True:
        pass
"""


def _ended(alive):
    """True once every process that holds the fifo ``alive`` open has ended: its
    reader sees the end of the file (a hang, HANG seconds, is False)."""
    while select.select([alive], [], [], HANG)[0]:
        if not os.read(alive, 64):
            return True
    return False


ENDINGS = {  # signal, to the process or (Ctrl-C) its group: status, message
    "SIGHUP": (signal.SIGHUP, os.kill, 129, "posenc: ended by SIGHUP.\n"),
    "SIGTERM": (signal.SIGTERM, os.kill, 143, "posenc: ended by SIGTERM.\n"),
    "Ctrl-C": (signal.SIGINT, os.killpg, 130, "posenc: interrupted.\n"),
}


@pytest.mark.parametrize("ending", ENDINGS, ids=str)
def test_the_solutions_process_group_ends_with_the_command(
    folder, lesson_lines, ending
):
    signum, send, status, message = ENDINGS[ending]
    fifo, alive = folder / "entered", folder / "alive"
    os.mkfifo(fifo), os.mkfifo(alive)
    ready = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    living = os.open(alive, os.O_RDONLY | os.O_NONBLOCK)
    source = LOOPING.format(fifo=str(fifo), alive=str(alive))
    (folder / "my_solution.py").write_text(source)
    command = [POSENC, "run", "--solution", "my_solution.py", "--time-limit", "600"]
    process = subprocess.Popen(
        [*command, LESSON],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=folder,
        start_new_session=True,  # its own group, as a terminal's foreground job
        # a suite started in the background (make test &) ignores Ctrl-C, and its
        # children would inherit that: this one hears it, as in a terminal
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert select.select([ready], [], [], HANG)[0], "the solution never started"
        pgid = int(os.read(ready, 64))
        assert pgid != process.pid  # the solution's own group
        send(process.pid, signum)
        out, err = process.communicate(timeout=HANG)
        assert (process.returncode, out.decode(), err.decode()) == (
            status,
            lesson_lines[0],
            message,
        )
        assert _ended(living), "the solution's process outlived the command"
    finally:
        os.close(ready)
        os.close(living)
        process.kill()
