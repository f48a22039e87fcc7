"""The course's two handouts, offline: ``make pdf`` writes them into ``pdf/``.

    python -m posenc_tools.build_pdf [--out pdf] [--site site]

- ``posenc-learner.pdf``, the learner's: the index, each chapter followed by its
  answers (and the exercise's solution), and the explorer;
- ``posenc-lecturer.pdf``, the lecturer's: the lecture with its instructor notes,
  and its live copy.

Builds the web edition (``posenc_tools.build_site``, from the stored outputs), or
takes one already built (``--site``, e.g. ``make site``'s), joins each handout's
pages into one HTML page (:func:`handout_page`) and prints it once with the
browser tests' headless Chromium (Debian's ``/usr/bin/chromium`` through
Playwright): one print keeps what Chromium writes, a title (the page's), the
document's language, a tagged PDF for screen readers and bookmarks from the
headings (a chapter, its sections). For print (``static/print.css``):

- every ``<details>`` is opened (each "Why?" answer is printed, not folded);
- the page is laid out and typeset at the A4 text width from the start
  (:data:`TEXT_WIDTH`), so MathJax breaks long display formulas there;
- code and text outputs wrap at the page edge, tables and figures fit it, and
  an explorer prints as its picture at the full text width, without sliders;
- nothing is wider than the text: :data:`TOO_WIDE` measures every code block,
  display formula, table and figure, and the build fails if one passes it.

Nothing is fetched: the site's pages, MathJax included, are files on disk, and
any request for another address is refused.
"""

import argparse
import html
import re
import sys
import tempfile
import time
from pathlib import Path

from posenc_lib.figures.explorer import page_assets
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
OUT = ROOT / "pdf"
MARGIN_MM = 14
MARGIN = {side: f"{MARGIN_MM}mm" for side in ("top", "bottom", "left", "right")}
#: A4 less the margins, in CSS px at 96 per inch: the width the text is laid out at
TEXT_WIDTH = round((210 - 2 * MARGIN_MM) / 25.4 * 96)
PAGE_TIMEOUT_MS = 300_000  # only a hang: a handout prints in under a minute
TITLE = "Token embeddings and sinusoidal positional encoding"
#: name -> (file, title, which pages of the site)
HANDOUTS = {
    "learner": (
        "posenc-learner.pdf",
        f"{TITLE}: the learner's handout",
        lambda page: not page.source.stem.startswith("lecture"),
    ),
    "lecturer": (
        "posenc-lecturer.pdf",
        f"{TITLE}: the lecturer's handout",
        lambda page: page.source.stem.startswith("lecture"),
    ),
}
NAV = re.compile(r'<nav class="posenc-nav.*?</nav>', re.DOTALL)

#: run in the page before it prints: answers open, MathJax done (its line
#: breaks at the text width), and a display formula it could not break there
#: scaled down to fit it
PREPARE = """async () => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  if (window.MathJax && MathJax.Hub) {
    await new Promise(done => MathJax.Hub.Queue(done));
  }
  for (const math of document.querySelectorAll('.MJXc-display')) {
    const wide = math.scrollWidth / math.clientWidth;
    if (wide > 1) math.firstElementChild.style.fontSize = `${98 / wide}%`;
  }
}"""

#: ``[(width / the text's width, sliders shown)]`` of each explorer, printed
EXPLORERS = """() => [...document.querySelectorAll('.posenc-static')].map(el => [
  el.querySelector('.posenc-pictures, .posenc-figure, svg').getBoundingClientRect()
    .width / document.querySelector('main').getBoundingClientRect().width,
  [...el.querySelectorAll('input')].filter(i => i.getClientRects().length).length])"""

#: ``{kind: [count, [start of each one wider than the text]]}`` under print media:
#: every code block, display formula, table and figure against the text's box
TOO_WIDE = """() => {
  const text = document.querySelector('main').getBoundingClientRect();
  const kinds = {code: 'pre', formula: '.MJXc-display, .MathJax_Display',
                 table: 'table', figure: 'img, svg, .posenc-static'};
  const found = {};
  for (const [kind, selector] of Object.entries(kinds)) {
    found[kind] = [0, []];
    for (const el of document.querySelectorAll(selector)) {
      if (kind === 'figure' && el.parentElement.closest('svg')) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0) continue;
      found[kind][0] += 1;
      if (box.left < text.left - 1 || box.right > text.right + 1 ||
          el.scrollWidth > el.clientWidth + 1)
        found[kind][1].push((el.textContent || el.getAttribute('alt') || '')
          .replace(/\\s+/g, ' ').slice(0, 60));
    }
  }
  return found;
}"""


def _offline(route):
    """Let file:// pages load; refuse anything else."""
    if route.request.url.startswith("file://"):
        return route.continue_()
    return route.abort()


