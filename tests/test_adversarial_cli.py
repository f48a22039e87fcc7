"""Adversarial scripts, solutions and stream states for `posenc run`, as a subprocess.

Whatever the input, the solution or the state of the standard streams: no
Python traceback, a non-zero exit when anything went wrong (2; 141 for a reader
that went away), and error messages that quote only a short excerpt. The last
part fuzzes the command language with hypothesis, in-process. What a solution
does to the process it runs in: test_adversarial_cli_child.py.
"""

import contextlib
import io
import os
import shlex
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
FIRST = "0.5000 -0.5000 1.0000 0.0000\n"  # the lesson's first printed line
EXITS = "(sys.exit() ends the program; return the answer instead)"
POSENC_LINE = "line 16: POSENC: pos_encoding(3, 4)"


def posenc(*args, stdin=None, timeout=60):
    """Run `python -m posenc_lib ARGS`; never a traceback on stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "posenc_lib", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=timeout,
    )
    assert b"Traceback" not in done.stderr
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def shell(redirections, *args):
    """Run the command line under bash with stream ``redirections``."""
    command = shlex.join([sys.executable, "-m", "posenc_lib", *args])
    done = subprocess.run(
        ["bash", "-c", f"{command} {redirections}"],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert b"Traceback" not in done.stderr
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def solution(tmp_path, source):
    path = tmp_path / "solution.py"
    path.write_text(source)
    return str(path)


def run_lesson_with(tmp_path, source):
    """`posenc run --solution` with ``source`` on the lesson's script, 0.5 s a
    call (posenc's own 60 s timeout only catches a hang)."""
    path = solution(tmp_path, source)
    return posenc("run", "--solution", path, "--time-limit", "0.5", LESSON)


SOLUTIONS = {
    "sys.exit(0)-in-pos_encoding": (
        "import sys\ndef pos_encoding(pos, d):\n    sys.exit(0)\n",
        f"{POSENC_LINE} raised SystemExit: 0 {EXITS}; expected 4 numbers, shape (4,).",
    ),
    "SystemExit('bye')": (
        "def pos_encoding(pos, d):\n    raise SystemExit('bye')\n",
        f"{POSENC_LINE} raised SystemExit: bye {EXITS}; expected 4 numbers, shape "
        "(4,).",
    ),
    "KeyboardInterrupt": (
        "def pos_encoding(pos, d):\n    raise KeyboardInterrupt\n",
        f"{POSENC_LINE} raised KeyboardInterrupt; expected 4 numbers, shape (4,).",
    ),
    "__array__-raises": (
        "class A:\n    def __array__(self, *a, **k):\n        raise SystemExit(5)\n"
        "    def __repr__(self):\n        raise RuntimeError('no repr')\n"
        "def pos_encoding(pos, d):\n    return A()\n",
        f"{POSENC_LINE} returned an object of type A that cannot be read as numbers "
        "(RuntimeError: no repr); expected 4 numbers, shape (4,).",
    ),
    "endless-loop": (
        "def pos_encoding(pos, d):\n    while True:\n        pass\n",
        f"{POSENC_LINE} gave no answer within 0.5 s (the time limit; an endless "
        "loop?); expected 4 numbers, shape (4,).",
    ),
}


@pytest.mark.parametrize("case", SOLUTIONS, ids=str)
def test_whatever_a_solution_does_is_a_line_n_error(tmp_path, case):
    source, message = SOLUTIONS[case]
    status, out, err = run_lesson_with(tmp_path, source)
    assert (status, out, err) == (2, FIRST, message + "\n")


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
    "not-python": ("", "ImportError: {path} is not a Python file"),
    "lookup-is-5": ("lookup = 5\n", None),
}


