"""Grade a class: learners' copies of chapter 03 in, one CSV and feedback pages out.

    posenc grade SUBMISSION... --out DIR [--jobs N] [--shard I/N]
    posenc grade --merge DIR/grades.csv ... --out DIR

A submission is a learner's copy of ``notebooks/03_exercise.ipynb``: a notebook
file (the learner is its file name without ``.ipynb``) or a folder holding one
(the learner is the folder's name). Every file given or in a folder given is one
learner, or left out with a reason (hidden, not a notebook, not a regular file,
unreadable, a link pointing outside its folder, the same file as another
learner's: :func:`~posenc_tools.grading.submissions.find_submissions`). Every
submission is copied first; each copy is run in a kernel of its own, in a box of
its own (:mod:`posenc_tools.grading.box`); then the kernel runs the learner's
functions on the inputs of each task's checker (``check_lookup``,
``check_pos_encoding``, ``check_sinusoidal_positions``) and the checker judges
the results here, in the grader's own processes
(:mod:`posenc_tools.grading.verdicts`). Each job has one worker process
(:mod:`posenc_tools.grading._grade_worker`) that grades its learners one after
another and starts each next kernel ahead; no kernel is used for two learners.
Written:

- ``DIR/grades.csv``: one row per learner and task, with the columns
  ``learner, task, passed, mistake, convention, seconds, message``;
- ``DIR/feedback/LEARNER.html``: each task's verdict and explanation, and the
  learner's first failing cell, if any.

Both are written into a hidden folder of ``DIR`` and moved into place together
when the run is complete: a run that stops, or finds nobody to grade, leaves the
previous ones as they were; a complete run moves them into ``DIR/replaced/TIME/``
and says so. ``DIR`` is locked for the run: a second run into it is refused at
once, naming the first; so is a ``DIR`` that is a file or inside a submissions
folder. Exit status (:mod:`~posenc_tools.grading.cli`): 0; 2 when refused,
nothing written; 3 when the grader itself failed some learners.

What is contained, and what is not
----------------------------------
Each learner's kernel runs in a box of its own (:mod:`posenc_tools.grading.box`,
bubblewrap): it sees no other process and none outlives it, has no network, a
read-only system and environment, the library replaced by stand-ins, and one
writable folder holding a copy of its notebook. It cannot see the submissions,
the output folder, the grader or the other kernels. The verdicts are decided
outside it (:mod:`posenc_tools.grading.verdicts`): the kernel only runs the
learner's functions on the checker's inputs and reports raw results; nothing it
prints reaches the CSV or a feedback page unescaped. Submissions are copied
before grading starts; every file gets its rows. Also contained, as before:
time (each cell, each check and each notebook has a limit, and a worker that
outlives them is killed with its kernels), processes and memory (a kernel may
start a few threads and no process, so ``memory_mb`` of address space bounds
the learner's code as a whole), output (a few kilobytes per cell), and crashes
(each becomes a row that says so).

Not contained: the CPU a kernel uses within its limits, the disk space its own
folder can take, and a learner who hard-codes the checker's published cases
(the verdict is about the answers the function gives). Where no box can be made
(no bubblewrap, not Linux), ``posenc grade`` refuses to run unless given
``--unsandboxed``: then learners' code runs as you, with your files.
"""

import contextlib
import csv
import fcntl
import html
import importlib.util
import itertools
import os
import queue
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from posenc_lib.validation import check_integer

from ._workers import Worker
from .limits import TASKS, Limits
from .submissions import find_submissions, learner_id, page_name

__all__ = [
    "COLUMNS",
    "TASKS",
    "Limits",
    "OutInUse",
    "SandboxUnavailable",
    "find_submissions",
    "grade",
    "learner_id",
    "merge",
    "page_name",
    "parse_shard",
    "tally",
    "write_csv",
]

#: what grading imports beyond the library's own dependencies (the "grade" extra)
NEEDS = ("ipykernel", "jupyter_client", "nbclient", "nbformat")
COLUMNS = ("learner", "task", "passed", "mistake", "convention", "seconds", "message")
# what spreadsheets evaluate, and the quote that marks a cell as text
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "'")


class SandboxUnavailable(OSError):
    """No box can be made here, and ``unsandboxed`` was not asked for."""


