"""Grade a class: learners' copies of chapter 05 in, one CSV and feedback pages out.

    posenc grade SUBMISSION... --out DIR [--jobs N] [--shard I/N]
    posenc grade --merge DIR/grades.csv ... --out DIR

A submission is a learner's copy of ``notebooks/05_exercise.ipynb``: a notebook
file (the learner is its file name without ``.ipynb``) or a folder holding one
(the learner is the folder's name). Each one is run in a kernel of its own, in
a fresh temporary working directory; then every task's checker
(``check_lookup``, ``check_pos_encoding``, ``check_sinusoidal_positions``) runs
on the learner's function in that kernel. Each job has one worker process
(:mod:`posenc_lib.grading._grade_worker`) that grades its learners one after
another and starts each next kernel ahead; no kernel is used for two learners.
Written:

- ``DIR/grades.csv``: one row per learner and task, with the columns
  ``learner, task, passed, mistake, convention, seconds, message``;
- ``DIR/feedback/LEARNER.html``: each task's verdict and explanation, and the
  learner's first failing cell, if any.

What is contained, and what is not
----------------------------------
Contained: time (each cell, each check and each notebook has a limit, and a
worker that outlives them is killed with its kernels), memory (the worker and
each of its kernels get at most ``memory_mb`` of address space, so a huge
allocation is a ``MemoryError``), output (a cell's output is capped at a few
kilobytes), the working directory (a fresh temporary folder), and crashes (a
dying kernel, ``sys.exit()``, ``os._exit()``, invalid JSON, a killed worker:
each becomes a row that says so, and the other learners are graded as usual).

**Not contained: this is not a security sandbox.** The learner's code runs as
the grader's own user, with the grader's files and network. A cell can write
outside its working directory, read files, tamper with the checkers inside its
own kernel, or reach the other kernels of the same run. Grade untrusted
notebooks in a container or a throwaway account.
"""

import csv
import html
import importlib.util
import os
import queue
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from ..validation import check_integer, check_positive
from ._workers import Worker
from .limits import TASKS, Limits

__all__ = [
    "COLUMNS",
    "TASKS",
    "Limits",
    "find_submissions",
    "grade",
    "merge",
    "parse_shard",
    "report_task",
    "write_csv",
]

#: what grading imports beyond the library's own dependencies (the "grade" extra)
NEEDS = ("ipykernel", "jupyter_client", "nbclient", "nbformat")
COLUMNS = ("learner", "task", "passed", "mistake", "convention", "seconds", "message")


def report_task(task, namespace):
    """The verdict on one task, run *inside* the learner's kernel.

    Parameters
    ----------
    task : str
        One of :data:`TASKS`; the learner's function of that name is checked.
    namespace : dict
        The kernel's globals.

    Returns
    -------
    dict
        ``passed``, ``mistake``, ``convention``, ``message`` (text) and ``html``.

    Examples
    --------
    >>> from posenc_lib import lookup
    >>> report_task("lookup", {"lookup": lookup})["passed"]
    True
    >>> report_task("lookup", {})["message"]
    'There is no function named lookup in the notebook (was it renamed or deleted?).'
    """
    from ..exercise import checkers

    function = namespace.get(task)
    if not callable(function):
        message = (
            f"There is no function named {task} in the notebook "
            "(was it renamed or deleted?)."
        )
        return {"passed": False, "mistake": None, "convention": None,
                "message": message, "html": html.escape(message)}  # fmt: skip
    try:
        result = getattr(checkers, f"check_{task}")(function)
        return {
            "passed": bool(result.passed),
            "mistake": result.mistake,
            "convention": getattr(result, "convention", None),
            "message": str(result.message),
            "html": result._repr_html_(),
        }
    except KeyboardInterrupt:  # the grader interrupts a check past its time limit
        message = "not graded: the check ran past its time limit (an endless loop?)"
        return {"passed": False, "mistake": None, "convention": None,
                "message": message, "html": html.escape(message)}  # fmt: skip
    except BaseException as exc:  # the checker must never take the grader down
        message = f"The check itself stopped: {type(exc).__name__}: {exc}"[:500]
        return {"passed": False, "mistake": None, "convention": None,
                "message": message, "html": html.escape(message)}  # fmt: skip


def _learner_notebook(folder):
    """The notebook of a learner's folder: its ``05_exercise.ipynb``, else the first."""
    notebooks = sorted(folder.glob("*.ipynb"))
    preferred = folder / "05_exercise.ipynb"
    return preferred if preferred in notebooks else (notebooks or [preferred])[0]


def find_submissions(paths):
    """``{learner: notebook_path}`` for the given files and folders, by learner.

    A notebook file is one learner, named by the file (``alice.ipynb``); a folder
    holds learners: each notebook in it, and each sub-folder (named by the
    learner, holding their ``05_exercise.ipynb``).

    Examples
    --------
    >>> find_submissions(["alice.ipynb"])
    {'alice': PosixPath('alice.ipynb')}
    """
    found = {}
    for path in map(Path, paths):
        if path.is_dir():
            for child in sorted(path.iterdir()):
                if child.is_dir():
                    found[child.name] = _learner_notebook(child)
                elif child.suffix == ".ipynb":
                    found[child.stem] = child
        elif path.suffix == ".ipynb" or path.is_file():
            found[path.stem] = path  # a file that is not a notebook is reported
        elif not path.exists():
            raise FileNotFoundError(f"submission {str(path)!r} does not exist.")
    return dict(sorted(found.items()))


_STATUS = {
    "unreadable": "not graded: the file is not a readable notebook ({detail})",
    "kernel-died": "not graded: the kernel died (os._exit, a crash, or memory){where}",
    "worker-timeout": "not graded: the notebook ran past its time limit "
    "and was stopped{where}",
    "worker-died": "not graded: the grading process failed ({detail}){where}",
}


