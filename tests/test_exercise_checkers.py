"""The checkers: every learner function of ``learner_functions`` gets its message.

Each function there carries, as its docstring, the exact message its checker
gives; its mistake and convention are the ones its first line names. The usual
bugs outside the lesson's list (``_checking.BUGS``) answer as a learner who
makes them, and the banks tell every answer apart.
"""

import inspect
import itertools
import os
import re
import warnings
from pathlib import Path

import learner_functions
import nbformat
import numpy as np
import pytest

from posenc_lib import sinusoidal_positions
from posenc_lib.exercise import (
    CheckResult,
    check_lookup,
    check_pos_encoding,
    check_sinusoidal_positions,
    run_commands,
)
from posenc_lib.exercise._checking import (
    BUGS,
    POS_ENCODING_BUGS,
    SECTIONS,
    SINUSOIDAL_POSITIONS_BUGS,
    see,
)
from posenc_lib.exercise.checkers import _cases, judge
from posenc_lib.mistakes import MISTAKES, POS_ENCODING_MISTAKES

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CHECKERS = {
    "lookup": check_lookup,
    "pos_encoding": check_pos_encoding,
    "sinusoidal_positions": check_sinusoidal_positions,
}
FUNCTIONS = list(learner_functions.functions())


@pytest.mark.parametrize(
    ("task", "fn"), [(t, f) for t, _, f in FUNCTIONS], ids=[n for _, n, _ in FUNCTIONS]
)
def test_each_function_gets_its_message(task, fn):
    result = CHECKERS[task](fn)
    assert result.message == inspect.cleandoc(fn.__doc__)
    headline = result.message.splitlines()[0]
    mistake = re.search(r"this is the mistake '(.+)'\.$", headline)
    convention = re.search(r"follows the '(.+)' convention\.$", headline)
    assert (result.passed, result.mistake, result.convention) == (
        "passed all" in headline,
        mistake and mistake[1],
        convention and convention[1],
    )


def test_what_the_function_prints_is_shown_even_at_the_fd_level(capfd):
    assert check_pos_encoding(learner_functions.pe_os_write).passed
    printed = capfd.readouterr().out
    assert printed == "".join(f"pos={p}\n" for p in (0, 3, 2, 1, 10, 7, 50))


def test_patching_allclose_where_the_check_runs_changes_no_verdict(monkeypatch):
    monkeypatch.setattr(np, "allclose", lambda *args, **kwargs: True)
    assert not check_pos_encoding(learner_functions.pe_patches_allclose).passed
    assert check_pos_encoding(learner_functions.pe_float32).passed


# -- the usual bugs, and the banks tell every answer apart ----------------------

LEARNERS = {  # each usual bug, as a learner's sinusoidal_positions
    "positions-ignored": learner_functions.sp_ignores_positions,
    "positions-sorted": learner_functions.sp_sorts_positions,
    "off-by-one": learner_functions.sp_off_by_one,
    "multiplied": learner_functions.sp_multiplied,
    "degrees": lambda ps, d: np.array([learner_functions.pe_degrees(p, d) for p in ps]),
}


@pytest.mark.parametrize("bug", LEARNERS)
def test_each_bug_answers_what_a_learner_who_makes_it_answers(bug):
    assert set(LEARNERS) == set(BUGS) == set(SINUSOIDAL_POSITIONS_BUGS)
    assert set(POS_ENCODING_BUGS) <= set(BUGS)
    for positions, d in [([3, 0, 7, 7], 8), ([2, 0, 5], 2), (list(range(20)), 16)]:
        np.testing.assert_allclose(
            BUGS[bug].rows(positions, d), LEARNERS[bug](positions, d), atol=1e-9
        )


def test_the_banks_separate_every_bug_mistake_and_the_right_answer():
    for cases, bugs in [
        (_cases("pos_encoding"), POS_ENCODING_BUGS),
        (_cases("sinusoidal_positions"), SINUSOIDAL_POSITIONS_BUGS),
    ]:
        table = [(np.atleast_1d(c.args[0]).tolist(), c.args[1]) for c in cases]
        answers = {"right": [sinusoidal_positions(*t) for t in table]}
        for mistake in POS_ENCODING_MISTAKES:
            rows = lambda ps, d, m=mistake: np.array([MISTAKES[m](p, d) for p in ps])  # noqa: E731
            answers[mistake] = [rows(*t) for t in table]
        for bug in bugs:
            answers[bug] = [BUGS[bug].rows(*t) for t in table]
        for a, b in itertools.combinations(answers, 2):
            assert any(
                not np.allclose(x, y, rtol=1e-6, atol=1e-6)
                for x, y in zip(answers[a], answers[b], strict=True)
            ), (
                f"the checker's cases answer the same for {a!r} and {b!r}: add a "
                "case where they differ to the bank in posenc_lib/exercise/checkers.py."
            )


