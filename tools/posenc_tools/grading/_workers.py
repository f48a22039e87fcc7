"""The grader's side of a worker process (:mod:`._grade_worker`).

:class:`Worker` starts one worker, sends it one notebook at a time, reads its
answer lines under a time limit, and stops it: gently at the end of a run, at
once when it runs out of time or stops answering, deleting the kernel folders a
killed worker could not delete.
"""

import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["STARTUP_SECONDS", "Worker"]

#: how long a worker may take to start and have a kernel ready (a busy machine)
STARTUP_SECONDS = 120.0


class Worker:
    """One worker process, grading one submission after another.

    It is started on first use and again after it dies or runs out of time.
    ``limits`` is a :class:`posenc_tools.grading.limits.Limits`; ``stub`` the
    box's ``posenc_lib`` (:func:`posenc_tools.grading.box.make_stub`), or None to
    run kernels without a box.
    """

    def __init__(self, limits, stub=None):
        self.limits, self.stub = limits, stub
        self.process = None
        self.pending = b""  # what the worker wrote after the last whole line
        self.live = []  # the folders of its kernels, as it last said

    def _start(self):
        limits = json.dumps(
            {
                "cell_timeout": self.limits.cell_seconds,
                "notebook_timeout": self.limits.notebook_seconds,
                "memory_mb": self.limits.memory_mb,
                "stub": None if self.stub is None else str(self.stub),
            }
        )
        command = [sys.executable, "-m", "posenc_tools.grading._grade_worker", limits]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            bufsize=0,
        )
        self.pending = b""

    def grade(self, notebook):
        """The worker's result for one notebook, or what stopped it.

        A result that is not ``graded`` names, under ``"failed"``, the cell that
        was running, if the worker said which.
        """
        if self.process is None:
            self._start()
        # until its kernel answers; then the notebook, its checks and the margin
        deadline = time.monotonic() + STARTUP_SECONDS + self.limits.worker_seconds()
        running, ready = (), False  # the cell the worker runs; None: the checks
        try:
            request = json.dumps({"notebook": str(notebook)}) + "\n"
            self.process.stdin.write(request.encode())
            while True:
                answer = json.loads(self._line(deadline))
                if not isinstance(answer, dict):
                    raise ValueError("not a JSON object")
                if "live" in answer:
                    self.live = answer["live"]
                elif "ready" in answer:
                    ready = True
                    deadline = time.monotonic() + self.limits.worker_seconds()
                elif "running" in answer:
                    running = (answer["running"],)
                else:
                    return answer
        except TimeoutError:
            self.stop(now=True)
            result = {"status": "worker-timeout"}
            if not ready:  # the grader's failure, not the learner's notebook
                detail = f"no kernel ready after {STARTUP_SECONDS:g} s"
                result = {"status": "worker-died", "detail": detail}
            what = "still running when the time limit was reached"
        except (OSError, ValueError):  # a broken pipe, a cut-off or empty line
            result = {
                "status": "worker-died",
                "detail": f"exit status {self.stop(True)}",
            }
            what = "the grading process stopped while this cell ran"
        if running:
            result["failed"] = running[0] and {**running[0], "error": what}
        return result

    def _line(self, deadline):
        """The worker's next line; TimeoutError after ``deadline``, b"" at its end."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            while b"\n" not in self.pending:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise TimeoutError
                chunk = self.process.stdout.read(65536)
                if not chunk:
                    return b""
                self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line

    def stop(self, now=False):
        """End the worker (when it has stopped its kernels, or at once if ``now``).

        Returns its exit status.
        """
        if self.process is None:
            return None
        process, self.process = self.process, None
        try:
            if not now:
                process.stdin.close()  # the worker stops its kernels and exits
                process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        for signum in (signal.SIGTERM, signal.SIGKILL):  # SIGTERM: it kills its kernels
            try:
                os.killpg(process.pid, signum)
                process.wait(timeout=2)
                break
            except (ProcessLookupError, PermissionError):
                break
            except subprocess.TimeoutExpired:
                continue
        status = process.wait()
        _remove_kernel_folders(self.live)  # what a killed worker could not delete
        self.live = []
        return status


def _remove_kernel_folders(paths):
    """Delete a worker's kernel folders that are left.

    Only ``posenc-grade-*`` folders right in the temporary directory, whatever
    the list says: the list comes from a process the learner's code could reach.
    """
    for path in map(Path, paths):
        here = path.parent == Path(tempfile.gettempdir())
        if here and path.name.startswith("posenc-grade-"):
            shutil.rmtree(path, ignore_errors=True)
