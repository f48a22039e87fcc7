"""Tests of posenc_lib.exercise.commands: the exercise's command interpreter.

The lesson's script itself, run by ``posenc run``: tests/test_adversarial_cli.py.
"""

# ruff: noqa: E501 - a table's row is one case

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
from posenc_lib.exercise import commands as commands_module
from posenc_lib.mistakes import MISTAKES

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
HEADER = "TABLE 2 4\n0.5 -0.5 1 0\n1 2 3 4\n"
LESSON = HEADER + "TOKENS 1 1 1 0\n"  # lines 1 to 4


def reference_pe(pos, d):
    """PE[pos] by the lesson's formula: the tests' one plain loop."""
    return plain_loop([pos], d)[0]


def printed(values):
    """How the interpreter prints numbers, written independently."""
    return " ".join(f"{v:.4f}".replace("-0.0000", "0.0000") for v in values)


# -- the language -------------------------------------------------------------


def test_each_query_against_an_independent_reference():
    script = LESSON + "LOOKUP 1\nPOSENC 3\nPOSENC 17\nADD 2\nSIM 1 4"
    pe_1, pe_4 = reference_pe(1, 4), reference_pe(4, 4)
    assert run_commands(script).splitlines() == [
        printed([1, 2, 3, 4]),
        printed(reference_pe(3, 4)),
        printed(reference_pe(17, 4)),
        printed(np.array([1, 2, 3, 4]) + reference_pe(2, 4)),
        printed([sum(a * b for a, b in zip(pe_1, pe_4, strict=True))]),
    ]


def test_a_later_table_or_tokens_replaces_the_earlier_one():
    script = LESSON + "ADD 0\nTABLE 1 2\n5 6\nTOKENS 0 0\nADD 1\nLOOKUP 0"
    assert run_commands(script).splitlines() == [
        printed(np.array([1, 2, 3, 4]) + reference_pe(0, 4)),
        printed(np.array([5, 6]) + reference_pe(1, 2)),
        "5.0000 6.0000",
    ]


OUTPUTS = {  # script: what it prints
    "comments-blank-lines-and-case": (
        "# a comment\n\n  table 2 4\n0.5 -0.5 1 0\n\n# between rows\n1 2 3 4\ntokens 1 1 1 0\nAdd 3",
        "0.6411 -1.4900 1.0300 0.9996",
    ),
    "negative-zero": ("TABLE 1 3\n-0.00004 -0 -1e-9\nLOOKUP 0", "0.0000 0.0000 0.0000"),
    "empty": ("# nothing here\n\n", ""),
    "lookup-of-an-odd-width-table": (
        "TABLE 1 3\n1 2 3\nLOOKUP 0",
        "1.0000 2.0000 3.0000",
    ),
}


@pytest.mark.parametrize("case", OUTPUTS, ids=str)
def test_what_a_script_prints(case):
    script, output = OUTPUTS[case]
    assert run_commands(script) == output


# -- the learner's functions --------------------------------------------------


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
    assert str(caught.value) == f"line 5: POSENC: pos_encoding(3, 4): {reason}. {why}"
    message = check_pos_encoding(pos_encoding).message.splitlines()
    assert message[0] == f"pos_encoding: not right yet; {reason}." and why in message


def test_a_list_of_wrong_numbers_is_printed_for_comparison():
    wrong = lambda pos, d: [0.0] * d  # noqa: E731
    assert (
        run_commands(LESSON + "POSENC 3", pos_encoding=wrong)
        == "0.0000 " * 3 + "0.0000"
    )


def test_the_librarys_own_function_is_refused_by_name():
    message = "pos_encoding: this is posenc_lib's own pos_encoding, imported, not one written in the notebook."
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
        raise LookupError(
            (type(table).__name__, table.dtype, table.shape, table.flags.writeable)
        )

    message = "line 4: LOOKUP: lookup(table, 1) raised LookupError: ('ndarray', dtype('float64'), (2, 2), False); expected 2 numbers, shape (2,)."
    with pytest.raises(CommandError, match=f"^{re.escape(message)}$"):
        run_commands("TABLE 2 2\n1 2\n3 4\nLOOKUP 1", lookup=lookup)


