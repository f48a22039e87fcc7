"""posenc_tools.grading: a class of generated submissions, graded for real.

Every mistake, every convention, each hostile case (issue 23's attacks on the
other learners' grades among them), and the right answer: each one is run in its
own boxed kernel by ``posenc grade``, and the CSV is compared exactly, except the
seconds column. The limits are far from what any case needs, so a slow machine
gives the same CSV; no test sleeps or times itself.
"""

import csv
import hashlib
import json
import os
import queue
import re
import select
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from posenc_tools import ROOT
from posenc_tools.grading.box import sandbox_problem
from posenc_tools.grading.grader import (
    COLUMNS,
    _grade_one,
    find_submissions,
    merge,
    page_name,
    parse_shard,
    write_csv,
)
from posenc_tools.make_submissions import (
    ALL_KINDS,
    CONVENTION_KINDS,
    HOSTILE_KINDS,
    make_notebook,
    write_submissions,
)

from posenc_lib.mistakes import MISTAKES, RIGHT

LIMITS = ["--cell-seconds", "10", "--notebook-seconds", "60", "--memory-mb", "3072"]


def _posenc_grade(*args):
    """The command line ``python -m posenc_lib grade ARGS...``."""
    return [sys.executable, "-m", "posenc_lib", "grade", *map(str, args)]


PASS = {
    "lookup": "lookup: passed all 5 cases.",
    "pos_encoding": "pos_encoding: passed all 7 cases.",
    "sinusoidal_positions": "sinusoidal_positions: passed all 6 cases.",
}


def _missing(task):
    where = "in the notebook (was it renamed or deleted?)."
    return f"There is no function named {task} {where}"


def _first_cell_using(name, nb):
    """Index of the first code cell that passes ``name`` to a call: ``f(name)``."""
    call = re.compile(rf"\(\s*{name}\s*\)")
    return next(
        index
        for index, cell in enumerate(nb.cells)
        if cell.cell_type == "code" and call.search(cell.source)
    )


def _expected_rows():
    """learner -> task -> (passed, mistake, convention, message)."""
    rows = {}

    def put(learner, task, passed, message, mistake="", convention=""):
        rows.setdefault(learner, {})[task] = (str(passed), mistake, convention, message)

    def all_pass(learner, note=""):
        for task, message in PASS.items():
            put(learner, task, True, message + note)

    names = {kind: f"{n:03d}-{kind}" for n, kind in enumerate(ALL_KINDS)}
    all_pass(names["right"])
    for mistake in MISTAKES.values():  # each mistake of the lesson, in its task
        all_pass(names[mistake.id])
        message = f"{mistake.task}: not right yet; this is the mistake '{mistake.id}'."
        put(names[mistake.id], mistake.task, False, message, mistake.id)
    for convention in CONVENTION_KINDS:  # every layout but the lesson's
        all_pass(names[convention])
        message = (
            "pos_encoding: not the exercise's layout yet; your answer follows the "
            f"'{convention}' convention."
        )
        put(names[convention], "pos_encoding", False, message, convention=convention)
    unreadable = (
        "not graded: the file is not a readable notebook (NotJSONError: Notebook "
        "does not appear to be JSON: '{not json')"
    )
    for task in PASS:
        put(names["invalid-json"], task, False, unreadable)
        put(names["other-course"], task, False, _missing(task))
    timeout = " [cell 3 failed: TimeoutError: still running after 10 s, so stopped]"
    all_pass(names["loop-top-level"], timeout)
    # The checker's own 5 s limit per call stops the loop before the cell's 10 s.
    all_pass(names["loop-in-function"])
    message = "pos_encoding: your function did not finish in time."
    put(names["loop-in-function"], "pos_encoding", False, message)
    all_pass(names["sys-exit"], " [cell 3 failed: SystemExit: ]")
    died = "not graded: the kernel died (os._exit, a crash, or memory) while running"
    for task in PASS:
        put(names["os-exit"], task, False, f"{died} cell 3")
        put(names["kernel-dies"], task, False, f"{died} cell 3")
    all_pass(names["prints-100mb"])
    too_much = (
        " [cell 3 failed: MemoryError: Unable to allocate 8.00 GiB for an array with "
        "shape (1073741824,) and data type float64]"
    )
    all_pass(names["allocates-too-much"], too_much)
    all_pass(names["writes-outside"])  # into its box's private /tmp: gone with it
    first_use = _first_cell_using("lookup", make_notebook("renamed"))
    renamed = f" [cell {first_use} failed: NameError: name 'lookup' is not defined]"
    all_pass(names["renamed"], renamed)
    put(names["renamed"], "lookup", False, _missing("lookup") + renamed)
    # a line written to the kernel's fd 1 is not taken for the grader's answer
    all_pass(names["forges-an-answer"])
    # its parent is the box's init, which ignores the kill (a lecturer's box) or
    # is not its user's (a root grader's box); the worker is unseen
    refused = " [cell 3 failed: PermissionError: [Errno 1] Operation not permitted]"
    all_pass(names["kills-grader"], refused if os.geteuid() == 0 else "")
    # issue 23: the attacks on other learners fail; the attacker gets its own due
    all_pass(names["forges-the-pipe"])
    message = "pos_encoding: not right yet; this is the mistake 'sine-only'."
    put(names["forges-the-pipe"], "pos_encoding", False, message, "sine-only")
    # the process it starts to rewrite the grades later is stopped before the checks
    all_pass(
        names["rewrites-grades"],
        " [1 process it left running stopped before the checks]",
    )
    for kind in ("rewrites-classmates", "hijacks-next-kernel"):
        all_pass(names[kind])
    for task in PASS:
        put(names["patches-checkers"], task, False, f"{task}: not implemented yet.")
        own = f"{task}: this is posenc_lib's own {task}, imported, not one written "
        put(names["imports-reference"], task, False, own + "in the notebook.")
    for kind in ("reads-the-frame", "script-in-feedback"):
        all_pass(names[kind])
        message = "pos_encoding: your function raised an error."
        put(names[kind], "pos_encoding", False, message)
    return rows


