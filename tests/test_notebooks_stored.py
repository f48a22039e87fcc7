"""Guards on the stored notebooks that nbval (blind to cleared outputs, PNGs and
widgets) does not give: each was run by ``make notebooks``, keeps the rules for
tags and outputs, and its prose states only what its outputs show."""

import base64
import functools
import json
import re
import struct
from pathlib import Path

import pytest

from posenc_lib.figures.style import STYLES, colour_words

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(
    path
    for path in NOTEBOOK_DIR.rglob("*.ipynb")
    if ".ipynb_checkpoints" not in path.parts
)
CHAPTERS = sorted(NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
IGNORE = "nbval-ignore-output"  # nbval's cell tag
TIME_PLACEHOLDER = "[time]"  # what posenc_tools.run_notebooks writes for a timing
ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: what no stored output may show (after ANSI colour codes are removed)
FORBIDDEN = {
    "a memory address": re.compile(r"0x[0-9a-fA-F]{6,}"),
    # numpy 2 prints np.float64(0.5) where numpy 1 printed 0.5, and nbval would
    # fail under the oldest numpy: setup_notebook, or float/bool, prints it as 1 did
    "a numpy-2 scalar repr": re.compile(
        r"\bnp\.(float|int|uint|complex)\d+\(|\bnp\.(True|False)_"
    ),
    # /home/me/..., C:\\Users\\... (a traceback through the library reads
    # [repo]/posenc_lib/...); a URL's "//host/..." and a ratio's "1/2" are not one
    "an absolute path": re.compile(
        r"(?<![\w:/.~\]-])/(?:[\w.+-]+/)+[\w.+-]*|\b[A-Z]:\\\\?\w"
    ),
}
TOOL_COMMENT = re.compile(r"#\s*(NBVAL_\w+|noqa\b|no output:|fmt:)")
#: a relative link to a file (a notebook, the library's source)
LINK = re.compile(r"\]\((?![a-z]+:)([^)\s#]+\.\w+)(?:#[^)]*)?\)")


def _name(path):
    return str(path.relative_to(NOTEBOOK_DIR))


@functools.cache
def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def _source(cell):
    return "".join(cell["source"])


def _code_cells(nb):
    """(index, cell) of every non-empty code cell."""
    return [
        (index, cell)
        for index, cell in enumerate(nb["cells"])
        if cell["cell_type"] == "code" and _source(cell).strip()
    ]


def _tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def _texts(output):
    """Every piece of text in one output."""
    texts = ["".join(output.get("text", "")), *output.get("traceback", [])]
    texts.append(output.get("evalue", ""))
    for mime, value in output.get("data", {}).items():
        if mime.startswith("text/"):
            texts.append("".join(value))
    return texts


def _has_widget(cell):
    return any(WIDGET_MIME in out.get("data", {}) for out in cell.get("outputs", []))


def _png_text_keys(png):
    """Keywords of the tEXt/iTXt/zTXt chunks of a PNG, and whether it has tIME."""
    keys, offset = [], 8
    while offset < len(png):
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        kind = png[offset + 4 : offset + 8]
        if kind in (b"tEXt", b"iTXt", b"zTXt", b"tIME"):
            keys.append(png[offset + 8 : offset + 8 + length].split(b"\0")[0])
        offset += 12 + length
    return keys


notebook = pytest.mark.parametrize("path", NOTEBOOKS, ids=_name)


def test_there_are_notebooks():
    assert CHAPTERS, f"no chapters NN_topic.ipynb in {NOTEBOOK_DIR}"


@notebook
def test_every_code_cell_was_executed_in_order_and_normalised(path):
    nb = _load(path)
    cells = _code_cells(nb)
    counts = [cell["execution_count"] for _, cell in cells]
    assert counts == list(range(1, len(cells) + 1)), (
        f"{_name(path)}: execution counts {counts}; re-run `make notebooks`"
    )
    for index, cell in cells:
        # a lecture_live.ipynb cell left for the lecturer to type: only its prompt
        source = _source(cell).strip()
        live_blank = "live" in _tags(cell) and "\n" not in source
        if not cell["outputs"]:
            assert "no-output" in _tags(cell) or (live_blank and source[:2] == "# "), (
                f"{_name(path)} cell {index} has no output: show a value, or tag"
                f" the cell no-output.\n{source}"
            )
    assert "widgets" not in nb["metadata"], f"{_name(path)}: metadata.widgets"
    for index, cell in enumerate(nb["cells"]):
        metadata = cell.get("metadata", {})
        assert not {"execution", "ExecuteTime"} & set(metadata), (
            f"{_name(path)} cell {index}: timestamps"
        )


@notebook
def test_outputs_show_no_address_numpy_2_repr_path_stderr_or_png_stamp(path):
    """Errors only in cells tagged raises-exception, each of which raised."""
    for index, cell in _code_cells(_load(path)):
        where, tagged = f"{_name(path)} cell {index}", "raises-exception" in _tags(cell)
        for output in cell["outputs"]:
            text = ANSI.sub("", "\n".join(_texts(output)))
            for what, pattern in FORBIDDEN.items():
                assert not pattern.findall(text), f"{where} shows {what}: {text}"
            assert tagged or output.get("name") != "stderr", (
                f"{where} wrote to stderr: {text}"
            )
            png = output.get("data", {}).get("image/png")
            keys = _png_text_keys(base64.b64decode("".join(png))) if png else []
            assert not keys, (
                f"{where}: PNG metadata {keys}; call"
                " posenc_lib.figures.style.setup_notebook() in the Setup cell"
            )
        raised = any(out["output_type"] == "error" for out in cell["outputs"])
        assert raised == tagged, f"{where} " + (
            "stored an error but is not tagged raises-exception"
            if raised
            else "is tagged raises-exception but raised nothing"
        )


@notebook
def test_tags_not_markers_and_only_widgets_and_timings_unchecked(path):
    """Only a widget or a timing goes unchecked; a widget cell is followed by an
    ordinary cell checking the function behind it."""
    cells = _code_cells(_load(path))
    for position, (index, cell) in enumerate(cells):
        where, source = f"{_name(path)} cell {index}", _source(cell)
        found = TOOL_COMMENT.search(source)
        assert not found, (
            f"{where}: {found.group(0)!r}; use cell tags (nbval-ignore-output, "
            "raises-exception, no-output) or the lint configuration in "
            "pyproject.toml instead"
        )
        assert not {"nbval-skip", "nbval-check-output"} & set(_tags(cell)), (
            f"{where}: every output is checked; tag errors raises-exception"
        )
        texts = [text for out in cell["outputs"] for text in _texts(out)]
        timing = any(TIME_PLACEHOLDER in text for text in texts)
        assert IGNORE not in _tags(cell) or _has_widget(cell) or timing, (
            f"{where}: {IGNORE} on a cell that shows neither a widget nor a "
            "timing; its output must be checked"
        )
        if not (_has_widget(cell) or re.search(r"\binteract(ive)?\(", source)):
            continue
        assert IGNORE in _tags(cell), f"{where}: widget, no {IGNORE}"
        assert position + 1 < len(cells), f"{_name(path)}: widget cell is the last"
        _, check = cells[position + 1]
        assert IGNORE not in _tags(check) and not _has_widget(check), (
            f"{where}: the cell after a widget must be an ordinary cell that "
            "checks the function behind it"
        )
        assert check["outputs"], f"{_name(path)}: the check after {where} shows nothing"


@pytest.mark.parametrize("path", CHAPTERS, ids=_name)
def test_chapters_link_to_previous_and_next(path):
    title = next(c for c in _load(path)["cells"] if c["cell_type"] == "markdown")
    links = set(LINK.findall(_source(title)))
    number = CHAPTERS.index(path)
    for neighbour in CHAPTERS[max(0, number - 1) : number + 2]:
        assert neighbour == path or neighbour.name in links, (
            f"{_name(path)}: the title cell does not link to {neighbour.name}"
        )


@notebook
def test_links_open_a_file_that_make_lab_serves(path):
    """A link names a file in the folder ``make lab`` serves (its root_dir)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    (root,) = re.findall(r"--ServerApp\.root_dir=(\S+)", makefile)
    root = (ROOT / root).resolve()
    for cell in _load(path)["cells"]:
        for target in (
            LINK.findall(_source(cell)) if cell["cell_type"] == "markdown" else []
        ):
            resolved = (path.parent / target).resolve()
            assert resolved.is_file(), f"{_name(path)}: broken link {target}"
            assert resolved.is_relative_to(root), (
                f"{_name(path)}: {target} lies outside the folder make lab serves"
                f" ({root})"
            )


# a number with a decimal point (0.1411, -1.49, 47,117.5), or of three digits or
# more (47,117, 512); not part of a word, a LaTeX command or a path
NUMBER = re.compile(
    r"(?<![\w.,/\\])-?(?:\d{1,3}(?:,\d{3})+|\d+)\.\d+(?![\d])"
    r"|(?<![\w.,/\\-])\d{1,3}(?:,\d{3})+(?![\d,])"
    r"|(?<![\w.,/\\])\d{3,}(?![\w.,])"
)
TIMES = re.compile(r"<!-- times -->.*?<!-- /times -->", re.DOTALL)
POWER_BASE = re.compile(r"\d+(?=\^)")  # 10000^{2i/d}: the formula's notation
WORDS = "three four five six seven eight nine ten eleven twelve".split()
# "one" and "two" read as articles ("one row", "the two columns") more than counts
COUNT = re.compile(r"\b(" + "|".join(WORDS) + r")\b", re.IGNORECASE)


def _shown_values(cells):
    """Every number the stored outputs of ``cells`` show, as floats."""
    text = "\n".join(
        text
        for cell in cells
        if cell["cell_type"] == "code"
        for output in cell.get("outputs", [])
        for text in _texts(output)
    )
    tokens = re.findall(r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e-?\d+)?", text)
    return {float(token.replace(",", "")) for token in tokens}


def _rounds_to(number, values):
    """True if one of ``values`` rounds to ``number`` as the prose writes it."""
    plain = number.replace(",", "")
    decimals = len(plain.partition(".")[2])
    return any(round(value, decimals) == float(plain) for value in values)


def _section(cells, index):
    """The cells of the section holding cell ``index`` (from its ``##`` heading to
    the next); a ``## Summary`` restates the whole chapter up to its end."""
    heads = [i for i, c in enumerate(cells) if _source(c).startswith("## ")]
    start = max((i for i in heads if i <= index), default=0)
    end = next((i for i in heads if i > index), len(cells))
    summary = _source(cells[start]).startswith("## Summary")
    return cells[0 if summary else start : end]


def _unshown(cell, shown):
    """The numbers and counts of a markdown cell that ``shown`` lacks."""
    given = set(cell.get("metadata", {}).get("posenc", {}).get("given", []))
    prose = _source(cell).replace("{,}", ",")  # LaTeX's 47{,}117
    prose = TIMES.sub("", prose)  # the rule's times: tools/tests/test_chapter_times
    prose = POWER_BASE.sub("", prose)
    found = [n for n in NUMBER.findall(prose) if not _rounds_to(n, shown)]
    for word in (m.group(1).lower() for m in COUNT.finditer(prose)):
        if float(WORDS.index(word) + 3) not in shown:
            found.append(word)
    return [number for number in found if number not in given]


@notebook
def test_the_prose_states_only_numbers_the_outputs_show(path):
    """A prose number (with a decimal point, or of three digits or more; it may
    round what an output prints) or count (three to twelve, in words) is shown
    by a stored output of its section, or listed in ``posenc.given``."""
    cells, missing = _load(path)["cells"], []
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":
            shown = _shown_values(_section(cells, index))
            missing += [
                f"cell {index} (id {cell.get('id')}): {number}"
                for number in _unshown(cell, shown)
            ]
    assert missing == [], (
        f"{_name(path)}: numbers in the prose that no stored output of their "
        f"section shows: {missing}. Correct the prose; or make a cell of that "
        "section print the number and re-run the notebook (make notebook "
        f"NB=notebooks/{_name(path)}); or, for a number the lesson or the card "
        "gives, list it in the markdown cell's metadata posenc.given."
    )


COLOURS = "blue red white green orange purple grey gray yellow brown pink black"
# "red for $+1$", "white at 0", "blue -1": a colour named for a value of the scale
COLOUR_AT = re.compile(
    rf"\b({'|'.join(COLOURS.split())})(?: for| at)? \$?([+-−]?[01])\$?(?![\d.])"
)


@notebook
def test_the_colours_the_prose_names_are_the_style_tables(path):
    """The prose and alt texts name the encoding map's colours (COLOUR_WORDS)."""
    claims = []
    for index, cell in enumerate(_load(path)["cells"]):
        texts = [_source(cell)] if cell["cell_type"] == "markdown" else []
        for output in cell.get("outputs", []):
            texts.append(output.get("metadata", {}).get("image/png", {}).get("alt", ""))
        for text in texts:
            for colour, value in COLOUR_AT.findall(" ".join(text.split())):
                claims.append((f"cell {index}", colour, int(value.replace("−", "-"))))
    if not claims:
        return
    words = colour_words("encoding")  # a message if the map has no words yet
    wrong = [
        f"{where} names {colour} for {value:+d}, but the encoding colour map "
        f"{STYLES['encoding'][0]} shows {words[value + 1]} there"
        for where, colour, value in claims
        if colour != words[value + 1]
    ]
    assert not wrong, (
        f"{_name(path)}: {'; '.join(wrong)} (STYLES and COLOUR_WORDS in "
        "posenc_lib/figures/style.py). Change the prose, or re-run the notebook "
        f"(make notebook NB=notebooks/{_name(path)}) for the figures' alt texts."
    )
