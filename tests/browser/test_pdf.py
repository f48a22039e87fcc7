"""posenc_tools.build_pdf (make pdf): the two handouts, printed offline.

The session's site (tests/browser/conftest.py) is printed by headless Chromium
(one page per handout, a minute or two). Each handout must hold its notebooks
(the learner's: index, chapters, answers, solution, explorer; the lecturer's:
the lecture and its live copy), have a title, the document's language, a tagged
structure and bookmarks per notebook and section; nothing on it may be wider
than the A4 text (every code block, display formula, table and figure is
measured, and the script exits 1 if one is); the explorers print at nearly the
full text width, without sliders; a folded "Why?" answer prints open.
"""

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


def _depth(outline):
    return 1 + max(
        (_depth(item) for item in outline if isinstance(item, list)), default=0
    )


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
        assert _depth(outline) >= 2, "a bookmark per section under its chapter"
        assert all("  " not in c.title and "¶" not in c.title for c in chapters)


def test_nothing_is_wider_than_the_text_and_explorers_print_full_width(printed):
    # the script measures every code block, display formula, table and figure
    # under print media and exits 1 if one is wider than the text
    done, handouts = printed
    assert done.returncode == 0 and "wider than the page" not in done.stderr, (
        done.stderr
    )
    for handout in handouts.values():
        checked = dict(
            (kind, int(n))
            for n, kind in re.findall(
                r"(\d+) (code|formula|table|figure)", handout["line"]
            )
        )
        assert checked.keys() == {"code", "formula", "table", "figure"}
        assert min(checked.values()) > 0, checked
    widths = [
        int(w) / 100 for w in re.findall(r"(\d+)%", handouts["learner"]["explorers"])
    ]
    assert widths and min(widths) >= MIN_EXPLORER_WIDTH, widths
    assert " 0 sliders shown" in done.stdout.split("posenc-lecturer")[0]


def test_a_folded_answer_is_printed_open(printed):
    answer = _words(_folded_answer())
    assert answer in printed[1]["learner"]["text"], answer
