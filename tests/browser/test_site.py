"""The web edition (`make site`) in Chromium, every page from the file system and
a few from a loopback web server, with every request off this machine blocked:
no page may need one. The static sliders are driven by keyboard."""

import functools
import re
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlparse

import nbformat
import pytest
from pages import (
    SIZES,
    assert_fits,
    assert_sliders_and_numbers_on_screen,
    drive_explorer,
    drive_pair_circle,
    drive_position_explorer,
    watch,
    widget_root,
)
from posenc_tools import build_site

REPO = Path(__file__).resolve().parents[2]

MAX_BYTES = 15_000_000  # the issue: the whole site weighs less than 15 MB
WIDGET_REPRS = ("PositionExplorer(", "PairCircleExplorer(", "VBox(children")
RAW_MATH = re.compile(r"\$[^$\n]+\$")


@pytest.fixture(scope="module")
def http_site(site):
    """A static web server for the site on a free loopback port (a thread)."""
    quiet = type("Quiet", (SimpleHTTPRequestHandler,), {"log_message": lambda *_: None})
    handler = functools.partial(quiet, directory=str(site[0]))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def _html_pages(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html"))


# ---------------------------------------------------------------- the files


@pytest.mark.slow  # builds the site
def test_site_has_every_notebook_weighs_little_and_needs_no_cdn(site, latency_report):
    """A page per notebook, under 15 MB in all; no widget repr, test marker, CDN
    or link to a notebook left."""
    root, pages = site
    size = build_site.site_size(root)
    latency_report(f"make site: {len(pages)} pages, {size / 1e6:.1f} MB")
    assert size < MAX_BYTES
    notebooks = sorted(
        p.relative_to(REPO / "notebooks").with_suffix(".html").as_posix()
        for p in (REPO / "notebooks").rglob("*.ipynb")
        if ".ipynb_checkpoints" not in p.parts
    )
    assert sorted(p.href for p in pages) == notebooks
    assert _html_pages(root) == sorted([*notebooks, "index.html"])
    for name in _html_pages(root):
        text = (root / name).read_text(encoding="utf-8")
        assert not [r for r in WIDGET_REPRS if r in text], name
        assert "NBVAL_" not in text, name
        cdn = r'<(?:script|link)[^>]+(?:src|href)="(?:https?:)?//'
        assert re.findall(cdn, text) == [], name
        assert re.findall(r'href="(?![a-z]+:)[^"]*\.ipynb', text) == [], name
        assert text.count('class="posenc-nav ') == 2, name


# ---------------------------------------------------------------- in a browser


_MATH_DONE_JS = """
() => new Promise(done => {
  if (!window.MathJax || !MathJax.Hub) { done('no MathJax'); return; }
  MathJax.Hub.Queue(() => done('typeset'));
})
"""

_PAGE_STATE_JS = """
() => ({
  markdown: [...document.querySelectorAll('.jp-RenderedMarkdown')]
      .map(e => e.innerText).join('\\n'),
  typeset: document.querySelectorAll('.MathJax_CHTML').length,
  mathErrors: document.querySelectorAll('.mjx-merror, .MathJax_Error').length,
  links: [...document.querySelectorAll('a[href]')].map(a => a.href),
  sliders: [...document.querySelectorAll('input[type=range]')]
      .map(i => i.labels.length ? i.labels[0].textContent : null),
  ready: document.querySelectorAll('.posenc-static').length ===
      document.querySelectorAll('.posenc-static.posenc-ready').length,
})
"""


def _check_page(page, url, source_has_math):
    """Open ``url``; returns its links. Math typeset, no raw ``$``, sliders ready."""
    page.goto(url)
    assert page.evaluate(_MATH_DONE_JS) == "typeset", url
    state = page.evaluate(_PAGE_STATE_JS)
    assert RAW_MATH.findall(state["markdown"]) == [], url
    assert state["mathErrors"] == 0, url
    assert (state["typeset"] > 0) == source_has_math, url
    assert state["ready"], url
    assert all(state["sliders"]), f"a slider without a label on {url}"
    return state["links"]


def _has_math(root, name):
    if name == "index.html":
        name = build_site.course_pages()[0].href
    source = (REPO / "notebooks" / name).with_suffix(".ipynb")
    cells = nbformat.read(source, as_version=4).cells
    return any(c.cell_type == "markdown" and "$" in c.source for c in cells)


@pytest.mark.browser
def test_every_page_from_the_file_system_offline(site, page):
    root = site[0]
    seen = watch(page)
    broken = []
    for name in _html_pages(root):
        links = _check_page(page, (root / name).as_uri(), _has_math(root, name))
        files = [link for link in links if urlparse(link).scheme == "file"]
        broken += [
            f"{name} -> {link}"
            for link in files
            if not Path(unquote(urlparse(link).path)).is_file()  # no #anchor
        ]
    assert broken == []
    assert seen == {"outside": [], "errors": [], "failed": []}, "all here, no error"


@pytest.mark.browser
def test_pages_from_a_static_web_server_offline(site, http_site, page):
    seen = watch(page)
    for name in ("index.html", "02_sinusoidal_encoding.html", "explorer.html"):
        links = _check_page(page, http_site + name, _has_math(site[0], name))
        for link in {link.split("#")[0] for link in links}:
            if link.startswith(http_site):
                assert page.request.get(link).status == 200, f"{name} -> {link}"
    assert seen == {"outside": [], "errors": [], "failed": []}


@pytest.mark.browser
@pytest.mark.parametrize(
    ("name", "selector", "drive"),
    [
        ("explorer.html", ".posenc-lecture", drive_explorer),
        ("02_sinusoidal_encoding.html", ".posenc-position", drive_position_explorer),
        ("04_why_sines.html", ".posenc-pair-circle", drive_pair_circle),
    ],
    ids=["explorer", "02-position", "04-pair-circle"],
)
def test_static_sliders_follow_the_keyboard(
    site, page, tmp_path, latency_report, name, selector, drive
):
    seen = watch(page)
    page.goto((site[0] / name).as_uri())
    page.locator(".posenc-static.posenc-ready").first.wait_for()
    root = widget_root(page, selector)
    drive(page, root, latency_report, "site")
    for size in SIZES if drive is drive_explorer else ():
        page.set_viewport_size(size)
        assert_fits(page, root, name=f"site {size}")
        assert_sliders_and_numbers_on_screen(page, root, name=f"site {size}")
        page.screenshot(path=str(tmp_path / f"site-explorer-{size['width']}.png"))
    assert seen["outside"] == [] and seen["errors"] == []
