"""axe-core (npm's, checked, cached) on every page of the site and every state of
the slides, offline: no violation of any impact (issue 40, item 5), and every
figure's ``alt`` is the text its notebook stored, never nbconvert's placeholder.
"""

import tarfile
from pathlib import Path

import nbformat
import pytest
from pages import settled_state, watch
from posenc_tools.build_site import npm_tarball
from test_slides import offline_slides

pytestmark = pytest.mark.browser
PLACEHOLDER = "No description has been provided for this image"
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
AXE = "axe-core@4.14.1"
AXE_INTEGRITY = (
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFoo"
    "JpZe37OgudVGtQ=="
)
IMPACTS = ("critical", "serious", "moderate", "minor")


@pytest.fixture(scope="module")
def axe_js():
    """The text of ``axe.min.js`` from axe-core's npm tarball (fetched once)."""
    with tarfile.open(npm_tarball(AXE, AXE_INTEGRITY, why="the axe tests")) as tar:
        return tar.extractfile("package/axe.min.js").read().decode()


def run_axe(page, source):
    """axe's violations on ``page`` (WCAG 2 A/AA, best practices), one line
    each, and ``{impact: number of failing nodes}``."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=source)
    violations = page.evaluate(
        """async () => {
          const result = await axe.run(document, {resultTypes: ['violations']});
          return result.violations.map(v => ({id: v.id, impact: v.impact,
            help: v.help, nodes: v.nodes.map(n => n.target.join(' '))}));
        }"""
    )
    counts = dict.fromkeys(IMPACTS, 0)
    for violation in violations:
        counts[violation["impact"]] += len(violation["nodes"])
    lines = [
        f"{v['impact']} {v['id']} ({v['help']}): {len(v['nodes'])} nodes, e.g. "
        f"{v['nodes'][:3]}"
        for v in violations
    ]
    return lines, counts


def _images_alt(page):
    return page.evaluate(
        "() => [...document.querySelectorAll('img')].map(i => i.getAttribute('alt'))"
    )


def test_every_site_page_passes_axe(page, site, axe_js, latency_report):
    out, pages = site
    watch(page)
    total, images = dict.fromkeys(IMPACTS, 0), 0
    entries = [(p.href, p.source) for p in pages] + [("index.html", pages[0].source)]
    for href, source in entries:
        page.goto((out / href).as_uri())
        page.wait_for_load_state("load")
        violations, counts = run_axe(page, axe_js)
        assert violations == [], href
        total = {impact: total[impact] + counts[impact] for impact in IMPACTS}
        alts = _images_alt(page)
        assert all(alt and PLACEHOLDER not in alt for alt in alts), href
        cells = nbformat.read(NOTEBOOKS / source, as_version=4).cells
        outputs = [o for c in cells if c.cell_type == "code" for o in c.outputs]
        stored = sum("image/png" in output.get("data", {}) for output in outputs)
        assert len(alts) == stored, f"{href} shows its figures"
        images += len(alts)
    latency_report(f"axe on {len(entries)} site pages: {total}; {images} images alt")


def test_every_slide_state_passes_axe(browser, slides, axe_js):
    with offline_slides(browser, slides, 1920, 1080) as (page, _):
        key = None
        while (now := settled_state(page)) != key:  # until the last slide
            key = now
            assert run_axe(page, axe_js)[0] == [], f"slide state {now}"
            page.keyboard.press("ArrowRight")
        alts = _images_alt(page)
        number = page.inner_text(".slide-number").replace("\n", "").replace(" ", "")
    current, total = number.split("/")
    assert current == total, f"the right arrow stopped on slide {number}"
    assert alts and all(alt and PLACEHOLDER not in alt for alt in alts)
