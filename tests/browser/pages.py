"""What a person does in JupyterLab, Voila or a static page, as Playwright steps.

The explorers (explorer.js) are the same in every host: sliders
``input[data-name=NAME]``, and the root's ``data-shown``, their values as drawn
(``pos,d_model,offset,pair``; chapter 02: ``pos,d_model``; chapter 03: ``offset``).
"""

import re
import statistics
from pathlib import Path
from urllib.parse import urlparse

import nbformat
import numpy as np

from posenc_lib import sinusoidal_positions
from posenc_lib.figures.explorer import dot_line, pair_table

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
RUN_TIMEOUT = 120_000  # ms for Run All of a whole notebook on a busy machine
STEP_TIMEOUT = 30_000  # ms for one slider step to show
ERROR_TEXT = re.compile(
    r"Traceback|\b\w*(Error|Exception)\b|Error displaying widget|Error rendering"
)
APP = ".posenc-lecture"  # the lecture explorer's root
LOOPBACK = {"127.0.0.1", "localhost"}
GLOSSARY = [["pos", "pos"], ["d_model", "d_model"], ["offset", "Δ"], ["pair", "pair"]]
#: The screens the lecture must fit: a projector, a laptop, a full-HD screen.
SIZES = [
    {"width": 1024, "height": 768},
    {"width": 1366, "height": 768},
    {"width": 1920, "height": 1080},
]

_KERNEL_READY_JS = """
(() => {
  if (document.querySelector('.jp-Dialog')) return 'dialog';
  const name = document.querySelector('.jp-Toolbar-kernelName');
  const idle = document.querySelector(
    '.jp-Notebook-ExecutionIndicator[data-status="idle"]');
  return name && /Python/.test(name.textContent) && idle ? 'ready' : false;
})()
"""

_ALL_RUN_JS = """
() => {
  const cells = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')];
  const idle = document.querySelector(
    '.jp-Notebook-ExecutionIndicator[data-status="idle"]');
  return idle !== null && cells.length > 0 && cells.every(cell => {
    const source = cell.querySelector('.cm-content').textContent.trim();
    const prompt = cell.querySelector('.jp-InputPrompt').textContent.trim();
    return source === '' || /^\\[\\d+\\]:$/.test(prompt);
  });
}
"""


def _menu(page, menu, item):
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{menu}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{item}$")).click()


def open_and_run(page, server, name):
    """Open ``name`` in JupyterLab, clear every output, Run All from the menu;
    no cell shows an error but those tagged ``raises-exception`` (returned)."""
    page.goto(server.url(f"/lab/tree/{name}") + "&reset")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=RUN_TIMEOUT)
    handle = page.wait_for_function(_KERNEL_READY_JS, timeout=RUN_TIMEOUT)
    if handle.json_value() == "dialog":  # kernel specs arrived late: accept the default
        page.locator(".jp-Dialog .jp-mod-accept").click()
        page.wait_for_function(_KERNEL_READY_JS + " === 'ready'", timeout=RUN_TIMEOUT)
    _menu(page, "Edit", "Clear Outputs of All Cells")
    page.wait_for_function(
        "() => document.querySelectorAll('.jp-OutputArea-output').length === 0"
    )
    _menu(page, "Run", "Run All Cells")
    page.wait_for_function(_ALL_RUN_JS, timeout=RUN_TIMEOUT)
    cells = nbformat.read(NOTEBOOKS / name, as_version=4).cells
    code = [cell for cell in cells if cell.cell_type == "code"]
    tagged = "raises-exception"
    allowed = {i for i, c in enumerate(code) if tagged in c.metadata.get("tags", [])}
    assert error_outputs(page, allowed=allowed) == []
    return allowed


def error_outputs(page, root=".jp-Notebook .jp-CodeCell", allowed=()):
    """Texts of error outputs, except in the cells (by index) listed in ``allowed``."""
    texts = page.evaluate(
        """(root) => [...document.querySelectorAll(root)].map(cell =>
             [...cell.querySelectorAll('.jp-OutputArea-output, .widget-output')]
               .map(o => o.textContent))""",
        root,
    )
    return [
        f"cell {index}: {text[:300]}"
        for index, outputs in enumerate(texts)
        if index not in allowed
        for text in outputs
        if ERROR_TEXT.search(text)
    ]


