"""The lecture's slides (`make slides`) in a browser with every outside request cut.

Builds the slides into a temporary folder (reveal.js, MathJax, require.js and
jQuery from the npm registry, cached in build/slides-cache), opens the page at
1920 x 1080 from disk, steps through every slide with the right arrow key, and
on each slide checks that its math is typeset (no raw ``$...$``), that each
figure has loaded, and that its axis text is at least 18 px on the screen (the
font sizes of each figure, measured by re-drawing the lecture's figures, times
the image's shown / natural width).
"""

import importlib.util
from pathlib import Path
from urllib.parse import urlparse

import nbformat
import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
MIN_SCREEN_PX = 18


def _module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_SLIDE_JS = """
() => {
  const slide = document.querySelector('.reveal .slides > section.present');
  const markdown = [...slide.querySelectorAll('.jp-RenderedMarkdown')]
    .map(m => m.innerText).join('\\n');
  const images = [...slide.querySelectorAll('img')].map(img => {
    const box = img.getBoundingClientRect();
    return {src: img.getAttribute('src'), complete: img.complete,
            natural: img.naturalWidth, shown: box.width,
            inside: box.left >= 0 && box.right <= innerWidth + 1 &&
                    box.top >= 0 && box.bottom <= innerHeight + 1};
  });
  return {number: document.querySelector('.slide-number').innerText.trim(),
          markdown, images,
          math: slide.querySelectorAll('.MathJax_CHTML, .mjx-chtml').length,
          hasTex: /\\$[^$]+\\$/.test(markdown)};
}
"""


def _png_text_sizes():
    """``{png base64: (smallest_px, largest_px)}`` of the lecture's figures."""
    figures = _module("lecture_figures", ROOT / "tests" / "lecture_figures.py")
    lecture = nbformat.read(figures.LECTURE, as_version=4)
    pngs = [
        output["data"]["image/png"]
        for cell in lecture.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "image/png" in output.get("data", {})
    ]
    sizes = figures.figure_text_sizes()
    assert len(sizes) == len(pngs)
    return {png.strip(): size[:2] for png, size in zip(pngs, sizes, strict=True)}


def test_slides_offline_every_slide(browser, tmp_path, latency_report):
    build_slides = _module("build_slides", ROOT / "scripts" / "build_slides.py")
    html = build_slides.build(out=tmp_path / "slides")
    links = [line for line in html.read_text().splitlines() if "src=" in line]
    assert not [line for line in links if "https://" in line or "http://" in line]
    sizes = _png_text_sizes()
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    outside = []

    def offline(route):  # nothing may come from outside this folder
        if urlparse(route.request.url).scheme in ("file", "data", "blob"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    try:
        page.route("**/*", offline)
        page.goto(html.as_uri())
        page.locator(".reveal.ready").wait_for()
        seen, screen_px = _step_through(page, tmp_path, sizes)
    finally:
        context.close()
    total = int(seen[-1].split("/")[1])
    assert [int(n.split("/")[0]) for n in seen] == list(range(1, total + 1))
    assert outside == [], "the slides must need nothing from the internet"
    latency_report(
        f"slides: {total} slides; figure text on a 1920x1080 screen "
        f"{min(screen_px):.1f} to {max(screen_px):.1f} px"
    )
    assert min(screen_px) >= MIN_SCREEN_PX
    print(f"screenshots: {tmp_path}")


def _step_through(page, tmp_path, sizes):
    """Press the right arrow to the end; check each slide; return what was seen."""
    page.evaluate("() => MathJax.Hub.Queue(() => { window.__typeset = true; })")
    page.wait_for_function("() => window.__typeset === true")
    seen, screen_px, shown_images, key = [], [], 0, None
    while True:
        page.wait_for_timeout(450)  # the slide transition (0.4 s) has finished
        now = page.evaluate(
            "() => location.hash + ' ' + document.querySelectorAll("
            "'.reveal .fragment.visible').length"
        )
        if now == key:
            break  # the right arrow did nothing: the last slide
        key = now
        state = page.evaluate(_SLIDE_JS)
        number = state["number"].replace("\n", "").replace(" ", "")
        if not seen or seen[-1] != number:
            seen.append(number)
            page.screenshot(path=str(tmp_path / f"slide-{len(seen):02d}.png"))
            assert not state["hasTex"], f"slide {number}: raw TeX {state['markdown']}"
            for image in state["images"]:
                assert image["complete"] and image["natural"] > 0, image["src"][:80]
                assert image["inside"], f"slide {number}: a figure is cut off"
                png = image["src"].split(",", 1)[1]
                ratio = image["shown"] / image["natural"]
                smallest, largest = sizes[png.strip()]
                screen_px += [smallest * ratio, largest * ratio]
                shown_images += 1
        page.keyboard.press("ArrowRight")
    assert shown_images == len(sizes), "every figure of the lecture is on a slide"
    return seen, screen_px
