"""Sentences and the outputs under them never disagree (issue: wavelength bounds).

A markdown cell that states a wavelength bound (the longest, the last, up to ...) as a
number must be followed, before the next heading, by a code cell whose stored output
prints that same number; and the
longest wavelength, wherever a chapter prints it, is 2π·10000^((d_model − 2)/d_model),
not 10000·2π.
"""

import re
from pathlib import Path

import nbformat
import pytest

from posenc_lib import wavelengths

NOTEBOOKS = sorted(
    p
    for p in (Path(__file__).resolve().parent.parent / "notebooks").rglob("*.ipynb")
    if ".ipynb_checkpoints" not in p.parts
)
NUMBER = re.compile(r"(?<![\w.^])(\d{1,3}(?:,\d{3})+|\d{4,}(?:\.\d+)?)(?![\w^])")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _sentences(text):
    """Statements (not questions) that mention a wavelength, LaTeX ``{,}`` read."""
    sentences = SENTENCE_END.split(text.replace("{,}", ","))
    return [
        s
        for s in sentences
        if "wavelength" in s.lower() and not s.rstrip().endswith("?")
    ]


BOUND = re.compile(r"longest|slowest|largest|\blast\b|up to|short of", re.IGNORECASE)


def _stated_wavelengths(text):
    """Numbers of 1,000 or more in statements of a wavelength bound."""
    found = []
    for sentence in filter(BOUND.search, _sentences(text)):
        if "10000" in sentence.replace(",", "") and "2π" in sentence:
            sentence = sentence.replace("10000", "")  # the base, not a bound
        found += [n for n in NUMBER.findall(sentence) if n.replace(",", "") != "10000"]
    return found


def _printed(cell):
    texts = []
    for output in cell.get("outputs", []):
        texts.append(output.get("text", ""))
        texts.append(output.get("data", {}).get("text/plain", ""))
    return "".join(texts)


def _cases():
    for path in NOTEBOOKS:
        cells = nbformat.read(path, as_version=4).cells
        for index, cell in enumerate(cells):
            if cell.cell_type != "markdown":
                continue
            for number in _stated_wavelengths(cell.source):
                yield pytest.param(
                    path, index, number, id=f"{path.stem}-{index}-{number}"
                )


def _numbers(text):
    return [float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*\.?\d*", text)]


@pytest.mark.parametrize("path, index, number", list(_cases()))
def test_a_stated_wavelength_is_printed_in_the_chapter(path, index, number):
    """The number is printed by a code cell; "below N" is a bound just above one."""
    cells = nbformat.read(path, as_version=4).cells
    printed = "".join(_printed(cell) for cell in cells if cell.cell_type == "code")
    if number in printed or number.replace(",", "") in printed:
        return
    value = float(number.replace(",", ""))
    sentence = next(s for s in _sentences(cells[index].source) if number in s)
    assert re.search(r"below|under", sentence), (
        f"{path.name} cell {index} states the wavelength {number}, but no code "
        f"cell prints it: {sentence.strip()!r}"
    )
    assert any(0.9 * value <= x < value for x in _numbers(printed)), (
        f"{path.name} cell {index}: {sentence.strip()!r} is not a bound just above "
        "any printed wavelength"
    )


UP_TO_THE_BASE = re.compile(
    r"(up to|towards?|to almost|to just below)\W[^!?]*"
    r"(10000\s*(\\cdot|·)\s*2\s*\\?(pi|π)|62,832)"
)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_chapter_says_wavelengths_reach_10000_two_pi(path):
    """The longest is 2π·10000^((d_model − 2)/d_model): short of 10000·2π."""
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "markdown":
            for sentence in _sentences(cell.source):
                exact = "short of" in sentence or "never reach" in sentence
                assert exact or not UP_TO_THE_BASE.search(sentence), (
                    f"{path.name}: {sentence.strip()!r}: state the longest "
                    "wavelength exactly, 2π·10000^((d_model − 2)/d_model)"
                )


@pytest.mark.parametrize("d_model", [4, 16, 64, 512])
def test_the_longest_wavelength_is_just_short_of_10000_two_pi(d_model):
    import math

    longest = 2 * math.pi * 10000 ** ((d_model - 2) / d_model)
    assert wavelengths(d_model)[-1] == pytest.approx(longest, rel=1e-12)
    assert wavelengths(d_model)[-1] < 10000 * 2 * math.pi
