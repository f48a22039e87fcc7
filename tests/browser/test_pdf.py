"""posenc_tools.build_pdf (make pdf): the course printed to one PDF, offline.

The session's site (tests/browser/conftest.py) is printed page by page by
headless Chromium (about 30 s); the PDF must have pages, no code block wider than
its sheet, and the text of a folded "Why?" answer, which only an opened
``<details>`` prints.
"""

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def _words(text):
    return " ".join(re.findall(r"[A-Za-z]+", text))


def _folded_answer():
    """A plain sentence from inside the first ``<details>`` of chapter 02."""
    notebook = nbformat.read(ROOT / "notebooks" / "02_sinusoidal_encoding.ipynb", 4)
    for cell in notebook.cells:
        folded = re.search(r"</summary>(.*?)</details>", cell.source, re.DOTALL)
        if cell.cell_type == "markdown" and folded:
            for line in folded.group(1).splitlines():
                if re.fullmatch(r"[A-Za-z ,.]{30,}", line.strip()):
                    return line.strip()
    raise LookupError("chapter 02 has no folded answer in plain words")


@pytest.fixture(scope="module")
def printed(tmp_path_factory, site):
    """``make pdf``'s script, in a process of its own (its own Playwright)."""
    from pypdf import PdfReader

    out = tmp_path_factory.mktemp("pdf") / "course.pdf"
    command = [sys.executable, "-m", "posenc_tools.build_pdf", "--out", str(out)]
    run = {"capture_output": True, "text": True, "cwd": ROOT, "timeout": 900}
    done = subprocess.run([*command, "--site", str(site.root)], **run)  # 900 s: a hang
    reader = PdfReader(out)
    notebooks = int(re.search(r"(\d+) notebooks on", done.stdout).group(1))
    text = _words(" ".join(page.extract_text() for page in reader.pages))
    return {
        "done": done,
        "notebooks": notebooks,
        "sheets": len(reader.pages),
        "text": text,
        "bytes": out.stat().st_size,
    }


def test_the_pdf_has_every_notebook_on_its_pages(printed):
    notebooks = sorted((ROOT / "notebooks").rglob("*.ipynb"))
    assert printed["notebooks"] == len(notebooks)
    assert printed["sheets"] > printed["notebooks"]
    print(f"PDF: {printed['sheets']} pages, {printed['bytes'] / 1e6:.1f} MB")


def test_no_code_line_is_cut_at_the_edge_of_the_sheet(printed):
    # the script measures every <pre> under print media and exits 1 if one is
    # wider than its box
    done = printed["done"]
    assert done.returncode == 0 and "wider than the page" not in done.stderr, (
        done.stderr
    )


def test_a_folded_answer_is_printed_open(printed):
    answer = _words(_folded_answer())
    assert answer in printed["text"], answer