def test_the_banks_expected_answers_match_plain_math():
    for case in _cases("pos_encoding"):
        np.testing.assert_allclose(
            case.expected, learner_functions.pe_loop_list(*case.args)
        )
    for case in _cases("sinusoidal_positions"):
        right = learner_functions.sp_array_of_lists(*case.args)
        np.testing.assert_allclose(case.expected, right)
        np.testing.assert_allclose(sinusoidal_positions(*case.args), right)


# -- the sections a message points to exist ------------------------------------


def _headings(notebook):
    """Each "## " heading of a notebook, and its part before a colon."""
    titles = set()
    for cell in nbformat.read(NOTEBOOKS / notebook, as_version=4).cells:
        for line in cell.source.splitlines() if cell.cell_type == "markdown" else ():
            if line.startswith("## "):
                title = line.removeprefix("## ").strip()
                titles |= {title, title.split(":")[0]}
    return titles


@pytest.mark.parametrize("key", sorted(SECTIONS))
def test_each_section_a_message_points_to_exists(key):
    for notebook, section in SECTIONS[key]:
        assert section in _headings(notebook), (
            f"notebooks/{notebook} has no section '## {section}', which the checker's "
            f"messages about {key!r} point to: add it, or correct the record."
        )
        assert f"chapter {notebook[:2]}: " in see(key) and f'"{section}"' in see(key)
    assert set(SECTIONS) == {
        *MISTAKES,
        "lookup",
        "pos_encoding",
        "sinusoidal_positions",
    }


# -- showing a result, and what is not a function ---------------------------------


def test_str_repr_and_html():
    result = check_pos_encoding(MISTAKES["swapped-sin-cos"])
    assert isinstance(result, CheckResult) and str(result) == result.message
    assert repr(result) == "CheckResult(passed=False, mistake='swapped-sin-cos')"
    html = result._repr_html_()
    assert html.startswith("<div style='border-left: 4px solid #c62828")
    assert "<strong>pos_encoding: not right yet; this is the mistake " in html
    assert "&#x27;swapped-sin-cos&#x27;" in html  # quotes escaped
    assert re.search(r"<pre[^>]*>Tried:    pos_encoding\(0, 4\)", html)
    convention = CheckResult(False, None, "x", convention="concat")
    assert (
        repr(convention)
        == "CheckResult(passed=False, mistake=None, convention='concat')"
    )


def test_html_colours_say_passed_todo_or_failed():
    assert "#2e7d32" in check_lookup(learner_functions.lu_copy)._repr_html_()
    assert "#757575" in check_lookup(learner_functions.lu_stub)._repr_html_()
    assert "#c62828" in check_lookup(learner_functions.lu_view)._repr_html_()


@pytest.mark.parametrize("task", CHECKERS)
def test_fewer_reports_than_cases_are_a_value_error(task):
    with pytest.raises(ValueError, match="^0 reports for [567] cases$"):
        judge(task, [])


def test_a_report_naming_a_huge_dtype_is_refused_before_it_is_built():
    # a box's report is the learner's to forge: 2 GB of strings must not be built
    value = {"type": "ndarray", "dtype": "S2000000000", "data": [0], "shape": [1]}
    row = {"type": "ndarray", "array": True, "dtype": "float64", "shape": [4]}
    changed = {"value": {**row, "data": [0.5, -0.5, 1.0, 0.0]}}
    changed["changed"] = {"0": value}
    with pytest.raises(ValueError, match="^a ndarray of dtype 'S2000000000' desc"):
        judge("lookup", [changed])


@pytest.mark.parametrize("check", CHECKERS.values(), ids=CHECKERS)
def test_something_that_is_not_a_function_is_a_type_error(check):
    message = "fn == [0.0, 1.0], must be a function: yours, to check."
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        check([0.0, 1.0])


def test_an_answer_near_the_largest_float_is_shown_briefly_and_quietly():
    huge = lambda pos, d: np.full(d, 1e308)  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # none from the course's code
        result = check_pos_encoding(huge)
        printed = run_commands(
            "TABLE 1 2\n0 0\nTOKENS 0\nADD 0\nSIM 0 0", pos_encoding=huge
        )
    assert "Got:      [1.0000e+308 1.0000e+308 1.0000e+308 1.0000e+308]" in str(result)
    assert max(map(len, str(result).splitlines())) < 120
    assert printed == "1.0000e+308 1.0000e+308\ninf"


def test_without_fork_the_verdicts_are_the_same_but_untimed(monkeypatch):
    # Windows has no os.fork: the call runs in this process (docs/ranges.md says what
    # that leaves unguarded); its errors and answers are judged as with a child
    monkeypatch.delattr(os, "fork")
    assert check_pos_encoding(learner_functions.pe_float32).passed
    assert check_pos_encoding(MISTAKES["sine-only"]).mistake == "sine-only"
    exits = check_pos_encoding(learner_functions.pe_sys_exit)
    assert exits.message == inspect.cleandoc(learner_functions.pe_sys_exit.__doc__)