def test_a_view_returned_by_lookup_does_not_corrupt_later_answers():
    output = run_commands(LESSON + "ADD 3\nADD 3", lookup=MISTAKES["added-to-table"])
    assert output.splitlines() == ["0.6411 -1.4900 1.0300 0.9996"] * 2


def test_what_the_learners_functions_print_comes_before_their_line(capfd):
    def chatty(pos, d):
        print(f"pos={pos}", flush=True)
        return np.array(reference_pe(pos, d))

    output = run_commands(LESSON + "POSENC 3\nSIM 1 2", pos_encoding=chatty)
    assert output == printed(reference_pe(3, 4)) + "\n1.5403"
    assert capfd.readouterr().out == "pos=3\npos=1\npos=2\n"


# -- errors: name | script ({H}: the table's three lines) | message -------------

ERRORS = r"""
query-before-table | LOOKUP 0 | line 1: LOOKUP needs a table; expected a TABLE command before it (TABLE <vocab_size> <d>).
too-few-rows-at-end | TABLE 2 4\n1 2 3 4\n | line 1: TABLE 2 4 on line 1 expects 2 rows of 4 numbers, but the input ends after 1 row.
too-few-rows-before-a-command | TABLE 2 4\n1 2 3 4\nLOOKUP 0 | line 3: TABLE 2 4 on line 1 expects 2 rows of 4 numbers, but got 1 row before LOOKUP.
short-row | TABLE 2 4\n1 2 3 4\n1 2 3 | line 3: table row 1 has 3 numbers, expected d == 4 (from TABLE 2 4 on line 1).
extra-row | {H}1 2 3 4 | line 4: a row of numbers after the table is complete; TABLE 2 4 on line 1 takes exactly 2 rows.
row-outside-a-table | 1 2 3 4 | line 1: a row of numbers outside a table; rows follow a TABLE line.
non-number-in-table | TABLE 1 2\n1 x | line 2, column 3: table row 0, number 1 == 'x', must be a number, in the digits 0-9 (like 0.5, -2 or 1e-3).
nan-in-table | TABLE 1 2\n1 nan | line 2, column 3: table row 0, number 1 == 'nan', must be a number, in the digits 0-9 (like 0.5, -2 or 1e-3).
overflow-in-table | TABLE 1 2\n1e400 1 | line 2: table row 0, number 0 == '1e400', must be a finite number.
non-integer-argument | {H}LOOKUP 1.5 | line 4, column 8: LOOKUP: token_id == '1.5', must be an integer, in the digits 0-9 (usage: LOOKUP <token_id>).
integer-past-2**63 | {H}POSENC 9223372036854775808 | line 4: POSENC: pos == '9223372036854775808', must be an integer below 2**63 (usage: POSENC <pos>).
unknown-command | {H}LOKUP 1 | line 4: unknown command 'LOKUP'; expected one of TABLE, TOKENS, LOOKUP, POSENC, ADD, SIM.
too-few-arguments | {H}SIM 1 | line 4: SIM takes 2 arguments, got 1 (usage: SIM <p> <q>).
too-many-arguments | {H}POSENC 1 2 | line 4: POSENC takes 1 argument, got 2 (usage: POSENC <pos>).
empty-tokens | {H}TOKENS | line 4: TOKENS needs at least one token id (usage: TOKENS <id> <id> ...).
zero-vocab | TABLE 0 4 | line 1: TABLE: vocab_size == 0, must be an integer >= 1.
token-outside-table | {H}TOKENS 0 2 | line 4: TOKENS: id[1] == 2, must be in [0, 2), i.e. 0 <= token_id < vocab_size.
negative-token | {H}TOKENS 0 -1 | line 4: TOKENS: id[1] == -1, must be an integer >= 0.
lookup-outside-table | {H}LOOKUP 2 | line 4: LOOKUP: token_id == 2, must be in [0, 2), i.e. 0 <= token_id < vocab_size (2, TABLE on line 1).
lookup-negative-id | {H}LOOKUP -1 | line 4: LOOKUP: token_id == -1, must be in [0, 2), i.e. 0 <= token_id < vocab_size (2, TABLE on line 1).
add-before-tokens | {H}ADD 0 | line 4: ADD needs the tokens; expected a TOKENS command before it.
add-past-the-tokens | {H}TOKENS 0 1\nADD 2 | line 5: ADD: pos == 2, must be in [0, 2), i.e. 0 <= pos < the number of tokens (2, TOKENS on line 4).
token-outside-a-newer-table | {H}TOKENS 1 1\nTABLE 1 4\n1 1 1 1\nADD 0 | line 7: ADD: id[0] == 1, must be in [0, 1), i.e. 0 <= id[0] < vocab_size (1, TABLE on line 5).
negative-position | {H}POSENC -1 | line 4: POSENC: pos == -1, must be an integer >= 0.
posenc-odd-width | TABLE 1 3\n1 2 3\nPOSENC 1 | line 3: POSENC: d == 3, must be an even integer >= 2. The width d comes from TABLE on line 1; positional encodings need an even width.
sim-odd-width | TABLE 1 3\n1 2 3\nSIM 1 2 | line 3: SIM: d == 3, must be an even integer >= 2. The width d comes from TABLE on line 1; positional encodings need an even width.
"""
ERRORS = dict(
    (name, (script.replace("{H}", HEADER).replace(r"\n", "\n"), message))
    for name, script, message in (
        row.split(" | ") for row in ERRORS.strip().splitlines()
    )
)


