"""posenc_lib.grading.grader: a class of generated submissions, graded for real.

Every mistake, every convention, each hostile case of the issue, and the right
answer: each one is run in its own kernel by ``posenc grade``, and the CSV is
compared exactly, except the seconds column.
"""

import csv
import os
import queue
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from posenc_lib import lookup, pos_encoding
from posenc_lib.grading.grader import (
    COLUMNS,
    _grade_one,
    find_submissions,
    merge,
    parse_shard,
    report_task,
    write_csv,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from make_submissions import (  # noqa: E402
    ALL_KINDS,
    CONVENTION_KINDS,
    HOSTILE_KINDS,
    make_notebook,
    write_submissions,
)

LIMITS = ["--cell-seconds", "10", "--notebook-seconds", "60", "--memory-mb", "3072"]

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
    for mistake in ("k-instead-of-pair", "swapped-sin-cos", "sine-only",
                    "integer-division", "integer-power"):  # fmt: skip
        all_pass(names[mistake])
        message = f"pos_encoding: not right yet; this is the mistake '{mistake}'."
        put(names[mistake], "pos_encoding", False, message, mistake)
    for convention in CONVENTION_KINDS:  # every layout but the lesson's
        all_pass(names[convention])
        message = (
            "pos_encoding: not the exercise's layout yet; your answer follows the "
            f"'{convention}' convention."
        )
        put(names[convention], "pos_encoding", False, message, convention=convention)
    all_pass(names["added-to-table"])
    message = "lookup: not right yet; this is the mistake 'added-to-table'."
    put(names["added-to-table"], "lookup", False, message, "added-to-table")
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
    all_pass(names["writes-outside"])
    first_use = _first_cell_using("lookup", make_notebook("renamed"))
    renamed = f" [cell {first_use} failed: NameError: name 'lookup' is not defined]"
    all_pass(names["renamed"], renamed)
    put(names["renamed"], "lookup", False, _missing("lookup") + renamed)
    # a line written to the kernel's fd 1 is not taken for the grader's answer
    all_pass(names["forges-an-answer"])
    # the learner's code killed the worker (its kernel's parent): SIGKILL, -9
    for task in PASS:
        message = "not graded: the grading process failed (exit status -9)"
        message += " while running cell 3"
        put(names["kills-grader"], task, False, message)
    return rows


def test_the_class_has_every_mistake_every_convention_and_the_right_answer():
    from posenc_lib.conventions import CONVENTIONS
    from posenc_lib.mistakes import MISTAKES

    assert {"right", *MISTAKES, *CONVENTIONS} - {"interleaved"} <= set(ALL_KINDS)


def _read(path):
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Every kind of submission, graded once by the command line (two jobs)."""
    folder = tmp_path_factory.mktemp("class")
    write_submissions(folder / "submissions")
    (folder / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(folder / "tmp")}
    command = [sys.executable, "-m", "posenc_lib", "grade",
               str(folder / "submissions"), "--out", str(folder / "out"),
               "--jobs", "2", *LIMITS]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return folder, done


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


def test_the_summary_line_counts_learners_and_passes(graded):
    _, done = graded
    passed = sum(
        values[0] == "True" for tasks in _expected_rows().values()
        for values in tasks.values()
    )  # fmt: skip
    learners = len(ALL_KINDS)
    assert done.stdout.startswith(f"{learners} learners, {passed} of {3 * learners}")


def test_every_learner_gets_a_feedback_page(graded):
    folder, _ = graded
    pages = sorted(p.stem for p in (folder / "out" / "feedback").glob("*.html"))
    assert pages == sorted(_expected_rows())
    page = (folder / "out" / "feedback" / "001-k-instead-of-pair.html").read_text()
    assert "k-instead-of-pair" in page and "<h2><code>pos_encoding</code></h2>" in page
    looped = f"{ALL_KINDS.index('loop-top-level'):03d}-loop-top-level.html"
    looped = (folder / "out" / "feedback" / looped).read_text()
    assert "Your first failing cell (cell 3)" in looped and "while True:" in looped


def test_writing_outside_the_working_directory_is_not_prevented(graded):
    folder, _ = graded
    # the kernel ran in TMPDIR/posenc-grade-XXXX and wrote to its parent, TMPDIR
    assert (folder / "tmp" / "posenc-escape.txt").read_text() == "x"  # no sandbox


def _readme_hostile_cases():
    """``{kind: text}`` from the README's table of hostile submissions."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("<!-- hostile-cases -->\n", 1)[1].split("\n\n", 1)[0]
    cases = {}
    for line in table.splitlines()[2:]:
        kind, said = re.fullmatch(r"\| `([\w-]+)` \| (.*) \|", line).groups()
        cases[kind] = said.removesuffix(" …")
    return cases


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


@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="needs Linux /proc")
def test_no_kernel_outlives_the_grading(graded):
    folder, _ = graded
    # a kernel orphaned by a killed worker notices within a second and exits
    deadline = time.monotonic() + 10
    while _kernels_in(folder / "tmp") and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _kernels_in(folder / "tmp") == []


