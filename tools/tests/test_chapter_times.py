"""The time rule, its calibration, and the times written where they are quoted."""

import nbformat
import pytest
from posenc_tools import chapter_times
from posenc_tools.chapter_times import minutes, sections

new_markdown, new_code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell


def test_the_calibrating_chapter_takes_what_its_learner_took():
    """Chapter 03 as its learners read it (issues 26 and 34): 100 to 120 minutes."""
    reading = minutes(words=2988, code_cells=36, predictions=8, tasks=0)
    exercises = minutes(words=0, code_cells=0, predictions=0, tasks=7)
    assert 100 <= reading + exercises <= 120


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ({"words": 0, "code_cells": 0, "predictions": 0, "tasks": 0}, 0),
        ({"words": 750, "code_cells": 0, "predictions": 0, "tasks": 0}, 10),
        ({"words": 0, "code_cells": 3, "predictions": 1, "tasks": 1}, 9),
    ],
    ids=["nothing", "750 words", "cells, a prediction and a task"],
)
def test_the_rule(counts, expected):
    assert minutes(**counts) == expected


def test_sections_split_at_headings_and_exercises_count_apart():
    nb = nbformat.v4.new_notebook(
        cells=[
            new_markdown("# 09 · Title\n\nintro " + "word " * 148),
            new_markdown("## Setup"),
            new_code("import numpy"),
            new_markdown("## Extra (optional)\n\n**Predict.** ..."),
            new_markdown("## Summary\n\nsaid.\n\n## Exercises\n\n1. one\n2. two"),
        ]
    )
    found = [(h, core, m, x) for h, core, m, x, _ in sections(nb, "09")]
    assert found == [
        ("Setup", True, 3, 0),
        ("Extra (optional)", False, 2, 0),
        ("Summary", True, 0, 10),
    ]
    assert all(not core for _, core, *_ in sections(nb, "06"))  # an optional chapter


def test_the_times_written_in_the_course_are_the_rules():
    assert chapter_times.stale() == [], (
        "the times quoted are stale: python -m posenc_tools.chapter_times --write "
        "(make notebook and make notebooks write them too)"
    )


def test_the_core_path_takes_at_most_90_minutes():
    total = 0
    for notebook in sorted(chapter_times.NOTEBOOKS.glob("0[1-9]_*.ipynb")):
        nb = nbformat.read(notebook, as_version=4)
        total += sum(m for _, core, m, _, _ in sections(nb, notebook.name[:2]) if core)
    assert total <= 90, (
        f"the core path takes {total} minutes by the rule: cut words, or end a "
        "section's heading with (optional)"
    )
