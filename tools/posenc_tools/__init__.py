"""The course's own tools, for lecturers and maintainers (not the learner's package).

- :mod:`~posenc_tools.grading`: ``posenc grade``, a class's exercise notebooks
  graded, each learner's kernel in a box of its own;
- :mod:`~posenc_tools.run_notebooks`: ``make notebooks``, every notebook run and
  stored with normalised outputs;
- :mod:`~posenc_tools.chapter_times`: each chapter's time, by one rule;
- :mod:`~posenc_tools.make_exercise`: the learner's exercise and the live
  lecture, generated from their solved versions;
- :mod:`~posenc_tools.build_site`, :mod:`~posenc_tools.build_slides`,
  :mod:`~posenc_tools.build_pdf`: the offline web edition, slides and PDF;
- :mod:`~posenc_tools.make_submissions`: generated submissions, for the
  grader's tests and benchmark.

They work in a clone of the course: :data:`ROOT` is its top folder.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The course's folder (this package lies in its ``tools/``)."""