def test_the_class_has_every_mistake_every_convention_and_the_right_answer():
    from posenc_lib.conventions import CONVENTIONS

    assert {"right", *MISTAKES, *CONVENTIONS} - {"interleaved"} <= set(ALL_KINDS)


def _read(path):
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def _digests(folder):
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()
    }


_DIGESTS = {}  # each submission's, as written, before grading
needs_box = pytest.mark.skipif(
    sandbox_problem() is not None and not os.environ.get("POSENC_REQUIRE_SANDBOX"),
    reason=f"no sandbox here: {sandbox_problem()}",
)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Every kind of submission, graded once by the command line (two jobs)."""
    if sandbox_problem() is not None and not os.environ.get("POSENC_REQUIRE_SANDBOX"):
        pytest.skip(f"no sandbox here: {sandbox_problem()}")
    folder = tmp_path_factory.mktemp("class")
    write_submissions(folder / "submissions")
    _DIGESTS.update(_digests(folder / "submissions"))
    (folder / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(folder / "tmp")}
    command = _posenc_grade(
        folder / "submissions", "--out", folder / "out", "--jobs", 2, *LIMITS
    )
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return folder, done


@pytest.mark.slow
def test_the_csv_says_what_happened_to_every_submission(graded):
    folder, _ = graded
    rows = _read(folder / "out" / "grades.csv")
    assert list(rows[0]) == list(COLUMNS)
    got = {}
    for row in rows:
        values = (row["passed"], row["mistake"], row["convention"], row["message"])
        got.setdefault(row["learner"], {})[row["task"]] = values
        assert float(row["seconds"]) >= 0
    assert got == _expected_rows()


@pytest.mark.slow
def test_the_summary_line_counts_learners_and_passes(graded):
    _, done = graded
    passed = sum(
        values[0] == "True"
        for tasks in _expected_rows().values()
        for values in tasks.values()
    )
    not_graded = sum(
        all(values[3].startswith("not graded") for values in tasks.values())
        for tasks in _expected_rows().values()
    )
    learners = len(ALL_KINDS)
    assert done.stdout.startswith(
        f"{learners} learners: {learners - not_graded} graded, {not_graded} not "
        f"graded; 0 files left out; {passed} of {3 * learners} tasks passed"
    )


@pytest.mark.slow
def test_every_learner_gets_a_feedback_page(graded):
    folder, _ = graded
    pages = sorted(p.stem for p in (folder / "out" / "feedback").glob("*.html"))
    assert pages == sorted(_expected_rows())
    page = (folder / "out" / "feedback" / "001-k-instead-of-pair.html").read_text()
    assert "k-instead-of-pair" in page and "<h2><code>pos_encoding</code></h2>" in page
    looped = f"{ALL_KINDS.index('loop-top-level'):03d}-loop-top-level.html"
    looped = (folder / "out" / "feedback" / looped).read_text()
    assert "Your first failing cell (cell 3)" in looped and "while True:" in looped


@pytest.mark.slow
def test_writing_outside_the_box_reaches_nothing_outside(graded):
    folder, _ = graded
    # the kernel ran in TMPDIR/posenc-grade-XXXX; its TMPDIR is the box's own
    assert not (folder / "tmp" / "posenc-escape.txt").exists()


@pytest.mark.slow
def test_no_submission_was_changed_by_a_classmate(graded):
    folder, _ = graded
    assert _digests(folder / "submissions") == _DIGESTS


@pytest.mark.slow
def test_nothing_a_learner_printed_reaches_a_feedback_page_unescaped(graded):
    folder, _ = graded
    for page in (folder / "out" / "feedback").glob("*.html"):
        assert "<script" not in page.read_text(encoding="utf-8"), page.name
    kind = "script-in-feedback"
    name = f"{ALL_KINDS.index(kind):03d}-{kind}.html"
    page = (folder / "out" / "feedback" / name).read_text(encoding="utf-8")
    assert "ValueError: &lt;script&gt;document.title=&#x27;PWNED&#x27;" in page


def _readme_hostile_cases():
    """``{kind: text}`` from docs/grading.md's table of hostile submissions."""
    readme = (ROOT / "docs" / "grading.md").read_text(encoding="utf-8")
    table = readme.split("<!-- hostile-cases -->\n", 1)[1].split("\n\n", 1)[0]
    cases = {}
    for line in table.splitlines()[2:]:
        kind, said = re.fullmatch(r"\| `([\w-]+)` \| (.*) \|", line).groups()
        cases[kind] = said.removesuffix(" …")
    return cases


