"""Grade submissions one after another: ``python -m posenc_lib.grading._grade_worker``.

The parent (:mod:`posenc_lib.grading.grader`, through
:class:`posenc_lib.grading._workers.Worker`) starts one worker per job, in a
new session, and sends it one request per line on standard input,
``{"notebook": PATH}``; the worker answers each with lines of JSON: the
folders of its live kernels, ``{"running": CELL}`` as each cell starts
(``null``: the checks), then the result (see :func:`grade_notebook`). Its one
argument is the limits, as JSON:
``{"cell_timeout": S, "notebook_timeout": S, "memory_mb": MB}``.

The worker

1. caps its own address space (``RLIMIT_AS``), which every kernel it starts
   inherits, so a cell that allocates too much gets a ``MemoryError``;
2. keeps one kernel started ahead: while a learner's notebook runs, the next
   learner's kernel starts, in its own fresh temporary folder, and imports the
   modules the exercise imports (numpy, matplotlib, ``posenc_lib``) without
   binding any name. No learner's code has run in it;
3. runs the learner's notebook in that kernel, each cell under a time limit,
   keeping at most a few kilobytes of each cell's output;
4. runs each task's checker in that kernel, one cell per task, under the same
   limit, and reads the verdicts back from a line marked with a random nonce
   that the learner's code could not have known;
5. kills that kernel's whole process group, deletes its folder, and answers.

What is reused between learners is the worker process (its imports) and
nothing that a learner's code has touched. The answers go out on a copy of the
original standard output; the kernels' standard output is ``/dev/null``, so a
kernel cannot write into the answers.
"""

import json
import os
import resource
import secrets
import signal
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from jupyter_core.utils import run_sync
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

from .kernel import CurrentEnvKernelManager
from .limits import TASKS

OUTPUT_CAP = 8_000  # characters of output kept per cell
#: imported by a kernel before its learner's turn (the exercise imports them too)
WARM_MODULES = ("numpy", "posenc_lib.figures", "posenc_lib.grading.grader")
#: the kernel's command-line argument that imports them as it starts
WARM_UP = "--IPKernelApp.exec_lines=" + "".join(
    f"__import__({name!r});" for name in WARM_MODULES
)

_GRADE_CELL = """\
import json as _posenc_json
from posenc_lib.grading.grader import report_task as _posenc_report_task
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


class _Kernel:
    """A kernel of this Python, started in a fresh temporary folder."""

    live = set()  # process-group ids of the kernels not yet stopped

    def __init__(self):
        self.folder = tempfile.TemporaryDirectory(
            prefix="posenc-grade-", ignore_cleanup_errors=True
        )
        # its connection file too, so that deleting the folder leaves nothing
        connection = os.path.join(self.folder.name, ".posenc-kernel.json")
        self.manager = CurrentEnvKernelManager(connection_file=connection)
        # as nbclient starts kernels: no history written to the user's profile
        history = "--HistoryManager.hist_file=:memory:"
        run_sync(self.manager.start_kernel)(
            cwd=self.folder.name, extra_arguments=[history, WARM_UP]
        )
        self.group = self.manager.provisioner.pid  # a session leader: its group id
        _Kernel.live.add(self.group)

    def stop(self):
        """Kill the kernel and every process of its group; delete its folder."""
        _kill_group(self.group)
        _Kernel.live.discard(self.group)
        try:
            run_sync(self.manager.shutdown_kernel)(now=True)
        except Exception:  # already dead: nothing left to stop
            pass
        self.folder.cleanup()


def _kill_group(group):
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _on_terminate(signum, frame):  # pragma: no cover - the parent's timeout
    """Kill every kernel of this worker, then exit."""
    for group in list(_Kernel.live):
        _kill_group(group)
    os._exit(1)


def _limit_memory(memory_mb):
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _answer_stream():
    """A copy of standard output for the answers; fd 1 becomes ``/dev/null``."""
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    return answers


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


class _Progress:
    """The cell running now (None: the checks), kept and told to the parent.

    Should the kernel die, this is the cell it died in; should the worker be
    killed or run out of time, the parent still knows where it was.
    """

    def __init__(self, tell=None):
        self.cell, self.tell = None, tell

    def enter(self, cell):
        self.cell = cell
        if self.tell is not None:
            self.tell(cell)


def _run_cells(client, nb, deadline, progress):
    """Run the learner's cells; return the first failing cell, or None."""
    failed = None
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        progress.enter(_failed_cell(index, cell, "the kernel died in this cell"))
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


