"""`posenc run`, as a subprocess: scripts, solutions, stream states and signals.

Whatever the input, the solution or the state of the standard streams: no
Python traceback, a non-zero exit when anything went wrong (2; 141 for a reader
that went away), and error messages that quote only a short excerpt. Only a
solution's functions run in a child process (``posenc_lib/exercise/guard.py``),
in a process group of its own that ends with the command, however the command
ends; solutions run from a working folder that holds a ``numpy.py`` and a
``select.py`` of the learner's. The last part fuzzes the command language with
hypothesis, in-process. No test sleeps: each waits on an event (a line, a fifo,
the process's end) with a timeout that only catches a hang.
"""

import contextlib
import io
import os
import select
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc_lib import lookup, pos_encoding
from posenc_lib.__main__ import main
from posenc_lib.exercise import CommandError, run_commands
from posenc_lib.formatting import format_number, format_numbers

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "examples" / "lesson.txt"
POSENC = Path(sys.executable).with_name("posenc")  # the console script
MODULE = (sys.executable, "-m", "posenc_lib")
HANG = 60  # seconds: only a hang takes this long
OUTPUT = """\
0.5000 -0.5000 1.0000 0.0000
0.1411 -0.9900 0.0300 0.9996
0.0000 1.0000 0.0000 1.0000
0.6411 -1.4900 1.0300 0.9996
2.0000
0.0096
0.0096
"""  # the lesson's
FIRST = OUTPUT.splitlines(keepends=True)[0]
EXITS = "(sys.exit() ends the program; return the answer instead)"
POSENC_LINE = "line 16: POSENC: pos_encoding(3, 4)"
SHAPE = "expected 4 numbers, shape (4,)."
RIGHT = "from posenc_lib import pos_encoding as _library\n"


def posenc(*args, stdin=None, cwd=ROOT, command=MODULE):
    """Run ``posenc ARGS``: (status, stdout, stderr), never a traceback."""
    stdin = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [*command, *args], input=stdin, capture_output=True, cwd=cwd, timeout=HANG
    )
    assert b"Traceback" not in done.stderr
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def shell(redirections, *args):
    """Run the command line under bash with stream ``redirections``."""
    command = shlex.join([*MODULE, *args])
    return posenc("-c", f"{command} {redirections}", command=("bash",))


@pytest.fixture
def folder(tmp_path):
    """A working folder with modules named like standard ones, as learners' are."""
    (tmp_path / "numpy.py").write_text("raise ImportError('the learner's numpy.py')\n")
    (tmp_path / "select.py").write_text("raise ImportError('the learner's select')\n")
    return tmp_path


def solve(folder, source, *args, script=LESSON, command=(POSENC,)):
    """Run ``posenc run --solution my_solution.py`` with ``source`` from ``folder``."""
    (folder / "my_solution.py").write_text(source)
    return posenc(
        "run",
        "--solution",
        "my_solution.py",
        *args,
        script,
        cwd=folder,
        command=command,
    )


# -- scripts --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (("run", LESSON), MODULE),
        (("run", "-"), MODULE),
        (("run",), MODULE),
        (("run", LESSON), (POSENC,)),
    ],
    ids=["file", "dash", "no-file", "console-script"],
)
def test_the_lesson_runs(args, command):
    assert posenc(*args, stdin=LESSON.read_bytes(), command=command) == (0, OUTPUT, "")


def test_the_errors_example_does_what_its_comment_says():
    assert posenc("run", "examples/errors.txt") == (
        2,
        "1.0000 1.0000\n0.8415 1.5403\n",
        "line 9: ADD: pos == 2, must be in [0, 2), i.e. 0 <= pos < the number of "
        "tokens (2, TOKENS on line 6).\n",
    )


def test_main_returns_the_exit_status_in_process(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_text("TABLE 2 2\n1 0\n0 1\nTOKENS 0 1\nADD 0\nADD 1\nADD 2\nADD 0\n")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["run", str(LESSON)]) == 0
        assert main(["run", str(script)]) == 2
    assert out.getvalue() == OUTPUT + "1.0000 1.0000\n0.8415 1.5403\n"
    assert err.getvalue() == (
        "line 7: ADD: pos == 2, must be in [0, 2), i.e. 0 <= pos < the number of "
        "tokens (2, TOKENS on line 4).\n"
    )


def test_no_command_prints_usage_and_exits_with_2():
    status, _, err = posenc()
    assert status == 2 and err.startswith("usage: posenc")


