"""posenc grade on a class as a lecturer has it: links, case variants, FIFOs, odd
names, a killed run; every file accounted for. Most tests use a stand-in worker
(no kernel): who is graded and what is written, not the verdicts."""

import csv
import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from posenc_tools.grading import grader
from posenc_tools.grading._workers import Worker
from posenc_tools.grading.box import sandbox_problem
from posenc_tools.grading.limits import Limits, max_memory_mb
from posenc_tools.grading.submissions import find_submissions, learner_id, page_name
from posenc_tools.make_submissions import write_submissions

from posenc_lib.__main__ import main

PASS = {
    "lookup": "lookup: passed all 5 cases.",
    "pos_encoding": "pos_encoding: passed all 7 cases.",
    "sinusoidal_positions": "sinusoidal_positions: passed all 6 cases.",
}
GRADED = {
    "status": "graded",
    "failed": None,
    "verdicts": {task: {"passed": True, "message": m} for task, m in PASS.items()},
}
needs_box = pytest.mark.skipif(
    sandbox_problem() is not None and not os.environ.get("POSENC_REQUIRE_SANDBOX"),
    reason=f"no sandbox here: {sandbox_problem()}",
)


class _StandInWorker:
    """Grades every notebook as all passed; fails on a file named ``bad...``."""

    def __init__(self, limits, stub):
        pass

    def grade(self, notebook):
        if notebook.name.startswith("bad"):
            raise RuntimeError("the grader's own bug")
        return GRADED

    def stop(self, now=False):
        pass


@pytest.fixture
def stand_in(monkeypatch):
    monkeypatch.setattr(grader, "Worker", _StandInWorker)
    monkeypatch.setattr(grader, "_box_stub", lambda run, unsandboxed: None)


