"""Tests of posenc_lib.exercise.commands: the exercise's command interpreter."""

import math
import os
import re
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
from reference import plain_loop

from posenc_lib import positional
from posenc_lib.exercise import CommandError, check_pos_encoding, run_commands
from posenc_lib.mistakes import MISTAKES

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

LESSON = """
TABLE 2 4
0.5 -0.5 1 0
1 2 3 4
TOKENS 1 1 1 0
"""
HEADER = "TABLE 2 4\n0.5 -0.5 1 0\n1 2 3 4\n"


def reference_pe(pos, d):
    """PE[pos] by the lesson's formula: the tests' one plain loop."""
    return plain_loop([pos], d)[0]


def printed(values):
    """How the interpreter prints numbers, written independently."""
    return " ".join(f"{v:.4f}".replace("-0.0000", "0.0000") for v in values)


# -- the lesson's numbers ------------------------------------------------------


def test_lesson_add_and_sim():
    assert run_commands(LESSON + "ADD 3") == "0.6411 -1.4900 1.0300 0.9996"
    assert run_commands(LESSON + "SIM 2 2") == "2.0000"


def test_each_query_against_an_independent_reference():
    script = LESSON + "LOOKUP 1\nPOSENC 3\nPOSENC 17\nADD 2\nSIM 1 4"
    pe_1, pe_4 = reference_pe(1, 4), reference_pe(4, 4)
    expected = [
        printed([1, 2, 3, 4]),
        printed(reference_pe(3, 4)),
        printed(reference_pe(17, 4)),
        printed(np.array([1, 2, 3, 4]) + reference_pe(2, 4)),
        printed([sum(a * b for a, b in zip(pe_1, pe_4, strict=True))]),
    ]
    assert run_commands(script).splitlines() == expected


def test_examples_lesson_file_reproduces_the_lesson():
    lines = run_commands((EXAMPLES / "lesson.txt").read_text()).splitlines()
    assert "0.1411 -0.9900 0.0300 0.9996" in lines  # PE[3], the worked trace
    assert "0.0000 1.0000 0.0000 1.0000" in lines  # PE[0]
    assert "0.6411 -1.4900 1.0300 0.9996" in lines  # ADD 3
    assert "2.0000" in lines  # SIM 2 2


# -- the language -------------------------------------------------------------


def test_comments_blank_lines_and_case_are_ignored():
    script = "# a comment\n\n  table 2 4\n0.5 -0.5 1 0\n\n# between rows\n1 2 3 4\n"
    assert run_commands(script + "tokens 1 1 1 0\nAdd 3") == (
        "0.6411 -1.4900 1.0300 0.9996"
    )


def test_a_later_table_or_tokens_replaces_the_earlier_one():
    script = LESSON + "ADD 0\nTABLE 1 2\n5 6\nTOKENS 0 0\nADD 1\nLOOKUP 0"
    assert run_commands(script).splitlines() == [
        printed(np.array([1, 2, 3, 4]) + reference_pe(0, 4)),
        printed(np.array([5, 6]) + reference_pe(1, 2)),
        "5.0000 6.0000",
    ]


def test_negative_zero_is_printed_as_zero():
    assert run_commands("TABLE 1 3\n-0.00004 -0 -1e-9\nLOOKUP 0") == (
        "0.0000 0.0000 0.0000"
    )


def test_an_empty_script_prints_nothing():
    assert run_commands("# nothing here\n\n") == ""


# -- the learner's functions --------------------------------------------------


def test_functions_returning_arrays_are_used():
    def lookup(table, token_id):
        return np.array([float(x) for x in table[token_id]])

    def pos_encoding(pos, d):
        return np.array(reference_pe(pos, d))

    output = run_commands(LESSON + "ADD 3", lookup=lookup, pos_encoding=pos_encoding)
    assert output == "0.6411 -1.4900 1.0300 0.9996"