@pytest.mark.slow
def test_the_readmes_table_of_hostile_cases_says_what_the_csv_says(graded):
    folder, _ = graded
    rows = _read(folder / "out" / "grades.csv")
    cases = _readme_hostile_cases()
    assert set(cases) == {*HOSTILE_KINDS, "invalid-json", "other-course"}
    for kind, said in cases.items():
        learner = f"{ALL_KINDS.index(kind):03d}-{kind}"
        messages = [row["message"] for row in rows if row["learner"] == learner]
        assert any(said in message for message in messages), (kind, messages)


def _kernels_in(folder):
    """Process ids of the processes whose working directory is under ``folder``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "cwd").resolve().is_relative_to(
                folder
            ):
                found.append(int(entry.name))
        except OSError:  # gone meanwhile, or not ours to look at
            pass
    return found


def _still_running(pids, timeout=30):
    """The processes of ``pids`` still alive after waiting for each to end."""
    alive = []
    for pid in pids:
        try:
            handle = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
        try:  # readable when the process ends; the timeout only catches a hang
            if not select.select([handle], [], [], timeout)[0]:
                alive.append(pid)
        finally:
            os.close(handle)
    return alive


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs Linux pidfds")
def test_no_kernel_outlives_the_grading(graded):
    folder, _ = graded
    # a box dies with its kernel: nothing it started (rewrites-grades) lives on
    assert _still_running(_kernels_in(folder / "tmp")) == []


@pytest.mark.slow
def test_no_kernel_folder_is_left_behind(graded):
    folder, _ = graded
    # nor the run's own folder (the copies of the submissions, the box's stub)
    everything = [str(path) for path in sorted((folder / "tmp").rglob("*"))]
    assert everything == []


@pytest.mark.slow
@needs_box
def test_a_cell_that_swallows_interrupts_is_stopped_by_the_workers_limit(tmp_path):
    """The worker is killed after its own limit, and a new one grades the rest.

    The worker's clock starts when the kernel is ready, so a slow start changes
    nothing; the right answer's cells take milliseconds, far below 3 s each.
    """
    write_submissions(tmp_path / "subs", ("ignores-interrupt", "right"))
    limits = "--cell-seconds 3 --notebook-seconds 6 --worker-margin-seconds 1".split()
    command = _posenc_grade(
        tmp_path / "subs", "--out", tmp_path / "out", "--jobs", 1, *limits
    )
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}
    subprocess.run(command, check=True, capture_output=True, env=env)
    assert list((tmp_path / "tmp").iterdir()) == []
    rows = {
        (row["learner"], row["task"]): row
        for row in _read(tmp_path / "out" / "grades.csv")
    }
    stopped = (
        "not graded: the notebook ran past its time limit and was stopped "
        "while running cell 3"
    )
    for task, message in PASS.items():
        assert rows["000-ignores-interrupt", task]["message"] == stopped
        assert rows["001-right", task]["message"] == message


@pytest.mark.slow
@needs_box
def test_shards_split_the_class_and_merge_joins_them(tmp_path):
    write_submissions(tmp_path / "subs", ("right", "sine-only", "other-course"))
    outs = []
    for shard in ("1/2", "2/2"):
        out = tmp_path / shard.replace("/", "of")
        command = _posenc_grade(
            tmp_path / "subs", "--out", out, "--shard", shard, *LIMITS
        )
        subprocess.run(command, check=True, capture_output=True)
        outs.append(out / "grades.csv")
    learners = [{row["learner"] for row in _read(path)} for path in outs]
    assert learners == [{"000-right", "002-other-course"}, {"001-sine-only"}]
    merged = merge(outs, tmp_path / "all")
    assert [row["learner"] for row in merged][::3] == [
        "000-right",
        "001-sine-only",
        "002-other-course",
    ]
    assert len(list((tmp_path / "all" / "feedback").glob("*.html"))) == 3


class _FakeWorker:
    def __init__(self, answer):
        self.answer = answer

    def grade(self, notebook):
        return self.answer


@pytest.mark.parametrize(
    "answer",
    [
        {"status": "graded"},
        {"status": "graded", "verdicts": {"lookup": 3}},
        {"status": "graded", "verdicts": dict.fromkeys(PASS, "x")},
        {"status": "graded", "verdicts": dict.fromkeys(PASS, {"passed": 1})}
        | {"failed": "cell"},
        {"status": "bogus"},
        {"status": "kernel-died", "failed": 7},
        {
            "status": "graded",
            "verdicts": dict.fromkeys(PASS, {"passed": "yes", "message": "ok"}),
        },
        {
            "status": "graded",
            "verdicts": dict.fromkeys(PASS, {"passed": True, "message": 3}),
        },
    ],
)
def test_a_malformed_answer_is_a_row_not_a_crash(tmp_path, answer):
    """Learners' code runs as the grader's user and could write into its pipes."""
    idle = queue.SimpleQueue()
    idle.put(_FakeWorker(answer))
    (tmp_path / "feedback").mkdir()
    rows = _grade_one("eve", tmp_path / "eve.ipynb", tmp_path, idle)
    message = "not graded: the grading process failed (a malformed answer)"
    assert [row["message"] for row in rows] == [message] * 3
    assert message in (tmp_path / "feedback" / "eve.html").read_text()


def test_find_submissions_names_learners_by_file_or_folder(tmp_path):
    (tmp_path / "alice.ipynb").write_text("{}")
    (tmp_path / "bob").mkdir()
    (tmp_path / "bob" / "03_exercise.ipynb").write_text("{}")
    (tmp_path / "bob" / "scratch.ipynb").write_text("{}")
    (tmp_path / "notes.txt").write_text("not a submission")
    found, _ = find_submissions([tmp_path])
    assert found == {
        "alice": tmp_path / "alice.ipynb",
        "bob": tmp_path / "bob" / "03_exercise.ipynb",
    }


def test_the_same_name_twice_gives_two_learners_named_by_where(tmp_path):
    for group in ("x", "y"):
        (tmp_path / group / "alice").mkdir(parents=True)
        (tmp_path / group / "alice" / "03_exercise.ipynb").write_text("{}")
    found, _ = find_submissions([tmp_path / "x", tmp_path / "y", tmp_path / "x"])
    assert list(found) == [
        f"alice ({tmp_path / 'x' / 'alice'})",
        f"alice ({tmp_path / 'y' / 'alice'})",
    ]


def test_any_file_name_becomes_a_readable_learner(tmp_path):
    name = os.fsdecode(b"\xff\xfe.ipynb")
    (tmp_path / name).write_text("{}")
    (tmp_path / "tab\there.ipynb").write_text("{}")
    assert sorted(find_submissions([tmp_path])[0]) == ["\\xff\\xfe", "tab\\there"]


def test_a_missing_submission_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="submission '.*nope' does not exist"):
        find_submissions([tmp_path / "nope"])


@pytest.mark.parametrize("text", ["0/4", "5/4", "a/b", "3"])
def test_a_bad_shard_is_a_clear_error(text):
    message = f"shard == {text!r}, must be I/N with 1 <= I <= N, e.g. 1/4."
    with pytest.raises(ValueError, match=__import__("re").escape(message)):
        parse_shard(text)


def test_a_learner_whose_grading_failed_still_gets_rows(tmp_path, monkeypatch):
    from posenc_tools.grading import grader

    class Worker:
        def __init__(self, limits, stub):
            pass

        def grade(self, notebook):
            if "bad" in notebook.name:
                raise RuntimeError("the grader's own bug")
            return {
                "status": "graded",
                "failed": None,
                "verdicts": {
                    task: {"passed": True, "message": PASS[task]} for task in PASS
                },
            }

        def stop(self, now=False):
            pass

    monkeypatch.setattr(grader, "Worker", Worker)
    monkeypatch.setattr(grader, "_box_stub", lambda run, unsandboxed: None)
    for name in ("bad", "good"):
        (tmp_path / f"{name}.ipynb").write_text("{}")
    grader.grade([tmp_path / "bad.ipynb", tmp_path / "good.ipynb"], tmp_path / "out")
    rows = _read(tmp_path / "out" / "grades.csv")
    failed = "not graded: the grader failed (RuntimeError: the grader's own bug)"
    assert [r["message"] for r in rows] == [failed] * 3 + list(PASS.values())


def test_a_cell_a_spreadsheet_would_evaluate_is_written_as_text(tmp_path):
    rows = [
        dict.fromkeys(COLUMNS, "")
        | {"learner": "=1+1", "task": "lookup", "message": "@SUM(A1)"}
    ]
    write_csv(rows, tmp_path / "g.csv")
    assert _read(tmp_path / "g.csv")[0]["learner"] == "'=1+1"
    assert _read(tmp_path / "g.csv")[0]["message"] == "'@SUM(A1)"
    assert [p.name for p in tmp_path.iterdir()] == ["g.csv"]  # nothing left beside


def test_feedback_pages_of_different_learners_never_collide():
    names = ["a b", "a_b", "A_b", "a/b", ".a_b", "a\\b", "x" * 300]
    assert len({page_name(name) for name in names}) == len(names)
    assert all(re.fullmatch(r"[a-z0-9_.~-]+", page_name(n), re.I) for n in names)


def test_the_csv_is_sorted_by_learner_then_task(tmp_path):
    rows = [
        dict.fromkeys(COLUMNS, "") | {"learner": name, "task": task}
        for name in ("b", "a")
        for task in ("sinusoidal_positions", "lookup")
    ]
    write_csv(rows, tmp_path / "g.csv")
    got = [(row["learner"], row["task"]) for row in _read(tmp_path / "g.csv")]
    assert got == [
        ("a", "lookup"),
        ("a", "sinusoidal_positions"),
        ("b", "lookup"),
        ("b", "sinusoidal_positions"),
    ]


def _readme_nbgrader_cell():
    readme = (ROOT / "docs" / "grading.md").read_text(encoding="utf-8")
    after = readme.split("<!-- nbgrader-test-cell -->\n```python\n", 1)[1]
    return after.split("```", 1)[0]


def test_the_readmes_nbgrader_cell_passes_a_right_answer():
    namespace = {"np": np}
    exec(RIGHT["pos_encoding"], namespace)  # a learner's, not the library's own
    exec(_readme_nbgrader_cell(), namespace)


def test_the_readmes_nbgrader_cell_names_the_mistake_of_a_wrong_answer():
    namespace = {"pos_encoding": MISTAKES["sine-only"]}
    with pytest.raises(AssertionError, match="this is the mistake 'sine-only'"):
        exec(_readme_nbgrader_cell(), namespace)


@pytest.mark.parametrize(
    ("option", "value", "expected"),
    [
        ("--notebook-seconds", "-1", "-1.0, must be a number of seconds in (0, 86400]"),
        ("--notebook-seconds", "0", "0.0, must be a number of seconds in (0, 86400]"),
        ("--notebook-seconds", "nan", "nan, must be a number of seconds in (0, 86400]"),
        ("--cell-seconds", "inf", "inf, must be a number of seconds in (0, 86400]"),
        ("--memory-mb", "0", "0, must be an integer >= 1024 (megabytes)"),
        ("--memory-mb", "50", "50, must be an integer >= 1024 (megabytes)"),
        ("--worker-margin-seconds", "-5", "-5.0, must be a number of seconds in"),
        ("--jobs", "0", "0, must be an integer >= 1"),
    ],
)
def test_a_bad_limit_is_refused_before_any_grading(
    tmp_path, capsys, option, value, expected
):
    from posenc_lib.__main__ import main

    (tmp_path / "alice.ipynb").write_text("{}")
    out = tmp_path / "out"
    assert (
        main(["grade", str(tmp_path / "alice.ipynb"), "--out", str(out), option, value])
        == 2
    )
    assert capsys.readouterr().err.startswith(f"posenc grade: {option} == {expected}")
    assert not out.exists()  # nobody was graded, nobody was blamed


@pytest.mark.slow
def test_without_a_sandbox_grading_refuses_unless_unsandboxed(
    tmp_path, capsys, monkeypatch
):
    from posenc_tools.grading import box

    from posenc_lib.__main__ import main

    monkeypatch.setattr(box, "sandbox_problem", lambda: "bubblewrap is not installed")
    write_submissions(tmp_path / "subs", ("other-course",))
    out = tmp_path / "out"
    assert main(["grade", str(tmp_path / "subs"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (
        "posenc grade: no sandbox for learners' code: bubblewrap is not installed. "
        "Install bubblewrap, or pass --unsandboxed to run their code as you, "
        "unisolated.\n"
    )
    assert not (out / "grades.csv").exists()
    assert (
        main(
            [
                "grade",
                str(tmp_path / "subs"),
                "--out",
                str(out),
                "--unsandboxed",
                *LIMITS,
            ]
        )
        == 0
    )
    assert capsys.readouterr().err.startswith("posenc grade: --unsandboxed: ")
    assert [row["message"] for row in _read(out / "grades.csv")] == [
        _missing(task) for task in PASS
    ]


@pytest.mark.slow
@needs_box
def test_every_file_gets_rows_under_a_name_of_its_own(tmp_path):
    """Names that are not UTF-8, that differ only by a space, that a spreadsheet
    would evaluate, or that two folders share: every one graded, none lost."""
    write_submissions(tmp_path / "made", ("right", "sine-only", "other-course"))
    right, sine_only, other = sorted((tmp_path / "made").iterdir())
    subs = tmp_path / "subs"
    sources = [
        (b"flat/\xff\xfe.ipynb", right),
        (b"flat/a b.ipynb", sine_only),
        (b"flat/a_b.ipynb", right),
        (b"flat/=1+1.ipynb", other),
        (b"x/alice/03_exercise.ipynb", right),
        (b"y/alice/03_exercise.ipynb", sine_only),
    ]
    for name, source in sources:
        path = subs / os.fsdecode(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, path)
    command = _posenc_grade(
        "flat", "x", "y", "--out", tmp_path / "out", "--jobs", 2, *LIMITS
    )
    done = subprocess.run(command, capture_output=True, text=True, cwd=subs)
    assert done.returncode == 0, done.stderr
    rows = _read(tmp_path / "out" / "grades.csv")
    passed = {}
    for row in rows:
        passed.setdefault(row["learner"], []).append(row["passed"] == "True")
    sine = [True, False, True]
    assert passed == {
        "'=1+1": [False] * 3,
        "\\xff\\xfe": [True] * 3,
        "a b": sine,
        "a_b": [True] * 3,
        "alice (x/alice)": [True] * 3,
        "alice (y/alice)": sine,
    }
    pages = list((tmp_path / "out" / "feedback").glob("*.html"))
    assert len(pages) == 6


_IN_THE_BOX = r"""
import json, os, socket, sys
seen = {"pids": sorted(p for p in os.listdir("/proc") if p.isdigit())}
seen["env"] = sorted(os.environ)
seen["hidden"] = [os.path.exists(p) for p in sys.argv[1:]]
try:
    socket.create_connection(("127.0.0.1", 22), timeout=2)
    seen["network"] = True