VALID = {
    "utf-8-bom": b"\xef\xbb\xbf# notepad\nTABLE 1 2\n0 0\nPOSENC 1\n",
    "crlf": b"TABLE 1 2\r\n0 0\r\nPOSENC 1\r\n",
    "form-feed-in-comment": b"# one\x0c comment\nTABLE 1 2\n0 0\nPOSENC 1\n",
    "separators-in-comment": "# \x0b\x1c\x1d\x1e\x85\u2028\u2029\nTABLE 1 2\n0 0\n"
    "POSENC 1\n".encode(),
    "zero-padded-41-digits": b"TABLE 1 2\n0 0\nPOSENC " + b"0" * 40 + b"1\n",
}


@pytest.mark.parametrize("case", VALID, ids=str)
def test_valid_scripts_are_accepted(case):
    assert posenc("run", "-", stdin=VALID[case]) == (0, "0.8415 0.5403\n", "")


UNKNOWN = "; expected one of TABLE, TOKENS, LOOKUP, POSENC, ADD, SIM.\n"
REFUSED = {  # what is refused: the arguments, the script, the message
    "missing-file": (
        ("run", "no-such-file.txt"),
        None,
        "posenc: cannot read no-such-file.txt: No such file or directory\n",
    ),
    "dev-zero": (  # endless: a hang is posenc's 60 s
        ("run", "/dev/zero"),
        None,
        "posenc: /dev/zero is larger than 8388608 bytes (8 MiB), the limit for a "
        "script.\n",
    ),
    "over-8-MiB-on-stdin": (
        ("run", "-"),
        b"#" * (8 * 2**20 + 1),
        "posenc: standard input is larger than 8388608 bytes (8 MiB), the limit for "
        "a script.\n",
    ),
    "line-numbers-count-newlines-only": (
        ("run", "-"),
        b"# one\x0c comment\n# two\x1c\nNOPE\n",
        "line 3: unknown command 'NOPE'" + UNKNOWN,
    ),
    "1-MB-unknown-command": (
        ("run", "-"),
        b"X" * 2**20,
        "line 1: unknown command 'XXXXXXXXXXXXXXXXXXXX'... (1048576 characters)"
        + UNKNOWN,
    ),
    "100-KB-integer": (
        ("run", "-"),
        b"TABLE 1 2\n0 0\nPOSENC " + b"1" * 100_000,
        "line 3: POSENC: pos == '11111111111111111111'... (100000 characters), "
        "must be an integer below 2**63 (usage: POSENC <pos>).\n",
    ),
    "1000-NULs": (
        ("run", "-"),
        b"\0" * 1000,
        f"line 1: unknown command {chr(0) * 20!r}... (1000 characters)" + UNKNOWN,
    ),
    "huge-table-number": (
        ("run", "-"),
        b"TABLE 1 2\n0 " + b"9" * 5000 + b"x\n",
        "line 2, column 3: table row 0, number 1 == '99999999999999999999'... (5001 "
        "characters), must be a number, in the digits 0-9 (like 0.5, -2 or 1e-3).\n",
    ),
}


@pytest.mark.parametrize("case", REFUSED, ids=str)
def test_what_cannot_run_is_refused_with_a_short_message(case):
    args, stdin, message = REFUSED[case]
    assert posenc(*args, stdin=stdin) == (2, "", message)
    assert len(message) < 300


# -- the streams ------------------------------------------------------------------
STREAMS = {
    "stdout-closed": (
        ">&-",
        2,
        "",
        "posenc: standard output is closed: nowhere to print to.\n",
    ),
    "stdout-full": (
        ">/dev/full",
        2,
        "",
        "posenc: cannot write to standard output: No space left on device\n",
    ),
    "stdin-closed": (
        "<&-",
        2,
        "",
        "posenc: cannot read standard input: it is closed\n",
    ),
    "pipe-closed-early": ("| head -c 10", 0, FIRST[:10], ""),
}


@pytest.mark.parametrize("case", STREAMS, ids=str)
def test_stream_states_end_cleanly(case):
    redirections, status, out, err = STREAMS[case]
    script = [] if case == "stdin-closed" else [str(LESSON)]
    assert shell(redirections, "run", *script) == (status, out, err)


def test_a_closed_pipe_ends_quietly_with_141(tmp_path):
    # Far more output than a pipe buffer holds, so the reader is surely gone
    # before the writer is done (the lesson's few lines could all fit in it).
    script = tmp_path / "long.txt"
    script.write_text("TABLE 1 2\n0 0\n" + "POSENC 1\n" * 20_000)
    status, out, err = shell("| head -1; exit ${PIPESTATUS[0]}", "run", str(script))
    assert (status, out, err) == (141, "0.8415 0.5403\n", "")


