"""Tests of posenc_lib.exercise.diff: your output beside the reference's."""

import re

import pytest
from notebook_reading import EXERCISE_SCRIPT as SCRIPT

from posenc_lib.exercise import OutputComparison, compare_outputs, run_commands
from posenc_lib.mistakes import MISTAKES


def test_the_same_output_agrees():
    comparison = compare_outputs(run_commands(SCRIPT), run_commands(SCRIPT))
    assert isinstance(comparison, OutputComparison)
    assert (comparison.same, comparison.first) == (True, None)
    assert comparison.summary() == (
        "Same output, as printed to 4 decimals: all 4 lines agree."
    )
    assert repr(comparison) == "OutputComparison(same=True, first=None)"


def test_a_trailing_newline_and_trailing_spaces_are_ignored():
    assert compare_outputs("1.0000  \n2.0000\n", ["1.0000", "2.0000"]).same


def test_the_first_differing_line_and_number_are_named():
    mine = run_commands(SCRIPT, pos_encoding=MISTAKES["sine-only"])
    comparison = compare_outputs(mine, run_commands(SCRIPT))
    assert comparison.first == 2  # LOOKUP 0 does not use pos_encoding
    assert comparison.summary() == (
        "3 of 4 lines differ; the first is line 2, number 2: yours 0.1411, "
        "reference -0.9900."
    )


ROUNDED = {
    "2-decimals": (
        "0.1400 -0.9900 0.0300 1.0000",
        ", number 1: yours 0.1400, reference 0.1411 (yours look rounded to 2 decimals)",
    ),
    "1-decimal": (
        "0.1000 -1.0000 0.0000 1.0000",
        ", number 1: yours 0.1000, reference 0.1411 (yours look rounded to 1 decimal)",
    ),
    "not-rounded": (
        "0.1412 -0.9900 0.0300 0.9996",
        ", number 1: yours 0.1412, reference 0.1411",
    ),  # fmt: skip
    "fewer-numbers": ("0.1400 -0.9900", ", number 1: yours 0.1400, reference 0.1411"),
}


@pytest.mark.parametrize("case", ROUNDED, ids=str)
def test_a_line_rounded_to_fewer_decimals_is_named_so(case):
    mine, where = ROUNDED[case]
    comparison = compare_outputs(mine, "0.1411 -0.9900 0.0300 0.9996")
    assert comparison.summary() == f"1 of 1 lines differ; the first is line 1{where}."


def test_text_form_marks_the_first_difference_and_later_ones():
    comparison = compare_outputs("a\nb\nc\nd", "a\nB\nc\nD")
    assert str(comparison).splitlines() == [
        "2 of 4 lines differ; the first is line 2.",
        "      yours  reference",
        "    1 a      a",
        ">>  2 b      B",
        "    3 c      c",
        "!=  4 d      D",
    ]


@pytest.mark.parametrize(
    ("mine", "reference", "summary"),
    [
        (
            "1\n2",
            "1",
            "1 of 2 lines differ; the first is line 2 (the reference has "
            "no line there).",
        ),
        (
            "1",
            "1\n2",
            "1 of 2 lines differ; the first is line 2 (yours has no line there).",
        ),
        (
            "1 2",
            "1 2 3",
            "1 of 1 lines differ; the first is line 1 (yours has 2 "
            "numbers, the reference 3).",
        ),
    ],
    ids=["extra-line", "missing-line", "missing-number"],
)
def test_lines_and_numbers_that_are_missing(mine, reference, summary):
    assert compare_outputs(mine, reference).summary() == summary


def test_a_line_that_is_not_numbers_is_named_without_a_number():
    comparison = compare_outputs("error: line 6: LOOKUP failed", "0.5000 1.0000")
    assert comparison.summary() == "1 of 1 lines differ; the first is line 1."


def test_missing_lines_show_as_no_line():
    assert "(no line)" in str(compare_outputs("1", "1\n2"))


def test_html_highlights_only_the_first_differing_line():
    html = compare_outputs("a\n<b>\nc\nd", "a\nB\nc\nD")._repr_html_()
    assert html.startswith("<div style='border-left: 4px solid #c62828")
    rows = re.findall(r"<tr[^>]*>.*?</tr>", html)[1:]  # after the header row
    assert len(rows) == 4
    assert "#ffcdd2" in rows[1] and "font-weight: bold" in rows[1]
    assert "#ffcdd2" not in rows[3] and "#fff3e0" in rows[3]
    assert "background" not in rows[0] + rows[2]
    assert "&lt;b&gt;" in rows[1]  # escaped


def test_html_of_the_same_output_is_green():
    assert "#2e7d32" in compare_outputs("1", "1")._repr_html_()


@pytest.mark.parametrize("bad", [None, 3, ["1", 2]], ids=["none", "int", "mixed"])
def test_something_that_is_not_text_is_a_type_error(bad):
    with pytest.raises(TypeError, match=r"^mine == .*, must be a str \(the printed"):
        compare_outputs(bad, "1")
    with pytest.raises(TypeError, match=r"^reference == "):
        compare_outputs("1", bad)


@pytest.mark.parametrize("lines", ["1\n" * (10**6 + 1), ["1"] * (10**6 + 1)])
def test_outputs_past_a_million_lines_are_refused_before_they_are_split(lines):
    message = "mine has 1000001 lines, more than the 1000000 compare_outputs compares"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}"):
        compare_outputs(lines, "1")
    assert compare_outputs(["1"] * 10**6, "1").first == 2