_STATUS = {
    "unreadable": "not graded: the file is not a readable notebook ({detail})",
    "kernel-died": "not graded: the kernel died (os._exit, a crash, or memory){where}",
    "worker-timeout": "not graded: the notebook ran past its time limit "
    "and was stopped{where}",
    "worker-died": "not graded: the grading process failed ({detail}){where}",
    "grader-failed": "not graded: the grader failed ({detail})",
}
#: how a row begins when the grader, not the learner's notebook, failed them
_GRADER_FAILED = tuple(
    _STATUS[s].split(" (")[0] for s in ("worker-died", "grader-failed")
)


def _where(result):
    """Where a learner's grading stopped: " while running cell 3", or ""."""
    if "failed" not in result:
        return ""
    failed = result["failed"]
    return " while running " + (f"cell {failed['index']}" if failed else "the checks")


def _verdict(result, task):
    """The task's verdict from a worker's result, checked to be plain data."""
    status = result.get("status")
    if status != "graded":
        detail = result.get("detail")
        message = _STATUS[status].format(where=_where(result), detail=detail)
        return {"passed": False, "message": message}
    verdict = result["verdicts"][task]
    if "error" in verdict:
        return {"passed": False, "message": f"not graded: {verdict['error']}"}
    texts = [
        verdict["message"],
        verdict.get("mistake") or "",
        verdict.get("convention") or "",
    ]
    if (
        not all(isinstance(t, str) for t in texts)
        or type(verdict["passed"]) is not bool
    ):
        raise TypeError("a verdict that is not plain data")
    return verdict


def _rows(learner, result, seconds):
    """The CSV rows of one learner (one per task)."""
    rows = []
    for task in TASKS:
        verdict = _verdict(result, task)
        first_line = str(verdict["message"]).split("\n", 1)[0]
        failed = result.get("failed")
        if result.get("status") == "graded" and failed:
            first_line += f" [cell {failed['index']} failed: {failed['error']}]"
        rows.append(
            {
                "learner": learner,
                "task": task,
                "passed": verdict["passed"],
                "mistake": verdict.get("mistake") or "",
                "convention": verdict.get("convention") or "",
                "seconds": f"{seconds:.2f}",
                "message": first_line,
            }
        )
    return rows


def _verdict_html(result, task, row):
    """A task's verdict as HTML, made here from its text (every part escaped)."""
    from posenc_lib.exercise import CheckResult

    verdict = result.get("verdicts", {}).get(task, {})
    if result.get("status") != "graded" or "error" in verdict:
        return f"<p>{html.escape(row['message'])}</p>"
    return CheckResult(row["passed"], None, verdict["message"])._repr_html_()


def _feedback_page(learner, result, rows):
    """One learner's feedback as an HTML page."""
    parts = [f"<h1>Feedback: {html.escape(learner)}</h1>"]
    for row in rows:
        body = _verdict_html(result, row["task"], row)
        parts.append(f"<h2><code>{row['task']}</code></h2>{body}")
    failed = result.get("failed")
    if failed:
        parts.append(
            f"<h2>Your first failing cell (cell {int(failed['index'])})</h2>"
            f"<pre>{html.escape(str(failed['source']))}</pre>"
            f"<p><b>{html.escape(str(failed['error']))}</b></p>"
        )
    style = "body{font-family:sans-serif;max-width:50em;margin:2em auto}"
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>Feedback: "
        f"{html.escape(learner)}</title><style>{style}</style></head><body>"
        + "\n".join(parts)
        + "</body></html>"
    )


def _grade_one(learner, notebook, out, idle):
    worker = idle.get()  # one of the jobs' workers, not busy
    try:
        started = time.monotonic()
        result = worker.grade(notebook)
        seconds = time.monotonic() - started
    finally:
        idle.put(worker)
    return _write_learner(learner, result, seconds, out)


def _write_learner(learner, result, seconds, out):
    """The learner's rows; their feedback page written."""
    try:
        rows = _rows(learner, result, seconds)
        page = _feedback_page(learner, result, rows)
    except (KeyError, TypeError, AttributeError, ValueError):  # a malformed answer
        result = {"status": "worker-died", "detail": "a malformed answer"}
        rows = _rows(learner, result, seconds)
        page = _feedback_page(learner, result, rows)
    (out / "feedback" / f"{page_name(learner)}.html").write_text(page, "utf-8")
    return rows