def test_no_kernel_folder_is_left_behind(graded):
    folder, _ = graded
    # a killed worker's (kills-grader) included: the grader deletes them
    left = sorted(path.name for path in (folder / "tmp").iterdir())
    everything = [str(path) for path in sorted((folder / "tmp").rglob("*"))]
    assert left == ["posenc-escape.txt"], everything


def test_a_cell_that_swallows_interrupts_is_stopped_by_the_workers_limit(tmp_path):
    """The worker is killed after its own limit, and a new one grades the rest."""
    write_submissions(tmp_path / "subs", ("ignores-interrupt", "right"))
    limits = ["--cell-seconds", "2", "--notebook-seconds", "5"]
    command = [sys.executable, "-m", "posenc_lib", "grade", str(tmp_path / "subs"),
               "--out", str(tmp_path / "out"), "--jobs", "1", *limits]  # fmt: skip
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


def test_shards_split_the_class_and_merge_joins_them(tmp_path):
    write_submissions(tmp_path / "subs", ("right", "sine-only", "other-course"))
    outs = []
    for shard in ("1/2", "2/2"):
        out = tmp_path / shard.replace("/", "of")
        command = [sys.executable, "-m", "posenc_lib", "grade", str(tmp_path / "subs"),
                   "--out", str(out), "--shard", shard, *LIMITS]  # fmt: skip
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


def test_report_task_runs_the_checker_on_the_learners_function():
    assert report_task("pos_encoding", {"pos_encoding": pos_encoding})["passed"]
    verdict = report_task("lookup", {"lookup": lambda table, token_id: None})
    assert not verdict["passed"] and "None" in verdict["message"]
    assert report_task("lookup", {"lookup": lookup})["html"].startswith("<")


def test_find_submissions_names_learners_by_file_or_folder(tmp_path):
    (tmp_path / "alice.ipynb").write_text("{}")
    (tmp_path / "bob").mkdir()
    (tmp_path / "bob" / "05_exercise.ipynb").write_text("{}")
    (tmp_path / "bob" / "scratch.ipynb").write_text("{}")
    (tmp_path / "notes.txt").write_text("not a submission")
    found = find_submissions([tmp_path])
    assert found == {
        "alice": tmp_path / "alice.ipynb",
        "bob": tmp_path / "bob" / "05_exercise.ipynb",
    }


def test_a_missing_submission_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="submission '.*nope' does not exist"):
        find_submissions([tmp_path / "nope"])


@pytest.mark.parametrize("text", ["0/4", "5/4", "a/b", "3"])
def test_a_bad_shard_is_a_clear_error(text):
    message = f"shard == {text!r}, must be I/N with 1 <= I <= N, e.g. 1/4."
    with pytest.raises(ValueError, match=__import__("re").escape(message)):
        parse_shard(text)


def test_the_csv_is_sorted_by_learner_then_task(tmp_path):
    rows = [
        dict.fromkeys(COLUMNS, "") | {"learner": name, "task": task}
        for name in ("b", "a")
        for task in ("sinusoidal_positions", "lookup")
    ]
    write_csv(rows, tmp_path / "g.csv")
    got = [(row["learner"], row["task"]) for row in _read(tmp_path / "g.csv")]
    assert got == [("a", "lookup"), ("a", "sinusoidal_positions"),
                   ("b", "lookup"), ("b", "sinusoidal_positions")]  # fmt: skip


def _readme_nbgrader_cell():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    after = readme.split("<!-- nbgrader-test-cell -->\n```python\n", 1)[1]
    return after.split("```", 1)[0]


def test_the_readmes_nbgrader_cell_passes_a_right_answer():
    exec(_readme_nbgrader_cell(), {"pos_encoding": pos_encoding})


def test_the_readmes_nbgrader_cell_names_the_mistake_of_a_wrong_answer():
    from posenc_lib.mistakes import MISTAKES

    namespace = {"pos_encoding": MISTAKES["sine-only"]}
    with pytest.raises(AssertionError, match="this is the mistake 'sine-only'"):
        exec(_readme_nbgrader_cell(), namespace)
