"""Guards on the committed notebooks that nbval does not give.

nbval passes a notebook whose outputs were all cleared, never looks at PNGs, and
cannot see inside widgets. These tests read the stored ``.ipynb`` files and fail
when a notebook was not executed and normalised by ``posenc_tools.run_notebooks``
(``make notebooks``), or breaks a rule of the course:

- every non-empty code cell has an execution count and outputs, and the counts
  run 1, 2, 3, ... (one top-to-bottom run). A cell may have no output only
  when it is tagged ``no-output`` (imports, a definition) or is a lecture's
  live blank (tagged ``live``, one comment line: its prompt);
- no memory addresses, no ``metadata.widgets`` state, no execution timestamps,
  no ``Software`` stamp in a PNG, no stderr output;
- errors only in cells tagged ``raises-exception``, and each such cell raised;
- nbval's tag ``nbval-ignore-output`` only on widget cells and timing cells,
  and no comment markers for tools in what a learner reads; each widget cell
  is followed by an ordinary code cell that checks the function behind it;
- every number the prose states (with a decimal point, or of three digits or
  more) and every count in words (three to twelve) is shown by a stored output
  of its section (the cells from its ``##`` heading to the next; a ``##
  Summary`` may restate the whole chapter), or the markdown cell lists it in
  its metadata ``posenc.given`` (a number the lesson or the card gives);
- a colour the prose or an alt text names for -1, 0 or +1 is the one the
  encoding's colour map shows there (``STYLES``, ``COLOUR_WORDS``);
- each numbered chapter's title cell links to the previous and next chapter,
  and every link to a notebook points to a file that exists.
"""

import base64
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
ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
TIME_PLACEHOLDER = "[time]"  # what posenc_tools.run_notebooks writes for a timing
# An absolute path (/home/me/..., C:\\Users\\...) after ANSI colour codes are
# removed: a URL's "//host/..." and a ratio's "1/2" are not one.
ANSI = re.compile(r"\x1b\[[0-9;]*m")
ABSOLUTE_PATH = re.compile(r"(?<![\w:/.~\]-])/(?:[\w.+-]+/)+[\w.+-]*|\b[A-Z]:\\\\?\w")
LINK = re.compile(r"\]\(([^)\s#]+\.ipynb)(?:#[^)]*)?\)")


def _name(path):
    return str(path.relative_to(NOTEBOOK_DIR))


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


def _is_live_blank(cell):
    """A cell of lecture_live.ipynb left for the lecturer to type: only its prompt."""
    source = _source(cell).strip()
    return "live" in _tags(cell) and "\n" not in source and source.startswith("# ")


def _has_widget(cell):
    return any(WIDGET_MIME in out.get("data", {}) for out in cell.get("outputs", []))


def _png_text_keys(png):
    """Keywords of the tEXt/iTXt/zTXt chunks of a PNG, and whether it has tIME."""
    keys, offset = [], 8
    while offset < len(png):
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        kind = png[offset + 4 : offset + 8]
        body = png[offset + 8 : offset + 8 + length]
        if kind in (b"tEXt", b"iTXt", b"zTXt"):
            keys.append(body.split(b"\0", 1)[0].decode("latin-1"))
        if kind == b"tIME":
            keys.append("tIME")
        offset += 12 + length
    return keys


notebook = pytest.mark.parametrize("path", NOTEBOOKS, ids=_name)


def test_there_are_notebooks():
    assert CHAPTERS, f"no chapters NN_topic.ipynb in {NOTEBOOK_DIR}"


@notebook
def test_every_code_cell_was_executed_in_order(path):
    cells = _code_cells(_load(path))
    counts = [cell["execution_count"] for _, cell in cells]
    assert counts == list(range(1, len(cells) + 1)), (
        f"{_name(path)}: execution counts {counts}; re-run `make notebooks`"
    )
    for index, cell in cells:
        if not cell["outputs"]:
            assert "no-output" in _tags(cell) or _is_live_blank(cell), (
                f"{_name(path)} cell {index} has no output: show a value, or tag"
                f" the cell no-output.\n{_source(cell)}"
            )


