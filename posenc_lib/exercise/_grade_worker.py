"""Grade one submission: ``python -m posenc_lib.exercise._grade_worker``.

The parent (:mod:`posenc_lib.exercise.grading`) starts one worker per submission,
in a new session, with a time limit for the whole worker. The worker

1. caps its own address space (``RLIMIT_AS``), which the kernel it starts
   inherits, so a cell that allocates too much gets a ``MemoryError``;
2. runs the learner's notebook in a fresh kernel of this Python, working
   directory a fresh temporary folder, each cell under a time limit, keeping at
   most a few kilobytes of each cell's output;
3. runs each task's checker in that kernel, one cell per task, under the same
   limit, and reads the verdicts back from a line marked with a random nonce that
   the learner's code could not have known;
4. prints one JSON object on standard output.

Reads its arguments as one JSON object on standard input:
``{"notebook": PATH, "cell_timeout": S, "notebook_timeout": S, "memory_mb": MB}``.
"""

import json
import resource
import secrets
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

from ._kernel import CurrentEnvKernelManager

TASKS = ("lookup", "pos_encoding", "sinusoidal_positions")
OUTPUT_CAP = 8_000  # characters of output kept per cell

_GRADE_CELL = """\
import json as _posenc_json
from posenc_lib.exercise.grading import report_task as _posenc_report_task
print({marker!r} + _posenc_json.dumps(_posenc_report_task({task!r}, globals())))
"""


class _CappedClient(NotebookClient):
    """A NotebookClient that keeps at most ``OUTPUT_CAP`` characters per cell."""

    def output(self, outs, msg, display_id, cell_index):
        budget = self.__dict__.setdefault("_budget", {})
        left = budget.setdefault(cell_index, OUTPUT_CAP)
        content = msg.get("content", {})
        size = len(content.get("text", "")) or len(json.dumps(content.get("data", {})))
        if size > left:  # too much output: keep a cut-off piece of text, or nothing
            budget[cell_index] = 0
            if "text" not in content or left <= 0:
                return None
            content["text"] = content["text"][:left] + "\n[output cut off]\n"
        else:
            budget[cell_index] = left - size
        return super().output(outs, msg, display_id, cell_index)


def _limit_memory(memory_mb):
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _error_of(cell):
    """``(name, value)`` of the error a cell raised, or None."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            return output.get("ename", "Error"), output.get("evalue", "")
    return None


def _failed_cell(index, cell, what):
    return {"index": index, "source": cell.source[:2000], "error": what}


def _execute(client, cell, index):
    """Run one cell; ``(name, value)`` of its error (a timeout is one), or None."""
    started = time.monotonic()
    try:
        client.execute_cell(cell, index)
    except CellTimeoutError:
        return _timed_out(client)
    error = _error_of(cell)
    if error and error[0] == "KeyboardInterrupt":
        if time.monotonic() - started >= client.timeout:  # interrupted by us
            return _timed_out(client)
    return error


def _timed_out(client):
    return "TimeoutError", f"still running after {client.timeout:g} s, so stopped"


def _run_cells(client, nb, deadline, running):
    """Run the learner's cells; return the first failing cell, or None.

    ``running["cell"]`` is set to each cell before it runs (for a dying kernel).
    """
    failed = None
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        running["cell"] = _failed_cell(index, cell, "the kernel died in this cell")
        if time.monotonic() > deadline:
            what = "not run: the notebook's time limit was reached before this cell"
            return failed or _failed_cell(index, cell, what)
        error = _execute(client, cell, index)
        if error and failed is None:
            failed = _failed_cell(index, cell, f"{error[0]}: {error[1]}"[:500])
    return failed


def _grade_tasks(client, nb, marker):
    """One checker cell per task; its verdict, or what stopped it."""
    verdicts = {}
    for task in TASKS:
        cell = nbformat.v4.new_code_cell(_GRADE_CELL.format(marker=marker, task=task))
        nb.cells.append(cell)
        error = _execute(client, cell, len(nb.cells) - 1)
        if error and error[0] == "TimeoutError":
            what = f"the check ran longer than {client.timeout:g} s (an endless loop?)"
            verdicts[task] = {"error": what}
            continue
        verdicts[task] = _read_verdict(cell, marker)
    return verdicts


def _read_verdict(cell, marker):
    text = "".join(out.get("text", "") for out in cell.outputs if "text" in out)
    for line in text.splitlines():
        if line.startswith(marker):
            return json.loads(line[len(marker) :])
    error = _error_of(cell)
    what = f"{error[0]}: {error[1]}" if error else "the check printed no verdict"
    return {"error": what[:500]}


def grade_notebook(path, *, cell_timeout, notebook_timeout):
    """The worker's result for one notebook, as a dict (see the module docstring)."""
    started = time.monotonic()
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as exc:  # invalid JSON, not a notebook, unreadable
        return {"status": "unreadable", "detail": f"{type(exc).__name__}: {exc}"[:300]}
    marker = f"<<posenc-grade {secrets.token_hex(16)}>>"
    with tempfile.TemporaryDirectory(prefix="posenc-grade-") as folder:
        client = _CappedClient(
            nb,
            kernel_manager_class=CurrentEnvKernelManager,
            timeout=cell_timeout,
            allow_errors=True,
            record_timing=False,
            interrupt_on_timeout=True,
            resources={"metadata": {"path": folder}},
        )
        running = {"cell": None}
        try:
            with client.setup_kernel(cwd=folder):
                failed = _run_cells(client, nb, started + notebook_timeout, running)
                running["cell"] = None
                verdicts = _grade_tasks(client, nb, marker)
        except DeadKernelError:
            return {"status": "kernel-died", "failed": running["cell"]}
    return {"status": "graded", "failed": failed, "verdicts": verdicts}


def main():
    args = json.loads(sys.stdin.read())
    _limit_memory(args["memory_mb"])
    result = grade_notebook(
        Path(args["notebook"]),
        cell_timeout=args["cell_timeout"],
        notebook_timeout=args["notebook_timeout"],
    )
    sys.stdout.write(json.dumps(result))
    return 0


if __name__ == "__main__":  # pragma: no cover - run as a subprocess
    sys.exit(main())
