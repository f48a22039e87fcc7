"""posenc_tools.grading: every mistake, convention and hostile case and the right
answer, each graded for real in its own boxed kernel; the CSV compared exactly."""

import json
import os
import queue
import re
import resource
import select
import struct
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from posenc_tools import ROOT
from posenc_tools.grading._in_box import MACHINES, Guard, _refuse, no_processes_filter
from posenc_tools.grading.box import (
    EXTRA_TASKS,
    box_command,
    box_uid,
    make_stub,
    sandbox_problem,
    start_lines,
)
from posenc_tools.grading.grader import (
    COLUMNS,
    _grade_one,
    find_submissions,
    parse_shard,
    write_csv,
)
from posenc_tools.grading.limits import max_memory_mb
from posenc_tools.make_submissions import (
    ALL_KINDS,
    CONVENTION_KINDS,
    HOSTILE_KINDS,
    make_notebook,
    write_submissions,
)
from test_grade_class import PASS, _read, needs_box

from posenc_lib.exercise.guard import TIME_LIMIT
from posenc_lib.mistakes import MISTAKES, RIGHT

LIMITS = ["--cell-seconds", "10", "--notebook-seconds", "60", "--memory-mb", "3072"]
NO_PROCESS = "PermissionError: the grader's box forbids new processes ("
MISSING = "There is no function named {} in the notebook (was it renamed or deleted?)."


def _posenc_grade(*args):
    return [sys.executable, "-m", "posenc_lib", "grade", *map(str, args)]


def _with_cell(source, path):
    """The right answer with one more cell, ``source``, written to ``path``."""
    import nbformat

    nb = make_notebook("right")
    nb.cells.append(nbformat.v4.new_code_cell(source))
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return len(nb.cells) - 1


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


def _expected_rows():
    """learner -> task -> (passed, mistake, convention, message)."""
    rows = {}

    def put(kind, task, message, mistake="", convention="", passed=False):
        learner = f"{ALL_KINDS.index(kind):03d}-{kind}"
        rows.setdefault(learner, {})[task] = (str(passed), mistake, convention, message)

    def all_pass(kind, note=""):
        for task, message in PASS.items():
            put(kind, task, message + note, passed=True)

    # writes-outside: into its box's private /tmp, gone with it; forges-an-answer:
    # a line written to the kernel's fd 1 is not taken for the grader's answer;
    # issue 23: the attacks on other learners fail, the attacker gets its own due
    passing = "right prints-100mb writes-outside forges-an-answer forges-the-pipe"
    for kind in f"{passing} rewrites-classmates hijacks-next-kernel".split():
        all_pass(kind)
    for mistake in MISTAKES.values():  # each mistake of the lesson, in its task
        all_pass(mistake.id)
        message = f"{mistake.task}: not right yet; this is the mistake '{mistake.id}'."
        put(mistake.id, mistake.task, message, mistake.id)
    sine_only = "pos_encoding: not right yet; this is the mistake 'sine-only'."
    put("forges-the-pipe", "pos_encoding", sine_only, "sine-only")
    for convention in CONVENTION_KINDS:  # every layout but the lesson's
        all_pass(convention)
        message = "pos_encoding: not the exercise's layout yet; your answer follows "
        message += f"the '{convention}' convention."
        put(convention, "pos_encoding", message, convention=convention)
    unreadable = (
        "not graded: the file is not a readable notebook (NotJSONError: Notebook "
        "does not appear to be JSON: '{not json')"
    )
    died = "not graded: the kernel died (os._exit, a crash, or memory) while running"
    for task in PASS:
        put("invalid-json", task, unreadable)
        put("other-course", task, MISSING.format(task))
        put("os-exit", task, f"{died} cell 3")
        put("kernel-dies", task, f"{died} cell 3")
        put("patches-checkers", task, f"{task}: not implemented yet.")
        own = f"{task}: this is posenc_lib's own {task}, imported, not one written "
        put("imports-reference", task, own + "in the notebook.")
    timeout = "TimeoutError: still running after 10 s, so stopped"
    all_pass("loop-top-level", f" [cell 3 failed: {timeout}]")
    # The checker's own 5 s limit per call stops the loop before the cell's 10 s.
    all_pass("loop-in-function")
    message = "pos_encoding: your function did not finish in time."
    put("loop-in-function", "pos_encoding", message)
    all_pass("sys-exit", " [cell 3 failed: SystemExit: ]")
    too_much = (
        " [cell 3 failed: MemoryError: Unable to allocate 8.00 GiB for an array with "
        "shape (1073741824,) and data type float64]"
    )
    all_pass("allocates-too-much", too_much)
    cells = make_notebook("renamed").cells  # the first that calls f(lookup)
    first_use = next(i for i, c in enumerate(cells) if "(lookup)" in c.source)
    renamed = f" [cell {first_use} failed: NameError: name 'lookup' is not defined]"
    all_pass("renamed", renamed)
    put("renamed", "lookup", MISSING.format("lookup") + renamed)
    # its parent is the box's init, which ignores the kill (a lecturer's box) or
    # is not its user's (a root grader's box); the worker is unseen
    refused = " [cell 3 failed: PermissionError: [Errno 1] Operation not permitted]"
    all_pass("kills-grader", refused if os.geteuid() == 0 else "")
    # the process it would start to rewrite the grades later is refused
    all_pass("rewrites-grades", f" [cell 3 failed: {NO_PROCESS}subprocess.Popen)]")
    for kind in ("reads-the-frame", "script-in-feedback"):
        all_pass(kind)
        put(kind, "pos_encoding", "pos_encoding: your function raised an error.")
    # a fork bomb, after the right answer: its first fork is refused
    refused = (
        f" [cell {len(make_notebook('right').cells)} failed: {NO_PROCESS}os.fork)]"
    )
    rows["bomb"] = {task: ("True", "", "", m + refused) for task, m in PASS.items()}
    return rows


