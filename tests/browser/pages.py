"""What a person does in JupyterLab or Voila, as Playwright steps, and timing of it.

Selectors are the ones listed in ``../shared/NOTES.md`` (measured on JupyterLab
4.6 with ipywidgets 8): kernel state ``.jp-Notebook-ExecutionIndicator``; the
explorers' sliders are ``input[data-name=NAME]`` (below).
"""

import re
import statistics

RUN_TIMEOUT = 120_000  # ms for Run All of a whole notebook on a busy machine
STEP_TIMEOUT = 30_000  # ms for one slider step to show
ERROR_TEXT = re.compile(
    r"Traceback|\b\w*(Error|Exception)\b|Error displaying widget|Error rendering"
)

# The time of every key press (capture phase, so before the slider's own
# handler), which key_step measures from.
_WATCH_JS = """
() => {
  window.__posenc = {keydown: null};
  document.addEventListener('keydown', () => {
    window.__posenc.keydown = performance.now();
  }, true);
}
"""


_KERNEL_READY_JS = """
(() => {
  if (document.querySelector('.jp-Dialog')) return 'dialog';
  const name = document.querySelector('.jp-Toolbar-kernelName');
  const idle = document.querySelector(
    '.jp-Notebook-ExecutionIndicator[data-status="idle"]');
  return name && /Python/.test(name.textContent) && idle ? 'ready' : false;
})()
"""


def open_notebook(page, server, name):
    """Open ``name`` in JupyterLab and wait for its kernel to be idle."""
    page.goto(server.url(f"/lab/tree/{name}") + "&reset")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=RUN_TIMEOUT)
    handle = page.wait_for_function(_KERNEL_READY_JS, timeout=RUN_TIMEOUT)
    if handle.json_value() == "dialog":  # kernel specs arrived late: accept the default
        page.locator(".jp-Dialog .jp-mod-accept").click()
        page.wait_for_function(_KERNEL_READY_JS + " === 'ready'", timeout=RUN_TIMEOUT)


def _menu(page, menu, item):
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{menu}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{item}$")).click()


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


def run_all(page):
    """Clear every output, Run All from the menu, wait until each cell has run."""
    _menu(page, "Edit", "Clear Outputs of All Cells")
    page.wait_for_function(
        "() => document.querySelectorAll('.jp-OutputArea-output').length === 0"
    )
    _menu(page, "Run", "Run All Cells")
    page.wait_for_function(_ALL_RUN_JS, timeout=RUN_TIMEOUT)


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


def summary(name, latencies):
    """``name: n steps, median ..., p95 ...`` for latencies in ms."""
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    median = statistics.median(ordered)
    return f"{name}: {len(ordered)} steps, median {median:.0f} ms, p95 {p95:.0f} ms"


#: The screens the lecture must fit: a projector, a laptop, a full-HD screen.
SIZES = [
    {"width": 1024, "height": 768},
    {"width": 1366, "height": 768},
    {"width": 1920, "height": 1080},
]
LAB_SIZES = SIZES

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
    """Every box under ``root`` lies inside the window (or ``within``); no h-scroll.

    Waits for the page to lay out at its size first (two animation frames).
    """
    page.evaluate(
        "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
    )
    result = page.evaluate(_FITS_JS, [root, within])
    assert result["outside"] == [], f"{name}: outside {result['limit']}: {result}"
    assert result["scrolling"] == [], f"{name}: horizontal scroll: {result}"


# ---------------------------------------------------------------- the explorers
# The anywidget explorers (posenc_lib/figures/static/explorer.js), the same in
# every host: native range sliders ``input[data-name=NAME]`` labelled with their
# glossary name, and the root's ``data-shown`` attribute, written after each draw
# (``pos,d_model,offset,pair`` for the lecture, ``pos,d_model`` for chapter 02,
# ``offset`` for chapter 03).