def parse_shard(text):
    """``(index, count)`` from ``"I/N"`` with ``1 <= I <= N``.

    Examples
    --------
    >>> parse_shard("2/4")
    (2, 4)
    >>> parse_shard("5/4")
    Traceback (most recent call last):
    ...
    ValueError: shard == '5/4', must be I/N with 1 <= I <= N, e.g. 1/4.
    """
    index, _, count = str(text).partition("/")
    if index.isdigit() and count.isdigit() and 1 <= int(index) <= int(count):
        return int(index), int(count)
    raise ValueError(f"shard == {text!r}, must be I/N with 1 <= I <= N, e.g. 1/4.")


def _box_stub(run, unsandboxed):
    """The box's ``posenc_lib`` in ``run``; None (and a warning) if ``unsandboxed``."""
    from .box import make_stub, sandbox_problem

    if unsandboxed:
        warning = (
            "posenc grade: --unsandboxed: learners' code runs as you, with "
            "your files and network, and can change any grade."
        )
        print(warning, file=sys.stderr)
        return None
    problem = sandbox_problem()
    if problem is not None:
        raise SandboxUnavailable(
            f"no sandbox for learners' code: {problem}. Install bubblewrap, or "
            "pass --unsandboxed to run their code as you, unisolated."
        )
    return make_stub(run)


def _copy_all(submissions, folder, left_out):
    """Copy every notebook into ``folder`` first: ``{learner: copy}``.

    A notebook that cannot be read is added to ``left_out``.
    """
    copies = {}
    for number, (learner, notebook) in enumerate(submissions):
        copy = folder / f"{number:05d}" / notebook.name
        copy.parent.mkdir(parents=True)
        try:
            shutil.copyfile(notebook, copy)
            copies[learner] = copy
        except OSError as exc:
            left_out.append((learner_id(str(notebook)), f"unreadable ({exc})"))
    return copies


def grade(
    paths, out, *, jobs=None, limits=None, shard=None, progress=None, unsandboxed=False
):
    """Grade every submission under ``paths``; write ``out/grades.csv`` and feedback.

    Parameters
    ----------
    paths : sequence of path-like
        Notebook files, learner folders, or folders of them.
    out : path-like
        Output folder (created).
    jobs : int, optional
        Submissions graded at once; the number of cores by default.
    limits : Limits, optional
        The time and memory limits; ``Limits()`` by default.
    shard : str, optional
        ``"I/N"``: grade only the I-th of every N submissions (by learner name).
    progress : callable, optional
        Called as ``progress(done, total)`` after each learner.
    unsandboxed : bool, default False
        Run kernels without a box (where none can be made); say so on stderr.

    Returns
    -------
    rows : list of dict
        The rows written to the CSV.
    left_out : list of (str, str)
        ``(path, reason)`` of each file that is not graded.

    Raises
    ------
    SandboxUnavailable
        If no box can be made here and ``unsandboxed`` is False.
    ValueError
        If there is nobody to grade; then nothing is written.
    """
    _check_installed()
    limits = Limits() if limits is None else limits
    jobs = check_integer(jobs or os.cpu_count() or 1, "jobs", min_value=1)
    if not paths:
        raise ValueError("no submissions given: name the class's folder or files.")
    _check_out(out, paths)
    found, left_out = find_submissions(paths)
    submissions = list(found.items())
    if shard is not None:
        index, count = parse_shard(shard)
        submissions = submissions[index - 1 :: count]
    with tempfile.TemporaryDirectory(prefix="posenc-grade-run-") as run:
        copies = _copy_all(submissions, Path(run) / "submissions", left_out)
        if not copies:
            raise ValueError(_nobody(paths, shard, len(found), left_out))
        stub = _box_stub(Path(run), unsandboxed)
        with _replacing(out) as new:  # out is this run's from here on
            learners = f"{len(copies)} learner{'s' * (len(copies) != 1)}"
            print(f"posenc grade: grading {learners} into {out}", file=sys.stderr)
            rows = _grade_all(copies, new, jobs, limits, stub, progress)
            rows = write_csv(rows, new / "grades.csv")
    return rows, sorted(left_out)


def _nobody(paths, shard, found, left_out):
    """Why nobody is graded, as one sentence."""
    said = "nobody to grade in " + ", ".join(map(str, paths))
    said += f" (shard {shard} of {found} learners)" if shard else ""
    if left_out:
        listed = "; ".join(f"{path}: {why}" for path, why in sorted(left_out)[:3])
        more = "; ..." if len(left_out) > 3 else ""
        said += f", {len(left_out)} left out ({listed}{more})"
    return said + "; nothing was written."


class OutInUse(OSError):
    """Another ``posenc grade`` is writing into the same ``--out``."""