def handout_pages(pages, which):
    """The site's pages of one handout, in course order: each chapter, then the
    pages of its number in sub-folders (its answers, the exercise's solution)."""
    chapters = [page for page in pages if page.parent is None and which(page)]
    number = {page.source.name[:2]: page for page in chapters}
    under = {page.href: [] for page in chapters}
    for page in pages:
        if page.parent is not None and which(page.parent):
            chapter = number.get(page.source.name[:2], page.parent)
            under[chapter.href].append(page)
    return [p for chapter in chapters for p in (chapter, *under[chapter.href])]


def handout_page(site, pages, title):
    """One HTML page of ``pages`` (built in ``site``) with the site's style, for
    print: each notebook's content in a ``<section>`` that starts a sheet; the
    explorers' script once."""
    first = (site / pages[0].href).read_text("utf-8")
    assets = page_assets()
    sections, titles = [], set()
    for page in pages:
        text = (site / page.href).read_text("utf-8")
        main = text[text.index("<main>") + 6 : text.rindex("</main>")]
        main = NAV.sub("", main).replace(assets, "")
        heading = re.search(r"<h1[^>]*>(.*?)</h1>", main, re.S)
        heading = heading and re.sub(r"<[^>]+>", "", heading[1])
        if heading in titles:  # a copy's title (the live lecture, the solution)
            name = html.escape(page.source.as_posix())  # tells it apart
            main = re.sub(r"(<h1[^>]*>)", rf"\1{name}: ", main, count=1)
        titles.add(heading)
        sections.append(f'<section class="posenc-print-page">{main}</section>')
    start, end = first.index("<main>") + 6, first.rindex("</main>")
    page = first[:start] + assets + "\n".join(sections) + first[end:]
    title = f"<title>{html.escape(title)}</title>"
    return re.sub(r"<title>.*?</title>", title, page, count=1, flags=re.S)


def print_handout(browser, source, target):
    """Print the page ``source`` to the PDF ``target``; returns what is too wide."""
    page = browser.new_page(viewport={"width": TEXT_WIDTH, "height": 1000})
    try:
        page.route("**/*", _offline)
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        page.emulate_media(media="print")
        page.goto(source.as_uri(), wait_until="load")
        page.evaluate(PREPARE)
        wide = page.evaluate(TOO_WIDE)
        wide["explorers"] = page.evaluate(EXPLORERS)
        page.pdf(
            path=str(target),
            format="A4",
            margin=MARGIN,
            print_background=True,
            outline=True,
            tagged=True,
        )
    finally:
        page.close()
    return wide


def build(out=OUT, notebooks=build_site.NOTEBOOKS, cache=build_site.CACHE, site=None):
    """Write the handouts into ``out``: ``{name: (pdf, pages, measured)}``.

    ``site`` is a web edition built from ``notebooks`` (``None``: build one).
    ``measured`` is :data:`TOO_WIDE`'s measure (no kind should list any) and,
    under ``"explorers"``, :data:`EXPLORERS`'.
    """
    from playwright.sync_api import sync_playwright

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    done = {}
    with tempfile.TemporaryDirectory(prefix="posenc-pdf-") as work:
        if site is None:
            site = Path(work) / "site"
            pages = build_site.build(site, notebooks, cache)
        else:
            pages = build_site.course_pages(notebooks)
        site = Path(site)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
            )
            try:
                for name, (file, title, which) in HANDOUTS.items():
                    chosen = handout_pages(pages, which)
                    source = site / f"handout-{name}.html"  # beside the site's pages
                    source.write_text(handout_page(site, chosen, title), "utf-8")
                    try:
                        wide = print_handout(browser, source, out / file)
                    finally:
                        source.unlink()
                    done[name] = (out / file, chosen, wide)
            finally:
                browser.close()
    return done


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the handouts' folder")
    parser.add_argument(
        "--site", type=Path, help="print this built site instead of building one"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    failed = False
    for pdf, pages, wide in build(args.out, site=args.site).values():
        from pypdf import PdfReader

        sheets = len(PdfReader(pdf).pages)
        explorers = wide.pop("explorers")
        checked = ", ".join(f"{n} {kind}" for kind, (n, _) in wide.items())
        print(f"{pdf}: {len(pages)} notebooks on {sheets} pages ({checked} checked)")
        widths = ", ".join(f"{width:.0%}" for width, _ in explorers)
        shown = sum(sliders for _, sliders in explorers)
        print(f"  explorers printed at {widths or 'none'} of the text width, "
              f"{shown} sliders shown")  # fmt: skip
        for kind, (_, too_wide) in wide.items():
            for start_of in too_wide:
                failed = True
                print(f"  {kind} wider than the page: {start_of!r}", file=sys.stderr)
    print(f"{time.perf_counter() - start:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