def watch(page):
    """Cut every request off this machine; ``{"outside": their URLs, "failed":
    requests that failed, "errors": the console's and the page's errors}``."""
    seen = {"outside": [], "errors": [], "failed": []}

    def route(route):
        url = urlparse(route.request.url)
        if url.scheme in ("file", "data", "blob") or url.hostname in LOOPBACK:
            route.continue_()
        else:
            seen["outside"].append(route.request.url)
            route.abort()

    page.route("**/*", route)
    page.on("console", lambda m: m.type == "error" and seen["errors"].append(m.text))
    page.on("pageerror", lambda e: seen["errors"].append(str(e)))
    page.on("requestfailed", lambda r: seen["failed"].append(r.url))
    return seen


def settled_state(page):
    """Once reveal.js's transition has finished, the state's key (the slide's
    hash and how many fragments are shown)."""
    # the controls' arrows bounce forever: a CSS animation, not a transition
    page.wait_for_function(
        "() => !document.getAnimations().some(a => a instanceof CSSTransition)"
    )
    return page.evaluate(
        "() => location.hash + ' ' + document.querySelectorAll("
        "'.reveal .fragment.visible').length"
    )


def summary(name, latencies):
    """``name: n steps, median ..., p95 ...`` for latencies in ms."""
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    median = statistics.median(ordered)
    return f"{name}: {len(ordered)} steps, median {median:.0f} ms, p95 {p95:.0f} ms"


_FITS_JS = """
([root, within]) => {
  const limit = within ? document.querySelector(within).getBoundingClientRect()
                       : {left: 0, right: document.documentElement.clientWidth};
  const outside = [], scrolling = [];
  const app = document.querySelector(root);
  for (const el of [app, ...app.querySelectorAll('*')]) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;  // not shown
    if (box.left < limit.left - 1 || box.right > limit.right + 1)
      outside.push(`${el.tagName}.${[...el.classList].join('.')}: ` +
                   `${Math.round(box.left)}..${Math.round(box.right)}`);
  }
  for (let el = app; el; el = el.parentElement) {
    const style = getComputedStyle(el);
    const scrolls = ['auto', 'scroll'].includes(style.overflowX) ||
                    el === document.documentElement;
    if (scrolls && el.scrollWidth > el.clientWidth + 1)
      scrolling.push(`${el.tagName}.${[...el.classList].join('.')}: ` +
                     `${el.scrollWidth} > ${el.clientWidth}`);
  }
  return {outside, scrolling,
          limit: [Math.round(limit.left), Math.round(limit.right)]};
}
"""


def assert_fits(page, root, *, within=None, name=""):
    """Once laid out, every box under ``root`` lies inside the window (or
    ``within``); no horizontal scroll."""
    page.evaluate(
        "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
    )
    result = page.evaluate(_FITS_JS, [root, within])
    assert result["outside"] == [], f"{name}: outside {result['limit']}: {result}"
    assert result["scrolling"] == [], f"{name}: horizontal scroll: {result}"


# The time of the key press (capture phase, before the slider's own handler) and
# of the draw showing ``expected``, which key_step measures between.
_STEP_JS = """
([root, expected]) => {
  const el = document.querySelector(root);
  const step = {keydown: null, shown: null, done: false};
  window.__posenc = step;
  document.addEventListener('keydown', () => { step.keydown = performance.now(); },
                            {capture: true, once: true});
  const check = () => {
    if (el.dataset.shown === expected) {
      step.shown = performance.now(); step.done = true; observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(el, {attributes: true, attributeFilter: ['data-shown']});
  check();
}
"""


def widget_root(page, selector):
    """The CSS selector of the drawn widget ``selector``, once drawn."""
    root = f"{selector}[data-shown]"
    page.locator(root).first.wait_for(timeout=RUN_TIMEOUT)
    return root


def shown(page, root):
    """What the widget draws now, as the values of its sliders."""
    return page.locator(root).first.get_attribute("data-shown")


def key_step(page, root, name, key, expected):
    """Press ``key`` on slider ``name``; ms from the key press to ``expected`` drawn."""
    page.evaluate(_STEP_JS, [root, expected])
    handle = page.locator(f"{root} input[data-name={name}]").first
    handle.focus()
    handle.press(key)
    page.wait_for_function("() => window.__posenc.done", timeout=STEP_TIMEOUT)
    return page.evaluate("() => window.__posenc.shown - window.__posenc.keydown")


