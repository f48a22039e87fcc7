"""Grading a class, for lecturers: ``posenc grade`` and the functions behind it.

This room is the lecturer's, not the learner's: nothing that a learner imports
(``posenc_lib``, :mod:`posenc_lib.exercise`, :mod:`posenc_lib.figures`) imports
it. It runs each learner's copy of chapter 03 in a kernel of its own, in a box
of its own (bubblewrap), and writes one CSV and a feedback page per learner; the
verdicts come from the exercise checkers' own judge
(:func:`posenc_lib.exercise.checkers.judge`), run in the grader's process on the
reports of what the learner's functions did in their kernel.

What is where:

- :mod:`~posenc_tools.grading.grader`: :func:`grade`, :func:`merge`, the CSV and
  the feedback pages;
- :mod:`~posenc_tools.grading.limits`: the graded tasks and :class:`Limits`;
- :mod:`~posenc_tools.grading.submissions`: a readable, unique learner per file;
- :mod:`~posenc_tools.grading.cli`: the ``posenc grade`` command line;
- :mod:`~posenc_tools.kernel`: kernels of this Python, shared with
  ``posenc_tools.run_notebooks``;
- :mod:`~posenc_tools.grading.box`: the box around each learner's kernel, and
  ``_stub/``, the stand-in ``posenc_lib`` the box offers;
- :mod:`~posenc_tools.grading.verdicts`: the kernel's cell that reports the
  learner's calls, and the verdict the grader decides from the reports;
- ``_workers.py`` (the grader's side) and ``_grade_worker.py`` (the worker
  process): one worker per job, each learner in a fresh kernel.

The grader's names are loaded when first used, so ``posenc run`` (whose
argument parser knows ``posenc grade``) never imports the grader:

>>> from posenc_tools.grading import TASKS
>>> TASKS
('lookup', 'pos_encoding', 'sinusoidal_positions')
"""

import importlib

__all__ = [
    "COLUMNS",
    "TASKS",
    "Limits",
    "find_submissions",
    "grade",
    "merge",
    "parse_shard",
    "write_csv",
]

_HOMES = {"TASKS": "limits", "Limits": "limits"}


def __getattr__(name):
    """Import a public name's module on first use (PEP 562)."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f".{_HOMES.get(name, 'grader')}", __name__)
    return getattr(module, name)


def __dir__():
    return sorted(__all__)
