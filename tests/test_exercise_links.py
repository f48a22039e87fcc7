"""Every chapter's exercises link to their worked answer and can be done in place.

Each numbered exercise under a chapter's ``## Exercises`` links to
``answers/NN_answers.ipynb#Exercise-N``, a heading that answers notebook has;
and every library function an exercise names in backticks is imported by the
chapter, so the learner can call it in the chapter's kernel.
"""

import re
from pathlib import Path

import nbformat
import pytest

import posenc_lib
import posenc_lib.figures
import posenc_lib.properties

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CHAPTERS = sorted(p.name for p in NOTEBOOKS.glob("0[1-9]_*.ipynb"))
LIBRARY = (
    set(posenc_lib.__all__)
    | set(posenc_lib.figures.__all__)
    | set(posenc_lib.properties.__all__)
)


def _exercises(name):
    """The numbered items of the chapter's ``## Exercises``, by number."""
    cells = nbformat.read(NOTEBOOKS / name, as_version=4).cells
    text = next(c.source for c in cells if "## Exercises" in c.source)
    part = text.split("## Exercises", 1)[1]
    items = re.split(r"(?m)^(?=\d+\. )", part)[1:]
    return {int(item.split(".", 1)[0]): item for item in items}


def _imported(name):
    cells = nbformat.read(NOTEBOOKS / name, as_version=4).cells
    code = "\n".join(c.source for c in cells if c.cell_type == "code")
    return set(re.findall(r"\b\w+\b", code))


@pytest.mark.parametrize("name", CHAPTERS)
def test_each_exercise_links_to_its_answer(name):
    answers = NOTEBOOKS / "answers" / f"{name[:2]}_answers.ipynb"
    headings = {
        line.strip()
        for c in nbformat.read(answers, as_version=4).cells
        for line in c.source.splitlines()
        if line.startswith("## ")
    }
    for number, item in _exercises(name).items():
        link = f"(answers/{name[:2]}_answers.ipynb#Exercise-{number})"
        assert link in item, (name, number)
        assert f"## Exercise {number}" in headings, (name, number)


@pytest.mark.parametrize("name", CHAPTERS)
def test_each_function_an_exercise_names_is_imported(name):
    imported = _imported(name)
    for number, item in _exercises(name).items():
        named = {word for word in re.findall(r"`(\w+)[(`]", item) if word in LIBRARY}
        assert named <= imported, (name, number, named - imported)
