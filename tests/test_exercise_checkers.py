"""Tests of posenc_lib.exercise: the checker names every mistake, survives bad code."""

import itertools
import math
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

from posenc_lib import lookup, pos_encoding, sinusoidal_positions
from posenc_lib.exercise import (
    CheckResult,
    check_lookup,
    check_pos_encoding,
    check_sinusoidal_positions,
)
from posenc_lib.exercise._checking import _SECTIONS, see, split_notes
from posenc_lib.exercise.checkers import _pos_encoding_cases, _positions_cases
from posenc_lib.mistakes import MISTAKES, POS_ENCODING_MISTAKES

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def loop_pos_encoding(pos, d):
    """A learner's right answer: plain Python, returns a list."""
    return [
        math.sin(pos / 10000 ** (2 * (k // 2) / d))
        if k % 2 == 0
        else math.cos(pos / 10000 ** (2 * (k // 2) / d))
        for k in range(d)
    ]


def loop_positions(positions, d_model):
    return [loop_pos_encoding(p, d_model) for p in positions]


def rowwise(mistake):
    """The vectorised task done with one of the mistakes, row by row."""
    return lambda positions, d_model: np.array(
        [MISTAKES[mistake](p, d_model) for p in positions]
    )


def concatenated_halves(positions, d_model):
    angle = np.array(positions)[:, None] / 10000 ** (
        2 * np.arange(d_model // 2) / d_model
    )  # (n, d_model // 2)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)  # (n, d_model)


def stub(*args):
    raise NotImplementedError("write this function")


# -- the bank tells every answer apart ------------------------------------------


def separated(outputs_a, outputs_b):
    return any(
        not np.allclose(a, b, rtol=1e-6, atol=1e-6)
        for a, b in zip(outputs_a, outputs_b, strict=True)
    )


def test_the_pos_encoding_bank_separates_every_mistake_and_the_right_answer():
    cases = _pos_encoding_cases()
    answers = {"right": [pos_encoding(*case.args) for case in cases]}
    for mistake in POS_ENCODING_MISTAKES:
        answers[mistake] = [MISTAKES[mistake](*case.args) for case in cases]
    for a, b in itertools.combinations(answers, 2):
        assert separated(answers[a], answers[b]), (a, b)


def test_the_sinusoidal_positions_bank_separates_every_mistake():
    cases = _positions_cases()
    answers = {"right": [sinusoidal_positions(*case.args) for case in cases]}
    answers["halves"] = [concatenated_halves(*case.args) for case in cases]
    for mistake in POS_ENCODING_MISTAKES:
        answers[mistake] = [rowwise(mistake)(*case.args) for case in cases]
    for a, b in itertools.combinations(answers, 2):
        assert separated(answers[a], answers[b]), (a, b)


def test_the_banks_expected_answers_match_plain_math():
    for case in _pos_encoding_cases():
        np.testing.assert_allclose(case.expected, loop_pos_encoding(*case.args))
    for case in _positions_cases():
        np.testing.assert_allclose(case.expected, loop_positions(*case.args))


# -- right answers pass ----------------------------------------------------------

# the library's own functions are not among them: the checkers' answers are theirs
RIGHT = [
    (check_pos_encoding, loop_pos_encoding),
    (check_pos_encoding, lambda pos, d: tuple(loop_pos_encoding(pos, d))),
    (check_pos_encoding, lambda pos, d: pos_encoding(pos, d).astype(np.float32)),
    (check_lookup, lambda table, token_id: table[token_id].copy()),
    (check_lookup, lambda table, token_id: np.array(table[token_id], np.float32)),
    (check_sinusoidal_positions, lambda ps, d: np.array(loop_positions(ps, d))),
]


@pytest.mark.parametrize(
    ("check", "fn"),
    RIGHT,
    ids=[
        "loop-list",
        "loop-tuple",
        "float32",
        "lookup-copy",
        "lookup-float32",
        "positions-array-of-lists",
    ],
)
def test_right_answers_pass(check, fn):
    result = check(fn)
    assert (result.passed, result.mistake) == (True, None)
    assert "passed all" in result.message.splitlines()[0]
    assert len(result.message.splitlines()) == 2  # a pass and nothing else


def test_passed_message_exactly():
    assert check_pos_encoding(pos_encoding).message == (
        "pos_encoding: passed all 7 cases.\n"
        "For example pos_encoding(3, 4) = [0.1411 -0.9900 0.0300 0.9996]."
    )


# -- every mistake is diagnosed as itself -----------------------------------------


SECTION_OF = {mistake: f"{n}. `{mistake}`" for n, mistake in enumerate(MISTAKES, 1)}


@pytest.mark.parametrize("mistake", POS_ENCODING_MISTAKES)
def test_check_pos_encoding_names_each_mistake(mistake):
    result = check_pos_encoding(MISTAKES[mistake])
    assert (result.passed, result.mistake) == (False, mistake)
    assert f"this is the mistake '{mistake}'" in result.message
    assert result.message.endswith(f'chapter 04: "{SECTION_OF[mistake]}".')


@pytest.mark.parametrize("mistake", POS_ENCODING_MISTAKES)
def test_check_sinusoidal_positions_names_each_mistake(mistake):
    result = check_sinusoidal_positions(rowwise(mistake))
    assert (result.passed, result.mistake) == (False, mistake)


def test_the_same_mistake_in_lists_is_still_recognised():
    result = check_pos_encoding(lambda pos, d: list(MISTAKES["sine-only"](pos, d)))
    assert result.mistake == "sine-only"


def test_integer_division_message_exactly():
    assert check_pos_encoding(MISTAKES["integer-division"]).message == (
        "pos_encoding: not right yet; this is the mistake 'integer-division'.\n"
        "Tried:    pos_encoding(3, 4)\n"
        "Expected: [0.1411 -0.9900 0.0300 0.9996]\n"
        "Got:      [0.1411 -0.9900 0.1411 -0.9900]\n"
        "Columns that differ: 2, 3.\n"
        "The exponent (2 * pair) // d truncates to 0, so every pair gets frequency 1 "
        "and repeats sin(pos), cos(pos).\n"
        "  wrong: angle = pos / 10000 ** ((2 * pair) // d)\n"
        "  right: angle = pos / 10000 ** (2 * pair / d)\n"
        'See chapter 02: "The formula"; chapter 04: "4. `integer-division`".'
    )


def test_check_lookup_names_a_view_and_shows_the_table_change():
    result = check_lookup(MISTAKES["added-to-table"])
    assert (result.passed, result.mistake) == (False, "added-to-table")
    assert result.message.splitlines()[:5] == [
        "lookup: not right yet; this is the mistake 'added-to-table'.",
        "Tried:    lookup(table, 0)",
        "The row you return is a view into the table (they share memory).",
        "After row += pos_encoding(3, d), the table itself changed:",
        "  table[0] before: [0.5000 -0.5000 1.0000 0.0000]",
    ]
    assert "  table[0] after:  [0.6411 -1.4900 1.0300 0.9996]" in result.message


def test_check_lookup_says_how_a_lookup_changed_the_table():
    # It returns a copy, so it is not the view of 'added-to-table': the table
    # changed during the call, and the result says which row and how.
    def adds_into_table(table, token_id):
        table[token_id] += pos_encoding(token_id, table.shape[1])
        return table[token_id].copy()

    result = check_lookup(adds_into_table)
    assert (result.passed, result.mistake) == (False, None)
    assert result.message.splitlines() == [
        "lookup: not right yet; the table must not change.",
        "Tried:    lookup(table, 0)",
        "Calling it changed the table it was given (your function wrote into it; "
        "it should only read it):",
        "  table[0] before: [0.5000 -0.5000 1.0000 0.0000]",
        "  table[0] after:  [0.5000 0.5000 1.0000 1.0000]",
        'See chapter 01: "The table", "The lookup returns a copy".',
    ]


def test_a_read_only_view_is_told_the_add_raises_not_that_it_writes():
    def read_only_view(table, token_id):
        row = table[token_id]
        row.flags.writeable = False
        return row

    result = check_lookup(read_only_view)
    assert (result.passed, result.mistake) == (False, None)
    assert result.message.splitlines()[:4] == [
        "lookup: not right yet; return a new array, not a view.",
        "Tried:    lookup(table, 0)",
        "The row you return is a read-only view into the table (they share memory).",
        "So row += pos_encoding(3, d) leaves the table alone but raises "
        "ValueError: output array is read-only.",
    ]
    assert "table itself changed" not in result.message


# -- wrong answers that are not one of the mistakes ------------------------------


def test_an_unknown_wrong_answer_shows_the_first_failing_case():
    result = check_pos_encoding(lambda pos, d: np.array(pos_encoding(pos, d)) + 0.01)
    assert (result.passed, result.mistake) == (False, None)
    assert result.message.splitlines()[:8] == [
        "pos_encoding: not right yet (7 of 7 cases differ); it matches none of "
        "the common mistakes.",
        "Tried:    pos_encoding(0, 4)",
        "Expected: [0.0000 1.0000 0.0000 1.0000]",
        "Got:      [0.0100 1.0100 0.0100 1.0100]",
        "Columns that differ: 0, 1, 2, 3.",
        "First difference: column 0, in pair 0 (columns 0 and 1).",
        "  Expected angle: 0 / 10000 ** (2 * 0 / 4) = 0.0000 rad",
        "  Your columns (0.0100, 1.0100) are not the sine and cosine of one angle: "
        "sin^2 + cos^2 = 1.0202, not 1.",
    ]


def base_1000(pos, d):
    """A mistake outside the list: 1000 instead of 10000."""
    k = np.arange(d)
    angle = pos / 1000 ** (2 * (k // 2) / d)
    return np.where(k % 2 == 0, np.sin(angle), np.cos(angle))


def test_an_unknown_mistake_reports_the_angle_got_and_expected():
    assert check_pos_encoding(base_1000).message == (
        "pos_encoding: not right yet (5 of 7 cases differ); it matches none of "
        "the common mistakes.\n"
        "Tried:    pos_encoding(3, 4)\n"
        "Expected: [0.1411 -0.9900 0.0300 0.9996]\n"
        "Got:      [0.1411 -0.9900 0.0947 0.9955]\n"
        "Columns that differ: 2, 3.\n"
        "First difference: column 2, in pair 1 (columns 2 and 3).\n"
        "  Expected angle: 3 / 10000 ** (2 * 1 / 4) = 0.0300 rad\n"
        "  Your angle:     0.0949 rad (arctan2 of columns 2 and 3, up to whole turns)\n"
        'See chapter 02: "The formula", "The worked trace".'
    )
    assert round(3 / 1000**0.5, 4) == 0.0949


def test_the_angle_is_taken_on_the_turn_nearest_the_expected_one():
    def late_by_a_tenth(pos, d):  # every angle 0.1 rad too large
        k = np.arange(d)
        angle = pos / 10000 ** (2 * (k // 2) / d) + 0.1 * (pos > 0)
        return np.where(k % 2 == 0, np.sin(angle), np.cos(angle))

    lines = check_pos_encoding(late_by_a_tenth).message.splitlines()
    assert "Tried:    pos_encoding(3, 4)" in lines  # angle 3 > pi: wraps in arctan2
    assert "  Expected angle: 3 / 10000 ** (2 * 0 / 4) = 3.0000 rad" in lines
    assert any(line.startswith("  Your angle:     3.1000 rad") for line in lines)


def test_an_unknown_mistake_in_the_table_names_the_row_and_its_position():
    result = check_sinusoidal_positions(
        lambda positions, d: np.array([base_1000(p, d) for p in positions])
    )
    lines = result.message.splitlines()
    assert lines[1:3] == [
        "Tried:    sinusoidal_positions([0, 1], 4)",
        "Row 1 of the answer:",
    ]
    assert "  Expected angle: 1 / 10000 ** (2 * 1 / 4) = 0.0100 rad" in lines
    assert any(line.startswith("  Your angle:     0.0316 rad") for line in lines)


def test_a_known_mistake_gets_no_angle_report():
    assert "Expected angle" not in check_pos_encoding(MISTAKES["sine-only"]).message


def test_a_wrong_lookup_gets_no_angle_report():
    message = check_lookup(lambda table, token_id: table[token_id].copy() + 1).message
    assert "angle" not in message


def test_sines_and_cosines_in_halves_are_a_convention_not_a_mistake():
    result = check_sinusoidal_positions(concatenated_halves)
    assert (result.passed, result.mistake, result.convention) == (
        False,
        None,
        "concat",
    )
    assert repr(result) == (
        "CheckResult(passed=False, mistake=None, convention='concat')"
    )
    lines = result.message.splitlines()
    assert lines[0] == (
        "sinusoidal_positions: not the exercise's layout yet; your answer follows "
        "the 'concat' convention."
    )
    assert "Row 0 of the answer:" in result.message
    assert "That is a valid convention, used by Marian" in result.message
    assert "The exercise asks for the interleaved one" in result.message
    assert "should alternate" not in result.message


def tensor2tensor_row(pos, d):
    """tensor2tensor's get_timing_signal_1d for one position, written out."""
    m = d // 2
    increment = math.log(10000.0) / max(m - 1, 1)
    scaled = [pos * math.exp(-i * increment) for i in range(m)]
    return [math.sin(a) for a in scaled] + [math.cos(a) for a in scaled]


def cos_first_row(pos, d):
    """guided-diffusion's timestep embedding for one step: [cos | sin]."""
    m = d // 2
    args = [pos * math.exp(-math.log(10000.0) * i / m) for i in range(m)]
    return [math.cos(a) for a in args] + [math.sin(a) for a in args]


CONVENTION_ANSWERS = [
    (check_pos_encoding, lambda p, d: concatenated_halves([p], d)[0], "concat"),
    (check_pos_encoding, tensor2tensor_row, "tensor2tensor"),
    (check_pos_encoding, cos_first_row, "cos-first"),
    (check_sinusoidal_positions, concatenated_halves, "concat"),
    (
        check_sinusoidal_positions,
        lambda ps, d: [tensor2tensor_row(p, d) for p in ps],
        "tensor2tensor",
    ),
    (
        check_sinusoidal_positions,
        lambda ps, d: [cos_first_row(p, d) for p in ps],
        "cos-first",
    ),
]


@pytest.mark.parametrize(
    ("check", "fn", "convention"),
    CONVENTION_ANSWERS,
    ids=[f"{c.__name__}-{name}" for c, _, name in CONVENTION_ANSWERS],
)
def test_another_librarys_convention_fails_but_is_no_mistake(check, fn, convention):
    result = check(fn)
    assert (result.passed, result.mistake, result.convention) == (
        False,
        None,
        convention,
    )
    assert f"follows the '{convention}' convention" in result.message
    assert "That is a valid convention" in result.message
    assert "To change:" in result.message


def test_right_answers_and_mistakes_carry_no_convention():
    assert check_pos_encoding(pos_encoding).convention is None
    assert check_pos_encoding(MISTAKES["sine-only"]).convention is None
    assert check_sinusoidal_positions(rowwise("k-instead-of-pair")).convention is None


def test_a_transposed_answer_is_pointed_out():
    result = check_sinusoidal_positions(lambda p, d: sinusoidal_positions(p, d).T)
    assert not result.passed
    assert "of shape (4, 2)" in result.message
    assert "It looks transposed" in result.message


def test_lookup_of_the_wrong_row_says_which_row_it_was():
    result = check_lookup(lambda table, token_id: table[token_id - 1].copy())
    assert (result.passed, result.mistake) == (False, None)
    assert "That is row 2 of the table; row 0 was asked for." in result.message


def test_lookup_that_wraps_negative_ids_passes_and_nothing_else():
    # the starter refuses negative ids before calling lookup: nothing to act on
    result = check_lookup(lambda table, token_id: table[token_id].copy())
    assert result.passed
    assert result.message == (
        "lookup: passed all 5 cases.\n"
        "For example lookup(table, 0) = [0.5000 -0.5000 1.0000 0.0000]."
    )


def test_a_note_is_shown_outside_the_pass_box():
    message = "f: passed all 2 cases.\n\nNote: f(-1) wraps."
    html = CheckResult(True, None, message)._repr_html_()
    verdict, _, note = html.partition("</div>")
    assert "#2e7d32" in verdict and "f(-1)" not in verdict
    assert note.startswith("<div style='border-left: 4px solid #1565c0")
    assert "<strong>Note</strong>" in note and "f(-1) wraps." in note
    assert "Note:" not in note  # the label is the heading, not repeated


def test_split_notes():
    message = "f: passed all 2 cases.\nFor example f(1) = [1.0000].\n\nNote: wraps."
    assert split_notes(message) == (
        "f: passed all 2 cases.\nFor example f(1) = [1.0000].",
        ["Note: wraps."],
    )
    assert split_notes("f: failed.") == ("f: failed.", [])


def test_lookup_that_rejects_negative_ids_gets_no_note():
    assert "Note:" not in check_lookup(lookup).message
    assert "Note" not in check_lookup(lookup)._repr_html_()


# -- the sections a message points to exist ------------------------------------


def _headings(notebook):
    """Each "## " heading of a notebook, and its part before a colon."""
    nb = nbformat.read(NOTEBOOKS / notebook, as_version=4)
    titles = set()
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            if line.startswith("## "):
                title = line.removeprefix("## ").strip()
                titles |= {title, title.split(":")[0]}
    return titles


@pytest.mark.parametrize("key", sorted(_SECTIONS))
def test_each_section_a_message_points_to_exists(key):
    for notebook, section in _SECTIONS[key]:
        assert (NOTEBOOKS / notebook).exists(), notebook
        assert section in _headings(notebook), (notebook, section)
        assert f"chapter {notebook[:2]}: " in see(key) and f'"{section}"' in see(key)


def test_every_mistake_and_task_has_sections():
    assert set(_SECTIONS) == {
        *MISTAKES,
        "lookup",
        "pos_encoding",
        "sinusoidal_positions",
    }


# -- code that crashes, is missing or returns the wrong kind of thing -------------


@pytest.mark.parametrize(
    "check", [check_pos_encoding, check_lookup, check_sinusoidal_positions]
)
def test_a_stub_is_not_implemented_yet(check):
    result = check(stub)
    assert (result.passed, result.mistake) == (False, None)
    assert result.message.splitlines()[0].endswith(": not implemented yet.")
    assert "raised NotImplementedError: write this function." in result.message


def test_a_crash_is_reported_with_type_and_message():
    def crashes(pos, d):
        return [1 / pos] * d  # ZeroDivisionError at pos == 0

    result = check_pos_encoding(crashes)
    assert (result.passed, result.mistake) == (False, None)
    assert result.message == (
        "pos_encoding: your function raised an error.\n"
        "Tried:    pos_encoding(0, 4)\n"
        "Expected: [0.0000 1.0000 0.0000 1.0000]\n"
        "Got:      ZeroDivisionError: division by zero\n"
        'See chapter 02: "The formula", "The worked trace".'
    )


def test_a_crash_on_a_later_case_names_that_case():
    def no_width_two(pos, d):
        if d == 2:
            raise ValueError("d must be at least 4")
        return pos_encoding(pos, d)

    result = check_pos_encoding(no_width_two)
    assert "Tried:    pos_encoding(2, 2)" in result.message
    assert "Got:      ValueError: d must be at least 4" in result.message


BAD_OUTPUTS = [
    ("too-short", lambda pos, d: [0.0, 1.0], "Got:      [0.0, 1.0], of shape (2,)"),
    (
        "none",
        lambda pos, d: None,
        "Got:      None (is a `return` missing?)",
    ),
    (
        "strings",
        lambda pos, d: ["0"] * d,
        "Got:      ['0', '0', '0', '0'], which is not numbers (dtype <U1)",
    ),
    (
        "ragged",
        lambda pos, d: [[0.0], [1.0, 0.0]],
        "Got:      [[0.0], [1.0, 0.0]], which is not an array of numbers",
    ),
    ("scalar", lambda pos, d: 0.5, "Got:      0.5, of shape ()"),
    (
        "nan",
        lambda pos, d: [math.nan] * d,
        "Got:      [nan, nan, nan, nan], which holds nan or inf",
    ),
]


@pytest.mark.parametrize(
    ("fn", "line"), [b[1:] for b in BAD_OUTPUTS], ids=[b[0] for b in BAD_OUTPUTS]
)
def test_the_wrong_kind_of_answer_is_described(fn, line):
    result = check_pos_encoding(fn)
    assert (result.passed, result.mistake) == (False, None)
    assert result.message.splitlines() == [
        "pos_encoding: your function returned the wrong kind of answer.",
        "Tried:    pos_encoding(0, 4)",
        "Expected: 4 numbers, shape (4,)",
        line,
        'See chapter 02: "The formula", "The worked trace".',
    ]


def test_a_function_that_changes_its_input_does_not_spoil_later_cases():
    def pops(positions, d_model):
        answer = sinusoidal_positions(positions, d_model)
        positions.clear()
        return answer

    assert check_sinusoidal_positions(pops).passed


# -- showing a result ---------------------------------------------------------------


def test_str_repr_and_html():
    result = check_pos_encoding(MISTAKES["swapped-sin-cos"])
    assert isinstance(result, CheckResult)
    assert str(result) == result.message
    assert repr(result) == "CheckResult(passed=False, mistake='swapped-sin-cos')"
    html = result._repr_html_()
    assert html.startswith("<div style='border-left: 4px solid #c62828")
    assert "<strong>pos_encoding: not right yet; this is the mistake " in html
    assert "&#x27;swapped-sin-cos&#x27;" in html  # quotes escaped
    assert re.search(r"<pre[^>]*>Tried:    pos_encoding\(0, 4\)", html)


def test_html_colours_say_passed_todo_or_failed():
    assert "#2e7d32" in check_lookup(lookup)._repr_html_()
    assert "#757575" in check_lookup(stub)._repr_html_()
    assert "#c62828" in check_lookup(MISTAKES["added-to-table"])._repr_html_()


@pytest.mark.parametrize(
    "check", [check_pos_encoding, check_lookup, check_sinusoidal_positions]
)
def test_something_that_is_not_a_function_is_a_type_error(check):
    message = "fn == [0.0, 1.0], must be a function: yours, to check."
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        check([0.0, 1.0])
