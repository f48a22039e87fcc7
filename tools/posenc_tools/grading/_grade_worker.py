"""Grade submissions one after another: the worker process of a grading job.

The parent (:mod:`posenc_tools.grading.grader`, through
:class:`posenc_tools.grading._workers.Worker`) starts one worker per job, in a
new session, and sends it one request per line on standard input,
``{"notebook": PATH}``; the worker answers each with lines of JSON: the
folders of its live kernels, ``{"ready": true}`` when the learner's kernel
answers, ``{"running": CELL}`` as each cell starts (``null``: the checks), then
the result (see :func:`grade_notebook`). Its one argument is the limits, as
JSON: ``{"cell_timeout": S, "notebook_timeout": S, "memory_mb": MB, "stub":
PATH or null}`` (``stub``: the box's ``posenc_lib``; null: no box).

The worker

1. caps its own address space (``RLIMIT_AS``), which every kernel it starts
   inherits, so a cell that allocates too much gets a ``MemoryError``;
2. keeps one kernel started ahead, each in a box of its own
   (:mod:`posenc_tools.grading.box`): its own processes, no network, a read-only
   system, the library replaced by stand-ins, and one writable folder. While a
   learner's notebook runs, the next learner's kernel starts and imports the
   modules the exercise imports, without binding any name;
3. copies the learner's notebook into the box's folder and runs it in that
   kernel, each cell under a time limit, keeping at most a few kilobytes of
   each cell's output;
4. for each task, has the kernel report what the learner's function does on
   the checker's cases (the guard's reports, as JSON) and judges them here,
   outside the kernel, with the checkers' own judge
   (:mod:`posenc_tools.grading.verdicts`);
5. kills that kernel's whole process group (the box: everything in it dies),
   deletes its folder, and answers.

What is reused between learners is the worker process (its imports) and
nothing that a learner's code has touched. The worker's pipes are not in any
box: a kernel sees neither them nor this process.
"""

import json
import math
import os
import resource
import secrets
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from jupyter_core.utils import run_sync
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

from ..kernel import WARM_UP, CurrentEnvKernelManager
from .box import BoxKernelManager, box_uid, start_lines
from .limits import TASKS
from .verdicts import KernelProblem, ask_cell, decide

OUTPUT_CAP = 8_000  # characters of output kept per cell
ANSWER_CAP = 4_000_000  # characters of output kept of a grader's cell