def _read(path):
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def _notebooks(folder, *names):
    for name in names:
        path = folder / os.fsdecode(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")


def _snapshot(out):
    """Every file under ``out`` and its bytes."""
    return {
        str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()
    }


@pytest.fixture
def graded_before(tmp_path):
    """An output folder as an earlier run left it."""
    out = tmp_path / "out"
    (out / "feedback").mkdir(parents=True)
    (out / "grades.csv").write_text("learner,task\nearlier,lookup\n")
    (out / "feedback" / "earlier.html").write_text("<p>earlier</p>")
    return out


# --- every file accounted for ------------------------------------------------


def test_a_link_never_takes_a_classmates_place(tmp_path):
    subs = tmp_path / "subs"
    _notebooks(subs, "zoe/03_exercise.ipynb", "bob.ipynb", "zed.ipynb", ".d/ann.ipynb")
    (subs / "aaron").symlink_to("zoe")  # a folder linked to a classmate's
    (subs / "bobby.ipynb").symlink_to("bob.ipynb")  # a file linked to one
    (subs / "aa.ipynb").symlink_to("zed.ipynb")  # sorted first, still not zed
    (subs / "ann2.ipynb").symlink_to(".d/ann.ipynb")  # to no one's: its own name
    found, left_out = find_submissions([subs])
    assert found == {
        "ann2": subs / "ann2.ipynb",
        "bob": subs / "bob.ipynb",
        "zed": subs / "zed.ipynb",
        "zoe": subs / "zoe" / "03_exercise.ipynb",
    }
    assert left_out == [
        (f"{subs}/.d", "hidden"),
        (f"{subs}/aa.ipynb", f"a link to {subs}/zed.ipynb"),
        (f"{subs}/aaron", f"a link to {subs}/zoe/03_exercise.ipynb"),
        (f"{subs}/bobby.ipynb", f"a link to {subs}/bob.ipynb"),
    ]


def test_what_is_not_a_learners_notebook_is_left_out_with_a_reason(tmp_path):
    subs = tmp_path / "subs"
    _notebooks(tmp_path, "outside.ipynb", "subs/carol.IPYNB", "subs/dan/Work.Ipynb")
    _notebooks(
        subs, "ed/01_draft.ipynb", "ed/03_exercise.ipynb", "ed/.~03_exercise.ipynb"
    )
    (subs / "notes.txt").write_text("not a submission")
    os.mkfifo(subs / "fifo.ipynb")  # opening it would wait for a writer forever
    (subs / "empty").mkdir()
    (subs / "evil.ipynb").symlink_to(tmp_path / "outside.ipynb")
    (subs / "fay").mkdir()
    (subs / "fay" / "03_exercise.ipynb").symlink_to("/etc/passwd")
    (subs / "gone.ipynb").symlink_to("nowhere.ipynb")
    (subs / "loop.ipynb").symlink_to("loop.ipynb")
    _notebooks(subs, ".ipynb_checkpoints/carol-checkpoint.ipynb")
    found, left_out = find_submissions([subs])
    assert found == {
        "carol": subs / "carol.IPYNB",  # any case of .ipynb
        "dan": subs / "dan" / "Work.Ipynb",
        "ed": subs / "ed" / "03_exercise.ipynb",
    }
    assert left_out == [
        (f"{subs}/.ipynb_checkpoints", "hidden"),
        (f"{subs}/empty", "a folder with no notebook (.ipynb) in it"),
        (f"{subs}/evil.ipynb", "a link pointing outside the folder"),
        (f"{subs}/fay", "a link pointing outside the folder"),
        (f"{subs}/fifo.ipynb", "not a regular file"),
        (f"{subs}/gone.ipynb", "unreadable (No such file or directory)"),
        (f"{subs}/loop.ipynb", "unreadable (Too many levels of symbolic links)"),
        (f"{subs}/notes.txt", "not a notebook (.ipynb)"),
    ]


def test_a_file_given_twice_is_one_learner_and_one_duplicate(tmp_path):
    _notebooks(tmp_path, "alice.ipynb")
    shown = str(tmp_path / "alice.ipynb")
    found, left_out = find_submissions([shown] * 2)  # one learner, one duplicate
    assert [*found, *left_out] == ["alice", (shown, f"the same file as {shown}")]


def test_names_that_differ_on_disk_stay_different(tmp_path, monkeypatch):
    names = b"\xff \\xff \\\\xff a\nb a\\nb carol carol.IPYNB".split(b" ")
    names = [name + b".ipynb" * (b"." not in name) for name in names]
    names.append(b"carol (carol.ipynb).ipynb")
    _notebooks(tmp_path, *names)
    monkeypatch.chdir(tmp_path)  # paths given without a folder
    found, left_out = find_submissions(map(os.fsdecode, names))
    assert left_out == []
    assert list(found) == sorted(
        r"\xff|\\xff|\\\\xff|a\nb|a\\nb|carol (./carol.ipynb)|carol (./carol.IPYNB)"
        r"|carol (carol.ipynb)".split("|")
    )


def test_learner_ids_of_different_names_are_different():
    names = b"\xff \\xff \\\\xff \\ \\\\ \xc3\xa9 \\xc3\\xa9 \xc3 \\xc3".split()
    names += [b"a\tb", b"a\\tb", b"\x1b", b"\\x1b", b"\xe2\x80\x8b", b"\\u200b"]
    ids = [learner_id(os.fsdecode(name)) for name in names]
    assert len(set(ids)) == len(names), ids
    assert all(i.isprintable() for i in ids)


def test_feedback_pages_never_collide_even_on_a_disk_that_ignores_case():
    names = r"a_b|A_b|a_B|Ann|ann|ANN|.a_b|_a_b|.|..|a.b|a..b|a~b|a\b|a/b".split("|")
    names += ["a b", "alice (x/alice)"]
    names += ["\\xff", "\\\\xff", page_name("a b"), page_name("Ann")]
    names += ["x" * 80, "x" * 81, "x" * 300, "x" * 300 + "y"]
    pages = [page_name(name) for name in names]
    assert len({page.lower() for page in pages}) == len(names), pages
    for page in pages:
        assert re.fullmatch(r"[a-z0-9_.~-]{1,97}", page) and page[0] != ".", page


# --- nothing overwritten that was there ---------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "no submissions given: name the class's folder or files."),
        (["{empty}"], "nobody to grade in {empty}; nothing was written."),
        (["--merge"], "no grades.csv given to merge."),
        (["--merge", "{other}"], "{other} is not a grades.csv of posenc grade: it "
         "has no column learner, task, passed, mistake, convention, seconds, message."),
    ],
    ids=["no-folder", "empty-folder", "merge-nothing", "merge-other-columns"],
)  # fmt: skip
def test_grading_nothing_leaves_the_grades_as_they_were(
    tmp_path, capsys, graded_before, argv, message
):
    places = {"empty": tmp_path / "empty", "other": tmp_path / "other.csv"}
    places["empty"].mkdir()
    places["other"].write_text("name,score\nann,3\n")
    before = _snapshot(graded_before)
    argv = [arg.format(**places) for arg in argv]
    assert main(["grade", *argv, "--out", str(graded_before)]) == 2
    assert capsys.readouterr().err == f"posenc grade: {message.format(**places)}\n"
    assert _snapshot(graded_before) == before
    assert sorted(os.listdir(graded_before)) == ["feedback", "grades.csv"]