@notebook
def test_no_memory_addresses_or_stderr(path):
    for index, cell in _code_cells(_load(path)):
        for output in cell["outputs"]:
            for text in _texts(output):
                assert not ADDRESS.search(text), f"{_name(path)} cell {index}: {text}"
            if "raises-exception" not in _tags(cell):
                assert output.get("name") != "stderr", (
                    f"{_name(path)} cell {index} wrote to stderr: {_texts(output)}"
                )


@notebook
def test_no_absolute_paths(path):
    """No stored output names a folder of the machine it ran on (a traceback
    through the library reads ``[repo]/posenc_lib/...``, run_notebooks.py)."""
    for index, cell in _code_cells(_load(path)):
        for output in cell["outputs"]:
            for text in _texts(output):
                found = ABSOLUTE_PATH.findall(ANSI.sub("", text))
                assert not found, f"{_name(path)} cell {index}: {found}"


NUMPY2_SCALAR = re.compile(r"\bnp\.(float|int|uint|complex)\d+\(|\bnp\.(True|False)_")


@notebook
def test_outputs_read_the_same_under_numpy_1_and_2(path):
    """numpy 2 prints ``np.float64(0.5)`` where numpy 1 printed ``0.5``: nbval would
    then fail under the oldest numpy the course supports. ``setup_notebook`` makes
    numpy 2 print as numpy 1 did; a notebook without it converts with float/bool."""
    for index, cell in _code_cells(_load(path)):
        for output in cell["outputs"]:
            for text in _texts(output):
                assert not NUMPY2_SCALAR.search(text), (
                    f"{_name(path)} cell {index} prints a numpy-2 scalar repr: {text}"
                )


@notebook
def test_no_widget_state_or_timestamps(path):
    nb = _load(path)
    assert "widgets" not in nb["metadata"], f"{_name(path)}: metadata.widgets"
    for index, cell in enumerate(nb["cells"]):
        metadata = cell.get("metadata", {})
        assert "execution" not in metadata, f"{_name(path)} cell {index}: timestamps"
        assert "ExecuteTime" not in metadata, f"{_name(path)} cell {index}: timestamps"


@notebook
def test_errors_only_in_cells_tagged_raises_exception(path):
    for index, cell in _code_cells(_load(path)):
        raised = any(out["output_type"] == "error" for out in cell["outputs"])
        tagged = "raises-exception" in _tags(cell)
        problem = (
            "stored an error but is not tagged raises-exception"
            if raised
            else "is tagged raises-exception but raised nothing"
        )
        assert raised == tagged, f"{_name(path)} cell {index} {problem}"


TOOL_COMMENT = re.compile(r"#\s*(NBVAL_\w+|noqa\b|no output:|fmt:)")


@notebook
def test_no_tool_markers_in_the_code_a_learner_reads(path):
    for index, cell in _code_cells(_load(path)):
        found = TOOL_COMMENT.search(_source(cell))
        assert not found, (
            f"{_name(path)} cell {index}: {found.group(0)!r}; use cell tags "
            "(nbval-ignore-output, raises-exception, no-output) or the lint "
            "configuration in pyproject.toml instead"
        )
        assert not {"nbval-skip", "nbval-check-output"} & set(_tags(cell)), (
            f"{_name(path)} cell {index}: every output is checked; tag errors "
            "raises-exception"
        )


@notebook
def test_ignored_outputs_are_widgets_or_timings(path):
    for index, cell in _code_cells(_load(path)):
        if IGNORE not in _tags(cell):
            continue
        timing = any(
            TIME_PLACEHOLDER in text for out in cell["outputs"] for text in _texts(out)
        )
        assert _has_widget(cell) or timing, (
            f"{_name(path)} cell {index}: {IGNORE} on a cell that shows neither a"
            " widget nor a timing; its output must be checked"
        )


@notebook
def test_widget_cells_are_ignored_and_followed_by_a_check(path):
    cells = _code_cells(_load(path))
    for position, (index, cell) in enumerate(cells):
        source = _source(cell)
        if not (_has_widget(cell) or re.search(r"\binteract(ive)?\(", source)):
            continue
        assert IGNORE in _tags(cell), f"{_name(path)} cell {index}: widget, no {IGNORE}"
        assert position + 1 < len(cells), f"{_name(path)}: widget cell is the last"
        _, check = cells[position + 1]
        assert IGNORE not in _tags(check) and not _has_widget(check), (
            f"{_name(path)} cell {index}: the cell after a widget must be an ordinary"
            " cell that checks the function behind it"
        )
        assert check["outputs"], (
            f"{_name(path)}: the check after cell {index} shows nothing"
        )