def test_with_stderr_closed_the_error_stays_out_of_stdout(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_text("TABLE 1 2\n0 0\nPOSENC 1\nNOPE\n")
    status, out, err = shell("2>&-", "run", str(script))
    assert (status, out, err) == (2, "0.8415 0.5403\n", "")


# -- solutions ------------------------------------------------------------------


@pytest.mark.parametrize("command", [(POSENC,), MODULE], ids=["posenc", "-m"])
def test_modules_named_like_standard_ones_in_the_folder_change_nothing(folder, command):
    source = "import numpy as np\nimport select\n" + RIGHT + "pos_encoding = _library\n"
    assert solve(folder, source, command=command) == (0, OUTPUT, "")


def test_a_solution_supplies_the_learners_functions(folder):
    source = (
        "from posenc_lib.mistakes import MISTAKES\n"
        "pos_encoding = MISTAKES['sine-only']\n"
        "def lookup(table, token_id):\n    return table[token_id].copy()\n"
    )
    script = folder / "script.txt"
    script.write_text("TABLE 1 4\n1 2 3 4\nLOOKUP 0\nPOSENC 0")
    assert solve(folder, source, script=script) == (
        0,
        "1.0000 2.0000 3.0000 4.0000\n0.0000 0.0000 0.0000 0.0000\n",
        "",
    )


def test_a_right_solution_is_not_timed_while_a_long_script_is_read(folder):
    script = folder / "ids.txt"
    script.write_text("TABLE 1 2\n0 0\nTOKENS " + "0 " * 4_000_000 + "\nADD 3999999\n")
    source = "def lookup(table, token_id):\n    return table[token_id].copy()\n"
    result = solve(folder, source, "--time-limit", "0.1", script=script)
    assert result == (0, "-0.6528 -0.7575\n", "")


CALLS = {  # a call of the solution that fails: the message
    "NotImplementedError": (
        "def pos_encoding(pos, d):\n    raise NotImplementedError\n",
        f"{POSENC_LINE} raised NotImplementedError (implement it first); {SHAPE}",
    ),
    "SystemExit('bye')": (
        "def pos_encoding(pos, d):\n    raise SystemExit('bye')\n",
        f"{POSENC_LINE} raised SystemExit: bye {EXITS}; {SHAPE}",
    ),
    "KeyboardInterrupt": (
        "def pos_encoding(pos, d):\n    raise KeyboardInterrupt\n",
        f"{POSENC_LINE} raised KeyboardInterrupt; {SHAPE}",
    ),
    "__array__-raises": (
        "class A:\n    def __array__(self, *a, **k):\n        raise SystemExit(5)\n"
        "    def __repr__(self):\n        raise RuntimeError('no repr')\n"
        "def pos_encoding(pos, d):\n    return A()\n",
        f"{POSENC_LINE} returned an object of type A that cannot be read as numbers "
        f"(RuntimeError: no repr); {SHAPE}",
    ),
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
    "input()": (  # standard input is the script: never read by the solution
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
def test_whatever_a_call_does_is_a_line_n_error(folder, case):
    source, message = CALLS[case]
    assert solve(folder, source, "--time-limit", "0.5") == (2, FIRST, message + "\n")


LOADING = {
    "sys.exit(3)": ("import sys\nsys.exit(3)\n", f"SystemExit: 3 {EXITS}"),
    "os._exit(0)": (
        "import os\nos._exit(0)\n",
        "it ended the process loading it (it exited with status 0: os._exit()?)",
    ),
    "endless-loop": (
        "while True:\n    pass\n",
        "it ran past the time limit (0.5 s) while loading (an endless loop at its "
        "top level?)",
    ),
    "defines-neither": (
        "x = 1\n",
        "ImportError: my_solution.py defines neither lookup nor pos_encoding",
    ),
    "not-python": (None, "ImportError: my_solution.txt is not a Python file"),
}


@pytest.mark.parametrize("case", LOADING, ids=str)
def test_a_solution_that_cannot_be_loaded_is_named(folder, case):
    source, why = LOADING[case]
    path = "my_solution.txt" if source is None else "my_solution.py"
    (folder / path).write_text(source or "")
    result = posenc(
        "run", "--solution", path, "--time-limit", "0.5", LESSON, cwd=folder
    )
    assert result == (2, "", f"posenc: cannot load {path}: {why}\n")


def test_a_solution_whose_lookup_is_not_a_function_is_named(folder):
    assert solve(folder, "lookup = 5\n") == (
        2,
        "",
        "posenc: my_solution.py defines lookup, but it is not a function: 5 (int)\n",
    )


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
def test_a_solution_that_forks_or_plays_with_its_process_runs_once(folder, case):
    source = (
        RIGHT
        + RUNS[case]
        + "\npos_encoding = globals().get('pos_encoding', _library)\n"
    )
    assert solve(folder, source) == (0, OUTPUT, "")


def test_what_a_call_writes_to_its_fds_shows_before_its_line(folder):
    source = RIGHT + (
        "import os, sys\ndef pos_encoding(pos, d):\n"
        "    os.write(sys.stdout.fileno(), b'raw\\n')\n"
        "    print('to stderr', file=sys.stderr)\n"
        "    return _library(pos, d)\n"
    )
    status, out, err = solve(folder, source, script=_script(folder, "POSENC 3"))
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
def test_the_solutions_process_group_ends_with_the_command(folder, ending):
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
            FIRST,
            message,
        )
        assert _ended(living), "the solution's process outlived the command"
    finally:
        os.close(ready)
        os.close(living)
        process.kill()


# -- fuzzing the command language (in-process) ------------------------------------

WORDS = ["TABLE", "TOKENS", "LOOKUP", "POSENC", "ADD", "SIM", "table", "#", "-1"]
WORDS += ["0", "1", "2", "3", "1e3", "nan", "inf", "9" * 30, "0.5", "x", "\0", ""]
NEWLINES = ["\n", "\r\n", "\r", "\x0c", "\u2028", "\x85", " ", "\t"]
scripts = st.lists(
    st.one_of(st.sampled_from(WORDS), st.sampled_from(NEWLINES), st.text(max_size=4)),
    max_size=40,
).map("".join)


@given(scripts)
def test_random_scripts_print_or_raise_a_command_error_only(script):
    try:
        run_commands(script)
    except CommandError as error:
        assert str(error).startswith(f"line {error.line}: ")
        assert len(str(error)) < 400


@given(scripts)
def test_random_scripts_through_main_give_no_traceback(script):
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        with _stdin(script):
            status = main(["run", "-"])
    assert status in (0, 2)
    assert "Traceback" not in err.getvalue()


@contextlib.contextmanager
def _stdin(text):
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8", "surrogatepass")))
    try:
        yield
    finally:
        sys.stdin = old


numbers = st.integers(-50, 50).map(lambda n: n / 4)


@st.composite
def valid_scripts(draw):
    """A valid script and the lines the library says it prints."""
    vocab_size, d = draw(st.integers(1, 4)), 2 * draw(st.integers(1, 3))
    rows = draw(
        st.lists(
            st.lists(numbers, min_size=d, max_size=d),
            min_size=vocab_size,
            max_size=vocab_size,
        )
    )
    table = np.array(rows)
    tokens = draw(st.lists(st.integers(0, vocab_size - 1), min_size=1, max_size=5))
    lines = [f"TABLE {vocab_size} {d}", *(" ".join(map(str, r)) for r in rows)]
    lines.append("TOKENS " + " ".join(map(str, tokens)))
    expected = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["LOOKUP", "POSENC", "ADD", "SIM"]))
        if kind == "LOOKUP":
            token = draw(st.integers(0, vocab_size - 1))
            lines.append(f"LOOKUP {token}")
            expected.append(format_numbers(lookup(table, token)))
        elif kind == "POSENC":
            pos = draw(st.integers(0, 10**6))
            lines.append(f"posenc {pos}")
            expected.append(format_numbers(pos_encoding(pos, d)))
        elif kind == "ADD":
            k = draw(st.integers(0, len(tokens) - 1))
            lines.append(f"ADD {k}")
            expected.append(
                format_numbers(lookup(table, tokens[k]) + pos_encoding(k, d))
            )
        else:
            i, j = draw(st.integers(0, 1000)), draw(st.integers(0, 1000))
            lines.append(f"SIM {i} {j}")
            expected.append(
                format_number(float(pos_encoding(i, d) @ pos_encoding(j, d)))
            )
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(lines), "\n".join(expected)


@given(valid_scripts())
def test_valid_scripts_print_what_the_library_computes(case):
    script, expected = case
    assert run_commands(script) == expected
