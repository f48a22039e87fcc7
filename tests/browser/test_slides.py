"""The lecture's slides (`make slides`), offline, at 1920 x 1080 and 1024 x 768 (a
4:3 projector): every state the right arrow reaches has no text under 16 px (the
figures' too), nothing out of its frame, no lone paragraph, math typeset, figures
wide enough, a "Predict" prompt's answer one key press later; no request leaves
the machine, every link opens a file beside them; a slider hands the keys back.
"""

import contextlib
import importlib.util
from pathlib import Path
from urllib.parse import unquote, urlparse

import nbformat
import pytest
from pages import settled_state, watch

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
MIN_SCREEN_PX = 16  # the smallest text on the screen, in every state
#: the least share of the slide's width a figure spans (drawn for 4:3: over 80%)
MIN_FIGURE_WIDTH = {"posenc-4x3": 0.75, "posenc-16x9": 0.6}
VIEWPORTS = [(1920, 1080), (1024, 768)]
#: a state of one cell fills at least this share of the canvas's height (a lone
#: paragraph fills 9 to 17%)
MIN_FILL = 0.3
#: the canvas the slides must choose for each window: (layout class, width, height)
CANVAS = {
    (1920, 1080): ("posenc-16x9", 1366, 768),
    (1024, 768): ("posenc-4x3", 1024, 768),
}


# The state on the screen: markdown, figures and predict prompts shown; each
# visible text at its size on the screen (font size times reveal.js's and SVG's
# scale) and whether it lies inside the window; the share of the canvas's height
# filled, the cells shown, and every element out of its frame (its cell's box,
# or the canvas's).
_STATE_JS = """
() => {
  const slide = document.querySelector('.reveal .slides > section.present');
  // a cell is shown once its fragment is: the answer to a prompt
  const shown = el => !el.closest('.fragment:not(.visible)');
  // what is on the screen: also the code of a fragment that opens with a code
  // cell (posenc-code-first: predict, then run), but not its output
  const seen = el => {
    const waiting = el.closest('.fragment:not(.visible)');
    return !waiting || (waiting.classList.contains('posenc-code-first') &&
      waiting.firstElementChild.contains(el) && el !== waiting.firstElementChild &&
      !el.closest('.jp-Cell-outputWrapper'));
  };
  const cells = [...slide.querySelectorAll('.jp-Cell')]
    .filter(c => !c.closest('aside.notes'));  // speaker notes are not on screen
  const markdown = cells.filter(shown)
    .flatMap(c => [...c.querySelectorAll('.jp-RenderedMarkdown')])
    .map(m => m.innerText).join('\\n');
  const canvas = document.querySelector('.reveal .slides');  // the one it chose
  const frame = canvas.getBoundingClientRect();
  const images = [...slide.querySelectorAll('img')].filter(shown).map(img => {
    const box = img.getBoundingClientRect();
    return {src: img.getAttribute('src'), complete: img.complete,
            natural: img.naturalWidth, shown: box.width,
            of_slide: box.width / frame.width,
            inside: box.left >= 0 && box.right <= innerWidth + 1 &&
                    box.top >= 0 && box.bottom <= innerHeight + 1};
  });
  const cellsShown = cells.map(shown);
  const prompts = cells.map((c, i) => [i, c]).filter(
    ([i, c]) => /Predict/.test(c.innerText) && c.querySelector('.jp-RenderedMarkdown'))
    .map(([i, c]) => ({index: i, text: c.innerText.slice(0, 60),
                       shown: cellsShown[i],
                       after: cellsShown.slice(i + 1)}));
  const scale = el => {
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      return Math.hypot(m.a, m.b);
    }
    let box = el;  // the nearest block: inline boxes have no layout width
    while (!(box.offsetWidth > 0 && getComputedStyle(box).display !== 'inline'))
      box = box.parentElement;
    return box.getBoundingClientRect().width / box.offsetWidth;
  };
  const found = [], outside = [], boxes = [], filled = new Set(), over = [];
  for (const root of [slide, document.querySelector('.reveal .slide-number')]) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement, text = node.textContent.trim();
      if (!text || el.closest('aside.notes')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = range.getBoundingClientRect();
      if (!box.width || !box.height) continue;
      if (root === slide && seen(el)) {
        boxes.push(box);
        filled.add(el.closest('.jp-Cell'));
      }
      const style = getComputedStyle(el);
      if (!shown(el) || el.closest('.MJX_Assistive_MathML') ||
          style.visibility === 'hidden' || style.display === 'none') continue;
      const px = parseFloat(style.fontSize) * scale(el);
      found.push([Math.round(px * 10) / 10, text.slice(0, 40)]);
      if (box.left < -1 || box.top < -1 || box.right > innerWidth + 1 ||
          box.bottom > innerHeight + 1) outside.push(text.slice(0, 40));
    }
  }
  found.sort((a, b) => a[0] - b[0]);
  const scrolls = [...slide.querySelectorAll('pre')].filter(
    pre => shown(pre) && pre.scrollWidth > pre.clientWidth + 1)
    .map(pre => pre.textContent.slice(0, 40));
  for (const el of slide.querySelectorAll(':not(section)')) {  // a section: a frame
    if (!seen(el) || el.closest('aside.notes, .MJX_Assistive_MathML')) continue;
    const box = el.getBoundingClientRect();
    const hidden = getComputedStyle(el).visibility === 'hidden';
    if (!box.width || !box.height || hidden) continue;
    if (el.matches('img, svg')) { boxes.push(box); filled.add(el.closest('.jp-Cell')); }
    const cell = el.closest('.jp-Cell');
    const outer = cell && cell !== el ? cell.getBoundingClientRect() : frame;
    if (box.left < outer.left - 1 || box.right > outer.right + 1 ||
        box.top < outer.top - 1 || box.bottom > outer.bottom + 1)
      over.push([el.tagName, String(el.className.baseVal ?? el.className),
        Math.round(Math.max(outer.left - box.left, box.right - outer.right,
                            outer.top - box.top, box.bottom - outer.bottom))]);
  }
  const layout = [...document.documentElement.classList]
    .filter(c => /^posenc-\\d+x\\d+$/.test(c)).join(' ');
  return {number: document.querySelector('.slide-number').innerText.trim(),
          canvas: [layout, parseFloat(canvas.style.width),
                   parseFloat(canvas.style.height)],
          markdown, images, prompts, smallest: found[0], outside, scrolls,
          fill: (Math.max(...boxes.map(b => b.bottom)) -
                 Math.min(...boxes.map(b => b.top))) / frame.height,
          cells: filled.size, over, hasTex: /\\$[^$]+\\$/.test(markdown)};
}
"""