def test_a_run_stopped_half_way_leaves_the_grades_as_they_were(
    tmp_path, stand_in, graded_before
):
    _notebooks(tmp_path / "subs", "ann.ipynb", "bob.ipynb")
    before = _snapshot(graded_before)

    def stop(done, total):  # after the first learner's page is written
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        grader.grade([tmp_path / "subs"], graded_before, jobs=1, progress=stop)
    assert _snapshot(graded_before) == before
    assert sorted(os.listdir(graded_before)) == ["feedback", "grades.csv"]


_KILLED = """
import os, signal, sys
sys.path.insert(0, sys.argv[3])
from posenc_tools.grading import grader
from test_grade_class import _StandInWorker
grader.Worker, grader._box_stub = _StandInWorker, lambda run, unsandboxed: None
kill = lambda done, total: os.kill(os.getpid(), signal.SIGKILL)
grader.grade([sys.argv[1]], sys.argv[2], jobs=1, progress=kill)
"""


def test_a_killed_run_leaves_the_grades_as_they_were(tmp_path, graded_before):
    _notebooks(tmp_path / "subs", "ann.ipynb", "bob.ipynb")
    before = _snapshot(graded_before)
    places = [tmp_path / "subs", graded_before, Path(__file__).parent]
    (tmp_path / "tmp").mkdir()  # what the killed run leaves of its own
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}
    command = [sys.executable, "-c", _KILLED, *map(str, places)]
    done = subprocess.run(command, capture_output=True, cwd=tmp_path, env=env)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert {k: v for k, v in _snapshot(graded_before).items() if k[0] != "."} == before
    # a learner's page was written, in the hidden folder only
    [new] = [p for p in graded_before.iterdir() if p.name.startswith(".posenc-")]
    pages = {p.name for p in (new / "feedback").iterdir()}
    assert pages and pages <= {"ann.html", "bob.html"}


def test_a_complete_run_replaces_the_csv_and_the_pages_together(
    tmp_path, stand_in, graded_before, capsys
):
    _notebooks(tmp_path / "subs", "ann.ipynb")
    before = _snapshot(graded_before)
    os.utime(graded_before / "grades.csv", (0, 1_000_000_000))  # the earlier run's
    grader.grade([tmp_path / "subs"], graded_before)
    learners = [row["learner"] for row in _read(graded_before / "grades.csv")]
    assert learners == ["ann"] * 3
    assert sorted(os.listdir(graded_before / "feedback")) == ["ann.html"]
    assert sorted(os.listdir(graded_before)) == ["feedback", "grades.csv", "replaced"]
    # the earlier ones are kept, named by when they were written, and said so
    [kept] = (graded_before / "replaced").iterdir()
    assert _snapshot(kept) == before
    assert kept.name == time.strftime("%Y-%m-%dT%H-%M-%S", time.localtime(1e9))
    assert capsys.readouterr().err.endswith(
        f"posenc grade: the earlier grades.csv and feedback/ are kept in {kept}\n"
    )