def _where(result):
    """Where a learner's grading stopped: " while running cell 3", or ""."""
    if "failed" not in result:
        return ""
    failed = result["failed"]
    return " while running " + (f"cell {failed['index']}" if failed else "the checks")


def _rows(learner, result, seconds):
    """The CSV rows of one learner (one per task)."""
    status = result.get("status")
    rows = []
    for task in TASKS:
        verdict = result.get("verdicts", {}).get(task)
        if status != "graded":
            where = _where(result)
            message = _STATUS[status].format(where=where, detail=result.get("detail"))
            verdict = {"passed": False, "message": message}
        elif "error" in verdict:
            verdict = {"passed": False, "message": f"not graded: {verdict['error']}"}
        first_line = verdict.get("message", "").split("\n", 1)[0]
        failed = result.get("failed")
        if status == "graded" and failed:
            first_line += f" [cell {failed['index']} failed: {failed['error']}]"
        rows.append({
            "learner": learner, "task": task, "passed": bool(verdict["passed"]),
            "mistake": verdict.get("mistake") or "",
            "convention": verdict.get("convention") or "",
            "seconds": f"{seconds:.2f}", "message": first_line,
        })  # fmt: skip
    return rows


def _feedback_page(learner, result, rows):
    """One learner's feedback as an HTML page."""
    parts = [f"<h1>Feedback: {html.escape(learner)}</h1>"]
    for row in rows:
        verdict = result.get("verdicts", {}).get(row["task"], {})
        body = verdict.get("html") or f"<p>{html.escape(row['message'])}</p>"
        parts.append(f"<h2><code>{row['task']}</code></h2>{body}")
    failed = result.get("failed")
    if failed:
        parts.append(
            f"<h2>Your first failing cell (cell {failed['index']})</h2>"
            f"<pre>{html.escape(failed['source'])}</pre>"
            f"<p><b>{html.escape(failed['error'])}</b></p>"
        )
    style = "body{font-family:sans-serif;max-width:50em;margin:2em auto}"
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>Feedback: "
            f"{html.escape(learner)}</title><style>{style}</style></head><body>"
            + "\n".join(parts) + "</body></html>")  # fmt: skip


def _grade_one(learner, notebook, out, idle):
    worker = idle.get()  # one of the jobs' workers, not busy
    try:
        started = time.monotonic()
        result = worker.grade(notebook)
        seconds = time.monotonic() - started
    finally:
        idle.put(worker)
    try:
        rows = _rows(learner, result, seconds)
        page = _feedback_page(learner, result, rows)
    except (KeyError, TypeError, AttributeError, ValueError):  # a learner's forgery?
        result = {"status": "worker-died", "detail": "a malformed answer"}
        rows = _rows(learner, result, seconds)
        page = _feedback_page(learner, result, rows)
    (out / "feedback" / f"{_safe_name(learner)}.html").write_text(page, "utf-8")
    return rows


def _safe_name(learner):
    """A learner's name as a file name: letters, digits, ``-``, ``_`` and ``.``."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in learner) or "_"


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


def grade(paths, out, *, jobs=None, limits=None, shard=None, progress=None):
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

    Returns
    -------
    list of dict
        The rows written to the CSV.
    """
    _check_installed()
    limits = Limits() if limits is None else limits
    jobs = check_integer(jobs or os.cpu_count() or 1, "jobs", min_value=1)
    check_positive(limits.cell_seconds, "cell_seconds")
    submissions = list(find_submissions(paths).items())
    if shard is not None:
        index, count = parse_shard(shard)
        submissions = submissions[index - 1 :: count]
    out = Path(out)
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    workers = [Worker(limits) for _ in range(min(jobs, len(submissions)) or 1)]
    idle = queue.SimpleQueue()
    for worker in workers:
        idle.put(worker)
    rows = []
    try:
        with ThreadPoolExecutor(max_workers=len(workers)) as pool:
            futures = [pool.submit(_grade_one, name, nb, out, idle)
                       for name, nb in submissions]  # fmt: skip
            for done, future in enumerate(as_completed(futures), 1):
                rows += future.result()
                if progress:
                    progress(done, len(submissions))
    finally:
        for worker in workers:
            worker.stop()
    return write_csv(rows, out / "grades.csv")


def _check_installed():
    """Raise a clear error if a package that grading needs is missing."""
    missing = [name for name in NEEDS if importlib.util.find_spec(name) is None]
    if missing:
        raise ModuleNotFoundError(
            f"grading needs {', '.join(NEEDS)}; not installed here: "
            f"{', '.join(missing)}. Install posenc-lib's grade extra (in a clone "
            "of the course: pip install '.[grade]')."
        )


def write_csv(rows, path):
    """Write ``rows`` (dicts with :data:`COLUMNS`) sorted by learner and task.

    Returns the rows in that order.
    """
    order = {task: n for n, task in enumerate(TASKS)}
    rows = sorted(rows, key=lambda r: (r["learner"], order.get(r["task"], 99)))
    with open(path, "w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return rows


def merge(csv_paths, out):
    """Join the ``grades.csv`` of several shards into ``out/grades.csv``.

    Feedback pages beside each CSV are copied into ``out/feedback``.
    """
    rows = []
    out = Path(out)
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    for path in map(Path, csv_paths):
        with open(path, newline="", encoding="utf-8") as file:
            rows += list(csv.DictReader(file))
        for page in (path.parent / "feedback").glob("*.html"):
            (out / "feedback" / page.name).write_bytes(page.read_bytes())
    return write_csv(rows, out / "grades.csv")