except OSError:
    seen["network"] = False
written = []
for path in ("/usr/posenc-x", os.path.expanduser("~root/posenc-x"), "own-file"):
    try:
        open(path, "w").close()
        written.append(path)
    except OSError:
        pass
seen["written"] = written
import posenc_lib
seen["library"] = [hasattr(posenc_lib, "positional"), posenc_lib.__doc__[:10]]
print(json.dumps(seen))
"""


@pytest.mark.slow
@needs_box
def test_the_box_shows_only_its_own_processes_folder_and_the_stand_ins(tmp_path):
    from posenc_tools.grading.box import box_command, make_stub

    box, run = tmp_path / "box", tmp_path / "run"
    box.mkdir(), run.mkdir()
    secret = tmp_path / "submissions"
    secret.mkdir()
    command = [
        *box_command(box, make_stub(run)),
        sys.executable,
        "-c",
        _IN_THE_BOX,
        str(secret),
        str(run),
        str(ROOT / "README.md"),
        str(ROOT / "tools" / "posenc_tools" / "grading"),
    ]
    done = subprocess.run(command, capture_output=True, text=True, cwd=box)
    seen = json.loads(done.stdout)
    assert seen["pids"] == ["1", "2"]  # bwrap's init and this process
    assert seen["env"] == [
        "HOME",
        "LANG",
        "MALLOC_ARENA_MAX",
        "MPLBACKEND",
        "OMP_NUM_THREADS",
        "OPENBLAS_NUM_THREADS",
        "PATH",
        "PWD",
        "PYTHONDONTWRITEBYTECODE",
    ]
    assert seen["hidden"] == [False] * 4
    assert seen["network"] is False
    assert seen["written"] == ["own-file"]
    assert seen["library"] == [False, "Stand-ins "]  # the stand-ins' docstring


def test_the_stand_ins_are_made_from_every_public_name(tmp_path):
    """The box's posenc_lib is derived from the real one: nothing to drift."""
    from posenc_tools.grading.box import make_stub

    import posenc_lib
    import posenc_lib.exercise

    stub = make_stub(tmp_path)
    for module in (posenc_lib, posenc_lib.exercise):
        folder = Path(module.__file__).relative_to(Path(posenc_lib.__file__).parent)
        text = (stub / folder).read_text("utf-8")
        for name in module.__all__:
            assert f"{name} = " in text, (module.__name__, name)