@pytest.mark.parametrize("case", ERRORS, ids=str)
def test_bad_lines_are_named_with_what_was_expected(case):
    script, message = ERRORS[case]
    with pytest.raises(CommandError, match=f"^{re.escape(message)}$"):
        run_commands(script)


def test_error_is_a_value_error_with_the_line_and_the_output_so_far():
    with pytest.raises(ValueError) as caught:
        run_commands(LESSON + "LOOKUP 0\nADD 3\nADD 9\nLOOKUP 1")
    assert isinstance(caught.value, CommandError)
    assert caught.value.line == 7
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


LOOKUP, ADD = "line 5: LOOKUP: lookup(table, 1) ", "line 6: ADD: pos_encoding(3, 4) "
LEARNER_ERRORS = {  # the learner's function: what the line says it did
    "lookup-raises": (
        {"lookup": _raises_index_error},
        LOOKUP + "raised IndexError: no such row",
    ),
    "pos-encoding-not-implemented": (
        {"pos_encoding": _stub},
        ADD + "raised NotImplementedError (implement it first)",
    ),
    "lookup-writes-into-the-table": (
        {"lookup": _writes_into_table},
        LOOKUP
        + "raised ValueError: assignment destination is read-only (the table is read-only: lookup must not change it)",
    ),
    "pos-encoding-wrong-length": (
        {"pos_encoding": lambda pos, d: [1.0, 2.0]},
        ADD + "returned [1.0, 2.0], of shape (2,)",
    ),
    "lookup-returns-a-2d-row": (
        {"lookup": lambda table, token_id: table[token_id : token_id + 1]},
        LOOKUP + "returned array([[1., 2., 3., 4.]]), of shape (1, 4)",
    ),
    "lookup-returns-none": (
        {"lookup": lambda table, token_id: None},
        LOOKUP + "returned None (is a `return` missing?)",
    ),
    "lookup-returns-strings": (
        {"lookup": lambda table, token_id: ["a", "b", "c", "d"]},
        LOOKUP + "returned ['a', 'b', 'c', 'd'], which is not numbers (dtype <U1)",
    ),
    "pos-encoding-exits": (
        {"pos_encoding": _exits},
        ADD
        + "raised SystemExit: 3 (sys.exit() ends the program; return the answer instead)",
    ),
    "pos-encoding-ends-the-process": (
        {"pos_encoding": lambda pos, d: os._exit(0)},
        ADD + "ended the process running it (it exited with status 0: os._exit()?)",
    ),
    "pos-encoding-asks-for-input": (
        {"pos_encoding": lambda pos, d: [float(input())] * d},
        ADD
        + "raised EOFError: EOF when reading a line (input() has nothing to read here: take what you need as arguments)",
    ),
    "pos-encoding-never-returns": (
        {"pos_encoding": _endless},
        ADD + "gave no answer within 0.3 s (the time limit; an endless loop?)",
    ),
    "pos-encoding-returns-nan": (
        {"pos_encoding": lambda pos, d: [math.nan] * d},
        ADD + "returned [nan, nan, nan, nan], which holds nan or inf",
    ),
}


