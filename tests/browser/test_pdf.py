"""``make pdf``'s handouts, from the session's site: their notebooks, a title, the
language, tags and bookmarks; nothing wider than the A4 text; explorers at nearly
full width; folded answers printed open."""

import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import nbformat
import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
MIN_EXPLORER_WIDTH = 0.75  # of the text's width (a thumbnail was about 20%)


def _words(text):
    """The words of ``text``, ligatures (the PDF's "ﬀ") spelled out."""
    return " ".join(re.findall(r"[A-Za-z]+", unicodedata.normalize("NFKC", text)))


def _folded_answer():
    """A plain sentence from inside the first ``<details>`` of chapter 02."""
    notebook = nbformat.read(ROOT / "notebooks" / "02_sinusoidal_encoding.ipynb", 4)
    for cell in notebook.cells:
        folded = re.search(r"</summary>(.*?)</details>", cell.source, re.DOTALL)
        if cell.cell_type == "markdown" and folded:
            for line in folded.group(1).splitlines():
                if re.fullmatch(r"[A-Za-z ,.']{30,}", line.strip()):
                    return line.strip()
    raise LookupError("chapter 02 has no folded answer in plain words")


@pytest.fixture(scope="module")
def printed(tmp_path_factory, site):
    """``make pdf``'s script, in a process of its own (its own Playwright)."""
    from pypdf import PdfReader

    out = tmp_path_factory.mktemp("pdf")
    command = [sys.executable, "-m", "posenc_tools.build_pdf", "--out", str(out)]
    run = {"capture_output": True, "text": True, "cwd": ROOT, "timeout": 900}
    done = subprocess.run([*command, "--site", str(site.root)], **run)  # a hang
    handouts = {}
    for name in ("learner", "lecturer"):
        reader = PdfReader(out / f"posenc-{name}.pdf")
        line = re.search(rf"posenc-{name}\.pdf: (\d+) notebooks on .*", done.stdout)
        explorers = re.search(
            r"explorers printed at (.*?) of", done.stdout[line.end() :]
        )
        handouts[name] = {
            "reader": reader,
            "notebooks": int(line[1]),
            "line": line[0],
            "explorers": explorers[1],
            "text": _words(" ".join(page.extract_text() for page in reader.pages)),
        }
    return done, handouts


def test_each_reader_gets_the_notebooks_meant_for_them(printed):
    done, handouts = printed
    notebooks = sorted((ROOT / "notebooks").rglob("*.ipynb"))
    lecture = [n for n in notebooks if n.stem.startswith("lecture")]
    assert handouts["lecturer"]["notebooks"] == len(lecture) == 2
    assert handouts["learner"]["notebooks"] == len(notebooks) - 2
    learner, lecturer = handouts["learner"]["text"], handouts["lecturer"]["text"]
    assert "Instructor notes" in lecturer and "Instructor notes" not in learner
    assert "Answers to chapter" in learner and "explorer" in learner
    for name, handout in handouts.items():
        print(f"{name}: {handout['line']}, {len(handout['reader'].pages)} pages")


def test_a_title_the_language_tags_and_bookmarks_per_chapter_and_section(printed):
    for name, handout in printed[1].items():
        reader = handout["reader"]
        root = reader.trailer["/Root"]
        assert "handout" in reader.metadata.title and name in reader.metadata.title
        assert root["/Lang"] == "en" and "/StructTreeRoot" in root
        assert root["/MarkInfo"]["/Marked"]
        outline = reader.outline
        chapters = [item for item in outline if not isinstance(item, list)]
        assert len(chapters) == handout["notebooks"], [c.title for c in chapters]
        sections = [item for item in outline if isinstance(item, list)]
        assert sections, "a bookmark per section under its chapter"
        assert all("  " not in c.title and "¶" not in c.title for c in chapters)


def test_nothing_is_wider_than_the_text_and_explorers_print_full_width(printed):
    # the script measures each code block, formula, table and figure, exits 1 if wide
    done, handouts = printed
    assert done.returncode == 0, done.stderr
    assert "wider than the page" not in done.stderr, done.stderr
    for handout in handouts.values():
        found = re.findall(r"(\d+) (code|formula|table|figure)", handout["line"])
        checked = {kind: int(n) for n, kind in found}
        assert checked.keys() == {"code", "formula", "table", "figure"}
        assert min(checked.values()) > 0, checked
    found = re.findall(r"(\d+)%", handouts["learner"]["explorers"])
    widths = [int(w) / 100 for w in found]
    assert widths and min(widths) >= MIN_EXPLORER_WIDTH, widths
    assert " 0 sliders shown" in done.stdout.split("posenc-lecturer")[0]


def test_a_folded_answer_is_printed_open(printed):
    answer = _words(_folded_answer())
    assert answer in printed[1]["learner"]["text"], answer