@pytest.mark.slow
@needs_box
def test_chapter_05s_setup_cell_runs_in_the_box(tmp_path):
    """What the learner's notebook imports at its top is there, inert."""
    from posenc_tools.grading.box import box_command, make_stub

    nb = json.loads((ROOT / "notebooks" / "03_exercise.ipynb").read_text("utf-8"))
    setup = next(
        "".join(c["source"])
        for c in nb["cells"]
        if "setup_notebook()" in "".join(c["source"])
    )
    (tmp_path / "box").mkdir()
    command = [
        *box_command(tmp_path / "box", make_stub(tmp_path)),
        sys.executable,
        "-c",
        setup + "\nprint(check_lookup(None))",
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "check_lookup: not run while the exercise is graded.\n"


# --- issue 42: a learner's processes, and a busy --out ----------------------------

_BOMB = """\
import os
def bomb(depth):
    # each process forks twice, 8 levels deep: 510 processes where nothing stops
    # it; each waits for the kernel to end (its pipe's reading end sees EOF)
    for _ in range(2):
        if depth and os.fork() == 0:
            try:
                if depth == 8:
                    os.close(w)
                bomb(depth - 1)
                os.read(r, 1)
            finally:
                os._exit(0)
r, w = os.pipe()
bomb(8)
"""


def _with_cell(source, path):
    """The right answer with one more cell, ``source``, written to ``path``."""
    import nbformat

    nb = make_notebook("right")
    nb.cells.append(nbformat.v4.new_code_cell(source))
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return len(nb.cells) - 1


@pytest.mark.slow
@needs_box
def test_a_fork_bomb_gets_a_few_processes_and_the_class_is_graded(tmp_path):
    """The box's limit stops the bomb after a few processes; its rows say so.

    How many of its forks fail in the kernel itself, rather than in its
    children, depends on the order they run in: the rows say which.
    """
    write_submissions(tmp_path / "subs", ("right", "sine-only"))
    cell = _with_cell(_BOMB, tmp_path / "subs" / "bomb.ipynb")
    command = _posenc_grade(tmp_path / "subs", "--out", tmp_path / "out", *LIMITS)
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    rows = {(r["learner"], r["task"]): r for r in _read(tmp_path / "out/grades.csv")}
    failed = re.escape(
        f" [cell {cell} failed: BlockingIOError: [Errno 11] Resource temporarily "
        "unavailable (the box's limit on processes)]"
    )
    said = f"(?:{failed})?" + r" \[[1-8] process(?:es)? it left running stopped "
    said += r"before the checks\]"
    sine_only = "pos_encoding: not right yet; this is the mistake 'sine-only'."
    for task, message in PASS.items():
        found = re.fullmatch(re.escape(message) + said, rows["bomb", task]["message"])
        assert found, rows["bomb", task]["message"]  # at most 8, of 510
        assert rows["000-right", task]["message"] == message
        assert rows["001-sine-only", task]["message"] == (
            sine_only if task == "pos_encoding" else message
        )


_FORKS = """
import json, os
forks = []
for _ in range(10):
    try:
        if os.fork() == 0:
            os._exit(0)  # left unreaped: still counted
        forks.append("started")
    except BlockingIOError:
        forks.append("refused")
print(json.dumps({"forks": forks, "root": os.getuid() == 0}))
"""


@pytest.mark.slow
@needs_box
def test_a_boxed_kernel_may_start_a_few_processes_and_no_more(tmp_path):
    from posenc_tools.grading.box import box_command, box_uid, make_stub, start_lines

    (tmp_path / "box").mkdir()
    uid = box_uid()
    if uid:  # as the worker prepares a box for a kernel dropping to uid
        os.chown(tmp_path / "box", 0, uid)
    code = start_lines(uid) + _FORKS
    command = [*box_command(tmp_path / "box", make_stub(tmp_path)), sys.executable]
    done = subprocess.run([*command, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "forks": ["started"] * 8 + ["refused"] * 2,  # EXTRA_TASKS, then no more
        "root": False,  # a root grader's box runs as a user id of its own
    }


_BLOCKS = "import os\nos.read(os.pipe()[0], 1)  # waits for ever: its run holds --out"


@pytest.mark.slow
@needs_box
def test_a_second_grader_into_a_busy_out_is_refused_at_once(tmp_path):
    import fcntl
    import signal

    _with_cell(_BLOCKS, tmp_path / "first" / "ann.ipynb")
    write_submissions(tmp_path / "second", ("right",))
    out = tmp_path / "out"
    slow = ("--cell-seconds", 600, "--notebook-seconds", 600)
    command = _posenc_grade(tmp_path / "first", "--out", out, *slow)
    first = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:  # it says this once it holds out, before any kernel starts
        assert (
            first.stderr.readline() == f"posenc grade: grading 1 learner into {out}\n"
        )
        command = _posenc_grade(tmp_path / "second", "--out", out)
        second = subprocess.run(command, capture_output=True, text=True)
    finally:
        first.send_signal(signal.SIGINT)
        first.communicate()
    assert (second.returncode, second.stdout) == (2, "")
    holder = re.escape(f"pid {first.pid}, started ") + r"[-0-9]{10} [:0-9]{8}: "
    holder += re.escape(" ".join(map(str, command[:4])) + f" {tmp_path}/first")
    assert re.fullmatch(
        re.escape(
            f"posenc grade: --out {out} is being written by another posenc grade ("
        )
        + holder
        + r" .*\): wait for it to end, or give another --out\.\n",
        second.stderr,
    ), second.stderr
    assert first.returncode == 130  # interrupted: it says so
    assert os.listdir(out) == []  # neither wrote anything
    free = os.open(out, os.O_RDONLY)  # the lock went with the first run
    try:
        fcntl.flock(free, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(free)