@pytest.mark.parametrize(
    ("pos_encoding", "reason", "why"),
    [
        (
            lambda pos, d: reference_pe(pos, d).tolist(),
            "your function returns a list, not a numpy array",
            "The next step adds a row and an encoding, and Python's + joins lists and "
            "tuples instead of adding their numbers: return a numpy array.",
        ),
        (
            lambda pos, d: np.array(reference_pe(pos, d), dtype=np.float16),
            "your function returns float16 numbers",
            "float16 keeps about 3 decimals: return float64 (float32 passes too).",
        ),
        (
            lambda pos, d: np.round(reference_pe(pos, d), 4),
            "your function returns values rounded to 4 decimals",
            "Return them unrounded: the check compares within rtol = atol = 1e-6.",
        ),
    ],
    ids=["list", "float16", "rounded"],
)
def test_the_checkers_rules_hold_here_with_their_messages(pos_encoding, reason, why):
    with pytest.raises(CommandError) as caught:
        run_commands(LESSON + "POSENC 3", pos_encoding=pos_encoding)
    assert str(caught.value) == f"line 6: POSENC: pos_encoding(3, 4): {reason}. {why}"
    message = check_pos_encoding(pos_encoding).message.splitlines()
    assert message[0] == f"pos_encoding: not right yet; {reason}." and why in message


def test_a_list_of_wrong_numbers_is_printed_for_comparison():
    wrong = lambda pos, d: [0.0] * d  # noqa: E731
    assert run_commands(LESSON + "POSENC 3", pos_encoding=wrong) == " ".join(
        ["0.0000"] * 4
    )