def _check_out(out, submissions=()):
    """Refuse an ``--out`` that is a file, or inside a submissions folder."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(
            f"--out {out} is a file: give a folder (it gets grades.csv and feedback/)."
        )
    for folder in map(Path, submissions):
        if folder.is_dir() and out.resolve().is_relative_to(folder.resolve()):
            raise ValueError(
                f"--out {out} is inside the submissions folder {folder}: give a "
                "folder outside it."
            )


@contextlib.contextmanager
def _replacing(out):
    """A hidden folder to write the CSV and the pages into, moved into ``out`` last.

    ``out`` is locked first (``flock`` on the folder itself: released when this
    process ends, however it ends), so a second run into it stops at once with
    :class:`OutInUse`, naming the first. Until the end, and if the run stops,
    ``out/grades.csv`` and ``out/feedback/`` stay as they were; then the earlier
    ones are moved into ``out/replaced/TIME/`` (said on stderr), and the new
    ones take their place.
    """
    out = Path(out)
    _check_out(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        lock = os.open(out, os.O_RDONLY)
    except OSError as exc:
        raise OSError(
            f"--out {out} cannot be made or opened ({exc.strerror})."
        ) from None
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutInUse(
                f"--out {out} is being written by another posenc grade "
                f"({_holder(out)}): wait for it to end, or give another --out."
            ) from None
        new = Path(tempfile.mkdtemp(prefix=".posenc-grade-", dir=out))
        try:
            (new / "feedback").mkdir()
            yield new
            _keep_earlier(out)
            os.replace(new / "feedback", out / "feedback")
            os.replace(new / "grades.csv", out / "grades.csv")
        finally:
            shutil.rmtree(new, ignore_errors=True)
    finally:
        os.close(lock)


def _keep_earlier(out):
    """Move an earlier run's CSV and pages into ``out/replaced/TIME/``; say so."""
    earlier = [
        out / name for name in ("grades.csv", "feedback") if (out / name).exists()
    ]
    if not earlier:
        return
    when = time.localtime(earlier[0].stat().st_mtime)
    kept = out / "replaced" / time.strftime("%Y-%m-%dT%H-%M-%S", when)
    for number in itertools.count(2):
        try:
            kept.mkdir(parents=True)
            break
        except FileExistsError:
            kept = kept.with_name(f"{kept.name.split('+')[0]}+{number}")
    names = " and ".join(path.name + "/" * path.is_dir() for path in earlier)
    for path in earlier:
        os.replace(path, kept / path.name)
    print(f"posenc grade: the earlier {names} are kept in {kept}", file=sys.stderr)


def _holder(out):
    """Who holds ``out``'s lock, from Linux's /proc: "pid N, started T: COMMAND"."""
    info = os.stat(out)
    where = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        lines = Path("/proc/locks").read_text().splitlines()
        [pid] = {
            f[4] for f in map(str.split, lines) if f[1] == "FLOCK" and f[5] == where
        }
        ticks = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
        boot = next(
            int(line.split()[1])
            for line in Path("/proc/stat").read_text().splitlines()
            if line.startswith("btime ")
        )
        started = time.localtime(boot + ticks / os.sysconf("SC_CLK_TCK"))
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except (OSError, ValueError, IndexError, StopIteration):
        return "its process is not visible from here"
    when = time.strftime("%Y-%m-%d %H:%M:%S", started)
    return (
        f"pid {pid}, started {when}: {command.decode(errors='replace').strip()[:200]}"
    )


def _grade_all(copies, out, jobs, limits, stub, progress):
    """Every learner's rows, whatever happened to each."""
    workers = [Worker(limits, stub) for _ in range(min(jobs, len(copies)))]
    idle = queue.SimpleQueue()
    for worker in workers:
        idle.put(worker)
    rows, pool, complete = [], ThreadPoolExecutor(max_workers=len(workers)), False
    try:
        futures = {
            pool.submit(_grade_one, learner, copy, out, idle): learner
            for learner, copy in copies.items()
        }
        for done, future in enumerate(as_completed(futures), 1):
            try:
                rows += future.result()
            except Exception as exc:  # the grader's fault: still a row each
                detail = f"{type(exc).__name__}: {exc}"[:300]
                failed = {"status": "grader-failed", "detail": detail}
                rows += _rows(futures[future], failed, 0.0)
            if progress:
                progress(done, len(copies))
        complete = True
    finally:  # stopped (Ctrl-C): the workers at once, which ends their threads
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.stop(now=not complete)
    return rows