class _CappedClient(NotebookClient):
    """A NotebookClient that keeps at most ``OUTPUT_CAP`` characters per cell."""

    def output(self, outs, msg, display_id, cell_index):
        budget = self.__dict__.setdefault("_budget", {})
        cap = ANSWER_CAP if cell_index in self.__dict__.get("asks", ()) else OUTPUT_CAP
        left = budget.setdefault(cell_index, cap)
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
    """A kernel of this Python in a fresh temporary folder: boxed if ``stub``."""

    live = set()  # process-group ids of the kernels not yet stopped

    def __init__(self, stub=None):
        self.folder = tempfile.TemporaryDirectory(
            prefix="posenc-grade-", ignore_cleanup_errors=True
        )
        # its connection file too, so that deleting the folder leaves nothing
        connection = os.path.join(self.folder.name, ".posenc-kernel.json")
        warm_up = WARM_UP
        if stub is None:
            self.manager = CurrentEnvKernelManager(connection_file=connection)
        else:
            self.manager = BoxKernelManager(
                connection_file=connection, box=self.folder.name, stub=str(stub)
            )
            uid = box_uid()
            if uid:  # its folder: root's (its sockets), then its group's (its files)
                os.chown(self.folder.name, 0, uid)
                os.chmod(self.folder.name, 0o770)
            # first: should an import of the warm-up fail, the box still holds
            option, imports = WARM_UP.split("=", 1)
            warm_up = f"{option}={start_lines(uid)}{imports}"
        # as nbclient starts kernels: no history written to the user's profile
        history = "--HistoryManager.hist_file=:memory:"
        run_sync(self.manager.start_kernel)(
            cwd=self.folder.name, extra_arguments=[history, warm_up]
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
            what = f"{error[0]}: {error[1]}"[:500]
            if error[0] == "RuntimeError" and "can't start new thread" in error[1]:
                what += " (the box's limit on threads)"
            failed = _failed_cell(index, cell, what)
    return failed


def _ask(client, nb, marker, task):
    """Have the kernel report the learner's ``task`` on the checker's cases."""
    nb.cells.append(nbformat.v4.new_code_cell(ask_cell(task, marker)))
    index = len(nb.cells) - 1
    client.__dict__.setdefault("asks", set()).add(index)
    error = _execute(client, nb.cells[index], index)
    if error and error[0] == "TimeoutError":
        what = f"the check ran longer than {client.timeout:g} s (an endless loop?)"
        raise KernelProblem(what)
    return _read_answer(nb.cells[index], marker)


def _grade_tasks(client, nb, marker):
    """Each task's verdict, decided here from the kernel's reports; or what failed."""
    verdicts = {}
    for task in TASKS:
        try:
            verdicts[task] = decide(task, _ask(client, nb, marker, task))
        except KernelProblem as problem:
            verdicts[task] = {"error": str(problem)[:500]}
        except DeadKernelError:
            raise
        except Exception as exc:  # the grader's own failure: this task's row says so
            verdicts[task] = {"error": f"the check itself stopped: {exc!r}"[:500]}
    return verdicts


def _read_answer(cell, marker):
    text = "".join(out.get("text", "") for out in cell.outputs if "text" in out)
    for line in text.splitlines():
        if line.startswith(marker):
            try:
                return json.loads(line[len(marker) :])
            except ValueError as exc:
                raise KernelProblem("the kernel's answer was not readable") from exc
    error = _error_of(cell)
    what = f"{error[0]}: {error[1]}" if error else "the check printed no answer"
    raise KernelProblem(what[:500])


def _read(path):
    """The notebook at ``path``, or the result that says why it cannot be read."""
    try:
        return nbformat.read(path, as_version=4), None
    except Exception as exc:  # invalid JSON, not a notebook, unreadable
        detail = f"{type(exc).__name__}: {exc}"[:300]
        return None, {"status": "unreadable", "detail": detail}


def grade_notebook(
    nb, kernel, *, cell_timeout, notebook_timeout, tell=None, ready=None
):
    """Run ``nb`` and its checks in ``kernel`` (a started :class:`_Kernel`).

    ``ready()`` is called once the kernel answers; ``tell(cell)`` before each
    cell, and with None before the checks.
    ``cell_timeout`` is rounded up to whole seconds.
    Returns ``{"status": "graded", "failed": CELL or None, "verdicts": {...}}``,
    or ``{"status": "kernel-died", "failed": CELL}``.
    """
    marker = f"<<posenc-grade {secrets.token_hex(16)}>>"
    client = _CappedClient(
        nb,
        km=kernel.manager,
        timeout=math.ceil(cell_timeout),  # nbclient counts whole seconds
        allow_errors=True,
        record_timing=False,
        interrupt_on_timeout=True,
        resources={"metadata": {"path": kernel.folder.name}},
    )
    progress = _Progress(tell)
    try:
        with client.setup_kernel():  # waits until the kernel is ready
            if ready is not None:
                ready()
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

    spare, stub = None, limits.get("stub")
    for line in requests:
        path = Path(json.loads(line)["notebook"])
        nb, result = _read(path)
        if nb is not None:
            kernel = None
            try:
                kernel, spare = spare or _Kernel(stub), None
                spare = _Kernel(stub)  # starts while this learner's notebook runs
                say({"live": [kernel.folder.name, spare.folder.name]})
                shutil.copy(path, Path(kernel.folder.name) / path.name)
                result = grade_notebook(
                    nb,
                    kernel,
                    cell_timeout=limits["cell_timeout"],
                    notebook_timeout=limits["notebook_timeout"],
                    tell=lambda cell: say({"running": cell}),
                    ready=lambda: say({"ready": True}),
                )
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