_SHOWN_WATCH_JS = """
([root, expected]) => {
  const el = document.querySelector(root);
  const state = {shown: null, done: false};
  window.__posenc = window.__posenc || {keydown: null};
  window.__posenc.step = state;
  const check = () => {
    if (el.dataset.shown === expected) {
      state.shown = performance.now(); state.done = true; observer.disconnect();
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
    page.evaluate(_WATCH_JS)  # records the time of every key press
    page.evaluate(f"([r, e]) => ({_SHOWN_WATCH_JS})([r, e])", [root, expected])
    handle = page.locator(f"{root} input[data-name={name}]").first
    handle.focus()
    handle.press(key)
    page.wait_for_function("() => window.__posenc.step.done", timeout=STEP_TIMEOUT)
    return page.evaluate("() => window.__posenc.step.shown - window.__posenc.keydown")


def escape_hands_back_the_keys(page, root, name):
    """Focus slider ``name``, press Escape: True if it let go of the focus."""
    handle = page.locator(f"{root} input[data-name={name}]").first
    handle.focus()
    handle.press("Escape")
    return page.evaluate(
        "(r) => !document.querySelector(r).contains(document.activeElement)", root
    )


def widest(page, root):
    """The right edge, in px, of the widget's widest box (its root included)."""
    return page.evaluate(
        """(root) => Math.round(Math.max(...[...document.querySelectorAll(
             `${root}, ${root} *`)].map(e => e.getBoundingClientRect())
             .filter(b => b.width > 0).map(b => b.right)))""",
        root,
    )


def visible_strings(page, root):
    """Every visible string of the widget (its text, slider readouts included)."""
    return page.evaluate(
        """(root) => {
          const el = document.querySelector(root);
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          const out = [];
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const box = node.parentElement.getBoundingClientRect();
            const text = node.textContent.trim();
            if (text && box.width > 0 && box.height > 0) out.push(text);
          }
          return out;
        }""",
        root,
    )


def accessible(page, root):
    """Sliders' accessible names and the pictures' roles and text alternatives."""
    return page.evaluate(
        """(root) => {
          const el = document.querySelector(root);
          const sliders = [...el.querySelectorAll('input[type=range]')].map(i =>
            [i.dataset.name, i.labels.length ? i.labels[0].textContent : null]);
          const pictures = [...el.querySelectorAll('svg')].map(s =>
            [s.getAttribute('role'), s.getAttribute('aria-label')]);
          return {sliders, pictures};
        }""",
        root,
    )


def table_rows(page, root):
    """The widget's pair table: ``[[pair, ω, pos·ω, sin, cos], ...]`` (no gap row)."""
    rows = page.evaluate(
        """(root) => [...document.querySelectorAll(`${root} .posenc-table tbody tr`)]
             .map(tr => [...tr.cells].map(td => td.textContent))""",
        root,
    )
    return [[c.replace("\u2212", "-") for c in row] for row in rows if len(row) == 5]


def smallest_svg_text(page, root):
    """The smallest font size, in screen px, of the widget's picture text."""
    return page.evaluate(
        """(root) => Math.min(...[...document.querySelectorAll(`${root} svg text`)]
             .filter(t => t.textContent.trim())
             .map(t => parseFloat(getComputedStyle(t).fontSize) *
                       t.ownerSVGElement.getScreenCTM().a))""",
        root,
    )


def smallest_text(page, root):
    """``(px, text)``: the widget's smallest visible text as rendered on the screen.

    HTML text: its computed font size times its block's on-screen / layout width
    (1 unless something scales it); SVG text: times its screen CTM's scale.
    """
    return tuple(
        page.evaluate(
            """(root) => {
              const found = [];
              const walker = document.createTreeWalker(
                document.querySelector(root), NodeFilter.SHOW_TEXT);
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
              found.sort((a, b) => a[0] - b[0]);
              return found[0];
            }""",
            root,
        )
    )


def assert_sliders_and_numbers_on_screen(page, root, *, within=None, name=""):
    """With the widget scrolled to the top of its panel, its sliders, numbers and
    pictures all lie inside the visible area (no scroll needed, nothing clipped)."""
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