def test_the_class_has_every_mistake_every_convention_and_the_right_answer():
    from posenc_lib.conventions import CONVENTIONS

    assert {"right", *MISTAKES, *CONVENTIONS} - {"interleaved"} <= set(ALL_KINDS)


def _digests(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir()}


_DIGESTS = {}  # each submission's bytes, as written, before grading


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Every kind of submission and a fork bomb, graded once by the command line."""
    if sandbox_problem() is not None and not os.environ.get("POSENC_REQUIRE_SANDBOX"):
        pytest.skip(f"no sandbox here: {sandbox_problem()}")
    folder = tmp_path_factory.mktemp("class")
    subs = folder / "submissions"
    write_submissions(subs)
    _with_cell(_BOMB, subs / "bomb.ipynb")
    _DIGESTS.update(_digests(subs))
    (folder / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(folder / "tmp")}
    command = _posenc_grade(subs, "--out", folder / "out", "--jobs", 2, *LIMITS)
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return folder, done


@pytest.mark.slow
def test_the_csv_the_summary_and_the_docs_say_what_happened_to_everyone(graded):
    folder, done = graded
    rows = _read(folder / "out" / "grades.csv")
    assert list(rows[0]) == list(COLUMNS)
    got = {}
    for row in rows:
        values = (row["passed"], row["mistake"], row["convention"], row["message"])
        got.setdefault(row["learner"], {})[row["task"]] = values
        assert float(row["seconds"]) >= 0
    assert got == _expected_rows()
    passed = sum(v[0] == "True" for tasks in got.values() for v in tasks.values())
    not_graded = sum(
        all(v[3].startswith("not graded") for v in tasks.values())
        for tasks in got.values()
    )
    n = len(got)
    assert done.stdout.startswith(
        f"{n} learners: {n - not_graded} graded, {not_graded} not graded; 0 files "
        f"left out; {passed} of {3 * n} tasks passed"
    )
    cases = _readme_hostile_cases()
    assert set(cases) == {*HOSTILE_KINDS, "invalid-json", "other-course"}
    for kind, said in cases.items():
        messages = [v[3] for v in got[f"{ALL_KINDS.index(kind):03d}-{kind}"].values()]
        assert any(said in message for message in messages), (kind, messages)


@pytest.mark.slow
def test_every_learner_gets_a_page_with_nothing_they_printed_unescaped(graded):
    feedback = graded[0] / "out" / "feedback"
    assert sorted(p.stem for p in feedback.glob("*.html")) == sorted(_expected_rows())
    for page in feedback.glob("*.html"):
        assert "<script" not in page.read_text(encoding="utf-8"), page.name
    page = (feedback / "001-k-instead-of-pair.html").read_text()
    assert "k-instead-of-pair" in page and "<h2><code>pos_encoding</code></h2>" in page
    looped = f"{ALL_KINDS.index('loop-top-level'):03d}-loop-top-level.html"
    looped = (feedback / looped).read_text()
    assert "Your first failing cell (cell 3)" in looped and "while True:" in looped
    kind = "script-in-feedback"
    page = (feedback / f"{ALL_KINDS.index(kind):03d}-{kind}.html").read_text()
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


def _still_running(folder, timeout=30):
    """The processes working under ``folder`` still alive after ``timeout`` s."""
    alive = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if not (entry / "cwd").resolve().is_relative_to(folder):
                continue
            handle = os.pidfd_open(int(entry.name))
        except OSError:  # gone meanwhile, or not ours to look at
            continue
        try:  # the timeout only catches a hang
            if not select.select([handle], [], [], timeout)[0]:
                alive.append(entry.name)
        finally:
            os.close(handle)
    return alive


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs Linux pidfds")
def test_nothing_outside_the_boxes_was_changed_or_left(graded):
    folder, _ = graded
    assert _digests(folder / "submissions") == _DIGESTS  # no classmate changed one
    # the kernels ran in TMPDIR/posenc-grade-XXXX; their TMPDIR is the box's own
    assert not (folder / "tmp" / "posenc-escape.txt").exists()
    # a box dies with its kernel; no kernel folder, stub or copy is left
    assert _still_running(folder / "tmp") == []
    assert sorted((folder / "tmp").rglob("*")) == []


@pytest.mark.slow
@needs_box
def test_a_cell_that_swallows_interrupts_is_stopped_by_the_workers_limit(tmp_path):
    """The worker is killed after its own limit (counted from the kernel's
    start); a new one grades the rest."""
    write_submissions(tmp_path / "subs", ("ignores-interrupt", "right"))
    limits = "--cell-seconds 3 --notebook-seconds 6 --worker-margin-seconds 1".split()
    command = _posenc_grade(
        tmp_path / "subs", "--out", tmp_path / "out", "--jobs", 1, *limits
    )
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}
    subprocess.run(command, check=True, capture_output=True, env=env)
    assert list((tmp_path / "tmp").iterdir()) == []
    rows = {(r["learner"], r["task"]): r for r in _read(tmp_path / "out/grades.csv")}
    stopped = "not graded: the notebook ran past its time limit and was stopped "
    for task, message in PASS.items():
        said = rows["000-ignores-interrupt", task]["message"]
        assert said == stopped + "while running cell 3"
        assert rows["001-right", task]["message"] == message


def _graded(verdict):
    return {"status": "graded", "verdicts": dict.fromkeys(PASS, verdict)}


@pytest.mark.parametrize(
    "answer",
    [
        {"status": "graded"},
        {"status": "graded", "verdicts": {"lookup": 3}},
        _graded("x"),
        _graded({"passed": 1}) | {"failed": "cell"},
        {"status": "bogus"},
        {"status": "kernel-died", "failed": 7},
        _graded({"passed": "yes", "message": "ok"}),
        _graded({"passed": True, "message": 3}),
    ],
)
def test_a_malformed_answer_is_a_row_not_a_crash(tmp_path, answer):
    """Learners' code runs as the grader's user and could write into its pipes."""
    idle = queue.SimpleQueue()
    idle.put(type("Worker", (), {"grade": lambda self, notebook: answer})())
    (tmp_path / "feedback").mkdir()
    rows = _grade_one("eve", tmp_path / "eve.ipynb", tmp_path, idle)
    message = "not graded: the grading process failed (a malformed answer)"
    assert [row["message"] for row in rows] == [message] * 3
    assert message in (tmp_path / "feedback" / "eve.html").read_text()


def test_a_missing_submission_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="submission '.*nope' does not exist"):
        find_submissions([tmp_path / "nope"])


@pytest.mark.parametrize("text", ["0/4", "5/4", "a/b", "3"])
def test_a_bad_shard_is_a_clear_error(text):
    message = f"shard == {text!r}, must be I/N with 1 <= I <= N, e.g. 1/4."
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_shard(text)


def test_the_csv_is_sorted_and_says_formulas_as_text(tmp_path):
    rows = [
        dict.fromkeys(COLUMNS, "") | {"learner": name, "task": task, "message": said}
        for name, said in (("b", ""), ("=1+1", "@SUM(A1)"))
        for task in ("sinusoidal_positions", "lookup")
    ]
    write_csv(rows, tmp_path / "g.csv")
    got = [(r["learner"], r["task"], r["message"]) for r in _read(tmp_path / "g.csv")]
    assert got == [
        ("'=1+1", "lookup", "'@SUM(A1)"),  # a cell a spreadsheet would evaluate: text
        ("'=1+1", "sinusoidal_positions", "'@SUM(A1)"),
        ("b", "lookup", ""),
        ("b", "sinusoidal_positions", ""),
    ]
    assert [p.name for p in tmp_path.iterdir()] == ["g.csv"]  # nothing left beside


def _readme_nbgrader_cell():
    readme = (ROOT / "docs" / "grading.md").read_text(encoding="utf-8")
    after = readme.split("<!-- nbgrader-test-cell -->\n```python\n", 1)[1]
    return after.split("```", 1)[0]


@pytest.mark.parametrize("answer", ["right", "sine-only"])
def test_the_docs_nbgrader_cell_passes_a_right_answer_and_names_a_mistake(answer):
    namespace = {"np": np, "pos_encoding": MISTAKES.get(answer)}
    if answer == "right":
        exec(RIGHT["pos_encoding"], namespace)  # a learner's, not the library's own
        exec(_readme_nbgrader_cell(), namespace)
        return
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
        ("--memory-mb", "9" * 14, f"{'9' * 14}, must be at most {max_memory_mb()} "
         "(megabytes: the most address space this system lets a process have)."),
    ],
)  # fmt: skip
def test_a_bad_limit_is_refused_before_any_grading(
    tmp_path, capsys, option, value, expected
):
    from posenc_lib.__main__ import main

    (tmp_path / "alice.ipynb").write_text("{}")
    out = tmp_path / "out"
    argv = ["grade", str(tmp_path / "alice.ipynb"), "--out", str(out), option, value]
    assert main(argv) == 2
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
    argv = ["grade", str(tmp_path / "subs"), "--out", str(out), *LIMITS]
    assert main([*argv, "--unsandboxed"]) == 0
    assert capsys.readouterr().err.startswith("posenc grade: --unsandboxed: ")
    assert [row["message"] for row in _read(out / "grades.csv")] == [
        MISSING.format(task) for task in PASS
    ]


_IN_THE_BOX = r"""
import ctypes, json, os, socket, subprocess, sys, threading
import numpy as np
seen = {"pids": sorted(p for p in os.listdir("/proc") if p.isdigit())}
seen["env"] = sorted(os.environ)
seen["hidden"] = [os.path.exists(p) for p in sys.argv[1:]]
try:
    socket.create_connection(("127.0.0.1", 22), timeout=2)
    seen["network"] = True
