"""Guards on the committed notebooks that nbval does not give.

nbval passes a notebook whose outputs were all cleared, never looks at PNGs, and
cannot see inside widgets. These tests read the stored ``.ipynb`` files and fail
when a notebook was not executed and normalised by ``posenc_tools.run_notebooks``
(``make notebooks``), or breaks a rule of the course:

- every non-empty code cell has an execution count and outputs, and the counts
  run 1, 2, 3, ... (one top-to-bottom run). A cell may have no output only
  when its source says why, on a line starting ``# no output:``, or when it is
  a lecture's live blank (tagged ``live``, one comment line: its prompt);
- no memory addresses, no ``metadata.widgets`` state, no execution timestamps,
  no ``Software`` stamp in a PNG, no stderr output;
- errors only in cells tagged ``raises-exception``, and each such cell raised;
- ``# NBVAL_IGNORE_OUTPUT`` only on widget cells and timing cells; each widget
  cell is followed by an ordinary code cell that checks the function behind it;
- each numbered chapter's title cell links to the previous and next chapter,
  and every link to a notebook points to a file that exists.
"""

import base64
import json
import re
import struct
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(
    path
    for path in NOTEBOOK_DIR.rglob("*.ipynb")
    if ".ipynb_checkpoints" not in path.parts
)
CHAPTERS = sorted(NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
IGNORE = "# NBVAL_IGNORE_OUTPUT"
NO_OUTPUT = re.compile(r"^# no output: \S", re.MULTILINE)
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
            assert NO_OUTPUT.search(_source(cell)) or _is_live_blank(cell), (
                f"{_name(path)} cell {index} has no output: show a value, or say"
                f" why on a line '# no output: <reason>'.\n{_source(cell)}"
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


@notebook
def test_no_other_nbval_markers(path):
    for index, cell in _code_cells(_load(path)):
        for marker in ("NBVAL_SKIP", "NBVAL_RAISES_EXCEPTION", "NBVAL_CHECK_OUTPUT"):
            assert marker not in _source(cell), (
                f"{_name(path)} cell {index}: {marker}; use the cell tag "
                "raises-exception for errors, and check every other output"
            )


@notebook
def test_ignored_outputs_are_widgets_or_timings(path):
    for index, cell in _code_cells(_load(path)):
        if IGNORE not in _source(cell):
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
        assert IGNORE in source, f"{_name(path)} cell {index}: widget without {IGNORE}"
        assert position + 1 < len(cells), f"{_name(path)}: widget cell is the last"
        _, check = cells[position + 1]
        assert IGNORE not in _source(check) and not _has_widget(check), (
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
                " posenc_lib.figures.encoding.setup_notebook() in the Setup cell"
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