@notebook
def test_pngs_carry_no_software_stamp(path):
    for index, cell in _code_cells(_load(path)):
        for output in cell["outputs"]:
            data = output.get("data", {}).get("image/png")
            if data is None:
                continue
            keys = _png_text_keys(base64.b64decode("".join(data)))
            assert not keys, (
                f"{_name(path)} cell {index}: PNG metadata {keys}; call"
                " posenc_lib.figures.style.setup_notebook() in the Setup cell"
            )


@pytest.mark.parametrize("path", CHAPTERS, ids=_name)
def test_chapters_link_to_previous_and_next(path):
    title = next(c for c in _load(path)["cells"] if c["cell_type"] == "markdown")
    links = set(LINK.findall(_source(title)))
    number = CHAPTERS.index(path)
    neighbours = (
        CHAPTERS[max(0, number - 1) : number] + CHAPTERS[number + 1 : number + 2]
    )
    for neighbour in neighbours:
        assert neighbour.name in links, (
            f"{_name(path)}: the title cell does not link to {neighbour.name}"
        )


@notebook
def test_links_to_notebooks_point_to_existing_files(path):
    for cell in _load(path)["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for target in LINK.findall(_source(cell)):
            assert (path.parent / target).exists(), (
                f"{_name(path)}: broken link {target}"
            )


SOURCE_LINK = re.compile(r"\]\((\.\./[^)\s#]+)(?:#[^)]*)?\)")  # out of notebooks/


def _lab_root():
    """The folder ``make lab`` serves (its ``--ServerApp.root_dir``)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.findall(r"--ServerApp\.root_dir=(\S+)", makefile)
    assert len(found) == 1, found
    return (ROOT / found[0]).resolve()


@notebook
def test_links_out_of_notebooks_open_in_the_served_lab(path):
    """A link to the library's source names a file that ``make lab`` serves."""
    root = _lab_root()
    for cell in _load(path)["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for target in SOURCE_LINK.findall(_source(cell)):
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
    texts = [
        text
        for cell in cells
        if cell["cell_type"] == "code"
        for output in cell.get("outputs", [])
        for text in _texts(output)
    ]
    return set(_values("\n".join(texts)))


def _values(text):
    """Every number in ``text`` (code or printed output), as floats."""
    tokens = re.findall(r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e-?\d+)?", text)
    return [float(token.replace(",", "")) for token in tokens]


def _rounds_to(number, values):
    """True if one of ``values`` rounds to ``number`` as the prose writes it."""
    plain = number.replace(",", "")
    decimals = len(plain.partition(".")[2])
    target = float(plain)
    return any(round(value, decimals) == target for value in values)


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
    """Change 0.1411 to 0.1511 in the prose, or "six mistakes" to "seven", and
    this fails: no stored output of that section shows it.

    A prose number (with a decimal point, or of three digits or more) or count
    (three to twelve, in words) must be shown by a stored output of its own
    section, the cells from its ``##`` heading to the next: what the learner
    sees there, not a literal in some code cell. A prose number may round what
    an output prints (0.1411 is 0.14112000806 to 4 decimals). A number the
    lesson or the card gives is listed in the markdown cell's metadata
    ``posenc.given``; the base of a power in a formula (``10000^{2i/d}``) is
    notation.
    """
    nb = _load(path)
    cells, missing = nb["cells"], []
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


def _colour_claims(path):
    """(where, colour, value) for every colour the prose or an alt text names
    for -1, 0 or +1 of a centred scale."""
    for index, cell in enumerate(_load(path)["cells"]):
        texts = [_source(cell)] if cell["cell_type"] == "markdown" else []
        for output in cell.get("outputs", []):
            texts.append(output.get("metadata", {}).get("image/png", {}).get("alt", ""))
        for text in texts:
            for colour, value in COLOUR_AT.findall(" ".join(text.split())):
                yield f"cell {index}", colour, int(value.replace("−", "-"))


@notebook
def test_the_colours_the_prose_names_are_the_style_tables(path):
    """Change the encoding's colour map in posenc_lib/figures/style.py, and this
    fails until COLOUR_WORDS names it and the prose says its colours."""
    claims = list(_colour_claims(path))
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
