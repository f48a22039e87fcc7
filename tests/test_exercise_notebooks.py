"""The exercise notebooks: one source; stubs in the learner's, answers in the other."""

import copy
import re

import nbformat
import pytest
from notebook_reading import outputs
from posenc_tools import make_exercise

from posenc_lib.exercise import (
    check_lookup,
    check_pos_encoding,
    check_sinusoidal_positions,
)

CHECKERS = {
    "lookup": check_lookup,
    "pos_encoding": check_pos_encoding,
    "sinusoidal_positions": check_sinusoidal_positions,
}


@pytest.fixture(scope="module")
def solution():
    return nbformat.read(make_exercise.SOLUTION, as_version=4)


@pytest.fixture(scope="module")
def learner():
    return nbformat.read(make_exercise.LEARNER, as_version=4)


def tagged(nb, tag):
    return [cell for cell in nb.cells if tag in cell.metadata.get("tags", [])]


def defined(source):
    """Run a cell's source and return the functions it defines, by name."""
    namespace = {}
    exec(f"import numpy as np\n{source}", namespace)
    return {name: value for name, value in namespace.items() if name in CHECKERS}


def test_learner_notebook_is_generated_from_the_solution(learner):
    expected = make_exercise.expected_notebook(
        make_exercise.SOLUTION, make_exercise.LEARNER
    )
    assert make_exercise.sources(learner) == make_exercise.sources(expected), (
        "notebooks/03_exercise.ipynb has drifted from its source: run "
        "make solutions, then make notebooks."
    )


def test_time_labels_are_not_drift():
    """chapter_times writes each section's time into the learner's copy only."""
    from posenc_tools import chapter_times

    expected = make_exercise.expected_notebook(
        make_exercise.SOLUTION, make_exercise.LEARNER
    )
    labelled = chapter_times._labelled(copy.deepcopy(expected), "03")
    assert "*Core path · " in "\n".join(cell.source for cell in labelled.cells)
    assert make_exercise.sources(labelled) == make_exercise.sources(expected)


def test_check_mode_agrees():
    assert make_exercise.main(["--check"]) == 0


def test_each_solution_cell_defines_a_function_that_passes_its_check(solution):
    functions = {}
    for cell in tagged(solution, "solution"):
        functions.update(defined(cell.source))
    assert set(functions) == set(CHECKERS)
    for name, fn in functions.items():
        assert CHECKERS[name](fn).passed, name


def test_each_learner_stub_reports_not_implemented(learner):
    functions = {}
    for cell in tagged(learner, "solution"):
        functions.update(defined(cell.source))
    assert set(functions) == set(CHECKERS)
    for name, fn in functions.items():
        result = CHECKERS[name](fn)
        assert not result.passed
        assert result.message.startswith(f"{name}: not implemented yet."), name


def test_learner_notebook_holds_no_solution_code(solution, learner):
    learner_text = "\n".join(cell.source for cell in learner.cells)
    for cell in tagged(solution, "solution"):
        for line in cell.source.splitlines():
            body = line.strip()
            if body.startswith(("def ", '"""', "#")) or not body:
                continue
            assert body not in learner_text
    assert not tagged(learner, "solution-only")
    # relinked: its links to notebooks lead from notebooks/, not from solutions/
    # (a link out to the library's source, ../posenc_lib/..., is meant)
    assert not re.search(r"\]\(\.\./[^)]*\.ipynb", learner_text)


def stored_checks(nb):
    """``text/plain`` of every stored CheckResult, in order."""
    texts = outputs(nb, "text/plain")
    return [text for text in texts if text.startswith("CheckResult(")]


def test_stored_outputs_show_the_learner_failing_and_the_solution_passing(
    solution, learner
):
    assert stored_checks(solution) == ["CheckResult(passed=True, mistake=None)"] * 3
    assert stored_checks(learner) == ["CheckResult(passed=False, mistake=None)"] * 3


def test_stub_source_keeps_signature_and_docstring():
    source = 'def f(\n    a,\n    b,\n):\n    """Add."""\n    c = a + b\n    return c'
    assert make_exercise.stub_source(source) == (
        'def f(\n    a,\n    b,\n):\n    """Add."""\n'
        "    # Your code here: replace the next line.\n"
        '    raise NotImplementedError("f is not written yet")'
    )


def test_stub_source_without_docstring():
    assert make_exercise.stub_source("def g(x):\n    return x").splitlines() == [
        "def g(x):",
        "    # Your code here: replace the next line.",
        '    raise NotImplementedError("g is not written yet")',
    ]


def test_stub_source_rejects_code_outside_functions():
    msg = "line 1 of a 'solution' cell is not inside a function"
    with pytest.raises(ValueError, match=re.escape(msg)):
        make_exercise.stub_source("x = 1\ndef f():\n    return x")


def test_stub_source_keeps_comments_above_the_first_function():
    source = "# no output: defines h\ndef h():\n    return 1"
    assert make_exercise.stub_source(source).splitlines()[:2] == [
        "# no output: defines h",
        "def h():",
    ]