def test_an_out_that_is_a_file_or_among_the_submissions_is_refused(
    tmp_path, capsys, stand_in
):
    _notebooks(tmp_path / "subs", "ann.ipynb")
    (tmp_path / "ofile").write_text("not a folder")
    inside = f"is inside the submissions folder {tmp_path}/subs: give a folder "
    refused = dict.fromkeys([tmp_path / "subs", tmp_path / "subs/out"], inside)
    refused = {out: why + "outside it." for out, why in refused.items()}
    refused[tmp_path / "ofile"] = "is a file: give a folder (it gets grades.csv and "
    refused[tmp_path / "ofile"] += "feedback/)."
    for out, why in refused.items():
        assert main(["grade", str(tmp_path / "subs"), "--out", str(out)]) == 2
        assert capsys.readouterr().err == f"posenc grade: --out {out} {why}\n"
    merge = ["grade", "--merge", str(tmp_path / "x.csv"), "--out", f"{tmp_path}/ofile"]
    assert main(merge) == 2
    assert capsys.readouterr().err == (
        f"posenc grade: --out {tmp_path}/ofile {refused[tmp_path / 'ofile']}\n"
    )
    assert sorted(os.listdir(tmp_path / "subs")) == ["ann.ipynb"]
    assert (tmp_path / "ofile").read_text() == "not a folder"


def test_merge_joins_shards_keeps_odd_names_and_refuses_a_learner_twice(
    tmp_path, stand_in
):
    _notebooks(tmp_path / "subs", "=1+1.ipynb", "'=1+1.ipynb", "''x.ipynb")
    grader.grade([tmp_path / "subs"], tmp_path / "p1", shard="1/2")
    grader.grade([tmp_path / "subs"], tmp_path / "p2", shard="2/2")
    parts = [tmp_path / part / "grades.csv" for part in ("p1", "p2")]
    shards = [{row["learner"] for row in _read(part)} for part in parts]
    assert shards == [{"'''x", "'=1+1"}, {"''=1+1"}]  # every 2nd from the 1st, 2nd
    rows = grader.merge(parts, tmp_path / "all")
    assert sorted({row["learner"] for row in rows}) == ["'''x", "''=1+1", "'=1+1"]
    assert len(os.listdir(tmp_path / "all" / "feedback")) == 3
    (tmp_path / "p3").mkdir()
    twice = [parts[0], tmp_path / "p3" / "grades.csv"]
    twice[1].write_bytes(twice[0].read_bytes())
    message = f"learner \"''x\" is in both {twice[0]} and {twice[1]}: give each "
    with pytest.raises(ValueError, match=re.escape(message + "shard's grades.csv")):
        grader.merge(twice, tmp_path / "again")
    assert not (tmp_path / "again").exists()


# --- limits checked before any kernel starts ----------------------------------


@pytest.mark.parametrize("seconds", [2.5, 12.5, 1e-9])
def test_seconds_that_are_not_whole_and_the_most_memory_are_accepted(seconds):
    assert Limits(cell_seconds=seconds).cell_seconds == seconds
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    assert hard == resource.RLIM_INFINITY or max_memory_mb() * 2**20 <= hard
    Limits(memory_mb=max_memory_mb())  # what setrlimit takes
    with pytest.raises(ValueError, match="must be at most"):
        Limits(memory_mb=max_memory_mb() + 1)


# --- the exit status tells the truth ------------------------------------------


def test_the_summary_counts_graded_not_graded_and_left_out(tmp_path, capsys, stand_in):
    _notebooks(tmp_path / "subs", "ann.ipynb", "bad.ipynb")
    (tmp_path / "subs" / "notes.txt").write_text("")
    out = tmp_path / "out"
    assert main(["grade", str(tmp_path / "subs"), "--out", str(out)]) == 3
    assert capsys.readouterr().out == (
        f"left out: {tmp_path}/subs/notes.txt: not a notebook (.ipynb)\n"
        "2 learners: 1 graded, 1 not graded (1 failed by the grader: exit status "
        f"3); 1 file left out; 3 of 6 tasks passed: {out}\n"
    )
    failed = "not graded: the grader failed (RuntimeError: the grader's own bug)"
    messages = [row["message"] for row in _read(out / "grades.csv")]
    assert messages == [*PASS.values(), failed, failed, failed]  # ann, then bad
    merge = ["grade", "--merge", f"{out}/grades.csv", "--out", f"{tmp_path}/all"]
    assert main(merge) == 3
    capsys.readouterr()
    (tmp_path / "subs" / "bad.ipynb").unlink()
    assert main(["grade", str(tmp_path / "subs"), "--out", str(out)]) == 0


