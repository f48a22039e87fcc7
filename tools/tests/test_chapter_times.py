"""The chapters' two times, in the index and the README, are what the rule gives."""

import re

import nbformat
import pytest
from posenc_tools import ROOT
from posenc_tools.chapter_times import (
    CHAPTERS,
    NOTEBOOKS,
    chapter_times,
    counts,
    minutes,
)

_ROW = re.compile(r"^\| (0[1-9]) \|.*\| (\d+) min \| (\d+) min \|$", re.MULTILINE)


def _stated(text):
    return {number: (int(a), int(b)) for number, a, b in _ROW.findall(text)}


def _computed():
    return {name[:2]: chapter_times(NOTEBOOKS / name) for name in CHAPTERS}


def test_the_index_states_the_times_the_notebooks_give():
    index = nbformat.read(NOTEBOOKS / "00_index.ipynb", as_version=4)
    text = "\n".join(c.source for c in index.cells if c.cell_type == "markdown")
    assert _stated(text) == _computed()


def test_the_readme_states_the_times_the_notebooks_give():
    assert _stated((ROOT / "README.md").read_text(encoding="utf-8")) == _computed()


def test_every_chapter_is_counted():
    assert [name[:2] for name in CHAPTERS] == [f"0{n}" for n in range(1, 8)]
    for name in CHAPTERS:
        found = counts(NOTEBOOKS / name)
        assert found["words"] > 1000 and found["code_cells"] > 10, name
        assert found["exercises"] >= 4, name  # each chapter ends with exercises


def test_the_counts_of_one_chapter():
    found = counts(NOTEBOOKS / "03_why_sines.ipynb")
    assert (found["predictions"], found["exercises"]) == (8, 7)


@pytest.mark.parametrize(
    ("numbers", "expected"),
    [
        ({"words": 0, "code_cells": 0, "predictions": 0, "exercises": 0}, (0, 0)),
        ({"words": 100, "code_cells": 0, "predictions": 0, "exercises": 0}, (5, 5)),
        ({"words": 500, "code_cells": 0, "predictions": 0, "exercises": 1}, (5, 10)),
        ({"words": 1000, "code_cells": 10, "predictions": 2, "exercises": 3}, (20, 30)),
    ],
)
def test_the_rule_rounds_up_to_five_minutes(numbers, expected):
    assert minutes(**numbers) == expected


def test_the_course_takes_about_8_hours_with_its_exercises():
    total = [sum(times) for times in zip(*_computed().values(), strict=True)]
    assert 300 <= total[0] <= 360 and 450 <= total[1] <= 510  # 5-6 h, 7.5-8.5 h