def _read(path):
    """The notebook at ``path``, or the result that says why it cannot be read."""
    try:
        return nbformat.read(path, as_version=4), None
    except Exception as exc:  # invalid JSON, not a notebook, unreadable
        detail = f"{type(exc).__name__}: {exc}"[:300]
        return None, {"status": "unreadable", "detail": detail}


def grade_notebook(nb, kernel, *, cell_timeout, notebook_timeout, tell=None):
    """Run ``nb`` and its checks in ``kernel`` (a started :class:`_Kernel`).

    ``tell(cell)`` is called before each cell, and with None before the checks.
    Returns ``{"status": "graded", "failed": CELL or None, "verdicts": {...}}``,
    or ``{"status": "kernel-died", "failed": CELL}``.
    """
    marker = f"<<posenc-grade {secrets.token_hex(16)}>>"
    client = _CappedClient(
        nb,
        km=kernel.manager,
        timeout=cell_timeout,
        allow_errors=True,
        record_timing=False,
        interrupt_on_timeout=True,
        resources={"metadata": {"path": kernel.folder.name}},
    )
    progress = _Progress(tell)
    try:
        with client.setup_kernel():  # waits until the kernel is ready
            deadline = time.monotonic() + notebook_timeout  # the learner's cells
            failed = _run_cells(client, nb, deadline, progress)
            progress.enter(None)
            verdicts = _grade_tasks(client, nb, marker)
    except DeadKernelError:
        return {"status": "kernel-died", "failed": progress.cell}
    finally:
        if client.kc is not None:
            client.kc.stop_channels()
    return {"status": "graded", "failed": failed, "verdicts": verdicts}


def _serve(requests, answers, limits):
    """Answer each request line with one result line, a fresh kernel per learner.

    Before the result come a line ``{"live": [FOLDER, FOLDER]}`` (the folders of
    the kernels alive now, for the parent to delete should this worker be killed)
    and lines ``{"running": CELL}``, one as each cell starts (``null``: the checks).
    """

    def say(message):
        answers.write(json.dumps(message) + "\n")
        answers.flush()

    spare = None
    for line in requests:
        nb, result = _read(Path(json.loads(line)["notebook"]))
        if nb is not None:
            kernel = None
            try:
                kernel, spare = spare or _Kernel(), None
                spare = _Kernel()  # starts while this learner's notebook runs
                say({"live": [kernel.folder.name, spare.folder.name]})
                result = grade_notebook(
                    nb, kernel, cell_timeout=limits["cell_timeout"],
                    notebook_timeout=limits["notebook_timeout"],
                    tell=lambda cell: say({"running": cell}),
                )  # fmt: skip
            except Exception as exc:  # a kernel that would not start, ...
                result = {"status": "worker-died", "detail": type(exc).__name__}
            finally:
                if kernel is not None:
                    kernel.stop()
        say(result)
    if spare is not None:
        spare.stop()


def main(argv=None):
    limits = json.loads((argv or sys.argv[1:])[0])
    _limit_memory(limits["memory_mb"])
    signal.signal(signal.SIGTERM, _on_terminate)
    answers = _answer_stream()
    _serve(sys.stdin, answers, limits)
    return 0


if __name__ == "__main__":  # pragma: no cover - run as a subprocess
    sys.exit(main())
