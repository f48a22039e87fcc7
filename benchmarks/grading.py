"""Time ``posenc grade`` on a generated class: ``make bench-grading``.

Writes ``benchmarks/grading.md``: the time to grade 100 submissions (right
answers and each of chapter 04's mistakes, in turn) with ``--jobs 1`` and
``--jobs 2``, and what one submission costs: starting a kernel, running the
notebook, and the checks.
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scripts"))
from make_submissions import POS_ENCODING_KINDS, make_notebook, write_submissions  # noqa: E402

from posenc_lib.exercise._kernel import CurrentEnvKernelManager  # noqa: E402

KINDS = (*POS_ENCODING_KINDS, "added-to-table")
COUNT = 100


def _grade(folder, out, jobs):
    command = [sys.executable, "-m", "posenc_lib", "grade", str(folder), "--out",
               str(out), "--jobs", str(jobs)]  # fmt: skip
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - started


def _one_submission_costs():
    """Seconds to start a kernel, run the right notebook, and run the checks."""
    nb = make_notebook("right")
    with tempfile.TemporaryDirectory() as folder:
        client = NotebookClient(
            nb, kernel_manager_class=CurrentEnvKernelManager, timeout=60,
            resources={"metadata": {"path": folder}},
        )  # fmt: skip
        started = time.perf_counter()
        with client.setup_kernel(cwd=folder):
            kernel = time.perf_counter()
            for index, cell in enumerate(nb.cells):
                client.execute_cell(cell, index)
            notebook = time.perf_counter()
            check = nbformat.v4.new_code_cell(
                "from posenc_lib.exercise.grading import report_task\n"
                "[report_task(t, globals())['passed'] for t in "
                "('lookup', 'pos_encoding', 'sinusoidal_positions')]"
            )
            nb.cells.append(check)
            client.execute_cell(check, len(nb.cells) - 1)
            checks = time.perf_counter()
    return kernel - started, notebook - kernel, checks - notebook


def main():
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "class"
        write_submissions(folder, KINDS, COUNT)
        costs = [_one_submission_costs() for _ in range(3)]
        times = {
            jobs: _grade(folder, Path(tmp) / f"out{jobs}", jobs) for jobs in (1, 2)
        }
    kernel, notebook, checks = (sorted(c)[1] for c in zip(*costs, strict=True))
    lines = [
        "# Grading a class: measured by `make bench-grading`",
        "",
        f"{COUNT} generated submissions of chapter 05 (the right answer and each of "
        "chapter 04's mistakes, in turn), graded by `posenc grade` on this "
        f"{os.cpu_count()}-core machine (wall clock, one run each).",
        "",
        "| jobs | total | per submission |",
        "|---:|---:|---:|",
        *(f"| {j} | {t:.1f} s | {t / COUNT:.2f} s |" for j, t in times.items()),
        "",
        "One submission, median of 3 (seconds):",
        "",
        "| start a kernel | run the notebook | run the three checks |",
        "|---:|---:|---:|",
        f"| {kernel:.2f} | {notebook:.2f} | {checks:.2f} |",
        "",
        "Each submission gets a fresh worker process and kernel: nothing of one "
        "learner's run can leak into the next. What is shared is what is safe to "
        "share: the interpreter's installed packages and the operating system's file "
        "cache, so later kernels start faster than the first.",
    ]
    (HERE / "grading.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
