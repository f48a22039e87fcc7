"""How long each chapter takes, computed from the notebook itself (one rule).

Two times per chapter, in minutes, each rounded up to a multiple of 5:

* **read and run**: the prose at :data:`WORDS_PER_MINUTE`, plus
  :data:`MINUTES_PER_CODE_CELL` for each code cell (run it, read its output)
  and :data:`MINUTES_PER_PREDICTION` for each prediction (write it down, then
  compare);
* **with the exercises**: that, plus :data:`MINUTES_PER_EXERCISE` for each
  numbered item under the chapter's ``## Exercises`` heading.

What is counted: the words of every markdown cell (any run of characters
between white space, math included), every code cell that is not empty, every
``Predict`` of the prose (``**Predict.**``, ``Predict:`` and ``Predict before
you run``), and the exercises' numbered items.

The four constants were calibrated once against a careful learner's times
(issue 26: predictions written down, exercises attempted, chapter by chapter
01 to 07: 50-55, 55-60, 100-120, 70-80, 45-60, 45-50 and 60-75 minutes).
No linear rule meets all seven: chapter 03's exercises are proofs and take
longer than the rule's 4 minutes, so the rule said 95 where a careful learner
needed 100 to 120 (on the 98-cell chapter of that reading; for the shorter chapter
it says 90); every other chapter is within 10 minutes of its range
(02 comes out 10 above it, 01 and 06 5 above, 06 having grown a section since,
and 04, 05 and 07 inside it).

``python -m posenc_tools.chapter_times`` prints the table the index notebook and the
README show; ``tests/test_chapter_times.py`` fails if they drift from it.

Examples
--------
>>> minutes(words=1000, code_cells=10, predictions=2, exercises=3)
(20, 30)
"""

import math
import re
import sys

import nbformat

from posenc_tools import ROOT

__all__ = [
    "CHAPTERS",
    "MINUTES_PER_CODE_CELL",
    "MINUTES_PER_EXERCISE",
    "MINUTES_PER_PREDICTION",
    "WORDS_PER_MINUTE",
    "chapter_times",
    "counts",
    "minutes",
]

WORDS_PER_MINUTE = 100  # technical prose with formulas, read carefully
MINUTES_PER_CODE_CELL = 0.5
MINUTES_PER_PREDICTION = 1.5
MINUTES_PER_EXERCISE = 4

NOTEBOOKS = ROOT / "notebooks"
CHAPTERS = tuple(sorted(p.name for p in NOTEBOOKS.glob("0[1-9]_*.ipynb")))

_PREDICTION = re.compile(r"\bPredict\b")
_EXERCISE_ITEM = re.compile(r"^\d+\. ", re.MULTILINE)


def _exercises(text):
    """The numbered items after ``## Exercises`` in one markdown cell's text."""
    match = re.search(r"^## Exercises\b", text, re.MULTILINE)
    if match is None:
        return 0
    rest = text[match.end() :]
    following = re.search(r"^#", rest, re.MULTILINE)  # up to the next heading
    return len(_EXERCISE_ITEM.findall(rest[: following.start()] if following else rest))


def counts(path):
    """``{"words", "code_cells", "predictions", "exercises"}`` of one notebook."""
    cells = nbformat.read(path, as_version=4).cells
    prose = [c.source for c in cells if c.cell_type == "markdown"]
    return {
        "words": sum(len(text.split()) for text in prose),
        "code_cells": sum(
            1 for c in cells if c.cell_type == "code" and c.source.strip()
        ),
        "predictions": sum(len(_PREDICTION.findall(text)) for text in prose),
        "exercises": sum(_exercises(text) for text in prose),
    }


def _up_to_5(value):
    return 5 * math.ceil(value / 5 - 1e-9)


def minutes(*, words, code_cells, predictions, exercises):
    """``(read and run, with the exercises)`` in minutes, multiples of 5."""
    read = (
        words / WORDS_PER_MINUTE
        + code_cells * MINUTES_PER_CODE_CELL
        + predictions * MINUTES_PER_PREDICTION
    )
    return _up_to_5(read), _up_to_5(read + exercises * MINUTES_PER_EXERCISE)


def chapter_times(path):
    """``(read and run, with the exercises)`` of the notebook at ``path``."""
    return minutes(**counts(path))


def main():
    total = [0, 0]
    for name in CHAPTERS:
        found = counts(NOTEBOOKS / name)
        read, whole = minutes(**found)
        total = [total[0] + read, total[1] + whole]
        numbers = ", ".join(f"{value} {key}" for key, value in found.items())
        print(f"{name[:2]}  {read:3d} min  {whole:3d} min   ({numbers})")
    print(f"all {total[0]:4d} min  {total[1]:3d} min")


if __name__ == "__main__":
    sys.exit(main())