def test_the_librarys_own_function_is_refused_by_name():
    message = (
        "pos_encoding: this is posenc_lib's own pos_encoding, imported, not one "
        "written in the notebook."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        run_commands(LESSON, pos_encoding=positional.pos_encoding)
    assert check_pos_encoding(positional.pos_encoding).message == message


def test_the_learners_pos_encoding_is_used_by_posenc_add_and_sim():
    wrong = MISTAKES["integer-division"]
    output = run_commands(LESSON + "POSENC 3\nADD 3\nSIM 0 3", pos_encoding=wrong)
    pe = wrong(3, 4)
    assert output.splitlines() == [
        printed(pe),
        printed(np.array([0.5, -0.5, 1, 0]) + pe),
        printed([wrong(0, 4) @ pe]),
    ]


def test_lookup_gets_a_read_only_2d_float_table():
    def lookup(table, token_id):  # it runs in a child process: it tells by raising
        kind = (type(table).__name__, table.dtype, table.shape, table.flags.writeable)
        raise LookupError(kind)

    message = (
        "line 4: LOOKUP: lookup(table, 1) raised LookupError: ('ndarray', "
        "dtype('float64'), (2, 2), False); expected 2 numbers, shape (2,)."
    )
    with pytest.raises(CommandError, match=f"^{re.escape(message)}$"):
        run_commands("TABLE 2 2\n1 2\n3 4\nLOOKUP 1", lookup=lookup)


def test_a_view_returned_by_lookup_does_not_corrupt_later_answers():
    script = LESSON + "ADD 3\nADD 3"
    output = run_commands(script, lookup=MISTAKES["added-to-table"])
    assert output.splitlines() == ["0.6411 -1.4900 1.0300 0.9996"] * 2


# -- errors -------------------------------------------------------------------

ERRORS = [
    (
        "query-before-table",
        "LOOKUP 0",
        "line 1: LOOKUP needs a table; expected a TABLE command before it "
        "(TABLE <vocab_size> <d>).",
    ),
    (
        "too-few-rows-at-end",
        "TABLE 2 4\n1 2 3 4\n",
        "line 1: TABLE 2 4 on line 1 expects 2 rows of 4 numbers, but the input "
        "ends after 1 row.",
    ),
    (
        "too-few-rows-before-a-command",
        "TABLE 2 4\n1 2 3 4\nLOOKUP 0",
        "line 3: TABLE 2 4 on line 1 expects 2 rows of 4 numbers, but got 1 row "
        "before LOOKUP.",
    ),
    (
        "short-row",
        "TABLE 2 4\n1 2 3 4\n1 2 3",
        "line 3: table row 1 has 3 numbers, expected d == 4 (from TABLE 2 4 on "
        "line 1).",
    ),
    (
        "extra-row",
        HEADER + "1 2 3 4",
        "line 4: a row of numbers after the table is complete; TABLE 2 4 on line 1 "
        "takes exactly 2 rows.",
    ),
    (
        "non-number-in-table",
        "TABLE 1 2\n1 x",
        "line 2, column 3: table row 0, number 1 == 'x', must be a number, in the "
        "digits 0-9 (like 0.5, -2 or 1e-3).",
    ),
    (
        "nan-in-table",
        "TABLE 1 2\n1 nan",
        "line 2, column 3: table row 0, number 1 == 'nan', must be a number, in the "
        "digits 0-9 (like 0.5, -2 or 1e-3).",
    ),
    (
        "overflow-in-table",
        "TABLE 1 2\n1e400 1",
        "line 2: table row 0, number 0 == '1e400', must be a finite number.",
    ),
    (
        "non-integer-argument",
        HEADER + "LOOKUP 1.5",
        "line 4, column 8: LOOKUP: token_id == '1.5', must be an integer, in the "
        "digits 0-9 (usage: LOOKUP <token_id>).",
    ),
    (
        "unknown-command",
        HEADER + "LOKUP 1",
        "line 4: unknown command 'LOKUP'; expected one of TABLE, TOKENS, LOOKUP, "
        "POSENC, ADD, SIM.",
    ),
    (
        "too-few-arguments",
        HEADER + "SIM 1",
        "line 4: SIM takes 2 arguments, got 1 (usage: SIM <p> <q>).",
    ),
    (
        "too-many-arguments",
        HEADER + "POSENC 1 2",
        "line 4: POSENC takes 1 argument, got 2 (usage: POSENC <pos>).",
    ),
    (
        "empty-tokens",
        HEADER + "TOKENS",
        "line 4: TOKENS needs at least one token id (usage: TOKENS <id> <id> ...).",
    ),
    (
        "zero-vocab",
        "TABLE 0 4",
        "line 1: TABLE: vocab_size == 0, must be an integer >= 1.",
    ),
    (
        "token-outside-table",
        HEADER + "TOKENS 0 2",
        "line 4: TOKENS: id[1] == 2, must be in [0, 2), "
        "i.e. 0 <= token_id < vocab_size.",
    ),
    (
        "negative-token",
        HEADER + "TOKENS 0 -1",
        "line 4: TOKENS: id[1] == -1, must be an integer >= 0.",
    ),
    (
        "lookup-outside-table",
        HEADER + "LOOKUP 2",
        "line 4: LOOKUP: token_id == 2, must be in [0, 2), "
        "i.e. 0 <= token_id < vocab_size (2, TABLE on line 1).",
    ),
    (
        "lookup-negative-id",
        HEADER + "LOOKUP -1",
        "line 4: LOOKUP: token_id == -1, must be in [0, 2), "
        "i.e. 0 <= token_id < vocab_size (2, TABLE on line 1).",
    ),
    (
        "add-before-tokens",
        HEADER + "ADD 0",
        "line 4: ADD needs the tokens; expected a TOKENS command before it.",
    ),
    (
        "add-past-the-tokens",
        HEADER + "TOKENS 0 1\nADD 2",
        "line 5: ADD: pos == 2, must be in [0, 2), "
        "i.e. 0 <= pos < the number of tokens (2, TOKENS on line 4).",
    ),
    (
        "token-outside-a-newer-table",
        HEADER + "TOKENS 1 1\nTABLE 1 4\n1 1 1 1\nADD 0",
        "line 7: ADD: id[0] == 1, must be in [0, 1), "
        "i.e. 0 <= id[0] < vocab_size (1, TABLE on line 5).",
    ),
    (
        "negative-position",
        HEADER + "POSENC -1",
        "line 4: POSENC: pos == -1, must be an integer >= 0.",
    ),
    (
        "posenc-odd-width",
        "TABLE 1 3\n1 2 3\nPOSENC 1",
        "line 3: POSENC: d == 3, must be an even integer >= 2. The width d comes "
        "from TABLE on line 1; positional encodings need an even width.",
    ),
    (
        "sim-odd-width",
        "TABLE 1 3\n1 2 3\nSIM 1 2",
        "line 3: SIM: d == 3, must be an even integer >= 2. The width d comes "
        "from TABLE on line 1; positional encodings need an even width.",
    ),
]


@pytest.mark.parametrize(
    ("script", "message"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS]
)
def test_bad_lines_are_named_with_what_was_expected(script, message):
    with pytest.raises(CommandError, match=f"^{re.escape(message)}$"):
        run_commands(script)


def test_lookup_of_an_odd_width_table_is_fine():
    assert run_commands("TABLE 1 3\n1 2 3\nLOOKUP 0") == "1.0000 2.0000 3.0000"


def test_error_is_a_value_error_with_the_line_and_the_output_so_far():
    with pytest.raises(ValueError) as caught:
        run_commands(LESSON + "LOOKUP 0\nADD 3\nADD 9\nLOOKUP 1")
    assert isinstance(caught.value, CommandError)
    assert caught.value.line == 8
    assert caught.value.output == [
        "0.5000 -0.5000 1.0000 0.0000",
        "0.6411 -1.4900 1.0300 0.9996",
    ]


def _raises_index_error(table, token_id):
    raise IndexError("no such row")


def _stub(pos, d):
    raise NotImplementedError


def _exits(pos, d):
    sys.exit(3)


def _endless(pos, d):
    while True:
        pass


def _writes_into_table(table, token_id):
    table[token_id] = table[token_id] + 1.0
    return table[token_id]


LEARNER_ERRORS = [
    (
        "lookup-raises",
        {"lookup": _raises_index_error},
        "line 6: LOOKUP: lookup(table, 1) raised IndexError: no such row; "
        "expected 4 numbers, shape (4,).",
    ),
    (
        "pos-encoding-not-implemented",
        {"pos_encoding": _stub},
        "line 7: ADD: pos_encoding(3, 4) raised NotImplementedError (implement it "
        "first); expected 4 numbers, shape (4,).",
    ),
    (
        "lookup-writes-into-the-table",
        {"lookup": _writes_into_table},
        "line 6: LOOKUP: lookup(table, 1) raised ValueError: assignment destination "
        "is read-only (the table is read-only: lookup must not change it); "
        "expected 4 numbers, shape (4,).",
    ),
    (
        "pos-encoding-wrong-length",
        {"pos_encoding": lambda pos, d: [1.0, 2.0]},
        "line 7: ADD: pos_encoding(3, 4) returned [1.0, 2.0], of shape (2,); "
        "expected 4 numbers, shape (4,).",
    ),
    (
        "lookup-returns-a-2d-row",
        {"lookup": lambda table, token_id: table[token_id : token_id + 1]},
        "line 6: LOOKUP: lookup(table, 1) returned array([[1., 2., 3., 4.]]), of "
        "shape (1, 4); expected 4 numbers, shape (4,).",
    ),
    (
        "lookup-returns-none",
        {"lookup": lambda table, token_id: None},
        "line 6: LOOKUP: lookup(table, 1) returned None (is a `return` missing?); "
        "expected 4 numbers, shape (4,).",
    ),
    (
        "lookup-returns-strings",
        {"lookup": lambda table, token_id: ["a", "b", "c", "d"]},
        "line 6: LOOKUP: lookup(table, 1) returned ['a', 'b', 'c', 'd'], which is "
        "not numbers (dtype <U1); expected 4 numbers, shape (4,).",
    ),
    (
        "pos-encoding-exits",
        {"pos_encoding": _exits},
        "line 7: ADD: pos_encoding(3, 4) raised SystemExit: 3 (sys.exit() ends the "
        "program; return the answer instead); expected 4 numbers, shape (4,).",
    ),
    (
        "pos-encoding-ends-the-process",
        {"pos_encoding": lambda pos, d: os._exit(0)},
        "line 7: ADD: pos_encoding(3, 4) ended the process running it (it exited with "
        "status 0: os._exit()?); expected 4 numbers, shape (4,).",
    ),
    (
        "pos-encoding-asks-for-input",
        {"pos_encoding": lambda pos, d: [float(input())] * d},
        "line 7: ADD: pos_encoding(3, 4) raised EOFError: EOF when reading a line "
        "(input() has nothing to read here: take what you need as arguments); "
        "expected 4 numbers, shape (4,).",
    ),
    (
        "pos-encoding-never-returns",
        {"pos_encoding": _endless},
        "line 7: ADD: pos_encoding(3, 4) gave no answer within 0.3 s (the time limit; "
        "an endless loop?); expected 4 numbers, shape (4,).",
    ),
    (
        "pos-encoding-returns-nan",
        {"pos_encoding": lambda pos, d: [math.nan] * d},
        "line 7: ADD: pos_encoding(3, 4) returned [nan, nan, nan, nan], which "
        "holds nan or inf; expected 4 numbers, shape (4,).",
    ),
]


@pytest.mark.parametrize(
    ("functions", "message"),
    [e[1:] for e in LEARNER_ERRORS],
    ids=[e[0] for e in LEARNER_ERRORS],
)
def test_a_learners_function_that_fails_is_named_with_its_command(functions, message):
    with pytest.raises(CommandError, match=f"^{re.escape(message)}$") as caught:
        run_commands(LESSON + "LOOKUP 1\nADD 3", **functions, time_limit=0.3)
    expected_output = [] if "lookup" in functions else ["1.0000 2.0000 3.0000 4.0000"]
    assert caught.value.output == expected_output


def test_what_the_learners_functions_print_comes_before_their_line(capfd):
    def chatty(pos, d):
        print(f"pos={pos}", flush=True)
        return np.array(reference_pe(pos, d))

    output = run_commands(LESSON + "POSENC 3\nSIM 1 2", pos_encoding=chatty)
    assert output == printed(reference_pe(3, 4)) + "\n1.5403"
    assert capfd.readouterr().out == "pos=3\npos=1\npos=2\n"


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((None,), {}, "text == None, must be a str: the script."),
        ((b"LOOKUP 0",), {}, "text == b'LOOKUP 0', must be a str: the script."),
        (
            ("",),
            {"time_limit": -1},
            "time_limit == -1, must be a number of seconds in (0, 3600].",
        ),
        (
            ("",),
            {"time_limit": 10**5000},
            "time_limit == 100000000000...(5001 digits), must be a number of "
            "seconds in (0, 3600].",
        ),
        (("",), {"lookup": 3}, "lookup == 3 (int), must be a function."),
        (
            ("",),
            {"pos_encoding": "sin"},
            "pos_encoding == 'sin' (str), must be a function.",
        ),
    ],
    ids=[
        "none",
        "bytes",
        "time-limit-negative",
        "time-limit-huge",
        "lookup-int",
        "pos-encoding-str",
    ],
)
def test_wrong_arguments_are_type_or_value_errors(args, kwargs, message):
    with pytest.raises((TypeError, ValueError), match=f"^{re.escape(message)}$"):
        run_commands(*args, **kwargs)


