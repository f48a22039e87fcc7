"""axe-core on every page of the site and every state of the slides: no violation
of any impact (critical, serious, moderate or minor; issue 40, item 5), and every
figure's ``alt`` is the text its notebook stored, never nbconvert's placeholder.

axe-core comes from the npm registry into ``.site-cache/`` (tests/browser/axe.py);
pages are opened from disk with every outside request refused.
"""

from pathlib import Path

import nbformat
import pytest
from axe import axe_source, blocking, counts, run_axe
from test_slides import offline_only, offline_slides, settled_state

pytestmark = pytest.mark.browser
PLACEHOLDER = "No description has been provided for this image"
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


@pytest.fixture(scope="module")
def axe_js():
    return axe_source()


def _stored_pngs(source):
    """How many figures (``image/png`` outputs) the notebook ``source`` stores."""
    cells = nbformat.read(NOTEBOOKS / source, as_version=4).cells
    outputs = [o for c in cells if c.cell_type == "code" for o in c.outputs]
    return sum("image/png" in output.get("data", {}) for output in outputs)


def _images_alt(page):
    return page.evaluate(
        "() => [...document.querySelectorAll('img')].map(i => i.getAttribute('alt'))"
    )


def test_every_site_page_passes_axe(page, site, axe_js, latency_report):
    out, pages = site
    page.route("**/*", offline_only)
    found, images = {}, 0
    entries = [(p.href, p.source) for p in pages] + [("index.html", pages[0].source)]
    for href, source in entries:
        page.goto((out / href).as_uri())
        page.wait_for_load_state("load")
        violations = run_axe(page, axe_js)
        assert blocking(violations) == [], href
        found[href] = counts(violations)
        alts = _images_alt(page)
        assert all(alt and PLACEHOLDER not in alt for alt in alts), href
        assert len(alts) == _stored_pngs(source), f"{href} shows its figures"
        images += len(alts)
    total = {k: sum(c[k] for c in found.values()) for k in next(iter(found.values()))}
    latency_report(f"axe on {len(found)} site pages: {total}; {images} images alt")


def test_every_slide_state_passes_axe(browser, slides, axe_js):
    with offline_slides(browser, slides, 1920, 1080) as page:
        states, key = 0, None
        while True:
            now = settled_state(page)
            if now == key:
                break  # the right arrow did nothing: the last slide
            key, states = now, states + 1
            assert blocking(run_axe(page, axe_js)) == [], f"slide state {now}"
            page.keyboard.press("ArrowRight")
        alts = _images_alt(page)
        number = page.inner_text(".slide-number").replace("\n", "").replace(" ", "")
    current, total = number.split("/")
    assert current == total, f"the right arrow stopped on slide {number}"
    assert alts and all(alt and PLACEHOLDER not in alt for alt in alts)