def _lecture_pngs():
    """``{png as base64: (smallest_px, largest_px)}`` of the lecture's figures
    (its widgets are embedded live: no still PNG)."""
    path = ROOT / "tests" / "lecture_figures.py"
    spec = importlib.util.spec_from_file_location("lecture_figures", path)
    figures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(figures)
    lecture = nbformat.read(figures.LECTURE, as_version=4)
    pngs = [
        output["data"]["image/png"].strip()
        for cell in lecture.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "image/png" in output.get("data", {})
    ]
    sizes = figures.figure_text_sizes()
    return {png: size[:2] for png, size in zip(pngs, sizes, strict=True)}


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_slides_offline_every_slide(
    browser, slides, viewport, tmp_path, latency_report
):
    sizes = _lecture_pngs()
    width, height = viewport
    with offline_slides(browser, slides, width, height) as (page, watched):
        run = _step_through(page, tmp_path, sizes)
        hrefs = page.evaluate(
            "() => [...document.querySelectorAll('.reveal a[href]')].map(a => a.href)"
        )
    assert run["canvases"] == {CANVAS[viewport]}, "the canvas for this window"
    seen = run["seen"]
    total = int(seen[-1].split("/")[1])
    assert [int(n.split("/")[0]) for n in seen] == list(range(1, total + 1))
    assert watched["outside"] == [], "the slides must need nothing from the internet"
    assert watched["failed"] == [], "files missing beside the slides"
    assert watched["errors"] == [], "errors in the browser console"
    _check_links(hrefs, slides)
    smallest = min(run["smallest"])
    latency_report(
        f"slides {width}x{height} ({CANVAS[viewport][0]}): {total} slides, "
        f"{run['states']} states, "
        f"{run['prompts']} predict prompts revealed one key press later; "
        f"figures {min(run['widths']):.0%} to {max(run['widths']):.0%} of the "
        f"slide's width; "
        f"figure text {min(run['screen_px']):.1f} to "
        f"{max(run['screen_px']):.1f} px; smallest text {smallest[0]:.1f} px "
        f"(slide {smallest[1]}: {smallest[2]!r}); the least filled state "
        f"{min(run['fill'])}"
    )
    print("smallest text per state:", [(n, px) for px, n, _ in run["smallest"]])
    assert run["prompts"] >= 6, "the lecture's predict prompts"
    assert min(run["widths"]) >= MIN_FIGURE_WIDTH[CANVAS[viewport][0]]
    assert min(run["screen_px"]) >= MIN_SCREEN_PX, "figure text on the screen"
    assert smallest[0] >= MIN_SCREEN_PX, f"text under {MIN_SCREEN_PX} px: {smallest}"
    print(f"screenshots: {tmp_path}")