# -- the grammar: ASCII digits and the number forms chapter 03 lists -------------


def _forms():
    """The number forms chapter 03 lists: (integers, table numbers, refused)."""
    solution = EXAMPLES.parent / "notebooks" / "solutions" / "03_exercise.ipynb"
    text = next(
        cell.source
        for cell in nbformat.read(solution, as_version=4).cells
        if "Numbers are written in ASCII" in cell.source
    )
    text = text[text.index("Numbers are written in ASCII") :]
    accepted, refused = text.split("Nothing else", 1)
    integers, decimals = accepted.split("decimal point", 1)
    words = lambda part: re.findall(r"`([^`]+)`", part)  # noqa: E731
    return words(integers), words(decimals), words(refused.split(":")[0])


def test_chapter_03_lists_the_forms_the_interpreter_reads():
    integers, decimals, refused = _forms()
    assert len(integers) >= 3 and len(decimals) >= 3 and len(refused) >= 5
    for word in integers:
        if int(word) < 0:  # read, then refused as a position
            with pytest.raises(
                CommandError, match="pos == -1, must be an integer >= 0"
            ):
                run_commands(LESSON + f"POSENC {word}")
            continue
        assert run_commands(LESSON + f"POSENC {word}") == printed(
            reference_pe(int(word), 4)
        )
    for word in integers + decimals:
        assert run_commands(f"TABLE 1 2\n{word} 0\nLOOKUP 0") == printed(
            [float(word), 0.0]
        )
    for word in refused:
        with pytest.raises(CommandError, match=r"^line 6, column 8: POSENC: pos == "):
            run_commands(LESSON + f"POSENC {word}")
        with pytest.raises(CommandError, match=r"^line 2, column 5: table row 0, "):
            run_commands(f"TABLE 1 2\n  0 {word}")


@pytest.mark.parametrize("word", ["1_0", "\u0663", "\uff13"])
def test_other_digits_are_refused_by_line_and_column(word):
    with pytest.raises(CommandError) as caught:
        run_commands(LESSON + f"TOKENS 1  {word}")
    assert str(caught.value) == (
        f"line 6, column 11: TOKENS: id[1] == {word!r}, must be an integer, in the "
        "digits 0-9 (usage: TOKENS <id> <id> ...)."
    )
    assert (caught.value.line, caught.value.column) == (6, 11)


def test_masked_positions_are_refused_by_name():
    masked = np.ma.masked_array([0, 1, 2], mask=[False, True, False])
    message = "positions is a masked array, must be a 1-D sequence of non-negative "
    with pytest.raises(TypeError, match=re.escape(message)):
        positional.sinusoidal_positions(masked, 4)