def seen(page, root):
    """``strings`` (every visible one), ``sliders`` (name, label), ``pictures``
    (role, text alternative), ``rows`` (the pair table, no gap row) shown."""
    found = page.evaluate(
        """(root) => {
          const el = document.querySelector(root);
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          const strings = [];
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const box = node.parentElement.getBoundingClientRect();
            const text = node.textContent.trim();
            if (text && box.width > 0 && box.height > 0) strings.push(text);
          }
          const sliders = [...el.querySelectorAll('input[type=range]')].map(i =>
            [i.dataset.name, i.labels.length ? i.labels[0].textContent : null]);
          const pictures = [...el.querySelectorAll('svg')].map(s =>
            [s.getAttribute('role'), s.getAttribute('aria-label')]);
          const rows = [...el.querySelectorAll('.posenc-table tbody tr')]
            .map(tr => [...tr.cells].map(td => td.textContent));
          return {strings, sliders, pictures, rows};
        }""",
        root,
    )
    rows = [[c.replace("\u2212", "-") for c in row] for row in found["rows"]]
    return {**found, "rows": [row for row in rows if len(row) == 5]}


def smallest_text(page, selector):
    """``(px, text)``: the smallest visible text under every match of ``selector``
    on the screen (font size times any scale of its block or SVG)."""
    return tuple(
        page.evaluate(
            """(selector) => {
              const found = [];
              for (const root of document.querySelectorAll(selector)) {
                const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                  const el = node.parentElement, text = node.textContent.trim();
                  const range = document.createRange();
                  range.selectNodeContents(node);
                  const box = range.getBoundingClientRect();
                  if (!text || box.width === 0 || box.height === 0) continue;
                  let scale;
                  if (el instanceof SVGElement) {
                    const m = el.getScreenCTM();
                    scale = Math.hypot(m.a, m.b);
                  } else {
                    let block = el;
                    while (!(block.offsetWidth > 0 &&
                             getComputedStyle(block).display !== 'inline'))
                      block = block.parentElement;
                    scale = block.getBoundingClientRect().width / block.offsetWidth;
                  }
                  found.push([parseFloat(getComputedStyle(el).fontSize) * scale, text]);
                }
              }
              found.sort((a, b) => a[0] - b[0]);
              return found[0];
            }""",
            selector,
        )
    )


def assert_sliders_and_numbers_on_screen(page, root, *, within=None, name=""):
    """Scrolled to the top of its panel, the widget's sliders, numbers and
    pictures all lie inside the visible area."""
    page.evaluate("(r) => document.querySelector(r).scrollIntoView()", root)
    result = page.evaluate(
        """([root, within]) => {
          const view = within ? document.querySelector(within).getBoundingClientRect()
                              : {top: 0, bottom: innerHeight};
          // the pictures one by one too: on a screen of its own the explorer
          // lays them out in one grid (their box, display: contents, is empty)
          const parts = ['.posenc-controls', '.posenc-numbers', '.posenc-pictures'];
          return parts.map(p => document.querySelector(`${root} ${p}`))
            .concat([...document.querySelectorAll(`${root} svg`)])
            .filter(e => e)
            .map(e => {
              const box = e.getBoundingClientRect();
              return [e.getAttribute('class'), Math.round(box.top),
                      Math.round(box.bottom), Math.round(view.top),
                      Math.round(view.bottom)];
            })
            .filter(([, top, bottom, vTop, vBottom]) =>
              top < vTop - 1 || bottom > vBottom + 1);
        }""",
        [root, within],
    )
    assert result == [], f"{name}: off screen (class, top, bottom, view): {result}"


# ------------------------------------------------- driving the explorers by keyboard


def expected_rows(pos, d_model):
    """``pair_table(pos, d_model)`` as rows of cell texts (no gap row)."""
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", pair_table(pos, d_model))[1:]
    cells = [re.findall(r"<td>(.*?)</td>", row) for row in rows]
    return [row for row in cells if len(row) == 5]


def check_numbers(page, root, pos, d_model, offset):
    """The table and the dot product line are posenc_lib's, to 4 decimals."""
    assert seen(page, root)["rows"] == expected_rows(pos, d_model)
    dot = page.inner_text(f"{root} .posenc-dot").replace("\u2212", "-")
    assert dot.startswith(dot_line(pos, d_model, offset)), dot


def _label_starts(page, root, text):  # the first picture's text alternative
    assert seen(page, root)["pictures"][0][1].startswith(text)


