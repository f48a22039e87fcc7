"""Tests of the command line, `python -m posenc_lib run FILE`, run as a subprocess."""

import contextlib
import io
import subprocess
import sys
from pathlib import Path

import pytest

from posenc_lib.__main__ import main

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "examples" / "lesson.txt"
LESSON_OUTPUT = [
    "0.5000 -0.5000 1.0000 0.0000",
    "0.1411 -0.9900 0.0300 0.9996",
    "0.0000 1.0000 0.0000 1.0000",
    "0.6411 -1.4900 1.0300 0.9996",
    "2.0000",
    "0.0096",
    "0.0096",
]
BAD = "TABLE 2 2\n1 0\n0 1\nTOKENS 0 1\nADD 0\nADD 1\nADD 2\nADD 0\n"
BAD_ERROR = (
    "line 7: ADD: pos == 2, must be in [0, 2), i.e. 0 <= pos < the number of tokens "
    "(2, TOKENS on line 4).\n"
)


def posenc(*args, stdin=None):
    """Run `python -m posenc_lib ARGS` from the repository root."""
    return subprocess.run(
        [sys.executable, "-m", "posenc_lib", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_run_a_file():
    done = posenc("run", "examples/lesson.txt")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == LESSON_OUTPUT


@pytest.mark.parametrize("args", [("run", "-"), ("run",)], ids=["dash", "no-file"])
def test_run_standard_input(args):
    done = posenc(*args, stdin=LESSON.read_text())
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == LESSON_OUTPUT


def test_an_error_keeps_the_output_before_it_and_exits_with_2():
    done = posenc("run", stdin=BAD)
    assert done.returncode == 2
    assert done.stdout == "1.0000 1.0000\n0.8415 1.5403\n"
    assert done.stderr == BAD_ERROR
    assert "Traceback" not in done.stderr


def test_the_errors_example_does_what_its_comment_says():
    done = posenc("run", "examples/errors.txt")
    assert done.returncode == 2
    assert done.stdout.splitlines() == ["1.0000 1.0000", "0.8415 1.5403"]
    assert done.stderr.startswith("line 9: ADD: pos == 2, must be in [0, 2)")


def test_a_missing_file_is_a_clear_error():
    done = posenc("run", "no-such-file.txt")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "posenc: cannot read no-such-file.txt: No such file or directory\n"
    )


def test_no_command_prints_usage_and_exits_with_2():
    done = posenc()
    assert done.returncode == 2
    assert done.stderr.startswith("usage: posenc")


def test_a_solution_file_supplies_the_learners_functions(tmp_path):
    solution = tmp_path / "solution.py"
    solution.write_text(
        "from posenc_lib.mistakes import MISTAKES\n"
        "pos_encoding = MISTAKES['sine-only']\n"
        "def lookup(table, token_id):\n"
        "    return table[token_id].copy()\n"
    )
    done = posenc(
        "run",
        "--solution",
        str(solution),
        stdin="TABLE 1 4\n1 2 3 4\nLOOKUP 0\nPOSENC 0",
    )
    assert (done.returncode, done.stderr) == (0, "")
    lookup_0, sine_only_0 = "1.0000 2.0000 3.0000 4.0000", "0.0000 0.0000 0.0000 0.0000"
    assert done.stdout.splitlines() == [lookup_0, sine_only_0]


def test_a_failing_solution_is_named_with_its_line(tmp_path):
    solution = tmp_path / "solution.py"
    solution.write_text("def pos_encoding(pos, d):\n    raise NotImplementedError\n")
    done = posenc("run", "--solution", str(solution), "examples/lesson.txt")
    assert done.returncode == 2
    assert done.stdout == "0.5000 -0.5000 1.0000 0.0000\n"  # LOOKUP needs no PE
    assert done.stderr == (
        "line 16: POSENC: pos_encoding(3, 4) raised NotImplementedError "
        "(implement it first); expected 4 numbers, shape (4,).\n"
    )


def test_a_solution_that_defines_nothing_useful(tmp_path):
    solution = tmp_path / "empty.py"
    solution.write_text("x = 1\n")
    done = posenc("run", "--solution", str(solution), "examples/lesson.txt")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"posenc: cannot load {solution}: ImportError: {solution} defines neither "
        "lookup nor pos_encoding\n"
    )


def test_the_console_script():
    script = Path(sys.executable).with_name("posenc")
    if not script.exists():
        pytest.skip("the posenc console script is not installed in this environment")
    done = subprocess.run(
        [script, "run", str(LESSON)], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout.splitlines()) == (0, LESSON_OUTPUT)


def test_main_returns_the_exit_status_in_process(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_text(BAD)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["run", str(LESSON)]) == 0
        assert main(["run", str(script)]) == 2
    assert out.getvalue().splitlines() == [
        *LESSON_OUTPUT,
        "1.0000 1.0000",
        "0.8415 1.5403",
    ]
    assert err.getvalue() == BAD_ERROR