def _check_installed():
    """Raise a clear error if a package that grading needs is missing."""
    missing = [name for name in NEEDS if importlib.util.find_spec(name) is None]
    if missing:
        raise ModuleNotFoundError(
            f"grading needs {', '.join(NEEDS)}; not installed here: "
            f"{', '.join(missing)}. Install posenc-lib's grade extra (in a clone "
            "of the course: pip install '.[grade]')."
        )


def _cell(value):
    """A CSV cell a spreadsheet shows as text: ``=1+1`` becomes ``'=1+1``."""
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def _uncell(text):
    """The value of a cell :func:`_cell` wrote: ``'=1+1`` is ``=1+1``."""
    return text[1:] if text.startswith("'") else text


def write_csv(rows, path):
    """Write ``rows`` (dicts with :data:`COLUMNS`) sorted by learner and task.

    Cells that a spreadsheet would evaluate (starting ``=``, ``+``, ``-``,
    ``@``), and cells starting with ``'``, get a leading ``'``. The file is
    replaced at once (written beside it, then renamed). Returns the rows as
    written, in that order.

    Examples
    --------
    >>> _cell("=1+1"), _cell("'=1+1"), _cell("alice")
    ("'=1+1", "''=1+1", 'alice')
    """
    order = {task: n for n, task in enumerate(TASKS)}
    rows = [{column: _cell(row[column]) for column in COLUMNS} for row in rows]
    rows.sort(key=lambda r: (r["learner"], order.get(r["task"], 99)))
    path = Path(path)
    with tempfile.NamedTemporaryFile(
        "w",
        dir=path.parent,
        prefix=".grades-",
        suffix=".csv",
        delete=False,
        newline="",
        encoding="utf-8",
    ) as file:
        writer = csv.DictWriter(file, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    os.replace(file.name, path)
    return rows


def merge(csv_paths, out):
    """Join the ``grades.csv`` of several shards into ``out/grades.csv``.

    The feedback page of each learner beside each CSV is copied into
    ``out/feedback``. Returns the rows written.

    Raises
    ------
    ValueError
        If no CSV is given, one lacks a column of :data:`COLUMNS`, a learner is
        in two of them, or they hold nobody; then nothing is written.
    """
    if not csv_paths:
        raise ValueError("no grades.csv given to merge.")
    _check_out(out)
    rows, owner = [], {}
    for path in dict.fromkeys(map(Path, csv_paths)):
        for row in _read_grades(path):
            first = owner.setdefault(row["learner"], path)
            if first != path:
                twice = f"learner {row['learner']!r} is in both {first} and {path}"
                raise ValueError(f"{twice}: give each shard's grades.csv once.")
            rows.append(row)
    if not rows:
        raise ValueError(
            f"nobody in {', '.join(map(str, csv_paths))}; nothing was written."
        )
    with _replacing(out) as new:
        for learner, path in owner.items():
            page = path.parent / "feedback" / f"{page_name(learner)}.html"
            if page.is_file():
                shutil.copyfile(page, new / "feedback" / page.name)
        rows = write_csv(rows, new / "grades.csv")
    return rows


def _read_grades(path):
    """The rows of a ``grades.csv``, as :func:`write_csv` was given them."""
    not_grades = f"{path} is not a grades.csv of posenc grade"
    try:
        with open(path, newline="", encoding="utf-8") as file:
            reader = csv.DictReader(file)
            missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
            if missing:
                raise ValueError(
                    f"{not_grades}: it has no column {', '.join(missing)}."
                )
            return [{c: _uncell(row[c] or "") for c in COLUMNS} for row in reader]
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"{not_grades} ({exc}).") from None


def tally(rows):
    """``(graded, not_graded, grader_failed)``: how many learners, from CSV rows.

    A learner is not graded when all their rows say "not graded"; the grader
    failed them when a row says the grader, or its process, failed.

    Examples
    --------
    >>> rows = [{"learner": "a", "message": "lookup: passed all 5 cases."},
    ...         {"learner": "b", "message": "not graded: the grader failed (X)"}]
    >>> tally(rows)
    (1, 1, 1)
    """
    learners, graded, failed = set(), set(), set()
    for row in rows:
        learners.add(row["learner"])
        if not row["message"].startswith("not graded"):
            graded.add(row["learner"])
        if row["message"].startswith(_GRADER_FAILED):
            failed.add(row["learner"])
    return len(graded), len(learners - graded), len(failed)