@contextlib.contextmanager
def offline_slides(browser, slides, width, height):
    """``(page, watched)``: the slides from disk at this size, ``watch``ed."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        watched = watch(page)
        page.goto(slides.as_uri())
        page.locator(".reveal.ready").wait_for()
        yield page, watched
    finally:
        context.close()


def _check_links(hrefs, slides):
    """Every link of the slides opens a file beside them; none leaves the machine."""
    assert len(hrefs) >= 10, hrefs
    for href in hrefs:
        url = urlparse(href)
        assert url.scheme == "file", f"a link leaves the slides: {href}"
        target = Path(unquote(url.path))
        assert target.is_file(), f"the link {href} opens nothing"
        assert target.is_relative_to(slides.parent), href


def _step_through(page, tmp_path, sizes):
    """Press the right arrow to the end; check each state; return what was seen."""
    page.evaluate("() => MathJax.Hub.Queue(() => { window.__typeset = true; })")
    page.wait_for_function("() => window.__typeset === true")
    run = {"seen": [], "screen_px": [], "widths": [], "states": 0}
    run["canvases"] = set()
    run["smallest"] = []  # (px, slide number, text) of each state's smallest text
    run["prompts"] = 0
    run["fill"] = []  # (share of the canvas's height, cells shown, slide number)
    shown_images, key, before = set(), None, None
    while (now := settled_state(page)) != key:  # the arrow did nothing: the end
        key = now
        page.evaluate("() => new Promise(done => MathJax.Hub.Queue(done))")  # rerender
        state = page.evaluate(_STATE_JS)
        number = state["number"].replace("\n", "").replace(" ", "")
        run["states"] += 1
        run["canvases"].add(tuple(state["canvas"]))
        page.screenshot(path=str(tmp_path / f"state-{run['states']:02d}.png"))
        if not run["seen"] or run["seen"][-1] != number:
            run["seen"].append(number)
        assert not state["hasTex"], f"slide {number}: raw TeX {state['markdown']}"
        run["smallest"].append((state["smallest"][0], number, state["smallest"][1]))
        assert state["outside"] == [], f"slide {number}: text off the screen"
        assert state["scrolls"] == [], f"slide {number}: code cut at the side"
        assert state["over"] == [], f"slide {number}: out of its frame {state['over']}"
        lone = state["cells"] < 2 and state["fill"] < MIN_FILL
        assert not lone, f"slide {number}: one paragraph alone ({state['fill']:.0%})"
        run["fill"].append((round(state["fill"], 2), state["cells"], number))
        run["prompts"] += _check_prompts(number, state, before)
        for image in state["images"]:
            assert image["complete"] and image["natural"] > 0, image["src"][:80]
            assert image["inside"], f"slide {number}: a figure is cut off"
            png = image["src"].split(",", 1)[1].strip()
            run["widths"].append(image["of_slide"])
            if png in shown_images:
                continue
            shown_images.add(png)
            ratio = image["shown"] / image["natural"]
            smallest, largest = sizes[png]
            run["screen_px"] += [smallest * ratio, largest * ratio]
        before = (number, state)
        page.keyboard.press("ArrowRight")
    assert shown_images == set(sizes), "every figure of the lecture is on a slide"
    return run


def _check_prompts(number, state, before):
    """Predict, then reveal: the number of prompts whose answer came one step late."""
    revealed = 0
    earlier = {}
    if before is not None and before[0] == number:
        earlier = {p["index"]: p for p in before[1]["prompts"]}
    for prompt in state["prompts"]:
        if not prompt["shown"]:
            continue
        if prompt["index"] not in earlier or not earlier[prompt["index"]]["shown"]:
            # the prompt has just appeared: alone, with nothing after it yet
            assert prompt["after"] and not any(prompt["after"]), (
                f"slide {number}: the answer shows with the prompt {prompt['text']!r}"
            )
        elif not any(earlier[prompt["index"]]["after"]):
            # one key press after the prompt: what follows it is shown
            assert prompt["after"][0], f"slide {number}: {prompt['text']!r}"
            revealed += 1
    return revealed


def _explorer_slide(page):
    """Go to the explorer's slide; its ``Δ`` slider (an element handle)."""
    index = page.evaluate(
        """() => [...document.querySelectorAll('.reveal .slides > section')]
          .findIndex(s => s.querySelector('.posenc-lecture'))"""
    )
    page.evaluate(f"() => {{ location.hash = '#/{index}'; }}")
    settled_state(page)
    present = page.locator(".reveal section.present input[data-name=offset]")
    return present.element_handle()


def test_a_slider_hands_the_keys_back_to_the_slides(browser, slides):
    """A slider dragged with the mouse leaves the keys to the slides; one reached
    with Tab keeps them until Escape (no overview) or a click beside it. Then
    the right arrow and a clicker's PageDown move on, not the slider."""
    with offline_slides(browser, slides, 1024, 768) as (page, _):
        for hand_back in ("drag", "Escape", "click"):
            slider = _explorer_slide(page)
            before = settled_state(page)
            if hand_back == "drag":
                slider.click()
            else:
                slider.focus()  # as Tab leaves it
                value = slider.input_value()
                page.keyboard.press("ArrowRight")
                assert slider.input_value() != value, "a focused slider takes keys"
                assert settled_state(page) == before
                if hand_back == "Escape":
                    page.keyboard.press("Escape")
                else:
                    page.locator(".reveal section.present h2").click()
                focused = "document.activeElement.matches('input[type=range]')"
                assert not page.evaluate(focused), f"{hand_back} kept the focus"
                assert page.evaluate(
                    "() => !document.querySelector('.reveal').classList.contains("
                    "'overview')"
                ), f"{hand_back} opened the overview"
            value = slider.input_value()
            for key in ("ArrowRight", "PageDown"):
                page.keyboard.press(key)
                after = settled_state(page)
                assert after != before, f"{key} after {hand_back}"
                before = after
            assert slider.input_value() == value, "the keys moved the slider"