@pytest.mark.parametrize("case", LEARNER_ERRORS, ids=str)
def test_a_learners_function_that_fails_is_named_with_its_command(case):
    functions, said = LEARNER_ERRORS[case]
    message = f"{said}; expected 4 numbers, shape (4,)."
    with pytest.raises(CommandError, match=f"^{re.escape(message)}$") as caught:
        run_commands(LESSON + "LOOKUP 1\nADD 3", **functions, time_limit=0.3)
    expected_output = [] if "lookup" in functions else ["1.0000 2.0000 3.0000 4.0000"]
    assert caught.value.output == expected_output


ARGUMENTS = {  # run_commands(text, **kwargs): the message
    "none": ((None,), {}, "text == None, must be a str: the script."),
    "bytes": ((b"LOOKUP 0",), {}, "text == b'LOOKUP 0', must be a str: the script."),
    "over-8-MiB": (
        ("#" * (8 * 2**20 + 1),),
        {},
        "text has 8388609 characters, more than the 8388608 (8 MiB) a script may hold.",
    ),
    "time-limit-negative": (
        ("",),
        {"time_limit": -1},
        "time_limit == -1, must be a number of seconds in (0, 3600].",
    ),
    "time-limit-huge": (
        ("",),
        {"time_limit": 10**5000},
        "time_limit == 100000000000...(5001 digits), must be a number of seconds in (0, 3600].",
    ),
    "lookup-int": (("",), {"lookup": 3}, "lookup == 3 (int), must be a function."),
    "pos-encoding-str": (
        ("",),
        {"pos_encoding": "sin"},
        "pos_encoding == 'sin' (str), must be a function.",
    ),
}


@pytest.mark.parametrize("case", ARGUMENTS, ids=str)
def test_wrong_arguments_are_type_or_value_errors(case):
    args, kwargs, message = ARGUMENTS[case]
    with pytest.raises((TypeError, ValueError), match=f"^{re.escape(message)}$"):
        run_commands(*args, **kwargs)


# -- sizes: checked before they are built, never quadratic -----------------------


@pytest.mark.parametrize("limit", ["MAX_OUTPUT_LINES", "MAX_ARRAY_BYTES"])
def test_an_output_past_its_limits_is_refused_at_its_line(monkeypatch, limit):
    monkeypatch.setattr(
        commands_module, limit, 2 if limit == "MAX_OUTPUT_LINES" else 20
    )
    with pytest.raises(CommandError) as caught:
        run_commands(LESSON + "SIM 0 0\nSIM 0 0\nSIM 0 0")
    assert str(caught.value).startswith("line 7: the output passes ")
    assert caught.value.output == ["2.0000", "2.0000"]


@pytest.mark.parametrize("words", ["0 " * 1_000_000, "+0 " * 300_000])
def test_a_long_row_or_token_line_is_read_in_one_pass(words):
    # a hang (each number reading the whole line again) is pytest's timeout
    table, tokens = f"TABLE 1 {len(words.split())}\n{words}\n", f"TOKENS {words}\n"
    assert run_commands(table + "LOOKUP 0").startswith("0.0000 0.0000")
    assert run_commands("TABLE 1 2\n0 0\n" + tokens + "ADD 0") == "0.0000 1.0000"


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
        with pytest.raises(CommandError, match=r"^line 5, column 8: POSENC: pos == "):
            run_commands(LESSON + f"POSENC {word}")
        with pytest.raises(CommandError, match=r"^line 2, column 5: table row 0, "):
            run_commands(f"TABLE 1 2\n  0 {word}")


@pytest.mark.parametrize("word", ["1_0", "\u0663", "\uff13"])
def test_other_digits_are_refused_by_line_and_column(word):
    with pytest.raises(CommandError) as caught:
        run_commands(LESSON + f"TOKENS 1  {word}")
    assert str(caught.value) == (
        f"line 5, column 11: TOKENS: id[1] == {word!r}, must be an integer, in the "
        "digits 0-9 (usage: TOKENS <id> <id> ...)."
    )
    assert (caught.value.line, caught.value.column) == (5, 11)


def test_masked_positions_are_refused_by_name():
    masked = np.ma.masked_array([0, 1, 2], mask=[False, True, False])
    message = "positions is a masked array, must be a 1-D sequence of non-negative "
    with pytest.raises(TypeError, match=re.escape(message)):
        positional.sinusoidal_positions(masked, 4)