class _Silent(Worker):
    """A worker process that says ``lines`` and then nothing."""

    lines = ""

    def _start(self):
        say = f"print({self.lines!r}, flush=True)\n" * bool(self.lines)
        code = f"import sys\n{say}sys.stdin.read()"
        pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "bufsize": 0}
        command = [sys.executable, "-c", code]
        self.process = subprocess.Popen(command, start_new_session=True, **pipes)
        self.pending = b""


@pytest.mark.parametrize(
    ("lines", "startup", "status"),
    [("", 0.0, "worker-died"), ('{"ready": true}', 600.0, "worker-timeout")],
    ids=["kernel-never-ready", "notebook-past-its-limit"],
)
def test_a_kernel_that_never_starts_is_the_graders_failure(
    monkeypatch, tmp_path, lines, startup, status
):
    """Before its kernel is ready, a silent worker is the grader's failure; after,
    it is the learner's notebook that ran too long."""
    from posenc_tools.grading import _workers

    monkeypatch.setattr(_workers, "STARTUP_SECONDS", startup)
    tiny = Limits(cell_seconds=1e-3, notebook_seconds=1e-3, worker_margin_seconds=1e-3)
    worker = type("Worker", (_Silent,), {"lines": lines})(tiny)
    try:
        result = worker.grade(tmp_path / "ann.ipynb")
    finally:
        worker.stop(now=True)
    assert result["status"] == status
    rows = grader._rows("ann", result, 0.0)
    assert grader.tally(rows)[2] == (status == "worker-died")


# --- for real: a class as a lecturer has it -----------------------------------


@pytest.mark.slow
@needs_box
def test_an_ordinary_class_is_graded_with_every_file_accounted_for(tmp_path):
    """Names that are not UTF-8, that differ only by a space, that a spreadsheet
    would evaluate, or that two folders share: every one graded, none lost."""
    write_submissions(tmp_path / "made", ("right", "sine-only", "other-course"))
    right, sine, other = sorted((tmp_path / "made").iterdir())
    sources = {
        b"subs/zoe/03_exercise.ipynb": right,
        b"subs/carol.IPYNB": sine,
        b"subs/\xff\xfe.ipynb": right,
        b"subs/a b.ipynb": sine,
        b"subs/a_b.ipynb": right,
        b"subs/=1+1.ipynb": other,
        b"x/alice/03_exercise.ipynb": right,
        b"y/alice/03_exercise.ipynb": sine,
    }
    for name, source in sources.items():
        path = tmp_path / os.fsdecode(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(source.read_bytes())
    (tmp_path / "subs" / "aaron").symlink_to("zoe")
    os.mkfifo(tmp_path / "subs" / "fifo.ipynb")
    options = "subs x y --out out --cell-seconds 12.5 --notebook-seconds 60.5 --jobs 2"
    command = [sys.executable, "-m", "posenc_lib", "grade", *options.split()]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "left out: subs/aaron: a link to subs/zoe/03_exercise.ipynb\n"
        "left out: subs/fifo.ipynb: not a regular file\n"
        "8 learners: 8 graded, 0 not graded; 2 files left out; 18 of 24 tasks "
        "passed: out\n"
    )
    rows = _read(tmp_path / "out" / "grades.csv")
    passed = {}
    for row in rows:
        passed.setdefault(row["learner"], []).append(row["passed"] == "True")
    right, sine = [True] * 3, [True, False, True]  # each task passed
    assert passed == {
        "'=1+1": [False] * 3,
        "\\xff\\xfe": right,
        "a b": sine,
        "a_b": right,
        "alice (x/alice)": right,
        "alice (y/alice)": sine,
        "carol": sine,
        "zoe": right,
    }
    messages = {(r["learner"], r["task"]): r["message"] for r in rows}
    assert messages["zoe", "pos_encoding"] == PASS["pos_encoding"]
    sine = "pos_encoding: not right yet; this is the mistake 'sine-only'."
    assert messages["carol", "pos_encoding"] == sine
    assert len(os.listdir(tmp_path / "out" / "feedback")) == 8
