"""The course as one PDF, offline: ``make pdf`` writes ``pdf/posenc-course.pdf``.

    python -m posenc_tools.build_pdf [--out pdf/posenc-course.pdf] [--site site]

Builds the web edition (``posenc_tools.build_site``, from the stored outputs), or
takes one already built (``--site``, e.g. ``make site``'s), and prints each of its
pages, in course order, with the same headless Chromium the
browser tests use (Debian's ``/usr/bin/chromium`` through Playwright), then
joins the pages into one file with pypdf. For print, every page

- opens every ``<details>`` (each "Why?" answer is printed, not folded);
- wraps code and text outputs at the page edge instead of cutting them
  (``tools/posenc_tools/site/static/print.css``, a ``@media print`` style sheet);
- keeps figures whole, never split between two sheets, scaled to the page;
- waits for MathJax to typeset before it prints.

Nothing is fetched: the site's pages, MathJax included, are files on disk, and
any request for another address is refused.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

from pypdf import PdfWriter

from posenc_tools import (
    ROOT,
    build_site,  # the web edition this prints
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
OUT = ROOT / "pdf" / "posenc-course.pdf"
MARGIN = {side: "14mm" for side in ("top", "bottom", "left", "right")}
PAGE_TIMEOUT_MS = 120_000  # only a hang: a page prints in a few seconds

#: run in each page before it prints: answers open, MathJax done
PREPARE = """async () => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  if (window.MathJax && MathJax.Hub) {
    await new Promise(done => MathJax.Hub.Queue(done));
  }
}"""

#: code or output lines wider than their box when printed (none, once wrapped)
CLIPPED = """() => [...document.querySelectorAll('pre')]
  .filter(pre => pre.scrollWidth > pre.clientWidth + 1)
  .map(pre => pre.textContent.slice(0, 60))"""


def _offline(route):
    """Let file:// pages load; refuse anything else."""
    if route.request.url.startswith("file://"):
        return route.continue_()
    return route.abort()


def print_pages(site, pages, folder):
    """Print each page of ``site`` to ``folder``; returns the PDFs and the clipped."""
    from playwright.sync_api import sync_playwright

    printed, clipped = [], {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            page = browser.new_page()
            page.route("**/*", _offline)
            page.set_default_timeout(PAGE_TIMEOUT_MS)
            for number, course_page in enumerate(pages):
                page.goto((site / course_page.href).as_uri(), wait_until="load")
                page.emulate_media(media="print")
                page.evaluate(PREPARE)
                lines = page.evaluate(CLIPPED)
                if lines:
                    clipped[course_page.href] = lines
                target = folder / f"{number:02d}.pdf"
                page.pdf(
                    path=str(target), format="A4", margin=MARGIN, print_background=True
                )
                printed.append(target)
        finally:
            browser.close()
    return printed, clipped


def join(pdfs, out):
    """One PDF of ``pdfs`` in order, written to ``out``; its page count."""
    writer = PdfWriter()
    for pdf in pdfs:
        writer.append(str(pdf))
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as file:
        writer.write(file)
    return len(writer.pages)


def build(out=OUT, notebooks=build_site.NOTEBOOKS, cache=build_site.CACHE, site=None):
    """Write the course's PDF to ``out``: ``(pages, sheets, clipped)``.

    ``site`` is a web edition built from ``notebooks`` (``None``: build one).
    ``clipped`` maps a page to the start of each code block still too wide for
    the sheet (none is expected: the print style sheet wraps them).
    """
    with tempfile.TemporaryDirectory(prefix="posenc-pdf-") as work:
        if site is None:
            site = Path(work) / "site"
            pages = build_site.build(site, notebooks, cache)
        else:
            pages = build_site.course_pages(notebooks)
        printed, clipped = print_pages(Path(site), pages, Path(work))
        sheets = join(printed, Path(out))
    return pages, sheets, clipped


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--site", type=Path, help="print this built site instead of building one"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    pages, sheets, clipped = build(args.out, site=args.site)
    size = args.out.stat().st_size / 1e6
    print(
        f"{args.out}: {len(pages)} notebooks on {sheets} pages, {size:.1f} MB, "
        f"{time.perf_counter() - start:.0f} s"
    )
    for href, lines in clipped.items():
        print(
            f"  {href}: {len(lines)} code blocks wider than the page", file=sys.stderr
        )
    return 1 if clipped else 0


if __name__ == "__main__":
    raise SystemExit(main())