except OSError:
    seen["network"] = False
seen["written"] = []
for path in ("/usr/posenc-x", os.path.expanduser("~root/posenc-x"), "own-file"):
    try:
        open(path, "w").close()
        seen["written"].append(path)
    except OSError:
        pass
import posenc_lib
seen["library"] = [hasattr(posenc_lib, "positional"), posenc_lib.__doc__[:10]]
seen["checker"] = repr(check_lookup(None))  # imported by the notebook's setup
for way, start in [
    ("os.fork", os.fork),
    ("subprocess", lambda: subprocess.run(["true"])),
    ("libc", lambda: ctypes.CDLL(None, use_errno=True).fork() or os._exit(0)),
]:
    try:
        seen[way] = start() == -1 and os.strerror(ctypes.get_errno())
    except OSError as error:
        seen[way] = str(error)
held, seen["memory"] = [], []
def grab():  # 0.9 of --memory-mb, in each of three threads
    try:
        held.append(np.empty(int(0.9 * 3072 * 2**20) // 8))
        seen["memory"].append("held")
    except MemoryError:
        seen["memory"].append("MemoryError")
for _ in range(3):
    thread = threading.Thread(target=grab)
    thread.start()
    thread.join()
held.clear()
stop, seen["threads"] = threading.Event(), 0
try:
    for _ in range(20):
        threading.Thread(target=stop.wait).start()
        seen["threads"] += 1
except RuntimeError:  # can't start new thread
    stop.set()
seen["root"] = os.getuid() == 0
print(json.dumps(seen))
"""


@pytest.mark.slow
@needs_box
def test_the_box_holds_its_own_folder_the_stand_ins_threads_and_no_process(
    tmp_path,
):
    """A kernel's box as a worker makes it (``--memory-mb 3072``), as it starts."""
    nb = json.loads((ROOT / "notebooks" / "03_exercise.ipynb").read_text("utf-8"))
    setup = next(  # what the learner's notebook imports at its top: there, inert
        "".join(c["source"]) for c in nb["cells"] if "setup_notebook()" in c["source"]
    )
    box, run, secret = tmp_path / "box", tmp_path / "run", tmp_path / "submissions"
    box.mkdir(), run.mkdir(), secret.mkdir()
    if uid := box_uid():  # as the worker prepares a box for a kernel dropping to uid
        os.chown(box, 0, uid)
        os.chmod(box, 0o770)
    code = start_lines(uid) + setup + _IN_THE_BOX
    places = [secret, run, ROOT / "README.md", ROOT / "tools"]
    limit = 3072 * 2**20  # the worker's RLIMIT_AS, which its kernels inherit
    done = subprocess.run(
        [*box_command(box, make_stub(run)), sys.executable, "-c", code, *places],
        capture_output=True,
        text=True,
        cwd=box,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
    )
    assert done.returncode == 0, done.stderr
    env = "HOME LANG MALLOC_ARENA_MAX MPLBACKEND OMP_NUM_THREADS OPENBLAS_NUM_THREADS"
    assert (
        json.loads(done.stdout)
        == {
            "pids": ["1", "2"],  # bwrap's init and this process
            "env": [*env.split(), "PATH", "PWD", "PYTHONDONTWRITEBYTECODE"],
            "hidden": [False] * 4,
            "network": False,
            "written": ["own-file"],
            "library": [False, "Stand-ins "],  # the stand-ins' docstring
            "checker": "check_lookup: not run while the exercise is graded.",
            "os.fork": f"{NO_PROCESS[17:]}os.fork)",  # Python's ways, refused by name
            "subprocess": f"{NO_PROCESS[17:]}subprocess.Popen)",
            "libc": "Operation not permitted",  # and every other way
            "memory": ["held", "MemoryError", "MemoryError"],  # --memory-mb jointly
            "threads": EXTRA_TASKS,
            "root": False,  # a root grader's box runs as a user id of its own
        }
    )


def _seccomp(program, arch, nr, flags=0):
    """What a seccomp program returns for one system call: a small BPF machine."""
    data, at = struct.pack("<iIQQ", nr, arch, 0, flags), 0
    while True:
        code, true, false, k = struct.unpack_from("<HBBI", program, 8 * at)
        if code == 0x06:  # return
            return k
        if code == 0x20:  # load
            acc, jump = struct.unpack_from("<I", data, k)[0], 0
        else:  # jump if equal, greater or equal, any bit set
            jump = (
                true if {0x15: acc == k, 0x35: acc >= k, 0x45: acc & k}[code] else false
            )
        at += 1 + jump


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_the_boxs_filter_refuses_processes_and_allows_threads(machine):
    arch, _, fork, vfork, clone, clone3 = MACHINES[machine]
    allow, eperm, enosys = 0x7FFF0000, 0x50001, 0x50026  # SECCOMP_RET_*
    thread = 0x3D0F00  # glibc's pthread_create: CLONE_VM | CLONE_THREAD | ...
    verdicts = {(clone, thread): allow, (clone, 17): eperm, (clone3, 0): enosys}
    verdicts |= {(2**30 | clone, thread): eperm, (63, 0): allow}  # x32; read/...
    verdicts |= {(nr, 0): eperm for nr in (fork, vfork) if nr}
    program = no_processes_filter(machine)
    for (nr, flags), verdict in verdicts.items():
        assert _seccomp(program, arch, nr, flags) == verdict, (nr, flags)
    assert _seccomp(program, 0x40000003, 2) == eperm  # 32-bit x86's fork
    with pytest.raises(OSError, match="knows x86_64 and aarch64, not riscv64"):
        no_processes_filter("riscv64")  # no box there: sandbox_problem says why


def test_the_boxs_guard_serves_in_a_thread_and_leaves_a_late_call_running(capsys):
    release = threading.Event()

    def serve(request, note):
        if request == "late":  # waits, before its note: past any limit
            return {"released": release.wait()}
        note({"doing": "call"})
        print("from the call: dropped")
        return {"request": request} if request != "fails" else 1 / 0

    with Guard(serve) as guard:
        assert guard.limit == TIME_LIMIT  # the checkers' own, as in a notebook
        assert guard.ask("ok") == {"request": "ok", "printed": ""}
        assert guard.ask("fails") == {"ended": "it raised ZeroDivisionError"}
        assert guard.ask("ok") == {"request": "ok", "printed": ""}  # a new thread
    print("from the kernel: shown", flush=True)
    with Guard(serve, time_limit=1e-6) as guard:
        assert guard.ask("late") == {"timeout": 1e-6}
    release.set()
    assert capsys.readouterr().out == "from the kernel: shown\n"
    _refuse("open", ())
    with pytest.raises(PermissionError, match=r"forbids new processes \(os.fork\)"):
        _refuse("os.fork", ())


def test_the_stand_ins_are_made_from_every_public_name(tmp_path):
    """The box's posenc_lib is derived from the real one: nothing to drift."""
    import posenc_lib
    import posenc_lib.exercise

    stub = make_stub(tmp_path)
    for module in (posenc_lib, posenc_lib.exercise):
        folder = Path(module.__file__).relative_to(Path(posenc_lib.__file__).parent)
        text = (stub / folder).read_text("utf-8")
        for name in module.__all__:
            assert f"{name} = " in text, (module.__name__, name)


# --- issue 42: a learner's processes and memory, and a busy --out -----------------


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
        said = first.stderr.readline()
        assert said == f"posenc grade: grading 1 learner into {out}\n"
        command = _posenc_grade(tmp_path / "second", "--out", out)
        second = subprocess.run(command, capture_output=True, text=True)
    finally:
        first.send_signal(signal.SIGINT)
        first.communicate()
    assert (second.returncode, second.stdout) == (2, "")
    holder = re.escape(f"pid {first.pid}, started ") + r"[-0-9]{10} [:0-9]{8}: "
    holder += re.escape(" ".join(map(str, command[:4])) + f" {tmp_path}/first")
    busy = f"posenc grade: --out {out} is being written by another posenc grade ("
    tail = r" .*\): wait for it to end, or give another --out\.\n"
    assert re.fullmatch(re.escape(busy) + holder + tail, second.stderr), second.stderr
    assert first.returncode == 130  # interrupted: it says so
    assert os.listdir(out) == []  # neither wrote anything
    free = os.open(out, os.O_RDONLY)  # the lock went with the first run
    try:
        fcntl.flock(free, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(free)
