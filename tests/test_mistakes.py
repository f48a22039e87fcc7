"""posenc_lib.mistakes: each record is whole, and its mistake does what it says.

Every test reads the records, so a new mistake is tested without an edit here;
a piece missing fails with a sentence naming the file and what to add.
"""

import math
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
from reference import refused

from posenc_lib.exercise import check_lookup, check_pos_encoding
from posenc_lib.mistakes import CHAPTER, MISTAKES, RIGHT

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / CHAPTER
RECORD = "posenc_lib/mistakes.py"
CHECK = {"pos_encoding": check_pos_encoding, "lookup": check_lookup}


def _headings():
    """The "## " headings of chapter 05, in order."""
    cells = nbformat.read(NOTEBOOK, as_version=4).cells
    return [
        line[3:].strip()
        for cell in cells
        if cell.cell_type == "markdown"
        for line in cell.source.splitlines()
        if line.startswith("## ")
    ]


@pytest.mark.parametrize("mistake", MISTAKES.values(), ids=list(MISTAKES))
def test_each_record_is_whole(mistake):
    where = f"{RECORD}, the record of {mistake.id!r}"
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", mistake.id), f"{where}: an id"
    assert mistake.task in RIGHT, f"{where}: task must be one of {list(RIGHT)}"
    count = RIGHT[mistake.task].count(mistake.right_line)
    assert count == 1, (
        f"{where}: right_line must be one line of RIGHT[{mistake.task!r}]"
    )
    assert "\n" not in mistake.wrong_line and mistake.wrong_line != mistake.right_line
    assert mistake.source.count(mistake.wrong_line) == 1
    how = {"answers"} | ({"view"} if mistake.task == "lookup" else set())
    assert mistake.recognised_by in how, f"{where}: recognised_by must be in {how}"
    assert mistake.bullet in (None, 1, 2, 3, 4, 5), f"{where}: bullet 1 to 5, or None"


def test_each_mistake_has_its_section_in_chapter_05_in_order():
    headings = [h.split(":")[0] for h in _headings()]
    for number, mistake in enumerate(MISTAKES.values(), start=1):
        section = mistake.section  # its number, then its id
        assert section in headings, (
            f"notebooks/{CHAPTER} has no section '## {section}: ...' for the mistake "
            f"{mistake.id!r} of {RECORD}: add it after section {number - 1} (what the "
            "mistake breaks, and a number that shows it), then `make notebook "
            f"NB=notebooks/{CHAPTER}`."
        )
    numbered = [h for h in headings if re.match(r"\d+\. `", h)]
    extra = sorted(set(numbered) - {m.section for m in MISTAKES.values()})
    assert not extra, (
        f"notebooks/{CHAPTER} has sections {extra} with no record in {RECORD}"
    )


def test_chapter_05s_stored_map_and_checker_list_every_mistake():
    outputs = " ".join(
        output.get("text", "") + output.get("data", {}).get("text/markdown", "")
        for cell in nbformat.read(NOTEBOOK, as_version=4).cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
    )
    for mistake in MISTAKES:
        assert f"named as: {mistake}" in outputs and f"| `{mistake}` |" in outputs, (
            f"notebooks/{CHAPTER}'s stored outputs do not show {mistake!r}: run "
            f"`make notebook NB=notebooks/{CHAPTER}`."
        )


def test_chapter_05s_summary_names_every_mistake():
    cells = nbformat.read(NOTEBOOK, as_version=4).cells
    summary = next(c.source for c in cells if c.source.startswith("## Summary"))
    missing = [m for m in MISTAKES if f"`{m}`" not in summary]
    assert not missing, (
        f"notebooks/{CHAPTER}'s Summary does not name {missing}: add them"
    )


@pytest.mark.parametrize("mistake", MISTAKES.values(), ids=list(MISTAKES))
def test_the_checker_names_each_mistake_with_its_record(mistake):
    result = CHECK[mistake.task](mistake)
    assert result.mistake == mistake.id, (
        f"the checker does not tell {mistake.id!r} from the others: add a case to the "
        f"checker's bank (posenc_lib/exercise/checkers.py) where its answer differs."
    )
    assert mistake.explanation in result.message
    assert f"Your code probably has: {mistake.wrong_line}" in result.message


# -- the lesson's six, against plain math (an extra check, not required of a new one)


def by_formula(pos, d, *, exponent, even, odd, divisor=lambda x: x):
    """One row built from the pieces of the formula, with plain math."""
    angles = [pos / divisor(10000 ** exponent(k, d)) for k in range(d)]
    return [(odd if k % 2 else even)(angle) for k, angle in enumerate(angles)]


def right_exponent(k, d):
    return 2 * (k // 2) / d


REFERENCES = {
    "k-instead-of-pair": dict(
        exponent=lambda k, d: 2 * k / d, even=math.sin, odd=math.cos
    ),
    "swapped-sin-cos": dict(exponent=right_exponent, even=math.cos, odd=math.sin),
    "sine-only": dict(exponent=right_exponent, even=math.sin, odd=math.sin),
    "integer-division": dict(exponent=lambda k, d: 0, even=math.sin, odd=math.cos),
    "integer-power": dict(
        exponent=right_exponent, even=math.sin, odd=math.cos, divisor=int
    ),
}


@pytest.mark.parametrize("mistake", REFERENCES)
@pytest.mark.parametrize(("pos", "d"), [(0, 2), (3, 4), (1, 6), (10, 6), (37, 16)])
def test_each_mistake_matches_its_plain_math_reference(mistake, pos, d):
    got = MISTAKES[mistake](pos, d)
    assert got.shape == (d,)
    expected = by_formula(pos, d, **REFERENCES[mistake])
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


REJECTED = {  # every pos_encoding mistake checks its arguments by one function
    "MISTAKES['sine-only'](-1, 4)": "ValueError: pos == -1, must be an integer >= 0.",
    "MISTAKES['integer-power'](1, 3)": (
        "ValueError: d == 3, must be an even integer >= 2."
    ),
    "MISTAKES['k-instead-of-pair'](1.5, 4)": (
        "TypeError: pos == 1.5 (float), must be an integer >= 0."
    ),
    "MISTAKES['added-to-table'](np.zeros((2, 4)), -1)": (
        "ValueError: token_id == -1, must be in [0, 2), i.e. 0 <= token_id < "
        "vocab_size."
    ),
}


@pytest.mark.parametrize("call", REJECTED)
def test_mistakes_reject_bad_input_like_the_library(call):
    assert refused(call, globals()) == REJECTED[call]