@pytest.mark.parametrize("case", LOADING, ids=str)
def test_a_solution_that_cannot_be_loaded_is_named(tmp_path, case):
    source, why = LOADING[case]
    path = solution(tmp_path, source)
    if case == "not-python":
        path = path.replace(".py", ".txt")
        os.rename(path.replace(".txt", ".py"), path)
    status, out, err = posenc("run", "--solution", path, "--time-limit", "0.5", LESSON)
    message = f"posenc: cannot load {path}: {why}".format(path=path)
    if why is None:
        message = f"posenc: {path} defines lookup, but it is not a function: 5 (int)"
    assert (status, out, err) == (2, "", message + "\n")


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


# -- the input --------------------------------------------------------------------


def test_dev_zero_is_refused_without_reading_it_all():
    status, out, err = posenc("run", "/dev/zero")  # endless: a hang is posenc's 60 s
    assert (status, out) == (2, "")
    assert err == (
        "posenc: /dev/zero is larger than 8388608 bytes (8 MiB), the limit for a "
        "script.\n"
    )


def test_a_script_over_8_mib_on_stdin_is_refused():
    status, _, err = posenc("run", "-", stdin=b"#" * (8 * 2**20 + 1))
    assert status == 2 and "standard input is larger than 8388608 bytes" in err


VALID = {
    "utf-8-bom": b"\xef\xbb\xbf# notepad\nTABLE 1 2\n0 0\nPOSENC 1\n",
    "crlf": b"TABLE 1 2\r\n0 0\r\nPOSENC 1\r\n",
    "form-feed-in-comment": b"# one\x0c comment\nTABLE 1 2\n0 0\nPOSENC 1\n",
    "separators-in-comment": "# \x0b\x1c\x1d\x1e\x85\u2028\u2029\nTABLE 1 2\n0 0\n"
    "POSENC 1\n".encode(),
}


@pytest.mark.parametrize("case", VALID, ids=str)
def test_valid_scripts_are_accepted(case):
    assert posenc("run", "-", stdin=VALID[case]) == (0, "0.8415 0.5403\n", "")


def test_a_zero_padded_41_digit_integer_is_an_integer():
    script = b"TABLE 1 2\n0 0\nPOSENC " + b"0" * 40 + b"1\n"
    assert posenc("run", "-", stdin=script) == (0, "0.8415 0.5403\n", "")


def test_line_numbers_count_newlines_only():
    script = b"# one\x0c comment\n# two\x1c\nNOPE\n"
    status, _, err = posenc("run", "-", stdin=script)
    assert (status, err[:20]) == (2, "line 3: unknown comm")


LONG = {
    "1-MB-unknown-command": (
        b"X" * 2**20,
        "line 1: unknown command 'XXXXXXXXXXXXXXXXXXXX'... (1048576 characters); "
        "expected one of TABLE, TOKENS, LOOKUP, POSENC, ADD, SIM.\n",
    ),
    "100-KB-integer": (
        b"TABLE 1 2\n0 0\nPOSENC " + b"1" * 100_000,
        "line 3: POSENC: pos == '11111111111111111111'... (100000 characters), "
        "must be an integer below 2**63 (usage: POSENC <pos>).\n",
    ),
    "1000-NULs": (
        b"\0" * 1000,
        f"line 1: unknown command {chr(0) * 20!r}... (1000 characters); expected "
        "one of TABLE, TOKENS, LOOKUP, POSENC, ADD, SIM.\n",
    ),
    "huge-table-number": (
        b"TABLE 1 2\n0 " + b"9" * 5000 + b"x\n",
        "line 2, column 3: table row 0, number 1 == '99999999999999999999'... (5001 "
        "characters), must be a number, in the digits 0-9 (like 0.5, -2 or 1e-3).\n",
    ),
}


@pytest.mark.parametrize("case", LONG, ids=str)
def test_errors_quote_a_short_excerpt(case):
    script, message = LONG[case]
    status, _, err = posenc("run", "-", stdin=script)
    assert (status, err) == (2, message)
    assert len(err) < 300


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
