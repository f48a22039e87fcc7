"""The class grader and the notebook's check agree: same verdict, same message.

Every function of the checkers' own tests (``tests/learner_functions.py``) is
checked both ways: in this process, as a learner's notebook does
(``check_pos_encoding(fn)``), and in a kernel, through the grader's ask cell,
whose printed reports the grader judges (:func:`posenc_tools.grading.verdicts.
decide`). One kernel serves them all.
"""

import json
from pathlib import Path

import pytest
from jupyter_client import KernelManager
from posenc_tools.grading.verdicts import KernelProblem, ask_cell, decide
from posenc_tools.kernel import CurrentEnvKernelSpecs

from posenc_lib import lookup
from posenc_lib.exercise import (
    check_lookup,
    check_pos_encoding,
    check_sinusoidal_positions,
)
from posenc_lib.exercise.checkers import case_args
from posenc_lib.exercise.reports import run_calls

ROOT = Path(__file__).resolve().parents[2]
SOURCE = (ROOT / "tests" / "learner_functions.py").read_text("utf-8")
CHECKERS = {
    "lookup": check_lookup,
    "pos_encoding": check_pos_encoding,
    "sinusoidal_positions": check_sinusoidal_positions,
}
MARKER = "<<posenc-grade test>>"
HANG = 60  # seconds: only a hang takes this long


def _learner_functions():
    namespace = {"__name__": "learner_functions"}
    exec(compile(SOURCE, "learner_functions.py", "exec"), namespace)
    return list(namespace["functions"]())


FUNCTIONS = _learner_functions()


@pytest.fixture(scope="module")
def kernel():
    manager = KernelManager(kernel_spec_manager=CurrentEnvKernelSpecs())
    manager.start_kernel()
    client = manager.blocking_client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=HANG)
        # in a namespace of their own: ``pos_encoding = ...`` below changes not theirs
        source = f"compile({SOURCE!r}, 'learner_functions.py', 'exec')"
        _run(client, f"learner = {{'__name__': '__main__'}}\nexec({source}, learner)")
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def _run(client, code):
    """What ``code`` printed in the kernel; it must not fail."""
    printed = []

    def collect(message):
        if message["msg_type"] == "stream":
            printed.append(message["content"]["text"])

    reply = client.execute_interactive(code, timeout=HANG, output_hook=collect)
    assert reply["content"]["status"] == "ok", reply["content"]
    return "".join(printed)


def _graded(client, task, name):
    """The grader's verdict on the kernel's function ``name`` as ``task``."""
    printed = _run(client, f"{task} = learner[{name!r}]\n" + ask_cell(task, MARKER))
    line = next(line for line in printed.splitlines() if line.startswith(MARKER))
    return decide(task, json.loads(line.removeprefix(MARKER)))


@pytest.mark.parametrize(
    ("task", "name", "fn"), FUNCTIONS, ids=[name for _, name, _ in FUNCTIONS]
)
def test_the_class_and_the_notebook_give_the_same_verdict(kernel, task, name, fn):
    result = CHECKERS[task](fn)
    assert _graded(kernel, task, name) == {
        "passed": result.passed,
        "mistake": result.mistake,
        "convention": result.convention,
        "message": result.message,
    }


def _reports(fn, task="lookup", module="__main__"):
    calls = run_calls(fn, case_args(task))
    return {"module": module, "name": fn.__name__, "calls": calls}


def test_a_missing_function_and_the_librarys_own_are_named():
    assert decide("lookup", {"missing": True})["message"] == (
        "There is no function named lookup in the notebook (was it renamed or "
        "deleted?)."
    )
    own = "lookup: this is posenc_lib's own lookup, imported, not one written in the "
    assert decide("lookup", _reports(lookup, module="posenc_lib.embedding")) == {
        "passed": False,
        "mistake": None,
        "convention": None,
        "message": own + "notebook.",
    }


def test_the_boxs_stand_in_for_the_librarys_function_is_named():
    class ReferenceNotAvailable(Exception):  # noqa: N818 - as the box's stand-in
        pass

    def stand_in(*args):
        raise ReferenceNotAvailable("not while graded")

    verdict = decide("lookup", _reports(stand_in))
    assert verdict["message"].startswith("lookup: this is posenc_lib's own lookup")


UNREADABLE = {
    "not-a-dict": [],
    "calls-not-a-list": {"calls": "x"},
    "no-calls": {"calls": []},
    "an-empty-report": {"calls": [{}]},
    "a-value-that-is-not-described": {"calls": [{"value": 3}]},
    "an-error-that-is-not-described": {"calls": [{"error": "x"}]},
}


@pytest.mark.parametrize("case", UNREADABLE, ids=str)
def test_a_report_that_cannot_be_read_is_a_kernel_problem(case):
    with pytest.raises(KernelProblem, match="^the kernel's answer was not readable$"):
        decide("pos_encoding", UNREADABLE[case])