def drive_explorer(page, root, report, host):
    """Step every slider of the lecture explorer by keyboard; check the numbers."""
    pos, d_model, offset, pair = map(int, shown(page, root).split(","))
    now = seen(page, root)
    assert now["sliders"] == GLOSSARY
    assert [role for role, _ in now["pictures"]] == ["img"] * 3
    _label_starts(page, root, f"PE[{pos}] for d_model = {d_model}: ")
    times = {"pos": [], "d_model": [], "offset": [], "pair": []}

    def steps(name, key, n, change):
        nonlocal pos, d_model, offset, pair
        for _ in range(n):
            pos, d_model, offset, pair = change(pos, d_model, offset, pair)
            expected = f"{pos},{d_model},{offset},{pair}"
            times[name].append(key_step(page, root, name, key, expected))
        check_numbers(page, root, pos, d_model, offset)

    steps("pos", "ArrowRight", 20, lambda p, d, o, i: (p + 1, d, o, i))
    steps("offset", "ArrowRight", 10, lambda p, d, o, i: (p, d, o + 1, i))
    steps("offset", "ArrowLeft", 10, lambda p, d, o, i: (p, d, o - 1, i))
    steps("d_model", "ArrowRight", 20, lambda p, d, o, i: (p, d + 2, o, i))
    _label_starts(page, root, f"PE[{pos}] for d_model = {d_model}: ")
    steps("pair", "ArrowRight", 20, lambda p, d, o, i: (p, d, o, i + 1))
    steps("pair", "End", 1, lambda p, d, o, i: (p, d, o, d // 2 - 1))
    steps("d_model", "Home", 1, lambda p, d, o, i: (p, 2, o, 0))  # pair clamped
    for name, measured in times.items():
        report(summary(f"{host} explorer, {name} key steps", measured))
    handle = page.locator(f"{root} input[data-name=d_model]").first
    handle.focus()
    handle.press("Escape")  # hands back the keys: the slider lets go of the focus
    assert page.evaluate(
        "(r) => !document.querySelector(r).contains(document.activeElement)", root
    ), host


def at_each_d_model_extreme(page, root):
    """Set ``d_model`` to 2, then 64, at ``pos`` 1 (the longest strings)."""
    pos, d_model, offset, pair = map(int, shown(page, root).split(","))
    for key, d_model in (("Home", 2), ("End", 64)):
        pair = min(pair, d_model // 2 - 1)
        key_step(page, root, "d_model", key, f"{pos},{d_model},{offset},{pair}")
        if pos != 1:
            pos = 1
            key_step(page, root, "pos", "Home", f"0,{d_model},{offset},{pair}")
            key_step(page, root, "pos", "ArrowRight", f"1,{d_model},{offset},{pair}")
        yield d_model


def drive_position_explorer(page, root, report, host):
    """Step ``pos`` and ``d_model`` of chapter 02's sliders by keyboard; the
    table is posenc_lib's and the pictures stay in place."""
    pos, d_model = map(int, shown(page, root).split(","))
    assert seen(page, root)["sliders"] == GLOSSARY[:2]
    for name, pos_step, d_model_step in (("pos", 1, 0), ("d_model", 0, 2)):
        times = []
        for _ in range(20):
            pos, d_model = pos + pos_step, d_model + d_model_step
            times.append(key_step(page, root, name, "ArrowRight", f"{pos},{d_model}"))
        report(summary(f"{host} chapter 02, {name} key steps", times))
        assert seen(page, root)["rows"] == expected_rows(pos, d_model)
        if name == "pos":
            top = page.locator(f"{root} .posenc-pictures").bounding_box()["y"]
    key_step(page, root, "d_model", "End", f"{pos},64")  # the widest table
    assert page.locator(f"{root} .posenc-pictures").bounding_box()["y"] == top
    _label_starts(page, root, f"PE[{pos}] for d_model = 64: ")


def drive_pair_circle(page, root, report, host):
    """Step ``Δ`` of chapter 03's circle both ways; the arrows' ends and the
    title follow."""
    offset = int(shown(page, root))
    assert seen(page, root)["sliders"] == [["offset", "Δ"]]
    times, sign = [], 1
    for _ in range(20):
        sign = -1 if offset + sign > 15 else 1 if offset + sign < 0 else sign
        offset += sign
        key = "ArrowRight" if sign > 0 else "ArrowLeft"
        times.append(key_step(page, root, "offset", key, str(offset)))
    report(summary(f"{host} chapter 03, Δ key steps", times))
    ends = page.evaluate(
        """(root) => [...document.querySelectorAll(`${root} .posenc-arrow`)]
             .map(a => [+a.getAttribute('x2'), +a.getAttribute('y2')])""",
        root,
    )
    table = sinusoidal_positions([offset, 5 + offset], 16)[:, 2:4]  # (2, 2)
    expected = [[240 + 165 * s, 250 - 165 * c] for s, c in table]  # the SVG's circle
    np.testing.assert_allclose(ends, expected, atol=165 * 5e-5 + 1e-6)
    _label_starts(page, root, f"pair 1 of d_model = 16: Δ = {offset} ")
